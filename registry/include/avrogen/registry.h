/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A Confluent Schema Registry client (REST API v1) over libcurl, in a library
 * of its own (libavrogen-registry): the runtime and generated code never link
 * it. It registers, looks up and fetches Avro schemas, answers compatibility
 * questions and lists subjects; a cache shared by every thread using one
 * client maps (subject, schema text) to ids and ids to parsed schemas, so a
 * producer or consumer in steady state makes no HTTP request. It does not
 * frame or decode messages: avrogen/framing.h writes and reads the 5-byte
 * Confluent header, and the runtime decodes with the schema this returns.
 *
 *     avrogen_registry_config *cfg;
 *     avrogen_registry *reg;
 *     avrogen_registry_error err;
 *     uint32_t id;
 *     if (avrogen_registry_config_new(&cfg) != AVROGEN_REGISTRY_OK)
 *         return fail("out of memory");
 *     avrogen_registry_status rs =
 *             avrogen_registry_config_set(cfg, "schema.registry.url", "https://sr:8081", &err);
 *     if (rs == AVROGEN_REGISTRY_OK)
 *         rs = avrogen_registry_new(cfg, &reg, &err);
 *     avrogen_registry_config_free(cfg); // the client keeps a copy
 *     if (rs != AVROGEN_REGISTRY_OK)
 *         return fail(err.message);
 *     if (avrogen_registry_id_for(reg, "orders-value", order_avsc, &id, &err) ==
 *         AVROGEN_REGISTRY_OK)
 *         avrogen_confluent_write_header(&w, id);
 */
#ifndef AVROGEN_REGISTRY_H
#define AVROGEN_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/schema.h"
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * X(NAME, text): every outcome of a registry call. Each error is one a caller
 * acts on differently: retry later (E_CONNECT, E_SERVER), fix credentials
 * (E_UNAUTHORIZED), register first (E_NOT_FOUND), change the schema
 * (E_INCOMPATIBLE, E_INVALID_SCHEMA), fix the program (E_ARG, E_CONFIG).
 */
#define AVROGEN_REGISTRY_STATUS_LIST(X)                          \
    X(OK, "ok")                                                  \
    X(E_NOMEM, "out of memory")                                  \
    X(E_ARG, "invalid argument")                                 \
    X(E_CONFIG, "invalid configuration")                         \
    X(E_CONNECT, "the registry cannot be reached")               \
    X(E_UNAUTHORIZED, "not authorised by the registry")          \
    X(E_NOT_FOUND, "not found in the registry")                  \
    X(E_INCOMPATIBLE, "incompatible with the subject's schemas") \
    X(E_INVALID_SCHEMA, "invalid schema")                        \
    X(E_SERVER, "registry server error")                         \
    X(E_PROTOCOL, "unexpected answer from the registry")

typedef enum avrogen_registry_status {
#define AVROGEN_REGISTRY_STATUS_ENUM(name, text) AVROGEN_REGISTRY_##name,
    AVROGEN_REGISTRY_STATUS_LIST(AVROGEN_REGISTRY_STATUS_ENUM)
#undef AVROGEN_REGISTRY_STATUS_ENUM
} avrogen_registry_status;

/* The fixed English text of a status; never NULL. */
AVROGEN_API const char *avrogen_registry_status_str(avrogen_registry_status s);

/*
 * What went wrong, filled by every call that takes one (NULL is allowed) when
 * it returns an error. `message` is the registry's own message when it sent
 * one ("Subject 'x' not found."), else curl's reason prefixed by the URL tried
 * ("http://sr:8081/subjects: Couldn't connect to server"), else ours.
 */
typedef struct avrogen_registry_error {
    avrogen_registry_status status;
    long http_status; /* the registry's HTTP answer, 0 when there was none */
    long error_code;  /* its "error_code" (40401, 40403, 409, 42201, 50001...), 0 if none */
    char url[512];    /* the last URL tried, "" when no request was made */
    char message[1024];
} avrogen_registry_error;

/* ---- configuration -------------------------------------------------------------- */

/* Settings for a client, by the keys Confluent's clients read; see _set. */
typedef struct avrogen_registry_config avrogen_registry_config;

/* A configuration holding the defaults (no URL). E_NOMEM. */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_config_new(avrogen_registry_config **out);

