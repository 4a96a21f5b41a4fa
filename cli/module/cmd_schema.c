/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen schema / generate: the generator's command line. Parses arguments
 * into driver_options and runs the driver (driver.c); everything else happens
 * there.
 *
 *     avrogen schema order.h -- -Iinclude                 # .avsc on stdout
 *     avrogen schema order.h -o schemas                   # schemas/<fullname>.avsc
 *     avrogen generate order.h -o gen --depfile gen/order.d -- -Iinclude -DNDEBUG
 *
 * A clang argument "@FILE" is replaced by the arguments in FILE, one per line
 * or separated by blanks, double quotes grouping (what avro_generate() writes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "cli.h"
#include "driver.h"

/* Arguments after `--`, with @response files expanded (not recursively). */
struct arglist {
    char **v;
    size_t n, cap;
    char *text[64]; /* response file contents the strings point into */
    size_t n_text;
};

static bool arglist_push(struct arglist *l, char *a)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = a;
    return true;
}

static void arglist_free(struct arglist *l)
{
    free(l->v);
    for (size_t i = 0; i < l->n_text; i++)
        free(l->text[i]);
}

/* Split `text` in place into blank-separated words; "..." groups, \ escapes. */
static int expand_response_file(struct arglist *l, const char *path)
{
    if (l->n_text == sizeof l->text / sizeof *l->text)
        return cli_error("%s: too many response files", path);
    char *text = cli_slurp(path, CLI_TEXT_MAX, NULL);
    if (!text && errno == EFBIG)
        return cli_error("%s: the response file is longer than %zu bytes", path,
                         (size_t)CLI_TEXT_MAX);
    if (!text)
        return cli_slurp_error(path, "a response file", errno);
    l->text[l->n_text++] = text;
    char *in = text;
    while (*in) {
        while (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r')
            in++;
        if (!*in)
            break;
        char *word = in, *out = in;
        bool quoted = false;
        while (*in && (quoted || !(*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r'))) {
            if (*in == '"') {
                quoted = !quoted;
                in++;
            } else if (*in == '\\' && in[1]) {
                *out++ = in[1];
                in += 2;
            } else {
                *out++ = *in++;
            }
        }
        if (*in)
            in++;
        *out = '\0';
        if (!arglist_push(l, word))
            return cli_error("out of memory");
    }
    return 0;
}

/* The driver's steps on the progress line: "generate: big.h (2 of 3): writing the code". */
static void show_step(void *ctx, const char *header, size_t index, size_t n, const char *step)
{
    cli_progress *p = ctx;
    char text[384];
    if (n > 1)
        snprintf(text, sizeof text, "%s: %s (%zu of %zu): %s", p->verb, header, index + 1, n, step);
    else
        snprintf(text, sizeof text, "%s: %s: %s", p->verb, header, step);
    cli_progress_step(p, text);
}

static void clear_step(void *ctx)
{
    cli_progress_done(ctx);
}

static int run(int argc, char **argv, bool generate)
{
    struct arglist clang = {0};
    const char *cmd = argv[0];
    const char **headers = calloc((size_t)argc + 1, sizeof *headers);
    const char **compat_with = calloc((size_t)argc + 1, sizeof *compat_with);
    struct driver_options opt = {.out = stdout, .err = stderr, .generate_code = generate};
    int status;
    if (!headers || !compat_with) {
        free(headers);
        free(compat_with);
        return cli_error("out of memory");
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                status = argv[i][0] == '@'               ? expand_response_file(&clang, argv[i] + 1)
                         : arglist_push(&clang, argv[i]) ? 0
                                                         : cli_error("out of memory");
                if (status != 0)
                    goto out;
            }
            opt.clang_args = (const char *const *)clang.v;
            opt.n_clang_args = clang.n;
            break;
        } else if (strcmp(a, "--progress") == 0) {
            cli_set_progress(CLI_PROGRESS_ALWAYS);
        } else if (strcmp(a, "--no-progress") == 0) {
            cli_set_progress(CLI_PROGRESS_NEVER);
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
        } else if (generate && strcmp(a, "--include-as") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: --include-as needs a header path", cmd);
                goto out;
            }
            opt.include_as = argv[i];
        } else if (strcmp(a, "--schema-dir") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: --schema-dir needs a directory", cmd);
                goto out;
            }
            opt.schema_dir = argv[i];
        } else if (generate && strcmp(a, "--manifest") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: --manifest needs a file name", cmd);
                goto out;
            }
            opt.manifest = argv[i];
        } else if (strcmp(a, "--compat-with") == 0) {
            if (++i == argc) {
                status = cli_usage("%s: --compat-with needs a schema file or directory", cmd);
                goto out;
            }
            compat_with[opt.n_compat_with++] = argv[i];
        } else if (strcmp(a, "--compat") == 0) {
            if (++i == argc ||
                !(strcmp(argv[i], "backward") == 0 || strcmp(argv[i], "forward") == 0 ||
                  strcmp(argv[i], "full") == 0 || strcmp(argv[i], "none") == 0)) {
                status = cli_usage("%s: --compat needs backward, forward, full or none", cmd);
                goto out;
            }
            opt.compat_mode = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            /* -o is the one short option: any other (-Iinclude, -DX) is clang's. */
            status = a[1] != '-' ? cli_usage("%s: unknown option '%s' (clang arguments go after "
                                             "'--')",
                                             cmd, a)
                                 : cli_unknown_option(cmd, a);
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
    /* It is written between the quotes of an #include: nothing that ends it. */
    for (const char *p = opt.include_as; p && *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '"') {
            status = cli_usage("%s: --include-as '%s' cannot be written in an #include (it holds "
                               "a %s)",
                               cmd, opt.include_as,
                               *p == '"' ? "double quote" : "control character or line break");
            goto out;
        }
    }
    if (opt.include_as && (!*opt.include_as || opt.include_as[0] == '/')) {
        status = cli_usage("%s: --include-as needs a relative path, as the generated header "
                           "writes #include \"REL\"",
                           cmd);
        goto out;
    }
    if (opt.include_as && opt.n_headers != 1) {
        status = cli_usage("generate: --include-as applies to exactly one header");
        goto out;
    }
    if (opt.schema_dir && !opt.out_dir) {
        status = cli_usage("%s: --schema-dir needs -o DIR", cmd);
        goto out;
    }
    /* Missing directories are made when the outputs are written, so that a
     * run with errors leaves nothing behind, not even an empty directory. */
    for (int k = 0; k < 2; k++) {
        const char *dir = k == 0 ? opt.out_dir : opt.schema_dir;
        struct stat st;
        if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            status = cli_error("'%s' is not a directory", dir);
            goto out;
        }
    }
    if (opt.compat_mode && opt.n_compat_with == 0) {
        status = cli_usage("%s: --compat needs --compat-with", cmd);
        goto out;
    }
    opt.headers = headers;
    opt.compat_with = compat_with;
    /* Steps, not records: the line says which step of which header runs. */
    cli_progress progress;
    cli_progress_init(&progress, cmd, !opt.out_dir);
    opt.progress = show_step;
    opt.progress_clear = clear_step;
    opt.progress_ctx = &progress;
    status = driver_run(&opt);
    cli_progress_done(&progress);
out:
    arglist_free(&clang);
    free(headers);
    free(compat_with);
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
