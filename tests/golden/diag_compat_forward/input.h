/* The compatibility gate, forward: readers using earlier/Order.v1.avsc must
 * read data written with the schema derived from this header. A field those
 * readers need without a default is reported at the struct that lost it. */
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "STATUS_") status { STATUS_NEW, STATUS_PAID, STATUS_SHIPPED, STATUS_LOST }; /* LOST: new */

struct AVRO_RECORD() address {
    char *city; /* v1 also had "zip", without a default */
};

struct AVRO_RECORD(name = "Order", namespace = "com.acme") order {
    int64_t id;
    int64_t count; /* v1: int, which cannot read a long */
    enum status status;
    struct address ship_to;
    char *note AVRO_NULLABLE; /* v1: string, which cannot read null */
    uint8_t which;
    union {
        int64_t i;
        char *s;
        double d; /* new */
    } value AVRO_UNION(which);
    int32_t extra; /* new: v1 readers skip it */
}; /* v1's "quantity" is gone; its "comment" too, but that one had a default */
