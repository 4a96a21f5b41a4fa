/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary-encoding primitives of gencode.h: varints at every length and
 * boundary, floats, bytes, blocks, and the reader's hostile-input errors.
 * Expected encodings were produced by python3-avro 1.11.1's BinaryEncoder
 * (write_long / write_float / write_double) and agree with the spec's table.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/gencode.h"

#include "testutil.h"

static const struct {
    int64_t value;
    const char *hex;
} long_table[] = {
        {0, "00"},
        {1, "02"},
        {-1, "01"},
        {63, "7e"},
        {-64, "7f"},
        {64, "80 01"},
        {-65, "81 01"},
        {8191, "fe 7f"},
        {-8192, "ff 7f"},
        {8192, "80 80 01"},
        {1048576, "80 80 80 01"},
        {-1048577, "81 80 80 01"},
        {134217728, "80 80 80 80 01"},
        {2147483647, "fe ff ff ff 0f"},
        {-2147483647 - 1, "ff ff ff ff 0f"},
        {2147483648LL, "80 80 80 80 10"},
        {-2147483649LL, "81 80 80 80 10"},
        {17179869184LL, "80 80 80 80 80 01"},
        {2199023255552LL, "80 80 80 80 80 80 01"},
        {281474976710656LL, "80 80 80 80 80 80 80 01"},
        {36028797018963968LL, "80 80 80 80 80 80 80 80 01"},
        {4611686018427387904LL, "80 80 80 80 80 80 80 80 80 01"},
        {INT64_MAX, "fe ff ff ff ff ff ff ff ff 01"},
        {INT64_MIN, "ff ff ff ff ff ff ff ff ff 01"},
};
#define N_LONGS ((int)(sizeof long_table / sizeof long_table[0]))

