/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object container files: the header, block framing, sync markers and the
 * reader's and writer's streaming. Compression lives in codec.c and schema
 * resolution in resolve.c / resolve_type.c; here datums are bytes, delimited by
 * avrogen_ocf_reader_next_datum with avrogen_skip, while next_value, next_as
 * and next_json decode each where it lies in its block, in one pass
 * (next_decoded). The reader pulls the bytes it needs
 * from its stream into one buffer that grows only as data actually arrives, so
 * neither a lying length nor a huge file makes it allocate past its limits; a
 * regular file opened by path is read without stdio's buffer, each block
 * straight into place by one read(2), or, when the caller asks for it, mapped
 * and read like memory.
 */
/* madvise(MADV_DONTNEED) is not POSIX (posix_madvise's POSIX_MADV_DONTNEED is a no-op in glibc). */
#define _DEFAULT_SOURCE 1

#include "avrogen/ocf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "avrogen/resolve.h"
#include "avrogen/value.h"

#include "codec_internal.h"
#include "ocf_internal.h"
#include "ocf_pool.h"

#define SYNC_SIZE AVROGEN_OCF_SYNC_SIZE
/* First size of the reader's input buffer. */
#define READ_MIN_CAP ((size_t)64 * 1024)
/* Most worker threads of a reader or writer (opts->threads). */
#define MAX_THREADS 1024u

/* spec: a file starts with the four bytes 'O', 'b', 'j', 1. */
static const uint8_t ocf_magic[4] = {'O', 'b', 'j', 1};
/* Points zero-length blocks somewhere, so a datum view is never NULL. */
static const uint8_t empty_block[1];

/* ---- shared helpers ------------------------------------------------------- */

static AVROGEN_PRINTF(5, 0) avrogen_status
        vset_error(avrogen_status *err, avrogen_diag *d, avrogen_status s, uint64_t offset,
                   const char *fmt, va_list ap)
{
    if (*err != AVROGEN_OK)
        return *err;
    *err = s;
    memset(d, 0, sizeof *d);
    d->offset = offset > SIZE_MAX ? SIZE_MAX : (size_t)offset;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return s;
}

