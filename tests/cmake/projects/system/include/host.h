/* SPDX-License-Identifier: Apache-2.0 */
/* What a host agent reports: its configuration as cJSON parsed it, the group
 * that owns it, the inotify events it saw, and a packet's IPv4 header (glibc's
 * struct iphdr, whose ihl and version are 4-bit bit-fields) with the struct
 * timespec it was seen at. None of these structs is ours: they are annotated
 * out of line, as they are in their installed headers. */
#ifndef HOST_H
#define HOST_H

#include <cjson/cJSON.h>
#include <grp.h>
#include <netinet/ip.h>
#include <stdint.h>
#include <sys/inotify.h>
#include <time.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(cJSON, name = "JsonNode", namespace = "org.cjson");
AVRO_EXTERN_FIELD(cJSON, next, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, prev, AVRO_SKIP); /* points back: next covers the chain */
AVRO_EXTERN_FIELD(cJSON, child, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, valuestring, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, string, AVRO_NULLABLE AVRO_FIELD(name = "key"));

AVRO_EXTERN_RECORD(struct group, name = "Group", namespace = "posix");
AVRO_EXTERN_FIELD(struct group, gr_passwd, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct group, gr_mem, AVRO_SKIP); /* a NULL-terminated list */

AVRO_EXTERN_RECORD(struct inotify_event, name = "InotifyEvent", namespace = "linux");
AVRO_EXTERN_FIELD(struct inotify_event, name, AVRO_SKIP); /* len bytes past the struct */

AVRO_EXTERN_RECORD(struct iphdr, name = "IpHeader", namespace = "linux");

/** A packet the agent saw, and when. */
struct AVRO_RECORD(name = "PacketSeen", namespace = "com.example.host") packet_seen {
    struct timespec at; /* a long, timestamp-nanos */
    struct iphdr header;
};

/** One report of the agent. */
struct AVRO_RECORD(name = "HostReport", namespace = "com.example.host") host_report {
    struct group owner;
    cJSON *config AVRO_NULLABLE;
    struct inotify_event *events AVRO_ARRAY(n_events);
    uint32_t n_events;
};

#endif /* HOST_H */
