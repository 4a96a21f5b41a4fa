/* Arrays: pointer + count of any item type, and C arrays of exactly N. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "COLOR_") color { COLOR_RED, COLOR_GREEN, COLOR_BLUE };

struct AVRO_RECORD() point {
    int32_t x;
    int32_t y;
};

struct AVRO_RECORD() shapes {
    int64_t *ids AVRO_ARRAY(n_ids);         /* array of long */
    size_t n_ids;
    char **names AVRO_ARRAY(n_names);       /* array of string */
    uint32_t n_names;
    struct point *points AVRO_ARRAY(n_points); /* array of record */
    int n_points;
    enum color *colors AVRO_ARRAY(n_colors);   /* array of enum */
    uint16_t n_colors;
    double matrix[3][3];                    /* array of 3 arrays of 3 doubles */
    int8_t deltas[4];                       /* int8_t[N] is an array of int, not fixed */
    char *labels[2];                        /* array of exactly 2 strings */
    char tags[2][8];                        /* array of 2 strings of at most 7 bytes */
    struct point corners[4];                /* the record, referenced by name */
};
