/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Container files with worker threads (the `threads` option of ocf.h): the
 * writer's file is byte for byte the one-thread writer's for every codec and a
 * few levels, across many small blocks, a flush in the middle and close; the
 * reader hands back the same datums from memory, a stream and a mapping, and
 * fails a damaged block at the same place with the same message. Built also
 * under ThreadSanitizer by scripts/test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <unistd.h>

#include "avrogen/ocf.h"

#include "testutil.h"

static const char *const codecs[] = {"null", "deflate", "snappy", "zstandard", "xz", "bzip2"};
#define N_CODECS ((int)(sizeof codecs / sizeof codecs[0]))

static const char rec_schema[] =
        "{\"type\": \"record\", \"name\": \"R\", \"fields\": ["
        "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"name\", \"type\": \"string\"}]}";

static const uint8_t sync16[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

#define N_RECS 3000

typedef struct membuf {
    char *data;
    size_t len;
} membuf;

static void encode_rec(avrogen_writer *w, int64_t i)
{
    char name[64];
    int n = snprintf(name, sizeof name, "record-%lld-%.*s", (long long)i, (int)(i % 23),
                     "abcdefghijklmnopqrstuvwxyz");
    avrogen_write_long(w, i * 7919 - 1000000);
    avrogen_write_string(w, name, (size_t)n);
}

/* N_RECS records through `threads` workers, a flush after record 1000. */
static void write_mem(const char *codec, int level, unsigned threads, membuf *out)
{
    FILE *f = open_memstream(&out->data, &out->len);
    ck_assert_ptr_nonnull(f);
    avrogen_ocf_writer_options o = {0};
    o.codec = codec;
    o.level = level;
    o.block_size = 700;
    o.sync = sync16;
    o.threads = threads;
    avrogen_ocf_writer *w;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, &d),
                     AVROGEN_OK);
    for (int64_t i = 0; i < N_RECS; i++) {
        encode_rec(avrogen_ocf_writer_datum_begin(w), i);
        ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
        if (i == 1000)
            ck_assert_int_eq(avrogen_ocf_writer_flush(w, false), AVROGEN_OK);
    }
    ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
    ck_assert_int_eq(fclose(f), 0);
}

/* ---- writer ----------------------------------------------------------------- */

static const int levels[][3] = {
        {0, 0, 0}, /* null */
        {0, 1, 9}, /* deflate */
        {0, 0, 0}, /* snappy */
        {0, 1, 19}, {0, 1, 9}, {0, 1, 9},
};

START_TEST(test_writer_identical)
{
    const char *codec = codecs[_i];
    for (int l = 0; l < 3; l++) {
        membuf one = {0};
        write_mem(codec, levels[_i][l], 1, &one);
        for (unsigned t = 2; t <= 4; t += 2) {
            membuf many = {0};
            write_mem(codec, levels[_i][l], t, &many);
            ck_assert_msg(many.len == one.len && memcmp(many.data, one.data, one.len) == 0,
                          "%s level %d, %u threads: %zu bytes, not the %zu of one thread", codec,
                          levels[_i][l], t, many.len, one.len);
            free(many.data);
        }
        free(one.data);
    }
}
END_TEST

/* A datum left open across a flush stays for the next block, threads or not. */
START_TEST(test_writer_flush_open_datum)
{
    membuf out[2] = {{0}, {0}};
    for (int k = 0; k < 2; k++) {
        FILE *f = open_memstream(&out[k].data, &out[k].len);
        avrogen_ocf_writer_options o = {.codec = "deflate", .block_size = 300, .sync = sync16};
        o.threads = k == 0 ? 1 : 3;
        avrogen_ocf_writer *w;
        avrogen_diag d;
        ck_assert_int_eq(
                avrogen_ocf_writer_open_file(f, rec_schema, strlen(rec_schema), &o, &w, &d),
                AVROGEN_OK);
        for (int64_t i = 0; i < 500; i++) {
            encode_rec(avrogen_ocf_writer_datum_begin(w), i);
            if (i % 97 == 0)
                ck_assert_int_eq(avrogen_ocf_writer_flush(w, false), AVROGEN_OK);
            ck_assert_int_eq(avrogen_ocf_writer_datum_end(w), AVROGEN_OK);
        }
        ck_assert_int_eq(avrogen_ocf_writer_close(w, &d), AVROGEN_OK);
        fclose(f);
    }
    ck_assert_uint_eq(out[0].len, out[1].len);
    ck_assert_mem_eq(out[0].data, out[1].data, out[0].len);
    free(out[0].data);
    free(out[1].data);
}
END_TEST

