/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared between the parts of the C code emitter (emit_c.h): its state, and
 * the functions one part calls in another. emit_c.c drives the two files and
 * owns reachability; emit_c_text.c turns lines into formatted code and spells
 * C types; emit_c_code.c writes the encode, size and decode functions;
 * emit_c_desc.c writes the type descriptors; emit_c_resolve.c writes the
 * ahead-of-time decoders for earlier schemas. Not used outside emit_c*.c.
 */
#ifndef AVROGEN_GEN_EMIT_C_INTERNAL_H
#define AVROGEN_GEN_EMIT_C_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "emit_c.h"
#include "genutil.h"
#include "model/model.h"
#include "textbuf.h"

/* Target width of generated lines (STYLE.md §9: clang-format's ColumnLimit). */
#define EC_COLUMNS 100

/* The struct a location is a member of: where its count or tag sibling lives. */
struct site {
    const char *ptr;                /* C expression of a pointer to it: "v", "e" */
    const struct model_record *rec; /* that struct when it is a record, else NULL */
};

struct gen {
    const struct model *m;
    const struct emit_c_options *opt;
    struct textbuf *tb; /* where ec_line() appends */
    int indent;         /* current indentation, in steps of 4 spaces */
    unsigned depth;     /* nesting of generated loops and blocks: unique local names */
    bool used_v;        /* the function being emitted reads its `v` parameter */
    bool used_a;        /* ... its arena parameter */
    bool *need_record;  /* per m->records[i]: emit its functions and descriptors */
    bool *cyclic;       /* per m->records[i]: reaches itself (coders count depth in it) */
    bool *deep;         /* per m->records[i]: reaches a cyclic record (or is one): its
                           measure takes the depth of the records it is inside */
    bool *need_enum;
    bool *need_fixed;
    /* Per m->records[i] that is not deep: the bytes its measure leaves out, the
     * same for every value of it. */
    uint64_t *size_fixed;
    /* Per m->enums[i]: which of its static helpers the record code calls. */
    bool *enum_index; /* P_avro_index (P_avro_write calls it too) */
    bool *enum_write;
    bool *enum_read;
    const char *tables; /* name of the static object holding the descriptor tables */
    struct diag *d;     /* notes about earlier schemas read without an ahead-of-time decoder */
    char *member;       /* "struct r.f": the record member being coded, for messages */
    bool unaligned;     /* the record being coded may_be_unaligned: its C arrays go item
                           by item (v->a[i]), no bulk call or pointer into them */
    struct aot *aot;    /* emit_c_resolve.c's state */
    struct ptrmap fixed_sizes; /* record -> its fixed encoded size + 1, or 0: it varies */
    struct ptrmap min_sizes;   /* record -> the fewest bytes it encodes in */
    /* Per m->records[i] of the header: the C names of its schema texts
     * (avrogen_text objects, emit_c_schema.c), NULL for none. */
    const char **schema_text;
    const char **canonical_text;
};

/* ---- emit_c_text.c: lines and blocks ---------------------------------------------- */

/* Append one formatted line at the current indentation, broken at EC_COLUMNS
 * the way clang-format breaks it. */
void ec_line(struct gen *g, const char *fmt, ...) AVROGEN_PRINTF(2, 3);
void ec_blank(struct gen *g);

/* A block body being built: ec_capture_begin redirects ec_line() into `text`,
 * one level deeper, until ec_capture_end. */
struct capture {
    struct textbuf *saved;
    struct textbuf text;
};

void ec_capture_begin(struct gen *g, struct capture *c);
void ec_capture_end(struct gen *g, struct capture *c);
/* Append (and free) a captured body. */
void ec_put_body(struct gen *g, struct textbuf *body);
/* `head` then the captured body: braced unless it is one statement. */
void ec_block(struct gen *g, const char *head, struct capture *c);
/* if (cond) then [else other]: braces on both branches when either needs them. */
void ec_if_else(struct gen *g, const char *cond, struct capture *then, struct capture *other);
/* A plain `{ ... }` scope for locals. */
void ec_scope_open(struct gen *g);
void ec_scope_close(struct gen *g);
/* A local name unique at the current depth ("n", "n1", ...); malloc'd. */
char *ec_local(const struct gen *g, const char *base);
/* A loop index unique at the current depth ("i", "j", "k", "i3", ...); malloc'd. */
char *ec_loop_index(const struct gen *g);
/* ISO C11 guarantees string literals of this length (-Woverlength-strings). */
#define EC_MAX_LITERAL 4095
/* `decl = <text>;` for a NUL-terminated char array, as string literal pieces:
 * text of at most EC_MAX_LITERAL bytes. */
