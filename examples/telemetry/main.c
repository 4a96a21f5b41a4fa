/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A telemetry gateway's day in one program: it fills the C structs of
 * telemetry.h with a batch of device reports, encodes the batch as one Avro
 * datum with the code avrogen generated (telemetry.avro.h), prints the schema
 * avrogen derived, decodes the bytes back and checks that every field came
 * through, then lets avro-c, knowing nothing but that schema, read the same
 * bytes, print them as JSON and write them again, byte for byte.
 *
 * Exit status 0 when all of that holds, 1 with a message otherwise.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avro.h>

#include "telemetry.avro.h" /* generated; includes telemetry.h */

static int failures;

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "telemetry: MISMATCH: %s\n", what);
        failures++;
    }
}

/* ---- a batch, as the gateway would assemble it ---------------------------- */

static struct geo_point rooftop = {.lat = 52.5200, .lon = 13.4050, .alt_m = 34.5f};

static struct sample roof_samples[] = {
        {METRIC_TEMPERATURE, 21.5, INT64_C(1700000000000)},
        {METRIC_HUMIDITY, 48.0, INT64_C(1700000000000)},
        {METRIC_BATTERY, 3.71, INT64_C(1700000005000)},
};
static struct label roof_labels[] = {{"site", "berlin-1"}, {"rack", "r7"}};

static struct sample cellar_samples[] = {
        {METRIC_PRESSURE, 1013.25, INT64_C(1700000001000)},
};

static struct device_report reports[] = {
        {
                .device_id = "roof-01",
                .serial = "RF01-7731-AB", /* all 12 bytes are text: no NUL in the struct */
                .seq = 4294967295u,       /* the largest uint32_t: an Avro long carries it */
                .booted = 1699990000,
                .received_at = {.tv_sec = 1700000006, .tv_nsec = 123456789},
                .rssi_dbm = {-61, -64, -59},
                .n_rssi = 3, /* the fourth slot is not sent */
                .position = &rooftop,
                .firmware = "2.4.1",
                .samples = roof_samples,
                .n_samples = sizeof roof_samples / sizeof *roof_samples,
                .labels = roof_labels,
                .n_labels = sizeof roof_labels / sizeof *roof_labels,
        },
        {
                .device_id = "cellar-02",
                .serial = "CL02",
                .seq = 17,
                .booted = 1699000000,
                .received_at = {.tv_sec = 1700000006, .tv_nsec = 500000000},
                .position = NULL, /* no GPS fix underground: null on the wire */
                .firmware = NULL,
                .samples = cellar_samples,
                .n_samples = sizeof cellar_samples / sizeof *cellar_samples,
        },
        {.device_id = "spare-03", .seq = 0}, /* silent: empty array, empty map */
};

static const telemetry_batch batch = {
        .gateway = "gw-eu-central",
        .sent_at_us = INT64_C(1700000006000000),
        .reports = reports,
        .n_reports = sizeof reports / sizeof *reports,
};

/* ---- the decoded batch must equal the one encoded ------------------------- */

