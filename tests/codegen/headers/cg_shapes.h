/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codegen test types shaped like the structs of well-known C code (issue 11),
 * written here from their documented layouts: annotated as they are, with no
 * member changed for avrogen's sake.
 */
#ifndef CG_SHAPES_H
#define CG_SHAPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

#include <avrogen/annotate.h>

/* A NetFlow v5 flow record: fixed-width integers and padding. */
struct AVRO_RECORD(namespace = "cg.shapes") nf5_record {
    uint32_t srcaddr;
    uint32_t dstaddr;
    uint32_t nexthop;
    uint16_t input;
    uint16_t output;
    uint32_t d_pkts;
    uint32_t d_octets;
    uint32_t first;
    uint32_t last;
    uint16_t srcport;
    uint16_t dstport;
    uint8_t pad1 AVRO_SKIP;
    uint8_t tcp_flags;
    uint8_t prot;
    uint8_t tos;
    uint16_t src_as;
    uint16_t dst_as;
    uint8_t src_mask;
    uint8_t dst_mask;
    uint16_t pad2 AVRO_SKIP;
};

/* NIC statistics counters (like rtnl_link_stats64 and ethtool's): unsigned
 * 64-bit counters and the standard and POSIX integer typedefs. */
struct AVRO_RECORD(namespace = "cg.shapes") nic_stats {
    char ifname[16];
    uint64_t rx_packets;
    uint64_t tx_packets;
    uint64_t rx_bytes;
    uint64_t tx_bytes;
    size_t rx_dropped;
    unsigned long tx_dropped;
    unsigned long long multicast;
    uintptr_t cookie;
    long collisions;
    long long rx_errors;
    ssize_t delta;
    ptrdiff_t skew;
    intptr_t handle;
    off_t offset;
    time_t sampled_at; /* seconds: a plain long */
    uint64_t queue_bytes[4];
    size_t *histogram AVRO_ARRAY(n_histogram);
    uint32_t n_histogram;
};

/* An input event (linux/input.h): a struct timeval stamp. */
struct AVRO_RECORD(namespace = "cg.shapes") input_ev {
    struct timeval time; /* timestamp-micros */
    uint16_t type;
    uint16_t code;
    int32_t value;
};

/* Symbols named explicitly: "2D" and "3D" are no Avro names. */
enum AVRO_ENUM(namespace = "cg.shapes") gps_mode {
    MODE_NOT_SEEN AVRO_FIELD(name = "NOT_SEEN"),
    MODE_NO_FIX AVRO_FIELD(name = "NO_FIX"),
    MODE_2D AVRO_FIELD(name = "FIX_2D"),
    MODE_3D AVRO_FIELD(name = "FIX_3D")
};

/* A GPS fix (like gpsd's gps_fix_t): struct timespec stamps, one in another
 * unit, a time_t in milliseconds, and instants in an array and behind a pointer. */
struct AVRO_RECORD(namespace = "cg.shapes") gps_fix {
    struct timespec time;                                   /* timestamp-nanos */
    struct timespec ept_at AVRO_LOGICAL(timestamp-micros);  /* floored to microseconds */
    time_t leap_at AVRO_LOGICAL(timestamp-millis);          /* seconds as milliseconds */
    time_t boot;                                            /* plain long of seconds */
    enum gps_mode mode;
    double latitude;
    double longitude;
    double alt_hae;
    struct timeval history[3] AVRO_LOGICAL(local-timestamp-millis);
    struct timespec *last_valid AVRO_NULLABLE;
};

/* Per-queue counters (like ethtool's): fixed-capacity arrays filled up to a
 * count, of records, strings, char arrays, bytes and numbers. */
struct AVRO_RECORD(namespace = "cg.shapes") queue_stats {
    uint64_t packets;
    uint64_t bytes;
};

struct AVRO_RECORD(namespace = "cg.shapes") nic_queues {
    char driver[32] AVRO_STRING(driver_len); /* not NUL-terminated: all 32 may be text */
    uint8_t driver_len;
    struct queue_stats queues[8] AVRO_ARRAY(num_queues);
    uint32_t num_queues;
    char *labels[4] AVRO_ARRAY(n_labels);
    int n_labels;
    char names[3][16] AVRO_ARRAY(n_names);
    size_t n_names;
    uint8_t mac[6] AVRO_BYTES(mac_len);
    int8_t mac_len;
    int32_t samples[300] AVRO_ARRAY(n_samples); /* the count holds 255 of them */
    uint8_t n_samples;
    uint16_t pairs[4][2] AVRO_ARRAY(n_pairs);
    uint8_t n_pairs;
};

