/* Names generated code would take twice, or that the header already spells
 * (issue 26): each is refused at the declaration that causes it. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "a") Order { int64_t id; };
struct AVRO_RECORD(namespace = "b") ORDER { int64_t id; };
struct AVRO_RECORD(c_prefix = "Order") third { int32_t y; };

struct AVRO_RECORD() member_macro {
    int64_t MEMBER_MACRO_AVRO_FINGERPRINT;
};
enum AVRO_ENUM() kind { KIND_A, member_macro_avro_type };
typedef struct AVRO_RECORD() other { int32_t x; } Order_avro_size;
