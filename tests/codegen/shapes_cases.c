/* SPDX-License-Identifier: Apache-2.0 */
/* Known answers for headers/cg_shapes.h (shapes_cases.h). */
#include "shapes_cases.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <arpa/inet.h>

#include "cg_anon.avro.h"
#include "cg_logged.avro.h"
#include "cg_packed.avro.h"
#include "cg_shapes.avro.h"
#include "cg_sysdefault.avro.h"
#include "cg_system.avro.h"
#include "cg_vendor.avro.h"

CG_ADAPTERS(nf5_record, struct nf5_record)
CG_ADAPTERS(nic_stats, struct nic_stats)
CG_ADAPTERS(session, struct session)
CG_ADAPTERS(utmp, struct utmp)
CG_ADAPTERS(iphdr, struct iphdr)
CG_ADAPTERS(input_ev, struct input_ev)
CG_ADAPTERS(gps_fix, struct gps_fix)
CG_ADAPTERS(nic_queues, struct nic_queues)
CG_ADAPTERS(mqtt_msg, struct mqtt_msg)
CG_ADAPTERS(utmp_entry, struct utmp_entry)
CG_ADAPTERS(mp_object, struct mp_object)
CG_ADAPTERS(ev_value, struct ev_value)
CG_ADAPTERS(packed_status, struct packed_status)
CG_ADAPTERS(hd_grid, struct hd_grid)
CG_ADAPTERS(wide_money, struct wide_money)
CG_ADAPTERS(vendor_event, struct vendor_event)
CG_ADAPTERS(vendor_reading, struct vendor_reading)
CG_ADAPTERS(stat, struct stat)
CG_ADAPTERS(addrinfo, struct addrinfo)
CG_ADAPTERS(rusage, struct rusage)
CG_ADAPTERS(epoll_event, struct epoll_event)
CG_ADAPTERS(inotify_event, struct inotify_event)
CG_ADAPTERS(sockaddr_in6, struct sockaddr_in6)
CG_ADAPTERS(tcp_info, struct tcp_info)
CG_ADAPTERS(tm, struct tm)
CG_ADAPTERS(dirent, struct dirent)
CG_ADAPTERS(sysinfo, struct sysinfo)
CG_ADAPTERS(z_stream_s, z_stream)
CG_ADAPTERS(btrfs_dev_stats_item, struct btrfs_dev_stats_item)
CG_ADAPTERS(media_v2_pad, struct media_v2_pad)
CG_ADAPTERS(packed_samples, struct packed_samples)
CG_ADAPTERS(cgw_frame_mod, struct cgw_frame_mod)
CG_ADAPTERS(sctp_paddrinfo, struct sctp_paddrinfo)
CG_ADAPTERS(packed_track, struct packed_track)
CG_ADAPTERS(packed_lists, struct packed_lists)
CG_ADAPTERS(lisp, struct lisp)
CG_ADAPTERS(lisp_bag, struct lisp_bag)

static void fill_flow(void *p)
{
    struct nf5_record *v = p;
    v->srcaddr = UINT32_C(0xC0A80001);
    v->dstaddr = UINT32_MAX;
    v->nexthop = 0;
    v->input = 3;
    v->output = UINT16_MAX;
    v->d_pkts = 1;
    v->d_octets = 1500;
    v->first = 100;
    v->last = 200;
    v->srcport = 443;
    v->dstport = 51000;
    v->pad1 = 0xAA; /* not serialized */
    v->tcp_flags = 0x1B;
    v->prot = 6;
    v->tos = 0;
    v->src_as = 64512;
    v->dst_as = 65535;
    v->src_mask = 24;
    v->dst_mask = 32;
}

static size_t histogram[3] = {0, 7, (size_t)INT64_MAX};

/* Every unsigned 64-bit counter at the top of the long range, the signed ones at both ends. */
static void fill_nic(void *p)
{
    struct nic_stats *v = p;
    strcpy(v->ifname, "eth0");
    v->rx_packets = (uint64_t)INT64_MAX;
    v->tx_packets = 0;
    v->rx_bytes = UINT64_C(1) << 40;
    v->tx_bytes = 12345;
    v->rx_dropped = (size_t)INT64_MAX;
    v->tx_dropped = 1;
    v->multicast = 63;
    v->cookie = 64;
    v->collisions = INT64_MIN;
    v->rx_errors = INT64_MAX;
    v->delta = -1;
    v->skew = -64;
    v->handle = 0;
    v->offset = (off_t)1 << 33;
    v->sampled_at = 1700000000;
    v->queue_bytes[0] = 0;
    v->queue_bytes[1] = 127;
    v->queue_bytes[2] = 128;
    v->queue_bytes[3] = (uint64_t)INT64_MAX;
    v->histogram = histogram;
    v->n_histogram = 3;
}

static session_last_avro_struct last_session = {3, "timeout"};
static int64_t session_counts[3] = {1, -1, 64};

/* Anonymous struct members and members of untagged struct types. */
static void fill_session(void *p)
{
    struct session *v = p;
    v->pid = 7;
    v->uid = 1000;
    v->gid = -1;
    v->tv.tv_sec = 1700000000;
    v->tv.tv_usec = 999999;
    v->at[0].lat = 52.5;
    v->at[0].lon = 13.25;
    v->at[1].lat = -33.875;
    v->at[1].lon = 151.0;
    v->last = &last_session;
    v->mid.deep.z = INT64_MIN;
    strcpy(v->mid.label, "mid");
    v->peer_kind = 0;
    v->peer.inet.port = 443;
    v->peer.inet.proto = 6;
    v->counts = session_counts;
    v->n_counts = 3;
}

/* glibc's struct utmp, annotated out of line: ut_tv is an untagged struct. */
static void fill_utmp(void *p)
{
    struct utmp *v = p;
    v->ut_type = USER_PROCESS;
    v->ut_pid = 4242;
    strcpy(v->ut_line, "pts/3");
    strcpy(v->ut_id, "ts3");
    strcpy(v->ut_user, "alice");
    strcpy(v->ut_host, "example.org");
    v->ut_session = 17;
    v->ut_tv.tv_sec = 1700000000;
    v->ut_tv.tv_usec = 5;
    v->ut_addr_v6[0] = 0x0100007f;
}

static void fill_input(void *p)
{
    struct input_ev *v = p;
    v->time.tv_sec = 1;
    v->time.tv_usec = 2;
    v->type = 1; /* EV_KEY */
    v->code = 30;
    v->value = -1;
}