START_TEST(write_long_table)
{
    uint8_t want[10], buf[16];
    size_t n = test_unhex(long_table[_i].hex, want, sizeof want);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_write_long(&w, long_table[_i].value);
    ck_assert_int_eq(w.err, AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(buf, want, n);
    ck_assert_uint_eq(avrogen_size_long(long_table[_i].value), n);

    /* Exactly-sized buffer: exercises the slow path near the end. */
    avrogen_writer_init_fixed(&w, buf, n);
    avrogen_write_long(&w, long_table[_i].value);
    ck_assert_int_eq(w.err, AVROGEN_OK);
    ck_assert_mem_eq(buf, want, n);

    /* One byte short: E_NOSPACE, sticky, nothing more written. */
    avrogen_writer_init_fixed(&w, buf, n - 1);
    avrogen_write_long(&w, long_table[_i].value);
    ck_assert_int_eq(w.err, AVROGEN_E_NOSPACE);
    avrogen_write_bool(&w, true);
    ck_assert_int_eq(w.err, AVROGEN_E_NOSPACE);
}
END_TEST

START_TEST(read_long_table)
{
    uint8_t in[32];
    size_t n = test_unhex(long_table[_i].hex, in, sizeof in);
    /* Exact input (slow path) and padded input (fast path). */
    for (size_t pad = 0; pad <= 12; pad += 12) {
        memset(in + n, 0xee, pad);
        avrogen_reader r;
        avrogen_reader_init(&r, in, n + pad);
        ck_assert(avrogen_read_long(&r) == long_table[_i].value);
        ck_assert_int_eq(r.err, AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_offset(&r), n);
    }
    /* Every truncation is E_TRUNCATED at offset 0.. and yields 0. */
    for (size_t cut = 0; cut < n; cut++) {
        avrogen_reader r;
        avrogen_reader_init(&r, in, cut);
        ck_assert(avrogen_read_long(&r) == 0);
        ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
    }
}
END_TEST

START_TEST(read_int_table)
{
    uint8_t in[32];
    int64_t v = long_table[_i].value;
    size_t n = test_unhex(long_table[_i].hex, in, sizeof in);
    memset(in + n, 0, 16);
    for (size_t len = n; len <= n + 16; len += 16) {
        avrogen_reader r;
        avrogen_reader_init(&r, in, len);
        int32_t got = avrogen_read_int(&r);
        if (v >= INT32_MIN && v <= INT32_MAX) {
            ck_assert_int_eq(r.err, AVROGEN_OK);
            ck_assert_int_eq(got, (int32_t)v);
            ck_assert_uint_eq(avrogen_reader_offset(&r), n);
        } else {
            /* An int past 32 bits is an overflow, whatever the byte count. */
            ck_assert_int_eq(r.err, AVROGEN_E_OVERFLOW);
            ck_assert_int_eq(got, 0);
        }
    }
}
END_TEST

START_TEST(read_overlong_varints)
{
    static const char *bad_long[] = {
            "80 80 80 80 80 80 80 80 80 80 00", /* 11 bytes */
            "ff ff ff ff ff ff ff ff ff 02",    /* 10th byte carries bit 64 */
            "ff ff ff ff ff ff ff ff ff 81 00", /* 10th byte continues */
    };
    static const char *bad_int[] = {
            "80 80 80 80 80 00", /* 6 bytes */
            "ff ff ff ff 1f",    /* bit 32 set */
            "80 80 80 80 10",    /* 2^32 as zigzag */
    };
    uint8_t in[32];
    for (size_t i = 0; i < sizeof bad_long / sizeof *bad_long; i++) {
        for (size_t pad = 0; pad <= 16; pad += 16) {
            size_t n = test_unhex(bad_long[i], in, sizeof in);
            memset(in + n, 0, pad);
            avrogen_reader r;
            avrogen_reader_init(&r, in, n + pad);
            ck_assert(avrogen_read_long(&r) == 0);
            ck_assert_int_eq(r.err, AVROGEN_E_OVERFLOW);
            ck_assert_uint_eq(r.err_offset, 0);
        }
    }
    for (size_t i = 0; i < sizeof bad_int / sizeof *bad_int; i++) {
        for (size_t pad = 0; pad <= 16; pad += 16) {
            size_t n = test_unhex(bad_int[i], in, sizeof in);
            memset(in + n, 0, pad);
            avrogen_reader r;
            avrogen_reader_init(&r, in, n + pad);
            ck_assert_int_eq(avrogen_read_int(&r), 0);
            ck_assert_int_eq(r.err, AVROGEN_E_OVERFLOW);
        }
    }
    /* Non-minimal but in-range padding is legal Avro (Java accepts it too). */
    size_t n = test_unhex("81 80 00", in, sizeof in);
    avrogen_reader r;
    avrogen_reader_init(&r, in, n);
    ck_assert(avrogen_read_long(&r) == -1);
    ck_assert_int_eq(r.err, AVROGEN_OK);
}
END_TEST

START_TEST(floats_known_answers)
{
    static const struct {
        double v;
        const char *f32, *f64;
    } t[] = {
            {0.0, "00 00 00 00", "00 00 00 00 00 00 00 00"},
            {-0.0, "00 00 00 80", "00 00 00 00 00 00 00 80"},
            {1.5, "00 00 c0 3f", "00 00 00 00 00 00 f8 3f"},
            {INFINITY, "00 00 80 7f", "00 00 00 00 00 00 f0 7f"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uint8_t buf[16], want[16];
        avrogen_writer w;
        avrogen_writer_init_fixed(&w, buf, sizeof buf);
        avrogen_write_float(&w, (float)t[i].v);
        avrogen_write_double(&w, t[i].v);
        ck_assert_int_eq(w.err, AVROGEN_OK);
        size_t n4 = test_unhex(t[i].f32, want, sizeof want);
        size_t n8 = test_unhex(t[i].f64, want + n4, sizeof want - n4);
        ck_assert_uint_eq(avrogen_writer_len(&w), n4 + n8);
        ck_assert_mem_eq(buf, want, n4 + n8);

        avrogen_reader r;
        avrogen_reader_init(&r, buf, n4 + n8);
        float f = avrogen_read_float(&r);
        double d = avrogen_read_double(&r);
        ck_assert_int_eq(r.err, AVROGEN_OK);
        ck_assert_mem_eq(&f, &(float){(float)t[i].v}, sizeof f);
        ck_assert_mem_eq(&d, &t[i].v, sizeof d);
        /* Truncated floats. */
        avrogen_reader_init(&r, buf, 3);
        (void)avrogen_read_float(&r);
        ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
        avrogen_reader_init(&r, buf, 7);
        (void)avrogen_read_double(&r);
        ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
    }
    /* A NaN's bits survive the round trip. */
    uint8_t buf[8];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_write_double(&w, NAN);
    avrogen_reader r;
    avrogen_reader_init(&r, buf, sizeof buf);
    ck_assert(isnan(avrogen_read_double(&r)));
}
END_TEST

START_TEST(bools)
{
    uint8_t in[] = {0, 1, 2};
    avrogen_reader r;
    avrogen_reader_init(&r, in, sizeof in);
    ck_assert(!avrogen_read_bool(&r));
    ck_assert(avrogen_read_bool(&r));
    ck_assert_int_eq(r.err, AVROGEN_OK);
    (void)avrogen_read_bool(&r);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    ck_assert_uint_eq(r.err_offset, 2);
    ck_assert_ptr_nonnull(r.err_msg);
    /* Sticky: later reads return zeros and keep the first error. */
    ck_assert_int_eq(avrogen_read_int(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    avrogen_reader_init(&r, in, 0);
    (void)avrogen_read_bool(&r);
    ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
}
END_TEST

START_TEST(strings_and_bytes)
{
    /* spec example: the string "foo" is 06 66 6f 6f. */
    uint8_t buf[64];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_write_string(&w, "foo", 3);
    avrogen_write_bytes(&w, "", 0);
    ck_assert_int_eq(w.err, AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w), 5);
    ck_assert_mem_eq(buf,
                     "\x06"
                     "foo\x00",
                     5);
    ck_assert_uint_eq(avrogen_size_bytes(3), 4);

    avrogen_reader r;
    avrogen_reader_init(&r, buf, 5);
    avrogen_str s = avrogen_read_string(&r);
    ck_assert_uint_eq(s.len, 3);
    ck_assert_ptr_eq(s.ptr, (const char *)buf + 1); /* zero-copy view */
    avrogen_bytes b = avrogen_read_bytes(&r);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
}
END_TEST

START_TEST(hostile_lengths)
{
    uint8_t in[32];
    avrogen_reader r;
    /* Negative length (-1 = 01). */
    size_t n = test_unhex("01 41", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_bytes(&r).len, 0);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    /* Length past the end: 3 bytes claimed, 2 present. */
    n = test_unhex("06 41 42", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_string(&r).len, 0);
    ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
    /* INT64_MAX length. */
    n = test_unhex("fe ff ff ff ff ff ff ff ff 01", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_len(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
    /* Invalid UTF-8 is refused unless checking is off. */
    static const char *bad_utf8[] = {"02 ff", "04 c0 80", "06 ed a0 80", "08 f4 90 80 80",
                                     "04 e2 82"};
    for (size_t i = 0; i < sizeof bad_utf8 / sizeof *bad_utf8; i++) {
        n = test_unhex(bad_utf8[i], in, sizeof in);
        avrogen_reader_init(&r, in, n);
        (void)avrogen_read_string(&r);
        ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
        avrogen_reader_init(&r, in, n);
        r.check_utf8 = false;
        ck_assert_uint_eq(avrogen_read_string(&r).len, n - 1);
        ck_assert_int_eq(r.err, AVROGEN_OK);
    }
    /* Valid multi-byte UTF-8: é, €, U+1F600, after a long ASCII run. */
    const char *good = "abcdefghijklmnop\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    ck_assert(avrogen_utf8_valid((const uint8_t *)good, strlen(good)));
}
END_TEST

START_TEST(block_counts)
{
    uint8_t in[32];
    avrogen_reader r;
    /* spec: count -2 (03) followed by byte size 2 (04): two items of a byte. */
    size_t n = test_unhex("03 04 02 04 00", in, sizeof in);
    const uint8_t *end = NULL;
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block(&r, &end), 2);
    ck_assert_uint_eq(avrogen_reader_offset(&r), 2);
    ck_assert_ptr_eq(end, in + 4);
    r.p += 2; /* the items */
    ck_assert_uint_eq(avrogen_read_block(&r, &end), 0);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    /* Items that end elsewhere than the size says: E_INVALID where they end. */
    end = NULL;
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block(&r, &end), 2);
    r.p += 1;
    ck_assert_uint_eq(avrogen_read_block(&r, &end), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    ck_assert_uint_eq(r.err_offset, 3);
    ck_assert_str_eq(r.err_msg, "block size does not match its items");
    /* Skipping jumps the block by its size, to the 0 that ends the array. */
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_skip_block(&r, 0), 0);
    ck_assert_uint_eq(avrogen_reader_offset(&r), 5);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    /* A size past the end of the input: E_TRUNCATED, after the size. */
    n = test_unhex("03 08 00", in, sizeof in);
    end = NULL;
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block(&r, &end), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_TRUNCATED);
    ck_assert_uint_eq(r.err_offset, 2);
    /* Negative count with a negative byte size. */
    n = test_unhex("03 01", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    /* INT64_MIN count cannot be negated. */
    n = test_unhex("ff ff ff ff ff ff ff ff ff 01", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_OVERFLOW);
    /* A huge count is charged to the per-datum item budget. */
    n = test_unhex("fe ff ff ff ff ff ff ff ff 01", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_LIMIT);
    /* The budget spans blocks and resets per datum. */
    n = test_unhex("06 06 00", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    r.max_items = 5;
    avrogen_reader_begin_datum(&r);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 3);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_E_LIMIT);
}
END_TEST

START_TEST(depth_limit)
{
    avrogen_reader r;
    avrogen_reader_init(&r, "", 0);
    r.max_depth = 3;
    for (int i = 0; i < 3; i++)
        ck_assert(avrogen_reader_enter(&r));
    ck_assert(!avrogen_reader_enter(&r));
    ck_assert_int_eq(r.err, AVROGEN_E_LIMIT);
}
END_TEST

START_TEST(growable_writer)
{
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, &ta.base);
    for (int64_t i = 0; i < 100000; i++)
        avrogen_write_long(&w, i * 7919);
    ck_assert_int_eq(w.err, AVROGEN_OK);
    size_t expect = 0;
    for (int64_t i = 0; i < 100000; i++)
        expect += avrogen_size_long(i * 7919);
    ck_assert_uint_eq(avrogen_writer_len(&w), expect);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    for (int64_t i = 0; i < 100000; i++)
        ck_assert(avrogen_read_long(&r) == i * 7919);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
    avrogen_writer_reset(&w);
    ck_assert_uint_eq(avrogen_writer_len(&w), 0);
    avrogen_writer_fini(&w);
    ck_assert_int_eq(ta.live, 0);
}
END_TEST

START_TEST(growable_writer_oom)
{
    /* Fail each allocation in turn: the error is E_NOMEM, sticky, leak-free. */
    for (long fail = 1;; fail++) {
        test_alloc ta;
        test_alloc_init(&ta, fail);
        avrogen_writer w;
        avrogen_writer_init_growable(&w, &ta.base);
        for (int i = 0; i < 5000; i++)
            avrogen_write_string(&w, "0123456789", 10);
        avrogen_status st = w.err;
        avrogen_writer_fini(&w);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK)
            break;
        ck_assert_int_eq(st, AVROGEN_E_NOMEM);
        ck_assert_int_lt(fail, 100);
    }
}
END_TEST

