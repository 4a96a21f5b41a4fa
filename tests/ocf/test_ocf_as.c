/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen_ocf_reader_next_as: container files written with an older schema of
 * a generated record, read straight into its struct, against the generic path.
 *
 * For each case a file is written with the older (writer) schema, from JSON
 * datums; one reader walks it with next_value (the generic resolver, values
 * shaped like the struct's schema) and re-encodes each value with
 * avrogen_value_encode, another walks it with next_as (avrogen_decode_as: a
 * type plan) and re-encodes each struct with P_avro_encode. The bytes must be
 * equal, datum for datum. Then the generic bytes, written as a file with the
 * struct's own schema, must read back through t's direct decoder to the same
 * bytes. Also: ahead-of-time decoders are used without building a plan,
 * schemas that do not resolve fail once with the reader path, datum errors
 * name offset and index, decoders that stop short of a datum's end or run
 * past it are caught, every truncation, and allocation failures.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <stdalign.h>

#include "avrogen/ocf.h"
#include "avrogen/value.h"

#include "cg_enums.avro.h"
#include "cg_prims.avro.h"
#include "cg_strings.avro.h"
#include "cg_unions.avro.h"
#include "testutil.h"

/* ---- the cases ---------------------------------------------------------------- */

/* struct palette as version 0 wrote it: enum symbols reordered and fewer, a
 * field read through a reader union, two fields the struct dropped. */
static const char palette_v0[] =
        "{\"type\": \"record\", \"name\": \"palette\", \"namespace\": \"cg\", \"fields\": ["
        "{\"name\": \"legacy\", \"type\": \"string\"},"
        "{\"name\": \"code\", \"type\": {\"type\": \"enum\", \"name\": \"cg_code\", "
        "\"symbols\": [\"ZERO\", \"OK\", \"HIGH\"]}},"
        "{\"name\": \"main\", \"type\": {\"type\": \"enum\", \"name\": \"cg_color\", "
        "\"symbols\": [\"BLUE\", \"RED\"]}},"
        "{\"name\": \"big\", \"type\": {\"type\": \"enum\", \"name\": \"cg_big_t\", "
        "\"symbols\": [\"S69\", \"S00\", \"S33\"]}},"
        "{\"name\": \"colors\", \"type\": {\"type\": \"array\", \"items\": \"cg_color\"}},"
        "{\"name\": \"codes\", \"type\": {\"type\": \"array\", \"items\": \"cg_code\"}},"
        "{\"name\": \"by_name\", \"type\": {\"type\": \"map\", \"values\": \"cg_code\"}},"
        "{\"name\": \"accent\", \"type\": \"cg_color\"},"
        "{\"name\": \"gone\", \"type\": [\"null\", {\"type\": \"array\", \"items\": \"long\"}]}]}";

static int palette_json(int i, char *buf, size_t cap)
{
    static const char *const codes[] = {"ZERO", "OK", "HIGH"};
    static const char *const colors[] = {"BLUE", "RED"};
    static const char *const bigs[] = {"S69", "S00", "S33"};
    return snprintf(buf, cap,
                    "{\"legacy\": \"old-%d\", \"code\": \"%s\", \"main\": \"%s\", \"big\": \"%s\", "
                    "\"colors\": [%s], \"codes\": [\"%s\", \"%s\", \"%s\"], "
                    "\"by_name\": {%s}, \"accent\": \"%s\", \"gone\": %s}",
                    i, codes[i % 3], colors[i % 2], bigs[i % 3],
                    i % 3 == 0   ? ""
                    : i % 3 == 1 ? "\"RED\""
                                 : "\"BLUE\", \"RED\", \"BLUE\"",
                    codes[(i + 1) % 3], codes[(i + 2) % 3], codes[i % 3],
                    i % 2 ? "\"k\": \"HIGH\", \"j\": \"ZERO\"" : "", colors[(i + 1) % 2],
                    i % 4 ? "null" : "{\"array\": [1, -2, 3]}");
}

/* struct prims as version 0 wrote it: narrower numbers promoted, a union
 * reordered, a plain long read through a union, a field the struct added (with
 * a default) missing, one it dropped present. */
static const char prims_v0[] =
        "{\"type\": \"record\", \"name\": \"prims\", \"namespace\": \"cg\", \"fields\": ["
        "{\"name\": \"old\", \"type\": \"bytes\"},"
        "{\"name\": \"flag\", \"type\": \"boolean\"}, {\"name\": \"i8\", \"type\": \"int\"},"
        "{\"name\": \"i16\", \"type\": \"int\"}, {\"name\": \"i32\", \"type\": \"int\"},"
        "{\"name\": \"u8\", \"type\": \"int\"}, {\"name\": \"u16\", \"type\": \"int\"},"
        "{\"name\": \"sh\", \"type\": \"int\"}, {\"name\": \"in\", \"type\": \"int\"},"
        "{\"name\": \"sc\", \"type\": \"int\"}, {\"name\": \"uc\", \"type\": \"int\"},"
        "{\"name\": \"ch\", \"type\": \"int\"}, {\"name\": \"u32\", \"type\": \"int\"},"
        "{\"name\": \"i64\", \"type\": \"int\"}, {\"name\": \"ll\", \"type\": \"long\"},"
        "{\"name\": \"u64\", \"type\": \"long\"}, {\"name\": \"f32\", \"type\": \"int\"},"
        "{\"name\": \"f64\", \"type\": \"float\"},"
        "{\"name\": \"maybe_i32\", \"type\": [\"int\", \"null\"]},"
        "{\"name\": \"maybe_u64\", \"type\": \"long\"},"
        "{\"name\": \"maybe_flag\", \"type\": [\"null\", \"boolean\"]}]}";

static int prims_json(int i, char *buf, size_t cap)
{
    return snprintf(buf, cap,
                    "{\"old\": \"\\u00ff%d\", \"flag\": %s, \"i8\": %d, \"i16\": %d, \"i32\": %d, "
                    "\"u8\": %d, \"u16\": %d, \"sh\": %d, \"in\": %d, \"sc\": %d, \"uc\": %d, "
                    "\"ch\": %d, \"u32\": %d, \"i64\": %d, \"ll\": %lld, \"u64\": %lld, "
                    "\"f32\": %d, \"f64\": %d.25, \"maybe_i32\": %s, \"maybe_u64\": %d, "
                    "\"maybe_flag\": %s}",
                    i, i % 2 ? "true" : "false", i % 256 - 128, i * 101 - 30000, i * 7919 - 99999,
                    i % 256, i * 13 % 65536, -i, i * 3, i % 100 - 50, i % 250, i % 127, i * 1000003,
                    -i * 1000003, (long long)i << 40, -((long long)i << 33), i * 16777 - 5, i - 20,
                    i % 3 ? "{\"int\": 5}" : "null", i * 77,
                    i % 3 == 0   ? "null"
                    : i % 3 == 1 ? "{\"boolean\": true}"
                                 : "{\"boolean\": false}");
}

/* struct shape as version 0 wrote it: a union with branches reordered, an int
 * for the long, a record with promoted and extra fields, floats for doubles;
 * no scalar (its default 1.5 fills it). */
static const char shape_v0[] =
        "{\"type\": \"record\", \"name\": \"shape\", \"namespace\": \"cg\", \"fields\": ["
        "{\"name\": \"as\", \"type\": [\"string\", \"null\", \"int\", {\"type\": \"record\", "
        "\"name\": \"amount\", \"fields\": [{\"name\": \"nanos\", \"type\": \"int\"}, "
        "{\"name\": \"memo\", \"type\": \"string\"}, {\"name\": \"units\", \"type\": \"int\"}]}, "
        "{\"type\": \"array\", \"items\": \"float\"}]},"
        "{\"name\": \"z\", \"type\": \"long\"}]}";

static int shape_json(int i, char *buf, size_t cap)
{
    char as[96];
    switch (i % 5) {
    case 0:
        snprintf(as, sizeof as, "{\"string\": \"text %d\"}", i);
        break;
    case 1:
        snprintf(as, sizeof as, "null");
        break;
    case 2:
        snprintf(as, sizeof as, "{\"int\": %d}", -i * 1000);
        break;
    case 3:
        snprintf(as, sizeof as, "{\"cg.amount\": {\"nanos\": %d, \"memo\": \"m\", \"units\": %d}}",
                 i, -i);
        break;
    default:
        snprintf(as, sizeof as, "{\"array\": [%d.5, -0.25]}", i);
        break;
    }
    return snprintf(buf, cap, "{\"as\": %s, \"z\": %d}", as, i);
}

/* struct maybe_texts as version 0 wrote it: a plain string read through a
 * union, strings read as bytes, and no second / second_view (defaults "x" and
 * "y", which the struct holds as a char * and a view into the plan). */
static const char maybe_texts_v0[] =
        "{\"type\": \"record\", \"name\": \"maybe_texts\", \"namespace\": \"cg\", \"fields\": ["
        "{\"name\": \"s\", \"type\": \"string\"},"
        "{\"name\": \"view\", \"type\": [\"null\", \"string\"]},"
        "{\"name\": \"blob\", \"type\": [\"null\", \"string\"]},"
        "{\"name\": \"raw\", \"type\": \"bytes\"},"
        "{\"name\": \"digest\", \"type\": [\"null\", {\"type\": \"fixed\", "
        "\"name\": \"maybe_texts_digest\", \"size\": 4}]}]}";

static int maybe_texts_json(int i, char *buf, size_t cap)
{
    return snprintf(buf, cap,
                    "{\"s\": \"s%d\", \"view\": %s, \"blob\": %s, \"raw\": \"r\\u0000%d\", "
                    "\"digest\": %s}",
                    i, i % 2 ? "null" : "{\"string\": \"v\\u00e9\"}",
                    i % 3 ? "{\"string\": \"b\"}" : "null", i,
                    i % 2 ? "{\"cg.maybe_texts_digest\": \"abcd\"}" : "null");
}

#define ADAPT(P, T)                                                 \
    static avrogen_status P##_enc(avrogen_writer *w, const void *v) \
    {                                                               \
        return P##_avro_encode(w, (const T *)v);                    \
    }
ADAPT(palette, struct palette)
ADAPT(prims, struct prims)
ADAPT(shape, struct shape)
ADAPT(maybe_texts, struct maybe_texts)

typedef struct as_case {
    const avrogen_type *type;
    const char *writer; /* the older schema the file is written with */
    int (*json)(int i, char *buf, size_t cap);
    avrogen_status (*encode)(avrogen_writer *w, const void *v);
} as_case;

static const as_case cases[] = {
        {&palette_avro_type, palette_v0, palette_json, palette_enc},
        {&prims_avro_type, prims_v0, prims_json, prims_enc},
        {&shape_avro_type, shape_v0, shape_json, shape_enc},
        {&maybe_texts_avro_type, maybe_texts_v0, maybe_texts_json, maybe_texts_enc},
};
#define N_CASES  ((int)(sizeof cases / sizeof cases[0]))
#define N_DATUMS 200

/* Room for any of the structs above. */
typedef struct any_struct {
    alignas(max_align_t) unsigned char bytes[1024];
} any_struct;

/* ---- helpers ------------------------------------------------------------------ */

/* Loop-body checks that assert only on failure (Check's asserts are costly). */
#define CHECK_FAST(cond)                                          \
    do {                                                          \
        if (!(cond))                                              \
            ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond); \
    } while (0)

