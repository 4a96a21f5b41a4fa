/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What an output path is, and the temporary file a fatal signal removes
 * (outfile.h). Used by cli/util.c and gen/outputs.c alike, so that both
 * writers follow one rule.
 */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* The links followed before giving up with ELOOP, as the kernel does. */
#define MAX_LINKS 40

/* What the symbolic link `link` points at, as a path usable from here: a
 * relative target is relative to the link's folder. NULL with errno set. */
static char *link_target(const char *link)
{
    size_t cap = 256;
    char *buf = NULL;
    ssize_t n;
    for (;;) {
        char *grown = realloc(buf, cap);
        if (grown == NULL) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = grown;
        n = readlink(link, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap)
            break;
        cap *= 2;
    }
    buf[n] = '\0';
    const char *slash = strrchr(link, '/');
    if (buf[0] == '/' || slash == NULL)
        return buf;
    size_t dir = (size_t)(slash - link) + 1;
    char *joined = malloc(dir + (size_t)n + 1);
    if (joined == NULL) {
        free(buf);
        errno = ENOMEM;
        return NULL;
    }
    memcpy(joined, link, dir);
    memcpy(joined + dir, buf, (size_t)n + 1);
    free(buf);
    return joined;
}

int outfile_resolve(const char *path, struct outfile *o)
{
    memset(o, 0, sizeof *o);
    char *p = strdup(path);
    if (p == NULL) {
        errno = ENOMEM;
        return -1;
    }
    for (int links = 0;; links++) {
        struct stat st;
        if (lstat(p, &st) != 0) {
            if (errno != ENOENT)
                goto fail;
            o->kind = OUTFILE_NEW;
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            char *next = links == MAX_LINKS ? (errno = ELOOP, NULL) : link_target(p);
            if (next == NULL)
                goto fail;
            free(p);
            p = next;
            continue;
        }
        o->mode = st.st_mode;
        if (S_ISREG(st.st_mode)) {
            o->kind = OUTFILE_REGULAR;
        } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            o->kind = OUTFILE_STREAM;
        } else {
            o->kind = OUTFILE_REFUSED;
            o->refused = S_ISDIR(st.st_mode)    ? "a directory"
                         : S_ISSOCK(st.st_mode) ? "a socket"
                         : S_ISBLK(st.st_mode)  ? "a block device"
                                                : "not a file";
        }
        break;
    }
    o->target = p;
    return 0;
fail:;
    int err = errno;
    free(p);
    errno = err;
    return -1;
}

void outfile_fini(struct outfile *o)
{
    free(o->target);
    o->target = NULL;
}

int outfile_open_stream(const char *target)
{
    return open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

/* ---- the temporary file and the fatal signals ---------------------------------------- */

static char pending[4096];
static volatile sig_atomic_t pending_set;

/* What each signal did before our handler, called after it (another copy of
 * this file in the process, the generator module's or the binary's, or a
 * handler of the host). */
#define MAX_SIGNAL 65
static struct sigaction previous[MAX_SIGNAL];
static bool caught[MAX_SIGNAL];

/* Every signal whose default action ends the process, SIGBUS aside (outfile.h). */
static const int fixed_signals[] = {
        SIGHUP,    SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT, SIGFPE,    SIGUSR1, SIGSEGV,
        SIGUSR2,   SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
#ifdef SIGIO
        SIGIO,
#endif
#ifdef SIGPWR
        SIGPWR,
#endif
};

void outfile_temp_remove(void)
{
    if (pending_set) {
        unlink(pending);
        pending_set = 0;
    }
}

static void on_fatal(int sig, siginfo_t *info, void *uctx)
{
    /* The kernel's SIGPIPE for our own write to a pipe without a reader says
     * SI_USER from this process: let the write fail with EPIPE instead. */
    if (sig == SIGPIPE && info != NULL && info->si_code == SI_USER && info->si_pid == getpid())
        return;
    int saved = errno;
    outfile_temp_remove();
    const struct sigaction *p = &previous[sig];
    if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction != NULL) {
        p->sa_sigaction(sig, info, uctx);
    } else if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL &&
               p->sa_handler != SIG_IGN) {
        p->sa_handler(sig);
    } else {
        /* Blocked while we run: the default action comes as we return. */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    errno = saved;
}

static void catch_one(int sig)
{
    if (sig <= 0 || sig >= MAX_SIGNAL || caught[sig])
        return;
    caught[sig] = true;
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0 ||
        (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN))
        return; /* an ignored signal stays ignored (nohup) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    previous[sig] = old;
    sigaction(sig, &sa, NULL);
}

void outfile_signals_catch(void)
{
    for (size_t i = 0; i < sizeof fixed_signals / sizeof *fixed_signals; i++)
        catch_one(fixed_signals[i]);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        catch_one(sig);
}

static sigset_t held_mask;

void outfile_temp_begin(void)
{
    outfile_signals_catch();
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &held_mask);
}

void outfile_temp_set(const char *tmp)
{
    size_t len = strlen(tmp);
    if (len >= sizeof pending)
        return;
    memcpy(pending, tmp, len + 1);
    pending_set = 1;
}

void outfile_temp_end(void)
{
    sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

void outfile_temp_clear(void)
{
    pending_set = 0;
}
