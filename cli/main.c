/* SPDX-License-Identifier: Apache-2.0 */
/* avrogen: argv dispatch to the subcommands (commands.c's table), and help. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
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
        return fflush(stdout) == 0 ? 0 : EXIT_BAD_INPUT;
    }
    const cli_command *c = argc == 1 ? cli_find_command(argv[0]) : NULL;
    if (c == NULL)
        return cli_usage("help: %s", argc == 1 ? "no such command" : "one COMMAND at most");
    cli_print_help(stdout, c);
    return 0;
}

int main(int argc, char **argv)
{
    cli_json_budget_install();
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
    if (c == NULL) {
        fprintf(stderr, "avrogen: unknown command '%s'\n", argv[1]);
        cli_print_usage(stderr);
        return EXIT_USAGE;
    }
    /* --help anywhere among the command's own arguments (clang's come after --). */
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (is_help(argv[i])) {
            cli_print_help(stdout, c);
            return 0;
        }
    }
    cli_set_command(c->name);
    return c->run(argc - 1, argv + 1);
}
