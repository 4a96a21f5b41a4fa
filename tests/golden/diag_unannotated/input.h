/* Nested structs and enums used by a record must be annotated too. */
#include <stdint.h>
#include <time.h>

#include <avrogen/annotate.h>

struct point { int32_t x, y; };
enum color { RED, GREEN };

struct AVRO_RECORD() shape {
    struct point origin;
    enum color color;
    struct tm created;
};
