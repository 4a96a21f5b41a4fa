/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: enums (prefix stripping, gaps, declaration order that is
 * not value order, more than 64 symbols) alone, in arrays, maps and pointers. */
#ifndef CG_ENUMS_H
#define CG_ENUMS_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(namespace = "cg",
               strip_prefix = "CG_COLOR_") cg_color { CG_COLOR_RED, CG_COLOR_GREEN, CG_COLOR_BLUE };

/* Values with gaps, negative ones, and not in declaration order. */
enum AVRO_ENUM(namespace = "cg", strip_prefix = "CG_CODE_") cg_code {
    CG_CODE_OK = 200,
    CG_CODE_MOVED = 301,
    CG_CODE_LOW = -5,
    CG_CODE_ZERO = 0,
    CG_CODE_HIGH = 100000
};

typedef enum AVRO_ENUM(namespace = "cg", strip_prefix = "BIG_") {
    BIG_S00, BIG_S01, BIG_S02, BIG_S03, BIG_S04, BIG_S05, BIG_S06, BIG_S07, BIG_S08, BIG_S09,
    BIG_S10, BIG_S11, BIG_S12, BIG_S13, BIG_S14, BIG_S15, BIG_S16, BIG_S17, BIG_S18, BIG_S19,
    BIG_S20, BIG_S21, BIG_S22, BIG_S23, BIG_S24, BIG_S25, BIG_S26, BIG_S27, BIG_S28, BIG_S29,
    BIG_S30, BIG_S31, BIG_S32, BIG_S33, BIG_S34, BIG_S35, BIG_S36, BIG_S37, BIG_S38, BIG_S39,
    BIG_S40, BIG_S41, BIG_S42, BIG_S43, BIG_S44, BIG_S45, BIG_S46, BIG_S47, BIG_S48, BIG_S49,
    BIG_S50, BIG_S51, BIG_S52, BIG_S53, BIG_S54, BIG_S55, BIG_S56, BIG_S57, BIG_S58, BIG_S59,
    BIG_S60, BIG_S61, BIG_S62, BIG_S63, BIG_S64, BIG_S65, BIG_S66, BIG_S67, BIG_S68, BIG_S69
} cg_big_t;

struct cg_code_entry {
    char *key;
    enum cg_code value;
};

struct AVRO_RECORD(namespace = "cg") palette {
    enum cg_color main;
    enum cg_code code;
    cg_big_t big;
    enum cg_color *colors AVRO_ARRAY(n_colors);
    size_t n_colors;
    enum cg_code codes[3];
    struct cg_code_entry *by_name AVRO_MAP(n_by_name);
    size_t n_by_name;
    enum cg_color *accent AVRO_NULLABLE;
};

#endif /* CG_ENUMS_H */
