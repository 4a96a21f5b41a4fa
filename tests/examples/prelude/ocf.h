/* SPDX-License-Identifier: Apache-2.0 */
/* ocf.h's usage examples: an open reader `r`, a schema's text, a diagnostic. */
#include <avrogen/ocf.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif
void use_block(avrogen_reader *b, uint64_t n);
bool block_ok(avrogen_reader *b, uint64_t n);
void report_dropped(uint64_t from, uint64_t to);
extern const char *schema;
extern avrogen_diag d;
extern FILE *out;
extern avrogen_schema *my_schema;
extern avrogen_ocf_reader *r;
#ifdef __cplusplus
}
#endif
