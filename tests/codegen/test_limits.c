/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The limits of generated code (issue 12), held against the other paths that
 * read the same data:
 *
 *  - depth: one default max_depth (AVROGEN_DEFAULT_MAX_DEPTH, 1000 records
 *    that contain themselves) for the generated encoder, sizer and decoder,
 *    type plans, the generic decoder, skip and resolver, and the JSON
 *    encoding: a 1000-node list is read and written by each, 1001 nodes by
 *    none; a cycle through pointers (a doubly linked list's prev) and a
 *    300,000-node list stop with E_LIMIT instead of overflowing the stack;
 *  - recursion through a union branch (cg_shapes.h's Lisp, whose branch
 *    `cons` is a pointer to a record): the same bound for every reader and
 *    writer, 100,000 nested conses and a cycle of pointers stop with E_LIMIT,
 *    and a NULL branch pointer is refused by name;
 *  - messages: an encode that fails names the member, as
 *    "Record.member[3].member: reason", for each reason generated encoders
 *    refuse a value, and so does the generic encoder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_hostile.avro.h"
#include "cg_nested.avro.h"
#include "cg_shapes.avro.h"
#include "cg_unions.avro.h"
#include "cg_wide.avro.h"

#define MAX AVROGEN_DEFAULT_MAX_DEPTH

static avrogen_arena arena;

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
}

static void teardown(void)
{
    avrogen_arena_fini(&arena);
}

static avrogen_schema *parse(const char *json)
{
    avrogen_schema *s = NULL;
    avrogen_diag d;
    ck_assert_msg(avrogen_schema_parse(json, strlen(json), NULL, &s, &d) == AVROGEN_OK, "%s: %s",
                  d.path, d.msg);
    return s;
}

/* n linked nodes, values 0..n-1; free with free(). */
static struct node *list(size_t n)
{
    struct node *nodes = calloc(n, sizeof *nodes);
    ck_assert_ptr_nonnull(nodes);
    for (size_t i = 0; i < n; i++) {
        nodes[i].value = (int64_t)i;
        nodes[i].next = i + 1 < n ? &nodes[i + 1] : NULL;
    }
    return nodes;
}

/* The encoding of an n-node list, written by a writer allowed to nest that deep. */
static void encode_list(avrogen_writer *w, size_t n)
{
    struct node *nodes = list(n);
    avrogen_writer_init_growable(w, NULL);
    w->max_depth = (unsigned)n;
    ck_assert_int_eq(node_avro_encode(w, &nodes[0]), AVROGEN_OK);
    free(nodes);
}

/* Every reader of the datum at buf, with the default limits: its status. */
static void all_readers(const avrogen_writer *w, avrogen_status want)
{
    const uint8_t *buf = avrogen_writer_data(w);
    size_t len = avrogen_writer_len(w);
    avrogen_reader r;
    struct node head;

    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(node_avro_decode(&r, &head, &arena), want);

    avrogen_schema *s = parse(avrogen_type_schema(&node_avro_type));
    const avrogen_node *root = avrogen_schema_root(s);
    ck_assert(root->recursive);
    avrogen_type_plan *plan;
    avrogen_diag why;
    ck_assert_int_eq(avrogen_type_plan_new(root, &node_avro_type, NULL, &plan, &why), AVROGEN_OK);
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, &head, &arena), want);
    avrogen_type_plan_free(plan);

    avrogen_value v;
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_value_decode(&r, root, &v, &arena), want);
    if (want == AVROGEN_OK) {
        /* ... and the generic writers take what the generic reader gave. */
        avrogen_writer out;
        avrogen_writer_init_growable(&out, NULL);
        ck_assert_int_eq(avrogen_value_encode(&out, &v), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_writer_len(&out), len);
        ck_assert_uint_eq(avrogen_value_size(&v), len);
        avrogen_writer_reset(&out);
        ck_assert_int_eq(avrogen_value_to_json(&out, &v, 0), AVROGEN_OK);
        avrogen_writer_fini(&out);
    }

    avrogen_reader_init(&r, buf, len);
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, root), want);

    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(root, root, NULL, &res, &why), AVROGEN_OK);
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), want);
    avrogen_resolver_free(res);
    avrogen_schema_free(s);
}

