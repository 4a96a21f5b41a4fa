/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's modules: shared objects it dlopen()s for the few verbs that
 * need a heavy library, so that no other verb pays that library's start-up.
 * avrogen-generator.so (libclang: schema, generate, header; generator.h) and
 * avrogen-registry.so (libcurl: registry; registry_verbs.h). This header
 * only says where they are looked for (module_load.c).
 */
#ifndef AVROGEN_CLI_MODULES_H
#define AVROGEN_CLI_MODULES_H

/*
 * The places module `file` may be, beside the executable first (a build tree
 * finds its own modules even when a package is installed at the prefix it
 * was configured with), into out[0..1]; returns how many (1 or 2).
 */
int cli_module_paths(const char *file, char (*out)[4096]);

/* What a module exports under its one symbol (generator.h, registry_verbs.h). */
typedef struct cli_module_entry {
    const char *version; /* AVROGEN_VERSION the module was built as: the binary's own, or
                            the module is refused */
    /* Runs the verb argv[0] with its arguments, as a cli.h subcommand does, and
     * returns the process exit status. */
    int (*run)(int argc, char **argv);
} cli_module_entry;

/* A module as the binary finds and names it. */
typedef struct cli_module {
    const char *file;   /* "avrogen-generator.so" */
    const char *symbol; /* its entry, a const cli_module_entry */
    const char *kind;   /* "generator", in messages */
    const char *lib;    /* the library it brings, "libclang", in messages */
} cli_module;

/*
 * Find module `m`, dlopen() it, check its version and run argv[0] in it. A
 * module that is missing, does not load, is not one or is another version's
 * is one "avrogen: error:" line naming the verb, the path and the reason, and
 * exit status 2.
 */
int cli_run_module(const cli_module *m, int argc, char **argv);

#endif /* AVROGEN_CLI_MODULES_H */
