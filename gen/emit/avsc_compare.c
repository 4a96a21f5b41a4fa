/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a round trip through a header keeps (avsc_compare.h). Both walks go
 * over the parsed schema graph, named types once; defaults are compared as
 * JSON values, so "1.50" and "1.5" agree while 1 and 1.0 do not (an int and
 * a real, as jansson and the specification's JSON see them).
 */
#include "avsc_compare.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "genutil.h"

/* ---- comparing two schemas -------------------------------------------- */

struct cmp {
    const avrogen_node **seen; /* named nodes of `want` already compared */
    size_t n_seen;
    char *why;
};

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool differ(struct cmp *c, const char *path, const char *what, const char *a, const char *b)
{
    if (!c->why)
        c->why = xasprintf("%s: %s differs: %s in the schema, %s in the header's", path, what,
                           a ? a : "(none)", b ? b : "(none)");
    return false;
}

static char *aliases_text(const char *const *a, size_t n)
{
    char *s = xstrdup("[");
    for (size_t i = 0; i < n; i++) {
        char *t = xasprintf("%s%s\"%s\"", s, i ? ", " : "", a[i]);
        free(s);
        s = t;
    }
    char *t = xasprintf("%s]", s);
    free(s);
    return t;
}

static bool same_json(const char *a, const char *b)
{
    if (!a || !b)
        return !a && !b;
    if (strcmp(a, b) == 0)
        return true;
    json_t *ja = json_loads(a, JSON_DECODE_ANY, NULL);
    json_t *jb = json_loads(b, JSON_DECODE_ANY, NULL);
    bool same = ja && jb && json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return same;
}

static bool cmp_node(struct cmp *c, const avrogen_node *a, const avrogen_node *b, const char *path);

static bool cmp_named(struct cmp *c, const avrogen_node *a, const avrogen_node *b, const char *path)
{
    if (!same_str(a->doc, b->doc))
        return differ(c, path, "doc", a->doc, b->doc);
    if (!strings_equal(a->aliases, a->n_aliases, b->aliases, b->n_aliases)) {
        char *x = aliases_text(a->aliases, a->n_aliases);
        char *y = aliases_text(b->aliases, b->n_aliases);
        differ(c, path, "aliases", x, y);
        free(x);
        free(y);
        return false;
    }
    if (a->kind == AVROGEN_KIND_ENUM && a->enum_default != b->enum_default) {
        const char *x = a->enum_default >= 0 ? a->symbols[a->enum_default] : NULL;
        const char *y = b->enum_default >= 0 && (size_t)b->enum_default < b->n_symbols
                                ? b->symbols[b->enum_default]
                                : NULL;
        return differ(c, path, "enum default", x, y);
    }
    if (a->kind != AVROGEN_KIND_RECORD)
        return true;
    for (size_t i = 0; i < a->n_fields; i++) {
        const avrogen_field *fa = &a->fields[i], *fb = &b->fields[i];
        char *fpath = xasprintf("%s.%s", a->fullname, fa->name);
        bool ok = true;
        if (!same_str(fa->doc, fb->doc)) {
            ok = differ(c, fpath, "doc", fa->doc, fb->doc);
        } else if (!strings_equal(fa->aliases, fa->n_aliases, fb->aliases, fb->n_aliases)) {
            char *x = aliases_text(fa->aliases, fa->n_aliases);
            char *y = aliases_text(fb->aliases, fb->n_aliases);
            ok = differ(c, fpath, "aliases", x, y);
            free(x);
            free(y);
        } else if (!same_json(fa->default_json, fb->default_json)) {
            ok = differ(c, fpath, "default", fa->default_json, fb->default_json);
        } else if (fa->order != fb->order) {
            static const char *const orders[] = {"ascending", "descending", "ignore"};
            ok = differ(c, fpath, "order", orders[fa->order], orders[fb->order]);
        } else {
            ok = cmp_node(c, fa->type, fb->type, fpath);
        }
        free(fpath);
        if (!ok)
            return false;
    }
    return true;
}

static bool cmp_node(struct cmp *c, const avrogen_node *a, const avrogen_node *b, const char *path)
{
    /* The canonical forms agree, so kinds, names, sizes and symbols do. */
    if (a->logical != b->logical || a->precision != b->precision || a->scale != b->scale) {
        char x[64], y[64];
        snprintf(x, sizeof x, "%s(%d, %d)", a->logical_name ? a->logical_name : "none",
                 a->precision, a->scale);
        snprintf(y, sizeof y, "%s(%d, %d)", b->logical_name ? b->logical_name : "none",
                 b->precision, b->scale);
        return differ(c, path, "logical type", x, y);
    }
    if (avrogen_node_is_named(a)) {
        for (size_t i = 0; i < c->n_seen; i++)
            if (c->seen[i] == a)
                return true;
        c->seen = xappend(c->seen, c->n_seen, sizeof *c->seen);
        c->seen[c->n_seen++] = a;
        return cmp_named(c, a, b, a->fullname);
    }
    switch (a->kind) {
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        char *sub = xasprintf("%s.%s", path, a->kind == AVROGEN_KIND_ARRAY ? "items" : "values");
        bool ok = cmp_node(c, a->items, b->items, sub);
        free(sub);
        return ok;
    }
    case AVROGEN_KIND_UNION:
        for (size_t i = 0; i < a->n_branches; i++) {
            char *sub = xasprintf("%s[%zu]", path, i);
            bool ok = cmp_node(c, a->branches[i], b->branches[i], sub);
            free(sub);
            if (!ok)
                return false;
        }
        return true;
    default:
        return true;
    }
}

