/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of the generator module (generator.h): find
 * avrogen-generator.so, dlopen() it (and with it libclang) and run a verb
 * that parses C in it. Only schema, generate and header come here, so no
 * other verb maps libclang. A module or libclang that does not load is one
 * error line naming the verb, the module's path and the loader's reason.
 *
 * The module is looked for where modules.h says.
 */
#include <stdio.h>
#include <string.h>

#include <dlfcn.h>
#include <unistd.h>

#include "cli.h"
#include "generator.h"
#include "modules.h"

#define MODULE_FILE "avrogen-generator.so"

int cli_run_generator(int argc, char **argv)
{
    const char *verb = argv[0];
    char paths[2][4096];
    int n = cli_module_paths(MODULE_FILE, paths);
    const char *path = NULL;
    for (int i = 0; i < n && path == NULL; i++)
        if (access(paths[i], F_OK) == 0)
            path = paths[i];
    if (path == NULL) {
        cli_error("%s needs the generator module (libclang), which is not installed: no %s%s%s",
                  verb, n > 0 ? paths[0] : MODULE_FILE, n > 1 ? " nor " : "",
                  n > 1 ? paths[1] : "");
        return EXIT_USAGE;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        cli_error("%s needs libclang: %s did not load: %s", verb, path, dlerror());
        return EXIT_USAGE;
    }
    /* Never dlclose()d: the process ends with the verb. */
    const avrogen_generator *g = dlsym(h, AVROGEN_GENERATOR_SYMBOL);
    if (g == NULL) {
        cli_error("%s needs the generator module: %s is not one: %s", verb, path, dlerror());
        return EXIT_USAGE;
    }
    if (strcmp(g->version, AVROGEN_VERSION) != 0) {
        cli_error("%s needs the generator module of avrogen %s: %s is that of avrogen %s", verb,
                  AVROGEN_VERSION, path, g->version);
        return EXIT_USAGE;
    }
    return g->run(argc, argv);
}
