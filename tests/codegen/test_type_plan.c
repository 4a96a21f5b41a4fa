/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Type plans (resolve.h): schema resolution into generated structs, checked
 * against the two decoders it must agree with.
 *
 *  - identity: random structs of every test record, encoded by generated
 *    code and decoded by a plan whose writer is the record's own schema, equal
 *    what the generated decoder gives; so does every truncation and random
 *    corruption (same status, same offset, same struct);
 *  - evolution: random structs of cg_evolve_old.h's writers (fields reordered,
 *    added, dropped; numbers promoted; strings and bytes swapped; unions and
 *    enums on either side), decoded by the plan for the reader's record, then
 *    encoded again by the reader's generated code, give the bytes the generic
 *    resolver (avrogen_resolver, checked against python3-avro) produces for the
 *    same input; same status and message when the datum cannot be read;
 *  - known answers: every kind of default, enum defaults, aliases;
 *  - building: incompatible pairs fail exactly as avrogen_resolver_new does,
 *    defaults the C type cannot hold, descriptors without a schema, a failing
 *    allocator at every allocation (no leaks);
 *  - the plan cache and avrogen_decode_as.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_base.avro.h"
#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_evolve.avro.h"
#include "cg_evolve_old.avro.h"
#include "cg_external.avro.h"
#include "cg_hostile.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_shapes.avro.h"
#include "cg_strings.avro.h"
#include "cg_sysdefault.avro.h"
#include "cg_unions.avro.h"
#include "cg_util.h"
#include "testutil.h"

CG_ADAPTERS(prims, struct prims)
CG_ADAPTERS(logicals, logicals_t)
CG_ADAPTERS(texts, struct texts)
CG_ADAPTERS(maybe_texts, struct maybe_texts)
CG_ADAPTERS(palette, struct palette)
CG_ADAPTERS(cg_point, cg_point_t)
CG_ADAPTERS(cg_money, struct cg_money)
CG_ADAPTERS(cg_coord, struct cg_coord)
CG_ADAPTERS(segment, struct segment)
CG_ADAPTERS(drawing, struct drawing)
CG_ADAPTERS(node, struct node)
CG_ADAPTERS(tree, struct tree)
CG_ADAPTERS(company, struct company)
CG_ADAPTERS(person, struct person)
CG_ADAPTERS(item, struct item)
CG_ADAPTERS(arrays, struct arrays)
CG_ADAPTERS(maps, struct maps)
CG_ADAPTERS(hollows, struct hollows)
CG_ADAPTERS(amount, struct amount)
CG_ADAPTERS(shape, struct shape)
CG_ADAPTERS(pinned, struct pinned)
CG_ADAPTERS(h_enum, struct h_enum)
CG_ADAPTERS(h_union, struct h_union)
CG_ADAPTERS(h_chars, struct h_chars)
CG_ADAPTERS(h_exact, struct h_exact)
CG_ADAPTERS(h_i8, struct h_i8)
CG_ADAPTERS(h_u16, struct h_u16)
CG_ADAPTERS(h_u32, struct h_u32)
CG_ADAPTERS(h_decimal, struct h_decimal)
CG_ADAPTERS(h_udecimal, struct h_udecimal)
CG_ADAPTERS(h_count, struct h_count)
CG_ADAPTERS(h_doubles, struct h_doubles)
CG_ADAPTERS(ev_point, struct ev_point)
CG_ADAPTERS(nf5_record, struct nf5_record)
CG_ADAPTERS(nic_stats, struct nic_stats)
CG_ADAPTERS(nic_queues, struct nic_queues)
CG_ADAPTERS(mqtt_msg, struct mqtt_msg)
CG_ADAPTERS(utmp_entry, struct utmp_entry)
CG_ADAPTERS(mp_object, struct mp_object)
CG_ADAPTERS(ev_value, struct ev_value)
CG_ADAPTERS(packed_status, struct packed_status)
CG_ADAPTERS(hd_grid, struct hd_grid)
CG_ADAPTERS(wide_money, struct wide_money)
CG_ADAPTERS(input_ev, struct input_ev)
CG_ADAPTERS(gps_fix, struct gps_fix)
CG_ADAPTERS(rich, struct rich)
CG_ADAPTERS(ev_long_default, struct ev_long_default)
CG_ADAPTERS(ev_short_default, struct ev_short_default)
CG_ADAPTERS(ev_twice, struct ev_twice)
CG_ADAPTERS(stat, struct stat)
CG_ADAPTERS(addrinfo, struct addrinfo)
CG_ADAPTERS(rusage, struct rusage)
CG_ADAPTERS(epoll_event, struct epoll_event)
CG_ADAPTERS(sockaddr_in6, struct sockaddr_in6)

CG_ADAPTERS(prims_w, struct prims_w)
CG_ADAPTERS(maybe_texts_w, struct maybe_texts_w)
CG_ADAPTERS(palette_w, struct palette_w)
CG_ADAPTERS(shape_w, struct shape_w)
CG_ADAPTERS(node_w, struct node_w)
CG_ADAPTERS(tree_w, struct tree_w)
CG_ADAPTERS(maps_w, struct maps_w)
CG_ADAPTERS(arrays_w, struct arrays_w)
CG_ADAPTERS(pinned_w, struct pinned_w)
CG_ADAPTERS(ev_old_rich, struct ev_old_rich)

/* Every record of the generated test headers, as a reader. */
static const cg_case readers[] = {
        CG_CASE(prims),
        CG_CASE(logicals),
        CG_CASE(texts),
        CG_CASE(maybe_texts),
        CG_CASE(palette),
        CG_CASE(cg_point),
        CG_CASE(cg_money),
        CG_CASE(cg_coord),
        CG_CASE(segment),
        CG_CASE(drawing),
        CG_CASE(node),
        CG_CASE(tree),
        CG_CASE(company),
        CG_CASE(person),
        CG_CASE(item),
        CG_CASE(arrays),
        CG_CASE(maps),
        CG_CASE(hollows),
        CG_CASE(amount),
        CG_CASE(shape),
        CG_CASE(pinned),
        CG_CASE(h_enum),
        CG_CASE(h_union),
        CG_CASE(h_chars),
        CG_CASE(h_exact),
        CG_CASE(h_i8),
        CG_CASE(h_u16),
        CG_CASE(h_u32),
        CG_CASE(h_decimal),
        CG_CASE(h_udecimal),
        CG_CASE(h_count),
        CG_CASE(h_doubles),
        CG_CASE(ev_point),
        CG_CASE(rich),
        CG_CASE(ev_long_default),
        CG_CASE(ev_short_default),
        CG_CASE(ev_twice),
        CG_CASE(nf5_record),
        CG_CASE(nic_stats),
        CG_CASE(input_ev),
        CG_CASE(gps_fix),
        CG_CASE(nic_queues),
        CG_CASE(mqtt_msg),
        CG_CASE(utmp_entry),
        CG_CASE(mp_object),
        CG_CASE(ev_value),
        CG_CASE(packed_status),
        CG_CASE(hd_grid),
        CG_CASE(wide_money),
        CG_CASE(stat),
        CG_CASE(addrinfo),
        CG_CASE(rusage),
        CG_CASE(epoll_event),
        CG_CASE(sockaddr_in6),
};
#define N_READERS ((int)(sizeof readers / sizeof *readers))

/* cg_evolve_old.h's writers and the reader each one is read as. */
static const struct {
    cg_case writer;
    const char *reader;
} pairs[] = {
        {CG_CASE(prims_w), "prims"},     {CG_CASE(maybe_texts_w), "maybe_texts"},
        {CG_CASE(palette_w), "palette"}, {CG_CASE(shape_w), "shape"},
        {CG_CASE(node_w), "node"},       {CG_CASE(tree_w), "tree"},
        {CG_CASE(maps_w), "maps"},       {CG_CASE(arrays_w), "arrays"},
        {CG_CASE(pinned_w), "pinned"},   {CG_CASE(ev_old_rich), "rich"},
};
#define N_PAIRS ((int)(sizeof pairs / sizeof *pairs))

#define IDENTITY_ITERATIONS 300
#define EVOLVE_ITERATIONS   300

static avrogen_arena arena;   /* random structs and generic values */
static avrogen_arena decoded; /* what decoders allocate */
static avrogen_arena planned; /* what plans allocate, where both are compared */

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_init(&decoded, NULL);
    avrogen_arena_init(&planned, NULL);
    /* Corrupted block counts of zero-byte items (hollows) would otherwise ask
     * for up to 2^26 items' storage: both decoders stop at the budget alike. */
    avrogen_arena_set_budget(&decoded, (size_t)1 << 24);
    avrogen_arena_set_budget(&planned, (size_t)1 << 24);
}

