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

#endif /* AVROGEN_CLI_MODULES_H */
