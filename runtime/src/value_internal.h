/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by value.c and json.c; never installed. Both files build the
 * same value trees in the same arenas and must report arena failures alike,
 * and read blocks of arrays and maps alike.
 */
#ifndef AVROGEN_VALUE_INTERNAL_H
#define AVROGEN_VALUE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/arena.h"
#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

/*
 * Why an allocation of `size` bytes from `a` just failed: E_LIMIT when it would
 * pass the arena's budget, E_NOMEM when the allocator itself said no.
 */
avrogen_status avrogen_value_arena_status(const avrogen_arena *a, size_t size);

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

#endif /* AVROGEN_VALUE_INTERNAL_H */
