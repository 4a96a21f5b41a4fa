/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object container files (spec §Object Container Files): a header (magic
 * "Obj\x01", a metadata map holding avro.schema and avro.codec, a 16-byte sync
 * marker) followed by blocks of encoded datums, each block compressed with the
 * file's codec and followed by the sync marker.
 *
 * The writer takes datums already encoded (or lets the caller encode straight
 * into the block buffer). The reader hands back each block decompressed, cuts
 * blocks into datums using the file's schema, and decodes datums too: as
 * generic values shaped like any reader schema, or into generated structs,
 * resolving them from the file's schema (spec §Schema Resolution) when the two
 * differ. Both stream: memory stays bounded by the largest block, whatever the
 * size of the file.
 *
 * Codecs, by their spec names: "null", "deflate", "snappy", "zstandard", "xz",
 * "bzip2".
 *
 * Errors are sticky on a reader or writer: the first one is kept with its
 * message and the file offset it concerns, and every later call returns it.
 * Offsets count from where reading or writing started (0 for a path).
 *
 * Structs of a generated record type P go in and out in a handful of lines
 * (avrogen_ocf_writer_open_type, avrogen_ocf_reader_open_type): the file's
 * schema is P's, P's encoder writes, the reader decodes into an arena of its
 * own and resolves files written with older schemas, and errors name the
 * record number and, for encoding, the member.
 *
 *     avrogen_diag d;
 *     struct order o;
 *     avrogen_ocf_writer *w;
 *     avrogen_ocf_writer_options opts = {.codec = "zstandard"};
 *     avrogen_status st = avrogen_ocf_writer_open_type(path, &order_avro_type, &opts, &w, &d);
 *     for (size_t i = 0; st == AVROGEN_OK && i < n; i++)
 *         st = avrogen_ocf_writer_put(w, &orders[i]);
 *     if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK || st != AVROGEN_OK)
 *         return fail(d.msg); // "record 41: Order.lines[3].name: NULL string"
 *     avrogen_ocf_reader *r;
 *     st = avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d);
 *     while (st == AVROGEN_OK && avrogen_ocf_reader_get(r, &o))
 *         use(&o);
 *     if (avrogen_ocf_reader_finish(r, &d) != AVROGEN_OK || st != AVROGEN_OK)
 *         return fail(d.msg); // "record 7: block at offset 4096, object 7 (...): ..."
 */
#ifndef AVROGEN_OCF_H
#define AVROGEN_OCF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "avrogen/alloc.h"
#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"
#include "avrogen/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* spec: the sync marker is 16 bytes. */
#define AVROGEN_OCF_SYNC_SIZE 16u
/* Uncompressed bytes after which the writer ends a block: Java's and Python's sync interval. */
#define AVROGEN_OCF_DEFAULT_BLOCK_SIZE ((size_t)64000)
/* Largest block the reader accepts by default, compressed or decompressed. */
#define AVROGEN_OCF_DEFAULT_MAX_BLOCK ((size_t)64 << 20)
/* Largest header (magic, metadata, sync) the reader accepts by default. */
#define AVROGEN_OCF_DEFAULT_MAX_HEADER ((size_t)16 << 20)

/* One user metadata entry. spec: keys starting with "avro." are reserved. */
typedef struct avrogen_ocf_meta {
    const char *key;   /* NUL-terminated UTF-8, not starting with "avro." */
    const void *value; /* `len` bytes, any content */
    size_t len;
} avrogen_ocf_meta;

/* Writer settings. All-zero (`{0}`) means every default. */
typedef struct avrogen_ocf_writer_options {
    const char *codec; /* spec codec name; NULL means "null" */
    /* Compression level, 0 for the codec's default: deflate 1-9 (6), zstandard
     * -131072..22 (3), xz 1-9 (6), bzip2 1-9 (9); null and snappy take none. */
    int level;
    size_t block_size;            /* uncompressed bytes that end a block; 0: 64000 */
    const avrogen_ocf_meta *meta; /* n_meta user entries, copied into the header */
    size_t n_meta;
    const uint8_t *sync;        /* 16-byte sync marker (reproducible output); NULL: random */
    const avrogen_alloc *alloc; /* NULL: libc; copied at open */
    /*
     * Threads that compress blocks; 0 or 1: none, each block is compressed on
     * the caller's thread as it fills (and the "null" codec never uses any).
     * With N > 1, a full block goes to one of N workers (each with a codec of
     * its own), at most 2N blocks in flight (memory: about 2N times two
     * blocks), and the caller's thread writes them in order as they finish:
     * the file is byte for byte what one thread writes. Encoding stays on the
     * caller's thread. A block's compression or write error then surfaces at
     * a later datum_end, or at the latest at flush or close, with the same
     * status, message and offset, and the file holds the same blocks before
     * it. `alloc`, if given, is called from the workers too: it must be
     * thread-safe.
     */
    unsigned threads;
} avrogen_ocf_writer_options;

