/* A library installed in an -isystem directory: its own annotations count, and
 * its unannotated types are annotated out of line here. */
#include <acme/sensor.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_ENUM(enum acme_unit, name = "Unit", namespace = "com.acme");
AVRO_EXTERN_RECORD(acme_sensor_t, name = "Sensor", namespace = "com.acme");
AVRO_EXTERN_FIELD(acme_sensor_t, label, AVRO_NULLABLE);
