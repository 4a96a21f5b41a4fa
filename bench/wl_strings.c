/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workloads "strings" and "strings_utf8": log events, each a timestamp, ten
 * strings of 8 to 200 bytes and eight labels. In "strings" the text is ASCII
 * but for the message, which carries a multi-byte character in about 32; in
 * "strings_utf8" about 30% of the characters of every string but the label
 * keys are not ASCII (2 to 4 bytes each), as in text written in most of the
 * world's languages.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "workloads/strings.avro.h"
#include "workloads/strings.h"

#define N_RECORDS 8
#define N_STRINGS 10

/* One data set, in both C shapes. */
typedef struct strings_set {
    log_event_t *records;
    log_event_view_t *views;
} strings_set;

static strings_set plain, intl;

/* The ten string members, in field order: offsets into both structs. */
static const size_t string_at[N_STRINGS] = {
        offsetof(log_event_t, host),     offsetof(log_event_t, service),
        offsetof(log_event_t, level),    offsetof(log_event_t, logger),
        offsetof(log_event_t, thread),   offsetof(log_event_t, trace_id),
        offsetof(log_event_t, span_id),  offsetof(log_event_t, file),
        offsetof(log_event_t, function), offsetof(log_event_t, message)};
static const size_t view_at[N_STRINGS] = {
        offsetof(log_event_view_t, host),     offsetof(log_event_view_t, service),
        offsetof(log_event_view_t, level),    offsetof(log_event_view_t, logger),
        offsetof(log_event_view_t, thread),   offsetof(log_event_view_t, trace_id),
        offsetof(log_event_view_t, span_id),  offsetof(log_event_view_t, file),
        offsetof(log_event_view_t, function), offsetof(log_event_view_t, message)};

static char **string_ref(log_event_t *e, size_t k)
{
    return (void *)((unsigned char *)e + string_at[k]);
}

static const char *string_of(const log_event_t *e, size_t k)
{
    const char *const *p = (const void *)((const unsigned char *)e + string_at[k]);
    return *p;
}

static avrogen_str *view_ref(log_event_view_t *e, size_t k)
{
    return (void *)((unsigned char *)e + view_at[k]);
}

/* The text of a string field of `len` bytes: intl, or ASCII with (utf8) a
 * multi-byte character now and then. */
static char *text(bench_rng *rng, size_t len, bool intl_text, bool utf8)
{
    return intl_text ? bench_text_intl(rng, len) : bench_text(rng, len, utf8);
}

static void strings_build(strings_set *set, uint64_t seed, bool intl_text)
{
    /* Length range of each string field, in field order. */
    static const size_t lo[N_STRINGS] = {12, 8, 8, 20, 8, 32, 16, 20, 12, 80};
    static const size_t hi[N_STRINGS] = {28, 20, 12, 60, 24, 32, 16, 60, 40, 200};
    static const char *const keys[LOG_EVENT_N_LABELS] = {
            "env", "region", "zone", "cluster", "namespace", "pod", "container", "version"};
    bench_rng rng = {seed};
    log_event_t *records = set->records = bench_data_alloc(N_RECORDS * sizeof *records);
    log_event_view_t *views = set->views = bench_data_alloc(N_RECORDS * sizeof *views);
    for (size_t i = 0; i < N_RECORDS; i++) {
        log_event_t *e = &records[i];
        log_event_view_t *v = &views[i];
        e->time_us = (int64_t)bench_rng_range(&rng, UINT64_C(1700000000000000),
                                              UINT64_C(1800000000000000));
        for (size_t k = 0; k < N_STRINGS; k++)
            *string_ref(e, k) =
                    text(&rng, bench_rng_range(&rng, lo[k], hi[k]), intl_text, k == N_STRINGS - 1);
        e->n_labels = LOG_EVENT_N_LABELS;
        e->labels = bench_data_alloc(LOG_EVENT_N_LABELS * sizeof *e->labels);
        for (size_t k = 0; k < LOG_EVENT_N_LABELS; k++) {
            e->labels[k].key = bench_data_strdup(keys[k]);
            e->labels[k].value = text(&rng, bench_rng_range(&rng, 8, 40), intl_text, false);
        }

        v->time_us = e->time_us;
        for (size_t k = 0; k < N_STRINGS; k++) {
            const char *s = string_of(e, k);
            *view_ref(v, k) = (avrogen_str){s, strlen(s)};
        }
        v->n_labels = e->n_labels;
        v->labels = bench_data_alloc(LOG_EVENT_N_LABELS * sizeof *v->labels);
        for (size_t k = 0; k < LOG_EVENT_N_LABELS; k++)
            v->labels[k] =
                    (struct log_view_label){{e->labels[k].key, strlen(e->labels[k].key)},
                                            {e->labels[k].value, strlen(e->labels[k].value)}};
    }
}