/* Reader limits. All-zero means every default. */
typedef struct avrogen_ocf_reader_options {
    size_t max_block_size;      /* largest block, compressed or not; 0: the default 64 MiB */
    size_t max_header_size;     /* largest header; 0: the default 16 MiB */
    uint64_t max_block_count;   /* most datums in one block; 0: AVROGEN_DEFAULT_MAX_ITEMS */
    const avrogen_alloc *alloc; /* NULL: libc; copied at open */
    unsigned max_depth;         /* the max_depth of every reader of datums it sets up (the readers
                                   of next_block included); 0: AVROGEN_DEFAULT_MAX_DEPTH */
    /*
     * avrogen_ocf_reader_open only: map a regular file read-only and read every
     * block straight from the mapping ("null" codec: no copy at all). The caller
     * takes on SIGBUS: a file cut short (or unreadable) while mapped raises it
     * on the next touch of the lost pages. See avrogen_ocf_reader_open.
     */
    bool map;
    /*
     * Threads that decompress blocks; 0 or 1: none, each block is decompressed
     * on the caller's thread when reached (and the "null" codec never uses
     * any). With N > 1, the reader looks ahead at up to 2N whole blocks past
     * the current one (already read into memory, or mapped; a stream is read
     * ahead for them) and N workers decompress them while the caller decodes:
     * memory grows to about 2N times a compressed and a decompressed block.
     * Framing, decoding and every error stay on the caller's thread, in order:
     * a corrupt block fails when the caller reaches it, with the status,
     * message and offset one thread reports. `alloc`, if given, is called from
     * the workers too: it must be thread-safe.
     */
    unsigned threads;
} avrogen_ocf_reader_options;

typedef struct avrogen_ocf_writer avrogen_ocf_writer;
typedef struct avrogen_ocf_reader avrogen_ocf_reader;

/* True when `name` is a codec this build can read and write. */
AVROGEN_API bool avrogen_ocf_codec_supported(const char *name);

/* The explicit compression levels codec `name` takes, *min to *max (either
 * may be NULL); 0 (the codec's default) is always taken, and a codec with no
 * levels (null, snappy) gives 0 and 0. False for an unknown codec. */
AVROGEN_API bool avrogen_ocf_codec_levels(const char *name, int *min, int *max);

/* ---- writing ------------------------------------------------------------- */

/*
 * Create (or truncate) the file at `path` and write a header for the `len`
 * bytes of schema JSON at `schema` (copied into the header as written, after
 * avrogen_schema_parse has validated it). `opts` may be NULL. On success *out
 * owns the file until avrogen_ocf_writer_close.
 *
 * Returns E_SCHEMA for an invalid schema (before the file is touched), E_ARG for
 * an unknown codec, a level the codec does not take, or a reserved, duplicate or
 * non-UTF-8 metadata key, E_IO when the file cannot be created or written,
 * E_NOMEM. `diag` (may be NULL) says why; *out is NULL on failure.
 *
 *     avrogen_ocf_writer *w;
 *     avrogen_ocf_writer_options o = {.codec = "zstandard"};
 *     if (avrogen_ocf_writer_open("orders.avro", schema, strlen(schema), &o, &w, &d) !=
 *         AVROGEN_OK)
 *         return fail(d.msg);
 *     for (size_t i = 0; i < n; i++) {
 *         avrogen_status st = order_avro_encode(avrogen_ocf_writer_datum_begin(w), &orders[i]);
 *         if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK) { // st, or the block's failure
 *             avrogen_ocf_writer_datum_error(w, &d);          // "record 41: Order.note: ..."
 *             fprintf(stderr, "%s: %s\n", avrogen_status_str(st), d.msg);
 *             break;
 *         }
 *     }
 *     if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
 *         return fail(d.msg);
 *
 * (avrogen_ocf_writer_open_type and avrogen_ocf_writer_put do all this for a
 * generated record type.)
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_open(
        const char *path, const char *schema, size_t len, const avrogen_ocf_writer_options *opts,
        avrogen_ocf_writer **out, avrogen_diag *diag);

/*
 * Like avrogen_ocf_writer_open, writing at the current position of `f`, which
 * stays the caller's: close does not fclose it. Any stdio stream works
 * (fdopen for a descriptor, open_memstream for memory).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_open_file(
        FILE *f, const char *schema, size_t len, const avrogen_ocf_writer_options *opts,
        avrogen_ocf_writer **out, avrogen_diag *diag);

/*
 * Open the existing container file at `path` to add blocks at its end, reusing
 * its schema, codec and sync marker. Every block already there is checked
 * (header, size, sync marker; payloads are skipped unread) so that a damaged
 * tail is refused rather than buried: E_INVALID / E_TRUNCATED / E_SCHEMA as
 * avrogen_ocf_reader_open would report, with the offset. In `opts` only
 * `level`, `block_size`, `alloc` and `threads` apply; a `codec` other than the file's, any
 * `meta` or a `sync` is E_ARG.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_writer_open_append(const char *path, const avrogen_ocf_writer_options *opts,
                               avrogen_ocf_writer **out, avrogen_diag *diag);

/*
 * Like avrogen_ocf_writer_open_append on a stream the caller opened for reading
 * and writing ("r+b" or "a+b") and positioned at the start of the container;
 * it must be seekable. `f` stays the caller's.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_writer_open_append_file(FILE *f, const avrogen_ocf_writer_options *opts,
                                    avrogen_ocf_writer **out, avrogen_diag *diag);

/*
 * Start a datum: returns the writer to encode it into (the current block's
 * buffer, growing through the writer's allocator). Encode exactly one datum of
 * the file's schema, then call avrogen_ocf_writer_datum_end. Never NULL; the
 * pointer stays valid until close. Nothing is checked against the schema. A
 * datum begun and not ended is dropped by the next datum_begin.
 */
