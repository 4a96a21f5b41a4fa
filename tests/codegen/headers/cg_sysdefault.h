/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: structs of installed glibc headers whose layout or
 * presence depends on the dialect, annotated out of line and generated with
 * no -std (avrogen parses as gnu17, plain cc's dialect): struct stat, whose
 * times are st_atim/st_mtim/st_ctim timespecs only outside strict ISO C, and
 * struct addrinfo, which <netdb.h> declares only outside it (its
 * struct sockaddr *ai_addr the ai_addrlen bytes it points at: bytes). The code is
 * compiled as plain `cc` compiles it (no -std; tests/codegen/CMakeLists.txt).
 * The members of struct stat skipped are x86-64's padding.
 *
 * And shapes glibc uses everywhere (issue 23): struct rusage, whose fourteen
 * counters are each an anonymous union of a long and its __*_word view; with
 * the views skipped by their own names, the record is the two timevals and
 * fourteen longs, named as C names them; struct epoll_event (packed on
 * x86-64), whose data is an untagged union epoll_data: with ptr, fd and u32
 * skipped (on the union type, or by a path from the record), it is its u64;
 * struct sockaddr_in6, whose sin6_addr (struct in6_addr, a union of three
 * views of 16 bytes) is a fixed of its bytes as stored. */
#ifndef CG_SYSDEFAULT_H
#define CG_SYSDEFAULT_H

#include <netdb.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct stat, name = "FileStatus", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct stat, __pad0, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct stat, __glibc_reserved, AVRO_SKIP);

AVRO_EXTERN_RECORD(struct addrinfo, name = "AddrInfo", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct addrinfo, ai_addr, AVRO_BYTES(ai_addrlen)); /* the sockaddr as stored */
AVRO_EXTERN_FIELD(struct addrinfo, ai_canonname, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct addrinfo, ai_next, AVRO_NULLABLE);

AVRO_EXTERN_RECORD(struct rusage, name = "ResourceUsage", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct rusage, __ru_maxrss_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_ixrss_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_idrss_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_isrss_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_minflt_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_majflt_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_nswap_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_inblock_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_oublock_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_msgsnd_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_msgrcv_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_nsignals_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_nvcsw_word, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct rusage, __ru_nivcsw_word, AVRO_SKIP);

AVRO_EXTERN_RECORD(struct epoll_event, name = "EpollEvent", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(union epoll_data, ptr, AVRO_SKIP);
AVRO_EXTERN_FIELD(union epoll_data, fd, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct epoll_event, data.u32, AVRO_SKIP);

AVRO_EXTERN_RECORD(struct sockaddr_in6, name = "SocketAddressV6", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct sockaddr_in6, sin6_addr, AVRO_FIXED_NAME(IPv6Address));

#endif /* CG_SYSDEFAULT_H */
