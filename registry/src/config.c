/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry client's configuration: the keys Confluent's clients read,
 * set one at a time or from a librdkafka-style properties file, the URL list,
 * and the subject name strategies. No I/O but reading the properties file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avrogen/ocf.h>
#include <ctype.h>
#include <sys/stat.h>

#include "registry_internal.h"

static const char *const status_text[] = {
#define AVROGEN_REGISTRY_STATUS_TEXT(name, text) text,
        AVROGEN_REGISTRY_STATUS_LIST(AVROGEN_REGISTRY_STATUS_TEXT)
#undef AVROGEN_REGISTRY_STATUS_TEXT
};

const char *avrogen_registry_status_str(avrogen_registry_status s)
{
    if ((size_t)s >= sizeof status_text / sizeof *status_text)
        return "unknown registry status";
    return status_text[s];
}

avrogen_registry_status registry_fail(avrogen_registry_error *err, avrogen_registry_status s,
                                      const char *fmt, ...)
{
    if (err == NULL)
        return s;
    err->status = s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return s;
}

static const avrogen_registry_config defaults = {
        .timeout_ms = 10000,
        .max_retries = 3,
        .wait_ms = 1000,
        .max_wait_ms = 20000,
        .auto_register = true,
        .use_latest = false,
        .latest_ttl_ms = -1,
        .key_strategy = STRATEGY_TOPIC,
        .value_strategy = STRATEGY_TOPIC,
        .capacity = 1000,
        .negative_ttl_ms = 5000,
};

avrogen_registry_status avrogen_registry_config_new(avrogen_registry_config **out)
{
    *out = malloc(sizeof **out);
    if (*out == NULL)
        return AVROGEN_REGISTRY_E_NOMEM;
    **out = defaults;
    return AVROGEN_REGISTRY_OK;
}

void registry_config_clear(avrogen_registry_config *cfg)
{
    char **strings[] = {&cfg->url,         &cfg->user_info,     &cfg->bearer_token,
                        &cfg->ca_location, &cfg->cert_location, &cfg->key_location,
                        &cfg->key_password};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
        free(*strings[i]);
        *strings[i] = NULL;
    }
}

void avrogen_registry_config_free(avrogen_registry_config *cfg)
{
    if (cfg == NULL)
        return;
    registry_config_clear(cfg);
    free(cfg);
}

static bool dup_into(char **dst, const char *src)
{
    *dst = NULL;
    return src == NULL || (*dst = strdup(src)) != NULL;
}

bool registry_config_copy(avrogen_registry_config *dst, const avrogen_registry_config *src)
{
    *dst = *src;
    bool ok = dup_into(&dst->url, src->url) & dup_into(&dst->user_info, src->user_info) &
              dup_into(&dst->bearer_token, src->bearer_token) &
              dup_into(&dst->ca_location, src->ca_location) &
              dup_into(&dst->cert_location, src->cert_location) &
              dup_into(&dst->key_location, src->key_location) &
              dup_into(&dst->key_password, src->key_password);
    if (!ok)
        registry_config_clear(dst);
    return ok;
}

static avrogen_registry_status set_string(char **slot, const char *value,
                                          avrogen_registry_error *err)
{
    char *copy = strdup(value);
    if (copy == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    free(*slot);
    *slot = copy;
    return AVROGEN_REGISTRY_OK;
}

static avrogen_registry_status set_long(long *slot, const char *key, const char *value, long min,
                                        avrogen_registry_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || v < min)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                             "%s: '%s' is not a whole number of at least %ld", key, value, min);
    *slot = v;
    return AVROGEN_REGISTRY_OK;
}

static avrogen_registry_status set_bool(bool *slot, const char *key, const char *value,
                                        avrogen_registry_error *err)
{
    if (strcmp(value, "true") == 0)
        *slot = true;
    else if (strcmp(value, "false") == 0)
        *slot = false;
    else
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "%s: '%s' is not true or false", key,
                             value);
    return AVROGEN_REGISTRY_OK;
}

static avrogen_registry_status set_strategy(enum registry_strategy *slot, const char *key,
                                            const char *value, avrogen_registry_error *err)
{
    /* Java clients name a class: io.confluent.kafka.serializers.subject.TopicNameStrategy. */
    const char *dot = strrchr(value, '.');
    const char *name = dot != NULL ? dot + 1 : value;
    if (strcmp(name, "TopicNameStrategy") == 0)
        *slot = STRATEGY_TOPIC;
    else if (strcmp(name, "RecordNameStrategy") == 0)
        *slot = STRATEGY_RECORD;
    else if (strcmp(name, "TopicRecordNameStrategy") == 0)
        *slot = STRATEGY_TOPIC_RECORD;
    else
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                             "%s: '%s' is not TopicNameStrategy, RecordNameStrategy or "
                             "TopicRecordNameStrategy",
                             key, value);
    return AVROGEN_REGISTRY_OK;
}

