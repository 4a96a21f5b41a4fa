/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The generator pipeline (driver.h): per header, parse → model → schemas →
 * code, collecting every output in memory; then, only if no header had an
 * error, write them all (temp file + rename, unchanged files untouched) and
 * the depfile (outputs.c does the writing). Argument parsing lives in
 * cmd_schema.c, not here.
 */
#include "driver.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avrogen/ocf.h>
#include <avrogen/schema.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat_gate.h"
#include "emit/emit_avsc.h"
#include "emit/emit_c.h"
#include "genutil.h"
#include "outputs.h"
#include "parse/parse.h"
#include "textbuf.h"

/* ---- the pipeline ----------------------------------------------------- */

/* "dir/point.h" → "point". */
static char *header_stem(const char *header)
{
    const char *base = strrchr(header, '/');
    base = base ? base + 1 : header;
    const char *dot = strrchr(base, '.');
    return xstrndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A path in Make syntax: spaces, '#' and '$' escaped. */
static void put_make_path(struct textbuf *b, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\\')
            textbuf_putc(b, '\\');
        if (*p == '$')
            textbuf_putc(b, '$');
        textbuf_putc(b, *p);
    }
}

/* Every schema printed or written by this run, to keep one fullname one text. */
struct schema_seen {
    const char *fullname;
    const char *text;
};

struct run {
    const struct driver_options *opt;
    size_t header_index; /* of the header being run, for progress */
    struct diag d;
    struct gen_outputs outputs;
    struct textbuf stdout_text;   /* schema without -o */
    struct textbuf manifest_text; /* generate --manifest: the .avsc paths */
    char **deps;                  /* union over headers, first-seen order */
    size_t n_deps;
    struct model **models;
    size_t n_models;
    struct schema_seen *seen;
    size_t n_seen;
    int internal; /* set to 2 on an internal error */
    /* --compat-with: every earlier schema, parsed, and the file it came from. */
    avrogen_schema **earlier;
    char **earlier_paths;
    size_t n_earlier;
};

static void add_dep(struct run *r, const char *dep)
{
    for (size_t i = 0; i < r->n_deps; i++)
        if (strcmp(r->deps[i], dep) == 0)
            return;
    r->deps = xappend(r->deps, r->n_deps, sizeof *r->deps);
    r->deps[r->n_deps++] = xstrdup(dep);
}

static void collect_schemas(struct run *r, const struct model *m)
{
    for (size_t i = 0; i < m->n_records; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file)
            continue;
        bool dup = false;
        for (size_t k = 0; k < r->n_seen; k++) {
            if (strcmp(r->seen[k].fullname, rec->name.fullname) != 0)
                continue;
            dup = true;
            if (strcmp(r->seen[k].text, rec->avsc) != 0)
                diag_error(&r->d, &rec->loc,
                           "record '%s' is also derived from another header, with a different "
                           "schema",
                           rec->name.fullname);
        }
        if (dup)
            continue;
        r->seen = xappend(r->seen, r->n_seen, sizeof *r->seen);
        r->seen[r->n_seen].fullname = rec->name.fullname;
        r->seen[r->n_seen++].text = rec->avsc;
        if (r->opt->out_dir) {
            const char *dir = r->opt->schema_dir ? r->opt->schema_dir : r->opt->out_dir;
            char *name = xasprintf("%s.avsc", rec->name.fullname);
            if (gen_outputs_add(&r->outputs, dir, name, xstrdup(rec->avsc), strlen(rec->avsc)) != 0)
                r->internal = 2;
            if (r->opt->manifest) {
                textbuf_puts(&r->manifest_text, r->outputs.v[r->outputs.n - 1].path);
                textbuf_putc(&r->manifest_text, '\n');
            }
            free(name);
        } else {
            textbuf_puts(&r->stdout_text, rec->avsc);
        }
    }
}

static bool has_main_types(const struct model *m)
{
    for (size_t i = 0; i < m->n_records; i++)
        if (m->records[i]->in_main_file)
            return true;
    for (size_t i = 0; i < m->n_enums; i++)
        if (m->enums[i]->in_main_file)
            return true;
    return false;
}

/* ---- inputs, bounded --------------------------------------------------- */

/*
 * The longest file the generator reads whole, or lets libclang read: a schema
 * given to --compat-with, a header, a file named by -include or -imacros. The
 * CLI's limit for schema texts and response files (CLI_TEXT_MAX): the default
 * limit of a container file's header, which holds a schema.
 */
#define GEN_INPUT_MAX ((size_t)AVROGEN_OCF_DEFAULT_MAX_HEADER)

static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISFIFO(mode) ? "a pipe"
                            : "not a regular file";
}

