/*
** rowgroup.h — one row group's columns, decoded and converted.
**
** The unit of work of a Parquet scan, and of its parallelism: a worker
** decodes a whole row group for the columns a scan needs, filter columns
** first, so that a row group whose filter rejects every row never touches
** the other columns.
*/
#ifndef COLUMNAR_PARQUET_ROWGROUP_H
#define COLUMNAR_PARQUET_ROWGROUP_H

#include "nested.h"
#include "../predicate.h"

typedef struct pq_rg_field {
  int decoded;               /* 1 when col is valid */
  int raw;                   /* col holds a TIMESTAMP's or DATE's stored
                             ** integers, not its text */
  pq_colvec col;             /* the field as a SQLite-valued vector */
  pq_chunk *chunks;          /* its leaves' chunks (kept: strings point in) */
  int nchunks;
} pq_rg_field;

typedef struct pq_rg_data {
  int file, rg;              /* which row group */
  int64_t rows;              /* rows in it */
  int skipped;               /* 1: statistics or filters exclude every row */
  pq_rg_field *fields;       /* indexed by schema field; NULL entries unused */
  uint32_t *sel;             /* rows passing the exact predicates: a
                             ** block of sel_pool (reader/pool.h) */
  struct col_pool *sel_pool;
  int64_t nsel;              /* -1: every row passes (no exact predicate) */
  scan_stats stats;          /* what decoding this row group cost */
  col_error err;             /* a decoding error, reported in order */
} pq_rg_data;

/* What a scan needs from every row group. */
typedef struct pq_rg_plan {
  const pq_schema *schema;
  int nfield;                /* schema fields */
  const uint8_t *need;       /* need[f]: 1 projected, 2 filter only, 3 both;
                             ** | 4: a TIMESTAMP as its stored integer;
                             ** | 8: projected lazily (scan_spec.lazy):
                             ** pq_rg_decode leaves it to pq_rg_emit_field */
  const scan_spec *spec;     /* predicates: their col is a schema field or
                             ** the filename column (== nfield) */
  const char *filename;      /* for filename-column predicates */
  int64_t row0;              /* the row group's first row in the dataset,
                             ** when spec->rows names the rows wanted */
} pq_rg_plan;

/* Tell the kernel the column chunks plan needs of row group rg will be
** read soon (POSIX_FADV_WILLNEED), so a cold file's reads of the next row
** group overlap the decoding of this one. A hint: nothing fails. */
void pq_rg_willneed(pq_file *f, int rg, const pq_rg_plan *plan);

/* Decode row group rg of file f per plan. Errors land in out->err. */
void pq_rg_decode(pq_file *f, int fileno, int rg, const pq_rg_plan *plan,
                  pq_codec_ctx *codec, pq_rg_data *out);
void pq_rg_free(pq_rg_data *d);
/* Ready projected field fi of row group d (decoded by pq_rg_decode with
** this plan, not skipped) for emitting: decoded for the rows its
** selection keeps, or reconverted. Errors land in *err. */
int pq_rg_emit_field(pq_file *f, const pq_rg_plan *plan, int fi, pq_codec_ctx *codec,
                     pq_rg_data *d, col_error *err);
/* Is projected field fi of d ready to emit (nothing left for
** pq_rg_emit_field)? */
int pq_rg_field_ready(const pq_rg_plan *plan, int fi, const pq_rg_data *d);

/* May row group rg of f hold a row matching every predicate? (min/max
** statistics, then bloom filters and dictionaries; 0 only when provably
** not). The reason is counted in stats. */
int pq_rg_may_match(pq_file *f, int rg, const pq_rg_plan *plan,
                    pq_codec_ctx *codec, scan_stats *stats);
/* The min/max part alone (no I/O): for estimates at planning time. */
int pq_rg_stats_may_match(pq_file *f, int rg, const pq_rg_plan *plan);
/* May leaf column `leaf` of row group R hold a NULL, as its schema and
** statistics tell? (1 when they do not.) */
int pq_chunk_may_hold_null(const pq_row_group *R, const pq_schema *s, int leaf);
/* May row group rg hold a row within the scan's bound (scan_spec.bound,
** reader/bound.h), taken as predicate `bound` (col_bound_pred)? NULLs
** count as within it when nulls_first. 1 when statistics cannot tell. */
int pq_rg_bound_may_match(pq_file *f, int rg, const pq_rg_plan *plan,
                          const scan_pred *bound, int nulls_first);

/* The leaf column (and so the column chunk of row group R) a predicate on a
** flat field reads, or -1 for the filename column, nested fields and
** chunks the row group lacks: those are never pruned. */
static inline int pq_pred_leaf(const pq_schema *s, const pq_row_group *R,
                               const scan_pred *pr){
  if( pr->col<0 || pr->col>=s->nfield || s->fields[pr->col].nested ) return -1;
  int leaf = s->nodes[s->fields[pr->col].node].leaf;
  return leaf>=0 && leaf<R->n_columns ? leaf : -1;
}

/* A statistic's bytes as the value the column gives (0: unusable). buf must
** hold cap >= 128 bytes for formatted text. */
int pq_stat_value(const pq_conv *cv, const pq_bytes *b, pred_value *out,
                  char *buf, size_t cap);

/* The chunk's min/max statistics as the values the column gives: bit 1 of
** the result when *mn was decoded, bit 2 for *mx (bmn, bmx hold 128 bytes).
** min_value/max_value first, else the deprecated min/max where their
** signed order is the conversion's. exact: use only statistics not marked
** inexact (truncated), as an answer needs; a bound for pruning need not be. */
int pq_chunk_bounds(const pq_column_chunk *cc, const pq_conv *cv, int exact,
                    pred_value *mn, char *bmn, pred_value *mx, char *bmx);

/* page_index.c: rows of the row group in pages whose ColumnIndex min/max
** admit every predicate. Returns a malloc'd mask of R->num_rows bytes
** (1 = may match) into *allowed, or leaves it NULL when no page can be
** excluded; counts excluded pages in stats. */
int pq_page_index_mask(pq_file *f, int rg, const pq_rg_plan *plan,
                       uint8_t **allowed, scan_stats *stats, col_error *err);

/* prune.c: does the chunk's dictionary / bloom filter prove that no row
** satisfies p? */
int pq_chunk_dict_excludes(pq_file *f, const pq_column_chunk *cc,
                           const pq_leaf_desc *leaf, const scan_pred *p,
                           pq_codec_ctx *codec, scan_stats *stats);
int pq_chunk_bloom_excludes(pq_file *f, const pq_column_chunk *cc,
                            const pq_leaf_desc *leaf, const scan_pred *p,
                            scan_stats *stats);

#endif
