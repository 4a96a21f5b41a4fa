/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C → Avro mapping of DESIGN.md: one C type (a member, an item, a
 * pointee) to one model type, with the diagnostic that names the fix when a
 * type has no mapping.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* ---- the C → Avro mapping --------------------------------------------- */

/* "T *name" for a member of type t, as C declares it: for an array type
 * written out, "int32_t (*name)[4]"; a typedef name stays "vec4 *name". */
static char *pointer_declaration(const struct ctype *t, const char *name)
{
    if (t->kind != CTYPE_ARRAY || t->n_typedefs != 0)
        return xasprintf("%s *%s", t->spelling, name);
    const struct ctype *e = t;
    while (e->kind == CTYPE_ARRAY && e->n_typedefs == 0)
        e = e->elem;
    /* "int32_t [4][2]": the element's spelling is a prefix of the array's. */
    size_t n = strlen(e->spelling);
    const char *dims = strncmp(t->spelling, e->spelling, n) == 0 ? t->spelling + n : "";
    while (*dims == ' ')
        dims++;
    size_t len = strlen(e->spelling);
    const char *sep = len > 0 && e->spelling[len - 1] == '*' ? "" : " ";
    return xasprintf("%s%s(*%s)%s", e->spelling, sep, name, dims);
}

static void error_unannotated(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    const struct cdecl *decl = t->decl;
    bool is_enum = decl->kind == CDECL_ENUM;
    if (!decl->complete && s->owner->in_system_header) {
        /* Not the user's header: the fix goes in theirs (zlib's z_stream.state
         * points at a struct internal_state no installed header defines). */
        char *owner = decl_name(s->owner);
        diag_error(b->d, &at,
                   "%s '%s' has type '%s', which is incomplete here (a type no header "
                   "included defines, such as a library's private state); write "
                   "AVRO_EXTERN_FIELD(%s, %s, AVRO_SKIP) in your header (if a header does "
                   "define it: %s)",
                   s->what, s->member->name, t->spelling, owner, s->member->name,
                   incomplete_advice(b));
        free(owner);
        return;
    }
    if (!decl->complete) {
        diag_error(b->d, &at,
                   "%s '%s' has type '%s', which is incomplete here; %s, or AVRO_SKIP the "
                   "member",
                   s->what, s->member->name, t->spelling, incomplete_advice(b));
        return;
    }
    if (decl->in_system_header) {
        /* Its definition is not the user's to edit, and the path tells nothing. */
        diag_error(b->d, &at,
                   "%s '%s' has type '%s', which is not annotated; annotate it out of line with "
                   "AVRO_EXTERN_%s(%s) in your header, or AVRO_SKIP the member",
                   s->what, s->member->name, t->spelling, is_enum ? "ENUM" : "RECORD", t->spelling);
        return;
    }
    diag_error(b->d, &at,
               "%s '%s' has type '%s', which is not annotated; add %s to its definition (or "
               "AVRO_EXTERN_%s)",
               s->what, s->member->name, t->spelling, is_enum ? "AVRO_ENUM()" : "AVRO_RECORD()",
               is_enum ? "ENUM" : "RECORD");
    diag_note(b->d, &decl->loc, "'%s' is defined here", t->spelling);
}

/* An unannotated integer member named after pointer member s ("n_lines" next
 * to "lines") is most likely its count: say how to use it as one. */
static void note_count_candidate(const struct site *s)
{
    const struct cdecl *owner = s->owner;
    for (size_t i = 0; i < owner->n_members; i++) {
        const struct cmember *m = &owner->members[i];
        if (m == s->member || m->type->kind != CTYPE_INT || m->is_bitfield ||
            !strstr(m->name, s->member->name) || member_is_annotated(s->b, owner, m))
            continue;
        diag_note(s->b->d, &m->loc,
                  "if '%s' counts the elements of '%s', annotate '%s' AVRO_ARRAY(%s)", m->name,
                  s->member->name, s->member->name, m->name);
        return;
    }
}

/* A pointer member, not nullable: string, or count-sized bytes / array / map. */
/* The integer member beside `name` in d that reads as its length in bytes
 * (name_len, name_size, name_length, n_name, len, length, size, ...), or NULL. */
