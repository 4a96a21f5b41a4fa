/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codegen test types: writers for schema evolution. Each record here has the
 * Avro name of a reader in another header (cg_prims.h, cg_strings.h, ...; or
 * an alias of cg_evolve.h's) and writes what it can read: fields reordered,
 * dropped (reader defaults) and added (skipped), numbers promoted, strings
 * as bytes and back, unions on either side, enums reordered or with symbols the
 * reader lacks. Its C types are never wider than the reader's, so a random
 * struct here always fits the reader's struct. Generated into a directory of
 * its own (tests/codegen/CMakeLists.txt): its .avsc files share names with
 * the readers'.
 */
#ifndef CG_EVOLVE_OLD_H
#define CG_EVOLVE_OLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/* Writer-only data, skipped by every reader. */
struct AVRO_RECORD(namespace = "cg.old") junk {
    int64_t a;
    char *b;
    double c[2];
    struct junk *next AVRO_NULLABLE;
};

struct junk_entry {
    char *key;
    double value;
};

struct AVRO_RECORD(name = "prims", namespace = "cg") prims_w {
    char *extra_text;
    float f64;    /* float -> double */
    int16_t f32;  /* int -> float */
    int32_t i64;  /* int -> long */
    int32_t ll;
    uint16_t u32; /* int -> long in uint32_t */
    int32_t u64;  /* int -> long in uint64_t */
    bool flag;
    int8_t i8;
    int8_t i16;
    int32_t i32;
    uint8_t u8;
    uint16_t u16;
    short sh;
    int in;
    signed char sc;
    unsigned char uc;
    char ch;
    int32_t maybe_i32;                /* not a union -> ["null", "int"] */
    int32_t *maybe_u64 AVRO_NULLABLE; /* ["null", "int"] -> ["null", "long"] */
    bool *maybe_flag AVRO_NULLABLE;
    /* no maybe_f64: the reader's default */
    struct junk extra_junk;
    int64_t *extra_longs AVRO_ARRAY(n_extra_longs);
    size_t n_extra_longs;
    struct junk_entry *extra_map AVRO_MAP(n_extra_map);
    size_t n_extra_map;
    char *extra_maybe AVRO_NULLABLE;
};

struct AVRO_RECORD(name = "maybe_texts", namespace = "cg") maybe_texts_w {
    uint8_t (*digest)[4] AVRO_NULLABLE AVRO_FIXED_NAME(maybe_texts_digest);
    char *s;                               /* not a union -> ["null", "string"] */
    avrogen_str view AVRO_NULLABLE;
    char *blob AVRO_NULLABLE;              /* ["null", "string"] -> ["null", "bytes"] */
    avrogen_str raw;                       /* string -> the bytes of ["null", "bytes"] */
    char *second;                          /* not a union -> ["string", "null"] */
    avrogen_str second_view AVRO_NULLABLE; /* ["null", "string"] -> ["string", "null"] */
};

/* The reader's symbols in another order, or some of them. */
enum AVRO_ENUM(name = "cg_color", namespace = "cg",
               strip_prefix = "W_COLOR_") w_color { W_COLOR_BLUE, W_COLOR_RED, W_COLOR_GREEN };
enum AVRO_ENUM(name = "cg_code", namespace = "cg",
               strip_prefix = "W_CODE_") w_code { W_CODE_HIGH, W_CODE_OK, W_CODE_LOW };
enum AVRO_ENUM(name = "cg_big_t", namespace = "cg",
               strip_prefix = "W_BIG_") w_big { W_BIG_S69, W_BIG_S00, W_BIG_S33 };

struct w_code_entry {
    char key[6];
    enum w_code value;
};

struct AVRO_RECORD(name = "palette", namespace = "cg") palette_w {
    enum w_color main;
    enum w_code code;
    enum w_big big;
    enum w_color colors[2]; /* a C array -> pointer + count */
    enum w_code codes[3];
    struct w_code_entry *by_name AVRO_MAP(n_by_name);
    uint8_t n_by_name;
    enum w_color accent; /* not a union -> a nullable pointer */
};

struct AVRO_RECORD(name = "amount", namespace = "cg") amount_w {
    int32_t units; /* int -> long */
    int32_t nanos;
    char *memo;
};

struct AVRO_RECORD(name = "shape", namespace = "cg") shape_w {
    uint8_t kind;
    union {
        float f; /* matches no branch of the reader's union */
        int32_t i; /* int -> the reader's long branch */
        char none AVRO_FIELD(type = "null");
        struct amount_w amount;
        uint8_t raw[4] AVRO_FIXED_NAME(Raw4);
        float list[2]; /* array<float> -> array<double> */
        char *text;
    } as AVRO_UNION(kind);
    double scalar; /* not a union -> the reader's first branch that matches */
};

struct AVRO_RECORD(name = "node", namespace = "cg") node_w {
    char *junk;
    struct node_w *next AVRO_NULLABLE; /* before the value: reordered */
    int32_t value;
};

struct AVRO_RECORD(name = "tree", namespace = "cg") tree_w {
    struct tree_w *children AVRO_ARRAY(n_children);
    uint8_t n_children;
    avrogen_str label;
};

struct AVRO_RECORD(name = "item", namespace = "cg") item_w {
    int32_t sku;
    char *name;
    float price;
    int64_t *extra AVRO_ARRAY(n_extra);
    size_t n_extra;
};

struct wc_entry {
    avrogen_str key;
    int32_t value;
};
struct wl_entry {
    char key[16];
    avrogen_str value;
};
struct ws_entry {
    char *key;
    struct item_w value;
};
struct wb_entry {
    char *key;
    int16_t value[2];
};
struct wo_entry {
    char *key;
    char *value;
};
struct ww_entry {
    char *key;
    float value[2];
};

struct AVRO_RECORD(name = "maps", namespace = "cg") maps_w {
    struct wc_entry *counters AVRO_MAP(n_counters); /* map<int> -> map<long> */
    size_t n_counters;
    struct wl_entry *labels AVRO_MAP(n_labels);
    size_t n_labels;
    struct ws_entry *scored AVRO_MAP(n_scored);
    size_t n_scored;
    struct wb_entry *bags AVRO_MAP(n_bags);
    size_t n_bags;
    struct wo_entry *optional AVRO_MAP(n_optional); /* string -> ["null", "string"] */
    size_t n_optional;
    struct ww_entry *weights AVRO_MAP(n_weights);
    size_t n_weights;
};

struct AVRO_RECORD(name = "arrays", namespace = "cg") arrays_w {
    float *doubles AVRO_ARRAY(n_doubles);
    size_t n_doubles;
    int32_t *floats AVRO_ARRAY(n_floats);
    uint8_t n_floats;
    int32_t *longs AVRO_ARRAY(n_longs);
    uint16_t n_longs;
    int16_t *shorts AVRO_ARRAY(n_shorts);
    uint16_t n_shorts;
    bool *flags AVRO_ARRAY(n_flags);
    size_t n_flags;
    avrogen_str *names AVRO_ARRAY(n_names);
    size_t n_names;
    char **views AVRO_ARRAY(n_views);
    size_t n_views;
    struct item_w *items AVRO_ARRAY(n_items);
    size_t n_items;
    float matrix[3][3];
    int8_t deltas[4];
    avrogen_str labels[2];
    char tags[2][8];
    int16_t weights[5];
    struct item_w pair[2];
    int32_t *maybe_longs AVRO_ARRAY(n_maybe_longs) AVRO_NULLABLE;
    size_t n_maybe_longs;
};

struct AVRO_RECORD(name = "cg_coord", namespace = "cg.base") coord_w {
    float lat;
    float lon;
};

struct AVRO_RECORD(name = "pinned", namespace = "cg") pinned_w {
    struct coord_w where; /* not a union -> a nullable pointer to the record */
    int16_t id;
};

/* Writers of cg_evolve.h's rich, through the reader's aliases. */
enum AVRO_ENUM(name = "ev_status", namespace = "cg.ev_old",
               strip_prefix = "EV_OLD_") ev_old_status {
    EV_OLD_LOST, /* not a reader symbol: its default, UNKNOWN */
    EV_OLD_NEW,
    EV_OLD_ARCHIVED,
    EV_OLD_DONE
};

struct AVRO_RECORD(name = "ev_point", namespace = "cg.ev_old") ev_old_point {
    char *z;
    int32_t x; /* no y: its default */
};

struct AVRO_RECORD(name = "rich", namespace = "cg.ev_old") ev_old_rich {
    char *extra;
    float total; /* the reader's "amount", by its alias */
    enum ev_old_status status;
    int32_t id;
    struct ev_old_point where;
    char *title AVRO_NULLABLE; /* a union -> a plain string: null fails */
};

#endif /* CG_EVOLVE_OLD_H */
