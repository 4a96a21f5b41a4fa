/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schemas and datums the interop tests push through avrogen and a peer
 * (avro-c in interop_avroc.c, python3-avro through interop_dump.c and
 * python_peer.py). Values are written in the Avro JSON encoding and read with
 * avrogen_value_from_json. Together they cover every type: primitives at their
 * extremes, nested and recursive records, enums, fixed, arrays, maps, unions
 * with and without null branches, logical types, empty containers and unicode.
 *
 * Unions are chosen so a value fits one branch only, which is how Python's
 * DatumWriter must pick the same branch we did. No string holds a NUL byte
 * (avro-c's map keys and JSON output are NUL-terminated C strings).
 */
#ifndef AVROGEN_INTEROP_CASES_H
#define AVROGEN_INTEROP_CASES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct interop_case {
    const char *name;
    const char *schema;
    const char *const *values; /* JSON texts, NULL-terminated */
    bool avroc_json;           /* avro-c's avro_value_to_json can print every value */
    bool python;               /* python_peer.py checks it (its unions are unambiguous) */
} interop_case;

static const char *const primitives_values[] = {
        "{\"n\": null, \"b\": false, \"i\": 0, \"l\": 0, \"f\": 0.0, \"d\": 0.0, \"by\": \"\","
        " \"s\": \"\"}",
        "{\"n\": null, \"b\": true, \"i\": -1, \"l\": 1, \"f\": 1.5, \"d\": -2.25,"
        " \"by\": \"\\u0001\\u007f\\u0080\\u00ff\", \"s\": \"hello\"}",
        "{\"n\": null, \"b\": true, \"i\": 64, \"l\": -65, \"f\": 0.1, \"d\": 0.1,"
        " \"by\": \"abc\", \"s\": \"tab\\tquote\\\"backslash\\\\\"}",
        NULL,
};

static const char *const extremes_values[] = {
        "{\"i\": 2147483647, \"l\": 9223372036854775807, \"f\": 3.4028234663852886e+38,"
        " \"d\": 1.7976931348623157e+308}",
        "{\"i\": -2147483648, \"l\": -9223372036854775808, \"f\": 1e-45, \"d\": 5e-324}",
        "{\"i\": 63, \"l\": 4611686018427387904, \"f\": -0.0, \"d\": -0.0}",
        "{\"i\": -64, \"l\": -4611686018427387905, \"f\": 1.1754943508222875e-38,"
        " \"d\": 2.2250738585072014e-308}",
        "{\"i\": 1, \"l\": 2147483648, \"f\": \"NaN\", \"d\": \"Infinity\"}",
        "{\"i\": 1, \"l\": -2147483649, \"f\": \"-Infinity\", \"d\": \"NaN\"}",
        NULL,
};

static const char *const nested_values[] = {
        "{\"id\": 1, \"inner\": {\"a\": 2, \"deep\": {\"s\": \"x\"}}, \"again\": {\"a\": 3,"
        " \"deep\": {\"s\": \"\"}}}",
        "{\"id\": -1, \"inner\": {\"a\": 0, \"deep\": {\"s\": \"yy\"}}, \"again\": {\"a\": -3,"
        " \"deep\": {\"s\": \"zzz\"}}}",
        NULL,
};

static const char *const enum_values[] = {
        "{\"suit\": \"SPADES\", \"maybe\": null, \"all\": [\"HEARTS\", \"CLUBS\"]}",
        "{\"suit\": \"CLUBS\", \"maybe\": {\"cards.Suit\": \"DIAMONDS\"}, \"all\": []}",
        NULL,
};

static const char *const fixed_values[] = {
        "{\"md5\": \"\\u00d4\\u001d\\u008c\\u00d9\\u008f\\u0000\\u00b2\\u0004\\u00e9\\u0080"
        "\\t\\u0098\\u00ec\\u00f8B~\", \"one\": \"z\", \"opt\": {\"One\": \"\\u00ff\"}}",
        "{\"md5\": \"0123456789abcdef\", \"one\": \"\\u0000\", \"opt\": null}",
        NULL,
};

