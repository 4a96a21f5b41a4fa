/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Members that hold a value with a count or length beside it, or padded:
 *   T items[N] AVRO_ARRAY(n)          an array of the first n of N items
 *   char s[N] AVRO_STRING(len)        a string of the first len bytes, any of N
 *   uint8_t b[N] AVRO_BYTES(len)      bytes likewise (AVRO_ARRAY on bytes too)
 *   char *s AVRO_STRING(len)          a string of len bytes, not NUL-terminated
 *   uint8_t/char/void *p AVRO_BYTES(n) bytes
 *   T *p AVRO_BYTES(n)                the n bytes at p as stored, T any object type
 *                                     (struct sockaddr *ai_addr, AVRO_BYTES(ai_addrlen))
 *   char id[N] AVRO_PADDED            a string of strnlen(id, N) bytes, NUL-padded
 * The count member is claimed like AVRO_ARRAY's (model_member.c); what is
 * refused at run time (a count past the capacity, a negative length) is the
 * generated code's and the type plans' business. Pointers with AVRO_ARRAY and
 * AVRO_MAP are model_map.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* char, unsigned char, uint8_t: one byte of bytes or text (not signed char). */
static bool is_byte(const struct ctype *e)
{
    return e->kind == CTYPE_INT && e->is_char && !(e->is_signed && !e->is_plain_char);
}

struct model_type *map_cap_array(const struct site *s, const struct ctype *t, struct leaf *lf)
{
    struct builder *b = s->b;
    const struct cannot *a = counted_by(s->ma);
    const struct ctype *e = t->elem;
    struct model_type *n;
    if (s->ma->map) {
        diag_error(b->d, &a->loc,
                   "AVRO_MAP applies to a pointer to entry structs; '%s' is a C array (a map of "
                   "a fixed capacity is not supported)",
                   s->member->name);
        return NULL;
    }
    if (s->ma->string) {
        if (e->kind != CTYPE_INT || !e->is_plain_char) {
            diag_error(b->d, &a->loc,
                       "AVRO_STRING applies to 'char *' or 'char[N]'; '%s' has type '%s'",
                       s->member->name, t->spelling);
            return NULL;
        }
        n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_CAP_ARRAY, t);
        n->scalar = int_scalar(1, e->is_signed);
    } else if (is_byte(e)) {
        /* AVRO_BYTES, or AVRO_ARRAY on bytes, as for a pointer to them. */
        n = new_type(AVROGEN_KIND_BYTES, MODEL_STORAGE_CAP_ARRAY, t);
        n->scalar = int_scalar(1, e->is_signed);
    } else if (s->ma->bytes) {
        diag_error(b->d, &a->loc,
                   "AVRO_BYTES applies to a pointer to or an array of 'uint8_t', 'unsigned char' "
                   "or 'char'; '%s' has type '%s'",
                   s->member->name, t->spelling);
        return NULL;
    } else {
        struct model_type *items = map_value(s, e, lf, false);
        if (!items)
            return NULL;
        n = new_type(AVROGEN_KIND_ARRAY, MODEL_STORAGE_CAP_ARRAY, t);
        n->items = items;
    }
    n->c_len = t->len;
    return n;
}

struct model_type *map_counted_pointer(const struct site *s, const struct ctype *t)
{
    struct builder *b = s->b;
    const struct ctype *e = t->elem;
    struct model_type *n;
    if (s->ma->string) {
        if (e->kind != CTYPE_INT || !e->is_plain_char) {
            diag_error(b->d, &s->ma->string->loc,
                       "AVRO_STRING applies to 'char *' or 'char[N]'; '%s' has type '%s'",
                       s->member->name, t->spelling);
            return NULL;
        }
        n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_PTR_COUNT, t);
        n->scalar = int_scalar(1, e->is_signed);
        return n;
    }
    (void)b;
    n = new_type(AVROGEN_KIND_BYTES, MODEL_STORAGE_PTR_COUNT, t);
    if (e->kind == CTYPE_VOID || !is_byte(e)) {
        /* void *, or a pointer to any other object type (addrinfo's struct
         * sockaddr *ai_addr with ai_addrlen, issue 23): the len bytes it points
         * at, as stored, whatever object they are (a sockaddr_in6 behind it). */
        n->scalar = MODEL_SCALAR_U8;
        n->c_object = e->kind != CTYPE_VOID;
    } else {
        n->scalar = int_scalar(1, e->is_signed);
    }
    return n;
}

struct model_type *map_padded(const struct site *s, const struct ctype *t)
{
    struct model_type *n = new_type(AVROGEN_KIND_STRING, MODEL_STORAGE_PADDED, t);
    n->c_len = t->len;
    s->ma->padded_used = true;
    return n;
}

bool report_unused_padded(const struct site *s)
{
    if (!s->ma->padded || s->ma->padded_used)
        return true;
    diag_error(s->b->d, &s->ma->padded->loc,
               "AVRO_PADDED applies to 'char[N]' (also as the items of an array); %s '%s' has "
               "type '%s'",
               s->what, s->member->name, s->member->type->spelling);
    return false;
}