/* Copy `s` into `dst` as printable ASCII, for quoting untrusted names in messages. */
static const char *printable(char *dst, size_t cap, const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 4 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        dst[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (n + 4 >= cap && len > n) {
        memcpy(dst + n, "...", 3);
        n += 3;
    }
    dst[n] = '\0';
    return dst;
}

static void errno_text(int e, char *buf, size_t n)
{
    if (strerror_r(e, buf, n) != 0)
        snprintf(buf, n, "error %d", e);
}

bool avrogen_ocf_codec_supported(const char *name)
{
    return name != NULL && avrogen_codec_known(name, strlen(name));
}

bool avrogen_ocf_codec_levels(const char *name, int *min, int *max)
{
    int lo, hi;
    if (name == NULL || !avrogen_codec_levels(name, strlen(name), &lo, &hi))
        return false;
    if (min != NULL)
        *min = lo;
    if (max != NULL)
        *max = hi;
    return true;
}

/* ---- reader: input window --------------------------------------------------- */

typedef struct meta_entry {
    const char *key; /* NUL-terminated copy */
    size_t key_len;
    avrogen_bytes value; /* followed by a NUL */
} meta_entry;

struct avrogen_ocf_reader {
    avrogen_alloc alloc;
    FILE *f;           /* NULL when reading memory */
    bool own_file;     /* opened by avrogen_ocf_reader_open: fclose at close */
    size_t read_ahead; /* bytes fill may read past those asked for (f unbuffered), or 0 */
    bool eof;          /* f has returned end of file */
    bool pinned;       /* parsing the header: keep in[0..] where it is */
    const uint8_t *in; /* the window: the caller's memory, or buf */
    size_t in_len;     /* valid bytes at in */
    size_t in_pos;     /* next unread byte; in[in_pos..in_len) are buffered */
    uint64_t in_base;  /* stream offset of in[0] */
    uint8_t *buf;      /* input buffer when reading f */
    size_t buf_cap;
    void *map;          /* the file mapped read-only (opts->map), the window; or NULL */
    size_t map_len;     /* its size: the file's at open */
    size_t map_dropped; /* bytes at its start whose pages have been given back */
    size_t map_ready;   /* bytes at its start made resident ahead of the reader (map_ahead) */
    size_t map_page;    /* the page size, for advice on whole pages (0: unknown, none given) */
    size_t max_block;
    size_t max_header;
    uint64_t max_count;
    unsigned max_depth; /* of the readers of datums */

    uint8_t sync[SYNC_SIZE];
    avrogen_schema *schema;
    uint64_t fingerprint; /* CRC-64-AVRO of schema, taken once at open */
    avrogen_codec codec;
    bool datum_may_be_empty; /* the schema admits zero-byte datums */
    meta_entry *meta;
    size_t n_meta;
    char *meta_blob; /* every key and value, NUL-terminated */
    size_t meta_blob_size;
    avrogen_codec_buf out; /* the decompressed block */
    unsigned threads;      /* opts->threads */
    ocf_pool *pool;        /* decompressing workers (threads > 1, a codec), or NULL */
    uint64_t ahead_next;   /* stream offset of the next block to hand the workers */
    size_t ahead_hint;     /* the largest framed block yet: how far to read ahead a stream */

    uint64_t block_offset; /* stream offset of the current block */
    /* Framing of the current block, for raw access and recovery (resync). */
    const uint8_t *raw; /* its payload as stored (compressed), while in the window; or NULL */
    size_t raw_len;
    uint64_t block_end;   /* stream offset after its sync marker once checked, else 0 */
    bool framing;         /* its header is read and its marker not yet: fill keeps its bytes */
    uint64_t block_claim; /* the object count its header gives, once read, else 0 */
    bool fatal;           /* err is no damage to the data: resync cannot help */
    avrogen_reader cur;   /* next_datum's block */
    uint64_t datums_left; /* datums of cur next_datum has not handed out */
    uint64_t datum_index; /* index within its block of the next datum */
    bool in_block;        /* cur holds a block next_datum is walking */

    const avrogen_node *res_node; /* the reader node `resolver` reads as (next_value) */
    avrogen_resolver *resolver;   /* file schema -> res_node; NULL until needed */
    const avrogen_type *as_type;  /* the type next_as last checked the file against */
    avrogen_plan_cache *plans;    /* next_as's type plans; NULL until needed */

    avrogen_status err; /* first error, sticky */
    avrogen_diag diag;
    avrogen_ocf_typed *typed; /* avrogen_ocf_reader_open_type's state (ocf_typed.c), or NULL */
};

static AVROGEN_PRINTF(4, 5) avrogen_status
        rfail(avrogen_ocf_reader *r, avrogen_status s, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset_error(&r->err, &r->diag, s, offset, fmt, ap);
    va_end(ap);
    return r->err;
}

/* A reader of datums of r's blocks, with r's depth limit. */
static void datums_init(const avrogen_ocf_reader *r, avrogen_reader *dst, const void *data,
                        size_t len)
{
    avrogen_reader_init(dst, data, len);
    dst->max_depth = r->max_depth;
}

static uint64_t rpos(const avrogen_ocf_reader *r)
{
    return r->in_base + r->in_pos;
}

/*
 * Make `want` unread bytes available, reading from f as needed; returns how
 * many are (fewer only at end of input or after a read error, which is
 * recorded). The buffer grows at most to twice what has actually been read,
 * and fread is asked for no more than is needed, so a pipe is not read ahead;
 * a regular file opened by path (unbuffered, no copy through stdio) is asked
 * for read_ahead bytes more, so that the next block's header comes with this
 * block and each block is one read(2) into place.
 */
static size_t fill(avrogen_ocf_reader *r, size_t want)
{
    size_t avail = r->in_len - r->in_pos;
    if (avail >= want || r->f == NULL || r->eof || r->err != AVROGEN_OK)
        return avail;
    /*
     * Bytes before the position are dropped, but for what resync may scan
     * again: the block being framed, from its first byte, and the marker
     * copy that may end just before the position.
     */
    size_t keep = r->in_pos >= SYNC_SIZE ? r->in_pos - SYNC_SIZE : 0;
    if (r->framing && r->block_offset >= r->in_base && r->block_offset - r->in_base < keep)
        keep = (size_t)(r->block_offset - r->in_base);
    if (!r->pinned && keep != 0) {
        memmove(r->buf, r->buf + keep, r->in_len - keep);
        r->in_base += keep;
        r->in_len -= keep;
        r->in_pos -= keep;
    }
    size_t need;
    if (!avrogen_size_add(r->in_pos, want, &need)) {
        rfail(r, AVROGEN_E_LIMIT, rpos(r), "read of %zu bytes at offset %" PRIu64 " is too large",
              want, rpos(r));
        return avail;
    }
    size_t goal;
    if (!avrogen_size_add(need, r->read_ahead, &goal))
        goal = need;
    while (r->in_len < need) {
        if (r->in_len == r->buf_cap) {
            size_t cap = r->buf_cap <= SIZE_MAX / 2 ? r->buf_cap * 2 : SIZE_MAX;
            if (cap > goal)
                cap = goal;
            if (cap < READ_MIN_CAP)
                cap = READ_MIN_CAP;
            uint8_t *p = avrogen_realloc(&r->alloc, r->buf, r->buf_cap, cap);
            if (p == NULL) {
                rfail(r, AVROGEN_E_NOMEM, rpos(r), "out of memory reading offset %" PRIu64,
                      rpos(r));
                break;
            }
            r->in = r->buf = p;
            r->buf_cap = cap;
        }
        size_t ask = (goal < r->buf_cap ? goal : r->buf_cap) - r->in_len;
        size_t got = fread(r->buf + r->in_len, 1, ask, r->f);
        r->in_len += got;
        if (got < ask) {
            if (ferror(r->f)) {
                char text[96];
                errno_text(errno, text, sizeof text);
                rfail(r, AVROGEN_E_IO, r->in_base + r->in_len,
                      "read failed at offset %" PRIu64 ": %s", r->in_base + r->in_len, text);
            } else {
                r->eof = true;
            }
            break;
        }
    }
    return r->in_len - r->in_pos;
}

/*
 * Make `n` bytes available or record why not: E_LIMIT past the header limit
 * while parsing the header, E_TRUNCATED at the end of the input ("file ends
 * inside <what>"), or fill's own error.
 */
static bool need(avrogen_ocf_reader *r, size_t n, uint64_t at, const char *what)
{
    if (r->err != AVROGEN_OK)
        return false;
    if (r->pinned && (n > r->max_header || r->in_pos > r->max_header - n)) {
        rfail(r, AVROGEN_E_LIMIT, at,
              "header is larger than max_header_size (%zu bytes) at %s at offset %" PRIu64,
              r->max_header, what, at);
        return false;
    }
    if (fill(r, n) >= n)
        return true;
    if (r->err == AVROGEN_OK)
        rfail(r, AVROGEN_E_TRUNCATED, at, "file ends inside %s at offset %" PRIu64, what, at);
    return false;
}

/*
 * A long (spec §Binary Encoding: zigzag varint, at most 10 bytes) at the current
 * position, part of `what` which starts at offset `at` (for error messages).
 */
static bool in_long(avrogen_ocf_reader *r, int64_t *v, uint64_t at, const char *what)
{
    uint64_t u = 0;
    for (size_t i = 0; i < 10; i++) {
        if (!need(r, i + 1, at, what))
            return false;
        uint8_t b = r->in[r->in_pos + i];
        if (i == 9 && b > 1)
            break;
        u |= (uint64_t)(b & 0x7f) << (7 * i);
        if (b < 0x80) {
            r->in_pos += i + 1;
            *v = avrogen_zigzag_decode(u);
            return true;
        }
    }
    rfail(r, AVROGEN_E_OVERFLOW, at, "overlong varint in %s at offset %" PRIu64, what, at);
    return false;
}

/* ---- reader: header ------------------------------------------------------- */

typedef struct raw_entry {
    size_t key_at; /* window index of the key's bytes (the window is pinned) */
    size_t key_len;
    size_t val_at;
    size_t val_len;
} raw_entry;

/* A length-prefixed string or bytes value of the header; its window index in *at. */
static bool header_bytes(avrogen_ocf_reader *r, size_t *at, size_t *len, const char *what)
{
    uint64_t where = rpos(r);
    int64_t n;
    if (!in_long(r, &n, where, what))
        return false;
    if (n < 0) {
        rfail(r, AVROGEN_E_INVALID, where, "negative length of %s at offset %" PRIu64, what, where);
        return false;
    }
    if ((uint64_t)n > r->max_header - r->in_pos) {
        rfail(r, AVROGEN_E_LIMIT, where,
              "%s of %" PRId64 " bytes at offset %" PRIu64
              " would make the header larger than max_header_size (%zu bytes)",
              what, n, where, r->max_header);
        return false;
    }
    if (!need(r, (size_t)n, where, what))
        return false;
    *at = r->in_pos;
    *len = (size_t)n;
    r->in_pos += (size_t)n;
    return true;
}

static bool key_is(const meta_entry *e, const char *key)
{
    size_t n = strlen(key);
    return e->key_len == n && memcmp(e->key, key, n) == 0;
}

/* Copy the pinned window's entries into r->meta / r->meta_blob. */
static avrogen_status build_meta(avrogen_ocf_reader *r, const raw_entry *raw, size_t n)
{
    size_t total = 0, bytes;
    for (size_t i = 0; i < n; i++) {
        if (!avrogen_size_add(total, raw[i].key_len + raw[i].val_len + 2, &total))
            return rfail(r, AVROGEN_E_LIMIT, 0, "header metadata too large");
    }
    if (!avrogen_size_mul(n, sizeof *r->meta, &bytes))
        return rfail(r, AVROGEN_E_LIMIT, 0, "header metadata too large");
    if (n != 0 && (r->meta = avrogen_malloc(&r->alloc, bytes)) == NULL)
        return rfail(r, AVROGEN_E_NOMEM, 0, "out of memory reading the header");
    r->n_meta = n;
    if ((r->meta_blob = avrogen_malloc(&r->alloc, total)) == NULL)
        return rfail(r, AVROGEN_E_NOMEM, 0, "out of memory reading the header");
    r->meta_blob_size = total != 0 ? total : 1;
    char *p = r->meta_blob;
    for (size_t i = 0; i < n; i++) {
        meta_entry *e = &r->meta[i];
        memcpy(p, r->in + raw[i].key_at, raw[i].key_len);
        p[raw[i].key_len] = '\0';
        e->key = p;
        e->key_len = raw[i].key_len;
        p += raw[i].key_len + 1;
        memcpy(p, r->in + raw[i].val_at, raw[i].val_len);
        p[raw[i].val_len] = '\0';
        e->value.ptr = (const uint8_t *)p;
        e->value.len = raw[i].val_len;
        p += raw[i].val_len + 1;
    }
    return AVROGEN_OK;
}

/* Parse avro.schema and avro.codec. raw gives the entries' window positions for offsets. */
static avrogen_status interpret_meta(avrogen_ocf_reader *r, const raw_entry *raw)
{
    const meta_entry *schema = NULL, *codec = NULL;
    size_t schema_i = 0, codec_i = 0;
    for (size_t i = 0; i < r->n_meta; i++) {
        const meta_entry *e = &r->meta[i];
        /* A second schema or codec would make the file mean two things. */
        if (key_is(e, "avro.schema")) {
            if (schema != NULL)
                return rfail(r, AVROGEN_E_INVALID, r->in_base + raw[i].key_at,
                             "header repeats avro.schema at offset %" PRIu64,
                             r->in_base + raw[i].key_at);
            schema = e;
            schema_i = i;
        } else if (key_is(e, "avro.codec")) {
            if (codec != NULL)
                return rfail(r, AVROGEN_E_INVALID, r->in_base + raw[i].key_at,
                             "header repeats avro.codec at offset %" PRIu64,
                             r->in_base + raw[i].key_at);
            codec = e;
            codec_i = i;
        }
    }
    if (schema == NULL)
        return rfail(r, AVROGEN_E_INVALID, 0, "header has no avro.schema");

    /* spec: avro.codec is optional; absent means "null". */
    const char *name = codec != NULL ? (const char *)codec->value.ptr : "null";
    size_t name_len = codec != NULL ? codec->value.len : 4;
    if (avrogen_codec_init(&r->codec, name, name_len, 0, &r->alloc) != AVROGEN_OK) {
        char q[48];
        uint64_t at = r->in_base + raw[codec_i].val_at;
        return rfail(r, AVROGEN_E_INVALID, at,
                     "unsupported codec \"%s\" in avro.codec at offset %" PRIu64,
                     printable(q, sizeof q, name, name_len), at);
    }

    avrogen_diag sd;
    memset(&sd, 0, sizeof sd);
    avrogen_status st = avrogen_schema_parse((const char *)schema->value.ptr, schema->value.len,
                                             &r->alloc, &r->schema, &sd);
    if (st != AVROGEN_OK) {
        uint64_t at = r->in_base + raw[schema_i].val_at;
        if (st == AVROGEN_E_NOMEM)
            return rfail(r, st, at, "out of memory parsing avro.schema");
        rfail(r, AVROGEN_E_SCHEMA, at,
              "avro.schema at offset %" PRIu64 " is not a valid schema: %s", at, sd.msg);
        memcpy(r->diag.path, sd.path, sizeof r->diag.path);
        r->diag.line = sd.line;
        r->diag.column = sd.column;
        return r->err;
    }
    r->datum_may_be_empty = avrogen_schema_root(r->schema)->min_size == 0;
    r->fingerprint = avrogen_schema_fingerprint64(r->schema);
    return AVROGEN_OK;
}

static avrogen_status read_header(avrogen_ocf_reader *r)
{
    raw_entry *raw = NULL;
    size_t n = 0, cap = 0;
    r->pinned = true;

    if (fill(r, 4) < 4 || memcmp(r->in + r->in_pos, ocf_magic, 4) != 0) {
        if (r->err == AVROGEN_OK) {
            if (r->in_len - r->in_pos < 4 &&
                memcmp(r->in + r->in_pos, ocf_magic, r->in_len - r->in_pos) == 0)
                rfail(r, AVROGEN_E_TRUNCATED, 0, "file ends inside the 4-byte magic");
            else
                rfail(r, AVROGEN_E_INVALID, 0,
                      "not an Avro object container file (bad magic, want \"Obj\\x01\")");
        }
        goto out;
    }
    r->in_pos += 4;

    /* spec: the metadata is a map of bytes: blocks of (string key, bytes value) ended by 0. */
    for (;;) {
        uint64_t at = rpos(r);
        int64_t count;
        if (!in_long(r, &count, at, "the header's metadata"))
            goto out;
        if (count == 0)
            break;
        if (count < 0) {
            /* spec §Binary Encoding: a negative count is followed by the block's byte size. */
            int64_t size;
            if (count == INT64_MIN) {
                rfail(r, AVROGEN_E_INVALID, at,
                      "metadata block count out of range at offset %" PRIu64, at);
                goto out;
            }
            count = -count;
            if (!in_long(r, &size, at, "the header's metadata"))
                goto out;
            if (size < 0) {
                rfail(r, AVROGEN_E_INVALID, at, "negative metadata block size at offset %" PRIu64,
                      at);
                goto out;
            }
        }
        /* Each entry takes two bytes or more of a bounded header: a lying count ends there. */
        for (int64_t i = 0; i < count; i++) {
            raw_entry e;
            uint64_t key_off = rpos(r);
            if (!header_bytes(r, &e.key_at, &e.key_len, "a metadata key") ||
                !header_bytes(r, &e.val_at, &e.val_len, "a metadata value"))
                goto out;
            if (!avrogen_utf8_valid(r->in + e.key_at, e.key_len)) {
                rfail(r, AVROGEN_E_INVALID, key_off,
                      "metadata key at offset %" PRIu64 " is not UTF-8", key_off);
                goto out;
            }
            if (n == cap) {
                size_t ncap = cap != 0 ? cap * 2 : 8, bytes;
                raw_entry *p;
                if (!avrogen_size_mul(ncap, sizeof *raw, &bytes) ||
                    (p = avrogen_realloc(&r->alloc, raw, cap * sizeof *raw, bytes)) == NULL) {
                    rfail(r, AVROGEN_E_NOMEM, key_off, "out of memory reading the header");
                    goto out;
                }
                raw = p;
                cap = ncap;
            }
            raw[n++] = e;
        }
    }
    if (!need(r, SYNC_SIZE, rpos(r), "the header's sync marker"))
        goto out;
    memcpy(r->sync, r->in + r->in_pos, SYNC_SIZE);
    r->in_pos += SYNC_SIZE;
    if (build_meta(r, raw, n) == AVROGEN_OK)
        interpret_meta(r, raw);
out:
    avrogen_free(&r->alloc, raw, cap * sizeof *raw);
    r->pinned = false;
    return r->err;
}

static avrogen_status reader_new(const avrogen_ocf_reader_options *opts, avrogen_ocf_reader **out)
{
    const avrogen_alloc *alloc = opts != NULL ? opts->alloc : NULL;
    avrogen_ocf_reader *r = avrogen_malloc(alloc, sizeof *r);
    *out = r;
    if (r == NULL)
        return AVROGEN_E_NOMEM;
    memset(r, 0, sizeof *r);
    r->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    r->max_block = opts != NULL && opts->max_block_size != 0 ? opts->max_block_size
                                                             : AVROGEN_OCF_DEFAULT_MAX_BLOCK;
    /* Room for the block header and sync marker on top, without overflow. */
    if (r->max_block > SIZE_MAX - 64)
        r->max_block = SIZE_MAX - 64;
    r->max_header = opts != NULL && opts->max_header_size != 0 ? opts->max_header_size
                                                               : AVROGEN_OCF_DEFAULT_MAX_HEADER;
    r->max_count = opts != NULL && opts->max_block_count != 0 ? opts->max_block_count
                                                              : AVROGEN_DEFAULT_MAX_ITEMS;
    r->max_depth =
            opts != NULL && opts->max_depth != 0 ? opts->max_depth : AVROGEN_DEFAULT_MAX_DEPTH;
    r->threads = opts != NULL ? opts->threads : 0;
    datums_init(r, &r->cur, NULL, 0);
    return AVROGEN_OK;
}

void avrogen_ocf_reader_close(avrogen_ocf_reader *r)
{
    if (r == NULL)
        return;
    /* First: the workers may be reading the mapping or the caller's memory. */
    ocf_pool_free(r->pool);
    avrogen_ocf_typed_free(r->typed, &r->alloc);
    if (r->own_file && r->f != NULL)
        fclose(r->f);
    if (r->map != NULL)
        munmap(r->map, r->map_len);
    avrogen_codec_fini(&r->codec);
    avrogen_codec_buf_free(&r->out, &r->alloc);
    avrogen_resolver_free(r->resolver);
    avrogen_plan_cache_free(r->plans);
    avrogen_schema_free(r->schema);
    avrogen_free(&r->alloc, r->meta, r->n_meta * sizeof *r->meta);
    avrogen_free(&r->alloc, r->meta_blob, r->meta_blob_size);
    avrogen_free(&r->alloc, r->buf, r->buf_cap);
    avrogen_alloc alloc = r->alloc;
    avrogen_free(&alloc, r, sizeof *r);
}

/* Finish an open: read the header, or hand back its error and free r. */
static avrogen_status reader_start(avrogen_ocf_reader *r, avrogen_ocf_reader **out,
                                   avrogen_diag *diag)
{
    avrogen_status st = read_header(r);
    if (st == AVROGEN_OK && r->threads > 1 && r->codec.id != AVROGEN_CODEC_NULL) {
        unsigned n = r->threads > MAX_THREADS ? MAX_THREADS : r->threads;
        st = ocf_pool_new(&r->alloc, r->codec.name, 0, n, (size_t)n * 2, true, &r->pool);
        if (st != AVROGEN_OK)
            rfail(r, st, rpos(r), "cannot start %u decompression threads", n);
    }
    if (st != AVROGEN_OK) {
        if (diag != NULL)
            *diag = r->diag;
        avrogen_ocf_reader_close(r);
        *out = NULL;
        return st;
    }
    *out = r;
    return AVROGEN_OK;
}

static avrogen_status nomem_diag(avrogen_diag *diag)
{
    if (diag != NULL) {
        memset(diag, 0, sizeof *diag);
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
    }
    return AVROGEN_E_NOMEM;
}

avrogen_status avrogen_ocf_reader_open_file(FILE *f, const avrogen_ocf_reader_options *opts,
                                            avrogen_ocf_reader **out, avrogen_diag *diag)
{
    avrogen_ocf_reader *r;
    *out = NULL;
    if (reader_new(opts, &r) != AVROGEN_OK)
        return nomem_diag(diag);
    r->f = f;
    return reader_start(r, out, diag);
}

avrogen_status avrogen_ocf_reader_open_memory(const void *data, size_t len,
                                              const avrogen_ocf_reader_options *opts,
                                              avrogen_ocf_reader **out, avrogen_diag *diag)
{
    avrogen_ocf_reader *r;
    *out = NULL;
    if (reader_new(opts, &r) != AVROGEN_OK)
        return nomem_diag(diag);
    r->in = data != NULL ? data : empty_block;
    r->in_len = data != NULL ? len : 0;
    return reader_start(r, out, diag);
}

static avrogen_status io_diag(avrogen_diag *diag, const char *what, const char *path)
{
    if (diag != NULL) {
        char text[96];
        errno_text(errno, text, sizeof text);
        memset(diag, 0, sizeof *diag);
        snprintf(diag->msg, sizeof diag->msg, "cannot %s %s: %s", what, path, text);
    }
    return AVROGEN_E_IO;
}

/*
 * What fill reads past the bytes asked for from a regular file: a page, which
 * holds the next block's header (and small blocks whole).
 */
#define READ_AHEAD ((size_t)4096)

/*
 * Map the regular file `fd` (of `st`) read-only as r's window, when it is not
 * empty and fits the address space; false leaves r as it was, to be read.
 * Every length in the file is then checked against the mapping's size, as
 * against the bytes of open_memory; only a file cut short while mapped is
 * beyond the reader's reach (SIGBUS, the caller's: ocf.h).
 */
static bool map_file(avrogen_ocf_reader *r, int fd, const struct stat *st)
{
    if (st->st_size <= 0 || (uintmax_t)st->st_size > SIZE_MAX)
        return false;
    size_t len = (size_t)st->st_size;
    void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return false;
#ifdef MADV_SEQUENTIAL
    /* Only a hint: read ahead of the faults, and pages behind may go first. */
    (void)madvise(p, len, MADV_SEQUENTIAL);
#endif
    long page = sysconf(_SC_PAGESIZE);
    r->map = p;
    r->map_len = len;
    r->map_page = page > 0 ? (size_t)page : 0;
    r->in = p;
    r->in_len = len;
    return true;
}

/*
 * Bytes of a mapping read past before its pages are given back (MADV_DONTNEED):
 * the process's resident size stays near this however large the file.
 */
#define MAP_DROP_STEP ((size_t)8 << 20)

/*
 * Give back the pages of r's mapping that lie wholly before `upto` once there
 * are MAP_DROP_STEP bytes of them. On a shared file mapping this only unmaps
 * them from the process: the bytes stay in the page cache, and touching them
 * again (a view handed out earlier, a resync) maps them back unchanged.
 */
static void drop_mapped(avrogen_ocf_reader *r, uint64_t upto)
{
#ifdef MADV_DONTNEED
    if (r->map == NULL || r->map_page == 0 || upto > r->map_len ||
        upto - r->map_dropped < MAP_DROP_STEP)
        return;
    size_t end = (size_t)upto / r->map_page * r->map_page;
    if (end > r->map_dropped &&
        madvise((uint8_t *)r->map + r->map_dropped, end - r->map_dropped, MADV_DONTNEED) == 0)
        r->map_dropped = end;
#else
    (void)r;
    (void)upto;
#endif
}

/*
 * Bytes of a mapping made resident at a time, ahead of the block about to be
 * read (MADV_POPULATE_READ, Linux 5.14): one call maps them, where touching
 * them maps 64 KiB a fault (the kernel's fault-around), each fault breaking
 * into the decode; bench/RESULTS.md, "Issue 13, fourth pass". Older kernels
 * refuse the advice and the pages fault in as before. With MAP_DROP_STEP this
 * bounds the resident size at about 16 MiB and a block.
 */
#define MAP_AHEAD ((size_t)8 << 20)

/* Make the `n` bytes at the current position of r's mapping resident, and MAP_AHEAD more. */
static void map_ahead(avrogen_ocf_reader *r, size_t n)
{
#ifdef MADV_POPULATE_READ
    size_t at = r->in_pos, end;
    if (r->map == NULL || r->map_page == 0 || at >= r->map_len || n > r->map_len - at ||
        at + n <= r->map_ready)
        return;
    size_t from = (r->map_ready > at ? r->map_ready : at) / r->map_page * r->map_page;
    end = r->map_len - at - n > MAP_AHEAD ? at + n + MAP_AHEAD : r->map_len;
    /* Only advice: a file cut short fails it (EFAULT) and the access raises SIGBUS. */
    (void)madvise((uint8_t *)r->map + from, end - from, MADV_POPULATE_READ);
    r->map_ready = end;
#else
    (void)r;
    (void)n;
#endif
}

bool avrogen_ocf_reader_mapped(const avrogen_ocf_reader *r, avrogen_bytes *mapping)
{
    if (r->map == NULL)
        return false;
    if (mapping != NULL) {
        mapping->ptr = r->map;
        mapping->len = r->map_len;
    }
    return true;
}

avrogen_status avrogen_ocf_reader_open(const char *path, const avrogen_ocf_reader_options *opts,
                                       avrogen_ocf_reader **out, avrogen_diag *diag)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return io_diag(diag, "open", path);
    avrogen_ocf_reader *r;
    if (reader_new(opts, &r) != AVROGEN_OK) {
        fclose(f);
        return nomem_diag(diag);
    }
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    /* Mapped, the file is read as memory; the mapping outlives the descriptor. */
    if (regular && opts != NULL && opts->map && map_file(r, fileno(f), &st)) {
        fclose(f);
        return reader_start(r, out, diag);
    }
    /*
     * A regular file is read unbuffered, so read(2) puts each block straight
     * into the reader's buffer (a "null"-codec block is decoded there) instead
     * of through stdio's. Not mapped unless asked: a file truncated while
     * mapped would end the process with SIGBUS; read, it ends with E_TRUNCATED.
     */
    if (regular && setvbuf(f, NULL, _IONBF, 0) == 0) {
        r->read_ahead = READ_AHEAD;
        /* Only a hint (Linux doubles the kernel's read-ahead from disk); its result is moot. */
        (void)posix_fadvise(fileno(f), 0, 0, POSIX_FADV_SEQUENTIAL);
    }
    r->f = f;
    r->own_file = true;
    return reader_start(r, out, diag);
}

