/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schema module's hash table: open addressing with linear probing, FNV-1a
 * hashing, capacity doubled at half load. It only ever grows; there is no
 * delete, which keeps probing trivially correct.
 */
#include <string.h>

#include "schema_internal.h"

#define STRTAB_MIN_CAP 16u

static uint64_t hash_bytes(const char *key, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

void avrogen_strtab_init(avrogen_strtab *t, const avrogen_alloc *alloc)
{
    t->slots = NULL;
    t->cap = 0;
    t->count = 0;
    t->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
}

void avrogen_strtab_fini(avrogen_strtab *t)
{
    if (t->slots != NULL)
        avrogen_free(&t->alloc, t->slots, t->cap * sizeof *t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}

/* The slot holding `key`, or the empty slot where it would go. cap > 0. */
static avrogen_strtab_slot *find_slot(avrogen_strtab_slot *slots, size_t cap, const char *key,
                                      size_t len)
{
    size_t mask = cap - 1;
    size_t i = (size_t)hash_bytes(key, len) & mask;
    for (;;) {
        avrogen_strtab_slot *slot = &slots[i];
        if (slot->key == NULL || (slot->len == len && memcmp(slot->key, key, len) == 0))
            return slot;
        i = (i + 1) & mask;
    }
}

const void *avrogen_strtab_get(const avrogen_strtab *t, const char *key, size_t len)
{
    if (t->cap == 0)
        return NULL;
    const avrogen_strtab_slot *slot = find_slot(t->slots, t->cap, key, len);
    return slot->key != NULL ? slot->value : NULL;
}

static avrogen_status grow(avrogen_strtab *t)
{
    size_t cap = t->cap == 0 ? STRTAB_MIN_CAP : t->cap * 2;
    size_t bytes;
    if (cap < t->cap || !avrogen_size_mul(cap, sizeof *t->slots, &bytes))
        return AVROGEN_E_NOMEM;
    avrogen_strtab_slot *slots = avrogen_realloc(&t->alloc, NULL, 0, bytes);
    if (slots == NULL)
        return AVROGEN_E_NOMEM;
    memset(slots, 0, bytes);
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].key != NULL)
            *find_slot(slots, cap, t->slots[i].key, t->slots[i].len) = t->slots[i];
    }
    if (t->slots != NULL)
        avrogen_free(&t->alloc, t->slots, t->cap * sizeof *t->slots);
    t->slots = slots;
    t->cap = cap;
    return AVROGEN_OK;
}

avrogen_status avrogen_strtab_put(avrogen_strtab *t, const char *key, size_t len, const void *value,
                                  const void **existing)
{
    if (existing != NULL)
        *existing = NULL;
    if (t->cap != 0) {
        avrogen_strtab_slot *slot = find_slot(t->slots, t->cap, key, len);
        if (slot->key != NULL) {
            if (existing != NULL)
                *existing = slot->value;
            return AVROGEN_OK;
        }
    }
    if (t->count + 1 > t->cap / 2) {
        avrogen_status st = grow(t);
        if (st != AVROGEN_OK)
            return st;
    }
    avrogen_strtab_slot *slot = find_slot(t->slots, t->cap, key, len);
    slot->key = key;
    slot->len = len;
    slot->value = value;
    t->count++;
    return AVROGEN_OK;
}
