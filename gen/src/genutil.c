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
