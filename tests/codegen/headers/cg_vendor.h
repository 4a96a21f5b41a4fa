/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: the tagged unions of a vendor header (sysinc/vendor,
 * an -isystem directory), annotated out of line: AVRO_UNION on the union
 * member, AVRO_TAG on the members of its union type, named through the type
 * (union vendor_value, vendor_id_t) or through the path of members that leads
 * to an anonymous one (u.key). */
#ifndef CG_VENDOR_H
#define CG_VENDOR_H

#include <vendor/event.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct vendor_motion, name = "Motion", namespace = "cg.vendor");
AVRO_EXTERN_RECORD(struct vendor_event, name = "Event", namespace = "cg.vendor");
AVRO_EXTERN_FIELD(struct vendor_event, u, AVRO_UNION(kind));
AVRO_EXTERN_FIELD(struct vendor_event, u.key, AVRO_TAG(VENDOR_KEY));
AVRO_EXTERN_FIELD(struct vendor_event, u.motion, AVRO_TAG(VENDOR_MOTION));
AVRO_EXTERN_FIELD(struct vendor_event, u.text, AVRO_TAG(VENDOR_TEXT));

AVRO_EXTERN_RECORD(struct vendor_reading, name = "Reading", namespace = "cg.vendor");
AVRO_EXTERN_FIELD(struct vendor_reading, value, AVRO_UNION(type));
AVRO_EXTERN_FIELD(union vendor_value, i, AVRO_TAG(VENDOR_VALUE_INT));
AVRO_EXTERN_FIELD(union vendor_value, text, AVRO_TAG(VENDOR_VALUE_TEXT));
AVRO_EXTERN_FIELD(union vendor_value, none, AVRO_TAG(VENDOR_VALUE_NONE) AVRO_FIELD(type = "null"));
AVRO_EXTERN_FIELD(struct vendor_reading, id, AVRO_UNION(id_kind));
AVRO_EXTERN_FIELD(vendor_id_t, number, AVRO_TAG('n'));
AVRO_EXTERN_FIELD(vendor_id_t, name, AVRO_TAG('s', 'S'));

#endif /* CG_VENDOR_H */
