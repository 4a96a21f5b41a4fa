/* SPDX-License-Identifier: Apache-2.0 */
/* gencode.h's usage example needs only the placeholders of common.h. */
#include <avrogen/gencode.h>

#include "common.h"
