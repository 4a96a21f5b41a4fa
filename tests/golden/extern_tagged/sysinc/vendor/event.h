/* A vendor's header, found through -isystem and not to be edited: tagged
 * unions whose tag values are not the branch positions, as a named union, a
 * typedef'd union and an anonymous union declared inline. */
#ifndef VENDOR_EVENT_H
#define VENDOR_EVENT_H

#include <stdint.h>

enum vendor_event_kind { VENDOR_KEY = 1, VENDOR_MOTION = 2, VENDOR_TEXT = 4 };

struct vendor_motion {
    int32_t dx, dy;
};

struct vendor_event {
    enum vendor_event_kind kind;
    union {
        int32_t key;
        struct vendor_motion motion;
        char text[32];
    } u;
};

#define VENDOR_VALUE_INT 0x10
#define VENDOR_VALUE_REAL 0x20
#define VENDOR_VALUE_NONE 0x30

union vendor_value {
    int64_t i;
    double d;
    char none;
};

typedef union {
    int32_t small;
    int64_t big;
} vendor_num_t;

struct vendor_reading {
    uint8_t type;
    union vendor_value value;
    int16_t width;
    vendor_num_t num;
};

#endif
