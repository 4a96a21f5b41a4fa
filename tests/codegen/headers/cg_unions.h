/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: tagged unions (enum and integer tags, a null branch, a
 * non-null default that puts another branch first). */
#ifndef CG_UNIONS_H
#define CG_UNIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg") amount {
    int64_t units;
    int32_t nanos;
};

enum shape_kind { SHAPE_NONE, SHAPE_INT, SHAPE_TEXT, SHAPE_AMOUNT, SHAPE_RAW, SHAPE_LIST };

struct AVRO_RECORD(namespace = "cg") shape {
    enum shape_kind kind;
    union {
        char none AVRO_FIELD(type = "null");
        int64_t i;
        char *text;
        struct amount amount;
        uint8_t raw[4] AVRO_FIXED_NAME(Raw4);
        double list[2];
    } as AVRO_UNION(kind);
    uint8_t which;
    union {
        double d;
        avrogen_str s;
        bool b;
    } scalar AVRO_UNION(which) AVRO_FIELD(default = 1.5);
};

#endif /* CG_UNIONS_H */
