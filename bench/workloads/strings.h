/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bench workload "strings": a log event dominated by strings, ten string
 * fields of 8 to 200 bytes and a map of eight string labels. `log_event`
 * holds NUL-terminated strings, `log_event_view` avrogen_str views of the
 * same data.
 *
 * The file is included as "workloads/strings.h"; never put this folder itself
 * on an include path, where it would shadow the C library's <strings.h>.
 */
#ifndef AVROGEN_BENCH_STRINGS_H
#define AVROGEN_BENCH_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

#define LOG_EVENT_N_LABELS 8

/* A map entry: string -> string. */
struct log_label {
    char *key;
    char *value;
};

/** One structured log line as a log shipper forwards it. */
typedef struct AVRO_RECORD(name = "LogEvent", namespace = "bench") log_event {
    int64_t time_us;
    char *host;
    char *service;
    char *level;
    char *logger;
    char *thread;
    char *trace_id;
    char *span_id;
    char *file;
    char *function;
    char *message;
    struct log_label *labels AVRO_MAP(n_labels);
    size_t n_labels;
} log_event_t;

struct log_view_label {
    avrogen_str key;
    avrogen_str value;
};

typedef struct AVRO_RECORD(name = "LogEventView", namespace = "bench") log_event_view {
    int64_t time_us;
    avrogen_str host;
    avrogen_str service;
    avrogen_str level;
    avrogen_str logger;
    avrogen_str thread;
    avrogen_str trace_id;
    avrogen_str span_id;
    avrogen_str file;
    avrogen_str function;
    avrogen_str message;
    struct log_view_label *labels AVRO_MAP(n_labels);
    size_t n_labels;
} log_event_view_t;

#endif /* AVROGEN_BENCH_STRINGS_H */
