/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object container file throughput against its parts (issue 6, item 5):
 *
 *   - a file of N Order records (default 1 million) written and read with the
 *     "deflate" and "zstandard" codecs should take at most 1.3x the time the
 *     codec alone needs for the same bytes;
 *   - a "null"-codec file should move records at no less than 1/1.2 of the
 *     in-memory encode / decode throughput.
 *
 * Every phase runs the same hand-written Order encoder and decoder (gencode.h
 * primitives, string views, every check a generated decoder makes), so the
 * rows differ only by where the bytes go:
 *
 *   mem encode   N records into one growable writer (its buffer kept across runs)
 *   mem decode   the same N datums from that buffer
 *   file write   avrogen_ocf_writer_datum_begin / encode / datum_end, close
 *   file read    avrogen_ocf_reader_next_block, decode each datum
 *   read mapped  the same with avrogen_ocf_reader_options.map: the file mapped,
 *                null-codec blocks decoded where they lie in the page cache
 *   write bytes  the container alone: the pre-encoded datums copied in with
 *                avrogen_ocf_writer_write (no encoding), close
 *   read blocks  the container alone: next_block over the whole file, every
 *                block decompressed and handed back, no datum decoded
 *   codec alone  the uncompressed blocks the writer makes (cut where it cuts:
 *                after the datum that takes a block to block_size bytes),
 *                compressed and decompressed with libdeflate / libzstd called
 *                directly, at the writer's defaults (raw deflate level 6, each
 *                block decoded into room of the largest block's size, which
 *                the container's reader has to guess; zstd level 3 via
 *                ZSTD_compress2)
 *
 * Each phase is timed twice, by the wall clock (CLOCK_MONOTONIC) and by the
 * process's CPU time (CLOCK_PROCESS_CPUTIME_ID: user + system, so the
 * kernel's copy from the page cache counts and time the machine gave other
 * processes does not); two tables print the medians of --runs runs. The
 * baselines a file row is held to (in-memory encode and decode, the codec
 * alone) run again in each round beside the file runs, and each ratio is the
 * median, with quartiles, of the rounds' own ratios, so that both sides of a
 * ratio saw the same load. -c CODEC runs one codec only; --loop runs one or
 * two phases alone (loop_phases). Files
 * go to --dir (default /tmp), so they live in the page cache: this measures
 * the container and the codec, not a disk. The records come from a pool of
 * 4096 deterministic Orders (splitmix64; customer and product names from small
 * vocabularies, numbers random with varints of every length); record i is
 * pool[i % 4096] with its own id.
 *
 *     ocf_bench [-n records] [-r runs] [-b block_size] [-d dir] [-c codec] [--keep]
 *               [--files-only] [--loop PHASE[,PHASE]]
 *
 * --files-only writes the three files (null, deflate, zstandard), or -c's alone,
 * and stops: bench/ocf/cli_run measures the command line on them (cli_bench.c),
 * bench/peers/run gives the null one to every peer as its input.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avrogen/gencode.h>
#include <avrogen/ocf.h>
#include <libdeflate.h>
#include <time.h>
#include <zstd.h>

/* ---- data ------------------------------------------------------------------ */

#define POOL       4096u
#define N_LINES    10u
#define N_COUNTERS 64u
#define N_TAGS     2u

static const char order_schema[] =
        "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"bench\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"long\"},"
        "{\"name\":\"customer\",\"type\":\"string\"},"
        "{\"name\":\"total\",\"type\":\"double\"},"
        "{\"name\":\"priority\",\"type\":\"int\"},"
        "{\"name\":\"paid\",\"type\":\"boolean\"},"
        "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\","
        "\"name\":\"Line\",\"fields\":["
        "{\"name\":\"sku\",\"type\":\"long\"},"
        "{\"name\":\"name\",\"type\":\"string\"},"
        "{\"name\":\"quantity\",\"type\":\"int\"},"
        "{\"name\":\"price\",\"type\":\"double\"}]}}},"
        "{\"name\":\"counters\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
        "{\"name\":\"tags\",\"type\":{\"type\":\"map\",\"values\":\"long\"}}]}";

struct line {
    int64_t sku;
    avrogen_str name;
    int32_t quantity;
    double price;
};

struct tag {
    avrogen_str key;
    int64_t value;
};

struct order {
    int64_t id;
    avrogen_str customer;
    double total;
    int32_t priority;
    bool paid;
    bool has_note;
    avrogen_str note;
    size_t n_lines;
    struct line lines[N_LINES];
    size_t n_counters;
    int64_t counters[N_COUNTERS];
    size_t n_tags;
    struct tag tags[N_TAGS];
};

static struct order pool[POOL];

static uint64_t rng_state = UINT64_C(0x0cf0cf);

