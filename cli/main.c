/* SPDX-License-Identifier: Apache-2.0 */
/* avrogen: argv dispatch to the subcommands (commands.c's table), and help. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "generator.h"

static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* The command closest to `name` when one is close enough to be a typo, else NULL. */
static const char *closest_command(const char *name)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX, d;
    for (size_t i = 0; i < cli_n_commands; i++)
        if (cli_is_close(name, cli_commands[i].name, &d) && d < best_d) {
            best = cli_commands[i].name;
            best_d = d;
        }
    return best;
}

static int unknown_command(const char *what, const char *name)
{
    const char *best = closest_command(name);
    if (best != NULL)
        return cli_usage("%sunknown command '%s'; did you mean '%s'?", what, name, best);
    return cli_usage("%sunknown command '%s'", what, name);
}

static bool is_progress(void *ctx, const char *name)
{
    (void)ctx;
    return strcmp(name, "--progress") == 0;
}

/*
 * --progress and --no-progress, for the commands whose options list them,
 * taken out of argv[1..argc) (up to "--") wherever they are; the last wins.
 * Returns the new argc.
 */
static int take_progress(const cli_command *c, int argc, char **argv)
{
    /* The generator module's verbs read them in the module, whose own copy of
     * util.c draws their line. */
    if (!cli_doc_options(c->options, is_progress, NULL) || c->run == cli_run_generator)
        return argc;
    int kept = 1, i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--progress") == 0)
            cli_set_progress(CLI_PROGRESS_ALWAYS);
        else if (strcmp(argv[i], "--no-progress") == 0)
            cli_set_progress(CLI_PROGRESS_NEVER);
        else
            argv[kept++] = argv[i];
    }
    for (; i < argc; i++)
        argv[kept++] = argv[i];
    argv[kept] = NULL;
    return kept;
}

static bool is_jobs(void *ctx, const char *name)
{
    (void)ctx;
    return strcmp(name, "--jobs") == 0;
}

/*
 * -j N, -jN, --jobs N and --jobs=N, for the commands whose options list them,
 * taken out of argv[1..argc) (up to "--") wherever they are; the last wins.
 * Returns the new argc, or -1 after a usage message.
 */
static int take_jobs(const cli_command *c, int argc, char **argv)
{
    if (!cli_doc_options(c->options, is_jobs, NULL))
        return argc;
    int kept = 1, i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "-j") == 0 || strcmp(argv[i], "--jobs") == 0) {
            if (i + 1 == argc) {
                cli_usage("%s: %s needs a number of threads", c->name, argv[i]);
                return -1;
            }
            v = argv[++i];
        } else if (strncmp(argv[i], "--jobs=", 7) == 0) {
            v = argv[i] + 7;
        } else if (strncmp(argv[i], "-j", 2) == 0) {
            v = argv[i] + 2;
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        uint64_t n = 0;
        if (cli_parse_u64(c->name, "--jobs", "a number of threads", v, &n) != 0)
            return -1;
        if (n == 0 || n > CLI_MAX_JOBS) {
            cli_usage("%s: --jobs takes 1 to %u threads, not '%s'", c->name, CLI_MAX_JOBS, v);
            return -1;
        }
        cli_set_jobs((unsigned)n);
    }
    for (; i < argc; i++)
        argv[kept++] = argv[i];
    argv[kept] = NULL;
    return kept;
}

/* avrogen help [COMMAND | --man] */
static int help(int argc, char **argv)
{
    if (argc == 0) {
        cli_print_usage(stdout);
        return 0;
    }
    if (argc == 1 && strcmp(argv[0], "--man") == 0) {
        cli_print_man(stdout);
        return 0;
    }
    if (argc != 1)
        return cli_usage("help: one COMMAND at most");
    const cli_command *c = cli_find_command(argv[0]);
    if (c == NULL)
        return unknown_command("help: ", argv[0]);
    cli_print_help(stdout, c);
    return 0;
}

/* The verb, or help, --version or an unknown command: everything main() runs. */
static int run(int argc, char **argv)
{
    if (argc < 2) {
        cli_print_usage(stderr);
        return EXIT_USAGE;
    }
    if (is_help(argv[1]) || strcmp(argv[1], "help") == 0)
        return help(argc - 2, argv + 2);
    if (strcmp(argv[1], "--version") == 0) {
        printf("avrogen %s\n", AVROGEN_VERSION);
        return 0;
    }
    const cli_command *c = cli_find_command(argv[1]);
    if (c == NULL)
        return unknown_command("", argv[1]);
    /* --help anywhere among the command's own arguments (clang's come after --). */
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (is_help(argv[i])) {
            cli_print_help(stdout, c);
            return 0;
        }
    }
    cli_set_command(c->name, c->options);
    argc = take_progress(c, argc - 1, argv + 1);
    if ((argc = take_jobs(c, argc, argv + 1)) < 0)
        return EXIT_USAGE;
    return c->run(argc, argv + 1);
}

int main(int argc, char **argv)
{
    cli_json_budget_install();
    cli_signals_init();
    /* Whatever ran, a write error on stdout (a full device, a closed pipe) is
     * exit 1 and one line, never a silent success. */
    return cli_stdout_finish(run(argc, argv));
}
