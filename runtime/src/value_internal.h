/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by value.c and json.c; never installed. Both files build the
 * same value trees in the same arenas and must report arena failures alike,
 * and read blocks of arrays and maps alike.
 */
#ifndef AVROGEN_VALUE_INTERNAL_H
#define AVROGEN_VALUE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/arena.h"
#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"
#include "avrogen/value.h"

/*
 * Why an allocation of `size` bytes from `a` just failed: E_LIMIT when it would
 * pass the arena's budget, E_NOMEM when the allocator itself said no.
 */
avrogen_status avrogen_value_arena_status(const avrogen_arena *a, size_t size);

/* Append printf text to a member path ("Order.lines[3].name") in path[cap]
 * whose logical length is *len: past cap the buffer keeps its prefix. The
 * encoders' explanation (explain.c) and the decoders' (read_explain.c). */
void avrogen_path_pushv(char *path, size_t cap, size_t *len, const char *fmt, va_list ap);

/*
 * The blocks of an array or map as the decoder reads them (spec §Arrays,
 * §Maps), for json.c's avrogen_datum_to_json: the next block's count (0 at
 * the end or on error, its items charged to the datum's budget) with *size
 * its declared byte size or SIZE_MAX; whether n items can fit in the input;
 * whether a block that declared its size ended where it said.
 */
size_t avrogen_value_block(avrogen_reader *r, size_t *size);
bool avrogen_value_block_fits(avrogen_reader *r, size_t n, bool zero_size_items);
bool avrogen_value_block_done(avrogen_reader *r, const uint8_t *start, size_t size);

/*
 * The generic runtime recurses once per record, array, map and union it is
 * inside (a "level"). Recursive records also count against the reader's or
 * writer's max_depth, as generated code counts them; every level counts
 * against this guard for the C stack, which data within max_depth never
 * meets (a level of recursion takes two to four levels: a record and the
 * union, array or map that holds the next one; 512 more for the records that
 * do not recurse). A hostile schema whose recursion runs through longer chains
 * of containers, or a chain of thousands of distinct records, stops here.
 */
static inline unsigned avrogen_nesting_limit(unsigned max_depth)
{
    unsigned long long n = 4ull * max_depth + 512u;
    return n < 0xffffffffull ? (unsigned)n : 0xffffffffu;
}

/* Enter a container (`recursive`: a record that can contain itself) while
 * reading: false (E_LIMIT recorded on r) past a limit. *left counts the levels
 * still allowed, from avrogen_nesting_limit(r->max_depth) down. */
static inline bool avrogen_read_enter(avrogen_reader *r, unsigned *left, bool recursive)
{
    if (*left == 0) {
        avrogen_reader_fail(r, AVROGEN_E_LIMIT,
                            "values nest deeper than the reader's max_depth allows");
        return false;
    }
    if (recursive && !avrogen_reader_enter(r))
        return false;
    --*left;
    return true;
}

static inline void avrogen_read_leave(avrogen_reader *r, unsigned *left, bool recursive)
{
    ++*left;
    if (recursive)
        avrogen_reader_leave(r);
}

/*
 * After a decode of a value of `type` that began at `datum` (in r's input)
 * failed, name the value it failed in: r->err_msg becomes "Order.lines[3].name:
 * input ends inside a string" in r->err_text (read_explain.c). `check_utf8`:
 * whether the decoder checked strings (avrogen_skip does not). Nothing when
 * r->err_msg names a path already, or when the walk cannot place the error.
 * Cold: allocates nothing, runs only on failure.
 */
void avrogen_value_explain(avrogen_reader *r, const avrogen_node *type, const uint8_t *datum,
                           bool check_utf8);

/* avrogen_skip and avrogen_value_read without naming the path on failure,
 * for the resolvers, which skip and read values inside a datum of their own. */
avrogen_status avrogen_skip_inner(avrogen_reader *r, const avrogen_node *type);
avrogen_status avrogen_value_read_inner(avrogen_reader *r, const avrogen_node *type,
                                        avrogen_value *out, avrogen_arena *a, unsigned flags);

#endif /* AVROGEN_VALUE_INTERNAL_H */
