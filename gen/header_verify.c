/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The proof behind `avrogen header`: run the generator's own pipeline
 * (libclang → model → .avsc) on a header it is about to write and compare
 * the schema it derives with the one the header was written from. A header
 * that would derive anything else is never written.
 */
#include "header_verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "emit/avsc_compare.h"
#include "emit/emit_avsc.h"
#include "genutil.h"
#include "parse/parse.h"

/* Copy `text` to `out`, each `from` replaced by `to`. */
static void put_replaced(FILE *out, const char *text, const char *from, const char *to)
{
    size_t n = strlen(from);
    for (const char *p = text; *p;) {
        const char *hit = strstr(p, from);
        if (!hit) {
            fputs(p, out);
            break;
        }
        fwrite(p, 1, (size_t)(hit - p), out);
        fputs(to, out);
        p = hit + n;
    }
}

/* Write `text` to a fresh temporary directory as `base`; the path, or NULL. */
static char *write_temp(const char *text, const char *base, char **dir)
{
    const char *tmp = getenv("TMPDIR");
    char *d = xasprintf("%s/avrogen-header.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d)) {
        free(d);
        return NULL;
    }
    char *path = xasprintf("%s/%s", d, base);
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok) {
        unlink(path);
        rmdir(d);
        free(path);
        free(d);
        return NULL;
    }
    *dir = d;
    return path;
}

int header_verify(const char *text, const char *name, const avrogen_schema *want, FILE *err)
{
    const char *slash = strrchr(name, '/');
    char *dir = NULL;
    char *path = write_temp(text, slash ? slash + 1 : name, &dir);
    if (!path) {
        fprintf(err, "avrogen: error: cannot write a temporary header: %s\n", strerror(errno));
        return 2;
    }
    /* The generator's messages name the temporary file: show the real name. */
    char *msgs = NULL;
    size_t msgs_len = 0;
    FILE *mem = open_memstream(&msgs, &msgs_len);
    if (!mem) {
        unlink(path);
        rmdir(dir);
        free(path);
        free(dir);
        return 2;
    }
    struct diag d;
    diag_init(&d, mem);
    int status = 0;
    struct cunit *u = NULL;
    struct model *m = NULL;
    int rc = clang_parse(path, NULL, 0, &d, &u);
    if (rc == 0) {
        rc = model_build(u, &d, &m);
        cunit_free(u);
    }
    if (rc == 0 && emit_avsc(m, &d) != 0)
        rc = 1;
    const avrogen_node *root = avrogen_schema_root(want);
    const struct model_record *r = rc == 0 ? model_find_record(m, root->fullname) : NULL;
    avrogen_schema *got = NULL;
    char *why = NULL;
    if (rc == 2) {
        status = 2;
    } else if (rc != 0 || !r || !r->avsc) {
        status = 1;
        why = xstrdup("the generator does not accept the header it was given");
    } else {
        avrogen_diag pd;
        if (avrogen_schema_parse(r->avsc, strlen(r->avsc), NULL, &got, &pd) != AVROGEN_OK) {
            status = 1;
            why = xasprintf("the derived schema does not parse: %s: %s", pd.path, pd.msg);
        } else if (avsc_compare(want, got, &why) != 0) {
            status = 1;
        }
    }
    fclose(mem);
    if (status != 0 && msgs)
        put_replaced(err, msgs, path, name);
    if (why)
        fprintf(err, "avrogen: error: %s: %s\n", name, why);
    free(msgs);
    free(why);
    avrogen_schema_free(got);
    model_free(m);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
    return status;
}
