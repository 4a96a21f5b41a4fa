/* Typedefs: anonymous structs and enums named by their typedef, typedef
 * chains down to fixed-width types, and typedef'd records used as fields. */
#include <stdint.h>

#include <avrogen/annotate.h>

typedef int64_t micros_t;
typedef micros_t stamp_t;                  /* still int64_t underneath: long */

typedef enum AVRO_ENUM(strip_prefix = "MODE_") { MODE_OFF, MODE_ON } mode_t_;

/** A 2D point. */
typedef struct AVRO_RECORD() {
    float x;
    float y;
} point_t;                                 /* name "point_t", C prefix "point" */

typedef struct AVRO_RECORD() segment segment_t;
struct segment {
    point_t from;
    point_t to;
    stamp_t at;
    mode_t_ mode;
};
