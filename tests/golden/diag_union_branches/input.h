/* A tagged union's members map to distinct Avro types, each a plain value. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() event {
    int kind;
    union {
        int32_t small;
        int16_t smaller;
        char *text AVRO_NULLABLE;
        double *ptr;
    } data AVRO_UNION(kind);
    double tag;
    union { int32_t a; } bad AVRO_UNION(tag);
    int other;
    int32_t notunion AVRO_UNION(other);
};