static const char *length_beside(const struct cdecl *d, const char *name)
{
    static const char *const forms[] = {"%s_len", "%s_size", "%s_length", "%slen",   "%ssize",
                                        "%s_sz",  "n_%s",    "%s_n",      "%s_bytes"};
    static const char *const plain[] = {"len", "length", "size", "nbytes", "n_bytes"};
    const char *found = NULL;
    for (size_t f = 0; f < sizeof forms / sizeof *forms && !found; f++) {
        char *want = xasprintf(forms[f], name);
        const struct cmember *m = find_member(d, want, NULL);
        if (m && m->type->kind == CTYPE_INT && !m->is_bitfield)
            found = m->name;
        free(want);
    }
    for (size_t f = 0; f < sizeof plain / sizeof *plain && !found; f++) {
        const struct cmember *m = find_member(d, plain[f], NULL);
        if (m && m->type->kind == CTYPE_INT && !m->is_bitfield)
            found = m->name;
    }
    return found;
}

static struct model_type *map_pointer(const struct site *s, const struct ctype *t, struct leaf *lf,
                                      bool top)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    const struct ctype *e = t->elem;
    const struct cannot *count = top && s->ma ? counted_by(s->ma) : NULL;

    if (e->kind == CTYPE_FUNCTION) {
        diag_error(b->d, &at,
                   "%s '%s' is a function pointer, which cannot be serialized; AVRO_SKIP it",
                   s->what, s->member->name);
        return NULL;
    }
    if (count && s->ma->map)
        return map_map(s, t);
    if (count && (s->ma->string || s->ma->bytes))
        return map_counted_pointer(s, t);
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
        const char *len = top ? length_beside(s->owner, s->member->name) : NULL;
        char *type = decl_name(s->owner);
        if (len && s->owner->in_system_header)
            diag_error(b->d, &at,
                       "%s '%s' is a 'void *', which cannot be serialized; for the '%s' bytes "
                       "it points at write AVRO_EXTERN_FIELD(%s, %s, AVRO_BYTES(%s)) in your "
                       "header, or AVRO_EXTERN_FIELD(%s, %s, AVRO_SKIP)",
                       s->what, s->member->name, len, type, s->member->name, len, type,
                       s->member->name);
        else if (len)
            diag_error(b->d, &at,
                       "%s '%s' is a 'void *', which cannot be serialized; annotate it "
                       "AVRO_BYTES(%s) for the '%s' bytes it points at, or AVRO_SKIP it",
                       s->what, s->member->name, len, len);
        else if (s->owner->in_system_header)
            diag_error(b->d, &at,
                       "%s '%s' is a 'void *', which cannot be serialized; AVRO_SKIP it "
                       "(AVRO_EXTERN_FIELD(%s, %s, AVRO_SKIP) in your header)",
                       s->what, s->member->name, type, s->member->name);
        else
            diag_error(b->d, &at,
                       "%s '%s' is a 'void *', which cannot be serialized; AVRO_SKIP it, or use "
                       "avrogen_bytes or 'uint8_t *' with AVRO_ARRAY(count_field)",
                       s->what, s->member->name);
        free(type);
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
        !b->info[e->decl->order].record && !b->info[e->decl->order].enumeration &&
        (e->decl->in_system_header || !e->decl->complete) && !is_view(e, "avrogen_str") &&
        !is_view(e, "avrogen_bytes")) {
        if (!e->decl->complete || e->kind == CTYPE_UNION)
            diag_error(b->d, &at,
                       "%s '%s' is a pointer to '%s', which has no Avro mapping; AVRO_SKIP it",
                       s->what, s->member->name, e->spelling);
        else
            diag_error(b->d, &at,
                       "%s '%s' is a pointer to '%s', which is not annotated; AVRO_SKIP it, or "
                       "annotate the type out of line with AVRO_EXTERN_%s(%s) and the member "
                       "AVRO_NULLABLE or AVRO_ARRAY(count_field)",
                       s->what, s->member->name, e->spelling,
                       e->kind == CTYPE_ENUM ? "ENUM" : "RECORD", e->spelling);
        return NULL;
    }
    diag_error(b->d, &at,
               "%s '%s' is a pointer; annotate it %sAVRO_ARRAY(count_field) or AVRO_NULLABLE",
               s->what, s->member->name,
               e->kind == CTYPE_INT && e->is_char ? "AVRO_BYTES(len_field), " : "");
    note_count_candidate(s);
    return NULL;
}

