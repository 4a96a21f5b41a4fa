/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generic values: a datum of any schema held as a tree of avrogen_value, with
 * the Avro binary encoding (encode, decode, skip by schema) and the Avro JSON
 * encoding (spec §JSON Encoding) of that tree. This is the layer for data whose
 * schema is only known at run time; generated code never calls into it.
 *
 * Every value carries its schema node. Logical types are held as their
 * underlying type (a decimal is its bytes, a timestamp its long). All memory
 * behind a value (record fields, items, entries, copied strings) comes from an
 * avrogen_arena owned by the caller and is released with it; nothing here calls
 * malloc except the JSON parser (jansson) while parsing.
 *
 *     avrogen_arena arena;
 *     avrogen_arena_init(&arena, NULL);
 *     avrogen_reader r;
 *     avrogen_reader_init(&r, buf, len);
 *     avrogen_value v;
 *     if (avrogen_value_decode(&r, avrogen_schema_root(schema), &v, &arena) == AVROGEN_OK)
 *         printf("%s\n", avrogen_value_field(&v, "name")->str.ptr);
 *     avrogen_arena_fini(&arena);
 *
 * What it does not do: schema resolution (reader vs writer schema) and
 * container files live elsewhere; values are trees, never graphs with cycles.
 */
#ifndef AVROGEN_VALUE_H
#define AVROGEN_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/arena.h"
#include "avrogen/gencode.h"
#include "avrogen/schema.h"
#include "avrogen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct avrogen_value avrogen_value;
typedef struct avrogen_map_entry avrogen_map_entry;

/* The items of an array value. */
typedef struct avrogen_value_array {
    avrogen_value *items;
    size_t count;
    size_t cap; /* slots allocated at `items`; maintained by avrogen_value_append */
} avrogen_value_array;

/* The entries of a map value, in wire (or insertion) order. */
typedef struct avrogen_value_map {
    avrogen_map_entry *entries;
    size_t count;
    size_t cap; /* slots allocated at `entries`; maintained by avrogen_value_map_put */
} avrogen_value_map;

/* The chosen branch of a union value. */
typedef struct avrogen_value_branch {
    size_t index;         /* into type->branches */
    avrogen_value *value; /* its type is type->branches[index] */
} avrogen_value_branch;

/*
 * One datum. `type` says which member of the anonymous union is live:
 *
 *   null                 nothing
 *   boolean              boolean
 *   int / long           i32 / i64
 *   float / double       f32 / f64
 *   bytes, fixed         bytes (a fixed value has bytes.len == type->size)
 *   string               str: UTF-8, NUL-terminated unless decoded zero-copy
 *   enum                 enum_index, into type->symbols
 *   array / map          array / map
 *   union                branch
 *   record               fields: type->n_fields values, in field order
 */
struct avrogen_value {
    const avrogen_node *type;
    union {
        bool boolean;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
        avrogen_bytes bytes;
        avrogen_str str;
        size_t enum_index;
        avrogen_value_array array;
        avrogen_value_map map;
        avrogen_value_branch branch;
        avrogen_value *fields;
    };
};

struct avrogen_map_entry {
    avrogen_str key; /* UTF-8; NUL-terminated unless decoded zero-copy */
    avrogen_value value;
};

static inline avrogen_kind avrogen_value_kind(const avrogen_value *v)
{
    return v->type->kind;
}

/* ---- building values ----------------------------------------------------- */

/*
 * Make *v the zero value of `type`: null, false, 0, 0.0, empty bytes/string/array/map,
 * a fixed of `size` zero bytes, the first enum symbol, the first union branch (itself
 * zero), a record whose fields are all zero values (defaults are not applied; see
 * avrogen_value_from_default). `type` must outlive v. Allocates from `a`.
 * Returns E_NOMEM, or E_LIMIT past the arena budget or when zero-initialising
 * would nest deeper than AVROGEN_DEFAULT_MAX_DEPTH (a recursive type whose first
 * union branch is the type itself).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_init(avrogen_value *v,
                                                                const avrogen_node *type,
                                                                avrogen_arena *a);

/* Set a boolean. E_ARG if v is not a boolean. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_bool(avrogen_value *v, bool x);

/* Set an int or a long. E_ARG for another kind, or an int outside INT32_MIN..INT32_MAX. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_long(avrogen_value *v, int64_t x);

/* Set a float (x converted) or a double. E_ARG for another kind, or a finite x
 * outside the range of float. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_double(avrogen_value *v, double x);

/*
 * Copy `len` bytes of `s` into `a` (plus a NUL) and make them the value of string v.
 * The bytes must be UTF-8 (E_INVALID otherwise); E_ARG if v is not a string;
 * E_NOMEM / E_LIMIT when the arena cannot supply them.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_string(avrogen_value *v,
                                                                      const char *s, size_t len,
                                                                      avrogen_arena *a);

/* Copy `len` bytes into `a` as the value of bytes or fixed v (a fixed needs
 * len == type->size). E_ARG on a kind or size mismatch, E_NOMEM / E_LIMIT. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_bytes(avrogen_value *v,
                                                                     const void *data, size_t len,
                                                                     avrogen_arena *a);

/* Select the enum symbol named `symbol`. E_ARG if v is not an enum or has no such symbol. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_enum(avrogen_value *v,
                                                                    const char *symbol);

/* The symbol of enum v, or NULL if v is not an enum or its index is out of range. */
AVROGEN_API const char *avrogen_value_enum_symbol(const avrogen_value *v);

