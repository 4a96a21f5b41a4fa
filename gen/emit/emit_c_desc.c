/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The type descriptors of generated code (avrogen_type, avrogen_field_desc in
 * gencode.h): one static object of tables per file, so that entries may point
 * at each other in any order in C and in C++, then the public P_avro_type of
 * each record of the header. Offsets and sizes are offsetof/sizeof
 * expressions: the compiler owns the layout.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c_internal.h"
#include "genutil.h"

/* ---- enumerator names ---------------------------------------------------- */

static const char *scalar_enum_name(enum model_scalar s)
{
    static const char *const names[] = {
            "AVROGEN_SCALAR_NONE", "AVROGEN_SCALAR_BOOL",  "AVROGEN_SCALAR_I8",
            "AVROGEN_SCALAR_I16",  "AVROGEN_SCALAR_I32",   "AVROGEN_SCALAR_I64",
            "AVROGEN_SCALAR_U8",   "AVROGEN_SCALAR_U16",   "AVROGEN_SCALAR_U32",
            "AVROGEN_SCALAR_U64",  "AVROGEN_SCALAR_FLOAT", "AVROGEN_SCALAR_DOUBLE",
    };
    return (size_t)s < sizeof names / sizeof *names ? names[s] : "AVROGEN_SCALAR_NONE";
}

static const char *storage_enum_name(enum model_storage s)
{
    static const char *const names[] = {
            "AVROGEN_STORAGE_NONE",       "AVROGEN_STORAGE_SCALAR",    "AVROGEN_STORAGE_CSTRING",
            "AVROGEN_STORAGE_CHAR_ARRAY", "AVROGEN_STORAGE_STR_VIEW",  "AVROGEN_STORAGE_BYTES_VIEW",
            "AVROGEN_STORAGE_PTR_COUNT",  "AVROGEN_STORAGE_C_ARRAY",   "AVROGEN_STORAGE_STRUCT",
            "AVROGEN_STORAGE_ENUM",       "AVROGEN_STORAGE_NULLABLE",  "AVROGEN_STORAGE_TAGGED",
            "AVROGEN_STORAGE_TIME",       "AVROGEN_STORAGE_CAP_ARRAY", "AVROGEN_STORAGE_PADDED",
    };
    if (s == MODEL_STORAGE_RECORD_PTR) /* after the runtime's BITFIELD, which the model has not */
        return "AVROGEN_STORAGE_RECORD_PTR";
    return (size_t)s < sizeof names / sizeof *names ? names[s] : "AVROGEN_STORAGE_NONE";
}

static const char *kind_enum_name(avrogen_kind k)
{
    static const char *const names[] = {
            "AVROGEN_KIND_NULL",  "AVROGEN_KIND_BOOLEAN", "AVROGEN_KIND_INT",
            "AVROGEN_KIND_LONG",  "AVROGEN_KIND_FLOAT",   "AVROGEN_KIND_DOUBLE",
            "AVROGEN_KIND_BYTES", "AVROGEN_KIND_STRING",  "AVROGEN_KIND_RECORD",
            "AVROGEN_KIND_ENUM",  "AVROGEN_KIND_ARRAY",   "AVROGEN_KIND_MAP",
            "AVROGEN_KIND_UNION", "AVROGEN_KIND_FIXED",
    };
    return (size_t)k < sizeof names / sizeof *names ? names[k] : "AVROGEN_KIND_NULL";
}

static const char *logical_enum_name(avrogen_logical l)
{
    static const char *const names[] = {
            "AVROGEN_LOGICAL_NONE",
            "AVROGEN_LOGICAL_DECIMAL",
            "AVROGEN_LOGICAL_UUID",
            "AVROGEN_LOGICAL_DATE",
            "AVROGEN_LOGICAL_TIME_MILLIS",
            "AVROGEN_LOGICAL_TIME_MICROS",
            "AVROGEN_LOGICAL_TIMESTAMP_MILLIS",
            "AVROGEN_LOGICAL_TIMESTAMP_MICROS",
            "AVROGEN_LOGICAL_TIMESTAMP_NANOS",
            "AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS",
            "AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS",
            "AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS",
            "AVROGEN_LOGICAL_DURATION",
    };
    return (size_t)l < sizeof names / sizeof *names ? names[l] : "AVROGEN_LOGICAL_NONE";
}

