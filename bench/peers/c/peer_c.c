/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/peers: avrogen's three paths and avro-c on the bench Order records, and
 * the checks bench/peers/run holds every peer to.
 *
 *   peer_c run --impl gen|next_as|generic|avroc --schema order.avsc --input IN
 *              --out DIR [--codecs null,deflate,...] [--dump] [--warmup N] [--threads N]
 *
 * loads every record of IN (a container file) into the implementation's own
 * in-memory objects (not timed), encodes and decodes --warmup records (not
 * timed), then times: encoding all records into one buffer, decoding them all
 * from it, and per codec writing a container file of them (DIR/<impl>.<codec>
 * .avro) and reading it back. One JSON line a phase on stdout (the protocol in
 * bench/peers/README.md); --dump writes the encoded bytes to DIR/<impl>.enc.
 *
 *   gen      order_avro_encode / order_avro_decode (generated from
 *            bench/workloads/order.h, char * strings copied into an arena reset
 *            per record); files through datum_begin/end and next_block
 *   next_as  reads only: avrogen_decode_as with the writer's fingerprint and
 *            avrogen_ocf_reader_next_as, into the same structs
 *   generic  avrogen_value_encode / avrogen_value_decode (arena reset per
 *            record); files through datum_begin/end and next_value
 *   avroc    avro-c: avro_value_write / avro_value_read into one reused
 *            generic value, avro_file_writer / avro_file_reader
 *
 *   peer_c ref IN OUT.enc       the datums of IN concatenated (the reference
 *                               bytes); prints {"records", "digest"}
 *   peer_c same REF FILE [--unordered-maps]
 *                               FILE's datums (an encoding, or with --file a
 *                               container file) against REF, datum by datum:
 *                               equal bytes, or with --unordered-maps equal
 *                               values with map entries as sets; prints a JSON
 *                               line, exits 1 at the first difference
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avro.h>
#include <avrogen/gencode.h>
#include <avrogen/ocf.h>
#include <avrogen/resolve.h>
#include <avrogen/schema.h>
#include <avrogen/value.h>
#include <time.h>

#include "workloads/order.avro.h"

#define BLOCK_SIZE 64000

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "peer_c: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(1);
}

/* ---- clocks and output --------------------------------------------------------- */

typedef struct span {
    double wall, cpu;
} span;

static double ts_ms(const struct timespec *ts)
{
    return (double)ts->tv_sec * 1e3 + (double)ts->tv_nsec / 1e6;
}

static span clock_now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return (span){ts_ms(&w), ts_ms(&c)};
}

/* One phase's line: {"kind":"time","op":op,["codec":c,]"wall_ms","cpu_ms",extra}. */
static void report(span t0, const char *op, const char *codec, const char *extra)
{
    span t = clock_now();
    printf("{\"kind\": \"time\", \"op\": \"%s\"", op);
    if (codec != NULL)
        printf(", \"codec\": \"%s\"", codec);
    printf(", \"wall_ms\": %.3f, \"cpu_ms\": %.3f%s%s}\n", t.wall - t0.wall, t.cpu - t0.cpu,
           extra != NULL ? ", " : "", extra != NULL ? extra : "");
    fflush(stdout);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        die(path, "cannot open");
    if (fseek(f, 0, SEEK_END) != 0)
        die(path, "cannot seek");
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
        die(path, "cannot seek");
    char *p = malloc((size_t)n + 1);
    if (p == NULL || fread(p, 1, (size_t)n, f) != (size_t)n)
        die(path, "cannot read");
    fclose(f);
    p[n] = '\0';
    *len = (size_t)n;
    return p;
}

static void write_all(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        die(path, "cannot write");
}

/* ---- the digest every peer sums over what it decoded (mod 2^64) ---------------- */

static uint64_t digest_gen(const struct order *o)
{
    return (uint64_t)o->id + (uint64_t)o->counters[ORDER_N_COUNTERS - 1] +
           (uint64_t)o->lines[o->n_lines - 1].quantity + strlen(o->customer) + (o->note != NULL);
}

static uint64_t digest_value(const avrogen_value *v)
{
    const avrogen_value *lines = &v->fields[6], *counters = &v->fields[7];
    const avrogen_value *note = &v->fields[5];
    return (uint64_t)v->fields[0].i64 +
           (uint64_t)counters->array.items[counters->array.count - 1].i64 +
           (uint64_t)lines->array.items[lines->array.count - 1].fields[2].i32 +
           v->fields[1].str.len + (note->branch.index == 1);
}