/* ---- strings: copies, capacity boundaries, UTF-8 after an ASCII prefix ---- */

/* avrogen_copy touches exactly dst[0, n) and src[0, n): the source is a heap
 * block of exactly n bytes (ASan and valgrind see an over-read), the
 * destination sits between guard bytes. */
START_TEST(copy_every_length)
{
    for (size_t n = 0; n <= 100; n++) {
        uint8_t *src = malloc(n != 0 ? n : 1);
        ck_assert_ptr_nonnull(src);
        for (size_t i = 0; i < n; i++)
            src[i] = (uint8_t)(i * 7 + 1);
        uint8_t dst[8 + 100 + 8];
        memset(dst, 0xaa, sizeof dst);
        avrogen_copy(dst + 8, src, n);
        ck_assert_mem_eq(dst + 8, src, n);
        for (size_t i = 0; i < 8; i++)
            ck_assert_uint_eq(dst[i], 0xaa);
        for (size_t i = 8 + n; i < sizeof dst; i++)
            ck_assert_uint_eq(dst[i], 0xaa);
        free(src);
    }
    avrogen_copy(NULL, NULL, 0); /* n == 0 touches nothing */
}
END_TEST

/* String lengths around the varint steps of the length prefix, with the
 * prefix spelled out (zigzag: 2 * len, little-endian groups of 7 bits). */
