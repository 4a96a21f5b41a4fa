/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host_dump CONFIG.json SCRATCH_DIR DATUMS: real values of installed headers'
 * structs, encoded with the generated code: the cJSON tree of CONFIG.json,
 * the struct group of this process's group, two inotify events (a file made
 * and removed in SCRATCH_DIR), a HostReport holding them and a PacketSeen (an
 * IPv4 header's bit-fields, the time now as a struct timespec). Each datum is
 * decoded back and compared, then written to DATUMS as one JSON line
 * {"schema": fullname, "hex": bytes, "events": [...]} for python3-avro;
 * "events" is what the C structs held, the one value Python cannot look up
 * (and "packet" the PacketSeen's).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "host.avro.h"

static int fail(const char *what)
{
    fprintf(stderr, "host_dump: %s\n", what);
    return 1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void put_events(FILE *out, const struct inotify_event *ev, size_t n)
{
    fputs("[", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s{\"wd\": %d, \"mask\": %u, \"cookie\": %u, \"len\": %u}", i ? ", " : "",
                ev[i].wd, ev[i].mask, ev[i].cookie, ev[i].len);
    fputs("]", out);
}

static void put_datum(FILE *out, const char *schema, const avrogen_writer *w,
                      const struct inotify_event *ev, size_t n)
{
    fprintf(out, "{\"schema\": \"%s\", \"hex\": \"", schema);
    const uint8_t *p = avrogen_writer_data(w);
    for (size_t i = 0; i < avrogen_writer_len(w); i++)
        fprintf(out, "%02x", p[i]);
    fputs("\", \"events\": ", out);
    put_events(out, ev, n);
    fputs("}\n", out);
}

/* Two events of a file made and removed in dir: the headers, names dropped. */
static int watch(const char *dir, struct inotify_event *ev)
{
    int fd = inotify_init1(IN_NONBLOCK);
    if (fd < 0 || inotify_add_watch(fd, dir, IN_CREATE | IN_DELETE) < 0)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/made.txt", dir);
    int made = open(path, O_CREAT | O_WRONLY, 0600);
    if (made < 0 || close(made) != 0 || unlink(path) != 0)
        return -1;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t len = read(fd, buf, sizeof buf);
    close(fd);
    int n = 0;
    for (ssize_t off = 0; off < len && n < 2;) {
        memcpy(&ev[n], buf + off, sizeof ev[n]);
        off += (ssize_t)(sizeof ev[n] + ev[n].len);
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return fail("usage: host_dump CONFIG.json SCRATCH_DIR DATUMS");
    const char *text = slurp(argv[1]);
    cJSON *config = text ? cJSON_Parse(text) : NULL;
    struct group *owner = getgrgid(getegid());
    struct inotify_event events[2];
    if (config == NULL || owner == NULL)
        return fail("no config or no group");
    if (watch(argv[2], events) != 2)
        return fail("inotify did not report the file made and removed");
    struct host_report report = {*owner, config, events, 2};

    FILE *out = fopen(argv[3], "w");
    if (out == NULL)
        return fail("cannot write the datums");
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_writer w;
    avrogen_reader r;

    /* The configuration tree, and back: cJSON prints the decoded tree alike. */
    avrogen_writer_init_growable(&w, NULL);
    cJSON back;
    if (cJSON_avro_encode(&w, config) != AVROGEN_OK)
        return fail("encode cJSON");
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    if (cJSON_avro_decode(&r, &back, &arena) != AVROGEN_OK)
        return fail("decode cJSON");
    char *a = cJSON_PrintUnformatted(config), *b = cJSON_PrintUnformatted(&back);
    if (a == NULL || b == NULL || strcmp(a, b) != 0)
        return fail("the decoded cJSON tree prints differently");
    cJSON_free(a);
    cJSON_free(b);
    put_datum(out, "org.cjson.JsonNode", &w, events, 0);
    avrogen_writer_fini(&w);

    avrogen_writer_init_growable(&w, NULL);
    struct group g;
    if (group_avro_encode(&w, owner) != AVROGEN_OK)
        return fail("encode group");
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    if (group_avro_decode(&r, &g, &arena) != AVROGEN_OK || strcmp(g.gr_name, owner->gr_name) ||
        g.gr_gid != owner->gr_gid || (g.gr_passwd == NULL) != (owner->gr_passwd == NULL) ||
        g.gr_mem != NULL)
        return fail("the decoded group differs");
    put_datum(out, "posix.Group", &w, events, 0);
    avrogen_writer_fini(&w);

    for (size_t i = 0; i < 2; i++) {
        avrogen_writer_init_growable(&w, NULL);
        struct inotify_event e;
        if (inotify_event_avro_encode(&w, &events[i]) != AVROGEN_OK)
            return fail("encode inotify_event");
        avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
        if (inotify_event_avro_decode(&r, &e, &arena) != AVROGEN_OK || e.wd != events[i].wd ||
            e.mask != events[i].mask || e.cookie != events[i].cookie || e.len != events[i].len)
            return fail("the decoded inotify_event differs");
        put_datum(out, "linux.InotifyEvent", &w, &events[i], 1);
        avrogen_writer_fini(&w);
    }

    avrogen_writer_init_growable(&w, NULL);
    struct host_report rb;
    if (host_report_avro_encode(&w, &report) != AVROGEN_OK ||
        host_report_avro_size(&report) != avrogen_writer_len(&w))
        return fail("encode host_report");
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    if (host_report_avro_decode(&r, &rb, &arena) != AVROGEN_OK || rb.n_events != 2 ||
        rb.events[1].mask != events[1].mask || strcmp(rb.owner.gr_name, owner->gr_name) != 0)
        return fail("the decoded host_report differs");
    put_datum(out, "com.example.host.HostReport", &w, events, 2);
    avrogen_writer_fini(&w);

    struct packet_seen seen, sb;
    memset(&seen, 0, sizeof seen);
    if (clock_gettime(CLOCK_REALTIME, &seen.at) != 0)
        return fail("clock_gettime");
    seen.header.ihl = 5;
    seen.header.version = 4;
    seen.header.tos = 0x10;
    seen.header.tot_len = 1500;
    seen.header.id = 54321;
    seen.header.frag_off = 0x4000;
    seen.header.ttl = 64;
    seen.header.protocol = 6;
    seen.header.check = 0xffff;
    seen.header.saddr = 0x0100007f;
    seen.header.daddr = 0xffffffffu;
    avrogen_writer_init_growable(&w, NULL);
    if (packet_seen_avro_encode(&w, &seen) != AVROGEN_OK)
        return fail("encode packet_seen");
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    if (packet_seen_avro_decode(&r, &sb, &arena) != AVROGEN_OK || sb.at.tv_sec != seen.at.tv_sec ||
        sb.at.tv_nsec != seen.at.tv_nsec || sb.header.ihl != 5 || sb.header.version != 4 ||
        memcmp(&sb.header.tos, &seen.header.tos,
               sizeof seen.header - offsetof(struct iphdr, tos)) != 0)
        return fail("the decoded packet_seen differs");
    fprintf(out, "{\"schema\": \"com.example.host.PacketSeen\", \"hex\": \"");
    for (size_t i = 0; i < avrogen_writer_len(&w); i++)
        fprintf(out, "%02x", avrogen_writer_data(&w)[i]);
    fprintf(out,
            "\", \"events\": [], \"packet\": {\"at\": %lld, \"header\": {\"ihl\": 5, "
            "\"version\": 4, \"tos\": 16, \"tot_len\": 1500, \"id\": 54321, \"frag_off\": "
            "16384, \"ttl\": 64, \"protocol\": 6, \"check\": 65535, \"saddr\": 16777343, "
            "\"daddr\": 4294967295}}}\n",
            (long long)seen.at.tv_sec * 1000000000LL + (long long)seen.at.tv_nsec);
    avrogen_writer_fini(&w);

    avrogen_arena_fini(&arena);
    cJSON_Delete(config);
    if (fclose(out) != 0)
        return fail("cannot write the datums");
    printf("host_dump: 6 datums\n");
    return 0;
}
