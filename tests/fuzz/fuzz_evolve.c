/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the schema-evolution decoders, differentially. The
 * first byte of the input picks a (writer schema, generated reader type) pair
 * from a fixed table, and whether the datum gets a tight item budget; the
 * rest is one datum written with the writer schema. It is decoded four ways:
 *
 *   plan    avrogen_type_plan_decode, the plan built once per pair;
 *   fast    the reader's ahead-of-time decoder for the writer's fingerprint
 *           (P_avro_type.resolved), or, when the writer IS the reader's
 *           schema, its direct decoder P_avro_decode; absent otherwise;
 *   as      avrogen_decode_as through one plan cache, which picks one of the
 *           above, or a plan of its own built from the writer's canonical form;
 *   generic avrogen_resolver_decode into a generic value.
 *
 * Oracles (abort, so that libFuzzer reports the input):
 *   - plan, fast and as agree exactly: the same status, and on success the
 *     same number of bytes consumed and the same bytes when the structs are
 *     written again with P_avro_encode; both E_MISMATCH messages are the
 *     same text (they name the symbol or branch); where they run the same
 *     code (as and the decoder it picks; a plan of the reader's own schema
 *     and P_avro_decode, resolve.h) even the error offset agrees;
 *   - after a failure each struct is all zeros; whatever a decoder accepts,
 *     P_avro_encode writes;
 *   - when the plan succeeds, so does the generic resolver, consuming the
 *     same bytes, and its value is the plan's struct (see same_in_c); when
 *     the plan fails on the wire format (E_TRUNCATED, E_OVERFLOW) or with
 *     E_MISMATCH, the generic resolver fails too. (The plan may fail alone
 *     with E_INVALID: values that fit Avro but not the reader's C types,
 *     which the generic resolver, having none, reads.)
 *
 * Where generated code and the generic runtime (value.c: avrogen_skip, which
 * plans skip writer-only data with, and the generic resolver) differ by
 * design, the datum is not compared across them:
 *   - nesting: generated code takes a level per recursive record, generic
 *     code one per record, array, map and union. A datum that any of them
 *     finds nested deeper than max_depth is compared only where the code is
 *     the same.
 * (Blocks that give their byte size were a second difference until every
 * decoder checked the size and every skip jumped it: issue 12.)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_aot.avro.h"
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
#include "cg_unions.avro.h"

#ifndef EVOLVE_EARLIER_DIR
#error "EVOLVE_EARLIER_DIR: tests/codegen/earlier, set by tests/fuzz/CMakeLists.txt"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Every decoder gets the same item budget: ITEMS keeps zero-byte items cheap
 * (the generic values of 2^16 of them fit well within BUDGET, so an arena
 * budget never fails one decoder alone); ITEMS_TIGHT, asked for by the top
 * bit of the first byte, lets small datums reach the budget, defaults'
 * items included. The pair is the rest of that byte, modulo the table.
 */
#define ITEMS       ((size_t)1 << 16)
#define ITEMS_TIGHT ((size_t)8)
#define TIGHT_BIT   0x80u
#define BUDGET      ((size_t)32 << 20) /* bytes, per arena */

/* P_avro_encode taking the struct as const void *. */
#define ENCODER(P, T)                                                      \
    static avrogen_status P##_encode_any(avrogen_writer *w, const void *v) \
    {                                                                      \
        return P##_avro_encode(w, (const T *)v);                           \
    }

ENCODER(aot_event, struct aot_event)
ENCODER(aot_point, struct aot_point)
ENCODER(aot_node, struct aot_node)
ENCODER(prims, struct prims)
ENCODER(maybe_texts, struct maybe_texts)
ENCODER(palette, struct palette)
ENCODER(shape, struct shape)
ENCODER(node, struct node)
ENCODER(tree, struct tree)
ENCODER(maps, struct maps)
ENCODER(arrays, struct arrays)
ENCODER(pinned, struct pinned)
ENCODER(rich, struct rich)
ENCODER(hollows, struct hollows)
ENCODER(h_count, struct h_count)
ENCODER(h_exact, struct h_exact)
ENCODER(company, struct company)
ENCODER(nic_stats, struct nic_stats)
ENCODER(aot_shapes, struct aot_shapes)
ENCODER(nic_queues, struct nic_queues)
ENCODER(mqtt_msg, struct mqtt_msg)
ENCODER(utmp_entry, struct utmp_entry)
ENCODER(input_ev, struct input_ev)
ENCODER(gps_fix, struct gps_fix)
ENCODER(mp_object, struct mp_object)
ENCODER(ev_value, struct ev_value)
ENCODER(packed_status, struct packed_status)
ENCODER(hd_grid, struct hd_grid)
ENCODER(aot_holders, struct aot_holders)
ENCODER(wide_money, struct wide_money)
ENCODER(aot_lisp, struct aot_lisp)
ENCODER(lisp, struct lisp)

