/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data half of the `avrogen header` round trip (roundtrip.py), for one
 * schema: decode each length-prefixed datum (4 bytes little-endian, then the
 * datum) that python3-avro wrote into the struct of the header `avrogen
 * header` wrote, and check that the generated code sizes and re-encodes exactly
 * those bytes. roundtrip.py includes it once per schema, after that schema's
 * generated code, with
 *   #define ROOT_TYPE struct X / ROOT_PREFIX X / CASE_FN avrogen_case_c001
 * and main.c calls CASE_FN.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RT_CAT(a, b)          RT_CAT_EXPANDED(a, b)
#define RT_CAT_EXPANDED(a, b) a##b
#define RT_FN(suffix)         RT_CAT(ROOT_PREFIX, suffix)

int CASE_FN(const unsigned char *buf, size_t len, char *msg, size_t size);

/* 0 and a summary in msg, or 1 and the first datum that does not round trip. */
int CASE_FN(const unsigned char *buf, size_t len, char *msg, size_t size)
{
    size_t off = 0, n = 0;
    int rc = 0;
    while (off + 4 <= len && rc == 0) {
        size_t dlen = (size_t)buf[off] | (size_t)buf[off + 1] << 8 | (size_t)buf[off + 2] << 16 |
                      (size_t)buf[off + 3] << 24;
        off += 4;
        if (dlen > len - off) {
            snprintf(msg, size, "datum %zu: truncated file", n);
            return 1;
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
        if (RT_FN(_avro_decode)(&r, &v, &a) != AVROGEN_OK) {
            snprintf(msg, size, "datum %zu: decode failed at byte %zu: %s", n, r.err_offset,
                     r.err_msg ? r.err_msg : avrogen_status_str(r.err));
            rc = 1;
        } else if (avrogen_reader_remaining(&r) != 0) {
            snprintf(msg, size, "datum %zu: decode stopped %zu bytes short of %zu", n,
                     avrogen_reader_remaining(&r), dlen);
            rc = 1;
        } else if (RT_FN(_avro_size)(&v) != dlen) {
            snprintf(msg, size, "datum %zu: size says %zu bytes, the datum has %zu", n,
                     RT_FN(_avro_size)(&v), dlen);
            rc = 1;
        } else if (RT_FN(_avro_encode)(&w, &v) != AVROGEN_OK) {
            snprintf(msg, size, "datum %zu: encode failed: %s", n, avrogen_status_str(w.err));
            rc = 1;
        } else if (avrogen_writer_len(&w) != dlen ||
                   memcmp(avrogen_writer_data(&w), datum, dlen) != 0) {
            size_t at = 0, got = avrogen_writer_len(&w);
            const uint8_t *out = avrogen_writer_data(&w);
            while (at < dlen && at < got && out[at] == datum[at])
                at++;
            snprintf(msg, size,
                     "datum %zu: re-encoded %zu bytes differ from the %zu read, at byte %zu", n,
                     got, dlen, at);
            rc = 1;
        }
        avrogen_writer_fini(&w);
        avrogen_arena_fini(&a);
        off += dlen;
        n++;
    }
    if (rc == 0 && off != len) {
        snprintf(msg, size, "%zu stray bytes after the last datum", len - off);
        rc = 1;
    }
    if (rc == 0)
        snprintf(msg, size, "%zu datums decoded and re-encoded byte for byte", n);
    return rc;
}
