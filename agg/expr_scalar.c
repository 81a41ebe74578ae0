/*
** expr_scalar.c — CAST, trim(), replace(), min()/max() of several
** arguments (expr_scalar.h).
*/
#include "expr_scalar.h"
#include "value.h"
#include "../reader/predicate.h"

#include <string.h>

int agg_cast_affinity(const char *z, size_t n){
  uint32_t h = 0;
  int aff = AGG_CAST_NUMERIC;
  for(size_t i=0; i<n; i++){
    unsigned char c = (unsigned char)z[i];
    if( c>='A' && c<='Z' ) c += 32;
    h = (h<<8) + c;
    if( h==(('c'<<24)+('h'<<16)+('a'<<8)+'r') ) aff = AGG_CAST_TEXT;
    else if( h==(('c'<<24)+('l'<<16)+('o'<<8)+'b') ) aff = AGG_CAST_TEXT;
    else if( h==(('t'<<24)+('e'<<16)+('x'<<8)+'t') ) aff = AGG_CAST_TEXT;
    else if( h==(('b'<<24)+('l'<<16)+('o'<<8)+'b')
          && (aff==AGG_CAST_NUMERIC || aff==AGG_CAST_REAL) ) aff = AGG_CAST_BLOB;
    else if( (h==(('r'<<24)+('e'<<16)+('a'<<8)+'l') || h==(('f'<<24)+('l'<<16)+('o'<<8)+'a')
           || h==(('d'<<24)+('o'<<16)+('u'<<8)+'b')) && aff==AGG_CAST_NUMERIC ) aff = AGG_CAST_REAL;
    else if( (h & 0x00FFFFFF)==(('i'<<16)+('n'<<8)+'t') ) return AGG_CAST_INTEGER;
  }
  return aff;
}

/* sqlite3RealSameAsInt: r is exactly i and i is small enough that every
** integer near it is a double too (or r is a zero of either sign). */
static int real_same_as_int(double r, int64_t i){
  double d = (double)i;
  return r==0.0 || (memcmp(&r, &d, sizeof(r))==0
                    && i >= -2251799813685248LL && i < 2251799813685248LL);
}

pred_value agg_cast_number(int atof, const pred_value *v, int aff){
  pred_value out;
  memset(&out, 0, sizeof(out));
  if( aff==AGG_CAST_INTEGER ){
    out.type = CV_INT; out.i = agg_int_value(v);
    return out;
  }
  if( aff==AGG_CAST_REAL ){
    out.type = CV_REAL; out.f = agg_real_value(atof, v);
    return out;
  }
  if( v->type==CV_INT || v->type==CV_REAL ) return *v;
  double r = 0.0;
  int64_t ix = 0;
  int rc = agg_atof(atof, v->p ? v->p : "", v->n, &r);
  if( (rc==0 || rc==1) && agg_atoi64(v->p ? v->p : "", v->n, &ix)<=1 ){
    out.type = CV_INT; out.i = ix;
    return out;
  }
  pred_value rv = { .type = CV_REAL, .f = r };
  ix = agg_int_value(&rv);      /* saturating, as sqlite3RealToI64 */
  if( real_same_as_int(r, ix) ){ out.type = CV_INT; out.i = ix; }
  else{ out.type = CV_REAL; out.f = r; }
  return out;
}

/* Bytes of the UTF-8 character at set[i] (SQLITE_SKIP_UTF8). */
static uint32_t set_char_len(const char *set, uint32_t nset, uint32_t i){
  uint32_t j = i + 1;
  if( (unsigned char)set[i] >= 0xc0 ){
    while( j<nset && ((unsigned char)set[j] & 0xc0)==0x80 ) j++;
  }
  return j - i;
}

void agg_str_trim(const char *z, uint32_t n, const char *set, uint32_t nset,
                  int sides, uint32_t *off, uint32_t *len){
  uint32_t a = 0, b = n;
  if( nset && (sides & 1) ){
    while( a<b ){
      uint32_t i = 0, cl = 0;
      for(; i<nset; i+=cl){
        cl = set_char_len(set, nset, i);
        if( cl<=b-a && memcmp(z+a, set+i, cl)==0 ) break;
      }
      if( i>=nset ) break;
      a += cl;
    }
  }
  if( nset && (sides & 2) ){
    while( a<b ){
      uint32_t i = 0, cl = 0;
      for(; i<nset; i+=cl){
        cl = set_char_len(set, nset, i);
        if( cl<=b-a && memcmp(z+b-cl, set+i, cl)==0 ) break;
      }
      if( i>=nset ) break;
      b -= cl;
    }
  }
  *off = a; *len = b - a;
}

size_t agg_str_replace(const char *z, uint32_t n, const char *pat, uint32_t np,
                       const char *rep, uint32_t nr, char *out){
  size_t o = 0;
  uint32_t i = 0;
  if( np<=n ){
    for(; i<=n-np; i++){
      if( z[i]==pat[0] && memcmp(z+i, pat, np)==0 ){
        if( out && nr ) memcpy(out+o, rep, nr);
        o += nr;
        i += np - 1;
      }else{
        if( out ) out[o] = z[i];
        o++;
      }
    }
  }
  if( out && i<n ) memcpy(out+o, z+i, n-i);
  return o + (i<n ? n-i : 0);
}

int agg_minmax_pick(const pred_value *x, int n, int is_max, int coll){
  int best = 0;
  if( x[0].type==CV_NULL ) return -1;
  for(int i=1; i<n; i++){
    if( x[i].type==CV_NULL ) return -1;
    int c = coll==COLL_BINARY ? agg_value_compare(&x[best], &x[i])
                              : pred_value_compare(&x[best], &x[i], (pred_coll)coll);
    if( is_max ? c<0 : c>=0 ) best = i;
  }
  return best;
}
