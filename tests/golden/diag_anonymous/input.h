/* Anonymous members where generated code could not reach or name them (an
 * anonymous union whose members are all kept: they share their storage), and
 * errors inside an untagged member type, reported in the same run. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() holder {
    int kind;
    union {
        int32_t i;
        float f;
    };
    struct {
        long double x;
        int32_t *p;
    } inner;
    struct {
        char *key;
        struct { int32_t v; } value;
    } *tags AVRO_MAP(n_tags);
    uint32_t n_tags;
    union {
        __extension__ struct { int32_t a; int32_t b; };
        float f;
    } u AVRO_UNION(kind);
};

struct AVRO_RECORD() { int32_t lonely; }; /* declares nothing: no member to name it after */
