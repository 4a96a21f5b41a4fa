/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The container-file codecs over libdeflate, snappy, libzstd, liblzma and
 * libbz2. Each compresses one block in a single call and decompresses one block
 * into a buffer bounded by the caller's limit: the streaming decoders grow it
 * only as output actually appears; deflate's, which wants all its room up
 * front, guesses and doubles (deflate_decompress). liblzma and libbz2 allocate
 * through the codec's avrogen_alloc (so allocation-failure tests reach them);
 * libdeflate, libzstd and snappy offer no per-object hook and use libc. zlib is
 * not used: a block is always whole in memory, so nothing needs its streaming.
 * Framing (block headers, sync markers) is ocf.c's business.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <bzlib.h>
#include <libdeflate.h>
#include <lzma.h>
#include <snappy-c.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "codec_internal.h"

/* First capacity of a decompression buffer, and the floor of every growth step. */
#define OUT_MIN_CAP ((size_t)64 * 1024)

static const struct codec_desc {
    const char *name;
    avrogen_codec_id id;
    int min_level; /* accepted explicit levels; 0 always means the default */
    int max_level;
} codec_table[] = {
        {"null", AVROGEN_CODEC_NULL, 0, 0},
        {"deflate", AVROGEN_CODEC_DEFLATE, 1, 9},
        {"snappy", AVROGEN_CODEC_SNAPPY, 0, 0},
        {"zstandard", AVROGEN_CODEC_ZSTANDARD, -(1 << 17), 22},
        {"xz", AVROGEN_CODEC_XZ, 1, 9},
        {"bzip2", AVROGEN_CODEC_BZIP2, 1, 9},
};

static const struct codec_desc *find_codec(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof codec_table / sizeof codec_table[0]; i++) {
        if (strlen(codec_table[i].name) == len && memcmp(codec_table[i].name, name, len) == 0)
            return &codec_table[i];
    }
    return NULL;
}

bool avrogen_codec_known(const char *name, size_t len)
{
    return find_codec(name, len) != NULL;
}

bool avrogen_codec_levels(const char *name, size_t len, int *min, int *max)
{
    const struct codec_desc *c = find_codec(name, len);
    if (c == NULL)
        return false;
    *min = c->min_level;
    *max = c->max_level;
    return true;
}

static avrogen_status fail(avrogen_codec *c, avrogen_status s, const char *msg)
{
    c->msg = msg;
    return s;
}

static avrogen_status nomem(avrogen_codec *c)
{
    return fail(c, AVROGEN_E_NOMEM, "out of memory");
}

/* ---- buffers ------------------------------------------------------------ */

bool avrogen_codec_buf_reserve(avrogen_codec_buf *b, const avrogen_alloc *a, size_t extra)
{
    size_t need;
    if (!avrogen_size_add(b->len, extra, &need))
        return false;
    if (need <= b->cap && b->data != NULL)
        return true;
    if (need == 0)
        need = 1;
    uint8_t *p = avrogen_realloc(a, b->data, b->cap, need);
    if (p == NULL)
        return false;
    b->data = p;
    b->cap = need;
    return true;
}

void avrogen_codec_buf_free(avrogen_codec_buf *b, const avrogen_alloc *a)
{
    avrogen_free(a, b->data, b->cap);
    b->data = NULL;
    b->len = b->cap = 0;
}

/*
 * Grow a full decompression buffer. Capacity stops at max + 1 bytes: output that
 * fills it is more than `max`, which is E_LIMIT. Growth doubles from what is
 * already there, so memory stays within twice the output actually produced.
 */
static avrogen_status grow_out(avrogen_codec *c, avrogen_codec_buf *out, size_t in_len, size_t max)
{
    size_t limit = max < SIZE_MAX ? max + 1 : max;
    if (out->cap >= limit)
        return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
    size_t want = out->cap <= SIZE_MAX / 2 ? out->cap * 2 : SIZE_MAX;
    if (want < OUT_MIN_CAP)
        want = OUT_MIN_CAP;
    if (out->cap == 0 && in_len <= SIZE_MAX / 2 && want < in_len * 2)
        want = in_len * 2;
    if (want > limit)
        want = limit;
    uint8_t *p = avrogen_realloc(&c->alloc, out->data, out->cap, want);
    if (p == NULL)
        return nomem(c);
    out->data = p;
    out->cap = want;
    return AVROGEN_OK;
}

