/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Field defaults: AVRO_FIELD(default = ...) against the Avro type, and against
 * what the C member can hold (the checks of gencode.h's decoders, ahead of
 * time).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- defaults --------------------------------------------------------- */

/* The code points of UTF-8 text, or -1 if one is above 0xFF (bytes and fixed
 * defaults are strings of code points 0-255, spec §Complex Types). */
static long latin1_length(const char *s)
{
    long n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned cp;
        if (*p < 0x80) {
            cp = *p++;
        } else if ((*p & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
            cp = ((unsigned)(*p & 0x1F) << 6) | (p[1] & 0x3F);
            p += 2;
        } else {
            return -1;
        }
        if (cp > 0xFF)
            return -1;
        n++;
    }
    return n;
}

static bool integer_in_range(const char *json, long long lo, long long hi)
{
    if (strpbrk(json, ".eE"))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(json, &end, 10);
    return errno == 0 && *end == '\0' && v >= lo && v <= hi;
}

void scalar_range(enum model_scalar s, long long *lo, long long *hi)
{
    switch (s) {
    case MODEL_SCALAR_I8:
        *lo = INT8_MIN, *hi = INT8_MAX;
        break;
    case MODEL_SCALAR_I16:
        *lo = INT16_MIN, *hi = INT16_MAX;
        break;
    case MODEL_SCALAR_I32:
        *lo = INT32_MIN, *hi = INT32_MAX;
        break;
    case MODEL_SCALAR_U8:
        *lo = 0, *hi = UINT8_MAX;
        break;
    case MODEL_SCALAR_U16:
        *lo = 0, *hi = UINT16_MAX;
        break;
    case MODEL_SCALAR_U32:
        *lo = 0, *hi = UINT32_MAX;
        break;
    default: /* I64; U64 as "long" holds any Avro long */
        *lo = INT64_MIN, *hi = INT64_MAX;
        break;
    }
}

/* The values integer location t holds: a checked uint64_t no negative ones. */
static void type_range(const struct model_type *t, long long *lo, long long *hi)
{
    if (t->bit_width) {
        model_bitfield_range(t, lo, hi);
        return;
    }
    scalar_range(t->scalar, lo, hi);
    if (t->u64_checked)
        *lo = 0;
}

/*
 * Does the default `def` suit type t (spec §Complex Types, "default")? Only
 * the top level is checked here, where the message can point at the
 * annotation; the runtime schema parser validates the emitted schema in full.
 * On a mismatch, writes what was expected into want.
 */
static bool default_fits(const struct model_type *t, const struct annot_option *def, char *want,
                         size_t n)
{
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        snprintf(want, n, "null");
        return def->type == ANNOT_JSON_NULL;
    case AVROGEN_KIND_BOOLEAN:
        snprintf(want, n, "true or false");
        return def->type == ANNOT_JSON_BOOL;
    case AVROGEN_KIND_INT:
    case AVROGEN_KIND_LONG: {
        long long lo, hi;
        type_range(t, &lo, &hi);
        snprintf(want, n, "an integer in %lld..%lld", lo, hi);
        return def->type == ANNOT_JSON_NUMBER && integer_in_range(def->json, lo, hi);
    }
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
        snprintf(want, n, "a number");
        return def->type == ANNOT_JSON_NUMBER;
    case AVROGEN_KIND_STRING:
        snprintf(want, n, "a string");
        return def->type == ANNOT_JSON_STRING;
    case AVROGEN_KIND_BYTES:
        snprintf(want, n, "a string of code points 0-255 (one per byte)");
        return def->type == ANNOT_JSON_STRING && latin1_length(def->str) >= 0;
    case AVROGEN_KIND_FIXED:
        snprintf(want, n, "a string of exactly %llu code points 0-255 (one per byte)",
                 (unsigned long long)t->c_len);
        return def->type == ANNOT_JSON_STRING && latin1_length(def->str) == (long)t->c_len;
    case AVROGEN_KIND_ENUM:
        snprintf(want, n, "one of the symbols of '%s'", t->enumeration->name.fullname);
        if (def->type != ANNOT_JSON_STRING)
            return false;
        for (size_t i = 0; i < t->enumeration->n_symbols; i++)
            if (strcmp(t->enumeration->symbols[i].avro_name, def->str) == 0)
                return true;
        return false;
    case AVROGEN_KIND_ARRAY:
        snprintf(want, n, "a JSON array");
        return def->type == ANNOT_JSON_ARRAY;
    case AVROGEN_KIND_MAP:
    case AVROGEN_KIND_RECORD:
        snprintf(want, n, "a JSON object");
        return def->type == ANNOT_JSON_OBJECT;
    case AVROGEN_KIND_UNION:
    default:
        snprintf(want, n, "a value of the union's first branch");
        return false;
    }
}

