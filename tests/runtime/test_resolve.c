/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema resolution (resolve.h): every rule of spec §Schema Resolution on the
 * generic runtime, the errors at build time (E_MISMATCH with a reader-schema
 * path) and at decode time (enum symbols and union branches the reader lacks),
 * hostile input, and allocation failure while building. Data is written with
 * the writer's schema from its JSON encoding, and the resolved value is checked
 * through its JSON encoding; tests/interop/resolve_python.py checks the same
 * rules against python3-avro.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/resolve.h"
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

/* The binary encoding of `datum` (Avro JSON) under schema s, into w. */
static void encode_json(avrogen_writer *w, const avrogen_schema *s, const char *datum)
{
    avrogen_value v;
    avrogen_diag d;
    avrogen_status st =
            avrogen_value_from_json(datum, strlen(datum), avrogen_schema_root(s), &v, &arena, &d);
    ck_assert_msg(st == AVROGEN_OK, "datum %s: %s: %s", datum, d.path, d.msg);
    ck_assert_int_eq(avrogen_value_encode(w, &v), AVROGEN_OK);
}

/* Write `datum` with schema W, read it back as R, and compare R's JSON encoding. */
static void check_resolves(const char *wjson, const char *rjson, const char *datum,
                           const char *expect)
{
    avrogen_schema *ws = parse(wjson), *rs = parse(rjson);
    avrogen_resolver *res;
    avrogen_diag why;
    avrogen_status st = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                             &res, &why);
    ck_assert_msg(st == AVROGEN_OK, "resolver: %s: %s", why.path, why.msg);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    encode_json(&w, ws, datum);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_value v;
    st = avrogen_resolver_decode(res, &r, &v, &arena);
    ck_assert_msg(st == AVROGEN_OK, "decode %s: %s", datum, r.err_msg);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
    ck_assert_ptr_eq(v.type, avrogen_schema_root(rs));
    avrogen_writer out;
    avrogen_writer_init_growable(&out, NULL);
    ck_assert_int_eq(avrogen_value_to_json(&out, &v, 0), AVROGEN_OK);
    avrogen_write_raw(&out, "", 1);
    ck_assert_str_eq((const char *)avrogen_writer_data(&out), expect);
    /* The value is a proper value of R: it encodes, and decodes back the same. */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_value back;
    ck_assert_int_eq(avrogen_value_decode(&r, avrogen_schema_root(rs), &back, &arena), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&v, &back));
    avrogen_writer_fini(&out);
    avrogen_writer_fini(&w);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}

/* Building the resolver fails with E_MISMATCH at `path`, the message containing `needle`. */
static void check_incompatible(const char *wjson, const char *rjson, const char *path,
                               const char *needle)
{
    avrogen_schema *ws = parse(wjson), *rs = parse(rjson);
    avrogen_resolver *res = (avrogen_resolver *)&arena; /* must be reset to NULL */
    avrogen_diag why;
    avrogen_status st = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                             &res, &why);
    ck_assert_int_eq(st, AVROGEN_E_MISMATCH);
    ck_assert_ptr_null(res);
    ck_assert_str_eq(why.path, path);
    ck_assert_msg(strstr(why.msg, needle) != NULL, "message \"%s\" lacks \"%s\"", why.msg, needle);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}

/* The resolver builds, but decoding `datum` fails with `status`, r.err_msg containing `needle`. */
static void check_decode_fails(const char *wjson, const char *rjson, const char *datum,
                               avrogen_status status, const char *needle)
{
    avrogen_schema *ws = parse(wjson), *rs = parse(rjson);
    avrogen_resolver *res;
    avrogen_diag why;
    avrogen_status st = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                             &res, &why);
    ck_assert_msg(st == AVROGEN_OK, "resolver: %s: %s", why.path, why.msg);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    encode_json(&w, ws, datum);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_value v;
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), status);
    ck_assert_ptr_nonnull(r.err_msg);
    ck_assert_msg(strstr(r.err_msg, needle) != NULL, "message \"%s\" lacks \"%s\"", r.err_msg,
                  needle);
    avrogen_writer_fini(&w);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}

/* ---- promotions ------------------------------------------------------------ */

static const struct {
    const char *w, *r, *in, *out;
} promotions[] = {
        {"\"int\"", "\"long\"", "-2147483648", "-2147483648"},
        {"\"int\"", "\"float\"", "16777217", "16777216.0"},
        {"\"int\"", "\"double\"", "7", "7.0"},
        {"\"long\"", "\"float\"", "3", "3.0"},
        /* Past 32 bits: the long itself is rounded, not a truncation of it (issue 12). */
        {"\"long\"", "\"float\"", "1099511627777", "1099511627776.0"},
        {"\"long\"", "\"float\"", "-9223372036854775808", "-9.223372036854776e+18"},
        {"\"long\"", "\"double\"", "-9223372036854775807", "-9.223372036854776e+18"},
        {"\"long\"", "\"double\"", "9007199254740993", "9007199254740992.0"},
        {"\"float\"", "\"double\"", "0.5", "0.5"},
        {"\"string\"", "\"bytes\"", "\"h\\u00e9\"", "\"h\\u00c3\\u00a9\""},
        {"\"bytes\"", "\"string\"", "\"h\\u00c3\\u00a9\"", "\"h\\u00e9\""},
        {"\"int\"", "\"int\"", "-1", "-1"},
        {"\"boolean\"", "\"boolean\"", "true", "true"},
        {"\"null\"", "\"null\"", "null", "null"},
};

