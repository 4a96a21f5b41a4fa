/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The names generated code takes (DESIGN.md, "C names"): every record and
 * enum of the model with prefix P (its c_prefix) owns the identifiers that
 * start with P_avro_ and, upper-cased, P_AVRO_ (the macro P_AVRO_FINGERPRINT).
 * A model whose names would collide there is refused here, at the declaration
 * that causes it, instead of compiling into code that quietly means something
 * else: two types with one prefix (or, for records of the header, one prefix
 * but for case), and a member, enumerator or typedef the header declares that
 * is spelled like a generated name. Identifiers the model does not know
 * (functions, other macros of the user's headers) are the user's to keep apart.
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* A type of the model as the check sees it. */
struct owner {
    const char *c_type;
    const char *prefix;
    char *upper; /* the prefix upper-cased: its macros */
    const struct model_loc *loc;
    bool macros; /* a record of the header: its .avro.h defines P_AVRO_FINGERPRINT */
};

static char *upper_dup(const char *s)
{
    char *u = xstrdup(s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

/* The prefixes of the model, each to its first owner: a name is looked up at
 * every place it holds the infix, so each check is linear in the name, not in
 * the number of types. */
struct prefixes {
    struct strmap lower; /* P -> owner index, for P_avro_... */
    struct strmap upper; /* upper-cased P of a type with macros -> owner index, P_AVRO_... */
};

/* The owner whose generated names `name` is spelled like, or NULL: P_avro_...
 * unless `macros_only`, and P_AVRO_... of a type that defines macros. */
static const struct owner *generated_like(const struct owner *o, const struct prefixes *px,
                                          const char *name, bool macros_only)
{
    size_t i;
    for (const char *at = name + 1; *at; at++) {
        if (!macros_only && strncmp(at, "_avro_", 6) == 0 &&
            strmap_getn(&px->lower, name, (size_t)(at - name), &i))
            return &o[i];
        if (strncmp(at, "_AVRO_", 6) == 0 && strmap_getn(&px->upper, name, (size_t)(at - name), &i))
            return &o[i];
    }
    return NULL;
}

static void report_spelling(struct builder *b, const struct model_loc *at, const char *what,
                            const char *name, const struct owner *o)
{
    diag_error(b->d, at,
               "%s '%s' is spelled like the names avrogen generates for %s (%s_avro_..., "
               "%s_AVRO_...), which would %s it: rename it, or give %s another prefix "
               "(c_prefix = ...)",
               what, name, o->c_type, o->prefix, o->upper,
               strcmp(what, "member") == 0 ? "rewrite" : "clash with", o->c_type);
}

bool check_generated_names(struct builder *b)
{
    const struct model *m = b->m;
    size_t n = 0;
    struct owner *o = xcalloc(m->n_records + m->n_enums + 1, sizeof *o);
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *r = m->records[i];
        o[n++] = (struct owner){r->c_type, r->c_prefix, upper_dup(r->c_prefix), &r->loc,
                                r->in_main_file};
    }
    for (size_t i = 0; i < m->n_enums; i++) {
        const struct model_enum *e = m->enums[i];
        o[n++] = (struct owner){e->c_type, e->c_prefix, upper_dup(e->c_prefix), &e->loc, false};
    }

    bool ok = true;
    struct prefixes px = {{0}, {0}};
    for (size_t i = 0; i < n; i++) {
        size_t k = 0, first;
        bool same = !strmap_add(&px.lower, o[i].prefix, i, &k);
        bool clash = same;
        if (o[i].macros && !strmap_add(&px.upper, o[i].upper, i, &first) && !clash) {
            k = first;
            clash = true;
        }
        if (!clash)
            continue;
        if (same)
            diag_error(b->d, o[i].loc,
                       "%s and %s both take the prefix '%s' for their generated names "
                       "(%s_avro_encode, ...): give one of them c_prefix = ...",
                       o[k].c_type, o[i].c_type, o[i].prefix, o[i].prefix);
        else
            diag_error(b->d, o[i].loc,
                       "%s and %s would both define the macro %s_AVRO_FINGERPRINT (their "
                       "prefixes '%s' and '%s' differ only in case): give one of them "
                       "c_prefix = ...",
                       o[k].c_type, o[i].c_type, o[i].upper, o[k].prefix, o[i].prefix);
        diag_note(b->d, o[k].loc, "%s is declared here", o[k].c_type);
        ok = false;
    }

    const struct owner *hit;
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *r = m->records[i];
        if (r->c_typedef && (hit = generated_like(o, &px, r->c_typedef, false)) != NULL) {
            report_spelling(b, &r->loc, "typedef", r->c_typedef, hit);
            ok = false;
        }
        /* A member is reached as v->name: only a macro can take it. */
        for (size_t f = 0; f < r->n_fields; f++) {
            const struct model_field *fd = &r->fields[f];
            if (fd->c_name[0] && (hit = generated_like(o, &px, fd->c_name, true)) != NULL) {
                report_spelling(b, &fd->loc, "member", fd->c_name, hit);
                ok = false;
            }
        }
    }
    for (size_t i = 0; i < m->n_enums; i++) {
        const struct model_enum *e = m->enums[i];
        if (e->c_typedef && (hit = generated_like(o, &px, e->c_typedef, false)) != NULL) {
            report_spelling(b, &e->loc, "typedef", e->c_typedef, hit);
            ok = false;
        }
        for (size_t s = 0; s < e->n_symbols; s++) {
            const struct model_symbol *sym = &e->symbols[s];
            if ((hit = generated_like(o, &px, sym->c_name, false)) != NULL) {
                report_spelling(b, &sym->loc, "enumerator", sym->c_name, hit);
                ok = false;
            }
        }
    }
    strmap_free(&px.lower);
    strmap_free(&px.upper);
    for (size_t i = 0; i < n; i++)
        free(o[i].upper);
    free(o);
    return ok;
}
