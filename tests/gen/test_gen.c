/* SPDX-License-Identifier: Apache-2.0 */
/*
 * In-process tests of the generator library: the annotation payload parser,
 * the model the code emitter builds on (checked field by field on the golden
 * headers), output writing (unchanged files untouched), the driver's
 * no-output-on-error rule, its stdout order, and the depfile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "driver.h"
#include "emit/emit_avsc.h"
#include "genutil.h"
#include "model/model.h"
#include "outputs.h"
#include "parse/annot.h"
#include "parse/parse.h"
#include "textbuf.h"

#define GOLDEN(path) AVROGEN_GOLDEN_DIR "/" path

/* ---- helpers ---------------------------------------------------------- */

struct capture {
    FILE *f;
    char *text;
    size_t len;
};

static void capture_open(struct capture *c)
{
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    ck_assert_ptr_nonnull(c->f);
}

static const char *capture_text(struct capture *c)
{
    fflush(c->f);
    return c->text ? c->text : "";
}

static void capture_close(struct capture *c)
{
    fclose(c->f);
    free(c->text);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    struct textbuf b = TEXTBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        textbuf_append(&b, buf, n);
    fclose(f);
    char *text = textbuf_take(&b, NULL);
    ck_assert_ptr_nonnull(text);
    return text;
}

static char *temp_dir(void)
{
    char tmpl[] = "/tmp/avrogen-test-XXXXXX";
    char *dir = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(dir);
    return strdup(dir);
}

static int count_entries(const char *dir)
{
    char *cmd = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&cmd, &len);
    fprintf(m, "ls -A '%s' | wc -l", dir);
    fclose(m);
    FILE *p = popen(cmd, "r");
    int n = -1;
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    free(cmd);
    return n;
}

static void remove_dir(const char *dir)
{
    char *cmd = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&cmd, &len);
    fprintf(m, "rm -rf '%s'", dir);
    fclose(m);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* ---- annot ------------------------------------------------------------ */

/* An annotation as clang_parse reports it, at x.h:3:7 (static storage: one at a time). */
static struct cannot make_annot(const char *kind, const char *text)
{
    static char kind_buf[32], text_buf[512];
    snprintf(kind_buf, sizeof kind_buf, "%s", kind);
    snprintf(text_buf, sizeof text_buf, "%s", text);
    struct cannot a = {kind_buf, text_buf, {"x.h", 3, 7}, NULL};
    return a;
}

START_TEST(options_parse)
{
    struct capture c;
    struct diag d;
    capture_open(&c);
    diag_init(&d, c.f);
    struct cannot a = make_annot("field", "name = \"Order\" ,aliases=[ \"a\", \"b\" ],"
                                          " default = { \"x\" : [1, -2.5e3, true, null] }");
    struct annot_options o;
    ck_assert(annot_parse_options(&a, &d, &o));
    ck_assert_uint_eq(o.n, 3);
    const struct annot_option *name = annot_find(&o, "name");
    ck_assert_int_eq(name->type, ANNOT_JSON_STRING);
    ck_assert_str_eq(name->str, "Order");
    ck_assert_str_eq(name->json, "\"Order\"");
    const struct annot_option *aliases = annot_find(&o, "aliases");
    ck_assert(aliases->all_strings);
    ck_assert_uint_eq(aliases->n_strs, 2);
    ck_assert_str_eq(aliases->strs[1], "b");
    ck_assert_str_eq(annot_find(&o, "default")->json, "{\"x\":[1,-2.5e3,true,null]}");
    ck_assert_ptr_null(annot_find(&o, "doc"));
    ck_assert_uint_eq(d.errors, 0);
    annot_options_free(&o);

    /* Escapes decode to UTF-8; the compact text keeps them as written. */
    a = make_annot("field", "doc = \"q\\\"b\\\\s\\/\\u00e9\\ud83d\\ude00\\n\"");
    ck_assert(annot_parse_options(&a, &d, &o));
    ck_assert_str_eq(o.v[0].str, "q\"b\\s/\xc3\xa9\xf0\x9f\x98\x80\n");
    ck_assert_str_eq(o.v[0].json, "\"q\\\"b\\\\s\\/\\u00e9\\ud83d\\ude00\\n\"");
    annot_options_free(&o);

    a = make_annot("record", "");
    ck_assert(annot_parse_options(&a, &d, &o));
    ck_assert_uint_eq(o.n, 0);
    capture_close(&c);
}
END_TEST

