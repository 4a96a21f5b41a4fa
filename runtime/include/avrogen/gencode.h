/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The contract between generated code and the runtime: the writer and reader
 * streams and the inline Avro binary-encoding primitives (spec §Binary Encoding).
 * This is the only runtime header generated code includes, and it never reaches
 * into schemas or generic values. Bump AVROGEN_GENCODE_ABI on any change that
 * would break code generated against an earlier version.
 *
 * Errors are sticky: the first failure is recorded in `err` with its byte offset
 * and a message, the stream stops (later primitives do nothing and reads return
 * zeros), and callers check once at the end.
 *
 *     uint8_t buf[256];
 *     avrogen_writer w;
 *     avrogen_writer_init_fixed(&w, buf, sizeof buf);
 *     avrogen_write_long(&w, 42);
 *     avrogen_write_string(&w, "hi", 2);
 *     if (w.err != AVROGEN_OK) // AVROGEN_E_NOSPACE if buf was too small
 *         return fail(avrogen_status_str(w.err));
 */
#ifndef AVROGEN_GENCODE_H
#define AVROGEN_GENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "avrogen/alloc.h"
#include "avrogen/annotate.h"
#include "avrogen/arena.h"
#include "avrogen/schema.h" /* avrogen_kind, avrogen_logical for the type descriptors */
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AVROGEN_GENCODE_ABI 8

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define AVROGEN_LITTLE_ENDIAN 1
#endif
#endif
#ifndef AVROGEN_LITTLE_ENDIAN
#define AVROGEN_LITTLE_ENDIAN 0
#endif

/*
 * Words in Avro's byte order (little-endian: floats, doubles, and the bytes of
 * a varint as the word-at-a-time decoder sees them), loaded and stored with
 * memcpy, which compilers turn into one unaligned move at every -O level.
 */
static inline uint64_t avrogen_load_le64(const uint8_t *p)
{
    uint64_t u;
    memcpy(&u, p, sizeof u);
#if !AVROGEN_LITTLE_ENDIAN
    u = (u >> 56) | (u >> 40 & 0xff00) | (u >> 24 & 0xff0000) | (u >> 8 & 0xff000000) |
        (u & 0xff000000) << 8 | (u & 0xff0000) << 24 | (u & 0xff00) << 40 | u << 56;
#endif
    return u;
}

static inline uint32_t avrogen_load_le32(const uint8_t *p)
{
    uint32_t u;
    memcpy(&u, p, sizeof u);
#if !AVROGEN_LITTLE_ENDIAN
    u = (u >> 24) | (u >> 8 & 0xff00) | (u & 0xff00) << 8 | u << 24;
#endif
    return u;
}

static inline void avrogen_store_le64(uint8_t *p, uint64_t u)
{
#if !AVROGEN_LITTLE_ENDIAN
    u = avrogen_load_le64((const uint8_t *)&u);
#endif
    memcpy(p, &u, sizeof u);
}

static inline void avrogen_store_le32(uint8_t *p, uint32_t u)
{
#if !AVROGEN_LITTLE_ENDIAN
    u = avrogen_load_le32((const uint8_t *)&u);
#endif
    memcpy(p, &u, sizeof u);
}

/* The index of the lowest set bit of u, which is not 0. */
static inline unsigned avrogen_ctz64(uint64_t u)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(u);
#else
    unsigned n = 0;
    while (!(u & 1)) {
        u >>= 1;
        n++;
    }
    return n;
#endif
}

/* The index of the highest set bit of u, which is not 0. */
static inline unsigned avrogen_log2_64(uint64_t u)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63u ^ (unsigned)__builtin_clzll(u);
#else
    unsigned n = 0;
    while (u >>= 1)
        n++;
    return n;
#endif
}

/* Arrays of longs or ints this short are coded inline: the call to the bulk
 * codec (avrogen_get_longs, avrogen_put_longs, ...) would cost more than it saves. */
#define AVROGEN_BULK_MIN 4

/*
 * Default limits of readers and writers (avrogen_reader_init,
 * avrogen_writer_init_*). max_depth counts records that can contain
 * themselves (a linked list's nodes, a tree's), nested in one datum: the same
 * count, and the same default, for generated encoders, sizers and decoders,
 * type plans, ahead-of-time decoders and the generic runtime. 1000 nodes of a
 * linked list are ordinary data (Java reads them). Stack, measured with gcc 12
 * -O2 -fstack-usage on x86-64: generated code recurses once a level, 50 to
 * 100 bytes (1000 levels: under 100 KiB); the generic runtime a few times, some
 * 350 bytes a node of a linked list (350 KiB), and at most about 1 MiB at its
 * guard on all nesting (value_internal.h). An 8 MiB thread stack holds that
 * many times over (sanitizer builds take two to four times as much); for a
 * thread with a small stack (musl's 128 KiB, a 256 KiB pool thread), lower
 * max_depth to match. Records that cannot contain themselves nest no deeper
 * than their schema and are not counted.
 */
#define AVROGEN_DEFAULT_MAX_DEPTH 1000u
#define AVROGEN_DEFAULT_MAX_ITEMS ((size_t)1 << 26)
/* Room for a writer's error message naming the member (avrogen_writer_explain). */
#define AVROGEN_WRITER_MSG_CAP 192
/* Room for a reader's error message naming the member (avrogen_reader_explain_type). */
#define AVROGEN_READER_MSG_CAP 192

/* ---- writer ------------------------------------------------------------ */

typedef struct avrogen_writer {
    uint8_t *p;          /* next byte to write */
    uint8_t *end;        /* one past the last writable byte */
    uint8_t *start;      /* first byte of the output */
    avrogen_status err;  /* first error, sticky */
    size_t err_offset;   /* output offset at which it happened */
    avrogen_alloc alloc; /* growable writers: where the buffer comes from */
    bool growable;       /* false: fixed caller buffer, overflow is AVROGEN_E_NOSPACE */
    const char *err_msg; /* English text for the first error (static, or err_text), or NULL */
    unsigned depth;      /* recursive records being written */
    unsigned max_depth;  /* nesting past this is AVROGEN_E_LIMIT */
    char err_text[AVROGEN_WRITER_MSG_CAP]; /* err_msg naming the member, when known */
} avrogen_writer;

/* Write into the caller's `buf` of `cap` bytes; never allocates. max_depth is
 * AVROGEN_DEFAULT_MAX_DEPTH; set it after init to change it. */
AVROGEN_API void avrogen_writer_init_fixed(avrogen_writer *w, void *buf, size_t cap);

/* Write into a buffer that grows through `alloc` (NULL: libc); free with fini. */
AVROGEN_API void avrogen_writer_init_growable(avrogen_writer *w, const avrogen_alloc *alloc);

/* Free a growable writer's buffer; no-op for fixed writers. */
AVROGEN_API void avrogen_writer_fini(avrogen_writer *w);

/* Rewind to empty and clear the error; a growable writer keeps its buffer. */
AVROGEN_API void avrogen_writer_reset(avrogen_writer *w);

/* Record `s` as the writer's error unless one is already set; returns w->err. */
AVROGEN_API avrogen_status avrogen_writer_fail(avrogen_writer *w, avrogen_status s);

/* The same with a message (a static string, kept in w->err_msg). */
AVROGEN_API avrogen_status avrogen_writer_fail_msg(avrogen_writer *w, avrogen_status s,
                                                   const char *msg);

/*
 * E_ARG for a tagged union's tag that selects no member (generated encoders):
 * w->err_msg becomes "MEMBER: tag value N selects no union member" in
 * w->err_text, `member` naming the C member ("struct obj.via") and N the tag,
 * printed as unsigned when `tag_unsigned` (a uint64_t tag above INT64_MAX
 * arrives as a negative int64_t). Nothing once the writer has failed; returns
 * w->err. P_avro_encode's avrogen_writer_explain then names the path.
 */
AVROGEN_API avrogen_status avrogen_writer_fail_tag(avrogen_writer *w, const char *member,
                                                   int64_t tag, bool tag_unsigned);

/* Enter a record that can contain itself; false (E_LIMIT recorded) past
 * max_depth, and once the writer has failed: a cycle of pointers, or a DAG
 * spelled out as a tree, stops at the first error. */
static inline bool avrogen_writer_enter(avrogen_writer *w)
{
    if (AVROGEN_LIKELY(w->err == AVROGEN_OK && w->depth < w->max_depth)) {
        w->depth++;
        return true;
    }
    /* No message: P_avro_encode's avrogen_writer_explain writes one naming the path. */
    avrogen_writer_fail(w, AVROGEN_E_LIMIT);
    return false;
}

static inline void avrogen_writer_leave(avrogen_writer *w)
{
    w->depth--;
}

/* a + b, or SIZE_MAX when either is SIZE_MAX (a size refused) or the sum overflows. */
static inline size_t avrogen_size_sum(size_t a, size_t b)
{
    return a <= SIZE_MAX - b ? a + b : SIZE_MAX;
}

/* Slow path of avrogen_writer_reserve: grow, or fail with E_NOSPACE / E_NOMEM. */
AVROGEN_API bool avrogen_writer_reserve_slow(avrogen_writer *w, size_t n);

/* Slow path of avrogen_write_long near the end of the buffer. */
AVROGEN_API void avrogen_write_varint_slow(avrogen_writer *w, uint64_t u);

static inline size_t avrogen_writer_len(const avrogen_writer *w)
{
    return (size_t)(w->p - w->start);
}

static inline const uint8_t *avrogen_writer_data(const avrogen_writer *w)
{
    return w->start;
}

/* Make room for `n` more bytes; false (error recorded) when there is none. */
static inline bool avrogen_writer_reserve(avrogen_writer *w, size_t n)
{
    if (AVROGEN_LIKELY((size_t)(w->end - w->p) >= n))
        return true;
    return avrogen_writer_reserve_slow(w, n);
}

