/* SPDX-License-Identifier: Apache-2.0 */
/* framing.h's usage example: a message and a schema of the set. */
#include <avrogen/framing.h>
#include <avrogen/value.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const avrogen_schema *order_schema;
extern const uint8_t *msg;
extern size_t len;
extern avrogen_value v;
#ifdef __cplusplus
}
#endif
