/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The build's compatibility gate (compat_gate.h). Each record schema derived
 * from the header is parsed back and checked by avrogen_compat_check against
 * the earlier schemas of the same name; every incompatibility is then mapped
 * from the new schema's side of the report (its JSON path, checked against
 * the innermost field the report names) back to the model, so that the error
 * lands on the C member whose declaration changed, with notes for the way
 * there. What is compatible is compat.c's decision, not this file's.
 */
#include "compat_gate.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "avrogen/compat.h"

#include "genutil.h"
#include "resolve_internal.h"

enum direction {
    BACKWARD, /* the new schema reads data written with the earlier one */
    FORWARD   /* the earlier schema reads data written with the new one */
};

/* A member crossed on the way from the checked record to the culprit. */
struct hop {
    const struct model_record *rec;
    const struct model_field *field;
};

/* Where an incompatibility lands in the C source. */
struct culprit {
    const struct model_record *rec;     /* the record declaring `field` */
    const struct model_field *field;    /* the member, NULL when at the record itself */
    const struct model_branch *branch;  /* a member of field's tagged union, or NULL */
    const struct model_type *type;      /* the model node where the path ends, or NULL */
    const struct model_record *end_rec; /* the record the path ends on, or NULL */
    const avrogen_node *end_node;       /* the schema node where the path ends */
    struct hop *hops;                   /* members crossed before `field`, outermost first */
    size_t n_hops;
};

/* ---- from the new schema back to the model ---------------------------- */

/* The member of `r` that is Avro field `avro_index`, or NULL. */
static const struct model_field *value_field(const struct model_record *r, size_t avro_index)
{
    for (size_t i = 0; i < r->n_fields; i++)
        if (r->fields[i].role == MODEL_FIELD_VALUE && r->fields[i].avro_index == avro_index &&
            r->fields[i].type)
            return &r->fields[i];
    return NULL;
}

/* The next segment of the JSON pointer at *p; false at its end. */
static bool next_segment(const char **p, const char **seg, size_t *len)
{
    const char *s = *p;
    while (*s == '/')
        s++;
    if (*s == '\0')
        return false;
    const char *e = strchr(s, '/');
    if (!e)
        e = s + strlen(s);
    *seg = s;
    *len = (size_t)(e - s);
    *p = e;
    return true;
}

static bool segment_is(const char *seg, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(seg, word, len) == 0;
}

/* A decimal index below `limit`. Nine digits are plenty: a larger number is
 * no index into a schema that fits in memory. */
static bool segment_index(const char *seg, size_t len, size_t limit, size_t *out)
{
    size_t v = 0;
    if (len == 0 || len > 9)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (seg[i] < '0' || seg[i] > '9')
            return false;
        v = v * 10 + (size_t)(seg[i] - '0');
    }
    if (v >= limit)
        return false;
    *out = v;
    return true;
}

static void push_hop(struct culprit *c)
{
    c->hops = xappend(c->hops, c->n_hops, sizeof *c->hops);
    c->hops[c->n_hops].rec = c->rec;
    c->hops[c->n_hops++].field = c->field;
}

/*
 * Follow `path` down the new schema from `root` (the schema of `rec`) and the
 * model in step, recording the members and union members crossed. The walk
 * stops where the path leaves what the model describes (a "/symbols" or
 * "/size" tail, a null branch) or where model and schema disagree. Returns
 * the innermost schema field crossed, for the caller to compare with the
 * report's own.
 */
