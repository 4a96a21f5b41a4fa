/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals of the schema module shared by schema.c, schema_canonical.c and
 * schema_table.c: the schema object itself and a small string-keyed hash table
 * (named types by fullname, duplicate field names and enum symbols). Nothing
 * here is public API; other runtime modules may include it to reach the
 * definition of struct avrogen_schema but should prefer the accessors.
 */
#ifndef AVROGEN_SCHEMA_INTERNAL_H
#define AVROGEN_SCHEMA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"
#include "avrogen/arena.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

/* Open-addressing hash table from a byte string to a pointer. Keys are not
 * copied: they must outlive the table. Slots come from `alloc`. */
typedef struct avrogen_strtab_slot {
    const char *key; /* NULL marks an empty slot */
    size_t len;
    const void *value;
} avrogen_strtab_slot;

typedef struct avrogen_strtab {
    avrogen_strtab_slot *slots;
    size_t cap;   /* 0 or a power of two */
    size_t count; /* occupied slots; kept <= cap / 2 */
    avrogen_alloc alloc;
} avrogen_strtab;

void avrogen_strtab_init(avrogen_strtab *t, const avrogen_alloc *alloc);
void avrogen_strtab_fini(avrogen_strtab *t);
/* The value stored under `key`, or NULL. */
const void *avrogen_strtab_get(const avrogen_strtab *t, const char *key, size_t len);
/*
 * Insert `key` -> `value` unless the key is present, in which case nothing is
 * inserted and *existing (if not NULL) receives the stored value. Returns
 * AVROGEN_OK or AVROGEN_E_NOMEM; *existing is NULL when the key was new.
 */
AVROGEN_NODISCARD avrogen_status avrogen_strtab_put(avrogen_strtab *t, const char *key, size_t len,
                                                    const void *value, const void **existing);

struct avrogen_schema {
    avrogen_arena arena;  /* every node, string and array of the model */
    avrogen_alloc alloc;  /* the caller's allocator (libc when NULL was given) */
    avrogen_strtab names; /* fullname -> const avrogen_node *, every named type */
    const avrogen_node *root;
    const char *canonical; /* Parsing Canonical Form, in the arena */
    size_t canonical_len;
    uint64_t fingerprint; /* CRC-64-AVRO of canonical */
};

/*
 * Write the Parsing Canonical Form of the schema rooted at s->root into the
 * arena and set s->canonical and s->canonical_len. Returns AVROGEN_OK or
 * AVROGEN_E_NOMEM. Called once by the parser, before the schema is published.
 */
AVROGEN_NODISCARD avrogen_status avrogen_schema_build_canonical(avrogen_schema *s);

#endif /* AVROGEN_SCHEMA_INTERNAL_H */
