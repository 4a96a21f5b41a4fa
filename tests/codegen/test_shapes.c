/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The struct shapes of issue 11 (headers/cg_shapes.h), beyond the round trips
 * test_codegen.c and test_type_plan.c run on them: known answers
 * (shapes_cases.c) against the generic runtime, and every refusal at its exact
 * boundary, at it and one past it, in generated code and in the type plan of
 * the record's own schema, with the message naming the member.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <netdb.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "avrogen/resolve.h"

#include "cg_logged.avro.h"
#include "cg_shapes.avro.h"
#include "cg_sysdefault.avro.h"
#include "cg_system.avro.h"
#include "cg_util.h"
#include "cg_vendor.avro.h"
#include "shapes_cases.h"

static avrogen_arena arena;

static void setup(void)
{
    avrogen_arena_init(&arena, NULL);
}

static void teardown(void)
{
    avrogen_arena_fini(&arena);
}

START_TEST(test_known)
{
    const shape_answer *k = &shape_answers[_i];
    void *v = calloc(1, k->c.type->size);
    char why[256];
    k->fill(v);
    ck_assert_msg(cg_same_as_json(&k->c, v, k->json, why, sizeof why), "%s: %s", k->label, why);
    free(v);
}
END_TEST

/* Encode v; the status, and the message when it fails. */
static avrogen_status encode(avrogen_status (*fn)(avrogen_writer *, const void *), const void *v,
                             const char **msg)
{
    /* The message may live in the writer (w.err_text): keep a copy. */
    static char copy[AVROGEN_WRITER_MSG_CAP];
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_status st = fn(&w, v);
    snprintf(copy, sizeof copy, "%s", w.err_msg != NULL ? w.err_msg : "");
    *msg = w.err_msg != NULL ? copy : NULL;
    avrogen_writer_fini(&w);
    return st;
}

/*
 * Decode `json` (a datum of t's schema) with the generated decoder and with the
 * type plan of t's own schema: both give the same status (and message); the
 * generated decoder's is returned, the struct in `out` (t->size bytes).
 */
static avrogen_status decode_json(const avrogen_type *t, const char *json, void *out,
                                  const char **msg)
{
    avrogen_writer w;
    char why[256];
    ck_assert_msg(cg_encode_json(t, json, &w, why, sizeof why) == AVROGEN_OK, "%s", why);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_status st = t->decode(&r, out, &arena);
    /* err_msg may be r's own err_text (the path): kept past r's life. */
    static char kept[AVROGEN_READER_MSG_CAP];
    snprintf(kept, sizeof kept, "%s", r.err_msg != NULL ? r.err_msg : "");
    *msg = r.err_msg != NULL ? kept : NULL;

    avrogen_schema *s = NULL;
    avrogen_diag d;
    const char *text = avrogen_type_schema(t);
    ck_assert_int_eq(avrogen_schema_parse(text, strlen(text), NULL, &s, &d), AVROGEN_OK);
    avrogen_type_plan *plan = NULL;
    ck_assert_int_eq(avrogen_type_plan_new(avrogen_schema_root(s), t, NULL, &plan, &d), AVROGEN_OK);
    void *via_plan = calloc(1, t->size);
    avrogen_reader pr;
    avrogen_reader_init(&pr, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &pr, via_plan, &arena), st);
    ck_assert_uint_eq(pr.err_offset, r.err_offset);
    /* The plan names the same member (a message of its own may differ). */
    if (st != AVROGEN_OK && *msg != NULL && pr.err_msg != NULL) {
        const char *a = strstr(*msg, ": "), *b = strstr(pr.err_msg, ": ");
        if (a != NULL && b != NULL && strncmp(*msg, "struct ", 7) != 0 &&
            strncmp(pr.err_msg, "struct ", 7) != 0)
            ck_assert_msg(a - *msg == b - pr.err_msg &&
                                  strncmp(*msg, pr.err_msg, (size_t)(a - *msg)) == 0,
                          "P_avro_decode: %s, the type plan: %s", *msg, pr.err_msg);
    }
    if (st == AVROGEN_OK) {
        const char *where;
        ck_assert_msg(cg_equal(t, out, via_plan, &where), "plan differs at %s", where);
    }
    free(via_plan);
    avrogen_type_plan_free(plan);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);
    return st;
}

/* ---- integers ---------------------------------------------------------------------- */

static avrogen_status nic_encode_any(avrogen_writer *w, const void *v)
{
    return nic_stats_avro_encode(w, (const struct nic_stats *)v);
}

static void nic_valid(struct nic_stats *v)
{
    memset(v, 0, sizeof *v);
    strcpy(v->ifname, "lo");
}

/* Unsigned 64-bit members: INT64_MAX is the last value a long holds. In a run
 * of fields (rx_bytes, rx_dropped), as an array item and as a pointer's item. */
START_TEST(test_u64_encode_boundary)
{
    struct nic_stats v;
    const char *msg;
    static size_t hist[1];
    static const uint64_t edges[] = {(uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX};
    for (size_t e = 0; e < 3; e++) {
        avrogen_status want = e == 0 ? AVROGEN_OK : AVROGEN_E_ARG;
        /* The message names the member's path and the value
         * (avrogen_writer_explain), an item by its index. */
        char why[160], want_msg[192];
        snprintf(why, sizeof why,
                 "%" PRIu64 " is above the largest long; AVRO_FIELD(type = \"long\") keeps its "
                 "bits, AVRO_DECIMAL(20, 0) every value",
                 edges[e]);
        nic_valid(&v);
        v.rx_bytes = edges[e];
        ck_assert_int_eq(encode(nic_encode_any, &v, &msg), want);
        snprintf(want_msg, sizeof want_msg, "nic_stats.rx_bytes: %s", why);
        if (want != AVROGEN_OK)
            ck_assert_str_eq(msg, want_msg);
        nic_valid(&v);
        v.rx_dropped = (size_t)edges[e];
        ck_assert_int_eq(encode(nic_encode_any, &v, &msg), want);
        snprintf(want_msg, sizeof want_msg, "nic_stats.rx_dropped: %s", why);
        if (want != AVROGEN_OK)
            ck_assert_str_eq(msg, want_msg);
        nic_valid(&v);
        v.queue_bytes[3] = edges[e];
        ck_assert_int_eq(encode(nic_encode_any, &v, &msg), want);
        snprintf(want_msg, sizeof want_msg, "nic_stats.queue_bytes[3]: %s", why);
        if (want != AVROGEN_OK)
            ck_assert_str_eq(msg, want_msg);
        nic_valid(&v);
        hist[0] = (size_t)edges[e];
        v.histogram = hist;
        v.n_histogram = 1;
        ck_assert_int_eq(encode(nic_encode_any, &v, &msg), want);
        snprintf(want_msg, sizeof want_msg, "nic_stats.histogram[0]: %s", why);
        if (want != AVROGEN_OK)
            ck_assert_str_eq(msg, want_msg);
    }
}
END_TEST

static char *nic_json(const char *member, const char *value)
{
    static const char *const members[] = {"rx_packets", "tx_packets", "rx_bytes",  "tx_bytes",
                                          "rx_dropped", "tx_dropped", "multicast", "cookie",
                                          "collisions", "rx_errors",  "delta",     "skew",
                                          "handle",     "offset",     "sampled_at"};
    static char buf[1024];
    size_t n = (size_t)snprintf(buf, sizeof buf, "{\"ifname\": \"x\"");
    for (size_t i = 0; i < sizeof members / sizeof *members; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, ", \"%s\": %s", members[i],
                              strcmp(members[i], member) == 0 ? value : "0");
    snprintf(buf + n, sizeof buf - n, ", \"queue_bytes\": [%s, 0, 0, 0], \"histogram\": [%s]}",
             strcmp(member, "queue_bytes") == 0 ? value : "0",
             strcmp(member, "histogram") == 0 ? value : "1");
    return buf;
}

/* A negative long is refused by every unsigned 64-bit member; 0 is the first value. */
START_TEST(test_u64_decode_boundary)
{
    static const char *const members[] = {"rx_bytes", "rx_dropped",  "tx_dropped", "multicast",
                                          "cookie",   "queue_bytes", "histogram"};
    struct nic_stats v;
    const char *msg;
    char want[128];
    for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
        ck_assert_int_eq(decode_json(&nic_stats_avro_type, nic_json(members[i], "0"), &v, &msg),
                         AVROGEN_OK);
        ck_assert_int_eq(decode_json(&nic_stats_avro_type, nic_json(members[i], "-1"), &v, &msg),
                         AVROGEN_E_INVALID);
        /* The member, and the item of an array member. */
        snprintf(want, sizeof want, "nic_stats.%s", members[i]);
        ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 &&
                              strchr(":[", msg[strlen(want)]) != NULL &&
                              strstr(msg, ": negative long") != NULL,
                      "%s: %s", members[i], msg);
        ck_assert_int_eq(decode_json(&nic_stats_avro_type,
                                     nic_json(members[i], "9223372036854775807"), &v, &msg),
                         AVROGEN_OK);
    }
    /* Signed ones take the whole range. */
    ck_assert_int_eq(
            decode_json(&nic_stats_avro_type, nic_json("delta", "-9223372036854775808"), &v, &msg),
            AVROGEN_OK);
    ck_assert(v.delta == (ssize_t)INT64_MIN);
}
END_TEST

