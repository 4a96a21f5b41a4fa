/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen schema / generate: the generator's command line. Parses arguments
 * into driver_options and runs the driver (driver.c); everything else happens
 * there.
 *
 *     avrogen schema order.h -- -Iinclude                 # .avsc on stdout
 *     avrogen schema order.h -o schemas                   # schemas/<fullname>.avsc
 *     avrogen generate order.h -o gen --depfile gen/order.d -- -Iinclude -DNDEBUG
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "cli.h"
#include "driver.h"

static int run(int argc, char **argv, bool generate)
{
    const char *cmd = argv[0];
    const char **headers = calloc((size_t)argc + 1, sizeof *headers);
    struct driver_options opt = {.out = stdout, .err = stderr, .generate_code = generate};
    int status;
    if (!headers)
        return cli_error("out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            opt.clang_args = (const char *const *)argv + i + 1;
            opt.n_clang_args = (size_t)(argc - i - 1);
            break;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: %s needs a directory", cmd, a);
                goto out;
            }
            opt.out_dir = argv[i];
        } else if (generate && strcmp(a, "--depfile") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: --depfile needs a file name", cmd);
                goto out;
            }
            opt.depfile = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            status = cli_usage("%s: unknown option '%s' (clang arguments go after '--')", cmd, a);
            goto out;
        } else {
            headers[opt.n_headers++] = a;
        }
    }
    if (opt.n_headers == 0) {
        status = cli_usage("%s: no header given", cmd);
        goto out;
    }
    if (generate && !opt.out_dir) {
        status = cli_usage("generate: -o DIR is required");
        goto out;
    }
    if (opt.out_dir) {
        struct stat st;
        if (stat(opt.out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            status = cli_error("output directory '%s' does not exist", opt.out_dir);
            goto out;
        }
    }
    opt.headers = headers;
    status = driver_run(&opt);
out:
    free(headers);
    return status;
}

int cmd_schema(int argc, char **argv)
{
    return run(argc, argv, false);
}

int cmd_generate(int argc, char **argv)
{
    return run(argc, argv, true);
}
