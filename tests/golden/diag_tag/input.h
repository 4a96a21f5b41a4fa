/* AVRO_TAG: all members or none, no value twice, every value fits the tag's
 * type and is a constant the tool can evaluate; only on union members. */
#include <stdint.h>

#include <avrogen/annotate.h>

enum color { RED = 1, GREEN = 2 };

struct AVRO_RECORD() tags {
    uint8_t a_tag;
    union {
        int32_t i AVRO_TAG(1);
        char *s;                              /* no AVRO_TAG */
    } a AVRO_UNION(a_tag);
    uint8_t b_tag;
    union {
        int32_t i AVRO_TAG(RED, 7);
        char *s AVRO_TAG(3, 1 + 6);           /* 7 twice */
    } b AVRO_UNION(b_tag);
    uint8_t c_tag;
    union {
        int32_t i AVRO_TAG(256);              /* uint8_t holds 0..255 */
        char *s AVRO_TAG(-1);
    } c AVRO_UNION(c_tag);
    int32_t d_tag;
    union {
        int32_t i AVRO_TAG(BLUE);             /* no such enumerator */
        char *s AVRO_TAG(1 / 0);
        double x AVRO_TAG();
    } d AVRO_UNION(d_tag);
    int32_t plain AVRO_TAG(1);                /* not a union member */
};
