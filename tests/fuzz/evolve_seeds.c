/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the seeds of fuzz_evolve (corpus/evolve): for each pair of its table,
 * a few valid datums of the writer schema, each file the pair's index byte
 * followed by the datum. cg_evolve_old.h's writers and the own-schema pairs
 * get random structs (tests/codegen/cg_util.c's cg_fill, which keeps within
 * the C types of both sides) encoded by generated code; the earlier schemas
 * of tests/codegen/earlier get Avro JSON datums encoded by the generic
 * runtime, and each of those once more with every array and map block giving
 * its byte size (negative counts, spec: Arrays), which every decoder checks
 * and every skip jumps. Deterministic: rerunning it rewrites the same files.
 *
 *     .build/fuzz/tests/fuzz/fuzz_evolve_seeds tests/codegen/earlier tests/fuzz/corpus/evolve
 *
 * Built with the fuzz targets (-DAVROGEN_FUZZ=ON), not run by scripts/test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cg_aot.avro.h"
#include "cg_containers.avro.h"
#include "cg_enums.avro.h"
#include "cg_evolve.avro.h"
#include "cg_evolve_old.avro.h"
#include "cg_external.avro.h"
#include "cg_hostile.avro.h"
#include "cg_nested.avro.h"
#include "cg_prims.avro.h"
#include "cg_shapes.avro.h"
#include "cg_util.h"

CG_ADAPTERS(aot_event, struct aot_event)
CG_ADAPTERS(prims_w, struct prims_w)
CG_ADAPTERS(maybe_texts_w, struct maybe_texts_w)
CG_ADAPTERS(palette_w, struct palette_w)
CG_ADAPTERS(shape_w, struct shape_w)
CG_ADAPTERS(node_w, struct node_w)
CG_ADAPTERS(tree_w, struct tree_w)
CG_ADAPTERS(maps_w, struct maps_w)
CG_ADAPTERS(arrays_w, struct arrays_w)
CG_ADAPTERS(pinned_w, struct pinned_w)
CG_ADAPTERS(ev_old_rich, struct ev_old_rich)
CG_ADAPTERS(rich, struct rich)
CG_ADAPTERS(hollows, struct hollows)
CG_ADAPTERS(h_count, struct h_count)
CG_ADAPTERS(h_exact, struct h_exact)
CG_ADAPTERS(company, struct company)
CG_ADAPTERS(nic_stats, struct nic_stats)

/* Random structs: a writer type and its index in fuzz_evolve.c's table. */
static const struct {
    unsigned index;
    cg_case writer;
} random_pairs[] = {
        {5, CG_CASE(aot_event)}, {7, CG_CASE(prims_w)},      {8, CG_CASE(maybe_texts_w)},
        {9, CG_CASE(palette_w)}, {10, CG_CASE(shape_w)},     {11, CG_CASE(node_w)},
        {12, CG_CASE(tree_w)},   {13, CG_CASE(maps_w)},      {14, CG_CASE(arrays_w)},
        {15, CG_CASE(pinned_w)}, {16, CG_CASE(ev_old_rich)}, {17, CG_CASE(rich)},
        {18, CG_CASE(hollows)},  {19, CG_CASE(h_count)},     {20, CG_CASE(h_exact)},
        {21, CG_CASE(company)},  {22, CG_CASE(nic_stats)},
};

/* Avro JSON datums of the earlier schemas (index 6: the union of
 * fuzz_evolve.c's node_in_union, written here with aot_node_v0.avsc's
 * record inside). An index with the top bit set asks for the tight item
 * budget. */
