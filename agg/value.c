/*
** value.c — SQLite's value rules for agg/; see value.h.
*/
#include "value.h"
#include "../reader/predicate.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int agg_isspace(char c){
  return c==' ' || c=='\t' || c=='\n' || c=='\v' || c=='\f' || c=='\r';
}

int agg_int_real_compare(int64_t i, double r){
  if( r < -9223372036854775808.0 ) return +1;
  if( r >= 9223372036854775808.0 ) return -1;
  int64_t y = (int64_t)r;
  if( i<y ) return -1;
  if( i>y ) return +1;
  double s = (double)i;
  if( s<r ) return -1;
  if( s>r ) return +1;
  return 0;
}

static int agg_class(int t){
  /* NULL < numbers < TEXT < BLOB */
  return t==CV_NULL ? 0 : (t==CV_INT || t==CV_REAL) ? 1 : t==CV_TEXT ? 2 : 3;
}

int agg_value_compare(const pred_value *a, const pred_value *b){
  int ca = agg_class(a->type), cb = agg_class(b->type);
  if( ca!=cb ) return ca<cb ? -1 : 1;
  switch( ca ){
    case 0: return 0;
    case 1:
      if( a->type==CV_INT && b->type==CV_INT ) return a->i<b->i ? -1 : a->i>b->i;
      if( a->type==CV_REAL && b->type==CV_REAL ) return a->f<b->f ? -1 : a->f>b->f;
      if( a->type==CV_INT ) return agg_int_real_compare(a->i, b->f);
      return -agg_int_real_compare(b->i, a->f);
    default: {
      uint32_t n = a->n<b->n ? a->n : b->n;
      int c = n ? memcmp(a->p, b->p, n) : 0;
      if( c ) return c;
      return a->n<b->n ? -1 : a->n>b->n;
    }
  }
}

/* Digits written back to front, two at a time: through snprintf,
** group_concat(ResolutionWidth ORDER BY ...) over 10M rows (T10) spent
** 14% of its time in the C library's formatting. */
int agg_int_to_text(int64_t i, char *buf){
  static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
  /* the magnitude as unsigned: -INT64_MIN does not fit an int64_t */
  uint64_t u = i<0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
  /* digits counted first, then written from the end in place: a copy of
  ** a length only known at run time was a call to memmove per value, 3%
  ** of group_concat over 10M integers (T10) */
  int nd = 1;
  for(uint64_t t = 10; nd<20 && u>=t; t *= 10) nd++;
  int n = nd + (i<0);
  char *p = buf + n;
  *p = 0;
  while( u>=100 ){
    unsigned d = (unsigned)(u % 100);
    u /= 100;
    p -= 2; p[0] = pairs[2*d]; p[1] = pairs[2*d+1];
  }
  if( u>=10 ){ p -= 2; p[0] = pairs[2*u]; p[1] = pairs[2*u+1]; }
  else *--p = (char)('0' + u);
  if( i<0 ) *--p = '-';
  return n;
}

int agg_real_to_text(const col_dialect *d, double r, char *buf){
  return pred_real_text(d, r, buf, PRED_NUM_TEXT_MAX);
}

/* Scan the longest numeric prefix of z[0..n): returns its end (after
** trailing spaces if the whole thing is clean), sets *digits when any
** mantissa digit was seen and *real when a '.' or exponent was taken. */
static uint32_t agg_num_prefix(const char *z, uint32_t n, uint32_t *start,
                               int *digits, int *real){
  uint32_t i = 0;
  *digits = 0; *real = 0;
  while( i<n && agg_isspace(z[i]) ) i++;
  *start = i;
  if( i<n && (z[i]=='+' || z[i]=='-') ) i++;
  while( i<n && z[i]>='0' && z[i]<='9' ){ i++; *digits = 1; }
  if( i<n && z[i]=='.' ){
    uint32_t j = i+1;
    int frac = 0;
    while( j<n && z[j]>='0' && z[j]<='9' ){ j++; frac = 1; }
    if( *digits || frac ){ i = j; *real = 1; *digits = 1; }
  }
  if( *digits && i<n && (z[i]=='e' || z[i]=='E') ){
    uint32_t j = i+1;
    if( j<n && (z[j]=='+' || z[j]=='-') ) j++;
    if( j<n && z[j]>='0' && z[j]<='9' ){
      while( j<n && z[j]>='0' && z[j]<='9' ) j++;
      i = j; *real = 1;
    }
  }
  return i;
}

