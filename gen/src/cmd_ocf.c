/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The container-file subcommands: cat (optionally resolving records into
 * another schema's shape), getschema, write. All three stream: a file of any
 * size is read or written one block at a time. On a terminal, long runs
 * report progress on stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "avrogen/gencode.h"
#include "avrogen/ocf.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cli.h"

/* Progress on stderr, at most once a second, only when stderr is a terminal. */
struct progress {
    bool on;
    bool shown; /* a progress line is on the screen */
    time_t last;
    const char *verb;
};

static void progress_init(struct progress *p, const char *verb)
{
    p->on = isatty(STDERR_FILENO) != 0;
    p->shown = false;
    p->last = time(NULL);
    p->verb = verb;
}

static void progress_tick(struct progress *p, uint64_t records)
{
    if (!p->on || (records & 0x3ff) != 0)
        return;
    time_t now = time(NULL);
    if (now != p->last) {
        p->last = now;
        p->shown = true;
        fprintf(stderr, "\ravrogen: %s %llu records", p->verb, (unsigned long long)records);
    }
}

static void progress_done(struct progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
}

static int open_reader(const char *path, avrogen_ocf_reader **r)
{
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = strcmp(path, "-") == 0 ? avrogen_ocf_reader_open_file(stdin, NULL, r, &d)
                                               : avrogen_ocf_reader_open(path, NULL, r, &d);
    if (st != AVROGEN_OK)
        return cli_error("%s: %s", path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    return 0;
}

int cmd_getschema(int argc, char **argv)
{
    if (argc != 2)
        return cli_usage("usage: avrogen getschema FILE.avro");
    avrogen_ocf_reader *r;
    int rc = open_reader(argv[1], &r);
    if (rc != 0)
        return rc;
    avrogen_bytes schema;
    if (avrogen_ocf_reader_meta_get(r, "avro.schema", &schema)) {
        fwrite(schema.ptr, 1, schema.len, stdout);
        if (schema.len == 0 || schema.ptr[schema.len - 1] != '\n')
            putchar('\n');
    }
    if (fflush(stdout) != 0)
        rc = cli_error("writing output: %s", strerror(errno));
    avrogen_ocf_reader_close(r);
    return rc;
}

int cmd_cat(int argc, char **argv)
{
    const char *path = NULL, *schema_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--schema") == 0) {
            if (i + 1 == argc)
                return cli_usage("cat: --schema needs a value");
            schema_arg = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage("cat: unknown option '%s'", a);
        } else if (path == NULL) {
            path = a;
        } else {
            return cli_usage("cat: too many operands");
        }
    }
    if (path == NULL)
        return cli_usage("usage: avrogen cat FILE.avro [--schema S]");

    avrogen_schema *reader = NULL;
    int rc = 0;
    if (schema_arg != NULL && (rc = cli_load_schema(schema_arg, &reader)) != 0)
        return rc;
    avrogen_ocf_reader *r;
    if ((rc = open_reader(path, &r)) != 0) {
        avrogen_schema_free(reader);
        return rc;
    }
    /* With --schema, records are resolved from the file's schema into its shape
     * (spec §Schema Resolution). The same canonical form reads as written. */
    const avrogen_node *type = NULL;
    if (reader != NULL && avrogen_schema_fingerprint64(reader) != avrogen_ocf_reader_fingerprint(r))
        type = avrogen_schema_root(reader);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    avrogen_writer out;
    avrogen_writer_init_growable(&out, NULL);
    struct progress prog;
    progress_init(&prog, "read");
    uint64_t records = 0;
    /* Records before a damaged block or datum are printed; the error names its
     * offset. A schema that cannot be resolved fails before the first record. */
    for (;;) {
        avrogen_value v;
        bool got;
        avrogen_arena_reset(&arena);
        if (avrogen_ocf_reader_next_value(r, type, &v, &arena, &got) != AVROGEN_OK || !got)
            break;
        avrogen_writer_reset(&out);
        if (avrogen_value_to_json(&out, &v, 0) != AVROGEN_OK) {
            rc = cli_error("%s: record %llu: %s", path, (unsigned long long)records,
                           avrogen_status_str(out.err));
            break;
        }
        avrogen_write_raw(&out, "\n", 1);
        size_t len = avrogen_writer_len(&out);
        if (fwrite(avrogen_writer_data(&out), 1, len, stdout) != len) {
            rc = cli_error("writing output: %s", strerror(errno));
            break;
        }
        progress_tick(&prog, ++records);
    }
    progress_done(&prog);
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    if (rc == 0 && avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        rc = cli_error("%s: %s", path, d.msg);
    if (fflush(stdout) != 0 && rc == 0)
        rc = cli_error("writing output: %s", strerror(errno));
    avrogen_writer_fini(&out);
    avrogen_arena_fini(&arena);
    avrogen_ocf_reader_close(r);
    avrogen_schema_free(reader);
    return rc;
}

int cmd_write(int argc, char **argv)
{
    const char *schema_arg = NULL, *codec = "null", *in_path = NULL, *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--schema") == 0 || strcmp(a, "--codec") == 0) && i + 1 == argc)
            return cli_usage("write: %s needs a value", a);
        if (strcmp(a, "--schema") == 0)
            schema_arg = argv[++i];
        else if (strcmp(a, "--codec") == 0)
            codec = argv[++i];
        else if (a[0] == '-' && a[1] != '\0')
            return cli_usage("write: unknown option '%s'", a);
        else if (in_path == NULL)
            in_path = a;
        else if (out_path == NULL)
            out_path = a;
        else
            return cli_usage("write: too many operands");
    }
    if (schema_arg == NULL || in_path == NULL || out_path == NULL)
        return cli_usage("usage: avrogen write --schema S [--codec C] IN.jsonl OUT.avro");
    if (!avrogen_ocf_codec_supported(codec))
        return cli_usage("write: unknown codec '%s' (null, deflate, snappy, zstandard, xz, "
                         "bzip2)",
                         codec);

    size_t schema_len;
    char *schema_text = cli_slurp(schema_arg, &schema_len);
    if (schema_text == NULL)
        return cli_error("%s: %s", schema_arg, strerror(errno));
    FILE *in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "r");
    if (in == NULL) {
        int rc = cli_error("%s: %s", in_path, strerror(errno));
        free(schema_text);
        return rc;
    }

    /* Write beside the target and rename at the end: a failed run leaves any
     * existing OUT.avro as it was and no half-written file behind. */
    size_t tmp_len = strlen(out_path) + sizeof ".tmp-XXXXXX";
    char *tmp = malloc(tmp_len);
    int fd = -1;
    FILE *out = NULL;
    if (tmp != NULL) {
        snprintf(tmp, tmp_len, "%s.tmp-XXXXXX", out_path);
        fd = mkstemp(tmp);
        out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    }
    int rc = 0;
    if (out == NULL) {
        rc = cli_error("%s: %s", out_path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        goto out_free;
    }

    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_ocf_writer_options opts = {.codec = codec};
    avrogen_ocf_writer *w;
    avrogen_status st = avrogen_ocf_writer_open_file(out, schema_text, schema_len, &opts, &w, &d);
    if (st != AVROGEN_OK) {
        rc = cli_error("%s: %s", schema_arg, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
        goto out_remove;
    }
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_writer_schema(w));
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    struct progress prog;
    progress_init(&prog, "wrote");
    struct cli_jsonl j = {.in = in, .name = in_path};
    uint64_t records = 0;
    avrogen_value v;
    int got;
    while ((got = cli_jsonl_next(&j, type, &v, &arena)) > 0) {
        st = avrogen_value_encode(avrogen_ocf_writer_datum_begin(w), &v);
        avrogen_status ended = avrogen_ocf_writer_datum_end(w);
        if (st == AVROGEN_OK)
            st = ended;
        if (st != AVROGEN_OK) {
            memset(&d, 0, sizeof d);
            avrogen_ocf_writer_error(w, &d);
            rc = cli_error("%s:%zu: %s", in_path, j.lineno,
                           d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
            break;
        }
        progress_tick(&prog, ++records);
    }
    progress_done(&prog);
    if (got < 0)
        rc = EXIT_BAD_INPUT;
    free(j.line);
    avrogen_arena_fini(&arena);
    memset(&d, 0, sizeof d);
    st = avrogen_ocf_writer_close(w, &d);
    if (rc == 0 && st != AVROGEN_OK)
        rc = cli_error("%s: %s", out_path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));

out_remove:
    if (fclose(out) != 0 && rc == 0)
        rc = cli_error("%s: %s", out_path, strerror(errno));
    if (rc == 0 && rename(tmp, out_path) != 0)
        rc = cli_error("%s: %s", out_path, strerror(errno));
    if (rc != 0)
        unlink(tmp);
out_free:
    free(tmp);
    if (in != stdin)
        fclose(in);
    free(schema_text);
    return rc;
}