/* A flexible array member (T f[], GNU T f[0]) without a count: what to write. */
static void flex_unannotated(const struct site *s, const struct ctype *t)
{
    struct model_loc at = member_loc(s);
    const struct ctype *e = t->elem;
    const char *macro = e->kind == CTYPE_INT && e->is_plain_char ? "AVRO_STRING"
                        : e->kind == CTYPE_INT && e->is_char     ? "AVRO_BYTES"
                                                                 : "AVRO_ARRAY";
    char *type = decl_name(s->owner);
    if (s->owner->in_system_header)
        diag_error(s->b->d, &at,
                   "%s '%s' is a flexible array member ('%s'); name its count and the most "
                   "items the program allocates after the struct: AVRO_EXTERN_FIELD(%s, %s, "
                   "%s(count_field, max)) in your header, or AVRO_EXTERN_FIELD(%s, %s, "
                   "AVRO_SKIP)",
                   s->what, s->member->name, t->spelling, type, s->member->name, macro, type,
                   s->member->name);
    else
        diag_error(s->b->d, &at,
                   "%s '%s' is a flexible array member ('%s'); annotate it %s(count_field, "
                   "max), max the most items the program allocates after the struct, or "
                   "AVRO_SKIP it",
                   s->what, s->member->name, t->spelling, macro);
    free(type);
}

/*
 * Map the C type t of the member at s. `top` is true for the member itself
 * (where AVRO_ARRAY / AVRO_MAP apply) and false for items and pointees.
 */
