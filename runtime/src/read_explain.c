/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a decoder failed. After a decode of a datum stops with an error, the
 * datum is walked again from its first byte with the schema it was written
 * with, following the path (Record.field[3]["key"].field), up to the byte
 * r->err_offset names, and r->err_msg becomes "Order.lines[3].name: input
 * ends inside a string". The walk reads with the generic decoder's rules,
 * which every decoder shares (gencode.h, avrogen_read_block), so an error
 * in the bytes fails the walk at the same offset; an error of the C side (a
 * count past a capacity, a bit-field out of range) fails no walk and belongs
 * to the value that ends at the offset. Nothing here runs unless a decode has
 * failed: decoders pay nothing for it but remembering where the datum began.
 * Not here: the writer's side (explain.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/gencode.h"
#include "avrogen/schema.h"

#include "value_internal.h"

#define PATH_CAP   512
#define PATH_SHOWN 72 /* of a longer path, its start and its end */

typedef struct rwalk {
    avrogen_reader r; /* the walk's own reader, over the same input */
    size_t target;    /* the failed reader's err_offset */
    unsigned levels;  /* containers still allowed (avrogen_nesting_limit) */
    char path[PATH_CAP];
    size_t len;       /* logical length; the buffer holds a prefix */
    const char *what; /* the value whose bytes are being read: "a string" */
    /* The first value that ended at or past target (an error of the C side). */
    char ended[PATH_CAP];
    size_t ended_len;
    bool have_ended;
    /* The block whose count, ending at target, is more items than bytes follow. */
    char over[PATH_CAP];
    size_t over_len;
    bool have_over;
    bool done; /* the walk failed, or went past target */
} rwalk;

static AVROGEN_PRINTF(2, 3) void push(rwalk *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    avrogen_path_pushv(k->path, PATH_CAP, &k->len, fmt, ap);
    va_end(ap);
}

/* Before a value's bytes are read: false when the walk is over. */
static bool before(rwalk *k, const char *what)
{
    if (k->done || k->r.err != AVROGEN_OK)
        return false;
    k->what = what;
    return true;
}

/* After: a value that ends at or past the error's byte is the C side's
 * candidate; one that ends past it closes the walk (nothing later starts there). */
static void after(rwalk *k)
{
    if (k->r.err != AVROGEN_OK) {
        k->done = true;
        return;
    }
    size_t at = avrogen_reader_offset(&k->r);
    if (!k->have_ended && at >= k->target) {
        memcpy(k->ended, k->path, k->len < PATH_CAP - 1 ? k->len : PATH_CAP - 1);
        k->ended_len = k->len;
        k->have_ended = true;
    }
    if (at > k->target)
        k->done = true;
}

static void walk_value(rwalk *k, const avrogen_node *t);

static void walk_bytes(rwalk *k, size_t n)
{
    if (avrogen_reader_remaining(&k->r) < n) {
        avrogen_reader_fail(&k->r, AVROGEN_E_TRUNCATED, "input ends inside a value");
        return;
    }
    k->r.p += n;
}

/* A string or bytes value; returns its length (0 on error). */
static size_t walk_string(rwalk *k, bool text)
{
    size_t n = avrogen_read_len(&k->r);
    if (k->r.err != AVROGEN_OK)
        return 0;
    if (text && k->r.check_utf8 && !avrogen_utf8_valid(k->r.p, n)) {
        avrogen_reader_fail(&k->r, AVROGEN_E_INVALID, "string is not valid UTF-8");
        return 0;
    }
    k->r.p += n;
    return n;
}

/* A map key, for the path: quoted, cut at 24 bytes, anything unprintable as '?'. */
static void push_key(rwalk *k, const uint8_t *s, size_t n)
{
    char shown[32];
    size_t m = 0;
    for (size_t j = 0; j < n && m < 24; j++)
        shown[m++] = s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' ? (char)s[j] : '?';
    shown[m] = '\0';
    push(k, "[\"%s\"%s]", shown, n > 24 ? "..." : "");
}

