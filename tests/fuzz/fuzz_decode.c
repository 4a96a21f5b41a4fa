/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the binary decoder: the first byte picks a sample schema,
 * the rest is decoded as datums. Decode, skip and re-encode must agree: a datum
 * that decodes is skipped over exactly the same bytes and re-encodes to the
 * bytes it came from whenever the input used single-block encoding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const schemas[] = {
        "\"long\"",
        "[\"null\",\"int\",\"string\",{\"type\":\"array\",\"items\":\"double\"}]",
        "{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"null\"}}",
        "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"v\",\"type\":\"bytes\"},"
        "{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":\"Node\"}},"
        "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}",
        "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}},"
        "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
        "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"float\"}},"
        "{\"name\":\"b\",\"type\":\"boolean\"},{\"name\":\"s\",\"type\":\"string\"}]}",
        "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"Empty\",\"fields\":[]}}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *json = schemas[data[0] % (sizeof schemas / sizeof *schemas)];
    avrogen_schema *s;
    if (avrogen_schema_parse(json, strlen(json), NULL, &s, NULL) != AVROGEN_OK)
        abort();
    const avrogen_node *type = avrogen_schema_root(s);
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)64 << 20);
    avrogen_reader r, skip;
    avrogen_reader_init(&r, data + 1, size - 1);
    r.max_items = 1 << 16;
    avrogen_reader_init(&skip, data + 1, size - 1);
    skip.max_items = r.max_items;
    while (avrogen_reader_remaining(&r) != 0) {
        avrogen_value v;
        avrogen_arena_reset(&a);
        if (avrogen_value_decode(&r, type, &v, &a) != AVROGEN_OK)
            break;
        avrogen_reader_begin_datum(&skip);
        if (avrogen_skip(&skip, type) != AVROGEN_OK ||
            avrogen_reader_offset(&skip) != avrogen_reader_offset(&r))
            abort();
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (avrogen_value_encode(&w, &v) != AVROGEN_OK ||
            avrogen_value_size(&v) != avrogen_writer_len(&w))
            abort();
        avrogen_reader again;
        avrogen_reader_init(&again, avrogen_writer_data(&w), avrogen_writer_len(&w));
        avrogen_value v2;
        if (avrogen_value_decode(&again, type, &v2, &a) != AVROGEN_OK ||
            !avrogen_value_equal(&v, &v2))
            abort();
        avrogen_writer_fini(&w);
    }
    avrogen_arena_fini(&a);
    avrogen_schema_free(s);
    return 0;
}
