/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C code emitter's output layer: lines broken and blocks braced the way
 * clang-format (STYLE.md §9) would leave them, unique local names, C string
 * literals, and the spelling of C types and lvalues. It knows nothing of
 * Avro; emit_c_code.c and emit_c_desc.c say what to write.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>

#include "emit_c_internal.h"
#include "genutil.h"

/* Columns of one piece of a string literal's text: indented by 8, quoted and
 * followed by `;`, it stays within EC_COLUMNS. */
#define PIECE_WIDTH (EC_COLUMNS - 16)

/* ---- C spellings --------------------------------------------------------- */

/* s as an upper-case C identifier: "order-v2" -> "ORDER_V2". */
char *ec_upper_ident(const char *s)
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
char *ec_unqualified(const char *c_type)
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
char *ec_value_c_type(const struct model_type *t)
{
    if (t->holder_c_type != NULL)
        return ec_unqualified(t->holder_c_type);
    if (t->storage == MODEL_STORAGE_STRUCT)
        return xstrdup(t->record->c_type);
    if (t->storage == MODEL_STORAGE_ENUM && t->enumeration->c_type != NULL)
        return xstrdup(t->enumeration->c_type);
    return ec_unqualified(t->c_type);
}

/* Declare `name` as a pointer to c_type: "struct line *p", "char **p",
 * "int64_t (*p)[4]"; an empty name gives the abstract type for casts. */
char *ec_pointer_decl(const char *c_type, const char *name)
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

char *ec_pointer_cast(const char *c_type)
{
    char *decl = ec_pointer_decl(c_type, "");
    char *cast = xasprintf("(%s)", decl);
    free(decl);
    return cast;
}

/* The address of lvalue lv: "(*p)" -> "p", "v->x" -> "&v->x". */
char *ec_address_of(const char *lv)
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
char *ec_plain(const char *lv)
{
    char *addr = ec_address_of(lv);
    char *r = addr[0] == '&' ? xstrdup(lv) : xasprintf("*%s", addr);
    free(addr);
    return r;
}

const char *ec_int_max_macro(enum model_scalar s)
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

/* s as the contents of a C string literal. */
char *ec_int64_literal(int64_t v)
{
    return v == INT64_MIN ? xstrdup("INT64_MIN") : xasprintf("%" PRId64, v);
}

