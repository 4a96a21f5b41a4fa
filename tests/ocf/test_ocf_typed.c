/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Container files of generated types: avrogen_ocf_writer_open_type / put and
 * avrogen_ocf_reader_open_type / get / finish on examples/containers' orders.
 * Round trips under every codec, encode errors that name the record and the
 * member (sticky through put, kept by datum_end for datum_error), decode
 * errors that name the record, a file of an older schema read through the
 * type, the reader's arena reused record after record, and misuse.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <unistd.h>

#include "avrogen/ocf.h"
#include "avrogen/value.h"

#include "orders.avro.h"

static char path[64];

static void make_path(void)
{
    snprintf(path, sizeof path, "/tmp/avrogen-ocf-typed-%ld.avro", (long)getpid());
}

static void drop_path(void)
{
    unlink(path);
}

/* Order i, with its strings and array in the caller's storage. */
static struct order make_order(int64_t i, char name[32], int64_t skus[3])
{
    snprintf(name, 32, "customer-%" PRId64, i % 1000);
    for (int64_t k = 0; k < i % 4; k++)
        skus[k] = i * 10 + k;
    struct order o = {0};
    o.id = i;
    o.customer.id = i % 1000;
    o.customer.name = name;
    o.skus = skus;
    o.n_skus = (size_t)(i % 4);
    o.note = i % 3 == 0 ? NULL : "leave at the door";
    o.status = (enum status)(i % 3);
    o.placed_at = 1700000000000000 + i * 1000;
    return o;
}

static void check_order(int64_t i, const struct order *o)
{
    char name[32];
    int64_t skus[3];
    struct order want = make_order(i, name, skus);
    ck_assert_int_eq(o->id, want.id);
    ck_assert_int_eq(o->customer.id, want.customer.id);
    ck_assert_str_eq(o->customer.name, want.customer.name);
    ck_assert_uint_eq(o->n_skus, want.n_skus);
    for (size_t k = 0; k < want.n_skus; k++)
        ck_assert_int_eq(o->skus[k], want.skus[k]);
    if (want.note == NULL)
        ck_assert_ptr_null(o->note);
    else
        ck_assert_str_eq(o->note, want.note);
    ck_assert_int_eq(o->status, want.status);
    ck_assert_int_eq(o->placed_at, want.placed_at);
}

/* Write orders 0..n-1 to path; order `bad` (if < n) spoilt by spoil(). */
static avrogen_status write_orders(const char *codec, int64_t n, int64_t bad,
                                   void (*spoil)(struct order *), avrogen_diag *d,
                                   avrogen_status *put_st)
{
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = 4000;
    avrogen_ocf_writer *w;
    avrogen_status st = avrogen_ocf_writer_open_type(path, &order_avro_type, &o, &w, d);
    ck_assert_msg(st == AVROGEN_OK, "%s", d->msg);
    *put_st = AVROGEN_OK;
    for (int64_t i = 0; i < n; i++) {
        char name[32];
        int64_t skus[3];
        struct order ord = make_order(i, name, skus);
        if (i == bad)
            spoil(&ord);
        *put_st = avrogen_ocf_writer_put(w, &ord);
        if (*put_st != AVROGEN_OK)
            break;
    }
    return avrogen_ocf_writer_close(w, d);
}

/* Read path back through the type: how many records came, and finish's status. */
static avrogen_status read_orders(const avrogen_ocf_reader_options *opts, int64_t *got,
                                  avrogen_diag *d)
{
    avrogen_ocf_reader *r;
    avrogen_status st = avrogen_ocf_reader_open_type(path, &order_avro_type, opts, &r, d);
    ck_assert_msg(st == AVROGEN_OK, "%s", d->msg);
    struct order o;
    *got = 0;
    while (avrogen_ocf_reader_get(r, &o))
        check_order((*got)++, &o);
    return avrogen_ocf_reader_finish(r, d);
}

/* ---- round trips -------------------------------------------------------------- */

static const char *const codecs[] = {"null", "deflate", "snappy", "zstandard", "xz", "bzip2"};
#define N_CODECS (sizeof codecs / sizeof *codecs)

START_TEST(round_trip)
{
    const char *codec = codecs[_i];
    make_path();
    avrogen_diag d;
    avrogen_status put_st;
    ck_assert_int_eq(write_orders(codec, 3000, -1, NULL, &d, &put_st), AVROGEN_OK);
    ck_assert_int_eq(put_st, AVROGEN_OK);

    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d),
                     AVROGEN_OK);
    ck_assert_str_eq(avrogen_ocf_reader_codec(r), codec);
    ck_assert_str_eq(avrogen_schema_canonical(avrogen_ocf_reader_schema(r)),
                     avrogen_type_canonical(&order_avro_type));
    avrogen_ocf_reader_close(r);

    int64_t got;
    ck_assert_msg(read_orders(NULL, &got, &d) == AVROGEN_OK, "%s", d.msg);
    ck_assert_int_eq(got, 3000);
    drop_path();
}
END_TEST

