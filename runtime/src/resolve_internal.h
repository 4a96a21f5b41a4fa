/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The matching rules of schema resolution (spec §Schema Resolution), shared by
 * the generic resolver (resolve.c), the type plans of generated structs
 * (resolve_type.c) and the compatibility checker (compat.c), so that the three
 * can never disagree on what matches what. Never installed.
 */
#ifndef AVROGEN_RESOLVE_INTERNAL_H
#define AVROGEN_RESOLVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "avrogen/arena.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

/* Named types match by unqualified name, or by a reader alias naming the
 * writer's type (spec §Schema Resolution). */
bool avrogen_names_match(const avrogen_node *w, const avrogen_node *rd);

/* Two decimals (bytes or fixed) match only with the same precision and scale;
 * where one side is not a decimal the logical type plays no part. */
bool avrogen_decimals_match(const avrogen_node *w, const avrogen_node *rd);

/* A writer of kind `w` can be read as kind `rd` by promotion (int to long, ...;
 * string and bytes both ways). False for equal kinds. */
bool avrogen_kind_promotes(avrogen_kind w, avrogen_kind rd);

/*
 * The shallow test that picks a reader union branch for a non-union writer
 * (spec: "the first schema in the reader's union that matches"): same kind or
 * a promotion, named types by name (fixed also by size), arrays and maps by
 * their items. Whether the insides resolve is for the full walk to say.
 */
bool avrogen_branch_matches(const avrogen_node *w, const avrogen_node *rd);

/*
 * The branch of reader union u that a non-union writer type w is read as: the
 * first that matches (spec), except that among named branches one with the
 * writer's full name (or an alias that is it) wins over one that shares only
 * its unqualified name. -1 when none matches.
 */
long avrogen_reader_branch(const avrogen_node *w, const avrogen_node *u);

/* Whether a writer union's branch `wb` can be read at all: it matches `rd`,
 * or one of rd's branches when rd is a union. Branches that cannot fail only
 * when a datum uses them. */
bool avrogen_union_branch_readable(const avrogen_node *wb, const avrogen_node *rd);

/* Index of the reader field the writer's field of that name (or alias) feeds:
 * the index in w->fields of the field that matches reader field `rf`, or -1. */
long avrogen_find_writer_field(const avrogen_node *w, const avrogen_field *rf);

/*
 * What a plan builder (resolve.c, resolve_type.c) keeps while it walks two
 * schemas: where its plans go, where in the reader's schema it is, and its
 * first error, with that path and a reason for the caller's avrogen_diag.
 */
typedef struct avrogen_walk {
    avrogen_arena *arena; /* plans, tables and messages */
    avrogen_status st;    /* the first error, sticky */
    avrogen_diag *why;    /* the caller's, may be NULL */
    char path[256];       /* JSON pointer into the reader's schema */
    size_t path_len;
} avrogen_walk;

/* Zeroed memory from the walk's arena, at least one byte; NULL sets E_NOMEM. */
void *avrogen_walk_alloc(avrogen_walk *w, size_t count, size_t size);

/* A formatted string in the walk's arena (error texts kept by plans). */
AVROGEN_PRINTF(2, 3) const char *avrogen_walk_format(avrogen_walk *w, const char *fmt, ...);

/* Record the first error: status, the current path and the reason. */
AVROGEN_PRINTF(3, 4)
void avrogen_walk_fail(avrogen_walk *w, avrogen_status st, const char *fmt, ...);

/* avrogen_decimals_match, else the walk fails with E_MISMATCH saying why. */
bool avrogen_decimals_agree(avrogen_walk *w, const avrogen_node *wn, const avrogen_node *rd);

/* Named types of the same kind that resolve: the names match, a fixed's size
 * and decimal parameters too; else the walk fails with E_MISMATCH. */
bool avrogen_named_agree(avrogen_walk *w, const avrogen_node *wn, const avrogen_node *rd);

/* Append a path segment ("/fields/" and 3, or "/items"); returns what pop restores. */
size_t avrogen_walk_push(avrogen_walk *w, const char *seg, size_t index, bool with_index);
void avrogen_walk_pop(avrogen_walk *w, size_t old);

#endif /* AVROGEN_RESOLVE_INTERNAL_H */
