/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload "unions": events whose nullable fields are null in a rotating
 * pattern and whose three tagged unions go through all five branches, so the
 * data set visits every branch of every union.
 */
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "workloads/unions.avro.h"
#include "workloads/unions.h"

#define N_RECORDS 10

static event_t *records;
static event_view_t *views;

static void make_attr(bench_rng *rng, enum attr_kind kind, union attr *a, unsigned varint_len)
{
    switch (kind) {
    case ATTR_NULL:
    case ATTR_N_KINDS:
        a->none = 0;
        break;
    case ATTR_LONG:
        a->l = bench_long_of_len(rng, varint_len);
        break;
    case ATTR_DOUBLE:
        a->d = bench_rng_double(rng, -1e6, 1e6);
        break;
    case ATTR_STRING:
        a->s = bench_text(rng, bench_rng_range(rng, 8, 40), false);
        break;
    case ATTR_POINT:
        a->p = (struct point){bench_rng_double(rng, -180, 180), bench_rng_double(rng, -90, 90)};
        break;
    }
}

static union attr_view view_attr(enum attr_kind kind, const union attr *a)
{
    union attr_view v;
    memset(&v, 0, sizeof v);
    switch (kind) {
    case ATTR_NULL:
    case ATTR_N_KINDS:
        break;
    case ATTR_LONG:
        v.l = a->l;
        break;
    case ATTR_DOUBLE:
        v.d = a->d;
        break;
    case ATTR_STRING:
        v.s = (avrogen_str){a->s, strlen(a->s)};
        break;
    case ATTR_POINT:
        v.p = a->p;
        break;
    }
    return v;
}

static avrogen_str view_str(const char *s)
{
    return (avrogen_str){s, s != NULL ? strlen(s) : 0};
}

static int unions_init(void)
{
    bench_rng rng = {UINT64_C(0x0410)};
    records = bench_data_alloc(N_RECORDS * sizeof *records);
    views = bench_data_alloc(N_RECORDS * sizeof *views);
    for (size_t i = 0; i < N_RECORDS; i++) {
        event_t *e = &records[i];
        unsigned len = 1 + (unsigned)(i % 10);
        e->id = bench_long_of_len(&rng, len);
        e->user = i % 3 == 0 ? NULL : bench_text(&rng, bench_rng_range(&rng, 8, 24), false);
        e->referrer = i % 2 == 1 ? NULL : bench_text(&rng, bench_rng_range(&rng, 20, 60), false);
        if (i % 4 != 3) {
            e->origin = bench_data_alloc(sizeof *e->origin);
            *e->origin = (struct point){bench_rng_double(&rng, 0, 1920),
                                        bench_rng_double(&rng, 0, 1080)};
        }
        if (i % 5 != 2) {
            e->session = bench_data_alloc(sizeof *e->session);
            *e->session = bench_long_of_len(&rng, 11 - len);
        }
        if (i % 3 != 1) {
            e->score = bench_data_alloc(sizeof *e->score);
            *e->score = bench_rng_double(&rng, 0, 1);
        }
        e->primary_kind = (enum attr_kind)(i % ATTR_N_KINDS);
        e->secondary_kind = (enum attr_kind)((i + 2) % ATTR_N_KINDS);
        e->extra_kind = (enum attr_kind)((3 * i + 1) % ATTR_N_KINDS);
        make_attr(&rng, e->primary_kind, &e->primary, len);
        make_attr(&rng, e->secondary_kind, &e->secondary, 11 - len);
        make_attr(&rng, e->extra_kind, &e->extra, 1 + (len + 4) % 10);

        event_view_t *v = &views[i];
        v->id = e->id;
        v->user = view_str(e->user);
        v->referrer = view_str(e->referrer);
        v->origin = e->origin;
        v->session = e->session;
        v->score = e->score;
        v->primary_kind = e->primary_kind;
        v->primary = view_attr(e->primary_kind, &e->primary);
        v->secondary_kind = e->secondary_kind;
        v->secondary = view_attr(e->secondary_kind, &e->secondary);
        v->extra_kind = e->extra_kind;
        v->extra = view_attr(e->extra_kind, &e->extra);
    }
    return 0;
}

static void unions_fini(void)
{
}

static const void *unions_record(size_t i)
{
    return &records[i];
}

static bool str_eq(const char *x, const char *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    return strcmp(x, y) == 0;
}

static bool point_eq(const struct point *x, const struct point *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    return x->x == y->x && x->y == y->y;
}

static bool long_eq(const int64_t *x, const int64_t *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    return *x == *y;
}

static bool double_eq(const double *x, const double *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    return *x == *y;
}

