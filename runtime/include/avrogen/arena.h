/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A chunked bump allocator for decoded data. Everything a decoder allocates
 * (arrays, maps, copied strings, generic values) comes from an arena and is
 * released in one call. Reset keeps the chunks, so a decode loop that resets the
 * arena per record performs no malloc in steady state. A byte budget bounds what
 * hostile input can make us allocate.
 *
 *     avrogen_arena a;
 *     avrogen_arena_init(&a, NULL);
 *     avrogen_arena_set_budget(&a, 1 << 20);
 *     while (avrogen_reader_remaining(&r) != 0) {
 *         avrogen_arena_reset(&a); // the last record's memory, reused
 *         if (order_avro_decode(&r, &order, &a) != AVROGEN_OK)
 *             break;
 *         use(&order);
 *     }
 *     avrogen_arena_fini(&a);
 */
#ifndef AVROGEN_ARENA_H
#define AVROGEN_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every arena allocation is aligned to this many bytes. */
#define AVROGEN_ARENA_ALIGN 16u
/* Size of the first chunk when none is configured; later chunks double. */
#define AVROGEN_ARENA_CHUNK_DEFAULT 4096u

typedef struct avrogen_arena_chunk avrogen_arena_chunk;

/* Transparent so callers can keep it on the stack; touch fields only through the API. */
typedef struct avrogen_arena {
    unsigned char *ptr;         /* next free byte of the current chunk */
    unsigned char *end;         /* one past the current chunk's usable bytes */
    avrogen_arena_chunk *first; /* all chunks, oldest first */
    avrogen_arena_chunk *cur;   /* chunk `ptr` points into, NULL before the first */
    size_t used;                /* bytes handed out since the last reset, padding included */
    size_t budget;              /* cap on `used`; SIZE_MAX when unlimited */
    size_t reserved;            /* bytes held in chunks, for statistics */
    avrogen_alloc alloc;
} avrogen_arena;

/* Initialise an empty arena over `alloc` (NULL: libc). Allocates nothing. */
AVROGEN_API void avrogen_arena_init(avrogen_arena *a, const avrogen_alloc *alloc);

/* Free every chunk. The arena may be initialised again afterwards. */
AVROGEN_API void avrogen_arena_fini(avrogen_arena *a);

/* Forget every allocation but keep the chunks for reuse. Never allocates. */
AVROGEN_API void avrogen_arena_reset(avrogen_arena *a);

/*
 * Cap the bytes handed out between resets; an allocation past it fails with
 * NULL and the arena stays usable. 0 means unlimited.
 */
AVROGEN_API void avrogen_arena_set_budget(avrogen_arena *a, size_t budget);

/* Bytes handed out since the last reset (alignment padding included). */
static inline size_t avrogen_arena_used(const avrogen_arena *a)
{
    return a->used;
}

/* Slow path of avrogen_arena_alloc: a new or recycled chunk. */
AVROGEN_API void *avrogen_arena_alloc_slow(avrogen_arena *a, size_t size);

/*
 * `size` bytes aligned to AVROGEN_ARENA_ALIGN, uninitialised, valid until the
 * next reset or fini. Returns NULL when out of memory or past the budget; a
 * size of 0 returns a valid unique pointer.
 */
static inline void *avrogen_arena_alloc(avrogen_arena *a, size_t size)
{
    size_t rounded = (size + (AVROGEN_ARENA_ALIGN - 1)) & ~(size_t)(AVROGEN_ARENA_ALIGN - 1);
    if (AVROGEN_LIKELY(rounded >= size && rounded != 0 && rounded <= (size_t)(a->end - a->ptr) &&
                       rounded <= a->budget - a->used)) {
        void *p = a->ptr;
        a->ptr += rounded;
        a->used += rounded;
        return p;
    }
    return avrogen_arena_alloc_slow(a, size);
}

/* Like avrogen_arena_alloc for `count * size` bytes, zero-filled; NULL on overflow. */
AVROGEN_API void *avrogen_arena_calloc(avrogen_arena *a, size_t count, size_t size);

/* Copy `len` bytes into the arena and NUL-terminate them; NULL on failure. */
AVROGEN_API char *avrogen_arena_strndup(avrogen_arena *a, const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_ARENA_H */