/*
 * A file libclang will read (a header, an -include or -imacros file): libclang
 * reads it whole with no bound, so it must be a regular file of at most
 * GEN_INPUT_MAX bytes (/dev/zero ran it out of memory). `role` is "" for a
 * header, else what names it ("named by -include"). False after an error.
 */
static bool clang_input_ok(struct run *r, const char *path, const char *role)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_error(&r->d, NULL, "cannot read '%s'%s%s%s: %s", path, *role ? " (" : "", role,
                   *role ? ")" : "", strerror(errno));
        return false;
    }
    const char *what = *role ? "file" : "header";
    if (!S_ISREG(st.st_mode)) {
        diag_error(&r->d, NULL,
                   "%s '%s'%s%s%s is %s: libclang reads it whole, so it must be a regular file "
                   "(of at most %zu bytes)",
                   what, path, *role ? " (" : "", role, *role ? ")" : "", kind_of(st.st_mode),
                   GEN_INPUT_MAX);
        return false;
    }
    if ((uintmax_t)st.st_size > GEN_INPUT_MAX) {
        diag_error(&r->d, NULL,
                   "%s '%s'%s%s%s is %jd bytes, longer than the %zu bytes libclang is given to "
                   "read (the limit for schemas and headers)",
                   what, path, *role ? " (" : "", role, *role ? ")" : "", (intmax_t)st.st_size,
                   GEN_INPUT_MAX);
        return false;
    }
    if (access(path, R_OK) != 0) {
        diag_error(&r->d, NULL, "cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* A clang argument naming a file to read before the header: -include F, -imacros F (also
 * -includeF, --include=F, ...); NULL for any other. *used: whether the next one was taken. */
static const char *forced_file(const char *a, const char *next, bool *used)
{
    static const char *const opts[] = {"-include", "-imacros", "--include", "--imacros"};
    *used = false;
    if (strncmp(a, "-include-p", 10) == 0) /* -include-pch: a precompiled header, clang's own */
        return NULL;
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        size_t n = strlen(opts[i]);
        if (strncmp(a, opts[i], n) != 0)
            continue;
        if (a[n] == '\0') {
            *used = next != NULL;
            return next;
        }
        if (opts[i][1] == '-')
            return a[n] == '=' ? a + n + 1 : NULL;
        return a + n;
    }
    return NULL;
}

/* The files -include and -imacros name, where they exist as given (else clang looks for
 * them on the include path, and says so when it does not find them): as headers are. */
static void check_forced_files(struct run *r)
{
    const struct driver_options *opt = r->opt;
    for (size_t i = 0; i < opt->n_clang_args; i++) {
        bool used;
        const char *next = i + 1 < opt->n_clang_args ? opt->clang_args[i + 1] : NULL;
        const char *file = forced_file(opt->clang_args[i], next, &used);
        struct stat st;
        if (file != NULL && (stat(file, &st) == 0 || errno != ENOENT))
            clang_input_ok(r, file,
                           strstr(opt->clang_args[i], "imacros") != NULL ? "named by -imacros"
                                                                         : "named by -include");
        if (used)
            i++;
    }
}

/*
 * The text of schema file `path`, read to GEN_INPUT_MAX bytes (malloc'd, in *len), or NULL
 * after an error. Named on the command line (`listed` false) it may be a regular file or a
 * pipe; found by listing a folder, only a regular file: anything else there (a FIFO would
 * block for ever, a device never end) is refused before it is opened, and opened without
 * blocking so that nothing swapped in meanwhile can block either.
 */
