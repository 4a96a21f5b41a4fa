/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Framing for Avro datums in flight. Single-object encoding (spec §Single-object
 * encoding): the marker C3 01, the writer schema's 8-byte little-endian
 * CRC-64-AVRO fingerprint, then the datum; a schema set maps fingerprints back to
 * schemas on decode. Confluent wire format (the Kafka schema registry's): magic
 * byte 0, the schema id as 4 big-endian bytes, then the datum.
 *
 *     avrogen_schema_set *set;
 *     if (avrogen_schema_set_new(NULL, &set) != AVROGEN_OK ||
 *         avrogen_schema_set_add(set, order_schema) != AVROGEN_OK) // borrowed: outlives set
 *         return fail("out of memory");
 *     avrogen_reader r;
 *     const avrogen_schema *writer;
 *     if (avrogen_soe_open(set, msg, len, &r, &writer) == AVROGEN_OK)
 *         st = avrogen_value_decode(&r, avrogen_schema_root(writer), &v, &arena);
 */
#ifndef AVROGEN_FRAMING_H
#define AVROGEN_FRAMING_H

#include <stdint.h>

#include "avrogen/gencode.h"
#include "avrogen/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AVROGEN_SOE_HEADER_SIZE       10u
#define AVROGEN_CONFLUENT_HEADER_SIZE 5u

/* The single-object header for a schema whose CRC-64-AVRO fingerprint is fp. */
static inline void avrogen_soe_write_header(avrogen_writer *w, uint64_t fp)
{
    uint8_t h[AVROGEN_SOE_HEADER_SIZE] = {0xc3, 0x01};
    for (unsigned i = 0; i < 8; i++)
        h[2 + i] = (uint8_t)(fp >> (8 * i));
    avrogen_write_raw(w, h, sizeof h);
}

/* The Confluent wire-format header for schema registry id `id`. */
static inline void avrogen_confluent_write_header(avrogen_writer *w, uint32_t id)
{
    uint8_t h[AVROGEN_CONFLUENT_HEADER_SIZE] = {0, (uint8_t)(id >> 24), (uint8_t)(id >> 16),
                                                (uint8_t)(id >> 8), (uint8_t)id};
    avrogen_write_raw(w, h, sizeof h);
}

/*
 * Read a single-object header at r's position into *fp. E_TRUNCATED when fewer
 * than 10 bytes remain, E_INVALID when the marker is not C3 01; sticky on r.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_soe_read_header(avrogen_reader *r,
                                                                     uint64_t *fp);

/*
 * Read a Confluent header at r's position into *id. E_TRUNCATED when fewer than
 * 5 bytes remain, E_INVALID when the magic byte is not 0; sticky on r.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_confluent_read_header(avrogen_reader *r,
                                                                           uint32_t *id);

/* Schemas by fingerprint; the schemas are borrowed and must outlive the set. */
typedef struct avrogen_schema_set avrogen_schema_set;

/* An empty set allocated through `alloc` (NULL: libc). E_NOMEM. */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_schema_set_new(const avrogen_alloc *alloc,
                                                                    avrogen_schema_set **out);

/* Free the set (not its schemas). NULL is a no-op. */
AVROGEN_API void avrogen_schema_set_free(avrogen_schema_set *set);

/*
 * Add `s` under its CRC-64-AVRO fingerprint. Adding a schema with the same
 * canonical form again is a no-op; a different schema with an equal fingerprint
 * (a CRC collision) is E_ARG. E_NOMEM.
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_schema_set_add(avrogen_schema_set *set,
                                                                    const avrogen_schema *s);

/* The schema with fingerprint fp, or NULL. Never allocates. */
AVROGEN_API const avrogen_schema *avrogen_schema_set_find(const avrogen_schema_set *set,
                                                          uint64_t fp);

/*
 * Start decoding the single-object message of `len` bytes at `msg`: read its
 * header, look the fingerprint up in `set`, and initialise `r` over the datum
 * that follows (avrogen_reader_init: default limits; the message must outlive
 * the views decoded from r). *writer gets the schema to decode it with.
 * E_TRUNCATED / E_INVALID as avrogen_soe_read_header, E_MISMATCH when no schema
 * in the set has the fingerprint (r->err_msg says so; r->err_offset is 2).
 */
AVROGEN_NODISCARD AVROGEN_API avrogen_status avrogen_soe_open(const avrogen_schema_set *set,
                                                              const void *msg, size_t len,
                                                              avrogen_reader *r,
                                                              const avrogen_schema **writer);

#ifdef __cplusplus
}
#endif

#endif /* AVROGEN_FRAMING_H */
