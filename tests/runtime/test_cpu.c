/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The code paths chosen by CPU (cpu_internal.h), each held to its reference.
 *
 * Varints: the word-at-a-time decoders of gencode.h and the bulk codec of
 * varint.c (every implementation this CPU runs: portable, BMI2) against the
 * byte loop of avrogen_read_varint_slow and avrogen_put_varint: the same
 * values, the same errors at the same offsets, the same bytes. Inputs are
 * every length from 1 to 12 bytes with every last byte, random streams of
 * varints of every length, and cuts at every position near the end.
 *
 * UTF-8: every validator of utf8.c (scalar, SSSE3, AVX2) against the scalar
 * one, which test_stream.c holds to a reference decoder: every sequence of
 * four bytes drawn from the bytes where Table 3-7's ranges start and stop, at
 * every position across a 16-byte block boundary and at the end of the input,
 * and random text.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/gencode.h"

#include "cpu_internal.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A long whose varint takes exactly len bytes (1..10). */
static int64_t long_of_len(unsigned len)
{
    uint64_t lo = len <= 1 ? 0 : UINT64_C(1) << (7 * (len - 1));
    uint64_t u = lo | (rng() & (len >= 10 ? UINT64_MAX : (UINT64_C(1) << (7 * len)) - 1));
    return avrogen_zigzag_decode(u);
}

/* One varint as the reference writes it. */
static size_t put_ref(uint8_t *p, uint64_t u)
{
    return (size_t)(avrogen_put_varint(p, u) - p);
}

/* What a reader sees after one read: value, status, offset of the error, position. */
typedef struct outcome {
    int64_t value;
    avrogen_status err;
    size_t err_offset;
    size_t pos;
} outcome;

static outcome read_ref(const uint8_t *in, size_t len, unsigned max_bytes)
{
    avrogen_reader r;
    avrogen_reader_init(&r, in, len);
    outcome o;
    o.value = avrogen_read_varint_slow(&r, max_bytes);
    o.err = r.err;
    o.err_offset = r.err_offset;
    o.pos = avrogen_reader_offset(&r);
    return o;
}

static void assert_same(outcome got, outcome want, const char *what, const uint8_t *in, size_t n)
{
    if (got.value == want.value && got.err == want.err && got.err_offset == want.err_offset &&
        got.pos == want.pos)
        return;
    char hex[64] = "";
    for (size_t i = 0; i < n && i < 16; i++)
        snprintf(hex + 3 * i, sizeof hex - 3 * i, "%02x ", in[i]);
    ck_abort_msg(
            "%s on %s: value %lld err %d at %zu pos %zu; byte loop: %lld err %d at %zu pos %zu",
            what, hex, (long long)got.value, got.err, got.err_offset, got.pos,
            (long long)want.value, want.err, want.err_offset, want.pos);
}

/* A varint of `len` bytes (up to 12): continuation bits on all but the last,
 * random payload bits, and in the last byte whatever `last` says. */
static size_t make_varint(uint8_t *p, unsigned len, uint8_t last)
{
    for (unsigned i = 0; i + 1 < len; i++)
        p[i] = (uint8_t)(0x80 | (rng() & 0x7f));
    p[len - 1] = last;
    return len;
}

/* Every length 1..12 with every value of the last byte, padded and exact. */
START_TEST(single_reads_match_byte_loop)
{
    rng_state = 1;
    uint8_t in[32];
    for (unsigned len = 1; len <= 12; len++) {
        for (unsigned last = 0; last < 256; last++) {
            for (int rep = 0; rep < 4; rep++) {
                size_t n = make_varint(in, len, (uint8_t)last);
                for (size_t pad = 0; pad <= 16; pad += 4) {
                    for (size_t k = 0; k < pad; k++)
                        in[n + k] = (uint8_t)rng();
                    size_t total = n + pad;
                    avrogen_reader r;

                    avrogen_reader_init(&r, in, total);
                    outcome got = {avrogen_read_long(&r), r.err, r.err_offset,
                                   avrogen_reader_offset(&r)};
                    assert_same(got, read_ref(in, total, 10), "avrogen_read_long", in, total);

                    avrogen_reader_init(&r, in, total);
                    got = (outcome){avrogen_read_size_long(&r), r.err, r.err_offset,
                                    avrogen_reader_offset(&r)};
                    assert_same(got, read_ref(in, total, 10), "avrogen_read_size_long", in, total);

                    avrogen_reader_init(&r, in, total);
                    got = (outcome){avrogen_read_int(&r), r.err, r.err_offset,
                                    avrogen_reader_offset(&r)};
                    outcome want = read_ref(in, total, 5);
                    want.value = (int32_t)want.value;
                    assert_same(got, want, "avrogen_read_int", in, total);
                }
            }
        }
    }
}
END_TEST

