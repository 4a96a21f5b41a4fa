/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Positions. A header of its own because more than the telemetry messages use
 * it; telemetry.h includes it, and the code generated for telemetry.h covers
 * the record below too.
 */
#ifndef TELEMETRY_GEO_H
#define TELEMETRY_GEO_H

#include <avrogen/annotate.h>

/** A WGS 84 position. */
struct AVRO_RECORD(name = "GeoPoint", namespace = "com.example.telemetry") geo_point {
    double lat;                                      /**< degrees north */
    double lon;                                      /**< degrees east */
    float alt_m AVRO_FIELD(name = "altitudeMeters"); /**< above sea level */
};

#endif /* TELEMETRY_GEO_H */
