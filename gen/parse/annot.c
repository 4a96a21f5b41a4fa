/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The annotation payload parser (annot.h): the `key = JSON literal` grammar of
 * the option macros, the bare tokens of the shape macros, and a small strict
 * JSON reader (RFC 8259) that validates a literal, produces its compact text
 * and decodes strings. It never decides what an option means.
 */
#include "annot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genutil.h"
#include "textbuf.h"

#define JSON_MAX_DEPTH 64

/* Every annotation macro of <avrogen/annotate.h>, by the kind its payload names. */
static const struct {
    const char *kind;
    const char *macro;
    bool takes_args; /* function-like */
} macros[] = {
        {"record", "AVRO_RECORD", true},
        {"enum", "AVRO_ENUM", true},
        {"field", "AVRO_FIELD", true},
        {"nullable", "AVRO_NULLABLE", false},
        {"skip", "AVRO_SKIP", false},
        {"array", "AVRO_ARRAY", true},
        {"map", "AVRO_MAP", true},
        {"union", "AVRO_UNION", true},
        {"tag", "AVRO_TAG", true},
        {"string", "AVRO_STRING", true},
        {"bytes", "AVRO_BYTES", true},
        {"padded", "AVRO_PADDED", false},
        {"logical", "AVRO_LOGICAL", true},
        {"decimal", "AVRO_DECIMAL", true},
        {"fixed_name", "AVRO_FIXED_NAME", true},
        {"extern_record", "AVRO_EXTERN_RECORD", true},
        {"extern_enum", "AVRO_EXTERN_ENUM", true},
        {"extern_field", "AVRO_EXTERN_FIELD", true},
};

#define N_MACROS (sizeof macros / sizeof *macros)

const char *annot_macro(const char *kind)
{
    for (size_t i = 0; i < N_MACROS; i++)
        if (strcmp(kind, macros[i].kind) == 0)
            return macros[i].macro;
    return "annotation";
}

const char *annot_macro_kind(const char *ident, bool *takes_args)
{
    for (size_t i = 0; i < N_MACROS; i++) {
        if (strcmp(ident, macros[i].macro) == 0) {
            if (takes_args)
                *takes_args = macros[i].takes_args;
            return macros[i].kind;
        }
    }
    return NULL;
}

const char *annot_suggest_macro(const char *ident)
{
    if (strncmp(ident, "AVRO_", 5) != 0 || annot_macro_kind(ident, NULL))
        return NULL;
    /* One slip in a short word, two in a longer one: AVRO_FEILD and
     * AVRO_NULLABEL are caught, avro-c's enumerator AVRO_FIXED is not. */
    const char *rest = ident + 5;
    size_t cap = strlen(rest) >= 6 ? 2 : 1;
    const char *best = NULL;
    size_t best_d = cap + 1;
    for (size_t i = 0; i < N_MACROS; i++) {
        size_t dist = edit_distance(rest, macros[i].macro + 5, cap);
        if (dist < best_d) {
            best_d = dist;
            best = macros[i].macro;
        }
    }
    return best;
}

/* ---- JSON ------------------------------------------------------------ */

struct json_reader {
    const char *p;
    const char *end;
    struct textbuf out; /* compact text */
    struct textbuf str; /* the decoded text of the last string */
    int depth;
    const char *why;
};