static char *read_schema_file(struct run *r, const char *path, bool listed, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_error(&r->d, NULL, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    bool readable = S_ISREG(st.st_mode) || (!listed && S_ISFIFO(st.st_mode));
    int fd = -1;
    if (readable) {
        fd = open(path, O_RDONLY | O_CLOEXEC | (listed ? O_NONBLOCK : 0));
        if (fd < 0 || fstat(fd, &st) != 0) {
            diag_error(&r->d, NULL, "cannot read '%s': %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return NULL;
        }
        readable = S_ISREG(st.st_mode) || (!listed && S_ISFIFO(st.st_mode));
    }
    if (!readable) {
        if (listed)
            diag_error(&r->d, NULL,
                       "%s is %s, in a --compat-with folder: only its regular files are read "
                       "(move it away, or name it as a --compat-with FILE)",
                       path, kind_of(st.st_mode));
        else
            diag_error(&r->d, NULL,
                       "%s is %s: a --compat-with schema is read from a regular file or a pipe",
                       path, kind_of(st.st_mode));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    /* Room for GEN_INPUT_MAX + 1 bytes at most: the byte past the limit is the proof. */
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    int err = 0;
    for (;;) {
        if (n == cap) {
            if (n > GEN_INPUT_MAX)
                break;
            cap = cap * 2 < GEN_INPUT_MAX + 1 ? cap * 2 : GEN_INPUT_MAX + 1;
            buf = xrealloc(buf, cap);
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            err = errno;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (err != 0 || n > GEN_INPUT_MAX) {
        if (err != 0)
            diag_error(&r->d, NULL, "cannot read '%s': %s", path, strerror(err));
        else
            diag_error(&r->d, NULL,
                       "%s: the schema is longer than %zu bytes (the limit for schemas, the "
                       "default limit of a container file's header)",
                       path, GEN_INPUT_MAX);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* ---- earlier schemas (--compat-with) ---------------------------------- */

static void load_earlier_file(struct run *r, const char *path, bool listed)
{
    size_t len;
    char *text = read_schema_file(r, path, listed, &len);
    if (text == NULL)
        return;
    avrogen_schema *s = NULL;
    avrogen_diag why;
    avrogen_status st = avrogen_schema_parse(text, len, NULL, &s, &why);
    free(text);
    if (st != AVROGEN_OK) {
        if (st == AVROGEN_E_NOMEM)
            r->internal = 2;
        else if (why.path[0] != '\0')
            diag_error(&r->d, NULL, "%s: %s: %s", path, why.path, why.msg);
        else
            diag_error(&r->d, NULL, "%s: %s", path, why.msg);
        return;
    }
    add_dep(r, path);
    r->earlier = xappend(r->earlier, r->n_earlier, sizeof *r->earlier);
    r->earlier_paths = xappend(r->earlier_paths, r->n_earlier, sizeof *r->earlier_paths);
    r->earlier[r->n_earlier] = s;
    r->earlier_paths[r->n_earlier++] = xstrdup(path);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory contributes its *.avsc files, in name order (deterministic output). */
static void load_earlier_dir(struct run *r, const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        diag_error(&r->d, NULL, "cannot read directory '%s': %s", dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && e->d_name[0] != '.' && strcmp(e->d_name + len - 5, ".avsc") == 0) {
            names = xappend(names, n, sizeof *names);
            names[n++] = path_join(dir, e->d_name);
        }
    }
    closedir(dp);
    if (n != 0)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        load_earlier_file(r, names[i], true);
        free(names[i]);
    }
    free(names);
}

static void load_earlier(struct run *r)
{
    for (size_t i = 0; i < r->opt->n_compat_with; i++) {
        const char *path = r->opt->compat_with[i];
        struct stat st;
        if (stat(path, &st) != 0)
            diag_error(&r->d, NULL, "cannot read '%s': %s", path, strerror(errno));
        else if (S_ISDIR(st.st_mode))
            load_earlier_dir(r, path);
        else
            load_earlier_file(r, path, false);
    }
}

static void step(struct run *r, const char *header, const char *what)
{
    const struct driver_options *opt = r->opt;
    if (opt->progress)
        opt->progress(opt->progress_ctx, header, r->header_index, opt->n_headers, what);
}

static void run_header(struct run *r, const char *header)
{
    const struct driver_options *opt = r->opt;
    if (!clang_input_ok(r, header, ""))
        return;

    struct cunit *u = NULL;
    unsigned errors = r->d.errors;
    step(r, header, "parsing (libclang)");
    int rc = clang_parse(header, opt->clang_args, opt->n_clang_args, &r->d, &u);
    if (rc != 0) {
        if (rc == 2)
            r->internal = 2;
        return;
    }
    for (size_t i = 0; i < u->n_deps; i++)
        add_dep(r, u->deps[i]);
    struct model *m = NULL;
    step(r, header, "building the model");
    rc = model_build(u, &r->d, &m);
    cunit_free(u);
    if (rc != 0) {
        if (rc == 2)
            r->internal = 2;
        return;
    }
    r->models = xappend(r->models, r->n_models, sizeof *r->models);
    r->models[r->n_models++] = m; /* schema texts stay alive for collect_schemas */
    step(r, header, "writing the schemas");
    if (emit_avsc(m, &r->d) != 0 || r->d.errors != errors)
        return;
    if (!has_main_types(m))
        diag_warning(&r->d, NULL, "'%s' declares no annotated record or enum", header);
    if (r->n_earlier != 0) {
        step(r, header, "checking compatibility");
        const char *mode = opt->compat_mode ? opt->compat_mode : "backward";
        rc = compat_gate_check(m, (const avrogen_schema *const *)r->earlier,
                               (const char *const *)r->earlier_paths, r->n_earlier, mode, &r->d);
        if (rc == 2)
            r->internal = 2;
        if (rc != 0)
            return;
    }
    /* Code first, so that <stem>.avro.h is the first output (the depfile's target). */
    if (opt->generate_code) {
        char *stem = header_stem(header);
        /* The banner names the header as the #include does: no absolute build paths. */
        const char *include = opt->include_as ? opt->include_as : base_name(header);
        struct emit_c_options co = {
                .header_path = opt->include_as ? include : header,
                .header_include = include,
                .version = AVROGEN_VERSION,
                .earlier = (const avrogen_schema *const *)r->earlier,
                .earlier_paths = (const char *const *)r->earlier_paths,
                .n_earlier = r->n_earlier,
        };
        step(r, header, "writing the code");
        rc = emit_c(m, opt->out_dir, stem, &co, &r->outputs, &r->d);
        if (rc == 2)
            r->internal = 2;
        free(stem);
    }
    collect_schemas(r, m);
}

/* Whether the manifest is a regular file (through any symbolic links): only
 * then is it touched, never a FIFO or a device it may be (outfile.h). */
static bool manifest_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void queue_depfile(struct run *r)
{
    const struct driver_options *opt = r->opt;
    struct textbuf b = TEXTBUF_INIT;
    /* One target: Make and Ninja both accept it, and every output comes from the
     * same command, so they share the prerequisites. */
    put_make_path(&b, opt->manifest  ? opt->manifest
                      : r->outputs.n ? r->outputs.v[0].path
                                     : opt->depfile);
    textbuf_putc(&b, ':');
    for (size_t i = 0; i < r->n_deps; i++) {
        textbuf_puts(&b, " \\\n  ");
        put_make_path(&b, r->deps[i]);
    }
    textbuf_putc(&b, '\n');
    size_t len;
    char *text = textbuf_take(&b, &len);
    if (!text || gen_outputs_add(&r->outputs, NULL, opt->depfile, text, len) != 0)
        r->internal = 2;
}

int driver_run(const struct driver_options *opt)
{
    struct run r = {.opt = opt};
    diag_init(&r.d, opt->err);
    r.d.before_line = opt->progress_clear;
    r.d.before_line_ctx = opt->progress_ctx;
    load_earlier(&r);
    check_forced_files(&r);
    for (size_t i = 0; i < opt->n_headers && !r.d.errors && !r.internal; i++) {
        r.header_index = i;
        run_header(&r, opt->headers[i]);
    }

    if (opt->progress_clear)
        opt->progress_clear(opt->progress_ctx);
    int status = 0;
    if (r.internal) {
        status = 2;
    } else if (r.d.errors) {
        status = 1;
    } else {
        if (opt->manifest) {
            size_t len;
            char *text = textbuf_take(&r.manifest_text, &len);
            if (!text || gen_outputs_add(&r.outputs, NULL, opt->manifest, text, len) != 0)
                r.internal = 2;
        }
        if (opt->depfile)
            queue_depfile(&r);
        if (r.internal) {
            status = 2;
        } else if (opt->out_dir) {
            status = gen_outputs_write(&r.outputs, opt->err) == 0 ? 0 : 1;
            /* The manifest is the build tool's output stamp: make it newer than
             * every input even when its bytes (and so its mtime) did not change. */
            if (status == 0 && opt->manifest && manifest_is_file(opt->manifest) &&
                utimensat(AT_FDCWD, opt->manifest, NULL, 0) != 0) {
                diag_error(&r.d, NULL, "cannot touch '%s': %s", opt->manifest, strerror(errno));
                status = 1;
            }
        } else if (r.stdout_text.failed) {
            status = 2;
        } else if (r.stdout_text.len) {
            fwrite(r.stdout_text.data, 1, r.stdout_text.len, opt->out);
            if (fflush(opt->out) != 0 || ferror(opt->out)) {
                diag_error(&r.d, NULL, "write error on standard output: %s", strerror(errno));
                status = 1;
            }
        }
    }

    textbuf_free(&r.stdout_text);
    textbuf_free(&r.manifest_text);
    gen_outputs_free(&r.outputs);
    for (size_t i = 0; i < r.n_models; i++)
        model_free(r.models[i]);
    free(r.models);
    free(r.seen);
    for (size_t i = 0; i < r.n_earlier; i++) {
        avrogen_schema_free(r.earlier[i]);
        free(r.earlier_paths[i]);
    }
    free(r.earlier);
    free(r.earlier_paths);
    for (size_t i = 0; i < r.n_deps; i++)
        free(r.deps[i]);
    free(r.deps);
    return status;
}
