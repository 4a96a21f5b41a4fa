/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema resolution for generic values (spec §Schema Resolution). Building a
 * resolver walks the writer and reader schemas together once and records a
 * plan: for every (writer, reader) pair of nodes, one op saying how to turn the
 * writer's bytes into a reader-shaped value. Field matching, enum symbol maps
 * and defaults (kept as their binary encoding) are all settled there, so
 * decoding only follows the plan. Plans for named types are memoised per pair,
 * which both shares them and ends the walk on recursive types.
 *
 * Not here: generated code (structs) and the compatibility checker.
 */
#include "avrogen/resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "resolve_internal.h"
#include "value_internal.h"

typedef enum op {
    OP_READ,    /* same encoding as the reader node: plain decode */
    OP_PROMOTE, /* int/long/float widened to the reader's number type */
    OP_ENUM,    /* writer index mapped to a reader index */
    OP_RECORD,
    OP_ARRAY,
    OP_MAP,
    OP_WUNION, /* writer union: one plan per writer branch */
    OP_RUNION  /* reader union, non-union writer: always the same reader branch */
} op;

typedef struct plan plan;

/*
 * One writer field, in writer order: skipped, or decoded into reader field
 * `target`, and again into each reader field of the `also` chain (every
 * reader field that names it or has it as an alias, as Java and Python read
 * it: the spec is silent on one writer field matching several).
 */
typedef struct field_step {
    const avrogen_node *skip; /* writer type to skip, or NULL */
    size_t target;            /* reader field index */
    const plan *p;
    const struct field_step *also; /* the next reader field it feeds, or NULL */
} field_step;

/* A reader field the writer lacks: its default, binary-encoded with the field's type. */
typedef struct field_default {
    size_t target;
    const uint8_t *bytes;
    size_t len;
} field_default;

struct plan {
    op op;
    const avrogen_node *w;
    const avrogen_node *rd;
    const plan *child;       /* array items, map values, OP_RUNION branch */
    size_t branch;           /* OP_RUNION: the reader branch index */
    bool zero_items;         /* OP_ARRAY: some writer item encodes in zero bytes */
    const field_step *steps; /* OP_RECORD: w->n_fields of them */
    const field_default *defaults;
    size_t n_defaults;
    const long *symbol_map;      /* OP_ENUM: per writer symbol, reader index or -1 */
    const char *const *errors;   /* OP_ENUM / OP_WUNION: per writer symbol/branch, why it fails */
    const plan *const *branches; /* OP_WUNION: per writer branch, or NULL */
};

struct avrogen_resolver {
    avrogen_arena arena; /* every plan, table and message */
    avrogen_alloc alloc;
    const plan *root;
    const avrogen_node *writer; /* borrowed: where a failed decode is placed */
};

typedef struct memo {
    const avrogen_node *w;
    const avrogen_node *rd;
    plan *p;
    struct memo *next;
} memo;

typedef struct builder {
    avrogen_resolver *res;
    avrogen_arena scratch; /* default values on their way to bytes */
    memo *memo;
    avrogen_walk w; /* arena, path, first error */
    unsigned depth; /* of build() calls: a chain of named types can nest deeper than
                       any one datum may, and must not overflow the stack */
} builder;

/* Deeper than any real schema; a hostile one gets E_LIMIT, not a stack overflow. */
#define RESOLVE_MAX_DEPTH 4096

/* ---- the builders' walk (resolve_internal.h) -------------------------------- */

void *avrogen_walk_alloc(avrogen_walk *w, size_t count, size_t size)
{
    void *p = avrogen_arena_calloc(w->arena, count == 0 ? 1 : count, size);
    if (p == NULL && w->st == AVROGEN_OK) {
        w->st = AVROGEN_E_NOMEM;
        if (w->why != NULL)
            snprintf(w->why->msg, sizeof w->why->msg, "out of memory");
    }
    return p;
}

