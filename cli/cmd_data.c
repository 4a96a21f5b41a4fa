/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data subcommands: canonical, fingerprint, tojson, fromjson. Each is a thin
 * layer over the runtime (schema.h, value.h) that turns its statuses into the
 * command-line contract of DESIGN.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>

#include "avrogen/gencode.h"
#include "avrogen/resolve.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cli.h"

/*
 * Load a schema named on the command line: a file path, "-" for stdin, or the
 * JSON text itself when no such file exists and the argument looks like JSON.
 */
int cli_load_schema(const char *arg, avrogen_schema **out)
{
    char *text;
    size_t len;
    const char *label;
    int rc = cli_schema_text(arg, &text, &len, &label);
    if (rc != 0)
        return rc;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_schema_parse(text, len, NULL, out, &d);
    free(text);
    if (st != AVROGEN_OK) {
        if (d.line > 0)
            return cli_error("%s:%d:%d: %s", label, d.line, d.column, d.msg);
        return cli_error("%s: %s%s%s", label, d.path[0] != '\0' ? d.path : "",
                         d.path[0] != '\0' ? ": " : "",
                         d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    }
    return 0;
}

int cmd_canonical(int argc, char **argv)
{
    if (argc != 2)
        return cli_usage("usage: avrogen canonical SCHEMA");
    avrogen_schema *s;
    int rc = cli_load_schema(argv[1], &s);
    if (rc != 0)
        return rc;
    puts(avrogen_schema_canonical(s));
    avrogen_schema_free(s);
    return 0;
}

static void print_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
    putchar('\n');
}

int cmd_fingerprint(int argc, char **argv)
{
    const char *path = NULL, *algo = "crc64";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc)
            algo = argv[++i];
        else if (strncmp(argv[i], "--algo=", 7) == 0)
            algo = argv[i] + 7;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_unknown_option("fingerprint", argv[i]);
        else if (path == NULL)
            path = argv[i];
        else
            return cli_usage("fingerprint: more than one SCHEMA");
    }
    if (path == NULL)
        return cli_usage("usage: avrogen fingerprint SCHEMA [--algo crc64|md5|sha256]");
    if (strcmp(algo, "crc64") != 0 && strcmp(algo, "md5") != 0 && strcmp(algo, "sha256") != 0)
        return cli_usage("fingerprint: unknown --algo '%s' (crc64, md5 or sha256)", algo);

    avrogen_schema *s;
    int rc = cli_load_schema(path, &s);
    if (rc != 0)
        return rc;
    const char *canon = avrogen_schema_canonical(s);
    uint8_t out[32];
    if (strcmp(algo, "crc64") == 0) {
        /* spec §Single-object encoding: the 64-bit fingerprint travels little-endian. */
        uint64_t fp = avrogen_schema_fingerprint64(s);
        for (int i = 0; i < 8; i++)
            out[i] = (uint8_t)(fp >> (8 * i));
        print_hex(out, 8);
    } else if (strcmp(algo, "md5") == 0) {
        if (!avrogen_md5(canon, strlen(canon), out))
            rc = cli_error("libcrypto MD5 failed");
        else
            print_hex(out, 16);
    } else {
        if (!avrogen_sha256(canon, strlen(canon), out))
            rc = cli_error("libcrypto SHA-256 failed");
        else
            print_hex(out, 32);
    }
    avrogen_schema_free(s);
    return rc;
}

/* Parse --schema/--writer-schema (--pretty: tojson's, as cat's) and at most one input operand. */
struct data_args {
    const char *schema;
    const char *writer_schema;
    const char *max_depth;
    const char *input;
    bool pretty;
};

static int parse_data_args(int argc, char **argv, bool writer_ok, struct data_args *a)
{
    const char *cmd = argv[0];
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char **slot = NULL;
        if (strcmp(arg, "--schema") == 0 || strcmp(arg, "-s") == 0)
            slot = &a->schema;
        else if (writer_ok && strcmp(arg, "--writer-schema") == 0)
            slot = &a->writer_schema;
        else if (strcmp(arg, "--max-depth") == 0)
            slot = &a->max_depth;
        if (writer_ok && strcmp(arg, "--pretty") == 0) {
            a->pretty = true;
        } else if (slot != NULL) {
            if (i + 1 == argc)
                return cli_usage("%s: %s needs %s", cmd, arg,
                                 slot == &a->max_depth ? "a number" : "a schema");
            *slot = argv[++i];
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_unknown_option(cmd, arg);
        } else if (a->input == NULL) {
            a->input = arg;
        } else {
            return cli_usage("%s: more than one input", cmd);
        }
    }
    if (a->max_depth != NULL) {
        int rc = cli_parse_max_depth(cmd, a->max_depth);
        if (rc != 0)
            return rc;
    }
    if (a->schema == NULL)
        return cli_usage("%s: --schema S is required", cmd);
    if (a->input == NULL)
        a->input = "-";
    return 0;
}

