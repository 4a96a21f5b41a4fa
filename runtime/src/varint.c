/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrays of longs and ints, the bulk halves of avrogen_read_longs/ints and
 * avrogen_write_longs/ints in gencode.h: one call per block instead of one
 * inline varint per item. Each item is one 8-byte load (two more bytes for the
 * 9- and 10-byte longs) or one 8-byte store, no loop over its bytes.
 *
 * Two implementations of every function, chosen at run time per call:
 *  - x86-64 with BMI2 (Intel since Haswell, AMD since Zen 3): PEXT packs the
 *    7-bit groups of a varint, PDEP spreads them, LZCNT measures them; the
 *    decoders find the ends of the varints of 64 bytes at once with SSE2;
 *  - everywhere else, and on AMD Zen 1 and 2, whose PEXT and PDEP are
 *    microcoded (tens of cycles): the same words packed and spread with
 *    shifts and masks (avrogen_varint_pack in gencode.h).
 * Both decode exactly what avrogen_get_varint does, so a varint either path
 * refuses (too long, stray high bits in the last byte) is left for the caller's
 * checked read, which reports it at its own offset.
 *
 * What is not here: single values (inline in gencode.h), bounds of the
 * writer (the caller reserves 10 bytes an item), the reader's error state.
 */
#include "avrogen/gencode.h"

#include "cpu_internal.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_BMI2_PATH 1
#include <immintrin.h>
#define TARGET_BMI2 __attribute__((target("bmi,bmi2,lzcnt")))
#else
#define HAVE_BMI2_PATH 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The low 56 bits of u as 7-bit groups in the low bits of each byte. */
static inline uint64_t spread7(uint64_t u)
{
    uint64_t x = u & UINT64_C(0x00ffffffffffffff);
    x = (x & UINT64_C(0x000000000fffffff)) | (x & UINT64_C(0x00fffffff0000000)) << 4;
    x = (x & UINT64_C(0x00003fff00003fff)) | (x & UINT64_C(0x0fffc0000fffc000)) << 2;
    return (x & UINT64_C(0x007f007f007f007f)) | (x & UINT64_C(0x3f803f803f803f80)) << 1;
}

static inline uint64_t pack_swar(uint64_t w, uint64_t mask)
{
    return avrogen_varint_pack(w & mask);
}

static inline uint64_t spread_swar(uint64_t u)
{
    return spread7(u);
}

static inline unsigned varint_len_swar(uint64_t u)
{
    return (unsigned)avrogen_size_varint(u);
}

/* The high bits of the first k - 1 bytes (all 8 for k of 9 or 10): a varint's
 * continuation bits in its first word. */
static inline uint64_t continued_swar(unsigned k)
{
    return k > 8 ? AVROGEN_VARINT_HIGH : AVROGEN_VARINT_HIGH & ((UINT64_C(1) << (8 * k - 8)) - 1);
}

/*
 * Decode up to n longs from *pp while each has 10 readable bytes before end;
 * stops before one that is too long. `pack(w, mask)` packs the 7-bit groups of
 * w selected by mask.
 */
static ALWAYS_INLINE size_t get_longs_with(const uint8_t **pp, const uint8_t *end, int64_t *dst,
                                           size_t n, uint64_t (*pack)(uint64_t, uint64_t))
{
    const uint8_t *p = *pp;
    size_t i = 0;
    for (;;) {
        /* The items that surely start 10 bytes or more before the end. */
        size_t stretch = (size_t)(end - p) / 10;
        size_t last = n - i < stretch ? n : i + stretch;
        if (last == i)
            break;
        for (; i < last; i++) {
            uint64_t w = avrogen_load_le64(p);
            uint64_t stop = ~w & AVROGEN_VARINT_HIGH;
            uint64_t u;
            if (AVROGEN_LIKELY(stop != 0)) {
                u = pack(w, (stop ^ (stop - 1)) & AVROGEN_VARINT_LOW);
                p += avrogen_ctz64(stop) / 8 + 1;
            } else {
                uint64_t b8 = p[8], b9 = p[9];
                u = pack(w, AVROGEN_VARINT_LOW) | (b8 & 0x7f) << 56;
                if (b8 < 0x80) {
                    p += 9;
                } else if (b9 <= 1) {
                    u |= b9 << 63;
                    p += 10;
                } else {
                    goto out;
                }
            }
            dst[i] = avrogen_zigzag_decode(u);
        }
    }
out:
    *pp = p;
    return i;
}