static inline uint64_t avrogen_zigzag_encode(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t avrogen_zigzag_decode(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/*
 * Bytes of the varint of u, 1 to 10: one per 7 bits of its highest set bit's
 * position (1 + log2 / 7, which (9 log2 + 73) / 64 equals for log2 in 0..63).
 */
static inline size_t avrogen_size_varint(uint64_t u)
{
    return (avrogen_log2_64(u | 1) * 9 + 73) / 64;
}

/*
 * Encoded size of a long (or int) value: 1 to 10 bytes. Its zigzag form is
 * 2a or 2a + 1 with a = v ^ (v >> 63) (below 2^63), whose highest bit is one
 * above a's: the size is (9 (log2 a + 1) + 73) / 64, which is also right (1)
 * for a = 0. One instruction fewer than avrogen_size_varint of the zigzag form.
 */
static inline size_t avrogen_size_long(int64_t v)
{
    uint64_t a = (uint64_t)(v ^ (v >> 63));
    return (avrogen_log2_64(a | 1) * 9 + 82) / 64;
}

/* Encoded size of a string or bytes value of `len` bytes (< 2^63), prefix included. */
static inline size_t avrogen_size_bytes(size_t len)
{
    /* Most strings are shorter than 64 bytes: their length takes one byte. The
     * zigzag form of a length is twice it. */
    if (AVROGEN_LIKELY(len < 64))
        return len + 1;
    return avrogen_size_varint((uint64_t)len << 1) + len;
}

/* avrogen_size_bytes(len) - 1: generated sizes count the one byte of every
 * length in their constant, and add this for the rest. */
static inline size_t avrogen_size_bytes_more(size_t len)
{
    if (AVROGEN_LIKELY(len < 64))
        return len;
    return avrogen_size_varint((uint64_t)len << 1) - 1 + len;
}

/* spec: int and long are written as zigzag varints; an int is a long that fits. */
static inline void avrogen_write_long(avrogen_writer *w, int64_t v)
{
    uint64_t u = avrogen_zigzag_encode(v);
    if (AVROGEN_LIKELY(w->end - w->p >= 10)) {
        uint8_t *p = w->p;
        while (u >= 0x80) {
            *p++ = (uint8_t)(u | 0x80);
            u >>= 7;
        }
        *p++ = (uint8_t)u;
        w->p = p;
        return;
    }
    avrogen_write_varint_slow(w, u);
}

static inline void avrogen_write_int(avrogen_writer *w, int32_t v)
{
    avrogen_write_long(w, v);
}

static inline void avrogen_write_bool(avrogen_writer *w, bool v)
{
    if (avrogen_writer_reserve(w, 1))
        *w->p++ = v ? 1 : 0;
}

/* spec: a float is 4 bytes, a double 8, little-endian IEEE 754. */
static inline void avrogen_write_float(avrogen_writer *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    if (avrogen_writer_reserve(w, 4)) {
        avrogen_store_le32(w->p, u);
        w->p += 4;
    }
}

static inline void avrogen_write_double(avrogen_writer *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    if (avrogen_writer_reserve(w, 8)) {
        avrogen_store_le64(w->p, u);
        w->p += 8;
    }
}

/*
 * memcpy(dst, src, n) for the short strings records are full of: up to 32
 * bytes are copied inline as two overlapping loads and stores of 16, 8 or 4
 * bytes (what libc's memcpy does once called), which saves the call and the
 * registers it clobbers; longer copies call memcpy. Touches exactly src[0, n)
 * and dst[0, n); n may be 0 (then either pointer may be NULL).
 */
static inline void avrogen_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        uint8_t head[16], tail[16];
        memcpy(head, s, 16);
        memcpy(tail, s + n - 16, 16);
        memcpy(d, head, 16);
        memcpy(d + n - 16, tail, 16);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else if (n != 0) {
        /* 1 to 3 bytes: the first, the middle and the last cover them all. */
        uint8_t first = s[0], mid = s[n / 2], last = s[n - 1];
        d[0] = first;
        d[n / 2] = mid;
        d[n - 1] = last;
    }
}

/* `n` bytes as they are: fixed values, or the body of bytes/strings. */
static inline void avrogen_write_raw(avrogen_writer *w, const void *data, size_t n)
{
    if (n != 0 && avrogen_writer_reserve(w, n)) {
        avrogen_copy(w->p, data, n);
        w->p += n;
    }
}

/* spec: bytes and strings are a long length followed by that many bytes. */
static inline void avrogen_write_bytes(avrogen_writer *w, const void *data, size_t len)
{
    avrogen_write_long(w, (int64_t)len);
    avrogen_write_raw(w, data, len);
}

static inline void avrogen_write_string(avrogen_writer *w, const char *s, size_t len)
{
    avrogen_write_bytes(w, s, len);
}

/* ---- reader ------------------------------------------------------------ */

typedef struct avrogen_reader {
    const uint8_t *p;     /* next byte to read */
    const uint8_t *end;   /* one past the last byte */
    const uint8_t *start; /* first byte of the input */
    avrogen_status err;   /* first error, sticky */
    size_t err_offset;    /* input offset at which it happened */
    const char *err_msg;  /* English text for the first error (static, or err_text), or NULL */
    unsigned depth;       /* recursive records being read (see AVROGEN_DEFAULT_MAX_DEPTH) */
    unsigned max_depth;   /* nesting past this is AVROGEN_E_LIMIT */
    size_t items_left;    /* block items still allowed in the current datum */
    size_t max_items;     /* per-datum item budget (counts zero-byte items too) */
    bool check_utf8;      /* reject strings that are not UTF-8 (default true) */
    char err_text[AVROGEN_READER_MSG_CAP]; /* err_msg naming the member, when known */
} avrogen_reader;

/* Read the `len` bytes at `data`, which must outlive every view decoded from it. */
AVROGEN_API void avrogen_reader_init(avrogen_reader *r, const void *data, size_t len);

/*
 * Record the first error: status, message (a static string) and offset. The
 * reader then reads as empty. Returns r->err.
 */
AVROGEN_API avrogen_status avrogen_reader_fail(avrogen_reader *r, avrogen_status s,
                                               const char *msg);

AVROGEN_API int64_t avrogen_read_varint_slow(avrogen_reader *r, unsigned max_bytes);
AVROGEN_API bool avrogen_utf8_valid(const uint8_t *s, size_t len);

/* Start a new top-level datum: resets depth and the per-datum item budget. */
static inline void avrogen_reader_begin_datum(avrogen_reader *r)
{
    r->depth = 0;
    r->items_left = r->max_items;
}

static inline size_t avrogen_reader_remaining(const avrogen_reader *r)
{
    return (size_t)(r->end - r->p);
}

static inline size_t avrogen_reader_offset(const avrogen_reader *r)
{
    return (size_t)(r->p - r->start);
}

/* Enter a record that can contain itself; false (E_LIMIT recorded) past max_depth. */
static inline bool avrogen_reader_enter(avrogen_reader *r)
{
    if (AVROGEN_UNLIKELY(++r->depth > r->max_depth)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "records nest deeper than the reader's max_depth");
        return false;
    }
    return true;
}

static inline void avrogen_reader_leave(avrogen_reader *r)
{
    r->depth--;
}

/*
 * Word-at-a-time varints. A varint's bytes carry 7 bits each, low group first,
 * and the high bit of every byte but the last is set. Loaded as one
 * little-endian word, the first byte with its high bit clear ends the varint
 * (the lowest set bit of ~w & 0x80..80 is that byte's bit 7), and the value is
 * the low 7 bits of the bytes up to it, packed together.
 */
#define AVROGEN_VARINT_HIGH UINT64_C(0x8080808080808080)
#define AVROGEN_VARINT_LOW  UINT64_C(0x7f7f7f7f7f7f7f7f)

/* The 7-bit groups in the low 7 bits of each byte of x, packed into 56 bits. */
static inline uint64_t avrogen_varint_pack(uint64_t x)
{
    x = (x & UINT64_C(0x007f007f007f007f)) | (x & UINT64_C(0x7f007f007f007f00)) >> 1;
    x = (x & UINT64_C(0x00003fff00003fff)) | (x & UINT64_C(0x3fff00003fff0000)) >> 2;
    return (x & UINT64_C(0x000000000fffffff)) | (x & UINT64_C(0x0fffffff00000000)) >> 4;
}

/*
 * The varint at p, which has 10 readable bytes, into *out; returns its end, or
 * NULL when it is too long (spec: a long takes at most 10 bytes, the tenth
 * carrying only bit 63). One-byte varints (lengths, counts, indexes, small
 * numbers) take one test; longer ones one 8-byte load and no loop, so the
 * cost does not depend on the compiler unrolling anything.
 */
static inline const uint8_t *avrogen_get_varint(const uint8_t *p, uint64_t *out)
{
    if (AVROGEN_LIKELY(p[0] < 0x80)) {
        *out = p[0];
        return p + 1;
    }
    uint64_t w = avrogen_load_le64(p);
    uint64_t stop = ~w & AVROGEN_VARINT_HIGH;
    if (AVROGEN_LIKELY(stop != 0)) {
        /* stop ^ (stop - 1): every bit up to and including the last byte's bit 7. */
        *out = avrogen_varint_pack(w & (stop ^ (stop - 1)) & AVROGEN_VARINT_LOW);
        return p + avrogen_ctz64(stop) / 8 + 1;
    }
    uint64_t u = avrogen_varint_pack(w & AVROGEN_VARINT_LOW);
    if (p[8] < 0x80) {
        *out = u | (uint64_t)p[8] << 56;
        return p + 9;
    }
    if (p[9] > 1)
        return NULL;
    *out = u | (uint64_t)(p[8] & 0x7f) << 56 | (uint64_t)p[9] << 63;
    return p + 10;
}

/*
 * avrogen_get_varint for varints that are short where the data is valid
 * (lengths and block counts: 2^56 bytes or items are past any input): up to 8
 * bytes, at p with 8 readable bytes; NULL for anything longer, which the
 * caller's checked read then decodes. Less code to inline on every string.
 */
static inline const uint8_t *avrogen_get_varint8(const uint8_t *p, uint64_t *out)
{
    if (AVROGEN_LIKELY(p[0] < 0x80)) {
        *out = p[0];
        return p + 1;
    }
    uint64_t w = avrogen_load_le64(p);
    uint64_t stop = ~w & AVROGEN_VARINT_HIGH;
    if (AVROGEN_UNLIKELY(stop == 0))
        return NULL;
    *out = avrogen_varint_pack(w & (stop ^ (stop - 1)) & AVROGEN_VARINT_LOW);
    return p + avrogen_ctz64(stop) / 8 + 1;
}

/*
 * The same for an int, at p with 8 readable bytes: at most 5 varint bytes, the
 * fifth carrying only bits 28..31 (the value fits in 32 bits); NULL otherwise.
 */
static inline const uint8_t *avrogen_get_varint32(const uint8_t *p, uint32_t *out)
{
    if (AVROGEN_LIKELY(p[0] < 0x80)) {
        *out = p[0];
        return p + 1;
    }
    uint64_t w = avrogen_load_le64(p);
    uint64_t stop = ~w & UINT64_C(0x8080808080); /* the first five bytes */
    if (AVROGEN_UNLIKELY(stop == 0))
        return NULL;
    uint64_t u = avrogen_varint_pack(w & (stop ^ (stop - 1)) & AVROGEN_VARINT_LOW);
    if (AVROGEN_UNLIKELY(u > UINT32_MAX))
        return NULL;
    *out = (uint32_t)u;
    return p + avrogen_ctz64(stop) / 8 + 1;
}

/*
 * Charge `n` values that take no input (records that encode in zero bytes) to
 * the per-datum item budget, which block items draw on too: nothing else
 * bounds the work of reading them. False (E_LIMIT recorded) past it.
 */
static inline bool avrogen_reader_charge(avrogen_reader *r, size_t n)
{
    if (AVROGEN_LIKELY(n <= r->items_left)) {
        r->items_left -= n;
        return true;
    }
    avrogen_reader_fail(r, AVROGEN_E_LIMIT,
                        "values that take no bytes exceed the reader's item budget");
    return false;
}

