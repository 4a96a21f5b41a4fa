/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: container file bytes → header, blocks, datums, values. */
#include <stdint.h>
#include <string.h>

#include "avrogen/ocf.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    avrogen_ocf_reader_options o = {.max_block_size = (size_t)4 << 20};
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open_memory(data, size, &o, &r, NULL) != AVROGEN_OK)
        return 0;
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_reader_schema(r));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)64 << 20);
    avrogen_bytes datum;
    while (avrogen_ocf_reader_next_datum(r, &datum) == AVROGEN_OK && datum.ptr != NULL) {
        avrogen_reader dr;
        avrogen_reader_init(&dr, datum.ptr, datum.len);
        dr.max_items = 1 << 16;
        avrogen_value v;
        avrogen_arena_reset(&a);
        (void)avrogen_value_decode(&dr, type, &v, &a);
    }
    avrogen_arena_fini(&a);
    avrogen_ocf_reader_close(r);
    return 0;
}
