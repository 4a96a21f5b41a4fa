/* Anonymous members as real C code has them. A C11 anonymous struct member's
 * fields are fields of the record that holds it; a member whose struct type has
 * no tag (and no typedef) makes that type a record named after the member,
 * "<Record>_<member>", in the record's namespace, annotated or not. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "com.example") session {
    int32_t pid;
    __extension__ struct { /* anonymous: uid and gid are fields of session */
        int32_t uid;
        int32_t gid;
    };
    struct { /* utmp's ut_tv: the record session_tv */
        int32_t tv_sec;
        int32_t tv_usec;
    } tv;
    struct AVRO_RECORD(doc = "Where the session was opened.") {
        double lat, lon;
    } at[2];
    struct {
        int32_t code;
    } *last AVRO_NULLABLE;
    struct {
        struct {
            int32_t z;
        } deep;
    } mid;
    union {
        struct {
            int32_t port;
            int32_t proto;
        } inet;
        char path[16];
    } peer AVRO_UNION(peer_kind);
    uint8_t peer_kind;
    int64_t *counts AVRO_ARRAY(n_counts);
    __extension__ struct { /* a count in an anonymous struct counts its sibling */
        uint32_t n_counts;
    };
};
