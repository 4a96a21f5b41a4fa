/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema parsing and validation (spec §Schema Declaration, §Names, §Logical
 * Types, field defaults) from jansson's JSON tree into an immutable model that
 * lives in an arena owned by the schema. The JSON tree is a temporary: nothing
 * in the model points into it. The canonical form and CRC-64-AVRO fingerprint
 * are computed once, at the end of a successful parse. This file does not
 * write schema JSON back out and knows nothing about data encodings.
 */
#include "avrogen/schema.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema_internal.h"

/* Deepest nesting of schemas (and of JSON inside a field default) we accept:
 * above jansson's own limit (JSON_PARSER_MAX_DEPTH, 2048 containers), which
 * therefore decides, so every schema the generator writes (it checks against
 * that limit) parses. It bounds our recursion at well under a kilobyte of
 * stack per level. */
#define MAX_DEPTH 4096u

#define PATH_CAP sizeof(((avrogen_diag *)NULL)->path)
#define MSG_CAP  sizeof(((avrogen_diag *)NULL)->msg)

/* A field default waiting for validation. Defaults are checked after the
 * whole schema is parsed, because one may hold a value of a record whose
 * fields are still being parsed (a recursive record). */
typedef struct pending_default {
    struct pending_default *next;
    const avrogen_field *field;
    json_t *value;    /* owned by the JSON tree, alive until the parse ends */
    const char *path; /* copy of the parser's path buffer at "default" */
    size_t path_len;  /* its logical length */
} pending_default;

/*
 * A record whose fields are being parsed. A name that refers back to one of
 * these closes a cycle through every record opened since (each is defined
 * inside the one before), so all of them are recursive. `below` speeds up that
 * marking: records from `below` + 1 up to this one are known to be marked,
 * so a later walk down the stack jumps over them and the marking stays linear.
 */
typedef struct open_record {
    avrogen_node *node;
    size_t below;
} open_record;

typedef struct parser {
    avrogen_schema *s;
    avrogen_diag *diag;
    avrogen_status err;  /* first failure; later ones are not reported */
    char path[PATH_CAP]; /* JSON path of the value being parsed */
    size_t path_len;     /* logical length: may exceed the buffer, which
                            then holds a prefix */
    unsigned depth;
    pending_default *defaults; /* in document order */
    pending_default **defaults_tail;
    open_record *open; /* records whose fields are being parsed, outermost first */
    size_t n_open;
    size_t open_cap;
} parser;

static const struct {
    const char *name;
    avrogen_kind kind;
} primitives[] = {
        {"null", AVROGEN_KIND_NULL},   {"boolean", AVROGEN_KIND_BOOLEAN},
        {"int", AVROGEN_KIND_INT},     {"long", AVROGEN_KIND_LONG},
        {"float", AVROGEN_KIND_FLOAT}, {"double", AVROGEN_KIND_DOUBLE},
        {"bytes", AVROGEN_KIND_BYTES}, {"string", AVROGEN_KIND_STRING},
};

/* ---- diagnostics ---- */

static void path_append(parser *p, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p->path_len < PATH_CAP - 1)
            p->path[p->path_len] = s[i];
        p->path_len++;
    }
    p->path[p->path_len < PATH_CAP - 1 ? p->path_len : PATH_CAP - 1] = '\0';
}

static void path_pop(parser *p, size_t saved)
{
    p->path_len = saved;
    p->path[saved < PATH_CAP - 1 ? saved : PATH_CAP - 1] = '\0';
}

/* Append "/key" with JSON Pointer escaping (RFC 6901: '~' is "~0", '/' is "~1");
 * returns the length to restore with path_pop. */
static size_t path_key(parser *p, const char *key)
{
    size_t saved = p->path_len;
    path_append(p, "/", 1);
    for (; *key != '\0'; key++) {
        if (*key == '~')
            path_append(p, "~0", 2);
        else if (*key == '/')
            path_append(p, "~1", 2);
        else
            path_append(p, key, 1);
    }
    return saved;
}

static size_t path_index(parser *p, size_t i)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "/%zu", i);
    size_t saved = p->path_len;
    path_append(p, buf, (size_t)n);
    return saved;
}

/*
 * Copy `s` (len bytes) into `buf` for quoting in a message: at most 40 bytes,
 * control bytes replaced by '?', "..." when cut, so a hostile name can neither
 * fill the message nor break it over lines.
 */
static const char *show(char buf[48], const char *s, size_t len)
{
    size_t n = len <= 40 ? len : 37;
    while (n < len && n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--; /* do not cut a UTF-8 sequence */
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    if (n < len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

/* Record the first failure, at the current path; returns `st`. */
static avrogen_status report_v(parser *p, avrogen_status st, const char *fmt, va_list ap)
{
    if (p->err != AVROGEN_OK)
        return st;
    p->err = st;
    if (p->diag == NULL)
        return st;
    memcpy(p->diag->path, p->path, PATH_CAP);
    if (p->path_len > PATH_CAP - 1)
        memcpy(p->diag->path + PATH_CAP - 4, "...", 4);
    vsnprintf(p->diag->msg, MSG_CAP, fmt, ap);
    return st;
}

static avrogen_status fail(parser *p, const char *fmt, ...) AVROGEN_PRINTF(2, 3);

/* Record a validation failure at the current path; always returns E_SCHEMA. */
static avrogen_status fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    avrogen_status st = report_v(p, AVROGEN_E_SCHEMA, fmt, ap);
    va_end(ap);
    return st;
}

/* Like fail() at path + "/key". */
static avrogen_status fail_at(parser *p, const char *key, const char *fmt, ...)
        AVROGEN_PRINTF(3, 4);

static avrogen_status fail_at(parser *p, const char *key, const char *fmt, ...)
{
    size_t saved = path_key(p, key);
    va_list ap;
    va_start(ap, fmt);
    avrogen_status st = report_v(p, AVROGEN_E_SCHEMA, fmt, ap);
    va_end(ap);
    path_pop(p, saved);
    return st;
}

static avrogen_status report(parser *p, avrogen_status st, const char *fmt, ...)
        AVROGEN_PRINTF(3, 4);

static avrogen_status report(parser *p, avrogen_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = report_v(p, st, fmt, ap);
    va_end(ap);
    return st;
}

static avrogen_status nomem(parser *p)
{
    return report(p, AVROGEN_E_NOMEM, "%s", avrogen_status_str(AVROGEN_E_NOMEM));
}

/* Propagate a strtab status: it only fails for memory. */
static avrogen_status table_status(parser *p, avrogen_status st)
{
    return st == AVROGEN_OK ? st : nomem(p);
}

/* ---- small helpers ---- */

static const char *json_kind(const json_t *j)
{
    switch (json_typeof(j)) {
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
    return "an unknown JSON value";
}

/* True when the JSON string `j` is exactly `lit` (an embedded NUL never matches). */
static bool str_is(const json_t *j, const char *lit)
{
    size_t len = strlen(lit);
    return json_string_length(j) == len && memcmp(json_string_value(j), lit, len) == 0;
}

static bool primitive_kind(const char *s, size_t len, avrogen_kind *kind)
{
    for (size_t i = 0; i < sizeof primitives / sizeof primitives[0]; i++) {
        if (strlen(primitives[i].name) == len && memcmp(primitives[i].name, s, len) == 0) {
            *kind = primitives[i].kind;
            return true;
        }
    }
    return false;
}

static bool is_name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* spec §Names: a name matches [A-Za-z_][A-Za-z0-9_]*. */
static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || !is_name_start(s[0]))
        return false;
    for (size_t i = 1; i < len; i++) {
        if (!is_name_char(s[i]))
            return false;
    }
    return true;
}

/* A dot-separated sequence of names: a fullname or a non-empty namespace. */
static bool valid_dotted(const char *s, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == '.') {
            if (!valid_name(s + start, i - start))
                return false;
            start = i + 1;
        }
    }
    return true;
}

