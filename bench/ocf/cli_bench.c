/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command line on big container files (issue 15, item 3): `avrogen cat`,
 * `validate` and `count` on each FILE, beside what they cannot beat:
 *
 *   blocks      the container and its codec alone: every block read,
 *               decompressed and handed back (next_block), nothing decoded
 *   decode      every datum decoded into generic values (next_value, an arena
 *               reset per record): what cat does before any JSON is made
 *   cat         avrogen cat FILE > /dev/null (a child process)
 *   validate    avrogen validate FILE
 *   count       avrogen count FILE: block headers only
 *
 * One run of each, timed with CLOCK_MONOTONIC (wall) and getrusage (CPU:
 * user + system, which a busy machine inflates less); MB/s of the file's bytes
 * and of the datums' uncompressed bytes. For the commands, the pages the child
 * touched (minor + major faults): count touches the pages holding block
 * headers, not the payloads. Each command's output is checked (cat's line
 * count, validate's and count's record counts) against the decode pass.
 *
 *     cli_bench AVROGEN FILE...
 *
 * bench/ocf/cli_run makes the files (1,000,000 Order records with the null,
 * deflate and zstandard codecs, ocf_bench --files-only) and runs this.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avrogen/ocf.h>
#include <avrogen/value.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct timing {
    double wall_ms, cpu_ms;
    long pages; /* faults, for child processes */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(const struct rusage *u)
{
    return (double)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) * 1e3 +
           (double)(u->ru_utime.tv_usec + u->ru_stime.tv_usec) / 1e3;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "cli_bench: %s: %s\n", what, msg != NULL ? msg : "failed");
    exit(1);
}

/* In-process: blocks only (decode false) or every datum decoded. Counts records and bytes. */
static struct timing read_file(const char *path, bool decode, uint64_t *records, uint64_t *bytes)
{
    struct rusage u0, u1;
    getrusage(RUSAGE_SELF, &u0);
    double t = now_ms();
    avrogen_diag d;
    avrogen_ocf_reader *r;
    if (avrogen_ocf_reader_open(path, NULL, &r, &d) != AVROGEN_OK)
        die(path, d.msg);
    *records = *bytes = 0;
    if (decode) {
        avrogen_arena arena;
        avrogen_arena_init(&arena, NULL);
        avrogen_value v;
        bool got;
        for (;;) {
            avrogen_arena_reset(&arena);
            if (avrogen_ocf_reader_next_value(r, NULL, &v, &arena, &got) != AVROGEN_OK || !got)
                break;
            ++*records;
        }
        avrogen_arena_fini(&arena);
    } else {
        uint64_t n;
        avrogen_reader block;
        while (avrogen_ocf_reader_next_block(r, &n, &block) == AVROGEN_OK && n != 0) {
            *records += n;
            *bytes += avrogen_reader_remaining(&block);
        }
    }
    if (avrogen_ocf_reader_error(r, &d) != AVROGEN_OK)
        die(path, d.msg);
    avrogen_ocf_reader_close(r);
    struct timing out = {now_ms() - t, 0, 0};
    getrusage(RUSAGE_SELF, &u1);
    out.cpu_ms = cpu_ms(&u1) - cpu_ms(&u0);
    return out;
}

/*
 * Run `avrogen VERB FILE` with stdout into `out_path` (/dev/null for cat);
 * its time, CPU and page faults.
 */
static struct timing run(const char *avrogen, const char *verb, const char *path,
                         const char *out_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    char *argv[] = {strdup(avrogen), strdup(verb), strdup(path), NULL};
    pid_t pid;
    struct rusage u0, u1;
    getrusage(RUSAGE_CHILDREN, &u0);
    double t = now_ms();
    if (argv[2] == NULL || posix_spawn(&pid, avrogen, &fa, NULL, argv, environ) != 0)
        die(avrogen, "cannot run");
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        die(verb, "the command failed");
    double wall = now_ms() - t;
    getrusage(RUSAGE_CHILDREN, &u1);
    struct timing out = {wall, cpu_ms(&u1) - cpu_ms(&u0),
                         (u1.ru_minflt + u1.ru_majflt) - (u0.ru_minflt + u0.ru_majflt)};
    posix_spawn_file_actions_destroy(&fa);
    for (int i = 0; i < 3; i++)
        free(argv[i]);
    return out;
}

