/* The second argument of AVRO_STRING / AVRO_BYTES / AVRO_ARRAY is the room
 * after the struct of a flexible array member only, and a positive constant. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() fixed_room {
    uint8_t n;
    char text[8] AVRO_STRING(n, 8);
};

struct AVRO_RECORD() no_room {
    uint8_t n;
    int32_t items[] AVRO_ARRAY(n, 0);
};

struct AVRO_RECORD() odd_room {
    uint8_t n;
    uint8_t bytes[0] AVRO_BYTES(n, sizeof(int));
};
