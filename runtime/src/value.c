/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generic values: construction, lookup, deep equality, and the Avro binary
 * encoding of a value tree (encode, size, decode into an arena, skip by schema).
 * The JSON encoding of the same tree lives in json.c. Nothing here mallocs:
 * decoded data goes into the caller's arena, encoding into the caller's writer.
 */
#include "avrogen/value.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <float.h>

#include "value_internal.h"

/* What the zero value of a bytes or string points at. */
static const uint8_t empty_bytes[1] = {0};

/* ---- arena helpers --------------------------------------------------------- */

avrogen_status avrogen_value_arena_status(const avrogen_arena *a, size_t size)
{
    size_t rounded = (size + (AVROGEN_ARENA_ALIGN - 1)) & ~(size_t)(AVROGEN_ARENA_ALIGN - 1);
    if (rounded < size)
        return AVROGEN_E_LIMIT;
    if (a->budget != SIZE_MAX && rounded > a->budget - a->used)
        return AVROGEN_E_LIMIT;
    return AVROGEN_E_NOMEM;
}

/* `count` values, uninitialised; NULL with *st set when the arena says no. */
static avrogen_value *alloc_values(avrogen_arena *a, size_t count, avrogen_status *st)
{
    size_t size;
    if (!avrogen_size_mul(count, sizeof(avrogen_value), &size)) {
        *st = AVROGEN_E_LIMIT;
        return NULL;
    }
    avrogen_value *v = avrogen_arena_alloc(a, size);
    if (v == NULL)
        *st = avrogen_value_arena_status(a, size);
    return v;
}

static avrogen_map_entry *alloc_entries(avrogen_arena *a, size_t count, avrogen_status *st)
{
    size_t size;
    if (!avrogen_size_mul(count, sizeof(avrogen_map_entry), &size)) {
        *st = AVROGEN_E_LIMIT;
        return NULL;
    }
    avrogen_map_entry *e = avrogen_arena_alloc(a, size);
    if (e == NULL)
        *st = avrogen_value_arena_status(a, size);
    return e;
}

/* The capacity to grow to so that `need` slots fit: double, but at least `need`. */
static size_t grow_cap(size_t cap, size_t need)
{
    size_t next = cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
    if (next < 4)
        next = 4;
    return next < need ? need : next;
}

/* ---- construction ---------------------------------------------------------- */

static avrogen_status init_value(avrogen_value *v, const avrogen_node *t, avrogen_arena *a,
                                 unsigned depth)
{
    memset(v, 0, sizeof *v);
    v->type = t;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
    case AVROGEN_KIND_BOOLEAN:
    case AVROGEN_KIND_INT:
    case AVROGEN_KIND_LONG:
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
    case AVROGEN_KIND_ENUM:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return AVROGEN_OK;
    case AVROGEN_KIND_BYTES:
        v->bytes.ptr = empty_bytes;
        return AVROGEN_OK;
    case AVROGEN_KIND_STRING:
        v->str.ptr = (const char *)empty_bytes;
        return AVROGEN_OK;
    case AVROGEN_KIND_FIXED: {
        uint8_t *p = avrogen_arena_calloc(a, t->size, 1);
        if (p == NULL)
            return avrogen_value_arena_status(a, t->size);
        v->bytes.ptr = p;
        v->bytes.len = t->size;
        return AVROGEN_OK;
    }
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
        break;
    }
    if (depth >= avrogen_nesting_limit(AVROGEN_DEFAULT_MAX_DEPTH))
        return AVROGEN_E_LIMIT;
    avrogen_status st = AVROGEN_OK;
    if (t->kind == AVROGEN_KIND_UNION) {
        if (t->n_branches == 0)
            return AVROGEN_E_ARG; /* spec: a union has at least one branch */
        avrogen_value *b = alloc_values(a, 1, &st);
        if (b == NULL)
            return st;
        v->branch.index = 0;
        v->branch.value = b;
        return init_value(b, t->branches[0], a, depth + 1);
    }
    avrogen_value *f = alloc_values(a, t->n_fields, &st);
    if (f == NULL)
        return st;
    v->fields = f;
    for (size_t i = 0; i < t->n_fields; i++) {
        st = init_value(&f[i], t->fields[i].type, a, depth + 1);
        if (st != AVROGEN_OK)
            return st;
    }
    return AVROGEN_OK;
}

avrogen_status avrogen_value_init(avrogen_value *v, const avrogen_node *type, avrogen_arena *a)
{
    if (v == NULL || type == NULL || a == NULL)
        return AVROGEN_E_ARG;
    return init_value(v, type, a, 0);
}

avrogen_status avrogen_value_set_bool(avrogen_value *v, bool x)
{
    if (v->type->kind != AVROGEN_KIND_BOOLEAN)
        return AVROGEN_E_ARG;
    v->boolean = x;
    return AVROGEN_OK;
}

avrogen_status avrogen_value_set_long(avrogen_value *v, int64_t x)
{
    if (v->type->kind == AVROGEN_KIND_LONG) {
        v->i64 = x;
        return AVROGEN_OK;
    }
    if (v->type->kind == AVROGEN_KIND_INT && x >= INT32_MIN && x <= INT32_MAX) {
        v->i32 = (int32_t)x;
        return AVROGEN_OK;
    }
    return AVROGEN_E_ARG;
}

