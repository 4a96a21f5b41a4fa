/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the names `avrogen header` gives (gen/emit/emit_header.c,
 * DESIGN.md "C structs from a schema"): schema text -> the parsed schema ->
 * emit_header_traced(), which reports every identifier it declares. Compiling
 * the header is too slow to fuzz; instead each identifier is held to the rules
 * the header must keep, checked here independently of the emitter's own
 * tables, and the target aborts when one is broken:
 *  - it is a C identifier, not reserved (`_X`, `__` anywhere), not a keyword
 *    of C or C++, and none of the macros or reserved patterns of the standard
 *    headers a user includes next to it (errno, NAN, EOF, EINVAL, SIGTERM,
 *    PRIx64, INT8_..., ...) nor avrogen's own (avrogen..., AVRO_...);
 *  - it holds no "_avro_" (in any case) and does not end in "_avro": those
 *    are the generated code's (TAG_avro_encode, TAG_AVRO_FINGERPRINT);
 *  - it is declared once in its scope (file scope: tags, enumerators, entry,
 *    holder and kind types; a struct's or union's members), and no two record
 *    or enum tags are equal but for case (one TAG_AVRO_FINGERPRINT macro);
 *  - it appears in the header text.
 * The seeds are tests/header/schemas and tests/data/schema/pass.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"

#include "emit/emit_header_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ident {
    char *scope; /* NULL: file scope */
    char *name;
    bool is_tag;
};

struct seen {
    struct ident *v;
    size_t n, cap;
};

static void note(void *ctx, const char *scope, const char *name, bool is_tag)
{
    struct seen *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n].scope = scope ? strdup(scope) : NULL;
    s->v[s->n].name = strdup(name);
    s->v[s->n].is_tag = is_tag;
    if (!s->v[s->n].name || (scope && !s->v[s->n].scope))
        abort();
    s->n++;
}

static bool is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static bool is_lower(char c)
{
    return c >= 'a' && c <= 'z';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char fold(char c)
{
    return is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Keywords of C and C++, and names the usual headers define as macros. */
static const char *const words[] = {
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char8_t",
        "char16_t",
        "char32_t",
        "class",
        "compl",
        "complex",
        "concept",
        "const",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "continue",
        "co_await",
        "co_return",
        "co_yield",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "imaginary",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "noreturn",
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "typeof",
        "typeof_unqual",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "xor",
        "xor_eq",
        "errno",
        "assert",
        "offsetof",
        "linux",
        "unix",
        "i386",
        "stdin",
        "stdout",
        "stderr",
        "NULL",
        "EOF",
        "NAN",
        "INFINITY",
        "I",
        "BUFSIZ",
        "FILENAME_MAX",
        "FOPEN_MAX",
        "TMP_MAX",
        "RAND_MAX",
        "MB_CUR_MAX",
        "HUGE_VAL",
        "CHAR_BIT",
        "CLOCKS_PER_SEC",
        "NDEBUG",
        "size_t",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
};

static const char *const prefixes[] = {
        "avrogen", "AVROGEN", "AVRO_", "INT8_",  "INT16_", "INT32_",  "INT64_", "UINT8_", "UINT16_",
        "UINT32_", "UINT64_", "INT_",  "UINT_",  "SIZE_",  "EXIT_",   "SEEK_",  "FP_",    "FE_",
        "LC_",     "SIG_",    "SA_",   "CLOCK_", "TIMER_", "CHAR_",   "FLT_",   "DBL_",   "LDBL_",
        "M_",      "O_",      "F_",    "S_",     "AT_",    "ATOMIC_",
};

/* Whether s is one or more of [A-Z0-9]. */
static bool all_caps(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!is_upper(*s) && !is_digit(*s))
            return false;
    return true;
}

/* Why `s` may not be declared by the header, or NULL. */
static const char *forbidden(const char *s)
{
    if (!(is_upper(s[0]) || is_lower(s[0]) || s[0] == '_'))
        return "not a C identifier";
    for (const char *p = s; *p; p++)
        if (!(is_upper(*p) || is_lower(*p) || is_digit(*p) || *p == '_'))
            return "not a C identifier";
    if (s[0] == '_' && (is_upper(s[1]) || s[1] == '_'))
        return "reserved (C11 7.1.3)";
    if (strstr(s, "__"))
        return "holds __ (reserved in C++)";
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(s, words[i]) == 0)
            return "a keyword or a standard header's name";
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (starts_with(s, prefixes[i]))
            return "a standard header's or avrogen's prefix";
    /* The whole name, as DESIGN states the patterns: the shape of every
     * errno and signal macro (EINVAL, SIGTERM), not E or SIG then anything. */
    if (all_caps(s[0] == 'E' ? s + 1 : starts_with(s, "SIG") ? s + 3 : ""))
        return "<errno.h>'s E[0-9A-Z]* or <signal.h>'s SIG[A-Z0-9]*";
    if ((starts_with(s, "PRI") || starts_with(s, "SCN")) && (is_lower(s[3]) || s[3] == 'X'))
        return "<inttypes.h>'s PRI/SCN";
    size_t n = strlen(s);
    for (size_t i = 0; i + 5 <= n; i++) {
        char w[6];
        for (size_t k = 0; k < 5; k++)
            w[k] = fold(s[i + k]);
        w[5] = '\0';
        if (strcmp(w, "_avro") == 0 && (i + 5 == n || s[i + 5] == '_'))
            return "spelled like the generated code's names (_avro_)";
    }
    return NULL;
}