/* The same for ints: each with 8 readable bytes, at most 5 varint bytes, 32 bits. */
static ALWAYS_INLINE size_t get_ints_with(const uint8_t **pp, const uint8_t *end, int32_t *dst,
                                          size_t n, uint64_t (*pack)(uint64_t, uint64_t))
{
    const uint8_t *p = *pp;
    size_t i = 0;
    for (;;) {
        size_t stretch = (size_t)(end - p) / 8;
        size_t last = n - i < stretch ? n : i + stretch;
        if (last == i)
            break;
        for (; i < last; i++) {
            uint64_t w = avrogen_load_le64(p);
            uint64_t stop = ~w & UINT64_C(0x8080808080);
            if (AVROGEN_UNLIKELY(stop == 0))
                goto out;
            uint64_t u = pack(w, (stop ^ (stop - 1)) & AVROGEN_VARINT_LOW);
            if (AVROGEN_UNLIKELY(u > UINT32_MAX))
                goto out;
            p += avrogen_ctz64(stop) / 8 + 1;
            dst[i] = (int32_t)avrogen_zigzag_decode(u);
        }
    }
out:
    *pp = p;
    return i;
}

/* The functions one implementation encodes with. */
typedef struct put_ops {
    uint64_t (*spread)(uint64_t u); /* the low 56 bits of u as 7-bit groups, one a byte */
    unsigned (*len)(uint64_t u);    /* the length of u's varint */
    uint64_t (*continued)(unsigned k);
} put_ops;

/* The varint of zigzag value u at p, which has room for 10 bytes; returns its end.
 * It stores 8 bytes: those past a shorter varint are the next one's, or room. */
static ALWAYS_INLINE uint8_t *put_one(uint8_t *p, uint64_t u, put_ops ops)
{
    unsigned k = ops.len(u);
    avrogen_store_le64(p, ops.spread(u) | ops.continued(k));
    if (AVROGEN_UNLIKELY(k > 8)) {
        p[8] = (uint8_t)((u >> 56 & 0x7f) | (k == 10 ? 0x80 : 0));
        p[9] = (uint8_t)(u >> 63);
    }
    return p + k;
}

static ALWAYS_INLINE uint8_t *put_longs_with(uint8_t *p, const int64_t *v, size_t n, put_ops ops)
{
    for (size_t i = 0; i < n; i++)
        p = put_one(p, avrogen_zigzag_encode(v[i]), ops);
    return p;
}

static ALWAYS_INLINE uint8_t *put_ints_with(uint8_t *p, const int32_t *v, size_t n, put_ops ops)
{
    for (size_t i = 0; i < n; i++)
        p = put_one(p, avrogen_zigzag_encode(v[i]), ops);
    return p;
}

static const put_ops swar_ops = {spread_swar, varint_len_swar, continued_swar};

/* Bytes of the varints of n values: bit counting, four at a time so that the
 * four dependency chains overlap. */
static ALWAYS_INLINE size_t size_longs_with(const int64_t *v, size_t n, unsigned (*len)(uint64_t))
{
    size_t a = 0, b = 0, c = 0, d = 0, i = 0;
    for (; n - i >= 4; i += 4) {
        a += len(avrogen_zigzag_encode(v[i]));
        b += len(avrogen_zigzag_encode(v[i + 1]));
        c += len(avrogen_zigzag_encode(v[i + 2]));
        d += len(avrogen_zigzag_encode(v[i + 3]));
    }
    for (; i < n; i++)
        a += len(avrogen_zigzag_encode(v[i]));
    return a + b + c + d;
}

static ALWAYS_INLINE size_t size_ints_with(const int32_t *v, size_t n, unsigned (*len)(uint64_t))
{
    size_t a = 0, b = 0, i = 0;
    for (; n - i >= 2; i += 2) {
        a += len(avrogen_zigzag_encode(v[i]));
        b += len(avrogen_zigzag_encode(v[i + 1]));
    }
    if (i < n)
        a += len(avrogen_zigzag_encode(v[i]));
    return a + b;
}