avrogen_status avrogen_value_set_double(avrogen_value *v, double x)
{
    if (v->type->kind == AVROGEN_KIND_DOUBLE) {
        v->f64 = x;
        return AVROGEN_OK;
    }
    /* Converting a finite double outside float's range is undefined behaviour. */
    if (v->type->kind == AVROGEN_KIND_FLOAT &&
        (isnan(x) || isinf(x) || (x >= -FLT_MAX && x <= FLT_MAX))) {
        v->f32 = (float)x;
        return AVROGEN_OK;
    }
    return AVROGEN_E_ARG;
}

avrogen_status avrogen_value_set_string(avrogen_value *v, const char *s, size_t len,
                                        avrogen_arena *a)
{
    if (v->type->kind != AVROGEN_KIND_STRING)
        return AVROGEN_E_ARG;
    if (!avrogen_utf8_valid((const uint8_t *)s, len))
        return AVROGEN_E_INVALID;
    char *p = avrogen_arena_strndup(a, s, len);
    if (p == NULL)
        return len == SIZE_MAX ? AVROGEN_E_LIMIT : avrogen_value_arena_status(a, len + 1);
    v->str.ptr = p;
    v->str.len = len;
    return AVROGEN_OK;
}

avrogen_status avrogen_value_set_bytes(avrogen_value *v, const void *data, size_t len,
                                       avrogen_arena *a)
{
    avrogen_kind k = v->type->kind;
    if (k != AVROGEN_KIND_BYTES && !(k == AVROGEN_KIND_FIXED && len == v->type->size))
        return AVROGEN_E_ARG;
    uint8_t *p = avrogen_arena_alloc(a, len);
    if (p == NULL)
        return avrogen_value_arena_status(a, len);
    if (len != 0)
        memcpy(p, data, len);
    v->bytes.ptr = p;
    v->bytes.len = len;
    return AVROGEN_OK;
}

avrogen_status avrogen_value_set_enum(avrogen_value *v, const char *symbol)
{
    if (v->type->kind != AVROGEN_KIND_ENUM || symbol == NULL)
        return AVROGEN_E_ARG;
    for (size_t i = 0; i < v->type->n_symbols; i++) {
        if (strcmp(v->type->symbols[i], symbol) == 0) {
            v->enum_index = i;
            return AVROGEN_OK;
        }
    }
    return AVROGEN_E_ARG;
}

const char *avrogen_value_enum_symbol(const avrogen_value *v)
{
    if (v->type->kind != AVROGEN_KIND_ENUM || v->enum_index >= v->type->n_symbols)
        return NULL;
    return v->type->symbols[v->enum_index];
}

avrogen_status avrogen_value_set_branch(avrogen_value *v, size_t index, avrogen_arena *a,
                                        avrogen_value **branch)
{
    if (v->type->kind != AVROGEN_KIND_UNION || index >= v->type->n_branches)
        return AVROGEN_E_ARG;
    avrogen_status st = AVROGEN_OK;
    avrogen_value *b = alloc_values(a, 1, &st);
    if (b == NULL)
        return st;
    st = init_value(b, v->type->branches[index], a, 1);
    if (st != AVROGEN_OK)
        return st;
    v->branch.index = index;
    v->branch.value = b;
    if (branch != NULL)
        *branch = b;
    return AVROGEN_OK;
}

avrogen_status avrogen_value_append(avrogen_value *v, avrogen_arena *a, avrogen_value **item)
{
    if (v->type->kind != AVROGEN_KIND_ARRAY)
        return AVROGEN_E_ARG;
    avrogen_value_array *arr = &v->array;
    avrogen_status st = AVROGEN_OK;
    if (arr->count == arr->cap) {
        if (arr->count == SIZE_MAX)
            return AVROGEN_E_LIMIT;
        size_t cap = grow_cap(arr->cap, arr->count + 1);
        avrogen_value *items = alloc_values(a, cap, &st);
        if (items == NULL)
            return st;
        if (arr->count != 0)
            memcpy(items, arr->items, arr->count * sizeof *items);
        arr->items = items;
        arr->cap = cap;
    }
    avrogen_value *it = &arr->items[arr->count];
    st = init_value(it, v->type->items, a, 1);
    if (st != AVROGEN_OK)
        return st;
    arr->count++;
    if (item != NULL)
        *item = it;
    return AVROGEN_OK;
}

avrogen_status avrogen_value_map_put(avrogen_value *v, const char *key, size_t len,
                                     avrogen_arena *a, avrogen_value **value)
{
    if (v->type->kind != AVROGEN_KIND_MAP)
        return AVROGEN_E_ARG;
    avrogen_value *found = avrogen_value_map_get(v, key, len);
    if (found != NULL) {
        if (value != NULL)
            *value = found;
        return AVROGEN_OK;
    }
    if (!avrogen_utf8_valid((const uint8_t *)key, len))
        return AVROGEN_E_INVALID;
    avrogen_value_map *m = &v->map;
    avrogen_status st = AVROGEN_OK;
    if (m->count == m->cap) {
        if (m->count == SIZE_MAX)
            return AVROGEN_E_LIMIT;
        size_t cap = grow_cap(m->cap, m->count + 1);
        avrogen_map_entry *entries = alloc_entries(a, cap, &st);
        if (entries == NULL)
            return st;
        if (m->count != 0)
            memcpy(entries, m->entries, m->count * sizeof *entries);
        m->entries = entries;
        m->cap = cap;
    }
    avrogen_map_entry *e = &m->entries[m->count];
    char *k = avrogen_arena_strndup(a, key, len);
    if (k == NULL)
        return len == SIZE_MAX ? AVROGEN_E_LIMIT : avrogen_value_arena_status(a, len + 1);
    e->key.ptr = k;
    e->key.len = len;
    st = init_value(&e->value, v->type->items, a, 1);
    if (st != AVROGEN_OK)
        return st;
    m->count++;
    if (value != NULL)
        *value = &e->value;
    return AVROGEN_OK;
}

