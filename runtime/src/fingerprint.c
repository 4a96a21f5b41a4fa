/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema fingerprints (spec §Schema Fingerprints): CRC-64-AVRO, the spec's
 * 64-bit Rabin fingerprint, written from its definition, and MD5 / SHA-256
 * through OpenSSL's EVP interface. These work on arbitrary bytes; the schema
 * module applies them to the Parsing Canonical Form.
 */
#include <openssl/evp.h>

#include "avrogen/schema.h"

/* spec §Schema Fingerprints: the fingerprint of the empty string, which is also
 * the reflected polynomial the table is built from. */
#define CRC64_AVRO_EMPTY UINT64_C(0xc15d213aa4d7a795)

/*
 * The spec's table-driven algorithm consumes a byte at a time through a
 * 256-entry table. We use the same recurrence four bits at a time with a
 * 16-entry table: by linearity, two nibble steps equal one byte step. The
 * small table is built on every call (64 shift/xor steps), which keeps the
 * runtime free of global state without a copied constant table.
 */
uint64_t avrogen_crc64_avro(const void *data, size_t len)
{
    uint64_t table[16];
    for (unsigned i = 0; i < 16; i++) {
        uint64_t fp = i;
        for (int j = 0; j < 4; j++)
            fp = (fp >> 1) ^ (CRC64_AVRO_EMPTY & (0 - (fp & 1)));
        table[i] = fp;
    }

    const unsigned char *p = data;
    uint64_t fp = CRC64_AVRO_EMPTY;
    for (size_t i = 0; i < len; i++) {
        fp = (fp >> 4) ^ table[(fp ^ p[i]) & 0x0f];
        fp = (fp >> 4) ^ table[(fp ^ (unsigned)(p[i] >> 4)) & 0x0f];
    }
    return fp;
}

static bool digest(const EVP_MD *md, const void *data, size_t len, uint8_t *out, unsigned want)
{
    unsigned got = 0;
    if (md == NULL || EVP_Digest(data, len, out, &got, md, NULL) != 1)
        return false;
    return got == want;
}

bool avrogen_md5(const void *data, size_t len, uint8_t out[16])
{
    return digest(EVP_md5(), data, len, out, 16);
}

bool avrogen_sha256(const void *data, size_t len, uint8_t out[32])
{
    return digest(EVP_sha256(), data, len, out, 32);
}
