/*
** summary.c — what the footers say of a column, for answering count(*),
** count(col), min(col) and max(col) without reading a page.
**
** The answer must be SQLite's over the values the scan would give, so a
** fact is reported only when it is exact:
**
**   NULLs    every row group's null_count (a REQUIRED column has none),
**            and only for conversions where no non-null value becomes NULL
**            (floats turn NaN into NULL, which null_count does not count).
**   min/max  every row group that holds a non-null value has exact
**            statistics (is_*_value_exact not false) whose order is the
**            order SQLite compares the converted values in: integers (and
**            booleans, 0/1), unsigned ones only from min_value/max_value
**            (the legacy fields were written in signed order) and only
**            below 2^63 (above, SQLite sees a REAL); dates and timestamps,
**            whose ISO text sorts like time for years 0000-9999 only; text
**            and blobs only under the file's TYPE_ORDER (unsigned bytes, as
**            SQLite's BINARY memcmp). Floats (NaN, -0.0), decimals (REAL or
**            text of another order), times and INT96 are never used.
**            A row group whose values are all NULL has no min/max and is
**            skipped; with none left, min and max are NULL.
*/
#include "summary.h"
#include "rowgroup.h"
#include <string.h>

/* May a non-null physical value of this conversion come out as NULL? */
static int may_become_null(const pq_conv *cv){
  switch( cv->kind ){
    case PQC_BOOL: case PQC_INT32: case PQC_UINT32: case PQC_INT64:
    case PQC_UINT64: case PQC_DATE: case PQC_TIME: case PQC_TIMESTAMP:
    case PQC_INT96: case PQC_TEXT: case PQC_BLOB: case PQC_UUID:
      return 0;
    default:
      return 1;   /* NaN; decimals too wide to convert fail the scan */
  }
}

/* Do statistics of this leaf order the way SQLite orders its values? */
static int range_usable(const pq_file_meta *m, int leaf, const pq_conv *cv){
  switch( cv->kind ){
    case PQC_BOOL: case PQC_INT32: case PQC_UINT32: case PQC_INT64:
    case PQC_UINT64: case PQC_DATE: case PQC_TIMESTAMP:
      return 1;
    case PQC_TEXT: case PQC_BLOB:
      return leaf < m->n_column_orders && m->column_orders[leaf]==1;
    default:
      return 0;
  }
}

/* ISO text of a year outside 0000-9999 starts with a sign and sorts wrong. */
static int value_usable(const pq_conv *cv, const pred_value *v){
  if( cv->kind!=PQC_DATE && cv->kind!=PQC_TIMESTAMP ) return 1;
  return v->n>0 && v->p[0]>='0' && v->p[0]<='9';
}

/* The exact min and max of one chunk's non-null values; 0 when unknown.
** (range_usable has already kept only conversions whose deprecated
** signed-order fields pq_chunk_bounds may fall back to.) */
static int chunk_range(const pq_column_chunk *cc, const pq_conv *cv,
                       pred_value *mn, pred_value *mx, char *b1, char *b2){
  if( pq_chunk_bounds(cc, cv, 1, mn, b1, mx, b2)!=3 ) return 0;
  if( !value_usable(cv, mn) || !value_usable(cv, mx) ) return 0;
  return pred_value_compare(mn, mx, COLL_BINARY) <= 0;
}

/* Keep v as *slot when it is beyond it (sign -1: smaller, 1: larger); formatted text is
** copied into buf, which the summary owns. */
static void keep(pred_value *slot, char *buf, const pred_value *v,
                 const char *vbuf, int sign){
  if( slot->type!=CV_NULL && sign*pred_value_compare(v, slot, COLL_BINARY) <= 0 ) return;
  *slot = *v;
  if( v->p==vbuf ){
    memcpy(buf, vbuf, v->n);
    slot->p = buf;
  }
}

void pq_summarize(pq_file *const *files, const pq_schema *schemas, int nfile,
                  int col, col_summary *out){
  memset(out, 0, sizeof(*out));
  for(int fi=0; fi<nfile; fi++){
    const pq_file_meta *m = &files[fi]->meta;
    for(int r=0; r<m->n_row_groups; r++) out->rows += m->row_groups[r].num_rows;
  }
  if( nfile==0 || col<0 || col>=schemas[0].nfield ) return;
  out->has_nulls = out->has_range = 1;
  for(int fi=0; fi<nfile && (out->has_nulls || out->has_range); fi++){
    const pq_schema *s = &schemas[fi];
    const pq_file_meta *m = &files[fi]->meta;
    int leaf = s->nodes[s->fields[col].node].leaf;
    if( s->fields[col].nested || leaf<0 ){ out->has_nulls = out->has_range = 0; break; }
    const pq_leaf_desc *L = &s->leaves[leaf];
    if( may_become_null(&L->conv) ) out->has_nulls = 0;
    if( !range_usable(m, leaf, &L->conv) ) out->has_range = 0;
    for(int r=0; r<m->n_row_groups && (out->has_nulls || out->has_range); r++){
      const pq_row_group *R = &m->row_groups[r];
      if( R->num_rows==0 ) continue;
      if( leaf>=R->n_columns ){ out->has_nulls = out->has_range = 0; break; }
      const pq_column_chunk *cc = &R->columns[leaf];
      const pq_statistics *st = cc->has_meta_data && cc->meta_data.has_statistics
                              ? &cc->meta_data.statistics : 0;
      int64_t nulls = -1;
      if( L->max_def==0 ) nulls = 0;
      else if( st && st->has_null_count && st->null_count>=0 && st->null_count<=R->num_rows ){
        nulls = st->null_count;
      }
      if( nulls<0 ) out->has_nulls = 0;
      else out->nulls += nulls;
      if( !out->has_range || nulls==R->num_rows ) continue;
      pred_value mn, mx;
      char b1[128], b2[128];
      if( !chunk_range(cc, &L->conv, &mn, &mx, b1, b2) ){ out->has_range = 0; continue; }
      keep(&out->min, out->buf[0], &mn, b1, -1);
      keep(&out->max, out->buf[1], &mx, b2, 1);
    }
  }
  if( !out->has_nulls ) out->nulls = 0;
  if( !out->has_range ){
    memset(&out->min, 0, sizeof(out->min));
    memset(&out->max, 0, sizeof(out->max));
  }
}
