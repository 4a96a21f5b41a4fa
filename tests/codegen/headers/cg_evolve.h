/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: readers for schema evolution. A default on every kind of
 * storage, an enum default, field and type aliases naming cg_evolve_old.h's
 * writers, and a skipped member. */
#ifndef CG_EVOLVE_H
#define CG_EVOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "cg.ev", aliases = ["cg.ev_old.ev_status"], default = "UNKNOWN",
               strip_prefix = "EV_STATUS_") ev_status {
    EV_STATUS_UNKNOWN = -1,
    EV_STATUS_NEW = 10,
    EV_STATUS_DONE = 20
};

struct AVRO_RECORD(namespace = "cg.ev", aliases = ["cg.ev_old.ev_point"]) ev_point {
    int64_t x;
    int64_t y AVRO_FIELD(default = -1);
};

struct ev_tag {
    char *key;
    int64_t value;
};

struct AVRO_RECORD(namespace = "cg.ev", aliases = ["cg.ev_old.rich"]) rich {
    int64_t id;
    enum ev_status status;
    double amount AVRO_FIELD(aliases = ["total"]);
    struct ev_point where;
    char *title;
    /* Only the reader has these: each takes its default. */
    int8_t small AVRO_FIELD(default = -7);
    uint32_t big AVRO_FIELD(default = 4000000000);
    float ratio AVRO_FIELD(default = 0.25);
    bool on AVRO_FIELD(default = true);
    char *name AVRO_FIELD(default = "anon");
    char code[8] AVRO_FIELD(default = "abc");
    avrogen_str label AVRO_FIELD(default = "lbl");
    avrogen_bytes blob AVRO_FIELD(default = "\u0001\u00ff");
    uint8_t *raw AVRO_ARRAY(n_raw) AVRO_FIELD(default = "xy");
    size_t n_raw;
    uint8_t key[4] AVRO_FIELD(default = "\u0009\u0001\u0002\u00ff");
    int64_t cents AVRO_DECIMAL(10, 2) AVRO_FIELD(default = "\u0001\u0002");
    enum ev_status next AVRO_FIELD(default = "DONE");
    int32_t *opt AVRO_NULLABLE AVRO_FIELD(default = null);
    int32_t *opt2 AVRO_NULLABLE AVRO_FIELD(default = 42);
    char *note AVRO_NULLABLE AVRO_FIELD(default = "n");
    int64_t *list AVRO_ARRAY(n_list) AVRO_FIELD(default = [1, 2, 3]);
    size_t n_list;
    int64_t triple[3] AVRO_FIELD(default = [7, 8, 9]);
    struct ev_point origin AVRO_FIELD(default = {"x": 5});
    struct ev_point *maybe_point AVRO_NULLABLE AVRO_FIELD(default = null);
    struct ev_tag *tags AVRO_MAP(n_tags) AVRO_FIELD(default = {"a": 1, "b": 2});
    size_t n_tags;
    uint8_t which;
    union {
        int64_t n;
        char *s;
    } choice AVRO_UNION(which) AVRO_FIELD(default = 12);
    void *cache AVRO_SKIP;
};

/* Members whose reader schema the type plan test replaces with one carrying a
 * default the C type cannot hold ("toolong", [1]): the generator refuses such
 * defaults in AVRO_FIELD, but a hand-written descriptor schema could have them,
 * and a plan that would need them must fail to build. */
struct AVRO_RECORD(namespace = "cg.ev") ev_long_default {
    int32_t id;
    char code[4];
};

struct AVRO_RECORD(namespace = "cg.ev") ev_short_default {
    int32_t id;
    int64_t three[3];
};

/* Members that read one writer field: `old` by name, `wide` and `real` by
 * alias, each resolved on its own terms; two strings and two records the
 * same way. Schema resolution feeds every reader field that names the writer's
 * field (the spec is silent; Java and Python's checker do so). */
struct AVRO_RECORD(namespace = "cg.ev") ev_twice {
    int32_t old;
    int64_t wide AVRO_FIELD(aliases = ["old"]);
    double real AVRO_FIELD(aliases = ["old"]);
    char *label;
    char *copy AVRO_FIELD(aliases = ["label"]);
    struct ev_point at;
    struct ev_point again AVRO_FIELD(aliases = ["at"]);
};

#endif /* CG_EVOLVE_H */