static const struct {
    const char *text;
    const char *message;
} bad_options[] = {
        {"name", "expected '=' after 'name'"},
        {"name =", "value expected"},
        {"name = \"x\",", "option expected after ','"},
        {"= 1", "option name expected"},
        {"a = 1 b = 2", "expected ',' between options"},
        {"a = [1,]", "not a JSON value"},
        {"a = 01", "expected ',' between options"},
        {"a = \"\\x\"", "bad escape in string"},
        {"a = \"\\ud800\"", "unpaired surrogate"},
        {"a = \"\\u0000\"", "NUL character"},
        {"a = tru", "not a JSON value"},
        {"a = {1: 2}", "object key must be a string"},
        {"a = 1, a = 2", "option 'a' given twice"},
        {"a = 1.", "digit expected after '.'"},
        {"a = 1e", "digit expected in exponent"},
        {"a = \"open", "unterminated string"},
        {"a = "
         "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]"
         "]]"
         "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
         "nested too deeply"},
};

START_TEST(options_errors)
{
    struct capture c;
    struct diag d;
    capture_open(&c);
    diag_init(&d, c.f);
    struct cannot a = make_annot("field", bad_options[_i].text);
    struct annot_options o;
    ck_assert(!annot_parse_options(&a, &d, &o));
    ck_assert_uint_eq(o.n, 0);
    ck_assert_uint_eq(d.errors, 1);
    const char *out = capture_text(&c);
    ck_assert_msg(strncmp(out, "x.h:3:7: error: AVRO_FIELD: ", 28) == 0, "got: %s", out);
    ck_assert_msg(strstr(out, bad_options[_i].message) != NULL, "'%s': got %s",
                  bad_options[_i].text, out);
    capture_close(&c);
}
END_TEST

START_TEST(shape_arguments)
{
    struct capture c;
    struct diag d;
    int p = -1, s = -1;
    capture_open(&c);
    diag_init(&d, c.f);

    struct cannot a = make_annot("decimal", " 18 , 2 ");
    ck_assert(annot_parse_decimal(&a, &d, &p, &s));
    ck_assert_int_eq(p, 18);
    ck_assert_int_eq(s, 2);
    const char *bad_decimals[] = {"18", "-1,2", "a,b", "1,2,3", ""};
    for (size_t i = 0; i < sizeof bad_decimals / sizeof *bad_decimals; i++) {
        a = make_annot("decimal", bad_decimals[i]);
        ck_assert_msg(!annot_parse_decimal(&a, &d, &p, &s), "%s", bad_decimals[i]);
    }

    a = make_annot("array", " n_lines ");
    char *id = annot_parse_identifier(&a, &d);
    ck_assert_str_eq(id, "n_lines");
    free(id);
    const char *bad_ids[] = {"a.b", "1x", "", "a-b"};
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        a = make_annot("array", bad_ids[i]);
        ck_assert_ptr_null(annot_parse_identifier(&a, &d));
    }
    ck_assert_uint_eq(d.errors, 9);

    a = make_annot("logical", "timestamp - micros");
    char *tok = annot_parse_token(&a, &d);
    ck_assert_str_eq(tok, "timestamp-micros");
    free(tok);
    ck_assert_str_eq(annot_macro("fixed_name"), "AVRO_FIXED_NAME");
    capture_close(&c);
}
END_TEST

/* ---- the model -------------------------------------------------------- */