static const struct {
    size_t len;
    const char *prefix;
} str_lengths[] = {
        {0, "00"},           {1, "02"},       {7, "0e"},          {8, "10"},
        {15, "1e"},          {16, "20"},      {31, "3e"},         {32, "40"},
        {33, "42"},          {63, "7e"},      {64, "80 01"},      {127, "fe 01"},
        {128, "80 02"},      {8191, "fe 7f"}, {8192, "80 80 01"}, {16383, "fe ff 01"},
        {16384, "80 80 02"},
};
#define N_STR_LENGTHS ((int)(sizeof str_lengths / sizeof str_lengths[0]))

/* A NUL-terminated string of `len` bytes of varied ASCII (heap: exactly len + 1). */
static char *test_string(size_t len)
{
    char *s = malloc(len + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < len; i++)
        s[i] = (char)('!' + (i * 31 + len) % 94);
    s[len] = '\0';
    return s;
}

enum { VIA_CSTRING, VIA_STRING, VIA_RUN, N_VIAS };

/* Write s (len bytes) the way generated code does: avrogen_write_cstring,
 * avrogen_write_string, or a run (avrogen_writer_room then avrogen_put_bytes,
 * else the checked primitive, as emit_c writes it). */
static void write_via(avrogen_writer *w, int via, const char *s, size_t len)
{
    switch (via) {
    case VIA_CSTRING:
        avrogen_write_cstring(w, s);
        break;
    case VIA_STRING:
        avrogen_write_string(w, s, len);
        break;
    default:
        if (avrogen_writer_room(w, 10 + len))
            w->p = avrogen_put_bytes(w->p, s, len);
        else
            avrogen_write_string(w, s, len);
        break;
    }
}

START_TEST(write_string_lengths)
{
    size_t len = str_lengths[_i].len;
    uint8_t prefix[10];
    size_t np = test_unhex(str_lengths[_i].prefix, prefix, sizeof prefix);
    ck_assert_uint_eq(np, avrogen_size_long((int64_t)len));
    ck_assert_uint_eq(avrogen_size_bytes(len), np + len);
    char *s = test_string(len);
    ck_assert_uint_eq(avrogen_size_cstring(s), np + len);
    /* One byte ahead of the string, so that offsets are not trivially 0. */
    size_t total = 1 + np + len;
    uint8_t *want = malloc(total);
    ck_assert_ptr_nonnull(want);
    want[0] = 0x02; /* the long 1 */
    memcpy(want + 1, prefix, np);
    memcpy(want + 1 + np, s, len);
    uint8_t *buf = malloc(total + 16);
    ck_assert_ptr_nonnull(buf);

    for (int via = 0; via < N_VIAS; via++) {
        /* Fixed writers: roomy, exactly full, then short by 1 (the last body
         * byte), at the prefix (room for the long and part of the prefix) and
         * with no room for the string at all. */
        size_t caps[] = {total + 16, total, total - 1, 1 + np - 1, 1 + np, 1};
        for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
            size_t cap = caps[c];
            if (cap < 1 || (c >= 3 && cap >= total))
                continue;
            memset(buf, 0xaa, total + 16);
            avrogen_writer w;
            avrogen_writer_init_fixed(&w, buf, cap);
            avrogen_write_long(&w, 1);
            write_via(&w, via, s, len);
            if (cap >= total) {
                ck_assert_int_eq(w.err, AVROGEN_OK);
                ck_assert_uint_eq(avrogen_writer_len(&w), total);
                ck_assert_mem_eq(buf, want, total);
            } else {
                /*
                 * E_NOSPACE, and the output stops where the error is.
                 * avrogen_write_cstring reserves the prefix and the body
                 * together, so nothing of the string is written;
                 * avrogen_write_string (a run's fallback too) writes the
                 * prefix when that fits and fails at the body.
                 */
                size_t stop = via != VIA_CSTRING && cap >= 1 + np ? 1 + np : 1;
                ck_assert_int_eq(w.err, AVROGEN_E_NOSPACE);
                ck_assert_uint_eq(w.err_offset, stop);
                ck_assert_uint_eq(avrogen_writer_len(&w), stop);
                ck_assert_mem_eq(buf, want, stop);
                /* Sticky: a later write changes nothing. */
                avrogen_write_cstring(&w, "");
                ck_assert_int_eq(w.err, AVROGEN_E_NOSPACE);
                ck_assert_uint_eq(w.err_offset, stop);
                ck_assert_uint_eq(avrogen_writer_len(&w), stop);
            }
            /* Nothing past what was written: not the rest of the string, and
             * never a byte past the end of the buffer. */
            size_t clean = avrogen_writer_len(&w);
            while (clean < total + 16 && buf[clean] == 0xaa)
                clean++;
            ck_assert_uint_eq(clean, total + 16);
        }

        /* Growable writers: empty, and with the string crossing the first
         * growth (the buffer starts at 256 bytes). */
        for (size_t lead = 0; lead <= 300; lead += 50) {
            avrogen_writer w;
            avrogen_writer_init_growable(&w, NULL);
            for (size_t i = 0; i < lead; i++)
                avrogen_write_bool(&w, true);
            avrogen_write_long(&w, 1);
            write_via(&w, via, s, len);
            ck_assert_int_eq(w.err, AVROGEN_OK);
            ck_assert_uint_eq(avrogen_writer_len(&w), lead + total);
            ck_assert_mem_eq(avrogen_writer_data(&w) + lead, want, total);
            avrogen_writer_fini(&w);
        }
    }

    /* And it reads back, as a view and as a copy. */
    avrogen_reader r;
    avrogen_reader_init(&r, want, total);
    ck_assert(avrogen_read_long(&r) == 1);
    avrogen_str v = avrogen_read_text(&r);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    ck_assert_uint_eq(v.len, len);
    ck_assert_ptr_eq(v.ptr, (const char *)want + 1 + np);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_reader_init(&r, want, total);
    (void)avrogen_read_long(&r);
    char *copy = avrogen_read_cstring(&r, &a);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    ck_assert_ptr_nonnull(copy);
    ck_assert_str_eq(copy, s);
    avrogen_arena_fini(&a);

    free(buf);
    free(want);
    free(s);
}
END_TEST