/* ---- lookup and equality --------------------------------------------------- */

avrogen_value *avrogen_value_field(const avrogen_value *v, const char *name)
{
    if (v->type->kind != AVROGEN_KIND_RECORD || name == NULL)
        return NULL;
    for (size_t i = 0; i < v->type->n_fields; i++)
        if (strcmp(v->type->fields[i].name, name) == 0)
            return &v->fields[i];
    return NULL;
}

static bool str_eq(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

avrogen_value *avrogen_value_map_get(const avrogen_value *v, const char *key, size_t len)
{
    if (v->type->kind != AVROGEN_KIND_MAP)
        return NULL;
    for (size_t i = v->map.count; i-- > 0;) {
        avrogen_map_entry *e = &v->map.entries[i];
        if (str_eq(e->key.ptr, e->key.len, key, len))
            return &e->value;
    }
    return NULL;
}

static bool names_eq(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Every key of x maps (last duplicate winning) to an equal value in y. */
static bool map_covers(const avrogen_value *x, const avrogen_value *y)
{
    for (size_t i = 0; i < x->map.count; i++) {
        const avrogen_map_entry *e = &x->map.entries[i];
        const avrogen_value *xv = avrogen_value_map_get(x, e->key.ptr, e->key.len);
        const avrogen_value *yv = avrogen_value_map_get(y, e->key.ptr, e->key.len);
        if (yv == NULL || !avrogen_value_equal(xv, yv))
            return false;
    }
    return true;
}

static bool map_equal(const avrogen_value *x, const avrogen_value *y)
{
    if (x->map.count != y->map.count)
        return false;
    /* Fast path: the same keys in the same order, no duplicates to worry about
     * because a key order match pairs each entry with its twin. */
    bool same_order = true;
    for (size_t i = 0; i < x->map.count && same_order; i++) {
        const avrogen_map_entry *a = &x->map.entries[i], *b = &y->map.entries[i];
        same_order = str_eq(a->key.ptr, a->key.len, b->key.ptr, b->key.len);
    }
    if (same_order) {
        for (size_t i = 0; i < x->map.count; i++)
            if (!avrogen_value_equal(&x->map.entries[i].value, &y->map.entries[i].value))
                return false;
        return true;
    }
    return map_covers(x, y) && map_covers(y, x);
}

bool avrogen_value_equal(const avrogen_value *x, const avrogen_value *y)
{
    const avrogen_node *t = x->type, *u = y->type;
    if (t->kind != u->kind)
        return false;
    if (t != u && avrogen_node_is_named(t) && !names_eq(t->fullname, u->fullname))
        return false;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return true;
    case AVROGEN_KIND_BOOLEAN:
        return x->boolean == y->boolean;
    case AVROGEN_KIND_INT:
        return x->i32 == y->i32;
    case AVROGEN_KIND_LONG:
        return x->i64 == y->i64;
    case AVROGEN_KIND_FLOAT:
        return memcmp(&x->f32, &y->f32, sizeof x->f32) == 0;
    case AVROGEN_KIND_DOUBLE:
        return memcmp(&x->f64, &y->f64, sizeof x->f64) == 0;
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_FIXED:
        return str_eq((const char *)x->bytes.ptr, x->bytes.len, (const char *)y->bytes.ptr,
                      y->bytes.len);
    case AVROGEN_KIND_STRING:
        return str_eq(x->str.ptr, x->str.len, y->str.ptr, y->str.len);
    case AVROGEN_KIND_ENUM: {
        const char *a = avrogen_value_enum_symbol(x), *b = avrogen_value_enum_symbol(y);
        return a != NULL && b != NULL && strcmp(a, b) == 0;
    }
    case AVROGEN_KIND_ARRAY:
        if (x->array.count != y->array.count)
            return false;
        for (size_t i = 0; i < x->array.count; i++)
            if (!avrogen_value_equal(&x->array.items[i], &y->array.items[i]))
                return false;
        return true;
    case AVROGEN_KIND_MAP:
        return map_equal(x, y);
    case AVROGEN_KIND_UNION:
        if (x->branch.value == NULL || y->branch.value == NULL)
            return x->branch.value == y->branch.value;
        return avrogen_value_equal(x->branch.value, y->branch.value);
    case AVROGEN_KIND_RECORD:
        if (t->n_fields != u->n_fields)
            return false;
        for (size_t i = 0; i < t->n_fields; i++) {
            if (strcmp(t->fields[i].name, u->fields[i].name) != 0 ||
                !avrogen_value_equal(&x->fields[i], &y->fields[i]))
                return false;
        }
        return true;
    }
    return false;
}

/* ---- encode ---------------------------------------------------------------- */

/*
 * Where the encoder is: one frame per record, array, map and union on the way
 * down, on the C stack. Nothing is formatted unless the encode fails, when the
 * frames spell the path of the value refused ("Order.lines[3].name").
 */
typedef struct eframe {
    const struct eframe *up;
    const avrogen_node *t;       /* the record, array, map or union */
    size_t index;                /* the field, item or entry */
    const avrogen_map_entry *at; /* a map's entry */
} eframe;

typedef struct encoder {
    avrogen_writer *w;
    unsigned levels; /* containers still allowed (avrogen_nesting_limit) */
} encoder;

/* Append frame f's segment (and its parents' before it) to buf. */
static size_t put_path(char *buf, size_t cap, size_t n, const eframe *f)
{
    if (f == NULL)
        return n;
    n = put_path(buf, cap, n, f->up);
    char seg[64];
    seg[0] = '\0';
    if (f->up == NULL && avrogen_node_is_named(f->t)) {
        snprintf(seg, sizeof seg, "%s", f->t->name);
        if (n + strlen(seg) < cap) {
            memcpy(buf + n, seg, strlen(seg) + 1);
            n += strlen(seg);
        }
        seg[0] = '\0';
    }
    switch (f->t->kind) {
    case AVROGEN_KIND_RECORD:
        if (f->index < f->t->n_fields)
            snprintf(seg, sizeof seg, ".%s", f->t->fields[f->index].name);
        break;
    case AVROGEN_KIND_ARRAY:
        snprintf(seg, sizeof seg, "[%zu]", f->index);
        break;
    case AVROGEN_KIND_MAP:
        if (f->at != NULL) {
            size_t m = f->at->key.len < 24 ? f->at->key.len : 24;
            snprintf(seg, sizeof seg, "[\"%.*s\"%s]", (int)m, f->at->key.ptr,
                     f->at->key.len > 24 ? "..." : "");
        }
        break;
    default:
        break;
    }
    size_t len = strlen(seg);
    if (n + len < cap) {
        memcpy(buf + n, seg, len + 1);
        n += len;
    }
    return n;
}

/* Fail the encode with status st and "PATH: reason". */
static void encode_fail(encoder *e, const eframe *f, avrogen_status st, const char *why)
{
    avrogen_writer *w = e->w;
    if (w->err != AVROGEN_OK)
        return;
    char path[AVROGEN_WRITER_MSG_CAP];
    path[0] = '\0';
    /* The path as far as it fits before the reason. */
    size_t n = put_path(path, sizeof path - strlen(why) - 3, 0, f);
    avrogen_writer_fail_msg(w, st, NULL);
    snprintf(w->err_text, sizeof w->err_text, "%s%s%s", path, n != 0 ? ": " : "", why);
    w->err_msg = w->err_text;
}

static void encode_value(encoder *e, const eframe *up, const avrogen_node *t,
                         const avrogen_value *v);

/* Encode the value v of container type t (a frame of its own). */
static void encode_container(encoder *e, const eframe *up, const avrogen_node *t,
                             const avrogen_value *v)
{
    avrogen_writer *w = e->w;
    eframe f = {up, t, 0, NULL};
    if (e->levels == 0) {
        encode_fail(e, up, AVROGEN_E_LIMIT,
                    "values nest deeper than the writer's max_depth allows");
        return;
    }
    if (t->recursive && w->depth >= w->max_depth) {
        encode_fail(e, up, AVROGEN_E_LIMIT, "records nest deeper than the writer's max_depth");
        return;
    }
    e->levels--;
    w->depth += t->recursive;
    switch (t->kind) {
    case AVROGEN_KIND_UNION:
        /* spec: a long branch position, then the value of that branch. */
        if (v->branch.index >= t->n_branches) {
            char why[96];
            snprintf(why, sizeof why,
                     "union branch index %zu out of range (the union has %zu branch%s)",
                     v->branch.index, t->n_branches, t->n_branches == 1 ? "" : "es");
            encode_fail(e, up, AVROGEN_E_ARG, why);
            break;
        }
        if (v->branch.value == NULL) {
            encode_fail(e, up, AVROGEN_E_ARG, "union without a branch value");
            break;
        }
        avrogen_write_long(w, (int64_t)v->branch.index);
        encode_value(e, up, t->branches[v->branch.index], v->branch.value);
        break;
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && w->err == AVROGEN_OK; i++) {
            f.index = i;
            encode_value(e, &f, t->fields[i].type, &v->fields[i]);
        }
        break;
    case AVROGEN_KIND_ARRAY:
        if (v->array.count != 0) {
            avrogen_write_block_count(w, v->array.count);
            for (size_t i = 0; i < v->array.count && w->err == AVROGEN_OK; i++) {
                f.index = i;
                encode_value(e, &f, t->items, &v->array.items[i]);
            }
        }
        avrogen_write_block_count(w, 0);
        break;
    default: /* map */
        if (v->map.count != 0) {
            avrogen_write_block_count(w, v->map.count);
            for (size_t i = 0; i < v->map.count && w->err == AVROGEN_OK; i++) {
                f.at = &v->map.entries[i];
                avrogen_write_string(w, f.at->key.ptr, f.at->key.len);
                encode_value(e, &f, t->items, &f.at->value);
            }
        }
        avrogen_write_block_count(w, 0);
        break;
    }
    w->depth -= t->recursive;
    e->levels++;
}

