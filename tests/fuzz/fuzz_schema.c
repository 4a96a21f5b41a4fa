/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: schema text → parse, canonical form, which must parse again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    avrogen_schema *s;
    avrogen_diag d;
    if (avrogen_schema_parse((const char *)data, size, NULL, &s, &d) != AVROGEN_OK)
        return 0;
    /* The canonical form is itself a valid schema. (It need not have the same
     * canonical form: a null-namespace type nested in a namespaced record takes
     * the enclosing namespace when reparsed; see test_schema.c.) */
    const char *canon = avrogen_schema_canonical(s);
    avrogen_schema *again;
    if (avrogen_schema_parse(canon, strlen(canon), NULL, &again, &d) != AVROGEN_OK)
        abort();
    avrogen_schema_free(again);
    avrogen_schema_free(s);
    return 0;
}
