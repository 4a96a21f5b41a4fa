/* The example: a pointer needs AVRO_ARRAY(count_field) or AVRO_NULLABLE. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() line { int64_t sku; };

struct AVRO_RECORD() order {
    int64_t id;
    struct line *lines;
    size_t n_lines;
};