static void encode_value(encoder *e, const eframe *up, const avrogen_node *t,
                         const avrogen_value *v)
{
    avrogen_writer *w = e->w;
    if (v->type != t) {
        encode_fail(e, up, AVROGEN_E_ARG, "a value of another type than the schema's");
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return;
    case AVROGEN_KIND_BOOLEAN:
        avrogen_write_bool(w, v->boolean);
        return;
    case AVROGEN_KIND_INT:
        avrogen_write_int(w, v->i32);
        return;
    case AVROGEN_KIND_LONG:
        avrogen_write_long(w, v->i64);
        return;
    case AVROGEN_KIND_FLOAT:
        avrogen_write_float(w, v->f32);
        return;
    case AVROGEN_KIND_DOUBLE:
        avrogen_write_double(w, v->f64);
        return;
    case AVROGEN_KIND_BYTES:
        avrogen_write_bytes(w, v->bytes.ptr, v->bytes.len);
        return;
    case AVROGEN_KIND_STRING:
        avrogen_write_string(w, v->str.ptr, v->str.len);
        return;
    case AVROGEN_KIND_FIXED:
        if (v->bytes.len != t->size) {
            encode_fail(e, up, AVROGEN_E_ARG, "a fixed value of another size than the schema's");
            return;
        }
        avrogen_write_raw(w, v->bytes.ptr, v->bytes.len);
        return;
    case AVROGEN_KIND_ENUM:
        /* spec: an enum is encoded by an int, the zero-based position of its symbol. */
        if (v->enum_index >= t->n_symbols) {
            char why[96];
            snprintf(why, sizeof why, "enum index %zu out of range (the enum has %zu symbol%s)",
                     v->enum_index, t->n_symbols, t->n_symbols == 1 ? "" : "s");
            encode_fail(e, up, AVROGEN_E_ARG, why);
            return;
        }
        avrogen_write_int(w, (int32_t)v->enum_index);
        return;
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        encode_container(e, up, t, v);
        return;
    }
    encode_fail(e, up, AVROGEN_E_ARG, "a value of no known kind");
}

