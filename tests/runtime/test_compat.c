/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema compatibility (compat.h): every rule of the check, the kinds, paths,
 * messages and field pointers of what it reports, recursive and mutually
 * recursive types, the nesting limit, and allocation failure.
 * tests/interop/compat_python.py checks the verdicts and kinds against
 * python3-avro's checker on a few hundred pairs.
 *
 * Schemas are written with single quotes for readability; sq() turns them
 * into JSON (no name or symbol here contains a quote).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "avrogen/compat.h"

#include "testutil.h"

static char *sq(const char *text)
{
    char *s = strdup(text);
    ck_assert_ptr_nonnull(s);
    for (char *p = s; *p != '\0'; p++)
        if (*p == '\'')
            *p = '"';
    return s;
}

static avrogen_schema *parse(const char *text)
{
    char *json = sq(text);
    avrogen_schema *s = NULL;
    avrogen_diag d;
    avrogen_status st = avrogen_schema_parse(json, strlen(json), NULL, &s, &d);
    ck_assert_msg(st == AVROGEN_OK, "schema %s: %s: %s", json, d.path, d.msg);
    free(json);
    return s;
}

/* The report as "kind reader_path writer_path" lines, each ending in '\n'. */
static char *summary(const avrogen_compat_report *rep)
{
    size_t cap = 1;
    for (size_t i = 0; i < avrogen_compat_count(rep); i++) {
        const avrogen_incompatibility *x = avrogen_compat_at(rep, i);
        cap += strlen(avrogen_incompat_name(x->kind)) + strlen(x->reader_path) +
               strlen(x->writer_path) + 3;
    }
    char *s = malloc(cap), *p = s;
    ck_assert_ptr_nonnull(s);
    *p = '\0';
    for (size_t i = 0; i < avrogen_compat_count(rep); i++) {
        const avrogen_incompatibility *x = avrogen_compat_at(rep, i);
        ck_assert_ptr_nonnull(x->message);
        ck_assert_ptr_nonnull(x->reader);
        ck_assert_ptr_nonnull(strchr(x->reader_path, '/'));
        ck_assert_ptr_null(strchr(x->message, '\n'));
        p += sprintf(p, "%s %s %s\n", avrogen_incompat_name(x->kind), x->reader_path,
                     x->writer_path);
    }
    return s;
}

typedef struct checked {
    avrogen_schema *r;
    avrogen_schema *w;
    avrogen_compat_report *rep;
} checked;

static checked run(const char *reader, const char *writer)
{
    checked c;
    c.r = parse(reader);
    c.w = parse(writer);
    avrogen_status st =
            avrogen_compat_check(avrogen_schema_root(c.r), avrogen_schema_root(c.w), NULL, &c.rep);
    ck_assert_int_eq(st, AVROGEN_OK);
    ck_assert_ptr_nonnull(c.rep);
    return c;
}

static void done(checked *c)
{
    avrogen_compat_free(c->rep);
    avrogen_schema_free(c->w);
    avrogen_schema_free(c->r);
}

/* Check `reader` against `writer`: the summary must be `expect` ("" when compatible). */
static void expect_report(const char *reader, const char *writer, const char *expect)
{
    checked c = run(reader, writer);
    char *got = summary(c.rep);
    ck_assert_msg(strcmp(got, expect) == 0, "reader %s\nwriter %s\nexpected:\n%sgot:\n%s", reader,
                  writer, expect, got);
    free(got);
    done(&c);
}

/* The message of the only incompatibility contains `needle`. */
static void expect_message(const char *reader, const char *writer, const char *needle)
{
    checked c = run(reader, writer);
    ck_assert_uint_eq(avrogen_compat_count(c.rep), 1);
    const char *msg = avrogen_compat_at(c.rep, 0)->message;
    ck_assert_msg(strstr(msg, needle) != NULL, "message \"%s\" lacks \"%s\"", msg, needle);
    done(&c);
}

/* ---- primitives ------------------------------------------------------------ */

static const char *const primitives[] = {"null",  "boolean", "int",   "long",
                                         "float", "double",  "bytes", "string"};
#define N_PRIMITIVES (sizeof primitives / sizeof primitives[0])

