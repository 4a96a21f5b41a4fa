/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen's side of the Java and Go interop tests (java_peer.py, go_peer.py),
 * in one process per batch: the peers' answers come in batches too, and one
 * avrogen CLI run per schema, pair or file would cost most of the test's time
 * loading the tool. The same runtime calls the CLI makes (`avrogen
 * canonical`, `fingerprint`, `compat`, `cat`); the tests also run the CLI on
 * a sample to show it agrees.
 *
 *   peer_tool canon TASKS RESULTS    a task: SCHEMA; result: ok PCF CRC64 MD5 SHA256
 *                                    (hex; CRC-64-AVRO little-endian, as `fingerprint`)
 *   peer_tool compat TASKS RESULTS   a task: READER WRITER; result: ok compatible, or
 *                                    ok incompatible KIND@PATH..., as `compat`
 *   peer_tool read TASKS RESULTS     a task: IN.avro OUT.frames OUT.jsonl; every datum
 *                                    decoded as a value of the file's schema, written
 *                                    back in binary (frames: 4-byte big-endian length,
 *                                    bytes) and as JSON lines; result: ok CODEC COUNT,
 *                                    or error N MESSAGE after N datums
 *
 * Tasks and results are lines of tab-separated fields, one result per task, in
 * order; a task that fails gives "error MESSAGE". Exit status: 0 when every
 * task got its result line (whatever it says), 1 otherwise, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/arena.h"
#include "avrogen/compat.h"
#include "avrogen/ocf.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

enum { MAX_FIELDS = 3 };

static void hex(FILE *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%02x", b[i]);
}

static void put_error(FILE *out, const char *what, const avrogen_diag *d, avrogen_status st)
{
    fprintf(out, "error\t%s: %s%s%s\n", what, d->path[0] != '\0' ? d->path : "",
            d->path[0] != '\0' ? ": " : "", d->msg[0] != '\0' ? d->msg : avrogen_status_str(st));
}

static avrogen_schema *load(FILE *out, const char *path)
{
    avrogen_schema *s;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_schema_parse_file(path, NULL, &s, &d);
    if (st != AVROGEN_OK) {
        put_error(out, path, &d, st);
        return NULL;
    }
    return s;
}

static void canon(FILE *out, char **t)
{
    avrogen_schema *s = load(out, t[0]);
    if (s == NULL)
        return;
    const char *pcf = avrogen_schema_canonical(s);
    uint64_t fp = avrogen_schema_fingerprint64(s);
    uint8_t crc[8], md5[16], sha[32];
    for (int i = 0; i < 8; i++)
        crc[i] = (uint8_t)(fp >> (8 * i));
    if (!avrogen_md5(pcf, strlen(pcf), md5) || !avrogen_sha256(pcf, strlen(pcf), sha)) {
        fputs("error\tlibcrypto failed\n", out);
    } else {
        fprintf(out, "ok\t%s\t", pcf);
        hex(out, crc, sizeof crc);
        fputc('\t', out);
        hex(out, md5, sizeof md5);
        fputc('\t', out);
        hex(out, sha, sizeof sha);
        fputc('\n', out);
    }
    avrogen_schema_free(s);
}

static void compat(FILE *out, char **t)
{
    avrogen_schema *r = load(out, t[0]);
    avrogen_schema *w = r != NULL ? load(out, t[1]) : NULL;
    avrogen_compat_report *rep = NULL;
    if (w != NULL) {
        avrogen_status st =
                avrogen_compat_check(avrogen_schema_root(r), avrogen_schema_root(w), NULL, &rep);
        if (st != AVROGEN_OK) {
            fprintf(out, "error\t%s\n", avrogen_status_str(st));
        } else {
            size_t n = avrogen_compat_count(rep);
            fputs(n == 0 ? "ok\tcompatible" : "ok\tincompatible", out);
            for (size_t i = 0; i < n; i++) {
                const avrogen_incompatibility *x = avrogen_compat_at(rep, i);
                fprintf(out, "\t%s@%s", avrogen_incompat_name(x->kind), x->reader_path);
            }
            fputc('\n', out);
        }
    }
    avrogen_compat_free(rep);
    avrogen_schema_free(w);
    avrogen_schema_free(r);
}

