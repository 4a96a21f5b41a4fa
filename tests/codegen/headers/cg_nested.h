/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: records nested by value, by array and by pointer, from
 * this header and from cg_base.h, and recursion through nullable pointers
 * (a list, a tree through arrays, two records that refer to each other). */
#ifndef CG_NESTED_H
#define CG_NESTED_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

#include "cg_base.h"

struct AVRO_RECORD(namespace = "cg") segment {
    cg_point_t from;
    cg_point_t to;
};

struct AVRO_RECORD(namespace = "cg") drawing {
    struct segment first;
    struct segment *segments AVRO_ARRAY(n_segments);
    size_t n_segments;
    cg_point_t corners[2];
    cg_point_t *origin AVRO_NULLABLE;
    struct cg_money price;
};

struct AVRO_RECORD(namespace = "cg") node {
    int64_t value;
    struct node *next AVRO_NULLABLE;
};

/* A doubly linked list: `prev` makes a cycle, which encoders must refuse (issue 12). */
struct AVRO_RECORD(namespace = "cg") dnode {
    int64_t value;
    struct dnode *next AVRO_NULLABLE;
    struct dnode *prev AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "cg") tree {
    char *label;
    struct tree *children AVRO_ARRAY(n_children);
    size_t n_children;
};

struct person;

struct AVRO_RECORD(namespace = "cg") company {
    char *name;
    struct person *owner AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "cg") person {
    char *name;
    struct company *employer AVRO_NULLABLE;
};

#endif /* CG_NESTED_H */