typedef struct membuf {
    char *data;
    size_t len;
} membuf;

static avrogen_schema *parse(const char *text)
{
    avrogen_schema *s;
    avrogen_diag d;
    ck_assert_msg(avrogen_schema_parse(text, strlen(text), NULL, &s, &d) == AVROGEN_OK, "%s: %s",
                  d.path, d.msg);
    return s;
}

/* A file with `schema` holding datums json(0..n-1), in blocks of about block_size bytes. */
static void write_json_file(const char *schema, int (*json)(int, char *, size_t), int n,
                            const char *codec, size_t block_size, membuf *out)
{
    FILE *f = open_memstream(&out->data, &out->len);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = block_size;
    avrogen_ocf_writer *w;
    avrogen_diag d;
    ck_assert_msg(avrogen_ocf_writer_open_file(f, schema, strlen(schema), &o, &w, &d) == AVROGEN_OK,
                  "%s", d.msg);
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_writer_schema(w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    for (int i = 0; i < n; i++) {
        char text[1024];
        avrogen_value v;
        int len = json(i, text, sizeof text);
        ck_assert_int_lt(len, (int)sizeof text);
        avrogen_arena_reset(&a);
        ck_assert_msg(avrogen_value_from_json(text, (size_t)len, type, &v, &a, &d) == AVROGEN_OK,
                      "datum %d: %s: %s", i, d.path, d.msg);
        ck_assert_int_eq(avrogen_value_encode(avrogen_ocf_writer_datum_begin(w), &v), AVROGEN_OK);
        ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
    }
    avrogen_arena_fini(&a);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(fclose(f), 0);
}

static avrogen_ocf_reader *open_mem(const membuf *m, const avrogen_alloc *alloc)
{
    avrogen_ocf_reader_options o = {0};
    o.alloc = alloc;
    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_msg(avrogen_ocf_reader_open_memory(m->data, m->len, &o, &r, &d) == AVROGEN_OK, "%s",
                  d.msg);
    return r;
}

/* ---- next_as against next_value ----------------------------------------------- */

START_TEST(as_equals_generic)
{
    const as_case *c = &cases[_i % N_CASES];
    const char *codec = _i < N_CASES ? "null" : "deflate";
    membuf m = {0}, own = {0};
    write_json_file(c->writer, c->json, N_DATUMS, codec, 512, &m);
    avrogen_schema *rd = parse(avrogen_type_schema(c->type));
    avrogen_ocf_reader *generic = open_mem(&m, NULL), *typed = open_mem(&m, NULL);
    ck_assert_uint_ne(avrogen_ocf_reader_fingerprint(typed), c->type->fingerprint);
    ck_assert_uint_le(c->type->size, sizeof(any_struct));

    /* The generic bytes of every datum, kept to write the file with t's own schema. */
    avrogen_writer all;
    avrogen_writer_init_growable(&all, NULL);
    size_t lens[N_DATUMS];
    avrogen_arena ga, sa;
    avrogen_arena_init(&ga, NULL);
    avrogen_arena_init(&sa, NULL);
    int n = 0;
    for (;; n++) {
        avrogen_value v;
        any_struct s;
        bool got_v, got_s;
        avrogen_arena_reset(&ga);
        avrogen_arena_reset(&sa);
        avrogen_status st =
                avrogen_ocf_reader_next_value(generic, avrogen_schema_root(rd), &v, &ga, &got_v);
        avrogen_diag d;
        ck_assert_msg(st == AVROGEN_OK, "datum %d: %s", (avrogen_ocf_reader_error(generic, &d), n),
                      d.msg);
        st = avrogen_ocf_reader_next_as(typed, c->type, &s, &sa, &got_s);
        ck_assert_msg(st == AVROGEN_OK, "datum %d: %s", (avrogen_ocf_reader_error(typed, &d), n),
                      d.msg);
        CHECK_FAST(got_v == got_s);
        if (!got_v)
            break;
        CHECK_FAST(n < N_DATUMS);
        size_t before = avrogen_writer_len(&all);
        CHECK_FAST(avrogen_value_encode(&all, &v) == AVROGEN_OK);
        lens[n] = avrogen_writer_len(&all) - before;
        uint8_t buf[1024];
        avrogen_writer w;
        avrogen_writer_init_fixed(&w, buf, sizeof buf);
        CHECK_FAST(c->encode(&w, &s) == AVROGEN_OK);
        if (avrogen_writer_len(&w) != lens[n] ||
            memcmp(buf, avrogen_writer_data(&all) + before, lens[n]) != 0)
            ck_abort_msg("%s datum %d: next_as and next_value disagree", c->type->name, n);
    }
    ck_assert_int_eq(n, N_DATUMS);
    avrogen_ocf_reader_close(generic);
    avrogen_ocf_reader_close(typed);

    /* The same datums in a file of t's own schema: t's direct decoder. */
    FILE *f = open_memstream(&own.data, &own.len);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = 700;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, avrogen_type_schema(c->type),
                                                  strlen(avrogen_type_schema(c->type)), &o, &w,
                                                  NULL),
                     AVROGEN_OK);
    const uint8_t *p = avrogen_writer_data(&all);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(avrogen_ocf_writer_write(w, p, lens[i]), AVROGEN_OK);
        p += lens[i];
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    ck_assert_int_eq(fclose(f), 0);
    avrogen_ocf_reader *direct = open_mem(&own, NULL);
    ck_assert_uint_eq(avrogen_ocf_reader_fingerprint(direct), c->type->fingerprint);
    p = avrogen_writer_data(&all);
    for (int i = 0;; i++) {
        any_struct s;
        bool got;
        avrogen_arena_reset(&sa);
        CHECK_FAST(avrogen_ocf_reader_next_as(direct, c->type, &s, &sa, &got) == AVROGEN_OK);
        if (!got) {
            ck_assert_int_eq(i, n);
            break;
        }
        uint8_t buf[1024];
        avrogen_writer bw;
        avrogen_writer_init_fixed(&bw, buf, sizeof buf);
        CHECK_FAST(c->encode(&bw, &s) == AVROGEN_OK);
        CHECK_FAST(avrogen_writer_len(&bw) == lens[i] && memcmp(buf, p, lens[i]) == 0);
        p += lens[i];
    }
    avrogen_ocf_reader_close(direct);

    avrogen_arena_fini(&ga);
    avrogen_arena_fini(&sa);
    avrogen_writer_fini(&all);
    avrogen_schema_free(rd);
    free(m.data);
    free(own.data);
}
END_TEST

