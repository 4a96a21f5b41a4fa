/* Instants take the timestamp logical types only. */
#include <sys/time.h>
#include <time.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() bad_time {
    struct timespec a AVRO_LOGICAL(date);
    time_t b AVRO_LOGICAL(time-micros);
    struct timeval c AVRO_DECIMAL(10, 0);
    struct timespec d AVRO_LOGICAL(instant);
};