static uint64_t digest_avroc(avro_value_t *v)
{
    avro_value_t f, item, g;
    int64_t id, c;
    int32_t q;
    const char *s;
    size_t n, slen;
    int disc;
    avro_value_get_by_index(v, 0, &f, NULL);
    avro_value_get_long(&f, &id);
    avro_value_get_by_index(v, 1, &f, NULL);
    avro_value_get_string(&f, &s, &slen); /* slen counts the NUL */
    avro_value_get_by_index(v, 5, &f, NULL);
    avro_value_get_discriminant(&f, &disc);
    avro_value_get_by_index(v, 6, &f, NULL);
    avro_value_get_size(&f, &n);
    avro_value_get_by_index(&f, n - 1, &item, NULL);
    avro_value_get_by_index(&item, 2, &g, NULL);
    avro_value_get_int(&g, &q);
    avro_value_get_by_index(v, 7, &f, NULL);
    avro_value_get_size(&f, &n);
    avro_value_get_by_index(&f, n - 1, &item, NULL);
    avro_value_get_long(&item, &c);
    return (uint64_t)id + (uint64_t)c + (uint64_t)q + (slen - 1) + (disc == 1);
}

/* ---- the implementations ------------------------------------------------------- */

enum impl { GEN, NEXT_AS, GENERIC, AVROC };

static enum impl impl;
static const char *impl_name;
static char *schema_json;
static size_t schema_len;
static avrogen_schema *schema;
static size_t n_records;
static unsigned threads; /* --threads: the container writer's and reader's workers */

/* The records, in the implementation's own objects. */
static struct order *orders;  /* gen, next_as */
static avrogen_value *values; /* generic */
static avro_value_t *cvalues; /* avroc */
static avrogen_arena keep;    /* what orders and values point into */

static avro_schema_t c_schema;
static avro_value_iface_t *c_iface;

static size_t cap_records;

static void grow(void)
{
    if (n_records < cap_records)
        return;
    cap_records = cap_records ? cap_records * 2 : 1024;
    switch (impl) {
    case GEN:
    case NEXT_AS:
        orders = realloc(orders, cap_records * sizeof *orders);
        if (orders == NULL)
            die("load", "out of memory");
        break;
    case GENERIC:
        values = realloc(values, cap_records * sizeof *values);
        if (values == NULL)
            die("load", "out of memory");
        break;
    case AVROC:
        cvalues = realloc(cvalues, cap_records * sizeof *cvalues);
        if (cvalues == NULL)
            die("load", "out of memory");
        break;
    }
}

static void load(const char *input)
{
    avrogen_arena_init(&keep, NULL);
    if (impl == AVROC) {
        avro_file_reader_t fr;
        if (avro_file_reader(input, &fr) != 0)
            die(input, avro_strerror());
        for (;;) {
            grow();
            if (avro_generic_value_new(c_iface, &cvalues[n_records]) != 0)
                die("load", avro_strerror());
            if (avro_file_reader_read_value(fr, &cvalues[n_records]) != 0) {
                avro_value_decref(&cvalues[n_records]);
                break;
            }
            n_records++;
        }
        avro_file_reader_close(fr);
        return;
    }
    avrogen_diag d;
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open(input, NULL, &r, &d) != AVROGEN_OK)
        die(input, d.msg);
    uint64_t count;
    avrogen_reader block;
    while (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK && count != 0) {
        for (uint64_t i = 0; i < count; i++) {
            grow();
            avrogen_status st = impl == GENERIC
                                        ? avrogen_value_decode(&block, avrogen_schema_root(schema),
                                                               &values[n_records], &keep)
                                        : order_avro_decode(&block, &orders[n_records], &keep);
            if (st != AVROGEN_OK)
                die("load", block.err_msg);
            n_records++;
        }
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(input, d.msg);
    avrogen_ocf_reader_close(r);
}

static avrogen_writer mem; /* the in-memory encoding */
static avro_writer_t c_writer;
static char *c_buf;
static size_t c_cap;

