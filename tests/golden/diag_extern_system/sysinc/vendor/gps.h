/* A vendor header found through -isystem. */
#include <stdint.h>

struct vendor_fix {
    int32_t lat_e7;
    int32_t lon_e7;
    struct vendor_fix *prev;
    void *driver;
};