/* spec §Schema Resolution, written out independently of resolve.c. */
static bool promotes_to(const char *w, const char *r)
{
    static const char *const rules[][2] = {
            {"int", "long"},    {"int", "float"},    {"int", "double"},   {"long", "float"},
            {"long", "double"}, {"float", "double"}, {"string", "bytes"}, {"bytes", "string"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i][0], w) == 0 && strcmp(rules[i][1], r) == 0)
            return true;
    return false;
}

START_TEST(primitive_table)
{
    const char *r = primitives[(size_t)_i / N_PRIMITIVES];
    const char *w = primitives[(size_t)_i % N_PRIMITIVES];
    char rj[32], wj[32];
    snprintf(rj, sizeof rj, "'%s'", r);
    snprintf(wj, sizeof wj, "'%s'", w);
    bool ok = strcmp(r, w) == 0 || promotes_to(w, r);
    expect_report(rj, wj, ok ? "" : "type_mismatch / /\n");
}
END_TEST

START_TEST(type_mismatch_message)
{
    expect_message("'int'", "'long'", "the writer's long cannot be read as int");
    expect_message("{'type':'enum','name':'a.E','symbols':['X']}",
                   "{'type':'fixed','name':'F','size':1}",
                   "the writer's fixed F cannot be read as enum a.E");
    /* Logical types are ignored, as Java and Python ignore them. */
    expect_report("{'type':'long','logicalType':'timestamp-millis'}",
                  "{'type':'int','logicalType':'date'}", "");
    expect_report("'string'", "{'type':'string','logicalType':'uuid'}", "");
}
END_TEST

/* ---- containers ------------------------------------------------------------ */

START_TEST(arrays_and_maps)
{
    expect_report("{'type':'array','items':'long'}", "{'type':'array','items':'int'}", "");
    expect_report("{'type':'map','values':'double'}", "{'type':'map','values':'float'}", "");
    expect_report("{'type':'array','items':'int'}", "{'type':'array','items':'long'}",
                  "type_mismatch /items /items\n");
    expect_report("{'type':'map','values':{'type':'array','items':'int'}}",
                  "{'type':'map','values':{'type':'array','items':'string'}}",
                  "type_mismatch /values/items /values/items\n");
    expect_report("{'type':'array','items':'int'}", "{'type':'map','values':'int'}",
                  "type_mismatch / /\n");
}
END_TEST

/* ---- named types ----------------------------------------------------------- */

START_TEST(fixed_name_and_size)
{
    expect_report("{'type':'fixed','name':'F','size':4}", "{'type':'fixed','name':'F','size':4}",
                  "");
    expect_report("{'type':'fixed','name':'F','size':4}", "{'type':'fixed','name':'F','size':8}",
                  "fixed_size_mismatch /size /size\n");
    /* Both are reported, as Java and Python report both. */
    expect_report("{'type':'fixed','name':'G','size':4}", "{'type':'fixed','name':'F','size':8}",
                  "name_mismatch /name /name\nfixed_size_mismatch /size /size\n");
    expect_report("{'type':'fixed','name':'G','aliases':['x.F'],'size':4}",
                  "{'type':'fixed','name':'F','namespace':'x','size':4}", "");
    expect_message("{'type':'fixed','name':'F','size':4}", "{'type':'fixed','name':'F','size':8}",
                   "the writer's fixed F has size 8, the reader's F 4");
}
END_TEST

START_TEST(names_and_aliases)
{
    /* spec §Schema Resolution: names match unqualified, the namespace does not count. */
    expect_report("{'type':'enum','name':'E','namespace':'a','symbols':['X']}",
                  "{'type':'enum','name':'a.E','symbols':['X']}", "");
    expect_report("{'type':'enum','name':'E','namespace':'a','symbols':['X']}",
                  "{'type':'enum','name':'E','namespace':'b','symbols':['X']}", "");
    expect_report("{'type':'record','name':'x.y.R','fields':[{'name':'f','type':"
                  "{'type':'fixed','name':'F','size':2}}]}",
                  "{'type':'record','name':'p.q.R','fields':[{'name':'f','type':"
                  "{'type':'fixed','name':'F','size':2}}]}",
                  "");
    expect_report("{'type':'enum','name':'a.E','symbols':['X']}",
                  "{'type':'enum','name':'a.F','symbols':['X']}", "name_mismatch /name /name\n");
    /* An alias in another namespace names the writer's type by its last part too. */
    expect_report("{'type':'record','name':'New','aliases':['x.Old'],'fields':[]}",
                  "{'type':'record','name':'y.Old','fields':[]}", "");
    /* An alias of the reader names the writer's type; not the other way round. */
    expect_report("{'type':'record','name':'New','aliases':['Old'],'fields':[]}",
                  "{'type':'record','name':'Old','fields':[]}", "");
    expect_report("{'type':'record','name':'Old','fields':[]}",
                  "{'type':'record','name':'New','aliases':['Old'],'fields':[]}",
                  "name_mismatch /name /name\n");
    /* An unqualified alias takes the type's namespace. */
    expect_report("{'type':'record','name':'n.New','aliases':['Old'],'fields':[]}",
                  "{'type':'record','name':'n.Old','fields':[]}", "");
    expect_message("{'type':'record','name':'n.B','fields':[]}",
                   "{'type':'record','name':'n.A','fields':[]}",
                   "the writer's record n.A is neither the reader's n.B nor one of its aliases");
}
END_TEST