static const avrogen_field *walk_path(const char *path, const avrogen_node *root,
                                      const struct model_record *rec, struct culprit *c)
{
    const avrogen_field *last = NULL;
    const avrogen_node *n = root;
    const struct model_type *t = NULL; /* NULL at the root record */
    const struct model_record *r = rec;
    const char *seg;
    size_t len, i;
    c->rec = rec;
    while (next_segment(&path, &seg, &len)) {
        if (t && t->kind != n->kind)
            break;
        if (n->kind == AVROGEN_KIND_RECORD) {
            if (t)
                r = t->record;
            if (!r || !segment_is(seg, len, "fields") || !next_segment(&path, &seg, &len) ||
                !segment_index(seg, len, n->n_fields, &i))
                break;
            const struct model_field *f = value_field(r, i);
            if (!f)
                break;
            if (c->field)
                push_hop(c);
            c->rec = r;
            c->field = f;
            c->branch = NULL;
            last = &n->fields[i];
            /* "/fields/3" and "/fields/3/type" both mean the field's type. */
            n = n->fields[i].type;
            t = f->type;
            if (next_segment(&path, &seg, &len) && !segment_is(seg, len, "type"))
                break;
        } else if (!t) {
            break;
        } else if (n->kind == AVROGEN_KIND_ARRAY || n->kind == AVROGEN_KIND_MAP) {
            if (!segment_is(seg, len, n->kind == AVROGEN_KIND_ARRAY ? "items" : "values") ||
                !t->items)
                break;
            n = n->items;
            t = t->items;
        } else if (n->kind == AVROGEN_KIND_UNION) {
            if (!segment_index(seg, len, n->n_branches, &i))
                break;
            if (t->storage == MODEL_STORAGE_NULLABLE) {
                n = n->branches[i];
                t = i == t->null_index ? NULL : t->items;
                if (!t) /* the null branch: nothing below it */
                    break;
            } else if (t->storage == MODEL_STORAGE_TAGGED && i < t->n_branches) {
                n = n->branches[i];
                c->branch = &t->branches[i];
                t = c->branch->type;
            } else {
                break;
            }
        } else {
            break; /* "/symbols", "/size", "/name": inside the node itself */
        }
    }
    c->type = t;
    c->end_node = n;
    if (n->kind == AVROGEN_KIND_RECORD && (!t || t->kind == AVROGEN_KIND_RECORD))
        c->end_rec = t ? t->record : r;
    return last;
}

/* A search of the whole model for the member of one schema field, or for the
 * record of one schema node: the fallback when a path cannot be walked. */
struct search {
    const avrogen_field *want_field;
    const avrogen_node *want_record;
    const avrogen_node **seen; /* records visited: recursive schemas are graphs */
    size_t n_seen;
    struct culprit *c;
};

static bool search_record(struct search *s, const avrogen_node *n, const struct model_record *r);

static bool search_type(struct search *s, const avrogen_node *n, const struct model_type *t)
{
    if (!t || t->kind != n->kind)
        return false;
    switch (t->kind) {
    case AVROGEN_KIND_RECORD:
        return t->record && search_record(s, n, t->record);
    case AVROGEN_KIND_ARRAY:
    case AVROGEN_KIND_MAP:
        return t->items && search_type(s, n->items, t->items);
    case AVROGEN_KIND_UNION:
        if (t->storage == MODEL_STORAGE_NULLABLE)
            return n->n_branches == 2 && search_type(s, n->branches[1 - t->null_index], t->items);
        for (size_t i = 0; i < t->n_branches && i < n->n_branches; i++)
            if (search_type(s, n->branches[i], t->branches[i].type))
                return true;
        return false;
    default:
        return false;
    }
}

static bool search_record(struct search *s, const avrogen_node *n, const struct model_record *r)
{
    for (size_t i = 0; i < s->n_seen; i++)
        if (s->seen[i] == n)
            return false;
    s->seen = xappend(s->seen, s->n_seen, sizeof *s->seen);
    s->seen[s->n_seen++] = n;
    if (n == s->want_record) {
        s->c->rec = s->c->end_rec = r;
        return true;
    }
    for (size_t i = 0; i < r->n_fields; i++) {
        const struct model_field *f = &r->fields[i];
        if (f->role != MODEL_FIELD_VALUE || !f->type || f->avro_index >= n->n_fields)
            continue;
        const avrogen_field *nf = &n->fields[f->avro_index];
        if (nf == s->want_field) {
            s->c->rec = r;
            s->c->field = f;
            s->c->type = f->type;
            return true;
        }
        if (search_type(s, nf->type, f->type))
            return true;
    }
    return false;
}

/*
 * Find where the incompatibility lands on the new side: the member holding
 * `new_field` (the report's innermost field on the new schema), or the record
 * at `new_node` when `record_level`. The path walk gives the finest answer
 * (union members, the members crossed on the way); should it disagree with
 * the report's pointers, a search by pointer still finds the member.
 */
