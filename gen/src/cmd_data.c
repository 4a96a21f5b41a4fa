/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data subcommands: canonical, fingerprint, tojson, fromjson. Each is a thin
 * layer over the runtime (schema.h, value.h) that turns its statuses into the
 * command-line contract of DESIGN.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/schema.h"
#include "cli.h"

/*
 * Load a schema named on the command line: a file path, "-" for stdin, or the
 * JSON text itself when no such file exists and the argument looks like JSON.
 */
static int load_schema(const char *arg, avrogen_schema **out)
{
    size_t len;
    char *text = cli_slurp(arg, &len);
    const char *label = arg;
    if (text == NULL) {
        if (errno == ENOENT && strchr("{[\"", arg[0]) != NULL) {
            text = strdup(arg);
            len = strlen(arg);
            label = "<argument>";
        }
        if (text == NULL)
            return cli_error("%s: %s", arg, strerror(errno));
    }
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_schema_parse(text, len, NULL, out, &d);
    free(text);
    if (st != AVROGEN_OK) {
        if (d.line > 0)
            return cli_error("%s:%d:%d: %s", label, d.line, d.column, d.msg);
        return cli_error("%s: %s%s%s", label, d.path[0] != '\0' ? d.path : "",
                         d.path[0] != '\0' ? ": " : "", d.msg[0] != '\0' ? d.msg
                                                                          : avrogen_status_str(st));
    }
    return 0;
}

int cmd_canonical(int argc, char **argv)
{
    if (argc != 2)
        return cli_usage("usage: avrogen canonical SCHEMA");
    avrogen_schema *s;
    int rc = load_schema(argv[1], &s);
    if (rc != 0)
        return rc;
    puts(avrogen_schema_canonical(s));
    avrogen_schema_free(s);
    return 0;
}

static void print_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
    putchar('\n');
}

int cmd_fingerprint(int argc, char **argv)
{
    const char *path = NULL, *algo = "crc64";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc)
            algo = argv[++i];
        else if (strncmp(argv[i], "--algo=", 7) == 0)
            algo = argv[i] + 7;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("fingerprint: unknown option '%s'", argv[i]);
        else if (path == NULL)
            path = argv[i];
        else
            return cli_usage("fingerprint: more than one SCHEMA");
    }
    if (path == NULL)
        return cli_usage("usage: avrogen fingerprint SCHEMA [--algo crc64|md5|sha256]");
    if (strcmp(algo, "crc64") != 0 && strcmp(algo, "md5") != 0 && strcmp(algo, "sha256") != 0)
        return cli_usage("fingerprint: unknown --algo '%s' (crc64, md5 or sha256)", algo);

    avrogen_schema *s;
    int rc = load_schema(path, &s);
    if (rc != 0)
        return rc;
    const char *canon = avrogen_schema_canonical(s);
    uint8_t out[32];
    if (strcmp(algo, "crc64") == 0) {
        /* spec §Single-object encoding: the 64-bit fingerprint travels little-endian. */
        uint64_t fp = avrogen_schema_fingerprint64(s);
        for (int i = 0; i < 8; i++)
            out[i] = (uint8_t)(fp >> (8 * i));
        print_hex(out, 8);
    } else if (strcmp(algo, "md5") == 0) {
        if (!avrogen_md5(canon, strlen(canon), out))
            rc = cli_error("libcrypto MD5 failed");
        else
            print_hex(out, 16);
    } else {
        if (!avrogen_sha256(canon, strlen(canon), out))
            rc = cli_error("libcrypto SHA-256 failed");
        else
            print_hex(out, 32);
    }
    avrogen_schema_free(s);
    return rc;
}

int cmd_tojson(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("tojson: not available yet");
}

int cmd_fromjson(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("fromjson: not available yet");
}
