/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Avro schemas (spec §Schema Declaration): parse .avsc JSON into an immutable
 * model with the specification's full validation, Parsing Canonical Form, and
 * fingerprints (CRC-64-AVRO, MD5, SHA-256).
 *
 * A parsed avrogen_schema owns every node reachable from its root; nodes are
 * read-only, may be shared across threads, and live until avrogen_schema_free.
 * Named types referenced by name point at their single definition, so a
 * recursive schema is a graph with cycles: walk it with a depth or visited set.
 *
 *     avrogen_schema *s;
 *     avrogen_diag d;
 *     if (avrogen_schema_parse(text, len, NULL, &s, &d) != AVROGEN_OK)
 *         return fail(d.msg); // d.path: where in the JSON
 *     puts(avrogen_schema_canonical(s));
 *     avrogen_schema_free(s);
 */
#ifndef AVROGEN_SCHEMA_H
#define AVROGEN_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum avrogen_kind {
    AVROGEN_KIND_NULL,
    AVROGEN_KIND_BOOLEAN,
    AVROGEN_KIND_INT,
    AVROGEN_KIND_LONG,
    AVROGEN_KIND_FLOAT,
    AVROGEN_KIND_DOUBLE,
    AVROGEN_KIND_BYTES,
    AVROGEN_KIND_STRING,
    AVROGEN_KIND_RECORD,
    AVROGEN_KIND_ENUM,
    AVROGEN_KIND_ARRAY,
    AVROGEN_KIND_MAP,
    AVROGEN_KIND_UNION,
    AVROGEN_KIND_FIXED
} avrogen_kind;

/* spec §Logical Types. A logical type that breaks its rules is ignored (NONE). */
typedef enum avrogen_logical {
    AVROGEN_LOGICAL_NONE,
    AVROGEN_LOGICAL_DECIMAL,                /* bytes or fixed; precision, scale */
    AVROGEN_LOGICAL_UUID,                   /* string or fixed(16) */
    AVROGEN_LOGICAL_DATE,                   /* int */
    AVROGEN_LOGICAL_TIME_MILLIS,            /* int */
    AVROGEN_LOGICAL_TIME_MICROS,            /* long */
    AVROGEN_LOGICAL_TIMESTAMP_MILLIS,       /* long */
    AVROGEN_LOGICAL_TIMESTAMP_MICROS,       /* long */
    AVROGEN_LOGICAL_TIMESTAMP_NANOS,        /* long */
    AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS, /* long */
    AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS, /* long */
    AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS,  /* long */
    AVROGEN_LOGICAL_DURATION                /* fixed(12) */
} avrogen_logical;

typedef enum avrogen_order {
    AVROGEN_ORDER_ASCENDING,
    AVROGEN_ORDER_DESCENDING,
    AVROGEN_ORDER_IGNORE
} avrogen_order;

typedef struct avrogen_node avrogen_node;

typedef struct avrogen_field {
    const char *name;
    const char *doc;            /* NULL when absent */
    const char *const *aliases; /* n_aliases names, as written */
    size_t n_aliases;
    const avrogen_node *type;
    const char *default_json; /* the default as compact JSON text, NULL when none */
    avrogen_order order;
    size_t index; /* position in the record */
} avrogen_field;

struct avrogen_node {
    avrogen_kind kind;
    avrogen_logical logical;
    const char *logical_name; /* "logicalType" as written, even if ignored; or NULL */
    /* Named types (record, enum, fixed). */
    const char *fullname;   /* "ns.Name", or "Name" in the null namespace */
    const char *name;       /* the last component of fullname */
    const char *namespace_; /* NULL for the null namespace */
    const char *doc;
    const char *const *aliases; /* fully qualified */
    size_t n_aliases;
    /* record */
    const avrogen_field *fields;
    size_t n_fields;
    /* enum */
    const char *const *symbols;
    size_t n_symbols;
    long enum_default; /* index into symbols, or -1 */
    /* array items / map values */
    const avrogen_node *items;
    /* union */
    const avrogen_node *const *branches;
    size_t n_branches;
    /* fixed */
    size_t size;
    /* decimal */
    int precision;
    int scale;
    /*
     * What the parser derives once, in one pass, for readers' bounds (a walk
     * of shared subtrees per use would be exponential: two fields of the same
     * record type double the work at every level).
     */
    size_t min_size;     /* fewest bytes a value encodes in; SIZE_MAX: no finite value.
                            0 exactly for null, fixed(0) and records of those, whose
                            every value takes no bytes at all */
    size_t zero_records; /* min_size 0: the records in one value (saturating) */
    bool recursive;      /* a record that can contain itself */
};

