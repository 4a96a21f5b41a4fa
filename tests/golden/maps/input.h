/* Maps: pointer to {key, value} entries + count. Entry structs need no annotation. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() sample {
    double value;
};

struct counter { char *key; int64_t value; };
struct label { char key[16]; char *value; };
struct series { avrogen_str key; struct sample value; };
struct bag {
    const char *key;
    int32_t *value AVRO_ARRAY(n);   /* the value's count lives in the entry */
    size_t n;
};
struct maybe { char *key; char *value AVRO_NULLABLE; };

struct AVRO_RECORD() metrics {
    struct counter *counters AVRO_MAP(n_counters);
    size_t n_counters;
    struct label *labels AVRO_MAP(n_labels);
    size_t n_labels;
    struct series *series AVRO_MAP(n_series);
    size_t n_series;
    struct bag *bags AVRO_MAP(n_bags);
    size_t n_bags;
    struct maybe *optional AVRO_MAP(n_optional);
    size_t n_optional;
};
