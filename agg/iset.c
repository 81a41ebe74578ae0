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
    if( agg_iset_add(set, mask, shift, h[k], g1[k], v[k], s->n + m) ) fresh[m++] = k;
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

/* A dictionary vector repeats a few values over many rows (count(DISTINCT
** SearchPhrase) by a key; group_concat(DISTINCT SearchEngineID ORDER BY
** SearchEngineID), 10M rows and a few hundred pairs, hashed every row).
** Where the batch's groups times the entries are few, a bit per pair (T7
** at threads=1: 80 ms through the hash table, 64-67 ms so). */
#define AGG_CODES_BITMAP 65536u
int agg_codes_first(uint64_t **set, uint32_t *cap, const uint32_t *codes, uint32_t ncode,
                    uint32_t ngroup, uint32_t *rows, uint32_t *gid, uint32_t *pn){
  uint32_t n = *pn;
  uint64_t bits = (uint64_t)ngroup * ncode;
  int bitmap = bits <= AGG_CODES_BITMAP;
  uint32_t want = 64;
  if( bitmap ) want = (uint32_t)((bits + 63)/64);
  else while( want < 2*n ) want *= 2;
  if( want > *cap ){
    uint64_t *c = realloc(*set, (size_t)want*8);
    if( c==0 ) return -1;
    *set = c; *cap = want;
  }
  uint64_t *t = *set;
  uint32_t m = 0;
  if( bitmap ){
    memset(t, 0, (size_t)want*8);
    for(uint32_t k=0; k<n; k++){
      uint32_t b = gid[k]*ncode + codes[rows[k]];
      uint64_t bit = (uint64_t)1 << (b & 63);
      if( t[b>>6] & bit ) continue;
      t[b>>6] |= bit;
      rows[m] = rows[k]; gid[m] = gid[k]; m++;
    }
    *pn = m;
    return 0;
  }
  uint32_t mask = want - 1;
  memset(t, 0xff, (size_t)want*8);
  for(uint32_t k=0; k<n; k++){
    uint64_t key = ((uint64_t)gid[k]<<32) | codes[rows[k]];
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    uint32_t at = (uint32_t)(h>>32) & mask;
    for(;;){
      if( t[at]==UINT64_MAX ){ t[at] = key; rows[m] = rows[k]; gid[m] = gid[k]; m++; break; }
      if( t[at]==key ) break;
      at = (at + 1) & mask;
    }
  }
  *pn = m;
  return 0;
}
