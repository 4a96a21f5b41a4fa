/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen's generic values against avro-c (libavro), the reference C
 * implementation, on every case of cases.h:
 *
 *   (a) avrogen encodes; avro-c must decode it with its own schema parser and
 *       generic values, hold the same datum, and re-encode the same bytes;
 *   (b) avro-c builds the datum through its setter API and writes it; avrogen
 *       must decode an equal value and re-encode the same bytes;
 *   (c) where avro-c can print it, avro-c's JSON and ours parse to equal JSON.
 *
 * It also checks the int/long boundary encodings of test_value.c against
 * avro-c's encoder. avro-c quirks met on the way are noted where they matter:
 * string sizes include the NUL terminator, map keys and JSON text are C strings
 * (no embedded NUL), and avro_value_to_json cannot print NaN or infinities.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avro.h>
#include <jansson.h>

#include "avrogen/value.h"

#include "cases.h"

static int failures;
static char where[256];

static void fail(const char *fmt, ...) AVROGEN_PRINTF(1, 2);

static void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s: ", where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failures++;
}

#define CHECK(cond, ...)       \
    do {                       \
        if (!(cond))           \
            fail(__VA_ARGS__); \
    } while (0)

/* avro-c's setters take `void *` for data they only copy. */
static void *unconst(const void *p)
{
    return (void *)(uintptr_t)p;
}

/* ---- comparing an avro-c value with ours --------------------------------------- */

static bool same_bytes(const void *a, size_t alen, const void *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static bool equal_avroc(const avrogen_value *v, avro_value_t *c)
{
    const avrogen_node *t = v->type;
    avro_type_t ct = avro_value_get_type(c);
    size_t n;
    const void *p;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return ct == AVRO_NULL;
    case AVROGEN_KIND_BOOLEAN: {
        int b;
        return ct == AVRO_BOOLEAN && avro_value_get_boolean(c, &b) == 0 && (b != 0) == v->boolean;
    }
    case AVROGEN_KIND_INT: {
        int32_t x;
        return ct == AVRO_INT32 && avro_value_get_int(c, &x) == 0 && x == v->i32;
    }
    case AVROGEN_KIND_LONG: {
        int64_t x;
        return ct == AVRO_INT64 && avro_value_get_long(c, &x) == 0 && x == v->i64;
    }
    case AVROGEN_KIND_FLOAT: {
        float x;
        return ct == AVRO_FLOAT && avro_value_get_float(c, &x) == 0 &&
               memcmp(&x, &v->f32, sizeof x) == 0;
    }
    case AVROGEN_KIND_DOUBLE: {
        double x;
        return ct == AVRO_DOUBLE && avro_value_get_double(c, &x) == 0 &&
               memcmp(&x, &v->f64, sizeof x) == 0;
    }
    case AVROGEN_KIND_BYTES:
        return ct == AVRO_BYTES && avro_value_get_bytes(c, &p, &n) == 0 &&
               same_bytes(p, n, v->bytes.ptr, v->bytes.len);
    case AVROGEN_KIND_FIXED:
        return ct == AVRO_FIXED && avro_value_get_fixed(c, &p, &n) == 0 &&
               same_bytes(p, n, v->bytes.ptr, v->bytes.len);
    case AVROGEN_KIND_STRING: {
        const char *s;
        /* avro-c counts the NUL terminator in a string's size. */
        return ct == AVRO_STRING && avro_value_get_string(c, &s, &n) == 0 && n >= 1 &&
               same_bytes(s, n - 1, v->str.ptr, v->str.len);
    }
    case AVROGEN_KIND_ENUM: {
        int x;
        return ct == AVRO_ENUM && avro_value_get_enum(c, &x) == 0 && x >= 0 &&
               (size_t)x == v->enum_index;
    }
    case AVROGEN_KIND_UNION: {
        int d;
        avro_value_t b;
        return ct == AVRO_UNION && avro_value_get_discriminant(c, &d) == 0 && d >= 0 &&
               (size_t)d == v->branch.index && avro_value_get_current_branch(c, &b) == 0 &&
               equal_avroc(v->branch.value, &b);
    }
    case AVROGEN_KIND_RECORD:
        if (ct != AVRO_RECORD || avro_value_get_size(c, &n) != 0 || n != t->n_fields)
            return false;
        for (size_t i = 0; i < n; i++) {
            avro_value_t f;
            const char *name;
            if (avro_value_get_by_index(c, i, &f, &name) != 0 ||
                strcmp(name, t->fields[i].name) != 0 || !equal_avroc(&v->fields[i], &f))
                return false;
        }
        return true;
    case AVROGEN_KIND_ARRAY:
        if (ct != AVRO_ARRAY || avro_value_get_size(c, &n) != 0 || n != v->array.count)
            return false;
        for (size_t i = 0; i < n; i++) {
            avro_value_t item;
            if (avro_value_get_by_index(c, i, &item, NULL) != 0 ||
                !equal_avroc(&v->array.items[i], &item))
                return false;
        }
        return true;
    case AVROGEN_KIND_MAP:
        /* avro-c keeps map entries in the order they were added, i.e. wire order. */
        if (ct != AVRO_MAP || avro_value_get_size(c, &n) != 0 || n != v->map.count)
            return false;
        for (size_t i = 0; i < n; i++) {
            avro_value_t item;
            const char *key;
            const avrogen_map_entry *e = &v->map.entries[i];
            if (avro_value_get_by_index(c, i, &item, &key) != 0 ||
                !same_bytes(key, strlen(key), e->key.ptr, e->key.len) ||
                !equal_avroc(&e->value, &item))
                return false;
        }
        return true;
    }
    return false;
}

