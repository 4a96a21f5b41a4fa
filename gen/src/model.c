/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model builder: turns the C facts of a header (parse.h) into the model
 * (model.h), applying the C → Avro mapping of DESIGN.md and every rule about
 * annotations. Each problem is reported with the position of the member or
 * annotation at fault and the annotation that would fix it; building goes on
 * after an error so that one run reports everything. It does not emit JSON
 * (emit_avsc.c) and does not talk to libclang (clang_parse.c).
 */
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "genutil.h"
#include "parse.h"

/* ---- names and small helpers ----------------------------------------- */

static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* spec §Names: [A-Za-z_][A-Za-z0-9_]* */
static bool is_avro_name(const char *s, size_t n)
{
    if (n == 0 || !is_name_start(s[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!is_name_char(s[i]))
            return false;
    return true;
}

/* Names separated by dots; "" is the null namespace when allow_empty. */
static bool is_dotted_name(const char *s, bool allow_empty)
{
    if (!*s)
        return allow_empty;
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (!is_avro_name(s, n))
            return false;
        if (!dot)
            return true;
        s = dot + 1;
    }
}

static const char *scalar_names[] = {
        [MODEL_SCALAR_NONE] = "void",    [MODEL_SCALAR_BOOL] = "bool",
        [MODEL_SCALAR_I8] = "int8_t",    [MODEL_SCALAR_I16] = "int16_t",
        [MODEL_SCALAR_I32] = "int32_t",  [MODEL_SCALAR_I64] = "int64_t",
        [MODEL_SCALAR_U8] = "uint8_t",   [MODEL_SCALAR_U16] = "uint16_t",
        [MODEL_SCALAR_U32] = "uint32_t", [MODEL_SCALAR_U64] = "uint64_t",
        [MODEL_SCALAR_FLOAT] = "float",  [MODEL_SCALAR_DOUBLE] = "double",
};

const char *model_scalar_c_name(enum model_scalar s)
{
    return (size_t)s < sizeof scalar_names / sizeof *scalar_names ? scalar_names[s] : "?";
}

const char *model_storage_name(enum model_storage s)
{
    static const char *names[] = {
            [MODEL_STORAGE_NONE] = "NONE",           [MODEL_STORAGE_SCALAR] = "SCALAR",
            [MODEL_STORAGE_CSTRING] = "CSTRING",     [MODEL_STORAGE_CHAR_ARRAY] = "CHAR_ARRAY",
            [MODEL_STORAGE_STR_VIEW] = "STR_VIEW",   [MODEL_STORAGE_BYTES_VIEW] = "BYTES_VIEW",
            [MODEL_STORAGE_PTR_COUNT] = "PTR_COUNT", [MODEL_STORAGE_C_ARRAY] = "C_ARRAY",
            [MODEL_STORAGE_STRUCT] = "STRUCT",       [MODEL_STORAGE_ENUM] = "ENUM",
            [MODEL_STORAGE_NULLABLE] = "NULLABLE",   [MODEL_STORAGE_TAGGED] = "TAGGED",
    };
    return (size_t)s < sizeof names / sizeof *names ? names[s] : "?";
}

static enum model_scalar int_scalar(uint64_t size, bool is_signed)
{
    switch (size) {
    case 1:
        return is_signed ? MODEL_SCALAR_I8 : MODEL_SCALAR_U8;
    case 2:
        return is_signed ? MODEL_SCALAR_I16 : MODEL_SCALAR_U16;
    case 4:
        return is_signed ? MODEL_SCALAR_I32 : MODEL_SCALAR_U32;
    case 8:
        return is_signed ? MODEL_SCALAR_I64 : MODEL_SCALAR_U64;
    default:
        return MODEL_SCALAR_NONE;
    }
}

/* The fixed-width name in a typedef chain ("int64_t"), or NULL. */
static enum model_scalar stdint_scalar(const struct ctype *t)
{
    static const struct {
        const char *name;
        enum model_scalar s;
    } names[] = {
            {"int8_t", MODEL_SCALAR_I8},    {"int16_t", MODEL_SCALAR_I16},
            {"int32_t", MODEL_SCALAR_I32},  {"int64_t", MODEL_SCALAR_I64},
            {"uint8_t", MODEL_SCALAR_U8},   {"uint16_t", MODEL_SCALAR_U16},
            {"uint32_t", MODEL_SCALAR_U32}, {"uint64_t", MODEL_SCALAR_U64},
    };
    for (size_t i = 0; i < t->n_typedefs; i++)
        for (size_t j = 0; j < sizeof names / sizeof *names; j++)
            if (strcmp(t->typedefs[i], names[j].name) == 0)
                return names[j].s;
    return MODEL_SCALAR_NONE;
}

static bool has_typedef(const struct ctype *t, const char *name)
{
    for (size_t i = 0; i < t->n_typedefs; i++)
        if (strcmp(t->typedefs[i], name) == 0)
            return true;
    return false;
}

static bool is_view(const struct ctype *t, const char *name)
{
    return t->kind == CTYPE_STRUCT &&
           (has_typedef(t, name) || (t->decl->tag && strcmp(t->decl->tag, name) == 0));
}

/* A member decode could not assign: const itself, or an array of const. */
static bool is_const_storage(const struct ctype *t)
{
    return t->is_const || (t->kind == CTYPE_ARRAY && is_const_storage(t->elem));
}

/* "'size_t' ('unsigned long')" or "'long'": a C type for messages. */
static char *type_for_message(const struct ctype *t)
{
    if (strcmp(t->spelling, t->canonical) == 0)
        return xasprintf("'%s'", t->spelling);
    return xasprintf("'%s' ('%s')", t->spelling, t->canonical);
}

/* "order_t", "struct order", "union (anonymous)": a declaration for messages. */
static char *decl_name(const struct cdecl *d)
{
    if (d->typedef_name)
        return xstrdup(d->typedef_name);
    return xasprintf("%s %s",
                     d->kind == CDECL_ENUM    ? "enum"
                     : d->kind == CDECL_UNION ? "union"
                                              : "struct",
                     d->tag ? d->tag : "(anonymous)");
}

/* ---- the builder's state --------------------------------------------- */

/* What an annotated declaration becomes. Indexed by cdecl.order. */
struct decl_info {
    const struct cannot *head; /* AVRO_RECORD / AVRO_ENUM (in place or out of line) */
    struct model_record *record;
    struct model_enum *enumeration;
};

struct builder {
    struct cunit *u;
    struct diag *d;
    struct model *m;
    struct decl_info *info;
    const struct cdecl **entries; /* map entry structs being mapped, innermost last */
    size_t n_entries;
};

/* Every annotation on one member, sorted by kind. */
struct member_annots {
    const struct cannot *field, *nullable, *skip, *array, *map, *uni;
    const struct cannot *logical, *decimal, *fixed_name;
    struct annot_options opts; /* of `field`, parsed */
    bool ok;                   /* no annotation was malformed */
    bool type_used;            /* AVRO_FIELD(type = "long") selected a uint64_t mapping */
};

/* Annotations that attach to the innermost type that can carry them, so that
 * `int64_t *ts AVRO_ARRAY(n) AVRO_LOGICAL(timestamp-micros)` types the items. */
struct leaf {
    const struct cannot *logical, *decimal, *fixed_name;
    bool logical_used, decimal_used, fixed_used;
};

/* Where a type is being mapped, for messages and default names. */
struct site {
    struct builder *b;
    const struct cdecl *owner; /* the struct holding the member */
    const struct cmember *member;
    const char *what;       /* "field", "union member", "map entry member" */
    const char *fixed_base; /* default name of a fixed: "<Record>_<field>" */
    const char *space;      /* namespace for default fixed names */
    struct member_annots *ma;
};

/* The count or tag member that AVRO_ARRAY / AVRO_MAP / AVRO_UNION on a member
 * names, once claimed; all NULL when there is none. Generated code stores into
 * it, so it needs the C type as well as the name: a cast to the integer type
 * would not convert to an enum in C++. */
struct sibling {
    char *name;
    char *c_type; /* as declared: "size_t", "enum kind", "kind_t" */
    enum model_scalar scalar;
};

static void sibling_fini(struct sibling *sib)
{
    free(sib->name);
    free(sib->c_type);
    sib->name = sib->c_type = NULL;
}

static struct model_loc member_loc(const struct site *s)
{
    return s->member->loc;
}

static struct model_type *new_type(avrogen_kind kind, enum model_storage storage,
                                   const struct ctype *t)
{
    struct model_type *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->storage = storage;
    n->c_type = xstrdup(t ? t->spelling : "");
    return n;
}

static void free_type(struct model_type *t);

static void free_name(struct model_name *n)
{
    free(n->name);
    free(n->space);
    free(n->fullname);
    free(n->doc);
    for (size_t i = 0; i < n->n_aliases; i++)
        free(n->aliases[i]);
    free(n->aliases);
}

static void free_type(struct model_type *t)
{
    if (!t)
        return;
    free(t->c_type);
    free_type(t->items);
    free_type(t->map_key);
    free(t->entry_c_type);
    free(t->count_c_name);
    free(t->count_c_type);
    free(t->tag_c_name);
    free(t->tag_c_type);
    for (size_t i = 0; i < t->n_branches; i++) {
        free(t->branches[i].c_name);
        free_type(t->branches[i].type);
    }
    free(t->branches);
    free(t);
}

/* ---- member annotations ---------------------------------------------- */

static const struct cannot **slot_for(struct member_annots *ma, const char *kind)
{
    if (strcmp(kind, "field") == 0)
        return &ma->field;
    if (strcmp(kind, "nullable") == 0)
        return &ma->nullable;
    if (strcmp(kind, "skip") == 0)
        return &ma->skip;
    if (strcmp(kind, "array") == 0)
        return &ma->array;
    if (strcmp(kind, "map") == 0)
        return &ma->map;
    if (strcmp(kind, "union") == 0)
        return &ma->uni;
    if (strcmp(kind, "logical") == 0)
        return &ma->logical;
    if (strcmp(kind, "decimal") == 0)
        return &ma->decimal;
    if (strcmp(kind, "fixed_name") == 0)
        return &ma->fixed_name;
    return NULL;
}

static void add_member_annots(struct builder *b, struct member_annots *ma, const struct cannot *v,
                              size_t n, const char *member, bool quiet)
{
    for (size_t i = 0; i < n; i++) {
        const struct cannot **slot = slot_for(ma, v[i].kind);
        if (quiet) {
            if (slot && !*slot)
                *slot = &v[i];
        } else if (!slot) {
            const char *macro = annot_macro(v[i].kind);
            if (strcmp(v[i].kind, "record") == 0 || strcmp(v[i].kind, "enum") == 0)
                diag_error(b->d, &v[i].loc,
                           "%s() on member '%s': it belongs between '%s' and the tag of the "
                           "type's definition",
                           macro, member, strcmp(v[i].kind, "record") == 0 ? "struct" : "enum");
            else
                diag_error(b->d, &v[i].loc, "%s cannot annotate member '%s'", macro, member);
            ma->ok = false;
        } else if (*slot) {
            diag_error(b->d, &v[i].loc, "%s given twice on member '%s'", annot_macro(v[i].kind),
                       member);
            diag_note(b->d, &(*slot)->loc, "first given here");
            ma->ok = false;
        } else {
            *slot = &v[i];
        }
    }
}

/*
 * The annotations of member `m` of `owner`, in place and out of line. `quiet`
 * only sorts them (for a first look at the shapes), leaving every report and
 * the parsing of AVRO_FIELD's options to the one full pass over the member.
 */
static void member_annots_init(struct builder *b, struct member_annots *ma,
                               const struct cdecl *owner, const struct cmember *m, bool quiet)
{
    memset(ma, 0, sizeof *ma);
    ma->ok = true;
    add_member_annots(b, ma, m->annots, m->n_annots, m->name, quiet);
    for (size_t i = 0; i < b->u->n_markers; i++) {
        const struct cmarker *mk = &b->u->markers[i];
        if (mk->kind == CMARKER_FIELD && mk->target == owner && strcmp(mk->member, m->name) == 0)
            add_member_annots(b, ma, mk->annots, mk->n_annots, m->name, quiet);
    }
    if (!quiet && ma->field && !annot_parse_options(ma->field, b->d, &ma->opts))
        ma->ok = false;
}

static void member_annots_fini(struct member_annots *ma)
{
    annot_options_free(&ma->opts);
}

static bool member_is_annotated(struct builder *b, const struct cdecl *owner,
                                const struct cmember *m)
{
    if (m->n_annots)
        return true;
    for (size_t i = 0; i < b->u->n_markers; i++) {
        const struct cmarker *mk = &b->u->markers[i];
        if (mk->kind == CMARKER_FIELD && mk->target == owner && strcmp(mk->member, m->name) == 0)
            return true;
    }
    return false;
}

static const struct cmember *find_member(const struct cdecl *d, const char *name, size_t *index)
{
    for (size_t i = 0; i < d->n_members; i++) {
        if (strcmp(d->members[i].name, name) == 0) {
            if (index)
                *index = i;
            return &d->members[i];
        }
    }
    return NULL;
}

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
static void apply_leaf(const struct site *s, struct leaf *lf, struct model_type *n,
                       const struct ctype *t)
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
            default: /* the long-based time types */
                fits = n->kind == AVROGEN_KIND_LONG && n->storage == MODEL_STORAGE_SCALAR &&
                       n->scalar == MODEL_SCALAR_I64;
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
        if (!scalar64 && !fixed) {
            if (n->kind != AVROGEN_KIND_ARRAY) {
                char *tm = type_for_message(t);
                diag_error(d, &lf->decimal->loc,
                           "AVRO_DECIMAL does not apply to %s '%s' of type %s; it needs int64_t, "
                           "uint64_t (bytes) or uint8_t[N] (fixed)",
                           s->what, s->member->name, tm);
                free(tm);
                lf->decimal_used = true;
            }
            return;
        }
        lf->decimal_used = true;
        /* Precision caps: every value of that many digits must fit the C storage. */
        int max_p = n->scalar == MODEL_SCALAR_I64 ? 18
                    : n->scalar == MODEL_SCALAR_U64
                            ? 19
                            : (int)((double)(8 * n->c_len - 1) * 0.30102999566398120);
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
        n->logical = AVROGEN_LOGICAL_DECIMAL;
        n->precision = p;
        n->scale = sc;
    }
}

