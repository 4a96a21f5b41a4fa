/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block codecs of object container files (spec §Object Container Files,
 * "Required Codecs" and "Optional Codecs"): null, deflate, snappy, zstandard,
 * xz and bzip2, each under its spec name. A codec compresses or decompresses one
 * whole block at a time into a growable buffer; decompression never produces
 * more than the caller's limit, so a hostile block cannot make it allocate
 * without bound. Library state (z_stream, ZSTD_DCtx, ...) is created on first
 * use and reused across blocks. Internal to the runtime: never installed.
 */
#ifndef AVROGEN_CODEC_INTERNAL_H
#define AVROGEN_CODEC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"
#include "avrogen/status.h"

typedef enum avrogen_codec_id {
    AVROGEN_CODEC_NULL,
    AVROGEN_CODEC_DEFLATE,
    AVROGEN_CODEC_SNAPPY,
    AVROGEN_CODEC_ZSTANDARD,
    AVROGEN_CODEC_XZ,
    AVROGEN_CODEC_BZIP2
} avrogen_codec_id;

/* A byte buffer grown through an avrogen_alloc: data[0..len) is valid, cap allocated. */
typedef struct avrogen_codec_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} avrogen_codec_buf;

typedef struct avrogen_codec {
    avrogen_codec_id id;
    const char *name;    /* the spec name, static */
    int level;           /* resolved compression level (0 for null and snappy) */
    avrogen_alloc alloc; /* where buffers and, where the library allows, its state come from */
    void *cstate;        /* compressor state, created on first compress */
    void *dstate;        /* decompressor state, created on first decompress */
    const char *msg;     /* static English text for the last failure, or NULL */
} avrogen_codec;

/*
 * Set up `c` for the codec named by the `len` bytes at `name` (not necessarily
 * NUL-terminated) at compression `level`, 0 meaning the codec's default.
 * Allocates nothing. E_ARG for an unknown name (c->msg says so) or a level the
 * codec does not accept.
 */
avrogen_status avrogen_codec_init(avrogen_codec *c, const char *name, size_t len, int level,
                                  const avrogen_alloc *alloc);

/* Free the library state of `c`; it may be initialised again afterwards. */
void avrogen_codec_fini(avrogen_codec *c);

/* True when `len` bytes at `name` name a codec this build supports. */
bool avrogen_codec_known(const char *name, size_t len);
/* The explicit levels codec `name` takes (0 always means its default; min ==
 * max == 0: it takes none). False for an unknown codec. */
bool avrogen_codec_levels(const char *name, size_t len, int *min, int *max);

/*
 * Compress `len` bytes at `in` into `out`, replacing its contents (out->len is
 * the compressed size). E_NOMEM, or E_LIMIT when the input is too large for the
 * library; c->msg says why.
 */
avrogen_status avrogen_codec_compress(avrogen_codec *c, const uint8_t *in, size_t len,
                                      avrogen_codec_buf *out);

/*
 * Decompress the `len` bytes at `in`, which must hold exactly one compressed
 * block, into `out` (replacing its contents). E_INVALID for corrupt, truncated
 * or trailing data and for a snappy CRC mismatch, E_LIMIT when the output would
 * exceed `max` bytes (or the library's memory limit derived from it), E_NOMEM.
 * c->msg says why. Never allocates more than about max + 64 KiB for `out`.
 */
avrogen_status avrogen_codec_decompress(avrogen_codec *c, const uint8_t *in, size_t len,
                                        avrogen_codec_buf *out, size_t max);

/* Make room for `extra` bytes past out->len, growing to at least exactly that. */
bool avrogen_codec_buf_reserve(avrogen_codec_buf *b, const avrogen_alloc *a, size_t extra);

void avrogen_codec_buf_free(avrogen_codec_buf *b, const avrogen_alloc *a);

#endif /* AVROGEN_CODEC_INTERNAL_H */
