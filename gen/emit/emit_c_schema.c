/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schema texts of generated code (issue 12): each record's .avsc text and
 * Parsing Canonical Form as an avrogen_text (gencode.h), string literals and
 * references to shared parts, which avrogen_type_schema and
 * avrogen_type_canonical join at run time. A record's text holds the
 * definitions of the records it nests, so N chained records hold N^2 bytes of
 * text in all; here a nested record definition of at least SPLIT bytes is a
 * part of its own, written once in the file however many texts hold it, and
 * the file is linear in the header. Parts are found by their text alone (a
 * definition is the same part wherever it reads the same, indentation and
 * namespaces included), so the pieces join to exactly the text the generator
 * made: sharing can only save bytes, never change one. A schema shorter than
 * SPLIT is one literal, as before.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c_internal.h"
#include "genutil.h"

/* Nested record definitions at least this long become parts. */
#define SPLIT 1024
/* Marks of a reference in a part's signature: "\1<index>\2" (JSON text has no
 * raw control characters but newlines). */
#define REF_OPEN  '\1'
#define REF_CLOSE '\2'

/* A part: its text with the parts inside it as references. */
struct part {
    char *sig;
    size_t sig_len;
    size_t len; /* of the text it stands for */
    char *name; /* its C name once written, else NULL */
};

struct ec_texts {
    struct part *parts;
    size_t n;
    struct ptrmap index; /* (hash, k) -> part index: the k-th part with that hash */
    unsigned written;    /* parts written under a base name, for their names */
};

struct ec_texts *ec_texts_new(void)
{
    return xcalloc(1, sizeof(struct ec_texts));
}

void ec_texts_free(struct ec_texts *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->parts[i].sig);
        free(t->parts[i].name);
    }
    free(t->parts);
    ptrmap_free(&t->index);
    free(t);
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* The part whose signature is sig[0, n) (taken), found or made. */
static size_t intern(struct ec_texts *t, char *sig, size_t n, size_t len)
{
    uint64_t h = fnv1a(sig, n) | 1; /* a ptrmap key must not be NULL */
    const void *key = (const void *)(uintptr_t)h;
    size_t k = 0, at;
    for (; ptrmap_get2(&t->index, key, (const void *)(uintptr_t)k, &at); k++) {
        if (t->parts[at].sig_len == n && memcmp(t->parts[at].sig, sig, n) == 0) {
            free(sig);
            return at;
        }
    }
    t->parts = xappend(t->parts, t->n, sizeof *t->parts);
    t->parts[t->n] = (struct part){sig, n, len, NULL};
    ptrmap_put2(&t->index, key, (const void *)(uintptr_t)k, t->n);
    return t->n++;
}

/* A part found inside the text being split, not yet inside a bigger one. */
struct span {
    size_t start, end; /* text[start, end) */
    size_t part;
};

/* An open object or array of the JSON text. */
struct frame {
    size_t start;
    bool object;
    bool record;     /* an object with "type": "record" */
    bool key_next;   /* an object: the next string is a key */
    bool type_value; /* the value being read is that of key "type" */
};

/* The signature of text[start, end) with the spans in it (spans[from, n)) as references. */
static size_t close_part(struct ec_texts *t, const char *text, size_t start, size_t end,
                         struct span *spans, size_t from, size_t n)
{
    struct textbuf sig = TEXTBUF_INIT;
    size_t at = start;
    for (size_t i = from; i < n; i++) {
        textbuf_append(&sig, text + at, spans[i].start - at);
        textbuf_printf(&sig, "%c%zu%c", REF_OPEN, spans[i].part, REF_CLOSE);
        at = spans[i].end;
    }
    textbuf_append(&sig, text + at, end - at);
    size_t len;
    char *s = textbuf_take(&sig, &len);
    if (s == NULL)
        s = xstrdup(""); /* out of memory: textbuf has failed; xmalloc would have exited */
    return intern(t, s, len, end - start);
}

/*
 * Split JSON text (an .avsc text or a canonical form, as the generator wrote
 * it) into parts: returns the part of the whole text. One pass: every byte
 * goes into the signature of the innermost part holding it.
 */