avrogen_status avrogen_value_encode(avrogen_writer *w, const avrogen_value *v)
{
    encoder e = {w, avrogen_nesting_limit(w->max_depth)};
    if (w->err == AVROGEN_OK)
        encode_value(&e, NULL, v->type, v);
    return w->err;
}

/* SIZE_MAX past the nesting guard (a value built by hand may even be cyclic). */
static size_t value_size(const avrogen_value *v, unsigned levels)
{
    const avrogen_node *t = v->type;
    size_t n = 0;
    if (levels > avrogen_nesting_limit(AVROGEN_DEFAULT_MAX_DEPTH))
        return SIZE_MAX;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return 0;
    case AVROGEN_KIND_BOOLEAN:
        return 1;
    case AVROGEN_KIND_INT:
        return avrogen_size_long(v->i32);
    case AVROGEN_KIND_LONG:
        return avrogen_size_long(v->i64);
    case AVROGEN_KIND_FLOAT:
        return 4;
    case AVROGEN_KIND_DOUBLE:
        return 8;
    case AVROGEN_KIND_BYTES:
        return avrogen_size_bytes(v->bytes.len);
    case AVROGEN_KIND_STRING:
        return avrogen_size_bytes(v->str.len);
    case AVROGEN_KIND_FIXED:
        return v->bytes.len;
    case AVROGEN_KIND_ENUM:
        return avrogen_size_long((int64_t)v->enum_index);
    case AVROGEN_KIND_UNION:
        return avrogen_size_sum(avrogen_size_long((int64_t)v->branch.index),
                                v->branch.value != NULL ? value_size(v->branch.value, levels + 1)
                                                        : 0);
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && n != SIZE_MAX; i++)
            n = avrogen_size_sum(n, value_size(&v->fields[i], levels + 1));
        return n;
    case AVROGEN_KIND_ARRAY:
        if (v->array.count != 0) {
            n = avrogen_size_long((int64_t)v->array.count);
            for (size_t i = 0; i < v->array.count && n != SIZE_MAX; i++)
                n = avrogen_size_sum(n, value_size(&v->array.items[i], levels + 1));
        }
        return avrogen_size_sum(n, 1);
    case AVROGEN_KIND_MAP:
        if (v->map.count != 0) {
            n = avrogen_size_long((int64_t)v->map.count);
            for (size_t i = 0; i < v->map.count && n != SIZE_MAX; i++) {
                n = avrogen_size_sum(n, avrogen_size_bytes(v->map.entries[i].key.len));
                n = avrogen_size_sum(n, value_size(&v->map.entries[i].value, levels + 1));
            }
        }
        return avrogen_size_sum(n, 1);
    }
    return 0;
}

size_t avrogen_value_size(const avrogen_value *v)
{
    return value_size(v, 0);
}

/* ---- decode ---------------------------------------------------------------- */

typedef struct decoder {
    avrogen_reader *r;
    avrogen_arena *a;
    unsigned levels; /* containers still allowed (avrogen_nesting_limit) */
    bool zerocopy;
} decoder;

static void fail_alloc(decoder *d, avrogen_status st)
{
    avrogen_reader_fail(d->r, st,
                        st == AVROGEN_E_LIMIT ? "arena budget exhausted" : "out of memory");
}

