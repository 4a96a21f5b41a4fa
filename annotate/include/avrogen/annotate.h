/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The annotation macros of avrogen and its two view types. This is the only
 * avrogen header a user puts in their own headers. It includes standard headers
 * only and costs nothing: unless the avrogen tool is parsing (it defines
 * AVROGEN_PARSING), every annotation expands to nothing, so annotated headers
 * compile silently as C11 or C++ under -Wall -Wextra -Wpedantic.
 *
 *     #include <avrogen/annotate.h>
 *
 *     struct AVRO_RECORD(namespace = "com.acme") line {
 *         int64_t sku;
 *         char *name AVRO_NULLABLE;
 *         struct line *next AVRO_NULLABLE;
 *         uint8_t *blob AVRO_ARRAY(n_blob);
 *         size_t n_blob;
 *     };
 *
 * avro-c's <avro.h> uses AVRO_RECORD, AVRO_ENUM, AVRO_ARRAY, AVRO_MAP and
 * AVRO_UNION as enumerators. Those annotations are function-like macros, so an
 * enumerator spelled without parentheses is left alone and a translation unit
 * may include both headers.
 *
 * Placement: AVRO_RECORD / AVRO_ENUM go between `struct`/`enum` and the tag;
 * field annotations go after the declarator, before the `;` (GNU attribute
 * positions). Options are `key = JSON literal` pairs; shape macros take bare
 * tokens. The full contract is DESIGN.md's "annotation contract". Rules
 * worth knowing up front:
 *
 *  - AVRO_NULLABLE needs a pointer, and NULL is null: `int32_t *x AVRO_NULLABLE`
 *    is ["null","int"]. char *, avrogen_str / avrogen_bytes (ptr NULL) and
 *    AVRO_ARRAY pointers carry their own null.
 *  - AVRO_UNION(tag) on a C union member: tag value i selects the union's i-th
 *    member in declaration order, which is Avro branch i. A member marked
 *    AVRO_FIELD(type = "null") is a null branch and is never read. When the
 *    tag values are not positions, AVRO_TAG(v, ...) on every member lists the
 *    values selecting it (constants, enumerators, macros); decode stores the
 *    first: `double f64 AVRO_TAG(MSGPACK_OBJECT_FLOAT64, MSGPACK_OBJECT_FLOAT32);`
 *    A member that points to an annotated struct (`struct cons *cons;`) is that
 *    record, never NULL: how a record holds itself through a branch.
 *  - Bit-fields map by type and width: `bool urgent : 1` is a boolean,
 *    `unsigned version : 4` an int; decode refuses what the width cannot hold.
 *  - Every standard and POSIX integer type maps without annotation (long,
 *    size_t, time_t, ... are Avro longs on every platform). Unsigned 64-bit
 *    ones (uint64_t, size_t) hold 0..INT64_MAX: encode refuses more, never
 *    wraps. AVRO_FIELD(type = "long") keeps the same 64 bits instead (values
 *    above INT64_MAX read back negative elsewhere); AVRO_DECIMAL(20, 0)
 *    stores all of them exactly as bytes.
 *  - Counts beside the data: `T items[N] AVRO_ARRAY(n)` holds the first n of N
 *    items; `char s[N] AVRO_STRING(len)` and `uint8_t b[N] AVRO_BYTES(len)` the
 *    first len bytes; `char *s AVRO_STRING(len)` is text of len bytes, not
 *    NUL-terminated, `void *p AVRO_BYTES(len)` bytes, as is a pointer to
 *    any object type: `struct sockaddr *ai_addr AVRO_BYTES(ai_addrlen)` is
 *    the bytes it points at, as stored (decode copies them into the arena). `char id[N]
 * AVRO_PADDED` is NUL-padded text whose N bytes may all be text. A flexible array member takes the
 * same with a second argument, the most items the program allocates after the struct:
 *    AVRO_EXTERN_FIELD(struct inotify_event, name, AVRO_STRING(len, NAME_MAX + 1))
 *    (a flexible char array's string ends at its first NUL within len;
 *    decode writes at most that many after the struct, NUL-terminated).
 *  - AVRO_DECIMAL(p, s) on int64_t / uint64_t is bytes with up to 18 (20)
 *    digits; on avrogen_bytes any precision, the view holding the unscaled
 *    value's big-endian two's-complement bytes as they are on the wire.
 *    AVRO_FIXED_NAME(Name, doc = "...", aliases = ["..."], namespace = "")
 *    names a uint8_t[N] fixed and gives it a doc, aliases or the null namespace;
 *    on a member of struct, union or array type (struct in6_addr, a MAC
 *    address struct) it makes the member fixed(sizeof member), its bytes as
 *    stored, with no annotation on the member's type.
 *  - struct timespec / struct timeval are long timestamp-nanos / -micros;
 *    AVRO_LOGICAL(timestamp-millis) etc. picks the unit (also on a time_t,
 *    otherwise a plain long of seconds). An instant the unit cannot hold in
 *    64 bits is an encode error; a coarser unit floors.
 *
 *  - Holders: an array, map or union as an array item or a union branch (one C
 *    location, no room for a count or tag beside it) is a struct of a member
 *    `value` and the count or tag it names, with no annotation, like a map
 *    entry without its key. Its Avro type is its value's:
 *        struct row { double *value AVRO_ARRAY(n); size_t n; };
 *        struct row *rows AVRO_ARRAY(n_rows);   // array of arrays of doubles
 *        union { bool b; double d; struct row list; } u AVRO_UNION(kind);
 *    (`struct maybe { char *value AVRO_NULLABLE; }` items: ["null","string"].)
 *  - A C11 anonymous struct member's fields are the record's fields. So are an
 *    anonymous union's, which share their storage: all but one of them (or of
 *    its anonymous structs) are AVRO_SKIP, and the record holds that one,
 *    named as C names it (glibc's struct rusage: AVRO_EXTERN_FIELD(struct
 *    rusage, __ru_maxrss_word, AVRO_SKIP) leaves the long ru_maxrss). A member
 *    of union type without AVRO_UNION whose union has one member not
 *    AVRO_SKIP (on the union type or by path) is that member: epoll's
 *    `union epoll_data data` with ptr, fd and u32 skipped is its u64. A member
 *    whose struct type has no tag (`struct { int32_t sec, usec; } tv;`) makes
 *    that type a record named <Record>_<member>; AVRO_RECORD(...) on it is
 *    optional.
 *  - Enum symbols are the enumerator names as written, less the prefix
 *    AVRO_ENUM(strip_prefix = "MODE_") states; an enumerator that cannot lose
 *    it (MODE_3D) is named with AVRO_FIELD(name = "FIX_3D") after it. No
 *    symbol depends on the other enumerators.
 *
 * Out of line, for headers that cannot be edited, system headers included
 * (file scope, in any header the tool parses; the type must be complete there):
 *
 *     #include <utmp.h>
 *     #include <vendor/point.h>
 *     AVRO_EXTERN_RECORD(struct utmp, name = "Login", namespace = "glibc");
 *     AVRO_EXTERN_RECORD(struct exit_status, namespace = "glibc"); // utmp's ut_exit
 *     AVRO_EXTERN_FIELD(struct utmp, __glibc_reserved, AVRO_SKIP);
 *     AVRO_EXTERN_RECORD(struct point, name = "Point", namespace = "geo");
 *     AVRO_EXTERN_FIELD(struct point, next, AVRO_NULLABLE);
 *     AVRO_EXTERN_FIELD(struct point, tags, AVRO_ARRAY(n_tags) AVRO_FIELD(doc = "labels"));
 *     AVRO_EXTERN_ENUM(enum vendor_color, name = "Color", strip_prefix = "VENDOR_");
 *     AVRO_EXTERN_FIELD(enum vendor_color, VENDOR_GREEN, AVRO_FIELD(name = "GO"));
 *     AVRO_EXTERN_RECORD(struct vendor_event);
 *     AVRO_EXTERN_FIELD(struct vendor_event, u, AVRO_UNION(kind));
 *     AVRO_EXTERN_FIELD(struct vendor_event, u.key, AVRO_TAG(VENDOR_KEY));
 *     AVRO_EXTERN_FIELD(struct vendor_event, u.real, AVRO_TAG(VENDOR_REAL));
 *
 * The first argument names the type as C would (`struct point`, `point_t`,
 * `enum vendor_color`); the rest are exactly the options or annotations that
 * would otherwise be written in place (for AVRO_EXTERN_FIELD, on the member or
 * enumerator named second). The branches of a tagged union take their AVRO_TAG
 * on the members of its union type: `union vendor_value, d` for a named or
 * typedef'd union, or a path of members from the record, `u.key`, for a union
 * declared inline (`union { ... } u;`). Either way it is the member of that
 * type that is annotated, as in place.
 */
