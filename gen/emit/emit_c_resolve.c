/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ahead-of-time resolved decoders (avrogen generate --compat-with): for a
 * record of the header and an earlier schema of it, a decoder that reads the
 * earlier writer's bytes straight into the current struct, with the schema
 * resolution (spec §Schema Resolution) done here, at generation time. The
 * generated code walks the WRITER's fields in writer order: a field whose
 * writer type encodes like the reader's is read by exactly the code of
 * P_avro_decode; a promoted number is read as the writer's primitive and
 * stored; a field the reader lacks is skipped; a reader field the writer lacks
 * takes its default. Nested records whose schemas differ get a decoder of
 * their own; enums whose symbols differ a symbol map.
 *
 * The matching rules are the runtime's (resolve_internal.h), so a decoder here
 * never disagrees with the generic resolver; a pair the resolver cannot build
 * gets no decoder, only a note saying that avrogen_decode_as reads it with a
 * plan. Not here: the compatibility gate (compat_gate.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "emit_c_internal.h"
#include "genutil.h"
#include "resolve_internal.h"

/* One decoder to emit: a record of the header read from an earlier schema. */
struct aot_top {
    size_t rec;     /* index in m->records */
    size_t earlier; /* index in opt->earlier */
    uint64_t fp;    /* the earlier schema's CRC-64-AVRO fingerprint */
    bool emitted;   /* written (false: a note said why not) */
};

/* A helper that decodes a field's default, shared by every decoder needing it. */
struct aot_default {
    const struct model_record *rec;
    const struct model_field *field;
};

struct aot {
    avrogen_schema **reader; /* per m->records[i] of the header: its .avsc, parsed */
    struct aot_top *tops;    /* by record, then by fingerprint */
    size_t n_tops;
    struct aot_default *defaults; /* helpers written so far */
    size_t n_defaults;
    struct textbuf default_text; /* their code */
};

/* ---- small helpers ------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* Text safe inside a C comment: no comment terminator, no line breaks. */
static char *comment_safe(const char *s)
{
    struct textbuf b = TEXTBUF_INIT;
    for (size_t i = 0; s[i] != '\0'; i++) {
        if (s[i] == '*' && s[i + 1] == '/')
            textbuf_puts(&b, "* ");
        else if (s[i] == '\n' || s[i] == '\r')
            textbuf_putc(&b, ' ');
        else
            textbuf_putc(&b, s[i]);
    }
    char *r = textbuf_take(&b, NULL);
    return r != NULL ? r : xstrdup("");
}

/*
 * `avrogen_reader_fail(r, status, "msg");`, the message cut into string
 * literal pieces at spaces when the line would pass EC_COLUMNS, each piece
 * under the first argument, as clang-format lays out a long literal.
 */
static void emit_fail(struct gen *g, const char *status, const char *msg)
{
    char *lit = ec_c_escaped(msg);
    size_t col = (size_t)g->indent * 4;
    size_t hang = col + strlen("avrogen_reader_fail(");
    if (hang + strlen("r, , \"\");") + strlen(status) + strlen(lit) <= EC_COLUMNS) {
        ec_line(g, "avrogen_reader_fail(r, %s, \"%s\");", status, lit);
        free(lit);
        return;
    }
    ec_line(g, "avrogen_reader_fail(r, %s,", status);
    const char *p = lit;
    for (;;) {
        size_t room = EC_COLUMNS - hang - 4; /* quotes, and `);` or nothing */
        size_t len = strlen(p);
        if (len <= room) {
            ec_line(g, "%*s\"%s\");", (int)(hang - col), "", p);
            break;
        }
        /* After the last space that fits; without one, at the last character
         * that fits, never inside an escape (\" \\ \? or octal \ooo). */
        size_t i = 0, space = 0;
        while (i < len) {
            size_t step = p[i] != '\\' ? 1 : p[i + 1] >= '0' && p[i + 1] <= '7' ? 4 : 2;
            if (i + step > room)
                break;
            i += step;
            if (step == 1 && p[i - 1] == ' ')
                space = i;
        }
        size_t cut = space != 0 ? space : i != 0 ? i : room;
        ec_line(g, "%*s\"%.*s\"", (int)(hang - col), "", (int)cut, p);
        p += cut;
    }
    free(lit);
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* s with every character that cannot be in a C identifier as '_'. */
static char *ident_of(const char *s)
{
    char *r = xstrdup(s);
    for (char *p = r; *p != '\0'; p++)
        if (!ident_char(*p))
            *p = '_';
    return r;
}

/* True when the code in `text` uses the identifier `name` (outside string
 * literals and comments, not as a member after `.` or `->`): whether the
 * parameter `r` or `v` needs its (void) cast. The arena parameter is tracked
 * by g->used_a, as the record functions track it. */
static bool mentions(const struct textbuf *text, const char *name)
{
    size_t n = strlen(name);
    const char *s = text->data;
    if (s == NULL)
        return false;
    for (size_t i = 0; s[i] != '\0'; i++) {
        if (s[i] == '"') {
            for (i++; s[i] != '\0' && s[i] != '"'; i++)
                if (s[i] == '\\' && s[i + 1] != '\0')
                    i++;
            if (s[i] == '\0')
                break;
            continue;
        }
        if (s[i] == '/' && s[i + 1] == '*') {
            const char *end = strstr(s + i + 2, "*/");
            if (end == NULL)
                break;
            i = (size_t)(end - s) + 1;
            continue;
        }
        bool member = i > 0 && (s[i - 1] == '.' || (i > 1 && s[i - 1] == '>' && s[i - 2] == '-'));
        if (strncmp(s + i, name, n) == 0 && (i == 0 || !ident_char(s[i - 1])) &&
            !ident_char(s[i + n]) && !member)
            return true;
    }
    return false;
}

/* The VALUE member of rec that is Avro field j. */
static const struct model_field *avro_field(const struct model_record *rec, size_t j)
{
    for (size_t i = 0; i < rec->n_fields; i++)
        if (rec->fields[i].role == MODEL_FIELD_VALUE && rec->fields[i].avro_index == j)
            return &rec->fields[i];
    return NULL;
}

/* ---- how the two schemas relate ------------------------------------------ */

/* The writer field each reader field reads, as the resolver pairs them: the
 * writer field of its name (or alias), which may feed several reader fields.
 * match[j] is that writer field, or -1. */
static long *match_fields(const avrogen_node *w, const avrogen_node *rd)
{
    long *match = xcalloc(rd->n_fields + 1, sizeof *match);
    for (size_t j = 0; j < rd->n_fields; j++)
        match[j] = avrogen_find_writer_field(w, &rd->fields[j]);
    return match;
}

/* The reader branch a non-union writer type goes to: the first that matches. */
static long reader_branch(const avrogen_node *w, const avrogen_node *rd)
{
    return avrogen_reader_branch(w, rd);
}

/*
 * What same_encoding knows of record pairs: 1 they differ, 2 the same, or
 * assumed the same while being compared (which ends recursive types). The
 * comparison is a conjunction all the way down, so an assumption that is wrong
 * makes the outermost call false, which then forgets the assumptions made
 * under it; kept, they make each pair cost one comparison however often the
 * schemas share it (issue 12: a writer and reader fanout was exponential).
 */
struct same_memo {
    struct ptrmap pairs;
    const avrogen_node **trail; /* the pairs assumed, two nodes each */
    size_t n_trail;
    unsigned depth;
};

static bool same_node(struct same_memo *sm, const avrogen_node *w, const avrogen_node *rd);

/*
 * True when data written as w decodes as rd with rd's own code: the same
 * encoding, and resolution maps every part to the part at the same place
 * (field i to field i, branch i to branch i, symbol i to symbol i). Union
 * branches need the check: the resolver gives a writer branch the FIRST reader
 * branch that matches, so ["long", "int"] read as itself takes int as long.
 */
static bool same_encoding(struct same_memo *sm, const avrogen_node *w, const avrogen_node *rd)
{
    bool top = sm->depth++ == 0;
    size_t mark = sm->n_trail;
    bool same = same_node(sm, w, rd);
    sm->depth--;
    if (top) {
        if (!same)
            for (size_t k = mark; k < sm->n_trail; k++) {
                size_t v;
                if (ptrmap_get2(&sm->pairs, sm->trail[2 * k], sm->trail[2 * k + 1], &v) && v == 2)
                    ptrmap_put2(&sm->pairs, sm->trail[2 * k], sm->trail[2 * k + 1], 0);
            }
        sm->n_trail = mark;
    }
    return same;
}

static bool same_node(struct same_memo *sm, const avrogen_node *w, const avrogen_node *rd)
{
    if (w->kind != rd->kind)
        return false;
    switch (w->kind) {
    case AVROGEN_KIND_FIXED:
        return w->size == rd->size;
    case AVROGEN_KIND_ENUM:
        if (w->n_symbols != rd->n_symbols)
            return false;
        for (size_t i = 0; i < w->n_symbols; i++)
            if (strcmp(w->symbols[i], rd->symbols[i]) != 0)
                return false;
        return true;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return same_node(sm, w->items, rd->items);
    case AVROGEN_KIND_UNION:
        if (w->n_branches != rd->n_branches)
            return false;
        for (size_t i = 0; i < w->n_branches; i++)
            if (reader_branch(w->branches[i], rd) != (long)i ||
                !same_node(sm, w->branches[i], rd->branches[i]))
                return false;
        return true;
    case AVROGEN_KIND_RECORD: {
        size_t known;
        if (ptrmap_get2(&sm->pairs, w, rd, &known) && known != 0)
            return known == 2;
        if (w->n_fields != rd->n_fields) {
            ptrmap_put2(&sm->pairs, w, rd, 1);
            return false;
        }
        ptrmap_put2(&sm->pairs, w, rd, 2);
        sm->trail = xrealloc(sm->trail, (sm->n_trail + 1) * 2 * sizeof *sm->trail);
        sm->trail[2 * sm->n_trail] = w;
        sm->trail[2 * sm->n_trail + 1] = rd;
        sm->n_trail++;
        long *match = match_fields(w, rd);
        bool same = true;
        for (size_t j = 0; j < rd->n_fields && same; j++)
            same = match[j] == (long)j && same_node(sm, w->fields[j].type, rd->fields[j].type);
        free(match);
        if (!same)
            ptrmap_put2(&sm->pairs, w, rd, 1);
        return same;
    }
    default:
        return true;
    }
}

/* The fewest input bytes a value of writer type w takes (bounds block counts),
 * as the schema parser worked it out; capped where a literal stays plain. */
static uint64_t writer_min_size(const avrogen_node *w)
{
    return w->min_size < UINT32_MAX ? w->min_size : UINT32_MAX;
}

/* What resolution does to a value, for the decoders' comments; NULL when
 * nothing (the same encoding). */
static char *describe(struct same_memo *sm, const avrogen_node *w, const avrogen_node *rd)
{
    if (same_encoding(sm, w, rd))
        return NULL;
    if (w->kind == AVROGEN_KIND_UNION)
        return xstrdup("read branch by branch from the writer's union");
    if (rd->kind == AVROGEN_KIND_UNION) {
        long k = reader_branch(w, rd);
        if (k < 0)
            return xstrdup("no branch matches");
        char *inner = describe(sm, w, rd->branches[k]);
        char *r = inner != NULL ? xasprintf("into union branch %ld, %s", k, inner)
                                : xasprintf("into union branch %ld (%s)", k,
                                            avrogen_node_name(rd->branches[k]));
        free(inner);
        return r;
    }
    if (w->kind != rd->kind)
        return xasprintf("promoted %s -> %s", avrogen_kind_name(w->kind),
                         avrogen_kind_name(rd->kind));
    switch (w->kind) {
    case AVROGEN_KIND_RECORD:
        return xasprintf("resolved from the writer's %s", w->fullname);
    case AVROGEN_KIND_ENUM:
        return xstrdup("symbols mapped by name");
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        char *inner = describe(sm, w->items, rd->items);
        char *r = xasprintf("%s %s", w->kind == AVROGEN_KIND_ARRAY ? "items" : "values",
                            inner != NULL ? inner : "resolved");
        free(inner);
        return r;
    }
    default:
        return xstrdup("resolved");
    }
}

/* ---- one decoder's emission ---------------------------------------------- */

/* A function of one decoder, remembered by what it reads, so that each
 * (writer type, reader type) pair gets one and recursion ends. */
struct fn {
    const avrogen_node *w;
    const void *target; /* the model record or enum read into; NULL for a skip */
    char *name;
    bool done;        /* completely emitted */
    bool cyclic;      /* called while being emitted: needs a depth check */
    bool needs_proto; /* ... by another function: needs a prototype too */
    char *proto;
};

/* A default helper this decoder added (committed with the decoder). */
struct pending_default {
    const struct model_record *rec;
    const struct model_field *field;
};

struct ctx {
    struct gen *g;
    struct aot *st;
    char fp[17];        /* the writer's fingerprint, 16 hex digits */
    const char *file;   /* the earlier schema's base name */
    const char *prefix; /* the header record's c_prefix (names of skip functions) */
    struct fn *fns;
    size_t n_fns;
    struct textbuf body;     /* finished functions, callees first */
    struct textbuf defaults; /* default helpers this decoder added */
    struct pending_default *pending;
    size_t n_pending;
    char *why;      /* set when the pair cannot be specialized */
    bool declared;  /* the code just emitted declared a local at its own level */
    size_t current; /* index in fns of the function being emitted, or SIZE_MAX */
    struct same_memo same;
    struct ptrmap fn_index; /* (writer node, target) -> its function in fns */
};

static void give_up(struct ctx *c, char *why)
{
    if (c->why == NULL)
        c->why = why;
    else
        free(why);
}

/* Emission of a function nested in the emission of another: the generator
 * state that belongs to the function being written. */
struct saved {
    struct textbuf *tb;
    int indent;
    unsigned depth;
    bool used_a;
    bool used_v;
    bool unaligned;
};

static void fn_begin(struct gen *g, struct saved *s, struct textbuf *body)
{
    *s = (struct saved){g->tb, g->indent, g->depth, g->used_a, g->used_v, g->unaligned};
    *body = (struct textbuf)TEXTBUF_INIT;
    g->tb = body;
    g->indent = 1;
    g->depth = 0;
    g->used_a = false;
}

static void fn_end(struct gen *g, const struct saved *s)
{
    g->tb = s->tb;
    g->indent = s->indent;
    g->depth = s->depth;
    g->used_a = s->used_a;
    g->used_v = s->used_v;
    g->unaligned = s->unaligned;
}

/* One entry of a block comment, word-wrapped at EC_COLUMNS under its first word. */
static void put_comment_line(struct gen *g, const char *text, const char *lead)
{
    size_t width = EC_COLUMNS - strlen(lead);
    const char *prefix = lead;
    char *more = xasprintf("%s  ", lead);
    while (strlen(text) > width) {
        size_t cut = width;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (cut == 0)
            break; /* one long word: leave it long */
        ec_line(g, "%s%.*s", prefix, (int)cut, text);
        text += cut + 1;
        prefix = more;
        width = EC_COLUMNS - strlen(more);
    }
    ec_line(g, "%s%s", prefix, text);
    free(more);
}

/* Append `comment` lines, `head`, and the body with (void) casts for the
 * parameters it does not use (`a` when !used_a, the others by `mentions`), to out. */
static void put_function(struct gen *g, struct textbuf *out, char *const *comment, size_t n_comment,
                         const char *head, struct textbuf *body, const char *const *params,
                         size_t n_params, bool used_a)
{
    struct textbuf *saved = g->tb;
    int indent = g->indent;
    g->tb = out;
    g->indent = 0;
    if (n_comment == 1 && strlen(comment[0]) + 6 <= EC_COLUMNS) {
        ec_line(g, "/* %s */", comment[0]);
    } else if (n_comment != 0) {
        ec_line(g, "/*");
        for (size_t i = 0; i < n_comment; i++)
            put_comment_line(g, comment[i], i == 0 ? " * " : " *   ");
        ec_line(g, " */");
    }
    ec_line(g, "%s", head);
    ec_line(g, "{");
    for (size_t i = 0; i < n_params; i++)
        if (strcmp(params[i], "a") == 0 ? !used_a : !mentions(body, params[i]))
            ec_line(g, "    (void)%s;", params[i]);
    ec_put_body(g, body);
    ec_line(g, "}");
    ec_blank(g);
    g->tb = saved;
    g->indent = indent;
}

static struct fn *find_fn(struct ctx *c, const avrogen_node *w, const void *target)
{
    size_t i;
    return ptrmap_get2(&c->fn_index, w, target, &i) ? &c->fns[i] : NULL;
}

static bool name_taken(const struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n_fns; i++)
        if (strcmp(c->fns[i].name, name) == 0)
            return true;
    return false;
}

