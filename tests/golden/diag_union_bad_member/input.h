/* A union member that cannot be mapped, followed by more members (issue 12:
 * the next member's duplicate-branch check read the failed one's missing type
 * and crashed; the issue's `long` maps since, so these use shapes that are
 * still errors). Each bad member is reported; the others are checked as usual. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() obj {
    int32_t type;
    union {
        double *bad;
        int32_t i;
    } via AVRO_UNION(type);
};

struct AVRO_RECORD() more {
    int32_t tag;
    union {
        int32_t a;
        double *bad;
        int32_t b;
        void (*worse)(void);
        char *text;
    } u AVRO_UNION(tag);
};
