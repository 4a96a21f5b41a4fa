/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Chunked bump allocator. Chunks form a list that reset rewinds without
 * freeing; a request that does not fit the current chunk moves to the next
 * recycled chunk large enough, or allocates a new one twice the size of the last.
 */
#include "avrogen/arena.h"

#include <string.h>

struct avrogen_arena_chunk {
    avrogen_arena_chunk *next;
    size_t size; /* usable bytes after the header */
};

/* Header rounded up so the usable area stays AVROGEN_ARENA_ALIGN-aligned. */
#define CHUNK_HEADER \
    ((sizeof(avrogen_arena_chunk) + AVROGEN_ARENA_ALIGN - 1) & ~(size_t)(AVROGEN_ARENA_ALIGN - 1))

static unsigned char *chunk_data(avrogen_arena_chunk *c)
{
    return (unsigned char *)c + CHUNK_HEADER;
}

void avrogen_arena_init(avrogen_arena *a, const avrogen_alloc *alloc)
{
    memset(a, 0, sizeof *a);
    a->budget = SIZE_MAX;
    a->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
}

void avrogen_arena_fini(avrogen_arena *a)
{
    avrogen_arena_chunk *c = a->first;
    while (c != NULL) {
        avrogen_arena_chunk *next = c->next;
        avrogen_free(&a->alloc, c, CHUNK_HEADER + c->size);
        c = next;
    }
    a->first = a->cur = NULL;
    a->ptr = a->end = NULL;
    a->used = a->reserved = 0;
}

void avrogen_arena_reset(avrogen_arena *a)
{
    a->cur = a->first;
    a->used = 0;
    if (a->cur != NULL) {
        a->ptr = chunk_data(a->cur);
        a->end = a->ptr + a->cur->size;
    }
}

void avrogen_arena_set_budget(avrogen_arena *a, size_t budget)
{
    a->budget = budget == 0 ? SIZE_MAX : budget;
    if (a->used > a->budget)
        a->budget = a->used; /* keep the invariant used <= budget */
}

void *avrogen_arena_alloc_slow(avrogen_arena *a, size_t size)
{
    size_t rounded = (size + (AVROGEN_ARENA_ALIGN - 1)) & ~(size_t)(AVROGEN_ARENA_ALIGN - 1);
    if (rounded < size)
        return NULL;
    if (rounded == 0)
        rounded = AVROGEN_ARENA_ALIGN;
    if (rounded > a->budget - a->used)
        return NULL;

    if (rounded <= (size_t)(a->end - a->ptr)) {
        void *p = a->ptr;
        a->ptr += rounded;
        a->used += rounded;
        return p;
    }

    /* Recycle a later chunk (kept by reset) that is large enough. */
    avrogen_arena_chunk *prev = a->cur;
    avrogen_arena_chunk *c = a->cur != NULL ? a->cur->next : NULL;
    while (c != NULL && c->size < rounded) {
        prev = c;
        c = c->next;
    }
    if (c == NULL) {
        size_t last = prev != NULL ? prev->size : AVROGEN_ARENA_CHUNK_DEFAULT / 2;
        size_t want = last <= SIZE_MAX / 2 ? last * 2 : last;
        if (want < rounded)
            want = rounded;
        size_t total;
        if (!avrogen_size_add(want, CHUNK_HEADER, &total))
            return NULL;
        c = avrogen_realloc(&a->alloc, NULL, 0, total);
        if (c == NULL)
            return NULL;
        c->size = want;
        a->reserved += total;
        /* Append after `prev` so the chunks stay in allocation order. */
        if (prev == NULL) {
            c->next = a->first;
            a->first = c;
        } else {
            c->next = prev->next;
            prev->next = c;
        }
    } else if (c != a->cur->next) {
        /* Move the recycled chunk right after cur so none is skipped for good. */
        prev->next = c->next;
        c->next = a->cur->next;
        a->cur->next = c;
    }
    a->cur = c;
    a->ptr = chunk_data(c) + rounded;
    a->end = chunk_data(c) + c->size;
    a->used += rounded;
    return chunk_data(c);
}

void *avrogen_arena_calloc(avrogen_arena *a, size_t count, size_t size)
{
    size_t total;
    if (!avrogen_size_mul(count, size, &total))
        return NULL;
    void *p = avrogen_arena_alloc(a, total);
    if (p != NULL && total != 0)
        memset(p, 0, total);
    return p;
}

char *avrogen_arena_strndup(avrogen_arena *a, const char *s, size_t len)
{
    size_t total;
    if (!avrogen_size_add(len, 1, &total))
        return NULL;
    char *p = avrogen_arena_alloc(a, total);
    if (p == NULL)
        return NULL;
    if (len != 0)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
