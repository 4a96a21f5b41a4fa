/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload "arrays": two series of 4096 doubles and 4096 longs; the longs'
 * varints cycle through every length from 1 to 10 bytes. Its "sol" rows are
 * the generated code with the longs coded by the byte loop instead (unrolled
 * at every -O level, one bounds check per stretch of items, as gencode.h did
 * before its bulk codec): the yardstick of the bulk codec.
 */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "sol_order.h"
#include "workloads/arrays.avro.h"
#include "workloads/arrays.h"

#define N_RECORDS 2

static series_t *records;

static int arrays_init(void)
{
    bench_rng rng = {UINT64_C(0xa77a)};
    records = bench_data_alloc(N_RECORDS * sizeof *records);
    for (size_t i = 0; i < N_RECORDS; i++) {
        series_t *s = &records[i];
        s->n_values = SERIES_N_SAMPLES;
        s->values = bench_data_alloc(SERIES_N_SAMPLES * sizeof *s->values);
        s->n_stamps = SERIES_N_SAMPLES;
        s->stamps = bench_data_alloc(SERIES_N_SAMPLES * sizeof *s->stamps);
        for (size_t j = 0; j < SERIES_N_SAMPLES; j++) {
            s->values[j] = bench_rng_double(&rng, -1e3, 1e3);
            s->stamps[j] = bench_long_of_len(&rng, 1 + (unsigned)((i + j) % 10));
        }
    }
    return 0;
}

static void arrays_fini(void)
{
}

static const void *arrays_record(size_t i)
{
    return &records[i];
}

static bool arrays_eq(const void *px, const void *py)
{
    const series_t *x = px, *y = py;
    return x->n_values == y->n_values && x->n_stamps == y->n_stamps &&
           (x->n_values == 0 ||
            memcmp(x->values, y->values, x->n_values * sizeof *x->values) == 0) &&
           (x->n_stamps == 0 || memcmp(x->stamps, y->stamps, x->n_stamps * sizeof *x->stamps) == 0);
}

/* ---- avro-c ----------------------------------------------------------------- */

static int arrays_to_avroc(const void *p, avro_value_t *v)
{
    const series_t *s = p;
    avro_value_t f, item;
    int rc = 0;
    if (bench_avroc_field(v, 0, &f) != 0)
        return -1;
    for (size_t j = 0; j < s->n_values; j++)
        rc |= avro_value_append(&f, &item, NULL) || avro_value_set_double(&item, s->values[j]);
    if (bench_avroc_field(v, 1, &f) != 0)
        return -1;
    for (size_t j = 0; j < s->n_stamps; j++)
        rc |= avro_value_append(&f, &item, NULL) || avro_value_set_long(&item, s->stamps[j]);
    return rc ? -1 : 0;
}

static void arrays_free_avroc(void *p)
{
    series_t *s = p;
    free(s->values);
    free(s->stamps);
}

static int arrays_from_avroc(avro_value_t *v, void *p)
{
    series_t *s = p;
    avro_value_t f, item;
    size_t n;
    int rc = 0;
    if (bench_avroc_field(v, 0, &f) != 0 || avro_value_get_size(&f, &n) != 0)
        return -1;
    if (n != 0 && (s->values = malloc(n * sizeof *s->values)) == NULL)
        return -1;
    s->n_values = n;
    for (size_t j = 0; j < n; j++)
        rc |= avro_value_get_by_index(&f, j, &item, NULL) ||
              avro_value_get_double(&item, &s->values[j]);
    if (bench_avroc_field(v, 1, &f) != 0 || avro_value_get_size(&f, &n) != 0)
        return -1;
    if (n != 0 && (s->stamps = malloc(n * sizeof *s->stamps)) == NULL)
        return -1;
    s->n_stamps = n;
    for (size_t j = 0; j < n; j++)
        rc |= avro_value_get_by_index(&f, j, &item, NULL) ||
              avro_value_get_long(&item, &s->stamps[j]);
    return rc ? -1 : 0;
}

/* ---- the generic runtime ----------------------------------------------------- */

static int arrays_to_generic(const void *p, avrogen_value *v, const avrogen_node *t,
                             avrogen_arena *a)
{
    const series_t *s = p;
    avrogen_value *item;
    if (avrogen_value_init(v, t, a) != AVROGEN_OK)
        return -1;
    for (size_t j = 0; j < s->n_values; j++)
        if (avrogen_value_append(&v->fields[0], a, &item) != AVROGEN_OK ||
            avrogen_value_set_double(item, s->values[j]) != AVROGEN_OK)
            return -1;
    for (size_t j = 0; j < s->n_stamps; j++)
        if (avrogen_value_append(&v->fields[1], a, &item) != AVROGEN_OK ||
            avrogen_value_set_long(item, s->stamps[j]) != AVROGEN_OK)
            return -1;
    return 0;
}