static struct timespec last_valid = {0, 1};

/* Instants on both sides of 1970, in each unit; only values the unit holds
 * exactly, so that they decode back the same (test_shapes.c floors). */
static void fill_gps(void *p)
{
    struct gps_fix *v = p;
    v->time.tv_sec = 1700000000;
    v->time.tv_nsec = 123456789;
    v->ept_at.tv_sec = -1;
    v->ept_at.tv_nsec = 999999000;
    v->leap_at = 1483228800;
    v->boot = 12345;
    v->mode = MODE_3D;
    v->latitude = 48.858222;
    v->longitude = 2.2945;
    v->alt_hae = -0.5;
    v->history[0].tv_sec = 0;
    v->history[0].tv_usec = 0;
    v->history[1].tv_sec = -1;
    v->history[1].tv_usec = 500000;
    v->history[2].tv_sec = 86400;
    v->history[2].tv_usec = 999000;
    v->last_valid = &last_valid;
}

static char *labels[4] = {(char *)"rx", (char *)"tx", (char *)"unused", (char *)"unused"};

/* Arrays filled up to their counts; what is past a count is not serialized. */
static void fill_queues(void *p)
{
    struct nic_queues *v = p;
    memcpy(v->driver, "ixgbe-with-a-32-byte-long-name!!", 32); /* all 32 bytes are text */
    v->driver_len = 32;
    v->queues[0].packets = 10;
    v->queues[0].bytes = 1500;
    v->queues[1].packets = 0;
    v->queues[1].bytes = 0;
    v->queues[2].packets = 99; /* past the count */
    v->num_queues = 2;
    memcpy(v->labels, labels, sizeof v->labels);
    v->n_labels = 2;
    strcpy(v->names[0], "q0");
    strcpy(v->names[1], "q1");
    strcpy(v->names[2], "never");
    v->n_names = 2;
    memcpy(v->mac, "\x02\x00\x5e\x10\x00\x01", 6);
    v->mac_len = 6;
    for (int i = 0; i < 300; i++)
        v->samples[i] = i * 1000 - 7;
    v->n_samples = 3;
    v->pairs[0][0] = 1;
    v->pairs[0][1] = 65535;
    v->n_pairs = 1;
}

static char topic[] = "sensors/temp/ignored";
static uint8_t payload[] = {0x00, 0xff, 0x7f, 0x80};
static const char client[] = "c1-and-more";

/* Pointer and length pairs: the length, not a NUL, says where text ends. */
static void fill_mqtt(void *p)
{
    struct mqtt_msg *v = p;
    v->mid = 42;
    v->topic = topic;
    v->topic_len = 12;
    v->payload = payload;
    v->payloadlen = 4;
    v->qos = 1;
    v->retain = true;
    v->client_id = client;
    v->client_id_len = 2;
    v->props = NULL;  /* null */
    v->props_len = 5; /* ignored: the pointer is NULL */
}

/* NUL-padded fields, ut_id using all its 4 bytes. */
static void fill_utmp_entry(void *p)
{
    struct utmp_entry *v = p;
    v->ut_type = 7; /* USER_PROCESS */
    v->ut_pid = 1234;
    strcpy(v->ut_line, "pts/0");
    memcpy(v->ut_id, "ts/0", 4);
    strcpy(v->ut_user, "root");
    /* ut_host stays all NUL: "" */
    v->ut_session = 0;
    v->ut_tv.tv_sec = 1700000000;
    v->ut_tv.tv_usec = 250000;
    v->ut_addr_v6[0] = 0x0100007f;
}

/* Tag values that are not positions (the first listed: decode stores those;
 * test_shapes.c encodes the others). */
static void fill_mp_float(void *p)
{
    struct mp_object *v = p;
    v->type = MP_FLOAT64;
    v->via.f64 = 2.5;
}

static const uint8_t mp_bytes[3] = {0x00, 0xc1, 0xff};

static void fill_mp_bin(void *p)
{
    struct mp_object *v = p;
    v->type = MP_BIN;
    v->via.bin.size = 3;
    v->via.bin.ptr = mp_bytes;
}

/* A macro's value selecting a member. */
static void fill_ev_rel(void *p)
{
    struct ev_value *v = p;
    v->type = CG_EV_REL;
    v->v.axis = -5000000000;
}

/* Bit-fields at the ends of their widths. */
static void fill_packed(void *p)
{
    struct packed_status *v = p;
    v->doff = 15;
    v->fin = 1;
    v->syn = 0;
    v->window = 255;
    v->valid = true;
    v->delta = -16;
    v->full = 4294967295u;
    v->ticks = -140737488355328;
    v->level = 524287;
}

/* glibc's struct iphdr, annotated out of line: ihl and version are 4 bits. */
static void fill_iphdr(void *p)
{
    struct iphdr *v = p;
    v->ihl = 5;
    v->version = 4;
    v->tos = 0;
    v->tot_len = 1500;
    v->id = 54321;
    v->ttl = 64;
    v->protocol = 6;
    v->check = 0xffff;
    v->saddr = 0x0100007f;
    v->daddr = 0xffffffffu;
}

/* glibc's struct stat in cc's dialect (cg_sysdefault.h): its times are timespecs. */
static void fill_stat(void *p)
{
    struct stat *v = p;
    v->st_dev = 2049;
    v->st_ino = 1234567;
    v->st_nlink = 1;
    v->st_mode = S_IFREG | 0644;
    v->st_uid = 1000;
    v->st_gid = 4294967294u;
    v->st_rdev = 0;
    v->st_size = 8589934592;
    v->st_blksize = 4096;
    v->st_blocks = 16777216;
    v->st_atim = (struct timespec){1700000000, 123456789};
    v->st_mtim = (struct timespec){-1, 999999999};
    v->st_ctim = (struct timespec){0, 0};
}

/* struct addrinfo, which <netdb.h> declares only outside strict ISO C: a list
 * of two, whose ai_addr (a struct sockaddr *) are the ai_addrlen bytes of a
 * sockaddr_in 127.0.0.1:443 and a sockaddr_in6 [::1]:53 as stored. */
static struct sockaddr_in ai_addr4 = {.sin_family = AF_INET,
                                      .sin_port = 0xbb01, /* 443, network order */
                                      .sin_addr = {0x0100007f}};
static struct sockaddr_in6 ai_addr6 = {
        .sin6_family = AF_INET6,
        .sin6_port = 0x3500, /* 53 */
        .sin6_addr = {{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}}};
