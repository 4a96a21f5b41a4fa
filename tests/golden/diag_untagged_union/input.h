/* A C union needs AVRO_UNION(tag_field). */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() value {
    int kind;
    union {
        int64_t i;
        double d;
    } as;
};
