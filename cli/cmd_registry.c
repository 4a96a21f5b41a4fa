/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen registry register|get|latest|check|subjects|versions: a Confluent
 * Schema Registry from the command line, through libavrogen-registry. Runs
 * inside the registry module (registry_verbs.h), never in the binary itself,
 * so only this verb maps libcurl. Where the registry is and how to reach it
 * come from --url, a properties file (--config, as librdkafka and kcat read
 * theirs) and -X KEY=VALUE, in that order of precedence from last to first:
 * -X and --url override the file. Registry errors are exit 1 with one
 * "avrogen: error: registry VERB: ..." line holding the registry's message or
 * the URL that could not be reached; bad usage is exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/registry.h"

#include "cli.h"
#include "registry_verbs.h"

#define MAX_SETTINGS 64

struct args {
    const char *verb;
    const char *url, *config;
    const char *settings[MAX_SETTINGS]; /* -X KEY=VALUE, in order */
    int n_settings;
    char *operands[3];
    int n_operands;
};

static int parse(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char **slot = NULL;
        const char *value = NULL;
        if (strcmp(arg, "--url") == 0 || strncmp(arg, "--url=", 6) == 0)
            slot = &a->url;
        else if (strcmp(arg, "--config") == 0 || strncmp(arg, "--config=", 9) == 0)
            slot = &a->config;
        else if (strcmp(arg, "-X") == 0) {
            if (a->n_settings == MAX_SETTINGS)
                return cli_usage("registry: more than %d -X settings", MAX_SETTINGS);
            slot = &a->settings[a->n_settings++];
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_unknown_option("registry", arg);
        } else if (a->verb == NULL) {
            a->verb = arg;
            continue;
        } else if (a->n_operands == 3) {
            return cli_usage("registry %s: unexpected argument '%s'", a->verb, arg);
        } else {
            a->operands[a->n_operands++] = argv[i];
            continue;
        }
        const char *eq = strchr(arg, '=');
        if (eq != NULL && arg[1] == '-') {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return cli_usage("registry: %s needs a value", arg);
        }
        *slot = value;
    }
    if (a->verb == NULL)
        return cli_usage("registry: which of register, get, latest, check, subjects, versions?");
    return 0;
}

/* The client the options describe; 0, or an exit status after one line. */
static int open_client(const struct args *a, avrogen_registry **reg)
{
    avrogen_registry_config *cfg;
    avrogen_registry_error err = {0};
    if (avrogen_registry_config_new(&cfg) != AVROGEN_REGISTRY_OK)
        return cli_error("registry: out of memory");
    int rc = 0;
    if (a->config != NULL && avrogen_registry_config_load(cfg, a->config, &err) != 0) {
        rc = cli_usage("registry: --config %s", err.message);
        goto out;
    }
    for (int i = 0; i < a->n_settings; i++) {
        const char *s = a->settings[i];
        const char *eq = strchr(s, '=');
        if (eq == NULL) {
            rc = cli_usage("registry: -X needs KEY=VALUE, not '%s'", s);
            goto out;
        }
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - s), s);
        if (avrogen_registry_config_set(cfg, key, eq + 1, &err) != AVROGEN_REGISTRY_OK) {
            rc = cli_usage("registry: -X %s", err.message);
            goto out;
        }
    }
    if (a->url != NULL &&
        avrogen_registry_config_set(cfg, "schema.registry.url", a->url, &err) != 0) {
        rc = cli_error("registry: %s", err.message);
        goto out;
    }
    avrogen_registry_status st = avrogen_registry_new(cfg, reg, &err);
    if (st == AVROGEN_REGISTRY_E_CONFIG && strstr(err.message, "is not set") != NULL)
        rc = cli_usage("registry %s: where is the registry? --url URL, or schema.registry.url "
                       "in --config FILE",
                       a->verb);
    else if (st == AVROGEN_REGISTRY_E_CONFIG)
        rc = cli_usage("registry %s: %s", a->verb, err.message);
    else if (st != AVROGEN_REGISTRY_OK)
        rc = cli_error("registry %s: %s", a->verb, err.message);
out:
    avrogen_registry_config_free(cfg);
    return rc;
}

/* One line for a failed call: the status, the registry's message and its code. */
static int fail(const char *verb, avrogen_registry_status st, const avrogen_registry_error *e)
{
    if (e->error_code != 0)
        return cli_error("registry %s: %s: %s (error %ld)", verb, avrogen_registry_status_str(st),
                         e->message, e->error_code);
    return cli_error("registry %s: %s: %s", verb, avrogen_registry_status_str(st), e->message);
}

