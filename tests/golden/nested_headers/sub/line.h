/* An included header with its own annotated record and enum. */
#ifndef SUB_LINE_H
#define SUB_LINE_H
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "com.acme.common", strip_prefix = "UNIT_") unit { UNIT_PIECE, UNIT_KG };

/** One line. */
struct AVRO_RECORD(namespace = "com.acme.common") line {
    int64_t sku;
    enum unit unit;
};

/* Not used by the main header: not emitted for it. */
struct AVRO_RECORD() unused { int32_t x; };
#endif
