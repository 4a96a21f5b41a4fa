/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The generated code's side of the Java and Go interop tests for the struct
 * shapes of issue 11 and for holders (tests/interop: peer_corpus.py writes
 * the cases with it, java_peer.py and go_peer.py put the peers' bytes through
 * it). Frames are a 4-byte big-endian length and the datum's bytes.
 *
 *   codegen_shapes_peer dump DIR
 *       For every known answer of shapes_cases.c: DIR/shape-NN.avsc (the
 *       record's schema), .frames (the datum generated code writes for the
 *       hand-filled struct, COPIES times), .jsonl (the datum it stands for in
 *       the Avro JSON encoding, written by hand, a line each) and .avro (a
 *       container file of the same datums, one a block, written by avrogen's
 *       writer from the generated encoder); and for every record type of the
 *       answers the same of RANDOM structs (cg_fill, seeded), as
 *       DIR/random-CASE, without .jsonl. DIR/shapes.tsv lists them, a line
 *       each: NAME CASE answer|random LABEL.
 *   codegen_shapes_peer recode TASKS RESULTS
 *       A task: CASE IN OUT. Every datum of IN (frames, or a container file
 *       when IN ends in ".avro", read by avrogen_ocf_reader_next_as, which
 *       must have the struct's own schema: no resolution) decoded by the
 *       generated decoder of CASE into its struct, encoded again by the
 *       generated encoder into OUT.frames, and those bytes printed as Avro
 *       JSON by the generic runtime into OUT.jsonl. Result: ok COUNT.
 *   codegen_shapes_peer ocf TASKS RESULTS
 *       A task: CASE IN.frames OUT.avro. The datums of IN decoded by the
 *       generated decoder and written by the generated encoder into a
 *       container file, one a block. Result: ok COUNT.
 *
 * CASE is a record prefix: those of shapes_cases.c, and Interop and Holders
 * (structs `avrogen header` wrote for Apache Avro's interop.avsc and for
 * tests/header/schemas/holders.avsc). A task that fails gives "error N
 * MESSAGE" after N datums. Exit status: 0 when every task got its result line
 * (whatever it says), 1 otherwise, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/ocf.h"

#include "holders.avro.h"
#include "shapes_cases.h"
#ifdef SHAPES_PEER_INTEROP
#include "interop.avro.h"
CG_ADAPTERS(Interop, struct Interop)
#endif
CG_ADAPTERS(Holders, struct Holders)

enum { COPIES = 3, RANDOM = 40, MAX_FIELDS = 3 };

/* Without the Apache Avro test data there is no Interop: its tasks fail. */
static const cg_case header_cases[] = {
#ifdef SHAPES_PEER_INTEROP
        CG_CASE(Interop),
#endif
        CG_CASE(Holders)};

static const cg_case *find_case(const char *name)
{
    for (size_t i = 0; i < n_shape_answers; i++)
        if (strcmp(shape_answers[i].c.name, name) == 0)
            return &shape_answers[i].c;
    for (size_t i = 0; i < sizeof header_cases / sizeof *header_cases; i++)
        if (strcmp(header_cases[i].name, name) == 0)
            return &header_cases[i];
    return NULL;
}

/* A task's outcome: ok, or the message of the first failure. */
typedef struct outcome {
    unsigned long count;
    char why[256];
} outcome;

static bool failed(outcome *o, const char *fmt, const char *a, const char *b)
{
    snprintf(o->why, sizeof o->why, fmt, a, b);
    return false;
}

static bool put_frame(FILE *f, const void *data, size_t n)
{
    uint8_t head[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    return fwrite(head, 1, 4, f) == 4 && fwrite(data, 1, n, f) == n;
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* The whole file at path, malloc'd, in *data and *len; false when it cannot be read. */
static bool slurp(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *more = realloc(buf, cap * 2);
        if (more == NULL)
            free(buf);
        buf = more;
        cap *= 2;
    }
    bool ok = buf != NULL && !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *len = n;
    return true;
}

/* The datum a frame at *at of the len bytes of data holds, as [*datum, *n); false at a bad frame.
 */
static bool next_frame(const uint8_t *data, size_t len, size_t *at, const uint8_t **datum,
                       size_t *n)
{
    if (len - *at < 4)
        return false;
    const uint8_t *p = data + *at;
    size_t k = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | (size_t)p[3];
    if (len - *at - 4 < k)
        return false;
    *datum = p + 4;
    *n = k;
    *at += 4 + k;
    return true;
}

/* ---- recode ---------------------------------------------------------------- */

/* Where recode writes: the frames and JSON lines of what the encoder writes again. */
typedef struct sink {
    FILE *frames, *json;
    const avrogen_node *root; /* the case's own schema, for the JSON */
    avrogen_writer bin, text;
} sink;

/* Encode v (a struct of c) again and write it out. */
static bool put_again(sink *s, const cg_case *c, const void *v, outcome *o)
{
    avrogen_writer_reset(&s->bin);
    avrogen_writer_reset(&s->text);
    if (c->encode(&s->bin, v) != AVROGEN_OK)
        return failed(o, "the generated encoder refuses the struct it decoded: %s%s",
                      avrogen_status_str(s->bin.err), "");
    if (c->size(v) != avrogen_writer_len(&s->bin))
        return failed(o, "the generated size%s differs from the bytes encoded%s", "", "");
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&s->bin), avrogen_writer_len(&s->bin));
    if (avrogen_datum_to_json(&r, s->root, &s->text, 0, NULL) != AVROGEN_OK ||
        avrogen_reader_remaining(&r) != 0)
        return failed(o, "the generic runtime cannot print the bytes encoded again: %s%s",
                      r.err_msg != NULL ? r.err_msg : avrogen_status_str(r.err), "");
    avrogen_write_raw(&s->text, "\n", 1);
    if (s->text.err != AVROGEN_OK ||
        !put_frame(s->frames, avrogen_writer_data(&s->bin), avrogen_writer_len(&s->bin)) ||
        fwrite(avrogen_writer_data(&s->text), 1, avrogen_writer_len(&s->text), s->json) !=
                avrogen_writer_len(&s->text))
        return failed(o, "cannot write the outputs%s%s", "", "");
    o->count++;
    return true;
}

