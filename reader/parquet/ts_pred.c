/*
** ts_pred.c — timestamp and date comparisons on the stored integers; see
** ts_pred.h.
*/
#include "ts_pred.h"
#include "value.h"
#include "meta.h"
#include <string.h>

/* Day counts of 0000-01-01 and 10000-01-01 since 1970-01-01. */
#define TS_DAY_LO (-719528LL)
#define TS_DAY_HI 2932897LL

int pq_ts_pred_ok(const scan_pred *p, const pq_conv *conv){
  int ts = conv->kind==PQC_TIMESTAMP && conv->phys==PQ_INT64
        && conv->unit>=PQ_UNIT_MILLIS && conv->unit<=PQ_UNIT_NANOS;
  int date = conv->kind==PQC_DATE && conv->phys==PQ_INT32;
  if( !ts && !date ) return 0;
  if( p->coll!=COLL_BINARY || p->v.type!=CV_TEXT ) return 0;
  switch( p->op ){
    case PRED_EQ: case PRED_NE: case PRED_LT: case PRED_LE: case PRED_GT: case PRED_GE:
      return 1;
    default:
      return 0;
  }
}

int pq_ts_preds_ok(const scan_spec *spec, int field, const pq_conv *conv){
  for(int p=0; p<spec->npred; p++){
    const scan_pred *pr = &spec->preds[p];
    if( pr->exact && pr->col==field && !pq_ts_pred_ok(pr, conv) ) return 0;
  }
  return 1;
}

/* The reader's text of integer x, compared with L under BINARY. */
static int ts_text_cmp(const pq_ts_pred *t, int64_t x){
  char buf[PQ_TEXT_MAX];
  int n = t->kind==PQC_DATE ? pq_format_date(x, buf) : pq_format_timestamp(x, t->unit, buf);
  return pred_text_compare(buf, (uint32_t)n, t->p->v.p, t->p->v.n, COLL_BINARY);
}

/* The first x in [lo, hi) whose text is at least L (strict: more than
** L), or hi: the texts ascend with x there. */
static int64_t ts_first(const pq_ts_pred *t, int strict){
  int64_t a = t->lo, b = t->hi;
  while( a<b ){
    int64_t m = a + (int64_t)(((uint64_t)b - (uint64_t)a)/2);   /* b - a may pass INT64_MAX */
    int c = ts_text_cmp(t, m);
    if( strict ? c>0 : c>=0 ) b = m; else a = m + 1;
  }
  return a;
}

void pq_ts_pred_init(pq_ts_pred *t, const scan_pred *p, const pq_conv *conv){
  memset(t, 0, sizeof(*t));
  t->p = p;
  t->kind = conv->kind;
  t->unit = conv->unit;
  if( t->kind==PQC_DATE ){
    t->lo = TS_DAY_LO; t->hi = TS_DAY_HI;
  }else{
    col_ts_plain_range(t->unit, &t->lo, &t->hi);   /* PQ_UNIT_* are COL_TS_* (asserted in scan.c) */
  }
  t->x0 = ts_first(t, p->op==PRED_GT || p->op==PRED_LE);
  t->eq = (p->op==PRED_EQ || p->op==PRED_NE) && t->x0<t->hi && ts_text_cmp(t, t->x0)==0;
}

/* Does integer x (not NULL) pass? */
static inline int ts_passes(const pq_ts_pred *t, int64_t x){
  if( x<t->lo || x>=t->hi ){
    /* outside years 0000-9999: its text, as SQLite compares it */
    return pred_op_holds(t->p->op, ts_text_cmp(t, x));
  }
  switch( t->p->op ){
    case PRED_EQ: return t->eq && x==t->x0;
    case PRED_NE: return !t->eq || x!=t->x0;
    case PRED_LT: case PRED_LE: return x<t->x0;
    default:      return x>=t->x0;          /* GE, GT */
  }
}

uint32_t pq_ts_pred_filter(const pq_ts_pred *t, const col_vector *v, uint32_t *sel,
                           uint32_t nsel, int all){
  uint32_t m = 0;
  if( v->form==CV_FLAT && v->tags==0 && v->type==CV_INT && t->p->op!=PRED_EQ && t->p->op!=PRED_NE ){
    /* the common case, a range: integers alone unless one falls outside */
    const int64_t *x = v->i64;
    int64_t x0 = t->x0, lo = t->lo, hi = t->hi;
    int below = t->p->op==PRED_LT || t->p->op==PRED_LE;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = all ? k : sel[k];
      int64_t y = x[r];
      int pass = (y>=lo && y<hi) ? ((y<x0)==below) : ts_passes(t, y);
      sel[m] = r;
      m += (uint32_t)pass;
    }
    return m;
  }
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = all ? k : sel[k];
    if( cv_tag(v, r)!=CV_INT ) continue;     /* NULL fails */
    if( ts_passes(t, cv_int(v, r)) ) sel[m++] = r;
  }
  return m;
}
