/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AVRO_TAG(v, ...) on the members of an AVRO_UNION(tag) union: the tag values
 * that select each member. The payload is the macro-expanded text of the
 * arguments (annotate.h), so a `#define EV_KEY 0x01` arrives as "0x01" and an
 * enumerator as its name; this file evaluates that text as C integer constant
 * expressions (C11 6.6) over integer and character literals, the enumerators
 * of the translation unit, parentheses and the unary and binary integer
 * operators, and checks the values across the union.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>

#include "model_internal.h"

/* ---- evaluating the text ---------------------------------------------- */

struct eval {
    const struct cunit *u;
    const char *p;   /* next character */
    const char *err; /* the first problem, static text */
    const char *err_at;
};

static void skip_space(struct eval *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static bool fail(struct eval *e, const char *why)
{
    if (!e->err) {
        e->err = why;
        e->err_at = e->p;
    }
    return false;
}

/* Consume the operator `op` if it is next (and not the start of a longer one
 * given in `longer`, e.g. "<" before "<<" and "<="). */
static bool take(struct eval *e, const char *op, const char *longer)
{
    skip_space(e);
    size_t n = strlen(op);
    if (strncmp(e->p, op, n) != 0)
        return false;
    if (longer)
        for (const char *l = longer; *l; l++)
            if (e->p[n] == *l)
                return false;
    e->p += n;
    return true;
}

static bool expr(struct eval *e, int64_t *v);

static bool number(struct eval *e, int64_t *v)
{
    const char *s = e->p;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, base == 2 ? 2 : 0);
    if (end == s)
        return fail(e, "a number without digits");
    if (errno == ERANGE || x > INT64_MAX)
        return fail(e, "a number past INT64_MAX");
    while (strchr("uUlL", *end) && *end)
        end++;
    if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
        return fail(e, "not an integer literal");
    e->p = end;
    *v = (int64_t)x;
    return true;
}

static bool character(struct eval *e, int64_t *v)
{
    const char *s = e->p + 1; /* past the quote */
    if (s[0] == '\\') {
        static const char esc[] = "n\nt\tr\r0\0\\\\''\"\"a\ab\bf\fv\v";
        const char *k = NULL;
        for (size_t i = 0; i + 1 < sizeof esc; i += 2)
            if (esc[i] == s[1])
                k = &esc[i + 1];
        if (!k)
            return fail(e, "a character escape other than \\n \\t \\r \\0 \\\\ \\' \\\" \\a \\b "
                           "\\f \\v");
        *v = (unsigned char)*k;
        s += 2;
    } else if (s[0] && s[0] != '\'') {
        *v = (unsigned char)s[0];
        s++;
    } else {
        return fail(e, "an empty character literal");
    }
    if (*s != '\'')
        return fail(e, "a character literal of more than one character");
    e->p = s + 1;
    return true;
}

static bool identifier(struct eval *e, int64_t *v)
{
    const char *s = e->p;
    while (isalnum((unsigned char)*e->p) || *e->p == '_')
        e->p++;
    size_t n = (size_t)(e->p - s);
    for (size_t i = 0; i < e->u->n_constants; i++) {
        const struct cconstant *k = &e->u->constants[i];
        if (strlen(k->name) == n && strncmp(k->name, s, n) == 0) {
            *v = k->value;
            return true;
        }
    }
    e->p = s;
    return fail(e, "a name that is no enumerator (a macro must expand to a constant)");
}

static bool primary(struct eval *e, int64_t *v)
{
    skip_space(e);
    if (take(e, "(", NULL)) {
        if (!expr(e, v))
            return false;
        return take(e, ")", NULL) || fail(e, "a missing ')'");
    }
    if (isdigit((unsigned char)*e->p))
        return number(e, v);
    if (*e->p == '\'')
        return character(e, v);
    if (isalpha((unsigned char)*e->p) || *e->p == '_')
        return identifier(e, v);
    return fail(e, *e->p ? "an unexpected character" : "a missing operand");
}

static bool unary(struct eval *e, int64_t *v)
{
    if (take(e, "-", "-=")) {
        if (!unary(e, v))
            return false;
        if (*v == INT64_MIN)
            return fail(e, "a value past INT64_MAX");
        *v = -*v;
        return true;
    }
    if (take(e, "+", "+="))
        return unary(e, v);
    if (take(e, "~", NULL)) {
        if (!unary(e, v))
            return false;
        *v = ~*v;
        return true;
    }
    if (take(e, "!", "=")) {
        if (!unary(e, v))
            return false;
        *v = !*v;
        return true;
    }
    return primary(e, v);
}

