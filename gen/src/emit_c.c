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
#include "emit_c.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>

#include "genutil.h"
#include "textbuf.h"

/* ISO C11 guarantees string literals of this length (-Woverlength-strings). */
#define MAX_STRING_LITERAL 4095
/* Target width of generated lines. */
#define COLUMNS 100

/* ---- model queries ---------------------------------------------------------- */

static size_t record_index(const struct model *m, const struct model_record *r)
{
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i] == r)
            return i;
    return m->n_records;
}

static size_t enum_index(const struct model *m, const struct model_enum *e)
{
    for (size_t i = 0; i < m->n_enums; i++)
        if (m->enums[i] == e)
            return i;
    return m->n_enums;
}

static size_t fixed_index(const struct model *m, const struct model_fixed *f)
{
    for (size_t i = 0; i < m->n_fixeds; i++)
        if (m->fixeds[i] == f)
            return i;
    return m->n_fixeds;
}

/* Bytes of the zigzag varint of v. */
static uint64_t varint_size(int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint64_t n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

/* Enum and union indexes below this take one varint byte. */
#define ONE_BYTE_INDEXES 64

/*
 * True when every value of t encodes in the same number of bytes, stored in
 * *out. Records nest only finitely by value (recursion goes through a
 * nullable or an array, which are never fixed), so this terminates.
 */
static bool fixed_size(const struct model_type *t, uint64_t *out)
{
    uint64_t n = 0, item;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        *out = 0;
        return true;
    case AVROGEN_KIND_BOOLEAN:
        *out = 1;
        return true;
    case AVROGEN_KIND_FLOAT:
        *out = 4;
        return true;
    case AVROGEN_KIND_DOUBLE:
        *out = 8;
        return true;
    case AVROGEN_KIND_FIXED:
        *out = t->fixed != NULL ? t->fixed->size : t->c_len;
        return true;
    case AVROGEN_KIND_ENUM:
        *out = 1;
        return t->enumeration->n_symbols <= ONE_BYTE_INDEXES;
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->record->n_fields; i++) {
            const struct model_field *f = &t->record->fields[i];
            if (f->role != MODEL_FIELD_VALUE)
                continue;
            if (!fixed_size(f->type, &item))
                return false;
            n += item;
        }
        *out = n;
        return true;
    case AVROGEN_KIND_ARRAY:
        if (t->storage != MODEL_STORAGE_C_ARRAY || !fixed_size(t->items, &item))
            return false;
        *out = (t->c_len != 0 ? varint_size((int64_t)t->c_len) : 0) + t->c_len * item + 1;
        return true;
    case AVROGEN_KIND_UNION:
        if (t->storage != MODEL_STORAGE_TAGGED || t->n_branches > ONE_BYTE_INDEXES)
            return false;
        for (size_t i = 0; i < t->n_branches; i++) {
            if (!fixed_size(t->branches[i].type, &item) || (i != 0 && item != n))
                return false;
            n = item;
        }
        *out = 1 + n;
        return true;
    default:
        return false;
    }
}

/* The fewest input bytes a value of t takes: bounds block counts on decode. */
static uint64_t min_size(const struct model_type *t)
{
    uint64_t n = 0;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return 0;
    case AVROGEN_KIND_FLOAT:
        return 4;
    case AVROGEN_KIND_DOUBLE:
        return 8;
    case AVROGEN_KIND_FIXED:
        return t->fixed != NULL ? t->fixed->size : t->c_len;
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->record->n_fields; i++)
            if (t->record->fields[i].role == MODEL_FIELD_VALUE)
                n += min_size(t->record->fields[i].type);
        return n;
    default:
        /* booleans, varints, length prefixes, block counts, union indexes */
        return 1;
    }
}

/* ---- C spelling helpers ------------------------------------------------------ */

/* s as an upper-case C identifier: "order-v2" -> "ORDER_V2". */
static char *upper_ident(const char *s)
{
    char *r = xmalloc(strlen(s) + 1);
    size_t k = 0;
    for (size_t i = 0; s[i] != '\0'; i++) {
        unsigned char ch = (unsigned char)s[i];
        char c = isalnum(ch) ? (char)toupper(ch) : '_';
        if (c == '_' && (k == 0 || r[k - 1] == '_'))
            continue; /* no leading or doubled underscores */
        r[k++] = c;
    }
    r[k] = '\0';
    return r;
}

/* The type without a top-level `const` ("const struct line" -> "struct line"),
 * and `_Bool` (clang's spelling in C) as `bool`, which C++ also knows. */
static char *unqualified(const char *c_type)
{
    if (strcmp(c_type, "_Bool") == 0 || strcmp(c_type, "const _Bool") == 0)
        return xstrdup("bool");
    size_t len = strlen(c_type);
    if (strchr(c_type, '*') == NULL && strncmp(c_type, "const ", 6) == 0)
        return xstrdup(c_type + 6);
    if (len > 6 && strcmp(c_type + len - 6, " const") == 0)
        return xstrndup(c_type, len - 6);
    return xstrdup(c_type);
}

/* The C type a value of t is stored as, for declarations and casts. */
static char *value_c_type(const struct model_type *t)
{
    if (t->storage == MODEL_STORAGE_STRUCT)
        return xstrdup(t->record->c_type);
    if (t->storage == MODEL_STORAGE_ENUM && t->enumeration->c_type != NULL)
        return xstrdup(t->enumeration->c_type);
    return unqualified(t->c_type);
}

/* Declare `name` as a pointer to c_type: "struct line *p", "char **p",
 * "int64_t (*p)[4]"; an empty name gives the abstract type for casts. */
static char *pointer_decl(const char *c_type, const char *name)
{
    const char *bracket = strchr(c_type, '[');
    if (bracket != NULL) {
        size_t head = (size_t)(bracket - c_type);
        while (head > 0 && c_type[head - 1] == ' ')
            head--;
        /* "uint8_t(*p)[8]": clang-format 14 puts no space there. */
        return xasprintf("%.*s(*%s)%s", (int)head, c_type, name, bracket);
    }
    size_t len = strlen(c_type);
    if (len > 0 && c_type[len - 1] == '*')
        return xasprintf("%s*%s", c_type, name);
    return xasprintf("%s *%s", c_type, name);
}

static char *pointer_cast(const char *c_type)
{
    char *decl = pointer_decl(c_type, "");
    char *cast = xasprintf("(%s)", decl);
    free(decl);
    return cast;
}

/* The address of lvalue lv: "(*p)" -> "p", "v->x" -> "&v->x". */
static char *address_of(const char *lv)
{
    size_t len = strlen(lv);
    if (len > 3 && lv[0] == '(' && lv[1] == '*' && lv[len - 1] == ')') {
        int depth = 0;
        bool whole = true;
        for (size_t i = 0; i < len; i++) {
            depth += lv[i] == '(' ? 1 : lv[i] == ')' ? -1 : 0;
            if (depth == 0 && i + 1 < len)
                whole = false;
        }
        if (whole)
            return xstrndup(lv + 2, len - 3);
    }
    return xasprintf("&%s", lv);
}

/* "(*X)" -> "*X" when lv is a whole argument or operand; anything else as is. */
static char *plain(const char *lv)
{
    char *addr = address_of(lv);
    char *r = addr[0] == '&' ? xstrdup(lv) : xasprintf("*%s", addr);
    free(addr);
    return r;
}

static const char *int_max_macro(enum model_scalar s)
{
    switch (s) {
    case MODEL_SCALAR_I8:
        return "INT8_MAX";
    case MODEL_SCALAR_I16:
        return "INT16_MAX";
    case MODEL_SCALAR_I32:
        return "INT32_MAX";
    case MODEL_SCALAR_U8:
        return "UINT8_MAX";
    case MODEL_SCALAR_U16:
        return "UINT16_MAX";
    case MODEL_SCALAR_U32:
        return "UINT32_MAX";
    default:
        return NULL; /* 64 bits: every count the decoder can produce fits */
    }
}

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
            "AVROGEN_STORAGE_NONE",       "AVROGEN_STORAGE_SCALAR",   "AVROGEN_STORAGE_CSTRING",
            "AVROGEN_STORAGE_CHAR_ARRAY", "AVROGEN_STORAGE_STR_VIEW", "AVROGEN_STORAGE_BYTES_VIEW",
            "AVROGEN_STORAGE_PTR_COUNT",  "AVROGEN_STORAGE_C_ARRAY",  "AVROGEN_STORAGE_STRUCT",
            "AVROGEN_STORAGE_ENUM",       "AVROGEN_STORAGE_NULLABLE", "AVROGEN_STORAGE_TAGGED",
    };
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

/* ---- the emitter's state and text output -------------------------------------- */

/* The struct a location is a member of: where its count or tag sibling lives. */
struct site {
    const char *ptr;                /* C expression of a pointer to it: "v", "e" */
    const struct model_record *rec; /* that struct when it is a record, else NULL */
};

struct gen {
    const struct model *m;
    const struct emit_c_options *opt;
    struct textbuf *tb; /* where line() appends */
    int indent;         /* current indentation, in steps of 4 spaces */
    unsigned depth;     /* nesting of generated loops and blocks: unique local names */
    bool used_v;        /* the function being emitted reads its `v` parameter */
    bool used_a;        /* ... its arena parameter */
    bool *need_record;  /* per m->records[i]: emit its functions and descriptors */
    bool *cyclic;       /* per m->records[i]: reaches itself (decode checks depth) */
    bool *need_enum;
    bool *need_fixed;
    /* Per m->enums[i]: which of its static helpers the record code calls. */
    bool *enum_index; /* P_avro_index (P_avro_write calls it too) */
    bool *enum_write;
    bool *enum_read;
    const char *tables; /* name of the static object holding the descriptor tables */
};

/*
 * Append one line of code, broken the way clang-format breaks it when it is
 * longer than COLUMNS: after the last ", " or " + " inside brackets that still
 * fits, continuing under the first argument (after a comma) or one
 * continuation indent into the operand (after a +). A line with no such point
 * stays long.
 */