/*
 * A stream of n varints of random lengths into buf; with `corrupt`, one of
 * them is made too long (by a byte or two, or by up to 150, past a 64-byte
 * chunk of the bulk decoder) or given stray bits. Returns the byte count.
 */
static size_t make_stream(uint8_t *buf, size_t n, bool ints, bool corrupt)
{
    size_t len = 0, bad = corrupt ? (size_t)(rng() % n) : SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        unsigned k = 1 + (unsigned)(rng() % (ints ? 5 : 10));
        if (i == bad) {
            /* Too long, or stray bits in the last byte the type allows. */
            unsigned max = ints ? 5 : 10;
            switch (rng() % 3) {
            case 0:
                len += make_varint(buf + len, max + 1 + (unsigned)(rng() % 2), 0);
                break;
            case 1:
                len += make_varint(buf + len, max + 1 + (unsigned)(rng() % 150), 0);
                break;
            default:
                len += make_varint(buf + len, max, ints ? 0x10 | (uint8_t)(rng() & 0x6f) : 0x02);
                break;
            }
            continue;
        }
        uint64_t u = avrogen_zigzag_encode(ints ? (int32_t)long_of_len(k) : long_of_len(k));
        if (ints)
            u &= UINT32_MAX;
        len += put_ref(buf + len, u);
    }
    return len;
}

#define STREAM_MAX 300

/* The inline avrogen_read_longs/ints, and the byte loop, item by item. */
static void read_array(const uint8_t *in, size_t len, bool ints, size_t n, int64_t *out,
                       outcome *end, bool reference)
{
    avrogen_reader r;
    avrogen_reader_init(&r, in, len);
    int32_t tmp[STREAM_MAX];
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[i] = 0x5a5a;
    if (reference) {
        for (size_t i = 0; i < n && r.err == AVROGEN_OK; i++)
            out[i] = ints ? (int32_t)avrogen_read_varint_slow(&r, 5)
                          : avrogen_read_varint_slow(&r, 10);
    } else if (ints) {
        avrogen_read_ints(&r, tmp, n);
        for (size_t i = 0; i < n; i++)
            out[i] = tmp[i];
    } else {
        avrogen_read_longs(&r, out, n);
    }
    end->value = 0;
    end->err = r.err;
    end->err_offset = r.err_offset;
    end->pos = avrogen_reader_offset(&r);
}

/* avrogen_read_longs/ints: same items, same error, same offset as the byte loop. */
START_TEST(array_reads_match_byte_loop)
{
    rng_state = 2;
    static uint8_t in[STREAM_MAX * 12 + 200];
    int64_t got[STREAM_MAX], want[STREAM_MAX];
    for (int round = 0; round < 400; round++) {
        bool ints = round % 2 != 0, corrupt = round % 3 == 0;
        size_t n = 1 + (size_t)(rng() % STREAM_MAX);
        size_t len = make_stream(in, n, ints, corrupt);
        /* Whole, with trailing bytes, and cut at every one of the last 24 bytes. */
        for (size_t k = 0; k < 8; k++)
            in[len + k] = (uint8_t)rng();
        for (size_t cut = len > 24 ? len - 24 : 0; cut <= len + 8; cut++) {
            outcome a, b;
            read_array(in, cut, ints, n, got, &a, false);
            read_array(in, cut, ints, n, want, &b, true);
            ck_assert_msg(
                    a.err == b.err && a.err_offset == b.err_offset && a.pos == b.pos,
                    "round %d cut %zu: err %d at %zu pos %zu, byte loop err %d at %zu pos %zu",
                    round, cut, a.err, a.err_offset, a.pos, b.err, b.err_offset, b.pos);
            ck_assert_mem_eq(got, want, n * sizeof *got);
        }
    }
}
END_TEST

/* Each bulk implementation decodes exactly the items the byte loop does, and
 * stops only where it may: all done, an item starting too close to the end,
 * or a varint that is not valid. It is asked for n items of a stream that may
 * hold more, reads the input from a heap block of exactly its size (ASan sees
 * any read past it) and writes no item past the n-th. */