/* A new function reading w into `target`, named base_<fp>, or base_<fp>_2, ...
 * when that reader type is read from several writer types. */
static size_t new_fn(struct ctx *c, const avrogen_node *w, const void *target, const char *base)
{
    char *name = xasprintf("%s_%s", base, c->fp);
    for (unsigned k = 2; name_taken(c, name); k++) {
        free(name);
        name = xasprintf("%s_%s_%u", base, c->fp, k);
    }
    c->fns = xappend(c->fns, c->n_fns, sizeof *c->fns);
    c->fns[c->n_fns] = (struct fn){w, target, name, false, false, false, NULL};
    ptrmap_put2(&c->fn_index, w, target, c->n_fns);
    return c->n_fns++;
}

/* A call of fns[index]: one that is still being emitted is recursion. */
static const char *call_fn(struct ctx *c, size_t index)
{
    struct fn *f = &c->fns[index];
    if (!f->done) {
        f->cyclic = true;
        f->needs_proto |= index != c->current;
    }
    return f->name;
}

static void resolve(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                    const struct model_type *t, const char *lv, const struct site *s, bool nonnull);
static void skip(struct ctx *c, const avrogen_node *w);
static const char *record_fn(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                             const struct model_record *rec, bool top);

/* ---- skipping what the reader does not read ------------------------------ */

