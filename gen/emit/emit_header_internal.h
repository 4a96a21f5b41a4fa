/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What emit_header() chooses, for tests (tests/fuzz/fuzz_names.c): every C
 * identifier the header declares, as the emitter names it. Not part of the
 * generator's interface to the CLI, which calls emit_header() (emit_header.h).
 */
#ifndef AVROGEN_GEN_EMIT_HEADER_INTERNAL_H
#define AVROGEN_GEN_EMIT_HEADER_INTERNAL_H

#include <stdbool.h>

#include "emit_header.h"

/*
 * Called once per identifier: scope NULL for the file scope (record and enum
 * tags, enumerators, the tags of map entries, holders and union kinds, which
 * C++ keeps in one scope), else the struct or union whose member it is, named
 * by its tag ("Order", "Order.u" for the union of member u); is_tag marks the
 * tags of records and enums, whose generated code owns TAG_avro_... and
 * TAG_AVRO_... (DESIGN.md, "C structs from a schema").
 */
struct header_ident_sink {
    void (*ident)(void *ctx, const char *scope, const char *name, bool is_tag);
    void *ctx;
};

/* emit_header(), reporting each identifier to sink (NULL: none). */
int emit_header_traced(const avrogen_schema *s, const struct emit_header_options *o, char **text,
                       struct header_problems *p, const struct header_ident_sink *sink);

#endif /* AVROGEN_GEN_EMIT_HEADER_INTERNAL_H */