START_TEST(promotion_table)
{
    check_resolves(promotions[_i].w, promotions[_i].r, promotions[_i].in, promotions[_i].out);
}
END_TEST

START_TEST(promotions_inside_containers)
{
    check_resolves("{\"type\":\"array\",\"items\":\"int\"}",
                   "{\"type\":\"array\",\"items\":\"double\"}", "[1, 2, 3]", "[1.0, 2.0, 3.0]");
    check_resolves("{\"type\":\"map\",\"values\":\"long\"}",
                   "{\"type\":\"map\",\"values\":\"float\"}", "{\"a\": 1, \"b\": -2}",
                   "{\"a\": 1.0, \"b\": -2.0}");
    check_resolves("{\"type\":\"array\",\"items\":\"int\"}",
                   "{\"type\":\"array\",\"items\":\"int\"}", "[]", "[]");
}
END_TEST

START_TEST(no_demotion)
{
    check_incompatible("\"long\"", "\"int\"", "", "the writer's long cannot be read as int");
    check_incompatible("\"double\"", "\"float\"", "", "double");
    check_incompatible("\"string\"", "\"int\"", "", "string");
    check_incompatible("{\"type\":\"array\",\"items\":\"string\"}",
                       "{\"type\":\"array\",\"items\":\"long\"}", "/items", "string");
    check_incompatible("{\"type\":\"map\",\"values\":\"string\"}",
                       "{\"type\":\"array\",\"items\":\"string\"}", "", "map");
}
END_TEST

START_TEST(bytes_to_string_checks_utf8)
{
    check_decode_fails("\"bytes\"", "\"string\"", "\"\\u00ff\"", AVROGEN_E_INVALID, "UTF-8");
}
END_TEST

/* ---- records --------------------------------------------------------------- */

#define W_REC                                                                                 \
    "{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["                                     \
    "{\"name\":\"a\",\"type\":\"int\"},"                                                      \
    "{\"name\":\"gone\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":" \
    "\"string\"}}},"                                                                          \
    "{\"name\":\"b\",\"type\":\"string\"},"                                                   \
    "{\"name\":\"old\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Q\",\"fields\":"    \
    "[{\"name\":\"q\",\"type\":\"long\"}]}]}]}"