/* A list of MAX nodes is read by every reader; one more node by none. */
START_TEST(test_depth_bound_readers)
{
    avrogen_writer w;
    encode_list(&w, MAX);
    all_readers(&w, AVROGEN_OK);
    avrogen_writer_fini(&w);
    encode_list(&w, MAX + 1);
    all_readers(&w, AVROGEN_E_LIMIT);
    avrogen_writer_fini(&w);
}
END_TEST

/* The generated encoder and sizer at the same bound, with the default writer. */
START_TEST(test_depth_bound_writers)
{
    struct node *nodes = list(MAX + 1);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_uint_eq(w.max_depth, MAX);
    ck_assert_int_eq(node_avro_encode(&w, &nodes[1]), AVROGEN_OK); /* MAX nodes */
    ck_assert_uint_eq(node_avro_size(&nodes[1]), avrogen_writer_len(&w));
    ck_assert_uint_eq(w.depth, 0);

    avrogen_writer_reset(&w);
    ck_assert_int_eq(node_avro_encode(&w, &nodes[0]), AVROGEN_E_LIMIT); /* MAX + 1 */
    ck_assert_ptr_nonnull(w.err_msg);
    ck_assert_msg(strncmp(w.err_msg, "node.next.next", 14) == 0, "%s", w.err_msg);
    ck_assert_ptr_nonnull(
            strstr(w.err_msg, ": records nest deeper than the writer's max_depth (1000)"));
    ck_assert_uint_eq(node_avro_size(&nodes[0]), SIZE_MAX);

    /* max_depth is the writer's to set. */
    avrogen_writer_reset(&w);
    w.max_depth = MAX + 1;
    ck_assert_int_eq(node_avro_encode(&w, &nodes[0]), AVROGEN_OK);
    avrogen_writer_fini(&w);
    free(nodes);
}
END_TEST

/* A cycle through AVRO_NULLABLE pointers, both ways (next and prev). */
START_TEST(test_cycle)
{
    struct dnode a = {1, NULL, NULL}, b = {2, NULL, NULL};
    a.next = &b;
    b.prev = &a;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(dnode_avro_encode(&w, &a), AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(w.err_msg, "dnode.next.prev.next.prev"));
    ck_assert_uint_eq(dnode_avro_size(&a), SIZE_MAX);
    /* Both pointers of every node on the cycle: still bounded by the depth. */
    a.prev = &b;
    b.next = &a;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(dnode_avro_encode(&w, &a), AVROGEN_E_LIMIT);
    ck_assert_uint_eq(dnode_avro_size(&a), SIZE_MAX);
    /* Without the cycle it is plain data. */
    a.prev = b.next = b.prev = NULL;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(dnode_avro_encode(&w, &a), AVROGEN_OK);
    ck_assert_uint_eq(dnode_avro_size(&a), avrogen_writer_len(&w));
    avrogen_writer_fini(&w);
}
END_TEST

/* 300,000 nodes: a limit status, not a stack overflow, from each writer. */
START_TEST(test_long_list)
{
    size_t n = 300000;
    struct node *nodes = list(n);
    avrogen_writer w;
    uint8_t buf[64];
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    ck_assert_int_eq(node_avro_encode(&w, &nodes[0]), AVROGEN_E_NOSPACE);
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(node_avro_encode(&w, &nodes[0]), AVROGEN_E_LIMIT);
    ck_assert_uint_eq(node_avro_size(&nodes[0]), SIZE_MAX);
    avrogen_writer_fini(&w);
    free(nodes);
}
END_TEST

/* ---- recursion through a union branch (Lisp) ------------------------------- */

