/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema compatibility (compat.h): the resolution rules of resolve.c, taken
 * from resolve_internal.h so the two cannot drift, applied to the whole pair
 * of schemas and reporting every incompatibility instead of stopping at the
 * first, with the verdicts and kinds of Java's SchemaCompatibility and
 * Python's avro.compatibility.
 *
 * The walk runs in one of two voices. Reporting, it records what it finds.
 * Quiet, it only answers yes or no: a reader union read by a non-union writer
 * is compatible when the branch the resolver would pick reads the writer
 * completely, and the reasons that branch cannot are not the writer's
 * problem (Java and Python report only the missing branch). Each named pair is
 * walked at most once per voice; a pair met again while it is being walked
 * counts as compatible, which is what ends recursive types (Java and Python
 * do the same). Not here: re-validating defaults, logical types (ignored, as
 * the reference checkers ignore them).
 */
#include "avrogen/compat.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/arena.h"

#include "resolve_internal.h"

/*
 * How deep the walk may nest: past anything the schema parser takes as JSON
 * (jansson's 2048 levels), so that every schema the generator writes is
 * checked. A chain of named types, each referring to the next by name, is not
 * bounded by JSON nesting, and every link costs a few stack frames (under
 * 1 KiB a level even in a sanitizer build: 4096 levels stay within 4 MiB of
 * an 8 MiB stack); a hostile one gets AVROGEN_E_LIMIT instead of an overflow.
 */
#define COMPAT_MAX_DEPTH 4096u

/* A walk may list this many missing enum symbols in a message before "and N more". */
#define MAX_LISTED_SYMBOLS 16u

struct avrogen_compat_report {
    avrogen_arena arena; /* items, paths and messages */
    avrogen_alloc alloc;
    avrogen_incompatibility *items;
    size_t count;
    size_t cap;
};

typedef enum pair_state { PAIR_NEW, PAIR_BUSY, PAIR_DONE } pair_state;

/* What is known about one (reader, writer) pair of named types, per voice. */
typedef struct pair {
    const avrogen_node *rd;
    const avrogen_node *w;
    unsigned char quiet_state; /* pair_state */
    unsigned char report_state;
    bool quiet_ok;
    bool report_ok;
} pair;

/* A JSON pointer under construction; "" is the root. */
typedef struct path {
    char *buf; /* NUL-terminated once anything was pushed; NULL before */
    size_t len;
    size_t cap;
} path;

typedef struct walker {
    avrogen_compat_report *rep;
    avrogen_arena scratch; /* pairs, the pair table, paths, per-walk tables */
    pair **slots;          /* open addressing over pointer pairs; n_slots a power of 2 */
    size_t n_slots;
    size_t n_pairs;
    avrogen_status st;
    unsigned depth;
    unsigned quiet; /* > 0: answer only, record nothing */
    path rpath;
    path wpath;
    const avrogen_field *rfield; /* the innermost record field on each path */
    const avrogen_field *wfield;
} walker;

/* "record a.B", "int": how messages name a type. */
#define DESC(n)                                                        \
    avrogen_kind_name((n)->kind), avrogen_node_is_named(n) ? " " : "", \
            avrogen_node_is_named(n) ? (n)->fullname : ""

static void nomem(walker *k)
{
    if (k->st == AVROGEN_OK)
        k->st = AVROGEN_E_NOMEM;
}

/* ---- paths ----------------------------------------------------------------- */

/* Append `seg` (and `index`) to p; returns the length to pop back to. */
static size_t push(walker *k, path *p, const char *seg, size_t index, bool with_index)
{
    size_t old = p->len;
    char tmp[48]; /* the longest segment is "/fields/" and 20 digits */
    int n = with_index ? snprintf(tmp, sizeof tmp, "%s%zu", seg, index)
                       : snprintf(tmp, sizeof tmp, "%s", seg);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        nomem(k); /* cannot happen with our segments; stop rather than mis-report */
        return old;
    }
    size_t need = old + (size_t)n + 1; /* old is bounded by depth * sizeof tmp */
    if (need > p->cap) {
        size_t cap = p->cap < 64 ? 64 : p->cap * 2;
        while (cap < need)
            cap *= 2;
        char *buf = avrogen_arena_alloc(&k->scratch, cap);
        if (buf == NULL) {
            nomem(k);
            return old;
        }
        if (old != 0)
            memcpy(buf, p->buf, old);
        p->buf = buf;
        p->cap = cap;
    }
    memcpy(p->buf + old, tmp, (size_t)n + 1);
    p->len = old + (size_t)n;
    return old;
}

