/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The messages of a telemetry gateway: devices report samples, the gateway
 * ships them upstream in batches, one Avro datum per batch. These are plain C
 * structs; the annotations only tell avrogen what the Avro schema should say,
 * and expand to nothing for the C compiler.
 */
#ifndef TELEMETRY_H
#define TELEMETRY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <avrogen/annotate.h>

#include "geo.h"

/** What a sample measures. */
enum AVRO_ENUM(name = "Metric", namespace = "com.example.telemetry",
               strip_prefix = "METRIC_") metric {
    METRIC_TEMPERATURE, /**< degrees Celsius */
    METRIC_HUMIDITY,    /**< percent relative humidity */
    METRIC_PRESSURE,    /**< hectopascal */
    METRIC_BATTERY,     /**< volts */
};

/** One measurement. */
struct AVRO_RECORD(name = "Sample", namespace = "com.example.telemetry") sample {
    enum metric metric;
    double value;
    int64_t at_ms AVRO_LOGICAL(timestamp-millis); /**< when it was taken */
};

/* A map entry ({key, value}); it needs no annotation of its own. */
struct label {
    char *key;
    char *value;
};

/** What one device reported since the last batch. */
struct AVRO_RECORD(name = "DeviceReport", namespace = "com.example.telemetry") device_report {
    char *device_id;
    char serial[12] AVRO_PADDED;              /**< as the EEPROM holds it: NUL-padded, all 12 may be used */
    uint32_t seq;                             /**< per device, wraps at 2^32 */
    time_t booted;                            /**< seconds since 1970, a plain long */
    struct timespec received_at;              /**< by the gateway's clock: timestamp-nanos */
    int16_t rssi_dbm[4] AVRO_ARRAY(n_rssi);   /**< the radio's last readings, up to 4 */
    uint8_t n_rssi;
    struct geo_point *position AVRO_NULLABLE; /**< absent while the device has no fix */
    char *firmware AVRO_NULLABLE;             /**< absent when the device did not say */
    struct sample *samples AVRO_ARRAY(n_samples);
    size_t n_samples;
    struct label *labels AVRO_MAP(n_labels); /**< free-form tags: site, rack, ... */
    size_t n_labels;
};

/** What the gateway ships upstream. */
typedef struct AVRO_RECORD(name = "Batch", namespace = "com.example.telemetry") telemetry_batch {
    char *gateway;
    int64_t sent_at_us AVRO_LOGICAL(timestamp-micros);
    struct device_report *reports AVRO_ARRAY(n_reports);
    size_t n_reports;
} telemetry_batch;

#endif /* TELEMETRY_H */