START_TEST(fields_by_name_skip_and_defaults)
{
    const char *reader = "{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                         "{\"name\":\"b\",\"type\":\"string\"},"
                         "{\"name\":\"n\",\"type\":[\"null\",\"int\"],\"default\":null},"
                         "{\"name\":\"a\",\"type\":\"long\"},"
                         "{\"name\":\"p\",\"type\":{\"type\":\"record\",\"name\":\"P\",\"fields\":["
                         "{\"name\":\"x\",\"type\":\"int\",\"default\":4},"
                         "{\"name\":\"y\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]},"
                         "\"default\":{\"y\":[\"u\",\"v\"]}},"
                         "{\"name\":\"u\",\"type\":[\"string\",\"null\"],\"default\":\"dflt\"}]}";
    check_resolves(W_REC, reader,
                   "{\"a\": 5, \"gone\": [{\"k\": \"v\"}, {}], \"b\": \"bee\", "
                   "\"old\": {\"ns.Q\": {\"q\": 9}}}",
                   "{\"b\": \"bee\", \"n\": null, \"a\": 5, \"p\": {\"x\": 4, \"y\": [\"u\", "
                   "\"v\"]}, \"u\": {\"string\": \"dflt\"}}");
}
END_TEST

START_TEST(missing_field_without_default)
{
    check_incompatible(W_REC,
                       "{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                       "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"int\"}]}",
                       "/fields/1", "reader field \"c\"");
    /* A field that exists on both sides but does not resolve: the path goes inside. */
    check_incompatible(W_REC,
                       "{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                       "{\"name\":\"b\",\"type\":\"boolean\"}]}",
                       "/fields/0/type", "string");
}
END_TEST

START_TEST(record_and_field_aliases)
{
    check_resolves("{\"type\":\"record\",\"name\":\"old.Name\",\"fields\":["
                   "{\"name\":\"before\",\"type\":\"int\"},{\"name\":\"z\",\"type\":\"int\"}]}",
                   "{\"type\":\"record\",\"name\":\"New\",\"aliases\":[\"old.Name\"],\"fields\":["
                   "{\"name\":\"z\",\"type\":\"int\"},"
                   "{\"name\":\"after\",\"aliases\":[\"before\"],\"type\":\"long\"}]}",
                   "{\"before\": 1, \"z\": 2}", "{\"z\": 2, \"after\": 1}");
    /* An exact name beats an alias; a writer field feeds every reader field
     * that names it or has it as an alias (the spec is silent; Java and
     * Python's checker do so): "c" reads "b" rather than take its default. */
    check_resolves("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}",
                   "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"b\",\"aliases\":[\"a\"],\"type\":\"int\"},"
                   "{\"name\":\"c\",\"aliases\":[\"b\"],\"type\":\"int\",\"default\":0}]}",
                   "{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"c\": 2}");
    /* Each reader field resolves the writer's field on its own terms (int as
     * int, long, double; a string twice, around a skipped field), and the
     * datum is consumed once. */
    check_resolves("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"old\",\"type\":\"int\"},{\"name\":\"gone\",\"type\":\"string\"},"
                   "{\"name\":\"s\",\"type\":\"string\"}]}",
                   "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"t\",\"aliases\":[\"s\"],\"type\":\"bytes\"},"
                   "{\"name\":\"old\",\"type\":\"int\"},"
                   "{\"name\":\"wide\",\"aliases\":[\"old\"],\"type\":\"long\"},"
                   "{\"name\":\"real\",\"aliases\":[\"old\"],\"type\":\"double\"},"
                   "{\"name\":\"s\",\"type\":\"string\"}]}",
                   "{\"old\": -7, \"gone\": \"xyz\", \"s\": \"hi\"}",
                   "{\"t\": \"hi\", \"old\": -7, \"wide\": -7, \"real\": -7.0, \"s\": \"hi\"}");
}
END_TEST

START_TEST(record_names_must_match)
{
    check_incompatible("{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}",
                       "{\"type\":\"record\",\"name\":\"B\",\"fields\":[]}", "",
                       "the writer's record A does not match the reader's B");
    /* Aliases belong to the reader: a writer alias does not help. */
    check_incompatible("{\"type\":\"record\",\"name\":\"A\",\"aliases\":[\"B\"],\"fields\":[]}",
                       "{\"type\":\"record\",\"name\":\"B\",\"fields\":[]}", "", "A");
}
END_TEST

START_TEST(recursive_types)
{
    const char *w = "{\"type\":\"record\",\"name\":\"List\",\"fields\":["
                    "{\"name\":\"v\",\"type\":\"int\"},{\"name\":\"junk\",\"type\":\"string\"},"
                    "{\"name\":\"next\",\"type\":[\"null\",\"List\"]}]}";
    const char *r = "{\"type\":\"record\",\"name\":\"List\",\"fields\":["
                    "{\"name\":\"next\",\"type\":[\"null\",\"List\"]},"
                    "{\"name\":\"v\",\"type\":\"double\"},"
                    "{\"name\":\"tag\",\"type\":\"string\",\"default\":\"t\"}]}";
    check_resolves(
            w, r,
            "{\"v\": 1, \"junk\": \"x\", \"next\": {\"List\": {\"v\": 2, \"junk\": \"y\", "
            "\"next\": null}}}",
            "{\"next\": {\"List\": {\"next\": null, \"v\": 2.0, \"tag\": \"t\"}}, \"v\": 1.0, "
            "\"tag\": \"t\"}");
    /* Mutual recursion through a map and an array. */
    const char *tree = "{\"type\":\"record\",\"name\":\"T\",\"fields\":["
                       "{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":{\"type\":"
                       "\"record\",\"name\":\"N\",\"fields\":[{\"name\":\"m\",\"type\":{\"type\":"
                       "\"map\",\"values\":\"T\"}},{\"name\":\"i\",\"type\":\"int\"}]}}}]}";
    const char *tree_r = "{\"type\":\"record\",\"name\":\"T\",\"fields\":["
                         "{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":{\"type\":"
                         "\"record\",\"name\":\"N\",\"fields\":[{\"name\":\"i\",\"type\":\"long\"},"
                         "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"T\"}}]}}}]}";
    check_resolves(tree, tree_r, "{\"kids\": [{\"m\": {\"k\": {\"kids\": []}}, \"i\": 3}]}",
                   "{\"kids\": [{\"i\": 3, \"m\": {\"k\": {\"kids\": []}}}]}");
    /* A recursive field the reader lacks is skipped, whole. */
    check_resolves(w,
                   "{\"type\":\"record\",\"name\":\"List\",\"fields\":["
                   "{\"name\":\"v\",\"type\":\"int\"}]}",
                   "{\"v\": 7, \"junk\": \"\", \"next\": {\"List\": {\"v\": 8, \"junk\": \"z\", "
                   "\"next\": null}}}",
                   "{\"v\": 7}");
}
END_TEST

/* ---- enums and fixed ------------------------------------------------------- */

#define W_ENUM "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}"

/* JSON written with single quotes (names never contain them); static, one at a time. */
static const char *sq(const char *text, char *buf, size_t cap)
{
    size_t n = strlen(text);
    ck_assert_uint_lt(n, cap);
    for (size_t i = 0; i <= n; i++)
        buf[i] = text[i] == '\'' ? '"' : text[i];
    return buf;
}

/*
 * spec §Schema Resolution: records (enums, fixed) match by their unqualified
 * names, so p.q.R is read as x.y.R; in a reader union, a branch with the
 * writer's full name wins over an earlier one sharing only the last part.
 */
START_TEST(names_match_unqualified)
{
    char w[1024], r[1024];
    check_resolves(sq("{'type':'record','name':'p.q.R','fields':[{'name':'e','type':{'type':'enum',"
                      "'name':'E','symbols':['A','B']}},{'name':'f','type':{'type':'fixed',"
                      "'name':'F','size':1}}]}",
                      w, sizeof w),
                   sq("{'type':'record','name':'x.y.R','fields':[{'name':'e','type':{'type':'enum',"
                      "'name':'z.E','symbols':['B','A']}},{'name':'f','type':{'type':'fixed',"
                      "'name':'F','size':1}}]}",
                      r, sizeof r),
                   "{\"e\": \"A\", \"f\": \"\\u0007\"}", "{\"e\": \"A\", \"f\": \"\\u0007\"}");
    /* Reader aliases match by their last part too. */
    check_resolves(
            sq("{'type':'record','name':'p.Old','fields':[]}", w, sizeof w),
            sq("{'type':'record','name':'x.New','aliases':['q.Old'],'fields':[]}", r, sizeof r),
            "{}", "{}");
    check_incompatible(sq("{'type':'record','name':'p.A','fields':[]}", w, sizeof w),
                       sq("{'type':'record','name':'p.B','fields':[]}", r, sizeof r), "",
                       "does not match");

    /* Two reader branches named R: the full-name match, wherever it stands. */
    const char *two = "[{'type':'record','name':'a.R','fields':[{'name':'x','type':'int'}]},"
                      "{'type':'record','name':'b.R','fields':[{'name':'x','type':'long'}]}]";
    check_resolves(
            sq("{'type':'record','name':'b.R','fields':[{'name':'x','type':'int'}]}", w, sizeof w),
            sq(two, r, sizeof r), "{\"x\": 5}", "{\"b.R\": {\"x\": 5}}");
    check_resolves(
            sq("{'type':'record','name':'a.R','fields':[{'name':'x','type':'int'}]}", w, sizeof w),
            sq(two, r, sizeof r), "{\"x\": 5}", "{\"a.R\": {\"x\": 5}}");
    /* No full-name match: the first with the same last part. */
    check_resolves(
            sq("{'type':'record','name':'c.R','fields':[{'name':'x','type':'int'}]}", w, sizeof w),
            sq(two, r, sizeof r), "{\"x\": 5}", "{\"a.R\": {\"x\": 5}}");
    /* From a writer union, branch by branch. */
    check_resolves(sq("[{'type':'record','name':'c.R','fields':[{'name':'x','type':'int'}]},"
                      "{'type':'record','name':'b.R','fields':[{'name':'x','type':'int'}]}]",
                      w, sizeof w),
                   sq(two, r, sizeof r), "{\"b.R\": {\"x\": 6}}", "{\"b.R\": {\"x\": 6}}");
}
END_TEST

/* spec §Logical Types, Decimal: decimals match only with the same scale and precision. */
START_TEST(decimals_must_agree)
{
    char w[512], r[512];
    const char *d92 = "{'type':'bytes','logicalType':'decimal','precision':9,'scale':2}";
    check_resolves(sq(d92, w, sizeof w), sq(d92, r, sizeof r), "\"\\u0001\"", "\"\\u0001\"");
    check_incompatible(
            sq(d92, w, sizeof w),
            sq("{'type':'bytes','logicalType':'decimal','precision':9,'scale':3}", r, sizeof r), "",
            "decimal(9, 2) cannot be read as decimal(9, 3)");
    check_incompatible(
            sq(d92, w, sizeof w),
            sq("{'type':'bytes','logicalType':'decimal','precision':10,'scale':2}", r, sizeof r),
            "", "decimal(9, 2) cannot be read as decimal(10, 2)");
    /* Where only one side is a decimal, the logical type plays no part. */
    check_resolves(sq(d92, w, sizeof w), "\"bytes\"", "\"\\u0001\"", "\"\\u0001\"");
    check_resolves("\"bytes\"", sq(d92, r, sizeof r), "\"\\u0001\"", "\"\\u0001\"");
    /* Fixed decimals, in a record and in a union. */
    const char *f = "{'type':'record','name':'R','fields':[{'name':'v','type':{'type':'fixed',"
                    "'name':'F','size':4,'logicalType':'decimal','precision':9,'scale':%d}}]}";
    char f2[512], f3[512];
    snprintf(f2, sizeof f2, f, 2);
    snprintf(f3, sizeof f3, f, 3);
    check_incompatible(sq(f2, w, sizeof w), sq(f3, r, sizeof r), "/fields/0/type",
                       "decimal(9, 2) cannot be read as decimal(9, 3)");
    check_incompatible(sq(d92, w, sizeof w),
                       sq("['null',{'type':'bytes','logicalType':'decimal','precision':9,"
                          "'scale':3}]",
                          r, sizeof r),
                       "", "matches no branch");
}
END_TEST

START_TEST(enums_by_symbol)
{
    check_resolves(W_ENUM, "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"C\",\"B\",\"A\"]}",
                   "\"B\"", "\"B\"");
    check_resolves(W_ENUM,
                   "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"Z\",\"A\"],\"default\":\"Z\"}",
                   "\"C\"", "\"Z\"");
    check_resolves(W_ENUM, "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"A\"",
                   "\"A\"");
    check_decode_fails(W_ENUM, "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"C\"",
                       AVROGEN_E_MISMATCH, "\"C\"");
    check_incompatible(W_ENUM, "{\"type\":\"enum\",\"name\":\"F\",\"symbols\":[\"A\"]}", "",
                       "enum E");
    check_resolves(W_ENUM,
                   "{\"type\":\"enum\",\"name\":\"F\",\"aliases\":[\"E\"],\"symbols\":[\"C\"]}",
                   "\"C\"", "\"C\"");
}
END_TEST

START_TEST(fixed_by_name_and_size)
{
    check_resolves("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}",
                   "{\"type\":\"fixed\",\"name\":\"G\",\"aliases\":[\"F\"],\"size\":2}", "\"ab\"",
                   "\"ab\"");
    check_incompatible("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}",
                       "{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}", "", "size 2");
    check_incompatible("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}",
                       "{\"type\":\"fixed\",\"name\":\"G\",\"size\":2}", "", "fixed F");
}
END_TEST

/* ---- unions ---------------------------------------------------------------- */

START_TEST(writer_union_to_plain_reader)
{
    const char *w = "[\"null\",\"int\",\"string\"]";
    check_resolves(w, "\"long\"", "{\"int\": 4}", "4");
    check_decode_fails(w, "\"long\"", "{\"string\": \"s\"}", AVROGEN_E_MISMATCH,
                       "branch 2 (string)");
    check_decode_fails(w, "\"long\"", "null", AVROGEN_E_MISMATCH, "branch 0 (null)");
    check_incompatible("[\"null\",\"string\"]", "\"int\"", "",
                       "no branch of the writer's union can be read as int");
}
END_TEST

START_TEST(writer_union_to_reader_union)
{
    const char *w = "[\"null\",\"int\",{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}]";
    const char *r = "[{\"type\":\"record\",\"name\":\"R\",\"fields\":[]},\"double\",\"null\"]";
    check_resolves(w, r, "null", "null");
    check_resolves(w, r, "{\"int\": 3}", "{\"double\": 3.0}");
    check_resolves(w, r, "{\"R\": {}}", "{\"R\": {}}");
    check_decode_fails("[\"int\",\"boolean\"]", "[\"long\",\"null\"]", "{\"boolean\": true}",
                       AVROGEN_E_MISMATCH, "boolean");
}
END_TEST

START_TEST(reader_union_takes_first_match)
{
    check_resolves("\"int\"", "[\"null\",\"string\",\"long\",\"int\"]", "5", "{\"long\": 5}");
    check_resolves("\"string\"", "[\"null\",\"bytes\",\"string\"]", "\"x\"", "{\"bytes\": \"x\"}");
    check_resolves("{\"type\":\"record\",\"name\":\"B\",\"fields\":[]}",
                   "[{\"type\":\"record\",\"name\":\"A\",\"fields\":[]},"
                   "{\"type\":\"record\",\"name\":\"B\",\"fields\":[]}]",
                   "{}", "{\"B\": {}}");
    check_resolves("{\"type\":\"array\",\"items\":\"int\"}",
                   "[{\"type\":\"map\",\"values\":\"int\"},"
                   "{\"type\":\"array\",\"items\":\"long\"}]",
                   "[1]", "{\"array\": [1]}");
    check_incompatible("\"boolean\"", "[\"null\",\"int\"]", "",
                       "the writer's boolean matches no branch of the reader's union");
    /* The matching branch does not resolve inside: the path names that branch. */
    check_incompatible("{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
                       "[\"null\",{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                       "{\"name\":\"f\",\"type\":\"int\"}]}]",
                       "/1/fields/0", "reader field \"f\"");
}
END_TEST

/* ---- streams, hostile input, memory ---------------------------------------- */

START_TEST(stream_of_datums)
{
    avrogen_schema *ws = parse(W_REC);
    avrogen_schema *rs = parse("{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                               "{\"name\":\"b\",\"type\":\"string\"}]}");
    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                          &res, NULL),
                     AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    for (int i = 0; i < 50; i++) {
        char datum[160];
        snprintf(datum, sizeof datum,
                 "{\"a\": %d, \"gone\": [{\"k%d\": \"v\"}], \"b\": \"b%d\", \"old\": null}", i, i,
                 i);
        encode_json(&w, ws, datum);
    }
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    int n = 0;
    while (avrogen_reader_remaining(&r) != 0) {
        avrogen_value v;
        avrogen_arena_reset(&arena);
        ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_OK);
        char expect[16];
        snprintf(expect, sizeof expect, "b%d", n++);
        ck_assert_str_eq(avrogen_value_field(&v, "b")->str.ptr, expect);
    }
    ck_assert_int_eq(n, 50);
    avrogen_writer_fini(&w);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}
END_TEST

START_TEST(truncated_at_every_prefix)
{
    avrogen_schema *ws = parse(W_REC);
    avrogen_schema *rs =
            parse("{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                  "{\"name\":\"old\",\"type\":[\"null\",{\"type\":\"record\","
                  "\"name\":\"Q\",\"fields\":[{\"name\":\"q\",\"type\":\"double\"}]}]},"
                  "{\"name\":\"a\",\"type\":\"float\"}]}");
    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                          &res, NULL),
                     AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    encode_json(&w, ws,
                "{\"a\": 300, \"gone\": [{\"k\": \"v\"}], \"b\": \"bee\", "
                "\"old\": {\"ns.Q\": {\"q\": 1000}}}");
    size_t len = avrogen_writer_len(&w);
    for (size_t cut = 0; cut < len; cut++) {
        avrogen_reader r;
        avrogen_reader_init(&r, avrogen_writer_data(&w), cut);
        avrogen_value v;
        ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_E_TRUNCATED);
    }
    avrogen_writer_fini(&w);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}
END_TEST

START_TEST(hostile_counts_and_indexes)
{
    avrogen_schema *ws = parse("{\"type\":\"array\",\"items\":[\"int\",\"null\"]}");
    avrogen_schema *rs = parse("{\"type\":\"array\",\"items\":[\"null\",\"long\"]}");
    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                          &res, NULL),
                     AVROGEN_OK);
    static const struct {
        const char *hex;
        avrogen_status st;
    } cases[] = {
            {"04 04 00", AVROGEN_E_INVALID}, /* union index 2 of 2 */
            {"02 01 00", AVROGEN_E_INVALID}, /* union index -1 */
            {"d00f", AVROGEN_E_TRUNCATED},   /* 1000 items, no bytes */
            {"feffffff0f", AVROGEN_E_LIMIT}, /* 2^31 items: past the budget */
            {"02 00", AVROGEN_E_TRUNCATED},  /* int branch with no int */
            {"ffffffffffffffffffff01", AVROGEN_E_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t buf[32];
        size_t n = test_unhex(cases[i].hex, buf, sizeof buf);
        avrogen_reader r;
        avrogen_reader_init(&r, buf, n);
        avrogen_value v;
        ck_assert_msg(avrogen_resolver_decode(res, &r, &v, &arena) == cases[i].st, "case %zu: %s",
                      i, r.err_msg);
    }
    /* max_depth counts records that contain themselves: nesting that only the
     * schema's own shape makes (an array of unions) is not limited by it. */
    uint8_t deep[] = {0x02, 0x00, 0x02, 0x00};
    avrogen_reader r;
    avrogen_reader_init(&r, deep, sizeof deep);
    r.max_depth = 0;
    avrogen_value v;
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_OK);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}
END_TEST

START_TEST(build_fail_until_ok)
{
    avrogen_schema *ws = parse(W_REC);
    avrogen_schema *rs =
            parse("{\"type\":\"record\",\"name\":\"ns.R\",\"fields\":["
                  "{\"name\":\"b\",\"type\":\"bytes\"},"
                  "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]},"
                  "\"default\":\"X\"},"
                  "{\"name\":\"s\",\"type\":{\"type\":\"array\",\"items\":\"string\"},"
                  "\"default\":[\"a\",\"b\",\"c\"]},"
                  "{\"name\":\"old\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Q\","
                  "\"fields\":[{\"name\":\"q\",\"type\":\"double\"}]}]}]}");
    for (long fail = 1;; fail++) {
        test_alloc ta;
        test_alloc_init(&ta, fail);
        avrogen_resolver *res;
        avrogen_status st = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs),
                                                 &ta.base, &res, NULL);
        if (st == AVROGEN_OK) {
            avrogen_resolver_free(res);
            ck_assert_int_eq(ta.live, 0);
            ck_assert_int_gt(fail, 1);
            break;
        }
        ck_assert_int_eq(st, AVROGEN_E_NOMEM);
        ck_assert_ptr_null(res);
        ck_assert_int_eq(ta.live, 0);
        ck_assert_int_lt(fail, 1000);
    }
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}
END_TEST