static void put_line(struct textbuf *tb, const char *text)
{
    size_t open[64], arg[64], depth = 0; /* columns of open brackets and argument starts */
    size_t start = 0, hang = 0; /* the physical line: text[start..], drawn from column hang */
    size_t cut = 0, cut_hang = 0;
    char quote = 0;
    for (size_t i = 0; text[i] != '\0'; i++) {
        size_t col = hang + (i - start);
        char c = text[i];
        bool inside = depth > 0 && depth <= 64;
        if (quote != 0) {
            if (c == '\\' && text[i + 1] != '\0')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '{' || c == '[') {
            if (depth < 64)
                open[depth] = arg[depth] = col + 1;
            depth++;
        } else if ((c == ')' || c == '}' || c == ']') && depth > 0) {
            depth--;
        } else if (c == ',' && text[i + 1] == ' ' && inside && col < COLUMNS) {
            /* After a comma: under the first argument. */
            cut = i + 1;
            cut_hang = open[depth - 1];
            arg[depth - 1] = col + 2;
        } else if (c == '+' && text[i + 1] == ' ' && i > 0 && text[i - 1] == ' ' && inside &&
                   col < COLUMNS) {
            /* After a binary +: one continuation indent into the operand list. */
            cut = i + 1;
            cut_hang = arg[depth - 1] + 8;
        }
        if (col >= COLUMNS && cut > start && cut_hang < hang + (cut - start)) {
            textbuf_append(tb, text + start, cut - start);
            textbuf_putc(tb, '\n');
            for (size_t k = 0; k < cut_hang; k++)
                textbuf_putc(tb, ' ');
            start = cut + 1;
            hang = cut_hang;
            cut = 0;
        }
    }
    textbuf_puts(tb, text + start);
    textbuf_putc(tb, '\n');
}

static void line(struct gen *g, const char *fmt, ...) AVROGEN_PRINTF(2, 3);

static void line(struct gen *g, const char *fmt, ...)
{
    char *text;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        g->tb->failed = true;
        return;
    }
    size_t pad = n > 0 ? (size_t)g->indent * 4 : 0;
    text = xmalloc(pad + (size_t)n + 1);
    memset(text, ' ', pad);
    va_start(ap, fmt);
    vsnprintf(text + pad, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put_line(g->tb, text);
    free(text);
}

static void blank(struct gen *g)
{
    textbuf_putc(g->tb, '\n');
}

/* Redirect line() into `into` (one deeper) until capture_end. */
struct capture {
    struct textbuf *saved;
    struct textbuf text;
};

static void capture_begin(struct gen *g, struct capture *c)
{
    c->saved = g->tb;
    c->text = (struct textbuf)TEXTBUF_INIT;
    g->tb = &c->text;
    g->indent++;
}

static void capture_end(struct gen *g, struct capture *c)
{
    g->tb = c->saved;
    g->indent--;
}

static size_t count_lines(const struct textbuf *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->len; i++)
        n += t->data[i] == '\n';
    return n;
}

/* True when body is one plain statement: it may go without braces. */
static bool single_statement(const struct textbuf *body)
{
    if (count_lines(body) != 1)
        return false;
    const char *s = body->data;
    while (*s == ' ')
        s++;
    return *s != '{' && strncmp(s, "/*", 2) != 0 && strncmp(s, "if ", 3) != 0 &&
           strncmp(s, "for ", 4) != 0 && strncmp(s, "while ", 6) != 0;
}

/*
 * A body that is one `{ ... }` scope already has its braces: drop the scope's
 * own and outdent it, so `if (x) { { ... } }` reads `if (x) { ... }`.
 */
static void unwrap_scope(struct textbuf *body, int indent)
{
    size_t pad = (size_t)indent * 4;
    if (body->len < 2 * (pad + 2) || strncmp(body->data + pad, "{\n", 2) != 0 ||
        strncmp(body->data + body->len - 2, "}\n", 2) != 0)
        return;
    /* Only when the opening brace closes at the very end. */
    int depth = 0;
    for (size_t i = pad; i < body->len; i++) {
        if (body->data[i] == '"') {
            for (i++; i < body->len && body->data[i] != '"'; i++)
                if (body->data[i] == '\\')
                    i++;
            continue;
        }
        depth += body->data[i] == '{' ? 1 : body->data[i] == '}' ? -1 : 0;
        if (depth == 0 && i + 2 < body->len)
            return;
    }
    struct textbuf out = TEXTBUF_INIT;
    const char *p = body->data + pad + 2, *end = body->data + body->len - pad - 2;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)(nl - p) + 1;
        size_t drop = n > 4 && strncmp(p, "    ", 4) == 0 ? 4 : 0;
        textbuf_append(&out, p + drop, n - drop);
        p += n;
    }
    textbuf_free(body);
    *body = out;
}

static void put_body(struct gen *g, struct textbuf *body)
{
    if (body->data != NULL)
        textbuf_append(g->tb, body->data, body->len);
    textbuf_free(body);
}

/* `head` (e.g. "for (...)") followed by a captured body, braced unless one statement. */
static void block(struct gen *g, const char *head, struct capture *c)
{
    unwrap_scope(&c->text, g->indent + 1);
    if (single_statement(&c->text)) {
        line(g, "%s", head);
    } else {
        line(g, "%s {", head);
    }
    bool braces = !single_statement(&c->text);
    put_body(g, &c->text);
    if (braces)
        line(g, "}");
}

/* if (cond) then else other; braces on both branches when either needs them. */
static void if_else(struct gen *g, const char *cond, struct capture *then, struct capture *other)
{
    unwrap_scope(&then->text, g->indent + 1);
    if (other != NULL)
        unwrap_scope(&other->text, g->indent + 1);
    bool braces =
            !single_statement(&then->text) || (other != NULL && !single_statement(&other->text));
    line(g, braces ? "if (%s) {" : "if (%s)", cond);
    put_body(g, &then->text);
    if (other != NULL) {
        line(g, braces ? "} else {" : "else");
        put_body(g, &other->text);
    }
    if (braces)
        line(g, "}");
}

/* Open a plain `{ ... }` scope for locals. */
static void scope_open(struct gen *g)
{
    line(g, "{");
    g->indent++;
}

static void scope_close(struct gen *g)
{
    g->indent--;
    line(g, "}");
}

/*
 * A local name unique at the current depth: "n", then "n1", "n2", ... Names are
 * taken at the depth of the construct that declares them, and everything
 * nested in its body is one deeper, so -Wshadow never fires.
 */
static char *local(const struct gen *g, const char *base)
{
    if (g->depth == 0)
        return xstrdup(base);
    return xasprintf("%s%u", base, g->depth);
}

/* Loop indexes read best as i, j, k. */
static char *loop_index(const struct gen *g)
{
    static const char *const names[] = {"i", "j", "k"};
    if (g->depth < 3)
        return xstrdup(names[g->depth]);
    return xasprintf("i%u", g->depth);
}

/* The C type of the count or tag member `name` next to a location. */
static char *sibling_c_type(const struct site *s, const char *name, enum model_scalar scalar)
{
    if (s->rec != NULL)
        for (size_t i = 0; i < s->rec->n_fields; i++)
            if (strcmp(s->rec->fields[i].c_name, name) == 0)
                return unqualified(s->rec->fields[i].c_type);
    return xstrdup(model_scalar_c_name(scalar));
}

/* ---- encode ----------------------------------------------------------------- */

/*
 * Arrays of these item types go through one gencode.h call per block
 * (avrogen_write_longs, avrogen_read_doubles, ...), which checks bounds once
 * for the lot: the suffix, or NULL. Only exact C types qualify, as the
 * helpers take int64_t *, int32_t *, double * and float *.
 */
static const char *bulk_suffix(const struct model_type *it)
{
    if (it->storage != MODEL_STORAGE_SCALAR || it->c_type == NULL)
        return NULL;
    char *type = unqualified(it->c_type);
    const char *suffix = NULL;
    if (it->kind == AVROGEN_KIND_DOUBLE)
        suffix = "doubles";
    else if (it->kind == AVROGEN_KIND_FLOAT)
        suffix = "floats";
    else if (it->kind == AVROGEN_KIND_LONG && strcmp(type, "int64_t") == 0)
        suffix = "longs";
    else if (it->kind == AVROGEN_KIND_INT && strcmp(type, "int32_t") == 0)
        suffix = "ints";
    free(type);
    return suffix;
}

static void write_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s);
static void write_members(struct gen *g, const struct model_type *const *types,
                          const char *const *lvs, const char *const *names, size_t n,
                          const struct site *s);
static void write_scalar(struct gen *g, const struct model_type *t, const char *v);
static char *null_test(const struct model_type *t, const char *lv);
static char *nullable_target(const struct model_type *t, const char *lv);

/* Items [0, count) of the array `arr` (a pointer or a C array). */
static void write_items(struct gen *g, const struct model_type *t, const char *arr,
                        const char *count)
{
    const struct model_type *it = t->items;
    const char *bulk = t->kind == AVROGEN_KIND_ARRAY ? bulk_suffix(it) : NULL;
    if (bulk != NULL) {
        line(g, "avrogen_write_%s(w, %s, %s);", bulk, arr, count);
        return;
    }
    char *i = loop_index(g);
    char *head = xasprintf("for (size_t %s = 0; %s < %s; %s++)", i, i, count, i);
    struct capture body;
    capture_begin(g, &body);
    char *e = local(g, "e");
    g->depth++;
    if (t->kind == AVROGEN_KIND_MAP) {
        char *entry_type = unqualified(t->entry_c_type);
        char *decl = pointer_decl(entry_type, e);
        line(g, "const %s = &%s[%s];", decl, arr, i);
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        const struct model_type *types[] = {t->map_key, it};
        const char *lvs[] = {key, value}, *names[] = {"key", "value"};
        write_members(g, types, lvs, names, 2, &es);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
    } else {
        char *item = xasprintf("%s[%s]", arr, i);
        write_value(g, it, item, NULL);
        free(item);
    }
    g->depth--;
    capture_end(g, &body);
    block(g, head, &body);
    free(head);
    free(e);
    free(i);
}

/* The expression that is true when nullable location lv holds null. */
static char *null_test(const struct model_type *t, const char *lv)
{
    if (t->null_via == MODEL_NULL_VIA_SELF && (t->items->storage == MODEL_STORAGE_STR_VIEW ||
                                               t->items->storage == MODEL_STORAGE_BYTES_VIEW))
        return xasprintf("%s.ptr == NULL", lv);
    char *p = plain(lv);
    char *r = xasprintf("%s == NULL", p);
    free(p);
    return r;
}

/* The lvalue of the non-null branch of nullable location lv. */
static char *nullable_target(const struct model_type *t, const char *lv)
{
    if (t->null_via == MODEL_NULL_VIA_PTR)
        return xasprintf("(*%s)", lv);
    return xstrdup(lv);
}

