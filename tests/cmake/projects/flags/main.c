/* SPDX-License-Identifier: Apache-2.0 */
/* Encodes a probe with the static runtime and checks the size the generated
 * code computes against what this compiler sees. */
#include <stdio.h>
#include <string.h>

#include "models/probe.avro.h"

int main(void)
{
    struct probe p;
    memset(&p, 0, sizeof p);
    memcpy(p.greeting, PROBE_GREETING, sizeof PROBE_GREETING);
    /* array: count, PROBE_SLOTS zero ints, end of blocks; then the fixed bytes */
    size_t want = 1 + PROBE_SLOTS + 1 + sizeof PROBE_GREETING;
    uint8_t buf[256];
    avrogen_writer w;
    avrogen_writer_init_fixed(&w, buf, sizeof buf);
    if (probe_avro_encode(&w, &p) != AVROGEN_OK || avrogen_writer_len(&w) != want ||
        probe_avro_size(&p) != want) {
        fprintf(stderr, "probe: %zu bytes, expected %zu\n", avrogen_writer_len(&w), want);
        return 1;
    }
    printf("probe ok: %zu bytes\n", want);
    return 0;
}
