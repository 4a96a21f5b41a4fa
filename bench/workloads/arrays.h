/* SPDX-License-Identifier: Apache-2.0 */
/* Bench workload "arrays": large numeric arrays, 4096 doubles and 4096 longs. */
#ifndef AVROGEN_BENCH_ARRAYS_H
#define AVROGEN_BENCH_ARRAYS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

#define SERIES_N_SAMPLES 4096

/** A sampled time series: values and their timestamps. */
typedef struct AVRO_RECORD(name = "Series", namespace = "bench") series {
    double *values AVRO_ARRAY(n_values);
    size_t n_values;
    int64_t *stamps AVRO_ARRAY(n_stamps);
    size_t n_stamps;
} series_t;

#endif /* AVROGEN_BENCH_ARRAYS_H */
