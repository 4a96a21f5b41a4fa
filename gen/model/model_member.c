/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Members of a struct: which members count or tag others (roles), tagged
 * unions, maps of entry structs, and the mapping of one member with all its
 * annotations.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

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

/* A pointer to an annotated struct (a record), `struct cons *`: as a union
 * branch it is the record itself, never NULL (RECORD_PTR). */
static bool record_pointer(const struct builder *b, const struct ctype *t)
{
    if (t->kind != CTYPE_POINTER || t->elem->kind != CTYPE_STRUCT)
        return false;
    const struct ctype *e = t->elem;
    return e->decl != NULL && b->info[e->decl->order].record != NULL &&
           !is_view(e, "avrogen_str") && !is_view(e, "avrogen_bytes");
}

/* The branch `struct cons *cons`: kind RECORD, storage RECORD_PTR, `items` the
 * record at the target (as a nullable pointer's, minus the null). */
static struct model_type *map_record_pointer(const struct site *s, const struct ctype *t,
                                             struct leaf *lf)
{
    struct model_type *items = map_value(s, t->elem, lf, false);
    if (!items)
        return NULL;
    struct model_type *n = new_type(AVROGEN_KIND_RECORD, MODEL_STORAGE_RECORD_PTR, t);
    n->record = items->record;
    n->items = items;
    return n;
}

/* AVRO_UNION(tag): union member i ↔ tag value i (or the values its AVRO_TAG lists) ↔
 * Avro branch i. */
