/* Records across headers: only this header's records get a schema file; the
 * included record is defined inside them. */
#include <stddef.h>

#include "sub/line.h"

struct AVRO_RECORD(namespace = "com.acme.shop") basket {
    struct line first;                          /* defined here, in its own namespace */
    struct line *more AVRO_ARRAY(n_more);       /* then referenced by full name */
    size_t n_more;
    enum unit unit;
};
