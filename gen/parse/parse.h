/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the libclang front end hands to the model builder: the C facts of one
 * translation unit, with no libclang types and no Avro meaning yet. The front
 * end (clang_parse.c) reports only what C says: the declarations that carry
 * avrogen annotations, every struct/union/enum reachable from their members,
 * the raw annotation payloads with their positions, doc comments, layout and
 * the files read. Mapping C to Avro and every rule about it lives in model.c.
 */
#ifndef AVROGEN_GEN_PARSE_H
#define AVROGEN_GEN_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* One `__attribute__((annotate("avrogen:<kind>:<text>")))`. */
struct cannot {
    char *kind;           /* "record", "field", "nullable", "array", ... */
    char *text;           /* the macro arguments as the preprocessor stringified them */
    struct model_loc loc; /* the annotation macro's use in the user's source */
    char *expanded;       /* AVRO_ARRAY / AVRO_STRING / AVRO_BYTES: the arguments
                             macro-expanded (the payload after its newline), else NULL */
};

enum ctype_kind {
    CTYPE_OTHER, /* anything not listed: complex, vectors, _Atomic, __int128, ... */
    CTYPE_VOID,
    CTYPE_BOOL,
    CTYPE_INT, /* every integer type, plain char included */
    CTYPE_FLOAT,
    CTYPE_DOUBLE,
    CTYPE_LONG_DOUBLE,
    CTYPE_POINTER,
    CTYPE_ARRAY,      /* T[N] */
    CTYPE_FLEX_ARRAY, /* T[] */
    CTYPE_STRUCT,
    CTYPE_UNION,
    CTYPE_ENUM,
    CTYPE_FUNCTION
};

struct cdecl;

struct ctype {
    enum ctype_kind kind;
    char *spelling;  /* as declared: "int64_t", "struct line *" */
    char *canonical; /* with typedefs resolved: "long", "struct line *" */
    char **typedefs; /* the typedef chain from the outside in ("my_ts",
                        "int64_t", "__int64_t"); empty for a plain type */
    size_t n_typedefs;
    uint64_t size;      /* sizeof, 0 when incomplete or a function */
    bool is_signed;     /* INT */
    bool is_char;       /* INT: char, signed char or unsigned char */
    bool is_plain_char; /* INT: char */
    bool is_long;       /* INT: canonically long or unsigned long */
    bool is_const;      /* const-qualified at this level */
    uint64_t len;       /* ARRAY: N */
    struct ctype *elem; /* POINTER: the pointee; ARRAY, FLEX_ARRAY: the element */
    struct cdecl *decl; /* STRUCT, UNION, ENUM: its declaration (never NULL) */
};

/* An anonymous union of a struct (numbered from 1 in it) and the alternative
 * of it a member is in (its position among the union's members, an anonymous
 * struct's members sharing one). */
struct canon_union {
    unsigned id; /* 0: in none */
    unsigned alt;
};

struct cmember {
    char *name; /* "" for an anonymous struct/union member in a union */
    struct ctype *type;
    bool is_bitfield;
    unsigned bit_width; /* a bit-field's width */
    uint64_t offset;    /* bytes from the start of the struct */
    char *doc;          /* doc comment text with the markers stripped, or NULL */
    struct cannot *annots;
    size_t n_annots;
    struct model_loc loc; /* the member's name */
    /* Listed from an anonymous union of the struct (C11 6.7.2.1p13: its
     * members are the struct's), as anonymous struct members are: the
     * outermost and innermost such unions it is in, and the innermost's
     * member (its `union {`). */
    struct canon_union anon_outer, anon_inner;
    struct model_loc anon_loc;
};

struct cenumerator {
    char *name;
    int64_t value;
    char *doc;
    struct cannot *annots;
    size_t n_annots;
    struct model_loc loc;
};

enum cdecl_kind { CDECL_STRUCT, CDECL_UNION, CDECL_ENUM };

struct cdecl {
    enum cdecl_kind kind;
    char *tag;          /* NULL when anonymous */
    char *typedef_name; /* the first typedef naming exactly this type, or NULL */
    bool complete;      /* has a definition (members are known) */
    bool in_system_header;
    bool in_main_file; /* defined in the header being parsed */
    char *doc;
    struct cannot *annots; /* on the declaration itself */
    size_t n_annots;
    struct cmember *members; /* STRUCT, UNION: declaration order */
    size_t n_members;
    struct cenumerator *enumerators; /* ENUM */
    size_t n_enumerators;
    uint64_t size;
    uint64_t align;
    /* STRUCT: a member may sit at an address its type's alignment does not
     * divide (packed, #pragma pack) */
    bool may_be_unaligned;
    bool enum_signed; /* ENUM: the underlying integer type */
    uint64_t enum_size;
    struct model_loc loc; /* the definition, or the first declaration if incomplete */
    unsigned order;       /* position in cunit.decls */
};

/* An out-of-line annotation: AVRO_EXTERN_RECORD / _ENUM / _FIELD. */
enum cmarker_kind { CMARKER_RECORD, CMARKER_ENUM, CMARKER_FIELD };

struct cmarker {
    enum cmarker_kind kind;
    struct cdecl *target;  /* the annotated type; NULL if it is not a struct or enum */
    char *target_spelling; /* the type as the marker named it */
    char *member;          /* FIELD: the member name */
    bool via_path;         /* FIELD: named by a path "u.key", resolved by the
                              model to that member of u's type (target) */
    struct cannot *annots; /* RECORD, ENUM: one, the options; FIELD: the field's */
    size_t n_annots;
    struct model_loc loc;
    bool in_main_file;
};

/* An enumerator anywhere in the translation unit, for AVRO_TAG's expressions. */
struct cconstant {
    char *name;
    int64_t value;
};

struct cunit {
    char *header;         /* the main file, as given */
    struct cdecl **decls; /* discovery order: source order of the annotated
                             declarations, then referenced types */
    size_t n_decls;
    struct cmarker *markers;
    size_t n_markers;
    char **files; /* interned paths; model_loc.file points here */
    size_t n_files;
    char **deps; /* every file read, main file first, no duplicates */
    size_t n_deps;
    struct cconstant *constants; /* every enumerator, in source order */
    size_t n_constants;
    bool strict_iso; /* parsed as strict ISO C (-std=c11, -ansi) with no feature
                        macro given: the C library's headers hide POSIX and GNU
                        declarations, so an incomplete type may be one of them */
};

/* The dialect a header is parsed with when the arguments name none: the
 * default of plain `cc` (gcc 8 to 14, clang 11 and later). */
#define AVROGEN_DEFAULT_DIALECT "gnu17"

/*
 * Parse `header` as C with libclang and the extra `args` (the caller's flags
 * after `--`; -xc, -std=gnu17 and -DAVROGEN_PARSING=1 are added unless given).
 * Clang's own diagnostics go to `d` (severity Error or worse counts as an
 * error). Returns 0 and a cunit in *out (free with cunit_free), 1 if clang
 * reported errors or the file could not be parsed, 2 when out of memory.
 */
int clang_parse(const char *header, const char *const *args, size_t n_args, struct diag *d,
                struct cunit **out);

void cunit_free(struct cunit *u);

#endif /* AVROGEN_GEN_PARSE_H */