static int write_all(const void *data, size_t len)
{
    if (len != 0 && fwrite(data, 1, len, stdout) != len)
        return cli_stdout_error();
    return 0;
}

/*
 * Concatenated datums from a stream, in a window that holds at least the datum
 * being decoded: a datum cut by the window's end fails with E_TRUNCATED and is
 * decoded again once more input is in (the window doubling while one datum
 * fills it), so memory is bounded by the largest datum, not by the input.
 */

/* The window first read, and the bytes left in it below which it is topped up. */
#define DATUM_WINDOW ((size_t)1 << 20)
#define DATUM_LOW    ((size_t)64 << 10)
/* No datum may be larger than a container block may (CLI_ARENA_BUDGET). */
#define DATUM_MAX CLI_ARENA_BUDGET

/* Make `want` bytes (at most DATUM_MAX) unread in the window, or all that is left. */
static int stream_fill(struct cli_window *s, const char *name, size_t want)
{
    int err = cli_window_fill(s, want);
    if (err < 0)
        return cli_error("%s: out of memory reading a datum of more than %zu bytes", name,
                         s->len - s->pos);
    if (err > 0)
        return cli_error("%s: %s", name, strerror(err));
    return 0;
}

/*
 * tojson holds a datum's text whole in memory (it is printed once the datum is decoded):
 * its writer's buffer may grow to CLI_DATUM_TEXT_MAX, no further (an empty record of
 * empty records, no bytes of input, took 835 MB for 740 MB of text). *ctx: refused.
 */
static void *text_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    if (new_size > CLI_DATUM_TEXT_MAX) {
        *(bool *)ctx = true;
        return NULL;
    }
    return realloc(ptr, new_size);
}

int cmd_tojson(int argc, char **argv)
{
    struct data_args args;
    int rc = parse_data_args(argc, argv, true, &args);
    if (rc != 0)
        return rc;
    avrogen_schema *reader = NULL, *writer = NULL;
    avrogen_resolver *res = NULL;
    if ((rc = cli_load_schema(args.schema, &reader)) != 0)
        return rc;
    if (args.writer_schema != NULL && (rc = cli_load_schema(args.writer_schema, &writer)) != 0)
        goto out_free_schemas;
    /* Datums written with another schema are resolved into --schema's shape
     * (spec §Schema Resolution); the plan is built once, before any input. */
    if (writer != NULL &&
        avrogen_schema_fingerprint64(writer) != avrogen_schema_fingerprint64(reader)) {
        avrogen_diag why;
        avrogen_status st = avrogen_resolver_new(avrogen_schema_root(writer),
                                                 avrogen_schema_root(reader), NULL, &res, &why);
        if (st != AVROGEN_OK) {
            rc = cli_error("--writer-schema %s cannot be read as --schema %s: %s%s%s",
                           args.writer_schema, args.schema, why.path, why.path[0] ? ": " : "",
                           why.msg[0] ? why.msg : avrogen_status_str(st));
            goto out_free_schemas;
        }
    }

    struct cli_window in = {.max = DATUM_MAX};
    in.in = strcmp(args.input, "-") == 0 ? stdin : fopen(args.input, "rb");
    if (in.in == NULL) {
        rc = cli_error("%s: %s", args.input, strerror(errno));
        goto out_free_resolver;
    }
    const avrogen_node *type = avrogen_schema_root(reader);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    avrogen_writer out;
    bool text_refused = false;
    const avrogen_alloc text_budget = {text_alloc, &text_refused};
    avrogen_writer_init_growable(&out, &text_budget);
    out.max_depth = cli_max_depth();                             /* the JSON of what was read */
    unsigned json_flags = args.pretty ? AVROGEN_JSON_PRETTY : 0; /* as cat --pretty */
    cli_progress prog;
    cli_progress_init(&prog, "printed", true);
    cli_progress_input(&prog, args.input);
    cli_progress_source(&prog, cli_window_position, &in);
    size_t index = 0;
    /* A datum file holds one datum or more. When datums take no bytes (null,
     * an empty record) there is nothing to delimit them: the empty input is
     * exactly one, as Python's and Java's readers return, and any byte is
     * too many. */
    bool empty = cli_datum_is_empty(writer != NULL ? avrogen_schema_root(writer) : type);
    rc = stream_fill(&in, args.input, DATUM_WINDOW);
    if (rc == 0 && in.len == 0 && !empty)
        rc = cli_error("%s: no datum in input", args.input);
    else if (rc == 0 && in.len != 0 && empty)
        /* The first byte is the error: nothing more is read (an endless input would never
         * end a count of the rest). */
        rc = cli_error("%s: the input holds at least 1 byte (the first at byte 0), but the "
                       "datums of this schema take zero bytes, so it may hold none",
                       args.input);
    while (rc == 0 && (index == 0 || in.pos != in.len)) {
        avrogen_value v;
        avrogen_arena_reset(&arena);
        avrogen_reader r;
        avrogen_reader_init(&r, in.buf + in.pos, in.len - in.pos);
        r.max_depth = cli_max_depth();
        uint64_t at = in.base + in.pos;
        avrogen_status st = res != NULL ? avrogen_resolver_decode(res, &r, &v, &arena)
                                        : avrogen_value_decode(&r, type, &v, &arena);
        if (st == AVROGEN_E_TRUNCATED && !in.eof) {
            /* Cut by the window's end: decode it again with more of the input. */
            size_t have = in.len - in.pos;
            if (have >= DATUM_MAX)
                rc = cli_error("%s: datum %zu (at byte %" PRIu64 ") is larger than %zu bytes",
                               args.input, index, at, DATUM_MAX);
            else
                rc = stream_fill(&in, args.input, have + 1);
            continue;
        }
        if (st != AVROGEN_OK) {
            rc = cli_error("%s: datum %zu (at byte %" PRIu64 "): %s at byte %" PRIu64, args.input,
                           index, at, r.err_msg != NULL ? r.err_msg : avrogen_status_str(r.err),
                           at + r.err_offset);
            break;
        }
        in.pos += avrogen_reader_offset(&r);
        avrogen_writer_reset(&out);
        if (avrogen_value_to_json(&out, &v, json_flags) != AVROGEN_OK) {
            if (text_refused)
                rc = cli_error("%s: datum %zu (at byte %" PRIu64 "): its JSON text is longer "
                               "than %llu bytes, the most a datum may print; nothing of it is "
                               "printed",
                               args.input, index, at, (unsigned long long)CLI_DATUM_TEXT_MAX);
            else
                rc = cli_error("%s: datum %zu: %s", args.input, index,
                               out.err_msg != NULL ? out.err_msg : avrogen_status_str(out.err));
            break;
        }
        avrogen_write_raw(&out, "\n", 1);
        if ((rc = write_all(avrogen_writer_data(&out), avrogen_writer_len(&out))) != 0)
            break;
        index++;
        cli_progress_tick(&prog, index);
        if (in.len - in.pos < DATUM_LOW)
            rc = stream_fill(&in, args.input, DATUM_WINDOW);
    }
    cli_progress_done(&prog);
    if (rc == 0 && fflush(stdout) != 0)
        rc = cli_stdout_error();
    avrogen_writer_fini(&out);
    avrogen_arena_fini(&arena);
    free(in.buf);
    if (in.in != stdin)
        fclose(in.in);
out_free_resolver:
    avrogen_resolver_free(res);
out_free_schemas:
    avrogen_schema_free(writer);
    avrogen_schema_free(reader);
    return rc;
}

