/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry client's calls: each one the cache first, then one REST
 * request (http.c) whose JSON answer is read with jansson and remembered.
 * Schemas are parsed with the runtime's avrogen_schema_parse; nothing here
 * frames or decodes messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "registry_internal.h"

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

/* libcurl's global state, set up once per process (curl_global_init is not thread-safe). */
static void init_curl(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

avrogen_registry_status avrogen_registry_new(const avrogen_registry_config *cfg,
                                             avrogen_registry **out, avrogen_registry_error *err)
{
    *out = NULL;
    if (cfg == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no configuration");
    pthread_once(&curl_once, init_curl);
    if (curl_init_rc != CURLE_OK)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "libcurl does not start: %s",
                             curl_easy_strerror(curl_init_rc));
    avrogen_registry *reg = calloc(1, sizeof *reg);
    if (reg == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    avrogen_registry_status st = registry_split_urls(cfg->url, &reg->urls, &reg->n_urls, err);
    if (st != AVROGEN_REGISTRY_OK)
        goto out_free;
    if (!registry_config_copy(&reg->cfg, cfg)) {
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
        goto out_free_urls;
    }
    if (!cache_init(&reg->cache, (size_t)cfg->capacity)) {
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
        goto out_free_cfg;
    }
    *out = reg;
    return AVROGEN_REGISTRY_OK;

out_free_cfg:
    registry_config_clear(&reg->cfg);
out_free_urls:
    avrogen_registry_list_free(reg->urls, reg->n_urls);
out_free:
    free(reg);
    return st;
}

void avrogen_registry_free(avrogen_registry *reg)
{
    if (reg == NULL)
        return;
    cache_fini(&reg->cache);
    avrogen_registry_list_free(reg->urls, reg->n_urls);
    registry_config_clear(&reg->cfg);
    free(reg);
}

/* "/PREFIX/<subject, encoded>SUFFIX" into a malloc'd string, or NULL. */
static char *subject_path(const char *prefix, const char *subject, const char *suffix)
{
    char *enc = registry_url_encode(subject);
    if (enc == NULL)
        return NULL;
    size_t n = strlen(prefix) + strlen(enc) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s%s%s", prefix, enc, suffix);
    free(enc);
    return p;
}

/* METHOD PATH with BODY; the answer as JSON in *json. */
static avrogen_registry_status call(avrogen_registry *reg, const char *method, const char *path,
                                    const char *body, json_t **json, avrogen_registry_error *err)
{
    *json = NULL;
    if (path == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    struct registry_reply r;
    avrogen_registry_status st = registry_http(reg, method, path, body, &r, err);
    if (st != AVROGEN_REGISTRY_OK)
        return st;
    json_error_t je;
    *json = json_loadb(r.body, r.len, JSON_DECODE_ANY, &je);
    free(r.body);
    if (*json == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_PROTOCOL, "%s%s: the answer is no JSON: %s",
                             reg->urls[0], path, je.text);
    return AVROGEN_REGISTRY_OK;
}

/* POST {"schema": text} to `path` (malloc'd, freed here; NULL when out of
 * memory); the answer as JSON in *json. */
static avrogen_registry_status post_schema(avrogen_registry *reg, char *path, const char *text,
                                           json_t **json, avrogen_registry_error *err)
{
    *json = NULL;
    json_t *b = json_pack("{s:s}", "schema", text);
    char *body = b != NULL ? json_dumps(b, JSON_COMPACT) : NULL;
    json_decref(b);
    avrogen_registry_status st =
            body == NULL ? registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory")
                         : call(reg, "POST", path, body, json, err);
    free(body);
    free(path);
    return st;
}

static bool get_u32(json_t *obj, const char *key, uint32_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return false;
    *out = (uint32_t)json_integer_value(v);
    return true;
}

static avrogen_registry_status protocol(avrogen_registry_error *err, const char *what)
{
    return registry_fail(err, AVROGEN_REGISTRY_E_PROTOCOL, "the registry's answer has no %s", what);
}

/* Remember a "not found" for cache.negative.ttl.ms; other failures are not remembered. */
static void remember_failure(avrogen_registry *reg, const struct cache_key *k,
                             avrogen_registry_status st, const avrogen_registry_error *err)
{
    if (st != AVROGEN_REGISTRY_E_NOT_FOUND || err == NULL || reg->cfg.negative_ttl_ms == 0)
        return;
    (void)cache_put(&reg->cache, k, 0, 0, NULL, NULL, err,
                    registry_now_ms() + reg->cfg.negative_ttl_ms, NULL);
}

static avrogen_registry_status replay(const struct cache_hit *hit, avrogen_registry_error *err)
{
    if (err != NULL)
        *err = hit->err;
    return hit->err.status;
}

avrogen_registry_status avrogen_registry_register(avrogen_registry *reg, const char *subject,
                                                  const char *text, uint32_t *id,
                                                  avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || text == NULL || id == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject, schema or id");
    struct cache_key k = {CACHE_ID_OF, subject, text, 0};
    struct cache_hit hit;
    if (cache_get(&reg->cache, &k, registry_now_ms(), &hit) && !hit.negative) {
        *id = hit.id;
        return AVROGEN_REGISTRY_OK;
    }
    json_t *j = NULL;
    avrogen_registry_status st =
            post_schema(reg, subject_path("/subjects/", subject, "/versions"), text, &j, err);
    if (st != AVROGEN_REGISTRY_OK)
        return st;
    if (!get_u32(j, "id", id))
        st = protocol(err, "id");
    else if (!cache_put(&reg->cache, &k, *id, 0, NULL, NULL, NULL, 0, NULL))
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    json_decref(j);
    return st;
}

avrogen_registry_status avrogen_registry_lookup(avrogen_registry *reg, const char *subject,
                                                const char *text, uint32_t *id, int *version,
                                                avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || text == NULL || id == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject, schema or id");
    struct cache_key k = {CACHE_ID_OF, subject, text, 0};
    struct cache_hit hit;
    /* An entry from _register knows no version: ask, if the caller wants one. */
    if (cache_get(&reg->cache, &k, registry_now_ms(), &hit) &&
        (hit.negative || version == NULL || hit.version != 0)) {
        if (hit.negative)
            return replay(&hit, err);
        *id = hit.id;
        if (version != NULL)
            *version = hit.version;
        return AVROGEN_REGISTRY_OK;
    }
    json_t *j = NULL;
    avrogen_registry_status st =
            post_schema(reg, subject_path("/subjects/", subject, ""), text, &j, err);
    if (st != AVROGEN_REGISTRY_OK) {
        remember_failure(reg, &k, st, err);
        return st;
    }
    uint32_t v = 0;
    if (!get_u32(j, "id", id) || !get_u32(j, "version", &v) || v > INT32_MAX)
        st = protocol(err, "id and version");
    else if (!cache_put(&reg->cache, &k, *id, (int)v, NULL, NULL, NULL, 0, NULL))
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    else if (version != NULL)
        *version = (int)v;
    json_decref(j);
    return st;
}

/* Parse `text` as the schema of `id` and keep it; *out shows the cached copy. */
static avrogen_registry_status keep_schema(avrogen_registry *reg, uint32_t id, const char *text,
                                           avrogen_registry_schema *out,
                                           avrogen_registry_error *err)
{
    avrogen_schema *s;
    avrogen_diag d;
    avrogen_status ps = avrogen_schema_parse(text, strlen(text), NULL, &s, &d);
    if (ps == AVROGEN_E_NOMEM)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    if (ps != AVROGEN_OK)
        return registry_fail(err, AVROGEN_REGISTRY_E_INVALID_SCHEMA,
                             "schema %u from the registry: %s%s%s", id, d.path,
                             d.path[0] != '\0' ? ": " : "", d.msg);
    struct cache_key k = {CACHE_SCHEMA, NULL, NULL, id};
    struct cache_hit hit;
    if (!cache_put(&reg->cache, &k, id, 0, text, s, NULL, 0, &hit))
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    out->id = id;
    out->version = 0;
    out->text = hit.text;
    out->schema = hit.schema;
    return AVROGEN_REGISTRY_OK;
}

/* The schema of an answer ({"schema": "...", "schemaType": ..., "references": [...]}). */
static avrogen_registry_status answer_schema(json_t *j, uint32_t id, const char **text,
                                             avrogen_registry_error *err)
{
    json_t *type = json_object_get(j, "schemaType");
    if (type != NULL && (!json_is_string(type) || strcmp(json_string_value(type), "AVRO") != 0))
        return registry_fail(err, AVROGEN_REGISTRY_E_INVALID_SCHEMA,
                             "schema %u is of type %s, not Avro", id,
                             json_is_string(type) ? json_string_value(type) : "?");
    json_t *refs = json_object_get(j, "references");
    if (json_array_size(refs) > 0)
        return registry_fail(err, AVROGEN_REGISTRY_E_INVALID_SCHEMA,
                             "schema %u has references, which this client does not resolve", id);
    json_t *s = json_object_get(j, "schema");
    if (!json_is_string(s))
        return protocol(err, "schema");
    *text = json_string_value(s);
    return AVROGEN_REGISTRY_OK;
}

avrogen_registry_status avrogen_registry_schema_by_id(avrogen_registry *reg, uint32_t id,
                                                      avrogen_registry_schema *out,
                                                      avrogen_registry_error *err)
{
    if (reg == NULL || out == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client or output");
    struct cache_key k = {CACHE_SCHEMA, NULL, NULL, id};
    struct cache_hit hit;
    if (cache_get(&reg->cache, &k, registry_now_ms(), &hit)) {
        if (hit.negative)
            return replay(&hit, err);
        *out = (avrogen_registry_schema){id, 0, hit.text, hit.schema};
        return AVROGEN_REGISTRY_OK;
    }
    char path[64];
    snprintf(path, sizeof path, "/schemas/ids/%u", id);
    json_t *j;
    avrogen_registry_status st = call(reg, "GET", path, NULL, &j, err);
    if (st != AVROGEN_REGISTRY_OK) {
        remember_failure(reg, &k, st, err);
        return st;
    }
    const char *text;
    st = answer_schema(j, id, &text, err);
    if (st == AVROGEN_REGISTRY_OK)
        st = keep_schema(reg, id, text, out, err);
    json_decref(j);
    return st;
}

avrogen_registry_status avrogen_registry_latest(avrogen_registry *reg, const char *subject,
                                                avrogen_registry_schema *out,
                                                avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || out == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject or output");
    struct cache_key k = {CACHE_LATEST, subject, NULL, 0};
    struct cache_hit hit;
    if (cache_get(&reg->cache, &k, registry_now_ms(), &hit)) {
        if (hit.negative)
            return replay(&hit, err);
        avrogen_registry_status st = avrogen_registry_schema_by_id(reg, hit.id, out, err);
        out->version = hit.version;
        return st;
    }
    char *path = subject_path("/subjects/", subject, "/versions/latest");
    json_t *j;
    avrogen_registry_status st = call(reg, "GET", path, NULL, &j, err);
    free(path);
    if (st != AVROGEN_REGISTRY_OK) {
        remember_failure(reg, &k, st, err);
        return st;
    }
    uint32_t id = 0, version = 0;
    const char *text;
    if (!get_u32(j, "id", &id) || !get_u32(j, "version", &version) || version > INT32_MAX) {
        st = protocol(err, "id and version");
        goto out;
    }
    /* The id's schema may be cached already: it never changes under an id. */
    struct cache_key ks = {CACHE_SCHEMA, NULL, NULL, id};
    if (cache_get(&reg->cache, &ks, registry_now_ms(), &hit) && !hit.negative)
        *out = (avrogen_registry_schema){id, 0, hit.text, hit.schema};
    else if ((st = answer_schema(j, id, &text, err)) != AVROGEN_REGISTRY_OK ||
             (st = keep_schema(reg, id, text, out, err)) != AVROGEN_REGISTRY_OK)
        goto out;
    out->version = (int)version;
    int64_t ttl = reg->cfg.latest_ttl_ms;
    if (ttl != 0 && !cache_put(&reg->cache, &k, id, (int)version, NULL, NULL, NULL,
                               ttl < 0 ? 0 : registry_now_ms() + ttl, NULL))
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
out:
    json_decref(j);
    return st;
}

avrogen_registry_status avrogen_registry_check(avrogen_registry *reg, const char *subject,
                                               const char *text, avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || text == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject or schema");
    json_t *j = NULL;
    avrogen_registry_status st = post_schema(
            reg, subject_path("/compatibility/subjects/", subject, "/versions/latest?verbose=true"),
            text, &j, err);
    if (st != AVROGEN_REGISTRY_OK)
        return st;
    json_t *ok = json_object_get(j, "is_compatible");
    if (!json_is_boolean(ok)) {
        st = protocol(err, "is_compatible");
    } else if (!json_is_true(ok)) {
        /* verbose=true: the reasons, where the registry gives them. */
        char msg[sizeof err->message] = "";
        size_t n = 0, i;
        json_t *m;
        json_array_foreach(json_object_get(j, "messages"), i, m)
        {
            if (json_is_string(m) && n < sizeof msg)
                n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s", n > 0 ? "; " : "",
                                      json_string_value(m));
        }
        st = registry_fail(err, AVROGEN_REGISTRY_E_INCOMPATIBLE, "%s",
                           msg[0] != '\0' ? msg
                                          : "the schema is incompatible with the subject's "
                                            "latest version");
        if (err != NULL) {
            err->http_status = 200;
            err->error_code = 0;
        }
    }
    json_decref(j);
    return st;
}

avrogen_registry_status avrogen_registry_subjects(avrogen_registry *reg, char ***list, size_t *n,
                                                  avrogen_registry_error *err)
{
    if (reg == NULL || list == NULL || n == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client or output");
    *list = NULL;
    *n = 0;
    json_t *j;
    avrogen_registry_status st = call(reg, "GET", "/subjects", NULL, &j, err);
    if (st != AVROGEN_REGISTRY_OK)
        return st;
    if (!json_is_array(j)) {
        json_decref(j);
        return protocol(err, "list of subjects");
    }
    size_t k = json_array_size(j);
    char **out = calloc(k + 1, sizeof *out);
    for (size_t i = 0; out != NULL && i < k; i++) {
        json_t *s = json_array_get(j, i);
        if (!json_is_string(s)) {
            avrogen_registry_list_free(out, i);
            json_decref(j);
            return protocol(err, "list of subjects");
        }
        if ((out[i] = strdup(json_string_value(s))) == NULL) {
            avrogen_registry_list_free(out, i);
            out = NULL;
        }
    }
    json_decref(j);
    if (out == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    *list = out;
    *n = k;
    return AVROGEN_REGISTRY_OK;
}

avrogen_registry_status avrogen_registry_versions(avrogen_registry *reg, const char *subject,
                                                  int **versions, size_t *n,
                                                  avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || versions == NULL || n == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject or output");
    *versions = NULL;
    *n = 0;
    char *path = subject_path("/subjects/", subject, "/versions");
    json_t *j;
    avrogen_registry_status st = call(reg, "GET", path, NULL, &j, err);
    free(path);
    if (st != AVROGEN_REGISTRY_OK)
        return st;
    size_t k = json_array_size(j);
    int *out = json_is_array(j) ? calloc(k + 1, sizeof *out) : NULL;
    for (size_t i = 0; out != NULL && i < k; i++) {
        json_t *v = json_array_get(j, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT32_MAX) {
            free(out);
            json_decref(j);
            return protocol(err, "list of versions");
        }
        out[i] = (int)json_integer_value(v);
    }
    bool was_array = json_is_array(j);
    json_decref(j);
    if (!was_array)
        return protocol(err, "list of versions");
    if (out == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    *versions = out;
    *n = k;
    return AVROGEN_REGISTRY_OK;
}

avrogen_registry_status avrogen_registry_id_for(avrogen_registry *reg, const char *subject,
                                                const char *text, uint32_t *id,
                                                avrogen_registry_error *err)
{
    if (reg == NULL || subject == NULL || text == NULL || id == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client, subject, schema or id");
    if (reg->cfg.use_latest) {
        avrogen_registry_schema s;
        avrogen_registry_status st = avrogen_registry_latest(reg, subject, &s, err);
        if (st == AVROGEN_REGISTRY_OK)
            *id = s.id;
        return st;
    }
    if (reg->cfg.auto_register)
        return avrogen_registry_register(reg, subject, text, id, err);
    return avrogen_registry_lookup(reg, subject, text, id, NULL, err);
}
