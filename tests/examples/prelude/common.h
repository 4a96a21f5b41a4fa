/* SPDX-License-Identifier: Apache-2.0 */
/* What every header's usage examples take as given: a place to put a result
 * (use), a way out with a message (fail), and examples/containers' generated
 * struct order. tests/examples/header_examples.py compiles each example after
 * its header's prelude, which includes this. */
#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "orders.avro.h"

#ifdef __cplusplus
extern "C" {
#endif

int fail(const char *msg);
void use(const void *p);

extern size_t n;                     /* how many orders */
extern struct order orders[], order; /* the records of examples/containers */
extern const char *path;             /* a container file's path */
extern avrogen_arena arena;          /* an initialised arena */
extern avrogen_status st;

#ifdef __cplusplus
}
#endif

#endif