static struct model *build(const char *header)
{
    struct capture c;
    struct diag d;
    struct cunit *u = NULL;
    struct model *m = NULL;
    capture_open(&c);
    diag_init(&d, c.f);
    ck_assert_int_eq(clang_parse(header, NULL, 0, &d, &u), 0);
    ck_assert_int_eq(model_build(u, &d, &m), 0);
    ck_assert_msg(d.errors == 0, "%s", capture_text(&c));
    cunit_free(u);
    capture_close(&c);
    return m;
}

static const struct model_field *field(const struct model_record *r, const char *c_name)
{
    for (size_t i = 0; i < r->n_fields; i++)
        if (strcmp(r->fields[i].c_name, c_name) == 0)
            return &r->fields[i];
    ck_abort_msg("no field %s", c_name);
    return NULL;
}

START_TEST(model_design_example)
{
    struct model *m = build(GOLDEN("design_example/input.h"));
    ck_assert_uint_eq(m->n_records, 2);
    ck_assert_str_eq(m->records[0]->name.fullname, "line"); /* dependency order */
    const struct model_record *r = m->records[1];
    ck_assert_str_eq(r->name.fullname, "com.acme.shop.Order");
    ck_assert_str_eq(r->c_type, "order_t");
    ck_assert_str_eq(r->c_tag, "order");
    ck_assert_str_eq(r->c_prefix, "order");
    ck_assert(r->in_main_file);
    ck_assert(!r->recursive);
    ck_assert_uint_eq(r->n_fields, 18);
    ck_assert_uint_eq(r->n_avro_fields, 15);

    const struct model_field *f = field(r, "lines");
    ck_assert_int_eq(f->type->kind, AVROGEN_KIND_ARRAY);
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_PTR_COUNT);
    ck_assert_str_eq(f->type->count_c_name, "n_lines");
    ck_assert_int_eq(f->type->count_scalar, MODEL_SCALAR_U64);
    ck_assert_ptr_eq(f->type->items->record, m->records[0]);
    ck_assert_int_eq(f->type->items->storage, MODEL_STORAGE_STRUCT);
    const struct model_field *n = field(r, "n_lines");
    ck_assert_int_eq(n->role, MODEL_FIELD_COUNT);
    ck_assert_ptr_eq(&r->fields[n->serves], f);
    ck_assert_ptr_null(n->type);

    f = field(r, "note");
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_NULLABLE);
    ck_assert_int_eq(f->type->null_via, MODEL_NULL_VIA_SELF);
    ck_assert_uint_eq(f->type->null_index, 0);
    ck_assert_int_eq(f->type->items->storage, MODEL_STORAGE_CSTRING);

    f = field(r, "counters");
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_C_ARRAY);
    ck_assert_uint_eq(f->type->c_len, 64);
    ck_assert_int_eq(f->type->items->scalar, MODEL_SCALAR_I64);

    f = field(r, "tags");
    ck_assert_int_eq(f->type->kind, AVROGEN_KIND_MAP);
    ck_assert_str_eq(f->type->entry_c_type, "struct tag");
    ck_assert_int_eq(f->type->map_key->storage, MODEL_STORAGE_CSTRING);
    ck_assert_int_eq(f->type->items->kind, AVROGEN_KIND_LONG);

    f = field(r, "status");
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_ENUM);
    ck_assert_str_eq(f->type->enumeration->c_type, "enum order_status");
    ck_assert(f->type->enumeration->dense);
    ck_assert_str_eq(f->type->enumeration->symbols[2].avro_name, "SHIPPED");

    f = field(r, "uuid");
    ck_assert_int_eq(f->type->kind, AVROGEN_KIND_FIXED);
    ck_assert_int_eq(f->type->logical, AVROGEN_LOGICAL_UUID);
    ck_assert_uint_eq(f->type->fixed->size, 16);
    ck_assert_str_eq(f->type->fixed->name.fullname, "com.acme.shop.Order_uuid");

    f = field(r, "price_cents");
    ck_assert_int_eq(f->type->kind, AVROGEN_KIND_BYTES);
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_SCALAR);
    ck_assert_int_eq(f->type->scalar, MODEL_SCALAR_I64);
    ck_assert_int_eq(f->type->precision, 18);
    ck_assert_int_eq(f->type->scale, 2);

    ck_assert_int_eq(field(r, "region")->type->storage, MODEL_STORAGE_STR_VIEW);
    f = field(r, "legacy");
    ck_assert_str_eq(f->avro_name, "legacyName");
    ck_assert_str_eq(f->default_json, "null");
    ck_assert_uint_eq(f->n_aliases, 1);
    ck_assert_int_eq(field(r, "cache")->role, MODEL_FIELD_SKIP);
    ck_assert_str_eq(m->records[0]->name.doc, "One line of an order.");
    model_free(m);
}
END_TEST

