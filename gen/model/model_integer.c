/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C integers → Avro int and long. Every standard and POSIX integer type maps
 * without an annotation and to the same Avro type on every platform: what is
 * narrower than 32 bits (and int32_t) is an int, every long and 64-bit type a
 * long. Unsigned 64-bit types (uint64_t, size_t, unsigned long on LP64) are
 * longs whose values above INT64_MAX encode refuses, never wraps; the same 64
 * bits as a signed long are AVRO_FIELD(type = "long"), exact bytes
 * AVRO_DECIMAL(20, 0). Not here: bit-fields (model_bitfield.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

struct model_type *map_integer(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    struct model_loc at = member_loc(s);
    enum model_scalar sc = stdint_scalar(t);
    if (sc == MODEL_SCALAR_NONE)
        sc = int_scalar(t->size, t->is_signed);
    const struct annot_option *type_opt = s->ma ? annot_find(&s->ma->opts, "type") : NULL;
    struct model_type *n = new_type(AVROGEN_KIND_INT, MODEL_STORAGE_SCALAR, t);
    n->scalar = sc;
    switch (sc) {
    case MODEL_SCALAR_I8:
    case MODEL_SCALAR_I16:
    case MODEL_SCALAR_U8:
    case MODEL_SCALAR_U16:
        n->kind = AVROGEN_KIND_INT;
        break;
    case MODEL_SCALAR_I32:
        /* A 32-bit long (ILP32) is still a long: the schema is the platform's own. */
        n->kind = t->is_long ? AVROGEN_KIND_LONG : AVROGEN_KIND_INT;
        break;
    case MODEL_SCALAR_I64:
    case MODEL_SCALAR_U32:
        n->kind = AVROGEN_KIND_LONG;
        break;
    case MODEL_SCALAR_U64:
        n->kind = AVROGEN_KIND_LONG;
        if (type_opt && type_opt->str && strcmp(type_opt->str, "long") == 0) {
            s->ma->type_used = true; /* the same 64 bits, read back as signed elsewhere */
            break;
        }
        /* AVRO_DECIMAL turns it into bytes (apply_leaf); otherwise values above
         * INT64_MAX are refused on encode and negative longs on decode. */
        n->u64_checked = true;
        break;
    default:
        diag_error(b->d, &at, "%s '%s' has type '%s' of unsupported size %llu", s->what,
                   s->member->name, t->spelling, (unsigned long long)t->size);
        free_type(n);
        return NULL;
    }
    return n;
}
