/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A growable text buffer for the emitters. Appends never fail loudly: running
 * out of memory sets `failed`, later appends do nothing, and textbuf_take()
 * returns NULL, so emitters check once at the end (the runtime's sticky-error
 * idea). The text is always NUL-terminated once anything was appended.
 */
#ifndef AVROGEN_GEN_TEXTBUF_H
#define AVROGEN_GEN_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "avrogen/status.h"

struct textbuf {
    char *data;  /* NUL-terminated text, or NULL while empty */
    size_t len;  /* bytes of text, excluding the NUL */
    size_t cap;  /* bytes allocated */
    bool failed; /* an allocation failed; contents are incomplete */
};

#define TEXTBUF_INIT      \
    {                     \
        NULL, 0, 0, false \
    }

void textbuf_append(struct textbuf *b, const char *s, size_t n);
void textbuf_puts(struct textbuf *b, const char *s);
void textbuf_putc(struct textbuf *b, char c);
void textbuf_printf(struct textbuf *b, const char *fmt, ...) AVROGEN_PRINTF(2, 3);

/* Hand over the malloc'd text (an empty string if nothing was appended) and its
 * length, leaving b empty; NULL if any append failed (b is freed either way). */
char *textbuf_take(struct textbuf *b, size_t *len);

void textbuf_free(struct textbuf *b);

#endif /* AVROGEN_GEN_TEXTBUF_H */
