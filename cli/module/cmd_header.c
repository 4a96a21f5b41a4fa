/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen header: the annotated C header of each record schema given, proven
 * to derive that schema again before it is written (emit_header.h).
 *
 *     avrogen header schemas/order.avsc -o include     # include/order.h
 *     avrogen header --from-file events.avro -o gen    # the file's embedded schema
 *     avrogen header order.avsc --views                # avrogen_str strings, on stdout
 *
 * Attributes no annotation can carry (unknown properties, logical types the
 * specification ignores) are named in one warning each and dropped; the
 * Parsing Canonical Form drops them too.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avrogen/ocf.h>
#include <avrogen/schema.h>
#include <sys/stat.h>

#include "cli.h"
#include "emit/avsc_compare.h"
#include "emit/emit_header.h"
#include "genutil.h"
#include "header_verify.h"
#include "outputs.h"

struct input {
    const char *arg;
    bool container; /* --from-file: an object container file */
};

/* The schema text of one input, malloc'd, and the name messages use for it. */
static int load_text(const struct input *in, char **text, size_t *len, const char **label)
{
    *label = in->arg;
    if (in->container) {
        /* Opened as every verb opens one (only its header is read here). */
        avrogen_ocf_reader *r;
        int rc = cli_open_reader(in->arg, &r);
        if (rc != 0)
            return rc;
        avrogen_bytes schema;
        bool found = avrogen_ocf_reader_meta_get(r, "avro.schema", &schema);
        *text = found ? xstrndup((const char *)schema.ptr, schema.len) : NULL;
        *len = found ? schema.len : 0;
        avrogen_ocf_reader_close(r);
        if (!found)
            return cli_error("%s: the file has no avro.schema", in->arg);
        return 0;
    }
    return cli_schema_text(in->arg, text, len, label);
}

/* "dir/order.avsc" → "order"; NULL for stdin and JSON text. */
static char *stem_of(const struct input *in, const char *label)
{
    if (strcmp(in->arg, "-") == 0 || strcmp(label, "<argument>") == 0)
        return NULL;
    const char *base = strrchr(in->arg, '/');
    base = base ? base + 1 : in->arg;
    const char *dot = strrchr(base, '.');
    return xstrndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* ORDER_AVSC_H for stem "order". */
static char *guard_of(const char *stem)
{
    char *g = xasprintf("%s%s_AVSC_H", stem[0] >= '0' && stem[0] <= '9' ? "H" : "", stem);
    for (char *p = g; *p; p++) {
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
        else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    }
    while (g[0] == '_')
        memmove(g, g + 1, strlen(g));
    return g;
}

struct warn_ctx {
    const char *label;
};

static void warn_dropped(void *ctx, const char *path, const char *what)
{
    const struct warn_ctx *w = ctx;
    fprintf(stderr,
            "avrogen: warning: %s: %s: %s is not carried into the header (no annotation holds "
            "it, and the canonical form has none)\n",
            w->label, path, what);
}

/*
 * The file names `avrogen generate` derives from the header: <stem>.avro.h
 * and <stem>.avro.c, and <fullname>.avsc for every record (a namespace is in
 * it whole). One longer than a file name may be (NAME_MAX, less the suffix
 * of the temporary name it is written through) would fail there,
 * after this header was written; so it fails here, naming the schema, the
 * record and the file. 0, or EXIT_BAD_INPUT after an error line for each.
 */
/* generate writes each file as "<name>.tmp.<pid>" first (gen/outputs.c); a pid is at most 2^22. */
#define NAME_LIMIT (NAME_MAX - (int)(sizeof ".tmp.4194304" - 1))

struct names {
    const char *label;
    const avrogen_node **seen; /* records visited */
    size_t n_seen;
    int rc;
};

static void name_fits(struct names *c, const char *what, const char *file, const char *how)
{
    size_t len = strlen(file);
    if (len <= NAME_LIMIT)
        return;
    cli_error("%s: %s: `avrogen generate` of its header would write '%s', a file name of %zu "
              "bytes, more than the %d it may have (NAME_MAX, %d, less its temporary name's "
              "suffix): shorten %s",
              c->label, what, file, len, NAME_LIMIT, NAME_MAX, how);
    c->rc = EXIT_BAD_INPUT;
}

static void record_names(struct names *c, const avrogen_node *n)
{
    switch (n->kind) {
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < c->n_seen; i++)
            if (c->seen[i] == n)
                return;
        c->seen = xappend(c->seen, c->n_seen, sizeof *c->seen);
        c->seen[c->n_seen++] = n;
        char *file = xasprintf("%s.avsc", n->fullname);
        char *what = xasprintf("record '%s'", n->fullname);
        name_fits(c, what, file, "its namespace or name");
        free(what);
        free(file);
        for (size_t i = 0; i < n->n_fields; i++)
            record_names(c, n->fields[i].type);
        break;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        record_names(c, n->items);
        break;
    case AVROGEN_KIND_UNION:
        for (size_t i = 0; i < n->n_branches; i++)
            record_names(c, n->branches[i]);
        break;
    default:
        break;
    }
}