AVROGEN_API avrogen_writer *avrogen_ocf_writer_datum_begin(avrogen_ocf_writer *w);

/*
 * Finish the datum started by avrogen_ocf_writer_datum_begin. If encoding it
 * failed (the block writer's err is set: E_NOMEM, E_ARG from a value encoder,
 * ...) the datum is dropped from the block, that status is returned, and the
 * writer stays usable; avrogen_ocf_writer_datum_error then gives the
 * encoder's message with the datum's record number. Otherwise the datum is counted, and once the
 * block holds block_size bytes it is compressed and written: a failure there (E_IO, E_NOMEM) is
 * sticky. E_ARG without a matching datum_begin.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_datum_end(avrogen_ocf_writer *w);

/* Append one datum already encoded as `len` bytes: datum_begin, copy, datum_end. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_write(avrogen_ocf_writer *w,
                                                                      const void *datum,
                                                                      size_t len);

/*
 * Append a whole block as it is to go in the file: `count` datums of the
 * file's schema, encoded, concatenated and compressed with w's codec into the
 * `len` bytes at `payload` (what avrogen_ocf_reader_block_payload hands back
 * for a file with the same schema and codec: concatenating files without
 * recompressing). The current block is written first, so datums stay in
 * order; the payload goes out with w's own sync marker. Nothing in the payload
 * is checked: that is the caller's business. E_ARG (not sticky) for count 0 or
 * above INT64_MAX, a NULL payload with len != 0, or a datum begun and not
 * ended; sticky E_IO / E_NOMEM as for datum_end.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_write_block(avrogen_ocf_writer *w,
                                                                            uint64_t count,
                                                                            const void *payload,
                                                                            size_t len);

/*
 * End the current block (if it holds any finished datum), write it, and fflush
 * the stream, so that a reader sees every datum ended so far; with `durable`,
 * also fsync the file descriptor (E_IO for a stream without one). A datum begun
 * and not yet ended moves to the next block. Sticky E_IO or E_NOMEM on failure.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_flush(avrogen_ocf_writer *w,
                                                                      bool durable);

/*
 * Write the last block, flush, close the file if the writer opened it, and free
 * the writer. A datum begun but not ended is dropped. Returns the first error
 * the writer met, or this close's E_IO / E_NOMEM; `diag` (may be NULL) gets
 * its text, since w is gone afterwards. NULL (an open that failed) returns
 * AVROGEN_OK and leaves diag as it is, so that one check after close can
 * report a failed open, put or close alike (see avrogen_ocf_writer_put).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_close(avrogen_ocf_writer *w,
                                                                      avrogen_diag *diag);

/*
 * Why datum_end last dropped a datum: its status (AVROGEN_OK when none was
 * dropped), and in `diag` (may be NULL) the encoder's message after the
 * datum's record number, counting from 0 every datum ended on w, written or
 * dropped: "record 41: Order.lines[3].name: NULL string" (generated encoders
 * name the member), with diag->offset the byte within the datum where
 * encoding stopped. Not w's error: w stays usable, and close does not report
 * it (avrogen_ocf_writer_put does make it sticky).
 */
AVROGEN_API avrogen_status avrogen_ocf_writer_datum_error(const avrogen_ocf_writer *w,
                                                          avrogen_diag *diag);

/* ---- structs of generated record types ------------------------------------ */

