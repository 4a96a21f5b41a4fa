/* SPDX-License-Identifier: Apache-2.0 */
/* A stand-in for the vendor header annotate.h's out-of-line example names:
 * the types it annotates, as a library the user cannot edit would declare
 * them. Found only through -idirafter, so it never shadows a real header. */
#ifndef VENDOR_POINT_H
#define VENDOR_POINT_H

#include <stddef.h>

struct point {
    double x, y;
    struct point *next;
    char **tags;
    size_t n_tags;
};

enum vendor_color { VENDOR_RED, VENDOR_GREEN, VENDOR_BLUE };

enum vendor_kind { VENDOR_KEY = 1, VENDOR_REAL = 4 };

struct vendor_event {
    enum vendor_kind kind;
    union {
        const char *key;
        double real;
    } u;
};

#endif
