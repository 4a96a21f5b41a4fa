/* Ahead-of-time decoders (generator_args: --compat-with earlier): an order
 * record as it is now, and an earlier version of it that wrote narrower
 * numbers, fields since dropped, an enum in another order and no note. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "shop", default = "NEW", strip_prefix = "STATUS_") order_status {
    STATUS_NEW,
    STATUS_PAID,
    STATUS_SHIPPED
};

struct AVRO_RECORD(name = "Line", namespace = "shop") line {
    int64_t sku;                                    /* earlier: int */
    char *name;
    int32_t quantity;
    double price;                                   /* earlier: float */
};

struct order_tag {
    char *key;
    int64_t value;
};

typedef struct AVRO_RECORD(name = "Order", namespace = "shop") order {
    int64_t id;                                     /* earlier: int */
    char *customer;
    double total;
    int32_t priority;
    bool paid;
    char *note AVRO_NULLABLE AVRO_FIELD(default = null); /* earlier: absent */
    struct line *lines AVRO_ARRAY(n_lines);
    size_t n_lines;
    int64_t counters[4];
    struct order_tag *tags AVRO_MAP(n_tags);
    size_t n_tags;
    enum order_status status;                       /* earlier: other symbols */
    char *currency AVRO_FIELD(default = "EUR");     /* earlier: absent */
} order_t;