static struct addrinfo ai_second = {.ai_family = AF_INET6,
                                    .ai_socktype = SOCK_DGRAM,
                                    .ai_protocol = IPPROTO_UDP,
                                    .ai_addrlen = 28,
                                    .ai_addr = (struct sockaddr *)&ai_addr6};

static void fill_addrinfo(void *p)
{
    struct addrinfo *v = p;
    v->ai_flags = AI_CANONNAME;
    v->ai_family = AF_INET;
    v->ai_socktype = SOCK_STREAM;
    v->ai_protocol = IPPROTO_TCP;
    v->ai_addrlen = 16;
    v->ai_addr = (struct sockaddr *)&ai_addr4;
    v->ai_canonname = "example.org";
    v->ai_next = &ai_second;
}

/* struct rusage: the longs of its anonymous unions, by their C names. */
static void fill_rusage(void *p)
{
    struct rusage *v = p;
    v->ru_utime = (struct timeval){12, 345678};
    v->ru_stime = (struct timeval){0, 1};
    v->ru_maxrss = 20480;
    v->ru_ixrss = 0;
    v->ru_idrss = -1;
    v->ru_isrss = LONG_MAX;
    v->ru_minflt = 1234;
    v->ru_majflt = 5;
    v->ru_nswap = 0;
    v->ru_inblock = 8;
    v->ru_oublock = 16;
    v->ru_msgsnd = 0;
    v->ru_msgrcv = 0;
    v->ru_nsignals = 2;
    v->ru_nvcsw = 99;
    v->ru_nivcsw = LONG_MIN;
}

/* struct epoll_event: data is its union's u64, the other views skipped. */
static void fill_epoll(void *p)
{
    struct epoll_event *v = p;
    v->events = EPOLLIN | EPOLLET;
    v->data.u64 = UINT64_C(0x7fffffff00000001);
}

/* struct sockaddr_in6 for [2001:db8::1]:443 on interface 3: sin6_addr is a
 * fixed of its 16 bytes as stored, port and flow label as stored too. */
static void fill_sockaddr_in6(void *p)
{
    static const uint8_t addr[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 0x01};
    struct sockaddr_in6 *v = p;
    v->sin6_family = AF_INET6;
    v->sin6_port = 0xbb01; /* htons(443) on a little-endian machine */
    v->sin6_flowinfo = 0;
    memcpy(&v->sin6_addr, addr, sizeof addr);
    v->sin6_scope_id = 3;
}

/* struct inotify_event: name is a flexible char array of len bytes with room
 * for NAME_MAX + 1 after the struct (type->size counts it). The kernel's NUL
 * padding is test_shapes.c's test_inotify_live; here len is the text's own
 * length, so that what decodes is what was filled. */
static void fill_inotify(void *p)
{
    struct inotify_event *v = p;
    v->wd = 3;
    v->mask = IN_CREATE | IN_ISDIR;
    v->cookie = 0;
    v->len = 7;
    memcpy(v->name, "caf\xc3\xa9.d", 7);
}

/* Holders: a jagged matrix (one row empty), a list of maps, a list of unions,
 * nullable names, three levels of arrays, a capacity array of arrays, a map of
 * matrices and interop.avsc's union branch of an array of bytes. */
static double hd_r0[] = {1.5, -2.0}, hd_r2[] = {0.25};
static struct hd_row hd_rows[] = {{hd_r0, 2}, {NULL, 0}, {hd_r2, 1}};
static struct hd_tag hd_t0[] = {{"a", 1}, {"b", -1}};
static hd_tags_t hd_labels[] = {{hd_t0, 2}, {NULL, 0}};
static struct hd_name hd_names[] = {{"x"}, {NULL}};
static struct hd_plane hd_cube[] = {{hd_rows, 2}};
static struct hd_series hd_series_map[] = {{"m", hd_rows + 2, 1}};
static uint8_t hd_b0[] = {0, 0xff};
static avrogen_bytes hd_blobs[] = {{hd_b0, 2}, {NULL, 0}};
static struct hd_null hd_gaps[3];

/* (("a" . nil) . "b"): the branch Cons through a pointer, twice nested. */
static void fill_lisp(void *p)
{
    static struct cons inner, outer;
    struct lisp *v = p;
    inner.car.kind = LISP_ATOM;
    inner.car.value.atom = "a";
    inner.cdr.kind = LISP_NIL;
    outer.car.kind = LISP_CONS;
    outer.car.value.cons = &inner;
    outer.cdr.kind = LISP_ATOM;
    outer.cdr.value.atom = "b";
    v->kind = LISP_CONS;
    v->value.cons = &outer;
}

static void fill_lisp_nil(void *p)
{
    struct lisp *v = p;
    v->kind = LISP_NIL;
}

/* The branch pointer in a map entry and in array items. */
static void fill_lisp_bag(void *p)
{
    static struct cons pair, empty;
    static struct lisp_entry named[1];
    static struct lisp_item items[3];
    struct lisp_bag *v = p;
    pair.car.kind = LISP_ATOM;
    pair.car.value.atom = "a";
    pair.cdr.kind = LISP_NIL;
    empty.car.kind = empty.cdr.kind = LISP_NIL;
    named[0].key = "k";
    named[0].kind = LISP_CONS;
    named[0].value.cons = &pair;
    items[0].kind = LISP_NIL;
    items[1].kind = LISP_ATOM;
    items[1].value.atom = "x";
    items[2].kind = LISP_CONS;
    items[2].value.cons = &empty;
    v->named = named;
    v->n_named = 1;
    v->items = items;
    v->n_items = 3;
}

static void fill_holders(void *p)
{
    struct hd_grid *v = p;
    v->rows = hd_rows;
    v->n_rows = 3;
    v->labels = hd_labels;
    v->n_labels = 2;
    v->cells[0].kind = HD_TEXT;
    v->cells[0].value.text = "t";
    v->cells[1].kind = HD_INT;
    v->cells[1].value.i = INT64_MIN;
    v->names = hd_names;
    v->n_names = 2;
    v->cube = hd_cube;
    v->n_cube = 1;
    v->spare[0].value = hd_r2;
    v->spare[0].n = 1;
    v->n_spare = 1;
    v->series = hd_series_map;
    v->n_series = 1;
    v->gaps = hd_gaps;
    v->n_gaps = 3;
    v->kind = 2;
    v->u.list.value = hd_blobs;
    v->u.list.n = 2;
}