/* The bytes of a string, bytes or fixed value: a view, or a NUL-terminated copy. */
static const uint8_t *take_bytes(decoder *d, size_t n)
{
    const uint8_t *src = d->r->p;
    d->r->p += n;
    if (d->zerocopy)
        return src;
    if (n == 0)
        return empty_bytes; /* already NUL-terminated; saves an allocation */
    char *copy = avrogen_arena_strndup(d->a, (const char *)src, n);
    if (copy == NULL) {
        fail_alloc(d, n == SIZE_MAX ? AVROGEN_E_LIMIT : avrogen_value_arena_status(d->a, n + 1));
        return empty_bytes;
    }
    return (const uint8_t *)copy;
}

static avrogen_str read_str(decoder *d)
{
    avrogen_str s = {(const char *)empty_bytes, 0};
    avrogen_reader *r = d->r;
    size_t n = avrogen_read_len(r);
    if (r->err != AVROGEN_OK)
        return s;
    if (r->check_utf8 && !avrogen_utf8_valid(r->p, n)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
        return s;
    }
    s.ptr = (const char *)take_bytes(d, n);
    s.len = r->err == AVROGEN_OK ? n : 0;
    return s;
}

/*
 * The count of the next block of an array or map, 0 at the end or on error.
 * spec §Arrays: a negative count is followed by the block's size in bytes and
 * its absolute value is the count; *size receives that size (checked against
 * the input), or SIZE_MAX for a block written without one. Every item is charged
 * to the per-datum budget, which is what bounds blocks of zero-byte items. This
 * is avrogen_read_block keeping the size, which decode checks and skip
 * uses to jump.
 */
static size_t read_block(avrogen_reader *r, size_t *size)
{
    *size = SIZE_MAX;
    int64_t n = avrogen_read_long(r);
    if (r->err != AVROGEN_OK || n == 0)
        return 0;
    if (n < 0) {
        if (n == INT64_MIN) {
            avrogen_reader_fail(r, AVROGEN_E_OVERFLOW, "block count out of range");
            return 0;
        }
        n = -n;
        int64_t bytes = avrogen_read_long(r);
        if (r->err != AVROGEN_OK)
            return 0;
        if (bytes < 0) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "negative block size");
            return 0;
        }
        if ((uint64_t)bytes > avrogen_reader_remaining(r)) {
            avrogen_reader_fail(r, AVROGEN_E_TRUNCATED,
                                "block size runs past the end of the input");
            return 0;
        }
        *size = (size_t)bytes;
    }
    if ((uint64_t)n > r->items_left) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT, "block count exceeds the reader's item budget");
        return 0;
    }
    r->items_left -= (size_t)n;
    return (size_t)n;
}

/* After reading a block that declared its byte size, the items must fill it exactly. */
static bool block_size_matches(avrogen_reader *r, const uint8_t *start, size_t size)
{
    if (r->err != AVROGEN_OK)
        return false;
    if (size == SIZE_MAX || (size_t)(r->p - start) == size)
        return true;
    avrogen_reader_fail(r, AVROGEN_E_INVALID, "block size does not match its items");
    return false;
}

/*
 * A block of n items about to be read: reject a count the input cannot hold when
 * each item needs at least one byte, before allocating anything for it.
 */
static bool block_fits(avrogen_reader *r, size_t n, bool zero_size_items)
{
    if (zero_size_items || n <= avrogen_reader_remaining(r))
        return true;
    avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "block count runs past the end of the input");
    return false;
}

/*
 * Room for `need` slots of `elem` bytes, growing the slot array. Doubling keeps
 * many small blocks linear, but never past what the rest of the datum can still
 * hold: one more item per remaining input byte, or for zero-byte items one per
 * item left in the budget. Within that bound later blocks fit without growing
 * again, and a hostile count cannot make the doubling overshoot.
 */
static bool ensure_slots(decoder *d, void **slots, size_t *cap, size_t count, size_t need,
                         size_t elem, bool zero_size_items)
{
    if (need <= *cap)
        return true;
    size_t more = zero_size_items ? d->r->items_left : avrogen_reader_remaining(d->r);
    size_t want = grow_cap(*cap, need);
    size_t limit;
    if (avrogen_size_add(need, more, &limit) && want > limit)
        want = limit;
    size_t bytes;
    if (!avrogen_size_mul(want, elem, &bytes)) {
        fail_alloc(d, AVROGEN_E_LIMIT);
        return false;
    }
    void *p = avrogen_arena_alloc(d->a, bytes);
    if (p == NULL) {
        fail_alloc(d, avrogen_value_arena_status(d->a, bytes));
        return false;
    }
    if (count != 0)
        memcpy(p, *slots, count * elem);
    *slots = p;
    *cap = want;
    return true;
}

static void read_value(decoder *d, const avrogen_node *t, avrogen_value *out);

static void read_array(decoder *d, const avrogen_node *t, avrogen_value *out)
{
    avrogen_reader *r = d->r;
    bool zero = t->items->min_size == 0;
    avrogen_value_array *arr = &out->array;
    void *slots = NULL;
    for (;;) {
        /* spec §Arrays: blocks of items, a count of 0 ends the array. */
        size_t size;
        size_t n = read_block(r, &size);
        if (n == 0 || !block_fits(r, n, zero))
            break;
        const uint8_t *start = r->p;
        size_t need;
        if (!avrogen_size_add(arr->count, n, &need)) {
            avrogen_reader_fail(r, AVROGEN_E_LIMIT, "too many items");
            break;
        }
        slots = arr->items;
        if (!ensure_slots(d, &slots, &arr->cap, arr->count, need, sizeof(avrogen_value), zero))
            break;
        arr->items = slots;
        for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++)
            read_value(d, t->items, &arr->items[arr->count++]);
        if (!block_size_matches(r, start, size))
            break;
    }
}

