/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AVRO_RECORD: an annotated struct becomes an Avro record, one field per
 * member that is not a count, a tag or AVRO_SKIP.
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- records ---------------------------------------------------------- */

/* A record for struct d, annotated by head; anon_* name a struct with neither
 * tag nor typedef (named_options). */
static struct model_record *new_record(struct builder *b, const struct cdecl *d,
                                       const struct cannot *head, const char *anon_name,
                                       const char *anon_prefix)
{
    struct annot_options o;
    static const char *const known[] = {"name", "namespace", "doc", "aliases", "c_prefix", NULL};
    if (!annot_parse_options(head, b->d, &o))
        return NULL;
    bool ok = check_known(b, head, &o, known, "name, namespace, doc, aliases, c_prefix");
    struct model_record *r = xcalloc(1, sizeof *r);
    if (!named_options(b, d, head, &o, anon_name, anon_prefix, &r->name, &r->c_prefix) || !ok) {
        free_name(&r->name);
        free(r->c_prefix);
        free(r);
        annot_options_free(&o);
        return NULL;
    }
    r->c_tag = d->tag ? xstrdup(d->tag) : NULL;
    r->c_typedef = d->typedef_name ? xstrdup(d->typedef_name) : NULL;
    r->c_type = d->tag || d->typedef_name ? c_type_of(d) : NULL;
    r->c_size = d->size;
    r->c_align = d->align;
    r->may_be_unaligned = d->may_be_unaligned;
    r->loc = d->loc;
    r->in_main_file = d->in_main_file;
    annot_options_free(&o);
    return r;
}

struct model_record *create_record(struct builder *b, const struct cdecl *d,
                                   const struct cannot *head)
{
    return new_record(b, d, head, NULL, NULL);
}

/* ---- untagged struct types of members --------------------------------- */

/*
 * `struct { int32_t v; } inner;` declares a struct type nothing else can name.
 * It becomes a record of its own, named after the member ("<Record>_inner",
 * like a fixed), whether or not it carries AVRO_RECORD(...). Generated code
 * names the type through the member: `typedef __typeof__(((struct outer
 * *)0)->inner) outer_inner_avro_struct;`, which gcc and clang take in C and
 * C++ without a warning.
 */

/* The C type generated code spells for the struct or union d, or NULL. */
static const char *spelled_type(const struct builder *b, const struct cdecl *d, char **owned)
{
    const struct model_record *r = b->info[d->order].record;
    *owned = NULL;
    if (r)
        return r->c_type;
    if (d->tag || d->typedef_name)
        return *owned = d->typedef_name
                                ? xstrdup(d->typedef_name)
                                : xasprintf("%s %s", d->kind == CDECL_UNION ? "union" : "struct",
                                            d->tag);
    return NULL;
}

/* An lvalue of the type `target` that member s holds (itself, an array's
 * item, a pointer's pointee), for __typeof__; NULL when the owner has no name. */
static char *member_lvalue(const struct site *s, const struct cdecl *target)
{
    char *e;
    const struct model_record *owner = s->b->info[s->owner->order].record;
    if (s->outer) {
        char *u = member_lvalue(s->outer, s->owner);
        if (!u)
            return NULL;
        e = xasprintf("(%s).%s", u, s->member->name);
        free(u);
    } else if (owner && owner->c_typeof) {
        e = xasprintf("(%s).%s", owner->c_typeof, s->member->name);
    } else {
        char *owned;
        const char *ct = spelled_type(s->b, s->owner, &owned);
        if (!ct)
            return NULL;
        e = xasprintf("((%s *)0)->%s", ct, s->member->name);
        free(owned);
    }
    for (const struct ctype *t = s->member->type; t && t->decl != target; t = t->elem) {
        char *next = t->kind == CTYPE_ARRAY     ? xasprintf("%s[0]", e)
                     : t->kind == CTYPE_POINTER ? xasprintf("*(%s)", e)
                                                : NULL;
        if (!next)
            break;
        free(e);
        e = next;
    }
    return e;
}

