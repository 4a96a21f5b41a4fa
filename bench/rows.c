/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The avro-c and generic-runtime rows, shared by every workload (rows.h).
 *
 * avro-c "best" is its generic value API used as well as it can be: one value
 * per record filled once at setup, written with avro_value_write into a memory
 * writer; read with avro_value_read from a memory reader into one reused value.
 * avro-c "struct" is what a C program with its own structs does: reset one
 * reused value, fill it from the struct and write it; read into the reused
 * value, then copy it out into the struct (strings and arrays on the heap, as
 * nothing else owns them once the value is reused) and free that after use.
 * Fields are reached by index, the cheaper of avro-c's two ways.
 *
 * The generic runtime writes values prefilled at setup, and reads into values
 * whose memory comes from an arena reset before every record.
 */
#include "rows.h"

#include <stdlib.h>
#include <string.h>

/* Why these C files cannot be measured, or "": the harness refuses to run then. */
const char bench_c_build_problem[] =
#if !defined(NDEBUG)
        "C compiled without NDEBUG";
#elif !defined(__OPTIMIZE__)
        "C compiled without optimization";
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        "C compiled with a sanitizer";
#else
        "";
#endif

/* ---- avro-c ----------------------------------------------------------------- */

struct avroc_state {
    const bench_ops *ops;
    avro_schema_t schema;
    avro_value_iface_t *iface;
    avro_value_t *values; /* one per record, filled once: what best writes, and
                             what both read rows verify against */
    size_t n_values;
    avro_value_t scratch; /* the reused value */
    bool has_scratch;
    avro_writer_t writer;
    avro_reader_t reader;
    void *rec; /* struct read: the struct records are copied out into */
};

/* avro-c's memory reader and writer need a buffer up front; they are pointed
 * at the real one before every use. */
static char avroc_dummy[1];

static void avroc_close(void *p)
{
    struct avroc_state *s = p;
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n_values; i++)
        avro_value_decref(&s->values[i]);
    free(s->values);
    if (s->has_scratch)
        avro_value_decref(&s->scratch);
    if (s->writer != NULL)
        avro_writer_free(s->writer);
    if (s->reader != NULL)
        avro_reader_free(s->reader);
    if (s->iface != NULL)
        avro_value_iface_decref(s->iface);
    if (s->schema != NULL)
        avro_schema_decref(s->schema);
    free(s->rec);
    free(s);
}

static void *avroc_open(const bench_workload *wl)
{
    const bench_ops *ops = wl->ops;
    struct avroc_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->ops = ops;
    if (avro_schema_from_json_length(ops->schema_json, strlen(ops->schema_json), &s->schema) != 0)
        goto fail;
    s->iface = avro_generic_class_from_schema(s->schema);
    if (s->iface == NULL || avro_generic_value_new(s->iface, &s->scratch) != 0)
        goto fail;
    s->has_scratch = true;
    s->writer = avro_writer_memory(avroc_dummy, sizeof avroc_dummy);
    s->reader = avro_reader_memory(avroc_dummy, sizeof avroc_dummy);
    s->rec = calloc(1, ops->rec_size);
    if (s->writer == NULL || s->reader == NULL || s->rec == NULL)
        goto fail;
    s->values = calloc(ops->n_records, sizeof *s->values);
    if (s->values == NULL)
        goto fail;
    for (size_t i = 0; i < ops->n_records; i++) {
        if (avro_generic_value_new(s->iface, &s->values[i]) != 0)
            goto fail;
        s->n_values++;
        if (ops->to_avroc(ops->record(i), &s->values[i]) != 0)
            goto fail;
    }
    return s;
fail:
    avroc_close(s);
    return NULL;
}

static size_t avroc_best_write(void *p, uint8_t *out, size_t cap, bool verify)
{
    struct avroc_state *s = p;
    (void)verify;
    avro_writer_memory_set_dest(s->writer, (const char *)out, (int64_t)cap);
    for (size_t i = 0; i < s->n_values; i++)
        if (avro_value_write(s->writer, &s->values[i]) != 0)
            return 0;
    return (size_t)avro_writer_tell(s->writer);
}

static int avroc_best_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    struct avroc_state *s = p;
    avro_reader_memory_set_source(s->reader, (const char *)in, (int64_t)len);
    for (size_t i = 0; i < s->ops->n_records; i++) {
        if (avro_value_read(s->reader, &s->scratch) != 0)
            return -1;
        if (verify && !avro_value_equal(&s->scratch, &s->values[i]))
            return -1;
    }
    return 0;
}

static size_t avroc_struct_write(void *p, uint8_t *out, size_t cap, bool verify)
{
    struct avroc_state *s = p;
    (void)verify;
    avro_writer_memory_set_dest(s->writer, (const char *)out, (int64_t)cap);
    for (size_t i = 0; i < s->ops->n_records; i++) {
        avro_value_reset(&s->scratch);
        if (s->ops->to_avroc(s->ops->record(i), &s->scratch) != 0)
            return 0;
        if (avro_value_write(s->writer, &s->scratch) != 0)
            return 0;
    }
    return (size_t)avro_writer_tell(s->writer);
}