static void encode_all(size_t n)
{
    avrogen_writer_reset(&mem);
    switch (impl) {
    case GEN:
    case NEXT_AS:
        for (size_t i = 0; i < n; i++)
            if (order_avro_encode(&mem, &orders[i]) != AVROGEN_OK)
                break;
        break;
    case GENERIC:
        for (size_t i = 0; i < n; i++)
            if (avrogen_value_encode(&mem, &values[i]) != AVROGEN_OK)
                break;
        break;
    case AVROC:
        avro_writer_memory_set_dest(c_writer, c_buf, (int64_t)c_cap);
        for (size_t i = 0; i < n; i++)
            if (avro_value_write(c_writer, &cvalues[i]) != 0)
                die("encode", avro_strerror());
        return;
    }
    if (mem.err != AVROGEN_OK)
        die("encode", avrogen_status_str(mem.err));
}

static const uint8_t *encoded(size_t *len)
{
    if (impl == AVROC) {
        *len = (size_t)avro_writer_tell(c_writer);
        return (const uint8_t *)c_buf;
    }
    *len = avrogen_writer_len(&mem);
    return avrogen_writer_data(&mem);
}

static avrogen_arena scratch;
static avrogen_plan_cache *plans;
static avro_value_t c_scratch;

static uint64_t decode_all(size_t n)
{
    size_t len;
    const uint8_t *data = encoded(&len);
    uint64_t sum = 0;
    if (impl == AVROC) {
        avro_reader_t r = avro_reader_memory((const char *)data, (int64_t)len);
        for (size_t i = 0; i < n; i++) {
            avro_value_reset(&c_scratch);
            if (avro_value_read(r, &c_scratch) != 0)
                die("decode", avro_strerror());
            sum += digest_avroc(&c_scratch);
        }
        avro_reader_free(r);
        return sum;
    }
    avrogen_reader r;
    avrogen_reader_init(&r, data, len);
    uint64_t fp = avrogen_schema_fingerprint64(schema);
    for (size_t i = 0; i < n; i++) {
        avrogen_arena_reset(&scratch);
        if (impl == GENERIC) {
            avrogen_value v;
            if (avrogen_value_decode(&r, avrogen_schema_root(schema), &v, &scratch) != AVROGEN_OK)
                die("decode", r.err_msg);
            sum += digest_value(&v);
        } else {
            struct order o;
            avrogen_status st = impl == GEN ? order_avro_decode(&r, &o, &scratch)
                                            : avrogen_decode_as(&order_avro_type, plans, fp, schema,
                                                                &r, &o, &scratch);
            if (st != AVROGEN_OK)
                die("decode", r.err_msg);
            sum += digest_gen(&o);
        }
    }
    return sum;
}

static void file_write(const char *path, const char *codec)
{
    if (impl == AVROC) {
        avro_file_writer_t fw;
        if (avro_file_writer_create_with_codec(path, c_schema, &fw, codec, BLOCK_SIZE) != 0)
            die(path, avro_strerror());
        for (size_t i = 0; i < n_records; i++)
            if (avro_file_writer_append_value(fw, &cvalues[i]) != 0)
                die(path, avro_strerror());
        if (avro_file_writer_close(fw) != 0)
            die(path, avro_strerror());
        return;
    }
    avrogen_diag d;
    avrogen_ocf_writer *w;
    avrogen_ocf_writer_options opts = {
            .codec = codec, .block_size = BLOCK_SIZE, .threads = threads};
    if (avrogen_ocf_writer_open(path, schema_json, schema_len, &opts, &w, &d) != AVROGEN_OK)
        die(path, d.msg);
    for (size_t i = 0; i < n_records; i++) {
        avrogen_writer *bw = avrogen_ocf_writer_datum_begin(w);
        avrogen_status st = impl == GENERIC ? avrogen_value_encode(bw, &values[i])
                                            : order_avro_encode(bw, &orders[i]);
        if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK || st != AVROGEN_OK)
            die(path, avrogen_status_str(st != AVROGEN_OK ? st : bw->err));
    }
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
        die(path, d.msg);
}

