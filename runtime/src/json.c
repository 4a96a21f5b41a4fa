/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Avro JSON encoding of generic values (spec §JSON Encoding), and field
 * default values (spec §Schema Declaration), which use JSON with different
 * union rules. Output is written directly, formatted exactly as Python's
 * json.dumps formats the same datum; input is parsed with jansson and then
 * checked against the schema, reporting the JSON pointer of the first mismatch.
 * jansson stays private to this file.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <float.h>
#include <jansson.h>

#include "avrogen/value.h"

#include "value_internal.h"

/* ---- shared ----------------------------------------------------------------- */

/* Decode one code point of UTF-8 already known to be valid; sets *len. */
static uint32_t utf8_next(const uint8_t *s, size_t *len)
{
    uint8_t c = s[0];
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    if (c < 0xe0) {
        *len = 2;
        return (uint32_t)(c & 0x1f) << 6 | (s[1] & 0x3fu);
    }
    if (c < 0xf0) {
        *len = 3;
        return (uint32_t)(c & 0x0f) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
    }
    *len = 4;
    return (uint32_t)(c & 0x07) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 | (s[3] & 0x3fu);
}

/* ---- value -> JSON text ------------------------------------------------------ */

typedef struct jout {
    avrogen_writer *w;
    bool ascii; /* escape everything outside printable ASCII */
    const char *comma;
    size_t comma_len;
    const char *colon;
    size_t colon_len;
    unsigned indent;               /* AVROGEN_JSON_PRETTY: spaces per level, else 0 */
    unsigned level;                /* containers open around the current value */
    const avrogen_json_sink *sink; /* NULL: everything stays in w */
    size_t chunk;
    uint8_t *lim;    /* text fits in place up to here (set_limit) */
    unsigned levels; /* avrogen_datum_to_json: containers still allowed (avrogen_nesting_limit) */
} jout;

/*
 * Where text may go in place: w's end, or with a sink the point where w would
 * pass its chunk. Worked out again after every slow path (w grows or empties).
 */
static void set_limit(jout *o)
{
    avrogen_writer *w = o->w;
    o->lim = w->end;
    if (o->sink != NULL && (size_t)(w->end - w->start) > o->chunk)
        o->lim = w->start + o->chunk;
    if (w->err != AVROGEN_OK || o->lim < w->p)
        o->lim = w->p; /* nothing fits: every write takes the slow path */
}

/* Record an error on w: nothing more is written. */
static void fail_out(jout *o, avrogen_status st)
{
    avrogen_writer_fail(o->w, st);
    o->lim = o->w->p;
}

/* Hand what w holds to the sink and empty w. */
static void drain(jout *o)
{
    size_t len = avrogen_writer_len(o->w);
    if (len == 0 || o->w->err != AVROGEN_OK)
        return;
    avrogen_status st = o->sink->write(o->sink->ctx, avrogen_writer_data(o->w), len);
    avrogen_writer_reset(o->w);
    if (st != AVROGEN_OK)
        fail_out(o, st);
}

static void put_slow(jout *o, const char *s, size_t n)
{
    if (o->sink != NULL && avrogen_writer_len(o->w) + n > o->chunk) {
        drain(o);
        if (n >= o->chunk) {
            /* A long run (a big string or bytes value) goes out without a copy. */
            avrogen_status st =
                    o->w->err == AVROGEN_OK ? o->sink->write(o->sink->ctx, s, n) : o->w->err;
            if (st != AVROGEN_OK)
                fail_out(o, st);
            set_limit(o);
            return;
        }
    }
    avrogen_write_raw(o->w, s, n);
    set_limit(o);
}

/* Every piece of text goes through here: a copy while there is room, else put_slow. */
static inline void put(jout *o, const char *s, size_t n)
{
    avrogen_writer *w = o->w;
    if (AVROGEN_LIKELY((size_t)(o->lim - w->p) >= n)) {
        memcpy(w->p, s, n);
        w->p += n;
        return;
    }
    put_slow(o, s, n);
}

/*
 * Room for `n` bytes of text to be written in place at the returned pointer,
 * then `taken` for the bytes written: the sink takes what w holds first if it
 * would pass the chunk. When w cannot hold n more (a sink's chunk smaller than
 * n, an error) the text goes to `local` instead and `taken` puts it.
 */
static char *room_slow(jout *o, size_t n, char *local)
{
    avrogen_writer *w = o->w;
    char *p = local;
    if (o->sink != NULL && (size_t)(w->p - w->start) + n > o->chunk) {
        drain(o);
        if (n > o->chunk) {
            set_limit(o);
            return local;
        }
    }
    if (w->err == AVROGEN_OK && avrogen_writer_reserve(w, n))
        p = (char *)w->p;
    set_limit(o);
    return p;
}

static inline char *room(jout *o, size_t n, char *local)
{
    if (AVROGEN_LIKELY((size_t)(o->lim - o->w->p) >= n))
        return (char *)o->w->p;
    return room_slow(o, n, local);
}

static inline void taken(jout *o, const char *p, size_t n, const char *local)
{
    if (AVROGEN_LIKELY(p != local))
        o->w->p += n;
    else
        put(o, local, n);
}

static void put_cstr(jout *o, const char *s)
{
    put(o, s, strlen(s));
}

static void put_escape(jout *o, uint32_t cp)
{
    static const char hex[] = "0123456789abcdef";
    char buf[6] = {'\\', 'u'};
    for (int i = 0; i < 4; i++)
        buf[2 + i] = hex[(cp >> (12 - 4 * i)) & 0xf];
    put(o, buf, 6);
}

/*
 * One code point inside a string, escaped as Python's json module escapes it:
 * short forms for " \ and five controls, \uXXXX for other controls and (when
 * ensuring ASCII) for everything past '~', as a surrogate pair above U+FFFF.
 */