/* ---- instants ---------------------------------------------------------------------- */

static avrogen_status gps_encode_any(avrogen_writer *w, const void *v)
{
    return gps_fix_avro_encode(w, (const struct gps_fix *)v);
}

/* Encode v (generated code), decode it back into *out (generated code). */
static avrogen_status gps_round(const struct gps_fix *v, struct gps_fix *out, const char **msg)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_status st = gps_fix_avro_encode(&w, v);
    *msg = w.err_msg;
    if (st == AVROGEN_OK) {
        avrogen_reader r;
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        ck_assert_int_eq(gps_fix_avro_decode(&r, out, &arena), AVROGEN_OK);
    }
    avrogen_writer_fini(&w);
    return st;
}

/* timestamp-nanos holds INT64_MIN..INT64_MAX nanoseconds: 1677-09-21T00:12:43.145224192
 * to 2262-04-11T23:47:16.854775807. One nanosecond past either end is refused. */
START_TEST(test_time_encode_boundary)
{
    struct gps_fix v, back;
    const char *msg;
    memset(&v, 0, sizeof v);
    v.time.tv_sec = 9223372036;
    v.time.tv_nsec = 854775807;
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    ck_assert_int_eq(back.time.tv_sec, 9223372036);
    ck_assert_int_eq(back.time.tv_nsec, 854775807);
    v.time.tv_nsec = 854775808;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct gps_fix.time: instant out of range");
    v.time.tv_sec = -9223372037;
    v.time.tv_nsec = 145224192;
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    ck_assert_int_eq(back.time.tv_sec, -9223372037);
    ck_assert_int_eq(back.time.tv_nsec, 145224192);
    v.time.tv_nsec = 145224191;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct gps_fix.time: instant out of range");
    /* A time_t in milliseconds: INT64_MAX / 1000 seconds is the last. */
    memset(&v, 0, sizeof v);
    v.leap_at = (time_t)(INT64_MAX / 1000);
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    ck_assert(back.leap_at == v.leap_at);
    v.leap_at++;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct gps_fix.leap_at: instant out of range");
    v.leap_at = (time_t)(INT64_MIN / 1000);
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    v.leap_at--;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    /* The same in an array item (a timeval in milliseconds) and behind a pointer. */
    memset(&v, 0, sizeof v);
    v.history[2].tv_sec = (time_t)(INT64_MAX / 1000);
    v.history[2].tv_usec = 807999;
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    v.history[2].tv_usec = 808000;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct gps_fix.history: instant out of range");
    memset(&v, 0, sizeof v);
    struct timespec huge = {INT64_MAX, 0};
    v.last_valid = &huge;
    ck_assert_int_eq(encode(gps_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct gps_fix.last_valid: instant out of range");
}
END_TEST

/* A coarser unit floors, also before 1970; a fraction outside 0..1 s counts
 * whole (sec + nsec / 10^9 is the instant), and decode normalises it. */
START_TEST(test_time_floor_and_normalise)
{
    struct gps_fix v, back;
    const char *msg;
    memset(&v, 0, sizeof v);
    v.ept_at.tv_sec = 0;
    v.ept_at.tv_nsec = 1999;     /* 1.999 us: 1 us */
    v.history[0].tv_usec = 1999; /* 1.999 ms: 1 ms */
    v.time.tv_sec = 1;
    v.time.tv_nsec = -1; /* 0.999999999 s */
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    ck_assert_int_eq(back.ept_at.tv_sec, 0);
    ck_assert_int_eq(back.ept_at.tv_nsec, 1000);
    ck_assert_int_eq(back.history[0].tv_usec, 1000);
    ck_assert_int_eq(back.time.tv_sec, 0);
    ck_assert_int_eq(back.time.tv_nsec, 999999999);
    v.ept_at.tv_sec = -1;
    v.ept_at.tv_nsec = 999999999; /* -1 ns: floors to -1 us */
    v.time.tv_sec = 0;
    v.time.tv_nsec = -3000000001; /* -3.000000001 s */
    ck_assert_int_eq(gps_round(&v, &back, &msg), AVROGEN_OK);
    ck_assert_int_eq(back.ept_at.tv_sec, -1);
    ck_assert_int_eq(back.ept_at.tv_nsec, 999999000);
    ck_assert_int_eq(back.time.tv_sec, -4);
    ck_assert_int_eq(back.time.tv_nsec, 999999999);
}
END_TEST

static char *gps_json(const char *time, const char *leap_at)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"time\": %s, \"ept_at\": 0, \"leap_at\": %s, \"boot\": 0, \"mode\": "
             "\"NO_FIX\", \"latitude\": 0.0, \"longitude\": 0.0, \"alt_hae\": 0.0, "
             "\"history\": [0, 0, 0], \"last_valid\": null}",
             time, leap_at);
    return buf;
}

/* Decoding never fails on an instant (every long is one) and normalises it:
 * the generated decoder and the type plan alike. */
START_TEST(test_time_decode)
{
    struct gps_fix v;
    const char *msg;
    ck_assert_int_eq(decode_json(&gps_fix_avro_type, gps_json("-1", "-1"), &v, &msg), AVROGEN_OK);
    ck_assert_int_eq(v.time.tv_sec, -1);
    ck_assert_int_eq(v.time.tv_nsec, 999999999);
    ck_assert_int_eq(v.leap_at, -1); /* -1 ms floors to -1 s */
    ck_assert_int_eq(decode_json(&gps_fix_avro_type,
                                 gps_json("-9223372036854775808", "9223372036854775807"), &v, &msg),
                     AVROGEN_OK);
    ck_assert_int_eq(v.time.tv_sec, -9223372037);
    ck_assert_int_eq(v.time.tv_nsec, 145224192);
    ck_assert_int_eq(v.leap_at, INT64_MAX / 1000);
    ck_assert_int_eq(
            decode_json(&gps_fix_avro_type, gps_json("9223372036854775807", "999"), &v, &msg),
            AVROGEN_OK);
    ck_assert_int_eq(v.time.tv_sec, 9223372036);
    ck_assert_int_eq(v.time.tv_nsec, 854775807);
    ck_assert_int_eq(v.leap_at, 0);
}
END_TEST

/* ---- capacity arrays, pointers with lengths, padded text ------------------------------- */

static avrogen_status queues_encode_any(avrogen_writer *w, const void *v)
{
    return nic_queues_avro_encode(w, (const struct nic_queues *)v);
}

static void queues_valid(struct nic_queues *v)
{
    memset(v, 0, sizeof *v);
}

