/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the encoders, differentially. The first byte picks a
 * generated type of tests/codegen (low bits) and the writers' max_depth (high
 * bits: the default, or 0 to 6); the second picks a member to break. The rest
 * is a datum of the type's schema, which the generated decoder reads into a
 * struct: a struct built from the fuzz input, of any shape the type holds
 * (lists and trees as deep as the reader's max_depth allows). Then:
 *
 *   - P_avro_encode and the generic encoder (the struct as a generic value of
 *     the parsed schema, cg_to_value, encoded by avrogen_value_encode) get
 *     writers with the same max_depth and give the same status: both succeed
 *     with the same bytes, or both stop with E_LIMIT (the one depth limit
 *     counts recursive records alike). On success P_avro_size is the length
 *     and the bytes decode back to a struct equal to the first;
 *   - a broken member (a string made NULL, an enum value that is no
 *     enumerator, a tag that selects no branch, a count with NULL items, a
 *     nullable pointer to the record itself: a cycle) is refused by
 *     P_avro_encode with E_ARG or E_LIMIT, never a crash, with a message
 *     naming the member ("node.next: ..." or deeper); a cycle's
 *     P_avro_size is SIZE_MAX.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_shapes.avro.h"
#include "cg_strings.avro.h"
#include "cg_unions.avro.h"
#include "cg_util.h"
#include "cg_wide.avro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUDGET ((size_t)32 << 20) /* bytes per arena: what a datum may decode to */

CG_ADAPTERS(prims, struct prims)
CG_ADAPTERS(texts, struct texts)
CG_ADAPTERS(maybe_texts, struct maybe_texts)
CG_ADAPTERS(palette, struct palette)
CG_ADAPTERS(drawing, struct drawing)
CG_ADAPTERS(node, struct node)
CG_ADAPTERS(dnode, struct dnode)
CG_ADAPTERS(tree, struct tree)
CG_ADAPTERS(company, struct company)
CG_ADAPTERS(arrays, struct arrays)
CG_ADAPTERS(maps, struct maps)
CG_ADAPTERS(shape, struct shape)
CG_ADAPTERS(sheet, struct sheet)
CG_ADAPTERS(nic_stats, struct nic_stats)
CG_ADAPTERS(narrow, struct narrow)
CG_ADAPTERS(wide, struct wide)
CG_ADAPTERS(hd_grid, struct hd_grid)
CG_ADAPTERS(lisp, struct lisp)

/* Keep the order: the seeds in corpus/encode start with these indexes. */
static const cg_case cases[] = {
        CG_CASE(prims),   CG_CASE(texts),     CG_CASE(maybe_texts), CG_CASE(palette),
        CG_CASE(drawing), CG_CASE(node),      CG_CASE(dnode),       CG_CASE(tree),
        CG_CASE(company), CG_CASE(arrays),    CG_CASE(maps),        CG_CASE(shape),
        CG_CASE(sheet),   CG_CASE(nic_stats), CG_CASE(narrow),      CG_CASE(wide),
        CG_CASE(hd_grid), /* 16: holders */
        CG_CASE(lisp),    /* 17: a union branch that points to a record */
};
#define N_CASES (sizeof cases / sizeof *cases)
/* Byte 0: the case in bits 0-3 and 7 (so the first 16 cases' seeds keep their
 * meaning), max_depth in bits 4-6. */
#define CASE_OF(b)  ((size_t)(((unsigned)(b)&15u) | (((unsigned)(b) >> 7) << 4)) % N_CASES)
#define DEPTH_OF(b) (((unsigned)(b) >> 4) & 7u)

static avrogen_schema *schemas[N_CASES];
static avrogen_arena a_in, a_back, a_val;
static bool ready;

static void die(const cg_case *c, const char *what, const char *more)
{
    fprintf(stderr, "fuzz_encode: %s: %s%s%s\n", c->name, what, more != NULL ? ": " : "",
            more != NULL ? more : "");
    abort();
}

/* How many map entries v holds, at any depth. */
static size_t map_entries(const avrogen_value *v)
{
    const avrogen_node *t = v->type;
    size_t n = 0;
    switch (t->kind) {
    case AVROGEN_KIND_UNION:
        return map_entries(v->branch.value);
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields; i++)
            n += map_entries(&v->fields[i]);
        return n;
    case AVROGEN_KIND_ARRAY:
        for (size_t i = 0; i < v->array.count; i++)
            n += map_entries(&v->array.items[i]);
        return n;
    case AVROGEN_KIND_MAP:
        n = v->map.count;
        for (size_t i = 0; i < v->map.count; i++)
            n += map_entries(&v->map.entries[i].value);
        return n;
    default:
        return 0;
    }
}

