/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Annotations as the model builder reads them: every annotation on a member
 * (in place and out of line), and the options of AVRO_RECORD / AVRO_ENUM /
 * AVRO_FIELD that name, document and alias a type or field.
 */
#include <string.h>

#include "model_internal.h"

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
    if (strcmp(kind, "tag") == 0)
        return &ma->tag;
    if (strcmp(kind, "string") == 0)
        return &ma->string;
    if (strcmp(kind, "bytes") == 0)
        return &ma->bytes;
    if (strcmp(kind, "padded") == 0)
        return &ma->padded;
    if (strcmp(kind, "logical") == 0)
        return &ma->logical;
    if (strcmp(kind, "decimal") == 0)
        return &ma->decimal;
    if (strcmp(kind, "fixed_name") == 0)
        return &ma->fixed_name;
    return NULL;
}

const struct cannot *counted_by(const struct member_annots *ma)
{
    return ma->array ? ma->array : ma->map ? ma->map : ma->string ? ma->string : ma->bytes;
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
void member_annots_init(struct builder *b, struct member_annots *ma, const struct cdecl *owner,
                        const struct cmember *m, bool quiet)
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

void member_annots_fini(struct member_annots *ma)
{
    annot_options_free(&ma->opts);
}

bool member_is_annotated(struct builder *b, const struct cdecl *owner, const struct cmember *m)
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

const struct cmember *find_member(const struct cdecl *d, const char *name, size_t *index)
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

/* ---- options ---------------------------------------------------------- */

bool check_known(struct builder *b, const struct cannot *a, const struct annot_options *o,
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
const char *string_option(struct builder *b, const struct cannot *a, const struct annot_options *o,
                          const char *key, bool *ok)
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
void alias_option(struct builder *b, const struct cannot *a, const struct annot_options *o,
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

/* Fill name/namespace/doc/aliases of a record or enum from its head annotation.
 * A type with neither tag nor typedef takes anon_name and anon_prefix (NULL:
 * it cannot be named, an error). */
bool named_options(struct builder *b, const struct cdecl *d, const struct cannot *head,
                   const struct annot_options *o, const char *anon_name, const char *anon_prefix,
                   struct model_name *nm, char **c_prefix)
{
    bool ok = true;
    const char *name = string_option(b, head, o, "name", &ok);
    /* namespace = null: the null namespace, as namespace = "" is. */
    const struct annot_option *space_opt = annot_find(o, "namespace");
    const char *space = space_opt && space_opt->type == ANNOT_JSON_NULL
                                ? ""
                                : string_option(b, head, o, "namespace", &ok);
    const char *doc = string_option(b, head, o, "doc", &ok);
    const char *prefix = string_option(b, head, o, "c_prefix", &ok);
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
    if (!d->tag && !d->typedef_name && !anon_name) {
        diag_error(b->d, &d->loc,
                   "anonymous %s without a typedef: generated code must be able to name the "
                   "type; give it a tag or a typedef name",
                   what);
        return false;
    }
    if (!ok)
        return false;
    name_set(nm,
             name              ? name
             : d->tag          ? d->tag
             : d->typedef_name ? d->typedef_name
                               : anon_name,
             space);
    nm->null_space = space_opt != NULL && nm->space == NULL;
    nm->doc = doc ? xstrdup(doc) : d->doc ? xstrdup(d->doc) : NULL;
    alias_option(b, head, o, true, &nm->aliases, &nm->n_aliases, &ok);
    if (prefix) {
        *c_prefix = xstrdup(prefix);
    } else if (d->tag) {
        *c_prefix = xstrdup(d->tag);
    } else if (!d->typedef_name) {
        *c_prefix = xstrdup(anon_prefix);
    } else {
        size_t len = strlen(d->typedef_name);
        if (len > 2 && strcmp(d->typedef_name + len - 2, "_t") == 0)
            len -= 2;
        *c_prefix = xstrndup(d->typedef_name, len);
    }
    return ok;
}

char *c_type_of(const struct cdecl *d)
{
    if (d->typedef_name)
        return xstrdup(d->typedef_name);
    return xasprintf("%s %s", d->kind == CDECL_ENUM ? "enum" : "struct", d->tag);
}