START_TEST(model_shapes)
{
    struct model *m = build(GOLDEN("unions/input.h"));
    const struct model_record *r = model_find_record(m, "value");
    const struct model_field *f = field(r, "as");
    ck_assert_int_eq(f->type->storage, MODEL_STORAGE_TAGGED);
    ck_assert_str_eq(f->type->tag_c_name, "kind");
    ck_assert_int_eq(f->type->tag_scalar, MODEL_SCALAR_U32);
    ck_assert_uint_eq(f->type->n_branches, 5);
    ck_assert_int_eq(f->type->branches[0].type->kind, AVROGEN_KIND_NULL);
    ck_assert_str_eq(f->type->branches[3].c_name, "money");
    ck_assert_int_eq(field(r, "kind")->role, MODEL_FIELD_TAG);
    ck_assert_int_eq(field(r, "which")->c_scalar, MODEL_SCALAR_U8);
    model_free(m);

    m = build(GOLDEN("nullable/input.h"));
    r = model_find_record(m, "maybe");
    f = field(r, "count");
    ck_assert_int_eq(f->type->null_via, MODEL_NULL_VIA_PTR);
    ck_assert_int_eq(f->type->items->scalar, MODEL_SCALAR_I32);
    f = field(r, "values");
    ck_assert_int_eq(f->type->null_via, MODEL_NULL_VIA_SELF);
    ck_assert_str_eq(f->type->items->count_c_name, "n_values");
    ck_assert_uint_eq(field(r, "named")->type->null_index, 1);
    ck_assert_uint_eq(field(r, "nothing")->type->null_index, 0);
    model_free(m);

    m = build(GOLDEN("enums/input.h"));
    const struct model_enum *e = model_find_enum(m, "light");
    ck_assert(!e->dense);
    ck_assert_int_eq(e->symbols[1].value, 5);
    ck_assert_str_eq(e->symbols[1].doc, "careful");
    e = model_find_enum(m, "direction_t");
    ck_assert(e->dense);
    ck_assert_int_eq(e->first_value, -1);
    ck_assert_str_eq(e->symbols[1].avro_name, "Still");
    ck_assert_str_eq(e->c_type, "direction_t");
    ck_assert_str_eq(e->c_prefix, "direction");
    ck_assert_int_eq(e->scalar, MODEL_SCALAR_I32);
    ck_assert_str_eq(model_find_enum(m, "net.http.HttpStatus")->default_symbol, "OK");
    model_free(m);

    m = build(GOLDEN("recursion/input.h"));
    ck_assert(model_find_record(m, "node")->recursive);
    ck_assert(model_find_record(m, "t.tree")->recursive);
    ck_assert(!model_find_record(m, "leaf")->recursive);
    model_free(m);

    m = build(GOLDEN("nested_headers/input.h"));
    ck_assert(model_find_record(m, "com.acme.shop.basket")->in_main_file);
    ck_assert(!model_find_record(m, "com.acme.common.line")->in_main_file);
    ck_assert_str_eq(m->records[0]->name.fullname, "com.acme.common.line");
    model_free(m);
}
END_TEST

/* ---- outputs and the driver ------------------------------------------- */

/*
 * Issue 12: the generator never writes a schema its own parser refuses. JSON
 * nests at most as deep as jansson parses (2047 containers around a scalar):
 * record, fields, field and 2044 arrays of the member's type are the most;
 * one more array is an error at the member, before anything is written. The
 * model is deepened by hand (libclang takes quadratic time in array ranks).
 */
