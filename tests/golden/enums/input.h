/* C enums: symbols are the enumerator names with a shared PREFIX_ stripped;
 * explicit and non-contiguous values; docs; options. */
#include <avrogen/annotate.h>

/** Traffic light colors. */
enum AVRO_ENUM() light {
    LIGHT_RED = 1,       ///< stop
    LIGHT_AMBER = 5,     ///< careful
    LIGHT_GREEN = 10     ///< go
};

/* No common prefix: names stay. */
enum AVRO_ENUM() shape { CIRCLE, SQUARE = 7, TRIANGLE = 3 };

/* Options, and a longer shared prefix ("HTTP_STATUS_"). */
enum AVRO_ENUM(name = "HttpStatus", namespace = "net.http", aliases = ["Status"], default = "OK")
        http_status {
    HTTP_STATUS_OK = 200,
    HTTP_STATUS_NOT_FOUND = 404,
    HTTP_STATUS_TEAPOT = 418,
};

/* Stripping would leave "1ST": the prefix is kept where a symbol must start with a letter. */
enum AVRO_ENUM() place { PLACE_1ST, PLACE_2ND };

/* Negative values and a per-enumerator name. */
typedef enum AVRO_ENUM() {
    DIR_DOWN = -1,
    DIR_NONE AVRO_FIELD(name = "Still", doc = "not moving") = 0,
    DIR_UP = 1,
} direction_t;

struct AVRO_RECORD() signal {
    enum light light;
    enum shape shape;
    enum http_status status;
    enum place place;
    direction_t direction;
};
