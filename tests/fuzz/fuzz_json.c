/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: JSON text → value (sample schema picked by the first byte) → JSON → value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const schemas[] = {
        "[\"null\",\"long\",\"double\",\"string\",\"bytes\"]",
        "{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":[\"null\",\"float\"]}}",
        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\",\"Y\"]}},"
        "{\"name\":\"next\",\"type\":[\"null\",\"R\"]}]}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *json = schemas[data[0] % (sizeof schemas / sizeof *schemas)];
    avrogen_schema *s;
    if (avrogen_schema_parse(json, strlen(json), NULL, &s, NULL) != AVROGEN_OK)
        abort();
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, (size_t)64 << 20);
    avrogen_value v;
    avrogen_diag d;
    if (avrogen_value_from_json((const char *)data + 1, size - 1, avrogen_schema_root(s), &v, &a,
                                &d) == AVROGEN_OK) {
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (avrogen_value_to_json(&w, &v, 0) != AVROGEN_OK)
            abort();
        avrogen_value back;
        if (avrogen_value_from_json((const char *)avrogen_writer_data(&w), avrogen_writer_len(&w),
                                    avrogen_schema_root(s), &back, &a, &d) != AVROGEN_OK ||
            !avrogen_value_equal(&v, &back))
            abort();
        avrogen_writer_fini(&w);
    }
    avrogen_arena_fini(&a);
    avrogen_schema_free(s);
    return 0;
}