/*
 * Go back to `at` to read one writer field again, for another reader field
 * that names it or has it as an alias (schema resolution feeds each; r->p is
 * where the first read ended). Each read again costs the per-datum item
 * budget one item and one more per 16 bytes: reader fields that share a
 * writer field at every level of a deep schema would otherwise multiply the
 * work of a small datum without bound. False (E_LIMIT recorded) past it, or
 * once the reader has failed.
 */
static inline bool avrogen_reader_reread(avrogen_reader *r, const uint8_t *at)
{
    size_t n = 1 + (size_t)(r->p - at) / 16;
    if (r->err != AVROGEN_OK)
        return false;
    if (n > r->items_left) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT,
                            "fields read again (one writer field feeding several reader "
                            "fields) exceed the reader's item budget");
        return false;
    }
    r->items_left -= n;
    r->p = at;
    return true;
}

/* avrogen_reader_charge for `count` values of `each` records (a block of them). */
static inline bool avrogen_reader_charge_items(avrogen_reader *r, size_t count, size_t each)
{
    size_t n;
    return avrogen_reader_charge(r, avrogen_size_mul(count, each, &n) ? n : SIZE_MAX);
}

/*
 * spec: a long is at most 10 varint bytes; the tenth may only carry bit 63.
 * Anything longer, or stray high bits, is AVROGEN_E_OVERFLOW.
 */
static inline int64_t avrogen_read_long(avrogen_reader *r)
{
    if (AVROGEN_LIKELY(r->end - r->p >= 10)) {
        uint64_t u;
        const uint8_t *next = avrogen_get_varint(r->p, &u);
        if (AVROGEN_LIKELY(next != NULL)) {
            r->p = next;
            return avrogen_zigzag_decode(u);
        }
    }
    return avrogen_read_varint_slow(r, 10);
}

/*
 * A long that is a length or a block count: avrogen_read_long, with the 9- and
 * 10-byte varints (2^56 and more, an error in the caller) out of line.
 */
static inline int64_t avrogen_read_size_long(avrogen_reader *r)
{
    if (AVROGEN_LIKELY(r->end - r->p >= 8)) {
        uint64_t u;
        const uint8_t *next = avrogen_get_varint8(r->p, &u);
        if (AVROGEN_LIKELY(next != NULL)) {
            r->p = next;
            return avrogen_zigzag_decode(u);
        }
    }
    return avrogen_read_varint_slow(r, 10);
}

/* An int is at most 5 varint bytes and its value must fit in 32 bits. */
static inline int32_t avrogen_read_int(avrogen_reader *r)
{
    if (AVROGEN_LIKELY(r->end - r->p >= 8)) {
        uint32_t u;
        const uint8_t *next = avrogen_get_varint32(r->p, &u);
        if (AVROGEN_LIKELY(next != NULL)) {
            r->p = next;
            return (int32_t)avrogen_zigzag_decode(u);
        }
    }
    return (int32_t)avrogen_read_varint_slow(r, 5);
}

/* spec: a boolean is one byte, 0 or 1; anything else is malformed. */
static inline bool avrogen_read_bool(avrogen_reader *r)
{
    if (AVROGEN_LIKELY(r->p < r->end && *r->p <= 1))
        return *r->p++ != 0;
    avrogen_reader_fail(r, r->p < r->end ? AVROGEN_E_INVALID : AVROGEN_E_TRUNCATED,
                        r->p < r->end ? "boolean byte is neither 0 nor 1"
                                      : "input ends inside a boolean");
    return false;
}

static inline float avrogen_read_float(avrogen_reader *r)
{
    float v = 0;
    if (AVROGEN_LIKELY(r->end - r->p >= 4)) {
        uint32_t u = avrogen_load_le32(r->p);
        memcpy(&v, &u, sizeof v);
        r->p += 4;
    } else {
        avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a float");
    }
    return v;
}

static inline double avrogen_read_double(avrogen_reader *r)
{
    double v = 0;
    if (AVROGEN_LIKELY(r->end - r->p >= 8)) {
        uint64_t u = avrogen_load_le64(r->p);
        memcpy(&v, &u, sizeof v);
        r->p += 8;
    } else {
        avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a double");
    }
    return v;
}

/*
 * The length prefix of a bytes or string value, checked against the input: a
 * negative length is E_INVALID, one past the end is E_TRUNCATED. Returns 0 on error.
 */
static inline size_t avrogen_read_len(avrogen_reader *r)
{
    int64_t n = avrogen_read_size_long(r);
    if (AVROGEN_LIKELY(n >= 0 && (uint64_t)n <= (uint64_t)(r->end - r->p)))
        return (size_t)n;
    if (r->err == AVROGEN_OK)
        avrogen_reader_fail(r, n < 0 ? AVROGEN_E_INVALID : AVROGEN_E_TRUNCATED,
                            n < 0 ? "negative length" : "length runs past the end of the input");
    return 0;
}

/* Copy `n` raw bytes (a fixed value) into `dst`; zero-fills `dst` on error. */
static inline void avrogen_read_fixed(avrogen_reader *r, void *dst, size_t n)
{
    if (AVROGEN_LIKELY((size_t)(r->end - r->p) >= n)) {
        if (n != 0)
            memcpy(dst, r->p, n);
        r->p += n;
        return;
    }
    if (n != 0)
        memset(dst, 0, n);
    avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a fixed value");
}

/* A bytes value as a view into the input (zero-copy); {p, 0} on error. */
static inline avrogen_bytes avrogen_read_bytes(avrogen_reader *r)
{
    avrogen_bytes b;
    b.len = avrogen_read_len(r);
    b.ptr = r->p;
    r->p += b.len;
    return b;
}

/* A string as a view into the input (zero-copy), UTF-8 checked if r->check_utf8. */
static inline avrogen_str avrogen_read_string(avrogen_reader *r)
{
    avrogen_str s;
    s.len = avrogen_read_len(r);
    s.ptr = (const char *)r->p;
    if (r->check_utf8 && !avrogen_utf8_valid(r->p, s.len)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
        s.len = 0;
        return s;
    }
    r->p += s.len;
    return s;
}

/*
 * The next block count of an array or map being decoded, 0 at the end (or on
 * error). spec (Arrays, Maps): a negative count is followed by the block's size
 * in bytes; its absolute value is the count, and the block's items take exactly
 * that many bytes. *end is the caller's, NULL before the first block: it keeps
 * where a block that gave its size ends, and the next call checks that its
 * items ended there. The rules, errors and offsets are the generic decoder's
 * (runtime/src/value.c), so every decoder agrees: a negative size is E_INVALID,
 * a size past the end of the input E_TRUNCATED (at the byte after the size), a
 * block whose items end elsewhere E_INVALID "block size does not match its
 * items" (at the byte where they end). Every item is charged to the per-datum
 * budget, which is what bounds blocks of zero-byte items (null, empty records,
 * fixed(0)).
 */
static inline size_t avrogen_read_block(avrogen_reader *r, const uint8_t **end)
{
    if (AVROGEN_UNLIKELY(*end != NULL)) {
        if (r->p != *end && r->err == AVROGEN_OK) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "block size does not match its items");
            return 0;
        }
        *end = NULL;
    }
    int64_t n = avrogen_read_size_long(r);
    if (AVROGEN_UNLIKELY(n < 0)) {
        if (n == INT64_MIN) {
            avrogen_reader_fail(r, AVROGEN_E_OVERFLOW, "block count out of range");
            return 0;
        }
        n = -n;
        int64_t size = avrogen_read_size_long(r);
        if (r->err != AVROGEN_OK)
            return 0;
        if (size < 0) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "negative block size");
            return 0;
        }
        if ((uint64_t)size > (uint64_t)(r->end - r->p)) {
            avrogen_reader_fail(r, AVROGEN_E_TRUNCATED,
                                "block size runs past the end of the input");
            return 0;
        }
        *end = r->p + size;
    }
    if (AVROGEN_UNLIKELY((uint64_t)n > r->items_left)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "block count exceeds the reader's item budget");
        return 0;
    }
    r->items_left -= (size_t)n;
    return r->err == AVROGEN_OK ? (size_t)n : 0;
}

/*
 * avrogen_read_block for code that reads a block's items without checking
 * them against its size (the benches' hand-written decoders): decoders use
 * avrogen_read_block.
 */
static inline size_t avrogen_read_block_count(avrogen_reader *r)
{
    const uint8_t *end = NULL;
    return avrogen_read_block(r, &end);
}

/*
 * The next block of an array or map being skipped: the count of a block to
 * walk item by item, 0 at the end (or on error). A block that gives its byte
 * size is jumped over whole, as avrogen_skip jumps it (the size is there so
 * that a reader can skip the block: spec, Arrays); its items are charged to the
 * budget all the same, and `zero_records` more each (items that take no bytes
 * but hold records: avrogen_reader_charge_items), so skipping stops where
 * avrogen_skip stops.
 */
static inline size_t avrogen_skip_block(avrogen_reader *r, size_t zero_records)
{
    for (;;) {
        const uint8_t *end = NULL;
        size_t n = avrogen_read_block(r, &end);
        if (n == 0 || end == NULL)
            return n;
        if (zero_records != 0 && !avrogen_reader_charge_items(r, n, zero_records))
            return 0;
        r->p = end;
    }
}

/* spec: arrays and maps are written as one block of all items, then a 0 block. */
static inline void avrogen_write_block_count(avrogen_writer *w, size_t n)
{
    avrogen_write_long(w, (int64_t)n);
}

/* ---- type descriptors (emit_c) --------------------------------------------
 *
 * What generated code publishes about each record as `<prefix>_avro_type`, for
 * code that works on generated structs without knowing them statically (schema
 * resolution, generic bridges, tests). A descriptor states C facts only: where
 * each Avro value lives in the struct and how it is held there. The Avro side
 * is in its schema (avrogen_type_schema; parse it with avrogen_schema_parse); record fields, array
 * items, map keys and values and union branches line up one to one.
 */

