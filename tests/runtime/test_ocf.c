/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object container files (ocf.h): round trips through every codec over many
 * blocks, flush and append, metadata, and hostile files made by damaging valid
 * ones (every truncation, flipped sync, block-header and payload bytes, lying
 * lengths and counts, decompression bombs), allocation-failure injection,
 * bounded memory while streaming a large file, and datums decoded as values of
 * the file's schema or resolved into another's (next_value), blocks by their
 * framing alone (skip_block, skip), raw block copies, and recovery from damage
 * (resync) read from memory, a stream and a pipe. What other implementations make
 * of our files, and we of theirs, is tested in tests/ocf/ against python3-avro
 * and avro-c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "avrogen/ocf.h"
#include "avrogen/value.h"

#include "testutil.h"

static const char *const codecs[] = {"null", "deflate", "snappy", "zstandard", "xz", "bzip2"};
#define N_CODECS ((int)(sizeof codecs / sizeof codecs[0]))

static const char rec_schema[] =
        "{\"type\": \"record\", \"name\": \"R\", \"fields\": ["
        "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"name\", \"type\": \"string\"}, "
        "{\"name\": \"score\", \"type\": \"double\"}]}";

/* ---- helpers -------------------------------------------------------------- */

/* Record i of the test data, encoded per the spec's binary encoding of rec_schema. */
static void encode_rec(avrogen_writer *w, int64_t i)
{
    char name[64];
    int n = snprintf(name, sizeof name, "record-%lld-%.*s", (long long)i, (int)(i % 23),
                     "abcdefghijklmnopqrstuvwxyz");
    avrogen_write_long(w, i * 7919 - 1000000);
    avrogen_write_string(w, name, (size_t)n);
    avrogen_write_double(w, (double)i * 0.25);
}

static size_t rec_bytes(int64_t i, uint8_t *buf, size_t cap)
{
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, cap);
    encode_rec(&w, i);
    if (w.err != AVROGEN_OK)
        ck_abort_msg("record %lld does not fit", (long long)i);
    return avrogen_writer_len(&w);
}

/*
 * Per-datum checks in loops over millions of datums. Check's assertions write
 * to a pipe on success too, so hot loops test first and only assert on failure.
 */
#define CHECK_FAST(cond)                                          \
    do {                                                          \
        if (!(cond))                                              \
            ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond); \
    } while (0)

/* Append record i to w's current block. */
static void add_rec(avrogen_ocf_writer *w, int64_t i)
{
    encode_rec(avrogen_ocf_writer_datum_begin(w), i);
    CHECK_FAST(avrogen_ocf_writer_datum_end(w) == AVROGEN_OK);
}

typedef struct membuf {
    char *data;
    size_t len;
} membuf;

static void membuf_free(membuf *m)
{
    free(m->data);
    m->data = NULL;
    m->len = 0;
}

/* Write records [0, n) with `codec` and `block_size` into memory. */
static void write_mem(const char *codec, int64_t n, size_t block_size, membuf *out)
{
    FILE *f = open_memstream(&out->data, &out->len);
    ck_assert_ptr_nonnull(f);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = block_size;
    avrogen_ocf_writer *w;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_OK);
    for (int64_t i = 0; i < n; i++) {
        add_rec(w, i);
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(fclose(f), 0);
}

/* Read every block of r, checking datums against records first, first+1, ... */
static int64_t read_blocks_checked(avrogen_ocf_reader *r, int64_t first, uint64_t *blocks)
{
    int64_t next = first;
    uint64_t count;
    avrogen_reader b;
    *blocks = 0;
    while (avrogen_ocf_reader_next_block(r, &count, &b) == AVROGEN_OK && count != 0) {
        (*blocks)++;
        for (uint64_t k = 0; k < count; k++) {
            uint8_t want[128];
            size_t n = rec_bytes(next++, want, sizeof want);
            CHECK_FAST(avrogen_reader_remaining(&b) >= n && memcmp(b.p, want, n) == 0);
            b.p += n;
        }
        CHECK_FAST(avrogen_reader_remaining(&b) == 0);
    }
    avrogen_diag d;
    ck_assert_msg(avrogen_ocf_reader_error(r, &d) == AVROGEN_OK, "%s", d.msg);
    return next - first;
}

/*
 * How the reader cases read a file's bytes: in place (open_memory), or from a
 * file opened by path, read (read(2)) or mapped (opts.map). The suite runs
 * the reader cases each way (ocf_suite), and each way must give the same
 * records, statuses and offsets.
 */
enum reading { READ_MEMORY, READ_PATH, READ_MAPPED };
static enum reading reading = READ_MEMORY;
static char bytes_dir[64]; /* where open_bytes writes its files, once made */

static void read_from_path(void)
{
    reading = READ_PATH;
}

static void read_mapped(void)
{
    reading = READ_MAPPED;
}

static void remove_bytes_dir(void)
{
    if (bytes_dir[0] != '\0') {
        ck_assert_int_eq(rmdir(bytes_dir), 0);
        bytes_dir[0] = '\0';
    }
    reading = READ_MEMORY;
}

/*
 * avrogen_ocf_reader_open as the cases read files: mapped when they run
 * mapped, and then a regular file that is not empty must really be mapped.
 */
static avrogen_status open_path(const char *path, const avrogen_ocf_reader_options *o,
                                avrogen_ocf_reader **r, avrogen_diag *d)
{
    avrogen_ocf_reader_options mo = {0};
    if (o != NULL)
        mo = *o;
    mo.map = reading == READ_MAPPED;
    avrogen_status st = avrogen_ocf_reader_open(path, &mo, r, d);
    struct stat sb;
    if (st == AVROGEN_OK && stat(path, &sb) == 0) {
        avrogen_bytes range = {0};
        bool mapped = avrogen_ocf_reader_mapped(*r, &range);
        CHECK_FAST(mapped == (mo.map && S_ISREG(sb.st_mode) && sb.st_size > 0));
        CHECK_FAST(!mapped || range.len == (size_t)sb.st_size);
    }
    return st;
}

/* The `len` bytes at `data` read as the cases read files (`reading`). */
static avrogen_status open_bytes(const void *data, size_t len, const avrogen_ocf_reader_options *o,
                                 avrogen_ocf_reader **r, avrogen_diag *d)
{
    if (reading == READ_MEMORY)
        return avrogen_ocf_reader_open_memory(data, len, o, r, d);
    if (bytes_dir[0] == '\0') {
        strcpy(bytes_dir, "/tmp/avrogen-ocf-bytes-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(bytes_dir));
    }
    char path[96];
    snprintf(path, sizeof path, "%s/file.avro", bytes_dir);
    FILE *f = fopen(path, "wb");
    CHECK_FAST(f != NULL && fwrite(data, 1, len, f) == len && fclose(f) == 0);
    /* The reader holds the file open (or mapped): its name can go now. */
    avrogen_status st = open_path(path, o, r, d);
    CHECK_FAST(unlink(path) == 0);
    return st;
}

typedef struct scan_result {
    avrogen_status open_st; /* status of the open */
    avrogen_status st;      /* status that ended the scan */
    avrogen_diag diag;
    int64_t records; /* datums handed back before that */
} scan_result;

/* Open `len` bytes of `data` and walk it datum by datum. */
static scan_result scan_opts(const void *data, size_t len, const avrogen_ocf_reader_options *o)
{
    scan_result s;
    memset(&s, 0, sizeof s);
    avrogen_ocf_reader *r;
    s.open_st = open_bytes(data, len, o, &r, &s.diag);
    if (s.open_st != AVROGEN_OK) {
        ck_assert_ptr_null(r);
        s.st = s.open_st;
        return s;
    }
    avrogen_bytes datum;
    while ((s.st = avrogen_ocf_reader_next_datum(r, &datum)) == AVROGEN_OK && datum.ptr != NULL)
        s.records++;
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &s.diag), s.st);
    avrogen_ocf_reader_close(r);
    return s;
}

static scan_result scan(const void *data, size_t len)
{
    return scan_opts(data, len, NULL);
}

/* The block layout of a valid file: where each block starts and how many datums it holds. */
typedef struct layout {
    size_t header_len;
    size_t n;
    size_t start[64];
    size_t end[64]; /* one past its sync marker */
    int64_t count[64];
    int64_t before[64]; /* datums in the blocks before it */
} layout;

static void get_layout(const membuf *m, layout *l)
{
    memset(l, 0, sizeof *l);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_memory(m->data, m->len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t count;
    avrogen_reader b;
    int64_t total = 0;
    while (avrogen_ocf_reader_next_block(r, &count, &b) == AVROGEN_OK && count != 0) {
        ck_assert_uint_lt(l->n, 64);
        l->start[l->n] = (size_t)avrogen_ocf_reader_block_offset(r);
        l->count[l->n] = (int64_t)count;
        l->before[l->n] = total;
        total += (int64_t)count;
        if (l->n > 0)
            l->end[l->n - 1] = l->start[l->n];
        l->n++;
    }
    ck_assert_int_eq(avrogen_ocf_reader_error(r, NULL), AVROGEN_OK);
    ck_assert_uint_gt(l->n, 0);
    l->end[l->n - 1] = m->len;
    l->header_len = l->start[0];
    avrogen_ocf_reader_close(r);
}

/* An allocator that records the peak of live bytes. */
typedef struct peak_alloc {
    avrogen_alloc base;
    size_t live;
    size_t peak;
} peak_alloc;

static void *peak_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    peak_alloc *pa = ctx;
    if (new_size == 0) {
        free(ptr);
        pa->live -= old_size;
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p != NULL) {
        pa->live += new_size - old_size;
        if (pa->live > pa->peak)
            pa->peak = pa->live;
    }
    return p;
}

static void peak_init(peak_alloc *pa)
{
    pa->base.fn = peak_fn;
    pa->base.ctx = pa;
    pa->live = pa->peak = 0;
}

static char tmpdir[64];

static void make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/avrogen-ocf-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *tmp_path(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static long file_size(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (long)st.st_size;
}

/* A hand-built file: header pieces and blocks written with the encoding primitives. */
static void put_meta(avrogen_writer *w, const char *key, const char *value)
{
    avrogen_write_string(w, key, strlen(key));
    avrogen_write_bytes(w, value, strlen(value));
}

static const uint8_t test_sync[16] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04,
                                      0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c};

/* Magic, {avro.schema: schema, avro.codec: codec (if not NULL)}, test_sync. */
static void put_header(avrogen_writer *w, const char *schema, const char *codec)
{
    avrogen_write_raw(w, "Obj\x01", 4);
    avrogen_write_long(w, codec != NULL ? 2 : 1);
    put_meta(w, "avro.schema", schema);
    if (codec != NULL)
        put_meta(w, "avro.codec", codec);
    avrogen_write_long(w, 0);
    avrogen_write_raw(w, test_sync, 16);
}

static void put_block(avrogen_writer *w, int64_t count, const void *data, size_t len)
{
    avrogen_write_long(w, count);
    avrogen_write_bytes(w, data, len);
    avrogen_write_raw(w, test_sync, 16);
}

/* ---- round trips ---------------------------------------------------------- */

START_TEST(roundtrip_codec)
{
    const char *codec = codecs[_i];
    membuf m = {0};
    write_mem(codec, 5000, 1000, &m);

    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, &d), AVROGEN_OK);
    ck_assert_str_eq(avrogen_ocf_reader_codec(r), codec);
    avrogen_bytes v;
    ck_assert(avrogen_ocf_reader_meta_get(r, "avro.schema", &v));
    ck_assert_uint_eq(v.len, strlen(rec_schema));
    ck_assert_mem_eq(v.ptr, rec_schema, v.len);
    ck_assert(avrogen_ocf_reader_meta_get(r, "avro.codec", &v));
    ck_assert_str_eq((const char *)v.ptr, codec);
    ck_assert_int_eq(avrogen_schema_root(avrogen_ocf_reader_schema(r))->kind, AVROGEN_KIND_RECORD);
    uint64_t blocks;
    ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), 5000);
    /* ~50 bytes a record, 1000-byte blocks. */
    ck_assert_uint_gt(blocks, 100);
    avrogen_ocf_reader_close(r);

    /* The same file datum by datum, from a stream. */
    FILE *f = fmemopen(m.data, m.len, "rb");
    ck_assert_int_eq(avrogen_ocf_reader_open_file(f, NULL, &r, &d), AVROGEN_OK);
    for (int64_t i = 0; i < 5000; i++) {
        uint8_t want[128];
        size_t n = rec_bytes(i, want, sizeof want);
        CHECK_FAST(avrogen_ocf_reader_next_datum(r, &v) == AVROGEN_OK);
        CHECK_FAST(v.len == n && memcmp(v.ptr, want, n) == 0);
    }
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &v), AVROGEN_OK);
    ck_assert_ptr_null(v.ptr);
    avrogen_ocf_reader_close(r);
    fclose(f);

    if (_i != 0) {
        /* Compression worked: the records repeat a lot. */
        membuf plain = {0};
        write_mem("null", 5000, 1000, &plain);
        ck_assert_uint_lt(m.len, plain.len);
        membuf_free(&plain);
    }
    membuf_free(&m);
}
END_TEST

START_TEST(roundtrip_path_and_levels)
{
    make_tmpdir();
    const char *path = tmp_path("levels.avro");
    static const int levels[][2] = {{1, 1}, {1, 9}, {3, -5}, {3, 19}, {4, 1}, {4, 9}, {5, 1}};
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
        avrogen_ocf_writer_options o = {0};
        o.codec = codecs[levels[k][0]];
        o.level = levels[k][1];
        o.block_size = 4096;
        avrogen_ocf_writer *w;
        avrogen_diag d;
        ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                         AVROGEN_OK);
        for (int64_t i = 0; i < 2000; i++) {
            add_rec(w, i);
        }
        ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
        avrogen_ocf_reader *r;
        ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_OK);
        uint64_t blocks;
        ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), 2000);
        avrogen_ocf_reader_close(r);
    }
    remove_tmpdir();
}
END_TEST

START_TEST(zero_byte_datums)
{
    /* spec: null encodes to nothing, so a block of them has size 0 and any count. */
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, "\"null\"", 6, NULL, &w, NULL), AVROGEN_OK);
    for (int i = 0; i < 100000; i++)
        CHECK_FAST(avrogen_ocf_writer_write(w, NULL, 0) == AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    scan_result s = scan(m.data, m.len);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 100000);

    /* Past max_block_count it is refused; at it, read. */
    avrogen_ocf_reader_options o = {0};
    o.max_block_count = 99999;
    s = scan_opts(m.data, m.len, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    ck_assert_int_eq(s.records, 0);
    o.max_block_count = 100000;
    s = scan_opts(m.data, m.len, &o);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 100000);
    membuf_free(&m);
}
END_TEST