/*
 * A writer record that contains itself, or other records (which may be shared:
 * spelling each out in place would grow as their tree, not their schema), is
 * skipped by a function of its own.
 */
static const char *skip_fn(struct ctx *c, const avrogen_node *w)
{
    struct gen *g = c->g;
    struct fn *f = find_fn(c, w, NULL);
    if (f != NULL)
        return call_fn(c, (size_t)(f - c->fns));
    char *ident = ident_of(w->name);
    char *base = xasprintf("%s_avro_skip_%s", c->prefix, ident);
    size_t index = new_fn(c, w, NULL, base);
    free(base);
    free(ident);

    struct saved saved;
    struct textbuf body;
    size_t caller = c->current;
    c->current = index;
    fn_begin(g, &saved, &body);
    if (w->recursive) {
        /* It reaches itself: bound the recursion on hostile input. */
        ec_line(g, "if (!avrogen_reader_enter(r))");
        ec_line(g, "    return;");
    }
    for (size_t i = 0; i < w->n_fields; i++)
        skip(c, w->fields[i].type);
    if (w->recursive)
        ec_line(g, "avrogen_reader_leave(r);");
    fn_end(g, &saved);
    c->current = caller;

    f = &c->fns[index];
    char *head = xasprintf("static void %s(avrogen_reader *r)", f->name);
    char *comment = xasprintf("Skip a %s as written in %s%s.", w->fullname, c->file,
                              w->recursive ? " (it nests itself)" : "");
    char *safe = comment_safe(comment);
    put_function(g, &c->body, &safe, 1, head, &body, NULL, 0, false);
    f->proto = xasprintf("%s;", head);
    f->done = true;
    free(safe);
    free(comment);
    free(head);
    return f->name;
}

/* True when a field of record w holds a record, directly or in a union, array or map. */
static bool holds_records(const avrogen_node *w)
{
    for (size_t i = 0; i < w->n_fields; i++) {
        const avrogen_node *t = w->fields[i].type;
        while (t->kind == AVROGEN_KIND_ARRAY || t->kind == AVROGEN_KIND_MAP)
            t = t->items;
        if (t->kind == AVROGEN_KIND_RECORD)
            return true;
        if (t->kind != AVROGEN_KIND_UNION)
            continue;
        for (size_t k = 0; k < t->n_branches; k++) {
            const avrogen_node *b = t->branches[k];
            while (b->kind == AVROGEN_KIND_ARRAY || b->kind == AVROGEN_KIND_MAP)
                b = b->items;
            if (b->kind == AVROGEN_KIND_RECORD)
                return true;
        }
    }
    return false;
}

/* A count as a C literal of type size_t (the parser saturates counts at SIZE_MAX). */
static char *size_literal(size_t n)
{
    return n == SIZE_MAX ? xstrdup("SIZE_MAX") : xasprintf("%zu", n);
}

/* Emit code that reads past one value of writer type w. */
static void skip(struct ctx *c, const avrogen_node *w)
{
    struct gen *g = c->g;
    if (w->min_size == 0) {
        /* Nothing to read; its records cost items of the budget, as in avrogen_skip. */
        if (w->zero_records != 0) {
            char *n = size_literal(w->zero_records);
            ec_line(g, "(void)avrogen_reader_charge(r, %s);", n);
            free(n);
        }
        return;
    }
    switch (w->kind) {
    case AVROGEN_KIND_NULL:
        break;
    case AVROGEN_KIND_BOOLEAN:
        ec_line(g, "(void)avrogen_read_bool(r);");
        break;
    case AVROGEN_KIND_INT:
        ec_line(g, "(void)avrogen_read_int(r);");
        break;
    case AVROGEN_KIND_LONG:
        ec_line(g, "(void)avrogen_read_long(r);");
        break;
    case AVROGEN_KIND_FLOAT:
        ec_line(g, "(void)avrogen_read_float(r);");
        break;
    case AVROGEN_KIND_DOUBLE:
        ec_line(g, "(void)avrogen_read_double(r);");
        break;
    case AVROGEN_KIND_STRING:
    case AVROGEN_KIND_BYTES:
        /* Not checked for UTF-8: nobody reads it (avrogen_skip does the same). */
        ec_line(g, "(void)avrogen_read_bytes(r);");
        break;
    case AVROGEN_KIND_FIXED:
        if (w->size != 0) {
            ec_line(g, "if (avrogen_reader_remaining(r) >= %zu)", w->size);
            ec_line(g, "    r->p += %zu;", w->size);
            ec_line(g, "else");
            g->indent++;
            emit_fail(g, "AVROGEN_E_TRUNCATED", "input ends inside a fixed value");
            g->indent--;
        }
        break;
    case AVROGEN_KIND_ENUM:
        ec_line(g, "(void)avrogen_read_symbol(r, %zu);", w->n_symbols);
        break;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        char *b = ec_local(g, "b"), *i = ec_loop_index(g);
        struct capture item;
        g->indent++; /* the item loop sits inside the block loop */
        ec_capture_begin(g, &item);
        g->depth++;
        if (w->kind == AVROGEN_KIND_MAP)
            ec_line(g, "(void)avrogen_read_bytes(r);");
        skip(c, w->items);
        g->depth--;
        ec_capture_end(g, &item);
        g->indent--;
        if (w->kind == AVROGEN_KIND_ARRAY && w->items->min_size == 0 && item.text.len != 0) {
            /* Items of no bytes holding records: charged a block at a time. */
            textbuf_free(&item.text);
            char *per = size_literal(w->items->zero_records);
            ec_line(g, "for (size_t %s; (%s = avrogen_skip_block(r, %s)) != 0;)", b, b, per);
            ec_line(g, "    if (!avrogen_reader_charge_items(r, %s, %s))", b, per);
            ec_line(g, "        break;");
            free(per);
        } else if (item.text.len == 0) {
            /* Items of no bytes: the block counts alone (the item budget bounds them). */
            textbuf_free(&item.text);
            ec_line(g, "while (avrogen_skip_block(r, 0) != 0)");
            ec_line(g, "    continue;");
        } else {
            /* Items of at least a byte: a count the rest of the input cannot
             * hold fails before any item is read, as avrogen_skip (which the
             * plans and the generic resolver skip with) fails it. */
            ec_line(g, "for (size_t %s; (%s = avrogen_skip_block(r, 0)) != 0;) {", b, b);
            g->indent++;
            ec_line(g, "if (%s > avrogen_reader_remaining(r)) {", b);
            g->indent++;
            emit_fail(g, "AVROGEN_E_TRUNCATED", "block count runs past the end of the input");
            ec_line(g, "break;");
            g->indent--;
            ec_line(g, "}");
            char *head = xasprintf("for (size_t %s = 0; %s < %s && r->err == AVROGEN_OK; %s++)", i,
                                   i, b, i);
            ec_block(g, head, &item);
            g->indent--;
            ec_line(g, "}");
            free(head);
        }
        free(i);
        free(b);
        break;
    }
    case AVROGEN_KIND_UNION: {
        struct capture cases;
        ec_capture_begin(g, &cases);
        g->indent--;
        for (size_t i = 0; i < w->n_branches; i++) {
            struct capture body;
            ec_capture_begin(g, &body);
            skip(c, w->branches[i]);
            ec_capture_end(g, &body);
            if (body.text.len == 0) {
                textbuf_free(&body.text);
                continue;
            }
            ec_line(g, "case %zu:", i);
            ec_put_body(g, &body.text);
            ec_line(g, "    break;");
        }
        g->indent++;
        ec_capture_end(g, &cases);
        if (cases.text.len == 0) {
            textbuf_free(&cases.text);
            ec_line(g, "(void)avrogen_read_branch(r, %zu);", w->n_branches);
            break;
        }
        ec_line(g, "switch (avrogen_read_branch(r, %zu)) {", w->n_branches);
        ec_put_body(g, &cases.text);
        ec_line(g, "default:");
        ec_line(g, "    break;");
        ec_line(g, "}");
        break;
    }
    case AVROGEN_KIND_RECORD:
        if (w->recursive || holds_records(w)) {
            ec_line(g, "%s(r);", skip_fn(c, w));
            break;
        }
        for (size_t i = 0; i < w->n_fields; i++)
            skip(c, w->fields[i].type);
        break;
    }
}

/* ---- defaults ------------------------------------------------------------ */

/* The shortest decimal text that reads back as x (a double, or a float). */
static char *float_literal(double x, bool single)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (single ? strtof(buf, NULL) == (float)x : strtod(buf, NULL) == x)
            break;
    }
    bool has_point = strpbrk(buf, ".e") != NULL;
    return xasprintf("%s%s%s", buf, has_point ? "" : ".0", single ? "f" : "");
}

