/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Packed structs of the kernel's headers (cg_packed.h, issue 23) coded at odd
 * addresses. This program and the generated cg_packed.avro.c are compiled with
 * -fsanitize=alignment -fno-sanitize-recover (tests/codegen/CMakeLists.txt):
 * a read or write through a misaligned typed pointer (`const __le64 *it =
 * v->values`, a bulk call) aborts it. Each struct is filled at store + 1,
 * sized, encoded, checked against the known bytes, decoded at store2 + 3 and
 * compared member by member; struct packed_samples's arrays, the item types
 * of the bulk codecs, are round-tripped the same way. So are the packed
 * structs holding members of struct type whose alignment is above 1 (a CAN
 * frame, a sockaddr_storage, timespecs, records of int64_t and double,
 * holders): generated code passes those to their own functions through an
 * aligned copy, never as `&v->member`.
 */
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "cg_packed.avro.h"

static int failures;

#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

/* 16-aligned: store + 1 is odd, store + 8 is 4 mod 8 once past offset 4. */
static _Alignas(16) unsigned char store[256];
static _Alignas(16) unsigned char store2[256];
static unsigned char out[256];

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

/* Size and encode in against want, decode want into back (store2, filled
 * with 0x5a before); the arena stays for the caller's comparison. */
#define CODE(P, in, back, want, n, a)                                                             \
    do {                                                                                          \
        EXPECT(P##_avro_size(in) == (n));                                                         \
        avrogen_writer w_;                                                                        \
        avrogen_writer_init_fixed(&w_, out, sizeof out);                                          \
        EXPECT(P##_avro_encode(&w_, in) == AVROGEN_OK);                                           \
        EXPECT(avrogen_writer_len(&w_) == (n) && memcmp(avrogen_writer_data(&w_), want, n) == 0); \
        avrogen_reader r_;                                                                        \
        avrogen_reader_init(&r_, want, n);                                                        \
        avrogen_arena_init(a, NULL);                                                              \
        memset(store2, 0x5a, sizeof store2); /* decode does not depend on zeros */                \
        EXPECT(P##_avro_decode(&r_, back, a) == AVROGEN_OK);                                      \
    } while (0)

/* struct cgw_frame_mod: a struct can_frame (alignment 8) at store + 1. */
static void can_gateway(void)
{
    static const uint8_t want[] = {0xc6, 0x04, 0x06, 0x00, 0x00, 0x00, 0xde, 0xad,
                                   0xbe, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a};
    struct cgw_frame_mod *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    memset(in, 0, sizeof *in);
    in->cf.can_id = 0x123;
    in->cf.len = 3;
    in->cf.data[0] = 0xde;
    in->cf.data[1] = 0xad;
    in->cf.data[2] = 0xbe;
    in->modtype = CGW_MOD_ID | CGW_MOD_DATA;
    avrogen_arena a;
    CODE(cgw_frame_mod, in, back, want, sizeof want, &a);
    EXPECT(memcmp(back, in, sizeof *in) == 0);
    avrogen_arena_fini(&a);
}

/* struct sctp_paddrinfo (aligned(4)): a struct sockaddr_storage (alignment
 * 8) at offset 4 of a struct at an address 8 divides, so at one it does not;
 * its 128 bytes are a fixed. */
static void sctp_peer(void)
{
    static const uint8_t tail[] = {0x04, 0xb8, 0x44, 0x00, 0xf0, 0x2e, 0xb8, 0x17};
    struct sctp_paddrinfo *in = (void *)(store + 8), *back = (void *)(store2 + 16);
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(443);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    memset(in, 0, sizeof *in);
    in->spinfo_assoc_id = 7;
    memcpy((void *)&in->spinfo_address, &sin, sizeof sin);
    in->spinfo_state = SCTP_ACTIVE;
    in->spinfo_cwnd = 4380;
    in->spinfo_rto = 3000;
    in->spinfo_mtu = 1500;
    uint8_t want[1 + 128 + sizeof tail] = {0x0e};
    memcpy(want + 1, &sin, sizeof sin); /* the rest of the storage: zeros */
    memcpy(want + 1 + 128, tail, sizeof tail);
    avrogen_arena a;
    CODE(sctp_paddrinfo, in, back, want, sizeof want, &a);
    EXPECT(memcmp(back, in, sizeof *in) == 0);
    avrogen_arena_fini(&a);
}

/* struct packed_track: a timespec, a record, an array of records and one of
 * timespecs, all at odd addresses. */
static void track(void)
{
    /* kind 1; at; origin {-3, 0.5}; gap 255; path {1000, 2.0}, {-1, -1.5};
     * laps 0, -1 ns; tail 65535 */
    static const uint8_t want[] = {0x02, 0xaa, 0xb4, 0xae, 0xd8, 0xc7, 0xbf, 0xce, 0x97, 0x2f,
                                   0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x3f, 0xfe,
                                   0x03, 0x04, 0xd0, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                   0x00, 0x40, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8,
                                   0xbf, 0x00, 0x04, 0x00, 0x01, 0x00, 0xfe, 0xff, 0x07};
    struct packed_track *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    memset(in, 0, sizeof *in);
    in->kind = 1;
    in->at.tv_sec = 1700000000;
    in->at.tv_nsec = 123456789;
    in->origin.x = -3;
    in->origin.y = 0.5;
    in->gap = 255;
    in->path[0].x = 1000;
    in->path[0].y = 2.0;
    in->path[1].x = -1;
    in->path[1].y = -1.5;
    in->laps[1].tv_sec = -1;
    in->laps[1].tv_nsec = 999999999;
    in->tail = 65535;
    avrogen_arena a;
    CODE(packed_track, in, back, want, sizeof want, &a);
    EXPECT(memcmp(back, in, sizeof *in) == 0);
    avrogen_arena_fini(&a);
}

/* struct packed_lists: arrays of holders and a counted array of int64_t. */
static void lists(void)
{
    /* kind 3; rows [[1.5, -2.0], []]; cells [{"long": -7}, {"double": 0.25}];
     * counts [1, -1, 2^40] */
    static const uint8_t want[] = {0x06, 0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                   0xf8, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                   0xc0, 0x00, 0x00, 0x00, 0x04, 0x02, 0x0d, 0x04, 0x00,
                                   0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f, 0x00, 0x06,
                                   0x02, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00};
    static double row0[] = {1.5, -2.0};
    struct packed_lists *in = (void *)(store + 1), *back = (void *)(store2 + 3);
    memset(in, 0, sizeof *in);
    in->kind = 3;
    in->rows[0].value = row0;
    in->rows[0].n = 2;
    in->n_rows = 2;
    in->cells[0].kind = PACKED_INT;
    in->cells[0].value.i = -7;
    in->cells[1].kind = PACKED_REAL;
    in->cells[1].value.x = 0.25;
    in->counts[0] = 1;
    in->counts[1] = -1;
    in->counts[2] = INT64_C(1) << 40;
    in->n_counts = 3;
    avrogen_arena a;
    CODE(packed_lists, in, back, want, sizeof want, &a);
    EXPECT(back->kind == 3 && back->n_rows == 2 && back->n_counts == 3);
    struct packed_row r0, r1; /* copied out: `back->rows[0].value[1]` loads unaligned */
    memcpy(&r0, (const void *)&back->rows[0], sizeof r0);
    memcpy(&r1, (const void *)&back->rows[1], sizeof r1);
    EXPECT(r0.n == 2 && r0.value[0] == 1.5 && r0.value[1] == -2.0 && r1.n == 0);
    EXPECT(back->cells[0].kind == PACKED_INT && back->cells[0].value.i == -7);
    EXPECT(back->cells[1].kind == PACKED_REAL && back->cells[1].value.x == 0.25);
    EXPECT(back->counts[0] == 1 && back->counts[1] == -1 && back->counts[2] == INT64_C(1) << 40);
    avrogen_arena_fini(&a);
}

#ifdef PACKED_AOT
/* Built a second time (codegen_packed_aot) on cg_packed.h generated with
 * --compat-with earlier_packed: the ahead-of-time decoders for those earlier
 * schemas decode bytes written with them into structs at odd addresses. */
static void aot_decode(const avrogen_type *t, const uint8_t *bytes, size_t n, void *back,
                       avrogen_arena *a)
{
    EXPECT(t->n_resolved == 1);
    if (t->n_resolved != 1)
        return;
    avrogen_reader r;
    avrogen_reader_init(&r, bytes, n);
    avrogen_arena_init(a, NULL);
    memset(store2, 0x5a, sizeof store2);
    EXPECT(t->resolved[0].decode(&r, back, a) == AVROGEN_OK);
    EXPECT(r.p == r.end);
}

static void aot(void)
{
    /* can_gateway_int.avsc: modtype first, can_id an int */
    static const uint8_t can[] = {0x0a, 0xc6, 0x04, 0x06, 0x00, 0x00, 0x00, 0xde,
                                  0xad, 0xbe, 0x00, 0x00, 0x00, 0x00, 0x00};
    /* packed_track_int.avsc: PackedPoint {int x, float y} */
    static const uint8_t track_bytes[] = {
            0x02, 0xaa, 0xb4, 0xae, 0xd8, 0xc7, 0xbf, 0xce, 0x97, 0x2f, 0x05, 0x00, 0x00,
            0x00, 0x3f, 0xfe, 0x03, 0x04, 0xd0, 0x0f, 0x00, 0x00, 0x00, 0x40, 0x01, 0x00,
            0x00, 0xc0, 0xbf, 0x00, 0x04, 0x00, 0x01, 0x00, 0xfe, 0xff, 0x07};
    /* packed_lists_narrow.avsc: float rows, an int branch, int counts */
    static const uint8_t lists_bytes[] = {0x06, 0x04, 0x04, 0x00, 0x00, 0xc0, 0x3f, 0x00,
                                          0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x04, 0x02,
                                          0x0d, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                          0xd0, 0x3f, 0x00, 0x06, 0x02, 0x01, 0x0e, 0x00};
    avrogen_arena a;

    struct cgw_frame_mod *c = (void *)(store2 + 3);
    aot_decode(&cgw_frame_mod_avro_type, can, sizeof can, c, &a);
    EXPECT(c->cf.can_id == 0x123 && c->cf.len == 3 && c->cf.__pad == 0 && c->cf.len8_dlc == 0);
    EXPECT(c->cf.data[0] == 0xde && c->cf.data[2] == 0xbe && c->cf.data[7] == 0);
    EXPECT(c->modtype == (CGW_MOD_ID | CGW_MOD_DATA));
    avrogen_arena_fini(&a);

    struct packed_track *t = (void *)(store2 + 3);
    aot_decode(&packed_track_avro_type, track_bytes, sizeof track_bytes, t, &a);
    EXPECT(t->kind == 1 && t->at.tv_sec == 1700000000 && t->at.tv_nsec == 123456789);
    EXPECT(t->origin.x == -3 && t->origin.y == 0.5 && t->gap == 255);
    EXPECT(t->path[0].x == 1000 && t->path[0].y == 2.0);
    EXPECT(t->path[1].x == -1 && t->path[1].y == -1.5);
    EXPECT(t->laps[0].tv_sec == 0 && t->laps[1].tv_sec == -1 && t->laps[1].tv_nsec == 999999999);
    EXPECT(t->tail == 65535);
    avrogen_arena_fini(&a);

    struct packed_lists *l = (void *)(store2 + 3);
    aot_decode(&packed_lists_avro_type, lists_bytes, sizeof lists_bytes, l, &a);
    struct packed_row r0, r1;
    memcpy(&r0, (const void *)&l->rows[0], sizeof r0);
    memcpy(&r1, (const void *)&l->rows[1], sizeof r1);
    EXPECT(l->kind == 3 && l->n_rows == 2 && r0.n == 2 && r1.n == 0);
    EXPECT(r0.n == 2 && r0.value[0] == 1.5 && r0.value[1] == -2.0);
    EXPECT(l->cells[0].kind == PACKED_INT && l->cells[0].value.i == -7);
    EXPECT(l->cells[1].kind == PACKED_REAL && l->cells[1].value.x == 0.25);
    EXPECT(l->n_counts == 3 && l->counts[0] == 1 && l->counts[1] == -1 && l->counts[2] == 7);
    avrogen_arena_fini(&a);
}
#endif

int main(void)
{
    dev_stats();
    media_pad();
    samples();
    can_gateway();
    sctp_peer();
    track();
    lists();
#ifdef PACKED_AOT
    aot();
#endif
    if (failures == 0)
        printf("packed structs: coded at odd addresses, known answers\n");
    return failures == 0 ? 0 : 1;
}