/* ---- building the avro-c value through its API ------------------------------------- */

static int build_avroc(avro_value_t *c, const avrogen_value *v)
{
    const avrogen_node *t = v->type;
    int rc = 0;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return avro_value_set_null(c);
    case AVROGEN_KIND_BOOLEAN:
        return avro_value_set_boolean(c, v->boolean);
    case AVROGEN_KIND_INT:
        return avro_value_set_int(c, v->i32);
    case AVROGEN_KIND_LONG:
        return avro_value_set_long(c, v->i64);
    case AVROGEN_KIND_FLOAT:
        return avro_value_set_float(c, v->f32);
    case AVROGEN_KIND_DOUBLE:
        return avro_value_set_double(c, v->f64);
    case AVROGEN_KIND_BYTES:
        return avro_value_set_bytes(c, unconst(v->bytes.ptr), v->bytes.len);
    case AVROGEN_KIND_FIXED:
        return avro_value_set_fixed(c, unconst(v->bytes.ptr), v->bytes.len);
    case AVROGEN_KIND_STRING:
        /* The size passed to avro-c includes the NUL our copies carry. */
        return avro_value_set_string_len(c, v->str.ptr, v->str.len + 1);
    case AVROGEN_KIND_ENUM:
        return avro_value_set_enum(c, (int)v->enum_index);
    case AVROGEN_KIND_UNION: {
        avro_value_t b;
        rc = avro_value_set_branch(c, (int)v->branch.index, &b);
        return rc != 0 ? rc : build_avroc(&b, v->branch.value);
    }
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && rc == 0; i++) {
            avro_value_t f;
            rc = avro_value_get_by_index(c, i, &f, NULL);
            if (rc == 0)
                rc = build_avroc(&f, &v->fields[i]);
        }
        return rc;
    case AVROGEN_KIND_ARRAY:
        for (size_t i = 0; i < v->array.count && rc == 0; i++) {
            avro_value_t item;
            rc = avro_value_append(c, &item, NULL);
            if (rc == 0)
                rc = build_avroc(&item, &v->array.items[i]);
        }
        return rc;
    case AVROGEN_KIND_MAP:
        for (size_t i = 0; i < v->map.count && rc == 0; i++) {
            avro_value_t item;
            rc = avro_value_add(c, v->map.entries[i].key.ptr, &item, NULL, NULL);
            if (rc == 0)
                rc = build_avroc(&item, &v->map.entries[i].value);
        }
        return rc;
    }
    return EINVAL;
}

/* ---- one datum --------------------------------------------------------------------- */

typedef struct peer {
    avrogen_schema *ours;
    avro_schema_t theirs;
    avro_value_iface_t *iface;
} peer;

/* avro-c writes into a caller buffer; report the length written or -1. */
static int64_t avroc_write(avro_value_t *c, char *buf, size_t cap)
{
    avro_writer_t w = avro_writer_memory(buf, (int64_t)cap);
    int rc = avro_value_write(w, c);
    int64_t n = rc == 0 ? avro_writer_tell(w) : -1;
    avro_writer_free(w);
    return n;
}

/*
 * JSON equality, but for one avro-c quirk: it names a named union branch by its
 * short name ({"Suit": ...}) where the spec and we use the fullname
 * ({"cards.Suit": ...}).
 */