static void locate(const char *new_path, const avrogen_field *new_field,
                   const avrogen_node *new_node, bool record_level, const avrogen_node *root,
                   const struct model_record *rec, struct culprit *c)
{
    const avrogen_field *crossed = walk_path(new_path ? new_path : "", root, rec, c);
    if (crossed == new_field && (!new_node || c->end_node == new_node) &&
        (!record_level || c->end_rec))
        return;
    free(c->hops);
    memset(c, 0, sizeof *c);
    struct search s = {.c = c};
    if (record_level)
        s.want_record = new_node;
    else if (new_field)
        s.want_field = new_field;
    if ((s.want_field || s.want_record) && search_record(&s, root, rec)) {
        free(s.seen);
        return;
    }
    free(s.seen);
    memset(c, 0, sizeof *c);
    c->rec = c->end_rec = rec;
}

/* ---- reporting ---------------------------------------------------------- */

/* "member 'qty' of 'struct line'", "member 'as.text' of 'struct value'" for a
 * member of a tagged union, with the Avro field's name when it differs. */
static char *describe_member(const struct culprit *c)
{
    const struct model_field *f = c->field;
    char *avro = strcmp(f->avro_name, f->c_name) != 0
                         ? xasprintf(" (Avro field \"%s\")", f->avro_name)
                         : xstrdup("");
    char *s = c->branch ? xasprintf("member '%s.%s'%s of '%s'", f->c_name, c->branch->c_name, avro,
                                    c->rec->c_type)
                        : xasprintf("member '%s'%s of '%s'", f->c_name, avro, c->rec->c_type);
    free(avro);
    return s;
}

static const char *direction_name(enum direction dir)
{
    return dir == BACKWARD ? "backward" : "forward";
}

/* One pair checked: the record, both roots, the earlier file and the direction. */
struct pair {
    const struct model_record *rec;
    const avrogen_node *new_root;
    const avrogen_node *old_root;
    const char *old_path;
    enum direction dir;
    unsigned reported; /* errors reported for this pair so far */
};

static void report(struct pair *p, const avrogen_incompatibility *x, struct diag *d)
{
    bool new_reads = p->dir == BACKWARD;
    const avrogen_field *new_field = new_reads ? x->reader_field : x->writer_field;
    const avrogen_node *new_node = new_reads ? x->reader : x->writer;
    /* A reader field the writer lacks: when the new schema is the writer, the
     * C member that would provide it is gone, so the record is at fault. */
    bool record_level =
            x->kind == AVROGEN_INCOMPAT_READER_FIELD_MISSING_DEFAULT_VALUE && !new_reads;
    struct culprit c = {0};
    locate(new_reads ? x->reader_path : x->writer_path, new_field, new_node, record_level,
           p->new_root, p->rec, &c);
    const char *dir = direction_name(p->dir);
    const char *kind = avrogen_incompat_name(x->kind);

    if (record_level) {
        const struct model_record *r = c.end_rec ? c.end_rec : p->rec;
        if (c.field && c.end_rec)
            push_hop(&c); /* the member leading to the record is the last hop */
        c.rec = r;
        c.field = NULL;
        diag_error(d, &r->loc,
                   "'%s' breaks %s compatibility with %s: it has no field \"%s\", which readers "
                   "using that schema need (it has no default there) [%s]",
                   r->c_type, dir, p->old_path, x->reader_field ? x->reader_field->name : "?",
                   kind);
    } else if (c.field) {
        char *what = describe_member(&c);
        diag_error(d, c.branch ? &c.branch->loc : &c.field->loc,
                   "%s breaks %s compatibility with %s: %s [%s]", what, dir, p->old_path,
                   x->message, kind);
        free(what);
        if (x->kind == AVROGEN_INCOMPAT_READER_FIELD_MISSING_DEFAULT_VALUE)
            diag_note(d, &c.field->loc,
                      "give '%s' a default, e.g. AVRO_FIELD(default = ...), so that data "
                      "written without it can be read",
                      c.field->c_name);
    } else {
        diag_error(d, &c.rec->loc, "'%s' breaks %s compatibility with %s: %s [%s]", c.rec->c_type,
                   dir, p->old_path, x->message, kind);
    }

    /* Where the changed type is declared, when that is not the member itself. */
    const struct model_type *t = c.type;
    if (!record_level && t && t->kind == AVROGEN_KIND_ENUM && t->enumeration)
        diag_note(d, &t->enumeration->loc, "'%s' is defined here", t->enumeration->c_type);
    else if (!record_level && c.field && t && t->kind == AVROGEN_KIND_RECORD && t->record &&
             x->kind == AVROGEN_INCOMPAT_NAME_MISMATCH)
        diag_note(d, &t->record->loc, "'%s' is defined here", t->record->c_type);

    /* How the checked record reaches a nested one, innermost first. */
    for (size_t k = c.n_hops; k-- > 0;) {
        const struct model_record *inner = k + 1 < c.n_hops ? c.hops[k + 1].rec : c.rec;
        diag_note(d, &c.hops[k].field->loc, "'%s' is used by member '%s' of '%s'", inner->c_type,
                  c.hops[k].field->c_name, c.hops[k].rec->c_type);
    }

    /* Once per pair: which schema reads which, the terms of the reasons above.
     * Both fullnames, since an earlier schema may match by an alias. */
    if (p->reported++ == 0) {
        if (p->dir == BACKWARD)
            diag_note(d, &p->rec->loc,
                      "checked backward: the new schema of '%s' (%s, the reader) must read data "
                      "written with %s (%s, the writer)",
                      p->rec->c_type, p->new_root->fullname, p->old_path, p->old_root->fullname);
        else
            diag_note(d, &p->rec->loc,
                      "checked forward: readers using %s (%s, the reader) must read data "
                      "written with the new schema of '%s' (%s, the writer)",
                      p->old_path, p->old_root->fullname, p->rec->c_type, p->new_root->fullname);
    }
    free(c.hops);
}

