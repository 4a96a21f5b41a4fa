/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `avrogen header`: the annotated C header of a record schema (emit_header.h).
 * The generator's C → Avro mapping, run backwards:
 *
 *   record → struct with AVRO_RECORD(name, namespace, aliases, doc)
 *   enum → C enum, enumerators PREFIX_SYMBOL under AVRO_ENUM(strip_prefix = "PREFIX_");
 *   fixed → uint8_t[N] + AVRO_FIXED_NAME
 *   boolean, int, long, float, double → bool, int32_t, int64_t, float, double
 *   string → char * (avrogen_str with views); bytes → avrogen_bytes
 *   array → T *x AVRO_ARRAY(n_x) + size_t n_x; map → entry struct {key, value} + count
 *   ["null", T] → AVRO_NULLABLE (a pointer, or T's own null); other unions →
 *   a C union under AVRO_UNION(x_kind), tagged by a C enum
 *   logical types → AVRO_LOGICAL / AVRO_DECIMAL on the C types that hold them
 *
 * C names: a named type's tag is its Avro name when that is unique in the
 * schema and a safe C identifier, else its full name with '_' for '.'; members
 * keep their Avro field names unless those are C or C++ keywords or reserved
 * (then AVRO_FIELD(name = ...) keeps the Avro name). Every definition comes
 * after what it holds by value; the output depends only on the schema.
 *
 * What the forward mapping cannot hold is reported, not approximated; the
 * caller then runs the generator on the header to prove the round trip.
 */
#include "emit_header.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_avsc.h"
#include "emit_header_internal.h"
#include "genutil.h"
#include "textbuf.h"

/* ---- sets of names ---------------------------------------------------- */

/* Names in insertion order (v), with a hash index: has() was a scan, and a
 * schema of 100,000 symbols or fields took minutes. */
struct strset {
    char **v;
    size_t n;
    struct strmap index; /* v[i] -> i */
    /* For names made by numbering a stem (stem, stem_2, ...): the number each
     * stem's last search ended at. A candidate refused once stays refused (the
     * set only grows, and safety is the name's own; a global refused to a tag
     * for its case is left unused), so the next search on the stem starts there: n names on one
     * stem take n tries, not n^2/2 (fuzz_names found thousands of "a_b", "a__b", ... squeezed to
     * one stem). */
    char **stems;
    size_t n_stems;
    struct strmap next; /* stems[i] -> the number to try next */
};

#define STRSET_INIT                           \
    {                                         \
        NULL, 0, {NULL, NULL, 0, 0}, NULL, 0, \
        {                                     \
            NULL, NULL, 0, 0                  \
        }                                     \
    }

static bool strset_has(const struct strset *s, const char *x)
{
    return strmap_get(&s->index, x, NULL);
}

static void strset_add(struct strset *s, const char *x)
{
    s->v = xappend(s->v, s->n, sizeof *s->v);
    s->v[s->n] = xstrdup(x);
    strmap_add(&s->index, s->v[s->n], s->n, NULL);
    s->n++;
}

static void strset_free(struct strset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    strmap_free(&s->index);
    s->v = NULL;
    s->n = 0;
    for (size_t i = 0; i < s->n_stems; i++)
        free(s->stems[i]);
    free(s->stems);
    strmap_free(&s->next);
    s->stems = NULL;
    s->n_stems = 0;
}

/* Where a search for a free `stem`, `stem`_2, ... in s starts: `first`, or
 * past the numbers an earlier search on the stem refused. */
static unsigned stem_start(const struct strset *s, const char *stem, unsigned first)
{
    size_t next;
    return strmap_get(&s->next, stem, &next) && next > first ? (unsigned)next : first;
}

/* A search on `stem` ended at number i (taken now): the next starts after it. */
static void stem_done(struct strset *s, const char *stem, unsigned i)
{
    if (!strmap_get(&s->next, stem, NULL)) {
        s->stems = xappend(s->stems, s->n_stems, sizeof *s->stems);
        s->stems[s->n_stems] = xstrdup(stem);
        stem = s->stems[s->n_stems++];
    }
    strmap_put(&s->next, stem, (size_t)i + 1);
}

void header_problems_free(struct header_problems *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

/* ---- C identifiers ---------------------------------------------------- */

/* Keywords of C (C89 to C23) and C++ (to C++20, alternative tokens included),
 * and lowercase names the usual headers or compilers define as macros. The
 * header must compile as both languages, so none of them may name anything. */
static const char reserved_words[] =
        " alignas alignof and and_eq asm assert auto bitand bitor bool break case catch char "
        "char16_t char32_t char8_t class co_await co_return co_yield compl complex concept "
        "const const_cast consteval constexpr constinit continue decltype default delete do "
        "double dynamic_cast else enum errno explicit export extern false float for friend "
        "goto i386 if imaginary inline int int16_t int32_t int64_t int8_t linux long mutable "
        "namespace new noexcept noreturn not not_eq nullptr offsetof operator or or_eq private "
        "protected public register reinterpret_cast requires restrict return short signed "
        "size_t sizeof static static_assert static_cast stderr stdin stdout struct switch "
        "template this thread_local throw true try typedef typeid typename typeof "
        "typeof_unqual uint16_t uint32_t uint64_t uint8_t union unix unsigned using virtual "
        "void volatile wchar_t while xor xor_eq NULL EOF "
        /* object-like macros of <stdio.h>, <stdlib.h>, <math.h>, <complex.h>,
         * <limits.h>, <float.h>, <time.h> and <assert.h> */
        "BUFSIZ FILENAME_MAX FOPEN_MAX TMP_MAX L_tmpnam L_ctermid P_tmpdir RAND_MAX "
        "MB_CUR_MAX MB_LEN_MAX NAN INFINITY HUGE_VAL HUGE_VALF HUGE_VALL I "
        "math_errhandling MATH_ERRNO MATH_ERREXCEPT CHAR_BIT DECIMAL_DIG CLOCKS_PER_SEC "
        "TIME_UTC NDEBUG ";

/* Prefixes of macros avrogen's own headers, the C library and POSIX define or
 * reserve (C11 7.31, POSIX.1-2017 2.2.2): <stdint.h>, <limits.h>, <float.h>,
 * <stdio.h> SEEK_, <math.h> FP_ and M_, <fenv.h> FE_, <locale.h> LC_,
 * <signal.h> SIG_ and SA_, <time.h> CLOCK_ and TIMER_, <fcntl.h> and
 * <sys/stat.h> O_, F_, S_, AT_, <stdatomic.h> ATOMIC_. */
static const char *const reserved_prefixes[] = {
        "avrogen",     "AVROGEN", "AVRO_",  "INT8_",   "INT16_",   "INT32_",  "INT64_",
        "INTMAX_",     "INTPTR_", "UINT8_", "UINT16_", "UINT32_",  "UINT64_", "UINTMAX_",
        "UINTPTR_",    "INT_",    "UINT_",  "SIZE_",   "PTRDIFF_", "WCHAR_",  "WINT_",
        "SIG_ATOMIC_", "EXIT_",   "SEEK_",  "FP_",     "FE_",      "LC_",     "SIG_",
        "SA_",         "CLOCK_",  "TIMER_", "CHAR_",   "SCHAR_",   "UCHAR_",  "SHRT_",
        "USHRT_",      "LONG_",   "ULONG_", "LLONG_",  "ULLONG_",  "FLT_",    "DBL_",
        "LDBL_",       "ATOMIC_", "M_",     "O_",      "F_",       "S_",      "AT_",
};

/* What <errno.h> and <signal.h> reserve: E or SIG, then uppercase letters and
 * digits only (EINVAL, E2BIG, SIGINT); PRI and SCN then a lowercase letter or X
 * (<inttypes.h>: PRId64, SCNu8). */
static bool is_reserved_pattern(const char *s)
{
    const char *rest = s[0] == 'E' ? s + 1 : strncmp(s, "SIG", 3) == 0 ? s + 3 : NULL;
    if (rest && *rest) {
        const char *p = rest;
        while ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
            p++;
        if (*p == '\0')
            return true;
    }
    if (strncmp(s, "PRI", 3) == 0 || strncmp(s, "SCN", 3) == 0)
        return (s[3] >= 'a' && s[3] <= 'z') || s[3] == 'X';
    return false;
}

/* Where `s` has "_avro" followed by '_' or its end, in any case, or NULL: the
 * generated code's names are TAG_avro_... and TAG_AVRO_..., so no other name
 * may hold that (DESIGN.md, "C names"). */
static const char *avro_infix(const char *s)
{
    for (const char *p = s; (p = strchr(p, '_')) != NULL; p++) {
        if ((p[1] | 0x20) == 'a' && (p[2] | 0x20) == 'v' && (p[3] | 0x20) == 'r' &&
            (p[4] | 0x20) == 'o' && (p[5] == '_' || p[5] == '\0'))
            return p;
    }
    return NULL;
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_reserved_word(const char *s)
{
    size_t n = strlen(s);
    if (n == 0)
        return false;
    for (const char *p = reserved_words; (p = strstr(p, s)) != NULL; p++)
        if (p[-1] == ' ' && p[n] == ' ')
            return true;
    return false;
}

/* Whether `s` may name a member, a tag or an enumerator in C11 and C++17. */
static bool is_safe_ident(const char *s)
{
    if (!s[0] || (s[0] >= '0' && s[0] <= '9') || s[0] == '_' || strstr(s, "__"))
        return false;
    for (const char *p = s; *p; p++)
        if (!is_ident_char(*p))
            return false;
    if (is_reserved_word(s) || is_reserved_pattern(s) || avro_infix(s))
        return false;
    for (size_t i = 0; i < sizeof reserved_prefixes / sizeof *reserved_prefixes; i++)
        if (strncmp(s, reserved_prefixes[i], strlen(reserved_prefixes[i])) == 0)
            return false;
    return true;
}

/* `raw` as an identifier without leading or doubled underscores (Avro names
 * may have both); "" when nothing is left. Trailing underscores stay. Each
 * "_avro" that avro_infix finds gets an x after it ("FOO_AVRO_FINGERPRINT" →
 * "FOO_AVROX_FINGERPRINT"), so no generated name can be spelled. */
static char *squeeze(const char *raw)
{
    size_t len = strlen(raw);
    char *out = xmalloc(len + len / 5 + 2);
    size_t n = 0;
    for (const char *p = raw; *p; p++) {
        char c = is_ident_char(*p) ? *p : '_';
        if (c == '_' && (n == 0 || out[n - 1] == '_'))
            continue;
        out[n++] = c;
        out[n] = '\0';
        if (n >= 5 && out[n - 5] == '_' && (p[1] == '\0' || !is_ident_char(p[1]) || p[1] == '_') &&
            avro_infix(out + n - 5) == out + n - 5)
            out[n++] = c >= 'a' ? 'x' : 'X';
    }
    out[n] = '\0';
    return out;
}

/* The separator before a stem's numbers: "class_" goes on as "class_2",
 * never "class__2" (no name holds "__"). */
static const char *number_sep(const char *stem)
{
    return stem[0] && stem[strlen(stem) - 1] == '_' ? "" : "_";
}

/* A stem whose numbered names are safe: `base`, or `word`_base squeezed when
 * base_2 would not be ("AVRO", "SIG", "M" are safe; "AVRO_2", "SIG_2", "M_2"
 * start like the C library's or avrogen's macros, so "AVRO" goes on as
 * "type_AVROX_2"). Numbering from a stem no number makes safe never ended
 * (fuzz_names). */
static char *numbering_stem(const char *base, const char *word)
{
    char *two = xasprintf("%s%s2", base, number_sep(base));
    bool ok = is_safe_ident(two);
    free(two);
    if (ok)
        return xstrdup(base);
    char *raw = xasprintf("%s_%s", word, base);
    char *stem = squeeze(raw);
    free(raw);
    return stem;
}

/* The first of base, then stem_2, stem_3, ... (stem: numbering_stem) that is
 * safe and not in `taken`. */
static char *first_free(const char *base, const char *word, struct strset *taken)
{
    if (is_safe_ident(base) && !strset_has(taken, base))
        return xstrdup(base);
    char *stem = numbering_stem(base, word);
    for (unsigned i = stem_start(taken, stem, 2);; i++) {
        char *c = xasprintf("%s%s%u", stem, number_sep(stem), i);
        if (is_safe_ident(c) && !strset_has(taken, c)) {
            stem_done(taken, stem, i);
            free(stem);
            return c;
        }
        free(c);
    }
}

/* A safe stem for `raw`: squeezed; `suffix` after a keyword ("class_");
 * "field"/"type" before anything else that is not safe (a reserved or
 * generated name: "field_EINVAL", "field_CHAR_BIT"). It is always safe, so
 * first_free ends. */
static char *safe_stem(const char *raw, const char *word, const char *suffix)
{
    char *s = squeeze(raw);
    char *out = NULL;
    if (!s[0])
        out = xstrdup(word);
    else if (is_safe_ident(s))
        out = xstrdup(s);
    else if (is_reserved_word(s))
        out = xasprintf("%s%s", s, suffix);
    if (out == NULL || !is_safe_ident(out)) { /* "CHAR_BIT_" still starts like a macro */
        free(out);
        /* Squeezed again: "field_" + "AVRO_X" would spell "_AVRO_". */
        char *raw2 = xasprintf("%s_%s", word, s);
        out = squeeze(raw2);
        free(raw2);
    }
    free(s);
    return out;
}

/*
 * A member name for Avro name `raw` (or a derived name such as "n_lines"):
 * raw itself when safe and free, else a safe stem ("class_", "field_AVRO_X",
 * "x" for "__x"), then a number until it is free. Added to `taken`.
 */
static char *member_name(struct strset *taken, const char *raw)
{
    char *name;
    if (is_safe_ident(raw) && !strset_has(taken, raw)) {
        name = xstrdup(raw);
    } else {
        char *base = safe_stem(raw, "field", "_");
        name = first_free(base, "field", taken);
        free(base);
    }
    strset_add(taken, name);
    return name;
}

/* "a" + "_" + "b", squeezed: the parts of derived C names. */
static char *join(const char *a, const char *b)
{
    char *raw = xasprintf("%s_%s", a, b);
    char *s = squeeze(raw);
    free(raw);
    return s;
}

static char *upper(const char *s)
{
    char *u = xstrdup(s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

/* ---- the header being built ------------------------------------------- */

/* One file-scope definition: a record's struct, an enum, a map entry, a tag enum. */
struct cdef {
    struct textbuf text;
    size_t *deps; /* definitions it holds by value: they come first */
    size_t n_deps;
    size_t *later; /* definitions it reaches through pointers only */
    size_t n_later;
    char *tag;     /* "struct Foo" / "enum Kind": for forward declarations */
    int state;     /* 0 not written, 1 being written (its deps), 2 written */
    bool record;   /* a struct that a pointer may refer to before its definition */
    bool declared; /* forward-declared */
};

/* A named type of the schema. */
struct named {
    const avrogen_node *node;
    char *tag;          /* records, enums: the C tag */
    char *prefix;       /* enums: the enumerators' prefix, "KIND_" */
    const char *around; /* the namespace its definition is nested in (NULL: none) */
    size_t def;         /* records, enums: its definition, or SIZE_MAX before it is built */
};

struct hdr {
    const struct emit_header_options *o;
    struct header_problems *p;
    struct named *named;
    size_t n_named;
    struct cdef *defs;
    size_t n_defs;
    struct strset globals;        /* tags and enumerators: one C++ scope */
    struct strset tags;           /* record and enum tags, for the generated-symbol check */
    struct strset folded_tags;    /* the same lower-cased */
    struct ptrmap named_index;    /* node -> its index in named */
    const avrogen_node **unbuilt; /* records whose struct body is still to be built */
    size_t n_unbuilt;
    const struct header_ident_sink *sink; /* tests: every identifier chosen, or NULL */
    /* Union branches that are records, held by value: the edges a pointer may
     * replace when they close a cycle (header_text). */
    struct branch_edge *edges;
    size_t n_edges;
    /* &union->branches[i] of the record branches written as pointers: those that
     * close a cycle of records held by value (kept across a rebuild). */
    struct ptrmap pointer_branches;
};

/* A union branch of record type in the struct `from`: by value, an edge to `to`. */
struct branch_edge {
    size_t from, to;
    const void *key; /* &union->branches[i] */
};

/* The names of one scope of members, to the sink, then freed. */
static void end_scope(struct hdr *h, struct strset *taken, const char *scope)
{
    for (size_t i = 0; h->sink && i < taken->n; i++)
        h->sink->ident(h->sink->ctx, scope, taken->v[i], false);
    strset_free(taken);
}

static void problem(struct hdr *h, const char *path, const char *fmt, ...) AVROGEN_PRINTF(3, 4);

static void problem(struct hdr *h, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct textbuf b = TEXTBUF_INIT;
    textbuf_printf(&b, "%s: ", path);
    char tmp[512];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    textbuf_puts(&b, tmp);
    va_end(ap);
    size_t len;
    char *line = textbuf_take(&b, &len);
    if (!line)
        line = xstrdup("out of memory");
    h->p->v = xappend(h->p->v, h->p->n, sizeof *h->p->v);
    h->p->v[h->p->n++] = line;
}

static struct named *find_named(struct hdr *h, const avrogen_node *n)
{
    size_t i;
    return ptrmap_get(&h->named_index, n, &i) ? &h->named[i] : NULL;
}

static size_t new_def(struct hdr *h, const char *tag, bool record)
{
    h->defs = xappend(h->defs, h->n_defs, sizeof *h->defs);
    struct cdef *d = &h->defs[h->n_defs];
    d->text = (struct textbuf)TEXTBUF_INIT;
    d->tag = tag ? xstrdup(tag) : NULL;
    d->record = record;
    return h->n_defs++;
}

static void add_dep(struct hdr *h, size_t from, size_t to, bool by_value)
{
    struct cdef *d = &h->defs[from];
    if (by_value) {
        d->deps = xappend(d->deps, d->n_deps, sizeof *d->deps);
        d->deps[d->n_deps++] = to;
    } else {
        d->later = xappend(d->later, d->n_later, sizeof *d->later);
        d->later[d->n_later++] = to;
    }
}

/* Whether `c` equals a record or enum tag but for case: both would define
 * the macro TAG_AVRO_FINGERPRINT (upper-cased). */
static char *lower_dup(const char *s)
{
    char *l = xstrdup(s);
    for (char *p = l; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return l;
}

static bool tag_case_taken(const struct hdr *h, const char *c)
{
    char *l = lower_dup(c);
    bool taken = strset_has(&h->folded_tags, l);
    free(l);
    return taken;
}

/* A file-scope name from `raw` (squeezed): safe, unused, and, for a record or
 * enum tag (`tag`), not the tag of another but for case. A name that is safe
 * holds no "_avro_", so it is none of the generated code's TAG_avro_... and
 * TAG_AVRO_... names. */
static char *global_name(struct hdr *h, const char *raw, bool tag)
{
    /* A reserved stem ("avrogen_str", "EXIT_SUCCESS") no suffix can fix;
     * squeezed again, as "type_" + "avro_x" would spell "_avro_". */
    char *base;
    if (is_safe_ident(raw)) {
        base = xstrdup(raw);
    } else {
        char *prefixed = xasprintf("type_%s", raw);
        base = squeeze(prefixed);
        free(prefixed);
    }
    char *stem = numbering_stem(base, "type");
    for (unsigned i = stem_start(&h->globals, stem, 1);; i++) {
        char *c = i == 1 ? xstrdup(base) : xasprintf("%s%s%u", stem, number_sep(stem), i);
        if (is_safe_ident(c) && !strset_has(&h->globals, c) && !(tag && tag_case_taken(h, c))) {
            stem_done(&h->globals, stem, i);
            strset_add(&h->globals, c);
            if (h->sink)
                h->sink->ident(h->sink->ctx, NULL, c, tag);
            free(base);
            free(stem);
            return c;
        }
        free(c);
    }
}

/* ---- text ------------------------------------------------------------- */

/*
 * The Unicode bidirectional control starting at p (UTF-8), or 0: U+061C,
 * U+200E-U+200F, U+202A-U+202E, U+2066-U+2069. In a comment or a string
 * they can make source read otherwise than it compiles (CVE-2021-42574);
 * gcc's -Wbidi-chars warns, so the header writes them as JSON escapes. *len
 * is its length in bytes.
 */
static unsigned bidi_control_at(const unsigned char *p, size_t *len)
{
    if (p[0] == 0xD8 && p[1] == 0x9C) {
        *len = 2;
        return 0x061C;
    }
    if (p[0] != 0xE2 || (p[1] != 0x80 && p[1] != 0x81) || p[2] == 0)
        return 0;
    unsigned cp = 0x2000u + ((unsigned)(p[1] & 0x3F) << 6) + (unsigned)(p[2] & 0x3F);
    *len = 3;
    return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
                           (cp >= 0x2066 && cp <= 0x2069)
                   ? cp
                   : 0;
}

static bool has_bidi_control(const char *s)
{
    size_t len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (bidi_control_at(p, &len))
            return true;
    return false;
}

/*
 * A JSON string literal of s, fit for an annotation argument: escapes for the
 * quote, the backslash, control characters and bidirectional controls, and
 * "??" broken up as "?\u003f" so that no C compiler in a trigraph mode
 * rewrites it.
 */
static void put_json_string(struct textbuf *b, const char *s)
{
    textbuf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            textbuf_puts(b, "\\\"");
            break;
        case '\\':
            textbuf_puts(b, "\\\\");
            break;
        case '\n':
            textbuf_puts(b, "\\n");
            break;
        case '\t':
            textbuf_puts(b, "\\t");
            break;
        case '\r':
            textbuf_puts(b, "\\r");
            break;
        case '?':
            textbuf_puts(b, p[1] == '?' ? "?\\u003f" : "?");
            if (p[1] == '?')
                p++;
            break;
        default: {
            size_t len;
            unsigned cp = bidi_control_at(p, &len);
            if (*p < 0x20 || cp) {
                textbuf_printf(b, "\\u%04x", cp ? cp : *p);
                p += cp ? len - 1 : 0;
            } else {
                textbuf_putc(b, (char)*p);
            }
        }
        }
    }
    textbuf_putc(b, '"');
}

/* A JSON real as the shortest text that reads back as the same double
 * (jansson prints 17 digits: -0.10000000000000001), still a real. */
static void put_real(struct textbuf *b, const char *tok, size_t len)
{
    char *text = xstrndup(tok, len);
    double v = strtod(text, NULL);
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    textbuf_puts(b, strpbrk(buf, ".eEn") ? buf : text); /* "5" would read as an int */
    free(text);
}

/* Compact JSON (a default, from the schema parser) made safe the same way:
 * "??" inside its strings becomes "?\u003f"; reals get their shortest form;
 * everything else is kept. */
static void put_json_value(struct textbuf *b, const char *json)
{
    bool in_string = false;
    for (const char *p = json; *p; p++) {
        if (!in_string && (*p == '-' || (*p >= '0' && *p <= '9'))) {
            size_t n = strspn(p, "-+0123456789.eE");
            if (memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n))
                put_real(b, p, n);
            else
                textbuf_append(b, p, n);
            p += n - 1;
            continue;
        }
        if (in_string && *p == '\\' && p[1]) {
            textbuf_putc(b, *p++);
            textbuf_putc(b, *p);
            continue;
        }
        if (*p == '"')
            in_string = !in_string;
        if (in_string && p[0] == '?' && p[1] == '?') {
            textbuf_puts(b, "?\\u003f");
            p++;
            continue;
        }
        size_t len;
        unsigned cp = in_string ? bidi_control_at((const unsigned char *)p, &len) : 0;
        if (cp) {
            textbuf_printf(b, "\\u%04x", cp);
            p += len - 1;
            continue;
        }
        textbuf_putc(b, *p);
    }
}

static void put_aliases(struct textbuf *b, const char *const *aliases, size_t n)
{
    textbuf_puts(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            textbuf_puts(b, ", ");
        put_json_string(b, aliases[i]);
    }
    textbuf_puts(b, "]");
}

/*
 * Whether doc text survives as a doc comment, which the generator strips of
 * its markers, surrounding blank lines and trailing blanks (clang_parse.c):
 * printable text whose lines have no trailing blanks, no comment markers or
 * backslashes (line splices), no "??" (trigraphs) and no bidirectional
 * controls. Otherwise the doc goes into the annotation as a JSON string.
 */
static bool doc_fits_comment(const char *doc)
{
    size_t n = strlen(doc);
    if (n == 0 || doc[0] == '\n' || doc[n - 1] == '\n' || strstr(doc, "*/") || strstr(doc, "/*") ||
        strstr(doc, "??") || strchr(doc, '\\') || has_bidi_control(doc))
        return false;
    bool blank = true;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)doc[i];
        if (c < 0x20 && c != '\n')
            return false;
        if (c == ' ' && (i + 1 == n || doc[i + 1] == '\n'))
            return false;
        if (c != ' ' && c != '\n')
            blank = false;
    }
    return !blank;
}

/* The doc comment of a definition or member, at `indent`. */
static void put_doc_comment(struct textbuf *b, const char *doc, const char *indent)
{
    bool one_line = !strchr(doc, '\n') && doc[0] != ' ' && doc[0] != '<' && doc[0] != '*' &&
                    doc[0] != '!' && strlen(doc) + strlen(indent) + 7 <= 100;
    if (one_line) {
        textbuf_printf(b, "%s/** %s */\n", indent, doc);
        return;
    }
    textbuf_printf(b, "%s/**\n", indent);
    for (const char *p = doc; p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len)
            textbuf_printf(b, "%s * %.*s\n", indent, (int)len, p);
        else
            textbuf_printf(b, "%s *\n", indent);
        p = eol ? eol + 1 : NULL;
    }
    textbuf_printf(b, "%s */\n", indent);
}