START_TEST(empty_file_and_zero_copy)
{
    membuf m = {0};
    write_mem("deflate", 0, 0, &m);
    scan_result s = scan(m.data, m.len);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 0);
    membuf_free(&m);

    /* A null-codec block read from memory is handed back in place; mapped, in the mapping. */
    write_mem("null", 10, 0, &m);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t count;
    avrogen_reader b;
    ck_assert_int_eq(avrogen_ocf_reader_next_block(r, &count, &b), AVROGEN_OK);
    ck_assert_uint_eq(count, 10);
    avrogen_bytes in = {(const uint8_t *)m.data, m.len};
    ck_assert(avrogen_ocf_reader_mapped(r, &in) == (reading == READ_MAPPED));
    if (reading != READ_PATH)
        ck_assert(b.start > in.ptr && b.end < in.ptr + in.len);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
}
END_TEST

START_TEST(metadata_and_sync)
{
    static const uint8_t blob[3] = {0, 0xff, 7};
    avrogen_ocf_meta meta[2] = {{"app.origin", "sensor-7", 8}, {"app.blob", blob, 3}};
    avrogen_ocf_writer_options o = {0};
    o.meta = meta;
    o.n_meta = 2;
    o.sync = test_sync;
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);

    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    ck_assert_mem_eq(avrogen_ocf_reader_sync(r), test_sync, 16);
    ck_assert_uint_eq(avrogen_ocf_reader_meta_count(r), 4);
    avrogen_bytes v;
    ck_assert(avrogen_ocf_reader_meta_get(r, "app.origin", &v));
    ck_assert_uint_eq(v.len, 8);
    ck_assert_mem_eq(v.ptr, "sensor-7", 8);
    ck_assert(avrogen_ocf_reader_meta_get(r, "app.blob", &v));
    ck_assert_uint_eq(v.len, 3);
    ck_assert_mem_eq(v.ptr, blob, 3);
    ck_assert(!avrogen_ocf_reader_meta_get(r, "app", &v));
    const char *key;
    size_t key_len;
    ck_assert(avrogen_ocf_reader_meta_at(r, 3, &key, &key_len, &v));
    ck_assert_str_eq(key, "app.blob");
    ck_assert(!avrogen_ocf_reader_meta_at(r, 4, &key, &key_len, &v));
    avrogen_ocf_reader_close(r);
    membuf_free(&m);

    /* Random sync markers differ between files. */
    membuf a = {0}, b = {0};
    write_mem("null", 1, 0, &a);
    write_mem("null", 1, 0, &b);
    layout la;
    get_layout(&a, &la);
    ck_assert_mem_ne(a.data + la.header_len - 16, b.data + la.header_len - 16, 16);
    membuf_free(&a);
    membuf_free(&b);
}
END_TEST

START_TEST(writer_rejects_bad_options)
{
    make_tmpdir();
    const char *path = tmp_path("never.avro");
    avrogen_ocf_writer *w;
    avrogen_diag d;
    avrogen_ocf_writer_options o = {0};

    o.codec = "brotli";
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);
    ck_assert_ptr_null(w);
    ck_assert_ptr_nonnull(strstr(d.msg, "\"brotli\""));
    ck_assert(avrogen_ocf_codec_supported("xz") && !avrogen_ocf_codec_supported("lzma"));

    o.codec = "deflate";
    o.level = 10;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);
    o.codec = "snappy";
    o.level = 1;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);

    o.codec = NULL;
    o.level = 0;
    avrogen_ocf_meta reserved = {"avro.mine", "x", 1};
    o.meta = &reserved;
    o.n_meta = 1;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);
    ck_assert_ptr_nonnull(strstr(d.msg, "reserved"));
    avrogen_ocf_meta twice[2] = {{"k", "x", 1}, {"k", "y", 1}};
    o.meta = twice;
    o.n_meta = 2;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);
    ck_assert_ptr_nonnull(strstr(d.msg, "\"k\" appears twice"));
    /* Found among many keys (sorted, not compared pairwise), wherever the two are. */
    avrogen_ocf_meta many[5] = {
            {"e", "", 0}, {"b", "", 0}, {"d", "", 0}, {"a", "", 0}, {"b", "", 0}};
    o.meta = many;
    o.n_meta = 5;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);
    ck_assert_ptr_nonnull(strstr(d.msg, "\"b\" appears twice"));
    o.n_meta = 4;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(unlink(path), 0);
    avrogen_ocf_meta bad_utf8 = {"k\xff", "x", 1};
    o.meta = &bad_utf8;
    o.n_meta = 1;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_E_ARG);

    /* An invalid schema is refused before the file is created. */
    static const char bad[] = "{\"type\": \"record\", \"name\": \"R\"}";
    ck_assert_int_eq(avrogen_ocf_writer_open(path, bad, strlen(bad), NULL, &w, &d),
                     AVROGEN_E_SCHEMA);
    ck_assert_int_ne(access(path, F_OK), 0);

    ck_assert_int_eq(avrogen_ocf_writer_open(tmpdir, rec_schema, strlen(rec_schema), NULL, &w, &d),
                     AVROGEN_E_IO);
    ck_assert_ptr_nonnull(strstr(d.msg, tmpdir));
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_E_IO);
    ck_assert_ptr_null(r);
    remove_tmpdir();
}
END_TEST

START_TEST(failed_datum_is_dropped)
{
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer_options o = {0};
    o.block_size = 200;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_E_ARG);
    int64_t next = 0;
    for (int k = 0; k < 50; k++) {
        avrogen_writer *b = avrogen_ocf_writer_datum_begin(w);
        if (k % 3 == 1) {
            /* Half a datum, then the encoder gives up: none of it may reach the file. */
            avrogen_write_long(b, 12345);
            avrogen_write_string(b, "partial", 7);
            avrogen_writer_fail(b, AVROGEN_E_ARG);
            ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_E_ARG);
        } else if (k % 7 == 3) {
            /* Begun and never ended: the next begin drops it. */
            avrogen_write_long(b, 999);
        } else {
            encode_rec(b, next++);
            ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
        }
    }
    ck_assert_int_eq(avrogen_ocf_writer_error(w, NULL), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t blocks;
    ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), next);
    ck_assert_uint_gt(blocks, 3);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
}
END_TEST

/* ---- flush and append ------------------------------------------------------ */

static int64_t count_path(const char *path)
{
    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_OK);
    uint64_t blocks;
    int64_t n = read_blocks_checked(r, 0, &blocks);
    avrogen_ocf_reader_close(r);
    return n;
}

START_TEST(flush_ends_a_block)
{
    make_tmpdir();
    const char *path = tmp_path("flush.avro");
    avrogen_ocf_writer_options o = {0};
    o.codec = codecs[_i];
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_flush(w, false), AVROGEN_OK);
    long header = file_size(path);
    ck_assert_int_gt(header, 100);
    ck_assert_int_eq(count_path(path), 0);

    for (int64_t i = 0; i < 5; i++) {
        add_rec(w, i);
    }
    /* Still buffered: the default block size is far away. */
    ck_assert_int_eq(count_path(path), 0);
    ck_assert_int_eq(avrogen_ocf_writer_flush(w, false), AVROGEN_OK);
    long one_block = file_size(path);
    ck_assert_int_gt(one_block, header);
    ck_assert_int_eq(count_path(path), 5);

    /* Flushing with nothing pending writes nothing. */
    ck_assert_int_eq(avrogen_ocf_writer_flush(w, true), AVROGEN_OK);
    ck_assert_int_eq(file_size(path), one_block);

    for (int64_t i = 5; i < 8; i++) {
        add_rec(w, i);
    }
    ck_assert_int_eq(avrogen_ocf_writer_flush(w, true), AVROGEN_OK);
    ck_assert_int_eq(count_path(path), 8);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);

    membuf m = {0};
    FILE *f = fopen(path, "rb");
    m.len = (size_t)file_size(path);
    m.data = malloc(m.len);
    ck_assert_uint_eq(fread(m.data, 1, m.len, f), m.len);
    fclose(f);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_int_eq(l.count[0], 5);
    ck_assert_int_eq(l.count[1], 3);
    membuf_free(&m);
    remove_tmpdir();
}
END_TEST

START_TEST(flush_inside_a_datum)
{
    /* Flushing between datum_begin and datum_end writes the finished datums only. */
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer *w;
    ck_assert_int_eq(
            avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), NULL, &w, NULL),
            AVROGEN_OK);
    for (int64_t i = 0; i < 3; i++)
        add_rec(w, i);
    uint8_t rec[128];
    size_t n = rec_bytes(3, rec, sizeof rec);
    avrogen_writer *b = avrogen_ocf_writer_datum_begin(w);
    avrogen_write_raw(b, rec, 5);
    ck_assert_int_eq(avrogen_ocf_writer_flush(w, false), AVROGEN_OK);
    avrogen_write_raw(b, rec + 5, n - 5);
    ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
    add_rec(w, 4);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_int_eq(l.count[0], 3);
    ck_assert_int_eq(l.count[1], 2);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t blocks;
    ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), 5);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
}
END_TEST

/*
 * Issue 12: a file whose schema reuses a record type at every level (T40 is
 * 2^40 T0s as a tree) opens, reports its schema and takes appends in time
 * linear in the schema; its datum of no bytes holds 2^41 - 1 records, which
 * delimiting it charges to the item budget and refuses, instead of hanging.
 */
START_TEST(fanout_schema_linear)
{
    make_tmpdir();
    const char *path = tmp_path("fanout.avro");
    char *schema = test_fanout_schema(40, "");
    avrogen_ocf_writer *w;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, schema, strlen(schema), NULL, &w, &d),
                     AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_write(w, NULL, 0), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_open_append(path, NULL, &w, &d), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_write(w, NULL, 0), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);

    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_OK);
    ck_assert_str_eq(avrogen_schema_root(avrogen_ocf_reader_schema(r))->name, "T40");
    avrogen_bytes datum;
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &datum), AVROGEN_E_LIMIT);
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(d.msg, "object 0"));
    avrogen_ocf_reader_close(r);
    free(schema);

    /* T20 holds 2^21 - 1 records: within the budget, so its datums are read. */
    schema = test_fanout_schema(20, "");
    ck_assert_int_eq(avrogen_ocf_writer_open(path, schema, strlen(schema), NULL, &w, &d),
                     AVROGEN_OK);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(avrogen_ocf_writer_write(w, NULL, 0), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_OK);
    int n = 0;
    while (avrogen_ocf_reader_next_datum(r, &datum) == AVROGEN_OK && datum.ptr != NULL) {
        ck_assert_uint_eq(datum.len, 0);
        n++;
    }
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_OK);
    ck_assert_int_eq(n, 3);
    avrogen_ocf_reader_close(r);
    free(schema);
    remove_tmpdir();
}
END_TEST

START_TEST(append_blocks)
{
    make_tmpdir();
    const char *path = tmp_path("append.avro");
    avrogen_ocf_writer_options o = {0};
    o.codec = codecs[_i];
    o.block_size = 500;
    avrogen_ocf_writer *w;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_OK);
    for (int64_t i = 0; i < 100; i++) {
        add_rec(w, i);
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);

    for (int round = 1; round <= 2; round++) {
        avrogen_ocf_writer_options ao = {0};
        ao.block_size = 300;
        ck_assert_msg(avrogen_ocf_writer_open_append(path, &ao, &w, &d) == AVROGEN_OK, "%s", d.msg);
        ck_assert_int_eq(avrogen_schema_root(avrogen_ocf_writer_schema(w))->kind,
                         AVROGEN_KIND_RECORD);
        for (int64_t i = 100 * round; i < 100 * (round + 1); i++) {
            add_rec(w, i);
        }
        ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    }
    ck_assert_int_eq(count_path(path), 300);

    /* The codec is the file's; asking for another is an error, as is new metadata. */
    avrogen_ocf_writer_options other = {0};
    other.codec = _i == 0 ? "deflate" : "null";
    ck_assert_int_eq(avrogen_ocf_writer_open_append(path, &other, &w, &d), AVROGEN_E_ARG);
    ck_assert_ptr_null(w);
    avrogen_ocf_meta extra = {"k", "v", 1};
    other.codec = NULL;
    other.meta = &extra;
    other.n_meta = 1;
    ck_assert_int_eq(avrogen_ocf_writer_open_append(path, &other, &w, &d), AVROGEN_E_ARG);

    /* A damaged tail is refused, naming the bad block. */
    long size = file_size(path);
    ck_assert_int_eq(truncate(path, size - 3), 0);
    ck_assert_int_eq(avrogen_ocf_writer_open_append(path, NULL, &w, &d), AVROGEN_E_TRUNCATED);
    ck_assert_ptr_nonnull(strstr(d.msg, "block at offset"));
    ck_assert_int_eq(avrogen_ocf_writer_open_append(tmp_path("missing.avro"), NULL, &w, &d),
                     AVROGEN_E_IO);
    remove_tmpdir();
}
END_TEST

/* ---- hostile files --------------------------------------------------------- */

/* Where check_truncations reads from: memory, a stream, a file by path (unbuffered), mapped. */
enum via { VIA_MEMORY, VIA_STREAM, VIA_PATH, VIA_MAPPED };

static void check_truncations(const char *codec, enum via via)
{
    membuf m = {0};
    write_mem(codec, 12, 40, &m);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_ge(l.n, 4);
    for (size_t len = 0; len < m.len; len++) {
        scan_result s;
        if (via != VIA_MEMORY) {
            const char *path = tmp_path("cut.avro");
            FILE *f = via == VIA_STREAM ? tmpfile() : fopen(path, "wb");
            ck_assert_uint_eq(fwrite(m.data, 1, len, f), len);
            if (via != VIA_STREAM)
                ck_assert_int_eq(fclose(f), 0);
            else
                rewind(f);
            memset(&s, 0, sizeof s);
            avrogen_ocf_reader *r;
            const avrogen_ocf_reader_options mapped = {.map = true};
            s.open_st = via == VIA_STREAM
                                ? avrogen_ocf_reader_open_file(f, NULL, &r, &s.diag)
                                : avrogen_ocf_reader_open(path, via == VIA_MAPPED ? &mapped : NULL,
                                                          &r, &s.diag);
            if (s.open_st == AVROGEN_OK)
                CHECK_FAST(avrogen_ocf_reader_mapped(r, NULL) == (via == VIA_MAPPED));
            s.st = s.open_st;
            if (s.open_st == AVROGEN_OK) {
                avrogen_bytes datum;
                while ((s.st = avrogen_ocf_reader_next_datum(r, &datum)) == AVROGEN_OK &&
                       datum.ptr != NULL)
                    s.records++;
                avrogen_ocf_reader_error(r, &s.diag);
                avrogen_ocf_reader_close(r);
            }
            if (via == VIA_STREAM)
                fclose(f);
        } else {
            /* A copy of exactly len bytes, so ASan sees any read past it. */
            char *copy = malloc(len + 1);
            memcpy(copy, m.data, len);
            s = scan(copy, len);
            free(copy);
        }
        if (len < l.header_len) {
            ck_assert_msg(s.open_st == AVROGEN_E_TRUNCATED, "len %zu: %s", len, s.diag.msg);
            continue;
        }
        ck_assert_int_eq(s.open_st, AVROGEN_OK);
        size_t k = 0;
        while (k < l.n && l.end[k] <= len)
            k++;
        int64_t whole = k < l.n ? l.before[k] : l.before[l.n - 1] + l.count[l.n - 1];
        ck_assert_int_eq(s.records, whole);
        if (len == l.header_len || (k > 0 && len == l.end[k - 1])) {
            ck_assert_msg(s.st == AVROGEN_OK, "len %zu: %s", len, s.diag.msg);
        } else {
            ck_assert_msg(s.st == AVROGEN_E_TRUNCATED, "len %zu: %s", len, s.diag.msg);
            ck_assert_uint_eq(s.diag.offset, l.start[k]);
        }
    }
    membuf_free(&m);
}

