/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The generator's model: the annotated records, enums and fixed types of one
 * header, each with its C facts (names, spellings, layout as clang saw it) and
 * the Avro type it maps to. Plain C data, no libclang and no jansson, so the
 * emitters and their tests need neither. clang_parse.c fills a `struct cunit`
 * (parse.h) and model_build() turns it into this model after validating every
 * mapping rule; a model that exists is valid, and emitters need not re-check it.
 *
 * Ownership: a struct model owns every string, array and node reachable from
 * it; model_free() releases all of it. Nothing here is shared between models.
 *
 * How a field is stored in C and what it means in Avro is the pair
 * (model_type.kind, model_type.storage); the table of every combination the
 * model can hold is at `enum model_storage`.
 */
#ifndef AVROGEN_GEN_MODEL_H
#define AVROGEN_GEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avrogen/schema.h" /* avrogen_kind, avrogen_logical, avrogen_order */

#include "diag.h" /* struct model_loc */

/*
 * The C arithmetic type of a scalar storage location, by width and signedness.
 * Plain `char` is I8 or U8 as the target defines it. Enum storage records the
 * enum's underlying integer type here too.
 */
enum model_scalar {
    MODEL_SCALAR_NONE,
    MODEL_SCALAR_BOOL, /* bool / _Bool */
    MODEL_SCALAR_I8,
    MODEL_SCALAR_I16,
    MODEL_SCALAR_I32,
    MODEL_SCALAR_I64,
    MODEL_SCALAR_U8,
    MODEL_SCALAR_U16,
    MODEL_SCALAR_U32,
    MODEL_SCALAR_U64,
    MODEL_SCALAR_FLOAT,
    MODEL_SCALAR_DOUBLE
};

