/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Avro JSON encoding of generic values (value.h, json.c) and field
 * defaults. The text format is checked against the peer it promises to match:
 * every line we print is re-printed by /usr/bin/python3's json.dumps (after
 * json.loads) and must come out byte for byte the same. Encoding rules (union
 * wrappers, ISO-8859-1 bytes, first-branch union defaults) follow the spec's
 * §JSON Encoding and §Schema Declaration; tests/interop checks them against
 * python3-avro's and avro-c's decoders.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, popen */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <unistd.h>

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

/* Our JSON for v as a malloc'd NUL-terminated string. */
static char *to_json(const avrogen_value *v, unsigned flags)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_to_json(&w, v, flags), AVROGEN_OK);
    size_t n = avrogen_writer_len(&w);
    char *s = malloc(n + 1);
    if (n != 0)
        memcpy(s, avrogen_writer_data(&w), n);
    s[n] = '\0';
    avrogen_writer_fini(&w);
    return s;
}

/* What avrogen_value_to_json_sink hands over, in order; pieces and the buffer checked. */
typedef struct pieces {
    char *text;
    size_t len;
    size_t chunk;
    avrogen_writer *w;
    int fail_at; /* fail this piece (1-based); 0 never */
    int n;
    size_t cap; /* text's allocation, grown by doubling (0 before the first piece) */
} pieces;

static avrogen_status take_piece(void *ctx, const void *data, size_t len)
{
    pieces *p = ctx;
    ck_assert_uint_gt(len, 0);
    ck_assert_uint_le(avrogen_writer_len(p->w), p->chunk);
    if (++p->n == p->fail_at)
        return AVROGEN_E_IO;
    if (p->len + len + 1 > p->cap) {
        p->cap = 2 * (p->len + len + 1);
        p->text = realloc(p->text, p->cap);
        ck_assert_ptr_nonnull(p->text);
    }
    memcpy(p->text + p->len, data, len);
    p->len += len;
    p->text[p->len] = '\0';
    return AVROGEN_OK;
}

/* Our JSON for v through a sink of `chunk` bytes, in a fixed writer that size. */
static char *to_json_sink(const avrogen_value *v, unsigned flags, size_t chunk)
{
    uint8_t buf[64];
    ck_assert_uint_le(chunk, sizeof buf);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, chunk);
    pieces p = {strdup(""), 0, chunk, &w, 0, 0, 0};
    avrogen_json_sink sink = {take_piece, &p, chunk};
    ck_assert_int_eq(avrogen_value_to_json_sink(&w, v, flags, &sink), AVROGEN_OK);
    if (avrogen_writer_len(&w) != 0)
        ck_assert_int_eq(take_piece(&p, avrogen_writer_data(&w), avrogen_writer_len(&w)),
                         AVROGEN_OK);
    return p.text;
}

static avrogen_status from_json(const char *text, const avrogen_node *t, avrogen_value *v,
                                avrogen_diag *d)
{
    return avrogen_value_from_json(text, strlen(text), t, v, &arena, d);
}

/*
 * Feed `lines` (newline-separated JSON) to Python: json.dumps(json.loads(line))
 * with the options `mode` names, and return its output (malloc'd).
 */
static char *python_redump(const char *lines, const char *mode)
{
    char path[] = "/tmp/avrogen-test-json-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(lines, f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c '"
             "import json, sys\n"
             "mode = sys.argv[1]\n"
             "kw = {\"ensure_ascii\": mode != \"utf8\"}\n"
             "if mode == \"compact\": kw[\"separators\"] = (\",\", \":\")\n"
             "if mode == \"pretty\": kw[\"indent\"] = 2\n"
             "for line in open(sys.argv[2], encoding=\"utf-8\"):\n"
             "    out = json.dumps(json.loads(line), **kw) + \"\\n\"\n"
             "    sys.stdout.buffer.write(out.encode(\"utf-8\"))\n"
             "' %s %s",
             mode, path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 4096, n = 0;
    char *out = malloc(cap);
    size_t got;
    while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2)
            out = realloc(out, cap *= 2);
    }
    out[n] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    unlink(path);
    return out;
}

/* ---- round trips, checked against Python's formatting --------------------------- */

