/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workloads "evolve" and "evolve_c": schema resolution. The records are the
 * order workload's (bench_order_generate, so the same customers, lines,
 * counters and tags), written with an earlier Order schema and read back as
 * today's order_t (workloads/order.h):
 *
 *   evolve    writer workloads/earlier/order_v0.avsc: `id` an int (the reader
 *             has a long), no `paid` (the reader's default, true, fills it),
 *             and two fields the reader lacks and skips, `channel` (a string,
 *             third) and `discount` (a double, last);
 *   evolve_c  writer order_v0_paid.avsc: the same with `paid`. avro-c cannot
 *             fill a reader field from a default, so this is the pair its
 *             resolvers can take; init of "evolve" proves that they refuse
 *             the first one rather than assuming it.
 *
 * Write rows produce the writer's bytes two independent ways (avro-c's value
 * API with the writer schema, the generic runtime), which the harness checks
 * are identical. Read rows decode those bytes into order_t (or reader-shaped
 * generic values) and are verified against the source records, with the id
 * widened and `paid` as the writer had it or as the default gives it:
 *
 *   gen_plan          avrogen_type_plan_decode, the plan built once at setup
 *   gen_aot           the decoder generated ahead of time for the writer's
 *                     fingerprint (order_avro_type.resolved, avrogen generate
 *                     --compat-with workloads/earlier); refuses to run without
 *   gen_decode_as     avrogen_decode_as with a plan cache: what a user calls
 *                     with a writer fingerprint in hand
 *   generic_resolved  avrogen_resolver_decode into generic values
 *   avroc_resolved    (evolve_c) avro-c's resolved reader: avro_value_read into
 *                     a writer-schema value, read as the reader schema through
 *                     avro_resolved_reader_new's wrapper, copied into order_t
 *                     as the avro-c struct row does (rows.c)
 *
 * avro-c's other resolver, the resolved writer (what its container file reader
 * uses: avro_value_read into a wrapper that fills a reader-schema value), has
 * no row: libavro 1.11's array and map wrappers never empty their list of
 * child wrappers on reset, so with one value reused, as a reader loop does,
 * each record costs more than the one before (RESULTS.md).
 *
 * The workloads have only these rows (own_rows_only): the common rows read
 * with the schema they write.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"

#include "rows.h"
#include "workloads/order.avro.h"
#include "workloads/order.h"

#define N_RECORDS BENCH_ORDER_RECORDS

/* One record as the writer had it, and what the reader must decode from it. */
struct evolve_rec {
    int32_t id;          /* the writer's int */
    const char *channel; /* writer only: skipped */
    double discount;     /* writer only, the last field: skipped */
    order_t expect;      /* the reader's record: the id widened, `paid` the
                            writer's or the default */
};

struct evolve_set {
    const char *writer_name; /* the file under workloads/earlier, for messages */
    const char *writer_json;
    bool writer_has_paid;
    struct evolve_rec recs[N_RECORDS];
    char note[256]; /* what init proved about avro-c, for the harness to print */
};

static struct evolve_set set_evolve = {.writer_name = "order_v0.avsc",
                                       .writer_json = bench_avsc_order_v0};
static struct evolve_set set_evolve_c = {.writer_name = "order_v0_paid.avsc",
                                         .writer_json = bench_avsc_order_v0_paid,
                                         .writer_has_paid = true};

/* The reader's default for `paid` (workloads/order.h, order.avsc). */
#define PAID_DEFAULT true

static const bench_ops *order_ops(void)
{
    return bench_wl_order.ops;
}

static const struct evolve_set *set_of(const bench_workload *wl)
{
    return wl->ops;
}

static bool expect_eq(const struct evolve_set *s, const order_t *decoded, size_t i)
{
    return order_ops()->eq(decoded, &s->recs[i].expect);
}

/* ---- the data set ------------------------------------------------------------ */