/* The count of each capacity array at its capacity, one past it, and negative. */
START_TEST(test_cap_encode_boundary)
{
    struct nic_queues v;
    const char *msg;
    static char *texts[4] = {(char *)"a", (char *)"b", (char *)"c", (char *)"d"};
    queues_valid(&v);
    v.num_queues = 8;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_OK);
    v.num_queues = 9;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct nic_queues.queues: count outside 0..8");
    queues_valid(&v);
    memcpy(v.labels, texts, sizeof texts);
    v.n_labels = 4;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_OK);
    v.n_labels = 5;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct nic_queues.labels: count outside 0..4");
    v.n_labels = -1;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    queues_valid(&v);
    v.mac_len = 6;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_OK);
    v.mac_len = 7;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct nic_queues.mac: count outside 0..6");
    v.mac_len = -1;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    queues_valid(&v);
    v.driver_len = 32;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_OK);
    v.driver_len = 33;
    ck_assert_int_eq(encode(queues_encode_any, &v, &msg), AVROGEN_E_ARG);
    ck_assert_str_eq(msg, "struct nic_queues.driver: count outside 0..32");
}
END_TEST

/* The datum of nic_queues with `queues` items, a driver of `driver` bytes, a
 * mac of `mac` bytes and `samples` samples, as Avro JSON. */
static char *queues_json(int queues, int driver, int mac, int samples)
{
    static char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf, "{\"driver\": \"");
    for (int i = 0; i < driver; i++)
        buf[n++] = 'd';
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\", \"queues\": [");
    for (int i = 0; i < queues; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s{\"packets\": %d, \"bytes\": 1}",
                              i != 0 ? ", " : "", i);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "], \"labels\": [], \"names\": [], \"mac\": \"");
    for (int i = 0; i < mac; i++)
        buf[n++] = 'm';
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\", \"samples\": [");
    for (int i = 0; i < samples; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", i != 0 ? ", " : "", i);
    snprintf(buf + n, sizeof buf - n, "], \"pairs\": []}");
    return buf;
}

/* More items or bytes than a capacity holds: E_LIMIT naming the member, in
 * generated code and the type plan alike; at the capacity, every one lands. */
START_TEST(test_cap_decode_boundary)
{
    struct nic_queues v;
    const char *msg;
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(8, 32, 6, 255), &v, &msg),
                     AVROGEN_OK);
    ck_assert_uint_eq(v.num_queues, 8);
    ck_assert_uint_eq(v.queues[7].packets, 7);
    ck_assert_uint_eq(v.driver_len, 32);
    ck_assert_int_eq(v.mac_len, 6);
    ck_assert_uint_eq(v.n_samples, 255);
    ck_assert_int_eq(v.samples[254], 254);
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(9, 0, 0, 0), &v, &msg),
                     AVROGEN_E_LIMIT);
    ck_assert_str_eq(msg, "nic_queues.queues: more than 8 items");
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(0, 33, 0, 0), &v, &msg),
                     AVROGEN_E_LIMIT);
    ck_assert_str_eq(msg, "nic_queues.driver: more than 32 bytes");
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(0, 0, 7, 0), &v, &msg),
                     AVROGEN_E_LIMIT);
    ck_assert_str_eq(msg, "nic_queues.mac: more than 6 bytes");
    /* 256 samples fit the capacity (300) but not the uint8_t count. */
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(0, 0, 0, 256), &v, &msg),
                     AVROGEN_E_INVALID);
    ck_assert_int_eq(decode_json(&nic_queues_avro_type, queues_json(0, 0, 0, 301), &v, &msg),
                     AVROGEN_E_LIMIT);
    ck_assert_str_eq(msg, "nic_queues.samples: more than 300 items");
}
END_TEST

/* Items in several blocks (spec §Arrays): the capacity counts them all. */
START_TEST(test_cap_decode_blocks)
{
    /* driver "", queues: a block of 5, a block of 4 (one too many), ... */
    uint8_t bytes[128];
    size_t n = 0;
    bytes[n++] = 0x00;  /* driver: "" */
    bytes[n++] = 2 * 5; /* a block of 5 queues */
    for (int i = 0; i < 5; i++) {
        bytes[n++] = 0x02; /* packets 1 */
        bytes[n++] = 0x04; /* bytes 2 */
    }
    bytes[n++] = 2 * 3; /* 3 more: 8 in all */
    for (int i = 0; i < 3; i++) {
        bytes[n++] = 0x02;
        bytes[n++] = 0x04;
    }
    size_t second = n - 7; /* where the second block's count is */
    bytes[n++] = 0x00;     /* end of queues */
    bytes[n++] = 0x00;     /* labels [] */
    bytes[n++] = 0x00;     /* names [] */
    bytes[n++] = 0x00;     /* mac "" */
    bytes[n++] = 0x00;     /* samples [] */
    bytes[n++] = 0x00;     /* pairs [] */
    struct nic_queues v;
    avrogen_reader r;
    avrogen_reader_init(&r, bytes, n);
    ck_assert_int_eq(nic_queues_avro_decode(&r, &v, &arena), AVROGEN_OK);
    ck_assert_uint_eq(v.num_queues, 8);
    bytes[second] = 2 * 4; /* 9 in all: refused before the 9th is stored */
    avrogen_reader_init(&r, bytes, n);
    ck_assert_int_eq(nic_queues_avro_decode(&r, &v, &arena), AVROGEN_E_LIMIT);
    ck_assert_str_eq(r.err_msg, "nic_queues.queues: more than 8 items");
    ck_assert_uint_eq(r.err_offset, second + 1);
    ck_assert(cg_all_zero(&v, sizeof v));
}
END_TEST

static avrogen_status mqtt_encode_any(avrogen_writer *w, const void *v)
{
    return mqtt_msg_avro_encode(w, (const struct mqtt_msg *)v);
}

/* A negative length, or a length without its data, is refused; a NUL inside
 * the text is text (the length says where it ends). */
START_TEST(test_ptr_len)
{
    struct mqtt_msg v, back;
    const char *msg;
    memset(&v, 0, sizeof v);
    ck_assert_int_eq(encode(mqtt_encode_any, &v, &msg), AVROGEN_OK);
    v.payloadlen = -1;
    ck_assert_int_eq(encode(mqtt_encode_any, &v, &msg), AVROGEN_E_ARG);
    v.payloadlen = 1; /* NULL payload with a length */
    ck_assert_int_eq(encode(mqtt_encode_any, &v, &msg), AVROGEN_E_ARG);
    memset(&v, 0, sizeof v);
    v.topic_len = 3; /* NULL topic with a length */
    ck_assert_int_eq(encode(mqtt_encode_any, &v, &msg), AVROGEN_E_ARG);
    v.topic = (char *)"a\0b";
    v.client_id = "";
    v.client_id_len = 0; /* not null: an empty string */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(mqtt_msg_avro_encode(&w, &v), AVROGEN_OK);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(mqtt_msg_avro_decode(&r, &back, &arena), AVROGEN_OK);
    ck_assert_uint_eq(back.topic_len, 3);
    ck_assert_mem_eq(back.topic, "a\0b", 3);
    ck_assert_ptr_nonnull(back.client_id);
    ck_assert_uint_eq(back.client_id_len, 0);
    ck_assert_ptr_null(back.props);
    avrogen_writer_fini(&w);
}
END_TEST

static avrogen_status utmp_encode_any(avrogen_writer *w, const void *v)
{
    return utmp_entry_avro_encode(w, (const struct utmp_entry *)v);
}

static char *utmp_json(const char *id)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"ut_type\": 0, \"ut_pid\": 0, \"ut_line\": \"\", \"ut_id\": \"%s\", "
             "\"ut_user\": \"\", \"ut_host\": \"\", \"ut_session\": 0, \"ut_tv\": 0, "
             "\"ut_addr_v6\": [0, 0, 0, 0]}",
             id);
    return buf;
}