static const struct {
    const char *schema;
    const char *json; /* any spacing: the output must equal Python's re-dump of it */
} cases[] = {
        {"\"null\"", "null"},
        {"\"boolean\"", "true"},
        {"\"int\"", "-2147483648"},
        {"\"long\"", "9223372036854775807"},
        {"\"long\"", "-9223372036854775808"},
        {"\"float\"", "0.1"},
        {"\"float\"", "3.4028234663852886e+38"},
        {"\"float\"", "\"Infinity\""},
        {"\"double\"", "\"NaN\""},
        {"\"double\"", "\"-Infinity\""},
        {"{\"type\":\"array\",\"items\":\"double\"}",
         "[0.0, -0.0, 0.1, 1.0, 100.0, 1e16, 1e15, 123456789012345680.0, 1234567890123456.7,"
         " 0.0001, 0.00001, 1.5e-7, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,"
         " 0.3333333333333333, 2.5, -1e100, 9007199254740993, 4.35, 1e22, 1e21]"},
        {"{\"type\":\"array\",\"items\":\"float\"}",
         "[0.1, 1.1, 3.14159, 16777217, 1e-45, 1e38, -0.0]"},
        {"\"string\"", "\"plain\""},
        {"\"string\"",
         "\"quote \\\" backslash \\\\ slash / controls \\b\\f\\n\\r\\t \\u0000 \\u001f"
         " del \\u007f latin \\u00e9 cjk \\u4e2d emoji \\ud83d\\ude00\""},
        {"\"bytes\"", "\"\\u0000\\u0001\\u007f\\u0080\\u00ff AZ\""},
        {"{\"type\":\"fixed\",\"name\":\"ns.F3\",\"size\":3}", "\"\\u00de\\u00ad\\u0000\""},
        {"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}", "\"B\""},
        {"{\"type\":\"map\",\"values\":\"long\"}",
         "{\"z\": 1, \"a\": -2, \"\": 0, \"\\u00e9\": 3}"},
        {"{\"type\":\"map\",\"values\":\"long\"}", "{}"},
        {"{\"type\":\"array\",\"items\":\"long\"}", "[]"},
        {"[\"null\",\"string\"]", "null"},
        {"[\"null\",\"string\"]", "{\"string\": \"x\"}"},
        {"[\"int\",\"long\",\"float\",\"double\",\"bytes\",\"boolean\"]",
         "{\"bytes\": \"\\u00ff\"}"},
        {"[\"null\",{\"type\":\"array\",\"items\":\"int\"},{\"type\":\"map\",\"values\":\"int\"}]",
         "{\"map\": {\"k\": 1}}"},
        {"[\"null\",{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":[]}]",
         "{\"a.b.R\": {}}"},
        {"[\"string\",{\"type\":\"enum\",\"name\":\"x.E\",\"symbols\":[\"S\"]}]",
         "{\"x.E\": \"S\"}"},
        {"{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
         "{\"name\":\"id\",\"type\":\"long\"},"
         "{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
         "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\","
         "\"name\":\"Line\",\"fields\":[{\"name\":\"sku\",\"type\":\"long\"},"
         "{\"name\":\"price\",\"type\":\"double\"}]}}},"
         "{\"name\":\"tags\",\"type\":{\"type\":\"map\",\"values\":[\"null\",\"Line\"]}},"
         "{\"name\":\"uuid\",\"type\":{\"type\":\"fixed\",\"name\":\"U\",\"size\":2,"
         "\"logicalType\":\"uuid\"}},"
         "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
         "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
         "\"precision\":9,\"scale\":2}}]}",
         "{\"id\": 7, \"note\": {\"string\": \"rush\"}, \"lines\": [{\"sku\": 1, \"price\": 9.99},"
         " {\"sku\": 2, \"price\": 0.5}], \"tags\": {\"a\": null, \"b\": {\"com.acme.Line\":"
         " {\"sku\": 3, \"price\": -1.0}}}, \"uuid\": \"\\u0001\\u00f0\", \"ts\":"
         " 1700000000000000, \"amount\": \"\\u0004\\u00d2\"}"},
};
#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

