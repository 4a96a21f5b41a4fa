/* Structs from installed headers (libcjson-dev, glibc), annotated out of line:
 * the compiler's default include paths are system headers to libclang. */
#include <cjson/cJSON.h>
#include <grp.h>
#include <stdint.h>
#include <sys/inotify.h>

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

/** What a watcher reports. */
struct AVRO_RECORD(namespace = "com.example") watch_report {
    int32_t wd;
    struct group owner;
    cJSON *config AVRO_NULLABLE;
};