/* 10^38 - 1 cents and -(2^64 - 1): decimals no int64_t holds. */
static const uint8_t wide_amount[] = {0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a,
                                      0x09, 0x8a, 0x22, 0x3f, 0xff, 0xff, 0xff, 0xff};
static const uint8_t wide_change[] = {0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};

static void fill_wide_money(void *p)
{
    struct wide_money *v = p;
    v->amount = (avrogen_bytes){wide_amount, sizeof wide_amount};
    v->change = (avrogen_bytes){wide_change, sizeof wide_change};
    memcpy(v->id, "ledger-1", 8);
}

/* A vendor header's tagged unions, annotated out of line (cg_vendor.h): the
 * tag values (1, 2, 4; 0x10, 0x20, 0x30; 'n', 's', 'S') are not branch positions. */
static void fill_vendor_key(void *p)
{
    struct vendor_event *v = p;
    v->kind = VENDOR_KEY;
    v->u.key = -30;
}

static void fill_vendor_motion(void *p)
{
    struct vendor_event *v = p;
    v->kind = VENDOR_MOTION;
    v->u.motion.dx = INT32_MIN;
    v->u.motion.dy = 7;
}

static void fill_vendor_text(void *p)
{
    struct vendor_event *v = p;
    v->kind = VENDOR_TEXT;
    strcpy(v->u.text, "thirty-one bytes of vendor text");
}

static void fill_vendor_text_value(void *p)
{
    struct vendor_reading *v = p;
    v->type = VENDOR_VALUE_TEXT;
    strcpy(v->value.text, "twenty-three bytes long");
    v->id_kind = 's';
    strcpy(v->id.name, "fifteen bytes!!");
}

static void fill_vendor_none(void *p)
{
    struct vendor_reading *v = p;
    v->type = VENDOR_VALUE_NONE;
    v->id_kind = 'n';
    v->id.number = INT32_MAX;
}

static void fill_vendor_int(void *p)
{
    struct vendor_reading *v = p;
    v->type = VENDOR_VALUE_INT;
    v->value.i = INT64_MAX;
    v->id_kind = 'n';
    v->id.number = INT32_MIN;
}

/* struct tcp_info as getsockopt(TCP_INFO) fills it (<linux/tcp.h>): its
 * bit-fields at their widest, __u32 counters at both ends, and the pacing
 * rates at ~0, the kernel's "unlimited": tcpi_pacing_rate keeps its 64 bits
 * (-1 as a long), tcpi_max_pacing_rate every digit (a decimal of 9 bytes). */
static void fill_tcp_info(void *p)
{
    struct tcp_info *v = p;
    v->tcpi_state = 1; /* TCP_ESTABLISHED */
    v->tcpi_ca_state = 4;
    v->tcpi_retransmits = 0;
    v->tcpi_probes = 2;
    v->tcpi_backoff = 1;
    v->tcpi_options = 255;
    v->tcpi_snd_wscale = 7;
    v->tcpi_rcv_wscale = 15;
    v->tcpi_delivery_rate_app_limited = 1;
    v->tcpi_fastopen_client_fail = 3;
    v->tcpi_rto = 200000u;
    v->tcpi_ato = 40000u;
    v->tcpi_snd_mss = 65483u;
    v->tcpi_rcv_mss = 3000009u;
    v->tcpi_unacked = 4000012u;
    v->tcpi_sacked = 5000015u;
    v->tcpi_lost = 6000018u;
    v->tcpi_retrans = 7000021u;
    v->tcpi_fackets = 8000024u;
    v->tcpi_last_data_sent = 9000027u;
    v->tcpi_last_ack_sent = 10000030u;
    v->tcpi_last_data_recv = 11000033u;
    v->tcpi_last_ack_recv = 12000036u;
    v->tcpi_pmtu = 13000039u;
    v->tcpi_rcv_ssthresh = UINT32_MAX;
    v->tcpi_rtt = 15000045u;
    v->tcpi_rttvar = 16000048u;
    v->tcpi_snd_ssthresh = 17000051u;
    v->tcpi_snd_cwnd = 18000054u;
    v->tcpi_advmss = 19000057u;
    v->tcpi_reordering = 20000060u;
    v->tcpi_rcv_rtt = 21000063u;
    v->tcpi_rcv_space = 22000066u;
    v->tcpi_total_retrans = 23000069u;
    v->tcpi_pacing_rate = UINT64_MAX;
    v->tcpi_max_pacing_rate = UINT64_MAX;
    v->tcpi_bytes_acked = UINT64_C(1099511627776);
    v->tcpi_bytes_received = UINT64_C(9223372036854775807);
    v->tcpi_segs_out = 17u;
    v->tcpi_segs_in = 65536u;
    v->tcpi_notsent_bytes = UINT32_MAX;
    v->tcpi_min_rtt = 0u;
    v->tcpi_data_segs_in = 17u;
    v->tcpi_data_segs_out = 65536u;
    v->tcpi_delivery_rate = UINT64_C(1099511627776);
    v->tcpi_busy_time = UINT64_C(9223372036854775807);
    v->tcpi_rwnd_limited = 0;
    v->tcpi_sndbuf_limited = UINT64_C(123456789012);
    v->tcpi_delivered = UINT32_MAX;
    v->tcpi_delivered_ce = 0u;
    v->tcpi_bytes_sent = 77;
    v->tcpi_bytes_retrans = UINT64_C(4611686018427387904);
    v->tcpi_dsack_dups = UINT32_MAX;
    v->tcpi_reord_seen = 0u;
    v->tcpi_rcv_ooopack = 17u;
    v->tcpi_snd_wnd = 65536u;
}

/* struct tm with glibc's tm_gmtoff and tm_zone: a leap second in CET, and a
 * zone glibc leaves unnamed (tm_zone NULL: null) half an hour off the hour. */
static void fill_tm_cet(void *p)
{
    struct tm *v = p;
    *v = (struct tm){.tm_sec = 60,
                     .tm_min = 59,
                     .tm_hour = 23,
                     .tm_mday = 31,
                     .tm_mon = 11,
                     .tm_year = 126,
                     .tm_wday = 4,
                     .tm_yday = 364,
                     .tm_isdst = 0,
                     .tm_gmtoff = 3600,
                     .tm_zone = "CET"};
}

static void fill_tm_unnamed(void *p)
{
    struct tm *v = p;
    *v = (struct tm){.tm_mday = 1, .tm_year = -1900, .tm_isdst = -1, .tm_gmtoff = -12600};
}

