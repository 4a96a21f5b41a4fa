/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The subcommands that work on container files block by block: concat (blocks
 * copied as stored when the codecs match), recodec (every datum into blocks of
 * another codec and size), repair (intact blocks copied, damage reported and
 * passed over by resynchronising on the sync marker) and validate (every block
 * and datum decoded, optionally through a reader schema). Memory stays bounded
 * by a block. Output files go through cli_out (whole or not at all).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/gencode.h"
#include "avrogen/ocf.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cli.h"
#include "repair.h"

/* User metadata entries in key order, entries of one key in file order. */
struct meta_ref {
    const char *key;
    size_t at; /* index in the file's metadata */
};

static int by_key_then_place(const void *a, const void *b)
{
    const struct meta_ref *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/*
 * A writer on out->f for data like r's: r's schema as written and its user
 * metadata (the last entry of a repeated key), with `opts`' codec, level and
 * block size. 0 or EXIT_BAD_INPUT after an error line. The entries are sorted
 * once to find each key's last entry, so a header of 200,000 entries is
 * copied in n log n (looking each key up again took n^2: 40,000 entries 7.5 s).
 */
static int writer_like(avrogen_ocf_reader *r, const char *in_path, const cli_out *out,
                       avrogen_ocf_writer_options opts, avrogen_ocf_writer **w)
{
    avrogen_bytes schema;
    if (!avrogen_ocf_reader_meta_get(r, "avro.schema", &schema))
        return cli_error("%s: no avro.schema", in_path);
    size_t n = avrogen_ocf_reader_meta_count(r), n_user = 0;
    avrogen_ocf_meta *meta = calloc(n + 1, sizeof *meta);
    struct meta_ref *refs = calloc(n + 1, sizeof *refs);
    bool *wins = calloc(n + 1, sizeof *wins);
    if (meta == NULL || refs == NULL || wins == NULL) {
        free(meta);
        free(refs);
        free(wins);
        return cli_error("out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const char *key;
        size_t key_len;
        (void)avrogen_ocf_reader_meta_at(r, i, &key, &key_len, NULL);
        if (strncmp(key, "avro.", 5) == 0)
            continue;
        if (strlen(key) != key_len) {
            free(meta);
            free(refs);
            free(wins);
            return cli_error("%s: metadata key %zu holds a NUL byte, which cannot be copied",
                             in_path, i);
        }
        refs[n_user++] = (struct meta_ref){key, i};
    }
    qsort(refs, n_user, sizeof *refs, by_key_then_place);
    for (size_t k = 0; k < n_user; k++)
        if (k + 1 == n_user || strcmp(refs[k].key, refs[k + 1].key) != 0)
            wins[refs[k].at] = true; /* a later entry repeating a key wins */
    for (size_t i = 0; i < n; i++) {
        const char *key;
        avrogen_bytes value;
        if (!wins[i])
            continue;
        (void)avrogen_ocf_reader_meta_at(r, i, &key, NULL, &value);
        meta[opts.n_meta++] = (avrogen_ocf_meta){key, value.ptr, value.len};
    }
    free(refs);
    free(wins);
    opts.meta = meta;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_ocf_writer_open_file(out->f, (const char *)schema.ptr, schema.len,
                                                     &opts, w, &d);
    free(meta);
    if (st != AVROGEN_OK)
        return cli_error("%s: %s", out->path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    return 0;
}

/* Close w and commit out, or remove out when rc says the run failed. */
static int finish_output(avrogen_ocf_writer *w, cli_out *out, int rc)
{
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_ocf_writer_close(w, &d);
    if (rc == 0 && st != AVROGEN_OK)
        rc = cli_input_truncated() ? EXIT_BAD_INPUT
                                   : cli_error("%s: %s", out->path,
                                               d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    if (rc == 0)
        return cli_out_commit(out);
    cli_out_abort(out);
    return rc;
}

/* The writer's error as a line naming the output, or the input when one was cut under the
 * reader (copying from its pages then fails with EFAULT: "Bad address"). */
static int writer_error(avrogen_ocf_writer *w, const cli_out *out)
{
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_ocf_writer_error(w, &d);
    if (cli_input_truncated())
        return EXIT_BAD_INPUT;
    return cli_error("%s: %s", out->path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
}

/* A datum to the writer, or an error line naming the output. */
static int put_datum(avrogen_ocf_writer *w, const cli_out *out, avrogen_bytes d)
{
    return avrogen_ocf_writer_write(w, d.ptr, d.len) == AVROGEN_OK ? 0 : writer_error(w, out);
}

/* ---- concat -------------------------------------------------------------------- */

/*
 * Where two schemas first differ, for concat's refusal: both trees walked in
 * step over what the data depends on (kinds, names, fields in order and their
 * sort order, symbols, sizes, items, branches, logical types). "PATH: X in A, Y in B" into buf, and
 * true, at the first difference. PATH reads like Event.lines[].sku, with map
 * values as {} and union branches as <i>. A named type already being compared
 * is not entered again (recursive types).
 */
struct diff {
    const char *la, *lb; /* the files' names */
    char *buf;
    size_t cap;
    const avrogen_node *seen[256]; /* named types of a's schema on the walk's path */
    size_t n_seen;
};

static bool differ(struct diff *d, const char *path, const char *what, const char *x, const char *y)
{
    snprintf(d->buf, d->cap, "%s: %s%s in %s, %s%s in %s", path, what, x, d->la, what, y, d->lb);
    return true;
}

static bool differ_n(struct diff *d, const char *path, const char *what, size_t x, size_t y)
{
    char a[32], b[32];
    snprintf(a, sizeof a, "%zu %s", x, what);
    snprintf(b, sizeof b, "%zu %s", y, what);
    return differ(d, path, "", a, b);
}

static const char *logical(const avrogen_node *n, char *buf, size_t cap)
{
    if (n->logical == AVROGEN_LOGICAL_DECIMAL)
        snprintf(buf, cap, "decimal(%d, %d)", n->precision, n->scale);
    else
        snprintf(buf, cap, "%s", n->logical != AVROGEN_LOGICAL_NONE ? n->logical_name : "none");
    return buf;
}

static const char *order_name(avrogen_order o)
{
    return o == AVROGEN_ORDER_DESCENDING ? "descending"
           : o == AVROGEN_ORDER_IGNORE   ? "ignore"
                                         : "ascending";
}

static bool walk(struct diff *d, const avrogen_node *a, const avrogen_node *b, const char *path)
{
    char x[64], y[64], sub[512];
    if (a->kind != b->kind)
        return differ(d, path, "", avrogen_node_name(a), avrogen_node_name(b));
    if (a->logical != b->logical || (a->logical == AVROGEN_LOGICAL_DECIMAL &&
                                     (a->precision != b->precision || a->scale != b->scale)))
        return differ(d, path, "logical type ", logical(a, x, sizeof x), logical(b, y, sizeof y));
    if (avrogen_node_is_named(a)) {
        if (strcmp(a->fullname, b->fullname) != 0)
            return differ(d, path, "", a->fullname, b->fullname);
        for (size_t i = 0; i < d->n_seen; i++)
            if (d->seen[i] == a)
                return false;
        if (d->n_seen == sizeof d->seen / sizeof *d->seen)
            return false; /* deeper than any sane schema; the canonical forms decide */
        d->seen[d->n_seen++] = a;
    }
    bool found = false;
    switch (a->kind) {
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < a->n_fields && i < b->n_fields && !found; i++) {
            snprintf(sub, sizeof sub, "%s.%s", path, a->fields[i].name);
            if (strcmp(a->fields[i].name, b->fields[i].name) != 0) {
                snprintf(x, sizeof x, "field %zu ", i);
                found = differ(d, path, x, a->fields[i].name, b->fields[i].name);
            } else {
                found = walk(d, a->fields[i].type, b->fields[i].type, sub);
                /* The Parsing Canonical Form drops it, but it orders the data (spec §Sort Order).
                 */
                if (!found && a->fields[i].order != b->fields[i].order)
                    found = differ(d, sub, "order ", order_name(a->fields[i].order),
                                   order_name(b->fields[i].order));
            }
        }
        if (!found && a->n_fields != b->n_fields)
            found = differ_n(d, path, "fields", a->n_fields, b->n_fields);
        break;
    case AVROGEN_KIND_ENUM:
        for (size_t i = 0; i < a->n_symbols && i < b->n_symbols && !found; i++) {
            snprintf(x, sizeof x, "symbol %zu ", i);
            if (strcmp(a->symbols[i], b->symbols[i]) != 0)
                found = differ(d, path, x, a->symbols[i], b->symbols[i]);
        }
        if (!found && a->n_symbols != b->n_symbols)
            found = differ_n(d, path, "symbols", a->n_symbols, b->n_symbols);
        break;
    case AVROGEN_KIND_FIXED:
        if (a->size != b->size)
            found = differ_n(d, path, "bytes", a->size, b->size);
        break;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        snprintf(sub, sizeof sub, "%s%s", path, a->kind == AVROGEN_KIND_ARRAY ? "[]" : "{}");
        found = walk(d, a->items, b->items, sub);
        break;
    case AVROGEN_KIND_UNION:
        for (size_t i = 0; i < a->n_branches && i < b->n_branches && !found; i++) {
            snprintf(sub, sizeof sub, "%s<%zu>", path, i);
            found = walk(d, a->branches[i], b->branches[i], sub);
        }
        if (!found && a->n_branches != b->n_branches)
            found = differ_n(d, path, "branches", a->n_branches, b->n_branches);
        break;
    default:
        break;
    }
    if (avrogen_node_is_named(a) && !found)
        d->n_seen--;
    return found;
}

/* True (and why in buf) when the schemas of files la and lb hold different data. */
static bool schemas_differ(const avrogen_schema *a, const avrogen_schema *b, const char *la,
                           const char *lb, char *buf, size_t cap)
{
    struct diff d = {.la = la, .lb = lb, .buf = buf, .cap = cap};
    const avrogen_node *ra = avrogen_schema_root(a), *rb = avrogen_schema_root(b);
    if (walk(&d, ra, rb, avrogen_node_is_named(ra) ? ra->name : avrogen_node_name(ra)))
        return true;
    /* The walk stops at shared named types; the canonical forms see everything. */
    if (strcmp(avrogen_schema_canonical(a), avrogen_schema_canonical(b)) != 0) {
        snprintf(buf, cap, "the Parsing Canonical Forms differ");
        return true;
    }
    return false;
}

/* Append every datum of r to w: raw blocks when the codecs match, else datum by datum. */
static int append_file(avrogen_ocf_reader *r, const char *path, avrogen_ocf_writer *w,
                       const cli_out *out, const char *codec, avrogen_arena *a, cli_progress *prog,
                       uint64_t *records)
{
    if (strcmp(avrogen_ocf_reader_codec(r), codec) != 0) {
        avrogen_bytes d;
        while (avrogen_ocf_reader_next_datum(r, &d) == AVROGEN_OK && d.ptr != NULL) {
            if (put_datum(w, out, d) != 0)
                return EXIT_BAD_INPUT;
            cli_progress_tick(prog, ++*records);
        }
        return cli_reader_error(r, path);
    }
    uint64_t n;
    avrogen_reader block;
    while (avrogen_ocf_reader_next_block(r, &n, &block) == AVROGEN_OK && n != 0) {
        /* Copied as stored, not recompressed; still, nothing broken is passed on. */
        char why[256];
        avrogen_bytes payload;
        if (!cli_block_is_sound(r, &block, n, false, a, why, sizeof why))
            return cli_error("%s: %s", path, why);
        if (!avrogen_ocf_reader_block_payload(r, &payload))
            return cli_reader_error(r, path);
        if (avrogen_ocf_writer_write_block(w, n, payload.ptr, payload.len) != AVROGEN_OK)
            return writer_error(w, out);
        *records += n;
        cli_progress_tick(prog, *records);
    }
    return cli_reader_error(r, path);
}

int cmd_concat(int argc, char **argv)
{
    const char *codec = NULL, *depth = NULL;
    const cli_opt opts[] = {{"--codec", NULL, &codec, NULL},
                            {"--max-depth", NULL, &depth, NULL},
                            {NULL, NULL, NULL, NULL}};
    char **ops = calloc((size_t)argc, sizeof *ops);
    if (ops == NULL)
        return cli_error("out of memory");
    int n = 0, rc = cli_parse_args(argc, argv, opts, ops, argc, &n);
    if (rc == 0 && depth != NULL)
        rc = cli_parse_max_depth("concat", depth);
    if (rc == 0 && n < 2)
        rc = cli_usage("usage: avrogen concat [--codec C] IN... OUT");
    if (rc == 0)
        rc = cli_one_stdin("concat", ops, n - 1);
    if (rc == 0 && codec != NULL && !avrogen_ocf_codec_supported(codec))
        rc = cli_usage("concat: unknown codec '%s'", codec);
    if (rc != 0) {
        free(ops);
        return rc;
    }
    const char *out_path = ops[n - 1];
    avrogen_ocf_reader *first = NULL;
    avrogen_ocf_writer *w = NULL;
    cli_out out = {0};
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    cli_progress prog;
    cli_progress_init(&prog, "copied", strcmp(out_path, "-") == 0);
    for (int i = 0; i < n - 1; i++)
        cli_progress_input(&prog, ops[i]);
    uint64_t records = 0;
    /* One pass: each input is checked against the first as it comes, so that
     * standard input is read once; a mismatch removes the output. */
    for (int i = 0; i < n - 1 && rc == 0; i++) {
        avrogen_ocf_reader *r;
        if ((rc = cli_open_reader(ops[i], &r)) != 0)
            break;
        if (first == NULL) {
            first = r;
            if (codec == NULL)
                codec = avrogen_ocf_reader_codec(r);
            avrogen_ocf_writer_options wo = {.codec = codec, .threads = cli_jobs()};
            rc = cli_out_open(&out, out_path);
            if (rc == 0 && (rc = writer_like(r, ops[i], &out, wo, &w)) != 0)
                cli_out_abort(&out);
            if (rc != 0)
                break;
        } else {
            char why[768];
            if (schemas_differ(avrogen_ocf_reader_schema(first), avrogen_ocf_reader_schema(r),
                               ops[0], ops[i], why, sizeof why))
                rc = cli_error("%s: its schema differs from %s's (%s)", ops[i], ops[0], why);
        }
        cli_progress_source(&prog, cli_reader_position, r);
        if (rc == 0)
            rc = append_file(r, ops[i], w, &out, codec, &arena, &prog, &records);
        cli_progress_source(&prog, NULL, NULL);
        if (r != first)
            avrogen_ocf_reader_close(r);
    }
    cli_progress_done(&prog);
    if (w != NULL)
        rc = finish_output(w, &out, rc);
    avrogen_ocf_reader_close(first);
    avrogen_arena_fini(&arena);
    free(ops);
    return rc;
}

/* ---- recodec ----------------------------------------------------------------------- */

int cmd_recodec(int argc, char **argv)
{
    const char *codec = NULL, *level = NULL, *block_size = NULL, *depth = NULL;
    const cli_opt opts[] = {
            {"--codec", NULL, &codec, NULL},
            {"--level", NULL, &level, NULL},
            {"--block-size", NULL, &block_size, NULL},
            {"--max-depth", NULL, &depth, NULL},
            {NULL, NULL, NULL, NULL},
    };
    char *ops[2];
    int n = 0, rc = cli_parse_args(argc, argv, opts, ops, 2, &n);
    if (rc == 0 && depth != NULL)
        rc = cli_parse_max_depth("recodec", depth);
    if (rc != 0)
        return rc;
    if (n != 2)
        return cli_usage("usage: avrogen recodec [--codec C] [--level L] [--block-size N] IN OUT");
    if (codec != NULL && !avrogen_ocf_codec_supported(codec))
        return cli_usage("recodec: unknown codec '%s' (null, deflate, snappy, zstandard, xz, "
                         "bzip2)",
                         codec);
    avrogen_ocf_writer_options wo = {.threads = cli_jobs()};
    uint64_t v;
    if (block_size != NULL) {
        if ((rc = cli_parse_u64("recodec", "--block-size", "a number of bytes", block_size, &v)) !=
            0)
            return rc;
        if (v == 0 || v > (uint64_t)AVROGEN_OCF_DEFAULT_MAX_BLOCK)
            return cli_usage("recodec: --block-size must be 1 to %zu bytes (what readers take)",
                             AVROGEN_OCF_DEFAULT_MAX_BLOCK);
        wo.block_size = (size_t)v;
    }
    if (level != NULL) {
        char *end;
        long l = strtol(level, &end, 10);
        if (*end != '\0' || end == level || l < -131072 || l > 22 || l == 0)
            return cli_usage("recodec: --level needs the codec's compression level, not '%s'",
                             level);
        wo.level = (int)l;
    }
    avrogen_ocf_reader *r;
    if ((rc = cli_open_reader(ops[0], &r)) != 0)
        return rc;
    wo.codec = codec != NULL ? codec : avrogen_ocf_reader_codec(r);
    /* A level the codec does not take is a usage error, found before OUT is touched. */
    int lo = 0, hi = 0;
    if (wo.level != 0 && avrogen_ocf_codec_levels(wo.codec, &lo, &hi) &&
        (wo.level < lo || wo.level > hi)) {
        avrogen_ocf_reader_close(r);
        if (lo == 0 && hi == 0)
            return cli_usage("recodec: codec %s takes no --level", wo.codec);
        return cli_usage("recodec: codec %s takes --level %d to %d, not %d", wo.codec, lo, hi,
                         wo.level);
    }
    cli_out out;
    avrogen_ocf_writer *w = NULL;
    if ((rc = cli_out_open(&out, ops[1])) == 0 && (rc = writer_like(r, ops[0], &out, wo, &w)) != 0)
        cli_out_abort(&out);
    if (rc == 0) {
        cli_progress prog;
        cli_progress_init(&prog, "recoded", strcmp(ops[1], "-") == 0);
        cli_progress_input(&prog, ops[0]);
        cli_progress_source(&prog, cli_reader_position, r);
        uint64_t records = 0;
        avrogen_bytes d;
        while (avrogen_ocf_reader_next_datum(r, &d) == AVROGEN_OK && d.ptr != NULL) {
            if ((rc = put_datum(w, &out, d)) != 0)
                break;
            cli_progress_tick(&prog, ++records);
        }
        cli_progress_done(&prog);
        if (rc == 0)
            rc = cli_reader_error(r, ops[0]);
        rc = finish_output(w, &out, rc);
    }
    avrogen_ocf_reader_close(r);
    return rc;
}

/* ---- repair ------------------------------------------------------------------------ */

/* Where repair's report goes, and the progress line to clear before each line of it. */
struct repair_report {
    FILE *f;
    cli_progress *prog;
};

static void report_dropped(void *ctx, uint64_t from, uint64_t to, uint64_t claim, const char *why)
{
    struct repair_report *rep = ctx;
    cli_progress_done(rep->prog);
    if (claim != 0)
        fprintf(rep->f, "dropped bytes %" PRIu64 "-%" PRIu64 " (%" PRIu64 " records claimed): %s\n",
                from, to, claim, why);
    else
        fprintf(rep->f, "dropped bytes %" PRIu64 "-%" PRIu64 " (records unknown): %s\n", from, to,
                why);
}

static void report_kept(void *ctx, uint64_t at, uint64_t records)
{
    (void)at;
    cli_progress_tick(((struct repair_report *)ctx)->prog, records);
}

int cmd_repair(int argc, char **argv)
{
    const char *depth = NULL;
    const cli_opt opts[] = {{"--max-depth", NULL, &depth, NULL}, {NULL, NULL, NULL, NULL}};
    char *ops[2];
    int n = 0, rc = cli_parse_args(argc, argv, opts, ops, 2, &n);
    if (rc == 0 && depth != NULL)
        rc = cli_parse_max_depth("repair", depth);
    if (rc != 0)
        return rc;
    if (n != 2)
        return cli_usage("usage: avrogen repair [--max-depth N] IN OUT");
    avrogen_ocf_reader *r;
    if ((rc = cli_open_reader(ops[0], &r)) != 0)
        return rc;
    avrogen_ocf_writer_options wo = {.codec = avrogen_ocf_reader_codec(r), .threads = cli_jobs()};
    cli_out out;
    avrogen_ocf_writer *w = NULL;
    if ((rc = cli_out_open(&out, ops[1])) == 0 && (rc = writer_like(r, ops[0], &out, wo, &w)) != 0)
        cli_out_abort(&out);
    if (rc != 0) {
        avrogen_ocf_reader_close(r);
        return rc;
    }
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    cli_progress prog;
    cli_progress_init(&prog, "repaired", strcmp(ops[1], "-") == 0);
    cli_progress_input(&prog, ops[0]);
    cli_progress_source(&prog, cli_reader_position, r);
    /* The report goes to stdout, unless the repaired file does. */
    struct repair_report rep = {strcmp(ops[1], "-") == 0 ? stderr : stdout, &prog};
    const repair_hooks hooks = {report_dropped, report_kept, &rep};
    repair_tally t;
    repair_end end = repair_blocks(r, w, &arena, &hooks, &t);
    cli_progress_done(&prog);
    if (end == REPAIR_READ_FAILED && (rc = cli_reader_error(r, ops[0])) == 0)
        rc = cli_error("%s: reading stopped at offset %" PRIu64, ops[0],
                       avrogen_ocf_reader_position(r));
    else if (end == REPAIR_WRITE_FAILED)
        rc = writer_error(w, &out);
    /* The counts of damaged blocks are what their headers claim, and may lie. */
    if (rc == 0)
        fprintf(rep.f,
                "kept %" PRIu64 " blocks (%" PRIu64 " records); dropped %" PRIu64
                " damaged block%s (%s%" PRIu64 " records claimed, %" PRIu64 " bytes)\n",
                t.kept_blocks, t.kept, t.lost_blocks, t.lost_blocks == 1 ? "" : "s",
                t.lost_at_least ? "at least " : "", t.lost, t.lost_bytes);
    if (fflush(rep.f) != 0 && rc == 0)
        rc = cli_error("writing the report: %s", strerror(errno));
    rc = finish_output(w, &out, rc);
    avrogen_arena_fini(&arena);
    avrogen_ocf_reader_close(r);
    return rc;
}

/* ---- validate --------------------------------------------------------------------- */

/* Read every block and datum of one file; prints its verdict. */
static int validate_file(const char *path, const avrogen_schema *reader, avrogen_arena *a)
{
    avrogen_ocf_reader *r;
    int rc = cli_open_reader(path, &r);
    if (rc != 0)
        return rc;
    const avrogen_node *type = reader != NULL ? avrogen_schema_root(reader) : NULL;
    cli_progress prog;
    cli_progress_init(&prog, "validated", false);
    cli_progress_input(&prog, path);
    cli_progress_source(&prog, cli_reader_position, r);
    uint64_t records = 0, blocks = 0, last_block = 0;
    for (;;) {
        avrogen_value v;
        bool got;
        avrogen_arena_reset(a);
        if (avrogen_ocf_reader_next_value(r, type, &v, a, &got) != AVROGEN_OK || !got)
            break;
        if (blocks == 0 || avrogen_ocf_reader_block_offset(r) != last_block) {
            blocks++;
            last_block = avrogen_ocf_reader_block_offset(r);
        }
        cli_progress_tick(&prog, ++records);
    }
    cli_progress_done(&prog);
    rc = cli_reader_error(r, path);
    if (rc == 0)
        printf("%s: ok, %" PRIu64 " records in %" PRIu64 " blocks\n", path, records, blocks);
    avrogen_ocf_reader_close(r);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    const char *schema = NULL, *depth = NULL;
    const cli_opt opts[] = {{"--schema", NULL, &schema, NULL},
                            {"--max-depth", NULL, &depth, NULL},
                            {NULL, NULL, NULL, NULL}};
    char **files = calloc((size_t)argc, sizeof *files);
    if (files == NULL)
        return cli_error("out of memory");
    int n = 0, rc = cli_parse_args(argc, argv, opts, files, argc, &n);
    if (rc == 0 && depth != NULL)
        rc = cli_parse_max_depth("validate", depth);
    if (rc == 0 && n == 0)
        rc = cli_usage("validate: no FILE given (- reads standard input)");
    if (rc == 0)
        rc = cli_one_stdin("validate", files, n);
    avrogen_schema *reader = NULL;
    if (rc == 0 && schema != NULL)
        rc = cli_load_schema(schema, &reader);
    if (rc != 0) {
        free(files);
        return rc;
    }
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    /* The first problem of each file, every file checked. */
    for (int i = 0; i < n; i++) {
        if (validate_file(files[i], reader, &arena) != 0)
            rc = EXIT_BAD_INPUT;
    }
    if (fflush(stdout) != 0 && rc == 0)
        rc = cli_stdout_error();
    avrogen_arena_fini(&arena);
    avrogen_schema_free(reader);
    free(files);
    return rc;
}