static void put_codepoint(jout *o, uint32_t cp)
{
    char c[4];
    switch (cp) {
    case '"':
        put(o, "\\\"", 2);
        return;
    case '\\':
        put(o, "\\\\", 2);
        return;
    case '\b':
        put(o, "\\b", 2);
        return;
    case '\f':
        put(o, "\\f", 2);
        return;
    case '\n':
        put(o, "\\n", 2);
        return;
    case '\r':
        put(o, "\\r", 2);
        return;
    case '\t':
        put(o, "\\t", 2);
        return;
    default:
        break;
    }
    if (cp < 0x20 || (o->ascii && cp > 0x7e)) {
        if (cp > 0xffff) {
            cp -= 0x10000;
            put_escape(o, 0xd800 | (cp >> 10));
            put_escape(o, 0xdc00 | (cp & 0x3ff));
        } else {
            put_escape(o, cp);
        }
        return;
    }
    if (cp < 0x80) {
        c[0] = (char)cp;
        put(o, c, 1);
    } else if (cp < 0x800) {
        c[0] = (char)(0xc0 | cp >> 6);
        c[1] = (char)(0x80 | (cp & 0x3f));
        put(o, c, 2);
    } else if (cp < 0x10000) {
        c[0] = (char)(0xe0 | cp >> 12);
        c[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        c[2] = (char)(0x80 | (cp & 0x3f));
        put(o, c, 3);
    } else {
        c[0] = (char)(0xf0 | cp >> 18);
        c[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        c[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        c[3] = (char)(0x80 | (cp & 0x3f));
        put(o, c, 4);
    }
}

/*
 * A name from the schema (field, enum symbol, type): spec §Names keeps them to
 * [A-Za-z0-9_.], which the parser checks, so they go out as they are.
 */
static void put_name(jout *o, const char *name)
{
    put(o, "\"", 1);
    put(o, name, strlen(name));
    put(o, "\"", 1);
}

/* A record field's or union branch's name and the colon after it. */
static void put_key(jout *o, const char *name)
{
    size_t n = strlen(name), total = n + 2 + o->colon_len;
    if ((size_t)(o->lim - o->w->p) < total) {
        put_name(o, name);
        put(o, o->colon, o->colon_len);
        return;
    }
    char *p = (char *)o->w->p;
    p[0] = '"';
    memcpy(p + 1, name, n);
    p[n + 1] = '"';
    memcpy(p + n + 2, o->colon, o->colon_len);
    o->w->p += total;
}

static bool plain_ascii(uint8_t c)
{
    return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
}

/* How many bytes from p on are plain_ascii: eight at a time while they all are. */
static size_t plain_run(const uint8_t *p, size_t len)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
        uint64_t bad = ((x - ones * 0x20) & ~x) |             /* below 0x20 */
                       (((x & ~high) + ones) | x) |           /* 0x7f and up */
                       ((q - ones) & ~q) | ((b - ones) & ~b); /* " and \ */
        if ((bad & high) != 0)
            break;
    }
    while (i < len && plain_ascii(p[i]))
        i++;
    return i;
}

/* A string known to be UTF-8, whose first `first` bytes are plain_ascii. */
static void put_utf8(jout *o, const char *s, size_t len, size_t first)
{
    const uint8_t *p = (const uint8_t *)s;
    put(o, "\"", 1);
    size_t i = 0;
    while (i < len && o->w->err == AVROGEN_OK) {
        size_t run = i == 0 ? first : i + plain_run(p + i, len - i);
        if (run > i) {
            put(o, s + i, run - i);
            i = run;
            continue;
        }
        size_t n;
        uint32_t cp = utf8_next(p + i, &n);
        put_codepoint(o, cp);
        i += n;
    }
    put(o, "\"", 1);
}

/* A UTF-8 string; E_INVALID if it is not UTF-8. */
static void put_string(jout *o, const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    /* Plain ASCII up to `first` is valid UTF-8; the rest starts on a character. */
    size_t first = plain_run(p, len);
    if (first != len && !avrogen_utf8_valid(p + first, len - first)) {
        fail_out(o, AVROGEN_E_INVALID);
        return;
    }
    put_utf8(o, s, len, first);
}

/* spec §JSON Encoding: bytes and fixed are strings whose code points 0-255 are the bytes. */
static void put_latin1(jout *o, const uint8_t *p, size_t len)
{
    put(o, "\"", 1);
    size_t i = 0;
    while (i < len && o->w->err == AVROGEN_OK) {
        size_t run = i + plain_run(p + i, len - i);
        if (run > i) {
            put(o, (const char *)p + i, run - i);
            i = run;
            continue;
        }
        put_codepoint(o, p[i++]);
    }
    put(o, "\"", 1);
}

/* Powers of ten that doubles hold exactly. */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#define TWO_53 9007199254740992.0

static const char digit_pairs[] = "0001020304050607080910111213141516171819202122232425262728293031"
                                  "3233343536373839404142434445464748495051525354555657585960616263"
                                  "6465666768697071727374757677787980818283848586878889909192939495"
                                  "96979899";

/*
 * Exactly 8 digits of v < 10^8 (leading zeros kept) at out: v * ceil(2^48 /
 * 10^6) holds v / 10^6 in its top bits and the rest as a binary fraction,
 * which times 100 gives the next two digits, and so on. Exact for every
 * v < 10^8 (checked for all of them once; tests/runtime/test_json.c checks
 * the ends of every digit count and a million others).
 */
static void put_eight(char *out, uint32_t v)
{
    const uint64_t frac = (UINT64_C(1) << 48) - 1;
    uint64_t t = (uint64_t)v * UINT64_C(281474977);
    memcpy(out, digit_pairs + 2 * (t >> 48), 2);
    t = (t & frac) * 100;
    memcpy(out + 2, digit_pairs + 2 * (t >> 48), 2);
    t = (t & frac) * 100;
    memcpy(out + 4, digit_pairs + 2 * (t >> 48), 2);
    t = (t & frac) * 100;
    memcpy(out + 6, digit_pairs + 2 * (t >> 48), 2);
}

/* How many decimal digits v < 10^8 has (1 for 0). */
static size_t digits_below_1e8(uint32_t v)
{
    return v < 10000 ? (v < 100 ? (v < 10 ? 1 : 2) : (v < 1000 ? 3 : 4))
                     : (v < 1000000 ? (v < 100000 ? 5 : 6) : (v < 10000000 ? 7 : 8));
}

/* The decimal digits of u (at most 20) into out; their count. */
static size_t put_digits(char *out, uint64_t u)
{
    /* The leading 1 to 8 digits two at a time, the rest in blocks of eight. */
    uint32_t lead;
    size_t blocks;
    if (u >= UINT64_C(10000000000000000)) {
        lead = (uint32_t)(u / UINT64_C(10000000000000000));
        blocks = 2;
    } else if (u >= 100000000) {
        lead = (uint32_t)(u / 100000000);
        blocks = 1;
    } else {
        lead = (uint32_t)u;
        blocks = 0;
    }
    size_t n = digits_below_1e8(lead);
    if (blocks == 2) {
        uint64_t rest = u % UINT64_C(10000000000000000);
        put_eight(out + n, (uint32_t)(rest / 100000000));
        put_eight(out + n + 8, (uint32_t)(rest % 100000000));
    } else if (blocks == 1) {
        put_eight(out + n, (uint32_t)(u % 100000000));
    }
    char *end = out + n;
    while (lead >= 100) {
        uint32_t k = (lead % 100) * 2;
        lead /= 100;
        end -= 2;
        memcpy(end, digit_pairs + k, 2);
    }
    if (lead >= 10)
        memcpy(end - 2, digit_pairs + lead * 2, 2);
    else
        end[-1] = (char)('0' + lead);
    return n + 8 * blocks;
}

/*
 * The shortest digits of ax > 0 that read back to it, the quick way: the
 * fewest decimals k such that exactly one integer m near ax * 10^k has
 * m / 10^k == ax. With m < 2^53 and k <= 22 both are exact doubles, so that
 * IEEE division rounds the very rational strtod("m e-k") rounds: the text
 * m e-k reads back to ax, and no k' < k does. A smaller k cannot have fewer
 * digits, so this is the shortest form; when two integers fit (a tie for the
 * closest), or ax is out of the range where m fits, false: the slow path
 * decides. Needs double arithmetic without excess precision.
 */
static bool short_digits(double ax, char *digits, size_t *nd, long *decpt)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (!(ax >= 1e-4 && ax < TWO_53))
        return false;
    for (size_t k = 0; k < sizeof exact_pow10 / sizeof *exact_pow10; k++) {
        double scale = exact_pow10[k];
        double p = ax * scale;
        if (p >= TWO_53)
            return false;
        /* p + 0.5 < 2^53 + 1 is positive: the conversion is floor (no libm). */
        double m0 = (double)(uint64_t)(p + 0.5), found = 0;
        int hits = 0;
        for (int d = -1; d <= 1; d++) {
            double m = m0 + d;
            if (m > 0 && m < TWO_53 && m / scale == ax) {
                found = m;
                hits++;
            }
        }
        if (hits > 1)
            return false;
        if (hits == 1) {
            uint64_t u = (uint64_t)found;
            long exp = -(long)k;
            while (u % 10 == 0) {
                u /= 10;
                exp++;
            }
            *nd = put_digits(digits, u);
            *decpt = (long)*nd + exp;
            return true;
        }
    }
#else
    (void)ax;
    (void)digits;
    (void)nd;
    (void)decpt;
#endif
    return false;
}

