/* AVRO_NULLABLE needs a pointer; NULL is the null. The declaration suggested
 * is valid C, for arrays too. */
#include <stdint.h>

#include <avrogen/annotate.h>

typedef int32_t vec4[4];

struct AVRO_RECORD() reading {
    int32_t value AVRO_NULLABLE;
    int32_t **twice AVRO_NULLABLE;
    int32_t grid[4][2] AVRO_NULLABLE;
    char *names[3] AVRO_NULLABLE;
    vec4 v AVRO_NULLABLE;
};
