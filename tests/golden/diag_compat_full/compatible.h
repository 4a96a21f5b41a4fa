/* A version of input.h compatible both ways with v1 and v2 (compat_gate.py). */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(name = "Order", namespace = "com.acme") purchase {
    int64_t id;
    int32_t amount;
    double price AVRO_FIELD(default = 0);
};
