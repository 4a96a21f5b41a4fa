/* Other unsupported C: long double, zero-length arrays, pointers in arrays,
 * annotations in the wrong place, AVRO_SKIP mixed with others, const members
 * that decoding could not write. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() misc {
    long double ld;
    int32_t *items[4];
    void *skipped AVRO_SKIP AVRO_NULLABLE;
    const int32_t fixed_value;
    const char name[8];
    const char *fine;                       /* a pointer to const is writable */
    const uint32_t n_items;
    int32_t *items2 AVRO_ARRAY(n_items);
};

union AVRO_RECORD() not_a_record { int32_t a; };
struct AVRO_NULLABLE misplaced { int32_t b; };