/* The shortest digits of ax > 0 that read back to it, by asking printf for ever more. */
static void exact_digits(double ax, char *digits, size_t *nd, long *decpt)
{
    char buf[40];
    /* printf and strtod agree on the decimal point whatever the locale. */
    for (int prec = 0; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, ax);
        if (strtod(buf, NULL) == ax)
            break;
    }
    const char *p = buf;
    *nd = 0;
    for (; *p != '\0' && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && *nd < 20)
            digits[(*nd)++] = *p;
    long exp10 = *p == 'e' ? strtol(p + 1, NULL, 10) : 0;
    while (*nd > 1 && digits[*nd - 1] == '0')
        (*nd)--;
    *decpt = exp10 + 1;
}

/*
 * A finite double the way Python's repr() writes it: the fewest significant
 * digits that read back to the same value; positional notation when the decimal
 * exponent is in -5 < e < 16 (always with a fractional part, "100.0"), else
 * d.ddde±XX with at least two exponent digits ("1e+16", "1.5e-07").
 */
static size_t format_double(char *out, double x)
{
    char digits[20];
    size_t nd = 0;
    size_t n = 0;
    if (x == 0) {
        const char *z = signbit(x) ? "-0.0" : "0.0";
        strcpy(out, z);
        return strlen(z);
    }
    long decpt; /* x = 0.d1d2... * 10^decpt */
    double ax = x < 0 ? -x : x;
    if (!short_digits(ax, digits, &nd, &decpt))
        exact_digits(ax, digits, &nd, &decpt);
    if (x < 0)
        out[n++] = '-';
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            out[n++] = '0';
            out[n++] = '.';
            for (long i = decpt; i < 0; i++)
                out[n++] = '0';
            memcpy(out + n, digits, nd);
            n += nd;
        } else if ((size_t)decpt >= nd) {
            memcpy(out + n, digits, nd);
            n += nd;
            for (size_t i = nd; i < (size_t)decpt; i++)
                out[n++] = '0';
            out[n++] = '.';
            out[n++] = '0';
        } else {
            memcpy(out + n, digits, (size_t)decpt);
            n += (size_t)decpt;
            out[n++] = '.';
            memcpy(out + n, digits + decpt, nd - (size_t)decpt);
            n += nd - (size_t)decpt;
        }
    } else {
        out[n++] = digits[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, digits + 1, nd - 1);
            n += nd - 1;
        }
        n += (size_t)snprintf(out + n, 8, "e%c%02ld", decpt - 1 < 0 ? '-' : '+', labs(decpt - 1));
    }
    out[n] = '\0';
    return n;
}

