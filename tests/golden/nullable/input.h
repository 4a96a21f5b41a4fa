/* AVRO_NULLABLE: NULL ↔ null for every pointer shape; scalars go through a pointer. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "LEVEL_") level { LEVEL_LOW, LEVEL_HIGH };

struct AVRO_RECORD() detail {
    char *text;
};

struct AVRO_RECORD() maybe {
    char *note AVRO_NULLABLE;                       /* ["null","string"] */
    int32_t *count AVRO_NULLABLE;                   /* ["null","int"]: the pointer is the option */
    double *ratio AVRO_NULLABLE;
    struct detail *detail AVRO_NULLABLE;            /* ["null", detail] */
    enum level *level AVRO_NULLABLE;
    avrogen_str view AVRO_NULLABLE;                 /* ptr NULL is null */
    avrogen_bytes blob AVRO_NULLABLE;
    uint8_t *raw AVRO_ARRAY(n_raw) AVRO_NULLABLE;   /* ["null","bytes"] */
    size_t n_raw;
    int64_t *values AVRO_ARRAY(n_values) AVRO_NULLABLE; /* ["null", array] */
    size_t n_values;
    uint8_t (*digest)[8] AVRO_NULLABLE;             /* ["null", fixed] */
    char *named AVRO_NULLABLE AVRO_FIELD(default = "none"); /* non-null default: null second */
    int32_t *answer AVRO_NULLABLE AVRO_FIELD(default = 42);
    char *nothing AVRO_NULLABLE AVRO_FIELD(default = null);
};
