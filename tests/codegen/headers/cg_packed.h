/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: packed structs of the installed kernel headers, whose
 * members may sit at any address (issue 23): struct btrfs_dev_stats_item
 * (<linux/btrfs_tree.h>, `__le64 values[BTRFS_DEV_STAT_VALUES_MAX]`, packed)
 * and struct media_v2_pad (<linux/media.h>, four __u32 and `__u32
 * reserved[4]`, packed), and one of our own whose arrays' items are the
 * types the bulk codecs take (int64_t, int32_t, double, float) behind a byte.
 * Generated code reaches their arrays item by item
 * through the struct, never through a typed pointer into them: it compiles
 * with -Werror (no -Waddress-of-packed-member) and test_packed.c round-trips
 * them at odd addresses under -fsanitize=alignment. */
#ifndef CG_PACKED_H
#define CG_PACKED_H

#include <linux/btrfs_tree.h>
#include <linux/media.h>
#include <stdint.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct btrfs_dev_stats_item, name = "BtrfsDevStats", namespace = "cg.packed");
AVRO_EXTERN_RECORD(struct media_v2_pad, name = "MediaPad", namespace = "cg.packed");

/* Every array at an odd offset, and the record at any address. */
struct packed_samples {
    uint8_t kind;
    int64_t longs[3];
    int32_t ints[2];
    double reals[2];
    float floats[2];
} __attribute__((packed));
AVRO_EXTERN_RECORD(struct packed_samples, name = "PackedSamples", namespace = "cg.packed");

#endif /* CG_PACKED_H */
