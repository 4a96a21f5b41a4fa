/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry client's cache, shared by every thread using one client: a
 * chained hash table under one mutex (lookups are short: a hash of the key
 * and a comparison, never a request), keyed by (kind, subject, schema text)
 * or (kind, id). Keys hold the schema text as sent, not its Parsing Canonical
 * Form: the canonical form drops defaults and docs, which the registry keeps,
 * so two texts with one canonical form may be two registered schemas.
 * Bounded as registry_internal.h says; it makes no request itself.
 */
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "registry_internal.h"

struct cache_entry {
    struct cache_entry *next;          /* in the bucket */
    struct cache_entry *older, *newer; /* among the evictable entries */
    uint64_t hash;
    enum cache_kind kind;
    uint32_t key_id;
    char *subject; /* NULL for CACHE_SCHEMA */
    char *key_text;
    bool evictable;
    int64_t expires; /* ms on registry_now_ms's clock, 0 never */
    /* what it holds */
    bool negative;
    uint32_t id;
    int version;
    char *text;             /* CACHE_SCHEMA: the registry's text */
    avrogen_schema *schema; /* CACHE_SCHEMA: owned */
    avrogen_registry_error err;
};

int64_t registry_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* FNV-1a over the key's parts; a string ends with its NUL so "ab"+"c" and "a"+"bc" differ. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t key_hash(const struct cache_key *k)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    unsigned char kind = (unsigned char)k->kind;
    h = fnv(h, &kind, 1);
    h = fnv(h, &k->id, sizeof k->id);
    if (k->subject != NULL)
        h = fnv(h, k->subject, strlen(k->subject) + 1);
    if (k->text != NULL)
        h = fnv(h, k->text, strlen(k->text) + 1);
    return h;
}

static bool str_eq(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool key_eq(const struct cache_entry *e, uint64_t h, const struct cache_key *k)
{
    return e->hash == h && e->kind == k->kind && e->key_id == k->id &&
           str_eq(e->subject, k->subject) && str_eq(e->key_text, k->text);
}

bool cache_init(struct registry_cache *c, size_t capacity)
{
    memset(c, 0, sizeof *c);
    c->capacity = capacity;
    c->n_buckets = 64;
    c->buckets = calloc(c->n_buckets, sizeof *c->buckets);
    if (c->buckets == NULL)
        return false;
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c->buckets);
        return false;
    }
    return true;
}

static void entry_free(struct cache_entry *e)
{
    free(e->subject);
    free(e->key_text);
    free(e->text);
    avrogen_schema_free(e->schema);
    free(e);
}

void cache_fini(struct registry_cache *c)
{
    for (size_t b = 0; b < c->n_buckets; b++) {
        for (struct cache_entry *e = c->buckets[b], *next; e != NULL; e = next) {
            next = e->next;
            entry_free(e);
        }
    }
    free(c->buckets);
    pthread_mutex_destroy(&c->mu);
}

/* Take e out of the table (and the eviction list) and free it. */
static void remove_entry(struct registry_cache *c, struct cache_entry *e)
{
    struct cache_entry **p = &c->buckets[e->hash % c->n_buckets];
    while (*p != e)
        p = &(*p)->next;
    *p = e->next;
    if (e->evictable) {
        if (e->older != NULL)
            e->older->newer = e->newer;
        else
            c->oldest = e->newer;
        if (e->newer != NULL)
            e->newer->older = e->older;
        else
            c->newest = e->older;
        c->n_evictable--;
    }
    c->n_entries--;
    entry_free(e);
}

static struct cache_entry *find(struct registry_cache *c, const struct cache_key *k, uint64_t h)
{
    for (struct cache_entry *e = c->buckets[h % c->n_buckets]; e != NULL; e = e->next)
        if (key_eq(e, h, k))
            return e;
    return NULL;
}