static void teardown(void)
{
    avrogen_arena_fini(&planned);
    avrogen_arena_fini(&decoded);
    avrogen_arena_fini(&arena);
}

static const cg_case *find_reader(const char *name)
{
    for (int i = 0; i < N_READERS; i++)
        if (strcmp(readers[i].name, name) == 0)
            return &readers[i];
    ck_abort_msg("no reader %s", name);
    return NULL;
}

static avrogen_schema *parse_schema(const char *json)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse(json, strlen(json), NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "schema: %s: %s", d.path, d.msg);
    return s;
}

static avrogen_type_plan *new_plan(const avrogen_node *writer, const avrogen_type *reader)
{
    avrogen_type_plan *p = NULL;
    avrogen_diag why;
    avrogen_status st = avrogen_type_plan_new(writer, reader, NULL, &p, &why);
    ck_assert_msg(st == AVROGEN_OK, "%s: plan: %s at %s", reader->name, why.msg, why.path);
    return p;
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

/* The outcome of one decode of an exact-size copy of the input. */
typedef struct outcome {
    avrogen_status st;
    size_t offset; /* consumed, or where the error is */
    const char *msg;
} outcome;

/* Decode `len` bytes at `input` (an exact-size copy the caller keeps alive
 * while it looks at views into it) with plan p, or with case c's decoder. */
static outcome plan_decode(const avrogen_type_plan *p, const uint8_t *input, size_t len, void *dst)
{
    avrogen_reader r;
    avrogen_reader_init(&r, input, len);
    outcome o;
    o.st = avrogen_type_plan_decode(p, &r, dst, &planned);
    o.offset = o.st == AVROGEN_OK ? avrogen_reader_offset(&r) : r.err_offset;
    /* The message may be r's own err_text (the path): kept past r's life. */
    static char text[AVROGEN_READER_MSG_CAP];
    snprintf(text, sizeof text, "%s", r.err_msg != NULL ? r.err_msg : "");
    o.msg = r.err_msg != NULL ? text : NULL;
    return o;
}

static outcome direct_decode(const cg_case *c, const uint8_t *input, size_t len, void *dst)
{
    avrogen_reader r;
    avrogen_reader_init(&r, input, len);
    outcome o;
    o.st = c->decode(&r, dst, &decoded);
    o.offset = o.st == AVROGEN_OK ? avrogen_reader_offset(&r) : r.err_offset;
    static char text[AVROGEN_READER_MSG_CAP];
    snprintf(text, sizeof text, "%s", r.err_msg != NULL ? r.err_msg : "");
    o.msg = r.err_msg != NULL ? text : NULL;
    return o;
}

/* Encode v with case c's generated code into a growable writer. */
static void encode(const cg_case *c, const void *v, avrogen_writer *w)
{
    avrogen_writer_init_growable(w, NULL);
    ck_assert_int_eq(c->encode(w, v), AVROGEN_OK);
}

/* ---- identity: the plan of a record's own schema is its generated decoder ------ */

/* Both decoders on the same bytes: the same status, offset and struct. */
static void same_as_direct(const cg_case *c, const avrogen_type_plan *p, const uint8_t *bytes,
                           size_t len, const char *what)
{
    size_t size = c->type->size;
    void *want = malloc(size), *got = malloc(size);
    memset(want, 0x5a, size);
    memset(got, 0xa5, size);
    uint8_t *in1 = exact_copy(bytes, len), *in2 = exact_copy(bytes, len);
    avrogen_arena_reset(&decoded);
    avrogen_arena_reset(&planned);
    outcome d = direct_decode(c, in1, len, want);
    outcome o = plan_decode(p, in2, len, got);
    ck_assert_msg(o.st == d.st, "%s: %s: plan %s, generated code %s", c->name, what,
                  avrogen_status_str(o.st), avrogen_status_str(d.st));
    ck_assert_msg(o.offset == d.offset, "%s: %s: plan at %zu, generated code at %zu", c->name, what,
                  o.offset, d.offset);
    const char *where;
    if (o.st == AVROGEN_OK)
        ck_assert_msg(cg_equal(c->type, want, got, &where), "%s: %s: differs at %s", c->name, what,
                      where);
    else
        ck_assert_msg(cg_all_zero(got, size), "%s: %s: not zeroed after error", c->name, what);
    free(in1);
    free(in2);
    free(want);
    free(got);
}

static void identity_one(const cg_case *c, const avrogen_type_plan *p, cg_rng *g, bool truncate)
{
    const avrogen_type *t = c->type;
    void *v = calloc(1, t->size), *back = malloc(t->size);
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_nonnull(back);
    avrogen_arena_reset(&arena);
    avrogen_arena_reset(&decoded);
    cg_fill(g, t, v, &arena, 4);
    avrogen_writer w;
    encode(c, v, &w);
    const uint8_t *bytes = avrogen_writer_data(&w);
    size_t len = avrogen_writer_len(&w);

    /* Over garbage, the struct comes back whole; views point into the input. */
    uint8_t *input = exact_copy(bytes, len);
    avrogen_reader r;
    memset(back, 0xa5, t->size);
    avrogen_reader_init(&r, input, len);
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, back, &decoded), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_offset(&r), len);
    const char *where;
    ck_assert_msg(cg_equal(t, v, back, &where), "%s: plan result differs at %s", c->name, where);
    ck_assert_msg(cg_views_within(t, back, input, len), "%s: a view points outside the input",
                  c->name);
    free(input);
    same_as_direct(c, p, bytes, len, "whole");

    if (truncate) {
        size_t step = len > 2048 ? len / 512 : 1;
        for (size_t cut = 0; cut < len; cut += step) {
            avrogen_arena_reset(&decoded);
            same_as_direct(c, p, bytes, cut, "truncated");
        }
    }
    for (int k = 0; k < 4 && len != 0; k++) {
        uint8_t *bad = exact_copy(bytes, len);
        bad[cg_below(g, len)] ^= (uint8_t)(1u << cg_below(g, 8));
        if (cg_below(g, 2) == 0)
            bad[cg_below(g, len)] = (uint8_t)cg_next(g);
        avrogen_arena_reset(&decoded);
        same_as_direct(c, p, bad, len, "corrupted");
        free(bad);
    }
    avrogen_writer_fini(&w);
    free(back);
    free(v);
}