static bool put_frame(FILE *f, const avrogen_writer *w)
{
    size_t n = avrogen_writer_len(w);
    uint8_t head[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    return fwrite(head, 1, 4, f) == 4 && fwrite(avrogen_writer_data(w), 1, n, f) == n;
}

static void read_file(FILE *out, char **t)
{
    avrogen_ocf_reader *r;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_ocf_reader_open(t[0], NULL, &r, &d);
    if (st != AVROGEN_OK) {
        fprintf(out, "error\t0\t%s\n", d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
        return;
    }
    FILE *frames = fopen(t[1], "wb"), *json = fopen(t[2], "wb");
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_writer bin, text;
    avrogen_writer_init_growable(&bin, NULL);
    avrogen_writer_init_growable(&text, NULL);
    unsigned long long count = 0;
    bool ok = frames != NULL && json != NULL;
    const char *why = ok ? NULL : "cannot open the outputs";
    while (ok) {
        avrogen_value v;
        bool got;
        avrogen_arena_reset(&arena);
        if (avrogen_ocf_reader_next_value(r, NULL, &v, &arena, &got) != AVROGEN_OK || !got)
            break;
        avrogen_writer_reset(&bin);
        avrogen_writer_reset(&text);
        if (avrogen_value_encode(&bin, &v) != AVROGEN_OK ||
            avrogen_value_to_json(&text, &v, 0) != AVROGEN_OK) {
            ok = false;
            why = "cannot encode a datum it decoded";
            break;
        }
        avrogen_write_raw(&text, "\n", 1);
        ok = text.err == AVROGEN_OK && put_frame(frames, &bin) &&
             fwrite(avrogen_writer_data(&text), 1, avrogen_writer_len(&text), json) ==
                     avrogen_writer_len(&text);
        why = ok ? NULL : "cannot write the outputs";
        count += ok;
    }
    if (frames != NULL && fclose(frames) != 0 && ok)
        ok = false, why = "cannot write the outputs";
    if (json != NULL && fclose(json) != 0 && ok)
        ok = false, why = "cannot write the outputs";
    st = avrogen_ocf_reader_error(r, &d);
    if (why != NULL)
        fprintf(out, "error\t%llu\t%s\n", count, why);
    else if (st != AVROGEN_OK)
        fprintf(out, "error\t%llu\t%s\n", count, d.msg[0] != '\0' ? d.msg : avrogen_status_str(st));
    else
        fprintf(out, "ok\t%s\t%llu\n", avrogen_ocf_reader_codec(r), count);
    avrogen_writer_fini(&text);
    avrogen_writer_fini(&bin);
    avrogen_arena_fini(&arena);
    avrogen_ocf_reader_close(r);
}

int main(int argc, char **argv)
{
    struct {
        const char *name;
        int fields;
        void (*run)(FILE *, char **);
    } cmds[] = {{"canon", 1, canon}, {"compat", 2, compat}, {"read", 3, read_file}};
    size_t c = 0;
    while (argc == 4 && c < sizeof cmds / sizeof cmds[0] && strcmp(argv[1], cmds[c].name) != 0)
        c++;
    if (argc != 4 || c == sizeof cmds / sizeof cmds[0]) {
        fprintf(stderr, "usage: peer_tool canon|compat|read TASKS RESULTS\n");
        return 2;
    }
    FILE *in = fopen(argv[2], "r"), *out = fopen(argv[3], "w");
    if (in == NULL || out == NULL) {
        fprintf(stderr, "peer_tool: cannot open %s or %s\n", argv[2], argv[3]);
        return 1;
    }
    char line[8192];
    bool ok = true;
    while (ok && fgets(line, sizeof line, in) != NULL) {
        size_t len = strlen(line);
        ok = len > 0 && line[len - 1] == '\n';
        line[len - 1] = '\0';
        char *t[MAX_FIELDS], *p = line;
        int n = 0;
        while (n < MAX_FIELDS) {
            t[n++] = p;
            if ((p = strchr(p, '\t')) == NULL)
                break;
            *p++ = '\0';
        }
        ok = ok && p == NULL && n == cmds[c].fields;
        if (ok)
            cmds[c].run(out, t);
        else
            fprintf(stderr, "peer_tool: bad task line '%s'\n", line);
    }
    ok = fclose(out) == 0 && ok;
    fclose(in);
    return ok ? 0 : 1;
}