/* The encoding of n conses nested through car, ending in nil: each Lisp is
 * branch 2 (04) but the innermost (00), each cdr is nil (00). n conses and
 * n + 1 Lisps are 2n + 1 records that contain themselves. */
static uint8_t *nested_conses(size_t n, size_t *len)
{
    *len = 2 * n + 1;
    uint8_t *buf = malloc(*len);
    ck_assert_ptr_nonnull(buf);
    memset(buf, 0x04, n);
    memset(buf + n, 0x00, n + 1);
    return buf;
}

/* The generated decoder, the type plan and the generic decoder, skip and
 * resolver on n nested conses: each returns `want`. */
static void lisp_readers(size_t n, avrogen_status want)
{
    size_t len;
    uint8_t *buf = nested_conses(n, &len);
    avrogen_reader r;
    struct lisp head;

    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(lisp_avro_decode(&r, &head, &arena), want);
    if (want == AVROGEN_OK) {
        /* Down the cars: n conses, then nil. */
        const struct lisp *at = &head;
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq(at->kind, LISP_CONS);
            ck_assert_ptr_nonnull(at->value.cons);
            ck_assert_int_eq(at->value.cons->cdr.kind, LISP_NIL);
            at = &at->value.cons->car;
        }
        ck_assert_int_eq(at->kind, LISP_NIL);
        /* ... and it encodes back to the same bytes, as long as size says. */
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        ck_assert_int_eq(lisp_avro_encode(&w, &head), AVROGEN_OK);
        ck_assert_uint_eq(avrogen_writer_len(&w), len);
        ck_assert(memcmp(avrogen_writer_data(&w), buf, len) == 0);
        ck_assert_uint_eq(lisp_avro_size(&head), len);
        avrogen_writer_fini(&w);
    } else {
        ck_assert_ptr_nonnull(r.err_msg);
        /* The decoder's path follows the schema: a branch adds no member. */
        ck_assert_msg(strncmp(r.err_msg, "Lisp.value.car.value.car", 24) == 0 &&
                              strstr(r.err_msg, ": records nest deeper than the reader's "
                                                "max_depth") != NULL,
                      "%s", r.err_msg);
    }

    avrogen_schema *s = parse(avrogen_type_schema(&lisp_avro_type));
    const avrogen_node *root = avrogen_schema_root(s);
    ck_assert(root->recursive);
    avrogen_type_plan *plan;
    avrogen_diag why;
    ck_assert_int_eq(avrogen_type_plan_new(root, &lisp_avro_type, NULL, &plan, &why), AVROGEN_OK);
    struct lisp via_plan;
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, &via_plan, &arena), want);
    avrogen_type_plan_free(plan);

    avrogen_value v;
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_value_decode(&r, root, &v, &arena), want);
    avrogen_reader_init(&r, buf, len);
    avrogen_reader_begin_datum(&r);
    ck_assert_int_eq(avrogen_skip(&r, root), want);
    avrogen_resolver *res;
    ck_assert_int_eq(avrogen_resolver_new(root, root, NULL, &res, &why), AVROGEN_OK);
    avrogen_reader_init(&r, buf, len);
    ck_assert_int_eq(avrogen_resolver_decode(res, &r, &v, &arena), want);
    avrogen_resolver_free(res);
    avrogen_schema_free(s);
    free(buf);
}

/* 499 conses are 999 levels: read by all; 500 are 1001: by none. */
START_TEST(test_lisp_depth)
{
    ck_assert_uint_eq(MAX, 1000);
    lisp_readers(499, AVROGEN_OK);
    lisp_readers(500, AVROGEN_E_LIMIT);
    lisp_readers(100000, AVROGEN_E_LIMIT); /* a limit, not a stack overflow */
}
END_TEST

