/*
** hash.c — column-at-a-time key hashing; see hash.h.
**
** Each form of a column has its own loop, and every loop produces what
** agg_hash_word() produces for the same value: that is the whole invariant.
** A dictionary hashes each distinct entry once and then gathers.
*/
#include "hash.h"
#include "../reader/simd.h"
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The word a NULL contributes: a constant, so NULL does not hash as 0. */
#define AGG_HASH_NULL 0x9e3779b97f4a7c15ull
/* Mixed into BLOB words so x'61' and 'a' usually differ (the compare decides). */
#define AGG_HASH_BLOB 0x5851f42d4c957f2dull

void agg_hasher_init(agg_hasher *hs){ memset(hs, 0, sizeof(*hs)); }
void agg_hasher_free(agg_hasher *hs){
  free(hs->dict_words);
  free(hs->dict_done);
  memset(hs, 0, sizeof(*hs));
}

static inline uint64_t agg_mix(uint64_t h, uint64_t w){
  h = (h<<23 | h>>41) ^ w;
  return h * 0xbf58476d1ce4e5b9ull;
}

static inline uint64_t agg_spread(uint64_t h){
  h ^= h >> 33; h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

/* A REAL that is integral and fits an int64 hashes as that INTEGER. */
static inline uint64_t agg_real_word(double f){
  if( f >= -9223372036854775808.0 && f < 9223372036854775808.0 ){
    int64_t i = (int64_t)f;
    if( (double)i==f ) return (uint64_t)i;
  }
  uint64_t b;
  memcpy(&b, &f, 8);
  return b;
}

uint64_t agg_hash_word(int tag, int64_t i, double f, const char *p, uint32_t n){
  switch( tag ){
    case CV_INT: return (uint64_t)i;
    case CV_REAL: return agg_real_word(f);
    case CV_TEXT: return XXH3_64bits(p ? p : "", n);
    case CV_BLOB: return XXH3_64bits(p ? p : "", n) ^ AGG_HASH_BLOB;
    default: return AGG_HASH_NULL;
  }
}

/* Word of entry j of a flat (or const) vector whose storage class is tag. */
static inline uint64_t agg_flat_word(const col_vector *v, uint32_t j, int tag){
  switch( tag ){
    case CV_INT: return (uint64_t)v->i64[j];
    case CV_REAL: return agg_real_word(v->f64[j]);
    case CV_TEXT: case CV_BLOB:
      return agg_hash_word(tag, 0, 0, v->str[j].p, v->str[j].n);
    default: return AGG_HASH_NULL;
  }
}

#define AGG_FOR_ROWS(body) do{ \
  if( sel ){ for(uint32_t k=0; k<nsel; k++){ uint32_t r = sel[k]; body; } } \
  else{ for(uint32_t r=0; r<nsel; r++){ body; } } }while(0)

/* h[r] for one more key column of words w: mixed in, or when the column
** is the only one (one), the row's whole hash, with no pass to zero h
** before nor one to spread it after. */
#define AGG_PUT(r, w) (h[r] = one ? agg_spread(agg_mix(0, (w))) : agg_mix(h[r], (w)))

#ifdef COL_SIMD_AVX512
/* AGG_PUT over rows 0..n-1 whose words are src[r], or src[codes[r]], 8
** rows a step (vpmullq, vprolq, a gather through codes); the same words
** and arithmetic as the scalar loops, so the same hashes. GROUP BY UserID
** hashed its 10M keys in 8% of its CPU at threads=2. Returns the rows
** done (a multiple of 8). */
__attribute__((target("avx512f,avx512dq")))
static uint32_t agg_put_avx512(const uint64_t *src, const uint32_t *codes,
                               uint32_t n, uint64_t *h, int one){
  const __m512i cm = _mm512_set1_epi64((long long)0xbf58476d1ce4e5b9ull);
  const __m512i c1 = _mm512_set1_epi64((long long)0xff51afd7ed558ccdull);
  const __m512i c2 = _mm512_set1_epi64((long long)0xc4ceb9fe1a85ec53ull);
  uint32_t r = 0;
  for(; r+8<=n; r+=8){
    __m512i w = codes
      ? _mm512_i32gather_epi64(_mm256_loadu_si256((const __m256i*)(codes + r)), (const void*)src, 8)
      : _mm512_loadu_si512((const void*)(src + r));
    __m512i x;
    if( one ){
      x = _mm512_mullo_epi64(w, cm);                           /* agg_mix(0, w) */
      x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 33));      /* agg_spread */
      x = _mm512_mullo_epi64(x, c1);
      x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 33));
      x = _mm512_mullo_epi64(x, c2);
      x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 33));
    }else{
      x = _mm512_xor_si512(_mm512_rol_epi64(_mm512_loadu_si512((const void*)(h + r)), 23), w);
      x = _mm512_mullo_epi64(x, cm);
    }
    _mm512_storeu_si512((void*)(h + r), x);
  }
  return r;
}
#endif