/* The C literal of a scalar default for location t, or NULL when it is not
 * one (the caller then decodes the default's bytes). */
static char *scalar_literal(const struct model_type *t, const avrogen_value *val)
{
    if (t->storage == MODEL_STORAGE_ENUM)
        return val->enum_index < t->enumeration->n_symbols
                       ? xstrdup(t->enumeration->symbols[val->enum_index].c_name)
                       : NULL;
    if (t->storage != MODEL_STORAGE_SCALAR)
        return NULL;
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        return xstrdup(val->boolean ? "true" : "false");
    case AVROGEN_KIND_INT: {
        int32_t x = val->i32;
        int64_t lo = INT32_MIN, hi = INT32_MAX;
        switch (t->scalar) {
        case MODEL_SCALAR_I8:
            lo = INT8_MIN, hi = INT8_MAX;
            break;
        case MODEL_SCALAR_I16:
            lo = INT16_MIN, hi = INT16_MAX;
            break;
        case MODEL_SCALAR_U8:
            lo = 0, hi = UINT8_MAX;
            break;
        case MODEL_SCALAR_U16:
            lo = 0, hi = UINT16_MAX;
            break;
        default:
            break;
        }
        if (x < lo || x > hi)
            return NULL; /* the decoder's range check fails it, as P_avro_decode would */
        return x == INT32_MIN ? xstrdup("INT32_MIN") : xasprintf("%" PRId32, x);
    }
    case AVROGEN_KIND_LONG: {
        int64_t x = val->i64;
        if (t->scalar == MODEL_SCALAR_U32)
            return x >= 0 && x <= (int64_t)UINT32_MAX ? xasprintf("%" PRId64 "u", x) : NULL;
        if (t->scalar == MODEL_SCALAR_U64 && t->u64_checked && x < 0)
            return NULL; /* the decoder's check fails it, as P_avro_decode would */
        if (t->scalar == MODEL_SCALAR_U64)
            return x >= 0 ? xasprintf("UINT64_C(%" PRId64 ")", x)
                          : xasprintf("(uint64_t)INT64_C(%" PRId64 ")", x);
        if (t->scalar == MODEL_SCALAR_I32)
            return x >= INT32_MIN && x <= INT32_MAX ? xasprintf("%" PRId64, x) : NULL;
        if (x == INT64_MIN)
            return xstrdup("INT64_MIN");
        if (x >= INT32_MIN && x <= INT32_MAX)
            return xasprintf("%" PRId64, x);
        return xasprintf("INT64_C(%" PRId64 ")", x);
    }
    case AVROGEN_KIND_FLOAT:
        return isfinite(val->f32) ? float_literal(val->f32, true) : NULL;
    case AVROGEN_KIND_DOUBLE:
        return isfinite(val->f64) ? float_literal(val->f64, false) : NULL;
    default:
        return NULL; /* decimals */
    }
}

/* The helper decoding field f's default (its binary encoding, computed here by
 * the runtime) into the struct; written once per field, shared by decoders. */
static char *default_helper(struct ctx *c, const struct model_record *rec,
                            const struct model_field *f, const uint8_t *bytes, size_t len,
                            const char *json)
{
    struct gen *g = c->g;
    char *name = xasprintf("%s_avro_default_%s", rec->c_prefix, f->c_name);
    for (size_t i = 0; i < c->st->n_defaults; i++)
        if (c->st->defaults[i].rec == rec && c->st->defaults[i].field == f)
            return name;
    for (size_t i = 0; i < c->n_pending; i++)
        if (c->pending[i].rec == rec && c->pending[i].field == f)
            return name;
    c->pending = xappend(c->pending, c->n_pending, sizeof *c->pending);
    c->pending[c->n_pending++] = (struct pending_default){rec, f};

    struct saved saved;
    struct textbuf body;
    fn_begin(g, &saved, &body);
    struct textbuf list = TEXTBUF_INIT;
    for (size_t i = 0; i < len; i++)
        textbuf_printf(&list, "%s0x%02x", i != 0 ? ", " : "", bytes[i]);
    /* An empty encoding still needs an array object (C has no zero-length ones). */
    ec_line(g, "static const uint8_t bytes[%zu] = {%s};", len != 0 ? len : 1,
            len != 0 ? list.data : "0");
    textbuf_free(&list);
    ec_line(g, "avrogen_reader sub;");
    ec_line(g, "avrogen_reader *r = &sub;");
    ec_line(g, "avrogen_reader_init(r, bytes, %s);", len != 0 ? "sizeof bytes" : "0");
    /* The default is part of the outer datum, as in plans and the generic
     * resolver: its nesting goes on from the outer reader's, its items count
     * against the outer datum's item budget. */
    ec_line(g, "r->depth = outer->depth;");
    ec_line(g, "r->max_depth = outer->max_depth;");
    ec_line(g, "r->items_left = outer->items_left;");
    g->unaligned = rec->may_be_unaligned;
    struct site vs = {"v", rec};
    char *lv = xasprintf("v->%s", model_field_path(f));
    ec_emit_read_value(g, f->type, lv, &vs, false);
    free(lv);
    ec_line(g, "outer->items_left = r->items_left;");
    ec_line(g, "if (r->err != AVROGEN_OK)");
    ec_line(g, "    avrogen_reader_fail(outer, r->err, r->err_msg);");
    bool used_a = g->used_a;
    fn_end(g, &saved);

    char *head = xasprintf("static void %s(avrogen_reader *outer, %s *v, avrogen_arena *a)", name,
                           rec->c_type);
    char *comment = strlen(json) <= 40 ? xasprintf("%s field %s from its default, %s",
                                                   rec->name.fullname, f->avro_name, json)
                                       : xasprintf("%s field %s from its default",
                                                   rec->name.fullname, f->avro_name);
    char *safe = comment_safe(comment);
    const char *params[] = {"a"};
    put_function(g, &c->defaults, &safe, 1, head, &body, params, 1, used_a);
    free(safe);
    free(comment);
    free(head);
    return name;
}

/* Reader field rf (member f) takes its default. */
static void emit_default(struct ctx *c, const struct model_record *rec, const struct model_field *f,
                         const avrogen_field *rf)
{
    struct gen *g = c->g;
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_value val;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_value_from_default(rf, &val, &arena, &d);
    if (st != AVROGEN_OK) {
        give_up(c, xasprintf("the default of field %s: %s", rf->name, d.msg));
        avrogen_arena_fini(&arena);
        return;
    }
    const struct model_type *t = f->type;
    char *lv = xasprintf("v->%s", model_field_path(f));
    char *literal = scalar_literal(t, &val);
    if (literal != NULL) {
        ec_line(g, "%s = %s;", lv, literal);
    } else if (t->storage == MODEL_STORAGE_NULLABLE && strcmp(rf->default_json, "null") == 0) {
        if (t->null_via == MODEL_NULL_VIA_PTR) {
            ec_line(g, "%s = NULL;", lv);
        } else {
            struct site vs = {"v", rec};
            ec_emit_read_null(g, t, lv, &vs);
        }
    } else {
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (avrogen_value_encode(&w, &val) != AVROGEN_OK) {
            give_up(c,
                    xasprintf("the default of field %s: %s", rf->name, avrogen_status_str(w.err)));
        } else {
            char *name = default_helper(c, rec, f, avrogen_writer_data(&w), avrogen_writer_len(&w),
                                        rf->default_json);
            ec_line(g, "%s(r, v, a);", name);
            g->used_a = true;
            free(name);
        }
        avrogen_writer_fini(&w);
    }
    free(literal);
    free(lv);
    avrogen_arena_fini(&arena);
}

/* ---- resolving ----------------------------------------------------------- */

/* A promotion (spec: int to long, float, double; long to float, double; float
 * to double; string and bytes both ways) into location t. */