/* n conses nested through car, in `cells` (n of them), under `top`. */
static void lisp_chain(struct lisp *top, struct cons *cells, size_t n)
{
    struct lisp *at = top;
    for (size_t i = 0; i < n; i++) {
        at->kind = LISP_CONS;
        at->value.cons = &cells[i];
        cells[i].cdr.kind = LISP_NIL;
        at = &cells[i].car;
    }
    at->kind = LISP_NIL;
}

/* The writers at the same bound, a cycle through the branch pointer, and a
 * NULL branch pointer named by its path. */
START_TEST(test_lisp_writers)
{
    struct cons *cells = calloc(500, sizeof *cells);
    ck_assert_ptr_nonnull(cells);
    struct lisp top;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    lisp_chain(&top, cells, 499);
    ck_assert_int_eq(lisp_avro_encode(&w, &top), AVROGEN_OK);
    ck_assert_uint_eq(lisp_avro_size(&top), avrogen_writer_len(&w));
    lisp_chain(&top, cells, 500);
    avrogen_writer_reset(&w);
    ck_assert_int_eq(lisp_avro_encode(&w, &top), AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(w.err_msg, ": records nest deeper than the writer's max_depth"));
    ck_assert_uint_eq(lisp_avro_size(&top), SIZE_MAX);

    /* A cons whose car is the Lisp holding it. */
    struct cons loop;
    memset(&loop, 0, sizeof loop);
    loop.car.kind = LISP_CONS;
    loop.car.value.cons = &loop;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(lisp_avro_encode(&w, &loop.car), AVROGEN_E_LIMIT);
    ck_assert_msg(strncmp(w.err_msg, "Lisp.value.cons.car.value.cons.car", 34) == 0, "%s",
                  w.err_msg);
    ck_assert_uint_eq(lisp_avro_size(&loop.car), SIZE_MAX);

    /* NULL where the tag selects the record: at the top, and two levels down. */
    struct lisp bad = {LISP_CONS, {0}};
    avrogen_writer_reset(&w);
    ck_assert_int_eq(lisp_avro_encode(&w, &bad), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "Lisp.value.cons: NULL pointer to record cg.shapes.Cons; point "
                                "it at one, or set the tag to another branch");
    lisp_chain(&top, cells, 2);
    cells[1].cdr.kind = LISP_CONS; /* its cons is NULL (calloc) */
    avrogen_writer_reset(&w);
    ck_assert_int_eq(lisp_avro_encode(&w, &top), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "Lisp.value.cons.car.value.cons.cdr.value.cons: NULL pointer to "
                                "record cg.shapes.Cons; point it at one, or set the tag to "
                                "another branch");
    avrogen_writer_fini(&w);
    free(cells);
}
END_TEST

/* A message "path: reason" at w, the path exactly `path`. */
static void says(const avrogen_writer *w, const char *path, const char *reason)
{
    ck_assert_ptr_nonnull(w->err_msg);
    size_t n = strlen(path);
    ck_assert_msg(strncmp(w->err_msg, path, n) == 0 && strncmp(w->err_msg + n, ": ", 2) == 0 &&
                          strstr(w->err_msg + n, reason) != NULL,
                  "got \"%s\", want \"%s: ...%s...\"", w->err_msg, path, reason);
}