static const struct {
    unsigned index;
    const char *file;
    const char *json;
} json_pairs[] = {
        {0, "aot_event_v1.avsc",
         "{\"name\": \"ab\", \"id\": -7, \"audit\": {\"who\": \"me\", \"prev\": {\"aot.Audit\": "
         "{\"who\": \"you\", \"prev\": null}}}, \"ratio\": 0.5, \"share\": 16777217, "
         "\"payload\": \"hi\", \"label\": \"l\", \"flags\": [true, false], "
         "\"level\": \"CRITICAL\", \"color\": \"GREEN\", \"origin\": {\"y\": 2, \"x\": 1, \"z\": "
         "9.5}, \"extras\": {\"k\": [{\"y\": 1, \"x\": 2, \"z\": 3.0}]}, "
         "\"path\": [{\"y\": 4, \"x\": 3, \"z\": 0.0}], \"samples\": [1, -2147483648], "
         "\"grid\": [0.25, 1.5, -3.0], \"attrs\": {\"a\": 5}, "
         "\"choice\": {\"aot.Blob\": {\"data\": \"\\u0001\", \"sum\": \"xy\"}}, "
         "\"maybe\": {\"int\": 9}, \"note\": \"n\", \"either\": {\"long\": 1099511627776}, "
         "\"chain\": {\"aot.aot_node\": {\"value\": 1, \"next\": {\"aot.aot_node\": "
         "{\"value\": 2, \"next\": null}}}}, \"u\": {\"string\": \"s\"}, \"digest\": \"abcd\", "
         "\"pad\": \"xyz\", \"misc\": {\"a\": 1, \"b\": 2.0, \"c\": null, \"d\": {\"z\": null}, "
         "\"e\": \"ANGRY\"}}"},
        {0 | 0x80, "aot_event_v1.avsc",
         "{\"name\": \"\", \"id\": 0, \"audit\": {\"who\": \"\", \"prev\": null}, \"ratio\": 0, "
         "\"share\": 0, \"payload\": \"\", \"label\": \"\", \"flags\": [], \"level\": \"LOW\", "
         "\"color\": \"RED\", \"origin\": {\"y\": 0, \"x\": 0, \"z\": 0}, \"extras\": {}, "
         "\"path\": [], \"samples\": [1, 2, 3], \"grid\": [1, 2, 3], \"attrs\": {}, "
         "\"choice\": null, \"maybe\": null, \"note\": \"\", \"either\": {\"int\": 1}, "
         "\"chain\": null, \"u\": {\"int\": 5}, \"digest\": \"abcd\", \"pad\": \"xyz\", "
         "\"misc\": {\"a\": 0, \"b\": 0, \"c\": null, \"d\": {}, \"e\": \"CALM\"}}"},
        {1, "aot_event_v2.avsc",
         "{\"id\": 5, \"ratio\": 0.1, \"share\": 2.5, \"payload\": \"\\u0000\\u00ff\", "
         "\"label\": \"l\", \"name\": \"\", \"level\": \"MID\", \"color\": \"BLUE\", "
         "\"origin\": {\"x\": 1, \"y\": 2, \"weight\": 0.0}, \"path\": [], \"samples\": [], "
         "\"grid\": [1.0, 2.0, 3.0], \"attrs\": {}, \"maybe\": null, \"note\": null, "
         "\"either\": 1, \"chain\": null, \"u\": {\"double\": 4.5}, \"digest\": \"wxyz\", "
         "\"old_tag\": \"old\", \"count\": 9, \"hist\": [8]}"},
        {1, "aot_event_v2.avsc",
         "{\"id\": -1, \"ratio\": -0.0, \"share\": 1e30, \"payload\": \"p\", "
         "\"label\": \"caf\\u00e9\", \"name\": \"fifteen bytes..\", \"level\": \"HIGH\", "
         "\"color\": \"RED\", \"origin\": {\"x\": -9, \"y\": 9, \"weight\": 2.5}, "
         "\"path\": [{\"x\": 1, \"y\": 1, \"weight\": 1.0}], \"samples\": [9223372036854775807], "
         "\"grid\": [0.5, 0.25, 0.125], \"attrs\": {\"k\": -5, \"l\": 6}, \"maybe\": {\"long\": "
         "3}, "
         "\"note\": {\"string\": \"x\"}, \"either\": -2, \"chain\": {\"aot.aot_node\": "
         "{\"value\": 4, \"next\": null}}, \"u\": {\"long\": 7}, \"digest\": \"1234\", "
         "\"old_tag\": \"\", \"count\": -3, \"hist\": []}"},
        {2, "aot_point_v0.avsc", "{\"x\": 1, \"y\": -2}"},
        {2, "aot_point_v0.avsc", "{\"x\": 2147483647, \"y\": -2147483648}"},
        {3, "aot_node_v0.avsc", "{\"value\": -1, \"next\": null}"},
        {3, "aot_node_v0.avsc",
         "{\"value\": 1, \"next\": {\"aot.aot_node\": {\"value\": 2, \"next\": "
         "{\"aot.aot_node\": {\"value\": 3, \"next\": null}}}}}"},
        {4, "aot_point_v1.avsc", "{\"x\": 5, \"y\": 6, \"weight\": 0.5}"},
        {6, NULL, "null"},
        {6, NULL,
         "{\"aot.aot_node\": {\"value\": 7, \"next\": {\"aot.aot_node\": {\"value\": 8, "
         "\"next\": null}}}}"},
};

