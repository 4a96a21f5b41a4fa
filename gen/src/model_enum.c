/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AVRO_ENUM: an annotated C enum becomes an Avro enum, its enumerators the
 * symbols (a shared prefix stripped, AVRO_FIELD renaming one).
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- enums ------------------------------------------------------------ */

/* The enumerator prefix shared by every name, up to and including its last
 * '_', shortened until every stripped name is a valid, non-empty Avro name. */
static size_t common_prefix(const struct cdecl *d)
{
    size_t n = strlen(d->enumerators[0].name);
    for (size_t i = 1; i < d->n_enumerators; i++) {
        const char *a = d->enumerators[0].name, *e = d->enumerators[i].name;
        size_t k = 0;
        while (k < n && a[k] == e[k])
            k++;
        n = k;
    }
    for (;;) {
        while (n > 0 && d->enumerators[0].name[n - 1] != '_')
            n--;
        if (n == 0)
            return 0;
        bool ok = true;
        for (size_t i = 0; i < d->n_enumerators && ok; i++) {
            const char *rest = d->enumerators[i].name + n;
            ok = is_avro_name(rest, strlen(rest));
        }
        if (ok)
            return n;
        n--;
    }
}

struct model_enum *create_enum(struct builder *b, const struct cdecl *d, const struct cannot *head)
{
    struct annot_options o;
    static const char *const known[] = {"name",     "namespace", "doc", "aliases",
                                        "c_prefix", "default",   NULL};
    if (!annot_parse_options(head, b->d, &o))
        return NULL;
    bool ok = check_known(b, head, &o, known, "name, namespace, doc, aliases, c_prefix, default");
    struct model_enum *e = xcalloc(1, sizeof *e);
    if (!named_options(b, d, head, &o, &e->name, &e->c_prefix) || !ok) {
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

bool fill_enum(struct builder *b, const struct cdecl *d, struct model_enum *e,
               const struct cannot *head)
{
    bool ok = true;
    size_t strip = common_prefix(d);
    for (size_t i = 0; i < d->n_enumerators; i++) {
        const struct cenumerator *en = &d->enumerators[i];
        struct member_annots ma;
        memset(&ma, 0, sizeof ma);
        ma.ok = true;
        const char *name = NULL, *doc = NULL;
        for (size_t k = 0; k < en->n_annots; k++) {
            const struct cannot *a = &en->annots[k];
            if (strcmp(a->kind, "field") != 0 || ma.field) {
                diag_error(b->d, &a->loc,
                           "enumerator '%s' takes only one AVRO_FIELD(name = ..., doc = ...)",
                           en->name);
                ok = false;
                continue;
            }
            ma.field = a;
            static const char *const known[] = {"name", "doc", NULL};
            if (!annot_parse_options(a, b->d, &ma.opts) ||
                !check_known(b, a, &ma.opts, known, "name, doc")) {
                ok = false;
                continue;
            }
            name = string_option(b, a, &ma.opts, "name", &ok);
            doc = string_option(b, a, &ma.opts, "doc", &ok);
            if (name && !is_avro_name(name, strlen(name))) {
                diag_error(b->d, &a->loc, "AVRO_FIELD: symbol \"%s\" is not a valid Avro name",
                           name);
                ok = false;
                name = NULL;
            }
        }
        e->symbols = xappend(e->symbols, e->n_symbols, sizeof *e->symbols);
        struct model_symbol *sym = &e->symbols[e->n_symbols++];
        sym->c_name = xstrdup(en->name);
        sym->avro_name = xstrdup(name ? name : en->name + strip);
        sym->value = en->value;
        sym->doc = doc ? xstrdup(doc) : en->doc ? xstrdup(en->doc) : NULL;
        sym->loc = en->loc;
        member_annots_fini(&ma);
        for (size_t j = 0; j + 1 < e->n_symbols; j++) {
            if (e->symbols[j].value == sym->value) {
                diag_error(b->d, &sym->loc,
                           "enumerators '%s' and '%s' of '%s' have the same value %lld; an Avro "
                           "enum needs one symbol per value",
                           e->symbols[j].c_name, sym->c_name, e->c_type, (long long)sym->value);
                ok = false;
            }
            if (strcmp(e->symbols[j].avro_name, sym->avro_name) == 0) {
                diag_error(b->d, &sym->loc, "enumerators '%s' and '%s' both map to symbol '%s'",
                           e->symbols[j].c_name, sym->c_name, sym->avro_name);
                ok = false;
            }
        }
    }
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
            diag_error(b->d, &head->loc, "AVRO_ENUM: default \"%s\" is not a symbol of '%s'",
                       e->default_symbol, e->name.fullname);
            ok = false;
        }
    }
    return ok;
}
