/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leaf annotations and named types: AVRO_LOGICAL / AVRO_DECIMAL /
 * AVRO_FIXED_NAME attach to the innermost type that can carry them, and the
 * fixed types they create share one namespace with records and enums.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- logical types and leaf annotations ------------------------------- */

static const struct {
    const char *name;
    avrogen_logical logical;
} logical_names[] = {
        {"date", AVROGEN_LOGICAL_DATE},
        {"time-millis", AVROGEN_LOGICAL_TIME_MILLIS},
        {"time-micros", AVROGEN_LOGICAL_TIME_MICROS},
        {"timestamp-millis", AVROGEN_LOGICAL_TIMESTAMP_MILLIS},
        {"timestamp-micros", AVROGEN_LOGICAL_TIMESTAMP_MICROS},
        {"timestamp-nanos", AVROGEN_LOGICAL_TIMESTAMP_NANOS},
        {"local-timestamp-millis", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS},
        {"local-timestamp-micros", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS},
        {"local-timestamp-nanos", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS},
        {"uuid", AVROGEN_LOGICAL_UUID},
        {"duration", AVROGEN_LOGICAL_DURATION},
};

/* Apply the AVRO_LOGICAL / AVRO_DECIMAL of `lf` to node n if n can carry it. */
void apply_leaf(const struct site *s, struct leaf *lf, struct model_type *n, const struct ctype *t)
{
    struct diag *d = s->b->d;
    if (lf->logical && !lf->logical_used) {
        char *name = annot_parse_token(lf->logical, d);
        avrogen_logical l = AVROGEN_LOGICAL_NONE;
        if (!name) {
            lf->logical_used = true;
            return;
        }
        for (size_t i = 0; i < sizeof logical_names / sizeof *logical_names; i++)
            if (strcmp(name, logical_names[i].name) == 0)
                l = logical_names[i].logical;
        if (strcmp(name, "decimal") == 0) {
            diag_error(d, &lf->logical->loc,
                       "AVRO_LOGICAL(decimal) needs a precision and scale: write "
                       "AVRO_DECIMAL(precision, scale)");
            lf->logical_used = true;
        } else if (l == AVROGEN_LOGICAL_NONE) {
            diag_error(d, &lf->logical->loc,
                       "unknown logical type '%s' (known: date, time-millis, time-micros, "
                       "timestamp-millis, timestamp-micros, timestamp-nanos, "
                       "local-timestamp-millis, local-timestamp-micros, local-timestamp-nanos, "
                       "uuid, duration; decimal is AVRO_DECIMAL)",
                       name);
            lf->logical_used = true;
        } else {
            bool fits = false;
            switch (l) {
            case AVROGEN_LOGICAL_DATE:
            case AVROGEN_LOGICAL_TIME_MILLIS:
                fits = n->kind == AVROGEN_KIND_INT && n->storage == MODEL_STORAGE_SCALAR &&
                       n->scalar == MODEL_SCALAR_I32;
                break;
            case AVROGEN_LOGICAL_UUID:
                fits = n->kind == AVROGEN_KIND_STRING ||
                       (n->kind == AVROGEN_KIND_FIXED && n->c_len == 16);
                break;
            case AVROGEN_LOGICAL_DURATION:
                fits = n->kind == AVROGEN_KIND_FIXED && n->c_len == 12;
                break;
            default: /* the long-based time types; time_t counts seconds (model_time.c) */
                fits = n->kind == AVROGEN_KIND_LONG && n->storage == MODEL_STORAGE_SCALAR &&
                       n->scalar == MODEL_SCALAR_I64 && !has_typedef(t, "time_t");
                break;
            }
            if (fits) {
                n->logical = l;
                lf->logical_used = true;
            } else if (n->kind != AVROGEN_KIND_ARRAY) {
                /* Arrays pass it on to their items; anything else is the wrong type. */
                static const char *const wants[] = {
                        [AVROGEN_LOGICAL_DATE] = "int32_t",
                        [AVROGEN_LOGICAL_TIME_MILLIS] = "int32_t",
                        [AVROGEN_LOGICAL_UUID] =
                                "char *, char[N], avrogen_str (string) or uint8_t[16] (fixed)",
                        [AVROGEN_LOGICAL_DURATION] = "uint8_t[12] (fixed)",
                };
                const char *want =
                        (size_t)l < sizeof wants / sizeof *wants && wants[l] ? wants[l] : "int64_t";
                char *tm = type_for_message(t);
                diag_error(d, &lf->logical->loc,
                           "AVRO_LOGICAL(%s) does not apply to %s '%s' of type %s; it needs %s",
                           name, s->what, s->member->name, tm, want);
                free(tm);
                lf->logical_used = true;
            }
        }
        free(name);
    }

    if (lf->decimal && !lf->decimal_used) {
        int p, sc;
        if (!annot_parse_decimal(lf->decimal, d, &p, &sc)) {
            lf->decimal_used = true;
            return;
        }
        bool scalar64 = n->storage == MODEL_STORAGE_SCALAR &&
                        (n->scalar == MODEL_SCALAR_I64 || n->scalar == MODEL_SCALAR_U64);
        bool fixed = n->kind == AVROGEN_KIND_FIXED;
        /* The unscaled value's bytes as they are on the wire, any precision. */
        bool view = n->storage == MODEL_STORAGE_BYTES_VIEW;
        if (!scalar64 && !fixed && !view) {
            if (n->kind != AVROGEN_KIND_ARRAY) {
                char *tm = type_for_message(t);
                diag_error(d, &lf->decimal->loc,
                           "AVRO_DECIMAL does not apply to %s '%s' of type %s; it needs int64_t, "
                           "uint64_t, avrogen_bytes (bytes) or uint8_t[N] (fixed)",
                           s->what, s->member->name, tm);
                free(tm);
                lf->decimal_used = true;
            }
            return;
        }
        lf->decimal_used = true;
        /* Precision caps: every value of that many digits fits the C storage, but
         * for uint64_t, whose 20 digits hold all of its values (UINT64_MAX has 20
         * digits): a 20-digit decimal above it is refused on decode. */
        int max_p = view                            ? INT_MAX
                    : n->scalar == MODEL_SCALAR_I64 ? 18
                    : n->scalar == MODEL_SCALAR_U64
                            ? 20
                            : (int)((double)(8 * n->c_len - 1) * 0.30102999566398120);
        if (p < 1 && view) {
            diag_error(d, &lf->decimal->loc,
                       "AVRO_DECIMAL(%d, %d): precision must be at least 1 (spec: a positive "
                       "integer)",
                       p, sc);
            return;
        }
        if (p < 1 || p > max_p) {
            diag_error(d, &lf->decimal->loc,
                       "AVRO_DECIMAL(%d, %d): precision must be 1..%d for %s '%s' of type '%s'", p,
                       sc, max_p, s->what, s->member->name, t->spelling);
            return;
        }
        if (sc > p) {
            diag_error(d, &lf->decimal->loc,
                       "AVRO_DECIMAL(%d, %d): the scale must not exceed the precision", p, sc);
            return;
        }
        if (!fixed)
            n->kind = AVROGEN_KIND_BYTES;
        n->u64_checked = false;
        n->logical = AVROGEN_LOGICAL_DECIMAL;
        n->precision = p;
        n->scale = sc;
    }
}