/* How a C location holds its Avro value (the generator's model_storage). */
typedef enum avrogen_storage {
    AVROGEN_STORAGE_NONE,       /* a null union branch: nothing is stored */
    AVROGEN_STORAGE_SCALAR,     /* an arithmetic type; a decimal holds its unscaled value */
    AVROGEN_STORAGE_CSTRING,    /* char *, NUL-terminated */
    AVROGEN_STORAGE_CHAR_ARRAY, /* char[len], NUL-terminated inside it */
    AVROGEN_STORAGE_STR_VIEW,   /* avrogen_str */
    AVROGEN_STORAGE_BYTES_VIEW, /* avrogen_bytes */
    AVROGEN_STORAGE_PTR_COUNT,  /* T * plus an integer count member at aux_offset */
    AVROGEN_STORAGE_C_ARRAY,    /* T[len]: fixed bytes, or an array of exactly len items */
    AVROGEN_STORAGE_STRUCT,     /* a nested record */
    AVROGEN_STORAGE_ENUM,       /* a C enum; `type` maps symbols to enumerator values */
    AVROGEN_STORAGE_NULLABLE,   /* ["null", T] or [T, "null"]; see null_via_ptr */
    AVROGEN_STORAGE_TAGGED,     /* a C union plus an integer tag member at aux_offset */
    AVROGEN_STORAGE_TIME,       /* an instant (struct timespec, struct timeval, time_t) as a
                                   long in the unit of its timestamp logical type */
    AVROGEN_STORAGE_CAP_ARRAY,  /* T[len] holding its first n items, n the count at
                                   aux_offset: an array, or bytes / a string of chars */
    AVROGEN_STORAGE_PADDED,     /* char[len]: text up to its first NUL or all len bytes */
    AVROGEN_STORAGE_BITFIELD,   /* a bit-field of len bits of integer type `scalar` (offset 0,
                                   size that type's): ext->get and ext->set reach it */
    AVROGEN_STORAGE_RECORD_PTR  /* a tagged union's branch `T *` to the record `type`, never
                                   NULL: items[0] is the record at the target */
} avrogen_storage;

/* The C arithmetic type of a scalar, an enum's underlying type, a count or a tag. */
typedef enum avrogen_scalar {
    AVROGEN_SCALAR_NONE,
    AVROGEN_SCALAR_BOOL,
    AVROGEN_SCALAR_I8,
    AVROGEN_SCALAR_I16,
    AVROGEN_SCALAR_I32,
    AVROGEN_SCALAR_I64,
    AVROGEN_SCALAR_U8,
    AVROGEN_SCALAR_U16,
    AVROGEN_SCALAR_U32,
    AVROGEN_SCALAR_U64,
    AVROGEN_SCALAR_FLOAT,
    AVROGEN_SCALAR_DOUBLE
} avrogen_scalar;

typedef struct avrogen_type avrogen_type;
typedef struct avrogen_field_desc avrogen_field_desc;

/* avrogen_field_ext.flags */
#define AVROGEN_EXT_U64_CHECKED                               \
    0x1u /* a uint64_t long: encode refuses values above      \
            INT64_MAX, decode refuses negative longs (without \
            it, AVRO_FIELD(type = "long"): the same 64 bits) */

/* What only some locations need; NULL for the others. */
typedef struct avrogen_field_ext {
    unsigned flags;                     /* AVROGEN_EXT_* */
    const int64_t *tags;                /* TAGGED branch: the tag values selecting it, the
                                           first the one decode stores; NULL: its index */
    size_t n_tags;                      /* how many */
    int64_t (*get)(const void *base);   /* BITFIELD: the member's value in the struct at base */
    void (*set)(void *base, int64_t v); /* BITFIELD: store v, which fits the width */
} avrogen_field_ext;

/*
 * One Avro value at a C location: a record field, an array item, a map key or
 * value, the non-null branch of a nullable, a branch of a tagged union.
 * Offsets count from the start of the struct holding the location (the record,
 * or the map entry); an array item and the target of a nullable pointer are at
 * offset 0 of their own storage.
 */
struct avrogen_field_desc {
    const char *name;                /* field: Avro name; union branch: C member; else NULL */
    size_t offset;                   /* offsetof the location */
    size_t size;                     /* sizeof the location (an item: one element) */
    avrogen_kind kind;               /* its Avro type */
    avrogen_logical logical;         /* its logical type, or AVROGEN_LOGICAL_NONE */
    avrogen_storage storage;         /* how C holds it */
    avrogen_scalar scalar;           /* SCALAR; ENUM: underlying type; PTR_COUNT, CAP_ARRAY
                                        bytes and strings: U8/I8 */
    size_t len;                      /* C_ARRAY, CHAR_ARRAY, CAP_ARRAY, PADDED: the N of
                                        T[N]; TIME: the fraction's units per second (0:
                                        none, a time_t) */
    size_t elem_size;                /* PTR_COUNT, C_ARRAY, CAP_ARRAY: sizeof an item; MAP: of
                                        an entry */
    size_t aux_offset;               /* PTR_COUNT, CAP_ARRAY: offsetof the count; TAGGED: of
                                        the tag */
    avrogen_scalar aux_scalar;       /* the count's or the tag's integer type */
    unsigned null_index;             /* NULLABLE: Avro branch index of "null" (0 or 1) */
    bool null_via_ptr;               /* NULLABLE: T * whose NULL is null (else its own state) */
    const avrogen_field_desc *items; /* see below */
    size_t n_items;                  /* ARRAY 1, MAP 2, NULLABLE 1, RECORD_PTR 1, TAGGED: the
                                        branches; TIME 2, or 1 for a time_t */
    const avrogen_type *type;        /* RECORD, ENUM, FIXED: the named type; else NULL */
    const avrogen_field_ext *ext;    /* the rare facts (avrogen_field_ext), or NULL */
};
/*
 * items: ARRAY: the item; MAP: the entry's key, then its value; NULLABLE: the
 * non-null branch (for null_via_ptr at offset 0 of the target, else the
 * location itself); RECORD_PTR: the record (STRUCT) at offset 0 of the
 * target; TAGGED: branch i at items[i] (a null branch has storage
 * NONE); TIME: its seconds, then its fraction (tv_nsec, tv_usec), integers at
 * offsets inside the instant (a time_t is its own seconds, at 0); CAP_ARRAY:
 * an array's item (bytes and strings have none). PTR_COUNT also holds strings
 * (char * + AVRO_STRING: UTF-8, not NUL-terminated) and bytes of a void *
 * (elem_size 1). A nullable's own null state is: char * NULL, avrogen_str /
 * avrogen_bytes .ptr NULL, or the T * of PTR_COUNT NULL (its count then 0).
 */

/*
 * A decoder generated ahead of time for data written with an earlier schema of
 * a record (avrogen generate --compat-with): it reads the writer's bytes
 * straight into the current struct, resolution done at generation time.
 */
typedef struct avrogen_type_decoder {
    uint64_t fingerprint; /* CRC-64-AVRO of the writer schema it reads */
    avrogen_status (*decode)(avrogen_reader *r, void *dst, avrogen_arena *a);
} avrogen_type_decoder;

/*
 * A text kept in pieces (a generated record's schema texts: see
 * avrogen_type_schema): each piece is `len` bytes at `bytes`, or (bytes NULL)
 * all of `part`, a text that other texts share. A record's schema holds the
 * definitions of the records it nests; generated code writes each such
 * definition once, so that a header of N records nesting one another is not
 * N^2 bytes of schema text (issue 12). A literal piece is NUL-terminated.
 */
typedef struct avrogen_text avrogen_text;
typedef struct avrogen_text_piece {
    const char *bytes;
    size_t len;
    const avrogen_text *part;
} avrogen_text_piece;
struct avrogen_text {
    const avrogen_text_piece *pieces;
    size_t n_pieces;
    size_t len; /* of the whole text */
};

/* Where avrogen_type_schema and avrogen_type_canonical keep the texts they
 * join (generated code's own zeroed object; written once, never freed). */
typedef struct avrogen_text_cache {
    char *schema;
    char *canonical;
} avrogen_text_cache;

/* A named type: a record, an enum or a fixed. */
struct avrogen_type {
    avrogen_kind kind;                  /* RECORD, ENUM or FIXED */
    const char *name;                   /* Avro fullname */
    const avrogen_text *schema_text;    /* records of the header: the .avsc text; else NULL */
    const avrogen_text *canonical_text; /* the same: its Parsing Canonical Form; else NULL */
    avrogen_text_cache *cache;          /* records of the header: for the joined texts */
    uint64_t fingerprint;               /* CRC-64-AVRO of canonical; 0 without one */
    size_t size;                        /* sizeof the C type; FIXED: the fixed size */
    const avrogen_field_desc *fields;   /* RECORD: the Avro fields, in order */
    size_t n_fields;                    /* RECORD: how many */
    const char *const *symbols;         /* ENUM: the symbols, in Avro index order */
    const int64_t *values;              /* ENUM: the C enumerator value of each symbol */
    size_t n_symbols;                   /* ENUM: how many */
    /* records of the header: P_avro_decode, taking the struct as void *; else NULL */
    avrogen_status (*decode)(avrogen_reader *r, void *dst, avrogen_arena *a);
    /* records of the header: P_avro_encode, taking the struct as const void *; else NULL */
    avrogen_status (*encode)(avrogen_writer *w, const void *src);
    const avrogen_type_decoder *resolved; /* records: ahead-of-time decoders, or NULL */
    size_t n_resolved;                    /* how many, sorted by fingerprint */
};

/*
 * The .avsc text of the record t describes (what `avrogen schema` writes for
 * it: its whole schema, the records it nests defined inside), NUL-terminated,
 * or NULL when t has none (an enum, a fixed, a record of another header) or
 * memory runs out. A text in one piece is returned as it is; one in several
 * pieces is joined on the first call, and later calls (from any thread)
 * return the same text, kept for the life of the process.
 */
AVROGEN_API const char *avrogen_type_schema(const avrogen_type *t);
/* Its Parsing Canonical Form (what P_AVRO_FINGERPRINT is the CRC-64-AVRO of),
 * as avrogen_type_schema gives the .avsc text. */
AVROGEN_API const char *avrogen_type_canonical(const avrogen_type *t);

/*
 * Name the member an encode of the struct at `v` (a record described by `t`)
 * failed at: P_avro_encode calls it after an E_ARG or E_LIMIT, and w->err_msg
 * becomes "Order.lines[3].name: NULL string" (in w->err_text). It walks the
 * struct as the encoder did, so it finds what the encoder refused; it does
 * nothing for other errors, when it finds nothing, when the encoder's own
 * message ("struct T.m: ...") is about another member than the one it finds
 * (a check it does not make), or when err_msg already names a path (a nested
 * P_avro_encode explained it). Cold: never on success.
 */
AVROGEN_API void avrogen_writer_explain(avrogen_writer *w, const avrogen_type *t, const void *v);

/*
 * Name the member a decode of a datum of record `t` failed in: P_avro_decode
 * calls it after any error, with `datum` where the datum starts in r's input,
 * and r->err_msg becomes "Order.lines[3].name: input ends inside a string" (in
 * r->err_text; r->err and r->err_offset do not change). It parses t's schema
 * and walks the datum again from `datum` with it, following the path, up to
 * the byte the error is at: the member whose bytes the decoder was reading
 * there (for an error of the C side, a count or a bit-field out of range, the
 * member whose value ends there). It does nothing when err_msg already names
 * a path, or when the walk cannot place the error (t has no schema, memory
 * runs out parsing it). Allocates (the schema, freed before returning); cold:
 * never on success.
 */
AVROGEN_API void avrogen_reader_explain_type(avrogen_reader *r, const avrogen_type *t,
                                             const uint8_t *datum);