/* 10^e in long double, squared up bit by bit as SQLite 3.40 builds its
** scale (each product rounded to long double's 64 bits). */
static long double agg_pow10_ld(int e){
  long double x = 10.0, r = 1.0;
  for(;;){
    if( e & 1 ) r *= x;
    e >>= 1;
    if( e==0 ) return r;
    x *= x;
  }
}

/* The significand and exponent every sqlite3AtoF reads from z[0..n), a
** number agg_num_prefix accepted (sign, digits, '.', digits, exponent):
** digits go into *s while it is below keep, later ones only scale; the
** exponent saturates at 10000. Returns the value's power of ten. */
static int agg_atof_digits(const char *z, uint32_t n, uint64_t keep, int *neg, uint64_t *s){
  uint32_t i = 0;
  int shift = 0, e = 0, esign = 1;
  *neg = 0; *s = 0;
  if( i<n && (z[i]=='-' || z[i]=='+') ){ *neg = z[i]=='-'; i++; }
  while( i<n && z[i]>='0' && z[i]<='9' ){
    *s = *s*10 + (uint64_t)(z[i++] - '0');
    if( *s>=keep ) while( i<n && z[i]>='0' && z[i]<='9' ){ i++; shift++; }
  }
  if( i<n && z[i]=='.' ){
    for(i++; i<n && z[i]>='0' && z[i]<='9'; i++){
      if( *s<keep ){ *s = *s*10 + (uint64_t)(z[i] - '0'); shift--; }
    }
  }
  if( i<n && (z[i]=='e' || z[i]=='E') ){
    i++;
    if( i<n && (z[i]=='-' || z[i]=='+') ){ esign = z[i]=='-' ? -1 : 1; i++; }
    for(; i<n && z[i]>='0' && z[i]<='9'; i++) e = e<10000 ? e*10 + (z[i] - '0') : 10000;
  }
  return e*esign + shift;
}

/* SQLite 3.40's arithmetic (AGG_ATOF_340) over z[0..n), a number that
** agg_num_prefix accepted. */
static double agg_atof_340(const char *z, uint32_t n){
  int neg;
  uint64_t u;
  int e = agg_atof_digits(z, n, (INT64_MAX - 9)/10, &neg, &u);
  int64_t s = (int64_t)u;
  int esign = e<0 ? -1 : 1;
  if( e<0 ) e = -e;
  if( s==0 ) return neg ? -0.0 : 0.0;
  /* as few powers of ten as the integer can take in */
  for(; e>0; e--){
    if( esign>0 ){ if( s>=INT64_MAX/10 ) break; s *= 10; }
    else{ if( s%10!=0 ) break; s /= 10; }
  }
  if( neg ) s = -s;
  if( e==0 ) return (double)s;
  if( e>=342 ) return esign<0 ? 0.0*(double)s : (double)s*INFINITY;
  long double scale = agg_pow10_ld(e>307 ? e - 308 : e);
  double r = (double)(esign<0 ? s / scale : s * scale);
  if( e>307 ) r = esign<0 ? r / 1.0e+308 : r * 1.0e+308;
  return r;
}

/* x times y + yy (y's error) in double-double: SQLite's dekkerMul2. Every
** intermediate is stored to a double (volatile), as SQLite's are, so no
** wider register and no fused multiply-add changes a rounding. */
static void agg_dekker_mul(volatile double *x, double y, double yy){
  volatile double tx, ty, p, q, c, cc;
  double hx, hy;
  uint64_t m;
  double x0 = x[0];
  memcpy(&m, &x0, 8);
  m &= 0xfffffffffc000000ull;
  memcpy(&hx, &m, 8);
  tx = x[0] - hx;
  memcpy(&m, &y, 8);
  m &= 0xfffffffffc000000ull;
  memcpy(&hy, &m, 8);
  ty = y - hy;
  p = hx*hy;
  q = hx*ty;
  q = q + tx*hy;
  c = p + q;
  cc = p - c;
  cc = cc + q;
  cc = cc + tx*ty;
  p = x[0]*yy;
  p = p + x[1]*y;
  cc = p + cc;
  x[0] = c + cc;
  x[1] = c - x[0];
  x[1] += cc;
}