/*
 * How a value is held in C. Together with the Avro kind of the same node this
 * says everything an emitter needs. These are all the combinations that occur
 * (for a member `f`; "sc" is model_type.scalar):
 *
 * kind     storage     C declaration                 notes
 * -------  ----------  ----------------------------  ------------------------------------------
 * BOOLEAN  SCALAR      bool f                        sc BOOL
 * INT      SCALAR      int8/16/32_t, uint8/16_t,     sc I8, I16, I32, U8, U16; decode
 *                      short, int, any char          range-checks the narrower types
 * INT      SCALAR      int32_t + AVRO_LOGICAL(date)  also time-millis
 * LONG     SCALAR      uint32_t, int64_t, long,      sc U32 / I64 (I32 for a 32-bit long);
 *                      long long, ssize_t, time_t,   decode range-checks U32 and I32
 *                      off_t, ptrdiff_t, intptr_t
 * LONG     SCALAR      uint64_t, size_t, unsigned    sc U64, u64_checked: encode refuses
 *                      long (64-bit), uintptr_t      > INT64_MAX, decode a negative long
 * LONG     SCALAR      uint64_t +                    sc U64: the same 64 bits as int64_t;
 *                      AVRO_FIELD(type = "long")     values > INT64_MAX read back negative
 * LONG     SCALAR      int64_t + AVRO_LOGICAL(...)   time-micros and the timestamp types
 * LONG     TIME        struct timespec, struct       an instant, logical a timestamp type:
 *                      timeval, time_t +             seconds (time_sec_*) and a fraction of
 *                      AVRO_LOGICAL(timestamp-...)   1/time_frac_per_sec s (none for time_t)
 * FLOAT    SCALAR      float f                       sc FLOAT
 * DOUBLE   SCALAR      double f                      sc DOUBLE
 * BYTES    SCALAR      int64_t / uint64_t +          logical DECIMAL, sc I64 / U64: the
 *                      AVRO_DECIMAL(p, s)            unscaled value as minimal big-endian
 *                                                    two's complement bytes
 * STRING   CSTRING     [const] char *f               NUL-terminated; NULL only if nullable
 * STRING   CHAR_ARRAY  char f[N]                     c_len = N; decode fails past N-1 bytes
 * STRING   STR_VIEW    avrogen_str f                 {ptr, len}
 *                                                    (logical UUID may sit on all three)
 * BYTES    BYTES_VIEW  avrogen_bytes f               {ptr, len}
 * BYTES    PTR_COUNT   uint8_t / unsigned char /     f[0 .. count); sc U8 (I8 for a signed
 *                      char *f + AVRO_ARRAY(n)       plain char)
 * FIXED    C_ARRAY     uint8_t f[N]                  c_len = fixed->size = N; logical UUID
 *                                                    (N = 16), DURATION (N = 12), DECIMAL
 * ARRAY    PTR_COUNT   T *f + AVRO_ARRAY(n)          items describes one T
 * ARRAY    C_ARRAY     T f[N], T not a byte type     exactly c_len items; decode fails on
 *                                                    any other count
 * ARRAY    CAP_ARRAY   T f[N] + AVRO_ARRAY(n)        the first n of c_len items: encode
 *                                                    refuses n > N, decode more than N items
 * BYTES    CAP_ARRAY   uint8_t / char f[N] +         f[0 .. n); sc U8 (I8 for plain signed
 *                      AVRO_BYTES(n) or AVRO_ARRAY(n) char)
 * STRING   CAP_ARRAY   char f[N] + AVRO_STRING(n)    f[0 .. n), not NUL-terminated
 * any      CAP_ARRAY   T f[] (or T f[0]) +           c_flex, c_len = max: as T f[max], but
 *                      AVRO_ARRAY/STRING/BYTES       a string is f[0 .. strnlen(f, n)) and
 *                      (n, max)                      decode NUL-terminates it when n < max
 * STRING   PADDED      char f[N] + AVRO_PADDED       strnlen(f, N) bytes; decode NUL-pads
 * STRING   PTR_COUNT   [const] char *f +             f[0 .. n), not NUL-terminated
 *                      AVRO_STRING(n)
 * BYTES    PTR_COUNT   void *f + AVRO_BYTES(n)       sc U8 (also uint8_t / char * + AVRO_BYTES)
 * BYTES    PTR_COUNT   T *f + AVRO_BYTES(n), T any   sc U8, c_object: the n bytes at f as
 *                      other object type             stored (struct sockaddr *ai_addr)
 * MAP      PTR_COUNT   struct e *f + AVRO_MAP(n)     e is {key, value}: map_key and items
 *                                                    describe e.key and e.value
 * RECORD   STRUCT      struct r f                    record: the model record
 * ENUM     ENUM        enum e f                      enumeration; sc: the enum's integer type
 * UNION    NULLABLE    see enum model_null_via       items: the non-null branch
 * UNION    TAGGED      union {...} f +               branches[i] <-> tag value i
 *                      AVRO_UNION(tag)
 * NULL     NONE        union member +                only as a TAGGED branch: no storage
 *                      AVRO_FIELD(type = "null")
 * RECORD   RECORD_PTR  struct r *f, a union member   only as a TAGGED branch: the record at
 *                                                    *f, never NULL (encode refuses NULL,
 *                                                    decode allocates it); items: the record
 *                                                    (RECORD/STRUCT), as a PTR nullable's
 *
 * Item, value and branch nodes use the same table, for the element rather than
 * the member (so `char *names[4]` is ARRAY/C_ARRAY with items STRING/CSTRING).
 * PTR_COUNT, CAP_ARRAY and TAGGED need a sibling member (the count or the tag), so they
 * occur only directly on a member of a struct: a record field, a map entry's
 * `value`, a holder's `value`, or the `items` of a NULLABLE node whose null_via
 * is SELF.
 *
 * A holder (holder_c_type set) is an unannotated struct of a member `value`
 * and the count or tag `value` names, standing where one C location must hold
 * an array, a map or a union: an array item (`struct row *rows AVRO_ARRAY(n)`
 * with `struct row { double *value AVRO_ARRAY(n); size_t n; }`) or a union
 * branch. It has no node of its own: the node of `value` stands for the item or
 * branch, its holder_c_type says that the location is a struct of that type and
 * the value its member `value`, where the count or tag is too.
 */
/* Map entries and holders nested in one another at most this deep: generated
 * code nests a few blocks a level, and C compilers take some 127 to 256. */
#define AVROGEN_MODEL_MAX_NESTED 32

/* The most items a flexible array member may hold after its struct
 * (AVRO_STRING(len, max) and the like): max is at most this. */
#define AVROGEN_MODEL_MAX_FLEX 2147483647

