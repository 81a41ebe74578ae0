/*
** warm.c — col_batch_warm; see warm.h.
*/
#include "warm.h"

#define WARM_LINE 64

/* Sum one byte per cache line of [p, p+n): loads the out-of-order core
** overlaps, and the sum keeps the compiler from dropping them. */
static uint64_t warm_bytes(const void *p, uint64_t n){
  const unsigned char *a = p;
  uint64_t s = 0;
  if( a==0 || n==0 ) return 0;
  for(uint64_t o=0; o<n; o+=WARM_LINE) s += a[o];
  return s + a[n-1];
}

static uint64_t warm_vector(const col_vector *v, uint32_t n){
  if( v->form==CV_CONST ) return 0;
  uint64_t s = warm_bytes(v->tags, n);
  if( v->form==CV_DICT ) return s + warm_bytes(v->codes, (uint64_t)n*4);
  s += warm_bytes(v->i64, (uint64_t)n*8);
  /* a vector may show one array as both */
  if( (const void*)v->f64!=(const void*)v->i64 ) s += warm_bytes(v->f64, (uint64_t)n*8);
  if( v->str ){
    s += warm_bytes(v->str, (uint64_t)n*sizeof(cv_str));
    /* The bytes usually lie end to end: each line is read once, by the
    ** first value that reaches into it. */
    uintptr_t last = UINTPTR_MAX;   /* the line read last */
    for(uint32_t i=0; i<n; i++){
      if( v->str[i].p==0 || v->str[i].n==0 ) continue;
      uintptr_t q = (uintptr_t)v->str[i].p, end = q + v->str[i].n;
      if( q/WARM_LINE==last ) q = (last + 1)*WARM_LINE;
      for(; q<end; q = (q/WARM_LINE + 1)*WARM_LINE) s += *(const unsigned char*)q;
      last = (end - 1)/WARM_LINE;
    }
  }
  return s;
}

void col_batch_warm(const col_batch *b){
  volatile uint64_t sink = 0;
  uint64_t s = 0;
  for(int c=0; c<b->ncols; c++) s += warm_vector(&b->cols[c], b->n);
  sink = s;
  (void)sink;
}