/* SQLite 3.43-3.46's arithmetic (AGG_ATOF_LD_STEPS, AGG_ATOF_DEKKER), or
** 3.53's (AGG_ATOF_U64), over z[0..n), a number agg_num_prefix accepted. */
static double agg_atof_u64(int mode, const char *z, uint32_t n){
  int neg;
  uint64_t s;
  int e = agg_atof_digits(z, n, (UINT64_MAX - 9)/10, &neg, &s);
  if( s==0 ) return neg ? -0.0 : 0.0;
  if( mode==AGG_ATOF_U64 ){
    /* strtod rounds correctly: s and e as text, all of their digits */
    char buf[48];
    snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long)s, e);
    double r = strtod(buf, 0);
    return neg ? -r : r;
  }
  while( e>0 && s<UINT64_MAX/10 ){ s *= 10; e--; }
  while( e<0 && s%10==0 ){ s /= 10; e++; }
  double r;
  if( e==0 ){
    r = (double)s;
  }else if( mode==AGG_ATOF_LD_STEPS ){
    long double x = (long double)s;
    if( e>0 ){
      while( e>=100 ){ e -= 100; x *= 1.0e+100L; }
      while( e>=10 ){ e -= 10; x *= 1.0e+10L; }
      while( e>=1 ){ e -= 1; x *= 1.0e+01L; }
    }else{
      while( e<=-100 ){ e += 100; x *= 1.0e-100L; }
      while( e<=-10 ){ e += 10; x *= 1.0e-10L; }
      while( e<=-1 ){ e += 1; x *= 1.0e-01L; }
    }
    r = x > 1.7976931348623157081452742373e+308L ? INFINITY : (double)x;
  }else{
    volatile double rr[2];
    rr[0] = (double)s;
    /* a u64 rounded up to 2^64 converts back (x86-64) as 0 */
    uint64_t s2 = rr[0] >= 18446744073709551616.0 ? 0 : (uint64_t)rr[0];
    rr[1] = s>=s2 ? (double)(s - s2) : -(double)(s2 - s);
    if( e>0 ){
      while( e>=100 ){ e -= 100; agg_dekker_mul(rr, 1.0e+100, -1.5902891109759918046e+83); }
      while( e>=10 ){ e -= 10; agg_dekker_mul(rr, 1.0e+10, 0.0); }
      while( e>=1 ){ e -= 1; agg_dekker_mul(rr, 1.0e+01, 0.0); }
    }else{
      while( e<=-100 ){ e += 100; agg_dekker_mul(rr, 1.0e-100, -1.99918998026028836196e-117); }
      while( e<=-10 ){ e += 10; agg_dekker_mul(rr, 1.0e-10, -3.6432197315497741579e-27); }
      while( e<=-1 ){ e += 1; agg_dekker_mul(rr, 1.0e-01, -5.5511151231257827021e-18); }
    }
    r = rr[0] + rr[1];
    if( isnan(r) ) r = INFINITY;
  }
  return neg ? -r : r;
}