START_TEST(bulk_decoders_agree)
{
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    rng_state = 3;
    static uint8_t in[(STREAM_MAX + 100) * 12 + 200];
    int64_t want[STREAM_MAX], got64[STREAM_MAX + 1];
    int32_t got32[STREAM_MAX + 1];
    for (int round = 0; round < 400; round++) {
        bool ints = round % 2 != 0, corrupt = round % 3 == 0;
        size_t n = 1 + (size_t)(rng() % STREAM_MAX);
        size_t more = rng() % 2 ? 0 : 1 + (size_t)(rng() % 100);
        size_t len = make_stream(in, n + more, ints, corrupt);
        size_t first_cut = len > 24 ? len - 24 : 0;
        for (size_t cut = first_cut; cut <= len + 4; cut++) {
            /* The last 24 cuts, then 4 anywhere. */
            size_t at = cut <= len ? cut : (size_t)(rng() % (len + 1));
            uint8_t *exact = malloc(at + 1);
            ck_assert_ptr_nonnull(exact);
            memcpy(exact, in, at);
            /* The reference: offsets of each item, and where the first bad one is. */
            avrogen_reader r;
            avrogen_reader_init(&r, exact, at);
            size_t starts[STREAM_MAX + 1], valid = 0;
            while (valid < n) {
                starts[valid] = avrogen_reader_offset(&r);
                want[valid] = ints ? (int32_t)avrogen_read_varint_slow(&r, 5)
                                   : avrogen_read_varint_slow(&r, 10);
                if (r.err != AVROGEN_OK)
                    break;
                valid++;
            }
            if (valid == n)
                starts[n] = avrogen_reader_offset(&r);
            size_t room = ints ? 8 : 10;
            for (size_t m = 0; m < n_impls; m++) {
                const uint8_t *p = exact;
                got64[n] = 0x5a5a;
                got32[n] = 0x5a5a;
                size_t k = ints ? impls[m].get_ints(&p, exact + at, got32, n)
                                : impls[m].get_longs(&p, exact + at, got64, n);
                ck_assert_msg(k <= valid, "%s: %zu items, only %zu valid", impls[m].name, k, valid);
                ck_assert_uint_eq((size_t)(p - exact), starts[k]);
                for (size_t i = 0; i < k; i++)
                    ck_assert(want[i] == (ints ? got32[i] : got64[i]));
                ck_assert_msg(got64[n] == 0x5a5a && got32[n] == 0x5a5a, "%s wrote item %zu of %zu",
                              impls[m].name, n + 1, n);
                bool may_stop = k == n || k == valid || at - starts[k] < room;
                ck_assert_msg(may_stop, "%s stopped at item %zu of %zu (%zu valid), %zu bytes left",
                              impls[m].name, k, n, valid, at - starts[k]);
            }
            free(exact);
        }
    }
}
END_TEST

/* Values whose varints take every length, and the extremes. */
static void fill_values(int64_t *v, size_t n, bool ints)
{
    static const int64_t edges[] = {0,  1,         -1,        63,        -64,
                                    64, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < n; i++) {
        v[i] = i < sizeof edges / sizeof *edges ? edges[i]
                                                : long_of_len(1 + (unsigned)(rng() % 10));
        if (ints)
            v[i] = (int32_t)v[i];
    }
}

/* Each bulk encoder writes exactly the bytes of the byte loop. */
START_TEST(bulk_encoders_agree)
{
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    rng_state = 4;
    int64_t v[STREAM_MAX];
    int32_t v32[STREAM_MAX];
    static uint8_t want[STREAM_MAX * 10], got[STREAM_MAX * 10];
    for (int round = 0; round < 400; round++) {
        bool ints = round % 2 != 0;
        size_t n = (size_t)(rng() % STREAM_MAX);
        fill_values(v, n, ints);
        size_t len = 0;
        for (size_t i = 0; i < n; i++) {
            v32[i] = (int32_t)v[i];
            len += put_ref(want + len, avrogen_zigzag_encode(v[i]));
        }
        for (size_t m = 0; m < n_impls; m++) {
            uint8_t *end = ints ? impls[m].put_ints(got, v32, n) : impls[m].put_longs(got, v, n);
            ck_assert_uint_eq((size_t)(end - got), len);
            ck_assert_mem_eq(got, want, len);
        }
    }
}
END_TEST

/*
 * Every long at which a varint's length changes, either side: the zigzag
 * forms 2^7k - 1 and 2^7k of both signs, and where the AVX2 size splits a
 * long in halves (2^31, 2^32), for every array length from 0 to 17 (the
 * 4- and 8-long steps and their tails) and every start in the list.
 */
