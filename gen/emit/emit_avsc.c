/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The .avsc emitter (emit_avsc.h), the only generator file that includes
 * <jansson.h>. One schema per record: every named type is defined at its first
 * use (depth first, field order) and referenced by name afterwards. Keys go in
 * STYLE.md §5's order; field objects put "name" before "type" so that a field
 * reads by its name even when its type is a long nested definition. Output is
 * indented by two spaces a level (JSON_INDENT(2)) down to INDENT_LEVELS, and no
 * further: deeper levels keep that indentation, so a chain of nested records
 * writes a schema linear in its size (issue 12: growing indentation made 100
 * chained records 37 MB). Never sorted, newline-terminated. A schema nesting
 * JSON past what parsers take (jansson's 2048 levels) is refused up front, at
 * the member where it crosses, rather than written and then unparsable.
 */
#include "emit_avsc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "avrogen/schema.h"

#include "genutil.h"
#include "textbuf.h"

/* A named type defined in the schema being built, with the namespace it got. */
struct defined {
    const struct model_name *name;
    const char *space; /* effective namespace: its own, else the enclosing one */
};

struct emitter {
    struct diag *d;
    const struct model_record *root;
    struct defined *defined;
    size_t n_defined;
    struct ptrmap index; /* model_name * -> its slot in defined */
    bool ok;
};

/* Levels of indentation; deeper ones are written at this one. */
#define INDENT_LEVELS 16

static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    if (!j) /* names are ASCII and option strings were decoded from JSON */
        j = json_stringn(s, 0);
    return j;
}

/* Text from the user's comments, which need not be UTF-8 (spec §Data Serialization:
 * JSON text, so schema strings are Unicode). */
static json_t *jtext(struct emitter *e, const char *s, const struct model_loc *at)
{
    json_t *j = json_string(s);
    if (!j) {
        diag_error(e->d, at, "doc text is not valid UTF-8; save the header as UTF-8");
        e->ok = false;
        j = json_stringn("", 0);
    }
    return j;
}

static const struct defined *find_defined(struct emitter *e, const struct model_name *n)
{
    size_t i;
    return ptrmap_get(&e->index, n, &i) ? &e->defined[i] : NULL;
}

/*
 * Record that n is defined here, inside namespace `space`. A type without a
 * namespace of its own takes the enclosing one, exactly as an unqualified
 * nested definition does in Avro JSON (spec §Names), so a header that gives
 * only its top-level record a namespace reads as the hand-written schema would;
 * `namespace = ""` (or null) keeps it in the null namespace.
 */
static const char *define(struct emitter *e, const struct model_name *n, const char *space)
{
    e->defined = xappend(e->defined, e->n_defined, sizeof *e->defined);
    ptrmap_put(&e->index, n, e->n_defined);
    e->defined[e->n_defined].name = n;
    e->defined[e->n_defined].space = n->space || n->null_space ? n->space : space;
    return e->defined[e->n_defined++].space;
}

