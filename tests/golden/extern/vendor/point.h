/* A vendor header that cannot be edited: no annotations. */
#ifndef VENDOR_POINT_H
#define VENDOR_POINT_H
#include <stddef.h>
#include <stdint.h>

enum vendor_color { VENDOR_COLOR_RED, VENDOR_COLOR_GREEN };

struct vendor_point {
    int32_t x;
    int32_t y;
    char *label;
    struct vendor_point *next;
    int32_t *history;
    size_t n_history;
    enum vendor_color color;
    void *user_data;
};
#endif