/* ---- named types ------------------------------------------------------ */

static void name_set(struct model_name *n, const char *name, const char *space)
{
    const char *dot = strrchr(name, '.');
    if (dot) {
        n->space = xstrndup(name, (size_t)(dot - name));
        n->name = xstrdup(dot + 1);
    } else {
        n->name = xstrdup(name);
        n->space = space && *space ? xstrdup(space) : NULL;
    }
    n->fullname = n->space ? xasprintf("%s.%s", n->space, n->name) : xstrdup(n->name);
}

/* Report and return true when `fullname` is already taken by another named type. */
static bool name_taken(struct builder *b, const char *fullname, const struct model_loc *at,
                       const void *self)
{
    struct model *m = b->m;
    const struct model_loc *other = NULL;
    for (size_t i = 0; i < m->n_records && !other; i++)
        if (m->records[i] != self && strcmp(m->records[i]->name.fullname, fullname) == 0)
            other = &m->records[i]->loc;
    for (size_t i = 0; i < m->n_enums && !other; i++)
        if (m->enums[i] != self && strcmp(m->enums[i]->name.fullname, fullname) == 0)
            other = &m->enums[i]->loc;
    for (size_t i = 0; i < m->n_fixeds && !other; i++)
        if (m->fixeds[i] != self && strcmp(m->fixeds[i]->name.fullname, fullname) == 0)
            other = &m->fixeds[i]->loc;
    if (!other)
        return false;
    diag_error(b->d, at, "Avro name '%s' is already used by another type", fullname);
    diag_note(b->d, other, "'%s' is defined here", fullname);
    return true;
}

static struct model_fixed *get_fixed(const struct site *s, struct leaf *lf, uint64_t size)
{
    struct builder *b = s->b;
    char *name = NULL;
    if (lf->fixed_name) {
        lf->fixed_used = true;
        name = annot_parse_token(lf->fixed_name, b->d);
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
    struct model_name nm = {0};
    name_set(&nm, name, s->space);
    free(name);
    struct model *m = b->m;
    for (size_t i = 0; i < m->n_fixeds; i++) {
        struct model_fixed *f = m->fixeds[i];
        if (strcmp(f->name.fullname, nm.fullname) == 0) {
            if (f->size != size) {
                struct model_loc at = member_loc(s);
                diag_error(b->d, &at, "fixed '%s' has size %llu here but %llu elsewhere",
                           nm.fullname, (unsigned long long)size, (unsigned long long)f->size);
                diag_note(b->d, &f->loc, "'%s' first used here", nm.fullname);
            }
            free_name(&nm);
            return f;
        }
    }
    struct model_fixed *f = xcalloc(1, sizeof *f);
    f->name = nm;
    f->size = size;
    f->loc = member_loc(s);
    name_taken(b, f->name.fullname, &f->loc, f);
    m->fixeds = xappend(m->fixeds, m->n_fixeds, sizeof *m->fixeds);
    m->fixeds[m->n_fixeds++] = f;
    return f;
}

/* ---- the C → Avro mapping --------------------------------------------- */

static struct model_type *map_value(const struct site *s, const struct ctype *t, struct leaf *lf,
                                    bool top);

static void error_unannotated(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    const struct cdecl *decl = t->decl;
    bool is_enum = decl->kind == CDECL_ENUM;
    if (decl->in_system_header || !decl->complete) {
        diag_error(b->d, &at,
                   "%s '%s' has type '%s', which has no Avro mapping; AVRO_SKIP it, or use a "
                   "type of your own annotated with %s",
                   s->what, s->member->name, t->spelling,
                   is_enum ? "AVRO_ENUM()" : "AVRO_RECORD()");
        return;
    }
    diag_error(b->d, &at,
               "%s '%s' has type '%s', which is not annotated; add %s to its definition (or "
               "AVRO_EXTERN_%s)",
               s->what, s->member->name, t->spelling, is_enum ? "AVRO_ENUM()" : "AVRO_RECORD()",
               is_enum ? "ENUM" : "RECORD");
    diag_note(b->d, &decl->loc, "'%s' is defined here", t->spelling);
}

/* A `size_t n_x` next to an unannotated `T *x` is most likely its count. */
static void note_uncounted_pointer(const struct site *s)
{
    const struct cdecl *owner = s->owner;
    if (s->member->type->is_signed)
        return;
    for (size_t i = 0; i < owner->n_members; i++) {
        const struct cmember *m = &owner->members[i];
        const struct ctype *t = m->type;
        if (t->kind != CTYPE_POINTER || (t->elem->kind == CTYPE_INT && t->elem->is_plain_char) ||
            member_is_annotated(s->b, owner, m))
            continue;
        diag_note(s->b->d, &m->loc,
                  "if '%s' counts the elements of '%s', annotate '%s' AVRO_ARRAY(%s)",
                  s->member->name, m->name, m->name, s->member->name);
        return;
    }
}

static struct model_type *map_integer(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    enum model_scalar sc = stdint_scalar(t);
    if (sc == MODEL_SCALAR_NONE) {
        if (t->is_long) {
            char *tm = type_for_message(t);
            diag_error(b->d, &at,
                       "%s '%s' has type %s, whose size differs between platforms; use %s instead",
                       s->what, s->member->name, tm,
                       t->is_signed ? "int32_t or int64_t" : "uint32_t or uint64_t");
            free(tm);
            note_uncounted_pointer(s);
            return NULL;
        }
        sc = int_scalar(t->size, t->is_signed);
    }
    const struct annot_option *type_opt = s->ma ? annot_find(&s->ma->opts, "type") : NULL;
    struct model_type *n = new_type(AVROGEN_KIND_INT, MODEL_STORAGE_SCALAR, t);
    n->scalar = sc;
    switch (sc) {
    case MODEL_SCALAR_I8:
    case MODEL_SCALAR_I16:
    case MODEL_SCALAR_I32:
    case MODEL_SCALAR_U8:
    case MODEL_SCALAR_U16:
        n->kind = AVROGEN_KIND_INT;
        break;
    case MODEL_SCALAR_I64:
    case MODEL_SCALAR_U32:
        n->kind = AVROGEN_KIND_LONG;
        break;
    case MODEL_SCALAR_U64:
        n->kind = AVROGEN_KIND_LONG;
        if (type_opt && type_opt->str && strcmp(type_opt->str, "long") == 0) {
            s->ma->type_used = true;
            break;
        }
        if (s->ma && s->ma->decimal)
            break; /* apply_leaf turns it into bytes + decimal */
        diag_error(b->d, &at,
                   "%s '%s' is '%s': Avro's long cannot hold values above INT64_MAX; choose "
                   "AVRO_FIELD(type = \"long\") (the same 64 bits, read back as signed by other "
                   "readers) or AVRO_DECIMAL(19, 0) (exact, as bytes)",
                   s->what, s->member->name, t->spelling);
        free_type(n);
        return NULL;
    default:
        diag_error(b->d, &at, "%s '%s' has type '%s' of unsupported size %llu", s->what,
                   s->member->name, t->spelling, (unsigned long long)t->size);
        free_type(n);
        return NULL;
    }
    return n;
}

static struct model_type *map_tagged_union(const struct site *s, const struct ctype *t);
static struct model_type *map_map(const struct site *s, const struct ctype *t);
static bool report_unused_leaf(const struct site *s, const struct leaf *lf);
static struct model_type *map_member(struct builder *b, const struct cdecl *owner, size_t idx,
                                     struct member_annots *ma, const char *what,
                                     const char *fixed_base, const char *space,
                                     struct sibling *sib);

/* A pointer member, not nullable: string, or count-sized bytes / array / map. */
static struct model_type *map_pointer(const struct site *s, const struct ctype *t, struct leaf *lf,
                                      bool top)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    const struct ctype *e = t->elem;
    const struct cannot *count = top && s->ma ? (s->ma->array ? s->ma->array : s->ma->map) : NULL;