static bool json_same(json_t *theirs, json_t *ours)
{
    if (json_typeof(theirs) != json_typeof(ours))
        return false;
    if (json_is_array(theirs)) {
        if (json_array_size(theirs) != json_array_size(ours))
            return false;
        for (size_t i = 0; i < json_array_size(theirs); i++)
            if (!json_same(json_array_get(theirs, i), json_array_get(ours, i)))
                return false;
        return true;
    }
    if (!json_is_object(theirs))
        return json_equal(theirs, ours);
    if (json_object_size(theirs) != json_object_size(ours))
        return false;
    if (json_object_size(theirs) == 1) {
        void *ti = json_object_iter(theirs), *oi = json_object_iter(ours);
        const char *tk = json_object_iter_key(ti), *ok = json_object_iter_key(oi);
        const char *dot = strrchr(ok, '.');
        if (strcmp(tk, ok) != 0 && (dot == NULL || strcmp(dot + 1, tk) != 0))
            return false;
        return json_same(json_object_iter_value(ti), json_object_iter_value(oi));
    }
    const char *key;
    json_t *tv;
    json_object_foreach(theirs, key, tv)
    {
        json_t *ov = json_object_get(ours, key);
        if (ov == NULL || !json_same(tv, ov))
            return false;
    }
    return true;
}

static void check_json(const avrogen_value *v, avro_value_t *c)
{
    char *theirs = NULL;
    if (avro_value_to_json(c, 1, &theirs) != 0) {
        fail("avro-c cannot print JSON: %s", avro_strerror());
        return;
    }
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    if (avrogen_value_to_json(&w, v, 0) != AVROGEN_OK) {
        fail("to_json failed");
    } else {
        json_error_t e;
        json_t *a = json_loads(theirs, JSON_DECODE_ANY, &e);
        json_t *b = json_loadb((const char *)avrogen_writer_data(&w), avrogen_writer_len(&w),
                               JSON_DECODE_ANY, &e);
        CHECK(a != NULL && b != NULL && json_same(a, b),
              "JSON differs:\n  avro-c:  %s\n  ours:    %.*s", theirs, (int)avrogen_writer_len(&w),
              (const char *)avrogen_writer_data(&w));
        json_decref(a);
        json_decref(b);
    }
    avrogen_writer_fini(&w);
    free(theirs);
}

static void run_datum(const interop_case *tc, peer *p, const char *json, avrogen_arena *arena)
{
    const avrogen_node *root = avrogen_schema_root(p->ours);
    avrogen_value v, back;
    avrogen_diag d;
    if (avrogen_value_from_json(json, strlen(json), root, &v, arena, &d) != AVROGEN_OK) {
        fail("from_json: %s: %s", d.path, d.msg);
        return;
    }
    avrogen_writer ours;
    avrogen_writer_init_growable(&ours, NULL);
    CHECK(avrogen_value_encode(&ours, &v) == AVROGEN_OK, "encode failed");
    const uint8_t *a = avrogen_writer_data(&ours);
    size_t alen = avrogen_writer_len(&ours);

    /* (a) avro-c reads our bytes, holds the same datum, writes the same bytes. */
    avro_value_t c;
    avro_generic_value_new(p->iface, &c);
    avro_reader_t r = avro_reader_memory((const char *)a, (int64_t)alen);
    if (avro_value_read(r, &c) != 0) {
        fail("avro-c cannot read our bytes: %s", avro_strerror());
    } else {
        CHECK(equal_avroc(&v, &c), "avro-c decoded a different datum");
        /* avro_reader_is_eof is always false on memory readers; the size avro-c
         * computes for the datum shows it consumed all of our bytes. */
        size_t csize = 0;
        CHECK(avro_value_sizeof(&c, &csize) == 0 && csize == alen,
              "avro-c sizes it %zu bytes, we wrote %zu", csize, alen);
        char buf[1 << 16];
        int64_t n = avroc_write(&c, buf, sizeof buf);
        CHECK(n >= 0 && same_bytes(buf, (size_t)n, a, alen), "avro-c re-encodes differently");
        if (tc->avroc_json)
            check_json(&v, &c);
    }
    avro_reader_free(r);
    avro_value_decref(&c);

    /* (b) avro-c builds the datum with its setters; we read what it writes. */
    avro_generic_value_new(p->iface, &c);
    if (build_avroc(&c, &v) != 0) {
        fail("avro-c refused a setter: %s", avro_strerror());
    } else {
        char buf[1 << 16];
        int64_t n = avroc_write(&c, buf, sizeof buf);
        if (n < 0) {
            fail("avro-c cannot write: %s", avro_strerror());
        } else {
            avrogen_reader rd;
            avrogen_reader_init(&rd, buf, (size_t)n);
            if (avrogen_value_decode(&rd, root, &back, arena) != AVROGEN_OK) {
                fail("we cannot read avro-c's bytes: %s at %zu", rd.err_msg, rd.err_offset);
            } else {
                CHECK(avrogen_reader_remaining(&rd) == 0, "bytes left over");
                CHECK(avrogen_value_equal(&v, &back), "we decoded a different datum");
                avrogen_writer again;
                avrogen_writer_init_growable(&again, NULL);
                CHECK(avrogen_value_encode(&again, &back) == AVROGEN_OK &&
                              same_bytes(avrogen_writer_data(&again), avrogen_writer_len(&again),
                                         buf, (size_t)n),
                      "our re-encoding of avro-c's bytes differs");
                avrogen_writer_fini(&again);
            }
            avrogen_reader_init(&rd, buf, (size_t)n);
            avrogen_reader_begin_datum(&rd);
            CHECK(avrogen_skip(&rd, root) == AVROGEN_OK && avrogen_reader_remaining(&rd) == 0,
                  "skip disagrees with avro-c's datum length");
        }
    }
    avro_value_decref(&c);
    avrogen_writer_fini(&ours);
}