/* ---- tables -------------------------------------------------------------- */

/* One location to describe: see avrogen_field_desc in gencode.h. */
struct slot {
    const struct model_type *t;
    const char *name;       /* Avro field name, union member, or NULL */
    const char *container;  /* C type of the struct the location is reached from */
    char *path;             /* member designator inside container: "lines[0]", "u.x" */
    bool zero_offset;       /* an array item or pointer target: offset 0 */
    enum model_scalar part; /* a member of TIME instant t: a scalar of this type; else NONE */
    const struct model_branch *branch; /* a branch of a tagged union, else NULL */
    char *sibs; /* designator of the holder whose `value` the location is, with its '.'
                   ("u.list."): where its count or tag is; NULL: in container itself */
};

/* A queued sub-array of descriptors: the children of one slot. */
struct pending {
    char *member; /* member of the tables object */
    struct slot *slots;
    size_t n;
};

struct tables {
    struct textbuf members; /* the struct's member declarations */
    struct textbuf init;    /* its initializer, in the same order */
    struct textbuf exts;    /* avrogen_field_ext objects, defined ahead of the tables */
    bool ext_u64;           /* the shared ext of checked uint64_t longs is defined */
    unsigned n_tag_exts;    /* exts of AVRO_TAG branches defined */
    unsigned n_bit_exts;    /* exts of bit-fields defined */
    struct pending *queue;
    size_t n_queue;
    size_t next;  /* first unprocessed queue entry */
    unsigned sub; /* sub-array counter of the current record */
};

/* A comma-separated list wrapped at EC_COLUMNS, the first line starting with
 * `open`, continuation lines aligned one past it. */
static void wrapped(struct textbuf *out, size_t col0, const char *open, const char *const *items,
                    size_t n, const char *close)
{
    struct textbuf row = TEXTBUF_INIT;
    for (size_t i = 0; i < col0; i++)
        textbuf_putc(&row, ' ');
    textbuf_puts(&row, open);
    size_t hang = col0 + strlen(open);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const char *sep = first ? "" : ", ";
        size_t need = strlen(sep) + strlen(items[i]) + (i + 1 == n ? strlen(close) : 1);
        if (!first && row.len + need > EC_COLUMNS) {
            textbuf_puts(&row, ",\n");
            textbuf_append(out, row.data, row.len);
            textbuf_free(&row);
            for (size_t k = 0; k < hang; k++)
                textbuf_putc(&row, ' ');
            sep = "";
        }
        textbuf_puts(&row, sep);
        textbuf_puts(&row, items[i]);
        first = false;
    }
    textbuf_puts(&row, close);
    textbuf_putc(&row, '\n');
    textbuf_append(out, row.data, row.len);
    textbuf_free(&row);
}

/* `{a, b, c},` on one line when it fits, else one item per line with its
 * index (the comments keep clang-format from laying them out in columns). */
static void column_list(struct textbuf *out, size_t col0, const char *const *items, size_t n)
{
    size_t width = col0 + 3;
    for (size_t i = 0; i < n; i++)
        width += strlen(items[i]) + (i != 0 ? 2 : 0);
    if (width <= EC_COLUMNS) {
        wrapped(out, col0, "{", items, n, "},");
        return;
    }
    textbuf_printf(out, "%*s{\n", (int)col0, "");
    size_t longest = 0;
    for (size_t i = 0; i < n; i++)
        if (strlen(items[i]) > longest)
            longest = strlen(items[i]);
    /* Trailing comments aligned, as clang-format aligns them. */
    for (size_t i = 0; i < n; i++)
        textbuf_printf(out, "%*s%s,%*s/* %zu */\n", (int)col0 + 8, "", items[i],
                       (int)(longest + 1 - strlen(items[i])), "", i);
    textbuf_printf(out, "%*s},\n", (int)col0, "");
}

static char *type_ref(const struct gen *g, const struct model_type *t)
{
    if (t->storage == MODEL_STORAGE_STRUCT || t->storage == MODEL_STORAGE_RECORD_PTR) {
        const struct model_record *r = t->record;
        if (r->in_main_file)
            return xasprintf("&%s_avro_type", r->c_prefix);
        return xasprintf("&%s.%s_type", g->tables, r->c_prefix);
    }
    if (t->storage == MODEL_STORAGE_ENUM)
        return xasprintf("&%s.%s_enum", g->tables, t->enumeration->c_prefix);
    if (t->kind == AVROGEN_KIND_FIXED && t->fixed != NULL)
        return xasprintf("&%s.fixed%zu", g->tables, ec_fixed_index(g->m, t->fixed));
    return xstrdup("NULL");
}

