/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The container-file subcommands that read files and the one that writes
 * them from JSON: cat and head (records as JSON, resolved into another schema
 * on request, with an offset, a limit, seeded sampling, indentation), count
 * (block headers only), getschema, getmeta, and write. All of them stream: a
 * file of any size is read or written one block at a time (cat streams even
 * the JSON text of one huge value). "-" reads standard input. On a terminal,
 * long runs report progress on stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>
#include <unistd.h>

#include "avrogen/gencode.h"
#include "avrogen/ocf.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cli.h"

/*
 * cat's text goes to stdout with write(2), never through stdio's buffer, so that what
 * has gone out is known: whole records, unless a record's text outgrew the sink's chunk
 * (pending.torn). A file cut under the reader then ends the output with whole lines
 * (cli_watch_text).
 */
static avrogen_status write_fd(const void *data, size_t len)
{
    const char *p = data;
    while (len != 0) {
        ssize_t k = write(STDOUT_FILENO, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return AVROGEN_E_IO;
        p += k;
        len -= (size_t)k;
    }
    return AVROGEN_OK;
}

/* ---- cat, head -------------------------------------------------------------------- */

struct cat {
    const char *cmd;
    avrogen_schema *reader; /* --schema, or NULL */
    uint64_t offset;        /* records to pass over first, across all files */
    uint64_t limit;         /* records to print at most */
    bool limited;
    uint64_t threshold; /* --sample: a record is kept when the next draw is below this */
    bool sampled;
    uint64_t rng; /* splitmix64 state, from --seed */
    unsigned flags;

    uint64_t seen;    /* records passed so far (skipped, sampled out or printed) */
    uint64_t printed; /* records printed */
    avrogen_arena arena;
    avrogen_writer out; /* JSON text on its way to stdout */
    avrogen_json_sink sink;
    cli_pending_text pending; /* what of out is whole records, for a file cut under us */
    int held_fd;              /* the record's text past the sink's chunk, or -1 */
    uint64_t held;            /* bytes of it in held_fd */
    int held_err;             /* why holding more failed (errno), 0: past CAT_TEXT_MAX, -1: none */
    cli_progress prog;
};

/*
 * A record's text is held whole (the sink's chunk in memory, the rest in a temporary file)
 * and printed only once the record has been read in full, so that no part of a record that
 * then fails is ever printed; at most CLI_DATUM_TEXT_MAX of it.
 */
#define CAT_TEXT_MAX CLI_DATUM_TEXT_MAX

/* An unlinked temporary file in $TMPDIR (else /tmp), or -1 with errno. */
static int temp_fd(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    if (dir == NULL || dir[0] == '\0')
        dir = "/tmp";
    if ((size_t)snprintf(path, sizeof path, "%s/avrogen-text-XXXXXX", dir) >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Append len bytes to the held text of the record being read. */
static avrogen_status hold(struct cat *c, const char *p, size_t len)
{
    if (len > CAT_TEXT_MAX - c->held) {
        c->held_err = 0;
        return AVROGEN_E_LIMIT;
    }
    if (c->held_fd < 0 && (c->held_fd = temp_fd()) < 0) {
        c->held_err = errno;
        return AVROGEN_E_IO;
    }
    c->held += len;
    while (len != 0) {
        ssize_t k = write(c->held_fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            c->held_err = k < 0 ? errno : ENOSPC;
            return AVROGEN_E_IO;
        }
        p += k;
        len -= (size_t)k;
    }
    return AVROGEN_OK;
}

/* The held text to stdout. */
static avrogen_status release(struct cat *c)
{
    avrogen_status st = AVROGEN_OK;
    static char buf[64 << 10];
    for (uint64_t at = 0; st == AVROGEN_OK && at < c->held;) {
        size_t want = c->held - at < sizeof buf ? (size_t)(c->held - at) : sizeof buf;
        ssize_t k = pread(c->held_fd, buf, want, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return AVROGEN_E_IO;
        c->pending.torn = true; /* part of the record is out */
        st = write_fd(buf, (size_t)k);
        at += (uint64_t)k;
    }
    return st;
}

/* Forget the held text (the record failed, or it went out). */
static void drop_held(struct cat *c)
{
    if (c->held != 0 && (ftruncate(c->held_fd, 0) != 0 || lseek(c->held_fd, 0, SEEK_SET) != 0)) {
        close(c->held_fd); /* a new one next time */
        c->held_fd = -1;
    }
    c->held = 0;
}

/*
 * cat's sink, called when out passes its chunk: the whole records at its front go to
 * stdout, the text of the record being read is held (hold) until the record is whole.
 */
static avrogen_status write_noted(void *ctx, const void *data, size_t len)
{
    struct cat *c = ctx;
    size_t whole = c->pending.complete < len ? c->pending.complete : len;
    avrogen_status st = write_fd(data, whole);
    c->pending.complete = 0;
    if (st != AVROGEN_OK)
        return st;
    return hold(c, (const char *)data + whole, len - whole);
}

/* The whole records out holds go out once they fill half a chunk (a sink's chunk is 64 KiB):
 * the sink then takes text only from a record longer than that. */
#define CAT_FLUSH ((size_t)32 << 10)

static avrogen_status flush_records(struct cat *c, size_t at_least)
{
    size_t len = avrogen_writer_len(&c->out);
    if (len < at_least || len == 0)
        return AVROGEN_OK;
    avrogen_status st = write_fd(avrogen_writer_data(&c->out), len);
    avrogen_writer_reset(&c->out);
    c->pending.complete = 0;
    return st;
}

static bool cat_done(const struct cat *c)
{
    return c->limited && c->printed >= c->limit;
}

/* Print the records of one file; 0 or EXIT_BAD_INPUT (after the records before the damage). */
static int cat_file(struct cat *c, const char *path)
{
    avrogen_ocf_reader *r;
    int rc = cli_open_reader(path, &r);
    if (rc != 0)
        return rc;
    cli_progress_source(&c->prog, cli_reader_position, r);
    /* With --schema, records are resolved from the file's schema into its shape
     * (spec §Schema Resolution). The same canonical form reads as written. */
    const avrogen_node *type = NULL;
    if (c->reader != NULL &&
        avrogen_schema_fingerprint64(c->reader) != avrogen_ocf_reader_fingerprint(r))
        type = avrogen_schema_root(c->reader);
    /* --offset: whole blocks are passed over unread, by their framing. */
    bool ok = true;
    if (c->seen < c->offset && !cat_done(c)) {
        uint64_t skipped;
        ok = avrogen_ocf_reader_skip(r, c->offset - c->seen, &skipped) == AVROGEN_OK;
        c->seen += skipped;
    }
    while (ok && !cat_done(c)) {
        if (c->sampled && cli_splitmix64(&c->rng) >= c->threshold) {
            avrogen_bytes d;
            if (avrogen_ocf_reader_next_datum(r, &d) != AVROGEN_OK || d.ptr == NULL)
                break;
            c->seen++;
            cli_progress_tick(&c->prog, c->printed);
            continue;
        }
        /* In the file's own schema the JSON text comes straight from the bytes;
         * resolved records go through values of the reader schema. */
        bool got;
        avrogen_status st;
        c->pending.complete = avrogen_writer_len(&c->out);
        c->pending.torn = false;
        c->held_err = -1;
        if (type == NULL) {
            st = avrogen_ocf_reader_next_json(r, &c->out, c->flags, &c->sink, &got);
        } else {
            avrogen_value v;
            avrogen_arena_reset(&c->arena);
            st = avrogen_ocf_reader_next_value(r, type, &v, &c->arena, &got);
            if (st == AVROGEN_OK && got)
                st = avrogen_value_to_json_sink(&c->out, &v, c->flags, &c->sink);
        }
        if (st == AVROGEN_OK && !got)
            break;
        avrogen_status why = c->out.err;
        if (st != AVROGEN_OK) {
            /* Nothing of a failed record is printed: its text goes, held or in out. The
             * records before it go out, and out is ready for the next file's. */
            drop_held(c);
            c->out.p = c->out.start + c->pending.complete;
            if (why != AVROGEN_E_IO && flush_records(c, 0) != AVROGEN_OK)
                why = AVROGEN_E_IO;
            avrogen_writer_reset(&c->out);
            c->pending.complete = 0;
        }
        if (st != AVROGEN_OK && avrogen_ocf_reader_error(r, NULL) != AVROGEN_OK) {
            if (why == AVROGEN_E_IO && c->held_err < 0)
                rc = cli_stdout_error();
            break; /* a damaged record: the reader's error, below */
        }
        if (st != AVROGEN_OK) {
            if (why == AVROGEN_E_LIMIT && c->held_err == 0)
                rc = cli_error("%s: record %llu (in the block at offset %llu): its JSON text is "
                               "longer than %llu bytes, the most a record may print; nothing of "
                               "it is printed",
                               path, (unsigned long long)c->seen,
                               (unsigned long long)avrogen_ocf_reader_block_offset(r),
                               (unsigned long long)CAT_TEXT_MAX);
            else if (why == AVROGEN_E_IO && c->held_err > 0)
                rc = cli_error("%s: record %llu: its JSON text, held in a temporary file until "
                               "the record is whole, could not be written there ($TMPDIR, else "
                               "/tmp): %s",
                               path, (unsigned long long)c->seen, strerror(c->held_err));
            else if (why == AVROGEN_E_IO)
                rc = cli_stdout_error();
            else
                rc = cli_error("%s: record %llu: %s", path, (unsigned long long)c->seen,
                               avrogen_status_str(why));
            break;
        }
        c->seen++;
        if (c->held != 0) {
            /* A record whose text passed the chunk: what was held first, then the rest. */
            st = release(c);
            drop_held(c);
            if (st != AVROGEN_OK) {
                rc = cli_stdout_error();
                break;
            }
        }
        avrogen_write_raw(&c->out, "\n", 1);
        c->pending.complete = avrogen_writer_len(&c->out);
        c->pending.torn = false;
        if (flush_records(c, CAT_FLUSH) != AVROGEN_OK) {
            rc = cli_stdout_error();
            break;
        }
        c->printed++;
        cli_progress_tick(&c->prog, c->printed);
    }
    cli_progress_done(&c->prog);
    cli_progress_source(&c->prog, NULL, NULL);
    if (rc == 0)
        rc = cli_reader_error(r, path);
    avrogen_ocf_reader_close(r);
    return rc;
}

static int run_cat(int argc, char **argv, bool head)
{
    const char *schema = NULL, *offset = NULL, *limit = head ? "10" : NULL, *rate = NULL,
               *seed = "1", *depth = NULL;
    bool pretty = false;
    const cli_opt opts[] = {
            {"--schema", NULL, &schema, NULL},   {"--offset", NULL, &offset, NULL},
            {"--limit", "-n", &limit, NULL},     {"--sample", NULL, &rate, NULL},
            {"--seed", NULL, &seed, NULL},       {"--pretty", NULL, NULL, &pretty},
            {"--max-depth", NULL, &depth, NULL}, {NULL, NULL, NULL, NULL},
    };
    char **files = calloc((size_t)argc, sizeof *files);
    if (files == NULL)
        return cli_error("out of memory");
    struct cat c;
    memset(&c, 0, sizeof c);
    c.cmd = argv[0];
    int n = 0, rc = cli_parse_args(argc, argv, opts, files, argc, &n);
    if (rc == 0 && n == 0)
        rc = cli_usage("%s: no FILE given (- reads standard input)", c.cmd);
    if (rc == 0)
        rc = cli_one_stdin(c.cmd, files, n);
    if (rc == 0 && offset != NULL)
        rc = cli_parse_u64(c.cmd, "--offset", "a number of records", offset, &c.offset);
    if (rc == 0 && limit != NULL) {
        c.limited = true;
        rc = cli_parse_u64(c.cmd, cli_spelled(&limit, "--limit"), "a number of records", limit,
                           &c.limit);
    }
    if (rc == 0 && rate != NULL) {
        char *end;
        double x = strtod(rate, &end);
        if (*end != '\0' || !(x > 0 && x <= 1))
            rc = cli_usage("%s: --sample needs a rate above 0 and at most 1, not '%s'", c.cmd,
                           rate);
        c.sampled = x < 1;
        c.threshold = (uint64_t)(x * 18446744073709551616.0);
    }
    if (rc == 0)
        rc = cli_parse_u64(c.cmd, "--seed", "a whole number", seed, &c.rng);
    if (rc == 0 && depth != NULL)
        rc = cli_parse_max_depth(c.cmd, depth);
    if (rc == 0 && schema != NULL)
        rc = cli_load_schema(schema, &c.reader);
    if (rc != 0) {
        free(files);
        return rc;
    }
    c.flags = pretty ? AVROGEN_JSON_PRETTY : 0;
    avrogen_arena_init(&c.arena, NULL);
    avrogen_arena_set_budget(&c.arena, CLI_ARENA_BUDGET);
    avrogen_writer_init_growable(&c.out, NULL);
    c.out.max_depth = cli_max_depth(); /* the JSON of what was read */
    c.sink = (avrogen_json_sink){write_noted, &c, 0};
    c.pending.w = &c.out;
    c.held_fd = -1;
    cli_watch_text(&c.pending);
    cli_progress_init(&c.prog, "printed", true);
    for (int i = 0; i < n; i++)
        cli_progress_input(&c.prog, files[i]);
    /* Records before a damaged block or datum are printed, then the error with
     * its offset; the other files are printed all the same. */
    for (int i = 0; i < n && !cat_done(&c); i++) {
        int file_rc = cat_file(&c, files[i]);
        if (file_rc != 0 && rc == 0)
            rc = file_rc;
    }
    if (flush_records(&c, 0) != AVROGEN_OK && rc == 0)
        rc = cli_stdout_error();
    cli_watch_text(NULL);
    if (c.held_fd >= 0)
        close(c.held_fd);
    avrogen_writer_fini(&c.out);
    avrogen_arena_fini(&c.arena);
    avrogen_schema_free(c.reader);
    free(files);
    return rc;
}

int cmd_cat(int argc, char **argv)
{
    return run_cat(argc, argv, false);
}

int cmd_head(int argc, char **argv)
{
    return run_cat(argc, argv, true);
}

/* ---- count, getmeta ------------------------------------------------------------------- */

/* Walk every block of r by its framing: how many blocks hold datums, and how many datums. */
static int count_blocks(avrogen_ocf_reader *r, const char *path, uint64_t *blocks,
                        uint64_t *records)
{
    cli_progress prog;
    cli_progress_init(&prog, "counted", false);
    cli_progress_input(&prog, path);
    cli_progress_source(&prog, cli_reader_position, r);
    uint64_t n;
    *blocks = *records = 0;
    while (avrogen_ocf_reader_skip_block(r, &n) == AVROGEN_OK && n != 0) {
        ++*blocks;
        *records += n;
        cli_progress_tick(&prog, *records);
    }
    cli_progress_done(&prog);
    return cli_reader_error(r, path);
}

int cmd_count(int argc, char **argv)
{
    const cli_opt opts[] = {{NULL, NULL, NULL, NULL}};
    char **files = calloc((size_t)argc, sizeof *files);
    if (files == NULL)
        return cli_error("out of memory");
    int n = 0, rc = cli_parse_args(argc, argv, opts, files, argc, &n);
    if (rc == 0 && n == 0)
        rc = cli_usage("count: no FILE given (- reads standard input)");
    if (rc == 0)
        rc = cli_one_stdin("count", files, n);
    uint64_t total = 0;
    for (int i = 0; i < n && (rc == 0 || rc == EXIT_BAD_INPUT); i++) {
        avrogen_ocf_reader *r;
        uint64_t blocks = 0, records = 0;
        int file_rc = cli_open_reader(files[i], &r);
        if (file_rc == 0) {
            file_rc = count_blocks(r, files[i], &blocks, &records);
            avrogen_ocf_reader_close(r);
        }
        if (file_rc != 0) {
            rc = file_rc;
            continue;
        }
        total += records;
        if (n == 1)
            printf("%llu\n", (unsigned long long)records);
        else
            printf("%llu\t%s\n", (unsigned long long)records, files[i]);
    }
    if (n > 1 && rc != EXIT_USAGE)
        printf("%llu\ttotal\n", (unsigned long long)total);
    if (fflush(stdout) != 0 && rc == 0)
        rc = cli_stdout_error();
    free(files);
    return rc;
}

int cmd_getschema(int argc, char **argv)
{
    if (argc != 2)
        return cli_usage("usage: avrogen getschema FILE.avro");
    avrogen_ocf_reader *r;
    int rc = cli_open_reader(argv[1], &r);
    if (rc != 0)
        return rc;
    avrogen_bytes schema;
    if (avrogen_ocf_reader_meta_get(r, "avro.schema", &schema)) {
        fwrite(schema.ptr, 1, schema.len, stdout);
        if (schema.len == 0 || schema.ptr[schema.len - 1] != '\n')
            putchar('\n');
    }
    if (fflush(stdout) != 0)
        rc = cli_stdout_error();
    avrogen_ocf_reader_close(r);
    return rc;
}

/* Bytes as text: UTF-8 as it is but for control characters, anything else escaped C-style. */
static void print_escaped(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t run = i;
        while (run < len && p[run] >= 0x20 && p[run] != 0x7f && p[run] != '\\')
            run++;
        /* Whole UTF-8 sequences only; a broken one is escaped byte by byte. */
        while (run > i && !avrogen_utf8_valid(p + i, run - i))
            run--;
        if (run > i) {
            fwrite(p + i, 1, run - i, stdout);
            i = run;
            continue;
        }
        switch (p[i]) {
        case '\n':
            fputs("\\n", stdout);
            break;
        case '\t':
            fputs("\\t", stdout);
            break;
        case '\r':
            fputs("\\r", stdout);
            break;
        case '\\':
            fputs("\\\\", stdout);
            break;
        default:
            printf("\\x%02x", p[i]);
        }
        i++;
    }
}

int cmd_getmeta(int argc, char **argv)
{
    const char *key = NULL;
    const cli_opt opts[] = {{"--key", NULL, &key, NULL}, {NULL, NULL, NULL, NULL}};
    char *files[1];
    int n = 0, rc = cli_parse_args(argc, argv, opts, files, 1, &n);
    if (rc != 0)
        return rc;
    if (n != 1)
        return cli_usage("getmeta: one FILE (- reads standard input)");
    avrogen_ocf_reader *r;
    if ((rc = cli_open_reader(files[0], &r)) != 0)
        return rc;
    avrogen_bytes value;
    if (key != NULL) {
        /* The value exactly as stored, for scripts. */
        if (!avrogen_ocf_reader_meta_get(r, key, &value)) {
            rc = cli_error("%s: no metadata key \"%s\"", files[0], key);
        } else {
            fwrite(value.ptr, 1, value.len, stdout);
            putchar('\n');
        }
    } else {
        uint64_t blocks, records;
        rc = count_blocks(r, files[0], &blocks, &records);
        if (rc == 0) {
            const uint8_t *sync = avrogen_ocf_reader_sync(r);
            printf("codec: %s\nsync marker: ", avrogen_ocf_reader_codec(r));
            for (unsigned i = 0; i < AVROGEN_OCF_SYNC_SIZE; i++)
                printf("%02x", sync[i]);
            printf("\nblocks: %llu\nrecords: %llu\nmetadata:\n", (unsigned long long)blocks,
                   (unsigned long long)records);
            const char *k;
            size_t key_len;
            for (size_t i = 0; avrogen_ocf_reader_meta_at(r, i, &k, &key_len, &value); i++) {
                fputs("  ", stdout);
                print_escaped((const uint8_t *)k, key_len);
                fputs(": ", stdout);
                /* The schema (which the reader parsed: valid JSON) indented, to be read. */
                if (key_len == 11 && memcmp(k, "avro.schema", 11) == 0)
                    cli_print_json_indented(stdout, (const char *)value.ptr, value.len, 2);
                else
                    print_escaped(value.ptr, value.len);
                putchar('\n');
            }
        }
    }
    if (fflush(stdout) != 0 && rc == 0)
        rc = cli_stdout_error();
    avrogen_ocf_reader_close(r);
    return rc;
}

/* ---- write ----------------------------------------------------------------------- */

int cmd_write(int argc, char **argv)
{
    const char *schema_arg = NULL, *codec = "null", *depth = NULL;
    const cli_opt opts[] = {
            {"--schema", NULL, &schema_arg, NULL},
            {"--codec", NULL, &codec, NULL},
            {"--max-depth", NULL, &depth, NULL},
            {NULL, NULL, NULL, NULL},
    };
    char *ops[2];
    int n = 0, rc = cli_parse_args(argc, argv, opts, ops, 2, &n);
    if (rc != 0)
        return rc;
    if (schema_arg == NULL || n != 2)
        return cli_usage("usage: avrogen write --schema S [--codec C] [--max-depth N] IN.jsonl "
                         "OUT.avro");
    if (depth != NULL && (rc = cli_parse_max_depth("write", depth)) != 0)
        return rc;
    const char *in_path = ops[0], *out_path = ops[1];
    if (!avrogen_ocf_codec_supported(codec))
        return cli_usage("write: unknown codec '%s' (null, deflate, snappy, zstandard, xz, "
                         "bzip2)",
                         codec);

    size_t schema_len;
    char *schema_text;
    const char *label;
    if ((rc = cli_schema_text(schema_arg, &schema_text, &schema_len, &label)) != 0)
        return rc;
    FILE *in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "r");
    if (in == NULL) {
        rc = cli_error("%s: %s", in_path, strerror(errno));
        free(schema_text);
        return rc;
    }
    cli_out out;
    if ((rc = cli_out_open(&out, out_path)) != 0)
        goto out_free;

    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_ocf_writer_options wopts = {.codec = codec, .threads = cli_jobs()};
    avrogen_ocf_writer *w;
    avrogen_status st =
            avrogen_ocf_writer_open_file(out.f, schema_text, schema_len, &wopts, &w, &d);
    if (st != AVROGEN_OK) {
        rc = cli_error("%s: %s", label, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
        cli_out_abort(&out);
        goto out_free;
    }
    const avrogen_node *type = avrogen_schema_root(avrogen_ocf_writer_schema(w));
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    cli_progress prog;
    cli_progress_init(&prog, "wrote", strcmp(out_path, "-") == 0);
    cli_progress_input(&prog, in_path);
    struct cli_jsonl j;
    cli_jsonl_init(&j, in, in_path);
    cli_progress_source(&prog, cli_window_position, &j.w);
    uint64_t records = 0;
    avrogen_value v;
    int got;
    while ((got = cli_jsonl_next(&j, type, &v, &arena)) > 0) {
        avrogen_writer *dw = avrogen_ocf_writer_datum_begin(w);
        dw->max_depth = cli_max_depth();
        st = avrogen_value_encode(dw, &v);
        /* The encoder's message names the value; keep it past datum_end. */
        char why[AVROGEN_WRITER_MSG_CAP] = "";
        if (st != AVROGEN_OK && dw->err_msg != NULL)
            snprintf(why, sizeof why, "%s", dw->err_msg);
        avrogen_status ended = avrogen_ocf_writer_datum_end(w);
        if (st == AVROGEN_OK)
            st = ended;
        if (st != AVROGEN_OK) {
            memset(&d, 0, sizeof d);
            avrogen_ocf_writer_error(w, &d);
            rc = cli_error("%s:%zu: %s", in_path, j.lineno,
                           why[0] != '\0'     ? why
                           : d.msg[0] != '\0' ? d.msg
                                              : avrogen_status_str(st));
            break;
        }
        cli_progress_tick(&prog, ++records);
    }
    cli_progress_done(&prog);
    if (got < 0)
        rc = EXIT_BAD_INPUT;
    cli_jsonl_fini(&j);
    avrogen_arena_fini(&arena);
    memset(&d, 0, sizeof d);
    st = avrogen_ocf_writer_close(w, &d);
    if (rc == 0 && st != AVROGEN_OK)
        rc = cli_error("%s: %s", out_path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    if (rc == 0)
        rc = cli_out_commit(&out);
    else
        cli_out_abort(&out);
out_free:
    if (in != stdin)
        fclose(in);
    free(schema_text);
    return rc;
}