static void run_case(const interop_case *tc)
{
    peer p = {0};
    avrogen_diag d;
    snprintf(where, sizeof where, "%s", tc->name);
    if (avrogen_schema_parse(tc->schema, strlen(tc->schema), NULL, &p.ours, &d) != AVROGEN_OK) {
        fail("our schema parser: %s: %s", d.path, d.msg);
        return;
    }
    if (avro_schema_from_json_length(tc->schema, strlen(tc->schema), &p.theirs) != 0) {
        fail("avro-c schema parser: %s", avro_strerror());
        avrogen_schema_free(p.ours);
        return;
    }
    p.iface = avro_generic_class_from_schema(p.theirs);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    for (size_t i = 0; tc->values[i] != NULL; i++) {
        snprintf(where, sizeof where, "%s[%zu]", tc->name, i);
        avrogen_arena_reset(&arena);
        run_datum(tc, &p, tc->values[i], &arena);
    }
    avrogen_arena_fini(&arena);
    avro_value_iface_decref(p.iface);
    avro_schema_decref(p.theirs);
    avrogen_schema_free(p.ours);
}

/* ---- varint boundaries ----------------------------------------------------------- */

static void run_varints(void)
{
    static const int64_t values[] = {
            0,
            1,
            -1,
            63,
            -63,
            64,
            -64,
            -65,
            8191,
            -8192,
            8192,
            1048576,
            134217728,
            INT32_MAX,
            INT32_MIN,
            2147483648LL,
            -2147483649LL,
            17179869184LL,
            2199023255552LL,
            281474976710656LL,
            36028797018963968LL,
            -4611686018427387904LL,
            4611686018427387904LL,
            INT64_MAX,
            INT64_MIN,
    };
    avro_schema_t ls = avro_schema_long(), is = avro_schema_int();
    avro_value_iface_t *li = avro_generic_class_from_schema(ls);
    avro_value_iface_t *ii = avro_generic_class_from_schema(is);
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
        int64_t x = values[k];
        snprintf(where, sizeof where, "varint %" PRId64, x);
        uint8_t ours[16];
        avrogen_writer w;
        avrogen_writer_init_fixed(&w, ours, sizeof ours);
        avrogen_write_long(&w, x);
        avro_value_t c;
        char buf[16];
        avro_generic_value_new(li, &c);
        avro_value_set_long(&c, x);
        int64_t n = avroc_write(&c, buf, sizeof buf);
        CHECK(n >= 0 && same_bytes(buf, (size_t)n, ours, avrogen_writer_len(&w)),
              "long encodings differ");
        avro_value_decref(&c);
        if (x >= INT32_MIN && x <= INT32_MAX) {
            avro_generic_value_new(ii, &c);
            avro_value_set_int(&c, (int32_t)x);
            n = avroc_write(&c, buf, sizeof buf);
            CHECK(n >= 0 && same_bytes(buf, (size_t)n, ours, avrogen_writer_len(&w)),
                  "int encodings differ");
            avro_value_decref(&c);
        }
    }
    avro_value_iface_decref(li);
    avro_value_iface_decref(ii);
    avro_schema_decref(ls);
    avro_schema_decref(is);
}

int main(void)
{
    run_varints();
    for (size_t i = 0; i < N_INTEROP_CASES; i++)
        run_case(&interop_cases[i]);
    if (failures != 0) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return EXIT_FAILURE;
    }
    printf("interop_avroc: %zu cases agree with avro-c\n", N_INTEROP_CASES);
    return EXIT_SUCCESS;
}