static int names_fit(const char *label, const char *stem, const avrogen_node *root)
{
    struct names c = {label, NULL, 0, 0};
    char *file = xasprintf("%s.avro.c", stem);
    char *what = xasprintf("header '%s.h'", stem);
    name_fits(&c, what, file, "the schema file's name (or the record's, from standard input)");
    free(what);
    free(file);
    record_names(&c, root);
    free(c.seen);
    return c.rc;
}

/* mkdir -p. */
static int make_dirs(const char *dir)
{
    char *p = xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

/* One input: its header queued in *outs (or printed), 0 or an exit status. */
static int one(const struct input *in, const char *out_dir, bool views, struct gen_outputs *outs)
{
    char *text;
    size_t len;
    const char *label;
    int rc = load_text(in, &text, &len, &label);
    if (rc != 0)
        return rc;
    avrogen_schema *s = NULL;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_schema_parse(text, len, NULL, &s, &d);
    if (st != AVROGEN_OK) {
        free(text);
        if (d.line > 0)
            return cli_error("%s:%d:%d: %s", label, d.line, d.column, d.msg);
        return cli_error("%s: %s%s%s", label, d.path, d.path[0] ? ": " : "",
                         d.msg[0] ? d.msg : avrogen_status_str(st));
    }
    struct warn_ctx w = {label};
    avsc_dropped(text, len, s, warn_dropped, &w);
    free(text);

    const avrogen_node *root = avrogen_schema_root(s);
    char *stem = stem_of(in, label);
    if (!stem)
        stem = xstrdup(root->kind == AVROGEN_KIND_RECORD ? root->name : "schema");
    if ((rc = names_fit(label, stem, root)) != 0) {
        fprintf(stderr, "avrogen: error: %s: no header written\n", label);
        free(stem);
        avrogen_schema_free(s);
        return rc;
    }
    char *guard = guard_of(stem);
    char *name = xasprintf("%s.h", stem);
    const char *source = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
    struct emit_header_options o = {source, guard, AVROGEN_VERSION, views};
    struct header_problems p = {NULL, 0};
    char *header = NULL;
    rc = emit_header(s, &o, &header, &p);
    if (rc == 1) {
        for (size_t i = 0; i < p.n; i++)
            cli_error("%s: %s", label, p.v[i]);
        fprintf(stderr,
                "avrogen: error: %s: no header written: the schema has no C "
                "representation (DESIGN.md, \"C structs from a schema\")\n",
                label);
    } else if (rc == 2) {
        cli_error("out of memory");
        rc = EXIT_USAGE;
    } else {
        char *shown = out_dir ? xasprintf("%s/%s", out_dir, name) : xstrdup(name);
        rc = header_verify(header, shown, s, stderr);
        if (rc == 1)
            fprintf(stderr,
                    "avrogen: error: %s: no header written: the header avrogen would write does "
                    "not derive the schema (a bug in avrogen: please report it with the "
                    "schema)\n",
                    label);
        free(shown);
        if (rc == 0 && out_dir) {
            if (gen_outputs_add(outs, out_dir, name, header, strlen(header)) != 0)
                rc = EXIT_USAGE;
            header = NULL;
        } else if (rc == 0) {
            fputs(header, stdout);
        }
    }
    header_problems_free(&p);
    free(header);
    free(name);
    free(guard);
    free(stem);
    avrogen_schema_free(s);
    return rc;
}

int cmd_header(int argc, char **argv)
{
    struct input *ins = xcalloc((size_t)argc, sizeof *ins);
    size_t n = 0;
    const char *out_dir = NULL;
    bool views = false;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i == argc) {
                rc = cli_usage("header: %s needs a directory", a);
                goto out;
            }
            out_dir = argv[i];
        } else if (strcmp(a, "--from-file") == 0) {
            if (++i == argc) {
                rc = cli_usage("header: --from-file needs a container file (.avro)");
                goto out;
            }
            ins[n++] = (struct input){argv[i], true};
        } else if (strcmp(a, "--views") == 0) {
            views = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = cli_unknown_option("header", a);
            goto out;
        } else {
            ins[n++] = (struct input){a, false};
        }
    }
    if (n == 0) {
        rc = cli_usage("header: no schema given (SCHEMA.avsc... or --from-file FILE.avro)");
        goto out;
    }
    if (!out_dir && n > 1) {
        rc = cli_usage("header: more than one schema needs -o DIR (one header each)");
        goto out;
    }
    struct gen_outputs outs = {NULL, 0, 0};
    for (size_t i = 0; i < n; i++) {
        int r = one(&ins[i], out_dir, views, &outs);
        if (r > rc)
            rc = r;
    }
    /* Nothing is written, not even DIR, unless every header could be. */
    if (rc == 0 && out_dir && make_dirs(out_dir) != 0)
        rc = cli_error("cannot create directory '%s': %s", out_dir, strerror(errno));
    else if (rc == 0 && gen_outputs_write(&outs, stderr) != 0)
        rc = EXIT_BAD_INPUT;
    gen_outputs_free(&outs);
out:
    free(ins);
    return rc;
}