#if HAVE_BMI2_PATH
TARGET_BMI2 static inline uint64_t pack_bmi2(uint64_t w, uint64_t mask)
{
    return _pext_u64(w, mask);
}

TARGET_BMI2 static inline uint64_t spread_bmi2(uint64_t u)
{
    return _pdep_u64(u, AVROGEN_VARINT_LOW);
}

TARGET_BMI2 static inline unsigned varint_len_bmi2(uint64_t u)
{
    /* (9 log2 + 73) / 64 with log2 = 63 - lzcnt(u | 1), as avrogen_size_varint. */
    return (640u - 9u * (unsigned)_lzcnt_u64(u | 1)) / 64u;
}

TARGET_BMI2 static inline uint64_t continued_bmi2(unsigned k)
{
    /* BZHI keeps the low 8k - 8 bits, every bit from 64 up. */
    return _bzhi_u64(AVROGEN_VARINT_HIGH, 8 * k - 8);
}

/*
 * The BMI2 decoders read the input 64 bytes at a time. An SSE2 movemask per
 * 16 bytes gives the bytes that end a varint (high bit clear) as a 64-bit
 * mask, and each varint is then decoded on its own: it runs from the end of
 * the one before to its bit in the mask, one 8-byte load and one PEXT.
 * Decoding varint after varint, finding each one's end in its own bytes,
 * chains every load to the one before through a bit scan and a pointer add
 * (about 11 cycles a varint, slower than a branch-predicted byte loop); here
 * the ends come from the mask, and the chunks are at fixed steps, so no mask
 * waits for a varint either. A varint may start in one chunk and end in the
 * next. Arrays shorter than 8 items go varint by varint.
 */

/* The bytes of the 64 at c that end a varint: bit k set when c[k] < 0x80. */
TARGET_BMI2 static inline uint64_t varint_ends64(const uint8_t *c)
{
    const __m128i *v = (const __m128i *)(const void *)c;
    uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_loadu_si128(v));
    uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_loadu_si128(v + 1));
    uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_loadu_si128(v + 2));
    uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_loadu_si128(v + 3));
    return ~(m0 | m1 << 16 | m2 << 32 | m3 << 48);
}

/*
 * A varint's 7-bit groups but its lowest bit, zigzag's sign: PEXT with this
 * mask gives the zigzag value shifted right by one, so that decoding it is one
 * XOR with the sign.
 */
#define VARINT_LOW_NO_SIGN UINT64_C(0x7f7f7f7f7f7f7f7e)

/*
 * The long whose varint runs from p to q (q - p bytes, the last one ends it),
 * with 10 readable bytes at p, into *out; false when it is too long or its
 * tenth byte carries more than bit 63 (avrogen_get_varint's checks).
 */
TARGET_BMI2 static ALWAYS_INLINE bool long_between(const uint8_t *p, const uint8_t *q, int64_t *out)
{
    size_t len = (size_t)(q - p);
    uint64_t w = avrogen_load_le64(p);
    /* BZHI keeps all 64 bits from an index of 64 up: right for 9 and 10 bytes too. */
    uint64_t half = _pext_u64(w, _bzhi_u64(VARINT_LOW_NO_SIGN, (unsigned)len * 8));
    if (AVROGEN_UNLIKELY(len > 8)) {
        /* Bytes 9 and 10 as far as they are this varint's: byte 9 alone, or
         * both, the 10th at most 1 (bit 63). BZHI reads only the low 8 bits
         * of its index, so more than 10 bytes is refused on its own. */
        uint64_t b = _bzhi_u64(avrogen_load_le64(p + 2) >> 48, (unsigned)(len - 8) * 8);
        if (len > 10 || b > 0x1ff)
            return false;
        half |= _pext_u64(b, 0x17f) << 55;
    }
    *out = (int64_t)(half ^ (0 - (w & 1)));
    return true;
}

/* The same for an int: at most 5 bytes, a zigzag value of 32 bits. */
TARGET_BMI2 static ALWAYS_INLINE bool int_between(const uint8_t *p, const uint8_t *q, int32_t *out)
{
    size_t len = (size_t)(q - p);
    uint64_t w = avrogen_load_le64(p);
    uint64_t half = _pext_u64(w, _bzhi_u64(VARINT_LOW_NO_SIGN, (unsigned)len * 8));
    /* The zigzag value fits in 32 bits when half of it fits in 31. */
    if (AVROGEN_UNLIKELY(len > 5 || half > INT32_MAX))
        return false;
    *out = (int32_t)(int64_t)(half ^ (0 - (w & 1)));
    return true;
}