/* The first number in the file at `path` (count's and validate's outputs). */
static uint64_t first_number(const char *path, const char *after)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    uint64_t n = UINT64_MAX;
    if (f != NULL && fgets(line, sizeof line, f) != NULL) {
        const char *p = after != NULL ? strstr(line, after) : line;
        if (p != NULL)
            n = strtoull(p + (after != NULL ? strlen(after) : 0), NULL, 10);
    }
    if (f != NULL)
        fclose(f);
    return n;
}

/* The lines cat prints, from a second (untimed) run into wc. */
static uint64_t cat_lines(const char *avrogen, const char *path)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' cat '%s' | wc -l", avrogen, path);
    FILE *p = popen(cmd, "r");
    uint64_t n = UINT64_MAX;
    if (p == NULL || fscanf(p, "%" SCNu64, &n) != 1)
        n = UINT64_MAX;
    if (p != NULL)
        pclose(p);
    return n;
}

static void row(const char *file, const char *op, struct timing t, double file_mb, double data_mb,
                double base_cpu, const char *note)
{
    char ratio[32] = "-", pages[32] = "-";
    if (base_cpu > 0)
        snprintf(ratio, sizeof ratio, "%.2f", t.cpu_ms / base_cpu);
    if (t.pages > 0)
        snprintf(pages, sizeof pages, "%ld", t.pages);
    printf("| %s | %s | %.1f | %.1f | %.0f | %.0f | %s | %s | %s |\n", file, op, t.wall_ms,
           t.cpu_ms, file_mb / (t.cpu_ms / 1e3), data_mb / (t.cpu_ms / 1e3), ratio, pages, note);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s AVROGEN FILE...\n", argv[0]);
        return 2;
    }
    const char *avrogen = argv[1];
    char tmp[] = "/tmp/cli_bench-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        die("mkstemp", NULL);
    close(fd);
    printf("| file | op | wall ms | CPU ms | file MB/s | data MB/s | CPU / decode | pages | "
           "checked |\n|---|---|--:|--:|--:|--:|--:|--:|---|\n");
    for (int i = 2; i < argc; i++) {
        const char *path = argv[i];
        struct stat st;
        if (stat(path, &st) != 0)
            die(path, "cannot stat");
        const char *name = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
        uint64_t n_blocks_records, data_bytes, n_decoded, ignored;
        struct timing blocks = read_file(path, false, &n_blocks_records, &data_bytes);
        struct timing decode = read_file(path, true, &n_decoded, &ignored);
        if (n_decoded != n_blocks_records)
            die(path, "blocks and datums disagree");
        double file_mb = (double)st.st_size / 1e6, data_mb = (double)data_bytes / 1e6;
        struct timing cat = run(avrogen, "cat", path, "/dev/null");
        struct timing validate = run(avrogen, "validate", path, tmp);
        char want[128];
        snprintf(want, sizeof want, "%" PRIu64 " records", n_decoded);
        bool validate_ok = first_number(tmp, ": ok, ") == n_decoded;
        struct timing count = run(avrogen, "count", path, tmp);
        bool count_ok = first_number(tmp, NULL) == n_decoded;
        bool cat_ok = cat_lines(avrogen, path) == n_decoded;
        if (!validate_ok || !count_ok || !cat_ok)
            die(path, "a command's output does not match the file");
        row(name, "blocks (codec alone)", blocks, file_mb, data_mb, decode.cpu_ms, want);
        row(name, "decode (generic values)", decode, file_mb, data_mb, decode.cpu_ms, want);
        row(name, "avrogen cat > /dev/null", cat, file_mb, data_mb, decode.cpu_ms, "lines");
        row(name, "avrogen validate", validate, file_mb, data_mb, decode.cpu_ms, "ok, records");
        row(name, "avrogen count", count, file_mb, data_mb, decode.cpu_ms, "records");
        printf("| %s | (file pages) | | | | | | %lld | %.1f MB file, %.1f MB of datums |\n", name,
               (long long)((st.st_size + 4095) / 4096), file_mb, data_mb);
        fflush(stdout);
    }
    unlink(tmp);
    return 0;
}
