/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model builder: turns the C facts of a header (parse.h) into the model
 * (model.h), applying the C → Avro mapping of DESIGN.md and every rule about
 * annotations. Each problem is reported with the position of the member or
 * annotation at fault and the annotation that would fix it; building goes on
 * after an error so that one run reports everything. This file holds the entry
 * point, the ordering of records and the freeing of the model; the mapping
 * itself lives in the model_*.c files, one concern each (model_internal.h). It
 * does not emit JSON (emit_avsc.c) and does not talk to libclang
 * (clang_parse.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

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

/*
 * Records in dependency order, and which reach themselves, in one depth-first
 * walk (Tarjan's strongly connected components): linear in the records and
 * their fields, where a reachability walk per record was quadratic (issue 12).
 */
struct order_state {
    struct model_record **out;
    size_t n_out;
    struct ptrmap index; /* record -> its position in m->records */
    size_t *number;      /* per record: 0 unvisited, else its visit number */
    size_t *low;         /* the smallest visit number it reaches on the stack */
    bool *on_stack;
    bool *self; /* a field holds the record itself (not through another) */
    size_t *stack;
    size_t n_stack;
    size_t visits;
    struct model *m;
};

static size_t visit_record(struct order_state *st, struct model_record *r);

/* The lowest visit number on the stack that t reaches, or SIZE_MAX; `owner`
 * is the record whose field t is. */
static size_t visit_type(struct order_state *st, const struct model_type *t, size_t owner)
{
    if (!t)
        return SIZE_MAX;
    size_t low = SIZE_MAX, l;
    if (t->record) {
        if (t->record == st->m->records[owner])
            st->self[owner] = true;
        low = visit_record(st, t->record);
    }
    if ((l = visit_type(st, t->items, owner)) < low)
        low = l;
    if ((l = visit_type(st, t->map_key, owner)) < low)
        low = l;
    for (size_t i = 0; i < t->n_branches; i++)
        if ((l = visit_type(st, t->branches[i].type, owner)) < low)
            low = l;
    return low;
}

/* Depth first, records placed after everything they use; a back edge is recursion. */
static size_t visit_record(struct order_state *st, struct model_record *r)
{
    size_t i;
    if (!ptrmap_get(&st->index, r, &i))
        return SIZE_MAX;
    if (st->number[i] != 0)
        return st->on_stack[i] ? st->number[i] : SIZE_MAX;
    st->number[i] = st->low[i] = ++st->visits;
    st->stack[st->n_stack++] = i;
    st->on_stack[i] = true;
    for (size_t f = 0; f < r->n_fields; f++) {
        size_t l = visit_type(st, r->fields[f].type, i);
        if (l < st->low[i])
            st->low[i] = l;
    }
    st->out[st->n_out++] = r;
    if (st->low[i] != st->number[i])
        return st->low[i];
    /* r closes a component: its records reach one another, so each reaches
     * itself when there are two or more (or a field holds r directly). */
    size_t first = st->n_stack;
    while (st->stack[--first] != i)
        ;
    bool cyclic = st->n_stack - first > 1 || st->self[i];
    for (size_t k = first; k < st->n_stack; k++) {
        st->on_stack[st->stack[k]] = false;
        st->m->records[st->stack[k]]->recursive = cyclic;
    }
    st->n_stack = first;
    return SIZE_MAX;
}

static int release_cmp(const struct model_loc *a, const struct model_loc *b, void *u)
{
    return loc_cmp(u, a, b);
}

static void order_records(struct model *m)
{
    if (m->n_records == 0)
        return;
    size_t n = m->n_records;
    struct order_state st;
    memset(&st, 0, sizeof st);
    st.out = xcalloc(n, sizeof *st.out);
    st.number = xcalloc(n, sizeof *st.number);
    st.low = xcalloc(n, sizeof *st.low);
    st.on_stack = xcalloc(n, sizeof *st.on_stack);
    st.self = xcalloc(n, sizeof *st.self);
    st.stack = xcalloc(n, sizeof *st.stack);
    st.m = m;
    for (size_t i = 0; i < n; i++)
        ptrmap_put(&st.index, m->records[i], i);
    for (size_t i = 0; i < n; i++)
        visit_record(&st, m->records[i]);
    memcpy(m->records, st.out, n * sizeof *m->records);
    for (size_t i = 0; i < n; i++)
        m->records[i]->index = i;
    free(st.out);
    free(st.number);
    free(st.low);
    free(st.on_stack);
    free(st.self);
    free(st.stack);
    ptrmap_free(&st.index);
}

/* ---- the entry point --------------------------------------------------- */

/* A struct with neither tag nor typedef: only the member declaring it names it. */
static bool is_untagged_struct(const struct cdecl *d)
{
    return d->kind == CDECL_STRUCT && !d->tag && !d->typedef_name;
}

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

/* "'a', 'b' and 'c'": the member or enumerator names of d, for messages. */
static char *member_list(const struct cdecl *d)
{
    size_t n = d->kind == CDECL_ENUM ? d->n_enumerators : d->n_members;
    char *out = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *name = d->kind == CDECL_ENUM ? d->enumerators[i].name : d->members[i].name;
        name_list_add(&out, i, n, name[0] ? name : "(anonymous)");
    }
    return out ? out : xstrdup("none");
}