START_TEST(decode_arena_budget)
{
    check_resolves("\"int\"", "\"long\"", "1", "1"); /* warm: the helper works */
    avrogen_schema *ws = parse("{\"type\":\"array\",\"items\":\"string\"}");
    avrogen_schema *rs = parse("{\"type\":\"array\",\"items\":\"bytes\"}");
    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                          &res, NULL),
                     AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    encode_json(&w, ws, "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"b\", \"c\"]");
    avrogen_arena small;
    avrogen_arena_init(&small, NULL);
    avrogen_arena_set_budget(&small, 64);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_value v;
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &small), AVROGEN_E_LIMIT);
    avrogen_arena_fini(&small);
    avrogen_writer_fini(&w);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
}
END_TEST

/*
 * Record R0 with a field `defs` (defaulted) whose union defines R1..Rn, R<i>
 * holding an R<i+1>, then a field f of type R1. Reader and writer name `defs`
 * differently, so the plan skips it and meets the chain from R1: n levels.
 */
static char *chain(int n, const char *defs)
{
    size_t cap = (size_t)n * 96 + 160;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)snprintf(s, cap,
                                  "{\"type\":\"record\",\"name\":\"R0\",\"fields\":[{\"name\":"
                                  "\"%s\",\"type\":[\"null\",{\"type\":\"record\",\"name\":"
                                  "\"R%d\",\"fields\":[]}",
                                  defs, n);
    for (int i = n - 1; i >= 1; i--)
        len += (size_t)snprintf(s + len, cap - len,
                                ",{\"type\":\"record\",\"name\":\"R%d\",\"fields\":[{"
                                "\"name\":\"f\",\"type\":\"R%d\"}]}",
                                i, i + 1);
    snprintf(s + len, cap - len, "],\"default\":null},{\"name\":\"f\",\"type\":\"R1\"}]}");
    return s;
}