START_TEST(write_cstring_null)
{
    uint8_t buf[4];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_write_cstring(&w, NULL);
    ck_assert_int_eq(w.err, AVROGEN_E_ARG);
    ck_assert_uint_eq(avrogen_writer_len(&w), 0);
    ck_assert_uint_eq(avrogen_size_cstring(NULL), 0);
}
END_TEST

/* A heap copy of data[0, len) in a block of exactly len bytes (1 when len is 0). */
static uint8_t *test_exact(const void *data, size_t len)
{
    uint8_t *p = malloc(len != 0 ? len : 1);
    ck_assert_ptr_nonnull(p);
    if (len != 0)
        memcpy(p, data, len);
    return p;
}

/*
 * The UTF-8 validator of the code points (RFC 3629 §3, §4): the lead byte
 * gives the length, each continuation byte 6 bits, and the code point must
 * need that length and be neither a surrogate nor above U+10FFFF. The
 * runtime's validator works from the Unicode Standard's table of byte ranges
 * instead, so the two are independent formulations of the same set.
 */
static bool ref_utf8_valid(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        size_t n;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 2, cp = c & 0x1fu, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 3, cp = c & 0x0fu, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            n = 4, cp = c & 0x07u, min = 0x10000;
        } else {
            return false;
        }
        if (len - i < n)
            return false;
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += n;
    }
    return true;
}

/*
 * What is wrong with how the runtime takes one candidate string body, or NULL:
 * the validator against the reference, avrogen_ascii_prefix's contract, and
 * avrogen_read_text, whose error must sit at the body's first byte. Plain
 * tests rather than ck_assert: this runs hundreds of thousands of times.
 */
