/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ahead-of-time resolved decoders `avrogen generate --compat-with` emits
 * for headers/cg_aot.h and the earlier schemas in earlier/, against their
 * peer, the generic resolver (resolve.h, itself checked against python3-avro):
 *
 *  - tables: each record lists one decoder per earlier schema that differs
 *    from its own, sorted by the writer's fingerprint, and none for an earlier
 *    schema that equals it or names another record;
 *  - random datums of every earlier schema (generic values encoded with the
 *    writer's schema): the decoder found in P_avro_type.resolved returns what
 *    avrogen_resolver_decode returns, and on success P_avro_encode of the
 *    struct equals avrogen_value_encode of the resolved value, byte for byte;
 *    on failure the struct is all zeros. Every truncation fails cleanly;
 *  - known answers: a datum written as Avro JSON by hand lands in the struct
 *    member by member (promotions, symbol maps, defaults of every kind);
 *  - hostile input: random corruption never crashes and never leaves a
 *    half-decoded struct.
 *
 * `test_aot peer WRITER.avsc IN OUT` is a helper for aot_python.py: it
 * decodes each datum of IN (4-byte little-endian length, then the bytes) with
 * the decoder for WRITER and writes, per datum, a 4-byte status, a 4-byte
 * length and P_avro_encode's bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_aot.avro.h"
#include "cg_util.h"

CG_ADAPTERS(aot_event, struct aot_event)
CG_ADAPTERS(aot_point, struct aot_point)
CG_ADAPTERS(aot_node, struct aot_node)
CG_ADAPTERS(aot_shapes, struct aot_shapes)
CG_ADAPTERS(aot_twice, struct aot_twice)
CG_ADAPTERS(aot_holders, struct aot_holders)
CG_ADAPTERS(aot_lisp, struct aot_lisp)

static const cg_case cases[] = {CG_CASE(aot_event),  CG_CASE(aot_point), CG_CASE(aot_node),
                                CG_CASE(aot_shapes), CG_CASE(aot_twice), CG_CASE(aot_holders),
                                CG_CASE(aot_lisp)};
#define N_CASES (sizeof cases / sizeof *cases)

/* Each earlier schema, the record it is an earlier version of (or NULL), and
 * whether that record has an ahead-of-time decoder for it. */
static const struct earlier {
    const char *file;
    const cg_case *reader;
    bool decoder;
} earlier[] = {
        {"aot_event_v1.avsc", &cases[0], true},  {"aot_event_v2.avsc", &cases[0], true},
        {"aot_point_v0.avsc", &cases[1], true},  {"aot_point_v1.avsc", &cases[1], false},
        {"aot_point_v2.avsc", &cases[1], true},  {"aot_point_v3.avsc", &cases[1], true},
        {"aot_node_v0.avsc", &cases[2], true},   {"unrelated.avsc", NULL, false},
        {"aot_shapes_v0.avsc", &cases[3], true}, {"aot_shapes_v1.avsc", &cases[3], true},
        {"aot_twice_v0.avsc", &cases[4], true},  {"aot_holders_v0.avsc", &cases[5], true},
        {"aot_lisp_v0.avsc", &cases[6], true},
};
#define N_EARLIER (sizeof earlier / sizeof *earlier)

/* Random datums per earlier schema; every 8th also gets every truncation. */
#define DATUMS 400

static avrogen_arena arena;   /* generic values */
static avrogen_arena decoded; /* what the decoders allocate */
static uint8_t *input;        /* the last decoder input: decoded views point into it */

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_init(&decoded, NULL);
}

static void teardown(void)
{
    free(input);
    input = NULL;
    avrogen_arena_fini(&decoded);
    avrogen_arena_fini(&arena);
}

static avrogen_schema *parse_file(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", AOT_EARLIER_DIR, name);
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse_file(path, NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "%s: %s: %s", path, d.path, d.msg);
    return s;
}

static avrogen_schema *parse_text(const char *json)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse(json, strlen(json), NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "schema: %s: %s", d.path, d.msg);
    return s;
}

/* The decoder of t for writer fingerprint fp, or NULL. */
static const avrogen_type_decoder *find_decoder(const avrogen_type *t, uint64_t fp)
{
    for (size_t i = 0; i < t->n_resolved; i++)
        if (t->resolved[i].fingerprint == fp)
            return &t->resolved[i];
    return NULL;
}

/* A malloc'd copy of exactly `len` bytes, so ASan sees any read past the end. */
static uint8_t *exact_copy(const uint8_t *p, size_t len)
{
    uint8_t *q = malloc(len != 0 ? len : 1);
    ck_assert_ptr_nonnull(q);
    if (len != 0)
        memcpy(q, p, len);
    return q;
}

/* Decode `len` bytes at p (copied to an exact-size buffer) into v. */
static avrogen_status aot_decode(const avrogen_type_decoder *dec, const uint8_t *p, size_t len,
                                 void *v, size_t *consumed)
{
    free(input);
    input = exact_copy(p, len);
    avrogen_reader r;
    avrogen_reader_init(&r, input, len);
    avrogen_status st = dec->decode(&r, v, &decoded);
    if (consumed != NULL)
        *consumed = avrogen_reader_offset(&r);
    return st;
}

/* ---- tables -------------------------------------------------------------------- */

START_TEST(test_tables)
{
    ck_assert_uint_eq(aot_event_avro_type.n_resolved, 2);
    ck_assert_uint_eq(aot_point_avro_type.n_resolved, 3);
    ck_assert_uint_eq(aot_node_avro_type.n_resolved, 1);
    ck_assert_uint_eq(aot_shapes_avro_type.n_resolved, 2);
    ck_assert_uint_eq(aot_twice_avro_type.n_resolved, 1);
    ck_assert_uint_eq(aot_holders_avro_type.n_resolved, 1);
    ck_assert_uint_eq(aot_lisp_avro_type.n_resolved, 1);
    for (size_t c = 0; c < N_CASES; c++) {
        const avrogen_type *t = cases[c].type;
        ck_assert(t->decode != NULL);
        for (size_t i = 0; i < t->n_resolved; i++) {
            ck_assert(t->resolved[i].decode != NULL);
            ck_assert_uint_ne(t->resolved[i].fingerprint, t->fingerprint);
            if (i != 0)
                ck_assert_uint_lt(t->resolved[i - 1].fingerprint, t->resolved[i].fingerprint);
        }
    }
    for (size_t k = 0; k < N_EARLIER; k++) {
        avrogen_schema *w = parse_file(earlier[k].file);
        uint64_t fp = avrogen_schema_fingerprint64(w);
        for (size_t c = 0; c < N_CASES; c++) {
            bool listed = find_decoder(cases[c].type, fp) != NULL;
            bool want = earlier[k].decoder && earlier[k].reader == &cases[c];
            ck_assert_msg(listed == want, "%s in %s's table: %d", earlier[k].file, cases[c].name,
                          listed);
        }
        /* aot_point_v1.avsc is the current schema with another doc. */
        if (strcmp(earlier[k].file, "aot_point_v1.avsc") == 0)
            ck_assert_uint_eq(fp, AOT_POINT_AVRO_FINGERPRINT);
        avrogen_schema_free(w);
    }
}
END_TEST

/* ---- random datums of a writer schema -------------------------------------------- */