enum model_storage {
    MODEL_STORAGE_NONE,
    MODEL_STORAGE_SCALAR,
    MODEL_STORAGE_CSTRING,
    MODEL_STORAGE_CHAR_ARRAY,
    MODEL_STORAGE_STR_VIEW,
    MODEL_STORAGE_BYTES_VIEW,
    MODEL_STORAGE_PTR_COUNT,
    MODEL_STORAGE_C_ARRAY,
    MODEL_STORAGE_STRUCT,
    MODEL_STORAGE_ENUM,
    MODEL_STORAGE_NULLABLE,
    MODEL_STORAGE_TAGGED,
    MODEL_STORAGE_TIME,
    MODEL_STORAGE_CAP_ARRAY,
    MODEL_STORAGE_PADDED,
    MODEL_STORAGE_RECORD_PTR
};

/*
 * How an AVRO_NULLABLE location says "null":
 *  PTR   The C member is `T *f`; NULL is null, otherwise *f holds the non-null
 *        branch, described by `items` (a node for T itself: `struct line *next`
 *        gives items RECORD/STRUCT, `int32_t *x` gives items INT/SCALAR).
 *        Decode allocates *f from the arena.
 *  SELF  The member's own representation has a null state and `items` describes
 *        the member itself: CSTRING (f == NULL), STR_VIEW and BYTES_VIEW
 *        (f.ptr == NULL), PTR_COUNT (f == NULL; the count is then ignored on
 *        encode and set to 0 on decode).
 */
enum model_null_via { MODEL_NULL_VIA_PTR, MODEL_NULL_VIA_SELF };

struct model_record;
struct model_enum;
struct model_fixed;
struct model_type;

/* An Avro name (spec §Names) with the attributes every named type shares. */
struct model_name {
    char *name;      /* the simple name, never NULL, no dots */
    char *space;     /* namespace, NULL for the null namespace */
    char *fullname;  /* "space.name", or "name" */
    bool null_space; /* namespace = "" or null given: the null namespace, also when
                        defined inside another (Avro JSON's "namespace": "") */
    char *doc;       /* NULL when absent */
    char **aliases;  /* n_aliases names exactly as the user wrote them */
    size_t n_aliases;
};

/* One member of a C union under AVRO_UNION: branch i of the Avro union. */
struct model_branch {
    char *c_name;            /* union member name */
    struct model_type *type; /* the branch; kind NULL / storage NONE for a null branch */
    struct model_loc loc;
    int64_t *tags; /* AVRO_TAG: the tag values selecting it, the first the one decode
                      stores; NULL: its position */
    size_t n_tags;
};

/* The values a bit-field location (bit_width != 0) holds. */
void model_bitfield_range(const struct model_type *t, long long *lo, long long *hi);

/* The tag value decode stores for branch i of a TAGGED union. */
int64_t model_branch_tag(const struct model_type *t, size_t i);

/* An Avro type with the C representation it is decoded into. */
struct model_type {
    avrogen_kind kind;
    unsigned bit_width;      /* SCALAR: a bit-field of this many bits (0: none) */
    avrogen_logical logical; /* AVROGEN_LOGICAL_NONE unless annotated */
    int precision;           /* DECIMAL only */
    int scale;               /* DECIMAL only */
    enum model_storage storage;
    enum model_scalar scalar; /* SCALAR, ENUM; PTR_COUNT bytes: U8 (or I8 for plain
                                 signed char); C_ARRAY fixed: U8 */
    char *c_type;             /* spelling of this location's C type as clang prints it
                                 ("int64_t", "struct line *", "char[16]", "avrogen_str") */
    uint64_t c_len;           /* C_ARRAY, CHAR_ARRAY, CAP_ARRAY, PADDED: the N of T[N] */
    bool c_flex;              /* CAP_ARRAY: a flexible array member (T f[] or GNU T f[0])
                                 with room for c_len items after the struct (the second
                                 argument of its annotation); a string of chars is its
                                 text up to the first NUL within the count */
    bool c_object;            /* C_ARRAY fixed: the bytes of an object of c_len bytes (a
                                 struct, union or array of another type, AVRO_FIXED_NAME on
                                 it), not a uint8_t[N]: code takes its address. PTR_COUNT
                                 bytes: a pointer to an object type other than bytes or
                                 void (struct sockaddr *): items are bytes, size 1 */
    bool u64_checked;         /* SCALAR U64 long: values above INT64_MAX are refused
                                 (false: AVRO_FIELD(type = "long"), the same bits) */

    /* ARRAY: the item; MAP: the entry's value; NULLABLE: the non-null branch;
     * RECORD_PTR: the record it points to. */
    struct model_type *items;

