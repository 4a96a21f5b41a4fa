/* A version of input.h that can read everything v1 wrote (compat_gate.py). */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "STATUS_") status { STATUS_NEW, STATUS_PAID, STATUS_SHIPPED };

struct AVRO_RECORD() line {
    int64_t sku;
    int64_t qty;
};

struct AVRO_RECORD(name = "Order", namespace = "com.acme") order {
    int64_t id;
    int64_t count;
    double total;
    enum status status;
    struct line *lines AVRO_ARRAY(n_lines);
    uint32_t n_lines;
    uint8_t digest[16];
    int32_t rank AVRO_FIELD(default = 0);
    uint8_t which;
    union {
        int64_t i;
        char *s;
        bool b;
    } value AVRO_UNION(which);
};