/* ", key = " between options, "" before the first. */
static void option_key(struct textbuf *b, bool *first, const char *key)
{
    textbuf_printf(b, "%s%s = ", *first ? "" : ", ", key);
    *first = false;
}

/* ") tag {" after the options of AVRO_RECORD / AVRO_ENUM; past 100 columns
 * the tag goes on a line of its own. */
static void put_head_end(struct textbuf *b, const char *tag)
{
    const char *line = b->data ? strrchr(b->data, '\n') : NULL;
    size_t col = b->len - (line ? (size_t)(line + 1 - b->data) : 0);
    if (col + strlen(tag) + 4 > 100)
        textbuf_printf(b, ")\n        %s {\n", tag);
    else
        textbuf_printf(b, ") %s {\n", tag);
}

/* ---- names of the schema's types -------------------------------------- */

/* Every named type, in the order of its definition (depth first, field order,
 * as the schema text and the generator's .avsc define them), with the
 * namespace around that definition. */
static void collect_named(struct hdr *h, const avrogen_node *t, const char *space)
{
    if (avrogen_node_is_named(t)) {
        if (find_named(h, t)) {
            /* Spec §Names: an unqualified name inside namespace `space` means
             * space.Name, so the generator writes no reference to a type of the
             * null namespace there (Java's and avrogen's parsers fall back to
             * the null namespace; the specification does not). */
            if (!t->namespace_ && space)
                problem(h, t->fullname,
                        "the type is in the null namespace and referred to again from inside "
                        "namespace '%s', which no schema the generator writes can do",
                        space);
            return;
        }
        ptrmap_put(&h->named_index, t, h->n_named);
        h->named = xappend(h->named, h->n_named, sizeof *h->named);
        h->named[h->n_named].node = t;
        h->named[h->n_named].around = space;
        h->named[h->n_named++].def = SIZE_MAX;
        space = t->namespace_;
    }
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields; i++)
            collect_named(h, t->fields[i].type, space);
        break;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        collect_named(h, t->items, space);
        break;
    case AVROGEN_KIND_UNION:
        for (size_t i = 0; i < t->n_branches; i++)
            collect_named(h, t->branches[i], space);
        break;
    default:
        break;
    }
}