static void put_double(jout *o, double x)
{
    char local[40];
    if (isnan(x)) {
        put_cstr(o, "\"NaN\"");
    } else if (isinf(x)) {
        put_cstr(o, x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
        char *p = room(o, sizeof local, local);
        taken(o, p, format_double(p, x), local);
    }
}

static inline void put_long(jout *o, int64_t x)
{
    char local[24];
    char *p = room(o, 21, local);
    size_t n = 0;
    if (x < 0)
        p[n++] = '-';
    n += put_digits(p + n, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
    taken(o, p, n, local);
}

/* With indentation: a new line, indented to the current level. */
static void newline(jout *o)
{
    static const char spaces[] = "                                ";
    if (o->indent == 0)
        return;
    put(o, "\n", 1);
    for (size_t n = (size_t)o->level * o->indent; n != 0;) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        put(o, spaces, k);
        n -= k;
    }
}

/* Before item i of a container: the separator, then (indenting) a new line. */
static inline void item(jout *o, size_t i)
{
    if (i != 0) {
        char local[2];
        char *p = room(o, 2, local);
        p[0] = o->comma[0];
        p[1] = ' ';
        taken(o, p, o->comma_len, local);
    }
    if (o->indent != 0)
        newline(o);
}

static void open_container(jout *o, const char *bracket)
{
    put(o, bracket, 1);
    o->level++;
}

/* After `count` items: indenting, a non-empty container closes on a line of its own. */
static void close_container(jout *o, const char *bracket, size_t count)
{
    o->level--;
    if (count != 0)
        newline(o);
    put(o, bracket, 1);
}

static void emit(jout *o, const avrogen_node *t, const avrogen_value *v)
{
    if (o->w->err != AVROGEN_OK)
        return;
    /* Values from a decoder nest within its limits; one built by hand may not
     * (it may even be cyclic). */
    if (o->level >= avrogen_nesting_limit(o->w->max_depth)) {
        avrogen_writer_fail_msg(o->w, AVROGEN_E_LIMIT,
                                "values nest deeper than the writer's max_depth allows");
        return;
    }
    if (v->type != t) {
        fail_out(o, AVROGEN_E_ARG);
        return;
    }
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        put(o, "null", 4);
        return;
    case AVROGEN_KIND_BOOLEAN:
        put_cstr(o, v->boolean ? "true" : "false");
        return;
    case AVROGEN_KIND_INT:
        put_long(o, v->i32);
        return;
    case AVROGEN_KIND_LONG:
        put_long(o, v->i64);
        return;
    case AVROGEN_KIND_FLOAT:
        put_double(o, v->f32);
        return;
    case AVROGEN_KIND_DOUBLE:
        put_double(o, v->f64);
        return;
    case AVROGEN_KIND_BYTES:
        put_latin1(o, v->bytes.ptr, v->bytes.len);
        return;
    case AVROGEN_KIND_FIXED:
        if (v->bytes.len != t->size) {
            fail_out(o, AVROGEN_E_ARG);
            return;
        }
        put_latin1(o, v->bytes.ptr, v->bytes.len);
        return;
    case AVROGEN_KIND_STRING:
        put_string(o, v->str.ptr, v->str.len);
        return;
    case AVROGEN_KIND_ENUM:
        if (v->enum_index >= t->n_symbols) {
            fail_out(o, AVROGEN_E_ARG);
            return;
        }
        put_name(o, t->symbols[v->enum_index]);
        return;
    case AVROGEN_KIND_UNION: {
        if (v->branch.index >= t->n_branches || v->branch.value == NULL) {
            fail_out(o, AVROGEN_E_ARG);
            return;
        }
        const avrogen_node *b = t->branches[v->branch.index];
        if (b->kind == AVROGEN_KIND_NULL) {
            emit(o, b, v->branch.value);
            return;
        }
        const char *name = avrogen_node_name(b);
        open_container(o, "{");
        item(o, 0);
        put_key(o, name);
        emit(o, b, v->branch.value);
        close_container(o, "}", 1);
        return;
    }
    case AVROGEN_KIND_RECORD:
        open_container(o, "{");
        for (size_t i = 0; i < t->n_fields && o->w->err == AVROGEN_OK; i++) {
            item(o, i);
            put_key(o, t->fields[i].name);
            emit(o, t->fields[i].type, &v->fields[i]);
        }
        close_container(o, "}", t->n_fields);
        return;
    case AVROGEN_KIND_ARRAY:
        open_container(o, "[");
        if (t->items->kind == AVROGEN_KIND_LONG) {
            /* The common array of numbers, without a call per item. */
            for (size_t i = 0; i < v->array.count && o->w->err == AVROGEN_OK; i++) {
                if (v->array.items[i].type != t->items) {
                    fail_out(o, AVROGEN_E_ARG);
                    return;
                }
                item(o, i);
                put_long(o, v->array.items[i].i64);
            }
        } else {
            for (size_t i = 0; i < v->array.count && o->w->err == AVROGEN_OK; i++) {
                item(o, i);
                emit(o, t->items, &v->array.items[i]);
            }
        }
        close_container(o, "]", v->array.count);
        return;
    case AVROGEN_KIND_MAP:
        open_container(o, "{");
        for (size_t i = 0; i < v->map.count && o->w->err == AVROGEN_OK; i++) {
            const avrogen_map_entry *e = &v->map.entries[i];
            item(o, i);
            put_string(o, e->key.ptr, e->key.len);
            put(o, o->colon, o->colon_len);
            emit(o, t->items, &e->value);
        }
        close_container(o, "}", v->map.count);
        return;
    }
    fail_out(o, AVROGEN_E_ARG);
}

/* Default sink chunk: what stdio and pipes move in one go. */
#define JSON_SINK_CHUNK ((size_t)64 * 1024)

static jout start(avrogen_writer *w, unsigned flags, const avrogen_json_sink *sink)
{
    /* Python's json.dumps: ", " between items, or "," when indenting. */
    bool pretty = (flags & AVROGEN_JSON_PRETTY) != 0;
    bool compact = (flags & AVROGEN_JSON_COMPACT) != 0 || pretty;
    jout o = {w,
              (flags & AVROGEN_JSON_UTF8) == 0,
              compact ? "," : ", ",
              compact ? 1u : 2u,
              (flags & AVROGEN_JSON_COMPACT) != 0 ? ":" : ": ",
              (flags & AVROGEN_JSON_COMPACT) != 0 ? 1u : 2u,
              pretty ? 2u : 0u,
              0,
              sink,
              sink != NULL && sink->chunk != 0 ? sink->chunk : JSON_SINK_CHUNK,
              NULL,
              0};
    set_limit(&o);
    return o;
}

static avrogen_status to_json(avrogen_writer *w, const avrogen_value *v, unsigned flags,
                              const avrogen_json_sink *sink)
{
    jout o = start(w, flags, sink);
    if (w->err == AVROGEN_OK)
        emit(&o, v->type, v);
    return w->err;
}