START_TEST(bulk_sizes_at_bounds)
{
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    int64_t vals[160];
    size_t nv = 0;
    for (unsigned k = 1; k <= 9; k++) {
        uint64_t bound = UINT64_C(1) << (7 * k);
        uint64_t us[] = {bound - 2, bound - 1, bound, bound + 1};
        for (size_t j = 0; j < 4; j++)
            vals[nv++] = avrogen_zigzag_decode(us[j]);
    }
    static const int64_t halves[] = {INT64_C(0x7ffffffe),  INT64_C(0x7fffffff),
                                     INT64_C(0x80000000),  INT64_C(0xffffffff),
                                     INT64_C(0x100000000), INT64_C(0x100000001),
                                     INT64_C(0x17fffffff), INT64_C(0x3ffffffff),
                                     INT64_C(0x400000000), INT64_MAX,
                                     INT64_MAX - 1,        0};
    for (size_t j = 0; j < sizeof halves / sizeof *halves; j++) {
        vals[nv++] = halves[j];
        vals[nv++] = -halves[j] - 1;
        vals[nv++] = -halves[j];
    }
    vals[nv++] = INT64_MIN;
    ck_assert_uint_le(nv, sizeof vals / sizeof *vals);
    uint8_t buf[10];
    for (size_t len = 0; len <= 17; len++) {
        for (size_t start = 0; start + len <= nv; start++) {
            const int64_t *v = vals + start;
            int32_t v32[17];
            size_t want = 0, want32 = 0;
            for (size_t i = 0; i < len; i++) {
                v32[i] = (int32_t)v[i];
                want += put_ref(buf, avrogen_zigzag_encode(v[i]));
                want32 += put_ref(buf, avrogen_zigzag_encode(v32[i]));
                ck_assert_uint_eq(avrogen_size_long(v[i]),
                                  put_ref(buf, avrogen_zigzag_encode(v[i])));
            }
            for (size_t m = 0; m < n_impls; m++) {
                ck_assert_uint_eq(impls[m].size_longs(v, len), want);
                ck_assert_uint_eq(impls[m].size_ints(v32, len), want32);
            }
            ck_assert_uint_eq(avrogen_size_longs(v, len), want);
            ck_assert_uint_eq(avrogen_size_ints(v32, len), want32);
        }
    }
}
END_TEST

/* Each bulk size function counts the bytes the byte loop writes, and so does
 * the dispatched one. */
START_TEST(bulk_sizes_agree)
{
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    rng_state = 7;
    int64_t v[STREAM_MAX];
    int32_t v32[STREAM_MAX];
    uint8_t buf[10];
    for (int round = 0; round < 2000; round++) {
        bool ints = round % 2 != 0;
        size_t n = (size_t)(rng() % STREAM_MAX);
        fill_values(v, n, ints);
        size_t want = 0;
        for (size_t i = 0; i < n; i++) {
            v32[i] = (int32_t)v[i];
            want += put_ref(buf, avrogen_zigzag_encode(v[i]));
        }
        for (size_t m = 0; m < n_impls; m++)
            ck_assert_uint_eq(ints ? impls[m].size_ints(v32, n) : impls[m].size_longs(v, n), want);
        ck_assert_uint_eq(ints ? avrogen_size_ints(v32, n) : avrogen_size_longs(v, n), want);
    }
}
END_TEST

/* avrogen_write_longs/ints give the byte loop's bytes into buffers of every
 * size around the exact one (fast path, per-item path, E_NOSPACE). */
START_TEST(array_writes_match_byte_loop)
{
    rng_state = 5;
    int64_t v[64];
    int32_t v32[64];
    uint8_t want[64 * 10], got[64 * 10 + 16];
    for (int round = 0; round < 200; round++) {
        bool ints = round % 2 != 0;
        size_t n = (size_t)(rng() % 64);
        fill_values(v, n, ints);
        size_t len = 0;
        for (size_t i = 0; i < n; i++) {
            v32[i] = (int32_t)v[i];
            len += put_ref(want + len, avrogen_zigzag_encode(v[i]));
        }
        for (size_t cap = len > 12 ? len - 12 : 0; cap <= len + 12 + 10 * n && cap <= sizeof got;
             cap++) {
            avrogen_writer w;
            avrogen_writer_init_fixed(&w, got, cap);
            if (ints)
                avrogen_write_ints(&w, v32, n);
            else
                avrogen_write_longs(&w, v, n);
            if (cap < len) {
                ck_assert_int_eq(w.err, AVROGEN_E_NOSPACE);
            } else {
                ck_assert_int_eq(w.err, AVROGEN_OK);
                ck_assert_uint_eq(avrogen_writer_len(&w), len);
                ck_assert_mem_eq(got, want, len);
            }
        }
    }
}
END_TEST