char *ec_c_escaped(const char *s)
{
    struct textbuf b = TEXTBUF_INIT;
    for (size_t i = 0; s[i] != '\0'; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            textbuf_printf(&b, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            textbuf_printf(&b, "\\%03o", ch);
        else if (ch == '?' && i > 0 && s[i - 1] == '?')
            textbuf_puts(&b, "\\?");
        else
            textbuf_putc(&b, (char)ch);
    }
    char *r = textbuf_take(&b, NULL);
    return r != NULL ? r : xstrdup("");
}

/* ---- lines and blocks ---------------------------------------------------- */

/*
 * Append one line of code, broken the way clang-format breaks it when it is
 * longer than EC_COLUMNS: after the last ", " or " + " inside brackets that still
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
        } else if (c == ',' && text[i + 1] == ' ' && inside && col < EC_COLUMNS) {
            /* After a comma: under the first argument. */
            cut = i + 1;
            cut_hang = open[depth - 1];
            arg[depth - 1] = col + 2;
        } else if (c == '+' && text[i + 1] == ' ' && i > 0 && text[i - 1] == ' ' && inside &&
                   col < EC_COLUMNS) {
            /* After a binary +: one continuation indent into the operand list. */
            cut = i + 1;
            cut_hang = arg[depth - 1] + 8;
        }
        if (col >= EC_COLUMNS && cut > start && cut_hang < hang + (cut - start)) {
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

void ec_line(struct gen *g, const char *fmt, ...)
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

void ec_blank(struct gen *g)
{
    textbuf_putc(g->tb, '\n');
}

void ec_capture_begin(struct gen *g, struct capture *c)
{
    c->saved = g->tb;
    c->text = (struct textbuf)TEXTBUF_INIT;
    g->tb = &c->text;
    g->indent++;
}

void ec_capture_end(struct gen *g, struct capture *c)
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

void ec_put_body(struct gen *g, struct textbuf *body)
{
    if (body->data != NULL)
        textbuf_append(g->tb, body->data, body->len);
    textbuf_free(body);
}

/* `head` (e.g. "for (...)") followed by a captured body, braced unless one statement. */
void ec_block(struct gen *g, const char *head, struct capture *c)
{
    unwrap_scope(&c->text, g->indent + 1);
    if (single_statement(&c->text)) {
        ec_line(g, "%s", head);
    } else {
        ec_line(g, "%s {", head);
    }
    bool braces = !single_statement(&c->text);
    ec_put_body(g, &c->text);
    if (braces)
        ec_line(g, "}");
}

/* if (cond) then else other; braces on both branches when either needs them. */
void ec_if_else(struct gen *g, const char *cond, struct capture *then, struct capture *other)
{
    unwrap_scope(&then->text, g->indent + 1);
    if (other != NULL)
        unwrap_scope(&other->text, g->indent + 1);
    bool braces =
            !single_statement(&then->text) || (other != NULL && !single_statement(&other->text));
    ec_line(g, braces ? "if (%s) {" : "if (%s)", cond);
    ec_put_body(g, &then->text);
    if (other != NULL) {
        ec_line(g, braces ? "} else {" : "else");
        ec_put_body(g, &other->text);
    }
    if (braces)
        ec_line(g, "}");
}

/* Open a plain `{ ... }` scope for locals. */
void ec_scope_open(struct gen *g)
{
    ec_line(g, "{");
    g->indent++;
}

void ec_scope_close(struct gen *g)
{
    g->indent--;
    ec_line(g, "}");
}

/*
 * A local name unique at the current depth: "n", then "n1", "n2", ... Names are
 * taken at the depth of the construct that declares them, and everything
 * nested in its body is one deeper, so -Wshadow never fires.
 */
char *ec_local(const struct gen *g, const char *base)
{
    if (g->depth == 0)
        return xstrdup(base);
    return xasprintf("%s%u", base, g->depth);
}

/* Loop indexes read best as i, j, k. */
char *ec_loop_index(const struct gen *g)
{
    static const char *const names[] = {"i", "j", "k"};
    if (g->depth < 3)
        return xstrdup(names[g->depth]);
    return xasprintf("i%u", g->depth);
}

/* ---- string literals ----------------------------------------------------- */

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
 * one per line of the text, a long line cut after a comma so that each piece
 * fits in PIECE_WIDTH columns. The text is at most EC_MAX_LITERAL bytes
 * (emit_c_schema.c cuts longer ones into pieces).
 */
void ec_emit_char_array(struct gen *g, const char *decl, const char *text)
{
    size_t len = strlen(text);
    /* The pieces: one per line of the text, long lines cut after a comma. */
    size_t n = 0;
    char **pieces = NULL;
    for (size_t i = 0; i < len || (len == 0 && n == 0);) {
        size_t end = i, width = 0;
        while (end < len && text[end] != '\n' && width + escaped_width(text, end) <= PIECE_WIDTH)
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
        pieces[n++] = piece.failed ? xstrdup("\"\"") : textbuf_take(&piece, NULL);
        i = end;
        if (len == 0)
            break;
    }
    /* clang-format keeps the first piece after `=` when it fits, and aligns the
     * others under it; otherwise every piece goes on its own line. */
    size_t col = (size_t)g->indent * 4 + strlen(decl) + 3;
    bool same_line = true;
    for (size_t i = 0; i < n; i++)
        same_line &= col + strlen(pieces[i]) + (i + 1 == n ? 1 : 0) <= EC_COLUMNS;
    if (!same_line)
        ec_line(g, "%s =", decl);
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 == n ? ";" : "";
        if (same_line && i == 0)
            ec_line(g, "%s = %s%s", decl, pieces[i], end);
        else if (same_line)
            ec_line(g, "%*s%s%s", (int)col, "", pieces[i], end);
        else
            ec_line(g, "        %s%s", pieces[i], end);
        free(pieces[i]);
    }
    free(pieces);
}
