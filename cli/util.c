/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the subcommands: error lines, options, reading whole
 * files and JSON lines, progress on a terminal, and output files that appear
 * whole or not at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <malloc.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "avrogen/ocf.h"
#include "avrogen/value.h"

#include "cli.h"
#include "outfile.h" /* the output-file rule, shared with gen/outputs.c */

static void progress_clear(void);

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    progress_clear();
    fputs("avrogen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_BAD_INPUT;
}

/* The subcommand being run and its options, for the usage hint and suggestions. */
static const char *current_command;
static const cli_option_doc *current_options;

void cli_set_command(const char *name, const cli_option_doc *options)
{
    current_command = name;
    current_options = options;
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    progress_clear();
    fputs("avrogen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    if (current_command != NULL)
        fprintf(stderr, "\n(run 'avrogen %s --help' for usage)\n", current_command);
    else
        fputs("\n(run 'avrogen --help' for usage)\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* ---- suggestions --------------------------------------------------------------------- */

/* Names longer than this are compared by their first CLI_NAME_MAX bytes. */
#define CLI_NAME_MAX 64

size_t cli_edit_distance(const char *a, const char *b)
{
    size_t n = strnlen(a, CLI_NAME_MAX), m = strnlen(b, CLI_NAME_MAX);
    /* Three rows of the optimal-string-alignment table: i - 2, i - 1, i. */
    size_t rows[3][CLI_NAME_MAX + 1];
    for (size_t j = 0; j <= m; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t *cur = rows[i % 3], *up = rows[(i + 2) % 3], *up2 = rows[(i + 1) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t d = up[j - 1] + cost;
            if (up[j] + 1 < d)
                d = up[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                up2[j - 2] + 1 < d)
                d = up2[j - 2] + 1;
            cur[j] = d;
        }
    }
    return rows[n % 3][m];
}

bool cli_is_close(const char *word, const char *candidate, size_t *distance)
{
    size_t d = cli_edit_distance(word, candidate);
    *distance = d;
    /* The dashes of an option are no part of what was mistyped. */
    size_t len = strnlen(candidate + strspn(candidate, "-"), CLI_NAME_MAX);
    return d > 0 && d * 3 <= len;
}

bool cli_doc_options(const cli_option_doc *docs, bool (*fn)(void *ctx, const char *name), void *ctx)
{
    for (const cli_option_doc *o = docs; o != NULL && o->spelling != NULL; o++) {
        /* "-o, --output DIR", "--schema S, --offset N": each part's first word. */
        for (const char *p = o->spelling; *p != '\0';) {
            size_t len = strcspn(p, " ,");
            char name[CLI_NAME_MAX + 1];
            if (p[0] == '-' && len >= 2 && len <= CLI_NAME_MAX && strncmp(p, "--", len) != 0) {
                memcpy(name, p, len);
                name[len] = '\0';
                if (fn(ctx, name))
                    return true;
            }
            const char *comma = strstr(p, ", ");
            if (comma == NULL)
                break;
            p = comma + 2;
        }
    }
    return false;
}

struct closest {
    const char *word;
    char best[CLI_NAME_MAX + 1];
    size_t distance;
};

static bool consider(void *ctx, const char *name)
{
    struct closest *c = ctx;
    size_t d;
    if (cli_is_close(c->word, name, &d) && d < c->distance) {
        c->distance = d;
        snprintf(c->best, sizeof c->best, "%s", name);
    }
    return false;
}

int cli_unknown_option(const char *cmd, const char *arg)
{
    /* --limt=5: the option's name is what was mistyped. */
    char word[CLI_NAME_MAX + 1];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(arg, "="), arg);
    struct closest c = {.word = word, .distance = SIZE_MAX};
    if (current_command != NULL && strcmp(current_command, cmd) == 0)
        cli_doc_options(current_options, consider, &c);
    if (c.distance != SIZE_MAX)
        return cli_usage("%s: unknown option '%s'; did you mean '%s'?", cmd, arg, c.best);
    return cli_usage("%s: unknown option '%s'", cmd, arg);
}

const char *cli_file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISFIFO(mode) ? "a pipe"
           : S_ISREG(mode)  ? "a regular file"
                            : "not a regular file";
}

/* The kind of the object named `path` when cli_slurp refused it (ENODEV). */
static const char *refused_kind = "not a regular file";

static bool file_or_pipe(const struct stat *st)
{
    return S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode);
}