/* aot_node_v0.avsc as the one branch of a union that is not null. */
static const char node_in_union[] =
        "[\"null\", {\"type\": \"record\", \"name\": \"aot_node\", \"namespace\": \"aot\", "
        "\"fields\": [{\"name\": \"value\", \"type\": \"int\"}, "
        "{\"name\": \"next\", \"type\": [\"null\", \"aot_node\"]}]}]";

/* The writer: a file of tests/codegen/earlier, schema text, or a generated record's schema. */
typedef struct pair {
    const char *file;
    const char *json;
    const avrogen_type *writer;
    const avrogen_type *reader;
    avrogen_status (*encode)(avrogen_writer *w, const void *v);
} pair;

#define EARLIER(file, P)                                 \
    {                                                    \
        file, NULL, NULL, &P##_avro_type, P##_encode_any \
    }
#define WRITER(W, P)                                               \
    {                                                              \
        NULL, NULL, &W##_avro_type, &P##_avro_type, P##_encode_any \
    }
#define OWN(P)                                                     \
    {                                                              \
        NULL, NULL, &P##_avro_type, &P##_avro_type, P##_encode_any \
    }

/* Keep the order: the seeds in corpus/evolve start with these indexes. */
static const pair pairs[] = {
        /* ahead-of-time decoders (tests/codegen/test_aot.c) */
        EARLIER("aot_event_v1.avsc", aot_event), /* 0 */
        EARLIER("aot_event_v2.avsc", aot_event),
        EARLIER("aot_point_v0.avsc", aot_point),
        EARLIER("aot_node_v0.avsc", aot_node),
        /* the direct decoder: the reader's own schema, with another doc */
        EARLIER("aot_point_v1.avsc", aot_point), /* 4 */
        OWN(aot_event),
        /* a writer union holding the record: a plan, no decoder of its own */
        {NULL, node_in_union, NULL, &aot_node_avro_type, aot_node_encode_any},
        /* cg_evolve_old.h's writers (tests/codegen/test_type_plan.c) */
        WRITER(prims_w, prims), /* 7 */
        WRITER(maybe_texts_w, maybe_texts),
        WRITER(palette_w, palette),
        WRITER(shape_w, shape), /* 10 */
        WRITER(node_w, node),
        WRITER(tree_w, tree),
        WRITER(maps_w, maps),
        WRITER(arrays_w, arrays),
        WRITER(pinned_w, pinned), /* 15 */
        WRITER(ev_old_rich, rich),
        /* own schemas: plan against P_avro_decode */
        OWN(rich), /* 17 */
        OWN(hollows),
        OWN(h_count),
        OWN(h_exact), /* 20 */
        OWN(company),
        /* issue 11's struct shapes (tests/codegen/headers/cg_shapes.h) */
        OWN(nic_stats), /* 22 */
        EARLIER("aot_shapes_v0.avsc", aot_shapes),
        EARLIER("aot_shapes_v1.avsc", aot_shapes),
        OWN(aot_shapes),
        OWN(input_ev),
        OWN(gps_fix),
        OWN(nic_queues),
        OWN(mqtt_msg),
        OWN(utmp_entry), /* 30 */
        OWN(mp_object),  /* AVRO_TAG: several values per branch */
        OWN(ev_value),
        OWN(packed_status), /* bit-fields */
        /* holders: arrays, maps and unions as array items and union branches (issue 14) */
        OWN(hd_grid), /* 34 */
        OWN(aot_holders),
        EARLIER("aot_holders_v0.avsc", aot_holders),
        OWN(wide_money), /* decimals past 18 digits on bytes, a fixed with a doc */
        /* recursion through a union branch that points to a record (python3-avro's Lisp) */
        OWN(lisp), /* 38 */
        OWN(aot_lisp),
        EARLIER("aot_lisp_v0.avsc", aot_lisp),
};
#define N_PAIRS (sizeof pairs / sizeof *pairs)

/* What each pair needs, built on its first input and kept for the process. */
typedef struct prepared {
    bool ready;
    avrogen_schema *writer;
    avrogen_schema *reader;
    uint64_t fp;
    avrogen_type_plan *plan;
    avrogen_resolver *res;
    avrogen_status (*fast)(avrogen_reader *r, void *dst, avrogen_arena *a);
    bool direct; /* fast is P_avro_decode */
} prepared;