static bool recode_frames(sink *s, const cg_case *c, const char *in, outcome *o)
{
    uint8_t *data;
    size_t len, at = 0;
    if (!slurp(in, &data, &len))
        return failed(o, "cannot read %s%s", in, "");
    bool ok = true;
    while (ok && at < len) {
        const uint8_t *datum;
        size_t n;
        if (!next_frame(data, len, &at, &datum, &n)) {
            ok = failed(o, "%s: a truncated frame%s", in, "");
            break;
        }
        void *v = calloc(1, c->type->size);
        avrogen_arena arena;
        avrogen_arena_init(&arena, NULL);
        avrogen_reader r;
        avrogen_reader_init(&r, datum, n);
        if (v == NULL)
            ok = failed(o, "out of memory%s%s", "", "");
        else if (c->decode(&r, v, &arena) != AVROGEN_OK)
            ok = failed(o, "the generated decoder refuses it: %s%s",
                        r.err_msg != NULL ? r.err_msg : avrogen_status_str(r.err), "");
        else if (avrogen_reader_remaining(&r) != 0)
            ok = failed(o, "the generated decoder leaves bytes of the datum unread%s%s", "", "");
        else
            ok = put_again(s, c, v, o);
        avrogen_arena_fini(&arena);
        free(v);
    }
    free(data);
    return ok;
}

static bool recode_file(sink *s, const cg_case *c, const char *in, outcome *o)
{
    avrogen_ocf_reader *r;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    if (avrogen_ocf_reader_open(in, NULL, &r, &d) != AVROGEN_OK)
        return failed(o, "%s: %s", in, d.msg);
    /* The struct's own decoder, not a resolution plan: the file's schema must be the struct's. */
    if (avrogen_ocf_reader_fingerprint(r) != c->type->fingerprint) {
        avrogen_ocf_reader_close(r);
        return failed(o, "%s: the file's schema has another Parsing Canonical Form than %s's", in,
                      c->name);
    }
    void *v = malloc(c->type->size);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    bool ok = v != NULL, got = true;
    while (ok && got) {
        memset(v, 0, c->type->size);
        avrogen_arena_reset(&arena);
        if (avrogen_ocf_reader_next_as(r, c->type, v, &arena, &got) != AVROGEN_OK) {
            (void)avrogen_ocf_reader_error(r, &d);
            ok = failed(o, "%s: %s", in, d.msg);
        } else if (got) {
            ok = put_again(s, c, v, o);
        }
    }
    avrogen_arena_fini(&arena);
    free(v);
    avrogen_ocf_reader_close(r);
    return ok;
}