avrogen_registry_status avrogen_registry_config_set(avrogen_registry_config *cfg, const char *key,
                                                    const char *value, avrogen_registry_error *err)
{
    if (cfg == NULL || key == NULL || value == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no configuration, key or value");
    const char *k = key;
    if (strcmp(k, "schema.registry.url") == 0)
        return set_string(&cfg->url, value, err);
    if (strncmp(k, "schema.registry.", 16) == 0)
        k += 16;
    if (strcmp(k, "basic.auth.user.info") == 0)
        return set_string(&cfg->user_info, value, err);
    if (strcmp(k, "basic.auth.credentials.source") == 0) {
        if (strcmp(value, "USER_INFO") != 0 && strcmp(value, "URL") != 0)
            return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "%s: '%s' is not USER_INFO or URL",
                                 key, value);
        cfg->auth_from_url = strcmp(value, "URL") == 0;
        return AVROGEN_REGISTRY_OK;
    }
    if (strcmp(k, "bearer.auth.token") == 0)
        return set_string(&cfg->bearer_token, value, err);
    if (strcmp(k, "bearer.auth.credentials.source") == 0) {
        if (strcmp(value, "STATIC_TOKEN") != 0)
            return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                                 "%s: '%s' is not STATIC_TOKEN, the only source supported", key,
                                 value);
        return AVROGEN_REGISTRY_OK;
    }
    if (strcmp(k, "ssl.ca.location") == 0)
        return set_string(&cfg->ca_location, value, err);
    if (strcmp(k, "ssl.certificate.location") == 0)
        return set_string(&cfg->cert_location, value, err);
    if (strcmp(k, "ssl.key.location") == 0)
        return set_string(&cfg->key_location, value, err);
    if (strcmp(k, "ssl.key.password") == 0)
        return set_string(&cfg->key_password, value, err);
    if (strcmp(k, "request.timeout.ms") == 0)
        return set_long(&cfg->timeout_ms, key, value, 1, err);
    if (strcmp(k, "max.retries") == 0)
        return set_long(&cfg->max_retries, key, value, 0, err);
    if (strcmp(k, "retries.wait.ms") == 0)
        return set_long(&cfg->wait_ms, key, value, 0, err);
    if (strcmp(k, "retries.max.wait.ms") == 0)
        return set_long(&cfg->max_wait_ms, key, value, 0, err);
    if (strcmp(k, "auto.register.schemas") == 0)
        return set_bool(&cfg->auto_register, key, value, err);
    if (strcmp(k, "use.latest.version") == 0)
        return set_bool(&cfg->use_latest, key, value, err);
    if (strcmp(k, "latest.cache.ttl.ms") == 0)
        return set_long(&cfg->latest_ttl_ms, key, value, -1, err);
    if (strcmp(k, "key.subject.name.strategy") == 0)
        return set_strategy(&cfg->key_strategy, key, value, err);
    if (strcmp(k, "value.subject.name.strategy") == 0)
        return set_strategy(&cfg->value_strategy, key, value, err);
    if (strcmp(k, "cache.capacity") == 0)
        return set_long(&cfg->capacity, key, value, 1, err);
    if (strcmp(k, "cache.negative.ttl.ms") == 0)
        return set_long(&cfg->negative_ttl_ms, key, value, 0, err);
    return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "unknown key '%s'", key);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The longest properties file read: the limit the CLI puts on every file it reads whole
 * (a schema, a response file), a container file's default header limit. */
#define CONFIG_MAX ((size_t)AVROGEN_OCF_DEFAULT_MAX_HEADER)

/* All of f, to CONFIG_MAX bytes, NUL-terminated (malloc'd); NULL with errno (EFBIG: longer). */
static char *read_bounded(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (n == cap - 1) {
            if (n > CONFIG_MAX) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                errno = EIO;
                return NULL;
            }
            if (n > CONFIG_MAX) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            buf[n] = '\0';
            *len = n;
            return buf;
        }
    }
    free(buf);
    errno = ENOMEM;
    return NULL;
}