static prepared prep[N_PAIRS];
static avrogen_plan_cache *cache;
/* One arena per decoder, each with the budget, reset per input: the same
 * allocations fail alike in each. */
static avrogen_arena a_plan, a_fast, a_as, a_gen;
static bool arenas_ready;

static void die(const pair *p, const char *what)
{
    fprintf(stderr, "fuzz_evolve: %s -> %s: %s\n", p->file != NULL ? p->file : "(schema text)",
            p->reader->name, what);
    abort();
}

static avrogen_schema *parse_writer(const pair *p)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st;
    if (p->file != NULL) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", EVOLVE_EARLIER_DIR, p->file);
        st = avrogen_schema_parse_file(path, NULL, &s, &d);
    } else {
        const char *text = p->json != NULL ? p->json : avrogen_type_schema(p->writer);
        st = avrogen_schema_parse(text, strlen(text), NULL, &s, &d);
    }
    if (st != AVROGEN_OK) {
        fprintf(stderr, "fuzz_evolve: writer schema: %s: %s\n", d.path, d.msg);
        die(p, "the writer schema does not parse");
    }
    return s;
}

static prepared *prepare(size_t i)
{
    prepared *x = &prep[i];
    const pair *p = &pairs[i];
    if (x->ready)
        return x;
    if (cache == NULL && (cache = avrogen_plan_cache_new(NULL)) == NULL)
        die(p, "no plan cache");
    x->writer = parse_writer(p);
    const char *rs = avrogen_type_schema(p->reader);
    avrogen_diag d;
    if (avrogen_schema_parse(rs, strlen(rs), NULL, &x->reader, &d) != AVROGEN_OK)
        die(p, "the reader's schema does not parse");
    x->fp = avrogen_schema_fingerprint64(x->writer);
    const avrogen_node *w = avrogen_schema_root(x->writer);
    if (avrogen_type_plan_new(w, p->reader, NULL, &x->plan, &d) != AVROGEN_OK ||
        avrogen_resolver_new(w, avrogen_schema_root(x->reader), NULL, &x->res, &d) != AVROGEN_OK) {
        fprintf(stderr, "fuzz_evolve: %s: %s\n", d.path, d.msg);
        die(p, "the pair does not resolve");
    }
    if (x->fp == p->reader->fingerprint) {
        x->fast = p->reader->decode;
        x->direct = true;
    }
    for (size_t k = 0; k < p->reader->n_resolved; k++)
        if (p->reader->resolved[k].fingerprint == x->fp)
            x->fast = p->reader->resolved[k].decode;
    x->ready = true;
    return x;
}

/* One decode's outcome. */
typedef struct outcome {
    avrogen_status st;
    size_t offset;                     /* consumed, or where the error is */
    const char *msg;                   /* text, or NULL */
    char text[AVROGEN_READER_MSG_CAP]; /* the reader's message, which may live in the reader */
    void *v;                           /* the struct, malloc'd */
    avrogen_writer bytes;              /* its re-encoding, on success */
} outcome;

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != 0)
            return false;
    return true;
}

static void reader_for(avrogen_reader *r, const uint8_t *datum, size_t len, bool tight)
{
    avrogen_reader_init(r, datum, len);
    r->max_items = tight ? ITEMS_TIGHT : ITEMS;
}

/* After a struct decoder ran on r into o->v: record the outcome, check the
 * struct is zero on failure, and re-encode it on success. */
static void settle(const pair *p, const char *who, avrogen_reader *r, avrogen_status st, outcome *o)
{
    char what[96];
    if (st != r->err) {
        snprintf(what, sizeof what, "%s returned %s with %s on the reader", who,
                 avrogen_status_str(st), avrogen_status_str(r->err));
        die(p, what);
    }
    o->st = st;
    snprintf(o->text, sizeof o->text, "%s", r->err_msg != NULL ? r->err_msg : "");
    o->msg = r->err_msg != NULL ? o->text : NULL;
    if (st != AVROGEN_OK) {
        o->offset = r->err_offset;
        if (!all_zero(o->v, p->reader->size)) {
            snprintf(what, sizeof what, "%s failed (%s) and left the struct non-zero", who,
                     avrogen_status_str(st));
            die(p, what);
        }
        return;
    }
    o->offset = avrogen_reader_offset(r);
    if (p->encode(&o->bytes, o->v) != AVROGEN_OK) {
        snprintf(what, sizeof what, "P_avro_encode refuses what %s decoded: %s", who,
                 avrogen_status_str(o->bytes.err));
        die(p, what);
    }
}

