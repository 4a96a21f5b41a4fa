/* An annotated header in a subfolder of the headers' base folder, including
 * another header (money.h), for the plain Make and Meson projects. */
#ifndef SHOP_ORDER_H
#define SHOP_ORDER_H

#include <stdint.h>

#include <avrogen/annotate.h>

#include "money.h"

struct AVRO_RECORD(name = "Order", namespace = "com.acme.shop") order {
    int64_t id;
    cents total;
    char *note AVRO_NULLABLE;
};

#endif /* SHOP_ORDER_H */
