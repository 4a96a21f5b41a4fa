/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: every scalar width, the logical types on scalars, a
 * const member and skipped members (bit-field included). */
#ifndef CG_PRIMS_H
#define CG_PRIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg") prims {
    bool flag;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    uint8_t u8;
    uint16_t u16;
    short sh;
    int in;
    signed char sc;
    unsigned char uc;
    char ch;
    uint32_t u32;  /* long, range-checked on decode */
    int64_t i64;
    long long ll;
    uint64_t u64 AVRO_FIELD(type = "long"); /* the bits as a long */
    float f32;
    double f64;
    int32_t *maybe_i32 AVRO_NULLABLE;  /* ["null","int"] through a pointer */
    uint64_t *maybe_u64 AVRO_NULLABLE AVRO_FIELD(type = "long");
    double *maybe_f64 AVRO_NULLABLE AVRO_FIELD(default = 0.5); /* ["double","null"] */
    bool *maybe_flag AVRO_NULLABLE;
    void *cache AVRO_SKIP;
    unsigned bits : 3 AVRO_SKIP;
};

/** Logical types on their scalar carriers. */
typedef struct AVRO_RECORD(namespace = "cg") logicals {
    int32_t day AVRO_LOGICAL(date);
    int32_t tod_ms AVRO_LOGICAL(time-millis);
    int64_t tod_us AVRO_LOGICAL(time-micros);
    int64_t ts_ms AVRO_LOGICAL(timestamp-millis);
    int64_t ts_us AVRO_LOGICAL(timestamp-micros);
    int64_t ts_ns AVRO_LOGICAL(timestamp-nanos);
    int64_t local_ms AVRO_LOGICAL(local-timestamp-millis);
    int64_t local_us AVRO_LOGICAL(local-timestamp-micros);
    int64_t local_ns AVRO_LOGICAL(local-timestamp-nanos);
    int64_t cents AVRO_DECIMAL(18, 2);     /* bytes, minimal two's complement */
    uint64_t ucents AVRO_DECIMAL(19, 0);   /* unsigned: 9 bytes above INT64_MAX */
    uint8_t wide[16] AVRO_DECIMAL(38, 9);  /* fixed(16) + decimal */
    uint8_t id[16] AVRO_LOGICAL(uuid);     /* fixed(16) + uuid */
    char *id_text AVRO_LOGICAL(uuid);
    char id_chars[37] AVRO_LOGICAL(uuid);
    avrogen_str id_view AVRO_LOGICAL(uuid);
    uint8_t span[12] AVRO_LOGICAL(duration);
    int64_t *stamps AVRO_ARRAY(n_stamps) AVRO_LOGICAL(timestamp-micros);
    uint32_t n_stamps;
    int64_t *amounts AVRO_ARRAY(n_amounts) AVRO_DECIMAL(12, 4);
    uint16_t n_amounts;
} logicals_t;

#endif /* CG_PRIMS_H */
