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

/* Whether `name` starts with `prefix` followed by `infix`. */
static bool starts_with2(const char *name, const char *prefix, const char *infix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && strncmp(name + n, infix, strlen(infix)) == 0;
}

/* The owner whose generated names `name` is spelled like, or NULL: P_avro_...
 * unless `macros_only`, and P_AVRO_... of a type that defines macros. */
static const struct owner *generated_like(const struct owner *o, size_t n, const char *name,
                                          bool macros_only)
{
    for (size_t i = 0; i < n; i++) {
        if (!macros_only && starts_with2(name, o[i].prefix, "_avro_"))
            return &o[i];
        if (o[i].macros && starts_with2(name, o[i].upper, "_AVRO_"))
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
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < i; k++) {
            bool same = strcmp(o[i].prefix, o[k].prefix) == 0;
            if (!same && !(o[i].macros && o[k].macros && strcmp(o[i].upper, o[k].upper) == 0))
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
            break;
        }
    }

    const struct owner *hit;
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *r = m->records[i];
        if (r->c_typedef && (hit = generated_like(o, n, r->c_typedef, false)) != NULL) {
            report_spelling(b, &r->loc, "typedef", r->c_typedef, hit);
            ok = false;
        }
        /* A member is reached as v->name: only a macro can take it. */
        for (size_t f = 0; f < r->n_fields; f++) {
            const struct model_field *fd = &r->fields[f];
            if (fd->c_name[0] && (hit = generated_like(o, n, fd->c_name, true)) != NULL) {
                report_spelling(b, &fd->loc, "member", fd->c_name, hit);
                ok = false;
            }
        }
    }
    for (size_t i = 0; i < m->n_enums; i++) {
        const struct model_enum *e = m->enums[i];
        if (e->c_typedef && (hit = generated_like(o, n, e->c_typedef, false)) != NULL) {
            report_spelling(b, &e->loc, "typedef", e->c_typedef, hit);
            ok = false;
        }
        for (size_t s = 0; s < e->n_symbols; s++) {
            const struct model_symbol *sym = &e->symbols[s];
            if ((hit = generated_like(o, n, sym->c_name, false)) != NULL) {
                report_spelling(b, &sym->loc, "enumerator", sym->c_name, hit);
                ok = false;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        free(o[i].upper);
    free(o);
    return ok;
}
