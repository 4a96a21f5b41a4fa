/* Anonymous members and anonymous types without a name. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() holder {
    int kind;
    union {
        int32_t i;
        float f;
    };
};

struct AVRO_RECORD() outer {
    struct AVRO_RECORD() { int32_t v; } inner;
};
