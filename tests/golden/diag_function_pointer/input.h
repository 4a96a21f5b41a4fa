/* Function pointers cannot be serialized. */
#include <avrogen/annotate.h>

struct AVRO_RECORD() handler {
    int id;
    void (*callback)(int);
};
