/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Schema Registry client without a registry: configuration (every key,
 * the properties file), subject name strategies, URL lists and encoding, what
 * the registry's error answers mean, the back-off bounds, the cache (hits,
 * negative entries expiring, eviction, many threads), and the client against
 * a loopback port nothing listens on: bounded retries, an error naming the
 * URL, and no request at all once the cache holds the answer. The client
 * against a real registry is tests/registry/registry_test.py.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <pthread.h>
#include <unistd.h>

#include "avrogen/registry.h"

#include "registry_internal.h"

/* A loopback port nothing listens on (1 is tcpmux, never served here): connecting is refused
 * at once. */
#define CLOSED_URL "http://127.0.0.1:1"

static const char *order_avsc = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
                                "\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";

static avrogen_registry_config *config(void)
{
    avrogen_registry_config *cfg;
    ck_assert_int_eq(avrogen_registry_config_new(&cfg), AVROGEN_REGISTRY_OK);
    return cfg;
}

static void set(avrogen_registry_config *cfg, const char *k, const char *v)
{
    avrogen_registry_error e;
    avrogen_registry_status st = avrogen_registry_config_set(cfg, k, v, &e);
    ck_assert_msg(st == AVROGEN_REGISTRY_OK, "%s=%s: %s", k, v, e.message);
}

static avrogen_registry *client(const char *url, const char *const *kv)
{
    avrogen_registry_config *cfg = config();
    set(cfg, "schema.registry.url", url);
    for (size_t i = 0; kv != NULL && kv[i] != NULL; i += 2)
        set(cfg, kv[i], kv[i + 1]);
    avrogen_registry *reg;
    avrogen_registry_error e;
    ck_assert_int_eq(avrogen_registry_new(cfg, &reg, &e), AVROGEN_REGISTRY_OK);
    avrogen_registry_config_free(cfg);
    return reg;
}

/* ---- statuses, configuration -------------------------------------------------------- */

START_TEST(status_texts)
{
    ck_assert_str_eq(avrogen_registry_status_str(AVROGEN_REGISTRY_OK), "ok");
    ck_assert_str_eq(avrogen_registry_status_str(AVROGEN_REGISTRY_E_NOT_FOUND),
                     "not found in the registry");
    ck_assert_str_eq(avrogen_registry_status_str(AVROGEN_REGISTRY_E_PROTOCOL),
                     "unexpected answer from the registry");
    ck_assert_str_eq(avrogen_registry_status_str((avrogen_registry_status)99),
                     "unknown registry status");
}
END_TEST

