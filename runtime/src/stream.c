/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-line halves of the writer and reader in gencode.h: buffer growth,
 * varints near the end of a buffer, error recording and UTF-8 validation. The
 * inline fast paths stay in the header; everything cold lives here.
 */
#include <string.h>

#include "avrogen/gencode.h"

#define WRITER_MIN_CAP 256u

void avrogen_writer_init_fixed(avrogen_writer *w, void *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->start = w->p = w->end = (uint8_t *)buf;
    if (buf != NULL)
        w->end += cap;
}

void avrogen_writer_init_growable(avrogen_writer *w, const avrogen_alloc *alloc)
{
    memset(w, 0, sizeof *w);
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
    memset(r, 0, sizeof *r);
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

/*
 * The index in an 8-byte chunk, loaded from memory with memcpy, of its first
 * byte marked in `marks` (high bits; not 0): a byte that is not ASCII, or,
 * with `nul`, one that is NUL. Only the first marked byte need be exact.
 */
static unsigned first_marked_byte(const uint8_t *chunk, uint64_t marks, bool nul)
{
#if AVROGEN_LITTLE_ENDIAN && defined(__GNUC__)
    (void)chunk;
    (void)nul;
    return (unsigned)__builtin_ctzll(marks) / 8;
#else
    (void)marks;
    unsigned k = 0;
    while (chunk[k] < 0x80 && !(nul && chunk[k] == 0))
        k++;
    return k;
#endif
}

typedef enum text_scan { TEXT_OK, TEXT_BAD_UTF8, TEXT_NUL } text_scan;

/*
 * RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. The
 * checks are those of the Unicode Standard's table of well-formed byte
 * sequences (Table 3-7): the lead byte fixes the length and the range of the
 * second byte, which is where overlong forms, surrogates and code points past
 * U+10FFFF show; every later byte is 80..BF. With `nul`, a NUL byte (valid
 * UTF-8, but not in a C string) stops the scan too: whichever comes first.
 */
static inline text_scan scan_text(const uint8_t *s, size_t len, bool nul)
{
    size_t i = 0;
    while (i < len) {
        /* ASCII runs dominate real data: test 8 bytes at a time and step
         * straight to the first byte that is not ASCII (or is NUL). */
        while (len - i >= 8) {
            uint64_t chunk;
            memcpy(&chunk, s + i, 8);
            uint64_t marks = nul ? avrogen_unplain64(chunk) : chunk & UINT64_C(0x8080808080808080);
            if (marks != 0) {
                i += first_marked_byte(s + i, marks, nul);
                break;
            }
            i += 8;
        }
        if (i == len)
            break;
        uint8_t c = s[i];
        if (c < 0x80) {
            if (nul && c == 0)
                return TEXT_NUL;
            i++;
            continue;
        }
        size_t n;
        uint8_t lo = 0x80, hi = 0xbf; /* the range of the second byte */
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0)
                lo = 0xa0; /* below: overlong */
            else if (c == 0xed)
                hi = 0x9f; /* above: surrogates D800..DFFF */
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0)
                lo = 0x90; /* below: overlong */
            else if (c == 0xf4)
                hi = 0x8f; /* above: past U+10FFFF */
        } else {
            return TEXT_BAD_UTF8; /* a continuation byte, C0, C1 (overlong) or F5..FF */
        }
        if (len - i < n || s[i + 1] < lo || s[i + 1] > hi)
            return TEXT_BAD_UTF8;
        for (size_t k = 2; k < n; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return TEXT_BAD_UTF8;
        i += n;
    }
    return TEXT_OK;
}

bool avrogen_utf8_valid(const uint8_t *s, size_t len)
{
    return scan_text(s, len, false) == TEXT_OK;
}

/*
 * The rare half of avrogen_read_ctext: s holds a byte outside 0x01..0x7F
 * after its first `plain` bytes. One scan from there checks UTF-8 (when the reader does) and
 * looks for a NUL; on failure records the error at the string's first byte,
 * where r->p still is.
 */
bool avrogen_ctext_check(avrogen_reader *r, avrogen_str s, size_t plain)
{
    if (r->err != AVROGEN_OK)
        return false;
    /* s[0, plain) is in 0x01..0x7F (avrogen_plain_prefix): a character boundary. */
    const uint8_t *p = (const uint8_t *)s.ptr + plain;
    size_t n = s.len - plain;
    text_scan got = r->check_utf8             ? scan_text(p, n, true)
                    : memchr(p, 0, n) != NULL ? TEXT_NUL
                                              : TEXT_OK;
    if (got == TEXT_BAD_UTF8)
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
    else if (got == TEXT_NUL)
        avrogen_reader_fail(r, AVROGEN_E_INVALID,
                            "string holds a NUL byte, which a NUL-terminated C string cannot");
    return got == TEXT_OK;
}
