/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C code emitter: <stem>.avro.h and <stem>.avro.c from a validated model.
 * Every record gets three static functions written out field by field with the
 * inline primitives of gencode.h (measure, write, read); the records of the
 * header itself also get the public size/encode/decode wrappers, their schema
 * text, fingerprint and type descriptor. Records reached from other headers
 * get the static functions only, so the output needs nothing but gencode.h and
 * the runtime. The emitter trusts the model (model.h: a model that exists is
 * valid) and does not re-check mapping rules; it never touches the file system.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>

#include "emit_c_internal.h"
#include "genutil.h"

/* ---- what to emit -------------------------------------------------------- */

/* The records, enums and fixed types a record of the header needs. */
static void mark_type(struct gen *g, const struct model_type *t);

static void mark_record(struct gen *g, const struct model_record *r)
{
    size_t i = ec_record_index(g->m, r);
    if (i == g->m->n_records || g->need_record[i])
        return;
    g->need_record[i] = true;
    for (size_t f = 0; f < r->n_fields; f++)
        if (r->fields[f].role == MODEL_FIELD_VALUE)
            mark_type(g, r->fields[f].type);
}

static void mark_type(struct gen *g, const struct model_type *t)
{
    if (t == NULL)
        return;
    if (t->record != NULL)
        mark_record(g, t->record);
    if (t->enumeration != NULL) {
        size_t i = ec_enum_index(g->m, t->enumeration);
        if (i < g->m->n_enums)
            g->need_enum[i] = true;
    }
    if (t->fixed != NULL) {
        size_t i = ec_fixed_index(g->m, t->fixed);
        if (i < g->m->n_fixeds)
            g->need_fixed[i] = true;
    }
    mark_type(g, t->items);
    mark_type(g, t->map_key);
    for (size_t i = 0; i < t->n_branches; i++)
        mark_type(g, t->branches[i].type);
}

/* True when a value of t can contain a `target` record (through any path). */
static bool type_reaches(const struct model *m, const struct model_type *t,
                         const struct model_record *target, bool *seen);

static bool record_reaches(const struct model *m, const struct model_record *r,
                           const struct model_record *target, bool *seen)
{
    size_t i = ec_record_index(m, r);
    if (i == m->n_records || seen[i])
        return false;
    seen[i] = true;
    for (size_t f = 0; f < r->n_fields; f++)
        if (r->fields[f].role == MODEL_FIELD_VALUE &&
            type_reaches(m, r->fields[f].type, target, seen))
            return true;
    return false;
}

static bool type_reaches(const struct model *m, const struct model_type *t,
                         const struct model_record *target, bool *seen)
{
    if (t == NULL)
        return false;
    if (t->record != NULL && (t->record == target || record_reaches(m, t->record, target, seen)))
        return true;
    if (type_reaches(m, t->items, target, seen) || type_reaches(m, t->map_key, target, seen))
        return true;
    for (size_t i = 0; i < t->n_branches; i++)
        if (type_reaches(m, t->branches[i].type, target, seen))
            return true;
    return false;
}

/* Mark what the header's records need, and which records reach themselves. */
static void plan(struct gen *g)
{
    const struct model *m = g->m;
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i]->in_main_file)
            mark_record(g, m->records[i]);
    bool *seen = xcalloc(m->n_records + 1, sizeof *seen);
    for (size_t i = 0; i < m->n_records; i++) {
        if (!g->need_record[i])
            continue;
        memset(seen, 0, (m->n_records + 1) * sizeof *seen);
        const struct model_record *r = m->records[i];
        for (size_t f = 0; f < r->n_fields && !g->cyclic[i]; f++)
            if (r->fields[f].role == MODEL_FIELD_VALUE)
                g->cyclic[i] = type_reaches(m, r->fields[f].type, r, seen);
    }
    free(seen);
}

/* ---- the two files ------------------------------------------------------- */

/* Untagged struct types of members have no name in C: give them one through
 * the member. The header does it for its own records, the source file for
 * the other headers' ones it uses (a repeated identical typedef is valid C11). */
static void emit_untagged_typedefs(struct gen *g, bool in_header)
{
    const struct model *m = g->m;
    bool any = false;
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (rec->c_typeof == NULL ||
            (in_header ? !rec->in_main_file : rec->in_main_file || !g->need_record[i]))
            continue;
        if (!any)
            ec_line(g, "/* Struct types of members that have no tag, named for the code below. */");
        any = true;
        ec_line(g, "typedef __typeof__(%s) %s;", rec->c_typeof, rec->c_type);
    }
    if (any)
        ec_blank(g);
}