START_TEST(truncated_everywhere)
{
    check_truncations(codecs[_i], VIA_MEMORY);
    check_truncations(codecs[_i], VIA_STREAM);
    make_tmpdir();
    check_truncations(codecs[_i], VIA_PATH);
    check_truncations(codecs[_i], VIA_MAPPED);
    remove_tmpdir();
}
END_TEST

/*
 * A file opened by path and cut short while it is being read (another process
 * truncating it): the reader sees the end of the file where it now is, reads
 * the blocks before it, and reports the cut block as E_TRUNCATED at its offset.
 * Never a signal (a mapped file would raise SIGBUS here).
 */
START_TEST(truncated_while_open)
{
    membuf m = {0};
    write_mem(codecs[_i], 4000, 8192, &m);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_ge(l.n, 8);
    make_tmpdir();
    const char *path = tmp_path("shrinking.avro");
    /* Cut inside a block well past the first one and what is read ahead with it. */
    size_t k = l.n / 2;
    ck_assert_uint_gt(l.start[k], l.end[0] + 2 * 4096);
    size_t cuts[] = {l.start[k] + 1, l.end[k] - 1, l.start[k]};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        FILE *f = fopen(path, "wb");
        ck_assert_uint_eq(fwrite(m.data, 1, m.len, f), m.len);
        ck_assert_int_eq(fclose(f), 0);
        avrogen_ocf_reader *r;
        avrogen_diag d;
        ck_assert_int_eq(avrogen_ocf_reader_open(path, NULL, &r, &d), AVROGEN_OK);
        avrogen_bytes datum;
        ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &datum), AVROGEN_OK);
        ck_assert_ptr_nonnull(datum.ptr);
        ck_assert_int_eq(truncate(path, (off_t)cuts[c]), 0);
        int64_t records = 1;
        avrogen_status st;
        while ((st = avrogen_ocf_reader_next_datum(r, &datum)) == AVROGEN_OK && datum.ptr != NULL)
            records++;
        ck_assert_int_eq(records, l.before[k]);
        if (cuts[c] == l.start[k]) {
            /* Cut between blocks: a clean end. */
            ck_assert_int_eq(st, AVROGEN_OK);
        } else {
            ck_assert_int_eq(st, AVROGEN_E_TRUNCATED);
            avrogen_ocf_reader_error(r, &d);
            ck_assert_uint_eq(d.offset, l.start[k]);
        }
        avrogen_ocf_reader_close(r);
    }
    remove_tmpdir();
    membuf_free(&m);
}
END_TEST

START_TEST(corrupt_sync_markers)
{
    membuf m = {0};
    write_mem(codecs[_i], 12, 40, &m);
    layout l;
    get_layout(&m, &l);
    for (size_t b = 0; b < l.n; b++) {
        for (size_t k = 0; k < 16; k++) {
            size_t at = l.end[b] - 16 + k;
            m.data[at] ^= 0x20;
            scan_result s = scan(m.data, m.len);
            m.data[at] ^= 0x20;
            ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
            ck_assert_uint_eq(s.diag.offset, l.start[b]);
            ck_assert_int_eq(s.records, l.before[b]);
            ck_assert_ptr_nonnull(strstr(s.diag.msg, "sync marker"));
        }
    }
    /* The header's own marker: the first block no longer matches it. */
    m.data[l.header_len - 5] ^= 1;
    scan_result s = scan(m.data, m.len);
    ck_assert_int_eq(s.open_st, AVROGEN_OK);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_uint_eq(s.diag.offset, l.header_len);
    ck_assert_int_eq(s.records, 0);
    membuf_free(&m);
}
END_TEST

START_TEST(corrupt_block_headers)
{
    membuf m = {0};
    write_mem(codecs[_i], 12, 40, &m);
    layout l;
    get_layout(&m, &l);
    static const uint8_t flips[] = {0x01, 0x02, 0x40, 0x80, 0xff};
    size_t b = 1;
    /* Every bit pattern of the count and size varints. */
    avrogen_reader hr;
    avrogen_reader_init(&hr, m.data + l.start[b], 20);
    (void)avrogen_read_long(&hr);
    (void)avrogen_read_long(&hr);
    for (size_t k = 0; k < avrogen_reader_offset(&hr); k++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            m.data[l.start[b] + k] ^= (char)flips[f];
            scan_result s = scan(m.data, m.len);
            m.data[l.start[b] + k] ^= (char)flips[f];
            ck_assert_msg(s.st != AVROGEN_OK, "byte %zu ^ %#x went unnoticed", k, flips[f]);
            ck_assert_uint_eq(s.diag.offset, l.start[b]);
            ck_assert_int_ge(s.records, l.before[b]);
            ck_assert_int_le(s.records, l.before[b + 1]);
        }
    }
    membuf_free(&m);
}
END_TEST

START_TEST(corrupt_payloads)
{
    const char *codec = codecs[_i];
    /* Codecs that check their output (CRC-32, CRC-64, bzip2's CRCs) never return wrong data. */
    bool checked =
            strcmp(codec, "snappy") == 0 || strcmp(codec, "xz") == 0 || strcmp(codec, "bzip2") == 0;
    membuf m = {0};
    write_mem(codec, 60, 400, &m);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_ge(l.n, 3);

    /* The original decompressed bytes of block 1. */
    avrogen_ocf_reader *r;
    uint64_t count;
    avrogen_reader b;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_reader_next_block(r, &count, &b), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_reader_next_block(r, &count, &b), AVROGEN_OK);
    size_t orig_len = avrogen_reader_remaining(&b);
    uint8_t *orig = malloc(orig_len);
    memcpy(orig, b.p, orig_len);
    avrogen_ocf_reader_close(r);

    /* Payload of block 1: after its two varints (1-2 bytes each here), before its sync. */
    avrogen_reader hr;
    avrogen_reader_init(&hr, m.data + l.start[1], 20);
    (void)avrogen_read_long(&hr);
    (void)avrogen_read_long(&hr);
    size_t from = l.start[1] + avrogen_reader_offset(&hr), to = l.end[1] - 16;
    int detected = 0, total = 0;
    for (size_t at = from; at < to; at++) {
        for (int flip = 1; flip <= 0x80; flip <<= 7) {
            m.data[at] ^= (char)flip;
            ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
            avrogen_status st = avrogen_ocf_reader_next_block(r, &count, &b);
            ck_assert_int_eq(st, AVROGEN_OK);
            st = avrogen_ocf_reader_next_block(r, &count, &b);
            total++;
            if (st != AVROGEN_OK) {
                avrogen_diag d;
                ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), st);
                ck_assert_uint_eq(d.offset, l.start[1]);
                ck_assert_ptr_nonnull(strstr(d.msg, codec));
                detected++;
            } else if (checked) {
                ck_assert_uint_eq(avrogen_reader_remaining(&b), orig_len);
                ck_assert_mem_eq(b.p, orig, orig_len);
            }
            avrogen_ocf_reader_close(r);
            m.data[at] ^= (char)flip;
        }
    }
    if (checked)
        ck_assert_int_gt(detected, total * 9 / 10);
    free(orig);
    membuf_free(&m);
}
END_TEST

START_TEST(bad_magic)
{
    static const struct {
        const char *bytes;
        size_t len;
        avrogen_status st;
    } cases[] = {
            {"", 0, AVROGEN_E_TRUNCATED},
            {"Ob", 2, AVROGEN_E_TRUNCATED},
            {"Obj", 3, AVROGEN_E_TRUNCATED},
            {"Obj\x02", 4, AVROGEN_E_INVALID},
            {"PAR1xxxxxxxx", 12, AVROGEN_E_INVALID},
            {"obj\x01", 4, AVROGEN_E_INVALID},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        scan_result s = scan(cases[k].bytes, cases[k].len);
        ck_assert_int_eq(s.open_st, cases[k].st);
        ck_assert_uint_eq(s.diag.offset, 0);
    }
    scan_result s = scan("PAR1", 4);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "magic"));
}
END_TEST

/* Run a hand-built file through the reader. */
static scan_result scan_writer(avrogen_writer *w, const avrogen_ocf_reader_options *o)
{
    ck_assert_int_eq(w->err, AVROGEN_OK);
    scan_result s = scan_opts(avrogen_writer_data(w), avrogen_writer_len(w), o);
    avrogen_writer_fini(w);
    return s;
}

START_TEST(lying_metadata)
{
    avrogen_writer w;
    scan_result s;

    /* A map count of 2^62 with one entry present. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, INT64_C(1) << 62);
    put_meta(&w, "avro.schema", "\"int\"");
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_TRUNCATED);

    /* A key claiming a terabyte: refused before any attempt to read it. */
    peak_alloc pa;
    peak_init(&pa);
    avrogen_ocf_reader_options o = {0};
    o.alloc = &pa.base;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 1);
    avrogen_write_long(&w, INT64_C(1) << 40);
    avrogen_write_raw(&w, "avro.schema", 11);
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.open_st, AVROGEN_E_LIMIT);
    ck_assert_uint_eq(s.diag.offset, 5);
    ck_assert_uint_lt(pa.peak, 256 * 1024);
    ck_assert_uint_eq(pa.live, 0);

    /* A value claiming 60 MiB (under the header limit) in a tiny file, read as a stream. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 1);
    avrogen_write_string(&w, "avro.schema", 11);
    avrogen_write_long(&w, 60 << 20);
    avrogen_write_raw(&w, "\"int\"", 5);
    FILE *f = fmemopen((void *)(uintptr_t)avrogen_writer_data(&w), avrogen_writer_len(&w), "rb");
    avrogen_ocf_reader *r;
    avrogen_diag d;
    o.max_header_size = 100 << 20;
    ck_assert_int_eq(avrogen_ocf_reader_open_file(f, &o, &r, &d), AVROGEN_E_TRUNCATED);
    ck_assert_uint_lt(pa.peak, 256 * 1024);
    fclose(f);
    avrogen_writer_fini(&w);

    /* Negative lengths and counts. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 1);
    avrogen_write_long(&w, -3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, INT64_MIN);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);

    /* An overlong varint. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 15);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_OVERFLOW);
    ck_assert_uint_eq(s.diag.offset, 4);

    /* A header larger than max_header_size. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, rec_schema, NULL);
    memset(&o, 0, sizeof o);
    o.max_header_size = 100;
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.open_st, AVROGEN_E_LIMIT);
}
END_TEST

START_TEST(header_contents)
{
    avrogen_writer w;
    scan_result s;

    /* No codec key means null; a map in a negative-count block (with its byte size) is fine. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, -1);
    avrogen_write_long(&w, (int64_t)(1 + 11 + 1 + 5));
    put_meta(&w, "avro.schema", "\"int\"");
    avrogen_write_long(&w, 0);
    avrogen_write_raw(&w, test_sync, 16);
    put_block(&w, 3, "\x02\x04\x06", 3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 3);

    /* No schema. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 1);
    put_meta(&w, "avro.codec", "null");
    avrogen_write_long(&w, 0);
    avrogen_write_raw(&w, test_sync, 16);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "avro.schema"));

    /* An invalid schema. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "{\"type\": \"fixed\", \"name\": \"F\"}", NULL);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_SCHEMA);
    ck_assert_uint_eq(s.diag.offset, 4 + 1 + 1 + 11 + 1);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "avro.schema"));

    /* An unknown codec, named in the message. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", "brotli");
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "\"brotli\""));
    /* avro-c's non-standard "lzma" (raw LZMA2) is not the spec's "xz". */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", "lzma");
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);

    /* Two schemas. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 2);
    put_meta(&w, "avro.schema", "\"int\"");
    put_meta(&w, "avro.schema", "\"string\"");
    avrogen_write_long(&w, 0);
    avrogen_write_raw(&w, test_sync, 16);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);

    /* A key that is not UTF-8. */
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, "Obj\x01", 4);
    avrogen_write_long(&w, 2);
    put_meta(&w, "avro.schema", "\"int\"");
    put_meta(&w, "k\xc0\x80", "v");
    avrogen_write_long(&w, 0);
    avrogen_write_raw(&w, test_sync, 16);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_INVALID);

    /* Truncated inside the sync marker. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    w.p -= 1;
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.open_st, AVROGEN_E_TRUNCATED);
}
END_TEST

START_TEST(lying_blocks)
{
    avrogen_writer w;
    scan_result s;
    avrogen_ocf_reader_options o = {0};

    /* Negative count, negative size. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 1, "\x02", 1);
    size_t second = avrogen_writer_len(&w);
    avrogen_write_long(&w, -1);
    avrogen_write_long(&w, 1);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_int_eq(s.records, 1);
    ck_assert_uint_eq(s.diag.offset, second);
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    avrogen_write_long(&w, 1);
    avrogen_write_long(&w, -1);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);

    /* More objects than bytes, for a schema whose datums take at least one byte. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 1000, "\x02\x04\x06", 3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "1000 objects in 3 bytes"));

    /* A count past max_block_count, and one at it. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 4, "\x02\x04\x06\x08", 4);
    o.max_block_count = 3;
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 4, "\x02\x04\x06\x08", 4);
    o.max_block_count = 4;
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 4);

    /* A size past max_block_size, and one at it. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 4, "\x02\x04\x06\x08", 4);
    memset(&o, 0, sizeof o);
    o.max_block_size = 3;
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 4, "\x02\x04\x06\x08", 4);
    o.max_block_size = 4;
    s = scan_writer(&w, &o);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 4);

    /* A size of 60 MiB in a tiny stream: truncated, after allocating next to nothing. */
    peak_alloc pa;
    peak_init(&pa);
    memset(&o, 0, sizeof o);
    o.alloc = &pa.base;
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    avrogen_write_long(&w, 1);
    avrogen_write_long(&w, 60 << 20);
    avrogen_write_raw(&w, "\x02", 1);
    FILE *f = fmemopen((void *)(uintptr_t)avrogen_writer_data(&w), avrogen_writer_len(&w), "rb");
    avrogen_ocf_reader *r;
    ck_assert_int_eq(avrogen_ocf_reader_open_file(f, &o, &r, NULL), AVROGEN_OK);
    uint64_t count;
    avrogen_reader b;
    ck_assert_int_eq(avrogen_ocf_reader_next_block(r, &count, &b), AVROGEN_E_TRUNCATED);
    avrogen_ocf_reader_close(r);
    fclose(f);
    avrogen_writer_fini(&w);
    ck_assert_uint_lt(pa.peak, 256 * 1024);
    ck_assert_uint_eq(pa.live, 0);

    /* Empty blocks are skipped; an empty block with bytes is not. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 0, "", 0);
    put_block(&w, 0, "", 0);
    put_block(&w, 2, "\x02\x04", 2);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 2);
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 0, "\x02", 1);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);

    /* Trailing bytes after the last datum of a block, and a datum running past the block. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 2, "\x02\x04\x06", 3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_int_eq(s.records, 2);
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"string\"", NULL);
    put_block(&w, 2, "\x02x\x08yy", 5);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(s.records, 1);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "object 1"));

    /* Garbage after the last block. */
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"int\"", NULL);
    put_block(&w, 1, "\x02", 1);
    avrogen_write_raw(&w, "\x02\x02\x02", 3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(s.records, 1);
}
END_TEST