/* Slot s is a holder (model.h): describe its `value`, with the siblings beside it. */
static void hold_slot(struct slot *s)
{
    if (s->zero_offset) {
        /* An item or pointer target: the holder is the storage itself. */
        s->container = s->t->holder_c_type;
        free(s->path);
        s->path = xstrdup("value");
        s->zero_offset = false;
        return;
    }
    free(s->sibs);
    s->sibs = xasprintf("%s.", s->path);
    char *path = xasprintf("%svalue", s->sibs);
    free(s->path);
    s->path = path;
}

/* The field of rec that is a flexible array member (there is at most one). */
static size_t flex_index(const struct model_record *rec)
{
    for (size_t f = 0; f < rec->n_fields; f++)
        if (rec->fields[f].role == MODEL_FIELD_VALUE && rec->fields[f].type->c_flex)
            return f;
    return 0;
}

/* The children of slot s, or 0 when it has none (*out set to a new array). */
static size_t slot_children(const struct slot *s, struct slot **out)
{
    const struct model_type *t = s->t;
    struct slot *c = NULL;
    size_t n = 0;
    if ((t->kind == AVROGEN_KIND_ARRAY) &&
        (t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_C_ARRAY ||
         t->storage == MODEL_STORAGE_CAP_ARRAY)) {
        n = 1;
        c = xcalloc(1, sizeof *c);
        c[0] = (struct slot){
                t->items,          NULL, s->container, xasprintf("%s[0]", s->path), true,
                MODEL_SCALAR_NONE, NULL, NULL};
    } else if (t->storage == MODEL_STORAGE_TIME && t->time_frac_member == NULL) {
        /* time_t: the seconds are the location itself. */
        n = 1;
        c = xcalloc(1, sizeof *c);
        c[0] = (struct slot){t,    NULL, s->container, xstrdup(s->path), true, t->time_sec_scalar,
                             NULL, NULL};
    } else if (t->storage == MODEL_STORAGE_TIME) {
        /* Members of the instant, at offsets inside it. */
        n = 2;
        c = xcalloc(2, sizeof *c);
        c[0] = (struct slot){t,    NULL, t->c_type, xstrdup("tv_sec"), false, t->time_sec_scalar,
                             NULL, NULL};
        c[1] = (struct slot){
                t,    NULL, t->c_type, xstrdup(t->time_frac_member), false, t->time_frac_scalar,
                NULL, NULL};
    } else if (t->kind == AVROGEN_KIND_MAP) {
        n = 2;
        c = xcalloc(2, sizeof *c);
        c[0] = (struct slot){t->map_key,     NULL,  t->entry_c_type,
                             xstrdup("key"), false, MODEL_SCALAR_NONE,
                             NULL,           NULL};
        c[1] = (struct slot){
                t->items, NULL, t->entry_c_type, xstrdup("value"), false, MODEL_SCALAR_NONE,
                NULL,     NULL};
    } else if (t->storage == MODEL_STORAGE_NULLABLE) {
        n = 1;
        c = xcalloc(1, sizeof *c);
        if (t->null_via == MODEL_NULL_VIA_PTR)
            c[0] = (struct slot){
                    t->items,          NULL, s->container, xasprintf("%s[0]", s->path), true,
                    MODEL_SCALAR_NONE, NULL, NULL};
        else /* its count, if any, is where the nullable's would be */
            c[0] = (struct slot){t->items,       NULL,
                                 s->container,   xstrdup(s->path),
                                 s->zero_offset, MODEL_SCALAR_NONE,
                                 NULL,           s->sibs != NULL ? xstrdup(s->sibs) : NULL};
    } else if (t->storage == MODEL_STORAGE_RECORD_PTR) {
        /* The record at the pointer's target, as a nullable pointer's. */
        n = 1;
        c = xcalloc(1, sizeof *c);
        c[0] = (struct slot){
                t->items,          NULL, s->container, xasprintf("%s[0]", s->path), true,
                MODEL_SCALAR_NONE, NULL, NULL};
    } else if (t->storage == MODEL_STORAGE_TAGGED) {
        n = t->n_branches;
        c = xcalloc(n, sizeof *c);
        for (size_t i = 0; i < n; i++)
            c[i] = (struct slot){
                    t->branches[i].type, t->branches[i].c_name,
                    s->container,        xasprintf("%s.%s", s->path, t->branches[i].c_name),
                    s->zero_offset,      MODEL_SCALAR_NONE,
                    &t->branches[i],     NULL};
    }
    for (size_t i = 0; i < n; i++)
        if (c[i].t != NULL && c[i].t->holder_c_type != NULL)
            hold_slot(&c[i]);
    *out = c;
    return n;
}

