/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bench workload "text": one 4 KiB string per record, about 30% of its
 * characters not ASCII, to measure UTF-8 validation per byte. `text` holds a
 * NUL-terminated string, `text_view` a view of the same bytes.
 */
#ifndef AVROGEN_BENCH_TEXT_H
#define AVROGEN_BENCH_TEXT_H

#include <avrogen/annotate.h>

#define TEXT_BODY_BYTES 4096

/** A document: one long text. */
typedef struct AVRO_RECORD(name = "Text", namespace = "bench") text {
    char *body;
} text_t;

typedef struct AVRO_RECORD(name = "TextView", namespace = "bench") text_view {
    avrogen_str body;
} text_view_t;

#endif /* AVROGEN_BENCH_TEXT_H */
