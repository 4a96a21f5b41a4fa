/* A version of input.h whose data v1 readers can read (compat_gate.py). */
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "STATUS_") status { STATUS_NEW, STATUS_PAID };

struct AVRO_RECORD() address {
    char *city;
    char *zip;
};

struct AVRO_RECORD(name = "Order", namespace = "com.acme") order {
    int64_t id;
    int32_t count;
    int32_t quantity;
    enum status status;
    struct address ship_to;
    char *note;
    uint8_t which;
    union {
        int64_t i;
        char *s;
    } value AVRO_UNION(which);
    int32_t extra;
};