static void write_scalar(struct gen *g, const struct model_type *t, const char *v)
{
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        line(g, "avrogen_write_bool(w, %s);", v);
        break;
    case AVROGEN_KIND_INT:
        line(g, "avrogen_write_int(w, %s);", v);
        break;
    case AVROGEN_KIND_LONG:
        if (t->scalar == MODEL_SCALAR_U64)
            line(g, "avrogen_write_long(w, (int64_t)%s);", v);
        else
            line(g, "avrogen_write_long(w, %s);", v);
        break;
    case AVROGEN_KIND_FLOAT:
        line(g, "avrogen_write_float(w, %s);", v);
        break;
    case AVROGEN_KIND_DOUBLE:
        line(g, "avrogen_write_double(w, %s);", v);
        break;
    case AVROGEN_KIND_BYTES: /* decimal */
        line(g, "avrogen_write_decimal_%s(w, %s);",
             t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        break;
    default:
        break;
    }
}

static void write_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s)
{
    char *v = plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_NONE:
        break;
    case MODEL_STORAGE_SCALAR:
        write_scalar(g, t, v);
        break;
    case MODEL_STORAGE_CSTRING:
        line(g, "avrogen_write_cstring(w, %s);", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        line(g, "avrogen_write_chars(w, %s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
        line(g, "avrogen_write_string(w, %s.ptr, %s.len);", lv, lv);
        break;
    case MODEL_STORAGE_BYTES_VIEW:
        line(g, "avrogen_write_bytes(w, %s.ptr, %s.len);", lv, lv);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        if (t->kind == AVROGEN_KIND_BYTES) {
            line(g, "avrogen_write_bytes_count(w, %s, (int64_t)%s->%s);", v, s->ptr,
                 t->count_c_name);
        } else {
            char *count = local(g, "count");
            scope_open(g);
            line(g, "size_t %s = avrogen_write_array_start(w, %s, (int64_t)%s->%s);", count, v,
                 s->ptr, t->count_c_name);
            write_items(g, t, v, count);
            line(g, "avrogen_write_block_count(w, 0);");
            scope_close(g);
            free(count);
        }
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (t->kind == AVROGEN_KIND_FIXED) {
            line(g, "avrogen_write_raw(w, %s, sizeof %s);", v, v);
        } else if (t->c_len != 0) {
            char *n = xasprintf("%" PRIu64, t->c_len);
            line(g, "avrogen_write_block_count(w, %s);", n);
            write_items(g, t, v, n);
            line(g, "avrogen_write_block_count(w, 0);");
            free(n);
        } else {
            line(g, "avrogen_write_block_count(w, 0);");
        }
        break;
    case MODEL_STORAGE_STRUCT: {
        char *addr = address_of(lv);
        line(g, "%s_avro_write(w, %s);", t->record->c_prefix, addr);
        free(addr);
        break;
    }
    case MODEL_STORAGE_ENUM:
        line(g, "%s_avro_write(w, %s);", t->enumeration->c_prefix, v);
        g->enum_write[enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        char *cond = null_test(t, lv);
        char *target = nullable_target(t, lv);
        struct capture is_null, not_null;
        capture_begin(g, &is_null);
        line(g, "avrogen_write_int(w, %u);", t->null_index);
        capture_end(g, &is_null);
        capture_begin(g, &not_null);
        line(g, "avrogen_write_int(w, %u);", 1 - t->null_index);
        write_value(g, t->items, target, s);
        capture_end(g, &not_null);
        if_else(g, cond, &is_null, &not_null);
        free(target);
        free(cond);
        break;
    }
    case MODEL_STORAGE_TAGGED:
        line(g, "switch ((int64_t)%s->%s) {", s->ptr, t->tag_c_name);
        for (size_t i = 0; i < t->n_branches; i++) {
            line(g, "case %zu:", i);
            g->indent++;
            line(g, "avrogen_write_int(w, %zu);", i);
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            write_value(g, t->branches[i].type, member, s);
            free(member);
            line(g, "break;");
            g->indent--;
        }
        line(g, "default:");
        g->indent++;
        line(g, "avrogen_writer_fail(w, AVROGEN_E_ARG);");
        line(g, "break;");
        g->indent--;
        line(g, "}");
        break;
    }
    free(v);
}

/* ---- encode: runs of fields ------------------------------------------------------- */

/*
 * Consecutive fields whose encodings have a known worst case are written as a
 * run: one capacity check for all of them, then unchecked stores through a
 * local cursor (gencode.h "Runs of fields"). Strings join a run once their
 * length is known, so it is taken first (which also catches a NULL char *).
 * A run whose room is not there falls back to the checked primitives.
 */
struct run_part {
    const struct model_type *t;
    char *lv;   /* the location */
    char *var;  /* local holding its length or enum index, or NULL */
    char *init; /* that local's initializer */
    const char *var_type;
    uint64_t worst; /* bytes it takes at most, besides `var` bytes of a string */
    bool worst_var; /* the worst case adds `var` (a string's length) */
};

/* The leaf types a run can hold. */
static bool runnable_leaf(const struct model_type *t)
{
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
    case MODEL_STORAGE_CSTRING:
    case MODEL_STORAGE_CHAR_ARRAY:
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
    case MODEL_STORAGE_ENUM:
        return true;
    case MODEL_STORAGE_PTR_COUNT:
        return t->kind == AVROGEN_KIND_BYTES;
    case MODEL_STORAGE_C_ARRAY:
        return t->kind == AVROGEN_KIND_FIXED && t->c_len <= 256;
    default:
        return false;
    }
}

static bool runnable(const struct model_type *t)
{
    if (t->storage != MODEL_STORAGE_NULLABLE)
        return runnable_leaf(t);
    if (t->null_via == MODEL_NULL_VIA_SELF)
        return runnable_leaf(t->items);
    /* Behind a pointer, only what needs no length: the worst case is taken
     * before the pointer is tested. */
    return runnable_leaf(t->items) &&
           (t->items->storage == MODEL_STORAGE_SCALAR || t->items->storage == MODEL_STORAGE_ENUM ||
            t->items->storage == MODEL_STORAGE_C_ARRAY);
}

/* The worst case of a leaf, and the local it needs (set in *part). */
static void run_leaf(struct gen *g, const struct model_type *t, const char *lv,
                     const struct site *s, const char *name, struct run_part *part)
{
    char *v = plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        part->worst = t->kind == AVROGEN_KIND_BOOLEAN  ? 1
                      : t->kind == AVROGEN_KIND_INT    ? 5
                      : t->kind == AVROGEN_KIND_FLOAT  ? 4
                      : t->kind == AVROGEN_KIND_DOUBLE ? 8
                                                       : 10; /* long; decimal: 1 + 9 */
        break;
    case MODEL_STORAGE_CSTRING:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_cstring_len(w, %s)", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_chars_len_checked(w, %s, sizeof %s)", v, v);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        part->var = xasprintf("len_%s", name);
        part->init = xasprintf("avrogen_write_count(w, %s, (int64_t)%s->%s)", v, s->ptr,
                               t->count_c_name);
        break;
    case MODEL_STORAGE_ENUM:
        part->var = xasprintf("idx_%s", name);
        part->init = xasprintf("avrogen_writer_index(w, %s_avro_index(%s))",
                               t->enumeration->c_prefix, v);
        g->enum_index[enum_index(g->m, t->enumeration)] = true;
        part->var_type = "int32_t";
        part->worst = varint_size((int64_t)t->enumeration->n_symbols - 1);
        break;
    case MODEL_STORAGE_C_ARRAY: /* fixed */
        part->worst = t->c_len;
        break;
    default: /* views */
        break;
    }
    if (t->storage == MODEL_STORAGE_CSTRING || t->storage == MODEL_STORAGE_CHAR_ARRAY ||
        t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_STR_VIEW ||
        t->storage == MODEL_STORAGE_BYTES_VIEW) {
        part->worst = 10; /* the length */
        part->worst_var = true;
    }
    free(v);
}

static void run_part_init(struct gen *g, const struct model_type *t, const char *lv,
                          const struct site *s, const char *name, struct run_part *part)
{
    memset(part, 0, sizeof *part);
    part->t = t;
    part->lv = xstrdup(lv);
    part->var_type = "size_t";
    if (t->storage != MODEL_STORAGE_NULLABLE) {
        run_leaf(g, t, lv, s, name, part);
        return;
    }
    char *target = nullable_target(t, lv);
    run_leaf(g, t->items, target, s, name, part);
    part->worst += 1; /* the branch index */
    if (part->init != NULL) {
        /* Only a value that is there has a length (or an index). */
        char *cond = null_test(t, lv);
        char *guarded = xasprintf("%s ? 0 : %s", cond, part->init);
        free(part->init);
        part->init = guarded;
        free(cond);
    }
    free(target);
}

static void run_part_free(struct run_part *part)
{
    free(part->lv);
    free(part->var);
    free(part->init);
}

/* The expression of a view's length, or the length local. */
static char *run_len(const struct model_type *t, const char *lv, const struct run_part *part)
{
    if (t->storage == MODEL_STORAGE_STR_VIEW || t->storage == MODEL_STORAGE_BYTES_VIEW)
        return xasprintf("%s.len", lv);
    return xstrdup(part->var);
}

/* Store one leaf at the cursor `p` (put), or write it checked (!put). */
static void run_leaf_write(struct gen *g, const struct model_type *t, const char *lv,
                           const struct run_part *part, bool put)
{
    char *v = plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        if (!put) {
            write_scalar(g, t, v);
        } else if (t->kind == AVROGEN_KIND_BYTES) {
            line(g, "p = avrogen_put_decimal_%s(p, %s);",
                 t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        } else {
            const char *fn = t->kind == AVROGEN_KIND_BOOLEAN  ? "bool"
                             : t->kind == AVROGEN_KIND_FLOAT  ? "float"
                             : t->kind == AVROGEN_KIND_DOUBLE ? "double"
                                                              : "long";
            line(g, "p = avrogen_put_%s(p, %s%s);", fn,
                 t->scalar == MODEL_SCALAR_U64 ? "(int64_t)" : "", v);
        }
        break;
    case MODEL_STORAGE_CSTRING:
    case MODEL_STORAGE_CHAR_ARRAY:
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
    case MODEL_STORAGE_PTR_COUNT: {
        bool view = t->storage == MODEL_STORAGE_STR_VIEW || t->storage == MODEL_STORAGE_BYTES_VIEW;
        char *data = view ? xasprintf("%s.ptr", lv) : xstrdup(v);
        char *len = run_len(t, lv, part);
        if (put)
            line(g, "p = avrogen_put_bytes(p, %s, %s);", data, len);
        else if (t->kind == AVROGEN_KIND_STRING)
            line(g, "avrogen_write_string(w, %s, %s);", data, len);
        else
            line(g, "avrogen_write_bytes(w, %s, %s);", data, len);
        free(len);
        free(data);
        break;
    }
    case MODEL_STORAGE_ENUM:
        if (put)
            line(g, "p = avrogen_put_long(p, %s);", part->var);
        else
            line(g, "avrogen_write_int(w, %s);", part->var);
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (put)
            line(g, "p = avrogen_put_raw(p, %s, sizeof %s);", v, v);
        else
            line(g, "avrogen_write_raw(w, %s, sizeof %s);", v, v);
        break;
    default:
        break;
    }
    free(v);
}