/* SQLite 3.52.0's arithmetic (AGG_ATOF_352): the significand (as 3.40
** reads it) times the top 64 bits of a power of ten, rounded at the
** double's last place from the high word of that 128-bit product. The
** powers: 10^n for n < 27 exactly, and 10^(27g) rounded to nearest, each
** normalized into [2^63, 2^64) (generated from exact fractions). */
static const uint64_t agg_p10_small[27] = {
  0x8000000000000000ull, 0xa000000000000000ull, 0xc800000000000000ull,
  0xfa00000000000000ull, 0x9c40000000000000ull, 0xc350000000000000ull,
  0xf424000000000000ull, 0x9896800000000000ull, 0xbebc200000000000ull,
  0xee6b280000000000ull, 0x9502f90000000000ull, 0xba43b74000000000ull,
  0xe8d4a51000000000ull, 0x9184e72a00000000ull, 0xb5e620f480000000ull,
  0xe35fa931a0000000ull, 0x8e1bc9bf04000000ull, 0xb1a2bc2ec5000000ull,
  0xde0b6b3a76400000ull, 0x8ac7230489e80000ull, 0xad78ebc5ac620000ull,
  0xd8d726b7177a8000ull, 0x878678326eac9000ull, 0xa968163f0a57b400ull,
  0xd3c21bcecceda100ull, 0x84595161401484a0ull, 0xa56fa5b99019a5c8ull,
};
static const uint64_t agg_p10_step27[26] = {
  0x8049a4ac0c5811aeull, 0xcf42894a5dce35eaull, 0xa76c582338ed2622ull,
  0x873e4f75e2224e68ull, 0xda7f5bf590966849ull, 0xb080392cc4349dedull,
  0x8e938662882af53eull, 0xe65829b3046b0afaull, 0xba121a4650e4ddecull,
  0x964e858c91ba2655ull, 0xf2d56790ab41c2a3ull, 0xc428d05aa4751e4dull,
  0x9e74d1b791e07e48ull, 0x8000000000000000ull, 0xcecb8f27f4200f3aull,
  0xa70c3c40a64e6c52ull, 0x86f0ac99b4e8dafdull, 0xda01ee641a708deaull,
  0xb01ae745b101e9e4ull, 0x8e41ade9fbebc27dull, 0xe5d3ef282a242e82ull,
  0xb9a74a0637ce2ee1ull, 0x95f83d0a1fb69cd9ull, 0xf24a01a73cf2dcd0ull,
  0xc3b8358109e84f07ull, 0x9e19db92b4e31ba9ull,
};

/* floor(log2(10^p)) as 3.52 estimates it: p*108853/32768, rounded down */
static int agg_log2_pow10(int p){
  int64_t x = (int64_t)p * 108853;
  return (int)(x>=0 ? x/32768 : -((-x + 32767)/32768));
}

