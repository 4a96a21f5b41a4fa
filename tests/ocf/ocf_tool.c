/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper for the container-file interop tests (interop.py): moves datums
 * between our reader/writer and "frame" files, in which each datum is a 4-byte
 * big-endian length followed by its bytes. Datums are opaque here: the peers
 * (python3-avro, avro-c) encode and decode them.
 *
 *   ocf_tool write SCHEMA.avsc CODEC BLOCK_SIZE IN.frames OUT.avro
 *   ocf_tool append IN.frames FILE.avro BLOCK_SIZE
 *   ocf_tool read IN.avro OUT.frames      prints "<codec> <datums> <blocks>"
 *
 * Exit status: 0 on success, 1 on any error (one line on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/ocf.h"

static int die(const char *what, const char *msg)
{
    fprintf(stderr, "ocf_tool: %s: %s\n", what, msg);
    return 1;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *p = realloc(buf, cap *= 2);
            if (p == NULL)
                free(buf);
            buf = p;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Feed every frame of `in` to w. */
static int write_frames(avrogen_ocf_writer *w, const char *in)
{
    FILE *f = fopen(in, "rb");
    if (f == NULL)
        return die(in, "cannot open");
    uint8_t head[4];
    int rc = 0;
    while (rc == 0 && fread(head, 1, 4, f) == 4) {
        size_t len = (size_t)head[0] << 24 | (size_t)head[1] << 16 | (size_t)head[2] << 8 | head[3];
        avrogen_writer *b = avrogen_ocf_writer_datum_begin(w);
        if (len != 0 && avrogen_writer_reserve(b, len)) {
            if (fread(b->p, 1, len, f) != len)
                rc = die(in, "frame cut short");
            b->p += len;
        }
        if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK)
            rc = die(in, "cannot add datum");
    }
    fclose(f);
    return rc;
}

static int cmd_write(char **argv)
{
    size_t len;
    char *schema = slurp(argv[0], &len);
    if (schema == NULL)
        return die(argv[0], "cannot read");
    avrogen_ocf_writer_options o = {0};
    o.codec = argv[1];
    o.block_size = (size_t)strtoull(argv[2], NULL, 10);
    avrogen_ocf_writer *w;
    avrogen_diag d;
    avrogen_status st = avrogen_ocf_writer_open(argv[4], schema, len, &o, &w, &d);
    free(schema);
    if (st != AVROGEN_OK)
        return die(argv[4], d.msg);
    int rc = write_frames(w, argv[3]);
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
        rc = die(argv[4], d.msg);
    return rc;
}

static int cmd_append(char **argv)
{
    avrogen_ocf_writer_options o = {0};
    o.block_size = (size_t)strtoull(argv[2], NULL, 10);
    avrogen_ocf_writer *w;
    avrogen_diag d;
    if (avrogen_ocf_writer_open_append(argv[1], &o, &w, &d) != AVROGEN_OK)
        return die(argv[1], d.msg);
    int rc = write_frames(w, argv[0]);
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
        rc = die(argv[1], d.msg);
    return rc;
}

static int cmd_read(char **argv)
{
    avrogen_ocf_reader *r;
    avrogen_diag d;
    if (avrogen_ocf_reader_open(argv[0], NULL, &r, &d) != AVROGEN_OK)
        return die(argv[0], d.msg);
    FILE *out = fopen(argv[1], "wb");
    if (out == NULL) {
        avrogen_ocf_reader_close(r);
        return die(argv[1], "cannot create");
    }
    unsigned long long datums = 0, blocks = 0;
    uint64_t last_block = UINT64_MAX;
    avrogen_bytes v;
    while (avrogen_ocf_reader_next_datum(r, &v) == AVROGEN_OK && v.ptr != NULL) {
        uint8_t head[4] = {(uint8_t)(v.len >> 24), (uint8_t)(v.len >> 16), (uint8_t)(v.len >> 8),
                           (uint8_t)v.len};
        fwrite(head, 1, 4, out);
        fwrite(v.ptr, 1, v.len, out);
        datums++;
        if (avrogen_ocf_reader_block_offset(r) != last_block) {
            last_block = avrogen_ocf_reader_block_offset(r);
            blocks++;
        }
    }
    int rc = 0;
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        rc = die(argv[0], d.msg);
    else
        printf("%s %llu %llu\n", avrogen_ocf_reader_codec(r), datums, blocks);
    if (fclose(out) != 0)
        rc = die(argv[1], "write failed");
    avrogen_ocf_reader_close(r);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 7 && strcmp(argv[1], "write") == 0)
        return cmd_write(argv + 2);
    if (argc == 5 && strcmp(argv[1], "append") == 0)
        return cmd_append(argv + 2);
    if (argc == 4 && strcmp(argv[1], "read") == 0)
        return cmd_read(argv + 2);
    fprintf(stderr, "usage: ocf_tool write SCHEMA CODEC BLOCK_SIZE IN.frames OUT.avro\n"
                    "       ocf_tool append IN.frames FILE.avro BLOCK_SIZE\n"
                    "       ocf_tool read IN.avro OUT.frames\n");
    return 2;
}
