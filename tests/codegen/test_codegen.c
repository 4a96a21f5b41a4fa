/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The code `avrogen generate` emits for headers/cg_*.h, against its peer the
 * generic runtime (value.h) and against its own contract:
 *
 *  - round trip: random structs (fixed seeds) encode to exactly the bytes the
 *    generic runtime writes for the same datum, *_avro_size is the encoded
 *    length, decoding gives back an equal struct whose views point into the
 *    input;
 *  - known answers: hand-filled structs encode like the same datum written as
 *    Avro JSON by hand and encoded by the generic runtime;
 *  - hostile input: every truncation, bad enum and union indexes, oversized
 *    strings, wrong C array counts, out-of-range ints, arena budget, failing
 *    allocator, recursion depth, random corruption: an error, no crash (run
 *    under ASan: no access outside the struct or the exact-size input);
 *  - encode errors: what the C struct can hold but Avro cannot say;
 *  - descriptors: schema, canonical form and fingerprint agree with the
 *    runtime's schema parser.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_anon.avro.h"
#include "cg_base.avro.h"
#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_hostile.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_shapes.avro.h"
#include "cg_strings.avro.h"
#include "cg_sysdefault.avro.h"
#include "cg_system.avro.h"
#include "cg_unions.avro.h"
#include "cg_util.h"

CG_ADAPTERS(prims, struct prims)
CG_ADAPTERS(logicals, logicals_t)
CG_ADAPTERS(texts, struct texts)
CG_ADAPTERS(maybe_texts, struct maybe_texts)
CG_ADAPTERS(palette, struct palette)
CG_ADAPTERS(cg_point, cg_point_t)
CG_ADAPTERS(cg_money, struct cg_money)
CG_ADAPTERS(segment, struct segment)
CG_ADAPTERS(drawing, struct drawing)
CG_ADAPTERS(node, struct node)
CG_ADAPTERS(tree, struct tree)
CG_ADAPTERS(company, struct company)
CG_ADAPTERS(person, struct person)
CG_ADAPTERS(item, struct item)
CG_ADAPTERS(arrays, struct arrays)
CG_ADAPTERS(tails, struct tails)
CG_ADAPTERS(maps, struct maps)
CG_ADAPTERS(hollows, struct hollows)
CG_ADAPTERS(amount, struct amount)
CG_ADAPTERS(shape, struct shape)
CG_ADAPTERS(cell_item, struct cell_item)
CG_ADAPTERS(sheet, struct sheet)
CG_ADAPTERS(nf5_record, struct nf5_record)
CG_ADAPTERS(nic_stats, struct nic_stats)
CG_ADAPTERS(cJSON, cJSON)
CG_ADAPTERS(group, struct group)
CG_ADAPTERS(inotify_event, struct inotify_event)
CG_ADAPTERS(sys_report, struct sys_report)
CG_ADAPTERS(utmp, struct utmp)
CG_ADAPTERS(iphdr, struct iphdr)
CG_ADAPTERS(session, struct session)
CG_ADAPTERS(session_mid, session_mid_avro_struct)
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
CG_ADAPTERS(stat, struct stat)
CG_ADAPTERS(addrinfo, struct addrinfo)
CG_ADAPTERS(rusage, struct rusage)
CG_ADAPTERS(epoll_event, struct epoll_event)
CG_ADAPTERS(sockaddr_in6, struct sockaddr_in6)

static const cg_case cases[] = {
        CG_CASE(prims),      CG_CASE(logicals),      CG_CASE(texts),         CG_CASE(maybe_texts),
        CG_CASE(palette),    CG_CASE(cg_point),      CG_CASE(cg_money),      CG_CASE(segment),
        CG_CASE(drawing),    CG_CASE(node),          CG_CASE(tree),          CG_CASE(company),
        CG_CASE(person),     CG_CASE(item),          CG_CASE(arrays),        CG_CASE(maps),
        CG_CASE(hollows),    CG_CASE(amount),        CG_CASE(shape),         CG_CASE(cell_item),
        CG_CASE(sheet),      CG_CASE(nf5_record),    CG_CASE(nic_stats),     CG_CASE(cJSON),
        CG_CASE(group),      CG_CASE(inotify_event), CG_CASE(sys_report),    CG_CASE(utmp),
        CG_CASE(iphdr),      CG_CASE(session),       CG_CASE(session_mid),   CG_CASE(input_ev),
        CG_CASE(gps_fix),    CG_CASE(nic_queues),    CG_CASE(mqtt_msg),      CG_CASE(utmp_entry),
        CG_CASE(mp_object),  CG_CASE(ev_value),      CG_CASE(packed_status), CG_CASE(hd_grid),
        CG_CASE(wide_money), CG_CASE(tails),         CG_CASE(stat),          CG_CASE(addrinfo),
        CG_CASE(rusage),     CG_CASE(epoll_event),   CG_CASE(sockaddr_in6),
};
#define N_CASES ((int)(sizeof cases / sizeof *cases))

/* Random structs per case; every 10th also gets every truncation checked. */
#define ITERATIONS 1000

static avrogen_arena arena;   /* the random structs and generic values */
static avrogen_arena decoded; /* what decoding allocates */

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_init(&decoded, NULL);
}

static void teardown(void)
{
    avrogen_arena_fini(&decoded);
    avrogen_arena_fini(&arena);
}

static avrogen_schema *parse_schema(const char *json)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse(json, strlen(json), NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "schema: %s: %s", d.path, d.msg);
    return s;
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
static avrogen_status decode_exact(const cg_case *c, const uint8_t *p, size_t len, void *v,
                                   size_t *consumed)
{
    uint8_t *copy = exact_copy(p, len);
    avrogen_reader r;
    avrogen_reader_init(&r, copy, len);
    avrogen_status st = c->decode(&r, v, &decoded);
    if (consumed != NULL)
        *consumed = avrogen_reader_offset(&r);
    free(copy);
    return st;
}

/* decode_exact keeping the error: its offset, and its message in msg. */
static avrogen_status decode_named(const cg_case *c, const uint8_t *p, size_t len, void *v,
                                   size_t *at, char msg[AVROGEN_READER_MSG_CAP])
{
    uint8_t *copy = exact_copy(p, len);
    avrogen_reader r;
    avrogen_reader_init(&r, copy, len);
    avrogen_status st = c->decode(&r, v, &decoded);
    *at = r.err_offset;
    snprintf(msg, AVROGEN_READER_MSG_CAP, "%s", r.err_msg != NULL ? r.err_msg : "");
    free(copy);
    return st;
}

static unsigned long named_truncations; /* compared with the generic decoder's */
static unsigned long cuts;              /* truncations tried */

/* ---- round trip against the generic runtime ---------------------------------------- */