/* A chain of named types deeper than any datum may nest is refused, not recursed. */
START_TEST(build_nesting_limit)
{
    for (int k = 0; k < 2; k++) {
        int n = k == 0 ? 3000 : 5000;
        char *rj = chain(n, "x"), *wj = chain(n, "y");
        avrogen_schema *rs = parse(rj), *ws = parse(wj);
        avrogen_resolver *res = (avrogen_resolver *)rs; /* must be reset to NULL */
        avrogen_diag why;
        avrogen_status st = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs),
                                                 NULL, &res, &why);
        if (k == 0) {
            ck_assert_int_eq(st, AVROGEN_OK);
            avrogen_resolver_free(res);
        } else {
            ck_assert_int_eq(st, AVROGEN_E_LIMIT);
            ck_assert_ptr_null(res);
            ck_assert_ptr_nonnull(strstr(why.msg, "deeper than 4096"));
        }
        avrogen_schema_free(rs);
        avrogen_schema_free(ws);
        free(rj);
        free(wj);
    }
}
END_TEST

/*
 * Issue 12: building walks each pair of named types once, however often the
 * schema refers to it (the fanout T40 is 2^40 records as a tree), and a
 * writer-only field whose values take no bytes costs its records as items:
 * a one-byte datum skipping a T40 stops at the budget instead of running on.
 */
