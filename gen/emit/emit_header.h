/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reverse mapping (`avrogen header`): the annotated C header of an
 * existing record schema, written so that the generator's own C → Avro
 * mapping derives that schema again (DESIGN.md "C structs from a schema").
 * emit_header() works on a parsed schema only: no libclang, no jansson.
 * header_verify() (header_verify.h) then runs the generator on the result.
 */
#ifndef AVROGEN_GEN_EMIT_HEADER_H
#define AVROGEN_GEN_EMIT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "avrogen/schema.h"

struct emit_header_options {
    const char *source_name; /* named in the banner: "order.avsc" */
    const char *guard;       /* the include guard macro */
    const char *version;     /* avrogen's version, for the banner */
    bool views;              /* strings as avrogen_str instead of char * */
};

/* Why a schema has no header: one "PATH: reason" line per problem. */
struct header_problems {
    char **v;
    size_t n;
};

void header_problems_free(struct header_problems *p);

/*
 * The header for schema s, whose root must be a record: *text receives the
 * malloc'd, NUL-terminated header and the result is 0. When some part of s
 * has no C representation the result is 1, *text is NULL and p holds every
 * reason, each naming the place in the schema ("Order.lines.items: ...").
 */
int emit_header(const avrogen_schema *s, const struct emit_header_options *o, char **text,
                struct header_problems *p);

#endif /* AVROGEN_GEN_EMIT_HEADER_H */