static unsigned clamp_uint(size_t n)
{
    return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

/* ---- allocator shims for liblzma and libbz2 ------------------------------ */

/* The libraries free without a size and our hook wants one, so each block carries it. */
#define SHIM_HEADER ((size_t) _Alignof(max_align_t))
_Static_assert(_Alignof(max_align_t) >= sizeof(size_t), "size header fits the alignment pad");

static void *shim_alloc(void *opaque, size_t n, size_t size)
{
    avrogen_codec *c = opaque;
    size_t bytes, total;
    if (!avrogen_size_mul(n, size, &bytes) || !avrogen_size_add(bytes, SHIM_HEADER, &total))
        return NULL;
    unsigned char *p = avrogen_malloc(&c->alloc, total);
    if (p == NULL)
        return NULL;
    memcpy(p, &total, sizeof total);
    return p + SHIM_HEADER;
}

static void shim_free(void *opaque, void *ptr)
{
    avrogen_codec *c = opaque;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - SHIM_HEADER;
    size_t total;
    memcpy(&total, p, sizeof total);
    avrogen_free(&c->alloc, p, total);
}

static void *bz_alloc(void *opaque, int n, int m)
{
    if (n < 0 || m < 0)
        return NULL;
    return shim_alloc(opaque, (size_t)n, (size_t)m);
}

static void bz_free(void *opaque, void *ptr)
{
    shim_free(opaque, ptr);
}

static void *xz_alloc(void *opaque, size_t n, size_t size)
{
    return shim_alloc(opaque, n, size);
}

static void xz_free(void *opaque, void *ptr)
{
    shim_free(opaque, ptr);
}

/* ---- deflate: spec "deflate", RFC 1951 with no zlib header or checksum ---- */

/* The default level, zlib's and libdeflate's alike. */
#define DEFLATE_DEFAULT_LEVEL 6

static avrogen_status deflate_compress(avrogen_codec *c, const uint8_t *in, size_t len,
                                       avrogen_codec_buf *out)
{
    struct libdeflate_compressor *z = c->cstate;
    if (z == NULL) {
        if ((z = libdeflate_alloc_compressor(c->level)) == NULL)
            return nomem(c);
        c->cstate = z;
    }
    out->len = 0;
    /* Keeps libdeflate's bound, a little over len, clear of overflow. */
    if (len > SIZE_MAX / 2)
        return fail(c, AVROGEN_E_LIMIT, "block too large for deflate");
    if (!avrogen_codec_buf_reserve(out, &c->alloc, libdeflate_deflate_compress_bound(z, len)))
        return nomem(c);
    size_t n = libdeflate_deflate_compress(z, in, len, out->data, out->cap);
    /* Within the bound libdeflate always fits: 0 would be our bug, not the data's. */
    if (n == 0)
        return fail(c, AVROGEN_E_INVALID, "deflate output does not fit its bound");
    out->len = n;
    return AVROGEN_OK;
}

/* Make the capacity of `out` exactly `cap` bytes (its contents need not survive). */
static bool resize_out(avrogen_codec *c, avrogen_codec_buf *out, size_t cap)
{
    uint8_t *p = avrogen_realloc(&c->alloc, out->data, out->cap, cap);
    if (p == NULL)
        return false;
    out->data = p;
    out->cap = cap;
    return true;
}

/*
 * Avro records no uncompressed size, and libdeflate decodes only into room
 * given up front. The room starts at what the last block needed (the buffer is
 * kept), or at four times the input, and doubles whenever the data needs more,
 * each try decoding the block from its start: the total work stays within
 * about twice one decode, and the room never passes the caller's limit.
 */
static avrogen_status deflate_decompress(avrogen_codec *c, const uint8_t *in, size_t len,
                                         avrogen_codec_buf *out, size_t max)
{
    struct libdeflate_decompressor *z = c->dstate;
    if (z == NULL) {
        if ((z = libdeflate_alloc_decompressor()) == NULL)
            return nomem(c);
        c->dstate = z;
    }
    out->len = 0;
    size_t cap = out->cap;
    if (cap == 0) {
        cap = len <= SIZE_MAX / 4 ? len * 4 : SIZE_MAX;
        if (cap < OUT_MIN_CAP)
            cap = OUT_MIN_CAP;
    }
    for (;;) {
        /* At most max + 1 bytes: output that fills them is past the limit. */
        if (max < SIZE_MAX && cap > max + 1)
            cap = max + 1;
        if (cap > out->cap && !resize_out(c, out, cap))
            return nomem(c);
        size_t used = 0, got = 0;
        enum libdeflate_result rc =
                libdeflate_deflate_decompress_ex(z, in, len, out->data, cap, &used, &got);
        if (rc == LIBDEFLATE_SUCCESS) {
            out->len = got;
            /*
             * python-avro writes zlib.compress(data)[2:-1]: raw deflate followed by
             * three bytes of the zlib wrapper's Adler-32. Tolerate what is left of
             * that trailer (Java's Inflater ignores it too), nothing longer.
             */
            if (len - used > 4)
                return fail(c, AVROGEN_E_INVALID, "bytes after the end of the deflate data");
            break;
        }
        if (rc != LIBDEFLATE_INSUFFICIENT_SPACE)
            return fail(c, AVROGEN_E_INVALID, "corrupt deflate data");
        if (cap > max)
            return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
        cap = cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
    }
    if (out->len > max)
        return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
    return AVROGEN_OK;
}

/* ---- snappy: spec "snappy", raw snappy then the big-endian CRC-32 of the output ---- */

/* libdeflate's CRC-32 folds with carry-less multiplies where the CPU has them. */
static uint32_t crc32_of(const uint8_t *p, size_t len)
{
    return libdeflate_crc32(0, p, len);
}

static avrogen_status snappy_compress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                            avrogen_codec_buf *out)
{
    size_t bound;
    out->len = 0;
    if (len > SIZE_MAX / 2)
        return fail(c, AVROGEN_E_LIMIT, "block too large for snappy");
    if (!avrogen_size_add(snappy_max_compressed_length(len), 4, &bound) ||
        !avrogen_codec_buf_reserve(out, &c->alloc, bound))
        return nomem(c);
    size_t n = out->cap - 4;
    if (snappy_compress((const char *)in, len, (char *)out->data, &n) != SNAPPY_OK)
        return fail(c, AVROGEN_E_LIMIT, "snappy_compress failed");
    uint32_t crc = crc32_of(in, len);
    out->data[n] = (uint8_t)(crc >> 24);
    out->data[n + 1] = (uint8_t)(crc >> 16);
    out->data[n + 2] = (uint8_t)(crc >> 8);
    out->data[n + 3] = (uint8_t)crc;
    out->len = n + 4;
    return AVROGEN_OK;
}

