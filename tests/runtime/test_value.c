/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generic values (value.h): building, equality, binary encode/decode/skip by
 * schema, and hostile input. Expected encodings follow the spec's rules (zigzag
 * varints, length-prefixed bytes, one block then 0 for arrays and maps); the
 * interop suite (tests/interop) checks the same values byte for byte against
 * avro-c, whose encoder agrees with them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/value.h"

#include "testutil.h"

static avrogen_arena arena;

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
}

static void teardown(void)
{
    avrogen_arena_fini(&arena);
}

static avrogen_schema *parse(const char *json)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse(json, strlen(json), NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "schema: %s: %s", d.path, d.msg);
    return s;
}

/* Encode v into a growable writer; the caller finis it. */
static void encode(avrogen_writer *w, const avrogen_value *v)
{
    avrogen_writer_init_growable(w, NULL);
    ck_assert_int_eq(avrogen_value_encode(w, v), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(w), avrogen_value_size(v));
}

static avrogen_status decode_bytes(const uint8_t *buf, size_t len, const avrogen_node *t,
                                   avrogen_value *out, size_t *consumed)
{
    avrogen_reader r;
    avrogen_reader_init(&r, buf, len);
    avrogen_status st = avrogen_value_decode(&r, t, out, &arena);
    if (consumed != NULL)
        *consumed = avrogen_reader_offset(&r);
    return st;
}

static avrogen_status skip_bytes(const uint8_t *buf, size_t len, const avrogen_node *t,
                                 size_t *consumed)
{
    avrogen_reader r;
    avrogen_reader_init(&r, buf, len);
    avrogen_reader_begin_datum(&r);
    avrogen_status st = avrogen_skip(&r, t);
    if (consumed != NULL)
        *consumed = avrogen_reader_offset(&r);
    return st;
}

static avrogen_status decode_hex(const char *hex, const avrogen_node *t, avrogen_value *out)
{
    uint8_t buf[256];
    size_t n = test_unhex(hex, buf, sizeof buf);
    return decode_bytes(buf, n, t, out, NULL);
}

static avrogen_status skip_hex(const char *hex, const avrogen_node *t)
{
    uint8_t buf[256];
    size_t n = test_unhex(hex, buf, sizeof buf);
    return skip_bytes(buf, n, t, NULL);
}

/* ---- int and long boundaries ------------------------------------------------ */

/*
 * spec §Primitive Types: int and long are zigzag varints. Zigzag maps v to
 * 2v (v >= 0) or -2v-1 (v < 0); each byte carries 7 bits, low group first, high
 * bit set on all but the last. The smallest value needing L bytes is 2^(7L-8),
 * written as L-1 bytes 0x80 and a final 0x01.
 */
static const struct {
    int64_t value;
    const char *hex;
} varints[] = {
        {0, "00"},
        {1, "02"},
        {-1, "01"},
        {63, "7e"},
        {-63, "7d"},
        {64, "80 01"},
        {-64, "7f"},
        {-65, "81 01"},
        {8191, "fe 7f"},
        {-8192, "ff 7f"},
        {8192, "80 80 01"},
        {1048576, "80 80 80 01"},
        {134217728, "80 80 80 80 01"},
        {INT32_MAX, "fe ff ff ff 0f"},
        {INT32_MIN, "ff ff ff ff 0f"},
        {2147483648LL, "80 80 80 80 10"},
        {-2147483649LL, "81 80 80 80 10"},
        {17179869184LL, "80 80 80 80 80 01"},
        {2199023255552LL, "80 80 80 80 80 80 01"},
        {281474976710656LL, "80 80 80 80 80 80 80 01"},
        {36028797018963968LL, "80 80 80 80 80 80 80 80 01"},
        {-4611686018427387904LL, "ff ff ff ff ff ff ff ff 7f"},
        {4611686018427387904LL, "80 80 80 80 80 80 80 80 80 01"},
        {INT64_MAX, "fe ff ff ff ff ff ff ff ff 01"},
        {INT64_MIN, "ff ff ff ff ff ff ff ff ff 01"},
};
#define N_VARINTS ((int)(sizeof varints / sizeof varints[0]))

