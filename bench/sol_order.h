/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The speed-of-light row of the Order workload: an encoder and a decoder of
 * struct order written by hand for speed (sol_order.c). Same contract as the
 * generated order_avro_encode / order_avro_decode.
 */
#ifndef AVROGEN_BENCH_SOL_ORDER_H
#define AVROGEN_BENCH_SOL_ORDER_H

#include "avrogen/gencode.h"

#include "workloads/order.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Append the binary encoding of *o to w; returns w->err. Allocates only
 * through a growable writer. */
AVROGEN_NODISCARD avrogen_status sol_order_encode(avrogen_writer *w, const order_t *o);

/* Decode one Order datum from r into *o, strings copied (NUL-terminated) and
 * arrays allocated from `a`; returns r->err. Checks what generated code checks:
 * bounds, overlong varints, int range, negative lengths, union index, UTF-8
 * (when r->check_utf8), the per-datum item budget, the fixed counter count. */
AVROGEN_NODISCARD avrogen_status sol_order_decode(avrogen_reader *r, order_t *o, avrogen_arena *a);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_BENCH_SOL_ORDER_H */