static int64_t random_long(cg_rng *g, bool is_int)
{
    static const int64_t edges[] = {0,
                                    1,
                                    -1,
                                    63,
                                    -64,
                                    64,
                                    INT32_MAX,
                                    INT32_MIN,
                                    INT64_MAX,
                                    INT64_MIN,
                                    16777217,
                                    -16777217,
                                    (INT64_C(1) << 53) + 1};
    int64_t x;
    if (cg_below(g, 3) == 0)
        x = edges[cg_below(g, sizeof edges / sizeof *edges)];
    else
        x = (int64_t)(cg_next(g) >> cg_below(g, 64));
    if (cg_below(g, 2) == 0 && x != INT64_MIN)
        x = -x;
    if (is_int && (x < INT32_MIN || x > INT32_MAX))
        x = (int32_t)(uint32_t)x;
    return x;
}

static double random_double(cg_rng *g, bool is_float)
{
    static const double edges[] = {
            0.0, -0.0, 1.5, -2.25, 1e30, 1e-30, 3.4028234663852886e38, INFINITY, -INFINITY, NAN};
    if (cg_below(g, 4) == 0)
        return edges[cg_below(g, sizeof edges / sizeof *edges)];
    double x = (double)(int64_t)cg_next(g) / (double)(cg_below(g, 1000) + 1);
    return is_float ? (double)(float)x : x;
}

/* Text of up to 15 bytes (what the reader's char[16] holds), UTF-8, no NUL. */
static size_t random_text(cg_rng *g, char *buf)
{
    static const char *const pieces[] = {
            "a", "Z", "7", " ", "-", "\"", "\\", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    size_t len = 0, n = cg_below(g, 6);
    for (size_t i = 0; i < n; i++) {
        const char *p = pieces[cg_below(g, sizeof pieces / sizeof *pieces)];
        if (len + strlen(p) > 15)
            break;
        memcpy(buf + len, p, strlen(p));
        len += strlen(p);
    }
    return len;
}

/* A random value of writer type t. Arrays in a field named `grid` have the 3
 * items of the reader's double[3], numbers in fields named bits_* are in
 * 0..15, numbers in fields named u_* are not
 * negative (they are unsigned in C); other C limits are met by every value. */
static void random_value(cg_rng *g, avrogen_value *v, const avrogen_node *t, unsigned depth,
                         bool grid)
{
    char buf[32];
    ck_assert_int_eq(avrogen_value_init(v, t, &arena), AVROGEN_OK);
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        break;
    case AVROGEN_KIND_BOOLEAN:
        ck_assert_int_eq(avrogen_value_set_bool(v, cg_below(g, 2) != 0), AVROGEN_OK);
        break;
    case AVROGEN_KIND_INT:
    case AVROGEN_KIND_LONG:
        ck_assert_int_eq(avrogen_value_set_long(v, random_long(g, t->kind == AVROGEN_KIND_INT)),
                         AVROGEN_OK);
        break;
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
        ck_assert_int_eq(
                avrogen_value_set_double(v, random_double(g, t->kind == AVROGEN_KIND_FLOAT)),
                AVROGEN_OK);
        break;
    case AVROGEN_KIND_STRING: {
        size_t len = random_text(g, buf);
        ck_assert_int_eq(avrogen_value_set_string(v, buf, len, &arena), AVROGEN_OK);
        break;
    }
    case AVROGEN_KIND_BYTES: {
        size_t len = random_text(g, buf);
        if (cg_below(g, 8) == 0) {
            /* not UTF-8: read as a string, it fails for both decoders */
            len = 1 + cg_below(g, 4);
            for (size_t i = 0; i < len; i++)
                buf[i] = (char)cg_next(g);
            buf[0] = (char)0xff;
        }
        ck_assert_int_eq(avrogen_value_set_bytes(v, buf, len, &arena), AVROGEN_OK);
        break;
    }
    case AVROGEN_KIND_FIXED:
        for (size_t i = 0; i < t->size && i < sizeof buf; i++)
            buf[i] = (char)cg_next(g);
        ck_assert_int_eq(avrogen_value_set_bytes(v, buf, t->size, &arena), AVROGEN_OK);
        break;
    case AVROGEN_KIND_ENUM:
        ck_assert_int_eq(avrogen_value_set_enum(v, t->symbols[cg_below(g, t->n_symbols)]),
                         AVROGEN_OK);
        break;
    case AVROGEN_KIND_ARRAY: {
        size_t n = grid ? 3 : depth > 3 ? 0 : cg_below(g, 4);
        for (size_t i = 0; i < n; i++) {
            avrogen_value *item;
            ck_assert_int_eq(avrogen_value_append(v, &arena, &item), AVROGEN_OK);
            random_value(g, item, t->items, depth + 1, false);
        }
        break;
    }
    case AVROGEN_KIND_MAP: {
        size_t n = depth > 3 ? 0 : cg_below(g, 4);
        for (size_t i = 0; i < n; i++) {
            size_t len = random_text(g, buf);
            avrogen_value *value;
            ck_assert_int_eq(avrogen_value_map_put(v, buf, len, &arena, &value), AVROGEN_OK);
            random_value(g, value, t->items, depth + 1, false);
        }
        break;
    }
    case AVROGEN_KIND_UNION: {
        size_t b = cg_below(g, t->n_branches);
        /* Deep down, end recursion with the null branch where there is one. */
        for (size_t i = 0; i < t->n_branches && depth > 3; i++)
            if (t->branches[i]->kind == AVROGEN_KIND_NULL)
                b = i;
        avrogen_value *branch;
        ck_assert_int_eq(avrogen_value_set_branch(v, b, &arena, &branch), AVROGEN_OK);
        random_value(g, branch, t->branches[b], depth + 1, false);
        break;
    }
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields; i++) {
            avrogen_value *f = &v->fields[i];
            random_value(g, f, t->fields[i].type, depth + 1,
                         strcmp(t->fields[i].name, "grid") == 0);
            avrogen_kind k = t->fields[i].type->kind;
            int64_t x = k == AVROGEN_KIND_INT ? f->i32 : k == AVROGEN_KIND_LONG ? f->i64 : 0;
            if (strncmp(t->fields[i].name, "u_", 2) == 0 && x < 0)
                ck_assert_int_eq(avrogen_value_set_long(f, ~x), AVROGEN_OK);
            if (strncmp(t->fields[i].name, "bits_", 5) == 0) /* a 4-bit bit-field */
                ck_assert_int_eq(avrogen_value_set_long(f, x & 15), AVROGEN_OK);
        }
        break;
    }
}

/* ---- against the generic resolver --------------------------------------------------- */

static uint64_t compared, failed_alike;

/* Decode `bytes` with the decoder and with the resolver: the same status, and
 * on success the same re-encoding; all truncations fail when `truncate`. */
