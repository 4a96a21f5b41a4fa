/* SPDX-License-Identifier: Apache-2.0 */
/* Known answers for headers/cg_shapes.h (shapes_cases.h). */
#include "shapes_cases.h"

#include <stdint.h>
#include <string.h>

#include "cg_shapes.avro.h"

CG_ADAPTERS(nf5_record, struct nf5_record)
CG_ADAPTERS(nic_stats, struct nic_stats)

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
};
const size_t n_shape_answers = sizeof shape_answers / sizeof *shape_answers;