/* ---- binary -> JSON text, without values ------------------------------------------- */

static void transcode(jout *o, avrogen_reader *r, const avrogen_node *t);

/*
 * A string as avrogen_read_string reads it (the same checks, statuses and
 * offsets: UTF-8 when r->check_utf8), then printed; the one scan for plain
 * ASCII serves the check and the printer. False on a reader error.
 */
static bool transcode_string(jout *o, avrogen_reader *r)
{
    size_t len = avrogen_read_len(r);
    if (r->err != AVROGEN_OK)
        return false;
    const char *s = (const char *)r->p;
    size_t first = plain_run(r->p, len);
    if (!r->check_utf8) {
        r->p += len;
        put_string(o, s, len);
        return true;
    }
    if (first != len && !avrogen_utf8_valid(r->p + first, len - first)) {
        avrogen_reader_fail(r, AVROGEN_E_INVALID, "string is not valid UTF-8");
        return false;
    }
    r->p += len;
    put_utf8(o, s, len, first);
    return true;
}

/* Arrays and maps block by block, as value.c's read_array and read_map read them. */
static void transcode_blocks(jout *o, avrogen_reader *r, const avrogen_node *t)
{
    bool is_map = t->kind == AVROGEN_KIND_MAP;
    bool zero = !is_map && t->items->min_size == 0;
    size_t count = 0;
    open_container(o, is_map ? "{" : "[");
    while (o->w->err == AVROGEN_OK) {
        size_t size;
        size_t n = avrogen_value_block(r, &size);
        if (n == 0 || !avrogen_value_block_fits(r, n, zero))
            break;
        const uint8_t *begin = r->p;
        if (t->items->kind == AVROGEN_KIND_LONG && !is_map) {
            /* The common array of numbers, without a call per item. */
            for (size_t i = 0; i < n && r->err == AVROGEN_OK; i++) {
                int64_t x = avrogen_read_long(r);
                if (r->err != AVROGEN_OK)
                    break;
                item(o, count++);
                put_long(o, x);
            }
            n = 0;
        }
        for (size_t i = 0; i < n && r->err == AVROGEN_OK && o->w->err == AVROGEN_OK; i++) {
            item(o, count++);
            if (is_map) {
                if (!transcode_string(o, r))
                    break;
                put(o, o->colon, o->colon_len);
            }
            transcode(o, r, t->items);
        }
        if (!avrogen_value_block_done(r, begin, size))
            break;
    }
    close_container(o, is_map ? "}" : "]", count);
}

static void transcode(jout *o, avrogen_reader *r, const avrogen_node *t)
{
    if (r->err != AVROGEN_OK || o->w->err != AVROGEN_OK)
        return;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        put(o, "null", 4);
        return;
    case AVROGEN_KIND_BOOLEAN: {
        bool b = avrogen_read_bool(r);
        if (r->err == AVROGEN_OK)
            put_cstr(o, b ? "true" : "false");
        return;
    }
    case AVROGEN_KIND_INT: {
        int32_t x = avrogen_read_int(r);
        if (r->err == AVROGEN_OK)
            put_long(o, x);
        return;
    }
    case AVROGEN_KIND_LONG: {
        int64_t x = avrogen_read_long(r);
        if (r->err == AVROGEN_OK)
            put_long(o, x);
        return;
    }
    case AVROGEN_KIND_FLOAT: {
        float x = avrogen_read_float(r);
        if (r->err == AVROGEN_OK)
            put_double(o, x);
        return;
    }
    case AVROGEN_KIND_DOUBLE: {
        double x = avrogen_read_double(r);
        if (r->err == AVROGEN_OK)
            put_double(o, x);
        return;
    }
    case AVROGEN_KIND_BYTES: {
        avrogen_bytes b = avrogen_read_bytes(r);
        if (r->err == AVROGEN_OK)
            put_latin1(o, b.ptr, b.len);
        return;
    }
    case AVROGEN_KIND_STRING:
        (void)transcode_string(o, r);
        return;
    case AVROGEN_KIND_FIXED:
        if (avrogen_reader_remaining(r) < t->size) {
            avrogen_reader_fail(r, AVROGEN_E_TRUNCATED, "input ends inside a fixed value");
            return;
        }
        put_latin1(o, r->p, t->size);
        r->p += t->size;
        return;
    case AVROGEN_KIND_ENUM: {
        int32_t i = avrogen_read_int(r);
        if (r->err != AVROGEN_OK)
            return;
        if (i < 0 || (uint64_t)i >= t->n_symbols)
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "enum index out of range");
        else
            put_name(o, t->symbols[i]);
        return;
    }
    case AVROGEN_KIND_UNION:
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        break;
    }
    /* The limits of value.c's decoder: max_depth counts recursive records. */
    if (!avrogen_read_enter(r, &o->levels, t->recursive))
        return;
    switch (t->kind) {
    case AVROGEN_KIND_UNION: {
        int64_t i = avrogen_read_int(r); /* spec: "an int value indicating" the branch */
        if (r->err != AVROGEN_OK)
            break;
        if (i < 0 || (uint64_t)i >= t->n_branches) {
            avrogen_reader_fail(r, AVROGEN_E_INVALID, "union index out of range");
            break;
        }
        const avrogen_node *b = t->branches[i];
        if (b->kind == AVROGEN_KIND_NULL) {
            put(o, "null", 4);
            break;
        }
        open_container(o, "{");
        item(o, 0);
        put_key(o, avrogen_node_name(b));
        transcode(o, r, b);
        close_container(o, "}", 1);
        break;
    }
    case AVROGEN_KIND_RECORD:
        /* A record whose values take no bytes costs an item, as in value.c. */
        if (t->min_size == 0 && !avrogen_reader_charge(r, 1))
            break;
        open_container(o, "{");
        for (size_t i = 0; i < t->n_fields && r->err == AVROGEN_OK && o->w->err == AVROGEN_OK;
             i++) {
            item(o, i);
            put_key(o, t->fields[i].name);
            transcode(o, r, t->fields[i].type);
        }
        close_container(o, "}", t->n_fields);
        break;
    default:
        transcode_blocks(o, r, t);
        break;
    }
    avrogen_read_leave(r, &o->levels, t->recursive);
}