/* The varint from p to q into item i of dst64 (longs) or dst32 (ints). */
TARGET_BMI2 static ALWAYS_INLINE bool item_between(const uint8_t *p, const uint8_t *q, bool longs,
                                                   int64_t *dst64, int32_t *dst32, size_t i)
{
    return longs ? long_between(p, q, dst64 + i) : int_between(p, q, dst32 + i);
}

/*
 * Up to n items into dst64 (longs) or dst32 (ints, longs false) by chunks while a whole
 * chunk and 8 bytes after it are in the input; *pp moved past them. Stops
 * before a varint it refuses, which the caller's varint-by-varint decoder
 * then meets too.
 */
TARGET_BMI2 static ALWAYS_INLINE size_t get_chunked(const uint8_t **pp, const uint8_t *end,
                                                    bool longs, int64_t *dst64, int32_t *dst32,
                                                    size_t n)
{
    const uint8_t *p = *pp;
    size_t i = 0;
    for (const uint8_t *c = p; n - i >= 8 && end - c >= 64 + 8; c += 64) {
        uint64_t m = varint_ends64(c);
        /* Only the first n - i ends: PDEP puts n - i ones onto the lowest bits of m. */
        if (n - i < 64)
            m = _pdep_u64((UINT64_C(1) << (n - i)) - 1, m);
        const uint8_t *after = c + 1;
        /* Two varints a round: the second needs no register moves. */
        while (m != 0) {
            const uint8_t *q = after + _tzcnt_u64(m);
            if (!item_between(p, q, longs, dst64, dst32, i))
                goto out;
            i++;
            p = q;
            m = _blsr_u64(m);
            if (m == 0)
                break;
            q = after + _tzcnt_u64(m);
            if (!item_between(p, q, longs, dst64, dst32, i))
                goto out;
            i++;
            p = q;
            m = _blsr_u64(m);
        }
    }
out:
    *pp = p;
    return i;
}

TARGET_BMI2 static size_t get_longs_bmi2(const uint8_t **pp, const uint8_t *end, int64_t *dst,
                                         size_t n)
{
    size_t i = get_chunked(pp, end, true, dst, NULL, n);
    return i + get_longs_with(pp, end, dst + i, n - i, pack_bmi2);
}

TARGET_BMI2 static size_t get_ints_bmi2(const uint8_t **pp, const uint8_t *end, int32_t *dst,
                                        size_t n)
{
    size_t i = get_chunked(pp, end, false, NULL, dst, n);
    return i + get_ints_with(pp, end, dst + i, n - i, pack_bmi2);
}

static const put_ops bmi2_ops = {spread_bmi2, varint_len_bmi2, continued_bmi2};

TARGET_BMI2 static size_t size_longs_bmi2(const int64_t *v, size_t n)
{
    return size_longs_with(v, n, varint_len_bmi2);
}

TARGET_BMI2 static size_t size_ints_bmi2(const int32_t *v, size_t n)
{
    return size_ints_with(v, n, varint_len_bmi2);
}

#define TARGET_AVX2 __attribute__((target("avx2")))

/* The bound h >= 2^hi_bits on the high halves of four 63-bit values and
 * l >= 2^lo_bits on their low halves, as signed compares of the halves
 * against the bound less one (a bit count of 31: never, for the low halves). */
TARGET_AVX2 static inline __m256i halves_at_least(unsigned lo_bits, unsigned hi_bits)
{
    int32_t lo = (int32_t)(lo_bits < 31 ? (UINT32_C(1) << lo_bits) - 1 : INT32_MAX);
    int32_t hi = (int32_t)((UINT32_C(1) << hi_bits) - 1);
    return _mm256_set_epi32(hi, lo, hi, lo, hi, lo, hi, lo);
}

/* The sum of the eight 32-bit lanes of x. */
TARGET_AVX2 static inline int32_t lanes_sum(__m256i x)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

