/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parses only with the flags its target compiles with: the C standard, the
 * compile definitions (one a quoted string with blanks), an include folder
 * with a blank in its name, and the CLANG_ARGS of avro_generate().
 */
#ifndef PROBE_H
#define PROBE_H

#include <stdint.h>

#include <avrogen/annotate.h>

#include "probe_config.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ != 201710L
#error "probe.h: not parsed as C17, the target's C_STANDARD"
#endif
#ifndef PROBE_BASE_SLOTS
#error "probe.h: the target's compile definition PROBE_BASE_SLOTS is missing"
#endif
#if defined(AVROGEN_PARSING) && !defined(PROBE_FROM_CLANG_ARGS)
#error "probe.h: avro_generate()'s CLANG_ARGS did not reach avrogen"
#endif

struct AVRO_RECORD(namespace = "probe") probe {
    int32_t slots[PROBE_SLOTS];
    uint8_t greeting[sizeof PROBE_GREETING]; /* fixed(sizeof PROBE_GREETING) */
};

#endif /* PROBE_H */