/* ---- reader ----------------------------------------------------------------- */

enum { FROM_MEMORY, FROM_STREAM, FROM_MAPPING };

typedef struct outcome {
    avrogen_status st;
    avrogen_diag diag;
    uint64_t datums;
    uint64_t sum; /* of every datum's bytes, weighted by position */
} outcome;

static avrogen_ocf_reader *open_in(int how, const membuf *m, unsigned threads, FILE **f, char *path)
{
    avrogen_ocf_reader_options o = {0};
    o.threads = threads;
    avrogen_ocf_reader *r = NULL;
    avrogen_diag d;
    *f = NULL;
    if (how == FROM_MEMORY) {
        ck_assert_int_eq(avrogen_ocf_reader_open_memory(m->data, m->len, &o, &r, &d), AVROGEN_OK);
    } else if (how == FROM_STREAM) {
        *f = fmemopen(m->data, m->len, "rb");
        ck_assert_ptr_nonnull(*f);
        ck_assert_int_eq(avrogen_ocf_reader_open_file(*f, &o, &r, &d), AVROGEN_OK);
    } else {
        strcpy(path, "/tmp/avrogen-ocf-threads-XXXXXX");
        int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, m->data, m->len), (ssize_t)m->len);
        close(fd);
        o.map = true;
        ck_assert_int_eq(avrogen_ocf_reader_open(path, &o, &r, &d), AVROGEN_OK);
    }
    return r;
}

static outcome read_all(int how, const membuf *m, unsigned threads)
{
    FILE *f;
    char path[64] = "";
    avrogen_ocf_reader *r = open_in(how, m, threads, &f, path);
    outcome o;
    memset(&o, 0, sizeof o);
    avrogen_bytes datum;
    while ((o.st = avrogen_ocf_reader_next_datum(r, &datum)) == AVROGEN_OK && datum.ptr != NULL) {
        o.datums++;
        for (size_t i = 0; i < datum.len; i++)
            o.sum = o.sum * 31 + datum.ptr[i];
    }
    avrogen_ocf_reader_error(r, &o.diag);
    avrogen_ocf_reader_close(r);
    if (f != NULL)
        fclose(f);
    if (path[0] != '\0')
        unlink(path);
    return o;
}

static void same_outcome(const outcome *a, const outcome *b, const char *what)
{
    ck_assert_msg(a->st == b->st, "%s: status %d, not %d", what, b->st, a->st);
    ck_assert_msg(a->datums == b->datums, "%s: %llu datums, not %llu", what,
                  (unsigned long long)b->datums, (unsigned long long)a->datums);
    ck_assert_msg(a->sum == b->sum, "%s: other datums", what);
    ck_assert_msg(a->diag.offset == b->diag.offset, "%s: offset %zu, not %zu", what, b->diag.offset,
                  a->diag.offset);
    ck_assert_str_eq(a->diag.msg, b->diag.msg);
}

START_TEST(test_reader_same)
{
    membuf m = {0};
    write_mem(codecs[_i], 0, 1, &m);
    for (int how = FROM_MEMORY; how <= FROM_MAPPING; how++) {
        outcome one = read_all(how, &m, 1);
        ck_assert_int_eq(one.st, AVROGEN_OK);
        ck_assert_uint_eq(one.datums, N_RECS);
        for (unsigned t = 2; t <= 4; t += 2) {
            outcome many = read_all(how, &m, t);
            same_outcome(&one, &many, codecs[_i]);
        }
    }
    free(m.data);
}
END_TEST