static void compare_one(const cg_case *c, const avrogen_type_decoder *dec,
                        const avrogen_resolver *res, const uint8_t *bytes, size_t len,
                        bool truncate, const char *what)
{
    const avrogen_type *t = c->type;
    void *v = malloc(t->size);
    ck_assert_ptr_nonnull(v);
    memset(v, 0xa5, t->size); /* garbage: the decoder must write every byte it leaves */
    avrogen_arena_reset(&decoded);
    size_t used = 0;
    avrogen_status st = aot_decode(dec, bytes, len, v, &used);

    avrogen_reader r;
    avrogen_reader_init(&r, bytes, len);
    avrogen_value gv;
    avrogen_status gst = avrogen_resolver_decode(res, &r, &gv, &arena);
    ck_assert_msg(st == gst, "%s: decoder %s, resolver %s (%s)", what, avrogen_status_str(st),
                  avrogen_status_str(gst), r.err_msg != NULL ? r.err_msg : "");
    if (st != AVROGEN_OK) {
        ck_assert_msg(cg_all_zero(v, t->size), "%s: struct not zeroed after an error", what);
        failed_alike++;
    } else {
        ck_assert_uint_eq(used, len);
        ck_assert_uint_eq(avrogen_reader_offset(&r), len);
        avrogen_writer w, gw;
        avrogen_writer_init_growable(&w, NULL);
        avrogen_writer_init_growable(&gw, NULL);
        ck_assert_int_eq(c->encode(&w, v), AVROGEN_OK);
        ck_assert_int_eq(avrogen_value_encode(&gw, &gv), AVROGEN_OK);
        ck_assert_msg(avrogen_writer_len(&w) == avrogen_writer_len(&gw) &&
                              memcmp(avrogen_writer_data(&w), avrogen_writer_data(&gw),
                                     avrogen_writer_len(&w)) == 0,
                      "%s: re-encoded struct (%zu bytes) differs from the resolved value (%zu)",
                      what, avrogen_writer_len(&w), avrogen_writer_len(&gw));
        avrogen_writer_fini(&w);
        avrogen_writer_fini(&gw);
        compared++;
    }
    for (size_t k = 0; truncate && k < len; k++) {
        memset(v, 0xa5, t->size);
        avrogen_arena_reset(&decoded);
        ck_assert_msg(aot_decode(dec, bytes, k, v, NULL) != AVROGEN_OK, "%s: %zu of %zu bytes read",
                      what, k, len);
        ck_assert_msg(cg_all_zero(v, t->size), "%s: truncated at %zu: struct not zeroed", what, k);
    }
    free(v);
}

