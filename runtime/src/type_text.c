/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schema texts of generated records (avrogen_type_schema,
 * avrogen_type_canonical). Generated code keeps each text in pieces, literals
 * and the texts of the records it defines inside (gen/emit/emit_c_schema.c):
 * a chain of N records nesting one another holds N^2 bytes of schema text in
 * all, but the generated file holds each nested definition once. A text of
 * one literal is that literal; any other is joined on first use into memory
 * the descriptor's cache keeps for the life of the process, one allocation per
 * text however many threads ask (the first to finish publishes it, the others
 * free theirs).
 */
#include <stdlib.h>
#include <string.h>

#include "avrogen/gencode.h"

/* Copy text t into dst (room for t->len bytes); returns the bytes copied. The
 * generator nests parts no deeper than records nest in JSON (jansson: 2047
 * levels), so the recursion is bounded. */
static size_t join(const avrogen_text *t, char *dst, size_t room)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_pieces; i++) {
        const avrogen_text_piece *p = &t->pieces[i];
        if (p->bytes != NULL) {
            size_t k = p->len <= room - n ? p->len : room - n;
            memcpy(dst + n, p->bytes, k);
            n += k;
        } else if (p->part != NULL) {
            n += join(p->part, dst + n, room - n);
        }
    }
    return n;
}

static const char *joined(const avrogen_text *t, char **slot)
{
    if (t == NULL)
        return NULL;
    if (t->n_pieces == 1 && t->pieces[0].bytes != NULL)
        return t->pieces[0].bytes; /* a literal, NUL-terminated */
    char *have = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (have != NULL)
        return have;
    if (t->len == SIZE_MAX)
        return NULL;
    char *text = malloc(t->len + 1);
    if (text == NULL)
        return NULL;
    text[join(t, text, t->len)] = '\0';
    char *expected = NULL;
    if (__atomic_compare_exchange_n(slot, &expected, text, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return text;
    free(text);
    return expected;
}

const char *avrogen_type_schema(const avrogen_type *t)
{
    return t != NULL && t->cache != NULL ? joined(t->schema_text, &t->cache->schema) : NULL;
}

const char *avrogen_type_canonical(const avrogen_type *t)
{
    return t != NULL && t->cache != NULL ? joined(t->canonical_text, &t->cache->canonical) : NULL;
}