static void skip_ws(struct json_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool fail(struct json_reader *r, const char *why)
{
    if (!r->why)
        r->why = why;
    return false;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool read_hex4(struct json_reader *r, unsigned *cp)
{
    if (r->end - r->p < 4)
        return fail(r, "truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_digit(r->p[i]);
        if (h < 0)
            return fail(r, "bad \\u escape");
        v = v * 16 + (unsigned)h;
    }
    r->p += 4;
    *cp = v;
    return true;
}

static void put_utf8(struct textbuf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    textbuf_append(b, u, n);
}

/* A string: copied verbatim to the compact text, decoded into r->str. */
static bool read_string(struct json_reader *r)
{
    const char *start = r->p++;
    textbuf_free(&r->str);
    textbuf_append(&r->str, "", 0);
    for (;;) {
        if (r->p >= r->end)
            return fail(r, "unterminated string");
        unsigned char c = (unsigned char)*r->p++;
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(r, "control character in string");
        if (c != '\\') {
            textbuf_putc(&r->str, (char)c);
            continue;
        }
        if (r->p >= r->end)
            return fail(r, "unterminated string");
        char e = *r->p++;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            textbuf_putc(&r->str, e);
            break;
        case 'b':
            textbuf_putc(&r->str, '\b');
            break;
        case 'f':
            textbuf_putc(&r->str, '\f');
            break;
        case 'n':
            textbuf_putc(&r->str, '\n');
            break;
        case 'r':
            textbuf_putc(&r->str, '\r');
            break;
        case 't':
            textbuf_putc(&r->str, '\t');
            break;
        case 'u': {
            unsigned cp;
            if (!read_hex4(r, &cp))
                return false;
            if (cp >= 0xD800 && cp < 0xDC00) {
                unsigned lo;
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                    return fail(r, "unpaired surrogate in \\u escape");
                r->p += 2;
                if (!read_hex4(r, &lo))
                    return false;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(r, "unpaired surrogate in \\u escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return fail(r, "unpaired surrogate in \\u escape");
            } else if (cp == 0) {
                return fail(r, "NUL character in string");
            }
            put_utf8(&r->str, cp);
            break;
        }
        default:
            return fail(r, "bad escape in string");
        }
    }
    textbuf_append(&r->out, start, (size_t)(r->p - start));
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool read_number(struct json_reader *r)
{
    const char *start = r->p;
    if (r->p < r->end && *r->p == '-')
        r->p++;
    if (r->p < r->end && *r->p == '0') {
        r->p++;
    } else if (r->p < r->end && is_digit(*r->p)) {
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    } else {
        return fail(r, "not a JSON value");
    }
    if (r->p < r->end && *r->p == '.') {
        r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return fail(r, "digit expected after '.'");
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || !is_digit(*r->p))
            return fail(r, "digit expected in exponent");
        while (r->p < r->end && is_digit(*r->p))
            r->p++;
    }
    textbuf_append(&r->out, start, (size_t)(r->p - start));
    return true;
}

static bool read_word(struct json_reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return fail(r, "not a JSON value");
    r->p += n;
    textbuf_append(&r->out, word, n);
    return true;
}

static bool read_value(struct json_reader *r, enum annot_json *type, struct annot_option *strs);

static bool read_container(struct json_reader *r, char open, struct annot_option *strs)
{
    char close = open == '[' ? ']' : '}';
    if (++r->depth > JSON_MAX_DEPTH)
        return fail(r, "nested too deeply");
    textbuf_putc(&r->out, open);
    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        textbuf_putc(&r->out, close);
        r->depth--;
        return true;
    }
    for (;;) {
        enum annot_json t;
        skip_ws(r);
        if (open == '{') {
            if (r->p >= r->end || *r->p != '"')
                return fail(r, "object key must be a string");
            if (!read_string(r))
                return false;
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':')
                return fail(r, "':' expected after object key");
            r->p++;
            textbuf_putc(&r->out, ':');
            skip_ws(r);
        }
        if (!read_value(r, &t, NULL))
            return false;
        if (strs) {
            if (t == ANNOT_JSON_STRING && strs->all_strings) {
                strs->strs = xappend(strs->strs, strs->n_strs, sizeof *strs->strs);
                strs->strs[strs->n_strs++] = textbuf_take(&r->str, NULL);
            } else {
                strs->all_strings = false;
            }
        }
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            textbuf_putc(&r->out, ',');
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            textbuf_putc(&r->out, close);
            r->depth--;
            return true;
        }
        return fail(r,
                    open == '[' ? "',' or ']' expected in array" : "',' or '}' expected in object");
    }
}

/* One value at r->p (whitespace already skipped). `strs` collects the decoded
 * elements of a top-level array of strings. */
static bool read_value(struct json_reader *r, enum annot_json *type, struct annot_option *strs)
{
    if (r->p >= r->end)
        return fail(r, "value expected");
    switch (*r->p) {
    case '"':
        *type = ANNOT_JSON_STRING;
        return read_string(r);
    case '[':
        *type = ANNOT_JSON_ARRAY;
        if (strs)
            strs->all_strings = true;
        return read_container(r, '[', strs);
    case '{':
        *type = ANNOT_JSON_OBJECT;
        return read_container(r, '{', NULL);
    case 't':
        *type = ANNOT_JSON_BOOL;
        return read_word(r, "true");
    case 'f':
        *type = ANNOT_JSON_BOOL;
        return read_word(r, "false");
    case 'n':
        *type = ANNOT_JSON_NULL;
        return read_word(r, "null");
    default:
        *type = ANNOT_JSON_NUMBER;
        return read_number(r);
    }
}

static void reader_free(struct json_reader *r)
{
    textbuf_free(&r->out);
    textbuf_free(&r->str);
}

bool annot_json_compact(const char *text, char **compact, char *why, size_t n)
{
    struct json_reader r = {.p = text, .end = text + strlen(text)};
    enum annot_json type;
    skip_ws(&r);
    bool ok = read_value(&r, &type, NULL);
    skip_ws(&r);
    if (ok && r.p != r.end)
        ok = fail(&r, "unexpected text after the value");
    if (!ok) {
        snprintf(why, n, "%s", r.why);
        reader_free(&r);
        return false;
    }
    if (compact)
        *compact = textbuf_take(&r.out, NULL);
    reader_free(&r);
    return true;
}

/* ---- options --------------------------------------------------------- */

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || is_digit(c);
}

static void option_free(struct annot_option *o)
{
    free(o->key);
    free(o->json);
    free(o->str);
    for (size_t i = 0; i < o->n_strs; i++)
        free(o->strs[i]);
    free(o->strs);
}

void annot_options_free(struct annot_options *o)
{
    for (size_t i = 0; i < o->n; i++)
        option_free(&o->v[i]);
    free(o->v);
    o->v = NULL;
    o->n = 0;
}

