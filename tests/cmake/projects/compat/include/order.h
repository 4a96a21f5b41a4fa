/* Version 2 of an order: since schemas/com.acme.shop.Order.v1.avsc it lost
 * `note` (which had a default there) and gained `priority` (with a default),
 * so it is still fully compatible with version 1. */
#ifndef ORDER_H
#define ORDER_H

#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(name = "Status", strip_prefix = "ORDER_") order_status { ORDER_NEW, ORDER_PAID, ORDER_SHIPPED };

struct AVRO_RECORD(name = "Order", namespace = "com.acme.shop") order {
    int64_t id;
    int32_t quantity;
    enum order_status status;
    int32_t priority AVRO_FIELD(default = 0);
};

#endif /* ORDER_H */
