/* SPDX-License-Identifier: Apache-2.0 */
/* Compiler-style diagnostics (diag.h): formatting, counting, and holding
 * messages back to print them in source order. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genutil.h"

struct diag_held {
    struct model_loc loc;
    char *text; /* the whole line, without its newline */
    bool is_note;
};

void diag_init(struct diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
}

static void put_line(struct diag *d, const char *line)
{
    if (d->before_line)
        d->before_line(d->before_line_ctx);
    fprintf(d->out, "%s\n", line);
}

static void vreport(struct diag *d, const struct model_loc *at, const char *severity,
                    const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *msg = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    char *line = at && at->file ? xasprintf("%s:%u:%u: %s: %s", at->file, at->line, at->column,
                                            severity, msg)
                                : xasprintf("avrogen: %s: %s", severity, msg);
    free(msg);
    if (!d->holding) {
        put_line(d, line);
        free(line);
        return;
    }
    d->held = xappend(d->held, d->n_held, sizeof *d->held);
    struct diag_held *h = &d->held[d->n_held++];
    if (at)
        h->loc = *at;
    h->text = line;
    h->is_note = strcmp(severity, "note") == 0;
}

void diag_error(struct diag *d, const struct model_loc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, at, "error", fmt, ap);
    va_end(ap);
    d->errors++;
}

void diag_warning(struct diag *d, const struct model_loc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, at, "warning", fmt, ap);
    va_end(ap);
    d->warnings++;
}

void diag_note(struct diag *d, const struct model_loc *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, at, "note", fmt, ap);
    va_end(ap);
}

void diag_forward(struct diag *d, const char *line, int is_error)
{
    put_line(d, line);
    if (is_error)
        d->errors++;
    else
        d->warnings++;
}

void diag_hold(struct diag *d)
{
    d->holding = true;
}

void diag_release(struct diag *d,
                  int (*cmp)(const struct model_loc *a, const struct model_loc *b, void *ctx),
                  void *ctx)
{
    /* Group each message with its notes, then insertion-sort the groups by the
     * message's position: stable, and the lists are short. */
    size_t *start = xcalloc(d->n_held + 1, sizeof *start);
    size_t n_groups = 0;
    for (size_t i = 0; i < d->n_held; i++)
        if (!d->held[i].is_note || n_groups == 0)
            start[n_groups++] = i;
    for (size_t i = 1; i < n_groups; i++) {
        size_t g = start[i];
        size_t j = i;
        for (; j > 0; j--) {
            const struct model_loc *a = &d->held[start[j - 1]].loc;
            const struct model_loc *b = &d->held[g].loc;
            int c = !a->file ? (b->file ? -1 : 0) : !b->file ? 1 : cmp(a, b, ctx);
            if (c <= 0)
                break;
            start[j] = start[j - 1];
        }
        start[j] = g;
    }
    for (size_t i = 0; i < n_groups; i++) {
        size_t k = start[i];
        do {
            put_line(d, d->held[k].text);
            k++;
        } while (k < d->n_held && d->held[k].is_note);
    }
    for (size_t i = 0; i < d->n_held; i++)
        free(d->held[i].text);
    free(d->held);
    free(start);
    d->held = NULL;
    d->n_held = 0;
    d->holding = false;
}