#define RANDOM_PER_PAIR 2
#define MAX_SEED        256 /* bytes: the corpus stays a few KB */

static const char node_in_union[] =
        "[\"null\", {\"type\": \"record\", \"name\": \"aot_node\", \"namespace\": \"aot\", "
        "\"fields\": [{\"name\": \"value\", \"type\": \"int\"}, "
        "{\"name\": \"next\", \"type\": [\"null\", \"aot_node\"]}]}]";

static void put(const char *dir, unsigned index, unsigned n, const char *kind, const uint8_t *p,
                size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pair%02u-%s%u", dir, index & 0x7fu, kind, n);
    if (index & 0x80u)
        snprintf(path, sizeof path, "%s/pair%02u-tight-%s%u", dir, index & 0x7fu, kind, n);
    FILE *f = fopen(path, "wb");
    uint8_t head = (uint8_t)index;
    if (f == NULL || fwrite(&head, 1, 1, f) != 1 || fwrite(p, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "evolve_seeds: cannot write %s\n", path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s EARLIER_DIR OUT_DIR\n", argv[0]);
        return 2;
    }
    const char *earlier = argv[1], *out = argv[2];
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);

    for (size_t i = 0; i < sizeof random_pairs / sizeof *random_pairs; i++) {
        const cg_case *c = &random_pairs[i].writer;
        cg_rng g = {UINT64_C(0x9e3779b97f4a7c15) * (i + 1)};
        void *v = malloc(c->type->size);
        for (unsigned n = 0, tries = 0; n < RANDOM_PER_PAIR && tries < 1000; tries++) {
            memset(v, 0, c->type->size);
            avrogen_arena_reset(&a);
            cg_fill(&g, c->type, v, &a, 2);
            avrogen_writer w;
            avrogen_writer_init_growable(&w, NULL);
            if (c->encode(&w, v) != AVROGEN_OK) {
                fprintf(stderr, "evolve_seeds: %s does not encode\n", c->name);
                return 1;
            }
            if (avrogen_writer_len(&w) <= MAX_SEED)
                put(out, random_pairs[i].index, n++, "", avrogen_writer_data(&w),
                    avrogen_writer_len(&w));
            avrogen_writer_fini(&w);
        }
        free(v);
    }

    unsigned n = 0, last = 0x100;
    for (size_t i = 0; i < sizeof json_pairs / sizeof *json_pairs; i++) {
        avrogen_schema *s = NULL;
        avrogen_diag d;
        avrogen_status st;
        if (json_pairs[i].file != NULL) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", earlier, json_pairs[i].file);
            st = avrogen_schema_parse_file(path, NULL, &s, &d);
        } else {
            st = avrogen_schema_parse(node_in_union, strlen(node_in_union), NULL, &s, &d);
        }
        avrogen_value val;
        const char *json = json_pairs[i].json;
        if (st == AVROGEN_OK)
            st = avrogen_value_from_json(json, strlen(json), avrogen_schema_root(s), &val, &a, &d);
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (st == AVROGEN_OK)
            st = avrogen_value_encode(&w, &val);
        if (st != AVROGEN_OK) {
            fprintf(stderr, "evolve_seeds: datum %zu: %s: %s\n", i, d.path, d.msg);
            return 1;
        }
        n = json_pairs[i].index == last ? n + 1 : 0;
        last = json_pairs[i].index;
        put(out, last, n, "", avrogen_writer_data(&w), avrogen_writer_len(&w));
        avrogen_writer_fini(&w);
        long blocks = 0;
        avrogen_writer_init_growable(&w, NULL);
        if (cg_encode_sized(&w, &val, avrogen_schema_root(s), -1, 0, &blocks) == AVROGEN_OK &&
            blocks != 0)
            put(out, last, n, "sized-", avrogen_writer_data(&w), avrogen_writer_len(&w));
        avrogen_writer_fini(&w);
        avrogen_schema_free(s);
    }
    avrogen_arena_fini(&a);
    return 0;
}
