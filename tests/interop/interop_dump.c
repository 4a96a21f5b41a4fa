/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes what python_peer.py checks against python3-avro: for every case of
 * cases.h marked `python`, DIR/<case>.avsc (the schema), DIR/<case>.bin (our
 * binary encoding of each datum, back to back) and DIR/<case>.jsonl (our JSON
 * encoding, one datum per line); for every record of default_schemas,
 * DIR/defaults<k>.avsc and DIR/defaults<k>.jsonl (the record assembled from
 * avrogen_value_from_default of each field). Exit 0 on success, 1 on any error.
 *
 * usage: interop_dump DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/value.h"

#include "cases.h"

static bool write_file(const char *dir, const char *name, const char *ext, const void *data,
                       size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "interop_dump: cannot write %s\n", path);
    return ok;
}

static bool dump_case(const char *dir, const interop_case *tc)
{
    avrogen_schema *s;
    avrogen_diag d;
    if (avrogen_schema_parse(tc->schema, strlen(tc->schema), NULL, &s, &d) != AVROGEN_OK) {
        fprintf(stderr, "interop_dump: %s: schema: %s: %s\n", tc->name, d.path, d.msg);
        return false;
    }
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_writer bin, json;
    avrogen_writer_init_growable(&bin, NULL);
    avrogen_writer_init_growable(&json, NULL);
    bool ok = true;
    for (size_t i = 0; ok && tc->values[i] != NULL; i++) {
        avrogen_value v;
        if (avrogen_value_from_json(tc->values[i], strlen(tc->values[i]), avrogen_schema_root(s),
                                    &v, &arena, &d) != AVROGEN_OK) {
            fprintf(stderr, "interop_dump: %s[%zu]: %s: %s\n", tc->name, i, d.path, d.msg);
            ok = false;
            break;
        }
        ok = avrogen_value_encode(&bin, &v) == AVROGEN_OK &&
             avrogen_value_to_json(&json, &v, 0) == AVROGEN_OK;
        avrogen_write_raw(&json, "\n", 1);
    }
    ok = ok && bin.err == AVROGEN_OK && json.err == AVROGEN_OK &&
         write_file(dir, tc->name, ".avsc", tc->schema, strlen(tc->schema)) &&
         write_file(dir, tc->name, ".bin", avrogen_writer_data(&bin), avrogen_writer_len(&bin)) &&
         write_file(dir, tc->name, ".jsonl", avrogen_writer_data(&json), avrogen_writer_len(&json));
    avrogen_writer_fini(&bin);
    avrogen_writer_fini(&json);
    avrogen_arena_fini(&arena);
    avrogen_schema_free(s);
    return ok;
}

static bool dump_defaults(const char *dir, size_t k, const char *schema)
{
    char name[32];
    snprintf(name, sizeof name, "defaults%zu", k);
    avrogen_schema *s;
    avrogen_diag d;
    if (avrogen_schema_parse(schema, strlen(schema), NULL, &s, &d) != AVROGEN_OK) {
        fprintf(stderr, "interop_dump: %s: schema: %s: %s\n", name, d.path, d.msg);
        return false;
    }
    const avrogen_node *root = avrogen_schema_root(s);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_value rec;
    bool ok = avrogen_value_init(&rec, root, &arena) == AVROGEN_OK;
    for (size_t i = 0; ok && i < root->n_fields; i++) {
        if (avrogen_value_from_default(&root->fields[i], &rec.fields[i], &arena, &d) !=
            AVROGEN_OK) {
            fprintf(stderr, "interop_dump: %s.%s: %s: %s\n", name, root->fields[i].name, d.path,
                    d.msg);
            ok = false;
        }
    }
    avrogen_writer json;
    avrogen_writer_init_growable(&json, NULL);
    ok = ok && avrogen_value_to_json(&json, &rec, 0) == AVROGEN_OK;
    avrogen_write_raw(&json, "\n", 1);
    ok = ok && json.err == AVROGEN_OK && write_file(dir, name, ".avsc", schema, strlen(schema)) &&
         write_file(dir, name, ".jsonl", avrogen_writer_data(&json), avrogen_writer_len(&json));
    avrogen_writer_fini(&json);
    avrogen_arena_fini(&arena);
    avrogen_schema_free(s);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: interop_dump DIR\n");
        return 2;
    }
    bool ok = true;
    for (size_t i = 0; i < N_INTEROP_CASES; i++)
        if (interop_cases[i].python)
            ok = dump_case(argv[1], &interop_cases[i]) && ok;
    for (size_t k = 0; default_schemas[k] != NULL; k++)
        ok = dump_defaults(argv[1], k, default_schemas[k]) && ok;
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