/*
 * Like avrogen_ocf_writer_open with the schema of `t`, a generated record
 * type (P_avro_type, whose encoder avrogen_ocf_writer_put then uses). E_ARG
 * (diag says why) when t is not a record of a generated header (no schema,
 * encoder or decoder); the rest as avrogen_ocf_writer_open.
 *
 *     avrogen_ocf_writer *w;
 *     avrogen_ocf_writer_options opts = {.codec = "zstandard"};
 *     if (avrogen_ocf_writer_open_type(path, &order_avro_type, &opts, &w, &d) != AVROGEN_OK)
 *         return fail(d.msg);
 *     for (size_t i = 0; i < n && avrogen_ocf_writer_put(w, &orders[i]) == AVROGEN_OK; i++)
 *         ;
 *     if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK)
 *         return fail(d.msg); // "record 41: Order.lines[3].name: NULL string"
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_open_type(
        const char *path, const avrogen_type *t, const avrogen_ocf_writer_options *opts,
        avrogen_ocf_writer **out, avrogen_diag *diag);

/*
 * Append the struct at `src` (of w's type) as the next record: encoded by
 * P_avro_encode into the current block (datum_begin, encode, datum_end). A
 * struct the encoder refuses is not written: the records put before it are
 * (their block is written at once), and its error becomes w's, sticky: close and
 * avrogen_ocf_writer_error return it, the message naming the record (counting from 0) and the
 * member, "record 41: Order.note: NULL string". Also the sticky errors of datum_end (E_IO,
 * E_NOMEM); E_ARG (not sticky) when w was not opened by avrogen_ocf_writer_open_type. Allocates
 * only when the block's buffer grows. As errors are sticky, one check after
 * close covers the open, every put and the close:
 *
 *     avrogen_ocf_writer *w;
 *     avrogen_status st = avrogen_ocf_writer_open_type(path, &order_avro_type, NULL, &w, &d);
 *     for (size_t i = 0; st == AVROGEN_OK && i < n; i++)
 *         st = avrogen_ocf_writer_put(w, &orders[i]);
 *     if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK || st != AVROGEN_OK)
 *         return fail(d.msg); // open's error, or "record 41: Order.note: NULL string"
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_writer_put(avrogen_ocf_writer *w,
                                                                    const void *src);

/*
 * Like avrogen_ocf_reader_open, for reading structs of the generated record
 * type `t` with avrogen_ocf_reader_get; r owns the arena they are decoded
 * into (through opts->alloc). The file may have been written with any schema
 * that resolves to t's (spec §Schema Resolution: as avrogen_ocf_reader_next_as).
 * E_ARG (diag says why) when t is not a record of a generated header; the rest
 * as avrogen_ocf_reader_open. Every other reader call works on r too.
 *
 *     avrogen_ocf_reader *r;
 *     if (avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d) != AVROGEN_OK)
 *         return fail(d.msg);
 *     struct order o;
 *     while (avrogen_ocf_reader_get(r, &o))
 *         use(&o);
 *     if (avrogen_ocf_reader_finish(r, &d) != AVROGEN_OK)
 *         return fail(d.msg); // "record 7: block at offset 4096, object 7 (...): ..."
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_open_type(
        const char *path, const avrogen_type *t, const avrogen_ocf_reader_options *opts,
        avrogen_ocf_reader **out, avrogen_diag *diag);

/*
 * Decode the next record into *dst, a struct of r's type: true when there was
 * one, false at the end of the file or on error (avrogen_ocf_reader_finish or
 * avrogen_ocf_reader_error tell which). Each call first resets r's arena: the
 * pointers in *dst (arrays, maps, char * strings, views) stay valid until the
 * next get, finish or close on r; copy what must live longer. Decoded with
 * avrogen_ocf_reader_next_as, whose errors it has, sticky, their message
 * starting with the record's number (counting from 0): "record 7: block at
 * offset 4096, object 7 (byte 90 of the decompressed block): input ends
 * mid-value" (a schema that cannot be resolved has no number: its message
 * names the reader path). On a reader not opened by
 * avrogen_ocf_reader_open_type: false, a sticky E_ARG.
 */
AVROGEN_API bool avrogen_ocf_reader_get(avrogen_ocf_reader *r, void *dst);

/*
 * Close r (as avrogen_ocf_reader_close) and return its first error, or
 * AVROGEN_OK when the file was read without one; `diag` (may be NULL) gets
 * the message. NULL (an open that failed) returns AVROGEN_OK and leaves diag
 * as it is:
 *
 *     avrogen_ocf_reader *r;
 *     struct order o;
 *     avrogen_status st = avrogen_ocf_reader_open_type(path, &order_avro_type, NULL, &r, &d);
 *     while (st == AVROGEN_OK && avrogen_ocf_reader_get(r, &o))
 *         use(&o);
 *     if (avrogen_ocf_reader_finish(r, &d) != AVROGEN_OK || st != AVROGEN_OK)
 *         return fail(d.msg); // open's error, or the file's
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_finish(avrogen_ocf_reader *r,
                                                                       avrogen_diag *diag);

/* The parsed schema of the file being written, owned by w. */
AVROGEN_API const avrogen_schema *avrogen_ocf_writer_schema(const avrogen_ocf_writer *w);

