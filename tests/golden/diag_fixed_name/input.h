/* AVRO_FIXED_NAME's options: doc, aliases, namespace, once per fixed. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "d") fixed_names {
    uint8_t a[4] AVRO_FIXED_NAME(A, size = 4);
    uint8_t b[4] AVRO_FIXED_NAME(x.B, namespace = "y");
    uint8_t c[4] AVRO_FIXED_NAME(C, doc = "one");
    uint8_t c2[4] AVRO_FIXED_NAME(C, doc = "two");
    uint8_t e[4] AVRO_FIXED_NAME(E, namespace = "1bad");
    avrogen_bytes f AVRO_DECIMAL(0, 0);
    avrogen_bytes g AVRO_DECIMAL(3, 4);
    avrogen_str h AVRO_DECIMAL(10, 2);
};
