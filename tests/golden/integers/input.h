/* Every standard C and POSIX integer type maps without an annotation, to the
 * same schema on every platform: narrower than 32 bits (and int32_t) an int,
 * every long and 64-bit type a long. Unsigned 64-bit types are longs whose
 * values above INT64_MAX encode refuses; AVRO_FIELD(type = "long") keeps the
 * same 64 bits instead, AVRO_DECIMAL(20, 0) every value exactly. */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() sizes {
    signed char sc;
    unsigned char uc;
    short s;
    unsigned short us;
    int i;
    unsigned u;
    long l;
    unsigned long ul;
    long long ll;
    unsigned long long ull;
    ssize_t ss;
    size_t sz;
    ptrdiff_t pd;
    intptr_t ip;
    uintptr_t up;
    off_t off;
    time_t t;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    uint64_t bits AVRO_FIELD(type = "long");
    uint64_t exact AVRO_DECIMAL(20, 0);
    size_t lens[3];
    size_t *maybe AVRO_NULLABLE;
    size_t *counts AVRO_ARRAY(n_counts);
    uint16_t n_counts;
    uint64_t limit AVRO_FIELD(default = 9223372036854775807);
};