static int need(const struct args *a, int n, const char *what)
{
    if (a->n_operands != n)
        return cli_usage("registry %s needs %s", a->verb, what);
    return 0;
}

/* SCHEMA as cli_schema_text reads it; 0 or an exit status. */
static int schema_text(const char *arg, char **text)
{
    size_t len;
    const char *label;
    return cli_schema_text(arg, text, &len, &label);
}

static int run_verb(const struct args *a, avrogen_registry *reg)
{
    avrogen_registry_error e = {0};
    avrogen_registry_status st;
    const char *v = a->verb;
    int rc;
    if (strcmp(v, "register") == 0 || strcmp(v, "check") == 0) {
        char *text;
        if ((rc = need(a, 2, "SUBJECT SCHEMA")) != 0 ||
            (rc = schema_text(a->operands[1], &text)) != 0)
            return rc;
        uint32_t id = 0;
        if (v[0] == 'r')
            st = avrogen_registry_register(reg, a->operands[0], text, &id, &e);
        else
            st = avrogen_registry_check(reg, a->operands[0], text, &e);
        free(text);
        if (st != AVROGEN_REGISTRY_OK)
            return fail(v, st, &e);
        if (v[0] == 'r')
            printf("%u\n", id);
        else
            puts("compatible");
        return 0;
    }
    if (strcmp(v, "get") == 0 || strcmp(v, "latest") == 0) {
        avrogen_registry_schema s;
        if ((rc = need(a, 1, v[0] == 'g' ? "ID" : "SUBJECT")) != 0)
            return rc;
        if (v[0] == 'g') {
            uint64_t id;
            if ((rc = cli_parse_u64("registry get", "ID", "a whole number", a->operands[0], &id)) !=
                0)
                return rc;
            if (id > UINT32_MAX)
                return cli_usage("registry get: ID %s is past 4294967295, the largest id",
                                 a->operands[0]);
            st = avrogen_registry_schema_by_id(reg, (uint32_t)id, &s, &e);
        } else {
            st = avrogen_registry_latest(reg, a->operands[0], &s, &e);
        }
        if (st != AVROGEN_REGISTRY_OK)
            return fail(v, st, &e);
        puts(s.text);
        return 0;
    }
    if (strcmp(v, "subjects") == 0) {
        char **list;
        size_t n;
        if ((rc = need(a, 0, "no operand")) != 0)
            return rc;
        if ((st = avrogen_registry_subjects(reg, &list, &n, &e)) != AVROGEN_REGISTRY_OK)
            return fail(v, st, &e);
        for (size_t i = 0; i < n; i++)
            puts(list[i]);
        avrogen_registry_list_free(list, n);
        return 0;
    }
    if (strcmp(v, "versions") == 0) {
        int *versions;
        size_t n;
        if ((rc = need(a, 1, "SUBJECT")) != 0)
            return rc;
        st = avrogen_registry_versions(reg, a->operands[0], &versions, &n, &e);
        if (st != AVROGEN_REGISTRY_OK)
            return fail(v, st, &e);
        for (size_t i = 0; i < n; i++)
            printf("%d\n", versions[i]);
        free(versions);
        return 0;
    }
    return cli_usage("registry: no such command '%s' (register, get, latest, check, subjects, "
                     "versions)",
                     v);
}

static int run(int argc, char **argv)
{
    cli_set_command("registry", cli_registry_options); /* this module's copy of util.c */
    struct args a;
    int rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc;
    static const char *const verbs[] = {"register", "get",      "latest",
                                        "check",    "subjects", "versions"};
    bool known = false;
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        known |= strcmp(a.verb, verbs[i]) == 0;
    if (!known)
        return cli_usage("registry: no such command '%s' (register, get, latest, check, "
                         "subjects, versions)",
                         a.verb);
    avrogen_registry *reg;
    if ((rc = open_client(&a, &reg)) != 0)
        return rc;
    rc = run_verb(&a, reg);
    avrogen_registry_free(reg);
    if (rc == 0 && fflush(stdout) != 0)
        rc = cli_stdout_error();
    return rc;
}

__attribute__((visibility("default")))
const avrogen_registry_verbs avrogen_registry_verbs_entry = {AVROGEN_VERSION, run};