    if (e->kind == CTYPE_FUNCTION) {
        diag_error(b->d, &at,
                   "%s '%s' is a function pointer, which cannot be serialized; AVRO_SKIP it",
                   s->what, s->member->name);
        return NULL;
    }
    if (count && s->ma->map)
        return map_map(s, t);
    if (count) {
        if (e->kind == CTYPE_VOID) {
            diag_error(b->d, &at,
                       "%s '%s' points to void; declare it 'uint8_t *' for bytes or point to the "
                       "element type for an array",
                       s->what, s->member->name);
            return NULL;
        }
        struct model_type *n;
        if (e->kind == CTYPE_INT && e->is_char && !(e->is_signed && !e->is_plain_char)) {
            n = new_type(AVROGEN_KIND_BYTES, MODEL_STORAGE_PTR_COUNT, t);
            n->scalar = int_scalar(1, e->is_signed);
        } else {
            struct site sub = *s;
            struct model_type *items = map_value(&sub, e, lf, false);
            if (!items)
                return NULL;
            n = new_type(AVROGEN_KIND_ARRAY, MODEL_STORAGE_PTR_COUNT, t);
            n->items = items;
        }
        return n;
    }
    if (e->kind == CTYPE_INT && e->is_plain_char) {
        struct model_type *n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_CSTRING, t);
        apply_leaf(s, lf, n, t);
        return n;
    }
    if (e->kind == CTYPE_VOID) {
        diag_error(b->d, &at,
                   "%s '%s' is a 'void *', which cannot be serialized; AVRO_SKIP it, or use "
                   "avrogen_bytes or 'uint8_t *' with AVRO_ARRAY(count_field)",
                   s->what, s->member->name);
        return NULL;
    }
    if (!top) {
        diag_error(b->d, &at,
                   "%s '%s' nests a pointer of type '%s'; inside an array or union only 'char *' "
                   "(a string) may be a pointer",
                   s->what, s->member->name, t->spelling);
        return NULL;
    }
    if ((e->kind == CTYPE_STRUCT || e->kind == CTYPE_UNION || e->kind == CTYPE_ENUM) &&
        (e->decl->in_system_header || !e->decl->complete) && !is_view(e, "avrogen_str") &&
        !is_view(e, "avrogen_bytes")) {
        diag_error(b->d, &at,
                   "%s '%s' is a pointer to '%s', which has no Avro mapping; AVRO_SKIP it", s->what,
                   s->member->name, e->spelling);
        return NULL;
    }
    diag_error(b->d, &at,
               "%s '%s' is a pointer; annotate it AVRO_ARRAY(count_field) or AVRO_NULLABLE",
               s->what, s->member->name);
    return NULL;
}

/*
 * Map the C type t of the member at s. `top` is true for the member itself
 * (where AVRO_ARRAY / AVRO_MAP apply) and false for items and pointees.
 */
static struct model_type *map_value(const struct site *s, const struct ctype *t, struct leaf *lf,
                                    bool top)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    struct model_type *n = NULL;
    if (top && s->ma && (s->ma->array || s->ma->map) && t->kind != CTYPE_POINTER) {
        const struct cannot *a = s->ma->array ? s->ma->array : s->ma->map;
        if (t->kind == CTYPE_ARRAY)
            diag_error(b->d, &a->loc,
                       "%s applies to pointers; '%s' is a C array, which maps to an Avro array "
                       "of exactly %llu items without annotation",
                       annot_macro(a->kind), s->member->name, (unsigned long long)t->len);
        else
            diag_error(b->d, &a->loc, "%s applies to pointers; '%s' has type '%s'",
                       annot_macro(a->kind), s->member->name, t->spelling);
        return NULL;
    }

    if (top && s->ma && s->ma->uni && t->kind != CTYPE_UNION) {
        diag_error(b->d, &s->ma->uni->loc,
                   "AVRO_UNION applies to a member of C union type; '%s' has type '%s'",
                   s->member->name, t->spelling);
        return NULL;
    }

    switch (t->kind) {
    case CTYPE_BOOL:
        n = new_type(AVROGEN_KIND_BOOLEAN, MODEL_STORAGE_SCALAR, t);
        n->scalar = MODEL_SCALAR_BOOL;
        break;
    case CTYPE_INT:
        n = map_integer(s, t);
        break;
    case CTYPE_FLOAT:
        n = new_type(AVROGEN_KIND_FLOAT, MODEL_STORAGE_SCALAR, t);
        n->scalar = MODEL_SCALAR_FLOAT;
        break;
    case CTYPE_DOUBLE:
        n = new_type(AVROGEN_KIND_DOUBLE, MODEL_STORAGE_SCALAR, t);
        n->scalar = MODEL_SCALAR_DOUBLE;
        break;
    case CTYPE_LONG_DOUBLE:
        diag_error(b->d, &at, "%s '%s' is a long double, which Avro cannot hold; use double",
                   s->what, s->member->name);
        return NULL;
    case CTYPE_POINTER:
        return map_pointer(s, t, lf, top);
    case CTYPE_ARRAY: {
        const struct ctype *e = t->elem;
        if (t->len == 0) {
            diag_error(b->d, &at, "%s '%s' is a zero-length array", s->what, s->member->name);
            return NULL;
        }
        if (e->kind == CTYPE_INT && e->is_plain_char) {
            n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_CHAR_ARRAY, t);
            n->c_len = t->len;
        } else if (e->kind == CTYPE_INT && e->is_char && !e->is_signed) {
            n = new_type(AVROGEN_KIND_FIXED, MODEL_STORAGE_C_ARRAY, t);
            n->scalar = MODEL_SCALAR_U8;
            n->c_len = t->len;
            n->fixed = get_fixed(s, lf, t->len);
        } else {
            struct model_type *items = map_value(s, e, lf, false);
            if (!items)
                return NULL;
            n = new_type(AVROGEN_KIND_ARRAY, MODEL_STORAGE_C_ARRAY, t);
            n->c_len = t->len;
            n->items = items;
        }
        break;
    }
    case CTYPE_FLEX_ARRAY:
        diag_error(b->d, &at,
                   "%s '%s' is a flexible array member; use a pointer with "
                   "AVRO_ARRAY(count_field)",
                   s->what, s->member->name);
        return NULL;
    case CTYPE_STRUCT:
        if (is_view(t, "avrogen_str")) {
            n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_STR_VIEW, t);
        } else if (is_view(t, "avrogen_bytes")) {
            n = new_type(AVROGEN_KIND_BYTES, MODEL_STORAGE_BYTES_VIEW, t);
        } else if (b->info[t->decl->order].record) {
            n = new_type(AVROGEN_KIND_RECORD, MODEL_STORAGE_STRUCT, t);
            n->record = b->info[t->decl->order].record;
        } else if (b->info[t->decl->order].head) {
            return NULL; /* annotated, but its annotation was reported as wrong */
        } else {
            error_unannotated(s, t);
            return NULL;
        }
        break;
    case CTYPE_ENUM:
        if (!b->info[t->decl->order].enumeration) {
            if (!b->info[t->decl->order].head)
                error_unannotated(s, t);
            return NULL;
        }
        n = new_type(AVROGEN_KIND_ENUM, MODEL_STORAGE_ENUM, t);
        n->enumeration = b->info[t->decl->order].enumeration;
        n->scalar = n->enumeration->scalar;
        break;
    case CTYPE_UNION:
        if (top && s->ma && s->ma->uni)
            return map_tagged_union(s, t);
        if (top)
            diag_error(b->d, &at,
                       "%s '%s' is a C union; annotate it AVRO_UNION(tag_field), naming the "
                       "member that says which union member is set",
                       s->what, s->member->name);
        else
            diag_error(b->d, &at,
                       "%s '%s': items of union type '%s' cannot be serialized (a union needs "
                       "its own tag member)",
                       s->what, s->member->name, t->spelling);
        return NULL;
    case CTYPE_FUNCTION:
        diag_error(b->d, &at, "%s '%s' is a function, which cannot be serialized", s->what,
                   s->member->name);
        return NULL;
    case CTYPE_VOID:
    case CTYPE_OTHER:
    default:
        diag_error(b->d, &at, "%s '%s' has type '%s', which has no Avro mapping; AVRO_SKIP it",
                   s->what, s->member->name, t->spelling);
        return NULL;
    }
    if (n)
        apply_leaf(s, lf, n, t);
    return n;
}