START_TEST(test_vs_resolver)
{
    const struct earlier *e = &earlier[_i];
    if (!e->decoder)
        return;
    avrogen_schema *w = parse_file(e->file);
    avrogen_schema *rd = parse_text(avrogen_type_schema(e->reader->type));
    const avrogen_type_decoder *dec =
            find_decoder(e->reader->type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    avrogen_resolver *res = NULL;
    avrogen_diag why;
    ck_assert_int_eq(
            avrogen_resolver_new(avrogen_schema_root(w), avrogen_schema_root(rd), NULL, &res, &why),
            AVROGEN_OK);
    cg_rng g = {0x9e3779b97f4a7c15u + (uint64_t)_i};
    compared = failed_alike = 0;
    for (int n = 0; n < DATUMS; n++) {
        avrogen_arena_reset(&arena);
        avrogen_value v;
        random_value(&g, &v, avrogen_schema_root(w), 0, false);
        avrogen_writer bw;
        avrogen_writer_init_growable(&bw, NULL);
        ck_assert_int_eq(avrogen_value_encode(&bw, &v), AVROGEN_OK);
        char what[96];
        snprintf(what, sizeof what, "%s datum %d", e->file, n);
        compare_one(e->reader, dec, res, avrogen_writer_data(&bw), avrogen_writer_len(&bw),
                    n % 8 == 0, what);
        avrogen_writer_fini(&bw);
    }
    /* Enough of both outcomes to mean something. */
    ck_assert_uint_ge(compared, DATUMS / 8);
    printf("%s: %llu datums equal, %llu failed alike\n", e->file, (unsigned long long)compared,
           (unsigned long long)failed_alike);
    avrogen_resolver_free(res);
    avrogen_schema_free(rd);
    avrogen_schema_free(w);
}
END_TEST

/* ---- blocks that give their byte size ------------------------------------------------ */

/* How one decoder ended: its status, the reader's offset, error offset and message. */
typedef struct ending {
    const char *who;
    avrogen_status st;
    size_t at; /* where it stopped: the end on success, err_offset on error */
    const char *msg;
} ending;

static ending ended(const char *who, avrogen_status st, const avrogen_reader *r)
{
    ending e = {who, st, st == AVROGEN_OK ? avrogen_reader_offset(r) : r->err_offset,
                st == AVROGEN_OK ? "" : (r->err_msg != NULL ? r->err_msg : "")};
    return e;
}

static uint64_t sized_ok, sized_refused, sized_blocks, sized_at_block;

/* A message without the path in front ("Rec.f[2]: reason" -> "reason"): a raw
 * ahead-of-time decoder has no schema to name the member with, the others do. */
static const char *reason(const char *msg)
{
    const char *sep = strstr(msg, ": ");
    if (sep == NULL || memchr(msg, ' ', (size_t)(sep - msg)) != NULL)
        return msg;
    return sep + 2;
}

/*
 * Every decoder of the datum at bytes (written with w for record c), and in
 * its own schema the generic decoder: the same status, offset and message.
 */
static avrogen_status decode_all(const cg_case *c, const avrogen_schema *w,
                                 const avrogen_schema *own, const avrogen_type_decoder *dec,
                                 const avrogen_resolver *res, const avrogen_type_plan *plan,
                                 const uint8_t *bytes, size_t len, const char *what)
{
    ending e[5];
    size_t n = 0;
    void *v = malloc(c->type->size);
    ck_assert_ptr_nonnull(v);
    avrogen_reader r;
    free(input);
    input = exact_copy(bytes, len);
    bool direct = avrogen_schema_fingerprint64(w) == avrogen_schema_fingerprint64(own);

    avrogen_arena_reset(&decoded);
    avrogen_reader_init(&r, input, len);
    e[n++] = direct ? ended("P_avro_decode", c->decode(&r, v, &decoded), &r)
                    : ended("the ahead-of-time decoder", dec->decode(&r, v, &decoded), &r);
    avrogen_arena_reset(&decoded);
    avrogen_reader_init(&r, input, len);
    e[n++] = ended("the type plan", avrogen_type_plan_decode(plan, &r, v, &decoded), &r);
    avrogen_value gv;
    avrogen_arena values; /* not `arena`: it holds the datum's value */
    avrogen_arena_init(&values, NULL);
    avrogen_reader_init(&r, input, len);
    e[n++] = ended("the generic resolver", avrogen_resolver_decode(res, &r, &gv, &values), &r);
    avrogen_arena_reset(&decoded);
    avrogen_reader_init(&r, input, len);
    e[n++] = ended(
            "avrogen_decode_as",
            avrogen_decode_as(c->type, NULL, avrogen_schema_fingerprint64(w), w, &r, v, &decoded),
            &r);
    if (direct) {
        avrogen_arena_reset(&values);
        avrogen_reader_init(&r, input, len);
        e[n++] = ended("avrogen_value_decode",
                       avrogen_value_decode(&r, avrogen_schema_root(own), &gv, &values), &r);
    }
    /* A block size that is wrong fails every decoder there, alike. Past a
     * writer-only block skipped by a wrong size, the bytes are read out of
     * step: the struct decoders still agree, the generic ones need not (they
     * have no C types to refuse values with). */
    bool at_block = e[0].st != AVROGEN_OK &&
                    (strcmp(reason(e[0].msg), "block size does not match its items") == 0 ||
                     strcmp(reason(e[0].msg), "block size runs past the end of the input") == 0);
    for (size_t i = 1; i < n; i++) {
        bool generic = i == 2 || i == 4;
        if (generic && e[0].st != AVROGEN_OK && !at_block)
            continue;
        bool same = e[i].st == e[0].st && e[i].at == e[0].at &&
                    (!at_block || strcmp(reason(e[i].msg), reason(e[0].msg)) == 0);
        ck_assert_msg(same, "%s: %s: %s at %zu (%s), %s: %s at %zu (%s)", what, e[0].who,
                      avrogen_status_str(e[0].st), e[0].at, e[0].msg, e[i].who,
                      avrogen_status_str(e[i].st), e[i].at, e[i].msg);
    }
    if (at_block)
        sized_at_block++;
    if (e[0].st == AVROGEN_OK)
        sized_ok++;
    else
        sized_refused++;
    avrogen_arena_fini(&values);
    free(v);
    return e[0].st;
}

/* Random datums of w for record c, their blocks sized right and wrong, through decode_all. */
static void block_sizes(const cg_case *c, const char *file, uint64_t seed)
{
    avrogen_schema *own = parse_text(avrogen_type_schema(c->type));
    avrogen_schema *w = file != NULL ? parse_file(file) : parse_text(avrogen_type_schema(c->type));
    const char *label = file != NULL ? file : c->name;
    const avrogen_node *wroot = avrogen_schema_root(w);
    const avrogen_type_decoder *dec = find_decoder(c->type, avrogen_schema_fingerprint64(w));
    ck_assert(dec != NULL || file == NULL);
    avrogen_resolver *res = NULL;
    avrogen_type_plan *plan = NULL;
    avrogen_diag why;
    ck_assert_int_eq(avrogen_resolver_new(wroot, avrogen_schema_root(own), NULL, &res, &why),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_type_plan_new(wroot, c->type, NULL, &plan, &why), AVROGEN_OK);
    static const int64_t deltas[] = {-1, 1, 1 << 20};
    cg_rng g = {seed};
    uint64_t blocks_before = sized_blocks;
    for (int d = 0; d < 40; d++) {
        avrogen_arena_reset(&arena);
        avrogen_value v;
        if (file != NULL) {
            random_value(&g, &v, wroot, 0, false);
        } else {
            /* A struct within its C types, as its own encoder writes it. */
            void *s = calloc(1, c->type->size);
            ck_assert_ptr_nonnull(s);
            cg_fill(&g, c->type, s, &arena, 2);
            avrogen_writer sw;
            avrogen_writer_init_growable(&sw, NULL);
            ck_assert_int_eq(c->encode(&sw, s), AVROGEN_OK);
            avrogen_reader sr;
            avrogen_reader_init(&sr, avrogen_writer_data(&sw), avrogen_writer_len(&sw));
            ck_assert_int_eq(avrogen_value_decode(&sr, wroot, &v, &arena), AVROGEN_OK);
            avrogen_writer_fini(&sw);
            free(s);
        }
        long blocks = 0;
        avrogen_writer bw;
        avrogen_writer_init_growable(&bw, NULL);
        ck_assert_int_eq(cg_encode_sized(&bw, &v, wroot, -1, 0, &blocks), AVROGEN_OK);
        /* Sizes that are right: skip jumps every block to the end. */
        size_t len = avrogen_writer_len(&bw);
        uint8_t *bytes = exact_copy(avrogen_writer_data(&bw), len);
        avrogen_writer_fini(&bw);
        avrogen_reader r;
        avrogen_reader_init(&r, bytes, len);
        ck_assert_int_eq(avrogen_skip(&r, wroot), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_offset(&r), len);
        char what[128];
        snprintf(what, sizeof what, "%s datum %d, sizes right", label, d);
        avrogen_status base = decode_all(c, w, own, dec, res, plan, bytes, len, what);
        free(bytes);
        if (base != AVROGEN_OK)
            continue; /* refused for its values (C types), alike: no sizes to compare */
        sized_blocks += (uint64_t)blocks;
        for (long b = 0; b < blocks; b++) {
            for (size_t k = 0; k < sizeof deltas / sizeof *deltas; k++) {
                long again = 0;
                avrogen_writer_init_growable(&bw, NULL);
                ck_assert_int_eq(cg_encode_sized(&bw, &v, wroot, b, deltas[k], &again), AVROGEN_OK);
                snprintf(what, sizeof what, "%s datum %d, block %ld size %+lld", label, d, b,
                         (long long)deltas[k]);
                decode_all(c, w, own, dec, res, plan, avrogen_writer_data(&bw),
                           avrogen_writer_len(&bw), what);
                avrogen_writer_fini(&bw);
            }
        }
    }
    printf("%s: %llu sized blocks\n", label, (unsigned long long)(sized_blocks - blocks_before));
    avrogen_type_plan_free(plan);
    avrogen_resolver_free(res);
    avrogen_schema_free(w);
    avrogen_schema_free(own);
}

/*
 * Blocks that give their byte size (issue 12): every decoder (generated, ahead
 * of time, type plan, generic resolver, avrogen_decode_as and, in the record's
 * own schema, the generic decoder) reads a block whose items fill its size
 * exactly, and refuses one whose size is a byte short, a byte long or past the
 * end of the input with the same status, offset and message (the generated
 * decoder read the items and ignored the size). Writer-only arrays are jumped
 * by their size, as avrogen_skip jumps them. Each record in its own schema,
 * and each earlier schema with an ahead-of-time decoder.
 */
START_TEST(test_block_sizes)
{
    sized_ok = sized_refused = sized_blocks = sized_at_block = 0;
    for (size_t i = 0; i < N_CASES; i++)
        block_sizes(&cases[i], NULL, 0x3c6ef372fe94f82bu + i);
    for (size_t i = 0; i < N_EARLIER; i++)
        if (earlier[i].decoder)
            block_sizes(earlier[i].reader, earlier[i].file, 0xa54ff53a5f1d36f1u + i);
    printf("block sizes: %llu blocks, %llu datums read alike, %llu refused alike (%llu at the "
           "block)\n",
           (unsigned long long)sized_blocks, (unsigned long long)sized_ok,
           (unsigned long long)sized_refused, (unsigned long long)sized_at_block);
    ck_assert_uint_gt(sized_blocks, 400);
    ck_assert_uint_gt(sized_at_block, 1200);
    ck_assert_uint_gt(sized_ok, 400);
}
END_TEST

/* ---- known answers ------------------------------------------------------------------ */

/* The JSON datum `json` written with earlier schema `file`, decoded by the
 * record's decoder for it into *v; returns its status. */
static avrogen_status decode_json(const char *file, const avrogen_type *t, const char *json,
                                  void *v)
{
    avrogen_schema *w = parse_file(file);
    avrogen_value val;
    avrogen_diag d;
    avrogen_status st =
            avrogen_value_from_json(json, strlen(json), avrogen_schema_root(w), &val, &arena, &d);
    ck_assert_msg(st == AVROGEN_OK, "%s: %s: %s", file, d.path, d.msg);
    avrogen_writer bw;
    avrogen_writer_init_growable(&bw, NULL);
    ck_assert_int_eq(avrogen_value_encode(&bw, &val), AVROGEN_OK);
    const avrogen_type_decoder *dec = find_decoder(t, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    memset(v, 0xa5, t->size);
    st = aot_decode(dec, avrogen_writer_data(&bw), avrogen_writer_len(&bw), v, NULL);
    avrogen_writer_fini(&bw);
    avrogen_schema_free(w);
    return st;
}

/* A datum of aot_event_v1.avsc as Avro JSON, with the color and `either` left
 * open. Bytes are code points U+0000..U+00FF in Avro JSON: "label" holds the
 * UTF-8 of "l\u00e9". */
static const char v1_datum[] =
        "{\"name\": \"ab\", \"id\": -7, \"audit\": {\"who\": \"me\", \"prev\": {\"aot.Audit\": "
        "{\"who\": \"you\", \"prev\": null}}}, \"ratio\": 0.5, \"share\": 1099511627777, "
        "\"payload\": \"hi\", \"label\": \"l\\u00c3\\u00a9\", \"flags\": [true, false], "
        "\"level\": \"CRITICAL\", \"color\": \"%s\", \"origin\": {\"y\": 2, \"x\": 1, \"z\": 9.5}, "
        "\"extras\": {\"k\": [{\"y\": 1, \"x\": 2, \"z\": 3.0}]}, "
        "\"path\": [{\"y\": 4, \"x\": 3, \"z\": 0.0}], \"samples\": [1, -2147483648], "
        "\"grid\": [0.25, 1.5, -3.0], \"attrs\": {\"a\": 5}, "
        "\"choice\": {\"aot.Blob\": {\"data\": \"\\u0001\", \"sum\": \"xy\"}}, "
        "\"maybe\": {\"int\": 9}, \"note\": \"n\", \"either\": %s, "
        "\"chain\": {\"aot.aot_node\": {\"value\": 1, \"next\": {\"aot.aot_node\": "
        "{\"value\": 2, \"next\": null}}}}, \"u\": {\"string\": \"s\"}, \"digest\": \"abcd\", "
        "\"pad\": \"xyz\", \"misc\": {\"a\": 1, \"b\": 2.0, \"c\": null, \"d\": {\"z\": null}, "
        "\"e\": \"ANGRY\"}}";

/*
 * aot_point_v2's writer-only `shape` takes no bytes and holds 511 records: the
 * decoder charges them to the item budget as the resolver and avrogen_skip do,
 * and all three stop at the same bound.
 */
START_TEST(test_zero_byte_skip_budget)
{
    avrogen_schema *w = parse_file("aot_point_v2.avsc");
    const avrogen_type_decoder *dec =
            find_decoder(&aot_point_avro_type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    avrogen_resolver *res;
    avrogen_diag why;
    avrogen_schema *rs = parse_text(avrogen_type_schema(&aot_point_avro_type));
    ck_assert_int_eq(
            avrogen_resolver_new(avrogen_schema_root(w), avrogen_schema_root(rs), NULL, &res, &why),
            AVROGEN_OK);
    /* x 1, y 2, shape (nothing), weight 0.5 */
    static const uint8_t in[] = {0x02, 0x04, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f};
    for (size_t budget = 510; budget <= 511; budget++) {
        avrogen_status want = budget == 511 ? AVROGEN_OK : AVROGEN_E_LIMIT;
        struct aot_point p;
        avrogen_reader r;
        avrogen_reader_init(&r, in, sizeof in);
        r.max_items = budget;
        ck_assert_int_eq(dec->decode(&r, &p, &decoded), want);
        if (want == AVROGEN_OK)
            ck_assert(p.x == 1 && p.y == 2 && p.weight == 0.5);
        avrogen_value v;
        avrogen_reader_init(&r, in, sizeof in);
        r.max_items = budget;
        ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), want);
        avrogen_reader_init(&r, in, sizeof in);
        r.max_items = budget;
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_skip(&r, avrogen_schema_root(w)), want);
    }
    avrogen_resolver_free(res);
    avrogen_schema_free(rs);
    avrogen_schema_free(w);
}
END_TEST