/* Union `x` (of a decoded record, either shape) against `y` of the source. */
static bool attr_eq(enum attr_kind kind, int64_t xl, double xd, avrogen_str xs,
                    const struct point *xp, const union attr *y)
{
    switch (kind) {
    case ATTR_NULL:
        return true;
    case ATTR_LONG:
        return xl == y->l;
    case ATTR_DOUBLE:
        return xd == y->d;
    case ATTR_STRING:
        return bench_str_eq(y->s, xs.ptr, xs.len);
    case ATTR_POINT:
        return point_eq(xp, &y->p);
    case ATTR_N_KINDS:
        break;
    }
    return false;
}

static bool attr_cstr_eq(enum attr_kind kind, const union attr *x, const union attr *y)
{
    avrogen_str s = kind == ATTR_STRING ? view_str(x->s) : (avrogen_str){NULL, 0};
    return attr_eq(kind, x->l, x->d, s, &x->p, y);
}

static bool unions_eq(const void *px, const void *py)
{
    const event_t *x = px, *y = py;
    return x->id == y->id && str_eq(x->user, y->user) && str_eq(x->referrer, y->referrer) &&
           point_eq(x->origin, y->origin) && long_eq(x->session, y->session) &&
           double_eq(x->score, y->score) && x->primary_kind == y->primary_kind &&
           attr_cstr_eq(x->primary_kind, &x->primary, &y->primary) &&
           x->secondary_kind == y->secondary_kind &&
           attr_cstr_eq(x->secondary_kind, &x->secondary, &y->secondary) &&
           x->extra_kind == y->extra_kind && attr_cstr_eq(x->extra_kind, &x->extra, &y->extra);
}

static bool attr_view_eq(enum attr_kind kind, const union attr_view *x, const union attr *y)
{
    avrogen_str s = kind == ATTR_STRING ? x->s : (avrogen_str){NULL, 0};
    return attr_eq(kind, x->l, x->d, s, &x->p, y);
}

static bool unions_view_eq(const event_view_t *x, const event_t *y)
{
    return x->id == y->id && bench_str_eq(y->user, x->user.ptr, x->user.len) &&
           bench_str_eq(y->referrer, x->referrer.ptr, x->referrer.len) &&
           point_eq(x->origin, y->origin) && long_eq(x->session, y->session) &&
           double_eq(x->score, y->score) && x->primary_kind == y->primary_kind &&
           attr_view_eq(x->primary_kind, &x->primary, &y->primary) &&
           x->secondary_kind == y->secondary_kind &&
           attr_view_eq(x->secondary_kind, &x->secondary, &y->secondary) &&
           x->extra_kind == y->extra_kind && attr_view_eq(x->extra_kind, &x->extra, &y->extra);
}

/* ---- avro-c ----------------------------------------------------------------- */

static int point_to_avroc(const struct point *p, avro_value_t *v)
{
    avro_value_t f;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_set_double(&f, p->x);
    rc |= bench_avroc_field(v, 1, &f) || avro_value_set_double(&f, p->y);
    return rc;
}

static int attr_to_avroc(enum attr_kind kind, const union attr *a, avro_value_t *u)
{
    avro_value_t x;
    if (avro_value_set_branch(u, (int)kind, &x) != 0)
        return -1;
    switch (kind) {
    case ATTR_NULL:
        return avro_value_set_null(&x);
    case ATTR_LONG:
        return avro_value_set_long(&x, a->l);
    case ATTR_DOUBLE:
        return avro_value_set_double(&x, a->d);
    case ATTR_STRING:
        return avro_value_set_string_len(&x, a->s, strlen(a->s) + 1);
    case ATTR_POINT:
        return point_to_avroc(&a->p, &x);
    case ATTR_N_KINDS:
        break;
    }
    return -1;
}

/* Nullable field `i` of `v`: null, or the non-null branch in *x. */
static int nullable_to_avroc(avro_value_t *v, size_t i, bool present, avro_value_t *x)
{
    avro_value_t f;
    if (bench_avroc_field(v, i, &f) != 0 || avro_value_set_branch(&f, present, x) != 0)
        return -1;
    return present ? 0 : avro_value_set_null(x);
}