/* The first (sticky) error of w, or AVROGEN_OK; `diag` (may be NULL) gets its text and offset. */
AVROGEN_API avrogen_status avrogen_ocf_writer_error(const avrogen_ocf_writer *w,
                                                    avrogen_diag *diag);

/* ---- reading ------------------------------------------------------------- */

/*
 * Open the container file at `path` and read its header: magic, metadata,
 * sync marker; parse avro.schema and set up avro.codec (absent means "null").
 * `opts` may be NULL. On success *out owns the file until avrogen_ocf_reader_close.
 * A regular file is read without stdio's buffer: each block comes straight
 * into the reader's buffer with one read(2), and a "null"-codec block is handed
 * back from there, copied once from the page cache (it is not mapped, so a file
 * truncated while it is read is E_TRUNCATED at the cut block, never a signal).
 * Anything else (a pipe, a device) is read through stdio as by
 * avrogen_ocf_reader_open_file, which asks for no more than a block needs.
 *
 * With opts->map, a regular file that is not empty is mapped instead
 * (mmap PROT_READ, MAP_SHARED; the descriptor is closed at once) and read as
 * by avrogen_ocf_reader_open_memory: the same checks, results, statuses and
 * offsets, every length checked against the mapping's size, which is the
 * file's at open (bytes appended later are not seen). A "null"-codec block is
 * decoded where it lies in the page cache, and views into it stay valid until
 * close. The next 8 MiB are made resident ahead of the block being read
 * (MADV_POPULATE_READ) and the pages behind it given back every 8 MiB
 * (MADV_DONTNEED), so the resident size stays near 16 MiB on a file of any size.
 * A file that is empty, not regular, larger than the address space, or that
 * mmap refuses is read as without opts->map, silently. The contract is that
 * of SQLite's mmap_size and LMDB: if another process truncates the file while
 * it is mapped (or the disk fails under it), touching the lost pages raises
 * SIGBUS, which the library neither catches nor installs a handler for; a
 * program that maps files it does not control should handle SIGBUS itself, or
 * not map them. avrogen_ocf_reader_mapped says whether r reads a mapping.
 *
 * Returns E_IO when the file cannot be opened or read, E_INVALID for a bad magic,
 * a negative or malformed metadata count or length, a missing avro.schema, a
 * repeated avro.schema or avro.codec, a non-UTF-8 key or an unsupported codec
 * (named in the message), E_TRUNCATED when the file ends inside the header,
 * E_OVERFLOW for an overlong varint, E_LIMIT for a header past max_header_size,
 * E_SCHEMA when avro.schema is not a valid schema, E_NOMEM. `diag` (may be NULL)
 * gets the message and file offset; *out is NULL on failure.
 *
 *     avrogen_ocf_reader *r;
 *     if (avrogen_ocf_reader_open("orders.avro", NULL, &r, &d) != AVROGEN_OK)
 *         return fail(d.msg);
 *     uint64_t n;
 *     avrogen_reader block;
 *     while (avrogen_ocf_reader_next_block(r, &n, &block) == AVROGEN_OK && n != 0)
 *         for (uint64_t i = 0; i < n && order_avro_decode(&block, &order, &arena) == AVROGEN_OK;
 *              i++)
 *             use(&order);
 *     st = avrogen_ocf_reader_error(r, &d);
 *     avrogen_ocf_reader_close(r);
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_reader_open(const char *path, const avrogen_ocf_reader_options *opts,
                        avrogen_ocf_reader **out, avrogen_diag *diag);

/*
 * Like avrogen_ocf_reader_open, reading from the current position of `f`, which
 * stays the caller's (close does not fclose it). Reads only as many bytes as it
 * needs, so a pipe fed block by block is read block by block.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_reader_open_file(FILE *f, const avrogen_ocf_reader_options *opts,
                             avrogen_ocf_reader **out, avrogen_diag *diag);

/*
 * Like avrogen_ocf_reader_open over the `len` bytes at `data`, which must stay
 * valid and unchanged until close. Blocks of a "null"-codec file are handed
 * back in place, without a copy.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_reader_open_memory(const void *data, size_t len, const avrogen_ocf_reader_options *opts,
                               avrogen_ocf_reader **out, avrogen_diag *diag);

/*
 * True when r reads a file mapped by avrogen_ocf_reader_open (opts->map);
 * *mapping (may be NULL) then gets the mapping's address and length, for a
 * SIGBUS handler that tells a fault in it from any other.
 */
AVROGEN_API bool avrogen_ocf_reader_mapped(const avrogen_ocf_reader *r, avrogen_bytes *mapping);

/* Free the reader and close the file if it opened it (unmap it, if mapped). NULL is a no-op. */
AVROGEN_API void avrogen_ocf_reader_close(avrogen_ocf_reader *r);

