/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry client's HTTP layer over libcurl: one request tried on each
 * configured URL in turn, passes over them repeated with exponential back-off
 * after connection errors and 5xx answers, all within request.timeout.ms; and
 * what an answer means (the registry's error bodies). One easy handle per
 * request, so threads share nothing here; the cache keeps steady-state calls
 * away from this file altogether.
 */
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>
#include <time.h>

#include "registry_internal.h"

/* An answer body larger than this is no registry's: schemas are limited to a few MiB. */
#define MAX_BODY ((size_t)64 << 20)

#define CONTENT_TYPE "application/vnd.schemaregistry.v1+json"

static avrogen_registry_status status_for(long http, long code)
{
    if (http == 401 || http == 403)
        return AVROGEN_REGISTRY_E_UNAUTHORIZED;
    if (http == 404)
        return AVROGEN_REGISTRY_E_NOT_FOUND;
    if (http == 409)
        return AVROGEN_REGISTRY_E_INCOMPATIBLE;
    if (http == 422)
        /* 42201 invalid schema; 42202 invalid version, 42203 invalid compatibility level. */
        return code == 42202 || code == 42203 ? AVROGEN_REGISTRY_E_ARG
                                              : AVROGEN_REGISTRY_E_INVALID_SCHEMA;
    if (http >= 500 && http <= 599)
        return AVROGEN_REGISTRY_E_SERVER;
    return AVROGEN_REGISTRY_E_PROTOCOL;
}

avrogen_registry_status registry_answer_status(long http_status, const char *body, size_t len,
                                               avrogen_registry_error *err)
{
    if (http_status >= 200 && http_status <= 299)
        return AVROGEN_REGISTRY_OK;
    long code = 0;
    char msg[sizeof err->message] = "";
    json_t *j = body != NULL && len > 0 ? json_loadb(body, len, 0, NULL) : NULL;
    if (json_is_object(j)) {
        json_t *c = json_object_get(j, "error_code");
        json_t *m = json_object_get(j, "message");
        if (json_is_integer(c))
            code = (long)json_integer_value(c);
        if (json_is_string(m))
            snprintf(msg, sizeof msg, "%s", json_string_value(m));
    }
    json_decref(j);
    if (msg[0] == '\0' && body != NULL && len > 0) {
        /* nginx's or a proxy's HTML page: its first line is a hint, the rest noise. */
        size_t n = strcspn(body, "\r\n");
        snprintf(msg, sizeof msg, "HTTP %ld: %.*s", http_status, (int)(n < 200 ? n : 200), body);
    } else if (msg[0] == '\0') {
        snprintf(msg, sizeof msg, "HTTP %ld", http_status);
    }
    /* The error code decides where the HTTP status is ambiguous (Confluent: 40401 subject,
     * 40402 version, 40403 schema; 409 incompatible; 42201 invalid schema; 5xxxx server). */
    long http = code >= 10000 ? code / 100 : http_status;
    if (http < 400 || http > 599)
        http = http_status;
    avrogen_registry_status st = status_for(http, code);
    if (err != NULL) {
        registry_fail(err, st, "%s", msg);
        err->http_status = http_status;
        err->error_code = code;
    }
    return st;
}

bool registry_is_retryable(avrogen_registry_status s, long http_status)
{
    return s == AVROGEN_REGISTRY_E_CONNECT || s == AVROGEN_REGISTRY_E_SERVER ||
           http_status == 408 || http_status == 429;
}

long registry_backoff_ms(long pass, long wait_ms, long max_wait_ms, long left_ms)
{
    long w = wait_ms;
    for (long i = 1; i < pass && w < max_wait_ms; i++)
        w = w > max_wait_ms / 2 ? max_wait_ms : 2 * w;
    if (w > max_wait_ms)
        w = max_wait_ms;
    if (w > left_ms)
        w = left_ms;
    return w < 0 ? 0 : w;
}

struct body {
    char *buf;
    size_t len, cap;
};

static size_t on_data(char *data, size_t size, size_t n, void *ctx)
{
    struct body *b = ctx;
    size_t add = size * n;
    if (add > MAX_BODY - b->len)
        return 0; /* curl stops with CURLE_WRITE_ERROR */
    if (b->len + add + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 4096 : b->cap;
        while (cap < b->len + add + 1)
            cap *= 2;
        char *p = realloc(b->buf, cap);
        if (p == NULL)
            return 0;
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, data, add);
    b->len += add;
    b->buf[b->len] = '\0';
    return add;
}

/* Failures of the TLS set-up do not go away on retry. */
static bool curl_is_final(CURLcode rc)
{
    return rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ||
           rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_CIPHER || rc == CURLE_SSL_CRL_BADFILE ||
           rc == CURLE_SSL_ISSUER_ERROR || rc == CURLE_UNSUPPORTED_PROTOCOL ||
           rc == CURLE_URL_MALFORMAT || rc == CURLE_WRITE_ERROR || rc == CURLE_OUT_OF_MEMORY;
}

/* One request to one URL. OK with the 2xx reply, or the failure in err. */
static avrogen_registry_status attempt(avrogen_registry *reg, const char *url, const char *method,
                                       const char *body, long left_ms, struct registry_reply *out,
                                       bool *final, avrogen_registry_error *err)
{
    const avrogen_registry_config *cfg = &reg->cfg;
    CURL *h = curl_easy_init();
    if (h == NULL)
        return registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "libcurl: out of memory");
    struct curl_slist *headers = NULL, *more;
    char auth[4096] = "";
    char curl_err[CURL_ERROR_SIZE] = "";
    struct body b = {0};
    avrogen_registry_status st = AVROGEN_REGISTRY_E_NOMEM;

    headers = curl_slist_append(NULL, "Accept: " CONTENT_TYPE ", application/json");
    if (headers == NULL)
        goto out;
    if (body != NULL) {
        if ((more = curl_slist_append(headers, "Content-Type: " CONTENT_TYPE)) == NULL)
            goto out;
        headers = more;
    }
    if (cfg->bearer_token != NULL) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", cfg->bearer_token);
        if ((more = curl_slist_append(headers, auth)) == NULL)
            goto out;
        headers = more;
    }
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM in a threaded caller */
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, left_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, left_ms);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, curl_err);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "avrogen-registry");
    if (body != NULL) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    }
    if (strcmp(method, "POST") != 0 && strcmp(method, "GET") != 0)
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    if (cfg->user_info != NULL && !cfg->auth_from_url) {
        curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl_easy_setopt(h, CURLOPT_USERPWD, cfg->user_info);
    }
    if (cfg->ca_location != NULL)
        curl_easy_setopt(h, CURLOPT_CAINFO, cfg->ca_location);
    if (cfg->cert_location != NULL)
        curl_easy_setopt(h, CURLOPT_SSLCERT, cfg->cert_location);
    if (cfg->key_location != NULL)
        curl_easy_setopt(h, CURLOPT_SSLKEY, cfg->key_location);
    if (cfg->key_password != NULL)
        curl_easy_setopt(h, CURLOPT_KEYPASSWD, cfg->key_password);

    pthread_mutex_lock(&reg->cache.mu);
    reg->requests++;
    pthread_mutex_unlock(&reg->cache.mu);
    CURLcode rc = curl_easy_perform(h);
    if (err != NULL) {
        snprintf(err->url, sizeof err->url, "%.*s", (int)sizeof err->url - 1, url);
        err->http_status = 0;
        err->error_code = 0;
    }
    if (rc != CURLE_OK) {
        *final = curl_is_final(rc);
        st = registry_fail(err, AVROGEN_REGISTRY_E_CONNECT, "%s: %s", url,
                           curl_err[0] != '\0' ? curl_err : curl_easy_strerror(rc));
        goto out;
    }
    long http = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &http);
    st = registry_answer_status(http, b.buf, b.len, err);
    if (st != AVROGEN_REGISTRY_OK)
        goto out;
    out->http_status = http;
    out->body = b.buf != NULL ? b.buf : strdup("");
    out->len = b.len;
    b.buf = NULL;
    if (out->body == NULL)
        st = registry_fail(err, AVROGEN_REGISTRY_E_NOMEM, "out of memory");

