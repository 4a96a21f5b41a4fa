/* Tagged unions of a header that cannot be edited, annotated out of line: the
 * union member takes AVRO_UNION, and the members of its union type take
 * AVRO_TAG, named through the union type (a named or typedef'd union) or
 * through the path of members that leads to it (an anonymous union). */
#include <vendor/event.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct vendor_motion, name = "Motion", namespace = "vendor");
AVRO_EXTERN_RECORD(struct vendor_event, name = "Event", namespace = "vendor");
AVRO_EXTERN_FIELD(struct vendor_event, u, AVRO_UNION(kind));
AVRO_EXTERN_FIELD(struct vendor_event, u.key, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, u.motion, AVRO_TAG(VENDOR_MOTION));
AVRO_EXTERN_FIELD(struct vendor_event, u.text, AVRO_TAG(VENDOR_TEXT));

AVRO_EXTERN_RECORD(struct vendor_reading, name = "Reading", namespace = "vendor");
AVRO_EXTERN_FIELD(struct vendor_reading, value, AVRO_UNION(type));
AVRO_EXTERN_FIELD(union vendor_value, i, AVRO_TAG(VENDOR_VALUE_INT));
AVRO_EXTERN_FIELD(union vendor_value, d, AVRO_TAG(VENDOR_VALUE_REAL));
AVRO_EXTERN_FIELD(union vendor_value, none, AVRO_TAG(VENDOR_VALUE_NONE) AVRO_FIELD(type = "null"));
AVRO_EXTERN_FIELD(struct vendor_reading, num, AVRO_UNION(width));
AVRO_EXTERN_FIELD(vendor_num_t, small, AVRO_TAG(32));
AVRO_EXTERN_FIELD(vendor_num_t, big, AVRO_TAG(64, -64));
