/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Write 100,000 orders to a container file compressed with zstandard, read
 * them back and check every one. The lines between "glue begin" and "glue
 * end" are what it takes with avrogen's container API for generated types;
 * README sets them beside the same program with Rust's serde + apache-avro
 * and with Python's fastavro (bench/peers/short).
 *
 *     containers [FILE]   (default: orders.avro in the current directory)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <avrogen/ocf.h>

#include "orders.avro.h"

#define N_ORDERS 100000

/* Order i in *o, its strings and array in `name` and `skus`. */
static const struct order *make_order(int64_t i, struct order *o, char name[32], int64_t skus[3])
{
    snprintf(name, 32, "customer-%" PRId64, i % 1000);
    for (int64_t k = 0; k < i % 4; k++)
        skus[k] = i * 10 + k;
    *o = (struct order){
            .id = i,
            .customer = {.id = i % 1000, .name = name},
            .skus = skus,
            .n_skus = (size_t)(i % 4),
            .note = i % 3 == 0 ? NULL : "leave at the door",
            .status = (enum status)(i % 3),
            .placed_at = 1700000000000000 + i * 1000,
    };
    return o;
}

/* Whether o is order i. */
static bool check_order(int64_t i, const struct order *o)
{
    char name[32];
    int64_t skus[3];
    struct order want;
    make_order(i, &want, name, skus);
    bool same = o->id == want.id && o->customer.id == want.customer.id &&
                strcmp(o->customer.name, want.customer.name) == 0 && o->n_skus == want.n_skus &&
                (want.n_skus == 0 || memcmp(o->skus, want.skus, want.n_skus * sizeof *skus) == 0) &&
                (o->note == NULL) == (want.note == NULL) &&
                (o->note == NULL || strcmp(o->note, want.note) == 0) && o->status == want.status &&
                o->placed_at == want.placed_at;
    if (!same)
        fprintf(stderr, "containers: record %" PRId64 " differs\n", i);
    return same;
}

static int fail(const char *msg)
{
    fprintf(stderr, "containers: %s\n", msg);
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "orders.avro";
    int64_t read = 0;
    char name[32];
    int64_t skus[3];

    /* glue begin */
    avrogen_diag d;
    struct order o;
    avrogen_ocf_writer *w;
    avrogen_ocf_writer_options opts = {.codec = "zstandard"};
    avrogen_status st = avrogen_ocf_writer_open_type(path, &order_avro_type, &opts, &w, &d);
    for (int64_t i = 0; st == AVROGEN_OK && i < N_ORDERS; i++)
        st = avrogen_ocf_writer_put(w, make_order(i, &o, name, skus));
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK || st != AVROGEN_OK)
        return fail(d.msg); /* open's error, or put's: "record 41: Order.customer.name: ..." */
    avrogen_ocf_reader *r;
    st = avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d);
    while (st == AVROGEN_OK && avrogen_ocf_reader_get(r, &o) && check_order(read, &o))
        read++;
    if (avrogen_ocf_reader_finish(r, &d) != AVROGEN_OK || st != AVROGEN_OK)
        return fail(d.msg);
    /* glue end */

    if (read != N_ORDERS)
        return fail("records lost or changed");
    printf("containers: wrote and read back %d orders (zstandard) in %s\n", N_ORDERS, path);
    return 0;
}
