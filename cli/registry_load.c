/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of the registry module (registry_verbs.h): find
 * avrogen-registry.so through module_load.c (modules.h), dlopen() it (and with it
 * libcurl) and run `registry` in it. No other verb comes here, so no other
 * verb maps libcurl. A module that is missing or does not load is one error
 * line naming the module's path and the loader's reason, exit 2.
 */
#include "cli.h"
#include "modules.h"
#include "registry_verbs.h"

#define MODULE_FILE "avrogen-registry.so"

int cli_run_registry(int argc, char **argv)
{
    static const cli_module m = {MODULE_FILE, AVROGEN_REGISTRY_VERBS_SYMBOL, "registry", "libcurl"};
    return cli_run_module(&m, argc, argv);
}