static void walk_blocks(rwalk *k, const avrogen_node *t, bool is_map)
{
    const char *what = NULL; /* the block's own message says more */
    size_t index = 0;
    for (;;) {
        size_t size;
        if (!before(k, what))
            return;
        /* A count the input cannot hold is refused by some decoders right
         * after it, by others at the item that runs out: either is placed. */
        size_t n = avrogen_value_block(&k->r, &size);
        if (k->r.err == AVROGEN_OK && !k->have_over && n > avrogen_reader_remaining(&k->r) &&
            (is_map || t->items->min_size != 0) && avrogen_reader_offset(&k->r) == k->target) {
            memcpy(k->over, k->path, k->len < PATH_CAP - 1 ? k->len : PATH_CAP - 1);
            k->over_len = k->len;
            k->have_over = true;
        }
        after(k);
        if (n == 0 || k->done)
            return;
        const uint8_t *start = k->r.p;
        for (size_t i = 0; i < n && !k->done; i++, index++) {
            size_t at = k->len;
            if (is_map) {
                if (!before(k, "a map key"))
                    return;
                size_t klen = walk_string(k, true);
                after(k);
                if (k->done)
                    return;
                push_key(k, k->r.p - klen, klen);
            } else {
                push(k, "[%zu]", index);
            }
            walk_value(k, t->items);
            if (!k->done)
                k->len = at;
        }
        if (!before(k, what))
            return;
        (void)avrogen_value_block_done(&k->r, start, size);
        after(k);
    }
}

static void walk_value(rwalk *k, const avrogen_node *t)
{
    if (k->done || k->r.err != AVROGEN_OK)
        return;
    /* A value that takes no bytes: charged as decode charges it, read as nothing. */
    if (t->min_size == 0) {
        if (before(k, "a value that takes no bytes")) {
            (void)avrogen_reader_charge(&k->r, t->zero_records);
            if (k->r.err != AVROGEN_OK)
                k->done = true;
        }
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return;
    case AVROGEN_KIND_BOOLEAN:
        if (before(k, "a boolean"))
            (void)avrogen_read_bool(&k->r);
        break;
    case AVROGEN_KIND_INT:
        if (before(k, "an int"))
            (void)avrogen_read_int(&k->r);
        break;
    case AVROGEN_KIND_LONG:
        if (before(k, "a long"))
            (void)avrogen_read_long(&k->r);
        break;
    case AVROGEN_KIND_FLOAT:
        if (before(k, "a float")) {
            if (avrogen_reader_remaining(&k->r) < 4)
                avrogen_reader_fail(&k->r, AVROGEN_E_TRUNCATED, "input ends inside a float");
            else
                k->r.p += 4;
        }
        break;
    case AVROGEN_KIND_DOUBLE:
        if (before(k, "a double")) {
            if (avrogen_reader_remaining(&k->r) < 8)
                avrogen_reader_fail(&k->r, AVROGEN_E_TRUNCATED, "input ends inside a double");
            else
                k->r.p += 8;
        }
        break;
    case AVROGEN_KIND_BYTES:
        if (before(k, "a bytes value"))
            walk_string(k, false);
        break;
    case AVROGEN_KIND_STRING:
        if (before(k, "a string"))
            walk_string(k, true);
        break;
    case AVROGEN_KIND_FIXED:
        if (before(k, "a fixed value"))
            walk_bytes(k, t->size);
        break;
    case AVROGEN_KIND_ENUM:
        if (before(k, "an enum index")) {
            int32_t i = avrogen_read_int(&k->r);
            if (k->r.err == AVROGEN_OK && (i < 0 || (uint64_t)i >= t->n_symbols))
                avrogen_reader_fail(&k->r, AVROGEN_E_INVALID, "enum index out of range");
        }
        break;
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        goto container;
    }
    after(k);
    return;
container:
    if (!before(k, t->kind == AVROGEN_KIND_RECORD ? "a record" : "a value"))
        return;
    if (!avrogen_read_enter(&k->r, &k->levels, t->recursive)) {
        k->done = true;
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_UNION: {
        if (!before(k, "a union branch index"))
            break;
        int32_t i = avrogen_read_int(&k->r);
        if (k->r.err == AVROGEN_OK && (i < 0 || (uint64_t)i >= t->n_branches))
            avrogen_reader_fail(&k->r, AVROGEN_E_INVALID, "union index out of range");
        after(k);
        if (!k->done)
            walk_value(k, t->branches[i]);
        break;
    }
    case AVROGEN_KIND_RECORD:
        for (size_t i = 0; i < t->n_fields && !k->done; i++) {
            size_t at = k->len;
            push(k, ".%s", t->fields[i].name);
            walk_value(k, t->fields[i].type);
            if (!k->done)
                k->len = at;
        }
        break;
    case AVROGEN_KIND_ARRAY:
        walk_blocks(k, t, false);
        break;
    case AVROGEN_KIND_MAP:
        walk_blocks(k, t, true);
        break;
    default:
        break;
    }
    if (!k->done)
        avrogen_read_leave(&k->r, &k->levels, t->recursive);
}

