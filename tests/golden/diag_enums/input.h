/* Enums need one symbol per value and unique symbols. */
#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "ALIAS_") alias {
    ALIAS_FIRST,
    ALIAS_DEFAULT = ALIAS_FIRST,
    ALIAS_SECOND,
};

enum AVRO_ENUM(default = "THIRD", strip_prefix = "CLASH_") clash {
    CLASH_A AVRO_FIELD(name = "B"),
    CLASH_B,
};

struct AVRO_RECORD() uses { enum alias a; enum clash c; };
