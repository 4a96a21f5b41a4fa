/* A vendor's header, included as a system header (-isystem): not the user's to edit. */
#ifndef VENDOR_BUF_H
#define VENDOR_BUF_H
#include <stddef.h>
#include <stdint.h>
struct vendor_buf {
    void *data;
    size_t data_len;
    void *opaque;
};
#endif