static void emit_header(struct gen *g, const char *stem)
{
    const struct model *m = g->m;
    char *up = ec_upper_ident(stem);
    char *guard = xasprintf("%s%s_AVRO_H_", isdigit((unsigned char)up[0]) ? "AVRO_" : "", up);
    ec_line(g, "/* Generated by avrogen %s from %s. Do not edit. */", g->opt->version,
            g->opt->header_path);
    ec_line(g, "#ifndef %s", guard);
    ec_line(g, "#define %s", guard);
    ec_blank(g);
    ec_line(g, "#include \"avrogen/gencode.h\"");
    ec_blank(g);
    ec_line(g, "#include \"%s\"", g->opt->header_include);
    ec_blank(g);
    ec_line(g, "#if AVROGEN_GENCODE_ABI != 3");
    ec_line(g, "#error \"%s.avro.h is stale: rerun avrogen\"", stem);
    ec_line(g, "#endif");
    ec_blank(g);
    ec_line(g, "#ifdef __cplusplus");
    ec_line(g, "extern \"C\" {");
    ec_line(g, "#endif");
    ec_blank(g);
    ec_line(g, "/*");
    ec_line(g, " * Per record, prefix P:");
    ec_line(g, " *   P_avro_schema       its .avsc text, NUL-terminated");
    ec_line(g, " *   P_AVRO_FINGERPRINT  CRC-64-AVRO of its Parsing Canonical Form");
    ec_line(g, " *   P_avro_type         descriptor: schema, fingerprint, where each field lives");
    ec_line(g, " *   P_avro_size         the exact number of bytes P_avro_encode writes");
    ec_line(g, " *   P_avro_encode       append the binary encoding to w, returns w->err; never");
    ec_line(g, " *                       allocates (a growable writer may grow); a NULL string or");
    ec_line(g, " *                       an out-of-range enum, tag or count is AVROGEN_E_ARG");
    ec_line(g, " *   P_avro_decode       one datum into *v, returns r->err: every member is");
    ec_line(g, " *                       written (AVRO_SKIP ones zeroed), or on error all of *v");
    ec_line(g, " *                       is zeroed; arrays, maps and char * strings come from");
    ec_line(g, " *                       the arena, avrogen_str / avrogen_bytes point into r's");
    ec_line(g, " *                       input");
    ec_line(g, " */");
    ec_blank(g);
    emit_untagged_typedefs(g, true);
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file)
            continue;
        const char *p = rec->c_prefix, *ct = rec->c_type;
        char *pu = ec_upper_ident(p);
        ec_line(g, "/* %s: Avro record %s */", ct, rec->name.fullname);
        ec_line(g, "extern const char %s_avro_schema[];", p);
        ec_line(g, "#define %s_AVRO_FINGERPRINT UINT64_C(0x%016" PRIx64 ")", pu, rec->fingerprint);
        ec_line(g, "extern const avrogen_type %s_avro_type;", p);
        ec_line(g, "size_t %s_avro_size(const %s *v);", p, ct);
        ec_line(g,
                "AVROGEN_NODISCARD avrogen_status %s_avro_encode(avrogen_writer *w, const %s *v);",
                p, ct);
        ec_line(g,
                "AVROGEN_NODISCARD avrogen_status %s_avro_decode(avrogen_reader *r, %s *v, "
                "avrogen_arena *a);",
                p, ct);
        ec_blank(g);
        free(pu);
    }
    ec_line(g, "#ifdef __cplusplus");
    ec_line(g, "}");
    ec_line(g, "#endif");
    ec_blank(g);
    ec_line(g, "#endif /* %s */", guard);
    free(guard);
    free(up);
}

static void emit_layout_checks(struct gen *g, const struct model_record *rec)
{
    const char *ct = rec->c_type;
    ec_line(g,
            "AVROGEN_STATIC_ASSERT(sizeof(%s) == %" PRIu64 ", \"%s changed size: rerun avrogen\");",
            ct, rec->c_size, ct);
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        /* Skipped members are never touched by name (and may be bit-fields). */
        if (f->role == MODEL_FIELD_SKIP)
            continue;
        if (f->c_bitfield)
            continue; /* no offsetof or sizeof: the struct's size is locked */
        ec_line(g, "AVROGEN_LAYOUT(%s, %s, %" PRIu64 ", %" PRIu64 ");", ct, f->c_name, f->c_offset,
                f->c_size);
        /* The same bytes could hold another element type: lock that too. */
        if (f->role == MODEL_FIELD_VALUE && f->type->storage == MODEL_STORAGE_C_ARRAY &&
            f->type->c_len != 0)
            ec_line(g, "AVROGEN_LAYOUT(%s, %s[0], %" PRIu64 ", %" PRIu64 ");", ct, f->c_name,
                    f->c_offset, f->c_size / f->type->c_len);
    }
}

