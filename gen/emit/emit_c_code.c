/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The functions of generated code: per record a static measure, write and
 * read, written out field by field with gencode.h's inline primitives (runs
 * of fields share one capacity check on encode), the public size/encode/
 * decode wrappers, and per enum its index/write/read helpers. Every (kind,
 * storage) pair of model.h has its case in write_value, size_value and
 * read_value.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c_internal.h"
#include "genutil.h"

/* ---- model queries ------------------------------------------------------- */

size_t ec_record_index(const struct model *m, const struct model_record *r)
{
    /* model_build numbers the records; a model built by hand (tests) may not. */
    if (r->index < m->n_records && m->records[r->index] == r)
        return r->index;
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i] == r)
            return i;
    return m->n_records;
}

size_t ec_enum_index(const struct model *m, const struct model_enum *e)
{
    for (size_t i = 0; i < m->n_enums; i++)
        if (m->enums[i] == e)
            return i;
    return m->n_enums;
}

size_t ec_fixed_index(const struct model *m, const struct model_fixed *f)
{
    for (size_t i = 0; i < m->n_fixeds; i++)
        if (m->fixeds[i] == f)
            return i;
    return m->n_fixeds;
}

/* Bytes of the zigzag varint of v. */
static uint64_t varint_size(int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint64_t n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

/* Enum and union indexes below this take one varint byte. */
#define ONE_BYTE_INDEXES 64

/*
 * True when every value of t encodes in the same number of bytes, stored in
 * *out. Records nest only finitely by value (recursion goes through a
 * nullable or an array, which are never fixed), so this terminates.
 */
static bool fixed_size(struct gen *g, const struct model_type *t, uint64_t *out)
{
    uint64_t n = 0, item;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        *out = 0;
        return true;
    case AVROGEN_KIND_BOOLEAN:
        *out = 1;
        return true;
    case AVROGEN_KIND_FLOAT:
        *out = 4;
        return true;
    case AVROGEN_KIND_DOUBLE:
        *out = 8;
        return true;
    case AVROGEN_KIND_FIXED:
        *out = t->fixed != NULL ? t->fixed->size : t->c_len;
        return true;
    case AVROGEN_KIND_ENUM:
        *out = 1;
        return t->enumeration->n_symbols <= ONE_BYTE_INDEXES;
    case AVROGEN_KIND_RECORD: {
        if (t->storage == MODEL_STORAGE_RECORD_PTR)
            return false; /* a union branch through a pointer: it may close a cycle */
        /* Once per record: records by value may share their insides (T with
         * two fields of type T', ...), and walking them per use is exponential. */
        size_t known;
        if (ptrmap_get(&g->fixed_sizes, t->record, &known)) {
            *out = known != 0 ? known - 1 : 0;
            return known != 0;
        }
        bool fixed = true;
        for (size_t i = 0; i < t->record->n_fields && fixed; i++) {
            const struct model_field *f = &t->record->fields[i];
            if (f->role != MODEL_FIELD_VALUE)
                continue;
            fixed = fixed_size(g, f->type, &item);
            n += item;
        }
        ptrmap_put(&g->fixed_sizes, t->record, fixed ? (size_t)n + 1 : 0);
        *out = n;
        return fixed;
    }
    case AVROGEN_KIND_ARRAY:
        if (t->storage != MODEL_STORAGE_C_ARRAY || !fixed_size(g, t->items, &item))
            return false;
        *out = (t->c_len != 0 ? varint_size((int64_t)t->c_len) : 0) + t->c_len * item + 1;
        return true;
    case AVROGEN_KIND_UNION:
        if (t->storage != MODEL_STORAGE_TAGGED || t->n_branches > ONE_BYTE_INDEXES)
            return false;
        for (size_t i = 0; i < t->n_branches; i++) {
            if (!fixed_size(g, t->branches[i].type, &item) || (i != 0 && item != n))
                return false;
            n = item;
        }
        *out = 1 + n;
        return true;
    default:
        return false;
    }
}

/* The fewest input bytes a value of t takes: bounds block counts on decode. */
static uint64_t min_size(struct gen *g, const struct model_type *t)
{
    uint64_t n = 0;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return 0;
    case AVROGEN_KIND_FLOAT:
        return 4;
    case AVROGEN_KIND_DOUBLE:
        return 8;
    case AVROGEN_KIND_FIXED:
        return t->fixed != NULL ? t->fixed->size : t->c_len;
    case AVROGEN_KIND_RECORD: {
        size_t known;
        if (ptrmap_get(&g->min_sizes, t->record, &known))
            return known;
        for (size_t i = 0; i < t->record->n_fields; i++)
            if (t->record->fields[i].role == MODEL_FIELD_VALUE)
                n += min_size(g, t->record->fields[i].type);
        ptrmap_put(&g->min_sizes, t->record, (size_t)n);
        return n;
    }
    default:
        /* booleans, varints, length prefixes, block counts, union indexes */
        return 1;
    }
}

/* The items of t are inside the struct (a C array, counted or not), not
 * behind a pointer: in a packed record they may be misaligned. */
static bool inline_items(const struct model_type *t)
{
    return t->storage == MODEL_STORAGE_C_ARRAY || t->storage == MODEL_STORAGE_CAP_ARRAY;
}

/*
 * Arrays of these item types go through one gencode.h call per block
 * (avrogen_write_longs, avrogen_read_doubles, ...), which checks bounds once
 * for the lot: the suffix, or NULL. Only exact C types qualify, as the
 * helpers take int64_t *, int32_t *, double * and float *.
 */
static const char *bulk_suffix(const struct gen *g, const struct model_type *t)
{
    const struct model_type *it = t->items;
    if (t->kind != AVROGEN_KIND_ARRAY || (g->unaligned && inline_items(t)))
        return NULL; /* a C array in a packed record: item by item, through the struct */
    if (it->storage != MODEL_STORAGE_SCALAR || it->c_type == NULL)
        return NULL;
    char *type = ec_unqualified(it->c_type);
    const char *suffix = NULL;
    if (it->kind == AVROGEN_KIND_DOUBLE)
        suffix = "doubles";
    else if (it->kind == AVROGEN_KIND_FLOAT)
        suffix = "floats";
    else if (it->kind == AVROGEN_KIND_LONG && strcmp(type, "int64_t") == 0)
        suffix = "longs";
    else if (it->kind == AVROGEN_KIND_INT && strcmp(type, "int32_t") == 0)
        suffix = "ints";
    free(type);
    return suffix;
}

/* ---- messages ------------------------------------------------------------ */

void ec_set_member(struct gen *g, const struct model_record *rec, const char *c_name)
{
    free(g->member);
    g->member = rec != NULL ? xasprintf("%s.%s", rec->c_type, c_name) : NULL;
}

/* A uint64_t long above INT64_MAX (TCP_INFO's ~0 for "unlimited"): both ways
 * to keep such values, as the user writes them (AVRO_EXTERN_FIELD for a
 * system struct). */
#define U64_ABOVE \
    "above INT64_MAX; AVRO_FIELD(type = \"long\") keeps its bits, AVRO_DECIMAL(20, 0) every value"

char *ec_member_msg(const struct gen *g, const char *what)
{
    char *text = xasprintf("%s: %s", g->member != NULL ? g->member : "value", what);
    char *lit = ec_c_escaped(text);
    char *r = xasprintf("\"%s\"", lit);
    free(lit);
    free(text);
    return r;
}

/* The `case` labels of branch i of tagged union t: its AVRO_TAG values, or i. */
static void tag_cases(struct gen *g, const struct model_type *t, size_t i)
{
    const struct model_branch *br = &t->branches[i];
    if (!br->tags) {
        ec_line(g, "case %zu:", i);
        return;
    }
    for (size_t k = 0; k < br->n_tags; k++) {
        char *v = ec_int64_literal(br->tags[k]);
        ec_line(g, "case %s:", v);
        free(v);
    }
}

/* `p->tag = (type)V;`: the tag value decode stores for branch i. */
void ec_emit_store_tag(struct gen *g, const struct model_type *t, const struct site *s, size_t i)
{
    char *tt = ec_unqualified(t->tag_c_type);
    char *v = ec_int64_literal(model_branch_tag(t, i));
    ec_line(g, "%s->%s = (%s)%s;", s->ptr, t->tag_c_name, tt, v);
    free(v);
    free(tt);
}

/* ---- instants ------------------------------------------------------------ */

/* Units per second of a timestamp logical type. */
static const char *time_units(avrogen_logical l)
{
    switch (l) {
    case AVROGEN_LOGICAL_TIMESTAMP_MILLIS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS:
        return "1000";
    case AVROGEN_LOGICAL_TIMESTAMP_MICROS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS:
        return "1000000";
    default:
        return "1000000000";
    }
}

/* Member m of the instant at lv: "v->ts.tv_sec", "p->tv_sec" for lv "(*p)". */
static char *time_member(const char *lv, const char *m)
{
    char *addr = ec_address_of(lv);
    char *r = addr[0] != '&' ? xasprintf("%s->%s", addr, m) : xasprintf("%s.%s", lv, m);
    free(addr);
    return r;
}

/* The arguments (sec, frac, frac_per_sec, units_per_sec) of gencode.h's time
 * functions for the instant at lv. */
static char *time_args(const struct model_type *t, const char *lv)
{
    char *v = ec_plain(lv);
    char *r;
    if (t->time_frac_member == NULL) {
        r = xasprintf("(int64_t)%s, 0, 1, %s", v, time_units(t->logical));
    } else {
        char *sec = time_member(lv, "tv_sec"), *frac = time_member(lv, t->time_frac_member);
        r = xasprintf("(int64_t)%s, (int64_t)%s, %" PRIu32 ", %s", sec, frac, t->time_frac_per_sec,
                      time_units(t->logical));
        free(sec);
        free(frac);
    }
    free(v);
    return r;
}

/* An instant that does not fit an int64 of its unit. */
static char *time_msg(const struct gen *g)
{
    return ec_member_msg(g, "instant out of range");
}

/* `dst = (type)src;`, through a range check when the member has 32 bits. */
static void time_store(struct gen *g, const char *dst, const char *type, enum model_scalar sc,
                       const char *src)
{
    char *ct = ec_unqualified(type);
    if (sc == MODEL_SCALAR_I32) {
        char *msg = ec_member_msg(g, "seconds out of range of 32 bits");
        ec_line(g, "%s = (%s)avrogen_read_check(r, %s, INT32_MIN, INT32_MAX, %s);", dst, ct, src,
                msg);
        free(msg);
    } else {
        ec_line(g, "%s = (%s)%s;", dst, ct, src);
    }
    free(ct);
}

