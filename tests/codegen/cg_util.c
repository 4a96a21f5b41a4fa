/* SPDX-License-Identifier: Apache-2.0 */
/* Descriptor-driven helpers of the generated-code tests (cg_util.h). */
#include "cg_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers ---------------------------------------------------------- */

uint64_t cg_next(cg_rng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * UINT64_C(0x2545F4914F6CDD1D);
}

uint64_t cg_below(cg_rng *g, uint64_t n)
{
    return cg_next(g) % n;
}

/* ---- raw access to a location ---------------------------------------------- */

static size_t scalar_size(avrogen_scalar s)
{
    switch (s) {
    case AVROGEN_SCALAR_BOOL:
        return sizeof(bool);
    case AVROGEN_SCALAR_I8:
    case AVROGEN_SCALAR_U8:
        return 1;
    case AVROGEN_SCALAR_I16:
    case AVROGEN_SCALAR_U16:
        return 2;
    case AVROGEN_SCALAR_I32:
    case AVROGEN_SCALAR_U32:
    case AVROGEN_SCALAR_FLOAT:
        return 4;
    default:
        return 8;
    }
}

/* An integer of type s at p, widened (a uint64_t keeps its bits). */
static int64_t load_int(const void *p, avrogen_scalar s)
{
    switch (s) {
    case AVROGEN_SCALAR_BOOL: {
        bool b;
        memcpy(&b, p, sizeof b);
        return b;
    }
    case AVROGEN_SCALAR_I8: {
        int8_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case AVROGEN_SCALAR_U8: {
        uint8_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case AVROGEN_SCALAR_I16: {
        int16_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case AVROGEN_SCALAR_U16: {
        uint16_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case AVROGEN_SCALAR_I32: {
        int32_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case AVROGEN_SCALAR_U32: {
        uint32_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    default: {
        int64_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    }
}

static void store_int(void *p, avrogen_scalar s, int64_t v)
{
    switch (s) {
    case AVROGEN_SCALAR_BOOL: {
        bool b = v != 0;
        memcpy(p, &b, sizeof b);
        break;
    }
    case AVROGEN_SCALAR_I8:
    case AVROGEN_SCALAR_U8: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case AVROGEN_SCALAR_I16:
    case AVROGEN_SCALAR_U16: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case AVROGEN_SCALAR_I32:
    case AVROGEN_SCALAR_U32: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    default:
        memcpy(p, &v, sizeof v);
        break;
    }
}

/* The values bit-field d holds. */
static void bitfield_range(const avrogen_field_desc *d, int64_t *lo, int64_t *hi)
{
    if (d->scalar == AVROGEN_SCALAR_BOOL) {
        *lo = 0, *hi = 1;
    } else if (d->scalar >= AVROGEN_SCALAR_U8 && d->scalar <= AVROGEN_SCALAR_U64) {
        *lo = 0;
        *hi = (int64_t)((UINT64_C(1) << d->len) - 1);
    } else {
        *hi = (int64_t)((UINT64_C(1) << (d->len - 1)) - 1);
        *lo = -*hi - 1;
    }
}

/* The tag value decode stores for branch i (its first AVRO_TAG value, or i). */
static int64_t branch_tag(const avrogen_field_desc *branch, size_t i)
{
    const avrogen_field_ext *x = branch->ext;
    return x != NULL && x->tags != NULL ? x->tags[0] : (int64_t)i;
}

/* The branch of tagged union d that tag selects, or d->n_items for none. */
static size_t tag_branch(const avrogen_field_desc *d, int64_t tag)
{
    for (size_t i = 0; i < d->n_items; i++) {
        const avrogen_field_ext *x = d->items[i].ext;
        if (x == NULL || x->tags == NULL) {
            if (tag == (int64_t)i)
                return i;
            continue;
        }
        for (size_t k = 0; k < x->n_tags; k++)
            if (x->tags[k] == tag)
                return i;
    }
    return d->n_items;
}

static void *load_ptr(const void *p)
{
    void *q;
    memcpy(&q, p, sizeof q);
    return q;
}

static void store_ptr(void *p, const void *q)
{
    memcpy(p, &q, sizeof q);
}

static const char *at(const void *base, size_t offset)
{
    return (const char *)base + offset;
}

static size_t count_of(const avrogen_field_desc *d, const void *base)
{
    int64_t n = load_int(at(base, d->aux_offset), d->aux_scalar);
    return n > 0 ? (size_t)n : 0;
}

/* The largest count the count member of d holds. */
static uint64_t count_max(const avrogen_field_desc *d)
{
    switch (d->aux_scalar) {
    case AVROGEN_SCALAR_I8:
        return INT8_MAX;
    case AVROGEN_SCALAR_U8:
        return UINT8_MAX;
    case AVROGEN_SCALAR_I16:
        return INT16_MAX;
    case AVROGEN_SCALAR_U16:
        return UINT16_MAX;
    case AVROGEN_SCALAR_I32:
        return INT32_MAX;
    default:
        return UINT32_MAX;
    }
}

/* ---- random data --------------------------------------------------------------- */

static void *zalloc(avrogen_arena *a, size_t n)
{
    void *p = avrogen_arena_calloc(a, n != 0 ? n : 1, 1);
    if (p == NULL) {
        fprintf(stderr, "cg_fill: out of memory\n");
        abort();
    }
    return p;
}

/* Values that sit on varint and range boundaries, then anything. */
static int64_t interesting(cg_rng *g, int64_t min, uint64_t span)
{
    static const int64_t edges[] = {
            0,         1,         -1,        63,        -64,       64,          -65,    127,
            128,       255,       256,       8191,      -8192,     32767,       -32768, 65535,
            INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 1LL << 35, -(1LL << 49)};
    uint64_t pick = cg_below(g, 3);
    if (pick == 0) {
        int64_t v = edges[cg_below(g, sizeof edges / sizeof *edges)];
        if (span == UINT64_MAX || ((uint64_t)v - (uint64_t)min) <= span)
            return v;
    }
    uint64_t r = cg_next(g);
    if (pick == 1)
        r >>= cg_below(g, 64); /* small magnitudes */
    if (span != UINT64_MAX)
        r %= span + 1;
    return (int64_t)((uint64_t)min + r);
}

static int64_t random_int(cg_rng *g, avrogen_scalar s)
{
    switch (s) {
    case AVROGEN_SCALAR_BOOL:
        return (int64_t)cg_below(g, 2);
    case AVROGEN_SCALAR_I8:
        return interesting(g, INT8_MIN, UINT8_MAX);
    case AVROGEN_SCALAR_U8:
        return interesting(g, 0, UINT8_MAX);
    case AVROGEN_SCALAR_I16:
        return interesting(g, INT16_MIN, UINT16_MAX);
    case AVROGEN_SCALAR_U16:
        return interesting(g, 0, UINT16_MAX);
    case AVROGEN_SCALAR_I32:
        return interesting(g, INT32_MIN, UINT32_MAX);
    case AVROGEN_SCALAR_U32:
        return interesting(g, 0, UINT32_MAX);
    default:
        return interesting(g, INT64_MIN, UINT64_MAX);
    }
}

static double random_double(cg_rng *g)
{
    static const double nice[] = {0.0,     -0.0, 1.5, -2.25, 1e300, -1e-300, 3.141592653589793,
                                  4.9e-324};
    uint64_t pick = cg_below(g, 4);
    if (pick == 0)
        return nice[cg_below(g, sizeof nice / sizeof *nice)];
    if (pick == 1)
        return (double)(int64_t)cg_next(g) / 1024.0;
    uint64_t bits = cg_next(g); /* any pattern: NaN payloads and infinities too */
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/*
 * Random UTF-8 without NUL, at most `max` bytes, into `dst` (which has room for
 * max + 1). `prefix` (may be NULL) starts it. Returns the length.
 */
static size_t random_text(cg_rng *g, char *dst, size_t max, const char *prefix)
{
    static const char *const pieces[] = {
            "a",    "Z",   "0", " ", "-", "~", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
            "\x7f", "\x01"};
    size_t len = 0;
    if (prefix != NULL) {
        len = strlen(prefix);
        memcpy(dst, prefix, len);
    }
    size_t want = cg_below(g, 4) == 0 ? 0 : cg_below(g, max + 1);
    while (len < want) {
        const char *p = pieces[cg_below(g, sizeof pieces / sizeof *pieces)];
        size_t n = strlen(p);
        if (len + n > max)
            break;
        memcpy(dst + len, p, n);
        len += n;
    }
    dst[len] = '\0';
    return len;
}

static void fill_record(cg_rng *g, const avrogen_type *t, void *v, avrogen_arena *a,
                        unsigned depth);

/* Units per second of an instant's long (its timestamp logical type). */
static int64_t time_units(const avrogen_field_desc *d)
{
    switch (d->logical) {
    case AVROGEN_LOGICAL_TIMESTAMP_MILLIS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS:
        return 1000;
    case AVROGEN_LOGICAL_TIMESTAMP_MICROS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS:
        return 1000000;
    default:
        return 1000000000;
    }
}

/* The instant at loc as its long; false when it does not fit (encode refuses it). */
static bool time_value(const avrogen_field_desc *d, const char *loc, int64_t *out)
{
    int64_t sec = load_int(loc + d->items[0].offset, d->items[0].scalar);
    int64_t frac = d->n_items == 2 ? load_int(loc + d->items[1].offset, d->items[1].scalar) : 0;
    return avrogen_time_to_units(sec, frac, d->n_items == 2 ? (int64_t)d->len : 1, time_units(d),
                                 out);
}

/* A random instant the unit holds exactly, normalised as decode leaves it. */
static void fill_time(cg_rng *g, const avrogen_field_desc *d, char *loc)
{
    int64_t units = time_units(d), per = d->n_items == 2 ? (int64_t)d->len : 1;
    int64_t limit = INT64_MAX / units - 1;
    if (d->items[0].scalar == AVROGEN_SCALAR_I32)
        limit = INT32_MAX;
    int64_t sec = (int64_t)(cg_next(g) % (uint64_t)limit);
    if (cg_below(g, 4) == 0)
        sec = (int64_t)cg_below(g, 2000000000); /* this century or so */
    if (cg_below(g, 2) == 0)
        sec = -sec;
    store_int(loc + d->items[0].offset, d->items[0].scalar, sec);
    if (d->n_items == 2) {
        int64_t frac = (int64_t)cg_below(g, (uint64_t)per);
        if (per > units)
            frac -= frac % (per / units); /* what the unit can say */
        store_int(loc + d->items[1].offset, d->items[1].scalar, frac);
    }
}

/* A string storage (CSTRING, CHAR_ARRAY, STR_VIEW) at loc; `prefix` for unique keys. */
static void fill_string(cg_rng *g, const avrogen_field_desc *d, char *loc, avrogen_arena *a,
                        const char *prefix)
{
    switch (d->storage) {
    case AVROGEN_STORAGE_CSTRING: {
        char *s = zalloc(a, 41);
        random_text(g, s, 40, prefix);
        store_ptr(loc, s);
        break;
    }
    case AVROGEN_STORAGE_CHAR_ARRAY:
        random_text(g, loc, d->len - 1, prefix);
        break;
    case AVROGEN_STORAGE_STR_VIEW: {
        char *s = zalloc(a, 41);
        avrogen_str view = {s, random_text(g, s, 40, prefix)};
        memcpy(loc, &view, sizeof view);
        break;
    }
    default:
        break;
    }
}

/* How many items to give an array or map at this depth. */
static size_t random_count(cg_rng *g, const avrogen_field_desc *d, unsigned depth)
{
    if (depth == 0)
        return 0;
    /* Now and then a long one, near the top only: recursive types multiply. */
    uint64_t n = cg_below(g, depth >= 4 && cg_below(g, 8) == 0 ? 40 : 6);
    uint64_t max = count_max(d);
    return (size_t)(n < max ? n : max);
}

static void fill_slot(cg_rng *g, const avrogen_field_desc *d, void *base, avrogen_arena *a,
                      unsigned depth, bool nonnull)
{
    char *loc = (char *)base + d->offset;
    switch (d->storage) {
    case AVROGEN_STORAGE_NONE:
        break;
    case AVROGEN_STORAGE_SCALAR:
        if (d->kind == AVROGEN_KIND_FLOAT) {
            float f = (float)random_double(g);
            if (cg_below(g, 4) == 0) {
                uint32_t bits = (uint32_t)cg_next(g);
                memcpy(&f, &bits, sizeof f);
            }
            memcpy(loc, &f, sizeof f);
        } else if (d->kind == AVROGEN_KIND_DOUBLE) {
            double x = random_double(g);
            memcpy(loc, &x, sizeof x);
        } else if (d->ext != NULL && (d->ext->flags & AVROGEN_EXT_U64_CHECKED)) {
            /* What a long holds; encode refuses the rest (test_codegen.c). */
            store_int(loc, d->scalar, interesting(g, 0, (uint64_t)INT64_MAX));
        } else {
            store_int(loc, d->scalar, random_int(g, d->scalar));
        }
        break;
    case AVROGEN_STORAGE_BITFIELD: {
        /* Any value of its width, the ends often. */
        int64_t lo, hi;
        bitfield_range(d, &lo, &hi);
        d->ext->set(loc, interesting(g, lo, (uint64_t)hi - (uint64_t)lo));
        break;
    }
    case AVROGEN_STORAGE_CSTRING:
    case AVROGEN_STORAGE_CHAR_ARRAY:
    case AVROGEN_STORAGE_STR_VIEW:
        fill_string(g, d, loc, a, NULL);
        break;
    case AVROGEN_STORAGE_BYTES_VIEW: {
        size_t n = cg_below(g, 24);
        uint8_t *p = zalloc(a, n);
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)cg_next(g);
        avrogen_bytes b = {p, n};
        memcpy(loc, &b, sizeof b);
        break;
    }
    case AVROGEN_STORAGE_PTR_COUNT: {
        if (d->kind == AVROGEN_KIND_STRING) {
            /* Text of a pointer and a length, not NUL-terminated. (A NUL byte is
             * text there too, but avro-c's strings end at one: test_shapes.c
             * has those.) */
            char buf[41];
            size_t n = random_text(g, buf, 40, NULL);
            if ((uint64_t)n > count_max(d))
                n = (size_t)count_max(d);
            char *p = zalloc(a, n);
            memcpy(p, buf, n);
            store_ptr(loc, n != 0 || nonnull || cg_below(g, 2) == 0 ? p : NULL);
            store_int((char *)base + d->aux_offset, d->aux_scalar, (int64_t)n);
            break;
        }
        size_t n =
                d->kind == AVROGEN_KIND_BYTES ? (size_t)cg_below(g, 24) : random_count(g, d, depth);
        if (d->kind == AVROGEN_KIND_BYTES && (uint64_t)n > count_max(d))
            n = (size_t)count_max(d);
        /* An empty array that is not null still needs a pointer. */
        char *items = (n != 0 || nonnull) ? zalloc(a, n * d->elem_size) : NULL;
        for (size_t i = 0; i < n; i++) {
            char *item = items + i * d->elem_size;
            if (d->kind == AVROGEN_KIND_BYTES) {
                *item = (char)cg_next(g);
            } else if (d->kind == AVROGEN_KIND_MAP) {
                char key_prefix[32];
                snprintf(key_prefix, sizeof key_prefix, "k%zu.", i);
                fill_string(g, &d->items[0], item + d->items[0].offset, a, key_prefix);
                fill_slot(g, &d->items[1], item, a, depth - 1, false);
            } else {
                fill_slot(g, &d->items[0], item, a, depth - 1, false);
            }
        }
        store_ptr(loc, items);
        store_int((char *)base + d->aux_offset, d->aux_scalar, (int64_t)n);
        break;
    }
    case AVROGEN_STORAGE_C_ARRAY:
        if (d->kind == AVROGEN_KIND_FIXED) {
            for (size_t i = 0; i < d->len; i++)
                loc[i] = (char)cg_next(g);
        } else {
            for (size_t i = 0; i < d->len; i++)
                fill_slot(g, &d->items[0], loc + i * d->elem_size, a, depth, false);
        }
        break;
    case AVROGEN_STORAGE_STRUCT:
        fill_record(g, d->type, loc, a, depth);
        break;
    case AVROGEN_STORAGE_ENUM:
        store_int(loc, d->scalar, d->type->values[cg_below(g, d->type->n_symbols)]);
        break;
    case AVROGEN_STORAGE_NULLABLE: {
        bool null = depth == 0 || cg_below(g, 3) == 0;
        const avrogen_field_desc *item = &d->items[0];
        if (d->null_via_ptr) {
            void *p = NULL;
            if (!null) {
                p = zalloc(a, item->size);
                fill_slot(g, item, p, a, depth - 1, false);
            }
            store_ptr(loc, p);
        } else if (!null) {
            fill_slot(g, item, base, a, depth - 1, true);
        } else if (item->storage == AVROGEN_STORAGE_PTR_COUNT) {
            store_ptr(loc, NULL);
            store_int((char *)base + item->aux_offset, item->aux_scalar, 0);
        } else {
            memset(loc, 0, item->size); /* NULL pointer, or a view with ptr NULL */
        }
        break;
    }
    case AVROGEN_STORAGE_TIME:
        fill_time(g, d, loc);
        break;
    case AVROGEN_STORAGE_CAP_ARRAY: {
        uint64_t max = count_max(d) < d->len ? count_max(d) : d->len;
        size_t n = (size_t)cg_below(g, max + 1);
        if (d->kind == AVROGEN_KIND_ARRAY && depth == 0)
            n = 0;
        if (d->kind == AVROGEN_KIND_STRING) {
            char *buf = zalloc(a, d->len + 1);
            n = random_text(g, buf, (size_t)max, NULL);
            memcpy(loc, buf, n);
        } else if (d->kind == AVROGEN_KIND_BYTES) {
            for (size_t i = 0; i < n; i++)
                loc[i] = (char)cg_next(g);
        } else {
            for (size_t i = 0; i < n; i++)
                fill_slot(g, &d->items[0], loc + i * d->elem_size, a, depth - 1, false);
        }
        store_int((char *)base + d->aux_offset, d->aux_scalar, (int64_t)n);
        break;
    }
    case AVROGEN_STORAGE_PADDED: {
        /* Any length up to all d->len bytes, the rest NUL, as decode leaves it. */
        char *buf = zalloc(a, d->len + 1);
        size_t n = random_text(g, buf, d->len, NULL);
        memset(loc, 0, d->len);
        memcpy(loc, buf, n);
        break;
    }
    case AVROGEN_STORAGE_RECORD_PTR: {
        void *p = zalloc(a, d->items[0].size);
        fill_slot(g, &d->items[0], p, a, depth > 0 ? depth - 1 : 0, false);
        store_ptr(loc, p);
        break;
    }
    case AVROGEN_STORAGE_TAGGED: {
        size_t i = (size_t)cg_below(g, d->n_items);
        /* At depth 0 a record through a pointer may close a cycle: take a branch that
         * does not, when there is one. */
        for (size_t k = 0;
             depth == 0 && k < d->n_items && d->items[i].storage == AVROGEN_STORAGE_RECORD_PTR; k++)
            i = (i + 1) % d->n_items;
        store_int((char *)base + d->aux_offset, d->aux_scalar, branch_tag(&d->items[i], i));
        fill_slot(g, &d->items[i], base, a, depth, false);
        break;
    }
    }
}

static void fill_record(cg_rng *g, const avrogen_type *t, void *v, avrogen_arena *a, unsigned depth)
{
    for (size_t i = 0; i < t->n_fields; i++)
        fill_slot(g, &t->fields[i], v, a, depth, false);
}

void cg_fill(cg_rng *g, const avrogen_type *t, void *v, avrogen_arena *a, unsigned depth)
{
    fill_record(g, t, v, a, depth);
}

/* ---- to a generic value --------------------------------------------------------- */

static bool slot_is_null(const avrogen_field_desc *d, const void *base)
{
    const char *loc = at(base, d->offset);
    if (d->null_via_ptr)
        return load_ptr(loc) == NULL;
    /* Every self-null storage starts with its pointer (char *, .ptr, T *). */
    return load_ptr(loc) == NULL;
}

/* A string storage at loc as a view. */
static avrogen_str string_at(const avrogen_field_desc *d, const char *loc)
{
    avrogen_str s = {NULL, 0};
    switch (d->storage) {
    case AVROGEN_STORAGE_CSTRING:
        s.ptr = load_ptr(loc);
        s.len = s.ptr != NULL ? strlen(s.ptr) : 0;
        break;
    case AVROGEN_STORAGE_CHAR_ARRAY: {
        const char *nul = memchr(loc, 0, d->len);
        s.ptr = loc;
        s.len = nul != NULL ? (size_t)(nul - loc) : d->len;
        break;
    }
    case AVROGEN_STORAGE_STR_VIEW:
        memcpy(&s, loc, sizeof s);
        break;
    case AVROGEN_STORAGE_PADDED: {
        const char *nul = memchr(loc, 0, d->len);
        s.ptr = loc;
        s.len = nul != NULL ? (size_t)(nul - loc) : d->len;
        break;
    }
    default:
        break;
    }
    return s;
}

/*
 * The decimal's unscaled value as big-endian two's complement in the fewest
 * bytes, worked out here from the top byte down (the generated code counts
 * magnitude bits instead): drop a leading byte while the next one carries the
 * same sign.
 */
static avrogen_bytes decimal_bytes(int64_t v, bool is_unsigned, avrogen_arena *a)
{
    uint8_t be[9];
    be[0] = is_unsigned || v >= 0 ? 0x00 : 0xff;
    for (int i = 0; i < 8; i++)
        be[1 + i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
    size_t first = 0;
    while (first < 8 && ((be[first] == 0x00 && be[first + 1] < 0x80) ||
                         (be[first] == 0xff && be[first + 1] >= 0x80)))
        first++;
    uint8_t *p = zalloc(a, 9 - first);
    memcpy(p, be + first, 9 - first);
    avrogen_bytes b = {p, 9 - first};
    return b;
}

static avrogen_status slot_value(const avrogen_node *node, const avrogen_field_desc *d,
                                 const void *base, avrogen_value *out, avrogen_arena *a);

static avrogen_status record_value(const avrogen_node *node, const avrogen_type *t, const void *v,
                                   avrogen_value *out, avrogen_arena *a)
{
    avrogen_status st = avrogen_value_init(out, node, a);
    if (st != AVROGEN_OK)
        return st;
    if (node->n_fields != t->n_fields)
        return AVROGEN_E_MISMATCH;
    for (size_t i = 0; i < t->n_fields && st == AVROGEN_OK; i++) {
        if (strcmp(node->fields[i].name, t->fields[i].name) != 0)
            return AVROGEN_E_MISMATCH;
        st = slot_value(node->fields[i].type, &t->fields[i], v, &out->fields[i], a);
    }
    return st;
}

static avrogen_status slot_value(const avrogen_node *node, const avrogen_field_desc *d,
                                 const void *base, avrogen_value *out, avrogen_arena *a)
{
    const char *loc = at(base, d->offset);
    avrogen_status st = avrogen_value_init(out, node, a);
    avrogen_value *branch, *item;
    if (st != AVROGEN_OK)
        return st;
    if (node->kind != d->kind)
        return AVROGEN_E_MISMATCH;
    switch (d->storage) {
    case AVROGEN_STORAGE_NONE:
        return AVROGEN_OK;
    case AVROGEN_STORAGE_BITFIELD:
        if (d->kind == AVROGEN_KIND_BOOLEAN)
            out->boolean = d->ext->get(loc) != 0;
        else if (d->kind == AVROGEN_KIND_INT)
            out->i32 = (int32_t)d->ext->get(loc);
        else
            out->i64 = d->ext->get(loc);
        return AVROGEN_OK;
    case AVROGEN_STORAGE_SCALAR:
        switch (d->kind) {
        case AVROGEN_KIND_BOOLEAN:
            out->boolean = load_int(loc, d->scalar) != 0;
            break;
        case AVROGEN_KIND_INT:
            out->i32 = (int32_t)load_int(loc, d->scalar);
            break;
        case AVROGEN_KIND_LONG:
            out->i64 = load_int(loc, d->scalar);
            break;
        case AVROGEN_KIND_FLOAT:
            memcpy(&out->f32, loc, sizeof out->f32);
            break;
        case AVROGEN_KIND_DOUBLE:
            memcpy(&out->f64, loc, sizeof out->f64);
            break;
        case AVROGEN_KIND_BYTES:
            out->bytes =
                    decimal_bytes(load_int(loc, d->scalar), d->scalar == AVROGEN_SCALAR_U64, a);
            break;
        default:
            return AVROGEN_E_MISMATCH;
        }
        return AVROGEN_OK;
    case AVROGEN_STORAGE_CSTRING:
    case AVROGEN_STORAGE_CHAR_ARRAY:
    case AVROGEN_STORAGE_STR_VIEW:
    case AVROGEN_STORAGE_PADDED:
        out->str = string_at(d, loc);
        return AVROGEN_OK;
    case AVROGEN_STORAGE_BYTES_VIEW:
        memcpy(&out->bytes, loc, sizeof out->bytes);
        return AVROGEN_OK;
    case AVROGEN_STORAGE_PTR_COUNT:
    case AVROGEN_STORAGE_C_ARRAY:
    case AVROGEN_STORAGE_CAP_ARRAY: {
        const char *items = d->storage == AVROGEN_STORAGE_PTR_COUNT ? load_ptr(loc) : loc;
        size_t n = d->storage == AVROGEN_STORAGE_C_ARRAY ? d->len : count_of(d, base);
        if (d->kind == AVROGEN_KIND_BYTES || d->kind == AVROGEN_KIND_FIXED) {
            out->bytes.ptr = (const uint8_t *)items;
            out->bytes.len = n;
            return AVROGEN_OK;
        }
        if (d->kind == AVROGEN_KIND_STRING) {
            out->str.ptr = items;
            out->str.len = n;
            return AVROGEN_OK;
        }
        for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
            const char *elem = items + i * d->elem_size;
            if (d->kind == AVROGEN_KIND_MAP) {
                avrogen_str key = string_at(&d->items[0], elem + d->items[0].offset);
                st = avrogen_value_map_put(out, key.ptr, key.len, a, &item);
                if (st == AVROGEN_OK)
                    st = slot_value(node->items, &d->items[1], elem, item, a);
            } else {
                st = avrogen_value_append(out, a, &item);
                if (st == AVROGEN_OK)
                    st = slot_value(node->items, &d->items[0], elem, item, a);
            }
        }
        return st;
    }
    case AVROGEN_STORAGE_STRUCT:
        return record_value(node, d->type, loc, out, a);
    case AVROGEN_STORAGE_RECORD_PTR:
        if (load_ptr(loc) == NULL)
            return AVROGEN_E_ARG;
        return record_value(node, d->type, load_ptr(loc), out, a);
    case AVROGEN_STORAGE_ENUM: {
        int64_t value = load_int(loc, d->scalar);
        for (size_t i = 0; i < d->type->n_symbols; i++)
            if (d->type->values[i] == value)
                return avrogen_value_set_enum(out, d->type->symbols[i]);
        return AVROGEN_E_ARG;
    }
    case AVROGEN_STORAGE_NULLABLE: {
        bool null = slot_is_null(d, base);
        size_t index = null ? d->null_index : 1 - d->null_index;
        st = avrogen_value_set_branch(out, index, a, &branch);
        if (st != AVROGEN_OK || null)
            return st;
        const void *target = d->null_via_ptr ? load_ptr(loc) : base;
        return slot_value(node->branches[index], &d->items[0], target, branch, a);
    }
    case AVROGEN_STORAGE_TIME:
        return time_value(d, loc, &out->i64) ? AVROGEN_OK : AVROGEN_E_ARG;
    case AVROGEN_STORAGE_TAGGED: {
        size_t k = tag_branch(d, load_int(at(base, d->aux_offset), d->aux_scalar));
        if (k == d->n_items)
            return AVROGEN_E_ARG;
        st = avrogen_value_set_branch(out, k, a, &branch);
        if (st != AVROGEN_OK)
            return st;
        return slot_value(node->branches[k], &d->items[k], base, branch, a);
    }
    }
    return AVROGEN_E_MISMATCH;
}

avrogen_status cg_to_value(const avrogen_node *schema, const avrogen_type *t, const void *v,
                           avrogen_value *out, avrogen_arena *a)
{
    return record_value(schema, t, v, out, a);
}

/* ---- deep equality ---------------------------------------------------------------- */

static char where_buf[256];

static bool differ(const char *what, const avrogen_field_desc *d)
{
    snprintf(where_buf, sizeof where_buf, "%s (%s)", d->name != NULL ? d->name : "item", what);
    return false;
}

static bool equal_record(const avrogen_type *t, const void *x, const void *y);

static bool equal_slot(const avrogen_field_desc *d, const void *xb, const void *yb)
{
    const char *x = at(xb, d->offset), *y = at(yb, d->offset);
    switch (d->storage) {
    case AVROGEN_STORAGE_NONE:
        return true;
    case AVROGEN_STORAGE_BITFIELD:
        return d->ext->get(x) == d->ext->get(y) || differ("bit-field", d);
    case AVROGEN_STORAGE_SCALAR:
        if (d->scalar == AVROGEN_SCALAR_BOOL)
            return (load_int(x, d->scalar) != 0) == (load_int(y, d->scalar) != 0) ||
                   differ("boolean", d);
        return memcmp(x, y, scalar_size(d->scalar)) == 0 || differ("scalar", d);
    case AVROGEN_STORAGE_CSTRING:
    case AVROGEN_STORAGE_CHAR_ARRAY:
    case AVROGEN_STORAGE_STR_VIEW:
    case AVROGEN_STORAGE_PADDED: {
        avrogen_str sx = string_at(d, x), sy = string_at(d, y);
        if ((sx.ptr == NULL) != (sy.ptr == NULL) || sx.len != sy.len ||
            (sx.len != 0 && memcmp(sx.ptr, sy.ptr, sx.len) != 0))
            return differ("string", d);
        return true;
    }
    case AVROGEN_STORAGE_BYTES_VIEW: {
        avrogen_bytes bx, by;
        memcpy(&bx, x, sizeof bx);
        memcpy(&by, y, sizeof by);
        if (bx.len != by.len || (bx.len != 0 && memcmp(bx.ptr, by.ptr, bx.len) != 0))
            return differ("bytes", d);
        return true;
    }
    case AVROGEN_STORAGE_PTR_COUNT:
    case AVROGEN_STORAGE_C_ARRAY:
    case AVROGEN_STORAGE_CAP_ARRAY: {
        const char *ix = d->storage == AVROGEN_STORAGE_PTR_COUNT ? load_ptr(x) : x;
        const char *iy = d->storage == AVROGEN_STORAGE_PTR_COUNT ? load_ptr(y) : y;
        bool counted = d->storage != AVROGEN_STORAGE_C_ARRAY;
        size_t n = counted ? count_of(d, xb) : d->len;
        if (counted && n != count_of(d, yb))
            return differ("count", d);
        if (d->kind == AVROGEN_KIND_BYTES || d->kind == AVROGEN_KIND_FIXED ||
            d->kind == AVROGEN_KIND_STRING)
            return n == 0 || memcmp(ix, iy, n) == 0 || differ("bytes", d);
        for (size_t i = 0; i < n; i++) {
            const char *ex = ix + i * d->elem_size, *ey = iy + i * d->elem_size;
            if (d->kind == AVROGEN_KIND_MAP) {
                if (!equal_slot(&d->items[0], ex, ey) || !equal_slot(&d->items[1], ex, ey))
                    return false;
            } else if (!equal_slot(&d->items[0], ex, ey)) {
                return false;
            }
        }
        return true;
    }
    case AVROGEN_STORAGE_STRUCT:
        return equal_record(d->type, x, y);
    case AVROGEN_STORAGE_RECORD_PTR:
        if (load_ptr(x) == NULL || load_ptr(y) == NULL)
            return load_ptr(x) == load_ptr(y) || differ("record pointer", d);
        return equal_record(d->type, load_ptr(x), load_ptr(y));
    case AVROGEN_STORAGE_ENUM:
        return load_int(x, d->scalar) == load_int(y, d->scalar) || differ("enum", d);
    case AVROGEN_STORAGE_NULLABLE: {
        bool nx = slot_is_null(d, xb), ny = slot_is_null(d, yb);
        if (nx != ny)
            return differ("null", d);
        if (nx)
            return true;
        if (d->null_via_ptr)
            return equal_slot(&d->items[0], load_ptr(x), load_ptr(y));
        return equal_slot(&d->items[0], xb, yb);
    }
    case AVROGEN_STORAGE_TIME:
        for (size_t i = 0; i < d->n_items; i++)
            if (load_int(x + d->items[i].offset, d->items[i].scalar) !=
                load_int(y + d->items[i].offset, d->items[i].scalar))
                return differ(i == 0 ? "seconds" : "fraction", d);
        return true;
    case AVROGEN_STORAGE_TAGGED: {
        int64_t tx = load_int(at(xb, d->aux_offset), d->aux_scalar);
        int64_t ty = load_int(at(yb, d->aux_offset), d->aux_scalar);
        if (tx != ty)
            return differ("tag", d);
        size_t k = tag_branch(d, tx);
        return k == d->n_items || equal_slot(&d->items[k], xb, yb);
    }
    }
    return differ("storage", d);
}

static bool equal_record(const avrogen_type *t, const void *x, const void *y)
{
    for (size_t i = 0; i < t->n_fields; i++)
        if (!equal_slot(&t->fields[i], x, y))
            return false;
    return true;
}

bool cg_equal(const avrogen_type *t, const void *x, const void *y, const char **where)
{
    where_buf[0] = '\0';
    bool same = equal_record(t, x, y);
    if (where != NULL)
        *where = where_buf;
    return same;
}

/* ---- zero-copy views ------------------------------------------------------------ */

static bool views_record(const avrogen_type *t, const void *v, const uint8_t *buf, size_t len);

static bool view_ok(const void *ptr, size_t n, const uint8_t *buf, size_t len)
{
    const uint8_t *p = ptr;
    return p == NULL || (p >= buf && p <= buf + len && n <= (size_t)(buf + len - p));
}

static bool views_slot(const avrogen_field_desc *d, const void *base, const uint8_t *buf,
                       size_t len)
{
    const char *loc = at(base, d->offset);
    switch (d->storage) {
    case AVROGEN_STORAGE_STR_VIEW: {
        avrogen_str s;
        memcpy(&s, loc, sizeof s);
        return view_ok(s.ptr, s.len, buf, len);
    }
    case AVROGEN_STORAGE_BYTES_VIEW: {
        avrogen_bytes b;
        memcpy(&b, loc, sizeof b);
        return view_ok(b.ptr, b.len, buf, len);
    }
    case AVROGEN_STORAGE_PTR_COUNT:
    case AVROGEN_STORAGE_C_ARRAY:
    case AVROGEN_STORAGE_CAP_ARRAY: {
        if (d->kind != AVROGEN_KIND_ARRAY && d->kind != AVROGEN_KIND_MAP)
            return true;
        const char *items = d->storage == AVROGEN_STORAGE_PTR_COUNT ? load_ptr(loc) : loc;
        size_t n = d->storage == AVROGEN_STORAGE_C_ARRAY ? d->len : count_of(d, base);
        for (size_t i = 0; i < n; i++) {
            const char *elem = items + i * d->elem_size;
            for (size_t k = 0; k < d->n_items; k++)
                if (!views_slot(&d->items[k], elem, buf, len))
                    return false;
        }
        return true;
    }
    case AVROGEN_STORAGE_STRUCT:
        return views_record(d->type, loc, buf, len);
    case AVROGEN_STORAGE_RECORD_PTR:
        return load_ptr(loc) == NULL || views_record(d->type, load_ptr(loc), buf, len);
    case AVROGEN_STORAGE_NULLABLE:
        if (slot_is_null(d, base))
            return true;
        return views_slot(&d->items[0], d->null_via_ptr ? load_ptr(loc) : base, buf, len);
    case AVROGEN_STORAGE_TAGGED: {
        size_t k = tag_branch(d, load_int(at(base, d->aux_offset), d->aux_scalar));
        return k == d->n_items || views_slot(&d->items[k], base, buf, len);
    }
    default:
        return true;
    }
}

static bool views_record(const avrogen_type *t, const void *v, const uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < t->n_fields; i++)
        if (!views_slot(&t->fields[i], v, buf, len))
            return false;
    return true;
}

bool cg_views_within(const avrogen_type *t, const void *v, const uint8_t *buf, size_t len)
{
    return views_record(t, v, buf, len);
}

bool cg_all_zero(const void *p, size_t size)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < size; i++)
        if (c[i] != 0)
            return false;
    return true;
}

/* ---- against hand-written JSON ---------------------------------------------------- */

avrogen_status cg_encode_json(const avrogen_type *t, const char *json, avrogen_writer *w, char *why,
                              size_t n)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_arena a;
    avrogen_value gv;
    avrogen_writer_init_growable(w, NULL);
    avrogen_arena_init(&a, NULL);
    const char *text = avrogen_type_schema(t);
    avrogen_status st = avrogen_schema_parse(text, strlen(text), NULL, &s, &d);
    if (st != AVROGEN_OK) {
        snprintf(why, n, "schema: %s: %s", d.path, d.msg);
    } else if ((st = avrogen_value_from_json(json, strlen(json), avrogen_schema_root(s), &gv, &a,
                                             &d)) != AVROGEN_OK) {
        snprintf(why, n, "json: %s at %s", d.msg, d.path);
    } else if ((st = avrogen_value_encode(w, &gv)) != AVROGEN_OK) {
        snprintf(why, n, "generic encode: %s", avrogen_status_str(st));
    }
    avrogen_arena_fini(&a);
    avrogen_schema_free(s);
    return st;
}

bool cg_same_as_json(const cg_case *c, const void *v, const char *json, char *why, size_t n)
{
    avrogen_writer gw, w;
    bool ok = false;
    void *back = calloc(1, c->type->size);
    if (back == NULL) {
        snprintf(why, n, "out of memory");
        return false;
    }
    avrogen_arena decoded;
    avrogen_arena_init(&decoded, NULL);
    avrogen_writer_init_growable(&w, NULL);
    if (cg_encode_json(c->type, json, &gw, why, n) != AVROGEN_OK)
        goto out;
    avrogen_status st = c->encode(&w, v);
    if (st != AVROGEN_OK) {
        snprintf(why, n, "generated encode: %s (%s)", avrogen_status_str(st),
                 w.err_msg != NULL ? w.err_msg : "no message");
        goto out;
    }
    if (avrogen_writer_len(&w) != avrogen_writer_len(&gw) ||
        memcmp(avrogen_writer_data(&w), avrogen_writer_data(&gw), avrogen_writer_len(&w)) != 0) {
        snprintf(why, n, "generated code writes %zu bytes, the generic runtime %zu, or others",
                 avrogen_writer_len(&w), avrogen_writer_len(&gw));
        goto out;
    }
    if (c->size(v) != avrogen_writer_len(&w)) {
        snprintf(why, n, "size() says %zu, the encoding has %zu", c->size(v),
                 avrogen_writer_len(&w));
        goto out;
    }
    /* And back: the generic bytes decode to an equal struct (whose views point
     * into them, so they stay alive until the comparison). */
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&gw), avrogen_writer_len(&gw));
    st = c->decode(&r, back, &decoded);
    const char *where;
    if (st != AVROGEN_OK)
        snprintf(why, n, "decode: %s (%s)", avrogen_status_str(st),
                 r.err_msg != NULL ? r.err_msg : "no message");
    else if (avrogen_reader_offset(&r) != avrogen_writer_len(&gw))
        snprintf(why, n, "decode stops at %zu of %zu bytes", avrogen_reader_offset(&r),
                 avrogen_writer_len(&gw));
    else if (!cg_equal(c->type, v, back, &where))
        snprintf(why, n, "decoded struct differs at %s", where);
    else
        ok = true;
out:
    avrogen_writer_fini(&gw);
    avrogen_writer_fini(&w);
    avrogen_arena_fini(&decoded);
    free(back);
    return ok;
}

/*
 * The encoding of v (of type t) with every array and map block written with a
 * negative count and its byte size (spec: Arrays, Maps), and the size of block
 * `lie` (numbered in the order blocks begin, from 0; -1 for none) off by
 * `delta`. *blocks counts the blocks.
 */
avrogen_status cg_encode_sized(avrogen_writer *w, const avrogen_value *v, const avrogen_node *t,
                               long lie, int64_t delta, long *blocks)
{
    avrogen_status st = AVROGEN_OK;
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && st == AVROGEN_OK; i++)
            st = cg_encode_sized(w, &v->fields[i], t->fields[i].type, lie, delta, blocks);
        return st;
    case AVROGEN_KIND_UNION:
        avrogen_write_long(w, (int64_t)v->branch.index);
        return cg_encode_sized(w, v->branch.value, t->branches[v->branch.index], lie, delta,
                               blocks);
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        bool map = t->kind == AVROGEN_KIND_MAP;
        size_t n = map ? v->map.count : v->array.count;
        if (n != 0) {
            long me = (*blocks)++;
            avrogen_writer items;
            avrogen_writer_init_growable(&items, NULL);
            for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
                if (map) {
                    const avrogen_map_entry *e = &v->map.entries[i];
                    avrogen_write_string(&items, e->key.ptr, e->key.len);
                    st = cg_encode_sized(&items, &e->value, t->items, lie, delta, blocks);
                } else {
                    st = cg_encode_sized(&items, &v->array.items[i], t->items, lie, delta, blocks);
                }
            }
            avrogen_write_long(w, -(int64_t)n);
            avrogen_write_long(w, (int64_t)avrogen_writer_len(&items) + (me == lie ? delta : 0));
            avrogen_write_raw(w, avrogen_writer_data(&items), avrogen_writer_len(&items));
            avrogen_writer_fini(&items);
        }
        avrogen_write_long(w, 0);
        return st != AVROGEN_OK ? st : w->err;
    }
    default:
        return avrogen_value_encode(w, v);
    }
}

void cg_set_schema(avrogen_type *t, cg_text *x, const char *json)
{
    memset(x, 0, sizeof *x);
    x->piece = (avrogen_text_piece){json, strlen(json), NULL};
    x->text = (avrogen_text){&x->piece, 1, strlen(json)};
    t->schema_text = &x->text;
    t->cache = &x->cache;
}