/* "path: why" into r->err_text; a path too long keeps its start and its end. */
static void publish(avrogen_reader *r, const char *path, size_t len, const char *why)
{
    char *out = r->err_text;
    size_t cap = sizeof r->err_text;
    size_t wlen = strlen(why);
    if (wlen > cap / 2)
        wlen = cap / 2;
    /* For the path: at most PATH_SHOWN, so that the reason survives being
     * quoted after a container file's "block at offset ..., object ..." in
     * an avrogen_diag's 192 bytes. */
    size_t room = cap - 1 - 2 - wlen;
    if (room > PATH_SHOWN)
        room = PATH_SHOWN;
    size_t n = len < PATH_CAP - 1 ? len : PATH_CAP - 1; /* what the buffer holds */
    if (len > room) {
        size_t head = (room - 3) / 2, tail = room - 3 - head;
        memcpy(out, path, head);
        memcpy(out + head, "...", 3);
        memcpy(out + head + 3, path + n - tail, tail);
        out += room;
    } else {
        memcpy(out, path, n);
        out += n;
    }
    if (n != 0) {
        memcpy(out, ": ", 2);
        out += 2;
    }
    memcpy(out, why, wlen);
    out[wlen] = '\0';
    r->err_msg = r->err_text;
}

/*
 * A message of generated code names the C member it is about ("struct
 * order.lines: more than 8 items"): the reason after it when the path ends
 * at that member ("Order.lines"), else NULL.
 */
static const char *same_member(const char *path, size_t len, const char *msg)
{
    const char *colon = strstr(msg, ": "), *dot = colon;
    while (dot != NULL && dot > msg && *dot != '.')
        dot--;
    if (colon == NULL || dot == NULL || *dot != '.')
        return NULL;
    size_t n = (size_t)(colon - dot - 1);
    if (len > PATH_CAP - 1)
        len = PATH_CAP - 1;
    /* The last ".member" of the path, before any [index] or ["key"]. */
    for (size_t i = len; i-- > 0;)
        if (path[i] == '.') {
            size_t end = i + 1;
            while (end < len && path[end] != '[' && path[end] != '.')
                end++;
            return end - i - 1 == n && memcmp(path + i + 1, dot + 1, n) == 0 ? colon + 2 : NULL;
        }
    return NULL;
}

void avrogen_value_explain(avrogen_reader *r, const avrogen_node *t, const uint8_t *datum,
                           bool check_utf8)
{
    if (r->err == AVROGEN_OK || r->err_msg == r->err_text || t == NULL || datum == NULL ||
        datum < r->start || (size_t)(datum - r->start) > r->err_offset)
        return;
    rwalk k;
    memset(&k, 0, sizeof k);
    avrogen_reader_init(&k.r, r->start, (size_t)(r->end - r->start));
    k.r.p = datum;
    k.r.max_depth = r->max_depth;
    k.r.max_items = k.r.items_left = r->max_items;
    k.r.check_utf8 = r->check_utf8 && check_utf8;
    k.target = r->err_offset;
    k.levels = avrogen_nesting_limit(r->max_depth);
    if (t->kind == AVROGEN_KIND_RECORD)
        push(&k, "%s", t->name);
    walk_value(&k, t);
    const char *why = r->err_msg != NULL ? r->err_msg : avrogen_status_str(r->err);
    char reason[64];
    if (k.have_over && r->err == AVROGEN_E_TRUNCATED) {
        /* Refused at the count (avrogen_value_block_fits, avrogen_read_block). */
        publish(r, k.over, k.over_len, why);
    } else if (k.r.err == r->err && k.r.err_offset == k.target) {
        /* The walk failed where the decoder did: the bytes are wrong there. */
        if (r->err == AVROGEN_E_TRUNCATED && k.what != NULL) {
            snprintf(reason, sizeof reason, "input ends inside %s", k.what);
            why = reason;
        } else if (strncmp(why, "struct ", 7) == 0) {
            return;
        }
        publish(r, k.path, k.len, why);
    } else if (k.have_ended) {
        /* An error of the C side, about the value that ends there. */
        if (strncmp(why, "struct ", 7) == 0 &&
            (why = same_member(k.ended, k.ended_len, why)) == NULL)
            return;
        publish(r, k.ended, k.ended_len, why);
    }
}

void avrogen_reader_explain_type(avrogen_reader *r, const avrogen_type *t, const uint8_t *datum)
{
    if (r->err == AVROGEN_OK || r->err_msg == r->err_text || t == NULL)
        return;
    const char *text = avrogen_type_schema(t);
    avrogen_schema *s = NULL;
    if (text == NULL || avrogen_schema_parse(text, strlen(text), NULL, &s, NULL) != AVROGEN_OK)
        return;
    avrogen_value_explain(r, avrogen_schema_root(s), datum, true);
    avrogen_schema_free(s);
}
