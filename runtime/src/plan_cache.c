/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan cache and avrogen_decode_as: resolvers and type plans built once
 * per (writer fingerprint, reader) pair and found again by the fingerprint a
 * record arrives tagged with. The cache is an open-addressing hash table of
 * entries that never move once made, so plans handed out stay valid until the
 * cache is freed. It never evicts: every distinct writer schema a caller
 * presents costs one entry (its canonical form, re-parsed, and its plan), so
 * callers facing writers they do not control bound the number of schemas they
 * accept, or drop and recreate the cache.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/resolve.h"

#include "value_internal.h"

typedef struct entry {
    uint64_t fp;        /* the writer's CRC-64-AVRO fingerprint */
    const void *reader; /* the reader node (resolvers) or avrogen_type (type plans) */
    bool is_type;
    avrogen_status st; /* AVROGEN_OK, or why the pair does not resolve */
    avrogen_diag why;  /* failures: what avrogen_*_new said */
    char message[sizeof(((avrogen_diag *)0)->path) + sizeof(((avrogen_diag *)0)->msg) + 2];
    avrogen_schema *writer;  /* successes: the cache's own copy of the writer schema */
    avrogen_resolver *res;   /* successes, !is_type */
    avrogen_type_plan *plan; /* successes, is_type */
} entry;

struct avrogen_plan_cache {
    avrogen_alloc alloc;
    entry **slots; /* cap of them, NULL where free; at most half in use */
    size_t cap;
    size_t count;
    char message[96]; /* avrogen_decode_as: the last "unknown writer" message */
};

avrogen_plan_cache *avrogen_plan_cache_new(const avrogen_alloc *alloc)
{
    avrogen_plan_cache *c = avrogen_malloc(alloc, sizeof *c);
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    c->alloc = alloc != NULL ? *alloc : avrogen_alloc_libc;
    return c;
}

static void entry_free(avrogen_plan_cache *c, entry *e)
{
    avrogen_type_plan_free(e->plan);
    avrogen_resolver_free(e->res);
    avrogen_schema_free(e->writer);
    avrogen_free(&c->alloc, e, sizeof *e);
}

void avrogen_plan_cache_free(avrogen_plan_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i] != NULL)
            entry_free(c, c->slots[i]);
    avrogen_free(&c->alloc, c->slots, c->cap * sizeof *c->slots);
    avrogen_alloc alloc = c->alloc;
    avrogen_free(&alloc, c, sizeof *c);
}

/* The fingerprint is already a good hash; the reader's address is mixed in. */
static size_t slot_of(const avrogen_plan_cache *c, uint64_t fp, const void *reader)
{
    uint64_t h = fp ^ ((uint64_t)(uintptr_t)reader * UINT64_C(0x9e3779b97f4a7c15));
    h ^= h >> 29;
    return (size_t)h & (c->cap - 1);
}

static entry *lookup(const avrogen_plan_cache *c, uint64_t fp, const void *reader, bool is_type)
{
    if (c->cap == 0)
        return NULL;
    for (size_t i = slot_of(c, fp, reader);; i = (i + 1) & (c->cap - 1)) {
        entry *e = c->slots[i];
        if (e == NULL)
            return NULL;
        if (e->fp == fp && e->reader == reader && e->is_type == is_type)
            return e;
    }
}

/* Put e in the table, doubling it first when it would be more than half full. */
static bool insert(avrogen_plan_cache *c, entry *e)
{
    if ((c->count + 1) * 2 > c->cap) {
        size_t cap = c->cap != 0 ? c->cap * 2 : 16, bytes;
        if (!avrogen_size_mul(cap, sizeof *c->slots, &bytes))
            return false;
        entry **slots = avrogen_malloc(&c->alloc, bytes);
        if (slots == NULL)
            return false;
        memset(slots, 0, bytes);
        entry **old = c->slots;
        size_t old_cap = c->cap;
        c->slots = slots;
        c->cap = cap;
        for (size_t i = 0; i < old_cap; i++) {
            if (old[i] == NULL)
                continue;
            size_t k = slot_of(c, old[i]->fp, old[i]->reader);
            while (slots[k] != NULL)
                k = (k + 1) & (cap - 1);
            slots[k] = old[i];
        }
        avrogen_free(&c->alloc, old, old_cap * sizeof *old);
    }
    size_t k = slot_of(c, e->fp, e->reader);
    while (c->slots[k] != NULL)
        k = (k + 1) & (c->cap - 1);
    c->slots[k] = e;
    c->count++;
    return true;
}

static avrogen_status out_of_memory(avrogen_diag *why)
{
    if (why != NULL) {
        memset(why, 0, sizeof *why);
        snprintf(why->msg, sizeof why->msg, "out of memory");
    }
    return AVROGEN_E_NOMEM;
}

/*
 * The entry for (writer, reader), built on first use: a success with the plan,
 * or a remembered failure. E_NOMEM is not remembered (a later call may
 * succeed); then *out is NULL and `why` says so.
 */
