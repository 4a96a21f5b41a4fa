/* A flexible array member has no size C can tell. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() packet {
    uint32_t len;
    uint8_t data[];
};
