/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data half of the `avrogen header` round trip (roundtrip.py): read
 * length-prefixed datums (4 bytes little-endian, then the datum) that
 * python3-avro wrote, decode each into the struct of a header `avrogen
 * header` wrote, and check that the generated code re-encodes exactly those
 * bytes (and that P_avro_size says so first). Built once per schema with
 *   -DROOT_HEADER='"x.avro.h"' -DROOT_TYPE='struct X' -DROOT_PREFIX=X
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include ROOT_HEADER

#define CAT(a, b)          CAT_EXPANDED(a, b)
#define CAT_EXPANDED(a, b) a##b
#define FN(suffix)         CAT(ROOT_PREFIX, suffix)

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *g = realloc(buf, cap * 2);
        if (!g) {
            free(buf);
            buf = NULL;
        }
        buf = g;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    unsigned char *buf = argc == 2 ? slurp(argv[1], &len) : NULL;
    if (!buf) {
        fprintf(stderr, "usage: driver DATUMS (a readable file)\n");
        return 2;
    }
    size_t off = 0, n = 0;
    int rc = 0;
    while (off + 4 <= len && rc == 0) {
        size_t dlen = (size_t)buf[off] | (size_t)buf[off + 1] << 8 | (size_t)buf[off + 2] << 16 |
                      (size_t)buf[off + 3] << 24;
        off += 4;
        if (dlen > len - off) {
            fprintf(stderr, "datum %zu: truncated file\n", n);
            rc = 1;
            break;
        }
        const unsigned char *datum = buf + off;
        avrogen_reader r;
        avrogen_reader_init(&r, datum, dlen);
        avrogen_arena a;
        avrogen_arena_init(&a, NULL);
        ROOT_TYPE v;
        memset(&v, 0, sizeof v);
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (FN(_avro_decode)(&r, &v, &a) != AVROGEN_OK) {
            fprintf(stderr, "datum %zu: decode failed at byte %zu: %s\n", n, r.err_offset,
                    r.err_msg ? r.err_msg : avrogen_status_str(r.err));
            rc = 1;
        } else if (avrogen_reader_remaining(&r) != 0) {
            fprintf(stderr, "datum %zu: decode stopped %zu bytes short of %zu\n", n,
                    avrogen_reader_remaining(&r), dlen);
            rc = 1;
        } else if (FN(_avro_size)(&v) != dlen) {
            fprintf(stderr, "datum %zu: size says %zu bytes, the datum has %zu\n", n,
                    FN(_avro_size)(&v), dlen);
            rc = 1;
        } else if (FN(_avro_encode)(&w, &v) != AVROGEN_OK) {
            fprintf(stderr, "datum %zu: encode failed: %s\n", n, avrogen_status_str(w.err));
            rc = 1;
        } else if (avrogen_writer_len(&w) != dlen ||
                   memcmp(avrogen_writer_data(&w), datum, dlen) != 0) {
            size_t at = 0, got = avrogen_writer_len(&w);
            const uint8_t *out = avrogen_writer_data(&w);
            while (at < dlen && at < got && out[at] == datum[at])
                at++;
            fprintf(stderr,
                    "datum %zu: re-encoded %zu bytes differ from the %zu read, at byte %zu\n", n,
                    got, dlen, at);
            rc = 1;
        }
        avrogen_writer_fini(&w);
        avrogen_arena_fini(&a);
        off += dlen;
        n++;
    }
    if (rc == 0 && off != len) {
        fprintf(stderr, "%zu stray bytes after the last datum\n", len - off);
        rc = 1;
    }
    free(buf);
    if (rc == 0)
        printf("%zu datums decoded and re-encoded byte for byte\n", n);
    return rc;
}
