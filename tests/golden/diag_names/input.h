/* Avro names must be unique: records, enums and fixed types share one space. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(name = "Thing") first { int32_t v; };
struct AVRO_RECORD(name = "Thing") second { int32_t w; };
enum AVRO_ENUM(name = "twice", strip_prefix = "KIND_") kind { KIND_A };

struct AVRO_RECORD() twice {
    int32_t a;
    int32_t b AVRO_FIELD(name = "a");
    uint8_t c[4] AVRO_FIXED_NAME(Quad);
    uint8_t d[8] AVRO_FIXED_NAME(Quad);
};