static uint64_t file_read(const char *path, size_t *count)
{
    uint64_t sum = 0;
    size_t n = 0;
    if (impl == AVROC) {
        avro_file_reader_t fr;
        if (avro_file_reader(path, &fr) != 0)
            die(path, avro_strerror());
        for (;;) {
            avro_value_reset(&c_scratch);
            if (avro_file_reader_read_value(fr, &c_scratch) != 0)
                break;
            sum += digest_avroc(&c_scratch);
            n++;
        }
        avro_file_reader_close(fr);
        *count = n;
        return sum;
    }
    avrogen_diag d;
    avrogen_ocf_reader *r;
    avrogen_ocf_reader_options ropts = {.threads = threads};
    if (avrogen_ocf_reader_open(path, &ropts, &r, &d) != AVROGEN_OK)
        die(path, d.msg);
    bool got;
    if (impl == GEN) {
        uint64_t c;
        avrogen_reader block;
        while (avrogen_ocf_reader_next_block(r, &c, &block) == AVROGEN_OK && c != 0) {
            for (uint64_t i = 0; i < c; i++) {
                struct order o;
                avrogen_arena_reset(&scratch);
                if (order_avro_decode(&block, &o, &scratch) != AVROGEN_OK)
                    die(path, block.err_msg);
                sum += digest_gen(&o);
                n++;
            }
        }
    } else if (impl == NEXT_AS) {
        for (;;) {
            struct order o;
            avrogen_arena_reset(&scratch);
            if (avrogen_ocf_reader_next_as(r, &order_avro_type, &o, &scratch, &got) != AVROGEN_OK ||
                !got)
                break;
            sum += digest_gen(&o);
            n++;
        }
    } else {
        for (;;) {
            avrogen_value v;
            avrogen_arena_reset(&scratch);
            if (avrogen_ocf_reader_next_value(r, avrogen_schema_root(schema), &v, &scratch, &got) !=
                        AVROGEN_OK ||
                !got)
                break;
            sum += digest_value(&v);
            n++;
        }
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_ocf_reader_close(r);
    *count = n;
    return sum;
}

static int cmd_run(int argc, char **argv)
{
    const char *schema_path = NULL, *input = NULL, *out = NULL;
    char codecs[256] = "null,deflate,snappy,zstandard";
    bool dump = false;
    size_t warmup = 50000;
    impl_name = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--dump") == 0) {
            dump = true;
            continue;
        }
        if (v == NULL)
            die(a, "needs a value");
        i++;
        if (strcmp(a, "--impl") == 0)
            impl_name = v;
        else if (strcmp(a, "--schema") == 0)
            schema_path = v;
        else if (strcmp(a, "--input") == 0)
            input = v;
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--codecs") == 0)
            snprintf(codecs, sizeof codecs, "%s", v);
        else if (strcmp(a, "--warmup") == 0)
            warmup = strtoull(v, NULL, 10);
        else if (strcmp(a, "--threads") == 0)
            threads = (unsigned)strtoul(v, NULL, 10);
        else
            die(a, "unknown argument");
    }
    if (impl_name == NULL || schema_path == NULL || input == NULL || out == NULL)
        die("run", "needs --impl, --schema, --input and --out");
    if (strcmp(impl_name, "gen") == 0)
        impl = GEN;
    else if (strcmp(impl_name, "next_as") == 0)
        impl = NEXT_AS;
    else if (strcmp(impl_name, "generic") == 0)
        impl = GENERIC;
    else if (strcmp(impl_name, "avroc") == 0)
        impl = AVROC;
    else
        die(impl_name, "not an implementation (gen, next_as, generic, avroc)");

    schema_json = read_all(schema_path, &schema_len);
    avrogen_diag d;
    if (avrogen_schema_parse(schema_json, schema_len, NULL, &schema, &d) != AVROGEN_OK)
        die(schema_path, d.msg);
    if (impl == AVROC) {
        if (avro_schema_from_json_length(schema_json, schema_len, &c_schema) != 0 ||
            (c_iface = avro_generic_class_from_schema(c_schema)) == NULL ||
            avro_generic_value_new(c_iface, &c_scratch) != 0)
            die(schema_path, avro_strerror());
    }
    avrogen_arena_init(&scratch, NULL);
    if ((plans = avrogen_plan_cache_new(NULL)) == NULL)
        die("plan cache", "out of memory");

    load(input);
    if (n_records == 0)
        die(input, "no records");
    if (impl == AVROC) {
        printf("{\"kind\": \"info\", \"peer\": \"avro-c\", \"version\": \"avro-c %s\", "
               "\"records\": %zu}\n",
               AVROGEN_PEERS_AVROC_VERSION, n_records);
    } else {
        printf("{\"kind\": \"info\", \"peer\": \"avrogen %s\", \"version\": \"avrogen %s, %s\", "
               "\"records\": %zu}\n",
               impl_name, AVROGEN_PEERS_VERSION, AVROGEN_PEERS_COMPILER, n_records);
    }
    avrogen_writer_init_growable(&mem, NULL);
    if (impl == AVROC) {
        /* Room for every datum: the sizes of the input's, with a margin. */
        c_cap = 0;
        for (size_t i = 0; i < n_records; i++) {
            size_t sz;
            if (avro_value_sizeof(&cvalues[i], &sz) != 0)
                die("sizeof", avro_strerror());
            c_cap += sz;
        }
        c_cap += 1 << 20;
        if ((c_buf = malloc(c_cap)) == NULL)
            die("encode", "out of memory");
        c_writer = avro_writer_memory(c_buf, (int64_t)c_cap);
    }

    /* Warm-up, then the same at full length, timed. */
    size_t w = warmup < n_records ? warmup : n_records;
    encode_all(w);
    (void)decode_all(w);

    char extra[256];
    size_t len;
    span t;
    if (impl != NEXT_AS) {
        t = clock_now();
        encode_all(n_records);
        (void)encoded(&len);
        snprintf(extra, sizeof extra, "\"bytes\": %zu", len);
        report(t, "encode", NULL, extra);
    } else {
        encode_all(n_records); /* next_as reads what gen writes */
    }
    if (dump) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.enc", out, impl_name);
        const uint8_t *p = encoded(&len);
        write_all(path, p, len);
    }
    t = clock_now();
    uint64_t sum = decode_all(n_records);
    snprintf(extra, sizeof extra, "\"count\": %zu, \"digest\": \"%" PRIu64 "\"", n_records, sum);
    report(t, "decode", NULL, extra);

    for (char *save = NULL, *codec = strtok_r(codecs, ",", &save); codec != NULL;
         codec = strtok_r(NULL, ",", &save)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s.avro", out, impl == NEXT_AS ? "gen" : impl_name,
                 codec);
        if (impl != NEXT_AS) {
            t = clock_now();
            file_write(path, codec);
            snprintf(extra, sizeof extra, "\"file\": \"%s\"", path);
            report(t, "write", codec, extra);
        } else {
            file_write(path, codec); /* the same file gen writes, for the read */
        }
        size_t n;
        t = clock_now();
        sum = file_read(path, &n);
        snprintf(extra, sizeof extra, "\"count\": %zu, \"digest\": \"%" PRIu64 "\"", n, sum);
        report(t, "read", codec, extra);
    }
    return 0;
}