/*
 * Select branch `index` of union v and make it the zero value of that branch's type
 * (see avrogen_value_init); *branch (may be NULL) receives it. E_ARG if v is not a
 * union or index is out of range; E_NOMEM / E_LIMIT.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_set_branch(avrogen_value *v,
                                                                      size_t index,
                                                                      avrogen_arena *a,
                                                                      avrogen_value **branch);

/*
 * Append a zero item to array v and return it in *item. The items may move: the
 * pointer is valid until the next append to the same array. Growth doubles the
 * capacity, leaving the old slots in the arena. E_ARG if v is not an array,
 * E_NOMEM / E_LIMIT.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_append(avrogen_value *v,
                                                                  avrogen_arena *a,
                                                                  avrogen_value **item);

/*
 * The value of map v under `key` (`len` bytes of UTF-8): the existing one, or a new
 * zero value appended with a copy of the key. *value is valid until the next put
 * into the same map. E_ARG if v is not a map, E_INVALID if the key is not UTF-8,
 * E_NOMEM / E_LIMIT.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_map_put(avrogen_value *v,
                                                                   const char *key, size_t len,
                                                                   avrogen_arena *a,
                                                                   avrogen_value **value);

/* ---- looking things up ---------------------------------------------------- */

/* The field of record v named `name` (aliases are not consulted), or NULL. */
AVROGEN_API avrogen_value *avrogen_value_field(const avrogen_value *v, const char *name);

/*
 * The value of map v under `key` (`len` bytes), or NULL. A map decoded from the
 * wire may repeat a key; the last entry wins, as in readers that build a dictionary.
 * Linear in the number of entries.
 */
AVROGEN_API avrogen_value *avrogen_value_map_get(const avrogen_value *v, const char *key,
                                                 size_t len);

/*
 * Deep equality of two values, possibly of different (but alike) schema objects:
 * same kind, and for named types the same fullname. Floats and doubles compare
 * by bit pattern, so NaN equals the same NaN and 0.0 differs from -0.0: two
 * values are equal exactly when they encode to the same bytes, except that map
 * entries compare as a set (by key, last duplicate wins, order ignored) and
 * enums compare by symbol name. Does not allocate.
 */
AVROGEN_API bool avrogen_value_equal(const avrogen_value *x, const avrogen_value *y);

/* ---- binary encoding (spec §Binary Encoding) ------------------------------ */

/*
 * Append the binary encoding of v to w. Arrays and maps are written as one block
 * followed by the 0 terminator (no block is written for an empty one), the form
 * avro-c and Python's avro write. Returns w->err: E_NOSPACE / E_NOMEM from the
 * writer, or E_ARG if v is inconsistent with its schema (a child whose `type` is
 * not the node the schema puts there, an enum or union index out of range, a
 * fixed of the wrong length). Allocates only through a growable writer.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_encode(avrogen_writer *w,
                                                                  const avrogen_value *v);

/* The number of bytes avrogen_value_encode writes for v, which must be valid. */
AVROGEN_API size_t avrogen_value_size(const avrogen_value *v);

/* avrogen_value_read flag: strings, bytes, fixed values and map keys point into the
 * reader's input instead of being copied; strings are then not NUL-terminated. */
#define AVROGEN_VALUE_ZEROCOPY 0x1u