static uint64_t rng(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rng_range(uint64_t lo, uint64_t hi)
{
    return lo + rng() % (hi - lo + 1);
}

/* A long whose zigzag varint takes `len` bytes. */
static int64_t long_of_len(unsigned len)
{
    uint64_t lo = len <= 1 ? 0 : UINT64_C(1) << (7 * (len - 1));
    uint64_t hi = len >= 10 ? UINT64_MAX : (UINT64_C(1) << (7 * len)) - 1;
    uint64_t u = lo + (hi - lo == UINT64_MAX ? rng() : rng() % (hi - lo + 1));
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static avrogen_str text_of(char *buf, size_t cap, const char *const *words, size_t n_words,
                           size_t n_pick)
{
    size_t len = 0;
    for (size_t i = 0; i < n_pick; i++) {
        const char *w = words[rng() % n_words];
        size_t wl = strlen(w);
        if (len + wl + 1 >= cap)
            break;
        if (len != 0)
            buf[len++] = ' ';
        memcpy(buf + len, w, wl);
        len += wl;
    }
    return (avrogen_str){buf, len};
}

static void make_pool(void)
{
    static const char *const first[] = {"Ana",   "Bo",      "Chiara", "Dmitri", "Émile", "Fatima",
                                        "Grace", "Hiroshi", "Ines",   "Jonas",  "Kwame", "Lena",
                                        "Mateo", "Nadia",   "Oskar",  "Priya",  "Quinn", "Rui"};
    static const char *const last[] = {"Almeida", "Brown",  "Chen",     "Dubois", "Eriksen",
                                       "García",  "Haddad", "Ivanov",   "Jensen", "Kowalski",
                                       "Lopez",   "Müller", "Nakamura", "Okafor", "Patel"};
    static const char *const product[] = {"steel", "bolt",   "M8",    "washer", "copper", "pipe",
                                          "15mm",  "valve",  "brass", "hinge",  "oak",    "panel",
                                          "LED",   "driver", "24V",   "cable",  "3m",     "grey",
                                          "black", "kit",    "pack",  "of",     "10",     "50"};
    static const char *const noteword[] = {"deliver", "before", "noon",    "leave",   "at",
                                           "door",    "call",   "on",      "arrival", "fragile",
                                           "gift",    "wrap",   "invoice", "to",      "office"};
    static const char *const keys[N_TAGS] = {"channel", "warehouse"};
    static char strings[POOL][2 + N_LINES][64];
    for (size_t i = 0; i < POOL; i++) {
        struct order *o = &pool[i];
        const char *name[2] = {first[rng() % (sizeof first / sizeof *first)],
                               last[rng() % (sizeof last / sizeof *last)]};
        int n = snprintf(strings[i][0], 64, "%s %s", name[0], name[1]);
        o->customer = (avrogen_str){strings[i][0], (size_t)n};
        o->total = (double)rng_range(100, 1000000) / 100.0;
        o->priority = (int32_t)rng_range(0, 9);
        o->paid = rng() % 4 != 0;
        o->has_note = i % 2 == 0;
        o->note = o->has_note ? text_of(strings[i][1], 64, noteword,
                                        sizeof noteword / sizeof *noteword, rng_range(3, 7))
                              : (avrogen_str){"", 0};
        o->n_lines = N_LINES;
        for (size_t j = 0; j < N_LINES; j++) {
            struct line *l = &o->lines[j];
            l->sku = long_of_len(3 + (unsigned)(j % 3));
            l->name = text_of(strings[i][2 + j], 64, product, sizeof product / sizeof *product,
                              rng_range(2, 4));
            l->quantity = (int32_t)rng_range(1, 60);
            l->price = (double)rng_range(50, 50000) / 100.0;
        }
        o->n_counters = N_COUNTERS;
        for (size_t j = 0; j < N_COUNTERS; j++)
            o->counters[j] = long_of_len(1 + (unsigned)((i + j) % 10));
        o->n_tags = N_TAGS;
        for (size_t j = 0; j < N_TAGS; j++)
            o->tags[j] = (struct tag){{keys[j], strlen(keys[j])}, long_of_len(1 + (unsigned)j)};
    }
}

/* ---- encoder and decoder ----------------------------------------------------- */

static void encode(avrogen_writer *w, const struct order *o, int64_t id)
{
    avrogen_write_long(w, id);
    avrogen_write_string(w, o->customer.ptr, o->customer.len);
    avrogen_write_double(w, o->total);
    avrogen_write_int(w, o->priority);
    avrogen_write_bool(w, o->paid);
    if (o->has_note) {
        avrogen_write_long(w, 1);
        avrogen_write_string(w, o->note.ptr, o->note.len);
    } else {
        avrogen_write_long(w, 0);
    }
    if (o->n_lines != 0) {
        avrogen_write_block_count(w, o->n_lines);
        for (size_t j = 0; j < o->n_lines; j++) {
            const struct line *l = &o->lines[j];
            avrogen_write_long(w, l->sku);
            avrogen_write_string(w, l->name.ptr, l->name.len);
            avrogen_write_int(w, l->quantity);
            avrogen_write_double(w, l->price);
        }
    }
    avrogen_write_block_count(w, 0);
    if (o->n_counters != 0) {
        avrogen_write_block_count(w, o->n_counters);
        avrogen_write_longs(w, o->counters, o->n_counters);
    }
    avrogen_write_block_count(w, 0);
    if (o->n_tags != 0) {
        avrogen_write_block_count(w, o->n_tags);
        for (size_t j = 0; j < o->n_tags; j++) {
            avrogen_write_string(w, o->tags[j].key.ptr, o->tags[j].key.len);
            avrogen_write_long(w, o->tags[j].value);
        }
    }
    avrogen_write_block_count(w, 0);
}

/* Decode one datum into *o (string views into the input); false on error or overflow. */
static bool decode(avrogen_reader *r, struct order *o)
{
    avrogen_reader_begin_datum(r);
    o->id = avrogen_read_long(r);
    o->customer = avrogen_read_string(r);
    o->total = avrogen_read_double(r);
    o->priority = avrogen_read_int(r);
    o->paid = avrogen_read_bool(r);
    int64_t branch = avrogen_read_long(r);
    if (branch == 1) {
        o->has_note = true;
        o->note = avrogen_read_string(r);
    } else if (branch == 0) {
        o->has_note = false;
    } else {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "bad union branch");
        return false;
    }
    o->n_lines = 0;
    for (size_t n; (n = avrogen_read_block_count(r)) != 0;) {
        if (n > N_LINES - o->n_lines)
            return false;
        for (size_t j = 0; j < n; j++) {
            struct line *l = &o->lines[o->n_lines++];
            l->sku = avrogen_read_long(r);
            l->name = avrogen_read_string(r);
            l->quantity = avrogen_read_int(r);
            l->price = avrogen_read_double(r);
        }
    }
    o->n_counters = 0;
    for (size_t n; (n = avrogen_read_block_count(r)) != 0;) {
        if (n > N_COUNTERS - o->n_counters)
            return false;
        for (size_t j = 0; j < n; j++)
            o->counters[o->n_counters++] = avrogen_read_long(r);
    }
    o->n_tags = 0;
    for (size_t n; (n = avrogen_read_block_count(r)) != 0;) {
        if (n > N_TAGS - o->n_tags)
            return false;
        for (size_t j = 0; j < n; j++) {
            o->tags[o->n_tags].key = avrogen_read_string(r);
            o->tags[o->n_tags++].value = avrogen_read_long(r);
        }
    }
    return r->err == AVROGEN_OK;
}

/* Something of every decoded record, so that no field read is optimised away. */
static uint64_t digest(const struct order *o)
{
    uint64_t h = (uint64_t)o->id ^ o->customer.len ^ (uint64_t)o->priority ^ o->n_lines;
    h += (uint64_t)o->lines[o->n_lines - 1].sku + o->lines[0].name.len;
    h += (uint64_t)o->counters[o->n_counters - 1] + (uint64_t)o->tags[1].value;
    double d = o->total + o->lines[3].price;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return h ^ u;
}

/* ---- timing ---------------------------------------------------------------------- */

/* A phase's cost: wall-clock time and the process's CPU time (user + system), in ms. */
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

static span clock_since(span t0)
{
    span t = clock_now();
    return (span){t.wall - t0.wall, t.cpu - t0.cpu};
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "ocf_bench: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(1);
}

/* ---- phases ---------------------------------------------------------------------- */

static size_t n_records = 1000000;
static size_t block_size = AVROGEN_OCF_DEFAULT_BLOCK_SIZE;

static avrogen_writer mem;     /* the in-memory encoding, kept */
static uint32_t *datum_len;    /* each datum's size, to cut blocks as the writer does */
static uint64_t expect_digest; /* of every record, to check each read */

static span mem_encode(void)
{
    span t = clock_now();
    avrogen_writer_reset(&mem);
    for (size_t i = 0; i < n_records; i++)
        encode(&mem, &pool[i % POOL], (int64_t)i + 100000);
    t = clock_since(t);
    if (mem.err != AVROGEN_OK)
        die("in-memory encode", avrogen_status_str(mem.err));
    return t;
}

static span mem_decode(void)
{
    span t = clock_now();
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&mem), avrogen_writer_len(&mem));
    struct order o;
    uint64_t h = 0;
    for (size_t i = 0; i < n_records; i++) {
        if (!decode(&r, &o))
            die("in-memory decode", r.err_msg);
        h += digest(&o);
    }
    t = clock_since(t);
    if (h != expect_digest || avrogen_reader_remaining(&r) != 0)
        die("in-memory decode", "digest mismatch");
    return t;
}