static void read_map(decoder *d, const avrogen_node *t, avrogen_value *out)
{
    avrogen_reader *r = d->r;
    avrogen_value_map *m = &out->map;
    void *slots = NULL;
    for (;;) {
        /* spec §Maps: blocks of (string key, value) pairs, a count of 0 ends the map.
         * Every key takes at least its length byte. */
        size_t size;
        size_t n = read_block(r, &size);
        if (n == 0 || !block_fits(r, n, false))
            break;
        const uint8_t *start = r->p;
        size_t need;
        if (!avrogen_size_add(m->count, n, &need)) {
            avrogen_reader_fail(r, AVROGEN_E_LIMIT, "too many entries");
            break;
        }
        slots = m->entries;
        if (!ensure_slots(d, &slots, &m->cap, m->count, need, sizeof(avrogen_map_entry), false))
            break;
        m->entries = slots;
        for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++) {
            avrogen_map_entry *e = &m->entries[m->count++];
            e->key = read_str(d);
            if (r->err == AVROGEN_OK)
                read_value(d, t->items, &e->value);
        }
        if (!block_size_matches(r, start, size))
            break;
    }
}

static void read_value(decoder *d, const avrogen_node *t, avrogen_value *out)
{
    avrogen_reader *r = d->r;
    out->type = t;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return;
    case AVROGEN_KIND_BOOLEAN:
        out->boolean = avrogen_read_bool(r);
        return;
    case AVROGEN_KIND_INT:
        out->i32 = avrogen_read_int(r);
        return;
    case AVROGEN_KIND_LONG:
        out->i64 = avrogen_read_long(r);
        return;
    case AVROGEN_KIND_FLOAT:
        out->f32 = avrogen_read_float(r);
        return;
    case AVROGEN_KIND_DOUBLE:
        out->f64 = avrogen_read_double(r);
        return;
    case AVROGEN_KIND_BYTES: {
        size_t n = avrogen_read_len(r);
        out->bytes.ptr = r->err == AVROGEN_OK ? take_bytes(d, n) : empty_bytes;
        out->bytes.len = r->err == AVROGEN_OK ? n : 0;
        return;
    }
    case AVROGEN_KIND_STRING:
        out->str = read_str(d);
        return;
    case AVROGEN_KIND_FIXED:
        out->bytes.ptr = empty_bytes;
        out->bytes.len = 0;
        if (avrogen_reader_remaining(r) < t->size) {
            avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a fixed value");
            return;
        }
        out->bytes.ptr = take_bytes(d, t->size);
        out->bytes.len = r->err == AVROGEN_OK ? t->size : 0;
        return;
    case AVROGEN_KIND_ENUM: {
        int32_t i = avrogen_read_int(r);
        out->enum_index = 0;
        if (r->err == AVROGEN_OK && (i < 0 || (uint64_t)i >= t->n_symbols))
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
        else
            out->enum_index = (size_t)i;
        return;
    }
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        break;
    }
    memset(&out->array, 0, sizeof out->array); /* the largest member: clears them all */
    if (!avrogen_read_enter(r, &d->levels, t->recursive))
        return;
    avrogen_status st = AVROGEN_OK;
    switch (t->kind) {
    case AVROGEN_KIND_UNION: {
        int64_t i = avrogen_read_int(r); /* spec: "an int value indicating" the branch */
        if (r->err != AVROGEN_OK)
            break;
        if (i < 0 || (uint64_t)i >= t->n_branches) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "union index out of range");
            break;
        }
        avrogen_value *b = alloc_values(d->a, 1, &st);
        if (b == NULL) {
            fail_alloc(d, st);
            break;
        }
        out->branch.index = (size_t)i;
        out->branch.value = b;
        read_value(d, t->branches[i], b);
        break;
    }
    case AVROGEN_KIND_RECORD: {
        /* A record that takes no bytes costs an item: nothing else bounds how
         * many a shared subtree holds (a T with two fields of type T', ...). */
        if (t->min_size == 0 && !avrogen_reader_charge(r, 1))
            break;
        avrogen_value *f = alloc_values(d->a, t->n_fields, &st);
        if (f == NULL) {
            fail_alloc(d, st);
            break;
        }
        out->fields = f;
        for (size_t i = 0; i < t->n_fields && r->err == AVROGEN_OK; i++)
            read_value(d, t->fields[i].type, &f[i]);
        break;
    }
    case AVROGEN_KIND_ARRAY:
        read_array(d, t, out);
        break;
    case AVROGEN_KIND_MAP:
        read_map(d, t, out);
        break;
    default:
        break;
    }
    avrogen_read_leave(r, &d->levels, t->recursive);
}

avrogen_status avrogen_value_read_inner(avrogen_reader *r, const avrogen_node *type,
                                        avrogen_value *out, avrogen_arena *a, unsigned flags)
{
    if (r->err != AVROGEN_OK)
        return r->err;
    decoder d = {r, a, avrogen_nesting_limit(r->max_depth), (flags & AVROGEN_VALUE_ZEROCOPY) != 0};
    read_value(&d, type, out);
    return r->err;
}