static struct model_type *map_nullable(const struct site *s, const struct ctype *t, struct leaf *lf)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    struct model_type *items;
    enum model_null_via via = MODEL_NULL_VIA_SELF;
    bool counted = s->ma->array || s->ma->map;

    if (t->kind == CTYPE_POINTER &&
        (counted || (t->elem->kind == CTYPE_INT && t->elem->is_plain_char))) {
        items = map_pointer(s, t, lf, true);
    } else if (t->kind == CTYPE_POINTER) {
        const struct ctype *e = t->elem;
        if (e->kind == CTYPE_FUNCTION || e->kind == CTYPE_VOID)
            return map_pointer(s, t, lf, true);
        if (e->kind == CTYPE_POINTER) {
            diag_error(b->d, &at,
                       "%s '%s' is a pointer to a pointer; AVRO_NULLABLE takes one pointer to "
                       "the value",
                       s->what, s->member->name);
            return NULL;
        }
        via = MODEL_NULL_VIA_PTR;
        items = map_value(s, e, lf, false);
    } else if (is_view(t, "avrogen_str") || is_view(t, "avrogen_bytes")) {
        items = map_value(s, t, lf, true);
    } else {
        char *tm = type_for_message(t);
        diag_error(b->d, &at,
                   "AVRO_NULLABLE needs a pointer: %s '%s' has type %s; declare it '%s *%s' "
                   "(NULL is null)",
                   s->what, s->member->name, tm, t->spelling, s->member->name);
        free(tm);
        return NULL;
    }
    if (!items)
        return NULL;
    if (items->kind == AVROGEN_KIND_UNION) {
        diag_error(b->d, &at, "%s '%s': AVRO_NULLABLE cannot wrap a union", s->what,
                   s->member->name);
        free_type(items);
        return NULL;
    }
    struct model_type *n = new_type(AVROGEN_KIND_UNION, MODEL_STORAGE_NULLABLE, t);
    n->null_via = via;
    n->items = items;
    return n;
}

/* The key of an Avro union branch for the "each type once" rule (spec §Unions). */
static const char *branch_key(const struct model_type *t)
{
    if (t->record)
        return t->record->name.fullname;
    if (t->enumeration)
        return t->enumeration->name.fullname;
    if (t->fixed)
        return t->fixed->name.fullname;
    return avrogen_kind_name(t->kind);
}

/* AVRO_UNION(tag): union member i ↔ tag value i ↔ Avro branch i. */
static struct model_type *map_tagged_union(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    const struct cdecl *u = t->decl;
    struct model_type *n = new_type(AVROGEN_KIND_UNION, MODEL_STORAGE_TAGGED, t);
    bool ok = true;
    if (!u->complete || u->n_members == 0) {
        struct model_loc at = member_loc(s);
        diag_error(b->d, &at, "%s '%s': union '%s' has no members", s->what, s->member->name,
                   t->spelling);
        free_type(n);
        return NULL;
    }
    for (size_t i = 0; i < u->n_members; i++) {
        const struct cmember *um = &u->members[i];
        struct member_annots ma;
        member_annots_init(b, &ma, u, um, false);
        char *base = xasprintf("%s_%s", s->fixed_base, um->name);
        struct site sub = {b, u, um, "union member", base, s->space, &ma};
        struct leaf lf = {ma.logical, ma.decimal, ma.fixed_name, false, false, false};
        struct model_type *bt = NULL;
        const struct annot_option *type_opt = annot_find(&ma.opts, "type");
        bool member_ok = true;
        if (!ma.ok) {
            member_ok = false;
        } else if (ma.nullable || ma.skip || ma.array || ma.map || ma.uni) {
            const struct cannot *a = ma.nullable ? ma.nullable
                                     : ma.skip   ? ma.skip
                                     : ma.array  ? ma.array
                                     : ma.map    ? ma.map
                                                 : ma.uni;
            diag_error(b->d, &a->loc,
                       "%s cannot annotate union member '%s': a branch is a plain value (use "
                       "AVRO_FIELD(type = \"null\") for a null branch)",
                       annot_macro(a->kind), um->name);
            member_ok = false;
        } else if (type_opt && type_opt->str && strcmp(type_opt->str, "null") == 0) {
            bt = new_type(AVROGEN_KIND_NULL, MODEL_STORAGE_NONE, um->type);
        } else {
            for (size_t k = 0; k < ma.opts.n; k++) {
                if (strcmp(ma.opts.v[k].key, "type") != 0 || !type_opt->str ||
                    strcmp(type_opt->str, "long") != 0) {
                    diag_error(b->d, &ma.field->loc,
                               "AVRO_FIELD on union member '%s' takes only type = \"null\" (or "
                               "\"long\" on uint64_t)",
                               um->name);
                    member_ok = false;
                    break;
                }
            }
            if (member_ok)
                bt = map_value(&sub, um->type, &lf, false);
            if (!bt) {
                member_ok = false;
            } else if (type_opt && !ma.type_used) {
                diag_error(b->d, &ma.field->loc,
                           "AVRO_FIELD(type = %s) does not apply to union member '%s' of type "
                           "'%s'",
                           type_opt->json, um->name, um->type->spelling);
                member_ok = false;
            }
        }
        if (bt) {
            const char *key = branch_key(bt);
            for (size_t j = 0; j < n->n_branches; j++) {
                if (strcmp(branch_key(n->branches[j].type), key) == 0) {
                    diag_error(b->d, &um->loc,
                               "union member '%s' maps to Avro '%s' like member '%s'; an Avro "
                               "union holds each type once",
                               um->name, key, n->branches[j].c_name);
                    member_ok = false;
                }
            }
            if (!report_unused_leaf(&sub, &lf))
                member_ok = false;
        }
        ok = ok && member_ok;
        n->branches = xappend(n->branches, n->n_branches, sizeof *n->branches);
        struct model_branch *br = &n->branches[n->n_branches++];
        br->c_name = xstrdup(um->name);
        br->type = bt;
        br->loc = um->loc;
        free(base);
        member_annots_fini(&ma);
    }
    if (!ok) {
        free_type(n);
        return NULL;
    }
    return n;
}

/* ---- members of a struct: fields, map entries ------------------------- */

/* Roles decided before mapping: which members count or tag which. */
struct roles {
    enum model_field_role *role;
    size_t *serves;
};

/*
 * Check the count or tag member named by `a` (AVRO_ARRAY / AVRO_MAP / AVRO_UNION
 * on member `self` of `owner`) and claim it: its role in r, its name and type
 * in *sib. *sib stays empty after reporting why it cannot serve.
 */
