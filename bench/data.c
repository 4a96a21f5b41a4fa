/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deterministic data for the workloads: a splitmix64 stream (so every machine
 * and every run builds the same records), longs of a chosen varint length,
 * text, and a bump list of blocks the data sets live in until exit.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

uint64_t bench_rng_next(bench_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t bench_rng_range(bench_rng *r, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo;
    if (span == UINT64_MAX)
        return bench_rng_next(r);
    return lo + bench_rng_next(r) % (span + 1);
}

double bench_rng_double(bench_rng *r, double lo, double hi)
{
    double unit = (double)(bench_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return lo + unit * (hi - lo);
}

int64_t bench_long_of_len(bench_rng *r, unsigned len)
{
    /* A varint of `len` bytes holds a zigzag value in [2^(7(len-1)), 2^(7 len)). */
    uint64_t lo = len <= 1 ? 0 : UINT64_C(1) << (7 * (len - 1));
    uint64_t hi = len >= 10 ? UINT64_MAX : (UINT64_C(1) << (7 * len)) - 1;
    uint64_t u = bench_rng_range(r, lo, hi);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

char *bench_text(bench_rng *r, size_t len, bool utf8)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz"
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/";
    char *s = bench_data_alloc(len + 1);
    size_t i = 0;
    while (i < len) {
        uint64_t x = bench_rng_next(r);
        /* About one character in 32 is multi-byte: text that is mostly ASCII,
         * as log lines and names mostly are, yet must be UTF-8 checked. */
        if (utf8 && x % 64 == 0 && len - i >= 3) {
            memcpy(s + i, "\xe2\x82\xac", 3); /* U+20AC EURO SIGN */
            i += 3;
        } else if (utf8 && x % 64 == 1 && len - i >= 2) {
            memcpy(s + i, "\xc3\xa9", 2); /* U+00E9 */
            i += 2;
        } else {
            s[i++] = alphabet[(x >> 8) % (sizeof alphabet - 1)];
        }
    }
    s[len] = '\0';
    return s;
}

char *bench_text_intl(bench_rng *r, size_t len)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz"
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/";
    /* Latin, Cyrillic, the euro sign, CJK and an emoji: 2, 3 and 4 bytes. */
    static const char *const wide[] = {"\xc3\xa9", "\xd0\xb6", "\xe2\x82\xac", "\xe4\xb8\xad",
                                       "\xf0\x9f\x98\x80"};
    char *s = bench_data_alloc(len + 1);
    size_t i = 0;
    while (i < len) {
        uint64_t x = bench_rng_next(r);
        const char *c = wide[(x >> 8) % (sizeof wide / sizeof wide[0])];
        size_t n = strlen(c);
        if (x % 10 < 3 && n <= len - i) {
            memcpy(s + i, c, n);
            i += n;
        } else {
            s[i++] = alphabet[(x >> 16) % (sizeof alphabet - 1)];
        }
    }
    s[len] = '\0';
    return s;
}

/* Each block is preceded by the link to the previous one. */
struct block {
    struct block *prev;
    max_align_t data[];
};

static struct block *blocks;

void *bench_data_alloc(size_t size)
{
    struct block *b = calloc(1, sizeof *b + size);
    if (b == NULL)
        abort();
    b->prev = blocks;
    blocks = b;
    return b->data;
}

void bench_data_free_all(void)
{
    while (blocks != NULL) {
        struct block *prev = blocks->prev;
        free(blocks);
        blocks = prev;
    }
}

char *bench_data_strdup(const char *s)
{
    size_t len = strlen(s);
    char *copy = bench_data_alloc(len + 1);
    memcpy(copy, s, len + 1);
    return copy;
}

bool bench_str_eq(const char *s, const char *view_ptr, size_t view_len)
{
    if (s == NULL || view_ptr == NULL)
        return s == NULL && view_ptr == NULL;
    return strlen(s) == view_len && memcmp(s, view_ptr, view_len) == 0;
}
