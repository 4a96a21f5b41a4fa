/* Bit-fields take only AVRO_FIELD and AVRO_SKIP; they count or tag nothing;
 * a default must fit the width. */
#include <stdint.h>

#include <avrogen/annotate.h>

enum mode { OFF, ON };

struct AVRO_RECORD() flags {
    unsigned ready : 1 AVRO_NULLABLE;
    int32_t ms : 10 AVRO_LOGICAL(time-millis);
    enum mode mode : 2;
    uint64_t all : 64;
    unsigned small : 3 AVRO_FIELD(default = 8);
    int8_t neg : 4 AVRO_FIELD(default = -9);
    unsigned n : 4;
    int32_t *items AVRO_ARRAY(n);
    unsigned skipped : 2 AVRO_SKIP;
};
