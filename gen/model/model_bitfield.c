/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bit-fields (C11 6.7.2.1p9-11): a member of declared integer type T and
 * width W maps by T's signedness and W, the same on every platform: a 1-bit
 * bool is a boolean; the rest are ints when every value of W bits fits an int
 * (signed up to 32 bits, unsigned up to 31) and longs otherwise. Decode refuses
 * a value outside the W bits. Generated code reaches the member by name only:
 * there is no address or offsetof of a bit-field, so descriptors describe it
 * through get/set functions (AVROGEN_STORAGE_BITFIELD).
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* The first annotation a bit-field cannot take, or NULL. */
static const struct cannot *not_for_bitfield(const struct member_annots *ma)
{
    const struct cannot *const v[] = {ma->nullable, ma->array,   ma->map,       ma->uni,
                                      ma->string,   ma->bytes,   ma->padded,    ma->tag,
                                      ma->logical,  ma->decimal, ma->fixed_name};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (v[i])
            return v[i];
    return NULL;
}

struct model_type *map_bitfield(const struct site *s)
{
    struct builder *b = s->b;
    const struct cmember *m = s->member;
    const struct ctype *t = m->type;
    const struct cannot *bad = s->ma ? not_for_bitfield(s->ma) : NULL;
    if (bad) {
        diag_error(b->d, &bad->loc, "%s does not apply to %s '%s', a %u-bit bit-field",
                   annot_macro(bad->kind), s->what, m->name, m->bit_width);
        return NULL;
    }
    if (t->kind != CTYPE_INT && t->kind != CTYPE_BOOL) {
        diag_error(b->d, &m->loc,
                   "%s '%s' is a bit-field of type '%s'; only integer and bool bit-fields map "
                   "(or AVRO_SKIP it)",
                   s->what, m->name, t->spelling);
        return NULL;
    }
    if (!t->is_signed && t->kind == CTYPE_INT && m->bit_width == 64) {
        diag_error(b->d, &m->loc,
                   "%s '%s' is an unsigned bit-field of 64 bits; make it a plain uint64_t "
                   "member, which maps to a checked long",
                   s->what, m->name);
        return NULL;
    }
    struct model_type *n;
    if (t->kind == CTYPE_BOOL) {
        n = new_type(AVROGEN_KIND_BOOLEAN, MODEL_STORAGE_SCALAR, t);
        n->scalar = MODEL_SCALAR_BOOL;
    } else {
        bool fits_int = t->is_signed ? m->bit_width <= 32 : m->bit_width <= 31;
        n = new_type(fits_int ? AVROGEN_KIND_INT : AVROGEN_KIND_LONG, MODEL_STORAGE_SCALAR, t);
        n->scalar = int_scalar(t->size, t->is_signed);
    }
    n->bit_width = m->bit_width;
    return n;
}

void model_bitfield_range(const struct model_type *t, long long *lo, long long *hi)
{
    unsigned w = t->bit_width;
    if (t->scalar == MODEL_SCALAR_BOOL) {
        *lo = 0, *hi = 1;
    } else if (t->scalar >= MODEL_SCALAR_U8 && t->scalar <= MODEL_SCALAR_U64) {
        *lo = 0;
        *hi = (long long)((UINT64_C(1) << w) - 1);
    } else {
        *hi = (long long)((UINT64_C(1) << (w - 1)) - 1);
        *lo = -*hi - 1;
    }
}
