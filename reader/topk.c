/*
** topk.c — the first k rows of a scan under an ORDER BY; see topk.h.
*/
#include "topk.h"
#include "predicate.h"
#include <stdlib.h>
#include <string.h>

struct topk {
  int nterm;
  topk_term *terms;
  uint32_t k;             /* rows kept at most */
  uint32_t n;             /* rows kept */
  int64_t *row;           /* per kept row: its number */
  pred_value *val;        /* per kept row: nterm values; TEXT/BLOB bytes are
                          ** malloc'd copies (p NULL when empty) */
  uint32_t *heap;         /* entries (indexes into row/val), the row that
                          ** sorts last at heap[0] */
  int64_t *sorted;        /* topk_rows' answer */
  uint64_t offered;
};

int topk_new(const topk_term *terms, int nterm, uint32_t k, topk **out){
  *out = 0;
  if( nterm<1 || k<1 ) return COL_ERROR;
  topk *t = calloc(1, sizeof(*t));
  if( t==0 ) return COL_ENOMEM;
  t->nterm = nterm;
  t->k = k;
  t->terms = malloc(sizeof(topk_term)*(size_t)nterm);
  if( t->terms==0 ){ free(t); return COL_ENOMEM; }
  memcpy(t->terms, terms, sizeof(topk_term)*(size_t)nterm);
  *out = t;
  return COL_OK;
}

static void topk_drop_values(topk *t, uint32_t e){
  pred_value *v = &t->val[(size_t)e*(size_t)t->nterm];
  for(int i=0; i<t->nterm; i++){
    if( v[i].type==CV_TEXT || v[i].type==CV_BLOB ) free((void*)v[i].p);
    v[i].p = 0;
  }
}

void topk_free(topk *t){
  if( t==0 ) return;
  for(uint32_t e=0; e<t->n; e++) topk_drop_values(t, e);
  free(t->terms); free(t->row); free(t->val); free(t->heap); free(t->sorted);
  free(t);
}

/* Row i of v as SQLite receives it (a NaN is NULL); TEXT/BLOB point into v. */
static pred_value topk_value(const col_vector *v, uint32_t i){
  pred_value x = pred_value_of(v, i);
  if( x.type==CV_REAL && x.f!=x.f ) x.type = CV_NULL;
  return x;
}

/* <0 when values a (row ra) sort before values b (row rb). */
static int topk_cmp(const topk *t, const pred_value *a, int64_t ra,
                    const pred_value *b, int64_t rb){
  for(int i=0; i<t->nterm; i++){
    int c = pred_value_compare(&a[i], &b[i], COLL_BINARY);
    if( c ) return t->terms[i].desc ? -c : c;
  }
  return ra<rb ? -1 : ra>rb;
}

static int topk_entry_cmp(const topk *t, uint32_t x, uint32_t y){
  size_t nt = (size_t)t->nterm;
  return topk_cmp(t, &t->val[x*nt], t->row[x], &t->val[y*nt], t->row[y]);
}

static void topk_sift_down(topk *t, uint32_t at){
  uint32_t *h = t->heap;
  for(;;){
    uint32_t l = 2*at + 1, big = at;
    if( l < t->n && topk_entry_cmp(t, h[l], h[big]) > 0 ) big = l;
    if( l+1 < t->n && topk_entry_cmp(t, h[l+1], h[big]) > 0 ) big = l+1;
    if( big==at ) return;
    uint32_t tmp = h[at]; h[at] = h[big]; h[big] = tmp;
    at = big;
  }
}

static void topk_sift_up(topk *t, uint32_t at){
  uint32_t *h = t->heap;
  while( at>0 ){
    uint32_t up = (at-1)/2;
    if( topk_entry_cmp(t, h[at], h[up]) <= 0 ) return;
    uint32_t tmp = h[at]; h[at] = h[up]; h[up] = tmp;
    at = up;
  }
}

/* Store x (nterm values, row r) as entry e, copying TEXT/BLOB bytes. */
static int topk_store(topk *t, uint32_t e, const pred_value *x, int64_t r){
  pred_value *v = &t->val[(size_t)e*(size_t)t->nterm];
  for(int i=0; i<t->nterm; i++){
    v[i] = x[i];
    if( x[i].type==CV_TEXT || x[i].type==CV_BLOB ){
      char *cp = 0;
      if( x[i].n ){
        if( (cp = malloc(x[i].n))==0 ){
          for(int j=0; j<i; j++) if( v[j].type==CV_TEXT || v[j].type==CV_BLOB ) free((void*)v[j].p);
          for(int j=0; j<t->nterm; j++) v[j].type = CV_NULL;
          return COL_ENOMEM;
        }
        memcpy(cp, x[i].p, x[i].n);
      }
      v[i].p = cp;
    }
  }
  t->row[e] = r;
  return COL_OK;
}

