/* Tagged unions whose tag values are not member positions: AVRO_TAG lists the
 * values (integer constant expressions, enumerators, macros) selecting each
 * member; several may select one, and decode stores the first listed. */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/* msgpack's object type codes (msgpack-c object.h). */
typedef enum {
    OBJ_NIL = 0x00,
    OBJ_BOOLEAN = 0x01,
    OBJ_POSITIVE_INTEGER = 0x02,
    OBJ_NEGATIVE_INTEGER = 0x03,
    OBJ_FLOAT64 = 0x04,
    OBJ_STR = 0x05,
    OBJ_FLOAT32 = 0x0a
} obj_type;

#define KIND_TEXT 'T'
#define KIND_BASE 100

struct AVRO_RECORD() obj {
    obj_type type;
    union {
        int32_t nil AVRO_FIELD(type = "null") AVRO_TAG(OBJ_NIL);
        bool boolean AVRO_TAG(OBJ_BOOLEAN);
        int64_t i64 AVRO_TAG(OBJ_NEGATIVE_INTEGER, OBJ_POSITIVE_INTEGER);
        double f64 AVRO_TAG(OBJ_FLOAT64, OBJ_FLOAT32); /* two codes, one member */
        char *str AVRO_TAG(OBJ_STR);
    } via AVRO_UNION(type);
    int16_t kind;
    union {
        char *text AVRO_TAG(KIND_TEXT);           /* a macro: 'T' */
        int32_t code AVRO_TAG(KIND_BASE + 1, -(KIND_BASE << 2), ~0);
    } detail AVRO_UNION(kind);
};