static void build_records(struct evolve_set *s)
{
    static const char *const channels[] = {"web", "store", "phone", "partner-api"};
    order_t src[N_RECORDS];
    bench_rng rng = {UINT64_C(0xe701)};
    bench_order_generate(src, N_RECORDS);
    for (size_t i = 0; i < N_RECORDS; i++) {
        struct evolve_rec *r = &s->recs[i];
        /* The order ids take 3 to 6 varint bytes; each division by 128 drops
         * one, until the id fits the writer's int. */
        int64_t id = src[i].id;
        while (id > INT32_MAX || id < INT32_MIN)
            id /= 128;
        r->id = (int32_t)id;
        r->channel = channels[bench_rng_range(&rng, 0, 3)];
        r->discount = bench_rng_double(&rng, 0, 0.3);
        r->expect = src[i];
        r->expect.id = id;
        if (!s->writer_has_paid)
            r->expect.paid = PAID_DEFAULT;
    }
}

/*
 * Which of avro-c's two resolvers accept the set's writer against the reader
 * schema; `why` receives avro-c's message for the first refusal.
 */
static int avroc_resolvers(const struct evolve_set *s, bool *reader_ok, bool *writer_ok, char *why,
                           size_t why_size)
{
    avro_schema_t w = NULL, r = NULL;
    if (avro_schema_from_json_length(s->writer_json, strlen(s->writer_json), &w) != 0 ||
        avro_schema_from_json_length(bench_avsc_order, strlen(bench_avsc_order), &r) != 0) {
        fprintf(stderr, "%s: avro-c cannot parse the schemas: %s\n", s->writer_name,
                avro_strerror());
        if (w != NULL)
            avro_schema_decref(w);
        return -1;
    }
    avro_value_iface_t *reader = avro_resolved_reader_new(w, r);
    if (reader == NULL)
        snprintf(why, why_size, "%s", avro_strerror());
    avro_value_iface_t *writer = avro_resolved_writer_new(w, r);
    if (writer == NULL && reader != NULL)
        snprintf(why, why_size, "%s", avro_strerror());
    *reader_ok = reader != NULL;
    *writer_ok = writer != NULL;
    if (reader != NULL)
        avro_value_iface_decref(reader);
    if (writer != NULL)
        avro_value_iface_decref(writer);
    avro_schema_decref(w);
    avro_schema_decref(r);
    return 0;
}

static int init_set(struct evolve_set *s)
{
    bool reader_ok, writer_ok;
    char why[160] = "";
    build_records(s);
    if (avroc_resolvers(s, &reader_ok, &writer_ok, why, sizeof why) != 0)
        return -1;
    if (s->writer_has_paid && !reader_ok) {
        fprintf(stderr, "evolve_c: avro_resolved_reader_new refuses %s -> order.avsc: %s\n",
                s->writer_name, why);
        return -1;
    }
    if (!s->writer_has_paid) {
        /* The reason evolve_c exists. Should avro-c learn defaults, this
         * workload gets the avro-c row instead. */
        if (reader_ok || writer_ok) {
            fprintf(stderr,
                    "evolve: avro-c now resolves %s -> order.avsc (its resolved %s); give this "
                    "workload the avroc_resolved row\n",
                    s->writer_name, reader_ok ? "reader" : "writer");
            return -1;
        }
        snprintf(s->note, sizeof s->note,
                 "avro-c refuses %s -> order.avsc (avro_resolved_reader_new and _writer_new): %s",
                 s->writer_name, why);
    }
    return 0;
}

static int evolve_init(void)
{
    return init_set(&set_evolve);
}

static int evolve_c_init(void)
{
    return init_set(&set_evolve_c);
}

static void evolve_fini(void)
{
}

static const char *evolve_note(void)
{
    return set_evolve.note;
}

/* ---- the writer's values ----------------------------------------------------- */