    /* MAP only. */
    struct model_type *map_key; /* the entry's `key`: CSTRING, CHAR_ARRAY or STR_VIEW */
    char *entry_c_type;         /* the entry struct, e.g. "struct tag" */

    /* An array item or union branch held in a holder struct of this type (the
     * location is the struct, this node describes its member `value`), or NULL. */
    char *holder_c_type;

    /* PTR_COUNT, CAP_ARRAY: the sibling integer member holding the element count. */
    char *count_c_name;
    char *count_c_type; /* its C type as declared ("size_t", "uint16_t") */
    enum model_scalar count_scalar;

    /* NULLABLE only. */
    enum model_null_via null_via;
    unsigned null_index; /* Avro branch index of "null": 0, or 1 when the field's
                            default is not null; the value branch is 1 - null_index */

    /* TAGGED only: the C union's members in declaration order. Tag value i
     * selects members[i] and Avro branch i; any other tag value is an encode
     * error, and decode stores the branch index into the tag. */
    struct model_branch *branches;
    size_t n_branches;
    char *tag_c_name;             /* sibling integer or enum member holding the tag */
    char *tag_c_type;             /* its C type as declared ("uint8_t", "enum kind",
                                     "kind_t"): decode stores a tag value with a cast
                                     to it, as C++ converts no integer to an enum */
    enum model_scalar tag_scalar; /* its integer type (an enum's underlying type) */

    /* TIME only: the seconds member (tv_sec; the location itself for a time_t)
     * and the fraction member of 1/time_frac_per_sec seconds (tv_nsec 10^9,
     * tv_usec 10^6; time_frac_per_sec 0 and no member for a time_t). The Avro
     * unit is the logical type's. */
    uint32_t time_frac_per_sec;
    const char *time_frac_member; /* "tv_nsec", "tv_usec" or NULL (a static string) */
    enum model_scalar time_sec_scalar, time_frac_scalar;
    char *time_sec_c_type, *time_frac_c_type; /* as declared ("__time_t"); frac NULL */

    /* Named types: the single definition this node refers to. */
    struct model_record *record;    /* RECORD */
    struct model_enum *enumeration; /* ENUM */
    struct model_fixed *fixed;      /* FIXED */
};

/* What a C member of a record is to Avro. */
enum model_field_role {
    MODEL_FIELD_VALUE, /* an Avro field: `type` is set */
    MODEL_FIELD_SKIP,  /* AVRO_SKIP: not serialized; decode leaves it zeroed */
    MODEL_FIELD_COUNT, /* the count of the PTR_COUNT field `serves` */
    MODEL_FIELD_TAG    /* the tag of the TAGGED field `serves` */
};

struct model_field {
    char *c_name;      /* the C member name */
    char *c_path;      /* NULL, or the member's value as a designator from the
                          record when it is not c_name: "data.u64" for a union
                          read as one of its members (model_field_path) */
    char *c_type;      /* its C type as declared */
    uint64_t c_offset; /* bytes, as clang laid it out (informational:
                          generated code uses offsetof) */
    uint64_t c_size;   /* sizeof, bytes (of the declared type for a bit-field; of one item
                          for a flexible array member) */
    bool c_bitfield;   /* a bit-field: only ever SKIP, and offsetof cannot name it */
    enum model_field_role role;
    size_t serves;              /* COUNT, TAG: index in fields[] of the field served */
    enum model_scalar c_scalar; /* COUNT, TAG: the member's integer type */
    struct model_loc loc;

    /* VALUE only. */
    struct model_type *type;
    size_t avro_index; /* position among the record's Avro fields */
    char *avro_name;   /* AVRO_FIELD(name = ...) or c_name */
    char *doc;         /* doc = ... or the doc comment; NULL when absent */
    char **aliases;
    size_t n_aliases;
    char *default_json; /* compact JSON text, NULL when there is no default */
    bool has_order;     /* AVRO_FIELD(order = ...) given */
    avrogen_order order;
};

/* The designator of f's value in its record: c_path, else c_name. */
const char *model_field_path(const struct model_field *f);

