/* SPDX-License-Identifier: Apache-2.0 */
/*
 * UTF-8 validation for strings (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF), and the C-string check that adds NUL bytes to what
 * is refused. gencode.h's readers skip the ASCII prefix of a string inline and
 * call here for the rest.
 *
 * Two validators: a scalar one, byte by byte (8 at a time through ASCII),
 * the reference; and on x86-64, for 16 bytes and more, one that checks 16
 * bytes at a time with SSSE3 shuffles, or 32 with AVX2's, chosen at run time.
 * The vector method is Keiser and Lemire's ("Validating UTF-8 in less than
 * one instruction per byte", Software: Practice and Experience 51(5), 2021):
 * every error of UTF-8 shows in a pair of adjacent bytes, given by three
 * 4-bit lookups (high and low nibble of the first byte, high nibble of the
 * second), except a missing third or fourth byte, which shows as a byte that
 * must continue a sequence two or three bytes back. The tables here are
 * derived below from Table 3-7 of the Unicode Standard, the one the scalar
 * validator implements, and the unit tests and fuzz_cpu hold the validators
 * to the same answer everywhere.
 */
#include <string.h>

#include "avrogen/gencode.h"

#include "cpu_internal.h"

/* ---- scalar ---------------------------------------------------------------- */

/*
 * The index in an 8-byte chunk, loaded from memory with memcpy, of its first
 * byte marked in `marks` (high bits; not 0): a byte that is not ASCII, or,
 * with `nul`, one that is NUL. Only the first marked byte need be exact.
 */
static unsigned first_marked_byte(const uint8_t *chunk, uint64_t marks, bool nul)
{
#if AVROGEN_LITTLE_ENDIAN && defined(__GNUC__)
    (void)chunk;
    (void)nul;
    return (unsigned)__builtin_ctzll(marks) / 8;
#else
    (void)marks;
    unsigned k = 0;
    while (chunk[k] < 0x80 && !(nul && chunk[k] == 0))
        k++;
    return k;
#endif
}

typedef enum text_scan { TEXT_OK, TEXT_BAD_UTF8, TEXT_NUL } text_scan;

/*
 * RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF. The
 * checks are those of the Unicode Standard's table of well-formed byte
 * sequences (Table 3-7): the lead byte fixes the length and the range of the
 * second byte, which is where overlong forms, surrogates and code points past
 * U+10FFFF show; every later byte is 80..BF. With `nul`, a NUL byte (valid
 * UTF-8, but not in a C string) stops the scan too: whichever comes first.
 */
static inline text_scan scan_text(const uint8_t *s, size_t len, bool nul)
{
    size_t i = 0;
    while (i < len) {
        /* ASCII runs dominate real data: test 8 bytes at a time and step
         * straight to the first byte that is not ASCII (or is NUL). */
        while (len - i >= 8) {
            uint64_t chunk;
            memcpy(&chunk, s + i, 8);
            uint64_t marks = nul ? avrogen_unplain64(chunk) : chunk & UINT64_C(0x8080808080808080);
            if (marks != 0) {
                i += first_marked_byte(s + i, marks, nul);
                break;
            }
            i += 8;
        }
        if (i == len)
            break;
        uint8_t c = s[i];
        if (c < 0x80) {
            if (nul && c == 0)
                return TEXT_NUL;
            i++;
            continue;
        }
        size_t n;
        uint8_t lo = 0x80, hi = 0xbf; /* the range of the second byte */
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0)
                lo = 0xa0; /* below: overlong */
            else if (c == 0xed)
                hi = 0x9f; /* above: surrogates D800..DFFF */
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0)
                lo = 0x90; /* below: overlong */
            else if (c == 0xf4)
                hi = 0x8f; /* above: past U+10FFFF */
        } else {
            return TEXT_BAD_UTF8; /* a continuation byte, C0, C1 (overlong) or F5..FF */
        }
        if (len - i < n || s[i + 1] < lo || s[i + 1] > hi)
            return TEXT_BAD_UTF8;
        for (size_t k = 2; k < n; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return TEXT_BAD_UTF8;
        i += n;
    }
    return TEXT_OK;
}