static void claim_sibling(struct builder *b, const struct cdecl *owner, size_t self,
                          const struct cannot *a, struct roles *r, struct sibling *sib)
{
    bool is_tag = strcmp(a->kind, "union") == 0;
    char *name = annot_parse_identifier(a, b->d);
    if (!name)
        return;
    const char *macro = annot_macro(a->kind);
    const char *self_name = owner->members[self].name;
    size_t idx;
    const struct cmember *named = find_member(owner, name, &idx);
    if (!named) {
        char *owner_name = decl_name(owner);
        diag_error(b->d, &a->loc, "%s(%s): '%s' has no member '%s'", macro, name, owner_name, name);
        free(owner_name);
        goto out_fail;
    }
    if (idx == self) {
        diag_error(b->d, &a->loc, "%s(%s) names the member it annotates", macro, name);
        goto out_fail;
    }
    const struct ctype *st = named->type;
    bool integer = st->kind == CTYPE_INT || (is_tag && st->kind == CTYPE_ENUM);
    if (!integer || named->is_bitfield || st->is_const) {
        diag_error(b->d, &a->loc, "%s(%s): member '%s' has type '%s'; the %s must be %s", macro,
                   name, name, st->spelling, is_tag ? "tag" : "count",
                   named->is_bitfield || st->is_const
                           ? "a full, writable integer member (no bit-field, no const)"
                   : is_tag ? "an integer or enum member"
                            : "an integer member");
        diag_note(b->d, &named->loc, "'%s' is declared here", name);
        goto out_fail;
    }
    if (r->role[idx] != MODEL_FIELD_VALUE) {
        diag_error(b->d, &a->loc, "%s(%s): '%s' already %s member '%s'", macro, name, name,
                   r->role[idx] == MODEL_FIELD_TAG ? "tags" : "counts",
                   owner->members[r->serves[idx]].name);
        goto out_fail;
    }
    if (member_is_annotated(b, owner, named)) {
        diag_error(b->d, &named->loc,
                   "member '%s' is the %s of '%s' and is not serialized itself; remove its "
                   "annotations",
                   name, is_tag ? "tag" : "count", self_name);
        goto out_fail;
    }
    r->role[idx] = is_tag ? MODEL_FIELD_TAG : MODEL_FIELD_COUNT;
    r->serves[idx] = self;
    /* Decoding stores the tag with a cast to its type (C++ converts no
     * integer to an enum implicitly), and `enum { ... } kind;` leaves that
     * type without a name to cast to. The member is claimed all the same, so
     * that it is not reported again as a field or a stray entry member. */
    if (st->kind == CTYPE_ENUM && !st->decl->tag && st->n_typedefs == 0) {
        diag_error(b->d, &a->loc,
                   "%s(%s): the tag '%s' has an unnamed enum type, which generated code cannot "
                   "name; give the enum a tag or a typedef name (or make the tag an integer)",
                   macro, name, name);
        diag_note(b->d, &named->loc, "'%s' is declared here", name);
        goto out_fail;
    }
    sib->name = name;
    sib->c_type = xstrdup(st->spelling);
    if (st->kind == CTYPE_ENUM)
        sib->scalar = int_scalar(st->decl->enum_size, st->decl->enum_signed);
    else
        sib->scalar = int_scalar(st->size, st->is_signed);
    return;

out_fail:
    free(name);
}

/* Claim every count and tag member of `owner`: sib[i] for member i. */
static void assign_roles(struct builder *b, const struct cdecl *owner, struct roles *r,
                         struct sibling *sib)
{
    for (size_t i = 0; i < owner->n_members; i++) {
        r->role[i] = MODEL_FIELD_VALUE;
        sib[i] = (struct sibling){NULL, NULL, MODEL_SCALAR_NONE};
    }
    for (size_t i = 0; i < owner->n_members; i++) {
        const struct cmember *m = &owner->members[i];
        struct member_annots ma;
        if (!m->name[0])
            continue;
        member_annots_init(b, &ma, owner, m, true);
        const struct cannot *a = ma.array ? ma.array : ma.map ? ma.map : ma.uni;
        if ((ma.array != NULL) + (ma.map != NULL) + (ma.uni != NULL) > 1) {
            diag_error(b->d, &a->loc,
                       "member '%s' takes one of AVRO_ARRAY, AVRO_MAP and AVRO_UNION", m->name);
        } else if (a && !ma.skip) {
            claim_sibling(b, owner, i, a, r, &sib[i]);
        }
        member_annots_fini(&ma);
    }
}

/* A map: `struct e *f AVRO_MAP(n)`, e having members key and value. */
static struct model_type *map_map(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    const struct ctype *e = t->elem;
    struct model_loc at = member_loc(s);
    if (e->kind != CTYPE_STRUCT || !e->decl->complete) {
        diag_error(b->d, &s->ma->map->loc,
                   "AVRO_MAP needs a pointer to entry structs with members 'key' and 'value'; "
                   "'%s' points to '%s'",
                   s->member->name, e->spelling);
        return NULL;
    }
    const struct cdecl *ed = e->decl;
    size_t ki = 0, vi = 0;
    for (size_t i = 0; i < b->n_entries; i++) {
        if (b->entries[i] == ed) {
            diag_error(b->d, &at,
                       "%s '%s': map entry '%s' contains itself; Avro needs a named record for "
                       "recursion",
                       s->what, s->member->name, e->spelling);
            return NULL;
        }
    }
    const struct cmember *km = find_member(ed, "key", &ki);
    const struct cmember *vm = find_member(ed, "value", &vi);
    if (!km || !vm) {
        diag_error(b->d, &at, "%s '%s': map entry '%s' needs members 'key' and 'value'", s->what,
                   s->member->name, e->spelling);
        diag_note(b->d, &ed->loc, "'%s' is defined here", e->spelling);
        return NULL;
    }

    size_t n = ed->n_members;
    enum model_field_role *role = xcalloc(n, sizeof *role);
    size_t *serves = xcalloc(n, sizeof *serves);
    struct sibling *sib = xcalloc(n, sizeof *sib);
    struct roles r = {role, serves};
    unsigned errors = b->d->errors;
    assign_roles(b, ed, &r, sib);
    for (size_t i = 0; i < n; i++) {
        if (i != ki && i != vi && !(role[i] != MODEL_FIELD_VALUE && serves[i] == vi)) {
            diag_error(b->d, &ed->members[i].loc,
                       "map entry '%s' may only have members 'key' and 'value' (and the count "
                       "or tag of 'value'); '%s' is neither",
                       e->spelling, ed->members[i].name);
        }
    }

    struct member_annots kma, vma;
    member_annots_init(b, &kma, ed, km, false);
    member_annots_init(b, &vma, ed, vm, false);
    struct model_type *key = NULL, *value = NULL;
    const struct cannot *bad = kma.field   ? kma.field
                               : kma.skip  ? kma.skip
                               : vma.field ? vma.field
                                           : vma.skip;
    if (bad) {
        diag_error(b->d, &bad->loc, "%s has no effect on a map entry's key or value",
                   annot_macro(bad->kind));
    } else if (kma.ok && vma.ok) {
        b->entries = xappend(b->entries, b->n_entries, sizeof *b->entries);
        b->entries[b->n_entries++] = ed;
        char *vbase = xasprintf("%s_value", s->fixed_base);
        key = map_member(b, ed, ki, &kma, "map key", s->fixed_base, s->space, &sib[ki]);
        value = map_member(b, ed, vi, &vma, "map value", vbase, s->space, &sib[vi]);
        free(vbase);
        b->n_entries--;
        if (key && (key->kind != AVROGEN_KIND_STRING || key->logical != AVROGEN_LOGICAL_NONE)) {
            diag_error(b->d, &km->loc,
                       "map key 'key' of '%s' must be a plain string: char *, char[N] or "
                       "avrogen_str (Avro map keys are strings)",
                       e->spelling);
        }
    }
    member_annots_fini(&kma);
    member_annots_fini(&vma);
    for (size_t i = 0; i < n; i++)
        sibling_fini(&sib[i]);
    free(sib);
    free(role);
    free(serves);
    if (!key || !value || b->d->errors != errors) {
        free_type(key);
        free_type(value);
        return NULL;
    }
    struct model_type *m = new_type(AVROGEN_KIND_MAP, MODEL_STORAGE_PTR_COUNT, t);
    m->map_key = key;
    m->items = value;
    m->entry_c_type = xstrdup(e->spelling);
    return m;
}

/* Report AVRO_LOGICAL / AVRO_DECIMAL / AVRO_FIXED_NAME that no type took. */
static bool report_unused_leaf(const struct site *s, const struct leaf *lf)
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
                   "uint64_t (bytes) or uint8_t[N] (fixed)",
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

/*
 * Map member `idx` of `owner` (a record or a map entry), whose count or tag
 * member, if any, assign_roles claimed into *sib: its strings move into the
 * type, and *sib is left empty either way. NULL after reporting any problem.
 */
static struct model_type *map_member(struct builder *b, const struct cdecl *owner, size_t idx,
                                     struct member_annots *ma, const char *what,
                                     const char *fixed_base, const char *space, struct sibling *sib)
{
    const struct cmember *m = &owner->members[idx];
    struct site s = {b, owner, m, what, fixed_base, space, ma};
    struct leaf lf = {ma->logical, ma->decimal, ma->fixed_name, false, false, false};
    struct model_type *t = NULL;
    bool counted = ma->array || ma->map || ma->uni;

    if (m->is_bitfield) {
        diag_error(b->d, &m->loc,
                   "%s '%s' is a bit-field, which Avro cannot address; make it a full integer "
                   "member (e.g. uint8_t), or AVRO_SKIP it",
                   what, m->name);
        goto out;
    }
    if (is_const_storage(m->type)) {
        diag_error(b->d, &m->loc,
                   "%s '%s' has const type '%s', which decoding cannot write; drop the const "
                   "(or AVRO_SKIP it)",
                   what, m->name, m->type->spelling);
        goto out;
    }
    if (counted && !sib->name)
        goto out; /* the count or tag was already reported */
    if (ma->nullable)
        t = map_nullable(&s, m->type, &lf);
    else
        t = map_value(&s, m->type, &lf, true);
    if (!t)
        goto out;

    struct model_type *c = t->storage == MODEL_STORAGE_NULLABLE ? t->items : t;
    if (c->storage == MODEL_STORAGE_PTR_COUNT) {
        c->count_c_name = sib->name;
        c->count_c_type = sib->c_type;
        c->count_scalar = sib->scalar;
        sib->name = sib->c_type = NULL;
    } else if (c->storage == MODEL_STORAGE_TAGGED) {
        c->tag_c_name = sib->name;
        c->tag_c_type = sib->c_type;
        c->tag_scalar = sib->scalar;
        sib->name = sib->c_type = NULL;
    }
    if (!report_unused_leaf(&s, &lf)) {
        free_type(t);
        t = NULL;
        goto out;
    }
    const struct annot_option *type_opt = annot_find(&ma->opts, "type");
    if (type_opt && !ma->type_used) {
        diag_error(b->d, &ma->field->loc,
                   "AVRO_FIELD(type = %s) does not apply to %s '%s' of type '%s'; it selects "
                   "\"long\" for uint64_t, or \"null\" for a member of an AVRO_UNION",
                   type_opt->json, what, m->name, m->type->spelling);
        free_type(t);
        t = NULL;
    }
out:
    sibling_fini(sib);
    return t;
}

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

