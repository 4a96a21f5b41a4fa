/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Peer check for the generator's golden schemas: avro-c's schema parser must
 * accept every .avsc given on the command line, read its root as the record
 * the file is named after (<fullname>.avsc), and read the same mapping: the
 * schema avro-c writes back out (avro_schema_to_json) has the Parsing
 * Canonical Form of the file, every field, type and name of it (issue 12: the
 * root's name alone let a wrong field type pass). Exit 0 when all pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avro.h>

#include "avrogen/schema.h"

/* Our Parsing Canonical Form of `len` bytes of schema JSON (malloc'd), or NULL. */
static char *canonical(const char *json, size_t len)
{
    avrogen_schema *s;
    if (avrogen_schema_parse(json, len, NULL, &s, NULL) != AVROGEN_OK)
        return NULL;
    char *out = strdup(avrogen_schema_canonical(s));
    avrogen_schema_free(s);
    return out;
}

/* The schema as avro-c writes it (malloc'd), or NULL. */
static char *avroc_json(avro_schema_t s)
{
    for (size_t cap = 1 << 16; cap <= (1u << 28); cap *= 4) {
        char *buf = malloc(cap);
        if (buf == NULL)
            return NULL;
        avro_writer_t w = avro_writer_memory(buf, (int64_t)cap);
        int rc = avro_schema_to_json(s, w);
        int64_t n = avro_writer_tell(w);
        avro_writer_free(w);
        if (rc == 0 && n >= 0 && (size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        free(buf);
    }
    return NULL;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        size_t n = fread(buf + *len, 1, 4096, f);
        *len += n;
        if (n == 0)
            break;
    }
    fclose(f);
    buf[*len] = '\0';
    return buf;
}

int main(int argc, char **argv)
{
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        size_t len;
        char *text = slurp(argv[i], &len);
        avro_schema_t s = NULL;
        if (!text || avro_schema_from_json_length(text, len, &s) != 0) {
            printf("FAIL %s: %s\n", argv[i], text ? avro_strerror() : "unreadable");
            failures++;
            free(text);
            continue;
        }
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        const char *ns = avro_schema_namespace(s);
        char full[512];
        snprintf(full, sizeof full, "%s%s%s.avsc", ns ? ns : "", ns ? "." : "",
                 avro_schema_name(s));
        char *back = avroc_json(s), *want = canonical(text, len);
        char *got = back != NULL ? canonical(back, strlen(back)) : NULL;
        if (!is_avro_record(s) || strcmp(full, base) != 0) {
            printf("FAIL %s: avro-c reads the root as '%s'\n", argv[i], full);
            failures++;
        } else if (want == NULL || got == NULL || strcmp(want, got) != 0) {
            printf("FAIL %s: avro-c reads another schema:\n  ours   %s\n  avro-c %s\n", argv[i],
                   want != NULL ? want : "(unparsed)", got != NULL ? got : back);
            failures++;
        }
        free(got);
        free(want);
        free(back);
        avro_schema_decref(s);
        free(text);
    }
    printf("avro-c parsed %d schemas, %d failed\n", argc - 1, failures);
    return failures ? 1 : 0;
}