static void run_write(struct gen *g, const struct run_part *part, bool put)
{
    const struct model_type *t = part->t;
    if (t->storage != MODEL_STORAGE_NULLABLE) {
        run_leaf_write(g, t, part->lv, part, put);
        return;
    }
    char *cond = null_test(t, part->lv);
    char *target = nullable_target(t, part->lv);
    struct capture is_null, not_null;
    capture_begin(g, &is_null);
    if (put)
        line(g, "p = avrogen_put_long(p, %u);", t->null_index);
    else
        line(g, "avrogen_write_int(w, %u);", t->null_index);
    capture_end(g, &is_null);
    capture_begin(g, &not_null);
    if (put)
        line(g, "p = avrogen_put_long(p, %u);", 1 - t->null_index);
    else
        line(g, "avrogen_write_int(w, %u);", 1 - t->null_index);
    run_leaf_write(g, t->items, target, part, put);
    capture_end(g, &not_null);
    if_else(g, cond, &is_null, &not_null);
    free(target);
    free(cond);
}

/* Write the run parts[0, n): one capacity check, else the checked primitives. */
static void emit_run(struct gen *g, struct run_part *parts, size_t n)
{
    uint64_t worst = 0;
    struct textbuf need = TEXTBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (parts[i].init != NULL)
            line(g, "%s %s = %s;", parts[i].var_type, parts[i].var, parts[i].init);
        worst += parts[i].worst;
    }
    textbuf_printf(&need, "%" PRIu64, worst);
    for (size_t i = 0; i < n; i++) {
        if (!parts[i].worst_var)
            continue;
        const struct model_type *leaf =
                parts[i].t->storage == MODEL_STORAGE_NULLABLE ? parts[i].t->items : parts[i].t;
        char *target = parts[i].t->storage == MODEL_STORAGE_NULLABLE &&
                                       parts[i].t->null_via == MODEL_NULL_VIA_PTR
                               ? nullable_target(parts[i].t, parts[i].lv)
                               : xstrdup(parts[i].lv);
        char *len = run_len(leaf, target, &parts[i]);
        textbuf_printf(&need, " + %s", len);
        free(len);
        free(target);
    }
    struct capture fast, slow;
    capture_begin(g, &fast);
    line(g, "uint8_t *p = w->p;");
    for (size_t i = 0; i < n; i++)
        run_write(g, &parts[i], true);
    line(g, "w->p = p;");
    capture_end(g, &fast);
    capture_begin(g, &slow);
    for (size_t i = 0; i < n; i++)
        run_write(g, &parts[i], false);
    capture_end(g, &slow);
    char *cond = xasprintf("avrogen_writer_room(w, %s)", need.data);
    if_else(g, cond, &fast, &slow);
    free(cond);
    textbuf_free(&need);
}

/*
 * Write the members of a struct (a record's fields, a map entry's key and
 * value): runs where two or more fields in a row allow, one write per field
 * elsewhere. `names` are the members' C names (for the locals of a run).
 */
static void write_members(struct gen *g, const struct model_type *const *types,
                          const char *const *lvs, const char *const *names, size_t n,
                          const struct site *s)
{
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && runnable(types[end]))
            end++;
        if (end - i >= 2) {
            struct run_part *parts = xcalloc(end - i, sizeof *parts);
            for (size_t k = i; k < end; k++) {
                char *name = local(g, names[k]);
                run_part_init(g, types[k], lvs[k], s, name, &parts[k - i]);
                free(name);
            }
            emit_run(g, parts, end - i);
            for (size_t k = i; k < end; k++)
                run_part_free(&parts[k - i]);
            free(parts);
            i = end;
        } else {
            write_value(g, types[i], lvs[i], s);
            i++;
        }
    }
}

/* ---- size ------------------------------------------------------------------- */

/*
 * Emit `n += ...;` for the parts of t's size that depend on the value and
 * return the part that does not, for the caller to fold into a constant.
 */
static uint64_t size_value(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s);

/* Add the constant c inside the current captured scope. */
static void size_add(struct gen *g, uint64_t c)
{
    if (c != 0)
        line(g, "n += %" PRIu64 ";", c);
}

/* Items [0, count) of `arr`; returns the constant size of one item. The loop
 * is emitted only when items differ in size. */
static uint64_t size_items(struct gen *g, const struct model_type *t, const char *arr,
                           const char *count)
{
    uint64_t c = 0;
    char *i = loop_index(g);
    char *e = local(g, "e");
    struct capture body;
    capture_begin(g, &body);
    g->depth++;
    if (t->kind == AVROGEN_KIND_MAP) {
        char *entry_type = unqualified(t->entry_c_type);
        char *decl = pointer_decl(entry_type, e);
        struct capture parts;
        capture_begin(g, &parts);
        g->indent--;
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        c = size_value(g, t->map_key, key, &es);
        c += size_value(g, t->items, value, &es);
        g->indent++;
        capture_end(g, &parts);
        if (parts.text.len != 0)
            line(g, "const %s = &%s[%s];", decl, arr, i);
        put_body(g, &parts.text);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
    } else {
        char *item = xasprintf("%s[%s]", arr, i);
        c = size_value(g, t->items, item, NULL);
        free(item);
    }
    g->depth--;
    capture_end(g, &body);
    if (body.text.len != 0) {
        char *head = xasprintf("for (size_t %s = 0; %s < %s; %s++)", i, i, count, i);
        block(g, head, &body);
        free(head);
    } else {
        textbuf_free(&body.text);
    }
    free(e);
    free(i);
    return c;
}

static uint64_t size_value(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    uint64_t c = 0, fixed;
    char *v = plain(lv);
    if (fixed_size(t, &fixed)) {
        free(v);
        return fixed;
    }
    switch (t->storage) {
    case MODEL_STORAGE_SCALAR:
        if (t->kind == AVROGEN_KIND_BYTES)
            line(g, "n += avrogen_size_decimal_%s(%s);",
                 t->scalar == MODEL_SCALAR_U64 ? "uint64" : "int64", v);
        else if (t->scalar == MODEL_SCALAR_U64)
            line(g, "n += avrogen_size_long((int64_t)%s);", v);
        else
            line(g, "n += avrogen_size_long(%s);", v);
        break;
    case MODEL_STORAGE_CSTRING:
        line(g, "n += avrogen_size_cstring(%s);", v);
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        line(g, "n += avrogen_size_chars(%s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
        line(g, "n += avrogen_size_bytes(%s.len);", lv);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        if (t->kind == AVROGEN_KIND_BYTES) {
            line(g, "n += avrogen_size_bytes(avrogen_item_count(%s, (int64_t)%s->%s));", v, s->ptr,
                 t->count_c_name);
        } else {
            char *count = local(g, "count");
            scope_open(g);
            line(g, "size_t %s = avrogen_item_count(%s, (int64_t)%s->%s);", count, v, s->ptr,
                 t->count_c_name);
            struct capture loop;
            capture_begin(g, &loop);
            g->indent--;
            uint64_t item = size_items(g, t, v, count);
            g->indent++;
            capture_end(g, &loop);
            if (item != 0)
                line(g, "n += avrogen_size_array_frame(%s) + %s * %" PRIu64 ";", count, count,
                     item);
            else
                line(g, "n += avrogen_size_array_frame(%s);", count);
            put_body(g, &loop.text);
            scope_close(g);
            free(count);
        }
        break;
    case MODEL_STORAGE_C_ARRAY: {
        /* An array of items whose sizes vary (fixed ones were folded above). */
        char *n = xasprintf("%" PRIu64, t->c_len);
        uint64_t item = size_items(g, t, v, n);
        c = (t->c_len != 0 ? varint_size((int64_t)t->c_len) : 0) + t->c_len * item + 1;
        free(n);
        break;
    }
    case MODEL_STORAGE_STRUCT: {
        char *addr = address_of(lv);
        line(g, "n += %s_avro_measure(%s);", t->record->c_prefix, addr);
        free(addr);
        break;
    }
    case MODEL_STORAGE_ENUM:
        line(g, "n += avrogen_size_long(%s_avro_index(%s));", t->enumeration->c_prefix, v);
        g->enum_index[enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        /* the branch index: 0 or 1, one byte */
        c = 1;
        char *cond = null_test(t, lv);
        char *target = nullable_target(t, lv);
        struct capture body;
        capture_begin(g, &body);
        size_add(g, size_value(g, t->items, target, s));
        capture_end(g, &body);
        char *not_null = xasprintf("!(%s)", cond);
        if (strstr(cond, " == NULL") != NULL) {
            free(not_null);
            not_null = xstrdup(cond);
            memcpy(strstr(not_null, " == NULL"), " != NULL", 8);
        }
        if (body.text.len != 0)
            if_else(g, not_null, &body, NULL);
        else
            textbuf_free(&body.text);
        free(not_null);
        free(target);
        free(cond);
        break;
    }
    case MODEL_STORAGE_TAGGED: {
        struct capture cases;
        capture_begin(g, &cases);
        g->indent--;
        for (size_t i = 0; i < t->n_branches; i++) {
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            struct capture body;
            capture_begin(g, &body);
            size_add(g, varint_size((int64_t)i) + size_value(g, t->branches[i].type, member, s));
            capture_end(g, &body);
            free(member);
            if (body.text.len == 0) {
                textbuf_free(&body.text);
                continue;
            }
            line(g, "case %zu:", i);
            put_body(g, &body.text);
            g->indent++;
            line(g, "break;");
            g->indent--;
        }
        g->indent++;
        capture_end(g, &cases);
        if (cases.text.len != 0) {
            line(g, "switch ((int64_t)%s->%s) {", s->ptr, t->tag_c_name);
            put_body(g, &cases.text);
            line(g, "default:");
            g->indent++;
            line(g, "break;");
            g->indent--;
            line(g, "}");
        } else {
            textbuf_free(&cases.text);
        }
        break;
    }
    default:
        break;
    }
    free(v);
    return c;
}

/* ---- decode ------------------------------------------------------------------ */

static void read_value(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull);

/* Read `block` items into arr[first, first + block). */
static void read_items(struct gen *g, const struct model_type *t, const char *arr,
                       const char *first, const char *blk)
{
    const struct model_type *it = t->items;
    const char *bulk = t->kind == AVROGEN_KIND_ARRAY ? bulk_suffix(it) : NULL;
    if (bulk != NULL) {
        line(g, "avrogen_read_%s(r, &%s[%s], %s);", bulk, arr, first, blk);
        return;
    }
    char *i = loop_index(g);
    /* The loop head tests the sticky error: a hostile block count cannot spin
     * through a body that does nothing. */
    char *head = xasprintf("for (size_t %s = %s; %s < %s + %s && r->err == AVROGEN_OK; %s++)", i,
                           first, i, first, blk, i);
    struct capture body;
    capture_begin(g, &body);
    char *e = local(g, "e");
    g->depth++;
    if (t->kind == AVROGEN_KIND_MAP) {
        char *entry_type = unqualified(t->entry_c_type);
        char *decl = pointer_decl(entry_type, e);
        line(g, "%s = &%s[%s];", decl, arr, i);
        struct site es = {e, NULL};
        char *key = xasprintf("%s->key", e), *value = xasprintf("%s->value", e);
        read_value(g, t->map_key, key, &es, false);
        read_value(g, it, value, &es, false);
        free(key);
        free(value);
        free(decl);
        free(entry_type);
    } else {
        char *item = xasprintf("%s[%s]", arr, i);
        read_value(g, it, item, NULL, false);
        free(item);
    }
    g->depth--;
    capture_end(g, &body);
    block(g, head, &body);
    free(head);
    free(e);
    free(i);
}

/* Store decoded count `n` (size_t) into the count member next to t. */
static void store_count(struct gen *g, const struct model_type *t, const struct site *s,
                        const char *n)
{
    char *ct = sibling_c_type(s, t->count_c_name, t->count_scalar);
    const char *max = int_max_macro(t->count_scalar);
    if (max != NULL)
        line(g, "%s->%s = (%s)avrogen_read_count(r, %s, %s);", s->ptr, t->count_c_name, ct, n, max);
    else if (strcmp(ct, "size_t") == 0)
        line(g, "%s->%s = %s;", s->ptr, t->count_c_name, n);
    else
        line(g, "%s->%s = (%s)%s;", s->ptr, t->count_c_name, ct, n);
    free(ct);
}

static void read_scalar(struct gen *g, const struct model_type *t, const char *v)
{
    const char *fn = NULL;
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        fn = "avrogen_read_bool(r)";
        break;
    case AVROGEN_KIND_INT:
        switch (t->scalar) {
        case MODEL_SCALAR_I8:
            fn = "avrogen_read_int8(r)";
            break;
        case MODEL_SCALAR_I16:
            fn = "avrogen_read_int16(r)";
            break;
        case MODEL_SCALAR_U8:
            fn = "avrogen_read_uint8(r)";
            break;
        case MODEL_SCALAR_U16:
            fn = "avrogen_read_uint16(r)";
            break;
        default:
            fn = "avrogen_read_int(r)";
            break;
        }
        break;
    case AVROGEN_KIND_LONG:
        fn = t->scalar == MODEL_SCALAR_U32   ? "avrogen_read_uint32(r)"
             : t->scalar == MODEL_SCALAR_U64 ? "(uint64_t)avrogen_read_long(r)"
                                             : "avrogen_read_long(r)";
        break;
    case AVROGEN_KIND_FLOAT:
        fn = "avrogen_read_float(r)";
        break;
    case AVROGEN_KIND_DOUBLE:
        fn = "avrogen_read_double(r)";
        break;
    case AVROGEN_KIND_BYTES: /* decimal */
        fn = t->scalar == MODEL_SCALAR_U64 ? "avrogen_read_decimal_uint64(r)"
                                           : "avrogen_read_decimal_int64(r)";
        break;
    default:
        return;
    }
    line(g, "%s = %s;", v, fn);
}

