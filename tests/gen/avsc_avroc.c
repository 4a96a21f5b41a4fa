/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Peer check for the generator's golden schemas: avro-c's schema parser must
 * accept every .avsc given on the command line and read its root as the record
 * the file is named after (<fullname>.avsc). Exit 0 when all pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avro.h>

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
        if (!is_avro_record(s) || strcmp(full, base) != 0) {
            printf("FAIL %s: avro-c reads the root as '%s'\n", argv[i], full);
            failures++;
        }
        avro_schema_decref(s);
        free(text);
    }
    printf("avro-c parsed %d schemas, %d failed\n", argc - 1, failures);
    return failures ? 1 : 0;
}