static bool same_space(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/*
 * A reference to an already defined named type from inside namespace `space`:
 * the short name in the same namespace, else the full name. A type in the
 * null namespace cannot be named from inside another namespace, since its
 * unqualified name would resolve there.
 */
static json_t *reference(struct emitter *e, const struct defined *def, const char *space,
                         const struct model_loc *at)
{
    const char *name = def->name->name;
    if (same_space(def->space, space))
        return jstr(name);
    if (!def->space) {
        diag_error(e->d, at,
                   "'%s' is in the null namespace in the schema of '%s', which cannot refer "
                   "to it again from inside namespace '%s'; give '%s' a namespace",
                   name, e->root->name.fullname, space, name);
        e->ok = false;
        return jstr(name);
    }
    char *full = xasprintf("%s.%s", def->space, name);
    json_t *j = jstr(full);
    free(full);
    return j;
}

/* The name, namespace, doc and aliases keys of a definition inside `space`. */
static void put_name(struct emitter *e, json_t *o, const struct model_name *n, const char *space,
                     const struct model_loc *at)
{
    json_object_set_new(o, "name", jstr(n->name));
    if (n->space && !same_space(n->space, space))
        json_object_set_new(o, "namespace", jstr(n->space));
    else if (!n->space && n->null_space && space)
        json_object_set_new(o, "namespace", jstr(""));
    if (n->doc)
        json_object_set_new(o, "doc", jtext(e, n->doc, at));
    if (n->n_aliases) {
        json_t *a = json_array();
        for (size_t i = 0; i < n->n_aliases; i++)
            json_array_append_new(a, jstr(n->aliases[i]));
        json_object_set_new(o, "aliases", a);
    }
}

/* The "logicalType" of every logical type but decimal, which takes parameters. */
const char *avsc_logical_name(avrogen_logical logical)
{
    static const char *const names[] = {
            [AVROGEN_LOGICAL_UUID] = "uuid",
            [AVROGEN_LOGICAL_DATE] = "date",
            [AVROGEN_LOGICAL_TIME_MILLIS] = "time-millis",
            [AVROGEN_LOGICAL_TIME_MICROS] = "time-micros",
            [AVROGEN_LOGICAL_TIMESTAMP_MILLIS] = "timestamp-millis",
            [AVROGEN_LOGICAL_TIMESTAMP_MICROS] = "timestamp-micros",
            [AVROGEN_LOGICAL_TIMESTAMP_NANOS] = "timestamp-nanos",
            [AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS] = "local-timestamp-millis",
            [AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS] = "local-timestamp-micros",
            [AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS] = "local-timestamp-nanos",
            [AVROGEN_LOGICAL_DURATION] = "duration",
    };
    return (size_t)logical < sizeof names / sizeof *names ? names[logical] : NULL;
}

static void put_logical(json_t *o, const struct model_type *t)
{
    switch (t->logical) {
    case AVROGEN_LOGICAL_NONE:
        return;
    case AVROGEN_LOGICAL_DECIMAL:
        json_object_set_new(o, "logicalType", jstr("decimal"));
        json_object_set_new(o, "precision", json_integer(t->precision));
        json_object_set_new(o, "scale", json_integer(t->scale));
        return;
    default: {
        json_object_set_new(o, "logicalType", jstr(avsc_logical_name(t->logical)));
        return;
    }
    }
}

static json_t *emit_type(struct emitter *e, const struct model_type *t, const char *space,
                         const struct model_loc *at);

static json_t *emit_record(struct emitter *e, const struct model_record *r, const char *space,
                           const struct model_loc *at)
{
    const struct defined *def = find_defined(e, &r->name);
    if (def)
        return reference(e, def, space, at);
    const char *inner = define(e, &r->name, space);
    json_t *o = json_object();
    json_object_set_new(o, "type", jstr("record"));
    put_name(e, o, &r->name, space, &r->loc);
    json_t *fields = json_array();
    json_object_set_new(o, "fields", fields);
    for (size_t i = 0; i < r->n_fields; i++) {
        const struct model_field *f = &r->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        json_t *jf = json_object();
        json_object_set_new(jf, "name", jstr(f->avro_name));
        json_object_set_new(jf, "type", emit_type(e, f->type, inner, &f->loc));
        if (f->doc)
            json_object_set_new(jf, "doc", jtext(e, f->doc, &f->loc));
        if (f->n_aliases) {
            json_t *a = json_array();
            for (size_t k = 0; k < f->n_aliases; k++)
                json_array_append_new(a, jstr(f->aliases[k]));
            json_object_set_new(jf, "aliases", a);
        }
        if (f->default_json) {
            json_error_t err;
            json_t *dv = json_loads(f->default_json, JSON_DECODE_ANY, &err);
            if (!dv) {
                diag_error(e->d, &f->loc, "default of field '%s' cannot be represented: %s",
                           f->c_name, err.text);
                e->ok = false;
            } else {
                json_object_set_new(jf, "default", dv);
            }
        }
        if (f->has_order) {
            static const char *const orders[] = {"ascending", "descending", "ignore"};
            json_object_set_new(jf, "order", jstr(orders[f->order]));
        }
        json_array_append_new(fields, jf);
    }
    return o;
}

static json_t *emit_enum(struct emitter *e, const struct model_enum *en, const char *space,
                         const struct model_loc *at)
{
    const struct defined *def = find_defined(e, &en->name);
    if (def)
        return reference(e, def, space, at);
    define(e, &en->name, space);
    json_t *o = json_object();
    json_object_set_new(o, "type", jstr("enum"));
    put_name(e, o, &en->name, space, &en->loc);
    json_t *symbols = json_array();
    for (size_t i = 0; i < en->n_symbols; i++)
        json_array_append_new(symbols, jstr(en->symbols[i].avro_name));
    json_object_set_new(o, "symbols", symbols);
    if (en->default_symbol)
        json_object_set_new(o, "default", jstr(en->default_symbol));
    return o;
}

static json_t *emit_fixed(struct emitter *e, const struct model_type *t, const char *space,
                          const struct model_loc *at)
{
    const struct model_fixed *fx = t->fixed;
    const struct defined *def = find_defined(e, &fx->name);
    if (def)
        return reference(e, def, space, at);
    define(e, &fx->name, space);
    json_t *o = json_object();
    json_object_set_new(o, "type", jstr("fixed"));
    put_name(e, o, &fx->name, space, &fx->loc);
    json_object_set_new(o, "size", json_integer((json_int_t)fx->size));
    put_logical(o, t);
    return o;
}

static json_t *emit_type(struct emitter *e, const struct model_type *t, const char *space,
                         const struct model_loc *at)
{
    json_t *o;
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        return emit_record(e, t->record, space, at);
    case AVROGEN_KIND_ENUM:
        return emit_enum(e, t->enumeration, space, at);
    case AVROGEN_KIND_FIXED:
        /* A named type's logical type belongs to its one definition. */
        return emit_fixed(e, t, space, at);
    case AVROGEN_KIND_ARRAY:
        o = json_object();
        json_object_set_new(o, "type", jstr("array"));
        json_object_set_new(o, "items", emit_type(e, t->items, space, at));
        return o;
    case AVROGEN_KIND_MAP:
        o = json_object();
        json_object_set_new(o, "type", jstr("map"));
        json_object_set_new(o, "values", emit_type(e, t->items, space, at));
        return o;
    case AVROGEN_KIND_UNION:
        o = json_array();
        if (t->storage == MODEL_STORAGE_NULLABLE) {
            json_t *value = emit_type(e, t->items, space, at);
            if (t->null_index == 0) {
                json_array_append_new(o, jstr("null"));
                json_array_append_new(o, value);
            } else {
                json_array_append_new(o, value);
                json_array_append_new(o, jstr("null"));
            }
        } else {
            for (size_t i = 0; i < t->n_branches; i++)
                json_array_append_new(
                        o, emit_type(e, t->branches[i].type, space, &t->branches[i].loc));
        }
        return o;
    default:
        if (t->logical == AVROGEN_LOGICAL_NONE)
            return jstr(avrogen_kind_name(t->kind));
        o = json_object();
        json_object_set_new(o, "type", jstr(avrogen_kind_name(t->kind)));
        put_logical(o, t);
        return o;
    }
}

