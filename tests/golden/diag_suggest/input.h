/* Fixes the messages propose: the member meant by a misspelled name, and
 * AVRO_BYTES(len) for a void * with a length member beside it, written out
 * of line for a type of a system header. */
#include <stddef.h>
#include <stdint.h>

#include <vendor_buf.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() packet {
    void *payload;
    size_t payload_len;
    int32_t *items AVRO_ARRAY(n_items);
    uint32_t n_items;
};

AVRO_EXTERN_RECORD(struct vendor_buf);
AVRO_EXTERN_FIELD(struct vendor_buf, opaqeu, AVRO_SKIP);
