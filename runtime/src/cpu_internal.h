/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The code paths the runtime chooses between by what the CPU offers: the bulk
 * varint codec (varint.c) and the UTF-8 validator (utf8.c). Each public entry
 * point picks one per call; these tables list every implementation the build
 * has and the running CPU can execute, the portable one first, so that tests
 * and fuzz targets can hold each to the portable one (same results, same
 * stopping points). Internal to the runtime: never installed.
 */
#ifndef AVROGEN_CPU_INTERNAL_H
#define AVROGEN_CPU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct avrogen_varint_impl {
    const char *name; /* "portable", "bmi2", "bmi2+avx2" (sizes with AVX2) */
    size_t (*get_longs)(const uint8_t **pp, const uint8_t *end, int64_t *dst, size_t n);
    size_t (*get_ints)(const uint8_t **pp, const uint8_t *end, int32_t *dst, size_t n);
    uint8_t *(*put_longs)(uint8_t *p, const int64_t *v, size_t n);
    uint8_t *(*put_ints)(uint8_t *p, const int32_t *v, size_t n);
    size_t (*size_longs)(const int64_t *v, size_t n);
    size_t (*size_ints)(const int32_t *v, size_t n);
} avrogen_varint_impl;

/* The implementations of avrogen_get_longs & co. this CPU runs; *n of them. */
const avrogen_varint_impl *avrogen_varint_impls(size_t *n);

typedef struct avrogen_utf8_impl {
    const char *name; /* "scalar", "ssse3", "avx2" */
    bool (*valid)(const uint8_t *s, size_t len);
} avrogen_utf8_impl;

/* The implementations of avrogen_utf8_valid this CPU runs; *n of them. */
const avrogen_utf8_impl *avrogen_utf8_impls(size_t *n);

#endif /* AVROGEN_CPU_INTERNAL_H */
