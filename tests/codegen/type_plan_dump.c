/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C side of tests/interop/type_plan_python.py: for each (writer, reader)
 * pair of generated records below that python3-avro 1.11.1 can resolve (no
 * aliases, no string/bytes promotion, no enum defaults, no promotion of array
 * items or map values, which cg_evolve_old.h's shape, maps and arrays have),
 * writes random writer datums and what the reader's type plan makes of them.
 *
 * usage: codegen_type_plan_dump DIR
 *
 * Per pair NAME, into DIR: NAME.writer.avsc and NAME.reader.avsc, NAME.in (the
 * writer's datums) and NAME.out (per datum, the plan's status byte, then, when
 * it is 0, the decoded struct encoded with the reader's schema). Datums and
 * encodings are each preceded by their length as a 4-byte little-endian
 * number. Structs are filled (cg_fill) and encoded through their descriptors
 * and the generic runtime, whose bytes codegen_roundtrip holds equal to
 * generated code's. Exit status 0, or 2 on a usage or I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"
#include "avrogen/value.h"

#include "cg_enums.avro.h"
#include "cg_evolve_old.avro.h"
#include "cg_external.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_util.h"

#define DATUMS 100

static const struct {
    const char *name;
    const avrogen_type *writer, *reader;
} pairs[] = {
        {"prims", &prims_w_avro_type, &prims_avro_type},
        {"palette", &palette_w_avro_type, &palette_avro_type},
        {"node", &node_w_avro_type, &node_avro_type},
        {"tree", &tree_w_avro_type, &tree_avro_type},
        {"pinned", &pinned_w_avro_type, &pinned_avro_type},
};

static void die(const char *what)
{
    fprintf(stderr, "codegen_type_plan_dump: %s\n", what);
    exit(2);
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        die(path);
    return f;
}

static void put_chunk(FILE *f, const void *data, size_t len)
{
    uint8_t n[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    if (fwrite(n, 1, 4, f) != 4 || (len != 0 && fwrite(data, 1, len, f) != len))
        die("write failed");
}

static avrogen_schema *parse(const char *json)
{
    avrogen_schema *s;
    if (avrogen_schema_parse(json, strlen(json), NULL, &s, NULL) != AVROGEN_OK)
        die("a generated schema does not parse");
    return s;
}

/* The struct at v, of type t with schema root, encoded into w (reset first). */
static void encode(const avrogen_node *root, const avrogen_type *t, const void *v,
                   avrogen_writer *w, avrogen_arena *a)
{
    avrogen_value gv;
    avrogen_writer_reset(w);
    if (cg_to_value(root, t, v, &gv, a) != AVROGEN_OK || avrogen_value_encode(w, &gv) != AVROGEN_OK)
        die("encoding failed");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: codegen_type_plan_dump DIR\n");
        return 2;
    }
    avrogen_arena arena, decoded;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_init(&decoded, NULL);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) {
        const avrogen_type *wt = pairs[k].writer, *rt = pairs[k].reader;
        FILE *f = open_out(argv[1], pairs[k].name, "writer.avsc");
        fputs(avrogen_type_schema(wt), f);
        fclose(f);
        f = open_out(argv[1], pairs[k].name, "reader.avsc");
        fputs(avrogen_type_schema(rt), f);
        fclose(f);
        avrogen_schema *ws = parse(avrogen_type_schema(wt)), *rs = parse(avrogen_type_schema(rt));
        avrogen_type_plan *plan;
        avrogen_diag why;
        if (avrogen_type_plan_new(avrogen_schema_root(ws), rt, NULL, &plan, &why) != AVROGEN_OK)
            die(why.msg);
        FILE *in = open_out(argv[1], pairs[k].name, "in");
        FILE *out = open_out(argv[1], pairs[k].name, "out");
        cg_rng g = {UINT64_C(0x853c49e6748fea9b) + k};
        void *v = malloc(wt->size), *back = malloc(rt->size);
        if (v == NULL || back == NULL)
            die("out of memory");
        for (int n = 0; n < DATUMS; n++) {
            memset(v, 0, wt->size);
            avrogen_arena_reset(&arena);
            avrogen_arena_reset(&decoded);
            cg_fill(&g, wt, v, &arena, 3);
            encode(avrogen_schema_root(ws), wt, v, &w, &arena);
            put_chunk(in, avrogen_writer_data(&w), avrogen_writer_len(&w));
            avrogen_reader r;
            avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
            uint8_t st = (uint8_t)avrogen_type_plan_decode(plan, &r, back, &decoded);
            if (fwrite(&st, 1, 1, out) != 1)
                die("write failed");
            if (st == AVROGEN_OK) {
                avrogen_writer rw;
                avrogen_writer_init_growable(&rw, NULL);
                encode(avrogen_schema_root(rs), rt, back, &rw, &arena);
                put_chunk(out, avrogen_writer_data(&rw), avrogen_writer_len(&rw));
                avrogen_writer_fini(&rw);
            }
        }
        if (fclose(in) != 0 || fclose(out) != 0)
            die("write failed");
        free(back);
        free(v);
        avrogen_type_plan_free(plan);
        avrogen_schema_free(rs);
        avrogen_schema_free(ws);
    }
    avrogen_writer_fini(&w);
    avrogen_arena_fini(&decoded);
    avrogen_arena_fini(&arena);
    return 0;
}
