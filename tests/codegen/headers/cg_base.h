/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: records that cg_nested.h uses from another header. */
#ifndef CG_BASE_H
#define CG_BASE_H

#include <stdint.h>

#include <avrogen/annotate.h>

typedef struct AVRO_RECORD(namespace = "cg.base") {
    int32_t x;
    int32_t y;
} cg_point_t;

struct AVRO_RECORD(namespace = "cg.base") cg_money {
    int64_t units;
    char currency[4];
};

/* Fixed-size on the wire: its encoded size folds to a constant. */
struct AVRO_RECORD(namespace = "cg.base") cg_coord {
    double lat;
    double lon;
};

#endif /* CG_BASE_H */