void ec_emit_char_array(struct gen *g, const char *decl, const char *text);

/* ---- emit_c_schema.c: schema texts in shared pieces --------------------------------- */

struct ec_texts;
struct ec_texts *ec_texts_new(void);
void ec_texts_free(struct ec_texts *t);
/* Write JSON text (a record's .avsc text or canonical form) as an avrogen_text
 * named `name`, or as a part already written; the parts it holds first,
 * named base_text<k>. Returns the C name of the object (owned by t). */
const char *ec_emit_text(struct gen *g, struct ec_texts *t, const char *text, const char *name,
                         const char *base);

/* ---- emit_c_text.c: C spellings (all malloc'd) ------------------------------------ */

/* s as an upper-case identifier: "order-v2" -> "ORDER_V2". */
char *ec_upper_ident(const char *s);
/* c_type without a top-level const, `_Bool` as `bool`. */
char *ec_unqualified(const char *c_type);
/* The C type a value of t is stored as. */
char *ec_value_c_type(const struct model_type *t);
/* Declare `name` as a pointer to c_type ("int64_t(*p)[4]"); "" for a cast's type. */
char *ec_pointer_decl(const char *c_type, const char *name);
/* "(T *)" for c_type T. */
char *ec_pointer_cast(const char *c_type);
/* &lv, with "(*p)" -> "p". */
char *ec_address_of(const char *lv);
/* lv as a whole operand: "(*X)" -> "*X". */
char *ec_plain(const char *lv);
/* v as a C constant expression: "-3", "INT64_MIN". */
char *ec_int64_literal(int64_t v);
/* s as the contents of a C string literal. */
char *ec_c_escaped(const char *s);
/* INT32_MAX, UINT16_MAX, ... for a count member; NULL for 64-bit types. */
const char *ec_int_max_macro(enum model_scalar s);

/* ---- emit_c_code.c ----------------------------------------------------------------- */

/* The index of r / e / f in the model's arrays (n_records etc. when absent). */
size_t ec_record_index(const struct model *m, const struct model_record *r);
size_t ec_enum_index(const struct model *m, const struct model_enum *e);
size_t ec_fixed_index(const struct model *m, const struct model_fixed *f);

/* The static measure/write/read functions of a record (prototypes for a record
 * that reaches itself), its public wrappers, and an enum's static helpers (the
 * ones the record code used: call after the records). */
void ec_emit_record_functions(struct gen *g, const struct model_record *rec, bool cyclic);
void ec_emit_record_prototypes(struct gen *g, const struct model_record *rec);
void ec_emit_public_functions(struct gen *g, const struct model_record *rec);
void ec_emit_enum_functions(struct gen *g, size_t index);

/* The statement storing x, a value in range, into bit-field location v. */
char *ec_bitfield_store(const struct model_type *t, const char *v, const char *x);
/* Store into bit-field location v the value `read` evaluates to, refused
 * (E_INVALID naming the member) when it does not fit the width. */
void ec_emit_read_bitfield(struct gen *g, const struct model_type *t, const char *v,
                           const char *read);
/* `p->tag = (type)V;`: store the tag value of branch i of tagged union t. */
void ec_emit_store_tag(struct gen *g, const struct model_type *t, const struct site *s, size_t i);
/* The decoding of one location, exactly as the record's own read function
 * does it (read_value and its helpers), for emit_c_resolve.c. */
void ec_emit_read_value(struct gen *g, const struct model_type *t, const char *lv,
                        const struct site *s, bool nonnull);