static void roundtrip_one(const cg_case *c, const avrogen_node *root, cg_rng *g, bool truncate)
{
    const avrogen_type *t = c->type;
    void *v = calloc(1, t->size);
    void *back = calloc(1, t->size);
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_nonnull(back);
    avrogen_arena_reset(&arena);
    avrogen_arena_reset(&decoded);
    cg_fill(g, t, v, &arena, 4);

    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(c->encode(&w, v), AVROGEN_OK);
    size_t len = avrogen_writer_len(&w);
    const uint8_t *bytes = avrogen_writer_data(&w);
    ck_assert_uint_eq(c->size(v), len);

    /* The same datum through the generic runtime: the same bytes. */
    avrogen_value gv;
    ck_assert_int_eq(cg_to_value(root, t, v, &gv, &arena), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_value_size(&gv), len);
    avrogen_writer gw;
    avrogen_writer_init_growable(&gw, NULL);
    ck_assert_int_eq(avrogen_value_encode(&gw, &gv), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&gw), len);
    ck_assert_mem_eq(avrogen_writer_data(&gw), bytes, len);
    avrogen_writer_fini(&gw);

    /* Decoding gives the struct back, over whatever *back held before (every
     * member is written); views point into the input. */
    uint8_t *input = exact_copy(bytes, len);
    avrogen_reader r;
    memset(back, 0xa5, t->size);
    avrogen_reader_init(&r, input, len);
    ck_assert_int_eq(c->decode(&r, back, &decoded), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_offset(&r), len);
    const char *where;
    ck_assert_msg(cg_equal(t, v, back, &where), "%s: decoded struct differs at %s", c->name, where);
    ck_assert_msg(cg_views_within(t, back, input, len), "%s: a view points outside the input",
                  c->name);
    free(input);

    /* The generic decoder reads the generated bytes as the same datum. */
    avrogen_value dv;
    avrogen_reader_init(&r, bytes, len);
    ck_assert_int_eq(avrogen_value_decode(&r, root, &dv, &arena), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&dv, &gv));

    /* A fixed buffer one byte short fails cleanly and writes nothing past it. */
    if (len != 0) {
        uint8_t *small = malloc(len - 1 != 0 ? len - 1 : 1);
        avrogen_writer fw;
        avrogen_writer_init_fixed(&fw, small, len - 1);
        ck_assert_int_eq(c->encode(&fw, v), AVROGEN_E_NOSPACE);
        free(small);
    }

    /* Every truncation is an error that leaves the struct zeroed (a sample of
     * them for long encodings), and names a member: the one the generic
     * decoder names where both stop at the same byte. */
    if (truncate) {
        size_t step = len > 2048 ? len / 512 : 1;
        const char *dot = strrchr(t->name, '.');
        const char *shortname = dot != NULL ? dot + 1 : t->name;
        for (size_t cut = 0; cut < len; cut += step) {
            memset(back, 0xa5, t->size);
            avrogen_arena_reset(&decoded);
            char msg[AVROGEN_READER_MSG_CAP];
            size_t at;
            avrogen_status st = decode_named(c, bytes, cut, back, &at, msg);
            cuts++;
            ck_assert_msg(st != AVROGEN_OK, "%s: a %zu-byte prefix of %zu decoded", c->name, cut,
                          len);
            ck_assert_msg(cg_all_zero(back, t->size), "%s: struct not zeroed after error", c->name);
            uint8_t *copy = exact_copy(bytes, cut);
            avrogen_reader_init(&r, copy, cut);
            avrogen_value tv;
            avrogen_status gst = avrogen_value_decode(&r, root, &tv, &arena);
            if (st == AVROGEN_E_TRUNCATED && gst == AVROGEN_E_TRUNCATED) {
                /* Where both stop at one byte, one member (generated code
                 * refuses some block counts earlier: one its items cannot fit). */
                const char *end = strstr(msg, ": ");
                size_t n = end != NULL ? (size_t)(end - msg) : 0;
                ck_assert_msg(at != r.err_offset ||
                                      (strncmp(msg, r.err_msg, n) == 0 && r.err_msg[n] == ':'),
                              "%s, %zu bytes: \"%s\" at %zu, the generic decoder \"%s\" at %zu",
                              c->name, cut, msg, at, r.err_msg, r.err_offset);
                ck_assert_msg(strncmp(msg, shortname, strlen(shortname)) == 0 &&
                                      strchr(".:", msg[strlen(shortname)]) != NULL,
                              "%s, %zu bytes: \"%s\" names no member", c->name, cut, msg);
                named_truncations++;
            }
            free(copy);
        }
    }

    /* Corrupted bytes: decode fails, or gives something that encodes again. */
    for (int k = 0; k < 4 && len != 0; k++) {
        uint8_t *bad = exact_copy(bytes, len);
        bad[cg_below(g, len)] ^= (uint8_t)(1u << cg_below(g, 8));
        if (cg_below(g, 2) == 0)
            bad[cg_below(g, len)] = (uint8_t)cg_next(g);
        avrogen_arena_reset(&decoded);
        avrogen_reader_init(&r, bad, len);
        if (c->decode(&r, back, &decoded) == AVROGEN_OK) {
            avrogen_writer rw;
            avrogen_writer_init_growable(&rw, NULL);
            ck_assert_int_eq(c->encode(&rw, back), AVROGEN_OK);
            ck_assert_uint_eq(c->size(back), avrogen_writer_len(&rw));
            avrogen_writer_fini(&rw);
        } else {
            ck_assert(cg_all_zero(back, t->size));
        }
        free(bad);
    }

    avrogen_writer_fini(&w);
    free(back);
    free(v);
}

START_TEST(test_roundtrip)
{
    const cg_case *c = &cases[_i];
    avrogen_schema *s = parse_schema(avrogen_type_schema(c->type));
    cg_rng g = {UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)(_i + 1) * UINT64_C(0x100000001b3)};
    for (int n = 0; n < ITERATIONS; n++)
        roundtrip_one(c, avrogen_schema_root(s), &g, n % 10 == 0);
    ck_assert_msg(cuts == 0 || named_truncations > 0, "%s: no truncation named a member", c->name);
    avrogen_schema_free(s);
}
END_TEST

/* ---- descriptors ------------------------------------------------------------------ */

START_TEST(test_descriptor)
{
    const cg_case *c = &cases[_i];
    const avrogen_type *t = c->type;
    avrogen_schema *s = parse_schema(avrogen_type_schema(t));
    ck_assert_int_eq(t->kind, AVROGEN_KIND_RECORD);
    const char *canonical = avrogen_type_canonical(t);
    ck_assert_str_eq(canonical, avrogen_schema_canonical(s));
    ck_assert(t->fingerprint == avrogen_schema_fingerprint64(s));
    ck_assert(t->fingerprint == avrogen_crc64_avro(canonical, strlen(canonical)));
    const avrogen_node *root = avrogen_schema_root(s);
    ck_assert_str_eq(t->name, root->fullname);
    ck_assert_uint_eq(t->n_fields, root->n_fields);
    for (size_t i = 0; i < t->n_fields; i++) {
        ck_assert_str_eq(t->fields[i].name, root->fields[i].name);
        ck_assert_int_eq(t->fields[i].kind, root->fields[i].type->kind);
        ck_assert_uint_le(t->fields[i].offset + t->fields[i].size, t->size);
    }
    avrogen_schema_free(s);
}
END_TEST

