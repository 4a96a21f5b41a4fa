/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload "order": the data set, the conversions the shared rows use, and the
 * rows of generated and hand-written code. Each record has a long id, a
 * string, a double, an int, a boolean, a nullable string (null in every other
 * record), 10 Line records, 64 long counters whose varints take every length
 * from 1 to 10 bytes, and a 2-entry map.
 */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "sol_order.h"
#include "workloads/order.avro.h"
#include "workloads/order.h"

#define N_RECORDS BENCH_ORDER_RECORDS
#define N_LINES   10
#define N_TAGS    2

static order_t *records;
static order_view_t *views;

/* The order data set; the evolve workloads derive theirs from it (rows.h). */
void bench_order_generate(order_t *out, size_t n)
{
    static const char *const tag_keys[N_TAGS] = {"channel", "warehouse"};
    bench_rng rng = {UINT64_C(0x0de7)};
    for (size_t i = 0; i < n; i++) {
        order_t *o = &out[i];
        o->id = bench_long_of_len(&rng, 3 + (unsigned)i);
        o->customer = bench_text(&rng, bench_rng_range(&rng, 12, 24), true);
        o->total = bench_rng_double(&rng, 1, 10000);
        o->priority = (int32_t)bench_rng_range(&rng, 0, 9);
        o->paid = i % 2 == 0;
        o->note = i % 2 == 0 ? bench_text(&rng, bench_rng_range(&rng, 20, 40), false) : NULL;
        o->n_lines = N_LINES;
        o->lines = bench_data_alloc(N_LINES * sizeof *o->lines);
        for (size_t j = 0; j < N_LINES; j++) {
            struct line *l = &o->lines[j];
            l->sku = bench_long_of_len(&rng, 3 + (unsigned)(j % 3));
            l->name = bench_text(&rng, bench_rng_range(&rng, 8, 24), false);
            l->quantity = (int32_t)bench_rng_range(&rng, 1, 60);
            l->price = bench_rng_double(&rng, 0.5, 500);
        }
        for (size_t j = 0; j < ORDER_N_COUNTERS; j++)
            o->counters[j] = bench_long_of_len(&rng, 1 + (unsigned)((i + j) % 10));
        o->n_tags = N_TAGS;
        o->tags = bench_data_alloc(N_TAGS * sizeof *o->tags);
        for (size_t j = 0; j < N_TAGS; j++) {
            o->tags[j].key = bench_data_strdup(tag_keys[j]);
            o->tags[j].value = bench_long_of_len(&rng, 1 + (unsigned)(2 * j + i));
        }
    }
}

static int order_init(void)
{
    records = bench_data_alloc(N_RECORDS * sizeof *records);
    views = bench_data_alloc(N_RECORDS * sizeof *views);
    bench_order_generate(records, N_RECORDS);
    for (size_t i = 0; i < N_RECORDS; i++) {
        const order_t *o = &records[i];
        order_view_t *v = &views[i];
        v->id = o->id;
        v->customer = (avrogen_str){o->customer, strlen(o->customer)};
        v->total = o->total;
        v->priority = o->priority;
        v->paid = o->paid;
        v->note = (avrogen_str){o->note, o->note != NULL ? strlen(o->note) : 0};
        v->n_lines = o->n_lines;
        v->lines = bench_data_alloc(N_LINES * sizeof *v->lines);
        for (size_t j = 0; j < N_LINES; j++) {
            const struct line *l = &o->lines[j];
            v->lines[j] =
                    (struct line_view){l->sku, {l->name, strlen(l->name)}, l->quantity, l->price};
        }
        memcpy(v->counters, o->counters, sizeof v->counters);
        v->n_tags = o->n_tags;
        v->tags = bench_data_alloc(N_TAGS * sizeof *v->tags);
        for (size_t j = 0; j < N_TAGS; j++)
            v->tags[j] = (struct order_view_tag){{o->tags[j].key, strlen(o->tags[j].key)},
                                                 o->tags[j].value};
    }
    return 0;
}

static void order_fini(void)
{
}

static const void *order_record(size_t i)
{
    return &records[i];
}

static bool str_eq(const char *x, const char *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    return strcmp(x, y) == 0;
}