/* Compile-time layout checks in generated code, as C11 and as C++. */
#ifdef __cplusplus
#define AVROGEN_STATIC_ASSERT(expr, msg) static_assert(expr, msg)
#else
#define AVROGEN_STATIC_ASSERT(expr, msg) _Static_assert(expr, msg)
#endif

/* sizeof a member, without an object. */
#define AVROGEN_SIZEOF_MEMBER(type, member) sizeof(((type *)0)->member)

/* Generated code's layout lock: `member` of `type` is where the generator saw it. */
/* Store v, which the caller checked fits, into signed bit-field lv: gcc's
 * -Wconversion cannot see the range check. */
/* clang-format off */
#if defined(__GNUC__) && !defined(__clang__)
#define AVROGEN_BITFIELD_STORE(lv, v)                          \
    do {                                                       \
        _Pragma("GCC diagnostic push")                         \
        _Pragma("GCC diagnostic ignored \"-Wconversion\"")     \
        (lv) = (v);                                            \
        _Pragma("GCC diagnostic pop")                          \
    } while (0)
#else
#define AVROGEN_BITFIELD_STORE(lv, v) ((lv) = (v))
#endif
/* clang-format on */

#define AVROGEN_LAYOUT(type, member, offset, size)                               \
    AVROGEN_STATIC_ASSERT(offsetof(type, member) == (offset) &&                  \
                                  AVROGEN_SIZEOF_MEMBER(type, member) == (size), \
                          #type "." #member " moved or changed size: rerun avrogen")

/* ---- encoding helpers of generated code (emit_c) ---------------------------- */

/*
 * Runs of fields. Generated code checks capacity once for a run of fields
 * whose encoding has a known worst case (scalars, strings of known length,
 * fixed values): avrogen_writer_room(), then avrogen_put_*() store at a local
 * cursor and return it, unchecked. When the room is not there (near the end of
 * a fixed buffer, or a growable one that must grow) it writes the same run with
 * the checked avrogen_write_*() primitives, so no output is ever refused that
 * would have fit.
 */
static inline bool avrogen_writer_room(const avrogen_writer *w, size_t n)
{
    return (size_t)(w->end - w->p) >= n;
}

/* The varint of u at p, which has room for 10 bytes; returns the end. */
static inline uint8_t *avrogen_put_varint(uint8_t *p, uint64_t u)
{
    while (u >= 0x80) {
        *p++ = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    *p++ = (uint8_t)u;
    return p;
}

/* An int or a long (at most 10 bytes). */
static inline uint8_t *avrogen_put_long(uint8_t *p, int64_t v)
{
    return avrogen_put_varint(p, avrogen_zigzag_encode(v));
}

static inline uint8_t *avrogen_put_bool(uint8_t *p, bool v)
{
    *p = v ? 1 : 0;
    return p + 1;
}

static inline uint8_t *avrogen_put_float(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    avrogen_store_le32(p, u);
    return p + 4;
}

static inline uint8_t *avrogen_put_double(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    avrogen_store_le64(p, u);
    return p + 8;
}

/* `n` bytes as they are (a fixed value). */
static inline uint8_t *avrogen_put_raw(uint8_t *p, const void *data, size_t n)
{
    avrogen_copy(p, data, n);
    return p + n;
}

/* The length of a string or bytes value (< 2^63), at most 10 bytes: its
 * zigzag form is twice it, and most lengths are below 64 (one byte). */
static inline uint8_t *avrogen_put_len(uint8_t *p, size_t len)
{
    if (AVROGEN_LIKELY(len < 64)) {
        *p = (uint8_t)(len << 1);
        return p + 1;
    }
    return avrogen_put_varint(p, (uint64_t)len << 1);
}

/* A string or bytes value: its length, then its `len` bytes (room: 10 + len). */
static inline uint8_t *avrogen_put_bytes(uint8_t *p, const void *data, size_t len)
{
    return avrogen_put_raw(avrogen_put_len(p, len), data, len);
}

/* The length of NUL-terminated s for a run; NULL is E_ARG (and 0). */
static inline size_t avrogen_cstring_len(avrogen_writer *w, const char *s)
{
    if (AVROGEN_LIKELY(s != NULL))
        return strlen(s);
    avrogen_writer_fail(w, AVROGEN_E_ARG);
    return 0;
}

/* An enum's symbol index for a run; -1 (no such enumerator) is E_ARG (and 0). */
static inline int32_t avrogen_writer_index(avrogen_writer *w, int32_t index)
{
    if (AVROGEN_LIKELY(index >= 0))
        return index;
    avrogen_writer_fail(w, AVROGEN_E_ARG);
    return 0;
}

/* A NUL-terminated string; NULL is E_ARG (a non-nullable string field). One
 * capacity check for the length and the bytes. */
static inline void avrogen_write_cstring(avrogen_writer *w, const char *s)
{
    if (AVROGEN_UNLIKELY(s == NULL)) {
        avrogen_writer_fail(w, AVROGEN_E_ARG);
        return;
    }
    size_t len = strlen(s);
    if (avrogen_writer_reserve(w, avrogen_size_bytes(len))) {
        uint8_t *p = avrogen_put_len(w->p, len);
        avrogen_copy(p, s, len);
        w->p = p + len;
    }
}

static inline size_t avrogen_size_cstring(const char *s)
{
    return s != NULL ? avrogen_size_bytes(strlen(s)) : 0;
}

/* The length of the string in char[cap]: up to its first NUL, cap if it has none. */
static inline size_t avrogen_chars_len(const char *s, size_t cap)
{
    const char *nul = (const char *)memchr(s, 0, cap);
    return nul != NULL ? (size_t)(nul - s) : cap;
}

/* The length of the string in char[cap] for a run; one with no NUL is E_ARG (and 0). */
static inline size_t avrogen_chars_len_checked(avrogen_writer *w, const char *s, size_t cap)
{
    size_t len = avrogen_chars_len(s, cap);
    if (AVROGEN_LIKELY(len < cap))
        return len;
    avrogen_writer_fail(w, AVROGEN_E_ARG);
    return 0;
}

/* The string in char[cap]; one with no NUL is E_ARG (decoding could not store it). */
static inline void avrogen_write_chars(avrogen_writer *w, const char *s, size_t cap)
{
    size_t len = avrogen_chars_len(s, cap);
    if (AVROGEN_LIKELY(len < cap))
        avrogen_write_string(w, s, len);
    else
        avrogen_writer_fail(w, AVROGEN_E_ARG);
}

static inline size_t avrogen_size_chars(const char *s, size_t cap)
{
    return avrogen_size_bytes(avrogen_chars_len(s, cap));
}

/*
 * The number of items of a pointer + count pair: 0 for a negative count or a
 * NULL pointer with a nonzero count, which avrogen_write_count rejects.
 */
static inline size_t avrogen_item_count(const void *items, int64_t n)
{
    return n > 0 && items != NULL ? (size_t)n : 0;
}

/* Check a pointer + count pair before writing it: E_ARG and 0 if it is invalid. */
static inline size_t avrogen_write_count(avrogen_writer *w, const void *items, int64_t n)
{
    if (AVROGEN_LIKELY(n == 0 || (n > 0 && items != NULL)))
        return (size_t)n;
    avrogen_writer_fail(w, AVROGEN_E_ARG);
    return 0;
}

/*
 * Start an array or map of the pointer + count pair: checks it, writes the
 * block count unless it is 0 and returns the items to write (0 after an error).
 * The caller writes them and then the 0 block that ends the array.
 */
static inline size_t avrogen_write_array_start(avrogen_writer *w, const void *items, int64_t n)
{
    size_t count = avrogen_write_count(w, items, n);
    if (count != 0)
        avrogen_write_block_count(w, count);
    return count;
}

/* Bytes of an array's framing: its one block count (none when empty) and the 0 block. */
static inline size_t avrogen_size_array_frame(size_t count)
{
    return (count != 0 ? avrogen_size_long((int64_t)count) : 0) + 1;
}

/* Bytes of the pointer + count pair as an Avro bytes value; checked like an array. */
static inline void avrogen_write_bytes_count(avrogen_writer *w, const void *data, int64_t n)
{
    size_t len = avrogen_write_count(w, data, n);
    avrogen_write_bytes(w, data, len);
}

/*
 * Bulk varints (runtime/src/varint.c): the n longs (ints) at v at p, which
 * has room for 10 bytes each (ints: 5 each and 3 more); returns the end. Each
 * item is one 8-byte store, so bytes of the room past the end may be written
 * too.
 */
AVROGEN_API uint8_t *avrogen_put_longs(uint8_t *p, const int64_t *v, size_t n);
AVROGEN_API uint8_t *avrogen_put_ints(uint8_t *p, const int32_t *v, size_t n);

/*
 * Bytes of the varints of the n longs (ints) at v (runtime/src/varint.c, with
 * AVX2 where the CPU has it): the size of an array's items.
 */
AVROGEN_API size_t avrogen_size_longs(const int64_t *v, size_t n);
AVROGEN_API size_t avrogen_size_ints(const int32_t *v, size_t n);

/* `n` longs, as the items of an array: one capacity check when the buffer has
 * room for the longest encoding of all of them, else one per item. */
static inline void avrogen_write_longs(avrogen_writer *w, const int64_t *v, size_t n)
{
    if (n <= (size_t)(w->end - w->p) / 10) {
        if (n >= AVROGEN_BULK_MIN) {
            w->p = avrogen_put_longs(w->p, v, n);
            return;
        }
        uint8_t *p = w->p;
        for (size_t i = 0; i < n; i++)
            p = avrogen_put_varint(p, avrogen_zigzag_encode(v[i]));
        w->p = p;
        return;
    }
    for (size_t i = 0; i < n; i++)
        avrogen_write_long(w, v[i]);
}

static inline void avrogen_write_ints(avrogen_writer *w, const int32_t *v, size_t n)
{
    /* 5 bytes an item, and 3 more: the bulk codec stores 8 bytes for the last. */
    if (n < (size_t)(w->end - w->p) / 5) {
        if (n >= AVROGEN_BULK_MIN) {
            w->p = avrogen_put_ints(w->p, v, n);
            return;
        }
        uint8_t *p = w->p;
        for (size_t i = 0; i < n; i++)
            p = avrogen_put_varint(p, avrogen_zigzag_encode(v[i]));
        w->p = p;
        return;
    }
    for (size_t i = 0; i < n; i++)
        avrogen_write_int(w, v[i]);
}

/* `n` doubles (floats) back to back, as the items of an array: one capacity check. */
static inline void avrogen_write_doubles(avrogen_writer *w, const double *v, size_t n)
{
    size_t bytes;
    if (!avrogen_size_mul(n, 8, &bytes)) {
        avrogen_writer_fail(w, AVROGEN_E_NOMEM);
        return;
    }
    if (bytes == 0 || !avrogen_writer_reserve(w, bytes))
        return;
#if AVROGEN_LITTLE_ENDIAN
    memcpy(w->p, v, bytes);
    w->p += bytes;
#else
    for (size_t i = 0; i < n; i++)
        avrogen_write_double(w, v[i]);
#endif
}

static inline void avrogen_write_floats(avrogen_writer *w, const float *v, size_t n)
{
    size_t bytes;
    if (!avrogen_size_mul(n, 4, &bytes)) {
        avrogen_writer_fail(w, AVROGEN_E_NOMEM);
        return;
    }
    if (bytes == 0 || !avrogen_writer_reserve(w, bytes))
        return;
#if AVROGEN_LITTLE_ENDIAN
    memcpy(w->p, v, bytes);
    w->p += bytes;
#else
    for (size_t i = 0; i < n; i++)
        avrogen_write_float(w, v[i]);
#endif
}

/* Bytes of the minimal big-endian two's complement form of v (1 to 8). */
static inline size_t avrogen_decimal_len(int64_t v)
{
    /* The magnitude bits of v, with one more needed for the sign. */
    uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
    size_t n = 1;
    while (u >= 0x80) {
        u >>= 8;
        n++;
    }
    return n;
}

/*
 * spec §Decimal: a decimal on bytes is the unscaled value as big-endian two's
 * complement; it is written in the fewest bytes that hold it.
 */
static inline uint8_t *avrogen_put_decimal_int64(uint8_t *p, int64_t v)
{
    size_t n = avrogen_decimal_len(v);
    *p++ = (uint8_t)(2 * n); /* the length, 1 to 8: a one-byte varint */
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((uint64_t)v >> (8 * (n - 1 - i)));
    return p + n;
}

static inline void avrogen_write_decimal_int64(avrogen_writer *w, int64_t v)
{
    if (avrogen_writer_reserve(w, 1 + avrogen_decimal_len(v)))
        w->p = avrogen_put_decimal_int64(w->p, v);
}

static inline size_t avrogen_size_decimal_int64(int64_t v)
{
    return 1 + avrogen_decimal_len(v);
}

/* An unsigned unscaled value: above INT64_MAX it takes a leading 0 byte (9 bytes). */
static inline uint8_t *avrogen_put_decimal_uint64(uint8_t *p, uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return avrogen_put_decimal_int64(p, (int64_t)v);
    *p++ = 18; /* 9 bytes */
    *p++ = 0;
    for (size_t i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * (7 - i)));
    return p + 8;
}

static inline size_t avrogen_size_decimal_uint64(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? avrogen_size_decimal_int64((int64_t)v) : 10;
}

static inline void avrogen_write_decimal_uint64(avrogen_writer *w, uint64_t v)
{
    if (avrogen_writer_reserve(w, avrogen_size_decimal_uint64(v)))
        w->p = avrogen_put_decimal_uint64(w->p, v);
}

/* ---- decoding helpers of generated code (emit_c) ---------------------------- */

/*
 * `size` bytes from the arena for decoded data; NULL with the error recorded
 * on r: E_LIMIT past the arena's budget, E_NOMEM when its allocator fails.
 */
static inline void *avrogen_reader_alloc(avrogen_reader *r, avrogen_arena *a, size_t size)
{
    void *p = avrogen_arena_alloc(a, size);
    if (AVROGEN_UNLIKELY(p == NULL)) {
        size_t rounded = (size + (AVROGEN_ARENA_ALIGN - 1)) & ~(size_t)(AVROGEN_ARENA_ALIGN - 1);
        if (rounded < size || rounded > a->budget - a->used)
            avrogen_reader_fail(r, AVROGEN_E_LIMIT, "arena budget exhausted");
        else
            avrogen_reader_fail(r, AVROGEN_E_NOMEM, "out of memory");
    }
    return p;
}

/* An int stored in a narrower C type: a value outside its range is E_INVALID. */
static inline int32_t avrogen_read_int_range(avrogen_reader *r, int32_t min, int32_t max)
{
    int32_t v = avrogen_read_int(r);
    if (AVROGEN_LIKELY(v >= min && v <= max))
        return v;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "int out of range of its C type");
    return 0;
}