/* A text in pieces, parts inside parts, joined once: what the schema texts
 * of records nesting big records are (gen/emit/emit_c_schema.c). */
START_TEST(test_text_pieces)
{
    static const avrogen_text_piece inner_pieces[] = {{"ef", 2, NULL}};
    static const avrogen_text inner = {inner_pieces, 1, 2};
    static const avrogen_text_piece middle_pieces[] = {{"cd", 2, NULL}, {NULL, 0, &inner}};
    static const avrogen_text middle = {middle_pieces, 2, 4};
    static const avrogen_text_piece outer_pieces[] = {
            {"ab", 2, NULL}, {NULL, 0, &middle}, {NULL, 0, &inner}, {"g", 1, NULL}};
    static const avrogen_text outer = {outer_pieces, 4, 9};
    avrogen_text_cache cache = {NULL, NULL};
    avrogen_type t = prims_avro_type;
    t.schema_text = &outer;
    t.canonical_text = &inner;
    t.cache = &cache;
    const char *joined = avrogen_type_schema(&t);
    ck_assert_str_eq(joined, "abcdefefg");
    ck_assert_ptr_eq(avrogen_type_schema(&t), joined); /* joined once, kept */
    ck_assert_ptr_eq(cache.schema, joined);
    ck_assert_str_eq(avrogen_type_canonical(&t), "ef"); /* one piece: as it is */
    ck_assert_ptr_eq(avrogen_type_canonical(&t), inner_pieces[0].bytes);
    ck_assert_ptr_null(cache.canonical);
    t.cache = NULL;
    ck_assert_ptr_null(avrogen_type_schema(&t));
    free(cache.schema);
}
END_TEST

START_TEST(test_fingerprint_macros)
{
    ck_assert(PRIMS_AVRO_FINGERPRINT == prims_avro_type.fingerprint);
    ck_assert(LOGICALS_AVRO_FINGERPRINT == logicals_avro_type.fingerprint);
    ck_assert(SHAPE_AVRO_FINGERPRINT == shape_avro_type.fingerprint);
    ck_assert(NODE_AVRO_FINGERPRINT == node_avro_type.fingerprint);
    /* The descriptor's texts: one piece each here, the same text on every call,
     * and a canonical form whose CRC-64-AVRO is the fingerprint. */
    const char *text = avrogen_type_schema(&prims_avro_type);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_eq(avrogen_type_schema(&prims_avro_type), text);
    ck_assert_uint_eq(prims_avro_type.schema_text->n_pieces, 1);
    const char *canonical = avrogen_type_canonical(&prims_avro_type);
    ck_assert_ptr_nonnull(canonical);
    ck_assert(avrogen_crc64_avro(canonical, strlen(canonical)) == PRIMS_AVRO_FINGERPRINT);
    ck_assert_ptr_null(
            avrogen_type_schema(segment_avro_type.fields[0].type)); /* another header's */
    /* A record from another header is described where it is used, too. */
    const avrogen_field_desc *from = &segment_avro_type.fields[0];
    ck_assert_int_eq(from->storage, AVROGEN_STORAGE_STRUCT);
    ck_assert_str_eq(from->type->name, "cg.base.cg_point_t");
    ck_assert_uint_eq(from->type->n_fields, 2);
    /* Enums map symbols to enumerator values. */
    const avrogen_field_desc *code = &palette_avro_type.fields[1];
    ck_assert_int_eq(code->storage, AVROGEN_STORAGE_ENUM);
    ck_assert_str_eq(code->type->symbols[2], "LOW");
    ck_assert_int_eq(code->type->values[2], CG_CODE_LOW);
}
END_TEST

/* ---- known answers: hand-filled structs against hand-written JSON ---------------------- */

/* Encode v with the case's generated code and `json` with the generic runtime
 * (against the case's own schema): the bytes must match, and decode back. */
static void check_json(const cg_case *c, const void *v, const char *json)
{
    char why[256];
    ck_assert_msg(cg_same_as_json(c, v, json, why, sizeof why), "%s: %s", c->name, why);
}

static const cg_case *find_case(const char *name)
{
    for (int i = 0; i < N_CASES; i++)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    ck_abort_msg("no case %s", name);
    return NULL;
}

/* An arrays record with three items, cut inside the third item's name: the
 * error names it, at the byte after its length, as it named none before. */
