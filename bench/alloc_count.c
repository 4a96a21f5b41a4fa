/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Heap accounting for the bench: the executable defines malloc and friends,
 * which interposes them for every library in the process (avro-c, libstdc++,
 * the runtime), counts the call and forwards it to glibc's own entry points.
 * free, being no allocation, is forwarded uncounted. Single-threaded by
 * design: the counter is a plain integer, so that counting does not add a
 * locked instruction to the rows that allocate. glibc only.
 *
 * The definitions are exported explicitly: under -fvisibility=hidden (the
 * avrogen project's default) the executable would keep them to itself, and
 * the shared libraries' calls would go to glibc uncounted.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

/* glibc's implementations, which its own malloc and friends are aliases of. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);

void *memalign(size_t align, size_t size);

#define INTERPOSE __attribute__((visibility("default")))

static uint64_t calls;

uint64_t bench_alloc_calls(void)
{
    return calls;
}

INTERPOSE void *malloc(size_t size)
{
    calls++;
    return __libc_malloc(size);
}

INTERPOSE void *calloc(size_t n, size_t size)
{
    calls++;
    return __libc_calloc(n, size);
}

INTERPOSE void *realloc(void *ptr, size_t size)
{
    calls++;
    return __libc_realloc(ptr, size);
}

INTERPOSE void free(void *ptr)
{
    __libc_free(ptr);
}

INTERPOSE void *memalign(size_t align, size_t size)
{
    calls++;
    return __libc_memalign(align, size);
}

INTERPOSE void *aligned_alloc(size_t align, size_t size)
{
    calls++;
    return __libc_memalign(align, size);
}

INTERPOSE int posix_memalign(void **out, size_t align, size_t size)
{
    calls++;
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = __libc_memalign(align, size);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}