/* Record `r` as a value of the writer schema; fields by name, setup only. */
static int to_avroc(const struct evolve_set *s, const struct evolve_rec *r, avro_value_t *v)
{
    const order_t *o = &r->expect;
    avro_value_t f, x, item;
    int rc = 0;
    rc |= avro_value_get_by_name(v, "id", &f, NULL) || avro_value_set_int(&f, r->id);
    rc |= avro_value_get_by_name(v, "customer", &f, NULL) ||
          avro_value_set_string_len(&f, o->customer, strlen(o->customer) + 1);
    rc |= avro_value_get_by_name(v, "channel", &f, NULL) ||
          avro_value_set_string_len(&f, r->channel, strlen(r->channel) + 1);
    rc |= avro_value_get_by_name(v, "total", &f, NULL) || avro_value_set_double(&f, o->total);
    rc |= avro_value_get_by_name(v, "priority", &f, NULL) || avro_value_set_int(&f, o->priority);
    if (s->writer_has_paid)
        rc |= avro_value_get_by_name(v, "paid", &f, NULL) || avro_value_set_boolean(&f, o->paid);
    if (avro_value_get_by_name(v, "note", &f, NULL) != 0)
        return -1;
    if (o->note != NULL)
        rc |= avro_value_set_branch(&f, 1, &x) ||
              avro_value_set_string_len(&x, o->note, strlen(o->note) + 1);
    else
        rc |= avro_value_set_branch(&f, 0, &x) || avro_value_set_null(&x);
    if (avro_value_get_by_name(v, "lines", &f, NULL) != 0)
        return -1;
    for (size_t i = 0; i < o->n_lines; i++) {
        const struct line *l = &o->lines[i];
        if (avro_value_append(&f, &item, NULL) != 0)
            return -1;
        rc |= avro_value_get_by_name(&item, "sku", &x, NULL) || avro_value_set_long(&x, l->sku);
        rc |= avro_value_get_by_name(&item, "name", &x, NULL) ||
              avro_value_set_string_len(&x, l->name, strlen(l->name) + 1);
        rc |= avro_value_get_by_name(&item, "quantity", &x, NULL) ||
              avro_value_set_int(&x, l->quantity);
        rc |= avro_value_get_by_name(&item, "price", &x, NULL) ||
              avro_value_set_double(&x, l->price);
    }
    if (avro_value_get_by_name(v, "counters", &f, NULL) != 0)
        return -1;
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        rc |= avro_value_append(&f, &item, NULL) || avro_value_set_long(&item, o->counters[i]);
    if (avro_value_get_by_name(v, "tags", &f, NULL) != 0)
        return -1;
    for (size_t i = 0; i < o->n_tags; i++)
        rc |= avro_value_add(&f, o->tags[i].key, &x, NULL, NULL) ||
              avro_value_set_long(&x, o->tags[i].value);
    rc |= avro_value_get_by_name(v, "discount", &f, NULL) || avro_value_set_double(&f, r->discount);
    return rc ? -1 : 0;
}

/* The fields of generic record `v` called names[0..n) into out[]; -1 if one is missing. */
static int fields_of(const avrogen_value *v, const char *const *names, size_t n,
                     avrogen_value **out)
{
    for (size_t i = 0; i < n; i++)
        if ((out[i] = avrogen_value_field(v, names[i])) == NULL)
            return -1;
    return 0;
}