static bool order_eq(const void *px, const void *py)
{
    const order_t *x = px, *y = py;
    if (x->id != y->id || !str_eq(x->customer, y->customer) || x->total != y->total ||
        x->priority != y->priority || x->paid != y->paid || !str_eq(x->note, y->note) ||
        x->n_lines != y->n_lines || x->n_tags != y->n_tags ||
        memcmp(x->counters, y->counters, sizeof x->counters) != 0)
        return false;
    for (size_t i = 0; i < x->n_lines; i++) {
        const struct line *a = &x->lines[i], *b = &y->lines[i];
        if (a->sku != b->sku || !str_eq(a->name, b->name) || a->quantity != b->quantity ||
            a->price != b->price)
            return false;
    }
    for (size_t i = 0; i < x->n_tags; i++)
        if (!str_eq(x->tags[i].key, y->tags[i].key) || x->tags[i].value != y->tags[i].value)
            return false;
    return true;
}

/* A decoded view against the source record. */
static bool order_view_eq(const order_view_t *x, const order_t *y)
{
    if (x->id != y->id || !bench_str_eq(y->customer, x->customer.ptr, x->customer.len) ||
        x->total != y->total || x->priority != y->priority || x->paid != y->paid ||
        !bench_str_eq(y->note, x->note.ptr, x->note.len) || x->n_lines != y->n_lines ||
        x->n_tags != y->n_tags || memcmp(x->counters, y->counters, sizeof x->counters) != 0)
        return false;
    for (size_t i = 0; i < x->n_lines; i++) {
        const struct line_view *a = &x->lines[i];
        const struct line *b = &y->lines[i];
        if (a->sku != b->sku || !bench_str_eq(b->name, a->name.ptr, a->name.len) ||
            a->quantity != b->quantity || a->price != b->price)
            return false;
    }
    for (size_t i = 0; i < x->n_tags; i++)
        if (!bench_str_eq(y->tags[i].key, x->tags[i].key.ptr, x->tags[i].key.len) ||
            x->tags[i].value != y->tags[i].value)
            return false;
    return true;
}

/* ---- avro-c ----------------------------------------------------------------- */

static int order_to_avroc(const void *p, avro_value_t *v)
{
    const order_t *o = p;
    avro_value_t f, x, item;
    int rc = 0;
    rc |= bench_avroc_field(v, 0, &f) || avro_value_set_long(&f, o->id);
    rc |= bench_avroc_field(v, 1, &f) ||
          avro_value_set_string_len(&f, o->customer, strlen(o->customer) + 1);
    rc |= bench_avroc_field(v, 2, &f) || avro_value_set_double(&f, o->total);
    rc |= bench_avroc_field(v, 3, &f) || avro_value_set_int(&f, o->priority);
    rc |= bench_avroc_field(v, 4, &f) || avro_value_set_boolean(&f, o->paid);
    if (bench_avroc_field(v, 5, &f) != 0)
        return -1;
    if (o->note != NULL)
        rc |= avro_value_set_branch(&f, 1, &x) ||
              avro_value_set_string_len(&x, o->note, strlen(o->note) + 1);
    else
        rc |= avro_value_set_branch(&f, 0, &x) || avro_value_set_null(&x);
    if (bench_avroc_field(v, 6, &f) != 0)
        return -1;
    for (size_t i = 0; i < o->n_lines; i++) {
        const struct line *l = &o->lines[i];
        if (avro_value_append(&f, &item, NULL) != 0)
            return -1;
        rc |= bench_avroc_field(&item, 0, &x) || avro_value_set_long(&x, l->sku);
        rc |= bench_avroc_field(&item, 1, &x) ||
              avro_value_set_string_len(&x, l->name, strlen(l->name) + 1);
        rc |= bench_avroc_field(&item, 2, &x) || avro_value_set_int(&x, l->quantity);
        rc |= bench_avroc_field(&item, 3, &x) || avro_value_set_double(&x, l->price);
    }
    if (bench_avroc_field(v, 7, &f) != 0)
        return -1;
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        rc |= avro_value_append(&f, &item, NULL) || avro_value_set_long(&item, o->counters[i]);
    if (bench_avroc_field(v, 8, &f) != 0)
        return -1;
    for (size_t i = 0; i < o->n_tags; i++)
        rc |= avro_value_add(&f, o->tags[i].key, &x, NULL, NULL) ||
              avro_value_set_long(&x, o->tags[i].value);
    return rc ? -1 : 0;
}