/* An outcome whose struct is garbage: a decoder must write every member it leaves. */
static void outcome_init(outcome *o, size_t n)
{
    memset(o, 0, sizeof *o);
    o->v = malloc(n != 0 ? n : 1);
    if (o->v == NULL)
        abort();
    memset(o->v, 0xa5, n);
    avrogen_writer_init_growable(&o->bytes, NULL);
}

static void outcome_fini(outcome *o)
{
    avrogen_writer_fini(&o->bytes);
    free(o->v);
}

/* Bytes that differ, shown before aborting (at most the first 256 of each). */
static void show(const char *who, const avrogen_writer *w)
{
    size_t n = avrogen_writer_len(w);
    fprintf(stderr, "fuzz_evolve: %s (%zu bytes):", who, n);
    for (size_t i = 0; i < n && i < 256; i++)
        fprintf(stderr, " %02x", avrogen_writer_data(w)[i]);
    fprintf(stderr, "\n");
}

static bool same_bytes(const avrogen_writer *a, const avrogen_writer *b)
{
    return avrogen_writer_len(a) == avrogen_writer_len(b) &&
           (avrogen_writer_len(a) == 0 ||
            memcmp(avrogen_writer_data(a), avrogen_writer_data(b), avrogen_writer_len(a)) == 0);
}

/* A message without the path in front ("Rec.f[2]: reason" -> "reason"): an
 * ahead-of-time decoder run on its own has no schema to name the member with. */
static const char *reason(const char *msg)
{
    const char *sep = strstr(msg, ": ");
    if (sep == NULL || memchr(msg, ' ', (size_t)(sep - msg)) != NULL)
        return msg;
    return sep + 2;
}

/* Past the reader's max_depth (gencode.h's avrogen_reader_enter says so). */
static bool too_deep(const outcome *o)
{
    return o->st == AVROGEN_E_LIMIT && o->msg != NULL &&
           strcmp(reason(o->msg), "nesting deeper than the reader's max_depth") == 0;
}

/* Two struct decoders' outcomes must be the same; with `offsets`, even where
 * they fail. */
static void agree(const pair *p, const char *who1, const outcome *o1, const char *who2,
                  const outcome *o2, bool offsets)
{
    char what[256];
    if (o1->st != o2->st) {
        snprintf(what, sizeof what, "%s says %s (%s), %s says %s (%s)", who1,
                 avrogen_status_str(o1->st), o1->msg != NULL ? o1->msg : "", who2,
                 avrogen_status_str(o2->st), o2->msg != NULL ? o2->msg : "");
        die(p, what);
    }
    if ((o1->st == AVROGEN_OK || offsets) && o1->offset != o2->offset) {
        snprintf(what, sizeof what, "%s %s at %zu, %s at %zu", who1,
                 o1->st == AVROGEN_OK ? "ends" : "fails", o1->offset, who2, o2->offset);
        die(p, what);
    }
    if (o1->st == AVROGEN_E_MISMATCH && strcmp(reason(o1->msg), reason(o2->msg)) != 0) {
        snprintf(what, sizeof what, "mismatch messages differ: \"%s\" (%s), \"%s\" (%s)", o1->msg,
                 who1, o2->msg, who2);
        die(p, what);
    }
    if (o1->st == AVROGEN_OK && !same_bytes(&o1->bytes, &o2->bytes)) {
        show(who1, &o1->bytes);
        show(who2, &o2->bytes);
        snprintf(what, sizeof what, "the structs of %s and %s re-encode differently", who1, who2);
        die(p, what);
    }
}

/*
 * True when the generic value's encoding `gw`, read by the reader's own
 * P_avro_decode and written again, is the plan's re-encoding. This is the
 * plan's contract word for word (resolve.h: what P_avro_decode would produce
 * from the datum written with the reader's schema); comparing the generic
 * encoding itself is only the shortcut. They differ where a C type holds less
 * than the Avro value: a decimal in an integer keeps the number, not its
 * bytes (an empty bytes value and 0x00 are both 0). (A string holding a NUL
 * byte cannot go into char * or char[N]: the plan fails there, E_INVALID.)
 */