/* Record `r` as a generic value of the writer schema `t`, from `a`. */
static int to_generic(const struct evolve_set *s, const struct evolve_rec *r, avrogen_value *v,
                      const avrogen_node *t, avrogen_arena *a)
{
    enum { ID, CUSTOMER, CHANNEL, TOTAL, PRIORITY, NOTE, LINES, COUNTERS, TAGS, DISCOUNT, PAID };
    static const char *const names[] = {"id",       "customer", "channel", "total",
                                        "priority", "note",     "lines",   "counters",
                                        "tags",     "discount", "paid"};
    static const char *const line_names[] = {"sku", "name", "quantity", "price"};
    const order_t *o = &r->expect;
    avrogen_value *f[PAID + 1], *lf[4], *b, *item;
    if (avrogen_value_init(v, t, a) != AVROGEN_OK ||
        fields_of(v, names, s->writer_has_paid ? PAID + 1 : PAID, f) != 0)
        return -1;
    int bad = avrogen_value_set_long(f[ID], r->id) ||
              avrogen_value_set_string(f[CUSTOMER], o->customer, strlen(o->customer), a) ||
              avrogen_value_set_string(f[CHANNEL], r->channel, strlen(r->channel), a) ||
              avrogen_value_set_double(f[TOTAL], o->total) ||
              avrogen_value_set_long(f[PRIORITY], o->priority) ||
              avrogen_value_set_double(f[DISCOUNT], r->discount) ||
              (s->writer_has_paid && avrogen_value_set_bool(f[PAID], o->paid));
    if (bad || avrogen_value_set_branch(f[NOTE], o->note != NULL, a, &b) != AVROGEN_OK)
        return -1;
    if (o->note != NULL && avrogen_value_set_string(b, o->note, strlen(o->note), a) != AVROGEN_OK)
        return -1;
    for (size_t i = 0; i < o->n_lines; i++) {
        const struct line *l = &o->lines[i];
        if (avrogen_value_append(f[LINES], a, &item) != AVROGEN_OK ||
            fields_of(item, line_names, 4, lf) != 0)
            return -1;
        if (avrogen_value_set_long(lf[0], l->sku) ||
            avrogen_value_set_string(lf[1], l->name, strlen(l->name), a) ||
            avrogen_value_set_long(lf[2], l->quantity) || avrogen_value_set_double(lf[3], l->price))
            return -1;
    }
    for (size_t i = 0; i < ORDER_N_COUNTERS; i++)
        if (avrogen_value_append(f[COUNTERS], a, &item) != AVROGEN_OK ||
            avrogen_value_set_long(item, o->counters[i]) != AVROGEN_OK)
            return -1;
    for (size_t i = 0; i < o->n_tags; i++)
        if (avrogen_value_map_put(f[TAGS], o->tags[i].key, strlen(o->tags[i].key), a, &item) !=
                    AVROGEN_OK ||
            avrogen_value_set_long(item, o->tags[i].value) != AVROGEN_OK)
            return -1;
    return 0;
}

/* ---- write rows: the writer's bytes, two ways --------------------------------- */

/* avro-c's avro_value_write of writer-schema values filled once at setup. */
struct avroc_write_state {
    avro_schema_t schema;
    avro_value_iface_t *iface;
    avro_value_t values[N_RECORDS];
    size_t n_values;
    avro_writer_t writer;
};

/* avro-c's memory readers and writers need a buffer up front; they are
 * pointed at the real one before every use. */
static char avroc_dummy[1];

static void avroc_write_close(void *p)
{
    struct avroc_write_state *st = p;
    if (st == NULL)
        return;
    for (size_t i = 0; i < st->n_values; i++)
        avro_value_decref(&st->values[i]);
    if (st->writer != NULL)
        avro_writer_free(st->writer);
    if (st->iface != NULL)
        avro_value_iface_decref(st->iface);
    if (st->schema != NULL)
        avro_schema_decref(st->schema);
    free(st);
}

static void *avroc_write_open(const bench_workload *wl)
{
    const struct evolve_set *s = set_of(wl);
    struct avroc_write_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    if (avro_schema_from_json_length(s->writer_json, strlen(s->writer_json), &st->schema) != 0 ||
        (st->iface = avro_generic_class_from_schema(st->schema)) == NULL ||
        (st->writer = avro_writer_memory(avroc_dummy, sizeof avroc_dummy)) == NULL)
        goto fail;
    for (size_t i = 0; i < N_RECORDS; i++) {
        if (avro_generic_value_new(st->iface, &st->values[i]) != 0)
            goto fail;
        st->n_values++;
        if (to_avroc(s, &s->recs[i], &st->values[i]) != 0)
            goto fail;
    }
    return st;
fail:
    fprintf(stderr, "evolve: avro-c writer values: %s\n", avro_strerror());
    avroc_write_close(st);
    return NULL;
}