START_TEST(config_every_key)
{
    avrogen_registry_config *cfg = config();
    ck_assert_int_eq(cfg->timeout_ms, 10000);
    ck_assert(cfg->auto_register && !cfg->use_latest);
    set(cfg, "schema.registry.url", "http://a:8081, http://b:8081/");
    set(cfg, "basic.auth.user.info", "fred:s3cr:et");
    set(cfg, "basic.auth.credentials.source", "URL");
    set(cfg, "bearer.auth.token", "tok");
    set(cfg, "bearer.auth.credentials.source", "STATIC_TOKEN");
    set(cfg, "ssl.ca.location", "/ca.pem");
    set(cfg, "ssl.certificate.location", "/c.pem");
    set(cfg, "ssl.key.location", "/k.pem");
    set(cfg, "ssl.key.password", "pw");
    set(cfg, "request.timeout.ms", "2500");
    set(cfg, "max.retries", "0");
    set(cfg, "retries.wait.ms", "50");
    set(cfg, "retries.max.wait.ms", "400");
    set(cfg, "auto.register.schemas", "false");
    set(cfg, "use.latest.version", "true");
    set(cfg, "latest.cache.ttl.ms", "-1");
    set(cfg, "key.subject.name.strategy", "RecordNameStrategy");
    set(cfg, "value.subject.name.strategy",
        "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy");
    set(cfg, "cache.capacity", "7");
    set(cfg, "cache.negative.ttl.ms", "0");
    ck_assert_str_eq(cfg->url, "http://a:8081, http://b:8081/");
    ck_assert_str_eq(cfg->user_info, "fred:s3cr:et");
    ck_assert(cfg->auth_from_url);
    ck_assert_str_eq(cfg->bearer_token, "tok");
    ck_assert_str_eq(cfg->ca_location, "/ca.pem");
    ck_assert_str_eq(cfg->cert_location, "/c.pem");
    ck_assert_str_eq(cfg->key_location, "/k.pem");
    ck_assert_str_eq(cfg->key_password, "pw");
    ck_assert_int_eq(cfg->timeout_ms, 2500);
    ck_assert_int_eq(cfg->max_retries, 0);
    ck_assert_int_eq(cfg->wait_ms, 50);
    ck_assert_int_eq(cfg->max_wait_ms, 400);
    ck_assert(!cfg->auto_register && cfg->use_latest);
    ck_assert_int_eq(cfg->latest_ttl_ms, -1);
    ck_assert_int_eq(cfg->key_strategy, STRATEGY_RECORD);
    ck_assert_int_eq(cfg->value_strategy, STRATEGY_TOPIC_RECORD);
    ck_assert_int_eq(cfg->capacity, 7);
    ck_assert_int_eq(cfg->negative_ttl_ms, 0);
    /* Java's spelling: the schema.registry. prefix. */
    set(cfg, "schema.registry.ssl.ca.location", "/other.pem");
    set(cfg, "schema.registry.basic.auth.user.info", "u:p");
    ck_assert_str_eq(cfg->ca_location, "/other.pem");
    ck_assert_str_eq(cfg->user_info, "u:p");
    avrogen_registry_config_free(cfg);
}
END_TEST

static const struct {
    const char *key, *value, *why;
} bad_settings[] = {
        {"schema.registry.urls", "http://x", "unknown key 'schema.registry.urls'"},
        {"bootstrap.servers", "k:9092", "unknown key"},
        {"request.timeout.ms", "0", "at least 1"},
        {"request.timeout.ms", "10s", "not a whole number"},
        {"max.retries", "-1", "at least 0"},
        {"latest.cache.ttl.ms", "-2", "at least -1"},
        {"auto.register.schemas", "yes", "not true or false"},
        {"key.subject.name.strategy", "TopicStrategy", "TopicRecordNameStrategy"},
        {"basic.auth.credentials.source", "SASL_INHERIT", "USER_INFO or URL"},
        {"bearer.auth.credentials.source", "OAUTHBEARER", "STATIC_TOKEN"},
        {"cache.capacity", "0", "at least 1"},
};