static avrogen_status snappy_decompress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                              avrogen_codec_buf *out, size_t max)
{
    out->len = 0;
    if (len < 4)
        return fail(c, AVROGEN_E_INVALID, "snappy block is shorter than its CRC-32");
    size_t n = len - 4;
    size_t ulen;
    if (snappy_uncompressed_length((const char *)in, n, &ulen) != SNAPPY_OK)
        return fail(c, AVROGEN_E_INVALID, "corrupt snappy data");
    if (ulen > max)
        return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
    /*
     * The length is only a claim. The format caps it, though: no element makes
     * more than 64 bytes from 3 (a copy with a 2-byte offset), so a claim past
     * that is corrupt, and what is allocated on its word stays within 22 times
     * the input. snappy_uncompress checks every element against the data and
     * the output's room, so the data is walked once, not validated first.
     */
    if (ulen / 64 > n / 3)
        return fail(c, AVROGEN_E_INVALID, "corrupt snappy data");
    if (!avrogen_codec_buf_reserve(out, &c->alloc, ulen != 0 ? ulen : 1))
        return nomem(c);
    size_t got = out->cap;
    if (snappy_uncompress((const char *)in, n, (char *)out->data, &got) != SNAPPY_OK || got != ulen)
        return fail(c, AVROGEN_E_INVALID, "corrupt snappy data");
    const uint8_t *t = in + n;
    uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
    if (crc32_of(out->data, ulen) != want)
        return fail(c, AVROGEN_E_INVALID, "snappy block fails its CRC-32 check");
    out->len = ulen;
    return AVROGEN_OK;
}

/* ---- zstandard ------------------------------------------------------------ */

