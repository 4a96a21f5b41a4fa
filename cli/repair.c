/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core of `avrogen repair` (repair.h): blocks read by their framing, each
 * checked datum by datum before it is copied as stored, damage passed over by
 * avrogen_ocf_reader_resync, which tries every position after it. It reports
 * through hooks and prints nothing.
 */
#include "repair.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

bool cli_block_is_sound(avrogen_ocf_reader *r, avrogen_reader *block, uint64_t n, bool decode,
                        avrogen_arena *a, char *why, size_t cap)
{
    const avrogen_node *root = avrogen_schema_root(avrogen_ocf_reader_schema(r));
    uint64_t at = avrogen_ocf_reader_block_offset(r);
    for (uint64_t i = 0; i < n; i++) {
        avrogen_value v;
        avrogen_reader_begin_datum(block);
        avrogen_arena_reset(a);
        avrogen_status st = decode ? avrogen_value_read(block, root, &v, a, AVROGEN_VALUE_ZEROCOPY)
                                   : avrogen_skip(block, root);
        if (st != AVROGEN_OK) {
            snprintf(why, cap,
                     "block at offset %" PRIu64 ", object %" PRIu64
                     " (byte %zu of the decompressed block): %s",
                     at, i, block->err_offset,
                     block->err_msg != NULL ? block->err_msg : avrogen_status_str(st));
            return false;
        }
    }
    if (avrogen_reader_remaining(block) != 0) {
        snprintf(why, cap, "block at offset %" PRIu64 " has %zu bytes after its last object", at,
                 avrogen_reader_remaining(block));
        return false;
    }
    return true;
}

/* *sum + n, or UINT64_MAX (and *at_least) when that does not fit. */
static void add_claim(uint64_t *sum, uint64_t n, bool *at_least)
{
    if (n > UINT64_MAX - *sum) {
        *sum = UINT64_MAX;
        *at_least = true;
    } else {
        *sum += n;
    }
}

repair_end repair_blocks(avrogen_ocf_reader *r, avrogen_ocf_writer *w, avrogen_arena *a,
                         const repair_hooks *h, repair_tally *t)
{
    memset(t, 0, sizeof *t);
    for (;;) {
        uint64_t count, from, to;
        avrogen_reader block;
        char why[512];
        if (avrogen_ocf_reader_next_block(r, &count, &block) == AVROGEN_OK) {
            if (count == 0)
                return REPAIR_DONE;
            /* Every datum decoded, UTF-8 included, before the block is copied as stored. */
            avrogen_bytes payload;
            if (cli_block_is_sound(r, &block, count, true, a, why, sizeof why)) {
                if (!avrogen_ocf_reader_block_payload(r, &payload))
                    return REPAIR_READ_FAILED;
                if (avrogen_ocf_writer_write_block(w, count, payload.ptr, payload.len) !=
                    AVROGEN_OK)
                    return REPAIR_WRITE_FAILED;
                t->kept_blocks++;
                t->kept += count; /* decoded, one by one: no sum of claims */
                if (h != NULL && h->kept != NULL)
                    h->kept(h->ctx, avrogen_ocf_reader_block_offset(r), t->kept);
                continue;
            }
            /* The reader found nothing wrong; the block is damaged all the same. */
            if (avrogen_ocf_reader_reject_block(r, why) == AVROGEN_OK)
                return REPAIR_READ_FAILED; /* not reached: the block's framing held */
        }
        avrogen_diag d;
        memset(&d, 0, sizeof d);
        avrogen_ocf_reader_error(r, &d);
        snprintf(why, sizeof why, "%s", d.msg);
        count = avrogen_ocf_reader_block_count(r);
        if (avrogen_ocf_reader_resync(r, &from, &to) != AVROGEN_OK)
            return REPAIR_READ_FAILED;
        t->lost_blocks++;
        add_claim(&t->lost, count, &t->lost_at_least);
        t->lost_at_least = t->lost_at_least || count == 0;
        t->lost_bytes += to - from;
        if (h != NULL && h->dropped != NULL)
            h->dropped(h->ctx, from, to, count, why);
    }
}
