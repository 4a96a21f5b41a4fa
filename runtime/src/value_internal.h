/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by value.c and json.c; never installed. Both files build the
 * same value trees in the same arenas and must report arena failures alike.
 */
#ifndef AVROGEN_VALUE_INTERNAL_H
#define AVROGEN_VALUE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "avrogen/arena.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

/*
 * Why an allocation of `size` bytes from `a` just failed: E_LIMIT when it would
 * pass the arena's budget, E_NOMEM when the allocator itself said no.
 */
avrogen_status avrogen_value_arena_status(const avrogen_arena *a, size_t size);

/* True when some value of `t` encodes in zero bytes (null, fixed(0), records of
 * those); `budget` bounds the walk through nested records. */
bool avrogen_value_zero_size(const avrogen_node *t, unsigned budget);

#endif /* AVROGEN_VALUE_INTERNAL_H */
