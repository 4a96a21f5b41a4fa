/* SPDX-License-Identifier: Apache-2.0 */
/* Round-trips an order through the generated code. It touches only `id`, so
 * it compiles with every variant of order.h that cmake_test.py tries. */
#include <stdio.h>
#include <string.h>

#include "order.avro.h"

int main(void)
{
    struct order in, out;
    memset(&in, 0, sizeof in);
    in.id = 42;
    uint8_t buf[64];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    if (order_avro_encode(&w, &in) != AVROGEN_OK) {
        fprintf(stderr, "order: encode failed\n");
        return 1;
    }
    avrogen_reader r;
    avrogen_reader_init(&r, buf, avrogen_writer_len(&w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    int ok = order_avro_decode(&r, &out, &a) == AVROGEN_OK && out.id == 42;
    avrogen_arena_fini(&a);
    if (!ok) {
        fprintf(stderr, "order: decode failed\n");
        return 1;
    }
    printf("order ok: %zu bytes\n", avrogen_writer_len(&w));
    return 0;
}
