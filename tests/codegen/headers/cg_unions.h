/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: tagged unions (enum and integer tags, a null branch, a
 * non-null default that puts another branch first), and enum-typed tags in
 * every kind of struct decoding stores them into: a record, an array item, a
 * nested record and a map entry (which carries no annotation of its own). C++
 * converts no integer to an enum, so generated code must cast each stored tag
 * to the tag's own type; the C++17 compile tests check that it does. */
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

enum cell_kind { CELL_INT, CELL_TEXT, CELL_AMOUNT };
typedef enum { MARK_NONE, MARK_FLAG, MARK_SCORE } mark_kind_t; /* named by its typedef only */

/* Map entries: the tag sits next to `value`, declared with an enum type. */
struct cell {
    char *key;
    enum cell_kind kind;
    union {
        int32_t i;
        char *text;
        struct amount amount;
    } value AVRO_UNION(kind);
};

struct mark {
    avrogen_str key;
    mark_kind_t kind;
    union {
        char none AVRO_FIELD(type = "null");
        bool flag;
        double score;
    } value AVRO_UNION(kind);
};

/* An array item and a nested record with an enum tag. */
struct AVRO_RECORD(namespace = "cg") cell_item {
    enum cell_kind kind;
    union {
        int32_t i;
        char *text;
        struct amount amount;
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD(namespace = "cg") sheet {
    struct cell *cells AVRO_MAP(n_cells);
    uint32_t n_cells;
    struct mark *marks AVRO_MAP(n_marks);
    size_t n_marks;
    struct cell_item *items AVRO_ARRAY(n_items);
    uint16_t n_items;
    struct cell_item first;
    mark_kind_t last_kind;
    union {
        char none AVRO_FIELD(type = "null");
        bool flag;
        double score;
    } last AVRO_UNION(last_kind);
};

#endif /* CG_UNIONS_H */
