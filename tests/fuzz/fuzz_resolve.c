/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for schema resolution: the first byte picks a (writer,
 * reader) pair, the rest is decoded as datums of the writer resolved to the
 * reader. Whatever decodes must re-encode and decode again with the reader
 * schema alone to an equal value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const pairs[][2] = {
        {"[\"int\",\"string\",\"null\"]", "[\"null\",\"double\",\"bytes\"]"},
        {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
         "{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
         "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"P\",\"Q\","
         "\"Z\"]}}]}",
         "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"e\",\"type\":{\"type\":"
         "\"enum\","
         "\"name\":\"E\",\"symbols\":[\"Q\",\"P\"],\"default\":\"P\"}},"
         "{\"name\":\"b\",\"aliases\":[\"a\"],\"type\":\"double\"},"
         "{\"name\":\"d\",\"type\":{\"type\":\"map\",\"values\":\"long\"},\"default\":{\"k\":1}}]"
         "}"},
        {"{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"v\",\"type\":\"long\"},"
         "{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}",
         "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\","
         "\"L\"]},"
         "{\"name\":\"v\",\"type\":\"float\"}]}"},
};

static avrogen_schema *parse(const char *json)
{
    avrogen_schema *s;
    if (avrogen_schema_parse(json, strlen(json), NULL, &s, NULL) != AVROGEN_OK)
        abort();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *const *pair = pairs[data[0] % (sizeof pairs / sizeof *pairs)];
    avrogen_schema *writer = parse(pair[0]), *reader = parse(pair[1]);
    const avrogen_node *rtype = avrogen_schema_root(reader);
    avrogen_resolver *res;
    if (avrogen_resolver_new(avrogen_schema_root(writer), rtype, NULL, &res, NULL) != AVROGEN_OK)
        abort();
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)64 << 20);
    avrogen_reader r;
    avrogen_reader_init(&r, data + 1, size - 1);
    r.max_items = 1 << 16;
    while (avrogen_reader_remaining(&r) != 0) {
        avrogen_value v, again;
        avrogen_arena_reset(&a);
        if (avrogen_resolver_decode(res, &r, &v, &a) != AVROGEN_OK)
            break;
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (avrogen_value_encode(&w, &v) != AVROGEN_OK)
            abort();
        avrogen_reader rr;
        avrogen_reader_init(&rr, avrogen_writer_data(&w), avrogen_writer_len(&w));
        if (avrogen_value_decode(&rr, rtype, &again, &a) != AVROGEN_OK ||
            !avrogen_value_equal(&v, &again))
            abort();
        avrogen_writer_fini(&w);
    }
    avrogen_arena_fini(&a);
    avrogen_resolver_free(res);
    avrogen_schema_free(reader);
    avrogen_schema_free(writer);
    return 0;
}
