/* Out-of-line annotations must name a complete struct and existing members. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct vendor { int32_t x; };
struct opaque;
struct unrecorded { int32_t y; };

AVRO_EXTERN_RECORD(struct vendor);
AVRO_EXTERN_FIELD(struct vendor, z, AVRO_NULLABLE);
AVRO_EXTERN_RECORD(struct opaque);
AVRO_EXTERN_RECORD(int);
AVRO_EXTERN_FIELD(struct unrecorded, y, AVRO_FIELD(name = "why"));
