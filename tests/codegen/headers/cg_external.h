/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: a record from cg_base.h reached only through a nullable
 * pointer. Its fixed size folds to a constant, so the private copy of its size
 * function goes unused: generated code must still compile without warnings. */
#ifndef CG_EXTERNAL_H
#define CG_EXTERNAL_H

#include <stdint.h>

#include <avrogen/annotate.h>

#include "cg_base.h"

struct AVRO_RECORD(namespace = "cg") pinned {
    int32_t id;
    struct cg_coord *where AVRO_NULLABLE;
};

#endif /* CG_EXTERNAL_H */
