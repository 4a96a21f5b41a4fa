/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiler-style diagnostics for the generator: `path:line:col: error: msg`
 * followed by `path:line:col: note: msg` lines, the format clang and gcc use,
 * so editors and CI annotators pick them up. A sink counts what it printed so
 * the driver can report every problem of a run and still refuse to write
 * outputs when any of them was an error. It does not buffer or sort.
 */
#ifndef AVROGEN_GEN_DIAG_H
#define AVROGEN_GEN_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "avrogen/status.h"

/* A position in a source file. `file` points into model.files (or the cunit's
 * file table): compare by pointer, print as is. line and column are 1-based. */
struct model_loc {
    const char *file;
    unsigned line;
    unsigned column;
};

struct diag_held;

struct diag {
    FILE *out;              /* where messages go (stderr in the CLI) */
    unsigned errors;        /* errors reported so far (printed or held) */
    unsigned warnings;      /* warnings reported so far */
    struct diag_held *held; /* messages held back by diag_hold, or NULL */
    size_t n_held;
    bool holding;
    /* Called, when set, before each line is printed: a progress line on the
     * same stream is cleared first (the CLI's `generate`). */
    void (*before_line)(void *ctx);
    void *before_line_ctx;
};

void diag_init(struct diag *d, FILE *out);

/*
 * Hold messages back instead of printing them, until diag_release prints them
 * sorted by position (stable; notes stay after their message; messages
 * without a position first). The model builder checks in several passes, and
 * this keeps its report in source order.
 */
void diag_hold(struct diag *d);
void diag_release(struct diag *d,
                  int (*cmp)(const struct model_loc *a, const struct model_loc *b, void *ctx),
                  void *ctx);

/* Print one message. `at` may be NULL (or have a NULL file): the line then
 * starts with "avrogen: " instead of a position. Errors and warnings bump
 * their counters; notes attach to the message before them. */
void diag_error(struct diag *d, const struct model_loc *at, const char *fmt, ...)
        AVROGEN_PRINTF(3, 4);
void diag_warning(struct diag *d, const struct model_loc *at, const char *fmt, ...)
        AVROGEN_PRINTF(3, 4);
void diag_note(struct diag *d, const struct model_loc *at, const char *fmt, ...)
        AVROGEN_PRINTF(3, 4);

/* Print an already formatted line (clang's own diagnostics), counting it as an
 * error when `is_error`, as a warning otherwise. */
void diag_forward(struct diag *d, const char *line, int is_error);

#endif /* AVROGEN_GEN_DIAG_H */