START_TEST(empty_file)
{
    make_path();
    avrogen_diag d;
    avrogen_status put_st;
    ck_assert_int_eq(write_orders("zstandard", 0, -1, NULL, &d, &put_st), AVROGEN_OK);
    int64_t got;
    ck_assert_int_eq(read_orders(NULL, &got, &d), AVROGEN_OK);
    ck_assert_int_eq(got, 0);
    drop_path();
}
END_TEST

/* ---- encode errors ------------------------------------------------------------- */

static void null_name(struct order *o)
{
    o->customer.name = NULL;
}

static void bad_status(struct order *o)
{
    o->status = (enum status)7;
}

START_TEST(encode_error_names_record_and_member)
{
    make_path();
    avrogen_diag d;
    avrogen_status put_st;
    ck_assert_int_eq(write_orders("zstandard", 100, 41, null_name, &d, &put_st), AVROGEN_E_ARG);
    ck_assert_int_eq(put_st, AVROGEN_E_ARG);
    ck_assert_msg(strncmp(d.msg, "record 41: ", 11) == 0, "%s", d.msg);
    ck_assert_msg(strstr(d.msg, "Order.customer.name") != NULL, "%s", d.msg);

    /* The records before the bad one are in the file. */
    int64_t got;
    ck_assert_msg(read_orders(NULL, &got, &d) == AVROGEN_OK, "%s", d.msg);
    ck_assert_int_eq(got, 41);

    ck_assert_int_eq(write_orders("null", 100, 5, bad_status, &d, &put_st), AVROGEN_E_ARG);
    ck_assert_msg(strncmp(d.msg, "record 5: ", 10) == 0, "%s", d.msg);
    ck_assert_msg(strstr(d.msg, "Order.status") != NULL, "%s", d.msg);
    drop_path();
}
END_TEST

START_TEST(put_error_is_sticky)
{
    make_path();
    avrogen_diag d;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_type(path, &order_avro_type, NULL, &w, &d),
                     AVROGEN_OK);
    char name[32];
    int64_t skus[3];
    struct order o = make_order(0, name, skus);
    ck_assert_int_eq(avrogen_ocf_writer_put(w, &o), AVROGEN_OK);
    o.customer.name = NULL;
    ck_assert_int_eq(avrogen_ocf_writer_put(w, &o), AVROGEN_E_ARG);
    o = make_order(2, name, skus);
    ck_assert_int_eq(avrogen_ocf_writer_put(w, &o), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_ocf_writer_error(w, &d), AVROGEN_E_ARG);
    ck_assert_msg(strncmp(d.msg, "record 1: Order.customer.name", 29) == 0, "%s", d.msg);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_E_ARG);
    drop_path();
}
END_TEST

/* The raw loop (datum_begin, encode, datum_end) keeps the encoder's message too. */
START_TEST(datum_end_keeps_message)
{
    make_path();
    avrogen_diag d;
    avrogen_ocf_writer *w;
    const char *schema = avrogen_type_schema(&order_avro_type);
    ck_assert_int_eq(avrogen_ocf_writer_open(path, schema, strlen(schema), NULL, &w, &d),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_datum_error(w, &d), AVROGEN_OK);
    ck_assert_str_eq(d.msg, "");
    for (int64_t i = 0; i < 10; i++) {
        char name[32];
        int64_t skus[3];
        struct order o = make_order(i, name, skus);
        if (i == 3)
            o.customer.name = NULL;
        avrogen_status st = order_avro_encode(avrogen_ocf_writer_datum_begin(w), &o);
        ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), st);
    }
    ck_assert_int_eq(avrogen_ocf_writer_datum_error(w, &d), AVROGEN_E_ARG);
    ck_assert_msg(strncmp(d.msg, "record 3: Order.customer.name", 29) == 0, "%s", d.msg);
    /* Not w's error: the writer went on, the other nine are in the file. */
    ck_assert_int_eq(avrogen_ocf_writer_error(w, NULL), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_put(w, NULL), AVROGEN_E_ARG); /* not opened by type */
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open(path, NULL, &r, &d), AVROGEN_OK);
    uint64_t skipped;
    ck_assert_int_eq(avrogen_ocf_reader_skip(r, 100, &skipped), AVROGEN_OK);
    ck_assert_uint_eq(skipped, 9);
    avrogen_ocf_reader_close(r);
    drop_path();
}
END_TEST