typedef struct avrogen_schema avrogen_schema;

/*
 * Parse and validate `len` bytes of schema JSON. On success *out owns the model
 * (free with avrogen_schema_free). On failure returns AVROGEN_E_SCHEMA (or
 * E_NOMEM), fills `diag` (may be NULL) with the JSON path and the reason, and
 * leaves *out NULL. Allocates through `alloc` (NULL: libc).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_schema_parse(const char *json, size_t len,
                                                                  const avrogen_alloc *alloc,
                                                                  avrogen_schema **out,
                                                                  avrogen_diag *diag);

/* The most bytes avrogen_schema_parse_file reads: 16 MiB, the default
 * max_header_size of a container file's reader (ocf.h), which holds its schema
 * in its header, and the bound of the command line's SCHEMA arguments. */
#define AVROGEN_SCHEMA_FILE_MAX (16 << 20)

/*
 * Parse the file at `path` (a regular file or a pipe); like
 * avrogen_schema_parse, with E_IO if it cannot be opened or read or is a
 * directory, a device or a socket (refused before reading), and E_LIMIT if it
 * holds more than AVROGEN_SCHEMA_FILE_MAX bytes (never read past that).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_schema_parse_file(const char *path,
                                                                       const avrogen_alloc *alloc,
                                                                       avrogen_schema **out,
                                                                       avrogen_diag *diag);

AVROGEN_API void avrogen_schema_free(avrogen_schema *s);

AVROGEN_API const avrogen_node *avrogen_schema_root(const avrogen_schema *s);

/* Parsing Canonical Form (spec §Parsing Canonical Form), NUL-terminated, owned by s. */
AVROGEN_API const char *avrogen_schema_canonical(const avrogen_schema *s);

/* CRC-64-AVRO fingerprint of the canonical form (the spec's Rabin fingerprint). */
AVROGEN_API uint64_t avrogen_schema_fingerprint64(const avrogen_schema *s);

/* The named type `fullname` defined in s, or NULL. */
AVROGEN_API const avrogen_node *avrogen_schema_find(const avrogen_schema *s, const char *fullname);

/* True for record, enum and fixed. */
static inline bool avrogen_node_is_named(const avrogen_node *n)
{
    return n->kind == AVROGEN_KIND_RECORD || n->kind == AVROGEN_KIND_ENUM ||
           n->kind == AVROGEN_KIND_FIXED;
}

/* "null", "record", ...: the Avro name of a kind. */
AVROGEN_API const char *avrogen_kind_name(avrogen_kind k);

/* How Avro names a type where one is expected (union branches in the JSON
 * encoding, messages): the fullname of a named type, else its kind's name. */
static inline const char *avrogen_node_name(const avrogen_node *n)
{
    return avrogen_node_is_named(n) && n->fullname != NULL ? n->fullname
                                                           : avrogen_kind_name(n->kind);
}

/* The branch index of `u` (a union) whose type is `kind` (and, for named types,
 * whose fullname is `name`), or -1. */
AVROGEN_API long avrogen_union_find(const avrogen_node *u, avrogen_kind kind, const char *name);

/* ---- fingerprints over arbitrary bytes ---- */

/* CRC-64-AVRO (spec §Schema Fingerprints), empty-value 0xc15d213aa4d7a795. */
AVROGEN_API uint64_t avrogen_crc64_avro(const void *data, size_t len);
/* MD5 and SHA-256 of `len` bytes into `out` (16 / 32 bytes); false if libcrypto failed. */
AVROGEN_API bool avrogen_md5(const void *data, size_t len, uint8_t out[16]);
AVROGEN_API bool avrogen_sha256(const void *data, size_t len, uint8_t out[32]);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_SCHEMA_H */