START_TEST(enum_symbols)
{
    const char *w = "{'type':'enum','name':'E','symbols':['A','B','C','D']}";
    expect_report("{'type':'enum','name':'E','symbols':['D','C','B','A','Z']}", w, "");
    expect_report("{'type':'enum','name':'E','symbols':['A','C']}", w,
                  "missing_enum_symbols /symbols /symbols\n");
    expect_message("{'type':'enum','name':'E','symbols':['A','C']}", w,
                   "the writer's symbols B, D are not in the reader's enum E, which has no "
                   "default");
    /* A reader default absorbs any unknown symbol. */
    expect_report("{'type':'enum','name':'E','symbols':['A','Q'],'default':'Q'}", w, "");
    /* A writer default is irrelevant. */
    expect_report("{'type':'enum','name':'E','symbols':['A']}",
                  "{'type':'enum','name':'E','symbols':['A','B'],'default':'A'}",
                  "missing_enum_symbols /symbols /symbols\n");
    expect_report("{'type':'enum','name':'F','symbols':['A']}", w,
                  "name_mismatch /name /name\nmissing_enum_symbols /symbols /symbols\n");
    expect_report("{'type':'enum','name':'E','symbols':['A']}",
                  "{'type':'enum','name':'E','symbols':[]}", "");
    expect_report("{'type':'enum','name':'E','symbols':[]}", w,
                  "missing_enum_symbols /symbols /symbols\n");
}
END_TEST

START_TEST(enum_many_missing_symbols)
{
    char wj[2048] = "{'type':'enum','name':'E','symbols':['S0'";
    for (int i = 1; i < 40; i++)
        snprintf(wj + strlen(wj), sizeof wj - strlen(wj), ",'S%d'", i);
    strcat(wj, "]}");
    expect_message("{'type':'enum','name':'E','symbols':['S0','S5']}", wj,
                   "S1, S2, S3, S4, S6, S7, S8, S9, S10, S11, S12, S13, S14, S15, S16, S17 (and 22 "
                   "more) are not");
}
END_TEST

/* ---- records ------------------------------------------------------------------ */

START_TEST(record_fields)
{
    const char *w = "{'type':'record','name':'R','fields':[{'name':'a','type':'int'},"
                    "{'name':'b','type':'string'}]}";
    /* Reordered, promoted, a writer field dropped, a reader field with a default. */
    expect_report("{'type':'record','name':'R','fields':[{'name':'c','type':'int','default':1},"
                  "{'name':'a','type':'double'}]}",
                  w, "");
    expect_report("{'type':'record','name':'R','fields':[{'name':'a','type':'int'},"
                  "{'name':'c','type':'int'}]}",
                  w, "reader_field_missing_default_value /fields/1 /\n");
    expect_message("{'type':'record','name':'R','fields':[{'name':'c','type':'int'}]}", w,
                   "reader field \"c\" of R has no default, and the writer's record R has no "
                   "such field");
    expect_report("{'type':'record','name':'R','fields':[{'name':'b','type':'int'},"
                  "{'name':'a','type':'string'}]}",
                  w,
                  "type_mismatch /fields/0/type /fields/1/type\n"
                  "type_mismatch /fields/1/type /fields/0/type\n");
    /* A wrong name does not stop the fields from being compared. */
    expect_report("{'type':'record','name':'S','fields':[{'name':'z','type':'int'}]}", w,
                  "name_mismatch /name /name\nreader_field_missing_default_value /fields/0 /\n");
    expect_report("{'type':'record','name':'R','fields':[]}", w, "");
}
END_TEST