const char *avrogen_walk_format(avrogen_walk *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *s = avrogen_walk_alloc(w, (size_t)n + 1, 1);
    if (s == NULL)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void avrogen_walk_fail(avrogen_walk *w, avrogen_status st, const char *fmt, ...)
{
    if (w->st != AVROGEN_OK)
        return;
    w->st = st;
    if (w->why == NULL)
        return;
    size_t n = w->path_len < sizeof w->why->path ? w->path_len : sizeof w->why->path - 1;
    memcpy(w->why->path, w->path, n);
    w->why->path[n] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why->msg, sizeof w->why->msg, fmt, ap);
    va_end(ap);
}

size_t avrogen_walk_push(avrogen_walk *w, const char *seg, size_t index, bool with_index)
{
    size_t old = w->path_len;
    int n = with_index ? snprintf(w->path + old, sizeof w->path - old, "%s%zu", seg, index)
                       : snprintf(w->path + old, sizeof w->path - old, "%s", seg);
    if (n > 0)
        w->path_len = old + (size_t)n < sizeof w->path ? old + (size_t)n : sizeof w->path - 1;
    return old;
}

void avrogen_walk_pop(avrogen_walk *w, size_t old)
{
    w->path_len = old;
    w->path[old] = '\0';
}

/* ---- building -------------------------------------------------------------- */

/* Decimal parameters on both sides that differ: the walk fails. */
bool avrogen_decimals_agree(avrogen_walk *w, const avrogen_node *wn, const avrogen_node *rd)
{
    if (avrogen_decimals_match(wn, rd))
        return true;
    avrogen_walk_fail(w, AVROGEN_E_MISMATCH,
                      "the writer's decimal(%d, %d) cannot be read as decimal(%d, %d): the scales "
                      "and precisions must match",
                      wn->precision, wn->scale, rd->precision, rd->scale);
    return false;
}

/* Two named types of the same kind: their names, a fixed's size and decimal. */
bool avrogen_named_agree(avrogen_walk *w, const avrogen_node *wn, const avrogen_node *rd)
{
    if (!avrogen_names_match(wn, rd)) {
        avrogen_walk_fail(w, AVROGEN_E_MISMATCH,
                          "the writer's %s %s does not match the reader's %s",
                          avrogen_kind_name(wn->kind), wn->fullname, rd->fullname);
        return false;
    }
    if (wn->kind == AVROGEN_KIND_FIXED && wn->size != rd->size) {
        avrogen_walk_fail(w, AVROGEN_E_MISMATCH,
                          "the writer's fixed %s has size %zu, the reader's %zu", wn->fullname,
                          wn->size, rd->size);
        return false;
    }
    return wn->kind != AVROGEN_KIND_FIXED || avrogen_decimals_agree(w, wn, rd);
}

/* The unqualified part of a (full) name. */
static const char *unqualified(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL ? dot + 1 : name;
}

/*
 * spec §Schema Resolution: "both schemas are records with the same
 * (unqualified) name" (enums and fixed alike), so a.R is read as b.R; or a
 * reader alias names the writer's type, again by its unqualified part.
 */
bool avrogen_names_match(const avrogen_node *w, const avrogen_node *rd)
{
    if (strcmp(w->name, rd->name) == 0)
        return true;
    for (size_t i = 0; i < rd->n_aliases; i++)
        if (strcmp(unqualified(rd->aliases[i]), w->name) == 0)
            return true;
    return false;
}

/* The same name, namespace included, or a reader alias that is the writer's fullname. */
static bool fullnames_match(const avrogen_node *w, const avrogen_node *rd)
{
    if (strcmp(w->fullname, rd->fullname) == 0)
        return true;
    for (size_t i = 0; i < rd->n_aliases; i++)
        if (strcmp(rd->aliases[i], w->fullname) == 0)
            return true;
    return false;
}

/* spec §Logical Types, Decimal: "two schemas that are decimal logical types
 * match if their scales and precisions match"; otherwise the logical type does
 * not take part in matching. */
bool avrogen_decimals_match(const avrogen_node *w, const avrogen_node *rd)
{
    return w->logical != AVROGEN_LOGICAL_DECIMAL || rd->logical != AVROGEN_LOGICAL_DECIMAL ||
           (w->precision == rd->precision && w->scale == rd->scale);
}

