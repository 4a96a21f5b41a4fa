/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry module: `avrogen registry ...` and the Schema Registry client
 * under it (libavrogen-registry, libcurl), built as a shared object of its
 * own (avrogen-registry.so) that the binary dlopen()s only when that verb
 * runs, as it does the generator module (generator.h): libcurl and the TLS,
 * HTTP/2, LDAP and Kerberos libraries it needs stay out of every other verb's
 * start-up. This header is the whole contract between the two sides.
 */
#ifndef AVROGEN_REGISTRY_VERBS_H
#define AVROGEN_REGISTRY_VERBS_H

#include "modules.h" /* cli_module_entry */

/* The module's one exported symbol, a `const avrogen_registry_verbs`. */
#define AVROGEN_REGISTRY_VERBS_SYMBOL "avrogen_registry_verbs_entry"

/* version, and run: `registry` with its arguments (argv[0] is "registry"). */
typedef cli_module_entry avrogen_registry_verbs;

/* The module's side (cli/cmd_registry.c). */
extern const avrogen_registry_verbs avrogen_registry_verbs_entry;

/* The binary's side (cli/registry_load.c, or cli/registry_absent.c in a build without
 * libcurl): run `registry` in the module; exit status 2 after one "avrogen: error:" line
 * when there is none or it does not load. */
int cli_run_registry(int argc, char **argv);

#endif /* AVROGEN_REGISTRY_VERBS_H */
