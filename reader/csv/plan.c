/*
** plan.c — from a scan_spec to what a CSV scan decodes and emits.
**
** The read set is the projection plus the columns of exact predicates;
** inexact predicates are left to SQLite (they cost a decode and prune
** nothing here: CSV has no statistics). Exact predicates run on the batch's
** vectors through pred_filter, leaving the survivors in the selection.
*/
#include "csv_impl.h"
#include <stdlib.h>
#include <string.h>

void csv_plan_free(csv_plan *pl){
  free(pl->readcols);
  free(pl->slot);
  free(pl->proj);
  memset(pl, 0, sizeof(*pl));
}

int csv_plan_init(csv_plan *pl, const csv_ds *ds, const scan_spec *spec,
                  col_error *err){
  int nschema = ds->base.schema.n;
  memset(pl, 0, sizeof(*pl));
  pl->slot = malloc(sizeof(int)*(size_t)(nschema+1));
  pl->readcols = malloc(sizeof(int)*(size_t)(nschema+1));
  pl->proj = malloc(sizeof(int)*(size_t)(spec->nproj+1));
  if( !pl->slot || !pl->readcols || !pl->proj ) goto plan_nomem;
  for(int i=0; i<nschema; i++) pl->slot[i] = -1;
  for(int i=0; i<spec->nproj; i++){
    int c = spec->proj[i];
    if( c<0 || c>=nschema ){
      col_error_set(err, COL_ERROR, "csv: projected column %d out of range", c);
      goto plan_error;
    }
    pl->slot[c] = 0;
    pl->proj[i] = c;
  }
  pl->nproj = spec->nproj;
  for(int i=0; i<spec->npred; i++){
    const scan_pred *p = &spec->preds[i];
    if( p->col<0 || p->col>=nschema ){
      col_error_set(err, COL_ERROR, "csv: predicate column %d out of range", p->col);
      goto plan_error;
    }
    if( p->exact ) pl->slot[p->col] = 0;
  }
  pl->preds = spec->preds;
  pl->npred = spec->npred;
  for(int c=0; c<nschema; c++){
    if( pl->slot[c]<0 ) continue;
    if( c==ds->filename_col ){ pl->slot[c] = -2; continue; }
    pl->slot[c] = pl->nread;
    pl->readcols[pl->nread++] = c;
  }
  pl->max_rows = spec->max_rows;
  pl->batch = spec->batch_size>0 ? (uint32_t)spec->batch_size : DEFAULT_BATCH_SIZE;
  if( pl->batch>(1u<<20) ) pl->batch = 1u<<20;
  /* A wide read set gets short batches: SQLite reads a batch row by row
  ** across all its columns right after the builder wrote it, which is
  ** cheap only while the batch's arrays are still in the L2 cache (2048
  ** rows of 105 columns are 2.5 MB: xColumn stalled on cache misses). */
  if( pl->nread>0 ){
    uint32_t fit = CSV_BATCH_BYTES / ((uint32_t)pl->nread*CSV_VALUE_BYTES);
    if( fit<CSV_BATCH_MIN ) fit = CSV_BATCH_MIN;
    if( pl->batch>fit ) pl->batch = fit;
  }
  return COL_OK;
plan_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
plan_error:
  csv_plan_free(pl);
  return err->code;
}

static void plan_vector(const csv_plan *pl, const csv_builder *b, int col,
                        uint32_t from, uint32_t n, const cv_str *fname,
                        col_vector *v){
  int s = pl->slot[col];
  if( s==-2 ){
    memset(v, 0, sizeof(*v));
    v->type = CV_TEXT;
    v->form = CV_CONST;
    v->n = n;
    v->str = fname;
  }else{
    csv_builder_vector(b, s, from, n, v);
  }
}

void csv_plan_batch(const csv_plan *pl, const csv_builder *b, uint32_t from,
                    uint32_t n, const cv_str *fname, col_vector *vecs,
                    col_vector *predvecs, uint32_t *sel, col_arena *scratch,
                    col_batch *out){
  for(int i=0; i<pl->nproj; i++){
    plan_vector(pl, b, pl->proj[i], from, n, fname, &vecs[i]);
  }
  out->n = n;
  out->nsel = n;
  out->sel = 0;
  out->ncols = pl->nproj;
  out->cols = vecs;
  int any = 0;
  for(int i=0; i<pl->npred; i++) any |= pl->preds[i].exact;
  if( !any || n==0 ) return;
  uint32_t nsel = n;
  cv_iota(sel, 0, n);
  col_arena_reset(scratch);
  for(int i=0; i<pl->npred && nsel>0; i++){
    const scan_pred *p = &pl->preds[i];
    if( !p->exact ) continue;
    plan_vector(pl, b, p->col, from, n, fname, predvecs);
    nsel = pred_filter(p, predvecs, sel, nsel, scratch);
  }
  out->nsel = nsel;
  out->sel = nsel==n ? 0 : sel;
}
