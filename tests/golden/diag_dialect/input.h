/* SPDX-License-Identifier: Apache-2.0 */
/* Parsed with -std=c11 (args): strict ISO C, under which glibc's <netdb.h>
 * declares no struct addrinfo. The message names the feature macros to pass. */
#include <netdb.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct addrinfo, name = "AddrInfo");
