/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.h's usage examples: a writer's and a reader's schema, a reader `r` over
 * the writer's datums, where a value goes. */
#include <avrogen/resolve.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern avrogen_schema *rd, *w;
extern const avrogen_schema *writer_schema;
extern uint64_t writer_fp;
extern avrogen_reader r;
extern avrogen_value v;
extern avrogen_diag why;
#ifdef __cplusplus
}
#endif