/* Tags for records and enums (fixed types have none), then enum prefixes. */
static void name_types(struct hdr *h)
{
    struct strmap simple = {0}; /* a simple name of a record or enum -> how many have it */
    for (size_t i = 0; i < h->n_named; i++) {
        const avrogen_node *t = h->named[i].node;
        size_t n = 0;
        if (t->kind != AVROGEN_KIND_FIXED) {
            strmap_get(&simple, t->name, &n);
            strmap_put(&simple, t->name, n + 1);
        }
    }
    for (size_t i = 0; i < h->n_named; i++) {
        struct named *nm = &h->named[i];
        if (nm->node->kind == AVROGEN_KIND_FIXED)
            continue;
        /* The simple name, unless another type of the schema shares it. */
        size_t sharing = 0;
        strmap_get(&simple, nm->node->name, &sharing);
        bool shared = sharing > 1;
        char *base = safe_stem(shared ? nm->node->fullname : nm->node->name, "type", "_type");
        while (base[strlen(base) - 1] == '_')
            base[strlen(base) - 1] = '\0'; /* TAG_avro_... must not hold "__" */
        size_t len = strlen(base);
        if (len >= 2 && strcmp(base + len - 2, "_t") == 0) { /* POSIX's, and C++'s type names */
            char *t = xasprintf("%s_type", base);
            free(base);
            base = t;
        }
        nm->tag = global_name(h, base, true);
        strset_add(&h->tags, nm->tag);
        char *folded = lower_dup(nm->tag);
        strset_add(&h->folded_tags, folded);
        free(folded);
        free(base);
    }
    strmap_free(&simple);
    for (size_t i = 0; i < h->n_named; i++) {
        struct named *nm = &h->named[i];
        if (nm->node->kind != AVROGEN_KIND_ENUM)
            continue;
        char *u = upper(nm->tag);
        nm->prefix = xasprintf("%s_", u);
        char *probe = xasprintf("%sX", nm->prefix);
        if (!is_safe_ident(probe)) { /* EXIT_, INT8_, AVRO_...: the headers' macros */
            free(nm->prefix);
            nm->prefix = xasprintf("ENUM_%s_", u);
        }
        free(probe);
        free(u);
    }
}