/* After a default named no symbol of e: which ones there are. */
static void note_symbols(struct builder *b, const struct model_enum *e)
{
    char *symbols = enum_symbol_list(e);
    diag_note(b->d, &e->loc, "the symbols of '%s' are %s", e->name.fullname, symbols);
    free(symbols);
}

/* Check AVRO_FIELD(default = ...) against the field's type; for a nullable
 * field a non-null default puts "null" second (the spec matches a union's
 * default against its first branch). */
bool check_default(struct builder *b, const struct model_field *f, const struct member_annots *ma,
                   struct model_type *t)
{
    const struct annot_option *def = annot_find(&ma->opts, "default");
    const struct model_type *target = t;
    char want[160];
    if (t->storage == MODEL_STORAGE_NULLABLE) {
        if (def->type == ANNOT_JSON_NULL)
            return true;
        t->null_index = 1;
        target = t->items;
    } else if (t->storage == MODEL_STORAGE_TAGGED) {
        target = t->branches[0].type;
    }
    if (default_fits(target, def, want, sizeof want))
        return true;
    diag_error(b->d, &ma->field->loc,
               "default %s of field '%s' does not match its type %s%s: expected %s", def->json,
               f->c_name, avrogen_kind_name(target->kind),
               t->storage == MODEL_STORAGE_TAGGED ? " (the union's first branch)" : "", want);
    if (target->kind == AVROGEN_KIND_ENUM && target->enumeration)
        note_symbols(b, target->enumeration);
    return false;
}

/*
 * ---- defaults the C member can hold ----------------------------------
 *
 * A default can be valid Avro for a field and still be something its C member
 * cannot hold: "toolong" for a char[4], one item for an int64_t[3], 300 items
 * for a map whose count member is a uint8_t. The runtime's type plans decode
 * every default into the C type when they are built and refuse these with
 * E_SCHEMA, so a user would only learn about them when reading old data. This
 * pass walks each default alongside the C storage it decodes into and reports
 * the first value that would fail there, mirroring the checks of gencode.h's
 * decoders. It runs after every record is filled, so a default that holds
 * records sees their fields. Values whose JSON shape does not match the Avro
 * type are skipped: check_default reported the top level, and the runtime
 * schema parser validates the emitted schema in full.
 */

#define FIT_MAX_DEPTH 64 /* deeper defaults are left to the runtime's check */

struct fit {
    const char *p;                     /* cursor into the compact default JSON */
    char path[160];                    /* where in the default: "", ".code", "[2].name" */
    char why[240];                     /* the first problem, once found */
    const struct model_enum *bad_enum; /* why names a value that is none of its symbols */
};

/* Skip one compact JSON value (annot.c validated the text). */
static void fit_skip(struct fit *f)
{
    int depth = 0;
    do {
        char c = *f->p;
        if (c == '\0')
            return;
        if (c == '"') {
            for (f->p++; *f->p && *f->p != '"'; f->p++)
                if (*f->p == '\\' && f->p[1])
                    f->p++;
            if (*f->p)
                f->p++;
        } else if (c == '[' || c == '{') {
            depth++;
            f->p++;
        } else if (c == ']' || c == '}') {
            depth--;
            f->p++;
        } else if (c == ',' || c == ':') {
            f->p++;
        } else {
            while (*f->p && !strchr(",:]}", *f->p))
                f->p++;
        }
    } while (depth > 0);
}

static unsigned hex4(const char *s)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v = v << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/*
 * Decode the JSON string at the cursor into code points: *cps (malloc'd,
 * *n of them), a copy of the literal as written into lit (for messages,
 * shortened). Each escape or UTF-8 sequence is one code point, so the array
 * needs no more entries than the literal has bytes.
 */
