/* namespace = "" (or null): the null namespace, also for a type defined
 * inside a record of another namespace ("namespace": "" in the .avsc). */
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "", strip_prefix = "PLAIN_") plain { PLAIN_A, PLAIN_B };

struct AVRO_RECORD(namespace = null) bare { int32_t x; };

struct AVRO_RECORD(namespace = "x") inner {
    enum plain e;                  /* defined here, in the null namespace */
    struct bare b;
    uint8_t code[4] AVRO_FIXED_NAME(Code, namespace = ""); /* a fixed too */
};

struct AVRO_RECORD() outer {       /* the null namespace: refers to plain by its name */
    struct inner s;
    enum plain again;
    struct bare b2;
};