static void *zalloc(parser *p, size_t count, size_t size)
{
    void *mem = avrogen_arena_calloc(&p->s->arena, count, size);
    if (mem == NULL)
        (void)nomem(p);
    return mem;
}

static const char *dup_str(parser *p, const char *s, size_t len)
{
    char *copy = avrogen_arena_strndup(&p->s->arena, s, len);
    if (copy == NULL)
        (void)nomem(p);
    return copy;
}

/* The fewest bytes a value of `kind` takes; fixed and records are known later. */
static size_t kind_min_size(avrogen_kind kind)
{
    switch (kind) {
    case AVROGEN_KIND_NULL:
        return 0;
    case AVROGEN_KIND_FLOAT:
        return 4;
    case AVROGEN_KIND_DOUBLE:
        return 8;
    case AVROGEN_KIND_RECORD:
        return SIZE_MAX; /* until its fields are known (see close_record) */
    case AVROGEN_KIND_FIXED:
        return 0; /* set with its size */
    default:
        /* booleans, varints, length prefixes, block counts, union indexes */
        return 1;
    }
}

static avrogen_node *new_node(parser *p, avrogen_kind kind)
{
    avrogen_node *n = zalloc(p, 1, sizeof *n);
    if (n != NULL) {
        n->kind = kind;
        n->enum_default = -1;
        n->min_size = kind_min_size(kind);
    }
    return n;
}

static size_t add_sat(size_t a, size_t b)
{
    return a <= SIZE_MAX - b ? a + b : SIZE_MAX;
}

/* Start the fields of record n: it is open until close_record. */
static avrogen_status open_record_push(parser *p, avrogen_node *n)
{
    if (p->n_open == p->open_cap) {
        size_t cap = p->open_cap != 0 ? p->open_cap * 2 : 16;
        open_record *grown = avrogen_realloc(&p->s->alloc, p->open, p->open_cap * sizeof *grown,
                                             cap * sizeof *grown);
        if (grown == NULL)
            return nomem(p);
        p->open = grown;
        p->open_cap = cap;
    }
    /* While open, a record's unused `size` holds its place on the stack. */
    n->size = p->n_open;
    p->open[p->n_open].node = n;
    p->open[p->n_open].below = p->n_open;
    p->n_open++;
    return AVROGEN_OK;
}

/*
 * Record n's fields are parsed: what its values take. A field that is n itself
 * or a record still open (directly, not through a union or an array) has no
 * finite value, and neither has n then: its min_size stays SIZE_MAX.
 */
static void close_record(parser *p, avrogen_node *n)
{
    size_t min = 0, records = 1;
    for (size_t i = 0; i < n->n_fields; i++) {
        const avrogen_node *t = n->fields[i].type;
        if (t == NULL) /* a field that failed to parse: the parse fails anyway */
            continue;
        min = add_sat(min, t->min_size);
        records = add_sat(records, t->zero_records);
    }
    n->min_size = min;
    n->zero_records = min == 0 ? records : 0;
    n->size = 0;
    p->n_open--;
}

/* A reference to the named type n: when n is an open record, a cycle closes. */
static void note_reference(parser *p, const avrogen_node *ref)
{
    if (ref->kind != AVROGEN_KIND_RECORD || ref->min_size != SIZE_MAX || ref->size >= p->n_open ||
        p->open[ref->size].node != ref)
        return;
    size_t j = ref->size, top = p->n_open - 1;
    /* Mark open[j..top], jumping over runs marked before. */
    size_t i = top + 1;
    while (i-- > j) {
        p->open[i].node->recursive = true;
        size_t next = p->open[i].below;
        p->open[i].below = j;
        if (next < i)
            i = next + 1;
    }
}

/* "ns.name" (or "name" when ns_len is 0), NUL-terminated, in the arena. */
static char *join_name(parser *p, const char *ns, size_t ns_len, const char *name, size_t len)
{
    size_t prefix = ns_len != 0 ? ns_len + 1 : 0;
    size_t total;
    char *full = NULL;
    if (avrogen_size_add(prefix, len, &total) && total < SIZE_MAX)
        full = avrogen_arena_alloc(&p->s->arena, total + 1);
    if (full == NULL) {
        (void)nomem(p);
        return NULL;
    }
    if (ns_len != 0) {
        memcpy(full, ns, ns_len);
        full[ns_len] = '.';
    }
    memcpy(full + prefix, name, len);
    full[total] = '\0';
    return full;
}

/* The optional string member `key` of `obj` (NULL when absent), or an error
 * when it is present but not a string. */
static avrogen_status get_opt_string(parser *p, const json_t *obj, const char *key,
                                     const json_t **out)
{
    const json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v != NULL && !json_is_string(v))
        return fail_at(p, key, "\"%s\" must be a string, not %s", key, json_kind(v));
    *out = v;
    return AVROGEN_OK;
}

/* Copy the optional "doc" string. A doc with an embedded NUL is cut there. */
static avrogen_status get_doc(parser *p, const json_t *obj, const char **out)
{
    const json_t *v;
    avrogen_status st = get_opt_string(p, obj, "doc", &v);
    if (st != AVROGEN_OK || v == NULL)
        return st;
    *out = dup_str(p, json_string_value(v), json_string_length(v));
    return *out != NULL ? AVROGEN_OK : p->err;
}

/*
 * The optional "aliases" array. Named types may use fullnames, resolved
 * relative to `space` when they have no dot (spec §Aliases); field aliases are
 * plain names.
 */
