/* SPDX-License-Identifier: Apache-2.0 */
/* value.h's usage examples: encoded bytes and their schema. */
#include <avrogen/value.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const uint8_t *buf, *data;
extern size_t len;
extern avrogen_schema *schema;
extern const avrogen_node *type;
extern avrogen_value v;
#ifdef __cplusplus
}
#endif
