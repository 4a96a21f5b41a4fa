/* A null field has no shape and its default is null. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() bad_nulls {
    char *a AVRO_NULLABLE AVRO_FIELD(type = "null");
    int64_t b AVRO_LOGICAL(timestamp-millis) AVRO_FIELD(type = "null");
    char c AVRO_FIELD(type = "null", default = 0);
    int32_t *d AVRO_ARRAY(n_d) AVRO_FIELD(type = "null");
    size_t n_d;
};
