/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Speed of light for the Order workload: struct order encoded and decoded by
 * hand, as fast as we know how while keeping every check generated code makes.
 * It is the yardstick the generated code is measured against (target: within
 * 1.15x in instructions per record), so it must stay honest: same struct, same
 * arena, same error semantics; it only knows the schema statically.
 *
 * What it does beyond gencode.h's one-primitive-at-a-time calls:
 *  - encode: one capacity check per record (a worst-case bound computed with
 *    the string lengths, which are cached for the write), then stores through
 *    a local pointer with no further checks;
 *  - decode: a local cursor held in a register, one bounds check for the 64
 *    counters, an inline ASCII test ahead of the out-of-line UTF-8 validator,
 *    no depth accounting (the schema is not recursive: its depth is 3).
 * The slow paths fall back to the gencode.h primitives. Word-at-a-time (SWAR)
 * varints were tried and lost on this data, in instructions and in time: the
 * byte loop's exits are predicted, the 64-bit masks cost an instruction each.
 */
#include "sol_order.h"

#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SOL_LITTLE_ENDIAN 1
#else
#define SOL_LITTLE_ENDIAN 0
#endif

/* ---- encode ------------------------------------------------------------------ */

/* Strings whose lengths the fast path caches; orders with more take the slow path. */
#define SOL_MAX_STRINGS 32

/* Worst-case bytes of each piece, string bodies excluded. */
enum {
    HEAD_MAX = 10 + 10 + 8 + 5 + 1 + 1 + 10, /* id, customer len, total, priority, paid, note */
    LINE_MAX = 10 + 10 + 5 + 8,              /* sku, name len, quantity, price */
    TAG_MAX = 10 + 10,                       /* key len, value */
    BLOCK_MAX = 10 + 1                       /* item count, terminator */
};