/* ---- ahead-of-time decoders ------------------------------------------------- */

/* A version of palette that shares nothing with it: only an ahead-of-time decoder can read it. */
static const char palette_aot[] =
        "{\"type\": \"record\", \"name\": \"legacy.Colour\", \"fields\": ["
        "{\"name\": \"c\", \"type\": \"int\"}]}";

static int aot_json(int i, char *buf, size_t cap)
{
    return snprintf(buf, cap, "{\"c\": %d}", i % 3);
}

static int aot_calls;

static avrogen_status aot_decode(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    (void)a;
    struct palette *p = dst;
    memset(p, 0, sizeof *p);
    aot_calls++;
    p->main = (enum cg_color)avrogen_read_int(r);
    return r->err;
}

START_TEST(as_ahead_of_time)
{
    membuf m = {0};
    write_json_file(palette_aot, aot_json, 10, "null", 0, &m);
    avrogen_ocf_reader *r = open_mem(&m, NULL);
    avrogen_type_decoder table[3] = {
            {0, NULL},
            {avrogen_ocf_reader_fingerprint(r), aot_decode},
            {UINT64_MAX, NULL},
    };
    if (table[1].fingerprint == 0 || table[1].fingerprint == UINT64_MAX)
        ck_abort_msg("improbable fingerprint");
    avrogen_type t = palette_avro_type;
    t.resolved = table;
    t.n_resolved = 3;
    aot_calls = 0;
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    int n = 0;
    for (;; n++) {
        struct palette p;
        bool got;
        ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &t, &p, &a, &got), AVROGEN_OK);
        if (!got)
            break;
        ck_assert_int_eq(p.main, (enum cg_color)(n % 3));
    }
    ck_assert_int_eq(n, 10);
    ck_assert_int_eq(aot_calls, 10);
    avrogen_ocf_reader_close(r);

    /* Without the table the schemas do not resolve: one E_MISMATCH, before any datum. */
    r = open_mem(&m, NULL);
    struct palette p;
    bool got = true;
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got),
                     AVROGEN_E_MISMATCH);
    ck_assert(!got);
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_MISMATCH);
    ck_assert_msg(strstr(d.msg, "cannot be read as cg.palette") != NULL, "%s", d.msg);
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got),
                     AVROGEN_E_MISMATCH);
    avrogen_bytes datum;
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &datum), AVROGEN_E_MISMATCH);
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);
    free(m.data);
}
END_TEST

