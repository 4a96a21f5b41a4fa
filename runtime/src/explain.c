/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a generated encoder failed. After P_avro_encode stops with E_ARG (a
 * value its C member holds that Avro cannot take: a NULL string, an enum
 * value that is no symbol, a tag that selects no branch, a bad count) or
 * E_LIMIT (records nested past the writer's max_depth),
 * avrogen_writer_explain walks the struct with its type descriptor, in the
 * encoder's order and with the encoder's checks, and names the first member
 * that fails them: "Order.lines[3].name: NULL string". Nothing here runs
 * unless an encode has failed, so the encoders pay nothing for it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/gencode.h"

#include "value_internal.h"

#define PATH_CAP  512
#define MAX_TYPES 64 /* cyclic-or-not answers kept; more are worked out again */

typedef struct known {
    const avrogen_type *t;
    bool cyclic;
} known;

typedef struct walk {
    char path[PATH_CAP]; /* Record.member[3].member, cut short past PATH_CAP */
    size_t len;          /* logical length; the buffer holds a prefix */
    unsigned depth;      /* recursive records entered, as the encoder counts them */
    unsigned max_depth;
    known known[MAX_TYPES];
    size_t n_known;
    char why[128];       /* the reason, once found */
    bool found;          /* why holds it */
    bool done;           /* found, or out of steps: the walk unwinds */
    unsigned long steps; /* values visited: a struct graph the encoder would
                            spell out as a huge tree is not walked for ever */
} walk;

#define MAX_STEPS 10000000ul

void avrogen_path_pushv(char *path, size_t cap, size_t *len, const char *fmt, va_list ap)
{
    char seg[96];
    int n = vsnprintf(seg, sizeof seg, fmt, ap);
    for (int i = 0; i < n && seg[i] != '\0'; i++, (*len)++)
        if (*len < cap - 1)
            path[*len] = seg[i];
}

static AVROGEN_PRINTF(2, 3) void push(walk *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    avrogen_path_pushv(k->path, PATH_CAP, &k->len, fmt, ap);
    va_end(ap);
}

static AVROGEN_PRINTF(2, 3) void report(walk *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->why, sizeof k->why, fmt, ap);
    va_end(ap);
    k->found = k->done = true;
}

