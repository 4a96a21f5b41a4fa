/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: `avrogen repair` (cli/repair.c, repair_blocks) keeps every
 * intact block. Known files of a dozen small blocks, one per codec, are built
 * in memory once, with a fixed sync marker; the input chooses a file and a
 * place between two of its blocks (after the header, or after the last block)
 * and is the damage put there. Repair runs on memory into memory, and the
 * target aborts when an intact block is lost or altered: every block of the
 * file must be kept, where it now lies, in order, and the output must hold
 * exactly the kept blocks as stored. Blocks the damage forms are kept too
 * when they decode; a block that starts in the damage and reaches into the
 * intact ones is allowed only for codecs without a check (null, deflate,
 * zstandard): damage can forge a header over the next block's bytes there, a
 * case no reader can tell from data (DESIGN.md, resync), while with snappy's
 * CRC, xz and bzip2 it cannot. The report's ranges must tile what was not
 * kept.
 *
 * Input: byte 0 picks the codec, byte 1 the place; the rest is the damage
 * (at most 4 KiB), in which the two bytes F5 00 stand for a copy of the sync
 * marker and F5 01 for the header of the block that follows (the seeds in
 * corpus/repair use both).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/gencode.h"
#include "avrogen/ocf.h"

#include "repair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_BLOCKS 64
#define MAX_DAMAGE 4096

static const char schema[] =
        "{\"type\": \"record\", \"name\": \"R\", \"fields\": ["
        "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"s\", \"type\": \"string\"}, "
        "{\"name\": \"tags\", \"type\": {\"type\": \"array\", \"items\": \"string\"}}, "
        "{\"name\": \"u\", \"type\": [\"null\", \"double\"]}]}";

static const uint8_t sync_marker[16] = {0x5a, 0x17, 0xc3, 0x88, 0x01, 0xfe, 0x42, 0x9d,
                                        0x00, 0x33, 0x7c, 0xe1, 0x80, 0x0f, 0x66, 0xb4};

static const char *const codecs[] = {"snappy", "null", "deflate", "zstandard", "xz", "bzip2"};
#define N_CODECS (sizeof codecs / sizeof *codecs)

/* A known file: its bytes and its blocks' [start, end) (end after the marker). */
typedef struct known {
    const char *codec;
    bool checked; /* its codec has a check that damage cannot forge */
    int level;    /* 1 where the codec takes levels: the cheapest to set up */
    char *bytes;
    size_t len;
    size_t n_blocks;
    size_t start[MAX_BLOCKS], end[MAX_BLOCKS], hdr[MAX_BLOCKS];
    uint64_t count[MAX_BLOCKS];
} known;

static known files[N_CODECS];
static size_t n_files;