static void read_array(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull)
{
    char *v = plain(lv);
    bool is_map = t->kind == AVROGEN_KIND_MAP;
    char *elem = is_map ? unqualified(t->entry_c_type) : value_c_type(t->items);
    char *items = local(g, "items"), *n = local(g, "n"), *cap = local(g, "cap"),
         *blk = local(g, "b");
    char *decl = pointer_decl(elem, items);
    char *cast = pointer_cast(elem);
    uint64_t min = is_map ? 1 + min_size(t->items) : min_size(t->items);
    scope_open(g);
    line(g, "%s = NULL;", decl);
    line(g, "size_t %s = 0, %s = 0, %s;", n, cap, blk);
    line(g, "while ((%s = avrogen_read_block_count(r)) != 0) {", blk);
    g->indent++;
    line(g, "%s = %savrogen_read_grow(r, a, %s, %s, &%s, %s, sizeof *%s, %" PRIu64 ");", items,
         cast, items, n, cap, blk, items, min);
    line(g, "if (%s == NULL)", items);
    g->indent++;
    line(g, "break;");
    g->indent--;
    read_items(g, t, items, n, blk);
    line(g, "%s += %s;", n, blk);
    g->indent--;
    line(g, "}");
    if (nonnull) {
        /* An empty array is not null: it needs a pointer all the same. */
        line(g, "if (%s == NULL && r->err == AVROGEN_OK)", items);
        g->indent++;
        line(g, "%s = %savrogen_reader_alloc(r, a, 0);", items, cast);
        g->indent--;
    }
    line(g, "%s = %s;", v, items);
    store_count(g, t, s, n);
    g->used_a = true;
    free(cast);
    free(decl);
    free(blk);
    free(cap);
    free(n);
    free(items);
    free(elem);
    scope_close(g);
    free(v);
}

static void read_c_array(struct gen *g, const struct model_type *t, const char *lv)
{
    char *n = local(g, "n"), *blk = local(g, "b");
    scope_open(g);
    line(g, "size_t %s = 0, %s;", n, blk);
    line(g, "while ((%s = avrogen_read_exact_block(r, %s, %" PRIu64 ")) != 0) {", blk, n, t->c_len);
    g->indent++;
    read_items(g, t, lv, n, blk);
    line(g, "%s += %s;", n, blk);
    g->indent--;
    line(g, "}");
    scope_close(g);
    free(blk);
    free(n);
}

/* Set nullable location lv (null via its own state) to null. */
static void read_null_self(struct gen *g, const struct model_type *t, const char *lv,
                           const struct site *s)
{
    switch (t->items->storage) {
    case MODEL_STORAGE_STR_VIEW:
    case MODEL_STORAGE_BYTES_VIEW:
        line(g, "%s.ptr = NULL;", lv);
        line(g, "%s.len = 0;", lv);
        break;
    case MODEL_STORAGE_PTR_COUNT: {
        char *v = plain(lv);
        line(g, "%s = NULL;", v);
        line(g, "%s->%s = 0;", s->ptr, t->items->count_c_name);
        free(v);
        break;
    }
    default: {
        char *v = plain(lv);
        line(g, "%s = NULL;", v);
        free(v);
        break;
    }
    }
}

static void read_value(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s, bool nonnull)
{
    char *v = plain(lv);
    switch (t->storage) {
    case MODEL_STORAGE_NONE:
        break;
    case MODEL_STORAGE_SCALAR:
        read_scalar(g, t, v);
        break;
    case MODEL_STORAGE_CSTRING:
        line(g, "%s = avrogen_read_cstring(r, a);", v);
        g->used_a = true;
        break;
    case MODEL_STORAGE_CHAR_ARRAY:
        line(g, "avrogen_read_chars(r, %s, sizeof %s);", v, v);
        break;
    case MODEL_STORAGE_STR_VIEW:
        line(g, "%s = avrogen_read_string(r);", v);
        break;
    case MODEL_STORAGE_BYTES_VIEW:
        line(g, "%s = avrogen_read_bytes(r);", v);
        break;
    case MODEL_STORAGE_PTR_COUNT:
        if (t->kind == AVROGEN_KIND_BYTES) {
            char *len = local(g, "len");
            scope_open(g);
            char *ct = unqualified(t->c_type);
            line(g, "size_t %s;", len);
            line(g, "%s = (%s)avrogen_read_bytes_copy(r, a, &%s);", v, ct, len);
            store_count(g, t, s, len);
            g->used_a = true;
            scope_close(g);
            free(ct);
            free(len);
        } else {
            read_array(g, t, lv, s, nonnull);
        }
        break;
    case MODEL_STORAGE_C_ARRAY:
        if (t->kind == AVROGEN_KIND_FIXED)
            line(g, "avrogen_read_fixed(r, %s, sizeof %s);", v, v);
        else
            read_c_array(g, t, lv);
        break;
    case MODEL_STORAGE_STRUCT: {
        char *addr = address_of(lv);
        line(g, "%s_avro_read(r, %s, a);", t->record->c_prefix, addr);
        g->used_a = true;
        free(addr);
        break;
    }
    case MODEL_STORAGE_ENUM:
        line(g, "%s = %s_avro_read(r);", v, t->enumeration->c_prefix);
        g->enum_read[enum_index(g->m, t->enumeration)] = true;
        break;
    case MODEL_STORAGE_NULLABLE: {
        char *cond = xasprintf("avrogen_read_branch(r, 2) == %u", 1 - t->null_index);
        struct capture value, null;
        capture_begin(g, &value);
        if (t->null_via == MODEL_NULL_VIA_PTR) {
            char *type = value_c_type(t->items);
            char *p = local(g, "p");
            char *decl = pointer_decl(type, p);
            char *cast = pointer_cast(type);
            char *target = xasprintf("(*%s)", p);
            line(g, "%s = %savrogen_reader_alloc(r, a, sizeof *%s);", decl, cast, p);
            struct capture body;
            capture_begin(g, &body);
            g->depth++;
            read_value(g, t->items, target, s, false);
            g->depth--;
            capture_end(g, &body);
            char *test = xasprintf("%s != NULL", p);
            if_else(g, test, &body, NULL);
            line(g, "%s = %s;", v, p);
            g->used_a = true;
            free(test);
            free(target);
            free(cast);
            free(decl);
            free(p);
            free(type);
        } else {
            read_value(g, t->items, lv, s, true);
        }
        capture_end(g, &value);
        capture_begin(g, &null);
        if (t->null_via == MODEL_NULL_VIA_PTR)
            line(g, "%s = NULL;", v);
        else
            read_null_self(g, t, lv, s);
        capture_end(g, &null);
        if_else(g, cond, &value, &null);
        free(cond);
        break;
    }
    case MODEL_STORAGE_TAGGED: {
        char *tt = sibling_c_type(s, t->tag_c_name, t->tag_scalar);
        line(g, "switch (avrogen_read_branch(r, %zu)) {", t->n_branches);
        for (size_t i = 0; i < t->n_branches; i++) {
            line(g, "case %zu:", i);
            g->indent++;
            line(g, "%s->%s = (%s)%zu;", s->ptr, t->tag_c_name, tt, i);
            char *member = xasprintf("%s.%s", lv, t->branches[i].c_name);
            read_value(g, t->branches[i].type, member, s, false);
            free(member);
            line(g, "break;");
            g->indent--;
        }
        line(g, "default:");
        g->indent++;
        line(g, "break;");
        g->indent--;
        line(g, "}");
        free(tt);
        break;
    }
    }
    free(v);
}