START_TEST(test_identity)
{
    const cg_case *c = &readers[_i];
    avrogen_schema *s = parse_schema(avrogen_type_schema(c->type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(s), c->type);
    cg_rng g = {UINT64_C(0x5851f42d4c957f2d) ^ (uint64_t)(_i + 1) * UINT64_C(0x100000001b3)};
    for (int n = 0; n < IDENTITY_ITERATIONS; n++)
        identity_one(c, p, &g, n % 10 == 0);
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
}
END_TEST

/* Decode hex with the identity plan of case c and with its generated decoder. */
static void identity_hex(const char *name, const char *hex)
{
    const cg_case *c = find_reader(name);
    avrogen_schema *s = parse_schema(avrogen_type_schema(c->type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(s), c->type);
    uint8_t buf[512];
    size_t n = test_unhex(hex, buf, sizeof buf);
    avrogen_arena_reset(&decoded);
    same_as_direct(c, p, buf, n, hex);
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
}

START_TEST(test_identity_hostile)
{
    /* The malformed inputs of test_codegen.c's hostile table, and more. */
    static const struct {
        const char *name, *hex;
    } inputs[] = {
            {"h_enum", "06"},
            {"h_enum", "01"},
            {"h_enum", "80 80 80 80 10"},
            {"h_union", "04"},
            {"h_union", "03"},
            {"h_union", "02 04 ff"},
            {"h_chars", "08 61 62 63 64"},
            {"h_chars", "02 ff"},
            {"h_exact", "06 02 04 06 00"},
            {"h_exact", "0a 02 04 06 08 0a 00"},
            {"h_exact", "00"},
            {"h_i8", "80 02"},
            {"h_i8", "81 02"},
            {"h_u16", "80 80 08"},
            {"h_u16", "01"},
            {"h_u32", "80 80 80 80 20"},
            {"h_u32", "01"},
            {"h_decimal", "12 01 00 00 00 00 00 00 00 00"},
            {"h_udecimal", "02 80"},
            {"h_count", "80 04 00"},
            {"h_doubles", "04 00 00 00 00 00 00 f0 3f 00"},
            {"h_doubles", "01 01"},
            {"hollows", "80 80 80 80 01 00 00"},
            {"h_count", "fe 03"},
            {"h_exact", "08 02 04 06 08 00 00"},
    };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        identity_hex(inputs[i].name, inputs[i].hex);
}
END_TEST

/*
 * Issue 12: a record that takes no bytes costs an item of the per-datum budget
 * each time it is read, as a block item does: generated code, plans and the
 * generic runtime all stop at the same bound (1000 hollows: 2000 items).
 */
START_TEST(test_identity_zero_byte_budget)
{
    const cg_case *c = find_reader("hollows");
    avrogen_schema *s = parse_schema(avrogen_type_schema(c->type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(s), c->type);
    uint8_t in[8];
    size_t n = test_unhex("d0 0f 00 0e", in, sizeof in); /* 1000 items, after = 7 */
    for (size_t budget = 1999; budget <= 2000; budget++) {
        avrogen_status want = budget == 2000 ? AVROGEN_OK : AVROGEN_E_LIMIT;
        struct hollows h;
        avrogen_reader r;
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        avrogen_arena_reset(&decoded);
        ck_assert_int_eq(hollows_avro_decode(&r, &h, &decoded), want);
        if (want == AVROGEN_OK)
            ck_assert(h.n_items == 1000 && h.after == 7);
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        avrogen_arena_reset(&decoded);
        ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &h, &decoded), want);
        avrogen_value v;
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        avrogen_arena_reset(&arena);
        ck_assert_int_eq(avrogen_value_decode(&r, avrogen_schema_root(s), &v, &arena), want);
        avrogen_reader_init(&r, in, n);
        r.max_items = budget;
        avrogen_reader_begin_datum(&r);
        ck_assert_int_eq(avrogen_skip(&r, avrogen_schema_root(s)), want);
    }
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(test_identity_skipped_zeroed)
{
    /* AVRO_SKIP members read as zero, bit-field included, also in structs
     * from the arena. */
    const cg_case *c = find_reader("prims");
    avrogen_schema *s = parse_schema(avrogen_type_schema(c->type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(s), c->type);
    struct prims v;
    memset(&v, 0, sizeof v);
    v.cache = &v;
    v.bits = 5;
    avrogen_writer w;
    encode(c, &v, &w);
    struct prims back;
    memset(&back, 0xa5, sizeof back);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &back, &decoded), AVROGEN_OK);
    ck_assert_ptr_null(back.cache);
    ck_assert_uint_eq(back.bits, 0);
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);

    c = find_reader("hollows");
    s = parse_schema(avrogen_type_schema(c->type));
    p = new_plan(avrogen_schema_root(s), c->type);
    struct hollow items[3];
    struct hollows h = {items, 3, 7};
    avrogen_writer_reset(&w);
    ck_assert_int_eq(hollows_avro_encode(&w, &h), AVROGEN_OK);
    avrogen_arena_reset(&decoded);
    memset(avrogen_arena_alloc(&decoded, 256), 0xa5, 256);
    avrogen_arena_reset(&decoded);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &h, &decoded), AVROGEN_OK);
    ck_assert_uint_eq(h.n_items, 3);
    ck_assert_int_eq(h.after, 7);
    for (size_t i = 0; i < 3; i++)
        ck_assert_ptr_null(h.items[i].cache);
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_identity_depth)
{
    /* Recursive records take a nesting level each, as in generated code: a
     * list of 1001 passes the default max_depth (1000) only when it is raised. */
    size_t n = 1001;
    struct node *nodes = calloc(n, sizeof *nodes);
    for (size_t i = 0; i < n; i++) {
        nodes[i].value = (int64_t)i;
        nodes[i].next = i + 1 < n ? &nodes[i + 1] : NULL;
    }
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    w.max_depth = (unsigned)n;
    ck_assert_int_eq(node_avro_encode(&w, &nodes[0]), AVROGEN_OK);
    free(nodes);
    avrogen_schema *s = parse_schema(avrogen_type_schema(&node_avro_type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(s), &node_avro_type);
    struct node head;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &head, &decoded), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&head, sizeof head));
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    r.max_depth = (unsigned)n;
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &head, &decoded), AVROGEN_OK);
    size_t k = 0;
    for (const struct node *q = &head; q != NULL; q = q->next)
        ck_assert_int_eq(q->value, (int64_t)k++);
    ck_assert_uint_eq(k, n);
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);

    /* Mutually recursive records: both count, at the same depths as in the
     * generated decoder. */
    struct company co[6];
    struct person pe[6];
    for (int i = 0; i < 6; i++) {
        co[i].name = (char *)"c";
        co[i].owner = &pe[i];
        pe[i].name = (char *)"p";
        pe[i].employer = i + 1 < 6 ? &co[i + 1] : NULL;
    }
    const cg_case *c = find_reader("company");
    encode(c, &co[0], &w);
    s = parse_schema(avrogen_type_schema(c->type));
    p = new_plan(avrogen_schema_root(s), c->type);
    for (unsigned depth = 1; depth < 16; depth++) {
        struct company x, y;
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        r.max_depth = depth;
        avrogen_status direct = c->decode(&r, &x, &decoded);
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        r.max_depth = depth;
        avrogen_status by_plan = avrogen_type_plan_decode(p, &r, &y, &decoded);
        ck_assert_msg(direct == by_plan, "max_depth %u: %s vs %s", depth,
                      avrogen_status_str(direct), avrogen_status_str(by_plan));
        ck_assert_int_eq(direct, depth < 12 ? AVROGEN_E_LIMIT : AVROGEN_OK);
    }
    avrogen_type_plan_free(p);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);
}
END_TEST

/* ---- evolution: plan vs generic resolver ---------------------------------------- */

typedef struct evolve_ctx {
    const cg_case *writer;
    const cg_case *reader;
    const avrogen_node *wroot, *rroot;
    avrogen_type_plan *plan;
    avrogen_resolver *res;
    size_t compared; /* datums both read, with equal results */
    size_t refused;  /* datums both refused, alike */
} evolve_ctx;

/* Decode bytes both ways and compare; returns the status. */
static avrogen_status evolve_check(evolve_ctx *x, const uint8_t *bytes, size_t len)
{
    const avrogen_type *rt = x->reader->type;
    void *got = malloc(rt->size);
    memset(got, 0xa5, rt->size);
    avrogen_arena_reset(&decoded);
    avrogen_arena_reset(&planned);
    uint8_t *input = exact_copy(bytes, len);
    outcome o = plan_decode(x->plan, input, len, got);

    uint8_t *copy = exact_copy(bytes, len);
    avrogen_reader r;
    avrogen_reader_init(&r, copy, len);
    avrogen_value gv;
    avrogen_status gs = avrogen_resolver_decode(x->res, &r, &gv, &arena);
    ck_assert_msg(o.st == gs, "%s -> %s: plan %s (%s), resolver %s (%s)", x->writer->name,
                  x->reader->name, avrogen_status_str(o.st), o.msg ? o.msg : "",
                  avrogen_status_str(gs), r.err_msg ? r.err_msg : "");
    if (gs != AVROGEN_OK) {
        ck_assert(cg_all_zero(got, rt->size));
        if (gs == AVROGEN_E_MISMATCH)
            ck_assert_str_eq(o.msg, r.err_msg);
        x->refused++;
    } else {
        ck_assert_uint_eq(o.offset, len);
        ck_assert_uint_eq(avrogen_reader_offset(&r), len);
        /* The struct, written by the reader's generated code, is what the
         * generic resolver read. */
        avrogen_writer pw, gw;
        encode(x->reader, got, &pw);
        avrogen_writer_init_growable(&gw, NULL);
        ck_assert_int_eq(avrogen_value_encode(&gw, &gv), AVROGEN_OK);
        ck_assert_msg(avrogen_writer_len(&pw) == avrogen_writer_len(&gw) &&
                              memcmp(avrogen_writer_data(&pw), avrogen_writer_data(&gw),
                                     avrogen_writer_len(&gw)) == 0,
                      "%s -> %s: the plan's struct encodes differently", x->writer->name,
                      x->reader->name);
        /* And the generated decoder reads those bytes as the same struct. */
        void *want = malloc(rt->size);
        outcome d =
                direct_decode(x->reader, avrogen_writer_data(&gw), avrogen_writer_len(&gw), want);
        ck_assert_int_eq(d.st, AVROGEN_OK);
        const char *where;
        ck_assert_msg(cg_equal(rt, want, got, &where), "%s -> %s: differs at %s", x->writer->name,
                      x->reader->name, where);
        free(want);
        avrogen_writer_fini(&pw);
        avrogen_writer_fini(&gw);
        x->compared++;
    }
    free(copy);
    free(input);
    free(got);
    return o.st;
}

