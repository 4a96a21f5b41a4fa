/* SPDX-License-Identifier: Apache-2.0 */
/* The arena: alignment, chunk reuse across resets, the byte budget, and OOM. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/arena.h"

#include "testutil.h"

START_TEST(alignment_and_contents)
{
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    unsigned char *prev = NULL;
    for (size_t n = 0; n < 300; n++) {
        unsigned char *p = avrogen_arena_alloc(&a, n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % AVROGEN_ARENA_ALIGN, 0);
        ck_assert_ptr_ne(p, prev);
        memset(p, (int)n, n);
        prev = p;
    }
    char *s = avrogen_arena_strndup(&a, "hello world", 5);
    ck_assert_str_eq(s, "hello");
    int *z = avrogen_arena_calloc(&a, 100, sizeof *z);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(z[i], 0);
    ck_assert_ptr_null(avrogen_arena_calloc(&a, SIZE_MAX / 2, 4));
    ck_assert_ptr_null(avrogen_arena_alloc(&a, SIZE_MAX - 3));
    avrogen_arena_fini(&a);
}
END_TEST

START_TEST(reset_reuses_chunks)
{
    test_alloc ta;
    test_alloc_init(&ta, 0);
    avrogen_arena a;
    avrogen_arena_init(&a, &ta.base);
    for (int i = 0; i < 1000; i++)
        ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 100));
    long calls = ta.calls;
    size_t reserved = a.reserved;
    /* Steady state: the same pattern after reset allocates nothing new. */
    for (int round = 0; round < 10; round++) {
        avrogen_arena_reset(&a);
        ck_assert_uint_eq(avrogen_arena_used(&a), 0);
        for (int i = 0; i < 1000; i++)
            ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 100));
    }
    ck_assert_int_eq(ta.calls, calls);
    ck_assert_uint_eq(a.reserved, reserved);
    /* A large block after reset skips small chunks and recycles later ones. */
    avrogen_arena_reset(&a);
    ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 20000));
    avrogen_arena_fini(&a);
    ck_assert_int_eq(ta.live, 0);
}
END_TEST

START_TEST(budget)
{
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_arena_set_budget(&a, 1024);
    ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 1000));
    ck_assert_ptr_null(avrogen_arena_alloc(&a, 100));
    ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 16)); /* 1008 + 16 fits */
    ck_assert_ptr_null(avrogen_arena_alloc(&a, 1));
    ck_assert_uint_le(avrogen_arena_used(&a), 1024);
    avrogen_arena_reset(&a);
    ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 1024));
    /* Huge requests fail before any allocation is attempted. */
    ck_assert_ptr_null(avrogen_arena_alloc(&a, (size_t)1 << 40));
    avrogen_arena_set_budget(&a, 0); /* unlimited */
    ck_assert_ptr_nonnull(avrogen_arena_alloc(&a, 100000));
    avrogen_arena_fini(&a);
}
END_TEST

START_TEST(out_of_memory)
{
    for (long fail = 1; fail <= 5; fail++) {
        test_alloc ta;
        test_alloc_init(&ta, fail);
        avrogen_arena a;
        avrogen_arena_init(&a, &ta.base);
        int failures = 0;
        for (int i = 0; i < 200; i++)
            if (avrogen_arena_alloc(&a, 512) == NULL)
                failures++;
        ck_assert_int_eq(failures, 1); /* only the injected call fails; the arena recovers */
        avrogen_arena_fini(&a);
        ck_assert_int_eq(ta.live, 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, alignment_and_contents);
    tcase_add_test(tc, reset_reuses_chunks);
    tcase_add_test(tc, budget);
    tcase_add_test(tc, out_of_memory);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