static bool utf8_valid_scalar(const uint8_t *s, size_t len)
{
    return scan_text(s, len, false) == TEXT_OK;
}

/* ---- 16 bytes at a time (x86-64) ------------------------------------------- */

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_SIMD_PATH 1
#include <immintrin.h>
#define TARGET_SSSE3 __attribute__((target("ssse3")))
#define TARGET_AVX2  __attribute__((target("avx2")))
#else
#define HAVE_SIMD_PATH 0
#endif

/*
 * Strings shorter than this take the scalar validator: the vector one pays
 * for its setup and the padded last block once per call.
 */
#define SIMD_MIN_LEN 16

#if HAVE_SIMD_PATH
/*
 * The errors a pair of bytes (p = the earlier byte, c = the later) can show,
 * one bit each. Each is a product of a condition on p's high nibble, one on
 * p's low nibble and one on c's high nibble, so three 16-entry tables, one per
 * nibble, ANDed together give exactly the errors of the pair. Lead bytes
 * C0..DF take one continuation (80..BF), E0..EF two, F0..F4 three; Table 3-7
 * narrows the second byte after E0 (A0..BF), ED (80..9F), F0 (90..BF) and F4
 * (80..8F).
 *
 *   bit  error                          p high  p low      c high
 *   01   lead without continuation      C..F    any        0..7, C..F
 *   02   continuation without lead      0..7    any        8..B
 *   04   E0 80..9F: overlong            E       0          8, 9
 *   08   F4 90..BF, F5..FF 90..BF       F       4..F       9..B
 *   10   ED A0..BF: surrogate           E       D          A, B
 *   20   C0, C1: overlong               C       0, 1       8..B
 *   40   F0 80..8F: overlong, and
 *        F5..FF 80..8F: past U+10FFFF   F       0, 5..F    8
 *   80   two continuations in a row     8..B    any        8..B
 *
 * Bit 80 is also what a third or fourth byte of a sequence looks like (a
 * continuation after a continuation): where the byte two back is E0..FF or
 * the one three back F0..FF the byte must be one, and XOR with 80 there turns
 * "two continuations" into "no error" and anything else into an error.
 */
#define P_HIGH_TABLE                                                                    \
    /* 0..7: 02, 8..B: 80, C: 01|20, D: 01, E: 01|04|10, F: 01|08|40 */                 \
    0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, (char)0x80, (char)0x80, (char)0x80, \
            (char)0x80, 0x21, 0x01, 0x15, 0x49
#define P_LOW_TABLE                                                                             \
    /* 01|02|80 everywhere; 0: +04|20|40, 1: +20, 4: +08, 5..F: +08|40, D: +10 */               \
    (char)0xe7, (char)0xa3, (char)0x83, (char)0x83, (char)0x8b, (char)0xcb, (char)0xcb,         \
            (char)0xcb, (char)0xcb, (char)0xcb, (char)0xcb, (char)0xcb, (char)0xcb, (char)0xdb, \
            (char)0xcb, (char)0xcb
#define C_HIGH_TABLE                                                                     \
    /* 0..7: 01, 8: 02|04|20|40|80, 9: 02|04|08|20|80, A, B: 02|08|10|20|80, C..F: 01 */ \
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, (char)0xe6, (char)0xae, (char)0xba,  \
            (char)0xba, 0x01, 0x01, 0x01, 0x01

/* What one block of 16 bytes leaves for the next: its bytes, and whether it
 * ends inside a sequence. */
typedef struct utf8_state {
    __m128i prev;
    __m128i incomplete; /* nonzero where the block's end needs more bytes */
    __m128i err;        /* errors found so far, any bit */
} utf8_state;