START_TEST(long_table)
{
    avrogen_schema *s = parse("\"long\"");
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t want[16];
    size_t n = test_unhex(varints[_i].hex, want, sizeof want);

    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(&v, varints[_i].value), AVROGEN_OK);
    avrogen_writer w;
    encode(&w, &v);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);
    avrogen_writer_fini(&w);

    avrogen_value back;
    size_t used = 0;
    ck_assert_int_eq(decode_bytes(want, n, t, &back, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    ck_assert(back.i64 == varints[_i].value);
    ck_assert_int_eq(skip_bytes(want, n, t, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(int_table)
{
    avrogen_schema *s = parse("\"int\"");
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t want[16];
    size_t n = test_unhex(varints[_i].hex, want, sizeof want);
    int64_t x = varints[_i].value;
    bool fits = x >= INT32_MIN && x <= INT32_MAX;

    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(&v, x), fits ? AVROGEN_OK : AVROGEN_E_ARG);
    avrogen_value back;
    avrogen_status st = decode_bytes(want, n, t, &back, NULL);
    if (!fits) {
        /* spec: an int is 32 bits; a larger varint is not an int. */
        ck_assert_int_eq(st, AVROGEN_E_OVERFLOW);
        ck_assert_int_eq(skip_bytes(want, n, t, NULL), AVROGEN_E_OVERFLOW);
        avrogen_schema_free(s);
        return;
    }
    avrogen_writer w;
    encode(&w, &v);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);
    avrogen_writer_fini(&w);
    ck_assert_int_eq(st, AVROGEN_OK);
    ck_assert_int_eq(back.i32, (int32_t)x);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(bad_varints)
{
    avrogen_schema *sl = parse("\"long\"");
    avrogen_schema *si = parse("\"int\"");
    const avrogen_node *l = avrogen_schema_root(sl), *i = avrogen_schema_root(si);
    avrogen_value v;
    /* 11 bytes: longer than any long. */
    ck_assert_int_eq(decode_hex("80 80 80 80 80 80 80 80 80 80 01", l, &v), AVROGEN_E_OVERFLOW);
    /* The tenth byte may only carry bit 63. */
    ck_assert_int_eq(decode_hex("80 80 80 80 80 80 80 80 80 02", l, &v), AVROGEN_E_OVERFLOW);
    ck_assert_int_eq(skip_hex("80 80 80 80 80 80 80 80 80 02", l), AVROGEN_E_OVERFLOW);
    /* An int's fifth byte carries 4 bits; six bytes never fit. */
    ck_assert_int_eq(decode_hex("80 80 80 80 20", i, &v), AVROGEN_E_OVERFLOW);
    ck_assert_int_eq(decode_hex("80 80 80 80 80 01", i, &v), AVROGEN_E_OVERFLOW);
    /* Ends mid-varint. */
    ck_assert_int_eq(decode_hex("80 80", l, &v), AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(decode_hex("", i, &v), AVROGEN_E_TRUNCATED);
    avrogen_schema_free(sl);
    avrogen_schema_free(si);
}
END_TEST

/* ---- every kind -------------------------------------------------------------- */

static const char all_kinds_schema[] =
        "{\"type\":\"record\",\"name\":\"All\",\"namespace\":\"t\",\"fields\":["
        "{\"name\":\"n\",\"type\":\"null\"},"
        "{\"name\":\"b\",\"type\":\"boolean\"},"
        "{\"name\":\"i\",\"type\":\"int\"},"
        "{\"name\":\"l\",\"type\":\"long\"},"
        "{\"name\":\"f\",\"type\":\"float\"},"
        "{\"name\":\"d\",\"type\":\"double\"},"
        "{\"name\":\"by\",\"type\":\"bytes\"},"
        "{\"name\":\"s\",\"type\":\"string\"},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\","
        "\"GREEN\",\"BLUE\"]}},"
        "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F4\",\"size\":4}},"
        "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
        "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},"
        "{\"name\":\"u\",\"type\":[\"null\",\"long\",\"Color\"]},"
        "{\"name\":\"r\",\"type\":{\"type\":\"record\",\"name\":\"Inner\",\"fields\":["
        "{\"name\":\"x\",\"type\":\"double\"}]}},"
        "{\"name\":\"dec\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
        "\"precision\":9,\"scale\":2}}"
        "]}";

/*
 * The datum built by build_all(), written out by the spec's rules field by
 * field; each comment names the field.
 */
static const char all_kinds_hex[] = "01"                      /* b: true */
                                    "f3 01"                   /* i: -122 */
                                    "80 80 80 80 10"          /* l: 2^31 */
                                    "00 00 c0 3f"             /* f: 1.5f */
                                    "00 00 00 00 00 00 04 c0" /* d: -2.5 */
                                    "06 00 ff 41"             /* by: 00 ff 41 */
                                    "06 68 c3 a9"             /* s: "hé" */
                                    "04"                      /* e: BLUE */
                                    "de ad be ef"             /* fx */
                                    "06 02 00 01 00"          /* a: [1, 0, -1] */
                                    "04 02 6b 02 76 00 00 00" /* m: {"k": "v", "": ""} */
                                    "04 02"                   /* u: branch 2, GREEN */
                                    "00 00 00 00 00 00 f0 3f" /* r: {x: 1.0} */
                                    "04 30 39";               /* dec: 12345 unscaled */

static void build_all(const avrogen_node *t, avrogen_value *v)
{
    avrogen_value *x;
    ck_assert_int_eq(avrogen_value_init(v, t, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_bool(avrogen_value_field(v, "b"), true), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(avrogen_value_field(v, "i"), -122), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(avrogen_value_field(v, "l"), 2147483648LL), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(v, "f"), 1.5), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(v, "d"), -2.5), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_bytes(avrogen_value_field(v, "by"),
                                             "\0\xff"
                                             "A",
                                             3, &arena),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_string(avrogen_value_field(v, "s"), "h\xc3\xa9", 3, &arena),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_enum(avrogen_value_field(v, "e"), "BLUE"), AVROGEN_OK);
    ck_assert_int_eq(
            avrogen_value_set_bytes(avrogen_value_field(v, "fx"), "\xde\xad\xbe\xef", 4, &arena),
            AVROGEN_OK);
    avrogen_value *a = avrogen_value_field(v, "a");
    for (int k = 1; k >= -1; k--) {
        ck_assert_int_eq(avrogen_value_append(a, &arena, &x), AVROGEN_OK);
        ck_assert_int_eq(avrogen_value_set_long(x, k), AVROGEN_OK);
    }
    avrogen_value *m = avrogen_value_field(v, "m");
    ck_assert_int_eq(avrogen_value_map_put(m, "k", 1, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_string(x, "v", 1, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_map_put(m, "", 0, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_branch(avrogen_value_field(v, "u"), 2, &arena, &x),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_enum(x, "GREEN"), AVROGEN_OK);
    ck_assert_int_eq(
            avrogen_value_set_double(avrogen_value_field(avrogen_value_field(v, "r"), "x"), 1.0),
            AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_bytes(avrogen_value_field(v, "dec"), "\x30\x39", 2, &arena),
                     AVROGEN_OK);
}

START_TEST(all_kinds_round_trip)
{
    avrogen_schema *s = parse(all_kinds_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    build_all(t, &v);

    uint8_t want[256];
    size_t n = test_unhex(all_kinds_hex, want, sizeof want);
    avrogen_writer w;
    encode(&w, &v);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);

    for (unsigned flags = 0; flags <= AVROGEN_VALUE_ZEROCOPY; flags++) {
        avrogen_reader r;
        avrogen_reader_init(&r, want, n);
        avrogen_reader_begin_datum(&r);
        avrogen_value back;
        ck_assert_int_eq(avrogen_value_read(&r, t, &back, &arena, flags), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
        ck_assert(avrogen_value_equal(&v, &back));
        ck_assert(avrogen_value_equal(&back, &v));
        const avrogen_value *str = avrogen_value_field(&back, "s");
        if (flags & AVROGEN_VALUE_ZEROCOPY) {
            ck_assert_ptr_eq(str->str.ptr, (const char *)want + 25); /* points into input */
        } else {
            ck_assert_str_eq(str->str.ptr, "h\xc3\xa9"); /* NUL-terminated copy */
        }
        ck_assert_str_eq(avrogen_value_enum_symbol(avrogen_value_field(&back, "e")), "BLUE");
        ck_assert_ptr_nonnull(avrogen_value_map_get(avrogen_value_field(&back, "m"), "k", 1));
        ck_assert_ptr_null(avrogen_value_map_get(avrogen_value_field(&back, "m"), "q", 1));

        avrogen_writer w2;
        encode(&w2, &back);
        ck_assert_uint_eq(avrogen_writer_len(&w2), n);
        ck_assert_mem_eq(avrogen_writer_data(&w2), want, n);
        avrogen_writer_fini(&w2);
    }
    size_t used;
    ck_assert_int_eq(skip_bytes(want, n, t, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(zero_values)
{
    avrogen_schema *s = parse(all_kinds_schema);
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_OK);
    /* Zero of each field: false, 0, 0, 0.0f, 0.0, "", "", RED, 4 zero bytes, [], {},
     * union branch 0 (null), {x: 0.0}, "". */
    uint8_t want[64];
    size_t n = test_unhex("00 00 00 00000000 0000000000000000 00 00 00 00000000 00 00 00"
                          "0000000000000000 00",
                          want, sizeof want);
    avrogen_writer w;
    encode(&w, &v);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);
    ck_assert_str_eq(avrogen_value_field(&v, "s")->str.ptr, "");
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(top_level_kinds)
{
    /* Non-record roots, each with its spec encoding. */
    static const struct {
        const char *schema, *hex;
    } cases[] = {
            {"\"null\"", ""},
            {"\"boolean\"", "01"},
            {"\"float\"", "00 00 80 7f"},              /* +inf */
            {"\"double\"", "00 00 00 00 00 00 f8 7f"}, /* NaN */
            {"{\"type\":\"array\",\"items\":\"null\"}", "06 00"},
            {"{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":\"long\"}}",
             "04 02 02 00 00 00"},
            {"{\"type\":\"map\",\"values\":{\"type\":\"fixed\",\"name\":\"Z\",\"size\":0}}",
             "02 02 61 00"},
            {"[\"string\",\"null\"]", "00 02 7a"},
            {"{\"type\":\"record\",\"name\":\"Empty\",\"fields\":[]}", ""},
            {"{\"type\":\"fixed\",\"name\":\"One\",\"size\":1}", "ff"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        avrogen_schema *s = parse(cases[k].schema);
        uint8_t in[64];
        size_t n = test_unhex(cases[k].hex, in, sizeof in);
        avrogen_value v;
        size_t used = 99;
        ck_assert_int_eq(decode_bytes(in, n, avrogen_schema_root(s), &v, &used), AVROGEN_OK);
        ck_assert_uint_eq(used, n);
        avrogen_writer w;
        encode(&w, &v);
        ck_assert_uint_eq(avrogen_writer_len(&w), n);
        if (n != 0)
            ck_assert_mem_eq(avrogen_writer_data(&w), in, n);
        ck_assert(avrogen_value_equal(&v, &v));
        ck_assert_int_eq(skip_bytes(in, n, avrogen_schema_root(s), &used), AVROGEN_OK);
        ck_assert_uint_eq(used, n);
        avrogen_writer_fini(&w);
        avrogen_schema_free(s);
    }
}
END_TEST

/* ---- building and equality --------------------------------------------------- */

START_TEST(setters_reject_wrong_kinds)
{
    avrogen_schema *s = parse(all_kinds_schema);
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_OK);
    avrogen_value *i = avrogen_value_field(&v, "i");
    avrogen_value *f = avrogen_value_field(&v, "f");
    ck_assert_int_eq(avrogen_value_set_bool(i, true), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_long(i, INT64_C(1) << 31), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_long(i, INT32_MIN), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_double(i, 1.0), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_double(f, 1e300), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_double(f, INFINITY), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_string(avrogen_value_field(&v, "s"), "\xff", 1, &arena),
                     AVROGEN_E_INVALID);
    ck_assert_int_eq(avrogen_value_set_bytes(avrogen_value_field(&v, "fx"), "abc", 3, &arena),
                     AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_enum(avrogen_value_field(&v, "e"), "PINK"), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_set_branch(avrogen_value_field(&v, "u"), 3, &arena, NULL),
                     AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_append(i, &arena, NULL), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_value_map_put(i, "k", 1, &arena, NULL), AVROGEN_E_ARG);
    ck_assert_ptr_null(avrogen_value_field(&v, "nope"));
    ck_assert_ptr_null(avrogen_value_field(i, "x"));
    ck_assert_ptr_null(avrogen_value_enum_symbol(i));
    avrogen_schema_free(s);
}
END_TEST

START_TEST(append_grows)
{
    avrogen_schema *s =
            parse("{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"long\"}}");
    avrogen_value m, *arr, *x;
    ck_assert_int_eq(avrogen_value_init(&m, avrogen_schema_root(s), &arena), AVROGEN_OK);
    char key[16];
    for (int k = 0; k < 50; k++) {
        int len = snprintf(key, sizeof key, "k%d", k % 7);
        ck_assert_int_eq(avrogen_value_map_put(&m, key, (size_t)len, &arena, &arr), AVROGEN_OK);
        ck_assert_int_eq(avrogen_value_append(arr, &arena, &x), AVROGEN_OK);
        ck_assert_int_eq(avrogen_value_set_long(x, k), AVROGEN_OK);
    }
    ck_assert_uint_eq(m.map.count, 7);
    const avrogen_value *k3 = avrogen_value_map_get(&m, "k3", 2);
    ck_assert_ptr_nonnull(k3);
    ck_assert_uint_eq(k3->array.count, 7); /* 3, 10, ..., 45 */
    for (size_t j = 0; j < k3->array.count; j++)
        ck_assert_int_eq(k3->array.items[j].i64, (int64_t)(3 + 7 * j));
    avrogen_schema_free(s);
}
END_TEST

START_TEST(equality_rules)
{
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                              "{\"name\":\"d\",\"type\":\"double\"},"
                              "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"}}]}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value a, b, *x;
    ck_assert_int_eq(avrogen_value_init(&a, t, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_init(&b, t, &arena), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&a, &b));

    /* Bitwise: NaN equals itself, 0.0 and -0.0 differ (they encode differently). */
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(&a, "d"), NAN), AVROGEN_OK);
    ck_assert(!avrogen_value_equal(&a, &b));
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(&b, "d"), NAN), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&a, &b));
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(&a, "d"), -0.0), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(&b, "d"), 0.0), AVROGEN_OK);
    ck_assert(!avrogen_value_equal(&a, &b));
    ck_assert_int_eq(avrogen_value_set_double(avrogen_value_field(&a, "d"), 0.0), AVROGEN_OK);

    /* Maps compare as sets of keys, whatever the order. */
    avrogen_value *ma = avrogen_value_field(&a, "m"), *mb = avrogen_value_field(&b, "m");
    ck_assert_int_eq(avrogen_value_map_put(ma, "x", 1, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(x, 1), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_map_put(ma, "y", 1, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(x, 2), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_map_put(mb, "y", 1, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(x, 2), AVROGEN_OK);
    ck_assert(!avrogen_value_equal(&a, &b));
    ck_assert_int_eq(avrogen_value_map_put(mb, "x", 1, &arena, &x), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_long(x, 1), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&a, &b));
    ck_assert_int_eq(avrogen_value_set_long(x, 3), AVROGEN_OK);
    ck_assert(!avrogen_value_equal(&a, &b));

    /* Same structure from two separate parses of the schema. */
    avrogen_schema *s2 = parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                               "{\"name\":\"d\",\"type\":\"double\"},"
                               "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"}}]}");
    avrogen_value c;
    ck_assert_int_eq(avrogen_value_init(&c, avrogen_schema_root(s2), &arena), AVROGEN_OK);
    avrogen_value e;
    ck_assert_int_eq(avrogen_value_init(&e, t, &arena), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&c, &e));
    avrogen_schema_free(s2);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(duplicate_map_keys_last_wins)
{
    avrogen_schema *s = parse("{\"type\":\"map\",\"values\":\"int\"}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    /* {"a": 1, "a": 2} on the wire */
    ck_assert_int_eq(decode_hex("04 02 61 02 02 61 04 00", t, &v), AVROGEN_OK);
    ck_assert_uint_eq(v.map.count, 2);
    ck_assert_int_eq(avrogen_value_map_get(&v, "a", 1)->i32, 2);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(encode_rejects_inconsistent_values)
{
    avrogen_schema *s = parse(all_kinds_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    avrogen_writer w;
    uint8_t buf[256];

    build_all(t, &v);
    avrogen_value_field(&v, "e")->enum_index = 3;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);

    build_all(t, &v);
    avrogen_value_field(&v, "fx")->bytes.len = 3;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);

    build_all(t, &v);
    avrogen_value_field(&v, "u")->branch.index = 0; /* the branch value is still an enum */
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);

    build_all(t, &v);
    avrogen_writer_init_fixed(&w, buf, 10);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_NOSPACE);
    avrogen_schema_free(s);
}
END_TEST

