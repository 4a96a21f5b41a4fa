/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known answers for the struct shapes of headers/cg_shapes.h: structs filled
 * by hand, each with the Avro JSON of the datum it must encode as, written by
 * hand. test_shapes.c holds generated code to them through the generic
 * runtime; shapes_dump.c prints them for shapes_python.py, which holds them
 * to python3-avro.
 */
#ifndef SHAPES_CASES_H
#define SHAPES_CASES_H

#include <stddef.h>

#include "cg_util.h"

typedef struct shape_answer {
    const char *label;
    cg_case c;
    void (*fill)(void *v); /* v: zeroed, c.type->size bytes; fills it with static data */
    const char *json;      /* the datum, Avro JSON encoding */
} shape_answer;

extern const shape_answer shape_answers[];
extern const size_t n_shape_answers;

#endif /* SHAPES_CASES_H */