static int unions_to_avroc(const void *p, avro_value_t *v)
{
    const event_t *e = p;
    avro_value_t f, x;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_set_long(&f, e->id);
    rc |= nullable_to_avroc(v, 1, e->user != NULL, &x);
    if (rc == 0 && e->user != NULL)
        rc |= avro_value_set_string_len(&x, e->user, strlen(e->user) + 1);
    rc |= nullable_to_avroc(v, 2, e->referrer != NULL, &x);
    if (rc == 0 && e->referrer != NULL)
        rc |= avro_value_set_string_len(&x, e->referrer, strlen(e->referrer) + 1);
    rc |= nullable_to_avroc(v, 3, e->origin != NULL, &x);
    if (rc == 0 && e->origin != NULL)
        rc |= point_to_avroc(e->origin, &x);
    rc |= nullable_to_avroc(v, 4, e->session != NULL, &x);
    if (rc == 0 && e->session != NULL)
        rc |= avro_value_set_long(&x, *e->session);
    rc |= nullable_to_avroc(v, 5, e->score != NULL, &x);
    if (rc == 0 && e->score != NULL)
        rc |= avro_value_set_double(&x, *e->score);
    rc |= bench_avroc_field(v, 6, &f) || attr_to_avroc(e->primary_kind, &e->primary, &f);
    rc |= bench_avroc_field(v, 7, &f) || attr_to_avroc(e->secondary_kind, &e->secondary, &f);
    rc |= bench_avroc_field(v, 8, &f) || attr_to_avroc(e->extra_kind, &e->extra, &f);
    return rc ? -1 : 0;
}

static void unions_free_avroc(void *p)
{
    event_t *e = p;
    free(e->user);
    free(e->referrer);
    free(e->origin);
    free(e->session);
    free(e->score);
    if (e->primary_kind == ATTR_STRING)
        free(e->primary.s);
    if (e->secondary_kind == ATTR_STRING)
        free(e->secondary.s);
    if (e->extra_kind == ATTR_STRING)
        free(e->extra.s);
}

static int point_from_avroc(avro_value_t *v, struct point *p)
{
    avro_value_t f;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_get_double(&f, &p->x);
    rc |= bench_avroc_field(v, 1, &f) || avro_value_get_double(&f, &p->y);
    return rc;
}

static int attr_from_avroc(avro_value_t *u, enum attr_kind *kind, union attr *a)
{
    avro_value_t x;
    int disc;
    if (avro_value_get_discriminant(u, &disc) != 0 || avro_value_get_current_branch(u, &x) != 0)
        return -1;
    *kind = (enum attr_kind)disc;
    switch (*kind) {
    case ATTR_NULL:
        return 0;
    case ATTR_LONG:
        return avro_value_get_long(&x, &a->l);
    case ATTR_DOUBLE:
        return avro_value_get_double(&x, &a->d);
    case ATTR_STRING:
        return bench_avroc_strdup(&x, &a->s);
    case ATTR_POINT:
        return point_from_avroc(&x, &a->p);
    case ATTR_N_KINDS:
        break;
    }
    return -1;
}

/* Nullable field `i` of `v`: 0 with *x unset when null, 1 with the value in *x. */
static int nullable_from_avroc(avro_value_t *v, size_t i, avro_value_t *x)
{
    avro_value_t f;
    int disc;
    if (bench_avroc_field(v, i, &f) != 0 || avro_value_get_discriminant(&f, &disc) != 0)
        return -1;
    if (disc == 0)
        return 0;
    return avro_value_get_current_branch(&f, x) == 0 ? 1 : -1;
}

static int unions_from_avroc(avro_value_t *v, void *p)
{
    event_t *e = p;
    avro_value_t f, x;
    int rc = bench_avroc_field(v, 0, &f) || avro_value_get_long(&f, &e->id);
    int present = nullable_from_avroc(v, 1, &x);
    if (present < 0 || (present && bench_avroc_strdup(&x, &e->user) != 0))
        return -1;
    present = nullable_from_avroc(v, 2, &x);
    if (present < 0 || (present && bench_avroc_strdup(&x, &e->referrer) != 0))
        return -1;
    present = nullable_from_avroc(v, 3, &x);
    if (present < 0 || (present && ((e->origin = malloc(sizeof *e->origin)) == NULL ||
                                    point_from_avroc(&x, e->origin) != 0)))
        return -1;
    present = nullable_from_avroc(v, 4, &x);
    if (present < 0 || (present && ((e->session = malloc(sizeof *e->session)) == NULL ||
                                    avro_value_get_long(&x, e->session) != 0)))
        return -1;
    present = nullable_from_avroc(v, 5, &x);
    if (present < 0 || (present && ((e->score = malloc(sizeof *e->score)) == NULL ||
                                    avro_value_get_double(&x, e->score) != 0)))
        return -1;
    rc |= bench_avroc_field(v, 6, &f) || attr_from_avroc(&f, &e->primary_kind, &e->primary);
    rc |= bench_avroc_field(v, 7, &f) || attr_from_avroc(&f, &e->secondary_kind, &e->secondary);
    rc |= bench_avroc_field(v, 8, &f) || attr_from_avroc(&f, &e->extra_kind, &e->extra);
    return rc ? -1 : 0;
}

