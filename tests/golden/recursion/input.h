/* Recursive types through nullable pointers and arrays, and records reached
 * only through pointers. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() leaf { int32_t v; };

/** A singly linked list. */
struct AVRO_RECORD() node {
    int64_t value;
    struct node *next AVRO_NULLABLE;          /* ["null", "node"] */
};

/** A tree: children through an array. */
struct AVRO_RECORD(namespace = "t") tree {
    char *label;
    struct tree *children AVRO_ARRAY(n_children);
    size_t n_children;
    struct leaf *leaves AVRO_ARRAY(n_leaves);  /* leaf is reached only through a pointer */
    size_t n_leaves;
    struct leaf *extra AVRO_NULLABLE;
};
