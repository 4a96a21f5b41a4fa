/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the bench harness (bench.cc) and the workloads (wl_*.c) share: a
 * workload is a fixed data set of records plus the rows that write and read
 * it; a row is one way of doing that (avro-c, the generic runtime, generated
 * code, hand-written code). Every write row appends the encoding of every
 * record of the data set to one buffer, so all rows of a workload can be
 * compared byte for byte; every read row decodes that buffer record by record.
 *
 * This header is C and C++; it includes neither avro-c nor the runtime.
 */
#ifndef AVROGEN_BENCH_H
#define AVROGEN_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bench_dir { BENCH_WRITE, BENCH_READ } bench_dir;

struct bench_workload;

typedef struct bench_row {
    const char *name; /* "avroc_best", "gen", ...; unique per workload and direction */
    bench_dir dir;
    /* State for the workload's data set (prefilled values, readers, arenas), or
     * NULL on failure. Called after the workload's init. */
    void *(*open)(const struct bench_workload *wl);
    void (*close)(void *st);
    /*
     * BENCH_WRITE: append the encoding of every record to out[0..cap) and
     * return the byte count, 0 on failure. With `verify`, also check what the
     * row can check about itself (a size function against the bytes written).
     */
    size_t (*write)(void *st, uint8_t *out, size_t cap, bool verify);
    /*
     * BENCH_READ: decode every record of in[0..len) and return 0, or -1 on a
     * decode error. With `verify`, compare each decoded record with the source
     * record it was encoded from and return -1 on the first difference.
     */
    int (*read)(void *st, const uint8_t *in, size_t len, bool verify);
} bench_row;

typedef struct bench_workload {
    const char *name;        /* "order" */
    const char *schema_json; /* the schema every avro-c and generic row uses */
    /* The generated record the rows encode, or NULL: the Parsing Canonical
     * Form of its schema must equal schema_json's. */
    const struct avrogen_type *generated_type;
    size_t n_records;  /* records in the data set */
    const void *ops;   /* the conversions bench_common_rows use (a bench_ops, rows.h) */
    int (*init)(void); /* build the data set; 0 on success */
    void (*fini)(void);
    const bench_row *rows; /* the rows of its own: generated and hand-written code */
    size_t n_rows;
    /* Only `rows`, not bench_common_rows: those read with the schema they
     * write, while the evolve workloads read with another (resolution). */
    bool own_rows_only;
    /* What init proved that no row shows (avro-c refusing a schema pair), for
     * the harness to print after verification; NULL or "" for nothing. */
    const char *(*note)(void);
} bench_workload;

/* The rows every workload has, over its `ops`: avro-c and the generic runtime. */
extern const bench_row bench_common_rows[];
extern const size_t bench_n_common_rows;

extern const bench_workload bench_wl_order;
extern const bench_workload bench_wl_strings;
extern const bench_workload bench_wl_strings_utf8;
extern const bench_workload bench_wl_text;
extern const bench_workload bench_wl_unions;
extern const bench_workload bench_wl_arrays;
extern const bench_workload bench_wl_evolve;
extern const bench_workload bench_wl_evolve_c;

/* The .avsc texts of bench/workloads, embedded at build time. */
extern const char bench_avsc_order[];
extern const char bench_avsc_strings[];
extern const char bench_avsc_text[];
extern const char bench_avsc_unions[];
extern const char bench_avsc_arrays[];
/* bench/workloads/earlier: Order as the evolve workloads write it. */
extern const char bench_avsc_order_v0[];
extern const char bench_avsc_order_v0_paid[];

/* Why the C files cannot be measured (no NDEBUG, no optimisation, a sanitizer),
 * or "" (rows.c). The harness refuses to run on anything else. */
extern const char bench_c_build_problem[];

/* ---- heap accounting (alloc_count.c) -------------------------------------- */

/* Calls to malloc, calloc, realloc, aligned_alloc, posix_memalign and
 * memalign made by anyone in the process so far. Not thread-safe: the bench
 * is single-threaded. */
uint64_t bench_alloc_calls(void);

/* ---- deterministic data (data.c) ------------------------------------------ */

/* A splitmix64 stream: the same seed gives the same data on every machine. */
typedef struct bench_rng {
    uint64_t s;
} bench_rng;

uint64_t bench_rng_next(bench_rng *r);
/* Uniform in [lo, hi]. */
uint64_t bench_rng_range(bench_rng *r, uint64_t lo, uint64_t hi);
double bench_rng_double(bench_rng *r, double lo, double hi);
/* A long whose zigzag varint is exactly `len` bytes (1..10). */
int64_t bench_long_of_len(bench_rng *r, unsigned len);
/*
 * `len` bytes of printable text from the data arena, NUL-terminated. With
 * `utf8`, about one character in 32 is a two- or three-byte UTF-8 sequence
 * (the byte count is still exactly `len`).
 */
char *bench_text(bench_rng *r, size_t len, bool utf8);
/*
 * `len` bytes of text of which about 30% of the characters are not ASCII
 * (2-, 3- and 4-byte UTF-8), NUL-terminated, from the data arena.
 */
char *bench_text_intl(bench_rng *r, size_t len);
/* A copy of `s` in the data arena. */
char *bench_data_strdup(const char *s);
/* Zeroed memory for the data set, freed by bench_data_free_all. */
void *bench_data_alloc(size_t size);
void bench_data_free_all(void);

/* Text equality of a NUL-terminated string with a view; NULL equals {NULL, 0}. */
bool bench_str_eq(const char *s, const char *view_ptr, size_t view_len);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_BENCH_H */
