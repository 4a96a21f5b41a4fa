/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binary's side of generator.h in a build without the generator
 * (AVROGEN_BUILD_GENERATOR=OFF: no libclang, no avrogen-generator.so). The
 * verbs that parse C (schema, generate, header) say that this build has none;
 * every other verb works as in a full build.
 */
#include "cli.h"
#include "generator.h"

int cli_run_generator(int argc, char **argv)
{
    (void)argc;
    cli_error("%s needs the generator, and this avrogen was built without it "
              "(AVROGEN_BUILD_GENERATOR=OFF, no libclang): use an avrogen built with it",
              argv[0]);
    return EXIT_USAGE;
}
