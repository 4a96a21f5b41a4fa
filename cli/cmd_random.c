/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avrogen random: random valid data for a schema, as a container file, binary
 * datums or JSON lines. Every value is built with the generic value API
 * (value.h) and encoded by it, so whatever comes out is valid by construction:
 * strings are UTF-8, enum symbols and union branches are picked uniformly
 * (every one reachable), strings, bytes, arrays and maps have at most
 * --max-length characters, bytes or items, and logical types stay in their
 * ranges (dates and timestamps between 1900 and 2099, times within a day,
 * decimals within their precision, uuids in the RFC 4122 text form).
 *
 * Recursive schemas end: past a few levels of nesting, arrays and maps are
 * empty and unions take the branch that ends soonest (its height, worked out
 * once per named type). A schema with no finite datum (a record that always
 * contains itself) is an error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/random.h>
#include <time.h>

#include "avrogen/gencode.h"
#include "avrogen/ocf.h"
#include "avrogen/schema.h"
#include "avrogen/value.h"

#include "cli.h"

/* Containers and unions nested past this are made as small as the schema allows. */
#define SOFT_DEPTH 5u
/* "No finite datum": larger than any real height. */
#define INFINITE UINT32_MAX

typedef struct gen {
    uint64_t rng;
    size_t max_len;
    avrogen_arena *arena;
    /* Every record of the schema with its height, in an open-addressing table by address. */
    const avrogen_node **rec;
    uint32_t *h;
    size_t cap; /* a power of two */
    size_t n;
    const avrogen_node **order; /* the records, children before parents */
    char why[200];              /* why make failed, when no option can change it; or "" */
} gen;

static uint64_t next(gen *g)
{
    return cli_splitmix64(&g->rng);
}

/* Uniform in [0, n), n > 0 (the modulo bias is below 2^-40 for the n used here). */
static uint64_t below(gen *g, uint64_t n)
{
    return next(g) % n;
}

static int64_t between(gen *g, int64_t lo, int64_t hi)
{
    return lo + (int64_t)below(g, (uint64_t)(hi - lo) + 1);
}

/* ---- heights --------------------------------------------------------------------------- */

/* The table slot of record n: where it is, or where it would go. */
static size_t slot(const gen *g, const avrogen_node *n)
{
    size_t i = (size_t)(((uintptr_t)n >> 4) * UINT64_C(0x9e3779b97f4a7c15)) & (g->cap - 1);
    while (g->rec[i] != NULL && g->rec[i] != n)
        i = (i + 1) & (g->cap - 1);
    return i;
}

static bool grow(gen *g)
{
    size_t cap = g->cap != 0 ? g->cap * 2 : 64;
    const avrogen_node **rec = calloc(cap, sizeof *rec);
    uint32_t *h = calloc(cap, sizeof *h);
    const avrogen_node **order = realloc(g->order, cap / 2 * sizeof *order);
    if (rec == NULL || h == NULL || order == NULL) {
        free(rec);
        free(h);
        if (order != NULL)
            g->order = order;
        return false;
    }
    g->order = order;
    const avrogen_node **old = g->rec;
    uint32_t *old_h = g->h;
    size_t old_cap = g->cap;
    g->rec = rec;
    g->h = h;
    g->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i] != NULL) {
            size_t j = slot(g, old[i]);
            g->rec[j] = old[i];
            g->h[j] = old_h[i];
        }
    }
    free(old);
    free(old_h);
    return true;
}

/* Add every record under n to the table, children before parents in g->order. */
static bool collect(gen *g, const avrogen_node *n)
{
    switch (n->kind) {
    case AVROGEN_KIND_RECORD: {
        if (g->cap != 0 && g->rec[slot(g, n)] == n)
            return true;
        if (2 * (g->n + 1) > g->cap && !grow(g))
            return false;
        size_t i = slot(g, n);
        g->rec[i] = n;
        g->h[i] = INFINITE;
        for (size_t f = 0; f < n->n_fields; f++)
            if (!collect(g, n->fields[f].type))
                return false;
        g->order[g->n++] = n;
        return true;
    }
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return collect(g, n->items);
    case AVROGEN_KIND_UNION:
        for (size_t b = 0; b < n->n_branches; b++)
            if (!collect(g, n->branches[b]))
                return false;
        return true;
    default:
        return true;
    }
}