static size_t avroc_write(void *p, uint8_t *out, size_t cap, bool verify)
{
    struct avroc_write_state *st = p;
    (void)verify;
    avro_writer_memory_set_dest(st->writer, (const char *)out, (int64_t)cap);
    for (size_t i = 0; i < N_RECORDS; i++)
        if (avro_value_write(st->writer, &st->values[i]) != 0)
            return 0;
    return (size_t)avro_writer_tell(st->writer);
}

/* The generic runtime's avrogen_value_encode of writer-schema values. */
struct generic_write_state {
    avrogen_schema *schema;
    avrogen_arena data;
    avrogen_value values[N_RECORDS];
};

static void generic_write_close(void *p)
{
    struct generic_write_state *st = p;
    if (st == NULL)
        return;
    avrogen_arena_fini(&st->data);
    avrogen_schema_free(st->schema);
    free(st);
}

static void *generic_write_open(const bench_workload *wl)
{
    const struct evolve_set *s = set_of(wl);
    struct generic_write_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    avrogen_arena_init(&st->data, NULL);
    if (avrogen_schema_parse(s->writer_json, strlen(s->writer_json), NULL, &st->schema, NULL) !=
        AVROGEN_OK)
        goto fail;
    for (size_t i = 0; i < N_RECORDS; i++)
        if (to_generic(s, &s->recs[i], &st->values[i], avrogen_schema_root(st->schema),
                       &st->data) != 0)
            goto fail;
    return st;
fail:
    generic_write_close(st);
    return NULL;
}

static size_t generic_write(void *p, uint8_t *out, size_t cap, bool verify)
{
    struct generic_write_state *st = p;
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, out, cap);
    for (size_t i = 0; i < N_RECORDS; i++) {
        size_t before = avrogen_writer_len(&w);
        if (avrogen_value_encode(&w, &st->values[i]) != AVROGEN_OK)
            return 0;
        if (verify && avrogen_value_size(&st->values[i]) != avrogen_writer_len(&w) - before)
            return 0;
    }
    return avrogen_writer_len(&w);
}

/* ---- read rows: generated types ------------------------------------------------- */

/*
 * The state of the generated-type rows: the arena decoded records live in
 * (reset per record), the writer schema and whichever of plan, ahead-of-time
 * decoder or plan cache the row uses.
 */
struct gen_state {
    const struct evolve_set *set;
    avrogen_arena arena;
    avrogen_schema *writer;
    uint64_t writer_fp;
    avrogen_type_plan *plan;                                          /* gen_plan */
    avrogen_status (*aot)(avrogen_reader *, void *, avrogen_arena *); /* gen_aot */
    avrogen_plan_cache *cache;                                        /* gen_decode_as */
};

static void gen_close(void *p)
{
    struct gen_state *st = p;
    if (st == NULL)
        return;
    avrogen_plan_cache_free(st->cache);
    avrogen_type_plan_free(st->plan);
    avrogen_schema_free(st->writer);
    avrogen_arena_fini(&st->arena);
    free(st);
}

static struct gen_state *gen_open_common(const bench_workload *wl)
{
    const struct evolve_set *s = set_of(wl);
    struct gen_state *st = calloc(1, sizeof *st);
    avrogen_diag why;
    if (st == NULL)
        return NULL;
    st->set = s;
    avrogen_arena_init(&st->arena, NULL);
    if (avrogen_schema_parse(s->writer_json, strlen(s->writer_json), NULL, &st->writer, &why) !=
        AVROGEN_OK) {
        fprintf(stderr, "%s: %s: %s\n", wl->name, s->writer_name, why.msg);
        gen_close(st);
        return NULL;
    }
    st->writer_fp = avrogen_schema_fingerprint64(st->writer);
    return st;
}

