/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The files a generator run writes (outputs.h): queued in memory, then each
 * written to a temp file in its directory and renamed into place, a file whose
 * bytes did not change left untouched. It knows nothing of what the files are.
 * What a path may be (a symbolic link followed, a FIFO or a character device
 * written as it is and never read, anything else refused) and the temporary
 * file a fatal signal removes are outfile.h's rule, the one cli/util.c's
 * output files follow too.
 */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "genutil.h"
#include "outfile.h"

int gen_outputs_add(struct gen_outputs *o, const char *dir, const char *name, char *data,
                    size_t len)
{
    char *path = path_join(dir, name);
    for (size_t i = 0; i < o->n; i++) {
        if (strcmp(o->v[i].path, path) != 0)
            continue;
        bool same = o->v[i].len == len && memcmp(o->v[i].data, data, len) == 0;
        if (!same)
            fprintf(stderr, "avrogen: error: two different outputs for '%s'\n", path);
        free(path);
        free(data);
        return same ? 0 : -1;
    }
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 8;
        o->v = xrealloc(o->v, o->cap * sizeof *o->v);
    }
    o->v[o->n].path = path;
    o->v[o->n].data = data;
    o->v[o->n].len = len;
    o->n++;
    return 0;
}

void gen_outputs_free(struct gen_outputs *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->v[i].path);
        free(o->v[i].data);
    }
    free(o->v);
    o->v = NULL;
    o->n = o->cap = 0;
}

/* Whether the file at `path` holds exactly these bytes. */
static bool file_equals(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool same = true;
    char buf[8192];
    size_t off = 0;
    for (;;) {
        size_t n = fread(buf, 1, sizeof buf, f);
        if (n == 0)
            break;
        if (off + n > len || memcmp(buf, data + off, n) != 0) {
            same = false;
            break;
        }
        off += n;
    }
    same = same && !ferror(f) && off == len;
    fclose(f);
    return same;
}

/* Create the directories leading to `path` that do not exist yet (mkdir -p
 * of its parent), so that `-o DIR` may name a directory still to be made. */
static int make_parents(const char *path, FILE *err)
{
    char *dir = xstrdup(path);
    int rc = 0;
    for (char *p = strchr(dir + 1, '/'); p && rc == 0; p = strchr(p + 1, '/')) {
        *p = '\0';
        struct stat st;
        if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(err, "avrogen: error: cannot create directory '%s': %s\n", dir,
                    strerror(errno));
            rc = -1;
        }
        *p = '/';
    }
    free(dir);
    return rc;
}

/* Write all of `data` to `fd`; 0, or -1 with errno set. */
static int write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        off += (size_t)n;
    }
    return 0;
}

/* A FIFO or a character device: written as it is, never read, never replaced. */
static int write_stream(const struct gen_output *out, const char *target, FILE *err)
{
    int fd = outfile_open_stream(target);
    if (fd < 0) {
        fprintf(err, "avrogen: error: cannot open '%s': %s\n", out->path, strerror(errno));
        return -1;
    }
    int rc = write_all(fd, out->data, out->len);
    int saved = errno;
    if (close(fd) != 0 && rc == 0)
        rc = -1, saved = errno;
    if (rc != 0)
        fprintf(err, "avrogen: error: cannot write '%s': %s\n", out->path, strerror(saved));
    return rc;
}

/* A new or regular file (`target`, where out->path's symbolic links end):
 * temp file beside it, renamed over it, unless its bytes are already these. */
static int write_file(const struct gen_output *out, const char *target, FILE *err)
{
    if (file_equals(target, out->data, out->len))
        return 0;
    if (make_parents(target, err) != 0)
        return -1;
    char *tmp = xasprintf("%s.tmp.%ld", target, (long)getpid());
    /* open(2) rather than mkstemp so the file gets the usual 0666 & ~umask;
     * the signals are held until the handler knows the name (outfile.h). */
    outfile_temp_begin();
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int saved = errno;
    if (fd >= 0)
        outfile_temp_set(tmp);
    outfile_temp_end();
    if (fd < 0) {
        fprintf(err, "avrogen: error: cannot create '%s': %s\n", tmp, strerror(saved));
        free(tmp);
        return -1;
    }
    int rc = write_all(fd, out->data, out->len);
    saved = errno;
    if (close(fd) != 0 && rc == 0)
        rc = -1, saved = errno;
    if (rc != 0) {
        fprintf(err, "avrogen: error: cannot write '%s': %s\n", tmp, strerror(saved));
    } else if (rename(tmp, target) != 0) {
        fprintf(err, "avrogen: error: cannot rename '%s' to '%s': %s\n", tmp, target,
                strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(tmp);
    outfile_temp_clear();
    free(tmp);
    return rc;
}

static int write_one(const struct gen_output *out, FILE *err)
{
    /* The folders first, so that a path under a file says which folder failed. */
    if (make_parents(out->path, err) != 0)
        return -1;
    struct outfile of;
    if (outfile_resolve(out->path, &of) != 0) {
        fprintf(err, "avrogen: error: cannot write '%s': %s\n", out->path, strerror(errno));
        return -1;
    }
    int rc;
    if (of.kind == OUTFILE_REFUSED) {
        fprintf(err,
                "avrogen: error: cannot write '%s': it is %s, not a file, a FIFO or a character "
                "device\n",
                out->path, of.refused);
        rc = -1;
    } else if (of.kind == OUTFILE_STREAM) {
        rc = write_stream(out, of.target, err);
    } else {
        rc = write_file(out, of.target, err);
    }
    outfile_fini(&of);
    return rc;
}

int gen_outputs_write(const struct gen_outputs *o, FILE *err)
{
    for (size_t i = 0; i < o->n; i++)
        if (write_one(&o->v[i], err) != 0)
            return -1;
    return 0;
}
