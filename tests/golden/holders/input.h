/* Holders: an unannotated struct of 'value' and the count or tag it names carries an array, a
 * map or a union where one C location must: an array item, a union branch. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/* A row of a jagged matrix: an array of arrays. */
struct row {
    double *value AVRO_ARRAY(n);
    size_t n;
};

struct tag_entry {
    char *key;
    int64_t value;
};

/* A map as an array item (a typedef name, a count of another type). */
typedef struct tags {
    struct tag_entry *value AVRO_MAP(count);
    uint32_t count;
} tags_t;

enum cell_kind { CELL_NONE, CELL_INT, CELL_TEXT };

/* A tagged union as an array item. */
struct cell {
    enum cell_kind kind;
    union {
        char none AVRO_FIELD(type = "null");
        int64_t i;
        char *text;
    } value AVRO_UNION(kind);
};

/* A nullable string as an array item. */
struct maybe_name {
    char *value AVRO_NULLABLE;
};

/* Three levels: an array of arrays of arrays. */
struct plane {
    struct row *value AVRO_ARRAY(n_rows);
    uint16_t n_rows;
};

/* A fixed-size array as an item, and an array with a capacity. */
struct vec3 {
    float value[3];
};

struct small_ints {
    int32_t value[4] AVRO_ARRAY(n);
    uint8_t n;
};

/* Nulls as array items. */
struct nothing {
    char value AVRO_FIELD(type = "null");
};

struct bytes_list {
    avrogen_bytes *value AVRO_ARRAY(n);
    size_t n;
};

struct AVRO_RECORD(namespace = "golden.holders") grid {
    struct row *rows AVRO_ARRAY(n_rows);
    size_t n_rows;
    tags_t *labels AVRO_ARRAY(n_labels);
    size_t n_labels;
    struct cell cells[3];
    struct maybe_name *names AVRO_ARRAY(n_names);
    int32_t n_names;
    struct plane *cube AVRO_ARRAY(n_cube);
    size_t n_cube;
    struct row spare[4] AVRO_ARRAY(n_spare);
    uint8_t n_spare;
    struct vec3 *points AVRO_ARRAY(n_points);
    size_t n_points;
    struct small_ints *runs AVRO_ARRAY(n_runs) AVRO_NULLABLE;
    size_t n_runs;
    struct nothing *gaps AVRO_ARRAY(n_gaps);
    size_t n_gaps;
    /* interop.avsc's unionField: ["boolean", "double", {"type": "array", "items": "bytes"}] */
    int kind;
    union {
        bool flag;
        double number;
        struct bytes_list list;
        struct tags labels;
    } u AVRO_UNION(kind);
};