static void scalar_range(enum model_scalar s, long long *lo, long long *hi)
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
        scalar_range(t->scalar, &lo, &hi);
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

/* Check AVRO_FIELD(default = ...) against the field's type; for a nullable
 * field a non-null default puts "null" second (the spec matches a union's
 * default against its first branch). */
static bool check_default(struct builder *b, const struct model_field *f,
                          const struct member_annots *ma, struct model_type *t)
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
    const char *p;  /* cursor into the compact default JSON */
    char path[160]; /* where in the default: "", ".code", "[2].name" */
    char why[240];  /* the first problem, once found */
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

/* A string at a CSTRING or CHAR_ARRAY location (also a map key). */
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
    if (nul)
        return fit_fail(f, "%s holds a NUL byte, which the NUL-terminated '%s' cannot", lit,
                        t->c_type);
    if (t->storage == MODEL_STORAGE_CHAR_ARRAY && bytes >= t->c_len)
        return fit_fail(f, "%s is %zu bytes, but '%s' holds at most %llu", lit, bytes, t->c_type,
                        (unsigned long long)t->c_len - 1);
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
    if (t->storage == MODEL_STORAGE_PTR_COUNT && count > count_max(t->count_scalar))
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
    scalar_range(t->scalar, &lo, &hi);
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
        if (c == '"')
            return fit_text(f, t);
        break;
    case MODEL_STORAGE_C_ARRAY:
    case MODEL_STORAGE_PTR_COUNT:
        if (c == '[' && t->kind == AVROGEN_KIND_ARRAY)
            return fit_array(f, t, depth);
        if (c == '{' && t->kind == AVROGEN_KIND_MAP)
            return fit_map(f, t, depth);
        if (c == '"') { /* bytes or fixed: one byte per code point */
            char lit[64];
            size_t n;
            free(fit_string(f, &n, lit, sizeof lit));
            if (t->storage == MODEL_STORAGE_C_ARRAY && n != t->c_len)
                return fit_fail(f, "%s is %zu bytes, but '%s' holds exactly %llu", lit, n,
                                t->c_type, (unsigned long long)t->c_len);
            if (t->storage == MODEL_STORAGE_PTR_COUNT && n > count_max(t->count_scalar))
                return fit_fail(f,
                                "%s is %zu bytes, but its count member '%s' (%s) holds at "
                                "most %llu",
                                lit, n, t->count_c_name, t->count_c_type,
                                count_max(t->count_scalar));
            return true;
        }
        break;
    case MODEL_STORAGE_STRUCT:
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
static bool check_default_fit(struct builder *b)
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
            ok = false;
        }
    }
    return ok;
}

/* ---- options ---------------------------------------------------------- */

static bool check_known(struct builder *b, const struct cannot *a, const struct annot_options *o,
                        const char *const *known, const char *list)
{
    bool ok = true;
    for (size_t i = 0; i < o->n; i++) {
        bool found = false;
        for (const char *const *k = known; *k; k++)
            found = found || strcmp(o->v[i].key, *k) == 0;
        if (!found) {
            diag_error(b->d, &a->loc, "%s: unknown option '%s' (known: %s)", annot_macro(a->kind),
                       o->v[i].key, list);
            ok = false;
        }
    }
    return ok;
}

/* The string option `key`, or NULL (absent or reported). */
static const char *string_option(struct builder *b, const struct cannot *a,
                                 const struct annot_options *o, const char *key, bool *ok)
{
    const struct annot_option *v = annot_find(o, key);
    if (!v)
        return NULL;
    if (v->type != ANNOT_JSON_STRING) {
        diag_error(b->d, &a->loc, "%s: option '%s' must be a JSON string, not %s",
                   annot_macro(a->kind), key, v->json);
        *ok = false;
        return NULL;
    }
    return v->str;
}

/* aliases = ["a", "ns.b"]: copied into *out; `dotted` allows full names. */
static void alias_option(struct builder *b, const struct cannot *a, const struct annot_options *o,
                         bool dotted, char ***out, size_t *n, bool *ok)
{
    const struct annot_option *v = annot_find(o, "aliases");
    if (!v)
        return;
    if (v->type != ANNOT_JSON_ARRAY || !v->all_strings) {
        diag_error(b->d, &a->loc, "%s: option 'aliases' must be a JSON array of strings, not %s",
                   annot_macro(a->kind), v->json);
        *ok = false;
        return;
    }
    for (size_t i = 0; i < v->n_strs; i++) {
        const char *s = v->strs[i];
        if (dotted ? !is_dotted_name(s, false) : !is_avro_name(s, strlen(s))) {
            diag_error(b->d, &a->loc, "%s: alias \"%s\" is not a valid Avro name",
                       annot_macro(a->kind), s);
            *ok = false;
            continue;
        }
        *out = xappend(*out, *n, sizeof **out);
        (*out)[(*n)++] = xstrdup(s);
    }
}

/* Fill name/namespace/doc/aliases of a record or enum from its head annotation. */
static bool named_options(struct builder *b, const struct cdecl *d, const struct cannot *head,
                          const struct annot_options *o, struct model_name *nm, char **c_prefix)
{
    bool ok = true;
    const char *name = string_option(b, head, o, "name", &ok);
    const char *space = string_option(b, head, o, "namespace", &ok);
    const char *doc = string_option(b, head, o, "doc", &ok);
    const char *prefix = string_option(b, head, o, "c_prefix", &ok);
    const struct annot_option *space_opt = annot_find(o, "namespace");
    if (space_opt && space_opt->type == ANNOT_JSON_NULL) {
        ok = true; /* namespace = null: the null namespace, as in Avro JSON */
        space = "";
    }
    const char *what = d->kind == CDECL_ENUM ? "enum" : "struct";
    if (name && !is_dotted_name(name, false)) {
        diag_error(b->d, &head->loc, "%s: name \"%s\" is not a valid Avro name",
                   annot_macro(head->kind), name);
        ok = false;
    }
    if (name && strchr(name, '.') && space) {
        diag_error(b->d, &head->loc,
                   "%s: name \"%s\" is already a full name; drop the namespace option",
                   annot_macro(head->kind), name);
        ok = false;
    }
    if (space && !is_dotted_name(space, true)) {
        diag_error(b->d, &head->loc, "%s: namespace \"%s\" is not a valid Avro namespace",
                   annot_macro(head->kind), space);
        ok = false;
    }
    if (prefix && !is_avro_name(prefix, strlen(prefix))) {
        diag_error(b->d, &head->loc, "%s: c_prefix \"%s\" is not a C identifier",
                   annot_macro(head->kind), prefix);
        ok = false;
    }
    if (!d->tag && !d->typedef_name) {
        diag_error(b->d, &d->loc,
                   "anonymous %s without a typedef: generated code must be able to name the "
                   "type; give it a tag or a typedef name",
                   what);
        return false;
    }
    if (!ok)
        return false;
    name_set(nm, name ? name : d->tag ? d->tag : d->typedef_name, space);
    nm->doc = doc ? xstrdup(doc) : d->doc ? xstrdup(d->doc) : NULL;
    alias_option(b, head, o, true, &nm->aliases, &nm->n_aliases, &ok);
    if (prefix) {
        *c_prefix = xstrdup(prefix);
    } else if (d->tag) {
        *c_prefix = xstrdup(d->tag);
    } else {
        size_t len = strlen(d->typedef_name);
        if (len > 2 && strcmp(d->typedef_name + len - 2, "_t") == 0)
            len -= 2;
        *c_prefix = xstrndup(d->typedef_name, len);
    }
    return ok;
}

static char *c_type_of(const struct cdecl *d)
{
    if (d->typedef_name)
        return xstrdup(d->typedef_name);
    return xasprintf("%s %s", d->kind == CDECL_ENUM ? "enum" : "struct", d->tag);
}

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

static struct model_enum *create_enum(struct builder *b, const struct cdecl *d,
                                      const struct cannot *head)
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

