/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compile test for <avrogen/annotate.h>: every annotation, in place and out of
 * line, in one translation unit with avro-c's <avro.h>, whose AVRO_RECORD,
 * AVRO_ENUM, AVRO_ARRAY, AVRO_MAP, AVRO_UNION and AVRO_FIXED enumerators must
 * stay usable. Built by tests/gen/CMakeLists.txt with gcc and clang, as C11 and
 * C++17, under -Wall -Wextra -Wpedantic -Werror, and once more by clang with
 * AVROGEN_PARSING defined (the expansion the generator sees).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <avro.h>
#include <avrogen/annotate.h>

/** A line. */
struct AVRO_RECORD(name = "Line", namespace = "com.acme", doc = "x", aliases = ["L"]) line {
    int64_t sku AVRO_FIELD(name = "SKU", order = "descending");
    char *name AVRO_NULLABLE AVRO_FIELD(default = null);
};

enum AVRO_ENUM(default = "NEW") order_status {
    ORDER_NEW AVRO_FIELD(doc = "just placed"),
    ORDER_PAID = 5,
};

struct tag {
    char *key;
    int64_t value;
};

typedef struct AVRO_RECORD() order {
    struct line *lines AVRO_ARRAY(n_lines);
    size_t n_lines;
    struct tag *tags AVRO_MAP(n_tags);
    size_t n_tags;
    int kind;
    union {
        int64_t i;
        char *s;
        char none AVRO_FIELD(type = "null");
    } value AVRO_UNION(kind);
    int64_t created AVRO_LOGICAL(timestamp - micros);
    int64_t price AVRO_DECIMAL(18, 2);
    uint8_t id[16] AVRO_LOGICAL(uuid) AVRO_FIXED_NAME(com.acme.Uuid);
    uint64_t big AVRO_FIELD(type = "long");
    avrogen_str region;
    avrogen_bytes blob;
    enum order_status status;
    void *cache AVRO_SKIP;
} order_t;

/* A type from a header that cannot be edited, annotated out of line. */
struct vendor_point {
    int32_t x;
    struct vendor_point *next;
};
enum vendor_color { VENDOR_RED, VENDOR_GREEN };
AVRO_EXTERN_RECORD(struct vendor_point, name = "Point");
AVRO_EXTERN_FIELD(struct vendor_point, next, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct vendor_point, x, AVRO_FIELD(doc = "abscissa"));
AVRO_EXTERN_ENUM(enum vendor_color);

int annotate_compile_check(void);

int annotate_compile_check(void)
{
    /* avro-c's enumerators, spelled as avro-c users spell them. */
    avro_type_t kinds[] = {AVRO_RECORD, AVRO_ENUM, AVRO_ARRAY, AVRO_MAP, AVRO_UNION, AVRO_FIXED};
    order_t o;
    struct vendor_point p;
    o.n_lines = 0;
    o.kind = 0;
    p.x = 1;
    p.next = NULL;
    return (int)kinds[0] + (int)o.n_lines + o.kind + p.x + (int)sizeof(struct line) +
           (p.next == NULL);
}
