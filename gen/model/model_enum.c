/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AVRO_ENUM: an annotated C enum becomes an Avro enum, its enumerators the
 * symbols. A symbol depends on its own enumerator and the enum's options only:
 * the enumerator's name, less the prefix AVRO_ENUM(strip_prefix = "P_") states,
 * or what its AVRO_FIELD(name = ...) says. No rule looks at the other
 * enumerators, so adding or removing one never renames another.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- enums ------------------------------------------------------------ */

const struct cenumerator *find_enumerator(const struct cdecl *d, const char *name)
{
    for (size_t i = 0; i < d->n_enumerators; i++)
        if (strcmp(d->enumerators[i].name, name) == 0)
            return &d->enumerators[i];
    return NULL;
}

/* "'A', 'B' and 'C'": the Avro symbols of e, for messages. */
char *enum_symbol_list(const struct model_enum *e)
{
    char *out = NULL;
    for (size_t i = 0; i < e->n_symbols; i++)
        name_list_add(&out, i, e->n_symbols, e->symbols[i].avro_name);
    return out ? out : xstrdup("none");
}

struct model_enum *create_enum(struct builder *b, const struct cdecl *d, const struct cannot *head)
{
    struct annot_options o;
    static const char *const known[] = {"name",     "namespace", "doc",          "aliases",
                                        "c_prefix", "default",   "strip_prefix", NULL};
    if (!annot_parse_options(head, b->d, &o))
        return NULL;
    bool ok = check_known(b, head, &o, known,
                          "name, namespace, doc, aliases, c_prefix, default, strip_prefix");
    const char *strip = string_option(b, head, &o, "strip_prefix", &ok);
    if (strip && !is_avro_name(strip, strlen(strip))) {
        diag_error(b->d, &head->loc, "%s: strip_prefix \"%s\" is not the start of a C identifier",
                   annot_macro(head->kind), strip);
        ok = false;
    }
    struct model_enum *e = xcalloc(1, sizeof *e);
    if (!named_options(b, d, head, &o, NULL, NULL, &e->name, &e->c_prefix) || !ok) {
        free_name(&e->name);
        free(e->c_prefix);
        free(e);
        annot_options_free(&o);
        return NULL;
    }
    const char *def = string_option(b, head, &o, "default", &ok);
    e->default_symbol = def ? xstrdup(def) : NULL;
    e->c_tag = d->tag ? xstrdup(d->tag) : NULL;
    e->c_typedef = d->typedef_name ? xstrdup(d->typedef_name) : NULL;
    e->c_type = c_type_of(d);
    e->c_size = d->enum_size;
    e->scalar = int_scalar(d->enum_size, d->enum_signed);
    e->loc = d->loc;
    e->in_main_file = d->in_main_file;
    annot_options_free(&o);
    return e;
}

/* The AVRO_FIELD on enumerator `en`, in place or out of line, or NULL; more
 * than one, or any other annotation, is reported. */
static const struct cannot *enumerator_field(struct builder *b, const struct cdecl *d,
                                             const struct cenumerator *en, bool *ok)
{
    const struct cannot *field = NULL;
    for (size_t i = 0; i <= b->u->n_markers; i++) {
        const struct cannot *v = en->annots;
        size_t n = en->n_annots;
        if (i < b->u->n_markers) {
            const struct cmarker *mk = &b->u->markers[i];
            if (mk->kind != CMARKER_FIELD || mk->target != d || strcmp(mk->member, en->name) != 0)
                continue;
            v = mk->annots;
            n = mk->n_annots;
        }
        for (size_t k = 0; k < n; k++) {
            if (strcmp(v[k].kind, "field") != 0 || field) {
                diag_error(b->d, &v[k].loc,
                           "enumerator '%s' takes only one AVRO_FIELD(name = ..., doc = ...)",
                           en->name);
                *ok = false;
                continue;
            }
            field = &v[k];
        }
    }
    return field;
}

/* Where the AVRO_FIELD that names a symbol goes, for enum d annotated by `head`. */
static char *symbol_fix(const struct cdecl *d, const struct cannot *head, const char *c_name)
{
    if (strcmp(head->kind, "extern_enum") == 0) {
        char *type = decl_name(d);
        char *fix = xasprintf("AVRO_EXTERN_FIELD(%s, %s, AVRO_FIELD(name = \"%s\"))", type, c_name,
                              c_name);
        free(type);
        return fix;
    }
    return xasprintf("%s AVRO_FIELD(name = \"%s\")", c_name, c_name);
}

/* The symbol of enumerator `en` when no AVRO_FIELD names it: its name less
 * `strip` (NULL: as written); NULL after reporting why there is none. */
