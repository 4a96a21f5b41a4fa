/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What ocf.c lends ocf_typed.c, the container-file API of generated types
 * (avrogen_ocf_writer_open_type, avrogen_ocf_reader_get, ...): a slot in each
 * object for its typed state and a way to set or annotate the sticky error.
 * Internal to the runtime: never installed.
 */
#ifndef AVROGEN_OCF_INTERNAL_H
#define AVROGEN_OCF_INTERNAL_H

#include "avrogen/ocf.h"

/* ocf_typed.c's state of a reader opened by avrogen_ocf_reader_open_type. */
typedef struct avrogen_ocf_typed avrogen_ocf_typed;

/* The record type avrogen_ocf_writer_put encodes with; NULL until set. */
void avrogen_ocf_writer_set_type(avrogen_ocf_writer *w, const avrogen_type *t);
const avrogen_type *avrogen_ocf_writer_type(const avrogen_ocf_writer *w);

/* Make the error of the datum datum_end last dropped w's sticky error; returns w's error. */
avrogen_status avrogen_ocf_writer_keep_datum_error(avrogen_ocf_writer *w);

/* r's typed state (NULL until set); close frees it with avrogen_ocf_typed_free. */
avrogen_ocf_typed *avrogen_ocf_reader_typed(const avrogen_ocf_reader *r);
void avrogen_ocf_reader_set_typed(avrogen_ocf_reader *r, avrogen_ocf_typed *t);
void avrogen_ocf_typed_free(avrogen_ocf_typed *t, const avrogen_alloc *alloc);

/* Record `s` with message `msg` as r's sticky error unless it has one; returns r's error. */
avrogen_status avrogen_ocf_reader_fail(avrogen_ocf_reader *r, avrogen_status s, const char *msg);

/* Put `prefix` in front of the message of r's sticky error (cut at the diag's size). */
void avrogen_ocf_reader_prefix_error(avrogen_ocf_reader *r, const char *prefix);

#endif /* AVROGEN_OCF_INTERNAL_H */