START_TEST(test_known_v1)
{
    char json[2048];
    struct aot_event v;
    snprintf(json, sizeof json, v1_datum, "GREEN", "{\"long\": 1099511627776}");
    ck_assert_int_eq(decode_json("aot_event_v1.avsc", &aot_event_avro_type, json, &v), AVROGEN_OK);
    ck_assert_str_eq(v.name, "ab");
    ck_assert_int_eq(v.id, -7);
    ck_assert(v.ratio == 0.5);
    ck_assert(v.share == 1099511627776.0f); /* the long past 32 bits, rounded to float */
    ck_assert_uint_eq(v.payload.len, 2);
    ck_assert_mem_eq(v.payload.ptr, "hi", 2);
    ck_assert_str_eq(v.label, "l\xc3\xa9");
    ck_assert_int_eq(v.level, AOT_LEVEL_UNKNOWN); /* CRITICAL: the enum's default */
    ck_assert_int_eq(v.color, AOT_GREEN);
    ck_assert_int_eq(v.origin.x, 1);
    ck_assert_int_eq(v.origin.y, 2);
    ck_assert(v.origin.weight == 1.5);
    ck_assert_uint_eq(v.n_path, 1);
    ck_assert_int_eq(v.path[0].x, 3);
    ck_assert_int_eq(v.path[0].y, 4);
    ck_assert(v.path[0].weight == 1.5);
    ck_assert_uint_eq(v.n_samples, 2);
    ck_assert_int_eq(v.samples[1], INT32_MIN);
    ck_assert(v.grid[0] == 0.25 && v.grid[1] == 1.5 && v.grid[2] == -3.0);
    ck_assert_uint_eq(v.n_attrs, 1);
    ck_assert_str_eq(v.attrs[0].key, "a");
    ck_assert_int_eq(v.attrs[0].value, 5);
    ck_assert_ptr_nonnull(v.maybe);
    ck_assert_int_eq(*v.maybe, 9);
    ck_assert_str_eq(v.note, "n");
    ck_assert_int_eq(v.either, INT64_C(1099511627776));
    ck_assert_ptr_nonnull(v.chain);
    ck_assert_int_eq(v.chain->value, 1);
    ck_assert_ptr_nonnull(v.chain->next);
    ck_assert_int_eq(v.chain->next->value, 2);
    ck_assert_ptr_null(v.chain->next->next);
    ck_assert_int_eq(v.kind, AOT_KIND_TEXT);
    ck_assert_str_eq(v.u.text, "s");
    ck_assert_mem_eq(v.digest, "abcd", 4);
    /* The defaults. */
    ck_assert_int_eq(v.count, 7);
    ck_assert_str_eq(v.tag, "none");
    ck_assert_uint_eq(v.n_hist, 3);
    ck_assert(v.hist[0] == 1 && v.hist[1] == 2 && v.hist[2] == 3);
    ck_assert_int_eq(v.prio, AOT_LEVEL_HIGH);
    ck_assert_int_eq(v.home.x, 1);
    ck_assert_int_eq(v.home.y, -2);
    ck_assert(v.home.weight == 1.5);
    ck_assert_ptr_null(v.opt);
    ck_assert(v.flag);
    ck_assert(v.scale == 0.1);
    ck_assert(v.gain == -2.5f);
    ck_assert_int_eq(v.big, INT64_C(12345678901234));
    ck_assert_uint_eq(v.motto.len, 5);
    ck_assert_mem_eq(v.motto.ptr, "caf\xc3\xa9", 5);
    ck_assert_ptr_null(v.cache);

    /* A writer symbol the reader lacks (no default), a union branch it cannot take. */
    snprintf(json, sizeof json, v1_datum, "PINK", "{\"int\": 3}");
    ck_assert_int_eq(decode_json("aot_event_v1.avsc", &aot_event_avro_type, json, &v),
                     AVROGEN_E_MISMATCH);
    ck_assert(cg_all_zero(&v, sizeof v));
    snprintf(json, sizeof json, v1_datum, "RED", "null");
    ck_assert_int_eq(decode_json("aot_event_v1.avsc", &aot_event_avro_type, json, &v),
                     AVROGEN_E_MISMATCH);
    ck_assert(cg_all_zero(&v, sizeof v));
    snprintf(json, sizeof json, v1_datum, "RED", "{\"int\": -3}");
    ck_assert_int_eq(decode_json("aot_event_v1.avsc", &aot_event_avro_type, json, &v), AVROGEN_OK);
    ck_assert_int_eq(v.color, AOT_RED);
    ck_assert_int_eq(v.either, -3);
}
END_TEST

