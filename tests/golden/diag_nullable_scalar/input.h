/* AVRO_NULLABLE needs a pointer; NULL is the null. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() reading {
    int32_t value AVRO_NULLABLE;
    int32_t **twice AVRO_NULLABLE;
};