static const char *const array_values[] = {
        "{\"ints\": [1, -1, 2147483647], \"recs\": [{\"x\": 1}, {\"x\": 2}], \"empty\": [],"
        " \"nested\": [[], [\"a\"], [\"b\", \"c\"]]}",
        "{\"ints\": [], \"recs\": [], \"empty\": [], \"nested\": []}",
        NULL,
};

static const char *const map_values[] = {
        "{\"strs\": {\"a\": \"1\", \"b\": \"2\", \"\": \"empty key\"}, \"lists\": {\"x\": [1, 2],"
        " \"y\": []}, \"empty\": {}, \"recs\": {\"k\": {\"x\": 5}}}",
        "{\"strs\": {}, \"lists\": {}, \"empty\": {}, \"recs\": {}}",
        NULL,
};

static const char *const union_values[] = {
        "{\"ns\": null, \"sn\": {\"string\": \"a\"}, \"multi\": null}",
        "{\"ns\": {\"string\": \"b\"}, \"sn\": null, \"multi\": {\"int\": 7}}",
        "{\"ns\": null, \"sn\": {\"string\": \"\"}, \"multi\": {\"u.Rec\": {\"a\": 1}}}",
        "{\"ns\": null, \"sn\": null, \"multi\": {\"array\": [1.5, 2.5]}}",
        "{\"ns\": null, \"sn\": null, \"multi\": {\"map\": {\"k\": \"v\"}}}",
        "{\"ns\": null, \"sn\": null, \"multi\": {\"bytes\": \"\\u00ff\"}}",
        NULL,
};

static const char *const recursive_values[] = {
        "{\"value\": 1, \"next\": null}",
        "{\"value\": 1, \"next\": {\"LinkedList\": {\"value\": 2, \"next\": {\"LinkedList\":"
        " {\"value\": 3, \"next\": null}}}}}",
        NULL,
};

static const char *const tree_values[] = {
        "{\"label\": \"root\", \"children\": [{\"label\": \"a\", \"children\": []}, {\"label\":"
        " \"b\", \"children\": [{\"label\": \"b1\", \"children\": []}]}]}",
        NULL,
};

static const char *const logical_values[] = {
        "{\"price\": \"\\u0004\\u00d2\", \"neg\": \"\\u00ff\\u0085\", \"ts\": 1700000000123456,"
        " \"day\": 19000, \"ms\": 86399999, \"id\": \"123e4567-e89b-12d3-a456-426614174000\","
        " \"dur\": \"\\u0001\\u0000\\u0000\\u0000\\u0002\\u0000\\u0000\\u0000\\u0003\\u0000"
        "\\u0000\\u0000\"}",
        NULL,
};

static const char *const empty_values[] = {
        "{\"e\": {}, \"a\": [], \"m\": {}, \"es\": [{}, {}, {}]}",
        NULL,
};

static const char *const unicode_values[] = {
        "{\"s\": \"h\\u00e9llo w\\u00f6rld\", \"keys\": {\"\\u00fcber\": \"\\u4e2d\\u6587\","
        " \"\\ud83d\\ude00\": \"emoji \\ud83c\\udf89\"}}",
        "{\"s\": \"\\u0001\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff\\ud800\\udc00\\udbff\\udfff\","
        " \"keys\": {}}",
        NULL,
};

static const char *const top_array_values[] = {
        "[]",
        "[1, 2, 3]",
        NULL,
};

static const char *const top_union_values[] = {
        "null",
        "{\"long\": -9223372036854775808}",
        "{\"Point\": {\"x\": 1.0, \"y\": -1.0}}",
        NULL,
};