/*
 * The next block with at least one datum. On AVROGEN_OK, *count is its number
 * of datums and `block` is initialised (avrogen_reader_init, default limits)
 * over its decompressed bytes, valid until the next call on r; *count == 0 means
 * the file ended cleanly (blocks holding no datum are skipped).
 *
 * Before anything is handed back the block's byte size is checked against
 * max_block_size and the rest of the file, its sync marker against the header's,
 * its payload decompressed (within max_block_size), and *count against
 * max_block_count and, when the schema admits no zero-byte datum, against the
 * decompressed size. A bad block is an error with the file offset of its first
 * byte; every block before it was returned. E_TRUNCATED (the file ends inside
 * the block), E_INVALID (negative count or size, sync mismatch, corrupt
 * compressed data, count that the bytes cannot hold), E_OVERFLOW, E_LIMIT, E_IO,
 * E_NOMEM; sticky. The datums themselves are not checked: decoding does that.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_next_block(avrogen_ocf_reader *r,
                                                                           uint64_t *count,
                                                                           avrogen_reader *block);

/*
 * The next datum of the file as `datum` (a view into the current block, valid
 * until the next call on r); datum->ptr is NULL once the file has ended cleanly.
 * Datums are delimited by skipping them with the file's schema (avrogen_skip),
 * which checks their structure but not their contents (UTF-8 of strings). Errors
 * are those of next_block, those of avrogen_skip (with the datum's index and its
 * offset within the decompressed block in the message), and E_INVALID for bytes
 * left in a block after its last datum. Mixing with next_block drops the rest of
 * the current block.
 *
 *     avrogen_bytes d;
 *     while (avrogen_ocf_reader_next_datum(r, &d) == AVROGEN_OK && d.ptr != NULL)
 *         fwrite(d.ptr, 1, d.len, out);
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_next_datum(avrogen_ocf_reader *r,
                                                                           avrogen_bytes *datum);

/*
 * The next block by its framing alone, without its payload: *count is the
 * number of datums the block claims (0 once the file has ended cleanly; blocks
 * holding no datum are passed over), read from its header; the payload is
 * skipped unread, seeked over where the stream can seek (read and dropped on a
 * pipe), and the sync marker after it checked. Counting a file's records this
 * way reads a few bytes per block. Nothing checks the count against the
 * payload, except for a "null"-codec file whose datums cannot be empty (at
 * least one byte each, as next_block checks). Errors as next_block's, but for
 * decompression: E_TRUNCATED, E_INVALID (negative count or size, sync
 * mismatch), E_OVERFLOW, E_LIMIT (max_block_size, max_block_count), E_IO;
 * sticky, with the block's file offset. Drops the rest of a block next_datum
 * was walking (an error if its last datum was read and bytes are left over).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_skip_block(avrogen_ocf_reader *r,
                                                                           uint64_t *count);

/*
 * Skip the next `n` datums without decoding them: the rest of the current
 * block datum by datum (as next_datum delimits them), then every block that
 * lies wholly within the n by its framing alone (as skip_block), then the
 * first datums of the block where the n end. *skipped says how many were
 * skipped: n, or fewer when the file ended cleanly or on error (the errors of
 * next_datum and skip_block, sticky). The next next_datum, next_value or
 * next_as returns datum n. Skipped blocks are not decompressed.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_skip(avrogen_ocf_reader *r,
                                                                     uint64_t n, uint64_t *skipped);

/*
 * The block next_block last returned (or next_datum is walking) as stored in
 * the file: the `len` bytes between its byte size and its sync marker, still
 * compressed with the file's codec (for a "null" file, the datums). A view
 * into r's buffer, valid until the next call on r. False when there is no
 * such block: before the first, after skip_block or skip, or on error.
 */
AVROGEN_API bool avrogen_ocf_reader_block_payload(const avrogen_ocf_reader *r,
                                                  avrogen_bytes *payload);

/*
 * Go on reading after damage: clear r's error and move to where the next
 * block should begin, so that later calls read the blocks after a bad one
 * (repairing or checking a damaged file). *from and *to (may be NULL) get the
 * file offsets of the bytes given up: from the damaged block's first byte to
 * where reading resumes.
 *
 * Every position after the damaged block's first byte is a candidate, in
 * order: reading resumes at the first where a block frames (its header reads
 * within r's limits and a copy of the sync marker follows its payload) and
 * either decodes (its payload decompresses, the codec's own checks passing,
 * and its datums, delimited by the generic skip, are exactly its count) or
 * directly follows a copy of the sync marker (a block of the file, damaged or
 * not, which reading it will tell); at the end of the input when there is
 * none. So a stray copy of the marker, a few bytes, or junk before an intact
 * block lose nothing of it, and neither does junk whose "header" frames over
 * intact blocks. The scan reads at most about twice the largest block r takes
 * ahead; on a stream passed over by framing (skip_block, skip) it starts where
 * the reader is.
 *
 * Returns AVROGEN_OK (with *from == *to) when r has no error, AVROGEN_OK after
 * recovering, or r's error, still sticky, when it is no damage in the file:
 * E_IO, E_NOMEM, and schemas that cannot be resolved (next_value, next_as).
 *
 *     for (;;) {
 *         uint64_t n, from, to;
 *         avrogen_reader block;
 *         if (avrogen_ocf_reader_next_block(r, &n, &block) == AVROGEN_OK) {
 *             if (n == 0)
 *                 break;
 *             use_block(&block, n);
 *         } else if (avrogen_ocf_reader_resync(r, &from, &to) != AVROGEN_OK) {
 *             break;                        // cannot go on: avrogen_ocf_reader_error
 *         } else {
 *             report_dropped(from, to);
 *         }
 *     }
 */
