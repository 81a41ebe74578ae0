/*
** variant.h — the Variant binary encoding (parquet-format's
** VariantEncoding.md) rendered as JSON text.
**
** A Variant is two byte strings: metadata (a dictionary of field names) and
** a value that refers to it by index. Rendering follows README.golden.md:
** object members in UTF-8 byte order of their keys, scalars in the top-level
** text forms (decimals, dates, times, timestamps, UUIDs as JSON strings,
** binaries as "X'HEX'", NaN/Infinity as strings, booleans true/false).
**
** Every size and offset is checked against the bytes it lives in: a lying
** value is a COL_ERROR naming what is wrong. Nesting is capped at
** PQ_VARIANT_MAX_DEPTH, and the work (hence the output) is bounded by a
** small multiple of the input size even when offsets make values share
** bytes, so a few hostile bytes cannot expand into gigabytes of JSON.
*/
#ifndef COLUMNAR_PARQUET_VARIANT_H
#define COLUMNAR_PARQUET_VARIANT_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"
#include "../strbuf.h"

/* Containers deeper than this are refused (the assembler's own cap on
** Parquet nesting is separate). */
#define PQ_VARIANT_MAX_DEPTH 128

/* The JSON of one Variant value may not exceed this. Keys come from the
** metadata and cost nothing in the value, so an array of N small objects
** that all name one long key prints N copies of it: legitimately so, which
** is why no ratio to the input can bound the output, only a fixed cap. */
#define PQ_VARIANT_MAX_JSON ((size_t)1 << 27)

/* A parsed metadata header. Points into the caller's bytes. */
typedef struct pq_variant_meta {
  const uint8_t *offsets;    /* dict_size+1 offsets, osize bytes each */
  const uint8_t *bytes;      /* the strings, nbytes of them */
  uint32_t dict_size;
  uint32_t nbytes;           /* the last offset */
  int osize;                 /* 1..4 */
  int sorted;                /* sorted_strings flag (informative only) */
  size_t size;               /* bytes the metadata occupies (<= n given) */
} pq_variant_meta;

/* Parse metadata p[0..n). Checks version 1 and that the header, offsets
** and string bytes fit in n; individual offsets are checked on use. */
int pq_variant_meta_parse(const uint8_t *p, size_t n, pq_variant_meta *m,
                          col_error *err);

/* Dictionary string `id`. */
int pq_variant_meta_key(const pq_variant_meta *m, uint32_t id,
                        const uint8_t **key, size_t *len, col_error *err);

/* The basic type of an encoded value (0 primitive, 1 short string,
** 2 object, 3 array), or -1 when it is empty. */
int pq_variant_basic_type(const uint8_t *v, size_t n);

/* An object value opened for member-by-member access (merging a partially
** shredded object with its shredded fields). */
typedef struct pq_variant_object {
  const uint8_t *ids;        /* count field ids, id_size bytes each */
  const uint8_t *offs;       /* count+1 offsets, off_size bytes each */
  const uint8_t *fields;     /* the values region, fields_len bytes */
  size_t fields_len;
  uint32_t count;
  int id_size, off_size;
} pq_variant_object;

/* Open v[0..n) as an object; an error if it is anything else. */
int pq_variant_object_open(const uint8_t *v, size_t n, pq_variant_object *o,
                           col_error *err);
/* Member i: its key (from m) and its value bytes; *vlen bounds the value
** (it runs to the end of the values region, the value's own header says
** how much of that it uses). */
int pq_variant_object_field(const pq_variant_object *o,
                            const pq_variant_meta *m, uint32_t i,
                            const uint8_t **key, size_t *klen,
                            const uint8_t **val, size_t *vlen,
                            col_error *err);

/* What one Variant may cost: `budget` encoded bytes left to decode (a
** value's members are charged their own bytes, so only offsets that alias
** the same bytes again and again exhaust it), and its JSON may grow to
** PQ_VARIANT_MAX_JSON bytes past out_start. Shared by every binary that
** makes up one shredded value, so splitting a hostile value across many
** `value` columns does not multiply the allowance. */
typedef struct pq_variant_limits {
  int64_t budget;
  size_t out_start;
} pq_variant_limits;

/* Limits for one value of n encoded bytes rendered from out_start. */
void pq_variant_limits_init(pq_variant_limits *lim, size_t n, size_t out_start);
/* Allow n more encoded bytes (another binary of the same value). */
void pq_variant_limits_add(pq_variant_limits *lim, size_t n);

/* Append the JSON text of value v[0..n) to out. depth: container levels
** already open around it (counts toward PQ_VARIANT_MAX_DEPTH). lim: the
** limits to spend, or NULL for fresh ones for this value alone. Trailing
** bytes after the value are ignored. On error out may hold a partial
** rendering; out->oom is left for the caller to check. */
int pq_variant_to_json(const pq_variant_meta *m, const uint8_t *v, size_t n,
                       int depth, pq_variant_limits *lim, strbuf *out,
                       col_error *err);

/* Order of two keys as the Variant encoding sorts them: unsigned bytes,
** a prefix first. */
int pq_variant_key_cmp(const uint8_t *a, size_t na, const uint8_t *b,
                       size_t nb);

#endif
