/* uint64_t needs an explicit choice. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() counter {
    uint64_t total;
    unsigned long long other;
};
