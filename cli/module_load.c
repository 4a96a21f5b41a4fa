/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the binary looks for the modules it dlopen()s for a few verbs (the
 * generator, generator.h; the registry client, registry_verbs.h): relative
 * to the running executable, beside it, where the build tree has them, then
 * where `cmake --install` puts them (<bindir>/AVROGEN_MODULE_RELDIR, which
 * moves with a relocated prefix). Without /proc/self/exe (exe_dir.h), the
 * configured install folder is used. It loads nothing itself.
 */
#include <stdio.h>
#include <string.h>

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