static void *gen_plan_open(const bench_workload *wl)
{
    struct gen_state *st = gen_open_common(wl);
    avrogen_diag why;
    if (st == NULL)
        return NULL;
    if (avrogen_type_plan_new(avrogen_schema_root(st->writer), &order_avro_type, NULL, &st->plan,
                              &why) != AVROGEN_OK) {
        fprintf(stderr, "%s: no type plan from %s: %s: %s\n", wl->name, st->set->writer_name,
                why.path, why.msg);
        gen_close(st);
        return NULL;
    }
    return st;
}

static void *gen_aot_open(const bench_workload *wl)
{
    struct gen_state *st = gen_open_common(wl);
    if (st == NULL)
        return NULL;
    for (size_t i = 0; i < order_avro_type.n_resolved; i++)
        if (order_avro_type.resolved[i].fingerprint == st->writer_fp)
            st->aot = order_avro_type.resolved[i].decode;
    if (st->aot == NULL) {
        fprintf(stderr,
                "%s: order_avro_type has no ahead-of-time decoder for %s (fingerprint "
                "%016" PRIx64 "): was order.h generated with --compat-with workloads/earlier?\n",
                wl->name, st->set->writer_name, st->writer_fp);
        gen_close(st);
        return NULL;
    }
    return st;
}

static void *gen_decode_as_open(const bench_workload *wl)
{
    struct gen_state *st = gen_open_common(wl);
    if (st == NULL)
        return NULL;
    if ((st->cache = avrogen_plan_cache_new(NULL)) == NULL) {
        gen_close(st);
        return NULL;
    }
    return st;
}

static avrogen_status by_plan(struct gen_state *st, avrogen_reader *r, order_t *o)
{
    return avrogen_type_plan_decode(st->plan, r, o, &st->arena);
}

static avrogen_status by_aot(struct gen_state *st, avrogen_reader *r, order_t *o)
{
    return st->aot(r, o, &st->arena);
}

static avrogen_status by_decode_as(struct gen_state *st, avrogen_reader *r, order_t *o)
{
    return avrogen_decode_as(&order_avro_type, st->cache, st->writer_fp, st->writer, r, o,
                             &st->arena);
}

/*
 * Decode every record one of the three ways, verifying. Inlined into each row
 * with `decode` a constant, so the rows pay no extra indirect call.
 */
static inline int gen_read_all(struct gen_state *st, const uint8_t *in, size_t len, bool verify,
                               avrogen_status (*decode)(struct gen_state *, avrogen_reader *,
                                                        order_t *))
{
    avrogen_reader r;
    order_t o;
    avrogen_reader_init(&r, in, len);
    for (size_t i = 0; i < N_RECORDS; i++) {
        avrogen_arena_reset(&st->arena);
        if (decode(st, &r, &o) != AVROGEN_OK)
            return -1;
        if (verify && !expect_eq(st->set, &o, i))
            return -1;
    }
    return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;
}

static int gen_plan_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    return gen_read_all(p, in, len, verify, by_plan);
}

static int gen_aot_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    return gen_read_all(p, in, len, verify, by_aot);
}

static int gen_decode_as_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    return gen_read_all(p, in, len, verify, by_decode_as);
}

/* ---- read rows: generic values --------------------------------------------------- */

struct generic_read_state {
    avrogen_schema *writer, *reader;
    avrogen_resolver *res;
    avrogen_arena data;              /* the expected values */
    avrogen_value expect[N_RECORDS]; /* reader-shaped, from the expected records */
    avrogen_arena scratch;           /* what reads decode into, reset per record */
};

