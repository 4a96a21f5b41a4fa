/* Names and namespaces: an unqualified nested type takes the namespace of the
 * schema that defines it (as in Avro JSON); qualified ones keep their own. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() inner { int32_t v; };

struct AVRO_RECORD(name = "org.other.Foreign") foreign { int32_t w; };

struct AVRO_RECORD(name = "Outer", namespace = "com.acme") outer {
    struct inner a;            /* defined as com.acme.inner here */
    struct inner b;            /* referenced as "inner" */
    struct foreign c;          /* org.other.Foreign */
    struct foreign d;          /* referenced by full name */
};