/* Named fixed types carry their logical type; two uses of one fixed name with
 * different logical types cannot both be expressed. */
static bool check_fixed_logicals(const struct model_type *t, const struct model_type **seen_t,
                                 const struct model_fixed **seen_f, size_t *n, struct diag *d,
                                 const struct model_loc *at)
{
    if (!t)
        return true;
    bool ok = true;
    if (t->fixed) {
        size_t i;
        for (i = 0; i < *n && seen_f[i] != t->fixed; i++)
            ;
        if (i == *n) {
            seen_f[*n] = t->fixed;
            seen_t[(*n)++] = t;
        } else if (seen_t[i]->logical != t->logical || seen_t[i]->precision != t->precision ||
                   seen_t[i]->scale != t->scale) {
            diag_error(d, at,
                       "fixed '%s' is used with different logical types; give one of them its "
                       "own AVRO_FIXED_NAME",
                       t->fixed->name.fullname);
            diag_note(d, &t->fixed->loc, "'%s' first used here", t->fixed->name.fullname);
            ok = false;
        }
    }
    ok = check_fixed_logicals(t->items, seen_t, seen_f, n, d, at) && ok;
    for (size_t i = 0; i < t->n_branches; i++)
        ok = check_fixed_logicals(t->branches[i].type, seen_t, seen_f, n, d, at) && ok;
    return ok;
}