TARGET_SSSE3 static inline void utf8_block(utf8_state *st, __m128i cur)
{
    if (_mm_movemask_epi8(cur) == 0) {
        /* ASCII: fine, unless the block before it ended inside a sequence. */
        st->err = _mm_or_si128(st->err, st->incomplete);
        st->incomplete = _mm_setzero_si128();
        st->prev = cur;
        return;
    }
    const __m128i nibble = _mm_set1_epi8(0x0f);
    __m128i p1 = _mm_alignr_epi8(cur, st->prev, 15);
    __m128i p2 = _mm_alignr_epi8(cur, st->prev, 14);
    __m128i p3 = _mm_alignr_epi8(cur, st->prev, 13);
    __m128i p_high = _mm_and_si128(_mm_srli_epi16(p1, 4), nibble);
    __m128i p_low = _mm_and_si128(p1, nibble);
    __m128i c_high = _mm_and_si128(_mm_srli_epi16(cur, 4), nibble);
    __m128i pair =
            _mm_and_si128(_mm_and_si128(_mm_shuffle_epi8(_mm_setr_epi8(P_HIGH_TABLE), p_high),
                                        _mm_shuffle_epi8(_mm_setr_epi8(P_LOW_TABLE), p_low)),
                          _mm_shuffle_epi8(_mm_setr_epi8(C_HIGH_TABLE), c_high));
    /* The high bit of a saturated p2 - 0x60 is p2 >= E0, of p3 - 0x70 p3 >= F0. */
    __m128i must_continue = _mm_and_si128(_mm_or_si128(_mm_subs_epu8(p2, _mm_set1_epi8(0x60)),
                                                       _mm_subs_epu8(p3, _mm_set1_epi8(0x70))),
                                          _mm_set1_epi8((char)0x80));
    st->err = _mm_or_si128(st->err, _mm_xor_si128(pair, must_continue));
    /* Byte 15 C0.., byte 14 E0.., byte 13 F0..: the next block must continue it. */
    st->incomplete = _mm_subs_epu8(cur, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                      -1, -1, (char)0xef, (char)0xdf, (char)0xbf));
    st->prev = cur;
}

/* s[0, len), len >= 16: whole blocks, then the rest in a block padded with
 * zeros, whose ASCII also shows a sequence cut short by the end. */
TARGET_SSSE3 static inline bool utf8_valid_blocks(const uint8_t *s, size_t len)
{
    utf8_state st = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    size_t i = 0;
    for (; len - i >= 16; i += 16)
        utf8_block(&st, _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
    if (i < len) {
        uint8_t tail[16] = {0};
        memcpy(tail, s + i, len - i);
        utf8_block(&st, _mm_loadu_si128((const __m128i *)(const void *)tail));
    }
    __m128i err = _mm_or_si128(st.err, st.incomplete);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) == 0xffff;
}

TARGET_SSSE3 static bool utf8_valid_ssse3(const uint8_t *s, size_t len)
{
    if (len < SIMD_MIN_LEN)
        return utf8_valid_scalar(s, len);
    return utf8_valid_blocks(s, len);
}

/* The same 32 bytes at a time: the tables in both 16-byte lanes, and the
 * bytes before each lane from the other lane or the block before. */
typedef struct utf8_state256 {
    __m256i prev;
    __m256i incomplete;
    __m256i err;
} utf8_state256;

TARGET_AVX2 static inline void utf8_block256(utf8_state256 *st, __m256i cur)
{
    if (_mm256_movemask_epi8(cur) == 0) {
        st->err = _mm256_or_si256(st->err, st->incomplete);
        st->incomplete = _mm256_setzero_si256();
        st->prev = cur;
        return;
    }
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    /* [high lane of prev, low lane of cur]: what precedes each lane of cur. */
    __m256i before = _mm256_permute2x128_si256(st->prev, cur, 0x21);
    __m256i p1 = _mm256_alignr_epi8(cur, before, 15);
    __m256i p2 = _mm256_alignr_epi8(cur, before, 14);
    __m256i p3 = _mm256_alignr_epi8(cur, before, 13);
    __m256i p_high = _mm256_and_si256(_mm256_srli_epi16(p1, 4), nibble);
    __m256i p_low = _mm256_and_si256(p1, nibble);
    __m256i c_high = _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble);
    __m256i pair = _mm256_and_si256(
            _mm256_and_si256(
                    _mm256_shuffle_epi8(_mm256_setr_epi8(P_HIGH_TABLE, P_HIGH_TABLE), p_high),
                    _mm256_shuffle_epi8(_mm256_setr_epi8(P_LOW_TABLE, P_LOW_TABLE), p_low)),
            _mm256_shuffle_epi8(_mm256_setr_epi8(C_HIGH_TABLE, C_HIGH_TABLE), c_high));
    __m256i must_continue =
            _mm256_and_si256(_mm256_or_si256(_mm256_subs_epu8(p2, _mm256_set1_epi8(0x60)),
                                             _mm256_subs_epu8(p3, _mm256_set1_epi8(0x70))),
                             _mm256_set1_epi8((char)0x80));
    st->err = _mm256_or_si256(st->err, _mm256_xor_si256(pair, must_continue));
    st->incomplete = _mm256_subs_epu8(cur, _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                            -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                            -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                            (char)0xef, (char)0xdf, (char)0xbf));
    st->prev = cur;
}