START_TEST(schema_json_depth_bound)
{
    for (unsigned extra = 2043; extra <= 2044; extra++) {
        struct model *m = build(AVROGEN_TEST_GEN_DIR "/deep_array.h");
        struct model_record *r = m->records[0];
        struct model_type *t = r->fields[0].type; /* int32_t m[1]: an array of int */
        ck_assert_int_eq(t->kind, AVROGEN_KIND_ARRAY);
        for (unsigned k = 0; k < extra; k++) {
            struct model_type *outer = xcalloc(1, sizeof *outer);
            *outer = *t;
            outer->c_type = xstrdup(t->c_type);
            outer->items = t;
            t = outer;
        }
        r->fields[0].type = t;
        struct capture c;
        struct diag d;
        capture_open(&c);
        diag_init(&d, c.f);
        int rc = emit_avsc(m, &d);
        if (extra == 2043) {
            ck_assert_msg(rc == 0 && d.errors == 0, "%s", capture_text(&c));
            ck_assert_ptr_nonnull(r->avsc);
            ck_assert_ptr_nonnull(r->canonical); /* emit_avsc parsed it back */
        } else {
            ck_assert_int_ne(rc, 0);
            ck_assert_ptr_nonnull(strstr(capture_text(&c),
                                         "deep_array.h:7:13: error: the schema of "
                                         "'deep' nests JSON more than 2047 levels "
                                         "deep at member 'm' of 'struct deep'"));
        }
        capture_close(&c);
        model_free(m);
    }
}
END_TEST

