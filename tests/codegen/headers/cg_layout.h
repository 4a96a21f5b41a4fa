/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: layouts the generator works out without asking libclang
 * per member (clang_parse.c, field_offsets) and those it must ask for: packed
 * records, members with alignment attributes, #pragma pack, an aligned typedef,
 * bit-fields among plain members and packed anonymous structs. The layout lock
 * of the generated .c (AVROGEN_LAYOUT) fails the build if an offset is wrong. */
#ifndef CG_LAYOUT_H
#define CG_LAYOUT_H

#include <stdint.h>

#include <avrogen/annotate.h>

typedef int64_t cg_wide_long __attribute__((aligned(16)));

struct AVRO_RECORD(namespace = "cg.layout") lay_packed {
    char a;
    int32_t b;
    int64_t c;
    char d;
} __attribute__((packed));

struct AVRO_RECORD(namespace = "cg.layout") lay_packed_aligned {
    char a;
    int32_t b;
    char d;
} __attribute__((packed, aligned(4)));

struct AVRO_RECORD(namespace = "cg.layout") lay_member_aligned {
    char a;
    int32_t b __attribute__((aligned(16)));
    char c;
    int32_t d __attribute__((aligned(8)));
    int16_t e;
};

struct AVRO_RECORD(namespace = "cg.layout") lay_typedef_aligned {
    char a;
    cg_wide_long b;
    char c;
};

#pragma pack(push, 2)
struct AVRO_RECORD(namespace = "cg.layout") lay_pragma {
    char a;
    int64_t b;
    char c;
    int32_t d;
};
#pragma pack(pop)

struct AVRO_RECORD(namespace = "cg.layout") lay_bits {
    char a;
    uint32_t b : 3;
    uint32_t : 0;
    char c;
    uint8_t d : 4;
    uint8_t : 2;
    int64_t e;
    uint16_t f : 9;
    char g;
};

struct AVRO_RECORD(namespace = "cg.layout") lay_anon {
    char a;
    __extension__ struct {
        char b;
        double c;
    };
    __extension__ struct {
        char d;
        int32_t e;
    } __attribute__((packed));
    int16_t f;
};

#endif /* CG_LAYOUT_H */