avrogen_status avrogen_datum_to_json(avrogen_reader *r, const avrogen_node *type, avrogen_writer *w,
                                     unsigned flags, const avrogen_json_sink *sink)
{
    if (sink != NULL && sink->write == NULL)
        return avrogen_writer_fail(w, AVROGEN_E_ARG);
    jout o = start(w, flags, sink);
    o.levels = avrogen_nesting_limit(r->max_depth);
    const uint8_t *datum = r->p;
    bool failed = r->err != AVROGEN_OK;
    transcode(&o, r, type);
    if (!failed && r->err != AVROGEN_OK)
        avrogen_value_explain(r, type, datum, true); /* which member */
    return r->err != AVROGEN_OK ? r->err : w->err;
}

avrogen_status avrogen_value_to_json(avrogen_writer *w, const avrogen_value *v, unsigned flags)
{
    return to_json(w, v, flags, NULL);
}

avrogen_status avrogen_value_to_json_sink(avrogen_writer *w, const avrogen_value *v, unsigned flags,
                                          const avrogen_json_sink *sink)
{
    if (sink == NULL || sink->write == NULL)
        return avrogen_writer_fail(w, AVROGEN_E_ARG);
    return to_json(w, v, flags, sink);
}

/* ---- JSON text -> value ------------------------------------------------------ */

/* Where we are in the JSON document: a chain of frames on the C stack, turned
 * into a JSON pointer only when an error needs one. */
typedef struct frame {
    const struct frame *parent;
    const char *key; /* object member, or NULL for an array index */
    size_t key_len;
    size_t index;
} frame;

typedef struct jin {
    avrogen_arena *a;
    avrogen_diag *diag;
    bool defaults;           /* default-value rules: unions take their first branch */
    avrogen_status mismatch; /* status for JSON that does not fit the schema */
    avrogen_status err;
    unsigned depth;     /* containers entered: the nesting guard (avrogen_nesting_limit) */
    unsigned records;   /* recursive records entered, against max_depth */
    unsigned max_depth; /* records that contain themselves may nest this deep */
} jin;

/* Append to the diag path, escaping per RFC 6901; the path is cut off if too long. */
static void path_append(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const char *rep = s[i] == '~' ? "~0" : s[i] == '/' ? "~1" : NULL;
        size_t rl = rep != NULL ? 2 : 1;
        if (*n + rl >= cap)
            return;
        if (rep != NULL)
            memcpy(buf + *n, rep, 2);
        else
            buf[*n] = s[i];
        *n += rl;
    }
}

static void write_path(avrogen_diag *d, const frame *fr)
{
    const frame *chain[AVROGEN_DEFAULT_MAX_DEPTH * 2 + 8];
    size_t depth = 0;
    for (; fr != NULL && depth < sizeof chain / sizeof chain[0]; fr = fr->parent)
        chain[depth++] = fr;
    size_t n = 0;
    d->path[0] = '\0';
    while (depth-- > 0) {
        const frame *f = chain[depth];
        char idx[24];
        if (n + 1 >= sizeof d->path)
            break;
        d->path[n++] = '/';
        if (f->key != NULL) {
            path_append(d->path, sizeof d->path, &n, f->key, f->key_len);
        } else {
            int len = snprintf(idx, sizeof idx, "%zu", f->index);
            path_append(d->path, sizeof d->path, &n, idx, (size_t)len);
        }
    }
    d->path[n] = '\0';
}

static bool fail(jin *j, const frame *fr, avrogen_status st, const char *fmt, ...)
        AVROGEN_PRINTF(4, 5);

