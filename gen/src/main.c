/* SPDX-License-Identifier: Apache-2.0 */
/* avrogen: argv dispatch to the subcommands. Nothing else lives here. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;
} commands[] = {
        {"schema", cmd_schema, "HEADER... [-o DIR] [--compat-with F] [-- CLANG_ARGS]"},
        {"generate", cmd_generate,
         "HEADER... -o DIR [--depfile F] [--compat-with F [--compat M]] [-- CLANG_ARGS]"},
        {"canonical", cmd_canonical, "SCHEMA"},
        {"fingerprint", cmd_fingerprint, "SCHEMA [--algo crc64|md5|sha256]"},
        {"tojson", cmd_tojson, "--schema S [--writer-schema W] [FILE|-]"},
        {"fromjson", cmd_fromjson, "--schema S [FILE|-]"},
        {"cat", cmd_cat, "FILE.avro [--schema S]"},
        {"getschema", cmd_getschema, "FILE.avro"},
        {"write", cmd_write, "--schema S [--codec C] IN.jsonl OUT.avro"},
        {"compat", cmd_compat, "--reader R --writer W [--mode backward|forward|full]"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: avrogen <command> [args]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  avrogen %-11s %s\n", commands[i].name, commands[i].synopsis);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("avrogen %s\n", AVROGEN_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "avrogen: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