static inline int8_t avrogen_read_int8(avrogen_reader *r)
{
    return (int8_t)avrogen_read_int_range(r, INT8_MIN, INT8_MAX);
}

static inline int16_t avrogen_read_int16(avrogen_reader *r)
{
    return (int16_t)avrogen_read_int_range(r, INT16_MIN, INT16_MAX);
}

static inline uint8_t avrogen_read_uint8(avrogen_reader *r)
{
    return (uint8_t)avrogen_read_int_range(r, 0, UINT8_MAX);
}

static inline uint16_t avrogen_read_uint16(avrogen_reader *r)
{
    return (uint16_t)avrogen_read_int_range(r, 0, UINT16_MAX);
}

/* A long stored in a uint32_t: a value outside 0..UINT32_MAX is E_INVALID. */
static inline uint32_t avrogen_read_uint32(avrogen_reader *r)
{
    int64_t v = avrogen_read_long(r);
    if (AVROGEN_LIKELY(v >= 0 && v <= (int64_t)UINT32_MAX))
        return (uint32_t)v;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "long out of range of uint32_t");
    return 0;
}

/*
 * The bytes of a decimal as big-endian two's complement, sign-extended into
 * 64 bits. Redundant sign bytes are accepted (other writers need not be
 * minimal); a value that does not fit is E_INVALID. No bytes reads as 0.
 */
static inline int64_t avrogen_read_decimal_int64(avrogen_reader *r)
{
    size_t n = avrogen_read_len(r);
    const uint8_t *p = r->p;
    r->p += n;
    while (n > 8 && (p[0] == 0x00 || p[0] == 0xff) && (p[0] & 0x80) == (p[1] & 0x80)) {
        p++;
        n--;
    }
    if (AVROGEN_UNLIKELY(n > 8)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "decimal does not fit in 64 bits");
        return 0;
    }
    uint64_t u = n != 0 && (p[0] & 0x80) ? UINT64_MAX : 0;
    for (size_t i = 0; i < n; i++)
        u = u << 8 | p[i];
    return (int64_t)u;
}

/* The same into a uint64_t: a negative value is E_INVALID. */
static inline uint64_t avrogen_read_decimal_uint64(avrogen_reader *r)
{
    size_t n = avrogen_read_len(r);
    const uint8_t *p = r->p;
    r->p += n;
    if (AVROGEN_UNLIKELY(n != 0 && (p[0] & 0x80))) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "negative decimal in an unsigned field");
        return 0;
    }
    while (n > 8 && p[0] == 0x00) {
        p++;
        n--;
    }
    if (AVROGEN_UNLIKELY(n > 8)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "decimal does not fit in 64 bits");
        return 0;
    }
    uint64_t u = 0;
    for (size_t i = 0; i < n; i++)
        u = u << 8 | p[i];
    return u;
}

/*
 * How many leading bytes of s[0, len) are known to be ASCII: len when no byte
 * has its high bit set, else a multiple of 32 at or before the first that has.
 * ASCII, the common case, needs no UTF-8 validation, and where some byte is
 * not ASCII, the bytes before the result are, so it is a character boundary
 * from which the validator can take over. Steps of 32 bytes, four words OR'd,
 * cost one branch each; the rest goes 8 bytes at a time, the last word
 * overlapping the one before. Reads only s[0, len).
 */
static inline size_t avrogen_ascii_prefix(const uint8_t *s, size_t len)
{
    const uint64_t high = UINT64_C(0x8080808080808080);
    uint64_t w0, w1, w2, w3;
    size_t i = 0;
    for (; len - i >= 32; i += 32) {
        memcpy(&w0, s + i, 8);
        memcpy(&w1, s + i + 8, 8);
        memcpy(&w2, s + i + 16, 8);
        memcpy(&w3, s + i + 24, 8);
        if ((w0 | w1 | w2 | w3) & high)
            return i;
    }
    uint64_t acc = 0;
    if (len >= 8) {
        for (size_t k = i; k + 8 < len; k += 8) {
            memcpy(&w0, s + k, 8);
            acc |= w0;
        }
        memcpy(&w0, s + len - 8, 8);
        acc |= w0;
    } else if (len >= 4) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + len - 4, 4);
        acc = (uint64_t)(head | tail);
    } else if (len != 0) {
        acc = (uint64_t)(s[0] | s[len / 2] | s[len - 1]);
    }
    return (acc & high) != 0 ? i : len;
}

/* A word's bytes each NUL or not ASCII: their high bits. Exact in that it is
 * zero only when every byte is in 0x01..0x7F (a borrow out of a NUL byte can
 * mark the bytes above it, which does not matter: the word is marked anyway). */
static inline uint64_t avrogen_unplain64(uint64_t w)
{
    return (w | (w - UINT64_C(0x0101010101010101))) & UINT64_C(0x8080808080808080);
}

/*
 * avrogen_ascii_prefix for text bound for a C string: how many leading bytes
 * of s[0, len) are known to be in 0x01..0x7F (ASCII without NUL): len, or a
 * multiple of 32 at or before the first byte that is not. One pass finds both
 * what needs UTF-8 validation and a NUL the C string could not hold.
 */
static inline size_t avrogen_plain_prefix(const uint8_t *s, size_t len)
{
    uint64_t w0, w1, w2, w3;
    size_t i = 0;
    for (; len - i >= 32; i += 32) {
        memcpy(&w0, s + i, 8);
        memcpy(&w1, s + i + 8, 8);
        memcpy(&w2, s + i + 16, 8);
        memcpy(&w3, s + i + 24, 8);
        if (avrogen_unplain64(w0) | avrogen_unplain64(w1) | avrogen_unplain64(w2) |
            avrogen_unplain64(w3))
            return i;
    }
    uint64_t bad = 0;
    if (len - i >= 8) {
        for (size_t k = i; k + 8 < len; k += 8) {
            memcpy(&w0, s + k, 8);
            bad |= avrogen_unplain64(w0);
        }
        memcpy(&w0, s + len - 8, 8);
        bad |= avrogen_unplain64(w0);
    } else {
        for (size_t k = i; k < len; k++)
            bad |= (uint64_t)(s[k] == 0 || s[k] >= 0x80);
    }
    return bad != 0 ? i : len;
}

/* True when none of the `len` bytes at s has its high bit set. */
static inline bool avrogen_ascii(const uint8_t *s, size_t len)
{
    return avrogen_ascii_prefix(s, len) == len;
}

/*
 * avrogen_read_string with an ASCII test ahead of the UTF-8 validator, which
 * then only checks the string from the first 32-byte step that is not ASCII.
 */
static inline avrogen_str avrogen_read_text(avrogen_reader *r)
{
    avrogen_str s;
    s.len = avrogen_read_len(r);
    s.ptr = (const char *)r->p;
    if (r->check_utf8) {
        size_t ascii = avrogen_ascii_prefix(r->p, s.len);
        if (AVROGEN_UNLIKELY(ascii != s.len) && !avrogen_utf8_valid(r->p + ascii, s.len - ascii)) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
            s.len = 0;
            return s;
        }
    }
    r->p += s.len;
    return s;
}