/* ---- decode errors ------------------------------------------------------------- */

START_TEST(truncated_names_record)
{
    make_path();
    avrogen_diag d;
    avrogen_status put_st;
    ck_assert_int_eq(write_orders("null", 2000, -1, NULL, &d, &put_st), AVROGEN_OK);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    ck_assert_int_eq(truncate(path, size - 100), 0);
    int64_t got;
    ck_assert_int_eq(read_orders(NULL, &got, &d), AVROGEN_E_TRUNCATED);
    ck_assert_int_gt(got, 1000);
    ck_assert_int_lt(got, 2000);
    char want[32];
    snprintf(want, sizeof want, "record %" PRId64 ": ", got);
    ck_assert_msg(strncmp(d.msg, want, strlen(want)) == 0, "%s (want %s)", d.msg, want);
    ck_assert_uint_gt(d.offset, 0);

    /* A datum that does not decode: a sku array count past the datum. */
    ck_assert_int_eq(write_orders("null", 10, -1, NULL, &d, &put_st), AVROGEN_OK);
    drop_path();
}
END_TEST

/* ---- an older schema ----------------------------------------------------------- */

/* Order as an earlier version wrote it: id an int, a field since dropped, two
 * enum symbols only, no customer name default needed (it was there). */
static const char order_v0[] =
        "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": ["
        "{\"name\": \"id\", \"type\": \"int\"},"
        "{\"name\": \"legacy\", \"type\": \"string\"},"
        "{\"name\": \"customer\", \"type\": {\"type\": \"record\", \"name\": \"Customer\", "
        "\"fields\": [{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"name\", "
        "\"type\": \"string\"}]}},"
        "{\"name\": \"skus\", \"type\": {\"type\": \"array\", \"items\": \"int\"}},"
        "{\"name\": \"note\", \"type\": [\"null\", \"string\"]},"
        "{\"name\": \"status\", \"type\": {\"type\": \"enum\", \"name\": \"Status\", "
        "\"symbols\": [\"PAID\", \"NEW\"]}},"
        "{\"name\": \"placed_at\", \"type\": \"long\"}]}";

START_TEST(older_schema_resolves)
{
    make_path();
    avrogen_diag d;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, order_v0, strlen(order_v0), NULL, &w, &d),
                     AVROGEN_OK);
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_writer_schema(w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    for (int i = 0; i < 500; i++) {
        char text[512];
        int len = snprintf(text, sizeof text,
                           "{\"id\": %d, \"legacy\": \"x\", \"customer\": {\"id\": %d, \"name\": "
                           "\"c%d\"}, \"skus\": [%d, 7], \"note\": %s, \"status\": \"%s\", "
                           "\"placed_at\": %d}",
                           i, i + 1, i, -i, i % 2 ? "null" : "{\"string\": \"n\"}",
                           i % 2 ? "PAID" : "NEW", i * 3);
        avrogen_value v;
        avrogen_arena_reset(&a);
        ck_assert_msg(avrogen_value_from_json(text, (size_t)len, type, &v, &a, &d) == AVROGEN_OK,
                      "%s", d.msg);
        ck_assert_int_eq(avrogen_value_encode(avrogen_ocf_writer_datum_begin(w), &v), AVROGEN_OK);
        ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
    }
    avrogen_arena_fini(&a);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);

    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d),
                     AVROGEN_OK);
    struct order o;
    int n = 0;
    while (avrogen_ocf_reader_get(r, &o)) {
        char name[16];
        snprintf(name, sizeof name, "c%d", n);
        ck_assert_int_eq(o.id, n);
        ck_assert_int_eq(o.customer.id, n + 1);
        ck_assert_str_eq(o.customer.name, name);
        ck_assert_uint_eq(o.n_skus, 2);
        ck_assert_int_eq(o.skus[0], -n);
        ck_assert_int_eq(o.skus[1], 7);
        if (n % 2)
            ck_assert_ptr_null(o.note);
        else
            ck_assert_str_eq(o.note, "n");
        ck_assert_int_eq(o.status, n % 2 ? STATUS_PAID : STATUS_NEW);
        ck_assert_int_eq(o.placed_at, n * 3);
        n++;
    }
    ck_assert_msg(avrogen_ocf_reader_finish(r, &d) == AVROGEN_OK, "%s", d.msg);
    ck_assert_int_eq(n, 500);
    drop_path();
}
END_TEST