static bool recode(const cg_case *c, char **t, outcome *o)
{
    char path[4096];
    avrogen_schema *schema;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    const char *text = avrogen_type_schema(c->type);
    if (avrogen_schema_parse(text, strlen(text), NULL, &schema, &d) != AVROGEN_OK)
        return failed(o, "the runtime cannot parse the case's schema: %s%s", d.msg, "");
    sink s = {.root = avrogen_schema_root(schema)};
    snprintf(path, sizeof path, "%s.frames", t[2]);
    s.frames = fopen(path, "wb");
    snprintf(path, sizeof path, "%s.jsonl", t[2]);
    s.json = fopen(path, "wb");
    avrogen_writer_init_growable(&s.bin, NULL);
    avrogen_writer_init_growable(&s.text, NULL);
    size_t n = strlen(t[1]);
    bool ok = s.frames != NULL && s.json != NULL;
    if (!ok)
        failed(o, "cannot create %s.frames or .jsonl%s", t[2], "");
    else if (n > 5 && strcmp(t[1] + n - 5, ".avro") == 0)
        ok = recode_file(&s, c, t[1], o);
    else
        ok = recode_frames(&s, c, t[1], o);
    if (s.frames != NULL && fclose(s.frames) != 0 && ok)
        ok = failed(o, "cannot write %s.frames%s", t[2], "");
    if (s.json != NULL && fclose(s.json) != 0 && ok)
        ok = failed(o, "cannot write %s.jsonl%s", t[2], "");
    avrogen_writer_fini(&s.text);
    avrogen_writer_fini(&s.bin);
    avrogen_schema_free(schema);
    return ok;
}

/* ---- container files ------------------------------------------------------- */

/* A container file at out of the structs fill(v, i) gives for i < n, one a block. */
static bool write_file(const cg_case *c, const char *out,
                       bool (*fill)(void *v, unsigned long i, avrogen_arena *a, void *ctx),
                       void *ctx, outcome *o)
{
    avrogen_ocf_writer *w;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    static const uint8_t sync[AVROGEN_OCF_SYNC_SIZE] = "avrogen-shapes!";
    avrogen_ocf_writer_options opts = {.codec = "deflate", .block_size = 1, .sync = sync};
    const char *schema = avrogen_type_schema(c->type);
    if (avrogen_ocf_writer_open(out, schema, strlen(schema), &opts, &w, &d) != AVROGEN_OK)
        return failed(o, "%s: %s", out, d.msg);
    void *v = malloc(c->type->size);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    bool ok = v != NULL;
    for (unsigned long i = 0; ok; i++) {
        memset(v, 0, c->type->size);
        avrogen_arena_reset(&arena);
        if (!fill(v, i, &arena, ctx))
            break;
        (void)c->encode(avrogen_ocf_writer_datum_begin(w), v);
        if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK)
            ok = failed(o, "%s: the generated encoder refuses the struct%s", out, "");
        else
            o->count++;
    }
    avrogen_arena_fini(&arena);
    free(v);
    if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK && ok)
        ok = failed(o, "%s: %s", out, d.msg);
    return ok;
}

/* The datums of a frames file, decoded one by one (the ocf task's fill). */
typedef struct frames_in {
    const cg_case *c;
    const uint8_t *data;
    size_t len, at;
} frames_in;

static bool fill_from_frames(void *v, unsigned long i, avrogen_arena *a, void *ctx)
{
    frames_in *f = ctx;
    (void)i;
    const uint8_t *datum;
    size_t n;
    if (f->at == f->len || !next_frame(f->data, f->len, &f->at, &datum, &n))
        return false;
    avrogen_reader r;
    avrogen_reader_init(&r, datum, n);
    if (f->c->decode(&r, v, a) != AVROGEN_OK || avrogen_reader_remaining(&r) != 0) {
        f->at = f->len + 1; /* marks the failure */
        return false;
    }
    return true;
}

static bool ocf(const cg_case *c, char **t, outcome *o)
{
    frames_in f = {.c = c};
    uint8_t *data;
    if (!slurp(t[1], &data, &f.len))
        return failed(o, "cannot read %s%s", t[1], "");
    f.data = data;
    bool ok = write_file(c, t[2], fill_from_frames, &f, o);
    if (ok && f.at != f.len)
        ok = failed(o, "%s: a bad frame, or a datum the generated decoder refuses%s", t[1], "");
    free(data);
    return ok;
}

/* ---- dump ------------------------------------------------------------------ */

/* A known answer, COPIES times. */
static bool fill_answer(void *v, unsigned long i, avrogen_arena *a, void *ctx)
{
    const shape_answer *k = *(const shape_answer **)ctx;
    (void)a;
    if (i == COPIES)
        return false;
    k->fill(v);
    return true;
}

/* RANDOM structs of one case, datum i the same each time it is asked for. */
typedef struct random_in {
    const cg_case *c;
    uint64_t seed;
} random_in;

static bool fill_random(void *v, unsigned long i, avrogen_arena *a, void *ctx)
{
    const random_in *in = ctx;
    if (i == RANDOM)
        return false;
    cg_rng g = {in->seed ^ (i + 1) * UINT64_C(0x9e3779b97f4a7c15)};
    cg_fill(&g, in->c->type, v, a, 3);
    return true;
}