static void pop(path *p, size_t old)
{
    p->len = old;
    if (p->buf != NULL)
        p->buf[old] = '\0';
}

/* The report's copy of path p followed by `suffix`; the root alone is "/". */
static const char *path_copy(walker *k, const path *p, const char *suffix)
{
    size_t slen = strlen(suffix);
    if (p->len == 0 && slen == 0)
        return "/";
    char *s = avrogen_arena_alloc(&k->rep->arena, p->len + slen + 1);
    if (s == NULL) {
        nomem(k);
        return NULL;
    }
    if (p->len != 0)
        memcpy(s, p->buf, p->len);
    memcpy(s + p->len, suffix, slen + 1);
    return s;
}

/* ---- the report ------------------------------------------------------------ */

/*
 * A new incompatibility at the current paths (plus `suffix` on both), without
 * its message; NULL when quiet or out of memory. The items array grows by
 * doubling inside the arena: the copies left behind at most double its size.
 */
static avrogen_incompatibility *add(walker *k, avrogen_incompat kind, const avrogen_node *rd,
                                    const avrogen_node *w, const char *suffix)
{
    avrogen_compat_report *rep = k->rep;
    if (k->quiet > 0 || k->st != AVROGEN_OK)
        return NULL;
    if (rep->count == rep->cap) {
        size_t cap = rep->cap == 0 ? 8 : rep->cap * 2;
        avrogen_incompatibility *items = avrogen_arena_calloc(&rep->arena, cap, sizeof *items);
        if (items == NULL) {
            nomem(k);
            return NULL;
        }
        if (rep->count != 0)
            memcpy(items, rep->items, rep->count * sizeof *items);
        rep->items = items;
        rep->cap = cap;
    }
    avrogen_incompatibility *x = &rep->items[rep->count];
    x->kind = kind;
    x->reader_path = path_copy(k, &k->rpath, suffix);
    x->writer_path = path_copy(k, &k->wpath, suffix);
    x->reader = rd;
    x->writer = w;
    x->reader_field = k->rfield;
    x->writer_field = k->wfield;
    x->message = "";
    if (k->st != AVROGEN_OK)
        return NULL;
    rep->count++;
    return x;
}