/* ---- hostile input ------------------------------------------------------------- */

START_TEST(truncated_at_every_prefix)
{
    avrogen_schema *s = parse(all_kinds_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t in[256];
    size_t n = test_unhex(all_kinds_hex, in, sizeof in);
    for (size_t len = 0; len < n; len++) {
        /* A copy of exactly `len` bytes, so ASan catches any read past it. */
        uint8_t *cut = malloc(len + 1);
        memcpy(cut, in, len);
        for (unsigned flags = 0; flags <= AVROGEN_VALUE_ZEROCOPY; flags++) {
            avrogen_reader r;
            avrogen_value v;
            avrogen_reader_init(&r, cut, len);
            avrogen_reader_begin_datum(&r);
            ck_assert_int_eq(avrogen_value_read(&r, t, &v, &arena, flags), AVROGEN_E_TRUNCATED);
            ck_assert_ptr_nonnull(r.err_msg);
            ck_assert_uint_le(r.err_offset, len);
        }
        ck_assert_int_eq(skip_bytes(cut, len, t, NULL), AVROGEN_E_TRUNCATED);
        free(cut);
        avrogen_arena_reset(&arena);
    }
    avrogen_schema_free(s);
}
END_TEST

START_TEST(bad_lengths_and_counts)
{
    avrogen_schema *sb = parse("\"bytes\"");
    avrogen_schema *ss = parse("\"string\"");
    avrogen_schema *sa = parse("{\"type\":\"array\",\"items\":\"long\"}");
    avrogen_schema *sm = parse("{\"type\":\"map\",\"values\":\"null\"}");
    const avrogen_node *b = avrogen_schema_root(sb), *str = avrogen_schema_root(ss);
    const avrogen_node *a = avrogen_schema_root(sa), *m = avrogen_schema_root(sm);
    avrogen_value v;

    /* spec: a length is a long; negative is malformed, past the end is truncation. */
    ck_assert_int_eq(decode_hex("01", b, &v), AVROGEN_E_INVALID);
    ck_assert_int_eq(skip_hex("01", b), AVROGEN_E_INVALID);
    ck_assert_int_eq(decode_hex("fe ff ff ff ff ff ff ff 7f", b, &v), AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(decode_hex("fe ff ff ff ff ff ff ff ff 01", str, &v), AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(skip_hex("fe ff ff ff ff ff ff ff ff 01", str), AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(decode_hex("04 61", str, &v), AVROGEN_E_TRUNCATED);

    /* Block counts: INT64_MIN has no absolute value; a negative count needs a
     * non-negative byte size; a count beyond the input is caught before any
     * allocation sized by it. */
    ck_assert_int_eq(decode_hex("ff ff ff ff ff ff ff ff ff 01", a, &v), AVROGEN_E_OVERFLOW);
    ck_assert_int_eq(skip_hex("ff ff ff ff ff ff ff ff ff 01", a), AVROGEN_E_OVERFLOW);
    ck_assert_int_eq(decode_hex("01 01 02 00", a, &v), AVROGEN_E_INVALID);
    ck_assert_int_eq(skip_hex("01 01 02 00", a), AVROGEN_E_INVALID);
    size_t before = avrogen_arena_used(&arena);
    ck_assert_int_eq(decode_hex("e8 07 02 04 06", a, &v), AVROGEN_E_TRUNCATED); /* 500 items */
    ck_assert_uint_eq(avrogen_arena_used(&arena), before);
    ck_assert_int_eq(skip_hex("e8 07 02 04 06", a), AVROGEN_E_TRUNCATED);
    /* A huge count trips the item budget first. */
    ck_assert_int_eq(decode_hex("fe ff ff ff ff ff ff ff 7f", a, &v), AVROGEN_E_LIMIT);
    ck_assert_int_eq(decode_hex("fe ff ff ff ff ff ff ff 7f", m, &v), AVROGEN_E_LIMIT);
    ck_assert_int_eq(skip_hex("fe ff ff ff ff ff ff ff 7f", m), AVROGEN_E_LIMIT);
    ck_assert_uint_eq(avrogen_arena_used(&arena), before);
    /* Map keys take a byte each even when values take none. */
    ck_assert_int_eq(decode_hex("c8 01 00", m, &v), AVROGEN_E_TRUNCATED);
    /* A negative block size larger than the input: skip cannot jump it. */
    ck_assert_int_eq(skip_hex("01 7e 02", a), AVROGEN_E_TRUNCATED);

    avrogen_schema_free(sb);
    avrogen_schema_free(ss);
    avrogen_schema_free(sa);
    avrogen_schema_free(sm);
}
END_TEST

START_TEST(bad_indexes_and_bytes)
{
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                              "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\","
                              "\"symbols\":[\"A\",\"B\"]}},"
                              "{\"name\":\"u\",\"type\":[\"null\",\"int\"]},"
                              "{\"name\":\"b\",\"type\":\"boolean\"},"
                              "{\"name\":\"s\",\"type\":\"string\"}]}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    ck_assert_int_eq(decode_hex("02 02 04 01 02 61", t, &v), AVROGEN_OK);
    ck_assert_int_eq(decode_hex("04 02 04 01 02 61", t, &v), AVROGEN_E_INVALID); /* enum 2 */
    ck_assert_int_eq(skip_hex("04 02 04 01 02 61", t), AVROGEN_E_INVALID);
    ck_assert_int_eq(decode_hex("01 02 04 01 02 61", t, &v), AVROGEN_E_INVALID); /* enum -1 */
    ck_assert_int_eq(decode_hex("02 04 04 01 02 61", t, &v), AVROGEN_E_INVALID); /* union 2 */
    ck_assert_int_eq(skip_hex("02 04 04 01 02 61", t), AVROGEN_E_INVALID);
    ck_assert_int_eq(decode_hex("02 01 04 01 02 61", t, &v), AVROGEN_E_INVALID);    /* union -1 */
    ck_assert_int_eq(decode_hex("02 02 04 02 02 61", t, &v), AVROGEN_E_INVALID);    /* bool 2 */
    ck_assert_int_eq(decode_hex("02 02 04 01 02 ff", t, &v), AVROGEN_E_INVALID);    /* not UTF-8 */
    ck_assert_int_eq(decode_hex("02 02 04 01 04 c0 80", t, &v), AVROGEN_E_INVALID); /* overlong */

    /* UTF-8 checking can be turned off; skip never checks it. */
    uint8_t in[8];
    size_t n = test_unhex("02 02 04 01 02 ff", in, sizeof in);
    avrogen_reader r;
    avrogen_reader_init(&r, in, n);
    r.check_utf8 = false;
    ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_OK);
    ck_assert_int_eq(skip_bytes(in, n, t, NULL), AVROGEN_OK);
    avrogen_schema_free(s);
}
END_TEST

static const char list_schema[] = "{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                                  "{\"name\":\"v\",\"type\":\"int\"},"
                                  "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}";

START_TEST(depth_limit)
{
    avrogen_schema *s = parse(list_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    /* A list of `len` nodes: each node is "v, branch 1", the last "v, branch 0".
     * Every node is a record that can contain itself: one level of max_depth. */
    size_t len = 1100;
    uint8_t *in = malloc(2 * len);
    for (size_t k = 0; k < len; k++) {
        in[2 * k] = 0x02;
        in[2 * k + 1] = k + 1 < len ? 0x02 : 0x00;
    }
    avrogen_value v;
    size_t used;
    ck_assert_int_eq(decode_bytes(in, 2 * len, t, &v, &used), AVROGEN_E_LIMIT);
    ck_assert_int_eq(skip_bytes(in, 2 * len, t, NULL), AVROGEN_E_LIMIT);

    avrogen_reader r;
    avrogen_reader_init(&r, in, 2 * len);
    r.max_depth = 1100;
    ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
    /* The writer has the same limit: 1100 nodes need a max_depth of 1100 too. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(w.err_msg, "Node.next.next"));
    ck_assert_ptr_nonnull(strstr(w.err_msg, "records nest deeper than the writer's max_depth"));
    avrogen_writer_reset(&w);
    w.max_depth = 1100;
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
    ck_assert_mem_eq(avrogen_writer_data(&w), in, 2 * len);
    avrogen_writer_fini(&w);

    /* The limit is exact: AVROGEN_DEFAULT_MAX_DEPTH nodes read, one more does not. */
    ck_assert_int_eq(decode_bytes(in + 2 * (len - 1000), 2000, t, &v, NULL), AVROGEN_OK);
    ck_assert_int_eq(skip_bytes(in + 2 * (len - 1000), 2000, t, NULL), AVROGEN_OK);
    ck_assert_int_eq(decode_bytes(in + 2 * (len - 1001), 2002, t, &v, NULL), AVROGEN_E_LIMIT);
    ck_assert_int_eq(skip_bytes(in + 2 * (len - 1001), 2002, t, NULL), AVROGEN_E_LIMIT);
    free(in);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(item_budget_bounds_zero_byte_items)
{
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"E\","
                              "\"fields\":[{\"name\":\"n\",\"type\":\"null\"}]}}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    /* 2^26 + 1 empty records in 5 bytes: only the item budget stops it. */
    ck_assert_int_eq(decode_hex("82 80 80 40 00", t, &v), AVROGEN_E_LIMIT);
    ck_assert_uint_eq(avrogen_arena_used(&arena), 0);
    ck_assert_int_eq(skip_hex("82 80 80 40 00", t), AVROGEN_E_LIMIT);

    /* Within a configured budget, counted across blocks: each item costs one
     * as a block item and one as a record of no bytes. */
    uint8_t in[16];
    size_t n = test_unhex("d0 0f d0 0f 00", in, sizeof in); /* 1000 + 1000 */
    avrogen_reader r;
    avrogen_reader_init(&r, in, n);
    r.max_items = 4000;
    ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_OK);
    ck_assert_uint_eq(v.array.count, 2000);
    avrogen_reader_init(&r, in, n);
    r.max_items = 3999;
    ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_E_LIMIT);
    avrogen_reader_init(&r, in, n);
    r.max_items = 4000;
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, t), AVROGEN_OK);
    ck_assert_uint_eq(r.items_left, 0);
    avrogen_reader_init(&r, in, n);
    r.max_items = 3999;
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, t), AVROGEN_E_LIMIT);
    avrogen_schema_free(s);
}
END_TEST