static const char *text_problem(const uint8_t *body, size_t len)
{
    bool valid = ref_utf8_valid(body, len);
    if (avrogen_utf8_valid(body, len) != valid)
        return valid ? "valid UTF-8 refused" : "invalid UTF-8 accepted";

    size_t ascii = avrogen_ascii_prefix(body, len);
    if (ascii > len)
        return "ASCII prefix longer than the string";
    for (size_t i = 0; i < ascii; i++)
        if (body[i] >= 0x80)
            return "ASCII prefix holds a byte that is not ASCII";
    if (ascii != len) {
        bool any_high = false;
        for (size_t i = ascii; i < len && i < ascii + 32; i++)
            any_high |= body[i] >= 0x80;
        if (ascii % 32 != 0 || !any_high)
            return "ASCII prefix stops short of its 32-byte step";
    }
    if (avrogen_ascii(body, len) != (ascii == len))
        return "avrogen_ascii disagrees with avrogen_ascii_prefix";

    /* As a string value: a long 1 first, then the length and the body. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_long(&w, 1);
    avrogen_write_bytes(&w, body, len);
    size_t at = avrogen_writer_len(&w) - len; /* the body's offset */
    uint8_t *in = test_exact(avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_reader r;
    avrogen_reader_init(&r, in, avrogen_writer_len(&w));
    avrogen_writer_fini(&w);
    (void)avrogen_read_long(&r);
    avrogen_str s = avrogen_read_text(&r);
    free(in);
    if (valid && (r.err != AVROGEN_OK || s.len != len || avrogen_reader_remaining(&r) != 0))
        return "avrogen_read_text refused valid UTF-8";
    if (!valid && (r.err != AVROGEN_E_INVALID || r.err_offset != at || s.len != 0 ||
                   strcmp(r.err_msg, "string is not valid UTF-8") != 0))
        return "avrogen_read_text: wrong error for invalid UTF-8";
    return NULL;
}

/* Run text_problem on a copy of the body in a heap block of exactly its size
 * (as is the input it reads), where ASan and valgrind see any over-read. */
static void check_text(const uint8_t *data, size_t len)
{
    uint8_t *body = test_exact(data, len);
    const char *why = text_problem(body, len);
    if (why != NULL) {
        char hex[3 * 64 + 4] = "";
        for (size_t i = 0; i < len && i < 64; i++)
            snprintf(hex + 3 * i, 4, "%02x ", body[i]);
        ck_abort_msg("%s: %zu bytes %s%s", why, len, hex, len > 64 ? "..." : "");
    }
    free(body);
}

/* The validator and the reference agree on s[0, len). */
static void check_utf8(const uint8_t *s, size_t len)
{
    if (avrogen_utf8_valid(s, len) != ref_utf8_valid(s, len))
        ck_abort_msg(
                "avrogen_utf8_valid disagrees with the reference on %zu bytes %02x %02x %02x %02x",
                len, s[0], len > 1 ? s[1] : 0, len > 2 ? s[2] : 0, len > 3 ? s[3] : 0);
}

static const char *const bad_seqs[] = {
        "ff",          "fe",
        "80",          "bf",
        "c0 80",       "c1 bf",
        "c2",          "c2 41",
        "c2 c0",       "e0 80 80",
        "e0 9f bf",    "e2 82",
        "e2 82 41",    "ed a0 80",
        "ed bf bf",    "f0 80 80 80",
        "f0 8f bf bf", "f4 90 80 80",
        "f4 8f bf",    "f4 8f bf 41",
        "f5 80 80 80", "f8 88 80 80 80",
};
static const char *const good_seqs[] = {
        "c2 80",    "c3 a9",    "df bf",       "e0 a0 80",    "e2 82 ac",    "ed 9f bf",
        "ee 80 80", "ef bf bf", "f0 90 80 80", "f0 9f 98 80", "f3 bf bf bf", "f4 8f bf bf",
};

/* Invalid UTF-8 after ASCII prefixes of every length 0..40 (and a few past the
 * 32-byte steps), followed by nothing or by more ASCII: E_INVALID at the start
 * of the string's body, as without the prefix scan, through every reader. */
START_TEST(invalid_utf8_after_ascii)
{
    static const size_t prefixes[] = {64, 65, 95, 96, 97, 200};
    static const size_t trailers[] = {0, 1, 7, 8, 9, 40};
    uint8_t body[256 + 8 + 64];
    for (size_t b = 0; b < sizeof bad_seqs / sizeof *bad_seqs; b++) {
        uint8_t seq[8];
        size_t ns = test_unhex(bad_seqs[b], seq, sizeof seq);
        for (size_t p = 0; p <= 40 + sizeof prefixes / sizeof *prefixes; p++) {
            size_t k = p <= 40 ? p : prefixes[p - 41];
            for (size_t t = 0; t < sizeof trailers / sizeof *trailers; t++) {
                size_t len = 0;
                for (size_t i = 0; i < k; i++)
                    body[len++] = (uint8_t)('a' + i % 26);
                memcpy(body + len, seq, ns);
                len += ns;
                for (size_t i = 0; i < trailers[t]; i++)
                    body[len++] = 'z';
                ck_assert(!ref_utf8_valid(body, len));
                check_text(body, len);

                /* The copying readers fail the same way. */
                uint8_t in[8 + sizeof body];
                avrogen_writer w;
                avrogen_writer_init_fixed(&w, in, sizeof in);
                avrogen_write_bytes(&w, body, len);
                size_t at = avrogen_writer_len(&w) - len;
                avrogen_arena a;
                avrogen_arena_init(&a, NULL);
                avrogen_reader r;
                avrogen_reader_init(&r, in, avrogen_writer_len(&w));
                ck_assert_ptr_null(avrogen_read_cstring(&r, &a));
                ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
                ck_assert_uint_eq(r.err_offset, at);
                avrogen_reader_init(&r, in, avrogen_writer_len(&w));
                (void)avrogen_read_string(&r);
                ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
                ck_assert_uint_eq(r.err_offset, at);
                char chars[sizeof body + 1];
                avrogen_reader_init(&r, in, avrogen_writer_len(&w));
                avrogen_read_chars(&r, chars, sizeof chars);
                ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
                ck_assert_uint_eq(r.err_offset, at);
                /* Unless checking is off. */
                avrogen_reader_init(&r, in, avrogen_writer_len(&w));
                r.check_utf8 = false;
                ck_assert_uint_eq(avrogen_read_text(&r).len, len);
                ck_assert_int_eq(r.err, AVROGEN_OK);
                avrogen_arena_fini(&a);
            }
        }
    }
}
END_TEST

/* Valid multi-byte characters at every offset 0..40 and across the 8- and
 * 32-byte steps, alone, in pairs and followed by ASCII. */
START_TEST(valid_utf8_straddling_words)
{
    uint8_t body[128];
    for (size_t g = 0; g < sizeof good_seqs / sizeof *good_seqs; g++) {
        uint8_t seq[8];
        size_t ns = test_unhex(good_seqs[g], seq, sizeof seq);
        for (size_t k = 0; k <= 40; k++) {
            for (size_t t = 0; t <= 9; t++) {
                for (int twice = 0; twice <= 1; twice++) {
                    size_t len = 0;
                    for (size_t i = 0; i < k; i++)
                        body[len++] = (uint8_t)('A' + i % 26);
                    for (int c = 0; c <= twice; c++) {
                        memcpy(body + len, seq, ns);
                        len += ns;
                    }
                    for (size_t i = 0; i < t; i++)
                        body[len++] = '0';
                    ck_assert(ref_utf8_valid(body, len));
                    check_text(body, len);

                    uint8_t in[8 + sizeof body];
                    avrogen_writer w;
                    avrogen_writer_init_fixed(&w, in, sizeof in);
                    avrogen_write_bytes(&w, body, len);
                    avrogen_arena a;
                    avrogen_arena_init(&a, NULL);
                    avrogen_reader r;
                    avrogen_reader_init(&r, in, avrogen_writer_len(&w));
                    char *copy = avrogen_read_cstring(&r, &a);
                    ck_assert_int_eq(r.err, AVROGEN_OK);
                    ck_assert_mem_eq(copy, body, len);
                    ck_assert_int_eq(copy[len], '\0');
                    avrogen_arena_fini(&a);
                }
            }
        }
    }
    /* A long run of nothing but multi-byte characters. */
    size_t len = 0;
    while (len + 4 <= sizeof body) {
        uint8_t seq[8];
        size_t ns = test_unhex(good_seqs[len % 12], seq, sizeof seq);
        if (len + ns > sizeof body)
            break;
        memcpy(body + len, seq, ns);
        len += ns;
    }
    check_text(body, len);
    ck_assert(avrogen_utf8_valid(body, len));
}
END_TEST

/*
 * Against the reference: every sequence of 1 and 2 bytes; 3 and 4 bytes from
 * every lead byte 80..FF, the second byte taking every value (where the
 * ranges differ) and the later ones the values around the class edges (where
 * a continuation byte starts and stops); each alone, and the 4-byte ones
 * also between ASCII from a word boundary to the middle of one.
 */
START_TEST(utf8_matches_reference)
{
    static const uint8_t edges[] = {0x00, 0x41, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x9f,
                                    0xa0, 0xbe, 0xbf, 0xc0, 0xc2, 0xe0, 0xf0, 0xff};
    uint8_t s[64];
    for (unsigned v = 0; v < 0x10000; v++) {
        s[0] = (uint8_t)v;
        s[1] = (uint8_t)(v >> 8);
        check_utf8(s, 1);
        check_utf8(s, 2);
    }
    for (unsigned lead = 0x80; lead <= 0xff; lead++) {
        for (unsigned second = 0; second <= 0xff; second++) {
            for (size_t c = 0; c < sizeof edges; c++) {
                uint8_t q[4] = {(uint8_t)lead, (uint8_t)second, edges[c], 0};
                check_utf8(q, 3);
                for (size_t d = 0; d < sizeof edges; d++) {
                    q[3] = edges[d];
                    check_utf8(q, 4);
                }
            }
        }
    }
    for (unsigned lead = 0xe0; lead <= 0xf8; lead++)
        for (size_t a = 0; a < sizeof edges; a++)
            for (size_t b = 0; b < sizeof edges; b += 3)
                for (size_t c = 0; c < sizeof edges; c++) {
                    uint8_t q[4] = {(uint8_t)lead, edges[a], edges[b], edges[c]};
                    size_t k = (lead + a + b + c) % 12;
                    memset(s, 'x', sizeof s);
                    memcpy(s + k, q, 4);
                    check_text(s, k + 4 + (a + c) % 13);
                }
}
END_TEST

/* Random text: ASCII runs, valid characters and stray bytes, compared with
 * the reference (a fixed seed, so a failure repeats). */
START_TEST(utf8_random_text)
{
    uint64_t x = 0x9e3779b97f4a7c15u;
    uint8_t body[160];
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = 0, want;
        x = x * 6364136223846793005u + 1442695040888963407u;
        want = (size_t)(x >> 33) % 140;
        while (len < want) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            unsigned pick = (unsigned)(x >> 40) % 100;
            if (pick < 80 || iter % 3 == 0) {
                body[len++] = (uint8_t)(0x20 + (x >> 20) % 0x5f);
            } else if (pick < 98) {
                uint8_t seq[8];
                size_t ns = test_unhex(good_seqs[(x >> 24) % 12], seq, sizeof seq);
                memcpy(body + len, seq, ns);
                len += ns;
            } else {
                body[len++] = (uint8_t)(x >> 12);
            }
        }
        check_text(body, len);
    }
}
END_TEST

