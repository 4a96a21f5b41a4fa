/* SPDX-License-Identifier: Apache-2.0 */
/* compat.h's usage example: a reader's and a writer's schema. */
#include <avrogen/compat.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern avrogen_schema *rd, *w;
#ifdef __cplusplus
}
#endif