static bool fill_enum(struct builder *b, const struct cdecl *d, struct model_enum *e,
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

/* ---- records ---------------------------------------------------------- */

static struct model_record *create_record(struct builder *b, const struct cdecl *d,
                                          const struct cannot *head)
{
    struct annot_options o;
    static const char *const known[] = {"name", "namespace", "doc", "aliases", "c_prefix", NULL};
    if (!annot_parse_options(head, b->d, &o))
        return NULL;
    bool ok = check_known(b, head, &o, known, "name, namespace, doc, aliases, c_prefix");
    struct model_record *r = xcalloc(1, sizeof *r);
    if (!named_options(b, d, head, &o, &r->name, &r->c_prefix) || !ok) {
        free_name(&r->name);
        free(r->c_prefix);
        free(r);
        annot_options_free(&o);
        return NULL;
    }
    r->c_tag = d->tag ? xstrdup(d->tag) : NULL;
    r->c_typedef = d->typedef_name ? xstrdup(d->typedef_name) : NULL;
    r->c_type = c_type_of(d);
    r->c_size = d->size;
    r->c_align = d->align;
    r->loc = d->loc;
    r->in_main_file = d->in_main_file;
    annot_options_free(&o);
    return r;
}

static bool field_options(struct builder *b, struct model_field *f, struct member_annots *ma)
{
    static const char *const known[] = {"name", "doc", "aliases", "default", "order", "type", NULL};
    const struct cannot *a = ma->field;
    if (!a)
        return true;
    bool ok = check_known(b, a, &ma->opts, known, "name, doc, aliases, default, order, type");
    const char *name = string_option(b, a, &ma->opts, "name", &ok);
    const char *doc = string_option(b, a, &ma->opts, "doc", &ok);
    const char *order = string_option(b, a, &ma->opts, "order", &ok);
    string_option(b, a, &ma->opts, "type", &ok);
    if (name && !is_avro_name(name, strlen(name))) {
        diag_error(b->d, &a->loc, "AVRO_FIELD: name \"%s\" is not a valid Avro name", name);
        ok = false;
    } else if (name) {
        free(f->avro_name);
        f->avro_name = xstrdup(name);
    }
    if (doc) {
        free(f->doc);
        f->doc = xstrdup(doc);
    }
    if (order) {
        f->has_order = true;
        if (strcmp(order, "ascending") == 0) {
            f->order = AVROGEN_ORDER_ASCENDING;
        } else if (strcmp(order, "descending") == 0) {
            f->order = AVROGEN_ORDER_DESCENDING;
        } else if (strcmp(order, "ignore") == 0) {
            f->order = AVROGEN_ORDER_IGNORE;
        } else {
            diag_error(b->d, &a->loc,
                       "AVRO_FIELD: order \"%s\" must be \"ascending\", \"descending\" or "
                       "\"ignore\"",
                       order);
            ok = false;
        }
    }
    alias_option(b, a, &ma->opts, false, &f->aliases, &f->n_aliases, &ok);
    const struct annot_option *def = annot_find(&ma->opts, "default");
    if (def && f->type) {
        if (check_default(b, f, ma, f->type))
            f->default_json = xstrdup(def->json);
        else
            ok = false;
    }
    return ok;
}

static bool fill_record(struct builder *b, const struct cdecl *d, struct model_record *r)
{
    bool ok = true;
    size_t n = d->n_members;
    enum model_field_role *role = xcalloc(n, sizeof *role);
    size_t *serves = xcalloc(n, sizeof *serves);
    struct sibling *sib = xcalloc(n, sizeof *sib);
    struct roles roles = {role, serves};
    unsigned errors = b->d->errors;
    assign_roles(b, d, &roles, sib);

    r->fields = xcalloc(n ? n : 1, sizeof *r->fields);
    r->n_fields = n;
    for (size_t i = 0; i < n; i++) {
        const struct cmember *m = &d->members[i];
        struct model_field *f = &r->fields[i];
        f->c_name = xstrdup(m->name);
        f->c_type = xstrdup(m->type->spelling);
        f->c_offset = m->offset;
        f->c_size = m->type->size;
        f->c_bitfield = m->is_bitfield;
        f->loc = m->loc;
        f->role = role[i];
        f->serves = serves[i];
        if (!m->name[0]) {
            diag_error(b->d, &m->loc,
                       "anonymous %s member in '%s'; give it a member name so that it can be "
                       "annotated (AVRO_UNION(tag_field)) and addressed",
                       m->type->kind == CTYPE_UNION ? "union" : "struct", r->c_type);
            ok = false;
            continue;
        }
        struct member_annots ma;
        member_annots_init(b, &ma, d, m, false);
        if (!ma.ok) {
            ok = false;
        } else if (f->role != MODEL_FIELD_VALUE) {
            f->c_scalar = m->type->kind == CTYPE_ENUM
                                  ? int_scalar(m->type->decl->enum_size, m->type->decl->enum_signed)
                                  : int_scalar(m->type->size, m->type->is_signed);
        } else if (ma.skip) {
            f->role = MODEL_FIELD_SKIP;
            for (size_t k = 0; k < m->n_annots; k++) {
                if (&m->annots[k] != ma.skip) {
                    diag_error(b->d, &m->annots[k].loc,
                               "member '%s' is AVRO_SKIP; %s has no effect on it", m->name,
                               annot_macro(m->annots[k].kind));
                    ok = false;
                }
            }
        } else {
            f->avro_name = xstrdup(m->name);
            f->doc = m->doc ? xstrdup(m->doc) : NULL;
            char *base = xasprintf("%s_%s", r->name.name, m->name);
            f->type = map_member(b, d, i, &ma, "field", base, r->name.space, &sib[i]);
            free(base);
            if (!f->type)
                ok = false;
            if (!field_options(b, f, &ma))
                ok = false;
            f->avro_index = r->n_avro_fields++;
            for (size_t j = 0; j < i; j++) {
                if (r->fields[j].avro_name && strcmp(r->fields[j].avro_name, f->avro_name) == 0) {
                    diag_error(b->d, &m->loc, "field name '%s' is used twice in record '%s'",
                               f->avro_name, r->name.fullname);
                    diag_note(b->d, &r->fields[j].loc, "first used by member '%s'",
                              r->fields[j].c_name);
                    ok = false;
                }
            }
        }
        member_annots_fini(&ma);
    }
    for (size_t i = 0; i < n; i++)
        sibling_fini(&sib[i]);
    free(sib);
    free(role);
    free(serves);
    return ok && b->d->errors == errors;
}

/* ---- ordering --------------------------------------------------------- */

/* A position for sorting: file in inclusion order, then line and column. */
static size_t file_rank(const struct cunit *u, const char *file)
{
    for (size_t i = 0; i < u->n_deps; i++)
        if (file && strcmp(u->deps[i], file) == 0)
            return i;
    return u->n_deps;
}

static int loc_cmp(const struct cunit *u, const struct model_loc *a, const struct model_loc *b)
{
    size_t fa = file_rank(u, a->file), fb = file_rank(u, b->file);
    if (fa != fb)
        return fa < fb ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->column != b->column)
        return a->column < b->column ? -1 : 1;
    return 0;
}

struct order_state {
    struct model_record **out;
    size_t n_out;
    unsigned char *mark; /* per record: 0 new, 1 on the DFS stack, 2 placed */
    struct model *m;
};

static size_t record_index(const struct model *m, const struct model_record *r)
{
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i] == r)
            return i;
    return m->n_records;
}

static void visit_record(struct order_state *st, struct model_record *r);

static void visit_type(struct order_state *st, const struct model_type *t)
{
    if (!t)
        return;
    if (t->record)
        visit_record(st, t->record);
    visit_type(st, t->items);
    visit_type(st, t->map_key);
    for (size_t i = 0; i < t->n_branches; i++)
        visit_type(st, t->branches[i].type);
}

/* Depth first, records placed after everything they use; a back edge is recursion. */
static void visit_record(struct order_state *st, struct model_record *r)
{
    size_t i = record_index(st->m, r);
    if (st->mark[i] == 2)
        return;
    if (st->mark[i] == 1)
        return;
    st->mark[i] = 1;
    for (size_t f = 0; f < r->n_fields; f++)
        visit_type(st, r->fields[f].type);
    st->mark[i] = 2;
    st->out[st->n_out++] = r;
}

static bool reaches(const struct model_type *t, const struct model_record *target,
                    unsigned char *seen, const struct model *m);

static bool record_reaches(const struct model_record *r, const struct model_record *target,
                           unsigned char *seen, const struct model *m)
{
    size_t i = record_index(m, r);
    if (seen[i])
        return false;
    seen[i] = 1;
    for (size_t f = 0; f < r->n_fields; f++)
        if (reaches(r->fields[f].type, target, seen, m))
            return true;
    return false;
}

static bool reaches(const struct model_type *t, const struct model_record *target,
                    unsigned char *seen, const struct model *m)
{
    if (!t)
        return false;
    if (t->record == target)
        return true;
    if (t->record && record_reaches(t->record, target, seen, m))
        return true;
    if (reaches(t->items, target, seen, m) || reaches(t->map_key, target, seen, m))
        return true;
    for (size_t i = 0; i < t->n_branches; i++)
        if (reaches(t->branches[i].type, target, seen, m))
            return true;
    return false;
}

static int release_cmp(const struct model_loc *a, const struct model_loc *b, void *u)
{
    return loc_cmp(u, a, b);
}

static void order_records(struct model *m)
{
    if (m->n_records == 0)
        return;
    struct order_state st = {xcalloc(m->n_records, sizeof *st.out), 0, xcalloc(m->n_records, 1), m};
    for (size_t i = 0; i < m->n_records; i++)
        visit_record(&st, m->records[i]);
    for (size_t i = 0; i < m->n_records; i++) {
        unsigned char *seen = xcalloc(m->n_records, 1);
        struct model_record *r = m->records[i];
        r->recursive = false;
        for (size_t f = 0; f < r->n_fields && !r->recursive; f++)
            r->recursive = reaches(r->fields[f].type, r, seen, m);
        free(seen);
    }
    memcpy(m->records, st.out, m->n_records * sizeof *m->records);
    free(st.out);
    free(st.mark);
}

/* ---- the entry point --------------------------------------------------- */