static const bench_ops arrays_ops = {
        .schema_json = bench_avsc_arrays,
        .n_records = N_RECORDS,
        .record = arrays_record,
        .to_avroc = arrays_to_avroc,
        .from_avroc = arrays_from_avroc,
        .free_avroc = arrays_free_avroc,
        .rec_size = sizeof(series_t),
        .to_generic = arrays_to_generic,
        .eq = arrays_eq,
};

/* ---- generated code ---------------------------------------------------------- */

static bool decoded_eq(const series_t *v, size_t i)
{
    return arrays_eq(v, &records[i]);
}

BENCH_DEFINE_CODEC_ROWS(gen, series_t, series, records, N_RECORDS, decoded_eq)
BENCH_DEFINE_SIZED_ROW(gen, series_t, series, records, N_RECORDS)

/* ---- the byte loop ----------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define SOL_NOINLINE __attribute__((noinline))
#else
#define SOL_NOINLINE
#endif

/* avrogen_read_longs with the byte loop (bench/run counts its instructions). */
SOL_NOINLINE static void sol_read_longs(avrogen_reader *r, int64_t *dst, size_t n)
{
    size_t i = 0;
    while (i < n && r->err == AVROGEN_OK) {
        size_t end = i + avrogen_reader_remaining(r) / 10;
        if (end > n)
            end = n;
        const uint8_t *p = r->p;
        for (; i < end; i++) {
            uint64_t u;
            const uint8_t *next = sol_varint10(p, &u);
            if (next == NULL)
                break;
            dst[i] = avrogen_zigzag_decode(u);
            p = next;
        }
        r->p = p;
        if (i < n)
            dst[i++] = avrogen_read_long(r);
    }
}

/* avrogen_write_longs with the byte loop. */
SOL_NOINLINE static void sol_write_longs(avrogen_writer *w, const int64_t *v, size_t n)
{
    if (n <= (size_t)(w->end - w->p) / 10) {
        uint8_t *p = w->p;
        for (size_t i = 0; i < n; i++)
            p = avrogen_put_varint(p, avrogen_zigzag_encode(v[i]));
        w->p = p;
        return;
    }
    for (size_t i = 0; i < n; i++)
        avrogen_write_long(w, v[i]);
}

static size_t sol_write(void *st, uint8_t *out, size_t cap, bool verify)
{
    avrogen_writer w;
    (void)st;
    (void)verify;
    avrogen_writer_init_fixed(&w, out, cap);
    for (size_t i = 0; i < N_RECORDS; i++) {
        const series_t *s = &records[i];
        size_t count = avrogen_write_array_start(&w, s->values, (int64_t)s->n_values);
        avrogen_write_doubles(&w, s->values, count);
        avrogen_write_block_count(&w, 0);
        count = avrogen_write_array_start(&w, s->stamps, (int64_t)s->n_stamps);
        sol_write_longs(&w, s->stamps, count);
        avrogen_write_block_count(&w, 0);
        if (w.err != AVROGEN_OK)
            return 0;
    }
    return avrogen_writer_len(&w);
}

/* One array of doubles or longs, as generated code reads it. */
static void *sol_read_array(avrogen_reader *r, avrogen_arena *a, size_t *count, bool longs)
{
    void *items = NULL;
    size_t n = 0, cap = 0, b;
    while ((b = avrogen_read_block_count(r)) != 0) {
        items = avrogen_read_grow(r, a, items, n, &cap, b, 8, longs ? 1 : 8);
        if (items == NULL)
            break;
        if (longs)
            sol_read_longs(r, (int64_t *)items + n, b);
        else
            avrogen_read_doubles(r, (double *)items + n, b);
        n += b;
    }
    *count = n;
    return items;
}

static int sol_read(void *st, const uint8_t *in, size_t len, bool verify)
{
    avrogen_arena *a = st;
    avrogen_reader r;
    avrogen_reader_init(&r, in, len);
    for (size_t i = 0; i < N_RECORDS; i++) {
        series_t v;
        avrogen_arena_reset(a);
        avrogen_reader_begin_datum(&r);
        v.values = sol_read_array(&r, a, &v.n_values, false);
        v.stamps = sol_read_array(&r, a, &v.n_stamps, true);
        if (r.err != AVROGEN_OK || (verify && !decoded_eq(&v, i)))
            return -1;
    }
    return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;
}

static const bench_row arrays_rows[] = {
        {"gen", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_write, NULL},
        {"gen", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_read},
        {"gen_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_sized_write,
         NULL},
        {"sol", BENCH_WRITE, bench_stateless_open, bench_stateless_close, sol_write, NULL},
        {"sol", BENCH_READ, bench_arena_open, bench_arena_close, NULL, sol_read},
};

const bench_workload bench_wl_arrays = {
        .name = "arrays",
        .schema_json = bench_avsc_arrays,
        .generated_type = &series_avro_type,
        .n_records = N_RECORDS,
        .ops = &arrays_ops,
        .init = arrays_init,
        .fini = arrays_fini,
        .rows = arrays_rows,
        .n_rows = sizeof arrays_rows / sizeof arrays_rows[0],
};