static avrogen_status get_aliases(parser *p, const json_t *obj, bool named, const char *space,
                                  const char *const **out, size_t *count)
{
    const json_t *arr = json_object_get(obj, "aliases");
    if (arr == NULL)
        return AVROGEN_OK;
    if (!json_is_array(arr))
        return fail_at(p, "aliases", "\"aliases\" must be an array of names, not %s",
                       json_kind(arr));
    size_t n = json_array_size(arr);
    const char **aliases = zalloc(p, n, sizeof *aliases);
    if (aliases == NULL)
        return p->err;
    size_t saved = path_key(p, "aliases");
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(arr, i);
        size_t at = path_index(p, i);
        char q[48];
        if (!json_is_string(a))
            return fail(p, "an alias must be a string, not %s", json_kind(a));
        const char *s = json_string_value(a);
        size_t len = json_string_length(a);
        if (named ? !valid_dotted(s, len) : !valid_name(s, len))
            return fail(p, "invalid alias '%s'", show(q, s, len));
        bool relative = named && space != NULL && memchr(s, '.', len) == NULL;
        aliases[i] = join_name(p, relative ? space : NULL, relative ? strlen(space) : 0, s, len);
        if (aliases[i] == NULL)
            return p->err;
        path_pop(p, at);
    }
    path_pop(p, saved);
    *out = aliases;
    *count = n;
    return AVROGEN_OK;
}

/*
 * The named type `ref` as seen from namespace `space` (NULL: the null
 * namespace). spec §Names: a name with a dot is a fullname; otherwise it is
 * qualified with the enclosing namespace. When that finds nothing we also try
 * the null namespace, as Java does: Java writes references to null-namespace
 * types from inside a namespace by their short name. This only turns a failed
 * lookup into a successful one; it never changes what a valid name means.
 */
static avrogen_status lookup(parser *p, const char *ref, size_t len, const char *space,
                             const avrogen_node **out)
{
    avrogen_strtab *names = &p->s->names;
    *out = NULL;
    if (space != NULL && memchr(ref, '.', len) == NULL) {
        char stack[256];
        size_t ns_len = strlen(space);
        size_t total = ns_len + 1 + len;
        char *key = total <= sizeof stack ? stack : avrogen_malloc(&p->s->alloc, total);
        if (key == NULL)
            return nomem(p);
        memcpy(key, space, ns_len);
        key[ns_len] = '.';
        memcpy(key + ns_len + 1, ref, len);
        *out = avrogen_strtab_get(names, key, total);
        if (key != stack)
            avrogen_free(&p->s->alloc, key, total);
    }
    if (*out == NULL)
        *out = avrogen_strtab_get(names, ref, len);
    return AVROGEN_OK;
}

/* ---- logical types (spec §Logical Types) ---- */

/*
 * floor(k * log10(2)) for k < 2^33, exactly, in integers. log10(2) is held as
 * a 96-bit binary fraction (limbs most significant first), so the product
 * falls short of the true value by less than k * 2^-96 < 2^-63. That cannot
 * move it across an integer: by the best-approximation property of continued
 * fractions, for k < 2^33 the distance from k * log10(2) to the nearest
 * integer is smallest at a convergent denominator, and there it is 1.2e-11
 * (k = 1923400330).
 */
static uint64_t floor_k_log10_2(uint64_t k)
{
    static const uint32_t log10_2[3] = {0x4d104d42, 0x7de7fbcc, 0x47c4acd6};
    const uint32_t a[2] = {(uint32_t)k, (uint32_t)(k >> 32)};
    const uint32_t b[3] = {log10_2[2], log10_2[1], log10_2[0]};
    uint32_t r[5] = {0};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            uint64_t t = (uint64_t)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r[i + 3] = (uint32_t)carry;
    }
    return ((uint64_t)r[4] << 32) | r[3];
}

/*
 * spec §Decimal: a fixed of `size` bytes holds at most
 * floor(log10(2^(8*size - 1) - 1)) digits. 2^k is never a power of ten for
 * k >= 1, so that equals floor((8*size - 1) * log10(2)).
 */
static bool decimal_fits_fixed(size_t size, int precision)
{
    if (size == 0)
        return false;
    if (size >= ((size_t)1 << 30))
        return true; /* over 2.5e9 digits: any int precision fits */
    return (uint64_t)precision <= floor_k_log10_2(8 * (uint64_t)size - 1);
}

/* spec §Decimal: precision a positive integer, scale an integer in [0, precision]. */
static bool decimal_params(const json_t *obj, int *precision, int *scale)
{
    const json_t *jp = json_object_get(obj, "precision");
    const json_t *js = json_object_get(obj, "scale");
    if (!json_is_integer(jp))
        return false;
    json_int_t prec = json_integer_value(jp);
    json_int_t sc = 0;
    if (js != NULL) {
        if (!json_is_integer(js))
            return false;
        sc = json_integer_value(js);
    }
    if (prec <= 0 || prec > INT_MAX || sc < 0 || sc > prec)
        return false;
    *precision = (int)prec;
    *scale = (int)sc;
    return true;
}

static const struct {
    const char *name;
    avrogen_logical logical;
    avrogen_kind kind;
} logicals[] = {
        {"date", AVROGEN_LOGICAL_DATE, AVROGEN_KIND_INT},
        {"time-millis", AVROGEN_LOGICAL_TIME_MILLIS, AVROGEN_KIND_INT},
        {"time-micros", AVROGEN_LOGICAL_TIME_MICROS, AVROGEN_KIND_LONG},
        {"timestamp-millis", AVROGEN_LOGICAL_TIMESTAMP_MILLIS, AVROGEN_KIND_LONG},
        {"timestamp-micros", AVROGEN_LOGICAL_TIMESTAMP_MICROS, AVROGEN_KIND_LONG},
        {"timestamp-nanos", AVROGEN_LOGICAL_TIMESTAMP_NANOS, AVROGEN_KIND_LONG},
        {"local-timestamp-millis", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS, AVROGEN_KIND_LONG},
        {"local-timestamp-micros", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS, AVROGEN_KIND_LONG},
        {"local-timestamp-nanos", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS, AVROGEN_KIND_LONG},
};

/*
 * Record "logicalType" on `n` and, when the annotation is valid for the
 * underlying type, set n->logical. spec §Logical Types: an unknown or invalid
 * logical type is ignored and the underlying type used; it is not an error.
 */
static avrogen_status apply_logical(parser *p, const json_t *obj, avrogen_node *n)
{
    const json_t *lt = json_object_get(obj, "logicalType");
    if (!json_is_string(lt))
        return AVROGEN_OK;
    const char *name = json_string_value(lt);
    size_t len = json_string_length(lt);
    if ((n->logical_name = dup_str(p, name, len)) == NULL)
        return p->err;
    if (strlen(name) != len)
        return AVROGEN_OK;

    if (strcmp(name, "decimal") == 0) {
        int precision, scale;
        if ((n->kind == AVROGEN_KIND_BYTES || n->kind == AVROGEN_KIND_FIXED) &&
            decimal_params(obj, &precision, &scale) &&
            (n->kind == AVROGEN_KIND_BYTES || decimal_fits_fixed(n->size, precision))) {
            n->logical = AVROGEN_LOGICAL_DECIMAL;
            n->precision = precision;
            n->scale = scale;
        }
    } else if (strcmp(name, "uuid") == 0) {
        /* Avro 1.12 also allows fixed(16). */
        if (n->kind == AVROGEN_KIND_STRING || (n->kind == AVROGEN_KIND_FIXED && n->size == 16))
            n->logical = AVROGEN_LOGICAL_UUID;
    } else if (strcmp(name, "duration") == 0) {
        if (n->kind == AVROGEN_KIND_FIXED && n->size == 12)
            n->logical = AVROGEN_LOGICAL_DURATION;
    } else {
        for (size_t i = 0; i < sizeof logicals / sizeof logicals[0]; i++) {
            if (strcmp(name, logicals[i].name) == 0) {
                if (n->kind == logicals[i].kind)
                    n->logical = logicals[i].logical;
                break;
            }
        }
    }
    return AVROGEN_OK;
}