static void read_field(struct gen *g, const struct model_field *f, const struct site *vs)
{
    char *lv = xasprintf("v->%s", f->c_name);
    read_value(g, f->type, lv, vs, false);
    free(lv);
}

/* ---- per-type functions ------------------------------------------------------- */

static void emit_enum_index(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    line(g, "static int32_t %s_avro_index(%s e)", p, ct);
    line(g, "{");
    g->indent++;
    line(g, "switch (e) {");
    for (size_t i = 0; i < e->n_symbols; i++) {
        line(g, "case %s:", e->symbols[i].c_name);
        g->indent++;
        line(g, "return %zu;", i);
        g->indent--;
    }
    line(g, "default:");
    g->indent++;
    line(g, "return -1;");
    g->indent--;
    line(g, "}");
    g->indent--;
    line(g, "}");
    blank(g);
}

static void emit_enum_write(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    line(g, "static void %s_avro_write(avrogen_writer *w, %s e)", p, ct);
    line(g, "{");
    g->indent++;
    line(g, "int32_t i = %s_avro_index(e);", p);
    line(g, "if (i >= 0)");
    line(g, "    avrogen_write_int(w, i);");
    line(g, "else");
    line(g, "    avrogen_writer_fail(w, AVROGEN_E_ARG);");
    g->indent--;
    line(g, "}");
    blank(g);
}

static void emit_enum_read(struct gen *g, const struct model_enum *e, const char *ct)
{
    const char *p = e->c_prefix;
    line(g, "static %s %s_avro_read(avrogen_reader *r)", ct, p);
    line(g, "{");
    g->indent++;
    struct textbuf list = TEXTBUF_INIT;
    for (size_t i = 0; i < e->n_symbols; i++)
        textbuf_printf(&list, "%s%s", i != 0 ? ", " : "", e->symbols[i].c_name);
    char *head = xasprintf("static const %s values[%zu] = {", ct, e->n_symbols);
    if ((size_t)g->indent * 4 + strlen(head) + list.len + 2 <= COLUMNS) {
        line(g, "%s%s};", head, list.data);
    } else {
        /* One per line with its index: the comments keep clang-format from
         * packing them into columns. */
        size_t width = 0;
        for (size_t i = 0; i < e->n_symbols; i++)
            if (strlen(e->symbols[i].c_name) > width)
                width = strlen(e->symbols[i].c_name);
        line(g, "%s", head);
        for (size_t i = 0; i < e->n_symbols; i++)
            line(g, "        %s,%*s/* %zu */", e->symbols[i].c_name,
                 (int)(width + 1 - strlen(e->symbols[i].c_name)), "", i);
        line(g, "};");
    }
    free(head);
    textbuf_free(&list);
    line(g, "return values[avrogen_read_symbol(r, %zu)];", e->n_symbols);
    g->indent--;
    line(g, "}");
    blank(g);
}

static void emit_enum_functions(struct gen *g, size_t index)
{
    const struct model_enum *e = g->m->enums[index];
    bool use_index = g->enum_index[index] || g->enum_write[index];
    const char *ct = e->c_type != NULL ? e->c_type : model_scalar_c_name(e->scalar);
    if (!use_index && !g->enum_read[index])
        return;
    line(g, "/* %s <-> Avro enum %s: symbol i is the i-th enumerator below. */", ct,
         e->name.fullname);
    if (use_index)
        emit_enum_index(g, e, ct);
    if (g->enum_write[index])
        emit_enum_write(g, e, ct);
    if (g->enum_read[index])
        emit_enum_read(g, e, ct);
}

/* Emit `head` then a function body captured in `body`, with (void) casts for
 * the parameters it does not use. */
static void function(struct gen *g, const char *head, struct capture *body,
                     const char *const *unused, size_t n_unused)
{
    line(g, "%s", head);
    line(g, "{");
    g->indent++;
    for (size_t i = 0; i < n_unused; i++)
        if (unused[i] != NULL)
            line(g, "(void)%s;", unused[i]);
    g->indent--;
    put_body(g, &body->text);
    line(g, "}");
    blank(g);
}

static void emit_record_functions(struct gen *g, const struct model_record *rec, bool cyclic)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    struct site vs = {"v", rec};
    struct capture body;
    char *head;

    line(g, "/* %s <-> Avro record %s */", ct, rec->name.fullname);

    /* measure */
    uint64_t c = 0;
    g->used_v = false;
    capture_begin(g, &body);
    struct capture parts;
    capture_begin(g, &parts);
    g->indent--;
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        char *lv = xasprintf("v->%s", f->c_name);
        c += size_value(g, f->type, lv, &vs);
        free(lv);
    }
    g->indent++;
    capture_end(g, &parts);
    if (parts.text.len == 0) {
        line(g, "return %" PRIu64 ";", c);
        textbuf_free(&parts.text);
    } else {
        g->used_v = true;
        line(g, "size_t n = %" PRIu64 ";", c);
        blank(g);
        put_body(g, &parts.text);
        line(g, "return n;");
    }
    capture_end(g, &body);
    head = xasprintf("static size_t %s_avro_measure(const %s *v)", p, ct);
    const char *unused_measure[] = {g->used_v ? NULL : "v"};
    function(g, head, &body, unused_measure, 1);
    free(head);

    /* write */
    capture_begin(g, &body);
    const struct model_type **types = xcalloc(rec->n_fields + 1, sizeof *types);
    const char **names = xcalloc(rec->n_fields + 1, sizeof *names);
    char **lvs = xcalloc(rec->n_fields + 1, sizeof *lvs);
    size_t n = 0;
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        types[n] = f->type;
        names[n] = f->c_name;
        lvs[n++] = xasprintf("v->%s", f->c_name);
    }
    write_members(g, types, (const char *const *)lvs, names, n, &vs);
    bool any = n != 0;
    for (size_t i = 0; i < n; i++)
        free(lvs[i]);
    free(lvs);
    free(names);
    free(types);
    capture_end(g, &body);
    head = xasprintf("static void %s_avro_write(avrogen_writer *w, const %s *v)", p, ct);
    const char *unused_write[] = {any ? NULL : "w", any ? NULL : "v"};
    function(g, head, &body, unused_write, 2);
    free(head);

    /* read */
    g->used_a = false;
    any = false;
    capture_begin(g, &body);
    if (cyclic) {
        /* The type reaches itself: bound the recursion on hostile input. */
        line(g, "if (!avrogen_reader_enter(r))");
        line(g, "    return;");
    }
    for (size_t i = 0; i < rec->n_fields; i++) {
        if (rec->fields[i].role == MODEL_FIELD_SKIP) {
            /* Members that are not serialized stay zeroed, also in storage from the
             * arena (they may be bit-fields, so the whole record is cleared). */
            line(g, "memset((void *)v, 0, sizeof *v);");
            any = true;
            break;
        }
    }
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        if (f->role != MODEL_FIELD_VALUE)
            continue;
        read_field(g, f, &vs);
        any = true;
    }
    if (cyclic)
        line(g, "avrogen_reader_leave(r);");
    capture_end(g, &body);
    head = xasprintf("static void %s_avro_read(avrogen_reader *r, %s *v, avrogen_arena *a)", p, ct);
    const char *unused_read[] = {any || cyclic ? NULL : "r", any ? NULL : "v",
                                 g->used_a ? NULL : "a"};
    function(g, head, &body, unused_read, 3);
    free(head);
}

/* Forward declarations of the static functions of a record that reaches itself. */
static void emit_record_prototypes(struct gen *g, const struct model_record *rec)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    line(g, "static size_t %s_avro_measure(const %s *v);", p, ct);
    line(g, "static void %s_avro_write(avrogen_writer *w, const %s *v);", p, ct);
    line(g, "static void %s_avro_read(avrogen_reader *r, %s *v, avrogen_arena *a);", p, ct);
}

static void emit_public_functions(struct gen *g, const struct model_record *rec)
{
    const char *p = rec->c_prefix, *ct = rec->c_type;
    line(g, "size_t %s_avro_size(const %s *v)", p, ct);
    line(g, "{");
    line(g, "    return %s_avro_measure(v);", p);
    line(g, "}");
    blank(g);
    line(g, "avrogen_status %s_avro_encode(avrogen_writer *w, const %s *v)", p, ct);
    line(g, "{");
    line(g, "    %s_avro_write(w, v);", p);
    line(g, "    return w->err;");
    line(g, "}");
    blank(g);
    line(g, "avrogen_status %s_avro_decode(avrogen_reader *r, %s *v, avrogen_arena *a)", p, ct);
    line(g, "{");
    line(g, "    memset((void *)v, 0, sizeof *v);");
    line(g, "    avrogen_reader_begin_datum(r);");
    line(g, "    %s_avro_read(r, v, a);", p);
    line(g, "    if (r->err != AVROGEN_OK)");
    line(g, "        memset((void *)v, 0, sizeof *v); /* no pointers into a half-decoded datum */");
    line(g, "    return r->err;");
    line(g, "}");
    blank(g);
}

/* ---- string literals ------------------------------------------------------------ */