struct model_record {
    struct model_name name;
    char *c_tag;                /* struct tag, NULL for an anonymous struct */
    char *c_typedef;            /* the typedef naming it, NULL if none */
    char *c_type;               /* how generated code spells the type: c_typedef when
                                   set, else "struct <c_tag>", else (an untagged
                                   member type) "<c_prefix>_avro_struct" */
    char *c_typeof;             /* untagged: an lvalue of the type, through the member
                                   ("((struct outer *)0)->inner"); generated code
                                   typedefs c_type as its __typeof__. NULL otherwise */
    char *c_prefix;             /* prefix of generated symbols: AVRO_RECORD(c_prefix = ...),
                                   else c_tag, else c_typedef minus a trailing "_t" */
    struct model_field *fields; /* every C member, declaration order */
    size_t n_fields;
    size_t n_avro_fields; /* members with role VALUE */
    uint64_t c_size;
    uint64_t c_align;
    /* A member may be misaligned (packed, #pragma pack): generated code reaches
     * its C arrays item by item, never through a pointer into them. */
    bool may_be_unaligned;
    struct model_loc loc; /* the struct's definition */
    bool in_main_file;    /* defined (or annotated out of line) in the header
                             this model was built for; records that are only
                             reached from an included header are false */
    bool recursive;       /* reaches itself (through a nullable pointer, an array, a map) */
    size_t index;         /* its position in model.records */

    /* Filled by the driver after schema emission, for the code emitter. */
    char *avsc;           /* the .avsc text written for this record (JSON_INDENT(2),
                             newline-terminated); NULL until emitted */
    char *canonical;      /* its Parsing Canonical Form */
    uint64_t fingerprint; /* CRC-64-AVRO of `canonical` */
};

struct model_symbol {
    char *c_name;    /* enumerator, e.g. "ORDER_NEW" */
    char *avro_name; /* Avro symbol, e.g. "NEW" */
    int64_t value;   /* its C value (explicit values and gaps allowed) */
    char *doc;       /* NULL when absent */
    struct model_loc loc;
};

struct model_enum {
    struct model_name name;
    char *c_tag;              /* NULL for an anonymous enum */
    char *c_typedef;          /* NULL if none */
    char *c_type;             /* c_typedef when set, else "enum <c_tag>" */
    char *c_prefix;           /* as model_record.c_prefix */
    enum model_scalar scalar; /* the underlying integer type */
    uint64_t c_size;
    /* Avro symbol i is symbols[i]: declaration order, which need not be value
     * order. Values are distinct, so value ↔ index is a bijection. */
    struct model_symbol *symbols;
    size_t n_symbols;
    bool dense; /* values are first_value, first_value + 1, ...
                   in declaration order: index = value - first_value */
    int64_t first_value;
    char *default_symbol; /* AVRO_ENUM(default = "...") as an Avro symbol, or NULL */
    struct model_loc loc;
    bool in_main_file;
};

/* A fixed type: uint8_t[N] fields that share an AVRO_FIXED_NAME share one. */
struct model_fixed {
    struct model_name name; /* AVRO_FIXED_NAME(...), else "<Record>_<field>" in
                               the record's namespace */
    uint64_t size;
    struct model_loc loc; /* the first field using it */
};

struct model {
    char *header; /* the header this model was built for, as given */
    /* Dependency order: every record, enum or fixed a record uses comes before
     * it, source position breaks ties; recursion is cut at the back edge. */
    struct model_record **records;
    size_t n_records;
    struct model_enum **enums;
    size_t n_enums;
    struct model_fixed **fixeds;
    size_t n_fixeds;
    char **files; /* interned paths that model_loc.file points to */
    size_t n_files;
    char **deps; /* every file the translation unit read, main file
                    first, then inclusion order, no duplicates */
    size_t n_deps;
};

struct cunit; /* parse.h */

/*
 * Build and validate the model of `u` (model.c): every problem is reported
 * through `d`. Returns 0 with *out set, 1 if any error was reported (*out NULL),
 * 2 when out of memory. The model takes over u's file table; u stays valid
 * until cunit_free and must outlive nothing of the model.
 */
int model_build(struct cunit *u, struct diag *d, struct model **out);

/* Free m and everything it owns; NULL is a no-op. */
void model_free(struct model *m);

/* The record / enum whose Avro fullname is `fullname`, or NULL. */
struct model_record *model_find_record(const struct model *m, const char *fullname);
struct model_enum *model_find_enum(const struct model *m, const char *fullname);

/* The scalar's C spelling for casts: "bool", "int32_t", "uint64_t", "double", ... */
const char *model_scalar_c_name(enum model_scalar s);

/* Short names for debugging and messages: "SCALAR", "PTR_COUNT", ... */
const char *model_storage_name(enum model_storage s);

#endif /* AVROGEN_GEN_MODEL_H */