#ifndef AVROGEN_ANNOTATE_H
#define AVROGEN_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

/* A string view: `len` bytes of UTF-8 at `ptr`, not NUL-terminated. */
typedef struct avrogen_str {
    const char *ptr;
    size_t len;
} avrogen_str;

/* A byte view: `len` bytes at `ptr`. */
typedef struct avrogen_bytes {
    const uint8_t *ptr;
    size_t len;
} avrogen_bytes;

#ifdef AVROGEN_PARSING

/* The payload the tool reads: "avrogen:<kind>:<the arguments as written>". */
#define AVROGEN_ANNOTATE(kind, text) __attribute__((annotate("avrogen:" kind ":" text)))

/* Records and enums: between `struct`/`enum` and the tag.
 * Options: name, namespace, doc, aliases, c_prefix; enums also default and
 * strip_prefix. */
#define AVRO_RECORD(...) AVROGEN_ANNOTATE("record", #__VA_ARGS__)
#define AVRO_ENUM(...)   AVROGEN_ANNOTATE("enum", #__VA_ARGS__)

/* Fields (and enumerators: name, doc). Options: name, doc, aliases, default,
 * order, type ("long" on uint64_t: its bits; "null" for a field, a map value or
 * a member of an AVRO_UNION that is always null: the member only holds the place). */