static avrogen_status zstd_fail(avrogen_codec *c, size_t rc)
{
    switch (ZSTD_getErrorCode(rc)) {
    case ZSTD_error_memory_allocation:
        return nomem(c);
    case ZSTD_error_frameParameter_windowTooLarge:
        return fail(c, AVROGEN_E_LIMIT, "zstandard window is larger than the decoder allows");
    default:
        return fail(c, AVROGEN_E_INVALID, ZSTD_getErrorName(rc));
    }
}

static avrogen_status zstd_compress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                          avrogen_codec_buf *out)
{
    ZSTD_CCtx *cctx = c->cstate;
    if (cctx == NULL) {
        if ((cctx = ZSTD_createCCtx()) == NULL)
            return nomem(c);
        size_t rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, c->level);
        if (ZSTD_isError(rc)) {
            ZSTD_freeCCtx(cctx);
            return fail(c, AVROGEN_E_ARG, ZSTD_getErrorName(rc));
        }
        c->cstate = cctx;
    }
    size_t bound = ZSTD_compressBound(len);
    if (ZSTD_isError(bound))
        return fail(c, AVROGEN_E_LIMIT, "block too large for zstandard");
    out->len = 0;
    if (!avrogen_codec_buf_reserve(out, &c->alloc, bound))
        return nomem(c);
    /* ZSTD_compress2 knows the input size, so the frame records it. */
    size_t rc = ZSTD_compress2(cctx, out->data, out->cap, in, len);
    if (ZSTD_isError(rc))
        return zstd_fail(c, rc);
    out->len = rc;
    return AVROGEN_OK;
}

static avrogen_status zstd_decompress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                            avrogen_codec_buf *out, size_t max)
{
    ZSTD_DCtx *dctx = c->dstate;
    if (dctx == NULL) {
        if ((dctx = ZSTD_createDCtx()) == NULL)
            return nomem(c);
        c->dstate = dctx;
    } else {
        (void)ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
    }
    /*
     * The window is bounded by zstd's own default limit (2^27), which every
     * zstd file not written with --long honours; a larger max_block_size
     * raises it so that such blocks still decode.
     */
    int wlog = 27;
    while (wlog < 30 && ((size_t)1 << wlog) < max)
        wlog++;
    size_t prc = ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, wlog);
    if (ZSTD_isError(prc))
        return zstd_fail(c, prc);

    out->len = 0;
    ZSTD_inBuffer ib = {in, len, 0};
    for (;;) {
        if (out->len == out->cap) {
            avrogen_status st = grow_out(c, out, len, max);
            if (st != AVROGEN_OK)
                return st;
        }
        ZSTD_outBuffer ob = {out->data + out->len, out->cap - out->len, 0};
        size_t rc = ZSTD_decompressStream(dctx, &ob, &ib);
        if (ZSTD_isError(rc))
            return zstd_fail(c, rc);
        out->len += ob.pos;
        /* rc == 0: a frame ended and is fully flushed; more input may hold another. */
        if (ib.pos == ib.size && rc == 0)
            break;
        if (ib.pos == ib.size && ob.pos < ob.size)
            return fail(c, AVROGEN_E_INVALID, "zstandard data ends inside a frame");
    }
    if (out->len > max)
        return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
    return AVROGEN_OK;
}

/* ---- xz: spec "xz", an .xz stream ------------------------------------------ */

typedef struct xz_state {
    lzma_allocator allocator; /* the stream keeps a pointer to it */
    lzma_stream strm;
} xz_state;

static avrogen_status xz_fail(avrogen_codec *c, lzma_ret rc)
{
    switch (rc) {
    case LZMA_MEM_ERROR:
        return nomem(c);
    case LZMA_MEMLIMIT_ERROR:
        return fail(c, AVROGEN_E_LIMIT, "xz data needs more memory than the decoder allows");
    case LZMA_FORMAT_ERROR:
        return fail(c, AVROGEN_E_INVALID, "not xz data");
    case LZMA_OPTIONS_ERROR:
        return fail(c, AVROGEN_E_INVALID, "unsupported xz options");
    case LZMA_BUF_ERROR:
        return fail(c, AVROGEN_E_INVALID, "xz data ends before the end of its stream");
    default:
        return fail(c, AVROGEN_E_INVALID, "corrupt xz data");
    }
}