/* The avrogen_field_ext of slot s, defined in tb->exts when it needs one: a
 * reference to it, or "NULL". */
static char *slot_ext(struct gen *g, struct tables *tb, const struct slot *s)
{
    const struct model_type *t = s->t;
    bool u64 = t->storage == MODEL_STORAGE_SCALAR && t->u64_checked;
    if (s->branch && s->branch->tags) {
        /* An AVRO_TAG branch: its tag values, its own ext. */
        const struct model_branch *br = s->branch;
        unsigned i = tb->n_tag_exts++;
        char **values = xcalloc(br->n_tags, sizeof *values);
        for (size_t k = 0; k < br->n_tags; k++)
            values[k] = ec_int64_literal(br->tags[k]);
        char *open = xasprintf("static const int64_t %s_tags%u[] = {", g->tables, i);
        wrapped(&tb->exts, 0, open, (const char *const *)values, br->n_tags, "};");
        free(open);
        for (size_t k = 0; k < br->n_tags; k++)
            free(values[k]);
        free(values);
        char *tags = xasprintf("%s_tags%u", g->tables, i), *n = xasprintf("%zu", br->n_tags);
        const char *const init[] = {u64 ? "AVROGEN_EXT_U64_CHECKED" : "0", tags, n, "NULL", "NULL"};
        open = xasprintf("static const avrogen_field_ext %s_ext_tags%u = {", g->tables, i);
        wrapped(&tb->exts, 0, open, init, 5, "};");
        free(open);
        free(tags);
        free(n);
        return xasprintf("&%s_ext_tags%u", g->tables, i);
    }
    if (u64) {
        char *name = xasprintf("%s_ext_u64", g->tables);
        if (!tb->ext_u64) {
            static const char *const init[] = {"AVROGEN_EXT_U64_CHECKED", "NULL", "0", "NULL",
                                               "NULL"};
            char *open = xasprintf("static const avrogen_field_ext %s = {", name);
            wrapped(&tb->exts, 0, open, init, 5, "};");
            free(open);
        }
        tb->ext_u64 = true;
        char *ref = xasprintf("&%s", name);
        free(name);
        return ref;
    }
    return xstrdup("NULL");
}

/* The descriptor of a location without children, count or tag (a member of
 * an instant, a bit-field), appended to tb->init. */
static void leaf_desc(struct tables *tb, const char *name, const char *off, const char *size,
                      const char *kind, const char *storage, const char *scalar, const char *len,
                      const char *ext)
{
    const char *it[] = {name,
                        off,
                        size,
                        kind,
                        "AVROGEN_LOGICAL_NONE",
                        storage,
                        scalar,
                        len,
                        "0",
                        "0",
                        "AVROGEN_SCALAR_NONE",
                        "0",
                        "false",
                        "NULL",
                        "0",
                        "NULL",
                        ext};
    wrapped(&tb->init, 16, "{", it, sizeof it / sizeof *it, "},");
}