static void generic_read_close(void *p)
{
    struct generic_read_state *st = p;
    if (st == NULL)
        return;
    avrogen_resolver_free(st->res);
    avrogen_arena_fini(&st->scratch);
    avrogen_arena_fini(&st->data);
    avrogen_schema_free(st->reader);
    avrogen_schema_free(st->writer);
    free(st);
}

static void *generic_read_open(const bench_workload *wl)
{
    const struct evolve_set *s = set_of(wl);
    struct generic_read_state *st = calloc(1, sizeof *st);
    avrogen_diag why = {0};
    if (st == NULL)
        return NULL;
    avrogen_arena_init(&st->data, NULL);
    avrogen_arena_init(&st->scratch, NULL);
    if (avrogen_schema_parse(s->writer_json, strlen(s->writer_json), NULL, &st->writer, &why) !=
                AVROGEN_OK ||
        avrogen_schema_parse(bench_avsc_order, strlen(bench_avsc_order), NULL, &st->reader, &why) !=
                AVROGEN_OK ||
        avrogen_resolver_new(avrogen_schema_root(st->writer), avrogen_schema_root(st->reader), NULL,
                             &st->res, &why) != AVROGEN_OK) {
        fprintf(stderr, "%s: generic resolver: %s: %s\n", wl->name, why.path, why.msg);
        goto fail;
    }
    for (size_t i = 0; i < N_RECORDS; i++)
        if (order_ops()->to_generic(&s->recs[i].expect, &st->expect[i],
                                    avrogen_schema_root(st->reader), &st->data) != 0)
            goto fail;
    return st;
fail:
    generic_read_close(st);
    return NULL;
}

static int generic_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    struct generic_read_state *st = p;
    avrogen_reader r;
    avrogen_reader_init(&r, in, len);
    for (size_t i = 0; i < N_RECORDS; i++) {
        avrogen_value v;
        avrogen_arena_reset(&st->scratch);
        if (avrogen_resolver_decode(st->res, &r, &v, &st->scratch) != AVROGEN_OK)
            return -1;
        if (verify && !avrogen_value_equal(&v, &st->expect[i]))
            return -1;
    }
    return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;
}

/* ---- read rows: avro-c's resolvers (evolve_c) ------------------------------------ */

/*
 * avro-c's resolved reader wraps a writer-schema value (`source`, what
 * avro_value_read fills) and presents it as the reader schema (`resolved`,
 * what is copied out). The copy into order_t is the avro-c struct row's
 * (rows.c): strings and arrays on the heap, freed after use.
 */
struct avroc_read_state {
    const struct evolve_set *set;
    avro_schema_t writer, reader;
    avro_value_iface_t *source_iface;   /* generic class of the writer schema */
    avro_value_iface_t *resolved_iface; /* the resolver */
    avro_value_t source, resolved;
    bool has_source, has_resolved;
    avro_reader_t in;
    order_t rec;
};

static void avroc_read_close(void *p)
{
    struct avroc_read_state *st = p;
    if (st == NULL)
        return;
    if (st->has_resolved)
        avro_value_decref(&st->resolved);
    if (st->has_source)
        avro_value_decref(&st->source);
    if (st->resolved_iface != NULL)
        avro_value_iface_decref(st->resolved_iface);
    if (st->source_iface != NULL)
        avro_value_iface_decref(st->source_iface);
    if (st->in != NULL)
        avro_reader_free(st->in);
    if (st->reader != NULL)
        avro_schema_decref(st->reader);
    if (st->writer != NULL)
        avro_schema_decref(st->writer);
    free(st);
}

