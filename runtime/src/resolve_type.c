/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema resolution into generated structs (type plans). Building a plan walks
 * the writer's schema, the reader's schema (parsed from the descriptor's .avsc
 * text) and the reader's avrogen_type descriptor together once, and compiles
 * what the three say into flat arrays of small ops: read this writer value,
 * convert it, store it at this offset in this C type. Decoding then runs the
 * ops in a tight switch with no names, schemas or descriptors in sight.
 *
 * The rules of matching are resolve_internal.h's, shared with the generic
 * resolver; the C side follows what generated decoders do (emit_c_code.c's
 * read_value), so that for the record's own schema a plan decodes exactly
 * like P_avro_decode: the same range checks, the same errors, the same
 * arena use. Reader fields the writer lacks take their defaults, encoded in
 * binary once at build time and decoded by an identity plan of the field.
 *
 * Not here: the plan cache and avrogen_decode_as (plan_cache.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/resolve.h"

#include "resolve_internal.h"
#include "value_internal.h"

/* ---- ops ------------------------------------------------------------------- */

typedef enum opcode {
    OP_END,
    /* Numbers: the writer's type, then how the reader's C location holds it. */
    OP_BOOL,
    OP_INT_I32,    /* int into int32_t */
    OP_INT_RANGE,  /* int into a narrower integer (or a long in uint32_t): lo..hi */
    OP_INT_I64,    /* int promoted to a long in 64 bits */
    OP_INT_FLOAT,  /* int promoted to float */
    OP_INT_DOUBLE, /* int promoted to double */
    OP_LONG_I64,   /* long into int64_t or uint64_t (its bits) */
    OP_LONG_U32,   /* long into uint32_t: 0..UINT32_MAX */
    OP_LONG_RANGE, /* long into a checked uint64_t (0..INT64_MAX) or a 32-bit long: lo..hi */
    OP_LONG_FLOAT,
    OP_LONG_DOUBLE,
    OP_FLOAT,
    OP_FLOAT_DOUBLE,
    OP_DOUBLE,
    OP_DECIMAL_I64, /* bytes (a decimal) into its unscaled int64_t */
    OP_DECIMAL_U64,
    /* Strings and bytes (either writer type: they share an encoding). */
    OP_CSTRING,    /* char * from the arena */
    OP_CHARS,      /* char[len] */
    OP_STR_VIEW,   /* avrogen_str into the input */
    OP_BYTES_VIEW, /* avrogen_bytes into the input */
    OP_BYTES_COPY, /* pointer + count at aux, copied into the arena */
    OP_TEXT_COPY,  /* the same for a string: UTF-8 checked (AVRO_STRING on char *) */
    OP_CAP_BYTES,  /* bytes into char[len] + count at aux (F_TEXT: a string) */
    OP_PADDED,     /* a string into char[len], NUL-padded */
    OP_FIXED,      /* len raw bytes */
    OP_ENUM,       /* writer symbol -> C enumerator value, stored as `scalar` */
    OP_TIME,       /* an int or long of units into an instant's seconds (off, `scalar`) and
                      fraction (aux, max holding its scalar): lo frac_per_sec, hi units */
    OP_BITFIELD,   /* a boolean, int or long (F_WBOOL, F_WINT) into a bit-field through set:
                      lo..hi */
    /* Structure. */
    OP_RECORD,    /* a nested struct: run rec's ops at base + off */
    OP_LIST,      /* an array or map into pointer + count: run sub per item/entry */
    OP_C_ARRAY,   /* an array into T[n]: exactly n items */
    OP_CAP_ARRAY, /* an array into the first count of T[n] items, the count at aux */
    OP_PTR,       /* the non-null branch through a pointer: allocate the target, run sub */
    OP_NULL_PTR,  /* null as a NULL pointer (T *, char *) */
    OP_NULL_VIEW, /* null as avrogen_str / avrogen_bytes {NULL, 0} */
    OP_NULL_LIST, /* null as a NULL pointer with its count at aux 0 */
    OP_TAG,       /* store the tagged union's tag n at aux */
    OP_WUNION,    /* writer union: read the branch, run its ops */
    OP_SKIP,      /* a writer field the reader does not have */
    OP_FEED,      /* a writer field several reader fields read: each sequence, reading it again */
    OP_DEFAULT    /* a reader field the writer does not have: decode its default */
} opcode;

/* Arrays of these go through gencode.h's block readers (one bounds check per stretch). */
typedef enum bulk { BULK_NONE, BULK_LONGS, BULK_INTS, BULK_DOUBLES, BULK_FLOATS } bulk;

#define F_NONNULL 0x1u  /* OP_LIST: the non-null branch of a nullable: never NULL, even empty */
#define F_ZERO    0x2u  /* OP_LIST / OP_PTR: clear new storage (it holds structs) */
#define F_LAST    0x4u  /* the last op of its sequence (an empty one is one OP_END) */
#define F_WINT    0x8u  /* OP_TIME, OP_BITFIELD: the writer wrote an int */
#define F_FRAC    0x10u /* OP_TIME: the instant has a fraction member (not a time_t) */
#define F_TEXT    0x20u /* OP_CAP_BYTES: a string, UTF-8 checked */
#define F_WBOOL   0x40u /* OP_BITFIELD: the writer wrote a boolean */

typedef struct op op;
typedef struct prog prog;

struct op {
    unsigned char code;        /* opcode */
    unsigned char scalar;      /* the integer type stored: RANGE, ENUM, TAG; LIST, BYTES_COPY,
                                  NULL_LIST: the count's */
    unsigned char flags;       /* F_* */
    unsigned char bulk;        /* LIST, C_ARRAY: a bulk reader for the items, or BULK_NONE */
    size_t off;                /* the location, from the base the ops run at */
    size_t aux;                /* offset of the count (LIST, BYTES_COPY, NULL_LIST) or tag (TAG) */
    size_t len;                /* CHARS: its capacity; FIXED: its size; LIST, C_ARRAY: an item's
                                  size; PTR: the target's size; DEFAULT: the bytes' length */
    size_t n;                  /* ENUM, WUNION: the writer's symbols or branches;
                                  LIST: the fewest input bytes of an item; C_ARRAY: the items */
    int64_t lo, hi;            /* RANGE, LONG_RANGE: the C type's range; TAG: lo, the tag */
    uint64_t max;              /* LIST, BYTES_COPY: the largest count the count member holds */
    const char *msg;           /* RANGE, LONG_RANGE, CAP_*, PADDED: the error */
    const op *sub;             /* LIST, C_ARRAY: per item or entry; PTR: the target; DEFAULT */
    const prog *rec;           /* RECORD */
    const op *const *branches; /* WUNION: per writer branch, NULL if the reader has none;
                                  FEED: per reader field */
    const char *const *errors; /* WUNION, ENUM: per writer branch or symbol: why it fails */
    const int64_t *values;     /* ENUM: per writer symbol, the C value */
    const avrogen_node *skip;  /* SKIP: the writer's type */
    const uint8_t *bytes;      /* DEFAULT: the binary encoding of the default */
    void (*set)(void *base, int64_t v); /* BITFIELD: stores into the struct at base */
};

/* The ops of one (writer record, reader record) pair. */
struct prog {
    const op *ops;         /* set when the build of the record is complete */
    unsigned char guarded; /* G_* */
    bool done;
};

#define G_CYCLIC 0x1u /* the record reaches itself: one nesting level, as generated code */
#define G_ZERO   0x2u /* the writer's record takes no bytes: one item of the budget */

struct avrogen_type_plan {
    avrogen_arena arena; /* every op, table, message and default */
    avrogen_alloc alloc;
    const avrogen_type *type;
    const op *root;
    const avrogen_node *writer; /* borrowed: where a failed decode is placed */
};

/* ---- decoding ---------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE      __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

static void put_int(char *p, unsigned scalar, int64_t v)
{
    switch (scalar) {
    case AVROGEN_SCALAR_BOOL: {
        bool b = v != 0;
        memcpy(p, &b, sizeof b);
        break;
    }
    case AVROGEN_SCALAR_I8:
    case AVROGEN_SCALAR_U8: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case AVROGEN_SCALAR_I16:
    case AVROGEN_SCALAR_U16: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case AVROGEN_SCALAR_I32:
    case AVROGEN_SCALAR_U32: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    default:
        memcpy(p, &v, sizeof v);
        break;
    }
}

static void put_ptr(char *p, const void *v)
{
    memcpy(p, &v, sizeof v);
}

static NOINLINE void exec_items(avrogen_reader *r, const op *o, char *base, size_t n, size_t stride,
                                avrogen_arena *a);

/* Run a sequence of ops against the struct at base. */
static inline void exec(avrogen_reader *r, const op *o, char *base, avrogen_arena *a)
{
    exec_items(r, o, base, 1, 0, a);
}

/* `n` items of an array at dst, as generated code reads them. */
static NOINLINE void read_items(avrogen_reader *r, const op *o, char *dst, size_t n,
                                avrogen_arena *a)
{
    switch (o->bulk) {
    case BULK_LONGS:
        avrogen_read_longs(r, (int64_t *)(void *)dst, n);
        return;
    case BULK_INTS:
        avrogen_read_ints(r, (int32_t *)(void *)dst, n);
        return;
    case BULK_DOUBLES:
        avrogen_read_doubles(r, (double *)(void *)dst, n);
        return;
    case BULK_FLOATS:
        avrogen_read_floats(r, (float *)(void *)dst, n);
        return;
    default:
        break;
    }
    exec_items(r, o->sub, dst, n, o->len, a);
}

/* An array or map into pointer + count (emit_c_code.c's read_array). */
static NOINLINE void read_list(avrogen_reader *r, const op *o, char *base, avrogen_arena *a)
{
    char *items = NULL;
    size_t n = 0, cap = 0, block;
    const uint8_t *end = NULL;
    while ((block = avrogen_read_block(r, &end)) != 0) {
        items = avrogen_read_grow(r, a, items, n, &cap, block, o->len, o->n);
        if (items == NULL)
            break;
        if (o->flags & F_ZERO)
            memset(items + n * o->len, 0, block * o->len);
        read_items(r, o, items + n * o->len, block, a);
        n += block;
    }
    /* An empty array is not null: it needs a pointer all the same. */
    if ((o->flags & F_NONNULL) && items == NULL && r->err == AVROGEN_OK)
        items = avrogen_reader_alloc(r, a, 0);
    put_ptr(base + o->off, items);
    put_int(base + o->aux, o->scalar, (int64_t)avrogen_read_count(r, n, o->max));
}

/* A reader field's default: its binary encoding, decoded as part of this datum. */
static void read_default(avrogen_reader *r, const op *o, char *base, avrogen_arena *a)
{
    avrogen_reader sub;
    avrogen_reader_init(&sub, o->bytes, o->len);
    sub.depth = r->depth;
    sub.max_depth = r->max_depth;
    sub.items_left = r->items_left;
    sub.max_items = r->max_items;
    sub.check_utf8 = r->check_utf8;
    exec(&sub, o->sub, base, a);
    if (sub.err != AVROGEN_OK)
        avrogen_reader_fail(r, sub.err, sub.err_msg);
    r->items_left = sub.items_left;
}

/*
 * The ops that are rare in data (promotions, C range checks, evolution's
 * defaults and skips), out of the way of run's loop, which then keeps its
 * state in registers.
 */
static NOINLINE void exec_rare(avrogen_reader *r, const op *o, char *base, avrogen_arena *a)
{
    char *loc = base + o->off;
    switch ((opcode)o->code) {
    case OP_INT_RANGE: {
        int64_t v = avrogen_read_int(r);
        if (AVROGEN_UNLIKELY(v < o->lo || v > o->hi)) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, o->msg);
            v = 0;
        }
        put_int(loc, o->scalar, v);
        break;
    }
    case OP_INT_FLOAT: {
        float v = (float)avrogen_read_int(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_INT_DOUBLE: {
        double v = avrogen_read_int(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_LONG_U32: {
        uint32_t v = avrogen_read_uint32(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_LONG_RANGE: {
        int64_t v = avrogen_read_long(r);
        if (AVROGEN_UNLIKELY(v < o->lo || v > o->hi)) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, o->msg);
            v = 0;
        }
        put_int(loc, o->scalar, v);
        break;
    }
    case OP_LONG_FLOAT: {
        float v = (float)avrogen_read_long(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_LONG_DOUBLE: {
        double v = (double)avrogen_read_long(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_FLOAT_DOUBLE: {
        double v = avrogen_read_float(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_DECIMAL_I64: {
        int64_t v = avrogen_read_decimal_int64(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_DECIMAL_U64: {
        uint64_t v = avrogen_read_decimal_uint64(r);
        memcpy(loc, &v, sizeof v);
        break;
    }
    case OP_BYTES_COPY: {
        size_t len;
        put_ptr(loc, avrogen_read_bytes_copy(r, a, &len));
        put_int(base + o->aux, o->scalar, (int64_t)avrogen_read_count(r, len, o->max));
        break;
    }
    case OP_TEXT_COPY: {
        size_t len;
        put_ptr(loc, avrogen_read_text_copy(r, a, &len));
        put_int(base + o->aux, o->scalar, (int64_t)avrogen_read_count(r, len, o->max));
        break;
    }
    case OP_CAP_BYTES: {
        size_t len = (o->flags & F_TEXT) ? avrogen_read_cap_text(r, loc, o->len, o->msg)
                                         : avrogen_read_cap_bytes(r, loc, o->len, o->msg);
        put_int(base + o->aux, o->scalar, (int64_t)avrogen_read_count(r, len, o->max));
        break;
    }
    case OP_PADDED:
        avrogen_read_padded(r, loc, o->len, o->msg);
        break;
    case OP_CAP_ARRAY: {
        size_t done = 0, block;
        const uint8_t *end = NULL;
        while ((block = avrogen_read_cap_block(r, &end, done, o->n, o->msg)) != 0) {
            read_items(r, o, loc + done * o->len, block, a);
            done += block;
        }
        put_int(base + o->aux, o->scalar, (int64_t)avrogen_read_count(r, done, o->max));
        break;
    }
    case OP_PTR: {
        /* Nothing is allocated once the datum has failed, as in generated code. */
        char *p = r->err == AVROGEN_OK ? avrogen_reader_alloc(r, a, o->len) : NULL;
        if (p != NULL) {
            if (o->flags & F_ZERO)
                memset(p, 0, o->len);
            exec(r, o->sub, p, a);
        }
        put_ptr(loc, p);
        break;
    }
    case OP_NULL_LIST:
        put_ptr(loc, NULL);
        put_int(base + o->aux, o->scalar, 0);
        break;
    case OP_TAG:
        put_int(base + o->aux, o->scalar, o->lo);
        break;
    case OP_SKIP:
        (void)!avrogen_skip_inner(r, o->skip); /* a failure is sticky on r */
        break;
    case OP_FEED: {
        const uint8_t *at = r->p;
        exec(r, o->branches[0], base, a);
        for (size_t i = 1; i < o->n && avrogen_reader_reread(r, at); i++)
            exec(r, o->branches[i], base, a);
        break;
    }
    case OP_DEFAULT:
        if (r->err == AVROGEN_OK)
            read_default(r, o, base, a);
        break;
    case OP_TIME: {
        int64_t v = (o->flags & F_WINT) ? avrogen_read_int(r) : avrogen_read_long(r);
        int64_t frac;
        int64_t sec = avrogen_time_split(v, o->lo, o->hi, &frac);
        if (o->scalar == AVROGEN_SCALAR_I32 && (sec < INT32_MIN || sec > INT32_MAX)) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "seconds out of range of 32 bits");
            sec = 0;
        }
        put_int(loc, o->scalar, sec);
        if (o->flags & F_FRAC)
            put_int(base + o->aux, (unsigned)o->max, frac);
        break;
    }
    case OP_BITFIELD: {
        int64_t v = (o->flags & F_WBOOL)  ? (int64_t)avrogen_read_bool(r)
                    : (o->flags & F_WINT) ? avrogen_read_int(r)
                                          : avrogen_read_long(r);
        if (AVROGEN_UNLIKELY(v < o->lo || v > o->hi)) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, o->msg);
            v = 0;
        }
        o->set(loc, v);
        break;
    }
    default:
        break;
    }
}

/* A record whose recursion or zero-byte values the reader's limits must bound. */
static NOINLINE void run_guarded(avrogen_reader *r, const prog *p, char *loc, avrogen_arena *a)
{
    if ((p->guarded & G_ZERO) && !avrogen_reader_charge(r, 1))
        return;
    if (!(p->guarded & G_CYCLIC)) {
        exec(r, p->ops, loc, a);
        return;
    }
    /* The type reaches itself: bound the recursion on hostile input. */
    if (!avrogen_reader_enter(r))
        return;
    exec(r, p->ops, loc, a);
    avrogen_reader_leave(r);
}

/*
 * The commonest ops, as tests ahead of run's switch: their conditional
 * branches follow a record's pattern of fields, where every op through the
 * switch shares its one indirect jump (on the bench's Order record, 20% less
 * time than the switch alone). False for any other op.
 */
static ALWAYS_INLINE bool run_common(avrogen_reader *r, unsigned code, char *loc, avrogen_arena *a)
{
    if (code == OP_LONG_I64) {
        int64_t v = avrogen_read_long(r);
        memcpy(loc, &v, sizeof v);
    } else if (code == OP_CSTRING) {
        put_ptr(loc, avrogen_read_cstring(r, a));
    } else if (code == OP_INT_I32) {
        int32_t v = avrogen_read_int(r);
        memcpy(loc, &v, sizeof v);
    } else if (code == OP_DOUBLE) {
        double v = avrogen_read_double(r);
        memcpy(loc, &v, sizeof v);
    } else {
        return false;
    }
    return true;
}

/*
 * Run the ops of a sequence, from o to the one marked F_LAST, against the
 * struct at base. Errors are sticky on r: after one every read returns zeros
 * and the loops end, so the ops run out without being tested one by one, as
 * in generated code.
 */
static ALWAYS_INLINE void run(avrogen_reader *r, const op *o, char *base, avrogen_arena *a)
{
    for (;; o++) {
        char *loc = base + o->off;
        if (!run_common(r, o->code, loc, a)) {
            switch ((opcode)o->code) {
            case OP_END:
                return;
            case OP_BOOL: {
                bool v = avrogen_read_bool(r);
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_INT_I64: {
                int64_t v = avrogen_read_int(r);
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_FLOAT: {
                float v = avrogen_read_float(r);
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_CHARS:
                avrogen_read_chars(r, loc, o->len);
                break;
            case OP_STR_VIEW: {
                avrogen_str v = avrogen_read_text(r);
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_BYTES_VIEW: {
                avrogen_bytes v = avrogen_read_bytes(r);
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_FIXED:
                avrogen_read_fixed(r, loc, o->len);
                break;
            case OP_ENUM: {
                int32_t i = avrogen_read_int(r);
                if (AVROGEN_UNLIKELY((uint32_t)i >= o->n)) {
                    avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
                    break;
                }
                if (AVROGEN_UNLIKELY(o->errors[i] != NULL)) {
                    avrogen_reader_fail(r, AVROGEN_E_MISMATCH, o->errors[i]);
                    break;
                }
                put_int(loc, o->scalar, o->values[i]);
                break;
            }
            case OP_RECORD:
                if (AVROGEN_UNLIKELY(o->rec->guarded))
                    run_guarded(r, o->rec, loc, a);
                else
                    exec(r, o->rec->ops, loc, a);
                break;
            case OP_LIST:
                read_list(r, o, base, a);
                break;
            case OP_C_ARRAY: {
                size_t done = 0, block;
                const uint8_t *end = NULL;
                while ((block = avrogen_read_exact_block(r, &end, done, o->n)) != 0) {
                    read_items(r, o, loc + done * o->len, block, a);
                    done += block;
                }
                break;
            }
            case OP_NULL_PTR:
                put_ptr(loc, NULL);
                break;
            case OP_NULL_VIEW: {
                avrogen_str v = {NULL, 0};
                memcpy(loc, &v, sizeof v);
                break;
            }
            case OP_WUNION: {
                int32_t i = avrogen_read_branch(r, (uint32_t)o->n);
                if (i < 0)
                    return;
                if (AVROGEN_UNLIKELY(o->branches[i] == NULL)) {
                    avrogen_reader_fail(r, AVROGEN_E_MISMATCH, o->errors[i]);
                    return;
                }
                exec(r, o->branches[i], base, a);
                break;
            }
            default:
                exec_rare(r, o, base, a);
                break;
            }
        }
        if (o->flags & F_LAST)
            return;
    }
}

/*
 * Run a sequence for each of n items stride bytes apart: the items of an
 * array block in one call. The loop tests the sticky error: a hostile block
 * count cannot spin through items that read nothing.
 */
static NOINLINE void exec_items(avrogen_reader *r, const op *o, char *base, size_t n, size_t stride,
                                avrogen_arena *a)
{
    for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++)
        run(r, o, base + i * stride, a);
}

avrogen_status avrogen_type_plan_decode(const avrogen_type_plan *p, avrogen_reader *r, void *dst,
                                        avrogen_arena *a)
{
    avrogen_reader_begin_datum(r);
    /* Members that are not serialized (AVRO_SKIP) read as zero, as from
     * P_avro_decode; storage from the arena is cleared where it holds structs. */
    memset(dst, 0, p->type->size);
    const uint8_t *start = r->p;
    exec(r, p->root, dst, a);
    if (r->err != AVROGEN_OK) {
        memset(dst, 0, p->type->size); /* no pointers into a half-decoded datum */
        avrogen_value_explain(r, p->writer, start, true); /* which member */
    }
    return r->err;
}

/* ---- building ---------------------------------------------------------------- */

/* A growable array of ops under construction, copied into the plan when done. */
typedef struct opvec {
    op *v;
    size_t n, cap;
} opvec;

/* A record program, remembered per (writer, reader, descriptor) before its ops exist. */
typedef struct memo {
    const avrogen_node *w;
    const avrogen_node *rd;
    const avrogen_type *t;
    prog *p;
    struct memo *next;   /* every memo */
    struct memo *parent; /* the record whose build started this one's */
} memo;

/* A default to try once every program is complete (see check_defaults). */
typedef struct pending {
    const op *sub;
    const uint8_t *bytes;
    size_t len;
    size_t record_size;
    const char *field;
    const char *path;
    struct pending *next;
} pending;

typedef struct builder {
    avrogen_type_plan *plan;
    avrogen_arena scratch; /* default values on their way to bytes, field maps */
    memo *memos;
    memo *building; /* innermost record being built */
    pending *defaults;
    avrogen_walk w; /* arena, path, first error */
} builder;

/* A descriptor that does not describe what its schema says: not generated code. */
static void bad_desc(builder *b, const char *what)
{
    avrogen_walk_fail(&b->w, AVROGEN_E_ARG, "the type descriptor does not match its schema: %s",
                      what);
}

/* A new zeroed op at the end of v, or NULL (error recorded). Pointers into v
 * last until the next emit into it. */
static op *emit(builder *b, opvec *v, opcode code, size_t off)
{
    if (b->w.st != AVROGEN_OK)
        return NULL;
    if (v->n == v->cap) {
        size_t cap = v->cap != 0 ? v->cap * 2 : 8;
        op *grown =
                avrogen_realloc(&b->plan->alloc, v->v, v->cap * sizeof *v->v, cap * sizeof *grown);
        if (grown == NULL) {
            avrogen_walk_fail(&b->w, AVROGEN_E_NOMEM, "out of memory");
            return NULL;
        }
        v->v = grown;
        v->cap = cap;
    }
    op *o = &v->v[v->n++];
    memset(o, 0, sizeof *o);
    o->code = (unsigned char)code;
    o->off = off;
    return o;
}

static void vec_free(builder *b, opvec *v)
{
    avrogen_free(&b->plan->alloc, v->v, v->cap * sizeof *v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

/* The ops of v, the last marked F_LAST, moved into the plan; NULL on error. Frees v. */
static const op *finish(builder *b, opvec *v)
{
    const op *out = NULL;
    if (v->n == 0)
        emit(b, v, OP_END, 0); /* an empty sequence */
    if (b->w.st == AVROGEN_OK) {
        v->v[v->n - 1].flags |= F_LAST;
        op *ops = avrogen_walk_alloc(&b->w, v->n, sizeof *ops);
        if (ops != NULL) {
            memcpy(ops, v->v, v->n * sizeof *ops);
            out = ops;
        }
    }
    vec_free(b, v);
    return out;
}

static void build(builder *b, opvec *out, const avrogen_node *w, const avrogen_node *rd,
                  const avrogen_field_desc *d, bool nonnull);

/* The ops of (w, rd, d) as a sequence of their own, or NULL. */
static const op *build_seq(builder *b, const avrogen_node *w, const avrogen_node *rd,
                           const avrogen_field_desc *d, bool nonnull)
{
    opvec v = {NULL, 0, 0};
    build(b, &v, w, rd, d, nonnull);
    return finish(b, &v);
}

/* True when storage at d holds a struct by value, whose skipped members must
 * read as zero: such storage from the arena is cleared first. */
static bool needs_zero(const avrogen_field_desc *d)
{
    switch (d->storage) {
    case AVROGEN_STORAGE_STRUCT:
        return true;
    case AVROGEN_STORAGE_C_ARRAY:
        return d->kind == AVROGEN_KIND_ARRAY && d->n_items == 1 && needs_zero(&d->items[0]);
    case AVROGEN_STORAGE_NULLABLE:
        return !d->null_via_ptr && d->n_items == 1 && needs_zero(&d->items[0]);
    case AVROGEN_STORAGE_TAGGED:
        for (size_t i = 0; i < d->n_items; i++)
            if (needs_zero(&d->items[i]))
                return true;
        return false;
    default:
        return false;
    }
}

/* The largest count an integer member of type s holds (store_count in emit_c_code.c). */
static uint64_t count_max(avrogen_scalar s)
{
    switch (s) {
    case AVROGEN_SCALAR_I8:
        return INT8_MAX;
    case AVROGEN_SCALAR_I16:
        return INT16_MAX;
    case AVROGEN_SCALAR_I32:
        return INT32_MAX;
    case AVROGEN_SCALAR_U8:
        return UINT8_MAX;
    case AVROGEN_SCALAR_U16:
        return UINT16_MAX;
    case AVROGEN_SCALAR_U32:
        return UINT32_MAX;
    default:
        return UINT64_MAX;
    }
}

static bool is_integer(avrogen_scalar s)
{
    return s >= AVROGEN_SCALAR_I8 && s <= AVROGEN_SCALAR_U64;
}

/* The ranges of int fields in narrower C types (gencode.h's avrogen_read_int8, ...). */
static bool int_range(avrogen_scalar s, int64_t *lo, int64_t *hi)
{
    switch (s) {
    case AVROGEN_SCALAR_I8:
        *lo = INT8_MIN, *hi = INT8_MAX;
        return true;
    case AVROGEN_SCALAR_I16:
        *lo = INT16_MIN, *hi = INT16_MAX;
        return true;
    case AVROGEN_SCALAR_U8:
        *lo = 0, *hi = UINT8_MAX;
        return true;
    case AVROGEN_SCALAR_U16:
        *lo = 0, *hi = UINT16_MAX;
        return true;
    default:
        return false;
    }
}

/* Units per second of a timestamp logical type; 0 for any other. */
static int64_t time_units(avrogen_logical l)
{
    switch (l) {
    case AVROGEN_LOGICAL_TIMESTAMP_MILLIS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS:
        return 1000;
    case AVROGEN_LOGICAL_TIMESTAMP_MICROS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS:
        return 1000000;
    case AVROGEN_LOGICAL_TIMESTAMP_NANOS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS:
        return 1000000000;
    default:
        return 0;
    }
}

/* An int or long into an instant (emit_c_code.c's ec_emit_read_time). The unit
 * is the descriptor's: the reader's C code says it (its schema's logical type
 * is the same one, as generated). */
static void build_time(builder *b, opvec *out, avrogen_kind wk, const avrogen_node *rd,
                       const avrogen_field_desc *d)
{
    int64_t units = time_units(d->logical);
    bool frac = d->n_items == 2;
    if (units == 0 || rd->logical != d->logical || (d->n_items != 1 && !frac) ||
        (frac && d->len == 0) || !is_integer(d->items[0].scalar) ||
        (frac && !is_integer(d->items[1].scalar))) {
        bad_desc(b, "an instant without its unit or members");
        return;
    }
    op *o = emit(b, out, OP_TIME, d->offset + d->items[0].offset);
    if (o == NULL)
        return;
    o->scalar = (unsigned char)d->items[0].scalar;
    o->lo = frac ? (int64_t)d->len : 1;
    o->hi = units;
    if (frac) {
        o->aux = d->offset + d->items[1].offset;
        o->max = d->items[1].scalar;
    }
    o->flags = (unsigned char)((wk == AVROGEN_KIND_INT ? F_WINT : 0) | (frac ? F_FRAC : 0));
}

/* Bytes or a string into the first count bytes of char[len] (emit_c_code.c's
 * read_cap_bytes): more than len is E_LIMIT, at the schema path. */
static void build_cap_bytes(builder *b, opvec *out, const avrogen_field_desc *d, bool text)
{
    op *o = emit(b, out, OP_CAP_BYTES, d->offset);
    if (o == NULL)
        return;
    o->len = d->len;
    o->aux = d->aux_offset;
    o->scalar = (unsigned char)d->aux_scalar;
    o->max = count_max(d->aux_scalar);
    o->flags = text ? F_TEXT : 0;
    o->msg = avrogen_walk_format(&b->w, "%s: more than %zu bytes",
                                 b->w.path_len != 0 ? b->w.path : "/", d->len);
}

/* A number, string, bytes or fixed value of writer kind wk into location d. */
/* A boolean, int or long into bit-field d of d->len bits. */
static void build_bitfield(builder *b, opvec *out, avrogen_kind wk, const avrogen_field_desc *d)
{
    bool is_signed = d->scalar >= AVROGEN_SCALAR_I8 && d->scalar <= AVROGEN_SCALAR_I64;
    if (d->ext == NULL || d->ext->set == NULL || d->len == 0 || d->len > 64 ||
        (!is_signed && d->len == 64)) {
        bad_desc(b, "a bit-field without its setter or width");
        return;
    }
    op *o = emit(b, out, OP_BITFIELD, d->offset);
    if (o == NULL)
        return;
    o->set = d->ext->set;
    o->flags = wk == AVROGEN_KIND_BOOLEAN ? F_WBOOL : wk == AVROGEN_KIND_INT ? F_WINT : 0;
    if (d->scalar == AVROGEN_SCALAR_BOOL) {
        o->lo = 0, o->hi = 1;
    } else if (is_signed) {
        o->hi = (int64_t)((UINT64_C(1) << (d->len - 1)) - 1);
        o->lo = -o->hi - 1;
    } else {
        o->lo = 0;
        o->hi = (int64_t)((UINT64_C(1) << d->len) - 1);
    }
    o->msg = avrogen_walk_format(&b->w, "%s: outside the %zu bits of the bit-field",
                                 b->w.path_len != 0 ? b->w.path : "/", d->len);
}

static void build_leaf(builder *b, opvec *out, avrogen_kind wk, const avrogen_node *rd,
                       const avrogen_field_desc *d)
{
    op *o;
    avrogen_scalar s = d->scalar;
    if (d->storage == AVROGEN_STORAGE_BITFIELD &&
        (rd->kind == AVROGEN_KIND_BOOLEAN || rd->kind == AVROGEN_KIND_INT ||
         rd->kind == AVROGEN_KIND_LONG)) {
        build_bitfield(b, out, wk, d);
        return;
    }
    switch (rd->kind) {
    case AVROGEN_KIND_NULL:
        return;
    case AVROGEN_KIND_BOOLEAN:
        if (d->storage != AVROGEN_STORAGE_SCALAR || s != AVROGEN_SCALAR_BOOL)
            break;
        emit(b, out, OP_BOOL, d->offset);
        return;
    case AVROGEN_KIND_INT:
        if (d->storage != AVROGEN_STORAGE_SCALAR)
            break;
        if (s == AVROGEN_SCALAR_I32) {
            emit(b, out, OP_INT_I32, d->offset);
            return;
        }
        if ((o = emit(b, out, OP_INT_RANGE, d->offset)) != NULL) {
            if (!int_range(s, &o->lo, &o->hi)) {
                bad_desc(b, "an int in an unexpected C type");
                return;
            }
            o->scalar = (unsigned char)s;
            o->msg = "int out of range of its C type";
        }
        return;
    case AVROGEN_KIND_LONG:
        if (d->storage == AVROGEN_STORAGE_TIME) {
            build_time(b, out, wk, rd, d);
            return;
        }
        if (d->storage != AVROGEN_STORAGE_SCALAR)
            break;
        if ((s == AVROGEN_SCALAR_U64 && d->ext != NULL &&
             (d->ext->flags & AVROGEN_EXT_U64_CHECKED)) ||
            s == AVROGEN_SCALAR_I32) {
            /* A checked uint64_t refuses negative longs; a 32-bit long (ILP32)
             * what does not fit. An int fits the latter whole. */
            bool u64 = s == AVROGEN_SCALAR_U64;
            if (!u64 && wk == AVROGEN_KIND_INT) {
                emit(b, out, OP_INT_I32, d->offset);
            } else if ((o = emit(b, out, wk == AVROGEN_KIND_INT ? OP_INT_RANGE : OP_LONG_RANGE,
                                 d->offset)) != NULL) {
                o->scalar = (unsigned char)s;
                o->lo = u64 ? 0 : INT32_MIN;
                o->hi = u64 ? (wk == AVROGEN_KIND_INT ? INT32_MAX : INT64_MAX) : INT32_MAX;
                o->msg = wk == AVROGEN_KIND_INT ? "int out of range of its C type"
                         : u64                  ? "negative long for an unsigned 64-bit member"
                                                : "long out of range of its 32-bit C type";
            }
            return;
        }
        if (s == AVROGEN_SCALAR_I64 || s == AVROGEN_SCALAR_U64) {
            emit(b, out, wk == AVROGEN_KIND_INT ? OP_INT_I64 : OP_LONG_I64, d->offset);
            return;
        }
        if (s != AVROGEN_SCALAR_U32)
            break;
        if (wk == AVROGEN_KIND_LONG) {
            emit(b, out, OP_LONG_U32, d->offset);
        } else if ((o = emit(b, out, OP_INT_RANGE, d->offset)) != NULL) {
            o->scalar = AVROGEN_SCALAR_U32;
            o->lo = 0;
            o->hi = INT32_MAX;
            o->msg = "long out of range of uint32_t";
        }
        return;
    case AVROGEN_KIND_FLOAT:
        if (d->storage != AVROGEN_STORAGE_SCALAR || s != AVROGEN_SCALAR_FLOAT)
            break;
        emit(b, out,
             wk == AVROGEN_KIND_INT    ? OP_INT_FLOAT
             : wk == AVROGEN_KIND_LONG ? OP_LONG_FLOAT
                                       : OP_FLOAT,
             d->offset);
        return;
    case AVROGEN_KIND_DOUBLE:
        if (d->storage != AVROGEN_STORAGE_SCALAR || s != AVROGEN_SCALAR_DOUBLE)
            break;
        emit(b, out,
             wk == AVROGEN_KIND_INT     ? OP_INT_DOUBLE
             : wk == AVROGEN_KIND_LONG  ? OP_LONG_DOUBLE
             : wk == AVROGEN_KIND_FLOAT ? OP_FLOAT_DOUBLE
                                        : OP_DOUBLE,
             d->offset);
        return;
    case AVROGEN_KIND_BYTES:
        /* spec: string and bytes read as each other; UTF-8 is checked only
         * where the reader wants a string. */
        if (d->storage == AVROGEN_STORAGE_BYTES_VIEW) {
            emit(b, out, OP_BYTES_VIEW, d->offset);
            return;
        }
        if (d->storage == AVROGEN_STORAGE_SCALAR &&
            (s == AVROGEN_SCALAR_I64 || s == AVROGEN_SCALAR_U64)) {
            emit(b, out, s == AVROGEN_SCALAR_I64 ? OP_DECIMAL_I64 : OP_DECIMAL_U64, d->offset);
            return;
        }
        if (d->storage == AVROGEN_STORAGE_PTR_COUNT && is_integer(d->aux_scalar)) {
            if ((o = emit(b, out, OP_BYTES_COPY, d->offset)) != NULL) {
                o->aux = d->aux_offset;
                o->scalar = (unsigned char)d->aux_scalar;
                o->max = count_max(d->aux_scalar);
            }
            return;
        }
        if (d->storage == AVROGEN_STORAGE_CAP_ARRAY && is_integer(d->aux_scalar)) {
            build_cap_bytes(b, out, d, false);
            return;
        }
        break;
    case AVROGEN_KIND_STRING:
        if (d->storage == AVROGEN_STORAGE_CSTRING) {
            emit(b, out, OP_CSTRING, d->offset);
            return;
        }
        if (d->storage == AVROGEN_STORAGE_STR_VIEW) {
            emit(b, out, OP_STR_VIEW, d->offset);
            return;
        }
        if (d->storage == AVROGEN_STORAGE_CHAR_ARRAY && d->len != 0) {
            if ((o = emit(b, out, OP_CHARS, d->offset)) != NULL)
                o->len = d->len;
            return;
        }
        if (d->storage == AVROGEN_STORAGE_PTR_COUNT && is_integer(d->aux_scalar)) {
            if ((o = emit(b, out, OP_TEXT_COPY, d->offset)) != NULL) {
                o->aux = d->aux_offset;
                o->scalar = (unsigned char)d->aux_scalar;
                o->max = count_max(d->aux_scalar);
            }
            return;
        }
        if (d->storage == AVROGEN_STORAGE_CAP_ARRAY && is_integer(d->aux_scalar)) {
            build_cap_bytes(b, out, d, true);
            return;
        }
        if (d->storage == AVROGEN_STORAGE_PADDED && d->len != 0) {
            if ((o = emit(b, out, OP_PADDED, d->offset)) != NULL) {
                o->len = d->len;
                o->msg = avrogen_walk_format(&b->w, "%s: more than %zu bytes",
                                             b->w.path_len != 0 ? b->w.path : "/", d->len);
            }
            return;
        }
        break;
    case AVROGEN_KIND_FIXED:
        if (d->storage != AVROGEN_STORAGE_C_ARRAY || d->len != rd->size)
            break;
        if ((o = emit(b, out, OP_FIXED, d->offset)) != NULL)
            o->len = d->len;
        return;
    default:
        break;
    }
    bad_desc(b, "a value in an unexpected C storage");
}

/* The names of the writer's and reader's named types agree (resolve.c's build_named). */
static bool names_agree(builder *b, const avrogen_node *w, const avrogen_node *rd)
{
    return avrogen_named_agree(&b->w, w, rd);
}

static void build_enum(builder *b, opvec *out, const avrogen_node *w, const avrogen_node *rd,
                       const avrogen_field_desc *d)
{
    const avrogen_type *t = d->type;
    if (d->storage != AVROGEN_STORAGE_ENUM || t == NULL || t->kind != AVROGEN_KIND_ENUM ||
        t->n_symbols != rd->n_symbols || t->values == NULL || !is_integer(d->scalar)) {
        bad_desc(b, "an enum without its symbols");
        return;
    }
    if (!names_agree(b, w, rd))
        return;
    int64_t *values = avrogen_walk_alloc(&b->w, w->n_symbols, sizeof *values);
    const char **errors = avrogen_walk_alloc(&b->w, w->n_symbols, sizeof *errors);
    if (values == NULL || errors == NULL)
        return;
    for (size_t i = 0; i < w->n_symbols; i++) {
        long k = -1;
        for (size_t j = 0; j < rd->n_symbols && k < 0; j++)
            if (strcmp(w->symbols[i], rd->symbols[j]) == 0)
                k = (long)j;
        /* spec: an unknown writer symbol takes the reader's default, else is an error. */
        if (k < 0)
            k = rd->enum_default;
        if (k >= 0)
            values[i] = t->values[k];
        else
            errors[i] =
                    avrogen_walk_format(&b->w, "enum symbol \"%s\" is not in the reader's enum %s",
                                        w->symbols[i], rd->fullname);
    }
    op *o = emit(b, out, OP_ENUM, d->offset);
    if (o != NULL) {
        o->scalar = (unsigned char)d->scalar;
        o->n = w->n_symbols;
        o->values = values;
        o->errors = errors;
    }
}

/* The encoding of reader field rf's default, copied into the plan. */
static bool encode_default(builder *b, const avrogen_field *rf, const uint8_t **bytes, size_t *len)
{
    avrogen_value v;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    avrogen_status st = avrogen_value_from_default(rf, &v, &b->scratch, &d);
    if (st != AVROGEN_OK) {
        avrogen_walk_fail(&b->w, st, "default of field \"%s\" (at %s): %s", rf->name, d.path,
                          d.msg);
        return false;
    }
    avrogen_writer w;
    avrogen_writer_init_growable(&w, &b->plan->alloc);
    if (avrogen_value_encode(&w, &v) != AVROGEN_OK) {
        avrogen_walk_fail(&b->w, w.err, "default of field \"%s\": %s", rf->name,
                          avrogen_status_str(w.err));
        avrogen_writer_fini(&w);
        return false;
    }
    *len = avrogen_writer_len(&w);
    uint8_t *copy = avrogen_walk_alloc(&b->w, *len, 1);
    if (copy != NULL && *len != 0)
        memcpy(copy, avrogen_writer_data(&w), *len);
    *bytes = copy;
    avrogen_writer_fini(&w);
    return copy != NULL;
}

/* Reader field j of record t, absent from the writer: its default, or an error. */
static void build_default(builder *b, opvec *out, const avrogen_node *rd, const avrogen_type *t,
                          size_t j)
{
    const avrogen_field *rf = &rd->fields[j];
    if (rf->default_json == NULL) {
        avrogen_walk_fail(
                &b->w, AVROGEN_E_MISMATCH,
                "reader field \"%s\" of %s has no default, and the writer's record has no such "
                "field",
                rf->name, rd->fullname);
        return;
    }
    const uint8_t *bytes;
    size_t len;
    if (!encode_default(b, rf, &bytes, &len))
        return;
    /* The default is in the reader's own encoding: an identity plan of the field. */
    const op *sub = build_seq(b, rf->type, rf->type, &t->fields[j], false);
    pending *p = avrogen_arena_calloc(&b->scratch, 1, sizeof *p);
    const char *path = avrogen_arena_strndup(&b->scratch, b->w.path, b->w.path_len);
    if (p == NULL || path == NULL) {
        avrogen_walk_fail(&b->w, AVROGEN_E_NOMEM, "out of memory");
        return;
    }
    op *o = emit(b, out, OP_DEFAULT, 0);
    if (o == NULL || sub == NULL)
        return;
    o->sub = sub;
    o->bytes = bytes;
    o->len = len;
    p->sub = sub;
    p->bytes = bytes;
    p->len = len;
    p->record_size = t->size;
    p->field = rf->name;
    p->path = path;
    p->next = b->defaults;
    b->defaults = p;
}

/* Append v's ops to out. */
static void append(builder *b, opvec *out, const opvec *v)
{
    for (size_t i = 0; i < v->n && b->w.st == AVROGEN_OK; i++) {
        op *o = emit(b, out, OP_END, 0);
        if (o != NULL)
            *o = v->v[i];
    }
}

/* The ops of a record pair, fields in writer order, then the defaults. */
static void build_fields(builder *b, opvec *out, const avrogen_node *w, const avrogen_node *rd,
                         const avrogen_type *t)
{
    /* Work in reader field order, as the generic resolver does, so both report
     * the same first problem; the ops of each reader field wait in per_field,
     * chained (next) from the first reader field each writer field feeds. */
    opvec *per_field = avrogen_arena_calloc(&b->scratch, rd->n_fields + 1, sizeof *per_field);
    long *first = avrogen_arena_calloc(&b->scratch, w->n_fields + 1, sizeof *first);
    long *last = avrogen_arena_calloc(&b->scratch, w->n_fields + 1, sizeof *last);
    long *next = avrogen_arena_calloc(&b->scratch, rd->n_fields + 1, sizeof *next);
    opvec defaults = {NULL, 0, 0};
    if (per_field == NULL || first == NULL || last == NULL || next == NULL) {
        avrogen_walk_fail(&b->w, AVROGEN_E_NOMEM, "out of memory");
        return;
    }
    for (size_t i = 0; i < w->n_fields; i++)
        first[i] = last[i] = -1;
    for (size_t j = 0; j < rd->n_fields && b->w.st == AVROGEN_OK; j++) {
        const avrogen_field *rf = &rd->fields[j];
        next[j] = -1;
        if (strcmp(rf->name, t->fields[j].name) != 0 || rf->type->kind != t->fields[j].kind) {
            bad_desc(b, "its fields differ");
            break;
        }
        long wi = avrogen_find_writer_field(w, rf);
        size_t old = avrogen_walk_push(&b->w, "/fields/", j, true);
        if (wi >= 0) {
            /* Every reader field that names the writer's field (or has it as
             * an alias) reads it, as in the generic resolver. */
            if (first[wi] < 0)
                first[wi] = (long)j;
            else
                next[last[wi]] = (long)j;
            last[wi] = (long)j;
            avrogen_walk_push(&b->w, "/type", 0, false);
            build(b, &per_field[j], w->fields[wi].type, rf->type, &t->fields[j], false);
        } else {
            build_default(b, &defaults, rd, t, j);
        }
        avrogen_walk_pop(&b->w, old);
    }
    for (size_t i = 0; i < w->n_fields && b->w.st == AVROGEN_OK; i++) {
        long j = first[i];
        if (j < 0) {
            op *o = emit(b, out, OP_SKIP, 0);
            if (o != NULL)
                o->skip = w->fields[i].type;
        } else if (next[j] < 0) {
            append(b, out, &per_field[j]);
        } else {
            /* One writer field, several reader fields: each reads it again. */
            size_t n = 0;
            for (long k = j; k >= 0; k = next[k])
                n++;
            const op **seqs = avrogen_walk_alloc(&b->w, n, sizeof *seqs);
            op *o = emit(b, out, OP_FEED, 0);
            if (seqs == NULL || o == NULL)
                break;
            n = 0;
            for (long k = j; k >= 0; k = next[k])
                seqs[n++] = finish(b, &per_field[k]);
            o->branches = seqs;
            o->n = n;
        }
    }
    append(b, out, &defaults);
    for (size_t j = 0; j < rd->n_fields; j++)
        vec_free(b, &per_field[j]);
    vec_free(b, &defaults);
}

/* The program of a record pair: built once, shared, and found again on recursion. */
static const prog *build_record(builder *b, const avrogen_node *w, const avrogen_node *rd,
                                const avrogen_field_desc *d)
{
    const avrogen_type *t = d->type;
    if (d->storage != AVROGEN_STORAGE_STRUCT || t == NULL || t->kind != AVROGEN_KIND_RECORD ||
        t->n_fields != rd->n_fields || (t->n_fields != 0 && t->fields == NULL)) {
        bad_desc(b, "a record without its fields");
        return NULL;
    }
    for (memo *m = b->memos; m != NULL; m = m->next) {
        if (m->w != w || m->rd != rd || m->t != t)
            continue;
        if (!m->p->done) {
            /* Back at a record still being built: every record from there to
             * here is on a cycle, and generated code enters a level in each. */
            for (memo *c = b->building; c != NULL; c = c->parent) {
                c->p->guarded |= G_CYCLIC;
                if (c == m)
                    break;
            }
        }
        return m->p;
    }
    if (!names_agree(b, w, rd))
        return NULL;
    memo *m = avrogen_arena_calloc(&b->scratch, 1, sizeof *m);
    prog *p = avrogen_walk_alloc(&b->w, 1, sizeof *p);
    if (m == NULL) {
        avrogen_walk_fail(&b->w, AVROGEN_E_NOMEM, "out of memory");
        return NULL;
    }
    if (p == NULL)
        return NULL;
    m->w = w;
    m->rd = rd;
    m->t = t;
    m->p = p;
    if (w->min_size == 0)
        p->guarded = G_ZERO;
    m->next = b->memos;
    m->parent = b->building;
    b->memos = m;
    b->building = m;
    opvec v = {NULL, 0, 0};
    build_fields(b, &v, w, rd, t);
    p->ops = finish(b, &v);
    p->done = true;
    b->building = m->parent;
    return p->ops != NULL ? p : NULL;
}

/* An array or map, into pointer + count or into a C array. */
static void build_list(builder *b, opvec *out, const avrogen_node *w, const avrogen_node *rd,
                       const avrogen_field_desc *d, bool nonnull)
{
    bool is_map = rd->kind == AVROGEN_KIND_MAP;
    bool c_array = d->storage == AVROGEN_STORAGE_C_ARRAY && !is_map;
    bool cap = d->storage == AVROGEN_STORAGE_CAP_ARRAY && !is_map;
    if ((d->storage != AVROGEN_STORAGE_PTR_COUNT && !c_array && !cap) ||
        d->n_items != (is_map ? 2 : 1) || d->elem_size == 0 ||
        (!c_array && !is_integer(d->aux_scalar))) {
        bad_desc(b, "an array or map without its items");
        return;
    }
    size_t old = avrogen_walk_push(&b->w, is_map ? "/values" : "/items", 0, false);
    opvec v = {NULL, 0, 0};
    if (is_map) {
        /* An entry: its key (always a string on the wire), then its value. */
        const avrogen_field_desc *key = &d->items[0];
        if (key->kind != AVROGEN_KIND_STRING) {
            bad_desc(b, "a map key that is not a string");
        } else {
            avrogen_node string_node;
            memset(&string_node, 0, sizeof string_node);
            string_node.kind = AVROGEN_KIND_STRING;
            build_leaf(b, &v, AVROGEN_KIND_STRING, &string_node, key);
        }
        build(b, &v, w->items, rd->items, &d->items[1], false);
    } else {
        build(b, &v, w->items, rd->items, &d->items[0], false);
    }
    avrogen_walk_pop(&b->w, old);
    const op *sub = finish(b, &v);
    if (sub == NULL)
        return;
    const char *msg = cap ? avrogen_walk_format(&b->w, "%s: more than %zu items",
                                                b->w.path_len != 0 ? b->w.path : "/", d->len)
                          : NULL;
    op *o = emit(b, out, c_array ? OP_C_ARRAY : cap ? OP_CAP_ARRAY : OP_LIST, d->offset);
    if (o == NULL)
        return;
    o->sub = sub;
    o->len = d->elem_size;
    if (!is_map && (sub[0].flags & F_LAST) && sub[0].off == 0) {
        /* Arrays of exact C number types read a block at a time, as in
         * generated code. */
        switch ((opcode)sub[0].code) {
        case OP_LONG_I64:
            o->bulk = d->elem_size == 8 ? BULK_LONGS : BULK_NONE;
            break;
        case OP_INT_I32:
            o->bulk = d->elem_size == 4 ? BULK_INTS : BULK_NONE;
            break;
        case OP_DOUBLE:
            o->bulk = d->elem_size == 8 ? BULK_DOUBLES : BULK_NONE;
            break;
        case OP_FLOAT:
            o->bulk = d->elem_size == 4 ? BULK_FLOATS : BULK_NONE;
            break;
        case OP_RECORD:
            /* An array of records runs the record's ops per item directly. */
            if (sub[0].rec->done && !sub[0].rec->guarded)
                o->sub = sub[0].rec->ops;
            break;
        default:
            break;
        }
    }
    if (c_array) {
        o->n = d->len;
        return;
    }
    if (cap) {
        o->n = d->len;
        o->aux = d->aux_offset;
        o->scalar = (unsigned char)d->aux_scalar;
        o->max = count_max(d->aux_scalar);
        o->msg = msg;
        return;
    }
    size_t min = w->items->min_size;
    /* spec §Maps: every key takes at least its length byte. */
    o->n = is_map ? (min < SIZE_MAX ? min + 1 : min) : min;
    o->aux = d->aux_offset;
    o->scalar = (unsigned char)d->aux_scalar;
    o->max = count_max(d->aux_scalar);
    bool zero = needs_zero(&d->items[0]) || (is_map && needs_zero(&d->items[1]));
    o->flags = (unsigned char)((nonnull ? F_NONNULL : 0) | (zero ? F_ZERO : 0));
}

/* Null into a nullable location. */
static void build_null(builder *b, opvec *out, const avrogen_field_desc *d)
{
    if (d->null_via_ptr) {
        emit(b, out, OP_NULL_PTR, d->offset);
        return;
    }
    const avrogen_field_desc *it = &d->items[0];
    switch (it->storage) {
    case AVROGEN_STORAGE_CSTRING:
        emit(b, out, OP_NULL_PTR, d->offset);
        return;
    case AVROGEN_STORAGE_STR_VIEW:
    case AVROGEN_STORAGE_BYTES_VIEW:
        emit(b, out, OP_NULL_VIEW, d->offset);
        return;
    case AVROGEN_STORAGE_PTR_COUNT: {
        op *o = emit(b, out, OP_NULL_LIST, d->offset);
        if (o != NULL) {
            o->aux = it->aux_offset;
            o->scalar = (unsigned char)it->aux_scalar;
        }
        return;
    }
    default:
        bad_desc(b, "a nullable location with no null");
        return;
    }
}

/* A non-union writer into reader union rd: the first branch that matches. */
static void build_reader_union(builder *b, opvec *out, const avrogen_node *w,
                               const avrogen_node *rd, const avrogen_field_desc *d)
{
    bool nullable = d->storage == AVROGEN_STORAGE_NULLABLE;
    if (nullable ? (d->n_items != 1 || rd->n_branches != 2 || d->null_index > 1 ||
                    rd->branches[d->null_index]->kind != AVROGEN_KIND_NULL)
                 : (d->storage != AVROGEN_STORAGE_TAGGED || d->n_items != rd->n_branches ||
                    !is_integer(d->aux_scalar))) {
        bad_desc(b, "a union in an unexpected C storage");
        return;
    }
    long pick = avrogen_reader_branch(w, rd);
    if (pick >= 0) {
        size_t k = (size_t)pick;
        size_t old = avrogen_walk_push(&b->w, "/", k, true);
        if (!nullable) {
            op *o = emit(b, out, OP_TAG, 0);
            if (o != NULL) {
                o->aux = d->aux_offset;
                o->scalar = (unsigned char)d->aux_scalar;
                const avrogen_field_ext *x = d->items[k].ext;
                o->lo = x != NULL && x->tags != NULL && x->n_tags != 0 ? x->tags[0] : (int64_t)k;
            }
            build(b, out, w, rd->branches[k], &d->items[k], false);
        } else if (k == d->null_index) {
            build_null(b, out, d);
        } else if (d->null_via_ptr) {
            const avrogen_field_desc *it = &d->items[0];
            const op *sub = build_seq(b, w, rd->branches[k], it, false);
            op *o = sub != NULL ? emit(b, out, OP_PTR, d->offset) : NULL;
            if (o != NULL) {
                o->len = it->size;
                o->sub = sub;
                o->flags = needs_zero(it) ? F_ZERO : 0;
            }
        } else {
            build(b, out, w, rd->branches[k], &d->items[0], true);
        }
        avrogen_walk_pop(&b->w, old);
        return;
    }
    avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH,
                      "the writer's %s matches no branch of the reader's union",
                      avrogen_node_name(w));
}

/* A writer union: one op sequence per writer branch (resolve.c's build_writer_union). */
static void build_writer_union(builder *b, opvec *out, const avrogen_node *w,
                               const avrogen_node *rd, const avrogen_field_desc *d, bool nonnull)
{
    const op **branches = avrogen_walk_alloc(&b->w, w->n_branches, sizeof *branches);
    const char **errors = avrogen_walk_alloc(&b->w, w->n_branches, sizeof *errors);
    if (branches == NULL || errors == NULL)
        return;
    size_t usable = 0;
    for (size_t i = 0; i < w->n_branches && b->w.st == AVROGEN_OK; i++) {
        const avrogen_node *wb = w->branches[i];
        if (avrogen_union_branch_readable(wb, rd)) {
            branches[i] = build_seq(b, wb, rd, d, nonnull);
            usable++;
        } else {
            errors[i] =
                    avrogen_walk_format(&b->w,
                                        "the writer's union branch %zu (%s) matches nothing in the "
                                        "reader's schema",
                                        i, avrogen_node_name(wb));
        }
    }
    if (b->w.st == AVROGEN_OK && usable == 0 && w->n_branches != 0)
        avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH,
                          "no branch of the writer's union can be read as %s",
                          avrogen_node_name(rd));
    op *o = emit(b, out, OP_WUNION, 0);
    if (o != NULL) {
        o->n = w->n_branches;
        o->branches = branches;
        o->errors = errors;
    }
}

/*
 * Append to `out` the ops that read a value of writer type w into location d,
 * which holds reader type rd. `nonnull`: d is the non-null branch of a
 * nullable (an empty array there still gets a pointer).
 */
static void build(builder *b, opvec *out, const avrogen_node *w, const avrogen_node *rd,
                  const avrogen_field_desc *d, bool nonnull)
{
    if (b->w.st != AVROGEN_OK)
        return;
    if (d->kind != rd->kind) {
        bad_desc(b, "a value of another type");
        return;
    }
    if (w->kind == AVROGEN_KIND_UNION) {
        build_writer_union(b, out, w, rd, d, nonnull);
        return;
    }
    if (rd->kind == AVROGEN_KIND_UNION) {
        build_reader_union(b, out, w, rd, d);
        return;
    }
    if (w->kind != rd->kind && !avrogen_kind_promotes(w->kind, rd->kind)) {
        avrogen_walk_fail(&b->w, AVROGEN_E_MISMATCH, "the writer's %s cannot be read as %s",
                          avrogen_node_name(w), avrogen_node_name(rd));
        return;
    }
    switch (rd->kind) {
    case AVROGEN_KIND_RECORD: {
        if (d->storage == AVROGEN_STORAGE_RECORD_PTR) {
            /* A union branch's record through a pointer: allocated as a nullable's. */
            if (d->n_items != 1) {
                bad_desc(b, "a record pointer without its record");
                return;
            }
            const avrogen_field_desc *it = &d->items[0];
            const op *sub = build_seq(b, w, rd, it, false);
            op *o = sub != NULL ? emit(b, out, OP_PTR, d->offset) : NULL;
            if (o != NULL) {
                o->len = it->size;
                o->sub = sub;
                o->flags = F_ZERO;
            }
            return;
        }
        const prog *p = build_record(b, w, rd, d);
        op *o = p != NULL ? emit(b, out, OP_RECORD, d->offset) : NULL;
        if (o != NULL)
            o->rec = p;
        return;
    }
    case AVROGEN_KIND_ENUM:
        build_enum(b, out, w, rd, d);
        return;
    case AVROGEN_KIND_FIXED:
        if (names_agree(b, w, rd))
            build_leaf(b, out, w->kind, rd, d);
        return;
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        build_list(b, out, w, rd, d, nonnull);
        return;
    default:
        if (w->kind != rd->kind || avrogen_decimals_agree(&b->w, w, rd))
            build_leaf(b, out, w->kind, rd, d);
        return;
    }
}

/*
 * Decode every default once into scratch storage: a default the C type cannot
 * hold (a string longer than its char array, say) fails the build, not every
 * datum. Runs when every program is complete, as defaults may hold records
 * still being built when they were met.
 */
static void check_defaults(builder *b)
{
    avrogen_arena arena;
    avrogen_arena_init(&arena, &b->plan->alloc);
    for (const pending *p = b->defaults; p != NULL && b->w.st == AVROGEN_OK; p = p->next) {
        char *record = avrogen_malloc(&b->plan->alloc, p->record_size != 0 ? p->record_size : 1);
        if (record == NULL) {
            avrogen_walk_fail(&b->w, AVROGEN_E_NOMEM, "out of memory");
            break;
        }
        memset(record, 0, p->record_size);
        avrogen_reader r;
        avrogen_reader_init(&r, p->bytes, p->len);
        avrogen_reader_begin_datum(&r);
        exec(&r, p->sub, record, &arena);
        avrogen_free(&b->plan->alloc, record, p->record_size != 0 ? p->record_size : 1);
        avrogen_arena_reset(&arena);
        if (r.err != AVROGEN_OK) {
            size_t n = strlen(p->path);
            memcpy(b->w.path, p->path, n + 1);
            b->w.path_len = n;
            avrogen_walk_fail(&b->w, r.err == AVROGEN_E_NOMEM ? AVROGEN_E_NOMEM : AVROGEN_E_SCHEMA,
                              "default of field \"%s\" does not fit its C type: %s", p->field,
                              r.err_msg != NULL ? r.err_msg : avrogen_status_str(r.err));
        }
    }
    avrogen_arena_fini(&arena);
}

avrogen_status avrogen_type_plan_new(const avrogen_node *writer, const avrogen_type *reader,
                                     const avrogen_alloc *alloc, avrogen_type_plan **out,
                                     avrogen_diag *why)
{
    *out = NULL;
    if (why != NULL)
        memset(why, 0, sizeof *why);
    if (writer == NULL || reader == NULL || reader->kind != AVROGEN_KIND_RECORD ||
        reader->schema_text == NULL) {
        if (why != NULL)
            snprintf(why->msg, sizeof why->msg,
                     "the reader is not a generated record with its schema");
        return AVROGEN_E_ARG;
    }
    avrogen_type_plan *plan = avrogen_malloc(alloc, sizeof *plan);
    if (plan == NULL) {
        if (why != NULL)
            snprintf(why->msg, sizeof why->msg, "out of memory");
        return AVROGEN_E_NOMEM;
    }
    plan->alloc = alloc != NULL ? *alloc : avrogen_alloc_libc;
    plan->type = reader;
    plan->root = NULL;
    plan->writer = writer;
    avrogen_arena_init(&plan->arena, &plan->alloc);

    builder b;
    memset(&b, 0, sizeof b);
    b.plan = plan;
    b.w.arena = &plan->arena;
    b.w.why = why;
    avrogen_arena_init(&b.scratch, &plan->alloc);
    avrogen_schema *rs = NULL;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    const char *text = avrogen_type_schema(reader);
    avrogen_status st = text == NULL
                                ? AVROGEN_E_NOMEM
                                : avrogen_schema_parse(text, strlen(text), &plan->alloc, &rs, &d);
    if (st != AVROGEN_OK) {
        avrogen_walk_fail(&b.w, st == AVROGEN_E_NOMEM ? st : AVROGEN_E_ARG,
                          "the reader's schema: %s: %s", d.path, d.msg);
    } else {
        const avrogen_node *root = avrogen_schema_root(rs);
        /* The whole record as a location at offset 0 of the struct. */
        avrogen_field_desc top;
        memset(&top, 0, sizeof top);
        top.kind = AVROGEN_KIND_RECORD;
        top.storage = AVROGEN_STORAGE_STRUCT;
        top.size = reader->size;
        top.type = reader;
        if (root->kind != AVROGEN_KIND_RECORD || strcmp(root->fullname, reader->name) != 0)
            bad_desc(&b, "its schema is not the record it names");
        plan->root = build_seq(&b, writer, root, &top, false);
        if (b.w.st == AVROGEN_OK)
            check_defaults(&b);
    }
    avrogen_schema_free(rs);
    avrogen_arena_fini(&b.scratch);
    if (b.w.st == AVROGEN_OK && plan->root == NULL)
        b.w.st = AVROGEN_E_NOMEM;
    if (b.w.st != AVROGEN_OK) {
        avrogen_type_plan_free(plan);
        return b.w.st;
    }
    *out = plan;
    return AVROGEN_OK;
}

void avrogen_type_plan_free(avrogen_type_plan *p)
{
    if (p == NULL)
        return;
    avrogen_alloc alloc = p->alloc;
    avrogen_arena_fini(&p->arena);
    avrogen_free(&alloc, p, sizeof *p);
}