static void build(known *k, const char *codec)
{
    FILE *f = open_memstream(&k->bytes, &k->len);
    if (f == NULL)
        abort();
    /* Level 1 where there are levels: xz's and bzip2's decoders then allocate least a block. */
    int lo = 0, hi = 0;
    k->level = avrogen_ocf_codec_levels(codec, &lo, &hi) && lo <= 1 && hi >= 1 ? 1 : 0;
    avrogen_ocf_writer_options o = {
            .codec = codec, .level = k->level, .block_size = 160, .sync = sync_marker};
    avrogen_ocf_writer *w;
    if (avrogen_ocf_writer_open_file(f, schema, strlen(schema), &o, &w, NULL) != AVROGEN_OK)
        abort();
    static const char *const words[] = {"alpha", "b\xc3\xa9ta", "\xe6\x97\xa5\xe6\x9c\xac", "",
                                        "x"};
    for (int i = 0; i < 120; i++) {
        avrogen_writer *d = avrogen_ocf_writer_datum_begin(w);
        const char *s = words[i % 5];
        avrogen_write_long(d, (int64_t)i * 7919 - 1000);
        avrogen_write_string(d, s, strlen(s));
        avrogen_write_long(d, i % 3);
        for (int j = 0; j < i % 3; j++)
            avrogen_write_string(d, words[(i + j) % 5], strlen(words[(i + j) % 5]));
        if (i % 3 != 0)
            avrogen_write_long(d, 0);
        avrogen_write_long(d, i % 2);
        if (i % 2)
            avrogen_write_double(d, i * 0.5);
        if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK)
            abort();
    }
    if (avrogen_ocf_writer_close(w, NULL) != AVROGEN_OK || fclose(f) != 0)
        abort();
    /* The blocks, by the framing. */
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open_memory(k->bytes, k->len, NULL, &r, NULL) != AVROGEN_OK)
        abort();
    for (;;) {
        uint64_t n;
        avrogen_reader b;
        if (avrogen_ocf_reader_next_block(r, &n, &b) != AVROGEN_OK)
            abort();
        if (n == 0)
            break;
        if (k->n_blocks == MAX_BLOCKS)
            abort();
        avrogen_bytes payload;
        if (!avrogen_ocf_reader_block_payload(r, &payload))
            abort();
        size_t i = k->n_blocks++;
        k->start[i] = (size_t)avrogen_ocf_reader_block_offset(r);
        k->end[i] = (size_t)avrogen_ocf_reader_position(r);
        k->hdr[i] = (size_t)((const char *)payload.ptr - k->bytes) - k->start[i];
        k->count[i] = n;
    }
    avrogen_ocf_reader_close(r);
    if (k->n_blocks < 8)
        abort();
    k->codec = codec;
    k->checked =
            strcmp(codec, "snappy") == 0 || strcmp(codec, "xz") == 0 || strcmp(codec, "bzip2") == 0;
}

static void init(void)
{
    for (size_t i = 0; i < N_CODECS; i++)
        if (avrogen_ocf_codec_supported(codecs[i]))
            build(&files[n_files++], codecs[i]);
    if (n_files == 0)
        abort();
}

/* What repair_blocks told, in order: blocks kept (at, and end once known) and ranges dropped. */
typedef struct event {
    bool kept;
    uint64_t from, to;
} event;

typedef struct seen {
    event ev[4 * MAX_BLOCKS + 2 * MAX_DAMAGE];
    size_t n, n_kept, n_drops;
} seen;

static void note(seen *s, bool kept, uint64_t from, uint64_t to)
{
    if (s->n == sizeof s->ev / sizeof *s->ev)
        abort(); /* more events than blocks and damage bytes */
    s->ev[s->n++] = (event){kept, from, to};
    if (kept)
        s->n_kept++;
    else
        s->n_drops++;
}

static void on_dropped(void *ctx, uint64_t from, uint64_t to, uint64_t claim, const char *why)
{
    (void)claim;
    (void)why;
    note(ctx, false, from, to);
}

static void on_kept(void *ctx, uint64_t at, uint64_t records)
{
    (void)records;
    note(ctx, true, at, 0);
}