START_TEST(test_known_v2)
{
    static const char json[] =
            "{\"id\": 5, \"ratio\": 0.1, \"share\": 2.5, \"payload\": \"\\u0000\\u00ff\", "
            "\"label\": \"l\", \"name\": \"\", \"level\": \"MID\", \"color\": \"BLUE\", "
            "\"origin\": {\"x\": 1, \"y\": 2, \"weight\": 0.0}, \"path\": [], \"samples\": [], "
            "\"grid\": [1.0, 2.0, 3.0], \"attrs\": {}, \"maybe\": null, \"note\": null, "
            "\"either\": 1, \"chain\": null, \"u\": {\"double\": 4.5}, \"digest\": \"wxyz\", "
            "\"old_tag\": \"old\", \"count\": 9, \"hist\": [8]}";
    struct aot_event v;
    ck_assert_int_eq(decode_json("aot_event_v2.avsc", &aot_event_avro_type, json, &v), AVROGEN_OK);
    ck_assert_int_eq(v.id, 5);
    ck_assert_uint_eq(v.payload.len, 2);
    ck_assert_mem_eq(v.payload.ptr, "\x00\xff", 2);
    ck_assert_int_eq(v.level, AOT_LEVEL_MID);
    ck_assert_int_eq(v.color, AOT_BLUE);
    ck_assert(v.origin.weight == 0.0);
    ck_assert_ptr_null(v.maybe);
    ck_assert_ptr_null(v.note);
    ck_assert_int_eq(v.kind, AOT_KIND_REAL); /* writer branch 1 is reader branch 2 */
    ck_assert(v.u.real == 4.5);
    ck_assert_str_eq(v.tag, "old"); /* written as old_tag, an alias */
    ck_assert_int_eq(v.count, 9);
    ck_assert_uint_eq(v.n_hist, 1);
    ck_assert_int_eq(v.hist[0], 8);
    ck_assert_int_eq(v.prio, AOT_LEVEL_HIGH);
    ck_assert(v.flag);
}
END_TEST

START_TEST(test_known_node)
{
    static const char json[] = "{\"value\": -1, \"next\": {\"aot.aot_node\": {\"value\": "
                               "2147483647, \"next\": null}}}";
    struct aot_node v;
    ck_assert_int_eq(decode_json("aot_node_v0.avsc", &aot_node_avro_type, json, &v), AVROGEN_OK);
    ck_assert_int_eq(v.value, -1);
    ck_assert_ptr_nonnull(v.next);
    ck_assert_int_eq(v.next->value, INT32_MAX);
    ck_assert_ptr_null(v.next->next);
}
END_TEST

/* Integers promoted into the standard and POSIX types: an int written as a
 * count is refused below 0, and the 64-bit default is INT64_MAX exactly. */
/* One writer field into every member that names it (or has it as an alias),
 * each resolved on its own terms, the bytes consumed once. */
START_TEST(test_known_twice)
{
    struct aot_twice v;
    ck_assert_int_eq(decode_json("aot_twice_v0.avsc", &aot_twice_avro_type,
                                 "{\"old\": -7, \"gone\": \"xyz\", \"label\": \"hi\", "
                                 "\"at\": {\"x\": 3, \"y\": 4}}",
                                 &v),
                     AVROGEN_OK);
    ck_assert_int_eq(v.old, -7);
    ck_assert_int_eq(v.wide, -7);
    ck_assert(v.real == -7.0);
    ck_assert_str_eq(v.label, "hi");
    ck_assert_str_eq(v.copy, "hi");
    ck_assert_int_eq(v.at.x, 3);
    ck_assert_int_eq(v.again.x, 3);
    ck_assert_int_eq(v.again.y, 4);
    ck_assert(v.again.weight == 1.5);
}
END_TEST

START_TEST(test_known_shapes)
{
    struct aot_shapes v;
    ck_assert_int_eq(
            decode_json("aot_shapes_v0.avsc", &aot_shapes_avro_type,
                        "{\"u_packets\": 2147483647, \"u_octets\": 9223372036854775807, "
                        "\"delta\": -2147483648, \"at\": -1, \"seen\": -1, \"name\": \"n\", "
                        "\"host\": \"h\", \"ids\": [1, -2, 3, 4], \"topic\": \"t\", "
                        "\"value\": {\"int\": -5}, \"bits_ver\": 15, \"ticks\": -2147483648}",
                        &v),
            AVROGEN_OK);
    ck_assert_uint_eq(v.u_packets, INT32_MAX);
    ck_assert_uint_eq(v.u_octets, (uint64_t)INT64_MAX);
    ck_assert_int_eq(v.delta, INT32_MIN);
    ck_assert_int_eq(v.at, -1);
    ck_assert_uint_eq(v.u_limit, (unsigned long)INT64_MAX);
    ck_assert_int_eq(v.seen.tv_sec, -1); /* an int of microseconds, normalised */
    ck_assert_int_eq(v.seen.tv_usec, 999999);
    ck_assert_uint_eq(v.n_ids, 4);
    ck_assert_int_eq(v.ids[1], -2);
    ck_assert_uint_eq(v.topic_len, 1);
    ck_assert_int_eq(v.value_kind, 10); /* AVRO_TAG(10, 11): the first */
    ck_assert_int_eq(v.value.number, -5);
    ck_assert_uint_eq(v.bits_ver, 15);
    ck_assert_int_eq(v.ticks, INT32_MIN); /* an int into a 40-bit long */
    ck_assert_int_eq(
            decode_json("aot_shapes_v0.avsc", &aot_shapes_avro_type,
                        "{\"u_packets\": 0, \"u_octets\": 0, \"delta\": 0, \"at\": 0, \"seen\": 0, "
                        "\"name\": \"\", \"host\": \"\", \"ids\": [], \"topic\": \"\", \"value\": "
                        "null, \"bits_ver\": 0, \"ticks\": 0}",
                        &v),
            AVROGEN_OK);
    ck_assert_int_eq(v.value_kind, -1);
    ck_assert_int_eq(
            decode_json("aot_shapes_v1.avsc", &aot_shapes_avro_type,
                        "{\"u_packets\": 0, \"u_octets\": 0, \"delta\": 0, \"at\": 0, \"seen\": 0, "
                        "\"name\": \"\", \"host\": \"\", \"ids\": [], \"topic\": \"\", "
                        "\"value\": {\"string\": \"x\"}, \"bits_ver\": 0, \"ticks\": 0}",
                        &v),
            AVROGEN_OK);
    ck_assert_int_eq(v.value_kind, 20);
    ck_assert_str_eq(v.value.text, "x");
    ck_assert_int_eq(
            decode_json("aot_shapes_v0.avsc", &aot_shapes_avro_type,
                        "{\"u_packets\": -1, \"u_octets\": 0, \"delta\": 0, \"at\": 0, \"seen\": "
                        "0, \"name\": \"\", \"host\": \"\", \"ids\": [], \"topic\": \"\", "
                        "\"value\": null, \"bits_ver\": 0, \"ticks\": 0}",
                        &v),
            AVROGEN_E_INVALID);
    ck_assert(cg_all_zero(&v, sizeof v));
    ck_assert_int_eq(
            decode_json("aot_shapes_v0.avsc", &aot_shapes_avro_type,
                        "{\"u_packets\": 0, \"u_octets\": -1, \"delta\": 0, \"at\": 0, \"seen\": "
                        "0, \"name\": \"\", \"host\": \"\", \"ids\": [], \"topic\": \"\", "
                        "\"value\": null, \"bits_ver\": 0, \"ticks\": 0}",
                        &v),
            AVROGEN_E_INVALID);
    /* A bit-field of 4 bits: 15 fits (above), 16 and -1 do not. */
    static const char *const past[] = {"16", "-1"};
    for (size_t i = 0; i < 2; i++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{\"u_packets\": 0, \"u_octets\": 0, \"delta\": 0, \"at\": 0, \"seen\": 0, "
                 "\"name\": \"\", \"host\": \"\", \"ids\": [], \"topic\": \"\", "
                 "\"value\": null, \"bits_ver\": %s, \"ticks\": 0}",
                 past[i]);
        ck_assert_int_eq(decode_json("aot_shapes_v0.avsc", &aot_shapes_avro_type, json, &v),
                         AVROGEN_E_INVALID);
        ck_assert(cg_all_zero(&v, sizeof v));
    }
}
END_TEST