/* All N bytes may be text; decode pads with NUL and refuses N + 1 bytes. */
START_TEST(test_padded)
{
    struct utmp_entry v;
    const char *msg;
    memset(&v, 0, sizeof v);
    memcpy(v.ut_id, "abcd", 4);
    memcpy(v.ut_host, "x", 1);
    ck_assert_int_eq(encode(utmp_encode_any, &v, &msg), AVROGEN_OK);
    memset(&v, 0x55, sizeof v);
    ck_assert_int_eq(decode_json(&utmp_entry_avro_type, utmp_json("abcd"), &v, &msg), AVROGEN_OK);
    ck_assert_mem_eq(v.ut_id, "abcd", 4);
    ck_assert_int_eq(decode_json(&utmp_entry_avro_type, utmp_json("ab"), &v, &msg), AVROGEN_OK);
    ck_assert_mem_eq(v.ut_id, "ab\0\0", 4);
    ck_assert_int_eq(decode_json(&utmp_entry_avro_type, utmp_json("abcde"), &v, &msg),
                     AVROGEN_E_INVALID);
    ck_assert_str_eq(msg, "utmp_entry.ut_id: more than 4 bytes");
    /* A NUL could not be told from the padding. */
    ck_assert_int_eq(decode_json(&utmp_entry_avro_type, utmp_json("a\\u0000b"), &v, &msg),
                     AVROGEN_E_INVALID);
}
END_TEST

/* ---- tagged unions with tag values (AVRO_TAG) ------------------------------------ */

static avrogen_status mp_encode_any(avrogen_writer *w, const void *v)
{
    return mp_object_avro_encode(w, (const struct mp_object *)v);
}

/* Several values select one member: each encodes as its branch; decode
 * stores the first listed. (The known answers leave out a long in this union:
 * python3-avro 1.11.1 re-encodes a Python int as its double branch, which the
 * spec allows a writer, so its bytes could not be compared.) A value no member lists is refused,
 * naming the member; the ones on either side of a listed value are refused too. */
START_TEST(test_tag_values)
{
    struct mp_object v, back;
    const char *msg;
    memset(&v, 0, sizeof v);
    v.via.f64 = 0.5;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    v.type = MP_FLOAT32;
    ck_assert_int_eq(mp_object_avro_encode(&w, &v), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w), 9);
    ck_assert_uint_eq(avrogen_writer_data(&w)[0], 3 << 1); /* branch 3, f64 */
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    memset(&back, 0x55, sizeof back);
    ck_assert_int_eq(mp_object_avro_decode(&r, &back, &arena), AVROGEN_OK);
    ck_assert_int_eq(back.type, MP_FLOAT64);
    ck_assert(back.via.f64 == 0.5);
    avrogen_writer_fini(&w);

    /* Branch by branch, generated decoder and type plan: the first value. */
    memset(&back, 0x55, sizeof back);
    ck_assert_int_eq(decode_json(&mp_object_avro_type, "{\"via\": {\"long\": 7}}", &back, &msg),
                     AVROGEN_OK);
    ck_assert_int_eq(back.type, MP_POSITIVE_INTEGER);
    ck_assert_int_eq(decode_json(&mp_object_avro_type, "{\"via\": null}", &back, &msg), AVROGEN_OK);
    ck_assert_int_eq(back.type, MP_NIL);
    ck_assert_int_eq(
            decode_json(&mp_object_avro_type, "{\"via\": {\"string\": \"x\"}}", &back, &msg),
            AVROGEN_OK);
    ck_assert_int_eq(back.type, MP_STR);

    static const int unlisted[] = {0x06, 0x07, 0x09, 0x0b, -1};
    for (size_t i = 0; i < sizeof unlisted / sizeof *unlisted; i++) {
        v.type = (mp_type)unlisted[i];
        ck_assert_int_eq(encode(mp_encode_any, &v, &msg), AVROGEN_E_ARG);
        char want_msg[96];
        /* mp_type is unsigned: -1 is stored as UINT_MAX. */
        snprintf(want_msg, sizeof want_msg, "mp_object.via: tag %u selects no branch of the union",
                 (unsigned)unlisted[i]);
        ck_assert_str_eq(msg, want_msg);
    }
    static const int listed[] = {MP_NIL,     MP_BOOLEAN, MP_POSITIVE_INTEGER, MP_NEGATIVE_INTEGER,
                                 MP_FLOAT64, MP_STR,     MP_FLOAT32};
    for (size_t i = 0; i < sizeof listed / sizeof *listed; i++) {
        memset(&v, 0, sizeof v);
        v.type = (mp_type)listed[i];
        if (v.type == MP_STR)
            v.via.str = (char *)"";
        ck_assert_int_eq(encode(mp_encode_any, &v, &msg), AVROGEN_OK);
    }
}
END_TEST

/* The encoder's own message carries the tag value and the C member, for when
 * avrogen_writer_explain cannot place it (here: it is shown a struct whose tag is
 * fine, so its walk finds nothing); explain turns it into the path when it can. */
START_TEST(test_tag_value_messages)
{
    struct mp_object v;
    memset(&v, 0, sizeof v);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(avrogen_writer_fail_tag(&w, "struct mp_object.via", 6, false), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "struct mp_object.via: tag value 6 selects no union member");
    avrogen_writer_explain(&w, &mp_object_avro_type, &v);
    ck_assert_str_eq(w.err_msg, "struct mp_object.via: tag value 6 selects no union member");
    v.type = (mp_type)6;
    avrogen_writer_explain(&w, &mp_object_avro_type, &v);
    ck_assert_str_eq(w.err_msg, "mp_object.via: tag 6 selects no branch of the union");
    /* Sticky: a later failure keeps the first message. */
    ck_assert_int_eq(avrogen_writer_fail_tag(&w, "struct mp_object.via", 7, false), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "mp_object.via: tag 6 selects no branch of the union");
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_writer_fail_tag(&w, "struct t.u", -5, false), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "struct t.u: tag value -5 selects no union member");
    avrogen_writer_reset(&w);
    ck_assert_int_eq(avrogen_writer_fail_tag(&w, "struct t.u", (int64_t)UINT64_MAX, true),
                     AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg,
                     "struct t.u: tag value 18446744073709551615 selects no union member");

    /* A uint64_t tag, listed values at INT64_MAX; above it the value is printed unsigned,
     * from the generated encoder (whose message explain keeps: same member) and the walk. */
    struct wide_tag t = {1, {.small = 3}};
    avrogen_writer_reset(&w);
    ck_assert_int_eq(wide_tag_avro_encode(&w, &t), AVROGEN_OK);
    t.code = 0x7fffffffffffffff;
    t.u.large = (char *)"x";
    avrogen_writer_reset(&w);
    ck_assert_int_eq(wide_tag_avro_encode(&w, &t), AVROGEN_OK);
    static const uint64_t unlisted[] = {0, 2, 0x7ffffffffffffffe, 0x8000000000000000, UINT64_MAX};
    for (size_t i = 0; i < sizeof unlisted / sizeof *unlisted; i++) {
        t.code = unlisted[i];
        avrogen_writer_reset(&w);
        ck_assert_int_eq(wide_tag_avro_encode(&w, &t), AVROGEN_E_ARG);
        char want[96];
        snprintf(want, sizeof want, "wide_tag.u: tag %" PRIu64 " selects no branch of the union",
                 unlisted[i]);
        ck_assert_str_eq(w.err_msg, want);
    }
    avrogen_writer_fini(&w);
}
END_TEST

/* A vendor header's unions annotated out of line (cg_vendor.h): a second tag
 * value selects the same branch and decodes as the first; an unlisted one
 * (the branch's position) is refused, naming the member. */