bool avrogen_kind_promotes(avrogen_kind w, avrogen_kind rd)
{
    switch (w) {
    case AVROGEN_KIND_INT:
        return rd == AVROGEN_KIND_LONG || rd == AVROGEN_KIND_FLOAT || rd == AVROGEN_KIND_DOUBLE;
    case AVROGEN_KIND_LONG:
        return rd == AVROGEN_KIND_FLOAT || rd == AVROGEN_KIND_DOUBLE;
    case AVROGEN_KIND_FLOAT:
        return rd == AVROGEN_KIND_DOUBLE;
    case AVROGEN_KIND_STRING:
        return rd == AVROGEN_KIND_BYTES;
    case AVROGEN_KIND_BYTES:
        return rd == AVROGEN_KIND_STRING;
    default:
        return false;
    }
}

/* See resolve_internal.h. */
bool avrogen_branch_matches(const avrogen_node *w, const avrogen_node *rd)
{
    if (w->kind == AVROGEN_KIND_UNION || rd->kind == AVROGEN_KIND_UNION)
        return false;
    if (w->kind != rd->kind)
        return avrogen_kind_promotes(w->kind, rd->kind);
    switch (w->kind) {
    case AVROGEN_KIND_FIXED:
        return w->size == rd->size && avrogen_names_match(w, rd) && avrogen_decimals_match(w, rd);
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ENUM:
        return avrogen_names_match(w, rd);
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return w->items->kind == AVROGEN_KIND_UNION || rd->items->kind == AVROGEN_KIND_UNION ||
               avrogen_branch_matches(w->items, rd->items);
    case AVROGEN_KIND_BYTES:
        return avrogen_decimals_match(w, rd);
    default:
        return true;
    }
}

/* See resolve_internal.h. */
long avrogen_reader_branch(const avrogen_node *w, const avrogen_node *u)
{
    /* Two branches may share an unqualified name (a.R and b.R): the one whose
     * full name the writer's is comes first. */
    if (avrogen_node_is_named(w))
        for (size_t k = 0; k < u->n_branches; k++)
            if (u->branches[k]->kind == w->kind && fullnames_match(w, u->branches[k]) &&
                avrogen_branch_matches(w, u->branches[k]))
                return (long)k;
    for (size_t k = 0; k < u->n_branches; k++)
        if (avrogen_branch_matches(w, u->branches[k]))
            return (long)k;
    return -1;
}

static plan *build(builder *b, const avrogen_node *w, const avrogen_node *rd);

static plan *new_plan(builder *b, op o, const avrogen_node *w, const avrogen_node *rd)
{
    plan *p = avrogen_walk_alloc(&b->w, 1, sizeof *p);
    if (p != NULL) {
        p->op = o;
        p->w = w;
        p->rd = rd;
    }
    return p;
}

/* A new plan for a named pair, remembered before its insides are built. */
static plan *new_named(builder *b, op o, const avrogen_node *w, const avrogen_node *rd)
{
    memo *m = avrogen_walk_alloc(&b->w, 1, sizeof *m);
    plan *p = new_plan(b, o, w, rd);
    if (m == NULL || p == NULL)
        return NULL;
    m->w = w;
    m->rd = rd;
    m->p = p;
    m->next = b->memo;
    b->memo = m;
    return p;
}

/* The default of reader field `f`, encoded in binary so decode can copy it cheaply. */
static bool encode_default(builder *b, const avrogen_field *f, field_default *out)
{
    avrogen_value v;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_value_from_default(f, &v, &b->scratch, &d);
    if (st != AVROGEN_OK) {
        avrogen_walk_fail(&b->w, st, "default of field \"%s\" (at %s): %s", f->name, d.path, d.msg);
        return false;
    }
    avrogen_writer w;
    avrogen_writer_init_growable(&w, &b->res->alloc);
    if (avrogen_value_encode(&w, &v) != AVROGEN_OK) {
        avrogen_walk_fail(&b->w, w.err, "default of field \"%s\": %s", f->name,
                          avrogen_status_str(w.err));
        avrogen_writer_fini(&w);
        return false;
    }
    out->len = avrogen_writer_len(&w);
    uint8_t *bytes = avrogen_walk_alloc(&b->w, out->len, 1);
    if (bytes != NULL && out->len != 0)
        memcpy(bytes, avrogen_writer_data(&w), out->len);
    out->bytes = bytes;
    avrogen_writer_fini(&w);
    return bytes != NULL;
}