/* An MQTT message (like mosquitto_message / MQTTClient_message): pointer and
 * length pairs of text and bytes. */
struct AVRO_RECORD(namespace = "cg.shapes") mqtt_msg {
    int mid;
    char *topic AVRO_STRING(topic_len);
    uint16_t topic_len;
    void *payload AVRO_BYTES(payloadlen);
    int payloadlen;
    int qos;
    bool retain;
    const char *client_id AVRO_STRING(client_id_len) AVRO_NULLABLE;
    size_t client_id_len;
    unsigned char *props AVRO_BYTES(props_len) AVRO_NULLABLE;
    uint32_t props_len;
};

/* A utmp entry (utmp.h): NUL-padded text fields, all of whose bytes may be
 * text, and a struct timeval. */
struct AVRO_RECORD(namespace = "cg.shapes") utmp_entry {
    short ut_type;
    pid_t ut_pid;
    char ut_line[32] AVRO_PADDED;
    char ut_id[4] AVRO_PADDED;
    char ut_user[32] AVRO_PADDED;
    char ut_host[256] AVRO_PADDED;
    int32_t ut_session;
    struct timeval ut_tv;
    int32_t ut_addr_v6[4];
};

/* A msgpack object (msgpack-c's msgpack_object): the type codes are not member
 * positions, two codes select one member (FLOAT32 and FLOAT64 both live in
 * f64), and a record branch carries a pointer and length. */
typedef enum {
    MP_NIL = 0x00,
    MP_BOOLEAN = 0x01,
    MP_POSITIVE_INTEGER = 0x02,
    MP_NEGATIVE_INTEGER = 0x03,
    MP_FLOAT64 = 0x04,
    MP_STR = 0x05,
    MP_BIN = 0x08,
    MP_FLOAT32 = 0x0a
} mp_type;

struct AVRO_RECORD(namespace = "cg.shapes") mp_bin {
    uint32_t size;
    const uint8_t *ptr AVRO_BYTES(size);
};

struct AVRO_RECORD(namespace = "cg.shapes") mp_object {
    mp_type type;
    union {
        int32_t nil AVRO_FIELD(type = "null") AVRO_TAG(MP_NIL);
        bool boolean AVRO_TAG(MP_BOOLEAN);
        int64_t i64 AVRO_TAG(MP_POSITIVE_INTEGER, MP_NEGATIVE_INTEGER);
        double f64 AVRO_TAG(MP_FLOAT64, MP_FLOAT32);
        char *str AVRO_TAG(MP_STR);
        struct mp_bin bin AVRO_TAG(MP_BIN);
    } via AVRO_UNION(type);
};

/* An input event's value by type code, the codes as macros (linux/input.h). */
#define CG_EV_KEY 0x01
#define CG_EV_REL 0x02
#define CG_EV_ABS 0x03
#define CG_EV_MSC 0x04

struct AVRO_RECORD(namespace = "cg.shapes") ev_value {
    uint16_t type;
    union {
        int32_t key AVRO_TAG(CG_EV_KEY);
        int64_t axis AVRO_TAG(CG_EV_REL, CG_EV_ABS);
        char *scan AVRO_TAG(CG_EV_MSC);
    } v AVRO_UNION(type);
};

/* A uint64_t tag: a value above INT64_MAX selects nothing, and the messages
 * print it as the unsigned number it is. */
struct AVRO_RECORD(namespace = "cg.shapes") wide_tag {
    uint64_t code;
    union {
        int32_t small AVRO_TAG(1);
        char *large AVRO_TAG(0x7fffffffffffffff);
    } u AVRO_UNION(code);
};

/* Flags and small numbers packed into bit-fields (a TCP header's flags, a
 * sensor's status word): unsigned, signed, a 1-bit bool, widths up to 48
 * bits, and an unnamed padding bit-field. */
struct AVRO_RECORD(namespace = "cg.shapes") packed_status {
    uint16_t doff : 4;
    uint16_t fin : 1;
    uint16_t syn : 1;
    uint16_t : 2;
    uint16_t window : 8;
    bool valid : 1;
    int delta : 5;               /* -16..15 */
    unsigned int full : 32;      /* a long */
    int64_t ticks : 48;          /* a long */
    long level : 20;             /* an int */
};

