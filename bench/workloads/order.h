/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bench workload "order": the Order record of the reference benchmark. One
 * Avro shape in two C shapes: `order` holds NUL-terminated strings (decode
 * copies them into the arena), `order_view` holds avrogen_str views (decode
 * points them into the input). Both encode to the same bytes; only their
 * record names differ (and defaults, which are not part of the encoding).
 */
#ifndef AVROGEN_BENCH_ORDER_H
#define AVROGEN_BENCH_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

#define ORDER_N_COUNTERS 64

/** One line of an order. */
struct AVRO_RECORD(name = "Line", namespace = "bench") line {
    int64_t sku;
    char *name;
    int32_t quantity;
    double price;
};

/* A map entry: string -> long. */
struct order_tag {
    char *key;
    int64_t value;
};

/** An order: scalars, a nullable string, nested records, a long array, a map. */
typedef struct AVRO_RECORD(name = "Order", namespace = "bench") order {
    int64_t id;
    char *customer;
    double total;
    int32_t priority;
    /* The default lets this struct read Orders written before `paid` existed
     * (earlier/order_v0.avsc, the evolve workload). It is true, not false, so
     * that a decoder that skipped the default, leaving the zeroed struct's
     * false, is caught by the bench's verification. */
    bool paid AVRO_FIELD(default = true);
    char *note AVRO_NULLABLE;
    struct line *lines AVRO_ARRAY(n_lines);
    size_t n_lines;
    int64_t counters[ORDER_N_COUNTERS];
    struct order_tag *tags AVRO_MAP(n_tags);
    size_t n_tags;
} order_t;

/* The same data with string views. */
struct AVRO_RECORD(name = "LineView", namespace = "bench") line_view {
    int64_t sku;
    avrogen_str name;
    int32_t quantity;
    double price;
};

struct order_view_tag {
    avrogen_str key;
    int64_t value;
};

typedef struct AVRO_RECORD(name = "OrderView", namespace = "bench") order_view {
    int64_t id;
    avrogen_str customer;
    double total;
    int32_t priority;
    bool paid;
    avrogen_str note AVRO_NULLABLE; /* null when note.ptr is NULL */
    struct line_view *lines AVRO_ARRAY(n_lines);
    size_t n_lines;
    int64_t counters[ORDER_N_COUNTERS];
    struct order_view_tag *tags AVRO_MAP(n_tags);
    size_t n_tags;
} order_view_t;

#endif /* AVROGEN_BENCH_ORDER_H */