/* Check one direction of one pair; 0 compatible, 1 errors reported, 2 out of memory. */
static int check_pair(struct pair *p, struct diag *d)
{
    const avrogen_node *reader = p->dir == BACKWARD ? p->new_root : p->old_root;
    const avrogen_node *writer = p->dir == BACKWARD ? p->old_root : p->new_root;
    avrogen_compat_report *rep = NULL;
    if (avrogen_compat_check(reader, writer, NULL, &rep) != AVROGEN_OK) {
        diag_error(d, NULL, "out of memory while checking '%s' against %s", p->rec->c_type,
                   p->old_path);
        return 2;
    }
    size_t n = avrogen_compat_count(rep);
    for (size_t i = 0; i < n; i++)
        report(p, avrogen_compat_at(rep, i), d);
    avrogen_compat_free(rep);
    return n != 0 ? 1 : 0;
}

/* Whether an earlier schema is a version of the record: a record whose name
 * resolution matches (the same unqualified name, or one of the record's aliases). */
static bool is_version_of(const avrogen_node *new_root, const avrogen_node *old_root)
{
    return old_root->kind == AVROGEN_KIND_RECORD && avrogen_names_match(old_root, new_root);
}

int compat_gate_check(const struct model *m, const avrogen_schema *const *earlier,
                      const char *const *earlier_paths, size_t n_earlier, const char *mode,
                      struct diag *d)
{
    bool backward = strcmp(mode, "backward") == 0 || strcmp(mode, "full") == 0;
    bool forward = strcmp(mode, "forward") == 0 || strcmp(mode, "full") == 0;
    if (!backward && !forward) {
        if (strcmp(mode, "none") == 0)
            return 0;
        diag_error(d, NULL, "internal error: unknown compatibility mode '%s'", mode);
        return 2;
    }
    int status = 0;
    for (size_t i = 0; i < m->n_records && status != 2; i++) {
        const struct model_record *rec = m->records[i];
        if (!rec->in_main_file || !rec->avsc)
            continue;
        avrogen_schema *s = NULL;
        avrogen_diag why;
        memset(&why, 0, sizeof why);
        avrogen_status st = avrogen_schema_parse(rec->avsc, strlen(rec->avsc), NULL, &s, &why);
        if (st != AVROGEN_OK) {
            /* emit_avsc parsed the same text already: only memory can fail here. */
            diag_error(d, &rec->loc, "internal error: cannot parse the schema of '%s' again: %s",
                       rec->name.fullname, why.msg);
            return 2;
        }
        const avrogen_node *root = avrogen_schema_root(s);
        for (size_t k = 0; k < n_earlier && status != 2; k++) {
            const avrogen_node *old = avrogen_schema_root(earlier[k]);
            if (!is_version_of(root, old))
                continue;
            for (int dir = BACKWARD; dir <= FORWARD && status != 2; dir++) {
                if ((dir == BACKWARD && !backward) || (dir == FORWARD && !forward))
                    continue;
                struct pair p = {rec, root, old, earlier_paths[k], (enum direction)dir, 0};
                int rc = check_pair(&p, d);
                if (rc > status)
                    status = rc;
            }
        }
        avrogen_schema_free(s);
    }
    return status;
}