/* ---- enums ------------------------------------------------------------ */

/* Enumerators for `prefix` + each of `symbols`: safe, unused names. */
static char **enumerators(struct hdr *h, const char *prefix, const char *const *symbols, size_t n)
{
    char **names = xcalloc(n ? n : 1, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        char *raw = xasprintf("%s%s", prefix, symbols[i]);
        char *s = squeeze(raw);
        names[i] = global_name(h, s, false);
        free(s);
        free(raw);
    }
    return names;
}

/* name, namespace, doc, aliases of a record or enum defined inside namespace
 * `around` (a type without the option would take that one). */
static void put_named_options(struct textbuf *b, bool *first, const avrogen_node *n,
                              const char *around, bool doc_inline)
{
    option_key(b, first, "name");
    put_json_string(b, n->name);
    if (n->namespace_ || around) {
        option_key(b, first, "namespace");
        put_json_string(b, n->namespace_ ? n->namespace_ : "");
    }
    if (n->doc && doc_inline) {
        option_key(b, first, "doc");
        put_json_string(b, n->doc);
    }
    if (n->n_aliases) {
        option_key(b, first, "aliases");
        put_aliases(b, n->aliases, n->n_aliases);
    }
}

static void build_enum(struct hdr *h, struct named *nm)
{
    const avrogen_node *e = nm->node;
    if (e->n_symbols == 0)
        problem(h, e->fullname, "an enum without symbols has no values, and C has no empty enums");
    char *spelling = xasprintf("enum %s", nm->tag);
    size_t di = new_def(h, spelling, false);
    nm->def = di;
    free(spelling);
    struct textbuf *b = &h->defs[di].text;
    bool doc_comment = e->doc && doc_fits_comment(e->doc);
    if (doc_comment)
        put_doc_comment(b, e->doc, "");
    textbuf_puts(b, "enum AVRO_ENUM(");
    bool first = true;
    put_named_options(b, &first, e, nm->around, e->doc && !doc_comment);
    if (e->enum_default >= 0) {
        option_key(b, &first, "default");
        put_json_string(b, e->symbols[e->enum_default]);
    }
    /* The generator takes a symbol from AVRO_FIELD(name), else from the
     * enumerator less strip_prefix (model_enum.c): enumerators that had to
     * change name their symbol. */
    option_key(b, &first, "strip_prefix");
    put_json_string(b, nm->prefix);
    put_head_end(b, nm->tag);
    char **names = enumerators(h, nm->prefix, e->symbols, e->n_symbols);
    size_t strip = strlen(nm->prefix);
    for (size_t i = 0; i < e->n_symbols; i++) {
        textbuf_printf(b, "    %s", names[i]);
        if (strncmp(names[i], nm->prefix, strip) != 0 ||
            strcmp(names[i] + strip, e->symbols[i]) != 0) {
            textbuf_puts(b, " AVRO_FIELD(name = ");
            put_json_string(b, e->symbols[i]);
            textbuf_puts(b, ")");
        }
        textbuf_puts(b, i + 1 < e->n_symbols ? ",\n" : "\n");
    }
    textbuf_puts(b, "};\n");
    for (size_t i = 0; i < e->n_symbols; i++)
        free(names[i]);
    free(names);
}

/* ---- members ---------------------------------------------------------- */

/* A struct being written: a record, a map entry. */
struct sbuild {
    struct hdr *h;
    size_t def;          /* its definition */
    const char *owner;   /* its C tag, the stem of derived names */
    const char *space;   /* the namespace its fixed types are named in */
    struct strset taken; /* member names */
    unsigned nested;     /* map entries and holders it is inside of (and is) */
};

/* The C type of a plain value (a member, an array item, a union branch, a pointee). */
struct leaf {
    char *base;        /* "int32_t", "struct Foo", "char" */
    bool ptr;          /* declared with a '*' (char *) */
    uint64_t arr;      /* uint8_t name[arr] */
    struct textbuf an; /* its annotations, each with a leading space */
};