static void *avroc_read_open(const bench_workload *wl)
{
    const struct evolve_set *s = set_of(wl);
    struct avroc_read_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->set = s;
    if (avro_schema_from_json_length(s->writer_json, strlen(s->writer_json), &st->writer) != 0 ||
        avro_schema_from_json_length(bench_avsc_order, strlen(bench_avsc_order), &st->reader) !=
                0 ||
        (st->in = avro_reader_memory(avroc_dummy, sizeof avroc_dummy)) == NULL ||
        (st->source_iface = avro_generic_class_from_schema(st->writer)) == NULL ||
        (st->resolved_iface = avro_resolved_reader_new(st->writer, st->reader)) == NULL ||
        avro_generic_value_new(st->source_iface, &st->source) != 0)
        goto fail;
    st->has_source = true;
    if (avro_resolved_reader_new_value(st->resolved_iface, &st->resolved) != 0)
        goto fail;
    st->has_resolved = true;
    avro_resolved_reader_set_source(&st->resolved, &st->source);
    return st;
fail:
    fprintf(stderr, "%s: avro-c resolved reader: %s\n", wl->name, avro_strerror());
    avroc_read_close(st);
    return NULL;
}

static int avroc_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    struct avroc_read_state *st = p;
    const bench_ops *ops = order_ops();
    avro_reader_memory_set_source(st->in, (const char *)in, (int64_t)len);
    for (size_t i = 0; i < N_RECORDS; i++) {
        if (avro_value_read(st->in, &st->source) != 0)
            return -1;
        memset(&st->rec, 0, sizeof st->rec);
        int rc = ops->from_avroc(&st->resolved, &st->rec);
        if (rc == 0 && verify && !expect_eq(st->set, &st->rec, i))
            rc = -1;
        ops->free_avroc(&st->rec);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ---- the workloads --------------------------------------------------------------- */

static const bench_row evolve_rows[] = {
        {"avroc", BENCH_WRITE, avroc_write_open, avroc_write_close, avroc_write, NULL},
        {"generic", BENCH_WRITE, generic_write_open, generic_write_close, generic_write, NULL},
        {"gen_plan", BENCH_READ, gen_plan_open, gen_close, NULL, gen_plan_read},
        {"gen_aot", BENCH_READ, gen_aot_open, gen_close, NULL, gen_aot_read},
        {"gen_decode_as", BENCH_READ, gen_decode_as_open, gen_close, NULL, gen_decode_as_read},
        {"generic_resolved", BENCH_READ, generic_read_open, generic_read_close, NULL, generic_read},
};

/* The same, plus avro-c's resolved reader, which can take this pair. */
static const bench_row evolve_c_rows[] = {
        {"avroc", BENCH_WRITE, avroc_write_open, avroc_write_close, avroc_write, NULL},
        {"generic", BENCH_WRITE, generic_write_open, generic_write_close, generic_write, NULL},
        {"gen_plan", BENCH_READ, gen_plan_open, gen_close, NULL, gen_plan_read},
        {"gen_aot", BENCH_READ, gen_aot_open, gen_close, NULL, gen_aot_read},
        {"gen_decode_as", BENCH_READ, gen_decode_as_open, gen_close, NULL, gen_decode_as_read},
        {"generic_resolved", BENCH_READ, generic_read_open, generic_read_close, NULL, generic_read},
        {"avroc_resolved", BENCH_READ, avroc_read_open, avroc_read_close, NULL, avroc_read},
};

const bench_workload bench_wl_evolve = {
        .name = "evolve",
        .schema_json = bench_avsc_order_v0,
        .n_records = N_RECORDS,
        .ops = &set_evolve,
        .init = evolve_init,
        .fini = evolve_fini,
        .rows = evolve_rows,
        .n_rows = sizeof evolve_rows / sizeof evolve_rows[0],
        .own_rows_only = true,
        .note = evolve_note,
};

const bench_workload bench_wl_evolve_c = {
        .name = "evolve_c",
        .schema_json = bench_avsc_order_v0_paid,
        .n_records = N_RECORDS,
        .ops = &set_evolve_c,
        .init = evolve_c_init,
        .fini = evolve_fini,
        .rows = evolve_c_rows,
        .n_rows = sizeof evolve_c_rows / sizeof evolve_c_rows[0],
        .own_rows_only = true,
};
