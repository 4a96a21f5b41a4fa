/* SPDX-License-Identifier: Apache-2.0 */
/* annotate.h's usage examples are file-scope declarations; the vendor header
 * they name is ../include/vendor/point.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>