START_TEST(field_aliases)
{
    const char *w = "{'type':'record','name':'R','fields':[{'name':'old','type':'int'}]}";
    expect_report("{'type':'record','name':'R','fields':[{'name':'new','aliases':['old'],"
                  "'type':'long'}]}",
                  w, "");
    expect_report("{'type':'record','name':'R','fields':[{'name':'new','aliases':['old'],"
                  "'type':'string'}]}",
                  w, "type_mismatch /fields/0/type /fields/0/type\n");
    /* A writer field feeds every reader field that names it or has it as an
     * alias, as in resolve.c (and Java, and Python's checker): no default is
     * needed, and each reader field is checked against it on its own. */
    const char *twice = "{'type':'record','name':'R','fields':[{'name':'old','type':'int'},"
                        "{'name':'new','aliases':['old'],'type':'int'}]}";
    expect_report(twice, w, "");
    expect_report("{'type':'record','name':'R','fields':[{'name':'old','type':'int'},"
                  "{'name':'new','aliases':['old'],'type':'string'}]}",
                  w, "type_mismatch /fields/1/type /fields/0/type\n");
    /* An alias on the writer's field means nothing to the reader. */
    expect_report("{'type':'record','name':'R','fields':[{'name':'new','type':'int'}]}",
                  "{'type':'record','name':'R','fields':[{'name':'old','aliases':['new'],"
                  "'type':'int'}]}",
                  "reader_field_missing_default_value /fields/0 /\n");
}
END_TEST

START_TEST(nested_paths_and_fields)
{
    const char *r = "{'type':'record','name':'R','fields':["
                    "{'name':'x','type':'int'},"
                    "{'name':'in','type':{'type':'record','name':'In','fields':["
                    "{'name':'p','type':'int'},{'name':'q','type':'int'}]}}]}";
    const char *w = "{'type':'record','name':'R','fields':["
                    "{'name':'in','type':{'type':'record','name':'In','fields':["
                    "{'name':'q','type':'string'}]}},"
                    "{'name':'x','type':'int'}]}";
    checked c = run(r, w);
    char *got = summary(c.rep);
    ck_assert_str_eq(got, "reader_field_missing_default_value /fields/1/type/fields/0 "
                          "/fields/0/type\n"
                          "type_mismatch /fields/1/type/fields/1/type "
                          "/fields/0/type/fields/0/type\n");
    free(got);
    const avrogen_node *rin = avrogen_schema_find(c.r, "In");
    const avrogen_node *win = avrogen_schema_find(c.w, "In");
    const avrogen_incompatibility *x = avrogen_compat_at(c.rep, 0);
    ck_assert_ptr_eq(x->reader_field, &rin->fields[0]); /* the field itself */
    ck_assert_ptr_eq(x->reader, rin->fields[0].type);
    ck_assert_ptr_eq(x->writer, win);
    ck_assert_ptr_eq(x->writer_field, &avrogen_schema_root(c.w)->fields[0]);
    x = avrogen_compat_at(c.rep, 1);
    ck_assert_ptr_eq(x->reader_field, &rin->fields[1]);
    ck_assert_ptr_eq(x->writer_field, &win->fields[0]);
    ck_assert_ptr_eq(x->reader, rin->fields[1].type);
    ck_assert_ptr_eq(x->writer, win->fields[0].type);
    ck_assert_ptr_null(avrogen_compat_at(c.rep, 2));
    done(&c);

    /* At the root no field is crossed. */
    c = run("'int'", "'string'");
    ck_assert_uint_eq(avrogen_compat_count(c.rep), 1);
    ck_assert_ptr_null(avrogen_compat_at(c.rep, 0)->reader_field);
    ck_assert_ptr_null(avrogen_compat_at(c.rep, 0)->writer_field);
    ck_assert_ptr_eq(avrogen_compat_at(c.rep, 0)->reader, avrogen_schema_root(c.r));
    ck_assert_ptr_eq(avrogen_compat_at(c.rep, 0)->writer, avrogen_schema_root(c.w));
    done(&c);
}
END_TEST

/* ---- unions ------------------------------------------------------------------- */