/* ---- errors --------------------------------------------------------------------- */

/* A field whose type changed: the reader path names it. */
START_TEST(as_schema_mismatch)
{
    static const char writer[] =
            "{\"type\": \"record\", \"name\": \"shape\", \"namespace\": \"cg\", \"fields\": ["
            "{\"name\": \"as\", \"type\": \"boolean\"}]}";
    static const char datum[] = {0x01};
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, writer, strlen(writer), NULL, &w, NULL),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_write(w, datum, 1), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    avrogen_ocf_reader *r = open_mem(&m, NULL);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    struct shape s;
    bool got;
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &shape_avro_type, &s, &a, &got),
                     AVROGEN_E_MISMATCH);
    avrogen_diag d;
    avrogen_ocf_reader_error(r, &d);
    ck_assert_msg(strncmp(d.path, "/fields/0", 9) == 0, "path %s", d.path);
    ck_assert_msg(strstr(d.msg, "/fields/0") != NULL, "%s", d.msg);
    avrogen_ocf_reader_close(r);

    /* Not a generated record: E_ARG, and the reader reads on. */
    r = open_mem(&m, NULL);
    avrogen_type not_record = palette_avro_type;
    not_record.decode = NULL;
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &not_record, &s, &a, &got), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, NULL, &s, &a, &got), AVROGEN_E_ARG);
    avrogen_value v;
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got), AVROGEN_OK);
    ck_assert(got && v.fields[0].boolean);
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);
    free(m.data);
}
END_TEST