/* ---- named types ------------------------------------------------------ */

/* Report and return true when `fullname` is already taken by another named type. */
bool name_taken(struct builder *b, const char *fullname, const struct model_loc *at,
                const void *self)
{
    (void)self; /* each type comes here once, when it is made */
    size_t other;
    if (strmap_add(&b->named, fullname, (size_t)(uintptr_t)at, &other))
        return false;
    diag_error(b->d, at, "Avro name '%s' is already used by another type", fullname);
    diag_note(b->d, (const struct model_loc *)(uintptr_t)other, "'%s' is defined here", fullname);
    return true;
}

/* The options after AVRO_FIXED_NAME's name (`AVRO_FIXED_NAME(MD5, doc = "...",
 * aliases = [...], namespace = "")`) into nm; false after reporting. */
static bool fixed_options(struct builder *b, const struct cannot *a, const char *text, bool full,
                          struct model_name *nm)
{
    static const char *const known[] = {"doc", "aliases", "namespace", NULL};
    char *copy = xstrdup(text);
    struct cannot sub = {a->kind, copy, a->loc, NULL};
    struct annot_options o;
    if (!annot_parse_options(&sub, b->d, &o)) {
        free(copy);
        return false;
    }
    bool ok = check_known(b, &sub, &o, known, "doc, aliases, namespace");
    const struct annot_option *space_opt = annot_find(&o, "namespace");
    const char *ns = space_opt && space_opt->type == ANNOT_JSON_NULL
                             ? ""
                             : string_option(b, &sub, &o, "namespace", &ok);
    const char *doc = string_option(b, &sub, &o, "doc", &ok);
    if (ns && full) {
        diag_error(b->d, &a->loc,
                   "AVRO_FIXED_NAME: '%s' is already a full name; drop the namespace option",
                   nm->fullname);
        ok = false;
    } else if (ns && !is_dotted_name(ns, true)) {
        diag_error(b->d, &a->loc, "AVRO_FIXED_NAME: namespace \"%s\" is not a valid Avro namespace",
                   ns);
        ok = false;
    }
    if (ok && ns) {
        char *name = xstrdup(nm->name);
        free_name(nm);
        memset(nm, 0, sizeof *nm);
        name_set(nm, name, ns);
        nm->null_space = nm->space == NULL;
        free(name);
    }
    if (ok && doc)
        nm->doc = xstrdup(doc);
    if (ok)
        alias_option(b, &sub, &o, true, &nm->aliases, &nm->n_aliases, &ok);
    annot_options_free(&o);
    free(copy);
    return ok;
}

