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

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A malloc'd printf. */
char *xasprintf(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
        __attribute__((format(printf, 1, 2)))
#endif
        ;

/*
 * Return the array v of n elements of `size` bytes grown to hold n + 1, the new
 * element zeroed. Capacity is implied by n (the next power of two), so arrays
 * need no capacity field and appends are amortized O(1):
 *
 *     d->members = xappend(d->members, d->n_members, sizeof *d->members);
 *     struct cmember *m = &d->members[d->n_members++];
 */
void *xappend(void *v, size_t n, size_t size);

#endif /* AVROGEN_GEN_GENUTIL_H */