/* Free a configuration; NULL is a no-op. Clients made from it keep their own copy. */
AVROGEN_API void avrogen_registry_config_free(avrogen_registry_config *cfg);

/*
 * Set `key` to `value` (both copied). Every key may also be spelt with the
 * prefix "schema.registry." (Confluent's Java clients), except the URL key,
 * which is its own name:
 *
 *   schema.registry.url        comma-separated http:// or https:// URLs, tried in turn
 *   basic.auth.user.info       USER:PASSWORD for HTTP basic authentication
 *   basic.auth.credentials.source  USER_INFO (default) or URL (user info in the URL)
 *   bearer.auth.token          sent as "Authorization: Bearer TOKEN"
 *   bearer.auth.credentials.source STATIC_TOKEN (the only one)
 *   ssl.ca.location            CA bundle (PEM) that verifies the registry
 *   ssl.certificate.location   client certificate (PEM)
 *   ssl.key.location           its private key (PEM); ssl.key.password its passphrase
 *   request.timeout.ms         bound on one call, every URL and retry included (10000)
 *   max.retries                further passes over the URLs after a connection error or
 *                              5xx answer (3)
 *   retries.wait.ms            the first back-off; doubled each pass (1000)
 *   retries.max.wait.ms        the longest back-off (20000)
 *   auto.register.schemas      true (default): id_for registers the schema
 *   use.latest.version         true: id_for answers with the subject's latest (false)
 *   latest.cache.ttl.ms        how long a subject's latest is kept; -1 for ever (-1)
 *   key.subject.name.strategy, value.subject.name.strategy
 *                              TopicNameStrategy (default), RecordNameStrategy or
 *                              TopicRecordNameStrategy, bare or with a Java package
 *   cache.capacity             subject entries kept before the oldest go (1000)
 *   cache.negative.ttl.ms      how long a "not found" answer is remembered (5000)
 *
 * Booleans are true/false; numbers decimal. E_CONFIG (err says why) for an
 * unknown key or a bad value; E_NOMEM.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_config_set(avrogen_registry_config *cfg, const char *key, const char *value,
                            avrogen_registry_error *err);

/*
 * Read a properties file as librdkafka and kcat read theirs: KEY=VALUE lines,
 * blanks around both trimmed, blank lines and lines starting with # or !
 * skipped. Keys of the list above are set; keys this client does not know are
 * skipped unless they start with "schema.registry." (those are an error, to
 * catch misspellings), since such a file also holds Kafka's own settings.
 * E_CONFIG ("PATH:LINE: why", or the file that cannot be read), E_NOMEM.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status avrogen_registry_config_load(
        avrogen_registry_config *cfg, const char *path, avrogen_registry_error *err);

/* ---- the client ----------------------------------------------------------------- */

/* A client and its cache; all calls on one client may run in parallel threads. */
typedef struct avrogen_registry avrogen_registry;

/*
 * A client for the registry `cfg` configures (copied: cfg may be freed).
 * E_CONFIG when schema.registry.url is missing or names no http(s) URL, or
 * libcurl cannot start; E_NOMEM. Makes no request.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status avrogen_registry_new(
        const avrogen_registry_config *cfg, avrogen_registry **out, avrogen_registry_error *err);

/* Free the client, its cache and every schema it handed out. NULL is a no-op. */
AVROGEN_API void avrogen_registry_free(avrogen_registry *reg);

/* A schema the registry holds; every pointer is owned by the client. */
typedef struct avrogen_registry_schema {
    uint32_t id;
    int version;                  /* the subject's version; 0 when asked by id */
    const char *text;             /* the schema as the registry returned it */
    const avrogen_schema *schema; /* text, parsed */
} avrogen_registry_schema;