bool avrogen_union_branch_readable(const avrogen_node *wb, const avrogen_node *rd)
{
    if (rd->kind != AVROGEN_KIND_UNION)
        return avrogen_branch_matches(wb, rd);
    return avrogen_reader_branch(wb, rd) >= 0;
}

/* spec: fields match by name, or by a reader field alias naming the writer's field. */
long avrogen_find_writer_field(const avrogen_node *w, const avrogen_field *rf)
{
    for (size_t i = 0; i < w->n_fields; i++)
        if (strcmp(w->fields[i].name, rf->name) == 0)
            return (long)i;
    for (size_t k = 0; k < rf->n_aliases; k++)
        for (size_t i = 0; i < w->n_fields; i++)
            if (strcmp(w->fields[i].name, rf->aliases[k]) == 0)
                return (long)i;
    return -1;
}

static bool build_record(builder *b, plan *p)
{
    const avrogen_node *w = p->w, *rd = p->rd;
    field_step *steps = avrogen_walk_alloc(&b->w, w->n_fields, sizeof *steps);
    field_default *defaults = avrogen_walk_alloc(&b->w, rd->n_fields, sizeof *defaults);
    if (steps == NULL || defaults == NULL)
        return false;
    for (size_t i = 0; i < w->n_fields; i++)
        steps[i].skip = w->fields[i].type;
    size_t n_defaults = 0;
    /* The last step of each writer field's chain, where the next reader field it feeds goes. */
    field_step **last = avrogen_walk_alloc(&b->w, w->n_fields, sizeof *last);
    if (last == NULL)
        return false;
    for (size_t j = 0; j < rd->n_fields && b->w.st == AVROGEN_OK; j++) {
        const avrogen_field *rf = &rd->fields[j];
        long wi = avrogen_find_writer_field(w, rf);
        size_t old = avrogen_walk_push(&b->w, "/fields/", j, true);
        if (wi >= 0) {
            field_step *s = &steps[wi];
            if (last[wi] != NULL) {
                s = avrogen_walk_alloc(&b->w, 1, sizeof *s);
                if (s == NULL)
                    break;
                last[wi]->also = s;
            }
            last[wi] = s;
            avrogen_walk_push(&b->w, "/type", 0, false);
            s->skip = NULL;
            s->target = j;
            s->p = build(b, w->fields[wi].type, rf->type);
        } else if (rf->default_json != NULL) {
            defaults[n_defaults].target = j;
            if (encode_default(b, rf, &defaults[n_defaults]))
                n_defaults++;
        } else {
            avrogen_walk_fail(
                    &b->w, AVROGEN_E_MISMATCH,
                    "reader field \"%s\" of %s has no default, and the writer's record has no "
                    "such field",
                    rf->name, rd->fullname);
        }
        avrogen_walk_pop(&b->w, old);
    }
    p->steps = steps;
    p->defaults = defaults;
    p->n_defaults = n_defaults;
    return b->w.st == AVROGEN_OK;
}

static bool build_enum(builder *b, plan *p)
{
    const avrogen_node *w = p->w, *rd = p->rd;
    long *map = avrogen_walk_alloc(&b->w, w->n_symbols, sizeof *map);
    const char **errors = avrogen_walk_alloc(&b->w, w->n_symbols, sizeof *errors);
    if (map == NULL || errors == NULL)
        return false;
    for (size_t i = 0; i < w->n_symbols; i++) {
        map[i] = -1;
        for (size_t k = 0; k < rd->n_symbols; k++)
            if (strcmp(w->symbols[i], rd->symbols[k]) == 0)
                map[i] = (long)k;
        /* spec: an unknown writer symbol takes the reader's default, else is an error. */
        if (map[i] < 0)
            map[i] = rd->enum_default;
        if (map[i] < 0)
            errors[i] =
                    avrogen_walk_format(&b->w, "enum symbol \"%s\" is not in the reader's enum %s",
                                        w->symbols[i], rd->fullname);
    }
    p->symbol_map = map;
    p->errors = errors;
    return b->w.st == AVROGEN_OK;
}