/* Read the instant at lv from the long (or int) `read` evaluates to. */
void ec_emit_read_time(struct gen *g, const struct model_type *t, const char *lv, const char *read)
{
    const char *u = time_units(t->logical);
    char *v = ec_plain(lv);
    if (t->time_frac_member == NULL) {
        char *split = xasprintf("avrogen_time_split(%s, 1, %s, NULL)", read, u);
        time_store(g, v, t->time_sec_c_type, t->time_sec_scalar, split);
        free(split);
        free(v);
        return;
    }
    char *s = ec_local(g, "s"), *f = ec_local(g, "f");
    char *sec = time_member(lv, "tv_sec"), *frac = time_member(lv, t->time_frac_member);
    ec_scope_open(g);
    ec_line(g, "int64_t %s;", f);
    ec_line(g, "int64_t %s = avrogen_time_split(%s, %" PRIu32 ", %s, &%s);", s, read,
            t->time_frac_per_sec, u, f);
    time_store(g, sec, t->time_sec_c_type, t->time_sec_scalar, s);
    char *ft = ec_unqualified(t->time_frac_c_type);
    ec_line(g, "%s = (%s)%s;", frac, ft, f);
    ec_scope_close(g);
    free(ft);
    free(sec);
    free(frac);
    free(f);
    free(s);
    free(v);
}

/* ---- counted storage ------------------------------------------------------ */

char *ec_decoded_size(const struct model_record *rec)
{
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role == MODEL_FIELD_VALUE && f->type->c_flex)
            return xasprintf("sizeof *v + %" PRIu64 " * sizeof v->%s[0]", f->type->c_len,
                             model_field_path(f));
    }
    return xstrdup("sizeof *v");
}

/* Bytes or text (not an array of items) in a counted C array. */
static bool cap_bytes(const struct model_type *t)
{
    return t->storage == MODEL_STORAGE_CAP_ARRAY && t->kind != AVROGEN_KIND_ARRAY;
}

/* The count member of t beside the struct at s, as an int64_t argument. */
static char *count_arg(const struct model_type *t, const struct site *s)
{
    return xasprintf("(int64_t)%s->%s", s->ptr, t->count_c_name);
}

/* The capacity of t's C array: `sizeof v`, or the annotation's max for a
 * flexible array member (no sizeof). Bytes and text only (one-byte items). */
static char *cap_size(const struct model_type *t, const char *v)
{
    return t->c_flex ? xasprintf("%" PRIu64, t->c_len) : xasprintf("sizeof %s", v);
}

static char *cap_msg(const struct gen *g, const struct model_type *t)
{
    char *what = xasprintf("count outside 0..%" PRIu64, t->c_len);
    char *msg = ec_member_msg(g, what);
    free(what);
    return msg;
}

/* ---- members of packed records --------------------------------------------- */

/* lv is storage inside the record being coded (`v->m`, `v->a[i]`, `v->u.b`,
 * not what a pointer member points to) and that record may_be_unaligned: a
 * typed pointer to it may be misaligned. */
static bool packed_place(const struct gen *g, const char *lv)
{
    if (!g->unaligned || strncmp(lv, "v->", 3) != 0)
        return false;
    char *addr = ec_address_of(lv);
    bool r = addr[0] == '&';
    free(addr);
    return r;
}

char *ec_aligned_begin(struct gen *g, const char *c_type, uint64_t align, const char *lv,
                       const char *base, struct aligned *al)
{
    al->copy = NULL;
    al->lv = NULL;
    if (align == 1 || !packed_place(g, lv))
        return ec_address_of(lv);
    char *type = ec_unqualified(c_type);
    al->copy = ec_local(g, base);
    al->lv = xstrdup(lv);
    ec_scope_open(g);
    /* memcpy takes void *, which needs no alignment: gcc and clang let
     * &v->m go there without -Waddress-of-packed-member. */
    ec_line(g, "%s %s;", type, al->copy);
    ec_line(g, "memcpy(&%s, &%s, sizeof %s);", al->copy, lv, al->copy);
    free(type);
    return xasprintf("&%s", al->copy);
}

void ec_aligned_end(struct gen *g, struct aligned *al, bool writable)
{
    if (al->copy == NULL)
        return;
    if (writable)
        ec_line(g, "memcpy(&%s, &%s, sizeof %s);", al->lv, al->copy, al->copy);
    ec_scope_close(g);
    free(al->copy);
    free(al->lv);
}

/* ---- pointer targets ------------------------------------------------------- */

const char *ec_target_begin(struct gen *g, const struct model_type *pointee, struct target *tg)
{
    char *type = ec_value_c_type(pointee);
    tg->p = ec_local(g, "p");
    char *decl = ec_pointer_decl(type, tg->p);
    char *cast = ec_pointer_cast(type);
    ec_line(g, "%s = %savrogen_reader_alloc(r, a, sizeof *%s);", decl, cast, tg->p);
    tg->lv = xasprintf("(*%s)", tg->p);
    ec_capture_begin(g, &tg->body);
    g->depth++;
    free(cast);
    free(decl);
    free(type);
    return tg->lv;
}

void ec_target_end(struct gen *g, const char *v, struct target *tg)
{
    g->depth--;
    ec_capture_end(g, &tg->body);
    char *test = xasprintf("%s != NULL", tg->p);
    ec_if_else(g, test, &tg->body, NULL);
    ec_line(g, "%s = %s;", v, tg->p);
    g->used_a = true;
    free(test);
    free(tg->lv);
    free(tg->p);
}

/* ---- holders -------------------------------------------------------------- */

void ec_held_begin(struct gen *g, const struct model_type *t, struct held *h)
{
    h->inner = *t;
    h->inner.holder_c_type = NULL;
    h->ptr = ec_local(g, "h");
    h->site.ptr = h->ptr;
    h->site.rec = NULL;
    h->value = xasprintf("%s->value", h->ptr);
    ec_capture_begin(g, &h->body);
    g->depth++;
}

void ec_held_end(struct gen *g, const struct model_type *t, const char *lv, bool writable,
                 struct held *h)
{
    g->depth--;
    ec_capture_end(g, &h->body);
    if (h->body.text.len != 0) {
        char *type = ec_unqualified(t->holder_c_type);
        struct aligned al;
        char *addr = ec_aligned_begin(g, type, 0, lv, "held", &al);
        char *decl = ec_pointer_decl(type, h->ptr);
        if (al.copy == NULL)
            ec_scope_open(g); /* else the copy's scope holds it */
        ec_line(g, "%s%s = %s;", writable ? "" : "const ", decl, addr);
        ec_put_body(g, &h->body.text);
        if (al.copy == NULL)
            ec_scope_close(g);
        ec_aligned_end(g, &al, writable);
        free(addr);
        free(decl);
        free(type);
    } else {
        textbuf_free(&h->body.text);
    }
    free(h->value);
    free(h->ptr);
}

/* ---- encode -------------------------------------------------------------- */

static void write_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s);

static void write_members(struct gen *g, const struct model_type *const *types,
                          const char *const *lvs, const char *const *names, size_t n,
                          const struct site *s);

static void write_scalar(struct gen *g, const struct model_type *t, const char *v);

static char *null_test(const struct model_type *t, const char *lv);

static char *nullable_target(const struct model_type *t, const char *lv);

/* Items [0, count) of the array `arr` (a pointer or a C array). */
static void write_items(struct gen *g, const struct model_type *t, const char *arr,
                        const char *count)
{
    const struct model_type *it = t->items;
    const char *bulk = bulk_suffix(g, t);
    if (bulk != NULL) {
        ec_line(g, "avrogen_write_%s(w, %s, %s);", bulk, arr, count);
        return;
    }
    char *i = ec_loop_index(g);
    char *head = xasprintf("for (size_t %s = 0; %s < %s; %s++)", i, i, count, i);
    struct capture body;
    ec_capture_begin(g, &body);
    char *e = ec_local(g, "e");
    bool unaligned = g->unaligned;
    g->unaligned = unaligned && inline_items(t); /* what a pointer points to is aligned */
    g->depth++;
    char *item = xasprintf("%s[%s]", arr, i);
    if (t->kind == AVROGEN_KIND_MAP) {
        char *entry_type = ec_unqualified(t->entry_c_type);
        char *decl = ec_pointer_decl(entry_type, e);
        struct aligned al;
        char *addr = ec_aligned_begin(g, entry_type, 0, item, "entry", &al);
        ec_line(g, "const %s = %s;", decl, addr);
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        const struct model_type *types[] = {t->map_key, it};
        const char *lvs[] = {key, value}, *names[] = {"key", "value"};
        write_members(g, types, lvs, names, 2, &es);
        ec_aligned_end(g, &al, false);
        free(addr);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
    } else {
        write_value(g, it, item, NULL);
    }
    free(item);
    g->depth--;
    g->unaligned = unaligned;
    ec_capture_end(g, &body);
    ec_block(g, head, &body);
    free(head);
    free(e);
    free(i);
}

/* The expression that is true when nullable location lv holds null. */
static char *null_test(const struct model_type *t, const char *lv)
{
    if (t->null_via == MODEL_NULL_VIA_SELF && (t->items->storage == MODEL_STORAGE_STR_VIEW ||
                                               t->items->storage == MODEL_STORAGE_BYTES_VIEW))
        return xasprintf("%s.ptr == NULL", lv);
    char *p = ec_plain(lv);
    char *r = xasprintf("%s == NULL", p);
    free(p);
    return r;
}

/* The lvalue of the non-null branch of nullable location lv. */
static char *nullable_target(const struct model_type *t, const char *lv)
{
    if (t->null_via == MODEL_NULL_VIA_PTR)
        return xasprintf("(*%s)", lv);
    return xstrdup(lv);
}

/* ---- bit-fields ------------------------------------------------------------ */

/* Scalar location v as the int32_t / int64_t a primitive takes: a bit-field
 * of another declared type (long x : 20) is cast. */
static char *scalar_operand(const struct model_type *t, const char *v)
{
    if (t->bit_width && t->kind == AVROGEN_KIND_INT)
        return xasprintf("(int32_t)%s", v);
    if (t->bit_width && t->kind == AVROGEN_KIND_LONG)
        return xasprintf("(int64_t)%s", v);
    return xstrdup(v);
}

char *ec_bitfield_store(const struct model_type *t, const char *v, const char *x)
{
    long long lo, hi;
    model_bitfield_range(t, &lo, &hi);
    if (t->kind == AVROGEN_KIND_BOOLEAN)
        return xasprintf("%s = %s != 0;", v, x);
    /* The mask shows the compilers that the value fits. */
    if (lo == 0)
        return xasprintf("%s = (uint64_t)%s & UINT64_C(0x%llx);", v, x, (unsigned long long)hi);
    /* In range (checked before); gcc's -Wconversion cannot see that. */
    char *ct = ec_unqualified(t->c_type);
    char *r = xasprintf("AVROGEN_BITFIELD_STORE(%s, (%s)%s);", v, ct, x);
    free(ct);
    return r;
}

void ec_emit_read_bitfield(struct gen *g, const struct model_type *t, const char *v,
                           const char *read)
{
    if (t->kind == AVROGEN_KIND_BOOLEAN) {
        ec_line(g, "%s = %s;", v, read);
        return;
    }
    long long lo, hi;
    model_bitfield_range(t, &lo, &hi);
    char *what = xasprintf("outside the %u bits of the bit-field", t->bit_width);
    char *msg = ec_member_msg(g, what), *x = ec_local(g, "x");
    char *lo_s = ec_int64_literal(lo), *hi_s = ec_int64_literal(hi);
    ec_scope_open(g);
    ec_line(g, "int64_t %s = avrogen_read_check(r, %s, %s, %s, %s);", x, read, lo_s, hi_s, msg);
    char *store = ec_bitfield_store(t, v, x);
    ec_line(g, "%s", store);
    free(store);
    ec_scope_close(g);
    free(hi_s);
    free(lo_s);
    free(x);
    free(msg);
    free(what);
}

