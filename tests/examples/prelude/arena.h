/* SPDX-License-Identifier: Apache-2.0 */
/* arena.h's usage example: a reader `r` over encoded orders. */
#include <avrogen/arena.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern avrogen_reader r;
#ifdef __cplusplus
}
#endif
