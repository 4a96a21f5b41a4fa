/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema compatibility: can a reader schema read everything a writer schema
 * can write? Unlike building a resolver (resolve.h), which stops at the first
 * pair it cannot plan and tolerates writer union branches or enum symbols that
 * fail only when a datum uses them, the check walks both schemas completely
 * and reports every incompatibility, the way Java's SchemaCompatibility and
 * Python's avro.compatibility do, so its verdicts agree with theirs.
 *
 *     avrogen_compat_report *rep;
 *     if (avrogen_compat_check(avrogen_schema_root(rd), avrogen_schema_root(w), NULL,
 *                              &rep) != AVROGEN_OK)
 *         return fail("out of memory");
 *     for (size_t i = 0; i < avrogen_compat_count(rep); i++) {
 *         const avrogen_incompatibility *x = avrogen_compat_at(rep, i);
 *         printf("%s: %s: %s\n", x->reader_path, avrogen_incompat_name(x->kind), x->message);
 *     }
 *     avrogen_compat_free(rep);
 */
#ifndef AVROGEN_COMPAT_H
#define AVROGEN_COMPAT_H

#include <stddef.h>

#include "avrogen/alloc.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of incompatibility, named as Java's and Python's checkers name them. */
typedef enum avrogen_incompat {
    AVROGEN_INCOMPAT_NAME_MISMATCH,        /* named types: neither name nor alias matches */
    AVROGEN_INCOMPAT_FIXED_SIZE_MISMATCH,  /* fixed: sizes differ */
    AVROGEN_INCOMPAT_MISSING_ENUM_SYMBOLS, /* writer symbols the reader lacks, no default */
    AVROGEN_INCOMPAT_READER_FIELD_MISSING_DEFAULT_VALUE, /* reader field, no writer field */
    AVROGEN_INCOMPAT_TYPE_MISMATCH,                      /* kinds differ and no promotion applies */
    AVROGEN_INCOMPAT_MISSING_UNION_BRANCH /* a writer type no reader branch can read */
} avrogen_incompat;

/* One incompatibility. Every pointer is valid until avrogen_compat_free. */
typedef struct avrogen_incompatibility {
    avrogen_incompat kind;
    /*
     * Where, as JSON pointers into each schema's JSON ("/fields/2/type/items",
     * "/fields/0/type/1" for union branch 1, "/symbols", "/size", "/name"; the
     * root is "/"). A reference to a named type continues inside its single
     * definition's path as reached along this walk.
     */
    const char *reader_path;
    const char *writer_path;
    const char *message;        /* one line, naming the types, field or symbols involved */
    const avrogen_node *reader; /* the reader node at reader_path (a field's type) */
    const avrogen_node *writer; /* the writer node at writer_path, or NULL */
    /*
     * The innermost record field on each path, or NULL when the path crosses no
     * field: for READER_FIELD_MISSING_DEFAULT_VALUE the reader field itself.
     * Lets a caller map an incompatibility back to source (avrogen's build gate
     * names the C member it came from).
     */
    const avrogen_field *reader_field;
    const avrogen_field *writer_field;
} avrogen_incompatibility;

typedef struct avrogen_compat_report avrogen_compat_report;

/*
 * Check whether `reader` can read all data written with `writer`. The rules
 * are the resolution rules of resolve.h, checked exhaustively: every writer
 * union branch must be readable, every writer enum symbol must be in the
 * reader's enum (or the reader's enum has a default), every reader field must
 * have a writer field or a default. Each pair of named types is checked once,
 * so recursive schemas terminate. Reader-field defaults are not re-validated
 * (the parser already did).
 *
 * On AVROGEN_OK *out holds the report, with zero incompatibilities when the
 * pair is compatible; free it with avrogen_compat_free. E_NOMEM otherwise, or
 * E_LIMIT when the walk would nest deeper than 512 levels (only a hostile chain
 * of named types, each naming the next, gets there).
 * Both schemas must outlive the report.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_compat_check(const avrogen_node *reader,
                                                                  const avrogen_node *writer,
                                                                  const avrogen_alloc *alloc,
                                                                  avrogen_compat_report **out);

/* How many incompatibilities (0: compatible), and the i-th, in walk order. */
AVROGEN_API size_t avrogen_compat_count(const avrogen_compat_report *rep);
AVROGEN_API const avrogen_incompatibility *avrogen_compat_at(const avrogen_compat_report *rep,
                                                             size_t i);

/* Free a report; NULL is allowed. */
AVROGEN_API void avrogen_compat_free(avrogen_compat_report *rep);

/* "name_mismatch", "type_mismatch", ...: the names Java and Python print. */
AVROGEN_API const char *avrogen_incompat_name(avrogen_incompat kind);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_COMPAT_H */