START_TEST(round_trip_cases)
{
    avrogen_schema *s = parse(cases[_i].schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v, back;
    avrogen_diag d;
    ck_assert_msg(from_json(cases[_i].json, t, &v, &d) == AVROGEN_OK, "%s: %s", d.path, d.msg);

    /* Formatting: for every style, what Python prints for the same JSON. */
    static const struct {
        unsigned flags;
        const char *mode;
    } styles[] = {{0, "default"},
                  {AVROGEN_JSON_COMPACT, "compact"},
                  {AVROGEN_JSON_UTF8, "utf8"},
                  {AVROGEN_JSON_PRETTY, "pretty"}};
    char *one_line = to_json(&v, 0);
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; k++) {
        char *ours = to_json(&v, styles[k].flags);
        size_t n = strlen(ours);
        char *line = malloc(n + 2);
        memcpy(line, ours, n);
        memcpy(line + n, "\n", 2);
        char *input = malloc(strlen(one_line) + 2);
        sprintf(input, "%s\n", one_line);
        char *py = python_redump(input, styles[k].mode);
        free(input);
        ck_assert_str_eq(line, py);
        /* Through a sink, in pieces of at most 5 bytes (and longer runs): the same text. */
        char *piecewise = to_json_sink(&v, styles[k].flags, 5);
        ck_assert_str_eq(piecewise, ours);
        free(piecewise);
        /* And it reads back to the same value. */
        ck_assert_int_eq(from_json(ours, t, &back, NULL), AVROGEN_OK);
        ck_assert(avrogen_value_equal(&v, &back));
        free(py);
        free(line);
        free(ours);
    }
    free(one_line);

    /* Through the binary encoding and back gives the same JSON. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_value_decode(&r, t, &back, &arena), AVROGEN_OK);
    char *a = to_json(&v, 0), *b = to_json(&back, 0);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

/*
 * Doubles of every shape at once, as one array, against Python's repr: the
 * short decimals the quick path takes (cents, k-digit decimals, integers up
 * to 2^53, the ends of its range) and the ones it leaves to printf.
 */
START_TEST(doubles_like_python)
{
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":\"double\"}");
    const avrogen_node *t = avrogen_schema_root(s);
    enum { N = 60000 };
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
    v.array.items = avrogen_arena_calloc(&arena, N, sizeof *v.array.items);
    ck_assert_ptr_nonnull(v.array.items);
    v.array.count = v.array.cap = N;
    uint64_t seed = 12345;
    static const double edges[] = {1e-4,
                                   9.999999999999999e-05,
                                   1.0000000000000002e-04,
                                   9007199254740991.0,
                                   9007199254740992.0,
                                   9007199254740993.0,
                                   4503599627370495.5,
                                   0.1,
                                   0.3,
                                   2.675,
                                   1e15,
                                   1e16,
                                   123456789.123456789,
                                   5e-324,
                                   1.7976931348623157e308};
    for (size_t i = 0; i < N; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        double x;
        switch (i % 8) {
        case 0: /* cents */
            x = (double)(int64_t)(seed % 100000000) / 100.0;
            break;
        case 1: { /* k decimals of a random integer below 10^d */
            int k = (int)(seed % 18), d = 1 + (int)((seed >> 8) % 17);
            double m = (double)((seed >> 16) % (uint64_t)pow(10, d));
            x = m / pow(10, k);
            break;
        }
        case 2: /* integers */
            x = (double)(seed >> (11 + seed % 40));
            break;
        case 3: /* floats, widened */
            x = (double)((float)(seed % 1000000) / 1000.0f);
            break;
        case 4:
            x = edges[(seed >> 3) % (sizeof edges / sizeof *edges)];
            break;
        default: /* any finite bits */
            memcpy(&x, &seed, sizeof x);
            if (!isfinite(x))
                x = 1.5;
        }
        if ((seed >> 63) != 0)
            x = -x;
        v.array.items[i].type = t->items;
        v.array.items[i].f64 = x;
    }
    char *ours = to_json(&v, 0);
    size_t n = strlen(ours);
    char *line = malloc(n + 2);
    memcpy(line, ours, n);
    memcpy(line + n, "\n", 2);
    char *py = python_redump(line, "default");
    ck_assert_msg(strcmp(line, py) == 0, "our doubles differ from Python's repr");
    free(py);
    free(line);
    free(ours);
    avrogen_schema_free(s);
}
END_TEST

/* Integers of every digit count and their ends, against snprintf, through a small sink. */
START_TEST(integers_like_printf)
{
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":\"long\"}");
    const avrogen_node *t = avrogen_schema_root(s);
    enum { N = 1 << 20 };
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
    v.array.items = avrogen_arena_calloc(&arena, N, sizeof *v.array.items);
    ck_assert_ptr_nonnull(v.array.items);
    v.array.count = v.array.cap = N;
    size_t n = 0;
    uint64_t seed = 99;
    int64_t p10 = 1;
    for (int d = 0; d < 19; d++, p10 = d < 19 ? p10 * 10 : p10) {
        for (int64_t k = -3; k <= 3; k++) {
            int64_t x = p10 + k;
            v.array.items[n++].i64 = x;
            v.array.items[n++].i64 = -x;
        }
    }
    v.array.items[n++].i64 = INT64_MIN;
    v.array.items[n++].i64 = INT64_MAX;
    for (int64_t x = 0; n < N / 2; x++)
        v.array.items[n++].i64 = x;
    while (n < N) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.array.items[n++].i64 = (int64_t)(seed >> (seed % 64));
    }
    for (size_t i = 0; i < N; i++)
        v.array.items[i].type = t->items;
    char *want = malloc((size_t)N * 22 + 2), *at = want;
    *at++ = '[';
    for (size_t i = 0; i < N; i++)
        at += sprintf(at, i != 0 ? ", %lld" : "%lld", (long long)v.array.items[i].i64);
    strcpy(at, "]");
    char *got = to_json_sink(&v, 0, 64);
    ck_assert_msg(strcmp(got, want) == 0, "integers differ from printf's");
    free(got);
    free(want);
    avrogen_schema_free(s);
}
END_TEST

/*
 * avrogen_datum_to_json against decode-then-print, on every case: the same
 * text in every style, and on every prefix and on bytes flipped, the same
 * status, offset and message as avrogen_value_decode.
 */