/* The integer of C type s at p (a count, a tag, an enum's value). */
static int64_t load_int(const char *p, avrogen_scalar s, bool *negative_u64)
{
    *negative_u64 = false;
    switch (s) {
    case AVROGEN_SCALAR_BOOL: {
        bool v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_I8: {
        int8_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_I16: {
        int16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_I32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_U8: {
        uint8_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_U16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case AVROGEN_SCALAR_U64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        *negative_u64 = v > (uint64_t)INT64_MAX;
        return (int64_t)(v & (uint64_t)INT64_MAX);
    }
    default:
        return 0;
    }
}

static const void *load_ptr(const char *p)
{
    const void *v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* True when record type `t` reaches `target` through its fields (seen: visited). */
static bool reaches(const avrogen_field_desc *d, size_t n, const avrogen_type *target,
                    const avrogen_type **seen, size_t *n_seen, size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        const avrogen_type *t = d[i].type;
        if (t != NULL && t->kind == AVROGEN_KIND_RECORD) {
            if (t == target)
                return true;
            bool visited = false;
            for (size_t j = 0; j < *n_seen && !visited; j++)
                visited = seen[j] == t;
            if (!visited && *n_seen < cap) {
                seen[(*n_seen)++] = t;
                if (reaches(t->fields, t->n_fields, target, seen, n_seen, cap))
                    return true;
            }
        }
        if (reaches(d[i].items, d[i].n_items, target, seen, n_seen, cap))
            return true;
    }
    return false;
}

/* A record that contains itself: generated code counts a nesting level in it. */
static bool is_cyclic(walk *k, const avrogen_type *t)
{
    for (size_t i = 0; i < k->n_known; i++)
        if (k->known[i].t == t)
            return k->known[i].cyclic;
    const avrogen_type *seen[256];
    size_t n_seen = 0;
    bool cyclic = reaches(t->fields, t->n_fields, t, seen, &n_seen, sizeof seen / sizeof *seen);
    if (k->n_known < MAX_TYPES)
        k->known[k->n_known++] = (known){t, cyclic};
    return cyclic;
}

static void value(walk *k, const avrogen_field_desc *d, const char *base);

static void record(walk *k, const avrogen_type *t, const char *p)
{
    bool cyclic = is_cyclic(k, t);
    if (cyclic && k->depth >= k->max_depth) {
        report(k, "records nest deeper than the writer's max_depth (%u)", k->max_depth);
        return;
    }
    k->depth += cyclic;
    for (size_t i = 0; i < t->n_fields && !k->done; i++) {
        size_t at = k->len;
        push(k, ".%s", t->fields[i].name);
        value(k, &t->fields[i], p);
        if (!k->done)
            k->len = at;
    }
    k->depth -= cyclic;
}

/* The key of a map entry, for the path: a string key quoted (cut at 24 bytes), else its index. */
static void push_key(walk *k, const avrogen_field_desc *key, const char *entry, size_t i)
{
    const char *s = NULL;
    size_t n = 0;
    const char *p = entry + key->offset;
    if (key->storage == AVROGEN_STORAGE_CSTRING && (s = load_ptr(p)) != NULL) {
        n = strlen(s);
    } else if (key->storage == AVROGEN_STORAGE_CHAR_ARRAY) {
        s = p;
        const char *nul = memchr(p, 0, key->len);
        n = nul != NULL ? (size_t)(nul - p) : key->len;
    } else if (key->storage == AVROGEN_STORAGE_STR_VIEW) {
        avrogen_str v;
        memcpy(&v, p, sizeof v);
        s = v.ptr;
        n = v.ptr != NULL ? v.len : 0;
    }
    if (s == NULL) {
        push(k, "[%zu]", i);
        return;
    }
    char shown[32];
    size_t m = 0;
    for (size_t j = 0; j < n && m < 24; j++)
        shown[m++] = s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' ? s[j] : '?';
    shown[m] = '\0';
    push(k, "[\"%s\"%s]", shown, n > 24 ? "..." : "");
}

/* An array or map of `count` items (entries) `stride` bytes apart from `items`. */
static void items(walk *k, const avrogen_field_desc *d, const char *items, size_t count,
                  size_t stride)
{
    bool map = d->kind == AVROGEN_KIND_MAP && d->n_items == 2;
    for (size_t i = 0; i < count && !k->done; i++) {
        const char *it = items + i * stride;
        size_t at = k->len;
        if (map) {
            push_key(k, &d->items[0], it, i);
            value(k, &d->items[0], it);
            if (!k->done)
                value(k, &d->items[1], it);
        } else if (d->n_items == 1) {
            push(k, "[%zu]", i);
            value(k, &d->items[0], it);
        }
        if (!k->done)
            k->len = at;
    }
}

static void enum_value(walk *k, const avrogen_field_desc *d, const char *p)
{
    bool big;
    int64_t v = load_int(p, d->scalar, &big);
    const avrogen_type *t = d->type;
    if (t == NULL || t->values == NULL)
        return;
    for (size_t i = 0; i < t->n_symbols && !big; i++)
        if (t->values[i] == v)
            return;
    report(k, "%" PRId64 " is not a value of enum %s", v, t->name);
}

/* The branch of tagged union d that tag `tag` selects, or -1. */
static long branch_of(const avrogen_field_desc *d, int64_t tag)
{
    for (size_t i = 0; i < d->n_items; i++) {
        const avrogen_field_ext *x = d->items[i].ext;
        if (x != NULL && x->tags != NULL) {
            for (size_t j = 0; j < x->n_tags; j++)
                if (x->tags[j] == tag)
                    return (long)i;
        } else if (tag == (int64_t)i) {
            return (long)i;
        }
    }
    return -1;
}

/* A nullable's own null state (when not through a pointer of its own). */
static bool own_null(const avrogen_field_desc *it, const char *base)
{
    const char *p = base + it->offset;
    switch (it->storage) {
    case AVROGEN_STORAGE_CSTRING:
    case AVROGEN_STORAGE_PTR_COUNT:
        return load_ptr(p) == NULL;
    case AVROGEN_STORAGE_STR_VIEW:
    case AVROGEN_STORAGE_BYTES_VIEW: {
        avrogen_bytes v;
        memcpy(&v, p, sizeof v);
        return v.ptr == NULL;
    }
    default:
        return false;
    }
}

static void value(walk *k, const avrogen_field_desc *d, const char *base)
{
    const char *p = base + d->offset;
    bool big;
    if (++k->steps > MAX_STEPS) {
        k->done = true;
        return;
    }
    switch (d->storage) {
    case AVROGEN_STORAGE_SCALAR:
        if (d->ext != NULL && (d->ext->flags & AVROGEN_EXT_U64_CHECKED)) {
            uint64_t u;
            memcpy(&u, p, sizeof u);
            if (u > (uint64_t)INT64_MAX)
                report(k,
                       "%" PRIu64 " is above the largest long; AVRO_FIELD(type = \"long\") "
                       "keeps its bits, AVRO_DECIMAL(20, 0) every value",
                       u);
        }
        return;
    case AVROGEN_STORAGE_CSTRING:
        if (load_ptr(p) == NULL)
            report(k, "NULL string");
        return;
    case AVROGEN_STORAGE_CHAR_ARRAY:
        if (memchr(p, 0, d->len) == NULL)
            report(k, "char[%zu] holds no NUL", d->len);
        return;
    case AVROGEN_STORAGE_PTR_COUNT: {
        const char *it = load_ptr(p);
        int64_t n = load_int(base + d->aux_offset, d->aux_scalar, &big);
        if (big || n < 0) {
            report(k, "count member holds %s%" PRId64 ", not a count", big ? "more than " : "",
                   big ? INT64_MAX : n);
            return;
        }
        if (it == NULL && n > 0) {
            report(k, "NULL items with a count of %" PRId64, n);
            return;
        }
        if (d->kind != AVROGEN_KIND_BYTES)
            items(k, d, it, (size_t)n, d->elem_size);
        return;
    }
    case AVROGEN_STORAGE_C_ARRAY:
        if (d->kind == AVROGEN_KIND_ARRAY)
            items(k, d, p, d->len, d->elem_size);
        return;
    case AVROGEN_STORAGE_STRUCT:
        if (d->type != NULL)
            record(k, d->type, p);
        return;
    case AVROGEN_STORAGE_ENUM:
        enum_value(k, d, p);
        return;
    case AVROGEN_STORAGE_NULLABLE:
        if (d->n_items != 1)
            return;
        if (d->null_via_ptr) {
            const char *target = load_ptr(p);
            if (target != NULL)
                value(k, &d->items[0], target);
        } else if (!own_null(&d->items[0], base)) {
            value(k, &d->items[0], base);
        }
        return;
    case AVROGEN_STORAGE_RECORD_PTR: {
        const char *target = load_ptr(p);
        if (target == NULL)
            report(k,
                   "NULL pointer to record %s; point it at one, or set the tag to another "
                   "branch",
                   d->type != NULL ? d->type->name : "?");
        else if (d->n_items == 1)
            value(k, &d->items[0], target);
        return;
    }
    case AVROGEN_STORAGE_TAGGED: {
        int64_t tag = load_int(base + d->aux_offset, d->aux_scalar, &big);
        long b = big ? -1 : branch_of(d, tag);
        if (b < 0 && big) {
            /* A uint64_t tag above INT64_MAX: no AVRO_TAG lists one (model_tag.c). */
            uint64_t u;
            memcpy(&u, base + d->aux_offset, sizeof u);
            report(k, "tag %" PRIu64 " selects no branch of the union", u);
            return;
        }
        if (b < 0) {
            report(k, "tag %" PRId64 " selects no branch of the union", tag);
            return;
        }
        const avrogen_field_desc *br = &d->items[b];
        if (br->name != NULL)
            push(k, ".%s", br->name);
        value(k, br, base);
        return;
    }
    default:
        return;
    }
}

/* Path and reason into w->err_text; a path too long keeps its start and its end. */
static void publish(avrogen_writer *w, const walk *k)
{
    size_t why = strlen(k->why);
    size_t room = sizeof w->err_text - 1 - 2 - why; /* for the path */
    size_t n = k->len < PATH_CAP - 1 ? k->len : PATH_CAP - 1;
    char *out = w->err_text;
    if (k->len > room) {
        /* The start, "...", and the end of what the buffer kept. */
        size_t head = (room - 3) / 2, tail = room - 3 - head;
        memcpy(out, k->path, head);
        memcpy(out + head, "...", 3);
        memcpy(out + head + 3, k->path + n - tail, tail);
        out += room;
    } else {
        memcpy(out, k->path, n);
        out += n;
    }
    memcpy(out, ": ", 2);
    memcpy(out + 2, k->why, why + 1);
    w->err_msg = w->err_text;
}

/*
 * Whether the walk found what the encoder's own message is about: generated
 * code names the C member ("struct sheet.cells: tag value 3 selects no union
 * member"), and the walk's path names it last (sheet.cells["k1"]). Anything
 * else (a check the walk does not make, a time out of range) keeps the
 * encoder's message, which is then the first failure, not the walk's.
 */
static bool same_member(const walk *k, const char *msg)
{
    if (strncmp(msg, "struct ", 7) != 0)
        return false;
    const char *colon = strchr(msg, ':'), *dot = colon;
    while (dot != NULL && dot > msg && *dot != '.')
        dot--;
    if (colon == NULL || dot == NULL || *dot != '.')
        return false;
    size_t n = (size_t)(colon - dot - 1), len = k->len < PATH_CAP - 1 ? k->len : PATH_CAP - 1;
    /* The last ".member" of the path, before any [index] or ["key"]. */
    for (size_t i = len; i-- > 0;)
        if (k->path[i] == '.') {
            size_t end = i + 1;
            while (end < len && k->path[end] != '[' && k->path[end] != '.')
                end++;
            return end - i - 1 == n && memcmp(k->path + i + 1, dot + 1, n) == 0;
        }
    return false;
}

void avrogen_writer_explain(avrogen_writer *w, const avrogen_type *t, const void *v)
{
    /* err_text holds a path already (a nested P_avro_encode explained it), or
     * the encoder's own message naming a C member (avrogen_writer_fail_tag). */
    bool explained = w->err_msg == w->err_text && strncmp(w->err_text, "struct ", 7) != 0;
    if ((w->err != AVROGEN_E_ARG && w->err != AVROGEN_E_LIMIT) || explained || t == NULL ||
        v == NULL || t->kind != AVROGEN_KIND_RECORD)
        return;
    walk k;
    memset(&k, 0, sizeof k);
    k.max_depth = w->max_depth;
    const char *dot = strrchr(t->name, '.');
    push(&k, "%s", dot != NULL ? dot + 1 : t->name);
    record(&k, t, v);
    /* A message of the encoder's own stands unless it is about the member found. */
    if (k.found && (w->err_msg == NULL || same_member(&k, w->err_msg)))
        publish(w, &k);
}
