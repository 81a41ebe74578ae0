/*
** iset.c — the (group, INTEGER) pair set; see iset.h.
*/
#include "iset.h"
#include "bigmem.h"
#include "double.h"
#include "table.h"

#define AGG_IPAIR_HOME(x, shift) ((uint32_t)(agg_ipair_hash((x).g, (x).v)>>32) >> (shift))
#define AGG_IPAIR_EMPTY(x) ((x).g==0)
AGG_DOUBLE_INPLACE(agg_iset_double, agg_ipair, AGG_IPAIR_EMPTY, AGG_IPAIR_HOME)

uint32_t agg_iset_insert(agg_iset *s, const uint64_t *h, const uint32_t *g1,
                         const int64_t *v, uint32_t n, uint32_t *fresh){
  agg_ipair *set = s->b;
  uint32_t mask = s->nbucket - 1, shift = agg_iset_shift(s->nbucket);
  /* Past L2 every probe is a miss; asking for the line 16 pairs ahead
  ** keeps that many in flight. */
  int pf = s->nbucket >= (1u<<14);
  uint32_t m = 0;
  for(uint32_t k=0; k<n; k++){
    if( pf && k+16<n ) __builtin_prefetch(&set[(uint32_t)(h[k+16]>>32) >> shift]);
    if( agg_iset_add(set, mask, shift, h[k], g1[k], v[k]) ) fresh[m++] = k;
  }
  s->n += m;
  return m;
}

int agg_iset_grow(agg_iset *s, uint64_t need){
  if( need > AGG_MAX_GROUPS/2 ) return -1;
  uint64_t want = need*2;
  if( s->b==0 ){
    uint32_t nb = 256;
    while( nb < want ) nb *= 2;
    s->b = agg_mem_zalloc((size_t)nb * sizeof(agg_ipair));
    if( s->b==0 ) return -1;
    s->nbucket = nb;
    return 0;
  }
  while( s->nbucket < want ){
    uint32_t nb = s->nbucket;
    agg_ipair *b = agg_mem_grow_zeroed(s->b, (size_t)nb*sizeof(agg_ipair), (size_t)nb*2*sizeof(agg_ipair));
    if( b==0 ) return -1;
    agg_mem_prefault(b, (size_t)nb*sizeof(agg_ipair), (size_t)nb*sizeof(agg_ipair));
    s->b = b;
    s->nbucket = nb*2;
    if( agg_iset_double(b, nb, agg_iset_shift(nb*2)) ) return -1;
  }
  return 0;
}

void agg_iset_free(agg_iset *s){
  agg_mem_free(s->b);
  s->b = 0; s->nbucket = 0; s->n = 0;
}