START_TEST(datum_to_json_is_decode_then_print)
{
    avrogen_schema *s = parse(cases[_i].schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v, back;
    ck_assert_int_eq(from_json(cases[_i].json, t, &v, NULL), AVROGEN_OK);
    avrogen_writer bin;
    avrogen_writer_init_growable(&bin, NULL);
    ck_assert_int_eq(avrogen_value_encode(&bin, &v), AVROGEN_OK);
    const uint8_t *data = avrogen_writer_data(&bin);
    size_t len = avrogen_writer_len(&bin);
    static const unsigned flags[] = {0, AVROGEN_JSON_COMPACT, AVROGEN_JSON_UTF8,
                                     AVROGEN_JSON_PRETTY};
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) {
        char *want = to_json(&v, flags[k]);
        avrogen_reader r;
        avrogen_reader_init(&r, data, len);
        avrogen_reader_begin_datum(&r);
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        ck_assert_int_eq(avrogen_datum_to_json(&r, t, &w, flags[k], NULL), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
        ck_assert_uint_eq(avrogen_writer_len(&w), strlen(want));
        ck_assert_mem_eq(avrogen_writer_data(&w), want, strlen(want));
        avrogen_writer_fini(&w);
        free(want);
    }
    uint8_t *copy = malloc(len + 1);
    for (size_t cut = 0; cut <= len; cut++) {
        for (int flip = -1; flip < (int)(cut < 16 ? cut : 16); flip++) {
            if (cut != 0)
                memcpy(copy, data, cut);
            if (flip >= 0)
                copy[flip] ^= 0xc1;
            avrogen_reader a, b;
            avrogen_reader_init(&a, copy, cut);
            avrogen_reader_init(&b, copy, cut);
            avrogen_arena_reset(&arena);
            avrogen_status sa = avrogen_value_decode(&a, t, &back, &arena);
            avrogen_reader_begin_datum(&b);
            avrogen_writer w;
            avrogen_writer_init_growable(&w, NULL);
            avrogen_status sb = avrogen_datum_to_json(&b, t, &w, 0, NULL);
            ck_assert_msg(sa == b.err && (sa == AVROGEN_OK || sb == sa),
                          "cut %zu flip %d: decode %d, datum_to_json %d", cut, flip, sa, sb);
            ck_assert_uint_eq(a.err_offset, b.err_offset);
            ck_assert_uint_eq(avrogen_reader_offset(&a), avrogen_reader_offset(&b));
            ck_assert(a.err_msg == b.err_msg || (a.err_msg != NULL && b.err_msg != NULL &&
                                                 strcmp(a.err_msg, b.err_msg) == 0));
            if (sa == AVROGEN_OK) {
                /* What decoded must print as the decoded value does, or fail as it does. */
                avrogen_writer x;
                avrogen_writer_init_growable(&x, NULL);
                avrogen_status sx = avrogen_value_to_json(&x, &back, 0);
                ck_assert_int_eq(sx, w.err);
                if (sx == AVROGEN_OK) {
                    ck_assert_uint_eq(avrogen_writer_len(&x), avrogen_writer_len(&w));
                    ck_assert_mem_eq(avrogen_writer_data(&x), avrogen_writer_data(&w),
                                     avrogen_writer_len(&w));
                }
                avrogen_writer_fini(&x);
            }
            avrogen_writer_fini(&w);
        }
    }
    free(copy);
    avrogen_writer_fini(&bin);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(sink_errors)
{
    avrogen_schema *s = parse("{\"type\":\"array\",\"items\":\"string\"}");
    avrogen_value v;
    ck_assert_int_eq(from_json("[\"a long string, longer than a piece\", \"b\", \"c\"]",
                               avrogen_schema_root(s), &v, NULL),
                     AVROGEN_OK);
    /* The sink's own failure stops the text with its status, at every piece. */
    for (int fail = 1;; fail++) {
        uint8_t buf[8];
        avrogen_writer w;
        avrogen_writer_init_fixed(&w, buf, sizeof buf);
        pieces p = {strdup(""), 0, sizeof buf, &w, fail, 0, 0};
        avrogen_json_sink sink = {take_piece, &p, sizeof buf};
        avrogen_status st = avrogen_value_to_json_sink(&w, &v, 0, &sink);
        free(p.text);
        if (p.n < fail) {
            ck_assert_int_eq(st, AVROGEN_OK);
            ck_assert_int_gt(fail, 3);
            break;
        }
        ck_assert_int_eq(st, AVROGEN_E_IO);
        ck_assert_int_eq(w.err, AVROGEN_E_IO);
    }
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_to_json_sink(&w, &v, 0, NULL), AVROGEN_E_ARG);
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(doubles_exact)
{
    /* Shortest repr must still read back to the very same bits. */
    avrogen_schema *s = parse("\"double\"");
    const avrogen_node *t = avrogen_schema_root(s);
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < 2000; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        double x;
        memcpy(&x, &seed, sizeof x);
        if (!isfinite(x))
            continue;
        avrogen_value v, back;
        ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
        v.f64 = x;
        char *text = to_json(&v, 0);
        ck_assert_int_eq(from_json(text, t, &back, NULL), AVROGEN_OK);
        ck_assert_msg(memcmp(&back.f64, &x, sizeof x) == 0, "%s", text);
        free(text);
    }
    avrogen_schema_free(s);
}
END_TEST

START_TEST(latin1_bytes)
{
    avrogen_schema *s = parse("\"bytes\"");
    const avrogen_node *t = avrogen_schema_root(s);
    uint8_t all[256];
    for (int k = 0; k < 256; k++)
        all[k] = (uint8_t)k;
    avrogen_value v, back;
    ck_assert_int_eq(avrogen_value_init(&v, t, &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_bytes(&v, all, sizeof all, &arena), AVROGEN_OK);
    for (unsigned flags = 0; flags <= AVROGEN_JSON_UTF8; flags += AVROGEN_JSON_UTF8) {
        char *text = to_json(&v, flags);
        ck_assert_int_eq(from_json(text, t, &back, NULL), AVROGEN_OK);
        ck_assert_uint_eq(back.bytes.len, 256);
        ck_assert_mem_eq(back.bytes.ptr, all, 256);
        free(text);
    }
    /* U+00E9 escaped and as raw UTF-8 are the same byte 0xe9. */
    ck_assert_int_eq(from_json("\"\\u00e9\"", t, &back, NULL), AVROGEN_OK);
    ck_assert_uint_eq(back.bytes.len, 1);
    ck_assert_uint_eq(back.bytes.ptr[0], 0xe9);
    ck_assert_int_eq(from_json("\"\xc3\xa9\"", t, &back, NULL), AVROGEN_OK);
    ck_assert_uint_eq(back.bytes.len, 1);
    ck_assert_uint_eq(back.bytes.ptr[0], 0xe9);
    avrogen_schema_free(s);
}
END_TEST

/* ---- errors ---------------------------------------------------------------------- */

static const char order_schema[] =
        "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"long\"},"
        "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\","
        "\"name\":\"Line\",\"fields\":[{\"name\":\"sku\",\"type\":\"long\"},"
        "{\"name\":\"qty\",\"type\":\"int\"}]}}},"
        "{\"name\":\"tags\",\"type\":{\"type\":\"map\",\"values\":\"float\"}},"
        "{\"name\":\"u\",\"type\":[\"null\",\"Line\"]},"
        "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F2\",\"size\":2}},"
        "{\"name\":\"b\",\"type\":\"bytes\"},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}}]}";

static const struct {
    const char *json;
    avrogen_status status;
    const char *path;
    const char *msg_part;
} errors[] = {
        {"{\"id\": 1, \"lines\": [{\"sku\": 1, \"qty\": 1}, {\"sku\": 2, \"qty\": 2}, {\"sku\": "
         "\"x\", \"qty\": 3}], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": \"\", \"e\": "
         "\"A\"}",
         AVROGEN_E_INVALID, "/lines/2/sku", "expected an integer, got a string"},
        {"{\"id\": 1, \"lines\": [{\"sku\": 1}], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": "
         "\"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/lines/0", "missing field \"qty\""},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": \"\", "
         "\"e\": \"A\", \"extra\": 0}",
         AVROGEN_E_INVALID, "", "no field \"extra\""},
        {"{\"id\": 1.5, \"lines\": [], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": \"\", "
         "\"e\": \"A\"}",
         AVROGEN_E_INVALID, "/id", "expected an integer, got a real number"},
        {"{\"id\": 1, \"lines\": [{\"sku\": 1, \"qty\": 2147483648}], \"tags\": {}, \"u\": null, "
         "\"f\": \"ab\", \"b\": \"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/lines/0/qty", "out of range for an int"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {\"a/b~c\": 1e39}, \"u\": null, \"f\": \"ab\", "
         "\"b\": \"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/tags/a~1b~0c", "out of range for a float"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": {\"Nope\": 1}, \"f\": \"ab\", \"b\": "
         "\"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/u", "\"Nope\" is not a branch"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": {\"Line\": {\"sku\": 1, \"qty\": "
         "true}}, \"f\": \"ab\", \"b\": \"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/u/Line/qty", "expected an integer, got a boolean"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": {\"null\": null, \"Line\": 1}, \"f\": "
         "\"ab\", \"b\": \"\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/u", "one member naming a union branch"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": null, \"f\": \"abc\", \"b\": \"\", "
         "\"e\": \"A\"}",
         AVROGEN_E_INVALID, "/f", "needs 2 bytes, got 3"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": "
         "\"x\\u0100\", \"e\": \"A\"}",
         AVROGEN_E_INVALID, "/b", "U+0100"},
        {"{\"id\": 1, \"lines\": [], \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": \"\", "
         "\"e\": \"Z\"}",
         AVROGEN_E_INVALID, "/e", "\"Z\" is not a symbol of enum E"},
        {"{\"id\": 1, \"lines\": {}, \"tags\": {}, \"u\": null, \"f\": \"ab\", \"b\": \"\", "
         "\"e\": \"A\"}",
         AVROGEN_E_INVALID, "/lines", "expected an array, got an object"},
        {"[1]", AVROGEN_E_INVALID, "", "expected an object, got an array"},
};
#define N_ERRORS ((int)(sizeof errors / sizeof errors[0]))

START_TEST(error_paths)
{
    avrogen_schema *s = parse(order_schema);
    avrogen_value v;
    avrogen_diag d;
    memset(&d, 0x55, sizeof d);
    ck_assert_int_eq(from_json(errors[_i].json, avrogen_schema_root(s), &v, &d), errors[_i].status);
    ck_assert_str_eq(d.path, errors[_i].path);
    ck_assert_msg(strstr(d.msg, errors[_i].msg_part) != NULL, "msg: %s", d.msg);
    /* NULL diag is allowed. */
    ck_assert_int_eq(from_json(errors[_i].json, avrogen_schema_root(s), &v, NULL),
                     errors[_i].status);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(malformed_json)
{
    avrogen_schema *s = parse("{\"type\":\"map\",\"values\":\"int\"}");
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    avrogen_diag d;
    ck_assert_int_eq(from_json("{\"a\": 1,\n \"b\": }", t, &v, &d), AVROGEN_E_INVALID);
    ck_assert_int_eq(d.line, 2);
    ck_assert_int_gt(d.column, 0);
    ck_assert_str_eq(d.path, "");
    ck_assert_int_eq(from_json("{\"a\": 1, \"a\": 2}", t, &v, &d), AVROGEN_E_INVALID);
    ck_assert_int_eq(from_json("", t, &v, &d), AVROGEN_E_INVALID);
    ck_assert_int_eq(from_json("{} {}", t, &v, &d), AVROGEN_E_INVALID);
    /* A JSON integer past 64 bits. */
    avrogen_schema *sl = parse("\"long\"");
    ck_assert_int_eq(from_json("9223372036854775808", avrogen_schema_root(sl), &v, &d),
                     AVROGEN_E_INVALID);
    avrogen_schema_free(sl);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(depth_and_budget_limits)
{
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"N\",\"fields\":["
                              "{\"name\":\"next\",\"type\":[\"null\",\"N\"]}]}");
    const avrogen_node *t = avrogen_schema_root(s);
    /* 1000 nested nodes are the limit exactly (AVROGEN_DEFAULT_MAX_DEPTH
     * recursive records), as in binary decoding; JSON nests them 2000 deep. */
    for (int nodes = 1000; nodes <= 1001; nodes++) {
        size_t cap = (size_t)nodes * 20 + 16;
        char *text = malloc(cap), *p = text;
        for (int k = 0; k < nodes - 1; k++)
            p += sprintf(p, "{\"next\": {\"N\": ");
        p += sprintf(p, "{\"next\": null}");
        for (int k = 0; k < nodes - 1; k++)
            p += sprintf(p, "}}");
        avrogen_value v;
        avrogen_diag d;
        ck_assert_int_eq(from_json(text, t, &v, &d), nodes == 1000 ? AVROGEN_OK : AVROGEN_E_LIMIT);
        free(text);
    }
    avrogen_schema *sa = parse("{\"type\":\"array\",\"items\":\"string\"}");
    avrogen_value v;
    avrogen_arena_set_budget(&arena, 256);
    ck_assert_int_eq(from_json("[\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"]",
                               avrogen_schema_root(sa), &v, NULL),
                     AVROGEN_E_LIMIT);
    avrogen_schema_free(sa);
    avrogen_schema_free(s);
}
END_TEST

/* n nested N nodes: {"next": {"N": ... {"next": null} ...}}, malloc'd. */
static char *nested_nodes(int n)
{
    char *text = malloc((size_t)n * 20 + 16), *p = text;
    for (int k = 0; k < n - 1; k++)
        p += sprintf(p, "{\"next\": {\"N\": ");
    p += sprintf(p, "{\"next\": null}");
    for (int k = 0; k < n - 1; k++)
        p += sprintf(p, "}}");
    return text;
}

START_TEST(depth_parameter)
{
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"N\",\"fields\":["
                              "{\"name\":\"next\",\"type\":[\"null\",\"N\"]}]}");
    const avrogen_node *t = avrogen_schema_root(s);
    /* max_depth nodes pass and one more is E_LIMIT naming the limit, below the
     * default and above it; past 1024 nodes jansson's own depth (2048 levels)
     * refuses the text whatever max_depth says. */
    static const struct {
        unsigned max_depth;
        int nodes;
        avrogen_status want;
    } depths[] = {{1, 1, AVROGEN_OK},
                  {1, 2, AVROGEN_E_LIMIT},
                  {10, 10, AVROGEN_OK},
                  {10, 11, AVROGEN_E_LIMIT},
                  {1020, 1001, AVROGEN_OK},
                  {1020, 1020, AVROGEN_OK},
                  {1020, 1021, AVROGEN_E_LIMIT},
                  {5000, 1024, AVROGEN_OK},
                  {5000, 1025, AVROGEN_E_INVALID}};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        char *text = nested_nodes(depths[i].nodes);
        avrogen_value v;
        avrogen_diag d;
        memset(&d, 0, sizeof d);
        avrogen_arena_reset(&arena);
        avrogen_status st = avrogen_value_from_json_depth(text, strlen(text), t,
                                                          depths[i].max_depth, &v, &arena, &d);
        ck_assert_msg(st == depths[i].want, "max_depth %u, %d nodes: %s (%s)", depths[i].max_depth,
                      depths[i].nodes, avrogen_status_str(st), d.msg);
        if (st == AVROGEN_E_LIMIT) {
            char want[64];
            snprintf(want, sizeof want, "records nest deeper than %u", depths[i].max_depth);
            ck_assert_str_eq(d.msg, want);
        }
        free(text);
    }
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_from_json_depth("null", 4, t, 0, &v, &arena, NULL),
                     AVROGEN_E_ARG);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(to_json_errors)
{
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                              "{\"name\":\"s\",\"type\":\"string\"},"
                              "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\","
                              "\"symbols\":[\"A\"]}}]}");
    avrogen_value v;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_OK);
    avrogen_writer w;
    uint8_t buf[64];
    v.fields[0].str.ptr = "\xff";
    v.fields[0].str.len = 1;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(avrogen_value_to_json(&w, &v, 0), AVROGEN_E_INVALID);
    v.fields[0].str.len = 0;
    v.fields[1].enum_index = 1;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(avrogen_value_to_json(&w, &v, 0), AVROGEN_E_ARG);
    v.fields[1].enum_index = 0;
    avrogen_writer_init_fixed(&w, buf, 8);
    ck_assert_int_eq(avrogen_value_to_json(&w, &v, 0), AVROGEN_E_NOSPACE);
    avrogen_schema_free(s);
}
END_TEST