/* Block 0 of a one-block file `m` re-framed with `extra` bytes after its payload. */
static scan_result scan_with_trailer(const membuf *m, const char *extra, size_t n_extra)
{
    layout l;
    get_layout(m, &l);
    avrogen_reader hr;
    avrogen_reader_init(&hr, m->data + l.start[0], l.end[0] - l.start[0]);
    int64_t count = avrogen_read_long(&hr);
    avrogen_bytes payload = avrogen_read_bytes(&hr);
    ck_assert_int_eq(hr.err, AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_write_raw(&w, m->data, l.header_len);
    avrogen_write_long(&w, count);
    avrogen_write_long(&w, (int64_t)(payload.len + n_extra));
    avrogen_write_raw(&w, payload.ptr, payload.len);
    avrogen_write_raw(&w, extra, n_extra);
    avrogen_write_raw(&w, m->data + l.end[0] - 16, 16);
    return scan_writer(&w, NULL);
}

START_TEST(deflate_trailer)
{
    /*
     * python-avro 1.11.1 writes zlib.compress(data)[2:-1], leaving three bytes of
     * the Adler-32 after the raw deflate data (tests/ocf reads such files); a
     * longer tail is corruption. Other codecs allow no tail at all.
     */
    membuf m = {0};
    write_mem("deflate", 20, 0, &m);
    scan_result s;
    for (size_t n = 0; n <= 8; n++) {
        s = scan_with_trailer(&m, "\x12\x34\x56\x78\x9a\xbc\xde\xf0", n);
        ck_assert_msg(s.st == (n <= 4 ? AVROGEN_OK : AVROGEN_E_INVALID), "%zu: %s", n, s.diag.msg);
        ck_assert_int_eq(s.records, n <= 4 ? 20 : 0);
    }
    membuf_free(&m);
    for (int k = 2; k < N_CODECS; k++) {
        write_mem(codecs[k], 20, 0, &m);
        s = scan_with_trailer(&m, "\x00", 1);
        ck_assert_msg(s.st == AVROGEN_E_INVALID, "%s: %s", codecs[k], s.diag.msg);
        membuf_free(&m);
    }
}
END_TEST

/* CRC-32 (ISO-HDLC) bit by bit, as snappy blocks carry it: the tests' own reference. */
static uint32_t crc32_ref(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

/* A "string" file of one block holding `snappy` (raw snappy data) and then `crc`, big-endian. */
static scan_result scan_snappy(const void *snappy, size_t len, uint32_t crc,
                               const avrogen_ocf_reader_options *o)
{
    uint8_t payload[256];
    ck_assert_uint_le(len + 4, sizeof payload);
    memcpy(payload, snappy, len);
    for (int k = 0; k < 4; k++)
        payload[len + (size_t)k] = (uint8_t)(crc >> (24 - 8 * k));
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"string\"", "snappy");
    put_block(&w, 1, payload, len + 4);
    return scan_writer(&w, o);
}

START_TEST(corrupt_snappy)
{
    /* The datum "abcd" (a string: length 4, zigzag 8) as one literal of 5 bytes. */
    static const uint8_t datum[] = {0x08, 'a', 'b', 'c', 'd'};
    static const uint8_t good[] = {0x05, 0x10, 0x08, 'a', 'b', 'c', 'd'};
    uint32_t crc = crc32_ref(datum, sizeof datum);
    scan_result s = scan_snappy(good, sizeof good, crc, NULL);
    ck_assert_msg(s.st == AVROGEN_OK && s.records == 1, "%s", s.diag.msg);

    /* The CRC-32 of other bytes. */
    s = scan_snappy(good, sizeof good, crc ^ 0x00010000u, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "CRC-32"));

    /* Cut short: the literal runs past the data, and no data at all. */
    for (size_t cut = 0; cut < sizeof good; cut++) {
        s = scan_snappy(good, cut, crc, NULL);
        ck_assert_msg(s.st == AVROGEN_E_INVALID, "cut %zu: %s", cut, s.diag.msg);
        ck_assert_ptr_nonnull(strstr(s.diag.msg, "snappy"));
    }

    /* Claims of another length: shorter or longer than the literal gives. */
    uint8_t lying[sizeof good];
    memcpy(lying, good, sizeof good);
    for (uint8_t claim = 0; claim < 0x80; claim++) {
        if (claim == 5)
            continue;
        lying[0] = claim;
        s = scan_snappy(lying, sizeof lying, crc, NULL);
        ck_assert_msg(s.st == AVROGEN_E_INVALID, "claim %u: %s", claim, s.diag.msg);
    }

    /* A copy reaching back before the start of the output. */
    static const uint8_t far_copy[] = {0x09, 0x10, 0x08, 'a', 'b', 'c', 'd', 0x01, 0x09};
    s = scan_snappy(far_copy, sizeof far_copy, crc, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);

    /* No block is only its CRC's bytes short of one. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, "\"string\"", "snappy");
    put_block(&w, 1, "\x05\x10\x08", 3);
    s = scan_writer(&w, NULL);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "shorter than its CRC-32"));

    /*
     * Claims of 32 MiB (within the default limit) and of more than the limit,
     * in 7 bytes: the first is refused before anything of its size is allocated.
     */
    static const uint8_t huge[] = {0x80, 0x80, 0x80, 0x10, 0x10, 0x08, 'a'};
    static const uint8_t past[] = {0x80, 0x80, 0x80, 0x80, 0x08, 0x10, 0x08};
    peak_alloc pa;
    peak_init(&pa);
    avrogen_ocf_reader_options o = {0};
    o.alloc = &pa.base;
    s = scan_snappy(huge, sizeof huge, crc, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_INVALID);
    ck_assert_msg(pa.peak < ((size_t)1 << 20), "peak %zu", pa.peak);
    s = scan_snappy(past, sizeof past, crc, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    ck_assert_msg(pa.peak < ((size_t)1 << 20), "peak %zu", pa.peak);
    ck_assert_uint_eq(pa.live, 0);
}
END_TEST

/*
 * Deflate blocks of 1 MiB, 3 MiB and 5 bytes of datum, each squeezed to a few
 * KiB: the decoder's room (which Avro does not give) has to double several
 * times, from its first guess and then from what the block before needed.
 * Every byte comes back, and the limit holds to the byte.
 */
START_TEST(deflate_growth)
{
    static const size_t sizes[] = {(size_t)1 << 20, (size_t)3 << 20, 5};
    enum { N = sizeof sizes / sizeof sizes[0] };
    size_t big = (size_t)3 << 20;
    uint8_t *data = calloc(1, big);
    for (size_t i = 0; i < big; i += 4099)
        data[i] = (uint8_t)(i / 4099);
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer_options wo = {0};
    wo.codec = "deflate";
    wo.block_size = 1; /* a block per datum */
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, "\"bytes\"", 7, &wo, &w, NULL), AVROGEN_OK);
    for (size_t k = 0; k < N; k++) {
        avrogen_write_bytes(avrogen_ocf_writer_datum_begin(w), data, sizes[k]);
        ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    ck_assert_uint_lt(m.len, (size_t)64 << 10);

    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    for (size_t k = 0; k < N; k++) {
        uint64_t count;
        avrogen_reader b;
        ck_assert_int_eq(avrogen_ocf_reader_next_block(r, &count, &b), AVROGEN_OK);
        ck_assert_uint_eq(count, 1);
        avrogen_bytes got = avrogen_read_bytes(&b);
        ck_assert_int_eq(b.err, AVROGEN_OK);
        ck_assert_uint_eq(avrogen_reader_remaining(&b), 0);
        ck_assert_uint_eq(got.len, sizes[k]);
        ck_assert_mem_eq(got.ptr, data, sizes[k]);
    }
    avrogen_ocf_reader_close(r);

    /* The limit at the 3 MiB block's decompressed size (its length varint: 4 bytes), then one less.
     */
    avrogen_ocf_reader_options o = {0};
    o.max_block_size = sizes[1] + 4;
    scan_result s = scan_opts(m.data, m.len, &o);
    ck_assert_msg(s.st == AVROGEN_OK && s.records == N, "%s", s.diag.msg);
    o.max_block_size--;
    s = scan_opts(m.data, m.len, &o);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    ck_assert_int_eq(s.records, 1);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, "deflate"));
    membuf_free(&m);
    free(data);
}
END_TEST

START_TEST(decompression_bomb)
{
    const char *codec = codecs[_i + 1];
    /* One datum of 8 MiB of zeros, which every codec squeezes to a little. */
    size_t big = (size_t)8 << 20;
    uint8_t *zeros = calloc(1, big);
    membuf m = {0};
    FILE *f = open_memstream(&m.data, &m.len);
    avrogen_ocf_writer_options wo = {0};
    wo.codec = codec;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, "\"bytes\"", 7, &wo, &w, NULL), AVROGEN_OK);
    avrogen_write_bytes(avrogen_ocf_writer_datum_begin(w), zeros, big);
    ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);
    ck_assert_uint_lt(m.len, big / 16);

    peak_alloc pa;
    peak_init(&pa);
    avrogen_ocf_reader_options o = {0};
    o.alloc = &pa.base;
    o.max_block_size = (size_t)1 << 20;
    scan_result s = scan_opts(m.data, m.len, &o);
    ck_assert_int_eq(s.open_st, AVROGEN_OK);
    ck_assert_int_eq(s.st, AVROGEN_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(s.diag.msg, codec));
    /*
     * The output buffer stops at the limit. bzip2 adds its tables (under 4 MiB);
     * xz its dictionary, which the data names and which is allowed up to
     * max_block_size + 32 MiB.
     */
    size_t allowed = (size_t)3 << 20;
    if (strcmp(codec, "bzip2") == 0)
        allowed += (size_t)4 << 20;
    if (strcmp(codec, "xz") == 0)
        allowed += (size_t)32 << 20;
    ck_assert_msg(pa.peak < allowed, "peak %zu", pa.peak);
    ck_assert_uint_eq(pa.live, 0);

    /* Within the default limit it reads back whole. */
    o.max_block_size = 0;
    s = scan_opts(m.data, m.len, &o);
    ck_assert_int_eq(s.st, AVROGEN_OK);
    ck_assert_int_eq(s.records, 1);
    membuf_free(&m);
    free(zeros);
}
END_TEST

/* ---- allocation failures ------------------------------------------------------- */

START_TEST(writer_alloc_failures)
{
    const char *codec = codecs[_i];
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        membuf m = {0};
        FILE *f = open_memstream(&m.data, &m.len);
        avrogen_ocf_writer_options o = {0};
        o.codec = codec;
        o.block_size = 600;
        o.alloc = &ta.base;
        avrogen_ocf_writer *w;
        avrogen_status st =
                avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, NULL);
        int64_t accepted = 0;
        bool failed = st != AVROGEN_OK;
        if (st == AVROGEN_OK) {
            int64_t next = 0;
            for (int k = 0; k < 120; k++) {
                encode_rec(avrogen_ocf_writer_datum_begin(w), next);
                st = avrogen_ocf_writer_datum_end(w);
                ck_assert(st == AVROGEN_OK || st == AVROGEN_E_NOMEM);
                if (st == AVROGEN_OK)
                    next++;
                else
                    failed = true;
            }
            accepted = next;
            st = avrogen_ocf_writer_close(w, NULL);
            failed |= st != AVROGEN_OK;
        } else {
            ck_assert_ptr_null(w);
        }
        ck_assert_msg(st == AVROGEN_OK || st == AVROGEN_E_NOMEM, "n=%ld: %d", n, st);
        ck_assert_int_eq(ta.live, 0);
        fclose(f);
        if (m.len != 0) {
            /* Whatever was written is a valid file holding a prefix of what was accepted. */
            avrogen_ocf_reader *r;
            ck_assert_int_eq(avrogen_ocf_reader_open_memory(m.data, m.len, NULL, &r, NULL),
                             AVROGEN_OK);
            uint64_t blocks;
            int64_t got = read_blocks_checked(r, 0, &blocks);
            if (st == AVROGEN_OK)
                ck_assert_int_eq(got, accepted);
            else
                ck_assert_int_le(got, accepted);
            avrogen_ocf_reader_close(r);
        }
        membuf_free(&m);
        if (!failed)
            break;
        ck_assert_int_lt(n, 10000);
    }
}
END_TEST

START_TEST(reader_alloc_failures)
{
    membuf m = {0};
    write_mem(codecs[_i], 120, 600, &m);
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        avrogen_ocf_reader_options o = {0};
        o.alloc = &ta.base;
        /* Through a stream too, so the input buffer's allocations are reached. */
        FILE *f = fmemopen(m.data, m.len, "rb");
        avrogen_ocf_reader *r;
        avrogen_status st = avrogen_ocf_reader_open_file(f, &o, &r, NULL);
        int64_t records = 0;
        if (st == AVROGEN_OK) {
            avrogen_bytes d;
            while ((st = avrogen_ocf_reader_next_datum(r, &d)) == AVROGEN_OK && d.ptr != NULL)
                records++;
            avrogen_ocf_reader_close(r);
        } else {
            ck_assert_ptr_null(r);
        }
        fclose(f);
        ck_assert_msg(st == AVROGEN_OK || st == AVROGEN_E_NOMEM, "n=%ld: %d", n, st);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK) {
            ck_assert_int_eq(records, 120);
            break;
        }
        ck_assert_int_lt(n, 10000);
    }
    membuf_free(&m);
}
END_TEST

