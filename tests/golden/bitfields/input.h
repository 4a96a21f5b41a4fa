/* Bit-fields map by declared type and width: a 1-bit bool is a boolean, the
 * rest ints when every value fits an int, else longs. Decode refuses a value
 * outside the width; the layout lock asserts the struct's size. */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() ip_header {     /* like <netinet/ip.h>'s struct iphdr */
    unsigned int ihl : 4;
    unsigned int version : 4;
    uint8_t tos;
    uint16_t tot_len;
    uint16_t frag_off : 13;
    uint16_t flags : 3;
    bool evil : 1;                   /* RFC 3514 */
    unsigned : 3;                    /* padding: not a member */
    int delta : 5;                   /* signed: -16..15 */
    unsigned int wide : 31;          /* still an int */
    unsigned int full : 32;          /* a long: 0..4294967295 */
    int32_t s32 : 32;                /* an int */
    int64_t stamp : 48 AVRO_FIELD(name = "stampTicks", default = -1);
    uint64_t big : 63;               /* a long: 0..INT64_MAX */
    long counter : 20 AVRO_FIELD(doc = "a long bit-field of 20 bits is an int");
};