static void promote(struct ctx *c, const avrogen_node *w, const struct model_type *t,
                    const char *lv, const struct site *s, bool nonnull)
{
    struct gen *g = c->g;
    if (w->kind == AVROGEN_KIND_STRING || w->kind == AVROGEN_KIND_BYTES) {
        /* One encoding: the reader's code reads it (and checks a string's UTF-8). */
        ec_emit_read_value(g, t, lv, s, nonnull);
        return;
    }
    if (t->storage == MODEL_STORAGE_TIME && w->kind == AVROGEN_KIND_INT) {
        ec_emit_read_time(g, t, lv, "avrogen_read_int(r)"); /* an instant of the reader's unit */
        return;
    }
    if (t->storage != MODEL_STORAGE_SCALAR) {
        give_up(c, xasprintf("a %s promoted to %s storage %s", avrogen_kind_name(w->kind),
                             avrogen_kind_name(t->kind), model_storage_name(t->storage)));
        return;
    }
    const char *read = w->kind == AVROGEN_KIND_INT    ? "avrogen_read_int(r)"
                       : w->kind == AVROGEN_KIND_LONG ? "avrogen_read_long(r)"
                                                      : "avrogen_read_float(r)";
    char *v = ec_plain(lv);
    if (t->bit_width)
        ec_emit_read_bitfield(g, t, v, read); /* an int into a long of its width */
    else if (t->kind == AVROGEN_KIND_LONG && t->scalar == MODEL_SCALAR_U32)
        /* uint32_t holds a long in 0..UINT32_MAX; an int can be at most INT32_MAX. */
        ec_line(g, "%s = (uint32_t)avrogen_read_int_range(r, 0, INT32_MAX);", v);
    else if (t->kind == AVROGEN_KIND_LONG && t->scalar == MODEL_SCALAR_U64 && t->u64_checked) {
        /* A checked uint64_t (size_t, ...) refuses what is negative. */
        char *ct = ec_unqualified(t->c_type);
        ec_line(g, "%s = (%s)avrogen_read_int_range(r, 0, INT32_MAX);", v, ct);
        free(ct);
    } else if (t->kind == AVROGEN_KIND_LONG && t->scalar == MODEL_SCALAR_U64)
        ec_line(g, "%s = (uint64_t)%s;", v, read);
    else if (t->kind == AVROGEN_KIND_LONG)
        ec_line(g, "%s = %s;", v, read);
    else
        ec_line(g, "%s = (%s)%s;", v, t->kind == AVROGEN_KIND_FLOAT ? "float" : "double", read);
    free(v);
}

/* A writer union: each branch resolved on its own (spec: "the first schema in
 * the reader's union that matches the selected writer's union schema"). */
static void writer_union(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                         const struct model_type *t, const char *lv, const struct site *s,
                         bool nonnull)
{
    struct gen *g = c->g;
    ec_line(g, "switch (avrogen_read_branch(r, %zu)) {", w->n_branches);
    for (size_t i = 0; i < w->n_branches; i++) {
        const avrogen_node *wb = w->branches[i];
        struct capture body;
        ec_capture_begin(g, &body);
        c->declared = false;
        if (avrogen_union_branch_readable(wb, rd)) {
            resolve(c, wb, rd, t, lv, s, nonnull);
        } else {
            char *msg = xasprintf("the writer's union branch %zu (%s) matches nothing in the "
                                  "reader's schema",
                                  i, avrogen_node_name(wb));
            emit_fail(g, "AVROGEN_E_MISMATCH", msg);
            free(msg);
        }
        ec_line(g, "break;");
        ec_capture_end(g, &body);
        /* A case that declares locals gets its own scope (C++ will not jump
         * past an initialization, C11 wants a statement after a label). */
        if (c->declared) {
            ec_line(g, "case %zu: {", i);
            ec_put_body(g, &body.text);
            ec_line(g, "}");
        } else {
            ec_line(g, "case %zu:", i);
            ec_put_body(g, &body.text);
        }
    }
    ec_line(g, "default:");
    ec_line(g, "    break;");
    ec_line(g, "}");
}

/* A non-union writer into a reader union: the first branch that matches. */
static void reader_union(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                         const struct model_type *t, const char *lv, const struct site *s)
{
    struct gen *g = c->g;
    long k = reader_branch(w, rd);
    if (k < 0) {
        give_up(c, xasprintf("the writer's %s matches no branch of the reader's union",
                             avrogen_node_name(w)));
        return;
    }
    const avrogen_node *rb = rd->branches[k];
    char *v = ec_plain(lv);
    if (t->storage == MODEL_STORAGE_NULLABLE) {
        if ((unsigned)k == t->null_index) {
            if (t->null_via == MODEL_NULL_VIA_PTR)
                ec_line(g, "%s = NULL;", v);
            else
                ec_emit_read_null(g, t, lv, s);
        } else if (t->null_via == MODEL_NULL_VIA_PTR) {
            struct target tg;
            resolve(c, w, rb, t->items, ec_target_begin(g, t->items, &tg), s, false);
            c->declared = true; /* `p`, at the level of the caller */
            ec_target_end(g, v, &tg);
        } else {
            resolve(c, w, rb, t->items, lv, s, true);
        }
    } else if (t->storage == MODEL_STORAGE_TAGGED && (size_t)k < t->n_branches) {
        ec_emit_store_tag(g, t, s, (size_t)k);
        char *member = xasprintf("%s.%s", lv, t->branches[k].c_name);
        resolve(c, w, rb, t->branches[k].type, member, s, false);
        free(member);
    } else {
        give_up(c, xasprintf("a union stored as %s", model_storage_name(t->storage)));
    }
    free(v);
}

/* One item of an array (or entry of a map) at arr[i]. */
static void resolve_item(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                         const struct model_type *t, const char *arr, const char *i)
{
    struct gen *g = c->g;
    bool unaligned = g->unaligned;
    /* what a pointer points to is aligned */
    g->unaligned = unaligned &&
                   (t->storage == MODEL_STORAGE_C_ARRAY || t->storage == MODEL_STORAGE_CAP_ARRAY);
    char *item = xasprintf("%s[%s]", arr, i);
    if (t->kind == AVROGEN_KIND_MAP) {
        char *e = ec_local(g, "e");
        char *entry_type = ec_unqualified(t->entry_c_type);
        char *decl = ec_pointer_decl(entry_type, e);
        struct aligned al;
        char *addr = ec_aligned_begin(g, entry_type, 0, item, "entry", &al);
        ec_line(g, "%s = %s;", decl, addr);
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        ec_emit_read_value(g, t->map_key, key, &es, false);
        resolve(c, w->items, rd->items, t->items, value, &es, false);
        ec_aligned_end(g, &al, true);
        free(addr);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
        free(e);
    } else {
        resolve(c, w->items, rd->items, t->items, item, NULL, false);
    }
    free(item);
    g->unaligned = unaligned;
}

/* The loop over the items of one block: for (i = first; i < first + blk; i++). */
static void item_loop(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                      const struct model_type *t, const char *arr, const char *first,
                      const char *blk)
{
    struct gen *g = c->g;
    char *i = ec_loop_index(g);
    /* The loop head tests the sticky error: a hostile block count cannot spin
     * through a body that does nothing. */
    char *head = xasprintf("for (size_t %s = %s; %s < %s + %s && r->err == AVROGEN_OK; %s++)", i,
                           first, i, first, blk, i);
    struct capture body;
    ec_capture_begin(g, &body);
    g->depth++;
    resolve_item(c, w, rd, t, arr, i);
    g->depth--;
    ec_capture_end(g, &body);
    ec_block(g, head, &body);
    free(head);
    free(i);
}

/* An array or map whose items need resolving, read block by block as
 * P_avro_decode reads it, with the writer's item size bounding the counts. */
static void resolve_array(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                          const struct model_type *t, const char *lv, const struct site *s,
                          bool nonnull)
{
    struct gen *g = c->g;
    char *v = ec_plain(lv);
    char *n = ec_local(g, "n"), *blk = ec_local(g, "b"), *end = ec_local(g, "end");
    if (t->storage == MODEL_STORAGE_C_ARRAY) {
        ec_scope_open(g);
        ec_line(g, "size_t %s = 0, %s;", n, blk);
        ec_line(g, "const uint8_t *%s = NULL;", end);
        ec_line(g, "while ((%s = avrogen_read_exact_block(r, &%s, %s, %" PRIu64 ")) != 0) {", blk,
                end, n, t->c_len);
        g->indent++;
        item_loop(c, w, rd, t, v, n, blk);
        ec_line(g, "%s += %s;", n, blk);
        g->indent--;
        ec_line(g, "}");
        ec_scope_close(g);
    } else if (t->storage == MODEL_STORAGE_CAP_ARRAY && s != NULL) {
        /* The first n of N items, as P_avro_decode reads them. */
        char *what = xasprintf("more than %" PRIu64 " items", t->c_len);
        char *msg = ec_member_msg(g, what);
        ec_scope_open(g);
        ec_line(g, "size_t %s = 0, %s;", n, blk);
        ec_line(g, "const uint8_t *%s = NULL;", end);
        ec_line(g, "while ((%s = avrogen_read_cap_block(r, &%s, %s, %" PRIu64 ", %s)) != 0) {", blk,
                end, n, t->c_len, msg);
        g->indent++;
        item_loop(c, w, rd, t, v, n, blk);
        ec_line(g, "%s += %s;", n, blk);
        g->indent--;
        ec_line(g, "}");
        ec_emit_store_count(g, t, s, n);
        ec_scope_close(g);
        free(msg);
        free(what);
    } else if (t->storage == MODEL_STORAGE_PTR_COUNT && s != NULL) {
        bool map = t->kind == AVROGEN_KIND_MAP;
        char *elem = map ? ec_unqualified(t->entry_c_type) : ec_value_c_type(t->items);
        char *items = ec_local(g, "items"), *cap = ec_local(g, "cap");
        char *decl = ec_pointer_decl(elem, items);
        char *cast = ec_pointer_cast(elem);
        uint64_t min = (map ? 1 : 0) + writer_min_size(w->items);
        ec_scope_open(g);
        ec_line(g, "%s = NULL;", decl);
        ec_line(g, "size_t %s = 0, %s = 0, %s;", n, cap, blk);
        ec_line(g, "const uint8_t *%s = NULL;", end);
        ec_line(g, "while ((%s = avrogen_read_block(r, &%s)) != 0) {", blk, end);
        g->indent++;
        ec_line(g, "%s = %savrogen_read_grow(r, a, %s, %s, &%s, %s, sizeof *%s, %" PRIu64 ");",
                items, cast, items, n, cap, blk, items, min);
        ec_line(g, "if (%s == NULL)", items);
        ec_line(g, "    break;");
        item_loop(c, w, rd, t, items, n, blk);
        ec_line(g, "%s += %s;", n, blk);
        g->indent--;
        ec_line(g, "}");
        if (nonnull) {
            /* An empty array is not null: it needs a pointer all the same. */
            ec_line(g, "if (%s == NULL && r->err == AVROGEN_OK)", items);
            ec_line(g, "    %s = %savrogen_reader_alloc(r, a, 0);", items, cast);
        }
        ec_line(g, "%s = %s;", v, items);
        ec_emit_store_count(g, t, s, n);
        ec_scope_close(g);
        g->used_a = true;
        free(cast);
        free(decl);
        free(cap);
        free(items);
        free(elem);
    } else {
        give_up(c, xasprintf("an %s stored as %s", avrogen_kind_name(t->kind),
                             model_storage_name(t->storage)));
    }
    free(end);
    free(blk);
    free(n);
    free(v);
}

