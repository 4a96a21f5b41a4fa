/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The generator pipeline behind `avrogen schema` and `avrogen generate`: parse
 * each header with libclang, build and validate its model, emit the .avsc files
 * (and, for generate, the C code and a depfile), then write every output at
 * once (outputs.h): a run with any error writes nothing.
 */
#ifndef AVROGEN_GEN_DRIVER_H
#define AVROGEN_GEN_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct driver_options {
    const char *const *headers; /* the annotated headers, as given */
    size_t n_headers;
    const char *const *clang_args; /* extra libclang arguments (after `--`) */
    size_t n_clang_args;
    const char *out_dir;    /* NULL: `schema` prints to `out` instead of writing files */
    const char *depfile;    /* generate: Make-syntax depfile to write, or NULL */
    bool generate_code;     /* generate: also run emit_c for each header */
    FILE *out;              /* stdout */
    FILE *err;              /* diagnostics, stderr */
    const char *include_as; /* generate: how the .avro.h spells #include of the header
                               (one header only); NULL: the header's file name */
    const char *schema_dir; /* where .avsc files go; NULL: out_dir */
    const char *manifest;   /* generate: file listing the .avsc paths written, one a
                               line; it is the depfile's target and is touched on
                               every successful run, so build tools see it as new */
    /*
     * Earlier versions of the derived schemas (--compat-with): .avsc files, or
     * directories whose *.avsc files are taken in name order. Each derived
     * record schema is checked against every earlier schema of the same
     * fullname in `compat_mode`, and generate emits ahead-of-time decoders
     * for them (emit_c_options.earlier).
     */
    const char *const *compat_with;
    size_t n_compat_with;
    const char *compat_mode; /* "backward" (default: new reads old), "forward", "full", "none" */
    /*
     * Progress, when set: `step` ("parsing", "building the model", ...) of
     * header `index` (0-based) of `n`, called as each step starts; `clear`
     * before any diagnostic line is printed. The CLI draws them on stderr.
     */
    void (*progress)(void *ctx, const char *header, size_t index, size_t n, const char *step);
    void (*progress_clear)(void *ctx);
    void *progress_ctx;
};

/* Run the pipeline; returns the exit status: 0 ok, 1 the input is wrong (all
 * diagnostics printed, nothing written), 2 internal error. */
int driver_run(const struct driver_options *opt);

#endif /* AVROGEN_GEN_DRIVER_H */