START_TEST(test_decode_error_names_member)
{
    const cg_case *c = find_case("arrays");
    struct item items[3] = {{1, "one", 1.0}, {2, "two", 2.0}, {3, "three", 3.0}};
    struct arrays v;
    memset(&v, 0, sizeof v);
    v.items = items;
    v.n_items = 3;
    v.labels[0] = v.labels[1] = "l";
    v.pair[0] = v.pair[1] = items[0];
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(arrays_avro_encode(&w, &v), AVROGEN_OK);
    const uint8_t *bytes = avrogen_writer_data(&w);
    size_t len = avrogen_writer_len(&w);
    /* "three" is the only 5-byte string: its length byte is 0x0a. */
    const uint8_t *three = NULL;
    for (size_t i = 0; i + 6 <= len && three == NULL; i++)
        if (memcmp(bytes + i, "\x0athree", 6) == 0)
            three = bytes + i;
    ck_assert_ptr_nonnull(three);
    size_t cut = (size_t)(three - bytes) + 3; /* the length and "th" */
    char msg[AVROGEN_READER_MSG_CAP];
    size_t at;
    struct arrays back;
    avrogen_arena_reset(&decoded);
    ck_assert_int_eq(decode_named(c, bytes, cut, &back, &at, msg), AVROGEN_E_TRUNCATED);
    ck_assert_str_eq(msg, "arrays.items[2].name: input ends inside a string");
    ck_assert_uint_eq(at, (size_t)(three - bytes) + 1);
    /* Inside the price after it: a double. */
    ck_assert_int_eq(decode_named(c, bytes, cut + 5, &back, &at, msg), AVROGEN_E_TRUNCATED);
    ck_assert_str_eq(msg, "arrays.items[2].price: input ends inside a double");
    ck_assert_uint_eq(at, (size_t)(three - bytes) + 6);

    /* A type plan and avrogen_decode_as (another writer schema: the plan)
     * name it in the writer's schema. */
    avrogen_schema *ws = parse_schema(avrogen_type_schema(&arrays_avro_type));
    avrogen_type_plan *plan = NULL;
    avrogen_diag d;
    ck_assert_int_eq(
            avrogen_type_plan_new(avrogen_schema_root(ws), &arrays_avro_type, NULL, &plan, &d),
            AVROGEN_OK);
    uint8_t *copy = exact_copy(bytes, cut);
    avrogen_reader r;
    avrogen_reader_init(&r, copy, cut);
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, &back, &decoded), AVROGEN_E_TRUNCATED);
    ck_assert_str_eq(r.err_msg, "arrays.items[2].name: input ends inside a string");
    ck_assert_uint_eq(r.err_offset, at - 5);
    avrogen_reader_init(&r, copy, cut);
    ck_assert_int_eq(avrogen_decode_as(&arrays_avro_type, NULL, ARRAYS_AVRO_FINGERPRINT, ws, &r,
                                       &back, &decoded),
                     AVROGEN_E_TRUNCATED);
    ck_assert_str_eq(r.err_msg, "arrays.items[2].name: input ends inside a string");
    free(copy);
    avrogen_type_plan_free(plan);
    avrogen_schema_free(ws);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_known_prims)
{
    struct prims p;
    memset(&p, 0, sizeof p);
    p.flag = true;
    p.i8 = -128;
    p.i16 = 32767;
    p.i32 = INT32_MIN;
    p.u8 = 255;
    p.u16 = 65535;
    p.sh = -2;
    p.in = 64;
    p.sc = -1;
    p.uc = 200;
    p.ch = 'A';
    p.u32 = UINT32_MAX;
    p.i64 = INT64_MIN;
    p.ll = INT64_MAX;
    p.u64 = UINT64_MAX; /* the bits of -1 */
    p.f32 = 1.5f;
    p.f64 = -0.25;
    int32_t minus_five = -5;
    bool yes = true;
    p.maybe_i32 = &minus_five;
    p.maybe_flag = &yes;
    check_json(find_case("prims"), &p,
               "{\"flag\": true, \"i8\": -128, \"i16\": 32767, \"i32\": -2147483648, \"u8\": 255,"
               " \"u16\": 65535, \"sh\": -2, \"in\": 64, \"sc\": -1, \"uc\": 200, \"ch\": 65,"
               " \"u32\": 4294967295, \"i64\": -9223372036854775808,"
               " \"ll\": 9223372036854775807, \"u64\": -1, \"f32\": 1.5, \"f64\": -0.25,"
               " \"maybe_i32\": {\"int\": -5}, \"maybe_u64\": null, \"maybe_f64\": null,"
               " \"maybe_flag\": {\"boolean\": true}}");
}
END_TEST