static inline uint8_t *put_varint(uint8_t *p, uint64_t u)
{
    while (u >= 0x80) {
        *p++ = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    *p++ = (uint8_t)u;
    return p;
}

static inline uint8_t *put_long(uint8_t *p, int64_t v)
{
    return put_varint(p, avrogen_zigzag_encode(v));
}

static inline uint8_t *put_double(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
#if !SOL_LITTLE_ENDIAN
    u = __builtin_bswap64(u);
#endif
    memcpy(p, &u, sizeof u);
    return p + 8;
}

static inline uint8_t *put_string(uint8_t *p, const char *s, size_t len)
{
    p = put_long(p, (int64_t)len);
    memcpy(p, s, len);
    return p + len;
}

/* The plain encoder, one checked primitive per value: writers short of the
 * worst case, and orders with more strings than the fast path caches. */
static avrogen_status encode_checked(avrogen_writer *w, const order_t *o)
{
    avrogen_write_long(w, o->id);
    avrogen_write_string(w, o->customer, strlen(o->customer));
    avrogen_write_double(w, o->total);
    avrogen_write_int(w, o->priority);
    avrogen_write_bool(w, o->paid);
    if (o->note != NULL) {
        avrogen_write_long(w, 1);
        avrogen_write_string(w, o->note, strlen(o->note));
    } else {
        avrogen_write_long(w, 0);
    }
    if (o->n_lines != 0) {
        avrogen_write_block_count(w, o->n_lines);
        for (size_t i = 0; i < o->n_lines; i++) {
            const struct line *l = &o->lines[i];
            avrogen_write_long(w, l->sku);
            avrogen_write_string(w, l->name, strlen(l->name));
            avrogen_write_int(w, l->quantity);
            avrogen_write_double(w, l->price);
        }
    }
    avrogen_write_block_count(w, 0);
    avrogen_write_block_count(w, ORDER_N_COUNTERS);
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        avrogen_write_long(w, o->counters[i]);
    avrogen_write_block_count(w, 0);
    if (o->n_tags != 0) {
        avrogen_write_block_count(w, o->n_tags);
        for (size_t i = 0; i < o->n_tags; i++) {
            avrogen_write_string(w, o->tags[i].key, strlen(o->tags[i].key));
            avrogen_write_long(w, o->tags[i].value);
        }
    }
    avrogen_write_block_count(w, 0);
    return w->err;
}

avrogen_status sol_order_encode(avrogen_writer *w, const order_t *o)
{
    size_t lens[SOL_MAX_STRINGS];
    if (w->err != AVROGEN_OK)
        return w->err;
    if (o->n_lines > SOL_MAX_STRINGS - 2 || o->n_tags > SOL_MAX_STRINGS - 2 - o->n_lines)
        return encode_checked(w, o);

    size_t k = 0;
    size_t bound = HEAD_MAX + 3 * BLOCK_MAX + 10 * ORDER_N_COUNTERS + o->n_lines * LINE_MAX +
                   o->n_tags * TAG_MAX;
    bound += lens[k++] = strlen(o->customer);
    bound += lens[k++] = o->note != NULL ? strlen(o->note) : 0;
    for (size_t i = 0; i < o->n_lines; i++)
        bound += lens[k++] = strlen(o->lines[i].name);
    for (size_t i = 0; i < o->n_tags; i++)
        bound += lens[k++] = strlen(o->tags[i].key);
    if ((size_t)(w->end - w->p) < bound) {
        /* A fixed buffer short of the worst case may still hold the real thing. */
        if (!w->growable)
            return encode_checked(w, o);
        if (!avrogen_writer_reserve(w, bound))
            return w->err;
    }

    uint8_t *p = w->p;
    k = 0;
    p = put_long(p, o->id);
    p = put_string(p, o->customer, lens[k++]);
    p = put_double(p, o->total);
    p = put_long(p, o->priority);
    *p++ = o->paid ? 1 : 0;
    if (o->note != NULL) {
        *p++ = 2; /* branch 1, zigzag */
        p = put_string(p, o->note, lens[k]);
    } else {
        *p++ = 0;
    }
    k++;
    if (o->n_lines != 0) {
        p = put_long(p, (int64_t)o->n_lines);
        for (size_t i = 0; i < o->n_lines; i++) {
            const struct line *l = &o->lines[i];
            p = put_long(p, l->sku);
            p = put_string(p, l->name, lens[k++]);
            p = put_long(p, l->quantity);
            p = put_double(p, l->price);
        }
    }
    *p++ = 0;
    p = put_long(p, ORDER_N_COUNTERS);
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        p = put_long(p, o->counters[i]);
    *p++ = 0;
    if (o->n_tags != 0) {
        p = put_long(p, (int64_t)o->n_tags);
        for (size_t i = 0; i < o->n_tags; i++) {
            p = put_string(p, o->tags[i].key, lens[k++]);
            p = put_long(p, o->tags[i].value);
        }
    }
    *p++ = 0;
    w->p = p;
    return AVROGEN_OK;
}

/* ---- decode ------------------------------------------------------------------ */

/*
 * The cursor `*pp` lives in a register; r->p is brought up to date only around
 * the out-of-line slow paths, which record errors. After an error r->p is
 * r->end, so every later read takes the slow path, returns 0 and moves nothing.
 */

static inline avrogen_status fail_at(avrogen_reader *r, const uint8_t **pp, avrogen_status s,
                                     const char *msg)
{
    r->p = *pp;
    avrogen_reader_fail(r, s, msg);
    *pp = r->p;
    return r->err;
}

static inline int64_t get_long_slow(avrogen_reader *r, const uint8_t **pp, unsigned max_bytes)
{
    r->p = *pp;
    int64_t v = avrogen_read_varint_slow(r, max_bytes);
    *pp = r->p;
    return v;
}

static inline int64_t get_long(avrogen_reader *r, const uint8_t **pp)
{
    if (AVROGEN_LIKELY(r->end - *pp >= 10)) {
        uint64_t u;
        const uint8_t *p = sol_varint10(*pp, &u);
        if (AVROGEN_LIKELY(p != NULL)) {
            *pp = p;
            return avrogen_zigzag_decode(u);
        }
    }
    return get_long_slow(r, pp, 10);
}

static inline int32_t get_int(avrogen_reader *r, const uint8_t **pp)
{
    const uint8_t *p = *pp;
    if (AVROGEN_LIKELY(r->end - p >= 5)) {
        uint32_t b = *p++;
        if (AVROGEN_LIKELY(b < 0x80)) {
            *pp = p;
            return (int32_t)avrogen_zigzag_decode(b);
        }
        uint32_t u = b & 0x7f;
        SOL_UNROLL
        for (unsigned shift = 7; shift < 28; shift += 7) {
            b = *p++;
            u |= (b & 0x7f) << shift;
            if (b < 0x80) {
                *pp = p;
                return (int32_t)avrogen_zigzag_decode(u);
            }
        }
        if (*p <= 0x0f) {
            u |= (uint32_t)*p << 28;
            *pp = p + 1;
            return (int32_t)avrogen_zigzag_decode(u);
        }
    }
    return (int32_t)get_long_slow(r, pp, 5);
}

static inline double get_double(avrogen_reader *r, const uint8_t **pp)
{
    double v = 0;
    if (AVROGEN_LIKELY(r->end - *pp >= 8)) {
        uint64_t u;
        memcpy(&u, *pp, sizeof u);
#if !SOL_LITTLE_ENDIAN
        u = __builtin_bswap64(u);
#endif
        memcpy(&v, &u, sizeof v);
        *pp += 8;
    } else {
        fail_at(r, pp, AVROGEN_E_TRUNCATED, "input ends inside a double");
    }
    return v;
}

static inline bool get_bool(avrogen_reader *r, const uint8_t **pp)
{
    if (AVROGEN_LIKELY(*pp < r->end && **pp <= 1))
        return *(*pp)++ != 0;
    fail_at(r, pp, *pp < r->end ? AVROGEN_E_INVALID : AVROGEN_E_TRUNCATED,
            *pp < r->end ? "boolean byte is neither 0 nor 1" : "input ends inside a boolean");
    return false;
}

/* The bytes of w that are NUL or not ASCII, marked in their high bits. */
static inline uint64_t unplain(uint64_t w)
{
    return (w | (w - UINT64_C(0x0101010101010101))) & UINT64_C(0x8080808080808080);
}

/* True when every one of the `len` bytes at s is in 0x01..0x7F: ASCII, and no
 * NUL a C string could not hold. Reads only s[0..len). */
static inline bool all_plain(const uint8_t *s, size_t len)
{
    uint64_t bad = 0, word;
    if (len >= 8) {
        size_t i = 0;
        for (; i + 8 <= len; i += 8) {
            memcpy(&word, s + i, 8);
            bad |= unplain(word);
        }
        memcpy(&word, s + len - 8, 8);
        bad |= unplain(word);
    } else {
        for (size_t i = 0; i < len; i++)
            bad |= (uint64_t)(s[i] == 0 || s[i] >= 0x80);
    }
    return bad == 0;
}

static avrogen_status arena_fail(avrogen_reader *r, const uint8_t **pp, const avrogen_arena *a,
                                 size_t size)
{
    /* The arena returns NULL past its budget as well as when out of memory. */
    if (a->budget - a->used < size)
        return fail_at(r, pp, AVROGEN_E_LIMIT, "allocation past the arena's budget");
    return fail_at(r, pp, AVROGEN_E_NOMEM, "arena allocation failed");
}

/* A string copied into the arena and NUL-terminated; "" after an error. */
static inline char *get_cstring(avrogen_reader *r, const uint8_t **pp, avrogen_arena *a)
{
    static char empty[1];
    int64_t n = get_long(r, pp);
    const uint8_t *p = *pp;
    if (AVROGEN_UNLIKELY(n < 0 || (uint64_t)n > (uint64_t)(r->end - p))) {
        if (r->err == AVROGEN_OK)
            fail_at(r, pp, n < 0 ? AVROGEN_E_INVALID : AVROGEN_E_TRUNCATED,
                    n < 0 ? "negative length" : "length runs past the end of the input");
        return empty;
    }
    size_t len = (size_t)n;
    if (AVROGEN_UNLIKELY(!all_plain(p, len))) {
        if (r->check_utf8 && !avrogen_utf8_valid(p, len)) {
            fail_at(r, pp, AVROGEN_E_INVALID, "string is not valid UTF-8");
            return empty;
        }
        if (memchr(p, 0, len) != NULL) {
            fail_at(r, pp, AVROGEN_E_INVALID, "string holds a NUL byte");
            return empty;
        }
    }
    char *s = avrogen_arena_alloc(a, len + 1);
    if (AVROGEN_UNLIKELY(s == NULL)) {
        arena_fail(r, pp, a, len + 1);
        return empty;
    }
    memcpy(s, p, len);
    s[len] = '\0';
    *pp = p + len;
    return s;
}

/*
 * The next block's item count, 0 at the end or on error. spec: a negative
 * count is followed by the block's size in bytes. Every item is charged to the
 * per-datum budget, and a count of items of at least `min_bytes` each that the
 * input cannot hold is E_TRUNCATED before anything is allocated for it.
 */
static inline size_t get_block(avrogen_reader *r, const uint8_t **pp, size_t min_bytes)
{
    int64_t n = get_long(r, pp);
    if (AVROGEN_UNLIKELY(n < 0)) {
        if (n == INT64_MIN) {
            fail_at(r, pp, AVROGEN_E_OVERFLOW, "block count out of range");
            return 0;
        }
        n = -n;
        if (get_long(r, pp) < 0) {
            fail_at(r, pp, AVROGEN_E_INVALID, "negative block size");
            return 0;
        }
    }
    if (AVROGEN_UNLIKELY((uint64_t)n > r->items_left)) {
        fail_at(r, pp, AVROGEN_E_LIMIT, "block count exceeds the reader's item budget");
        return 0;
    }
    if (AVROGEN_UNLIKELY((uint64_t)n > (uint64_t)(r->end - *pp) / min_bytes)) {
        fail_at(r, pp, AVROGEN_E_TRUNCATED, "block count larger than the input can hold");
        return 0;
    }
    r->items_left -= (size_t)n;
    return r->err == AVROGEN_OK ? (size_t)n : 0;
}

/* Room for `more` items after `n` of `size` bytes at *items, moved if needed. */
static void *grow(avrogen_reader *r, const uint8_t **pp, avrogen_arena *a, void *items, size_t n,
                  size_t more, size_t size)
{
    size_t bytes;
    if (!avrogen_size_mul(n + more, size, &bytes)) {
        fail_at(r, pp, AVROGEN_E_LIMIT, "array too large");
        return NULL;
    }
    void *p = avrogen_arena_alloc(a, bytes);
    if (p == NULL) {
        arena_fail(r, pp, a, bytes);
        return NULL;
    }
    if (n != 0)
        memcpy(p, items, n * size);
    return p;
}

static void get_counters(avrogen_reader *r, const uint8_t **pp, int64_t *counters)
{
    size_t got = 0;
    for (;;) {
        if (r->err != AVROGEN_OK)
            return;
        size_t n = get_block(r, pp, 1);
        if (n == 0)
            break;
        if (n > ORDER_N_COUNTERS - got) {
            fail_at(r, pp, AVROGEN_E_INVALID, "counters: more than 64 items");
            return;
        }
        /* All 64 varints fit in what is left: one bounds check for the lot. */
        if ((size_t)(r->end - *pp) >= 10 * n) {
            const uint8_t *p = *pp;
            for (size_t i = 0; i < n && p != NULL; i++) {
                uint64_t u = 0;
                p = sol_varint10(p, &u);
                counters[got + i] = avrogen_zigzag_decode(u);
            }
            if (p != NULL) {
                *pp = p;
                got += n;
                continue;
            }
        }
        for (size_t i = 0; i < n; i++)
            counters[got + i] = get_long(r, pp);
        got += n;
    }
    if (got != ORDER_N_COUNTERS)
        fail_at(r, pp, AVROGEN_E_INVALID, "counters: fewer than 64 items");
}

avrogen_status sol_order_decode(avrogen_reader *r, order_t *o, avrogen_arena *a)
{
    const uint8_t *p = r->p;
    avrogen_reader_begin_datum(r);

    o->id = get_long(r, &p);
    o->customer = get_cstring(r, &p, a);
    o->total = get_double(r, &p);
    o->priority = get_int(r, &p);
    o->paid = get_bool(r, &p);
    int64_t branch = get_long(r, &p);
    if (branch == 1) {
        o->note = get_cstring(r, &p, a);
    } else {
        o->note = NULL;
        if (branch != 0)
            fail_at(r, &p, AVROGEN_E_INVALID, "union branch index out of range");
    }

    /* A line is at least 11 bytes: sku, name length, quantity, 8-byte price. */
    o->lines = NULL;
    o->n_lines = 0;
    for (;;) {
        if (r->err != AVROGEN_OK)
            break;
        size_t n = get_block(r, &p, 11);
        if (n == 0)
            break;
        struct line *lines = grow(r, &p, a, o->lines, o->n_lines, n, sizeof *lines);
        if (lines == NULL)
            break;
        for (size_t i = o->n_lines; i < o->n_lines + n; i++) {
            lines[i].sku = get_long(r, &p);
            lines[i].name = get_cstring(r, &p, a);
            lines[i].quantity = get_int(r, &p);
            lines[i].price = get_double(r, &p);
        }
        o->lines = lines;
        o->n_lines += n;
    }

    get_counters(r, &p, o->counters);

    /* An entry is at least 2 bytes: key length, value. */
    o->tags = NULL;
    o->n_tags = 0;
    for (;;) {
        if (r->err != AVROGEN_OK)
            break;
        size_t n = get_block(r, &p, 2);
        if (n == 0)
            break;
        struct order_tag *tags = grow(r, &p, a, o->tags, o->n_tags, n, sizeof *tags);
        if (tags == NULL)
            break;
        for (size_t i = o->n_tags; i < o->n_tags + n; i++) {
            tags[i].key = get_cstring(r, &p, a);
            tags[i].value = get_long(r, &p);
        }
        o->tags = tags;
        o->n_tags += n;
    }

    if (r->err == AVROGEN_OK)
        r->p = p;
    return r->err;
}