/* ---- types ---- */

static avrogen_status parse_type(parser *p, const json_t *j, const char *space,
                                 const avrogen_node **out);

/*
 * Keep a field's default as compact JSON text and queue it for validation
 * once the whole schema is known.
 */
static avrogen_status record_default(parser *p, avrogen_field *f, json_t *def)
{
    const size_t flags = JSON_COMPACT | JSON_ENCODE_ANY;
    size_t len = json_dumpb(def, NULL, 0, flags);
    char *text = len != 0 ? avrogen_arena_alloc(&p->s->arena, len + 1) : NULL;
    if (text == NULL || json_dumpb(def, text, len, flags) != len)
        return nomem(p);
    text[len] = '\0';
    f->default_json = text;

    pending_default *pd = zalloc(p, 1, sizeof *pd);
    if (pd == NULL)
        return p->err;
    size_t saved = path_key(p, "default");
    pd->path = dup_str(p, p->path, strlen(p->path));
    pd->path_len = p->path_len;
    path_pop(p, saved);
    if (pd->path == NULL)
        return p->err;
    pd->field = f;
    pd->value = def;
    *p->defaults_tail = pd;
    p->defaults_tail = &pd->next;
    return AVROGEN_OK;
}

/* One field of `rec` (spec §Records); `seen` holds the names of the fields before it. */
static avrogen_status parse_field(parser *p, const json_t *fj, const avrogen_node *rec,
                                  avrogen_field *f, avrogen_strtab *seen)
{
    char q[48];
    if (!json_is_object(fj))
        return fail(p, "a field must be an object, not %s", json_kind(fj));

    const json_t *name = json_object_get(fj, "name");
    if (name == NULL)
        return fail(p, "field without \"name\"");
    if (!json_is_string(name))
        return fail_at(p, "name", "a field name must be a string, not %s", json_kind(name));
    const char *s = json_string_value(name);
    size_t len = json_string_length(name);
    if (!valid_name(s, len))
        return fail_at(p, "name", "invalid field name '%s'", show(q, s, len));
    if ((f->name = dup_str(p, s, len)) == NULL)
        return p->err;
    const void *dup;
    avrogen_status st = table_status(p, avrogen_strtab_put(seen, f->name, len, f, &dup));
    if (st != AVROGEN_OK)
        return st;
    if (dup != NULL)
        return fail_at(p, "name", "duplicate field name '%s'", f->name);

    const json_t *type = json_object_get(fj, "type");
    if (type == NULL)
        return fail(p, "field '%s' has no \"type\"", f->name);
    size_t saved = path_key(p, "type");
    /* A field's type is enclosed by the record: it inherits its namespace. */
    if ((st = parse_type(p, type, rec->namespace_, &f->type)) != AVROGEN_OK)
        return st;
    path_pop(p, saved);

    if ((st = get_doc(p, fj, &f->doc)) != AVROGEN_OK)
        return st;
    if ((st = get_aliases(p, fj, false, NULL, &f->aliases, &f->n_aliases)) != AVROGEN_OK)
        return st;

    const json_t *order;
    if ((st = get_opt_string(p, fj, "order", &order)) != AVROGEN_OK)
        return st;
    f->order = AVROGEN_ORDER_ASCENDING;
    if (order != NULL) {
        if (str_is(order, "descending"))
            f->order = AVROGEN_ORDER_DESCENDING;
        else if (str_is(order, "ignore"))
            f->order = AVROGEN_ORDER_IGNORE;
        else if (!str_is(order, "ascending"))
            return fail_at(p, "order", "invalid order '%s' (ascending, descending or ignore)",
                           show(q, json_string_value(order), json_string_length(order)));
    }

    json_t *def = json_object_get(fj, "default");
    return def != NULL ? record_default(p, f, def) : AVROGEN_OK;
}

static avrogen_status parse_fields(parser *p, const json_t *obj, avrogen_node *rec)
{
    const json_t *arr = json_object_get(obj, "fields");
    if (arr == NULL)
        return fail(p, "record '%s' has no \"fields\"", rec->fullname);
    if (!json_is_array(arr))
        return fail_at(p, "fields", "\"fields\" must be an array, not %s", json_kind(arr));

    size_t n = json_array_size(arr);
    avrogen_field *fields = zalloc(p, n, sizeof *fields);
    if (fields == NULL)
        return p->err;
    rec->fields = fields;
    rec->n_fields = n;

    avrogen_strtab seen;
    avrogen_strtab_init(&seen, &p->s->alloc);
    avrogen_status st = AVROGEN_OK;
    size_t saved = path_key(p, "fields");
    for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
        size_t at = path_index(p, i);
        fields[i].index = i;
        st = parse_field(p, json_array_get(arr, i), rec, &fields[i], &seen);
        path_pop(p, at);
    }
    path_pop(p, saved);
    avrogen_strtab_fini(&seen);
    return st;
}

/* One enum symbol into *out; `seen` maps the symbols before it to their slots. */
static avrogen_status parse_symbol(parser *p, const json_t *sj, const char **out,
                                   avrogen_strtab *seen)
{
    char q[48];
    if (!json_is_string(sj))
        return fail(p, "an enum symbol must be a string, not %s", json_kind(sj));
    const char *s = json_string_value(sj);
    size_t len = json_string_length(sj);
    /* spec §Enums: symbols follow the rules for names. */
    if (!valid_name(s, len))
        return fail(p, "invalid enum symbol '%s'", show(q, s, len));
    if ((*out = dup_str(p, s, len)) == NULL)
        return p->err;
    const void *dup;
    avrogen_status st = table_status(p, avrogen_strtab_put(seen, *out, len, out, &dup));
    if (st == AVROGEN_OK && dup != NULL)
        st = fail(p, "duplicate enum symbol '%s'", *out);
    return st;
}