static void fill_hit(const struct cache_entry *e, struct cache_hit *hit)
{
    if (hit == NULL)
        return;
    hit->negative = e->negative;
    hit->id = e->id;
    hit->version = e->version;
    hit->text = e->text;
    hit->schema = e->schema;
    if (e->negative)
        hit->err = e->err;
}

bool cache_get(struct registry_cache *c, const struct cache_key *k, int64_t now,
               struct cache_hit *hit)
{
    uint64_t h = key_hash(k);
    pthread_mutex_lock(&c->mu);
    struct cache_entry *e = find(c, k, h);
    if (e != NULL && e->expires != 0 && now >= e->expires) {
        remove_entry(c, e);
        e = NULL;
    }
    if (e != NULL)
        fill_hit(e, hit);
    pthread_mutex_unlock(&c->mu);
    return e != NULL;
}

/* Double the buckets when the chains grow past two on average; on failure keep them. */
static void grow(struct registry_cache *c)
{
    if (c->n_entries < 2 * c->n_buckets || c->n_buckets > SIZE_MAX / 2 / sizeof *c->buckets)
        return;
    size_t n = 2 * c->n_buckets;
    struct cache_entry **b = calloc(n, sizeof *b);
    if (b == NULL)
        return;
    for (size_t i = 0; i < c->n_buckets; i++) {
        for (struct cache_entry *e = c->buckets[i], *next; e != NULL; e = next) {
            next = e->next;
            e->next = b[e->hash % n];
            b[e->hash % n] = e;
        }
    }
    free(c->buckets);
    c->buckets = b;
    c->n_buckets = n;
}

bool cache_put(struct registry_cache *c, const struct cache_key *k, uint32_t id, int version,
               const char *text, avrogen_schema *schema, const avrogen_registry_error *neg,
               int64_t expires, struct cache_hit *hit)
{
    struct cache_entry *e = calloc(1, sizeof *e);
    if (e == NULL)
        goto out_nomem;
    e->hash = key_hash(k);
    e->kind = k->kind;
    e->key_id = k->id;
    e->negative = neg != NULL;
    e->expires = expires;
    e->id = id;
    e->version = version;
    if (neg != NULL)
        e->err = *neg;
    if ((k->subject != NULL && (e->subject = strdup(k->subject)) == NULL) ||
        (k->text != NULL && (e->key_text = strdup(k->text)) == NULL) ||
        (text != NULL && (e->text = strdup(text)) == NULL))
        goto out_nomem;
    e->schema = schema;
    schema = NULL;
    /* A positive schema entry is what callers hold pointers into: it stays. */
    e->evictable = !(k->kind == CACHE_SCHEMA && neg == NULL);

    pthread_mutex_lock(&c->mu);
    struct cache_entry *old = find(c, k, e->hash);
    if (old != NULL && !old->evictable) {
        /* Another thread fetched the same schema first: keep its copy, which may be in use. */
        fill_hit(old, hit);
        pthread_mutex_unlock(&c->mu);
        entry_free(e);
        return true;
    }
    if (old != NULL)
        remove_entry(c, old);
    size_t b = e->hash % c->n_buckets;
    e->next = c->buckets[b];
    c->buckets[b] = e;
    c->n_entries++;
    if (e->evictable) {
        e->older = c->newest;
        if (c->newest != NULL)
            c->newest->newer = e;
        else
            c->oldest = e;
        c->newest = e;
        c->n_evictable++;
        while (c->n_evictable > c->capacity && c->oldest != e)
            remove_entry(c, c->oldest);
    }
    fill_hit(e, hit);
    grow(c);
    pthread_mutex_unlock(&c->mu);
    return true;

out_nomem:
    if (e != NULL)
        entry_free(e);
    avrogen_schema_free(schema);
    return false;
}

size_t cache_size(struct registry_cache *c)
{
    pthread_mutex_lock(&c->mu);
    size_t n = c->n_entries;
    pthread_mutex_unlock(&c->mu);
    return n;
}
