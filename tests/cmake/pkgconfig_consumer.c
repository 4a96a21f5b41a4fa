/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program built with nothing but `pkg-config --cflags --libs avrogen` (the
 * package test links it shared, then static): it reaches the parts of the
 * runtime that need jansson, libcrypto and the codec libraries.
 */
#include <stdio.h>
#include <string.h>

#include <avrogen/ocf.h>
#include <avrogen/schema.h>

int main(void)
{
    const char *json = "{\"type\": \"fixed\", \"name\": \"F\", \"size\": 4}";
    avrogen_schema *s;
    uint8_t md5[16];
    if (avrogen_schema_parse(json, strlen(json), NULL, &s, NULL) != AVROGEN_OK)
        return 1;
    bool ok = avrogen_md5(json, strlen(json), md5) && avrogen_ocf_codec_supported("zstandard");
    printf("pkg-config consumer: fingerprint %016llx, %s\n",
           (unsigned long long)avrogen_schema_fingerprint64(s), ok ? "ok" : "FAILED");
    avrogen_schema_free(s);
    return ok ? 0 : 1;
}