/* An enum whose symbols differ: a function mapping the writer's index to the
 * C enumerator of the reader's symbol of the same name (or its default). */
static const char *enum_fn(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                           const struct model_enum *e)
{
    struct gen *g = c->g;
    struct fn *f = find_fn(c, w, e);
    if (f != NULL)
        return f->name;
    char *base = xasprintf("%s_avro_read_from", e->c_prefix);
    size_t index = new_fn(c, w, e, base);
    free(base);
    const char *ct = e->c_type != NULL ? e->c_type : model_scalar_c_name(e->scalar);

    struct textbuf list = TEXTBUF_INIT;
    char **notes = NULL;
    size_t n_notes = 0;
    notes = xappend(notes, n_notes, sizeof *notes);
    notes[n_notes++] =
            xasprintf("%s as written in %s: symbols mapped by name", rd->fullname, c->file);
    long *map = xcalloc(w->n_symbols + 1, sizeof *map);
    size_t n_fail = 0;
    struct strmap reader_index = {0}; /* a reader symbol -> its index */
    for (size_t k = 0; k < rd->n_symbols; k++)
        strmap_add(&reader_index, rd->symbols[k], k, NULL);
    for (size_t i = 0; i < w->n_symbols; i++) {
        size_t k;
        map[i] = strmap_get(&reader_index, w->symbols[i], &k) ? (long)k : -1;
        /* spec: a symbol the reader lacks takes the reader's default, else fails. */
        if (map[i] < 0 && rd->enum_default >= 0) {
            map[i] = rd->enum_default;
            notes = xappend(notes, n_notes, sizeof *notes);
            notes[n_notes++] = xasprintf("%s reads as %s, the enum's default", w->symbols[i],
                                         rd->symbols[map[i]]);
        } else if (map[i] < 0) {
            notes = xappend(notes, n_notes, sizeof *notes);
            notes[n_notes++] = xasprintf("%s fails the datum (E_MISMATCH)", w->symbols[i]);
            n_fail++;
        }
        k = map[i] >= 0 ? (size_t)map[i] : 0;
        textbuf_printf(&list, "%s%s", i != 0 ? ", " : "", e->symbols[k].c_name);
    }
    strmap_free(&reader_index);

    struct saved saved;
    struct textbuf body;
    fn_begin(g, &saved, &body);
    ec_line(g, "static const %s values[%zu] = {%s};", ct, w->n_symbols, list.data);
    if (n_fail == 0) {
        ec_line(g, "return values[avrogen_read_symbol(r, %zu)];", w->n_symbols);
    } else {
        ec_line(g, "uint32_t i = avrogen_read_symbol(r, %zu);", w->n_symbols);
        bool first = true;
        for (size_t i = 0; i < w->n_symbols; i++) {
            if (map[i] >= 0)
                continue;
            char *msg = xasprintf("enum symbol \"%s\" is not in the reader's enum %s",
                                  w->symbols[i], rd->fullname);
            ec_line(g, "%sif (i == %zu)", first ? "" : "else ", i);
            g->indent++;
            emit_fail(g, "AVROGEN_E_MISMATCH", msg);
            g->indent--;
            free(msg);
            first = false;
        }
        ec_line(g, "return values[i];");
    }
    fn_end(g, &saved);

    f = &c->fns[index];
    char *head = xasprintf("static %s %s(avrogen_reader *r)", ct, f->name);
    for (size_t i = 0; i < n_notes; i++) {
        char *safe = comment_safe(notes[i]);
        free(notes[i]);
        notes[i] = safe;
    }
    put_function(g, &c->body, notes, n_notes, head, &body, NULL, 0, false);
    f->done = true;
    free(head);
    free(map);
    textbuf_free(&list);
    for (size_t i = 0; i < n_notes; i++)
        free(notes[i]);
    free(notes);
    return f->name;
}

/* A union branch's record through a pointer (RECORD_PTR): allocated as a
 * nullable pointer's target, then resolved into it. */
static void record_pointer(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                           const struct model_type *t, const char *lv, const struct site *s)
{
    struct gen *g = c->g;
    char *v = ec_plain(lv);
    struct target tg;
    ec_scope_open(g);
    resolve(c, w, rd, t->items, ec_target_begin(g, t->items, &tg), s, false);
    ec_target_end(g, v, &tg);
    ec_scope_close(g);
    free(v);
}

/* True when model location t holds reader type rd (a consistency check). */
static bool holds(const struct model_type *t, const avrogen_node *rd)
{
    if (t->kind != rd->kind)
        return false;
    switch (rd->kind) {
    case AVROGEN_KIND_RECORD:
        return t->record != NULL &&
               (t->storage == MODEL_STORAGE_STRUCT || t->storage == MODEL_STORAGE_RECORD_PTR);
    case AVROGEN_KIND_ENUM:
        return t->enumeration != NULL && t->storage == MODEL_STORAGE_ENUM;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return t->items != NULL;
    case AVROGEN_KIND_UNION:
        if (t->storage == MODEL_STORAGE_NULLABLE)
            return rd->n_branches == 2 && t->items != NULL;
        return t->storage == MODEL_STORAGE_TAGGED && t->n_branches == rd->n_branches;
    default:
        return true;
    }
}

/*
 * Emit code that reads a value written as w into location lv (model type t,
 * reader type rd), following resolve.c's build() case for case.
 */
static void resolve(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                    const struct model_type *t, const char *lv, const struct site *s, bool nonnull)
{
    struct gen *g = c->g;
    if (c->why != NULL)
        return;
    if (t->holder_c_type != NULL) {
        struct held h;
        ec_held_begin(g, t, &h);
        resolve(c, w, rd, &h.inner, h.value, &h.site, nonnull);
        ec_held_end(g, t, lv, true, &h);
        return;
    }
    if (!holds(t, rd)) {
        give_up(c, xasprintf("the %s at %s does not hold the reader's %s",
                             model_storage_name(t->storage), lv, avrogen_node_name(rd)));
        return;
    }
    if (same_encoding(&c->same, w, rd)) {
        ec_emit_read_value(g, t, lv, s, nonnull);
        return;
    }
    if (w->kind == AVROGEN_KIND_UNION) {
        writer_union(c, w, rd, t, lv, s, nonnull);
        return;
    }
    if (t->storage == MODEL_STORAGE_RECORD_PTR) {
        record_pointer(c, w, rd, t, lv, s);
        return;
    }
    if (rd->kind == AVROGEN_KIND_UNION) {
        reader_union(c, w, rd, t, lv, s);
        return;
    }
    if (w->kind != rd->kind) {
        if (avrogen_kind_promotes(w->kind, rd->kind))
            promote(c, w, t, lv, s, nonnull);
        else
            give_up(c, xasprintf("the writer's %s cannot be read as %s", avrogen_node_name(w),
                                 avrogen_node_name(rd)));
        return;
    }
    switch (w->kind) {
    case AVROGEN_KIND_RECORD: {
        const char *fn = record_fn(c, w, rd, t->record, false);
        struct aligned al; /* a member of a packed record: through a copy */
        char *addr = ec_aligned_begin(g, t->record->c_type, t->record->c_align, lv, "member", &al);
        ec_line(g, "%s(r, %s, a);", fn, addr);
        ec_aligned_end(g, &al, true);
        g->used_a = true;
        free(addr);
        break;
    }
    case AVROGEN_KIND_ENUM: {
        const char *fn = enum_fn(c, w, rd, t->enumeration);
        char *v = ec_plain(lv);
        ec_line(g, "%s = %s(r);", v, fn);
        free(v);
        break;
    }
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        resolve_array(c, w, rd, t, lv, s, nonnull);
        break;
    default:
        /* a fixed read through an alias: the same bytes */
        ec_emit_read_value(g, t, lv, s, nonnull);
        break;
    }
}