/*
 * A string copied into the arena and NUL-terminated; NULL after an error.
 *
 * The copy takes whole 16-byte blocks: the arena hands out multiples of
 * AVROGEN_ARENA_ALIGN (16) bytes, so asking for len + 1 rounded up to 16
 * costs it nothing more, and a string of up to 31 bytes then takes one or two
 * fixed-size moves instead of a call to memcpy. The bytes copied past the
 * string are the input's own (the next values), never past its end, and land
 * in the string's allocation after the NUL.
 */
/*
 * A string bound for a NUL-terminated C string (char *, char[N]): valid UTF-8
 * as avrogen_read_text checks it, and holding no NUL byte, which the C string
 * would silently cut the value at. Avro allows U+0000, so a NUL is E_INVALID
 * with its own reason, at the string's first byte; avrogen_str views take
 * such strings whole. The common all-ASCII string costs one pass for both.
 */
AVROGEN_API bool avrogen_ctext_check(avrogen_reader *r, avrogen_str s, size_t plain);

static inline avrogen_str avrogen_read_ctext(avrogen_reader *r)
{
    avrogen_str s;
    s.len = avrogen_read_len(r);
    s.ptr = (const char *)r->p;
    size_t plain = avrogen_plain_prefix(r->p, s.len);
    if (AVROGEN_UNLIKELY(plain != s.len) && !avrogen_ctext_check(r, s, plain)) {
        s.len = 0;
        return s;
    }
    r->p += s.len;
    return s;
}

static inline char *avrogen_read_cstring(avrogen_reader *r, avrogen_arena *a)
{
    avrogen_str s = avrogen_read_ctext(r);
    if (AVROGEN_UNLIKELY(r->err != AVROGEN_OK))
        return NULL;
    size_t size = (s.len + 16) & ~(size_t)15; /* >= s.len + 1; s.len fits in the input */
    char *p = (char *)avrogen_reader_alloc(r, a, size);
    if (p != NULL) {
        if (size <= 32 && size <= (size_t)(r->end - (const uint8_t *)s.ptr)) {
            memcpy(p, s.ptr, 16);
            if (size > 16)
                memcpy(p + 16, s.ptr + 16, 16);
        } else {
            memcpy(p, s.ptr, s.len);
        }
        p[s.len] = '\0';
    }
    return p;
}

/* A string into char[cap], NUL-terminated; more than cap - 1 bytes is E_INVALID. */
static inline void avrogen_read_chars(avrogen_reader *r, char *dst, size_t cap)
{
    avrogen_str s = avrogen_read_ctext(r);
    if (AVROGEN_LIKELY(s.len < cap)) {
        avrogen_copy(dst, s.ptr, s.len);
        dst[s.len] = '\0';
        return;
    }
    dst[0] = '\0';
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "string longer than its char array");
}

/* A bytes value copied into the arena; *len receives its length. NULL after an error. */
static inline void *avrogen_read_bytes_copy(avrogen_reader *r, avrogen_arena *a, size_t *len)
{
    avrogen_bytes b = avrogen_read_bytes(r);
    *len = 0;
    if (AVROGEN_UNLIKELY(r->err != AVROGEN_OK))
        return NULL;
    void *p = avrogen_reader_alloc(r, a, b.len);
    if (p != NULL) {
        avrogen_copy(p, b.ptr, b.len);
        *len = b.len;
    }
    return p;
}

/* A decoded count stored in a narrower count member: above `max` is E_INVALID. */
static inline size_t avrogen_read_count(avrogen_reader *r, size_t n, uint64_t max)
{
    if (AVROGEN_LIKELY((uint64_t)n <= max))
        return n;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "more items than the count member can hold");
    return 0;
}

/*
 * spec §Unions: the branch index, an int. Returns it if it is below n, else -1
 * with E_INVALID recorded; -1 as well once the reader has failed.
 */
static inline int32_t avrogen_read_branch(avrogen_reader *r, uint32_t n)
{
    int32_t i = avrogen_read_int(r);
    if (AVROGEN_LIKELY((uint32_t)i < n && r->err == AVROGEN_OK))
        return i;
    if (r->err == AVROGEN_OK)
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "union index out of range");
    return -1;
}

/* spec §Enums: the symbol index, an int. Below n, else 0 with E_INVALID recorded. */
static inline uint32_t avrogen_read_symbol(avrogen_reader *r, uint32_t n)
{
    int32_t i = avrogen_read_int(r);
    if (AVROGEN_LIKELY((uint32_t)i < n))
        return (uint32_t)i;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
    return 0;
}

/*
 * Make room for a block of `block` items of `size` bytes after the `count`
 * already at `items` (room for *cap): the array and map step of generated
 * decoders. Items take at least `min_bytes` of input each (0 when they may take
 * none, then the item budget alone bounds them), so a block the rest of the
 * input cannot hold is E_TRUNCATED before anything is allocated. The first
 * block is allocated exactly; later ones double the room, but never past what
 * the remaining input could still hold. Returns the items (moved if need be),
 * or NULL with the error recorded on r.
 */
static inline void *avrogen_read_grow(avrogen_reader *r, avrogen_arena *a, void *items,
                                      size_t count, size_t *cap, size_t block, size_t size,
                                      size_t min_bytes)
{
    size_t left = avrogen_reader_remaining(r);
    if (AVROGEN_UNLIKELY(min_bytes != 0 && block > left / min_bytes)) {
        avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "block count runs past the end of the input");
        return NULL;
    }
    size_t need;
    if (AVROGEN_UNLIKELY(!avrogen_size_add(count, block, &need))) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "too many items");
        return NULL;
    }
    if (need <= *cap)
        return items;
    size_t want = need;
    if (count != 0) {
        want = *cap <= SIZE_MAX / 2 ? *cap * 2 : SIZE_MAX;
        if (want < need)
            want = need;
        size_t limit;
        if (min_bytes != 0 && avrogen_size_add(need, left / min_bytes, &limit) && want > limit)
            want = limit;
    }
    size_t bytes;
    if (AVROGEN_UNLIKELY(!avrogen_size_mul(want, size, &bytes))) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "array too large");
        return NULL;
    }
    void *p = avrogen_reader_alloc(r, a, bytes);
    if (p == NULL)
        return NULL;
    if (count != 0)
        memcpy(p, items, count * size);
    *cap = want;
    return p;
}

/*
 * The next block of an array stored in T[n], of which `done` items are read:
 * its item count, 0 at the end (*end as for avrogen_read_block). An array with more or fewer than n
 * items in all is E_INVALID.
 */
static inline size_t avrogen_read_exact_block(avrogen_reader *r, const uint8_t **end, size_t done,
                                              size_t n)
{
    size_t block = avrogen_read_block(r, end);
    if (block == 0) {
        if (done != n && r->err == AVROGEN_OK)
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "fewer array items than its C array holds");
        return 0;
    }
    if (AVROGEN_UNLIKELY(block > n - done)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "more array items than its C array holds");
        return 0;
    }
    return block;
}

/*
 * Bulk varints (runtime/src/varint.c): up to n longs (ints) from *pp into dst,
 * each starting at least 10 (8) bytes before end, as avrogen_get_varint(32)
 * decodes them; they stop before a varint that is too long and return how many
 * they decoded, *pp moved past them. One implementation is chosen per call
 * from what the CPU offers (BMI2 on x86-64, else shifts and masks).
 */
AVROGEN_API size_t avrogen_get_longs(const uint8_t **pp, const uint8_t *end, int64_t *dst,
                                     size_t n);
AVROGEN_API size_t avrogen_get_ints(const uint8_t **pp, const uint8_t *end, int32_t *dst, size_t n);

/*
 * `n` longs (ints) as the items of an array into dst: in bulk while the input
 * holds the longest encoding of the next item, then one checked item (which
 * reports a varint that is too long, or the end of the input), and so on.
 */
static inline void avrogen_read_longs(avrogen_reader *r, int64_t *dst, size_t n)
{
    size_t i = 0;
    while (i < n && r->err == AVROGEN_OK) {
        if (n - i >= AVROGEN_BULK_MIN)
            i += avrogen_get_longs(&r->p, r->end, dst + i, n - i);
        if (i < n)
            dst[i++] = avrogen_read_long(r);
    }
}

static inline void avrogen_read_ints(avrogen_reader *r, int32_t *dst, size_t n)
{
    size_t i = 0;
    while (i < n && r->err == AVROGEN_OK) {
        if (n - i >= AVROGEN_BULK_MIN)
            i += avrogen_get_ints(&r->p, r->end, dst + i, n - i);
        if (i < n)
            dst[i++] = avrogen_read_int(r);
    }
}

/* `n` doubles (floats) back to back into dst: one bounds check. Zeros on error. */
static inline void avrogen_read_doubles(avrogen_reader *r, double *dst, size_t n)
{
    if (AVROGEN_LIKELY(n <= avrogen_reader_remaining(r) / 8)) {
#if AVROGEN_LITTLE_ENDIAN
        memcpy(dst, r->p, n * 8);
        r->p += n * 8;
#else
        for (size_t i = 0; i < n; i++)
            dst[i] = avrogen_read_double(r);
#endif
        return;
    }
    memset(dst, 0, n * sizeof *dst);
    avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a double");
}

static inline void avrogen_read_floats(avrogen_reader *r, float *dst, size_t n)
{
    if (AVROGEN_LIKELY(n <= avrogen_reader_remaining(r) / 4)) {
#if AVROGEN_LITTLE_ENDIAN
        memcpy(dst, r->p, n * 4);
        r->p += n * 4;
#else
        for (size_t i = 0; i < n; i++)
            dst[i] = avrogen_read_float(r);
#endif
        return;
    }
    memset(dst, 0, n * sizeof *dst);
    avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a float");
}

/* ---- C shapes: integers Avro's long holds in part --------------------------------
 *
 * Generated code passes these a message naming the member (a string literal),
 * kept as the stream's err_msg when the value is refused.
 */

/* A uint64_t (size_t, unsigned long, ...) as a long: a value above INT64_MAX
 * is E_ARG with `msg`; the bits are never reinterpreted. */
static inline void avrogen_write_u64(avrogen_writer *w, uint64_t v, const char *msg)
{
    if (AVROGEN_LIKELY(v <= (uint64_t)INT64_MAX))
        avrogen_write_long(w, (int64_t)v);
    else
        avrogen_writer_fail_msg(w, AVROGEN_E_ARG, msg);
}

/* The same check ahead of a run: v as a long, or 0 with the error recorded. */
static inline int64_t avrogen_writer_u64(avrogen_writer *w, uint64_t v, const char *msg)
{
    if (AVROGEN_LIKELY(v <= (uint64_t)INT64_MAX))
        return (int64_t)v;
    avrogen_writer_fail_msg(w, AVROGEN_E_ARG, msg);
    return 0;
}