static void dump(const char *who, avrogen_writer *w)
{
    const uint8_t *p = avrogen_writer_data(w);
    fprintf(stderr, "%s:", who);
    for (size_t i = 0; i < avrogen_writer_len(w); i++)
        fprintf(stderr, " %02x", p[i]);
    fputc('\n', stderr);
}

static void put_int(char *p, avrogen_scalar s, int64_t v)
{
    switch (s) {
    case AVROGEN_SCALAR_BOOL:
    case AVROGEN_SCALAR_I8:
    case AVROGEN_SCALAR_U8: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        return;
    }
    case AVROGEN_SCALAR_I16:
    case AVROGEN_SCALAR_U16: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        return;
    }
    case AVROGEN_SCALAR_I32:
    case AVROGEN_SCALAR_U32: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        return;
    }
    default:
        memcpy(p, &v, 8);
        return;
    }
}

/* The largest value of integer type s that is no tag of the union d, or no
 * enumerator of enum t (one of them NULL); false when every value is one. */
static bool unused_value(avrogen_scalar s, const avrogen_field_desc *d, const avrogen_type *t,
                         int64_t *out)
{
    int64_t top = s == AVROGEN_SCALAR_BOOL  ? 1
                  : s == AVROGEN_SCALAR_I8  ? INT8_MAX
                  : s == AVROGEN_SCALAR_U8  ? UINT8_MAX
                  : s == AVROGEN_SCALAR_I16 ? INT16_MAX
                  : s == AVROGEN_SCALAR_U16 ? UINT16_MAX
                  : s == AVROGEN_SCALAR_I32 ? INT32_MAX
                  : s == AVROGEN_SCALAR_U32 ? UINT32_MAX
                                            : INT64_MAX;
    for (int64_t v = top; v > top - 300 && v >= 0; v--) {
        bool used = false;
        if (t != NULL)
            for (size_t i = 0; i < t->n_symbols && !used; i++)
                used = t->values[i] == v;
        if (d != NULL)
            for (size_t i = 0; i < d->n_items && !used; i++) {
                const avrogen_field_ext *x = d->items[i].ext;
                if (x != NULL && x->tags != NULL) {
                    for (size_t k = 0; k < x->n_tags && !used; k++)
                        used = x->tags[k] == v;
                } else {
                    used = v == (int64_t)i;
                }
            }
        if (!used) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* Break field f of the record at v: true when it did (cycle: a self pointer). */
static bool breaks(const avrogen_type *t, const avrogen_field_desc *f, char *v, bool *cycle)
{
    char *p = v + f->offset;
    int64_t bad;
    *cycle = false;
    switch (f->storage) {
    case AVROGEN_STORAGE_CSTRING: {
        void *null = NULL;
        memcpy(p, &null, sizeof null);
        return true;
    }
    case AVROGEN_STORAGE_ENUM:
        if (f->type == NULL || f->type->values == NULL ||
            !unused_value(f->scalar, NULL, f->type, &bad))
            return false;
        put_int(p, f->scalar, bad);
        return true;
    case AVROGEN_STORAGE_TAGGED:
        if (!unused_value(f->aux_scalar, f, NULL, &bad))
            return false;
        put_int(v + f->aux_offset, f->aux_scalar, bad);
        return true;
    case AVROGEN_STORAGE_PTR_COUNT: {
        void *null = NULL;
        memcpy(p, &null, sizeof null);
        put_int(v + f->aux_offset, f->aux_scalar, 3);
        return true;
    }
    case AVROGEN_STORAGE_NULLABLE:
        if (!f->null_via_ptr || f->n_items != 1 || f->items[0].type != t)
            return false;
        memcpy(p, &v, sizeof v);
        *cycle = true;
        return true;
    default:
        return false;
    }
}

static void setup(void)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const char *s = avrogen_type_schema(cases[i].type);
        avrogen_diag d;
        if (avrogen_schema_parse(s, strlen(s), NULL, &schemas[i], &d) != AVROGEN_OK)
            die(&cases[i], "its schema does not parse", d.msg);
    }
    avrogen_arena_init(&a_in, NULL);
    avrogen_arena_init(&a_back, NULL);
    avrogen_arena_init(&a_val, NULL);
    avrogen_arena_set_budget(&a_in, BUDGET);
    avrogen_arena_set_budget(&a_back, BUDGET);
    ready = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    if (size < 2)
        return 0;
    size_t which = CASE_OF(data[0]);
    unsigned depth_pick = DEPTH_OF(data[0]);
    unsigned max_depth = depth_pick < 7 ? depth_pick : AVROGEN_DEFAULT_MAX_DEPTH;
    const cg_case *c = &cases[which];
    const avrogen_type *t = c->type;
    avrogen_arena_reset(&a_in);
    avrogen_arena_reset(&a_back);
    avrogen_arena_reset(&a_val);

    /* The struct, from the input. */
    uint8_t *input = malloc(size - 2 + 1);
    memcpy(input, data + 2, size - 2);
    char *v = calloc(1, t->size);
    avrogen_reader r;
    avrogen_reader_init(&r, input, size - 2);
    if (c->decode(&r, v, &a_in) != AVROGEN_OK) {
        free(v);
        free(input);
        return 0;
    }

    /* Both encoders, with the same max_depth. */
    avrogen_writer gw, vw;
    avrogen_writer_init_growable(&gw, NULL);
    avrogen_writer_init_growable(&vw, NULL);
    gw.max_depth = vw.max_depth = max_depth;
    avrogen_status gs = c->encode(&gw, v);
    avrogen_value val;
    avrogen_status cs = cg_to_value(avrogen_schema_root(schemas[which]), t, v, &val, &a_val);
    if (cs != AVROGEN_OK)
        die(c, "a decoded struct is no generic value", avrogen_status_str(cs));
    /* A struct's map is a list of entries: it may hold a key twice, as the wire
     * may. A generic value's map is a set (avrogen_value_map_put keeps one entry
     * a key), so for those compare with the generic decoder's value of the
     * struct's encoding (at the default depth) instead, which keeps every
     * entry in wire order. */
    avrogen_writer dw;
    avrogen_writer_init_growable(&dw, NULL);
    avrogen_value wire;
    if (c->encode(&dw, v) == AVROGEN_OK) {
        avrogen_reader_init(&r, avrogen_writer_data(&dw), avrogen_writer_len(&dw));
        if (avrogen_value_decode(&r, avrogen_schema_root(schemas[which]), &wire, &a_val) ==
                    AVROGEN_OK &&
            map_entries(&wire) != map_entries(&val))
            val = wire;
    }
    avrogen_status vs = avrogen_value_encode(&vw, &val);
    if (gs != vs) {
        char why[256];
        snprintf(why, sizeof why, "max_depth %u: generated %s (%s), generic %s (%s)", max_depth,
                 avrogen_status_str(gs), gw.err_msg != NULL ? gw.err_msg : "",
                 avrogen_status_str(vs), vw.err_msg != NULL ? vw.err_msg : "");
        die(c, "the encoders disagree", why);
    }
    if (gs == AVROGEN_OK) {
        size_t n = avrogen_writer_len(&gw);
        if (n != avrogen_writer_len(&vw) ||
            memcmp(avrogen_writer_data(&gw), avrogen_writer_data(&vw), n) != 0) {
            dump("generated", &gw);
            dump("generic", &vw);
            die(c, "the encoders write different bytes", NULL);
        }
        if (max_depth == AVROGEN_DEFAULT_MAX_DEPTH && c->size(v) != n)
            die(c, "P_avro_size is not the encoded length", NULL);
        char *back = calloc(1, t->size);
        avrogen_reader_init(&r, avrogen_writer_data(&gw), n);
        r.max_depth = max_depth;
        const char *where = NULL;
        if (c->decode(&r, back, &a_back) != AVROGEN_OK || avrogen_reader_remaining(&r) != 0)
            die(c, "what the encoder wrote does not decode", r.err_msg);
        if (!cg_equal(t, v, back, &where))
            die(c, "decoded back, it differs", where);
        free(back);
    } else if (gs != AVROGEN_E_LIMIT || gw.err_msg == NULL) {
        die(c, "a decoded struct is refused, not at the depth limit", gw.err_msg);
    }
    avrogen_writer_fini(&gw);
    avrogen_writer_fini(&vw);
    avrogen_writer_fini(&dw);

    /* One member broken: refused with a message naming a member, never a crash. */
    size_t f = data[1] % t->n_fields;
    bool cycle;
    if (breaks(t, &t->fields[f], v, &cycle)) {
        avrogen_writer_init_growable(&gw, NULL);
        avrogen_status st = c->encode(&gw, v);
        const char *dot = strrchr(t->name, '.');
        const char *shortname = dot != NULL ? dot + 1 : t->name;
        if (st != AVROGEN_E_ARG && st != AVROGEN_E_LIMIT)
            die(c, "a broken member is not refused", t->fields[f].name);
        if (gw.err_msg == NULL || strncmp(gw.err_msg, shortname, strlen(shortname)) != 0 ||
            gw.err_msg[strlen(shortname)] != '.')
            die(c, "the refusal names no member", gw.err_msg);
        if (cycle && c->size(v) != SIZE_MAX)
            die(c, "a cycle has a size", NULL);
        avrogen_writer_fini(&gw);
    }
    free(v);
    free(input);
    return 0;
}