/* Read the instant (TIME location) lv from the long or int `read` evaluates to. */
void ec_emit_read_time(struct gen *g, const struct model_type *t, const char *lv, const char *read);
/* Set nullable location lv (null via its own state) to null. */
void ec_emit_read_null(struct gen *g, const struct model_type *t, const char *lv,
                       const struct site *s);
/* A string literal for an error of the member being coded: "struct r.f: <what>". */
char *ec_member_msg(const struct gen *g, const char *what);
/* Say which member of rec is being coded (NULL: none). */
void ec_set_member(struct gen *g, const struct model_record *rec, const char *c_name);
/* Store decoded count `n` into the count member of PTR_COUNT location t. */
void ec_emit_store_count(struct gen *g, const struct model_type *t, const struct site *s,
                         const char *n);

/* Storage inside a record that may_be_unaligned (`v->m` of a packed struct)
 * is coded through an aligned copy: ec_aligned_begin opens a scope declaring
 * `T base; memcpy(&base, &lv, sizeof base);` and returns "&base", or, for
 * any other location (or an alignment of 1; 0: unknown), opens nothing and
 * returns the address of lv; ec_aligned_end copies a writable copy back and
 * closes the scope. Nothing else may take the address of such storage. */
struct aligned {
    char *copy; /* the local, or NULL: none */
    char *lv;
};
char *ec_aligned_begin(struct gen *g, const char *c_type, uint64_t align, const char *lv,
                       const char *base, struct aligned *al);
void ec_aligned_end(struct gen *g, struct aligned *al, bool writable);

/* A pointer's target allocated in the arena by a decoder: ec_target_begin
 * declares `T *p = avrogen_reader_alloc(r, a, sizeof *p);` and returns the
 * lvalue `(*p)` to decode into (captured, one level deeper); ec_target_end
 * puts that code under `if (p != NULL)` and stores p in the pointer `v`. */
struct target {
    char *p;  /* the local */
    char *lv; /* "(*p)" */
    struct capture body;
};
const char *ec_target_begin(struct gen *g, const struct model_type *pointee, struct target *tg);
void ec_target_end(struct gen *g, const char *v, struct target *tg);

/* A holder location (model.h): its value, coded through a pointer to the
 * struct, where the value's count or tag is. Between ec_held_begin and
 * ec_held_end, code `inner` at lvalue `value` with site `site`; ec_held_end
 * puts it in the scope `{ [const] H *h = &lv; ... }` (nothing if it is empty). */
struct held {
    struct model_type inner; /* t as the member `value` of the holder */
    struct site site;        /* the holder: ptr is `ptr` */
    char *ptr;               /* "h" */
    char *value;             /* "h->value" */
    struct capture body;
};

void ec_held_begin(struct gen *g, const struct model_type *t, struct held *h);
void ec_held_end(struct gen *g, const struct model_type *t, const char *lv, bool writable,
                 struct held *h);

/* ---- emit_c_desc.c ------------------------------------------------------------------ */

/* The descriptor tables and the public P_avro_type objects. */
void ec_emit_descriptors(struct gen *g);

/* ---- emit_c_resolve.c ---------------------------------------------------------------- */

/*
 * Ahead-of-time decoders: for each record of the header and each earlier
 * schema (emit_c_options.earlier) of it that it can read, a decoder with the
 * schema resolution done now. ec_aot_begin pairs them up (after the plan;
 * notes through g->d for pairs it leaves to the plan interpreter);
 * ec_aot_emit_functions writes the decoders (with the record functions: they
 * call them and the enum helpers); ec_aot_count says how many a record has and
 * ec_aot_emit_table writes its P_avro_resolved table (nothing when none);
 * ec_aot_end frees the state. Without earlier schemas none of them emits
 * anything.
 */
void ec_aot_begin(struct gen *g);
void ec_aot_emit_functions(struct gen *g);
size_t ec_aot_count(const struct gen *g, const struct model_record *rec);
void ec_aot_emit_table(struct gen *g, const struct model_record *rec);
void ec_aot_end(struct gen *g);

/* What a record's decode writes, for clearing it after an error: "sizeof *v",
 * plus the room after it of a flexible array member (issue 23). */
char *ec_decoded_size(const struct model_record *rec);

#endif /* AVROGEN_GEN_EMIT_C_INTERNAL_H */
