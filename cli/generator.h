/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The generator module: the verbs that parse C (schema, generate, header) and
 * everything under them, libclang included, built as a shared object of its
 * own (avrogen-generator.so) that the avrogen binary dlopen()s only when one
 * of those verbs runs. Every other verb starts without libclang (about 45 ms
 * and 55 MB of start-up that a shell loop of `avrogen count` would pay per
 * file). This header is the whole contract between the two sides; the
 * module's code never calls back into the binary.
 */
#ifndef AVROGEN_GENERATOR_H
#define AVROGEN_GENERATOR_H

#include "modules.h" /* cli_module_entry */

/* The module's one exported symbol, a `const avrogen_generator`. */
#define AVROGEN_GENERATOR_SYMBOL "avrogen_generator_entry"

/* version, and run: the verb argv[0] ("schema", "generate" or "header"). */
typedef cli_module_entry avrogen_generator;

/* The module's side (cli/module/generator_module.c). */
extern const avrogen_generator avrogen_generator_entry;

/* The binary's side (cli/generator_load.c): load the module and run argv[0] in it;
 * exit status 2 after one "avrogen: error:" line when the module or libclang does not load. */
int cli_run_generator(int argc, char **argv);

#endif /* AVROGEN_GENERATOR_H */
