/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The options of the verbs that run in a module (the generator's schema,
 * generate and header; registry), shared by the binary's command table
 * (commands.c: --help, the man page) and the modules, which have no table:
 * their unknown options name the closest one from these (cli_unknown_option).
 */
#include "cli.h"

const cli_option_doc cli_schema_options[] = {
        {"-o, --output DIR",
         "write DIR/<fullname>.avsc for each record instead of printing; DIR is made if missing"},
        {"--schema-dir DIR", "with -o: write the .avsc files into DIR instead"},
        {"--compat-with PATH", "check each derived schema against the earlier .avsc files in PATH "
                               "(a file or a directory; repeatable)"},
        {"--compat MODE", "backward (default), forward, full or none"},
        PROGRESS_DOC,
        {"-- CLANG_ARGS", "everything after -- goes to clang (-I, -D, -std); @FILE expands to "
                          "the arguments in FILE"},
        {NULL, NULL},
};

const cli_option_doc cli_generate_options[] = {
        {"-o, --output DIR",
         "where HEADER.avro.h, HEADER.avro.c and the schemas go (required; made if missing)"},
        {"--depfile F", "write a Make-syntax depfile of every header read"},
        {"--include-as REL", "how the generated .avro.h includes the header (one HEADER only)"},
        {"--schema-dir DIR", "write the .avsc files into DIR instead of the output directory"},
        {"--manifest F", "list the .avsc files written in F (touched on every successful run)"},
        {"--compat-with PATH", "the compatibility gate: check every derived schema against the "
                               "earlier .avsc files in PATH and generate decoders for them "
                               "(repeatable)"},
        {"--compat MODE", "backward (default), forward, full or none"},
        PROGRESS_DOC,
        {"-- CLANG_ARGS", "everything after -- goes to clang; @FILE expands to the arguments in "
                          "FILE"},
        {NULL, NULL},
};

const cli_option_doc cli_header_options[] = {
        {"-o, --output DIR", "write DIR/<stem>.h for each SCHEMA (order.avsc: DIR/order.h); "
                             "needed for more than one; DIR is created when missing"},
        {"--views", "strings (and map keys) as avrogen_str views instead of char *"},
        {"--from-file FILE.avro", "the schema stored in a container file (repeatable)"},
        {NULL, NULL},
};

const cli_option_doc cli_registry_options[] = {
        {"--url URL", "the registry: a comma-separated list of http:// or https:// URLs, tried "
                      "in turn (schema.registry.url)"},
        {"--config FILE", "a properties file of KEY=VALUE lines, as librdkafka and kcat read "
                          "them: schema.registry.url, basic.auth.user.info, bearer.auth.token, "
                          "ssl.ca.location, ssl.certificate.location, ssl.key.location, "
                          "request.timeout.ms, max.retries, retries.wait.ms, ... (any may be "
                          "prefixed schema.registry.); keys that are Kafka's are skipped"},
        {"-X KEY=VALUE", "one such setting (repeatable); -X and --url override the file"},
        {NULL, NULL},
};