START_TEST(append_alloc_failures)
{
    make_tmpdir();
    const char *path = tmp_path("append-oom.avro");
    for (long n = 1;; n++) {
        membuf m = {0};
        write_mem("deflate", 30, 300, &m);
        FILE *f = fopen(path, "wb");
        fwrite(m.data, 1, m.len, f);
        fclose(f);
        membuf_free(&m);

        test_alloc ta;
        test_alloc_init(&ta, n);
        avrogen_ocf_writer_options o = {0};
        o.alloc = &ta.base;
        avrogen_ocf_writer *w;
        avrogen_status st = avrogen_ocf_writer_open_append(path, &o, &w, NULL);
        bool failed = st != AVROGEN_OK;
        int64_t next = 30;
        if (st == AVROGEN_OK) {
            for (int k = 0; k < 10; k++) {
                encode_rec(avrogen_ocf_writer_datum_begin(w), next);
                st = avrogen_ocf_writer_datum_end(w);
                ck_assert(st == AVROGEN_OK || st == AVROGEN_E_NOMEM);
                if (st == AVROGEN_OK)
                    next++;
                else
                    failed = true;
            }
            st = avrogen_ocf_writer_close(w, NULL);
            failed |= st != AVROGEN_OK;
            /* Whatever happened, the file is valid: the old records plus a prefix of the new. */
            int64_t got = count_path(path);
            ck_assert_int_ge(got, 30);
            if (st == AVROGEN_OK)
                ck_assert_int_eq(got, next);
            else
                ck_assert_int_le(got, next);
        } else {
            ck_assert_ptr_null(w);
            /* A failed open leaves the file as it was. */
            ck_assert_int_eq(count_path(path), 30);
        }
        ck_assert_msg(st == AVROGEN_OK || st == AVROGEN_E_NOMEM, "n=%ld: %d", n, st);
        ck_assert_int_eq(ta.live, 0);
        if (!failed)
            break;
        ck_assert_int_lt(n, 10000);
    }
    remove_tmpdir();
}
END_TEST

/* ---- streaming in bounded memory --------------------------------------------- */

START_TEST(streaming_bounded_memory)
{
    const char *codec = codecs[_i];
    /*
     * About 38 MiB uncompressed for null, 10 MiB through each real codec (xz is
     * slow), against a memory bound of 1 MiB, or 4 MiB with a codec's state
     * (xz's encoder alone takes about 1.7 MiB, bzip2's 1.2 MiB).
     */
    int64_t n = _i == 0 ? 1000000 : 250000;
    size_t bound = _i == 0 ? (size_t)1 << 20 : (size_t)4 << 20;
    make_tmpdir();
    const char *path = tmp_path("big.avro");
    peak_alloc pa;
    peak_init(&pa);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = 16 * 1024;
    o.alloc = &pa.base;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    for (int64_t i = 0; i < n; i++) {
        add_rec(w, i);
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    ck_assert_uint_eq(pa.live, 0);
    /* Block buffer, compressed buffer, codec state and the parsed schema only. */
    ck_assert_msg(pa.peak < bound, "writer peak %zu", pa.peak);
    if (_i == 0)
        ck_assert_int_gt(file_size(path), 32L << 20);

    peak_init(&pa);
    avrogen_ocf_reader_options ro = {0};
    ro.alloc = &pa.base;
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_path(path, &ro, &r, NULL), AVROGEN_OK);
    uint64_t blocks;
    ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), n);
    ck_assert_uint_gt(blocks, 250);
    avrogen_ocf_reader_close(r);
    ck_assert_uint_eq(pa.live, 0);
    ck_assert_msg(pa.peak < bound, "reader peak %zu", pa.peak);
    remove_tmpdir();
}
END_TEST

/* ---- decoded datums: next_value ----------------------------------------------- */

/*
 * rec_schema as a later version reads it: fields reordered, id promoted to
 * double, name read as bytes, two fields added with defaults.
 */
static const char rec_v2_schema[] =
        "{\"type\": \"record\", \"name\": \"R\", \"fields\": ["
        "{\"name\": \"score\", \"type\": \"double\"}, {\"name\": \"name\", \"type\": \"bytes\"}, "
        "{\"name\": \"id\", \"type\": \"double\"}, "
        "{\"name\": \"tag\", \"type\": \"string\", \"default\": \"t\"}, "
        "{\"name\": \"opt\", \"type\": [\"null\", \"long\"], \"default\": null}]}";

/* Another reader: only the id, as a float, through an alias of the record. */
static const char rec_id_schema[] =
        "{\"type\": \"record\", \"name\": \"Other\", \"aliases\": [\"R\"], \"fields\": ["
        "{\"name\": \"id\", \"type\": \"float\"}]}";

static avrogen_schema *parse(const char *text)
{
    avrogen_schema *s;
    avrogen_diag d;
    ck_assert_msg(avrogen_schema_parse(text, strlen(text), NULL, &s, &d) == AVROGEN_OK, "%s",
                  d.msg);
    return s;
}

/* v is record i of the test data, as rec_v2_schema reads it. */
static void check_v2(const avrogen_value *v, int64_t i)
{
    char name[64];
    int n = snprintf(name, sizeof name, "record-%lld-%.*s", (long long)i, (int)(i % 23),
                     "abcdefghijklmnopqrstuvwxyz");
    CHECK_FAST(avrogen_value_kind(v) == AVROGEN_KIND_RECORD);
    CHECK_FAST(v->fields[0].f64 == (double)i * 0.25);
    CHECK_FAST(avrogen_value_kind(&v->fields[1]) == AVROGEN_KIND_BYTES);
    CHECK_FAST(v->fields[1].bytes.len == (size_t)n &&
               memcmp(v->fields[1].bytes.ptr, name, (size_t)n) == 0);
    CHECK_FAST(v->fields[2].f64 == (double)(i * 7919 - 1000000));
    CHECK_FAST(v->fields[3].str.len == 1 && v->fields[3].str.ptr[0] == 't');
    CHECK_FAST(v->fields[4].branch.index == 0);
}

START_TEST(values_resolved)
{
    membuf m = {0};
    write_mem(codecs[_i], 500, 600, &m);
    avrogen_schema *v2 = parse(rec_v2_schema);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_ocf_reader_fingerprint(r),
                      avrogen_schema_fingerprint64(avrogen_ocf_reader_schema(r)));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    int64_t i = 0;
    avrogen_value v;
    bool got;
    for (;;) {
        avrogen_arena_reset(&a);
        avrogen_status st = avrogen_ocf_reader_next_value(r, avrogen_schema_root(v2), &v, &a, &got);
        CHECK_FAST(st == AVROGEN_OK);
        if (!got)
            break;
        CHECK_FAST(v.type == avrogen_schema_root(v2));
        check_v2(&v, i++);
    }
    ck_assert_int_eq(i, 500);
    /* The end stays the end. */
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(v2), &v, &a, &got),
                     AVROGEN_OK);
    ck_assert(!got);
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);
    avrogen_schema_free(v2);
    membuf_free(&m);
}
END_TEST

/*
 * Without a reader schema, values re-encode to the file's datums; next_value
 * with one reader, another, none, and next_datum take turns on one file.
 */
START_TEST(values_mixed_readers)
{
    membuf m = {0};
    write_mem("deflate", 300, 500, &m);
    avrogen_schema *v2 = parse(rec_v2_schema), *idonly = parse(rec_id_schema);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    int64_t i = 0;
    for (;; i++) {
        avrogen_value v;
        bool got = false;
        uint8_t want[128], buf[128];
        size_t n = rec_bytes(i, want, sizeof want);
        avrogen_arena_reset(&a);
        switch (i % 4) {
        case 0:
            CHECK_FAST(avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got) == AVROGEN_OK);
            if (got) {
                avrogen_writer w;
                avrogen_writer_init_fixed(&w, buf, sizeof buf);
                CHECK_FAST(v.type == avrogen_schema_root(avrogen_ocf_reader_schema(r)));
                CHECK_FAST(avrogen_value_encode(&w, &v) == AVROGEN_OK);
                CHECK_FAST(avrogen_writer_len(&w) == n && memcmp(buf, want, n) == 0);
            }
            break;
        case 1:
            CHECK_FAST(avrogen_ocf_reader_next_value(r, avrogen_schema_root(v2), &v, &a, &got) ==
                       AVROGEN_OK);
            if (got)
                check_v2(&v, i);
            break;
        case 2: {
            avrogen_bytes d;
            CHECK_FAST(avrogen_ocf_reader_next_datum(r, &d) == AVROGEN_OK);
            got = d.ptr != NULL;
            CHECK_FAST(!got || (d.len == n && memcmp(d.ptr, want, n) == 0));
            break;
        }
        default:
            CHECK_FAST(avrogen_ocf_reader_next_value(r, avrogen_schema_root(idonly), &v, &a,
                                                     &got) == AVROGEN_OK);
            CHECK_FAST(!got ||
                       (v.type->n_fields == 1 && v.fields[0].f32 == (float)(i * 7919 - 1000000)));
            break;
        }
        if (!got)
            break;
    }
    ck_assert_int_eq(i, 300);
    ck_assert_int_eq(avrogen_ocf_reader_error(r, NULL), AVROGEN_OK);
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);
    avrogen_schema_free(v2);
    avrogen_schema_free(idonly);
    membuf_free(&m);
}
END_TEST

/* Schemas that cannot be resolved: one sticky E_MISMATCH, with the reader path, before any datum.
 */
START_TEST(values_schema_mismatch)
{
    static const char *const readers[] = {
            /* a field the writer lacks, without a default */
            "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"id\", \"type\": "
            "\"long\"}, {\"name\": \"new\", \"type\": \"int\"}]}",
            /* a field narrowed */
            "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"id\", \"type\": "
            "\"int\"}]}",
            /* another record */
            "{\"type\": \"record\", \"name\": \"Q\", \"fields\": []}",
            "\"string\"",
    };
    static const char *const paths[] = {"/fields/1", "/fields/0/type", "", ""};
    membuf m = {0};
    write_mem("null", 10, 0, &m);
    for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++) {
        avrogen_schema *rd = parse(readers[k]);
        avrogen_ocf_reader *r;
        ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
        avrogen_arena a;
        avrogen_arena_init(&a, NULL);
        avrogen_value v;
        bool got = true;
        ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(rd), &v, &a, &got),
                         AVROGEN_E_MISMATCH);
        ck_assert(!got);
        avrogen_diag d;
        ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_MISMATCH);
        ck_assert_msg(strncmp(d.path, paths[k], strlen(paths[k])) == 0, "%zu: path %s", k, d.path);
        ck_assert_msg(strstr(d.msg, "cannot be read as the reader schema") != NULL, "%s", d.msg);
        ck_assert_msg(paths[k][0] == '\0' || strstr(d.msg, paths[k]) != NULL, "%s", d.msg);
        /* Sticky, for every way of reading on. */
        ck_assert_int_eq(avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got), AVROGEN_E_MISMATCH);
        avrogen_bytes datum;
        ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &datum), AVROGEN_E_MISMATCH);
        ck_assert_ptr_null(datum.ptr);
        avrogen_ocf_reader_close(r);
        avrogen_arena_fini(&a);
        avrogen_schema_free(rd);
    }
    membuf_free(&m);
}
END_TEST

/* Write `n` datums of `len_i` bytes each, given back to back at `data`, as a "null" file. */
static void write_raw(const char *schema, const uint8_t *data, const size_t *lens, size_t n,
                      size_t block_size, membuf *out)
{
    FILE *f = open_memstream(&out->data, &out->len);
    avrogen_ocf_writer_options o = {0};
    o.block_size = block_size;
    o.sync = test_sync;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, schema, strlen(schema), &o, &w, NULL),
                     AVROGEN_OK);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(avrogen_ocf_writer_write(w, data, lens[i]), AVROGEN_OK);
        data += lens[i];
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    ck_assert_int_eq(fclose(f), 0);
}

/*
 * A datum the reader cannot take (an enum symbol it lacks), and one whose
 * bytes the skip that delimits datums accepts but decoding does not (a string
 * that is not UTF-8): the datums before come out, then a sticky error naming
 * the block's offset, the datum's index and its byte in the block.
 */
START_TEST(values_datum_errors)
{
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_value v;
    bool got;
    avrogen_diag d;

    /* Enum indexes 0 (A), 1 (B), 2 (GONE), 0: the third fails. */
    static const uint8_t enums[] = {0x00, 0x02, 0x04, 0x00};
    static const size_t one[] = {1, 1, 1, 1};
    membuf m = {0};
    write_raw("{\"type\": \"enum\", \"name\": \"E\", \"symbols\": [\"A\", \"B\", \"GONE\"]}", enums,
              one, 4, 0, &m);
    avrogen_schema *rd =
            parse("{\"type\": \"enum\", \"name\": \"E\", \"symbols\": [\"B\", \"A\"]}");
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    for (size_t k = 0; k < 2; k++) {
        ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(rd), &v, &a, &got),
                         AVROGEN_OK);
        ck_assert(got);
        ck_assert_str_eq(avrogen_value_enum_symbol(&v), k == 0 ? "A" : "B");
    }
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(rd), &v, &a, &got),
                     AVROGEN_E_MISMATCH);
    ck_assert(!got);
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_MISMATCH);
    uint64_t block = avrogen_ocf_reader_block_offset(r);
    ck_assert_uint_eq(d.offset, block);
    char want[96];
    snprintf(want, sizeof want, "block at offset %llu, object 2 (byte ", (unsigned long long)block);
    ck_assert_msg(strstr(d.msg, want) != NULL && strstr(d.msg, "GONE") != NULL, "%s", d.msg);
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(rd), &v, &a, &got),
                     AVROGEN_E_MISMATCH);
    avrogen_ocf_reader_close(r);
    avrogen_schema_free(rd);
    membuf_free(&m);

    /* "ok", then two bytes that are not UTF-8, in blocks of one datum. */
    static const uint8_t strings[] = {0x04, 'o', 'k', 0x04, 0xff, 0xfe};
    static const size_t three[] = {3, 3};
    write_raw("\"string\"", strings, three, 2, 1, &m);
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got), AVROGEN_OK);
    ck_assert(got && v.str.len == 2);
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got), AVROGEN_E_INVALID);
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_E_INVALID);
    block = avrogen_ocf_reader_block_offset(r);
    snprintf(want, sizeof want, "block at offset %llu, object 0 (byte ", (unsigned long long)block);
    ck_assert_msg(strstr(d.msg, want) != NULL, "%s", d.msg);
    ck_assert_uint_eq(d.offset, block);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
    avrogen_arena_fini(&a);
}
END_TEST

/*
 * The way next_value read datums before it decoded them in place: each
 * delimited by next_datum (avrogen_skip), then decoded from exactly its bytes,
 * errors worded as it worded them. The records read and the first error.
 */
