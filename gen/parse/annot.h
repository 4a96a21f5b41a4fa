/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Payloads of the annotation macros. Option macros (AVRO_RECORD, AVRO_ENUM,
 * AVRO_FIELD and the out-of-line markers) carry `key = JSON literal` pairs
 * separated by commas; shape macros carry bare tokens (a member name, a logical
 * type, `precision,scale`). This parser checks the grammar and the JSON syntax
 * and reports mistakes at the annotation's own position; which keys a macro
 * accepts and what their values must be is the model builder's business.
 * JSON is parsed here without jansson: only emit_avsc.c may include it.
 */
#ifndef AVROGEN_GEN_ANNOT_H
#define AVROGEN_GEN_ANNOT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "parse.h"

enum annot_json {
    ANNOT_JSON_NULL,
    ANNOT_JSON_BOOL,
    ANNOT_JSON_NUMBER,
    ANNOT_JSON_STRING,
    ANNOT_JSON_ARRAY,
    ANNOT_JSON_OBJECT
};

struct annot_option {
    char *key;
    char *json; /* the value as compact JSON (no whitespace outside strings) */
    enum annot_json type;
    char *str;   /* STRING: the decoded UTF-8 text (NUL inside is rejected) */
    char **strs; /* ARRAY whose elements are all strings: them, decoded */
    size_t n_strs;
    bool all_strings; /* ARRAY: every element is a string (true when empty) */
};

struct annot_options {
    struct annot_option *v;
    size_t n;
};

/* The user-facing macro for an annotation kind: "record" → "AVRO_RECORD". */
const char *annot_macro(const char *kind);

/* The kind of the annotation macro spelled `ident` ("AVRO_NULLABLE" →
 * "nullable"), with *takes_args (may be NULL) set for a function-like one; NULL
 * when `ident` is no annotation macro. */
const char *annot_macro_kind(const char *ident, bool *takes_args);

/* The annotation macro that `ident`, an `AVRO_` identifier that is none,
 * most likely misspells ("AVRO_NULLABEL" → "AVRO_NULLABLE"), or NULL. */
const char *annot_suggest_macro(const char *ident);

/*
 * Parse `a->text` as `key = JSON, ...` into *out (empty text: no options).
 * Each key may appear once. On a syntax error, reports it at a->loc and returns
 * false (*out is then empty). Free with annot_options_free.
 */
bool annot_parse_options(const struct cannot *a, struct diag *d, struct annot_options *out);

void annot_options_free(struct annot_options *o);

/* The option `key`, or NULL. */
const struct annot_option *annot_find(const struct annot_options *o, const char *key);

/*
 * A bare token argument with whitespace removed, which must be a C identifier
 * (AVRO_ARRAY, AVRO_MAP, AVRO_UNION). Returns a malloc'd copy or NULL after
 * reporting the problem at a->loc.
 */
char *annot_parse_identifier(const struct cannot *a, struct diag *d);

/* AVRO_ARRAY / AVRO_STRING / AVRO_BYTES(count_field, max) on a flexible array
 * member: the text of `max` macro-expanded, or NULL when there is no second
 * argument. annot_parse_identifier returns the count_field of these. */
const char *annot_count_bound(const struct cannot *a);

/* The text of AVRO_LOGICAL / AVRO_FIXED_NAME with whitespace removed; NULL
 * (reported) when empty. */
char *annot_parse_token(const struct cannot *a, struct diag *d);

/* AVRO_DECIMAL(precision, scale): two non-negative decimal integers. Reports
 * and returns false on anything else. */
bool annot_parse_decimal(const struct cannot *a, struct diag *d, int *precision, int *scale);

/* Validate `text` as one JSON value; true and a malloc'd compact copy in
 * *compact (may be NULL), or false with a short reason in why[n]. */
bool annot_json_compact(const char *text, char **compact, char *why, size_t n);

#endif /* AVROGEN_GEN_ANNOT_H */
