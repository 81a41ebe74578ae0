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
  s += warm_bytes(v->f64, (uint64_t)n*8);
  if( v->str ){
    s += warm_bytes(v->str, (uint64_t)n*sizeof(cv_str));
    /* the bytes usually lie end to end: one line per value at most, and
    ** none for short neighbours sharing a line */
    uintptr_t last = 0;
    for(uint32_t i=0; i<n; i++){
      const char *p = v->str[i].p;
      uint32_t len = v->str[i].n;
      if( p==0 || len==0 ) continue;
      uintptr_t a = (uintptr_t)p / WARM_LINE;
      uintptr_t e = ((uintptr_t)p + len - 1) / WARM_LINE;
      if( a==last ) a++;
      for(; a<=e; a++) s += *(const unsigned char*)(a*WARM_LINE > (uintptr_t)p ? (const char*)(a*WARM_LINE) : p);
      last = e;
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
