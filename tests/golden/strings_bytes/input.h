/* Strings and bytes in every C representation. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() texts {
    char *owned;                          /* string, NUL-terminated */
    const char *borrowed;                 /* string */
    char code[8];                         /* string of at most 7 bytes */
    avrogen_str view;                     /* string view */
    avrogen_bytes blob;                   /* bytes view */
    uint8_t *raw AVRO_ARRAY(n_raw);       /* bytes: pointer + count */
    size_t n_raw;
    const unsigned char *packet AVRO_ARRAY(packet_len);
    uint32_t packet_len;
    char *buf AVRO_ARRAY(buf_len);        /* char pointer + count is bytes too */
    int buf_len;
};