static void write_scalar_value(struct gen *g, const struct model_type *t, const char *v);

static void write_scalar(struct gen *g, const struct model_type *t, const char *lv)
{
    char *v = scalar_operand(t, lv);
    write_scalar_value(g, t, v);
    free(v);
}

static void write_scalar_value(struct gen *g, const struct model_type *t, const char *v)
{
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        ec_line(g, "avrogen_write_bool(w, %s);", v);
        break;
    case AVROGEN_KIND_INT:
        ec_line(g, "avrogen_write_int(w, %s);", v);
        break;
    case AVROGEN_KIND_LONG:
        if (t->scalar == MODEL_SCALAR_U64 && t->u64_checked) {
            char *msg = ec_member_msg(g, U64_ABOVE);
            ec_line(g, "avrogen_write_u64(w, %s, %s);", v, msg);
            free(msg);
        } else if (t->scalar == MODEL_SCALAR_U64) {
            ec_line(g, "avrogen_write_long(w, (int64_t)%s);", v);
        } else {
            ec_line(g, "avrogen_write_long(w, %s);", v);
        }
        break;
    case AVROGEN_KIND_FLOAT:
        ec_line(g, "avrogen_write_float(w, %s);", v);
        break;
    case AVROGEN_KIND_DOUBLE:
        ec_line(g, "avrogen_write_double(w, %s);", v);
        break;
    case AVROGEN_KIND_BYTES: /* decimal */
        ec_line(g, "avrogen_write_decimal_%s(w, %s);",
                t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        break;
    default:
        break;
    }
}

static void write_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s)
{
    if (t->holder_c_type != NULL) {
        struct held h;
        ec_held_begin(g, t, &h);
        write_value(g, &h.inner, h.value, &h.site);
        ec_held_end(g, t, lv, false, &h);
        return;
    }
    char *v = ec_plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_NONE:
        break;
    case MODEL_STORAGE_SCALAR:
        write_scalar(g, t, v);
        break;
    case MODEL_STORAGE_CSTRING:
        ec_line(g, "avrogen_write_cstring(w, %s);", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        ec_line(g, "avrogen_write_chars(w, %s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
        ec_line(g, "avrogen_write_string(w, %s.ptr, %s.len);", lv, lv);
        break;
    case MODEL_STORAGE_BYTES_VIEW:
        ec_line(g, "avrogen_write_bytes(w, %s.ptr, %s.len);", lv, lv);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        if (t->kind == AVROGEN_KIND_BYTES || t->kind == AVROGEN_KIND_STRING) {
            ec_line(g, "avrogen_write_bytes_count(w, %s, (int64_t)%s->%s);", v, s->ptr,
                    t->count_c_name);
        } else {
            char *count = ec_local(g, "count");
            ec_scope_open(g);
            ec_line(g, "size_t %s = avrogen_write_array_start(w, %s, (int64_t)%s->%s);", count, v,
                    s->ptr, t->count_c_name);
            write_items(g, t, v, count);
            ec_line(g, "avrogen_write_block_count(w, 0);");
            ec_scope_close(g);
            free(count);
        }
        break;
    case MODEL_STORAGE_CAP_ARRAY: {
        char *n = count_arg(t, s), *msg = cap_msg(g, t);
        if (cap_bytes(t)) {
            char *cap = cap_size(t, v);
            /* A flexible char array's text ends at its first NUL within n (the
             * kernel NUL-pads inotify_event's name to len). */
            bool chars = t->c_flex && t->kind == AVROGEN_KIND_STRING;
            ec_line(g, "avrogen_write_cap_%s(w, %s, %s, %s, %s);", chars ? "chars" : "bytes", v, n,
                    cap, msg);
            free(cap);
        } else {
            char *count = ec_local(g, "count");
            ec_scope_open(g);
            ec_line(g, "size_t %s = avrogen_write_cap_start(w, %s, %" PRIu64 ", %s);", count, n,
                    t->c_len, msg);
            write_items(g, t, v, count);
            ec_line(g, "avrogen_write_block_count(w, 0);");
            ec_scope_close(g);
            free(count);
        }
        free(msg);
        free(n);
        break;
    }
    case MODEL_STORAGE_PADDED:
        ec_line(g, "avrogen_write_padded(w, %s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (t->kind == AVROGEN_KIND_FIXED) {
            ec_line(g, "avrogen_write_raw(w, %s%s, sizeof %s);", t->c_object ? "&" : "", v, v);
        } else if (t->c_len != 0) {
            char *n = xasprintf("%" PRIu64, t->c_len);
            ec_line(g, "avrogen_write_block_count(w, %s);", n);
            write_items(g, t, v, n);
            ec_line(g, "avrogen_write_block_count(w, 0);");
            free(n);
        } else {
            ec_line(g, "avrogen_write_block_count(w, 0);");
        }
        break;
    case MODEL_STORAGE_STRUCT: {
        struct aligned al;
        char *addr = ec_aligned_begin(g, t->record->c_type, t->record->c_align, lv, "member", &al);
        ec_line(g, "%s_avro_write(w, %s);", t->record->c_prefix, addr);
        ec_aligned_end(g, &al, false);
        free(addr);
        break;
    }
    case MODEL_STORAGE_ENUM:
        ec_line(g, "%s_avro_write(w, %s);", t->enumeration->c_prefix, v);
        g->enum_write[ec_enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        char *cond = null_test(t, lv);
        char *target = nullable_target(t, lv);
        struct capture is_null, not_null;
        ec_capture_begin(g, &is_null);
        ec_line(g, "avrogen_write_int(w, %u);", t->null_index);
        ec_capture_end(g, &is_null);
        ec_capture_begin(g, &not_null);
        ec_line(g, "avrogen_write_int(w, %u);", 1 - t->null_index);
        write_value(g, t->items, target, s);
        ec_capture_end(g, &not_null);
        ec_if_else(g, cond, &is_null, &not_null);
        free(target);
        free(cond);
        break;
    }
    case MODEL_STORAGE_TIME: {
        char *args = time_args(t, lv), *msg = time_msg(g);
        ec_line(g, "avrogen_write_time(w, %s, %s);", args, msg);
        free(msg);
        free(args);
        break;
    }
    case MODEL_STORAGE_RECORD_PTR: {
        /* A union branch holding the record through a pointer, which must not be NULL. */
        /* Named as the branch ("struct Lisp.value.cons: ..."), as avrogen_writer_explain's
         * path ends (Lisp.value.cons), so that its path replaces this. */
        const char *branch = strrchr(lv, '.');
        char *save = g->member;
        g->member = xasprintf("%s%s", save != NULL ? save : "value", branch != NULL ? branch : "");
        char *what = xasprintf("NULL pointer to record %s; point it at one, or set the tag to "
                               "another branch",
                               t->record->name.fullname);
        char *msg = ec_member_msg(g, what);
        free(what);
        free(g->member);
        g->member = save;
        char *cond = xasprintf("%s == NULL", v);
        char *target = xasprintf("(*%s)", lv);
        struct capture is_null, not_null;
        ec_capture_begin(g, &is_null);
        ec_line(g, "avrogen_writer_fail_msg(w, AVROGEN_E_ARG, %s);", msg);
        ec_capture_end(g, &is_null);
        ec_capture_begin(g, &not_null);
        write_value(g, t->items, target, s);
        ec_capture_end(g, &not_null);
        ec_if_else(g, cond, &is_null, &not_null);
        free(target);
        free(cond);
        free(msg);
        break;
    }
    case MODEL_STORAGE_TAGGED:
        ec_line(g, "switch ((int64_t)%s->%s) {", s->ptr, t->tag_c_name);
        for (size_t i = 0; i < t->n_branches; i++) {
            tag_cases(g, t, i);
            g->indent++;
            ec_line(g, "avrogen_write_int(w, %zu);", i);
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            write_value(g, t->branches[i].type, member, s);
            free(member);
            ec_line(g, "break;");
            g->indent--;
        }
        ec_line(g, "default:");
        g->indent++;
        char *member = ec_c_escaped(g->member != NULL ? g->member : "value");
        ec_line(g, "avrogen_writer_fail_tag(w, \"%s\", (int64_t)%s->%s, %s);", member, s->ptr,
                t->tag_c_name, t->tag_scalar == MODEL_SCALAR_U64 ? "true" : "false");
        free(member);
        ec_line(g, "break;");
        g->indent--;
        ec_line(g, "}");
        break;
    }
    free(v);
}

/* ---- encode: runs of fields ---------------------------------------------- */

/*
 * Consecutive fields whose encodings have a known worst case are written as a
 * run: one capacity check for all of them, then unchecked stores through a
 * local cursor (gencode.h "Runs of fields"). Strings join a run once their
 * length is known, so it is taken first (which also catches a NULL char *).
 * A run whose room is not there falls back to the checked primitives.
 */
struct run_part {
    const struct model_type *t;
    char *lv;   /* the location */
    char *var;  /* local holding its length or enum index, or NULL */
    char *init; /* that local's initializer */
    const char *var_type;
    uint64_t worst; /* bytes it takes at most, besides `var` bytes of a string */
    bool worst_var; /* the worst case adds `var` (a string's length) */
};

/* The leaf types a run can hold. */
static bool runnable_leaf(const struct model_type *t)
{
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
    case MODEL_STORAGE_CSTRING:
    case MODEL_STORAGE_CHAR_ARRAY:
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
    case MODEL_STORAGE_ENUM:
    case MODEL_STORAGE_TIME:
    case MODEL_STORAGE_PADDED:
        return true;
    case MODEL_STORAGE_PTR_COUNT:
        return t->kind == AVROGEN_KIND_BYTES || t->kind == AVROGEN_KIND_STRING;
    case MODEL_STORAGE_CAP_ARRAY:
        return cap_bytes(t);
    case MODEL_STORAGE_C_ARRAY:
        return t->kind == AVROGEN_KIND_FIXED && t->c_len <= 256;
    default:
        return false;
    }
}

static bool runnable(const struct model_type *t)
{
    if (t->storage != MODEL_STORAGE_NULLABLE)
        return runnable_leaf(t);
    if (t->null_via == MODEL_NULL_VIA_SELF)
        return runnable_leaf(t->items);
    /* Behind a pointer, only what needs no length: the worst case is taken
     * before the pointer is tested. */
    return runnable_leaf(t->items) &&
           (t->items->storage == MODEL_STORAGE_SCALAR || t->items->storage == MODEL_STORAGE_ENUM ||
            t->items->storage == MODEL_STORAGE_C_ARRAY);
}