/* Binary operators by precedence, loosest first (C11 6.5.5 to 6.5.14). */
static const struct level {
    const char *ops[4];
    const char *longer[4];
} levels[] = {
        {{"||"}, {NULL}},
        {{"&&"}, {NULL}},
        {{"|"}, {"|="}},
        {{"^"}, {"="}},
        {{"&"}, {"&="}},
        {{"==", "!="}, {NULL, NULL}},
        {{"<=", ">=", "<", ">"}, {NULL, NULL, "<=", ">="}},
        {{"<<", ">>"}, {"=", "="}},
        {{"+", "-"}, {"+=", "-="}},
        {{"*", "/", "%"}, {"=", "=", "="}},
};
#define N_LEVELS (sizeof levels / sizeof *levels)

static bool apply(struct eval *e, const char *op, int64_t a, int64_t b, int64_t *v)
{
    bool over = false;
    if (!strcmp(op, "||"))
        *v = a || b;
    else if (!strcmp(op, "&&"))
        *v = a && b;
    else if (!strcmp(op, "|"))
        *v = a | b;
    else if (!strcmp(op, "^"))
        *v = a ^ b;
    else if (!strcmp(op, "&"))
        *v = a & b;
    else if (!strcmp(op, "=="))
        *v = a == b;
    else if (!strcmp(op, "!="))
        *v = a != b;
    else if (!strcmp(op, "<="))
        *v = a <= b;
    else if (!strcmp(op, ">="))
        *v = a >= b;
    else if (!strcmp(op, "<"))
        *v = a < b;
    else if (!strcmp(op, ">"))
        *v = a > b;
    else if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
        if (b < 0 || b > 62 || a < 0)
            return fail(e, "a shift of a negative value or by a negative or too large count");
        *v = op[0] == '<' ? a << b : a >> b;
        over = op[0] == '<' && (*v >> b) != a;
    } else if (!strcmp(op, "+"))
        over = __builtin_add_overflow(a, b, v);
    else if (!strcmp(op, "-"))
        over = __builtin_sub_overflow(a, b, v);
    else if (!strcmp(op, "*"))
        over = __builtin_mul_overflow(a, b, v);
    else {
        if (b == 0)
            return fail(e, "a division by zero");
        if (a == INT64_MIN && b == -1)
            return fail(e, "a value past INT64_MAX");
        *v = op[0] == '/' ? a / b : a % b;
    }
    return !over || fail(e, "a value outside int64");
}

static bool binary(struct eval *e, size_t level, int64_t *v)
{
    if (level == N_LEVELS)
        return unary(e, v);
    if (!binary(e, level + 1, v))
        return false;
    for (;;) {
        const struct level *l = &levels[level];
        const char *op = NULL;
        for (size_t i = 0; i < 4 && l->ops[i]; i++)
            if (take(e, l->ops[i], l->longer[i])) {
                op = l->ops[i];
                break;
            }
        if (!op)
            return true;
        int64_t rhs;
        if (!binary(e, level + 1, &rhs) || !apply(e, op, *v, rhs, v))
            return false;
    }
}

static bool expr(struct eval *e, int64_t *v)
{
    return binary(e, 0, v);
}

bool tag_values(struct builder *b, const struct cannot *a, const char *member, int64_t **out,
                size_t *n)
{
    struct eval e = {b->u, a->text, NULL, NULL};
    *out = NULL;
    *n = 0;
    skip_space(&e);
    if (!*e.p) {
        diag_error(b->d, &a->loc, "AVRO_TAG on union member '%s' needs at least one tag value",
                   member);
        return false;
    }
    for (;;) {
        int64_t v;
        if (!expr(&e, &v))
            break;
        *out = xappend(*out, *n, sizeof **out);
        (*out)[(*n)++] = v;
        if (take(&e, ",", NULL))
            continue;
        skip_space(&e);
        if (!*e.p)
            return true;
        fail(&e, "an operator C has but this evaluator does not, or a missing ','");
        break;
    }
    char *at = *e.err_at ? xasprintf(" at '%.24s'", e.err_at) : xstrdup("");
    diag_error(b->d, &a->loc,
               "AVRO_TAG(%s) on union member '%s': %s%s; a tag value is an integer constant "
               "expression of literals, enumerators and integer operators",
               a->text, member, e.err, at);
    free(at);
    free(*out);
    *out = NULL;
    *n = 0;
    return false;
}

