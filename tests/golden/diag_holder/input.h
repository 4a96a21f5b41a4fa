/* Holders hold an array, a map or a union, in 'value' and its count or tag only. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct stray { int32_t *value AVRO_ARRAY(n); size_t n; int32_t extra; };
struct plain { double value; };
struct loop { struct loop *value AVRO_ARRAY(n); size_t n; };
struct list { int32_t *value AVRO_ARRAY(n); size_t n; };
struct choice { int k; union { int32_t i; char *s; } value AVRO_UNION(k); };
struct named { int32_t *value AVRO_ARRAY(n) AVRO_FIELD(name = "v"); size_t n; };

/* 33 holders inside each other: one more than the generator nests. */
struct n0 { int32_t *value AVRO_ARRAY(n); size_t n; };
struct n1 { struct n0 *value AVRO_ARRAY(n); size_t n; };
struct n2 { struct n1 *value AVRO_ARRAY(n); size_t n; };
struct n3 { struct n2 *value AVRO_ARRAY(n); size_t n; };
struct n4 { struct n3 *value AVRO_ARRAY(n); size_t n; };
struct n5 { struct n4 *value AVRO_ARRAY(n); size_t n; };
struct n6 { struct n5 *value AVRO_ARRAY(n); size_t n; };
struct n7 { struct n6 *value AVRO_ARRAY(n); size_t n; };
struct n8 { struct n7 *value AVRO_ARRAY(n); size_t n; };
struct n9 { struct n8 *value AVRO_ARRAY(n); size_t n; };
struct n10 { struct n9 *value AVRO_ARRAY(n); size_t n; };
struct n11 { struct n10 *value AVRO_ARRAY(n); size_t n; };
struct n12 { struct n11 *value AVRO_ARRAY(n); size_t n; };
struct n13 { struct n12 *value AVRO_ARRAY(n); size_t n; };
struct n14 { struct n13 *value AVRO_ARRAY(n); size_t n; };
struct n15 { struct n14 *value AVRO_ARRAY(n); size_t n; };
struct n16 { struct n15 *value AVRO_ARRAY(n); size_t n; };
struct n17 { struct n16 *value AVRO_ARRAY(n); size_t n; };
struct n18 { struct n17 *value AVRO_ARRAY(n); size_t n; };
struct n19 { struct n18 *value AVRO_ARRAY(n); size_t n; };
struct n20 { struct n19 *value AVRO_ARRAY(n); size_t n; };
struct n21 { struct n20 *value AVRO_ARRAY(n); size_t n; };
struct n22 { struct n21 *value AVRO_ARRAY(n); size_t n; };
struct n23 { struct n22 *value AVRO_ARRAY(n); size_t n; };
struct n24 { struct n23 *value AVRO_ARRAY(n); size_t n; };
struct n25 { struct n24 *value AVRO_ARRAY(n); size_t n; };
struct n26 { struct n25 *value AVRO_ARRAY(n); size_t n; };
struct n27 { struct n26 *value AVRO_ARRAY(n); size_t n; };
struct n28 { struct n27 *value AVRO_ARRAY(n); size_t n; };
struct n29 { struct n28 *value AVRO_ARRAY(n); size_t n; };
struct n30 { struct n29 *value AVRO_ARRAY(n); size_t n; };
struct n31 { struct n30 *value AVRO_ARRAY(n); size_t n; };
struct n32 { struct n31 *value AVRO_ARRAY(n); size_t n; };

struct AVRO_RECORD() holders {
    struct stray *a AVRO_ARRAY(n_a);
    size_t n_a;
    struct plain *b AVRO_ARRAY(n_b);
    size_t n_b;
    struct loop *c AVRO_ARRAY(n_c);
    size_t n_c;
    struct list *d AVRO_NULLABLE;
    struct named *e AVRO_ARRAY(n_e);
    size_t n_e;
    struct n32 *deep AVRO_ARRAY(n_deep);
    size_t n_deep;
    int kind;
    union {
        double x;
        struct choice c;
    } u AVRO_UNION(kind);
};