START_TEST(fanout_linear_and_budgeted)
{
    char *text = test_fanout_schema(40, "");
    avrogen_schema *fan = parse(text);
    free(text);
    avrogen_resolver *res;
    avrogen_diag why;
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(fan), avrogen_schema_root(fan), NULL,
                                          &res, &why),
                     AVROGEN_OK);
    avrogen_resolver_free(res);

    /* The writer's record: {a: int, t: T40}; the reader's: {a: int}. */
    text = test_fanout_schema(40, "");
    size_t cap = strlen(text) + 256;
    char *wj = malloc(cap);
    ck_assert_ptr_nonnull(wj);
    snprintf(wj, cap,
             "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"type\":"
             "\"int\"},{\"name\":\"t\",\"type\":%s}]}",
             text);
    free(text);
    avrogen_schema *ws = parse(wj);
    avrogen_schema *rs = parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\","
                               "\"type\":\"int\"}]}");
    free(wj);
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs), NULL,
                                          &res, &why),
                     AVROGEN_OK);
    avrogen_reader r;
    avrogen_value v;
    avrogen_reader_init(&r, "\x02", 1);
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_E_LIMIT);
    /* With the budget to hold them, the datum is its one byte. */
    avrogen_reader_init(&r, "\x02", 1);
    r.max_items = SIZE_MAX;
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_OK);
    ck_assert_int_eq(v.fields[0].i32, 1);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
    avrogen_resolver_free(res);

    /* Read the other way, the writer's T40 itself is decoded: records cost items there too. */
    ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(ws), NULL,
                                          &res, &why),
                     AVROGEN_OK);
    avrogen_reader_init(&r, "\x02", 1);
    r.max_items = 1000;
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_E_LIMIT);
    avrogen_resolver_free(res);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
    avrogen_schema_free(fan);
}
END_TEST