/* The worst case of a leaf, and the local it needs (set in *part). */
static void run_leaf(struct gen *g, const struct model_type *t, const char *lv,
                     const struct site *s, const char *name, struct run_part *part)
{
    char *v = ec_plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        part->worst = t->kind == AVROGEN_KIND_BOOLEAN  ? 1
                      : t->kind == AVROGEN_KIND_INT    ? 5
                      : t->kind == AVROGEN_KIND_FLOAT  ? 4
                      : t->kind == AVROGEN_KIND_DOUBLE ? 8
                                                       : 10; /* long; decimal: 1 + 9 */
        if (t->kind == AVROGEN_KIND_LONG && t->u64_checked) {
            /* Checked ahead of the run: the run stores the long it gives. */
            char *msg = ec_member_msg(g, U64_ABOVE);
            part->var = xasprintf("u_%s", name);
            part->init = xasprintf("avrogen_writer_u64(w, %s, %s)", v, msg);
            part->var_type = "int64_t";
            free(msg);
        }
        break;
    case MODEL_STORAGE_CSTRING:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_cstring_len(w, %s)", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_chars_len_checked(w, %s, sizeof %s)", v, v);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_write_count(w, %s, (int64_t)%s->%s)", v, s->ptr,
                               t->count_c_name);
        break;
    case MODEL_STORAGE_CAP_ARRAY: {
        char *n = count_arg(t, s), *msg = cap_msg(g, t);
        part->var = xasprintf("len_%s", name);
        char *cap = cap_size(t, v);
        if (t->c_flex && t->kind == AVROGEN_KIND_STRING)
            part->init = xasprintf("avrogen_chars_len(%s, avrogen_write_cap_count(w, %s, %s, %s))",
                                   v, n, cap, msg);
        else
            part->init = xasprintf("avrogen_write_cap_count(w, %s, %s, %s)", n, cap, msg);
        free(cap);
        free(msg);
        free(n);
        break;
    }
    case MODEL_STORAGE_PADDED:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_chars_len(%s, sizeof %s)", v, v);
        break;
    case MODEL_STORAGE_ENUM:
        part->var = xasprintf("idx_%s", name);
        part->init = xasprintf("avrogen_writer_index(w, %s_avro_index(%s))",
                               t->enumeration->c_prefix, v);
        g->enum_index[ec_enum_index(g->m, t->enumeration)] = true;
        part->var_type = "int32_t";
        part->worst = varint_size((int64_t)t->enumeration->n_symbols - 1);
        break;
    case MODEL_STORAGE_C_ARRAY: /* fixed */
        part->worst = t->c_len;
        break;
    case MODEL_STORAGE_TIME: {
        /* Converted ahead of the run: the run stores the long. */
        char *args = time_args(t, lv), *msg = time_msg(g);
        part->var = xasprintf("t_%s", name);
        part->init = xasprintf("avrogen_writer_time(w, %s, %s)", args, msg);
        part->var_type = "int64_t";
        part->worst = 10;
        free(msg);
        free(args);
        break;
    }
    default: /* views */
        break;
    }
    if (t->storage == MODEL_STORAGE_CSTRING || t->storage == MODEL_STORAGE_CHAR_ARRAY ||
        t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_STR_VIEW ||
        t->storage == MODEL_STORAGE_BYTES_VIEW || t->storage == MODEL_STORAGE_CAP_ARRAY ||
        t->storage == MODEL_STORAGE_PADDED) {
        part->worst = 10; /* the length */
        part->worst_var = true;
    }
    free(v);
}

static void run_part_init(struct gen *g, const struct model_type *t, const char *lv,
                          const struct site *s, const char *name, struct run_part *part)
{
    memset(part, 0, sizeof *part);
    part->t = t;
    part->lv = xstrdup(lv);
    part->var_type = "size_t";
    if (t->storage != MODEL_STORAGE_NULLABLE) {
        run_leaf(g, t, lv, s, name, part);
        return;
    }
    char *target = nullable_target(t, lv);
    run_leaf(g, t->items, target, s, name, part);
    part->worst += 1; /* the branch index */
    if (part->init != NULL) {
        /* Only a value that is there has a length (or an index). */
        char *cond = null_test(t, lv);
        char *guarded = xasprintf("%s ? 0 : %s", cond, part->init);
        free(part->init);
        part->init = guarded;
        free(cond);
    }
    free(target);
}

static void run_part_free(struct run_part *part)
{
    free(part->lv);
    free(part->var);
    free(part->init);
}

/* The expression of a view's length, or the length local. */
static char *run_len(const struct model_type *t, const char *lv, const struct run_part *part)
{
    if (t->storage == MODEL_STORAGE_STR_VIEW || t->storage == MODEL_STORAGE_BYTES_VIEW)
        return xasprintf("%s.len", lv);
    return xstrdup(part->var);
}

/* Store one leaf at the cursor `p` (put), or write it checked (!put). */
static void run_leaf_write(struct gen *g, const struct model_type *t, const char *lv,
                           const struct run_part *part, bool put)
{
    char *v = ec_plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        if (!put && part->var != NULL) {
            ec_line(g, "avrogen_write_long(w, %s);", part->var);
        } else if (!put) {
            write_scalar(g, t, v);
        } else if (part->var != NULL) {
            ec_line(g, "p = avrogen_put_long(p, %s);", part->var);
        } else if (t->kind == AVROGEN_KIND_BYTES) {
            ec_line(g, "p = avrogen_put_decimal_%s(p, %s);",
                    t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        } else {
            const char *fn = t->kind == AVROGEN_KIND_BOOLEAN  ? "bool"
                             : t->kind == AVROGEN_KIND_FLOAT  ? "float"
                             : t->kind == AVROGEN_KIND_DOUBLE ? "double"
                                                              : "long";
            ec_line(g, "p = avrogen_put_%s(p, %s%s);", fn,
                    t->scalar == MODEL_SCALAR_U64 ? "(int64_t)" : "", v);
        }
        break;
    case MODEL_STORAGE_CSTRING:
    case MODEL_STORAGE_CHAR_ARRAY:
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
    case MODEL_STORAGE_PTR_COUNT:
    case MODEL_STORAGE_CAP_ARRAY:
    case MODEL_STORAGE_PADDED: {
        bool view = t->storage == MODEL_STORAGE_STR_VIEW || t->storage == MODEL_STORAGE_BYTES_VIEW;
        char *data = view ? xasprintf("%s.ptr", lv) : xstrdup(v);
        char *len = run_len(t, lv, part);
        if (put)
            ec_line(g, "p = avrogen_put_bytes(p, %s, %s);", data, len);
        else if (t->kind == AVROGEN_KIND_STRING)
            ec_line(g, "avrogen_write_string(w, %s, %s);", data, len);
        else
            ec_line(g, "avrogen_write_bytes(w, %s, %s);", data, len);
        free(len);
        free(data);
        break;
    }
    case MODEL_STORAGE_ENUM:
        if (put)
            ec_line(g, "p = avrogen_put_long(p, %s);", part->var);
        else
            ec_line(g, "avrogen_write_int(w, %s);", part->var);
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (put)
            ec_line(g, "p = avrogen_put_raw(p, %s%s, sizeof %s);", t->c_object ? "&" : "", v, v);
        else
            ec_line(g, "avrogen_write_raw(w, %s%s, sizeof %s);", t->c_object ? "&" : "", v, v);
        break;
    case MODEL_STORAGE_TIME:
        if (put)
            ec_line(g, "p = avrogen_put_long(p, %s);", part->var);
        else
            ec_line(g, "avrogen_write_long(w, %s);", part->var);
        break;
    default:
        break;
    }
    free(v);
}

static void run_write(struct gen *g, const struct run_part *part, bool put)
{
    const struct model_type *t = part->t;
    if (t->storage != MODEL_STORAGE_NULLABLE) {
        run_leaf_write(g, t, part->lv, part, put);
        return;
    }
    char *cond = null_test(t, part->lv);
    char *target = nullable_target(t, part->lv);
    struct capture is_null, not_null;
    ec_capture_begin(g, &is_null);
    if (put)
        ec_line(g, "p = avrogen_put_long(p, %u);", t->null_index);
    else
        ec_line(g, "avrogen_write_int(w, %u);", t->null_index);
    ec_capture_end(g, &is_null);
    ec_capture_begin(g, &not_null);
    if (put)
        ec_line(g, "p = avrogen_put_long(p, %u);", 1 - t->null_index);
    else
        ec_line(g, "avrogen_write_int(w, %u);", 1 - t->null_index);
    run_leaf_write(g, t->items, target, part, put);
    ec_capture_end(g, &not_null);
    ec_if_else(g, cond, &is_null, &not_null);
    free(target);
    free(cond);
}

/* Write the run parts[0, n): one capacity check, else the checked primitives. */
static void emit_run(struct gen *g, struct run_part *parts, size_t n)
{
    uint64_t worst = 0;
    struct textbuf need = TEXTBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (parts[i].init != NULL)
            ec_line(g, "%s %s = %s;", parts[i].var_type, parts[i].var, parts[i].init);
        worst += parts[i].worst;
    }
    textbuf_printf(&need, "%" PRIu64, worst);
    for (size_t i = 0; i < n; i++) {
        if (!parts[i].worst_var)
            continue;
        const struct model_type *leaf =
                parts[i].t->storage == MODEL_STORAGE_NULLABLE ? parts[i].t->items : parts[i].t;
        char *target = parts[i].t->storage == MODEL_STORAGE_NULLABLE &&
                                       parts[i].t->null_via == MODEL_NULL_VIA_PTR
                               ? nullable_target(parts[i].t, parts[i].lv)
                               : xstrdup(parts[i].lv);
        char *len = run_len(leaf, target, &parts[i]);
        textbuf_printf(&need, " + %s", len);
        free(len);
        free(target);
    }
    struct capture fast, slow;
    ec_capture_begin(g, &fast);
    ec_line(g, "uint8_t *p = w->p;");
    for (size_t i = 0; i < n; i++)
        run_write(g, &parts[i], true);
    ec_line(g, "w->p = p;");
    ec_capture_end(g, &fast);
    ec_capture_begin(g, &slow);
    for (size_t i = 0; i < n; i++)
        run_write(g, &parts[i], false);
    ec_capture_end(g, &slow);
    char *cond = xasprintf("avrogen_writer_room(w, %s)", need.data);
    ec_if_else(g, cond, &fast, &slow);
    free(cond);
    textbuf_free(&need);
}

/*
 * Write the members of a struct (a record's fields, a map entry's key and
 * value): runs where two or more fields in a row allow, one write per field
 * elsewhere. `names` are the members' C names (for the locals of a run).
 */
static void write_members(struct gen *g, const struct model_type *const *types,
                          const char *const *lvs, const char *const *names, size_t n,
                          const struct site *s)
{
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && runnable(types[end]))
            end++;
        if (end - i >= 2) {
            struct run_part *parts = xcalloc(end - i, sizeof *parts);
            for (size_t k = i; k < end; k++) {
                if (s->rec != NULL)
                    ec_set_member(g, s->rec, names[k]);
                char *name = ec_local(g, names[k]);
                run_part_init(g, types[k], lvs[k], s, name, &parts[k - i]);
                free(name);
            }
            emit_run(g, parts, end - i);
            for (size_t k = i; k < end; k++)
                run_part_free(&parts[k - i]);
            free(parts);
            i = end;
        } else {
            if (s->rec != NULL)
                ec_set_member(g, s->rec, names[i]);
            write_value(g, types[i], lvs[i], s);
            i++;
        }
    }
}