static const interop_case interop_cases[] = {
        {"primitives",
         "{\"type\":\"record\",\"name\":\"Prims\",\"namespace\":\"p\",\"fields\":["
         "{\"name\":\"n\",\"type\":\"null\"},{\"name\":\"b\",\"type\":\"boolean\"},"
         "{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
         "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
         "{\"name\":\"by\",\"type\":\"bytes\"},{\"name\":\"s\",\"type\":\"string\"}]}",
         primitives_values, true, true},
        {"extremes",
         "{\"type\":\"record\",\"name\":\"Extremes\",\"fields\":["
         "{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
         "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"}]}",
         extremes_values, false, true},
        {"nested",
         "{\"type\":\"record\",\"name\":\"Outer\",\"namespace\":\"n\",\"fields\":["
         "{\"name\":\"id\",\"type\":\"long\"},"
         "{\"name\":\"inner\",\"type\":{\"type\":\"record\",\"name\":\"Inner\",\"fields\":["
         "{\"name\":\"a\",\"type\":\"int\"},"
         "{\"name\":\"deep\",\"type\":{\"type\":\"record\",\"name\":\"Deep\",\"namespace\":\"d\","
         "\"fields\":[{\"name\":\"s\",\"type\":\"string\"}]}}]}},"
         "{\"name\":\"again\",\"type\":\"Inner\"}]}",
         nested_values, true, true},
        {"enum",
         "{\"type\":\"record\",\"name\":\"Hand\",\"namespace\":\"cards\",\"fields\":["
         "{\"name\":\"suit\",\"type\":{\"type\":\"enum\",\"name\":\"Suit\",\"symbols\":"
         "[\"SPADES\",\"HEARTS\",\"DIAMONDS\",\"CLUBS\"]}},"
         "{\"name\":\"maybe\",\"type\":[\"null\",\"Suit\"]},"
         "{\"name\":\"all\",\"type\":{\"type\":\"array\",\"items\":\"Suit\"}}]}",
         enum_values, true, true},
        {"fixed",
         "{\"type\":\"record\",\"name\":\"Fx\",\"fields\":["
         "{\"name\":\"md5\",\"type\":{\"type\":\"fixed\",\"name\":\"MD5\",\"size\":16}},"
         "{\"name\":\"one\",\"type\":{\"type\":\"fixed\",\"name\":\"One\",\"size\":1}},"
         "{\"name\":\"opt\",\"type\":[\"null\",\"One\"]}]}",
         fixed_values, false, true},
        {"arrays",
         "{\"type\":\"record\",\"name\":\"Arrs\",\"fields\":["
         "{\"name\":\"ints\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
         "{\"name\":\"recs\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\","
         "\"name\":\"X\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]}}},"
         "{\"name\":\"empty\",\"type\":{\"type\":\"array\",\"items\":\"double\"}},"
         "{\"name\":\"nested\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"array\","
         "\"items\":\"string\"}}}]}",
         array_values, true, true},
        {"maps",
         "{\"type\":\"record\",\"name\":\"Maps\",\"fields\":["
         "{\"name\":\"strs\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},"
         "{\"name\":\"lists\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"array\","
         "\"items\":\"int\"}}},"
         "{\"name\":\"empty\",\"type\":{\"type\":\"map\",\"values\":\"null\"}},"
         "{\"name\":\"recs\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"record\","
         "\"name\":\"Y\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}}}]}",
         map_values, true, true},
        {"unions",
         "{\"type\":\"record\",\"name\":\"Unions\",\"namespace\":\"u\",\"fields\":["
         "{\"name\":\"ns\",\"type\":[\"null\",\"string\"]},"
         "{\"name\":\"sn\",\"type\":[\"string\",\"null\"]},"
         "{\"name\":\"multi\",\"type\":[\"null\",\"int\",{\"type\":\"record\",\"name\":\"Rec\","
         "\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]},{\"type\":\"array\",\"items\":"
         "\"double\"},{\"type\":\"map\",\"values\":\"string\"},\"bytes\"]}]}",
         union_values, true, true},
        {"recursive_list",
         "{\"type\":\"record\",\"name\":\"LinkedList\",\"fields\":["
         "{\"name\":\"value\",\"type\":\"int\"},"
         "{\"name\":\"next\",\"type\":[\"null\",\"LinkedList\"]}]}",
         recursive_values, true, true},
        {"recursive_tree",
         "{\"type\":\"record\",\"name\":\"Tree\",\"fields\":["
         "{\"name\":\"label\",\"type\":\"string\"},"
         "{\"name\":\"children\",\"type\":{\"type\":\"array\",\"items\":\"Tree\"}}]}",
         tree_values, true, true},
        {"logical",
         "{\"type\":\"record\",\"name\":\"Logical\",\"fields\":["
         "{\"name\":\"price\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
         "\"precision\":10,\"scale\":2}},"
         "{\"name\":\"neg\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
         "\"precision\":4,\"scale\":0}},"
         "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
         "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
         "{\"name\":\"ms\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
         "{\"name\":\"id\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
         "{\"name\":\"dur\",\"type\":{\"type\":\"fixed\",\"name\":\"Dur\",\"size\":12,"
         "\"logicalType\":\"duration\"}}]}",
         logical_values, false, true},
        {"empty",
         "{\"type\":\"record\",\"name\":\"Holder\",\"fields\":["
         "{\"name\":\"e\",\"type\":{\"type\":\"record\",\"name\":\"Nothing\",\"fields\":[]}},"
         "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
         "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"long\"}},"
         "{\"name\":\"es\",\"type\":{\"type\":\"array\",\"items\":\"Nothing\"}}]}",
         empty_values, true, true},
        {"unicode",
         "{\"type\":\"record\",\"name\":\"Text\",\"fields\":["
         "{\"name\":\"s\",\"type\":\"string\"},"
         "{\"name\":\"keys\",\"type\":{\"type\":\"map\",\"values\":\"string\"}}]}",
         unicode_values, true, true},
        {"top_array", "{\"type\":\"array\",\"items\":\"long\"}", top_array_values, true, true},
        {"top_union",
         "[\"null\",\"long\",{\"type\":\"record\",\"name\":\"Point\",\"fields\":["
         "{\"name\":\"x\",\"type\":\"double\"},{\"name\":\"y\",\"type\":\"double\"}]}]",
         top_union_values, true, true},
};

