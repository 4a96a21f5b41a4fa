/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codegen test types for the ahead-of-time resolved decoders: the current
 * versions of records whose earlier versions are the .avsc files of
 * tests/codegen/earlier (generated with --compat-with earlier). Each member says what an earlier
 * writer did differently; test_aot.c reads data written with every earlier
 * schema and checks the result against the generic resolver.
 */
#ifndef CG_AOT_H
#define CG_AOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include <avrogen/annotate.h>

/* Earlier: the symbols in another order, plus CRITICAL (read as the default). */
enum AVRO_ENUM(namespace = "aot", default = "UNKNOWN", strip_prefix = "AOT_LEVEL_") aot_level {
    AOT_LEVEL_UNKNOWN,
    AOT_LEVEL_LOW,
    AOT_LEVEL_MID,
    AOT_LEVEL_HIGH
};

/* Earlier: another order, plus PINK; no default, so PINK fails the datum. */
enum AVRO_ENUM(namespace = "aot", strip_prefix = "AOT_") aot_color { AOT_RED, AOT_GREEN, AOT_BLUE };

/* Earlier: {x: int, y: int}; the weight came later, with a default. */
struct AVRO_RECORD(namespace = "aot") aot_point {
    int64_t x;
    int64_t y;
    double weight AVRO_FIELD(default = 1.5);
};

struct aot_attr {
    char *key;
    int64_t value;
};

/* Reaches itself. Earlier: the value was an int. */
struct AVRO_RECORD(namespace = "aot") aot_node {
    int64_t value;
    struct aot_node *next AVRO_NULLABLE;
};

enum aot_kind { AOT_KIND_NUM, AOT_KIND_TEXT, AOT_KIND_REAL };

struct AVRO_RECORD(namespace = "aot", aliases = ["aot.legacy_event"]) aot_event {
    int64_t id;                                /* earlier: int */
    double ratio;                              /* earlier: float */
    float share;                               /* earlier: long */
    avrogen_bytes payload;                     /* earlier: string */
    char *label;                               /* earlier: bytes */
    char name[16];                             /* unchanged, elsewhere in the record */
    enum aot_level level;                      /* earlier: other symbols */
    enum aot_color color;                      /* earlier: other symbols */
    struct aot_point origin;                   /* earlier: another aot_point */
    struct aot_point *path AVRO_ARRAY(n_path); /* ... in an array */
    size_t n_path;
    int64_t *samples AVRO_ARRAY(n_samples); /* earlier: array of int */
    size_t n_samples;
    double grid[3];                            /* earlier: array of float */
    struct aot_attr *attrs AVRO_MAP(n_attrs);  /* earlier: map of int */
    size_t n_attrs;
    int64_t *maybe AVRO_NULLABLE;              /* earlier: ["null", "int"] */
    char *note AVRO_NULLABLE;                  /* earlier: a plain string */
    int64_t either;                            /* earlier: ["null", "int", "long"] */
    struct aot_node *chain AVRO_NULLABLE;      /* earlier: another aot_node */
    enum aot_kind kind;
    union {
        int64_t num;
        char *text;
        double real;
    } u AVRO_UNION(kind);                      /* earlier: ["int", "string"] */
    uint8_t digest[4] AVRO_FIXED_NAME(aot.Digest); /* unchanged */
    /* Not in the earlier versions: their defaults. */
    int32_t count AVRO_FIELD(default = 7);
    char *tag AVRO_FIELD(default = "none", aliases = ["old_tag"]);
    int64_t *hist AVRO_ARRAY(n_hist) AVRO_FIELD(default = [1, 2, 3]);
    size_t n_hist;
    enum aot_level prio AVRO_FIELD(default = "HIGH");
    struct aot_point home AVRO_FIELD(default = {"x": 1, "y": -2});
    double *opt AVRO_NULLABLE AVRO_FIELD(default = null);
    bool flag AVRO_FIELD(default = true);
    double scale AVRO_FIELD(default = 0.1);
    float gain AVRO_FIELD(default = -2.5);
    int64_t big AVRO_FIELD(default = 12345678901234);
    avrogen_str motto AVRO_FIELD(default = "caf\u00e9");
    void *cache AVRO_SKIP;
};