START_TEST(test_vendor_tags)
{
    struct vendor_reading a = {VENDOR_VALUE_INT, {.i = 1}, 's', {.name = "x"}};
    struct vendor_reading b = a;
    b.id_kind = 'S';
    avrogen_writer wa, wb;
    avrogen_writer_init_growable(&wa, NULL);
    avrogen_writer_init_growable(&wb, NULL);
    ck_assert_int_eq(vendor_reading_avro_encode(&wa, &a), AVROGEN_OK);
    ck_assert_int_eq(vendor_reading_avro_encode(&wb, &b), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&wa), avrogen_writer_len(&wb));
    ck_assert_mem_eq(avrogen_writer_data(&wa), avrogen_writer_data(&wb), avrogen_writer_len(&wa));
    struct vendor_reading back;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&wb), avrogen_writer_len(&wb));
    ck_assert_int_eq(vendor_reading_avro_decode(&r, &back, &arena), AVROGEN_OK);
    ck_assert_int_eq(back.id_kind, 's');
    ck_assert_str_eq(back.id.name, "x");

    struct vendor_event e;
    memset(&e, 0, sizeof e); /* kind 0: the key's position, no listed value */
    e.u.key = 1;
    avrogen_writer_reset(&wa);
    ck_assert_int_eq(vendor_event_avro_encode(&wa, &e), AVROGEN_E_ARG);
    ck_assert_str_eq(wa.err_msg, "Event.u: tag 0 selects no branch of the union");
    avrogen_writer_fini(&wa);
    avrogen_writer_fini(&wb);
}
END_TEST

/* ---- bit-fields ------------------------------------------------------------------ */

static char *packed_json(const char *member, const char *value)
{
    static char buf[512];
    static const char *const names[] = {"doff",  "fin",  "syn",   "window", "valid",
                                        "delta", "full", "ticks", "level"};
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "{");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = strcmp(names[i], member) == 0    ? value
                        : strcmp(names[i], "valid") == 0 ? "false"
                                                         : "0";
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s\"%s\": %s", i ? ", " : "", names[i], v);
    }
    snprintf(buf + n, sizeof buf - n, "}");
    return buf;
}

/* Each width at both ends and one past them, in the generated decoder and the
 * type plan (decode_json checks both), the message naming the member. */
START_TEST(test_bitfield_boundary)
{
    static const struct {
        const char *member, *lo, *hi, *below, *above;
    } cases[] = {
            {"doff", "0", "15", "-1", "16"},
            {"fin", "0", "1", "-1", "2"},
            {"window", "0", "255", "-1", "256"},
            {"delta", "-16", "15", "-17", "16"},
            {"full", "0", "4294967295", "-1", "4294967296"},
            {"ticks", "-140737488355328", "140737488355327", "-140737488355329", "140737488355328"},
            {"level", "-524288", "524287", "-524289", "524288"},
    };
    struct packed_status v;
    const char *msg;
    char want[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *m = cases[i].member;
        ck_assert_int_eq(
                decode_json(&packed_status_avro_type, packed_json(m, cases[i].lo), &v, &msg),
                AVROGEN_OK);
        ck_assert_int_eq(
                decode_json(&packed_status_avro_type, packed_json(m, cases[i].hi), &v, &msg),
                AVROGEN_OK);
        snprintf(want, sizeof want, "packed_status.%s: outside the ", m);
        const char *past[] = {cases[i].below, cases[i].above};
        for (size_t k = 0; k < 2; k++) {
            ck_assert_int_eq(
                    decode_json(&packed_status_avro_type, packed_json(m, past[k]), &v, &msg),
                    AVROGEN_E_INVALID);
            ck_assert_msg(msg != NULL && strncmp(msg, want, strlen(want)) == 0, "%s: %s", m,
                          msg ? msg : "(none)");
        }
    }
    ck_assert_int_eq(decode_json(&packed_status_avro_type, packed_json("delta", "-16"), &v, &msg),
                     AVROGEN_OK);
    ck_assert_int_eq(v.delta, -16);
    ck_assert_int_eq(decode_json(&packed_status_avro_type, packed_json("ticks", "-140737488355328"),
                                 &v, &msg),
                     AVROGEN_OK);
    ck_assert_int_eq(v.ticks, -140737488355328);
    ck_assert_int_eq(
            decode_json(&packed_status_avro_type, packed_json("full", "4294967295"), &v, &msg),
            AVROGEN_OK);
    ck_assert_uint_eq(v.full, 4294967295u);
}
END_TEST

/* ---- system structs as the C library fills them (cg_sysdefault.h) ----------------- */

/* The bytes of v encoded by the generated encoder, decoded into out by the
 * generated decoder and by the type plan of the record's own schema (out2). */
static void system_round_trip(const avrogen_type *t,
                              avrogen_status (*enc)(avrogen_writer *, const void *), const void *v,
                              void *out, void *out2)
{
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(enc(&w, v), AVROGEN_OK);
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(t->decode(&r, out, &arena), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_reader_offset(&r), avrogen_writer_len(&w));
    avrogen_schema *s = NULL;
    avrogen_diag d;
    const char *text = avrogen_type_schema(t);
    ck_assert_int_eq(avrogen_schema_parse(text, strlen(text), NULL, &s, &d), AVROGEN_OK);
    avrogen_type_plan *plan = NULL;
    ck_assert_int_eq(avrogen_type_plan_new(avrogen_schema_root(s), t, NULL, &plan, &d), AVROGEN_OK);
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    ck_assert_int_eq(avrogen_type_plan_decode(plan, &r, out2, &arena), AVROGEN_OK);
    avrogen_type_plan_free(plan);
    avrogen_schema_free(s);
    avrogen_writer_fini(&w);
}

static avrogen_status rusage_encode_any(avrogen_writer *w, const void *v)
{
    return rusage_avro_encode(w, (const struct rusage *)v);
}

static avrogen_status stat_encode_any(avrogen_writer *w, const void *v)
{
    return stat_avro_encode(w, (const struct stat *)v);
}

/* getrusage()'s struct, every byte of it (two timevals, fourteen longs: the
 * anonymous unions' views skipped share the longs' bytes). */
START_TEST(test_rusage_live)
{
    struct rusage v, back, via_plan;
    ck_assert_int_eq(getrusage(RUSAGE_SELF, &v), 0);
    ck_assert_uint_eq(sizeof v, 2 * sizeof(struct timeval) + 14 * sizeof(long));
    system_round_trip(&rusage_avro_type, rusage_encode_any, &v, &back, &via_plan);
    ck_assert_mem_eq(&back, &v, sizeof v);
    ck_assert_mem_eq(&via_plan, &v, sizeof v);
}
END_TEST

static avrogen_status epoll_encode_any(avrogen_writer *w, const void *v)
{
    return epoll_event_avro_encode(w, (const struct epoll_event *)v);
}

/* The struct epoll_event the kernel fills for a ready eventfd: its data is
 * the u64 registered, read and written where C has it (the struct is packed:
 * data.u64 is at offset 4), every byte back. */
START_TEST(test_epoll_live)
{
    int ep = epoll_create1(0), ev = eventfd(1, 0);
    ck_assert_int_ge(ep, 0);
    ck_assert_int_ge(ev, 0);
    struct epoll_event reg = {.events = EPOLLIN, .data.u64 = UINT64_C(0x0123456789abcdef)};
    ck_assert_int_eq(epoll_ctl(ep, EPOLL_CTL_ADD, ev, &reg), 0);
    struct epoll_event v, back, via_plan;
    ck_assert_int_eq(epoll_wait(ep, &v, 1, 1000), 1);
    ck_assert_uint_eq(v.data.u64, UINT64_C(0x0123456789abcdef));
    system_round_trip(&epoll_event_avro_type, epoll_encode_any, &v, &back, &via_plan);
    ck_assert_mem_eq(&back, &v, sizeof v);
    ck_assert_mem_eq(&via_plan, &v, sizeof v);
    close(ev);
    close(ep);
}
END_TEST

static avrogen_status sockaddr_in6_encode_any(avrogen_writer *w, const void *v)
{
    return sockaddr_in6_avro_encode(w, (const struct sockaddr_in6 *)v);
}