/* ---- how deep the JSON goes --------------------------------------------- */

/*
 * The deepest container jansson parses (and so the runtime's schema parser,
 * whose own bound is above it): JSON_PARSER_MAX_DEPTH counts values, the
 * scalars inside the deepest container too. A schema nesting deeper is valid
 * Avro but no parser here reads it.
 */
#define MAX_JSON_DEPTH (JSON_PARSER_MAX_DEPTH - 1)

struct depth_walk {
    struct ptrmap defined;            /* named types defined so far in this schema */
    struct ptrmap defaults;           /* model_field * -> depth of its default + 1 */
    const struct model_loc *where;    /* the member where the schema first crosses */
    const struct model_field *field;  /* ... and its field, NULL at the top */
    const struct model_record *owner; /* ... and the record it is a member of */
    const struct model_record *cur;   /* the record whose fields are being walked */
};

/* Containers nested in JSON value j (0 for a scalar). */
static unsigned json_depth(const json_t *j)
{
    unsigned deepest = 0;
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) {
            unsigned d = json_depth(json_array_get(j, i));
            deepest = d > deepest ? d : deepest;
        }
        return deepest + 1;
    }
    if (json_is_object(j)) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)(uintptr_t)j, key, v)
        {
            unsigned d = json_depth(v);
            deepest = d > deepest ? d : deepest;
        }
        return deepest + 1;
    }
    return 0;
}

/* A container at JSON depth `level` at member `at`: true once past the limit. */
static bool too_deep(struct depth_walk *w, unsigned level, const struct model_loc *at,
                     const struct model_field *f)
{
    if (level > MAX_JSON_DEPTH && w->where == NULL) {
        w->where = at;
        w->field = f;
        w->owner = w->cur;
    }
    return w->where != NULL;
}

static void walk_type(struct depth_walk *w, const struct model_type *t, unsigned level,
                      const struct model_loc *at, const struct model_field *f);

/* Whether named type n is defined here (its first use): it is then, if not yet. */
static bool first_use(struct depth_walk *w, const struct model_name *n)
{
    size_t seen;
    if (ptrmap_get(&w->defined, n, &seen))
        return false;
    ptrmap_put(&w->defined, n, 1);
    return true;
}

static void walk_record(struct depth_walk *w, const struct model_record *r, unsigned level,
                        const struct model_loc *at, const struct model_field *f)
{
    if (!first_use(w, &r->name) || too_deep(w, level, at, f) ||
        too_deep(w, level + 1, at, f)) /* its object, then "fields" (or "aliases") */
        return;
    const struct model_record *outer = w->cur;
    w->cur = r;
    for (size_t i = 0; i < r->n_fields && w->where == NULL; i++) {
        const struct model_field *g = &r->fields[i];
        if (g->role != MODEL_FIELD_VALUE || too_deep(w, level + 2, &g->loc, g))
            continue;
        walk_type(w, g->type, level + 3, &g->loc, g);
        if (g->n_aliases != 0 && too_deep(w, level + 3, &g->loc, g))
            break;
        if (g->default_json != NULL) {
            size_t d;
            if (!ptrmap_get(&w->defaults, g, &d)) {
                json_t *dv = json_loads(g->default_json, JSON_DECODE_ANY, NULL);
                d = dv != NULL ? json_depth(dv) + 1 : 1;
                json_decref(dv);
                ptrmap_put(&w->defaults, g, d);
            }
            if (d > 1 && too_deep(w, level + 1 + (unsigned)d, &g->loc, g))
                break;
        }
    }
    w->cur = outer;
}

