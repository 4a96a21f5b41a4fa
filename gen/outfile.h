/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What an output path is, and the temporary file a fatal signal removes: the
 * rule both writers follow (cli/util.c's cli_out for the data verbs, and
 * gen/outputs.c for `-o DIR`, --depfile and --manifest), docs/DESIGN.md
 * (Command line, "Output files"). In gen/'s base so that the CLI links it
 * without the generator (avrogen_outfile, a library of this file alone).
 *
 * - A path that does not exist, or a regular file, is written as a temporary
 *   file beside it and renamed over it.
 * - A symbolic link is followed (the whole chain, as open(2) would): the
 *   temporary file is made beside the file it ends at, which is replaced or
 *   created; the link stays a link, pointing where it did.
 * - A character device or a FIFO is opened and written as it is
 *   (O_WRONLY | O_NOCTTY, never truncated, never read, never renamed over),
 *   as `cat > /dev/null` writes.
 * - Anything else (a directory, a socket, a block device) is refused.
 */
#ifndef AVROGEN_GEN_OUTFILE_H
#define AVROGEN_GEN_OUTFILE_H

#include <stdbool.h>

#include <sys/types.h>

enum outfile_kind {
    OUTFILE_NEW,     /* nothing there yet: create it (temporary file, rename) */
    OUTFILE_REGULAR, /* a regular file: replace it (temporary file, rename) */
    OUTFILE_STREAM,  /* a character device or a FIFO: open and write it as it is */
    OUTFILE_REFUSED, /* a directory, a socket, a block device: no output */
};

struct outfile {
    enum outfile_kind kind;
    char *target;        /* malloc'd: the path at the end of any symbolic links */
    mode_t mode;         /* the target's st_mode when it exists, else 0 */
    const char *refused; /* OUTFILE_REFUSED: what the target is ("a directory") */
};

/*
 * Classify `path` (lstat, following symbolic links by hand so that a dangling
 * one names the file to create). 0, or -1 with errno set (ELOOP, ENOMEM, an
 * lstat or readlink error); outfile_fini() frees what 0 filled.
 */
int outfile_resolve(const char *path, struct outfile *o);
void outfile_fini(struct outfile *o);

/* Open an OUTFILE_STREAM target for writing: a descriptor, or -1 with errno set. */
int outfile_open_stream(const char *target);

/*
 * The temporary file a fatal signal removes (one at a time: each writer has at
 * most one open). outfile_temp_begin() blocks the fatal signals and installs
 * the handlers (once); create the file, then outfile_temp_set() its name (or
 * not, when creating failed) and outfile_temp_end() restores the mask, so no
 * signal can come between the file and the handler knowing it.
 * outfile_temp_clear() once it is renamed or removed.
 *
 * The handlers cover every signal whose default action ends the process
 * (SIGBUS aside: cli/util.c owns it for mapped inputs and calls
 * outfile_temp_remove()), but only where the process had the default: an
 * ignored signal stays ignored and a handler already there is called after
 * ours. They remove the file, then the signal takes its default course. A
 * SIGPIPE the kernel sends the process for its own write to a pipe nobody
 * reads is not fatal: the write fails with EPIPE and the caller reports it
 * as any write error.
 */
void outfile_signals_catch(void);
void outfile_temp_begin(void);
void outfile_temp_set(const char *tmp);
void outfile_temp_end(void);
void outfile_temp_clear(void);
/* Remove the temporary file now, if there is one; async-signal-safe. */
void outfile_temp_remove(void);

#endif /* AVROGEN_GEN_OUTFILE_H */