/* ---- hostile input ----------------------------------------------------------------- */

/* A chain of `depth` nodes written with aot_node_v0.avsc: past the reader's
 * max_depth the decoder stops with E_LIMIT instead of recursing on. */
START_TEST(test_depth)
{
    avrogen_schema *w = parse_file("aot_node_v0.avsc");
    const avrogen_type_decoder *dec =
            find_decoder(&aot_node_avro_type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    size_t depth = 5000;
    uint8_t *buf = malloc(2 * depth + 2);
    ck_assert_ptr_nonnull(buf);
    size_t n = 0;
    for (size_t i = 0; i < depth; i++) {
        buf[n++] = 0x02; /* value 1 */
        buf[n++] = 0x02; /* branch 1: another node */
    }
    buf[n++] = 0x02;
    buf[n++] = 0x00; /* the last one: null */
    struct aot_node v;
    avrogen_arena_reset(&decoded);
    ck_assert_int_eq(aot_decode(dec, buf, n, &v, NULL), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&v, sizeof v));
    free(buf);
    avrogen_schema_free(w);
}
END_TEST

/* Lisp written as aot_lisp_v0.avsc (Cons is branch 1 and has a weight): n
 * conses nested through car decode into conses allocated through the branch
 * pointer; 100,000 stop with E_LIMIT, not a stack overflow. */
static uint8_t *old_conses(size_t n, size_t *len)
{
    uint8_t *buf = malloc(3 * n + 1);
    ck_assert_ptr_nonnull(buf);
    memset(buf, 0x02, n);          /* each Lisp: branch 1, a cons */
    memset(buf + n, 0, 2 * n + 1); /* the innermost null, then each weight 0 and cdr null */
    *len = 3 * n + 1;
    return buf;
}

START_TEST(test_depth_lisp)
{
    avrogen_schema *w = parse_file("aot_lisp_v0.avsc");
    const avrogen_type_decoder *dec =
            find_decoder(&aot_lisp_avro_type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    size_t len;
    uint8_t *buf = old_conses(50, &len);
    struct aot_lisp v;
    size_t used;
    avrogen_arena_reset(&decoded);
    ck_assert_int_eq(aot_decode(dec, buf, len, &v, &used), AVROGEN_OK);
    ck_assert_uint_eq(used, len);
    const struct aot_lisp *at = &v;
    for (size_t i = 0; i < 50; i++) {
        ck_assert_int_eq(at->kind, AOT_LISP_CONS);
        ck_assert_ptr_nonnull(at->value.cons);
        ck_assert_int_eq(at->value.cons->cdr.kind, AOT_LISP_NIL);
        at = &at->value.cons->car;
    }
    ck_assert_int_eq(at->kind, AOT_LISP_NIL);
    free(buf);
    buf = old_conses(100000, &len);
    avrogen_arena_reset(&decoded);
    ck_assert_int_eq(aot_decode(dec, buf, len, &v, NULL), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&v, sizeof v));
    free(buf);
    avrogen_schema_free(w);
}
END_TEST

/* A reader-only field's default is part of the datum: its items count against
 * the datum's item budget in the decoder as in the resolver and a type plan
 * (found by fuzz_evolve: the decoders' default helpers started a budget of
 * their own). aot_event_v1.avsc has no hist: its default [1, 2, 3] adds 3
 * items to the 3 of samples and the 3 of grid. */
START_TEST(test_default_items)
{
    static const char json[] =
            "{\"name\": \"\", \"id\": 0, \"audit\": {\"who\": \"\", \"prev\": null}, \"ratio\": 0, "
            "\"share\": 0, \"payload\": \"\", \"label\": \"\", \"flags\": [], \"level\": \"LOW\", "
            "\"color\": \"RED\", \"origin\": {\"y\": 0, \"x\": 0, \"z\": 0}, \"extras\": {}, "
            "\"path\": [], \"samples\": [1, 2, 3], \"grid\": [1, 2, 3], \"attrs\": {}, "
            "\"choice\": null, \"maybe\": null, \"note\": \"\", \"either\": {\"int\": 1}, "
            "\"chain\": null, \"u\": {\"int\": 5}, \"digest\": \"abcd\", \"pad\": \"xyz\", "
            "\"misc\": {\"a\": 0, \"b\": 0, \"c\": null, \"d\": {}, \"e\": \"CALM\"}}";
    avrogen_schema *w = parse_file("aot_event_v1.avsc");
    avrogen_schema *rd = parse_text(avrogen_type_schema(&aot_event_avro_type));
    const avrogen_node *wroot = avrogen_schema_root(w);
    const avrogen_type_decoder *dec =
            find_decoder(&aot_event_avro_type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    avrogen_resolver *res = NULL;
    avrogen_type_plan *plan = NULL;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_resolver_new(wroot, avrogen_schema_root(rd), NULL, &res, &d),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_type_plan_new(wroot, &aot_event_avro_type, NULL, &plan, &d),
                     AVROGEN_OK);
    avrogen_value val;
    ck_assert_int_eq(avrogen_value_from_json(json, strlen(json), wroot, &val, &arena, &d),
                     AVROGEN_OK);
    avrogen_writer bw;
    avrogen_writer_init_growable(&bw, NULL);
    ck_assert_int_eq(avrogen_value_encode(&bw, &val), AVROGEN_OK);
    for (size_t budget = 6; budget <= 10; budget++) {
        avrogen_status want = budget < 9 ? AVROGEN_E_LIMIT : AVROGEN_OK;
        struct aot_event v;
        avrogen_value gv;
        avrogen_reader r;
        avrogen_reader_init(&r, avrogen_writer_data(&bw), avrogen_writer_len(&bw));
        r.max_items = budget;
        ck_assert_int_eq(dec->decode(&r, &v, &decoded), want);
        if (want == AVROGEN_OK)
            ck_assert_uint_eq(v.n_hist, 3);
        avrogen_reader_init(&r, avrogen_writer_data(&bw), avrogen_writer_len(&bw));
        r.max_items = budget;
        ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, &v, &decoded), want);
        avrogen_reader_init(&r, avrogen_writer_data(&bw), avrogen_writer_len(&bw));
        r.max_items = budget;
        ck_assert_int_eq(avrogen_resolver_decode(res, &r, &gv, &arena), want);
    }
    avrogen_writer_fini(&bw);
    avrogen_type_plan_free(plan);
    avrogen_resolver_free(res);
    avrogen_schema_free(rd);
    avrogen_schema_free(w);
}
END_TEST

