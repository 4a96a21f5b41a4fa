/* Fields of type null: AVRO_FIELD(type = "null") on a member that only holds
 * the place, as on a null branch of an AVRO_UNION. Nothing reads or writes it. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct placeholder {                      /* a map of nulls */
    char *key;
    char value AVRO_FIELD(type = "null");
};

struct AVRO_RECORD() nulls {
    int32_t before;
    char nothing AVRO_FIELD(type = "null");
    uint8_t documented AVRO_FIELD(type = "null", doc = "always null", default = null, aliases = ["old"]);
    struct placeholder *set AVRO_MAP(n_set);
    size_t n_set;
    int64_t after;
};
