/* Logical types on the C types that can hold them. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() times {
    int32_t day AVRO_LOGICAL(date);
    int32_t tod_ms AVRO_LOGICAL(time-millis);
    int64_t tod_us AVRO_LOGICAL(time-micros);
    int64_t ts_ms AVRO_LOGICAL(timestamp-millis);
    int64_t ts_us AVRO_LOGICAL(timestamp-micros);
    int64_t ts_ns AVRO_LOGICAL(timestamp-nanos);
    int64_t local_ms AVRO_LOGICAL(local-timestamp-millis);
    int64_t local_us AVRO_LOGICAL(local-timestamp-micros);
    int64_t local_ns AVRO_LOGICAL(local-timestamp-nanos);
    uint8_t span[12] AVRO_LOGICAL(duration);          /* fixed(12) + duration */
    int64_t *samples AVRO_ARRAY(n_samples) AVRO_LOGICAL(timestamp-micros); /* items carry it */
    uint32_t n_samples;
};

struct AVRO_RECORD() ids {
    uint8_t bin[16] AVRO_LOGICAL(uuid);               /* fixed(16) + uuid */
    char *text AVRO_LOGICAL(uuid);                    /* string + uuid */
    char canonical[37] AVRO_LOGICAL(uuid);
    avrogen_str view AVRO_LOGICAL(uuid);
};

struct AVRO_RECORD() amounts {
    int64_t cents AVRO_DECIMAL(18, 2);                /* bytes + decimal, big-endian two's complement */
    uint8_t wide[16] AVRO_DECIMAL(38, 9);             /* fixed(16) + decimal */
    int64_t whole AVRO_DECIMAL(10, 0);
    int64_t *history AVRO_ARRAY(n_history) AVRO_DECIMAL(12, 4);
    uint16_t n_history;
};