static avrogen_status parse_enum(parser *p, const json_t *obj, avrogen_node *e)
{
    const json_t *arr = json_object_get(obj, "symbols");
    if (arr == NULL)
        return fail(p, "enum '%s' has no \"symbols\"", e->fullname);
    if (!json_is_array(arr))
        return fail_at(p, "symbols", "\"symbols\" must be an array, not %s", json_kind(arr));

    size_t n = json_array_size(arr);
    const char **symbols = zalloc(p, n, sizeof *symbols);
    if (symbols == NULL)
        return p->err;
    e->symbols = symbols;
    e->n_symbols = n;

    avrogen_strtab seen;
    avrogen_strtab_init(&seen, &p->s->alloc);
    avrogen_status st = AVROGEN_OK;
    size_t saved = path_key(p, "symbols");
    for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
        size_t at = path_index(p, i);
        st = parse_symbol(p, json_array_get(arr, i), &symbols[i], &seen);
        path_pop(p, at);
    }
    path_pop(p, saved);

    /* spec §Enums: the default must be one of the symbols. */
    const json_t *def = json_object_get(obj, "default");
    if (st == AVROGEN_OK && def != NULL) {
        char q[48];
        const void *slot = NULL;
        if (json_is_string(def))
            slot = avrogen_strtab_get(&seen, json_string_value(def), json_string_length(def));
        if (!json_is_string(def))
            st = fail_at(p, "default", "an enum default must be a string, not %s", json_kind(def));
        else if (slot == NULL)
            st = fail_at(p, "default", "enum default '%s' is not one of the symbols",
                         show(q, json_string_value(def), json_string_length(def)));
        else
            e->enum_default = (long)((const char *const *)slot - symbols);
    }
    avrogen_strtab_fini(&seen);
    return st;
}

static avrogen_status parse_fixed(parser *p, const json_t *obj, avrogen_node *f)
{
    const json_t *size = json_object_get(obj, "size");
    if (size == NULL)
        return fail(p, "fixed '%s' has no \"size\"", f->fullname);
    if (!json_is_integer(size) || json_integer_value(size) < 0)
        return fail_at(p, "size", "fixed size must be a non-negative integer");
    if ((uint64_t)json_integer_value(size) > SIZE_MAX)
        return fail_at(p, "size", "fixed size %lld does not fit in memory",
                       (long long)json_integer_value(size));
    f->size = (size_t)json_integer_value(size);
    f->min_size = f->size;
    return apply_logical(p, obj, f);
}

/* A record, enum or fixed definition (spec §Names for the fullname rules). */
static avrogen_status parse_named(parser *p, const json_t *obj, avrogen_kind kind,
                                  const char *space, const avrogen_node **out)
{
    char q[48];
    const json_t *jname = json_object_get(obj, "name");
    if (jname == NULL)
        return fail(p, "a %s needs a \"name\"", avrogen_kind_name(kind));
    if (!json_is_string(jname))
        return fail_at(p, "name", "\"name\" must be a string, not %s", json_kind(jname));
    const char *name = json_string_value(jname);
    size_t name_len = json_string_length(jname);

    /* "namespace": null is no namespace given, as Java (1.8.2) and Python
     * (1.11) read it: the enclosing one applies, at the top the null one. */
    const json_t *jspace = NULL;
    avrogen_status st = AVROGEN_OK;
    if (!json_is_null(json_object_get(obj, "namespace")) &&
        (st = get_opt_string(p, obj, "namespace", &jspace)) != AVROGEN_OK)
        return st;

    /* spec §Names: a name with a dot is a fullname and any namespace is ignored;
     * otherwise "namespace" (the empty string being the null namespace) or the
     * enclosing namespace qualifies it. */
    const char *ns = NULL;
    size_t ns_len = 0;
    const char *dot = NULL; /* the last one */
    for (size_t i = 0; i < name_len; i++) {
        if (name[i] == '.')
            dot = name + i;
    }
    if (dot != NULL) {
        if (!valid_dotted(name, name_len))
            return fail_at(p, "name", "invalid name '%s'", show(q, name, name_len));
        ns = name;
        ns_len = (size_t)(dot - name);
    } else {
        if (!valid_name(name, name_len))
            return fail_at(p, "name", "invalid name '%s'", show(q, name, name_len));
        if (jspace != NULL) {
            ns = json_string_value(jspace);
            ns_len = json_string_length(jspace);
            if (ns_len != 0 && !valid_dotted(ns, ns_len))
                return fail_at(p, "namespace", "invalid namespace '%s'", show(q, ns, ns_len));
        } else if (space != NULL) {
            ns = space;
            ns_len = strlen(space);
        }
    }
    const char *shortname = dot != NULL ? dot + 1 : name;
    size_t short_len = name_len - (size_t)(shortname - name);
    avrogen_kind prim;
    /* spec §Names: primitive type names may not be defined in any namespace. */
    if (primitive_kind(shortname, short_len, &prim))
        return fail_at(p, "name", "'%s' is a primitive type name and cannot be redefined",
                       avrogen_kind_name(prim));

    avrogen_node *n = new_node(p, kind);
    char *full = n != NULL ? join_name(p, ns, ns_len, shortname, short_len) : NULL;
    if (full == NULL)
        return p->err;
    size_t full_len = strlen(full);
    n->fullname = full;
    n->name = full + full_len - short_len;
    if (ns_len != 0 && (n->namespace_ = dup_str(p, ns, ns_len)) == NULL)
        return p->err;

    /* Register before the body so a record can refer to itself (spec: a name
     * must be defined before it is used, and a record's name precedes its
     * fields). */
    const void *prev;
    if ((st = table_status(p, avrogen_strtab_put(&p->s->names, full, full_len, n, &prev))) !=
        AVROGEN_OK)
        return st;
    if (prev != NULL)
        return fail_at(p, "name", "duplicate definition of type '%s'", show(q, full, full_len));

    if ((st = get_doc(p, obj, &n->doc)) != AVROGEN_OK)
        return st;
    if ((st = get_aliases(p, obj, true, n->namespace_, &n->aliases, &n->n_aliases)) != AVROGEN_OK)
        return st;

    *out = n;
    if (kind == AVROGEN_KIND_FIXED)
        return parse_fixed(p, obj, n); /* its logical type depends on the size */
    if ((st = apply_logical(p, obj, n)) != AVROGEN_OK)
        return st;
    if (kind != AVROGEN_KIND_RECORD)
        return parse_enum(p, obj, n);
    if ((st = open_record_push(p, n)) != AVROGEN_OK)
        return st;
    st = parse_fields(p, obj, n);
    if (st == AVROGEN_OK)
        close_record(p, n);
    return st;
}

/*
 * spec §Unions: at most one branch per unnamed type; named branches are told
 * apart by fullname. `kinds` has a bit per unnamed kind seen so far, `named`
 * the fullnames.
 */
static avrogen_status distinct_branch(parser *p, const avrogen_node *b, unsigned *kinds,
                                      avrogen_strtab *named)
{
    if (avrogen_node_is_named(b)) {
        const void *dup;
        avrogen_status st = table_status(
                p, avrogen_strtab_put(named, b->fullname, strlen(b->fullname), b, &dup));
        if (st == AVROGEN_OK && dup != NULL)
            st = fail(p, "union contains type '%s' twice", b->fullname);
        return st;
    }
    if (*kinds & (1u << b->kind))
        return fail(p, "union contains more than one '%s' branch", avrogen_kind_name(b->kind));
    *kinds |= 1u << b->kind;
    return AVROGEN_OK;
}