/* ---- reader: blocks ----------------------------------------------------------- */

/* The count and byte size of the block at the current position; false at a clean end too. */
static bool block_header(avrogen_ocf_reader *r, int64_t *count, int64_t *size, bool *end)
{
    r->block_offset = rpos(r);
    drop_mapped(r, r->block_offset);
    r->raw = NULL;
    r->raw_len = 0;
    r->block_end = 0;
    r->block_claim = 0;
    r->framing = true;
    *end = false;
    if (r->err != AVROGEN_OK)
        return false;
    if (fill(r, 1) == 0) {
        *end = r->err == AVROGEN_OK;
        return false;
    }
    uint64_t at = r->block_offset;
    if (!in_long(r, count, at, "the header of a block") ||
        !in_long(r, size, at, "the header of a block"))
        return false;
    if (*count < 0) {
        rfail(r, AVROGEN_E_INVALID, at,
              "block at offset %" PRIu64 " has a negative object count (%" PRId64 ")", at, *count);
        return false;
    }
    r->block_claim = (uint64_t)*count;
    if (*size < 0) {
        rfail(r, AVROGEN_E_INVALID, at,
              "block at offset %" PRIu64 " has a negative byte size (%" PRId64 ")", at, *size);
        return false;
    }
    if ((uint64_t)*count > r->max_count) {
        rfail(r, AVROGEN_E_LIMIT, at,
              "block at offset %" PRIu64 " claims %" PRId64
              " objects, more than max_block_count (%" PRIu64 ")",
              at, *count, r->max_count);
        return false;
    }
    return true;
}

static bool check_sync(avrogen_ocf_reader *r, const uint8_t *p, uint64_t at)
{
    if (memcmp(p, r->sync, SYNC_SIZE) == 0)
        return true;
    rfail(r, AVROGEN_E_INVALID, at,
          "block at offset %" PRIu64 ": sync marker does not match the header's "
          "(corrupt block size or data)",
          at);
    return false;
}

/* ---- reader: blocks decompressed ahead by workers (opts->threads) ---------------- */

/* A long at p[*i..end), or false when it is not all there or too long. */
static bool peek_long(const uint8_t *p, size_t end, size_t *i, int64_t *v)
{
    uint64_t u = 0;
    for (size_t k = 0; k < 10 && *i + k < end; k++) {
        uint8_t b = p[*i + k];
        if (k == 9 && b > 1)
            return false;
        u |= (uint64_t)(b & 0x7f) << (7 * k);
        if (b < 0x80) {
            *i += k + 1;
            *v = avrogen_zigzag_decode(u);
            return true;
        }
    }
    return false;
}

/*
 * Hand the workers the `sz` payload bytes at `payload` of the block at stream
 * offset `at`: a copy when r reads a stream (its window moves), else the
 * bytes where they lie (memory, a mapping). False when out of memory.
 */
static bool queue_ahead(avrogen_ocf_reader *r, uint64_t at, const uint8_t *payload, size_t sz)
{
    ocf_job *j = ocf_pool_next(r->pool);
    if (j == NULL)
        return false;
    j->in = payload;
    if (r->f != NULL) {
        j->own_in.len = 0;
        if (!avrogen_codec_buf_reserve(&j->own_in, &r->alloc, sz))
            return false;
        if (sz != 0)
            memcpy(j->own_in.data, payload, sz);
        j->own_in.len = sz;
        j->in = j->own_in.data != NULL ? j->own_in.data : empty_block;
    }
    j->in_len = sz;
    j->max = r->max_block;
    j->offset = at;
    ocf_pool_submit(r->pool);
    return true;
}

/*
 * Queue the blocks that follow, from r->ahead_next, while slots are free and
 * their framing is all in the window and sound. Nothing is reported: a block
 * left out is read, and its faults found, when the caller reaches it.
 */