static unsigned long *fit_string(struct fit *f, size_t *n, char *lit, size_t lit_n)
{
    const char *start = f->p;
    unsigned long *cps = xmalloc((strlen(f->p) + 1) * sizeof *cps);
    size_t k = 0;
    const unsigned char *s = (const unsigned char *)f->p + 1;
    while (*s && *s != '"') {
        unsigned long cp;
        if (*s == '\\') {
            char e = (char)s[1];
            s += 2;
            if (e == 'u') {
                cp = hex4((const char *)s);
                s += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && s[0] == '\\' && s[1] == 'u' &&
                    hex4((const char *)s + 2) >= 0xDC00 && hex4((const char *)s + 2) < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4((const char *)s + 2) - 0xDC00);
                    s += 6;
                }
            } else {
                const char *m = strchr("b\bf\fn\nr\rt\t", e);
                cp = m ? (unsigned char)m[1] : (unsigned char)e; /* \" \\ \/ */
            }
        } else if (*s < 0x80) {
            cp = *s++;
        } else {
            int extra = *s >= 0xF0 ? 3 : *s >= 0xE0 ? 2 : 1;
            cp = *s++ & (0x3Fu >> extra);
            for (; extra > 0 && (*s & 0xC0) == 0x80; extra--)
                cp = cp << 6 | (*s++ & 0x3F);
        }
        cps[k++] = cp;
    }
    if (*s == '"')
        s++;
    f->p = (const char *)s;
    size_t len = (size_t)(f->p - start);
    if (len < lit_n)
        snprintf(lit, lit_n, "%.*s", (int)len, start);
    else
        snprintf(lit, lit_n, "%.*s...\"", (int)(lit_n - 6), start);
    *n = k;
    return cps;
}

/* Bytes of the UTF-8 encoding of n code points. */
static size_t utf8_bytes(const unsigned long *cps, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += cps[i] < 0x80 ? 1 : cps[i] < 0x800 ? 2 : cps[i] < 0x10000 ? 3 : 4;
    return total;
}

static bool fit_fail(struct fit *f, const char *fmt, ...) AVROGEN_PRINTF(2, 3);

static bool fit_fail(struct fit *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
    return false;
}

/* The largest count a count member of scalar s holds. */
static unsigned long long count_max(enum model_scalar s)
{
    long long lo, hi;
    scalar_range(s, &lo, &hi);
    return s == MODEL_SCALAR_U64 ? UINT64_MAX : (unsigned long long)hi;
}

/* Extend f->path by one step; returns the old length to restore. */
static size_t fit_push(struct fit *f, const char *fmt, ...) AVROGEN_PRINTF(2, 3);

static size_t fit_push(struct fit *f, const char *fmt, ...)
{
    size_t old = strlen(f->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->path + old, sizeof f->path - old, fmt, ap);
    va_end(ap);
    return old;
}

static bool fit_value(struct fit *f, const struct model_type *t, int depth);

/* A string at a C string location: CSTRING, CHAR_ARRAY (also a map key) or
 * PADDED, where all N bytes may be text. None of them holds a NUL byte. */
static bool fit_text(struct fit *f, const struct model_type *t)
{
    char lit[64];
    size_t n;
    unsigned long *cps = fit_string(f, &n, lit, sizeof lit);
    size_t bytes = utf8_bytes(cps, n);
    bool nul = false;
    for (size_t i = 0; i < n; i++)
        nul = nul || cps[i] == 0;
    free(cps);
    bool padded = t->storage == MODEL_STORAGE_PADDED;
    if (nul)
        return fit_fail(f, "%s holds a NUL byte, which the NUL-%s '%s' cannot", lit,
                        padded ? "padded" : "terminated", t->c_type);
    uint64_t max = padded ? t->c_len : t->c_len - 1;
    if ((padded || t->storage == MODEL_STORAGE_CHAR_ARRAY) && bytes > max)
        return fit_fail(f, "%s is %zu bytes, but '%s' holds at most %llu", lit, bytes, t->c_type,
                        (unsigned long long)max);
    return true;
}

/* A JSON array at an ARRAY location: every item, then the count. */
static bool fit_array(struct fit *f, const struct model_type *t, int depth)
{
    size_t count = 0;
    f->p++; /* [ */
    while (*f->p && *f->p != ']') {
        if (*f->p == ',')
            f->p++;
        size_t old = fit_push(f, "[%zu]", count);
        bool ok = fit_value(f, t->items, depth + 1);
        if (!ok)
            return false; /* keep the path for the message */
        f->path[old] = '\0';
        count++;
    }
    if (*f->p)
        f->p++;
    if (t->storage == MODEL_STORAGE_C_ARRAY && count != t->c_len)
        return fit_fail(f, "%zu item%s, but '%s' holds exactly %llu", count, count == 1 ? "" : "s",
                        t->c_type, (unsigned long long)t->c_len);
    if (t->storage == MODEL_STORAGE_CAP_ARRAY && count > t->c_len)
        return fit_fail(f, "%zu items, but '%s' holds at most %llu", count, t->c_type,
                        (unsigned long long)t->c_len);
    if ((t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_CAP_ARRAY) &&
        count > count_max(t->count_scalar))
        return fit_fail(f, "%zu items, but its count member '%s' (%s) holds at most %llu", count,
                        t->count_c_name, t->count_c_type, count_max(t->count_scalar));
    return true;
}

