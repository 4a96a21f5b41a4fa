/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The proof behind `avrogen header`: the whole pipeline (libclang → model →
 * .avsc) run on a header emit_header() wrote, so it sits above the emitters.
 */
#ifndef AVROGEN_GEN_HEADER_VERIFY_H
#define AVROGEN_GEN_HEADER_VERIFY_H

#include <stdio.h>

#include "avrogen/schema.h"

/*
 * The round-trip proof (header_verify.c): run the generator on header `text`
 * as the file `name` and compare the schema it derives for the root record of
 * `want` with `want` (avsc_compare.h). 0 when they agree; 1 when they differ
 * or the generator rejects the header, after printing why to `err` (the
 * generator's messages name `name`); 2 on an internal error.
 */
int header_verify(const char *text, const char *name, const avrogen_schema *want, FILE *err);

#endif /* AVROGEN_GEN_HEADER_VERIFY_H */