/* palette_v0 with a colour the struct's enum lacks (and no enum default). */
static const char palette_purple[] =
        "{\"type\": \"record\", \"name\": \"palette\", \"namespace\": \"cg\", \"fields\": ["
        "{\"name\": \"main\", \"type\": {\"type\": \"enum\", \"name\": \"cg_color\", "
        "\"symbols\": [\"RED\", \"PURPLE\"]}},"
        "{\"name\": \"code\", \"type\": {\"type\": \"enum\", \"name\": \"cg_code\", "
        "\"symbols\": [\"OK\"]}},"
        "{\"name\": \"big\", \"type\": {\"type\": \"enum\", \"name\": \"cg_big_t\", "
        "\"symbols\": [\"S00\"]}},"
        "{\"name\": \"colors\", \"type\": {\"type\": \"array\", \"items\": \"cg_color\"}},"
        "{\"name\": \"codes\", \"type\": {\"type\": \"array\", \"items\": \"cg_code\"}},"
        "{\"name\": \"by_name\", \"type\": {\"type\": \"map\", \"values\": \"cg_code\"}},"
        "{\"name\": \"accent\", \"type\": [\"null\", \"cg_color\"]}]}";

static int purple_json(int i, char *buf, size_t cap)
{
    return snprintf(buf, cap,
                    "{\"main\": \"%s\", \"code\": \"OK\", \"big\": \"S00\", \"colors\": [], "
                    "\"codes\": [\"OK\", \"OK\", \"OK\"], \"by_name\": {}, \"accent\": null}",
                    i == 5 ? "PURPLE" : "RED");
}

