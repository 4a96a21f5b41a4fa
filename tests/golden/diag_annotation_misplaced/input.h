/* Annotations on a typedef, a variable or a function annotate nothing: each
 * is a warning saying where they go. The typedef's AVRO_RECORD leaves struct
 * point unannotated, which the record using it then needs. */
#include <stdint.h>

#include <avrogen/annotate.h>

typedef struct point {
    int32_t x;
} point_t AVRO_RECORD(name = "Point");

struct AVRO_RECORD() line {
    point_t a;
};

typedef int32_t count_t AVRO_FIELD(name = "count") AVRO_NULLABLE;

extern int32_t counter AVRO_FIELD(name = "count");

void reset(struct line *l) AVRO_SKIP;

int32_t total(void) AVRO_ARRAY(n);
