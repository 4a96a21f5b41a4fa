/* void * carries no type. */
#include <stddef.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() blob {
    void *data;
    void *more AVRO_ARRAY(n_more);
    size_t n_more;
};