static scan_result values_delimited(const void *data, size_t len)
{
    scan_result s;
    memset(&s, 0, sizeof s);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(data, len, NULL, &r, NULL), AVROGEN_OK);
    const avrogen_node *root = avrogen_schema_root(avrogen_ocf_reader_schema(r));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    uint64_t block = UINT64_MAX, index = 0;
    size_t at = 0; /* the datum's first byte in its block */
    avrogen_bytes datum;
    while ((s.st = avrogen_ocf_reader_next_datum(r, &datum)) == AVROGEN_OK && datum.ptr != NULL) {
        if (avrogen_ocf_reader_block_offset(r) != block) {
            block = avrogen_ocf_reader_block_offset(r);
            index = 0;
            at = 0;
        }
        avrogen_reader dr;
        avrogen_reader_init(&dr, datum.ptr, datum.len);
        avrogen_value v;
        avrogen_arena_reset(&a);
        avrogen_status st = avrogen_value_decode(&dr, root, &v, &a);
        if (st != AVROGEN_OK || avrogen_reader_remaining(&dr) != 0) {
            char what[96];
            size_t byte = at;
            if (st != AVROGEN_OK && dr.err == AVROGEN_E_TRUNCATED) {
                byte += dr.err_offset;
                snprintf(what, sizeof what, "decoding ran past the object's end (%zu bytes)",
                         datum.len);
            } else if (st != AVROGEN_OK) {
                byte += dr.err != AVROGEN_OK ? dr.err_offset : 0;
                snprintf(what, sizeof what, "%s",
                         dr.err_msg != NULL ? dr.err_msg : avrogen_status_str(st));
            } else {
                st = AVROGEN_E_INVALID;
                byte += avrogen_reader_offset(&dr);
                snprintf(what, sizeof what, "decoding used %zu of the object's %zu bytes",
                         avrogen_reader_offset(&dr), datum.len);
            }
            s.st = st;
            s.diag.offset = (size_t)block;
            snprintf(s.diag.msg, sizeof s.diag.msg,
                     "block at offset %llu, object %llu (byte %zu of the decompressed block): %s",
                     (unsigned long long)block, (unsigned long long)index, byte, what);
            break;
        }
        s.records++;
        index++;
        at += datum.len;
    }
    if (s.st != AVROGEN_OK && s.diag.msg[0] == '\0')
        ck_assert_int_eq(avrogen_ocf_reader_error(r, &s.diag), s.st);
    avrogen_arena_fini(&a);
    avrogen_ocf_reader_close(r);
    return s;
}

/* next_value over the whole file: the records read and the first error. */
static scan_result values_in_place(const void *data, size_t len)
{
    scan_result s;
    memset(&s, 0, sizeof s);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(data, len, NULL, &r, NULL), AVROGEN_OK);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_value v;
    bool got;
    for (;;) {
        avrogen_arena_reset(&a);
        s.st = avrogen_ocf_reader_next_value(r, NULL, &v, &a, &got);
        if (s.st != AVROGEN_OK || !got)
            break;
        s.records++;
    }
    if (s.st != AVROGEN_OK)
        ck_assert_int_eq(avrogen_ocf_reader_error(r, &s.diag), s.st);
    avrogen_arena_fini(&a);
    avrogen_ocf_reader_close(r);
    return s;
}

/*
 * Datums decoded where they lie (issue 25) fail where, and as, they failed
 * when each was delimited first: every flipped byte of a block of many datums,
 * most of them past the block's first datum.
 */
START_TEST(values_in_place_errors)
{
    membuf m = {0};
    if (_i == 0) {
        write_mem("null", 60, 600, &m);
    } else {
        /*
         * Arrays in blocks that give their byte size, which the skip jumps and
         * the decoder checks: a flipped size or count makes the two disagree
         * about where the datum ends.
         */
        static const uint8_t datum[] = {0x05, 0x06, 0x02, 0x04, 0x06, 0x00, 0x04, 'a', 'b'};
        uint8_t data[40 * sizeof datum];
        size_t lens[40];
        for (size_t i = 0; i < 40; i++) {
            memcpy(data + i * sizeof datum, datum, sizeof datum);
            lens[i] = sizeof datum;
        }
        write_raw("{\"type\": \"record\", \"name\": \"S\", \"fields\": ["
                  "{\"name\": \"xs\", \"type\": {\"type\": \"array\", \"items\": \"long\"}}, "
                  "{\"name\": \"s\", \"type\": \"string\"}]}",
                  data, lens, 40, 100, &m);
    }
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_ge(l.n, 3);
    ck_assert_int_ge(l.count[1], 10);
    static const uint8_t flips[] = {0x01, 0x02, 0x04, 0x40, 0x80, 0xff};
    int failed = 0;
    for (size_t at = l.start[1]; at < l.end[1] - 16; at++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            m.data[at] ^= (char)flips[f];
            scan_result want = values_delimited(m.data, m.len);
            scan_result got = values_in_place(m.data, m.len);
            m.data[at] ^= (char)flips[f];
            ck_assert_msg(got.st == want.st && got.records == want.records &&
                                  got.diag.offset == want.diag.offset &&
                                  strcmp(got.diag.msg, want.diag.msg) == 0,
                          "byte %zu ^ %#x: %d after %lld, '%s'; want %d after %lld, '%s'", at,
                          flips[f], got.st, (long long)got.records, got.diag.msg, want.st,
                          (long long)want.records, want.diag.msg);
            failed += got.st != AVROGEN_OK;
        }
    }
    ck_assert_int_gt(failed, 100);
    membuf_free(&m);
}
END_TEST

/* Every truncation, read through a reader schema: whole blocks, then E_TRUNCATED at the next. */
START_TEST(values_truncated_everywhere)
{
    membuf m = {0};
    write_mem(codecs[_i], 12, 40, &m);
    layout l;
    get_layout(&m, &l);
    avrogen_schema *v2 = parse(rec_v2_schema);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    for (size_t len = 0; len < m.len; len++) {
        char *copy = malloc(len + 1);
        memcpy(copy, m.data, len);
        avrogen_ocf_reader *r;
        avrogen_diag d;
        avrogen_status st = open_bytes(copy, len, NULL, &r, &d);
        if (len < l.header_len) {
            ck_assert_msg(st == AVROGEN_E_TRUNCATED, "len %zu: %s", len, d.msg);
            free(copy);
            continue;
        }
        ck_assert_int_eq(st, AVROGEN_OK);
        int64_t records = 0;
        avrogen_value v;
        bool got;
        while ((st = avrogen_ocf_reader_next_value(r, avrogen_schema_root(v2), &v, &a, &got)) ==
                       AVROGEN_OK &&
               got)
            check_v2(&v, records++);
        avrogen_ocf_reader_error(r, &d);
        avrogen_ocf_reader_close(r);
        free(copy);
        size_t k = 0;
        while (k < l.n && l.end[k] <= len)
            k++;
        int64_t whole = k < l.n ? l.before[k] : l.before[l.n - 1] + l.count[l.n - 1];
        ck_assert_int_eq(records, whole);
        if (len == l.header_len || (k > 0 && len == l.end[k - 1])) {
            ck_assert_msg(st == AVROGEN_OK, "len %zu: %s", len, d.msg);
        } else {
            ck_assert_msg(st == AVROGEN_E_TRUNCATED, "len %zu: %s", len, d.msg);
            ck_assert_uint_eq(d.offset, l.start[k]);
        }
    }
    avrogen_arena_fini(&a);
    avrogen_schema_free(v2);
    membuf_free(&m);
}
END_TEST

/* The next datum as JSON text via next_value and avrogen_value_to_json: what next_json must give.
 */
static avrogen_status json_by_value(avrogen_ocf_reader *r, avrogen_arena *a, avrogen_writer *w,
                                    bool *got)
{
    avrogen_value v;
    avrogen_arena_reset(a);
    avrogen_status st = avrogen_ocf_reader_next_value(r, NULL, &v, a, got);
    if (st == AVROGEN_OK && *got)
        st = avrogen_value_to_json(w, &v, 0);
    return st;
}

/*
 * next_json against next_value + to_json on every codec: the same text for
 * every datum; a writer too small for one datum fails that datum alone; and
 * with any byte of the first blocks flipped, or the file cut anywhere, the
 * same records, then the same status at the same offset.
 */
START_TEST(json_datums)
{
    membuf m = {0};
    write_mem(codecs[_i], 60, 200, &m);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_writer wa, wb;
    avrogen_writer_init_growable(&wa, NULL);
    avrogen_writer_init_growable(&wb, NULL);
    avrogen_ocf_reader *ra, *rb;
    bool ga, gb;

    /* The file as it is; every fifth datum into a writer too small for it. */
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &ra, NULL), AVROGEN_OK);
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &rb, NULL), AVROGEN_OK);
    for (int64_t i = 0;; i++) {
        avrogen_writer_reset(&wa);
        avrogen_writer_reset(&wb);
        ck_assert_int_eq(json_by_value(ra, &a, &wa, &ga), AVROGEN_OK);
        if (i % 5 == 3) {
            uint8_t tiny[8];
            avrogen_writer small;
            avrogen_writer_init_fixed(&small, tiny, sizeof tiny);
            ck_assert_int_eq(avrogen_ocf_reader_next_json(rb, &small, 0, NULL, &gb),
                             AVROGEN_E_NOSPACE);
            ck_assert(!gb);
            ck_assert_int_eq(avrogen_ocf_reader_error(rb, NULL), AVROGEN_OK);
            continue;
        }
        ck_assert_int_eq(avrogen_ocf_reader_next_json(rb, &wb, 0, NULL, &gb), AVROGEN_OK);
        ck_assert(ga == gb);
        if (!ga) {
            ck_assert_int_eq(i, 60);
            break;
        }
        ck_assert_uint_eq(avrogen_writer_len(&wa), avrogen_writer_len(&wb));
        ck_assert_mem_eq(avrogen_writer_data(&wa), avrogen_writer_data(&wb),
                         avrogen_writer_len(&wa));
    }
    avrogen_ocf_reader_close(ra);
    avrogen_ocf_reader_close(rb);

    /* Damaged: cut anywhere past the header, or one byte flipped in the first blocks. */
    layout l;
    get_layout(&m, &l);
    char *copy = malloc(m.len);
    size_t flips = l.end[l.n > 2 ? 2 : l.n - 1] - l.header_len;
    for (size_t k = l.header_len; k < m.len + flips; k++) {
        size_t len = k < m.len ? k : m.len;
        memcpy(copy, m.data, len);
        if (k >= m.len)
            copy[l.header_len + (k - m.len)] ^= 0x5a;
        avrogen_status sa = open_bytes(copy, len, NULL, &ra, NULL);
        avrogen_status sb = open_bytes(copy, len, NULL, &rb, NULL);
        CHECK_FAST(sa == sb);
        if (sa != AVROGEN_OK)
            continue;
        int64_t n = 0;
        for (;;) {
            avrogen_writer_reset(&wa);
            avrogen_writer_reset(&wb);
            sa = json_by_value(ra, &a, &wa, &ga);
            sb = avrogen_ocf_reader_next_json(rb, &wb, 0, NULL, &gb);
            /* Both fail at the same datum; which of its faults is named first may
             * differ (the skip next_value delimits with checks no UTF-8). */
            ck_assert_msg((sa == AVROGEN_OK) == (sb == AVROGEN_OK) && ga == gb,
                          "k %zu, datum %lld: %d %d", k, (long long)n, sa, sb);
            if (sa != AVROGEN_OK || !ga)
                break;
            CHECK_FAST(avrogen_writer_len(&wa) == avrogen_writer_len(&wb) &&
                       memcmp(avrogen_writer_data(&wa), avrogen_writer_data(&wb),
                              avrogen_writer_len(&wa)) == 0);
            n++;
        }
        avrogen_diag da, db;
        ck_assert_int_eq(avrogen_ocf_reader_error(ra, &da) == AVROGEN_OK,
                         avrogen_ocf_reader_error(rb, &db) == AVROGEN_OK);
        ck_assert_uint_eq(da.offset, db.offset);
        avrogen_ocf_reader_close(ra);
        avrogen_ocf_reader_close(rb);
    }
    free(copy);
    avrogen_writer_fini(&wa);
    avrogen_writer_fini(&wb);
    avrogen_arena_fini(&a);
    membuf_free(&m);
}
END_TEST

/* Allocation failures anywhere (reader, resolver, values): E_NOMEM, never a leak or a crash. */
START_TEST(values_alloc_failures)
{
    membuf m = {0};
    write_mem(codecs[_i], 60, 600, &m);
    avrogen_schema *v2 = parse(rec_v2_schema);
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        avrogen_ocf_reader_options o = {0};
        o.alloc = &ta.base;
        FILE *f = fmemopen(m.data, m.len, "rb");
        avrogen_ocf_reader *r;
        avrogen_status st = avrogen_ocf_reader_open_file(f, &o, &r, NULL);
        int64_t records = 0;
        if (st == AVROGEN_OK) {
            avrogen_arena a;
            avrogen_arena_init(&a, &ta.base);
            avrogen_value v;
            bool got;
            while ((st = avrogen_ocf_reader_next_value(r, avrogen_schema_root(v2), &v, &a, &got)) ==
                           AVROGEN_OK &&
                   got) {
                check_v2(&v, records++);
                avrogen_arena_reset(&a);
            }
            avrogen_arena_fini(&a);
            avrogen_ocf_reader_close(r);
        }
        fclose(f);
        ck_assert_msg(st == AVROGEN_OK || st == AVROGEN_E_NOMEM, "n=%ld: %d", n, st);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK) {
            ck_assert_int_eq(records, 60);
            break;
        }
        ck_assert_int_lt(n, 10000);
    }
    avrogen_schema_free(v2);
    membuf_free(&m);
}
END_TEST

/* ---- framing only, raw blocks, recovery ------------------------------------ */

/* Ways to read a file held in memory: in place, as a seekable stream, through a pipe. */
enum { SRC_MEMORY, SRC_STREAM, SRC_PIPE, N_SOURCES };

typedef struct source {
    avrogen_ocf_reader *r;
    FILE *f;
    pid_t child;
} source;

static void source_open(source *s, const membuf *m, int how)
{
    memset(s, 0, sizeof *s);
    s->child = -1;
    avrogen_diag d;
    if (how == SRC_MEMORY) {
        ck_assert_int_eq(open_bytes(m->data, m->len, NULL, &s->r, &d), AVROGEN_OK);
        return;
    }
    if (how == SRC_STREAM) {
        s->f = fmemopen(m->data, m->len, "rb");
    } else {
        int fd[2];
        ck_assert_int_eq(pipe(fd), 0);
        s->child = fork();
        ck_assert_int_ge(s->child, 0);
        if (s->child == 0) {
            close(fd[0]);
            /* Dribble the file in small writes, so reads see it arrive piecewise. */
            for (size_t at = 0; at < m->len;) {
                size_t n = m->len - at < 997 ? m->len - at : 997;
                ssize_t k = write(fd[1], m->data + at, n);
                if (k <= 0)
                    _exit(1);
                at += (size_t)k;
            }
            _exit(0);
        }
        close(fd[1]);
        s->f = fdopen(fd[0], "rb");
    }
    ck_assert_ptr_nonnull(s->f);
    ck_assert_int_eq(avrogen_ocf_reader_open_file(s->f, NULL, &s->r, &d), AVROGEN_OK);
}