static void leaf_free(struct leaf *l)
{
    free(l->base);
    textbuf_free(&l->an);
}

/* "base name", "base *name", "base name[N]", "base (*name)[N]", with one
 * more '*' when `pointer` (array storage, nullable pointers). */
static char *declarator(const struct leaf *l, const char *name, bool pointer)
{
    if (l->arr && pointer)
        return xasprintf("%s (*%s)[%" PRIu64 "]", l->base, name, l->arr);
    if (l->arr)
        return xasprintf("%s %s[%" PRIu64 "]", l->base, name, l->arr);
    return xasprintf("%s %s%s%s", l->base, l->ptr ? "*" : "", pointer ? "*" : "", name);
}

static size_t record_def(struct hdr *h, const avrogen_node *r);
static size_t enum_def(struct hdr *h, const avrogen_node *e);

/* AVRO_LOGICAL / AVRO_DECIMAL of a scalar or fixed node. */
static void put_logical(struct textbuf *an, const avrogen_node *t)
{
    if (t->logical == AVROGEN_LOGICAL_DECIMAL)
        textbuf_printf(an, " AVRO_DECIMAL(%d, %d)", t->precision, t->scale);
    else if (avsc_logical_name(t->logical) != NULL)
        textbuf_printf(an, " AVRO_LOGICAL(%s)", avsc_logical_name(t->logical));
}

/*
 * The C type of a plain value of t: what an array item, a union branch or a
 * nullable pointer's target can be. A record or enum becomes a dependency of
 * the struct being written, by value or (`by_value` false) through a pointer.
 * False after reporting when t needs more than one C member (an array, a map,
 * a union) or has no C type at all.
 */
static size_t holder_def(struct sbuild *sb, const char *stem, const avrogen_node *t,
                         const char *path);

static bool leaf_type(struct sbuild *sb, const avrogen_node *t, bool by_value, const char *stem,
                      const char *path, struct leaf *l)
{
    struct hdr *h = sb->h;
    memset(l, 0, sizeof *l);
    l->an = (struct textbuf)TEXTBUF_INIT;
    switch (t->kind) {
    case AVROGEN_KIND_BOOLEAN:
        l->base = xstrdup("bool");
        break;
    case AVROGEN_KIND_INT:
        l->base = xstrdup("int32_t");
        put_logical(&l->an, t);
        break;
    case AVROGEN_KIND_LONG:
        l->base = xstrdup("int64_t");
        put_logical(&l->an, t);
        break;
    case AVROGEN_KIND_FLOAT:
        l->base = xstrdup("float");
        break;
    case AVROGEN_KIND_DOUBLE:
        l->base = xstrdup("double");
        break;
    case AVROGEN_KIND_STRING:
        l->base = xstrdup(h->o->views ? "avrogen_str" : "char");
        l->ptr = !h->o->views;
        put_logical(&l->an, t);
        break;
    case AVROGEN_KIND_BYTES:
        if (t->logical == AVROGEN_LOGICAL_DECIMAL) {
            /* Up to 18 digits an int64_t; wider, the unscaled value's bytes as they are. */
            l->base = xstrdup(t->precision > 18 ? "avrogen_bytes" : "int64_t");
            put_logical(&l->an, t);
        } else {
            l->base = xstrdup("avrogen_bytes");
        }
        break;
    case AVROGEN_KIND_FIXED:
        if (t->size == 0) {
            problem(h, path, "fixed '%s' has size 0, and C has no zero-length arrays", t->fullname);
            return false;
        }
        l->base = xstrdup("uint8_t");
        l->arr = t->size;
        /* The name in the record's namespace, a full name, or in the null
         * namespace inside another; then its doc and aliases. */
        bool here = t->namespace_ && sb->space && strcmp(t->namespace_, sb->space) == 0;
        textbuf_printf(&l->an, " AVRO_FIXED_NAME(%s", here ? t->name : t->fullname);
        if (!t->namespace_ && sb->space)
            textbuf_puts(&l->an, ", namespace = \"\"");
        if (t->doc) {
            textbuf_puts(&l->an, ", doc = ");
            put_json_string(&l->an, t->doc);
        }
        if (t->n_aliases) {
            textbuf_puts(&l->an, ", aliases = ");
            put_aliases(&l->an, (const char *const *)t->aliases, t->n_aliases);
        }
        textbuf_putc(&l->an, ')');
        put_logical(&l->an, t);
        break;
    case AVROGEN_KIND_RECORD: {
        size_t d = record_def(h, t);
        l->base = xasprintf("struct %s", find_named(h, t)->tag);
        add_dep(h, sb->def, d, by_value);
        break;
    }
    case AVROGEN_KIND_ENUM: {
        size_t d = enum_def(h, t);
        l->base = xasprintf("enum %s", find_named(h, t)->tag);
        add_dep(h, sb->def, d, true); /* ISO C has no forward-declared enums */
        break;
    }
    case AVROGEN_KIND_NULL: /* an array item (union branches and pointees never get here) */
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
    case AVROGEN_KIND_UNION: {
        /* Its count or tag needs a struct: a holder (an item or a branch, never a pointee). */
        size_t d = holder_def(sb, stem, t, path);
        l->base = xstrdup(h->defs[d].tag);
        add_dep(h, sb->def, d, by_value);
        break;
    }
    }
    return true;
}

static bool is_null(const avrogen_node *t)
{
    return t->kind == AVROGEN_KIND_NULL;
}

/* The non-null branch of a union that AVRO_NULLABLE can hold, or NULL: two
 * branches, one null; null second only with a default for the other
 * (the generator lists null second exactly then). */
static const avrogen_node *nullable_branch(const avrogen_node *u, const avrogen_field *f)
{
    if (u->n_branches != 2)
        return NULL;
    if (is_null(u->branches[0]) && !is_null(u->branches[1]))
        return u->branches[1];
    if (is_null(u->branches[1]) && !is_null(u->branches[0]) && f && f->default_json &&
        strcmp(f->default_json, "null") != 0)
        return u->branches[0];
    return NULL;
}

static void put_member(struct sbuild *sb, struct textbuf *b, const char *cname,
                       const avrogen_node *t, const avrogen_field *f, const char *path);

/* AVRO_FIELD(...) for an Avro field whose member is `cname`, or nothing. */
static void put_field_options(struct textbuf *b, const char *cname, const avrogen_field *f,
                              bool doc_inline, const char *extra)
{
    if (!f && !extra)
        return;
    struct textbuf o = TEXTBUF_INIT;
    bool first = true;
    if (extra) {
        textbuf_puts(&o, extra);
        first = false;
    }
    if (f && strcmp(cname, f->name) != 0) {
        option_key(&o, &first, "name");
        put_json_string(&o, f->name);
    }
    if (f && f->doc && doc_inline) {
        option_key(&o, &first, "doc");
        put_json_string(&o, f->doc);
    }
    if (f && f->n_aliases) {
        option_key(&o, &first, "aliases");
        put_aliases(&o, f->aliases, f->n_aliases);
    }
    if (f && f->default_json) {
        /* Checked by put_member: no U+0000 here. */
        option_key(&o, &first, "default");
        put_json_value(&o, f->default_json);
    }
    if (f && f->order != AVROGEN_ORDER_ASCENDING) {
        option_key(&o, &first, "order");
        textbuf_puts(&o, f->order == AVROGEN_ORDER_DESCENDING ? "\"descending\"" : "\"ignore\"");
    }
    if (!first)
        textbuf_printf(b, " AVRO_FIELD(%s)", o.data);
    textbuf_free(&o);
}

/* The entry struct of a map whose member is `cname`: {key, value [, its siblings]}. */
static size_t map_entry(struct sbuild *sb, const char *cname, const avrogen_node *m,
                        const char *path)
{
    struct hdr *h = sb->h;
    char *stem = join(sb->owner, cname);
    char *base = join(stem, "entry");
    char *tag = global_name(h, base, false);
    char *spelling = xasprintf("struct %s", tag);
    size_t di = new_def(h, spelling, true);
    struct sbuild eb = {h, di, tag, sb->space, STRSET_INIT, sb->nested + 1};
    strset_add(&eb.taken, "key");
    strset_add(&eb.taken, "value");
    struct textbuf body = TEXTBUF_INIT;
    textbuf_printf(&body, "/* An entry of %s. */\n", path);
    textbuf_printf(&body, "struct %s {\n", tag);
    textbuf_printf(&body, "    %s;\n", h->o->views ? "avrogen_str key" : "char *key");
    char *vpath = xasprintf("%s.values", path);
    put_member(&eb, &body, "value", m->items, NULL, vpath);
    textbuf_puts(&body, "};\n");
    size_t len;
    char *text = textbuf_take(&body, &len);
    textbuf_puts(&h->defs[di].text, text ? text : "");
    free(text);
    free(vpath);
    end_scope(h, &eb.taken, tag);
    free(spelling);
    free(tag);
    free(base);
    free(stem);
    return di;
}