/* The JSON depth of a value of t at `level`, for the definitions it holds. */
static void walk_type(struct depth_walk *w, const struct model_type *t, unsigned level,
                      const struct model_loc *at, const struct model_field *f)
{
    if (t == NULL || w->where != NULL)
        return;
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        walk_record(w, t->record, level, at, f);
        return;
    case AVROGEN_KIND_ENUM:
        if (first_use(w, &t->enumeration->name))
            (void)(too_deep(w, level, at, f) || too_deep(w, level + 1, at, f));
        return;
    case AVROGEN_KIND_FIXED:
        if (first_use(w, &t->fixed->name))
            (void)(too_deep(w, level, at, f) ||
                   (t->fixed->name.n_aliases != 0 && too_deep(w, level + 1, at, f)));
        return;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        if (!too_deep(w, level, at, f))
            walk_type(w, t->items, level + 1, at, f);
        return;
    case AVROGEN_KIND_UNION:
        if (too_deep(w, level, at, f))
            return;
        if (t->storage == MODEL_STORAGE_NULLABLE)
            walk_type(w, t->items, level + 1, at, f);
        for (size_t i = 0; i < t->n_branches; i++)
            walk_type(w, t->branches[i].type, level + 1, &t->branches[i].loc, f);
        return;
    default:
        if (t->logical != AVROGEN_LOGICAL_NONE)
            (void)too_deep(w, level, at, f);
        return;
    }
}

/* ---- writing the JSON ---------------------------------------------------- */

/* Two spaces a level, down to INDENT_LEVELS. */
static void put_indent(struct textbuf *out, unsigned level)
{
    unsigned n = level < INDENT_LEVELS ? level : INDENT_LEVELS;
    textbuf_putc(out, '\n');
    for (unsigned i = 0; i < n; i++)
        textbuf_puts(out, "  ");
}

/* j as JSON_INDENT(2) writes it, but with indentation capped; false when out of memory. */
static bool dump(struct textbuf *out, const json_t *j, unsigned level)
{
    if (json_is_object(j)) {
        if (json_object_size(j) == 0) {
            textbuf_puts(out, "{}");
            return true;
        }
        textbuf_putc(out, '{');
        const char *key;
        json_t *v;
        bool first = true;
        json_object_foreach((json_t *)(uintptr_t)j, key, v)
        {
            if (!first)
                textbuf_putc(out, ',');
            first = false;
            put_indent(out, level + 1);
            json_t *k = json_string(key);
            char *kt = k != NULL ? json_dumps(k, JSON_ENCODE_ANY) : NULL;
            json_decref(k);
            if (kt == NULL)
                return false;
            textbuf_puts(out, kt);
            free(kt);
            textbuf_puts(out, ": ");
            if (!dump(out, v, level + 1))
                return false;
        }
        put_indent(out, level);
        textbuf_putc(out, '}');
        return true;
    }
    if (json_is_array(j)) {
        if (json_array_size(j) == 0) {
            textbuf_puts(out, "[]");
            return true;
        }
        textbuf_putc(out, '[');
        for (size_t i = 0; i < json_array_size(j); i++) {
            if (i != 0)
                textbuf_putc(out, ',');
            put_indent(out, level + 1);
            if (!dump(out, json_array_get(j, i), level + 1))
                return false;
        }
        put_indent(out, level);
        textbuf_putc(out, ']');
        return true;
    }
    /* Scalars exactly as jansson writes them (escapes, number formats). */
    char *text = json_dumps(j, JSON_ENCODE_ANY);
    if (text == NULL)
        return false;
    textbuf_puts(out, text);
    free(text);
    return true;
}