static avrogen_status xz_compress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                        avrogen_codec_buf *out)
{
    lzma_options_lzma opt;
    if (lzma_lzma_preset(&opt, (uint32_t)c->level))
        return fail(c, AVROGEN_E_ARG, "unsupported xz preset");
    /*
     * A dictionary larger than the block buys nothing and costs the encoder
     * (and every decoder) memory: preset 6 would reserve 8 MiB per block.
     */
    if (opt.dict_size > len)
        opt.dict_size = len < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN : (uint32_t)len;
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
    lzma_allocator allocator = {xz_alloc, xz_free, c};
    size_t bound = lzma_stream_buffer_bound(len);
    out->len = 0;
    if (bound == 0)
        return fail(c, AVROGEN_E_LIMIT, "block too large for xz");
    if (!avrogen_codec_buf_reserve(out, &c->alloc, bound))
        return nomem(c);
    size_t pos = 0;
    /* CRC-64 is the check xz(1) and Java's XZ codec write by default. */
    lzma_ret rc = lzma_stream_buffer_encode(filters, LZMA_CHECK_CRC64, &allocator, in, len,
                                            out->data, &pos, out->cap);
    if (rc != LZMA_OK)
        return xz_fail(c, rc);
    out->len = pos;
    return AVROGEN_OK;
}

static avrogen_status xz_decompress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                          avrogen_codec_buf *out, size_t max)
{
    xz_state *xs = c->dstate;
    if (xs == NULL) {
        if ((xs = avrogen_malloc(&c->alloc, sizeof *xs)) == NULL)
            return nomem(c);
        memset(xs, 0, sizeof *xs);
        lzma_stream init = LZMA_STREAM_INIT;
        xs->strm = init;
        xs->allocator.alloc = xz_alloc;
        xs->allocator.free = xz_free;
        xs->allocator.opaque = c;
        xs->strm.allocator = &xs->allocator;
        c->dstate = xs;
    }
    /*
     * The decoder's memory is its dictionary, which the data names. A block of
     * at most `max` bytes never needs more than that plus the coder's own
     * tables, so anything past max + 32 MiB is refused rather than allocated.
     */
    uint64_t memlimit = (uint64_t)max + ((uint64_t)32 << 20);
    lzma_ret rc = lzma_stream_decoder(&xs->strm, memlimit, 0);
    if (rc != LZMA_OK)
        return xz_fail(c, rc);
    lzma_stream *s = &xs->strm;
    s->next_in = in;
    s->avail_in = len;
    out->len = 0;
    for (;;) {
        if (out->len == out->cap) {
            avrogen_status st = grow_out(c, out, len, max);
            if (st != AVROGEN_OK)
                return st;
        }
        s->next_out = out->data + out->len;
        s->avail_out = out->cap - out->len;
        rc = lzma_code(s, LZMA_FINISH);
        out->len = (size_t)(s->next_out - out->data);
        if (rc == LZMA_STREAM_END)
            break;
        if (rc == LZMA_OK || (rc == LZMA_BUF_ERROR && s->avail_out == 0))
            continue;
        return xz_fail(c, rc);
    }
    if (s->avail_in != 0)
        return fail(c, AVROGEN_E_INVALID, "bytes after the end of the xz stream");
    if (out->len > max)
        return fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
    return AVROGEN_OK;
}

/* ---- bzip2 ---------------------------------------------------------------- */

static avrogen_status bz_fail(avrogen_codec *c, int rc)
{
    switch (rc) {
    case BZ_MEM_ERROR:
        return nomem(c);
    case BZ_DATA_ERROR_MAGIC:
        return fail(c, AVROGEN_E_INVALID, "not bzip2 data");
    default:
        return fail(c, AVROGEN_E_INVALID, "corrupt bzip2 data");
    }
}

static void bz_init(avrogen_codec *c, bz_stream *s)
{
    memset(s, 0, sizeof *s);
    s->bzalloc = bz_alloc;
    s->bzfree = bz_free;
    s->opaque = c;
}

