/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Packed structs of the kernel's headers (cg_packed.h, issue 23) coded at odd
 * addresses. This program and the generated cg_packed.avro.c are compiled with
 * -fsanitize=alignment -fno-sanitize-recover (tests/codegen/CMakeLists.txt):
 * a read or write through a misaligned typed pointer (`const __le64 *it =
 * v->values`, a bulk call) aborts it. Each struct is filled at store + 1,
 * sized, encoded, checked against the known bytes, decoded at store2 + 3 and
 * compared member by member; struct packed_samples's arrays, the item types
 * of the bulk codecs, are round-tripped the same way.
 */
#include <stdio.h>
#include <string.h>

#include "cg_packed.avro.h"

static int failures;

#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

static unsigned char store[64], store2[64], out[64];

static void dev_stats(void)
{
    static const uint8_t want[] = {0x0a, 0x02, 0xd8, 0x04, 0x00, 0x0e, 0x80, 0x01, 0x00};
    static const __u64 values[BTRFS_DEV_STAT_VALUES_MAX] = {1, 300, 0, 7, 64};
    struct btrfs_dev_stats_item *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    for (size_t i = 0; i < BTRFS_DEV_STAT_VALUES_MAX; i++)
        in->values[i] = values[i];
    EXPECT(btrfs_dev_stats_item_avro_size(in) == sizeof want);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, out, sizeof out);
    EXPECT(btrfs_dev_stats_item_avro_encode(&w, in) == AVROGEN_OK);
    EXPECT(avrogen_writer_len(&w) == sizeof want &&
           memcmp(avrogen_writer_data(&w), want, sizeof want) == 0);
    avrogen_reader r;
    avrogen_reader_init(&r, want, sizeof want);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    EXPECT(btrfs_dev_stats_item_avro_decode(&r, back, &a) == AVROGEN_OK);
    for (size_t i = 0; i < BTRFS_DEV_STAT_VALUES_MAX; i++)
        EXPECT(back->values[i] == values[i]);
    avrogen_arena_fini(&a);
}

static void media_pad(void)
{
    /* id 1, entity_id 2, flags MEDIA_PAD_FL_SOURCE (2), index 64, reserved {0, 0, 0, 1}:
     * longs, reserved an array of 4. */
    static const uint8_t want[] = {0x02, 0x04, 0x04, 0x80, 0x01, 0x08,
                                   0x00, 0x00, 0x00, 0x02, 0x00};
    struct media_v2_pad *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    memset(in, 0, sizeof *in);
    in->id = 1;
    in->entity_id = 2;
    in->flags = MEDIA_PAD_FL_SOURCE;
    in->index = 64;
    in->reserved[3] = 1;
    EXPECT(media_v2_pad_avro_size(in) == sizeof want);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, out, sizeof out);
    EXPECT(media_v2_pad_avro_encode(&w, in) == AVROGEN_OK);
    EXPECT(avrogen_writer_len(&w) == sizeof want &&
           memcmp(avrogen_writer_data(&w), want, sizeof want) == 0);
    avrogen_reader r;
    avrogen_reader_init(&r, want, sizeof want);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    EXPECT(media_v2_pad_avro_decode(&r, back, &a) == AVROGEN_OK);
    EXPECT(memcmp(back, in, sizeof *in) == 0);
    avrogen_arena_fini(&a);
}

/* The arrays the bulk codecs would take, each at an odd offset. */
static void samples(void)
{
    /* kind 1 byte; longs: count, -1, 1000 (2 bytes), 0, end; ints: count, 5, 6, end;
     * reals: count, 16, end; floats: count, 8, end. */
    const size_t want = 1 + (1 + 1 + 2 + 1 + 1) + (1 + 2 + 1) + (1 + 16 + 1) + (1 + 8 + 1);
    struct packed_samples *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    memset(in, 0, sizeof *in);
    in->kind = 7;
    in->longs[0] = -1;
    in->longs[1] = 1000;
    in->ints[0] = 5;
    in->ints[1] = 6;
    in->reals[0] = 0.5;
    in->reals[1] = -2.25;
    in->floats[0] = 1.5f;
    in->floats[1] = 3.0f;
    EXPECT(packed_samples_avro_size(in) == want);
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, out, sizeof out);
    EXPECT(packed_samples_avro_encode(&w, in) == AVROGEN_OK);
    EXPECT(avrogen_writer_len(&w) == want);
    avrogen_reader r;
    avrogen_reader_init(&r, out, avrogen_writer_len(&w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    EXPECT(packed_samples_avro_decode(&r, back, &a) == AVROGEN_OK);
    EXPECT(memcmp(back, in, sizeof *in) == 0);
    avrogen_arena_fini(&a);
}

int main(void)
{
    dev_stats();
    media_pad();
    samples();
    if (failures == 0)
        printf("packed structs: coded at odd addresses, known answers\n");
    return failures == 0 ? 0 : 1;
}
