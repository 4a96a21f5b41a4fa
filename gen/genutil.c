/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation helpers of the generator: exit(2) on out of memory (genutil.h). */
#include "genutil.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("avrogen: error: out of memory\n", stderr);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        out_of_memory();
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

char *path_join(const char *dir, const char *name)
{
    if (!dir || !*dir)
        return xstrdup(name);
    size_t n = strlen(dir);
    return xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

void *xappend(void *v, size_t n, size_t size)
{
    /* Capacity is the next power of two >= n: grow exactly when n is 0 or one. */
    if (n == 0 || (n & (n - 1)) == 0) {
        if (n > SIZE_MAX / 2 / size)
            out_of_memory();
        v = xrealloc(v, (n ? 2 * n : 1) * size);
    }
    memset((char *)v + n * size, 0, size);
    return v;
}

bool strings_equal(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

static size_t ptr_slot(const void *a, const void *b, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)a * UINT64_C(0x9e3779b97f4a7c15);
    h ^= (uint64_t)(uintptr_t)b * UINT64_C(0xc2b2ae3d27d4eb4f);
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void ptrmap_grow(struct ptrmap *m)
{
    size_t cap = m->cap != 0 ? m->cap * 2 : 64;
    struct ptrmap_key *keys = xcalloc(cap, sizeof *keys);
    size_t *values = xcalloc(cap, sizeof *values);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i].a == NULL)
            continue;
        size_t j = ptr_slot(m->keys[i].a, m->keys[i].b, cap);
        while (keys[j].a != NULL)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = cap;
}

void ptrmap_put2(struct ptrmap *m, const void *a, const void *b, size_t value)
{
    if (m->count + 1 > m->cap / 2)
        ptrmap_grow(m);
    size_t j = ptr_slot(a, b, m->cap);
    while (m->keys[j].a != NULL && (m->keys[j].a != a || m->keys[j].b != b))
        j = (j + 1) & (m->cap - 1);
    if (m->keys[j].a == NULL) {
        m->keys[j].a = a;
        m->keys[j].b = b;
        m->count++;
    }
    m->values[j] = value;
}

bool ptrmap_get2(const struct ptrmap *m, const void *a, const void *b, size_t *value)
{
    if (m->cap == 0)
        return false;
    for (size_t j = ptr_slot(a, b, m->cap); m->keys[j].a != NULL; j = (j + 1) & (m->cap - 1)) {
        if (m->keys[j].a == a && m->keys[j].b == b) {
            *value = m->values[j];
            return true;
        }
    }
    return false;
}

void ptrmap_put(struct ptrmap *m, const void *key, size_t value)
{
    ptrmap_put2(m, key, NULL, value);
}

bool ptrmap_get(const struct ptrmap *m, const void *key, size_t *value)
{
    return ptrmap_get2(m, key, NULL, value);
}

void ptrmap_clear(struct ptrmap *m)
{
    if (m->cap != 0)
        memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->count = 0;
}

void ptrmap_free(struct ptrmap *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->count = 0;
}

/* Edit distance with adjacent transpositions (optimal string alignment),
 * or `cap` + 1 once it is certain to exceed `cap`. */
size_t edit_distance(const char *a, const char *b, size_t cap)
{
    size_t na = strlen(a), nb = strlen(b);
    if ((na > nb ? na - nb : nb - na) > cap || na > 63 || nb > 63)
        return cap + 1;
    size_t d[64][64];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[na][nb];
}

static size_t str_slot(const char *s, size_t n, size_t cap)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
    return (size_t)(h ^ (h >> 32)) & (cap - 1);
}

static bool key_is(const char *key, const char *s, size_t n)
{
    return strncmp(key, s, n) == 0 && key[n] == '\0';
}

static void strmap_grow(struct strmap *m)
{
    size_t cap = m->cap != 0 ? m->cap * 2 : 64;
    const char **keys = xcalloc(cap, sizeof *keys);
    size_t *values = xcalloc(cap, sizeof *values);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == NULL)
            continue;
        size_t j = str_slot(m->keys[i], strlen(m->keys[i]), cap);
        while (keys[j] != NULL)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = cap;
}

/* The slot holding key, or the free slot where it goes. */
static size_t strmap_find(const struct strmap *m, const char *key, size_t n)
{
    size_t j = str_slot(key, n, m->cap);
    while (m->keys[j] != NULL && !key_is(m->keys[j], key, n))
        j = (j + 1) & (m->cap - 1);
    return j;
}

bool strmap_add(struct strmap *m, const char *key, size_t value, size_t *first)
{
    if (m->count + 1 > m->cap / 2)
        strmap_grow(m);
    size_t j = strmap_find(m, key, strlen(key));
    if (m->keys[j] != NULL) {
        if (first)
            *first = m->values[j];
        return false;
    }
    m->keys[j] = key;
    m->values[j] = value;
    m->count++;
    return true;
}

void strmap_put(struct strmap *m, const char *key, size_t value)
{
    if (!strmap_add(m, key, value, NULL))
        m->values[strmap_find(m, key, strlen(key))] = value;
}

bool strmap_getn(const struct strmap *m, const char *key, size_t n, size_t *value)
{
    if (m->cap == 0)
        return false;
    size_t j = strmap_find(m, key, n);
    if (m->keys[j] == NULL)
        return false;
    if (value)
        *value = m->values[j];
    return true;
}

bool strmap_get(const struct strmap *m, const char *key, size_t *value)
{
    return strmap_getn(m, key, strlen(key), value);
}

void strmap_free(struct strmap *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->count = 0;
}