static bool same_str(const char *a, const char *b)
{
    return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

static void compare_report(const struct device_report *want, const struct device_report *got)
{
    check(same_str(want->device_id, got->device_id), "device_id");
    check(strncmp(want->serial, got->serial, sizeof want->serial) == 0, "serial");
    check(want->seq == got->seq, "seq");
    check(want->booted == got->booted, "booted");
    check(want->received_at.tv_sec == got->received_at.tv_sec &&
                  want->received_at.tv_nsec == got->received_at.tv_nsec,
          "received_at");
    check(want->n_rssi == got->n_rssi, "number of rssi readings");
    for (size_t i = 0; i < want->n_rssi && i < got->n_rssi; i++)
        check(want->rssi_dbm[i] == got->rssi_dbm[i], "rssi reading");
    check((want->position == NULL) == (got->position == NULL), "position present");
    if (want->position && got->position) {
        check(want->position->lat == got->position->lat, "position.lat");
        check(want->position->lon == got->position->lon, "position.lon");
        check(want->position->alt_m == got->position->alt_m, "position.altitudeMeters");
    }
    check(same_str(want->firmware, got->firmware), "firmware");
    check(want->n_samples == got->n_samples, "number of samples");
    for (size_t i = 0; i < want->n_samples && i < got->n_samples; i++) {
        check(want->samples[i].metric == got->samples[i].metric, "sample metric");
        check(want->samples[i].value == got->samples[i].value, "sample value");
        check(want->samples[i].at_ms == got->samples[i].at_ms, "sample at_ms");
    }
    check(want->n_labels == got->n_labels, "number of labels");
    for (size_t i = 0; i < want->n_labels && i < got->n_labels; i++) {
        check(same_str(want->labels[i].key, got->labels[i].key), "label key");
        check(same_str(want->labels[i].value, got->labels[i].value), "label value");
    }
}

static void compare_batch(const telemetry_batch *want, const telemetry_batch *got)
{
    check(same_str(want->gateway, got->gateway), "gateway");
    check(want->sent_at_us == got->sent_at_us, "sent_at_us");
    check(want->n_reports == got->n_reports, "number of reports");
    for (size_t i = 0; i < want->n_reports && i < got->n_reports; i++)
        compare_report(&want->reports[i], &got->reports[i]);
}

/* ---- avro-c reads the same bytes ------------------------------------------ */

static int avro_c_roundtrip(const uint8_t *data, size_t len)
{
    avro_schema_t schema;
    const char *text = avrogen_type_schema(&telemetry_batch_avro_type);
    if (text == NULL || avro_schema_from_json_length(text, strlen(text), &schema) != 0) {
        fprintf(stderr, "telemetry: avro-c rejects the schema: %s\n", avro_strerror());
        return 1;
    }
    avro_value_iface_t *iface = avro_generic_class_from_schema(schema);
    avro_value_t value;
    avro_generic_value_new(iface, &value);

    int rc = 1;
    avro_reader_t reader = avro_reader_memory((const char *)data, (int64_t)len);
    if (avro_value_read(reader, &value) != 0) {
        fprintf(stderr, "telemetry: avro-c cannot decode the batch: %s\n", avro_strerror());
        goto out;
    }
    char *json = NULL;
    if (avro_value_to_json(&value, 1, &json) == 0) {
        printf("%s\n", json);
        free(json);
    }

    /* Written again by avro-c, the datum is the same bytes. */
    size_t size = 0;
    char *again = NULL;
    if (avro_value_sizeof(&value, &size) != 0 || (again = malloc(size + 1)) == NULL) {
        fprintf(stderr, "telemetry: avro-c cannot size the batch: %s\n", avro_strerror());
        goto out;
    }
    avro_writer_t writer = avro_writer_memory(again, (int64_t)size);
    if (avro_value_write(writer, &value) == 0) {
        check(size == len && memcmp(again, data, len) == 0, "avro-c re-encodes other bytes");
        rc = 0;
    } else {
        fprintf(stderr, "telemetry: avro-c cannot encode the batch: %s\n", avro_strerror());
    }
    avro_writer_free(writer);
    free(again);
out:
    avro_reader_free(reader);
    avro_value_decref(&value);
    avro_value_iface_decref(iface);
    avro_schema_decref(schema);
    return rc;
}

int main(void)
{
    printf("== the schema avrogen derived from telemetry.h (CRC-64-AVRO %016" PRIx64 ")\n%s",
           (uint64_t)TELEMETRY_BATCH_AVRO_FINGERPRINT,
           avrogen_type_schema(&telemetry_batch_avro_type));

    /* Encode: the writer grows; the generated code never allocates on its own. */
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    if (telemetry_batch_avro_encode(&w, &batch) != AVROGEN_OK) {
        fprintf(stderr, "telemetry: encode: %s\n", avrogen_status_str(w.err));
        return 1;
    }
    const uint8_t *data = avrogen_writer_data(&w);
    size_t len = avrogen_writer_len(&w);
    printf("== encoded: %zu reports in %zu bytes\n", batch.n_reports, len);
    check(telemetry_batch_avro_size(&batch) == len, "avro_size differs from the bytes written");

    /* Decode: arrays, maps and strings come from the arena, freed in one call. */
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_reader r;
    avrogen_reader_init(&r, data, len);
    telemetry_batch back;
    if (telemetry_batch_avro_decode(&r, &back, &arena) != AVROGEN_OK) {
        fprintf(stderr, "telemetry: decode: %s at byte %zu: %s\n", avrogen_status_str(r.err),
                r.err_offset, r.err_msg ? r.err_msg : "");
        return 1;
    }
    check(avrogen_reader_remaining(&r) == 0, "bytes left over after the batch");
    compare_batch(&batch, &back);
    printf("== decoded by avrogen: %s\n", failures ? "MISMATCH" : "equal to what was sent");
    avrogen_arena_fini(&arena);

    printf("== decoded by avro-c, as JSON\n");
    if (avro_c_roundtrip(data, len) != 0)
        failures++;
    avrogen_writer_fini(&w);

    printf("== %s\n", failures ? "FAILED" : "round trip ok");
    return failures ? 1 : 0;
}