/*
 * The function reading a record written as w into reader record rec (reader
 * node rd): writer fields in writer order, each read into its reader field or
 * skipped, then the defaults of the reader fields the writer lacks.
 */
static const char *record_fn(struct ctx *c, const avrogen_node *w, const avrogen_node *rd,
                             const struct model_record *rec, bool top)
{
    struct gen *g = c->g;
    struct fn *f = find_fn(c, w, rec);
    if (f != NULL)
        return call_fn(c, (size_t)(f - c->fns));
    char *base = xasprintf("%s_avro_read_from", rec->c_prefix);
    size_t index = new_fn(c, w, rec, base);
    free(base);

    if (rd->kind != AVROGEN_KIND_RECORD || rd->n_fields != rec->n_avro_fields) {
        give_up(c, xasprintf("record %s does not match its schema", rec->name.fullname));
        return c->fns[index].name;
    }
    long *match = match_fields(w, rd);
    /* writer field -> the first reader field it feeds, then the next (next[j]) */
    long *feeds = xcalloc(w->n_fields + 1, sizeof *feeds);
    long *last = xcalloc(w->n_fields + 1, sizeof *last);
    long *next = xcalloc(rd->n_fields + 1, sizeof *next);
    for (size_t i = 0; i < w->n_fields; i++)
        feeds[i] = last[i] = -1;
    for (size_t j = 0; j < rd->n_fields; j++) {
        long wi = match[j];
        next[j] = -1;
        if (wi < 0)
            continue;
        if (feeds[wi] < 0)
            feeds[wi] = (long)j;
        else
            next[last[wi]] = (long)j;
        last[wi] = (long)j;
    }
    free(last);

    char **notes = NULL;
    size_t n_notes = 0;
    notes = xappend(notes, n_notes, sizeof *notes);
    if (top)
        notes[n_notes++] =
                xasprintf("%s written with %s (fingerprint 0x%s):", rd->fullname, c->file, c->fp);
    else
        notes[n_notes++] = xasprintf("%s as written in %s:", rd->fullname, c->file);

    struct saved saved;
    struct textbuf body;
    size_t caller = c->current;
    c->current = index;
    fn_begin(g, &saved, &body);
    g->unaligned = rec->may_be_unaligned;
    if (w->min_size == 0) {
        /* The writer's record takes no bytes: it costs an item, as in the plans. */
        ec_line(g, "if (!avrogen_reader_charge(r, 1))");
        ec_line(g, "    return;");
    }
    struct site vs = {"v", rec};
    for (size_t i = 0; i < rec->n_fields; i++) {
        if (rec->fields[i].role == MODEL_FIELD_SKIP) {
            /* Members that are not serialized stay zeroed, as P_avro_decode leaves them. */
            ec_line(g, "memset((void *)v, 0, sizeof *v);");
            break;
        }
    }
    for (size_t i = 0; i < w->n_fields && c->why == NULL; i++) {
        const avrogen_field *wf = &w->fields[i];
        if (feeds[i] < 0) {
            struct capture code;
            ec_capture_begin(g, &code);
            g->indent--;
            skip(c, wf->type);
            g->indent++;
            ec_capture_end(g, &code);
            notes = xappend(notes, n_notes, sizeof *notes);
            notes[n_notes++] = xasprintf("writer field %s (%s) skipped", wf->name,
                                         avrogen_node_name(wf->type));
            if (code.text.len != 0)
                ec_line(g, "/* the writer's %s */", wf->name);
            ec_put_body(g, &code.text);
            continue;
        }
        /* A writer field several reader fields read: each reads its bytes
         * again from `at`, in a scope of its own (avrogen_reader_reread). */
        bool several = next[feeds[i]] >= 0;
        char *at = NULL;
        if (several) {
            ec_scope_open(g);
            at = ec_local(g, "at");
            ec_line(g, "const uint8_t *%s = r->p;", at);
            g->depth++;
        }
        for (long k = feeds[i]; k >= 0 && c->why == NULL; k = next[k]) {
            size_t j = (size_t)k;
            const avrogen_field *rf = &rd->fields[j];
            const struct model_field *mf = avro_field(rec, j);
            if (mf == NULL) {
                give_up(c, xasprintf("record %s has no member for field %s", rec->name.fullname,
                                     rf->name));
                break;
            }
            char *what = describe(&c->same, wf->type, rf->type);
            if (what != NULL || strcmp(wf->name, rf->name) != 0) {
                char *who = strcmp(wf->name, rf->name) != 0
                                    ? xasprintf("field %s (written as %s)", rf->name, wf->name)
                                    : xasprintf("field %s", rf->name);
                notes = xappend(notes, n_notes, sizeof *notes);
                notes[n_notes++] = what != NULL ? xasprintf("%s: %s", who, what) : who;
                if (what != NULL)
                    free(who);
            }
            free(what);
            if (several) {
                if (k != feeds[i])
                    ec_line(g, "(void)avrogen_reader_reread(r, %s);", at);
                ec_scope_open(g);
            }
            char *lv = xasprintf("v->%s", model_field_path(mf));
            ec_set_member(g, rec, mf->c_name);
            resolve(c, wf->type, rf->type, mf->type, lv, &vs, false);
            free(lv);
            if (several)
                ec_scope_close(g);
        }
        if (several) {
            g->depth--;
            ec_scope_close(g);
            free(at);
        }
    }
    for (size_t j = 0; j < rd->n_fields && c->why == NULL; j++) {
        if (match[j] >= 0)
            continue;
        const avrogen_field *rf = &rd->fields[j];
        const struct model_field *mf = avro_field(rec, j);
        if (mf == NULL || rf->default_json == NULL) {
            give_up(c, xasprintf("field %s has neither a writer field nor a default", rf->name));
            break;
        }
        notes = xappend(notes, n_notes, sizeof *notes);
        notes[n_notes++] =
                strlen(rf->default_json) <= 40
                        ? xasprintf("field %s from its default, %s", rf->name, rf->default_json)
                        : xasprintf("field %s from its default", rf->name);
        ec_set_member(g, rec, mf->c_name);
        emit_default(c, rec, mf, rf);
    }
    bool used_a = g->used_a;
    fn_end(g, &saved);
    c->current = caller;

    f = &c->fns[index];
    if (f->cyclic) {
        /* The pair reaches itself: bound the recursion on hostile input. */
        struct textbuf guarded = TEXTBUF_INIT;
        textbuf_puts(&guarded, "    if (!avrogen_reader_enter(r))\n        return;\n");
        if (body.data != NULL)
            textbuf_append(&guarded, body.data, body.len);
        textbuf_puts(&guarded, "    avrogen_reader_leave(r);\n");
        textbuf_free(&body);
        body = guarded;
    }
    for (size_t i = 0; i < n_notes; i++) {
        char *safe = comment_safe(notes[i]);
        free(notes[i]);
        notes[i] = safe;
    }
    char *head = xasprintf("static void %s(avrogen_reader *r, %s *v, avrogen_arena *a)", f->name,
                           rec->c_type);
    const char *params[] = {"r", "v", "a"};
    put_function(g, &c->body, notes, n_notes, head, &body, params, 3, used_a);
    f->proto = xasprintf("%s;", head);
    f->done = true;
    free(head);
    for (size_t i = 0; i < n_notes; i++)
        free(notes[i]);
    free(notes);
    free(feeds);
    free(next);
    free(match);
    return f->name;
}

/* ---- decoders ------------------------------------------------------------ */

/* Emit the decoder of one pair into out (and its default helpers into the
 * shared list); false, with nothing emitted, when it cannot be specialized. */