/*
 * How deep the smallest datum of n nests, from the record heights known so
 * far: 0 for leaves and for arrays and maps (which may be empty), a union's
 * least branch plus one, a record's deepest field plus one; INFINITE when
 * every datum contains itself.
 */
static uint32_t node_height(const gen *g, const avrogen_node *n)
{
    switch (n->kind) {
    case AVROGEN_KIND_RECORD:
        return g->h[slot(g, n)];
    case AVROGEN_KIND_UNION: {
        uint32_t best = INFINITE;
        for (size_t i = 0; i < n->n_branches; i++) {
            uint32_t b = node_height(g, n->branches[i]);
            if (b < best)
                best = b;
        }
        return best == INFINITE ? INFINITE : best + 1;
    }
    default:
        return 0;
    }
}

/*
 * Every record's height, to a fixed point: all start unbounded and only come
 * down, children before parents, so a schema without cycles settles in one
 * round and each cycle costs a round more. False when out of memory.
 */
static bool heights(gen *g, const avrogen_node *root)
{
    if (!collect(g, root))
        return false;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 0; k < g->n; k++) {
            const avrogen_node *r = g->order[k];
            uint32_t h = 0;
            for (size_t i = 0; i < r->n_fields && h != INFINITE; i++) {
                uint32_t f = node_height(g, r->fields[i].type);
                h = f == INFINITE ? INFINITE : (f > h ? f : h);
            }
            if (h != INFINITE)
                h++;
            size_t i = slot(g, r);
            if (h < g->h[i]) {
                g->h[i] = h;
                changed = true;
            }
        }
    }
    return true;
}

/* ---- values ---------------------------------------------------------------------------- */

/* An integer: mostly small or uniform over the type, sometimes an extreme. */
static int64_t some_integer(gen *g, int64_t lo, int64_t hi)
{
    switch (below(g, 8)) {
    case 0:
        return lo;
    case 1:
        return hi;
    case 2:
    case 3:
        return between(g, -100 > lo ? -100 : lo, 100 < hi ? 100 : hi);
    default:
        if (lo == INT64_MIN && hi == INT64_MAX)
            return (int64_t)next(g);
        return between(g, lo, hi);
    }
}

static double some_double(gen *g)
{
    switch (below(g, 16)) {
    case 0:
        return 0.0;
    case 1:
        return -0.0;
    case 2: {
        static const double special[] = {1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 5e-324,
                                         1.7976931348623157e308};
        return special[below(g, sizeof special / sizeof *special)];
    }
    case 3:
    case 4:
    case 5:
        return (double)between(g, -1000000, 1000000) / 100.0;
    default: {
        /* Any finite double: random bits, the exponent redrawn when all ones. */
        uint64_t bits;
        do
            bits = next(g);
        while (((bits >> 52) & 0x7ff) == 0x7ff);
        double x;
        memcpy(&x, &bits, sizeof x);
        return x;
    }
    }
}