static bool fail(jin *j, const frame *fr, avrogen_status st, const char *fmt, ...)
{
    if (j->err != AVROGEN_OK)
        return false;
    j->err = st;
    if (j->diag != NULL) {
        va_list ap;
        j->diag->line = 0;
        j->diag->column = 0;
        j->diag->offset = 0;
        write_path(j->diag, fr);
        va_start(ap, fmt);
        vsnprintf(j->diag->msg, sizeof j->diag->msg, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool fail_alloc(jin *j, const frame *fr, size_t size)
{
    avrogen_status st = avrogen_value_arena_status(j->a, size);
    return fail(j, fr, st, "%s",
                st == AVROGEN_E_LIMIT ? "arena budget exhausted" : "out of memory");
}

static const char *json_kind(const json_t *js)
{
    switch (json_typeof(js)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}

static bool expected(jin *j, const frame *fr, const char *what, const json_t *js)
{
    return fail(j, fr, j->mismatch, "expected %s, got %s", what, json_kind(js));
}

static bool conv(jin *j, const frame *fr, const avrogen_node *t, json_t *js, avrogen_value *out);

/* bytes and fixed: a string of code points U+0000..U+00FF, one per byte. */
static bool conv_latin1(jin *j, const frame *fr, const avrogen_node *t, json_t *js,
                        avrogen_value *out)
{
    if (!json_is_string(js))
        return expected(j, fr, "a string of ISO-8859-1 code points", js);
    /* jansson only hands out valid UTF-8. */
    const uint8_t *s = (const uint8_t *)json_string_value(js);
    size_t len = json_string_length(js);
    uint8_t *buf = avrogen_arena_alloc(j->a, len);
    if (buf == NULL)
        return fail_alloc(j, fr, len);
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t k;
        uint32_t cp = utf8_next(s + i, &k);
        if (cp > 0xff)
            return fail(j, fr, j->mismatch,
                        "code point U+%04" PRIX32 " at character %zu is not a byte (U+0000-U+00FF)",
                        cp, n);
        buf[n++] = (uint8_t)cp;
        i += k;
    }
    if (t->kind == AVROGEN_KIND_FIXED && n != t->size)
        return fail(j, fr, j->mismatch, "fixed %s needs %zu bytes, got %zu", avrogen_node_name(t),
                    t->size, n);
    out->bytes.ptr = buf;
    out->bytes.len = n;
    return true;
}

static bool conv_number(jin *j, const frame *fr, const avrogen_node *t, json_t *js,
                        avrogen_value *out)
{
    double x;
    if (json_is_number(js)) {
        x = json_number_value(js);
    } else if (j->defaults) {
        /* spec: a float or double default is a JSON number; no spelled-out NaN. */
        return expected(j, fr, "a number", js);
    } else if (json_is_string(js) && strcmp(json_string_value(js), "NaN") == 0) {
        x = NAN;
    } else if (json_is_string(js) && strcmp(json_string_value(js), "Infinity") == 0) {
        x = INFINITY;
    } else if (json_is_string(js) && strcmp(json_string_value(js), "-Infinity") == 0) {
        x = -INFINITY;
    } else {
        return expected(j, fr, "a number (or \"NaN\", \"Infinity\", \"-Infinity\")", js);
    }
    if (t->kind == AVROGEN_KIND_DOUBLE) {
        out->f64 = x;
        return true;
    }
    if (avrogen_value_set_double(out, x) != AVROGEN_OK)
        return fail(j, fr, j->mismatch, "%.17g is out of range for a float", x);
    return true;
}

static bool conv_record(jin *j, const frame *fr, const avrogen_node *t, json_t *js,
                        avrogen_value *out)
{
    if (!json_is_object(js))
        return expected(j, fr, "an object", js);
    size_t size;
    if (!avrogen_size_mul(t->n_fields, sizeof(avrogen_value), &size))
        return fail(j, fr, AVROGEN_E_LIMIT, "record too large");
    avrogen_value *f = avrogen_arena_alloc(j->a, size);
    if (f == NULL)
        return fail_alloc(j, fr, size);
    out->fields = f;
    size_t found = 0;
    for (size_t i = 0; i < t->n_fields; i++) {
        const avrogen_field *fd = &t->fields[i];
        frame sub = {fr, fd->name, strlen(fd->name), 0};
        json_t *m = json_object_get(js, fd->name);
        if (m != NULL) {
            found++;
            if (!conv(j, &sub, fd->type, m, &f[i]))
                return false;
            continue;
        }
        if (!j->defaults || fd->default_json == NULL)
            return fail(j, fr, j->mismatch, "missing field \"%s\"", fd->name);
        /* Java's and Python's avro fill a field left out of a record default
         * from that field's own default. */
        json_error_t e;
        json_t *d = json_loads(fd->default_json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
        if (d == NULL)
            return fail(j, &sub, j->mismatch, "default is not JSON: %s", e.text);
        bool ok = conv(j, &sub, fd->type, d, &f[i]);
        json_decref(d);
        if (!ok)
            return false;
    }
    if (found != json_object_size(js)) {
        const char *key;
        json_t *m;
        json_object_foreach(js, key, m)
        {
            if (avrogen_value_field(out, key) == NULL)
                return fail(j, fr, j->mismatch, "record %s has no field \"%s\"",
                            avrogen_node_name(t), key);
        }
    }
    return true;
}

static bool conv_array(jin *j, const frame *fr, const avrogen_node *t, json_t *js,
                       avrogen_value *out)
{
    if (!json_is_array(js))
        return expected(j, fr, "an array", js);
    size_t n = json_array_size(js);
    size_t size;
    if (!avrogen_size_mul(n, sizeof(avrogen_value), &size))
        return fail(j, fr, AVROGEN_E_LIMIT, "array too large");
    avrogen_value *items = avrogen_arena_alloc(j->a, size);
    if (items == NULL)
        return fail_alloc(j, fr, size);
    out->array.items = items;
    out->array.cap = n;
    for (size_t i = 0; i < n; i++) {
        frame sub = {fr, NULL, 0, i};
        if (!conv(j, &sub, t->items, json_array_get(js, i), &items[i]))
            return false;
        out->array.count++;
    }
    return true;
}

static bool conv_map(jin *j, const frame *fr, const avrogen_node *t, json_t *js, avrogen_value *out)
{
    if (!json_is_object(js))
        return expected(j, fr, "an object", js);
    size_t n = json_object_size(js);
    size_t size;
    if (!avrogen_size_mul(n, sizeof(avrogen_map_entry), &size))
        return fail(j, fr, AVROGEN_E_LIMIT, "map too large");
    avrogen_map_entry *e = avrogen_arena_alloc(j->a, size);
    if (e == NULL)
        return fail_alloc(j, fr, size);
    out->map.entries = e;
    out->map.cap = n;
    /* jansson keeps members in document order, which becomes the wire order. */
    for (void *it = json_object_iter(js); it != NULL; it = json_object_iter_next(js, it)) {
        const char *key = json_object_iter_key(it);
#if JANSSON_VERSION_HEX >= 0x020e00
        size_t klen = json_object_iter_key_len(it);
#else
        size_t klen = strlen(key);
#endif
        frame sub = {fr, key, klen, 0};
        avrogen_map_entry *me = &e[out->map.count];
        char *k = avrogen_arena_strndup(j->a, key, klen);
        if (k == NULL)
            return fail_alloc(j, &sub, klen + 1);
        me->key.ptr = k;
        me->key.len = klen;
        if (!conv(j, &sub, t->items, json_object_iter_value(it), &me->value))
            return false;
        out->map.count++;
    }
    return true;
}

static bool conv_union(jin *j, const frame *fr, const avrogen_node *t, json_t *js,
                       avrogen_value *out)
{
    size_t idx = t->n_branches;
    json_t *inner = js;
    const frame *at = fr;
    frame sub;
    if (t->n_branches == 0)
        return fail(j, fr, AVROGEN_E_SCHEMA, "union has no branches");
    if (j->defaults) {
        /* spec: a union field's default is a value of the union's first branch. */
        idx = 0;
    } else if (json_is_null(js)) {
        for (size_t i = 0; i < t->n_branches && idx == t->n_branches; i++)
            if (t->branches[i]->kind == AVROGEN_KIND_NULL)
                idx = i;
        if (idx == t->n_branches)
            return fail(j, fr, j->mismatch, "null is not a branch of this union");
    } else {
        if (!json_is_object(js) || json_object_size(js) != 1)
            return fail(j, fr, j->mismatch,
                        "expected null or an object of one member naming a union branch, got %s",
                        json_kind(js));
        void *it = json_object_iter(js);
        const char *key = json_object_iter_key(it);
        for (size_t i = 0; i < t->n_branches && idx == t->n_branches; i++)
            if (t->branches[i]->kind != AVROGEN_KIND_NULL &&
                strcmp(avrogen_node_name(t->branches[i]), key) == 0)
                idx = i;
        if (idx == t->n_branches)
            return fail(j, fr, j->mismatch, "\"%s\" is not a branch of this union", key);
        inner = json_object_iter_value(it);
        sub.parent = fr;
        sub.key = key;
        sub.key_len = strlen(key);
        sub.index = 0;
        at = &sub;
    }
    avrogen_value *b = avrogen_arena_alloc(j->a, sizeof *b);
    if (b == NULL)
        return fail_alloc(j, fr, sizeof *b);
    out->branch.index = idx;
    out->branch.value = b;
    return conv(j, at, t->branches[idx], inner, b);
}

static bool conv(jin *j, const frame *fr, const avrogen_node *t, json_t *js, avrogen_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = t;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return json_is_null(js) || expected(j, fr, "null", js);
    case AVROGEN_KIND_BOOLEAN:
        if (!json_is_boolean(js))
            return expected(j, fr, "a boolean", js);
        out->boolean = json_is_true(js);
        return true;
    case AVROGEN_KIND_INT: {
        if (!json_is_integer(js))
            return expected(j, fr, "an integer", js);
        json_int_t x = json_integer_value(js);
        if (x < INT32_MIN || x > INT32_MAX)
            return fail(j, fr, j->mismatch, "%" JSON_INTEGER_FORMAT " is out of range for an int",
                        x);
        out->i32 = (int32_t)x;
        return true;
    }
    case AVROGEN_KIND_LONG:
        if (!json_is_integer(js))
            return expected(j, fr, "an integer", js);
        out->i64 = (int64_t)json_integer_value(js);
        return true;
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
        return conv_number(j, fr, t, js, out);
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_FIXED:
        return conv_latin1(j, fr, t, js, out);
    case AVROGEN_KIND_STRING: {
        if (!json_is_string(js))
            return expected(j, fr, "a string", js);
        size_t len = json_string_length(js);
        char *s = avrogen_arena_strndup(j->a, json_string_value(js), len);
        if (s == NULL)
            return fail_alloc(j, fr, len + 1);
        out->str.ptr = s;
        out->str.len = len;
        return true;
    }
    case AVROGEN_KIND_ENUM:
        if (!json_is_string(js))
            return expected(j, fr, "an enum symbol", js);
        for (size_t i = 0; i < t->n_symbols; i++) {
            if (strcmp(t->symbols[i], json_string_value(js)) == 0) {
                out->enum_index = i;
                return true;
            }
        }
        return fail(j, fr, j->mismatch, "\"%s\" is not a symbol of enum %s", json_string_value(js),
                    avrogen_node_name(t));
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
    case AVROGEN_KIND_UNION:
        break;
    }
    /* The limits of binary decoding; they also stop defaults that refer to
     * themselves through a record field's default. */
    bool recursive = t->recursive;
    if (j->depth >= avrogen_nesting_limit(j->max_depth) ||
        (recursive && j->records >= j->max_depth))
        return fail(j, fr, AVROGEN_E_LIMIT, "%s nest deeper than %u",
                    recursive ? "records" : "values",
                    recursive ? j->max_depth : avrogen_nesting_limit(j->max_depth));
    j->depth++;
    j->records += recursive;
    bool ok = false;
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        ok = conv_record(j, fr, t, js, out);
        break;
    case AVROGEN_KIND_ARRAY:
        ok = conv_array(j, fr, t, js, out);
        break;
    case AVROGEN_KIND_MAP:
        ok = conv_map(j, fr, t, js, out);
        break;
    case AVROGEN_KIND_UNION:
        ok = conv_union(j, fr, t, js, out);
        break;
    default:
        break;
    }
    j->depth--;
    j->records -= recursive;
    return ok;
}

static avrogen_status parse(jin *j, const char *text, size_t len, const avrogen_node *type,
                            avrogen_value *out)
{
    json_error_t e;
    json_t *js =
            json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &e);
    if (js == NULL) {
        avrogen_status st = AVROGEN_E_INVALID;
#if JANSSON_VERSION_HEX >= 0x020b00
        if (json_error_code(&e) == json_error_out_of_memory)
            st = AVROGEN_E_NOMEM;
#endif
        if (st == AVROGEN_E_INVALID && j->mismatch == AVROGEN_E_SCHEMA)
            st = AVROGEN_E_SCHEMA;
        if (j->diag != NULL) {
            j->diag->line = e.line > 0 ? e.line : 0;
            j->diag->column = e.column > 0 ? e.column : 0;
            j->diag->offset = e.position > 0 ? (size_t)e.position : 0;
            j->diag->path[0] = '\0';
            snprintf(j->diag->msg, sizeof j->diag->msg, "%s", e.text);
        }
        return st;
    }
    conv(j, NULL, type, js, out);
    json_decref(js);
    return j->err;
}

avrogen_status avrogen_value_from_json_depth(const char *text, size_t len, const avrogen_node *type,
                                             unsigned max_depth, avrogen_value *out,
                                             avrogen_arena *a, avrogen_diag *diag)
{
    if (text == NULL || type == NULL || out == NULL || a == NULL || max_depth == 0)
        return AVROGEN_E_ARG;
    jin j = {.a = a, .diag = diag, .mismatch = AVROGEN_E_INVALID, .max_depth = max_depth};
    return parse(&j, text, len, type, out);
}

avrogen_status avrogen_value_from_json(const char *text, size_t len, const avrogen_node *type,
                                       avrogen_value *out, avrogen_arena *a, avrogen_diag *diag)
{
    return avrogen_value_from_json_depth(text, len, type, AVROGEN_DEFAULT_MAX_DEPTH, out, a, diag);
}

avrogen_status avrogen_value_from_default(const avrogen_field *f, avrogen_value *out,
                                          avrogen_arena *a, avrogen_diag *diag)
{
    if (f == NULL || f->default_json == NULL || out == NULL || a == NULL)
        return AVROGEN_E_ARG;
    jin j = {.a = a,
             .diag = diag,
             .defaults = true,
             .mismatch = AVROGEN_E_SCHEMA,
             .max_depth = AVROGEN_DEFAULT_MAX_DEPTH};
    return parse(&j, f->default_json, strlen(f->default_json), f->type, out);
}
