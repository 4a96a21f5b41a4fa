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
 * them at odd addresses under -fsanitize=alignment.
 *
 * Members of struct type whose alignment is above 1: struct cgw_frame_mod
 * (<linux/can/gw.h>, packed: a struct can_frame, alignment 8, at any
 * address), struct sctp_paddrinfo (<linux/sctp.h>, packed and aligned(4): a
 * struct sockaddr_storage, alignment 8, at offset 4, as a fixed of its
 * bytes), and one of our own with a struct timespec, a record of int64_t and
 * double, an array of such records and an array of timespecs at odd
 * offsets, and one whose arrays hold holders (arrays, tagged unions) and
 * int64_t. Generated code copies such a member (an item, a holder) through
 * an aligned local (memcpy) and passes the local's address to the member's
 * own functions. */
#ifndef CG_PACKED_H
#define CG_PACKED_H

#include <stdint.h>
#include <sys/socket.h> /* struct sockaddr_storage, which <linux/sctp.h> uses */
#include <time.h>

#include <linux/btrfs_tree.h>
#include <linux/can.h>
#include <linux/can/gw.h>
#include <linux/media.h>
#include <linux/sctp.h>

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

/* A CAN frame with the gateway's modification type behind it: can_frame's
 * data is aligned(8), so the struct is, and the packed cgw_frame_mod may put
 * it anywhere. can_dlc is len's deprecated alias (an anonymous union). */
AVRO_EXTERN_RECORD(struct can_frame, name = "CanFrame", namespace = "cg.packed");
AVRO_EXTERN_FIELD(struct can_frame, can_dlc, AVRO_SKIP);
AVRO_EXTERN_RECORD(struct cgw_frame_mod, name = "CanGatewayFrameMod", namespace = "cg.packed");

/* A peer address's state: sockaddr_storage (alignment 8) at offset 4. */
AVRO_EXTERN_RECORD(struct sctp_paddrinfo, name = "SctpPeerAddressInfo", namespace = "cg.packed");
AVRO_EXTERN_FIELD(struct sctp_paddrinfo, spinfo_address, AVRO_FIXED_NAME(SocketAddressStorage));

/* Not packed: alignment 8. */
struct packed_point {
    int64_t x;
    double y;
};
AVRO_EXTERN_RECORD(struct packed_point, name = "PackedPoint", namespace = "cg.packed");

/* Every struct member at an odd offset, and the record at any address. */
struct packed_track {
    uint8_t kind;
    struct timespec at;      /* timestamp-nanos */
    struct packed_point origin;
    uint8_t gap;
    struct packed_point path[2];
    struct timespec laps[2]; /* an array of timestamp-nanos */
    uint16_t tail;
} __attribute__((packed));
AVRO_EXTERN_RECORD(struct packed_track, name = "PackedTrack", namespace = "cg.packed");

/* Arrays of holders in a packed struct (alignment 8: a pointer and its
 * count, a tag and a union), and a counted array of int64_t (no bulk call). */
struct packed_row {
    double *value AVRO_ARRAY(n);
    size_t n;
};
enum packed_kind { PACKED_NONE, PACKED_INT, PACKED_REAL };
struct packed_cell {
    enum packed_kind kind;
    union {
        char none AVRO_FIELD(type = "null");
        int64_t i;
        double x;
    } value AVRO_UNION(kind);
};
struct packed_lists {
    uint8_t kind;
    struct packed_row rows[2] AVRO_ARRAY(n_rows);
    uint8_t n_rows;
    struct packed_cell cells[2];
    int64_t counts[4] AVRO_ARRAY(n_counts);
    uint8_t n_counts;
} __attribute__((packed));
AVRO_EXTERN_RECORD(struct packed_lists, name = "PackedLists", namespace = "cg.packed");

#endif /* CG_PACKED_H */