START_TEST(test_evolve)
{
    evolve_ctx x;
    memset(&x, 0, sizeof x);
    x.writer = &pairs[_i].writer;
    x.reader = find_reader(pairs[_i].reader);
    avrogen_schema *ws = parse_schema(avrogen_type_schema(x.writer->type));
    avrogen_schema *rs = parse_schema(avrogen_type_schema(x.reader->type));
    x.wroot = avrogen_schema_root(ws);
    x.rroot = avrogen_schema_root(rs);
    x.plan = new_plan(x.wroot, x.reader->type);
    avrogen_diag why;
    ck_assert_msg(avrogen_resolver_new(x.wroot, x.rroot, NULL, &x.res, &why) == AVROGEN_OK, "%s",
                  why.msg);
    cg_rng g = {UINT64_C(0x2545f4914f6cdd1d) ^ (uint64_t)(_i + 1) * UINT64_C(0x9e3779b97f4a7c15)};
    void *v = malloc(x.writer->type->size);
    for (int n = 0; n < EVOLVE_ITERATIONS; n++) {
        memset(v, 0, x.writer->type->size);
        avrogen_arena_reset(&arena);
        cg_fill(&g, x.writer->type, v, &arena, 3);
        avrogen_writer w;
        encode(x.writer, v, &w);
        const uint8_t *bytes = avrogen_writer_data(&w);
        size_t len = avrogen_writer_len(&w);
        evolve_check(&x, bytes, len);
        if (n % 10 == 0) {
            /* Every truncation fails both ways, and the plan zeroes the struct. */
            void *got = malloc(x.reader->type->size);
            for (size_t cut = 0; cut < len; cut++) {
                avrogen_arena_reset(&planned);
                memset(got, 0xa5, x.reader->type->size);
                uint8_t *input = exact_copy(bytes, cut);
                outcome o = plan_decode(x.plan, input, cut, got);
                free(input);
                ck_assert_msg(o.st != AVROGEN_OK, "%s: a %zu-byte prefix of %zu decoded",
                              x.writer->name, cut, len);
                ck_assert(cg_all_zero(got, x.reader->type->size));
                avrogen_reader r;
                avrogen_value gv;
                uint8_t *copy = exact_copy(bytes, cut);
                avrogen_reader_init(&r, copy, cut);
                ck_assert_int_ne(avrogen_resolver_decode(x.res, &r, &gv, &arena), AVROGEN_OK);
                free(copy);
            }
            free(got);
        }
        avrogen_writer_fini(&w);
    }
    /* The pairs are chosen so that most datums can be read; some cannot (a
     * writer enum symbol or union branch the reader lacks). */
    ck_assert_msg(x.compared >= EVOLVE_ITERATIONS / 2, "%s: only %zu of %d compared",
                  x.writer->name, x.compared, EVOLVE_ITERATIONS);
    free(v);
    avrogen_resolver_free(x.res);
    avrogen_type_plan_free(x.plan);
    avrogen_schema_free(rs);
    avrogen_schema_free(ws);
}
END_TEST

/* A datum of `wjson` (a writer schema) given as Avro JSON, checked against the
 * generic resolver for reader case `name`; returns the plan's status. */
