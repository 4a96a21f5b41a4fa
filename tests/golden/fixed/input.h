/* uint8_t[N] → fixed: default names, shared AVRO_FIXED_NAME, full names. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "net.example") packet {
    uint8_t mac[6];                                /* fixed "packet_mac", size 6 */
    uint8_t src[4] AVRO_FIXED_NAME(Ipv4);          /* fixed "Ipv4" */
    uint8_t dst[4] AVRO_FIXED_NAME(Ipv4);          /* the same type, referenced */
    uint8_t hash[32] AVRO_FIXED_NAME(org.crypto.Sha256);
    uint8_t routes[3][4] AVRO_FIXED_NAME(Ipv4);    /* array of 3 Ipv4 */
};

/* Another record reusing the name: defined again in its own schema. */
struct AVRO_RECORD(namespace = "net.example") hop {
    uint8_t addr[4] AVRO_FIXED_NAME(Ipv4);
    struct packet last;
};