/*
 * Reader fields that share a writer field read it again, at a cost to the
 * item budget: R<i> reads W<i>'s one field `f` twice (f, and g by alias), at
 * each of 40 levels, so a 1-byte datum would be read 2^40 times. It stops at
 * the budget; one level of it reads in full, with the bytes consumed once.
 */
static char *twice_chain(int n, bool reader)
{
    size_t cap = (size_t)n * 160 + 160;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)snprintf(s, cap,
                                  "{\"type\":\"record\",\"name\":\"T0\",\"fields\":["
                                  "{\"name\":\"x\",\"type\":\"int\"}]}");
    for (int i = 1; i <= n; i++) {
        char *inner = malloc(len + 1);
        ck_assert_ptr_nonnull(inner);
        memcpy(inner, s, len + 1);
        len = (size_t)snprintf(s, cap,
                               reader ? "{\"type\":\"record\",\"name\":\"T%d\",\"fields\":["
                                        "{\"name\":\"f\",\"type\":%s},{\"name\":\"g\","
                                        "\"aliases\":[\"f\"],\"type\":\"T%d\"}]}"
                                      : "{\"type\":\"record\",\"name\":\"T%d\",\"fields\":["
                                        "{\"name\":\"f\",\"type\":%s}]}",
                               i, inner, i - 1);
        ck_assert_uint_lt(len, cap);
        free(inner);
    }
    return s;
}

