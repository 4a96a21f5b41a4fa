/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the data half of the `avrogen header` round trip for many schemas in one
 * executable (roundtrip.py links every schema's driver.c object into it):
 *   roundtrip_data DIR ID...
 * runs case ID on DIR/ID.bin in a child process of its own (a crash is that
 * case's failure, not the others') and prints "ID ok SUMMARY" or "ID FAIL WHY".
 * CASES names a file of CASE(ID) lines.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>
#include <unistd.h>

#define CASE(id) \
    int avrogen_case_##id(const unsigned char *buf, size_t len, char *msg, size_t size);
#include CASES
#undef CASE

static const struct one_case {
    const char *id;
    int (*run)(const unsigned char *buf, size_t len, char *msg, size_t size);
} cases[] = {
#define CASE(id) {#id, avrogen_case_##id},
#include CASES
#undef CASE
};

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *g = realloc(buf, cap * 2);
        if (!g)
            free(buf);
        buf = g;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int run_case(const struct one_case *c, const char *dir)
{
    char path[4096], msg[1024] = "";
    snprintf(path, sizeof path, "%s/%s.bin", dir, c->id);
    size_t len = 0;
    unsigned char *buf = slurp(path, &len);
    if (!buf) {
        printf("%s FAIL cannot read %s\n", c->id, path);
        return 1;
    }
    alarm(60);
    int rc = c->run(buf, len, msg, sizeof msg);
    free(buf);
    printf("%s %s %s\n", c->id, rc == 0 ? "ok" : "FAIL", msg);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: roundtrip_data DIR ID...\n");
        return 2;
    }
    int failed = 0;
    for (int i = 2; i < argc; i++) {
        const struct one_case *c = NULL;
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            if (strcmp(cases[k].id, argv[i]) == 0)
                c = &cases[k];
        if (!c) {
            printf("%s FAIL no such case\n", argv[i]);
            failed = 1;
            continue;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            int rc = run_case(c, argv[1]);
            fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid) {
            printf("%s FAIL cannot run the case\n", c->id);
            failed = 1;
        } else if (WIFSIGNALED(status)) {
            printf("%s FAIL killed by signal %d\n", c->id, WTERMSIG(status));
            failed = 1;
        } else if (WEXITSTATUS(status) != 0) {
            failed = 1;
        }
    }
    return failed;
}
