/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the subcommands: error lines and reading whole files. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>

#include "avrogen/value.h"

#include "cli.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("avrogen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_BAD_INPUT;
}

/* The subcommand being run, for the usage hint. */
static const char *current_command;

void cli_set_command(const char *name)
{
    current_command = name;
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("avrogen: ", stderr);
    vfprintf(stderr, fmt, ap);
    if (current_command != NULL)
        fprintf(stderr, "\n(run 'avrogen %s --help' for usage)\n", current_command);
    else
        fputs("\n(run 'avrogen --help' for usage)\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

char *cli_slurp(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (ferror(f)) {
            free(buf);
            buf = NULL;
            break;
        }
        if (feof(f)) {
            buf[n] = '\0';
            break;
        }
        if (cap - n - 1 == 0) {
            char *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                errno = ENOMEM;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    int saved = errno;
    if (f != stdin)
        fclose(f);
    errno = saved;
    if (buf != NULL && len != NULL)
        *len = n;
    return buf;
}

int cli_jsonl_next(struct cli_jsonl *j, const avrogen_node *type, avrogen_value *v,
                   avrogen_arena *a)
{
    ssize_t n;
    while ((n = getline(&j->line, &j->cap, j->in)) != -1) {
        j->lineno++;
        size_t len = (size_t)n;
        while (len > 0 && strchr(" \t\r\n", j->line[len - 1]) != NULL)
            len--;
        if (len == 0)
            continue; /* blank lines separate nothing */
        avrogen_diag d;
        memset(&d, 0, sizeof d);
        avrogen_arena_reset(a);
        avrogen_status st = avrogen_value_from_json(j->line, len, type, v, a, &d);
        if (st == AVROGEN_OK)
            return 1;
        if (d.column > 0)
            cli_error("%s:%zu:%d: %s", j->name, j->lineno, d.column, d.msg);
        else
            cli_error("%s:%zu: %s%s%s", j->name, j->lineno, d.path, d.path[0] != '\0' ? ": " : "",
                      d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
        return -1;
    }
    if (ferror(j->in)) {
        cli_error("%s: %s", j->name, strerror(errno));
        return -1;
    }
    return 0;
}
