/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: structs of installed headers (libcjson-dev's node,
 * glibc's struct group, struct inotify_event, struct utmp, whose ut_tv has
 * an untagged struct type, and struct iphdr, whose ihl and version are
 * 4-bit bit-fields), annotated out of line, alone and inside a record
 * of our own. */
#ifndef CG_SYSTEM_H
#define CG_SYSTEM_H

#include <cjson/cJSON.h>
#include <grp.h>
#include <limits.h>
#include <netinet/ip.h>
#include <stdint.h>
#include <sys/inotify.h>
#include <utmp.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(cJSON, name = "JsonNode", namespace = "cg.sys");
AVRO_EXTERN_FIELD(cJSON, next, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, prev, AVRO_SKIP); /* points back: next covers the chain */
AVRO_EXTERN_FIELD(cJSON, child, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, valuestring, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(cJSON, string, AVRO_NULLABLE AVRO_FIELD(name = "key"));

AVRO_EXTERN_RECORD(struct group, name = "Group", namespace = "cg.sys");
AVRO_EXTERN_FIELD(struct group, gr_passwd, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct group, gr_mem, AVRO_SKIP); /* a NULL-terminated list */

AVRO_EXTERN_RECORD(struct inotify_event, name = "InotifyEvent", namespace = "cg.sys");
/* name is a flexible char array: len bytes after the struct, the text NUL-padded
 * by the kernel; the string is the text, up to NAME_MAX + 1 bytes of room. */
AVRO_EXTERN_FIELD(struct inotify_event, name, AVRO_STRING(len, NAME_MAX + 1));

AVRO_EXTERN_RECORD(struct exit_status, name = "ExitStatus", namespace = "cg.sys");
AVRO_EXTERN_RECORD(struct utmp, name = "Utmp", namespace = "cg.sys");
AVRO_EXTERN_FIELD(struct utmp, __glibc_reserved, AVRO_SKIP);

AVRO_EXTERN_RECORD(struct iphdr, name = "IpHeader", namespace = "cg.sys");

struct AVRO_RECORD(namespace = "cg.sys") sys_report {
    int32_t wd;
    struct group owner;
    cJSON *config AVRO_NULLABLE;
};

#endif /* CG_SYSTEM_H */