static span file_write(const char *path, const char *codec)
{
    avrogen_diag d;
    avrogen_ocf_writer *w;
    avrogen_ocf_writer_options opts = {.codec = codec, .block_size = block_size};
    span t = clock_now();
    if (avrogen_ocf_writer_open(path, order_schema, sizeof order_schema - 1, &opts, &w, &d))
        die(path, d.msg);
    for (size_t i = 0; i < n_records; i++) {
        encode(avrogen_ocf_writer_datum_begin(w), &pool[i % POOL], (int64_t)i + 100000);
        if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK)
            break;
    }
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
        die(path, d.msg);
    return clock_since(t);
}

static span file_read(const char *path, bool map)
{
    avrogen_diag d;
    avrogen_ocf_reader *r;
    const avrogen_ocf_reader_options opts = {.map = map};
    span t = clock_now();
    if (avrogen_ocf_reader_open(path, &opts, &r, &d) != AVROGEN_OK)
        die(path, d.msg);
    if (avrogen_ocf_reader_mapped(r, NULL) != map)
        die(path, map ? "not mapped" : "mapped");
    uint64_t count, h = 0, seen = 0;
    avrogen_reader block;
    struct order o;
    while (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK && count != 0) {
        for (uint64_t i = 0; i < count; i++) {
            if (!decode(&block, &o))
                die(path, block.err_msg);
            h += digest(&o);
        }
        seen += count;
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_ocf_reader_close(r);
    t = clock_since(t);
    if (h != expect_digest || seen != n_records)
        die(path, "digest mismatch");
    return t;
}

/* The container alone: the pre-encoded datums copied in (avrogen_ocf_writer_write). */
static span file_write_bytes(const char *path, const char *codec)
{
    avrogen_diag d;
    avrogen_ocf_writer *w;
    avrogen_ocf_writer_options opts = {.codec = codec, .block_size = block_size};
    const uint8_t *data = avrogen_writer_data(&mem);
    span t = clock_now();
    if (avrogen_ocf_writer_open(path, order_schema, sizeof order_schema - 1, &opts, &w, &d))
        die(path, d.msg);
    for (size_t i = 0, off = 0; i < n_records; off += datum_len[i++])
        if (avrogen_ocf_writer_write(w, data + off, datum_len[i]) != AVROGEN_OK)
            break;
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
        die(path, d.msg);
    return clock_since(t);
}

/* The container alone: every block handed back (decompressed), no datum decoded. */
static span file_read_blocks(const char *path, bool map)
{
    avrogen_diag d;
    avrogen_ocf_reader *r;
    const avrogen_ocf_reader_options opts = {.map = map};
    span t = clock_now();
    if (avrogen_ocf_reader_open(path, &opts, &r, &d) != AVROGEN_OK)
        die(path, d.msg);
    uint64_t count, seen = 0, bytes = 0;
    avrogen_reader block;
    while (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK && count != 0) {
        seen += count;
        bytes += avrogen_reader_remaining(&block) + block.p[0];
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_ocf_reader_close(r);
    t = clock_since(t);
    if (seen != n_records || bytes == 0)
        die(path, "block count mismatch");
    return t;
}

/* The writer's blocks: [start, end) offsets into mem. */
static size_t n_blocks;
static size_t *block_start;

static void cut_blocks(void)
{
    block_start = malloc((n_records + 1) * sizeof *block_start);
    if (block_start == NULL)
        die("cut_blocks", "out of memory");
    size_t off = 0, len = 0;
    n_blocks = 0;
    block_start[0] = 0;
    for (size_t i = 0; i < n_records; i++) {
        off += datum_len[i];
        len += datum_len[i];
        if (len >= block_size) { /* avrogen_ocf_writer_datum_end's test */
            block_start[++n_blocks] = off;
            len = 0;
        }
    }
    if (len != 0)
        block_start[++n_blocks] = off;
}

/* Compressed blocks of the codec-alone runs, kept for decompression. */
static uint8_t *packed;
static size_t packed_cap;
static size_t *packed_start;
static uint8_t *unpacked; /* one block */
static size_t unpacked_cap;

/*
 * The in-memory datums block by block through a buffer of one block (each of
 * the writer's blocks copied in with memcpy, then decoded there, as the file
 * reader decodes a "null" block in the buffer read(2) filled), or the copies
 * alone. --loop copydecode minus --loop copy is the decode from a buffer in
 * the cache, against --loop decode, the decode in place from a buffer of the
 * whole 140 MB.
 */
static span mem_blocks(bool decode_them)
{
    const uint8_t *data = avrogen_writer_data(&mem);
    struct order o;
    uint64_t h = 0;
    size_t rec = 0;
    span t = clock_now();
    for (size_t b = 0; b < n_blocks; b++) {
        size_t len = block_start[b + 1] - block_start[b];
        memcpy(unpacked, data + block_start[b], len);
        if (!decode_them) {
            h += len + unpacked[len / 2];
            continue;
        }
        avrogen_reader r;
        avrogen_reader_init(&r, unpacked, len);
        while (avrogen_reader_remaining(&r) != 0) {
            if (!decode(&r, &o))
                die("in-memory decode by blocks", r.err_msg);
            h += digest(&o);
            rec++;
        }
    }
    t = clock_since(t);
    if (decode_them ? h != expect_digest || rec != n_records : h == 0)
        die("in-memory decode by blocks", "digest mismatch");
    return t;
}

static span codec_compress(const char *codec, size_t *total_out)
{
    const uint8_t *data = avrogen_writer_data(&mem);
    size_t out = 0;
    span t;
    if (strcmp(codec, "deflate") == 0) {
        t = clock_now();
        struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
        if (z == NULL)
            die("libdeflate_alloc_compressor", NULL);
        for (size_t b = 0; b < n_blocks; b++) {
            size_t len = block_start[b + 1] - block_start[b];
            size_t n = libdeflate_deflate_compress(z, data + block_start[b], len, packed + out,
                                                   packed_cap - out);
            if (n == 0)
                die("libdeflate_deflate_compress", "no room");
            packed_start[b] = out;
            out += n;
        }
        libdeflate_free_compressor(z);
        t = clock_since(t);
    } else {
        t = clock_now();
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_CLEVEL_DEFAULT);
        for (size_t b = 0; b < n_blocks; b++) {
            size_t len = block_start[b + 1] - block_start[b];
            size_t rc = ZSTD_compress2(cctx, packed + out, packed_cap - out, data + block_start[b],
                                       len);
            if (ZSTD_isError(rc))
                die("ZSTD_compress2", ZSTD_getErrorName(rc));
            packed_start[b] = out;
            out += rc;
        }
        ZSTD_freeCCtx(cctx);
        t = clock_since(t);
    }
    packed_start[n_blocks] = out;
    *total_out = out;
    return t;
}

static span codec_decompress(const char *codec)
{
    const uint8_t *data = avrogen_writer_data(&mem);
    span t;
    uint64_t check = 0;
    if (strcmp(codec, "deflate") == 0) {
        t = clock_now();
        struct libdeflate_decompressor *z = libdeflate_alloc_decompressor();
        if (z == NULL)
            die("libdeflate_alloc_decompressor", NULL);
        for (size_t b = 0; b < n_blocks; b++) {
            size_t got;
            if (libdeflate_deflate_decompress(z, packed + packed_start[b],
                                              packed_start[b + 1] - packed_start[b], unpacked,
                                              unpacked_cap, &got) != LIBDEFLATE_SUCCESS)
                die("libdeflate_deflate_decompress", NULL);
            check += unpacked[0] + got;
        }
        libdeflate_free_decompressor(z);
        t = clock_since(t);
    } else {
        t = clock_now();
        ZSTD_DCtx *dctx = ZSTD_createDCtx();
        for (size_t b = 0; b < n_blocks; b++) {
            size_t rc = ZSTD_decompressDCtx(dctx, unpacked, unpacked_cap, packed + packed_start[b],
                                            packed_start[b + 1] - packed_start[b]);
            if (ZSTD_isError(rc))
                die("ZSTD_decompressDCtx", ZSTD_getErrorName(rc));
            check += unpacked[0] + rc;
        }
        ZSTD_freeDCtx(dctx);
        t = clock_since(t);
    }
    uint64_t want = 0;
    for (size_t b = 0; b < n_blocks; b++)
        want += data[block_start[b]] + (block_start[b + 1] - block_start[b]);
    if (check != want)
        die(codec, "codec-alone round trip mismatch");
    return t;
}

/* ---- main ------------------------------------------------------------------------- */

enum { MAX_RUNS = 99 };

/* The timed phases of one codec; run k of each ran in round k, beside the others. */
enum phase {
    WRITE,
    READ,
    READ_MAPPED,
    WRITE_BYTES,
    READ_BLOCKS,
    ENCODE,     /* in-memory */
    DECODE,     /* in-memory */
    COMPRESS,   /* codec alone */
    DECOMPRESS, /* codec alone */
    N_PHASES,
    NONE = -1
};

static span times[3][N_PHASES][MAX_RUNS]; /* [codec][phase][run] */
static int runs = 5;

struct row {
    int codec;
    const char *op;
    enum phase file, base, base2; /* baseline A = base; B = base + base2 (run by run) */
    double target;
};

static double pick(span s, bool cpu)
{
    return cpu ? s.cpu : s.wall;
}

/* Lower quartile, median and upper quartile of v[0..n), sorted in place. */
typedef struct spread {
    double q1, med, q3;
} spread;

static spread spread_of(double *v, int n)
{
    double med = median(v, n); /* sorts */
    return (spread){v[n / 4], med, v[(3 * n) / 4]};
}

/* The median of phase p's runs. */
static double median_of(int c, enum phase p, bool cpu)
{
    double v[MAX_RUNS];
    for (int k = 0; k < runs; k++)
        v[k] = pick(times[c][p][k], cpu);
    return median(v, runs);
}

/* Run by run, file / (base + base2): the ratio each round saw. */
static spread paired_ratio(int c, enum phase file, enum phase base, enum phase base2, bool cpu)
{
    double v[MAX_RUNS];
    for (int k = 0; k < runs; k++) {
        double b = pick(times[c][base][k], cpu);
        if (base2 != NONE)
            b += pick(times[c][base2][k], cpu);
        v[k] = pick(times[c][file][k], cpu) / b;
    }
    return spread_of(v, runs);
}

static const char *const codecs[] = {"null", "deflate", "zstandard"};

static void print_row(const struct row *r, double mb, bool cpu)
{
    double ms = median_of(r->codec, r->file, cpu);
    printf("| %-9s | %-11s | %8.1f | %7.1f ", codecs[r->codec], r->op, ms, mb / (ms / 1e3));
    if (r->base == NONE) {
        printf("| %9s | %17s | %9s | %17s | %6s | %s |\n", "-", "-", "-", "-", "-", "-");
        return;
    }
    spread a = paired_ratio(r->codec, r->file, r->base, NONE, cpu);
    printf("| %9.1f | %4.2f [%4.2f, %4.2f] ", median_of(r->codec, r->base, cpu), a.med, a.q1, a.q3);
    if (r->base2 == NONE) {
        printf("| %9s | %17s | %5.1fx | %s |\n", "-", "-", r->target,
               a.med <= r->target ? "yes" : "no");
        return;
    }
    spread b = paired_ratio(r->codec, r->file, r->base, r->base2, cpu);
    printf("| %9.1f | %4.2f [%4.2f, %4.2f] | %5.1fx | %s / %s |\n",
           median_of(r->codec, r->base, cpu) + median_of(r->codec, r->base2, cpu), b.med, b.q1,
           b.q3, r->target, a.med <= r->target ? "yes" : "no", b.med <= r->target ? "yes" : "no");
}

static void print_table(const struct row *rows, int n_rows, double mb, bool cpu)
{
    printf("%s, ms: medians of the runs; each ratio is the median [quartiles] of the runs' "
           "own ratios, the file run against the baselines run beside it.\n\n",
           cpu ? "CPU time of the process (user + system)" : "Wall-clock time");
    printf("| codec     | op          |  file ms |    MB/s | base A ms | ratio A [q1, q3]  | "
           "base B ms | ratio B [q1, q3]  | target | met? (A / B) |\n");
    printf("|-----------|-------------|---------:|--------:|----------:|------------------:|"
           "----------:|------------------:|-------:|--------------|\n");
    for (int i = 0; i < n_rows; i++)
        print_row(&rows[i], mb, cpu);
    printf("\n");
}

static bool phase_named(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

static span run_phase(const char *name, size_t len, const char *path)
{
    if (phase_named(name, len, "decode"))
        return mem_decode();
    if (phase_named(name, len, "copy"))
        return mem_blocks(false);
    if (phase_named(name, len, "copydecode"))
        return mem_blocks(true);
    if (phase_named(name, len, "read"))
        return file_read(path, false);
    if (phase_named(name, len, "mapread"))
        return file_read(path, true);
    if (phase_named(name, len, "mapblocks"))
        return file_read_blocks(path, true);
    return file_read_blocks(path, false);
}

/*
 * --loop PHASE[,PHASE]: only those phases (decode: in memory; copy and
 * copydecode: mem_blocks; read, blocks and mapped, mapread, mapblocks: the
 * file of -c's codec, written once first), in turn, `runs` rounds; with
 * two, also the rounds' ratios of the second to the first. For perf record
 * and perf stat (whose figures then hold the setup, one encode and decode,
 * too), and for a null read against the decode with nothing else between.
 */
static int loop_phases(const char *list, const char *path, const char *codec)
{
    static span t[2][MAX_RUNS];
    const char *names[2];
    size_t lens[2];
    int n = 0;
    bool on_file = false;
    for (const char *p = list; n < 2;) {
        size_t len = strcspn(p, ",");
        bool in_mem = phase_named(p, len, "decode") || phase_named(p, len, "copy") ||
                      phase_named(p, len, "copydecode");
        if (!in_mem && !phase_named(p, len, "read") && !phase_named(p, len, "blocks") &&
            !phase_named(p, len, "mapread") && !phase_named(p, len, "mapblocks")) {
            fprintf(stderr, "ocf_bench: --loop takes one or two of decode, copy, copydecode, "
                            "read, blocks, mapread, mapblocks\n");
            return 2;
        }
        on_file |= !in_mem;
        names[n] = p;
        lens[n++] = len;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    if (on_file)
        file_write(path, codec);
    for (int k = 0; k < runs; k++)
        for (int i = 0; i < n; i++)
            t[i][k] = run_phase(names[i], lens[i], path);
    if (on_file)
        remove(path);
    for (int i = 0; i < n; i++) {
        double w[MAX_RUNS], c[MAX_RUNS];
        for (int k = 0; k < runs; k++) {
            w[k] = t[i][k].wall;
            c[k] = t[i][k].cpu;
        }
        printf("%.*s (%s): median of %d runs %.1f ms wall, %.1f ms CPU\n", (int)lens[i], names[i],
               codec, runs, median(w, runs), median(c, runs));
    }
    if (n == 2) {
        double w[MAX_RUNS], c[MAX_RUNS];
        for (int k = 0; k < runs; k++) {
            w[k] = t[1][k].wall / t[0][k].wall;
            c[k] = t[1][k].cpu / t[0][k].cpu;
        }
        spread sw = spread_of(w, runs), sc = spread_of(c, runs);
        printf("%.*s / %.*s, median [quartiles] of the rounds' ratios: wall %.3f [%.3f, %.3f], "
               "CPU %.3f [%.3f, %.3f]\n",
               (int)lens[1], names[1], (int)lens[0], names[0], sw.med, sw.q1, sw.q3, sc.med, sc.q1,
               sc.q3);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = "/tmp";
    const char *only = NULL, *loop = NULL;
    bool keep = false, files_only = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            n_records = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
            block_size = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--loop") == 0 && i + 1 < argc)
            loop = argv[++i];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = true;
        else if (strcmp(argv[i], "--files-only") == 0)
            files_only = true;
        else {
            fprintf(stderr,
                    "usage: %s [-n records] [-r runs] [-b block_size] [-d dir] [-c codec] "
                    "[--keep] [--files-only] [--loop PHASE[,PHASE]]\n",
                    argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS || n_records == 0 || block_size == 0) {
        fprintf(stderr, "ocf_bench: bad arguments\n");
        return 2;
    }

    make_pool();
    if (files_only) {
        /* Just the files, for bench/ocf/cli_bench and bench/peers/run (-c: one codec
         * only): the same records every row measures. */
        for (int c = 0; c < 3; c++) {
            if (only != NULL && strcmp(only, codecs[c]) != 0)
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/ocf_bench_%s.avro", dir, codecs[c]);
            file_write(path, codecs[c]);
            printf("%s\n", path);
        }
        return 0;
    }
    /* Reference pass: datum sizes, the digest every read must reproduce. */
    avrogen_writer_init_growable(&mem, NULL);
    datum_len = malloc(n_records * sizeof *datum_len);
    if (datum_len == NULL)
        die("setup", "out of memory");
    for (size_t i = 0; i < n_records; i++) {
        size_t before = avrogen_writer_len(&mem);
        encode(&mem, &pool[i % POOL], (int64_t)i + 100000);
        datum_len[i] = (uint32_t)(avrogen_writer_len(&mem) - before);
    }
    if (mem.err != AVROGEN_OK)
        die("setup", avrogen_status_str(mem.err));
    {
        avrogen_reader r;
        avrogen_reader_init(&r, avrogen_writer_data(&mem), avrogen_writer_len(&mem));
        struct order o;
        for (size_t i = 0; i < n_records; i++) {
            if (!decode(&r, &o))
                die("setup decode", r.err_msg);
            expect_digest += digest(&o);
        }
    }
    size_t bytes = avrogen_writer_len(&mem);
    double mb = (double)bytes / 1e6;
    cut_blocks();
    packed_cap = bytes + bytes / 8 + n_blocks * 64 + 4096;
    packed = malloc(packed_cap);
    packed_start = malloc((n_blocks + 1) * sizeof *packed_start);
    unpacked_cap = 0;
    for (size_t b = 0; b < n_blocks; b++)
        if (block_start[b + 1] - block_start[b] > unpacked_cap)
            unpacked_cap = block_start[b + 1] - block_start[b];
    unpacked = malloc(unpacked_cap);
    if (packed == NULL || packed_start == NULL || unpacked == NULL)
        die("setup", "out of memory");
    /* Touch every page once, so that no codec-alone run pays the first faults. */
    memset(packed, 0, packed_cap);

    if (loop != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/ocf_bench_%s.avro", dir, only != NULL ? only : "null");
        return loop_phases(loop, path, only != NULL ? only : "null");
    }

    printf("# ocf_bench: %zu Order records, %.1f MB encoded (%.0f B/record), %zu blocks of "
           ">= %zu B, median of %d runs\n\n",
           n_records, mb, (double)bytes / (double)n_records, n_blocks, block_size, runs);

    double t[MAX_RUNS];
    double enc_ms, dec_ms;
    for (int k = 0; k < runs; k++)
        t[k] = mem_encode().wall;
    enc_ms = median(t, runs);
    for (int k = 0; k < runs; k++)
        t[k] = mem_decode().wall;
    dec_ms = median(t, runs);
    printf("in-memory encode %.1f ms (%.0f MB/s), decode %.1f ms (%.0f MB/s)\n", enc_ms,
           mb / (enc_ms / 1e3), dec_ms, mb / (dec_ms / 1e3));
    fflush(stdout);

    struct row rows[18];
    int n_rows = 0;
    size_t file_size[3], packed_size[3] = {bytes, 0, 0};
    for (int c = 0; c < 3; c++) {
        if (only != NULL && strcmp(only, codecs[c]) != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/ocf_bench_%s.avro", dir, codecs[c]);
        span(*tc)[MAX_RUNS] = times[c];
        /* Every baseline runs again beside each file run, in the same round:
         * on a shared machine a ratio of medians taken minutes apart says
         * little, the ratio of one round's runs more. */
        for (int k = 0; k < runs; k++) {
            tc[WRITE_BYTES][k] = file_write_bytes(path, codecs[c]);
            tc[READ_BLOCKS][k] = file_read_blocks(path, false);
            tc[ENCODE][k] = mem_encode();
            tc[WRITE][k] = file_write(path, codecs[c]);
            tc[DECODE][k] = mem_decode();
            tc[READ][k] = file_read(path, false);
            tc[READ_MAPPED][k] = file_read(path, true);
            if (c != 0) {
                tc[COMPRESS][k] = codec_compress(codecs[c], &packed_size[c]);
                tc[DECOMPRESS][k] = codec_decompress(codecs[c]);
            }
        }
        FILE *f = fopen(path, "rb");
        if (f == NULL || fseek(f, 0, SEEK_END) != 0)
            die(path, "cannot size");
        file_size[c] = (size_t)ftell(f);
        fclose(f);
        if (!keep)
            remove(path);
        if (c == 0) {
            /* null: the bytes-only rows against a plain copy would say little; no baseline. */
            rows[n_rows++] = (struct row){c, "write", WRITE, ENCODE, NONE, 1.2};
            rows[n_rows++] = (struct row){c, "read", READ, DECODE, NONE, 1.2};
            rows[n_rows++] = (struct row){c, "read mapped", READ_MAPPED, DECODE, NONE, 1.1};
            rows[n_rows++] = (struct row){c, "write bytes", WRITE_BYTES, NONE, NONE, 0};
            rows[n_rows++] = (struct row){c, "read blocks", READ_BLOCKS, NONE, NONE, 0};
        } else {
            rows[n_rows++] = (struct row){c, "write", WRITE, COMPRESS, ENCODE, 1.3};
            rows[n_rows++] = (struct row){c, "read", READ, DECOMPRESS, DECODE, 1.3};
            rows[n_rows++] = (struct row){c, "read mapped", READ_MAPPED, DECOMPRESS, DECODE, 1.3};
            rows[n_rows++] = (struct row){c, "write bytes", WRITE_BYTES, COMPRESS, NONE, 1.3};
            rows[n_rows++] = (struct row){c, "read blocks", READ_BLOCKS, DECOMPRESS, NONE, 1.3};
        }
        printf("%s: file %.1f MB, codec-alone output %.1f MB (%.2fx), write %.1f ms, read %.1f "
               "ms\n",
               codecs[c], (double)file_size[c] / 1e6, (double)packed_size[c] / 1e6,
               (double)bytes / (double)packed_size[c], median_of(c, WRITE, false),
               median_of(c, READ, false));
        fflush(stdout);
    }

    printf("\nMB/s counts uncompressed datum bytes (%.1f MB). null: baseline = in-memory "
           "encode (write) / decode (read). deflate, zstandard: baseline A = the codec alone on "
           "the same blocks; baseline B = codec alone + in-memory encode / decode.\n\n",
           mb);
    print_table(rows, n_rows, mb, false);
    print_table(rows, n_rows, mb, true);

    avrogen_writer_fini(&mem);
    free(datum_len);
    free(block_start);
    free(packed);
    free(packed_start);
    free(unpacked);
    return 0;
}