/* The arrays grow as rows arrive: k may be far more rows than there are. */
static int topk_grow(topk *t){
  uint32_t cap = t->n ? t->n*2 : 16;
  if( cap > t->k ) cap = t->k;
  int64_t *row = realloc(t->row, sizeof(int64_t)*cap);
  if( row ) t->row = row;
  pred_value *val = realloc(t->val, sizeof(pred_value)*(size_t)cap*(size_t)t->nterm);
  if( val ) t->val = val;
  uint32_t *heap = realloc(t->heap, sizeof(uint32_t)*cap);
  if( heap ) t->heap = heap;
  return row && val && heap ? COL_OK : COL_ENOMEM;
}

int topk_add(topk *t, const col_batch *b){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  pred_value x[16], *xv = x;
  if( t->nterm > 16 && (xv = malloc(sizeof(pred_value)*(size_t)t->nterm))==0 ) return COL_ENOMEM;
  int rc = COL_OK;
  const col_vector *v0 = &b->cols[t->terms[0].bcol];
  /* a first term of INTEGERs without NULLs: compared alone first, it
  ** turns most rows away before their other terms are read (with a single
  ** term a tie loses too: this row comes after every kept one) */
  int ints = v0->form==CV_FLAT && v0->tags==0 && v0->type==CV_INT;
  int tie_loses = t->nterm==1;
  t->offered += nsel;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    int64_t row = b->first_row + r;
    if( t->n==t->k && ints ){
      const pred_value *top = &t->val[(size_t)t->heap[0]*(size_t)t->nterm];
      if( top->type==CV_INT ){
        int64_t x = v0->i64[r];
        if( x==top->i ? tie_loses : (t->terms[0].desc ? x < top->i : x > top->i) ) continue;
      }
    }
    for(int i=0; i<t->nterm; i++) xv[i] = topk_value(&b->cols[t->terms[i].bcol], r);
    if( t->n < t->k ){
      /* room for 16, then doubled at 16, 32, ... (never past k) */
      if( (t->n==0 || (t->n>=16 && (t->n & (t->n-1))==0)) && (rc = topk_grow(t))!=0 ) break;
      uint32_t e = t->n;
      if( (rc = topk_store(t, e, xv, row))!=0 ) break;
      t->heap[t->n++] = e;
      topk_sift_up(t, t->n-1);
      continue;
    }
    uint32_t top = t->heap[0];
    if( topk_cmp(t, xv, row, &t->val[(size_t)top*(size_t)t->nterm], t->row[top]) >= 0 ) continue;
    topk_drop_values(t, top);
    /* out of memory: the entry is left holding NULLs (nothing to free);
    ** the topk is good for nothing but topk_free after the error */
    if( (rc = topk_store(t, top, xv, row))!=0 ) break;
    topk_sift_down(t, 0);
  }
  if( xv!=x ) free(xv);
  return rc;
}

const int64_t *topk_rows(topk *t, uint32_t *n){
  *n = 0;
  free(t->sorted);
  t->sorted = malloc(sizeof(int64_t)*(t->n ? t->n : 1));
  if( t->sorted==0 ) return 0;
  /* pop the heap: the row that sorts last comes off first */
  uint32_t keep = t->n;
  uint32_t *h = t->heap;
  while( t->n>0 ){
    uint32_t e = h[0];
    t->sorted[t->n-1] = t->row[e];
    h[0] = h[t->n-1];
    h[t->n-1] = e;
    t->n--;
    topk_sift_down(t, 0);
  }
  /* the heap array now lists the entries first-to-last; make it a valid
  ** max-heap again (a reversed sorted array is one) */
  for(uint32_t i=0; i<keep/2; i++){ uint32_t tmp = h[i]; h[i] = h[keep-1-i]; h[keep-1-i] = tmp; }
  t->n = keep;
  *n = keep;
  return t->sorted;
}

uint64_t topk_offered(const topk *t){ return t->offered; }

int topk_last_first(const topk *t, pred_value *v){
  if( t->n<t->k ) return 0;
  *v = t->val[(size_t)t->heap[0]*(size_t)t->nterm];
  return 1;
}
