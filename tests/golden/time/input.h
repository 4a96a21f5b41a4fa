/* Instants: struct timespec is timestamp-nanos and struct timeval
 * timestamp-micros by default; AVRO_LOGICAL picks another unit, also for a
 * time_t, which alone is a plain long of seconds. */
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() stamps {
    struct timespec ts;
    struct timeval tv;
    struct timespec ms AVRO_LOGICAL(timestamp-millis);
    struct timeval local AVRO_LOGICAL(local-timestamp-micros);
    time_t secs;
    time_t at_ms AVRO_LOGICAL(timestamp-millis);
    time_t at_ns AVRO_LOGICAL(local-timestamp-nanos);
    struct timespec *maybe AVRO_NULLABLE;
    struct timespec window[2];
    time_t *marks AVRO_ARRAY(n_marks) AVRO_LOGICAL(timestamp-micros);
    uint8_t n_marks;
    struct timespec since AVRO_FIELD(default = 0);
};