/*
 * AVRO_EXTERN_FIELD(struct msg, u.i, ...): every name of the path but the last
 * is a member of struct or union type, whose member the next names, so a
 * member of a type declared inline (an anonymous union) can be annotated out
 * of line. The marker then annotates that member of that type, as it would
 * written in place. False (reported at the marker) when the path names nothing.
 */
static bool resolve_member_path(struct builder *b, struct cmarker *mk)
{
    struct cdecl *d = mk->target;
    const char *at = mk->member;
    for (;;) {
        const char *dot = strchr(at, '.');
        char *name = dot ? xstrndup(at, (size_t)(dot - at)) : xstrdup(at);
        const struct cmember *m = name[0] ? find_member(d, name, NULL) : NULL;
        const struct ctype *t = m ? m->type : NULL;
        bool ok = m && (!dot ||
                        ((t->kind == CTYPE_STRUCT || t->kind == CTYPE_UNION) && t->decl->complete));
        if (!m) {
            char *names = member_list(d);
            if (at == mk->member)
                diag_error(b->d, &mk->loc, "AVRO_EXTERN_FIELD: '%s' has no member '%s'; it has %s",
                           mk->target_spelling, mk->member, names);
            else
                diag_error(b->d, &mk->loc,
                           "AVRO_EXTERN_FIELD: '%s' has no member '%s'; '%.*s' has %s",
                           mk->target_spelling, mk->member, (int)(at - 1 - mk->member), mk->member,
                           names);
            free(names);
        } else if (!ok) {
            diag_error(b->d, &mk->loc,
                       "AVRO_EXTERN_FIELD: '%s' has no member '%s'; '%.*s' has type '%s', "
                       "which has no members",
                       mk->target_spelling, mk->member, (int)(dot - mk->member), mk->member,
                       t->spelling);
        }
        free(name);
        if (!ok)
            return false;
        if (!dot)
            break;
        d = t->decl;
        at = dot + 1;
    }
    char *last = xstrdup(at);
    free(mk->member);
    mk->member = last;
    mk->target = d;
    mk->via_path = true;
    return true;
}

/* The member or enumerator of d whose name is nearest `name`: one slip in a
 * name of three to six letters, two past six (as for annotation macros);
 * NULL if none or two are as near. */
static const char *closest_name(const struct cdecl *d, const char *name)
{
    if (strlen(name) < 3)
        return NULL; /* 'z' for 'x' is a guess, not a slip */
    size_t cap = strlen(name) > 6 ? 2 : 1, best = cap + 1;
    const char *found = NULL;
    size_t n = d->kind == CDECL_ENUM ? d->n_enumerators : d->n_members;
    for (size_t i = 0; i < n; i++) {
        const char *c = d->kind == CDECL_ENUM ? d->enumerators[i].name : d->members[i].name;
        size_t dist = c[0] ? edit_distance(name, c, cap) : cap + 1;
        if (dist < best) {
            best = dist;
            found = c;
        } else if (dist == best && dist <= cap) {
            found = NULL; /* a tie: no single suggestion */
        }
    }
    return best <= cap ? found : NULL;
}

