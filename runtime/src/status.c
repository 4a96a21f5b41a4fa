/* SPDX-License-Identifier: Apache-2.0 */
/* Status texts and the libc allocator hook. */
#include "avrogen/status.h"

#include <stdlib.h>

#include "avrogen/alloc.h"

const char *avrogen_status_str(avrogen_status s)
{
    switch (s) {
#define AVROGEN_STATUS_CASE(name, text) \
    case AVROGEN_##name:                \
        return text;
        AVROGEN_STATUS_LIST(AVROGEN_STATUS_CASE)
#undef AVROGEN_STATUS_CASE
    }
    return "unknown status";
}

static void *libc_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

const avrogen_alloc avrogen_alloc_libc = {libc_alloc, NULL};

void *avrogen_realloc(const avrogen_alloc *a, void *ptr, size_t old_size, size_t new_size)
{
    if (a == NULL || a->fn == NULL)
        a = &avrogen_alloc_libc;
    return a->fn(a->ctx, ptr, old_size, new_size);
}

void *avrogen_malloc(const avrogen_alloc *a, size_t size)
{
    return avrogen_realloc(a, NULL, 0, size == 0 ? 1 : size);
}

void avrogen_free(const avrogen_alloc *a, void *ptr, size_t size)
{
    if (ptr != NULL)
        (void)avrogen_realloc(a, ptr, size, 0);
}