/* ---- the checks ------------------------------------------------------------------ */

/* Every datum of a container file, concatenated, into w; the number in *n. */
static void file_datums(const char *path, avrogen_writer *w, size_t *n)
{
    avrogen_diag d;
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open(path, NULL, &r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_bytes datum;
    *n = 0;
    while (avrogen_ocf_reader_next_datum(r, &datum) == AVROGEN_OK && datum.ptr != NULL) {
        avrogen_write_raw(w, datum.ptr, datum.len);
        (*n)++;
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_ocf_reader_close(r);
    if (w->err != AVROGEN_OK)
        die(path, avrogen_status_str(w->err));
}

static int cmd_ref(int argc, char **argv)
{
    if (argc != 4)
        die("ref", "usage: peer_c ref IN OUT.enc");
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    size_t n;
    file_datums(argv[2], &w, &n);
    write_all(argv[3], avrogen_writer_data(&w), avrogen_writer_len(&w));
    /* The digest, by the generated decoder. */
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        struct order o;
        avrogen_arena_reset(&a);
        if (order_avro_decode(&r, &o, &a) != AVROGEN_OK)
            die("ref", r.err_msg);
        sum += digest_gen(&o);
    }
    printf("{\"records\": %zu, \"bytes\": %zu, \"digest\": \"%" PRIu64 "\"}\n", n,
           avrogen_writer_len(&w), sum);
    return 0;
}

/* The datum at r's position: its bytes, skipped with the schema. */
static avrogen_bytes next_datum(avrogen_reader *r)
{
    const uint8_t *p = r->p;
    avrogen_reader_begin_datum(r);
    if (avrogen_skip(r, avrogen_schema_root(schema)) != AVROGEN_OK)
        return (avrogen_bytes){NULL, 0};
    return (avrogen_bytes){p, (size_t)(r->p - p)};
}

static int cmd_same(int argc, char **argv)
{
    bool unordered = false, is_file = false;
    const char *schema_path = NULL;
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--unordered-maps") == 0)
            unordered = true;
        else if (strcmp(argv[i], "--file") == 0)
            is_file = true;
        else if (strcmp(argv[i], "--schema") == 0 && i + 1 < argc)
            schema_path = argv[++i];
        else if (n_pos < 2)
            pos[n_pos++] = argv[i];
        else
            die(argv[i], "unknown argument");
    }
    if (n_pos != 2 || schema_path == NULL)
        die("same", "usage: peer_c same --schema AVSC REF FILE [--file] [--unordered-maps]");
    schema_json = read_all(schema_path, &schema_len);
    avrogen_diag d;
    if (avrogen_schema_parse(schema_json, schema_len, NULL, &schema, &d) != AVROGEN_OK)
        die(schema_path, d.msg);
    size_t ref_len, got_len, n_file = 0;
    uint8_t *ref = (uint8_t *)read_all(pos[0], &ref_len);
    avrogen_writer fw;
    avrogen_writer_init_growable(&fw, NULL);
    const uint8_t *got;
    if (is_file) {
        file_datums(pos[1], &fw, &n_file);
        got = avrogen_writer_data(&fw);
        got_len = avrogen_writer_len(&fw);
    } else {
        got = (const uint8_t *)read_all(pos[1], &got_len);
    }
    avrogen_reader a, b;
    avrogen_reader_init(&a, ref, ref_len);
    avrogen_reader_init(&b, got, got_len);
    avrogen_arena aa, ab;
    avrogen_arena_init(&aa, NULL);
    avrogen_arena_init(&ab, NULL);
    size_t n = 0, n_unordered = 0;
    while (avrogen_reader_remaining(&a) != 0) {
        size_t at = (size_t)(b.p - got);
        avrogen_bytes x = next_datum(&a), y = next_datum(&b);
        if (x.ptr == NULL)
            die(pos[0], a.err_msg);
        if (y.ptr == NULL) {
            printf("{\"same\": false, \"datum\": %zu, \"offset\": %zu, \"why\": \"%s\"}\n", n, at,
                   avrogen_reader_remaining(&b) == 0 ? "ends early" : "not a datum");
            return 1;
        }
        if (x.len != y.len || memcmp(x.ptr, y.ptr, x.len) != 0) {
            bool equal = false;
            if (unordered) {
                avrogen_value vx, vy;
                avrogen_reader rx, ry;
                avrogen_arena_reset(&aa);
                avrogen_arena_reset(&ab);
                avrogen_reader_init(&rx, x.ptr, x.len);
                avrogen_reader_init(&ry, y.ptr, y.len);
                equal = avrogen_value_decode(&rx, avrogen_schema_root(schema), &vx, &aa) ==
                                AVROGEN_OK &&
                        avrogen_value_decode(&ry, avrogen_schema_root(schema), &vy, &ab) ==
                                AVROGEN_OK &&
                        avrogen_value_equal(&vx, &vy);
            }
            if (!equal) {
                size_t k = 0;
                while (k < x.len && k < y.len && x.ptr[k] == y.ptr[k])
                    k++;
                printf("{\"same\": false, \"datum\": %zu, \"offset\": %zu, \"why\": \"bytes "
                       "differ\"}\n",
                       n, at + k);
                return 1;
            }
            n_unordered++;
        }
        n++;
    }
    if (avrogen_reader_remaining(&b) != 0) {
        printf("{\"same\": false, \"datum\": %zu, \"offset\": %zu, \"why\": \"bytes after the "
               "last datum\"}\n",
               n, (size_t)(b.p - got));
        return 1;
    }
    printf("{\"same\": true, \"datums\": %zu, \"equal_as_values\": %zu}\n", n, n_unordered);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "ref") == 0)
        return cmd_ref(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "same") == 0)
        return cmd_same(argc, argv);
    fprintf(stderr, "usage: peer_c run|ref|same ... (see bench/peers/c/peer_c.c)\n");
    return 2;
}
