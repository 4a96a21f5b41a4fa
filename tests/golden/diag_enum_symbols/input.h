/* Symbols never change silently: the prefix to strip is stated, and an
 * enumerator it leaves without a valid symbol is an error that says how to
 * name it, in place or out of line. */
#include <vendor/gps.h>

#include <avrogen/annotate.h>

/* gpsd's modes: "MODE_3D" less "MODE_" is "3D". */
enum AVRO_ENUM(strip_prefix = "MODE_") gps_mode {
    MODE_NOT_SEEN,
    MODE_NO_FIX,
    MODE_2D AVRO_FIELD(name = "FIX_2D"),
    MODE_3D,
    STATUS_DGPS,
};

AVRO_EXTERN_ENUM(enum vendor_mode, name = "VendorMode", strip_prefix = "VENDOR_MODE_");

enum AVRO_ENUM(strip_prefix = "7_") bad_prefix { SEVEN };

enum AVRO_ENUM(strip_prefix = "LEVEL_", default = "MEDIUM") level { LEVEL_LOW, LEVEL_HIGH };

AVRO_EXTERN_FIELD(enum level, LEVEL_MID, AVRO_FIELD(name = "MID"));

struct AVRO_RECORD() fix {
    enum gps_mode mode;
    enum vendor_mode vendor;
    enum bad_prefix bad;
    enum level level AVRO_FIELD(default = "HIGHEST");
};
