/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: every string, bytes and fixed storage, plain and nullable. */
#ifndef CG_STRINGS_H
#define CG_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg") texts {
    char *s;
    const char *cs;
    char small[8];          /* at most 7 bytes */
    avrogen_str view;       /* zero-copy on decode */
    avrogen_bytes blob;     /* zero-copy on decode */
    uint8_t *raw AVRO_ARRAY(n_raw);     /* bytes copied into the arena */
    size_t n_raw;
    const unsigned char *craw AVRO_ARRAY(n_craw);
    uint16_t n_craw;
    char *chars AVRO_ARRAY(n_chars);    /* bytes held as plain char */
    int32_t n_chars;
    uint8_t digest[20] AVRO_FIXED_NAME(Sha1);
    uint8_t other[20] AVRO_FIXED_NAME(Sha1); /* the same fixed type */
    uint8_t tiny[1];
};

struct AVRO_RECORD(namespace = "cg") maybe_texts {
    char *s AVRO_NULLABLE;
    avrogen_str view AVRO_NULLABLE;
    avrogen_bytes blob AVRO_NULLABLE;
    uint8_t *raw AVRO_ARRAY(n_raw) AVRO_NULLABLE;
    size_t n_raw;
    uint8_t (*digest)[4] AVRO_NULLABLE;
    char *second AVRO_NULLABLE AVRO_FIELD(default = "x"); /* [string, null] */
    avrogen_str second_view AVRO_NULLABLE AVRO_FIELD(default = "y");
};

#endif /* CG_STRINGS_H */
