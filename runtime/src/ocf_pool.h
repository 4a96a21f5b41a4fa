/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small pool of worker threads that compress or decompress whole container
 * blocks for one reader or writer (ocf.c), each worker with a codec of its
 * own. Jobs sit in a ring of slots taken in order: the owner fills the next
 * free slot and submits it, workers take submitted slots in ring order, and
 * the owner retires the oldest slot once it is done, so blocks come back in
 * the order they went in. The ring bounds memory: at most `slots` blocks in
 * flight. Only the codec work runs on the workers; framing, I/O and errors
 * stay with the owner. Internal to the runtime: never installed.
 */
#ifndef AVROGEN_OCF_POOL_H
#define AVROGEN_OCF_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/alloc.h"
#include "avrogen/status.h"

#include "codec_internal.h"

typedef struct ocf_job {
    const uint8_t *in;        /* the bytes to work on: own_in's, or memory the owner keeps */
    size_t in_len;            /* how many */
    avrogen_codec_buf own_in; /* a copy of the input, when the owner cannot keep it */
    avrogen_codec_buf out;    /* the result, once done */
    size_t max;               /* decompression: the largest result allowed */
    uint64_t offset;          /* the owner's: where the block starts in the stream */
    uint64_t count;           /* the owner's: the block's object count */
    avrogen_status st;        /* the codec's status, once done */
    const char *msg;          /* the codec's static message when st is not AVROGEN_OK */
    int state;                /* JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE (ocf_pool.c) */
} ocf_job;

typedef struct ocf_pool ocf_pool;

/*
 * Start `threads` workers (at least 1) over a ring of `slots` jobs (at least
 * 1), each worker with a codec named `codec` at `level` (0: its default),
 * compressing (`decompress` false) or decompressing. Buffers come from
 * `alloc` (NULL: libc). E_NOMEM, E_ARG for a codec or level codec.c refuses,
 * or E_IO when a thread cannot be started; *out is NULL on failure.
 */
avrogen_status ocf_pool_new(const avrogen_alloc *alloc, const char *codec, int level,
                            unsigned threads, size_t slots, bool decompress, ocf_pool **out);

/* Stop the workers (after the jobs they are running) and free everything. NULL is fine. */
void ocf_pool_free(ocf_pool *p);

/* The next free slot for the owner to fill, or NULL when all are in flight. */
ocf_job *ocf_pool_next(ocf_pool *p);

/* Hand the slot ocf_pool_next returned to the workers. */
void ocf_pool_submit(ocf_pool *p);

/* The oldest slot in flight, once done (waiting for it); NULL when none is. */
ocf_job *ocf_pool_oldest(ocf_pool *p);

/* The oldest slot in flight if it is done already, without waiting; else NULL. */
ocf_job *ocf_pool_oldest_done(ocf_pool *p);

/* Give the oldest slot (done) back to the ring; its buffers stay for reuse. */
void ocf_pool_retire(ocf_pool *p);

/* Slots in flight (submitted and not retired). */
size_t ocf_pool_in_flight(const ocf_pool *p);

/* The ring's size. */
size_t ocf_pool_slots(const ocf_pool *p);

/* Read-only access to the i-th slot in flight, 0 the oldest (its offset and count only). */
const ocf_job *ocf_pool_peek(const ocf_pool *p, size_t i);

#endif /* AVROGEN_OCF_POOL_H */
