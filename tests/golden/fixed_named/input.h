/* Fixed types with a doc or aliases (AVRO_FIXED_NAME's options; namespace = "": namespace_null), and
 * decimals wider than 18 digits on bytes, held as their big-endian two's-complement bytes. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "golden.fixed") ledger {
    uint8_t digest[16] AVRO_FIXED_NAME(MD5, doc = "an MD5 of the entry", aliases = ["Digest"]);
    uint8_t again[16] AVRO_FIXED_NAME(MD5); /* the same type, defined once */
    uint8_t tag[2] AVRO_FIXED_NAME(other.Tag, doc = "a full name");
    avrogen_bytes amount AVRO_DECIMAL(38, 2);   /* any width: the unscaled value's bytes */
    avrogen_bytes total AVRO_DECIMAL(19, 0) AVRO_NULLABLE;
    int64_t small AVRO_DECIMAL(18, 4);          /* up to 18 digits, an int64_t as before */
};
