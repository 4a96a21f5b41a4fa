/* An installed library's header, found through -isystem: one struct it
 * annotates itself, one it does not. */
#ifndef ACME_SENSOR_H
#define ACME_SENSOR_H

#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "com.acme") acme_sample {
    int64_t at_us AVRO_LOGICAL(timestamp-micros);
    double value;
};

enum acme_unit { ACME_CELSIUS, ACME_KELVIN };

typedef struct {
    uint32_t id;
    char *label;
    enum acme_unit unit;
    struct acme_sample last;
} acme_sensor_t;

#endif