static int strings_init(void)
{
    strings_build(&plain, UINT64_C(0x5717), false);
    return 0;
}

static int strings_utf8_init(void)
{
    strings_build(&intl, UINT64_C(0x5718), true);
    return 0;
}

static void strings_fini(void)
{
}

static const void *strings_record(size_t i)
{
    return &plain.records[i];
}

static const void *strings_utf8_record(size_t i)
{
    return &intl.records[i];
}

static bool strings_eq(const void *px, const void *py)
{
    const log_event_t *x = px, *y = py;
    if (x->time_us != y->time_us || x->n_labels != y->n_labels)
        return false;
    for (size_t k = 0; k < N_STRINGS; k++)
        if (strcmp(string_of(x, k), string_of(y, k)) != 0)
            return false;
    for (size_t k = 0; k < x->n_labels; k++)
        if (strcmp(x->labels[k].key, y->labels[k].key) != 0 ||
            strcmp(x->labels[k].value, y->labels[k].value) != 0)
            return false;
    return true;
}

static avrogen_str view_of(const log_event_view_t *e, size_t k)
{
    const avrogen_str *p = (const void *)((const unsigned char *)e + view_at[k]);
    return *p;
}

static bool strings_view_eq(const log_event_view_t *x, const log_event_t *y)
{
    if (x->time_us != y->time_us || x->n_labels != y->n_labels)
        return false;
    for (size_t k = 0; k < N_STRINGS; k++)
        if (!bench_str_eq(string_of(y, k), view_of(x, k).ptr, view_of(x, k).len))
            return false;
    for (size_t k = 0; k < x->n_labels; k++)
        if (!bench_str_eq(y->labels[k].key, x->labels[k].key.ptr, x->labels[k].key.len) ||
            !bench_str_eq(y->labels[k].value, x->labels[k].value.ptr, x->labels[k].value.len))
            return false;
    return true;
}

/* ---- avro-c ----------------------------------------------------------------- */

static int strings_to_avroc(const void *p, avro_value_t *v)
{
    const log_event_t *e = p;
    avro_value_t f, x;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_set_long(&f, e->time_us);
    for (size_t k = 0; k < N_STRINGS; k++) {
        const char *s = string_of(e, k);
        rc |= bench_avroc_field(v, 1 + k, &f) || avro_value_set_string_len(&f, s, strlen(s) + 1);
    }
    if (bench_avroc_field(v, 1 + N_STRINGS, &f) != 0)
        return -1;
    for (size_t k = 0; k < e->n_labels; k++)
        rc |= avro_value_add(&f, e->labels[k].key, &x, NULL, NULL) ||
              avro_value_set_string_len(&x, e->labels[k].value, strlen(e->labels[k].value) + 1);
    return rc ? -1 : 0;
}

static void strings_free_avroc(void *p)
{
    log_event_t *e = p;
    for (size_t k = 0; k < N_STRINGS; k++)
        free(*string_ref(e, k));
    for (size_t k = 0; k < e->n_labels; k++) {
        free(e->labels[k].key);
        free(e->labels[k].value);
    }
    free(e->labels);
}

static int strings_from_avroc(avro_value_t *v, void *p)
{
    log_event_t *e = p;
    avro_value_t f, x;
    const char *key;
    size_t n;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_get_long(&f, &e->time_us);
    for (size_t k = 0; k < N_STRINGS; k++)
        rc |= bench_avroc_field(v, 1 + k, &f) || bench_avroc_strdup(&f, string_ref(e, k));
    if (bench_avroc_field(v, 1 + N_STRINGS, &f) != 0 || avro_value_get_size(&f, &n) != 0)
        return -1;
    if (n != 0 && (e->labels = calloc(n, sizeof *e->labels)) == NULL)
        return -1;
    e->n_labels = n;
    for (size_t k = 0; k < n; k++) {
        if (avro_value_get_by_index(&f, k, &x, &key) != 0)
            return -1;
        rc |= bench_avroc_strdup(&x, &e->labels[k].value);
        if ((e->labels[k].key = strdup(key)) == NULL)
            return -1;
    }
    return rc ? -1 : 0;
}

/* ---- the generic runtime ----------------------------------------------------- */

static int strings_to_generic(const void *p, avrogen_value *v, const avrogen_node *t,
                              avrogen_arena *a)
{
    const log_event_t *e = p;
    avrogen_value *item;
    if (avrogen_value_init(v, t, a) != AVROGEN_OK ||
        avrogen_value_set_long(&v->fields[0], e->time_us) != AVROGEN_OK)
        return -1;
    for (size_t k = 0; k < N_STRINGS; k++) {
        const char *s = string_of(e, k);
        if (avrogen_value_set_string(&v->fields[1 + k], s, strlen(s), a) != AVROGEN_OK)
            return -1;
    }
    for (size_t k = 0; k < e->n_labels; k++) {
        const struct log_label *l = &e->labels[k];
        if (avrogen_value_map_put(&v->fields[1 + N_STRINGS], l->key, strlen(l->key), a, &item) !=
                    AVROGEN_OK ||
            avrogen_value_set_string(item, l->value, strlen(l->value), a) != AVROGEN_OK)
            return -1;
    }
    return 0;
}

