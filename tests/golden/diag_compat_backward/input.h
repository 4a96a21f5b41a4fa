/* The compatibility gate in its default mode, backward: the schema derived
 * from this header must read data written with earlier/com.acme.Order.v1.avsc.
 * Each break is reported at the C member that made it. earlier/ also holds a
 * record of another name and an enum, which match nothing here. */
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "STATUS_") status { STATUS_NEW, STATUS_PAID }; /* v1 also had SHIPPED */

struct AVRO_RECORD() line {
    int64_t sku;
    char *qty; /* v1: int */
};

struct AVRO_RECORD(name = "Order", namespace = "com.acme") order {
    int64_t id;
    int64_t count; /* v1: int, which a long reads */
    float total;   /* v1: double, which a float cannot read */
    enum status status;
    struct line *lines AVRO_ARRAY(n_lines);
    uint32_t n_lines;
    uint8_t digest[8]; /* v1: 16 bytes */
    int32_t priority;  /* new, without a default */
    int32_t rank AVRO_FIELD(default = 0);
    uint8_t which;
    union {
        int64_t i;
        char *s;
    } value AVRO_UNION(which); /* v1 also had a boolean branch */
};