char *cli_slurp(const char *path, size_t max, size_t *len)
{
    /* A named file is read only when it is a regular file or a pipe: never a device such as
     * /dev/zero (endless) or a terminal, nor a directory, which are not even opened (and
     * checked again once open). Standard input is what it is. */
    struct stat st = {0};
    bool named = strcmp(path, "-") != 0;
    if (named && stat(path, &st) == 0 && !file_or_pipe(&st)) {
        refused_kind = cli_file_kind(st.st_mode);
        errno = ENODEV;
        return NULL;
    }
    FILE *f = named ? fopen(path, "rb") : stdin;
    if (f == NULL)
        return NULL;
    if (named && (fstat(fileno(f), &st) != 0 || !file_or_pipe(&st))) {
        refused_kind = cli_file_kind(st.st_mode);
        fclose(f);
        errno = ENODEV;
        return NULL;
    }
    /* Room for max + 1 bytes and the NUL at most: the byte past max is the proof. */
    size_t most = max < SIZE_MAX - 2 ? max + 2 : SIZE_MAX;
    size_t cap = most < 4096 ? most : 4096, n = 0;
    char *buf = malloc(cap);
    int err = buf == NULL ? ENOMEM : 0;
    while (err == 0) {
        if (n == cap - 1) {
            if (n > max) {
                err = EFBIG;
                break;
            }
            size_t grown_cap = cap <= most / 2 ? cap * 2 : most;
            char *grown = realloc(buf, grown_cap);
            if (grown == NULL) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap = grown_cap;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (ferror(f))
            err = errno != 0 ? errno : EIO;
        else if (got == 0)
            break;
    }
    if (err == 0 && n > max)
        err = EFBIG;
    if (f != stdin)
        fclose(f);
    if (err != 0) {
        free(buf);
        errno = err;
        return NULL;
    }
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

int cli_schema_text(const char *arg, char **text, size_t *len, const char **label)
{
    *label = arg;
    *text = cli_slurp(arg, CLI_TEXT_MAX, len);
    if (*text != NULL)
        return 0;
    int err = errno;
    /* Not a file: JSON text itself (too long for a file name, even). */
    if ((err == ENOENT || err == ENAMETOOLONG) && strchr("{[\"", arg[0]) != NULL) {
        *len = strlen(arg);
        *text = malloc(*len + 1);
        if (*text == NULL)
            return cli_error("out of memory");
        memcpy(*text, arg, *len + 1);
        *label = "<argument>";
        return 0;
    }
    if (err == EFBIG)
        return cli_error("%s: the schema is longer than %zu bytes (the limit for schemas, the "
                         "default limit of a container file's header)",
                         arg, (size_t)CLI_TEXT_MAX);
    return cli_slurp_error(arg, "a schema", err);
}

int cli_slurp_error(const char *path, const char *what, int err)
{
    if (err == ENODEV)
        return cli_error("%s: %s is read from a regular file or a pipe (or - for standard "
                         "input), and this is %s",
                         path, what, refused_kind);
    return cli_error("%s: %s", path, strerror(err));
}

/* --max-depth: one setting for the whole run (a command reads with one limit). */
static unsigned max_depth = AVROGEN_DEFAULT_MAX_DEPTH;

/* ---- JSON lines ------------------------------------------------------------------ */

/*
 * jansson's allocations, counted. Parsing one line is bounded by the line's
 * length only in text: jansson's tree costs up to some 80 times the text
 * ("[{},{},...]": an object with its hash table for every 3 bytes), so a
 * line within the per-datum budget could still take gigabytes. While a line
 * is parsed its tree may hold CLI_ARENA_BUDGET bytes; past that jansson's
 * allocation fails, and with it the parse. jansson takes one pair of
 * allocation functions for the whole process (the generator module's use
 * included), so they are installed before any other jansson call and never
 * changed. The blocks are plain malloc blocks, measured with
 * malloc_usable_size (the same at both ends of a block's life), because code
 * outside jansson frees what json_dumps returns with free(): such a block
 * is never subtracted, which only makes json_live high, never the bound of
 * a parse (json_limit counts from json_live when it starts).
 */
static size_t json_live;             /* bytes jansson holds now */
static size_t json_limit = SIZE_MAX; /* what it may hold: json_live + the budget during a parse */
static bool json_refused;            /* an allocation failed for the limit */

static void *json_budget_malloc(size_t n)
{
    if (json_live > json_limit || n > json_limit - json_live) {
        json_refused = true;
        return NULL;
    }
    void *p = malloc(n);
    if (p != NULL)
        json_live += malloc_usable_size(p);
    return p;
}

static void json_budget_free(void *p)
{
    if (p == NULL)
        return;
    size_t n = malloc_usable_size(p);
    json_live -= n < json_live ? n : json_live;
    free(p);
}

void cli_json_budget_install(void)
{
    json_set_alloc_funcs(json_budget_malloc, json_budget_free);
}

int cli_window_fill(struct cli_window *w, size_t want)
{
    size_t have = w->len - w->pos;
    if (have >= want || w->eof)
        return 0;
    if (w->pos > 0) {
        memmove(w->buf, w->buf + w->pos, have);
        w->base += w->pos;
        w->len = have;
        w->pos = 0;
    }
    if (want > w->cap) {
        size_t cap = w->cap * 2 > want ? w->cap * 2 : want;
        cap = cap < w->max ? cap : w->max;
        char *p = realloc(w->buf, cap);
        if (p == NULL)
            return -1;
        w->buf = p;
        w->cap = cap;
    }
    w->len += fread(w->buf + w->len, 1, w->cap - w->len, w->in);
    if (w->len < w->cap) {
        if (ferror(w->in))
            return errno != 0 ? errno : EIO;
        w->eof = true;
    }
    return 0;
}

/* The first window read for JSON lines, grown (doubling) while one line fills it. */
#define JSONL_WINDOW ((size_t)64 << 10)

void cli_jsonl_init(struct cli_jsonl *j, FILE *in, const char *name)
{
    memset(j, 0, sizeof *j);
    j->w.in = in;
    j->w.max = CLI_ARENA_BUDGET + 1; /* a line of the budget and its newline */
    j->name = name;
}

void cli_jsonl_fini(struct cli_jsonl *j)
{
    free(j->w.buf);
    j->w.buf = NULL;
}

static int line_too_long(struct cli_jsonl *j)
{
    return cli_error("%s:%zu: the line starting at byte %" PRIu64 " is longer than %zu bytes "
                     "(the per-datum budget)",
                     j->name, j->lineno + 1, j->w.base + j->w.pos, (size_t)CLI_ARENA_BUDGET);
}

/*
 * The next line of j's input, without its newline, in *text (n bytes, inside
 * the window; valid until the next call). 1, 0 at the end of the input, or -1
 * after an error line: a read error, or a line longer than CLI_ARENA_BUDGET,
 * found without reading more of it than that.
 */
static int jsonl_line(struct cli_jsonl *j, char **text, size_t *n)
{
    struct cli_window *w = &j->w;
    size_t scanned = 0; /* bytes of the line already searched for its newline */
    for (;;) {
        size_t have = w->len - w->pos;
        char *nl = have > scanned ? memchr(w->buf + w->pos + scanned, '\n', have - scanned) : NULL;
        size_t end = nl != NULL ? (size_t)(nl - w->buf) : w->len;
        if (end - w->pos > CLI_ARENA_BUDGET) {
            line_too_long(j);
            return -1;
        }
        if (nl != NULL || w->eof) {
            if (nl == NULL && have == 0)
                return 0;
            *text = w->buf + w->pos;
            *n = end - w->pos;
            j->start = w->base + w->pos;
            w->pos = nl != NULL ? end + 1 : end;
            j->lineno++;
            return 1;
        }
        scanned = have;
        int err = cli_window_fill(w, w->cap == 0 ? JSONL_WINDOW : have + 1);
        if (err < 0) {
            cli_error("%s:%zu: out of memory reading a line of more than %zu bytes", j->name,
                      j->lineno + 1, have);
            return -1;
        }
        if (err > 0) {
            cli_error("%s: %s", j->name, strerror(err));
            return -1;
        }
    }
}

int cli_jsonl_next(struct cli_jsonl *j, const avrogen_node *type, avrogen_value *v,
                   avrogen_arena *a)
{
    char *text;
    size_t len;
    int got;
    while ((got = jsonl_line(j, &text, &len)) > 0) {
        while (len > 0 && memchr(" \t\r", text[len - 1], 3) != NULL)
            len--;
        if (len == 0)
            continue; /* blank lines separate nothing */
        avrogen_diag d;
        memset(&d, 0, sizeof d);
        avrogen_arena_reset(a);
        json_limit = json_live + CLI_ARENA_BUDGET;
        json_refused = false;
        avrogen_status st = avrogen_value_from_json_depth(text, len, type, max_depth, v, a, &d);
        json_limit = SIZE_MAX;
        if (st == AVROGEN_OK)
            return 1;
        if (json_refused)
            cli_error("%s:%zu: the JSON text of the line starting at byte %" PRIu64
                      " needs more than %zu bytes of memory to parse (the per-datum budget)",
                      j->name, j->lineno, j->start, (size_t)CLI_ARENA_BUDGET);
        else if (d.column > 0)
            cli_error("%s:%zu:%d: %s", j->name, j->lineno, d.column, d.msg);
        else
            cli_error("%s:%zu: %s%s%s", j->name, j->lineno, d.path, d.path[0] != '\0' ? ": " : "",
                      d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
        return -1;
    }
    return got;
}

/* ---- container files ----------------------------------------------------------- */

int cli_parse_max_depth(const char *cmd, const char *text)
{
    uint64_t v = 0;
    int rc = cli_parse_u64(cmd, "--max-depth", "a number of levels", text, &v);
    if (rc != 0)
        return rc;
    if (v == 0 || v > CLI_MAX_DEPTH)
        return cli_usage("%s: --max-depth takes 1 to %u, not '%s'", cmd, CLI_MAX_DEPTH, text);
    max_depth = (unsigned)v;
    return 0;
}

unsigned cli_max_depth(void)
{
    return max_depth;
}

static unsigned jobs;

void cli_set_jobs(unsigned n)
{
    jobs = n;
}

unsigned cli_jobs(void)
{
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > (long)CLI_MAX_JOBS ? CLI_MAX_JOBS : (unsigned)n;
    }
    return jobs;
}

static void watch_mapping(const avrogen_ocf_reader *r, const char *path);

int cli_open_reader(const char *path, avrogen_ocf_reader **r)
{
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    /* A block may be as large as a datum may be: Python and Java write a
     * 64 MiB value as a block of 64 MiB and a few bytes, past the library's
     * default. The reader's buffer grows only as bytes arrive. A file given
     * by path is mapped (no copy; the program owns SIGBUS: watch_mapping). */
    const avrogen_ocf_reader_options opts = {.max_block_size = CLI_ARENA_BUDGET,
                                             .max_depth = max_depth,
                                             .map = true,
                                             .threads = cli_jobs()};
    avrogen_status st = strcmp(path, "-") == 0 ? avrogen_ocf_reader_open_file(stdin, &opts, r, &d)
                                               : avrogen_ocf_reader_open(path, &opts, r, &d);
    if (st != AVROGEN_OK)
        return cli_error("%s: %s", path, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    watch_mapping(*r, path);
    return 0;
}

int cli_reader_error(avrogen_ocf_reader *r, const char *path)
{
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    if (avrogen_ocf_reader_error(r, &d) == AVROGEN_OK)
        return 0;
    return cli_error("%s: %s", path, d.msg);
}

/* cli_datum_is_empty's walk: `seen` holds the records found empty, so shared ones are walked once.
 */
struct empty_walk {
    const avrogen_node **seen;
    size_t n, cap;
};

static bool always_empty(struct empty_walk *w, const avrogen_node *n, unsigned depth)
{
    if (n->kind == AVROGEN_KIND_NULL)
        return true;
    if (n->kind == AVROGEN_KIND_FIXED)
        return n->size == 0;
    /* A record nested this deep that is still empty contains itself: no datum at all. */
    if (n->kind != AVROGEN_KIND_RECORD || depth > 10000)
        return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->seen[i] == n)
            return true;
    for (size_t i = 0; i < n->n_fields; i++)
        if (!always_empty(w, n->fields[i].type, depth + 1))
            return false;
    if (w->n == w->cap) {
        size_t cap = w->cap != 0 ? 2 * w->cap : 16;
        const avrogen_node **p = realloc(w->seen, cap * sizeof *p);
        if (p == NULL)
            return true; /* only costs the memo */
        w->seen = p;
        w->cap = cap;
    }
    w->seen[w->n++] = n;
    return true;
}

bool cli_datum_is_empty(const avrogen_node *n)
{
    struct empty_walk w = {NULL, 0, 0};
    bool empty = always_empty(&w, n, 0);
    free(w.seen);
    return empty;
}

/* ---- options ---------------------------------------------------------------------- */

/* How each option with a value was spelled in the last cli_parse_args (cli_spelled). */
#define SPELLED_MAX 16
static struct spelling {
    const char **slot;
    const char *as;
} spelled[SPELLED_MAX];
static size_t n_spelled;

static void note_spelling(const char **slot, const char *as)
{
    for (size_t i = 0; i < n_spelled; i++) {
        if (spelled[i].slot == slot) {
            spelled[i].as = as;
            return;
        }
    }
    if (n_spelled < SPELLED_MAX)
        spelled[n_spelled++] = (struct spelling){slot, as};
}

const char *cli_spelled(const char **slot, const char *name)
{
    for (size_t i = 0; i < n_spelled; i++)
        if (spelled[i].slot == slot)
            return spelled[i].as;
    return name;
}

int cli_parse_args(int argc, char **argv, const cli_opt *opts, char **operands, int max,
                   int *n_operands)
{
    const char *cmd = argv[0];
    n_spelled = 0;
    bool options_done = false;
    *n_operands = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || a[0] != '-' || a[1] == '\0') {
            if (*n_operands == max)
                return cli_usage("%s: too many operands ('%s')", cmd, a);
            operands[(*n_operands)++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_done = true;
            continue;
        }
        const cli_opt *o = NULL;
        const char *inline_value = NULL;
        for (const cli_opt *p = opts; p->name != NULL && o == NULL; p++) {
            size_t n = strlen(p->name);
            if (strncmp(a, p->name, n) == 0 && (a[n] == '\0' || (a[n] == '=' && p->value))) {
                o = p;
                inline_value = a[n] == '=' ? a + n + 1 : NULL;
            } else if (p->alias != NULL && strcmp(a, p->alias) == 0) {
                o = p;
            }
        }
        if (o == NULL)
            return cli_unknown_option(cmd, a);
        if (o->value != NULL)
            note_spelling(o->value,
                          o->alias != NULL && strcmp(a, o->alias) == 0 ? o->alias : o->name);
        if (o->value == NULL) {
            *o->flag = true;
        } else if (inline_value != NULL) {
            *o->value = inline_value;
        } else if (i + 1 < argc) {
            *o->value = argv[++i];
        } else {
            return cli_usage("%s: %s needs a value", cmd, a);
        }
    }
    return 0;
}

int cli_one_stdin(const char *cmd, char **operands, int n)
{
    int seen = 0;
    for (int i = 0; i < n; i++)
        seen += strcmp(operands[i], "-") == 0;
    return seen > 1 ? cli_usage("%s: standard input (-) can be read only once", cmd) : 0;
}

int cli_parse_u64(const char *cmd, const char *opt, const char *what, const char *text,
                  uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE)
        return cli_usage("%s: %s needs %s, not '%s'", cmd, opt, what, text);
    *out = (uint64_t)v;
    return 0;
}