/* Record an incompatibility whose message is printf-formatted. */
static AVROGEN_PRINTF(6, 7) void emit(walker *k, avrogen_incompat kind, const avrogen_node *rd,
                                      const avrogen_node *w, const char *suffix, const char *fmt,
                                      ...)
{
    avrogen_incompatibility *x = add(k, kind, rd, w, suffix);
    if (x == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? avrogen_arena_alloc(&k->rep->arena, (size_t)n + 1) : NULL;
    if (msg == NULL) {
        nomem(k);
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    x->message = msg;
}

/* ---- named pairs ------------------------------------------------------------ */

static size_t hash_pair(const avrogen_node *rd, const avrogen_node *w)
{
    uint64_t h = (uint64_t)(uintptr_t)rd * UINT64_C(0x9e3779b97f4a7c15);
    h ^= (uint64_t)(uintptr_t)w * UINT64_C(0xc2b2ae3d27d4eb4f);
    return (size_t)(h ^ (h >> 31));
}

static bool grow_table(walker *k)
{
    size_t n = k->n_slots == 0 ? 64 : k->n_slots * 2;
    pair **slots = avrogen_arena_calloc(&k->scratch, n, sizeof *slots);
    if (slots == NULL) {
        nomem(k);
        return false;
    }
    for (size_t i = 0; i < k->n_slots; i++) {
        pair *p = k->slots[i];
        if (p == NULL)
            continue;
        size_t j = hash_pair(p->rd, p->w) & (n - 1);
        while (slots[j] != NULL)
            j = (j + 1) & (n - 1);
        slots[j] = p;
    }
    k->slots = slots;
    k->n_slots = n;
    return true;
}

/* The entry of (rd, w), created on first sight; NULL when out of memory.
 * Entries live in the scratch arena, so pointers to them survive growth. */
static pair *find_pair(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    /* Keep the load under a half; there are at most as many pairs as walk steps. */
    if (k->n_pairs >= k->n_slots / 2 && !grow_table(k))
        return NULL;
    size_t mask = k->n_slots - 1;
    size_t i = hash_pair(rd, w) & mask;
    for (; k->slots[i] != NULL; i = (i + 1) & mask)
        if (k->slots[i]->rd == rd && k->slots[i]->w == w)
            return k->slots[i];
    pair *p = avrogen_arena_calloc(&k->scratch, 1, sizeof *p);
    if (p == NULL) {
        nomem(k);
        return NULL;
    }
    p->rd = rd;
    p->w = w;
    k->slots[i] = p;
    k->n_pairs++;
    return p;
}

/* ---- the walk ----------------------------------------------------------------- */

static bool check(walker *k, const avrogen_node *rd, const avrogen_node *w);

static int cmp_symbol(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* spec: a writer symbol the reader lacks takes the reader's default, else is an error. */
static bool check_enum_symbols(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    if (rd->enum_default >= 0 || w->n_symbols == 0)
        return true;
    /* Sorted reader symbols: hostile enums of 10^5 symbols must not cost 10^10 compares. */
    const char **sorted = avrogen_arena_calloc(&k->scratch, rd->n_symbols + 1, sizeof *sorted);
    size_t *missing = avrogen_arena_calloc(&k->scratch, w->n_symbols, sizeof *missing);
    if (sorted == NULL || missing == NULL) {
        nomem(k);
        return true;
    }
    for (size_t i = 0; i < rd->n_symbols; i++)
        sorted[i] = rd->symbols[i];
    if (rd->n_symbols > 1)
        qsort(sorted, rd->n_symbols, sizeof *sorted, cmp_symbol);
    size_t n_missing = 0, text_len = 0;
    for (size_t i = 0; i < w->n_symbols; i++) {
        const char *sym = w->symbols[i];
        if (rd->n_symbols != 0 && bsearch(&sym, sorted, rd->n_symbols, sizeof *sorted, cmp_symbol))
            continue;
        if (n_missing < MAX_LISTED_SYMBOLS)
            text_len += strlen(sym) + 2;
        missing[n_missing++] = i;
    }
    if (n_missing == 0)
        return true;
    avrogen_incompatibility *x = add(k, AVROGEN_INCOMPAT_MISSING_ENUM_SYMBOLS, rd, w, "/symbols");
    if (x == NULL)
        return false;
    /* "the writer's symbols C, D (and 3 more) are not in the reader's enum E, which has no default"
     */
    const char *head = "the writer's symbols ";
    char tail[64] = "";
    if (n_missing > MAX_LISTED_SYMBOLS)
        snprintf(tail, sizeof tail, " (and %zu more)", n_missing - MAX_LISTED_SYMBOLS);
    const char *end1 = " are not in the reader's enum ";
    const char *end2 = ", which has no default";
    size_t total = strlen(head) + text_len + strlen(tail) + strlen(end1) + strlen(rd->fullname) +
                   strlen(end2) + 1;
    char *msg = avrogen_arena_alloc(&k->rep->arena, total);
    if (msg == NULL) {
        nomem(k);
        return false;
    }
    char *p = msg;
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < n_missing && i < MAX_LISTED_SYMBOLS; i++)
        p += sprintf(p, "%s%s", i == 0 ? "" : ", ", w->symbols[missing[i]]);
    sprintf(p, "%s%s%s%s", tail, end1, rd->fullname, end2);
    x->message = msg;
    return false;
}

/* spec: reader fields take the writer's field of their name or alias, else their default. */
static bool check_fields(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    /* As resolve.c does, a writer field feeds every reader field that names it
     * (or has it as an alias). */
    bool ok = true;
    const avrogen_field *outer_r = k->rfield, *outer_w = k->wfield;
    for (size_t j = 0; j < rd->n_fields && k->st == AVROGEN_OK; j++) {
        const avrogen_field *rf = &rd->fields[j];
        long wi = avrogen_find_writer_field(w, rf);
        size_t rold = push(k, &k->rpath, "/fields/", j, true);
        k->rfield = rf;
        if (wi >= 0) {
            const avrogen_field *wf = &w->fields[wi];
            push(k, &k->rpath, "/type", 0, false);
            size_t wold = push(k, &k->wpath, "/fields/", (size_t)wi, true);
            push(k, &k->wpath, "/type", 0, false);
            k->wfield = wf;
            if (!check(k, rf->type, wf->type))
                ok = false;
            k->wfield = outer_w;
            pop(&k->wpath, wold);
        } else if (rf->default_json == NULL) {
            ok = false;
            emit(k, AVROGEN_INCOMPAT_READER_FIELD_MISSING_DEFAULT_VALUE, rf->type, w, "",
                 "reader field \"%s\" of %s has no default, and the writer's record %s has "
                 "no such field",
                 rf->name, rd->fullname, w->fullname);
        }
        k->rfield = outer_r;
        pop(&k->rpath, rold);
    }
    return ok;
}

/* spec §Logical Types, Decimal: two decimals match only with the same scale and precision. */
static bool check_decimals(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    if (avrogen_decimals_match(w, rd))
        return true;
    emit(k, AVROGEN_INCOMPAT_TYPE_MISMATCH, rd, w, "",
         "the writer's decimal(%d, %d) cannot be read as decimal(%d, %d): the scales and "
         "precisions must match",
         w->precision, w->scale, rd->precision, rd->scale);
    return false;
}

/* Record, enum or fixed of the same kind on both sides: name, then insides. */
static bool check_named_body(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    bool ok = true;
    /* Java and Python go on past a wrong name, so their lists include what follows. */
    if (!avrogen_names_match(w, rd)) {
        ok = false;
        emit(k, AVROGEN_INCOMPAT_NAME_MISMATCH, rd, w, "/name",
             "the writer's %s %s is neither the reader's %s nor one of its aliases",
             avrogen_kind_name(w->kind), w->fullname, rd->fullname);
    }
    switch (rd->kind) {
    case AVROGEN_KIND_FIXED:
        if (rd->size != w->size) {
            ok = false;
            emit(k, AVROGEN_INCOMPAT_FIXED_SIZE_MISMATCH, rd, w, "/size",
                 "the writer's fixed %s has size %zu, the reader's %s %zu", w->fullname, w->size,
                 rd->fullname, rd->size);
        }
        return check_decimals(k, rd, w) && ok;
    case AVROGEN_KIND_ENUM:
        return check_enum_symbols(k, rd, w) && ok;
    default:
        return check_fields(k, rd, w) && ok;
    }
}

static bool check_named(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    pair *p = find_pair(k, rd, w);
    if (p == NULL)
        return true;
    bool ok;
    if (k->quiet > 0) {
        if (p->report_state == PAIR_DONE)
            return p->report_ok;
        if (p->quiet_state == PAIR_DONE)
            return p->quiet_ok;
        if (p->report_state == PAIR_BUSY || p->quiet_state == PAIR_BUSY)
            return true; /* in progress: assumed compatible, as Java and Python do */
        p->quiet_state = PAIR_BUSY;
        ok = check_named_body(k, rd, w);
        p->quiet_state = PAIR_DONE;
        p->quiet_ok = ok;
        return ok;
    }
    if (p->report_state == PAIR_DONE)
        return p->report_ok;
    if (p->report_state == PAIR_BUSY)
        return true;
    p->report_state = PAIR_BUSY;
    /* Already known to be compatible: there is nothing to report. */
    ok = p->quiet_state == PAIR_DONE && p->quiet_ok ? true : check_named_body(k, rd, w);
    p->report_state = PAIR_DONE;
    p->report_ok = ok;
    return ok;
}

/*
 * A reader union read by a non-union writer (`wbranch` >= 0: branch wbranch of
 * a writer union): compatible when the branch the resolver picks, the first
 * that matches (spec), reads the writer completely.
 */
static bool check_reader_union(walker *k, const avrogen_node *rd, const avrogen_node *w,
                               long wbranch)
{
    long pick = avrogen_reader_branch(w, rd);
    if (pick >= 0) {
        size_t i = (size_t)pick;
        const avrogen_node *b = rd->branches[i];
        size_t old = push(k, &k->rpath, "/", i, true);
        k->quiet++;
        bool ok = check(k, b, w);
        k->quiet--;
        pop(&k->rpath, old);
        if (ok)
            return true;
        if (wbranch >= 0)
            emit(k, AVROGEN_INCOMPAT_MISSING_UNION_BRANCH, rd, w, "",
                 "branch %ld (%s%s%s) of the writer's union matches branch %zu of the reader's "
                 "union, which cannot read it",
                 wbranch, DESC(w), i);
        else
            emit(k, AVROGEN_INCOMPAT_MISSING_UNION_BRANCH, rd, w, "",
                 "the writer's %s%s%s matches branch %zu of the reader's union, which cannot "
                 "read it",
                 DESC(w), i);
        return false;
    }
    if (wbranch >= 0)
        emit(k, AVROGEN_INCOMPAT_MISSING_UNION_BRANCH, rd, w, "",
             "branch %ld (%s%s%s) of the writer's union matches no branch of the reader's union",
             wbranch, DESC(w));
    else
        emit(k, AVROGEN_INCOMPAT_MISSING_UNION_BRANCH, rd, w, "",
             "the writer's %s%s%s matches no branch of the reader's union", DESC(w));
    return false;
}

/*
 * A writer union: every branch must be readable. With a reader union each
 * branch that is not is one MISSING_UNION_BRANCH; with any other reader, a
 * branch reports its own incompatibilities (what Java and Python list).
 */
static bool check_writer_union(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    bool ok = true;
    for (size_t i = 0; i < w->n_branches && k->st == AVROGEN_OK; i++) {
        size_t old = push(k, &k->wpath, "/", i, true);
        bool b = rd->kind == AVROGEN_KIND_UNION ? check_reader_union(k, rd, w->branches[i], (long)i)
                                                : check(k, rd, w->branches[i]);
        if (!b)
            ok = false;
        pop(&k->wpath, old);
    }
    return ok;
}

static bool check_node(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    if (w->kind == AVROGEN_KIND_UNION)
        return check_writer_union(k, rd, w);
    if (rd->kind == AVROGEN_KIND_UNION)
        return check_reader_union(k, rd, w, -1);
    if (rd->kind != w->kind) {
        if (avrogen_kind_promotes(w->kind, rd->kind))
            return true;
        emit(k, AVROGEN_INCOMPAT_TYPE_MISMATCH, rd, w, "",
             "the writer's %s%s%s cannot be read as %s%s%s", DESC(w), DESC(rd));
        return false;
    }
    switch (rd->kind) {
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP: {
        const char *seg = rd->kind == AVROGEN_KIND_ARRAY ? "/items" : "/values";
        size_t rold = push(k, &k->rpath, seg, 0, false);
        size_t wold = push(k, &k->wpath, seg, 0, false);
        bool ok = check(k, rd->items, w->items);
        pop(&k->wpath, wold);
        pop(&k->rpath, rold);
        return ok;
    }
    case AVROGEN_KIND_RECORD:
    case AVROGEN_KIND_ENUM:
    case AVROGEN_KIND_FIXED:
        return check_named(k, rd, w);
    case AVROGEN_KIND_BYTES:
        return check_decimals(k, rd, w);
    default:
        return true; /* the same primitive */
    }
}

/* After a failure the walk unwinds, its answers meaningless. */
static bool check(walker *k, const avrogen_node *rd, const avrogen_node *w)
{
    if (k->st != AVROGEN_OK)
        return true;
    if (k->depth >= COMPAT_MAX_DEPTH) {
        k->st = AVROGEN_E_LIMIT;
        return true;
    }
    k->depth++;
    bool ok = check_node(k, rd, w);
    k->depth--;
    return ok;
}

/* ---- the API ---------------------------------------------------------------- */

avrogen_status avrogen_compat_check(const avrogen_node *reader, const avrogen_node *writer,
                                    const avrogen_alloc *alloc, avrogen_compat_report **out)
{
    *out = NULL;
    avrogen_compat_report *rep = avrogen_malloc(alloc, sizeof *rep);
    if (rep == NULL)
        return AVROGEN_E_NOMEM;
    memset(rep, 0, sizeof *rep);
    rep->alloc = alloc != NULL && alloc->fn != NULL ? *alloc : avrogen_alloc_libc;
    avrogen_arena_init(&rep->arena, &rep->alloc);
    walker k;
    memset(&k, 0, sizeof k);
    k.rep = rep;
    avrogen_arena_init(&k.scratch, &rep->alloc);
    (void)check(&k, reader, writer);
    avrogen_arena_fini(&k.scratch);
    if (k.st != AVROGEN_OK) {
        avrogen_compat_free(rep);
        return k.st;
    }
    *out = rep;
    return AVROGEN_OK;
}

size_t avrogen_compat_count(const avrogen_compat_report *rep)
{
    return rep->count;
}

const avrogen_incompatibility *avrogen_compat_at(const avrogen_compat_report *rep, size_t i)
{
    return i < rep->count ? &rep->items[i] : NULL;
}

void avrogen_compat_free(avrogen_compat_report *rep)
{
    if (rep == NULL)
        return;
    avrogen_alloc alloc = rep->alloc;
    avrogen_arena_fini(&rep->arena);
    avrogen_free(&alloc, rep, sizeof *rep);
}

const char *avrogen_incompat_name(avrogen_incompat kind)
{
    switch (kind) {
    case AVROGEN_INCOMPAT_NAME_MISMATCH:
        return "name_mismatch";
    case AVROGEN_INCOMPAT_FIXED_SIZE_MISMATCH:
        return "fixed_size_mismatch";
    case AVROGEN_INCOMPAT_MISSING_ENUM_SYMBOLS:
        return "missing_enum_symbols";
    case AVROGEN_INCOMPAT_READER_FIELD_MISSING_DEFAULT_VALUE:
        return "reader_field_missing_default_value";
    case AVROGEN_INCOMPAT_TYPE_MISMATCH:
        return "type_mismatch";
    case AVROGEN_INCOMPAT_MISSING_UNION_BRANCH:
        return "missing_union_branch";
    }
    return "unknown";
}