START_TEST(test_skipped_members_zeroed)
{
    /* Decoding over garbage leaves AVRO_SKIP members zero, bit-field included,
     * also in records that live in the arena (array items). */
    struct prims p;
    memset(&p, 0, sizeof p);
    p.cache = &p;
    p.bits = 5;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(prims_avro_encode(&w, &p), AVROGEN_OK);
    struct prims back;
    memset(&back, 0xa5, sizeof back);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(prims_avro_decode(&r, &back, &decoded), AVROGEN_OK);
    ck_assert_ptr_null(back.cache);
    ck_assert_uint_eq(back.bits, 0);

    struct hollows h = {NULL, 3, 7};
    struct hollow items[3];
    h.items = items;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(hollows_avro_encode(&w, &h), AVROGEN_OK);
    avrogen_arena_reset(&decoded);
    /* Fill the arena's next chunk with garbage first. */
    memset(avrogen_arena_alloc(&decoded, 256), 0xa5, 256);
    avrogen_arena_reset(&decoded);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(hollows_avro_decode(&r, &h, &decoded), AVROGEN_OK);
    ck_assert_uint_eq(h.n_items, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_ptr_null(h.items[i].cache);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_known_logicals)
{
    static const int64_t cents[] = {0,    1,     -1,    127,       128,      -128,
                                    -129, 32767, 32768, INT64_MIN, INT64_MAX};
    static const char *const cents_json[] = {
            "\\u0000",
            "\\u0001",
            "\\u00ff",
            "\\u007f",
            "\\u0000\\u0080",
            "\\u0080",
            "\\u00ff\\u007f",
            "\\u007f\\u00ff",
            "\\u0000\\u0080\\u0000",
            "\\u0080\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000",
            "\\u007f\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff"};
    for (size_t i = 0; i < sizeof cents / sizeof *cents; i++) {
        logicals_t l;
        char json[2048];
        memset(&l, 0, sizeof l);
        l.day = 19000;
        l.tod_ms = 1000;
        l.ts_us = 1700000000000000;
        l.cents = cents[i];
        l.ucents = i % 2 ? UINT64_MAX : 5; /* above INT64_MAX: a leading 0 byte */
        l.id[0] = 0xde;
        l.id[15] = 0xad;
        l.id_text = (char *)"123e4567-e89b-12d3-a456-426614174000";
        strcpy(l.id_chars, "00000000-0000-0000-0000-000000000000");
        l.id_view.ptr = "x";
        l.id_view.len = 1;
        l.span[0] = 1;
        int64_t stamps[2] = {-1, 1};
        l.stamps = stamps;
        l.n_stamps = 2;
        snprintf(json, sizeof json,
                 "{\"day\": 19000, \"tod_ms\": 1000, \"tod_us\": 0, \"ts_ms\": 0,"
                 " \"ts_us\": 1700000000000000, \"ts_ns\": 0, \"local_ms\": 0, \"local_us\": 0,"
                 " \"local_ns\": 0, \"cents\": \"%s\", \"ucents\": \"%s\","
                 " \"wide\": \"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"
                 "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\","
                 " \"id\": \"\\u00de\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"
                 "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u00ad\","
                 " \"id_text\": \"123e4567-e89b-12d3-a456-426614174000\","
                 " \"id_chars\": \"00000000-0000-0000-0000-000000000000\", \"id_view\": \"x\","
                 " \"span\": \"\\u0001\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"
                 "\\u0000\\u0000\\u0000\\u0000\", \"stamps\": [-1, 1], \"amounts\": []}",
                 cents_json[i],
                 i % 2 ? "\\u0000\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff"
                       : "\\u0005");
        check_json(find_case("logicals"), &l, json);
    }
}
END_TEST

START_TEST(test_known_palette)
{
    struct palette p;
    enum cg_color colors[3] = {CG_COLOR_BLUE, CG_COLOR_RED, CG_COLOR_GREEN};
    struct cg_code_entry by_name[2] = {{(char *)"a", CG_CODE_HIGH}, {(char *)"b", CG_CODE_LOW}};
    enum cg_color accent = CG_COLOR_GREEN;
    memset(&p, 0, sizeof p);
    p.main = CG_COLOR_BLUE;
    p.code = CG_CODE_ZERO;
    p.big = BIG_S69;
    p.colors = colors;
    p.n_colors = 3;
    p.codes[0] = CG_CODE_OK;
    p.codes[1] = CG_CODE_MOVED;
    p.codes[2] = CG_CODE_LOW;
    p.by_name = by_name;
    p.n_by_name = 2;
    p.accent = &accent;
    check_json(
            find_case("palette"), &p,
            "{\"main\": \"BLUE\", \"code\": \"ZERO\", \"big\": \"S69\","
            " \"colors\": [\"BLUE\", \"RED\", \"GREEN\"], \"codes\": [\"OK\", \"MOVED\", \"LOW\"],"
            " \"by_name\": {\"a\": \"HIGH\", \"b\": \"LOW\"}, \"accent\": {\"cg.cg_color\": "
            "\"GREEN\"}}");
}
END_TEST

START_TEST(test_known_shape)
{
    static const char *const as_json[] = {"null",
                                          "{\"long\": -3}",
                                          "{\"string\": \"hi\"}",
                                          "{\"cg.amount\": {\"units\": 7, \"nanos\": -1}}",
                                          "{\"cg.Raw4\": \"\\u0001\\u0002\\u0003\\u0004\"}",
                                          "{\"array\": [0.5, 2.0]}"};
    static const char *const scalar_json[] = {"{\"double\": 1.5}", "{\"string\": \"s\"}",
                                              "{\"boolean\": true}"};
    for (int kind = 0; kind < 6; kind++) {
        struct shape s;
        char json[512];
        memset(&s, 0, sizeof s);
        s.kind = (enum shape_kind)kind;
        switch (s.kind) {
        case SHAPE_NONE:
            break;
        case SHAPE_INT:
            s.as.i = -3;
            break;
        case SHAPE_TEXT:
            s.as.text = (char *)"hi";
            break;
        case SHAPE_AMOUNT:
            s.as.amount.units = 7;
            s.as.amount.nanos = -1;
            break;
        case SHAPE_RAW:
            memcpy(s.as.raw, "\x01\x02\x03\x04", 4);
            break;
        case SHAPE_LIST:
            s.as.list[0] = 0.5;
            s.as.list[1] = 2.0;
            break;
        }
        s.which = (uint8_t)(kind % 3);
        if (s.which == 0)
            s.scalar.d = 1.5;
        else if (s.which == 1)
            s.scalar.s = (avrogen_str){"s", 1};
        else
            s.scalar.b = true;
        snprintf(json, sizeof json, "{\"as\": %s, \"scalar\": %s}", as_json[kind],
                 scalar_json[s.which]);
        check_json(find_case("shape"), &s, json);
    }
}
END_TEST

/* Enum-typed tags in a map entry, an array item, a nested record and the
 * record itself: every branch of each, and decoding stores each tag back (the
 * comparison in check_json reads the tags of the decoded entries). */
START_TEST(test_known_sheet)
{
    struct cell cells[3];
    struct mark marks[3];
    struct cell_item items[2];
    struct sheet sh;
    memset(cells, 0, sizeof cells);
    memset(marks, 0, sizeof marks);
    memset(items, 0, sizeof items);
    memset(&sh, 0, sizeof sh);
    cells[0].key = (char *)"a";
    cells[0].kind = CELL_INT;
    cells[0].value.i = -5;
    cells[1].key = (char *)"b";
    cells[1].kind = CELL_TEXT;
    cells[1].value.text = (char *)"hi";
    cells[2].key = (char *)"c";
    cells[2].kind = CELL_AMOUNT;
    cells[2].value.amount.units = 9;
    cells[2].value.amount.nanos = 1;
    marks[0].key = (avrogen_str){"n", 1};
    marks[0].kind = MARK_NONE;
    marks[1].key = (avrogen_str){"f", 1};
    marks[1].kind = MARK_FLAG;
    marks[1].value.flag = true;
    marks[2].key = (avrogen_str){"s", 1};
    marks[2].kind = MARK_SCORE;
    marks[2].value.score = 0.25;
    items[0].kind = CELL_TEXT;
    items[0].value.text = (char *)"x";
    items[1].kind = CELL_AMOUNT;
    items[1].value.amount.units = -1;
    sh.cells = cells;
    sh.n_cells = 3;
    sh.marks = marks;
    sh.n_marks = 3;
    sh.items = items;
    sh.n_items = 2;
    sh.first.kind = CELL_INT;
    sh.first.value.i = 7;
    sh.last_kind = MARK_SCORE;
    sh.last.score = -2.0;
    check_json(find_case("sheet"), &sh,
               "{\"cells\": {\"a\": {\"int\": -5}, \"b\": {\"string\": \"hi\"},"
               " \"c\": {\"cg.amount\": {\"units\": 9, \"nanos\": 1}}},"
               " \"marks\": {\"n\": null, \"f\": {\"boolean\": true}, \"s\": {\"double\": 0.25}},"
               " \"items\": [{\"value\": {\"string\": \"x\"}},"
               " {\"value\": {\"cg.amount\": {\"units\": -1, \"nanos\": 0}}}],"
               " \"first\": {\"value\": {\"int\": 7}}, \"last\": {\"double\": -2.0}}");

    /* Decoding writes each entry's tag: read over a struct full of other values. */
    const cg_case *c = find_case("sheet");
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(sheet_avro_encode(&w, &sh), AVROGEN_OK);
    struct sheet back;
    memset(&back, 0x5a, sizeof back);
    avrogen_arena_reset(&decoded);
    ck_assert_int_eq(decode_exact(c, avrogen_writer_data(&w), avrogen_writer_len(&w), &back, NULL),
                     AVROGEN_OK);
    ck_assert_uint_eq(back.n_cells, 3);
    ck_assert_int_eq(back.cells[0].kind, CELL_INT);
    ck_assert_int_eq(back.cells[1].kind, CELL_TEXT);
    ck_assert_int_eq(back.cells[2].kind, CELL_AMOUNT);
    ck_assert_int_eq(back.cells[2].value.amount.units, 9);
    ck_assert_uint_eq(back.n_marks, 3);
    ck_assert_int_eq(back.marks[0].kind, MARK_NONE);
    ck_assert_int_eq(back.marks[1].kind, MARK_FLAG);
    ck_assert_int_eq(back.marks[2].kind, MARK_SCORE);
    ck_assert_int_eq(back.items[1].kind, CELL_AMOUNT);
    ck_assert_int_eq(back.first.kind, CELL_INT);
    ck_assert_int_eq(back.last_kind, MARK_SCORE);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_known_node)
{
    struct node c = {3, NULL}, b = {2, &c}, a = {1, &b};
    check_json(find_case("node"), &a,
               "{\"value\": 1, \"next\": {\"cg.node\": {\"value\": 2, \"next\":"
               " {\"cg.node\": {\"value\": 3, \"next\": null}}}}}");
}
END_TEST

START_TEST(test_known_maybe_texts)
{
    struct maybe_texts m;
    uint8_t digest[4] = {9, 8, 7, 6};
    memset(&m, 0, sizeof m);
    check_json(find_case("maybe_texts"), &m,
               "{\"s\": null, \"view\": null, \"blob\": null, \"raw\": null, \"digest\": null,"
               " \"second\": null, \"second_view\": null}");
    m.s = (char *)"";
    m.view.ptr = "v";
    m.view.len = 1;
    m.blob.ptr = digest;
    m.blob.len = 0;
    m.raw = digest;
    m.n_raw = 4;
    m.digest = &digest;
    m.second = (char *)"two";
    m.second_view.ptr = "";
    check_json(
            find_case("maybe_texts"), &m,
            "{\"s\": {\"string\": \"\"}, \"view\": {\"string\": \"v\"},"
            " \"blob\": {\"bytes\": \"\"}, \"raw\": {\"bytes\": \"\\u0009\\u0008\\u0007\\u0006\"},"
            " \"digest\": {\"cg.maybe_texts_digest\": \"\\u0009\\u0008\\u0007\\u0006\"},"
            " \"second\": {\"string\": \"two\"}, \"second_view\": {\"string\": \"\"}}");
}
END_TEST

START_TEST(test_known_maps)
{
    struct maps m;
    struct counter counters[2] = {{(char *)"x", 1}, {(char *)"y", -1}};
    struct label labels[1] = {{"k", (char *)"v"}};
    int32_t ints[3] = {1, 2, 3};
    struct bag bags[2] = {{"empty", NULL, 0}, {"three", ints, 3}};
    struct optional optional[2] = {{(char *)"n", NULL}, {(char *)"s", (char *)"t"}};
    struct weights weights[1] = {{(char *)"w", {0.5, -0.5}}};
    memset(&m, 0, sizeof m);
    m.counters = counters;
    m.n_counters = 2;
    m.labels = labels;
    m.n_labels = 1;
    m.bags = bags;
    m.n_bags = 2;
    m.optional = optional;
    m.n_optional = 2;
    m.weights = weights;
    m.n_weights = 1;
    check_json(find_case("maps"), &m,
               "{\"counters\": {\"x\": 1, \"y\": -1}, \"labels\": {\"k\": \"v\"}, \"scored\": {},"
               " \"bags\": {\"empty\": [], \"three\": [1, 2, 3]},"
               " \"optional\": {\"n\": null, \"s\": {\"string\": \"t\"}},"
               " \"weights\": {\"w\": [0.5, -0.5]}}");
}
END_TEST

/* ---- hostile input ------------------------------------------------------------------ */

/* Decode hex bytes with case c; returns the status. */
static avrogen_status decode_hex(const cg_case *c, const char *hex, void *v)
{
    uint8_t buf[256];
    size_t n = 0;
    for (const char *p = hex; p[0] != '\0' && p[1] != '\0';) {
        if (*p == ' ') {
            p++;
            continue;
        }
        unsigned byte;
        ck_assert(sscanf(p, "%2x", &byte) == 1);
        buf[n++] = (uint8_t)byte;
        p += 2;
    }
    avrogen_arena_reset(&decoded);
    return decode_exact(c, buf, n, v, NULL);
}

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

static const cg_case hostile[] = {
        CG_CASE(h_enum),     CG_CASE(h_union), CG_CASE(h_chars),   CG_CASE(h_exact),
        CG_CASE(h_i8),       CG_CASE(h_u16),   CG_CASE(h_u32),     CG_CASE(h_decimal),
        CG_CASE(h_udecimal), CG_CASE(h_count), CG_CASE(h_doubles),
};

/* A malformed encoding, the status it must give, and a well-formed neighbour. */
static const struct {
    int c;
    const char *bad;
    avrogen_status want;
    const char *good;
} hostile_inputs[] = {
        {0, "06", AVROGEN_E_INVALID, "04"},                            /* enum index 3 of 3 */
        {0, "01", AVROGEN_E_INVALID, "00"},                            /* enum index -1 */
        {0, "80 80 80 80 10", AVROGEN_E_OVERFLOW, "02"},               /* enum index past 32 bits */
        {1, "04", AVROGEN_E_INVALID, "02 00"},                         /* union index 2 of 2 */
        {1, "03", AVROGEN_E_INVALID, "00"},                            /* union index -2 */
        {2, "08 61 62 63 64", AVROGEN_E_INVALID, "06 61 62 63"},       /* 4 bytes in char[4] */
        {2, "02 ff", AVROGEN_E_INVALID, "02 7f"},                      /* not UTF-8 */
        {2, "01", AVROGEN_E_INVALID, "00"},                            /* negative length */
        {3, "06 02 04 06 00", AVROGEN_E_INVALID, "08 02 04 06 08 00"}, /* 3 of int32_t[4] */
        {3, "0a 02 04 06 08 0a 00", AVROGEN_E_INVALID, "04 02 04 04 06 08 00"}, /* 5 of 4 */
        {3, "00", AVROGEN_E_INVALID, "02 02 02 04 04 06 08 00"},                /* none of 4 */
        {4, "80 02", AVROGEN_E_INVALID, "fe 01"},                               /* 128 in int8_t */
        {4, "81 02", AVROGEN_E_INVALID, "ff 01"},                               /* -129 in int8_t */
        {5, "80 80 08", AVROGEN_E_INVALID, "fe ff 07"},             /* 65536 in uint16_t */
        {5, "01", AVROGEN_E_INVALID, "00"},                         /* -1 in uint16_t */
        {6, "80 80 80 80 20", AVROGEN_E_INVALID, "fe ff ff ff 1f"}, /* 2^32 in uint32_t */
        {6, "01", AVROGEN_E_INVALID, "00"},                         /* -1 in uint32_t */
        {7, "12 01 00 00 00 00 00 00 00 00", AVROGEN_E_INVALID, "12 00 00 00 00 00 00 00 00 05"},
        {7, "12 ff 7f 00 00 00 00 00 00 00", AVROGEN_E_INVALID, "12 ff ff 00 00 00 00 00 00 00"},
        {8, "02 80", AVROGEN_E_INVALID, "02 7f"}, /* negative into uint64_t */
        {8, "14 00 01 00 00 00 00 00 00 00 00", AVROGEN_E_INVALID, "12 00 ff ff ff ff ff ff ff ff"},
        {9, "80 04 00", AVROGEN_E_TRUNCATED, "02 00 00"}, /* 256 items, no input for them */
        {10, "04 00 00 00 00 00 00 f0 3f 00", AVROGEN_E_TRUNCATED,
         "02 00 00 00 00 00 00 f0 3f 00"},      /* 2 doubles, 1 present */
        {10, "01 01", AVROGEN_E_INVALID, "00"}, /* block of -1 items with a negative size */
};

START_TEST(test_hostile)
{
    const cg_case *c = &hostile[hostile_inputs[_i].c];
    void *v = malloc(c->type->size);
    ck_assert_ptr_nonnull(v);
    memset(v, 0x5a, c->type->size);
    avrogen_status st = decode_hex(c, hostile_inputs[_i].bad, v);
    ck_assert_msg(st == hostile_inputs[_i].want, "%s: '%s' gave %s", c->name,
                  hostile_inputs[_i].bad, avrogen_status_str(st));
    ck_assert(cg_all_zero(v, c->type->size));
    ck_assert_int_eq(decode_hex(c, hostile_inputs[_i].good, v), AVROGEN_OK);
    free(v);
}
END_TEST

START_TEST(test_count_member_too_narrow)
{
    /* 256 items do not fit uint8_t n: the datum is valid Avro, the struct cannot hold it. */
    uint8_t buf[300];
    size_t n = 0;
    buf[n++] = 0x80; /* block of 256 */
    buf[n++] = 0x04;
    for (int i = 0; i < 256; i++)
        buf[n++] = 0;
    buf[n++] = 0;
    struct h_count v;
    ck_assert_int_eq(decode_exact(&hostile[9], buf, n, &v, NULL), AVROGEN_E_INVALID);
    ck_assert(cg_all_zero(&v, sizeof v));
    buf[0] = 0xfe; /* 255 fits */
    buf[1] = 0x03;
    buf[257] = 0;
    ck_assert_int_eq(decode_exact(&hostile[9], buf, n - 1, &v, NULL), AVROGEN_OK);
    ck_assert_uint_eq(v.n, 255);
}
END_TEST

START_TEST(test_empty_items_budget)
{
    /* Items that take no input are bounded by the reader's item budget. */
    const cg_case *c = find_case("hollows");
    struct hollows h;
    ck_assert_int_eq(decode_hex(c, "80 80 80 80 01 00 00", &h), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&h, sizeof h));
    ck_assert_int_eq(decode_hex(c, "06 00 02", &h), AVROGEN_OK);
    ck_assert_uint_eq(h.n_items, 3);
    ck_assert_int_eq(h.after, 1);
}
END_TEST