/* Append s[0, n) escaped for a C string literal. */
static void put_escaped(struct textbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            textbuf_printf(b, "\\%c", ch);
        else if (ch == '\n')
            textbuf_puts(b, "\\n");
        else if (ch == '\t')
            textbuf_puts(b, "\\t");
        else if (ch == '?' && i > 0 && s[i - 1] == '?')
            textbuf_puts(b, "\\?"); /* no trigraphs */
        else if (ch < 0x20 || ch >= 0x7f)
            textbuf_printf(b, "\\%03o", ch); /* octal: at most 3 digits, unlike \x */
        else
            textbuf_putc(b, (char)ch);
    }
}

/* Columns text[i] takes inside a string literal. */
static size_t escaped_width(const char *text, size_t i)
{
    unsigned char ch = (unsigned char)text[i];
    if (ch == '"' || ch == '\\' || ch == '\n' || ch == '\t' ||
        (ch == '?' && i > 0 && text[i - 1] == '?'))
        return 2;
    return ch < 0x20 || ch >= 0x7f ? 4 : 1;
}

/*
 * `decl = <text>;` for a NUL-terminated char array: string literal pieces,
 * one per line of the text (long lines cut at 80 bytes). Text longer than a
 * C11 compiler must accept in one literal becomes a list of character codes.
 */
static void emit_char_array(struct gen *g, const char *decl, const char *text)
{
    size_t len = strlen(text);
    if (len > MAX_STRING_LITERAL) {
        /* Bin-packed (no trailing comma), as clang-format would lay it out. */
        struct textbuf codes = TEXTBUF_INIT;
        for (size_t i = 0; i <= len; i++)
            textbuf_printf(&codes, "%s%d", i != 0 ? ", " : "", (unsigned char)text[i]);
        line(g, "%s = {%s};", decl, codes.data);
        textbuf_free(&codes);
        return;
    }
    /* The pieces: one per line of the text, long lines cut after a comma. */
    size_t n = 0;
    char **pieces = NULL;
    for (size_t i = 0; i < len || (len == 0 && n == 0);) {
        size_t end = i, width = 0;
        while (end < len && text[end] != '\n' && width + escaped_width(text, end) <= 84)
            width += escaped_width(text, end++);
        if (end < len && text[end] == '\n') {
            end++;
        } else if (end < len) {
            size_t comma = end;
            while (comma > i && text[comma - 1] != ',')
                comma--;
            if (comma > i)
                end = comma;
        }
        struct textbuf piece = TEXTBUF_INIT;
        textbuf_putc(&piece, '"');
        put_escaped(&piece, text + i, end - i);
        textbuf_putc(&piece, '"');
        pieces = xappend(pieces, n, sizeof *pieces);
        pieces[n++] = textbuf_take(&piece, NULL);
        i = end;
        if (len == 0)
            break;
    }
    /* clang-format keeps the first piece after `=` when it fits, and aligns the
     * others under it; otherwise every piece goes on its own line. */
    size_t col = (size_t)g->indent * 4 + strlen(decl) + 3;
    bool same_line = true;
    for (size_t i = 0; i < n; i++)
        same_line &= col + strlen(pieces[i]) + (i + 1 == n ? 1 : 0) <= COLUMNS;
    if (!same_line)
        line(g, "%s =", decl);
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 == n ? ";" : "";
        if (same_line && i == 0)
            line(g, "%s = %s%s", decl, pieces[i], end);
        else if (same_line)
            line(g, "%*s%s%s", (int)col, "", pieces[i], end);
        else
            line(g, "        %s%s", pieces[i], end);
        free(pieces[i]);
    }
    free(pieces);
}

/* ---- descriptors ---------------------------------------------------------------- */

/* One location to describe: see avrogen_field_desc in gencode.h. */
struct slot {
    const struct model_type *t;
    const char *name;      /* Avro field name, union member, or NULL */
    const char *container; /* C type of the struct the location is reached from */
    char *path;            /* member designator inside container: "lines[0]", "u.x" */
    bool zero_offset;      /* an array item or pointer target: offset 0 */
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
    struct pending *queue;
    size_t n_queue;
    size_t next;  /* first unprocessed queue entry */
    unsigned sub; /* sub-array counter of the current record */
};

/* A comma-separated list wrapped at COLUMNS, the first line starting with
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
        if (!first && row.len + need > COLUMNS) {
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
    if (width <= COLUMNS) {
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
    if (t->storage == MODEL_STORAGE_STRUCT) {
        const struct model_record *r = t->record;
        if (r->in_main_file)
            return xasprintf("&%s_avro_type", r->c_prefix);
        return xasprintf("&%s.%s_type", g->tables, r->c_prefix);
    }
    if (t->storage == MODEL_STORAGE_ENUM)
        return xasprintf("&%s.%s_enum", g->tables, t->enumeration->c_prefix);
    if (t->kind == AVROGEN_KIND_FIXED && t->fixed != NULL)
        return xasprintf("&%s.fixed%zu", g->tables, fixed_index(g->m, t->fixed));
    return xstrdup("NULL");
}

/* The children of slot s, or 0 when it has none (*out set to a new array). */
static size_t slot_children(const struct slot *s, struct slot **out)
{
    const struct model_type *t = s->t;
    struct slot *c = NULL;
    size_t n = 0;
    if ((t->kind == AVROGEN_KIND_ARRAY) &&
        (t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_C_ARRAY)) {
        n = 1;
        c = xcalloc(1, sizeof *c);
        c[0] = (struct slot){t->items, NULL, s->container, xasprintf("%s[0]", s->path), true};
    } else if (t->kind == AVROGEN_KIND_MAP) {
        n = 2;
        c = xcalloc(2, sizeof *c);
        c[0] = (struct slot){t->map_key, NULL, t->entry_c_type, xstrdup("key"), false};
        c[1] = (struct slot){t->items, NULL, t->entry_c_type, xstrdup("value"), false};
    } else if (t->storage == MODEL_STORAGE_NULLABLE) {
        n = 1;
        c = xcalloc(1, sizeof *c);
        if (t->null_via == MODEL_NULL_VIA_PTR)
            c[0] = (struct slot){t->items, NULL, s->container, xasprintf("%s[0]", s->path), true};
        else
            c[0] = (struct slot){t->items, NULL, s->container, xstrdup(s->path), s->zero_offset};
    } else if (t->storage == MODEL_STORAGE_TAGGED) {
        n = t->n_branches;
        c = xcalloc(n, sizeof *c);
        for (size_t i = 0; i < n; i++)
            c[i] = (struct slot){t->branches[i].type, t->branches[i].c_name, s->container,
                                 xasprintf("%s.%s", s->path, t->branches[i].c_name),
                                 s->zero_offset};
    }
    *out = c;
    return n;
}

/* The initializer of one avrogen_field_desc, appended to tb->init. */
static void slot_init(struct gen *g, struct tables *tb, const struct model_record *rec,
                      const struct slot *s)
{
    const struct model_type *t = s->t;
    char *items[16];
    size_t k = 0;
    char *container = unqualified(s->container);
    items[k++] = s->name != NULL ? xasprintf("\"%s\"", s->name) : xstrdup("NULL");
    items[k++] = s->zero_offset ? xstrdup("0") : xasprintf("offsetof(%s, %s)", container, s->path);
    items[k++] = t->storage == MODEL_STORAGE_NONE
                         ? xstrdup("0")
                         : xasprintf("AVROGEN_SIZEOF_MEMBER(%s, %s)", container, s->path);
    items[k++] = xstrdup(kind_enum_name(t->kind));
    items[k++] = xstrdup(logical_enum_name(t->logical));
    items[k++] = xstrdup(storage_enum_name(t->storage));
    items[k++] = xstrdup(scalar_enum_name(t->storage == MODEL_STORAGE_SCALAR ||
                                                          t->storage == MODEL_STORAGE_ENUM ||
                                                          t->storage == MODEL_STORAGE_PTR_COUNT
                                                  ? t->scalar
                                                  : MODEL_SCALAR_NONE));
    bool has_len = t->storage == MODEL_STORAGE_C_ARRAY || t->storage == MODEL_STORAGE_CHAR_ARRAY;
    items[k++] = has_len ? xasprintf("%" PRIu64, t->c_len) : xstrdup("0");
    bool has_elem = t->storage == MODEL_STORAGE_PTR_COUNT || t->storage == MODEL_STORAGE_C_ARRAY;
    items[k++] = has_elem ? xasprintf("AVROGEN_SIZEOF_MEMBER(%s, %s[0])", container, s->path)
                          : xstrdup("0");
    const char *aux = t->storage == MODEL_STORAGE_PTR_COUNT ? t->count_c_name
                      : t->storage == MODEL_STORAGE_TAGGED  ? t->tag_c_name
                                                            : NULL;
    items[k++] = aux != NULL ? xasprintf("offsetof(%s, %s)", container, aux) : xstrdup("0");
    items[k++] =
            xstrdup(scalar_enum_name(t->storage == MODEL_STORAGE_PTR_COUNT ? t->count_scalar
                                     : t->storage == MODEL_STORAGE_TAGGED  ? t->tag_scalar
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
    wrapped(&tb->init, 16, "{", (const char *const *)items, k, "},");
    for (size_t i = 0; i < k; i++)
        free(items[i]);
    free(container);
}

static void free_slots(struct slot *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i].path);
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
            struct slot s = {f->type, f->avro_name, rec->c_type, f->c_name, false};
            slot_init(g, tb, rec, &s);
        }
        textbuf_puts(&tb->init, "        },\n");
    }
    drain_queue(g, tb, rec);
}

/* The initializer list of an avrogen_type for a record. */
static void record_type_items(const struct gen *g, const struct model_record *rec, char **items)
{
    size_t k = 0;
    items[k++] = xstrdup("AVROGEN_KIND_RECORD");
    items[k++] = xasprintf("\"%s\"", rec->name.fullname);
    bool own = rec->in_main_file;
    bool canonical = own && rec->canonical != NULL;
    char *up = upper_ident(rec->c_prefix);
    items[k++] = own ? xasprintf("%s_avro_schema", rec->c_prefix) : xstrdup("NULL");
    items[k++] = canonical ? xasprintf("%s_avro_canonical", rec->c_prefix) : xstrdup("NULL");
    items[k++] = canonical ? xasprintf("%s_AVRO_FINGERPRINT", up) : xstrdup("0");
    free(up);
    items[k++] = xasprintf("sizeof(%s)", rec->c_type);
    items[k++] = rec->n_avro_fields != 0 ? xasprintf("%s.%s_fields", g->tables, rec->c_prefix)
                                         : xstrdup("NULL");
    items[k++] = xasprintf("%zu", rec->n_avro_fields);
    items[k++] = xstrdup("NULL");
    items[k++] = xstrdup("NULL");
    items[k++] = xstrdup("0");
}