static float some_float(gen *g)
{
    if (below(g, 4) != 0) {
        double x = some_double(g);
        /* Within float's range, or one of the specials as they are. */
        if (x != x || x == 1.0 / 0.0 || x == -1.0 / 0.0 || (x > -3.4e38 && x < 3.4e38))
            return (float)x;
    }
    uint32_t bits;
    do
        bits = (uint32_t)next(g);
    while (((bits >> 23) & 0xff) == 0xff);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Append one UTF-8 code point from a mix of ASCII, the JSON escapes, Latin, CJK and emoji. */
static size_t some_char(gen *g, char *out)
{
    static const char *const other[] = {"\"",
                                        "\\",
                                        "\n",
                                        "\t",
                                        "\x01",
                                        "\x7f",
                                        "\xc3\xa9",
                                        "\xc3\xbf",
                                        "\xe6\x97\xa5",
                                        "\xe2\x82\xac",
                                        "\xf0\x9f\x98\x80",
                                        "\xef\xbf\xbd"};
    if (below(g, 4) != 0) {
        out[0] = (char)between(g, 0x20, 0x7e);
        return 1;
    }
    const char *c = other[below(g, sizeof other / sizeof *other)];
    size_t n = strlen(c);
    memcpy(out, c, n);
    return n;
}

/* RFC 4122 version 4, lowercase: what Python's uuid and Java's UUID print. */
static void some_uuid(gen *g, char out[37])
{
    uint8_t b[16];
    uint64_t hi = next(g), lo = next(g);
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(hi >> (8 * i));
        b[8 + i] = (uint8_t)(lo >> (8 * i));
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

/*
 * A decimal's unscaled value with at most `digits` decimal digits, as the
 * `len` bytes of a big-endian two's-complement integer (spec §Decimal).
 */
static void some_decimal(gen *g, uint8_t *out, size_t len, int digits)
{
    memset(out, 0, len);
    int n = digits > 0 ? (int)between(g, 1, digits) : 0;
    for (int k = 0; k < n; k++) {
        /* out = out * 10 + digit, in base 256 */
        unsigned carry = (unsigned)below(g, 10);
        for (size_t i = len; i-- > 0;) {
            unsigned v = out[i] * 10u + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    if (below(g, 2) != 0) {
        /* Negate: invert and add one. */
        unsigned carry = 1;
        for (size_t i = len; i-- > 0;) {
            unsigned v = (uint8_t)~out[i] + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
    }
}

/* Digits a signed integer of `len` bytes holds: floor((8 len - 1) log10 2). */
static int fixed_digits(size_t len)
{
    return len == 0 ? 0 : (int)(((double)len * 8 - 1) * 0.30102999566398120);
}

static avrogen_status make(gen *g, avrogen_value *v, const avrogen_node *t, unsigned depth);

static avrogen_status make_bytes(gen *g, avrogen_value *v, const avrogen_node *t)
{
    uint8_t buf[512];
    size_t len;
    if (t->logical == AVROGEN_LOGICAL_DECIMAL) {
        /* Room for the precision's digits and the sign. */
        len = t->kind == AVROGEN_KIND_FIXED ? t->size : (size_t)(t->precision / 2.4 + 2);
        int digits = t->precision;
        if (t->kind == AVROGEN_KIND_FIXED && fixed_digits(len) < digits)
            digits = fixed_digits(len);
        if (len > sizeof buf) {
            snprintf(g->why, sizeof g->why,
                     "decimal%s%s takes %zu bytes, and random makes decimals of at most %zu "
                     "bytes (precision %d): the schema asks more than random can make",
                     avrogen_node_is_named(t) ? " " : "", avrogen_node_is_named(t) ? t->name : "",
                     len, sizeof buf, fixed_digits(sizeof buf));
            return AVROGEN_E_LIMIT;
        }
        some_decimal(g, buf, len, digits);
        /* Bytes take the shortest form: drop sign-only leading bytes. */
        size_t skip = 0;
        while (t->kind == AVROGEN_KIND_BYTES && skip + 1 < len &&
               ((buf[skip] == 0 && buf[skip + 1] < 0x80) ||
                (buf[skip] == 0xff && buf[skip + 1] >= 0x80)))
            skip++;
        uint8_t *p = avrogen_arena_alloc(g->arena, len - skip);
        if (p == NULL)
            return AVROGEN_E_LIMIT;
        memcpy(p, buf + skip, len - skip);
        v->bytes = (avrogen_bytes){p, len - skip};
        return AVROGEN_OK;
    }
    if (t->kind == AVROGEN_KIND_FIXED) {
        len = t->size;
    } else {
        len = (size_t)below(g, g->max_len + 1);
    }
    uint8_t *p = avrogen_arena_alloc(g->arena, len);
    if (p == NULL)
        return AVROGEN_E_LIMIT;
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)next(g);
    if (t->logical == AVROGEN_LOGICAL_UUID && len == 16) {
        p[6] = (uint8_t)((p[6] & 0x0f) | 0x40);
        p[8] = (uint8_t)((p[8] & 0x3f) | 0x80);
    }
    v->bytes = (avrogen_bytes){p, len};
    return AVROGEN_OK;
}

/* A string of at most `max` code points (a uuid for the uuid logical type), NUL-terminated. */
static avrogen_str some_string(gen *g, size_t max, bool uuid)
{
    size_t n = uuid ? 0 : (size_t)below(g, max + 1);
    char *s = avrogen_arena_alloc(g->arena, uuid ? 37 : 4 * n + 1);
    if (s == NULL)
        return (avrogen_str){NULL, 0};
    size_t len = 0;
    if (uuid) {
        some_uuid(g, s);
        len = 36;
    }
    for (size_t i = 0; i < n; i++)
        len += some_char(g, s + len);
    s[len] = '\0';
    return (avrogen_str){s, len};
}

/* Days and milliseconds of 1900-01-01 and 2099-12-31 23:59:59.999 from the epoch. */
#define DAY_MIN    INT64_C(-25567)
#define DAY_MAX    INT64_C(47481)
#define MILLIS_MIN (DAY_MIN * 86400000)
#define MILLIS_MAX ((DAY_MAX + 1) * 86400000 - 1)

static avrogen_status make_long(gen *g, avrogen_value *v, const avrogen_node *t)
{
    int64_t x;
    switch (t->logical) {
    case AVROGEN_LOGICAL_TIME_MICROS:
        x = between(g, 0, INT64_C(86400000000) - 1);
        break;
    case AVROGEN_LOGICAL_TIMESTAMP_MILLIS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS:
        x = between(g, MILLIS_MIN, MILLIS_MAX);
        break;
    case AVROGEN_LOGICAL_TIMESTAMP_MICROS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS:
        x = between(g, MILLIS_MIN * 1000, MILLIS_MAX * 1000 + 999);
        break;
    case AVROGEN_LOGICAL_TIMESTAMP_NANOS:
    case AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS:
        x = between(g, MILLIS_MIN * 1000000, MILLIS_MAX * 1000000 + 999999);
        break;
    default:
        x = some_integer(g, INT64_MIN, INT64_MAX);
    }
    return avrogen_value_set_long(v, x);
}

static avrogen_status make_int(gen *g, avrogen_value *v, const avrogen_node *t)
{
    int64_t x;
    if (t->logical == AVROGEN_LOGICAL_DATE)
        x = between(g, DAY_MIN, DAY_MAX);
    else if (t->logical == AVROGEN_LOGICAL_TIME_MILLIS)
        x = between(g, 0, 86400000 - 1);
    else
        x = some_integer(g, INT32_MIN, INT32_MAX);
    return avrogen_value_set_long(v, x);
}

/* Items of an array or map: up to max_len near the top, fewer as they nest (no blow-up). */
static size_t some_count(gen *g, unsigned depth)
{
    return (size_t)below(g, (g->max_len >> (depth / 2)) + 1);
}

/*
 * v := a random datum of t. Values are put together here rather than through
 * avrogen_value_init, whose zero values would recurse forever into a record
 * whose first union branch is itself.
 */
static avrogen_status make(gen *g, avrogen_value *v, const avrogen_node *t, unsigned depth)
{
    bool small = depth >= SOFT_DEPTH;
    avrogen_status st = AVROGEN_OK;
    memset(v, 0, sizeof *v);
    v->type = t;
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return AVROGEN_OK;
    case AVROGEN_KIND_BOOLEAN:
        v->boolean = (next(g) & 1) != 0;
        return AVROGEN_OK;
    case AVROGEN_KIND_INT:
        return make_int(g, v, t);
    case AVROGEN_KIND_LONG:
        return make_long(g, v, t);
    case AVROGEN_KIND_FLOAT:
        v->f32 = some_float(g);
        return AVROGEN_OK;
    case AVROGEN_KIND_DOUBLE:
        v->f64 = some_double(g);
        return AVROGEN_OK;
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_FIXED:
        return make_bytes(g, v, t);
    case AVROGEN_KIND_STRING:
        v->str = some_string(g, g->max_len, t->logical == AVROGEN_LOGICAL_UUID);
        return v->str.ptr != NULL ? AVROGEN_OK : AVROGEN_E_LIMIT;
    case AVROGEN_KIND_ENUM:
        v->enum_index = (size_t)below(g, t->n_symbols);
        return AVROGEN_OK;
    case AVROGEN_KIND_ARRAY: {
        size_t n = small || node_height(g, t->items) == INFINITE ? 0 : some_count(g, depth);
        v->array.items = avrogen_arena_calloc(g->arena, n, sizeof *v->array.items);
        if (v->array.items == NULL)
            return AVROGEN_E_LIMIT;
        v->array.count = v->array.cap = n;
        for (size_t i = 0; i < n && st == AVROGEN_OK; i++)
            st = make(g, &v->array.items[i], t->items, depth + 1);
        return st;
    }
    case AVROGEN_KIND_MAP: {
        size_t n = small || node_height(g, t->items) == INFINITE ? 0 : some_count(g, depth);
        avrogen_map_entry *e = avrogen_arena_calloc(g->arena, n, sizeof *e);
        if (e == NULL)
            return AVROGEN_E_LIMIT;
        v->map.entries = e;
        v->map.cap = n;
        for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
            avrogen_str key = some_string(g, g->max_len < 16 ? g->max_len : 16, false);
            if (key.ptr == NULL)
                return AVROGEN_E_LIMIT;
            /* Keys are distinct: a repeated one is dropped, and the map comes out smaller. */
            bool seen = false;
            for (size_t k = 0; k < v->map.count && !seen; k++)
                seen = e[k].key.len == key.len && memcmp(e[k].key.ptr, key.ptr, key.len) == 0;
            if (seen)
                continue;
            e[v->map.count].key = key;
            st = make(g, &e[v->map.count++].value, t->items, depth + 1);
        }
        return st;
    }
    case AVROGEN_KIND_UNION: {
        size_t pick = (size_t)below(g, t->n_branches);
        if (small || node_height(g, t->branches[pick]) == INFINITE) {
            /* The branch that ends soonest. */
            uint32_t best = INFINITE;
            for (size_t i = 0; i < t->n_branches; i++) {
                uint32_t h = node_height(g, t->branches[i]);
                if (h < best) {
                    best = h;
                    pick = i;
                }
            }
        }
        v->branch.index = pick;
        v->branch.value = avrogen_arena_alloc(g->arena, sizeof *v->branch.value);
        if (v->branch.value == NULL)
            return AVROGEN_E_LIMIT;
        return make(g, v->branch.value, t->branches[pick], depth + 1);
    }
    case AVROGEN_KIND_RECORD:
        v->fields = avrogen_arena_calloc(g->arena, t->n_fields, sizeof *v->fields);
        if (v->fields == NULL)
            return AVROGEN_E_LIMIT;
        for (size_t i = 0; i < t->n_fields && st == AVROGEN_OK; i++)
            st = make(g, &v->fields[i], t->fields[i].type, depth + 1);
        return st;
    }
    return AVROGEN_E_ARG;
}

/* ---- the command ----------------------------------------------------------------------- */

static avrogen_status write_file(void *ctx, const void *data, size_t len)
{
    return len == 0 || fwrite(data, 1, len, ctx) == len ? AVROGEN_OK : AVROGEN_E_IO;
}

enum format { CONTAINER, DATUMS, JSON };

int cmd_random(int argc, char **argv)
{
    const char *schema_arg = NULL, *count_arg = NULL, *seed_arg = NULL, *codec = "null",
               *format_arg = "container", *max_arg = "10";
    const cli_opt opts[] = {
            {"--schema", NULL, &schema_arg, NULL},
            {"--count", NULL, &count_arg, NULL},
            {"--seed", NULL, &seed_arg, NULL},
            {"--codec", NULL, &codec, NULL},
            {"--format", NULL, &format_arg, NULL},
            {"--max-length", NULL, &max_arg, NULL},
            {NULL, NULL, NULL, NULL},
    };
    char *ops[1];
    int n = 0, rc = cli_parse_args(argc, argv, opts, ops, 1, &n);
    if (rc != 0)
        return rc;
    if (schema_arg == NULL || count_arg == NULL || n != 1)
        return cli_usage("usage: avrogen random --schema S --count N [--seed K] [--codec C] "
                         "[--format container|datums|json] [--max-length N] OUT");
    enum format format = strcmp(format_arg, "container") == 0 ? CONTAINER
                         : strcmp(format_arg, "datums") == 0  ? DATUMS
                         : strcmp(format_arg, "json") == 0    ? JSON
                                                              : (enum format) - 1;
    if ((int)format < 0)
        return cli_usage("random: --format is container, datums or json, not '%s'", format_arg);
    if (!avrogen_ocf_codec_supported(codec))
        return cli_usage("random: unknown codec '%s' (null, deflate, snappy, zstandard, xz, "
                         "bzip2)",
                         codec);
    if (format != CONTAINER && strcmp(codec, "null") != 0)
        return cli_usage("random: --codec applies to --format container only");
    uint64_t count, max_len, seed;
    if ((rc = cli_parse_u64("random", "--count", "a number of records", count_arg, &count)) != 0 ||
        (rc = cli_parse_u64("random", "--max-length", "a number of elements", max_arg, &max_len)) !=
                0)
        return rc;
    if (max_len > 1u << 20)
        return cli_usage("random: --max-length is at most %u", 1u << 20);
    if (seed_arg != NULL) {
        if ((rc = cli_parse_u64("random", "--seed", "a whole number", seed_arg, &seed)) != 0)
            return rc;
    } else if (getentropy(&seed, sizeof seed) != 0) {
        seed = (uint64_t)time(NULL);
    }

    size_t schema_len;
    char *schema_text;
    const char *label;
    if ((rc = cli_schema_text(schema_arg, &schema_text, &schema_len, &label)) != 0)
        return rc;
    avrogen_schema *schema;
    avrogen_diag d;
    memset(&d, 0, sizeof d);
    if (avrogen_schema_parse(schema_text, schema_len, NULL, &schema, &d) != AVROGEN_OK) {
        rc = cli_error("%s: %s%s%s", label, d.path, d.path[0] != '\0' ? ": " : "", d.msg);
        free(schema_text);
        return rc;
    }
    const avrogen_node *root = avrogen_schema_root(schema);
    avrogen_arena arena;
    avrogen_arena_init(&arena, NULL);
    avrogen_arena_set_budget(&arena, CLI_ARENA_BUDGET);
    gen g = {.rng = seed, .max_len = (size_t)max_len, .arena = &arena};
    cli_out out = {0};
    avrogen_ocf_writer *w = NULL;
    if (!heights(&g, root)) {
        rc = cli_error("out of memory");
        goto out_free;
    }
    if (node_height(&g, root) == INFINITE) {
        rc = cli_error("%s: the schema has no finite datum (a record that always contains "
                       "itself)",
                       label);
        goto out_free;
    }
    if (root->min_size > CLI_ARENA_BUDGET) {
        /* A fixed of 2^31-1 bytes, say: no option makes a record smaller than that. */
        rc = cli_error("%s: the smallest record of this schema takes %zu bytes, more than the "
                       "%zu MiB random makes a record in: the schema asks too much",
                       label, root->min_size, CLI_ARENA_BUDGET >> 20);
        goto out_free;
    }
    if (format == DATUMS && count > 1 && cli_datum_is_empty(root)) {
        rc = cli_usage("random: datums of this schema take zero bytes: a datum file holds one "
                       "(--count 1, or --format container)");
        goto out_free;
    }
    if ((rc = cli_out_open(&out, ops[0])) != 0)
        goto out_free;
    avrogen_ocf_writer_options wo = {.codec = codec, .threads = cli_jobs()};
    if (format == CONTAINER &&
        avrogen_ocf_writer_open_file(out.f, schema_text, schema_len, &wo, &w, &d) != AVROGEN_OK) {
        rc = cli_error("%s: %s", ops[0], d.msg);
        cli_out_abort(&out);
        goto out_free;
    }
    avrogen_writer buf;
    avrogen_writer_init_growable(&buf, NULL);
    avrogen_json_sink sink = {write_file, out.f, 0};
    cli_progress prog;
    cli_progress_init(&prog, "made", strcmp(ops[0], "-") == 0);
    prog.total_records = count;
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        avrogen_value v;
        avrogen_arena_reset(&arena);
        avrogen_status st = make(&g, &v, root, 0);
        if (st != AVROGEN_OK) {
            /* Only strings, bytes, arrays and maps grow with --max-length. */
            if (g.why[0] != '\0')
                rc = cli_error("record %" PRIu64 ": %s", i, g.why);
            else if (max_len != 0)
                rc = cli_error("record %" PRIu64 ": %s: larger than the %zu MiB random makes a "
                               "record in (lower --max-length)",
                               i, avrogen_status_str(st), CLI_ARENA_BUDGET >> 20);
            else
                rc = cli_error("record %" PRIu64 ": %s: larger than the %zu MiB random makes a "
                               "record in, with --max-length 0: the schema asks too much",
                               i, avrogen_status_str(st), CLI_ARENA_BUDGET >> 20);
            break;
        }
        if (format == CONTAINER) {
            st = avrogen_value_encode(avrogen_ocf_writer_datum_begin(w), &v);
            avrogen_status ended = avrogen_ocf_writer_datum_end(w);
            if ((st != AVROGEN_OK ? st : ended) != AVROGEN_OK) {
                memset(&d, 0, sizeof d);
                avrogen_ocf_writer_error(w, &d);
                rc = cli_error("%s: %s", ops[0], d.msg[0] != '\0' ? d.msg : "write failed");
            }
        } else {
            if (format == DATUMS)
                st = avrogen_value_encode(&buf, &v);
            else if (avrogen_value_to_json_sink(&buf, &v, 0, &sink) == AVROGEN_OK)
                avrogen_write_raw(&buf, "\n", 1);
            if (buf.err == AVROGEN_OK && avrogen_writer_len(&buf) >= 65536) {
                st = write_file(out.f, avrogen_writer_data(&buf), avrogen_writer_len(&buf));
                avrogen_writer_reset(&buf);
            }
            if (buf.err != AVROGEN_OK || st != AVROGEN_OK)
                rc = cli_error("%s: %s", ops[0], strerror(errno));
        }
        cli_progress_tick(&prog, i + 1);
    }
    cli_progress_done(&prog);
    if (rc == 0 && format != CONTAINER &&
        write_file(out.f, avrogen_writer_data(&buf), avrogen_writer_len(&buf)) != AVROGEN_OK)
        rc = cli_error("%s: %s", ops[0], strerror(errno));
    avrogen_writer_fini(&buf);
    if (w != NULL) {
        memset(&d, 0, sizeof d);
        if (avrogen_ocf_writer_close(w, &d) != AVROGEN_OK && rc == 0)
            rc = cli_error("%s: %s", ops[0], d.msg);
    }
    if (rc == 0)
        rc = cli_out_commit(&out);
    else
        cli_out_abort(&out);
out_free:
    free(g.rec);
    free(g.h);
    free(g.order);
    avrogen_arena_fini(&arena);
    avrogen_schema_free(schema);
    free(schema_text);
    return rc;
}
