/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Container files of generated types: open a file with a record type's schema,
 * put structs through its encoder, get them back through avrogen_ocf_reader_next_as
 * into an arena the reader owns and resets per record. Errors name the record
 * (its number, counting from 0) and, for encoding, the member. Built on ocf.c's
 * public functions and the few hooks of ocf_internal.h; the block handling,
 * codecs and schema resolution are all ocf.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "avrogen/ocf.h"

#include "ocf_internal.h"

struct avrogen_ocf_typed {
    const avrogen_type *type;
    avrogen_arena arena; /* each record's arrays, maps and char * strings; reset per get */
    uint64_t records;    /* records handed out: the next one's number */
    bool noted;          /* the sticky error names its record already */
};

static bool is_generated_record(const avrogen_type *t)
{
    return t != NULL && t->kind == AVROGEN_KIND_RECORD && t->schema_text != NULL &&
           t->decode != NULL && t->encode != NULL;
}

static avrogen_status arg_error(avrogen_diag *diag, const char *msg)
{
    if (diag != NULL) {
        memset(diag, 0, sizeof *diag);
        snprintf(diag->msg, sizeof diag->msg, "%s", msg);
    }
    return AVROGEN_E_ARG;
}

avrogen_status avrogen_ocf_writer_open_type(const char *path, const avrogen_type *t,
                                            const avrogen_ocf_writer_options *opts,
                                            avrogen_ocf_writer **out, avrogen_diag *diag)
{
    *out = NULL;
    if (!is_generated_record(t))
        return arg_error(diag, "not a generated record type (P_avro_type of this header)");
    const char *schema = avrogen_type_schema(t);
    if (schema == NULL) {
        if (diag != NULL) {
            memset(diag, 0, sizeof *diag);
            snprintf(diag->msg, sizeof diag->msg, "out of memory joining %s's schema", t->name);
        }
        return AVROGEN_E_NOMEM;
    }
    avrogen_status st = avrogen_ocf_writer_open(path, schema, strlen(schema), opts, out, diag);
    if (st == AVROGEN_OK)
        avrogen_ocf_writer_set_type(*out, t);
    return st;
}

avrogen_status avrogen_ocf_writer_put(avrogen_ocf_writer *w, const void *src)
{
    const avrogen_type *t = avrogen_ocf_writer_type(w);
    if (t == NULL)
        return AVROGEN_E_ARG;
    avrogen_status st = avrogen_ocf_writer_error(w, NULL);
    if (st != AVROGEN_OK)
        return st;
    (void)t->encode(avrogen_ocf_writer_datum_begin(w), src); /* datum_end sees its error */
    if (avrogen_ocf_writer_datum_end(w) != AVROGEN_OK)
        return avrogen_ocf_writer_keep_datum_error(w);
    return AVROGEN_OK;
}

void avrogen_ocf_typed_free(avrogen_ocf_typed *t, const avrogen_alloc *alloc)
{
    if (t == NULL)
        return;
    avrogen_arena_fini(&t->arena);
    avrogen_free(alloc, t, sizeof *t);
}

avrogen_status avrogen_ocf_reader_open_type(const char *path, const avrogen_type *t,
                                            const avrogen_ocf_reader_options *opts,
                                            avrogen_ocf_reader **out, avrogen_diag *diag)
{
    *out = NULL;
    if (!is_generated_record(t))
        return arg_error(diag, "not a generated record type (P_avro_type of this header)");
    const avrogen_alloc *alloc = opts != NULL ? opts->alloc : NULL;
    avrogen_ocf_typed *typed = avrogen_malloc(alloc, sizeof *typed);
    if (typed == NULL) {
        if (diag != NULL) {
            memset(diag, 0, sizeof *diag);
            snprintf(diag->msg, sizeof diag->msg, "%s", avrogen_status_str(AVROGEN_E_NOMEM));
        }
        return AVROGEN_E_NOMEM;
    }
    avrogen_status st = avrogen_ocf_reader_open(path, opts, out, diag);
    if (st != AVROGEN_OK) {
        avrogen_free(alloc, typed, sizeof *typed);
        return st;
    }
    memset(typed, 0, sizeof *typed);
    typed->type = t;
    avrogen_arena_init(&typed->arena, alloc);
    avrogen_ocf_reader_set_typed(*out, typed);
    return AVROGEN_OK;
}

bool avrogen_ocf_reader_get(avrogen_ocf_reader *r, void *dst)
{
    avrogen_ocf_typed *t = avrogen_ocf_reader_typed(r);
    if (t == NULL) {
        avrogen_ocf_reader_fail(r, AVROGEN_E_ARG,
                                "avrogen_ocf_reader_get on a reader not opened by "
                                "avrogen_ocf_reader_open_type");
        return false;
    }
    avrogen_arena_reset(&t->arena);
    bool got;
    avrogen_status st = avrogen_ocf_reader_next_as(r, t->type, dst, &t->arena, &got);
    if (st != AVROGEN_OK) {
        /* Schemas that do not resolve are no record's fault: that error is at offset 0
         * (with the reader path); every error of the data is past the header. */
        avrogen_diag d;
        avrogen_ocf_reader_error(r, &d);
        if (!t->noted && d.offset != 0) {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "record %" PRIu64 ": ", t->records);
            avrogen_ocf_reader_prefix_error(r, prefix);
        }
        t->noted = true;
        return false;
    }
    if (got)
        t->records++;
    return got;
}

avrogen_status avrogen_ocf_reader_finish(avrogen_ocf_reader *r, avrogen_diag *diag)
{
    if (r == NULL)
        return AVROGEN_OK;
    avrogen_status st = avrogen_ocf_reader_error(r, diag);
    avrogen_ocf_reader_close(r);
    return st;
}