static avrogen_status evolve_json(const char *wjson, const char *name, const char *datum, void *out)
{
    evolve_ctx x;
    memset(&x, 0, sizeof x);
    x.writer = x.reader = find_reader(name);
    avrogen_schema *ws = parse_schema(wjson);
    avrogen_schema *rs = parse_schema(avrogen_type_schema(x.reader->type));
    x.wroot = avrogen_schema_root(ws);
    x.rroot = avrogen_schema_root(rs);
    x.plan = new_plan(x.wroot, x.reader->type);
    avrogen_diag why;
    ck_assert_msg(avrogen_resolver_new(x.wroot, x.rroot, NULL, &x.res, &why) == AVROGEN_OK, "%s",
                  why.msg);
    avrogen_value v;
    avrogen_arena_reset(&arena);
    ck_assert_int_eq(avrogen_value_from_json(datum, strlen(datum), x.wroot, &v, &arena, &why),
                     AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
    avrogen_status st = evolve_check(&x, avrogen_writer_data(&w), avrogen_writer_len(&w));
    if (out != NULL) {
        /* The caller looks at the struct: decode again into it (its views
         * point into the writer's buffer, which is freed; none are used). */
        avrogen_reader r;
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        (void)!avrogen_type_plan_decode(x.plan, &r, out, &decoded);
    }
    avrogen_writer_fini(&w);
    avrogen_resolver_free(x.res);
    avrogen_type_plan_free(x.plan);
    avrogen_schema_free(rs);
    avrogen_schema_free(ws);
    return st;
}

START_TEST(test_evolve_json)
{
    /* bytes read as a string: UTF-8 is the reader's business. */
    const char *bytes_union = "{\"type\": \"record\", \"name\": \"h_union\", \"namespace\": \"cg\","
                              " \"fields\": [{\"name\": \"s\", \"type\": [\"null\", \"bytes\"]}]}";
    struct h_union u;
    ck_assert_int_eq(evolve_json(bytes_union, "h_union", "{\"s\": {\"bytes\": \"abc\"}}", &u),
                     AVROGEN_OK);
    ck_assert_str_eq(u.s, "abc");
    ck_assert_int_eq(
            evolve_json(bytes_union, "h_union", "{\"s\": {\"bytes\": \"a\\u00ff\"}}", NULL),
            AVROGEN_E_INVALID);
    ck_assert_int_eq(evolve_json(bytes_union, "h_union", "{\"s\": null}", &u), AVROGEN_OK);
    ck_assert_ptr_null(u.s);

    /* A writer union read as a plain type: the branch that cannot be read fails. */
    const char *maybe_long = "{\"type\": \"record\", \"name\": \"h_u32\", \"namespace\": \"cg\","
                             " \"fields\": [{\"name\": \"v\", \"type\": [\"int\", \"null\"]}]}";
    struct h_u32 u32;
    ck_assert_int_eq(evolve_json(maybe_long, "h_u32", "{\"v\": {\"int\": 7}}", &u32), AVROGEN_OK);
    ck_assert_uint_eq(u32.v, 7);
    ck_assert_int_eq(evolve_json(maybe_long, "h_u32", "{\"v\": null}", NULL), AVROGEN_E_MISMATCH);

    /* long and int promoted to double exactly as the generic resolver does. */
    const char *coord = "{\"type\": \"record\", \"name\": \"cg_coord\", \"namespace\": \"cg.base\","
                        " \"fields\": [{\"name\": \"lat\", \"type\": \"long\"},"
                        " {\"name\": \"lon\", \"type\": \"int\"}]}";
    struct cg_coord cc;
    ck_assert_int_eq(
            evolve_json(coord, "cg_coord", "{\"lat\": 9007199254740993, \"lon\": -5}", &cc),
            AVROGEN_OK);
    ck_assert(cc.lat == 9007199254740992.0 && cc.lon == -5.0);

    /* A writer whose root is a union holding the record. */
    const char *rooted = "[\"null\", {\"type\": \"record\", \"name\": \"node\", \"namespace\":"
                         " \"cg\", \"fields\": [{\"name\": \"value\", \"type\": \"int\"},"
                         " {\"name\": \"next\", \"type\": [\"null\", \"node\"]}]}]";
    struct node nd;
    ck_assert_int_eq(evolve_json(rooted, "node",
                                 "{\"cg.node\": {\"value\": 3, \"next\": {\"cg.node\":"
                                 " {\"value\": 4, \"next\": null}}}}",
                                 &nd),
                     AVROGEN_OK);
    ck_assert_int_eq(nd.value, 3);
    ck_assert_int_eq(nd.next->value, 4);
    ck_assert_int_eq(evolve_json(rooted, "node", "null", NULL), AVROGEN_E_MISMATCH);

    /* Enum symbols by name, whatever their index. */
    const char *level = "{\"type\": \"record\", \"name\": \"h_enum\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"level\", \"type\": {\"type\": \"enum\","
                        " \"name\": \"h_level\", \"symbols\": [\"HIGH\", \"GONE\", \"LOW\"]}}]}";
    struct h_enum he;
    ck_assert_int_eq(evolve_json(level, "h_enum", "{\"level\": \"HIGH\"}", &he), AVROGEN_OK);
    ck_assert_int_eq(he.level, H_HIGH);
    ck_assert_int_eq(evolve_json(level, "h_enum", "{\"level\": \"LOW\"}", &he), AVROGEN_OK);
    ck_assert_int_eq(he.level, H_LOW);
    ck_assert_int_eq(evolve_json(level, "h_enum", "{\"level\": \"GONE\"}", NULL),
                     AVROGEN_E_MISMATCH);

    /* One writer field into every reader member that names it, each resolved
     * on its own terms, around a skipped field; the bytes are consumed once
     * (evolve_check), as the generic resolver reads them. */
    const char *twice = "{\"type\": \"record\", \"name\": \"ev_twice\", \"namespace\":"
                        " \"cg.ev\", \"fields\": [{\"name\": \"old\", \"type\": \"int\"},"
                        " {\"name\": \"gone\", \"type\": \"string\"},"
                        " {\"name\": \"label\", \"type\": \"string\"},"
                        " {\"name\": \"at\", \"type\": {\"type\": \"record\", \"name\":"
                        " \"ev_point\", \"fields\": [{\"name\": \"x\", \"type\": \"int\"},"
                        " {\"name\": \"y\", \"type\": \"long\"}]}}]}";
    struct ev_twice tw;
    ck_assert_int_eq(evolve_json(twice, "ev_twice",
                                 "{\"old\": -7, \"gone\": \"xyz\", \"label\": \"hi\","
                                 " \"at\": {\"x\": 3, \"y\": 4}}",
                                 &tw),
                     AVROGEN_OK);
    ck_assert_int_eq(tw.old, -7);
    ck_assert_int_eq(tw.wide, -7);
    ck_assert(tw.real == -7.0);
    ck_assert_str_eq(tw.label, "hi");
    ck_assert_str_eq(tw.copy, "hi");
    ck_assert_int_eq(tw.at.x, 3);
    ck_assert_int_eq(tw.again.x, 3);
    ck_assert_int_eq(tw.again.y, 4);
}
END_TEST

/* Decode hex written with `wjson` by the plan for reader `name`. */
static outcome plan_hex(const char *wjson, const char *name, const char *hex, void *out)
{
    const cg_case *c = find_reader(name);
    avrogen_schema *ws = parse_schema(wjson);
    avrogen_type_plan *p = new_plan(avrogen_schema_root(ws), c->type);
    uint8_t buf[256];
    size_t n = test_unhex(hex, buf, sizeof buf);
    void *v = out != NULL ? out : malloc(c->type->size);
    memset(v, 0xa5, c->type->size);
    avrogen_arena_reset(&planned);
    uint8_t *input = exact_copy(buf, n); /* the callers look at no view into it */
    outcome o = plan_decode(p, input, n, v);
    free(input);
    /* A mismatch's message belongs to the plan, freed below. */
    static char msg[256];
    snprintf(msg, sizeof msg, "%s", o.msg != NULL ? o.msg : "");
    o.msg = msg;
    if (o.st != AVROGEN_OK)
        ck_assert(cg_all_zero(v, c->type->size));
    if (out == NULL)
        free(v);
    avrogen_type_plan_free(p);
    avrogen_schema_free(ws);
    return o;
}

START_TEST(test_evolve_c_limits)
{
    /* What Avro can say but the reader's C types cannot hold fails as in
     * generated code, where the generic resolver (no C types) reads it. */
    const char *as_int = "{\"type\": \"record\", \"name\": \"h_u32\", \"namespace\": \"cg\","
                         " \"fields\": [{\"name\": \"v\", \"type\": \"int\"}]}";
    struct h_u32 u;
    outcome o = plan_hex(as_int, "h_u32", "01", NULL); /* -1 as an int into a uint32_t long */
    ck_assert_int_eq(o.st, AVROGEN_E_INVALID);
    ck_assert_str_eq(o.msg, "h_u32.v: long out of range of uint32_t");
    o = plan_hex(as_int, "h_u32", "fe ff ff ff 0f", &u); /* INT32_MAX */
    ck_assert_int_eq(o.st, AVROGEN_OK);
    ck_assert_uint_eq(u.v, INT32_MAX);

    const char *i8 = "{\"type\": \"record\", \"name\": \"h_i8\", \"namespace\": \"cg\","
                     " \"fields\": [{\"name\": \"v\", \"type\": \"int\"}]}";
    o = plan_hex(i8, "h_i8", "90 03", NULL); /* 200 */
    ck_assert_int_eq(o.st, AVROGEN_E_INVALID);
    ck_assert_str_eq(o.msg, "h_i8.v: int out of range of its C type");

    const char *chars = "{\"type\": \"record\", \"name\": \"h_chars\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"text\", \"type\": \"bytes\"}]}";
    struct h_chars hc;
    ck_assert_int_eq(plan_hex(chars, "h_chars", "08 61 62 63 64", NULL).st, AVROGEN_E_INVALID);
    ck_assert_int_eq(plan_hex(chars, "h_chars", "06 61 62 63", &hc).st, AVROGEN_OK);
    ck_assert_str_eq(hc.text, "abc");

    /* Writer data that is malformed whatever the reader: indexes out of the
     * writer's range. */
    const char *level = "{\"type\": \"record\", \"name\": \"h_enum\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"level\", \"type\": {\"type\": \"enum\","
                        " \"name\": \"h_level\", \"symbols\": [\"HIGH\", \"LOW\"]}}]}";
    o = plan_hex(level, "h_enum", "04", NULL);
    ck_assert_int_eq(o.st, AVROGEN_E_INVALID);
    ck_assert_str_eq(o.msg, "h_enum.level: enum index out of range");
    const char *maybe = "{\"type\": \"record\", \"name\": \"h_union\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"s\", \"type\": [\"string\", \"int\","
                        " \"null\"]}]}";
    o = plan_hex(maybe, "h_union", "06", NULL);
    ck_assert_int_eq(o.st, AVROGEN_E_INVALID);
    ck_assert_str_eq(o.msg, "h_union.s: union index out of range");
    o = plan_hex(maybe, "h_union", "02 04", NULL);
    ck_assert_int_eq(o.st, AVROGEN_E_MISMATCH);
    ck_assert_str_eq(o.msg, "h_union.s: the writer's union branch 1 (int) matches nothing in the "
                            "reader's schema");
    /* Skipped writer fields are checked as the generic skip checks them. */
    const char *extra = "{\"type\": \"record\", \"name\": \"h_i8\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"junk\", \"type\": {\"type\": \"array\","
                        " \"items\": \"long\"}}, {\"name\": \"v\", \"type\": \"int\"}]}";
    ck_assert_int_eq(plan_hex(extra, "h_i8", "04 02 04 00 06", NULL).st, AVROGEN_OK);
    ck_assert_int_eq(plan_hex(extra, "h_i8", "04 02 00 06", NULL).st, AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(plan_hex(extra, "h_i8", "03 01", NULL).st, AVROGEN_E_INVALID);
}
END_TEST

START_TEST(test_evolve_defaults)
{
    /* Every field cg.ev.rich has beyond what its writer knows takes its default. */
    struct ev_old_rich old;
    memset(&old, 0, sizeof old);
    old.extra = (char *)"skipped";
    old.total = 2.5f;
    old.status = EV_OLD_ARCHIVED; /* not a reader symbol: the reader's default */
    old.id = -42;
    old.where.z = (char *)"zz";
    old.where.x = 9;
    old.title = (char *)"t";
    avrogen_writer w;
    encode(&pairs[N_PAIRS - 1].writer, &old, &w);
    const cg_case *c = find_reader("rich");
    avrogen_schema *ws = parse_schema(avrogen_type_schema(&ev_old_rich_avro_type));
    avrogen_type_plan *p = new_plan(avrogen_schema_root(ws), c->type);
    struct rich v;
    memset(&v, 0xa5, sizeof v);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_OK);
    ck_assert_int_eq(v.id, -42);
    ck_assert_int_eq(v.status, EV_STATUS_UNKNOWN);
    ck_assert(v.amount == 2.5);
    ck_assert_int_eq(v.where.x, 9);
    ck_assert_int_eq(v.where.y, -1);
    ck_assert_str_eq(v.title, "t");
    ck_assert_int_eq(v.small, -7);
    ck_assert_uint_eq(v.big, 4000000000u);
    ck_assert(v.ratio == 0.25f);
    ck_assert(v.on);
    ck_assert_str_eq(v.name, "anon");
    ck_assert_str_eq(v.code, "abc");
    ck_assert_uint_eq(v.label.len, 3);
    ck_assert_mem_eq(v.label.ptr, "lbl", 3);
    ck_assert_uint_eq(v.blob.len, 2);
    ck_assert_mem_eq(v.blob.ptr, "\x01\xff", 2);
    ck_assert_uint_eq(v.n_raw, 2);
    ck_assert_mem_eq(v.raw, "xy", 2);
    ck_assert_mem_eq(v.key, "\x09\x01\x02\xff", 4);
    ck_assert_int_eq(v.cents, 0x0102);
    ck_assert_int_eq(v.next, EV_STATUS_DONE);
    ck_assert_ptr_null(v.opt);
    ck_assert_ptr_nonnull(v.opt2);
    ck_assert_int_eq(*v.opt2, 42);
    ck_assert_str_eq(v.note, "n");
    ck_assert_uint_eq(v.n_list, 3);
    ck_assert(v.list[0] == 1 && v.list[1] == 2 && v.list[2] == 3);
    ck_assert(v.triple[0] == 7 && v.triple[1] == 8 && v.triple[2] == 9);
    ck_assert(v.origin.x == 5 && v.origin.y == -1);
    ck_assert_ptr_null(v.maybe_point);
    ck_assert_uint_eq(v.n_tags, 2);
    ck_assert_str_eq(v.tags[0].key, "a");
    ck_assert_int_eq(v.tags[0].value, 1);
    ck_assert_str_eq(v.tags[1].key, "b");
    ck_assert_int_eq(v.tags[1].value, 2);
    ck_assert_uint_eq(v.which, 0);
    ck_assert_int_eq(v.choice.n, 12);
    ck_assert_ptr_null(v.cache);

    /* The writer's symbols that the reader has keep their meaning. */
    old.status = EV_OLD_NEW;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(ev_old_rich_avro_encode(&w, &old), AVROGEN_OK);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_OK);
    ck_assert_int_eq(v.status, EV_STATUS_NEW);

    /* Defaults count against the datum's item budget like data. */
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    r.max_items = 7; /* list's 3 items, triple's 3, tags' 2 */
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&v, sizeof v));
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    r.max_items = 8;
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_OK);

    /* A null title cannot be read as the reader's plain string. */
    old.title = NULL;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(ev_old_rich_avro_encode(&w, &old), AVROGEN_OK);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_E_MISMATCH);
    ck_assert_str_eq(r.err_msg, "rich.title: the writer's union branch 0 (null) matches nothing in "
                                "the reader's schema");
    ck_assert(cg_all_zero(&v, sizeof v));
    avrogen_type_plan_free(p);
    avrogen_schema_free(ws);
    avrogen_writer_fini(&w);
}
END_TEST