static void emit_source(struct gen *g, const char *stem)
{
    const struct model *m = g->m;
    ec_line(g, "/* Generated by avrogen %s from %s. Do not edit. */", g->opt->version,
            g->opt->header_path);
    ec_line(g, "#include \"%s.avro.h\"", stem);
    ec_blank(g);
    bool any = false;
    for (size_t i = 0; i < m->n_records; i++)
        any |= g->need_record[i];
    if (!any)
        return;

    emit_untagged_typedefs(g, false);
    ec_line(g, "/* The layout the generator saw; a mismatch means this file is stale. */");
    for (size_t i = 0; i < m->n_records; i++)
        if (g->need_record[i])
            emit_layout_checks(g, m->records[i]);
    ec_blank(g);

    /* Records first, into a buffer: they decide which enum helpers are used,
     * and those must come before them. */
    struct textbuf *out = g->tb, records = TEXTBUF_INIT;
    g->tb = &records;
    bool protos = false;
    for (size_t i = 0; i < m->n_records; i++) {
        if (g->need_record[i] && g->cyclic[i]) {
            if (!protos)
                ec_line(g,
                        "/* Records that reach themselves call each other before definition. */");
            ec_emit_record_prototypes(g, m->records[i]);
            protos = true;
        }
    }
    if (protos)
        ec_blank(g);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!g->need_record[i])
            continue;
        ec_emit_record_functions(g, rec, g->cyclic[i]);
        if (rec->in_main_file)
            ec_emit_public_functions(g, rec);
    }
    ec_aot_emit_functions(g);
    g->tb = out;
    for (size_t i = 0; i < m->n_enums; i++)
        if (g->need_enum[i])
            ec_emit_enum_functions(g, i);
    ec_put_body(g, &records);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file)
            continue;
        char *decl = xasprintf("const char %s_avro_schema[]", rec->c_prefix);
        ec_emit_char_array(g, decl, rec->avsc != NULL ? rec->avsc : "");
        free(decl);
        ec_blank(g);
    }
    ec_emit_descriptors(g);
}

/* ---- entry point --------------------------------------------------------- */

/* Hand a finished buffer to the outputs; false when out of memory. */
static bool add_output(struct gen_outputs *out, const char *dir, const char *name,
                       struct textbuf *tb)
{
    size_t len;
    /* Drop a trailing blank line: files end with exactly one newline. */
    while (tb->len >= 2 && tb->data[tb->len - 1] == '\n' && tb->data[tb->len - 2] == '\n')
        tb->data[--tb->len] = '\0';
    char *data = textbuf_take(tb, &len);
    if (data == NULL)
        return false;
    return gen_outputs_add(out, dir, name, data, len) == 0;
}

int emit_c(const struct model *m, const char *out_dir, const char *stem,
           const struct emit_c_options *opt, struct gen_outputs *out, struct diag *d)
{
    struct textbuf header = TEXTBUF_INIT, source = TEXTBUF_INIT;
    struct gen g = {0};
    int rc = 0;

    g.m = m;
    g.opt = opt;
    g.d = d;
    g.need_record = xcalloc(m->n_records + 1, sizeof *g.need_record);
    g.cyclic = xcalloc(m->n_records + 1, sizeof *g.cyclic);
    g.need_enum = xcalloc(m->n_enums + 1, sizeof *g.need_enum);
    g.need_fixed = xcalloc(m->n_fixeds + 1, sizeof *g.need_fixed);
    g.enum_index = xcalloc(m->n_enums + 1, sizeof *g.enum_index);
    g.enum_write = xcalloc(m->n_enums + 1, sizeof *g.enum_write);
    g.enum_read = xcalloc(m->n_enums + 1, sizeof *g.enum_read);
    plan(&g);
    ec_aot_begin(&g);

    /* The descriptor tables are named after the header's first record, whose
     * prefix the public functions already claim. */
    char *tables = NULL;
    for (size_t i = 0; i < m->n_records && tables == NULL; i++)
        if (m->records[i]->in_main_file)
            tables = xasprintf("%s_avro_tables", m->records[i]->c_prefix);
    g.tables = tables != NULL ? tables : "avro_tables";

    g.tb = &header;
    emit_header(&g, stem);
    g.tb = &source;
    emit_source(&g, stem);

    char *hname = xasprintf("%s.avro.h", stem);
    char *cname = xasprintf("%s.avro.c", stem);
    if (!add_output(out, out_dir, hname, &header) || !add_output(out, out_dir, cname, &source))
        rc = 2;
    free(hname);
    free(cname);
    textbuf_free(&header);
    textbuf_free(&source);
    ec_aot_end(&g);
    free(tables);
    free(g.member);
    free(g.need_record);
    free(g.cyclic);
    free(g.need_enum);
    free(g.need_fixed);
    free(g.enum_index);
    free(g.enum_write);
    free(g.enum_read);
    return rc;
}