/* A bit-field: no offsetof, no sizeof; functions in tb->exts get and set it. */
static void bitfield_init(struct gen *g, struct tables *tb, const struct slot *s,
                          const char *container)
{
    const struct model_type *t = s->t;
    unsigned i = tb->n_bit_exts++;
    char *get = xasprintf("%s_get_bits%u", g->tables, i),
         *set = xasprintf("%s_set_bits%u", g->tables, i);
    char *lv = xasprintf("((%s *)base)->%s", container, s->path);
    char *store = ec_bitfield_store(t, lv, "v");
    textbuf_printf(&tb->exts,
                   "static int64_t %s(const void *base)\n{\n    return (int64_t)((const %s "
                   "*)base)->%s;\n}\n\n"
                   "static void %s(void *base, int64_t v)\n{\n    %s\n}\n\n",
                   get, container, s->path, set, store);
    const char *const init[] = {"0", "NULL", "0", get, set};
    char *open = xasprintf("static const avrogen_field_ext %s_ext_bits%u = {", g->tables, i);
    wrapped(&tb->exts, 0, open, init, 5, "};");
    free(open);
    char *ct = ec_unqualified(t->c_type);
    char *name = s->name != NULL ? xasprintf("\"%s\"", s->name) : xstrdup("NULL");
    char *size = xasprintf("sizeof(%s)", ct), *len = xasprintf("%u", t->bit_width);
    char *ext = xasprintf("&%s_ext_bits%u", g->tables, i);
    leaf_desc(tb, name, "0", size, kind_enum_name(t->kind), "AVROGEN_STORAGE_BITFIELD",
              scalar_enum_name(t->scalar), len, ext);
    free(ext);
    free(len);
    free(size);
    free(name);
    free(ct);
    free(store);
    free(lv);
    free(set);
    free(get);
}

/* The initializer of one avrogen_field_desc, appended to tb->init. */
static void slot_init(struct gen *g, struct tables *tb, const struct model_record *rec,
                      const struct slot *s)
{
    const struct model_type *t = s->t;
    char *items[20];
    size_t k = 0;
    char *container = ec_unqualified(s->container);
    if (s->part != MODEL_SCALAR_NONE) {
        /* A member of an instant: a plain integer there. */
        char *off =
                s->zero_offset ? xstrdup("0") : xasprintf("offsetof(%s, %s)", container, s->path);
        char *size = xasprintf("AVROGEN_SIZEOF_MEMBER(%s, %s)", container, s->path);
        leaf_desc(tb, "NULL", off, size, "AVROGEN_KIND_LONG", "AVROGEN_STORAGE_SCALAR",
                  scalar_enum_name(s->part), "0", "NULL");
        free(off);
        free(size);
        free(container);
        return;
    }
    if (t->bit_width) {
        bitfield_init(g, tb, s, container);
        free(container);
        return;
    }
    items[k++] = s->name != NULL ? xasprintf("\"%s\"", s->name) : xstrdup("NULL");
    items[k++] = s->zero_offset ? xstrdup("0") : xasprintf("offsetof(%s, %s)", container, s->path);
    items[k++] = t->storage == MODEL_STORAGE_NONE ? xstrdup("0")
                 : t->c_flex /* T f[]: its room after the struct */
                         ? xasprintf("%" PRIu64 " * AVROGEN_SIZEOF_MEMBER(%s, %s[0])", t->c_len,
                                     container, s->path)
                         : xasprintf("AVROGEN_SIZEOF_MEMBER(%s, %s)", container, s->path);
    items[k++] = xstrdup(kind_enum_name(t->kind));
    items[k++] = xstrdup(logical_enum_name(t->logical));
    items[k++] = xstrdup(storage_enum_name(t->storage));
    bool counted = t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_CAP_ARRAY;
    items[k++] = xstrdup(scalar_enum_name(
            t->storage == MODEL_STORAGE_SCALAR || t->storage == MODEL_STORAGE_ENUM || counted
                    ? t->scalar
                    : MODEL_SCALAR_NONE));
    bool has_len = t->storage == MODEL_STORAGE_C_ARRAY || t->storage == MODEL_STORAGE_CHAR_ARRAY ||
                   t->storage == MODEL_STORAGE_CAP_ARRAY || t->storage == MODEL_STORAGE_PADDED;
    items[k++] = has_len                            ? xasprintf("%" PRIu64, t->c_len)
                 : t->storage == MODEL_STORAGE_TIME ? xasprintf("%" PRIu32, t->time_frac_per_sec)
                                                    : xstrdup("0");
    bool has_elem = counted || t->storage == MODEL_STORAGE_C_ARRAY;
    /* A void * of bytes has no item to take the size of: they are bytes. */
    bool void_bytes = t->storage == MODEL_STORAGE_PTR_COUNT && t->kind == AVROGEN_KIND_BYTES &&
                      strstr(t->c_type, "void") != NULL;
    items[k++] = void_bytes || t->c_object ? xstrdup("1")
                 : has_elem ? xasprintf("AVROGEN_SIZEOF_MEMBER(%s, %s[0])", container, s->path)
                            : xstrdup("0");
    const char *aux = counted                              ? t->count_c_name
                      : t->storage == MODEL_STORAGE_TAGGED ? t->tag_c_name
                                                           : NULL;
    items[k++] = aux != NULL
                         ? xasprintf("offsetof(%s, %s%s)", container, s->sibs ? s->sibs : "", aux)
                         : xstrdup("0");
    items[k++] =
            xstrdup(scalar_enum_name(counted                              ? t->count_scalar
                                     : t->storage == MODEL_STORAGE_TAGGED ? t->tag_scalar
                                                                          : MODEL_SCALAR_NONE));
    bool nullable = t->storage == MODEL_STORAGE_NULLABLE;
    items[k++] = xasprintf("%u", nullable ? t->null_index : 0);
    items[k++] = xstrdup(nullable && t->null_via == MODEL_NULL_VIA_PTR ? "true" : "false");

    struct slot *children;
    size_t n = slot_children(s, &children);
    if (n != 0) {
        struct pending p = {xasprintf("%s_sub%u", rec->c_prefix, tb->sub++), children, n};
        tb->queue = xappend(tb->queue, tb->n_queue, sizeof *tb->queue);
        tb->queue[tb->n_queue++] = p;
        items[k++] = xasprintf("%s.%s", g->tables, p.member);
    } else {
        items[k++] = xstrdup("NULL");
    }
    items[k++] = xasprintf("%zu", n);
    items[k++] = type_ref(g, t);
    items[k++] = slot_ext(g, tb, s);
    wrapped(&tb->init, 16, "{", (const char *const *)items, k, "},");
    for (size_t i = 0; i < k; i++)
        free(items[i]);
    free(container);
}