out:
    free(b.buf);
    curl_slist_free_all(headers);
    curl_easy_cleanup(h);
    return st;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

avrogen_registry_status registry_http(avrogen_registry *reg, const char *method, const char *path,
                                      const char *body, struct registry_reply *out,
                                      avrogen_registry_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t deadline = registry_now_ms() + reg->cfg.timeout_ms;
    avrogen_registry_status st = AVROGEN_REGISTRY_E_CONNECT;
    avrogen_registry_error last = {0};
    long passes = 0;
    for (long pass = 0; pass <= reg->cfg.max_retries; pass++) {
        if (pass > 0) {
            long left = (long)(deadline - registry_now_ms());
            long wait = registry_backoff_ms(pass, reg->cfg.wait_ms, reg->cfg.max_wait_ms, left);
            if (left <= 0 || wait >= left)
                break; /* no time left for another try after the wait */
            sleep_ms(wait);
        }
        passes++;
        for (size_t i = 0; i < reg->n_urls; i++) {
            long left = (long)(deadline - registry_now_ms());
            if (left <= 0)
                goto out_timeout;
            char url[4096];
            if (snprintf(url, sizeof url, "%s%s", reg->urls[i], path) >= (int)sizeof url)
                return registry_fail(err, AVROGEN_REGISTRY_E_ARG, "URL too long: %s%s",
                                     reg->urls[i], path);
            bool final = false;
            st = attempt(reg, url, method, body, left, out, &final, &last);
            if (st == AVROGEN_REGISTRY_OK)
                return st;
            if (final || !registry_is_retryable(st, last.http_status))
                goto out_fail;
        }
    }
out_timeout:
    if (st == AVROGEN_REGISTRY_E_CONNECT && last.message[0] != '\0') {
        size_t n = strlen(last.message);
        snprintf(last.message + n, sizeof last.message - n,
                 " (%ld pass%s over %zu URL%s in %ld ms)", passes, passes == 1 ? "" : "es",
                 reg->n_urls, reg->n_urls == 1 ? "" : "s",
                 (long)(registry_now_ms() - (deadline - reg->cfg.timeout_ms)));
    } else if (last.message[0] == '\0') {
        registry_fail(&last, AVROGEN_REGISTRY_E_CONNECT, "%s%s: no time left to try it",
                      reg->urls[0], path);
        st = AVROGEN_REGISTRY_E_CONNECT;
    }
out_fail:
    if (err != NULL)
        *err = last;
    return st;
}