/*
 * Decode one top-level datum of `type` from r into *out: starts a datum
 * (avrogen_reader_begin_datum: depth and item budget reset) and calls
 * avrogen_value_read with no flags, so strings and bytes are copied into `a`.
 *
 *     avrogen_reader r;
 *     avrogen_reader_init(&r, data, len);
 *     while (avrogen_reader_remaining(&r) != 0) {
 *         avrogen_arena_reset(&arena);
 *         if (avrogen_value_decode(&r, type, &v, &arena) != AVROGEN_OK)
 *             return r.err;   // r.err_offset and r.err_msg say where and why
 *         use(&v);
 *     }
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_decode(avrogen_reader *r,
                                                                  const avrogen_node *type,
                                                                  avrogen_value *out,
                                                                  avrogen_arena *a);

/*
 * Decode one value of `type` at r's position as part of the current datum (the
 * depth and item budget carry on; this is the building block for resolvers and
 * container readers). `flags` is 0 or AVROGEN_VALUE_ZEROCOPY; with zero-copy the
 * input must outlive *out.
 *
 * Every length, count and index is checked before use: E_TRUNCATED when the input
 * ends early (including a block count larger than the bytes left when every item
 * needs at least one byte), E_OVERFLOW for an overlong varint or an int outside 32
 * bits, E_INVALID for a negative length, an enum or union index out of range, a
 * boolean byte other than 0/1, a block whose declared byte size differs from what
 * its items take, or (with r->check_utf8) a string that is not UTF-8,
 * E_LIMIT past r->max_depth, past the per-datum item budget or past the arena's
 * budget, E_NOMEM when the arena's allocator fails. The error is sticky on r
 * (r->err, r->err_offset, r->err_msg) and returned. On error *out is unusable
 * (its memory stays in the arena until reset).
 *
 * Memory: at most a constant times the input size, except for items of types that
 * encode in zero bytes (null, fixed(0), records of those), which still take
 * sizeof(avrogen_value) each and are bounded only by r->max_items. Give the arena
 * a budget (avrogen_arena_set_budget) when the input is untrusted.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_read(avrogen_reader *r,
                                                                const avrogen_node *type,
                                                                avrogen_value *out,
                                                                avrogen_arena *a, unsigned flags);

/*
 * Skip one value of `type` at r's position without allocating, as part of the
 * current datum (call avrogen_reader_begin_datum first to skip a whole datum). A
 * block written with a negative count carries its size in bytes and is jumped
 * over without looking inside. Checks the structure the way avrogen_value_read
 * does (varints, lengths against the input, enum and union indexes, depth, item
 * budget) but not the content of skipped bytes: strings are not UTF-8-checked
 * and size-prefixed blocks are not parsed. Same status codes, sticky on r.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_skip(avrogen_reader *r,
                                                          const avrogen_node *type);

/* ---- JSON encoding (spec §JSON Encoding) ---------------------------------- */

/* avrogen_value_to_json flags. */
#define AVROGEN_JSON_COMPACT 0x1u /* "," and ":" with no space after them */
#define AVROGEN_JSON_UTF8    0x2u /* non-ASCII text as UTF-8 instead of \u escapes */
/* Indented, what Python's json.dumps(obj, indent=2) prints: each item on a line
 * of its own, two spaces per level, "," after items, empty containers as [] {}. */
#define AVROGEN_JSON_PRETTY 0x4u

/*
 * Append the Avro JSON encoding of v to w as one line (no newline, no NUL).
 *
 * The text is what Python's `json.dumps(obj)` prints for the same datum, byte for
 * byte: ", " and ": " as separators (AVROGEN_JSON_COMPACT drops the spaces), record
 * fields in schema order, map entries in their order, every character outside
 * printable ASCII escaped as a lowercase \uXXXX (surrogate pairs above U+FFFF) but
 * for the short forms \" \\ \b \f \n \r \t, integers in decimal, and floats and
 * doubles in Python's repr: the shortest text that reads back to the same double
 * ("0.1", "1e+16", "1e-05", "100.0"; a float is widened to double first).
 *
 * Avro's rules on top of JSON: a union is null for its null branch and otherwise
 * {"name": value} where name is the branch's fullname for records, enums and fixed
 * and the type name otherwise ("int", "array", ...); an enum is its symbol; bytes
 * and fixed are strings whose code points U+0000..U+00FF are the bytes (ISO-8859-1).
 * NaN and the infinities, which JSON cannot express, are the strings "NaN",
 * "Infinity" and "-Infinity" (what Java's Avro JSON encoder writes; avro-c cannot
 * write them at all, Python's json module writes bare tokens no JSON parser accepts);
 * the sign and payload of a NaN are lost. A map decoded with a repeated key prints
 * that key twice.
 *
 * Returns w->err: the writer's E_NOSPACE / E_NOMEM, E_INVALID for a string that is
 * not UTF-8, E_ARG for a value inconsistent with its schema.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_to_json(avrogen_writer *w,
                                                                   const avrogen_value *v,
                                                                   unsigned flags);

/* Where avrogen_value_to_json_sink hands its text. */
typedef struct avrogen_json_sink {
    /* Take `len` bytes of text; AVROGEN_OK, or the status to stop with (E_IO). */
    avrogen_status (*write)(void *ctx, const void *data, size_t len);
    void *ctx;
    size_t chunk; /* hand text over once w holds this many bytes; 0: 64 KiB */
} avrogen_json_sink;