/* A JSON object at a MAP location: keys, values, then the count. */
static bool fit_map(struct fit *f, const struct model_type *t, int depth)
{
    size_t count = 0;
    f->p++; /* { */
    while (*f->p && *f->p != '}') {
        if (*f->p == ',')
            f->p++;
        const char *key = f->p;
        char lit[64];
        size_t n;
        free(fit_string(f, &n, lit, sizeof lit));
        size_t old = fit_push(f, "[%s]", lit);
        const char *after = f->p;
        f->p = key;
        bool ok = t->map_key->storage == MODEL_STORAGE_STR_VIEW || fit_text(f, t->map_key);
        f->p = after;
        if (ok && *f->p == ':') {
            f->p++;
            ok = fit_value(f, t->items, depth + 1);
        }
        if (!ok)
            return false; /* keep the path for the message */
        f->path[old] = '\0';
        count++;
    }
    if (*f->p)
        f->p++;
    if (count > count_max(t->count_scalar))
        return fit_fail(f, "%zu entries, but its count member '%s' (%s) holds at most %llu", count,
                        t->count_c_name, t->count_c_type, count_max(t->count_scalar));
    return true;
}

/* A JSON object at a STRUCT location: each named field at its member. */
static bool fit_record(struct fit *f, const struct model_record *r, int depth)
{
    f->p++; /* { */
    while (*f->p && *f->p != '}') {
        if (*f->p == ',')
            f->p++;
        char lit[64];
        size_t n;
        unsigned long *cps = fit_string(f, &n, lit, sizeof lit);
        free(cps);
        if (*f->p == ':')
            f->p++;
        /* lit is the quoted name; Avro names need no escapes. */
        const struct model_field *mf = NULL;
        for (size_t i = 0; i < r->n_fields && !mf; i++) {
            const struct model_field *c = &r->fields[i];
            size_t len = strlen(c->avro_name ? c->avro_name : "");
            if (c->role == MODEL_FIELD_VALUE && c->type && strlen(lit) == len + 2 &&
                strncmp(lit + 1, c->avro_name, len) == 0)
                mf = c;
        }
        if (!mf) {
            fit_skip(f);
            continue;
        }
        size_t old = fit_push(f, ".%s", mf->avro_name);
        bool ok = fit_value(f, mf->type, depth + 1);
        if (!ok)
            return false; /* keep the path for the message */
        f->path[old] = '\0';
    }
    if (*f->p)
        f->p++;
    return true;
}

/* An integer at a SCALAR location narrower than Avro's int or long. */
static bool fit_integer(struct fit *f, const struct model_type *t)
{
    const char *start = f->p;
    fit_skip(f);
    size_t len = (size_t)(f->p - start);
    char num[48];
    if (len >= sizeof num || memchr(start, '.', len) || memchr(start, 'e', len) ||
        memchr(start, 'E', len))
        return true; /* not an integer Avro accepts: the schema check reports it */
    memcpy(num, start, len);
    num[len] = '\0';
    long long lo, hi;
    type_range(t, &lo, &hi);
    if (!integer_in_range(num, lo, hi))
        return fit_fail(f, "%s is out of the range of '%s' (%lld..%lld)", num, t->c_type, lo, hi);
    return true;
}

/* A decimal's unscaled bytes at an int64_t / uint64_t location (gencode.h's
 * avrogen_read_decimal_*: redundant sign bytes are fine, more is not). */
static bool fit_decimal(struct fit *f, const struct model_type *t)
{
    char lit[64];
    size_t n;
    unsigned long *cps = fit_string(f, &n, lit, sizeof lit);
    size_t i = 0;
    bool ok = true;
    if (t->scalar == MODEL_SCALAR_U64) {
        ok = n == 0 || cps[0] < 0x80;
        while (n - i > 8 && cps[i] == 0)
            i++;
    } else {
        while (n - i > 8 && (cps[i] == 0 || cps[i] == 0xFF) &&
               (cps[i] & 0x80) == (cps[i + 1] & 0x80))
            i++;
    }
    bool negative = !ok;
    ok = ok && n - i <= 8;
    free(cps);
    if (negative)
        return fit_fail(f, "%s is a negative decimal, which '%s' cannot hold", lit, t->c_type);
    if (!ok)
        return fit_fail(f, "its unscaled value needs %zu bytes, more than the 8 of '%s'", n - i,
                        t->c_type);
    return true;
}