struct model_type *map_value(const struct site *s, const struct ctype *t, struct leaf *lf, bool top)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    struct model_type *n = NULL;
    const struct cannot *cnt = top && s->ma ? counted_by(s->ma) : NULL;
    bool flex = t->kind == CTYPE_FLEX_ARRAY || (t->kind == CTYPE_ARRAY && t->len == 0);
    if (cnt && !s->ma->map && annot_count_bound(cnt) && !flex) {
        diag_error(b->d, &cnt->loc,
                   "%s(count_field, max): the second argument applies to a flexible array "
                   "member ('T f[]'); '%s' has type '%s', so give %s only its count_field",
                   annot_macro(cnt->kind), s->member->name, t->spelling, annot_macro(cnt->kind));
        return NULL;
    }
    if (cnt && s->ma->map && flex)
        return map_cap_array(s, t, lf); /* refused: a map of a fixed capacity */
    if (cnt && flex) {
        if (!annot_count_bound(cnt)) {
            char *type = decl_name(s->owner);
            char *count = annot_parse_identifier(cnt, b->d);
            char *fix = s->owner->in_system_header
                                ? xasprintf("AVRO_EXTERN_FIELD(%s, %s, %s(%s, max)) in your header",
                                            type, s->member->name, annot_macro(cnt->kind),
                                            count ? count : "count_field")
                                : xasprintf("%s(%s, max)", annot_macro(cnt->kind),
                                            count ? count : "count_field");
            diag_error(b->d, &cnt->loc,
                       "%s '%s' is a flexible array member ('%s'); %s needs a second argument, "
                       "the most items the program allocates after the struct: %s",
                       s->what, s->member->name, t->spelling, annot_macro(cnt->kind), fix);
            free(fix);
            free(count);
            free(type);
            return NULL;
        }
        uint64_t max;
        if (!count_bound(b, cnt, s->member->name, &max))
            return NULL;
        struct ctype room = *t; /* as T f[max] */
        room.kind = CTYPE_ARRAY;
        room.len = max;
        n = map_cap_array(s, &room, lf);
        if (n)
            n->c_flex = true;
        return n;
    }
    if (cnt && t->kind == CTYPE_ARRAY && t->len != 0)
        return map_cap_array(s, t, lf); /* the first `count` of its N items */
    if (top && s->ma && counted_by(s->ma) && t->kind != CTYPE_POINTER && t->kind != CTYPE_ARRAY) {
        const struct cannot *a = counted_by(s->ma);
        diag_error(b->d, &a->loc, "%s applies to pointers and C arrays; '%s' has type '%s'",
                   annot_macro(a->kind), s->member->name, t->spelling);
        return NULL;
    }

    if (top && s->ma && s->ma->uni && t->kind != CTYPE_UNION) {
        diag_error(b->d, &s->ma->uni->loc,
                   "AVRO_UNION applies to a member of C union type; '%s' has type '%s'",
                   s->member->name, t->spelling);
        return NULL;
    }

    /* AVRO_FIXED_NAME on a member of struct or union type (struct in6_addr, a
     * MAC address, a UUID struct; an array's items, as uint8_t[3][4] is an
     * array of fixed) or an array of other scalars (uint32_t[4]): its bytes
     * as stored, fixed(sizeof), copied with memcpy (issue 23). */
    const struct ctype *inner = t;
    while (inner->kind == CTYPE_ARRAY)
        inner = inner->elem;
    bool scalars = t->kind == CTYPE_ARRAY && inner->kind != CTYPE_STRUCT &&
                   inner->kind != CTYPE_UNION && !(inner->kind == CTYPE_INT && inner->is_char);
    if (lf && lf->fixed_name && !lf->fixed_used && t->size != 0 &&
        (t->kind == CTYPE_STRUCT || t->kind == CTYPE_UNION || (top && scalars))) {
        n = new_type(AVROGEN_KIND_FIXED, MODEL_STORAGE_C_ARRAY, t);
        n->scalar = MODEL_SCALAR_U8;
        n->c_len = t->size;
        n->c_object = true;
        n->fixed = get_fixed(s, lf, t->size);
        if (!n->fixed) {
            free_type(n);
            return NULL;
        }
        apply_leaf(s, lf, n, t);
        return n;
    }
    switch (t->kind) {
    case CTYPE_BOOL:
        n = new_type(AVROGEN_KIND_BOOLEAN, MODEL_STORAGE_SCALAR, t);
        n->scalar = MODEL_SCALAR_BOOL;
        break;
    case CTYPE_INT:
        if (is_time_t(t) && lf->logical && !lf->logical_used)
            n = map_time(s, t, lf); /* seconds, as a long of the logical type's unit */
        else
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
            flex_unannotated(s, t);
            return NULL;
        }
        if (e->kind == CTYPE_INT && e->is_plain_char && s->ma && s->ma->padded) {
            n = map_padded(s, t);
        } else if (e->kind == CTYPE_INT && e->is_plain_char) {
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
        flex_unannotated(s, t);
        return NULL;
    case CTYPE_STRUCT:
        if (is_view(t, "avrogen_str")) {
            n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_STR_VIEW, t);
        } else if (is_view(t, "avrogen_bytes")) {
            n = new_type(AVROGEN_KIND_BYTES, MODEL_STORAGE_BYTES_VIEW, t);
        } else if (b->info[t->decl->order].record) {
            n = new_type(AVROGEN_KIND_RECORD, MODEL_STORAGE_STRUCT, t);
            n->record = b->info[t->decl->order].record;
        } else if (!t->decl->tag && !t->decl->typedef_name && t->decl->complete) {
            n = new_type(AVROGEN_KIND_RECORD, MODEL_STORAGE_STRUCT, t);
            n->record = nested_record(s, t->decl);
            if (!n->record) {
                free_type(n);
                return NULL;
            }
        } else if (b->info[t->decl->order].head) {
            return NULL; /* annotated, but its annotation was reported as wrong */
        } else if (is_time_struct(t)) {
            n = map_time(s, t, lf);
        } else if (!top && is_holder_struct(t)) {
            return map_holder(s, t); /* an array, map or union as an item or branch */
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
                       "member that says which union member is set, or AVRO_SKIP all of its "
                       "members but the one it is to be read as",
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

struct model_type *map_nullable(const struct site *s, const struct ctype *t, struct leaf *lf)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    struct model_type *items;
    enum model_null_via via = MODEL_NULL_VIA_SELF;
    bool counted = counted_by(s->ma) != NULL;

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
        char *decl = pointer_declaration(t, s->member->name);
        diag_error(b->d, &at,
                   "AVRO_NULLABLE needs a pointer: %s '%s' has type %s; declare it '%s' (NULL is "
                   "null)",
                   s->what, s->member->name, tm, decl);
        free(decl);
        free(tm);
        return NULL;
    }
    if (!items)
        return NULL;
    if (items->holder_c_type) {
        diag_error(b->d, &at,
                   "%s '%s' points to holder '%s'; AVRO_NULLABLE goes on the holder's own "
                   "'value' member, or on a pointer member with AVRO_ARRAY or AVRO_MAP",
                   s->what, s->member->name, items->holder_c_type);
        free_type(items);
        return NULL;
    }
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
