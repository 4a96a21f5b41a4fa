/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: container file bytes → header, blocks, datums, values;
 * then the same file read with a reader schema of its own (next_value with
 * schema resolution), checked against its definition: each datum's bytes
 * (next_datum) resolved by a resolver of the file's schema, which must read
 * them all. The seeds (scripts/test) are corpus/order.avsc files, which the
 * reader schema below reads with every kind of resolution: record and field
 * aliases, fields reordered, dropped and added with a default, promotions
 * (long to double and, in a map of unions, to float), string as bytes, an
 * enum with a symbol the writer lacks and a default for the one it has.
 * Last, the bytes are written to a file and read by path, mapped
 * (avrogen_ocf_reader_options.map), in step with a reader of the memory:
 * every datum, status, offset and message must agree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "avrogen/ocf.h"
#include "avrogen/resolve.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUDGET ((size_t)64 << 20)

static const char reader_json[] =
        "{\"type\": \"record\", \"name\": \"Purchase\", \"namespace\": \"com.acme\", "
        "\"aliases\": [\"com.acme.Order\"], \"fields\": ["
        "{\"name\": \"kind\", \"type\": {\"type\": \"enum\", \"name\": \"Kind\", "
        "\"symbols\": [\"B\", \"C\"], \"default\": \"C\"}},"
        "{\"name\": \"number\", \"aliases\": [\"id\"], \"type\": \"double\"},"
        "{\"name\": \"buyer\", \"aliases\": [\"customer\"], \"type\": \"bytes\"},"
        "{\"name\": \"note\", \"type\": [\"string\", \"null\"], \"default\": \"none\"},"
        "{\"name\": \"tags\", \"type\": {\"type\": \"map\", \"values\": [\"null\", \"float\"]}},"
        "{\"name\": \"extra\", \"type\": {\"type\": \"array\", \"items\": \"int\"}, "
        "\"default\": [1, 2]}]}";

static avrogen_schema *reader_schema;

/* Every datum as a value of the file's own schema. */
static void read_own(const uint8_t *data, size_t size, avrogen_arena *a)
{
    avrogen_ocf_reader_options o = {.max_block_size = (size_t)4 << 20};
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open_memory(data, size, &o, &r, NULL) != AVROGEN_OK)
        return;
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_reader_schema(r));
    avrogen_bytes datum;
    while (avrogen_ocf_reader_next_datum(r, &datum) == AVROGEN_OK && datum.ptr != NULL) {
        avrogen_reader dr;
        avrogen_reader_init(&dr, datum.ptr, datum.len);
        dr.max_items = 1 << 16;
        avrogen_value v;
        avrogen_arena_reset(a);
        (void)avrogen_value_decode(&dr, type, &v, a);
    }
    avrogen_ocf_reader_close(r);
}

/*
 * next_value with the reader schema, in step with next_datum on a second
 * reader of the same bytes: where next_datum fails, next_value fails alike;
 * where it gives a datum, next_value gives the value the resolver reads from
 * exactly those bytes, or fails when the resolver fails or leaves bytes over.
 */
static void read_resolved(const uint8_t *data, size_t size, avrogen_arena *a, avrogen_arena *b)
{
    avrogen_ocf_reader_options o = {.max_block_size = (size_t)4 << 20};
    avrogen_ocf_reader *r1, *r2;
    if (avrogen_ocf_reader_open_memory(data, size, &o, &r1, NULL) != AVROGEN_OK)
        return;
    if (avrogen_ocf_reader_open_memory(data, size, &o, &r2, NULL) != AVROGEN_OK)
        abort(); /* the same bytes opened once */
    const avrogen_node *reader = avrogen_schema_root(reader_schema);
    const avrogen_node *writer = avrogen_schema_root(avrogen_ocf_reader_schema(r2));
    avrogen_resolver *res = NULL;
    avrogen_status built = avrogen_resolver_new(writer, reader, NULL, &res, NULL);
    for (;;) {
        avrogen_value v1, v2;
        bool got;
        avrogen_arena_reset(a);
        avrogen_arena_reset(b);
        avrogen_status st1 = avrogen_ocf_reader_next_value(r1, reader, &v1, a, &got);
        if (built != AVROGEN_OK) {
            /* Settled before any datum, with the resolver's status. */
            if (st1 != built)
                abort();
            break;
        }
        avrogen_bytes datum;
        avrogen_status st2 = avrogen_ocf_reader_next_datum(r2, &datum);
        if (st2 != AVROGEN_OK || datum.ptr == NULL) {
            if (st1 != st2 || got)
                abort();
            break;
        }
        avrogen_reader dr;
        avrogen_reader_init(&dr, datum.ptr, datum.len);
        bool whole = avrogen_resolver_decode(res, &dr, &v2, b) == AVROGEN_OK &&
                     avrogen_reader_remaining(&dr) == 0;
        if (whole != (st1 == AVROGEN_OK && got))
            abort();
        if (!whole)
            break;
        if (!avrogen_value_equal(&v1, &v2))
            abort();
    }
    avrogen_resolver_free(res);
    avrogen_ocf_reader_close(r2);
    avrogen_ocf_reader_close(r1);
}