/* struct dirent as readdir returns it: d_name a char[256] (string), d_off
 * the file system's cookie (ext4's are hashes up to the largest long). */
static void fill_dirent(void *p)
{
    struct dirent *v = p;
    v->d_ino = 1234567;
    v->d_off = INT64_MAX;
    v->d_reclen = 32;
    v->d_type = DT_REG;
    strcpy(v->d_name, "caf\xc3\xa9.txt");
}

/* struct sysinfo: loads scaled by 1 << SI_LOAD_SHIFT (1.0, 0.5, 0), 24 GiB
 * of RAM; _f, a zero-length char array on LP64, is skipped. */
static void fill_sysinfo(void *p)
{
    struct sysinfo *v = p;
    v->uptime = 86400;
    v->loads[0] = 65536;
    v->loads[1] = 32768;
    v->loads[2] = 0;
    v->totalram = UINT64_C(25769803776);
    v->freeram = UINT64_C(1073741824);
    v->sharedram = 4096;
    v->bufferram = 0;
    v->totalswap = 0;
    v->freeswap = 0;
    v->procs = 512;
    v->pad = 0;
    v->totalhigh = 0;
    v->freehigh = 0;
    v->mem_unit = 1;
}

/* zlib's z_stream after a deflate: counters and checksum, msg NULL (null);
 * and after inflate refused its input, msg zlib's words. The buffers, the
 * allocator and the internal state are skipped. */
static void fill_z_stream(void *p)
{
    z_stream *v = p;
    v->avail_in = 0;
    v->total_in = 1000000;
    v->avail_out = 4096;
    v->total_out = 1234;
    v->msg = NULL;
    v->data_type = Z_TEXT;
    v->adler = 0x12345678;
    v->reserved = 0;
}

static void fill_z_stream_error(void *p)
{
    z_stream *v = p;
    v->avail_in = 4294967295u;
    v->total_in = 5;
    v->total_out = 0;
    v->msg = "invalid stored block lengths";
    v->data_type = Z_UNKNOWN;
    v->adler = 1;
}

/* Packed structs (cg_packed.h): the values test_packed.c codes at odd
 * addresses, here through python3-avro, Java and goavro. */
static void fill_dev_stats(void *p)
{
    struct btrfs_dev_stats_item *v = p;
    static const __u64 values[BTRFS_DEV_STAT_VALUES_MAX] = {1, 300, 0, 7, 64};
    for (size_t i = 0; i < BTRFS_DEV_STAT_VALUES_MAX; i++)
        v->values[i] = values[i];
}

static void fill_media_pad(void *p)
{
    struct media_v2_pad *v = p;
    v->id = 1;
    v->entity_id = 2;
    v->flags = MEDIA_PAD_FL_SOURCE;
    v->index = 64;
    v->reserved[3] = UINT32_MAX;
}

static void fill_packed_samples(void *p)
{
    struct packed_samples *v = p;
    v->kind = 7;
    v->longs[0] = -1;
    v->longs[1] = 1000;
    v->longs[2] = INT64_MIN;
    v->ints[0] = 5;
    v->ints[1] = INT32_MAX;
    v->reals[0] = 0.5;
    v->reals[1] = -2.25;
    v->floats[0] = 1.5f;
    v->floats[1] = 3.0f;
}

static void fill_can_gateway(void *p)
{
    struct cgw_frame_mod *v = p;
    v->cf.can_id = 0x123;
    v->cf.len = 3;
    v->cf.data[0] = 0xde;
    v->cf.data[1] = 0xad;
    v->cf.data[2] = 0xbe;
    v->modtype = CGW_MOD_ID | CGW_MOD_DATA;
}

/* 127.0.0.1:443 as a sockaddr_in at the start of the storage's 128 bytes. */
static void fill_sctp_peer(void *p)
{
    struct sctp_paddrinfo *v = p;
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(443);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    v->spinfo_assoc_id = 7;
    memcpy((void *)&v->spinfo_address, &sin, sizeof sin);
    v->spinfo_state = SCTP_ACTIVE;
    v->spinfo_cwnd = 4380;
    v->spinfo_rto = 3000;
    v->spinfo_mtu = 1500;
}

static void fill_packed_track(void *p)
{
    struct packed_track *v = p;
    v->kind = 1;
    v->at.tv_sec = 1700000000;
    v->at.tv_nsec = 123456789;
    v->origin.x = -3;
    v->origin.y = 0.5;
    v->gap = 255;
    v->path[0].x = 1000;
    v->path[0].y = 2.0;
    v->path[1].x = INT64_MAX;
    v->path[1].y = -1.5;
    v->laps[1].tv_sec = -1;
    v->laps[1].tv_nsec = 999999999;
    v->tail = 65535;
}

static double packed_row0[] = {1.5, -2.0};

static void fill_packed_lists(void *p)
{
    struct packed_lists *v = p;
    v->kind = 3;
    v->rows[0].value = packed_row0;
    v->rows[0].n = 2;
    v->n_rows = 2;
    /* null and a double: python3-avro 1.11.1 writes an int of ["null",
     * "long", "double"] as the double (test_packed.c has the long) */
    v->cells[0].kind = PACKED_NONE;
    v->cells[1].kind = PACKED_REAL;
    v->cells[1].value.x = 0.25;
    v->counts[0] = 1;
    v->counts[1] = -1;
    v->counts[2] = INT64_C(1) << 40;
    v->n_counts = 3;
}

/* Eight NUL characters of a JSON string. */
#define NUL8 "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"