/*
 * With AVX2, four longs at a time: a long's varint takes 1 byte more for each
 * k in 1..9 with zigzag(x) >= 2^7k. The zigzag form is 2a or 2a + 1 with
 * a = x ^ (x >> 63), below 2^63, so the bound is a >= 2^(7k - 1). For k = 5..9
 * that is a bound on a's high half (2^2, 2^9, 2^16, 2^23, 2^30), which is below
 * 2^31; for k = 1..4 one on its low half (2^6, 2^13, 2^20, 2^27), which is set
 * to 2^31 - 1 when a >= 2^31 (all four met). So both halves are non-negative
 * as int32 and five signed compares of eight halves count the nine bounds, as
 * -1 each.
 */
TARGET_AVX2 static inline __m256i count_bounds(__m256i acc, __m256i x)
{
    const __m256i low_max = _mm256_set1_epi64x(INT32_MAX);
    __m256i a = _mm256_xor_si256(x, _mm256_cmpgt_epi64(_mm256_setzero_si256(), x));
    /* all ones in the low half of each a >= 2^31 */
    __m256i big = _mm256_srli_epi64(_mm256_cmpgt_epi64(a, low_max), 32);
    a = _mm256_blendv_epi8(a, low_max, big);
    /* Written out: at -O2 a loop over the bounds costs more than the compares. */
    acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, halves_at_least(6, 2)));
    acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, halves_at_least(13, 9)));
    acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, halves_at_least(20, 16)));
    acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, halves_at_least(27, 23)));
    return _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, halves_at_least(31, 30)));
}

TARGET_AVX2 static size_t size_longs_avx2(const int64_t *v, size_t n)
{
    size_t total = n;
    while (n >= 8) {
        /* A 32-bit lane drops by at most 5 for four longs and the eight add
         * up to at most 9 a long: sum them every 2^24 longs, long before
         * they could wrap. */
        size_t m = n < ((size_t)1 << 24) ? n & ~(size_t)7 : (size_t)1 << 24;
        n -= m;
        __m256i acc = _mm256_setzero_si256();
        do {
            acc = count_bounds(acc, _mm256_loadu_si256((const __m256i *)(const void *)v));
            acc = count_bounds(acc, _mm256_loadu_si256((const __m256i *)(const void *)(v + 4)));
            v += 8;
            m -= 8;
        } while (m != 0);
        total -= (size_t)(int64_t)lanes_sum(acc);
    }
    if (n >= 4) {
        __m256i acc = count_bounds(_mm256_setzero_si256(),
                                   _mm256_loadu_si256((const __m256i *)(const void *)v));
        total -= (size_t)(int64_t)lanes_sum(acc);
        v += 4;
        n -= 4;
    }
    for (; n != 0; n--, v++)
        total += (size_t)avrogen_size_long(*v) - 1;
    return total;
}

/* Eight ints at a time: 1 byte more for each k in 1..4 with zigzag(x) >= 2^7k,
 * that is a >= 2^(7k - 1) with a = x ^ (x >> 31), which is below 2^31. */
TARGET_AVX2 static size_t size_ints_avx2(const int32_t *v, size_t n)
{
    size_t total = n, i = 0;
    while (n - i >= 8) {
        /* Each lane drops by at most 4 for eight ints: sum them every 2^27. */
        size_t stop = n - i > ((size_t)1 << 27) ? i + ((size_t)1 << 27) : n;
        __m256i acc = _mm256_setzero_si256();
        for (; stop - i >= 8; i += 8) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(v + i));
            __m256i a = _mm256_xor_si256(x, _mm256_srai_epi32(x, 31));
            acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, _mm256_set1_epi32((1 << 6) - 1)));
            acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, _mm256_set1_epi32((1 << 13) - 1)));
            acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, _mm256_set1_epi32((1 << 20) - 1)));
            acc = _mm256_add_epi32(acc, _mm256_cmpgt_epi32(a, _mm256_set1_epi32((1 << 27) - 1)));
        }
        total -= (size_t)(int64_t)lanes_sum(acc);
    }
    for (; i < n; i++)
        total += (size_t)avrogen_size_long(v[i]) - 1;
    return total;
}

TARGET_BMI2 static uint8_t *put_longs_bmi2(uint8_t *p, const int64_t *v, size_t n)
{
    return put_longs_with(p, v, n, bmi2_ops);
}