static plan *build_writer_union(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    plan *p = new_plan(b, OP_WUNION, w, rd);
    const plan **branches = avrogen_walk_alloc(&b->w, w->n_branches, sizeof *branches);
    const char **errors = avrogen_walk_alloc(&b->w, w->n_branches, sizeof *errors);
    if (p == NULL || branches == NULL || errors == NULL)
        return NULL;
    size_t usable = 0;
    for (size_t i = 0; i < w->n_branches && b->w.st == AVROGEN_OK; i++) {
        const avrogen_node *wb = w->branches[i];
        if (avrogen_union_branch_readable(wb, rd)) {
            branches[i] = build(b, wb, rd);
            usable++;
        } else {
            errors[i] =
                    avrogen_walk_format(&b->w,
                                        "the writer's union branch %zu (%s) matches nothing in the "
                                        "reader's schema",
                                        i, avrogen_node_name(wb));
        }
    }
    if (b->w.st == AVROGEN_OK && usable == 0 && w->n_branches != 0)
        avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH,
                          "no branch of the writer's union can be read as %s",
                          avrogen_node_name(rd));
    p->branches = branches;
    p->errors = errors;
    return b->w.st == AVROGEN_OK ? p : NULL;
}

static plan *build_reader_union(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    long pick = avrogen_reader_branch(w, rd);
    if (pick >= 0) {
        size_t k = (size_t)pick;
        plan *p = new_plan(b, OP_RUNION, w, rd);
        if (p == NULL)
            return NULL;
        size_t old = avrogen_walk_push(&b->w, "/", k, true);
        p->branch = k;
        p->child = build(b, w, rd->branches[k]);
        avrogen_walk_pop(&b->w, old);
        return p->child != NULL ? p : NULL;
    }
    avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH,
                      "the writer's %s matches no branch of the reader's union",
                      avrogen_node_name(w));
    return NULL;
}

static plan *build_named(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    for (const memo *m = b->memo; m != NULL; m = m->next)
        if (m->w == w && m->rd == rd)
            return m->p;
    if (!avrogen_named_agree(&b->w, w, rd))
        return NULL;
    op o = w->kind == AVROGEN_KIND_RECORD ? OP_RECORD
           : w->kind == AVROGEN_KIND_ENUM ? OP_ENUM
                                          : OP_READ;
    plan *p = new_named(b, o, w, rd);
    if (p == NULL)
        return NULL;
    bool ok = o == OP_RECORD ? build_record(b, p) : o == OP_ENUM ? build_enum(b, p) : true;
    return ok ? p : NULL;
}

static plan *build_node(builder *b, const avrogen_node *w, const avrogen_node *rd);

static plan *build(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    if (b->w.st != AVROGEN_OK)
        return NULL;
    if (b->depth >= RESOLVE_MAX_DEPTH) {
        avrogen_walk_fail(&b->w, AVROGEN_E_LIMIT, "schemas nest deeper than %d levels",
                          RESOLVE_MAX_DEPTH);
        return NULL;
    }
    b->depth++;
    plan *p = build_node(b, w, rd);
    b->depth--;
    return p;
}