static avrogen_status parse_union(parser *p, const json_t *arr, const char *space,
                                  const avrogen_node **out)
{
    size_t n = json_array_size(arr);
    avrogen_node *u = new_node(p, AVROGEN_KIND_UNION);
    const avrogen_node **branches = u != NULL ? zalloc(p, n, sizeof *branches) : NULL;
    if (branches == NULL)
        return p->err;
    u->branches = branches;
    u->n_branches = n;

    unsigned kinds_seen = 0;
    avrogen_strtab named;
    avrogen_strtab_init(&named, &p->s->alloc);
    avrogen_status st = AVROGEN_OK;
    for (size_t i = 0; i < n && st == AVROGEN_OK; i++) {
        const json_t *bj = json_array_get(arr, i);
        size_t at = path_index(p, i);
        if (json_is_array(bj))
            st = fail(p, "a union may not immediately contain another union");
        else
            st = parse_type(p, bj, space, &branches[i]);
        if (st == AVROGEN_OK)
            st = distinct_branch(p, branches[i], &kinds_seen, &named);
        path_pop(p, at);
    }
    avrogen_strtab_fini(&named);
    if (st == AVROGEN_OK)
        *out = u;
    return st;
}

static avrogen_status parse_object(parser *p, const json_t *obj, const char *space,
                                   const avrogen_node **out)
{
    char q[48];
    const json_t *jtype = json_object_get(obj, "type");
    if (jtype == NULL)
        return fail(p, "a schema object needs a \"type\"");
    if (!json_is_string(jtype))
        return fail_at(p, "type", "\"type\" must be a string naming a type, not %s",
                       json_kind(jtype));
    const char *type = json_string_value(jtype);
    size_t type_len = json_string_length(jtype);

    avrogen_kind kind;
    if (primitive_kind(type, type_len, &kind)) {
        avrogen_node *n = new_node(p, kind);
        if (n == NULL)
            return p->err;
        *out = n;
        return apply_logical(p, obj, n);
    }
    /* An "error" (a protocol's) is a record, in Java's and Python's parsers alike;
     * its canonical form says "record", as Java's SchemaNormalization writes it. */
    if (str_is(jtype, "record") || str_is(jtype, "error"))
        return parse_named(p, obj, AVROGEN_KIND_RECORD, space, out);
    if (str_is(jtype, "enum"))
        return parse_named(p, obj, AVROGEN_KIND_ENUM, space, out);
    if (str_is(jtype, "fixed"))
        return parse_named(p, obj, AVROGEN_KIND_FIXED, space, out);

    bool is_array = str_is(jtype, "array");
    if (is_array || str_is(jtype, "map")) {
        const char *key = is_array ? "items" : "values";
        const json_t *child = json_object_get(obj, key);
        if (child == NULL)
            return fail(p, "%s schema without \"%s\"", type, key);
        avrogen_node *n = new_node(p, is_array ? AVROGEN_KIND_ARRAY : AVROGEN_KIND_MAP);
        if (n == NULL)
            return p->err;
        avrogen_status st = apply_logical(p, obj, n);
        if (st != AVROGEN_OK)
            return st;
        size_t saved = path_key(p, key);
        st = parse_type(p, child, space, &n->items);
        if (st != AVROGEN_OK)
            return st;
        path_pop(p, saved);
        *out = n;
        return AVROGEN_OK;
    }

    /* {"type": "Name"} naming a defined type: Java reads it as a reference (the
     * spec is silent); any other attribute is ignored. */
    const avrogen_node *ref;
    avrogen_status st = lookup(p, type, type_len, space, &ref);
    if (st != AVROGEN_OK)
        return st;
    if (ref == NULL)
        return fail_at(p, "type", "unknown type '%s'", show(q, type, type_len));
    note_reference(p, ref);
    *out = ref;
    return AVROGEN_OK;
}

static avrogen_status parse_type(parser *p, const json_t *j, const char *space,
                                 const avrogen_node **out)
{
    if (p->depth >= MAX_DEPTH)
        return fail(p, "schema nested deeper than %u levels", MAX_DEPTH);
    p->depth++;
    avrogen_status st;
    switch (json_typeof(j)) {
    case JSON_STRING: {
        const char *name = json_string_value(j);
        size_t len = json_string_length(j);
        avrogen_kind kind;
        if (primitive_kind(name, len, &kind)) {
            avrogen_node *n = new_node(p, kind);
            *out = n;
            st = n != NULL ? AVROGEN_OK : p->err;
            break;
        }
        char q[48];
        st = lookup(p, name, len, space, out);
        if (st == AVROGEN_OK && *out == NULL)
            st = fail(p, "unknown type '%s'", show(q, name, len));
        else if (st == AVROGEN_OK)
            note_reference(p, *out);
        break;
    }
    case JSON_ARRAY:
        st = parse_union(p, j, space, out);
        break;
    case JSON_OBJECT:
        st = parse_object(p, j, space, out);
        break;
    default:
        st = fail(p, "a schema must be a type name, an object or an array, not %s", json_kind(j));
        break;
    }
    p->depth--;
    return st;
}

/* ---- field defaults (spec §Complex Types, Records: the "default" table) ---- */

static avrogen_status check_default(parser *p, const avrogen_field *f, const avrogen_node *t,
                                    json_t *v, unsigned depth);

/* What a default of type `k` looks like in JSON (spec §Records, the table). */
static const char *expected_json(avrogen_kind k)
{
    switch (k) {
    case AVROGEN_KIND_NULL:
        return "null";
    case AVROGEN_KIND_BOOLEAN:
        return "a boolean";
    case AVROGEN_KIND_INT:
    case AVROGEN_KIND_LONG:
        return "an integer";
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
        return "a number";
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_MAP:
        return "an object";
    case AVROGEN_KIND_ARRAY:
        return "an array";
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_STRING:
    case AVROGEN_KIND_ENUM:
    case AVROGEN_KIND_FIXED:
    case AVROGEN_KIND_UNION:
        break;
    }
    return "a string";
}

static avrogen_status bad_default(parser *p, const avrogen_field *f, const avrogen_node *t,
                                  const json_t *v)
{
    return fail(p, "invalid default for field '%s': expected %s for %s, got %s", f->name,
                expected_json(t->kind), avrogen_kind_name(t->kind), json_kind(v));
}

/* spec §Records: bytes and fixed defaults are strings whose code points
 * 0..255 stand for the byte values. Returns the byte count, or -1. */
static long long latin1_length(const json_t *v)
{
    const unsigned char *s = (const unsigned char *)json_string_value(v);
    size_t len = json_string_length(v);
    long long count = 0;
    for (size_t i = 0; i < len; count++) {
        /* jansson has validated the UTF-8: U+0000..U+007F is one byte and
         * U+0080..U+00FF is 0xC2 or 0xC3 followed by one continuation byte. */
        if (s[i] < 0x80)
            i++;
        else if (s[i] == 0xc2 || s[i] == 0xc3)
            i += 2;
        else
            return -1;
    }
    return count;
}