/* Sizes by bit counting agree with the bytes written, for every bit length. */
START_TEST(sizes_by_bit_counting)
{
    uint8_t buf[10];
    for (unsigned bits = 0; bits <= 64; bits++) {
        uint64_t u = bits == 0 ? 0 : UINT64_C(1) << (bits - 1);
        uint64_t all = bits == 0 ? 0 : bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        ck_assert_uint_eq(avrogen_size_varint(u), put_ref(buf, u));
        ck_assert_uint_eq(avrogen_size_varint(all), put_ref(buf, all));
        ck_assert_uint_eq(avrogen_size_long(avrogen_zigzag_decode(all)), put_ref(buf, all));
    }
}
END_TEST

/* ---- UTF-8 ------------------------------------------------------------------ */

/* The bytes at which Table 3-7's ranges start and stop, and some inside them. */
static const uint8_t utf8_edges[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
                                     0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
                                     0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xff};
#define N_EDGES (sizeof utf8_edges / sizeof utf8_edges[0])

static void check_validators(const uint8_t *s, size_t len)
{
    size_t n_impls;
    const avrogen_utf8_impl *impls = avrogen_utf8_impls(&n_impls);
    bool want = impls[0].valid(s, len);
    for (size_t m = 1; m < n_impls; m++)
        if (impls[m].valid(s, len) != want)
            ck_abort_msg("%s says %s, scalar %s, on %zu bytes", impls[m].name,
                         want ? "invalid" : "valid", want ? "valid" : "invalid", len);
    if (avrogen_utf8_valid(s, len) != want)
        ck_abort_msg("avrogen_utf8_valid disagrees with the scalar validator");
}

/* Every 4-tuple of edge bytes, at offsets 11..17 of ASCII text of 32 bytes
 * (across the first block boundary), and as the last bytes of 16..20. */
START_TEST(utf8_edges_everywhere)
{
    uint8_t s[40];
    for (size_t a = 0; a < N_EDGES; a++)
        for (size_t b = 0; b < N_EDGES; b++)
            for (size_t c = 0; c < N_EDGES; c++)
                for (size_t d = 0; d < N_EDGES; d++) {
                    uint8_t q[4] = {utf8_edges[a], utf8_edges[b], utf8_edges[c], utf8_edges[d]};
                    for (size_t at = 11; at <= 17; at++) {
                        memset(s, 'a', sizeof s);
                        memcpy(s + at, q, 4);
                        check_validators(s, 32);
                    }
                    for (size_t len = 16; len <= 20; len++) {
                        memset(s, 'a', sizeof s);
                        memcpy(s + len - 4, q, 4);
                        check_validators(s, len);
                    }
                }
}
END_TEST

/* Random text of every length to 200: ASCII, valid characters of 2 to 4 bytes,
 * and now and then a byte from the edges anywhere. */
START_TEST(utf8_random_agrees)
{
    static const char *const chars[] = {"\xc3\xa9",     "\xe2\x82\xac",     "\xf0\x9f\x98\x80",
                                        "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "\xdf\xbf"};
    rng_state = 6;
    uint8_t s[256];
    for (int round = 0; round < 100000; round++) {
        size_t want = (size_t)(rng() % 200), len = 0;
        unsigned density = (unsigned)(rng() % 100);
        while (len + 4 < want) {
            uint64_t x = rng();
            if (x % 100 >= density) {
                s[len++] = (uint8_t)(0x20 + (x >> 8) % 0x5f);
            } else {
                const char *c = chars[(x >> 8) % 6];
                memcpy(s + len, c, strlen(c));
                len += strlen(c);
            }
        }
        if (round % 4 == 0 && len != 0)
            s[rng() % len] = utf8_edges[rng() % N_EDGES];
        check_validators(s, len);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cpu");
    TCase *tc = tcase_create("single");
    tcase_add_test(tc, single_reads_match_byte_loop);
    tcase_add_test(tc, sizes_by_bit_counting);
    suite_add_tcase(s, tc);
    tc = tcase_create("bulk");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, array_reads_match_byte_loop);
    tcase_add_test(tc, bulk_decoders_agree);
    tcase_add_test(tc, bulk_encoders_agree);
    tcase_add_test(tc, bulk_sizes_agree);
    tcase_add_test(tc, bulk_sizes_at_bounds);
    tcase_add_test(tc, array_writes_match_byte_loop);
    suite_add_tcase(s, tc);
    tc = tcase_create("utf8");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, utf8_edges_everywhere);
    tcase_add_test(tc, utf8_random_agrees);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