/* A schema that cannot be read as the type: no record number, the reader path. */
START_TEST(unresolvable_schema)
{
    static const char other[] =
            "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": "
            "[{\"name\": \"id\", \"type\": \"string\"}]}";
    make_path();
    avrogen_diag d;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, other, strlen(other), NULL, &w, &d), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_write(w, "\x02x", 2), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d),
                     AVROGEN_OK);
    struct order o;
    ck_assert(!avrogen_ocf_reader_get(r, &o));
    ck_assert(!avrogen_ocf_reader_get(r, &o));
    ck_assert_int_eq(avrogen_ocf_reader_finish(r, &d), AVROGEN_E_MISMATCH);
    ck_assert_msg(strncmp(d.msg, "record ", 7) != 0, "%s", d.msg);
    drop_path();
}
END_TEST

/* ---- the reader's arena -------------------------------------------------------- */

typedef struct counting {
    avrogen_alloc base;
    size_t live, peak;
} counting;

static void *counting_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    counting *c = ctx;
    void *p = NULL;
    if (new_size == 0) {
        free(ptr);
    } else {
        p = realloc(ptr, new_size);
        if (p == NULL)
            return NULL;
    }
    c->live = c->live - old_size + new_size;
    if (c->live > c->peak)
        c->peak = c->live;
    return p;
}

START_TEST(arena_is_reused)
{
    make_path();
    avrogen_diag d;
    avrogen_status put_st;
    ck_assert_int_eq(write_orders("null", 20000, -1, NULL, &d, &put_st), AVROGEN_OK);
    counting c = {{counting_fn, NULL}, 0, 0};
    c.base.ctx = &c;
    avrogen_ocf_reader_options o = {0};
    o.alloc = &c.base;
    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_type(path, &order_avro_type, &o, &r, &d), AVROGEN_OK);
    struct order ord;
    int64_t n = 0;
    size_t peak_early = 0;
    while (avrogen_ocf_reader_get(r, &ord)) {
        check_order(n++, &ord);
        if (n == 1000)
            peak_early = c.peak;
    }
    ck_assert_int_eq(avrogen_ocf_reader_finish(r, &d), AVROGEN_OK);
    ck_assert_int_eq(n, 20000);
    ck_assert_uint_gt(peak_early, 0);
    ck_assert_uint_eq(c.peak, peak_early);
    ck_assert_uint_eq(c.live, 0);
    drop_path();
}
END_TEST

/* ---- misuse -------------------------------------------------------------------- */

START_TEST(misuse)
{
    make_path();
    avrogen_diag d;
    avrogen_ocf_writer *w = (avrogen_ocf_writer *)1;
    ck_assert_int_eq(avrogen_ocf_writer_open_type(path, NULL, NULL, &w, &d), AVROGEN_E_ARG);
    ck_assert_ptr_null(w);
    ck_assert_str_ne(d.msg, "");
    avrogen_type t = order_avro_type;
    t.encode = NULL;
    ck_assert_int_eq(avrogen_ocf_writer_open_type(path, &t, NULL, &w, &d), AVROGEN_E_ARG);
    avrogen_ocf_reader *r = (avrogen_ocf_reader *)1;
    ck_assert_int_eq(avrogen_ocf_reader_open_type(path, &t, NULL, &r, &d), AVROGEN_E_ARG);
    ck_assert_ptr_null(r);
    /* A file that is not there. */
    ck_assert_int_eq(
            avrogen_ocf_reader_open_type("/nonexistent/x.avro", &order_avro_type, NULL, &r, &d),
            AVROGEN_E_IO);
    ck_assert_ptr_null(r);

    /* get on a reader opened without a type. */
    avrogen_status put_st;
    ck_assert_int_eq(write_orders("null", 3, -1, NULL, &d, &put_st), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_reader_open(path, NULL, &r, &d), AVROGEN_OK);
    struct order o;
    ck_assert(!avrogen_ocf_reader_get(r, &o));
    ck_assert_int_eq(avrogen_ocf_reader_finish(r, &d), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_ocf_reader_finish(NULL, NULL), AVROGEN_OK);
    drop_path();
}
END_TEST

static Suite *ocf_typed_suite(void)
{
    Suite *s = suite_create("ocf_typed");
    TCase *tc = tcase_create("typed");
    tcase_add_loop_test(tc, round_trip, 0, (int)N_CODECS);
    tcase_add_test(tc, empty_file);
    tcase_add_test(tc, encode_error_names_record_and_member);
    tcase_add_test(tc, put_error_is_sticky);
    tcase_add_test(tc, datum_end_keeps_message);
    tcase_add_test(tc, truncated_names_record);
    tcase_add_test(tc, older_schema_resolves);
    tcase_add_test(tc, unresolvable_schema);
    tcase_add_test(tc, arena_is_reused);
    tcase_add_test(tc, misuse);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ocf_typed_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
