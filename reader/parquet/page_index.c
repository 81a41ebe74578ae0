/*
** page_index.c — skipping pages through the ColumnIndex and OffsetIndex.
**
** Writers that store a page index give, per page of a column chunk, min and
** max values, whether the page is all nulls, and (OffsetIndex) the first row
** of each page. A page whose range cannot satisfy a predicate holds no
** matching row, so the rows it covers are dropped from the selection before
** any column is decoded, and pages of other columns covering only dropped
** rows are never decompressed (column.c's row mask). Dropping rows that
** provably fail is right for exact and inexact predicates alike.
*/
#include "rowgroup.h"
#include <stdlib.h>
#include <string.h>

/* Read and decode the indexes of one chunk; 0 when absent or unusable. */
static int read_indexes(pq_file *f, const pq_column_chunk *cc,
                        pq_column_index *ci, pq_offset_index *oi, uint8_t **buf){
  col_error err;
  col_error_clear(&err);
  memset(ci, 0, sizeof(*ci));
  memset(oi, 0, sizeof(*oi));
  if( !cc->has_column_index || !cc->has_offset_index ) return 0;
  if( cc->column_index_length<=0 || cc->offset_index_length<=0
   || cc->column_index_length > (1<<26) || cc->offset_index_length > (1<<26) ) return 0;
  uint8_t *a = malloc((size_t)cc->column_index_length);
  uint8_t *b = malloc((size_t)cc->offset_index_length);
  int ok = a && b
    && pq_file_read(f, cc->column_index_offset, a, (size_t)cc->column_index_length, &err)==COL_OK
    && pq_file_read(f, cc->offset_index_offset, b, (size_t)cc->offset_index_length, &err)==COL_OK
    && pq_column_index_decode(a, (size_t)cc->column_index_length, ci, &err)==COL_OK;
  if( ok && pq_offset_index_decode(b, (size_t)cc->offset_index_length, oi, &err)!=COL_OK ){
    pq_column_index_free(ci);
    ok = 0;
  }
  free(b);
  if( !ok ){ free(a); return 0; }
  if( ci->n_pages!=oi->n_page_locations ){
    pq_column_index_free(ci);
    pq_offset_index_free(oi);
    free(a);
    return 0;
  }
  *buf = a;   /* min/max bytes point into it */
  return 1;
}

int pq_page_index_mask(pq_file *f, int rg, const pq_rg_plan *plan,
                       uint8_t **allowed, scan_stats *stats, col_error *err){
  const scan_spec *spec = plan->spec;
  const pq_schema *s = plan->schema;
  const pq_row_group *R = &f->meta.row_groups[rg];
  uint8_t *mask = 0;
  *allowed = 0;
  for(int p=0; p<spec->npred; p++){
    const scan_pred *pr = &spec->preds[p];
    int leaf = pq_pred_leaf(s, R, pr);
    if( leaf<0 ) continue;
    pq_column_index ci;
    pq_offset_index oi;
    uint8_t *buf = 0;
    if( !read_indexes(f, &R->columns[leaf], &ci, &oi, &buf) ) continue;
    const pq_conv *cv = &s->leaves[leaf].conv;
    for(int k=0; k<ci.n_pages; k++){
      int64_t from = oi.page_locations[k].first_row_index;
      int64_t to = k+1<oi.n_page_locations ? oi.page_locations[k+1].first_row_index : R->num_rows;
      if( from<0 || to>R->num_rows || from>=to ) continue;
      pred_value mn, mx, *pmn = 0, *pmx = 0;
      char bmn[128], bmx[128];
      int has_values = !ci.null_pages[k];
      if( has_values ){
        if( pq_stat_value(cv, &ci.min_values[k], &mn, bmn, sizeof(bmn)) ) pmn = &mn;
        if( pq_stat_value(cv, &ci.max_values[k], &mx, bmx, sizeof(bmx)) ) pmx = &mx;
      }
      int has_nulls = s->leaves[leaf].max_def>0;
      if( ci.has_null_counts ) has_nulls = ci.null_counts[k]>0;
      if( pred_may_match_range(pr, pmn, pmx, has_nulls, has_values) ) continue;
      if( !mask ){
        mask = malloc((size_t)R->num_rows);
        if( !mask ){
          free(buf); pq_column_index_free(&ci); pq_offset_index_free(&oi);
          return col_error_set(err, COL_ENOMEM, "out of memory");
        }
        memset(mask, 1, (size_t)R->num_rows);
      }
      int any = 0;
      for(int64_t r=from; r<to; r++){ any |= mask[r]; mask[r] = 0; }
      if( any ) stats->pages_pruned++;
    }
    free(buf);
    pq_column_index_free(&ci);
    pq_offset_index_free(&oi);
  }
  *allowed = mask;
  return COL_OK;
}
