/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema facts `avrogen header` must keep or must admit to losing: whether
 * two parsed schemas agree in their Parsing Canonical Form and in every
 * attribute the annotations carry (doc, aliases, defaults, order, logical
 * types), and which attributes of a schema's JSON no annotation carries
 * (unknown properties, logical types the specification says to ignore).
 * With emit_avsc.c, the generator's files that use jansson.
 */
#ifndef AVROGEN_GEN_AVSC_COMPARE_H
#define AVROGEN_GEN_AVSC_COMPARE_H

#include <stddef.h>

#include "avrogen/schema.h"

/*
 * 0 when `got` has the canonical form of `want` and the same doc, aliases,
 * field defaults, orders and logical types everywhere; else 1 with *why set
 * to a malloc'd "PATH: what differs" (the first difference found).
 */
int avsc_compare(const avrogen_schema *want, const avrogen_schema *got, char **why);

/*
 * Report every attribute of schema JSON `json` (whose parse is `s`) that a
 * header cannot carry: `report(ctx, path, what)` once per attribute, in
 * document order, path like "fields[2].type". Nothing when json does not
 * parse (the caller has parsed it already).
 */
void avsc_dropped(const char *json, size_t len, const avrogen_schema *s,
                  void (*report)(void *ctx, const char *path, const char *what), void *ctx);

#endif /* AVROGEN_GEN_AVSC_COMPARE_H */