START_TEST(config_bad_values)
{
    avrogen_registry_config *cfg = config();
    avrogen_registry_error e;
    avrogen_registry_status st =
            avrogen_registry_config_set(cfg, bad_settings[_i].key, bad_settings[_i].value, &e);
    ck_assert_int_eq(st, AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_int_eq(e.status, AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_msg(strstr(e.message, bad_settings[_i].why) != NULL, "%s", e.message);
    avrogen_registry_config_free(cfg);
}
END_TEST

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/avrogen-registry-test-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

START_TEST(config_properties_file)
{
    char *path = write_temp("# kcat -F file\n"
                            "! also a comment\n"
                            "\n"
                            "bootstrap.servers=localhost:9092\n"
                            "security.protocol = SASL_SSL\n"
                            "  schema.registry.url = https://sr:8081 \n"
                            "basic.auth.user.info=u:p=w\n"
                            "schema.registry.request.timeout.ms=1234\n");
    avrogen_registry_config *cfg = config();
    avrogen_registry_error e;
    ck_assert_int_eq(avrogen_registry_config_load(cfg, path, &e), AVROGEN_REGISTRY_OK);
    ck_assert_str_eq(cfg->url, "https://sr:8081");
    ck_assert_str_eq(cfg->user_info, "u:p=w");
    ck_assert_int_eq(cfg->timeout_ms, 1234);
    unlink(path);
    free(path);

    /* A misspelt registry key, a bad value, a line without '=': PATH:LINE: why. */
    static const char *const bad[] = {"a=b\nschema.registry.url.list=x\n", "max.retries=many\n",
                                      "schema.registry.url\n"};
    static const char *const want[] = {":2: unknown key 'schema.registry.url.list'",
                                       ":1: max.retries: 'many'", ":1: no '=' in"};
    for (size_t i = 0; i < 3; i++) {
        path = write_temp(bad[i]);
        ck_assert_int_eq(avrogen_registry_config_load(cfg, path, &e), AVROGEN_REGISTRY_E_CONFIG);
        ck_assert_msg(strncmp(e.message, path, strlen(path)) == 0 &&
                              strstr(e.message, want[i]) != NULL,
                      "%s", e.message);
        unlink(path);
        free(path);
    }
    ck_assert_int_eq(avrogen_registry_config_load(cfg, "/nonexistent/client.properties", &e),
                     AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_str_eq(e.message, "/nonexistent/client.properties: No such file or directory");
    avrogen_registry_config_free(cfg);
}
END_TEST

/* ---- URLs, subjects ------------------------------------------------------------------ */

START_TEST(url_lists)
{
    char **urls;
    size_t n;
    avrogen_registry_error e;
    ck_assert_int_eq(registry_split_urls(" http://a:8081/ ,,https://b//,http://c", &urls, &n, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(urls[0], "http://a:8081");
    ck_assert_str_eq(urls[1], "https://b");
    ck_assert_str_eq(urls[2], "http://c");
    avrogen_registry_list_free(urls, n);

    ck_assert_int_eq(registry_split_urls("http://a,ftp://b", &urls, &n, &e),
                     AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_str_eq(e.message, "schema.registry.url: 'ftp://b' is not an http:// or https:// URL");
    ck_assert_ptr_null(urls);
    ck_assert_int_eq(registry_split_urls(" , ", &urls, &n, &e), AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_str_eq(e.message, "schema.registry.url names no URL");
    ck_assert_int_eq(registry_split_urls("http://", &urls, &n, &e), AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_int_eq(registry_split_urls(NULL, &urls, &n, &e), AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_str_eq(e.message, "schema.registry.url is not set");

    /* The client refuses such a configuration before any request. */
    avrogen_registry_config *cfg = config();
    avrogen_registry *reg;
    ck_assert_int_eq(avrogen_registry_new(cfg, &reg, &e), AVROGEN_REGISTRY_E_CONFIG);
    ck_assert_ptr_null(reg);
    avrogen_registry_config_free(cfg);
}
END_TEST

START_TEST(url_encoding)
{
    static const char *const cases[][2] = {
            {"orders-value", "orders-value"},
            {"com.acme.Order", "com.acme.Order"},
            {"a b/c?d#e%f", "a%20b%2Fc%3Fd%23e%25f"},
            {"~_.-", "~_.-"},
            {"caf\xc3\xa9", "caf%C3%A9"},
            {"", ""},
            {":context:.x", "%3Acontext%3A.x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = registry_url_encode(cases[i][0]);
        ck_assert_str_eq(got, cases[i][1]);
        free(got);
    }
}
END_TEST

START_TEST(subject_strategies)
{
    avrogen_schema *s, *prim;
    ck_assert_int_eq(avrogen_schema_parse(order_avsc, strlen(order_avsc), NULL, &s, NULL),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_schema_parse("\"long\"", 6, NULL, &prim, NULL), AVROGEN_OK);
    char buf[64];
    avrogen_registry_error e;

    avrogen_registry *reg = client(CLOSED_URL, NULL);
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", false, s, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_str_eq(buf, "orders-value");
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", true, NULL, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_str_eq(buf, "orders-key");
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", true, NULL, buf, 10, &e),
                     AVROGEN_REGISTRY_E_ARG); /* "orders-key" needs 11 bytes with its NUL */
    avrogen_registry_free(reg);

    static const char *const record[] = {"value.subject.name.strategy", "RecordNameStrategy",
                                         "key.subject.name.strategy", "TopicRecordNameStrategy",
                                         NULL};
    reg = client(CLOSED_URL, record);
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", false, s, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_str_eq(buf, "com.acme.Order");
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", true, s, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_str_eq(buf, "orders-com.acme.Order");
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", false, prim, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_E_ARG);
    ck_assert_str_eq(e.message, "RecordNameStrategy: the subject name strategy needs a record "
                                "schema");
    ck_assert_int_eq(avrogen_registry_subject_name(reg, "orders", true, NULL, buf, sizeof buf, &e),
                     AVROGEN_REGISTRY_E_ARG);
    avrogen_registry_free(reg);
    avrogen_schema_free(s);
    avrogen_schema_free(prim);
}
END_TEST

/* ---- answers, back-off --------------------------------------------------------------- */

static const struct {
    long http;
    const char *body;
    avrogen_registry_status want;
    long code;
    const char *message;
} answers[] = {
        {200, "{\"id\":1}", AVROGEN_REGISTRY_OK, 0, NULL},
        {404, "{\"error_code\":40401,\"message\":\"Subject 'x' not found.\"}",
         AVROGEN_REGISTRY_E_NOT_FOUND, 40401, "Subject 'x' not found."},
        {404, "{\"error_code\":40403,\"message\":\"Schema 7 not found\"}",
         AVROGEN_REGISTRY_E_NOT_FOUND, 40403, "Schema 7 not found"},
        {409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible\"}",
         AVROGEN_REGISTRY_E_INCOMPATIBLE, 409, "Schema being registered is incompatible"},
        {422, "{\"error_code\":42201,\"message\":\"Invalid schema\"}",
         AVROGEN_REGISTRY_E_INVALID_SCHEMA, 42201, "Invalid schema"},
        {422, "{\"error_code\":42202,\"message\":\"The specified version is not valid\"}",
         AVROGEN_REGISTRY_E_ARG, 42202, "The specified version is not valid"},
        {401, "{\"error_code\":401,\"message\":\"Unauthorized\"}", AVROGEN_REGISTRY_E_UNAUTHORIZED,
         401, "Unauthorized"},
        {403, "", AVROGEN_REGISTRY_E_UNAUTHORIZED, 0, "HTTP 403"},
        {500, "{\"error_code\":50001,\"message\":\"Error in the backend data store\"}",
         AVROGEN_REGISTRY_E_SERVER, 50001, "Error in the backend data store"},
        {502, "<html>\r\n<head><title>502 Bad Gateway</title></head>", AVROGEN_REGISTRY_E_SERVER, 0,
         "HTTP 502: <html>"},
        {400, "not json", AVROGEN_REGISTRY_E_PROTOCOL, 0, "HTTP 400: not json"},
        /* The error code rules where the HTTP status says less. */
        {400, "{\"error_code\":40401,\"message\":\"no subject\"}", AVROGEN_REGISTRY_E_NOT_FOUND,
         40401, "no subject"},
};

START_TEST(answer_statuses)
{
    avrogen_registry_error e = {0};
    const char *body = answers[_i].body;
    avrogen_registry_status st = registry_answer_status(answers[_i].http, body, strlen(body), &e);
    ck_assert_int_eq(st, answers[_i].want);
    if (answers[_i].message != NULL) {
        ck_assert_int_eq(e.status, st);
        ck_assert_int_eq(e.http_status, answers[_i].http);
        ck_assert_int_eq(e.error_code, answers[_i].code);
        ck_assert_str_eq(e.message, answers[_i].message);
    }
}
END_TEST

START_TEST(retryable_answers)
{
    ck_assert(registry_is_retryable(AVROGEN_REGISTRY_E_CONNECT, 0));
    ck_assert(registry_is_retryable(AVROGEN_REGISTRY_E_SERVER, 503));
    ck_assert(registry_is_retryable(AVROGEN_REGISTRY_E_PROTOCOL, 429));
    ck_assert(!registry_is_retryable(AVROGEN_REGISTRY_E_NOT_FOUND, 404));
    ck_assert(!registry_is_retryable(AVROGEN_REGISTRY_E_UNAUTHORIZED, 401));
    ck_assert(!registry_is_retryable(AVROGEN_REGISTRY_E_INCOMPATIBLE, 409));
}
END_TEST

START_TEST(backoff_bounds)
{
    /* 1000 doubled each pass up to 20000 (Confluent's defaults). */
    static const long want[] = {1000, 2000, 4000, 8000, 16000, 20000, 20000};
    for (long p = 1; p <= 7; p++)
        ck_assert_int_eq(registry_backoff_ms(p, 1000, 20000, 100000), want[p - 1]);
    /* Never past the deadline, never negative, no overflow for absurd passes. */
    ck_assert_int_eq(registry_backoff_ms(3, 1000, 20000, 2500), 2500);
    ck_assert_int_eq(registry_backoff_ms(1, 1000, 20000, -5), 0);
    ck_assert_int_eq(registry_backoff_ms(1000000, 1000, 20000, 100000), 20000);
    ck_assert_int_eq(registry_backoff_ms(70, 3, 2000000000L, 2100000000L), 2000000000L);
    ck_assert_int_eq(registry_backoff_ms(2, 0, 100, 1000), 0);
}
END_TEST

/* ---- the cache ----------------------------------------------------------------------- */

static avrogen_schema *order_schema(void)
{
    avrogen_schema *s;
    ck_assert_int_eq(avrogen_schema_parse(order_avsc, strlen(order_avsc), NULL, &s, NULL),
                     AVROGEN_OK);
    return s;
}

START_TEST(cache_hits_and_negatives)
{
    struct registry_cache c;
    ck_assert(cache_init(&c, 100));
    struct cache_hit hit;
    struct cache_key k = {CACHE_ID_OF, "orders-value", order_avsc, 0};
    ck_assert(!cache_get(&c, &k, 0, &hit));
    ck_assert(cache_put(&c, &k, 42, 3, NULL, NULL, NULL, 0, NULL));
    ck_assert(cache_get(&c, &k, 1000000, &hit));
    ck_assert(!hit.negative);
    ck_assert_uint_eq(hit.id, 42);
    ck_assert_int_eq(hit.version, 3);
    /* Another subject, another text: other keys. */
    struct cache_key k2 = {CACHE_ID_OF, "orders-key", order_avsc, 0};
    struct cache_key k3 = {CACHE_ID_OF, "orders-value", "\"long\"", 0};
    ck_assert(!cache_get(&c, &k2, 0, &hit) && !cache_get(&c, &k3, 0, &hit));

    /* A failure is remembered until it expires, then is a miss and gone. */
    avrogen_registry_error nf = {.status = AVROGEN_REGISTRY_E_NOT_FOUND, .error_code = 40403};
    snprintf(nf.message, sizeof nf.message, "Schema 9 not found");
    struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, 9};
    ck_assert(cache_put(&c, &ks, 0, 0, NULL, NULL, &nf, 5000, NULL));
    ck_assert(cache_get(&c, &ks, 4999, &hit));
    ck_assert(hit.negative);
    ck_assert_int_eq(hit.err.status, AVROGEN_REGISTRY_E_NOT_FOUND);
    ck_assert_str_eq(hit.err.message, "Schema 9 not found");
    size_t before = cache_size(&c);
    ck_assert(!cache_get(&c, &ks, 5000, &hit));
    ck_assert_uint_eq(cache_size(&c), before - 1);

    /* A schema replaces a negative entry; a later failure never replaces a schema. */
    ck_assert(cache_put(&c, &ks, 0, 0, NULL, NULL, &nf, 5000, NULL));
    ck_assert(cache_put(&c, &ks, 9, 0, order_avsc, order_schema(), NULL, 0, &hit));
    const avrogen_schema *kept = hit.schema;
    ck_assert_ptr_nonnull(kept);
    ck_assert_str_eq(hit.text, order_avsc);
    ck_assert(cache_put(&c, &ks, 0, 0, NULL, NULL, &nf, 5000, NULL));
    ck_assert(cache_get(&c, &ks, 0, &hit) && !hit.negative);
    /* Fetched twice (two threads racing): the first copy stays, the second is freed. */
    ck_assert(cache_put(&c, &ks, 9, 0, order_avsc, order_schema(), NULL, 0, &hit));
    ck_assert_ptr_eq(hit.schema, kept);
    cache_fini(&c);
}
END_TEST

START_TEST(cache_bounded)
{
    struct registry_cache c;
    ck_assert(cache_init(&c, 10));
    char subject[32];
    /* Schemas stay; subject entries beyond the capacity go, oldest first. */
    for (uint32_t id = 1; id <= 20; id++) {
        struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, id};
        ck_assert(cache_put(&c, &ks, id, 0, order_avsc, order_schema(), NULL, 0, NULL));
    }
    for (int i = 0; i < 1000; i++) {
        snprintf(subject, sizeof subject, "s%d", i);
        struct cache_key k = {CACHE_ID_OF, subject, order_avsc, 0};
        ck_assert(cache_put(&c, &k, (uint32_t)i, 1, NULL, NULL, NULL, 0, NULL));
    }
    ck_assert_uint_eq(cache_size(&c), 20 + 10);
    struct cache_hit hit;
    struct cache_key k = {CACHE_ID_OF, "s989", order_avsc, 0};
    ck_assert(!cache_get(&c, &k, 0, &hit));
    k.subject = "s990";
    ck_assert(cache_get(&c, &k, 0, &hit) && hit.id == 990);
    for (uint32_t id = 1; id <= 20; id++) {
        struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, id};
        ck_assert(cache_get(&c, &ks, 0, &hit) && hit.schema != NULL);
    }
    cache_fini(&c);
}
END_TEST

struct worker {
    struct registry_cache *c;
    int seed;
    long hits;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    char subject[32];
    for (int i = 0; i < 20000; i++) {
        int n = (i * 7 + w->seed) % 300;
        snprintf(subject, sizeof subject, "topic-%d-value", n);
        struct cache_key k = {CACHE_ID_OF, subject, order_avsc, 0};
        struct cache_hit hit;
        if (cache_get(w->c, &k, 0, &hit)) {
            if (hit.id != (uint32_t)n)
                return NULL;
            w->hits++;
        } else if (!cache_put(w->c, &k, (uint32_t)n, 1, NULL, NULL, NULL, 0, NULL)) {
            return NULL;
        }
        if (i % 100 == 0) {
            struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, (uint32_t)(n % 10)};
            if (!cache_get(w->c, &ks, 0, &hit) &&
                !cache_put(w->c, &ks, (uint32_t)(n % 10), 0, order_avsc, order_schema(), NULL, 0,
                           &hit))
                return NULL;
            if (hit.schema == NULL || strcmp(hit.text, order_avsc) != 0)
                return NULL;
        }
    }
    return w;
}

START_TEST(cache_threads)
{
    struct registry_cache c;
    ck_assert(cache_init(&c, 200)); /* fewer than the keys: evictions race with hits */
    enum { N = 8 };
    pthread_t t[N];
    struct worker w[N];
    for (int i = 0; i < N; i++) {
        w[i] = (struct worker){&c, i * 13, 0};
        ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    long hits = 0;
    for (int i = 0; i < N; i++) {
        void *r;
        ck_assert_int_eq(pthread_join(t[i], &r), 0);
        ck_assert_ptr_eq(r, &w[i]);
        hits += w[i].hits;
    }
    ck_assert_int_gt(hits, 0);
    ck_assert_uint_le(cache_size(&c), 200 + 10);
    cache_fini(&c);
}
END_TEST

/* ---- the client, without a registry -------------------------------------------------- */

START_TEST(unreachable_is_bounded)
{
    /* Two URLs, three passes at most: 6 requests, back-off 100 + 200 ms, all refused. */
    static const char *const kv[] = {
            "max.retries", "2", "retries.wait.ms", "100", "request.timeout.ms", "5000", NULL};
    avrogen_registry *reg = client(CLOSED_URL "," CLOSED_URL "/", kv);
    avrogen_registry_schema s;
    avrogen_registry_error e;
    int64_t t0 = registry_now_ms();
    ck_assert_int_eq(avrogen_registry_schema_by_id(reg, 1, &s, &e), AVROGEN_REGISTRY_E_CONNECT);
    int64_t took = registry_now_ms() - t0;
    ck_assert_int_ge(took, 300);
    ck_assert_int_lt(took, 5000);
    ck_assert_int_eq(reg->requests, 6);
    ck_assert_str_eq(e.url, CLOSED_URL "/schemas/ids/1");
    ck_assert_msg(strncmp(e.message, CLOSED_URL "/schemas/ids/1: ", 30) == 0 &&
                          strstr(e.message, "(3 passes over 2 URLs in ") != NULL,
                  "%s", e.message);
    /* Connection failures are not remembered: the next call tries again. */
    ck_assert_int_eq(avrogen_registry_schema_by_id(reg, 1, &s, &e), AVROGEN_REGISTRY_E_CONNECT);
    ck_assert_int_eq(reg->requests, 12);
    avrogen_registry_free(reg);

    /* The total time bounds the retries: a long back-off is not waited for. */
    static const char *const slow[] = {
            "max.retries", "50", "retries.wait.ms", "400", "request.timeout.ms", "1000", NULL};
    reg = client(CLOSED_URL, slow);
    t0 = registry_now_ms();
    ck_assert_int_eq(avrogen_registry_subjects(reg, &(char **){NULL}, &(size_t){0}, &e),
                     AVROGEN_REGISTRY_E_CONNECT);
    took = registry_now_ms() - t0;
    ck_assert_int_lt(took, 1000 + 200);
    ck_assert_int_le(reg->requests, 3);
    avrogen_registry_free(reg);
}
END_TEST

START_TEST(steady_state_makes_no_request)
{
    static const char *const once[] = {"max.retries", "0", NULL};
    avrogen_registry *reg = client(CLOSED_URL, once);
    struct cache_key k = {CACHE_ID_OF, "orders-value", order_avsc, 0};
    ck_assert(cache_put(&reg->cache, &k, 42, 1, NULL, NULL, NULL, 0, NULL));
    struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, 42};
    ck_assert(cache_put(&reg->cache, &ks, 42, 0, order_avsc, order_schema(), NULL, 0, NULL));
    avrogen_registry_error e;
    for (int i = 0; i < 1000; i++) {
        uint32_t id = 0;
        int version = 0;
        avrogen_registry_schema s;
        ck_assert_int_eq(avrogen_registry_id_for(reg, "orders-value", order_avsc, &id, &e),
                         AVROGEN_REGISTRY_OK);
        ck_assert_uint_eq(id, 42);
        ck_assert_int_eq(avrogen_registry_register(reg, "orders-value", order_avsc, &id, &e),
                         AVROGEN_REGISTRY_OK);
        ck_assert_int_eq(
                avrogen_registry_lookup(reg, "orders-value", order_avsc, &id, &version, &e),
                AVROGEN_REGISTRY_OK);
        ck_assert_int_eq(version, 1);
        ck_assert_int_eq(avrogen_registry_schema_by_id(reg, 42, &s, &e), AVROGEN_REGISTRY_OK);
        ck_assert_str_eq(avrogen_schema_root(s.schema)->fullname, "com.acme.Order");
    }
    ck_assert_int_eq(reg->requests, 0);

    /* A remembered "not found" answers without a request until it expires. */
    avrogen_registry_error nf = {.status = AVROGEN_REGISTRY_E_NOT_FOUND, .error_code = 40403};
    snprintf(nf.message, sizeof nf.message, "Schema 7 not found");
    struct cache_key k7 = {CACHE_SCHEMA, NULL, NULL, 7};
    ck_assert(cache_put(&reg->cache, &k7, 0, 0, NULL, NULL, &nf, registry_now_ms() + 60000, NULL));
    avrogen_registry_schema s;
    ck_assert_int_eq(avrogen_registry_schema_by_id(reg, 7, &s, &e), AVROGEN_REGISTRY_E_NOT_FOUND);
    ck_assert_str_eq(e.message, "Schema 7 not found");
    ck_assert_int_eq(e.error_code, 40403);
    ck_assert_int_eq(reg->requests, 0);
    ck_assert(cache_put(&reg->cache, &k7, 0, 0, NULL, NULL, &nf, registry_now_ms() - 1, NULL));
    ck_assert_int_eq(avrogen_registry_schema_by_id(reg, 7, &s, &e), AVROGEN_REGISTRY_E_CONNECT);
    ck_assert_int_ge(reg->requests, 1);
    avrogen_registry_free(reg);
}
END_TEST

START_TEST(use_latest_and_lookup_paths)
{
    /* use.latest.version: the subject's latest, from the cache. */
    static const char *const latest[] = {"use.latest.version", "true", "max.retries", "0", NULL};
    avrogen_registry *reg = client(CLOSED_URL, latest);
    struct cache_key kl = {CACHE_LATEST, "orders-value", NULL, 0};
    ck_assert(cache_put(&reg->cache, &kl, 5, 4, NULL, NULL, NULL, 0, NULL));
    struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, 5};
    ck_assert(cache_put(&reg->cache, &ks, 5, 0, order_avsc, order_schema(), NULL, 0, NULL));
    uint32_t id = 0;
    avrogen_registry_error e;
    ck_assert_int_eq(avrogen_registry_id_for(reg, "orders-value", "\"anything\"", &id, &e),
                     AVROGEN_REGISTRY_OK);
    ck_assert_uint_eq(id, 5);
    avrogen_registry_schema s;
    ck_assert_int_eq(avrogen_registry_latest(reg, "orders-value", &s, &e), AVROGEN_REGISTRY_OK);
    ck_assert_int_eq(s.version, 4);
    ck_assert_uint_eq(s.id, 5);
    ck_assert_int_eq(reg->requests, 0);
    /* Not cached: asks, and the unreachable registry is the answer. */
    ck_assert_int_eq(avrogen_registry_id_for(reg, "other-value", order_avsc, &id, &e),
                     AVROGEN_REGISTRY_E_CONNECT);
    ck_assert_str_eq(e.url, CLOSED_URL "/subjects/other-value/versions/latest");
    avrogen_registry_free(reg);

    /* auto.register.schemas=false: a lookup (POST /subjects/SUBJECT), subject encoded. */
    static const char *const look[] = {"auto.register.schemas", "false", "max.retries", "0", NULL};
    reg = client(CLOSED_URL, look);
    ck_assert_int_eq(avrogen_registry_id_for(reg, "a b", order_avsc, &id, &e),
                     AVROGEN_REGISTRY_E_CONNECT);
    ck_assert_str_eq(e.url, CLOSED_URL "/subjects/a%20b");
    ck_assert_int_eq(avrogen_registry_check(reg, "a/b", order_avsc, &e),
                     AVROGEN_REGISTRY_E_CONNECT);
    ck_assert_str_eq(e.url,
                     CLOSED_URL "/compatibility/subjects/a%2Fb/versions/latest?verbose=true");
    avrogen_registry_free(reg);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("registry");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, status_texts);
    tcase_add_test(tc, config_every_key);
    tcase_add_loop_test(tc, config_bad_values, 0, sizeof bad_settings / sizeof *bad_settings);
    tcase_add_test(tc, config_properties_file);
    suite_add_tcase(su, tc);
    tc = tcase_create("names");
    tcase_add_test(tc, url_lists);
    tcase_add_test(tc, url_encoding);
    tcase_add_test(tc, subject_strategies);
    suite_add_tcase(su, tc);
    tc = tcase_create("answers");
    tcase_add_loop_test(tc, answer_statuses, 0, sizeof answers / sizeof *answers);
    tcase_add_test(tc, retryable_answers);
    tcase_add_test(tc, backoff_bounds);
    suite_add_tcase(su, tc);
    tc = tcase_create("cache");
    tcase_add_test(tc, cache_hits_and_negatives);
    tcase_add_test(tc, cache_bounded);
    tcase_add_test(tc, cache_threads);
    suite_add_tcase(su, tc);
    tc = tcase_create("client");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unreachable_is_bounded);
    tcase_add_test(tc, steady_state_makes_no_request);
    tcase_add_test(tc, use_latest_and_lookup_paths);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
