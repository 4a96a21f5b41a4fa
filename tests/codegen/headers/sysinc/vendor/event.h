/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: a vendor's header, found through -isystem and not to be
 * edited, whose structs hold tagged unions with tag values that are not the
 * branch positions: an anonymous union declared inline, a named union and a
 * typedef'd one (cg_vendor.h annotates them out of line). */
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
#define VENDOR_VALUE_TEXT 0x20
#define VENDOR_VALUE_NONE 0x30

union vendor_value {
    int64_t i;
    char text[24];
    char none;
};

typedef union {
    int32_t number;
    char name[16];
} vendor_id_t;

struct vendor_reading {
    uint8_t type;
    union vendor_value value;
    char id_kind; /* 'n', or 's' / 'S' */
    vendor_id_t id;
};

#endif
