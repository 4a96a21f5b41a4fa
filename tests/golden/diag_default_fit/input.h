/* A default must be one the C member can hold, not only valid Avro: the
 * members named ok_* hold their defaults exactly at the limit and pass. */
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "TONE_") tone { TONE_LOW, TONE_HIGH };

struct AVRO_RECORD() inner {
    char code[4];
    int8_t small;
};

struct AVRO_RECORD() tag {
    char key[4];
    int32_t value;
};

struct AVRO_RECORD() fit {
    /* char[N]: at most N - 1 bytes of UTF-8 */
    char code[4] AVRO_FIELD(default = "toolong");
    char wide[4] AVRO_FIELD(default = "\u00e9\u20ac");
    char ok_code[4] AVRO_FIELD(default = "abc");
    char ok_wide[4] AVRO_FIELD(default = "\u00e9");
    char ok_empty[1] AVRO_FIELD(default = "");

    /* T[N]: exactly N items */
    int64_t three[3] AVRO_FIELD(default = [1]);
    int64_t four[3] AVRO_FIELD(default = [1, 2, 3, 4]);
    int64_t ok_three[3] AVRO_FIELD(default = [1, 2, 3]);

    /* integers narrower than Avro's */
    int8_t i8_low AVRO_FIELD(default = -129);
    int16_t i16_high AVRO_FIELD(default = 32768);
    uint8_t u8_neg AVRO_FIELD(default = -1);
    uint16_t u16_high AVRO_FIELD(default = 65536);
    uint32_t u32_high AVRO_FIELD(default = 4294967296);
    int8_t ok_i8_low AVRO_FIELD(default = -128);
    int8_t ok_i8_high AVRO_FIELD(default = 127);
    int16_t ok_i16 AVRO_FIELD(default = -32768);
    uint16_t ok_u16 AVRO_FIELD(default = 65535);
    uint32_t ok_u32 AVRO_FIELD(default = 4294967295);

    /* fixed: exactly N bytes */
    uint8_t digest[4] AVRO_FIELD(default = "abc");
    uint8_t ok_digest[4] AVRO_FIELD(default = "\u0001\u00ff\u0002z");

    /* decimals into 64 bits (Avro does not hold a default to the precision) */
    int64_t big AVRO_DECIMAL(18, 0) AVRO_FIELD(default = "\u0001\u0001\u0001\u0001\u0001\u0001\u0001\u0001\u0001");
    uint64_t negative AVRO_DECIMAL(19, 0) AVRO_FIELD(default = "\u0080");
    int64_t ok_big AVRO_DECIMAL(18, 0) AVRO_FIELD(default = "\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff");

    /* enums, nullable members */
    enum tone pitch AVRO_FIELD(default = "LOUD");
    int8_t *maybe AVRO_NULLABLE AVRO_FIELD(default = 200);
    int8_t *ok_maybe AVRO_NULLABLE AVRO_FIELD(default = -128);

    /* nested: records, items, map keys, through a nullable pointer */
    struct inner origin AVRO_FIELD(default = {"code": "abcd", "small": 1});
    struct inner deep AVRO_FIELD(default = {"code": "ab", "small": 128});
    struct inner *maybe_inner AVRO_NULLABLE AVRO_FIELD(default = {"code": "abcde", "small": 0});
    struct inner ok_origin AVRO_FIELD(default = {"code": "abc", "small": -128});
    char names[2][4] AVRO_FIELD(default = ["abc", "abcd"]);
    char ok_names[2][4] AVRO_FIELD(default = ["abc", "xyz"]);
    int8_t *smalls AVRO_ARRAY(n_smalls) AVRO_FIELD(default = [1, 300]);
    uint8_t n_smalls;
    struct tag *tags AVRO_MAP(n_tags) AVRO_FIELD(default = {"ok": 1, "toolong": 2});
    uint32_t n_tags;
    struct tag *ok_tags AVRO_MAP(n_ok_tags) AVRO_FIELD(default = {"abc": 1});
    uint32_t n_ok_tags;
    /* bytes and arrays behind a pointer: no more than the count member holds */
    uint8_t *raw AVRO_ARRAY(n_raw) AVRO_FIELD(default = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    int8_t n_raw;
    uint8_t *ok_raw AVRO_ARRAY(n_ok_raw) AVRO_FIELD(default = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    int8_t n_ok_raw;
};
