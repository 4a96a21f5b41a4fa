/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types at the one-byte index bound (issue 12): a varint holds
 * indexes below 64 in one byte, so a union of exactly 64 branches and an enum
 * of 64 symbols take one byte, and with 65 the last takes two. */
#ifndef CG_WIDE_H
#define CG_WIDE_H

#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg") narrow {
    uint32_t which;
    union {
        uint8_t b0[1] AVRO_FIXED_NAME(narrow_b0);
        uint8_t b1[1] AVRO_FIXED_NAME(narrow_b1);
        uint8_t b2[1] AVRO_FIXED_NAME(narrow_b2);
        uint8_t b3[1] AVRO_FIXED_NAME(narrow_b3);
        uint8_t b4[1] AVRO_FIXED_NAME(narrow_b4);
        uint8_t b5[1] AVRO_FIXED_NAME(narrow_b5);
        uint8_t b6[1] AVRO_FIXED_NAME(narrow_b6);
        uint8_t b7[1] AVRO_FIXED_NAME(narrow_b7);
        uint8_t b8[1] AVRO_FIXED_NAME(narrow_b8);
        uint8_t b9[1] AVRO_FIXED_NAME(narrow_b9);
        uint8_t b10[1] AVRO_FIXED_NAME(narrow_b10);
        uint8_t b11[1] AVRO_FIXED_NAME(narrow_b11);
        uint8_t b12[1] AVRO_FIXED_NAME(narrow_b12);
        uint8_t b13[1] AVRO_FIXED_NAME(narrow_b13);
        uint8_t b14[1] AVRO_FIXED_NAME(narrow_b14);
        uint8_t b15[1] AVRO_FIXED_NAME(narrow_b15);
        uint8_t b16[1] AVRO_FIXED_NAME(narrow_b16);
        uint8_t b17[1] AVRO_FIXED_NAME(narrow_b17);
        uint8_t b18[1] AVRO_FIXED_NAME(narrow_b18);
        uint8_t b19[1] AVRO_FIXED_NAME(narrow_b19);
        uint8_t b20[1] AVRO_FIXED_NAME(narrow_b20);
        uint8_t b21[1] AVRO_FIXED_NAME(narrow_b21);
        uint8_t b22[1] AVRO_FIXED_NAME(narrow_b22);
        uint8_t b23[1] AVRO_FIXED_NAME(narrow_b23);
        uint8_t b24[1] AVRO_FIXED_NAME(narrow_b24);
        uint8_t b25[1] AVRO_FIXED_NAME(narrow_b25);
        uint8_t b26[1] AVRO_FIXED_NAME(narrow_b26);
        uint8_t b27[1] AVRO_FIXED_NAME(narrow_b27);
        uint8_t b28[1] AVRO_FIXED_NAME(narrow_b28);
        uint8_t b29[1] AVRO_FIXED_NAME(narrow_b29);
        uint8_t b30[1] AVRO_FIXED_NAME(narrow_b30);
        uint8_t b31[1] AVRO_FIXED_NAME(narrow_b31);
        uint8_t b32[1] AVRO_FIXED_NAME(narrow_b32);
        uint8_t b33[1] AVRO_FIXED_NAME(narrow_b33);
        uint8_t b34[1] AVRO_FIXED_NAME(narrow_b34);
        uint8_t b35[1] AVRO_FIXED_NAME(narrow_b35);
        uint8_t b36[1] AVRO_FIXED_NAME(narrow_b36);
        uint8_t b37[1] AVRO_FIXED_NAME(narrow_b37);
        uint8_t b38[1] AVRO_FIXED_NAME(narrow_b38);
        uint8_t b39[1] AVRO_FIXED_NAME(narrow_b39);
        uint8_t b40[1] AVRO_FIXED_NAME(narrow_b40);
        uint8_t b41[1] AVRO_FIXED_NAME(narrow_b41);
        uint8_t b42[1] AVRO_FIXED_NAME(narrow_b42);
        uint8_t b43[1] AVRO_FIXED_NAME(narrow_b43);
        uint8_t b44[1] AVRO_FIXED_NAME(narrow_b44);
        uint8_t b45[1] AVRO_FIXED_NAME(narrow_b45);
        uint8_t b46[1] AVRO_FIXED_NAME(narrow_b46);
        uint8_t b47[1] AVRO_FIXED_NAME(narrow_b47);
        uint8_t b48[1] AVRO_FIXED_NAME(narrow_b48);
        uint8_t b49[1] AVRO_FIXED_NAME(narrow_b49);
        uint8_t b50[1] AVRO_FIXED_NAME(narrow_b50);
        uint8_t b51[1] AVRO_FIXED_NAME(narrow_b51);
        uint8_t b52[1] AVRO_FIXED_NAME(narrow_b52);
        uint8_t b53[1] AVRO_FIXED_NAME(narrow_b53);
        uint8_t b54[1] AVRO_FIXED_NAME(narrow_b54);
        uint8_t b55[1] AVRO_FIXED_NAME(narrow_b55);
        uint8_t b56[1] AVRO_FIXED_NAME(narrow_b56);
        uint8_t b57[1] AVRO_FIXED_NAME(narrow_b57);
        uint8_t b58[1] AVRO_FIXED_NAME(narrow_b58);
        uint8_t b59[1] AVRO_FIXED_NAME(narrow_b59);
        uint8_t b60[1] AVRO_FIXED_NAME(narrow_b60);
        uint8_t b61[1] AVRO_FIXED_NAME(narrow_b61);
        uint8_t b62[1] AVRO_FIXED_NAME(narrow_b62);
        uint8_t b63[1] AVRO_FIXED_NAME(narrow_b63);
    } as AVRO_UNION(which);
};