static void order_free_avroc(void *p)
{
    order_t *o = p;
    free(o->customer);
    free(o->note);
    for (size_t i = 0; i < o->n_lines; i++)
        free(o->lines[i].name);
    free(o->lines);
    for (size_t i = 0; i < o->n_tags; i++)
        free(o->tags[i].key);
    free(o->tags);
}

static int order_from_avroc(avro_value_t *v, void *p)
{
    order_t *o = p;
    avro_value_t f, x, item;
    int boolean = 0;
    int disc;
    size_t n;
    const char *key;
    int rc = 0;
    rc |= bench_avroc_field(v, 0, &f) || avro_value_get_long(&f, &o->id);
    rc |= bench_avroc_field(v, 1, &f) || bench_avroc_strdup(&f, &o->customer);
    rc |= bench_avroc_field(v, 2, &f) || avro_value_get_double(&f, &o->total);
    rc |= bench_avroc_field(v, 3, &f) || avro_value_get_int(&f, &o->priority);
    rc |= bench_avroc_field(v, 4, &f) || avro_value_get_boolean(&f, &boolean);
    o->paid = boolean != 0;
    if (bench_avroc_field(v, 5, &f) != 0 || avro_value_get_discriminant(&f, &disc) != 0)
        return -1;
    if (disc == 1)
        rc |= avro_value_get_current_branch(&f, &x) || bench_avroc_strdup(&x, &o->note);
    if (bench_avroc_field(v, 6, &f) != 0 || avro_value_get_size(&f, &n) != 0)
        return -1;
    if (n != 0 && (o->lines = calloc(n, sizeof *o->lines)) == NULL)
        return -1;
    o->n_lines = n;
    for (size_t i = 0; i < n; i++) {
        struct line *l = &o->lines[i];
        if (avro_value_get_by_index(&f, i, &item, NULL) != 0)
            return -1;
        rc |= bench_avroc_field(&item, 0, &x) || avro_value_get_long(&x, &l->sku);
        rc |= bench_avroc_field(&item, 1, &x) || bench_avroc_strdup(&x, &l->name);
        rc |= bench_avroc_field(&item, 2, &x) || avro_value_get_int(&x, &l->quantity);
        rc |= bench_avroc_field(&item, 3, &x) || avro_value_get_double(&x, &l->price);
    }
    if (bench_avroc_field(v, 7, &f) != 0 || avro_value_get_size(&f, &n) != 0 ||
        n != ORDER_N_COUNTERS)
        return -1;
    for (size_t i = 0; i < n; i++)
        rc |= avro_value_get_by_index(&f, i, &item, NULL) ||
              avro_value_get_long(&item, &o->counters[i]);
    if (bench_avroc_field(v, 8, &f) != 0 || avro_value_get_size(&f, &n) != 0)
        return -1;
    if (n != 0 && (o->tags = calloc(n, sizeof *o->tags)) == NULL)
        return -1;
    o->n_tags = n;
    for (size_t i = 0; i < n; i++) {
        if (avro_value_get_by_index(&f, i, &x, &key) != 0)
            return -1;
        rc |= avro_value_get_long(&x, &o->tags[i].value);
        if ((o->tags[i].key = strdup(key)) == NULL)
            return -1;
    }
    return rc ? -1 : 0;
}

/* ---- the generic runtime ----------------------------------------------------- */