int avsc_compare(const avrogen_schema *want, const avrogen_schema *got, char **why)
{
    *why = NULL;
    const char *ca = avrogen_schema_canonical(want), *cb = avrogen_schema_canonical(got);
    if (strcmp(ca, cb) != 0) {
        *why = xasprintf("the Parsing Canonical Form differs:\n  schema: %s\n  header: %s", ca, cb);
        return 1;
    }
    struct cmp c = {NULL, 0, NULL};
    const avrogen_node *a = avrogen_schema_root(want);
    bool ok = cmp_node(&c, a, avrogen_schema_root(got), avrogen_node_name(a));
    free(c.seen);
    *why = c.why;
    return ok ? 0 : 1;
}

/* ---- attributes a header cannot carry --------------------------------- */

struct drop {
    void (*report)(void *ctx, const char *path, const char *what);
    void *ctx;
};

static bool in_list(const char *key, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(key, *list) == 0)
            return true;
    return false;
}

static void walk(struct drop *d, json_t *j, const avrogen_node *n, const char *path);

static void check_keys(struct drop *d, json_t *j, const avrogen_node *n, const char *path,
                       const char *const *known)
{
    const char *key;
    json_t *v;
    bool decimal = n && n->logical == AVROGEN_LOGICAL_DECIMAL;
    json_object_foreach(j, key, v)
    {
        if (in_list(key, known))
            continue;
        if (n && strcmp(key, "logicalType") == 0 && n->logical != AVROGEN_LOGICAL_NONE)
            continue;
        if (decimal && (strcmp(key, "precision") == 0 || strcmp(key, "scale") == 0))
            continue;
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        char *what = strcmp(key, "logicalType") == 0
                             ? xasprintf("logicalType %s, which the specification says to "
                                         "ignore here (it does not fit the type)",
                                         text ? text : "?")
                             : xasprintf("attribute \"%s\": %s", key, text ? text : "?");
        d->report(d->ctx, path, what);
        free(what);
        free(text);
    }
}

static void walk(struct drop *d, json_t *j, const avrogen_node *n, const char *path)
{
    static const char *const record_keys[] = {"type",    "name",   "namespace", "doc",
                                              "aliases", "fields", NULL};
    static const char *const enum_keys[] = {"type",    "name",    "namespace", "doc",
                                            "aliases", "symbols", "default",   NULL};
    static const char *const fixed_keys[] = {"type",    "name", "namespace", "doc",
                                             "aliases", "size", NULL};
    static const char *const field_keys[] = {"name",    "type",  "doc", "aliases",
                                             "default", "order", NULL};
    static const char *const array_keys[] = {"type", "items", NULL};
    static const char *const map_keys[] = {"type", "values", NULL};
    static const char *const prim_keys[] = {"type", NULL};
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j) && i < n->n_branches; i++) {
            char *sub = xasprintf("%s[%zu]", path, i);
            walk(d, json_array_get(j, i), n->branches[i], sub);
            free(sub);
        }
        return;
    }
    if (!json_is_object(j))
        return;
    json_t *type = json_object_get(j, "type");
    if (!json_is_string(type)) { /* {"type": {...}}: the type is the inner value */
        check_keys(d, j, NULL, path, prim_keys);
        char *sub = xasprintf("%s.type", path);
        walk(d, type, n, sub);
        free(sub);
        return;
    }
    switch (n->kind) {
    case AVROGEN_KIND_RECORD: {
        check_keys(d, j, n, path, record_keys);
        json_t *fields = json_object_get(j, "fields");
        for (size_t i = 0; i < json_array_size(fields) && i < n->n_fields; i++) {
            json_t *f = json_array_get(fields, i);
            char *fpath = xasprintf("%s.fields[%zu]", path, i);
            check_keys(d, f, NULL, fpath, field_keys);
            char *tpath = xasprintf("%s.type", fpath);
            walk(d, json_object_get(f, "type"), n->fields[i].type, tpath);
            free(tpath);
            free(fpath);
        }
        return;
    }
    case AVROGEN_KIND_ENUM:
        check_keys(d, j, n, path, enum_keys);
        return;
    case AVROGEN_KIND_FIXED:
        check_keys(d, j, n, path, fixed_keys);
        return;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        bool array = n->kind == AVROGEN_KIND_ARRAY;
        check_keys(d, j, n, path, array ? array_keys : map_keys);
        char *sub = xasprintf("%s.%s", path, array ? "items" : "values");
        walk(d, json_object_get(j, array ? "items" : "values"), n->items, sub);
        free(sub);
        return;
    }
    default:
        check_keys(d, j, n, path, prim_keys);
        return;
    }
}

void avsc_dropped(const char *json, size_t len, const avrogen_schema *s,
                  void (*report)(void *ctx, const char *path, const char *what), void *ctx)
{
    json_t *j = json_loadb(json, len, JSON_DECODE_ANY, NULL);
    if (!j)
        return;
    struct drop d = {report, ctx};
    walk(&d, j, avrogen_schema_root(s), "schema");
    json_decref(j);
}
