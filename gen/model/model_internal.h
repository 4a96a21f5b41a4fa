/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model builder's private interface, shared by model.c and the model_*.c
 * files that build the model by concern. Nothing outside the builder
 * includes it: emitters and tests see model.h only.
 */
#ifndef AVROGEN_MODEL_INTERNAL_H
#define AVROGEN_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "genutil.h"
#include "model.h"
#include "parse/annot.h"
#include "parse/parse.h"

/* What an annotated declaration becomes. Indexed by cdecl.order. */
struct decl_info {
    const struct cannot *head; /* AVRO_RECORD / AVRO_ENUM (in place or out of line) */
    struct model_record *record;
    struct model_enum *enumeration;
    bool nested; /* an untagged struct type of a member: nested_record's to make */
    bool tagged; /* a union some AVRO_UNION member maps (map_tagged_union), or
                    one read as its one member not skipped (map_union_as_member) */
};

struct builder {
    struct cunit *u;
    struct diag *d;
    struct model *m;
    struct decl_info *info;
    const struct cdecl **entries; /* map entry and holder structs being mapped, innermost last */
    size_t n_entries;
    struct strmap named;  /* full name of a record, enum or fixed -> its model_loc (uintptr_t) */
    struct strmap fixeds; /* full name of a fixed -> its index in m->fixeds */
};