/* ---- size ---------------------------------------------------------------- */

/*
 * Emit `n += ...;` for the parts of t's size that depend on the value and
 * return the part that does not, for the caller to fold into a constant.
 */
static uint64_t size_value(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s);

/* Add the constant c inside the current captured scope. */
static void size_add(struct gen *g, uint64_t c)
{
    if (c != 0)
        ec_line(g, "n += %" PRIu64 ";", c);
}

/* The C type of one item of t as a pointer to const named `name`, or NULL
 * when the item is itself a pointer (its const would go elsewhere) or a C
 * array of a packed record (a typed pointer into it may be misaligned). */
static char *item_pointer_decl(const struct gen *g, const struct model_type *t, const char *name)
{
    if (g->unaligned && inline_items(t))
        return NULL;
    const char *type = t->kind == AVROGEN_KIND_MAP       ? t->entry_c_type
                       : t->items->holder_c_type != NULL ? t->items->holder_c_type
                                                         : t->items->c_type;
    if (strchr(type, '*') != NULL)
        return NULL;
    char *ct = ec_unqualified(type);
    char *decl = ec_pointer_decl(ct, name);
    char *r = xasprintf("const %s", decl);
    free(decl);
    free(ct);
    return r;
}

/*
 * Items [0, count) of `arr`; returns the constant size of one item. The loop
 * is emitted only when items differ in size; it walks a pointer (one
 * increment an item, no index), declared in a scope of its own unless
 * `scoped` (the caller opened one).
 */
static uint64_t size_items(struct gen *g, const struct model_type *t, const char *arr,
                           const char *count, bool scoped)
{
    uint64_t c = 0;
    const char *bulk = bulk_suffix(g, t);
    if (bulk != NULL && (strcmp(bulk, "longs") == 0 || strcmp(bulk, "ints") == 0)) {
        /* One call for the lot (varint.c counts them with vector compares). */
        ec_line(g, "n += avrogen_size_%s(%s, %s);", bulk, arr, count);
        return 0;
    }
    char *i = ec_loop_index(g);
    char *e = ec_local(g, t->kind == AVROGEN_KIND_MAP ? "e" : "it");
    char *decl = item_pointer_decl(g, t, e);
    struct capture body;
    if (decl != NULL && !scoped)
        g->indent++; /* the body goes inside the scope */
    ec_capture_begin(g, &body);
    bool unaligned = g->unaligned;
    g->unaligned = unaligned && inline_items(t); /* what a pointer points to is aligned */
    g->depth++;
    if (t->kind == AVROGEN_KIND_MAP) {
        /* through a pointer: AVRO_MAP on a C array is refused */
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        c = size_value(g, t->map_key, key, &es);
        c += size_value(g, t->items, value, &es);
        free(key);
        free(value);
    } else {
        char *item = decl != NULL ? xasprintf("(*%s)", e) : xasprintf("%s[%s]", arr, i);
        c = size_value(g, t->items, item, NULL);
        free(item);
    }
    g->depth--;
    g->unaligned = unaligned;
    ec_capture_end(g, &body);
    if (decl != NULL && !scoped)
        g->indent--;
    if (body.text.len == 0) {
        textbuf_free(&body.text);
    } else if (decl != NULL) {
        if (!scoped)
            ec_scope_open(g);
        ec_line(g, "%s = %s;", decl, arr);
        char *head = xasprintf("for (size_t %s = %s; %s != 0; %s--, %s++)", i, count, i, i, e);
        ec_block(g, head, &body);
        free(head);
        if (!scoped)
            ec_scope_close(g);
    } else {
        char *head = xasprintf("for (size_t %s = 0; %s < %s; %s++)", i, i, count, i);
        ec_block(g, head, &body);
        free(head);
    }
    free(decl);
    free(e);
    free(i);
    return c;
}