/* The file read_mapped writes each input to, made once: its name and descriptor. */
static char mapped_path[64];
static int mapped_fd = -1;

static void remove_mapped_file(void)
{
    unlink(mapped_path);
}

static void write_input(const uint8_t *data, size_t size)
{
    if (mapped_fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(mapped_path, sizeof mapped_path, "%s/fuzz_ocf-XXXXXX",
                 dir != NULL && strlen(dir) < 40 ? dir : "/tmp");
        if ((mapped_fd = mkstemp(mapped_path)) < 0)
            abort();
        atexit(remove_mapped_file);
    }
    /* Written over, then cut to size: ext4 writes a file truncated to 0 out to disk
     * when it is next closed (auto_da_alloc), which made this target 11x slower. */
    for (size_t at = 0; at < size;) {
        ssize_t n = pwrite(mapped_fd, data + at, size - at, (off_t)at);
        if (n <= 0)
            abort();
        at += (size_t)n;
    }
    if (ftruncate(mapped_fd, (off_t)size) != 0)
        abort();
}

static bool same_error(const avrogen_ocf_reader *a, const avrogen_ocf_reader *b)
{
    avrogen_diag da, db;
    return avrogen_ocf_reader_error(a, &da) == avrogen_ocf_reader_error(b, &db) &&
           da.offset == db.offset && strcmp(da.msg, db.msg) == 0;
}

/* The input as a file opened by path and mapped, datum by datum in step with the memory's. */
static void read_mapped(const uint8_t *data, size_t size)
{
    write_input(data, size);
    avrogen_ocf_reader_options o = {.max_block_size = (size_t)4 << 20};
    avrogen_ocf_reader *m, *f;
    avrogen_diag dm, df;
    avrogen_status sm = avrogen_ocf_reader_open_memory(data, size, &o, &m, &dm);
    o.map = true;
    avrogen_status sf = avrogen_ocf_reader_open(mapped_path, &o, &f, &df);
    if (sm != sf || (sm != AVROGEN_OK && (dm.offset != df.offset || strcmp(dm.msg, df.msg) != 0)))
        abort();
    if (sm != AVROGEN_OK)
        return;
    if (!avrogen_ocf_reader_mapped(f, NULL))
        abort(); /* a regular file that is not empty (it has a header) */
    for (;;) {
        avrogen_bytes a, b;
        avrogen_status s1 = avrogen_ocf_reader_next_datum(m, &a);
        avrogen_status s2 = avrogen_ocf_reader_next_datum(f, &b);
        if (s1 != s2 || (a.ptr == NULL) != (b.ptr == NULL) || a.len != b.len ||
            (a.ptr != NULL && memcmp(a.ptr, b.ptr, a.len) != 0) ||
            avrogen_ocf_reader_position(m) != avrogen_ocf_reader_position(f) || !same_error(m, f))
            abort();
        if (s1 != AVROGEN_OK || a.ptr == NULL)
            break;
    }
    avrogen_ocf_reader_close(f);
    avrogen_ocf_reader_close(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (reader_schema == NULL && avrogen_schema_parse(reader_json, strlen(reader_json), NULL,
                                                      &reader_schema, NULL) != AVROGEN_OK)
        abort();
    avrogen_arena a, b;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_init(&b, NULL);
    avrogen_arena_set_budget(&a, BUDGET);
    avrogen_arena_set_budget(&b, BUDGET);
    read_own(data, size, &a);
    read_resolved(data, size, &a, &b);
    read_mapped(data, size);
    avrogen_arena_fini(&b);
    avrogen_arena_fini(&a);
    return 0;
}