#define TYPE_ITEMS 11

static void emit_descriptors(struct gen *g)
{
    const struct model *m = g->m;
    struct tables tb = {TEXTBUF_INIT, TEXTBUF_INIT, NULL, 0, 0, 0};
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
        const char *it[] = {
                "AVROGEN_KIND_ENUM", name, "NULL", "NULL", "0", size, "NULL", "0", syms, vals, n};
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
                            "0",
                            size,
                            "NULL",
                            "0",
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

    if (tb.members.len != 0) {
        line(g, "/*");
        line(g, " * Descriptor tables. They live in one object so that entries can point at");
        line(g, " * each other in any order, which C and C++ both allow within an initializer.");
        line(g, " */");
        line(g, "static const struct {");
        textbuf_append(g->tb, tb.members.data, tb.members.len);
        line(g, "} %s = {", g->tables);
        textbuf_append(g->tb, tb.init.data, tb.init.len);
        line(g, "};");
        blank(g);
    }
    textbuf_free(&tb.members);
    textbuf_free(&tb.init);
    free(tb.queue);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!g->need_record[i] || !rec->in_main_file)
            continue;
        if (rec->canonical != NULL) {
            char *decl = xasprintf("static const char %s_avro_canonical[]", rec->c_prefix);
            emit_char_array(g, decl, rec->canonical);
            free(decl);
            blank(g);
        }
        char *open = xasprintf("const avrogen_type %s_avro_type = {", rec->c_prefix);
        record_type_items(g, rec, items);
        line(g, "%s", open);
        for (size_t k = 0; k < TYPE_ITEMS; k++)
            line(g, "        %s,", items[k]);
        line(g, "};");
        blank(g);
        for (size_t k = 0; k < TYPE_ITEMS; k++)
            free(items[k]);
        free(open);
    }
}

/* ---- reachability -------------------------------------------------------------- */

static void mark_type(struct gen *g, const struct model_type *t);

static void mark_record(struct gen *g, const struct model_record *r)
{
    size_t i = record_index(g->m, r);
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
        size_t i = enum_index(g->m, t->enumeration);
        if (i < g->m->n_enums)
            g->need_enum[i] = true;
    }
    if (t->fixed != NULL) {
        size_t i = fixed_index(g->m, t->fixed);
        if (i < g->m->n_fixeds)
            g->need_fixed[i] = true;
    }
    mark_type(g, t->items);
    mark_type(g, t->map_key);
    for (size_t i = 0; i < t->n_branches; i++)
        mark_type(g, t->branches[i].type);
}

/* Records directly reachable from t's value, not through other records. */
static bool type_reaches(const struct model *m, const struct model_type *t,
                         const struct model_record *target, bool *seen);

static bool record_reaches(const struct model *m, const struct model_record *r,
                           const struct model_record *target, bool *seen)
{
    size_t i = record_index(m, r);
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

/* ---- the two files ---------------------------------------------------------------- */

static void emit_header(struct gen *g, const char *stem)
{
    const struct model *m = g->m;
    char *up = upper_ident(stem);
    char *guard = xasprintf("%s%s_AVRO_H_", isdigit((unsigned char)up[0]) ? "AVRO_" : "", up);
    line(g, "/* Generated by avrogen %s from %s. Do not edit. */", g->opt->version,
         g->opt->header_path);
    line(g, "#ifndef %s", guard);
    line(g, "#define %s", guard);
    blank(g);
    line(g, "#include \"avrogen/gencode.h\"");
    blank(g);
    line(g, "#include \"%s\"", g->opt->header_include);
    blank(g);
    line(g, "#if AVROGEN_GENCODE_ABI != 1");
    line(g, "#error \"%s.avro.h is stale: rerun avrogen\"", stem);
    line(g, "#endif");
    blank(g);
    line(g, "#ifdef __cplusplus");
    line(g, "extern \"C\" {");
    line(g, "#endif");
    blank(g);
    line(g, "/*");
    line(g, " * Per record, prefix P:");
    line(g, " *   P_avro_schema       its .avsc text, NUL-terminated");
    line(g, " *   P_AVRO_FINGERPRINT  CRC-64-AVRO of its Parsing Canonical Form");
    line(g, " *   P_avro_type         descriptor: schema, fingerprint, where each field lives");
    line(g, " *   P_avro_size         the exact number of bytes P_avro_encode writes");
    line(g, " *   P_avro_encode       append the binary encoding to w, returns w->err; never");
    line(g, " *                       allocates (a growable writer may grow); a NULL string or");
    line(g, " *                       an out-of-range enum, tag or count is AVROGEN_E_ARG");
    line(g, " *   P_avro_decode       one datum into *v (zeroed first, and again on error);");
    line(g, " *                       arrays, maps and char * strings come from the arena,");
    line(g, " *                       avrogen_str / avrogen_bytes point into r's input");
    line(g, " */");
    blank(g);
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file)
            continue;
        const char *p = rec->c_prefix, *ct = rec->c_type;
        char *pu = upper_ident(p);
        line(g, "/* %s: Avro record %s */", ct, rec->name.fullname);
        line(g, "extern const char %s_avro_schema[];", p);
        line(g, "#define %s_AVRO_FINGERPRINT UINT64_C(0x%016" PRIx64 ")", pu, rec->fingerprint);
        line(g, "extern const avrogen_type %s_avro_type;", p);
        line(g, "size_t %s_avro_size(const %s *v);", p, ct);
        line(g, "AVROGEN_NODISCARD avrogen_status %s_avro_encode(avrogen_writer *w, const %s *v);",
             p, ct);
        line(g,
             "AVROGEN_NODISCARD avrogen_status %s_avro_decode(avrogen_reader *r, %s *v, "
             "avrogen_arena *a);",
             p, ct);
        blank(g);
        free(pu);
    }
    line(g, "#ifdef __cplusplus");
    line(g, "}");
    line(g, "#endif");
    blank(g);
    line(g, "#endif /* %s */", guard);
    free(guard);
    free(up);
}

static void emit_layout_checks(struct gen *g, const struct model_record *rec)
{
    const char *ct = rec->c_type;
    line(g, "AVROGEN_STATIC_ASSERT(sizeof(%s) == %" PRIu64 ", \"%s changed size: rerun avrogen\");",
         ct, rec->c_size, ct);
    for (size_t i = 0; i < rec->n_fields; i++) {
        const struct model_field *f = &rec->fields[i];
        /* Skipped members are never touched by name (and may be bit-fields). */
        if (f->role == MODEL_FIELD_SKIP)
            continue;
        line(g, "AVROGEN_LAYOUT(%s, %s, %" PRIu64 ", %" PRIu64 ");", ct, f->c_name, f->c_offset,
             f->c_size);
        /* The same bytes could hold another element type: lock that too. */
        if (f->role == MODEL_FIELD_VALUE && f->type->storage == MODEL_STORAGE_C_ARRAY &&
            f->type->c_len != 0)
            line(g, "AVROGEN_LAYOUT(%s, %s[0], %" PRIu64 ", %" PRIu64 ");", ct, f->c_name,
                 f->c_offset, f->c_size / f->type->c_len);
    }
}

static void emit_source(struct gen *g, const char *stem)
{
    const struct model *m = g->m;
    line(g, "/* Generated by avrogen %s from %s. Do not edit. */", g->opt->version,
         g->opt->header_path);
    line(g, "#include \"%s.avro.h\"", stem);
    blank(g);
    bool any = false;
    for (size_t i = 0; i < m->n_records; i++)
        any |= g->need_record[i];
    if (!any)
        return;

    line(g, "/* The layout the generator saw; a mismatch means this file is stale. */");
    for (size_t i = 0; i < m->n_records; i++)
        if (g->need_record[i])
            emit_layout_checks(g, m->records[i]);
    blank(g);

    /* Records first, into a buffer: they decide which enum helpers are used,
     * and those must come before them. */
    struct textbuf *out = g->tb, records = TEXTBUF_INIT;
    g->tb = &records;
    bool protos = false;
    for (size_t i = 0; i < m->n_records; i++) {
        if (g->need_record[i] && g->cyclic[i]) {
            if (!protos)
                line(g, "/* Records that reach themselves call each other before definition. */");
            emit_record_prototypes(g, m->records[i]);
            protos = true;
        }
    }
    if (protos)
        blank(g);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!g->need_record[i])
            continue;
        emit_record_functions(g, rec, g->cyclic[i]);
        if (rec->in_main_file)
            emit_public_functions(g, rec);
    }
    g->tb = out;
    for (size_t i = 0; i < m->n_enums; i++)
        if (g->need_enum[i])
            emit_enum_functions(g, i);
    put_body(g, &records);

    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file)
            continue;
        char *decl = xasprintf("const char %s_avro_schema[]", rec->c_prefix);
        emit_char_array(g, decl, rec->avsc != NULL ? rec->avsc : "");
        free(decl);
        blank(g);
    }
    emit_descriptors(g);
}

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
    (void)d;

    g.m = m;
    g.opt = opt;
    g.need_record = xcalloc(m->n_records + 1, sizeof *g.need_record);
    g.cyclic = xcalloc(m->n_records + 1, sizeof *g.cyclic);
    g.need_enum = xcalloc(m->n_enums + 1, sizeof *g.need_enum);
    g.need_fixed = xcalloc(m->n_fixeds + 1, sizeof *g.need_fixed);
    g.enum_index = xcalloc(m->n_enums + 1, sizeof *g.enum_index);
    g.enum_write = xcalloc(m->n_enums + 1, sizeof *g.enum_write);
    g.enum_read = xcalloc(m->n_enums + 1, sizeof *g.enum_read);
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i]->in_main_file)
            mark_record(&g, m->records[i]);
    bool *seen = xcalloc(m->n_records + 1, sizeof *seen);
    for (size_t i = 0; i < m->n_records; i++) {
        if (!g.need_record[i])
            continue;
        memset(seen, 0, (m->n_records + 1) * sizeof *seen);
        const struct model_record *r = m->records[i];
        for (size_t f = 0; f < r->n_fields && !g.cyclic[i]; f++)
            if (r->fields[f].role == MODEL_FIELD_VALUE)
                g.cyclic[i] = type_reaches(m, r->fields[f].type, r, seen);
    }
    free(seen);

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
    free(tables);
    free(g.need_record);
    free(g.cyclic);
    free(g.need_enum);
    free(g.need_fixed);
    free(g.enum_index);
    free(g.enum_write);
    free(g.enum_read);
    return rc;
}
