/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-line halves of the writer and reader in gencode.h: buffer growth,
 * varints near the end of a buffer and error recording. The inline fast paths
 * stay in the header; everything cold lives here (UTF-8 validation in utf8.c,
 * bulk varints in varint.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/gencode.h"

#define WRITER_MIN_CAP 256u

/* Everything but err_text, which holds nothing until err_msg points at it
 * (clearing its bytes would cost every datum that inits a writer). */
static void writer_clear(avrogen_writer *w)
{
    w->p = w->end = w->start = NULL;
    w->err = AVROGEN_OK;
    w->err_offset = 0;
    memset(&w->alloc, 0, sizeof w->alloc);
    w->growable = false;
    w->err_msg = NULL;
    w->depth = 0;
    w->max_depth = AVROGEN_DEFAULT_MAX_DEPTH;
    w->err_text[0] = '\0';
}

void avrogen_writer_init_fixed(avrogen_writer *w, void *buf, size_t cap)
{
    writer_clear(w);
    w->start = w->p = w->end = (uint8_t *)buf;
    if (buf != NULL)
        w->end += cap;
}

void avrogen_writer_init_growable(avrogen_writer *w, const avrogen_alloc *alloc)
{
    writer_clear(w);
    w->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    w->growable = true;
}

void avrogen_writer_fini(avrogen_writer *w)
{
    if (w->growable)
        avrogen_free(&w->alloc, w->start, (size_t)(w->end - w->start));
    w->start = w->p = w->end = NULL;
}

void avrogen_writer_reset(avrogen_writer *w)
{
    w->p = w->start;
    w->err = AVROGEN_OK;
    w->err_offset = 0;
    w->err_msg = NULL;
    w->depth = 0;
}

avrogen_status avrogen_writer_fail_msg(avrogen_writer *w, avrogen_status s, const char *msg)
{
    if (w->err == AVROGEN_OK && s != AVROGEN_OK) {
        w->err = s;
        w->err_offset = avrogen_writer_len(w);
        w->err_msg = msg;
        /* Nothing fits any more, so every later primitive is a no-op. */
        w->end = w->p;
    }
    return w->err;
}

avrogen_status avrogen_writer_fail_tag(avrogen_writer *w, const char *member, int64_t tag,
                                       bool tag_unsigned)
{
    if (w->err != AVROGEN_OK)
        return w->err;
    if (tag_unsigned)
        snprintf(w->err_text, sizeof w->err_text,
                 "%s: tag value %" PRIu64 " selects no union member", member, (uint64_t)tag);
    else
        snprintf(w->err_text, sizeof w->err_text,
                 "%s: tag value %" PRId64 " selects no union member", member, tag);
    return avrogen_writer_fail_msg(w, AVROGEN_E_ARG, w->err_text);
}

avrogen_status avrogen_writer_fail(avrogen_writer *w, avrogen_status s)
{
    return avrogen_writer_fail_msg(w, s, NULL);
}

bool avrogen_writer_reserve_slow(avrogen_writer *w, size_t n)
{
    if (w->err != AVROGEN_OK)
        return false;
    if ((size_t)(w->end - w->p) >= n)
        return true;
    if (!w->growable) {
        avrogen_writer_fail(w, AVROGEN_E_NOSPACE);
        return false;
    }
    size_t len = avrogen_writer_len(w);
    size_t cap = (size_t)(w->end - w->start);
    size_t need;
    if (!avrogen_size_add(len, n, &need)) {
        avrogen_writer_fail(w, AVROGEN_E_NOMEM);
        return false;
    }
    size_t new_cap = cap < WRITER_MIN_CAP ? WRITER_MIN_CAP : cap;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2) {
            new_cap = need;
            break;
        }
        new_cap *= 2;
    }
    uint8_t *buf = avrogen_realloc(&w->alloc, w->start, cap, new_cap);
    if (buf == NULL) {
        avrogen_writer_fail(w, AVROGEN_E_NOMEM);
        return false;
    }
    w->start = buf;
    w->p = buf + len;
    w->end = buf + new_cap;
    return true;
}

void avrogen_write_varint_slow(avrogen_writer *w, uint64_t u)
{
    uint8_t tmp[10];
    size_t n = 0;
    while (u >= 0x80) {
        tmp[n++] = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    tmp[n++] = (uint8_t)u;
    avrogen_write_raw(w, tmp, n);
}

void avrogen_reader_init(avrogen_reader *r, const void *data, size_t len)
{
    static const uint8_t empty[1];
    /* Everything but err_text, as for writers: clearing its bytes would cost
     * every datum that inits a reader. */
    memset(r, 0, offsetof(avrogen_reader, err_text));
    r->err_text[0] = '\0';
    /* Never do arithmetic on a null pointer, even with a zero offset. */
    if (data == NULL) {
        data = empty;
        len = 0;
    }
    r->start = r->p = (const uint8_t *)data;
    r->end = r->start + len;
    r->max_depth = AVROGEN_DEFAULT_MAX_DEPTH;
    r->max_items = AVROGEN_DEFAULT_MAX_ITEMS;
    r->items_left = r->max_items;
    r->check_utf8 = true;
}

avrogen_status avrogen_reader_fail(avrogen_reader *r, avrogen_status s, const char *msg)
{
    if (r->err == AVROGEN_OK && s != AVROGEN_OK) {
        r->err = s;
        r->err_offset = avrogen_reader_offset(r);
        r->err_msg = msg;
        r->p = r->end;
    }
    return r->err;
}

int64_t avrogen_read_varint_slow(avrogen_reader *r, unsigned max_bytes)
{
    if (r->err != AVROGEN_OK)
        return 0;
    const uint8_t *p = r->p;
    uint64_t u = 0;
    for (unsigned i = 0; i < max_bytes; i++) {
        if (p == r->end) {
            avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a varint");
            return 0;
        }
        uint8_t b = *p++;
        unsigned shift = 7 * i;
        if (i == max_bytes - 1) {
            /* The last byte may carry only the bits left: 4 for an int, 1 for a long. */
            unsigned bits = (max_bytes == 5 ? 32u : 64u) - shift;
            if (b >> bits) {
                avrogen_reader_fail(r, AVROGEN_E_OVERFLOW,
                                    max_bytes == 5 ? "int varint overflows 32 bits"
                                                   : "long varint overflows 64 bits");
                return 0;
            }
        }
        u |= (uint64_t)(b & 0x7f) << shift;
        if (b < 0x80) {
            r->p = p;
            return avrogen_zigzag_decode(u);
        }
    }
    avrogen_reader_fail(r, AVROGEN_E_OVERFLOW, "unreachable varint state");
    return 0;
}