static void source_close(source *s)
{
    avrogen_ocf_reader_close(s->r);
    if (s->f != NULL)
        fclose(s->f);
    if (s->child > 0)
        waitpid(s->child, NULL, 0);
}

/* The index of the record whose encoding `d` is (encode_rec), checking every byte. */
static int64_t rec_index(avrogen_bytes d)
{
    avrogen_reader r;
    avrogen_reader_init(&r, d.ptr, d.len);
    int64_t i = (avrogen_read_long(&r) + 1000000) / 7919;
    uint8_t want[128];
    size_t n = rec_bytes(i, want, sizeof want);
    CHECK_FAST(d.len == n && memcmp(d.ptr, want, n) == 0);
    return i;
}

START_TEST(skip_block_counts)
{
    const char *codec = codecs[_i / N_SOURCES];
    membuf m = {0};
    write_mem(codec, 2000, 4000, &m);
    layout l;
    get_layout(&m, &l);
    source s;
    source_open(&s, &m, _i % N_SOURCES);
    uint64_t count, total = 0;
    size_t blocks = 0;
    while (avrogen_ocf_reader_skip_block(s.r, &count) == AVROGEN_OK && count != 0) {
        ck_assert_uint_lt(blocks, l.n);
        ck_assert_uint_eq(avrogen_ocf_reader_block_offset(s.r), l.start[blocks]);
        ck_assert_int_eq((int64_t)count, l.count[blocks]);
        ck_assert_uint_eq(avrogen_ocf_reader_position(s.r), l.end[blocks]);
        avrogen_bytes p;
        ck_assert(!avrogen_ocf_reader_block_payload(s.r, &p));
        total += count;
        blocks++;
    }
    ck_assert_int_eq(avrogen_ocf_reader_error(s.r, NULL), AVROGEN_OK);
    ck_assert_uint_eq(blocks, l.n);
    ck_assert_uint_eq(total, 2000);
    source_close(&s);

    /* Mixed with next_datum: skip_block drops the rest of the block being walked. */
    source_open(&s, &m, _i % N_SOURCES);
    avrogen_bytes d;
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(avrogen_ocf_reader_next_datum(s.r, &d), AVROGEN_OK);
        ck_assert_int_eq(rec_index(d), k);
    }
    ck_assert_int_eq(avrogen_ocf_reader_skip_block(s.r, &count), AVROGEN_OK);
    ck_assert_int_eq((int64_t)count, l.count[1]);
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(s.r, &d), AVROGEN_OK);
    ck_assert_int_eq(rec_index(d), l.before[2]);
    source_close(&s);
    membuf_free(&m);
}
END_TEST

START_TEST(skip_records)
{
    const char *codec = codecs[_i / N_SOURCES];
    membuf m = {0};
    write_mem(codec, 2000, 4000, &m);
    layout l;
    get_layout(&m, &l);
    int64_t c0 = l.count[0];
    const int64_t ns[] = {0,    1,    c0 - 1, c0,     c0 + 1, l.before[3], l.before[3] + 2,
                          1999, 2000, 2001,   1 << 20};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        source s;
        source_open(&s, &m, _i % N_SOURCES);
        uint64_t skipped;
        ck_assert_int_eq(avrogen_ocf_reader_skip(s.r, (uint64_t)ns[k], &skipped), AVROGEN_OK);
        int64_t want = ns[k] < 2000 ? ns[k] : 2000;
        ck_assert_int_eq((int64_t)skipped, want);
        avrogen_bytes d;
        ck_assert_int_eq(avrogen_ocf_reader_next_datum(s.r, &d), AVROGEN_OK);
        if (want == 2000)
            ck_assert_ptr_null(d.ptr);
        else
            ck_assert_int_eq(rec_index(d), want);
        source_close(&s);
    }
    /* Successive skips, starting inside a block. */
    source s;
    source_open(&s, &m, _i % N_SOURCES);
    uint64_t a, b;
    ck_assert_int_eq(avrogen_ocf_reader_skip(s.r, 3, &a), AVROGEN_OK);
    ck_assert_int_eq(avrogen_ocf_reader_skip(s.r, (uint64_t)c0 + 5, &b), AVROGEN_OK);
    ck_assert_uint_eq(a + b, (uint64_t)c0 + 8);
    avrogen_bytes d;
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(s.r, &d), AVROGEN_OK);
    ck_assert_int_eq(rec_index(d), c0 + 8);
    source_close(&s);
    membuf_free(&m);
}
END_TEST

START_TEST(raw_block_copy)
{
    const char *codec = codecs[_i];
    membuf a = {0}, b = {0};
    write_mem(codec, 2000, 4000, &a);
    layout l;
    get_layout(&a, &l);

    /* B: three datums of its own, every block of A as it is, one more datum. */
    FILE *f = open_memstream(&b.data, &b.len);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    for (int64_t i = 5000; i < 5003; i++)
        add_rec(w, i);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(a.data, a.len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t count;
    avrogen_reader block;
    size_t blocks = 0;
    while (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK && count != 0) {
        avrogen_bytes p;
        ck_assert(avrogen_ocf_reader_block_payload(r, &p));
        /* The bytes between the block's size and its sync marker. */
        ck_assert_uint_le(p.len + 16, l.end[blocks]);
        ck_assert_mem_eq(p.ptr, a.data + l.end[blocks] - 16 - p.len, p.len);
        if (reading == READ_MEMORY)
            ck_assert_ptr_eq(p.ptr + p.len + 16, (const uint8_t *)a.data + l.end[blocks]);
        if (strcmp(codec, "null") == 0)
            ck_assert(p.ptr == block.start && p.len == avrogen_reader_remaining(&block));
        ck_assert_int_eq(avrogen_ocf_writer_write_block(w, count, p.ptr, p.len), AVROGEN_OK);
        blocks++;
    }
    ck_assert_uint_eq(blocks, l.n);
    avrogen_bytes p;
    ck_assert(!avrogen_ocf_reader_block_payload(r, &p));
    avrogen_ocf_reader_close(r);
    add_rec(w, 6000);
    /* Misuse is refused and leaves the writer usable. */
    ck_assert_int_eq(avrogen_ocf_writer_write_block(w, 0, "", 0), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_ocf_writer_write_block(w, 1, NULL, 1), AVROGEN_E_ARG);
    (void)avrogen_ocf_writer_datum_begin(w);
    ck_assert_int_eq(avrogen_ocf_writer_write_block(w, 1, "x", 1), AVROGEN_E_ARG);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
    fclose(f);

    ck_assert_int_eq(open_bytes(b.data, b.len, NULL, &r, NULL), AVROGEN_OK);
    int64_t want[2004], n = 0;
    for (int64_t i = 5000; i < 5003; i++)
        want[n++] = i;
    for (int64_t i = 0; i < 2000; i++)
        want[n++] = i;
    want[n++] = 6000;
    avrogen_bytes d;
    for (int64_t k = 0; k < n; k++) {
        CHECK_FAST(avrogen_ocf_reader_next_datum(r, &d) == AVROGEN_OK && d.ptr != NULL);
        CHECK_FAST(rec_index(d) == want[k]);
    }
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &d), AVROGEN_OK);
    ck_assert_ptr_null(d.ptr);
    avrogen_ocf_reader_close(r);
    membuf_free(&a);
    membuf_free(&b);
}
END_TEST

/* What reading `m` datum by datum, resyncing after every error, gives. */
typedef struct recovery {
    bool seen[2000];
    int64_t records;
    size_t n_drops;
    uint64_t drop[8][2];
    uint64_t claim[8]; /* the damaged block's count, as its header gives it */
} recovery;

static void recover(const membuf *m, int how, recovery *out)
{
    memset(out, 0, sizeof *out);
    source s;
    source_open(&s, m, how);
    for (;;) {
        avrogen_bytes d;
        if (avrogen_ocf_reader_next_datum(s.r, &d) == AVROGEN_OK) {
            if (d.ptr == NULL)
                break;
            int64_t i = rec_index(d);
            CHECK_FAST(i >= 0 && i < 2000 && !out->seen[i]);
            out->seen[i] = true;
            out->records++;
            continue;
        }
        ck_assert_uint_lt(out->n_drops, 8);
        out->claim[out->n_drops] = avrogen_ocf_reader_block_count(s.r);
        uint64_t *drop = out->drop[out->n_drops++];
        ck_assert_int_eq(avrogen_ocf_reader_resync(s.r, &drop[0], &drop[1]), AVROGEN_OK);
        ck_assert_uint_gt(drop[1], drop[0]);
        ck_assert_uint_eq(avrogen_ocf_reader_position(s.r), drop[1]);
    }
    ck_assert_int_eq(avrogen_ocf_reader_error(s.r, NULL), AVROGEN_OK);
    source_close(&s);
}

/* Every record is back except those of blocks [lo, hi), and `drops` ranges were dropped. */
static void expect_recovered(const recovery *got, const layout *l, size_t lo, size_t hi)
{
    for (size_t b = 0; b < l->n; b++) {
        bool lost = b >= lo && b < hi;
        for (int64_t k = 0; k < l->count[b]; k++)
            ck_assert_msg(got->seen[l->before[b] + k] != lost, "block %zu record %lld", b,
                          (long long)k);
    }
}

/* Damage of every kind to a middle block (and the last), from every source. */
START_TEST(resync_after_damage)
{
    const char *codec = codecs[_i / N_SOURCES];
    int how = _i % N_SOURCES;
    membuf m = {0};
    write_mem(codec, 2000, 4000, &m);
    layout l;
    get_layout(&m, &l);
    ck_assert_uint_ge(l.n, 8);
    const size_t k = 4, last = l.n - 1;
    recovery got;

    /* Nothing wrong: nothing to do. */
    recover(&m, how, &got);
    ck_assert_int_eq(got.records, 2000);
    ck_assert_uint_eq(got.n_drops, 0);

    /* A count one too high: the framing holds, the datums run out. */
    avrogen_reader hr;
    avrogen_reader_init(&hr, m.data + l.start[k], 10);
    int64_t count = avrogen_read_long(&hr);
    ck_assert_int_eq(count, l.count[k]);
    size_t count_len = avrogen_reader_offset(&hr);
    char saved[16];
    memcpy(saved, m.data + l.start[k], count_len);
    avrogen_writer cw;
    avrogen_writer_init_fixed(&cw, m.data + l.start[k], count_len);
    avrogen_write_long(&cw, count + 1);
    ck_assert_int_eq(cw.err, AVROGEN_OK);
    recover(&m, how, &got);
    memcpy(m.data + l.start[k], saved, count_len);
    ck_assert_uint_eq(got.n_drops, 1);
    ck_assert_uint_eq(got.drop[0][0], l.start[k]);
    ck_assert_uint_eq(got.drop[0][1], l.end[k]);
    ck_assert_int_eq(got.records, 2000); /* the block's datums came out before the damage showed */
    ck_assert_int_eq((int64_t)got.claim[0], count + 1);

    /* A damaged sync marker: that block only, the next one is found where it starts. */
    const size_t marked[] = {k, last};
    for (size_t j = 0; j < 2; j++) {
        size_t b = marked[j];
        m.data[l.end[b] - 7] ^= 0x10;
        recover(&m, how, &got);
        m.data[l.end[b] - 7] ^= 0x10;
        ck_assert_uint_eq(got.n_drops, 1);
        ck_assert_uint_eq(got.drop[0][0], l.start[b]);
        ck_assert_uint_eq(got.drop[0][1], l.end[b]);
        expect_recovered(&got, &l, b, b + 1);
    }

    /* A damaged size (one byte longer): the marker is not where it says; the scan finds it. */
    avrogen_reader_init(&hr, m.data + l.start[k], 20);
    (void)avrogen_read_long(&hr);
    size_t size_at = avrogen_reader_offset(&hr);
    int64_t size = avrogen_read_long(&hr);
    size_t size_len = avrogen_reader_offset(&hr) - size_at;
    memcpy(saved, m.data + l.start[k] + size_at, size_len);
    avrogen_writer_init_fixed(&cw, m.data + l.start[k] + size_at, size_len);
    avrogen_write_long(&cw, size + 1);
    ck_assert_int_eq(cw.err, AVROGEN_OK);
    recover(&m, how, &got);
    memcpy(m.data + l.start[k] + size_at, saved, size_len);
    ck_assert_uint_eq(got.n_drops, 1);
    ck_assert_int_eq((int64_t)got.claim[0], count);
    ck_assert_uint_eq(got.drop[0][0], l.start[k]);
    ck_assert_uint_eq(got.drop[0][1], l.end[k]);
    expect_recovered(&got, &l, k, k + 1);

    /* An overlong count varint: the header is unreadable; the scan finds the block's marker. */
    memcpy(saved, m.data + l.start[k], 1);
    m.data[l.start[k]] = (char)0xff;
    recover(&m, how, &got);
    m.data[l.start[k]] = saved[0];
    ck_assert_uint_ge(got.n_drops, 1);
    ck_assert_uint_eq(got.claim[0], 0);
    ck_assert_uint_eq(got.drop[0][0], l.start[k]);
    ck_assert_uint_eq(got.drop[got.n_drops - 1][1], l.end[k]);
    expect_recovered(&got, &l, k, k + 1);

    /* Garbage between two blocks: only it is dropped (issue 26: the second block was lost). */
    membuf g = {0};
    g.len = m.len + 100;
    g.data = malloc(g.len);
    memcpy(g.data, m.data, l.end[k]);
    for (size_t i = 0; i < 100; i++)
        g.data[l.end[k] + i] = (char)(i * 37 + 11);
    memcpy(g.data + l.end[k] + 100, m.data + l.end[k], m.len - l.end[k]);
    recover(&g, how, &got);
    ck_assert_uint_ge(got.n_drops, 1);
    ck_assert_uint_eq(got.drop[0][0], l.end[k]);
    ck_assert_uint_eq(got.drop[got.n_drops - 1][1], l.end[k] + 100);
    expect_recovered(&got, &l, k + 1, k + 1);
    ck_assert_int_eq(got.records, 2000);
    membuf_free(&g);

    /* Cut inside a block: everything before it, then the end of the file. */
    membuf t = {0};
    t.len = (l.start[k] + l.end[k]) / 2;
    t.data = malloc(t.len);
    memcpy(t.data, m.data, t.len);
    recover(&t, how, &got);
    ck_assert_uint_eq(got.n_drops, 1);
    ck_assert_uint_eq(got.drop[0][0], l.start[k]);
    ck_assert_uint_eq(got.drop[0][1], t.len);
    expect_recovered(&got, &l, k, l.n);
    membuf_free(&t);
    membuf_free(&m);
}
END_TEST

