/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: arrays (pointer + count with every count width, C
 * arrays, nested arrays) and maps (each key storage, varied values). */
#ifndef CG_CONTAINERS_H
#define CG_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg") item {
    int64_t sku;
    char *name;
    double price;
};

/* Nothing on the wire: arrays of it are bounded by the item budget alone. */
struct AVRO_RECORD(namespace = "cg") hollow {
    void *cache AVRO_SKIP;
};

struct AVRO_RECORD(namespace = "cg") arrays {
    double *doubles AVRO_ARRAY(n_doubles);
    size_t n_doubles;
    float *floats AVRO_ARRAY(n_floats);
    uint8_t n_floats;
    int64_t *longs AVRO_ARRAY(n_longs);
    int32_t n_longs;
    int16_t *shorts AVRO_ARRAY(n_shorts);
    uint16_t n_shorts;
    bool *flags AVRO_ARRAY(n_flags);
    int n_flags;
    char **names AVRO_ARRAY(n_names);
    uint32_t n_names;
    avrogen_str *views AVRO_ARRAY(n_views);
    int64_t n_views;
    struct item *items AVRO_ARRAY(n_items);
    size_t n_items;
    double matrix[3][3];
    int8_t deltas[4];
    char *labels[2];
    char tags[2][8];
    float weights[5];
    struct item pair[2];
    int64_t *maybe_longs AVRO_ARRAY(n_maybe_longs) AVRO_NULLABLE;
    size_t n_maybe_longs;
};

/* Kept out of `arrays`: avro-c cannot read arrays of empty records (its
 * generic array fails to grow storage of zero-byte elements). */
struct AVRO_RECORD(namespace = "cg") hollows {
    struct hollow *items AVRO_ARRAY(n_items);
    size_t n_items;
    int32_t after;
};

struct counter { char *key; int64_t value; };
struct label { char key[16]; char *value; };
struct scored { avrogen_str key; struct item value; };
struct bag {
    const char *key;
    int32_t *value AVRO_ARRAY(n);
    size_t n;
};
struct optional { char *key; char *value AVRO_NULLABLE; };
struct weights { char *key; double value[2]; };

struct AVRO_RECORD(namespace = "cg") maps {
    struct counter *counters AVRO_MAP(n_counters);
    size_t n_counters;
    struct label *labels AVRO_MAP(n_labels);
    uint16_t n_labels;
    struct scored *scored AVRO_MAP(n_scored);
    size_t n_scored;
    struct bag *bags AVRO_MAP(n_bags);
    size_t n_bags;
    struct optional *optional AVRO_MAP(n_optional);
    size_t n_optional;
    struct weights *weights AVRO_MAP(n_weights);
    size_t n_weights;
};

/* Arrays of longs and ints of lengths either side of the 4- and 8-item
 * steps of the bulk codecs (varint.c), sized, written and read in one call. */
struct AVRO_RECORD(namespace = "cg") tails {
    int64_t l1[1];
    int64_t l3[3];
    int64_t l4[4];
    int64_t l5[5];
    int64_t l7[7];
    int64_t l8[8];
    int64_t l9[9];
    int64_t l12[12];
    int64_t l15[15];
    int64_t l16[16];
    int64_t l17[17];
    int32_t i1[1];
    int32_t i3[3];
    int32_t i7[7];
    int32_t i8[8];
    int32_t i9[9];
    int32_t i15[15];
    int32_t i16[16];
    int32_t i17[17];
};

#endif /* CG_CONTAINERS_H */