/* Each reason a generated encoder refuses a value, named with its member. */
START_TEST(test_encode_messages)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);

    struct item items[5] = {
            {1, "a", 1.0}, {2, "b", 2.0}, {3, "c", 3.0}, {4, NULL, 4.0}, {5, "e", 5.0}};
    struct arrays a;
    memset(&a, 0, sizeof a);
    a.labels[0] = a.labels[1] = (char *)"";
    a.pair[0].name = a.pair[1].name = (char *)"";
    a.items = items;
    a.n_items = 5;
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    says(&w, "arrays.items[3].name", "NULL string");

    items[3].name = (char *)"d";
    a.pair[1].name = NULL;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    says(&w, "arrays.pair[1].name", "NULL string");
    a.pair[1].name = (char *)"";

    a.n_longs = -1;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    says(&w, "arrays.longs", "not a count");
    a.n_longs = 2;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_ARG);
    says(&w, "arrays.longs", "NULL items with a count of 2");
    a.n_longs = 0;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_OK);

    struct h_enum e = {(enum h_level)7};
    avrogen_writer_reset(&w);
    ck_assert_int_eq(h_enum_avro_encode(&w, &e), AVROGEN_E_ARG);
    says(&w, "h_enum.level", "7 is not a value of enum cg.h_level");

    struct shape s;
    memset(&s, 0, sizeof s);
    s.kind = (enum shape_kind)6;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(shape_avro_encode(&w, &s), AVROGEN_E_ARG);
    ck_assert_msg(strstr(w.err_msg, "tag 6 selects no branch of the union") != NULL, "%s",
                  w.err_msg);

    struct cell cell = {(char *)"k1", (enum cell_kind)3, {0}};
    struct sheet sh;
    memset(&sh, 0, sizeof sh);
    sh.cells = &cell;
    sh.n_cells = 1;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(sheet_avro_encode(&w, &sh), AVROGEN_E_ARG);
    says(&w, "sheet.cells[\"k1\"]", "tag 3 selects no branch of the union");

    /* A failure that is not the struct's (the buffer is full) gets no member. */
    avrogen_writer_fini(&w);
    uint8_t tiny[2];
    avrogen_writer_init_fixed(&w, tiny, sizeof tiny);
    ck_assert_int_eq(arrays_avro_encode(&w, &a), AVROGEN_E_NOSPACE);
    ck_assert(w.err_msg == NULL || w.err_msg != w.err_text);
}
END_TEST

/* The generic encoder names the value it refuses too. */
START_TEST(test_generic_encode_messages)
{
    avrogen_schema *s = parse(
            "{\"type\":\"record\",\"name\":\"o.Order\",\"fields\":[{\"name\":\"lines\",\"type\":"
            "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"Line\",\"fields\":["
            "{\"name\":\"tags\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"enum\","
            "\"name\":\"E\",\"symbols\":[\"A\"]}}}]}}}]}");
    avrogen_value v, *line = NULL, *tag = NULL;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_OK);
    avrogen_value *lines = avrogen_value_field(&v, "lines");
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(avrogen_value_append(lines, &arena, &line), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_map_put(avrogen_value_field(line, "tags"), "x", 1, &arena, &tag),
                     AVROGEN_OK);
    tag->enum_index = 5;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg,
                     "Order.lines[2].tags[\"x\"]: enum index 5 out of range (the enum has 1 "
                     "symbol)");
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);

    /* A union's branch index, with the union's size, at the union's place. */
    s = parse("{\"type\":\"record\",\"name\":\"U\",\"fields\":[{\"name\":\"u\",\"type\":"
              "{\"type\":\"array\",\"items\":[\"null\",\"long\",\"string\"]}},"
              "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"F\","
              "\"symbols\":[\"A\",\"B\"]}}]}");
    avrogen_value *item = NULL;
    ck_assert_int_eq(avrogen_value_init(&v, avrogen_schema_root(s), &arena), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_append(avrogen_value_field(&v, "u"), &arena, &item), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_append(avrogen_value_field(&v, "u"), &arena, &item), AVROGEN_OK);
    ck_assert_int_eq(avrogen_value_set_branch(item, 1, &arena, NULL), AVROGEN_OK);
    item->branch.index = 7;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "U.u[1]: union branch index 7 out of range (the union has 3 "
                                "branches)");
    item->branch.index = 1;
    avrogen_value_field(&v, "e")->enum_index = 2;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "U.e: enum index 2 out of range (the enum has 2 symbols)");
    avrogen_value_field(&v, "e")->enum_index = 1;
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);
    avrogen_writer_fini(&w);
    avrogen_schema_free(s);
}
END_TEST

/* Encode v with the generated encoder; its bytes must be `want` (n of them),
 * its size n, and the generic runtime must read them back. */