static void free_slots(struct slot *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].path);
        free(s[i].sibs);
    }
    free(s);
}

/* Emit queued sub-arrays until the queue is empty. */
static void drain_queue(struct gen *g, struct tables *tb, const struct model_record *rec)
{
    while (tb->next < tb->n_queue) {
        struct pending p = tb->queue[tb->next++];
        textbuf_printf(&tb->members, "    avrogen_field_desc %s[%zu];\n", p.member, p.n);
        textbuf_printf(&tb->init, "        /* %s */\n", p.member);
        textbuf_puts(&tb->init, "        {\n");
        for (size_t i = 0; i < p.n; i++)
            slot_init(g, tb, rec, &p.slots[i]);
        textbuf_puts(&tb->init, "        },\n");
        free_slots(p.slots, p.n);
        free(p.member);
    }
}

/* The fields of rec: its fields array and everything nested below them. */
static void record_tables(struct gen *g, struct tables *tb, const struct model_record *rec)
{
    tb->sub = 0;
    if (rec->n_avro_fields != 0) {
        textbuf_printf(&tb->members, "    avrogen_field_desc %s_fields[%zu];\n", rec->c_prefix,
                       rec->n_avro_fields);
        textbuf_printf(&tb->init, "        /* %s_fields: %s */\n", rec->c_prefix, rec->c_type);
        textbuf_puts(&tb->init, "        {\n");
        for (size_t i = 0; i < rec->n_fields; i++) {
            const struct model_field *f = &rec->fields[i];
            if (f->role != MODEL_FIELD_VALUE)
                continue;
            struct slot s = {
                    f->type, f->avro_name,      rec->c_type, f->c_path ? f->c_path : f->c_name,
                    false,   MODEL_SCALAR_NONE, NULL,        NULL};
            slot_init(g, tb, rec, &s);
        }
        textbuf_puts(&tb->init, "        },\n");
    }
    drain_queue(g, tb, rec);
}