/* The holder of an array, map or union that is an array item or a union branch:
 * `struct <Owner>_<stem> { value [, its count or tag] }`. */
static size_t holder_def(struct sbuild *sb, const char *stem, const avrogen_node *t,
                         const char *path)
{
    struct hdr *h = sb->h;
    char *base = join(sb->owner, stem);
    char *tag = global_name(h, base, false);
    char *spelling = xasprintf("struct %s", tag);
    size_t di = new_def(h, spelling, true);
    struct sbuild hb = {h, di, tag, sb->space, STRSET_INIT, sb->nested + 1};
    strset_add(&hb.taken, "value");
    if (hb.nested > AVROGEN_MODEL_MAX_NESTED)
        problem(h, path,
                "arrays, maps and unions nested more than %d deep inside each other: the "
                "generator refuses holders and map entries nested deeper (generated code "
                "would nest its blocks past what C compilers take)",
                AVROGEN_MODEL_MAX_NESTED);
    struct textbuf body = TEXTBUF_INIT;
    textbuf_printf(&body, "/* Holds %s. */\n", path);
    textbuf_printf(&body, "struct %s {\n", tag);
    put_member(&hb, &body, "value", t, NULL, path);
    textbuf_puts(&body, "};\n");
    size_t len;
    char *text = textbuf_take(&body, &len);
    textbuf_puts(&h->defs[di].text, text ? text : "");
    free(text);
    end_scope(h, &hb.taken, tag);
    free(spelling);
    free(tag);
    free(base);
    return di;
}

/* A counted member: `T *cname AVRO_ARRAY(n_cname)` or `struct E *cname AVRO_MAP(n_cname)`,
 * then the count. `nullable` adds AVRO_NULLABLE (NULL is null). */
static void put_counted(struct sbuild *sb, struct textbuf *b, const char *cname,
                        const avrogen_node *t, const avrogen_field *f, const char *path,
                        bool nullable, const char *doc_comment)
{
    struct hdr *h = sb->h;
    char *raw = xasprintf("n_%s", cname);
    char *count = member_name(&sb->taken, raw);
    free(raw);
    char *decl = NULL;
    struct leaf l;
    bool ok;
    if (t->kind == AVROGEN_KIND_ARRAY) {
        char *ipath = xasprintf("%s.items", path);
        char *stem = join(cname, "item");
        ok = leaf_type(sb, t->items, false, stem, ipath, &l);
        free(stem);
        free(ipath);
        if (ok) {
            decl = declarator(&l, cname, true);
            struct textbuf an = TEXTBUF_INIT;
            textbuf_printf(&an, " AVRO_ARRAY(%s)%s", count, l.an.data ? l.an.data : "");
            textbuf_free(&l.an);
            l.an = an;
        }
    } else {
        size_t e = map_entry(sb, cname, t, path);
        add_dep(h, sb->def, e, false);
        memset(&l, 0, sizeof l);
        l.base = xstrdup(h->defs[e].tag);
        l.an = (struct textbuf)TEXTBUF_INIT;
        textbuf_printf(&l.an, " AVRO_MAP(%s)", count);
        decl = declarator(&l, cname, true);
        ok = true;
    }
    if (ok) {
        if (doc_comment)
            put_doc_comment(b, doc_comment, "    ");
        textbuf_printf(b, "    %s%s%s", decl, nullable ? " AVRO_NULLABLE" : "",
                       l.an.data ? l.an.data : "");
        put_field_options(b, cname, f, f && f->doc && !doc_comment, NULL);
        textbuf_printf(b, ";\n    size_t %s;\n", count);
        leaf_free(&l);
    }
    free(decl);
    free(count);
}

/* A union that AVRO_NULLABLE does not take: a tag enum, the tag, the C union. */
static void put_tagged(struct sbuild *sb, struct textbuf *b, const char *cname,
                       const avrogen_node *u, const avrogen_field *f, const char *path)
{
    struct hdr *h = sb->h;
    if (u->n_branches == 0) {
        problem(h, path, "an empty union has no values, and C has no empty unions");
        return;
    }
    /* Member names of the branches: the kind, or the named type's tag. */
    struct strset taken = STRSET_INIT;
    char **members = xcalloc(u->n_branches, sizeof *members);
    for (size_t i = 0; i < u->n_branches; i++) {
        const avrogen_node *t = u->branches[i];
        static const char *const kinds[] = {
                [AVROGEN_KIND_NULL] = "none",     [AVROGEN_KIND_BOOLEAN] = "boolean",
                [AVROGEN_KIND_INT] = "int32",     [AVROGEN_KIND_LONG] = "int64",
                [AVROGEN_KIND_FLOAT] = "float32", [AVROGEN_KIND_DOUBLE] = "float64",
                [AVROGEN_KIND_BYTES] = "bytes",   [AVROGEN_KIND_STRING] = "string",
                [AVROGEN_KIND_ARRAY] = "array",   [AVROGEN_KIND_MAP] = "map",
        };
        const char *raw = t->kind == AVROGEN_KIND_FIXED ? t->name
                          : avrogen_node_is_named(t)    ? find_named(h, t)->tag
                          : (size_t)t->kind < sizeof kinds / sizeof *kinds && kinds[t->kind]
                                  ? kinds[t->kind]
                                  : "value";
        members[i] = member_name(&taken, raw);
    }

    /* The tag's enum: <OWNER>_<MEMBER>_<BRANCH>, in branch order (tag i is branch i). */
    char *stem = join(sb->owner, cname);
    char *ebase = join(stem, "kind");
    char *etag = global_name(h, ebase, false);
    char *espelling = xasprintf("enum %s", etag);
    size_t di = new_def(h, espelling, false);
    add_dep(h, sb->def, di, true);
    struct textbuf *e = &h->defs[di].text;
    textbuf_printf(e, "/* Which member of %s holds the value: Avro branch i is tag value i. */\n",
                   path);
    textbuf_printf(e, "enum %s {\n", etag);
    char *ustem = upper(stem);
    for (size_t i = 0; i < u->n_branches; i++) {
        char *ub = upper(members[i]);
        char *raw = join(ustem, ub);
        char *name = global_name(h, raw, false);
        textbuf_printf(e, "    %s%s\n", name, i + 1 < u->n_branches ? "," : "");
        free(name);
        free(raw);
        free(ub);
    }
    textbuf_puts(e, "};\n");

    char *traw = xasprintf("%s_kind", cname);
    char *tag = member_name(&sb->taken, traw);
    struct textbuf body = TEXTBUF_INIT;
    bool ok = true;
    for (size_t i = 0; i < u->n_branches && ok; i++) {
        const avrogen_node *t = u->branches[i];
        if (is_null(t)) {
            textbuf_printf(&body, "        char %s AVRO_FIELD(type = \"null\");\n", members[i]);
            continue;
        }
        char *bpath = xasprintf("%s[%zu]", path, i);
        struct leaf l;
        char *bstem = join(cname, members[i]);
        /* A record branch that closes a cycle of records by value: a pointer
         * (the generator takes a pointer to a record as that record's branch). */
        size_t marked;
        bool pointer = t->kind == AVROGEN_KIND_RECORD &&
                       ptrmap_get(&h->pointer_branches, &u->branches[i], &marked);
        ok = leaf_type(sb, t, !pointer, bstem, bpath, &l);
        free(bstem);
        free(bpath);
        if (!ok)
            break;
        if (t->kind == AVROGEN_KIND_RECORD && !pointer) {
            h->edges = xappend(h->edges, h->n_edges, sizeof *h->edges);
            h->edges[h->n_edges++] =
                    (struct branch_edge){sb->def, find_named(h, t)->def, &u->branches[i]};
        }
        l.ptr = l.ptr || pointer;
        char *decl = declarator(&l, members[i], false);
        textbuf_printf(&body, "        %s%s;\n", decl, l.an.data ? l.an.data : "");
        free(decl);
        leaf_free(&l);
    }
    if (ok) {
        textbuf_printf(b, "    %s %s;\n", espelling, tag);
        textbuf_printf(b, "    union {\n%s    } %s AVRO_UNION(%s)", body.data, cname, tag);
        put_field_options(b, cname, f, true, NULL);
        textbuf_puts(b, ";\n");
    }
    textbuf_free(&body);
    free(tag);
    free(traw);
    free(ustem);
    free(espelling);
    free(etag);
    free(ebase);
    free(stem);
    for (size_t i = 0; i < u->n_branches; i++)
        free(members[i]);
    free(members);
    char *scope = xasprintf("%s.%s", sb->owner, cname);
    end_scope(h, &taken, scope);
    free(scope);
}