bool count_bound(struct builder *b, const struct cannot *a, const char *member, uint64_t *out)
{
    const char *text = annot_count_bound(a);
    while (isspace((unsigned char)*text))
        text++;
    struct eval e = {b->u, text, NULL, NULL};
    int64_t v = 0;
    if (expr(&e, &v)) {
        skip_space(&e);
        if (*e.p)
            fail(&e, "an operator C has but this evaluator does not, or a third argument");
        else if (v <= 0 || v > AVROGEN_MODEL_MAX_FLEX)
            fail(&e, "a value outside 1 .. 2^31 - 1");
    }
    if (!e.err) {
        *out = (uint64_t)v;
        return true;
    }
    char *at = e.err_at && *e.err_at ? xasprintf(" at '%.24s'", e.err_at) : xstrdup("");
    diag_error(b->d, &a->loc,
               "%s on '%s': its second argument '%s' (the most items the program allocates "
               "after the struct): %s%s; it is an integer constant expression of literals, "
               "enumerators, macros and integer operators",
               annot_macro(a->kind), member, text, e.err, at);
    free(at);
    return false;
}

/* ---- across the union -------------------------------------------------- */

/* tags[i]: AVRO_TAG on member i of union u (t), or NULL. When any member has
 * one, all must; the values go into u's branches. Duplicates are errors. */
bool check_tags(struct builder *b, const struct site *s, struct model_type *u,
                const struct cannot *const *tags)
{
    size_t first = u->n_branches;
    for (size_t i = 0; i < u->n_branches; i++)
        if (tags[i]) {
            first = i;
            break;
        }
    if (first == u->n_branches)
        return true; /* positional: member i is tag value i */
    bool ok = true;
    for (size_t i = 0; i < u->n_branches; i++) {
        struct model_branch *br = &u->branches[i];
        if (!tags[i]) {
            diag_error(b->d, &br->loc,
                       "union member '%s' of '%s' has no AVRO_TAG, but '%s' has one; when one "
                       "member lists its tag values all must",
                       br->c_name, s->member->name, u->branches[first].c_name);
            ok = false;
            continue;
        }
        if (!tag_values(b, tags[i], br->c_name, &br->tags, &br->n_tags)) {
            ok = false;
            continue;
        }
        for (size_t k = 0; k < br->n_tags; k++) {
            for (size_t j = 0; j <= i; j++) {
                const struct model_branch *o = &u->branches[j];
                size_t end = j == i ? k : o->n_tags;
                for (size_t l = 0; l < end; l++) {
                    if (o->tags[l] != br->tags[k])
                        continue;
                    diag_error(b->d, &tags[i]->loc,
                               "AVRO_TAG on union member '%s': tag value %" PRId64
                               " already selects member '%s'",
                               br->c_name, br->tags[k], o->c_name);
                    diag_note(b->d, &tags[j]->loc, "listed here");
                    ok = false;
                    l = end;
                    j = i + 1;
                }
            }
        }
    }
    return ok;
}

/* Every tag value of u fits its tag member's C type. */
bool check_tag_range(struct builder *b, const struct model_type *u)
{
    long long lo, hi;
    scalar_range(u->tag_scalar, &lo, &hi);
    if (u->tag_scalar == MODEL_SCALAR_U64)
        lo = 0;
    bool ok = true;
    for (size_t i = 0; i < u->n_branches; i++) {
        const struct model_branch *br = &u->branches[i];
        for (size_t k = 0; k < br->n_tags; k++) {
            if (br->tags[k] >= lo && br->tags[k] <= hi)
                continue;
            diag_error(b->d, &br->loc,
                       "AVRO_TAG on union member '%s': tag value %" PRId64
                       " does not fit the tag '%s' of type '%s' (%lld..%lld)",
                       br->c_name, br->tags[k], u->tag_c_name, u->tag_c_type, lo, hi);
            ok = false;
        }
    }
    return ok;
}