TARGET_BMI2 static uint8_t *put_ints_bmi2(uint8_t *p, const int32_t *v, size_t n)
{
    return put_ints_with(p, v, n, bmi2_ops);
}

/*
 * BMI2 is there and fast: not on AMD family 17h (Zen 1 and 2), where PEXT and
 * PDEP take tens of cycles. __builtin_cpu_supports reads what libgcc's
 * constructor found at load time: no state of ours.
 */
static bool use_bmi2(void)
{
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
           !__builtin_cpu_is("znver2");
}
#endif

static size_t get_longs_portable(const uint8_t **pp, const uint8_t *end, int64_t *dst, size_t n)
{
    return get_longs_with(pp, end, dst, n, pack_swar);
}

static size_t get_ints_portable(const uint8_t **pp, const uint8_t *end, int32_t *dst, size_t n)
{
    return get_ints_with(pp, end, dst, n, pack_swar);
}

static uint8_t *put_longs_portable(uint8_t *p, const int64_t *v, size_t n)
{
    return put_longs_with(p, v, n, swar_ops);
}

static uint8_t *put_ints_portable(uint8_t *p, const int32_t *v, size_t n)
{
    return put_ints_with(p, v, n, swar_ops);
}

static size_t size_longs_portable(const int64_t *v, size_t n)
{
    return size_longs_with(v, n, varint_len_swar);
}

static size_t size_ints_portable(const int32_t *v, size_t n)
{
    return size_ints_with(v, n, varint_len_swar);
}

/* Sizes: AVX2 where the CPU has it; else bit counting with BSR, which costs
 * fewer instructions than the LZCNT form (9.8 against 11.8 a long). */
size_t avrogen_size_longs(const int64_t *v, size_t n)
{
#if HAVE_BMI2_PATH
    if (__builtin_cpu_supports("avx2"))
        return size_longs_avx2(v, n);
#endif
    return size_longs_portable(v, n);
}

size_t avrogen_size_ints(const int32_t *v, size_t n)
{
#if HAVE_BMI2_PATH
    if (__builtin_cpu_supports("avx2"))
        return size_ints_avx2(v, n);
#endif
    return size_ints_portable(v, n);
}

size_t avrogen_get_longs(const uint8_t **pp, const uint8_t *end, int64_t *dst, size_t n)
{
#if HAVE_BMI2_PATH
    if (use_bmi2())
        return get_longs_bmi2(pp, end, dst, n);
#endif
    return get_longs_portable(pp, end, dst, n);
}

size_t avrogen_get_ints(const uint8_t **pp, const uint8_t *end, int32_t *dst, size_t n)
{
#if HAVE_BMI2_PATH
    if (use_bmi2())
        return get_ints_bmi2(pp, end, dst, n);
#endif
    return get_ints_portable(pp, end, dst, n);
}

uint8_t *avrogen_put_longs(uint8_t *p, const int64_t *v, size_t n)
{
#if HAVE_BMI2_PATH
    if (use_bmi2())
        return put_longs_bmi2(p, v, n);
#endif
    return put_longs_portable(p, v, n);
}

uint8_t *avrogen_put_ints(uint8_t *p, const int32_t *v, size_t n)
{
#if HAVE_BMI2_PATH
    if (use_bmi2())
        return put_ints_bmi2(p, v, n);
#endif
    return put_ints_portable(p, v, n);
}

const avrogen_varint_impl *avrogen_varint_impls(size_t *n)
{
    static const avrogen_varint_impl impls[] = {
        {"portable", get_longs_portable, get_ints_portable, put_longs_portable, put_ints_portable,
         size_longs_portable, size_ints_portable},
#if HAVE_BMI2_PATH
        {"bmi2", get_longs_bmi2, get_ints_bmi2, put_longs_bmi2, put_ints_bmi2, size_longs_bmi2,
         size_ints_bmi2},
        {"bmi2+avx2", get_longs_bmi2, get_ints_bmi2, put_longs_bmi2, put_ints_bmi2, size_longs_avx2,
         size_ints_avx2},
#endif
    };
    *n = 1;
#if HAVE_BMI2_PATH
    /* The BMI2 entries only where the CPU has the instructions (slow or not). */
    if (__builtin_cpu_supports("bmi2"))
        *n = __builtin_cpu_supports("avx2") ? 3 : 2;
#endif
    return impls;
}