static avrogen_status bzip2_compress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                           avrogen_codec_buf *out)
{
    bz_stream s;
    bz_init(c, &s);
    /*
     * The level is bzip2's block size in units of 100 kB. A block that fits a
     * smaller one compresses to the same data, and its decoder needs less memory.
     */
    int block100k = c->level;
    if (len / 100000 + 1 < (size_t)block100k)
        block100k = (int)(len / 100000 + 1);
    int rc = BZ2_bzCompressInit(&s, block100k, 0, 0);
    if (rc != BZ_OK)
        return bz_fail(c, rc);
    /* bzip2's documented worst case: 1% larger plus 600 bytes. */
    size_t bound;
    avrogen_status st = AVROGEN_OK;
    out->len = 0;
    if (!avrogen_size_add(len, len / 100 + 600, &bound) ||
        !avrogen_codec_buf_reserve(out, &c->alloc, bound)) {
        st = nomem(c);
        goto out_end;
    }
    /* libbz2 never writes through next_in; its API merely lacks the const. */
    s.next_in = (char *)(uintptr_t)in;
    s.next_out = (char *)out->data;
    size_t in_left = len;
    for (;;) {
        if (s.avail_in == 0 && in_left != 0) {
            s.avail_in = clamp_uint(in_left);
            in_left -= s.avail_in;
        }
        if (s.avail_out == 0) {
            out->len = (size_t)((uint8_t *)s.next_out - out->data);
            if (out->len == out->cap && !avrogen_codec_buf_reserve(out, &c->alloc, OUT_MIN_CAP)) {
                st = nomem(c);
                goto out_end;
            }
            s.next_out = (char *)out->data + out->len;
            s.avail_out = clamp_uint(out->cap - out->len);
        }
        rc = BZ2_bzCompress(&s, in_left == 0 ? BZ_FINISH : BZ_RUN);
        if (rc == BZ_STREAM_END)
            break;
        if (rc != BZ_RUN_OK && rc != BZ_FINISH_OK) {
            st = bz_fail(c, rc);
            goto out_end;
        }
    }
    out->len = (size_t)((uint8_t *)s.next_out - out->data);
out_end:
    BZ2_bzCompressEnd(&s);
    return st;
}

static avrogen_status bzip2_decompress_block(avrogen_codec *c, const uint8_t *in, size_t len,
                                             avrogen_codec_buf *out, size_t max)
{
    bz_stream s;
    bz_init(c, &s);
    int rc = BZ2_bzDecompressInit(&s, 0, 0);
    if (rc != BZ_OK)
        return bz_fail(c, rc);
    avrogen_status st = AVROGEN_OK;
    out->len = 0;
    s.next_in = (char *)(uintptr_t)in;
    s.next_out = (char *)out->data;
    size_t in_left = len;
    for (;;) {
        if (s.avail_in == 0 && in_left != 0) {
            s.avail_in = clamp_uint(in_left);
            in_left -= s.avail_in;
        }
        if (s.avail_out == 0) {
            out->len = out->data != NULL ? (size_t)((uint8_t *)s.next_out - out->data) : 0;
            if (out->len == out->cap && (st = grow_out(c, out, len, max)) != AVROGEN_OK)
                goto out_end;
            s.next_out = (char *)out->data + out->len;
            s.avail_out = clamp_uint(out->cap - out->len);
        }
        rc = BZ2_bzDecompress(&s);
        if (rc == BZ_STREAM_END)
            break;
        if (rc != BZ_OK) {
            st = bz_fail(c, rc);
            goto out_end;
        }
        /* Room left for output but no input left: the stream was cut short. */
        if (s.avail_in == 0 && in_left == 0 && s.avail_out != 0) {
            st = fail(c, AVROGEN_E_INVALID, "bzip2 data ends before the end of its stream");
            goto out_end;
        }
    }
    out->len = (size_t)((uint8_t *)s.next_out - out->data);
    if (s.avail_in != 0 || in_left != 0)
        st = fail(c, AVROGEN_E_INVALID, "bytes after the end of the bzip2 stream");
    else if (out->len > max)
        st = fail(c, AVROGEN_E_LIMIT, "decompressed block is larger than the reader's limit");
out_end:
    BZ2_bzDecompressEnd(&s);
    return st;
}

/* ---- dispatch -------------------------------------------------------------- */

