/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The files one run of the generator writes, collected in memory first so
 * that a run with any error writes nothing (driver.c, `avrogen header`), and
 * then written all at once: each to a temp file renamed into place, a file
 * whose bytes did not change left untouched so its mtime stays put. The
 * emitters add to it; only the drivers write it.
 */
#ifndef AVROGEN_GEN_OUTPUTS_H
#define AVROGEN_GEN_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

/* One file a run will write. */
struct gen_output {
    char *path; /* out_dir/name */
    char *data; /* malloc'd contents */
    size_t len;
};

/* The files a run will write, in the order they were added. */
struct gen_outputs {
    struct gen_output *v;
    size_t n;
    size_t cap;
};

/*
 * Queue `len` bytes of `data` (malloc'd; ownership moves in, also on failure)
 * as the file `name` inside `dir` (NULL or "" for the current directory).
 * Adding a path twice keeps the first when the bytes are equal and is an
 * internal error otherwise. Returns 0, or -1 when out of memory or on such a
 * conflict (a message was printed to stderr).
 */
int gen_outputs_add(struct gen_outputs *o, const char *dir, const char *name, char *data,
                    size_t len);

void gen_outputs_free(struct gen_outputs *o);

/*
 * Write every queued output: temp file in the same directory, then rename; a
 * file whose current bytes equal the new ones is not touched. Creates the
 * directories a path needs that are missing. Returns 0, or -1 after printing
 * "avrogen: error: ..." to `err`.
 */
int gen_outputs_write(const struct gen_outputs *o, FILE *err);

#endif /* AVROGEN_GEN_OUTPUTS_H */