/* Every annotation on one member, sorted by kind. */
struct member_annots {
    const struct cannot *field, *nullable, *skip, *array, *map, *uni;
    const struct cannot *string, *bytes, *padded, *tag;
    const struct cannot *logical, *decimal, *fixed_name;
    struct annot_options opts; /* of `field`, parsed */
    bool ok;                   /* no annotation was malformed */
    bool type_used;            /* AVRO_FIELD(type = "long") selected a uint64_t mapping */
    bool padded_used;          /* AVRO_PADDED applied to a char[N] */
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
    const struct site *outer; /* a union member's branch: the union's own site */
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

/* Roles decided before mapping: which members count or tag which. */
struct roles {
    enum model_field_role *role;
    size_t *serves;
    struct sibling *sib; /* roles_claim: per member, its count or tag */
    size_t n;
};

/* model_common.c */
bool is_avro_name(const char *s, size_t n);
bool is_dotted_name(const char *s, bool allow_empty);
enum model_scalar int_scalar(uint64_t size, bool is_signed);
enum model_scalar stdint_scalar(const struct ctype *t);
bool has_typedef(const struct ctype *t, const char *name);
bool is_view(const struct ctype *t, const char *name);
bool is_const_storage(const struct ctype *t);
char *type_for_message(const struct ctype *t);
char *decl_name(const struct cdecl *d);
/* What to do about a type incomplete where it is used: include its header,
 * or, when the unit was parsed as strict ISO C, the feature macros to pass. */
const char *incomplete_advice(const struct builder *b);
/* Add `name` as item i of n to *list, "'a', 'b' and 'c'" (malloc'd; NULL to start). */
void name_list_add(char **list, size_t i, size_t n, const char *name);
void sibling_fini(struct sibling *sib);
struct model_loc member_loc(const struct site *s);
struct model_type *new_type(avrogen_kind kind, enum model_storage storage, const struct ctype *t);
void name_set(struct model_name *n, const char *name, const char *space);
void free_name(struct model_name *n);
void free_type(struct model_type *t);

/* model_annots.c */
void member_annots_init(struct builder *b, struct member_annots *ma, const struct cdecl *owner,
                        const struct cmember *m, bool quiet);
void member_annots_fini(struct member_annots *ma);
/* The AVRO_ARRAY / AVRO_MAP / AVRO_STRING / AVRO_BYTES naming the member's
 * count or length, or NULL. */
const struct cannot *counted_by(const struct member_annots *ma);
bool member_is_annotated(struct builder *b, const struct cdecl *owner, const struct cmember *m);
const struct cmember *find_member(const struct cdecl *d, const char *name, size_t *index);
bool check_known(struct builder *b, const struct cannot *a, const struct annot_options *o,
                 const char *const *known, const char *list);
const char *string_option(struct builder *b, const struct cannot *a, const struct annot_options *o,
                          const char *key, bool *ok);
void alias_option(struct builder *b, const struct cannot *a, const struct annot_options *o,
                  bool dotted, char ***out, size_t *n, bool *ok);
bool named_options(struct builder *b, const struct cdecl *d, const struct cannot *head,
                   const struct annot_options *o, const char *anon_name, const char *anon_prefix,
                   struct model_name *nm, char **c_prefix);
char *c_type_of(const struct cdecl *d);

/* model_leaf.c */
void apply_leaf(const struct site *s, struct leaf *lf, struct model_type *n, const struct ctype *t);
bool name_taken(struct builder *b, const char *fullname, const struct model_loc *at,
                const void *self);
struct model_fixed *get_fixed(const struct site *s, struct leaf *lf, uint64_t size);
bool report_unused_leaf(const struct site *s, const struct leaf *lf);

/*
 * The type mapper. C types nest, so mapping recurses; it does so through two
 * entries only: map_member() (model_member.c: one member, its annotations and
 * roles) and map_value() (model_map.c: the dispatcher that decides which shape
 * a C type is). The shape mappers below it (model_shapes.c, model_holder.c,
 * model_integer.c, model_time.c, nested_record(), map_map(),
 * map_tagged_union()) are called by the dispatcher alone, a bit-field
 * (model_bitfield.c) by map_member(), which has its width. None calls
 * another: a contained type goes back through map_value(), a nested
 * struct's members back through map_member(). map_union_as_member(), which
 * fill_record() tries first on a member of union type, maps the one member
 * of the union kept through map_member() too.
 */

/* model_map.c */
struct model_type *map_value(const struct site *s, const struct ctype *t, struct leaf *lf,
                             bool top);
struct model_type *map_nullable(const struct site *s, const struct ctype *t, struct leaf *lf);

/* model_integer.c */
struct model_type *map_integer(const struct site *s, const struct ctype *t);

/* model_shapes.c */
struct model_type *map_cap_array(const struct site *s, const struct ctype *t, struct leaf *lf);
struct model_type *map_counted_pointer(const struct site *s, const struct ctype *t);
struct model_type *map_padded(const struct site *s, const struct ctype *t); /* char[N] */
bool report_unused_padded(const struct site *s); /* AVRO_PADDED that no char[N] took */

/* model_holder.c: a struct of `value` and its count or tag, as an item or branch */
bool is_holder_struct(const struct ctype *t);
struct model_type *map_holder(const struct site *s, const struct ctype *t);

/* model_time.c */
bool is_time_struct(const struct ctype *t); /* struct timespec, struct timeval */
bool is_time_t(const struct ctype *t);
struct model_type *map_time(const struct site *s, const struct ctype *t, struct leaf *lf);

/* model_bitfield.c */
struct model_type *map_bitfield(const struct site *s);

/* model_tag.c: AVRO_TAG */
bool tag_values(struct builder *b, const struct cannot *a, const char *member, int64_t **out,
                size_t *n);
bool check_tags(struct builder *b, const struct site *s, struct model_type *u,
                const struct cannot *const *tags);
bool check_tag_range(struct builder *b, const struct model_type *u);
/* The second argument of AVRO_ARRAY / AVRO_STRING / AVRO_BYTES(count, max) on
 * the flexible array member `member`, evaluated into *out (1 ..
 * AVROGEN_MODEL_MAX_FLEX); false after reporting. */
bool count_bound(struct builder *b, const struct cannot *a, const char *member, uint64_t *out);

/* model_member.c */
struct model_type *map_tagged_union(const struct site *s, const struct ctype *t);
void assign_roles(struct builder *b, const struct cdecl *owner, struct roles *r,
                  struct sibling *sib);
/* assign_roles for every member of owner, into arrays r owns (roles_fini). */
void roles_claim(struct builder *b, const struct cdecl *owner, struct roles *r);
void roles_fini(struct roles *r);
/* Whether map entry or holder t may be mapped inside the ones being mapped
 * (b->entries): not itself, not past AVROGEN_MODEL_MAX_NESTED; else reported. */
bool may_nest(const struct site *s, const struct ctype *t, const char *what);
struct model_type *map_map(const struct site *s, const struct ctype *t);
struct model_type *map_union_as_member(struct builder *b, const struct cdecl *owner, size_t idx,
                                       struct member_annots *ma, const char *fixed_base,
                                       const char *space, struct model_field *f, bool *done);
struct model_type *map_member(struct builder *b, const struct cdecl *owner, size_t idx,
                              struct member_annots *ma, const char *what, const char *fixed_base,
                              const char *space, struct sibling *sib);

/* model_default.c */
void scalar_range(enum model_scalar s, long long *lo, long long *hi); /* an integer's values */
bool check_default(struct builder *b, const struct model_field *f, const struct member_annots *ma,
                   struct model_type *t);
bool check_default_fit(struct builder *b);

/* model_enum.c */
const struct cenumerator *find_enumerator(const struct cdecl *d, const char *name);
char *enum_symbol_list(const struct model_enum *e);
struct model_enum *create_enum(struct builder *b, const struct cdecl *d, const struct cannot *head);
bool fill_enum(struct builder *b, const struct cdecl *d, struct model_enum *e,
               const struct cannot *head);

/* model_names.c: no generated name collides with another or with the header's */
bool check_generated_names(struct builder *b);

/* model_record.c */
struct model_record *create_record(struct builder *b, const struct cdecl *d,
                                   const struct cannot *head);
struct model_record *nested_record(const struct site *s, const struct cdecl *d);
bool fill_record(struct builder *b, const struct cdecl *d, struct model_record *r);

#endif
