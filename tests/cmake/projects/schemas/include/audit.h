/* An annotated header next to the schemas: HEADERS and SCHEMAS in one call. */
#ifndef AUDIT_H
#define AUDIT_H

#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "com.acme.audit") audit {
    int64_t order_id;
    char *who;
};

#endif
