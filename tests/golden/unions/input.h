/* AVRO_UNION(tag): union member i ↔ tag value i ↔ Avro branch i. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() money {
    int64_t units;
    int32_t nanos;
};

enum value_kind { KIND_NONE, KIND_INT, KIND_TEXT, KIND_MONEY, KIND_RAW };

struct AVRO_RECORD() value {
    enum value_kind kind;                 /* the tag: not serialized itself */
    union {
        char none AVRO_FIELD(type = "null");  /* a null branch has no storage */
        int64_t i;
        char *text;
        struct money money;
        uint8_t raw[4] AVRO_FIXED_NAME(Raw4);
    } as AVRO_UNION(kind);
    uint8_t which;
    union {
        double d;
        avrogen_str s;
    } scalar AVRO_UNION(which) AVRO_FIELD(default = 1.5);
};