/* The block header (count, size) that k's block i has, as bytes; its length. */
static size_t header_of(const known *k, size_t i, uint8_t *out)
{
    memcpy(out, k->bytes + k->start[i], k->hdr[i]);
    return k->hdr[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        init();
        ready = true;
    }
    if (size < 2)
        return 0;
    const known *k = &files[data[0] % n_files];
    size_t place = data[1] % (k->n_blocks + 1); /* before block `place`; n_blocks: at the end */
    size_t at = place < k->n_blocks ? k->start[place] : k->len;
    data += 2;
    size -= 2;
    if (size > MAX_DAMAGE)
        size = MAX_DAMAGE;

    /* The damaged file: k's bytes with the damage (escapes expanded) at `at`. */
    static uint8_t bad[1 << 16];
    static uint8_t damage[MAX_DAMAGE * 16];
    size_t dlen = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == 0xf5 && i + 1 < size && data[i + 1] <= 1) {
            if (data[i + 1] == 0) {
                memcpy(damage + dlen, sync_marker, 16);
                dlen += 16;
            } else {
                dlen += header_of(k, place < k->n_blocks ? place : 0, damage + dlen);
            }
            i++;
        } else {
            damage[dlen++] = data[i];
        }
    }
    size_t len = k->len + dlen;
    if (len > sizeof bad)
        return 0;
    memcpy(bad, k->bytes, at);
    memcpy(bad + at, damage, dlen);
    memcpy(bad + at + dlen, k->bytes + at, k->len - at);

    /* Repair it, from memory into memory. */
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open_memory(bad, len, NULL, &r, NULL) != AVROGEN_OK)
        abort(); /* the header is intact */
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    /* Blocks are copied as stored: the codec's level only sets what its set-up costs. */
    avrogen_ocf_writer_options wo = {.codec = k->codec, .level = k->level, .sync = sync_marker};
    avrogen_ocf_writer *w;
    if (f == NULL ||
        avrogen_ocf_writer_open_file(f, schema, strlen(schema), &wo, &w, NULL) != AVROGEN_OK)
        abort();
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)16 << 20);
    static seen s;
    s.n = s.n_kept = s.n_drops = 0;
    repair_hooks h = {on_dropped, on_kept, &s};
    repair_tally t;
    if (repair_blocks(r, w, &a, &h, &t) != REPAIR_DONE)
        abort(); /* memory in, memory out: nothing fails but the data */
    if (avrogen_ocf_writer_close(w, NULL) != AVROGEN_OK || fclose(f) != 0)
        abort();
    avrogen_ocf_reader_close(r);
    avrogen_arena_fini(&a);

    /* The output: the kept blocks as stored, in order; each one's end in `bad`. */
    if (avrogen_ocf_reader_open_memory(out, out_len, NULL, &r, NULL) != AVROGEN_OK)
        abort();
    size_t e = 0;
    for (;;) {
        uint64_t n;
        avrogen_reader blk;
        if (avrogen_ocf_reader_next_block(r, &n, &blk) != AVROGEN_OK)
            abort();
        while (e < s.n && !s.ev[e].kept)
            e++;
        if (n == 0) {
            if (e != s.n)
                abort(); /* told of a kept block the output lacks */
            break;
        }
        avrogen_bytes payload;
        if (e == s.n || !avrogen_ocf_reader_block_payload(r, &payload))
            abort();
        size_t from = (size_t)avrogen_ocf_reader_block_offset(r);
        size_t stored = (size_t)(payload.ptr - (const uint8_t *)out) - from + payload.len;
        if (s.ev[e].from + stored + 16 > len ||
            memcmp(bad + s.ev[e].from, out + from, stored) != 0 ||
            memcmp(bad + s.ev[e].from + stored, sync_marker, 16) != 0)
            abort(); /* a block altered */
        s.ev[e].to = s.ev[e].from + stored + 16;
        e++;
    }
    avrogen_ocf_reader_close(r);
    free(out);

    /*
     * Every block of k kept, where it now lies, in order; what else was kept
     * starts in the damage and, unless k's codec has no check, ends there too.
     * The events go forward and do not overlap.
     */
    size_t next = 0; /* k's next block to find */
    uint64_t pos = k->start[0];
    for (size_t i = 0; i < s.n; i++) {
        const event *v = &s.ev[i];
        if (v->from < pos || v->to <= v->from)
            abort();
        pos = v->to;
        if (!v->kept)
            continue;
        size_t shifted =
                next < k->n_blocks ? k->start[next] + (k->start[next] >= at ? dlen : 0) : SIZE_MAX;
        if (v->from == shifted) {
            next++;
            continue;
        }
        if (v->from < at || v->from >= at + dlen)
            abort(); /* kept a block that is neither k's nor the damage's */
        if (v->to > at + dlen) {
            if (k->checked)
                abort(); /* a forged block over intact ones passed a codec's check */
            while (next < k->n_blocks && k->start[next] + dlen < v->to)
                next++; /* covered by damage no reader can tell from data */
        }
    }
    if (next != k->n_blocks)
        abort(); /* an intact block lost */
    if (t.kept_blocks != s.n_kept || t.lost_blocks != s.n_drops)
        abort();
    return 0;
}
