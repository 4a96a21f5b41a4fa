/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of the generator module (generator.h): find
 * avrogen-generator.so, dlopen() it (and with it libclang) and run a verb
 * that parses C in it. Only schema, generate and header come here, so no
 * other verb maps libclang. A module or libclang that does not load is one
 * error line naming the verb, the module's path and the loader's reason.
 *
 * The module is looked for and loaded by module_load.c (modules.h).
 */
#include "cli.h"
#include "generator.h"
#include "modules.h"

#define MODULE_FILE "avrogen-generator.so"

int cli_run_generator(int argc, char **argv)
{
    static const cli_module m = {MODULE_FILE, AVROGEN_GENERATOR_SYMBOL, "generator", "libclang"};
    return cli_run_module(&m, argc, argv);
}