/* A writer-only array whose block count the rest of the input cannot hold
 * fails as E_TRUNCATED before any item is read, as avrogen_skip (the
 * resolver's and the plans' skip) fails it (found by fuzz_evolve: the
 * decoder read an item and failed on its byte instead). */
START_TEST(test_skip_truncated)
{
    /* aot_event_v1.avsc: name "", id 0, audit {who "", prev null}, ratio 0.0f,
     * share 0, payload "", label "", then flags (writer-only): a block of 2
     * booleans, with one byte left, and that byte no boolean. */
    static const uint8_t bytes[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x04, 0x0a};
    avrogen_schema *w = parse_file("aot_event_v1.avsc");
    avrogen_schema *rd = parse_text(avrogen_type_schema(&aot_event_avro_type));
    const avrogen_node *wroot = avrogen_schema_root(w);
    const avrogen_type_decoder *dec =
            find_decoder(&aot_event_avro_type, avrogen_schema_fingerprint64(w));
    ck_assert_ptr_nonnull(dec);
    avrogen_resolver *res = NULL;
    avrogen_type_plan *plan = NULL;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_resolver_new(wroot, avrogen_schema_root(rd), NULL, &res, &d),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_type_plan_new(wroot, &aot_event_avro_type, NULL, &plan, &d),
                     AVROGEN_OK);
    struct aot_event v;
    ck_assert_int_eq(aot_decode(dec, bytes, sizeof bytes, &v, NULL), AVROGEN_E_TRUNCATED);
    ck_assert(cg_all_zero(&v, sizeof v));
    avrogen_reader r;
    avrogen_reader_init(&r, bytes, sizeof bytes);
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, &v, &decoded), AVROGEN_E_TRUNCATED);
    avrogen_value gv;
    avrogen_reader_init(&r, bytes, sizeof bytes);
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &gv, &arena), AVROGEN_E_TRUNCATED);
    avrogen_type_plan_free(plan);
    avrogen_resolver_free(res);
    avrogen_schema_free(rd);
    avrogen_schema_free(w);
}
END_TEST

START_TEST(test_corruption)
{
    avrogen_schema *w = parse_file("aot_event_v1.avsc");
    const avrogen_type_decoder *dec =
            find_decoder(&aot_event_avro_type, avrogen_schema_fingerprint64(w));
    cg_rng g = {0x243f6a8885a308d3u};
    unsigned ok = 0, failed = 0;
    for (int n = 0; n < 300; n++) {
        avrogen_arena_reset(&arena);
        avrogen_value val;
        random_value(&g, &val, avrogen_schema_root(w), 0, false);
        avrogen_writer bw;
        avrogen_writer_init_growable(&bw, NULL);
        ck_assert_int_eq(avrogen_value_encode(&bw, &val), AVROGEN_OK);
        uint8_t *bytes = exact_copy(avrogen_writer_data(&bw), avrogen_writer_len(&bw));
        size_t len = avrogen_writer_len(&bw);
        avrogen_writer_fini(&bw);
        for (int flips = 0; flips < 8; flips++) {
            size_t at = (size_t)cg_below(&g, len);
            bytes[at] = (uint8_t)(bytes[at] ^ (uint8_t)(1u << cg_below(&g, 8)));
            struct aot_event v;
            avrogen_arena_reset(&decoded);
            /* A budget, as for any untrusted input: lying counts stay cheap. */
            avrogen_arena_set_budget(&decoded, (size_t)1 << 20);
            if (aot_decode(dec, bytes, len, &v, NULL) == AVROGEN_OK) {
                ok++;
            } else {
                ck_assert(cg_all_zero(&v, sizeof v));
                failed++;
            }
        }
        free(bytes);
    }
    avrogen_arena_set_budget(&decoded, SIZE_MAX);
    ck_assert_uint_gt(failed, 0);
    printf("corruption: %u decoded, %u refused\n", ok, failed);
    avrogen_schema_free(w);
}
END_TEST

/* ---- the python3-avro helper ---------------------------------------------------------- */

static int peer(const char *writer, const char *in, const char *out)
{
    avrogen_schema *w = NULL;
    avrogen_diag d;
    if (avrogen_schema_parse_file(writer, NULL, &w, &d) != AVROGEN_OK) {
        fprintf(stderr, "%s: %s\n", writer, d.msg);
        return 2;
    }
    uint64_t fp = avrogen_schema_fingerprint64(w);
    avrogen_schema_free(w);
    const cg_case *c = NULL;
    const avrogen_type_decoder *dec = NULL;
    for (size_t i = 0; i < N_CASES && dec == NULL; i++)
        if ((dec = find_decoder(cases[i].type, fp)) != NULL)
            c = &cases[i];
    FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");
    if (dec == NULL || fi == NULL || fo == NULL) {
        fprintf(stderr, "peer: no decoder for %s, or cannot open files\n", writer);
        return 2;
    }
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    uint8_t head[4];
    while (fread(head, 1, 4, fi) == 4) {
        size_t len = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 |
                     (size_t)head[3] << 24;
        uint8_t *buf = malloc(len + 1);
        void *v = calloc(1, c->type->size);
        if (buf == NULL || v == NULL || fread(buf, 1, len, fi) != len)
            return 2;
        avrogen_reader r;
        avrogen_reader_init(&r, buf, len);
        avrogen_arena_reset(&a);
        avrogen_status st = dec->decode(&r, v, &a);
        if (st == AVROGEN_OK && avrogen_reader_remaining(&r) != 0)
            st = AVROGEN_E_INVALID; /* trailing bytes: the datum was misread */
        avrogen_writer wr;
        avrogen_writer_init_growable(&wr, NULL);
        if (st == AVROGEN_OK)
            st = c->encode(&wr, v);
        size_t n = st == AVROGEN_OK ? avrogen_writer_len(&wr) : 0;
        uint8_t rec[8] = {
                (uint8_t)st,       0, 0, 0, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16),
                (uint8_t)(n >> 24)};
        fwrite(rec, 1, sizeof rec, fo);
        if (n != 0)
            fwrite(avrogen_writer_data(&wr), 1, n, fo);
        avrogen_writer_fini(&wr);
        free(v);
        free(buf);
    }
    avrogen_arena_fini(&a);
    fclose(fi);
    return fclose(fo) == 0 ? 0 : 2;
}

static Suite *aot_suite(void)
{
    Suite *s = suite_create("aot");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_tables);
    suite_add_tcase(s, tc);
    tc = tcase_create("vs_resolver");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_vs_resolver, 0, (int)N_EARLIER);
    suite_add_tcase(s, tc);
    tc = tcase_create("known");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_known_v1);
    tcase_add_test(tc, test_zero_byte_skip_budget);
    tcase_add_test(tc, test_known_v2);
    tcase_add_test(tc, test_known_node);
    tcase_add_test(tc, test_known_shapes);
    tcase_add_test(tc, test_known_twice);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_depth);
    tcase_add_test(tc, test_depth_lisp);
    tcase_add_test(tc, test_default_items);
    tcase_add_test(tc, test_skip_truncated);
    tcase_add_test(tc, test_block_sizes);
    tcase_add_test(tc, test_corruption);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "peer") == 0)
        return peer(argv[2], argv[3], argv[4]);
    SRunner *sr = srunner_create(aot_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
