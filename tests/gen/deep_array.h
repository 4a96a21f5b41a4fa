/* test_gen.c's schema_json_depth_bound deepens this array's type by hand. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() deep {
    int32_t m[1];
};