/*
 * The members of one value of type t in the struct sb is writing, named
 * `cname` (already taken): an Avro field's (f set) or a map entry's value.
 * Counts and tags get names of their own.
 */
/* Whether compact JSON text holds the escape \u0000 (jansson's only spelling of NUL). */
static bool json_has_nul(const char *json)
{
    for (const char *p = json; *p; p++) {
        if (*p != '\\')
            continue;
        if (p[1] == 'u' && strncmp(p + 2, "0000", 4) == 0)
            return true;
        if (p[1])
            p++;
    }
    return false;
}

static void put_member(struct sbuild *sb, struct textbuf *b, const char *cname,
                       const avrogen_node *t, const avrogen_field *f, const char *path)
{
    struct hdr *h = sb->h;
    const char *doc = f && f->doc && doc_fits_comment(f->doc) ? f->doc : NULL;
    if (f && f->default_json && json_has_nul(f->default_json)) {
        problem(h, path,
                "the default holds U+0000, which an annotation cannot carry (the generator keeps "
                "annotation strings as C strings)");
        return;
    }
    if (t->kind == AVROGEN_KIND_ARRAY || t->kind == AVROGEN_KIND_MAP) {
        put_counted(sb, b, cname, t, f, path, false, doc);
        return;
    }
    if (t->kind == AVROGEN_KIND_UNION) {
        const avrogen_node *v = nullable_branch(t, f);
        if (!v) {
            put_tagged(sb, b, cname, t, f, path);
            return;
        }
        char *vpath = xasprintf("%s[%d]", path, is_null(t->branches[0]) ? 1 : 0);
        if (v->kind == AVROGEN_KIND_ARRAY || v->kind == AVROGEN_KIND_MAP) {
            put_counted(sb, b, cname, v, f, vpath, true, doc);
            free(vpath);
            return;
        }
        /* Strings and byte views hold their own null; anything else is a pointer. */
        bool self = v->kind == AVROGEN_KIND_STRING ||
                    (v->kind == AVROGEN_KIND_BYTES &&
                     (v->logical != AVROGEN_LOGICAL_DECIMAL || v->precision > 18));
        struct leaf l;
        bool ok = leaf_type(sb, v, false, cname, vpath, &l);
        free(vpath);
        if (!ok)
            return;
        char *decl = declarator(&l, cname, !self);
        if (doc)
            put_doc_comment(b, doc, "    ");
        textbuf_printf(b, "    %s AVRO_NULLABLE%s", decl, l.an.data ? l.an.data : "");
        put_field_options(b, cname, f, f && f->doc && !doc, NULL);
        textbuf_puts(b, ";\n");
        free(decl);
        leaf_free(&l);
        return;
    }
    if (t->kind == AVROGEN_KIND_NULL) {
        if (doc)
            put_doc_comment(b, doc, "    ");
        textbuf_printf(b, "    char %s", cname);
        put_field_options(b, cname, f, f && f->doc && !doc, "type = \"null\"");
        textbuf_puts(b, ";\n");
        return;
    }
    struct leaf l;
    if (!leaf_type(sb, t, true, cname, path, &l))
        return;
    char *decl = declarator(&l, cname, false);
    if (doc)
        put_doc_comment(b, doc, "    ");
    textbuf_printf(b, "    %s%s", decl, l.an.data ? l.an.data : "");
    put_field_options(b, cname, f, f && f->doc && !doc, NULL);
    textbuf_puts(b, ";\n");
    free(decl);
    leaf_free(&l);
}

/* ---- records ---------------------------------------------------------- */

static size_t enum_def(struct hdr *h, const avrogen_node *e)
{
    struct named *nm = find_named(h, e);
    if (nm->def == SIZE_MAX)
        build_enum(h, nm);
    return nm->def;
}

/* The definition of record r, created empty; its body is built from h->unbuilt. */
static size_t record_def(struct hdr *h, const avrogen_node *r)
{
    struct named *nm = find_named(h, r);
    if (nm->def == SIZE_MAX) {
        char *spelling = xasprintf("struct %s", nm->tag);
        nm->def = new_def(h, spelling, true);
        free(spelling);
        h->unbuilt = xappend(h->unbuilt, h->n_unbuilt, sizeof *h->unbuilt);
        h->unbuilt[h->n_unbuilt++] = r;
    }
    return nm->def;
}

static void build_record(struct hdr *h, const avrogen_node *r)
{
    struct named *nm = find_named(h, r);
    size_t di = nm->def;
    struct sbuild sb = {h, di, nm->tag, r->namespace_, STRSET_INIT, 0};
    /* The fields' own names first, so that counts and tags yield to them;
     * names that must change come after the ones that can stay. */
    char **cnames = xcalloc(r->n_fields ? r->n_fields : 1, sizeof *cnames);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->n_fields; i++)
            if (!cnames[i] && (pass == 1 || is_safe_ident(r->fields[i].name)))
                cnames[i] = member_name(&sb.taken, r->fields[i].name);

    struct textbuf body = TEXTBUF_INIT;
    for (size_t i = 0; i < r->n_fields; i++) {
        const avrogen_field *f = &r->fields[i];
        char *path = xasprintf("%s.%s", r->fullname, f->name);
        put_member(&sb, &body, cnames[i], f->type, f, path);
        free(path);
    }
    if (r->n_fields == 0) {
        char *empty = member_name(&sb.taken, "empty");
        textbuf_printf(&body, "    char %s AVRO_SKIP; /* C has no empty structs */\n", empty);
        free(empty);
    }

    struct textbuf *b = &h->defs[di].text;
    bool doc_comment = r->doc && doc_fits_comment(r->doc);
    if (doc_comment)
        put_doc_comment(b, r->doc, "");
    textbuf_puts(b, "struct AVRO_RECORD(");
    bool first = true;
    put_named_options(b, &first, r, nm->around, r->doc && !doc_comment);
    put_head_end(b, nm->tag);
    textbuf_printf(b, "%s};\n", body.data ? body.data : "");
    textbuf_free(&body);
    for (size_t i = 0; i < r->n_fields; i++)
        free(cnames[i]);
    free(cnames);
    end_scope(h, &sb.taken, nm->tag);
}

/* ---- output order ----------------------------------------------------- */

struct order {
    struct hdr *h;
    size_t *queue; /* reached through pointers: written after the current chain */
    size_t n_queue;
    struct textbuf out;
    struct textbuf fwd; /* forward declarations of structs used before their definition */
    bool cycle;
};

static void place(struct order *o, size_t di)
{
    struct hdr *h = o->h;
    struct cdef *d = &h->defs[di];
    if (d->state == 2)
        return;
    if (d->state == 1) {
        o->cycle = true;
        return;
    }
    d->state = 1;
    for (size_t i = 0; i < d->n_deps; i++)
        place(o, d->deps[i]);
    for (size_t i = 0; i < d->n_later; i++) {
        struct cdef *l = &h->defs[d->later[i]];
        if (l->state != 2 && l != d && !l->declared) {
            textbuf_printf(&o->fwd, "%s;\n", l->tag);
            l->declared = true;
        }
        o->queue = xappend(o->queue, o->n_queue, sizeof *o->queue);
        o->queue[o->n_queue++] = d->later[i];
    }
    textbuf_puts(&o->out, "\n");
    textbuf_append(&o->out, d->text.data ? d->text.data : "", d->text.len);
    d->state = 2;
}

/* Whether t has a finite value: the least fixed point over the records of
 * h (records[i] says it for named[i]; other named types always have one). */
static bool has_value(const struct hdr *h, const bool *records, const avrogen_node *t)
{
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < h->n_named; i++)
            if (h->named[i].node == t)
                return records[i];
        return false;
    case AVROGEN_KIND_ENUM:
        return t->n_symbols > 0;
    case AVROGEN_KIND_UNION:
        for (size_t i = 0; i < t->n_branches; i++)
            if (has_value(h, records, t->branches[i]))
                return true;
        return false;
    default:
        return true; /* arrays and maps may be empty */
    }
}

static bool *finite_records(const struct hdr *h)
{
    bool *ok = xcalloc(h->n_named ? h->n_named : 1, sizeof *ok);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < h->n_named; i++) {
            const avrogen_node *r = h->named[i].node;
            if (ok[i] || r->kind != AVROGEN_KIND_RECORD)
                continue;
            bool all = true;
            for (size_t k = 0; k < r->n_fields && all; k++)
                all = has_value(h, ok, r->fields[k].type);
            if (all)
                ok[i] = changed = true;
        }
    }
    return ok;
}