static bool emit_top(struct gen *g, const struct aot_top *top, struct textbuf *out, char **why)
{
    struct aot *st = g->aot;
    const struct model *m = g->m;
    const struct model_record *rec = m->records[top->rec];
    const avrogen_node *w = avrogen_schema_root(g->opt->earlier[top->earlier]);
    const avrogen_node *rd = avrogen_schema_root(st->reader[top->rec]);
    struct ctx c = {.g = g,
                    .st = st,
                    .file = base_name(g->opt->earlier_paths[top->earlier]),
                    .prefix = rec->c_prefix,
                    .current = SIZE_MAX};
    snprintf(c.fp, sizeof c.fp, "%016" PRIx64, top->fp);
    c.body = (struct textbuf)TEXTBUF_INIT;
    c.defaults = (struct textbuf)TEXTBUF_INIT;

    /* What a failed attempt marked must not make unused enum helpers appear. */
    size_t ne = m->n_enums + 1;
    bool *flags = xcalloc(3 * ne, sizeof *flags);
    memcpy(flags, g->enum_index, ne * sizeof *flags);
    memcpy(flags + ne, g->enum_write, ne * sizeof *flags);
    memcpy(flags + 2 * ne, g->enum_read, ne * sizeof *flags);

    const char *read = record_fn(&c, w, rd, rec, true);
    bool ok = c.why == NULL && !c.body.failed && !c.defaults.failed;
    if (ok) {
        struct textbuf *saved = g->tb;
        g->tb = out;
        bool protos = false;
        for (size_t i = 0; i < c.n_fns; i++) {
            if (c.fns[i].needs_proto && c.fns[i].proto != NULL) {
                if (!protos)
                    ec_line(g, "/* Functions that reach themselves call each other before "
                               "definition. */");
                ec_line(g, "%s", c.fns[i].proto);
                protos = true;
            }
        }
        if (protos)
            ec_blank(g);
        ec_put_body(g, &c.body);
        ec_line(g, "/* %s_avro_decode for data written with %s (%s_avro_resolved). */",
                rec->c_prefix, c.file, rec->c_prefix);
        ec_line(g,
                "static avrogen_status %s_avro_decode_from_%s(avrogen_reader *r, void *dst, "
                "avrogen_arena *a)",
                rec->c_prefix, c.fp);
        ec_line(g, "{");
        g->indent = 1;
        char *decl = ec_pointer_decl(rec->c_type, "v");
        char *cast = ec_pointer_cast(rec->c_type);
        ec_line(g, "%s = %sdst;", decl, cast);
        ec_line(g, "avrogen_reader_begin_datum(r);");
        ec_line(g, "%s(r, v, a);", read);
        char *room = ec_decoded_size(rec);
        ec_line(g, "if (r->err != AVROGEN_OK)");
        ec_line(g, "    memset((void *)v, 0, %s); /* no pointers into a half-decoded datum */",
                room);
        free(room);
        ec_line(g, "return r->err;");
        g->indent = 0;
        ec_line(g, "}");
        ec_blank(g);
        free(cast);
        free(decl);
        g->tb = saved;
        for (size_t i = 0; i < c.n_pending; i++) {
            st->defaults = xappend(st->defaults, st->n_defaults, sizeof *st->defaults);
            st->defaults[st->n_defaults].rec = c.pending[i].rec;
            st->defaults[st->n_defaults++].field = c.pending[i].field;
        }
        if (c.defaults.data != NULL)
            textbuf_append(&st->default_text, c.defaults.data, c.defaults.len);
    } else {
        memcpy(g->enum_index, flags, ne * sizeof *flags);
        memcpy(g->enum_write, flags + ne, ne * sizeof *flags);
        memcpy(g->enum_read, flags + 2 * ne, ne * sizeof *flags);
        *why = c.why != NULL ? c.why : xstrdup("out of memory");
        c.why = NULL;
    }
    free(flags);
    textbuf_free(&c.body);
    textbuf_free(&c.defaults);
    for (size_t i = 0; i < c.n_fns; i++) {
        free(c.fns[i].name);
        free(c.fns[i].proto);
    }
    free(c.fns);
    free(c.pending);
    free(c.why);
    ptrmap_free(&c.same.pairs);
    ptrmap_free(&c.fn_index);
    free(c.same.trail);
    return ok;
}

static int by_record_then_fp(const void *a, const void *b)
{
    const struct aot_top *x = a, *y = b;
    if (x->rec != y->rec)
        return x->rec < y->rec ? -1 : 1;
    return x->fp < y->fp ? -1 : x->fp > y->fp;
}

void ec_aot_begin(struct gen *g)
{
    const struct model *m = g->m;
    const struct emit_c_options *opt = g->opt;
    if (opt->n_earlier == 0)
        return;
    struct aot *st = xcalloc(1, sizeof *st);
    st->reader = xcalloc(m->n_records + 1, sizeof *st->reader);
    st->default_text = (struct textbuf)TEXTBUF_INIT;
    g->aot = st;
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file || rec->avsc == NULL)
            continue;
        avrogen_diag d;
        if (avrogen_schema_parse(rec->avsc, strlen(rec->avsc), NULL, &st->reader[i], &d) !=
            AVROGEN_OK) {
            diag_note(g->d, &rec->loc, "no ahead-of-time decoders for %s: its schema: %s",
                      rec->name.fullname, d.msg);
            continue;
        }
        const avrogen_node *rd = avrogen_schema_root(st->reader[i]);
        for (size_t k = 0; k < opt->n_earlier; k++) {
            const avrogen_node *w = avrogen_schema_root(opt->earlier[k]);
            if (w->kind != AVROGEN_KIND_RECORD || !avrogen_names_match(w, rd))
                continue;
            uint64_t fp = avrogen_schema_fingerprint64(opt->earlier[k]);
            if (fp == rec->fingerprint)
                continue; /* the direct decoder reads it */
            bool dup = false;
            for (size_t t = 0; t < st->n_tops; t++)
                dup |= st->tops[t].rec == i && st->tops[t].fp == fp;
            if (dup)
                continue;
            avrogen_resolver *res = NULL;
            avrogen_diag why;
            avrogen_status rs = avrogen_resolver_new(w, rd, NULL, &res, &why);
            avrogen_resolver_free(res);
            if (rs != AVROGEN_OK) {
                diag_note(g->d, &rec->loc,
                          "%s cannot read data written with %s (%s%s%s); it gets no "
                          "ahead-of-time decoder for it",
                          rec->name.fullname, opt->earlier_paths[k], why.path,
                          why.path[0] != '\0' ? ": " : "", why.msg);
                continue;
            }
            st->tops = xappend(st->tops, st->n_tops, sizeof *st->tops);
            st->tops[st->n_tops++] = (struct aot_top){i, k, fp, false};
        }
    }
    if (st->n_tops > 1)
        qsort(st->tops, st->n_tops, sizeof *st->tops, by_record_then_fp);
}

void ec_aot_emit_functions(struct gen *g)
{
    struct aot *st = g->aot;
    if (st == NULL || st->n_tops == 0)
        return;
    struct textbuf decoders = TEXTBUF_INIT;
    for (size_t i = 0; i < st->n_tops; i++) {
        struct aot_top *top = &st->tops[i];
        const struct model_record *rec = g->m->records[top->rec];
        char *why = NULL;
        top->emitted = emit_top(g, top, &decoders, &why);
        if (!top->emitted) {
            diag_note(g->d, &rec->loc,
                      "no ahead-of-time decoder for %s written with %s: %s; avrogen_decode_as "
                      "reads it with a plan",
                      rec->name.fullname, g->opt->earlier_paths[top->earlier], why);
            free(why);
        }
    }
    bool any = false;
    for (size_t i = 0; i < st->n_tops; i++)
        any |= st->tops[i].emitted;
    if (any) {
        ec_line(g, "/*");
        ec_line(g, " * Ahead-of-time decoders (avrogen generate --compat-with): data written with");
        ec_line(g,
                " * an earlier schema, decoded straight into the current struct with the schema");
        ec_line(g, " * resolution done by the generator. avrogen_decode_as finds them by the");
        ec_line(g, " * writer's fingerprint in P_avro_type.resolved.");
        ec_line(g, " */");
        ec_blank(g);
        ec_put_body(g, &st->default_text);
        ec_put_body(g, &decoders);
    }
    textbuf_free(&decoders);
}

size_t ec_aot_count(const struct gen *g, const struct model_record *rec)
{
    const struct aot *st = g->aot;
    size_t n = 0;
    if (st == NULL)
        return 0;
    for (size_t i = 0; i < st->n_tops; i++)
        n += st->tops[i].emitted && g->m->records[st->tops[i].rec] == rec;
    return n;
}

void ec_aot_emit_table(struct gen *g, const struct model_record *rec)
{
    const struct aot *st = g->aot;
    size_t n = ec_aot_count(g, rec);
    if (n == 0)
        return;
    ec_line(g, "/* The ahead-of-time decoders of %s, by writer fingerprint. */", rec->c_type);
    ec_line(g, "static const avrogen_type_decoder %s_avro_resolved[%zu] = {", rec->c_prefix, n);
    for (size_t i = 0; i < st->n_tops; i++) {
        const struct aot_top *top = &st->tops[i];
        if (!top->emitted || g->m->records[top->rec] != rec)
            continue;
        ec_line(g, "        {UINT64_C(0x%016" PRIx64 "), %s_avro_decode_from_%016" PRIx64 "},",
                top->fp, rec->c_prefix, top->fp);
    }
    ec_line(g, "};");
    ec_blank(g);
}

void ec_aot_end(struct gen *g)
{
    struct aot *st = g->aot;
    if (st == NULL)
        return;
    for (size_t i = 0; i < g->m->n_records; i++)
        avrogen_schema_free(st->reader[i]);
    free(st->reader);
    free(st->tops);
    free(st->defaults);
    textbuf_free(&st->default_text);
    free(st);
    g->aot = NULL;
}
