/* SPDX-License-Identifier: Apache-2.0 */
/* A growable, sticky-failure text buffer for the emitters (textbuf.h). */
#include "textbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(struct textbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (n <= SIZE_MAX - b->len - 1 && b->len + n + 1 <= b->cap)
        return true;
    if (n > SIZE_MAX / 2 - b->len - 1) {
        b->failed = true;
        return false;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void textbuf_append(struct textbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void textbuf_puts(struct textbuf *b, const char *s)
{
    textbuf_append(b, s, strlen(s));
}

void textbuf_putc(struct textbuf *b, char c)
{
    textbuf_append(b, &c, 1);
}

void textbuf_printf(struct textbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *textbuf_take(struct textbuf *b, size_t *len)
{
    if (!b->failed && !b->data)
        reserve(b, 0);
    if (b->failed) {
        textbuf_free(b);
        return NULL;
    }
    char *p = b->data;
    b->data[b->len] = '\0';
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void textbuf_free(struct textbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}