struct model_type *map_tagged_union(const struct site *s, const struct ctype *t)
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
    b->info[u->order].tagged = true;
    const struct cannot **tags = xcalloc(u->n_members, sizeof *tags);
    for (size_t i = 0; i < u->n_members; i++) {
        const struct cmember *um = &u->members[i];
        struct member_annots ma;
        member_annots_init(b, &ma, u, um, false);
        tags[i] = ma.tag;
        char *base = xasprintf("%s_%s", s->fixed_base, um->name);
        struct site sub = {b, u, um, "union member", base, s->space, &ma, s};
        struct leaf lf = {ma.logical, ma.decimal, ma.fixed_name, false, false, false};
        struct model_type *bt = NULL;
        const struct annot_option *type_opt = annot_find(&ma.opts, "type");
        bool member_ok = true;
        if (!ma.ok) {
            member_ok = false;
        } else if (um->is_bitfield) {
            diag_error(b->d, &um->loc,
                       "union member '%s' is a bit-field; a branch must be a full member",
                       um->name);
            member_ok = false;
        } else if (!um->name[0]) {
            diag_error(b->d, &um->loc,
                       "anonymous %s member in union '%s'; give it a member name: generated code "
                       "reaches a branch through it",
                       um->type->kind == CTYPE_UNION ? "union" : "struct", s->member->name);
            member_ok = false;
        } else if (ma.nullable || ma.skip || counted_by(&ma) || ma.uni) {
            const struct cannot *a = ma.nullable       ? ma.nullable
                                     : ma.skip         ? ma.skip
                                     : counted_by(&ma) ? counted_by(&ma)
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
            if (member_ok && record_pointer(b, um->type))
                bt = map_record_pointer(&sub, um->type, &lf);
            else if (member_ok)
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
        if (bt && bt->holder_c_type && bt->kind == AVROGEN_KIND_UNION) {
            diag_error(b->d, &um->loc,
                       "union member '%s' holds a union; an Avro union cannot be a branch of "
                       "another (spec: Unions)",
                       um->name);
            member_ok = false;
        } else if (bt && bt->holder_c_type && bt->kind == AVROGEN_KIND_NULL) {
            diag_error(b->d, &um->loc,
                       "union member '%s' holds a null; a null branch is a member with "
                       "AVRO_FIELD(type = \"null\")",
                       um->name);
            member_ok = false;
        }
        if (bt) {
            const char *key = branch_key(bt);
            for (size_t j = 0; j < n->n_branches; j++) {
                if (n->branches[j].type && strcmp(branch_key(n->branches[j].type), key) == 0) {
                    diag_error(b->d, &um->loc,
                               "union member '%s' maps to Avro '%s' like member '%s'; an Avro "
                               "union holds each type once",
                               um->name, key, n->branches[j].c_name);
                    member_ok = false;
                }
            }
            if (!report_unused_leaf(&sub, &lf) || !report_unused_padded(&sub))
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
    if (ok && !check_tags(b, s, n, tags))
        ok = false;
    free(tags);
    if (!ok) {
        free_type(n);
        return NULL;
    }
    return n;
}

/* ---- members of a struct: fields, map entries ------------------------- */

/*
 * Check the count or tag member named by `a` (AVRO_ARRAY / AVRO_MAP / AVRO_UNION
 * on member `self` of `owner`) and claim it: its role in r, its name and type
 * in *sib. *sib stays empty after reporting why it cannot serve.
 */
static void claim_sibling(struct builder *b, const struct cdecl *owner,
                          const struct strmap *members, size_t self, const struct cannot *a,
                          struct roles *r, struct sibling *sib)
{
    bool is_tag = strcmp(a->kind, "union") == 0;
    char *name = annot_parse_identifier(a, b->d);
    if (!name)
        return;
    const char *macro = annot_macro(a->kind);
    const char *self_name = owner->members[self].name;
    size_t idx;
    const struct cmember *named = strmap_get(members, name, &idx) ? &owner->members[idx] : NULL;
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
void assign_roles(struct builder *b, const struct cdecl *owner, struct roles *r,
                  struct sibling *sib)
{
    struct strmap members = {0}; /* name -> index of the first member so named */
    for (size_t i = 0; i < owner->n_members; i++) {
        r->role[i] = MODEL_FIELD_VALUE;
        sib[i] = (struct sibling){NULL, NULL, MODEL_SCALAR_NONE};
        strmap_add(&members, owner->members[i].name, i, NULL);
    }
    for (size_t i = 0; i < owner->n_members; i++) {
        const struct cmember *m = &owner->members[i];
        struct member_annots ma;
        if (!m->name[0])
            continue;
        member_annots_init(b, &ma, owner, m, true);
        const struct cannot *a = counted_by(&ma) ? counted_by(&ma) : ma.uni;
        if ((ma.array != NULL) + (ma.map != NULL) + (ma.uni != NULL) + (ma.string != NULL) +
                    (ma.bytes != NULL) >
            1) {
            diag_error(b->d, &a->loc,
                       "member '%s' takes one of AVRO_ARRAY, AVRO_MAP, AVRO_STRING, AVRO_BYTES "
                       "and AVRO_UNION",
                       m->name);
        } else if (a && !ma.skip) {
            claim_sibling(b, owner, &members, i, a, r, &sib[i]);
        }
        member_annots_fini(&ma);
    }
    strmap_free(&members);
}

void roles_claim(struct builder *b, const struct cdecl *owner, struct roles *r)
{
    r->n = owner->n_members;
    r->role = xcalloc(r->n, sizeof *r->role);
    r->serves = xcalloc(r->n, sizeof *r->serves);
    r->sib = xcalloc(r->n, sizeof *r->sib);
    assign_roles(b, owner, r, r->sib);
}

void roles_fini(struct roles *r)
{
    for (size_t i = 0; i < r->n; i++)
        sibling_fini(&r->sib[i]);
    free(r->sib);
    free(r->role);
    free(r->serves);
}

bool may_nest(const struct site *s, const struct ctype *t, const char *what)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    if (b->n_entries >= AVROGEN_MODEL_MAX_NESTED) {
        diag_error(b->d, &at,
                   "%s '%s': arrays, maps and unions nested more than %d deep (map entries and "
                   "holders inside each other); generated code would nest its blocks past what C "
                   "compilers take",
                   s->what, s->member->name, AVROGEN_MODEL_MAX_NESTED);
        return false;
    }
    for (size_t i = 0; i < b->n_entries; i++) {
        if (b->entries[i] == t->decl) {
            diag_error(b->d, &at,
                       "%s '%s': %s '%s' contains itself; Avro needs a named record for "
                       "recursion",
                       s->what, s->member->name, what, t->spelling);
            return false;
        }
    }
    return true;
}

/* A map: `struct e *f AVRO_MAP(n)`, e having members key and value. */
struct model_type *map_map(const struct site *s, const struct ctype *t)
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
    if (!may_nest(s, e, "map entry"))
        return NULL;
    const struct cmember *km = find_member(ed, "key", &ki);
    const struct cmember *vm = find_member(ed, "value", &vi);
    if (!km || !vm) {
        diag_error(b->d, &at, "%s '%s': map entry '%s' needs members 'key' and 'value'", s->what,
                   s->member->name, e->spelling);
        diag_note(b->d, &ed->loc, "'%s' is defined here", e->spelling);
        return NULL;
    }

    unsigned errors = b->d->errors;
    struct roles r;
    roles_claim(b, ed, &r);
    for (size_t i = 0; i < r.n; i++) {
        if (i != ki && i != vi && !(r.role[i] != MODEL_FIELD_VALUE && r.serves[i] == vi)) {
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
    /* A map of nulls: the value's only option may be type = "null". */
    const struct annot_option *vtype = annot_find(&vma.opts, "type");
    bool null_value =
            vma.field && vma.opts.n == 1 && vtype && vtype->str && strcmp(vtype->str, "null") == 0;
    const struct cannot *bad = kma.field                  ? kma.field
                               : kma.skip                 ? kma.skip
                               : vma.field && !null_value ? vma.field
                                                          : vma.skip;
    if (bad) {
        diag_error(b->d, &bad->loc, "%s has no effect on a map entry's key or value",
                   annot_macro(bad->kind));
    } else if (kma.ok && vma.ok) {
        b->entries = xappend(b->entries, b->n_entries, sizeof *b->entries);
        b->entries[b->n_entries++] = ed;
        char *vbase = xasprintf("%s_value", s->fixed_base);
        key = map_member(b, ed, ki, &kma, "map key", s->fixed_base, s->space, &r.sib[ki]);
        value = map_member(b, ed, vi, &vma, "map value", vbase, s->space, &r.sib[vi]);
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
    roles_fini(&r);
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

/*
 * Map member `idx` of `owner` (a record or a map entry), whose count or tag
 * member, if any, assign_roles claimed into *sib: its strings move into the
 * type, and *sib is left empty either way. NULL after reporting any problem.
 */
struct model_type *map_member(struct builder *b, const struct cdecl *owner, size_t idx,
                              struct member_annots *ma, const char *what, const char *fixed_base,
                              const char *space, struct sibling *sib)
{
    const struct cmember *m = &owner->members[idx];
    struct site s = {b, owner, m, what, fixed_base, space, ma, NULL};
    struct leaf lf = {ma->logical, ma->decimal, ma->fixed_name, false, false, false};
    struct model_type *t = NULL;
    bool counted = counted_by(ma) || ma->uni;

    if (is_const_storage(m->type)) {
        diag_error(b->d, &m->loc,
                   "%s '%s' has const type '%s', which decoding cannot write; drop the const "
                   "(or AVRO_SKIP it)",
                   what, m->name, m->type->spelling);
        goto out;
    }
    if (ma->tag) {
        diag_error(b->d, &ma->tag->loc,
                   "AVRO_TAG annotates the members of a union that is AVRO_UNION(tag); '%s' is "
                   "a %s",
                   m->name, what);
        goto out;
    }
    if (counted && !sib->name)
        goto out; /* the count or tag was already reported */
    const struct annot_option *null_opt = annot_find(&ma->opts, "type");
    if (null_opt && null_opt->str && strcmp(null_opt->str, "null") == 0) {
        /* A field of type null: the member only holds the place (like a null
         * branch of an AVRO_UNION), nothing reads or writes it. */
        const struct cannot *other = ma->nullable     ? ma->nullable
                                     : ma->array      ? ma->array
                                     : ma->map        ? ma->map
                                     : ma->uni        ? ma->uni
                                     : ma->logical    ? ma->logical
                                     : ma->decimal    ? ma->decimal
                                     : ma->fixed_name ? ma->fixed_name
                                                      : NULL;
        if (other) {
            diag_error(b->d, &other->loc,
                       "%s does not apply to %s '%s': AVRO_FIELD(type = \"null\") makes it a "
                       "null, which has no shape",
                       annot_macro(other->kind), what, m->name);
            goto out;
        }
        ma->type_used = true;
        t = new_type(AVROGEN_KIND_NULL, MODEL_STORAGE_NONE, m->type);
        goto out;
    }
    if (m->is_bitfield)
        t = map_bitfield(&s);
    else if (ma->nullable)
        t = map_nullable(&s, m->type, &lf);
    else
        t = map_value(&s, m->type, &lf, true);
    if (!t)
        goto out;

    struct model_type *c = t->storage == MODEL_STORAGE_NULLABLE ? t->items : t;
    if (c->storage == MODEL_STORAGE_PTR_COUNT || c->storage == MODEL_STORAGE_CAP_ARRAY) {
        c->count_c_name = sib->name;
        c->count_c_type = sib->c_type;
        c->count_scalar = sib->scalar;
        sib->name = sib->c_type = NULL;
    } else if (c->storage == MODEL_STORAGE_TAGGED) {
        c->tag_c_name = sib->name;
        c->tag_c_type = sib->c_type;
        c->tag_scalar = sib->scalar;
        sib->name = sib->c_type = NULL;
        if (!check_tag_range(b, c)) {
            free_type(t);
            t = NULL;
            goto out;
        }
    }
    if (!report_unused_leaf(&s, &lf) || !report_unused_padded(&s)) {
        free_type(t);
        t = NULL;
        goto out;
    }
    const struct annot_option *type_opt = annot_find(&ma->opts, "type");
    if (type_opt && !ma->type_used) {
        diag_error(b->d, &ma->field->loc,
                   "AVRO_FIELD(type = %s) does not apply to %s '%s' of type '%s'; it selects "
                   "\"long\" for uint64_t, or \"null\" for a null field or union member",
                   type_opt->json, what, m->name, m->type->spelling);
        free_type(t);
        t = NULL;
    }
out:
    sibling_fini(sib);
    return t;
}

/*
 * A member of union type without AVRO_UNION (epoll's `union epoll_data data`,
 * in6_addr's `__in6_u`) whose union has one member not AVRO_SKIP, on the
 * union type or by path (issue 23): the member is that one, through as many
 * such unions as nest, read and written where C has it (f->c_path
 * "data.u64"). *done says whether it was such a member; when it is not,
 * map_member() maps it (and reports a union without a tag).
 */
struct model_type *map_union_as_member(struct builder *b, const struct cdecl *owner, size_t idx,
                                       struct member_annots *ma, const char *fixed_base,
                                       const char *space, struct model_field *f, bool *done)
{
    const struct cmember *m = &owner->members[idx];
    *done = false;
    if (m->type->kind != CTYPE_UNION || ma->uni || ma->fixed_name || m->is_bitfield ||
        !m->type->decl->complete)
        return NULL;
    const struct cdecl *cur = owner;
    size_t at = idx;
    char *path = xstrdup(m->name);
    uint64_t offset = m->offset;
    while (cur->members[at].type->kind == CTYPE_UNION && cur->members[at].type->decl->complete) {
        const struct cdecl *u = cur->members[at].type->decl;
        size_t kept = 0, n_kept = 0;
        for (size_t i = 0; i < u->n_members; i++) {
            struct member_annots uma;
            member_annots_init(b, &uma, u, &u->members[i], true);
            if (!uma.skip) {
                kept = i;
                n_kept++;
            }
            bool uni = uma.uni != NULL;
            member_annots_fini(&uma);
            if (cur != owner && uni)
                n_kept = 2; /* a tagged union inside: its tag would have to be a sibling */
        }
        if (n_kept != 1 || !u->members[kept].name[0])
            break;
        b->info[u->order].tagged = true;
        char *longer = xasprintf("%s.%s", path, u->members[kept].name);
        free(path);
        path = longer;
        offset += u->members[kept].offset;
        cur = u;
        at = kept;
    }
    if (cur == owner) {
        free(path);
        return NULL;
    }
    *done = true;
    const struct cmember *km = &cur->members[at];
    const struct cannot *shape = ma->nullable  ? ma->nullable
                                 : ma->array   ? ma->array
                                 : ma->map     ? ma->map
                                 : ma->string  ? ma->string
                                 : ma->bytes   ? ma->bytes
                                 : ma->padded  ? ma->padded
                                 : ma->logical ? ma->logical
                                 : ma->decimal ? ma->decimal
                                               : ma->tag;
    struct model_type *t = NULL;
    char *type = decl_name(cur);
    if (shape) {
        diag_error(b->d, &shape->loc,
                   "%s does not apply to member '%s', a union read as its member '%s' (the "
                   "others are AVRO_SKIP); annotate that member of '%s' instead",
                   annot_macro(shape->kind), m->name, path, type);
        free(type);
        free(path);
        return NULL;
    }
    struct member_annots kma;
    member_annots_init(b, &kma, cur, km, false);
    if (km->is_bitfield || counted_by(&kma) || kma.uni) {
        diag_error(b->d, &km->loc,
                   "member '%s' is read as its union's member '%s' (the others are AVRO_SKIP), "
                   "which cannot be a bit-field, counted by a sibling or a tagged union; keep "
                   "another member of '%s'",
                   m->name, path, type);
    } else {
        struct sibling none = {NULL, NULL, MODEL_SCALAR_NONE};
        t = map_member(b, cur, at, &kma, "field", fixed_base, space, &none);
    }
    member_annots_fini(&kma);
    free(type);
    f->c_path = path;
    free(f->c_type);
    f->c_type = xstrdup(km->type->spelling);
    f->c_offset = offset;
    f->c_size = km->type->size;
    return t;
}
