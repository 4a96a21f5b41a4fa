/* Malformed option payloads point at the annotation. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(nme = "X") a { int32_t v; };
struct AVRO_RECORD(name = Unquoted) b { int32_t v; };
struct AVRO_RECORD(name = "Dup", name = "Dup") c { int32_t v; };
struct AVRO_RECORD(name = 42) d { int32_t v; };
struct AVRO_RECORD(name "E") e { int32_t v; };
struct AVRO_RECORD(name = "bad-name") f { int32_t v; };
struct AVRO_RECORD(namespace = "1x") g { int32_t v; };

struct AVRO_RECORD() fields {
    int32_t a AVRO_FIELD(order = "sideways");
    int32_t b AVRO_FIELD(aliases = "one");
    int32_t c AVRO_FIELD(doc = 'single');
    int32_t d AVRO_FIELD(default = [1,);
    int32_t e AVRO_FIELD(type = "string");
    int32_t f AVRO_NULLABLE AVRO_NULLABLE;
    int32_t g AVRO_RECORD();
};