/*
 * The block next_block last returned is damaged after all (the caller found
 * in it what it cannot take, a string that is not UTF-8, say): make that r's
 * error, E_INVALID with the message `why` at the block's offset, so that
 * avrogen_ocf_reader_resync scans for the next block from the block's first
 * byte. Returns r's error; does nothing (AVROGEN_OK) when r has no block
 * whose framing held, and keeps an error r already has.
 *
 *     uint64_t n, from, to;
 *     avrogen_reader block;
 *     if (avrogen_ocf_reader_next_block(r, &n, &block) == AVROGEN_OK && n != 0 &&
 *         !block_ok(&block, n) && avrogen_ocf_reader_reject_block(r, "bad datum") != AVROGEN_OK &&
 *         avrogen_ocf_reader_resync(r, &from, &to) == AVROGEN_OK)
 *         report_dropped(from, to);
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_reject_block(avrogen_ocf_reader *r,
                                                                             const char *why);

AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_resync(avrogen_ocf_reader *r,
                                                                       uint64_t *from,
                                                                       uint64_t *to);

/*
 * The next datum of the file decoded as a value of `reader`, a node of any
 * parsed schema (NULL: the file's own schema). When `reader` is not the file's
 * schema, the datum is resolved from the file's schema into reader's shape
 * (spec §Schema Resolution, avrogen_resolver): every value's `type` is then a
 * node of reader's schema. On AVROGEN_OK *got says whether there was a datum;
 * false means the file ended cleanly. Strings, bytes, arrays and maps go into
 * `a` (copies: *out does not point into the file); resetting `a` between
 * datums is the caller's choice.
 *
 * The resolver is built on the first call with a given `reader`, before any
 * datum is read, and kept: r remembers it by the node's address, so `reader`'s
 * schema must stay alive until r is closed or called with another node (which
 * replaces it). Schemas that cannot be resolved fail there, with nothing
 * consumed: E_MISMATCH (or E_SCHEMA for a bad reader default, E_NOMEM), the
 * reader path in diag.path and the reason in the message.
 *
 * Each datum is decoded where it lies in its block, in one pass, as next_json
 * reads it. A datum that fails is read again, delimited first as
 * avrogen_ocf_reader_next_datum does and then decoded from exactly its bytes,
 * so errors are those of that way: data the file's schema rejects fails with
 * next_datum's status and offset, and a decode that stops short of the datum's
 * end or runs past it is an error. The first datum of each block is always
 * read that way (one avrogen_skip a block), so a decoder that disagrees with
 * the file about where datums end is named at its first datum; later in a
 * block the disagreement shows as a later datum's error or as bytes left at the
 * block's end. Decoding errors carry the block's file offset,
 * the datum's index in its block and the byte within the decompressed block:
 * every status of avrogen_value_read, E_MISMATCH for a datum using an enum
 * symbol or union branch the reader lacks, and those of next_datum. All errors
 * are sticky (avrogen_ocf_reader_error). May be mixed with next_datum and
 * next_as; mixing with next_block drops the rest of the current block.
 *
 *     const avrogen_node *mine = avrogen_schema_root(my_schema);
 *     avrogen_value v;
 *     bool got;
 *     for (;;) {
 *         avrogen_arena_reset(&arena);
 *         if (avrogen_ocf_reader_next_value(r, mine, &v, &arena, &got) != AVROGEN_OK || !got)
 *             break;
 *         use(&v);
 *     }
 *     if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
 *         return fail(d.msg);     // d.path too, for a schema mismatch
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_reader_next_value(avrogen_ocf_reader *r, const avrogen_node *reader, avrogen_value *out,
                              avrogen_arena *a, bool *got);

/*
 * The next datum of the file, in the file's own schema, as its Avro JSON
 * encoding appended to w (avrogen_datum_to_json: flags and sink as for
 * avrogen_value_to_json_sink, sink may be NULL), without building a value or
 * using an arena. *got as for next_value. The datum is read where it lies in
 * the block, once (as next_value and next_as read theirs), with the
 * decoder's checks and next_datum's sticky errors: on a decoding error, w
 * holds the text of its first part, and a sink may have taken some. A failure
 * of the writer or the sink is returned (with *got false) but is not the
 * file's: the datum is skipped and r stays usable.
 *
 *     avrogen_writer out;
 *     avrogen_writer_init_growable(&out, NULL);
 *     bool got;
 *     while (avrogen_ocf_reader_next_json(r, &out, 0, NULL, &got) == AVROGEN_OK && got) {
 *         avrogen_write_raw(&out, "\n", 1);
 *         fwrite(avrogen_writer_data(&out), 1, avrogen_writer_len(&out), stdout);
 *         avrogen_writer_reset(&out);
 *     }
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status
avrogen_ocf_reader_next_json(avrogen_ocf_reader *r, avrogen_writer *w, unsigned flags,
                             const avrogen_json_sink *sink, bool *got);

/*
 * The next datum of the file decoded into *dst, a struct of the generated
 * record type `t` (P_avro_type), through avrogen_decode_as with the file's
 * writer fingerprint: t's own decoder when the file was written with t's
 * schema, else t's ahead-of-time decoder for the file's schema if it has one,
 * else a type plan built once per reader (kept in a plan cache of r's, created
 * on first need). *got as for next_value. *dst follows P_avro_decode's
 * ownership rules: arrays, maps and char * strings in `a`, views
 * (avrogen_str, avrogen_bytes) into r's current block, valid until the next
 * call on r, or into the plan for defaults, valid until r is closed.
 *
 * A type plan is built (and checked) before any datum is read: schemas that
 * cannot be resolved are a sticky E_MISMATCH with the reader path and reason,
 * nothing consumed. Datums are read, and errors reported, as by next_value:
 * in one pass where each lies, a failing one (and each block's first) again
 * delimited and decoded from exactly its bytes. E_ARG (not sticky) when t is not a generated
 * record type (no schema or decoder).
 *
 *     struct order o;
 *     bool got;
 *     for (;;) {
 *         avrogen_arena_reset(&arena);
 *         if (avrogen_ocf_reader_next_as(r, &order_avro_type, &o, &arena, &got) != AVROGEN_OK ||
 *             !got)
 *             break;
 *         use(&o);
 *     }
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_ocf_reader_next_as(avrogen_ocf_reader *r,
                                                                        const avrogen_type *t,
                                                                        void *dst, avrogen_arena *a,
                                                                        bool *got);

/* File offset of the first byte of the block last returned (or being read). */
AVROGEN_API uint64_t avrogen_ocf_reader_block_offset(const avrogen_ocf_reader *r);