/* Offsets of the blocks of m, read on one thread. */
static size_t block_offsets(const membuf *m, uint64_t *at, size_t cap)
{
    avrogen_ocf_reader *r;
    avrogen_diag d;
    ck_assert_int_eq(avrogen_ocf_reader_open_memory(m->data, m->len, NULL, &r, &d), AVROGEN_OK);
    size_t n = 0;
    uint64_t count;
    avrogen_reader block;
    while (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK && count != 0 && n < cap)
        at[n++] = avrogen_ocf_reader_block_offset(r);
    avrogen_ocf_reader_close(r);
    return n;
}

/* The payload of the block in the middle overwritten: the same failure at the same block. */
START_TEST(test_reader_damaged_block)
{
    membuf m = {0};
    write_mem(codecs[_i], 0, 1, &m);
    uint64_t at[512];
    size_t n = block_offsets(&m, at, 512);
    ck_assert_uint_gt(n, 10);
    uint64_t mid = at[n / 2];
    /* Skip the block header (two varints), keep the sync marker. */
    size_t p = (size_t)mid;
    for (int k = 0; k < 2; k++) {
        while ((uint8_t)m.data[p] & 0x80)
            p++;
        p++;
    }
    size_t end = (size_t)at[n / 2 + 1] - 16;
    memset(m.data + p, 0xff, end - p);
    for (int how = FROM_MEMORY; how <= FROM_MAPPING; how++) {
        outcome one = read_all(how, &m, 1);
        ck_assert_int_ne(one.st, AVROGEN_OK);
        ck_assert_uint_eq(one.diag.offset, mid);
        for (unsigned t = 2; t <= 4; t += 2) {
            outcome many = read_all(how, &m, t);
            same_outcome(&one, &many, codecs[_i]);
        }
    }
    free(m.data);
}
END_TEST

/* A flipped sync marker (framing) after many blocks: the threads change nothing either. */
START_TEST(test_reader_bad_sync)
{
    membuf m = {0};
    write_mem("zstandard", 0, 1, &m);
    uint64_t at[512];
    size_t n = block_offsets(&m, at, 512);
    ck_assert_uint_gt(n, 10);
    m.data[at[n - 3] - 5] ^= 0x40;
    for (int how = FROM_MEMORY; how <= FROM_MAPPING; how++) {
        outcome one = read_all(how, &m, 1);
        ck_assert_int_eq(one.st, AVROGEN_E_INVALID);
        outcome many = read_all(how, &m, 4);
        same_outcome(&one, &many, "bad sync");
    }
    free(m.data);
}
END_TEST

/* A skip over whole blocks between datums, then reading on: the queue follows. */
START_TEST(test_reader_skip)
{
    membuf m = {0};
    write_mem("deflate", 0, 1, &m);
    for (int how = FROM_MEMORY; how <= FROM_STREAM; how++) {
        uint64_t sums[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            FILE *f;
            char path[64] = "";
            avrogen_ocf_reader *r = open_in(how, &m, k == 0 ? 1 : 4, &f, path);
            avrogen_bytes datum;
            uint64_t skipped;
            for (int i = 0; i < 200; i++) {
                ck_assert_int_eq(avrogen_ocf_reader_next_datum(r, &datum), AVROGEN_OK);
                for (size_t j = 0; j < datum.len; j++)
                    sums[k] = sums[k] * 31 + datum.ptr[j];
                if (i % 50 == 49)
                    ck_assert_int_eq(avrogen_ocf_reader_skip(r, 300, &skipped), AVROGEN_OK);
            }
            avrogen_ocf_reader_close(r);
            if (f != NULL)
                fclose(f);
        }
        ck_assert_uint_eq(sums[0], sums[1]);
    }
    free(m.data);
}
END_TEST

static Suite *ocf_threads_suite(void)
{
    Suite *s = suite_create("ocf_threads");
    TCase *tc = tcase_create("writer");
    tcase_add_loop_test(tc, test_writer_identical, 0, N_CODECS);
    tcase_add_test(tc, test_writer_flush_open_datum);
    suite_add_tcase(s, tc);
    tc = tcase_create("reader");
    tcase_add_loop_test(tc, test_reader_same, 0, N_CODECS);
    tcase_add_loop_test(tc, test_reader_damaged_block, 0, N_CODECS);
    tcase_add_test(tc, test_reader_bad_sync);
    tcase_add_test(tc, test_reader_skip);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ocf_threads_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