/* The AVRO_RECORD / AVRO_ENUM that applies to d, reporting misplaced ones. */
static const struct cannot *find_head(struct builder *b, const struct cdecl *d, bool *ok)
{
    const struct cannot *head = NULL;
    const char *want = d->kind == CDECL_ENUM ? "enum" : d->kind == CDECL_STRUCT ? "record" : NULL;
    for (size_t i = 0; i < d->n_annots; i++) {
        const struct cannot *a = &d->annots[i];
        if (want && strcmp(a->kind, want) == 0 && !head) {
            head = a;
        } else if (want && strcmp(a->kind, want) == 0) {
            diag_error(b->d, &a->loc, "%s given twice", annot_macro(a->kind));
            *ok = false;
        } else if (strcmp(a->kind, "record") == 0 || strcmp(a->kind, "enum") == 0) {
            diag_error(b->d, &a->loc, "%s() cannot annotate %s '%s'%s", annot_macro(a->kind),
                       d->kind == CDECL_UNION  ? "union"
                       : d->kind == CDECL_ENUM ? "enum"
                                               : "struct",
                       d->tag            ? d->tag
                       : d->typedef_name ? d->typedef_name
                                         : "(anonymous)",
                       d->kind == CDECL_UNION ? "; a C union is a field annotated "
                                                "AVRO_UNION(tag_field)"
                                              : "");
            *ok = false;
        } else {
            diag_error(b->d, &a->loc, "%s belongs on a member, not on a type",
                       annot_macro(a->kind));
            *ok = false;
        }
    }
    for (size_t i = 0; i < b->u->n_markers; i++) {
        const struct cmarker *mk = &b->u->markers[i];
        if (mk->target != d || mk->kind == CMARKER_FIELD)
            continue;
        bool fits = (mk->kind == CMARKER_RECORD) == (d->kind == CDECL_STRUCT) &&
                    (mk->kind == CMARKER_ENUM) == (d->kind == CDECL_ENUM);
        if (!fits || !mk->n_annots)
            continue; /* reported by check_markers */
        if (head) {
            diag_error(b->d, &mk->loc, "'%s' is already annotated", mk->target_spelling);
            diag_note(b->d, &head->loc, "annotated here");
            *ok = false;
            continue;
        }
        head = &mk->annots[0];
    }
    return head;
}

static bool check_markers(struct builder *b)
{
    bool ok = true;
    for (size_t i = 0; i < b->u->n_markers; i++) {
        const struct cmarker *mk = &b->u->markers[i];
        const struct cdecl *d = mk->target;
        const char *macro = mk->kind == CMARKER_RECORD ? "AVRO_EXTERN_RECORD"
                            : mk->kind == CMARKER_ENUM ? "AVRO_EXTERN_ENUM"
                                                       : "AVRO_EXTERN_FIELD";
        bool want_enum = mk->kind == CMARKER_ENUM;
        if (!d || (want_enum ? d->kind != CDECL_ENUM : d->kind != CDECL_STRUCT)) {
            diag_error(b->d, &mk->loc, "%s: '%s' is not %s type", macro, mk->target_spelling,
                       want_enum ? "an enum" : "a struct");
            ok = false;
        } else if (!d->complete) {
            diag_error(b->d, &mk->loc,
                       "%s: '%s' is incomplete here; include the header that defines it first",
                       macro, mk->target_spelling);
            ok = false;
        } else if (mk->kind == CMARKER_FIELD) {
            if (!find_member(d, mk->member, NULL)) {
                diag_error(b->d, &mk->loc, "%s: '%s' has no member '%s'", macro,
                           mk->target_spelling, mk->member);
                ok = false;
            }
            bool annotated = false;
            for (size_t j = 0; j < b->u->n_markers; j++) {
                const struct cmarker *o = &b->u->markers[j];
                annotated = annotated || (o->kind == CMARKER_RECORD && o->target == d);
            }
            for (size_t j = 0; j < d->n_annots; j++)
                annotated = annotated || strcmp(d->annots[j].kind, "record") == 0;
            if (!annotated) {
                diag_error(b->d, &mk->loc,
                           "%s: '%s' is not annotated as a record; add "
                           "AVRO_EXTERN_RECORD(%s) first",
                           macro, mk->target_spelling, mk->target_spelling);
                ok = false;
            }
        }
    }
    return ok;
}

int model_build(struct cunit *u, struct diag *d, struct model **out)
{
    struct model *m = xcalloc(1, sizeof *m);
    struct builder b = {u, d, m, xcalloc(u->n_decls ? u->n_decls : 1, sizeof *b.info), NULL, 0};
    unsigned errors = d->errors;
    diag_hold(d);
    bool ok = check_markers(&b);

    m->header = xstrdup(u->header);
    m->files = u->files;
    m->n_files = u->n_files;
    u->files = NULL;
    u->n_files = 0;
    m->deps = xcalloc(u->n_deps ? u->n_deps : 1, sizeof *m->deps);
    for (size_t i = 0; i < u->n_deps; i++)
        m->deps[i] = xstrdup(u->deps[i]);
    m->n_deps = u->n_deps;

    /* Annotated declarations in source order, so diagnostics come out in order. */
    const struct cdecl **decls = xcalloc(u->n_decls ? u->n_decls : 1, sizeof *decls);
    for (size_t i = 0; i < u->n_decls; i++)
        decls[i] = u->decls[i];
    for (size_t i = 1; i < u->n_decls; i++) {
        const struct cdecl *x = decls[i];
        size_t j = i;
        for (; j > 0 && loc_cmp(u, &decls[j - 1]->loc, &x->loc) > 0; j--)
            decls[j] = decls[j - 1];
        decls[j] = x;
    }

    for (size_t i = 0; i < u->n_decls; i++) {
        const struct cdecl *cd = decls[i];
        struct decl_info *info = &b.info[cd->order];
        if (cd->in_system_header)
            continue;
        info->head = find_head(&b, cd, &ok);
        if (!info->head)
            continue;
        if (cd->kind == CDECL_ENUM) {
            info->enumeration = create_enum(&b, cd, info->head);
            if (info->enumeration) {
                for (size_t k = 0; k < u->n_markers; k++)
                    if (u->markers[k].target == cd && u->markers[k].in_main_file)
                        info->enumeration->in_main_file = true;
                name_taken(&b, info->enumeration->name.fullname, &cd->loc, info->enumeration);
                m->enums = xappend(m->enums, m->n_enums, sizeof *m->enums);
                m->enums[m->n_enums++] = info->enumeration;
            }
        } else {
            info->record = create_record(&b, cd, info->head);
            if (info->record) {
                for (size_t k = 0; k < u->n_markers; k++)
                    if (u->markers[k].target == cd && u->markers[k].in_main_file)
                        info->record->in_main_file = true;
                name_taken(&b, info->record->name.fullname, &cd->loc, info->record);
                m->records = xappend(m->records, m->n_records, sizeof *m->records);
                m->records[m->n_records++] = info->record;
            }
        }
    }
    for (size_t i = 0; i < u->n_decls; i++) {
        const struct cdecl *cd = decls[i];
        if (b.info[cd->order].enumeration)
            ok = fill_enum(&b, cd, b.info[cd->order].enumeration, b.info[cd->order].head) && ok;
    }
    for (size_t i = 0; i < u->n_decls; i++) {
        const struct cdecl *cd = decls[i];
        if (b.info[cd->order].record)
            ok = fill_record(&b, cd, b.info[cd->order].record) && ok;
    }
    /* After every record is filled, as a default may hold records. A record
     * that failed still has all its fields, and only fields whose type and
     * default passed carry default_json, so this is safe after errors too. */
    ok = check_default_fit(&b) && ok;
    free(decls);
    free(b.info);
    free(b.entries);
    diag_release(d, release_cmp, u);

    if (!ok || d->errors != errors) {
        model_free(m);
        *out = NULL;
        return 1;
    }
    order_records(m);
    *out = m;
    return 0;
}

/* ---- access and freeing ----------------------------------------------- */

struct model_record *model_find_record(const struct model *m, const char *fullname)
{
    for (size_t i = 0; i < m->n_records; i++)
        if (strcmp(m->records[i]->name.fullname, fullname) == 0)
            return m->records[i];
    return NULL;
}

struct model_enum *model_find_enum(const struct model *m, const char *fullname)
{
    for (size_t i = 0; i < m->n_enums; i++)
        if (strcmp(m->enums[i]->name.fullname, fullname) == 0)
            return m->enums[i];
    return NULL;
}

static void free_record(struct model_record *r)
{
    free_name(&r->name);
    free(r->c_tag);
    free(r->c_typedef);
    free(r->c_type);
    free(r->c_prefix);
    for (size_t i = 0; i < r->n_fields; i++) {
        struct model_field *f = &r->fields[i];
        free(f->c_name);
        free(f->c_type);
        free_type(f->type);
        free(f->avro_name);
        free(f->doc);
        for (size_t k = 0; k < f->n_aliases; k++)
            free(f->aliases[k]);
        free(f->aliases);
        free(f->default_json);
    }
    free(r->fields);
    free(r->avsc);
    free(r->canonical);
    free(r);
}

static void free_enum(struct model_enum *e)
{
    free_name(&e->name);
    free(e->c_tag);
    free(e->c_typedef);
    free(e->c_type);
    free(e->c_prefix);
    for (size_t i = 0; i < e->n_symbols; i++) {
        free(e->symbols[i].c_name);
        free(e->symbols[i].avro_name);
        free(e->symbols[i].doc);
    }
    free(e->symbols);
    free(e->default_symbol);
    free(e);
}

void model_free(struct model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_records; i++)
        free_record(m->records[i]);
    free(m->records);
    for (size_t i = 0; i < m->n_enums; i++)
        free_enum(m->enums[i]);
    free(m->enums);
    for (size_t i = 0; i < m->n_fixeds; i++) {
        free_name(&m->fixeds[i]->name);
        free(m->fixeds[i]);
    }
    free(m->fixeds);
    for (size_t i = 0; i < m->n_files; i++)
        free(m->files[i]);
    free(m->files);
    for (size_t i = 0; i < m->n_deps; i++)
        free(m->deps[i]);
    free(m->deps);
    free(m->header);
    free(m);
}