static void look_ahead(avrogen_ocf_reader *r)
{
    while (ocf_pool_next(r->pool) != NULL) {
        uint64_t at = r->ahead_next;
        if (at < r->in_base || at - r->in_base > r->in_len)
            return;
        size_t i = (size_t)(at - r->in_base);
        int64_t n, size;
        if (!peek_long(r->in, r->in_len, &i, &n) || !peek_long(r->in, r->in_len, &i, &size) ||
            n < 0 || size < 0 || (uint64_t)n > r->max_count || (uint64_t)size > r->max_block)
            return;
        size_t sz = (size_t)size;
        if (r->in_len - i < sz + SYNC_SIZE || memcmp(r->in + i + sz, r->sync, SYNC_SIZE) != 0 ||
            !queue_ahead(r, at, r->in + i, sz))
            return;
        r->ahead_next = r->in_base + i + sz + SYNC_SIZE;
    }
}

/*
 * Before framing the next block of a stream: read far enough ahead for the
 * workers to have blocks to work on. An error met on the way is not the
 * caller's yet: forgotten here, the stream meets it again where one thread
 * would.
 */
static void fill_ahead(avrogen_ocf_reader *r)
{
    if (r->err != AVROGEN_OK || r->eof)
        return;
    size_t want;
    if (!avrogen_size_mul(ocf_pool_slots(r->pool), r->ahead_hint, &want))
        want = r->max_block;
    if (want < READ_MIN_CAP)
        want = READ_MIN_CAP;
    fill(r, want);
    if (r->err != AVROGEN_OK) {
        r->err = AVROGEN_OK;
        memset(&r->diag, 0, sizeof r->diag);
    }
}

/*
 * The block at `at` (its `sz` bytes at `payload`), decompressed into r->out by
 * a worker: queued now unless it already is, with the blocks after it. The
 * codec's status, its message in *msg.
 */
static avrogen_status take_ahead(avrogen_ocf_reader *r, uint64_t at, const uint8_t *payload,
                                 size_t sz, const char **msg)
{
    ocf_pool *p = r->pool;
    /* Blocks queued and then skipped (skip, resync) are dropped. */
    while (ocf_pool_in_flight(p) != 0 &&
           (ocf_pool_peek(p, 0)->offset != at || ocf_pool_peek(p, 0)->in_len != sz)) {
        (void)ocf_pool_oldest(p);
        ocf_pool_retire(p);
    }
    if (ocf_pool_in_flight(p) == 0) {
        if (!queue_ahead(r, at, payload, sz)) {
            *msg = "out of memory";
            return AVROGEN_E_NOMEM;
        }
        r->ahead_next = rpos(r);
    }
    look_ahead(r);
    ocf_job *j = ocf_pool_oldest(p);
    avrogen_codec_buf t = r->out;
    r->out = j->out;
    j->out = t;
    *msg = j->msg;
    avrogen_status st = j->st;
    ocf_pool_retire(p);
    return st;
}

static avrogen_status read_block(avrogen_ocf_reader *r, uint64_t *count, avrogen_reader *block)
{
    *count = 0;
    avrogen_reader_init(block, empty_block, 0);
    for (;;) {
        int64_t n, size;
        bool end;
        if (r->pool != NULL && r->f != NULL)
            fill_ahead(r);
        if (!block_header(r, &n, &size, &end))
            return end ? AVROGEN_OK : r->err;
        uint64_t at = r->block_offset;
        if ((uint64_t)size > r->max_block)
            return rfail(r, AVROGEN_E_LIMIT, at,
                         "block at offset %" PRIu64 " is %" PRId64
                         " bytes, more than max_block_size (%zu)",
                         at, size, r->max_block);
        size_t sz = (size_t)size;
        if (sz + 64 > r->ahead_hint)
            r->ahead_hint = sz + 64;
        map_ahead(r, sz + SYNC_SIZE);
        if (!need(r, sz + SYNC_SIZE, at, "a block"))
            return r->err;
        const uint8_t *payload = r->in + r->in_pos;
        if (!check_sync(r, payload + sz, at))
            return r->err;
        r->in_pos += sz + SYNC_SIZE;
        r->block_end = rpos(r);
        r->framing = false;
        r->raw = payload;
        r->raw_len = sz;

        const uint8_t *data = payload;
        size_t len = sz;
        if (r->codec.id != AVROGEN_CODEC_NULL) {
            avrogen_status st;
            const char *msg;
            if (r->pool != NULL) {
                st = take_ahead(r, at, payload, sz, &msg);
            } else {
                st = avrogen_codec_decompress(&r->codec, payload, sz, &r->out, r->max_block);
                msg = r->codec.msg;
            }
            if (st != AVROGEN_OK)
                return rfail(r, st, at, "block at offset %" PRIu64 ": %s: %s", at, r->codec.name,
                             msg != NULL ? msg : avrogen_status_str(st));
            data = r->out.data != NULL ? r->out.data : empty_block;
            len = r->out.len;
        }
        if (n == 0) {
            if (len != 0)
                return rfail(r, AVROGEN_E_INVALID, at,
                             "block at offset %" PRIu64 " holds %zu bytes but no objects", at, len);
            continue;
        }
        /* Unless a datum can be empty, each takes at least one byte. */
        if (!r->datum_may_be_empty && (uint64_t)n > len)
            return rfail(r, AVROGEN_E_INVALID, at,
                         "block at offset %" PRIu64 " claims %" PRId64 " objects in %zu bytes", at,
                         n, len);
        *count = (uint64_t)n;
        datums_init(r, block, data, len);
        return AVROGEN_OK;
    }
}

avrogen_status avrogen_ocf_reader_next_block(avrogen_ocf_reader *r, uint64_t *count,
                                             avrogen_reader *block)
{
    r->in_block = false;
    r->datums_left = 0;
    if (r->err != AVROGEN_OK) {
        *count = 0;
        avrogen_reader_init(block, empty_block, 0);
        return r->err;
    }
    return read_block(r, count, block);
}

/*
 * The next datum as a view into r->cur (datum->ptr NULL at the clean end). On
 * success r->datum_index is one past the datum's index in its block.
 */
/* Leave the block next_datum has walked to its end: no byte may be left over. */
static avrogen_status end_block(avrogen_ocf_reader *r)
{
    size_t rest = avrogen_reader_remaining(&r->cur);
    if (r->in_block && r->datums_left == 0 && rest != 0)
        return rfail(r, AVROGEN_E_INVALID, r->block_offset,
                     "block at offset %" PRIu64 " has %zu bytes after its last object",
                     r->block_offset, rest);
    r->in_block = false;
    r->datums_left = 0;
    return r->err;
}

/*
 * Make r->cur hold the next datum at its position, reading the next block when
 * the current one is done: false at the end of the file or on error (r->err).
 */
static bool datum_ahead(avrogen_ocf_reader *r)
{
    if (r->err != AVROGEN_OK)
        return false;
    while (r->datums_left == 0) {
        if (end_block(r) != AVROGEN_OK)
            return false;
        uint64_t n;
        if (read_block(r, &n, &r->cur) != AVROGEN_OK || n == 0)
            return false;
        r->in_block = true;
        r->datums_left = n;
        r->datum_index = 0;
    }
    avrogen_reader_begin_datum(&r->cur);
    return true;
}

/* The datum r->cur was reading is bad: a sticky error naming it. */
static avrogen_status datum_failed(avrogen_ocf_reader *r)
{
    return rfail(r, r->cur.err, r->block_offset,
                 "block at offset %" PRIu64 ", object %" PRIu64
                 " (byte %zu of the decompressed block): %s",
                 r->block_offset, r->datum_index, r->cur.err_offset,
                 r->cur.err_msg != NULL ? r->cur.err_msg : avrogen_status_str(r->cur.err));
}

