/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry of the generator module (generator.h): the verbs that parse C,
 * dispatched by name. It is the only symbol the module exports; the
 * generator, the runtime and cli's helpers inside it stay hidden.
 */
#include <string.h>

#include "cli.h"
#include "generator.h"

static int run(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
        const cli_option_doc *options;
    } verbs[] = {{"schema", cmd_schema, cli_schema_options},
                 {"generate", cmd_generate, cli_generate_options},
                 {"header", cmd_header, cli_header_options}};
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        if (strcmp(argv[0], verbs[i].name) == 0) {
            /* This module's copy of util.c: its unknown options name the closest. */
            cli_set_command(verbs[i].name, verbs[i].options);
            return verbs[i].run(argc, argv);
        }
    }
    return cli_usage("the generator module has no command '%s'", argv[0]);
}

__attribute__((visibility("default")))
const avrogen_generator avrogen_generator_entry = {AVROGEN_VERSION, run};
