/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The records of examples/containers: an order with a nested record, an
 * array with its count, a nullable string, an enum and a timestamp. Plain C
 * structs; the annotations tell avrogen what the Avro schema says and expand
 * to nothing for the compiler.
 */
#ifndef ORDERS_H
#define ORDERS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(name = "Status", namespace = "shop", strip_prefix = "STATUS_") status {
    STATUS_NEW,
    STATUS_PAID,
    STATUS_SHIPPED,
};

struct AVRO_RECORD(name = "Customer", namespace = "shop") customer {
    int64_t id;
    char *name;
};

struct AVRO_RECORD(name = "Order", namespace = "shop") order {
    int64_t id;
    struct customer customer;
    int64_t *skus AVRO_ARRAY(n_skus);
    size_t n_skus;
    char *note AVRO_NULLABLE;
    enum status status;
    int64_t placed_at AVRO_LOGICAL(timestamp-micros);
};

#endif /* ORDERS_H */