static avrogen_status next_datum(avrogen_ocf_reader *r, avrogen_bytes *datum)
{
    datum->ptr = NULL;
    datum->len = 0;
    if (!datum_ahead(r))
        return r->err;
    const uint8_t *start = r->cur.p;
    if (avrogen_skip(&r->cur, avrogen_schema_root(r->schema)) != AVROGEN_OK)
        return datum_failed(r);
    datum->ptr = start;
    datum->len = (size_t)(r->cur.p - start);
    r->datums_left--;
    r->datum_index++;
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_reader_next_datum(avrogen_ocf_reader *r, avrogen_bytes *datum)
{
    return next_datum(r, datum);
}

/* ---- reader: decoded datums -------------------------------------------------- */

/*
 * The schemas of the file and of the caller cannot be resolved: a sticky error
 * at no particular offset, with the reader path (`why` from the resolver or
 * the plan builder) in diag.path and the message.
 */
static avrogen_status mismatch(avrogen_ocf_reader *r, avrogen_status st, const avrogen_diag *why,
                               const char *reader_name)
{
    r->fatal = r->err == AVROGEN_OK;
    if (st == AVROGEN_E_NOMEM)
        return rfail(r, st, 0, "out of memory resolving the file's schema");
    rfail(r, st, 0, "the file's schema cannot be read as %s: %s%s%s", reader_name, why->path,
          why->path[0] != '\0' ? ": " : "",
          why->msg[0] != '\0' ? why->msg : avrogen_status_str(st));
    memcpy(r->diag.path, why->path, sizeof r->diag.path);
    r->diag.path[sizeof r->diag.path - 1] = '\0';
    return r->err;
}

/*
 * The next datum's bytes, set up for decoding in their own reader `dr`, so that
 * a decoder can neither read past the datum nor leave part of it unread
 * unnoticed. *at is the datum's byte offset within the decompressed block.
 */
static avrogen_status datum_reader(avrogen_ocf_reader *r, avrogen_reader *dr, size_t *at, bool *got)
{
    avrogen_bytes d;
    *got = false;
    if (next_datum(r, &d) != AVROGEN_OK || d.ptr == NULL)
        return r->err;
    *at = (size_t)(d.ptr - r->cur.start);
    datums_init(r, dr, d.ptr, d.len);
    *got = true;
    return AVROGEN_OK;
}

/*
 * Check how decoding the datum in `dr` (at byte `at` of the block) ended:
 * status `st` from the decoder, and every byte consumed. Errors are sticky,
 * named like next_datum's, with the byte where decoding stopped.
 */
static avrogen_status datum_done(avrogen_ocf_reader *r, const avrogen_reader *dr, size_t at,
                                 avrogen_status st)
{
    uint64_t index = r->datum_index - 1;
    size_t len = (size_t)(dr->end - dr->start);
    if (st != AVROGEN_OK && dr->err == AVROGEN_E_TRUNCATED)
        return rfail(r, dr->err, r->block_offset,
                     "block at offset %" PRIu64 ", object %" PRIu64
                     " (byte %zu of the decompressed block): decoding ran past the object's "
                     "end (%zu bytes)",
                     r->block_offset, index, at + dr->err_offset, len);
    if (st != AVROGEN_OK)
        return rfail(r, st, r->block_offset,
                     "block at offset %" PRIu64 ", object %" PRIu64
                     " (byte %zu of the decompressed block): %s",
                     r->block_offset, index, at + (dr->err != AVROGEN_OK ? dr->err_offset : 0),
                     dr->err_msg != NULL ? dr->err_msg : avrogen_status_str(st));
    if (avrogen_reader_remaining(dr) != 0)
        return rfail(r, AVROGEN_E_INVALID, r->block_offset,
                     "block at offset %" PRIu64 ", object %" PRIu64
                     " (byte %zu of the decompressed block): decoding used %zu of the "
                     "object's %zu bytes",
                     r->block_offset, index, at + avrogen_reader_offset(dr),
                     avrogen_reader_offset(dr), len);
    return AVROGEN_OK;
}

/* The resolver from the file's schema to `reader`, built unless it is the one r has. */
static avrogen_status prepare_resolver(avrogen_ocf_reader *r, const avrogen_node *reader)
{
    if (r->resolver != NULL && r->res_node == reader)
        return AVROGEN_OK;
    avrogen_resolver_free(r->resolver);
    r->resolver = NULL;
    r->res_node = NULL;
    avrogen_diag why;
    memset(&why, 0, sizeof why);
    avrogen_status st = avrogen_resolver_new(avrogen_schema_root(r->schema), reader, &r->alloc,
                                             &r->resolver, &why);
    if (st != AVROGEN_OK)
        return mismatch(r, st, &why, "the reader schema");
    r->res_node = reader;
    return AVROGEN_OK;
}

/* What a datum is decoded into: a value (next_value) or, when `type` is set, a struct (next_as). */
typedef struct datum_sink {
    const avrogen_node *reader; /* next_value: the file's own root, or res_node */
    avrogen_value *out;
    const avrogen_type *type; /* next_as; NULL for next_value */
    void *dst;
    avrogen_arena *arena;
} datum_sink;

static avrogen_status decode_into(avrogen_ocf_reader *r, const datum_sink *k, avrogen_reader *dr)
{
    if (k->type != NULL)
        return avrogen_decode_as(k->type, r->plans, r->fingerprint, r->schema, dr, k->dst,
                                 k->arena);
    if (k->reader == avrogen_schema_root(r->schema))
        return avrogen_value_decode(dr, k->reader, k->out, k->arena);
    return avrogen_resolver_decode(r->resolver, dr, k->out, k->arena);
}

/* The next datum delimited by avrogen_skip, then decoded from exactly its bytes. */
static avrogen_status decode_delimited(avrogen_ocf_reader *r, const datum_sink *k, bool *got)
{
    avrogen_reader dr;
    size_t at = 0;
    if (datum_reader(r, &dr, &at, got) != AVROGEN_OK || !*got)
        return r->err;
    if (datum_done(r, &dr, at, decode_into(r, k, &dr)) != AVROGEN_OK) {
        *got = false;
        return r->err;
    }
    return AVROGEN_OK;
}

/*
 * The next datum decoded where it lies in its block, in one pass, as next_json
 * prints it: delimiting it first with avrogen_skip cost as much again as the
 * decode. The first datum of each block is still delimited and decoded from
 * exactly its bytes (one skip a block), so that a decoder that disagrees with
 * the file about where a datum ends (a hand-written or stale descriptor) is
 * named at once, with datum_done's message; after that, such a disagreement
 * shows as a later datum's error or as bytes left at the block's end.
 *
 * A datum that fails is read again the delimited way, from its first byte: the
 * error is then exactly the one delimiting first gave (the skip's for data the
 * file's schema rejects, with its offset; else the decoder's, checked against
 * the datum's bounds), and the cost stays on the path that ends the read.
 */
static avrogen_status next_decoded(avrogen_ocf_reader *r, const datum_sink *k, bool *got)
{
    *got = false;
    if (!datum_ahead(r))
        return r->err;
    if (r->datum_index == 0)
        return decode_delimited(r, k, got);
    avrogen_reader *cur = &r->cur;
    const uint8_t *start = cur->p;
    avrogen_status st = decode_into(r, k, cur);
    if (st != AVROGEN_OK || cur->err != AVROGEN_OK) {
        cur->p = start;
        cur->err = AVROGEN_OK;
        cur->err_offset = 0;
        cur->err_msg = NULL;
        return decode_delimited(r, k, got);
    }
    r->datums_left--;
    r->datum_index++;
    *got = true;
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_reader_next_value(avrogen_ocf_reader *r, const avrogen_node *reader,
                                             avrogen_value *out, avrogen_arena *a, bool *got)
{
    *got = false;
    if (r->err != AVROGEN_OK)
        return r->err;
    const avrogen_node *own = avrogen_schema_root(r->schema);
    if (reader == NULL)
        reader = own;
    /* Resolution is settled before any datum is consumed. */
    if (reader != own && prepare_resolver(r, reader) != AVROGEN_OK)
        return r->err;
    const datum_sink k = {.reader = reader, .out = out, .arena = a};
    return next_decoded(r, &k, got);
}

avrogen_status avrogen_ocf_reader_next_json(avrogen_ocf_reader *r, avrogen_writer *w,
                                            unsigned flags, const avrogen_json_sink *sink,
                                            bool *got)
{
    *got = false;
    if (!datum_ahead(r))
        return r->err;
    /* Printed where it lies, without delimiting it first: the printer reads
     * every byte of the datum as the skip would, with the same checks. */
    const avrogen_node *root = avrogen_schema_root(r->schema);
    const uint8_t *start = r->cur.p;
    avrogen_status st = avrogen_datum_to_json(&r->cur, root, w, flags, sink);
    if (r->cur.err != AVROGEN_OK)
        return datum_failed(r);
    if (st != AVROGEN_OK) {
        /* The writer's or the sink's: the file is fine, and the datum is
         * passed over so that r stays usable. */
        r->cur.p = start;
        avrogen_reader_begin_datum(&r->cur);
        if (avrogen_skip(&r->cur, root) != AVROGEN_OK)
            return datum_failed(r);
    }
    r->datums_left--;
    r->datum_index++;
    *got = st == AVROGEN_OK;
    return st;
}

/* True when t carries an ahead-of-time decoder for data written with fingerprint fp. */
static bool has_resolved_decoder(const avrogen_type *t, uint64_t fp)
{
    for (size_t i = 0; i < t->n_resolved; i++) {
        if (t->resolved[i].fingerprint == fp)
            return true;
    }
    return false;
}

/*
 * Before next_as reads its first datum as t: when neither t's own decoder nor
 * one of its ahead-of-time decoders fits the file, build the type plan now, so
 * that schemas that do not resolve fail once, with the reason, before anything
 * is consumed. avrogen_decode_as then finds the plan in the cache.
 */
static avrogen_status prepare_type(avrogen_ocf_reader *r, const avrogen_type *t)
{
    if (r->as_type == t)
        return AVROGEN_OK;
    if (t->fingerprint != r->fingerprint && !has_resolved_decoder(t, r->fingerprint)) {
        if (r->plans == NULL && (r->plans = avrogen_plan_cache_new(&r->alloc)) == NULL)
            return rfail(r, AVROGEN_E_NOMEM, 0, "out of memory resolving the file's schema");
        const avrogen_type_plan *plan;
        avrogen_diag why;
        memset(&why, 0, sizeof why);
        avrogen_status st = avrogen_plan_cache_type_plan(r->plans, r->schema, t, &plan, &why);
        if (st != AVROGEN_OK)
            return mismatch(r, st, &why, t->name != NULL ? t->name : "the generated type");
    }
    r->as_type = t;
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_reader_next_as(avrogen_ocf_reader *r, const avrogen_type *t, void *dst,
                                          avrogen_arena *a, bool *got)
{
    *got = false;
    if (t == NULL || t->kind != AVROGEN_KIND_RECORD || t->schema_text == NULL || t->decode == NULL)
        return AVROGEN_E_ARG;
    if (r->err != AVROGEN_OK)
        return r->err;
    if (prepare_type(r, t) != AVROGEN_OK)
        return r->err;
    const datum_sink k = {.type = t, .dst = dst, .arena = a};
    return next_decoded(r, &k, got);
}

uint64_t avrogen_ocf_reader_block_offset(const avrogen_ocf_reader *r)
{
    return r->block_offset;
}

avrogen_status avrogen_ocf_reader_error(const avrogen_ocf_reader *r, avrogen_diag *diag)
{
    if (diag != NULL)
        *diag = r->diag;
    return r->err;
}

avrogen_ocf_typed *avrogen_ocf_reader_typed(const avrogen_ocf_reader *r)
{
    return r->typed;
}

void avrogen_ocf_reader_set_typed(avrogen_ocf_reader *r, avrogen_ocf_typed *t)
{
    r->typed = t;
}

avrogen_status avrogen_ocf_reader_fail(avrogen_ocf_reader *r, avrogen_status s, const char *msg)
{
    return rfail(r, s, rpos(r), "%s", msg);
}

void avrogen_ocf_reader_prefix_error(avrogen_ocf_reader *r, const char *prefix)
{
    char msg[sizeof r->diag.msg];
    snprintf(msg, sizeof msg, "%s%s", prefix, r->diag.msg);
    memcpy(r->diag.msg, msg, sizeof msg);
}

const avrogen_schema *avrogen_ocf_reader_schema(const avrogen_ocf_reader *r)
{
    return r->schema;
}

uint64_t avrogen_ocf_reader_fingerprint(const avrogen_ocf_reader *r)
{
    return r->fingerprint;
}

const char *avrogen_ocf_reader_codec(const avrogen_ocf_reader *r)
{
    return r->codec.name;
}

const uint8_t *avrogen_ocf_reader_sync(const avrogen_ocf_reader *r)
{
    return r->sync;
}

size_t avrogen_ocf_reader_meta_count(const avrogen_ocf_reader *r)
{
    return r->n_meta;
}

bool avrogen_ocf_reader_meta_at(const avrogen_ocf_reader *r, size_t i, const char **key,
                                size_t *key_len, avrogen_bytes *value)
{
    if (i >= r->n_meta)
        return false;
    if (key != NULL)
        *key = r->meta[i].key;
    if (key_len != NULL)
        *key_len = r->meta[i].key_len;
    if (value != NULL)
        *value = r->meta[i].value;
    return true;
}

bool avrogen_ocf_reader_meta_get(const avrogen_ocf_reader *r, const char *key, avrogen_bytes *value)
{
    for (size_t i = r->n_meta; i-- > 0;) {
        if (key_is(&r->meta[i], key)) {
            if (value != NULL)
                *value = r->meta[i].value;
            return true;
        }
    }
    return false;
}

/*
 * Move past `n` bytes of the stream from the current position, inside the
 * block at `at`: within the window, by seeking where the stream can seek, else
 * by reading and dropping them. A seek past the end shows at the next read.
 */
static bool skip_bytes(avrogen_ocf_reader *r, uint64_t n, uint64_t at)
{
    size_t avail = r->in_len - r->in_pos;
    if (n <= avail) {
        r->in_pos += (size_t)n;
        return true;
    }
    if (r->f == NULL) {
        r->in_pos = r->in_len;
        rfail(r, AVROGEN_E_TRUNCATED, at, "file ends inside a block at offset %" PRIu64, at);
        return false;
    }
    n -= avail;
    r->in_base += r->in_len;
    r->in_len = r->in_pos = 0;
    off_t delta = (off_t)n;
    if (delta >= 0 && (uint64_t)delta == n && fseeko(r->f, delta, SEEK_CUR) == 0) {
        r->in_base += n;
        r->eof = false;
        return true;
    }
    /* A pipe: read the bytes and drop them, a buffer at a time. */
    while (n != 0) {
        size_t want = n < READ_MIN_CAP ? (size_t)n : READ_MIN_CAP;
        if (fill(r, want) < want) {
            if (r->err == AVROGEN_OK)
                rfail(r, AVROGEN_E_TRUNCATED, at, "file ends inside a block at offset %" PRIu64,
                      at);
            return false;
        }
        r->in_pos += want;
        n -= want;
    }
    return true;
}

/* The sync marker that ends the block at `at`, at the current position. */
static bool block_sync(avrogen_ocf_reader *r, uint64_t at)
{
    if (!need(r, SYNC_SIZE, at, "a block"))
        return false;
    if (!check_sync(r, r->in + r->in_pos, at))
        return false;
    r->in_pos += SYNC_SIZE;
    r->block_end = rpos(r);
    r->framing = false;
    return true;
}

/*
 * For append: walk every block checking its framing (count, size, sync marker)
 * without reading payloads, seeking over them, so that the file is known to
 * end exactly after its last block.
 */
static avrogen_status verify_blocks(avrogen_ocf_reader *r)
{
    for (;;) {
        int64_t n, size;
        bool end;
        if (!block_header(r, &n, &size, &end))
            return end ? AVROGEN_OK : r->err;
        if (!skip_bytes(r, (uint64_t)size, r->block_offset) || !block_sync(r, r->block_offset))
            return r->err;
    }
}

/*
 * Move past the block at the current position by its framing alone, reading
 * its payload only where the stream cannot seek; *count is its object count,
 * *end true at the clean end of the file.
 */
static bool frame_block(avrogen_ocf_reader *r, uint64_t *count, bool *end)
{
    int64_t n, size;
    *count = 0;
    if (!block_header(r, &n, &size, end))
        return false;
    uint64_t at = r->block_offset;
    if ((uint64_t)size > r->max_block) {
        rfail(r, AVROGEN_E_LIMIT, at,
              "block at offset %" PRIu64 " is %" PRId64 " bytes, more than max_block_size (%zu)",
              at, size, r->max_block);
        return false;
    }
    /* What read_block checks of the count, where that needs no decompression. */
    if (r->codec.id == AVROGEN_CODEC_NULL && !r->datum_may_be_empty && n > size) {
        rfail(r, AVROGEN_E_INVALID, at,
              "block at offset %" PRIu64 " claims %" PRId64 " objects in %" PRId64 " bytes", at, n,
              size);
        return false;
    }
    if (!skip_bytes(r, (uint64_t)size, at) || !block_sync(r, at))
        return false;
    *count = (uint64_t)n;
    return true;
}

avrogen_status avrogen_ocf_reader_skip_block(avrogen_ocf_reader *r, uint64_t *count)
{
    bool end = false;
    *count = 0;
    if (end_block(r) != AVROGEN_OK)
        return r->err;
    while (*count == 0) {
        if (!frame_block(r, count, &end))
            return end ? AVROGEN_OK : r->err;
    }
    return AVROGEN_OK;
}

/*
 * The object count of the block at the current position, read without
 * consuming anything; false when its header is not all there or not valid
 * (reading the block says why).
 */
static bool peek_count(avrogen_ocf_reader *r, uint64_t *count)
{
    size_t avail = fill(r, 20);
    const uint8_t *p = r->in + r->in_pos;
    uint64_t u = 0;
    for (size_t i = 0; i < avail && i < 9; i++) {
        u |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
            int64_t v = avrogen_zigzag_decode(u);
            *count = (uint64_t)v;
            return v >= 0;
        }
    }
    return false;
}

avrogen_status avrogen_ocf_reader_skip(avrogen_ocf_reader *r, uint64_t n, uint64_t *skipped)
{
    avrogen_bytes d;
    *skipped = 0;
    /* The rest of the current block datum by datum, whole blocks by their framing. */
    while (*skipped < n && r->datums_left != 0) {
        if (next_datum(r, &d) != AVROGEN_OK)
            return r->err;
        ++*skipped;
    }
    if (end_block(r) != AVROGEN_OK)
        return r->err;
    uint64_t count;
    bool end = false;
    while (*skipped < n && peek_count(r, &count) && count <= n - *skipped) {
        if (!frame_block(r, &count, &end))
            return end ? AVROGEN_OK : r->err;
        *skipped += count;
    }
    while (*skipped < n) {
        if (next_datum(r, &d) != AVROGEN_OK || d.ptr == NULL)
            return r->err;
        ++*skipped;
    }
    return AVROGEN_OK;
}

bool avrogen_ocf_reader_block_payload(const avrogen_ocf_reader *r, avrogen_bytes *payload)
{
    if (r->err != AVROGEN_OK || r->raw == NULL)
        return false;
    payload->ptr = r->raw;
    payload->len = r->raw_len;
    return true;
}

uint64_t avrogen_ocf_reader_position(const avrogen_ocf_reader *r)
{
    return rpos(r);
}

uint64_t avrogen_ocf_reader_block_count(const avrogen_ocf_reader *r)
{
    return r->block_claim;
}

/*
 * Make `want` bytes past the current position available for resync's scan,
 * asking a stream for twice as many when it must be read, so that the scan,
 * which moves a byte at a time and asks as far as a block can reach, moves
 * the window seldom; returns how many are.
 */
static size_t scan_window(avrogen_ocf_reader *r, size_t want)
{
    size_t avail = r->in_len - r->in_pos;
    if (avail >= want || r->f == NULL)
        return avail;
    size_t more;
    if (!avrogen_size_add(want, want > READ_MIN_CAP ? want : READ_MIN_CAP, &more))
        more = want;
    return fill(r, more);
}

/*
 * The block at the current position, by its framing alone: its header reads
 * within the reader's limits and a copy of the sync marker follows its
 * payload, all within the input. Its count, header length and payload size in
 * *count, *hdr and *size. Consumes nothing.
 */
static bool frames_here(avrogen_ocf_reader *r, int64_t *count, size_t *hdr, size_t *size)
{
    size_t avail = scan_window(r, 20);
    const uint8_t *p = r->in + r->in_pos;
    size_t at = 0;
    int64_t v[2];
    for (int k = 0; k < 2; k++)
        if (!peek_long(p, avail, &at, &v[k]))
            return false;
    if (v[0] < 0 || v[1] < 0 || (uint64_t)v[1] > r->max_block)
        return false;
    size_t end = at + (size_t)v[1];
    if (scan_window(r, end + SYNC_SIZE) < end + SYNC_SIZE)
        return false;
    p = r->in + r->in_pos; /* the window may have moved */
    if (memcmp(p + end, r->sync, SYNC_SIZE) != 0)
        return false;
    *count = v[0];
    *hdr = at;
    *size = (size_t)v[1];
    return true;
}

/*
 * Whether the block framed at the current position decodes: its payload
 * decompresses (the codec's own checks pass) and its datums, delimited by
 * the generic skip with the file's schema, are exactly its count, with no
 * byte left over. What read_block and next_datum would find, without the
 * error; uses r->out.
 */
static bool sound_here(avrogen_ocf_reader *r, int64_t count, size_t hdr, size_t size)
{
    const uint8_t *data = r->in + r->in_pos + hdr;
    size_t len = size;
    if ((uint64_t)count > r->max_count)
        return false;
    if (r->codec.id != AVROGEN_CODEC_NULL) {
        if (avrogen_codec_decompress(&r->codec, data, size, &r->out, r->max_block) != AVROGEN_OK)
            return false;
        data = r->out.data != NULL ? r->out.data : empty_block;
        len = r->out.len;
    }
    if (!r->datum_may_be_empty && (uint64_t)count > len)
        return false;
    avrogen_reader block;
    datums_init(r, &block, data, len);
    const avrogen_node *root = avrogen_schema_root(r->schema);
    for (int64_t i = 0; i < count; i++) {
        avrogen_reader_begin_datum(&block);
        if (avrogen_skip(&block, root) != AVROGEN_OK)
            return false;
    }
    return avrogen_reader_remaining(&block) == 0;
}

/*
 * Move to where reading should go on after damage at stream offset `from`:
 * the first position past it where a block frames and either decodes or
 * directly follows a copy of the sync marker (a block of the file, damaged or
 * not), or the end of the input. On a stream the scan starts no earlier than
 * the window does.
 */
static void scan_for_block(avrogen_ocf_reader *r, uint64_t from)
{
    if (from + 1 > r->in_base && from + 1 - r->in_base <= r->in_len)
        r->in_pos = (size_t)(from + 1 - r->in_base);
    else if (from + 1 <= r->in_base)
        r->in_pos = 0;
    for (;; r->in_pos++) {
        if (scan_window(r, 1) == 0 || r->err != AVROGEN_OK)
            return; /* the end of the input, or an error that is no damage */
        int64_t count;
        size_t hdr, size;
        if (!frames_here(r, &count, &hdr, &size))
            continue;
        bool anchored = r->in_pos >= SYNC_SIZE &&
                        memcmp(r->in + r->in_pos - SYNC_SIZE, r->sync, SYNC_SIZE) == 0;
        if (anchored || sound_here(r, count, hdr, size))
            return;
    }
}

avrogen_status avrogen_ocf_reader_reject_block(avrogen_ocf_reader *r, const char *why)
{
    if (r->err != AVROGEN_OK || r->block_end == 0)
        return r->err;
    r->in_block = false;
    r->datums_left = 0;
    return rfail(r, AVROGEN_E_INVALID, r->block_offset, "%s", why);
}

avrogen_status avrogen_ocf_reader_resync(avrogen_ocf_reader *r, uint64_t *from, uint64_t *to)
{
    uint64_t start = r->block_offset;
    if (from != NULL)
        *from = rpos(r);
    if (to != NULL)
        *to = rpos(r);
    if (r->err == AVROGEN_OK)
        return AVROGEN_OK;
    if (r->fatal || r->err == AVROGEN_E_IO || r->err == AVROGEN_E_NOMEM)
        return r->err;
    r->err = AVROGEN_OK;
    memset(&r->diag, 0, sizeof r->diag);
    r->in_block = false;
    r->datums_left = 0;
    datums_init(r, &r->cur, NULL, 0);
    r->raw = NULL;
    r->block_end = 0;
    r->framing = false;
    /*
     * Every position after the damaged block's first byte is a candidate: a
     * header parse that failed has consumed bytes that may hold a copy of the
     * marker, and a block framed over intact ones (junk whose "size" reaches
     * a later marker) hides them; so the scan goes byte by byte from there.
     */
    scan_for_block(r, start);
    if (from != NULL)
        *from = start;
    if (to != NULL)
        *to = rpos(r);
    return r->err;
}

/* ---- writer --------------------------------------------------------------------- */

struct avrogen_ocf_writer {
    avrogen_alloc alloc;
    FILE *f;
    bool own_file; /* opened by avrogen_ocf_writer_open*: fclose at close */
    avrogen_schema *schema;
    avrogen_codec codec;
    uint8_t sync[SYNC_SIZE];
    size_t block_size;        /* flush once the block holds this many bytes */
    avrogen_writer block;     /* the current block's datums, uncompressed */
    size_t block_cap;         /* allocated size of block's buffer, tracked by block_alloc */
    uint64_t block_count;     /* datums in block */
    size_t datum_mark;        /* block length when the open datum began */
    bool in_datum;            /* between datum_begin and datum_end */
    uint64_t n_ended;         /* datums ended, written or dropped: the next one's record number */
    avrogen_status dropped;   /* why datum_end last dropped a datum, or AVROGEN_OK */
    avrogen_diag dropped_msg; /* its message, "record N: ..." */
    const avrogen_type *type; /* what avrogen_ocf_writer_put encodes with, or NULL */
    avrogen_codec_buf packed; /* the compressed block */
    unsigned threads;         /* opts->threads */
    ocf_pool *pool;           /* compressing workers (threads > 1, a codec), or NULL */
    uint64_t offset;          /* stream offset of the next byte written */
    avrogen_status err;       /* first error, sticky */
    avrogen_diag diag;
};

static AVROGEN_PRINTF(4, 5) avrogen_status
        wfail(avrogen_ocf_writer *w, avrogen_status s, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset_error(&w->err, &w->diag, s, offset, fmt, ap);
    va_end(ap);
    return w->err;
}

/*
 * The block writer's allocator: the user's, plus a note of the buffer's size.
 * writer_fail shrinks `end` to the failure point, so dropping a failed datum
 * needs the real capacity from here.
 */
static void *block_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    avrogen_ocf_writer *w = ctx;
    void *p = avrogen_realloc(&w->alloc, ptr, old_size, new_size);
    if (p != NULL || new_size == 0)
        w->block_cap = new_size;
    return p;
}

static void drop_datum(avrogen_ocf_writer *w)
{
    avrogen_writer *b = &w->block;
    if (b->start != NULL) {
        b->p = b->start + w->datum_mark;
        b->end = b->start + w->block_cap;
    }
    b->err = AVROGEN_OK;
    b->err_offset = 0;
}

static avrogen_status emit(avrogen_ocf_writer *w, const void *data, size_t len)
{
    if (len != 0 && fwrite(data, 1, len, w->f) != len) {
        char text[96];
        errno_text(errno, text, sizeof text);
        return wfail(w, AVROGEN_E_IO, w->offset, "write failed at offset %" PRIu64 ": %s",
                     w->offset, text);
    }
    w->offset += len;
    return AVROGEN_OK;
}

/* spec: a block is its object count, its byte size after the codec, the bytes, the sync marker. */
static avrogen_status emit_block(avrogen_ocf_writer *w, uint64_t count, const void *payload,
                                 size_t len)
{
    uint8_t head[20];
    avrogen_writer hw;
    avrogen_writer_init_fixed(&hw, head, sizeof head);
    avrogen_write_long(&hw, (int64_t)count);
    avrogen_write_long(&hw, (int64_t)len);
    if (emit(w, head, avrogen_writer_len(&hw)) == AVROGEN_OK && emit(w, payload, len) == AVROGEN_OK)
        emit(w, w->sync, SYNC_SIZE);
    return w->err;
}

/*
 * Write the oldest block of w's pool (done) in its place in the file, or keep
 * its compression error, as flush_block would have on one thread; after the
 * first error, blocks are dropped unwritten.
 */
static avrogen_status write_done(avrogen_ocf_writer *w, ocf_job *j)
{
    if (w->err == AVROGEN_OK) {
        if (j->st != AVROGEN_OK)
            wfail(w, j->st, w->offset, "%s: %s", w->codec.name,
                  j->msg != NULL ? j->msg : avrogen_status_str(j->st));
        else
            emit_block(w, j->count, j->out.data, j->out.len);
    }
    ocf_pool_retire(w->pool);
    return w->err;
}

/* Wait for every block in flight and write them in order. */
static avrogen_status drain(avrogen_ocf_writer *w)
{
    ocf_job *j;
    while (w->pool != NULL && (j = ocf_pool_oldest(w->pool)) != NULL)
        write_done(w, j);
    return w->err;
}

/* Hand the `len` bytes of the current block at `payload` to w's workers. */
static avrogen_status queue_block(avrogen_ocf_writer *w, const uint8_t *payload, size_t len)
{
    ocf_job *j;
    /* Blocks already compressed go out first; a full ring waits for its oldest. */
    while ((j = ocf_pool_oldest_done(w->pool)) != NULL)
        write_done(w, j);
    if ((j = ocf_pool_next(w->pool)) == NULL) {
        write_done(w, ocf_pool_oldest(w->pool));
        j = ocf_pool_next(w->pool);
    }
    if (w->err != AVROGEN_OK)
        return w->err;
    j->own_in.len = 0;
    if (!avrogen_codec_buf_reserve(&j->own_in, &w->alloc, len))
        return wfail(w, AVROGEN_E_NOMEM, w->offset, "%s: out of memory", w->codec.name);
    if (len != 0)
        memcpy(j->own_in.data, payload, len);
    j->own_in.len = len;
    j->in = j->own_in.data;
    j->in_len = len;
    j->count = w->block_count;
    ocf_pool_submit(w->pool);
    return AVROGEN_OK;
}

static avrogen_status flush_block(avrogen_ocf_writer *w)
{
    if (w->err != AVROGEN_OK || w->block_count == 0)
        return w->err;
    const uint8_t *payload = avrogen_writer_data(&w->block);
    /* A datum being encoded (flush between begin and end) stays for the next block. */
    size_t len = w->in_datum ? w->datum_mark : avrogen_writer_len(&w->block);
    if (w->pool != NULL) {
        if (queue_block(w, payload, len) != AVROGEN_OK)
            return w->err;
    } else {
        if (w->codec.id != AVROGEN_CODEC_NULL) {
            avrogen_status st = avrogen_codec_compress(&w->codec, payload, len, &w->packed);
            if (st != AVROGEN_OK)
                return wfail(w, st, w->offset, "%s: %s", w->codec.name,
                             w->codec.msg != NULL ? w->codec.msg : avrogen_status_str(st));
            payload = w->packed.data;
            len = w->packed.len;
        }
        emit_block(w, w->block_count, payload, len);
    }
    if (w->in_datum && w->block.start != NULL) {
        size_t open = avrogen_writer_len(&w->block) - w->datum_mark;
        memmove(w->block.start, w->block.start + w->datum_mark, open);
        w->block.p = w->block.start + open;
        w->datum_mark = 0;
    } else {
        w->block.p = w->block.start;
        w->datum_mark = 0;
    }
    w->block_count = 0;
    return w->err;
}

avrogen_writer *avrogen_ocf_writer_datum_begin(avrogen_ocf_writer *w)
{
    if (w->in_datum)
        drop_datum(w);
    w->datum_mark = avrogen_writer_len(&w->block);
    w->in_datum = true;
    return &w->block;
}

avrogen_status avrogen_ocf_writer_datum_end(avrogen_ocf_writer *w)
{
    if (!w->in_datum)
        return AVROGEN_E_ARG;
    w->in_datum = false;
    uint64_t record = w->n_ended++;
    avrogen_status st = w->block.err != AVROGEN_OK ? w->block.err : w->err;
    if (st != AVROGEN_OK) {
        if (w->block.err != AVROGEN_OK) {
            /* Keep the encoder's message ("Order.lines[3].name: NULL string"): drop_datum
             * clears the block writer's error. */
            w->dropped = st;
            memset(&w->dropped_msg, 0, sizeof w->dropped_msg);
            w->dropped_msg.offset = w->block.err_offset - w->datum_mark;
            snprintf(w->dropped_msg.msg, sizeof w->dropped_msg.msg, "record %" PRIu64 ": %s",
                     record, w->block.err_msg != NULL ? w->block.err_msg : avrogen_status_str(st));
        }
        drop_datum(w);
        return st;
    }
    w->block_count++;
    if (avrogen_writer_len(&w->block) >= w->block_size)
        return flush_block(w);
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_writer_write(avrogen_ocf_writer *w, const void *datum, size_t len)
{
    avrogen_write_raw(avrogen_ocf_writer_datum_begin(w), datum, len);
    return avrogen_ocf_writer_datum_end(w);
}

avrogen_status avrogen_ocf_writer_write_block(avrogen_ocf_writer *w, uint64_t count,
                                              const void *payload, size_t len)
{
    if (w->in_datum || count == 0 || count > INT64_MAX || (uint64_t)len > INT64_MAX ||
        (payload == NULL && len != 0))
        return AVROGEN_E_ARG;
    if (flush_block(w) != AVROGEN_OK || drain(w) != AVROGEN_OK)
        return w->err;
    return emit_block(w, count, payload, len);
}

static avrogen_status flush_stream(avrogen_ocf_writer *w)
{
    if (w->err == AVROGEN_OK && fflush(w->f) != 0) {
        char text[96];
        errno_text(errno, text, sizeof text);
        wfail(w, AVROGEN_E_IO, w->offset, "flush failed at offset %" PRIu64 ": %s", w->offset,
              text);
    }
    return w->err;
}

avrogen_status avrogen_ocf_writer_flush(avrogen_ocf_writer *w, bool durable)
{
    if (flush_block(w) != AVROGEN_OK || drain(w) != AVROGEN_OK || flush_stream(w) != AVROGEN_OK)
        return w->err;
    if (durable) {
        int fd = fileno(w->f);
        if (fd < 0 || fsync(fd) != 0) {
            char text[96];
            errno_text(fd < 0 ? EBADF : errno, text, sizeof text);
            return wfail(w, AVROGEN_E_IO, w->offset, "fsync failed: %s", text);
        }
    }
    return AVROGEN_OK;
}

static void writer_free(avrogen_ocf_writer *w)
{
    ocf_pool_free(w->pool);
    avrogen_writer_fini(&w->block);
    avrogen_codec_buf_free(&w->packed, &w->alloc);
    avrogen_codec_fini(&w->codec);
    avrogen_schema_free(w->schema);
    avrogen_alloc alloc = w->alloc;
    avrogen_free(&alloc, w, sizeof *w);
}

avrogen_status avrogen_ocf_writer_close(avrogen_ocf_writer *w, avrogen_diag *diag)
{
    if (w == NULL)
        return AVROGEN_OK;
    if (w->in_datum) {
        drop_datum(w);
        w->in_datum = false;
    }
    if (w->f != NULL) {
        flush_block(w);
        drain(w);
        flush_stream(w);
        if (w->own_file && fclose(w->f) != 0) {
            char text[96];
            errno_text(errno, text, sizeof text);
            wfail(w, AVROGEN_E_IO, w->offset, "close failed: %s", text);
        }
    }
    avrogen_status st = w->err;
    if (diag != NULL)
        *diag = w->diag;
    writer_free(w);
    return st;
}

const avrogen_schema *avrogen_ocf_writer_schema(const avrogen_ocf_writer *w)
{
    return w->schema;
}

avrogen_status avrogen_ocf_writer_error(const avrogen_ocf_writer *w, avrogen_diag *diag)
{
    if (diag != NULL)
        *diag = w->diag;
    return w->err;
}

avrogen_status avrogen_ocf_writer_datum_error(const avrogen_ocf_writer *w, avrogen_diag *diag)
{
    if (diag != NULL)
        *diag = w->dropped_msg;
    return w->dropped;
}

void avrogen_ocf_writer_set_type(avrogen_ocf_writer *w, const avrogen_type *t)
{
    w->type = t;
}

const avrogen_type *avrogen_ocf_writer_type(const avrogen_ocf_writer *w)
{
    return w->type;
}

avrogen_status avrogen_ocf_writer_keep_datum_error(avrogen_ocf_writer *w)
{
    /* The datums before it are good: write them, so that the file holds them all. */
    if (flush_block(w) == AVROGEN_OK && drain(w) == AVROGEN_OK && w->dropped != AVROGEN_OK) {
        w->err = w->dropped;
        w->diag = w->dropped_msg;
    }
    return w->err;
}

static avrogen_status writer_new(const avrogen_ocf_writer_options *opts, avrogen_ocf_writer **out)
{
    const avrogen_alloc *alloc = opts != NULL ? opts->alloc : NULL;
    avrogen_ocf_writer *w = avrogen_malloc(alloc, sizeof *w);
    *out = w;
    if (w == NULL)
        return AVROGEN_E_NOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    w->block_size = opts != NULL && opts->block_size != 0 ? opts->block_size
                                                          : AVROGEN_OCF_DEFAULT_BLOCK_SIZE;
    w->threads = opts != NULL ? opts->threads : 0;
    avrogen_alloc hook = {block_alloc, w};
    avrogen_writer_init_growable(&w->block, &hook);
    return AVROGEN_OK;
}

/* Give the writer's error to the caller and free it (and the file it opened). */
static avrogen_status writer_abort(avrogen_ocf_writer *w, avrogen_diag *diag)
{
    avrogen_status st = w->err;
    if (diag != NULL)
        *diag = w->diag;
    if (w->own_file && w->f != NULL)
        fclose(w->f);
    writer_free(w);
    return st;
}

/* The workers of opts->threads > 1, once w's codec is known; none for "null". */
static avrogen_status start_workers(avrogen_ocf_writer *w)
{
    if (w->threads <= 1 || w->codec.id == AVROGEN_CODEC_NULL)
        return AVROGEN_OK;
    unsigned n = w->threads > MAX_THREADS ? MAX_THREADS : w->threads;
    avrogen_status st = ocf_pool_new(&w->alloc, w->codec.name, w->codec.level, n, (size_t)n * 2,
                                     false, &w->pool);
    if (st != AVROGEN_OK)
        return wfail(w, st, 0, "cannot start %u compression threads", n);
    return AVROGEN_OK;
}

static bool random_sync(uint8_t out[SYNC_SIZE])
{
    if (getentropy(out, SYNC_SIZE) == 0)
        return true;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t got = 0;
    while (got < SYNC_SIZE) {
        ssize_t n = read(fd, out + got, SYNC_SIZE - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fd);
    return got == SYNC_SIZE;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * No metadata key twice: the keys sorted, neighbours compared, so that a header
 * of many entries (200,000 copied by concat) costs n log n, not n^2.
 */
static avrogen_status check_unique_keys(avrogen_ocf_writer *w, const avrogen_ocf_meta *meta,
                                        size_t n)
{
    if (n < 2)
        return AVROGEN_OK;
    size_t bytes;
    const char **keys;
    if (!avrogen_size_mul(n, sizeof *keys, &bytes))
        return wfail(w, AVROGEN_E_LIMIT, 0, "%zu metadata entries are too many", n);
    if ((keys = avrogen_malloc(&w->alloc, bytes)) == NULL)
        return wfail(w, AVROGEN_E_NOMEM, 0, "out of memory checking the metadata keys");
    for (size_t i = 0; i < n; i++)
        keys[i] = meta[i].key;
    qsort(keys, n, sizeof *keys, by_key);
    avrogen_status st = AVROGEN_OK;
    for (size_t i = 1; i < n && st == AVROGEN_OK; i++) {
        if (strcmp(keys[i - 1], keys[i]) == 0) {
            char q[64];
            printable(q, sizeof q, keys[i], strlen(keys[i]));
            st = wfail(w, AVROGEN_E_ARG, 0, "metadata key \"%s\" appears twice", q);
        }
    }
    avrogen_free(&w->alloc, keys, bytes);
    return st;
}

/* Codec, level and metadata keys from opts, checked before any file is touched. */
static avrogen_status check_options(avrogen_ocf_writer *w, const avrogen_ocf_writer_options *opts)
{
    const char *name = opts != NULL && opts->codec != NULL ? opts->codec : "null";
    int level = opts != NULL ? opts->level : 0;
    if (avrogen_codec_init(&w->codec, name, strlen(name), level, &w->alloc) != AVROGEN_OK) {
        char q[48];
        printable(q, sizeof q, name, strlen(name));
        if (w->codec.name == NULL)
            return wfail(w, AVROGEN_E_ARG, 0,
                         "unknown codec \"%s\" (supported: null, deflate, snappy, zstandard, xz, "
                         "bzip2)",
                         q);
        return wfail(w, AVROGEN_E_ARG, 0, "compression level %d is out of range for codec %s",
                     level, w->codec.name);
    }
    size_t n = opts != NULL ? opts->n_meta : 0;
    if (n != 0 && opts->meta == NULL)
        return wfail(w, AVROGEN_E_ARG, 0, "n_meta is %zu but meta is NULL", n);
    for (size_t i = 0; i < n; i++) {
        const char *key = opts->meta[i].key;
        if (key == NULL || (opts->meta[i].value == NULL && opts->meta[i].len != 0))
            return wfail(w, AVROGEN_E_ARG, 0, "metadata entry %zu has a NULL key or value", i);
        char q[64];
        printable(q, sizeof q, key, strlen(key));
        /* spec: "avro."-prefixed keys are reserved for the format itself. */
        if (strncmp(key, "avro.", 5) == 0)
            return wfail(w, AVROGEN_E_ARG, 0, "metadata key \"%s\" is reserved", q);
        if (!avrogen_utf8_valid((const uint8_t *)key, strlen(key)))
            return wfail(w, AVROGEN_E_ARG, 0, "metadata key \"%s\" is not UTF-8", q);
    }
    avrogen_status st = check_unique_keys(w, opts != NULL ? opts->meta : NULL, n);
    if (st != AVROGEN_OK)
        return st;
    if (opts != NULL && opts->sync != NULL)
        memcpy(w->sync, opts->sync, SYNC_SIZE);
    else if (!random_sync(w->sync))
        return wfail(w, AVROGEN_E_IO, 0, "no random bytes for the sync marker");
    return AVROGEN_OK;
}

static avrogen_status parse_schema(avrogen_ocf_writer *w, const char *schema, size_t len)
{
    if (schema == NULL)
        return wfail(w, AVROGEN_E_ARG, 0, "no schema");
    avrogen_diag sd;
    memset(&sd, 0, sizeof sd);
    avrogen_status st = avrogen_schema_parse(schema, len, &w->alloc, &w->schema, &sd);
    if (st != AVROGEN_OK) {
        w->err = st;
        w->diag = sd;
    }
    return st;
}

/* spec: magic, metadata map (avro.schema, avro.codec, user keys), sync marker. */
static avrogen_status write_header(avrogen_ocf_writer *w, const char *schema, size_t len,
                                   const avrogen_ocf_writer_options *opts)
{
    size_t n_meta = opts != NULL ? opts->n_meta : 0;
    avrogen_writer hw;
    avrogen_writer_init_growable(&hw, &w->alloc);
    avrogen_write_raw(&hw, ocf_magic, sizeof ocf_magic);
    avrogen_write_block_count(&hw, 2 + n_meta);
    avrogen_write_string(&hw, "avro.schema", 11);
    avrogen_write_bytes(&hw, schema, len);
    avrogen_write_string(&hw, "avro.codec", 10);
    avrogen_write_bytes(&hw, w->codec.name, strlen(w->codec.name));
    for (size_t i = 0; i < n_meta; i++) {
        avrogen_write_string(&hw, opts->meta[i].key, strlen(opts->meta[i].key));
        avrogen_write_bytes(&hw, opts->meta[i].value, opts->meta[i].len);
    }
    avrogen_write_block_count(&hw, 0);
    avrogen_write_raw(&hw, w->sync, SYNC_SIZE);
    if (hw.err != AVROGEN_OK)
        wfail(w, hw.err, 0, "out of memory writing the header");
    else
        emit(w, avrogen_writer_data(&hw), avrogen_writer_len(&hw));
    avrogen_writer_fini(&hw);
    return w->err;
}

static avrogen_status writer_open(FILE *f, const char *path, const char *schema, size_t len,
                                  const avrogen_ocf_writer_options *opts, avrogen_ocf_writer **out,
                                  avrogen_diag *diag)
{
    avrogen_ocf_writer *w;
    *out = NULL;
    if (writer_new(opts, &w) != AVROGEN_OK)
        return nomem_diag(diag);
    if (check_options(w, opts) != AVROGEN_OK || parse_schema(w, schema, len) != AVROGEN_OK ||
        start_workers(w) != AVROGEN_OK)
        return writer_abort(w, diag);
    if (f == NULL) {
        if ((f = fopen(path, "wb")) == NULL) {
            writer_free(w);
            return io_diag(diag, "create", path);
        }
        w->own_file = true;
    }
    w->f = f;
    if (write_header(w, schema, len, opts) != AVROGEN_OK)
        return writer_abort(w, diag);
    *out = w;
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_writer_open(const char *path, const char *schema, size_t len,
                                       const avrogen_ocf_writer_options *opts,
                                       avrogen_ocf_writer **out, avrogen_diag *diag)
{
    return writer_open(NULL, path, schema, len, opts, out, diag);
}

avrogen_status avrogen_ocf_writer_open_file(FILE *f, const char *schema, size_t len,
                                            const avrogen_ocf_writer_options *opts,
                                            avrogen_ocf_writer **out, avrogen_diag *diag)
{
    return writer_open(f, NULL, schema, len, opts, out, diag);
}

static avrogen_status append_open(FILE *f, bool own, const avrogen_ocf_writer_options *opts,
                                  avrogen_ocf_writer **out, avrogen_diag *diag)
{
    avrogen_ocf_writer *w;
    avrogen_ocf_reader *r = NULL;
    *out = NULL;
    if (writer_new(opts, &w) != AVROGEN_OK) {
        if (own)
            fclose(f);
        return nomem_diag(diag);
    }
    w->f = f;
    w->own_file = own;
    if (opts != NULL && (opts->n_meta != 0 || opts->sync != NULL)) {
        wfail(w, AVROGEN_E_ARG, 0, "appending keeps the file's metadata and sync marker");
        return writer_abort(w, diag);
    }

    off_t start = ftello(f);
    if (start < 0) {
        char text[96];
        errno_text(errno, text, sizeof text);
        wfail(w, AVROGEN_E_IO, 0, "cannot append to a stream that cannot seek: %s", text);
        return writer_abort(w, diag);
    }
    avrogen_ocf_reader_options ro = {0};
    ro.alloc = &w->alloc;
    avrogen_status st = reader_new(&ro, &r);
    if (st != AVROGEN_OK) {
        wfail(w, st, 0, "out of memory");
        return writer_abort(w, diag);
    }
    r->f = f;
    if (read_header(r) != AVROGEN_OK || verify_blocks(r) != AVROGEN_OK) {
        w->err = r->err;
        w->diag = r->diag;
        goto out_close_reader;
    }
    /* The file's codec, at the caller's level. */
    if (opts != NULL && opts->codec != NULL && strcmp(opts->codec, r->codec.name) != 0) {
        char q[48];
        wfail(w, AVROGEN_E_ARG, 0, "file uses codec %s, not %s", r->codec.name,
              printable(q, sizeof q, opts->codec, strlen(opts->codec)));
        goto out_close_reader;
    }
    if (avrogen_codec_init(&w->codec, r->codec.name, strlen(r->codec.name),
                           opts != NULL ? opts->level : 0, &w->alloc) != AVROGEN_OK) {
        wfail(w, AVROGEN_E_ARG, 0, "compression level %d is out of range for codec %s", opts->level,
              r->codec.name);
        goto out_close_reader;
    }
    if (start_workers(w) != AVROGEN_OK)
        goto out_close_reader;
    memcpy(w->sync, r->sync, SYNC_SIZE);
    w->schema = r->schema;
    r->schema = NULL;
    w->offset = rpos(r);
    /* C11 7.21.5.3: switching from reading to writing needs a seek in between. */
    if (fseeko(f, start + (off_t)w->offset, SEEK_SET) != 0) {
        char text[96];
        errno_text(errno, text, sizeof text);
        wfail(w, AVROGEN_E_IO, w->offset, "cannot seek to the end of the file: %s", text);
    }
out_close_reader:
    avrogen_ocf_reader_close(r);
    if (w->err != AVROGEN_OK)
        return writer_abort(w, diag);
    *out = w;
    return AVROGEN_OK;
}

avrogen_status avrogen_ocf_writer_open_append(const char *path,
                                              const avrogen_ocf_writer_options *opts,
                                              avrogen_ocf_writer **out, avrogen_diag *diag)
{
    *out = NULL;
    FILE *f = fopen(path, "r+b");
    if (f == NULL)
        return io_diag(diag, "open", path);
    return append_open(f, true, opts, out, diag);
}

avrogen_status avrogen_ocf_writer_open_append_file(FILE *f, const avrogen_ocf_writer_options *opts,
                                                   avrogen_ocf_writer **out, avrogen_diag *diag)
{
    return append_open(f, false, opts, out, diag);
}