/* spec §Logical Types, Decimal: two decimals match only with the same scale and precision. */
START_TEST(decimals)
{
    const char *d92 = "{'type':'bytes','logicalType':'decimal','precision':9,'scale':2}";
    const char *d93 = "{'type':'bytes','logicalType':'decimal','precision':9,'scale':3}";
    char a[256], b[256];
    snprintf(a, sizeof a, "%s", d92);
    snprintf(b, sizeof b, "%s", d93);
    expect_report(a, a, "");
    expect_report(b, a, "type_mismatch / /\n");
    expect_message(b, a, "decimal(9, 2) cannot be read as decimal(9, 3)");
    expect_report("{'type':'bytes','logicalType':'decimal','precision':10,'scale':2}", a,
                  "type_mismatch / /\n");
    expect_report("'bytes'", a, "");
    expect_report(a, "'bytes'", "");
    expect_report("{'type':'record','name':'R','fields':[{'name':'v','type':{'type':'fixed',"
                  "'name':'F','size':4,'logicalType':'decimal','precision':9,'scale':3}}]}",
                  "{'type':'record','name':'R','fields':[{'name':'v','type':{'type':'fixed',"
                  "'name':'F','size':4,'logicalType':'decimal','precision':9,'scale':2}}]}",
                  "type_mismatch /fields/0/type /fields/0/type\n");
}
END_TEST

/* Issue 12: each pair of named types is checked once, however often it is used. */
START_TEST(fanout_linear)
{
    char *text = test_fanout_schema(40, "{\"name\":\"x\",\"type\":\"int\"}");
    char *wider = test_fanout_schema(40, "{\"name\":\"x\",\"type\":\"long\"}");
    expect_report(text, text, "");
    expect_report(wider, text, "");
    checked c = run(text, wider);
    ck_assert_uint_eq(avrogen_compat_count(c.rep), 1);
    ck_assert_str_eq(avrogen_compat_at(c.rep, 0)->reader_path,
                     "/fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type/fields/0/type/fields/0/type/fields/0/type/fields/0/type/"
                     "fields/0/type");
    done(&c);
    free(text);
    free(wider);
}
END_TEST

START_TEST(writer_union_plain_reader)
{
    /* Each writer branch must be readable; a branch reports its own incompatibilities. */
    expect_report("'long'", "['int','long']", "");
    expect_report("'long'", "['null','int','string']", "type_mismatch / /0\ntype_mismatch / /2\n");
    expect_report("{'type':'record','name':'R','fields':[{'name':'a','type':'int'}]}",
                  "['null',{'type':'record','name':'R','fields':[]}]",
                  "type_mismatch / /0\nreader_field_missing_default_value /fields/0 /1\n");
    expect_report("'int'", "[]", "");
}
END_TEST

START_TEST(union_to_union)
{
    expect_report("['null','string','long']", "['long','null']", "");
    expect_report("['null','long']", "['null','int','string','boolean']",
                  "missing_union_branch / /2\nmissing_union_branch / /3\n");
    expect_message("['null','long']", "['null','string']",
                   "branch 1 (string) of the writer's union matches no branch of the reader's "
                   "union");
    /* The reader's branch matches by name but cannot read the writer's record. */
    const char *r = "['null',{'type':'record','name':'R','fields':[{'name':'a','type':'int'}]}]";
    const char *w = "['null',{'type':'record','name':'R','fields':[]}]";
    expect_report(r, w, "missing_union_branch / /1\n");
    expect_message(r, w,
                   "branch 1 (record R) of the writer's union matches branch 1 of the reader's "
                   "union, which cannot read it");
    expect_report("{'type':'array','items':['null','int']}",
                  "{'type':'array','items':['int','float']}",
                  "missing_union_branch /items /items/1\n");
}
END_TEST