/* A struct sockaddr_in6 as inet_pton fills its address: sin6_addr is the 16
 * bytes as stored, every byte of the struct back. */
START_TEST(test_sockaddr_in6_live)
{
    struct sockaddr_in6 v, back, via_plan;
    memset(&v, 0, sizeof v);
    v.sin6_family = AF_INET6;
    v.sin6_port = htons(8443);
    v.sin6_flowinfo = htonl(0x000abcde);
    v.sin6_scope_id = 2;
    ck_assert_int_eq(inet_pton(AF_INET6, "fe80::1ff:fe23:4567:890a", &v.sin6_addr), 1);
    system_round_trip(&sockaddr_in6_avro_type, sockaddr_in6_encode_any, &v, &back, &via_plan);
    ck_assert_mem_eq(&back, &v, sizeof v);
    ck_assert_mem_eq(&via_plan, &v, sizeof v);
    /* The fixed is the address's bytes in network order, on the wire as stored. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(sockaddr_in6_avro_encode(&w, &v), AVROGEN_OK);
    ck_assert_uint_ge(avrogen_writer_len(&w), 16);
    const uint8_t *tail = avrogen_writer_data(&w) + avrogen_writer_len(&w) - 17; /* scope: 1 */
    ck_assert_mem_eq(tail, v.sin6_addr.s6_addr, 16);
    avrogen_writer_fini(&w);
}
END_TEST

static avrogen_status inotify_encode_any(avrogen_writer *w, const void *v)
{
    return inotify_event_avro_encode(w, (const struct inotify_event *)v);
}

/* The struct inotify_event the kernel writes for a file created in a watched
 * directory: its name is a flexible char array of len bytes, the text and NUL
 * padding. The datum holds the text alone; decode writes it into the room
 * after the struct (inotify_event_avro_type.size counts NAME_MAX + 1 bytes of
 * it), NUL-terminated, len its length; every other byte as read. */
START_TEST(test_inotify_live)
{
    char dir[] = "/tmp/avrogen-inotify-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_ge(inotify_add_watch(fd, dir, IN_CREATE), 0);
    snprintf(path, sizeof path, "%s/report-0001.txt", dir);
    int f = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ck_assert_int_ge(f, 0);
    close(f);
    union {
        struct inotify_event e;
        char room[sizeof(struct inotify_event) + NAME_MAX + 1];
    } got;
    ssize_t n = read(fd, &got, sizeof got);
    ck_assert_int_ge(n, (ssize_t)sizeof got.e);
    const struct inotify_event *v = &got.e;
    ck_assert_str_eq(v->name, "report-0001.txt");
    ck_assert_uint_gt(v->len, strlen(v->name)); /* NUL-padded: 16 */
    ck_assert_uint_eq(inotify_event_avro_type.size, sizeof *v + NAME_MAX + 1);

    struct inotify_event *back = calloc(1, inotify_event_avro_type.size);
    struct inotify_event *via_plan = calloc(1, inotify_event_avro_type.size);
    system_round_trip(&inotify_event_avro_type, inotify_encode_any, v, back, via_plan);
    for (int i = 0; i < 2; i++) {
        const struct inotify_event *b = i == 0 ? back : via_plan;
        ck_assert_int_eq(b->wd, v->wd);
        ck_assert_uint_eq(b->mask, v->mask);
        ck_assert_uint_eq(b->cookie, v->cookie);
        ck_assert_uint_eq(b->len, strlen("report-0001.txt"));
        ck_assert_str_eq(b->name, "report-0001.txt");
    }
    /* The datum ends in the string: its length 15 (zigzag 30) and the text. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(inotify_event_avro_encode(&w, v), AVROGEN_OK);
    size_t len = avrogen_writer_len(&w);
    ck_assert_uint_eq(len, inotify_event_avro_size(v));
    const uint8_t *data = avrogen_writer_data(&w);
    ck_assert_uint_eq(data[len - 16], 30);
    ck_assert_mem_eq(data + len - 15, "report-0001.txt", 15);
    /* What decode wrote encodes the same. */
    avrogen_writer w2;
    avrogen_writer_init_growable(&w2, NULL);
    ck_assert_int_eq(inotify_event_avro_encode(&w2, back), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_len(&w2), len);
    ck_assert_mem_eq(avrogen_writer_data(&w2), data, len);
    avrogen_writer_fini(&w2);
    avrogen_writer_fini(&w);
    free(via_plan);
    free(back);
    close(fd);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The room after an inotify_event holds NAME_MAX + 1 bytes: a name of 256 is
 * the most decode writes (no NUL then), 257 a limit error naming the member;
 * encode refuses a len past the room. */
START_TEST(test_inotify_limits)
{
    char name[300], json[400];
    const char *msg;
    struct inotify_event *v = calloc(1, inotify_event_avro_type.size);
    memset(name, 'n', sizeof name);
    snprintf(json, sizeof json, "{\"wd\": 1, \"mask\": 2, \"cookie\": 0, \"name\": \"%.*s\"}",
             NAME_MAX + 1, name);
    ck_assert_int_eq(decode_json(&inotify_event_avro_type, json, v, &msg), AVROGEN_OK);
    ck_assert_uint_eq(v->len, NAME_MAX + 1);
    ck_assert_mem_eq(v->name, name, NAME_MAX + 1);
    snprintf(json, sizeof json, "{\"wd\": 1, \"mask\": 2, \"cookie\": 0, \"name\": \"%.*s\"}",
             NAME_MAX + 2, name);
    ck_assert_int_eq(decode_json(&inotify_event_avro_type, json, v, &msg), AVROGEN_E_LIMIT);
    ck_assert_str_eq(msg, "InotifyEvent.name: more than 256 bytes");
    ck_assert_uint_eq(v->len, 0);

    /* A name of NUL bytes only is the empty string; one past the room is refused. */
    memset(v, 0, inotify_event_avro_type.size);
    v->len = 8;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(inotify_event_avro_encode(&w, v), AVROGEN_OK);
    ck_assert_uint_eq(avrogen_writer_data(&w)[avrogen_writer_len(&w) - 1], 0); /* "" */
    avrogen_writer_fini(&w);
    v->len = NAME_MAX + 2;
    avrogen_writer_init_growable(&w, NULL);
    ck_assert_int_eq(inotify_event_avro_encode(&w, v), AVROGEN_E_ARG);
    ck_assert_str_eq(w.err_msg, "struct inotify_event.name: count outside 0..256");
    avrogen_writer_fini(&w);
    free(v);
}
END_TEST

static avrogen_status addrinfo_encode_any(avrogen_writer *w, const void *v)
{
    return addrinfo_avro_encode(w, (const struct addrinfo *)v);
}

/* getaddrinfo's answer for [::1]:443: ai_addr is a struct sockaddr * with a
 * 28-byte sockaddr_in6 behind it; AVRO_BYTES(ai_addrlen) writes those bytes as
 * stored and decode copies them into the arena, every byte back. */
START_TEST(test_addrinfo_live)
{
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
                             .ai_family = AF_INET6,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    ck_assert_int_eq(getaddrinfo("::1", "443", &hints, &res), 0);
    ck_assert_uint_eq(res->ai_addrlen, sizeof(struct sockaddr_in6));
    ck_assert_uint_eq(res->ai_addrlen, 28);
    struct addrinfo back, via_plan;
    memset(&back, 0, sizeof back);
    memset(&via_plan, 0, sizeof via_plan);
    system_round_trip(&addrinfo_avro_type, addrinfo_encode_any, res, &back, &via_plan);
    for (int i = 0; i < 2; i++) {
        const struct addrinfo *b = i == 0 ? &back : &via_plan;
        ck_assert_int_eq(b->ai_family, AF_INET6);
        ck_assert_uint_eq(b->ai_addrlen, 28);
        ck_assert_ptr_nonnull(b->ai_addr);
        ck_assert_ptr_ne(b->ai_addr, res->ai_addr);
        ck_assert_mem_eq(b->ai_addr, res->ai_addr, 28);
        const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)(const void *)b->ai_addr;
        ck_assert_uint_eq(ntohs(a6->sin6_port), 443);
        ck_assert(IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr));
        ck_assert_int_eq(b->ai_next != NULL, res->ai_next != NULL);
    }
    /* On the wire: the length 28 (zigzag 56) and the bytes as stored. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    struct addrinfo one = *res;
    one.ai_canonname = NULL;
    one.ai_next = NULL;
    ck_assert_int_eq(addrinfo_avro_encode(&w, &one), AVROGEN_OK);
    const uint8_t *data = avrogen_writer_data(&w);
    size_t len = avrogen_writer_len(&w);
    ck_assert_uint_ge(len, 31);
    ck_assert_uint_eq(data[len - 31], 56);
    ck_assert_mem_eq(data + len - 30, res->ai_addr, 28);
    avrogen_writer_fini(&w);
    freeaddrinfo(res);
}
END_TEST

/* stat()'s struct of this test's own executable, as plain cc lays it out. */
START_TEST(test_stat_live)
{
    struct stat v, back, via_plan;
    ck_assert_int_eq(stat("/proc/self/exe", &v), 0);
    system_round_trip(&stat_avro_type, stat_encode_any, &v, &back, &via_plan);
    const struct stat *got[] = {&back, &via_plan};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_eq(got[i]->st_dev, v.st_dev);
        ck_assert_uint_eq(got[i]->st_ino, v.st_ino);
        ck_assert_uint_eq(got[i]->st_mode, v.st_mode);
        ck_assert_uint_eq(got[i]->st_nlink, v.st_nlink);
        ck_assert_int_eq(got[i]->st_size, v.st_size);
        ck_assert_int_eq(got[i]->st_mtim.tv_sec, v.st_mtim.tv_sec);
        ck_assert_int_eq(got[i]->st_mtim.tv_nsec, v.st_mtim.tv_nsec);
        ck_assert_int_eq(got[i]->st_ctim.tv_nsec, v.st_ctim.tv_nsec);
    }
}
END_TEST

