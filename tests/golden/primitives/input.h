/* Every scalar of the default mapping: C type → Avro primitive. */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() scalars {
    bool flag;                  /* boolean */
    int8_t i8;                  /* int */
    int16_t i16;                /* int */
    int32_t i32;                /* int */
    uint8_t u8;                 /* int */
    uint16_t u16;               /* int */
    short s;                    /* int */
    unsigned short us;          /* int */
    int i;                      /* int */
    char c;                     /* int */
    signed char sc;             /* int */
    unsigned char uc;           /* int */
    uint32_t u32;               /* long */
    unsigned int ui;            /* long */
    int64_t i64;                /* long */
    long long ll;               /* long */
    float f;                    /* float */
    double d;                   /* double */
    volatile int32_t vi;        /* qualifiers other than const do not matter */
};
