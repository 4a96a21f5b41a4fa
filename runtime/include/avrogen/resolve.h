/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema resolution (spec §Schema Resolution) for generic values: read data
 * written with one schema (the writer's) as values of another (the reader's).
 * The work of matching the two schemas is done once, when the resolver is
 * built; decoding a datum then follows the prepared plan without looking at
 * names, aliases or defaults again.
 *
 *     avrogen_resolver *res;
 *     avrogen_diag why;
 *     if (avrogen_resolver_new(avrogen_schema_root(w), avrogen_schema_root(rd), NULL, &res,
 *                              &why) != AVROGEN_OK)
 *         fprintf(stderr, "%s: %s\n", why.path, why.msg);
 *     while (avrogen_reader_remaining(&r) != 0 &&
 *            avrogen_resolver_decode(res, &r, &v, &arena) == AVROGEN_OK)
 *         use(&v);           // v is shaped like the reader's schema
 *     avrogen_resolver_free(res);
 *
 * What it does not do: generated code (structs) and the `compat` checker are
 * separate work (issue 7); this is the generic-value slice only.
 */
#ifndef AVROGEN_RESOLVE_H
#define AVROGEN_RESOLVE_H

#include "avrogen/alloc.h"
#include "avrogen/arena.h"
#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"
#include "avrogen/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct avrogen_resolver avrogen_resolver;

/*
 * Build the plan for reading data written with `writer` as values of `reader`.
 * Both nodes (and their schemas) must outlive the resolver, which only borrows
 * them. The rules are the specification's:
 *
 *   - records and other named types match when the reader's fullname, or one of
 *     the reader's aliases, is the writer's fullname; fields match by name or
 *     by one of the reader field's aliases. A writer field the reader lacks is
 *     skipped; a reader field the writer lacks takes its default;
 *   - int promotes to long, float, double; long to float, double; float to
 *     double; string and bytes read as each other;
 *   - enums match symbols by name; a writer symbol the reader lacks becomes the
 *     reader's enum default, or, without one, fails when a datum uses it;
 *   - a writer union resolves each branch separately (a branch with no match
 *     fails when a datum uses it); a reader union takes the first branch
 *     that matches a non-union writer;
 *   - recursive types terminate: each (writer, reader) pair of named types is
 *     planned once.
 *
 * On success *out owns the plan (avrogen_resolver_free). On failure *out is
 * NULL and the result is E_MISMATCH when the schemas cannot be resolved (a
 * reader field with no default and no writer field, incompatible types, no
 * branch of a writer union matches at all), E_SCHEMA when a reader default does
 * not match its field's type, or E_NOMEM. `why` (may be NULL) then has the path
 * in the reader's schema ("/fields/1/type") and the reason. Allocates through
 * `alloc` (NULL: libc).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_resolver_new(const avrogen_node *writer,
                                                                  const avrogen_node *reader,
                                                                  const avrogen_alloc *alloc,
                                                                  avrogen_resolver **out,
                                                                  avrogen_diag *why);

/* Free a resolver and its plan; NULL is allowed. */
AVROGEN_API void avrogen_resolver_free(avrogen_resolver *res);

/*
 * Decode one top-level datum written with the resolver's writer schema from r
 * into *out, shaped like its reader schema (every value's `type` is a reader
 * node). Starts a datum (avrogen_reader_begin_datum); strings and bytes are
 * copied into `a`, defaults are decoded into `a` too. Several threads may decode
 * with one resolver at once.
 *
 * Returns r->err: every status of avrogen_value_read, plus E_MISMATCH for a
 * datum that uses a writer enum symbol or union branch the reader cannot take.
 * Then r->err_msg names the symbol or branch; that text belongs to the resolver
 * and is valid until it is freed.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_resolver_decode(const avrogen_resolver *res,
                                                                     avrogen_reader *r,
                                                                     avrogen_value *out,
                                                                     avrogen_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_RESOLVE_H */
