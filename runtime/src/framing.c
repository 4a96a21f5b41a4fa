/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Single-object and Confluent framing, and the fingerprint → schema set used to
 * decode single-object messages. The set is an open-addressing hash table keyed
 * by the fingerprint itself (CRC-64 bits are already well mixed).
 */
#include "avrogen/framing.h"

#include <string.h>

struct avrogen_schema_set {
    avrogen_alloc alloc;
    const avrogen_schema **slots; /* cap entries, NULL when empty */
    uint64_t *fps;                /* fingerprint of slots[i] */
    size_t cap;                   /* a power of two, or 0 */
    size_t count;
};

avrogen_status avrogen_soe_read_header(avrogen_reader *r, uint64_t *fp)
{
    *fp = 0;
    if (r->err != AVROGEN_OK)
        return r->err;
    if (avrogen_reader_remaining(r) < AVROGEN_SOE_HEADER_SIZE)
        return avrogen_reader_fail(r, AVROGEN_E_TRUNCATED,
                                   "input ends inside the single-object header");
    if (r->p[0] != 0xc3 || r->p[1] != 0x01)
        return avrogen_reader_fail(r, AVROGEN_E_INVALID,
                                   "not single-object encoded: marker is not C3 01");
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)r->p[2 + i] << (8 * i);
    r->p += AVROGEN_SOE_HEADER_SIZE;
    *fp = v;
    return AVROGEN_OK;
}

avrogen_status avrogen_confluent_read_header(avrogen_reader *r, uint32_t *id)
{
    *id = 0;
    if (r->err != AVROGEN_OK)
        return r->err;
    if (avrogen_reader_remaining(r) < AVROGEN_CONFLUENT_HEADER_SIZE)
        return avrogen_reader_fail(r, AVROGEN_E_TRUNCATED,
                                   "input ends inside the Confluent header");
    if (r->p[0] != 0)
        return avrogen_reader_fail(r, AVROGEN_E_INVALID,
                                   "not Confluent-framed: magic byte is not 0");
    *id = (uint32_t)r->p[1] << 24 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 8 |
          (uint32_t)r->p[4];
    r->p += AVROGEN_CONFLUENT_HEADER_SIZE;
    return AVROGEN_OK;
}

avrogen_status avrogen_schema_set_new(const avrogen_alloc *alloc, avrogen_schema_set **out)
{
    avrogen_alloc a = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    avrogen_schema_set *set = avrogen_realloc(&a, NULL, 0, sizeof *set);
    *out = set;
    if (set == NULL)
        return AVROGEN_E_NOMEM;
    memset(set, 0, sizeof *set);
    set->alloc = a;
    return AVROGEN_OK;
}

static void free_table(avrogen_alloc *a, const avrogen_schema **slots, uint64_t *fps, size_t cap)
{
    avrogen_free(a, (void *)slots, cap * sizeof *slots);
    avrogen_free(a, fps, cap * sizeof *fps);
}

void avrogen_schema_set_free(avrogen_schema_set *set)
{
    if (set == NULL)
        return;
    avrogen_alloc a = set->alloc;
    free_table(&a, set->slots, set->fps, set->cap);
    avrogen_free(&a, set, sizeof *set);
}

/* The slot holding fp, or the empty slot where it would go. */
static size_t probe(const avrogen_schema_set *set, uint64_t fp)
{
    size_t mask = set->cap - 1;
    size_t i = (size_t)(fp ^ (fp >> 32)) & mask;
    while (set->slots[i] != NULL && set->fps[i] != fp)
        i = (i + 1) & mask;
    return i;
}

static avrogen_status grow(avrogen_schema_set *set)
{
    size_t cap = set->cap != 0 ? set->cap * 2 : 16, slots_size, fps_size;
    if (!avrogen_size_mul(cap, sizeof *set->slots, &slots_size) ||
        !avrogen_size_mul(cap, sizeof *set->fps, &fps_size))
        return AVROGEN_E_NOMEM;
    const avrogen_schema **slots = avrogen_realloc(&set->alloc, NULL, 0, slots_size);
    uint64_t *fps = avrogen_realloc(&set->alloc, NULL, 0, fps_size);
    if (slots == NULL || fps == NULL) {
        free_table(&set->alloc, slots, fps, cap);
        return AVROGEN_E_NOMEM;
    }
    memset(slots, 0, slots_size);
    avrogen_schema_set old = *set;
    set->slots = slots;
    set->fps = fps;
    set->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.slots[i] != NULL) {
            size_t j = probe(set, old.fps[i]);
            set->slots[j] = old.slots[i];
            set->fps[j] = old.fps[i];
        }
    }
    free_table(&set->alloc, old.slots, old.fps, old.cap);
    return AVROGEN_OK;
}

avrogen_status avrogen_schema_set_add(avrogen_schema_set *set, const avrogen_schema *s)
{
    uint64_t fp = avrogen_schema_fingerprint64(s);
    if (set->cap != 0) {
        size_t i = probe(set, fp);
        if (set->slots[i] != NULL)
            return strcmp(avrogen_schema_canonical(set->slots[i]), avrogen_schema_canonical(s)) == 0
                           ? AVROGEN_OK
                           : AVROGEN_E_ARG;
    }
    /* Keep the load factor at or below 1/2. */
    if ((set->count + 1) * 2 > set->cap) {
        avrogen_status st = grow(set);
        if (st != AVROGEN_OK)
            return st;
    }
    size_t i = probe(set, fp);
    set->slots[i] = s;
    set->fps[i] = fp;
    set->count++;
    return AVROGEN_OK;
}

const avrogen_schema *avrogen_schema_set_find(const avrogen_schema_set *set, uint64_t fp)
{
    if (set->cap == 0)
        return NULL;
    return set->slots[probe(set, fp)];
}

avrogen_status avrogen_soe_open(const avrogen_schema_set *set, const void *msg, size_t len,
                                avrogen_reader *r, const avrogen_schema **writer)
{
    avrogen_reader_init(r, msg, len);
    *writer = NULL;
    uint64_t fp;
    if (avrogen_soe_read_header(r, &fp) != AVROGEN_OK)
        return r->err;
    *writer = avrogen_schema_set_find(set, fp);
    if (*writer == NULL) {
        r->p -= 8; /* report the offset of the fingerprint */
        return avrogen_reader_fail(r, AVROGEN_E_MISMATCH,
                                   "no known schema has the message's fingerprint");
    }
    /* The datum starts after the header: offsets count from the message start. */
    return AVROGEN_OK;
}