/*
 * Issue 12: values that take no bytes cost items, however they nest. A T40
 * (fanout, every record empty) is zero bytes holding 2^41 - 1 records: skip
 * charges them in one step, decode one by one, and both stop at the budget.
 */
START_TEST(item_budget_bounds_zero_byte_records)
{
    char *text = test_fanout_schema(40, "");
    avrogen_schema *s = parse(text);
    free(text);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_reader r;
    avrogen_reader_init(&r, "", 0);
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, t), AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(r.err_msg);

    /* Within a budget that holds them it is a valid datum of no bytes. */
    avrogen_reader_init(&r, "", 0);
    r.max_items = SIZE_MAX;
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, t), AVROGEN_OK);
    ck_assert_uint_eq(r.items_left, SIZE_MAX - (((size_t)1 << 41) - 1));

    avrogen_value v;
    avrogen_reader_init(&r, "", 0);
    r.max_items = 1000;
    ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_E_LIMIT);
    avrogen_schema_free(s);

    /* At the bound: T3 holds 15 records. */
    text = test_fanout_schema(3, "");
    s = parse(text);
    free(text);
    t = avrogen_schema_root(s);
    for (size_t budget = 14; budget <= 15; budget++) {
        avrogen_status want = budget == 15 ? AVROGEN_OK : AVROGEN_E_LIMIT;
        avrogen_reader_init(&r, "", 0);
        r.max_items = budget;
        ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), want);
        avrogen_reader_init(&r, "", 0);
        r.max_items = budget;
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_skip(&r, t), want);
    }
    avrogen_schema_free(s);

    /* An array of them: each item costs one as a block item and three as records. */
    s = parse("{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"T\",\"fields\":["
              "{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"U\",\"fields\":[]}},"
              "{\"name\":\"b\",\"type\":\"U\"}]}}");
    t = avrogen_schema_root(s);
    uint8_t in[8];
    size_t n = test_unhex("c8 01 00", in, sizeof in); /* 100 items */
    for (size_t budget = 399; budget <= 400; budget++) {
        avrogen_status want = budget == 400 ? AVROGEN_OK : AVROGEN_E_LIMIT;
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), want);
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_skip(&r, t), want);
    }
    avrogen_schema_free(s);
}
END_TEST