avrogen_registry_status avrogen_registry_config_load(avrogen_registry_config *cfg, const char *path,
                                                     avrogen_registry_error *err)
{
    /* Only a regular file or a pipe, and no more than CONFIG_MAX of it: never a device such
     * as /dev/zero, whose one endless line getline() grew without bound. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                             "%s: a properties file is read from a regular file or a pipe, and "
                             "this is not one",
                             path);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "%s: %s", path, strerror(errno));
    size_t len = 0;
    char *text = read_bounded(f, &len);
    int read_err = errno;
    fclose(f);
    if (text == NULL && read_err == ENOMEM)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    if (text == NULL && read_err == EFBIG)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                             "%s: longer than %zu bytes, the most a properties file may hold", path,
                             CONFIG_MAX);
    if (text == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "%s: read error", path);
    avrogen_registry_status status = AVROGEN_REGISTRY_OK;
    long lineno = 0;
    for (char *line = text, *next; status == AVROGEN_REGISTRY_OK && line < text + len;
         line = next) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        next = nl != NULL ? nl + 1 : text + len;
        if (nl != NULL)
            *nl = '\0';
        lineno++;
        char *s = trim(line);
        if (*s == '\0' || *s == '#' || *s == '!')
            continue;
        char *eq = strchr(s, '=');
        if (eq == NULL) {
            status = registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "%s:%ld: no '=' in '%s'", path,
                                   lineno, s);
            break;
        }
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        avrogen_registry_error e;
        status = avrogen_registry_config_set(cfg, key, value, &e);
        if (status == AVROGEN_REGISTRY_E_CONFIG && strncmp(key, "schema.registry.", 16) != 0 &&
            strncmp(e.message, "unknown key", 11) == 0)
            status = AVROGEN_REGISTRY_OK; /* Kafka's own settings share the file */
        else if (status != AVROGEN_REGISTRY_OK)
            registry_fail(err, status, "%s:%ld: %s", path, lineno, e.message);
    }
    free(text);
    return status;
}

avrogen_registry_status registry_split_urls(const char *list, char ***urls, size_t *n,
                                            avrogen_registry_error *err)
{
    *urls = NULL;
    *n = 0;
    if (list == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "schema.registry.url is not set");
    char *copy = strdup(list);
    size_t max = 1;
    for (const char *p = list; *p != '\0'; p++)
        max += *p == ',';
    char **out = calloc(max, sizeof *out);
    if (copy == NULL || out == NULL) {
        free(copy);
        free(out);
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
    }
    avrogen_registry_status st = AVROGEN_REGISTRY_OK;
    size_t k = 0;
    char *save = NULL;
    for (char *item = copy;; item = NULL) {
        char *tok = strtok_r(item, ",", &save);
        if (tok == NULL)
            break;
        char *u = trim(tok);
        size_t len = strlen(u);
        while (len > 0 && u[len - 1] == '/')
            u[--len] = '\0';
        if (len == 0)
            continue;
        if ((strncmp(u, "http://", 7) != 0 || len == 7) &&
            (strncmp(u, "https://", 8) != 0 || len == 8)) {
            st = registry_fail(err, AVROGEN_REGISTRY_E_CONFIG,
                               "schema.registry.url: '%s' is not an http:// or https:// URL", u);
            goto out_free;
        }
        if ((out[k] = strdup(u)) == NULL) {
            st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");
            goto out_free;
        }
        k++;
    }
    if (k == 0) {
        st = registry_fail(err, AVROGEN_REGISTRY_E_CONFIG, "schema.registry.url names no URL");
        goto out_free;
    }
    free(copy);
    *urls = out;
    *n = k;
    return AVROGEN_REGISTRY_OK;

out_free:
    avrogen_registry_list_free(out, k);
    free(copy);
    return st;
}

char *registry_url_encode(const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(s);
    char *out = malloc(3 * len + 1);
    if (out == NULL)
        return NULL;
    char *o = out;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (isalnum(*p) || *p == '-' || *p == '.' || *p == '_' || *p == '~') {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    *o = '\0';
    return out;
}

void avrogen_registry_list_free(char **list, size_t n)
{
    if (list == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

avrogen_registry_status avrogen_registry_subject_name(const avrogen_registry *reg,
                                                      const char *topic, bool is_key,
                                                      const avrogen_schema *schema, char *buf,
                                                      size_t size, avrogen_registry_error *err)
{
    if (reg == NULL || buf == NULL || size == 0)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no client or buffer");
    enum registry_strategy s = is_key ? reg->cfg.key_strategy : reg->cfg.value_strategy;
    const char *fullname = NULL;
    if (s != STRATEGY_TOPIC) {
        const avrogen_node *root = schema != NULL ? avrogen_schema_root(schema) : NULL;
        if (root == NULL || root->kind != AVROGEN_KIND_RECORD)
            return registry_fail(err, AVROGEN_REGISTRY_E_ARG,
                                 "%s: the subject name strategy needs a record schema",
                                 s == STRATEGY_RECORD ? "RecordNameStrategy"
                                                      : "TopicRecordNameStrategy");
        fullname = root->fullname;
    }
    if (s != STRATEGY_RECORD && topic == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "no topic");
    int n;
    if (s == STRATEGY_TOPIC)
        n = snprintf(buf, size, "%s-%s", topic, is_key ? "key" : "value");
    else if (s == STRATEGY_RECORD)
        n = snprintf(buf, size, "%s", fullname);
    else
        n = snprintf(buf, size, "%s-%s", topic, fullname);
    if (n < 0 || (size_t)n >= size)
        return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "the subject name needs %d bytes", n + 1);
    return AVROGEN_REGISTRY_OK;
}