const struct annot_option *annot_find(const struct annot_options *o, const char *key)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->v[i].key, key) == 0)
            return &o->v[i];
    return NULL;
}

bool annot_parse_options(const struct cannot *a, struct diag *d, struct annot_options *out)
{
    const char *macro = annot_macro(a->kind);
    struct json_reader r = {.p = a->text, .end = a->text + strlen(a->text)};
    out->v = NULL;
    out->n = 0;
    skip_ws(&r);
    while (r.p < r.end) {
        const char *k = r.p;
        if (!is_ident_start(*r.p)) {
            diag_error(d, &a->loc, "%s: option name expected at '%s'", macro, r.p);
            goto out_fail;
        }
        while (r.p < r.end && is_ident_char(*r.p))
            r.p++;
        char *key = xstrndup(k, (size_t)(r.p - k));
        if (annot_find(out, key)) {
            diag_error(d, &a->loc, "%s: option '%s' given twice", macro, key);
            free(key);
            goto out_fail;
        }
        skip_ws(&r);
        if (r.p >= r.end || *r.p != '=') {
            diag_error(d, &a->loc, "%s: expected '=' after '%s' (options are key = JSON literal)",
                       macro, key);
            free(key);
            goto out_fail;
        }
        r.p++;
        skip_ws(&r);
        out->v = xappend(out->v, out->n, sizeof *out->v);
        struct annot_option *o = &out->v[out->n++];
        o->key = key;
        textbuf_free(&r.out);
        const char *vstart = r.p;
        if (!read_value(&r, &o->type, o)) {
            diag_error(d, &a->loc, "%s: the value of '%s' is not a JSON literal: %s (at %.20s)",
                       macro, key, r.why, r.p < r.end ? r.p : vstart);
            goto out_fail;
        }
        o->json = textbuf_take(&r.out, NULL);
        if (o->type == ANNOT_JSON_STRING)
            o->str = textbuf_take(&r.str, NULL);
        if (o->type != ANNOT_JSON_ARRAY)
            o->all_strings = false;
        skip_ws(&r);
        if (r.p < r.end) {
            if (*r.p != ',') {
                diag_error(d, &a->loc, "%s: expected ',' between options, found '%.20s'", macro,
                           r.p);
                goto out_fail;
            }
            r.p++;
            skip_ws(&r);
            if (r.p >= r.end) {
                diag_error(d, &a->loc, "%s: option expected after ','", macro);
                goto out_fail;
            }
        }
    }
    reader_free(&r);
    return true;

out_fail:
    reader_free(&r);
    annot_options_free(out);
    return false;
}

/* ---- bare tokens ----------------------------------------------------- */

static char *without_spaces(const char *s)
{
    char *out = xmalloc(strlen(s) + 1);
    size_t n = 0;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n')
            out[n++] = *s;
    out[n] = '\0';
    return out;
}

char *annot_parse_token(const struct cannot *a, struct diag *d)
{
    char *t = without_spaces(a->text);
    if (!*t) {
        diag_error(d, &a->loc, "%s needs an argument", annot_macro(a->kind));
        free(t);
        return NULL;
    }
    return t;
}

static bool is_counted_kind(const char *kind)
{
    return strcmp(kind, "array") == 0 || strcmp(kind, "string") == 0 || strcmp(kind, "bytes") == 0;
}

const char *annot_count_bound(const struct cannot *a)
{
    if (!is_counted_kind(a->kind))
        return NULL;
    const char *comma = strchr(a->expanded ? a->expanded : a->text, ',');
    return comma ? comma + 1 : NULL;
}

char *annot_parse_identifier(const struct cannot *a, struct diag *d)
{
    char *t = annot_parse_token(a, d);
    if (!t)
        return NULL;
    char *comma = strchr(t, ',');
    if (comma && is_counted_kind(a->kind))
        *comma = '\0'; /* (count_field, max): the bound is annot_count_bound's */
    bool ok = is_ident_start(t[0]);
    for (const char *p = t; ok && *p; p++)
        ok = is_ident_char(*p);
    if (!ok) {
        diag_error(d, &a->loc, "%s(%s): the argument must be the name of a member",
                   annot_macro(a->kind), t);
        free(t);
        return NULL;
    }
    return t;
}

static bool parse_small_int(const char *s, const char *end, int *out)
{
    long v = 0;
    if (s == end)
        return false;
    for (; s < end; s++) {
        if (!is_digit(*s) || v > 100000)
            return false;
        v = v * 10 + (*s - '0');
    }
    *out = (int)v;
    return true;
}

bool annot_parse_decimal(const struct cannot *a, struct diag *d, int *precision, int *scale)
{
    char *t = without_spaces(a->text);
    const char *comma = strchr(t, ',');
    bool ok = comma && parse_small_int(t, comma, precision) &&
              parse_small_int(comma + 1, t + strlen(t), scale);
    if (!ok)
        diag_error(d, &a->loc,
                   "AVRO_DECIMAL(%s): expected two non-negative integers, precision and scale",
                   a->text);
    free(t);
    return ok;
}