TARGET_AVX2 static bool utf8_valid_avx2(const uint8_t *s, size_t len)
{
    if (len < SIMD_MIN_LEN)
        return utf8_valid_scalar(s, len);
    utf8_state256 st = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    size_t i = 0;
    for (; len - i >= 32; i += 32)
        utf8_block256(&st, _mm256_loadu_si256((const __m256i *)(const void *)(s + i)));
    if (i < len) {
        uint8_t tail[32] = {0};
        memcpy(tail, s + i, len - i);
        utf8_block256(&st, _mm256_loadu_si256((const __m256i *)(const void *)tail));
    }
    __m256i err = _mm256_or_si256(st.err, st.incomplete);
    return _mm256_testz_si256(err, err) != 0;
}

static bool (*utf8_validator(void))(const uint8_t *, size_t)
{
    if (__builtin_cpu_supports("avx2"))
        return utf8_valid_avx2;
    if (__builtin_cpu_supports("ssse3"))
        return utf8_valid_ssse3;
    return utf8_valid_scalar;
}
#endif

bool avrogen_utf8_valid(const uint8_t *s, size_t len)
{
#if HAVE_SIMD_PATH
    if (len >= SIMD_MIN_LEN)
        return utf8_validator()(s, len);
#endif
    return utf8_valid_scalar(s, len);
}

const avrogen_utf8_impl *avrogen_utf8_impls(size_t *n)
{
    static const avrogen_utf8_impl impls[] = {
        {"scalar", utf8_valid_scalar},
#if HAVE_SIMD_PATH
        {"ssse3", utf8_valid_ssse3},
        {"avx2", utf8_valid_avx2},
#endif
    };
    *n = 1;
#if HAVE_SIMD_PATH
    if (__builtin_cpu_supports("ssse3"))
        *n = __builtin_cpu_supports("avx2") ? 3 : 2;
#endif
    return impls;
}

/*
 * The rare half of avrogen_read_ctext: s holds a byte outside 0x01..0x7F
 * after its first `plain` bytes. One scan from there checks UTF-8 (when the reader does) and
 * looks for a NUL; on failure records the error at the string's first byte,
 * where r->p still is.
 */
bool avrogen_ctext_check(avrogen_reader *r, avrogen_str s, size_t plain)
{
    if (r->err != AVROGEN_OK)
        return false;
    /* s[0, plain) is in 0x01..0x7F (avrogen_plain_prefix): a character boundary. */
    const uint8_t *p = (const uint8_t *)s.ptr + plain;
    size_t n = s.len - plain;
    text_scan got = TEXT_OK;
    if (memchr(p, 0, n) != NULL || (r->check_utf8 && !avrogen_utf8_valid(p, n))) {
        /* Which comes first decides the message: the scalar scan knows. */
        got = r->check_utf8 ? scan_text(p, n, true) : TEXT_NUL;
    }
    if (got == TEXT_BAD_UTF8)
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
    else if (got == TEXT_NUL)
        avrogen_reader_fail(r, AVROGEN_E_INVALID,
                            "string holds a NUL byte, which a NUL-terminated C string cannot");
    return got == TEXT_OK;
}