/* The initializer list of an avrogen_type for a record. */
static void record_type_items(const struct gen *g, const struct model_record *rec, char **items)
{
    size_t k = 0, i = ec_record_index(g->m, rec);
    items[k++] = xstrdup("AVROGEN_KIND_RECORD");
    items[k++] = xasprintf("\"%s\"", rec->name.fullname);
    bool own = rec->in_main_file && g->schema_text[i] != NULL;
    bool canonical = own && g->canonical_text[i] != NULL;
    char *up = ec_upper_ident(rec->c_prefix);
    items[k++] = own ? xasprintf("&%s", g->schema_text[i]) : xstrdup("NULL");
    items[k++] = canonical ? xasprintf("&%s", g->canonical_text[i]) : xstrdup("NULL");
    items[k++] = own ? xasprintf("&%s_avro_cache", rec->c_prefix) : xstrdup("NULL");
    items[k++] = canonical ? xasprintf("%s_AVRO_FINGERPRINT", up) : xstrdup("0");
    free(up);
    /* A flexible array member's room after the struct is part of what decode
     * writes: callers allocate and type plans zero this many bytes. */
    const struct model_type *flex = NULL;
    for (size_t f = 0; f < rec->n_fields; f++)
        if (rec->fields[f].role == MODEL_FIELD_VALUE && rec->fields[f].type->c_flex)
            flex = rec->fields[f].type;
    items[k++] = flex ? xasprintf("sizeof(%s) + %" PRIu64 " * AVROGEN_SIZEOF_MEMBER(%s, %s[0])",
                                  rec->c_type, flex->c_len, rec->c_type,
                                  model_field_path(&rec->fields[flex_index(rec)]))
                      : xasprintf("sizeof(%s)", rec->c_type);
    items[k++] = rec->n_avro_fields != 0 ? xasprintf("%s.%s_fields", g->tables, rec->c_prefix)
                                         : xstrdup("NULL");
    items[k++] = xasprintf("%zu", rec->n_avro_fields);
    items[k++] = xstrdup("NULL");
    items[k++] = xstrdup("NULL");
    items[k++] = xstrdup("0");
    items[k++] = own ? xasprintf("%s_avro_decode_erased", rec->c_prefix) : xstrdup("NULL");
    items[k++] = own ? xasprintf("%s_avro_encode_erased", rec->c_prefix) : xstrdup("NULL");
    size_t n_resolved = own ? ec_aot_count(g, rec) : 0;
    items[k++] = n_resolved != 0 ? xasprintf("%s_avro_resolved", rec->c_prefix) : xstrdup("NULL");
    items[k++] = xasprintf("%zu", n_resolved);
}

#define TYPE_ITEMS 16