avrogen_status avrogen_value_read(avrogen_reader *r, const avrogen_node *type, avrogen_value *out,
                                  avrogen_arena *a, unsigned flags)
{
    const uint8_t *start = r->p;
    if (r->err == AVROGEN_OK && avrogen_value_read_inner(r, type, out, a, flags) != AVROGEN_OK)
        avrogen_value_explain(r, type, start, true); /* which member */
    return r->err;
}

avrogen_status avrogen_value_decode(avrogen_reader *r, const avrogen_node *type, avrogen_value *out,
                                    avrogen_arena *a)
{
    avrogen_reader_begin_datum(r);
    return avrogen_value_read(r, type, out, a, 0);
}

/* ---- skip ------------------------------------------------------------------ */

static void skip_value(avrogen_reader *r, unsigned *levels, const avrogen_node *t);

static void skip_bytes(avrogen_reader *r, size_t n)
{
    if (avrogen_reader_remaining(r) < n) {
        avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a value");
        return;
    }
    r->p += n;
}

/*
 * Arrays and maps. A block that declares its byte size is jumped over whole; its
 * items are charged to the budget all the same, so skip stops wherever decode would.
 */
static void skip_blocks(avrogen_reader *r, unsigned *levels, const avrogen_node *t, bool is_map)
{
    bool zero = !is_map && t->items->min_size == 0;
    while (r->err == AVROGEN_OK) {
        size_t size;
        size_t n = read_block(r, &size);
        if (n == 0)
            return;
        /* Items that take no bytes are all alike: charged at once, as decode
         * would charge them one by one. */
        if (zero) {
            size_t cost;
            if (!avrogen_size_mul(n, t->items->zero_records, &cost))
                cost = SIZE_MAX;
            if (!avrogen_reader_charge(r, cost))
                return;
        }
        if (size != SIZE_MAX) {
            r->p += size;
            continue;
        }
        if (zero)
            continue;
        if (!block_fits(r, n, zero))
            return;
        for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++) {
            if (is_map)
                skip_bytes(r, avrogen_read_len(r));
            skip_value(r, levels, t->items);
        }
    }
}

static void skip_value(avrogen_reader *r, unsigned *levels, const avrogen_node *t)
{
    if (r->err != AVROGEN_OK)
        return;
    /* A value that takes no bytes has nothing to skip or check: charge its
     * records, as decode charges them, in one step instead of a walk that a
     * shared subtree makes exponential. */
    if (t->min_size == 0) {
        (void)avrogen_reader_charge(r, t->zero_records);
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return;
    case AVROGEN_KIND_BOOLEAN:
        (void)avrogen_read_bool(r);
        return;
    case AVROGEN_KIND_INT:
        (void)avrogen_read_int(r);
        return;
    case AVROGEN_KIND_LONG:
        (void)avrogen_read_long(r);
        return;
    case AVROGEN_KIND_FLOAT:
        skip_bytes(r, 4);
        return;
    case AVROGEN_KIND_DOUBLE:
        skip_bytes(r, 8);
        return;
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_STRING:
        skip_bytes(r, avrogen_read_len(r));
        return;
    case AVROGEN_KIND_FIXED:
        skip_bytes(r, t->size);
        return;
    case AVROGEN_KIND_ENUM: {
        int32_t i = avrogen_read_int(r);
        if (r->err == AVROGEN_OK && (i < 0 || (uint64_t)i >= t->n_symbols))
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
        return;
    }
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        break;
    }
    if (!avrogen_read_enter(r, levels, t->recursive))
        return;
    switch (t->kind) {
    case AVROGEN_KIND_UNION: {
        int64_t i = avrogen_read_int(r); /* spec: "an int value indicating" the branch */
        if (r->err != AVROGEN_OK)
            break;
        if (i < 0 || (uint64_t)i >= t->n_branches)
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "union index out of range");
        else
            skip_value(r, levels, t->branches[i]);
        break;
    }
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && r->err == AVROGEN_OK; i++)
            skip_value(r, levels, t->fields[i].type);
        break;
    case AVROGEN_KIND_ARRAY:
        skip_blocks(r, levels, t, false);
        break;
    case AVROGEN_KIND_MAP:
        skip_blocks(r, levels, t, true);
        break;
    default:
        break;
    }
    avrogen_read_leave(r, levels, t->recursive);
}

avrogen_status avrogen_skip_inner(avrogen_reader *r, const avrogen_node *type)
{
    unsigned levels = avrogen_nesting_limit(r->max_depth);
    skip_value(r, &levels, type);
    return r->err;
}

avrogen_status avrogen_skip(avrogen_reader *r, const avrogen_node *type)
{
    const uint8_t *start = r->p;
    if (r->err == AVROGEN_OK && avrogen_skip_inner(r, type) != AVROGEN_OK)
        avrogen_value_explain(r, type, start, false); /* which member */
    return r->err;
}

/* ---- for json.c's reading straight to JSON text ----------------------------- */

size_t avrogen_value_block(avrogen_reader *r, size_t *size)
{
    return read_block(r, size);
}

bool avrogen_value_block_fits(avrogen_reader *r, size_t n, bool zero_size_items)
{
    return block_fits(r, n, zero_size_items);
}

bool avrogen_value_block_done(avrogen_reader *r, const uint8_t *start, size_t size)
{
    return block_size_matches(r, start, size);
}
