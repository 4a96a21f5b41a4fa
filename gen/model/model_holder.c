/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Holder structs: an unannotated struct whose members are `value` and the
 * count or tag `value` names, used where one C location must carry an array,
 * a map or a union (an array item, a union branch), which need a sibling
 * member that such a location does not have, or a null (an array item). The holder is no Avro
 * record: its Avro type is its value's, as a map entry's value is the map's values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

bool is_holder_struct(const struct ctype *t)
{
    size_t vi;
    return t->kind == CTYPE_STRUCT && t->decl->complete &&
           (t->decl->tag || t->decl->typedef_name) && find_member(t->decl, "value", &vi) != NULL &&
           !find_member(t->decl, "key", &vi);
}

struct model_type *map_holder(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    const struct cdecl *hd = t->decl;
    if (!may_nest(s, t, "holder"))
        return NULL;
    size_t vi = 0;
    const struct cmember *vm = find_member(hd, "value", &vi);
    unsigned errors = b->d->errors;
    struct roles r;
    roles_claim(b, hd, &r);
    for (size_t i = 0; i < r.n; i++) {
        if (i != vi && !(r.role[i] != MODEL_FIELD_VALUE && r.serves[i] == vi))
            diag_error(b->d, &hd->members[i].loc,
                       "holder '%s' may only have the member 'value' and the count or tag of "
                       "'value'; '%s' is neither (a record needs AVRO_RECORD())",
                       t->spelling, hd->members[i].name);
    }
    struct member_annots vma;
    member_annots_init(b, &vma, hd, vm, false);
    struct model_type *value = NULL;
    /* An array of nulls: the value's only option may be type = "null". */
    const struct annot_option *vtype = annot_find(&vma.opts, "type");
    bool null_value =
            vma.field && vma.opts.n == 1 && vtype && vtype->str && strcmp(vtype->str, "null") == 0;
    if ((vma.field && !null_value) || vma.skip) {
        const struct cannot *bad = vma.skip ? vma.skip : vma.field;
        diag_error(b->d, &bad->loc, "%s has no effect on the value of holder '%s'",
                   annot_macro(bad->kind), t->spelling);
    } else if (vma.ok && b->d->errors == errors) {
        b->entries = xappend(b->entries, b->n_entries, sizeof *b->entries);
        b->entries[b->n_entries++] = hd;
        value = map_member(b, hd, vi, &vma, "holder value", s->fixed_base, s->space, &r.sib[vi]);
        b->n_entries--;
    }
    member_annots_fini(&vma);
    roles_fini(&r);
    if (value && value->kind != AVROGEN_KIND_ARRAY && value->kind != AVROGEN_KIND_MAP &&
        value->kind != AVROGEN_KIND_UNION && value->kind != AVROGEN_KIND_NULL) {
        diag_error(b->d, &vm->loc,
                   "holder '%s' holds a %s; a holder (a struct of 'value' and its count or tag) "
                   "is for an array, a map, a union or a null; use the %s itself, or "
                   "AVRO_RECORD() for a record",
                   t->spelling, avrogen_kind_name(value->kind), avrogen_kind_name(value->kind));
        free_type(value);
        return NULL;
    }
    if (!value || b->d->errors != errors) {
        free_type(value);
        return NULL;
    }
    value->holder_c_type = xstrdup(t->spelling);
    return value;
}
