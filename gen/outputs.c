/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The files a generator run writes (outputs.h): queued in memory, then each
 * written to a temp file in its directory and renamed into place, a file whose
 * bytes did not change left untouched. It knows nothing of what the files are.
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

static int write_one(const struct gen_output *out, FILE *err)
{
    if (file_equals(out->path, out->data, out->len))
        return 0;
    if (make_parents(out->path, err) != 0)
        return -1;
    char *tmp = xasprintf("%s.tmp.%ld", out->path, (long)getpid());
    /* open(2) rather than mkstemp so the file gets the usual 0666 & ~umask. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        fprintf(err, "avrogen: error: cannot create '%s': %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    size_t off = 0;
    while (off < out->len) {
        ssize_t n = write(fd, out->data + off, out->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    int saved = errno;
    if (close(fd) != 0 && off == out->len)
        saved = errno, off = 0;
    if (off != out->len) {
        fprintf(err, "avrogen: error: cannot write '%s': %s\n", tmp, strerror(saved));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, out->path) != 0) {
        fprintf(err, "avrogen: error: cannot rename '%s' to '%s': %s\n", tmp, out->path,
                strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int gen_outputs_write(const struct gen_outputs *o, FILE *err)
{
    for (size_t i = 0; i < o->n; i++)
        if (write_one(&o->v[i], err) != 0)
            return -1;
    return 0;
}