/* ---- the generic runtime ----------------------------------------------------- */

static int point_to_generic(const struct point *p, avrogen_value *v)
{
    return avrogen_value_set_double(&v->fields[0], p->x) != AVROGEN_OK ||
           avrogen_value_set_double(&v->fields[1], p->y) != AVROGEN_OK;
}

static int attr_to_generic(enum attr_kind kind, const union attr *a, avrogen_value *u,
                           avrogen_arena *ar)
{
    avrogen_value *x;
    if (avrogen_value_set_branch(u, (size_t)kind, ar, &x) != AVROGEN_OK)
        return -1;
    switch (kind) {
    case ATTR_NULL:
        return 0;
    case ATTR_LONG:
        return avrogen_value_set_long(x, a->l) != AVROGEN_OK;
    case ATTR_DOUBLE:
        return avrogen_value_set_double(x, a->d) != AVROGEN_OK;
    case ATTR_STRING:
        return avrogen_value_set_string(x, a->s, strlen(a->s), ar) != AVROGEN_OK;
    case ATTR_POINT:
        return point_to_generic(&a->p, x);
    case ATTR_N_KINDS:
        break;
    }
    return -1;
}

static int unions_to_generic(const void *p, avrogen_value *v, const avrogen_node *t,
                             avrogen_arena *a)
{
    const event_t *e = p;
    avrogen_value *x[6];
    if (avrogen_value_init(v, t, a) != AVROGEN_OK ||
        avrogen_value_set_long(&v->fields[0], e->id) != AVROGEN_OK)
        return -1;
    const bool present[6] = {false,
                             e->user != NULL,
                             e->referrer != NULL,
                             e->origin != NULL,
                             e->session != NULL,
                             e->score != NULL};
    for (size_t i = 1; i <= 5; i++)
        if (avrogen_value_set_branch(&v->fields[i], present[i], a, &x[i]) != AVROGEN_OK)
            return -1;
    if ((e->user != NULL && avrogen_value_set_string(x[1], e->user, strlen(e->user), a)) ||
        (e->referrer != NULL &&
         avrogen_value_set_string(x[2], e->referrer, strlen(e->referrer), a)) ||
        (e->origin != NULL && point_to_generic(e->origin, x[3])) ||
        (e->session != NULL && avrogen_value_set_long(x[4], *e->session)) ||
        (e->score != NULL && avrogen_value_set_double(x[5], *e->score)))
        return -1;
    if (attr_to_generic(e->primary_kind, &e->primary, &v->fields[6], a) ||
        attr_to_generic(e->secondary_kind, &e->secondary, &v->fields[7], a) ||
        attr_to_generic(e->extra_kind, &e->extra, &v->fields[8], a))
        return -1;
    return 0;
}

static const bench_ops unions_ops = {
        .schema_json = bench_avsc_unions,
        .n_records = N_RECORDS,
        .record = unions_record,
        .to_avroc = unions_to_avroc,
        .from_avroc = unions_from_avroc,
        .free_avroc = unions_free_avroc,
        .rec_size = sizeof(event_t),
        .to_generic = unions_to_generic,
        .eq = unions_eq,
};

/* ---- generated code ---------------------------------------------------------- */

static bool decoded_eq(const event_t *v, size_t i)
{
    return unions_eq(v, &records[i]);
}

static bool decoded_view_eq(const event_view_t *v, size_t i)
{
    return unions_view_eq(v, &records[i]);
}

BENCH_DEFINE_CODEC_ROWS(gen, event_t, event, records, N_RECORDS, decoded_eq)
BENCH_DEFINE_CODEC_ROWS(gen_view, event_view_t, event_view, views, N_RECORDS, decoded_view_eq)
BENCH_DEFINE_SIZED_ROW(gen, event_t, event, records, N_RECORDS)
BENCH_DEFINE_SIZED_ROW(gen_view, event_view_t, event_view, views, N_RECORDS)

static const bench_row unions_rows[] = {
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

const bench_workload bench_wl_unions = {
        .name = "unions",
        .schema_json = bench_avsc_unions,
        .generated_type = &event_avro_type,
        .n_records = N_RECORDS,
        .ops = &unions_ops,
        .init = unions_init,
        .fini = unions_fini,
        .rows = unions_rows,
        .n_rows = sizeof unions_rows / sizeof unions_rows[0],
};