static plan *build_node(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    if (w->kind == AVROGEN_KIND_UNION)
        return build_writer_union(b, w, rd);
    if (rd->kind == AVROGEN_KIND_UNION)
        return build_reader_union(b, w, rd);
    if (w->kind != rd->kind) {
        if (!avrogen_kind_promotes(w->kind, rd->kind)) {
            avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH, "the writer's %s cannot be read as %s",
                              avrogen_node_name(w), avrogen_node_name(rd));
            return NULL;
        }
        /* string and bytes share an encoding: the reader's node decodes them. */
        bool same_bytes = w->kind == AVROGEN_KIND_STRING || w->kind == AVROGEN_KIND_BYTES;
        return new_plan(b, same_bytes ? OP_READ : OP_PROMOTE, w, rd);
    }
    switch (w->kind) {
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ENUM:
    case AVROGEN_KIND_FIXED:
        return build_named(b, w, rd);
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        plan *p = new_plan(b, w->kind == AVROGEN_KIND_ARRAY ? OP_ARRAY : OP_MAP, w, rd);
        if (p == NULL)
            return NULL;
        size_t old = avrogen_walk_push(&b->w, w->kind == AVROGEN_KIND_ARRAY ? "/items" : "/values",
                                       0, false);
        p->child = build(b, w->items, rd->items);
        p->zero_items = w->items->min_size == 0;
        avrogen_walk_pop(&b->w, old);
        return p->child != NULL ? p : NULL;
    }
    case AVROGEN_KIND_BYTES:
        if (!avrogen_decimals_agree(&b->w, w, rd))
            return NULL;
        return new_plan(b, OP_READ, w, rd);
    default:
        return new_plan(b, OP_READ, w, rd);
    }
}

avrogen_status avrogen_resolver_new(const avrogen_node *writer, const avrogen_node *reader,
                                    const avrogen_alloc *alloc, avrogen_resolver **out,
                                    avrogen_diag *why)
{
    *out = NULL;
    if (why != NULL)
        memset(why, 0, sizeof *why);
    avrogen_resolver *res = avrogen_malloc(alloc, sizeof *res);
    if (res == NULL) {
        if (why != NULL)
            snprintf(why->msg, sizeof why->msg, "out of memory");
        return AVROGEN_E_NOMEM;
    }
    res->alloc = alloc != NULL ? *alloc : avrogen_alloc_libc;
    avrogen_arena_init(&res->arena, &res->alloc);
    builder b;
    memset(&b, 0, sizeof b);
    b.res = res;
    b.w.arena = &res->arena;
    b.w.why = why;
    avrogen_arena_init(&b.scratch, &res->alloc);
    res->writer = writer;
    res->root = build(&b, writer, reader);
    avrogen_arena_fini(&b.scratch);
    if (b.w.st == AVROGEN_OK && res->root == NULL)
        b.w.st = AVROGEN_E_NOMEM;
    if (b.w.st != AVROGEN_OK) {
        avrogen_resolver_free(res);
        return b.w.st;
    }
    *out = res;
    return AVROGEN_OK;
}

void avrogen_resolver_free(avrogen_resolver *res)
{
    if (res == NULL)
        return;
    avrogen_alloc alloc = res->alloc;
    avrogen_arena_fini(&res->arena);
    avrogen_free(&alloc, res, sizeof *res);
}

/* ---- decoding -------------------------------------------------------------- */

static void fail_alloc(avrogen_reader *r, const avrogen_arena *a, size_t size)
{
    avrogen_status st = avrogen_value_arena_status(a, size);
    avrogen_reader_fail(r, st, st == AVROGEN_E_LIMIT ? "arena budget exhausted" : "out of memory");
}

static void *alloc_array(avrogen_reader *r, avrogen_arena *a, size_t count, size_t elem)
{
    size_t size;
    if (!avrogen_size_mul(count, elem, &size)) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "arena budget exhausted");
        return NULL;
    }
    void *p = avrogen_arena_alloc(a, size);
    if (p == NULL)
        fail_alloc(r, a, size);
    return p;
}

/*
 * Room for `need` slots of `elem` bytes. Doubling, capped by what the rest of
 * the datum can still hold (one item per input byte, or per budgeted item for
 * zero-byte items), as value.c's decoder does.
 */
static bool grow(avrogen_reader *r, avrogen_arena *a, void **slots, size_t *cap, size_t count,
                 size_t need, size_t elem, bool zero)
{
    if (need <= *cap)
        return true;
    size_t want = *cap <= SIZE_MAX / 2 ? *cap * 2 : SIZE_MAX;
    if (want < need)
        want = need;
    size_t limit;
    if (avrogen_size_add(need, zero ? r->items_left : avrogen_reader_remaining(r), &limit) &&
        want > limit)
        want = limit;
    void *p = alloc_array(r, a, want, elem);
    if (p == NULL)
        return false;
    if (count != 0)
        memcpy(p, *slots, count * elem);
    *slots = p;
    *cap = want;
    return true;
}

