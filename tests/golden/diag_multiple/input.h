/* Every problem of a run is reported, across records, in source order. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() first {
    long double a;
    char *ok;
    struct first *next;
};

struct AVRO_RECORD() second {
    unsigned bits : 4 AVRO_NULLABLE;
    void (*big)(void);
    int32_t *items AVRO_ARRAY(count);
};