static size_t split(struct ec_texts *t, const char *text)
{
    size_t len = strlen(text);
    struct frame *stack = NULL;
    size_t depth = 0;
    struct span *spans = NULL;
    size_t n_spans = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        struct frame *top = depth != 0 ? &stack[depth - 1] : NULL;
        if (c == '"') {
            size_t s = i + 1;
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            if (top == NULL || !top->object)
                continue;
            if (top->key_next) {
                top->key_next = false;
                top->type_value = i - s == 4 && memcmp(text + s, "type", 4) == 0;
            } else if (top->type_value) {
                top->record = i - s == 6 && memcmp(text + s, "record", 6) == 0;
                top->type_value = false;
            }
        } else if (c == '{' || c == '[') {
            if (top != NULL)
                top->type_value = false;
            stack = xappend(stack, depth, sizeof *stack);
            stack[depth++] = (struct frame){i, c == '{', false, c == '{', false};
        } else if ((c == '}' || c == ']') && top != NULL) {
            depth--;
            size_t start = top->start, end = i + 1;
            if (top->record && depth != 0 && end - start >= SPLIT) {
                size_t from = n_spans;
                while (from > 0 && spans[from - 1].start >= start)
                    from--;
                size_t part = close_part(t, text, start, end, spans, from, n_spans);
                n_spans = from;
                spans = xappend(spans, n_spans, sizeof *spans);
                spans[n_spans++] = (struct span){start, end, part};
            }
        } else if (c == ',' && top != NULL && top->object) {
            top->key_next = true;
            top->type_value = false;
        }
    }
    size_t whole = close_part(t, text, 0, len, spans, 0, n_spans);
    free(spans);
    free(stack);
    return whole;
}

/* Write part i (and the parts it refers to, first) unless written: its C name,
 * `name` when given and the part is new, else base_text<k>. */
static const char *write_part(struct gen *g, struct ec_texts *t, size_t i, const char *name,
                              const char *base)
{
    struct part *p = &t->parts[i];
    if (p->name != NULL)
        return p->name;
    /* The pieces: literals of at most EC_MAX_LITERAL bytes, and references. */
    struct textbuf pieces = TEXTBUF_INIT;
    size_t n_pieces = 0;
    const char *s = p->sig, *end = p->sig + p->sig_len;
    /* Parts referred to are written first: C wants them declared. */
    for (const char *q = s; q < end; q++) {
        if (*q == REF_OPEN)
            write_part(g, t, (size_t)strtoull(q + 1, NULL, 10), NULL, base);
    }
    p = &t->parts[i];
    p->name = name != NULL ? xstrdup(name) : xasprintf("%s_text%u", base, t->written++);
    name = p->name;
    while (s < end || n_pieces == 0) {
        if (s < end && *s == REF_OPEN) {
            char *close;
            size_t ref = (size_t)strtoull(s + 1, &close, 10);
            textbuf_printf(&pieces, "        {NULL, 0, &%s},\n", t->parts[ref].name);
            s = close + 1;
        } else {
            const char *stop = memchr(s, REF_OPEN, (size_t)(end - s));
            size_t n = (size_t)((stop != NULL ? stop : end) - s);
            if (n > EC_MAX_LITERAL)
                n = EC_MAX_LITERAL;
            char *text = xstrndup(s, n);
            char *lit = xasprintf("%s_%zu", name, n_pieces);
            char *decl = xasprintf("static const char %s[]", lit);
            ec_emit_char_array(g, decl, text);
            textbuf_printf(&pieces, "        {%s, %zu, NULL},\n", lit, n);
            free(decl);
            free(lit);
            free(text);
            s += n;
        }
        n_pieces++;
    }
    ec_line(g, "static const avrogen_text_piece %s_pieces[] = {", name);
    textbuf_append(g->tb, pieces.data, pieces.len);
    ec_line(g, "};");
    ec_line(g, "static const avrogen_text %s = {%s_pieces, %zu, %zu};", name, name, n_pieces,
            p->len);
    ec_blank(g);
    textbuf_free(&pieces);
    return p->name;
}

const char *ec_emit_text(struct gen *g, struct ec_texts *t, const char *text, const char *name,
                         const char *base)
{
    return write_part(g, t, split(t, text), name, base);
}