int emit_avsc(struct model *m, struct diag *d)
{
    bool ok = true;
    /* One pass over all fields for the fixed/logical consistency rule. */
    size_t cap = m->n_fixeds + 1;
    const struct model_type **seen_t = xcalloc(cap, sizeof *seen_t);
    const struct model_fixed **seen_f = xcalloc(cap, sizeof *seen_f);
    size_t n_seen = 0;
    for (size_t i = 0; i < m->n_records; i++)
        for (size_t f = 0; f < m->records[i]->n_fields; f++)
            ok = check_fixed_logicals(m->records[i]->fields[f].type, seen_t, seen_f, &n_seen, d,
                                      &m->records[i]->fields[f].loc) &&
                 ok;
    free(seen_t);
    free(seen_f);
    if (!ok)
        return 1;

    struct depth_walk w;
    memset(&w, 0, sizeof w);
    size_t too_deep_roots = 0;
    for (size_t i = 0; i < m->n_records; i++) {
        struct model_record *r = m->records[i];
        /* Check the depth before building anything: a chain of thousands of
         * records is refused in time linear in it. */
        ptrmap_clear(&w.defined);
        w.where = NULL;
        w.field = NULL;
        w.owner = w.cur = NULL;
        walk_record(&w, r, 1, &r->loc, NULL);
        if (w.where != NULL) {
            ok = false;
            /* Every record above the depth in a chain would say the same: the
             * first few, then a count. */
            if (too_deep_roots++ < 8)
                diag_error(d, w.where,
                           "the schema of '%s' nests JSON more than %d levels deep at member "
                           "'%s' of '%s' (a record in a nullable field takes 4 levels), which no "
                           "JSON parser here reads (jansson's limit): nest fewer records inside "
                           "one another",
                           r->name.fullname, MAX_JSON_DEPTH,
                           w.field != NULL ? w.field->c_name : "?",
                           w.owner != NULL ? w.owner->c_type : r->c_type);
            continue;
        }
        struct emitter e = {d, r, NULL, 0, {0}, true};
        json_t *root = emit_record(&e, r, NULL, &r->loc);
        struct textbuf text = TEXTBUF_INIT;
        bool written = e.ok && dump(&text, root, 0);
        json_decref(root);
        free(e.defined);
        ptrmap_free(&e.index);
        if (!e.ok) {
            textbuf_free(&text);
            ok = false;
            continue;
        }
        if (!written) {
            textbuf_free(&text);
            diag_error(d, &r->loc, "out of memory while writing the schema of '%s'",
                       r->name.fullname);
            ok = false;
            continue;
        }
        textbuf_putc(&text, '\n');
        free(r->avsc);
        r->avsc = xstrndup(text.data, text.len);
        textbuf_free(&text);

        avrogen_schema *s = NULL;
        avrogen_diag sd;
        memset(&sd, 0, sizeof sd);
        if (avrogen_schema_parse(r->avsc, strlen(r->avsc), NULL, &s, &sd) != AVROGEN_OK) {
            diag_error(d, &r->loc, "the schema derived for '%s' is invalid: %s%s%s",
                       r->name.fullname, sd.path, sd.path[0] ? ": " : "", sd.msg);
            ok = false;
            continue;
        }
        free(r->canonical);
        r->canonical = xstrdup(avrogen_schema_canonical(s));
        r->fingerprint = avrogen_schema_fingerprint64(s);
        avrogen_schema_free(s);
    }
    if (too_deep_roots > 8)
        diag_note(d, NULL, "%zu more records nest their schemas too deep", too_deep_roots - 8);
    ptrmap_free(&w.defined);
    ptrmap_free(&w.defaults);
    return ok ? 0 : 1;
}
