/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core of `avrogen repair`, on the runtime alone, so that it runs on
 * memory as well as on files (tests/fuzz/fuzz_repair.c): intact blocks copied
 * as stored, damage passed over by avrogen_ocf_reader_resync and told to a
 * hook. It prints nothing and opens nothing; cmd_blocks.c does.
 */
#ifndef AVROGEN_CLI_REPAIR_H
#define AVROGEN_CLI_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/arena.h"
#include "avrogen/ocf.h"

/*
 * Check the `n` datums of a block next_block returned against the file's
 * schema: delimited by skipping (decode false) or decoded in full, UTF-8
 * included (decode true, into `a`), with no byte left over. True when sound;
 * otherwise `why` says what and where.
 */
bool cli_block_is_sound(avrogen_ocf_reader *r, avrogen_reader *block, uint64_t n, bool decode,
                        avrogen_arena *a, char *why, size_t cap);

/* What repair kept and gave up. */
typedef struct repair_tally {
    uint64_t kept_blocks, kept; /* blocks copied, and their records */
    uint64_t lost_blocks;       /* ranges given up, each from a damaged block's first byte */
    uint64_t lost;              /* the records their headers claim, at most UINT64_MAX */
    uint64_t lost_bytes;
    bool lost_at_least; /* a header was unreadable or the claims pass UINT64_MAX: lost is less */
} repair_tally;

typedef struct repair_hooks {
    /*
     * Bytes [from, to) given up: the damaged block there claims `claim`
     * records (0 when its header could not be read: unknown), and `why` is
     * its fault. NULL: not told.
     */
    void (*dropped)(void *ctx, uint64_t from, uint64_t to, uint64_t claim, const char *why);
    /* The block at file offset `at` copied: `records` kept so far. NULL: not told. */
    void (*kept)(void *ctx, uint64_t at, uint64_t records);
    void *ctx;
} repair_hooks;

typedef enum repair_end {
    REPAIR_DONE,         /* every block read: the intact ones copied to w */
    REPAIR_READ_FAILED,  /* r's error is no damage (I/O, memory): avrogen_ocf_reader_error */
    REPAIR_WRITE_FAILED, /* w failed: avrogen_ocf_writer_error */
} repair_end;

/*
 * Copy every block of r that is intact (its framing holds, it decompresses
 * and every datum decodes in full, UTF-8 included) to w as stored, passing
 * over the rest by resynchronising; *t (zeroed here) says what was kept and
 * given up. `a` holds each datum while it is checked.
 */
repair_end repair_blocks(avrogen_ocf_reader *r, avrogen_ocf_writer *w, avrogen_arena *a,
                         const repair_hooks *h, repair_tally *t);

#endif