static bool check_markers(struct builder *b)
{
    bool ok = true;
    for (size_t i = 0; i < b->u->n_markers; i++) {
        struct cmarker *mk = &b->u->markers[i];
        const struct cdecl *d = mk->target;
        const char *macro = mk->kind == CMARKER_RECORD ? "AVRO_EXTERN_RECORD"
                            : mk->kind == CMARKER_ENUM ? "AVRO_EXTERN_ENUM"
                                                       : "AVRO_EXTERN_FIELD";
        bool want_enum = mk->kind == CMARKER_ENUM;
        bool fits = d && (mk->kind == CMARKER_FIELD ? true
                          : want_enum               ? d->kind == CDECL_ENUM
                                                    : d->kind == CDECL_STRUCT);
        if (!fits) {
            diag_error(b->d, &mk->loc, "%s: '%s' is not %s type", macro, mk->target_spelling,
                       want_enum                   ? "an enum"
                       : mk->kind == CMARKER_FIELD ? "a struct, union or enum"
                                                   : "a struct");
            ok = false;
        } else if (!d->complete) {
            diag_error(b->d, &mk->loc, "%s: '%s' is incomplete here; %s", macro,
                       mk->target_spelling, incomplete_advice(b));
            ok = false;
        } else if (mk->kind == CMARKER_FIELD) {
            bool is_enum = d->kind == CDECL_ENUM;
            bool is_path = !is_enum && strchr(mk->member, '.');
            if (is_path   ? !resolve_member_path(b, mk)
                : is_enum ? !find_enumerator(d, mk->member)
                          : !find_member(d, mk->member, NULL)) {
                if (!is_path) {
                    char *names = member_list(d);
                    const char *near = closest_name(d, mk->member);
                    char *hint = near ? xasprintf("did you mean '%s'? ", near) : xstrdup("");
                    diag_error(b->d, &mk->loc, "%s: '%s' has no %s '%s'; %sit has %s", macro,
                               mk->target_spelling, is_enum ? "enumerator" : "member", mk->member,
                               hint, names);
                    free(hint);
                    free(names);
                }
                ok = false;
            }
            if (d->kind == CDECL_UNION)
                continue; /* no head: AVRO_UNION reaches it (check_union_markers) */
            const char *head = is_enum ? "enum" : "record";
            bool annotated = false;
            for (size_t j = 0; j < b->u->n_markers; j++) {
                const struct cmarker *o = &b->u->markers[j];
                annotated = annotated || (o->kind == (is_enum ? CMARKER_ENUM : CMARKER_RECORD) &&
                                          o->target == d);
            }
            for (size_t j = 0; j < d->n_annots; j++)
                annotated = annotated || strcmp(d->annots[j].kind, head) == 0;
            if (!annotated) {
                diag_error(b->d, &mk->loc,
                           "%s: '%s' is not annotated as %s; add AVRO_EXTERN_%s(%s) first", macro,
                           mk->target_spelling, is_enum ? "an enum" : "a record",
                           is_enum ? "ENUM" : "RECORD", mk->target_spelling);
                ok = false;
            }
        }
    }
    return ok;
}

/* A member of a union annotated out of line counts only where a record's
 * AVRO_UNION member maps that union (as AVRO_TAG in place does). */
static bool check_union_markers(struct builder *b)
{
    bool ok = true;
    for (size_t i = 0; i < b->u->n_markers; i++) {
        const struct cmarker *mk = &b->u->markers[i];
        const struct cdecl *d = mk->target;
        if (mk->kind != CMARKER_FIELD || !d || d->kind != CDECL_UNION || mk->via_path ||
            b->info[d->order].tagged)
            continue; /* a path's union is a member's, whose AVRO_UNION the record checks */
        diag_error(b->d, &mk->loc,
                   "AVRO_EXTERN_FIELD: no AVRO_UNION member of an annotated record holds '%s'; "
                   "annotate the union member with AVRO_EXTERN_FIELD(struct ..., member, "
                   "AVRO_UNION(tag_field))",
                   mk->target_spelling);
        ok = false;
    }
    return ok;
}

