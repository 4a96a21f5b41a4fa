/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers of the generated-code tests that work on any generated struct
 * through its type descriptor (avrogen_type, gencode.h): fill one with random
 * data that generated code must accept, turn one into a generic value of the
 * record's parsed schema (so the generic runtime can encode the same datum),
 * compare two deeply, and check that decoded views point into the input.
 *
 * The generic value is built from the descriptor's offsets and storage and
 * from the *schema* (the emitted .avsc, parsed by the runtime) for the Avro
 * side, so a descriptor or code that disagrees with the schema shows up as a
 * byte difference. The known-answer tests in test_codegen.c check the same
 * encodings against JSON written by hand, independent of the descriptors.
 */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

/* One generated record type, through type-erased adapters. */
typedef struct cg_case {
    const char *name;
    const avrogen_type *type;
    size_t (*size)(const void *v);
    avrogen_status (*encode)(avrogen_writer *w, const void *v);
    avrogen_status (*decode)(avrogen_reader *r, void *v, avrogen_arena *a);
} cg_case;

/* Adapters for the generated functions of record prefix P with C type T. */
#define CG_ADAPTERS(P, T)                                                              \
    static size_t P##_size_any(const void *v)                                          \
    {                                                                                  \
        return P##_avro_size((const T *)v);                                            \
    }                                                                                  \
    static avrogen_status P##_encode_any(avrogen_writer *w, const void *v)             \
    {                                                                                  \
        return P##_avro_encode(w, (const T *)v);                                       \
    }                                                                                  \
    static avrogen_status P##_decode_any(avrogen_reader *r, void *v, avrogen_arena *a) \
    {                                                                                  \
        return P##_avro_decode(r, (T *)v, a);                                          \
    }

#define CG_CASE(P)                                                       \
    {                                                                    \
#P, &P##_avro_type, P##_size_any, P##_encode_any, P##_decode_any \
    }

/* A small deterministic PRNG (xorshift64*), so failures reproduce. */
typedef struct cg_rng {
    uint64_t s;
} cg_rng;

uint64_t cg_next(cg_rng *g);
/* Uniform in [0, n); n > 0. */
uint64_t cg_below(cg_rng *g, uint64_t n);

/*
 * Fill the record at v (zeroed, t->size bytes) with random data that the
 * generated encoder accepts: enum values that are enumerators, tags in range,
 * counts that fit their members, strings of valid UTF-8 without NUL that fit
 * their char arrays, unique map keys. Recursive types stop at `depth` levels.
 * Everything allocated comes from `a`.
 */
void cg_fill(cg_rng *g, const avrogen_type *t, void *v, avrogen_arena *a, unsigned depth);

/* The record at v as a generic value of `schema` (the record's root node). */
avrogen_status cg_to_value(const avrogen_node *schema, const avrogen_type *t, const void *v,
                           avrogen_value *out, avrogen_arena *a);

/* Deep equality through the descriptor; on a difference, *where names it. */
bool cg_equal(const avrogen_type *t, const void *x, const void *y, const char **where);

/* True when every non-empty avrogen_str / avrogen_bytes in v points into
 * [buf, buf + len) (zero-copy decoding). */
bool cg_views_within(const avrogen_type *t, const void *v, const uint8_t *buf, size_t len);

/*
 * Hold the case's generated code to `json`, the datum in the Avro JSON
 * encoding of the case's own schema: v encodes to exactly the bytes the
 * generic runtime writes for json, size() is their length, and they decode
 * back to a struct equal to v. False with the reason in why[n] otherwise.
 */
bool cg_same_as_json(const cg_case *c, const void *v, const char *json, char *why, size_t n);

/* The bytes the generic runtime writes for `json` as a datum of t's own
 * schema, into the growable writer w (initialised here): AVROGEN_OK or why. */
avrogen_status cg_encode_json(const avrogen_type *t, const char *json, avrogen_writer *w, char *why,
                              size_t n);

/* True when all `size` bytes at p are zero. */
bool cg_all_zero(const void *p, size_t size);

/* A schema text of one piece, for descriptors made by hand: cg_set_schema
 * makes t's schema text `json`, kept in *x (which must outlive t). */
typedef struct cg_text {
    avrogen_text_piece piece;
    avrogen_text text;
    avrogen_text_cache cache;
} cg_text;
void cg_set_schema(avrogen_type *t, cg_text *x, const char *json);

/*
 * v's binary encoding (of type t) with every array and map block written with
 * a negative count and its byte size (spec: Arrays, Maps), the size of block
 * `lie` (numbered in the order blocks begin, from 0; -1 for none) off by
 * `delta`; *blocks counts the blocks. Returns the first failure, or w->err.
 */
avrogen_status cg_encode_sized(avrogen_writer *w, const avrogen_value *v, const avrogen_node *t,
                               long lie, int64_t delta, long *blocks);

#endif /* CG_UTIL_H */
