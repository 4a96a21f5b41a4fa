/* SPDX-License-Identifier: Apache-2.0 */
/* The header the misuse cases pass to avro_generate(); never built. */
#ifndef APP_H
#define APP_H

#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "misuse") app_event {
    int64_t id;
};

#endif /* APP_H */
