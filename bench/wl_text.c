/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload "text": four records of one 4096-byte string each, about 30% of
 * whose characters take 2 to 4 bytes of UTF-8 (bench_text_intl). Reading it
 * is little besides validating the string: its instructions per byte are the
 * validator's, plus a few hundred per record.
 */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "workloads/text.avro.h"
#include "workloads/text.h"

#define N_RECORDS 4

static text_t *records;
static text_view_t *views;

static int text_init(void)
{
    bench_rng rng = {UINT64_C(0x7e47)};
    records = bench_data_alloc(N_RECORDS * sizeof *records);
    views = bench_data_alloc(N_RECORDS * sizeof *views);
    for (size_t i = 0; i < N_RECORDS; i++) {
        records[i].body = bench_text_intl(&rng, TEXT_BODY_BYTES);
        views[i].body = (avrogen_str){records[i].body, TEXT_BODY_BYTES};
    }
    return 0;
}

static void text_fini(void)
{
}

static const void *text_record(size_t i)
{
    return &records[i];
}

static bool text_eq(const void *px, const void *py)
{
    const text_t *x = px, *y = py;
    return strcmp(x->body, y->body) == 0;
}

/* ---- avro-c ----------------------------------------------------------------- */

static int text_to_avroc(const void *p, avro_value_t *v)
{
    const text_t *t = p;
    avro_value_t f;
    return bench_avroc_field(v, 0, &f) ||
                           avro_value_set_string_len(&f, t->body, strlen(t->body) + 1)
                   ? -1
                   : 0;
}

static void text_free_avroc(void *p)
{
    text_t *t = p;
    free(t->body);
}

static int text_from_avroc(avro_value_t *v, void *p)
{
    text_t *t = p;
    avro_value_t f;
    return bench_avroc_field(v, 0, &f) || bench_avroc_strdup(&f, &t->body) ? -1 : 0;
}

/* ---- the generic runtime ----------------------------------------------------- */

static int text_to_generic(const void *p, avrogen_value *v, const avrogen_node *t, avrogen_arena *a)
{
    const text_t *x = p;
    if (avrogen_value_init(v, t, a) != AVROGEN_OK ||
        avrogen_value_set_string(&v->fields[0], x->body, strlen(x->body), a) != AVROGEN_OK)
        return -1;
    return 0;
}

static const bench_ops text_ops = {
        .schema_json = bench_avsc_text,
        .n_records = N_RECORDS,
        .record = text_record,
        .to_avroc = text_to_avroc,
        .from_avroc = text_from_avroc,
        .free_avroc = text_free_avroc,
        .rec_size = sizeof(text_t),
        .to_generic = text_to_generic,
        .eq = text_eq,
};

/* ---- generated code ---------------------------------------------------------- */

static bool decoded_eq(const text_t *v, size_t i)
{
    return text_eq(v, &records[i]);
}

static bool decoded_view_eq(const text_view_t *v, size_t i)
{
    return bench_str_eq(records[i].body, v->body.ptr, v->body.len);
}

BENCH_DEFINE_CODEC_ROWS(gen, text_t, text, records, N_RECORDS, decoded_eq)
BENCH_DEFINE_CODEC_ROWS(gen_view, text_view_t, text_view, views, N_RECORDS, decoded_view_eq)

static const bench_row text_rows[] = {
        {"gen", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_write, NULL},
        {"gen", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_read},
        {"gen_view", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_view_write,
         NULL},
        {"gen_view", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_view_read},
};

const bench_workload bench_wl_text = {
        .name = "text",
        .schema_json = bench_avsc_text,
        .generated_type = &text_avro_type,
        .n_records = N_RECORDS,
        .ops = &text_ops,
        .init = text_init,
        .fini = text_fini,
        .rows = text_rows,
        .n_rows = sizeof text_rows / sizeof text_rows[0],
};