/*
 * avrogen_plain_prefix against the obvious loop: for every length up to 100
 * and one bad byte (NUL, 0x80, 0xff) at every position, the result is len
 * only when no byte is bad, else a multiple of 32 at or before the bad one.
 * The buffer is exactly len bytes, so a read past it is ASan's to catch.
 */
START_TEST(plain_prefix_every_position)
{
    static const uint8_t bad[] = {0x00, 0x80, 0xff};
    for (size_t len = 0; len <= 100; len++) {
        uint8_t *buf = malloc(len + 1);
        ck_assert_ptr_nonnull(buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)(0x01 + (i * 7) % 0x7f);
        ck_assert_uint_eq(avrogen_plain_prefix(buf, len), len);
        for (size_t at = 0; at < len; at++) {
            for (size_t b = 0; b < sizeof bad; b++) {
                uint8_t keep = buf[at];
                buf[at] = bad[b];
                size_t got = avrogen_plain_prefix(buf, len);
                ck_assert_msg(got <= at && got % 32 == 0, "len %zu, 0x%02x at %zu: %zu", len,
                              bad[b], at, got);
                buf[at] = keep;
            }
        }
        free(buf);
    }
}
END_TEST

/* A NUL at every position of strings of every length up to 70 is refused, at the string. */
START_TEST(nul_at_every_position)
{
    for (size_t len = 1; len <= 70; len++) {
        for (size_t at = 0; at < len; at++) {
            uint8_t in[2 + 70];
            in[0] = (uint8_t)(len * 2); /* zigzag of len < 64: one byte; 64..70: two */
            size_t off = 1;
            if (len >= 64) {
                in[0] = (uint8_t)((len * 2) | 0x80);
                in[1] = (uint8_t)((len * 2) >> 7);
                off = 2;
            }
            memset(in + off, 'x', len);
            in[off + at] = 0;
            avrogen_arena a;
            avrogen_arena_init(&a, NULL);
            avrogen_reader r;
            avrogen_reader_init(&r, in, off + len);
            ck_assert_ptr_null(avrogen_read_cstring(&r, &a));
            ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
            ck_assert_uint_eq(r.err_offset, off);
            char buf[80];
            avrogen_reader_init(&r, in, off + len);
            avrogen_read_chars(&r, buf, sizeof buf);
            ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
            ck_assert_uint_eq(r.err_offset, off);
            avrogen_arena_fini(&a);
        }
    }
}
END_TEST

/*
 * Avro strings may hold U+0000; a char * or char[N] cannot without cutting the
 * value short, so those reads fail at the string, while a view takes it whole.
 */