/* A datum using a symbol the struct cannot hold: the datums before, then a sticky error. */
START_TEST(as_datum_mismatch)
{
    membuf m = {0};
    write_json_file(palette_purple, purple_json, 8, "null", 0, &m);
    avrogen_ocf_reader *r = open_mem(&m, NULL);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    struct palette p;
    bool got;
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got),
                         AVROGEN_OK);
        ck_assert(got && p.main == CG_COLOR_RED);
    }
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got),
                     AVROGEN_E_MISMATCH);
    ck_assert(!got);
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_MISMATCH);
    char want[64];
    snprintf(want, sizeof want, "block at offset %llu, object 5 (byte ",
             (unsigned long long)avrogen_ocf_reader_block_offset(r));
    ck_assert_msg(strstr(d.msg, want) != NULL, "%s", d.msg);
    ck_assert_uint_eq(d.offset, avrogen_ocf_reader_block_offset(r));
    ck_assert_int_eq(avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got),
                     AVROGEN_E_MISMATCH);
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);
    free(m.data);
}
END_TEST

/*
 * Decoders that disagree with the file about where a datum ends: one reads a
 * long of a two-long record, one reads three. The datum's own bytes bound them.
 */
static const char two_longs[] =
        "{\"type\": \"record\", \"name\": \"T\", \"fields\": [{\"name\": \"a\", \"type\": "
        "\"long\"}, {\"name\": \"b\", \"type\": \"long\"}]}";

