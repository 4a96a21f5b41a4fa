/* Misuses of AVRO_EXTERN_FIELD on tagged unions: paths that name no member,
 * a tag value given twice, AVRO_TAG in place and out of line, and a union no
 * AVRO_UNION member holds. */
#include <vendor/event.h>

#include <avrogen/annotate.h>

union local {
    int32_t i AVRO_TAG(1);
    double d AVRO_TAG(2);
};
struct AVRO_RECORD() holder {
    int t;
    union local l AVRO_UNION(t);
};
AVRO_EXTERN_FIELD(union local, i, AVRO_TAG(3));     /* also in place */
AVRO_EXTERN_FIELD(struct holder, l.d, AVRO_TAG(4)); /* also in place, by path */

AVRO_EXTERN_RECORD(struct vendor_motion);
AVRO_EXTERN_RECORD(struct vendor_event);
AVRO_EXTERN_FIELD(struct vendor_event, u, AVRO_UNION(kind));
AVRO_EXTERN_FIELD(struct vendor_event, u.kez, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, uu.key, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, kind.x, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, u.motion.dz, AVRO_FIELD(name = "dz"));
AVRO_EXTERN_FIELD(struct vendor_event, u.key, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, u.motion, AVRO_TAG(VENDOR_MOTION));
AVRO_EXTERN_FIELD(struct vendor_event, u.text, AVRO_TAG(VENDOR_TEXT));
AVRO_EXTERN_FIELD(struct vendor_event, u.text, AVRO_TAG(VENDOR_MOTION)); /* text twice */

AVRO_EXTERN_RECORD(struct vendor_reading);
AVRO_EXTERN_FIELD(struct vendor_reading, value, AVRO_UNION(type));
AVRO_EXTERN_FIELD(struct vendor_reading, num, AVRO_SKIP);
AVRO_EXTERN_FIELD(union vendor_value, z, AVRO_TAG(7));
AVRO_EXTERN_FIELD(union vendor_value, i, AVRO_TAG(VENDOR_VALUE_INT));
AVRO_EXTERN_FIELD(struct vendor_reading, value.d, AVRO_TAG(0x10)); /* VENDOR_VALUE_INT twice */
AVRO_EXTERN_FIELD(union vendor_value, none, AVRO_TAG(VENDOR_VALUE_NONE) AVRO_FIELD(type = "null"));
AVRO_EXTERN_FIELD(vendor_num_t, small, AVRO_TAG(7)); /* no AVRO_UNION holds it */