static void exact(const avrogen_type *t, avrogen_status (*enc)(avrogen_writer *, const void *),
                  size_t (*size)(const void *), const void *v, const uint8_t *want, size_t n)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(enc(&w, v), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w), n);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);
    ck_assert_uint_eq(size(v), n);
    avrogen_schema *s = parse(avrogen_type_schema(t));
    avrogen_value gv;
    avrogen_reader r;
    avrogen_reader_init(&r, want, n);
    ck_assert_int_eq(avrogen_value_decode(&r, avrogen_schema_root(s), &gv, &arena), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_value_encode(&w, &gv), AVROGEN_OK);
    ck_assert_mem_eq(avrogen_writer_data(&w), want, n);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);
}

static avrogen_status enc_narrow(avrogen_writer *w, const void *v)
{
    return narrow_avro_encode(w, v);
}
static size_t size_narrow(const void *v)
{
    return narrow_avro_size(v);
}
static avrogen_status enc_wide(avrogen_writer *w, const void *v)
{
    return wide_avro_encode(w, v);
}
static size_t size_wide(const void *v)
{
    return wide_avro_size(v);
}
static avrogen_status enc_indexes(avrogen_writer *w, const void *v)
{
    return indexes_avro_encode(w, v);
}
static size_t size_indexes(const void *v)
{
    return indexes_avro_size(v);
}

/*
 * Issue 12: indexes at the one-byte varint bound. A union of 64 branches and
 * an enum of 64 symbols take one byte (63 is 7e); with 65, index 64 takes two
 * (80 01), so neither may be folded to a one-byte size.
 */
START_TEST(test_index_bounds)
{
    struct narrow n;
    memset(&n, 0, sizeof n);
    n.which = 63;
    n.as.b63[0] = 0xaa;
    exact(&narrow_avro_type, enc_narrow, size_narrow, &n, (const uint8_t *)"\x7e\xaa", 2);
    struct wide w;
    memset(&w, 0, sizeof w);
    w.which = 63;
    w.as.b63[0] = 0xbb;
    exact(&wide_avro_type, enc_wide, size_wide, &w, (const uint8_t *)"\x7e\xbb", 2);
    w.which = 64;
    w.as.b64[0] = 0xcc;
    exact(&wide_avro_type, enc_wide, size_wide, &w, (const uint8_t *)"\x80\x01\xcc", 3);
    struct indexes x = {E64_S63, E65_S64};
    exact(&indexes_avro_type, enc_indexes, size_indexes, &x, (const uint8_t *)"\x7e\x80\x01", 3);
    x.b = E65_S63;
    exact(&indexes_avro_type, enc_indexes, size_indexes, &x, (const uint8_t *)"\x7e\x7e", 2);

    /* And back through the generated decoders. */
    avrogen_reader r;
    struct wide back;
    avrogen_reader_init(&r, "\x80\x01\xcc", 3);
    ck_assert_int_eq(wide_avro_decode(&r, &back, &arena), AVROGEN_OK);
    ck_assert(back.which == 64 && back.as.b64[0] == 0xcc);
    struct indexes xb;
    avrogen_reader_init(&r, "\x7e\x80\x01", 3);
    ck_assert_int_eq(indexes_avro_decode(&r, &xb, &arena), AVROGEN_OK);
    ck_assert(xb.a == E64_S63 && xb.b == E65_S64);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("depth");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_depth_bound_readers);
    tcase_add_test(tc, test_depth_bound_writers);
    tcase_add_test(tc, test_cycle);
    tcase_add_test(tc, test_long_list);
    tcase_add_test(tc, test_lisp_depth);
    tcase_add_test(tc, test_lisp_writers);
    suite_add_tcase(s, tc);
    tc = tcase_create("messages");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_encode_messages);
    tcase_add_test(tc, test_generic_encode_messages);
    tcase_add_test(tc, test_index_bounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
