/*
** summary.c — a zero-key group by answered from metadata (see summary.h).
*/
#include "summary.h"
#include <stdlib.h>
#include <string.h>

/* The value one aggregate takes from its column's summary; 0 when the
** summary does not know it. */
static int agg_from_summary(const agg_item *it, const col_summary *cs,
                            pred_value *out){
  memset(out, 0, sizeof(*out));
  switch( it->kind ){
    case AGG_COUNT_STAR:
      out->type = CV_INT; out->i = cs->rows;
      return 1;
    case AGG_COUNT:
      if( !cs->has_nulls ) return 0;
      out->type = CV_INT; out->i = cs->rows - cs->nulls;
      return 1;
    case AGG_MIN: case AGG_MAX:
      if( !cs->has_range ) return 0;
      *out = it->kind==AGG_MIN ? cs->min : cs->max;
      if( out->type==CV_TEXT || out->type==CV_BLOB ){
        char *p = malloc(out->n ? out->n : 1);
        if( p==0 ){ out->type = CV_NULL; return 0; }
        if( out->n ) memcpy(p, out->p, out->n);
        out->p = p;
      }
      return 1;
    default:
      return 0;
  }
}

void groupby_summary_free(pred_value *row, int n){
  if( row==0 ) return;
  for(int i=0; i<n; i++){
    if( row[i].type==CV_TEXT || row[i].type==CV_BLOB ) free((void*)row[i].p);
  }
  free(row);
}

int groupby_from_summary(const groupby *gb, col_dataset *ds, pred_value **row){
  *row = 0;
  const agg_item_list *al = groupby_aggs(gb);
  int n = al->n;
  if( ds->m->summary==0 || groupby_keys(gb)->n>0 || n<=0 ) return 0;
  for(int i=0; i<n; i++){
    const agg_item *it = &al->items[i];
    if( it->distinct || it->sep || it->nob ) return 0;
    if( it->kind!=AGG_COUNT_STAR && it->src_col<0 ) return 0;
    if( it->kind!=AGG_COUNT_STAR && it->kind!=AGG_COUNT
        && it->kind!=AGG_MIN && it->kind!=AGG_MAX ) return 0;
  }
  pred_value *r = calloc((size_t)n, sizeof(pred_value));
  col_summary *cs = malloc(sizeof(*cs));
  if( r==0 || cs==0 ){ free(r); free(cs); return 0; }
  int ok = 1;
  for(int i=0; i<n && ok; i++){
    ds->m->summary(ds, al->items[i].src_col, cs);
    ok = agg_from_summary(&al->items[i], cs, &r[i]);
  }
  free(cs);
  if( !ok ){ groupby_summary_free(r, n); return 0; }
  *row = r;
  return 1;
}