START_TEST(reader_union_plain_writer)
{
    expect_report("['null','long']", "'int'", "");
    expect_report("['null','string']", "'int'", "missing_union_branch / /\n");
    expect_message("['null','string']", "'int'",
                   "the writer's int matches no branch of the reader's union");
    /* The first branch that matches decides (spec), here by promotion. */
    expect_report("['float','long','double']", "'int'", "");
    expect_report("['bytes','string']", "'string'", "");
    /* Only the missing branch is reported, not why the matching branch fails. */
    const char *r = "['null',{'type':'record','name':'R','fields':[{'name':'a','type':'int'}]}]";
    const char *w = "{'type':'record','name':'R','fields':[]}";
    expect_report(r, w, "missing_union_branch / /\n");
    expect_message(r, w,
                   "the writer's record R matches branch 1 of the reader's union, which "
                   "cannot read it");
    expect_report("['null',{'type':'array','items':'long'}]", "{'type':'array','items':'int'}", "");
    expect_report("['null',{'type':'array','items':'int'}]", "{'type':'array','items':'long'}",
                  "missing_union_branch / /\n");
    expect_report("['null',{'type':'fixed','name':'F','size':2}]",
                  "{'type':'fixed','name':'F','size':3}", "missing_union_branch / /\n");
    expect_report("['null',{'type':'enum','name':'E','symbols':['A']}]",
                  "{'type':'enum','name':'E','symbols':['A','B']}", "missing_union_branch / /\n");
    expect_report("['null',{'type':'enum','name':'E','symbols':['A'],'default':'A'}]",
                  "{'type':'enum','name':'E','symbols':['A','B']}", "");
    expect_report("[]", "'null'", "missing_union_branch / /\n");
}
END_TEST

START_TEST(quiet_then_reported)
{
    /*
     * The pair (In, In) is first met inside a reader union, where only the
     * missing branch is reported; met again directly, its own incompatibility
     * must still be reported (Python's cached result carries it too).
     */
    const char *r = "{'type':'record','name':'R','fields':["
                    "{'name':'a','type':['null',{'type':'record','name':'In','fields':["
                    "{'name':'v','type':'int'}]}]},"
                    "{'name':'b','type':'In'}]}";
    const char *w = "{'type':'record','name':'R','fields':["
                    "{'name':'a','type':{'type':'record','name':'In','fields':[]}},"
                    "{'name':'b','type':'In'}]}";
    expect_report(r, w,
                  "missing_union_branch /fields/0/type /fields/0/type\n"
                  "reader_field_missing_default_value /fields/1/type/fields/0 /fields/1/type\n");
    /* The other order: reported first, then the union reuses the verdict. */
    const char *r2 = "{'type':'record','name':'R','fields':["
                     "{'name':'b','type':{'type':'record','name':'In','fields':["
                     "{'name':'v','type':'int'}]}},"
                     "{'name':'a','type':['null','In']}]}";
    const char *w2 = "{'type':'record','name':'R','fields':["
                     "{'name':'b','type':{'type':'record','name':'In','fields':[]}},"
                     "{'name':'a','type':'In'}]}";
    expect_report(r2, w2,
                  "reader_field_missing_default_value /fields/0/type/fields/0 /fields/0/type\n"
                  "missing_union_branch /fields/1/type /fields/1/type\n");
}
END_TEST

/* ---- recursion ------------------------------------------------------------------ */

START_TEST(recursive_types)
{
    const char *list = "{'type':'record','name':'L','fields':[{'name':'v','type':'int'},"
                       "{'name':'next','type':['null','L']}]}";
    expect_report(list, list, "");
    expect_report("{'type':'record','name':'L','fields':[{'name':'v','type':'long'},"
                  "{'name':'next','type':['null','L']},"
                  "{'name':'tag','type':'string','default':''}]}",
                  list, "");
    /* Reported once, at the first place the pair is met. */
    expect_report("{'type':'record','name':'L','fields':[{'name':'v','type':'string'},"
                  "{'name':'next','type':['null','L']}]}",
                  list, "type_mismatch /fields/0/type /fields/0/type\n");
    /* A missing field inside the recursion: the pair in progress counts as compatible. */
    expect_report("{'type':'record','name':'L','fields':[{'name':'v','type':'int'},"
                  "{'name':'w','type':'int'},{'name':'next','type':['null','L']}]}",
                  list, "reader_field_missing_default_value /fields/1 /\n");
    const char *tree = "{'type':'record','name':'T','fields':["
                       "{'name':'kids','type':{'type':'array','items':'T'}},"
                       "{'name':'attrs','type':{'type':'map','values':'T'}}]}";
    expect_report(tree, tree, "");
}
END_TEST