/* Holders (issue 14): an unannotated struct of `value` and its count or tag
 * puts an array, a map or a union where one C location must be: an array
 * item (a jagged matrix, a list of maps, of unions, of nullable strings) or a
 * union branch (interop.avsc's ["boolean", "double", {"type": "array", ...}]). */
struct hd_row {
    double *value AVRO_ARRAY(n);
    size_t n;
};

struct hd_tag {
    char *key;
    int64_t value;
};

typedef struct hd_tags {
    struct hd_tag *value AVRO_MAP(count);
    uint32_t count;
} hd_tags_t;

enum hd_kind { HD_NONE, HD_INT, HD_TEXT };

struct hd_cell {
    enum hd_kind kind;
    union {
        char none AVRO_FIELD(type = "null");
        int64_t i;
        char *text;
    } value AVRO_UNION(kind);
};

struct hd_name {
    char *value AVRO_NULLABLE;
};

struct hd_plane {
    struct hd_row *value AVRO_ARRAY(n_rows);
    uint16_t n_rows;
};

struct hd_bytes {
    avrogen_bytes *value AVRO_ARRAY(n);
    size_t n;
};

struct hd_null {
    char value AVRO_FIELD(type = "null");
};

struct hd_series {
    char *key;
    struct hd_row *value AVRO_ARRAY(n);
    size_t n;
};

struct AVRO_RECORD(namespace = "cg.shapes") hd_grid {
    struct hd_row *rows AVRO_ARRAY(n_rows);
    size_t n_rows;
    hd_tags_t *labels AVRO_ARRAY(n_labels);
    size_t n_labels;
    struct hd_cell cells[2];
    struct hd_name *names AVRO_ARRAY(n_names);
    int32_t n_names;
    struct hd_plane *cube AVRO_ARRAY(n_cube);
    size_t n_cube;
    struct hd_row spare[3] AVRO_ARRAY(n_spare);
    uint8_t n_spare;
    struct hd_series *series AVRO_MAP(n_series);
    size_t n_series;
    struct hd_null *gaps AVRO_ARRAY(n_gaps);
    size_t n_gaps;
    int kind;
    union {
        bool flag;
        double number;
        struct hd_bytes list;
        hd_tags_t labels;
    } u AVRO_UNION(kind);
};

/* Decimals wider than 18 digits on bytes (issue 14): the unscaled value's
 * big-endian two's-complement bytes, as they are on the wire; a fixed type
 * with a doc and aliases. */
struct AVRO_RECORD(namespace = "cg.shapes") wide_money {
    avrogen_bytes amount AVRO_DECIMAL(38, 2);
    avrogen_bytes change AVRO_DECIMAL(20, 0) AVRO_NULLABLE;
    uint8_t id[8] AVRO_FIXED_NAME(LedgerId, doc = "a ledger id", aliases = ["Id"]);
};

/* Recursion through a union branch (python3-avro's test_schema Lisp): the
 * branch `cons` is the record Cons through a pointer, never NULL; Cons holds
 * Lisp twice by value, so the pointer is what breaks the cycle. */
struct cons;

enum lisp_kind { LISP_NIL, LISP_ATOM, LISP_CONS };

struct AVRO_RECORD(namespace = "cg.shapes", name = "Lisp") lisp {
    enum lisp_kind kind;
    union {
        char nil AVRO_FIELD(type = "null");
        char *atom;
        struct cons *cons;
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD(namespace = "cg.shapes", name = "Cons") cons {
    struct lisp car;
    struct lisp cdr;
};

/* The same branch in a map entry and in an array item's holder. */
struct lisp_entry {
    char *key;
    enum lisp_kind kind;
    union {
        char nil AVRO_FIELD(type = "null");
        char *atom;
        struct cons *cons;
    } value AVRO_UNION(kind);
};

struct lisp_item {
    enum lisp_kind kind;
    union {
        char nil AVRO_FIELD(type = "null");
        char *atom;
        struct cons *cons;
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD(namespace = "cg.shapes") lisp_bag {
    struct lisp_entry *named AVRO_MAP(n_named);
    size_t n_named;
    struct lisp_item *items AVRO_ARRAY(n_items);
    size_t n_items;
};

#endif /* CG_SHAPES_H */
