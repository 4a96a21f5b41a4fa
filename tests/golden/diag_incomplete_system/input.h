/* AVRO_NULLABLE on a pointer to a type no header defines, in a struct of an
 * -isystem header: the fix proposed is the AVRO_EXTERN_FIELD line the user
 * can write in this header, not an annotation on the library's member. */
#include <vendor_stream.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(vendor_stream, name = "Stream");
AVRO_EXTERN_FIELD(vendor_stream, state, AVRO_NULLABLE);