START_TEST(test_blocks_concatenate)
{
    /* spec §Arrays: any number of blocks; negative counts carry a byte size. */
    struct h_exact e;
    ck_assert_int_eq(decode_hex(&hostile[3], "02 02 03 04 04 06 02 08 00", &e), AVROGEN_OK);
    ck_assert_int_eq(e.four[0], 1);
    ck_assert_int_eq(e.four[3], 4);
    struct h_count c;
    ck_assert_int_eq(decode_hex(&hostile[9], "02 02 04 04 06 02 08 00", &c), AVROGEN_OK);
    ck_assert_uint_eq(c.n, 4);
    ck_assert(c.v[0] == 1 && c.v[1] == 2 && c.v[2] == 3 && c.v[3] == 4);
    struct h_doubles d;
    ck_assert_int_eq(decode_hex(&hostile[10],
                                "02 00 00 00 00 00 00 f0 3f 03 20 00 00 00 00 00 00 00 40"
                                " 00 00 00 00 00 00 08 40 00",
                                &d),
                     AVROGEN_OK);
    ck_assert_uint_eq(d.n, 3);
    ck_assert(d.v[0] == 1.0 && d.v[1] == 2.0 && d.v[2] == 3.0);
}
END_TEST

/* A list of `n` nodes encoded by generated code. */
static void encode_list(avrogen_writer *w, size_t n)
{
    struct node *nodes = calloc(n, sizeof *nodes);
    for (size_t i = 0; i < n; i++) {
        nodes[i].value = (int64_t)i;
        nodes[i].next = i + 1 < n ? &nodes[i + 1] : NULL;
    }
    avrogen_writer_init_growable(w, NULL);
    w->max_depth = (unsigned)n; /* deeper than the default if n is */
    ck_assert_int_eq(node_avro_encode(w, &nodes[0]), AVROGEN_OK);
    free(nodes);
}

