/* AVRO_UNION(tag): union member i ↔ tag value i ↔ Avro branch i. */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() money {
    int64_t units;
    int32_t nanos;
};

enum value_kind { KIND_NONE, KIND_INT, KIND_TEXT, KIND_MONEY, KIND_RAW };

struct AVRO_RECORD() value {
    enum value_kind kind;                 /* the tag: not serialized itself */
    union {
        char none AVRO_FIELD(type = "null");  /* a null branch has no storage */
        int64_t i;
        char *text;
        struct money money;
        uint8_t raw[4] AVRO_FIXED_NAME(Raw4);
    } as AVRO_UNION(kind);
    uint8_t which;
    union {
        double d;
        avrogen_str s;
    } scalar AVRO_UNION(which) AVRO_FIELD(default = 1.5);
};

/* Enum-typed tags wherever decoding stores one: each store casts the branch
 * index to the tag's own type, which C++ needs (no int -> enum conversion). */
enum cell_kind { CELL_INT, CELL_TEXT, CELL_MONEY };
typedef enum { MARK_NONE, MARK_FLAG, MARK_SCORE } mark_kind_t;

struct cell {                             /* map entry: no annotation of its own */
    char *key;
    enum cell_kind kind;
    union {
        int32_t i;
        char *text;
        struct money money;
    } value AVRO_UNION(kind);
};

struct mark {
    char *key;
    mark_kind_t kind;                     /* an enum named by its typedef only */
    union {
        char none AVRO_FIELD(type = "null");
        bool flag;
        double score;
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD() cell_item {          /* array item and nested record */
    enum cell_kind kind;
    union {
        int32_t i;
        char *text;
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD() sheet {
    struct cell *cells AVRO_MAP(n_cells);
    uint32_t n_cells;
    struct mark *marks AVRO_MAP(n_marks);
    uint32_t n_marks;
    struct cell_item *items AVRO_ARRAY(n_items);
    uint32_t n_items;
    struct cell_item first;
};