static int order_to_generic(const void *p, avrogen_value *v, const avrogen_node *t,
                            avrogen_arena *a)
{
    const order_t *o = p;
    avrogen_value *b, *item;
    if (avrogen_value_init(v, t, a) != AVROGEN_OK)
        return -1;
    avrogen_value *f = v->fields;
    int bad = avrogen_value_set_long(&f[0], o->id) ||
              avrogen_value_set_string(&f[1], o->customer, strlen(o->customer), a) ||
              avrogen_value_set_double(&f[2], o->total) ||
              avrogen_value_set_long(&f[3], o->priority) || avrogen_value_set_bool(&f[4], o->paid);
    if (bad || avrogen_value_set_branch(&f[5], o->note != NULL, a, &b) != AVROGEN_OK)
        return -1;
    if (o->note != NULL && avrogen_value_set_string(b, o->note, strlen(o->note), a) != AVROGEN_OK)
        return -1;
    for (size_t i = 0; i < o->n_lines; i++) {
        const struct line *l = &o->lines[i];
        if (avrogen_value_append(&f[6], a, &item) != AVROGEN_OK)
            return -1;
        if (avrogen_value_set_long(&item->fields[0], l->sku) ||
            avrogen_value_set_string(&item->fields[1], l->name, strlen(l->name), a) ||
            avrogen_value_set_long(&item->fields[2], l->quantity) ||
            avrogen_value_set_double(&item->fields[3], l->price))
            return -1;
    }
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        if (avrogen_value_append(&f[7], a, &item) != AVROGEN_OK ||
            avrogen_value_set_long(item, o->counters[i]) != AVROGEN_OK)
            return -1;
    for (size_t i = 0; i < o->n_tags; i++)
        if (avrogen_value_map_put(&f[8], o->tags[i].key, strlen(o->tags[i].key), a, &item) !=
                    AVROGEN_OK ||
            avrogen_value_set_long(item, o->tags[i].value) != AVROGEN_OK)
            return -1;
    return 0;
}

static const bench_ops order_ops = {
        .schema_json = bench_avsc_order,
        .n_records = N_RECORDS,
        .record = order_record,
        .to_avroc = order_to_avroc,
        .from_avroc = order_from_avroc,
        .free_avroc = order_free_avroc,
        .rec_size = sizeof(order_t),
        .to_generic = order_to_generic,
        .eq = order_eq,
};

/* ---- generated code and speed of light ---------------------------------------- */

static bool decoded_eq(const order_t *v, size_t i)
{
    return order_eq(v, &records[i]);
}

static bool decoded_view_eq(const order_view_t *v, size_t i)
{
    return order_view_eq(v, &records[i]);
}

BENCH_DEFINE_CODEC_ROWS(gen, order_t, order, records, N_RECORDS, decoded_eq)
BENCH_DEFINE_CODEC_ROWS(gen_view, order_view_t, order_view, views, N_RECORDS, decoded_view_eq)
BENCH_DEFINE_SIZED_ROW(gen, order_t, order, records, N_RECORDS)
BENCH_DEFINE_SIZED_ROW(gen_view, order_view_t, order_view, views, N_RECORDS)

static size_t sol_write(void *st, uint8_t *out, size_t cap, bool verify)
{
    avrogen_writer w;
    (void)st;
    (void)verify;
    avrogen_writer_init_fixed(&w, out, cap);
    for (size_t i = 0; i < N_RECORDS; i++)
        if (sol_order_encode(&w, &records[i]) != AVROGEN_OK)
            return 0;
    return avrogen_writer_len(&w);
}

static int sol_read(void *st, const uint8_t *in, size_t len, bool verify)
{
    avrogen_arena *a = st;
    avrogen_reader r;
    order_t o;
    avrogen_reader_init(&r, in, len);
    for (size_t i = 0; i < N_RECORDS; i++) {
        avrogen_arena_reset(a);
        if (sol_order_decode(&r, &o, a) != AVROGEN_OK)
            return -1;
        if (verify && !decoded_eq(&o, i))
            return -1;
    }
    return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;
}

static const bench_row order_rows[] = {
        {"gen", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_write, NULL},
        {"gen", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_read},
        {"gen_view", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_view_write,
         NULL},
        {"gen_view", BENCH_READ, bench_arena_open, bench_arena_close, NULL, gen_view_read},
        {"gen_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close, gen_sized_write,
         NULL},
        {"gen_view_sized", BENCH_WRITE, bench_stateless_open, bench_stateless_close,
         gen_view_sized_write, NULL},
        {"sol", BENCH_WRITE, bench_stateless_open, bench_stateless_close, sol_write, NULL},
        {"sol", BENCH_READ, bench_arena_open, bench_arena_close, NULL, sol_read},
};

const bench_workload bench_wl_order = {
        .name = "order",
        .schema_json = bench_avsc_order,
        .generated_type = &order_avro_type,
        .n_records = N_RECORDS,
        .ops = &order_ops,
        .init = order_init,
        .fini = order_fini,
        .rows = order_rows,
        .n_rows = sizeof order_rows / sizeof order_rows[0],
};