uint64_t cli_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- JSON text, indented ------------------------------------------------------------ */

static void newline_indent(FILE *out, size_t margin, size_t depth)
{
    fputc('\n', out);
    for (size_t i = 0; i < margin + 2 * depth; i++)
        fputc(' ', out);
}

void cli_print_json_indented(FILE *out, const char *text, size_t len, size_t margin)
{
    size_t depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '"') {
            /* A string, escapes and all, as it is. */
            size_t j = i + 1;
            while (j < len && text[j] != '"')
                j += text[j] == '\\' ? 2 : 1;
            if (j >= len)
                j = len - 1;
            fwrite(text + i, 1, j + 1 - i, out);
            i = j;
        } else if (c == '{' || c == '[') {
            size_t j = i + 1;
            while (j < len && strchr(" \t\r\n", text[j]) != NULL)
                j++;
            fputc(c, out);
            if (j < len && (text[j] == '}' || text[j] == ']')) {
                fputc(text[j], out); /* {} and [], as Python prints them */
                i = j;
            } else {
                newline_indent(out, margin, ++depth);
            }
        } else if (c == '}' || c == ']') {
            newline_indent(out, margin, depth > 0 ? --depth : 0);
            fputc(c, out);
        } else if (c == ',') {
            fputc(',', out);
            newline_indent(out, margin, depth);
        } else if (c == ':') {
            fputs(": ", out);
        } else if (strchr(" \t\r\n", c) == NULL) {
            fputc(c, out);
        }
    }
}

