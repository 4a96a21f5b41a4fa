/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: structs of installed glibc headers whose layout or
 * presence depends on the dialect, annotated out of line and generated with
 * no -std (avrogen parses as gnu17, plain cc's dialect): struct stat, whose
 * times are st_atim/st_mtim/st_ctim timespecs only outside strict ISO C, and
 * struct addrinfo, which <netdb.h> declares only outside it. The code is
 * compiled as plain `cc` compiles it (no -std; tests/codegen/CMakeLists.txt).
 * The members skipped are x86-64's padding. */
#ifndef CG_SYSDEFAULT_H
#define CG_SYSDEFAULT_H

#include <netdb.h>
#include <sys/stat.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct stat, name = "FileStatus", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct stat, __pad0, AVRO_SKIP);
AVRO_EXTERN_FIELD(struct stat, __glibc_reserved, AVRO_SKIP);

AVRO_EXTERN_RECORD(struct addrinfo, name = "AddrInfo", namespace = "cg.sysdefault");
AVRO_EXTERN_FIELD(struct addrinfo, ai_addr, AVRO_SKIP); /* ai_addrlen bytes: issue 23 item 5 */
AVRO_EXTERN_FIELD(struct addrinfo, ai_canonname, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(struct addrinfo, ai_next, AVRO_NULLABLE);

#endif /* CG_SYSDEFAULT_H */
