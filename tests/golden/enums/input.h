/* C enums: symbols are the enumerator names as written, less the prefix
 * strip_prefix states; explicit and non-contiguous values; docs; options. */
#include <avrogen/annotate.h>

/** Traffic light colors. */
enum AVRO_ENUM(strip_prefix = "LIGHT_") light {
    LIGHT_RED = 1,       ///< stop
    LIGHT_AMBER = 5,     ///< careful
    LIGHT_GREEN = 10     ///< go
};

/* No common prefix: names stay. */
enum AVRO_ENUM() shape { CIRCLE, SQUARE = 7, TRIANGLE = 3 };

/* Options; default names a symbol, after stripping. */
enum AVRO_ENUM(name = "HttpStatus", namespace = "net.http", aliases = ["Status"], default = "OK",
               strip_prefix = "HTTP_STATUS_") http_status {
    HTTP_STATUS_OK = 200,
    HTTP_STATUS_NOT_FOUND = 404,
    HTTP_STATUS_TEAPOT = 418,
};

/* No strip_prefix: the names as written, whatever they share. */
enum AVRO_ENUM() place { PLACE_1ST, PLACE_2ND };

/* gpsd's fix modes: MODE_2D and MODE_3D cannot lose "MODE_", so they are named;
 * adding or removing an enumerator renames no other. */
enum AVRO_ENUM(strip_prefix = "MODE_") gps_mode {
    MODE_NOT_SEEN,
    MODE_NO_FIX,
    MODE_2D AVRO_FIELD(name = "FIX_2D"),
    MODE_3D AVRO_FIELD(name = "FIX_3D"),
};

/* Negative values and a per-enumerator name. */
typedef enum AVRO_ENUM(strip_prefix = "DIR_") {
    DIR_DOWN = -1,
    DIR_NONE AVRO_FIELD(name = "Still", doc = "not moving") = 0,
    DIR_UP = 1,
} direction_t;

struct AVRO_RECORD() signal {
    enum light light;
    enum shape shape;
    enum http_status status;
    enum place place;
    enum gps_mode mode;
    direction_t direction;
};