START_TEST(test_recursion_depth)
{
    /* One past AVROGEN_DEFAULT_MAX_DEPTH (1000): refused unless raised. */
    avrogen_writer w;
    encode_list(&w, 1001);
    struct node head;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(node_avro_decode(&r, &head, &decoded), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&head, sizeof head));
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    r.max_depth = 1001;
    ck_assert_int_eq(node_avro_decode(&r, &head, &decoded), AVROGEN_OK);
    size_t n = 0;
    for (const struct node *p = &head; p != NULL; p = p->next)
        ck_assert_int_eq(p->value, (int64_t)n++);
    ck_assert_uint_eq(n, 1001);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_arena_budget)
{
    avrogen_writer w;
    encode_list(&w, 100);
    struct node head;
    avrogen_reader r;
    avrogen_arena small;
    avrogen_arena_init(&small, NULL);
    avrogen_arena_set_budget(&small, 10 * 16);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(node_avro_decode(&r, &head, &small), AVROGEN_E_LIMIT);
    ck_assert(cg_all_zero(&head, sizeof head));
    avrogen_arena_set_budget(&small, 0);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(node_avro_decode(&r, &head, &small), AVROGEN_OK);
    avrogen_arena_fini(&small);
    avrogen_writer_fini(&w);
}
END_TEST

/* An allocator that fails every call after the first `left`. */
static void *failing_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    long *left = ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    if (*left == 0)
        return NULL;
    (*left)--;
    return realloc(ptr, new_size);
}

START_TEST(test_arena_out_of_memory)
{
    /* A tree whose decode needs several arena chunks; fail the n-th chunk. */
    const cg_case *c = find_case("tree");
    cg_rng g = {42};
    struct tree *t = calloc(1, sizeof *t);
    cg_fill(&g, c->type, t, &arena, 6);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(tree_avro_encode(&w, t), AVROGEN_OK);
    size_t len = avrogen_writer_len(&w);
    for (long n = 0;; n++) {
        long left = n;
        avrogen_alloc fail = {failing_alloc, &left};
        avrogen_arena a;
        avrogen_arena_init(&a, &fail);
        avrogen_reader r;
        struct tree back;
        avrogen_reader_init(&r, avrogen_writer_data(&w), len);
        avrogen_status st = tree_avro_decode(&r, &back, &a);
        avrogen_arena_fini(&a);
        if (st == AVROGEN_OK)
            break;
        ck_assert_int_eq(st, AVROGEN_E_NOMEM);
        ck_assert(cg_all_zero(&back, sizeof back));
        ck_assert_int_lt(n, 100);
    }
    avrogen_writer_fini(&w);
    free(t);
}
END_TEST

