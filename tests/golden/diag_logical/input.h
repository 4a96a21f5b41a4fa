/* AVRO_LOGICAL and AVRO_DECIMAL on types that cannot carry them. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() when {
    int64_t a AVRO_LOGICAL(date);
    int32_t b AVRO_LOGICAL(timestamp-micros);
    uint8_t c[8] AVRO_LOGICAL(uuid);
    int64_t d AVRO_LOGICAL(decimal);
    int64_t e AVRO_LOGICAL(instant);
    int64_t f AVRO_DECIMAL(19, 2);
    int64_t g AVRO_DECIMAL(4, 6);
    uint8_t h[4] AVRO_DECIMAL(10, 0);
    double i AVRO_DECIMAL(10, 2);
    char *j AVRO_FIXED_NAME(Nope);
    int64_t k AVRO_DECIMAL(ten, 2);
    uint64_t l AVRO_DECIMAL(21, 0);
};
