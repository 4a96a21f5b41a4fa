/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small helpers of the model builder: Avro names, the C integer types, type
 * nodes and their freeing, names of C types and declarations for messages.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

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
bool is_avro_name(const char *s, size_t n)
{
    if (n == 0 || !is_name_start(s[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!is_name_char(s[i]))
            return false;
    return true;
}

/* Names separated by dots; "" is the null namespace when allow_empty. */
bool is_dotted_name(const char *s, bool allow_empty)
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
            [MODEL_STORAGE_TIME] = "TIME",           [MODEL_STORAGE_CAP_ARRAY] = "CAP_ARRAY",
            [MODEL_STORAGE_PADDED] = "PADDED",       [MODEL_STORAGE_RECORD_PTR] = "RECORD_PTR",
    };
    return (size_t)s < sizeof names / sizeof *names ? names[s] : "?";
}

enum model_scalar int_scalar(uint64_t size, bool is_signed)
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
enum model_scalar stdint_scalar(const struct ctype *t)
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

bool has_typedef(const struct ctype *t, const char *name)
{
    for (size_t i = 0; i < t->n_typedefs; i++)
        if (strcmp(t->typedefs[i], name) == 0)
            return true;
    return false;
}

bool is_view(const struct ctype *t, const char *name)
{
    return t->kind == CTYPE_STRUCT &&
           (has_typedef(t, name) || (t->decl->tag && strcmp(t->decl->tag, name) == 0));
}

/* A member decode could not assign: const itself, or an array of const. */
bool is_const_storage(const struct ctype *t)
{
    return t->is_const || (t->kind == CTYPE_ARRAY && is_const_storage(t->elem));
}

/* "'size_t' ('unsigned long')" or "'long'": a C type for messages. */
char *type_for_message(const struct ctype *t)
{
    if (strcmp(t->spelling, t->canonical) == 0)
        return xasprintf("'%s'", t->spelling);
    return xasprintf("'%s' ('%s')", t->spelling, t->canonical);
}

/* "order_t", "struct order", "union (anonymous)": a declaration for messages. */
char *decl_name(const struct cdecl *d)
{
    if (d->typedef_name)
        return xstrdup(d->typedef_name);
    return xasprintf("%s %s",
                     d->kind == CDECL_ENUM    ? "enum"
                     : d->kind == CDECL_UNION ? "union"
                                              : "struct",
                     d->tag ? d->tag : "(anonymous)");
}

void sibling_fini(struct sibling *sib)
{
    free(sib->name);
    free(sib->c_type);
    sib->name = sib->c_type = NULL;
}

struct model_loc member_loc(const struct site *s)
{
    return s->member->loc;
}

struct model_type *new_type(avrogen_kind kind, enum model_storage storage, const struct ctype *t)
{
    struct model_type *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->storage = storage;
    n->c_type = xstrdup(t ? t->spelling : "");
    return n;
}

/* A dotted `name` carries its own namespace; else `space` (NULL or "": none). */
void name_set(struct model_name *n, const char *name, const char *space)
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

void free_name(struct model_name *n)
{
    free(n->name);
    free(n->space);
    free(n->fullname);
    free(n->doc);
    for (size_t i = 0; i < n->n_aliases; i++)
        free(n->aliases[i]);
    free(n->aliases);
}

void free_type(struct model_type *t)
{
    if (!t)
        return;
    free(t->c_type);
    free_type(t->items);
    free_type(t->map_key);
    free(t->entry_c_type);
    free(t->holder_c_type);
    free(t->count_c_name);
    free(t->count_c_type);
    free(t->tag_c_name);
    free(t->tag_c_type);
    free(t->time_sec_c_type);
    free(t->time_frac_c_type);
    for (size_t i = 0; i < t->n_branches; i++) {
        free(t->branches[i].c_name);
        free(t->branches[i].tags);
        free_type(t->branches[i].type);
    }
    free(t->branches);
    free(t);
}

void name_list_add(char **list, size_t i, size_t n, const char *name)
{
    char *next = xasprintf("%s%s'%s'", *list ? *list : "",
                           i == 0       ? ""
                           : i + 1 == n ? " and "
                                        : ", ",
                           name);
    free(*list);
    *list = next;
}

int64_t model_branch_tag(const struct model_type *t, size_t i)
{
    return t->branches[i].tags ? t->branches[i].tags[0] : (int64_t)i;
}

const char *incomplete_advice(const struct builder *b)
{
    if (b->u->strict_iso)
        return "include the header that defines it first; if it is included, a strict ISO "
               "dialect (-std=c11, -ansi) hides it: the C library declares POSIX and GNU types "
               "only under feature macros, so pass -D_POSIX_C_SOURCE=200809L or -D_GNU_SOURCE "
               "after '--' (or the -std=gnu17 that is the default)";
    return "include the header that defines it first";
}