/* ---- progress ------------------------------------------------------------------ */

static enum cli_progress_mode progress_mode = CLI_PROGRESS_AUTO;
/* A progress line is on stderr now: one at a time in a process. */
static bool progress_shown;

/* The first line after this long, then at most this often: short runs show nothing. */
#define PROGRESS_FIRST  0.5
#define PROGRESS_PERIOD 0.25

void cli_set_progress(enum cli_progress_mode mode)
{
    progress_mode = mode;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_clear(void)
{
    if (progress_shown)
        fputs("\r\033[K", stderr);
    progress_shown = false;
}

void cli_progress_init(cli_progress *p, const char *verb, bool to_stdout)
{
    memset(p, 0, sizeof *p);
    p->verb = verb;
    p->every = 1;
    p->bytes_known = true;
    if (progress_mode == CLI_PROGRESS_AUTO)
        p->on = isatty(STDERR_FILENO) && !(to_stdout && isatty(STDOUT_FILENO));
    else
        p->on = progress_mode == CLI_PROGRESS_ALWAYS;
    p->start = p->last_check = now_seconds();
    p->next_draw = p->start + PROGRESS_FIRST;
}

void cli_progress_input(cli_progress *p, const char *path)
{
    struct stat st;
    p->has_input = true;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        p->total_bytes += (uint64_t)st.st_size;
    else
        p->bytes_known = false;
}

void cli_progress_source(cli_progress *p, uint64_t (*pos)(const void *ctx), const void *ctx)
{
    if (p->pos != NULL)
        p->bytes_done += p->pos(p->pos_ctx);
    p->pos = pos;
    p->pos_ctx = ctx;
}

uint64_t cli_reader_position(const void *reader)
{
    return avrogen_ocf_reader_position(reader);
}

uint64_t cli_window_position(const void *window)
{
    const struct cli_window *w = window;
    return w->base + w->pos;
}

/* "1234", "12.3k", "4.56M": a count in at most 5 characters and a unit. */
static void human(char *buf, size_t cap, double x)
{
    if (x < 1e4)
        snprintf(buf, cap, "%.0f", x);
    else if (x < 1e6)
        snprintf(buf, cap, "%.1fk", x / 1e3);
    else if (x < 1e9)
        snprintf(buf, cap, "%.2fM", x / 1e6);
    else
        snprintf(buf, cap, "%.2fG", x / 1e9);
}

/* "0:07", "12:34", "1:02:03" */
static void clock_text(char *buf, size_t cap, double seconds)
{
    unsigned long s = seconds > 0 && seconds < 1e8 ? (unsigned long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, cap, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, cap, "%lu:%02lu", s / 60, s % 60);
}

static void progress_draw(cli_progress *p, double now)
{
    double elapsed = now - p->start;
    uint64_t bytes = p->bytes_done + (p->pos != NULL ? p->pos(p->pos_ctx) : 0);
    bool sized = p->has_input && p->bytes_known && p->total_bytes > 0;
    double done = -1; /* the fraction done, when known */
    if (sized)
        done = (double)bytes / (double)p->total_bytes;
    else if (p->total_records > 0)
        done = (double)p->records / (double)p->total_records;
    char line[256], n[32], rate[32], t[32];
    size_t len = 0;
    len += (size_t)snprintf(line + len, sizeof line - len, "avrogen: %s %" PRIu64 " records",
                            p->verb, p->records);
    if (p->total_records > 0)
        len += (size_t)snprintf(line + len, sizeof line - len, " of %" PRIu64, p->total_records);
    if (p->has_input) {
        len += (size_t)snprintf(line + len, sizeof line - len, ", %.1f", (double)bytes / 1e6);
        if (sized)
            len += (size_t)snprintf(line + len, sizeof line - len, " of %.1f",
                                    (double)p->total_bytes / 1e6);
        len += (size_t)snprintf(line + len, sizeof line - len, " MB");
    }
    if (done >= 0)
        len += (size_t)snprintf(line + len, sizeof line - len, " (%.0f%%)",
                                100 * (done < 1 ? done : 1));
    human(n, sizeof n, elapsed > 0 ? (double)p->records / elapsed : 0);
    len += (size_t)snprintf(line + len, sizeof line - len, ", %s records/s", n);
    if (p->has_input) {
        snprintf(rate, sizeof rate, "%.1f", elapsed > 0 ? (double)bytes / 1e6 / elapsed : 0);
        len += (size_t)snprintf(line + len, sizeof line - len, ", %s MB/s", rate);
    }
    clock_text(t, sizeof t, elapsed);
    len += (size_t)snprintf(line + len, sizeof line - len, ", %s elapsed", t);
    if (done > 0 && done < 1) {
        clock_text(t, sizeof t, elapsed * (1 - done) / done);
        len += (size_t)snprintf(line + len, sizeof line - len, ", %s left", t);
    }
    if (len >= sizeof line)
        len = sizeof line - 1;
    /* Wider than the terminal, the line would wrap and \r could not take it back. */
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && len >= ws.ws_col)
        len = (size_t)ws.ws_col - 1;
    fprintf(stderr, "\r%.*s\033[K", (int)len, line);
    progress_shown = true;
}

