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

/* cli/util.c */
/* Print "avrogen: error: <fmt>" and a newline to stderr; returns EXIT_BAD_INPUT. */
int cli_error(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Print "avrogen: <fmt>" plus a usage hint; returns EXIT_USAGE. */
int cli_usage(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Name the subcommand being run, for cli_usage's hint. */
void cli_set_command(const char *name);
/*
 * Read all of `path` ("-" is stdin) into a malloc'd buffer, NUL-terminated,
 * reading no more than max + 1 bytes: a longer input is NULL with errno
 * EFBIG (other failures leave fopen's or fread's errno).
 */
char *cli_slurp(const char *path, size_t max, size_t *len);

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

/* A whole number for option `opt`; 0, or EXIT_USAGE after a usage line. */
int cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t *out);

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

/* ---- progress on a terminal: cli/util.c ---- */

/* "avrogen: VERB N UNIT" on stderr, at most once a second, only when stderr is a terminal. */
typedef struct cli_progress {
    bool on;
    bool shown; /* a progress line is on the screen */
    time_t last;
    const char *verb;
} cli_progress;

void cli_progress_init(cli_progress *p, const char *verb);
void cli_progress_tick(cli_progress *p, uint64_t done, const char *unit);
/* Clear the progress line, if any, before other output on stderr. */
void cli_progress_done(cli_progress *p);

/* ---- output files: cli/util.c ---- */

/*
 * An output file written as PATH.tmp-XXXXXX beside PATH and renamed over it
 * at the end, so that a failed or interrupted run leaves any existing PATH as
 * it was and no partial file: the temporary file is removed on error and on
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE (then the signal takes its course). The
 * file gets the mode of the PATH it replaces, else 0666 less the umask, as a
 * file made with open(2) would. PATH "-" is standard output, written as is.
 */
typedef struct cli_out {
    const char *path;
    char *tmp; /* the temporary file while one is open */
    FILE *f;   /* where to write */
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
