/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared test helpers: an allocator that counts live blocks and can fail the
 * n-th call (fault injection, after mpack's fail-until-ok tests), and hex
 * helpers for byte comparisons.
 */
#ifndef AVROGEN_TESTUTIL_H
#define AVROGEN_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"

typedef struct test_alloc {
    avrogen_alloc base; /* pass &ta.base wherever an avrogen_alloc is wanted */
    long calls;         /* allocating or growing calls so far */
    long fail_at;       /* fail the call with this 1-based number; 0 never */
    long live;          /* blocks currently allocated */
    size_t live_bytes;
} test_alloc;

void test_alloc_init(test_alloc *ta, long fail_at);

/* Decode "0a ff 01" style hex (whitespace between bytes ignored) into out;
 * returns the byte count. Any other character, a lone digit or more than
 * `cap` bytes aborts: a typo in a test's bytes must not pass unnoticed. */
size_t test_unhex(const char *hex, uint8_t *out, size_t cap);

/*
 * The fanout schema of issue 12 as JSON text (malloc'd): record T0 with
 * `leaf_fields` (a JSON array's insides, "" for none), and T1..Tn each with two
 * fields, a and b, of type T(i-1) (defined in a, referred to by name in b). It
 * is linear in n, but a value of Tn holds 2^n T0s: any walk that visits
 * shared subtrees again takes 2^n steps.
 */
char *test_fanout_schema(unsigned n, const char *leaf_fields);

#endif /* AVROGEN_TESTUTIL_H */