/* ---- the structs programs log (cg_logged.h) ---------------------------------- */

static avrogen_status tcp_info_encode_any(avrogen_writer *w, const void *v)
{
    return tcp_info_avro_encode(w, (const struct tcp_info *)v);
}

/* getsockopt(TCP_INFO) of a connection on loopback that has sent 1000 bytes:
 * every byte of the kernel's struct back, its bit-fields and its
 * tcpi_max_pacing_rate, ~0 ("unlimited", above the largest long) as the
 * kernel reports it for a socket with no SO_MAX_PACING_RATE. */
START_TEST(test_tcp_info_live)
{
    int srv = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(srv, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof addr;
    ck_assert_int_eq(bind(srv, (struct sockaddr *)&addr, sizeof addr), 0);
    ck_assert_int_eq(listen(srv, 1), 0);
    ck_assert_int_eq(getsockname(srv, (struct sockaddr *)&addr, &alen), 0);
    int cli = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(cli, 0);
    ck_assert_int_eq(connect(cli, (struct sockaddr *)&addr, sizeof addr), 0);
    int acc = accept(srv, NULL, NULL);
    ck_assert_int_ge(acc, 0);
    char data[1000];
    memset(data, 'x', sizeof data);
    ck_assert_int_eq(send(cli, data, sizeof data, 0), (ssize_t)sizeof data);
    ck_assert_int_eq(recv(acc, data, sizeof data, MSG_WAITALL), (ssize_t)sizeof data);

    struct tcp_info v, back, via_plan;
    memset(&v, 0, sizeof v);
    socklen_t len = sizeof v;
    ck_assert_int_eq(getsockopt(cli, IPPROTO_TCP, TCP_INFO, &v, &len), 0);
    ck_assert_uint_eq(len, sizeof v);
    ck_assert_uint_eq(v.tcpi_state, 1); /* TCP_ESTABLISHED */
    ck_assert_uint_eq(v.tcpi_max_pacing_rate, UINT64_MAX);
    ck_assert_uint_ge(v.tcpi_bytes_acked, sizeof data);
    memset(&back, 0, sizeof back);
    memset(&via_plan, 0, sizeof via_plan);
    system_round_trip(&tcp_info_avro_type, tcp_info_encode_any, &v, &back, &via_plan);
    ck_assert_mem_eq(&back, &v, sizeof v);
    ck_assert_mem_eq(&via_plan, &v, sizeof v);
    close(acc);
    close(cli);
    close(srv);
}
END_TEST

static avrogen_status tm_encode_any(avrogen_writer *w, const void *v)
{
    return tm_avro_encode(w, (const struct tm *)v);
}

static void tm_equal(const struct tm *a, const struct tm *b)
{
    ck_assert_int_eq(a->tm_sec, b->tm_sec);
    ck_assert_int_eq(a->tm_min, b->tm_min);
    ck_assert_int_eq(a->tm_hour, b->tm_hour);
    ck_assert_int_eq(a->tm_mday, b->tm_mday);
    ck_assert_int_eq(a->tm_mon, b->tm_mon);
    ck_assert_int_eq(a->tm_year, b->tm_year);
    ck_assert_int_eq(a->tm_wday, b->tm_wday);
    ck_assert_int_eq(a->tm_yday, b->tm_yday);
    ck_assert_int_eq(a->tm_isdst, b->tm_isdst);
    ck_assert_int_eq(a->tm_gmtoff, b->tm_gmtoff);
    ck_assert_str_eq(a->tm_zone, b->tm_zone);
}

/* gmtime_r's struct tm, tm_zone pointing into the C library ("GMT"): back
 * with tm_zone a copy in the arena. */
START_TEST(test_tm_live)
{
    time_t t = 1796601600; /* 2026-12-05 00:00:00 UTC */
    struct tm v, back, via_plan;
    ck_assert_ptr_nonnull(gmtime_r(&t, &v));
    ck_assert_ptr_nonnull(v.tm_zone);
    system_round_trip(&tm_avro_type, tm_encode_any, &v, &back, &via_plan);
    tm_equal(&back, &v);
    tm_equal(&via_plan, &v);
    ck_assert_ptr_ne(back.tm_zone, v.tm_zone);
}
END_TEST

static avrogen_status dirent_encode_any(avrogen_writer *w, const void *v)
{
    return dirent_avro_encode(w, (const struct dirent *)v);
}

/* The struct dirent readdir returns for a file named in UTF-8. */
START_TEST(test_dirent_live)
{
    char dir[] = "/tmp/avrogen-dirent-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/caf\xc3\xa9.txt", dir);
    int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    const struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, "caf\xc3\xa9.txt") != 0)
            continue;
        seen++;
        struct dirent back, via_plan;
        system_round_trip(&dirent_avro_type, dirent_encode_any, e, &back, &via_plan);
        const struct dirent *got[] = {&back, &via_plan};
        for (size_t i = 0; i < 2; i++) {
            ck_assert_uint_eq(got[i]->d_ino, e->d_ino);
            ck_assert_int_eq(got[i]->d_off, e->d_off);
            ck_assert_uint_eq(got[i]->d_reclen, e->d_reclen);
            ck_assert_uint_eq(got[i]->d_type, DT_REG);
            ck_assert_str_eq(got[i]->d_name, e->d_name);
        }
    }
    closedir(d);
    ck_assert_int_eq(seen, 1);
    unlink(path);
    rmdir(dir);
}
END_TEST

static avrogen_status sysinfo_encode_any(avrogen_writer *w, const void *v)
{
    return sysinfo_avro_encode(w, (const struct sysinfo *)v);
}

/* sysinfo()'s struct: every member back (the zero-length _f has no bytes;
 * the tail padding after mem_unit is not a member). */