/* ---- defaults ---------------------------------------------------------------------- */

static const char defaults_schema[] =
        "{\"type\":\"record\",\"name\":\"D\",\"namespace\":\"d\",\"fields\":["
        "{\"name\":\"u\",\"type\":[\"int\",\"null\"],\"default\":5},"
        "{\"name\":\"n\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"r\",\"type\":{\"type\":\"record\",\"name\":\"In\",\"fields\":["
        "{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"b\",\"type\":[\"long\",\"null\"],\"default\":7},"
        "{\"name\":\"c\",\"type\":\"string\",\"default\":\"x\"}]},"
        "\"default\":{\"a\":1}},"
        "{\"name\":\"by\",\"type\":\"bytes\",\"default\":\"\\u00ff\\u0000A\"},"
        "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F2\",\"size\":2},"
        "\"default\":\"ab\"},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]},"
        "\"default\":\"B\"},"
        "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":[\"long\",\"null\"]},"
        "\"default\":[1,2]},"
        "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"double\"},"
        "\"default\":{\"x\":1,\"y\":-2.5}},"
        "{\"name\":\"none\",\"type\":\"int\"}]}";

START_TEST(defaults_mode)
{
    avrogen_schema *s = parse(defaults_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    avrogen_value v;
    avrogen_diag d;
    char *text;

    /* spec: a union default is a value of the first branch, written unwrapped. */
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[0], &v, &arena, &d), AVROGEN_OK);
    ck_assert_uint_eq(v.branch.index, 0);
    ck_assert_int_eq(v.branch.value->i32, 5);
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[1], &v, &arena, &d), AVROGEN_OK);
    ck_assert_uint_eq(v.branch.index, 0);

    /* Fields missing from a record default take their own defaults. */
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[2], &v, &arena, &d), AVROGEN_OK);
    text = to_json(&v, 0);
    ck_assert_str_eq(text, "{\"a\": 1, \"b\": {\"long\": 7}, \"c\": \"x\"}");
    free(text);

    ck_assert_int_eq(avrogen_value_from_default(&t->fields[3], &v, &arena, &d), AVROGEN_OK);
    ck_assert_uint_eq(v.bytes.len, 3);
    ck_assert_mem_eq(v.bytes.ptr, "\xff\0A", 3);
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[4], &v, &arena, &d), AVROGEN_OK);
    ck_assert_mem_eq(v.bytes.ptr, "ab", 2);
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[5], &v, &arena, &d), AVROGEN_OK);
    ck_assert_str_eq(avrogen_value_enum_symbol(&v), "B");
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[6], &v, &arena, &d), AVROGEN_OK);
    text = to_json(&v, 0);
    ck_assert_str_eq(text, "[{\"long\": 1}, {\"long\": 2}]");
    free(text);
    ck_assert_int_eq(avrogen_value_from_default(&t->fields[7], &v, &arena, &d), AVROGEN_OK);
    text = to_json(&v, 0);
    ck_assert_str_eq(text, "{\"x\": 1.0, \"y\": -2.5}");
    free(text);

    ck_assert_int_eq(avrogen_value_from_default(&t->fields[8], &v, &arena, &d), AVROGEN_E_ARG);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(bad_defaults)
{
    /* Fields built by hand, so the schema parser's own default checks do not interfere. */
    avrogen_schema *s = parse(defaults_schema);
    const avrogen_node *t = avrogen_schema_root(s);
    static const struct {
        size_t field;
        const char *json;
        const char *path;
    } bad[] = {
            {0, "null", ""},         /* null is the second branch, not the first */
            {0, "{\"int\": 5}", ""}, /* no wrapper in a default */
            {2, "{\"b\": 1}", ""},   /* "a" has no default */
            {2, "{\"a\": 1, \"c\": 2}", "/c"},
            {6, "[1, \"x\"]", "/1"},
            {7, "{\"k\": \"nan\"}", "/k"},
            {7, "{\"k\": \"NaN\"}", "/k"}, /* a default is a JSON number */
            {3, "\"\\u0100\"", ""},
            {0, "{", ""},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        avrogen_field f = t->fields[bad[k].field];
        f.default_json = bad[k].json;
        avrogen_value v;
        avrogen_diag d;
        ck_assert_msg(avrogen_value_from_default(&f, &v, &arena, &d) == AVROGEN_E_SCHEMA, "%s",
                      bad[k].json);
        ck_assert_str_eq(d.path, bad[k].path);
    }
    avrogen_schema_free(s);
}
END_TEST

