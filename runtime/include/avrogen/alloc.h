/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one allocator hook of the runtime, and checked size arithmetic. Every
 * allocation the runtime makes goes through an avrogen_alloc, so tests can inject
 * failures and embedders can route memory wherever they like.
 */
#ifndef AVROGEN_ALLOC_H
#define AVROGEN_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * realloc-shaped: new_size 0 frees `ptr` (and returns NULL); ptr NULL allocates.
 * old_size is the size the block was allocated with (0 for a new block), so
 * sized allocators need no header. Returns NULL on failure, leaving ptr intact.
 */
typedef void *(*avrogen_alloc_fn)(void *ctx, void *ptr, size_t old_size, size_t new_size);

typedef struct avrogen_alloc {
    avrogen_alloc_fn fn;
    void *ctx;
} avrogen_alloc;

/* The libc allocator; what a NULL `const avrogen_alloc *` means everywhere. */
AVROGEN_API extern const avrogen_alloc avrogen_alloc_libc;

/* Allocate, resize or free through `a` (NULL means libc). */
AVROGEN_API void *avrogen_realloc(const avrogen_alloc *a, void *ptr, size_t old_size,
                                  size_t new_size);
AVROGEN_API void *avrogen_malloc(const avrogen_alloc *a, size_t size);
AVROGEN_API void avrogen_free(const avrogen_alloc *a, void *ptr, size_t size);

/* *out = a * b; false (and *out untouched) when it would overflow size_t. */
static inline bool avrogen_size_mul(size_t a, size_t b, size_t *out)
{
#if defined(__GNUC__) || defined(__clang__)
    return !__builtin_mul_overflow(a, b, out);
#else
    if (b != 0 && a > SIZE_MAX / b)
        return false;
    *out = a * b;
    return true;
#endif
}

/* *out = a + b; false (and *out untouched) when it would overflow size_t. */
static inline bool avrogen_size_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b)
        return false;
    *out = a + b;
    return true;
}

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_ALLOC_H */