/* ---- building ----------------------------------------------------------------- */

/*
 * spec §Schema Resolution: named types match by unqualified name, so a writer
 * record in another namespace (its enum and fixed too) reads into the
 * generated struct, exactly as the generic resolver reads it (issue 12).
 */
START_TEST(test_build_other_namespace)
{
    const cg_case *c = find_reader("h_decimal");
    avrogen_schema *ws = parse_schema(
            "{\"type\": \"record\", \"name\": \"h_decimal\", \"namespace\": \"elsewhere\","
            " \"fields\": [{\"name\": \"v\", \"type\": {\"type\": \"bytes\", \"logicalType\":"
            " \"decimal\", \"precision\": 18, \"scale\": 0}}]}");
    avrogen_type_plan *p = new_plan(avrogen_schema_root(ws), c->type);
    static const uint8_t in[] = {0x04, 0x01, 0x00}; /* 256 */
    struct h_decimal v;
    avrogen_reader r;
    avrogen_reader_init(&r, in, sizeof in);
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_OK);
    ck_assert_int_eq(v.v, 256);
    avrogen_type_plan_free(p);
    avrogen_schema_free(ws);
}
END_TEST

START_TEST(test_build_incompatible)
{
    /* Pairs that do not resolve: the same status, path and reason as the
     * generic resolver gives. */
    static const struct {
        const char *reader, *writer;
    } bad[] = {
            {"node", "{\"type\": \"record\", \"name\": \"node\", \"namespace\": \"cg\", \"fields\":"
                     " [{\"name\": \"value\", \"type\": \"string\"}, {\"name\": \"next\","
                     " \"type\": \"null\"}]}"},
            {"h_i8", "{\"type\": \"record\", \"name\": \"h_i8\", \"namespace\": \"cg\","
                     " \"fields\": []}"},
            {"h_i8", "{\"type\": \"record\", \"name\": \"other\", \"namespace\": \"cg\","
                     " \"fields\": [{\"name\": \"v\", \"type\": \"int\"}]}"},
            {"h_i8", "\"int\""},
            {"pinned", "{\"type\": \"record\", \"name\": \"pinned\", \"namespace\": \"cg\","
                       " \"fields\": [{\"name\": \"id\", \"type\": \"int\"}, {\"name\":"
                       " \"where\", \"type\": \"string\"}]}"},
            {"h_union", "{\"type\": \"record\", \"name\": \"h_union\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"s\", \"type\": [\"int\", \"float\"]}]}"},
            {"maybe_texts", "{\"type\": \"record\", \"name\": \"maybe_texts\", \"namespace\":"
                            " \"cg\", \"fields\": [{\"name\": \"digest\", \"type\": {\"type\":"
                            " \"fixed\", \"name\": \"maybe_texts_digest\", \"size\": 5}}]}"},
            {"palette", "{\"type\": \"record\", \"name\": \"palette\", \"namespace\": \"cg\","
                        " \"fields\": [{\"name\": \"main\", \"type\": {\"type\": \"enum\","
                        " \"name\": \"other\", \"symbols\": [\"RED\"]}}]}"},
            {"arrays", "{\"type\": \"record\", \"name\": \"arrays\", \"namespace\": \"cg\","
                       " \"fields\": [{\"name\": \"doubles\", \"type\": {\"type\": \"array\","
                       " \"items\": \"string\"}}]}"},
            {"maps", "{\"type\": \"record\", \"name\": \"maps\", \"namespace\": \"cg\","
                     " \"fields\": [{\"name\": \"counters\", \"type\": {\"type\": \"array\","
                     " \"items\": \"long\"}}]}"},
            /* spec: decimals match only with the same scale and precision (issue 12). */
            {"h_decimal", "{\"type\": \"record\", \"name\": \"h_decimal\", \"namespace\":"
                          " \"cg\", \"fields\": [{\"name\": \"v\", \"type\": {\"type\":"
                          " \"bytes\", \"logicalType\": \"decimal\", \"precision\": 18,"
                          " \"scale\": 1}}]}"},
            {"h_decimal", "{\"type\": \"record\", \"name\": \"h_decimal\", \"namespace\":"
                          " \"cg\", \"fields\": [{\"name\": \"v\", \"type\": {\"type\":"
                          " \"bytes\", \"logicalType\": \"decimal\", \"precision\": 17,"
                          " \"scale\": 0}}]}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const cg_case *c = find_reader(bad[i].reader);
        avrogen_schema *ws = parse_schema(bad[i].writer);
        avrogen_schema *rs = parse_schema(avrogen_type_schema(c->type));
        avrogen_type_plan *p;
        avrogen_resolver *res = NULL;
        avrogen_diag pw, rw;
        avrogen_status ps = avrogen_type_plan_new(avrogen_schema_root(ws), c->type, NULL, &p, &pw);
        avrogen_status rst = avrogen_resolver_new(avrogen_schema_root(ws), avrogen_schema_root(rs),
                                                  NULL, &res, &rw);
        ck_assert_msg(ps == AVROGEN_E_MISMATCH && rst == AVROGEN_E_MISMATCH, "%zu: %s, %s", i,
                      avrogen_status_str(ps), avrogen_status_str(rst));
        ck_assert_ptr_null(p);
        ck_assert_str_eq(pw.path, rw.path);
        ck_assert_str_eq(pw.msg, rw.msg);
        avrogen_schema_free(rs);
        avrogen_schema_free(ws);
    }
}
END_TEST

START_TEST(test_build_defaults_that_do_not_fit)
{
    /* The generator refuses these defaults in AVRO_FIELD, so each case swaps
     * the descriptor's schema for one that has them; a plan that needs them
     * fails to build (the generic resolver, which has no C types, reads them). */
    static const struct {
        const char *reader, *reader_schema, *writer, *path, *msg;
    } cases[] = {
            {"ev_long_default",
             "{\"type\": \"record\", \"name\": \"ev_long_default\", \"namespace\": \"cg.ev\","
             " \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
             " {\"name\": \"code\", \"type\": \"string\", \"default\": \"toolong\"}]}",
             "{\"type\": \"record\", \"name\": \"ev_long_default\", \"namespace\": \"cg.ev\","
             " \"fields\": [{\"name\": \"id\", \"type\": \"int\"}]}",
             "/fields/1",
             "default of field \"code\" does not fit its C type: string longer than its "
             "char array"},
            {"ev_short_default",
             "{\"type\": \"record\", \"name\": \"ev_short_default\", \"namespace\": \"cg.ev\","
             " \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
             " {\"name\": \"three\", \"type\": {\"type\": \"array\", \"items\": \"long\"},"
             " \"default\": [1]}]}",
             "{\"type\": \"record\", \"name\": \"ev_short_default\", \"namespace\": \"cg.ev\","
             " \"fields\": [{\"name\": \"id\", \"type\": \"int\"}]}",
             "/fields/1",
             "default of field \"three\" does not fit its C type: fewer array items "
             "than its C array holds"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const cg_case *c = find_reader(cases[i].reader);
        avrogen_type reader = *c->type;
        cg_text text;
        cg_set_schema(&reader, &text, cases[i].reader_schema);
        avrogen_schema *ws = parse_schema(cases[i].writer);
        avrogen_type_plan *p;
        avrogen_diag why;
        ck_assert_int_eq(avrogen_type_plan_new(avrogen_schema_root(ws), &reader, NULL, &p, &why),
                         AVROGEN_E_SCHEMA);
        ck_assert_ptr_null(p);
        ck_assert_str_eq(why.path, cases[i].path);
        ck_assert_str_eq(why.msg, cases[i].msg);
        /* The generated schema has no default: the writer lacks the field. */
        ck_assert_int_eq(avrogen_type_plan_new(avrogen_schema_root(ws), c->type, NULL, &p, &why),
                         AVROGEN_E_MISMATCH);
        ck_assert_ptr_null(p);
        avrogen_schema_free(ws);
        /* The reader's own schema needs no default: that plan builds. */
        ws = parse_schema(cases[i].reader_schema);
        avrogen_type_plan_free(new_plan(avrogen_schema_root(ws), &reader));
        avrogen_schema_free(ws);
    }
}
END_TEST

START_TEST(test_build_bad_descriptors)
{
    avrogen_schema *ws = parse_schema(avrogen_type_schema(&h_i8_avro_type));
    const avrogen_node *root = avrogen_schema_root(ws);
    avrogen_type_plan *p;
    avrogen_diag why;
    /* A record from another header is described without its schema. */
    const avrogen_type *nested = segment_avro_type.fields[0].type;
    ck_assert_ptr_null(nested->schema_text);
    ck_assert_int_eq(avrogen_type_plan_new(root, nested, NULL, &p, &why), AVROGEN_E_ARG);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(avrogen_type_plan_new(root, palette_avro_type.fields[0].type, NULL, &p, &why),
                     AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_type_plan_new(NULL, &h_i8_avro_type, NULL, &p, &why), AVROGEN_E_ARG);

    /* A descriptor that says something its schema does not. */
    avrogen_field_desc field = h_i8_avro_type.fields[0];
    avrogen_type t = h_i8_avro_type;
    t.fields = &field;
    field.scalar = AVROGEN_SCALAR_I64; /* an int in 64 bits: no generated code does that */
    ck_assert_int_eq(avrogen_type_plan_new(root, &t, NULL, &p, &why), AVROGEN_E_ARG);
    ck_assert_str_eq(why.path, "/fields/0/type");
    field = h_i8_avro_type.fields[0];
    field.kind = AVROGEN_KIND_LONG;
    ck_assert_int_eq(avrogen_type_plan_new(root, &t, NULL, &p, &why), AVROGEN_E_ARG);
    t.name = "cg.other";
    field = h_i8_avro_type.fields[0];
    ck_assert_int_eq(avrogen_type_plan_new(root, &t, NULL, &p, &why), AVROGEN_E_ARG);
    t = h_i8_avro_type;
    cg_text text;
    cg_set_schema(&t, &text, "{\"type\": \"record\"");
    ck_assert_int_eq(avrogen_type_plan_new(root, &t, NULL, &p, &why), AVROGEN_E_ARG);
    avrogen_schema_free(ws);
}
END_TEST

/* Build a plan with an allocator failing at call 1, 2, ... until it succeeds:
 * E_NOMEM each time before, never a leak. */
static void build_until_ok(const char *writer_json, const avrogen_type *reader)
{
    avrogen_schema *ws = parse_schema(writer_json);
    long fail_at;
    for (fail_at = 1; fail_at < 100000; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        avrogen_type_plan *p;
        avrogen_diag why;
        avrogen_status st =
                avrogen_type_plan_new(avrogen_schema_root(ws), reader, &ta.base, &p, &why);
        if (st == AVROGEN_OK) {
            ck_assert_int_gt(ta.live, 0);
            avrogen_type_plan_free(p);
            ck_assert_int_eq(ta.live, 0);
            break;
        }
        ck_assert_msg(st == AVROGEN_E_NOMEM, "%s at %ld: %s (%s)", reader->name, fail_at,
                      avrogen_status_str(st), why.msg);
        ck_assert_ptr_null(p);
        ck_assert_int_eq(ta.live, 0);
    }
    ck_assert_int_gt(fail_at, 3);
    avrogen_schema_free(ws);
}

START_TEST(test_build_out_of_memory)
{
    build_until_ok(avrogen_type_schema(&ev_old_rich_avro_type), &rich_avro_type);
    build_until_ok(avrogen_type_schema(&prims_w_avro_type), &prims_avro_type);
    build_until_ok(avrogen_type_schema(&shape_w_avro_type), &shape_avro_type);
    build_until_ok(avrogen_type_schema(&node_w_avro_type), &node_avro_type);
    build_until_ok(avrogen_type_schema(&company_avro_type), &company_avro_type);
    build_until_ok(avrogen_type_schema(&maps_avro_type), &maps_avro_type);
}
END_TEST

/* ---- the plan cache ----------------------------------------------------------- */

/* node_w's schema with one more field: a distinct writer per n. */
static avrogen_schema *node_writer(int n)
{
    char json[512];
    snprintf(json, sizeof json,
             "{\"type\": \"record\", \"name\": \"node\", \"namespace\": \"cg\", \"fields\":"
             " [{\"name\": \"value\", \"type\": \"int\"}, {\"name\": \"next\", \"type\":"
             " [\"null\", \"node\"]}, {\"name\": \"x%d\", \"type\": \"string\"}]}",
             n);
    return parse_schema(json);
}

/* Decode a two-node list written with node_w through plan p. */
static void check_node_plan(const avrogen_type_plan *p)
{
    struct node_w second = {(char *)"b", NULL, 2}, first = {(char *)"a", &second, 1};
    avrogen_writer w;
    encode(&pairs[4].writer, &first, &w);
    struct node v;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(p, &r, &v, &decoded), AVROGEN_OK);
    ck_assert_int_eq(v.value, 1);
    ck_assert_ptr_nonnull(v.next);
    ck_assert_int_eq(v.next->value, 2);
    ck_assert_ptr_null(v.next->next);
    avrogen_writer_fini(&w);
}

START_TEST(test_cache_plans)
{
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_plan_cache *c = avrogen_plan_cache_new(&ta.base);
    ck_assert_ptr_nonnull(c);
    avrogen_schema *w1 = parse_schema(avrogen_type_schema(&node_w_avro_type));
    avrogen_schema *w2 = parse_schema(avrogen_type_schema(&node_w_avro_type));
    const avrogen_type_plan *p1, *p2;
    avrogen_diag why;
    ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w1, &node_avro_type, &p1, &why), AVROGEN_OK);
    /* Another schema object with the same fingerprint: the same plan. */
    ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w2, &node_avro_type, &p2, &why), AVROGEN_OK);
    ck_assert_ptr_eq(p1, p2);
    /* The cache has its own copy: the caller's schemas may go. */
    avrogen_schema_free(w1);
    avrogen_schema_free(w2);
    check_node_plan(p1);

    /* A generic resolver for the same writer is another entry. */
    avrogen_schema *rs = parse_schema(avrogen_type_schema(&node_avro_type));
    avrogen_schema *w3 = parse_schema(avrogen_type_schema(&node_w_avro_type));
    const avrogen_resolver *r1, *r2;
    ck_assert_int_eq(avrogen_plan_cache_resolver(c, w3, avrogen_schema_root(rs), &r1, &why),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_plan_cache_resolver(c, w3, avrogen_schema_root(rs), &r2, &why),
                     AVROGEN_OK);
    ck_assert_ptr_eq(r1, r2);
    ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w3, &node_avro_type, &p2, &why), AVROGEN_OK);
    ck_assert_ptr_eq(p1, p2);
    avrogen_schema_free(w3);

    /* Many writers: the table grows, every plan stays where it was. */
    const avrogen_type_plan *many[100];
    for (int i = 0; i < 100; i++) {
        avrogen_schema *w = node_writer(i);
        ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w, &node_avro_type, &many[i], &why),
                         AVROGEN_OK);
        for (int k = 0; k < i; k++)
            ck_assert_ptr_ne(many[k], many[i]);
        avrogen_schema_free(w);
    }
    long calls = ta.calls;
    for (int i = 0; i < 100; i++) {
        avrogen_schema *w = node_writer(i);
        ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w, &node_avro_type, &p2, &why),
                         AVROGEN_OK);
        ck_assert_ptr_eq(p2, many[i]);
        avrogen_schema_free(w);
    }
    ck_assert_int_eq(ta.calls, calls); /* found, not built */
    check_node_plan(p1);
    avrogen_plan_cache_free(c);
    avrogen_schema_free(rs);
    ck_assert_int_eq(ta.live, 0);
}
END_TEST

