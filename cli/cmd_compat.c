/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen compat --reader R --writer W [--mode backward|forward|full]: can R
 * read what W wrote (backward, the default), W read what R wrote (forward),
 * or both (full)? Prints "compatible", or one line per incompatibility,
 * "[DIRECTION: ]READER_PATH: KIND: MESSAGE" with READER_PATH a JSON pointer
 * into the schema doing the reading (W's in forward mode) and DIRECTION
 * ("backward" or "forward") given in forward and full mode, then exits 1
 * after an "avrogen: error:" summary. The checking is avrogen_compat_check's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/compat.h"
#include "avrogen/schema.h"

#include "cli.h"

/* Print the incompatibilities of `reader` reading `writer`; their count, or -1 after an error. */
static long print_direction(const avrogen_schema *reader, const avrogen_schema *writer,
                            const char *prefix)
{
    avrogen_compat_report *rep;
    avrogen_status st = avrogen_compat_check(avrogen_schema_root(reader),
                                             avrogen_schema_root(writer), NULL, &rep);
    if (st != AVROGEN_OK) {
        if (st == AVROGEN_E_LIMIT)
            cli_error("compat: the schemas nest named types too deeply to compare");
        else
            cli_error("compat: %s", avrogen_status_str(st));
        return -1;
    }
    size_t n = avrogen_compat_count(rep);
    for (size_t i = 0; i < n; i++) {
        const avrogen_incompatibility *x = avrogen_compat_at(rep, i);
        printf("%s%s: %s: %s\n", prefix, x->reader_path, avrogen_incompat_name(x->kind),
               x->message);
    }
    avrogen_compat_free(rep);
    return (long)n;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]: the value, or NULL if argv[*i] is not it. */
static const char *option(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int cmd_compat(int argc, char **argv)
{
    const char *usage =
            "usage: avrogen compat --reader R --writer W [--mode backward|forward|full]";
    const char *rarg = NULL, *warg = NULL, *mode = "backward";
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = option(argc, argv, &i, "--reader", &missing)) != NULL)
            rarg = v;
        else if ((v = option(argc, argv, &i, "--writer", &missing)) != NULL)
            warg = v;
        else if ((v = option(argc, argv, &i, "--mode", &missing)) != NULL)
            mode = v;
        else if (missing)
            return cli_usage("compat: %s needs a value", argv[i]);
        else
            return cli_usage("compat: unexpected argument '%s'", argv[i]);
    }
    if (rarg == NULL || warg == NULL)
        return cli_usage("%s", usage);
    bool backward = strcmp(mode, "backward") == 0 || strcmp(mode, "full") == 0;
    bool forward = strcmp(mode, "forward") == 0 || strcmp(mode, "full") == 0;
    if (!backward && !forward)
        return cli_usage("compat: unknown --mode '%s' (backward, forward or full)", mode);
    if (strcmp(rarg, "-") == 0 && strcmp(warg, "-") == 0)
        return cli_usage("compat: only one of --reader and --writer can be '-' (stdin)");

    avrogen_schema *r, *w;
    int rc = cli_load_schema(rarg, &r);
    if (rc != 0)
        return rc;
    rc = cli_load_schema(warg, &w);
    if (rc != 0) {
        avrogen_schema_free(r);
        return rc;
    }
    long nb = 0, nf = 0;
    if (backward)
        nb = print_direction(r, w, forward ? "backward: " : "");
    if (forward && nb >= 0)
        nf = print_direction(w, r, "forward: ");
    avrogen_schema_free(w);
    avrogen_schema_free(r);
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_stdout_error();
    if (nb < 0 || nf < 0)
        return EXIT_BAD_INPUT;
    if (nb == 0 && nf == 0) {
        puts("compatible");
        return fflush(stdout) == 0 ? 0 : cli_stdout_error();
    }
    const char *prefix = backward && forward ? "not fully compatible: " : "";
    if (nb != 0 && nf != 0)
        return cli_error("%sthe --reader schema cannot read data written with the --writer schema "
                         "(%ld incompatibilit%s), nor the other way round (%ld)",
                         prefix, nb, nb == 1 ? "y" : "ies", nf);
    if (nb != 0)
        return cli_error("%sthe --reader schema cannot read data written with the --writer schema "
                         "(%ld incompatibilit%s)",
                         prefix, nb, nb == 1 ? "y" : "ies");
    return cli_error("%sthe --writer schema cannot read data written with the --reader schema "
                     "(%ld incompatibilit%s)",
                     prefix, nf, nf == 1 ? "y" : "ies");
}