static const bench_ops strings_ops = {
        .schema_json = bench_avsc_strings,
        .n_records = N_RECORDS,
        .record = strings_record,
        .to_avroc = strings_to_avroc,
        .from_avroc = strings_from_avroc,
        .free_avroc = strings_free_avroc,
        .rec_size = sizeof(log_event_t),
        .to_generic = strings_to_generic,
        .eq = strings_eq,
};

static const bench_ops strings_utf8_ops = {
        .schema_json = bench_avsc_strings,
        .n_records = N_RECORDS,
        .record = strings_utf8_record,
        .to_avroc = strings_to_avroc,
        .from_avroc = strings_from_avroc,
        .free_avroc = strings_free_avroc,
        .rec_size = sizeof(log_event_t),
        .to_generic = strings_to_generic,
        .eq = strings_eq,
};

/* ---- generated code ---------------------------------------------------------- */

static bool decoded_eq(const log_event_t *v, size_t i)
{
    return strings_eq(v, &plain.records[i]);
}

static bool decoded_view_eq(const log_event_view_t *v, size_t i)
{
    return strings_view_eq(v, &plain.records[i]);
}

static bool intl_decoded_eq(const log_event_t *v, size_t i)
{
    return strings_eq(v, &intl.records[i]);
}

static bool intl_decoded_view_eq(const log_event_view_t *v, size_t i)
{
    return strings_view_eq(v, &intl.records[i]);
}

BENCH_DEFINE_CODEC_ROWS(gen, log_event_t, log_event, plain.records, N_RECORDS, decoded_eq)
BENCH_DEFINE_CODEC_ROWS(gen_view, log_event_view_t, log_event_view, plain.views, N_RECORDS,
                        decoded_view_eq)
BENCH_DEFINE_SIZED_ROW(gen, log_event_t, log_event, plain.records, N_RECORDS)
BENCH_DEFINE_SIZED_ROW(gen_view, log_event_view_t, log_event_view, plain.views, N_RECORDS)
BENCH_DEFINE_CODEC_ROWS(intl, log_event_t, log_event, intl.records, N_RECORDS, intl_decoded_eq)
BENCH_DEFINE_CODEC_ROWS(intl_view, log_event_view_t, log_event_view, intl.views, N_RECORDS,
                        intl_decoded_view_eq)
BENCH_DEFINE_SIZED_ROW(intl, log_event_t, log_event, intl.records, N_RECORDS)
BENCH_DEFINE_SIZED_ROW(intl_view, log_event_view_t, log_event_view, intl.views, N_RECORDS)

static const bench_row strings_rows[] = {
        {"gen", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_write, NULL},
        {"gen", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_read},
        {"gen_view", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_view_write,
         NULL},
        {"gen_view", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_view_read},
        {"gen_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_sized_write,
         NULL},
        {"gen_view_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close,
         gen_view_sized_write, NULL},
};

static const bench_row strings_utf8_rows[] = {
        {"gen", BENCH_WRITE, bench_stateless_open, bench_stateless_close, intl_write, NULL},
        {"gen", BENCH_READ, bench_arena_open, bench_arena_close, NULL, intl_read},
        {"gen_view", BENCH_WRITE, bench_stateless_open, bench_stateless_close, intl_view_write,
         NULL},
        {"gen_view", BENCH_READ, bench_arena_open, bench_arena_close, NULL, intl_view_read},
        {"gen_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close, intl_sized_write,
         NULL},
        {"gen_view_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close,
         intl_view_sized_write, NULL},
};

const bench_workload bench_wl_strings = {
        .name = "strings",
        .schema_json = bench_avsc_strings,
        .generated_type = &log_event_avro_type,
        .n_records = N_RECORDS,
        .ops = &strings_ops,
        .init = strings_init,
        .fini = strings_fini,
        .rows = strings_rows,
        .n_rows = sizeof strings_rows / sizeof strings_rows[0],
};

const bench_workload bench_wl_strings_utf8 = {
        .name = "strings_utf8",
        .schema_json = bench_avsc_strings,
        .generated_type = &log_event_avro_type,
        .n_records = N_RECORDS,
        .ops = &strings_utf8_ops,
        .init = strings_utf8_init,
        .fini = strings_fini,
        .rows = strings_utf8_rows,
        .n_rows = sizeof strings_utf8_rows / sizeof strings_utf8_rows[0],
};