static bool fit_value(struct fit *f, const struct model_type *t, int depth)
{
    char c = *f->p;
    if (depth > FIT_MAX_DEPTH || t == NULL) {
        fit_skip(f);
        return true;
    }
    switch (t->storage) {
    case MODEL_STORAGE_NULLABLE:
        if (c == 'n') {
            fit_skip(f);
            return true;
        }
        return fit_value(f, t->items, depth + 1);
    case MODEL_STORAGE_TAGGED: /* a union's default is its first branch */
        return fit_value(f, t->n_branches ? t->branches[0].type : NULL, depth + 1);
    case MODEL_STORAGE_SCALAR:
        if (c != '"' && (t->kind == AVROGEN_KIND_INT || t->kind == AVROGEN_KIND_LONG))
            return fit_integer(f, t);
        if (c == '"' && t->kind == AVROGEN_KIND_BYTES)
            return fit_decimal(f, t);
        break;
    case MODEL_STORAGE_CSTRING:
    case MODEL_STORAGE_CHAR_ARRAY:
    case MODEL_STORAGE_PADDED:
        if (c == '"')
            return fit_text(f, t);
        break;
    case MODEL_STORAGE_C_ARRAY:
    case MODEL_STORAGE_PTR_COUNT:
    case MODEL_STORAGE_CAP_ARRAY:
        if (c == '[' && t->kind == AVROGEN_KIND_ARRAY)
            return fit_array(f, t, depth);
        if (c == '{' && t->kind == AVROGEN_KIND_MAP)
            return fit_map(f, t, depth);
        if (c == '"') { /* bytes or fixed: one byte per code point; text: its UTF-8 */
            char lit[64];
            size_t n;
            unsigned long *cps = fit_string(f, &n, lit, sizeof lit);
            if (t->kind == AVROGEN_KIND_STRING)
                n = utf8_bytes(cps, n);
            free(cps);
            if (t->storage == MODEL_STORAGE_CAP_ARRAY && n > t->c_len)
                return fit_fail(f, "%s is %zu bytes, but '%s' holds at most %llu", lit, n,
                                t->c_type, (unsigned long long)t->c_len);
            if (t->storage == MODEL_STORAGE_C_ARRAY && n != t->c_len)
                return fit_fail(f, "%s is %zu bytes, but '%s' holds exactly %llu", lit, n,
                                t->c_type, (unsigned long long)t->c_len);
            if (t->storage != MODEL_STORAGE_C_ARRAY && n > count_max(t->count_scalar))
                return fit_fail(f,
                                "%s is %zu bytes, but its count member '%s' (%s) holds at "
                                "most %llu",
                                lit, n, t->count_c_name, t->count_c_type,
                                count_max(t->count_scalar));
            return true;
        }
        break;
    case MODEL_STORAGE_STRUCT:
    case MODEL_STORAGE_RECORD_PTR:
        if (c == '{' && t->record)
            return fit_record(f, t->record, depth);
        break;
    case MODEL_STORAGE_ENUM:
        if (c == '"' && t->enumeration) {
            char lit[64];
            size_t n;
            const char *start = f->p;
            free(fit_string(f, &n, lit, sizeof lit));
            size_t len = (size_t)(f->p - start);
            for (size_t i = 0; i < t->enumeration->n_symbols; i++) {
                const char *sym = t->enumeration->symbols[i].avro_name;
                if (strlen(sym) + 2 == len && strncmp(start + 1, sym, len - 2) == 0)
                    return true;
            }
            f->bad_enum = t->enumeration;
            return fit_fail(f, "%s is not a symbol of '%s'", lit, t->enumeration->c_type);
        }
        break;
    default:
        break;
    }
    fit_skip(f);
    return true;
}

/* Report every field default its C member cannot hold, at the member. */
bool check_default_fit(struct builder *b)
{
    bool ok = true;
    for (size_t i = 0; i < b->m->n_records; i++) {
        const struct model_record *r = b->m->records[i];
        for (size_t j = 0; j < r->n_fields; j++) {
            const struct model_field *mf = &r->fields[j];
            if (mf->role != MODEL_FIELD_VALUE || !mf->default_json || !mf->type)
                continue;
            struct fit f = {.p = mf->default_json};
            if (fit_value(&f, mf->type, 0))
                continue;
            size_t len = strlen(mf->default_json);
            diag_error(b->d, &mf->loc,
                       "default %.*s%s of field '%s' does not fit its C type: %s%s%s%s",
                       len > 60 ? 56 : (int)len, mf->default_json, len > 60 ? " ..." : "",
                       mf->c_name, f.path[0] ? "at " : "", f.path, f.path[0] ? ", " : "", f.why);
            if (f.bad_enum)
                note_symbols(b, f.bad_enum);
            ok = false;
        }
    }
    return ok;
}