void cli_progress_check(cli_progress *p, uint64_t records)
{
    p->calls = 0;
    p->records = records;
    double now = now_seconds();
    /* Read the clock about every few milliseconds, whatever a tick costs. */
    double since = now - p->last_check;
    if (since < 0.002 && p->every < (1u << 20))
        p->every *= 2;
    else if (since > 0.02 && p->every > 1)
        p->every /= 2;
    p->last_check = now;
    if (now < p->next_draw)
        return;
    p->next_draw = now + PROGRESS_PERIOD;
    progress_draw(p, now);
}

void cli_progress_step(cli_progress *p, const char *text)
{
    if (!p->on)
        return;
    char t[32], line[512];
    clock_text(t, sizeof t, now_seconds() - p->start);
    int len = snprintf(line, sizeof line, "avrogen: %s, %s elapsed", text, t);
    if (len < 0)
        return;
    size_t n = (size_t)len < sizeof line ? (size_t)len : sizeof line - 1;
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && n >= ws.ws_col)
        n = (size_t)ws.ws_col - 1;
    fprintf(stderr, "\r%.*s\033[K", (int)n, line);
    progress_shown = true;
}

void cli_progress_done(cli_progress *p)
{
    (void)p;
    progress_clear();
}

/* ---- standard output ---------------------------------------------------------------- */