avrogen_status avrogen_codec_init(avrogen_codec *c, const char *name, size_t len, int level,
                                  const avrogen_alloc *alloc)
{
    memset(c, 0, sizeof *c);
    c->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    const struct codec_desc *d = find_codec(name, len);
    if (d == NULL)
        return fail(c, AVROGEN_E_ARG, "unknown codec");
    c->id = d->id;
    c->name = d->name;
    if (level != 0 && (level < d->min_level || level > d->max_level))
        return fail(c, AVROGEN_E_ARG, "compression level out of range for this codec");
    if (level == 0) {
        switch (d->id) {
        case AVROGEN_CODEC_DEFLATE:
            level = DEFLATE_DEFAULT_LEVEL;
            break;
        case AVROGEN_CODEC_ZSTANDARD:
            level = ZSTD_CLEVEL_DEFAULT;
            break;
        case AVROGEN_CODEC_XZ:
            level = LZMA_PRESET_DEFAULT;
            break;
        case AVROGEN_CODEC_BZIP2:
            level = 9; /* what bzip2(1) and Python's bz2 use */
            break;
        case AVROGEN_CODEC_NULL:
        case AVROGEN_CODEC_SNAPPY:
            break;
        }
    }
    c->level = level;
    return AVROGEN_OK;
}

void avrogen_codec_fini(avrogen_codec *c)
{
    switch (c->id) {
    case AVROGEN_CODEC_DEFLATE:
        libdeflate_free_compressor(c->cstate);
        libdeflate_free_decompressor(c->dstate);
        break;
    case AVROGEN_CODEC_ZSTANDARD:
        ZSTD_freeCCtx(c->cstate);
        ZSTD_freeDCtx(c->dstate);
        break;
    case AVROGEN_CODEC_XZ:
        if (c->dstate != NULL) {
            xz_state *xs = c->dstate;
            lzma_end(&xs->strm);
            avrogen_free(&c->alloc, xs, sizeof *xs);
        }
        break;
    case AVROGEN_CODEC_NULL:
    case AVROGEN_CODEC_SNAPPY:
    case AVROGEN_CODEC_BZIP2:
        break;
    }
    c->cstate = c->dstate = NULL;
}

avrogen_status avrogen_codec_compress(avrogen_codec *c, const uint8_t *in, size_t len,
                                      avrogen_codec_buf *out)
{
    c->msg = NULL;
    switch (c->id) {
    case AVROGEN_CODEC_DEFLATE:
        return deflate_compress(c, in, len, out);
    case AVROGEN_CODEC_SNAPPY:
        return snappy_compress_block(c, in, len, out);
    case AVROGEN_CODEC_ZSTANDARD:
        return zstd_compress_block(c, in, len, out);
    case AVROGEN_CODEC_XZ:
        return xz_compress_block(c, in, len, out);
    case AVROGEN_CODEC_BZIP2:
        return bzip2_compress_block(c, in, len, out);
    case AVROGEN_CODEC_NULL:
        break;
    }
    out->len = 0;
    if (!avrogen_codec_buf_reserve(out, &c->alloc, len))
        return nomem(c);
    if (len != 0)
        memcpy(out->data, in, len);
    out->len = len;
    return AVROGEN_OK;
}

avrogen_status avrogen_codec_decompress(avrogen_codec *c, const uint8_t *in, size_t len,
                                        avrogen_codec_buf *out, size_t max)
{
    c->msg = NULL;
    switch (c->id) {
    case AVROGEN_CODEC_DEFLATE:
        return deflate_decompress(c, in, len, out, max);
    case AVROGEN_CODEC_SNAPPY:
        return snappy_decompress_block(c, in, len, out, max);
    case AVROGEN_CODEC_ZSTANDARD:
        return zstd_decompress_block(c, in, len, out, max);
    case AVROGEN_CODEC_XZ:
        return xz_decompress_block(c, in, len, out, max);
    case AVROGEN_CODEC_BZIP2:
        return bzip2_decompress_block(c, in, len, out, max);
    case AVROGEN_CODEC_NULL:
        break;
    }
    out->len = 0;
    if (len > max)
        return fail(c, AVROGEN_E_LIMIT, "block is larger than the reader's limit");
    if (!avrogen_codec_buf_reserve(out, &c->alloc, len))
        return nomem(c);
    if (len != 0)
        memcpy(out->data, in, len);
    out->len = len;
    return AVROGEN_OK;
}
