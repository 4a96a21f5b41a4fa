/* SPDX-License-Identifier: Apache-2.0 */
/* The annotated header scripts/demo derives a schema from. */
#ifndef DEMO_ORDER_H
#define DEMO_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/** One line of an order. */
struct AVRO_RECORD(namespace = "com.acme.shop") line {
    int64_t sku;
    char *name;
    int32_t quantity;
    double price;
};

/** Where an order is in its life. */
enum AVRO_ENUM(strip_prefix = "ORDER_") order_status { ORDER_NEW, ORDER_PAID, ORDER_SHIPPED };

/** A customer's order. */
typedef struct AVRO_RECORD(name = "Order", namespace = "com.acme.shop") order {
    int64_t id;
    char *customer;
    double total;
    bool paid;
    char *note AVRO_NULLABLE; /**< free text, may be absent */
    struct line *lines AVRO_ARRAY(n_lines);
    size_t n_lines;
    enum order_status status;
    int64_t created_us AVRO_LOGICAL(timestamp-micros);
} order_t;

#endif /* DEMO_ORDER_H */