static bool same_scope(const struct ident *a, const struct ident *b)
{
    return (a->scope == NULL) == (b->scope == NULL) &&
           (a->scope == NULL || strcmp(a->scope, b->scope) == 0);
}

static bool equal_but_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (fold(*a) != fold(*b))
            return false;
    return *a == *b;
}

/* Whether `name` appears in text as a whole identifier. */
static bool in_text(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        bool word_before =
                is_upper(before) || is_lower(before) || is_digit(before) || before == '_';
        bool word_after = is_upper(after) || is_lower(after) || is_digit(after) || after == '_';
        if (!word_before && !word_after)
            return true;
    }
    return false;
}

static void fail(const struct ident *a, const char *why)
{
    fprintf(stderr, "fuzz_names: '%s' (%s%s): %s\n", a->name,
            a->scope ? "member of " : "file scope", a->scope ? a->scope : "", why);
    abort();
}

static void check(const struct seen *s, const char *text)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct ident *a = &s->v[i];
        const char *why = forbidden(a->name);
        if (why)
            fail(a, why);
        if (!in_text(text, a->name))
            fail(a, "not in the header");
        /* Quadratic, on the few names of a fuzzer's input. */
        for (size_t k = 0; k < i; k++) {
            const struct ident *b = &s->v[k];
            if (same_scope(a, b) && strcmp(a->name, b->name) == 0)
                fail(a, "declared twice in its scope");
            if (a->is_tag && b->is_tag && equal_but_case(a->name, b->name))
                fail(a, "a tag equal to another but for case");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    avrogen_schema *schema;
    if (avrogen_schema_parse((const char *)data, size, NULL, &schema, NULL) != AVROGEN_OK)
        return 0;
    struct emit_header_options o = {"fuzz.avsc", "FUZZ_AVSC_H", "0", size > 0 && data[0] & 1};
    struct seen seen = {NULL, 0, 0};
    struct header_ident_sink sink = {note, &seen};
    struct header_problems problems = {NULL, 0};
    char *text = NULL;
    if (emit_header_traced(schema, &o, &text, &problems, &sink) == 0) {
        if (!text)
            abort();
        check(&seen, text);
    }
    free(text);
    header_problems_free(&problems);
    for (size_t i = 0; i < seen.n; i++) {
        free(seen.v[i].scope);
        free(seen.v[i].name);
    }
    free(seen.v);
    avrogen_schema_free(schema);
    return 0;
}
