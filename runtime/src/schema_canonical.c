/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parsing Canonical Form (spec §Parsing Canonical Form for Schemas), written
 * from the validated model rather than by rewriting the input JSON. The model
 * already holds fullnames, so [FULLNAMES] is free; we emit only the attributes
 * [STRIP] keeps, in the [ORDER] the spec fixes, with no whitespace. Nothing
 * here validates: the parser has done that.
 */
#include <string.h>

#include "schema_internal.h"

typedef struct canon_writer {
    char *buf; /* from `alloc`; NUL-terminated once finished */
    size_t len;
    size_t cap;
    const avrogen_alloc *alloc;
    avrogen_strtab written; /* fullnames already written in full */
    avrogen_status err;
} canon_writer;

static void put(canon_writer *w, const char *s, size_t n)
{
    if (w->err != AVROGEN_OK)
        return;
    if (n + 1 > w->cap - w->len) {
        size_t cap = w->cap == 0 ? 256 : w->cap;
        while (cap - w->len < n + 1) {
            if (cap > SIZE_MAX / 2) {
                w->err = AVROGEN_E_NOMEM;
                return;
            }
            cap *= 2;
        }
        char *buf = avrogen_realloc(w->alloc, w->buf, w->cap, cap);
        if (buf == NULL) {
            w->err = AVROGEN_E_NOMEM;
            return;
        }
        w->buf = buf;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void put_str(canon_writer *w, const char *s)
{
    put(w, s, strlen(s));
}

/* Names and symbols are [A-Za-z0-9_.] only, so [STRINGS] needs no escaping. */
static void put_quoted(canon_writer *w, const char *s)
{
    put(w, "\"", 1);
    put_str(w, s);
    put(w, "\"", 1);
}

static void put_size(canon_writer *w, size_t v)
{
    char digits[24];
    size_t n = sizeof digits;
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put(w, digits + n, sizeof digits - n);
}

/*
 * Depth is bounded by the parser's nesting limit: a reference to an already
 * written named type is emitted as its fullname and never followed.
 */
static void write_node(canon_writer *w, const avrogen_node *n)
{
    if (w->err != AVROGEN_OK)
        return;
    switch (n->kind) {
    case AVROGEN_KIND_NULL:
    case AVROGEN_KIND_BOOLEAN:
    case AVROGEN_KIND_INT:
    case AVROGEN_KIND_LONG:
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_STRING:
        /* [PRIMITIVES], and [STRIP] drops logicalType and every other attribute. */
        put_quoted(w, avrogen_kind_name(n->kind));
        return;
    case AVROGEN_KIND_ARRAY:
        put_str(w, "{\"type\":\"array\",\"items\":");
        write_node(w, n->items);
        put(w, "}", 1);
        return;
    case AVROGEN_KIND_MAP:
        put_str(w, "{\"type\":\"map\",\"values\":");
        write_node(w, n->items);
        put(w, "}", 1);
        return;
    case AVROGEN_KIND_UNION:
        put(w, "[", 1);
        for (size_t i = 0; i < n->n_branches; i++) {
            if (i != 0)
                put(w, ",", 1);
            write_node(w, n->branches[i]);
        }
        put(w, "]", 1);
        return;
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ENUM:
    case AVROGEN_KIND_FIXED:
        break;
    }

    /* A named type: in full at its first occurrence, by fullname afterwards. */
    const void *seen;
    avrogen_status st = avrogen_strtab_put(&w->written, n->fullname, strlen(n->fullname), n, &seen);
    if (st != AVROGEN_OK) {
        w->err = st;
        return;
    }
    if (seen != NULL) {
        put_quoted(w, n->fullname);
        return;
    }
    /* [ORDER]: name, type, fields, symbols, items, values, size. */
    put_str(w, "{\"name\":");
    put_quoted(w, n->fullname);
    put_str(w, ",\"type\":");
    put_quoted(w, avrogen_kind_name(n->kind));
    if (n->kind == AVROGEN_KIND_RECORD) {
        put_str(w, ",\"fields\":[");
        for (size_t i = 0; i < n->n_fields; i++) {
            if (i != 0)
                put(w, ",", 1);
            put_str(w, "{\"name\":");
            put_quoted(w, n->fields[i].name);
            put_str(w, ",\"type\":");
            write_node(w, n->fields[i].type);
            put(w, "}", 1);
        }
        put(w, "]", 1);
    } else if (n->kind == AVROGEN_KIND_ENUM) {
        put_str(w, ",\"symbols\":[");
        for (size_t i = 0; i < n->n_symbols; i++) {
            if (i != 0)
                put(w, ",", 1);
            put_quoted(w, n->symbols[i]);
        }
        put(w, "]", 1);
    } else {
        /* [INTEGERS]: a plain decimal literal. */
        put_str(w, ",\"size\":");
        put_size(w, n->size);
    }
    put(w, "}", 1);
}

avrogen_status avrogen_schema_build_canonical(avrogen_schema *s)
{
    canon_writer w = {NULL, 0, 0, &s->alloc, {0}, AVROGEN_OK};
    avrogen_strtab_init(&w.written, &s->alloc);
    write_node(&w, s->root);
    avrogen_status st = w.err;
    if (st == AVROGEN_OK) {
        char *text = avrogen_arena_strndup(&s->arena, w.buf, w.len);
        if (text == NULL) {
            st = AVROGEN_E_NOMEM;
        } else {
            s->canonical = text;
            s->canonical_len = w.len;
        }
    }
    avrogen_strtab_fini(&w.written);
    avrogen_free(&s->alloc, w.buf, w.cap);
    return st;
}
