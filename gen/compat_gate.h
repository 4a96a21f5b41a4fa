/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The build's compatibility gate (avrogen generate --compat-with): check each
 * record schema derived from a header against the earlier versions of it the
 * user committed, and report every break as an error at the C member (file and
 * line) whose change caused it, so a schema-evolution mistake fails the build.
 */
#ifndef AVROGEN_GEN_COMPAT_GATE_H
#define AVROGEN_GEN_COMPAT_GATE_H

#include <stddef.h>

#include <avrogen/schema.h>

#include "diag.h"
#include "model/model.h"

/*
 * Check the records of `m` defined in its main file (their .avsc text is set)
 * against every earlier schema whose root is a record of the same fullname, or
 * of a name the record lists among its aliases. `mode`: "backward" (the new
 * schema must read data written with the earlier one), "forward" (the earlier
 * must read the new), "full" (both) or "none". Earlier schemas matching no
 * record are not an error. Returns 0, 1 after reporting errors through `d`, or
 * 2 on an internal error.
 */
int compat_gate_check(const struct model *m, const avrogen_schema *const *earlier,
                      const char *const *earlier_paths, size_t n_earlier, const char *mode,
                      struct diag *d);

#endif /* AVROGEN_GEN_COMPAT_GATE_H */
