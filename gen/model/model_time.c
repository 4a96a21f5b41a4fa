/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Instants as C holds them → Avro's timestamp logical types: struct timespec
 * (seconds and nanoseconds) is a long of timestamp-nanos, struct timeval
 * (seconds and microseconds) one of timestamp-micros, and AVRO_LOGICAL picks
 * another unit (timestamp-millis|micros|nanos, local-timestamp-*), also for a
 * time_t, which without it is a plain long of seconds (model_integer.c).
 * Generated code converts exactly or refuses: encode fails when the instant
 * does not fit an int64 of the unit, a coarser unit floors, decode
 * normalises the fraction into 0 ≤ f < 1 s. A struct timespec annotated as a
 * record (AVRO_EXTERN_RECORD) is that record instead.
 */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static const struct {
    const char *name;
    avrogen_logical logical;
} units[] = {
        {"timestamp-millis", AVROGEN_LOGICAL_TIMESTAMP_MILLIS},
        {"timestamp-micros", AVROGEN_LOGICAL_TIMESTAMP_MICROS},
        {"timestamp-nanos", AVROGEN_LOGICAL_TIMESTAMP_NANOS},
        {"local-timestamp-millis", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MILLIS},
        {"local-timestamp-micros", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_MICROS},
        {"local-timestamp-nanos", AVROGEN_LOGICAL_LOCAL_TIMESTAMP_NANOS},
};

/* The member `name` of struct d if it is an integer, else NULL. */
static const struct cmember *int_member(const struct cdecl *d, const char *name)
{
    const struct cmember *m = find_member(d, name, NULL);
    return m != NULL && m->type->kind == CTYPE_INT && !m->is_bitfield ? m : NULL;
}

bool is_time_struct(const struct ctype *t)
{
    if (t->kind != CTYPE_STRUCT || !t->decl->complete || t->decl->tag == NULL)
        return false;
    const struct cdecl *d = t->decl;
    if (strcmp(d->tag, "timespec") == 0)
        return int_member(d, "tv_sec") && int_member(d, "tv_nsec");
    if (strcmp(d->tag, "timeval") == 0)
        return int_member(d, "tv_sec") && int_member(d, "tv_usec");
    return false;
}

bool is_time_t(const struct ctype *t)
{
    return t->kind == CTYPE_INT && has_typedef(t, "time_t");
}

/* The unit AVRO_LOGICAL names for an instant of type t; NONE after reporting. */
static avrogen_logical unit_of(const struct site *s, struct leaf *lf, const struct ctype *t)
{
    struct diag *d = s->b->d;
    lf->logical_used = true;
    char *name = annot_parse_token(lf->logical, d);
    if (name == NULL)
        return AVROGEN_LOGICAL_NONE;
    avrogen_logical l = AVROGEN_LOGICAL_NONE;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(name, units[i].name) == 0)
            l = units[i].logical;
    if (l == AVROGEN_LOGICAL_NONE) {
        char *tm = type_for_message(t);
        diag_error(d, &lf->logical->loc,
                   "AVRO_LOGICAL(%s) does not apply to %s '%s' of type %s, an instant; it takes "
                   "timestamp-millis, timestamp-micros, timestamp-nanos or local-timestamp-millis, "
                   "-micros, -nanos",
                   name, s->what, s->member->name, tm);
        free(tm);
    }
    free(name);
    return l;
}

/* How generated code casts to a member of type t: as declared, or by the
 * POSIX name `posix` for a libc-internal spelling ("__syscall_slong_t"). */
static char *public_spelling(const struct ctype *t, const char *posix)
{
    return xstrdup(strncmp(t->spelling, "__", 2) == 0 ? posix : t->spelling);
}

struct model_type *map_time(const struct site *s, const struct ctype *t, struct leaf *lf)
{
    bool spec = t->kind == CTYPE_STRUCT && strcmp(t->decl->tag, "timespec") == 0;
    bool val = t->kind == CTYPE_STRUCT && !spec;
    avrogen_logical l = spec ? AVROGEN_LOGICAL_TIMESTAMP_NANOS : AVROGEN_LOGICAL_TIMESTAMP_MICROS;
    if (lf->logical && !lf->logical_used) {
        l = unit_of(s, lf, t);
        if (l == AVROGEN_LOGICAL_NONE)
            return NULL;
    }
    struct model_type *n = new_type(AVROGEN_KIND_LONG, MODEL_STORAGE_TIME, t);
    n->logical = l;
    if (spec || val) {
        const struct cmember *sec = int_member(t->decl, "tv_sec");
        const struct cmember *frac = int_member(t->decl, spec ? "tv_nsec" : "tv_usec");
        n->time_frac_per_sec = spec ? 1000000000 : 1000000;
        n->time_frac_member = spec ? "tv_nsec" : "tv_usec";
        n->time_sec_scalar = int_scalar(sec->type->size, sec->type->is_signed);
        n->time_frac_scalar = int_scalar(frac->type->size, frac->type->is_signed);
        n->time_sec_c_type = public_spelling(sec->type, "time_t");
        n->time_frac_c_type = public_spelling(frac->type, spec ? "long" : "suseconds_t");
    } else {
        n->time_sec_scalar = int_scalar(t->size, t->is_signed);
        n->time_sec_c_type = xstrdup(t->spelling);
    }
    bool frac_ok = n->time_frac_member == NULL || n->time_frac_scalar == MODEL_SCALAR_I64 ||
                   n->time_frac_scalar == MODEL_SCALAR_I32;
    if ((n->time_sec_scalar != MODEL_SCALAR_I64 && n->time_sec_scalar != MODEL_SCALAR_I32) ||
        !frac_ok) {
        struct model_loc at = member_loc(s);
        diag_error(s->b->d, &at,
                   "%s '%s': the members of '%s' are not signed 32- or 64-bit integers here",
                   s->what, s->member->name, t->spelling);
        free_type(n);
        return NULL;
    }
    return n;
}