int cmd_fromjson(int argc, char **argv)
{
    struct data_args args;
    int rc = parse_data_args(argc, argv, false, &args);
    if (rc != 0)
        return rc;
    avrogen_schema *schema;
    if ((rc = cli_load_schema(args.schema, &schema)) != 0)
        return rc;
    FILE *in = strcmp(args.input, "-") == 0 ? stdin : fopen(args.input, "r");
    if (in == NULL) {
        rc = cli_error("%s: %s", args.input, strerror(errno));
        avrogen_schema_free(schema);
        return rc;
    }
    const avrogen_node *type = avrogen_schema_root(schema);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    avrogen_writer out;
    avrogen_writer_init_growable(&out, NULL);
    out.max_depth = cli_max_depth();
    struct cli_jsonl j;
    cli_jsonl_init(&j, in, args.input);
    cli_progress prog;
    cli_progress_init(&prog, "converted", true);
    cli_progress_input(&prog, args.input);
    cli_progress_source(&prog, cli_window_position, &j.w);
    avrogen_value v;
    int got;
    /* A datum file of a zero-byte schema holds one datum: no more can be told apart. */
    bool empty = cli_datum_is_empty(type);
    size_t values = 0;
    while ((got = cli_jsonl_next(&j, type, &v, &arena)) > 0) {
        if (++values == 2 && empty) {
            rc = cli_error("%s:%zu: a second value, but datums of this schema take zero bytes: "
                           "a datum input holds exactly one",
                           args.input, j.lineno);
            break;
        }
        avrogen_writer_reset(&out);
        if (avrogen_value_encode(&out, &v) != AVROGEN_OK) {
            rc = cli_error("%s:%zu: %s", args.input, j.lineno,
                           out.err_msg != NULL ? out.err_msg : avrogen_status_str(out.err));
            break;
        }
        if ((rc = write_all(avrogen_writer_data(&out), avrogen_writer_len(&out))) != 0)
            break;
        cli_progress_tick(&prog, values);
    }
    cli_progress_done(&prog);
    if (got < 0)
        rc = EXIT_BAD_INPUT;
    else if (rc == 0 && values == 0)
        rc = cli_error("%s: no JSON value in input", args.input);
    if (rc == 0 && fflush(stdout) != 0)
        rc = cli_stdout_error();
    cli_jsonl_fini(&j);
    if (in != stdin)
        fclose(in);
    avrogen_writer_fini(&out);
    avrogen_arena_fini(&arena);
    avrogen_schema_free(schema);
    return rc;
}
