/* A library's stream, as zlib's z_stream: its state points at a struct the
 * library defines only in its own sources. */
#ifndef VENDOR_STREAM_H
#define VENDOR_STREAM_H

struct vendor_state;

typedef struct vendor_stream {
    unsigned long total_in;
    struct vendor_state *state;
} vendor_stream;

#endif