START_TEST(test_cache_failures)
{
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_plan_cache *c = avrogen_plan_cache_new(&ta.base);
    avrogen_schema *bad = parse_schema("{\"type\": \"record\", \"name\": \"node\", \"namespace\":"
                                       " \"cg\", \"fields\": [{\"name\": \"value\", \"type\":"
                                       " \"string\"}]}");
    const avrogen_type_plan *p;
    avrogen_diag first, again;
    ck_assert_int_eq(avrogen_plan_cache_type_plan(c, bad, &node_avro_type, &p, &first),
                     AVROGEN_E_MISMATCH);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(first.path, "/fields/0/type");
    ck_assert_str_eq(first.msg, "the writer's string cannot be read as long");
    long calls = ta.calls;
    ck_assert_int_eq(avrogen_plan_cache_type_plan(c, bad, &node_avro_type, &p, &again),
                     AVROGEN_E_MISMATCH);
    ck_assert_int_eq(ta.calls, calls); /* remembered, not rebuilt */
    ck_assert_str_eq(again.path, first.path);
    ck_assert_str_eq(again.msg, first.msg);
    /* The same for the generic resolver. */
    avrogen_schema *rs = parse_schema(avrogen_type_schema(&node_avro_type));
    const avrogen_resolver *res;
    ck_assert_int_eq(avrogen_plan_cache_resolver(c, bad, avrogen_schema_root(rs), &res, &first),
                     AVROGEN_E_MISMATCH);
    calls = ta.calls;
    ck_assert_int_eq(avrogen_plan_cache_resolver(c, bad, avrogen_schema_root(rs), &res, &again),
                     AVROGEN_E_MISMATCH);
    ck_assert_ptr_null(res);
    ck_assert_int_eq(ta.calls, calls);
    ck_assert_str_eq(again.msg, "the writer's string cannot be read as long");
    avrogen_schema_free(bad);
    avrogen_schema_free(rs);
    avrogen_plan_cache_free(c);
    ck_assert_int_eq(ta.live, 0);
}
END_TEST

