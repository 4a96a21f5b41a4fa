/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the code paths chosen by CPU (cpu_internal.h): every
 * implementation the machine runs against the portable reference, on the same
 * bytes. The input is read three ways:
 *  - as text: every UTF-8 validator gives the scalar one's answer, and the
 *    C-string reader (NUL and UTF-8 together) the scalar scan's error;
 *  - as varints: avrogen_read_longs/ints give the byte loop's items, error and
 *    offset, and each bulk decoder decodes exactly the items the byte loop
 *    does, stopping only where it may;
 *  - as 64-bit values: each bulk encoder writes the byte loop's bytes, and
 *    each bulk size function counts them.
 * Any disagreement aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/gencode.h"

#include "cpu_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ITEMS 512

static void check_text(const uint8_t *data, size_t size)
{
    size_t n;
    const avrogen_utf8_impl *impls = avrogen_utf8_impls(&n);
    bool want = impls[0].valid(data, size);
    for (size_t i = 1; i < n; i++)
        if (impls[i].valid(data, size) != want)
            abort();
    if (avrogen_utf8_valid(data, size) != want)
        abort();

    /* As a string read into a C string: the error the scalar scan names first.
     * A NUL comes first when the bytes before it are valid UTF-8 (the scan
     * reaches it at a character boundary); a sequence cut by it is not. */
    if (size > 4096)
        return;
    static uint8_t in[4096 + 16];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, in, sizeof in);
    avrogen_write_bytes(&w, data, size);
    const uint8_t *nul = memchr(data, 0, size);
    bool bad = nul != NULL ? !impls[0].valid(data, (size_t)(nul - data)) : !want;
    avrogen_reader r;
    avrogen_reader_init(&r, in, avrogen_writer_len(&w));
    avrogen_str str = avrogen_read_ctext(&r);
    if (!bad && nul == NULL) {
        if (r.err != AVROGEN_OK || str.len != size)
            abort();
        return;
    }
    if (r.err != AVROGEN_E_INVALID || r.err_offset != avrogen_writer_len(&w) - size ||
        (strstr(r.err_msg, "NUL") != NULL) == bad)
        abort();
}

static void check_varints(const uint8_t *data, size_t size, bool ints)
{
    int64_t want[MAX_ITEMS], got[MAX_ITEMS];
    int32_t got32[MAX_ITEMS];
    size_t starts[MAX_ITEMS + 1];
    size_t n = size < MAX_ITEMS ? size : MAX_ITEMS;
    /* Sometimes fewer items than the input holds, so that a decoder that
     * finds many varint ends at once must stop at the n-th. */
    if (size > 2 && data[0] >= 0xc0)
        n = n * data[1] / 256;

    /* The byte loop, item by item: the reference. */
    avrogen_reader ref, r;
    avrogen_reader_init(&ref, data, size);
    size_t valid = 0;
    memset(want, 0, sizeof want);
    while (valid < n) {
        starts[valid] = avrogen_reader_offset(&ref);
        want[valid] = ints ? (int32_t)avrogen_read_varint_slow(&ref, 5)
                           : avrogen_read_varint_slow(&ref, 10);
        if (ref.err != AVROGEN_OK)
            break;
        valid++;
    }
    if (valid == n)
        starts[n] = avrogen_reader_offset(&ref);

    /* The inline readers of generated code. */
    avrogen_reader_init(&r, data, size);
    memset(got, 0, sizeof got);
    memset(got32, 0, sizeof got32);
    if (ints) {
        avrogen_read_ints(&r, got32, n);
        for (size_t i = 0; i < n; i++)
            got[i] = got32[i];
    } else {
        avrogen_read_longs(&r, got, n);
    }
    if (r.err != ref.err || r.err_offset != ref.err_offset || r.p != ref.p ||
        memcmp(got, want, n * sizeof *got) != 0)
        abort();

    /* Each bulk decoder on its own. */
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    size_t room = ints ? 8 : 10;
    for (size_t m = 0; m < n_impls; m++) {
        const uint8_t *p = data;
        size_t k = ints ? impls[m].get_ints(&p, data + size, got32, n)
                        : impls[m].get_longs(&p, data + size, got, n);
        if (k > valid || (size_t)(p - data) != starts[k])
            abort();
        for (size_t i = 0; i < k; i++)
            if (want[i] != (ints ? got32[i] : got[i]))
                abort();
        if (k != n && k != valid && size - starts[k] >= room)
            abort();
    }
}

static void check_writes(const uint8_t *data, size_t size)
{
    int64_t v[MAX_ITEMS / 8];
    int32_t v32[MAX_ITEMS / 8];
    uint8_t want[MAX_ITEMS / 8 * 10], got[MAX_ITEMS / 8 * 10];
    size_t n = size / 8 < MAX_ITEMS / 8 ? size / 8 : MAX_ITEMS / 8;
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, data + 8 * i, 8);
        /* Skew toward short varints as well as long ones. */
        u >>= u % 64;
        memcpy(&v[i], &u, 8);
        v32[i] = (int32_t)u;
    }
    size_t n_impls;
    const avrogen_varint_impl *impls = avrogen_varint_impls(&n_impls);
    for (int ints = 0; ints <= 1; ints++) {
        size_t len = 0;
        for (size_t i = 0; i < n; i++)
            len = (size_t)(avrogen_put_varint(want + len,
                                              avrogen_zigzag_encode(ints ? v32[i] : v[i])) -
                           want);
        for (size_t m = 0; m < n_impls; m++) {
            uint8_t *end = ints ? impls[m].put_ints(got, v32, n) : impls[m].put_longs(got, v, n);
            if ((size_t)(end - got) != len || memcmp(got, want, len) != 0)
                abort();
            if ((ints ? impls[m].size_ints(v32, n) : impls[m].size_longs(v, n)) != len)
                abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_text(data, size);
    check_varints(data, size, false);
    check_varints(data, size, true);
    check_writes(data, size);
    return 0;
}