/* Block count of the next array/map block (*end: avrogen_read_block's), refusing
 * counts the input cannot hold. */
static size_t next_block(avrogen_reader *r, const uint8_t **end, bool zero)
{
    size_t n = avrogen_read_block(r, end);
    if (n != 0 && !zero && n > avrogen_reader_remaining(r)) {
        avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "block count runs past the end of the input");
        return 0;
    }
    return n;
}

/* What a decode carries down: the values' arena, and the levels entered. */
typedef struct runner {
    avrogen_arena *a;
    unsigned levels; /* containers still allowed (avrogen_nesting_limit) */
} runner;

static void run(avrogen_reader *r, const plan *p, avrogen_value *out, runner *c);

static void run_record(avrogen_reader *r, const plan *p, avrogen_value *out, runner *c)
{
    const avrogen_node *w = p->w, *rd = p->rd;
    avrogen_value *f = alloc_array(r, c->a, rd->n_fields, sizeof *f);
    if (f == NULL)
        return;
    out->fields = f;
    for (size_t i = 0; i < w->n_fields && r->err == AVROGEN_OK; i++) {
        const field_step *s = &p->steps[i];
        if (s->skip != NULL) {
            if (avrogen_skip_inner(r, s->skip) != AVROGEN_OK)
                return;
            continue;
        }
        const uint8_t *at = r->p;
        run(r, s->p, &f[s->target], c);
        /* Each further reader field reads the same bytes again (at a cost to
         * the item budget: avrogen_reader_reread). */
        for (s = s->also; s != NULL && avrogen_reader_reread(r, at); s = s->also)
            run(r, s->p, &f[s->target], c);
    }
    for (size_t i = 0; i < p->n_defaults && r->err == AVROGEN_OK; i++) {
        const field_default *d = &p->defaults[i];
        avrogen_reader sub;
        avrogen_reader_init(&sub, d->bytes, d->len);
        sub.depth = r->depth;
        sub.max_depth = r->max_depth;
        sub.items_left = r->items_left;
        sub.max_items = r->max_items;
        sub.check_utf8 = r->check_utf8;
        if (avrogen_value_read_inner(&sub, rd->fields[d->target].type, &f[d->target], c->a, 0) !=
            AVROGEN_OK)
            avrogen_reader_fail(r, sub.err, sub.err_msg);
        r->items_left = sub.items_left;
    }
}

static void run_array(avrogen_reader *r, const plan *p, avrogen_value *out, runner *c)
{
    bool zero = p->zero_items;
    avrogen_value_array *arr = &out->array;
    size_t n;
    const uint8_t *end = NULL;
    while (r->err == AVROGEN_OK && (n = next_block(r, &end, zero)) != 0) {
        size_t need;
        if (!avrogen_size_add(arr->count, n, &need)) {
            avrogen_reader_fail(r, AVROGEN_E_LIMIT, "too many items");
            return;
        }
        void *slots = arr->items;
        if (!grow(r, c->a, &slots, &arr->cap, arr->count, need, sizeof(avrogen_value), zero))
            return;
        arr->items = slots;
        for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++)
            run(r, p->child, &arr->items[arr->count++], c);
    }
}

static void run_map(avrogen_reader *r, const plan *p, avrogen_value *out, runner *c)
{
    avrogen_value_map *m = &out->map;
    size_t n;
    /* spec §Maps: every key takes at least its length byte. */
    const uint8_t *end = NULL;
    while (r->err == AVROGEN_OK && (n = next_block(r, &end, false)) != 0) {
        size_t need;
        if (!avrogen_size_add(m->count, n, &need)) {
            avrogen_reader_fail(r, AVROGEN_E_LIMIT, "too many entries");
            return;
        }
        void *slots = m->entries;
        if (!grow(r, c->a, &slots, &m->cap, m->count, need, sizeof(avrogen_map_entry), false))
            return;
        m->entries = slots;
        for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++) {
            avrogen_str key = avrogen_read_string(r);
            if (r->err != AVROGEN_OK)
                return;
            char *copy = avrogen_arena_strndup(c->a, key.ptr, key.len);
            if (copy == NULL) {
                fail_alloc(r, c->a, key.len + 1);
                return;
            }
            avrogen_map_entry *e = &m->entries[m->count++];
            e->key.ptr = copy;
            e->key.len = key.len;
            run(r, p->child, &e->value, c);
        }
    }
}

