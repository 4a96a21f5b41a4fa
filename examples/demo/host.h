/* SPDX-License-Identifier: Apache-2.0 */
/* Structs scripts/demo did not write: cJSON's node (libcjson-dev) and glibc's
 * struct utmp, annotated out of line, in a record with anonymous members. */
#ifndef DEMO_HOST_H
#define DEMO_HOST_H

#include <cjson/cJSON.h>
#include <stdint.h>
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

#endif /* DEMO_HOST_H */