static uint64_t size_value(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    uint64_t c = 0, fixed;
    char *v = ec_plain(lv);
    if (fixed_size(g, t, &fixed)) {
        free(v);
        return fixed;
    }
    if (t->holder_c_type != NULL) {
        struct held h;
        ec_held_begin(g, t, &h);
        c = size_value(g, &h.inner, h.value, &h.site);
        ec_held_end(g, t, lv, false, &h);
        free(v);
        return c;
    }
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        if (t->kind == AVROGEN_KIND_BYTES)
            ec_line(g, "n += avrogen_size_decimal_%s(%s);",
                    t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        else if (t->scalar == MODEL_SCALAR_U64 || t->bit_width)
            ec_line(g, "n += avrogen_size_long((int64_t)%s);", v);
        else
            ec_line(g, "n += avrogen_size_long(%s);", v);
        break;
    case MODEL_STORAGE_CSTRING:
        ec_line(g, "n += avrogen_size_cstring(%s);", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        ec_line(g, "n += avrogen_size_chars(%s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
        /* the length's first byte goes to the constant */
        ec_line(g, "n += avrogen_size_bytes_more(%s.len);", lv);
        c = 1;
        break;
    case MODEL_STORAGE_PADDED:
        ec_line(g, "n += avrogen_size_chars(%s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_CAP_ARRAY:
    case MODEL_STORAGE_PTR_COUNT: {
        bool cap = t->storage == MODEL_STORAGE_CAP_ARRAY;
        char *n = count_arg(t, s);
        char *items = cap ? xasprintf("avrogen_cap_count(%s, %" PRIu64 ")", n, t->c_len)
                          : xasprintf("avrogen_item_count(%s, %s)", v, n);
        free(n);
        if (cap && t->c_flex && t->kind == AVROGEN_KIND_STRING) {
            ec_line(g, "n += avrogen_size_bytes(avrogen_chars_len(%s, %s));", v, items);
        } else if (t->kind != AVROGEN_KIND_ARRAY && t->kind != AVROGEN_KIND_MAP) {
            ec_line(g, "n += avrogen_size_bytes(%s);", items);
        } else {
            char *count = ec_local(g, "count");
            ec_scope_open(g);
            ec_line(g, "size_t %s = %s;", count, items);
            struct capture loop;
            ec_capture_begin(g, &loop);
            g->indent--;
            uint64_t item = size_items(g, t, v, count, true);
            g->indent++;
            ec_capture_end(g, &loop);
            if (item != 0)
                ec_line(g, "n += avrogen_size_array_frame(%s) + %s * %" PRIu64 ";", count, count,
                        item);
            else
                ec_line(g, "n += avrogen_size_array_frame(%s);", count);
            ec_put_body(g, &loop.text);
            ec_scope_close(g);
            free(count);
        }
        free(items);
        break;
    }
    case MODEL_STORAGE_C_ARRAY: {
        /* An array of items whose sizes vary (fixed ones were folded above). */
        char *n = xasprintf("%" PRIu64, t->c_len);
        uint64_t item = size_items(g, t, v, n, false);
        c = (t->c_len != 0 ? varint_size((int64_t)t->c_len) : 0) + t->c_len * item + 1;
        free(n);
        break;
    }
    case MODEL_STORAGE_STRUCT: {
        struct aligned al;
        char *addr = ec_aligned_begin(g, t->record->c_type, t->record->c_align, lv, "member", &al);
        size_t ri = ec_record_index(g->m, t->record);
        if (ri < g->m->n_records && g->deep[ri]) {
            /* SIZE_MAX: nested past the depth limit (a cycle of pointers, say), refused at once. */
            ec_line(g, "if ((n = avrogen_size_sum(n, %s_avro_measure(%s, depth))) == SIZE_MAX)",
                    t->record->c_prefix, addr);
            ec_line(g, "    return SIZE_MAX;");
        } else {
            /* its measure counts what varies, the rest goes to the constant */
            ec_line(g, "n += %s_avro_measure(%s);", t->record->c_prefix, addr);
            c = g->size_fixed[ri];
        }
        ec_aligned_end(g, &al, false);
        free(addr);
        break;
    }
    case MODEL_STORAGE_TIME: {
        char *args = time_args(t, lv);
        ec_line(g, "n += avrogen_size_time(%s);", args);
        free(args);
        break;
    }
    case MODEL_STORAGE_ENUM:
        ec_line(g, "n += avrogen_size_long(%s_avro_index(%s));", t->enumeration->c_prefix, v);
        g->enum_index[ec_enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        /* the branch index: 0 or 1, one byte */
        c = 1;
        char *cond = null_test(t, lv);
        char *target = nullable_target(t, lv);
        struct capture body;
        ec_capture_begin(g, &body);
        size_add(g, size_value(g, t->items, target, s));
        ec_capture_end(g, &body);
        char *not_null = xasprintf("!(%s)", cond);
        if (strstr(cond, " == NULL") != NULL) {
            free(not_null);
            not_null = xstrdup(cond);
            memcpy(strstr(not_null, " == NULL"), " != NULL", 8);
        }
        if (body.text.len != 0)
            ec_if_else(g, not_null, &body, NULL);
        else
            textbuf_free(&body.text);
        free(not_null);
        free(target);
        free(cond);
        break;
    }
    case MODEL_STORAGE_RECORD_PTR: {
        /* NULL adds nothing: encode refuses it */
        char *target = xasprintf("(*%s)", lv);
        struct capture body;
        ec_capture_begin(g, &body);
        size_add(g, size_value(g, t->items, target, s));
        ec_capture_end(g, &body);
        char *not_null = xasprintf("%s != NULL", v);
        if (body.text.len != 0)
            ec_if_else(g, not_null, &body, NULL);
        else
            textbuf_free(&body.text);
        free(not_null);
        free(target);
        break;
    }
    case MODEL_STORAGE_TAGGED: {
        struct capture cases;
        ec_capture_begin(g, &cases);
        g->indent--;
        for (size_t i = 0; i < t->n_branches; i++) {
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            struct capture body;
            ec_capture_begin(g, &body);
            size_add(g, varint_size((int64_t)i) + size_value(g, t->branches[i].type, member, s));
            ec_capture_end(g, &body);
            free(member);
            if (body.text.len == 0) {
                textbuf_free(&body.text);
                continue;
            }
            tag_cases(g, t, i);
            ec_put_body(g, &body.text);
            g->indent++;
            ec_line(g, "break;");
            g->indent--;
        }
        g->indent++;
        ec_capture_end(g, &cases);
        if (cases.text.len != 0) {
            ec_line(g, "switch ((int64_t)%s->%s) {", s->ptr, t->tag_c_name);
            ec_put_body(g, &cases.text);
            ec_line(g, "default:");
            g->indent++;
            ec_line(g, "break;");
            g->indent--;
            ec_line(g, "}");
        } else {
            textbuf_free(&cases.text);
        }
        break;
    }
    default:
        break;
    }
    free(v);
    return c;
}

/* ---- decode -------------------------------------------------------------- */

static void read_value(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull);

/* Read `block` items into arr[first, first + block). */
static void read_items(struct gen *g, const struct model_type *t, const char *arr,
                       const char *first, const char *blk)
{
    const struct model_type *it = t->items;
    const char *bulk = bulk_suffix(g, t);
    if (bulk != NULL) {
        ec_line(g, "avrogen_read_%s(r, &%s[%s], %s);", bulk, arr, first, blk);
        return;
    }
    char *i = ec_loop_index(g);
    /* The loop head tests the sticky error: a hostile block count cannot spin
     * through a body that does nothing. */
    char *head = xasprintf("for (size_t %s = %s; %s < %s + %s && r->err == AVROGEN_OK; %s++)", i,
                           first, i, first, blk, i);
    struct capture body;
    ec_capture_begin(g, &body);
    char *e = ec_local(g, "e");
    bool unaligned = g->unaligned;
    g->unaligned = unaligned && inline_items(t); /* what a pointer points to is aligned */
    g->depth++;
    char *item = xasprintf("%s[%s]", arr, i);
    if (t->kind == AVROGEN_KIND_MAP) {
        char *entry_type = ec_unqualified(t->entry_c_type);
        char *decl = ec_pointer_decl(entry_type, e);
        struct aligned al;
        char *addr = ec_aligned_begin(g, entry_type, 0, item, "entry", &al);
        ec_line(g, "%s = %s;", decl, addr);
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        read_value(g, t->map_key, key, &es, false);
        read_value(g, it, value, &es, false);
        ec_aligned_end(g, &al, true);
        free(addr);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
    } else {
        read_value(g, it, item, NULL, false);
    }
    free(item);
    g->depth--;
    g->unaligned = unaligned;
    ec_capture_end(g, &body);
    ec_block(g, head, &body);
    free(head);
    free(e);
    free(i);
}

/* Store decoded count `n` (size_t) into the count member next to t. */
static void store_count(struct gen *g, const struct model_type *t, const struct site *s,
                        const char *n)
{
    /* A record's count is cast to its declared type, a map entry's to the
     * integer type of the same width: both convert to the member in C and in
     * C++ (a count is never an enum, unlike a tag), and the entry's spelling
     * is the one generated code has always used there. */
    char *ct = s->rec != NULL ? ec_unqualified(t->count_c_type)
                              : xstrdup(model_scalar_c_name(t->count_scalar));
    const char *max = ec_int_max_macro(t->count_scalar);
    if (max != NULL)
        ec_line(g, "%s->%s = (%s)avrogen_read_count(r, %s, %s);", s->ptr, t->count_c_name, ct, n,
                max);
    else if (strcmp(ct, "size_t") == 0)
        ec_line(g, "%s->%s = %s;", s->ptr, t->count_c_name, n);
    else
        ec_line(g, "%s->%s = (%s)%s;", s->ptr, t->count_c_name, ct, n);
    free(ct);
}

static void read_scalar(struct gen *g, const struct model_type *t, const char *v)
{
    const char *fn = NULL;
    if (t->bit_width) {
        ec_emit_read_bitfield(g, t, v,
                              t->kind == AVROGEN_KIND_BOOLEAN ? "avrogen_read_bool(r)"
                              : t->kind == AVROGEN_KIND_INT   ? "avrogen_read_int(r)"
                                                              : "avrogen_read_long(r)");
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        fn = "avrogen_read_bool(r)";
        break;
    case AVROGEN_KIND_INT:
        switch (t->scalar) {
        case MODEL_SCALAR_I8:
            fn = "avrogen_read_int8(r)";
            break;
        case MODEL_SCALAR_I16:
            fn = "avrogen_read_int16(r)";
            break;
        case MODEL_SCALAR_U8:
            fn = "avrogen_read_uint8(r)";
            break;
        case MODEL_SCALAR_U16:
            fn = "avrogen_read_uint16(r)";
            break;
        default:
            fn = "avrogen_read_int(r)";
            break;
        }
        break;
    case AVROGEN_KIND_LONG:
        if (t->scalar == MODEL_SCALAR_U64 && t->u64_checked) {
            char *msg = ec_member_msg(g, "negative long");
            ec_line(g, "%s = avrogen_read_u64(r, %s);", v, msg);
            free(msg);
            return;
        }
        fn = t->scalar == MODEL_SCALAR_U32   ? "avrogen_read_uint32(r)"
             : t->scalar == MODEL_SCALAR_U64 ? "(uint64_t)avrogen_read_long(r)"
             : t->scalar == MODEL_SCALAR_I32 ? "avrogen_read_long_int32(r)"
                                             : "avrogen_read_long(r)";
        break;
    case AVROGEN_KIND_FLOAT:
        fn = "avrogen_read_float(r)";
        break;
    case AVROGEN_KIND_DOUBLE:
        fn = "avrogen_read_double(r)";
        break;
    case AVROGEN_KIND_BYTES: /* decimal */
        fn = t->scalar == MODEL_SCALAR_U64 ? "avrogen_read_decimal_uint64(r)"
                                           : "avrogen_read_decimal_int64(r)";
        break;
    default:
        return;
    }
    ec_line(g, "%s = %s;", v, fn);
}

static void read_array(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull)
{
    char *v = ec_plain(lv);
    bool is_map = t->kind == AVROGEN_KIND_MAP;
    char *elem = is_map ? ec_unqualified(t->entry_c_type) : ec_value_c_type(t->items);
    char *items = ec_local(g, "items"), *n = ec_local(g, "n"), *cap = ec_local(g, "cap"),
         *blk = ec_local(g, "b"), *end = ec_local(g, "end");
    char *decl = ec_pointer_decl(elem, items);
    char *cast = ec_pointer_cast(elem);
    uint64_t min = is_map ? 1 + min_size(g, t->items) : min_size(g, t->items);
    ec_scope_open(g);
    ec_line(g, "%s = NULL;", decl);
    ec_line(g, "size_t %s = 0, %s = 0, %s;", n, cap, blk);
    ec_line(g, "const uint8_t *%s = NULL;", end);
    ec_line(g, "while ((%s = avrogen_read_block(r, &%s)) != 0) {", blk, end);
    g->indent++;
    ec_line(g, "%s = %savrogen_read_grow(r, a, %s, %s, &%s, %s, sizeof *%s, %" PRIu64 ");", items,
            cast, items, n, cap, blk, items, min);
    ec_line(g, "if (%s == NULL)", items);
    g->indent++;
    ec_line(g, "break;");
    g->indent--;
    read_items(g, t, items, n, blk);
    ec_line(g, "%s += %s;", n, blk);
    g->indent--;
    ec_line(g, "}");
    if (nonnull) {
        /* An empty array is not null: it needs a pointer all the same. */
        ec_line(g, "if (%s == NULL && r->err == AVROGEN_OK)", items);
        g->indent++;
        ec_line(g, "%s = %savrogen_reader_alloc(r, a, 0);", items, cast);
        g->indent--;
    }
    ec_line(g, "%s = %s;", v, items);
    store_count(g, t, s, n);
    g->used_a = true;
    free(cast);
    free(decl);
    free(end);
    free(blk);
    free(cap);
    free(n);
    free(items);
    free(elem);
    ec_scope_close(g);
    free(v);
}

/* An array into the first n items of T[N] (n its count member). */
static void read_cap_array(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    char *n = ec_local(g, "n"), *blk = ec_local(g, "b"), *end = ec_local(g, "end");
    char *what = xasprintf("more than %" PRIu64 " items", t->c_len);
    char *msg = ec_member_msg(g, what);
    ec_scope_open(g);
    ec_line(g, "size_t %s = 0, %s;", n, blk);
    ec_line(g, "const uint8_t *%s = NULL;", end);
    ec_line(g, "while ((%s = avrogen_read_cap_block(r, &%s, %s, %" PRIu64 ", %s)) != 0) {", blk,
            end, n, t->c_len, msg);
    g->indent++;
    read_items(g, t, lv, n, blk);
    ec_line(g, "%s += %s;", n, blk);
    g->indent--;
    ec_line(g, "}");
    store_count(g, t, s, n);
    ec_scope_close(g);
    free(msg);
    free(what);
    free(end);
    free(blk);
    free(n);
}

/* Bytes or text into the first n bytes of char[N] (n its count member). */
static void read_cap_bytes(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    char *v = ec_plain(lv), *len = ec_local(g, "len");
    char *what = xasprintf("more than %" PRIu64 " bytes", t->c_len);
    char *msg = ec_member_msg(g, what);
    char *cap = cap_size(t, v);
    ec_scope_open(g);
    ec_line(g, "size_t %s = avrogen_read_cap_%s(r, %s, %s, %s);", len,
            t->kind == AVROGEN_KIND_STRING ? "text" : "bytes", v, cap, msg);
    free(cap);
    store_count(g, t, s, len);
    ec_scope_close(g);
    free(msg);
    free(what);
    free(len);
    free(v);
}

static void read_c_array(struct gen *g, const struct model_type *t, const char *lv)
{
    char *n = ec_local(g, "n"), *blk = ec_local(g, "b"), *end = ec_local(g, "end");
    ec_scope_open(g);
    ec_line(g, "size_t %s = 0, %s;", n, blk);
    ec_line(g, "const uint8_t *%s = NULL;", end);
    ec_line(g, "while ((%s = avrogen_read_exact_block(r, &%s, %s, %" PRIu64 ")) != 0) {", blk, end,
            n, t->c_len);
    g->indent++;
    read_items(g, t, lv, n, blk);
    ec_line(g, "%s += %s;", n, blk);
    g->indent--;
    ec_line(g, "}");
    ec_scope_close(g);
    free(end);
    free(blk);
    free(n);
}

/* Set nullable location lv (null via its own state) to null. */
static void read_null_self(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    switch (t->items->storage) {
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
        ec_line(g, "%s.ptr = NULL;", lv);
        ec_line(g, "%s.len = 0;", lv);
        break;
    case MODEL_STORAGE_PTR_COUNT: {
        char *v = ec_plain(lv);
        ec_line(g, "%s = NULL;", v);
        ec_line(g, "%s->%s = 0;", s->ptr, t->items->count_c_name);
        free(v);
        break;
    }
    default: {
        char *v = ec_plain(lv);
        ec_line(g, "%s = NULL;", v);
        free(v);
        break;
    }
    }
}

static void read_value(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull)
{
    if (t->holder_c_type != NULL) {
        struct held h;
        ec_held_begin(g, t, &h);
        read_value(g, &h.inner, h.value, &h.site, nonnull);
        ec_held_end(g, t, lv, true, &h);
        return;
    }
    char *v = ec_plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_NONE:
        break;
    case MODEL_STORAGE_SCALAR:
        read_scalar(g, t, v);
        break;
    case MODEL_STORAGE_CSTRING:
        ec_line(g, "%s = avrogen_read_cstring(r, a);", v);
        g->used_a = true;
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        ec_line(g, "avrogen_read_chars(r, %s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
        ec_line(g, "%s = avrogen_read_text(r);", v);
        break;
    case MODEL_STORAGE_BYTES_VIEW:
        ec_line(g, "%s = avrogen_read_bytes(r);", v);
        break;
    case MODEL_STORAGE_CAP_ARRAY:
        if (cap_bytes(t))
            read_cap_bytes(g, t, lv, s);
        else
            read_cap_array(g, t, lv, s);
        break;
    case MODEL_STORAGE_PADDED: {
        char *what = xasprintf("more than %" PRIu64 " bytes", t->c_len);
        char *msg = ec_member_msg(g, what);
        ec_line(g, "avrogen_read_padded(r, %s, sizeof %s, %s);", v, v, msg);
        free(msg);
        free(what);
        break;
    }
    case MODEL_STORAGE_PTR_COUNT:
        if (t->kind == AVROGEN_KIND_BYTES || t->kind == AVROGEN_KIND_STRING) {
            char *len = ec_local(g, "len");
            ec_scope_open(g);
            char *ct = ec_unqualified(t->c_type);
            ec_line(g, "size_t %s;", len);
            ec_line(g, "%s = (%s)avrogen_read_%s_copy(r, a, &%s);", v, ct,
                    t->kind == AVROGEN_KIND_STRING ? "text" : "bytes", len);
            store_count(g, t, s, len);
            g->used_a = true;
            ec_scope_close(g);
            free(ct);
            free(len);
        } else {
            read_array(g, t, lv, s, nonnull);
        }
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (t->kind == AVROGEN_KIND_FIXED)
            ec_line(g, "avrogen_read_fixed(r, %s%s, sizeof %s);", t->c_object ? "&" : "", v, v);
        else
            read_c_array(g, t, lv);
        break;
    case MODEL_STORAGE_STRUCT: {
        /* Through a copy, decoded and copied back: what the member held
         * before is what the record's read starts from, as without one. */
        struct aligned al;
        char *addr = ec_aligned_begin(g, t->record->c_type, t->record->c_align, lv, "member", &al);
        ec_line(g, "%s_avro_read(r, %s, a);", t->record->c_prefix, addr);
        ec_aligned_end(g, &al, true);
        g->used_a = true;
        free(addr);
        break;
    }
    case MODEL_STORAGE_ENUM:
        ec_line(g, "%s = %s_avro_read(r);", v, t->enumeration->c_prefix);
        g->enum_read[ec_enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        char *cond = xasprintf("avrogen_read_branch(r, 2) == %u", 1 - t->null_index);
        struct capture value, null;
        ec_capture_begin(g, &value);
        if (t->null_via == MODEL_NULL_VIA_PTR) {
            struct target tg;
            read_value(g, t->items, ec_target_begin(g, t->items, &tg), s, false);
            ec_target_end(g, v, &tg);
        } else {
            read_value(g, t->items, lv, s, true);
        }
        ec_capture_end(g, &value);
        ec_capture_begin(g, &null);
        if (t->null_via == MODEL_NULL_VIA_PTR)
            ec_line(g, "%s = NULL;", v);
        else
            read_null_self(g, t, lv, s);
        ec_capture_end(g, &null);
        ec_if_else(g, cond, &value, &null);
        free(cond);
        break;
    }
    case MODEL_STORAGE_TIME:
        ec_emit_read_time(g, t, lv, "avrogen_read_long(r)");
        break;
    case MODEL_STORAGE_RECORD_PTR: {
        /* The record of a union branch, allocated as a nullable pointer's target. */
        struct target tg;
        ec_scope_open(g);
        read_value(g, t->items, ec_target_begin(g, t->items, &tg), s, false);
        ec_target_end(g, v, &tg);
        ec_scope_close(g);
        break;
    }
    case MODEL_STORAGE_TAGGED: {
        ec_line(g, "switch (avrogen_read_branch(r, %zu)) {", t->n_branches);
        for (size_t i = 0; i < t->n_branches; i++) {
            ec_line(g, "case %zu:", i);
            g->indent++;
            ec_emit_store_tag(g, t, s, i);
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            read_value(g, t->branches[i].type, member, s, false);
            free(member);
            ec_line(g, "break;");
            g->indent--;
        }
        ec_line(g, "default:");
        g->indent++;
        ec_line(g, "break;");
        g->indent--;
        ec_line(g, "}");
        break;
    }
    }
    free(v);
}

static void read_field(struct gen *g, const struct model_field *f, const struct site *vs)
{
    ec_set_member(g, vs->rec, f->c_name);
    char *lv = xasprintf("v->%s", model_field_path(f));
    read_value(g, f->type, lv, vs, false);
    free(lv);
}

/* The decode emitters above, for the ahead-of-time decoders (emit_c_resolve.c):
 * they read a location whose writer type is the reader's with the same code. */
void ec_emit_read_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s, bool nonnull)
{
    read_value(g, t, lv, s, nonnull);
}

void ec_emit_read_null(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s)
{
    read_null_self(g, t, lv, s);
}

void ec_emit_store_count(struct gen *g, const struct model_type *t, const struct site *s,
                         const char *n)
{
    store_count(g, t, s, n);
}

/* ---- per-type functions -------------------------------------------------- */

/*
 * Enums of more symbols than this get tables instead of a switch: the index of
 * a value is arithmetic when the values are consecutive, else a binary search
 * over the symbols sorted by value, and the values of the symbols are one
 * array at file scope. A switch of 100,000 cases made a 23 MB .c that gcc -O0
 * took two minutes over. Smaller enums keep the switch, which compilers turn
 * into a jump table or arithmetic and a reader reads at a glance.
 */
#define ENUM_SWITCH_MAX 256

static bool enum_tables(const struct model_enum *e)
{
    return e->n_symbols > ENUM_SWITCH_MAX;
}

static bool scalar_is_unsigned(enum model_scalar s)
{
    return s == MODEL_SCALAR_U8 || s == MODEL_SCALAR_U16 || s == MODEL_SCALAR_U32 ||
           s == MODEL_SCALAR_U64 || s == MODEL_SCALAR_BOOL;
}

/* A symbol with its value as a key that sorts the way C compares values of
 * the enum's underlying type: signed values with the sign bit flipped. */
struct keyed_symbol {
    uint64_t key;
    size_t index;
};

static int by_key(const void *pa, const void *pb)
{
    const struct keyed_symbol *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* The enum's values as one array at file scope, P_avro_values[i] the value of
 * symbol i, for an enum with tables. */
static void emit_enum_values(struct gen *g, const struct model_enum *e, const char *ct)
{
    size_t width = 0;
    for (size_t i = 0; i < e->n_symbols; i++)
        if (strlen(e->symbols[i].c_name) > width)
            width = strlen(e->symbols[i].c_name);
    ec_line(g, "static const %s %s_avro_values[%zu] = {", ct, e->c_prefix, e->n_symbols);
    for (size_t i = 0; i < e->n_symbols; i++)
        ec_line(g, "        %s,%*s/* %zu */", e->symbols[i].c_name,
                (int)(width + 1 - strlen(e->symbols[i].c_name)), "", i);
    ec_line(g, "};");
    ec_blank(g);
}

/* P_avro_index of an enum with tables: arithmetic for consecutive values,
 * else a binary search over the symbols in value order. */
static void emit_enum_index_table(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    ec_line(g, "static int32_t %s_avro_index(%s e)", p, ct);
    ec_line(g, "{");
    g->indent++;
    if (e->dense) {
        ec_line(g, "/* The values are %s, %s + 1, ...: symbol i is %s + i. */",
                e->symbols[0].c_name, e->symbols[0].c_name, e->symbols[0].c_name);
        ec_line(g, "uint64_t i = (uint64_t)e - (uint64_t)%s;", e->symbols[0].c_name);
        ec_line(g, "return i < %zuu ? (int32_t)i : -1;", e->n_symbols);
    } else {
        struct keyed_symbol *k = xcalloc(e->n_symbols, sizeof *k);
        bool is_unsigned = scalar_is_unsigned(e->scalar);
        for (size_t i = 0; i < e->n_symbols; i++)
            k[i] = (struct keyed_symbol){
                    (uint64_t)e->symbols[i].value ^ (is_unsigned ? 0 : UINT64_C(1) << 63), i};
        qsort(k, e->n_symbols, sizeof *k, by_key);
        ec_line(g, "/* The symbols in the order of their values. */");
        ec_line(g, "static const uint32_t by_value[%zu] = {", e->n_symbols);
        int width = snprintf(NULL, 0, "%zu", e->n_symbols - 1);
        for (size_t i = 0; i < e->n_symbols; i++) {
            int digits = snprintf(NULL, 0, "%zu", k[i].index);
            ec_line(g, "        %zu,%*s/* %s */", k[i].index, width + 1 - digits, "",
                    e->symbols[k[i].index].c_name);
        }
        ec_line(g, "};");
        free(k);
        ec_line(g, "size_t lo = 0, hi = %zu;", e->n_symbols);
        ec_line(g, "while (lo < hi) {");
        g->indent++;
        ec_line(g, "size_t mid = lo + (hi - lo) / 2;");
        ec_line(g, "%s v = %s_avro_values[by_value[mid]];", ct, p);
        ec_line(g, "if (v == e)");
        ec_line(g, "    return (int32_t)by_value[mid];");
        ec_line(g, "if (v < e)");
        ec_line(g, "    lo = mid + 1;");
        ec_line(g, "else");
        ec_line(g, "    hi = mid;");
        g->indent--;
        ec_line(g, "}");
        ec_line(g, "return -1;");
    }
    g->indent--;
    ec_line(g, "}");
    ec_blank(g);
}

static void emit_enum_index(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    ec_line(g, "static int32_t %s_avro_index(%s e)", p, ct);
    ec_line(g, "{");
    g->indent++;
    ec_line(g, "switch (e) {");
    for (size_t i = 0; i < e->n_symbols; i++) {
        ec_line(g, "case %s:", e->symbols[i].c_name);
        g->indent++;
        ec_line(g, "return %zu;", i);
        g->indent--;
    }
    ec_line(g, "default:");
    g->indent++;
    ec_line(g, "return -1;");
    g->indent--;
    ec_line(g, "}");
    g->indent--;
    ec_line(g, "}");
    ec_blank(g);
}

static void emit_enum_write(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    ec_line(g, "static void %s_avro_write(avrogen_writer *w, %s e)", p, ct);
    ec_line(g, "{");
    g->indent++;
    ec_line(g, "int32_t i = %s_avro_index(e);", p);
    ec_line(g, "if (i >= 0)");
    ec_line(g, "    avrogen_write_int(w, i);");
    ec_line(g, "else");
    ec_line(g, "    avrogen_writer_fail(w, AVROGEN_E_ARG);");
    g->indent--;
    ec_line(g, "}");
    ec_blank(g);
}

static void emit_enum_read(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    ec_line(g, "static %s %s_avro_read(avrogen_reader *r)", ct, p);
    ec_line(g, "{");
    g->indent++;
    if (enum_tables(e)) {
        ec_line(g, "return %s_avro_values[avrogen_read_symbol(r, %zu)];", p, e->n_symbols);
        g->indent--;
        ec_line(g, "}");
        ec_blank(g);
        return;
    }
    struct textbuf list = TEXTBUF_INIT;
    for (size_t i = 0; i < e->n_symbols; i++)
        textbuf_printf(&list, "%s%s", i != 0 ? ", " : "", e->symbols[i].c_name);
    char *head = xasprintf("static const %s values[%zu] = {", ct, e->n_symbols);
    if ((size_t)g->indent * 4 + strlen(head) + list.len + 2 <= EC_COLUMNS) {
        ec_line(g, "%s%s};", head, list.data);
    } else {
        /* One per line with its index: the comments keep clang-format from
         * packing them into columns. */
        size_t width = 0;
        for (size_t i = 0; i < e->n_symbols; i++)
            if (strlen(e->symbols[i].c_name) > width)
                width = strlen(e->symbols[i].c_name);
        ec_line(g, "%s", head);
        for (size_t i = 0; i < e->n_symbols; i++)
            ec_line(g, "        %s,%*s/* %zu */", e->symbols[i].c_name,
                    (int)(width + 1 - strlen(e->symbols[i].c_name)), "", i);
        ec_line(g, "};");
    }
    free(head);
    textbuf_free(&list);
    ec_line(g, "return values[avrogen_read_symbol(r, %zu)];", e->n_symbols);
    g->indent--;
    ec_line(g, "}");
    ec_blank(g);
}

void ec_emit_enum_functions(struct gen *g, size_t index)
{
    const struct model_enum *e = g->m->enums[index];
    bool use_index = g->enum_index[index] || g->enum_write[index];
    const char *ct = e->c_type != NULL ? e->c_type : model_scalar_c_name(e->scalar);
    if (!use_index && !g->enum_read[index])
        return;
    ec_line(g, "/* %s <-> Avro enum %s: symbol i is the i-th enumerator below. */", ct,
            e->name.fullname);
    if (enum_tables(e) && (g->enum_read[index] || (use_index && !e->dense)))
        emit_enum_values(g, e, ct);
    if (use_index && enum_tables(e))
        emit_enum_index_table(g, e, ct);
    else if (use_index)
        emit_enum_index(g, e, ct);
    if (g->enum_write[index])
        emit_enum_write(g, e, ct);
    if (g->enum_read[index])
        emit_enum_read(g, e, ct);
}

/* Emit `head` then a function body captured in `body`, with (void) casts for
 * the parameters it does not use. */
static void function(struct gen *g, const char *head, struct capture *body,
                     const char *const *unused, size_t n_unused)
{
    ec_line(g, "%s", head);
    ec_line(g, "{");
    g->indent++;
    for (size_t i = 0; i < n_unused; i++)
        if (unused[i] != NULL)
            ec_line(g, "(void)%s;", unused[i]);
    g->indent--;
    ec_put_body(g, &body->text);
    ec_line(g, "}");
    ec_blank(g);
}

void ec_emit_record_functions(struct gen *g, const struct model_record *rec, bool cyclic)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    struct site vs = {"v", rec};
    struct capture body;
    char *head;
    g->unaligned = rec->may_be_unaligned;

    ec_line(g, "/* %s <-> Avro record %s */", ct, rec->name.fullname);
    /* A record from another header gets private copies of its functions; the
     * records here may need only some of them (a fixed size folds to a constant). */
    const char *linkage = rec->in_main_file ? "static" : "AVROGEN_UNUSED static";
    size_t ri = ec_record_index(g->m, rec);
    bool deep = ri < g->m->n_records && g->deep[ri];

    /* measure */
    uint64_t c = 0;
    g->used_v = false;
    ec_capture_begin(g, &body);
    if (cyclic) {
        /* Past the depth limit the encoder refuses it, and so does its size. */
        ec_line(g, "if (depth >= AVROGEN_DEFAULT_MAX_DEPTH)");
        ec_line(g, "    return SIZE_MAX;");
        ec_line(g, "depth++;");
    }
    struct capture parts;
    ec_capture_begin(g, &parts);
    g->indent--;
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        ec_set_member(g, rec, f->c_name);
        char *lv = xasprintf("v->%s", model_field_path(f));
        c += size_value(g, f->type, lv, &vs);
        free(lv);
    }
    g->indent++;
    ec_capture_end(g, &parts);
    /* A record of varying size that no cycle reaches leaves its constant to
     * its callers, who add it once (an array of them: once for all). */
    bool split = !deep && ri < g->m->n_records && parts.text.len != 0;
    uint64_t inside = split ? 0 : c;
    if (split)
        g->size_fixed[ri] = c;
    if (parts.text.len == 0) {
        ec_line(g, "return %" PRIu64 ";", inside);
        textbuf_free(&parts.text);
    } else {
        g->used_v = true;
        ec_line(g, "size_t n = %" PRIu64 ";", inside);
        ec_blank(g);
        ec_put_body(g, &parts.text);
        ec_line(g, "return n;");
    }
    ec_capture_end(g, &body);
    if (split && c != 0)
        ec_line(g, "/* The bytes of a %s beyond the %" PRIu64 " that each one takes. */", ct, c);
    /* inline: else gcc -O2 calls the measure of a record with a strlen in it
     * once per item of an array of them (the Order bench: 100 instructions of 1000). */
    head = deep ? xasprintf("%s size_t %s_avro_measure(const %s *v, unsigned depth)", linkage, p,
                            ct)
                : xasprintf("%s inline size_t %s_avro_measure(const %s *v)", linkage, p, ct);
    const char *unused_measure[] = {g->used_v ? NULL : "v"};
    function(g, head, &body, unused_measure, 1);
    free(head);

    /* write */
    ec_capture_begin(g, &body);
    if (cyclic) {
        /* The type reaches itself: a cycle of pointers, or data nested too deep,
         * stops at the writer's max_depth. */
        ec_line(g, "if (!avrogen_writer_enter(w))");
        ec_line(g, "    return;");
    }
    const struct model_type **types = xcalloc(rec->n_fields + 1, sizeof *types);
    const char **names = xcalloc(rec->n_fields + 1, sizeof *names);
    char **lvs = xcalloc(rec->n_fields + 1, sizeof *lvs);
    size_t n = 0;
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        types[n] = f->type;
        names[n] = f->c_name;
        lvs[n++] = xasprintf("v->%s", model_field_path(f));
    }
    write_members(g, types, (const char *const *)lvs, names, n, &vs);
    if (cyclic)
        ec_line(g, "avrogen_writer_leave(w);");
    bool any = cyclic; /* a null field writes nothing */
    for (size_t i = 0; i < n; i++)
        any = any || types[i]->storage != MODEL_STORAGE_NONE;
    for (size_t i = 0; i < n; i++)
        free(lvs[i]);
    free(lvs);
    free(names);
    free(types);
    ec_capture_end(g, &body);
    head = xasprintf("%s void %s_avro_write(avrogen_writer *w, const %s *v)", linkage, p, ct);
    const char *unused_write[] = {any ? NULL : "w", any ? NULL : "v"};
    function(g, head, &body, unused_write, 2);
    free(head);

    /* read */
    g->used_a = false;
    any = false;
    bool cleared = false;
    ec_capture_begin(g, &body);
    bool zero = true;
    for (size_t i = 0; i < rec->n_fields && zero; i++)
        if (rec->fields[i].role == MODEL_FIELD_VALUE && min_size(g, rec->fields[i].type) != 0)
            zero = false;
    if (zero) {
        /* It takes no bytes: only the item budget bounds how many a datum holds. */
        ec_line(g, "if (!avrogen_reader_charge(r, 1))");
        ec_line(g, "    return;");
    }
    if (cyclic) {
        /* The type reaches itself: bound the recursion on hostile input. */
        ec_line(g, "if (!avrogen_reader_enter(r))");
        ec_line(g, "    return;");
    }
    for (size_t i = 0; i < rec->n_fields; i++) {
        if (rec->fields[i].role == MODEL_FIELD_SKIP) {
            /* Members that are not serialized stay zeroed, also in storage from the
             * arena (they may be bit-fields, so the whole record is cleared). */
            ec_line(g, "memset((void *)v, 0, sizeof *v);");
            cleared = true;
            break;
        }
    }
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        read_field(g, f, &vs);
        any = any || f->type->storage != MODEL_STORAGE_NONE;
    }
    if (cyclic)
        ec_line(g, "avrogen_reader_leave(r);");
    ec_capture_end(g, &body);
    head = xasprintf("%s void %s_avro_read(avrogen_reader *r, %s *v, avrogen_arena *a)", linkage, p,
                     ct);
    const char *unused_read[] = {any || cyclic || zero ? NULL : "r", any || cleared ? NULL : "v",
                                 g->used_a ? NULL : "a"};
    function(g, head, &body, unused_read, 3);
    free(head);
}