/* DIR/NAME.avsc, .frames and .avro of the structs fill gives, and their line of shapes.tsv. */
static bool dump_case(FILE *list, const char *dir, const char *name, const cg_case *c,
                      bool (*fill)(void *v, unsigned long i, avrogen_arena *a, void *ctx),
                      void *ctx, const char *kind, const char *label)
{
    char path[4096];
    outcome o = {0};
    snprintf(path, sizeof path, "%s/%s.frames", dir, name);
    FILE *f = fopen(path, "wb");
    void *v = malloc(c->type->size);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    bool ok = f != NULL && v != NULL;
    for (unsigned long i = 0; ok; i++) {
        memset(v, 0, c->type->size);
        avrogen_arena_reset(&arena);
        avrogen_writer_reset(&w);
        if (!fill(v, i, &arena, ctx))
            break;
        ok = c->encode(&w, v) == AVROGEN_OK &&
             put_frame(f, avrogen_writer_data(&w), avrogen_writer_len(&w));
    }
    ok = (f == NULL || fclose(f) == 0) && ok;
    avrogen_writer_fini(&w);
    avrogen_arena_fini(&arena);
    free(v);
    snprintf(path, sizeof path, "%s/%s.avsc", dir, name);
    ok = ok && write_text(path, avrogen_type_schema(c->type));
    snprintf(path, sizeof path, "%s/%s.avro", dir, name);
    ok = ok && write_file(c, path, fill, ctx, &o);
    ok = ok && fprintf(list, "%s\t%s\t%s\t%s\n", name, c->name, kind, label) > 0;
    if (!ok)
        fprintf(stderr, "codegen_shapes_peer: %s: cannot write %s %s\n", label, path, o.why);
    return ok;
}

static int dump(const char *dir)
{
    char path[4096], name[64];
    snprintf(path, sizeof path, "%s/shapes.tsv", dir);
    FILE *list = fopen(path, "wb");
    if (list == NULL) {
        fprintf(stderr, "codegen_shapes_peer: cannot create %s\n", path);
        return 1;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < n_shape_answers; i++) {
        const shape_answer *k = &shape_answers[i];
        snprintf(name, sizeof name, "shape-%02zu", i);
        ok = dump_case(list, dir, name, &k->c, fill_answer, &k, "answer", k->label);
        snprintf(path, sizeof path, "%s/%s.jsonl", dir, name);
        FILE *f = ok ? fopen(path, "wb") : NULL;
        for (int c = 0; f != NULL && c < COPIES; c++)
            ok = ok && fprintf(f, "%s\n", k->json) > 0;
        ok = f != NULL && fclose(f) == 0 && ok;
    }
    /* Random structs of every case the answers have (python3-avro says what they hold). */
    for (size_t i = 0; ok && i < n_shape_answers; i++) {
        size_t first = 0;
        while (strcmp(shape_answers[first].c.name, shape_answers[i].c.name) != 0)
            first++;
        if (first != i)
            continue;
        random_in in = {&shape_answers[i].c, UINT64_C(0x5eed) + i};
        snprintf(name, sizeof name, "random-%s", shape_answers[i].c.name);
        ok = dump_case(list, dir, name, in.c, fill_random, &in, "random", "random structs");
    }
    return fclose(list) == 0 && ok ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------ */

static int run_tasks(bool (*task)(const cg_case *, char **, outcome *), const char *tasks,
                     const char *results)
{
    FILE *in = fopen(tasks, "r"), *out = fopen(results, "w");
    if (in == NULL || out == NULL) {
        fprintf(stderr, "codegen_shapes_peer: cannot open %s or %s\n", tasks, results);
        return 1;
    }
    char line[8192];
    bool ok = true;
    while (ok && fgets(line, sizeof line, in) != NULL) {
        size_t len = strlen(line);
        ok = len > 0 && line[len - 1] == '\n';
        line[len - 1] = '\0';
        char *t[MAX_FIELDS], *p = line;
        int n = 0;
        while (n < MAX_FIELDS) {
            t[n++] = p;
            if ((p = strchr(p, '\t')) == NULL)
                break;
            *p++ = '\0';
        }
        if (!ok || p != NULL || n != MAX_FIELDS) {
            fprintf(stderr, "codegen_shapes_peer: bad task line '%s'\n", line);
            ok = false;
            break;
        }
        const cg_case *c = find_case(t[0]);
        outcome o = {0};
        if (c == NULL)
            fprintf(out, "error\t0\tno case %s\n", t[0]);
        else if (task(c, t, &o))
            fprintf(out, "ok\t%lu\n", o.count);
        else
            fprintf(out, "error\t%lu\t%s\n", o.count, o.why);
    }
    ok = fclose(out) == 0 && ok;
    fclose(in);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "dump") == 0)
        return dump(argv[2]);
    if (argc == 4 && strcmp(argv[1], "recode") == 0)
        return run_tasks(recode, argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "ocf") == 0)
        return run_tasks(ocf, argv[2], argv[3]);
    fprintf(stderr, "usage: codegen_shapes_peer dump DIR | recode|ocf TASKS RESULTS\n");
    return 2;
}