struct AVRO_RECORD(namespace = "cg") wide {
    uint32_t which;
    union {
        uint8_t b0[1] AVRO_FIXED_NAME(wide_b0);
        uint8_t b1[1] AVRO_FIXED_NAME(wide_b1);
        uint8_t b2[1] AVRO_FIXED_NAME(wide_b2);
        uint8_t b3[1] AVRO_FIXED_NAME(wide_b3);
        uint8_t b4[1] AVRO_FIXED_NAME(wide_b4);
        uint8_t b5[1] AVRO_FIXED_NAME(wide_b5);
        uint8_t b6[1] AVRO_FIXED_NAME(wide_b6);
        uint8_t b7[1] AVRO_FIXED_NAME(wide_b7);
        uint8_t b8[1] AVRO_FIXED_NAME(wide_b8);
        uint8_t b9[1] AVRO_FIXED_NAME(wide_b9);
        uint8_t b10[1] AVRO_FIXED_NAME(wide_b10);
        uint8_t b11[1] AVRO_FIXED_NAME(wide_b11);
        uint8_t b12[1] AVRO_FIXED_NAME(wide_b12);
        uint8_t b13[1] AVRO_FIXED_NAME(wide_b13);
        uint8_t b14[1] AVRO_FIXED_NAME(wide_b14);
        uint8_t b15[1] AVRO_FIXED_NAME(wide_b15);
        uint8_t b16[1] AVRO_FIXED_NAME(wide_b16);
        uint8_t b17[1] AVRO_FIXED_NAME(wide_b17);
        uint8_t b18[1] AVRO_FIXED_NAME(wide_b18);
        uint8_t b19[1] AVRO_FIXED_NAME(wide_b19);
        uint8_t b20[1] AVRO_FIXED_NAME(wide_b20);
        uint8_t b21[1] AVRO_FIXED_NAME(wide_b21);
        uint8_t b22[1] AVRO_FIXED_NAME(wide_b22);
        uint8_t b23[1] AVRO_FIXED_NAME(wide_b23);
        uint8_t b24[1] AVRO_FIXED_NAME(wide_b24);
        uint8_t b25[1] AVRO_FIXED_NAME(wide_b25);
        uint8_t b26[1] AVRO_FIXED_NAME(wide_b26);
        uint8_t b27[1] AVRO_FIXED_NAME(wide_b27);
        uint8_t b28[1] AVRO_FIXED_NAME(wide_b28);
        uint8_t b29[1] AVRO_FIXED_NAME(wide_b29);
        uint8_t b30[1] AVRO_FIXED_NAME(wide_b30);
        uint8_t b31[1] AVRO_FIXED_NAME(wide_b31);
        uint8_t b32[1] AVRO_FIXED_NAME(wide_b32);
        uint8_t b33[1] AVRO_FIXED_NAME(wide_b33);
        uint8_t b34[1] AVRO_FIXED_NAME(wide_b34);
        uint8_t b35[1] AVRO_FIXED_NAME(wide_b35);
        uint8_t b36[1] AVRO_FIXED_NAME(wide_b36);
        uint8_t b37[1] AVRO_FIXED_NAME(wide_b37);
        uint8_t b38[1] AVRO_FIXED_NAME(wide_b38);
        uint8_t b39[1] AVRO_FIXED_NAME(wide_b39);
        uint8_t b40[1] AVRO_FIXED_NAME(wide_b40);
        uint8_t b41[1] AVRO_FIXED_NAME(wide_b41);
        uint8_t b42[1] AVRO_FIXED_NAME(wide_b42);
        uint8_t b43[1] AVRO_FIXED_NAME(wide_b43);
        uint8_t b44[1] AVRO_FIXED_NAME(wide_b44);
        uint8_t b45[1] AVRO_FIXED_NAME(wide_b45);
        uint8_t b46[1] AVRO_FIXED_NAME(wide_b46);
        uint8_t b47[1] AVRO_FIXED_NAME(wide_b47);
        uint8_t b48[1] AVRO_FIXED_NAME(wide_b48);
        uint8_t b49[1] AVRO_FIXED_NAME(wide_b49);
        uint8_t b50[1] AVRO_FIXED_NAME(wide_b50);
        uint8_t b51[1] AVRO_FIXED_NAME(wide_b51);
        uint8_t b52[1] AVRO_FIXED_NAME(wide_b52);
        uint8_t b53[1] AVRO_FIXED_NAME(wide_b53);
        uint8_t b54[1] AVRO_FIXED_NAME(wide_b54);
        uint8_t b55[1] AVRO_FIXED_NAME(wide_b55);
        uint8_t b56[1] AVRO_FIXED_NAME(wide_b56);
        uint8_t b57[1] AVRO_FIXED_NAME(wide_b57);
        uint8_t b58[1] AVRO_FIXED_NAME(wide_b58);
        uint8_t b59[1] AVRO_FIXED_NAME(wide_b59);
        uint8_t b60[1] AVRO_FIXED_NAME(wide_b60);
        uint8_t b61[1] AVRO_FIXED_NAME(wide_b61);
        uint8_t b62[1] AVRO_FIXED_NAME(wide_b62);
        uint8_t b63[1] AVRO_FIXED_NAME(wide_b63);
        uint8_t b64[1] AVRO_FIXED_NAME(wide_b64);
    } as AVRO_UNION(which);
};

