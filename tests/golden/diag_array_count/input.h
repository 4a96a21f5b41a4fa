/* AVRO_ARRAY / AVRO_MAP must name an integer member of the same struct, used once. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct entry { char *key; int32_t value; };

struct AVRO_RECORD() lists {
    int32_t *missing AVRO_ARRAY(n_missing);
    int32_t *wrong AVRO_ARRAY(label);
    char *label;
    int32_t *first AVRO_ARRAY(n);
    int32_t *second AVRO_ARRAY(n);
    size_t n;
    struct entry *entries AVRO_MAP(n_entries);
    double n_entries;
    int32_t fixed[4] AVRO_ARRAY(n_fixed);
    size_t n_fixed;
    int32_t *self AVRO_ARRAY(self);
};