/* Forward declarations of the static functions of a record that reaches itself. */
void ec_emit_record_prototypes(struct gen *g, const struct model_record *rec)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    ec_line(g, "static size_t %s_avro_measure(const %s *v, unsigned depth);", p, ct);
    ec_line(g, "static void %s_avro_write(avrogen_writer *w, const %s *v);", p, ct);
    ec_line(g, "static void %s_avro_read(avrogen_reader *r, %s *v, avrogen_arena *a);", p, ct);
}

void ec_emit_public_functions(struct gen *g, const struct model_record *rec)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    size_t ri = ec_record_index(g->m, rec);
    bool deep = ri < g->m->n_records && g->deep[ri];
    ec_line(g, "size_t %s_avro_size(const %s *v)", p, ct);
    ec_line(g, "{");
    if (deep)
        ec_line(g, "    return %s_avro_measure(v, 0);", p);
    else if (g->size_fixed[ri] == 0)
        ec_line(g, "    return %s_avro_measure(v);", p);
    else
        ec_line(g, "    return %" PRIu64 " + %s_avro_measure(v);", g->size_fixed[ri], p);
    ec_line(g, "}");
    ec_blank(g);
    /* Kept whole: inlined into P_avro_encode_erased (avrogen_type.encode), it
     * would give P_avro_write a second call site, and gcc then keeps that out
     * of line for both (+9-10 instructions a record at -O2 and -O3). */
    ec_line(g, "AVROGEN_NOINLINE avrogen_status %s_avro_encode(avrogen_writer *w, const %s *v)", p,
            ct);
    ec_line(g, "{");
    ec_line(g, "    %s_avro_write(w, v);", p);
    ec_line(g, "    if (AVROGEN_UNLIKELY(w->err != AVROGEN_OK))");
    ec_line(g, "        avrogen_writer_explain(w, &%s_avro_type, v); /* which member */", p);
    ec_line(g, "    return w->err;");
    ec_line(g, "}");
    ec_blank(g);
    ec_line(g, "avrogen_status %s_avro_decode(avrogen_reader *r, %s *v, avrogen_arena *a)", p, ct);
    ec_line(g, "{");
    ec_line(g, "    const uint8_t *datum = r->p;");
    ec_line(g, "    avrogen_reader_begin_datum(r);");
    ec_line(g, "    %s_avro_read(r, v, a);", p);
    char *room = ec_decoded_size(rec);
    ec_line(g, "    if (AVROGEN_UNLIKELY(r->err != AVROGEN_OK)) {");
    ec_line(g, "        memset((void *)v, 0, %s); /* no pointers into a half-decoded datum */",
            room);
    ec_line(g, "        avrogen_reader_explain_type(r, &%s_avro_type, datum); /* which member */",
            p);
    ec_line(g, "    }");
    free(room);
    ec_line(g, "    return r->err;");
    ec_line(g, "}");
    ec_blank(g);
}
