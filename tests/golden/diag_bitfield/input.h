/* Bit-fields have no Avro address. */
#include <avrogen/annotate.h>

struct AVRO_RECORD() flags {
    unsigned ready : 1;
    unsigned mode : 3;
};
