/*
** convert.h — physical values of a flat column into a SQLite-valued vector.
**
** A dictionary-encoded chunk becomes a CV_DICT vector whose dictionary was
** converted once (a date column of 30 distinct days formats 30 dates, not a
** million); a plain chunk becomes a CV_FLAT vector, aliasing the decoded
** int64/double arrays when no conversion is needed.
*/
#ifndef COLUMNAR_PARQUET_CONVERT_H
#define COLUMNAR_PARQUET_CONVERT_H

#include "column.h"

/* A converted column of one row group. Owns what its vectors point at
** (besides the chunk's page buffers, which must outlive it). */
typedef struct pq_colvec {
  col_vector v;              /* rows of the row group */
  col_vector dict;           /* dictionary of v when v.form==CV_DICT */
  void *mem[8];              /* arrays to free (pq_colvec_alloc's) */
  int nmem;
  col_pool *pool;            /* where they come from (the chunk's pool) */
  col_arena arena;           /* formatted text */
} pq_colvec;

/* rowmask (may be NULL): rows that will be read; values of other rows may
** be left unconverted (formatting text is the expensive part). */
int pq_convert_flat(pq_chunk *c, const pq_conv *conv, int64_t rows,
                    const uint8_t *rowmask, pq_colvec *out, col_error *err);
void pq_colvec_free(pq_colvec *cv);
/* n bytes owned by o (freed with it), from o->pool; NULL on OOM. */
void *pq_colvec_alloc(pq_colvec *o, size_t n);

/* Convert n physical values src[0..n) into a flat vector out (tags
** allocated only when some value is NULL-like: NaN, or REAL among INTEGER).
** Exposed for nested.c and the statistics code. */
int pq_convert_values(const pq_chunk *c, const pq_values *src, int64_t n,
                      const pq_conv *conv, const uint8_t *want,
                      pq_colvec *owner, col_vector *out, col_error *err);

#endif
