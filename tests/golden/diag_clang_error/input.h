/* Clang's own errors are forwarded and are fatal. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() broken {
    int32_t a
    int32_t b;
    unknown_t c;
};
