/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocation helpers for the generator. The generator is a compiler-like tool
 * working on small inputs, so running out of memory is not an input error it
 * could report usefully: these helpers print "avrogen: error: out of memory"
 * and exit with status 2 (the CLI's internal-error status), as gcc's xmalloc
 * does. The runtime library never uses them.
 */
#ifndef AVROGEN_GEN_GENUTIL_H
#define AVROGEN_GEN_GENUTIL_H

#include <stdbool.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Edit distance with adjacent transpositions (optimal string alignment), or
 * `cap` + 1 once it is certain to exceed `cap`; strings past 63 bytes are
 * `cap` + 1 away from any other. */
size_t edit_distance(const char *a, const char *b, size_t cap);
/* A malloc'd printf. */
char *xasprintf(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
        __attribute__((format(printf, 1, 2)))
#endif
        ;
/* "dir/name", or a copy of name when dir is NULL or "" (malloc'd). */
char *path_join(const char *dir, const char *name);

/*
 * Return the array v of n elements of `size` bytes grown to hold n + 1, the new
 * element zeroed. Capacity is implied by n (the next power of two), so arrays
 * need no capacity field and appends are amortized O(1):
 *
 *     d->members = xappend(d->members, d->n_members, sizeof *d->members);
 *     struct cmember *m = &d->members[d->n_members++];
 */
void *xappend(void *v, size_t n, size_t size);

/* Whether the string lists a[0, na) and b[0, nb) are equal, in order. */
bool strings_equal(const char *const *a, size_t na, const char *const *b, size_t nb);

/*
 * A map from pointers to sizes (open addressing, grown at half full), for
 * lookups that would otherwise scan an array per use and make the generator
 * quadratic in the header: the index of a record, a named type already
 * defined in a schema, the function emitted for a writer type.
 *
 *     struct ptrmap m = {0};
 *     ptrmap_put(&m, rec, 7);
 *     size_t i;
 *     if (ptrmap_get(&m, rec, &i)) ...
 *     ptrmap_free(&m);
 */
struct ptrmap_key {
    const void *a, *b; /* a NULL a marks a free slot */
};

struct ptrmap {
    struct ptrmap_key *keys;
    size_t *values;
    size_t cap; /* 0 or a power of two */
    size_t count;
};

/* Set key's value (key must not be NULL); replaces an earlier one. */
void ptrmap_put(struct ptrmap *m, const void *key, size_t value);
/* True and *value set when key is in the map. */
bool ptrmap_get(const struct ptrmap *m, const void *key, size_t *value);
/* The same keyed by a pair of pointers (a not NULL). */
void ptrmap_put2(struct ptrmap *m, const void *a, const void *b, size_t value);
bool ptrmap_get2(const struct ptrmap *m, const void *a, const void *b, size_t *value);
void ptrmap_clear(struct ptrmap *m);
void ptrmap_free(struct ptrmap *m);

/*
 * A map from strings to sizes, the same table keyed by text: the member of a
 * struct with a given name, a symbol of an enum, an identifier already taken.
 * Keys are borrowed, not copied: each must outlive the map, unchanged. Lookups
 * that scanned an array per member made a struct of 100,000 members take
 * minutes.
 *
 *     struct strmap names = {0};
 *     strmap_put(&names, m->name, i);
 *     size_t first;
 *     if (strmap_get(&names, other, &first)) ...
 *     strmap_free(&names);
 */
struct strmap {
    const char **keys; /* NULL marks a free slot */
    size_t *values;
    size_t cap; /* 0 or a power of two */
    size_t count;
};

/* Set key's value (key not NULL); replaces an earlier one. */
void strmap_put(struct strmap *m, const char *key, size_t value);
/* Put key with value unless it is there: false, and *first its value, if it was. */
bool strmap_add(struct strmap *m, const char *key, size_t value, size_t *first);
/* True and *value set when key is in the map; key[0, n) for strmap_getn. */
bool strmap_get(const struct strmap *m, const char *key, size_t *value);
bool strmap_getn(const struct strmap *m, const char *key, size_t n, size_t *value);
void strmap_free(struct strmap *m);

#endif /* AVROGEN_GEN_GENUTIL_H */