static avrogen_status read_longs(avrogen_reader *r, void *dst, size_t n)
{
    int64_t *v = dst;
    for (size_t i = 0; i < n; i++)
        v[i] = avrogen_read_long(r);
    return r->err;
}

static avrogen_status short_decode(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    (void)a;
    return read_longs(r, dst, 1);
}

static avrogen_status long_decode(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    (void)a;
    return read_longs(r, dst, 3);
}

static int two_longs_json(int i, char *buf, size_t cap)
{
    return snprintf(buf, cap, "{\"a\": %d, \"b\": %d}", i, 1000 * i);
}

START_TEST(as_decoder_bounds)
{
    membuf m = {0};
    write_json_file(two_longs, two_longs_json, 4, "null", 0, &m);
    avrogen_type t = {0};
    t.kind = AVROGEN_KIND_RECORD;
    t.name = "T";
    const avrogen_text_piece piece = {two_longs, strlen(two_longs), NULL};
    const avrogen_text text = {&piece, 1, strlen(two_longs)};
    avrogen_text_cache cache = {NULL, NULL};
    t.schema_text = &text;
    t.cache = &cache;
    t.size = 3 * sizeof(int64_t);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    for (int variant = 0; variant < 2; variant++) {
        avrogen_ocf_reader *r = open_mem(&m, NULL);
        t.fingerprint = avrogen_ocf_reader_fingerprint(r);
        t.decode = variant == 0 ? short_decode : long_decode;
        int64_t v[3];
        bool got;
        avrogen_status st = avrogen_ocf_reader_next_as(r, &t, v, &a, &got);
        avrogen_diag d;
        avrogen_ocf_reader_error(r, &d);
        ck_assert(!got);
        char want[64];
        snprintf(want, sizeof want, "block at offset %llu, object 0 (byte ",
                 (unsigned long long)avrogen_ocf_reader_block_offset(r));
        ck_assert_msg(strstr(d.msg, want) != NULL, "%s", d.msg);
        if (variant == 0) {
            ck_assert_int_eq(st, AVROGEN_E_INVALID);
            ck_assert_msg(strstr(d.msg, "decoding used 1 of the object's 2 bytes") != NULL, "%s",
                          d.msg);
        } else {
            ck_assert_int_eq(st, AVROGEN_E_TRUNCATED);
            ck_assert_msg(strstr(d.msg, "ran past the object's end (2 bytes)") != NULL, "%s",
                          d.msg);
        }
        avrogen_ocf_reader_close(r);
    }
    avrogen_arena_fini(&a);
    free(m.data);
}
END_TEST