START_TEST(many_small_blocks_stay_linear)
{
    /* 1000 blocks of 127 nulls, 2 bytes each: growing the items must double,
     * not creep up block by block (which would copy the array each time). */
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":\"null\"}");
    size_t blocks = 1000, n = 2 * blocks + 1;
    uint8_t *in = malloc(n);
    for (size_t k = 0; k < blocks; k++) {
        in[2 * k] = 0xfe;
        in[2 * k + 1] = 0x01;
    }
    in[n - 1] = 0x00;
    avrogen_value v;
    ck_assert_int_eq(decode_bytes(in, n, avrogen_schema_root(s), &v, NULL), AVROGEN_OK);
    ck_assert_uint_eq(v.array.count, 127 * blocks);
    ck_assert_uint_le(avrogen_arena_used(&arena), 4 * 127 * blocks * sizeof(avrogen_value));
    free(in);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(arena_budget)
{
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":\"long\"}");
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t in[128];
    in[0] = 0xc8; /* 100 items */
    in[1] = 0x01;
    memset(in + 2, 0x02, 100);
    in[102] = 0x00;
    avrogen_value v;
    avrogen_arena_set_budget(&arena, 1024);
    ck_assert_int_eq(decode_bytes(in, 103, t, &v, NULL), AVROGEN_E_LIMIT);
    ck_assert_uint_le(avrogen_arena_used(&arena), 1024);
    avrogen_arena_reset(&arena);
    avrogen_arena_set_budget(&arena, 100 * sizeof(avrogen_value));
    ck_assert_int_eq(decode_bytes(in, 103, t, &v, NULL), AVROGEN_OK);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(decode_fail_until_ok)
{
    /* mpack's fail-until-ok: fail the n-th allocation for n = 1, 2, ... */
    avrogen_schema *s = parse(all_kinds_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t in[256];
    size_t n = test_unhex(all_kinds_hex, in, sizeof in);
    bool ok = false;
    for (long fail_at = 1; !ok && fail_at < 1000; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        avrogen_arena a;
        avrogen_arena_init(&a, &ta.base);
        /* Decoding again and again without a reset makes the arena grow chunk by
         * chunk, so every allocation it makes gets its turn to fail. */
        for (int rep = 0; rep < 40; rep++) {
            avrogen_reader r;
            avrogen_value v;
            avrogen_reader_init(&r, in, n);
            avrogen_status st = avrogen_value_decode(&r, t, &v, &a);
            if (st != AVROGEN_OK) {
                ck_assert_int_eq(st, AVROGEN_E_NOMEM);
                break;
            }
            ok = rep == 39;
        }
        avrogen_arena_fini(&a);
        ck_assert_int_eq(ta.live, 0);
    }
    ck_assert(ok);
    avrogen_schema_free(s);
}
END_TEST

/* ---- skip ----------------------------------------------------------------------- */

START_TEST(skip_jumps_sized_blocks)
{
    avrogen_schema *s =
            parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                  "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"boolean\"}},"
                  "{\"name\":\"z\",\"type\":\"int\"}]}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    size_t used;
    /* spec: count -3 with byte size 3, then a positive block of 1, then 0. */
    uint8_t good[16];
    size_t n = test_unhex("05 06 01 00 01 02 01 00 54", good, sizeof good);
    uint8_t bad[16];
    ck_assert_int_eq(decode_bytes(good, n, t, &v, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    ck_assert_uint_eq(avrogen_value_field(&v, "a")->array.count, 4);
    ck_assert_int_eq(avrogen_value_field(&v, "z")->i32, 42);
    ck_assert_int_eq(skip_bytes(good, n, t, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    /* Re-encoding writes one plain block. */
    avrogen_writer w;
    encode(&w, &v);
    uint8_t want[16];
    size_t wn = test_unhex("08 01 00 01 01 00 54", want, sizeof want);
    ck_assert_uint_eq(avrogen_writer_len(&w), wn);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, wn);
    avrogen_writer_fini(&w);

    /* Decode holds a block to its declared size: 2 bytes cannot hold 3 booleans. */
    n = test_unhex("05 04 01 00 01 00 54", bad, sizeof bad);
    ck_assert_int_eq(decode_bytes(bad, n, t, &v, NULL), AVROGEN_E_INVALID);
    n = test_unhex("05 08 01 00 01 00 54", bad, sizeof bad);
    ck_assert_int_eq(decode_bytes(bad, n, t, &v, NULL), AVROGEN_E_INVALID);

    /* Skip does not look inside a sized block: bytes that are no booleans pass. */
    n = test_unhex("05 06 07 08 09 00 54", bad, sizeof bad);
    ck_assert_int_eq(decode_bytes(bad, n, t, &v, NULL), AVROGEN_E_INVALID);
    ck_assert_int_eq(skip_bytes(bad, n, t, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, n);
    avrogen_schema_free(s);
}
END_TEST

/* ---- errors naming the member -------------------------------------------- */

static const char order_schema[] =
        "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": ["
        "{\"name\": \"id\", \"type\": \"long\"},"
        "{\"name\": \"customer\", \"type\": \"string\"},"
        "{\"name\": \"total\", \"type\": \"double\"},"
        "{\"name\": \"paid\", \"type\": \"boolean\"},"
        "{\"name\": \"note\", \"type\": [\"null\", \"string\"]},"
        "{\"name\": \"lines\", \"type\": {\"type\": \"array\", \"items\": {\"type\": \"record\","
        " \"name\": \"Line\", \"fields\": [{\"name\": \"sku\", \"type\": \"long\"},"
        " {\"name\": \"name\", \"type\": \"string\"}, {\"name\": \"qty\", \"type\": \"int\"},"
        " {\"name\": \"price\", \"type\": \"float\"}]}}},"
        "{\"name\": \"tags\", \"type\": {\"type\": \"map\", \"values\": \"long\"}},"
        "{\"name\": \"status\", \"type\": {\"type\": \"enum\", \"name\": \"Status\","
        " \"symbols\": [\"NEW\", \"PAID\"]}}]}";

/* One value written into the datum: its bytes [start, end), of which the
 * first `prefix` are a length; the member it is; what truncating it says. */
typedef struct leaf {
    size_t start, end, prefix;
    size_t count; /* a block count: the items, each at least one byte */
    char path[48];
    const char *why;
} leaf;

typedef struct datum {
    avrogen_writer w;
    leaf leaves[64];
    size_t n;
} datum;

static void put(datum *d, const char *path, const char *why, size_t prefix)
{
    ck_assert_uint_lt(d->n, 64);
    leaf *l = &d->leaves[d->n++];
    l->start = d->n > 1 ? d->leaves[d->n - 2].end : 0;
    l->end = avrogen_writer_len(&d->w);
    l->prefix = prefix;
    snprintf(l->path, sizeof l->path, "%s", path);
    l->why = why;
}

static void put_long(datum *d, const char *path, int64_t v, const char *why)
{
    avrogen_write_long(&d->w, v);
    put(d, path, why, 0);
}

static void put_string(datum *d, const char *path, const char *s, const char *why)
{
    avrogen_write_long(&d->w, (int64_t)strlen(s));
    size_t prefix = avrogen_writer_len(&d->w) - (d->n > 0 ? d->leaves[d->n - 1].end : 0);
    avrogen_write_raw(&d->w, s, strlen(s));
    put(d, path, why, prefix);
}

/* An Order with three lines, written value by value, every value's place kept. */
static void order_datum(datum *d)
{
    static const char *const names[] = {"bolt",
                                        "long nut name over sixty-four bytes, so that "
                                        "its length takes two bytes",
                                        "washer"};
    char path[48];
    memset(d, 0, sizeof *d);
    avrogen_writer_init_growable(&d->w, NULL);
    put_long(d, "Order.id", 1234567, "input ends inside a long");
    put_string(d, "Order.customer", "ACME", "input ends inside a string");
    avrogen_write_double(&d->w, 99.5);
    put(d, "Order.total", "input ends inside a double", 0);
    avrogen_write_bool(&d->w, true);
    put(d, "Order.paid", "input ends inside a boolean", 0);
    put_long(d, "Order.note", 1, "input ends inside a union branch index");
    put_string(d, "Order.note", "leave at the door", "input ends inside a string");
    put_long(d, "Order.lines", 3, "input ends inside a varint");
    d->leaves[d->n - 1].count = 3;
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "Order.lines[%d].sku", i);
        put_long(d, path, 1000000 + i, "input ends inside a long");
        snprintf(path, sizeof path, "Order.lines[%d].name", i);
        put_string(d, path, names[i], "input ends inside a string");
        snprintf(path, sizeof path, "Order.lines[%d].qty", i);
        put_long(d, path, 300 * i, "input ends inside an int");
        avrogen_write_float(&d->w, 1.25f);
        snprintf(path, sizeof path, "Order.lines[%d].price", i);
        put(d, path, "input ends inside a float", 0);
    }
    put_long(d, "Order.lines", 0, "input ends inside a varint");
    put_long(d, "Order.tags", 2, "input ends inside a varint");
    d->leaves[d->n - 1].count = 2;
    put_string(d, "Order.tags", "color", "input ends inside a map key");
    put_long(d, "Order.tags[\"color\"]", 7, "input ends inside a long");
    put_string(d, "Order.tags", "size", "input ends inside a map key");
    put_long(d, "Order.tags[\"size\"]", -70000, "input ends inside a long");
    put_long(d, "Order.tags", 0, "input ends inside a varint");
    put_long(d, "Order.status", 1, "input ends inside an enum index");
    ck_assert_int_eq(d->w.err, AVROGEN_OK);
}

/* The value a reader of the first `cut` bytes fails in and the offset: a
 * length's end when the length is whole, else the start; a block count's end
 * when fewer bytes follow than it counts items (*why: its message). */
static const leaf *leaf_at(const datum *d, size_t cut, size_t *offset, const char **why)
{
    for (size_t i = 0; i < d->n; i++) {
        const leaf *l = &d->leaves[i];
        *why = l->why;
        if (l->count != 0 && cut >= l->end && cut - l->end < l->count) {
            *offset = l->end;
            *why = "block count runs past the end of the input";
            return l;
        }
        if (cut >= l->start && cut < l->end) {
            *offset =
                    l->prefix != 0 && cut >= l->start + l->prefix ? l->start + l->prefix : l->start;
            return l;
        }
    }
    ck_abort_msg("byte %zu is in no value", cut);
    return NULL;
}

/* The reader's error: status, offset, and "path: reason". */
static void check_named(const avrogen_reader *r, const char *who, size_t cut, size_t offset,
                        const leaf *l, const char *why)
{
    char want[128];
    snprintf(want, sizeof want, "%s: %s", l->path, why);
    ck_assert_msg(r->err == AVROGEN_E_TRUNCATED, "%s, %zu bytes: %s", who, cut,
                  avrogen_status_str(r->err));
    ck_assert_msg(r->err_offset == offset, "%s, %zu bytes: at %zu, not %zu", who, cut,
                  r->err_offset, offset);
    ck_assert_msg(r->err_msg != NULL && strcmp(r->err_msg, want) == 0,
                  "%s, %zu bytes: \"%s\", not \"%s\"", who, cut, r->err_msg ? r->err_msg : "",
                  want);
}

START_TEST(truncated_errors_name_the_member)
{
    avrogen_schema *s = parse(order_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    datum d;
    order_datum(&d);
    const uint8_t *bytes = avrogen_writer_data(&d.w);
    size_t len = avrogen_writer_len(&d.w);
    ck_assert_uint_eq(d.leaves[d.n - 1].end, len);

    for (size_t cut = 0; cut < len; cut++) {
        /* Exactly `cut` bytes on the heap: ASan sees any read past them. */
        uint8_t *in = malloc(cut + 1);
        memcpy(in, bytes, cut);
        size_t offset;
        const char *why;
        const leaf *l = leaf_at(&d, cut, &offset, &why);
        avrogen_reader r;
        avrogen_value v;

        avrogen_arena_reset(&arena);
        avrogen_reader_init(&r, in, cut);
        ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_E_TRUNCATED);
        check_named(&r, "avrogen_value_decode", cut, offset, l, why);

        /* skip reports a string's bytes past the end at the same place. */
        avrogen_reader_init(&r, in, cut);
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_skip(&r, t), AVROGEN_E_TRUNCATED);
        check_named(&r, "avrogen_skip", cut, offset, l, why);

        avrogen_writer out;
        avrogen_writer_init_growable(&out, NULL);
        avrogen_reader_init(&r, in, cut);
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_datum_to_json(&r, t, &out, 0, NULL), AVROGEN_E_TRUNCATED);
        check_named(&r, "avrogen_datum_to_json", cut, offset, l, why);
        avrogen_writer_fini(&out);
        free(in);
    }

    /* The whole datum: nothing is written to err_text, and a reused arena
     * allocates nothing more (naming the member costs nothing on success). */
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_arena counted;
    avrogen_arena_init(&counted, &ta.base);
    for (int pass = 0; pass < 2; pass++) {
        long before = ta.calls;
        avrogen_reader r;
        avrogen_value v;
        avrogen_reader_init(&r, bytes, len);
        memset(r.err_text, 'x', sizeof r.err_text);
        avrogen_arena_reset(&counted);
        ck_assert_int_eq(avrogen_value_decode(&r, t, &v, &counted), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_offset(&r), len);
        ck_assert_ptr_null(r.err_msg);
        ck_assert_int_eq(r.err_text[0], 'x');
        ck_assert_int_eq(r.err_text[sizeof r.err_text - 1], 'x');
        if (pass == 1)
            ck_assert_int_eq(ta.calls, before);
    }
    avrogen_arena_fini(&counted);
    avrogen_writer_fini(&d.w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(invalid_errors_name_the_member)
{
    avrogen_schema *s = parse(order_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    datum d;
    order_datum(&d);
    size_t len = avrogen_writer_len(&d.w);
    uint8_t *in = malloc(len);
    static const struct {
        const char *path; /* the leaf to spoil */
        int nth;          /* which leaf of that path (0: the first) */
        uint8_t byte;     /* written at its first byte */
        const char *msg;
        size_t after; /* the offset is the leaf's start plus this */
    } cases[] = {
            {"Order.paid", 0, 2, "Order.paid: boolean byte is neither 0 nor 1", 0},
            {"Order.note", 0, 4, "Order.note: union index out of range", 1},
            {"Order.lines[1].name", 0, 3, "Order.lines[1].name: negative length", 1},
            {"Order.status", 0, 6, "Order.status: enum index out of range", 1},
            {"Order.tags", 1, 0x80, "Order.tags: string is not valid UTF-8", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(in, avrogen_writer_data(&d.w), len);
        const leaf *l = NULL;
        for (size_t j = 0, seen = 0; j < d.n && l == NULL; j++)
            if (strcmp(d.leaves[j].path, cases[i].path) == 0 && (int)seen++ == cases[i].nth)
                l = &d.leaves[j];
        ck_assert_ptr_nonnull(l);
        if (cases[i].byte == 0x80)
            in[l->start + l->prefix] = 0xff; /* a byte no UTF-8 text holds */
        else
            in[l->start] = cases[i].byte;
        avrogen_reader r;
        avrogen_value v;
        avrogen_reader_init(&r, in, len);
        ck_assert_int_ne(avrogen_value_decode(&r, t, &v, &arena), AVROGEN_OK);
        ck_assert_str_eq(r.err_msg, cases[i].msg);
        ck_assert_uint_eq(r.err_offset, l->start + cases[i].after);
    }
    free(in);
    avrogen_writer_fini(&d.w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(skip_matches_decode_on_stream)
{
    /* Several datums back to back: skip and decode stop at the same offsets. */
    avrogen_schema *s = parse(all_kinds_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    build_all(t, &v);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
        avrogen_value_field(&v, "l")->i64 *= -1000;
        ck_assert_int_eq(avrogen_value_append(avrogen_value_field(&v, "a"), &arena, NULL),
                         AVROGEN_OK);
    }
    avrogen_reader rd, rs;
    avrogen_reader_init(&rd, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_reader_init(&rs, avrogen_writer_data(&w), avrogen_writer_len(&w));
    for (int k = 0; k < 3; k++) {
        avrogen_value back;
        ck_assert_int_eq(avrogen_value_decode(&rd, t, &back, &arena), AVROGEN_OK);
        avrogen_reader_begin_datum(&rs);
        ck_assert_int_eq(avrogen_skip(&rs, t), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_offset(&rd), avrogen_reader_offset(&rs));
    }
    ck_assert_uint_eq(avrogen_reader_remaining(&rd), 0);
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(init_refuses_endless_recursion)
{
    /* The first branch of the union is the record itself: no finite zero value. */
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"Loop\",\"fields\":["
                              "{\"name\":\"next\",\"type\":[\"Loop\",\"null\"]}]}");
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_E_LIMIT);
    avrogen_schema_free(s);
}
END_TEST

static Suite *value_suite(void)
{
    Suite *s = suite_create("value");
    TCase *tc = tcase_create("varint");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, long_table, 0, N_VARINTS);
    tcase_add_loop_test(tc, int_table, 0, N_VARINTS);
    tcase_add_test(tc, bad_varints);
    suite_add_tcase(s, tc);

    tc = tcase_create("round_trip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, all_kinds_round_trip);
    tcase_add_test(tc, zero_values);
    tcase_add_test(tc, top_level_kinds);
    suite_add_tcase(s, tc);

    tc = tcase_create("build");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, setters_reject_wrong_kinds);
    tcase_add_test(tc, append_grows);
    tcase_add_test(tc, equality_rules);
    tcase_add_test(tc, duplicate_map_keys_last_wins);
    tcase_add_test(tc, encode_rejects_inconsistent_values);
    tcase_add_test(tc, init_refuses_endless_recursion);
    suite_add_tcase(s, tc);

    tc = tcase_create("hostile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, truncated_at_every_prefix);
    tcase_add_test(tc, bad_lengths_and_counts);
    tcase_add_test(tc, bad_indexes_and_bytes);
    tcase_add_test(tc, depth_limit);
    tcase_add_test(tc, item_budget_bounds_zero_byte_items);
    tcase_add_test(tc, item_budget_bounds_zero_byte_records);
    tcase_add_test(tc, many_small_blocks_stay_linear);
    tcase_add_test(tc, arena_budget);
    tcase_add_test(tc, decode_fail_until_ok);
    suite_add_tcase(s, tc);

    tc = tcase_create("skip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, skip_jumps_sized_blocks);
    tcase_add_test(tc, skip_matches_decode_on_stream);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, truncated_errors_name_the_member);
    tcase_add_test(tc, invalid_errors_name_the_member);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(value_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