static avrogen_status check_default(parser *p, const avrogen_field *f, const avrogen_node *t,
                                    json_t *v, unsigned depth)
{
    if (depth >= MAX_DEPTH)
        return fail(p, "default of field '%s' nested deeper than %u levels", f->name, MAX_DEPTH);
    char q[48];
    switch (t->kind) {
    case AVROGEN_KIND_NULL:
        return json_is_null(v) ? AVROGEN_OK : bad_default(p, f, t, v);
    case AVROGEN_KIND_BOOLEAN:
        return json_is_boolean(v) ? AVROGEN_OK : bad_default(p, f, t, v);
    case AVROGEN_KIND_INT:
        if (!json_is_integer(v))
            return bad_default(p, f, t, v);
        if (json_integer_value(v) < INT32_MIN || json_integer_value(v) > INT32_MAX)
            return fail(p, "invalid default for field '%s': %lld is out of range for int", f->name,
                        (long long)json_integer_value(v));
        return AVROGEN_OK;
    case AVROGEN_KIND_LONG:
        return json_is_integer(v) ? AVROGEN_OK : bad_default(p, f, t, v);
    case AVROGEN_KIND_FLOAT:
    case AVROGEN_KIND_DOUBLE:
        return json_is_number(v) ? AVROGEN_OK : bad_default(p, f, t, v);
    case AVROGEN_KIND_STRING:
        return json_is_string(v) ? AVROGEN_OK : bad_default(p, f, t, v);
    case AVROGEN_KIND_BYTES:
    case AVROGEN_KIND_FIXED: {
        if (!json_is_string(v))
            return bad_default(p, f, t, v);
        long long n = latin1_length(v);
        if (n < 0)
            return fail(p,
                        "invalid default for field '%s': bytes are written as code points "
                        "U+0000..U+00FF",
                        f->name);
        if (t->kind == AVROGEN_KIND_FIXED && (unsigned long long)n != t->size)
            return fail(p, "invalid default for field '%s': %lld bytes for fixed '%s' of size %zu",
                        f->name, n, t->fullname, t->size);
        return AVROGEN_OK;
    }
    case AVROGEN_KIND_ENUM:
        if (!json_is_string(v))
            return bad_default(p, f, t, v);
        for (size_t i = 0; i < t->n_symbols; i++) {
            if (str_is(v, t->symbols[i]))
                return AVROGEN_OK;
        }
        return fail(p, "invalid default for field '%s': '%s' is not a symbol of enum '%s'", f->name,
                    show(q, json_string_value(v), json_string_length(v)), t->fullname);
    case AVROGEN_KIND_ARRAY: {
        if (!json_is_array(v))
            return bad_default(p, f, t, v);
        for (size_t i = 0; i < json_array_size(v); i++) {
            size_t at = path_index(p, i);
            avrogen_status st = check_default(p, f, t->items, json_array_get(v, i), depth + 1);
            if (st != AVROGEN_OK)
                return st;
            path_pop(p, at);
        }
        return AVROGEN_OK;
    }
    case AVROGEN_KIND_MAP: {
        if (!json_is_object(v))
            return bad_default(p, f, t, v);
        const char *key;
        json_t *val;
        json_object_foreach(v, key, val)
        {
            size_t at = path_key(p, key);
            avrogen_status st = check_default(p, f, t->items, val, depth + 1);
            if (st != AVROGEN_OK)
                return st;
            path_pop(p, at);
        }
        return AVROGEN_OK;
    }
    case AVROGEN_KIND_RECORD: {
        if (!json_is_object(v))
            return bad_default(p, f, t, v);
        /* Members that name no field are ignored, as Java does. */
        for (size_t i = 0; i < t->n_fields; i++) {
            const avrogen_field *sub = &t->fields[i];
            json_t *val = json_object_get(v, sub->name);
            if (val == NULL) {
                if (sub->default_json != NULL)
                    continue;
                return fail(p,
                            "invalid default for field '%s': no value for field '%s' of "
                            "record '%s', which has no default",
                            f->name, sub->name, t->fullname);
            }
            size_t at = path_key(p, sub->name);
            avrogen_status st = check_default(p, f, sub->type, val, depth + 1);
            if (st != AVROGEN_OK)
                return st;
            path_pop(p, at);
        }
        return AVROGEN_OK;
    }
    case AVROGEN_KIND_UNION:
        /* spec §Unions (1.11): a union's default matches its first branch.
         * Avro 1.12 accepts any branch (AVRO-3649); the 1.11 rule is the
         * stricter, so what passes here is valid under both. */
        if (t->n_branches == 0)
            return fail(p, "invalid default for field '%s': an empty union has no values", f->name);
        return check_default(p, f, t->branches[0], v, depth + 1);
    }
    return bad_default(p, f, t, v);
}

static avrogen_status check_defaults(parser *p)
{
    for (const pending_default *pd = p->defaults; pd != NULL; pd = pd->next) {
        size_t n = strlen(pd->path);
        memcpy(p->path, pd->path, n + 1);
        p->path_len = pd->path_len;
        avrogen_status st = check_default(p, pd->field, pd->field->type, pd->value, 0);
        if (st != AVROGEN_OK)
            return st;
    }
    path_pop(p, 0);
    return AVROGEN_OK;
}

/* ---- public API ---- */

static void diag_clear(avrogen_diag *diag)
{
    if (diag != NULL)
        memset(diag, 0, sizeof *diag);
}

avrogen_status avrogen_schema_parse(const char *json, size_t len, const avrogen_alloc *alloc,
                                    avrogen_schema **out, avrogen_diag *diag)
{
    diag_clear(diag);
    if (out == NULL || (json == NULL && len != 0)) {
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg, "%s", avrogen_status_str(AVROGEN_E_ARG));
        return AVROGEN_E_ARG;
    }
    *out = NULL;

    /* JSON_DECODE_ANY: "int" alone is a schema. JSON_ALLOW_NUL: "\u0000" is a
     * valid bytes default. Duplicate keys would make a schema ambiguous. */
    json_error_t jerr;
    json_t *root = json_loadb(json != NULL ? json : "", len,
                              JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        avrogen_status st = json_error_code(&jerr) == json_error_out_of_memory ? AVROGEN_E_NOMEM
                                                                               : AVROGEN_E_SCHEMA;
        if (diag != NULL) {
            diag->line = jerr.line > 0 ? jerr.line : 0;
            diag->column = jerr.column > 0 ? jerr.column : 0;
            /* jansson counts the bytes read; we give the 0-based offset of
             * the last one, the byte that line and column point at. */
            diag->offset = jerr.position > 0 ? (size_t)jerr.position - 1 : 0;
            snprintf(diag->msg, sizeof diag->msg, "%s", jerr.text);
        }
        return st;
    }

    avrogen_schema *s = avrogen_malloc(alloc, sizeof *s);
    if (s == NULL) {
        json_decref(root);
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg, "%s", avrogen_status_str(AVROGEN_E_NOMEM));
        return AVROGEN_E_NOMEM;
    }
    memset(s, 0, sizeof *s);
    s->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    avrogen_arena_init(&s->arena, &s->alloc);
    avrogen_strtab_init(&s->names, &s->alloc);

    parser p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.diag = diag;
    p.defaults_tail = &p.defaults;

    avrogen_status st = parse_type(&p, root, NULL, &s->root);
    if (st == AVROGEN_OK)
        st = check_defaults(&p);
    avrogen_free(&s->alloc, p.open, p.open_cap * sizeof *p.open);
    if (st == AVROGEN_OK && avrogen_schema_build_canonical(s) != AVROGEN_OK)
        st = nomem(&p);
    if (st == AVROGEN_OK)
        s->fingerprint = avrogen_crc64_avro(s->canonical, s->canonical_len);
    json_decref(root);
    if (st != AVROGEN_OK) {
        avrogen_schema_free(s);
        return st;
    }
    *out = s;
    return AVROGEN_OK;
}

