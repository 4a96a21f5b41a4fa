/* SPDX-License-Identifier: Apache-2.0 */
/* Codegen test types: the structs of issue 23's twelve that programs log and
 * that no other header here holds, from the installed headers as they are,
 * annotated only out of line, generated with no -std (gnu17, as plain cc):
 *
 * - struct tcp_info (<linux/tcp.h>, what getsockopt(TCP_INFO) fills): 4-, 2-
 *   and 1-bit bit-fields, __u32 counters (longs) and __u64 ones; the kernel
 *   reports ~0 (above the largest long) for an unlimited pacing rate, so
 *   tcpi_pacing_rate keeps its 64 bits as a long and tcpi_max_pacing_rate
 *   every value as a decimal of 20 digits (the two choices the encode error
 *   names);
 * - struct tm (<time.h>): tm_gmtoff and tm_zone, which glibc declares only
 *   outside strict ISO C; tm_zone may be NULL;
 * - struct dirent (<dirent.h>, what readdir returns): d_name a char[256];
 * - struct sysinfo (<sys/sysinfo.h>): an array of three loads, and `char
 *   _f[20 - 2 * sizeof(long) - sizeof(int)]`, a GNU zero-length array on
 *   LP64, skipped;
 * - z_stream (<zlib.h>): its counters and checksum, with the buffers, the
 *   allocator's function pointers, its opaque and internal state skipped and
 *   msg NULL unless an error set it. */
#ifndef CG_LOGGED_H
#define CG_LOGGED_H

#include <dirent.h>
#include <linux/tcp.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <zlib.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct tcp_info, name = "TcpInfo", namespace = "cg.logged");
AVRO_EXTERN_FIELD(struct tcp_info, tcpi_pacing_rate, AVRO_FIELD(type = "long"));
AVRO_EXTERN_FIELD(struct tcp_info, tcpi_max_pacing_rate, AVRO_DECIMAL(20, 0));

AVRO_EXTERN_RECORD(struct tm, name = "CalendarTime", namespace = "cg.logged");
AVRO_EXTERN_FIELD(struct tm, tm_zone, AVRO_NULLABLE);

AVRO_EXTERN_RECORD(struct dirent, name = "DirectoryEntry", namespace = "cg.logged");

AVRO_EXTERN_RECORD(struct sysinfo, name = "SystemInfo", namespace = "cg.logged");
AVRO_EXTERN_FIELD(struct sysinfo, _f, AVRO_SKIP);

AVRO_EXTERN_RECORD(z_stream, name = "ZStream", namespace = "cg.logged");
AVRO_EXTERN_FIELD(z_stream, next_in, AVRO_SKIP);
AVRO_EXTERN_FIELD(z_stream, next_out, AVRO_SKIP);
AVRO_EXTERN_FIELD(z_stream, msg, AVRO_NULLABLE);
AVRO_EXTERN_FIELD(z_stream, state, AVRO_SKIP);
AVRO_EXTERN_FIELD(z_stream, zalloc, AVRO_SKIP);
AVRO_EXTERN_FIELD(z_stream, zfree, AVRO_SKIP);
AVRO_EXTERN_FIELD(z_stream, opaque, AVRO_SKIP);

#endif /* CG_LOGGED_H */