#define N_INTEROP_CASES (sizeof interop_cases / sizeof interop_cases[0])

/* Records whose every field has a default: python_peer.py fills them in by
 * schema resolution and compares with avrogen_value_from_default. Python 1.11.1
 * encodes a bytes default as UTF-8 rather than ISO-8859-1 and rejects integer
 * defaults for float and double, so these defaults steer clear of both. */
static const char *const default_schemas[] = {
        "{\"type\":\"record\",\"name\":\"Defaults\",\"namespace\":\"dflt\",\"fields\":["
        "{\"name\":\"i\",\"type\":\"int\",\"default\":-7},"
        "{\"name\":\"l\",\"type\":\"long\",\"default\":9223372036854775807},"
        "{\"name\":\"d\",\"type\":\"double\",\"default\":0.1},"
        "{\"name\":\"f\",\"type\":\"float\",\"default\":-1.5},"
        "{\"name\":\"b\",\"type\":\"boolean\",\"default\":true},"
        "{\"name\":\"s\",\"type\":\"string\",\"default\":\"caf\\u00e9\"},"
        "{\"name\":\"by\",\"type\":\"bytes\",\"default\":\"AZ\"},"
        "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F3\",\"size\":3},"
        "\"default\":\"abc\"},"
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]},"
        "\"default\":\"B\"},"
        "{\"name\":\"u1\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"u2\",\"type\":[\"int\",\"null\"],\"default\":42},"
        "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":[\"long\",\"null\"]},"
        "\"default\":[1,2]},"
        "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"string\"},"
        "\"default\":{\"k\":\"v\"}},"
        "{\"name\":\"rec\",\"type\":{\"type\":\"record\",\"name\":\"Inner\",\"fields\":["
        "{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"b\",\"type\":[\"string\",\"null\"],\"default\":\"dflt\"},"
        "{\"name\":\"c\",\"type\":{\"type\":\"array\",\"items\":\"int\"},\"default\":[]}]},"
        "\"default\":{\"a\":5}}]}",
        NULL,
};

#endif /* AVROGEN_INTEROP_CASES_H */
