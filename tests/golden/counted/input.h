/* A count or length beside the data: C arrays filled up to a count, pointers
 * with a length, and NUL-padded text. */
#include <stddef.h>
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() hop { int32_t ttl; };

struct AVRO_RECORD() counted {
    struct hop hops[8] AVRO_ARRAY(n_hops);   /* the first n_hops of 8 records */
    uint8_t n_hops;
    int64_t samples[16] AVRO_ARRAY(n_samples);
    size_t n_samples;
    char *tags[4] AVRO_ARRAY(n_tags);
    int n_tags;
    uint8_t blob[64] AVRO_BYTES(blob_len);    /* bytes of a capacity */
    uint16_t blob_len;
    char name[24] AVRO_STRING(name_len);      /* text of a capacity, not NUL-terminated */
    uint8_t name_len;
    char *topic AVRO_STRING(topic_len);       /* a pointer and a length */
    uint32_t topic_len;
    const char *note AVRO_STRING(note_len) AVRO_NULLABLE;
    size_t note_len;
    void *payload AVRO_BYTES(payload_len);
    int payload_len;
    unsigned char *extra AVRO_BYTES(extra_len) AVRO_NULLABLE;
    uint64_t extra_len;
    char id[4] AVRO_PADDED;                   /* strnlen(id, 4) bytes, all 4 may be text */
    char lines[2][8] AVRO_PADDED;             /* on the items */
    char user[32] AVRO_PADDED AVRO_FIELD(default = "nobody");
};
