/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of registry_verbs.h in a build without the Schema
 * Registry client (libcurl's development files were not found): `avrogen
 * registry` says so; every other verb works as in a full build.
 */
#include "cli.h"
#include "registry_verbs.h"

int cli_run_registry(int argc, char **argv)
{
    (void)argc;
    cli_error("%s needs the Schema Registry client, and this avrogen was built without it "
              "(no libcurl): use an avrogen built with libcurl4-openssl-dev installed",
              argv[0]);
    return EXIT_USAGE;
}