/* The prefix of the owner's generated symbols, through unions: "outer", "outer_u". */
static char *owner_prefix(const struct site *s)
{
    if (s->outer) {
        char *p = owner_prefix(s->outer);
        char *r = xasprintf("%s_%s", p, s->outer->member->name);
        free(p);
        return r;
    }
    const struct model_record *owner = s->b->info[s->owner->order].record;
    if (owner)
        return xstrdup(owner->c_prefix);
    return xstrdup(s->owner->tag            ? s->owner->tag
                   : s->owner->typedef_name ? s->owner->typedef_name
                                            : "anonymous");
}

struct model_record *nested_record(const struct site *s, const struct cdecl *d)
{
    struct builder *b = s->b;
    struct decl_info *info = &b->info[d->order];
    if (info->nested) /* `struct { ... } a, b;`: one type, one record */
        return info->record;
    info->nested = true;
    struct model_loc at = member_loc(s);
    char *lvalue = member_lvalue(s, d);
    if (!lvalue) {
        diag_error(b->d, &at,
                   "%s '%s' has an untagged struct type inside a type that has no name either; "
                   "give one of them a tag",
                   s->what, s->member->name);
        return NULL;
    }
    /* Without AVRO_RECORD(...) it is a record all the same, in the namespace
     * of the record that holds it, as a fixed is. */
    char *text = s->space && s->space[0] ? xasprintf("namespace = \"%s\"", s->space) : xstrdup("");
    char kind[] = "record";
    struct cannot none = {kind, text, d->loc, NULL};
    char *p = owner_prefix(s);
    char *prefix = xasprintf("%s_%s", p, s->member->name);
    free(p);
    struct model_record *r =
            new_record(b, d, info->head ? info->head : &none, s->fixed_base, prefix);
    free(prefix);
    free(text);
    if (!r) {
        free(lvalue);
        return NULL;
    }
    struct annot_options head_opts;
    if (info->head && annot_parse_options(info->head, b->d, &head_opts)) {
        /* Named in its own .avsc too, so give it the namespace it has nested. */
        if (!annot_find(&head_opts, "namespace") && s->space && s->space[0] && !r->name.space) {
            free(r->name.fullname);
            r->name.space = xstrdup(s->space);
            r->name.fullname = xasprintf("%s.%s", s->space, r->name.name);
        }
        annot_options_free(&head_opts);
    }
    r->c_typeof = lvalue;
    r->c_type = xasprintf("%s_avro_struct", r->c_prefix);
    const struct model_record *owner = b->info[s->owner->order].record;
    for (const struct site *o = s; !owner && o->outer; o = o->outer)
        owner = b->info[o->outer->owner->order].record;
    r->in_main_file = owner ? owner->in_main_file : d->in_main_file;
    info->record = r;
    name_taken(b, r->name.fullname, &d->loc, r);
    b->m->records = xappend(b->m->records, b->m->n_records, sizeof *b->m->records);
    b->m->records[b->m->n_records++] = r;
    if (!fill_record(b, d, r))
        return NULL; /* reported; the record stays in the model, which fails */
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

/* A record annotated out of line has its members in a header the user does
 * not edit: say where their annotations go instead. */
static void note_extern_member(struct builder *b, const struct cdecl *d, const struct cmember *m)
{
    const struct cannot *head = b->info[d->order].head;
    if (!head || strcmp(head->kind, "extern_record") != 0 || member_is_annotated(b, d, m))
        return;
    char *type = decl_name(d);
    diag_note(b->d, &head->loc,
              "'%s' is annotated out of line here; annotate its member there with "
              "AVRO_EXTERN_FIELD(%s, %s, ...)",
              type, type, m->name);
    free(type);
}

static bool share_storage(const struct cmember *a, const struct cmember *c)
{
    return (a->anon_outer.id && a->anon_outer.id == c->anon_outer.id &&
            a->anon_outer.alt != c->anon_outer.alt) ||
           (a->anon_inner.id && a->anon_inner.id == c->anon_inner.id &&
            a->anon_inner.alt != c->anon_inner.alt);
}

/* The members of an anonymous union are the struct's (C11 6.7.2.1p13) and
 * share their storage: a record holds those of one alternative at most, the
 * others AVRO_SKIP (glibc's struct rusage: ru_maxrss, not __ru_maxrss_word).
 * Reports each union once. */
static bool check_anonymous_unions(struct builder *b, const struct cdecl *d,
                                   const struct model_record *r)
{
    bool ok = true;
    for (size_t i = 0; i < d->n_members; i++) {
        const struct cmember *m = &d->members[i];
        if (!m->anon_inner.id || r->fields[i].role == MODEL_FIELD_SKIP)
            continue;
        size_t j = 0;
        while (j < i &&
               (r->fields[j].role == MODEL_FIELD_SKIP || !share_storage(&d->members[j], m)))
            j++;
        if (j == i)
            continue;
        bool reported = false;
        for (size_t k = 0; k < i && !reported; k++) /* an earlier pair of this union */
            for (size_t l = 0; l < k && !reported; l++)
                reported = r->fields[k].role != MODEL_FIELD_SKIP &&
                           r->fields[l].role != MODEL_FIELD_SKIP &&
                           share_storage(&d->members[l], &d->members[k]) &&
                           d->members[k].anon_outer.id == m->anon_outer.id;
        ok = false;
        if (reported)
            continue;
        const struct cmember *first = &d->members[j];
        char *type = decl_name(d);
        diag_error(b->d, &m->anon_loc,
                   "members '%s' and '%s' of an anonymous union in '%s' share their storage, "
                   "and a record holds one of them; AVRO_SKIP all of the union's members but one",
                   first->name, m->name, type);
        const struct cannot *head = b->info[d->order].head;
        if (head && strcmp(head->kind, "extern_record") == 0)
            diag_note(b->d, &head->loc,
                      "'%s' is annotated out of line here; to keep '%s', write there "
                      "AVRO_EXTERN_FIELD(%s, %s, AVRO_SKIP)",
                      type, first->name, type, m->name);
        else
            diag_note(b->d, &m->loc,
                      "to keep '%s', annotate '%s' AVRO_SKIP; to keep both, give the union a "
                      "member name and AVRO_UNION(tag_member)",
                      first->name, m->name);
        free(type);
    }
    return ok;
}

bool fill_record(struct builder *b, const struct cdecl *d, struct model_record *r)
{
    bool ok = true;
    size_t n = d->n_members;
    unsigned errors = b->d->errors;
    struct roles roles;
    roles_claim(b, d, &roles);
    const enum model_field_role *role = roles.role;
    const size_t *serves = roles.serves;
    struct sibling *sib = roles.sib;

    r->fields = xcalloc(n ? n : 1, sizeof *r->fields);
    r->n_fields = n;
    struct strmap names = {0}; /* Avro field name -> its member's index */
    for (size_t i = 0; i < n; i++) {
        const struct cmember *m = &d->members[i];
        struct model_field *f = &r->fields[i];
        f->c_name = xstrdup(m->name);
        f->c_type = xstrdup(m->type->spelling);
        f->c_offset = m->offset;
        f->c_size = m->type->size;
        if (m->type->kind == CTYPE_FLEX_ARRAY || (m->type->kind == CTYPE_ARRAY && !m->type->len))
            f->c_size = m->type->elem->size; /* T f[]: one item, f[0] */
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
            unsigned before = b->d->errors;
            bool as_member;
            f->type = map_union_as_member(b, d, i, &ma, base, r->name.space, f, &as_member);
            if (!as_member)
                f->type = map_member(b, d, i, &ma, "field", base, r->name.space, &sib[i]);
            free(base);
            if (!f->type)
                ok = false;
            if (b->d->errors != before)
                note_extern_member(b, d, m);
            if (!field_options(b, f, &ma))
                ok = false;
            f->avro_index = r->n_avro_fields++;
            size_t j;
            if (!strmap_add(&names, f->avro_name, i, &j)) {
                diag_error(b->d, &m->loc, "field name '%s' is used twice in record '%s'",
                           f->avro_name, r->name.fullname);
                diag_note(b->d, &r->fields[j].loc, "first used by member '%s'",
                          r->fields[j].c_name);
                ok = false;
            }
        }
        member_annots_fini(&ma);
    }
    roles_fini(&roles);
    if (!check_anonymous_unions(b, d, r))
        ok = false;
    strmap_free(&names);
    return ok && b->d->errors == errors;
}
