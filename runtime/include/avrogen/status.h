/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Status codes, positioned diagnostics and the export/attribute macros shared by
 * every avrogen header. There is one status enum for the whole runtime; its names
 * and texts come from a single X-macro list so they cannot drift apart.
 */
#ifndef AVROGEN_STATUS_H
#define AVROGEN_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(AVROGEN_STATIC_DEFINE)
#define AVROGEN_API
#elif defined(__GNUC__) || defined(__clang__)
#define AVROGEN_API __attribute__((visibility("default")))
#else
#define AVROGEN_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#define AVROGEN_NODISCARD         __attribute__((warn_unused_result))
#define AVROGEN_LIKELY(x)         __builtin_expect(!!(x), 1)
#define AVROGEN_UNLIKELY(x)       __builtin_expect(!!(x), 0)
#define AVROGEN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define AVROGEN_UNUSED            __attribute__((unused))
/* clang's -Wimplicit-fallthrough takes no comment, only the attribute. */
#define AVROGEN_FALLTHROUGH __attribute__((fallthrough))
/* Not inlined into callers in its own file (a generated P_avro_encode, so that
 * its type-erased wrapper calls it rather than taking a second copy of it). */
#define AVROGEN_NOINLINE __attribute__((noinline))
#else
#define AVROGEN_NODISCARD
#define AVROGEN_LIKELY(x)   (x)
#define AVROGEN_UNLIKELY(x) (x)
#define AVROGEN_PRINTF(fmt, args)
#define AVROGEN_UNUSED
#define AVROGEN_FALLTHROUGH ((void)0)
#define AVROGEN_NOINLINE
#endif

/* X(NAME, text): every status the runtime can return. */
#define AVROGEN_STATUS_LIST(X)                  \
    X(OK, "ok")                                 \
    X(E_NOMEM, "out of memory")                 \
    X(E_TRUNCATED, "input ends mid-value")      \
    X(E_OVERFLOW, "varint or length overflow")  \
    X(E_INVALID, "malformed data")              \
    X(E_LIMIT, "limit exceeded")                \
    X(E_NOSPACE, "output buffer full")          \
    X(E_SCHEMA, "invalid schema")               \
    X(E_MISMATCH, "schemas cannot be resolved") \
    X(E_IO, "I/O failure")                      \
    X(E_ARG, "invalid argument")

typedef enum avrogen_status {
#define AVROGEN_STATUS_ENUM(name, text) AVROGEN_##name,
    AVROGEN_STATUS_LIST(AVROGEN_STATUS_ENUM)
#undef AVROGEN_STATUS_ENUM
} avrogen_status;

/* The fixed English text of a status code; never NULL. */
AVROGEN_API const char *avrogen_status_str(avrogen_status s);

/*
 * Where a parse went wrong. Functions that take an `avrogen_diag *` fill it on
 * failure; NULL is always allowed. `path` is a JSON-pointer-like location inside
 * a schema ("/fields/2/type") or empty; line and column are 1-based, 0 if unknown.
 */
typedef struct avrogen_diag {
    int line;
    int column;
    size_t offset;  /* byte offset into the input */
    char path[128]; /* location inside the document, "" when not applicable */
    char msg[192];  /* one line of English, no trailing newline */
} avrogen_diag;

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_STATUS_H */
