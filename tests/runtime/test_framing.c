/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Single-object encoding, Confluent framing and the fingerprint → schema set.
 * The single-object header of "int" (C3 01 8F 5C 39 3F 1A D5 75 72) is the one
 * in Ruby avro's test suite for the same schema; the Confluent layout (magic 0,
 * 4-byte big-endian schema id) is the schema registry's documented wire format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/framing.h"
#include "avrogen/value.h"

#include "testutil.h"

static avrogen_schema *parse(const char *json)
{
    avrogen_schema *s = NULL;
    ck_assert_int_eq(avrogen_schema_parse(json, strlen(json), NULL, &s, NULL), AVROGEN_OK);
    return s;
}

START_TEST(soe_known_answer)
{
    avrogen_schema *s = parse("\"int\"");
    uint8_t buf[32];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_soe_write_header(&w, avrogen_schema_fingerprint64(s));
    avrogen_write_int(&w, 42);
    static const uint8_t want[] = {0xc3, 0x01, 0x8f, 0x5c, 0x39, 0x3f,
                                   0x1a, 0xd5, 0x75, 0x72, 0x54};
    ck_assert_uint_eq(avrogen_writer_len(&w), sizeof want);
    ck_assert_mem_eq(buf, want, sizeof want);

    avrogen_schema *other = parse("\"string\"");
    avrogen_schema_set *set;
    ck_assert_int_eq(avrogen_schema_set_new(NULL, &set), AVROGEN_OK);
    ck_assert_int_eq(avrogen_schema_set_add(set, other), AVROGEN_OK);
    ck_assert_int_eq(avrogen_schema_set_add(set, s), AVROGEN_OK);
    ck_assert_int_eq(avrogen_schema_set_add(set, s), AVROGEN_OK); /* again: no-op */

    avrogen_reader r;
    const avrogen_schema *writer;
    ck_assert_int_eq(avrogen_soe_open(set, buf, sizeof want, &r, &writer), AVROGEN_OK);
    ck_assert_ptr_eq(writer, s);
    ck_assert_int_eq(avrogen_read_int(&r), 42);
    ck_assert_uint_eq(avrogen_reader_remaining(&r), 0);

    /* A fingerprint nobody registered. */
    buf[5] ^= 0xff;
    ck_assert_int_eq(avrogen_soe_open(set, buf, sizeof want, &r, &writer), AVROGEN_E_MISMATCH);
    ck_assert_ptr_null(writer);
    ck_assert_uint_eq(r.err_offset, 2);
    buf[5] ^= 0xff;
    /* Not single-object encoded. */
    buf[1] = 0x02;
    ck_assert_int_eq(avrogen_soe_open(set, buf, sizeof want, &r, &writer), AVROGEN_E_INVALID);
    buf[1] = 0x01;
    /* Every truncation of the header. */
    for (size_t cut = 0; cut < AVROGEN_SOE_HEADER_SIZE; cut++)
        ck_assert_int_eq(avrogen_soe_open(set, buf, cut, &r, &writer), AVROGEN_E_TRUNCATED);

    avrogen_schema_set_free(set);
    avrogen_schema_free(other);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(soe_value_round_trip)
{
    avrogen_schema *s =
            parse("{\"type\":\"record\",\"name\":\"P\",\"fields\":["
                  "{\"name\":\"x\",\"type\":\"long\"},{\"name\":\"s\",\"type\":\"string\"}]}");
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    avrogen_value v;
    const char *json = "{\"x\": -7, \"s\": \"hi\"}";
    ck_assert_int_eq(
            avrogen_value_from_json(json, strlen(json), avrogen_schema_root(s), &v, &a, NULL),
            AVROGEN_OK);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    avrogen_soe_write_header(&w, avrogen_schema_fingerprint64(s));
    ck_assert_int_eq(avrogen_value_encode(&w, &v), AVROGEN_OK);

    avrogen_schema_set *set;
    ck_assert_int_eq(avrogen_schema_set_new(NULL, &set), AVROGEN_OK);
    ck_assert_int_eq(avrogen_schema_set_add(set, s), AVROGEN_OK);
    avrogen_reader r;
    const avrogen_schema *writer;
    ck_assert_int_eq(
            avrogen_soe_open(set, avrogen_writer_data(&w), avrogen_writer_len(&w), &r, &writer),
            AVROGEN_OK);
    avrogen_value back;
    ck_assert_int_eq(avrogen_value_decode(&r, avrogen_schema_root(writer), &back, &a), AVROGEN_OK);
    ck_assert(avrogen_value_equal(&v, &back));
    avrogen_schema_set_free(set);
    avrogen_writer_fini(&w);
    avrogen_arena_fini(&a);
    avrogen_schema_free(s);
}
END_TEST

START_TEST(confluent_header)
{
    uint8_t buf[16];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    avrogen_confluent_write_header(&w, 0x01020304u);
    avrogen_write_long(&w, 1);
    static const uint8_t want[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x02};
    ck_assert_uint_eq(avrogen_writer_len(&w), sizeof want);
    ck_assert_mem_eq(buf, want, sizeof want);

    avrogen_reader r;
    uint32_t id;
    avrogen_reader_init(&r, buf, sizeof want);
    ck_assert_int_eq(avrogen_confluent_read_header(&r, &id), AVROGEN_OK);
    ck_assert_uint_eq(id, 0x01020304u);
    ck_assert(avrogen_read_long(&r) == 1);
    for (size_t cut = 0; cut < AVROGEN_CONFLUENT_HEADER_SIZE; cut++) {
        avrogen_reader_init(&r, buf, cut);
        ck_assert_int_eq(avrogen_confluent_read_header(&r, &id), AVROGEN_E_TRUNCATED);
    }
    buf[0] = 1;
    avrogen_reader_init(&r, buf, sizeof want);
    ck_assert_int_eq(avrogen_confluent_read_header(&r, &id), AVROGEN_E_INVALID);
}
END_TEST

enum { N_SCHEMAS = 200 };

START_TEST(schema_set_many)
{
    avrogen_schema *s[N_SCHEMAS];
    char json[128];
    for (int i = 0; i < N_SCHEMAS; i++) {
        snprintf(json, sizeof json, "{\"type\":\"fixed\",\"name\":\"F%d\",\"size\":%d}", i, i);
        s[i] = parse(json);
    }
    /* Fail each allocation in turn; the set stays consistent and leak-free. */
    for (long fail = 1;; fail++) {
        test_alloc ta;
        test_alloc_init(&ta, fail);
        avrogen_schema_set *set;
        avrogen_status st = avrogen_schema_set_new(&ta.base, &set);
        int added = 0;
        while (st == AVROGEN_OK && added < N_SCHEMAS) {
            st = avrogen_schema_set_add(set, s[added]);
            if (st == AVROGEN_OK)
                added++;
        }
        if (set != NULL) {
            for (int i = 0; i < added; i++)
                ck_assert_ptr_eq(avrogen_schema_set_find(set, avrogen_schema_fingerprint64(s[i])),
                                 s[i]);
            ck_assert_ptr_null(avrogen_schema_set_find(set, 12345));
        }
        avrogen_schema_set_free(set);
        ck_assert_int_eq(ta.live, 0);
        if (st == AVROGEN_OK)
            break;
        ck_assert_int_eq(st, AVROGEN_E_NOMEM);
    }
    for (int i = 0; i < N_SCHEMAS; i++)
        avrogen_schema_free(s[i]);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("framing");
    TCase *tc = tcase_create("single_object");
    tcase_add_test(tc, soe_known_answer);
    tcase_add_test(tc, soe_value_round_trip);
    suite_add_tcase(su, tc);
    tc = tcase_create("confluent");
    tcase_add_test(tc, confluent_header);
    suite_add_tcase(su, tc);
    tc = tcase_create("schema_set");
    tcase_add_test(tc, schema_set_many);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