/* Whether r holds a flexible array member (AVRO_STRING(len, max) and the like). */
static bool has_flex(const struct model_record *r)
{
    for (size_t f = 0; f < r->n_fields; f++)
        if (r->fields[f].role == MODEL_FIELD_VALUE && r->fields[f].type &&
            r->fields[f].type->c_flex)
            return true;
    return false;
}

/* A record of a struct with a flexible array member in use is the whole datum
 * only, decoded into one allocation with its room after it: a field, item,
 * pointee or branch of that type is refused (its room would overlap what
 * follows). Its name AVRO_SKIP'd, the struct nests as any other. */
static bool flex_nested(struct builder *b, const struct model_field *f, const struct model_type *t)
{
    if (!t)
        return true;
    if (t->record && has_flex(t->record)) {
        diag_error(b->d, &f->loc,
                   "field '%s' has type '%s', whose flexible array member needs room after the "
                   "struct: a record of it is only a whole datum; AVRO_SKIP the field, or "
                   "hold the event's bytes (avrogen_bytes)",
                   f->c_name, t->record->c_type);
        return false;
    }
    bool ok = flex_nested(b, f, t->items) && flex_nested(b, f, t->map_key);
    for (size_t i = 0; ok && i < t->n_branches; i++)
        ok = flex_nested(b, f, t->branches[i].type);
    return ok;
}

static bool check_flex_nested(struct builder *b)
{
    bool ok = true;
    for (size_t i = 0; i < b->m->n_records; i++) {
        const struct model_record *r = b->m->records[i];
        for (size_t f = 0; f < r->n_fields; f++)
            if (r->fields[f].role == MODEL_FIELD_VALUE)
                ok = flex_nested(b, &r->fields[f], r->fields[f].type) && ok;
    }
    return ok;
}

int model_build(struct cunit *u, struct diag *d, struct model **out)
{
    struct model *m = xcalloc(1, sizeof *m);
    struct builder b = {
            .u = u, .d = d, .m = m, .info = xcalloc(u->n_decls ? u->n_decls : 1, sizeof *b.info)};
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
        info->head = find_head(&b, cd, &ok);
        if (!info->head || is_untagged_struct(cd))
            continue; /* an untagged one is made where a member uses it */
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
        if (b.info[cd->order].record && !is_untagged_struct(cd))
            ok = fill_record(&b, cd, b.info[cd->order].record) && ok;
    }
    /* An annotated untagged struct no member uses: nothing can name it. */
    for (size_t i = 0; i < u->n_decls; i++) {
        const struct cdecl *cd = decls[i];
        if (b.info[cd->order].head && is_untagged_struct(cd) && !b.info[cd->order].nested) {
            create_record(&b, cd, b.info[cd->order].head); /* reports it */
            ok = false;
        }
    }
    /* After every record is filled, as a default may hold records. A record
     * that failed still has all its fields, and only fields whose type and
     * default passed carry default_json, so this is safe after errors too. */
    ok = check_default_fit(&b) && ok;
    ok = check_union_markers(&b) && ok;
    ok = check_flex_nested(&b) && ok;
    /* Last, on a model whose every type and member is known. */
    ok = ok && check_generated_names(&b);
    free(decls);
    free(b.info);
    free(b.entries);
    strmap_free(&b.named);
    strmap_free(&b.fixeds);
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
    free(r->c_typeof);
    free(r->c_prefix);
    for (size_t i = 0; i < r->n_fields; i++) {
        struct model_field *f = &r->fields[i];
        free(f->c_name);
        free(f->c_path);
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

const char *model_field_path(const struct model_field *f)
{
    return f->c_path ? f->c_path : f->c_name;
}