/* Every truncation of a multi-block file read with next_as: whole blocks, then E_TRUNCATED. */
START_TEST(as_truncated_everywhere)
{
    membuf m = {0};
    write_json_file(palette_v0, palette_json, 24, "deflate", 200, &m);
    /* Where each block ends, and the datums before it. */
    size_t ends[64], n_blocks = 0, header_len;
    int before[64];
    avrogen_ocf_reader *r = open_mem(&m, NULL);
    uint64_t count;
    avrogen_reader b;
    int total = 0;
    header_len = 0;
    while (avrogen_ocf_reader_next_block(r, &count, &b) == AVROGEN_OK && count != 0) {
        ck_assert_uint_lt(n_blocks, 64);
        if (n_blocks == 0)
            header_len = (size_t)avrogen_ocf_reader_block_offset(r);
        else
            ends[n_blocks - 1] = (size_t)avrogen_ocf_reader_block_offset(r);
        before[n_blocks++] = total;
        total += (int)count;
    }
    ends[n_blocks - 1] = m.len;
    avrogen_ocf_reader_close(r);
    ck_assert_uint_ge(n_blocks, 3);

    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    for (size_t len = header_len; len <= m.len; len++) {
        char *copy = malloc(len + 1);
        memcpy(copy, m.data, len);
        membuf cut = {copy, len};
        r = open_mem(&cut, NULL);
        int records = 0;
        avrogen_status st;
        struct palette p;
        bool got;
        while ((st = avrogen_ocf_reader_next_as(r, &palette_avro_type, &p, &a, &got)) ==
                       AVROGEN_OK &&
               got)
            records++;
        avrogen_ocf_reader_close(r);
        free(copy);
        size_t k = 0;
        while (k < n_blocks && ends[k] <= len)
            k++;
        int whole = k < n_blocks ? before[k] : total;
        CHECK_FAST(records == whole);
        bool boundary = len == header_len || (k > 0 && len == ends[k - 1]);
        CHECK_FAST(st == (boundary ? AVROGEN_OK : AVROGEN_E_TRUNCATED));
    }
    avrogen_arena_fini(&a);
    free(m.data);
}
END_TEST

/* Allocation failures in the reader, the plan cache, the plan and the arena: never a leak. */
START_TEST(as_alloc_failures)
{
    membuf m = {0};
    write_json_file(maybe_texts_v0, maybe_texts_json, 30, "null", 300, &m);
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        avrogen_ocf_reader_options o = {0};
        o.alloc = &ta.base;
        avrogen_ocf_reader *r;
        avrogen_status st = avrogen_ocf_reader_open_memory(m.data, m.len, &o, &r, NULL);
        int records = 0;
        if (st == AVROGEN_OK) {
            avrogen_arena a;
            avrogen_arena_init(&a, &ta.base);
            struct maybe_texts t;
            bool got;
            while ((st = avrogen_ocf_reader_next_as(r, &maybe_texts_avro_type, &t, &a, &got)) ==
                           AVROGEN_OK &&
                   got) {
                CHECK_FAST(t.second != NULL && strcmp(t.second, "x") == 0);
                CHECK_FAST(t.second_view.len == 1 && t.second_view.ptr[0] == 'y');
                records++;
                avrogen_arena_reset(&a);
            }
            avrogen_arena_fini(&a);
            avrogen_ocf_reader_close(r);
        }
        ck_assert_msg(st == AVROGEN_OK || st == AVROGEN_E_NOMEM, "n=%ld: %d", n, st);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK) {
            ck_assert_int_eq(records, 30);
            break;
        }
        ck_assert_int_lt(n, 10000);
    }
    free(m.data);
}
END_TEST

static Suite *ocf_as_suite(void)
{
    Suite *s = suite_create("ocf_next_as");
    TCase *tc = tcase_create("resolve");
    tcase_add_loop_test(tc, as_equals_generic, 0, 2 * N_CASES);
    tcase_add_test(tc, as_ahead_of_time);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, as_schema_mismatch);
    tcase_add_test(tc, as_datum_mismatch);
    tcase_add_test(tc, as_decoder_bounds);
    tcase_add_test(tc, as_truncated_everywhere);
    tcase_add_test(tc, as_alloc_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ocf_as_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
