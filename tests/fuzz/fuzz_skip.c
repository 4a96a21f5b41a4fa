/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for avrogen_skip with hostile schemas as well as hostile
 * bytes, as container files bring both: the input is a 2-byte little-endian
 * length, that many bytes of schema JSON, then datums. Skip must never take
 * longer than the bytes and the item budget allow (issue 12: a schema that
 * reuses a record type at every level made it exponential), and it agrees
 * with decode: a datum that decodes is skipped over the same bytes, and a
 * datum that skip refuses does not decode. Decode may refuse what skip takes
 * (it checks UTF-8, block sizes against their items, and has an arena budget).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t len = (size_t)data[0] | (size_t)data[1] << 8;
    if (len > size - 2)
        return 0;
    avrogen_schema *s;
    if (avrogen_schema_parse((const char *)data + 2, len, NULL, &s, NULL) != AVROGEN_OK)
        return 0;
    const avrogen_node *type = avrogen_schema_root(s);
    const uint8_t *in = data + 2 + len;
    size_t n = size - 2 - len;
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)16 << 20);
    avrogen_reader skip, dec;
    avrogen_reader_init(&skip, in, n);
    avrogen_reader_init(&dec, in, n);
    skip.max_items = dec.max_items = 1 << 16;
    /* At most as many datums as bytes, plus one: zero-byte datums must end too. */
    for (size_t k = 0; k <= n; k++) {
        size_t at = avrogen_reader_offset(&skip);
        avrogen_reader_begin_datum(&skip);
        avrogen_status st = avrogen_skip(&skip, type);
        avrogen_value v;
        avrogen_arena_reset(&a);
        avrogen_reader_init(&dec, in + at, n - at);
        dec.max_items = skip.max_items;
        avrogen_status dst = avrogen_value_decode(&dec, type, &v, &a);
        if (dst == AVROGEN_OK &&
            (st != AVROGEN_OK || avrogen_reader_offset(&dec) != avrogen_reader_offset(&skip) - at))
            abort();
        if (st != AVROGEN_OK || avrogen_reader_remaining(&skip) == 0)
            break;
    }
    avrogen_arena_fini(&a);
    avrogen_schema_free(s);
    return 0;
}