static void run(avrogen_reader *r, const plan *p, avrogen_value *out, runner *c)
{
    if (r->err != AVROGEN_OK)
        return;
    switch (p->op) {
    case OP_READ:
        /* A failure is sticky on r, where the caller looks for it. */
        (void)!avrogen_value_read_inner(r, p->rd, out, c->a, 0);
        return;
    case OP_PROMOTE: {
        double x = 0;
        int64_t i = 0;
        bool integral = true;
        switch (p->w->kind) {
        case AVROGEN_KIND_INT:
            i = avrogen_read_int(r);
            break;
        case AVROGEN_KIND_LONG:
            i = avrogen_read_long(r);
            break;
        default:
            x = avrogen_read_float(r);
            integral = false;
            break;
        }
        out->type = p->rd;
        if (p->rd->kind == AVROGEN_KIND_LONG)
            out->i64 = i;
        else if (p->rd->kind == AVROGEN_KIND_FLOAT)
            out->f32 = (float)i;
        else
            out->f64 = integral ? (double)i : x;
        return;
    }
    case OP_ENUM: {
        int32_t i = avrogen_read_int(r);
        out->type = p->rd;
        out->enum_index = 0;
        if (r->err != AVROGEN_OK)
            return;
        if (i < 0 || (uint64_t)i >= p->w->n_symbols)
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
        else if (p->symbol_map[i] < 0)
            avrogen_reader_fail(r, AVROGEN_E_MISMATCH, p->errors[i]);
        else
            out->enum_index = (size_t)p->symbol_map[i];
        return;
    }
    default:
        break;
    }
    out->type = p->rd;
    memset(&out->array, 0, sizeof out->array); /* the largest member: clears them all */
    if (!avrogen_read_enter(r, &c->levels, p->op == OP_RECORD && p->rd->recursive))
        return;
    switch (p->op) {
    case OP_RECORD:
        /* Writer records that take no bytes cost an item each, as in value.c. */
        if (p->w->min_size != 0 || avrogen_reader_charge(r, 1))
            run_record(r, p, out, c);
        break;
    case OP_ARRAY:
        run_array(r, p, out, c);
        break;
    case OP_MAP:
        run_map(r, p, out, c);
        break;
    case OP_WUNION: {
        int64_t i = avrogen_read_int(r); /* spec: the branch index is an int */
        if (r->err != AVROGEN_OK)
            break;
        if (i < 0 || (uint64_t)i >= p->w->n_branches)
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "union index out of range");
        else if (p->branches[i] == NULL)
            avrogen_reader_fail(r, AVROGEN_E_MISMATCH, p->errors[i]);
        else
            run(r, p->branches[i], out, c);
        break;
    }
    case OP_RUNION: {
        avrogen_value *v = alloc_array(r, c->a, 1, sizeof *v);
        if (v == NULL)
            break;
        out->branch.index = p->branch;
        out->branch.value = v;
        run(r, p->child, v, c);
        break;
    }
    default:
        break;
    }
    avrogen_read_leave(r, &c->levels, p->op == OP_RECORD && p->rd->recursive);
}

avrogen_status avrogen_resolver_decode(const avrogen_resolver *res, avrogen_reader *r,
                                       avrogen_value *out, avrogen_arena *a)
{
    const uint8_t *start = r->p;
    avrogen_reader_begin_datum(r);
    runner c = {a, avrogen_nesting_limit(r->max_depth)};
    run(r, res->root, out, &c);
    if (r->err != AVROGEN_OK)
        avrogen_value_explain(r, res->writer, start, true); /* which member */
    return r->err;
}
