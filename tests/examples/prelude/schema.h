/* SPDX-License-Identifier: Apache-2.0 */
/* schema.h's usage example: a schema's JSON text. */
#include <avrogen/schema.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const char *text;
extern size_t len;
#ifdef __cplusplus
}
#endif
