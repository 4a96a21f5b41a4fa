/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of the generator module (generator.h): find
 * avrogen-generator.so, dlopen() it (and with it libclang) and run a verb
 * that parses C in it. Only schema, generate and header come here, so no
 * other verb maps libclang. A module or libclang that does not load is one
 * error line naming the verb, the module's path and the loader's reason.
 *
 * The module is looked for relative to the running executable: beside it,
 * where the build tree has it, then where `cmake --install` puts it
 * (<bindir>/AVROGEN_GENERATOR_RELPATH, which moves with a relocated prefix).
 * Without /proc/self/exe (exe_dir.h), the configured install path is used.
 */
#include <stdio.h>
#include <string.h>

#include <dlfcn.h>
#include <unistd.h>

#include "cli.h"
#include "exe_dir.h"
#include "generator.h"

#define MODULE_FILE "avrogen-generator.so"

/* Up to two places the module may be, beside the executable first (a build
 * tree: its binary finds its own module even when a package is installed at
 * the prefix it was configured with); returns how many. */
static int candidates(char (*out)[4096])
{
    char exe[4096];
    if (!exe_dir(exe, sizeof exe)) {
        snprintf(out[0], sizeof out[0], "%s", AVROGEN_GENERATOR_INSTALLED);
        return 1;
    }
    int k = 0;
    if (snprintf(out[k], sizeof out[k], "%s/" MODULE_FILE, exe) < (int)sizeof out[k])
        k++;
    /* The kernel's path has no symbolic links and no "..": the relative path's
     * leading "../" can go lexically, for a plain path in messages. */
    const char *rel = AVROGEN_GENERATOR_RELPATH;
    char *slash;
    while (strncmp(rel, "../", 3) == 0 && (slash = strrchr(exe, '/')) != NULL && slash != exe) {
        *slash = '\0';
        rel += 3;
    }
    if (snprintf(out[k], sizeof out[k], "%s/%s", exe, rel) < (int)sizeof out[k])
        k++;
    return k;
}

int cli_run_generator(int argc, char **argv)
{
    const char *verb = argv[0];
    char paths[2][4096];
    int n = candidates(paths);
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