/* ---- encode errors ---------------------------------------------------------------- */

START_TEST(test_encode_errors)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);

    struct item it = {1, NULL, 2.0}; /* NULL in a string that is not nullable */
    ck_assert_int_eq(item_avro_encode(&w, &it), AVROGEN_E_ARG);

    struct h_enum e = {(enum h_level)7}; /* not an enumerator */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(h_enum_avro_encode(&w, &e), AVROGEN_E_ARG);

    struct shape s;
    memset(&s, 0, sizeof s);
    s.kind = (enum shape_kind)6; /* no such branch */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(shape_avro_encode(&w, &s), AVROGEN_E_ARG);
    s.kind = SHAPE_NONE;
    s.which = 3;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(shape_avro_encode(&w, &s), AVROGEN_E_ARG);

    struct cell cell = {(char *)"k", (enum cell_kind)3, {0}}; /* a map entry's tag, no branch */
    struct sheet sh;
    memset(&sh, 0, sizeof sh);
    sh.cells = &cell;
    sh.n_cells = 1;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(sheet_avro_encode(&w, &sh), AVROGEN_E_ARG);
    cell.kind = CELL_INT;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(sheet_avro_encode(&w, &sh), AVROGEN_OK);

    struct arrays a;
    memset(&a, 0, sizeof a);
    a.labels[0] = a.labels[1] = (char *)"";
    a.pair[0].name = a.pair[1].name = (char *)"";
    a.n_longs = -1; /* a negative count */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    a.n_longs = 2; /* items missing */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    a.n_longs = 0;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_OK);
    ck_assert_uint_eq(arrays_avro_size(&a), avrogen_writer_len(&w));

    struct h_chars full;
    memcpy(full.text, "abcd", 4); /* no NUL inside char[4] */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(h_chars_avro_encode(&w, &full), AVROGEN_E_ARG);

    struct texts t;
    memset(&t, 0, sizeof t);
    t.s = (char *)"";
    t.cs = "";
    t.n_chars = -3;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(texts_avro_encode(&w, &t), AVROGEN_E_ARG);
    avrogen_writer_fini(&w);
}
END_TEST

START_TEST(test_fixed_buffer_exact)
{
    /* A buffer of exactly size() bytes takes the whole datum. */
    struct node c = {-7, NULL}, a = {300, &c};
    size_t n = node_avro_size(&a);
    uint8_t *buf = malloc(n);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, n);
    ck_assert_int_eq(node_avro_encode(&w, &a), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    free(buf);
}
END_TEST

/* size() is the encoded length of `len` bytes of output in w (reset first). */
#define SIZE_IS_LENGTH(P, v, w)                                     \
    do {                                                            \
        avrogen_writer_reset(w);                                    \
        ck_assert_int_eq(P##_avro_encode(w, v), AVROGEN_OK);        \
        ck_assert_uint_eq(P##_avro_size(v), avrogen_writer_len(w)); \
    } while (0)

/*
 * Views whose lengths take 1, 2, 3 and 4 bytes, and either side of each
 * step (random data keeps strings below 64 bytes), in every place a view
 * sits: a field, a nullable, array items and map keys.
 */
START_TEST(test_size_of_long_views)
{
    static const size_t lens[] = {0,    1,    63,   64,      65,      127,    128,
                                  8191, 8192, 8193, 1048575, 1048576, 1048577};
    const size_t most = 1048577;
    char *text = malloc(most);
    ck_assert_ptr_nonnull(text);
    memset(text, 'a', most);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t len = lens[i], other = lens[(i + 5) % (sizeof lens / sizeof *lens)];
        avrogen_str view = {text, len};
        avrogen_bytes blob = {(const uint8_t *)text, other};

        struct texts t;
        memset(&t, 0, sizeof t);
        t.s = (char *)"";
        t.cs = "";
        t.view = view;
        t.blob = blob;
        SIZE_IS_LENGTH(texts, &t, &w);

        struct maybe_texts m;
        memset(&m, 0, sizeof m);
        m.view = view;
        m.blob = blob;
        m.second_view = (avrogen_str){text, other};
        SIZE_IS_LENGTH(maybe_texts, &m, &w);

        struct arrays a;
        memset(&a, 0, sizeof a);
        avrogen_str views[3] = {view, {text, other}, {text, 0}};
        a.views = views;
        a.n_views = 3;
        a.labels[0] = a.labels[1] = (char *)"";
        a.pair[0].name = a.pair[1].name = (char *)"";
        SIZE_IS_LENGTH(arrays, &a, &w);

        struct maps p;
        memset(&p, 0, sizeof p);
        struct scored scored[2] = {{view, {-1, (char *)"", 0.5}},
                                   {{text, 0}, {INT64_MIN, (char *)"x", 0}}};
        p.scored = scored;
        p.n_scored = len != 0 ? 2 : 1; /* two empty keys would not be unique */
        SIZE_IS_LENGTH(maps, &p, &w);
    }
    avrogen_writer_fini(&w);
    free(text);
}
END_TEST

static Suite *codegen_suite(void)
{
    Suite *s = suite_create("codegen");
    TCase *tc = tcase_create("roundtrip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_roundtrip, 0, N_CASES);
    tcase_add_test(tc, test_decode_error_names_member);
    suite_add_tcase(s, tc);

    tc = tcase_create("descriptors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_descriptor, 0, N_CASES);
    tcase_add_test(tc, test_fingerprint_macros);
    tcase_add_test(tc, test_text_pieces);
    suite_add_tcase(s, tc);

    tc = tcase_create("known_answers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_known_prims);
    tcase_add_test(tc, test_skipped_members_zeroed);
    tcase_add_test(tc, test_known_logicals);
    tcase_add_test(tc, test_known_palette);
    tcase_add_test(tc, test_known_shape);
    tcase_add_test(tc, test_known_sheet);
    tcase_add_test(tc, test_known_node);
    tcase_add_test(tc, test_known_maybe_texts);
    tcase_add_test(tc, test_known_maps);
    suite_add_tcase(s, tc);

    tc = tcase_create("hostile");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_hostile, 0, (int)(sizeof hostile_inputs / sizeof *hostile_inputs));
    tcase_add_test(tc, test_count_member_too_narrow);
    tcase_add_test(tc, test_empty_items_budget);
    tcase_add_test(tc, test_blocks_concatenate);
    tcase_add_test(tc, test_recursion_depth);
    tcase_add_test(tc, test_arena_budget);
    tcase_add_test(tc, test_arena_out_of_memory);
    suite_add_tcase(s, tc);

    tc = tcase_create("encode_errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_encode_errors);
    tcase_add_test(tc, test_fixed_buffer_exact);
    tcase_add_test(tc, test_size_of_long_views);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(codegen_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
