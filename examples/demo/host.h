/* SPDX-License-Identifier: Apache-2.0 */
/* Structs scripts/demo did not write: cJSON's node (libcjson-dev), glibc's
 * struct utmp and struct iphdr (4-bit bit-fields), annotated out of line, in
 * records with anonymous members, instants, counted and padded members, a
 * union whose tag values are not positions and bit-fields of our own. */
#ifndef DEMO_HOST_H
#define DEMO_HOST_H

#include <cjson/cJSON.h>
#include <netinet/ip.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <utmp.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(cJSON, name = "JsonNode", namespace = "org.cjson");
AVRO_EXTERN_FIELD(cJSON, next, AVRO_NULLABLE); /* the sibling chain */
AVRO_EXTERN_FIELD(cJSON, child, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, prev, AVRO_SKIP); /* points back */
AVRO_EXTERN_FIELD(cJSON, valuestring, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, string, AVRO_NULLABLE AVRO_FIELD(name = "key"));

AVRO_EXTERN_RECORD(struct exit_status, namespace = "glibc");
AVRO_EXTERN_RECORD(struct utmp, name = "Login", namespace = "glibc"); /* ut_tv: Login_ut_tv */
AVRO_EXTERN_FIELD(struct utmp, __glibc_reserved, AVRO_SKIP);
AVRO_EXTERN_RECORD(struct iphdr, name = "IpHeader", namespace = "glibc");

/** gpsd's fix modes: the prefix is stated, MODE_2D cannot lose it. */
enum AVRO_ENUM(strip_prefix = "MODE_") gps_mode {
    MODE_NO_FIX,
    MODE_2D AVRO_FIELD(name = "FIX_2D"),
    MODE_3D AVRO_FIELD(name = "FIX_3D"),
};

/** What a host agent reports. */
struct AVRO_RECORD(name = "HostReport", namespace = "com.acme.ops") host_report {
    __extension__ struct { /* anonymous: its fields are HostReport's */
        int32_t uid;
        int32_t gid;
    };
    struct {
        double lat, lon;
    } position; /* untagged: record HostReport_position */
    enum gps_mode mode;
    cJSON *config AVRO_NULLABLE;
    struct utmp *logins AVRO_ARRAY(n_logins);
    uint32_t n_logins;
};

/* msgpack's type codes: not member positions. */
enum value_type { VAL_NIL = 0x00, VAL_INT = 0x02, VAL_FLOAT64 = 0x04, VAL_STR = 0x05, VAL_FLOAT32 = 0x0a };

/** One sample of a host's counters, as the agent keeps it. */
struct AVRO_RECORD(name = "HostSample", namespace = "com.acme.ops") host_sample {
    struct timespec taken;                 /* long, timestamp-nanos */
    time_t boot AVRO_LOGICAL(timestamp-millis);
    size_t rx_bytes;                       /* long: encode refuses > INT64_MAX */
    uint64_t tx_bytes AVRO_DECIMAL(20, 0); /* all of uint64_t, exactly */
    int32_t load[16] AVRO_ARRAY(n_load);   /* the first n_load of 16 */
    uint8_t n_load;
    char *iface AVRO_STRING(iface_len);    /* a pointer and a length */
    uint16_t iface_len;
    char host[8] AVRO_PADDED;              /* all 8 bytes may be text */
    unsigned int version : 4;              /* bit-fields: ints of their width */
    bool urgent : 1;                       /* boolean */
    enum value_type type;
    union {
        int32_t nil AVRO_FIELD(type = "null") AVRO_TAG(VAL_NIL);
        int64_t i64 AVRO_TAG(VAL_INT);
        double f64 AVRO_TAG(VAL_FLOAT64, VAL_FLOAT32); /* two codes, one branch */
        char *str AVRO_TAG(VAL_STR);
    } value AVRO_UNION(type);
    struct iphdr last_packet;
};

#endif /* DEMO_HOST_H */