START_TEST(self_referential_default_is_bounded)
{
    /* A record whose field's default omits that same field: filling it in from
     * the field's default would never end; the depth limit stops it. */
    avrogen_schema *s = parse("{\"type\":\"record\",\"name\":\"Loop\",\"fields\":["
                              "{\"name\":\"a\",\"type\":\"int\"}]}");
    const avrogen_node *root = avrogen_schema_root(s);
    avrogen_node loop = *root;
    avrogen_field self = {0};
    self.name = "self";
    self.type = &loop;
    self.default_json = "{}";
    loop.fields = &self;
    loop.n_fields = 1;
    avrogen_value v;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_value_from_default(&self, &v, &arena, &d), AVROGEN_E_LIMIT);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(from_json_fail_until_ok)
{
    avrogen_schema *s = parse(cases[N_CASES - 1].schema);
    const avrogen_node *t = avrogen_schema_root(s);
    bool ok = false;
    for (long fail_at = 1; !ok && fail_at < 100; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        avrogen_arena a;
        avrogen_arena_init(&a, &ta.base);
        avrogen_status st = AVROGEN_OK;
        for (int rep = 0; rep < 60 && st == AVROGEN_OK; rep++) {
            avrogen_value v;
            st = avrogen_value_from_json(cases[N_CASES - 1].json, strlen(cases[N_CASES - 1].json),
                                         t, &v, &a, NULL);
        }
        ck_assert(st == AVROGEN_OK || st == AVROGEN_E_NOMEM);
        ok = st == AVROGEN_OK;
        avrogen_arena_fini(&a);
        ck_assert_int_eq(ta.live, 0);
    }
    ck_assert(ok);
    avrogen_schema_free(s);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("round_trip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, round_trip_cases, 0, N_CASES);
    tcase_add_test(tc, doubles_exact);
    tcase_add_test(tc, sink_errors);
    tcase_add_test(tc, doubles_like_python);
    tcase_add_test(tc, integers_like_printf);
    tcase_add_loop_test(tc, datum_to_json_is_decode_then_print, 0, N_CASES);
    tcase_add_test(tc, latin1_bytes);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, error_paths, 0, N_ERRORS);
    tcase_add_test(tc, malformed_json);
    tcase_add_test(tc, depth_and_budget_limits);
    tcase_add_test(tc, depth_parameter);
    tcase_add_test(tc, to_json_errors);
    tcase_add_test(tc, from_json_fail_until_ok);
    suite_add_tcase(s, tc);

    tc = tcase_create("defaults");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, defaults_mode);
    tcase_add_test(tc, bad_defaults);
    tcase_add_test(tc, self_referential_default_is_bounded);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