/* Issue 11's struct shapes. Members named u_* are unsigned: test_aot.c's
 * random writer values are not negative there, nor above 15 in bits_*. v0
 * and v1 differ only in ids: python3-avro 1.11.1 resolves no array of int as
 * an array of long. */
struct AVRO_RECORD(namespace = "aot") aot_shapes {
    size_t u_packets;  /* earlier: int (a negative int is refused) */
    uint64_t u_octets; /* earlier: long */
    long delta;        /* earlier: int */
    time_t at;         /* unchanged */
    struct timeval seen; /* earlier: int (microseconds) */
    char name[16] AVRO_STRING(name_len); /* unchanged */
    uint8_t name_len;
    char host[16] AVRO_PADDED;           /* unchanged */
    int64_t ids[4] AVRO_ARRAY(n_ids);    /* v1: array of int */
    uint16_t n_ids;
    char *topic AVRO_STRING(topic_len);  /* unchanged */
    size_t topic_len;
    unsigned long u_limit AVRO_FIELD(default = 9223372036854775807); /* not earlier */
    int8_t value_kind;
    union {
        int32_t none AVRO_FIELD(type = "null") AVRO_TAG(-1);
        int64_t number AVRO_TAG(10, 11);
        char *text AVRO_TAG(20);
    } value AVRO_UNION(value_kind); /* earlier: ["string", "int", "null"] */
    unsigned int bits_ver : 4;      /* earlier: int (test_aot.c writes bits_* in 0..15) */
    int64_t ticks : 40;             /* earlier: int, promoted into the bit-field */
};

/* One writer field read by several members (earlier: old, label and at
 * once each): each reads it again, resolved on its own terms. */
struct AVRO_RECORD(namespace = "aot") aot_twice {
    int32_t old;
    int64_t wide AVRO_FIELD(aliases = ["old"]);
    double real AVRO_FIELD(aliases = ["old"]);
    char *label;
    char *copy AVRO_FIELD(aliases = ["label"]);
    struct aot_point at;
    struct aot_point again AVRO_FIELD(aliases = ["at"]);
};

/* Holders (issue 14): arrays and unions as array items and union branches,
 * written with ints where the reader has longs and doubles. */
struct aot_hrow {
    double *value AVRO_ARRAY(n); /* earlier: array of int */
    size_t n;
};

struct aot_hlongs {
    int64_t *value AVRO_ARRAY(n); /* earlier: array of int */
    uint32_t n;
};

struct aot_hcell {
    int8_t kind;
    union {
        int32_t none AVRO_FIELD(type = "null");
        int64_t number;
        char *text;
    } value AVRO_UNION(kind); /* earlier: ["null", "int", "string"] */
};

struct AVRO_RECORD(namespace = "aot") aot_holders {
    struct aot_hrow *rows AVRO_ARRAY(n_rows);
    size_t n_rows;
    struct aot_hcell *cells AVRO_ARRAY(n_cells);
    size_t n_cells;
    int kind;
    union {
        bool flag;
        double number;
        struct aot_hlongs list;
    } u AVRO_UNION(kind); /* earlier: ["boolean", "double", {"type": "array", "items": "int"}] */
};

/* Recursion through a union branch (python3-avro's Lisp): the branch `cons` is
 * the record aot_cons through a pointer. Earlier: the branches in another
 * order, and aot_cons with a field `weight` between car and cdr (skipped). */
struct aot_cons;

enum aot_lisp_kind { AOT_LISP_NIL, AOT_LISP_ATOM, AOT_LISP_CONS };

struct AVRO_RECORD(namespace = "aot") aot_lisp {
    enum aot_lisp_kind kind;
    union {
        char nil AVRO_FIELD(type = "null");
        char *atom;
        struct aot_cons *cons;
    } value AVRO_UNION(kind); /* earlier: ["null", "aot_cons", "string"] */
};

struct AVRO_RECORD(namespace = "aot") aot_cons {
    struct aot_lisp car;
    struct aot_lisp cdr;
};

#endif /* CG_AOT_H */
