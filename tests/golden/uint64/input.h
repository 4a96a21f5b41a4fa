/* uint64_t: a long by default, values above INT64_MAX refused on encode and
 * negative longs on decode; each field may choose otherwise. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() counters {
    uint64_t packets AVRO_FIELD(type = "long");   /* same bits; above INT64_MAX reads negative */
    uint64_t bytes AVRO_DECIMAL(19, 0);           /* exact: bytes + decimal */
    uint64_t octets AVRO_DECIMAL(20, 0);          /* all of UINT64_MAX's 20 digits */
    uint64_t checked;                             /* a long, 0..INT64_MAX */
    unsigned long long total AVRO_FIELD(type = "long");
    uint64_t window[2] AVRO_FIELD(type = "long"); /* applies to the items */
};
