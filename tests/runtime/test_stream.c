/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary-encoding primitives of gencode.h: varints at every length and
 * boundary, floats, bytes, blocks, and the reader's hostile-input errors.
 * Expected encodings were produced by python3-avro 1.11.1's BinaryEncoder
 * (write_long / write_float / write_double) and agree with the spec's table.
 */
#include <math.h>
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
    /* spec: count -2 (03) followed by byte size 4 (08): two items. */
    size_t n = test_unhex("03 08 00", in, sizeof in);
    avrogen_reader_init(&r, in, n);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 2);
    ck_assert_uint_eq(avrogen_reader_offset(&r), 2);
    ck_assert_uint_eq(avrogen_read_block_count(&r), 0);
    ck_assert_int_eq(r.err, AVROGEN_OK);
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