struct model_fixed *get_fixed(const struct site *s, struct leaf *lf, uint64_t size)
{
    struct builder *b = s->b;
    char *name = NULL;
    const char *options = NULL; /* the text after the name */
    if (lf->fixed_name) {
        lf->fixed_used = true;
        const char *text = lf->fixed_name->text;
        const char *comma = strchr(text, ',');
        if (comma) {
            struct cannot head = *lf->fixed_name;
            head.text = xstrndup(text, (size_t)(comma - text));
            name = annot_parse_token(&head, b->d);
            free(head.text);
            options = comma + 1;
        } else {
            name = annot_parse_token(lf->fixed_name, b->d);
        }
        if (name && !is_dotted_name(name, false)) {
            diag_error(b->d, &lf->fixed_name->loc,
                       "AVRO_FIXED_NAME(%s): not a valid Avro name ([A-Za-z_][A-Za-z0-9_]*, "
                       "dot-separated for a full name)",
                       name);
            free(name);
            name = NULL;
        }
    }
    if (!name)
        name = xstrdup(s->fixed_base);
    bool full = strchr(name, '.') != NULL;
    struct model_name nm = {0};
    name_set(&nm, name, s->space);
    free(name);
    if (options && !fixed_options(b, lf->fixed_name, options, full, &nm)) {
        free_name(&nm);
        return NULL;
    }
    struct model *m = b->m;
    size_t i;
    if (strmap_get(&b->fixeds, nm.fullname, &i)) {
        struct model_fixed *f = m->fixeds[i];
        struct model_loc at = member_loc(s);
        if (f->size != size) {
            diag_error(b->d, &at, "fixed '%s' has size %llu here but %llu elsewhere", nm.fullname,
                       (unsigned long long)size, (unsigned long long)f->size);
            diag_note(b->d, &f->loc, "'%s' first used here", nm.fullname);
        } else if (options &&
                   ((nm.doc == NULL) != (f->name.doc == NULL) ||
                    (nm.doc && strcmp(nm.doc, f->name.doc) != 0) ||
                    !strings_equal((const char *const *)nm.aliases, nm.n_aliases,
                                   (const char *const *)f->name.aliases, f->name.n_aliases))) {
            diag_error(b->d, &at,
                       "fixed '%s' has another doc or other aliases here than where it is "
                       "first used; give them once",
                       nm.fullname);
            diag_note(b->d, &f->loc, "'%s' first used here", nm.fullname);
        }
        free_name(&nm);
        return f;
    }
    struct model_fixed *f = xcalloc(1, sizeof *f);
    f->name = nm;
    f->size = size;
    f->loc = member_loc(s);
    name_taken(b, f->name.fullname, &f->loc, f);
    strmap_put(&b->fixeds, f->name.fullname, m->n_fixeds);
    m->fixeds = xappend(m->fixeds, m->n_fixeds, sizeof *m->fixeds);
    m->fixeds[m->n_fixeds++] = f;
    return f;
}

/* Report AVRO_LOGICAL / AVRO_DECIMAL / AVRO_FIXED_NAME that no type took. */
bool report_unused_leaf(const struct site *s, const struct leaf *lf)
{
    struct diag *d = s->b->d;
    bool ok = true;
    if (lf->logical && !lf->logical_used) {
        diag_error(d, &lf->logical->loc, "AVRO_LOGICAL(%s) does not apply to %s '%s' of type '%s'",
                   lf->logical->text, s->what, s->member->name, s->member->type->spelling);
        ok = false;
    }
    if (lf->decimal && !lf->decimal_used) {
        diag_error(d, &lf->decimal->loc,
                   "AVRO_DECIMAL does not apply to %s '%s' of type '%s'; it needs int64_t, "
                   "uint64_t, avrogen_bytes (bytes) or uint8_t[N] (fixed)",
                   s->what, s->member->name, s->member->type->spelling);
        ok = false;
    }
    if (lf->fixed_name && !lf->fixed_used) {
        diag_error(d, &lf->fixed_name->loc,
                   "AVRO_FIXED_NAME(%s) does not apply to %s '%s' of type '%s'; it names the "
                   "fixed type of a uint8_t[N] member",
                   lf->fixed_name->text, s->what, s->member->name, s->member->type->spelling);
        ok = false;
    }
    return ok;
}
