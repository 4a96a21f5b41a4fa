/* Out-of-line annotations for a header the user cannot edit. */
#include <vendor/point.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_ENUM(enum vendor_color, name = "Color", namespace = "com.vendor",
                 strip_prefix = "VENDOR_COLOR_");
AVRO_EXTERN_FIELD(enum vendor_color, VENDOR_COLOR_GREEN, AVRO_FIELD(name = "GO", doc = "green"));
AVRO_EXTERN_RECORD(struct vendor_point, name = "Point", namespace = "com.vendor", doc = "A point.");
AVRO_EXTERN_FIELD(struct vendor_point, label, AVRO_NULLABLE AVRO_FIELD(name = "name"));
AVRO_EXTERN_FIELD(struct vendor_point, next, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct vendor_point, history, AVRO_ARRAY(n_history));
AVRO_EXTERN_FIELD(struct vendor_point, user_data, AVRO_SKIP);
