/* SPDX-License-Identifier: Apache-2.0 */
/* registry.h's usage examples: a writer `w` for a message, a reader `r` over
 * one, the schema's text. */
#include <avrogen/framing.h>
#include <avrogen/registry.h>
#include <avrogen/value.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
extern const char *order_avsc;
extern avrogen_writer w;
extern avrogen_reader r;
extern avrogen_registry *reg;
extern avrogen_registry_error err;
extern uint32_t id;
extern avrogen_value v;
#ifdef __cplusplus
}
#endif
