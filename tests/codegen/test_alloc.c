/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocation contract of generated code (DESIGN.md "Generated API"):
 * encoding never allocates, and decoding allocates only from the caller's
 * arena, so a loop that resets the arena per record performs no malloc in
 * steady state. Every malloc, calloc and realloc of the process is counted
 * through the linker's --wrap; the arena gets a counting allocator of its own,
 * so the first (cold) decode can be shown to allocate through it and nothing
 * else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_strings.avro.h"
#include "cg_unions.avro.h"
#include "cg_util.h"

/* --wrap=malloc sends every call to __wrap_malloc; __real_malloc is libc's. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

static long heap_calls;

void *__wrap_malloc(size_t size)
{
    heap_calls++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    heap_calls++;
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    if (size != 0)
        heap_calls++;
    return __real_realloc(p, size);
}

/* The arena's allocator: libc, counted separately. */
static long arena_calls;

static void *counting_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    arena_calls++;
    return realloc(ptr, new_size);
}

CG_ADAPTERS(logicals, logicals_t)
CG_ADAPTERS(texts, struct texts)
CG_ADAPTERS(maybe_texts, struct maybe_texts)
CG_ADAPTERS(palette, struct palette)
CG_ADAPTERS(drawing, struct drawing)
CG_ADAPTERS(tree, struct tree)
CG_ADAPTERS(company, struct company)
CG_ADAPTERS(arrays, struct arrays)
CG_ADAPTERS(maps, struct maps)
CG_ADAPTERS(shape, struct shape)

static const cg_case cases[] = {
        CG_CASE(logicals), CG_CASE(texts), CG_CASE(maybe_texts), CG_CASE(palette),
        CG_CASE(drawing),  CG_CASE(tree),  CG_CASE(company),     CG_CASE(arrays),
        CG_CASE(maps),     CG_CASE(shape),
};

static int failures;

#define CHECK(cond, ...)                           \
    do {                                           \
        if (!(cond)) {                             \
            fprintf(stderr, "FAIL: " __VA_ARGS__); \
            fputc('\n', stderr);                   \
            failures++;                            \
        }                                          \
    } while (0)

static void run(const cg_case *c, cg_rng *g)
{
    avrogen_arena data;
    avrogen_arena_init(&data, NULL);
    void *v = calloc(1, c->type->size);
    void *back = calloc(1, c->type->size);
    cg_fill(g, c->type, v, &data, 4);
    size_t len = c->size(v);
    uint8_t *buf = malloc(len + 1);

    avrogen_alloc counting = {counting_alloc, NULL};
    avrogen_arena arena;
    avrogen_arena_init(&arena, &counting);

    /* Cold: whatever decoding allocates, it allocates through the arena. */
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, len + 1);
    long heap0 = heap_calls, arena0 = arena_calls;
    CHECK(c->encode(&w, v) == AVROGEN_OK, "%s: encode", c->name);
    CHECK(heap_calls == heap0, "%s: encode called malloc", c->name);
    avrogen_reader r;
    avrogen_reader_init(&r, buf, len);
    CHECK(c->decode(&r, back, &arena) == AVROGEN_OK, "%s: decode", c->name);
    CHECK(heap_calls - heap0 == arena_calls - arena0,
          "%s: decode allocated %ld times, the arena %ld times", c->name, heap_calls - heap0,
          arena_calls - arena0);

    /* Steady state: no allocation at all. */
    heap0 = heap_calls;
    for (int i = 0; i < 1000; i++) {
        avrogen_writer_init_fixed(&w, buf, len + 1);
        if (c->encode(&w, v) != AVROGEN_OK || avrogen_writer_len(&w) != len)
            CHECK(false, "%s: encode %d", c->name, i);
        avrogen_arena_reset(&arena);
        avrogen_reader_init(&r, buf, len);
        if (c->decode(&r, back, &arena) != AVROGEN_OK)
            CHECK(false, "%s: decode %d", c->name, i);
    }
    CHECK(heap_calls == heap0, "%s: %ld allocations in 1000 encode/decode rounds", c->name,
          heap_calls - heap0);

    /* A growable writer that is reused stops growing too. */
    avrogen_writer gw;
    avrogen_writer_init_growable(&gw, NULL);
    CHECK(c->encode(&gw, v) == AVROGEN_OK, "%s: growable encode", c->name);
    heap0 = heap_calls;
    for (int i = 0; i < 100; i++) {
        avrogen_writer_reset(&gw);
        if (c->encode(&gw, v) != AVROGEN_OK)
            CHECK(false, "%s: growable encode %d", c->name, i);
    }
    CHECK(heap_calls == heap0, "%s: a reused growable writer allocated", c->name);
    avrogen_writer_fini(&gw);

    avrogen_arena_fini(&arena);
    free(buf);
    free(back);
    free(v);
    avrogen_arena_fini(&data);
}

int main(void)
{
    cg_rng g = {UINT64_C(0x243f6a8885a308d3)};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int k = 0; k < 20; k++)
            run(&cases[i], &g);
    /* The wrappers are live: building the test data went through them. */
    CHECK(heap_calls > 0, "the malloc wrappers counted nothing");
    if (failures != 0) {
        fprintf(stderr, "%d failures\n", failures);
        return EXIT_FAILURE;
    }
    printf("codegen_alloc: ok\n");
    return EXIT_SUCCESS;
}