START_TEST(mutual_recursion)
{
    const char *w = "{'type':'record','name':'A','fields':[{'name':'b','type':['null',"
                    "{'type':'record','name':'B','fields':[{'name':'a','type':['null','A']},"
                    "{'name':'n','type':'int'}]}]}]}";
    expect_report(w, w, "");
    expect_report("{'type':'record','name':'A','fields':[{'name':'b','type':['null',"
                  "{'type':'record','name':'B','fields':[{'name':'a','type':['null','A']},"
                  "{'name':'n','type':'boolean'}]}]}]}",
                  w, "missing_union_branch /fields/0/type /fields/0/type/1\n");
    expect_report("{'type':'record','name':'A','fields':[{'name':'b','type':"
                  "{'type':'record','name':'B','fields':[{'name':'a','type':['null','A']},"
                  "{'name':'n','type':'boolean'}]}}]}",
                  w,
                  "type_mismatch /fields/0/type /fields/0/type/0\n"
                  "type_mismatch /fields/0/type/fields/1/type /fields/0/type/1/fields/1/type\n");
}
END_TEST

/*
 * Record R0 whose field f starts a chain of n records, each R<i> with a field
 * of type R<i+1>, defined first in the union of field `defs`. Reader and
 * writer name `defs` differently, so the walk skips it (it has a default) and
 * meets the chain from R1 down: n levels deep.
 */
static char *chain(int n, const char *defs)
{
    size_t cap = (size_t)n * 96 + 128;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)snprintf(s, cap,
                                  "{'type':'record','name':'R0','fields':[{'name':'%s','type':["
                                  "'null',{'type':'record','name':'R%d','fields':[]}",
                                  defs, n);
    for (int i = n - 1; i >= 1; i--)
        len += (size_t)snprintf(
                s + len, cap - len,
                ",{'type':'record','name':'R%d','fields':[{'name':'f','type':'R%d'}]}", i, i + 1);
    snprintf(s + len, cap - len, "],'default':null},{'name':'f','type':'R1'}]}");
    return s;
}

START_TEST(nesting_limit)
{
    char *r = chain(300, "x"), *w = chain(300, "y");
    expect_report(r, w, "");
    free(r);
    free(w);
    r = chain(5000, "x");
    w = chain(5000, "y");
    avrogen_schema *rs = parse(r), *ws = parse(w);
    avrogen_compat_report *rep = (avrogen_compat_report *)rs; /* must be reset to NULL */
    avrogen_status st =
            avrogen_compat_check(avrogen_schema_root(rs), avrogen_schema_root(ws), NULL, &rep);
    ck_assert_int_eq(st, AVROGEN_E_LIMIT);
    ck_assert_ptr_null(rep);
    /* The same chain met through the writer's union is shallow: each link is known. */
    st = avrogen_compat_check(avrogen_schema_root(ws), avrogen_schema_root(ws), NULL, &rep);
    ck_assert_int_eq(st, AVROGEN_OK);
    ck_assert_uint_eq(avrogen_compat_count(rep), 0);
    avrogen_compat_free(rep);
    avrogen_schema_free(ws);
    avrogen_schema_free(rs);
    free(r);
    free(w);
}
END_TEST

/* ---- API and allocation -------------------------------------------------------- */

START_TEST(api_edges)
{
    static const char *const names[] = {
            "name_mismatch",        "fixed_size_mismatch",
            "missing_enum_symbols", "reader_field_missing_default_value",
            "type_mismatch",        "missing_union_branch"};
    for (int k = AVROGEN_INCOMPAT_NAME_MISMATCH; k <= AVROGEN_INCOMPAT_MISSING_UNION_BRANCH; k++)
        ck_assert_str_eq(avrogen_incompat_name((avrogen_incompat)k), names[k]);
    avrogen_compat_free(NULL);
    checked c = run("'int'", "'int'");
    ck_assert_uint_eq(avrogen_compat_count(c.rep), 0);
    ck_assert_ptr_null(avrogen_compat_at(c.rep, 0));
    done(&c);
}
END_TEST

START_TEST(many_incompatibilities)
{
    /* More items than the report's first allocation, all kept in walk order. */
    char r[8192] = "{'type':'record','name':'R','fields':[", w[8192];
    strcpy(w, r);
    for (int i = 0; i < 100; i++) {
        snprintf(r + strlen(r), sizeof r - strlen(r), "%s{'name':'f%d','type':'int'}", i ? "," : "",
                 i);
        snprintf(w + strlen(w), sizeof w - strlen(w), "%s{'name':'f%d','type':'string'}",
                 i ? "," : "", i);
    }
    strcat(r, "]}");
    strcat(w, "]}");
    checked c = run(r, w);
    ck_assert_uint_eq(avrogen_compat_count(c.rep), 100);
    for (size_t i = 0; i < 100; i++) {
        char want[64];
        snprintf(want, sizeof want, "/fields/%zu/type", i);
        ck_assert_str_eq(avrogen_compat_at(c.rep, i)->reader_path, want);
    }
    done(&c);
}
END_TEST