/* A long stored in a uint64_t: a negative long is E_INVALID with `msg`. */
static inline uint64_t avrogen_read_u64(avrogen_reader *r, const char *msg)
{
    int64_t v = avrogen_read_long(r);
    if (AVROGEN_LIKELY(v >= 0))
        return (uint64_t)v;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, msg);
    return 0;
}

/* A long stored in a 32-bit signed type (a long on ILP32): outside its range is E_INVALID. */
static inline int32_t avrogen_read_long_int32(avrogen_reader *r)
{
    int64_t v = avrogen_read_long(r);
    if (AVROGEN_LIKELY(v >= INT32_MIN && v <= INT32_MAX))
        return (int32_t)v;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "long out of range of its 32-bit C type");
    return 0;
}

/* ---- C shapes: instants -----------------------------------------------------------
 *
 * struct timespec, struct timeval and time_t as timestamp longs. An instant is
 * `sec` seconds plus `frac` units of 1/frac_per_sec seconds (1: no fraction,
 * 10^6 for tv_usec, 10^9 for tv_nsec); the long counts units of
 * 1/units_per_sec seconds (10^3, 10^6 or 10^9, from the logical type). Both
 * are powers of ten, so one divides the other.
 */

/* The instant as a long of its unit, floored when the unit is coarser than the
 * fraction (spec: a timestamp is a count of units), into *out; false when it
 * does not fit an int64. frac need not be normalised: any sec + frac/F. */
static inline bool avrogen_time_to_units(int64_t sec, int64_t frac, int64_t frac_per_sec,
                                         int64_t units_per_sec, int64_t *out)
{
    int64_t q = frac / frac_per_sec, f = frac % frac_per_sec;
    if (f < 0) {
        f += frac_per_sec;
        q--;
    }
    if ((q > 0 && sec > INT64_MAX - q) || (q < 0 && sec < INT64_MIN - q))
        return false;
    sec += q;
    /* 0 <= r < units_per_sec: the fraction in the unit, floored. */
    int64_t r = units_per_sec >= frac_per_sec ? f * (units_per_sec / frac_per_sec)
                                              : f / (frac_per_sec / units_per_sec);
    const int64_t u = units_per_sec;
    if (sec >= 0) {
        if (sec > (INT64_MAX - r) / u)
            return false;
        *out = sec * u + r;
    } else if (sec >= INT64_MIN / u) {
        *out = sec * u + r;
    } else if (sec == INT64_MIN / u - 1 && r >= u + INT64_MIN % u) {
        /* (INT64_MIN / u - 1) * u is below INT64_MIN, but adding r comes back. */
        *out = INT64_MIN + (r - (u + INT64_MIN % u));
    } else {
        return false;
    }
    return true;
}

/* The seconds of long v of units_per_sec (floored, also before 1970), its
 * fraction normalised into 0 <= *frac < frac_per_sec (frac may be NULL). */
static inline int64_t avrogen_time_split(int64_t v, int64_t frac_per_sec, int64_t units_per_sec,
                                         int64_t *frac)
{
    int64_t sec = v / units_per_sec, r = v % units_per_sec;
    if (r < 0) {
        r += units_per_sec;
        sec--;
    }
    if (frac != NULL)
        *frac = units_per_sec >= frac_per_sec ? r / (units_per_sec / frac_per_sec)
                                              : r * (frac_per_sec / units_per_sec);
    return sec;
}

/* Write the instant; one that does not fit the unit is E_ARG with `msg`. */
static inline void avrogen_write_time(avrogen_writer *w, int64_t sec, int64_t frac,
                                      int64_t frac_per_sec, int64_t units_per_sec, const char *msg)
{
    int64_t v;
    if (AVROGEN_LIKELY(avrogen_time_to_units(sec, frac, frac_per_sec, units_per_sec, &v)))
        avrogen_write_long(w, v);
    else
        avrogen_writer_fail_msg(w, AVROGEN_E_ARG, msg);
}

/* The same check ahead of a run: the long, or 0 with the error recorded. */
static inline int64_t avrogen_writer_time(avrogen_writer *w, int64_t sec, int64_t frac,
                                          int64_t frac_per_sec, int64_t units_per_sec,
                                          const char *msg)
{
    int64_t v;
    if (AVROGEN_LIKELY(avrogen_time_to_units(sec, frac, frac_per_sec, units_per_sec, &v)))
        return v;
    avrogen_writer_fail_msg(w, AVROGEN_E_ARG, msg);
    return 0;
}

/* Encoded size of the instant (of 0 when it does not fit: encode refuses it). */
static inline size_t avrogen_size_time(int64_t sec, int64_t frac, int64_t frac_per_sec,
                                       int64_t units_per_sec)
{
    int64_t v = 0;
    if (!avrogen_time_to_units(sec, frac, frac_per_sec, units_per_sec, &v))
        v = 0;
    return avrogen_size_long(v);
}

/* v for a member that holds lo..hi (32-bit seconds): outside is E_INVALID with msg. */
static inline int64_t avrogen_read_check(avrogen_reader *r, int64_t v, int64_t lo, int64_t hi,
                                         const char *msg)
{
    if (AVROGEN_LIKELY(v >= lo && v <= hi))
        return v;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, msg);
    return 0;
}

/* ---- C shapes: counted and padded storage ------------------------------------------
 *
 * T items[cap] with a count member (AVRO_ARRAY, AVRO_BYTES, AVRO_STRING on a C
 * array): the first n items; a pointer and a length (AVRO_STRING on char *);
 * NUL-padded text in char[cap] (AVRO_PADDED).
 */

/* The count n of a C array of capacity cap: n when 0 <= n <= cap, 0 otherwise. */
static inline size_t avrogen_cap_count(int64_t n, size_t cap)
{
    return n >= 0 && (uint64_t)n <= (uint64_t)cap ? (size_t)n : 0;
}

/* The same, checked: outside 0..cap is E_ARG with `msg` (and 0). */
static inline size_t avrogen_write_cap_count(avrogen_writer *w, int64_t n, size_t cap,
                                             const char *msg)
{
    if (AVROGEN_LIKELY(n >= 0 && (uint64_t)n <= (uint64_t)cap))
        return (size_t)n;
    avrogen_writer_fail_msg(w, AVROGEN_E_ARG, msg);
    return 0;
}

/* Start the array of the first n items of a C array of capacity cap: checks n,
 * writes the block count unless it is 0 and returns the items to write (0
 * after an error). The caller writes them and the 0 block that ends it. */
static inline size_t avrogen_write_cap_start(avrogen_writer *w, int64_t n, size_t cap,
                                             const char *msg)
{
    size_t count = avrogen_write_cap_count(w, n, cap, msg);
    if (count != 0)
        avrogen_write_block_count(w, count);
    return count;
}

/* The first n bytes of data[cap] as a bytes or string value. */
static inline void avrogen_write_cap_bytes(avrogen_writer *w, const void *data, int64_t n,
                                           size_t cap, const char *msg)
{
    size_t len = avrogen_write_cap_count(w, n, cap, msg);
    if (w->err == AVROGEN_OK)
        avrogen_write_bytes(w, data, len);
}

/* The text of a flexible char array: data[0 .. n) up to its first NUL (n is
 * checked against cap as above; inotify_event's len counts NUL padding). */
static inline void avrogen_write_cap_chars(avrogen_writer *w, const char *data, int64_t n,
                                           size_t cap, const char *msg)
{
    size_t len = avrogen_write_cap_count(w, n, cap, msg);
    if (w->err == AVROGEN_OK)
        avrogen_write_string(w, data, avrogen_chars_len(data, len));
}

/*
 * The next block of an array read into a C array of capacity cap, of which
 * `done` items are read: its item count, 0 at the end (*end as for
 * avrogen_read_block). More than cap items in
 * all is E_LIMIT with `msg`, before any of them is stored.
 */
static inline size_t avrogen_read_cap_block(avrogen_reader *r, const uint8_t **end, size_t done,
                                            size_t cap, const char *msg)
{
    size_t block = avrogen_read_block(r, end);
    if (AVROGEN_UNLIKELY(block > cap - done)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, msg);
        return 0;
    }
    return block;
}

/* A bytes value into dst[cap]: its length. More than cap bytes is E_LIMIT with
 * `msg`, and nothing is written. */
static inline size_t avrogen_read_cap_bytes(avrogen_reader *r, void *dst, size_t cap,
                                            const char *msg)
{
    avrogen_bytes b = avrogen_read_bytes(r);
    if (AVROGEN_UNLIKELY(b.len > cap)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, msg);
        return 0;
    }
    avrogen_copy(dst, b.ptr, b.len);
    return b.len;
}

/* A string (UTF-8 checked; NUL bytes are text too, the length says where it
 * ends) into dst[cap]: its length; more than cap bytes is E_LIMIT with `msg`.
 * A NUL follows it when there is room (a flexible char array is then a C
 * string, as the kernel gives inotify_event's name). */
static inline size_t avrogen_read_cap_text(avrogen_reader *r, char *dst, size_t cap,
                                           const char *msg)
{
    avrogen_str s = avrogen_read_text(r);
    if (AVROGEN_UNLIKELY(s.len > cap)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, msg);
        return 0;
    }
    avrogen_copy(dst, s.ptr, s.len);
    if (s.len < cap)
        dst[s.len] = '\0';
    return s.len;
}

/* A string copied into the arena, not NUL-terminated (a pointer and a length):
 * *len receives its length. NULL after an error. */
static inline char *avrogen_read_text_copy(avrogen_reader *r, avrogen_arena *a, size_t *len)
{
    avrogen_str s = avrogen_read_text(r);
    *len = 0;
    if (AVROGEN_UNLIKELY(r->err != AVROGEN_OK))
        return NULL;
    char *p = (char *)avrogen_reader_alloc(r, a, s.len);
    if (p != NULL) {
        avrogen_copy(p, s.ptr, s.len);
        *len = s.len;
    }
    return p;
}

/* NUL-padded text in char[cap]: up to its first NUL, or all cap bytes. */
static inline void avrogen_write_padded(avrogen_writer *w, const char *s, size_t cap)
{
    avrogen_write_string(w, s, avrogen_chars_len(s, cap));
}

/* A string into char[cap], NUL-padded to the end. More than cap bytes is
 * E_INVALID with `msg`; a NUL byte (the padding could not tell it from the
 * end) is E_INVALID as for char[N]. dst is all NUL after an error. */
static inline void avrogen_read_padded(avrogen_reader *r, char *dst, size_t cap, const char *msg)
{
    avrogen_str s = avrogen_read_ctext(r);
    if (AVROGEN_LIKELY(s.len <= cap)) {
        avrogen_copy(dst, s.ptr, s.len);
        memset(dst + s.len, 0, cap - s.len);
        return;
    }
    memset(dst, 0, cap);
    avrogen_reader_fail(r, AVROGEN_E_INVALID, msg);
}

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_GENCODE_H */