/* AGG_PUT for every row of an unselected batch whose words are src[r]
** (codes NULL) or src[codes[r]]. */
static void agg_put_words(const uint64_t *src, const uint32_t *codes,
                          uint32_t n, uint64_t *h, int one){
  uint32_t r = 0;
#ifdef COL_SIMD_AVX512
  if( n>=8 && __builtin_cpu_supports("avx512dq") ) r = agg_put_avx512(src, codes, n, h, one);
#endif
  if( codes ) for(; r<n; r++) AGG_PUT(r, src[codes[r]]);
  else for(; r<n; r++) AGG_PUT(r, src[r]);
}

static int agg_fold(agg_hasher *hs, const col_vector *v, const uint32_t *sel,
                    uint32_t nsel, uint64_t *h, int one){
  if( v->form==CV_CONST ){
    int tag = v->tags ? v->tags[0] : v->type;
    uint64_t w = agg_flat_word(v, 0, tag);
    AGG_FOR_ROWS( AGG_PUT(r, w) );
    return 0;
  }
  if( v->form==CV_DICT ){
    const col_vector *d = v->dict;
    if( d->n > hs->dict_cap ){
      uint64_t *nw = realloc(hs->dict_words, (size_t)d->n * sizeof(uint64_t));
      if( nw==0 ) return -1;
      hs->dict_words = nw;
      uint8_t *nd = realloc(hs->dict_done, (size_t)d->n);
      if( nd==0 ) return -1;
      hs->dict_done = nd;
      hs->dict_cap = d->n;
    }
    uint64_t *dw = hs->dict_words;
    uint8_t *done = hs->dict_done;
    /* A named dictionary keeps its words from batch to batch (a row
    ** group's, or one that only grows: agg/ts_memo.h); entries appended
    ** since are not done yet. */
    int keep = v->dict_id!=0 && v->dict_id==hs->dict_id;
    if( !keep ){ hs->dict_id = v->dict_id; hs->dict_n = 0; }
    if( d->n > hs->dict_n ){
      memset(done + hs->dict_n, 0, d->n - hs->dict_n);
      hs->dict_n = d->n;
    }
    if( d->n <= nsel && !keep ){
      for(uint32_t j=0; j<d->n; j++){
        dw[j] = agg_flat_word(d, j, d->tags ? d->tags[j] : d->type);
      }
      memset(done, 1, d->n);
    }else{
      /* A dictionary larger than the batch (a row group's strings, seen
      ** through 2048-row batches), or one already met: hash only the
      ** entries this batch uses and no batch hashed before. */
      AGG_FOR_ROWS(
        uint32_t c = v->codes[r];
        if( (v->tags==0 || v->tags[r]!=CV_NULL) && !done[c] ){
          done[c] = 1; dw[c] = agg_flat_word(d, c, d->tags ? d->tags[c] : d->type);
        } );
    }
    if( v->tags ){
      AGG_FOR_ROWS( AGG_PUT(r, v->tags[r]==CV_NULL ? AGG_HASH_NULL : dw[v->codes[r]]) );
    }else if( sel==0 ){
      agg_put_words(dw, v->codes, nsel, h, one);
    }else{
      AGG_FOR_ROWS( AGG_PUT(r, dw[v->codes[r]]) );
    }
    return 0;
  }
  if( v->tags ){
    AGG_FOR_ROWS( AGG_PUT(r, agg_flat_word(v, r, v->tags[r])) );
    return 0;
  }
  switch( v->type ){
    case CV_INT: {
      const int64_t *x = v->i64;
      if( sel==0 ) agg_put_words((const uint64_t*)x, 0, nsel, h, one);
      else AGG_FOR_ROWS( AGG_PUT(r, (uint64_t)x[r]) );
      break;
    }
    case CV_REAL: { const double *x = v->f64; AGG_FOR_ROWS( AGG_PUT(r, agg_real_word(x[r])) ); break; }
    default: AGG_FOR_ROWS( AGG_PUT(r, agg_flat_word(v, r, v->type)) ); break;
  }
  return 0;
}

int agg_hash_keys(agg_hasher *hs, const col_vector *const *keys, int nkeys,
                  const uint32_t *sel, uint32_t nsel, uint64_t *h){
  if( nkeys==1 ) return agg_fold(hs, keys[0], sel, nsel, h, 1);
  AGG_FOR_ROWS( h[r] = 0 );
  for(int c=0; c<nkeys; c++){
    if( agg_fold(hs, keys[c], sel, nsel, h, 0) ) return -1;
  }
  AGG_FOR_ROWS( h[r] = agg_spread(h[r]) );
  return 0;
}