START_TEST(resync_refuses_what_is_no_damage)
{
    membuf m = {0};
    write_mem("null", 100, 0, &m);
    avrogen_ocf_reader *r;
    ck_assert_int_eq(open_bytes(m.data, m.len, NULL, &r, NULL), AVROGEN_OK);
    uint64_t from = 1, to = 2;
    ck_assert_int_eq(avrogen_ocf_reader_resync(r, &from, &to), AVROGEN_OK);
    ck_assert_uint_eq(from, to);
    /* A reader schema the file's cannot be resolved into: that stays. */
    avrogen_schema *other;
    const char *text = "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"id\", "
                       "\"type\": \"string\"}]}";
    ck_assert_int_eq(avrogen_schema_parse(text, strlen(text), NULL, &other, NULL), AVROGEN_OK);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_value v;
    bool got;
    ck_assert_int_eq(avrogen_ocf_reader_next_value(r, avrogen_schema_root(other), &v, &arena, &got),
                     AVROGEN_E_MISMATCH);
    ck_assert_int_eq(avrogen_ocf_reader_resync(r, NULL, NULL), AVROGEN_E_MISMATCH);
    ck_assert_int_eq(avrogen_ocf_reader_error(r, NULL), AVROGEN_E_MISMATCH);
    avrogen_arena_fini(&arena);
    avrogen_schema_free(other);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
}
END_TEST

/* ---- mapped files ---------------------------------------------------------------- */

/* Read `len` bytes at `data` one way (`reading`) datum by datum. */
static scan_result scan_way(enum reading way, const void *data, size_t len)
{
    enum reading was = reading;
    reading = way;
    scan_result s = scan(data, len);
    reading = was;
    return s;
}

/* The bytes read from memory, from a file and from a mapping: the same records, status, message. */
static scan_result scan_every_way(const void *data, size_t len)
{
    scan_result m = scan_way(READ_MEMORY, data, len);
    for (enum reading way = READ_PATH; way <= READ_MAPPED; way++) {
        scan_result s = scan_way(way, data, len);
        ck_assert_int_eq(s.open_st, m.open_st);
        ck_assert_int_eq(s.st, m.st);
        ck_assert_int_eq(s.records, m.records);
        ck_assert_uint_eq(s.diag.offset, m.diag.offset);
        ck_assert_str_eq(s.diag.msg, m.diag.msg);
    }
    return m;
}

/* Write a file of records [0, n) at `path` through the writer. */
static void write_path(const char *path, const char *codec, int64_t n, size_t block_size)
{
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.block_size = block_size;
    avrogen_ocf_writer *w;
    ck_assert_int_eq(avrogen_ocf_writer_open(path, rec_schema, strlen(rec_schema), &o, &w, NULL),
                     AVROGEN_OK);
    for (int64_t i = 0; i < n; i++)
        add_rec(w, i);
    ck_assert_int_eq(avrogen_ocf_writer_close(w, NULL), AVROGEN_OK);
}

/*
 * What cannot be mapped is read instead, silently, with the same results: an
 * empty file, a character device, a FIFO (open_path checks that none of them
 * is mapped, and that a regular file is).
 */
START_TEST(mapped_falls_back)
{
    make_tmpdir();
    const char *empty = tmp_path("empty.avro");
    FILE *f = fopen(empty, "wb");
    ck_assert_int_eq(fclose(f), 0);
    const char *paths[] = {empty, "/dev/null"};
    for (size_t k = 0; k < 2; k++) {
        avrogen_ocf_reader *r;
        avrogen_diag d, dr;
        ck_assert_int_eq(open_path(paths[k], NULL, &r, &d), AVROGEN_E_TRUNCATED);
        ck_assert_ptr_null(r);
        ck_assert_int_eq(avrogen_ocf_reader_open(paths[k], NULL, &r, &dr), AVROGEN_E_TRUNCATED);
        ck_assert_uint_eq(d.offset, 0);
        ck_assert_str_eq(d.msg, dr.msg);
    }

    membuf m = {0};
    write_mem("null", 1000, 2000, &m);
    const char *fifo = tmp_path("fifo.avro");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        FILE *out = fopen(fifo, "wb");
        _exit(out != NULL && fwrite(m.data, 1, m.len, out) == m.len && fclose(out) == 0 ? 0 : 1);
    }
    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_int_eq(open_path(fifo, NULL, &r, &d), AVROGEN_OK);
    ck_assert(!avrogen_ocf_reader_mapped(r, NULL));
    uint64_t blocks;
    ck_assert_int_eq(read_blocks_checked(r, 0, &blocks), 1000);
    avrogen_ocf_reader_close(r);
    int status;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    const char *regular = tmp_path("regular.avro");
    write_path(regular, "null", 10, 0);
    ck_assert_int_eq(open_path(regular, NULL, &r, &d), AVROGEN_OK);
    avrogen_bytes range;
    ck_assert(avrogen_ocf_reader_mapped(r, &range));
    ck_assert_uint_eq(range.len, (size_t)file_size(regular));
    ck_assert_mem_eq(range.ptr, "Obj\x01", 4);
    avrogen_ocf_reader_close(r);
    membuf_free(&m);
    remove_tmpdir();
}
END_TEST

/* Lengths that run past the mapping's end are E_TRUNCATED at their block, as read. */
START_TEST(mapped_block_past_end)
{
    uint8_t rec[128];
    size_t n = rec_bytes(1, rec, sizeof rec);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    put_header(&w, rec_schema, NULL);
    put_block(&w, 1, rec, n);
    size_t second = avrogen_writer_len(&w);
    /* A block claiming 1000 bytes with 10 of them there, then nothing. */
    avrogen_write_long(&w, 3);
    avrogen_write_long(&w, 1000);
    avrogen_write_raw(&w, rec, 10);
    scan_result s = scan_every_way(avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(s.st, AVROGEN_E_TRUNCATED);
    ck_assert_int_eq(s.records, 1);
    ck_assert_uint_eq(s.diag.offset, second);
    avrogen_writer_fini(&w);

    /* Every cut of a file of several blocks, and of its last block's size varint. */
    membuf m = {0};
    write_mem("null", 40, 300, &m);
    layout l;
    get_layout(&m, &l);
    for (size_t k = 0; k < l.n; k++) {
        for (size_t cut = l.start[k]; cut < l.start[k] + 3 && cut < m.len; cut++) {
            s = scan_every_way(m.data, cut);
            ck_assert_int_eq(s.records, l.before[k]);
        }
        s = scan_every_way(m.data, l.end[k] - 1);
        ck_assert_int_eq(s.st, AVROGEN_E_TRUNCATED);
        ck_assert_uint_eq(s.diag.offset, l.start[k]);
    }
    membuf_free(&m);
}
END_TEST

/* The process's resident pages of mapped files, from /proc/self/status (RssFile, kB). */
static long rss_file_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    ck_assert_ptr_nonnull(f);
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "RssFile: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    ck_assert_int_ge(kb, 0);
    return kb;
}

/*
 * Reading a large mapped file keeps few of its pages resident (the reader
 * gives back what lies behind it), and a view into an early block still holds
 * its bytes after the reader has moved on (until close).
 */
START_TEST(mapped_views_and_resident_size)
{
    make_tmpdir();
    const char *path = tmp_path("large.avro");
    write_path(path, "null", 1500000, 64000);
    long size = file_size(path);
    ck_assert_int_gt(size, 48L << 20);

    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_int_eq(open_path(path, NULL, &r, &d), AVROGEN_OK);
    avrogen_bytes range;
    ck_assert(avrogen_ocf_reader_mapped(r, &range));
    long base = rss_file_kb(), peak = base;
    avrogen_bytes first;
    ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &first), AVROGEN_OK);
    ck_assert(first.ptr > range.ptr && first.ptr + first.len < range.ptr + range.len);
    uint8_t want[128];
    size_t n = rec_bytes(0, want, sizeof want);
    ck_assert_uint_eq(first.len, n);
    int64_t records = 1;
    avrogen_bytes v;
    while (avrogen_ocf_reader_next_datum(r, &v) == AVROGEN_OK && v.ptr != NULL) {
        CHECK_FAST(rec_index(v) == records);
        if (++records % 20000 == 0) {
            long now = rss_file_kb();
            peak = now > peak ? now : peak;
        }
    }
    ck_assert_int_eq(avrogen_ocf_reader_error(r, &d), AVROGEN_OK);
    ck_assert_int_eq(records, 1500000);
    /* 8 MiB behind, 8 MiB ahead and the block being read, well under the file. */
    ck_assert_msg(peak - base < 24L << 10, "RssFile grew by %ld kB reading %ld bytes", peak - base,
                  size);
    ck_assert_mem_eq(first.ptr, want, n);
    avrogen_ocf_reader_close(r);
    remove_tmpdir();
}
END_TEST

/*
 * The contract of opts.map: a mapped file truncated under the reader raises
 * SIGBUS in the caller, whose business it is; the library installs no
 * handler. The child resets SIGBUS to its default first (ASan has its own).
 */
START_TEST(mapped_truncation_is_the_callers)
{
    make_tmpdir();
    const char *path = tmp_path("shrinking.avro");
    write_path(path, "null", 100000, 64000);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        signal(SIGBUS, SIG_DFL);
        avrogen_ocf_reader *r;
        avrogen_bytes v;
        if (open_path(path, NULL, &r, NULL) != AVROGEN_OK || !avrogen_ocf_reader_mapped(r, NULL) ||
            avrogen_ocf_reader_next_datum(r, &v) != AVROGEN_OK)
            _exit(2);
        struct sigaction now;
        if (sigaction(SIGBUS, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
            _exit(3);
        if (truncate(path, 200) != 0)
            _exit(4);
        while (avrogen_ocf_reader_next_datum(r, &v) == AVROGEN_OK && v.ptr != NULL)
            ;
        _exit(5);
    }
    int status;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "child status %#x", status);
    remove_tmpdir();
}
END_TEST

/*
 * The cases that read files, each way the suite reads them (`reading`): from
 * memory, then from a file by path, read and mapped, under names ending in
 * "-path" and "-mapped". Cases that go through the ways themselves
 * (truncated_everywhere, truncated_while_open, the streaming one) run once.
 */
static TCase *reader_tcase(Suite *s, const char *name, void (*setup)(void))
{
    TCase *tc = tcase_create(name);
    if (setup != NULL)
        tcase_add_checked_fixture(tc, setup, remove_bytes_dir);
    suite_add_tcase(s, tc);
    return tc;
}

static void add_reader_cases(Suite *s, enum reading way)
{
    static const char *const names[][4] = {
            {"roundtrip", "hostile", "values", "raw"},
            {"roundtrip-path", "hostile-path", "values-path", "raw-path"},
            {"roundtrip-mapped", "hostile-mapped", "values-mapped", "raw-mapped"},
    };
    static void (*const setups[])(void) = {NULL, read_from_path, read_mapped};
    void (*setup)(void) = setups[way];
    TCase *tc = reader_tcase(s, names[way][0], setup);
    tcase_add_loop_test(tc, roundtrip_codec, 0, N_CODECS);
    tcase_add_test(tc, roundtrip_path_and_levels);
    tcase_add_test(tc, zero_byte_datums);
    tcase_add_test(tc, fanout_schema_linear);
    tcase_add_test(tc, empty_file_and_zero_copy);
    tcase_add_test(tc, metadata_and_sync);

    tc = reader_tcase(s, names[way][1], setup);
    if (setup == NULL) {
        tcase_add_loop_test(tc, truncated_everywhere, 0, N_CODECS);
        tcase_add_loop_test(tc, truncated_while_open, 0, N_CODECS);
    }
    tcase_add_loop_test(tc, corrupt_sync_markers, 0, N_CODECS);
    tcase_add_loop_test(tc, corrupt_block_headers, 0, N_CODECS);
    tcase_add_loop_test(tc, corrupt_payloads, 0, N_CODECS);
    tcase_add_test(tc, bad_magic);
    tcase_add_test(tc, lying_metadata);
    tcase_add_test(tc, header_contents);
    tcase_add_test(tc, lying_blocks);
    tcase_add_test(tc, deflate_trailer);
    tcase_add_test(tc, corrupt_snappy);
    tcase_add_test(tc, deflate_growth);
    tcase_add_loop_test(tc, decompression_bomb, 0, N_CODECS - 1);

    tc = reader_tcase(s, names[way][2], setup);
    tcase_add_loop_test(tc, values_resolved, 0, N_CODECS);
    tcase_add_test(tc, values_mixed_readers);
    tcase_add_test(tc, values_schema_mismatch);
    tcase_add_test(tc, values_datum_errors);
    tcase_add_loop_test(tc, values_in_place_errors, 0, 2);
    tcase_add_loop_test(tc, values_truncated_everywhere, 0, N_CODECS);
    tcase_add_loop_test(tc, json_datums, 0, N_CODECS);

    tc = reader_tcase(s, names[way][3], setup);
    tcase_add_loop_test(tc, skip_block_counts, 0, N_CODECS * N_SOURCES);
    tcase_add_loop_test(tc, skip_records, 0, N_CODECS * N_SOURCES);
    tcase_add_loop_test(tc, raw_block_copy, 0, N_CODECS);
    tcase_add_loop_test(tc, resync_after_damage, 0, N_CODECS * N_SOURCES);
    tcase_add_test(tc, resync_refuses_what_is_no_damage);
}

static Suite *ocf_suite(void)
{
    Suite *s = suite_create("ocf");
    add_reader_cases(s, READ_MEMORY);
    add_reader_cases(s, READ_PATH);
    add_reader_cases(s, READ_MAPPED);

    TCase *tc = tcase_create("writer");
    tcase_add_test(tc, writer_rejects_bad_options);
    tcase_add_test(tc, failed_datum_is_dropped);
    tcase_add_loop_test(tc, flush_ends_a_block, 0, N_CODECS);
    tcase_add_test(tc, flush_inside_a_datum);
    tcase_add_loop_test(tc, append_blocks, 0, N_CODECS);
    suite_add_tcase(s, tc);

    tc = tcase_create("faults");
    tcase_add_loop_test(tc, writer_alloc_failures, 0, N_CODECS);
    tcase_add_loop_test(tc, reader_alloc_failures, 0, N_CODECS);
    tcase_add_test(tc, append_alloc_failures);
    tcase_add_loop_test(tc, values_alloc_failures, 0, N_CODECS);
    suite_add_tcase(s, tc);

    tc = tcase_create("mapped");
    tcase_add_checked_fixture(tc, read_mapped, remove_bytes_dir);
    tcase_add_test(tc, mapped_falls_back);
    tcase_add_test(tc, mapped_block_past_end);
    tcase_add_test(tc, mapped_views_and_resident_size);
    tcase_add_test(tc, mapped_truncation_is_the_callers);
    suite_add_tcase(s, tc);

    tc = tcase_create("streaming");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, streaming_bounded_memory, 0, N_CODECS);
    suite_add_tcase(s, tc);
    tc = tcase_create("streaming-mapped");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, read_mapped, remove_bytes_dir);
    tcase_add_loop_test(tc, streaming_bounded_memory, 0, N_CODECS);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ocf_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
