/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry client's parts, shared between its files and its unit tests
 * (tests/registry/test_registry.c): the configuration, the cache, the HTTP
 * layer's pure pieces (URL lists, encoding, error bodies, back-off). Never
 * installed. Nothing here speaks HTTP but registry_http().
 */
#ifndef AVROGEN_REGISTRY_INTERNAL_H
#define AVROGEN_REGISTRY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "avrogen/registry.h"

enum registry_strategy { STRATEGY_TOPIC, STRATEGY_RECORD, STRATEGY_TOPIC_RECORD };

struct avrogen_registry_config {
    char *url; /* the list as given */
    char *user_info;
    bool auth_from_url; /* basic.auth.credentials.source=URL */
    char *bearer_token;
    char *ca_location, *cert_location, *key_location, *key_password;
    long timeout_ms, max_retries, wait_ms, max_wait_ms;
    bool auto_register, use_latest;
    long latest_ttl_ms; /* -1: for ever */
    enum registry_strategy key_strategy, value_strategy;
    long capacity, negative_ttl_ms;
};

/* Fill err (may be NULL) with status s and a printf message; returns s. */
avrogen_registry_status registry_fail(avrogen_registry_error *err, avrogen_registry_status s,
                                      const char *fmt, ...) AVROGEN_PRINTF(3, 4);

/* cfg's settings into a fresh copy (strings duplicated); false when out of memory. */
bool registry_config_copy(avrogen_registry_config *dst, const avrogen_registry_config *src);
/* Free the strings of a configuration (not the struct itself). */
void registry_config_clear(avrogen_registry_config *cfg);

/*
 * Split a comma-separated URL list: blanks around each trimmed, trailing
 * slashes dropped, empty items refused. *urls gets n malloc'd strings
 * (free with avrogen_registry_list_free). E_CONFIG when an item is no
 * http:// or https:// URL or the list is empty; E_NOMEM.
 */
avrogen_registry_status registry_split_urls(const char *list, char ***urls, size_t *n,
                                            avrogen_registry_error *err);

/* `s` percent-encoded for a URL path segment (RFC 3986: all but unreserved
 * characters); malloc'd, NULL when out of memory. */
char *registry_url_encode(const char *s);

/*
 * What an HTTP answer means: OK for 2xx, else the status for the code and the
 * registry's error body ({"error_code": N, "message": "..."}) with its
 * message and error_code copied into err (a body that is not such JSON: its
 * first line, or "HTTP N").
 */
avrogen_registry_status registry_answer_status(long http_status, const char *body, size_t len,
                                               avrogen_registry_error *err);

/* Is this failure worth another try (connection errors, 5xx, 408, 429)? */
bool registry_is_retryable(avrogen_registry_status s, long http_status);

/* The wait before pass `pass` (1-based) over the URLs: wait_ms doubled each pass, at most
 * max_wait_ms, never past the `left_ms` remaining before the call's deadline. */
long registry_backoff_ms(long pass, long wait_ms, long max_wait_ms, long left_ms);

/* ---- the cache (cache.c) ---------------------------------------------------------- */

enum cache_kind {
    CACHE_ID_OF,  /* (subject, text) -> id, version: register and lookup */
    CACHE_SCHEMA, /* id -> text, parsed schema: never evicted while positive */
    CACHE_LATEST, /* subject -> id, version, for latest.cache.ttl.ms */
};

struct cache_entry;

/*
 * One mutex around a chained hash table. Positive CACHE_SCHEMA entries own
 * the schemas handed out, so they stay until the cache goes (a process meets
 * as many as the registry has ids it reads). Every other entry is evictable:
 * at most `capacity` of them are kept, the oldest going first, and an entry
 * past its expiry is a miss and is dropped.
 */
struct registry_cache {
    pthread_mutex_t mu;
    struct cache_entry **buckets;
    size_t n_buckets, n_entries, n_evictable;
    size_t capacity;
    struct cache_entry *oldest, *newest; /* the evictable entries, in insertion order */
};

/* A cache hit, copied out under the lock (schema pointers stay owned by the cache). */
struct cache_hit {
    bool negative; /* a remembered failure: err holds it */
    uint32_t id;
    int version;
    const char *text;
    const avrogen_schema *schema;
    avrogen_registry_error err;
};

/* Key of an entry: kind plus subject and text (NULL for none) or id. */
struct cache_key {
    enum cache_kind kind;
    const char *subject;
    const char *text;
    uint32_t id;
};

bool cache_init(struct registry_cache *c, size_t capacity);
void cache_fini(struct registry_cache *c);
/* Monotonic time in milliseconds, the cache's clock. */
int64_t registry_now_ms(void);
/* Look `k` up at time `now`; true and *hit filled on a live entry. */
bool cache_get(struct registry_cache *c, const struct cache_key *k, int64_t now,
               struct cache_hit *hit);
/*
 * Remember `k`: positive (neg NULL) with id, version and for CACHE_SCHEMA the
 * text and the parsed schema, whose ownership moves in (freed right away when
 * an entry for the id is already there: *hit then shows the one kept); or a
 * failure `neg`. `expires` is an absolute time (registry_now_ms), 0 never.
 * On success *hit (may be NULL) shows the entry. false: out of memory (the
 * schema freed).
 */
bool cache_put(struct registry_cache *c, const struct cache_key *k, uint32_t id, int version,
               const char *text, avrogen_schema *schema, const avrogen_registry_error *neg,
               int64_t expires, struct cache_hit *hit);
/* How many entries the cache holds (tests). */
size_t cache_size(struct registry_cache *c);

/* ---- HTTP (http.c) ------------------------------------------------------------------ */

struct avrogen_registry {
    avrogen_registry_config cfg;
    char **urls;
    size_t n_urls;
    struct registry_cache cache;
    long requests; /* HTTP requests made, for tests; under cache.mu */
};

/* An answer's body, NUL-terminated; free(body). */
struct registry_reply {
    long http_status;
    char *body;
    size_t len;
};

/*
 * `method` PATH (already encoded, starting with /) with JSON `body` (NULL for
 * none) on each URL in turn, passes repeated with back-off while a failure is
 * retryable and the call's time (request.timeout.ms) lasts. OK with the 2xx
 * reply in *out; else the last failure in err (reply freed).
 */
avrogen_registry_status registry_http(avrogen_registry *reg, const char *method, const char *path,
                                      const char *body, struct registry_reply *out,
                                      avrogen_registry_error *err);

#endif /* AVROGEN_REGISTRY_INTERNAL_H */