static const char *default_symbol(struct builder *b, const struct cdecl *d,
                                  const struct cannot *head, const struct cenumerator *en,
                                  const char *strip)
{
    size_t n = strip ? strlen(strip) : 0;
    const char *rest = en->name + n;
    if (strip && strncmp(en->name, strip, n) != 0) {
        char *fix = symbol_fix(d, head, en->name);
        diag_error(b->d, &en->loc,
                   "enumerator '%s' does not start with \"%s\", the prefix %s strips; name its "
                   "symbol: %s",
                   en->name, strip, annot_macro(head->kind), fix);
        free(fix);
        return NULL;
    }
    if (!is_avro_name(rest, strlen(rest))) {
        char *fix = symbol_fix(d, head, en->name);
        if (strip)
            diag_error(b->d, &en->loc,
                       "enumerator '%s' less the prefix \"%s\" is \"%s\", which is not a valid "
                       "Avro name; name its symbol: %s",
                       en->name, strip, rest, fix);
        else
            diag_error(b->d, &en->loc,
                       "enumerator '%s' is not a valid Avro name; name its symbol: %s", en->name,
                       fix);
        free(fix);
        return NULL;
    }
    return rest;
}

struct valued {
    int64_t value;
    size_t index;
};

static int valued_cmp(const void *pa, const void *pb)
{
    const struct valued *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* One symbol per value: each enumerator whose value an earlier one has is
 * reported against the first (sorted, not compared pairwise: an enum of
 * 100,000 enumerators took seconds). */
static bool distinct_values(struct builder *b, const struct model_enum *e)
{
    bool ok = true;
    struct valued *v = xcalloc(e->n_symbols ? e->n_symbols : 1, sizeof *v);
    for (size_t i = 0; i < e->n_symbols; i++)
        v[i] = (struct valued){e->symbols[i].value, i};
    qsort(v, e->n_symbols, sizeof *v, valued_cmp);
    for (size_t i = 1, first = 0; i < e->n_symbols; i++) {
        if (v[i].value != v[first].value) {
            first = i;
            continue;
        }
        const struct model_symbol *a = &e->symbols[v[first].index], *sym = &e->symbols[v[i].index];
        diag_error(b->d, &sym->loc,
                   "enumerators '%s' and '%s' of '%s' have the same value %lld; an Avro "
                   "enum needs one symbol per value",
                   a->c_name, sym->c_name, e->c_type, (long long)sym->value);
        ok = false;
    }
    free(v);
    return ok;
}

bool fill_enum(struct builder *b, const struct cdecl *d, struct model_enum *e,
               const struct cannot *head)
{
    bool ok = true;
    struct strmap seen = {0}; /* Avro symbol -> the index of the first one */
    struct annot_options head_opts;
    const char *strip = NULL;
    if (annot_parse_options(head, b->d, &head_opts)) {
        const struct annot_option *o = annot_find(&head_opts, "strip_prefix");
        strip = o && o->type == ANNOT_JSON_STRING ? o->str : NULL;
    }
    for (size_t i = 0; i < d->n_enumerators; i++) {
        const struct cenumerator *en = &d->enumerators[i];
        struct annot_options opts = {NULL, 0};
        const char *name = NULL, *doc = NULL;
        const struct cannot *a = enumerator_field(b, d, en, &ok);
        static const char *const known[] = {"name", "doc", NULL};
        if (a && annot_parse_options(a, b->d, &opts) &&
            check_known(b, a, &opts, known, "name, doc")) {
            name = string_option(b, a, &opts, "name", &ok);
            doc = string_option(b, a, &opts, "doc", &ok);
            if (name && !is_avro_name(name, strlen(name))) {
                diag_error(b->d, &a->loc, "AVRO_FIELD: symbol \"%s\" is not a valid Avro name",
                           name);
                ok = false;
                name = NULL;
            }
        } else if (a) {
            ok = false;
        }
        const char *symbol = name ? name : default_symbol(b, d, head, en, strip);
        if (!symbol) {
            ok = false;
            symbol = en->name; /* keeps the checks below going */
        }
        e->symbols = xappend(e->symbols, e->n_symbols, sizeof *e->symbols);
        struct model_symbol *sym = &e->symbols[e->n_symbols++];
        sym->c_name = xstrdup(en->name);
        sym->avro_name = xstrdup(symbol);
        sym->value = en->value;
        sym->doc = doc ? xstrdup(doc) : en->doc ? xstrdup(en->doc) : NULL;
        sym->loc = en->loc;
        annot_options_free(&opts);
        size_t j;
        if (!strmap_add(&seen, sym->avro_name, e->n_symbols - 1, &j)) {
            diag_error(b->d, &sym->loc, "enumerators '%s' and '%s' both map to symbol '%s'",
                       e->symbols[j].c_name, sym->c_name, sym->avro_name);
            ok = false;
        }
    }
    annot_options_free(&head_opts);
    strmap_free(&seen);
    ok = distinct_values(b, e) && ok;
    e->dense = true;
    e->first_value = e->n_symbols ? e->symbols[0].value : 0;
    for (size_t i = 1; i < e->n_symbols; i++)
        if (e->symbols[i].value != e->symbols[i - 1].value + 1)
            e->dense = false;
    if (e->default_symbol) {
        bool found = false;
        for (size_t i = 0; i < e->n_symbols; i++)
            found = found || strcmp(e->symbols[i].avro_name, e->default_symbol) == 0;
        if (!found) {
            char *symbols = enum_symbol_list(e);
            diag_error(b->d, &head->loc,
                       "%s: default \"%s\" is not a symbol of '%s'; its symbols are %s",
                       annot_macro(head->kind), e->default_symbol, e->name.fullname, symbols);
            free(symbols);
            ok = false;
        }
    }
    return ok;
}