#define AVRO_FIELD(...) AVROGEN_ANNOTATE("field", #__VA_ARGS__)

/* Flags. avro-c defines none of these names. */
#define AVRO_NULLABLE AVROGEN_ANNOTATE("nullable", "")
#define AVRO_SKIP     AVROGEN_ANNOTATE("skip", "")
#define AVRO_PADDED   AVROGEN_ANNOTATE("padded", "")

/* Counts: AVRO_ARRAY / AVRO_STRING / AVRO_BYTES(count_field) and, on a
 * flexible array member, (count_field, the most items the program allocates
 * after the struct). The payload is the arguments as written, a newline, and
 * them macro-expanded, for the second argument's value (NAME_MAX + 1 reads
 * 255 + 1). */
/* Shapes. AVRO_TAG's values are macro-expanded first (AVRO_TAG(EV_KEY) with
 * `#define EV_KEY 0x01` reads 0x01); enumerators stay names. */
#define AVROGEN_TEXT(...)              #__VA_ARGS__
#define AVRO_ARRAY(...)                AVROGEN_ANNOTATE("array", #__VA_ARGS__ "\n" AVROGEN_TEXT(__VA_ARGS__))
#define AVRO_MAP(count_field)          AVROGEN_ANNOTATE("map", #count_field)
#define AVRO_UNION(tag_field)          AVROGEN_ANNOTATE("union", #tag_field)
#define AVRO_TAG(...)                  AVROGEN_ANNOTATE("tag", AVROGEN_TEXT(__VA_ARGS__))
#define AVRO_STRING(...)               AVROGEN_ANNOTATE("string", #__VA_ARGS__ "\n" AVROGEN_TEXT(__VA_ARGS__))
#define AVRO_BYTES(...)                AVROGEN_ANNOTATE("bytes", #__VA_ARGS__ "\n" AVROGEN_TEXT(__VA_ARGS__))
#define AVRO_LOGICAL(type)             AVROGEN_ANNOTATE("logical", #type)
#define AVRO_DECIMAL(precision, scale) AVROGEN_ANNOTATE("decimal", #precision "," #scale)
#define AVRO_FIXED_NAME(...)           AVROGEN_ANNOTATE("fixed_name", #__VA_ARGS__)

/*
 * Out of line: a typedef of the annotated type under a fresh name, carrying the
 * payload. Nothing uses the typedef; the tool finds it by its annotation. The
 * extra `0` argument keeps AVROGEN_FIRST's `...` non-empty under -pedantic.
 */
#define AVROGEN_FIRST(...)           AVROGEN_FIRST_OF(__VA_ARGS__, 0)
#define AVROGEN_FIRST_OF(first, ...) first
#define AVROGEN_CAT(a, b)            AVROGEN_CAT_EXPANDED(a, b)
#define AVROGEN_CAT_EXPANDED(a, b)   a##b
#define AVROGEN_MARKER               AVROGEN_CAT(avrogen_marker_, __COUNTER__)

#define AVRO_EXTERN_RECORD(...)        \
    typedef AVROGEN_FIRST(__VA_ARGS__) \
            AVROGEN_MARKER AVROGEN_ANNOTATE("extern_record", #__VA_ARGS__)
#define AVRO_EXTERN_ENUM(...) \
    typedef AVROGEN_FIRST(__VA_ARGS__) AVROGEN_MARKER AVROGEN_ANNOTATE("extern_enum", #__VA_ARGS__)
#define AVRO_EXTERN_FIELD(type, member, ...) \
    typedef type AVROGEN_MARKER AVROGEN_ANNOTATE("extern_field", #member) __VA_ARGS__

#else /* !AVROGEN_PARSING */

#define AVRO_RECORD(...)
#define AVRO_ENUM(...)
#define AVRO_FIELD(...)
#define AVRO_NULLABLE
#define AVRO_SKIP
#define AVRO_PADDED
#define AVRO_ARRAY(...)
#define AVRO_MAP(count_field)
#define AVRO_UNION(tag_field)
#define AVRO_TAG(...)
#define AVRO_STRING(...)
#define AVRO_BYTES(...)
#define AVRO_LOGICAL(type)
#define AVRO_DECIMAL(precision, scale)
#define AVRO_FIXED_NAME(...)

/* A file-scope declaration that may repeat and declares nothing usable: it
 * swallows the marker's `;` without a -Wpedantic "extra ';'" warning. */
#define AVRO_EXTERN_RECORD(...)              struct avrogen_extern_marker
#define AVRO_EXTERN_ENUM(...)                struct avrogen_extern_marker
#define AVRO_EXTERN_FIELD(type, member, ...) struct avrogen_extern_marker

#endif /* AVROGEN_PARSING */

#endif /* AVROGEN_ANNOTATE_H */
