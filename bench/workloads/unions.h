/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bench workload "unions": nullable fields of every storage (string, pointer to
 * a record, pointer to a scalar) and three five-branch unions
 * ["null", "long", "double", "string", Point] held as tagged C unions.
 * `event` holds NUL-terminated strings, `event_view` avrogen_str views.
 */
#ifndef AVROGEN_BENCH_UNIONS_H
#define AVROGEN_BENCH_UNIONS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

/** A point in the plane; the record branch of the unions. */
struct AVRO_RECORD(name = "Point", namespace = "bench") point {
    double x;
    double y;
};

/* Which member of an attribute union is set; the value is the Avro branch. */
enum attr_kind { ATTR_NULL, ATTR_LONG, ATTR_DOUBLE, ATTR_STRING, ATTR_POINT, ATTR_N_KINDS };

union attr {
    char none AVRO_FIELD(type = "null");
    int64_t l;
    double d;
    char *s;
    struct point p;
};

/** An analytics event whose shape varies from record to record. */
typedef struct AVRO_RECORD(name = "Event", namespace = "bench") event {
    int64_t id;
    char *user AVRO_NULLABLE;
    char *referrer AVRO_NULLABLE;
    struct point *origin AVRO_NULLABLE;
    int64_t *session AVRO_NULLABLE;
    double *score AVRO_NULLABLE;
    enum attr_kind primary_kind;
    union attr primary AVRO_UNION(primary_kind);
    enum attr_kind secondary_kind;
    union attr secondary AVRO_UNION(secondary_kind);
    enum attr_kind extra_kind;
    union attr extra AVRO_UNION(extra_kind);
} event_t;

union attr_view {
    char none AVRO_FIELD(type = "null");
    int64_t l;
    double d;
    avrogen_str s;
    struct point p;
};

typedef struct AVRO_RECORD(name = "EventView", namespace = "bench") event_view {
    int64_t id;
    avrogen_str user AVRO_NULLABLE;
    avrogen_str referrer AVRO_NULLABLE;
    struct point *origin AVRO_NULLABLE;
    int64_t *session AVRO_NULLABLE;
    double *score AVRO_NULLABLE;
    enum attr_kind primary_kind;
    union attr_view primary AVRO_UNION(primary_kind);
    enum attr_kind secondary_kind;
    union attr_view secondary AVRO_UNION(secondary_kind);
    enum attr_kind extra_kind;
    union attr_view extra AVRO_UNION(extra_kind);
} event_view_t;

#endif /* AVROGEN_BENCH_UNIONS_H */