/* Why the file at `path` is not one to read a schema from, or NULL: a
 * directory, a device or a socket is refused before a byte is read (a read of
 * /dev/zero would never end), a regular file past the bound by its size. */
static const char *unreadable_kind(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "is a directory";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "is a device, not a schema file";
    if (S_ISSOCK(st->st_mode))
        return "is a socket, not a schema file";
    return NULL;
}

avrogen_status avrogen_schema_parse_file(const char *path, const avrogen_alloc *alloc,
                                         avrogen_schema **out, avrogen_diag *diag)
{
    diag_clear(diag);
    if (out == NULL || path == NULL) {
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg, "%s", avrogen_status_str(AVROGEN_E_ARG));
        return AVROGEN_E_ARG;
    }
    *out = NULL;

    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg, "cannot open '%s': %s", path, strerror(errno));
        return AVROGEN_E_IO;
    }
    struct stat st_file;
    const char *why = fstat(fd, &st_file) != 0 ? "cannot be examined" : unreadable_kind(&st_file);
    if (why == NULL && S_ISREG(st_file.st_mode) && st_file.st_size > AVROGEN_SCHEMA_FILE_MAX) {
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg,
                     "'%s' is %lld bytes; a schema file is read up to %d bytes (16 MiB)", path,
                     (long long)st_file.st_size, AVROGEN_SCHEMA_FILE_MAX);
        close(fd);
        return AVROGEN_E_LIMIT;
    }
    if (why != NULL) {
        if (diag != NULL)
            snprintf(diag->msg, sizeof diag->msg, "cannot read '%s': it %s", path, why);
        close(fd);
        return AVROGEN_E_IO;
    }
    /* Regular files and pipes: read to the end, never past the bound (a pipe
     * has no size to check first). */
    char *buf = NULL;
    size_t len = 0, cap = 0;
    avrogen_status st = AVROGEN_OK;
    int err = 0;
    for (;;) {
        if (len == cap) {
            if (cap > AVROGEN_SCHEMA_FILE_MAX) {
                st = AVROGEN_E_LIMIT;
                break;
            }
            size_t grown = cap == 0 ? 4096 : cap * 2;
            if (grown > (size_t)AVROGEN_SCHEMA_FILE_MAX + 1)
                grown = (size_t)AVROGEN_SCHEMA_FILE_MAX + 1;
            char *bigger = avrogen_realloc(alloc, buf, cap, grown);
            if (bigger == NULL) {
                st = AVROGEN_E_NOMEM;
                break;
            }
            buf = bigger;
            cap = grown;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = errno;
            st = AVROGEN_E_IO;
            break;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    if (st == AVROGEN_OK && len > AVROGEN_SCHEMA_FILE_MAX)
        st = AVROGEN_E_LIMIT;
    if (st == AVROGEN_OK) {
        st = avrogen_schema_parse(buf, len, alloc, out, diag);
    } else if (diag != NULL) {
        if (st == AVROGEN_E_IO)
            snprintf(diag->msg, sizeof diag->msg, "cannot read '%s': %s", path, strerror(err));
        else if (st == AVROGEN_E_LIMIT)
            snprintf(diag->msg, sizeof diag->msg,
                     "'%s' holds more than %d bytes; a schema file is read up to 16 MiB", path,
                     AVROGEN_SCHEMA_FILE_MAX);
        else
            snprintf(diag->msg, sizeof diag->msg, "out of memory reading '%s'", path);
    }
    if (buf != NULL)
        avrogen_free(alloc, buf, cap);
    return st;
}

void avrogen_schema_free(avrogen_schema *s)
{
    if (s == NULL)
        return;
    avrogen_alloc alloc = s->alloc;
    avrogen_strtab_fini(&s->names);
    avrogen_arena_fini(&s->arena);
    avrogen_free(&alloc, s, sizeof *s);
}

const avrogen_node *avrogen_schema_root(const avrogen_schema *s)
{
    return s->root;
}

const char *avrogen_schema_canonical(const avrogen_schema *s)
{
    return s->canonical;
}

uint64_t avrogen_schema_fingerprint64(const avrogen_schema *s)
{
    return s->fingerprint;
}

const avrogen_node *avrogen_schema_find(const avrogen_schema *s, const char *fullname)
{
    return avrogen_strtab_get(&s->names, fullname, strlen(fullname));
}

const char *avrogen_kind_name(avrogen_kind k)
{
    switch (k) {
    case AVROGEN_KIND_NULL:
        return "null";
    case AVROGEN_KIND_BOOLEAN:
        return "boolean";
    case AVROGEN_KIND_INT:
        return "int";
    case AVROGEN_KIND_LONG:
        return "long";
    case AVROGEN_KIND_FLOAT:
        return "float";
    case AVROGEN_KIND_DOUBLE:
        return "double";
    case AVROGEN_KIND_BYTES:
        return "bytes";
    case AVROGEN_KIND_STRING:
        return "string";
    case AVROGEN_KIND_RECORD:
        return "record";
    case AVROGEN_KIND_ENUM:
        return "enum";
    case AVROGEN_KIND_ARRAY:
        return "array";
    case AVROGEN_KIND_MAP:
        return "map";
    case AVROGEN_KIND_UNION:
        return "union";
    case AVROGEN_KIND_FIXED:
        return "fixed";
    }
    return "invalid";
}

long avrogen_union_find(const avrogen_node *u, avrogen_kind kind, const char *name)
{
    if (u == NULL || u->kind != AVROGEN_KIND_UNION)
        return -1;
    for (size_t i = 0; i < u->n_branches; i++) {
        const avrogen_node *b = u->branches[i];
        if (b->kind != kind)
            continue;
        if (name == NULL || !avrogen_node_is_named(b) || strcmp(b->fullname, name) == 0)
            return (long)i;
    }
    return -1;
}