/*
 * The strongly connected components of the definitions under "holds by value"
 * (Tarjan's, one walk): a union branch edge from -> to closes a cycle exactly
 * when both ends are in one component.
 */
struct scc {
    const struct hdr *h;
    size_t *number, *low, *comp, *stack;
    bool *on_stack;
    size_t n_stack, visits, n_comps;
};

static void scc_visit(struct scc *c, size_t v)
{
    const struct cdef *d = &c->h->defs[v];
    c->number[v] = c->low[v] = ++c->visits;
    c->stack[c->n_stack++] = v;
    c->on_stack[v] = true;
    for (size_t i = 0; i < d->n_deps; i++) {
        size_t w = d->deps[i];
        if (c->number[w] == 0) {
            scc_visit(c, w);
            if (c->low[w] < c->low[v])
                c->low[v] = c->low[w];
        } else if (c->on_stack[w] && c->number[w] < c->low[v]) {
            c->low[v] = c->number[w];
        }
    }
    if (c->low[v] != c->number[v])
        return;
    size_t w;
    do {
        w = c->stack[--c->n_stack];
        c->on_stack[w] = false;
        c->comp[w] = c->n_comps;
    } while (w != v);
    c->n_comps++;
}

/* Mark the union branches that close a cycle of records held by value as
 * pointers; whether any was marked (the header is then built again). */
static bool mark_pointer_branches(struct hdr *h)
{
    size_t n = h->n_defs ? h->n_defs : 1;
    struct scc c = {h,
                    xcalloc(n, sizeof(size_t)),
                    xcalloc(n, sizeof(size_t)),
                    xcalloc(n, sizeof(size_t)),
                    xcalloc(n, sizeof(size_t)),
                    xcalloc(n, sizeof(bool)),
                    0,
                    0,
                    0};
    for (size_t v = 0; v < h->n_defs; v++)
        if (c.number[v] == 0)
            scc_visit(&c, v);
    bool any = false;
    for (size_t i = 0; i < h->n_edges; i++) {
        const struct branch_edge *e = &h->edges[i];
        if (c.comp[e->from] == c.comp[e->to]) {
            ptrmap_put(&h->pointer_branches, e->key, 1);
            any = true;
        }
    }
    free(c.number);
    free(c.low);
    free(c.comp);
    free(c.stack);
    free(c.on_stack);
    return any;
}

/* The record-by-value chain that makes a cycle, for the message. */
static bool find_cycle(struct hdr *h, size_t di, size_t *stack, size_t depth, struct textbuf *why)
{
    for (size_t k = 0; k < depth; k++) {
        if (stack[k] != di)
            continue;
        for (size_t j = k; j < depth; j++)
            textbuf_printf(why, "%s -> ", h->defs[stack[j]].tag);
        textbuf_puts(why, h->defs[di].tag);
        return true;
    }
    if (depth == h->n_defs)
        return false;
    stack[depth] = di;
    for (size_t i = 0; i < h->defs[di].n_deps; i++)
        if (find_cycle(h, h->defs[di].deps[i], stack, depth + 1, why))
            return true;
    return false;
}

static char *header_text(struct hdr *h, const avrogen_node *root)
{
    struct order o = {h, NULL, 0, TEXTBUF_INIT, TEXTBUF_INIT, false};
    size_t start = find_named(h, root)->def;
    place(&o, start);
    for (size_t i = 0; i < o.n_queue && !o.cycle; i++)
        place(&o, o.queue[i]);
    if (o.cycle) {
        size_t *stack = xcalloc(h->n_defs, sizeof *stack);
        struct textbuf why = TEXTBUF_INIT;
        for (size_t i = 0; i < h->n_defs && !why.len; i++)
            find_cycle(h, i, stack, 0, &why);
        bool *finite = finite_records(h);
        const char *empty = NULL;
        for (size_t i = 0; i < h->n_named && !empty; i++)
            if (h->named[i].node->kind == AVROGEN_KIND_RECORD && !finite[i])
                empty = h->named[i].node->fullname;
        /* A cycle left after the union branches on it became pointers has
         * none: nothing breaks it, and no finite value exists. */
        problem(h, empty ? empty : root->fullname,
                "the record holds itself with no null, array or map on the way (%s): no "
                "finite value of it exists, so no C struct can hold one",
                why.data ? why.data : "?");
        free(finite);
        textbuf_free(&why);
        free(stack);
    }
    struct textbuf b = TEXTBUF_INIT;
    textbuf_printf(&b,
                   "/* Generated by avrogen %s from %s.\n"
                   " * Do not edit: change the schema and run `avrogen header` again.\n"
                   " * `avrogen schema` of this header derives record %s exactly. */\n",
                   h->o->version, h->o->source_name, root->fullname);
    textbuf_printf(&b, "#ifndef %s\n#define %s\n\n", h->o->guard, h->o->guard);
    textbuf_puts(&b, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n");
    textbuf_puts(&b, "#include <avrogen/annotate.h>\n");
    if (o.fwd.len) {
        textbuf_puts(&b, "\n");
        textbuf_append(&b, o.fwd.data, o.fwd.len);
    }
    textbuf_append(&b, o.out.data ? o.out.data : "", o.out.len);
    textbuf_printf(&b, "\n#endif /* %s */\n", h->o->guard);
    textbuf_free(&o.out);
    textbuf_free(&o.fwd);
    free(o.queue);
    size_t len;
    return textbuf_take(&b, &len);
}

/* Every struct, enum and holder of the schema rooted at record `root`. */
static void build_all(struct hdr *h, const avrogen_node *root)
{
    collect_named(h, root, NULL);
    name_types(h);
    record_def(h, root);
    for (size_t i = 0; i < h->n_unbuilt; i++)
        build_record(h, h->unbuilt[i]);
}

/* Free what build_all made, keeping the options, sinks and pointer branches. */
static void hdr_reset(struct hdr *h)
{
    for (size_t i = 0; i < h->n_named; i++) {
        free(h->named[i].tag);
        free(h->named[i].prefix);
    }
    free(h->named);
    for (size_t i = 0; i < h->n_defs; i++) {
        textbuf_free(&h->defs[i].text);
        free(h->defs[i].deps);
        free(h->defs[i].later);
        free(h->defs[i].tag);
    }
    free(h->defs);
    free(h->unbuilt);
    free(h->edges);
    strset_free(&h->globals);
    strset_free(&h->tags);
    strset_free(&h->folded_tags);
    ptrmap_free(&h->named_index);
    *h = (struct hdr){
            .o = h->o, .p = h->p, .sink = h->sink, .pointer_branches = h->pointer_branches};
}

int emit_header(const avrogen_schema *s, const struct emit_header_options *o, char **text,
                struct header_problems *p)
{
    return emit_header_traced(s, o, text, p, NULL);
}

int emit_header_traced(const avrogen_schema *s, const struct emit_header_options *o, char **text,
                       struct header_problems *p, const struct header_ident_sink *sink)
{
    const avrogen_node *root = avrogen_schema_root(s);
    struct hdr h = {.o = o, .p = p, .sink = sink};
    *text = NULL;
    if (root->kind != AVROGEN_KIND_RECORD) {
        const char *kind = avrogen_kind_name(root->kind);
        problem(&h, "the schema",
                "it is %s %s, not a record: a C header holds records (wrap the value in a "
                "record with one field; its binary encoding is the same)",
                strchr("aeiou", kind[0]) ? "an" : "a", kind);
        return 1;
    }
    /* First without the sink and with problems aside: when a record branch
     * closes a cycle of records held by value (python3-avro's Lisp: Cons
     * holds Lisp twice), that branch becomes a pointer and the header is
     * built again; likewise once more for a sink, so it sees each name once. */
    struct header_problems first = {NULL, 0};
    h.p = &first;
    h.sink = NULL;
    build_all(&h, root);
    if (mark_pointer_branches(&h) || sink != NULL) {
        hdr_reset(&h);
        header_problems_free(&first);
        h.p = p;
        h.sink = sink;
        build_all(&h, root);
    } else {
        for (size_t i = 0; i < first.n; i++) {
            p->v = xappend(p->v, p->n, sizeof *p->v);
            p->v[p->n++] = first.v[i];
        }
        free(first.v);
        h.p = p;
    }
    char *out = header_text(&h, root); /* also finds records that hold themselves */
    if (p->n != 0) {
        free(out);
        out = NULL;
    }
    *text = out;
    hdr_reset(&h);
    ptrmap_free(&h.pointer_branches);
    if (p->n != 0)
        return 1;
    return out ? 0 : 2;
}
