/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Subcommands of the avrogen binary. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the process exit status: 0 success,
 * 1 bad input (after one "avrogen: error: ..." line on stderr), 2 bad usage.
 */
#ifndef AVROGEN_CLI_H
#define AVROGEN_CLI_H

#include <stdio.h>

#include "avrogen/status.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE     2

/* Generator: gen/src/cmd_schema.c */
int cmd_schema(int argc, char **argv);
int cmd_generate(int argc, char **argv);

/* Data tools: gen/src/cmd_data.c */
int cmd_canonical(int argc, char **argv);
int cmd_fingerprint(int argc, char **argv);
int cmd_tojson(int argc, char **argv);
int cmd_fromjson(int argc, char **argv);

/* Container files: gen/src/cmd_ocf.c */
int cmd_cat(int argc, char **argv);
int cmd_getschema(int argc, char **argv);
int cmd_write(int argc, char **argv);

/* Load a schema named on the command line (file, "-", or JSON text); 0 or an exit status. */
struct avrogen_schema;
int cli_load_schema(const char *arg, struct avrogen_schema **out);

/* gen/src/util.c */
/* Print "avrogen: error: <fmt>" and a newline to stderr; returns EXIT_BAD_INPUT. */
int cli_error(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Print "avrogen: <fmt>" plus a usage hint; returns EXIT_USAGE. */
int cli_usage(const char *fmt, ...) AVROGEN_PRINTF(1, 2);
/* Read all of `path` ("-" is stdin) into a malloc'd buffer, NUL-terminated. */
char *cli_slurp(const char *path, size_t *len);

#endif /* AVROGEN_CLI_H */
