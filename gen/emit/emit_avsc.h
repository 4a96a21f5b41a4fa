/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema emission: the .avsc of each record of a model, built with jansson in
 * the fixed key order of STYLE.md §5 and checked by the runtime's own schema
 * parser, which also yields the Parsing Canonical Form and CRC-64-AVRO
 * fingerprint the code emitter embeds.
 */
#ifndef AVROGEN_GEN_EMIT_AVSC_H
#define AVROGEN_GEN_EMIT_AVSC_H

#include "diag.h"
#include "model/model.h"

/*
 * Fill avsc, canonical and fingerprint of every record of m. Problems (a
 * schema Avro cannot express, or one the runtime parser rejects) are reported
 * through d at the record. Returns 0, or 1 after reporting at least one error.
 */
int emit_avsc(struct model *m, struct diag *d);

/* "uuid", "timestamp-nanos", ...: the logicalType of a logical type; NULL for none or decimal. */
const char *avsc_logical_name(avrogen_logical logical);

#endif /* AVROGEN_GEN_EMIT_AVSC_H */
