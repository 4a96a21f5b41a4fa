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
 *         return fail(why.msg); // why.path: where in the reader's schema
 *     while (avrogen_reader_remaining(&r) != 0 &&
 *            avrogen_resolver_decode(res, &r, &v, &arena) == AVROGEN_OK)
 *         use(&v);           // v is shaped like the reader's schema
 *     avrogen_resolver_free(res);
 *
 * Generated types resolve too: an avrogen_type_plan reads a writer's bytes
 * straight into a generated struct, following the struct's avrogen_type
 * descriptor, and avrogen_decode_as() picks the fastest way for a writer
 * fingerprint (the direct decoder, an ahead-of-time decoder, or a cached plan):
 *
 *     avrogen_plan_cache *cache = avrogen_plan_cache_new(NULL);
 *     st = avrogen_decode_as(&order_avro_type, cache, writer_fp, writer_schema, &r,
 *                            &order, &arena);
 *
 * The full compatibility check (every problem, not the first) is compat.h.
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
 * not match its field's type, E_LIMIT when the walk nests deeper than 512
 * levels (only a hostile chain of named types does), or E_NOMEM. `why` (may be
 * NULL) then has the path
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

/* ---- generated types ------------------------------------------------------
 *
 * A type plan is the resolver's plan with C storage as the target: for each
 * writer field, either skip its bytes or decode them (promoting numbers,
 * mapping enum symbols to C enumerator values, choosing union branches) into
 * the member the reader's descriptor names; reader fields the writer lacks are
 * filled from their defaults. The result is what `P_avro_decode` would produce
 * from the same datum written with the reader's own schema, with the same
 * ownership rules: arrays, maps and char * strings from the arena, views into
 * the input (defaults' views into the plan, which must then outlive them).
 */
typedef struct avrogen_type_plan avrogen_type_plan;

/*
 * Build the plan for reading data written with `writer` (a record schema, or
 * a union holding one) into the generated record described by `reader` (its
 * `schema` must be set: a record of a generated header). The rules, errors
 * and `why` are those of avrogen_resolver_new, with paths in the reader's
 * schema, plus:
 *
 *   - E_ARG when `reader` is not such a record, or its descriptor does not
 *     describe its schema (not what the generator emits);
 *   - E_SCHEMA when a default the plan needs does not fit its C type (a
 *     string longer than its char array, a C array default of another length):
 *     each default is decoded once here, so a plan that builds can always
 *     fill them.
 *
 * `writer` is borrowed and must outlive the plan; `reader` is static data.
 * Allocates through `alloc` (NULL: libc), only here: decoding allocates from
 * the caller's arena alone.
 *
 *     avrogen_type_plan *plan;
 *     if (avrogen_type_plan_new(avrogen_schema_root(w), &order_avro_type, NULL, &plan,
 *                               &why) != AVROGEN_OK)
 *         return fail(why.msg);
 *     st = avrogen_type_plan_decode(plan, &r, &order, &arena);
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_type_plan_new(const avrogen_node *writer,
                                                                   const avrogen_type *reader,
                                                                   const avrogen_alloc *alloc,
                                                                   avrogen_type_plan **out,
                                                                   avrogen_diag *why);

/* Free a type plan; NULL is allowed. */
AVROGEN_API void avrogen_type_plan_free(avrogen_type_plan *p);

/*
 * Decode one datum written with the plan's writer schema into *dst, a struct
 * of the plan's reader type. Returns r->err, as P_avro_decode does (on error
 * all of *dst is zeroed), plus E_MISMATCH for a datum using a writer enum
 * symbol or union branch the reader cannot take (r->err_msg then belongs to
 * the plan). Values Avro allows but the reader's C types cannot hold fail as
 * in P_avro_decode, with E_INVALID: an int outside a narrower C integer (also
 * an int promoted to a long held in uint32_t), a string longer than its char
 * array, a C array given another number of items, more items than a count
 * member holds; the generic resolver, having no C types, reads those. Limits
 * are P_avro_decode's too: recursive records take a nesting level each, every
 * array or map item (defaults' included) counts against the datum's item
 * budget. Thread-safe for one plan.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_type_plan_decode(const avrogen_type_plan *p,
                                                                      avrogen_reader *r, void *dst,
                                                                      avrogen_arena *a);

/*
 * Plans keyed by (writer fingerprint, reader): built once, then found by the
 * writer's CRC-64-AVRO fingerprint alone, so decoding a stream of records
 * tagged with writer fingerprints (single-object encoding, a schema registry,
 * container files) does no schema work per record. The cache keeps its own
 * copy of each writer schema (its canonical form, re-parsed: resolution needs
 * nothing else of a writer): callers need not keep theirs. Readers (nodes and
 * types) are keyed by address and must outlive the cache.
 *
 * The cache never evicts: every distinct writer schema presented costs an
 * entry (its schema and plan, or a remembered failure) until the cache is
 * freed. A caller facing writers it does not control bounds how many schemas
 * it accepts, or frees and recreates the cache.
 *
 * Not thread-safe: give each thread its own cache, or lock around calls;
 * plans handed out are immutable and stay valid until the cache is freed.
 */
typedef struct avrogen_plan_cache avrogen_plan_cache;

/* A new, empty cache (NULL on out of memory). */
AVROGEN_API avrogen_plan_cache *avrogen_plan_cache_new(const avrogen_alloc *alloc);

/* Free a cache and every plan in it; NULL is allowed. */
AVROGEN_API void avrogen_plan_cache_free(avrogen_plan_cache *c);

/*
 * The generic resolver for (writer, reader), built and remembered on first use.
 * Keyed by the writer's fingerprint and the reader node's address. A pair that
 * failed to resolve is remembered too and fails again, with the same `why`,
 * without being rebuilt; E_NOMEM is not remembered (a later call builds).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_plan_cache_resolver(
        avrogen_plan_cache *c, const avrogen_schema *writer, const avrogen_node *reader,
        const avrogen_resolver **out, avrogen_diag *why);

/* The same for a generated type: the type plan for (writer, reader). */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_plan_cache_type_plan(
        avrogen_plan_cache *c, const avrogen_schema *writer, const avrogen_type *reader,
        const avrogen_type_plan **out, avrogen_diag *why);

/*
 * Decode one datum written with the schema whose fingerprint is `writer_fp`
 * into *dst, a struct of generated record type `t`:
 *
 *   1. writer_fp is t's own fingerprint: t->decode, the direct decoder;
 *   2. t has an ahead-of-time decoder for writer_fp (t->resolved): that;
 *   3. otherwise the type plan from `cache`, built from `writer` the first
 *      time (writer may be NULL when the cache already has the plan).
 *
 * Returns what the chosen decoder returns, or fails before decoding, with
 * *dst zeroed and r->err_msg saying why: E_MISMATCH when the writer is unknown
 * and `writer` is NULL or `cache` is NULL, E_ARG when `writer`'s fingerprint
 * is not writer_fp, E_NOMEM, or the status the plan's build gave (E_MISMATCH
 * when the schemas do not resolve; the message is "path: reason"). Those
 * messages live in the cache: until it is freed, and for an unknown writer
 * until the next call on it.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_decode_as(const avrogen_type *t, avrogen_plan_cache *cache, uint64_t writer_fp,
                  const avrogen_schema *writer, avrogen_reader *r, void *dst, avrogen_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_RESOLVE_H */