void ec_emit_descriptors(struct gen *g)
{
    const struct model *m = g->m;
    struct tables tb = {TEXTBUF_INIT, TEXTBUF_INIT, TEXTBUF_INIT, false, 0, 0, NULL, 0, 0, 0};
    char *items[TYPE_ITEMS];

    /* Named types every record may point at: enums, fixed, other headers' records. */
    for (size_t i = 0; i < m->n_enums; i++) {
        const struct model_enum *e = m->enums[i];
        if (!g->need_enum[i])
            continue;
        textbuf_printf(&tb.members, "    avrogen_type %s_enum;\n", e->c_prefix);
        textbuf_printf(&tb.members, "    const char *%s_symbols[%zu];\n", e->c_prefix,
                       e->n_symbols);
        textbuf_printf(&tb.members, "    int64_t %s_values[%zu];\n", e->c_prefix, e->n_symbols);
        textbuf_printf(&tb.init, "        /* %s_enum: %s */\n", e->c_prefix,
                       e->c_type != NULL ? e->c_type : e->name.fullname);
        char *name = xasprintf("\"%s\"", e->name.fullname);
        char *size = e->c_type != NULL ? xasprintf("sizeof(%s)", e->c_type)
                                       : xasprintf("%" PRIu64, e->c_size);
        char *syms = xasprintf("%s.%s_symbols", g->tables, e->c_prefix);
        char *vals = xasprintf("%s.%s_values", g->tables, e->c_prefix);
        char *n = xasprintf("%zu", e->n_symbols);
        const char *it[] = {"AVROGEN_KIND_ENUM",
                            name,
                            "NULL",
                            "NULL",
                            "NULL",
                            "0",
                            size,
                            "NULL",
                            "0",
                            syms,
                            vals,
                            n,
                            "NULL",
                            "NULL",
                            "NULL",
                            "0"};
        wrapped(&tb.init, 8, "{", it, TYPE_ITEMS, "},");
        free(name);
        free(size);
        free(syms);
        free(vals);
        free(n);
        char **names = xcalloc(e->n_symbols, sizeof *names);
        for (size_t s = 0; s < e->n_symbols; s++)
            names[s] = xasprintf("\"%s\"", e->symbols[s].avro_name);
        column_list(&tb.init, 8, (const char *const *)names, e->n_symbols);
        for (size_t s = 0; s < e->n_symbols; s++) {
            free(names[s]);
            names[s] = xstrdup(e->symbols[s].c_name);
        }
        column_list(&tb.init, 8, (const char *const *)names, e->n_symbols);
        for (size_t s = 0; s < e->n_symbols; s++)
            free(names[s]);
        free(names);
    }
    for (size_t i = 0; i < m->n_fixeds; i++) {
        const struct model_fixed *f = m->fixeds[i];
        if (!g->need_fixed[i])
            continue;
        textbuf_printf(&tb.members, "    avrogen_type fixed%zu;\n", i);
        textbuf_printf(&tb.init, "        /* fixed%zu */\n", i);
        char *name = xasprintf("\"%s\"", f->name.fullname);
        char *size = xasprintf("%" PRIu64, f->size);
        const char *it[] = {"AVROGEN_KIND_FIXED",
                            name,
                            "NULL",
                            "NULL",
                            "NULL",
                            "0",
                            size,
                            "NULL",
                            "0",
                            "NULL",
                            "NULL",
                            "0",
                            "NULL",
                            "NULL",
                            "NULL",
                            "0"};
        wrapped(&tb.init, 8, "{", it, TYPE_ITEMS, "},");
        free(name);
        free(size);
    }
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!g->need_record[i] || rec->in_main_file)
            continue;
        textbuf_printf(&tb.members, "    avrogen_type %s_type;\n", rec->c_prefix);
        textbuf_printf(&tb.init, "        /* %s_type: %s */\n", rec->c_prefix, rec->c_type);
        record_type_items(g, rec, items);
        wrapped(&tb.init, 8, "{", (const char *const *)items, TYPE_ITEMS, "},");
        for (size_t k = 0; k < TYPE_ITEMS; k++)
            free(items[k]);
    }
    for (size_t i = 0; i < m->n_records; i++)
        if (g->need_record[i])
            record_tables(g, &tb, m->records[i]);

    if (tb.exts.len != 0) {
        textbuf_append(g->tb, tb.exts.data, tb.exts.len);
        ec_blank(g);
    }
    if (tb.members.len != 0) {
        ec_line(g, "/*");
        ec_line(g, " * Descriptor tables. They live in one object so that entries can point at");
        ec_line(g, " * each other in any order, which C and C++ both allow within an initializer.");
        ec_line(g, " */");
        ec_line(g, "static const struct {");
        textbuf_append(g->tb, tb.members.data, tb.members.len);
        ec_line(g, "} %s = {", g->tables);
        textbuf_append(g->tb, tb.init.data, tb.init.len);
        ec_line(g, "};");
        ec_blank(g);
    }
    textbuf_free(&tb.members);
    textbuf_free(&tb.init);
    textbuf_free(&tb.exts);
    free(tb.queue);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!g->need_record[i] || !rec->in_main_file)
            continue;
        ec_line(g,
                "/* %s_avro_decode for code holding the struct as void * (avrogen_decode_as). */",
                rec->c_prefix);
        ec_line(g, "static avrogen_status");
        ec_line(g, "%s_avro_decode_erased(avrogen_reader *r, void *v, avrogen_arena *a)",
                rec->c_prefix);
        ec_line(g, "{");
        ec_line(g, "    return %s_avro_decode(r, (%s *)v, a);", rec->c_prefix, rec->c_type);
        ec_line(g, "}");
        ec_blank(g);
        ec_line(g,
                "/* %s_avro_encode for code holding the struct as const void * "
                "(avrogen_ocf_writer_put). */",
                rec->c_prefix);
        ec_line(g, "static avrogen_status");
        ec_line(g, "%s_avro_encode_erased(avrogen_writer *w, const void *v)", rec->c_prefix);
        ec_line(g, "{");
        ec_line(g, "    return %s_avro_encode(w, (const %s *)v);", rec->c_prefix, rec->c_type);
        ec_line(g, "}");
        ec_blank(g);
        ec_aot_emit_table(g, rec);
        char *open = xasprintf("const avrogen_type %s_avro_type = {", rec->c_prefix);
        record_type_items(g, rec, items);
        ec_line(g, "%s", open);
        for (size_t k = 0; k < TYPE_ITEMS; k++)
            ec_line(g, "        %s,", items[k]);
        ec_line(g, "};");
        ec_blank(g);
        for (size_t k = 0; k < TYPE_ITEMS; k++)
            free(items[k]);
        free(open);
    }
}
