/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: one-field records whose encodings the hostile-input
 * tests build byte by byte. */
#ifndef CG_HOSTILE_H
#define CG_HOSTILE_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "cg", strip_prefix = "H_") h_level { H_LOW, H_MID, H_HIGH };

struct AVRO_RECORD(namespace = "cg") h_enum { enum h_level level; };
struct AVRO_RECORD(namespace = "cg") h_union { char *s AVRO_NULLABLE; };
struct AVRO_RECORD(namespace = "cg") h_chars { char text[4]; };
struct AVRO_RECORD(namespace = "cg") h_exact { int32_t four[4]; };
struct AVRO_RECORD(namespace = "cg") h_i8 { int8_t v; };
struct AVRO_RECORD(namespace = "cg") h_u16 { uint16_t v; };
struct AVRO_RECORD(namespace = "cg") h_u32 { uint32_t v; };
struct AVRO_RECORD(namespace = "cg") h_decimal { int64_t v AVRO_DECIMAL(18, 0); };
struct AVRO_RECORD(namespace = "cg") h_udecimal { uint64_t v AVRO_DECIMAL(19, 0); };
struct AVRO_RECORD(namespace = "cg") h_count { int64_t *v AVRO_ARRAY(n); uint8_t n; };
struct AVRO_RECORD(namespace = "cg") h_doubles { double *v AVRO_ARRAY(n); size_t n; };

#endif /* CG_HOSTILE_H */