START_TEST(nul_in_c_strings)
{
    static const uint8_t datum[] = {0x00, 0x06, 'a', 0x00, 'b'}; /* "", then "a\0b" */
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_reader r;
    avrogen_reader_init(&r, datum, sizeof datum);
    char *empty = avrogen_read_cstring(&r, &a);
    ck_assert_ptr_nonnull(empty);
    ck_assert_str_eq(empty, "");
    ck_assert_ptr_null(avrogen_read_cstring(&r, &a));
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    ck_assert_uint_eq(r.err_offset, 2); /* the string's first byte */
    ck_assert_ptr_nonnull(strstr(r.err_msg, "NUL"));

    char buf[8];
    avrogen_reader_init(&r, datum + 1, sizeof datum - 1);
    avrogen_read_chars(&r, buf, sizeof buf);
    ck_assert_int_eq(r.err, AVROGEN_E_INVALID);
    ck_assert_uint_eq(r.err_offset, 1);
    ck_assert_str_eq(buf, "");

    avrogen_reader_init(&r, datum + 1, sizeof datum - 1);
    avrogen_str v = avrogen_read_string(&r);
    ck_assert_int_eq(r.err, AVROGEN_OK);
    ck_assert_uint_eq(v.len, 3);
    ck_assert_int_eq(memcmp(v.ptr, "a\0b", 3), 0);
    avrogen_arena_fini(&a);
}
END_TEST

/*
 * avrogen_read_cstring with and without input after the string: the copy
 * (whole 16-byte blocks when the input holds them) equals the string, is
 * NUL-terminated, takes from the arena what len + 1 bytes would, writes
 * nothing past its allocation, and fails on the arena budget as before.
 */
START_TEST(read_cstring_copies)
{
    uint8_t body[80], in[1 + 10 + 80 + 40];
    for (size_t len = 0; len <= 70; len++) {
        for (size_t i = 0; i < len; i++)
            body[i] = (uint8_t)('a' + (i * 5 + len) % 26);
        for (size_t after = 0; after <= 40; after++) {
            avrogen_writer w;
            avrogen_writer_init_fixed(&w, in, sizeof in);
            avrogen_write_bool(&w, true);
            avrogen_write_bytes(&w, body, len);
            size_t end = avrogen_writer_len(&w);
            memset(in + end, 0xee, after); /* the next values, or nothing */

            /* Dirty the arena's chunk, then reuse it: the read must leave
             * everything after its own allocation as it was. */
            avrogen_arena a;
            avrogen_arena_init(&a, NULL);
            memset(avrogen_arena_alloc(&a, 512), 0xcc, 512);
            avrogen_arena_reset(&a);

            size_t rounded = (len + 1 + 15) & ~(size_t)15;
            /* The input in a block of its exact size: no reading past it. */
            uint8_t *exact = test_exact(in, end + after);
            avrogen_reader r;
            avrogen_reader_init(&r, exact, end + after);
            ck_assert(avrogen_read_bool(&r));
            char *copy = avrogen_read_cstring(&r, &a);
            free(exact);
            ck_assert_int_eq(r.err, AVROGEN_OK);
            ck_assert_ptr_nonnull(copy);
            ck_assert_mem_eq(copy, body, len);
            ck_assert_int_eq(copy[len], '\0');
            ck_assert_uint_eq(avrogen_reader_offset(&r), end);
            ck_assert_uint_eq(avrogen_arena_used(&a), rounded);
            size_t clean = rounded;
            while (clean < 512 && (uint8_t)copy[clean] == 0xcc)
                clean++;
            ck_assert_uint_eq(clean, 512);
            avrogen_arena_reset(&a);

            /* The budget: exactly enough, then one byte short (E_LIMIT). */
            avrogen_arena_set_budget(&a, rounded);
            avrogen_reader_init(&r, in, end + after);
            (void)avrogen_read_bool(&r);
            ck_assert_ptr_nonnull(avrogen_read_cstring(&r, &a));
            ck_assert_int_eq(r.err, AVROGEN_OK);
            avrogen_arena_reset(&a);
            avrogen_arena_set_budget(&a, rounded - 1);
            avrogen_reader_init(&r, in, end + after);
            (void)avrogen_read_bool(&r);
            ck_assert_ptr_null(avrogen_read_cstring(&r, &a));
            ck_assert_int_eq(r.err, AVROGEN_E_LIMIT);
            avrogen_arena_fini(&a);
        }
    }
}
END_TEST

static Suite *stream_suite(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("long");
    tcase_add_loop_test(tc, write_long_table, 0, N_LONGS);
    tcase_add_loop_test(tc, read_long_table, 0, N_LONGS);
    tcase_add_loop_test(tc, read_int_table, 0, N_LONGS);
    tcase_add_test(tc, read_overlong_varints);
    suite_add_tcase(s, tc);
    tc = tcase_create("scalars");
    tcase_add_test(tc, floats_known_answers);
    tcase_add_test(tc, bools);
    suite_add_tcase(s, tc);
    tc = tcase_create("bytes");
    tcase_add_test(tc, strings_and_bytes);
    tcase_add_test(tc, hostile_lengths);
    suite_add_tcase(s, tc);
    tc = tcase_create("blocks");
    tcase_add_test(tc, block_counts);
    tcase_add_test(tc, depth_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("writer");
    tcase_add_test(tc, growable_writer);
    tcase_add_test(tc, growable_writer_oom);
    suite_add_tcase(s, tc);
    tc = tcase_create("strings");
    tcase_add_test(tc, copy_every_length);
    tcase_add_loop_test(tc, write_string_lengths, 0, N_STR_LENGTHS);
    tcase_add_test(tc, write_cstring_null);
    tcase_add_test(tc, read_cstring_copies);
    tcase_add_test(tc, nul_in_c_strings);
    tcase_add_test(tc, plain_prefix_every_position);
    tcase_add_test(tc, nul_at_every_position);
    tcase_add_test(tc, invalid_utf8_after_ascii);
    tcase_add_test(tc, valid_utf8_straddling_words);
    tcase_add_test(tc, utf8_matches_reference);
    tcase_add_test(tc, utf8_random_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(stream_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