START_TEST(outputs_untouched_when_unchanged)
{
    char *dir = temp_dir();
    struct gen_outputs o = {0};
    struct stat before, after;
    ck_assert_int_eq(gen_outputs_add(&o, dir, "a.txt", strdup("one\n"), 4), 0);
    ck_assert_int_eq(gen_outputs_add(&o, dir, "a.txt", strdup("one\n"), 4), 0); /* same bytes */
    ck_assert_uint_eq(o.n, 1);
    ck_assert_int_eq(gen_outputs_write(&o, stderr), 0);
    ck_assert_int_eq(stat(o.v[0].path, &before), 0);
    ck_assert_int_eq(gen_outputs_write(&o, stderr), 0);
    ck_assert_int_eq(stat(o.v[0].path, &after), 0);
    ck_assert_uint_eq(before.st_ino, after.st_ino);
    ck_assert_int_eq(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
    gen_outputs_free(&o);

    ck_assert_int_eq(gen_outputs_add(&o, dir, "a.txt", strdup("two\n"), 4), 0);
    ck_assert_int_eq(gen_outputs_write(&o, stderr), 0);
    char *path = strdup(o.v[0].path);
    char *text = slurp(path);
    ck_assert_str_eq(text, "two\n");
    ck_assert_int_eq(count_entries(dir), 1); /* no temp file left behind */
    ck_assert_int_eq(gen_outputs_add(&o, dir, "a.txt", strdup("three\n"), 6), -1);
    gen_outputs_free(&o);
    free(text);
    free(path);
    remove_dir(dir);
    free(dir);
}
END_TEST

START_TEST(driver_writes_nothing_on_error)
{
    char *dir = temp_dir();
    const char *headers[] = {GOLDEN("design_example/input.h"), GOLDEN("diag_pointer/input.h")};
    struct capture out, err;
    capture_open(&out);
    capture_open(&err);
    struct driver_options opt = {.headers = headers,
                                 .n_headers = 2,
                                 .out_dir = dir,
                                 .depfile = NULL,
                                 .generate_code = false,
                                 .out = out.f,
                                 .err = err.f};
    ck_assert_int_eq(driver_run(&opt), 1);
    ck_assert_int_eq(count_entries(dir), 0);
    ck_assert_ptr_nonnull(strstr(capture_text(&err), "error: field 'lines' is a pointer"));

    /* Without the bad header, both of design_example's schemas are written. */
    opt.n_headers = 1;
    ck_assert_int_eq(driver_run(&opt), 0);
    ck_assert_int_eq(count_entries(dir), 2);
    capture_close(&out);
    capture_close(&err);
    remove_dir(dir);
    free(dir);
}
END_TEST

START_TEST(driver_stdout_order)
{
    const char *headers[] = {GOLDEN("design_example/input.h")};
    struct capture out, err;
    capture_open(&out);
    capture_open(&err);
    struct driver_options opt = {.headers = headers,
                                 .n_headers = 1,
                                 .out_dir = NULL,
                                 .depfile = NULL,
                                 .generate_code = false,
                                 .out = out.f,
                                 .err = err.f};
    ck_assert_int_eq(driver_run(&opt), 0);
    char *line = slurp(GOLDEN("design_example/expected/line.avsc"));
    char *order = slurp(GOLDEN("design_example/expected/com.acme.shop.Order.avsc"));
    const char *got = capture_text(&out);
    ck_assert_uint_eq(strlen(got), strlen(line) + strlen(order));
    ck_assert(strncmp(got, line, strlen(line)) == 0);
    ck_assert_str_eq(got + strlen(line), order);
    ck_assert_str_eq(capture_text(&err), "");
    free(line);
    free(order);
    capture_close(&out);
    capture_close(&err);
}
END_TEST

START_TEST(driver_missing_header)
{
    const char *headers[] = {GOLDEN("no/such/header.h")};
    struct capture out, err;
    capture_open(&out);
    capture_open(&err);
    struct driver_options opt = {.headers = headers,
                                 .n_headers = 1,
                                 .out_dir = NULL,
                                 .depfile = NULL,
                                 .generate_code = false,
                                 .out = out.f,
                                 .err = err.f};
    ck_assert_int_eq(driver_run(&opt), 1);
    ck_assert_ptr_nonnull(strstr(capture_text(&err), "avrogen: error: cannot read"));
    capture_close(&out);
    capture_close(&err);
}
END_TEST

START_TEST(driver_depfile)
{
    char *dir = temp_dir();
    char depfile[512];
    snprintf(depfile, sizeof depfile, "%s/input.d", dir);
    const char *headers[] = {GOLDEN("nested_headers/input.h")};
    struct capture out, err;
    capture_open(&out);
    capture_open(&err);
    struct driver_options opt = {.headers = headers,
                                 .n_headers = 1,
                                 .out_dir = dir,
                                 .depfile = depfile,
                                 .generate_code = true,
                                 .out = out.f,
                                 .err = err.f};
    ck_assert_int_eq(driver_run(&opt), 0);
    char *text = slurp(depfile);
    /* "<first output>: \\\n  <header> \\\n  <included headers>..." */
    ck_assert_msg(strncmp(text, dir, strlen(dir)) == 0, "%s", text);
    const char *colon = strstr(text, ": \\\n  " GOLDEN("nested_headers/input.h") " \\\n");
    ck_assert_msg(colon != NULL, "%s", text);
    ck_assert_msg(strstr(text, "nested_headers/sub/line.h") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "avrogen/annotate.h") != NULL, "%s", text);
    ck_assert(text[strlen(text) - 1] == '\n');
    free(text);
    capture_close(&out);
    capture_close(&err);
    remove_dir(dir);
    free(dir);
}
END_TEST

static Suite *gen_suite(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("annot");
    tcase_add_test(tc, options_parse);
    tcase_add_loop_test(tc, options_errors, 0, (int)(sizeof bad_options / sizeof *bad_options));
    tcase_add_test(tc, shape_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("model");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, model_design_example);
    tcase_add_test(tc, model_shapes);
    tcase_add_test(tc, schema_json_depth_bound);
    suite_add_tcase(s, tc);

    tc = tcase_create("driver");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, outputs_untouched_when_unchanged);
    tcase_add_test(tc, driver_writes_nothing_on_error);
    tcase_add_test(tc, driver_stdout_order);
    tcase_add_test(tc, driver_missing_header);
    tcase_add_test(tc, driver_depfile);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gen_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
