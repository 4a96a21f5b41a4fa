/* The compatibility gate, full, against every version in earlier/. The record
 * was renamed and keeps its old name as an alias: that is how the earlier
 * schemas match it, and new readers follow it, but v1 and v2 readers do not. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(name = "Purchase", namespace = "com.acme", aliases = ["Order"]) purchase {
    int64_t id;
    char *amount; /* v1, v2: int */
    double price AVRO_FIELD(default = 0);
};