/*
 * avrogen_value_to_json in bounded memory, for values of any size (a 64 MiB
 * bytes value is up to 384 MiB of JSON): the text is appended to w, and
 * whenever w would hold more than sink->chunk bytes, what it holds goes to
 * sink->write and w is emptied; a run of text longer than that (a long
 * string) goes to sink->write directly. What is left in w at the end is the
 * caller's to write, or to append more to: successive calls share w, so text
 * from several values goes out in big pieces and in order. Same text, flags
 * and statuses as avrogen_value_to_json, plus the status write returns (set
 * as w->err); E_ARG for a NULL sink or write. w may be fixed or growable; it
 * holds at most chunk bytes plus the largest escape (12 bytes) extra.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_to_json_sink(
        avrogen_writer *w, const avrogen_value *v, unsigned flags, const avrogen_json_sink *sink);

/*
 * Read one value of `type` at r's position, as part of the current datum, and
 * append its Avro JSON encoding to w, without building a value: the text that
 * avrogen_value_read followed by avrogen_value_to_json (or _to_json_sink when
 * `sink` is not NULL) would give, with the same reader statuses, messages and
 * offsets (r->err, r->err_offset, r->err_msg: truncation, overlong varints,
 * indexes out of range, block sizes, depth and item budget, UTF-8 when
 * r->check_utf8) and writer statuses (w->err). It allocates nothing (no arena,
 * so no arena budget either), which also makes it the fast way to print a
 * datum. Text goes out as the value is read: on error, w holds (and with a
 * sink, the sink may have taken) the text of the part read before it; a
 * caller printing whole datums keeps their start and cuts w back to it.
 * Returns r->err if set, else w->err. E_ARG for a sink without write.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_datum_to_json(avrogen_reader *r,
                                                                   const avrogen_node *type,
                                                                   avrogen_writer *w,
                                                                   unsigned flags,
                                                                   const avrogen_json_sink *sink);

/*
 * Parse `len` bytes of JSON text holding one Avro JSON-encoded value of `type`
 * into *out, allocating from `a`. Accepts what avrogen_value_to_json writes, in
 * any spacing: every record field must be present (no defaults are filled in) and
 * no other key may appear; a union is null or a one-key object naming a branch by
 * fullname or type name; float and double take any JSON number and the strings
 * "NaN", "Infinity", "-Infinity"; int and long take JSON integers only (a JSON
 * integer must fit in 64 bits). An object may not repeat a key, and (a limit of
 * jansson) a map key may not contain U+0000. Nesting is limited as for binary decoding
 * by a reader of AVROGEN_DEFAULT_MAX_DEPTH (avrogen_value_from_json_depth takes another).
 *
 * Returns E_INVALID for malformed JSON (diag has line and column) or JSON that does
 * not match the schema (diag->path is a JSON pointer to the offending value, such
 * as "/lines/2/sku", diag->msg the reason), E_LIMIT past the depth or the arena's
 * budget, E_NOMEM. `diag` may be NULL. On error *out is unusable.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_from_json(const char *text, size_t len,
                                                                     const avrogen_node *type,
                                                                     avrogen_value *out,
                                                                     avrogen_arena *a,
                                                                     avrogen_diag *diag);

/*
 * avrogen_value_from_json with records that contain themselves nesting at most
 * `max_depth` deep (at least 1), and records, arrays, maps and unions at most
 * 4 * max_depth + 512 levels in all: the limits a reader with that max_depth
 * decodes binary data with. JSON text itself nests no deeper than jansson
 * parses it, 2048 arrays and objects (E_INVALID past that): a record that
 * contains itself takes two of them (itself, and the union, array or map it
 * is reached through), so about 1024 such records at most, whatever
 * max_depth says. Returns what avrogen_value_from_json returns, and E_ARG for
 * a max_depth of 0.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_from_json_depth(
        const char *text, size_t len, const avrogen_node *type, unsigned max_depth,
        avrogen_value *out, avrogen_arena *a, avrogen_diag *diag);

/*
 * The default value of field `f` (spec §Schema Declaration, "default") as a value of
 * f->type. Default JSON differs from the JSON encoding: the value of a union,
 * anywhere inside the default, is the value of its FIRST branch without a wrapper
 * object, and a field missing from a record inside the default takes that field's
 * own default (as Java's and Python's avro do).
 *
 * Returns E_ARG if f has no default, E_SCHEMA if the default does not match the
 * field's type (diag->path points into the default), E_LIMIT, E_NOMEM.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_value_from_default(const avrogen_field *f,
                                                                        avrogen_value *out,
                                                                        avrogen_arena *a,
                                                                        avrogen_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_VALUE_H */
