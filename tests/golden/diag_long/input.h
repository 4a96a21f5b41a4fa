/* long and unsigned long change size between platforms (LP64 vs LLP64, 32-bit). */
#include <stddef.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() sizes {
    long a;
    unsigned long b;
    size_t c;
};
