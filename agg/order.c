/*
** order.c — ORDER BY ... LIMIT over a group by's output; see order.h.
**
** k rows out of n: a heap of the k best rows seen so far, its worst on top,
** so each further row costs one comparison with the top unless it belongs
** in the answer (O(n log k)). Without a useful k (k >= n) the rows are
** merge sorted. Either way the comparison breaks ties by row number, which
** makes the order total and the heap's answer the stable sort's prefix.
*/
#include "order.h"
#include "value.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ord_ctx {
  const groupby *gb;
  const groupby_sort_term *terms;
  int nterm;
  col_error *err;         /* the first value error, if any */
} ord_ctx;

/* <0 when row a comes before row b. */
static int ord_compare(ord_ctx *o, uint32_t a, uint32_t b){
  for(int i=0; i<o->nterm; i++){
    pred_value va, vb;
    char ba[64], bb[64];
    if( groupby_value(o->gb, a, o->terms[i].col, &va, ba, o->err)
     || groupby_value(o->gb, b, o->terms[i].col, &vb, bb, o->err) ){
      return a<b ? -1 : 1;   /* the caller sees o->err and stops */
    }
    if( va.type==CV_REAL && isnan(va.f) ) va.type = CV_NULL;
    if( vb.type==CV_REAL && isnan(vb.f) ) vb.type = CV_NULL;
    int c = agg_value_compare(&va, &vb);
    if( c ) return o->terms[i].desc ? -c : c;
  }
  return a<b ? -1 : a>b;
}

/* Stable bottom-up merge sort of r[0..n) using tmp[0..n). */
static void ord_sort(ord_ctx *o, uint32_t *r, uint32_t *tmp, uint32_t n){
  uint32_t *src = r, *dst = tmp;
  for(uint32_t w=1; w<n; w*=2){
    for(uint32_t lo=0; lo<n; lo+=2*w){
      uint32_t mid = lo+w<n ? lo+w : n, hi = lo+2*w<n ? lo+2*w : n;
      uint32_t i = lo, j = mid, k = lo;
      while( i<mid && j<hi ) dst[k++] = ord_compare(o, src[j], src[i])<0 ? src[j++] : src[i++];
      while( i<mid ) dst[k++] = src[i++];
      while( j<hi ) dst[k++] = src[j++];
    }
    uint32_t *t = src; src = dst; dst = t;
    if( o->err->code ) return;
  }
  if( src!=r ) memcpy(r, src, (size_t)n*4);
}

/* Restore the heap (worst row on top) below position i. */
static void ord_sift_down(ord_ctx *o, uint32_t *h, uint32_t n, uint32_t i){
  for(;;){
    uint32_t l = 2*i+1, w = i;
    if( l<n && ord_compare(o, h[l], h[w])>0 ) w = l;
    if( l+1<n && ord_compare(o, h[l+1], h[w])>0 ) w = l+1;
    if( w==i ) return;
    uint32_t t = h[i]; h[i] = h[w]; h[w] = t;
    i = w;
  }
}

int groupby_order(const groupby *gb, const groupby_sort_term *terms, int nterm,
                  uint64_t k, uint32_t **rows, uint32_t *nrows, col_error *err){
  uint32_t n = groupby_ngroups(gb);
  uint32_t m = k < n ? (uint32_t)k : n;
  ord_ctx o = { gb, terms, nterm, err };
  uint32_t *r = malloc(((size_t)m + 1)*4);
  uint32_t *tmp = malloc(((size_t)m + 1)*4);
  *rows = 0; *nrows = 0;
  if( r==0 || tmp==0 ){
    free(r); free(tmp);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory ordering the output");
  }
  if( m==n ){
    for(uint32_t i=0; i<n; i++) r[i] = i;
  }else if( m>0 ){
    /* heap of the m best rows so far; rows come in increasing number, so a
    ** row that ties with the top never displaces it */
    for(uint32_t i=0; i<m; i++){
      r[i] = i;
      for(uint32_t c=i; c>0; ){
        uint32_t p = (c-1)/2;
        if( ord_compare(&o, r[c], r[p])<=0 ) break;
        uint32_t t = r[c]; r[c] = r[p]; r[p] = t;
        c = p;
      }
    }
    for(uint32_t i=m; i<n && err->code==COL_OK; i++){
      if( ord_compare(&o, i, r[0])<0 ){
        r[0] = i;
        ord_sift_down(&o, r, m, 0);
      }
    }
  }
  if( err->code==COL_OK ) ord_sort(&o, r, tmp, m);
  free(tmp);
  if( err->code ){ free(r); return err->code; }
  *rows = r; *nrows = m;
  return COL_OK;
}