START_TEST(test_cache_out_of_memory)
{
    /* Out of memory is not remembered: the next call builds the plan. */
    avrogen_schema *w = parse_schema(avrogen_type_schema(&prims_w_avro_type));
    long fail_at;
    for (fail_at = 1; fail_at < 100000; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        avrogen_plan_cache *c = avrogen_plan_cache_new(&ta.base);
        if (c == NULL) {
            ck_assert_int_eq(ta.live, 0);
            continue;
        }
        const avrogen_type_plan *p;
        avrogen_diag why;
        avrogen_status st = avrogen_plan_cache_type_plan(c, w, &prims_avro_type, &p, &why);
        if (st != AVROGEN_OK) {
            ck_assert_int_eq(st, AVROGEN_E_NOMEM);
            ck_assert_str_eq(why.msg, "out of memory");
            ck_assert_int_eq(avrogen_plan_cache_type_plan(c, w, &prims_avro_type, &p, &why),
                             AVROGEN_OK);
        }
        ck_assert_ptr_nonnull(p);
        avrogen_plan_cache_free(c);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK)
            break;
    }
    ck_assert_int_gt(fail_at, 3);
    avrogen_schema_free(w);
}
END_TEST

/* ---- avrogen_decode_as ---------------------------------------------------------- */

static int direct_calls, aot_calls[3];

static avrogen_status counting_decode(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    direct_calls++;
    return node_avro_type.decode(r, dst, a);
}

static avrogen_status aot0(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    aot_calls[0]++;
    return node_avro_type.decode(r, dst, a);
}

static avrogen_status aot1(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    aot_calls[1]++;
    return node_avro_type.decode(r, dst, a);
}

static avrogen_status aot2(avrogen_reader *r, void *dst, avrogen_arena *a)
{
    aot_calls[2]++;
    return node_avro_type.decode(r, dst, a);
}

START_TEST(test_decode_as)
{
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_plan_cache *c = avrogen_plan_cache_new(&ta.base);
    long calls = ta.calls;
    avrogen_type t = node_avro_type;
    t.decode = counting_decode;
    static const avrogen_type_decoder aot[3] = {
            {UINT64_C(0x10), aot0}, {UINT64_C(0x2000), aot1}, {UINT64_C(0xffff000000000000), aot2}};
    t.resolved = aot;
    t.n_resolved = 3;

    /* Data in the reader's own schema: the generated decoder, no plan. */
    struct node tail = {8, NULL}, head = {7, &tail};
    avrogen_writer w;
    encode(find_reader("node"), &head, &w);
    struct node v;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, c, t.fingerprint, NULL, &r, &v, &decoded), AVROGEN_OK);
    ck_assert_int_eq(direct_calls, 1);
    ck_assert_int_eq(ta.calls, calls);
    ck_assert_int_eq(v.next->value, 8);

    /* A writer with an ahead-of-time decoder: that one. */
    for (int i = 0; i < 3; i++) {
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        ck_assert_int_eq(avrogen_decode_as(&t, c, aot[i].fingerprint, NULL, &r, &v, &decoded),
                         AVROGEN_OK);
        ck_assert_int_eq(aot_calls[i], 1);
    }
    ck_assert_int_eq(direct_calls, 1);
    ck_assert_int_eq(ta.calls, calls);

    /* An unknown writer and no schema to build a plan from. */
    avrogen_schema *ws = parse_schema(avrogen_type_schema(&node_w_avro_type));
    uint64_t wfp = avrogen_schema_fingerprint64(ws);
    char want[128];
    snprintf(want, sizeof want,
             "unknown writer fingerprint 0x%016" PRIx64 " and no writer schema given", wfp);
    memset(&v, 0xa5, sizeof v);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, c, wfp, NULL, &r, &v, &decoded), AVROGEN_E_MISMATCH);
    ck_assert_str_eq(r.err_msg, want);
    ck_assert(cg_all_zero(&v, sizeof v));
    /* A schema that is not the one the fingerprint names. */
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, c, wfp + 1, ws, &r, &v, &decoded), AVROGEN_E_ARG);
    /* No cache. */
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, NULL, wfp, ws, &r, &v, &decoded), AVROGEN_E_MISMATCH);

    /* With the writer's schema: a plan, built once and then found by fingerprint. */
    struct node_w second = {(char *)"b", NULL, 2}, first = {(char *)"a", &second, 1};
    avrogen_writer_reset(&w);
    ck_assert_int_eq(node_w_avro_encode(&w, &first), AVROGEN_OK);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, c, wfp, ws, &r, &v, &decoded), AVROGEN_OK);
    ck_assert(v.value == 1 && v.next->value == 2 && v.next->next == NULL);
    avrogen_schema_free(ws);
    calls = ta.calls;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_decode_as(&t, c, wfp, NULL, &r, &v, &decoded), AVROGEN_OK);
    ck_assert(v.value == 1 && v.next->value == 2);
    ck_assert_int_eq(ta.calls, calls);
    ck_assert_int_eq(direct_calls, 1);

    /* A writer that does not resolve: the reason, every time. */
    avrogen_schema *bad = parse_schema("{\"type\": \"record\", \"name\": \"node\", \"namespace\":"
                                       " \"cg\", \"fields\": [{\"name\": \"value\", \"type\":"
                                       " \"string\"}]}");
    uint64_t bfp = avrogen_schema_fingerprint64(bad);
    for (int i = 0; i < 2; i++) {
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        ck_assert_int_eq(avrogen_decode_as(&t, c, bfp, i == 0 ? bad : NULL, &r, &v, &decoded),
                         AVROGEN_E_MISMATCH);
        ck_assert_str_eq(r.err_msg, "/fields/0/type: the writer's string cannot be read as long");
    }
    avrogen_schema_free(bad);
    avrogen_writer_fini(&w);
    avrogen_plan_cache_free(c);
    ck_assert_int_eq(ta.live, 0);
}
END_TEST

static Suite *type_plan_suite(void)
{
    Suite *s = suite_create("type_plan");
    TCase *tc = tcase_create("identity");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_identity, 0, N_READERS);
    tcase_add_test(tc, test_identity_hostile);
    tcase_add_test(tc, test_identity_zero_byte_budget);
    tcase_add_test(tc, test_identity_skipped_zeroed);
    tcase_add_test(tc, test_identity_depth);
    suite_add_tcase(s, tc);

    tc = tcase_create("evolve");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_evolve, 0, N_PAIRS);
    tcase_add_test(tc, test_evolve_json);
    tcase_add_test(tc, test_evolve_c_limits);
    tcase_add_test(tc, test_evolve_defaults);
    suite_add_tcase(s, tc);

    tc = tcase_create("build");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_build_incompatible);
    tcase_add_test(tc, test_build_other_namespace);
    tcase_add_test(tc, test_build_defaults_that_do_not_fit);
    tcase_add_test(tc, test_build_bad_descriptors);
    tcase_add_test(tc, test_build_out_of_memory);
    suite_add_tcase(s, tc);

    tc = tcase_create("cache");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_cache_plans);
    tcase_add_test(tc, test_cache_failures);
    tcase_add_test(tc, test_cache_out_of_memory);
    tcase_add_test(tc, test_decode_as);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(type_plan_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
