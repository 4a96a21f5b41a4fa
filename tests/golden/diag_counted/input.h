/* Counted and padded members need the right types. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct entry { char *key; int32_t value; };

struct AVRO_RECORD() bad_counted {
    int32_t *a AVRO_STRING(n);
    int32_t *b AVRO_BYTES(n2); /* fine since issue 23: its n2 bytes as stored */
    int32_t c AVRO_PADDED;
    struct entry d[4] AVRO_MAP(n3);
    char *e AVRO_STRING(n4) AVRO_ARRAY(n4);
    int32_t f AVRO_ARRAY(n5);
    char g[4] AVRO_STRING(n6) AVRO_FIELD(default = "toolong");
    uint8_t h[2] AVRO_ARRAY(n7) AVRO_FIELD(default = "\u0001\u0002\u0003");
    int n, n2, n3, n4, n5, n6, n7;
};
