/* SPDX-License-Identifier: Apache-2.0 */
/* Shared test helpers; see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *test_alloc_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    test_alloc *ta = ctx;
    if (new_size == 0) {
        if (ptr != NULL) {
            ta->live--;
            ta->live_bytes -= old_size;
        }
        free(ptr);
        return NULL;
    }
    ta->calls++;
    if (ta->fail_at != 0 && ta->calls == ta->fail_at)
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p != NULL) {
        if (ptr == NULL)
            ta->live++;
        ta->live_bytes += new_size - old_size;
    }
    return p;
}

void test_alloc_init(test_alloc *ta, long fail_at)
{
    ta->base.fn = test_alloc_fn;
    ta->base.ctx = ta;
    ta->calls = 0;
    ta->fail_at = fail_at;
    ta->live = 0;
    ta->live_bytes = 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t test_unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    int hi = -1;
    for (; *hex != '\0'; hex++) {
        int v = hexval(*hex);
        if (v < 0) {
            if ((*hex != ' ' && *hex != '\n' && *hex != '\t') || hi >= 0)
                abort(); /* not hex, or a space inside a byte */
            continue;
        }
        if (hi < 0) {
            hi = v;
        } else {
            if (n == cap)
                abort();
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    if (hi >= 0)
        abort(); /* an odd number of digits */
    return n;
}

char *test_fanout_schema(unsigned n, const char *leaf_fields)
{
    /* T_i = {"type":"record","name":"Ti","fields":[{"name":"a","type":T_(i-1)},
     *        {"name":"b","type":"T(i-1)"}]}, built from the inside out. */
    size_t cap = 256 + strlen(leaf_fields) + (size_t)n * 128;
    char *s = malloc(cap), *t = malloc(cap);
    if (s == NULL || t == NULL)
        abort();
    snprintf(s, cap, "{\"type\":\"record\",\"name\":\"T0\",\"fields\":[%s]}", leaf_fields);
    for (unsigned i = 1; i <= n; i++) {
        snprintf(t, cap,
                 "{\"type\":\"record\",\"name\":\"T%u\",\"fields\":[{\"name\":\"a\",\"type\":%s},"
                 "{\"name\":\"b\",\"type\":\"T%u\"}]}",
                 i, s, i - 1);
        char *swap = s;
        s = t;
        t = swap;
    }
    free(t);
    return s;
}
