/* An enum tag needs a type generated code can name: decoding stores the branch
 * index with a cast to it (C++ converts no integer to an enum). */
#include <stdint.h>

#include <avrogen/annotate.h>

struct entry {                            /* a map entry, reached through `entries` */
    char *key;
    enum { ENTRY_INT, ENTRY_TEXT } kind;  /* unnamed: nothing to cast to */
    union {
        int32_t i;
        char *text;
    } value AVRO_UNION(kind);
};

typedef enum { NAMED_INT, NAMED_TEXT } named_kind_t;

struct AVRO_RECORD() holder {
    enum { HOLDER_INT, HOLDER_TEXT } kind;
    union {
        int32_t i;
        char *text;
    } value AVRO_UNION(kind);
    named_kind_t named;                   /* fine: the typedef names it */
    union {
        int32_t i;
        char *text;
    } other AVRO_UNION(named);
    struct entry *entries AVRO_MAP(n_entries);
    uint32_t n_entries;
};
