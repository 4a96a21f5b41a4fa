/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: anonymous struct members (flattened into the record) and
 * members of untagged struct types (records named after the member), in
 * arrays, behind a nullable pointer, nested twice and as a union branch. The
 * anonymous structs carry __extension__, as glibc's do, since ISO C++ has
 * none: the header compiles as C++17 with -Wpedantic too. */
#ifndef CG_ANON_H
#define CG_ANON_H

#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "cg.anon") session {
    int32_t pid;
    __extension__ struct {
        int32_t uid;
        int32_t gid;
    };
    struct {
        int32_t tv_sec;
        int32_t tv_usec;
    } tv;
    struct {
        double lat, lon;
    } at[2];
    struct {
        int32_t code;
        char *why AVRO_NULLABLE;
    } *last AVRO_NULLABLE;
    struct {
        struct {
            int64_t z;
        } deep;
        char label[8];
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
    __extension__ struct {
        uint32_t n_counts;
    };
};

#endif /* CG_ANON_H */