const shape_answer shape_answers[] = {
        {"netflow v5", CG_CASE(nf5_record), fill_flow,
         "{\"srcaddr\": 3232235521, \"dstaddr\": 4294967295, \"nexthop\": 0, \"input\": 3, "
         "\"output\": 65535, \"d_pkts\": 1, \"d_octets\": 1500, \"first\": 100, \"last\": 200, "
         "\"srcport\": 443, \"dstport\": 51000, \"tcp_flags\": 27, \"prot\": 6, \"tos\": 0, "
         "\"src_as\": 64512, \"dst_as\": 65535, \"src_mask\": 24, \"dst_mask\": 32}"},
        {"nic counters", CG_CASE(nic_stats), fill_nic,
         "{\"ifname\": \"eth0\", \"rx_packets\": 9223372036854775807, \"tx_packets\": 0, "
         "\"rx_bytes\": 1099511627776, \"tx_bytes\": 12345, "
         "\"rx_dropped\": 9223372036854775807, \"tx_dropped\": 1, \"multicast\": 63, "
         "\"cookie\": 64, \"collisions\": -9223372036854775808, "
         "\"rx_errors\": 9223372036854775807, \"delta\": -1, \"skew\": -64, \"handle\": 0, "
         "\"offset\": 8589934592, \"sampled_at\": 1700000000, "
         "\"queue_bytes\": [0, 127, 128, 9223372036854775807], "
         "\"histogram\": [0, 7, 9223372036854775807]}"},
        {"anonymous members", CG_CASE(session), fill_session,
         "{\"pid\": 7, \"uid\": 1000, \"gid\": -1, "
         "\"tv\": {\"tv_sec\": 1700000000, \"tv_usec\": 999999}, "
         "\"at\": [{\"lat\": 52.5, \"lon\": 13.25}, {\"lat\": -33.875, \"lon\": 151.0}], "
         "\"last\": {\"cg.anon.session_last\": {\"code\": 3, \"why\": {\"string\": \"timeout\"}}}, "
         "\"mid\": {\"deep\": {\"z\": -9223372036854775808}, \"label\": \"mid\"}, "
         "\"peer\": {\"cg.anon.session_peer_inet\": {\"port\": 443, \"proto\": 6}}, "
         "\"counts\": [1, -1, 64]}"},
        {"utmp", CG_CASE(utmp), fill_utmp,
         "{\"ut_type\": 7, \"ut_pid\": 4242, \"ut_line\": \"pts/3\", \"ut_id\": \"ts3\", "
         "\"ut_user\": \"alice\", \"ut_host\": \"example.org\", "
         "\"ut_exit\": {\"e_termination\": 0, \"e_exit\": 0}, \"ut_session\": 17, "
         "\"ut_tv\": {\"tv_sec\": 1700000000, \"tv_usec\": 5}, "
         "\"ut_addr_v6\": [16777343, 0, 0, 0]}"},
        {"input event", CG_CASE(input_ev), fill_input,
         "{\"time\": 1000002, \"type\": 1, \"code\": 30, \"value\": -1}"},
        {"gps fix", CG_CASE(gps_fix), fill_gps,
         "{\"time\": 1700000000123456789, \"ept_at\": -1, \"leap_at\": 1483228800000, "
         "\"boot\": 12345, \"mode\": \"FIX_3D\", \"latitude\": 48.858222, "
         "\"longitude\": 2.2945, \"alt_hae\": -0.5, \"history\": [0, -500, 86400999], "
         "\"last_valid\": {\"long\": 1}}"},
        {"nic queues", CG_CASE(nic_queues), fill_queues,
         "{\"driver\": \"ixgbe-with-a-32-byte-long-name!!\", \"queues\": [{\"packets\": 10, "
         "\"bytes\": 1500}, {\"packets\": 0, \"bytes\": 0}], \"labels\": [\"rx\", \"tx\"], "
         "\"names\": [\"q0\", \"q1\"], \"mac\": \"\\u0002\\u0000^\\u0010\\u0000\\u0001\", "
         "\"samples\": [-7, 993, 1993], \"pairs\": [[1, 65535]]}"},
        {"mqtt message", CG_CASE(mqtt_msg), fill_mqtt,
         "{\"mid\": 42, \"topic\": \"sensors/temp\", \"payload\": "
         "\"\\u0000\\u00ff\\u007f\\u0080\", "
         "\"qos\": 1, \"retain\": true, \"client_id\": {\"string\": \"c1\"}, "
         "\"props\": null}"},
        {"utmp entry", CG_CASE(utmp_entry), fill_utmp_entry,
         "{\"ut_type\": 7, \"ut_pid\": 1234, \"ut_line\": \"pts/0\", \"ut_id\": \"ts/0\", "
         "\"ut_user\": \"root\", \"ut_host\": \"\", \"ut_session\": 0, "
         "\"ut_tv\": 1700000000250000, \"ut_addr_v6\": [16777343, 0, 0, 0]}"},
        {"msgpack float", CG_CASE(mp_object), fill_mp_float, "{\"via\": {\"double\": 2.5}}"},
        {"msgpack bin", CG_CASE(mp_object), fill_mp_bin,
         "{\"via\": {\"cg.shapes.mp_bin\": {\"ptr\": \"\\u0000\\u00c1\\u00ff\"}}}"},
        {"packed status", CG_CASE(packed_status), fill_packed,
         "{\"doff\": 15, \"fin\": 1, \"syn\": 0, \"window\": 255, \"valid\": true, "
         "\"delta\": -16, \"full\": 4294967295, \"ticks\": -140737488355328, "
         "\"level\": 524287}"},
        {"ip header", CG_CASE(iphdr), fill_iphdr,
         "{\"ihl\": 5, \"version\": 4, \"tos\": 0, \"tot_len\": 1500, \"id\": 54321, "
         "\"frag_off\": 0, \"ttl\": 64, \"protocol\": 6, \"check\": 65535, "
         "\"saddr\": 16777343, \"daddr\": 4294967295}"},
        {"file status", CG_CASE(stat), fill_stat,
         "{\"st_dev\": 2049, \"st_ino\": 1234567, \"st_nlink\": 1, \"st_mode\": 33188, "
         "\"st_uid\": 1000, \"st_gid\": 4294967294, \"st_rdev\": 0, "
         "\"st_size\": 8589934592, \"st_blksize\": 4096, \"st_blocks\": 16777216, "
         "\"st_atim\": 1700000000123456789, \"st_mtim\": -1, \"st_ctim\": 0}"},
        {"address info", CG_CASE(addrinfo), fill_addrinfo,
         "{\"ai_flags\": 2, \"ai_family\": 2, \"ai_socktype\": 1, \"ai_protocol\": 6, "
         "\"ai_addr\": "
         "\"\\u0002\\u0000\\u0001\\u00bb\\u007f\\u0000\\u0000\\u0001\\u0000\\u0000\\u0000\\u0000\\u"
         "0000\\u0000\\u0000\\u0000\", "
         "\"ai_canonname\": {\"string\": \"example.org\"}, "
         "\"ai_next\": {\"cg.sysdefault.AddrInfo\": {\"ai_flags\": 0, \"ai_family\": 10, "
         "\"ai_socktype\": 2, \"ai_protocol\": 17, \"ai_addr\": "
         "\"\\u000a\\u0000\\u0000\\u0035\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u"
         "0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0001\\u0000"
         "\\u0000\\u0000\\u0000\", "
         "\"ai_canonname\": null, \"ai_next\": null}}}"},
        {"resource usage", CG_CASE(rusage), fill_rusage,
         "{\"ru_utime\": 12345678, \"ru_stime\": 1, \"ru_maxrss\": 20480, \"ru_ixrss\": 0, "
         "\"ru_idrss\": -1, \"ru_isrss\": 9223372036854775807, \"ru_minflt\": 1234, "
         "\"ru_majflt\": 5, \"ru_nswap\": 0, \"ru_inblock\": 8, \"ru_oublock\": 16, "
         "\"ru_msgsnd\": 0, \"ru_msgrcv\": 0, \"ru_nsignals\": 2, \"ru_nvcsw\": 99, "
         "\"ru_nivcsw\": -9223372036854775808}"},
        {"epoll event", CG_CASE(epoll_event), fill_epoll,
         "{\"events\": 2147483649, \"data\": 9223372032559808513}"},
        {"ipv6 socket address", CG_CASE(sockaddr_in6), fill_sockaddr_in6,
         "{\"sin6_family\": 10, \"sin6_port\": 47873, \"sin6_flowinfo\": 0, "
         "\"sin6_addr\": \" \\u0001\\r\\u00b8\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"
         "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0001\", \"sin6_scope_id\": 3}"},
        {"inotify event", CG_CASE(inotify_event), fill_inotify,
         "{\"wd\": 3, \"mask\": 1073742080, \"cookie\": 0, \"name\": \"caf\u00e9.d\"}"},
        {"event axis", CG_CASE(ev_value), fill_ev_rel, "{\"v\": {\"long\": -5000000000}}"},
        {"wide decimals", CG_CASE(wide_money), fill_wide_money,
         "{\"amount\": \"K;L\\u00a8Z\\u0086\\u00c4z\\t\\u008a\\\"?\\u00ff\\u00ff\\u00ff\\u00ff\", "
         "\"change\": {\"bytes\": "
         "\"\\u00ff\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0001\"}, "
         "\"id\": \"ledger-1\"}"},
        {"holders", CG_CASE(hd_grid), fill_holders,
         "{\"rows\": [[1.5, -2.0], [], [0.25]], \"labels\": [{\"a\": 1, \"b\": -1}, {}], "
         "\"cells\": [{\"string\": \"t\"}, {\"long\": -9223372036854775808}], "
         "\"names\": [{\"string\": \"x\"}, null], \"cube\": [[[1.5, -2.0], []]], "
         "\"spare\": [[0.25]], \"series\": {\"m\": [[0.25]]}, \"gaps\": [null, null, null], "
         "\"u\": {\"array\": [\"\\u0000\\u00ff\", \"\"]}}"},
        {"lisp", CG_CASE(lisp), fill_lisp,
         "{\"value\": {\"cg.shapes.Cons\": {\"car\": {\"value\": {\"cg.shapes.Cons\": "
         "{\"car\": {\"value\": {\"string\": \"a\"}}, \"cdr\": {\"value\": null}}}}, "
         "\"cdr\": {\"value\": {\"string\": \"b\"}}}}}"},
        {"lisp nil", CG_CASE(lisp), fill_lisp_nil, "{\"value\": null}"},
        {"lisp bag", CG_CASE(lisp_bag), fill_lisp_bag,
         "{\"named\": {\"k\": {\"cg.shapes.Cons\": {\"car\": {\"value\": {\"string\": "
         "\"a\"}}, \"cdr\": {\"value\": null}}}}, \"items\": [null, {\"string\": \"x\"}, "
         "{\"cg.shapes.Cons\": {\"car\": {\"value\": null}, \"cdr\": {\"value\": null}}}]}"},
        {"vendor key", CG_CASE(vendor_event), fill_vendor_key, "{\"u\": {\"int\": -30}}"},
        {"vendor motion", CG_CASE(vendor_event), fill_vendor_motion,
         "{\"u\": {\"cg.vendor.Motion\": {\"dx\": -2147483648, \"dy\": 7}}}"},
        {"vendor text", CG_CASE(vendor_event), fill_vendor_text,
         "{\"u\": {\"string\": \"thirty-one bytes of vendor text\"}}"},
        {"vendor text value", CG_CASE(vendor_reading), fill_vendor_text_value,
         "{\"value\": {\"string\": \"twenty-three bytes long\"}, "
         "\"id\": {\"string\": \"fifteen bytes!!\"}}"},
        {"vendor none", CG_CASE(vendor_reading), fill_vendor_none,
         "{\"value\": null, \"id\": {\"int\": 2147483647}}"},
        {"vendor int", CG_CASE(vendor_reading), fill_vendor_int,
         "{\"value\": {\"long\": 9223372036854775807}, \"id\": {\"int\": -2147483648}}"},
        {"tcp info", CG_CASE(tcp_info), fill_tcp_info,
         "{\"tcpi_state\": 1, \"tcpi_ca_state\": 4, \"tcpi_retransmits\": 0, "
         "\"tcpi_probes\": 2, \"tcpi_backoff\": 1, \"tcpi_options\": 255, "
         "\"tcpi_snd_wscale\": 7, \"tcpi_rcv_wscale\": 15, "
         "\"tcpi_delivery_rate_app_limited\": 1, \"tcpi_fastopen_client_fail\": 3, "
         "\"tcpi_rto\": 200000, \"tcpi_ato\": 40000, \"tcpi_snd_mss\": 65483, "
         "\"tcpi_rcv_mss\": 3000009, \"tcpi_unacked\": 4000012, \"tcpi_sacked\": 5000015, "
         "\"tcpi_lost\": 6000018, \"tcpi_retrans\": 7000021, \"tcpi_fackets\": 8000024, "
         "\"tcpi_last_data_sent\": 9000027, \"tcpi_last_ack_sent\": 10000030, "
         "\"tcpi_last_data_recv\": 11000033, \"tcpi_last_ack_recv\": 12000036, "
         "\"tcpi_pmtu\": 13000039, \"tcpi_rcv_ssthresh\": 4294967295, "
         "\"tcpi_rtt\": 15000045, \"tcpi_rttvar\": 16000048, "
         "\"tcpi_snd_ssthresh\": 17000051, \"tcpi_snd_cwnd\": 18000054, "
         "\"tcpi_advmss\": 19000057, \"tcpi_reordering\": 20000060, "
         "\"tcpi_rcv_rtt\": 21000063, \"tcpi_rcv_space\": 22000066, "
         "\"tcpi_total_retrans\": 23000069, \"tcpi_pacing_rate\": -1, "
         "\"tcpi_max_pacing_rate\": "
         "\"\\u0000\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff\", "
         "\"tcpi_bytes_acked\": 1099511627776, "
         "\"tcpi_bytes_received\": 9223372036854775807, \"tcpi_segs_out\": 17, "
         "\"tcpi_segs_in\": 65536, \"tcpi_notsent_bytes\": 4294967295, \"tcpi_min_rtt\": 0, "
         "\"tcpi_data_segs_in\": 17, \"tcpi_data_segs_out\": 65536, "
         "\"tcpi_delivery_rate\": 1099511627776, \"tcpi_busy_time\": 9223372036854775807, "
         "\"tcpi_rwnd_limited\": 0, \"tcpi_sndbuf_limited\": 123456789012, "
         "\"tcpi_delivered\": 4294967295, \"tcpi_delivered_ce\": 0, "
         "\"tcpi_bytes_sent\": 77, \"tcpi_bytes_retrans\": 4611686018427387904, "
         "\"tcpi_dsack_dups\": 4294967295, \"tcpi_reord_seen\": 0, "
         "\"tcpi_rcv_ooopack\": 17, \"tcpi_snd_wnd\": 65536}"},
        {"calendar time", CG_CASE(tm), fill_tm_cet,
         "{\"tm_sec\": 60, \"tm_min\": 59, \"tm_hour\": 23, \"tm_mday\": 31, \"tm_mon\": 11, "
         "\"tm_year\": 126, \"tm_wday\": 4, \"tm_yday\": 364, \"tm_isdst\": 0, "
         "\"tm_gmtoff\": 3600, \"tm_zone\": {\"string\": \"CET\"}}"},
        {"calendar time, unnamed zone", CG_CASE(tm), fill_tm_unnamed,
         "{\"tm_sec\": 0, \"tm_min\": 0, \"tm_hour\": 0, \"tm_mday\": 1, \"tm_mon\": 0, "
         "\"tm_year\": -1900, \"tm_wday\": 0, \"tm_yday\": 0, \"tm_isdst\": -1, "
         "\"tm_gmtoff\": -12600, \"tm_zone\": null}"},
        {"directory entry", CG_CASE(dirent), fill_dirent,
         "{\"d_ino\": 1234567, \"d_off\": 9223372036854775807, \"d_reclen\": 32, "
         "\"d_type\": 8, \"d_name\": \"caf\u00e9.txt\"}"},
        {"system info", CG_CASE(sysinfo), fill_sysinfo,
         "{\"uptime\": 86400, \"loads\": [65536, 32768, 0], \"totalram\": 25769803776, "
         "\"freeram\": 1073741824, \"sharedram\": 4096, \"bufferram\": 0, \"totalswap\": 0, "
         "\"freeswap\": 0, \"procs\": 512, \"pad\": 0, \"totalhigh\": 0, \"freehigh\": 0, "
         "\"mem_unit\": 1}"},
        {"zlib stream", CG_CASE(z_stream_s), fill_z_stream,
         "{\"avail_in\": 0, \"total_in\": 1000000, \"avail_out\": 4096, \"total_out\": 1234, "
         "\"msg\": null, \"data_type\": 1, \"adler\": 305419896, \"reserved\": 0}"},
        {"zlib stream error", CG_CASE(z_stream_s), fill_z_stream_error,
         "{\"avail_in\": 4294967295, \"total_in\": 5, \"avail_out\": 0, \"total_out\": 0, "
         "\"msg\": {\"string\": \"invalid stored block lengths\"}, \"data_type\": 2, "
         "\"adler\": 1, \"reserved\": 0}"},
        {"packed btrfs device stats", CG_CASE(btrfs_dev_stats_item), fill_dev_stats,
         "{\"values\": [1, 300, 0, 7, 64]}"},
        {"packed media pad", CG_CASE(media_v2_pad), fill_media_pad,
         "{\"id\": 1, \"entity_id\": 2, \"flags\": 2, \"index\": 64, "
         "\"reserved\": [0, 0, 0, 4294967295]}"},
        {"packed samples", CG_CASE(packed_samples), fill_packed_samples,
         "{\"kind\": 7, \"longs\": [-1, 1000, -9223372036854775808], "
         "\"ints\": [5, 2147483647], \"reals\": [0.5, -2.25], \"floats\": [1.5, 3.0]}"},
        {"packed CAN gateway frame", CG_CASE(cgw_frame_mod), fill_can_gateway,
         "{\"cf\": {\"can_id\": 291, \"len\": 3, \"__pad\": 0, \"__res0\": 0, "
         "\"len8_dlc\": 0, \"data\": "
         "\"\\u00de\\u00ad\\u00be\\u0000\\u0000\\u0000\\u0000\\u0000\"}, "
         "\"modtype\": 5}"},
        {"packed SCTP peer address", CG_CASE(sctp_paddrinfo), fill_sctp_peer,
         "{\"spinfo_assoc_id\": 7, \"spinfo_address\": "
         "\"\\u0002\\u0000\\u0001\\u00bb\\u007f\\u0000\\u0000\\u0001" /* 8 of 128 bytes */
         NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 NUL8 "\", "
         "\"spinfo_state\": 2, \"spinfo_cwnd\": 4380, \"spinfo_srtt\": 0, "
         "\"spinfo_rto\": 3000, \"spinfo_mtu\": 1500}"},
        {"packed track", CG_CASE(packed_track), fill_packed_track,
         "{\"kind\": 1, \"at\": 1700000000123456789, \"origin\": {\"x\": -3, \"y\": 0.5}, "
         "\"gap\": 255, \"path\": [{\"x\": 1000, \"y\": 2.0}, "
         "{\"x\": 9223372036854775807, \"y\": -1.5}], \"laps\": [0, -1], \"tail\": 65535}"},
        {"packed lists", CG_CASE(packed_lists), fill_packed_lists,
         "{\"kind\": 3, \"rows\": [[1.5, -2.0], []], "
         "\"cells\": [null, {\"double\": 0.25}], "
         "\"counts\": [1, -1, 1099511627776]}"},
};
const size_t n_shape_answers = sizeof shape_answers / sizeof *shape_answers;
