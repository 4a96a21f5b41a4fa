/* uint64_t has no default: Avro's long is signed. Each field says what it wants. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() counters {
    uint64_t packets AVRO_FIELD(type = "long");   /* same bits; above INT64_MAX reads negative */
    uint64_t bytes AVRO_DECIMAL(19, 0);           /* exact: bytes + decimal */
    unsigned long long total AVRO_FIELD(type = "long");
    uint64_t window[2] AVRO_FIELD(type = "long"); /* applies to the items */
};