static uint64_t agg_mul_hi64(uint64_t a, uint64_t b){
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* 10^p's top 64 bits, -348 <= p <= 347: a step of 27 times a small power,
** the product renormalized by one bit (its last bit then set) */
static uint64_t agg_pow10_top(int p){
  if( p>=0 && p<27 ) return agg_p10_small[p];
  int g = p>=0 ? p/27 : -((-p + 26)/27);
  int n = p - 27*g;
  uint64_t y = agg_p10_step27[g + 13];
  if( n==0 ) return y;
  uint64_t x = agg_mul_hi64(agg_p10_small[n], y);
  if( (x>>63)==0 ) x = (x<<1) | 1;
  return x;
}

/* s * 10^p (s > 0) as 3.52.0 rounds it */
static double agg_fp10_352(uint64_t s, int p){
  if( p < -348 ) return 0.0;
  if( p > 347 ) return INFINITY;
  int lz = __builtin_clzll(s);
  int lp = agg_log2_pow10(p);
  int e1 = lz - (lp + 11);
  if( e1>=1130 ) return 0.0;
  if( e1>1074 ) e1 = 1074;
  uint64_t h = agg_mul_hi64(s<<lz, agg_pow10_top(p));
  int sh = lz - (e1 + lp + 3);   /* 0..63 for every p in range */
  uint64_t out = sh>=0 && sh<64 ? h >> sh : 0;
  if( out >= ((uint64_t)1<<55) - 2 ){ out >>= 1; e1--; }
  if( e1 <= -972 ) return INFINITY;
  out = (out + 2) >> 2;
  if( out & ((uint64_t)1<<52) ){
    out = (out & ~((uint64_t)1<<52)) | ((uint64_t)(1075 - e1) << 52);
  }
  double r;
  memcpy(&r, &out, 8);
  return r;
}

static double agg_atof_352(const char *z, uint32_t n){
  int neg;
  uint64_t s;
  int p = agg_atof_digits(z, n, (INT64_MAX - 9)/10, &neg, &s);
  double r = s==0 ? 0.0 : agg_fp10_352(s, p);
  return neg ? -r : r;
}

int agg_atof(int mode, const char *z, uint32_t n, double *r){
  uint32_t start;
  int digits, real;
  uint32_t end = agg_num_prefix(z, n, &start, &digits, &real);
  *r = 0.0;
  if( !digits ) return 0;
  if( mode==AGG_ATOF_340 ){
    *r = agg_atof_340(z + start, end - start);
  }else if( mode==AGG_ATOF_352 ){
    *r = agg_atof_352(z + start, end - start);
  }else if( mode!=AGG_ATOF_EXACT ){
    *r = agg_atof_u64(mode, z + start, end - start);
  }else{
    char small[128];
    size_t len = end - start;
    char *buf = len<sizeof(small) ? small : malloc(len+1);
    if( buf ){
      memcpy(buf, z+start, len);
      buf[len] = 0;
      *r = strtod(buf, 0);
      if( buf!=small ) free(buf);
    }
  }
  uint32_t k = end;
  while( k<n && agg_isspace(z[k]) ) k++;
  if( k==n ) return real ? 2 : 1;
  return real ? -1 : 0;
}

int agg_atoi64(const char *z, uint32_t n, int64_t *v){
  uint32_t i = 0;
  int neg = 0, rc = 0;
  uint64_t u = 0;
  while( i<n && agg_isspace(z[i]) ) i++;
  if( i<n ){
    if( z[i]=='-' ){ neg = 1; i++; }
    else if( z[i]=='+' ) i++;
  }
  uint32_t start = i;
  while( i<n && z[i]=='0' ) i++;
  uint32_t d0 = i;
  while( i<n && z[i]>='0' && z[i]<='9' ){ u = u*10 + (uint64_t)(z[i]-'0'); i++; }
  uint32_t nd = i - d0;
  if( u>(uint64_t)INT64_MAX ) *v = neg ? INT64_MIN : INT64_MAX;
  else *v = neg ? -(int64_t)u : (int64_t)u;
  if( nd==0 && start==d0 ){
    rc = -1;
  }else{
    for(uint32_t j=i; j<n; j++) if( !agg_isspace(z[j]) ){ rc = 1; break; }
  }
  if( nd<19 ) return rc;
  int c;
  if( nd>19 ) c = 1;
  else c = memcmp(z+d0, "9223372036854775808", 19);
  if( c<0 ) return rc;
  *v = neg ? INT64_MIN : INT64_MAX;
  if( c>0 ) return 2;
  return neg ? rc : 3;
}

pred_value agg_numeric_affinity(int atof, const pred_value *v){
  pred_value out = *v;
  if( v->type!=CV_TEXT ) return out;
  double r;
  int rc = agg_atof(atof, v->p, v->n, &r);
  if( rc<=0 ) return out;
  int64_t i;
  if( rc==1 && agg_atoi64(v->p, v->n, &i)==0 ){
    out.type = CV_INT; out.i = i;
  }else{
    out.type = CV_REAL; out.f = r;
  }
  return out;
}

pred_value agg_text_affinity(const col_dialect *d, pred_value v, char *buf){
  if( v.type!=CV_INT && v.type!=CV_REAL ) return v;
  int n = v.type==CV_INT ? agg_int_to_text(v.i, buf) : agg_real_to_text(d, v.f, buf);
  v.type = CV_TEXT; v.p = buf; v.n = (uint32_t)n;
  return v;
}

double agg_real_value(int atof, const pred_value *v){
  double r = 0.0;
  switch( v->type ){
    case CV_INT: return (double)v->i;
    case CV_REAL: return v->f;
    case CV_TEXT: case CV_BLOB: agg_atof(atof, v->p, v->n, &r); return r;
    default: return 0.0;
  }
}

int64_t agg_int_value(const pred_value *v){
  int64_t i = 0;
  switch( v->type ){
    case CV_INT: return v->i;
    case CV_REAL:
      if( v->f <= -9223372036854775808.0 ) return INT64_MIN;
      if( v->f >= 9223372036854775807.0 ) return INT64_MAX;
      return (int64_t)v->f;
    case CV_TEXT: case CV_BLOB: agg_atoi64(v->p, v->n, &i); return i;
    default: return 0;
  }
}

int agg_numeric_type(int atof, const pred_value *v, int64_t *i, double *r){
  if( v->type==CV_INT ){ *i = v->i; return CV_INT; }
  if( v->type==CV_REAL ){ *r = v->f; return CV_REAL; }
  int rc = agg_atof(atof, v->p, v->n, r);
  int64_t ix;
  if( rc<=0 ){
    if( rc==0 && agg_atoi64(v->p, v->n, &ix)<=1 ){ *i = ix; return CV_INT; }
    return CV_REAL;
  }
  if( rc==1 && agg_atoi64(v->p, v->n, &ix)==0 ){ *i = ix; return CV_INT; }
  return CV_REAL;
}