static bool same_in_c(const pair *p, const outcome *plan, const avrogen_writer *gw)
{
    outcome o;
    outcome_init(&o, p->reader->size);
    avrogen_reader r;
    reader_for(&r, avrogen_writer_data(gw), avrogen_writer_len(gw), false);
    avrogen_arena_reset(&a_fast);
    settle(p, "P_avro_decode of the generic encoding", &r, p->reader->decode(&r, o.v, &a_fast), &o);
    bool same = o.st == AVROGEN_OK && same_bytes(&plan->bytes, &o.bytes);
    outcome_fini(&o);
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t index = (data[0] & ~TIGHT_BIT) % N_PAIRS;
    bool tight = (data[0] & TIGHT_BIT) != 0;
    const pair *p = &pairs[index];
    prepared *x = prepare(index);
    const uint8_t *datum = data + 1;
    size_t len = size - 1;
    size_t rsize = p->reader->size;

    avrogen_arena *arenas[] = {&a_plan, &a_fast, &a_as, &a_gen};
    for (size_t i = 0; i < 4; i++) {
        if (!arenas_ready) {
            avrogen_arena_init(arenas[i], NULL);
            avrogen_arena_set_budget(arenas[i], BUDGET);
        }
        avrogen_arena_reset(arenas[i]);
    }
    arenas_ready = true;

    /* The type plan. */
    avrogen_reader r;
    outcome plan, fast, as;
    outcome_init(&plan, rsize);
    outcome_init(&fast, rsize);
    outcome_init(&as, rsize);
    reader_for(&r, datum, len, tight);
    settle(p, "the plan", &r, avrogen_type_plan_decode(x->plan, &r, plan.v, &a_plan), &plan);

    /* The ahead-of-time (or direct) decoder. A plan skips writer-only data
     * with the generic avrogen_skip; a plan of the reader's own schema has
     * nothing to skip, and is P_avro_decode even in its nesting. */
    const char *who = x->direct ? "P_avro_decode" : "the ahead-of-time decoder";
    if (x->fast != NULL) {
        reader_for(&r, datum, len, tight);
        settle(p, who, &r, x->fast(&r, fast.v, &a_fast), &fast);
        if (x->direct || (!too_deep(&plan) && !too_deep(&fast)))
            agree(p, "the plan", &plan, who, &fast, x->direct);
    }

    /* avrogen_decode_as, whichever way it goes: the same code as one of the
     * above (or a plan of the writer's canonical form), so always the same. */
    reader_for(&r, datum, len, tight);
    settle(p, "avrogen_decode_as", &r,
           avrogen_decode_as(p->reader, cache, x->fp, x->writer, &r, as.v, &a_as), &as);
    if (x->fast != NULL)
        agree(p, who, &fast, "avrogen_decode_as", &as, true);
    else
        agree(p, "the plan", &plan, "avrogen_decode_as", &as, true);

    /* The generic resolver. */
    avrogen_value gv;
    reader_for(&r, datum, len, tight);
    outcome generic = {.st = avrogen_resolver_decode(x->res, &r, &gv, &a_gen)};
    snprintf(generic.text, sizeof generic.text, "%s", r.err_msg != NULL ? r.err_msg : "");
    generic.msg = r.err_msg != NULL ? generic.text : NULL;
    avrogen_status gst = generic.st;
    char what[160];
    if (too_deep(&plan) || too_deep(&generic)) {
        /* nothing to compare */
    } else if (plan.st == AVROGEN_OK) {
        if (gst != AVROGEN_OK) {
            snprintf(what, sizeof what,
                     "the plan reads the datum, the generic resolver fails: %s (%s)",
                     avrogen_status_str(gst), r.err_msg != NULL ? r.err_msg : "");
            die(p, what);
        }
        if (gst == AVROGEN_OK) {
            if (avrogen_reader_offset(&r) != plan.offset) {
                snprintf(what, sizeof what, "the plan ends at %zu, the generic resolver at %zu",
                         plan.offset, avrogen_reader_offset(&r));
                die(p, what);
            }
            avrogen_writer gw;
            avrogen_writer_init_growable(&gw, NULL);
            if (avrogen_value_encode(&gw, &gv) != AVROGEN_OK)
                die(p, "the generic resolver's value does not encode");
            if (!same_bytes(&plan.bytes, &gw) && !same_in_c(p, &plan, &gw)) {
                show("the plan", &plan.bytes);
                show("the generic resolver", &gw);
                die(p, "the plan's struct and the generic resolver's value encode differently");
            }
            avrogen_writer_fini(&gw);
        }
    } else if ((plan.st == AVROGEN_E_TRUNCATED || plan.st == AVROGEN_E_OVERFLOW ||
                plan.st == AVROGEN_E_MISMATCH) &&
               gst == AVROGEN_OK) {
        snprintf(what, sizeof what, "the plan fails (%s: %s), the generic resolver reads the datum",
                 avrogen_status_str(plan.st), plan.msg != NULL ? plan.msg : "");
        die(p, what);
    }

    outcome_fini(&plan);
    outcome_fini(&fast);
    outcome_fini(&as);
    return 0;
}
