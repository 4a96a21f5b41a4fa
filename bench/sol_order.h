/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The speed-of-light row of the Order workload: an encoder and a decoder of
 * struct order written by hand for speed (sol_order.c). Same contract as the
 * generated order_avro_encode / order_avro_decode. Also the byte loop the
 * speed-of-light rows share (the Arrays workload's too).
 */
#ifndef AVROGEN_BENCH_SOL_ORDER_H
#define AVROGEN_BENCH_SOL_ORDER_H

#include "avrogen/gencode.h"

#include "workloads/order.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The byte loops of the speed-of-light rows are unrolled at every
 * optimisation level: gcc unrolls them by itself only at -O3, and the
 * yardstick must not depend on that. */
#if defined(__GNUC__) || defined(__clang__)
#define SOL_UNROLL _Pragma("GCC unroll 10")
#else
#define SOL_UNROLL
#endif

/* The byte loop: the varint at p, which has at least 10 readable bytes;
 * NULL if it is overlong. */
static inline const uint8_t *sol_varint10(const uint8_t *p, uint64_t *out)
{
    uint64_t u = 0;
    SOL_UNROLL
    for (unsigned shift = 0; shift < 63; shift += 7) {
        uint64_t b = *p++;
        u |= (b & 0x7f) << shift;
        if (b < 0x80) {
            *out = u;
            return p;
        }
    }
    if (*p > 1)
        return NULL;
    *out = u | (uint64_t)*p << 63;
    return p + 1;
}

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
