/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the workload files share: the table of conversions (bench_ops) over
 * which rows.c implements the rows every workload has (avro-c's generic value
 * API at its best and on the struct path, the generic runtime), and the
 * helpers for the rows typed per struct (generated and hand-written code),
 * which live in the workload files.
 *
 * C only: includes avro-c's <avro.h> next to the runtime headers.
 */
#ifndef AVROGEN_BENCH_ROWS_H
#define AVROGEN_BENCH_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include <avro.h>

#include "avrogen/value.h"

#include "bench.h"

typedef struct bench_ops {
    const char *schema_json;
    size_t n_records;
    const void *(*record)(size_t i); /* source record i of the data set */
    /* Struct -> avro-c value (v is a fresh or reset value of the schema); 0 ok. */
    int (*to_avroc)(const void *rec, avro_value_t *v);
    /* avro-c value -> a zeroed struct, its strings and arrays on the heap as a
     * C user of avro-c owns them; 0 ok. free_avroc releases them. */
    int (*from_avroc)(avro_value_t *v, void *rec);
    void (*free_avroc)(void *rec);
    size_t rec_size; /* sizeof the struct from_avroc fills */
    /* Struct -> generic value of type `t`, allocated from `a`; 0 ok. */
    int (*to_generic)(const void *rec, avrogen_value *v, const avrogen_node *t, avrogen_arena *a);
    bool (*eq)(const void *x, const void *y);
} bench_ops;

/* ---- typed rows ---------------------------------------------------------------- */

/* Open/close for typed read rows: the state is an avrogen_arena, reset per record. */
void *bench_arena_open(const bench_workload *wl);
void bench_arena_close(void *st);
/* Open/close for rows that keep no state. */
void *bench_stateless_open(const bench_workload *wl);
void bench_stateless_close(void *st);

/*
 * Define `static fn##_write` and `static fn##_read` over the generated API of
 * type T (prefix##_avro_encode, _avro_size, _avro_decode): write encodes
 * recs[0..n) into a fixed writer (verify: _avro_size agrees with the bytes
 * written); read decodes n records, resetting the arena (the row's state)
 * before each (verify: `eq(&decoded, i)` holds for source record i).
 */
#define BENCH_DEFINE_CODEC_ROWS(fn, T, prefix, recs, n, eq)                                  \
    static size_t fn##_write(void *st, uint8_t *out, size_t cap, bool verify)                \
    {                                                                                        \
        avrogen_writer w;                                                                    \
        (void)st;                                                                            \
        avrogen_writer_init_fixed(&w, out, cap);                                             \
        for (size_t i = 0; i < (n); i++) {                                                   \
            size_t before = avrogen_writer_len(&w);                                          \
            if (prefix##_avro_encode(&w, &(recs)[i]) != AVROGEN_OK)                          \
                return 0;                                                                    \
            if (verify && prefix##_avro_size(&(recs)[i]) != avrogen_writer_len(&w) - before) \
                return 0;                                                                    \
        }                                                                                    \
        return avrogen_writer_len(&w);                                                       \
    }                                                                                        \
    static int fn##_read(void *st, const uint8_t *in, size_t len, bool verify)               \
    {                                                                                        \
        avrogen_arena *a = st;                                                               \
        avrogen_reader r;                                                                    \
        T v;                                                                                 \
        avrogen_reader_init(&r, in, len);                                                    \
        for (size_t i = 0; i < (n); i++) {                                                   \
            avrogen_arena_reset(a);                                                          \
            if (prefix##_avro_decode(&r, &v, a) != AVROGEN_OK)                               \
                return -1;                                                                   \
            if (verify && !eq(&v, i))                                                        \
                return -1;                                                                   \
        }                                                                                    \
        return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;                         \
    }

/*
 * Define `static fn##_sized_write`: the exact-size encode, `prefix##_avro_size`
 * then `prefix##_avro_encode` of each record, which must write exactly the
 * bytes the size said (always checked: a row that disagrees fails). Its cost
 * minus fn##_write's is what the size function costs.
 */
#define BENCH_DEFINE_SIZED_ROW(fn, T, prefix, recs, n)                                     \
    static size_t fn##_sized_write(void *st, uint8_t *out, size_t cap, bool verify)        \
    {                                                                                      \
        avrogen_writer w;                                                                  \
        (void)st;                                                                          \
        (void)verify;                                                                      \
        avrogen_writer_init_fixed(&w, out, cap);                                           \
        for (size_t i = 0; i < (n); i++) {                                                 \
            size_t size = prefix##_avro_size(&(recs)[i]), before = avrogen_writer_len(&w); \
            if (prefix##_avro_encode(&w, &(recs)[i]) != AVROGEN_OK ||                      \
                avrogen_writer_len(&w) - before != size)                                   \
                return 0;                                                                  \
        }                                                                                  \
        return avrogen_writer_len(&w);                                                     \
    }

/* ---- data shared between workloads --------------------------------------- */

#define BENCH_ORDER_RECORDS 4

struct order;

/*
 * The order workload's records into out[0..n), n <= BENCH_ORDER_RECORDS, their
 * strings, lines and tags in the data arena: the same data on every call. Record
 * i's id is a long whose varint is 3 + i bytes.
 */
void bench_order_generate(struct order *out, size_t n);

/* ---- avro-c helpers for the conversions ----------------------------------- */

/* Field `i` of record `rec` into *out; 0 ok. */
int bench_avroc_field(avro_value_t *rec, size_t i, avro_value_t *out);
/* NUL-terminated copy of avro-c string `v` on the heap (avro-c sizes count the NUL). */
int bench_avroc_strdup(avro_value_t *v, char **out);

#endif /* AVROGEN_BENCH_ROWS_H */