/*
 * Register schema `text` (Avro JSON) under `subject` (POST
 * /subjects/SUBJECT/versions); *id gets its id, a new one or the one it
 * already has. Cached: registering the same text under the same subject again
 * makes no request. E_INCOMPATIBLE, E_INVALID_SCHEMA (the registry's message
 * in err), E_UNAUTHORIZED, E_CONNECT, E_SERVER, E_PROTOCOL, E_NOMEM.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_register(avrogen_registry *reg, const char *subject, const char *text,
                          uint32_t *id, avrogen_registry_error *err);

/*
 * The id under which schema `text` is registered in `subject` (POST
 * /subjects/SUBJECT), and its version there (version may be NULL). Cached;
 * a "not found" answer is remembered for cache.negative.ttl.ms. E_NOT_FOUND
 * (subject or schema), and the errors of _register.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_lookup(avrogen_registry *reg, const char *subject, const char *text, uint32_t *id,
                        int *version, avrogen_registry_error *err);

/*
 * The schema with id `id` (GET /schemas/ids/ID), parsed with
 * avrogen_schema_parse: what a consumer calls with the id of a Confluent
 * header. Cached for the client's life (schemas never change under an id);
 * "not found" for cache.negative.ttl.ms. E_NOT_FOUND, E_INVALID_SCHEMA (the
 * registry's text is no Avro schema we can parse, or has references),
 * E_UNAUTHORIZED, E_CONNECT, E_SERVER, E_PROTOCOL, E_NOMEM.
 *
 *     avrogen_registry_schema s;
 *     if (avrogen_confluent_read_header(&r, &id) == AVROGEN_OK &&
 *         avrogen_registry_schema_by_id(reg, id, &s, &err) == AVROGEN_REGISTRY_OK)
 *         st = avrogen_value_decode(&r, avrogen_schema_root(s.schema), &v, &arena);
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_schema_by_id(avrogen_registry *reg, uint32_t id, avrogen_registry_schema *out,
                              avrogen_registry_error *err);

/*
 * The latest version of `subject` (GET /subjects/SUBJECT/versions/latest).
 * Cached for latest.cache.ttl.ms. E_NOT_FOUND and the errors of _schema_by_id.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_latest(avrogen_registry *reg, const char *subject, avrogen_registry_schema *out,
                        avrogen_registry_error *err);

/*
 * Can `text` be registered under `subject`: is it compatible with the latest
 * version under the subject's compatibility level (POST
 * /compatibility/subjects/SUBJECT/versions/latest)? OK when it is,
 * E_INCOMPATIBLE with the registry's reasons in err->message when it is not.
 * Never cached. E_NOT_FOUND (no such subject), E_INVALID_SCHEMA and the
 * errors of _register.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status avrogen_registry_check(
        avrogen_registry *reg, const char *subject, const char *text, avrogen_registry_error *err);

/*
 * The registry's subjects (GET /subjects), or the versions of one (GET
 * /subjects/SUBJECT/versions). *list / *versions are malloc'd arrays of *n
 * entries; free them with avrogen_registry_list_free / free(). Never cached.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status avrogen_registry_subjects(
        avrogen_registry *reg, char ***list, size_t *n, avrogen_registry_error *err);
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_versions(avrogen_registry *reg, const char *subject, int **versions, size_t *n,
                          avrogen_registry_error *err);

/* Free a list of n strings from avrogen_registry_subjects; NULL is a no-op. */
AVROGEN_API void avrogen_registry_list_free(char **list, size_t n);

/* ---- what a serializer does ----------------------------------------------------- */

/*
 * The subject a message of `topic` whose schema is `schema` goes under, by the
 * key or value subject name strategy configured: TopicNameStrategy
 * "TOPIC-key" / "TOPIC-value", RecordNameStrategy "FULLNAME",
 * TopicRecordNameStrategy "TOPIC-FULLNAME" (FULLNAME: the root record's full
 * name; `schema` may be NULL for TopicNameStrategy). Written NUL-terminated to
 * buf (size bytes). E_ARG when the strategy needs a named root and the schema
 * has none, or buf is too small.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status avrogen_registry_subject_name(
        const avrogen_registry *reg, const char *topic, bool is_key, const avrogen_schema *schema,
        char *buf, size_t size, avrogen_registry_error *err);

/*
 * The id a producer frames `text` with under `subject`, as Confluent's
 * serializers choose it: with use.latest.version, the subject's latest id
 * (_latest); else with auto.register.schemas, _register; else _lookup. Every
 * path is cached, so a steady producer makes no request. Errors as those.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_registry_status
avrogen_registry_id_for(avrogen_registry *reg, const char *subject, const char *text, uint32_t *id,
                        avrogen_registry_error *err);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_REGISTRY_H */
