/* The annotated header of DESIGN.md's "annotation contract", verbatim. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/** One line of an order. */            // doc comment → "doc"
struct AVRO_RECORD() line {
    int64_t sku;
    char *name;                           // NUL-terminated string
    int32_t quantity;
    double price;
};

enum AVRO_ENUM(strip_prefix = "ORDER_") order_status { ORDER_NEW, ORDER_PAID, ORDER_SHIPPED };

struct tag { char *key; int64_t value; };   // map entry: key + value, no annotation

typedef struct AVRO_RECORD(name = "Order", namespace = "com.acme.shop") order {
    int64_t id;
    char *customer;
    double total;
    int32_t priority;
    bool paid;
    char *note            AVRO_NULLABLE;          // NULL ↔ null: ["null","string"]
    struct line *lines    AVRO_ARRAY(n_lines);    // pointer + count → array
    size_t n_lines;
    int64_t counters[64];                         // C array → array of exactly 64
    struct tag *tags      AVRO_MAP(n_tags);       // entries {key, value} → map
    size_t n_tags;
    enum order_status status;
    int64_t created_us    AVRO_LOGICAL(timestamp-micros);
    uint8_t uuid[16]      AVRO_LOGICAL(uuid);     // fixed(16) + uuid
    int64_t price_cents   AVRO_DECIMAL(18, 2);    // bytes + decimal(18,2)
    avrogen_str region;                           // {ptr,len} string view
    char *legacy          AVRO_NULLABLE AVRO_FIELD(name = "legacyName", aliases = ["old"], default = null);
    void *cache           AVRO_SKIP;              // not serialized
} order_t;