enum AVRO_ENUM(namespace = "cg") e64 {
    E64_S00, E64_S01, E64_S02, E64_S03, E64_S04, E64_S05, E64_S06, E64_S07, E64_S08, E64_S09,
    E64_S10, E64_S11, E64_S12, E64_S13, E64_S14, E64_S15, E64_S16, E64_S17, E64_S18, E64_S19,
    E64_S20, E64_S21, E64_S22, E64_S23, E64_S24, E64_S25, E64_S26, E64_S27, E64_S28, E64_S29,
    E64_S30, E64_S31, E64_S32, E64_S33, E64_S34, E64_S35, E64_S36, E64_S37, E64_S38, E64_S39,
    E64_S40, E64_S41, E64_S42, E64_S43, E64_S44, E64_S45, E64_S46, E64_S47, E64_S48, E64_S49,
    E64_S50, E64_S51, E64_S52, E64_S53, E64_S54, E64_S55, E64_S56, E64_S57, E64_S58, E64_S59,
    E64_S60, E64_S61, E64_S62, E64_S63
};

enum AVRO_ENUM(namespace = "cg") e65 {
    E65_S00, E65_S01, E65_S02, E65_S03, E65_S04, E65_S05, E65_S06, E65_S07, E65_S08, E65_S09,
    E65_S10, E65_S11, E65_S12, E65_S13, E65_S14, E65_S15, E65_S16, E65_S17, E65_S18, E65_S19,
    E65_S20, E65_S21, E65_S22, E65_S23, E65_S24, E65_S25, E65_S26, E65_S27, E65_S28, E65_S29,
    E65_S30, E65_S31, E65_S32, E65_S33, E65_S34, E65_S35, E65_S36, E65_S37, E65_S38, E65_S39,
    E65_S40, E65_S41, E65_S42, E65_S43, E65_S44, E65_S45, E65_S46, E65_S47, E65_S48, E65_S49,
    E65_S50, E65_S51, E65_S52, E65_S53, E65_S54, E65_S55, E65_S56, E65_S57, E65_S58, E65_S59,
    E65_S60, E65_S61, E65_S62, E65_S63, E65_S64
};

struct AVRO_RECORD(namespace = "cg") indexes {
    enum e64 a;
    enum e65 b;
};

#endif /* CG_WIDE_H */
