/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of the registry module (registry_verbs.h): find
 * avrogen-registry.so where modules.h says, dlopen() it (and with it
 * libcurl) and run `registry` in it. No other verb comes here, so no other
 * verb maps libcurl. A module that is missing or does not load is one error
 * line naming the module's path and the loader's reason, exit 2.
 */
#include <stdio.h>
#include <string.h>

#include <dlfcn.h>
#include <unistd.h>

#include "cli.h"
#include "modules.h"
#include "registry_verbs.h"

#define MODULE_FILE "avrogen-registry.so"

int cli_run_registry(int argc, char **argv)
{
    const char *verb = argv[0];
    char paths[2][4096];
    int n = cli_module_paths(MODULE_FILE, paths);
    const char *path = NULL;
    for (int i = 0; i < n && path == NULL; i++)
        if (access(paths[i], F_OK) == 0)
            path = paths[i];
    if (path == NULL) {
        cli_error("%s needs the registry module (libcurl), which is not installed: no %s%s%s", verb,
                  n > 0 ? paths[0] : MODULE_FILE, n > 1 ? " nor " : "", n > 1 ? paths[1] : "");
        return EXIT_USAGE;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        cli_error("%s needs libcurl: %s did not load: %s", verb, path, dlerror());
        return EXIT_USAGE;
    }
    /* Never dlclose()d: the process ends with the verb. */
    const avrogen_registry_verbs *m = dlsym(h, AVROGEN_REGISTRY_VERBS_SYMBOL);
    if (m == NULL) {
        cli_error("%s needs the registry module: %s is not one: %s", verb, path, dlerror());
        return EXIT_USAGE;
    }
    if (strcmp(m->version, AVROGEN_VERSION) != 0) {
        cli_error("%s needs the registry module of avrogen %s: %s is that of avrogen %s", verb,
                  AVROGEN_VERSION, path, m->version);
        return EXIT_USAGE;
    }
    return m->run(argc, argv);
}