static int avroc_struct_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    struct avroc_state *s = p;
    const bench_ops *ops = s->ops;
    avro_reader_memory_set_source(s->reader, (const char *)in, (int64_t)len);
    for (size_t i = 0; i < ops->n_records; i++) {
        if (avro_value_read(s->reader, &s->scratch) != 0)
            return -1;
        memset(s->rec, 0, ops->rec_size);
        int rc = ops->from_avroc(&s->scratch, s->rec);
        if (rc == 0 && verify && !ops->eq(s->rec, ops->record(i)))
            rc = -1;
        ops->free_avroc(s->rec);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int bench_avroc_field(avro_value_t *rec, size_t i, avro_value_t *out)
{
    return avro_value_get_by_index(rec, i, out, NULL);
}

int bench_avroc_strdup(avro_value_t *v, char **out)
{
    const char *str;
    size_t size;
    if (avro_value_get_string(v, &str, &size) != 0 || size == 0)
        return -1;
    char *copy = malloc(size);
    if (copy == NULL)
        return -1;
    memcpy(copy, str, size - 1);
    copy[size - 1] = '\0';
    *out = copy;
    return 0;
}

/* ---- the generic runtime ------------------------------------------------------ */

struct generic_state {
    const bench_ops *ops;
    avrogen_schema *schema;
    const avrogen_node *root;
    avrogen_arena data;    /* the prefilled values */
    avrogen_value *values; /* one per record */
    avrogen_arena scratch; /* what reads decode into, reset per record */
};

static void generic_close(void *p)
{
    struct generic_state *s = p;
    if (s == NULL)
        return;
    avrogen_arena_fini(&s->scratch);
    avrogen_arena_fini(&s->data);
    avrogen_schema_free(s->schema);
    free(s);
}

static void *generic_open(const bench_workload *wl)
{
    const bench_ops *ops = wl->ops;
    struct generic_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->ops = ops;
    avrogen_arena_init(&s->data, NULL);
    avrogen_arena_init(&s->scratch, NULL);
    if (avrogen_schema_parse(ops->schema_json, strlen(ops->schema_json), NULL, &s->schema, NULL) !=
        AVROGEN_OK)
        goto fail;
    s->root = avrogen_schema_root(s->schema);
    s->values = avrogen_arena_calloc(&s->data, ops->n_records, sizeof *s->values);
    if (s->values == NULL)
        goto fail;
    for (size_t i = 0; i < ops->n_records; i++)
        if (ops->to_generic(ops->record(i), &s->values[i], s->root, &s->data) != 0)
            goto fail;
    return s;
fail:
    generic_close(s);
    return NULL;
}

static size_t generic_write(void *p, uint8_t *out, size_t cap, bool verify)
{
    struct generic_state *s = p;
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, out, cap);
    for (size_t i = 0; i < s->ops->n_records; i++) {
        size_t before = avrogen_writer_len(&w);
        if (avrogen_value_encode(&w, &s->values[i]) != AVROGEN_OK)
            return 0;
        if (verify && avrogen_value_size(&s->values[i]) != avrogen_writer_len(&w) - before)
            return 0;
    }
    return avrogen_writer_len(&w);
}

static int generic_decode_all(struct generic_state *s, const uint8_t *in, size_t len, bool verify,
                              unsigned flags)
{
    avrogen_reader r;
    avrogen_reader_init(&r, in, len);
    for (size_t i = 0; i < s->ops->n_records; i++) {
        avrogen_value v;
        avrogen_arena_reset(&s->scratch);
        avrogen_reader_begin_datum(&r);
        if (avrogen_value_read(&r, s->root, &v, &s->scratch, flags) != AVROGEN_OK)
            return -1;
        if (verify && !avrogen_value_equal(&v, &s->values[i]))
            return -1;
    }
    return verify && avrogen_reader_remaining(&r) != 0 ? -1 : 0;
}

static int generic_read(void *p, const uint8_t *in, size_t len, bool verify)
{
    return generic_decode_all(p, in, len, verify, 0);
}

static int generic_read_zerocopy(void *p, const uint8_t *in, size_t len, bool verify)
{
    return generic_decode_all(p, in, len, verify, AVROGEN_VALUE_ZEROCOPY);
}

const bench_row bench_common_rows[] = {
        {"avroc_best", BENCH_WRITE, avroc_open, avroc_close, avroc_best_write, NULL},
        {"avroc_struct", BENCH_WRITE, avroc_open, avroc_close, avroc_struct_write, NULL},
        {"generic", BENCH_WRITE, generic_open, generic_close, generic_write, NULL},
        {"avroc_best", BENCH_READ, avroc_open, avroc_close, NULL, avroc_best_read},
        {"avroc_struct", BENCH_READ, avroc_open, avroc_close, NULL, avroc_struct_read},
        {"generic", BENCH_READ, generic_open, generic_close, NULL, generic_read},
        {"generic_zc", BENCH_READ, generic_open, generic_close, NULL, generic_read_zerocopy},
};
const size_t bench_n_common_rows = sizeof bench_common_rows / sizeof bench_common_rows[0];

/* ---- typed rows ------------------------------------------------------------------ */

void *bench_arena_open(const bench_workload *wl)
{
    (void)wl;
    avrogen_arena *a = malloc(sizeof *a);
    if (a != NULL)
        avrogen_arena_init(a, NULL);
    return a;
}

void bench_arena_close(void *st)
{
    if (st != NULL)
        avrogen_arena_fini(st);
    free(st);
}

void *bench_stateless_open(const bench_workload *wl)
{
    static char nothing;
    (void)wl;
    return &nothing;
}

void bench_stateless_close(void *st)
{
    (void)st;
}