void cli_signals_init(void)
{
    outfile_signals_catch();
}

int cli_stdout_error(void)
{
    int err = errno != 0 ? errno : EIO;
    /* One line, however many writes failed. */
    static bool said;
    if (said)
        return EXIT_BAD_INPUT;
    said = true;
    return cli_error("write error on standard output: %s", strerror(err));
}

int cli_stdout_finish(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    /* A verb that failed has said why already. */
    return rc != 0 ? rc : cli_stdout_error();
}

/* ---- output files -------------------------------------------------------------------- */

/* The mode a new OUT gets: the file it replaces keeps its mode, else what creat() would give
 * (0666 & ~umask). */
static mode_t output_mode(const struct outfile *of)
{
    if (of->kind == OUTFILE_REGULAR)
        return of->mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* A character device or a FIFO: written as it is, no temporary file (outfile.h). */
static int open_stream(cli_out *o, const char *target)
{
    int fd = outfile_open_stream(target);
    if (fd < 0 || (o->f = fdopen(fd, "wb")) == NULL) {
        int rc = cli_error("%s: %s", o->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    o->stream = true;
    return 0;
}

int cli_out_open(cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    struct outfile of;
    if (outfile_resolve(path, &of) != 0)
        return cli_error("%s: %s", path, strerror(errno));
    int rc = 0;
    if (of.kind == OUTFILE_REFUSED)
        rc = cli_error("%s: is %s, not a file, a FIFO or a character device", path, of.refused);
    else if (of.kind == OUTFILE_STREAM)
        rc = open_stream(o, of.target);
    if (rc != 0 || of.kind == OUTFILE_STREAM) {
        outfile_fini(&of);
        return rc;
    }
    size_t len = strlen(of.target) + sizeof ".tmp-XXXXXX";
    o->tmp = malloc(len);
    if (o->tmp == NULL) {
        outfile_fini(&of);
        return cli_error("%s: %s", path, strerror(ENOMEM));
    }
    snprintf(o->tmp, len, "%s.tmp-XXXXXX", of.target);
    /* A symbolic link stays one: the file it ends at is what the rename replaces. */
    o->target = of.target;
    /* A signal between mkstemp() and the handler learning the name would leave
     * the file behind: outfile_temp_begin() holds them until both are done. */
    outfile_temp_begin();
    int fd = mkstemp(o->tmp);
    int err = errno;
    if (fd >= 0)
        outfile_temp_set(o->tmp);
    outfile_temp_end();
    if (fd < 0) {
        rc = cli_error("%s: %s", path, strerror(err));
        free(o->tmp);
        o->tmp = NULL;
        free(o->target);
        o->target = NULL;
        return rc;
    }
    if (fchmod(fd, output_mode(&of)) != 0 || (o->f = fdopen(fd, "wb")) == NULL) {
        rc = cli_error("%s: %s", o->tmp, strerror(errno));
        close(fd);
        cli_out_abort(o);
        return rc;
    }
    return 0;
}

int cli_out_commit(cli_out *o)
{
    if (o->f == stdout) {
        if (fflush(o->f) != 0 || ferror(o->f))
            return cli_stdout_error();
        return 0;
    }
    if (o->stream) {
        int rc = 0;
        if (fflush(o->f) != 0 || ferror(o->f))
            rc = cli_error("%s: %s", o->path, strerror(errno));
        if (fclose(o->f) != 0 && rc == 0)
            rc = cli_error("%s: %s", o->path, strerror(errno));
        o->f = NULL;
        o->stream = false;
        return rc;
    }
    int rc = 0;
    /* On disk before it replaces anything: a crash leaves the old file or the new one. */
    if (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)
        rc = cli_error("%s: %s", o->path, strerror(errno));
    if (fclose(o->f) != 0 && rc == 0)
        rc = cli_error("%s: %s", o->path, strerror(errno));
    o->f = NULL;
    if (rc == 0 && rename(o->tmp, o->target) != 0)
        rc = cli_error("%s: %s", o->path, strerror(errno));
    if (rc != 0) {
        cli_out_abort(o);
        return rc;
    }
    outfile_temp_clear();
    free(o->tmp);
    o->tmp = NULL;
    free(o->target);
    o->target = NULL;
    return 0;
}

void cli_out_abort(cli_out *o)
{
    if (o->stream) {
        /* What went out went out: a device or a FIFO has nothing to take back. */
        fclose(o->f);
        o->f = NULL;
        o->stream = false;
        return;
    }
    if (o->tmp == NULL)
        return;
    if (o->f != NULL)
        fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
    outfile_temp_clear();
    free(o->tmp);
    o->tmp = NULL;
    free(o->target);
    o->target = NULL;
}

/* ---- mapped inputs ----------------------------------------------------------------- */

/*
 * Container files given by path are read mapped (cli_open_reader), so one that
 * another process truncates while it is read raises SIGBUS, which the program
 * owns. A fault inside a mapping it knows ends the run as bad input does: one
 * error line naming the file, the output's temporary file removed, exit 1, no
 * core dump. Any other SIGBUS takes its default course. The handler calls only
 * write, unlink, signal, raise and _exit (async-signal-safe). SIGBUS is
 * synchronous, raised by the faulting access itself, so it never interrupts
 * watch_mapping filling a slot.
 */
#define MAPPED_SLOTS 8 /* the newest mappings; a command holds two at most (concat) */
static struct mapped_input {
    uintptr_t start;
    size_t len;
    char name[4096];
    size_t name_len;
} mapped_inputs[MAPPED_SLOTS];
static size_t
        mapped_count; /* mappings seen; the newest is slot (mapped_count - 1) % MAPPED_SLOTS */

static void put_stderr(const char *s, size_t n)
{
    while (n != 0) {
        ssize_t k = write(STDERR_FILENO, s, n);
        if (k <= 0)
            return;
        s += k;
        n -= (size_t)k;
    }
}

static void put_fd(int fd, const char *s, size_t n)
{
    while (n != 0) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        s += k;
        n -= (size_t)k;
    }
}

static cli_pending_text *pending_text; /* cat's, while it prints */
static _Thread_local bool text_thread; /* on the thread that prints (opened the mapping) */

void cli_watch_text(cli_pending_text *t)
{
    pending_text = t;
    text_thread = t != NULL;
}

/* Decimal digits of v into buf (at least 21 bytes), async-signal-safe; their count. */
static size_t put_decimal(char *buf, uint64_t v)
{
    char tmp[21];
    size_t n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    uintptr_t at = (uintptr_t)info->si_addr;
    for (size_t k = 0; k < mapped_count && k < MAPPED_SLOTS; k++) {
        const struct mapped_input *m = &mapped_inputs[(mapped_count - 1 - k) % MAPPED_SLOTS];
        if (info->si_code > 0 && at >= m->start && at - m->start < m->len) {
            /* Whole lines on stdout: the records complete in cat's buffer go out and a line
             * begun ends, from the thread that fills that buffer only (in a codec's worker
             * the buffer may be moving: then it is dropped, and a begun line still ends). */
            cli_pending_text *t = pending_text;
            if (t != NULL) {
                if (text_thread && t->complete != 0)
                    put_fd(STDOUT_FILENO, (const char *)t->w->start, t->complete);
                if (t->torn)
                    put_fd(STDOUT_FILENO, "\n", 1);
            }
            static const char head[] = "avrogen: error: ";
            static const char tail[] = ": the file was truncated while being read (at offset ";
            char num[24];
            size_t n = put_decimal(num, (uint64_t)(at - m->start));
            num[n++] = ')';
            num[n++] = '\n';
            put_stderr(head, sizeof head - 1);
            put_stderr(m->name, m->name_len);
            put_stderr(tail, sizeof tail - 1);
            put_stderr(num, n);
            outfile_temp_remove();
            _exit(EXIT_BAD_INPUT);
        }
    }
    /* Not ours: returning runs the faulting access again, now under the default
     * action; a SIGBUS sent by kill has no access to rerun. */
    signal(sig, SIG_DFL);
    if (info->si_code <= 0)
        raise(sig);
}

/* Remember r's mapping, if it has one, under `path`, and catch SIGBUS from now on. */
static void watch_mapping(const avrogen_ocf_reader *r, const char *path)
{
    avrogen_bytes range;
    if (!avrogen_ocf_reader_mapped(r, &range))
        return;
    static bool installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        installed = sigaction(SIGBUS, &sa, NULL) == 0;
    }
    struct mapped_input *m = &mapped_inputs[mapped_count % MAPPED_SLOTS];
    m->start = (uintptr_t)range.ptr;
    m->len = range.len;
    m->name_len = strlen(path);
    if (m->name_len > sizeof m->name)
        m->name_len = sizeof m->name;
    memcpy(m->name, path, m->name_len);
    mapped_count++;
}

bool cli_input_truncated(void)
{
    for (size_t k = 0; k < mapped_count && k < MAPPED_SLOTS; k++) {
        const struct mapped_input *m = &mapped_inputs[(mapped_count - 1 - k) % MAPPED_SLOTS];
        char name[sizeof m->name + 1];
        memcpy(name, m->name, m->name_len);
        name[m->name_len] = '\0';
        struct stat st;
        if (stat(name, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size < m->len) {
            cli_error("%s: the file was truncated while being read (%jd bytes now, %zu when "
                      "opened)",
                      name, (intmax_t)st.st_size, m->len);
            return true;
        }
    }
    return false;
}
