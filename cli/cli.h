/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Subcommands of the avrogen binary. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the process exit status: 0 success,
 * 1 bad input (after one "avrogen: error: ..." line on stderr), 2 bad usage.
 */
#ifndef AVROGEN_CLI_H
#define AVROGEN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sys/types.h>
#include <time.h>

#include "avrogen/ocf.h"
#include "avrogen/status.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE     2

/* The verbs that parse C live in the generator module with libclang (generator.h); the
 * binary's table runs them through cli_run_generator(). */
/* Generator: cli/module/cmd_schema.c */
int cmd_schema(int argc, char **argv);
int cmd_generate(int argc, char **argv);

/* C structs from a schema, proven by the generator: cli/module/cmd_header.c */
int cmd_header(int argc, char **argv);

/* Data tools: cli/cmd_data.c */
int cmd_canonical(int argc, char **argv);
int cmd_fingerprint(int argc, char **argv);
int cmd_tojson(int argc, char **argv);
int cmd_fromjson(int argc, char **argv);

/* Container files: cli/cmd_ocf.c */
int cmd_cat(int argc, char **argv);
int cmd_head(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_getschema(int argc, char **argv);
int cmd_getmeta(int argc, char **argv);
int cmd_write(int argc, char **argv);

/* Container files block by block: cli/cmd_blocks.c */
int cmd_concat(int argc, char **argv);
int cmd_recodec(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* Random data for a schema: cli/cmd_random.c */
int cmd_random(int argc, char **argv);

/* Schema compatibility: cli/cmd_compat.c */
int cmd_compat(int argc, char **argv);

/* ---- the command table: cli/commands.c ---- */

/* One option of a subcommand, as its help shows it. */
typedef struct cli_option_doc {
    const char *spelling; /* "--limit N", "-o, --output DIR" */
    const char *text;     /* what it does, one sentence, no final period */
} cli_option_doc;

/* A subcommand: its entry point and its documentation (--help, the man page). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;          /* the arguments after "avrogen NAME" */
    const char *summary;           /* a few words, for the command list */
    const char *description;       /* paragraphs separated by blank lines */
    const cli_option_doc *options; /* ends with a NULL spelling */
    const char *example;           /* command lines, one per line */
} cli_command;

extern const cli_command cli_commands[];
extern const size_t cli_n_commands;

/* The command called `name`, or NULL. */
const cli_command *cli_find_command(const char *name);
/* `avrogen --help`: the command list. */
void cli_print_usage(FILE *out);
/* `avrogen help CMD`, `avrogen CMD --help`: usage, description, options, example. */
void cli_print_help(FILE *out, const cli_command *c);
/* The man page avrogen(1) in troff (man macros), from the same table. */
void cli_print_man(FILE *out);

/* Load a schema named on the command line (file, "-", or JSON text); 0 or an exit status. */
struct avrogen_schema;
int cli_load_schema(const char *arg, struct avrogen_schema **out);

/* Per-datum arena budget of the data commands, and their readers' largest
 * block: far above any sane record, far below what a hostile count of
 * zero-byte items could ask for. */
#define CLI_ARENA_BUDGET ((size_t)256 << 20)

/*
 * The most JSON text one datum may print (cat, head, tojson): twice the per-datum budget.
 * A 64 MiB bytes value prints as 270 MB; values that take no bytes (empty records of empty
 * records) could print gigabytes from a few bytes of input before the item budget ends them.
 */
#define CLI_DATUM_TEXT_MAX ((uint64_t)2 * CLI_ARENA_BUDGET)

/* cli/util.c */
/* Print "avrogen: error: <fmt>" and a newline to stderr; returns EXIT_BAD_INPUT. */
int cli_error(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Print "avrogen: error: <fmt>" plus a usage hint; returns EXIT_USAGE. */
int cli_usage(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Name the subcommand being run, for cli_usage's hint, and its options (NULL: unknown), for
 * cli_unknown_option's suggestion. */
void cli_set_command(const char *name, const cli_option_doc *options);
/*
 * Edit distance (Damerau-Levenshtein, adjacent transpositions counting one)
 * between a and b, and whether `candidate` is close enough to `word` to be
 * offered as what was meant: at most a third of its length away.
 */
size_t cli_edit_distance(const char *a, const char *b);
bool cli_is_close(const char *word, const char *candidate, size_t *distance);
/* The usage error for option `arg` that cmd does not take, naming the closest option it
 * takes (from the table's option docs) when one is close: EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *arg);
/* Call fn with each option name in an option doc's spelling ("-o, --output DIR": "-o",
 * "--output"); true when fn returns true for one, which stops the walk. */
bool cli_doc_options(const cli_option_doc *docs, bool (*fn)(void *ctx, const char *name),
                     void *ctx);
/*
 * Read all of `path` ("-" is stdin) into a malloc'd buffer, NUL-terminated,
 * reading no more than max + 1 bytes: a longer input is NULL with errno
 * EFBIG. A path naming anything but a regular file or a pipe (a device such
 * as /dev/zero, a directory) is not read: NULL with errno ENODEV. Other
 * failures leave fopen's or fread's errno.
 */
char *cli_slurp(const char *path, size_t max, size_t *len);
/* cli_slurp's failure `err` (not EFBIG) as one error line, EXIT_BAD_INPUT: "PATH: WHAT is read
 * from a regular file or a pipe ..., and this is a character device", or strerror's text. */
int cli_slurp_error(const char *path, const char *what, int err);
/* "a regular file", "a pipe", "a character device", ... for a stat mode. */
const char *cli_file_kind(mode_t mode);

/*
 * The longest schema text (and response file) the CLI reads: a container
 * file's header holds its schema, and readers take headers of this size by
 * default (avrogen_ocf_reader_options.max_header_size).
 */
#define CLI_TEXT_MAX AVROGEN_OCF_DEFAULT_MAX_HEADER

/*
 * The text of a SCHEMA argument: the file it names ("-": standard input) or,
 * when no file of that name exists (ENOENT, ENAMETOOLONG) and it starts with
 * '{', '[' or '"', the argument itself. Every verb taking a schema reads it
 * here. 0 with *text (malloc'd, NUL-terminated), *len and *label (`arg`, or
 * "<argument>" for JSON text), or EXIT_BAD_INPUT after one error line: a file
 * that cannot be read, or one longer than CLI_TEXT_MAX (no more of it is read).
 */
int cli_schema_text(const char *arg, char **text, size_t *len, const char **label);

/* ---- container files: cli/util.c ---- */

struct avrogen_ocf_reader;
struct avrogen_writer;
/*
 * Text on its way to standard output while mapped inputs are read (cat, head), for the
 * SIGBUS handler of a file truncated under the reader: `w` holds `complete` bytes of whole
 * records first (then part of the record being read), and `torn` says part of that record
 * has gone out already. The handler writes the complete bytes, ends a torn line, then
 * says which input was cut: the output ends with whole lines. Only for text written with
 * write(2) on STDOUT_FILENO (stdio's buffer is out of a handler's reach). NULL: none.
 */
typedef struct cli_pending_text {
    const struct avrogen_writer *w;
    volatile size_t complete;
    volatile bool torn;
} cli_pending_text;
void cli_watch_text(cli_pending_text *t);
/*
 * When an output fails (a write from a mapped input's pages fails with EFAULT, not
 * SIGBUS, once the input is cut): true after "avrogen: error: IN: the file was truncated
 * while being read (N bytes now, M when opened)" if a mapped input is now shorter than
 * when it was opened; false, and nothing said, otherwise.
 */
bool cli_input_truncated(void);
/* Open container file `path` ("-": stdin); 0, or EXIT_BAD_INPUT after "PATH: why". */
int cli_open_reader(const char *path, struct avrogen_ocf_reader **r);
/* r's sticky error as one "PATH: message" line (EXIT_BAD_INPUT), or 0 when it has none. */
int cli_reader_error(struct avrogen_ocf_reader *r, const char *path);

/* ---- options: cli/util.c ---- */

/* One option a subcommand takes. */
typedef struct cli_opt {
    const char *name;   /* "--limit" */
    const char *alias;  /* "-n", or NULL */
    const char **value; /* where its argument goes; NULL for a flag */
    bool *flag;         /* set for a flag */
} cli_opt;

/*
 * Sort argv[1..argc) (argv[0] is the subcommand) into the options in `opts`
 * (ended by a NULL name: "--name VALUE", "--name=VALUE", "ALIAS VALUE", flags;
 * a repeated option keeps its last value) and operands, which go to
 * operands[] (room for `max`) in order; "-" is an operand, "--" ends the
 * options. Returns 0, or EXIT_USAGE after a usage line (an unknown option, a
 * missing value, more than `max` operands).
 */
int cli_parse_args(int argc, char **argv, const cli_opt *opts, char **operands, int max,
                   int *n_operands);

/*
 * A whole number for option `opt` (as spelled on the command line: cli_spelled);
 * 0, or EXIT_USAGE after "CMD: OPT needs WHAT, not 'TEXT'" (WHAT: "a number of
 * records", "a whole number", ...).
 */
int cli_parse_u64(const char *cmd, const char *opt, const char *what, const char *text,
                  uint64_t *out);
/* How the option whose value went to `slot` was spelled in the last cli_parse_args
 * ("-n" or "--limit"), or `name` when it was not given. */
const char *cli_spelled(const char **slot, const char *name);

/*
 * --max-depth N of the commands that read binary datums: how deep records that
 * contain themselves may nest (AVROGEN_DEFAULT_MAX_DEPTH unless set), for every
 * reader the command sets up (cli_open_reader's included) and the writers that
 * print what they read. At most CLI_MAX_DEPTH: the generic coders recurse, and
 * that many levels stay well within a default 8 MiB stack. 0, or EXIT_USAGE.
 */
#define CLI_MAX_DEPTH 10000u
int cli_parse_max_depth(const char *cmd, const char *text);
unsigned cli_max_depth(void);

/*
 * The threads that compress and decompress container blocks (-j/--jobs, taken
 * out of argv by main.c): the `threads` of every reader cli_open_reader opens
 * and every writer the commands open. Default: every online core
 * (sysconf(_SC_NPROCESSORS_ONLN)); at most CLI_MAX_JOBS.
 */
#define CLI_MAX_JOBS 1024u
void cli_set_jobs(unsigned n);
unsigned cli_jobs(void);

/*
 * True when every datum of n encodes to zero bytes: null, fixed(0), and
 * records of those (spec §Binary Encoding). A datum file of such a schema
 * holds exactly one datum, in no bytes.
 */
struct avrogen_node;
bool cli_datum_is_empty(const struct avrogen_node *n);

/* splitmix64: a fixed, portable sequence for --seed, so that runs can be repeated. */
uint64_t cli_splitmix64(uint64_t *state);

/* At most one operand may be "-" (stdin): 0, or EXIT_USAGE after a usage line. */
int cli_one_stdin(const char *cmd, char **operands, int n);

/*
 * Valid JSON text indented as Python's json.dumps(indent=2) prints it (two
 * spaces a level, "key": value, {} and [] when empty), every line after the
 * first starting with `margin` more spaces; strings and numbers as they are.
 * No final newline.
 */
void cli_print_json_indented(FILE *out, const char *text, size_t len, size_t margin);

/* ---- the options of the module verbs: cli/module_options.c ---- */

/* The long commands' --progress (cli_progress, cli/util.c; main.c takes it out of argv,
 * the generator module's verbs read it themselves). */
#define PROGRESS_DOC                                                                            \
    {                                                                                           \
        "--progress, --no-progress", "show progress on standard error (records, bytes read of " \
                                     "the total, rates, time taken and "                        \
                                     "left), always or never; by default it is shown when "     \
                                     "standard error is a terminal and the "                    \
                                     "records do not go to one"                                 \
    }

extern const cli_option_doc cli_schema_options[];
extern const cli_option_doc cli_generate_options[];
extern const cli_option_doc cli_header_options[];
extern const cli_option_doc cli_registry_options[];

/* ---- progress on standard error: cli/util.c ---- */

/*
 * The long verbs (cat, head, count, tojson, fromjson, write, concat, recodec,
 * repair, validate, random) show one line on stderr, rewritten in place
 * ("\r...\033[K") at most four times a second from half a second in and
 * cleared at the end or before any other stderr line: records, input bytes
 * (of the total, with the percentage and the time left, when every input is a
 * regular file), the rates and the time taken. By default only when stderr
 * is a terminal and the verb's output does not go to one; main() sets
 * --progress (always) and --no-progress (never) before the verb runs.
 */
enum cli_progress_mode { CLI_PROGRESS_AUTO, CLI_PROGRESS_ALWAYS, CLI_PROGRESS_NEVER };
void cli_set_progress(enum cli_progress_mode mode);

typedef struct cli_progress {
    bool on;
    const char *verb;      /* "printed", "copied", ... */
    uint32_t calls, every; /* ticks since the clock was read; ticks between two readings */
    uint64_t records;
    uint64_t total_records;           /* known in advance (random --count), else 0 */
    uint64_t total_bytes;             /* the inputs' sizes, when all are regular files */
    bool bytes_known;                 /* every input so far has a size */
    bool has_input;                   /* some input was named (cli_progress_input) */
    uint64_t bytes_done;              /* bytes of the inputs finished */
    uint64_t (*pos)(const void *ctx); /* bytes read of the current input */
    const void *pos_ctx;
    double start, last_check, next_draw; /* CLOCK_MONOTONIC seconds */
} cli_progress;

/* Start counting; `to_stdout`: the verb writes its data to stdout (then a terminal there
 * turns the automatic progress off, as the line would land among the data). */
void cli_progress_init(cli_progress *p, const char *verb, bool to_stdout);
/* An input named on the command line ("-": standard input, size unknown). */
void cli_progress_input(cli_progress *p, const char *path);
/* Where the bytes read of the current input come from (NULL: that input is done). */
void cli_progress_source(cli_progress *p, uint64_t (*pos)(const void *ctx), const void *ctx);
/* Bytes read of a container file (a source for cli_progress_source). */
uint64_t cli_reader_position(const void *reader);
/* Bytes used of a window (tojson's datums, fromjson's and write's lines). */
uint64_t cli_window_position(const void *window);
void cli_progress_check(cli_progress *p, uint64_t records);
/* `records` done so far: cheap enough to call per record (the clock is read every so many). */
static inline void cli_progress_tick(cli_progress *p, uint64_t records)
{
    if (p->on && ++p->calls >= p->every)
        cli_progress_check(p, records);
}
/* Clear the progress line, if any (before other output on stderr; at the end). */
void cli_progress_done(cli_progress *p);
/* A verb made of a few long steps (schema, generate): `text` says which one
 * starts now; the line shows it with the time taken so far, at once. */
void cli_progress_step(cli_progress *p, const char *text);

/* ---- standard output: cli/util.c ---- */

/* At start-up: the fatal signals remove the temporary output file, and a
 * write to a pipe nobody reads fails with EPIPE rather than ending the
 * process silently (gen/outfile.h). */
void cli_signals_init(void);
/* "avrogen: error: write error on standard output: <errno text>" (once per
 * process); EXIT_BAD_INPUT. */
int cli_stdout_error(void);
/* After a verb: flush stdout; a write error on it turns a success (rc 0) into
 * cli_stdout_error(); a failure keeps its own rc and message. */
int cli_stdout_finish(int rc);

/* ---- output files: cli/util.c ---- */

/*
 * An output file written as PATH.tmp-XXXXXX beside PATH and renamed over it
 * at the end, so that a failed or interrupted run leaves any existing PATH as
 * it was and no partial file: the temporary file is removed on error and on
 * every signal whose default action ends the process (then the signal takes
 * its course). The file gets the mode of the PATH it replaces, else 0666 less
 * the umask, as a file made with open(2) would. PATH "-" is standard output,
 * written as is. A symbolic link is followed (the file it ends at is
 * replaced, the link stays); a FIFO or a character device is written as it
 * is; a directory, a socket or a block device is refused (gen/outfile.h,
 * DESIGN.md "Output files").
 */
typedef struct cli_out {
    const char *path;
    char *tmp;    /* the temporary file while one is open */
    char *target; /* what tmp replaces: path, or where its symbolic links end */
    FILE *f;      /* where to write */
    bool stream;  /* f is a FIFO or a character device opened as it is */
} cli_out;

/* 0, or EXIT_BAD_INPUT after an error line. */
int cli_out_open(cli_out *o, const char *path);
/* Flush, fsync and rename into place; 0, or EXIT_BAD_INPUT (the file removed). */
int cli_out_commit(cli_out *o);
/* Close and remove the temporary file (no-op for stdout or after commit). */
void cli_out_abort(cli_out *o);

/*
 * A window on an input stream, holding the item being parsed: buf[pos..len)
 * is read and not yet used, buf[0] is at input offset base. It grows
 * (doubling) only while one item fills it, and never past `max` bytes, so
 * memory is bounded by the largest item, not by the input: tojson's datums,
 * fromjson's and write's lines.
 */
struct cli_window {
    FILE *in;
    char *buf;
    size_t cap, len, pos;
    size_t max;    /* the most the window grows to */
    uint64_t base; /* input offset of buf[0] */
    bool eof;
};

/*
 * Make `want` bytes (at most w->max) unread in w, or all the input has left:
 * the unread bytes move to the front, the window grows to twice its size or
 * `want` (at most max), and what fits is read. 0; -1 out of memory (the
 * unread bytes kept); or a read error's errno. Free w->buf when done.
 */
int cli_window_fill(struct cli_window *w, size_t want);

/* JSON lines read one value at a time (fromjson, write). */
struct avrogen_node;
struct avrogen_value;
struct avrogen_arena;
struct cli_jsonl {
    struct cli_window w; /* lines of w.in; w.buf[w.pos..w.len) not yet parsed */
    const char *name;    /* for messages: "FILE:LINE: ..." */
    uint64_t start;      /* input offset of the last line returned */
    size_t lineno;
};

/* Read JSON lines from `in`, named `name` in messages; cli_jsonl_fini frees the window. */
void cli_jsonl_init(struct cli_jsonl *j, FILE *in, const char *name);
void cli_jsonl_fini(struct cli_jsonl *j);

/*
 * The next non-blank line of j's input as a value of `type` (the arena is reset
 * first). Lines are read through a window, never more than CLI_ARENA_BUDGET
 * bytes of one, and jansson's tree of a line may take as much again
 * (cli_json_budget_install). Returns 1 with *v set, 0 at the end of the
 * input, or -1 after one "avrogen: error: FILE:LINE[:COL]: ..." line (bad
 * JSON, a value that does not match the schema, a read error, a line or its
 * parse past the budget: those name the byte the line starts at).
 */
int cli_jsonl_next(struct cli_jsonl *j, const struct avrogen_node *type, struct avrogen_value *v,
                   struct avrogen_arena *a);

/* Count jansson's allocations, so that cli_jsonl_next can bound them: call
 * first thing in main, before anything uses jansson. */
void cli_json_budget_install(void);

#endif /* AVROGEN_CLI_H */
