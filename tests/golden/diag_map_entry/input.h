/* Map entries need a string 'key' and a 'value', and nothing else. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct nokey { char *name; int32_t value; };
struct intkey { int32_t key; int32_t value; };
struct extra { char *key; int32_t value; int32_t stray; };

struct AVRO_RECORD() maps {
    struct nokey *a AVRO_MAP(n_a);
    size_t n_a;
    struct intkey *b AVRO_MAP(n_b);
    size_t n_b;
    struct extra *c AVRO_MAP(n_c);
    size_t n_c;
    int32_t *d AVRO_MAP(n_d);
    size_t n_d;
};