/* File offset of the next byte r will read: after the last block read, or where resync left it. */
AVROGEN_API uint64_t avrogen_ocf_reader_position(const avrogen_ocf_reader *r);

/*
 * The object count in the header of the block last returned or being read,
 * also of a damaged block whose header could be read (what a repair reports
 * as lost); 0 when it could not. Not checked against the block's bytes.
 */
AVROGEN_API uint64_t avrogen_ocf_reader_block_count(const avrogen_ocf_reader *r);

/* The first (sticky) error of r, or AVROGEN_OK; `diag` (may be NULL) gets its text and offset. */
AVROGEN_API avrogen_status avrogen_ocf_reader_error(const avrogen_ocf_reader *r,
                                                    avrogen_diag *diag);

/* The parsed writer schema from avro.schema, owned by r. */
AVROGEN_API const avrogen_schema *avrogen_ocf_reader_schema(const avrogen_ocf_reader *r);

/* The CRC-64-AVRO fingerprint of the file's schema (its Parsing Canonical Form). */
AVROGEN_API uint64_t avrogen_ocf_reader_fingerprint(const avrogen_ocf_reader *r);

/* The codec's spec name ("null" when avro.codec is absent). */
AVROGEN_API const char *avrogen_ocf_reader_codec(const avrogen_ocf_reader *r);

/* The AVROGEN_OCF_SYNC_SIZE bytes of the file's sync marker, owned by r. */
AVROGEN_API const uint8_t *avrogen_ocf_reader_sync(const avrogen_ocf_reader *r);

/* Number of metadata entries, avro.* ones included, in file order. */
AVROGEN_API size_t avrogen_ocf_reader_meta_count(const avrogen_ocf_reader *r);

/*
 * Entry `i` of the metadata: *key (NUL-terminated; its UTF-8 may also contain
 * NULs, *key_len says where it ends) and *value (followed by a NUL byte, not
 * counted). All owned by r. False when i is out of range. Pointers may be NULL.
 */
AVROGEN_API bool avrogen_ocf_reader_meta_at(const avrogen_ocf_reader *r, size_t i, const char **key,
                                            size_t *key_len, avrogen_bytes *value);

/* The value of metadata `key` (the last entry if a user key repeats), or false. */
AVROGEN_API bool avrogen_ocf_reader_meta_get(const avrogen_ocf_reader *r, const char *key,
                                             avrogen_bytes *value);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_OCF_H */