static avrogen_status find_or_build(avrogen_plan_cache *c, const avrogen_schema *writer,
                                    const void *reader, bool is_type, entry **out,
                                    avrogen_diag *why)
{
    *out = NULL;
    uint64_t fp = avrogen_schema_fingerprint64(writer);
    entry *e = lookup(c, fp, reader, is_type);
    if (e == NULL) {
        e = avrogen_malloc(&c->alloc, sizeof *e);
        if (e == NULL)
            return out_of_memory(why);
        memset(e, 0, sizeof *e);
        e->fp = fp;
        e->reader = reader;
        e->is_type = is_type;
        /* Resolution needs only what the canonical form keeps (the reader's
         * aliases and defaults are the reader's), and a copy frees the caller. */
        const char *canonical = avrogen_schema_canonical(writer);
        e->st = avrogen_schema_parse(canonical, strlen(canonical), &c->alloc, &e->writer, &e->why);
        if (e->st == AVROGEN_OK && is_type)
            e->st = avrogen_type_plan_new(avrogen_schema_root(e->writer), reader, &c->alloc,
                                          &e->plan, &e->why);
        else if (e->st == AVROGEN_OK)
            e->st = avrogen_resolver_new(avrogen_schema_root(e->writer), reader, &c->alloc, &e->res,
                                         &e->why);
        if (e->st == AVROGEN_E_NOMEM) {
            entry_free(c, e);
            return out_of_memory(why);
        }
        if (e->st != AVROGEN_OK) {
            /* A failure keeps only its reason. */
            avrogen_schema_free(e->writer);
            e->writer = NULL;
            if (e->why.path[0] != '\0')
                snprintf(e->message, sizeof e->message, "%s: %s", e->why.path, e->why.msg);
            else
                snprintf(e->message, sizeof e->message, "%s", e->why.msg);
        }
        if (!insert(c, e)) {
            entry_free(c, e);
            return out_of_memory(why);
        }
    }
    *out = e;
    if (why != NULL) {
        if (e->st == AVROGEN_OK)
            memset(why, 0, sizeof *why);
        else
            *why = e->why;
    }
    return e->st;
}

avrogen_status avrogen_plan_cache_resolver(avrogen_plan_cache *c, const avrogen_schema *writer,
                                           const avrogen_node *reader, const avrogen_resolver **out,
                                           avrogen_diag *why)
{
    entry *e;
    avrogen_status st = find_or_build(c, writer, reader, false, &e, why);
    *out = st == AVROGEN_OK ? e->res : NULL;
    return st;
}

avrogen_status avrogen_plan_cache_type_plan(avrogen_plan_cache *c, const avrogen_schema *writer,
                                            const avrogen_type *reader,
                                            const avrogen_type_plan **out, avrogen_diag *why)
{
    entry *e;
    avrogen_status st = find_or_build(c, writer, reader, true, &e, why);
    *out = st == AVROGEN_OK ? e->plan : NULL;
    return st;
}

/* The ahead-of-time decoder of t for writer fingerprint fp, or NULL. */
static const avrogen_type_decoder *find_resolved(const avrogen_type *t, uint64_t fp)
{
    size_t lo = 0, hi = t->n_resolved;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->resolved[mid].fingerprint < fp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_resolved && t->resolved[lo].fingerprint == fp ? &t->resolved[lo] : NULL;
}

/* Fail the datum before it starts: *dst zeroed, as after any decode error. */
static avrogen_status refuse(const avrogen_type *t, avrogen_reader *r, void *dst, avrogen_status st,
                             const char *msg)
{
    memset(dst, 0, t->size);
    return avrogen_reader_fail(r, st, msg);
}

avrogen_status avrogen_decode_as(const avrogen_type *t, avrogen_plan_cache *cache,
                                 uint64_t writer_fp, const avrogen_schema *writer,
                                 avrogen_reader *r, void *dst, avrogen_arena *a)
{
    if (writer_fp == t->fingerprint && t->decode != NULL)
        return t->decode(r, dst, a);
    const avrogen_type_decoder *aot = find_resolved(t, writer_fp);
    if (aot != NULL) {
        const uint8_t *start = r->p;
        if (aot->decode(r, dst, a) != AVROGEN_OK) {
            /* An ahead-of-time decoder has no schema of its own: the writer's
             * names the member, given here or kept in the cache. */
            const entry *e = cache != NULL ? lookup(cache, writer_fp, t, true) : NULL;
            if (writer == NULL && e != NULL)
                writer = e->writer;
            if (writer != NULL)
                avrogen_value_explain(r, avrogen_schema_root(writer), start, true);
        }
        return r->err;
    }
    if (cache == NULL)
        return refuse(t, r, dst, AVROGEN_E_MISMATCH,
                      "the writer's schema is not the reader's, and there is no plan cache");
    entry *e = lookup(cache, writer_fp, t, true);
    if (e == NULL) {
        if (writer == NULL) {
            snprintf(cache->message, sizeof cache->message,
                     "unknown writer fingerprint 0x%016" PRIx64 " and no writer schema given",
                     writer_fp);
            return refuse(t, r, dst, AVROGEN_E_MISMATCH, cache->message);
        }
        if (avrogen_schema_fingerprint64(writer) != writer_fp)
            return refuse(t, r, dst, AVROGEN_E_ARG,
                          "the writer schema given does not have the writer fingerprint given");
        avrogen_status st = find_or_build(cache, writer, t, true, &e, NULL);
        if (e == NULL)
            return refuse(t, r, dst, st, "out of memory building a type plan");
    }
    if (e->st != AVROGEN_OK)
        return refuse(t, r, dst, e->st, e->message);
    return avrogen_type_plan_decode(e->plan, r, dst, a);
}
