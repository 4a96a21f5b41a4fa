/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The .avsc emitter (emit_avsc.h), the only generator file that includes
 * <jansson.h>. One schema per record: every named type is defined at its first
 * use (depth first, field order) and referenced by name afterwards. Keys go in
 * STYLE.md §5's order; field objects put "name" before "type" so that a field
 * reads by its name even when its type is a long nested definition. Output is
 * JSON_INDENT(2), never sorted, newline-terminated.
 */
#include "emit_avsc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "avrogen/schema.h"

#include "genutil.h"

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
    bool ok;
};

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
    for (size_t i = 0; i < e->n_defined; i++)
        if (e->defined[i].name == n)
            return &e->defined[i];
    return NULL;
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
        json_object_set_new(o, "logicalType", jstr(names[t->logical]));
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

    for (size_t i = 0; i < m->n_records; i++) {
        struct model_record *r = m->records[i];
        struct emitter e = {d, r, NULL, 0, true};
        json_t *root = emit_record(&e, r, NULL, &r->loc);
        char *text = e.ok ? json_dumps(root, JSON_INDENT(2)) : NULL;
        json_decref(root);
        free(e.defined);
        if (!e.ok) {
            ok = false;
            continue;
        }
        if (!text) {
            diag_error(d, &r->loc, "out of memory while writing the schema of '%s'",
                       r->name.fullname);
            ok = false;
            continue;
        }
        free(r->avsc);
        r->avsc = xasprintf("%s\n", text);
        free(text);

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
    return ok ? 0 : 1;
}
