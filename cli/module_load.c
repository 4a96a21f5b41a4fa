/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the binary looks for the modules it dlopen()s for a few verbs (the
 * generator, generator.h; the registry client, registry_verbs.h): relative
 * to the running executable, beside it, where the build tree has them, then
 * where `cmake --install` puts them (<bindir>/AVROGEN_MODULE_RELDIR, which
 * moves with a relocated prefix). Without /proc/self/exe (exe_dir.h), the
 * configured install folder is used. cli_run_module loads one and runs a
 * verb in it.
 */
#include <stdio.h>
#include <string.h>

#include <dlfcn.h>
#include <unistd.h>

#include "cli.h"
#include "exe_dir.h"
#include "modules.h"

int cli_module_paths(const char *file, char (*out)[4096])
{
    char exe[4096];
    if (!exe_dir(exe, sizeof exe)) {
        snprintf(out[0], sizeof out[0], "%s/%s", AVROGEN_MODULE_INSTALLED_DIR, file);
        return 1;
    }
    int k = 0;
    if (snprintf(out[k], sizeof out[k], "%s/%s", exe, file) < (int)sizeof out[k])
        k++;
    /* The kernel's path has no symbolic links and no "..": the relative path's
     * leading "../" can go lexically, for a plain path in messages. */
    const char *rel = AVROGEN_MODULE_RELDIR;
    char *slash;
    while (strncmp(rel, "../", 3) == 0 && (slash = strrchr(exe, '/')) != NULL && slash != exe) {
        *slash = '\0';
        rel += 3;
    }
    if (snprintf(out[k], sizeof out[k], "%s/%s/%s", exe, rel, file) < (int)sizeof out[k])
        k++;
    return k;
}

int cli_run_module(const cli_module *m, int argc, char **argv)
{
    const char *verb = argv[0];
    char paths[2][4096];
    int n = cli_module_paths(m->file, paths);
    const char *path = NULL;
    for (int i = 0; i < n && path == NULL; i++)
        if (access(paths[i], F_OK) == 0)
            path = paths[i];
    if (path == NULL) {
        cli_error("%s needs the %s module (%s), which is not installed: no %s%s%s", verb, m->kind,
                  m->lib, n > 0 ? paths[0] : m->file, n > 1 ? " nor " : "", n > 1 ? paths[1] : "");
        return EXIT_USAGE;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        cli_error("%s needs %s: %s did not load: %s", verb, m->lib, path, dlerror());
        return EXIT_USAGE;
    }
    /* Never dlclose()d: the process ends with the verb. */
    const cli_module_entry *e = dlsym(h, m->symbol);
    if (e == NULL) {
        cli_error("%s needs the %s module: %s is not one: %s", verb, m->kind, path, dlerror());
        return EXIT_USAGE;
    }
    if (strcmp(e->version, AVROGEN_VERSION) != 0) {
        cli_error("%s needs the %s module of avrogen %s: %s is that of avrogen %s", verb, m->kind,
                  AVROGEN_VERSION, path, e->version);
        return EXIT_USAGE;
    }
    return e->run(argc, argv);
}