START_TEST(reread_budgeted)
{
    for (int levels = 1; levels <= 40; levels += 39) {
        char *wj = twice_chain(levels, false), *rj = twice_chain(levels, true);
        avrogen_schema *ws = parse(wj), *rs = parse(rj);
        free(wj);
        free(rj);
        avrogen_resolver *res;
        avrogen_diag why;
        ck_assert_int_eq(avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs),
                                              NULL, &res, &why),
                         AVROGEN_OK);
        avrogen_reader r;
        avrogen_value v;
        avrogen_reader_init(&r, "\x0e", 1);
        avrogen_status st = avrogen_resolver_decode(res, &r, &v, &arena);
        if (levels == 1) {
            ck_assert_int_eq(st, AVROGEN_OK);
            ck_assert_int_eq(v.fields[0].fields[0].i32, 7);
            ck_assert_int_eq(v.fields[1].fields[0].i32, 7);
            ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
            /* At a budget of one item, the one read again is all it has. */
            avrogen_reader_init(&r, "\x0e", 1);
            r.max_items = 1;
            ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_OK);
            avrogen_reader_init(&r, "\x0e", 1);
            r.max_items = 0;
            ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), AVROGEN_E_LIMIT);
        } else {
            ck_assert_int_eq(st, AVROGEN_E_LIMIT);
            ck_assert_ptr_nonnull(strstr(r.err_msg, "read again"));
        }
        avrogen_resolver_free(res);
        avrogen_schema_free(ws);
        avrogen_schema_free(rs);
    }
}
END_TEST

static Suite *resolve_suite(void)
{
    Suite *s = suite_create("resolve");
    TCase *tc = tcase_create("promote");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, promotion_table, 0, (int)(sizeof promotions / sizeof promotions[0]));
    tcase_add_test(tc, promotions_inside_containers);
    tcase_add_test(tc, no_demotion);
    tcase_add_test(tc, bytes_to_string_checks_utf8);
    suite_add_tcase(s, tc);

    tc = tcase_create("record");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, fields_by_name_skip_and_defaults);
    tcase_add_test(tc, missing_field_without_default);
    tcase_add_test(tc, record_and_field_aliases);
    tcase_add_test(tc, record_names_must_match);
    tcase_add_test(tc, recursive_types);
    suite_add_tcase(s, tc);

    tc = tcase_create("named");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, enums_by_symbol);
    tcase_add_test(tc, fixed_by_name_and_size);
    tcase_add_test(tc, names_match_unqualified);
    tcase_add_test(tc, decimals_must_agree);
    suite_add_tcase(s, tc);

    tc = tcase_create("union");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, writer_union_to_plain_reader);
    tcase_add_test(tc, writer_union_to_reader_union);
    tcase_add_test(tc, reader_union_takes_first_match);
    suite_add_tcase(s, tc);

    tc = tcase_create("decode");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, stream_of_datums);
    tcase_add_test(tc, truncated_at_every_prefix);
    tcase_add_test(tc, hostile_counts_and_indexes);
    tcase_add_test(tc, build_fail_until_ok);
    tcase_add_test(tc, decode_arena_budget);
    tcase_add_test(tc, build_nesting_limit);
    tcase_add_test(tc, fanout_linear_and_budgeted);
    tcase_add_test(tc, reread_budgeted);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(resolve_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