START_TEST(fail_until_ok)
{
    /* Every allocating path: records, enums, unions both ways, many items, recursion. */
    avrogen_schema *r = parse("{'type':'record','name':'R','fields':["
                              "{'name':'e','type':{'type':'enum','name':'E','symbols':['A']}},"
                              "{'name':'u','type':['null',{'type':'record','name':'In','fields':["
                              "{'name':'v','type':'int'}]}]},"
                              "{'name':'d','type':'In'},"
                              "{'name':'l','type':{'type':'array','items':['null','R']}},"
                              "{'name':'m','type':{'type':'map','values':'long'}},"
                              "{'name':'z','type':'int'}]}");
    avrogen_schema *w =
            parse("{'type':'record','name':'R','fields':["
                  "{'name':'e','type':{'type':'enum','name':'E','symbols':['A','B','C']}},"
                  "{'name':'u','type':{'type':'record','name':'In','fields':[]}},"
                  "{'name':'d','type':'In'},"
                  "{'name':'l','type':{'type':'array','items':['R','string']}},"
                  "{'name':'m','type':{'type':'map','values':['int','boolean']}}]}");
    size_t expect = 0;
    for (long fail = 1;; fail++) {
        test_alloc ta;
        test_alloc_init(&ta, fail);
        avrogen_compat_report *rep;
        avrogen_status st = avrogen_compat_check(avrogen_schema_root(r), avrogen_schema_root(w),
                                                 &ta.base, &rep);
        if (st == AVROGEN_OK) {
            expect = avrogen_compat_count(rep);
            avrogen_compat_free(rep);
            ck_assert_int_eq(ta.live, 0);
            ck_assert_int_gt(fail, 1);
            break;
        }
        ck_assert_int_eq(st, AVROGEN_E_NOMEM);
        ck_assert_ptr_null(rep);
        ck_assert_int_eq(ta.live, 0);
        ck_assert_int_lt(fail, 1000);
    }
    /* missing symbols, missing union branch, missing default in In, missing
     * branch for string, type mismatch for boolean, missing default for z. */
    ck_assert_uint_eq(expect, 6);
    avrogen_schema_free(w);
    avrogen_schema_free(r);
}
END_TEST

static Suite *compat_suite(void)
{
    Suite *s = suite_create("compat");
    TCase *tc = tcase_create("primitive");
    tcase_add_loop_test(tc, primitive_table, 0, (int)(N_PRIMITIVES * N_PRIMITIVES));
    tcase_add_test(tc, type_mismatch_message);
    tcase_add_test(tc, arrays_and_maps);
    suite_add_tcase(s, tc);

    tc = tcase_create("named");
    tcase_add_test(tc, fixed_name_and_size);
    tcase_add_test(tc, names_and_aliases);
    tcase_add_test(tc, enum_symbols);
    tcase_add_test(tc, enum_many_missing_symbols);
    suite_add_tcase(s, tc);

    tc = tcase_create("record");
    tcase_add_test(tc, record_fields);
    tcase_add_test(tc, field_aliases);
    tcase_add_test(tc, nested_paths_and_fields);
    suite_add_tcase(s, tc);

    tc = tcase_create("union");
    tcase_add_test(tc, writer_union_plain_reader);
    tcase_add_test(tc, fanout_linear);
    tcase_add_test(tc, decimals);
    tcase_add_test(tc, union_to_union);
    tcase_add_test(tc, reader_union_plain_writer);
    tcase_add_test(tc, quiet_then_reported);
    suite_add_tcase(s, tc);

    tc = tcase_create("recursion");
    tcase_add_test(tc, recursive_types);
    tcase_add_test(tc, mutual_recursion);
    tcase_add_test(tc, nesting_limit);
    suite_add_tcase(s, tc);

    tc = tcase_create("api");
    tcase_add_test(tc, api_edges);
    tcase_add_test(tc, many_incompatibilities);
    tcase_add_test(tc, fail_until_ok);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(compat_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