START_TEST(test_sysinfo_live)
{
    struct sysinfo v, back, via_plan;
    ck_assert_int_eq(sysinfo(&v), 0);
    ck_assert_uint_gt(v.totalram, 0);
    system_round_trip(&sysinfo_avro_type, sysinfo_encode_any, &v, &back, &via_plan);
    const struct sysinfo *got[] = {&back, &via_plan};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(got[i]->uptime, v.uptime);
        ck_assert_mem_eq(got[i]->loads, v.loads, sizeof v.loads);
        ck_assert_uint_eq(got[i]->totalram, v.totalram);
        ck_assert_uint_eq(got[i]->freeram, v.freeram);
        ck_assert_uint_eq(got[i]->sharedram, v.sharedram);
        ck_assert_uint_eq(got[i]->bufferram, v.bufferram);
        ck_assert_uint_eq(got[i]->totalswap, v.totalswap);
        ck_assert_uint_eq(got[i]->freeswap, v.freeswap);
        ck_assert_uint_eq(got[i]->procs, v.procs);
        ck_assert_uint_eq(got[i]->pad, v.pad);
        ck_assert_uint_eq(got[i]->totalhigh, v.totalhigh);
        ck_assert_uint_eq(got[i]->freehigh, v.freehigh);
        ck_assert_uint_eq(got[i]->mem_unit, v.mem_unit);
    }
}
END_TEST

static avrogen_status z_stream_encode_any(avrogen_writer *w, const void *v)
{
    return z_stream_s_avro_encode(w, (const z_stream *)v);
}

static void z_stream_equal(const z_stream *a, const z_stream *b)
{
    ck_assert_uint_eq(a->avail_in, b->avail_in);
    ck_assert_uint_eq(a->total_in, b->total_in);
    ck_assert_uint_eq(a->avail_out, b->avail_out);
    ck_assert_uint_eq(a->total_out, b->total_out);
    ck_assert_int_eq(a->data_type, b->data_type);
    ck_assert_uint_eq(a->adler, b->adler);
    ck_assert_uint_eq(a->reserved, b->reserved);
    if (b->msg == NULL)
        ck_assert_ptr_null(a->msg);
    else
        ck_assert_str_eq(a->msg, b->msg);
}

/* zlib's z_stream after a real deflate (counters, Adler-32, msg NULL) and
 * after inflate refused a stored block whose lengths disagree (msg set). */
START_TEST(test_z_stream_live)
{
    static const char text[] = "the structs people actually log, as zlib leaves them";
    unsigned char out[256];
    z_stream v, back, via_plan;
    memset(&v, 0, sizeof v);
    ck_assert_int_eq(deflateInit(&v, Z_BEST_COMPRESSION), Z_OK);
    v.next_in = (Bytef *)(uintptr_t)text;
    v.avail_in = (uInt)sizeof text;
    v.next_out = out;
    v.avail_out = (uInt)sizeof out;
    ck_assert_int_eq(deflate(&v, Z_FINISH), Z_STREAM_END);
    ck_assert_uint_eq(v.total_in, sizeof text);
    ck_assert_uint_eq(v.adler, adler32(adler32(0, NULL, 0), (const Bytef *)text, sizeof text));
    system_round_trip(&z_stream_s_avro_type, z_stream_encode_any, &v, &back, &via_plan);
    z_stream_equal(&back, &v);
    z_stream_equal(&via_plan, &v);
    ck_assert_int_eq(deflateEnd(&v), Z_OK);

    static const unsigned char bad[] = {0x00, 0x05, 0x00, 0x05, 0x00}; /* LEN 5, NLEN 5 */
    memset(&v, 0, sizeof v);
    ck_assert_int_eq(inflateInit2(&v, -15), Z_OK);
    v.next_in = (Bytef *)(uintptr_t)bad;
    v.avail_in = sizeof bad;
    v.next_out = out;
    v.avail_out = (uInt)sizeof out;
    ck_assert_int_eq(inflate(&v, Z_NO_FLUSH), Z_DATA_ERROR);
    ck_assert_ptr_nonnull(v.msg);
    system_round_trip(&z_stream_s_avro_type, z_stream_encode_any, &v, &back, &via_plan);
    z_stream_equal(&back, &v);
    z_stream_equal(&via_plan, &v);
    ck_assert_str_eq(back.msg, "invalid stored block lengths");
    ck_assert_int_eq(inflateEnd(&v), Z_OK);
}
END_TEST

/* The record branches through pointers (Lisp) decode alike with the generated
 * decoder and the type plan (decode_json compares them), to the struct the
 * known answer filled; every proper prefix of the datum fails the generated
 * decoder with E_TRUNCATED. */
START_TEST(test_lisp_type_plan)
{
    size_t seen = 0;
    for (size_t i = 0; i < n_shape_answers; i++) {
        const shape_answer *k = &shape_answers[i];
        if (strncmp(k->label, "lisp", 4) != 0)
            continue;
        seen++;
        const avrogen_type *t = k->c.type;
        void *want = calloc(1, t->size), *got = calloc(1, t->size);
        ck_assert(want != NULL && got != NULL);
        k->fill(want);
        const char *msg, *where;
        ck_assert_int_eq(decode_json(t, k->json, got, &msg), AVROGEN_OK);
        ck_assert_msg(cg_equal(t, want, got, &where), "%s: differs at %s", k->label, where);
        /* Every proper prefix of the datum: both decoders fail, never crash. */
        avrogen_writer w;
        char why[256];
        ck_assert_int_eq(cg_encode_json(t, k->json, &w, why, sizeof why), AVROGEN_OK);
        for (size_t n = 0; n < avrogen_writer_len(&w); n++) {
            uint8_t *cut = malloc(n != 0 ? n : 1);
            ck_assert_ptr_nonnull(cut);
            memcpy(cut, avrogen_writer_data(&w), n);
            avrogen_reader r;
            avrogen_reader_init(&r, cut, n);
            memset(got, 0, t->size);
            ck_assert_int_eq(t->decode(&r, got, &arena), AVROGEN_E_TRUNCATED);
            free(cut);
        }
        avrogen_writer_fini(&w);
        free(want);
        free(got);
    }
    ck_assert_uint_eq(seen, 3);
}
END_TEST

static Suite *shapes_suite(void)
{
    Suite *s = suite_create("shapes");
    TCase *tc = tcase_create("known");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_known, 0, (int)n_shape_answers);
    suite_add_tcase(s, tc);

    tc = tcase_create("integers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_u64_encode_boundary);
    tcase_add_test(tc, test_u64_decode_boundary);
    suite_add_tcase(s, tc);

    tc = tcase_create("instants");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_time_encode_boundary);
    tcase_add_test(tc, test_time_floor_and_normalise);
    tcase_add_test(tc, test_time_decode);
    suite_add_tcase(s, tc);

    tc = tcase_create("counted");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_cap_encode_boundary);
    tcase_add_test(tc, test_cap_decode_boundary);
    tcase_add_test(tc, test_cap_decode_blocks);
    tcase_add_test(tc, test_ptr_len);
    tcase_add_test(tc, test_padded);
    suite_add_tcase(s, tc);

    tc = tcase_create("tagged");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_tag_values);
    tcase_add_test(tc, test_tag_value_messages);
    tcase_add_test(tc, test_vendor_tags);
    tcase_add_test(tc, test_lisp_type_plan);
    suite_add_tcase(s, tc);

    tc = tcase_create("system structs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_rusage_live);
    tcase_add_test(tc, test_stat_live);
    tcase_add_test(tc, test_epoll_live);
    tcase_add_test(tc, test_inotify_live);
    tcase_add_test(tc, test_inotify_limits);
    tcase_add_test(tc, test_addrinfo_live);
    tcase_add_test(tc, test_sockaddr_in6_live);
    tcase_add_test(tc, test_tcp_info_live);
    tcase_add_test(tc, test_tm_live);
    tcase_add_test(tc, test_dirent_live);
    tcase_add_test(tc, test_sysinfo_live);
    tcase_add_test(tc, test_z_stream_live);
    suite_add_tcase(s, tc);

    tc = tcase_create("bit-fields");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_bitfield_boundary);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shapes_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
