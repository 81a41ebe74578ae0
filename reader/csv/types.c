/*
** types.c — parsing CSV fields as INTEGER, REAL, booleans, dates, times.
**
** Choices (DuckDB's read_csv is the reference where it has one):
**   INTEGER  [+-]digits, 64-bit; out of range is not an INTEGER (sniffing
**            then picks REAL). No blanks around the digits. Sniffing makes a
**            column with leading zeros ("007") TEXT, as DuckDB does; in a
**            column typed INTEGER (types= or a later row) "007" reads as 7.
**   REAL     [+-](digits[.digits]|.digits)([eE][+-]digits)?, also inf,
**            infinity, nan (any case). NaN reads as NULL.
**   booleans true/false in any case, stored as INTEGER 1/0.
**   DATE     YYYY-MM-DD with a valid day; kept as that text.
**   TIME     HH:MM[:SS[.f{1,9}]] -> HH:MM:SS[.fff|.ffffff|.fffffffff]
**   TIMESTAMP DATE[( |T)TIME][Z] -> YYYY-MM-DD HH:MM:SS[.fraction]
** Sniffing keeps, per column, the set of kinds every sample value parses
** as and picks the first in BOOL < INT < REAL < TIME < DATE < TS < TEXT.
*/
#include "types.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int csv_parse_bool(const char *p, uint32_t n, int64_t *out){
  if( n==4 && strncasecmp(p, "true", 4)==0 ){ *out = 1; return 1; }
  if( n==5 && strncasecmp(p, "false", 5)==0 ){ *out = 0; return 1; }
  return 0;
}

int csv_parse_int(const char *p, uint32_t n, int64_t *out){
  uint32_t i = 0;
  int neg = 0;
  if( n && (p[0]=='-' || p[0]=='+') ){ neg = p[0]=='-'; i = 1; }
  if( i>=n ) return 0;
  uint64_t v = 0;
  if( n-i<=18 ){
    /* Below 10^18: cannot overflow, no check per digit. */
    for(; i<n; i++){
      unsigned d = (unsigned)(unsigned char)p[i] - '0';
      if( d>9 ) return 0;
      v = v*10 + d;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 1;
  }
  for(; i<n; i++){
    unsigned d = (unsigned)(unsigned char)p[i] - '0';
    if( d>9 ) return 0;
    if( v > (UINT64_MAX-d)/10 ) return 0;
    v = v*10 + d;
  }
  if( neg ){
    if( v > (uint64_t)INT64_MAX+1 ) return 0;
    *out = v==(uint64_t)INT64_MAX+1 ? INT64_MIN : -(int64_t)v;
  }else{
    if( v > (uint64_t)INT64_MAX ) return 0;
    *out = (int64_t)v;
  }
  return 1;
}

static const double pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
  1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

int csv_parse_real(const char *p, uint32_t n, double *out){
  uint32_t i = 0;
  int neg = 0;
  if( n && (p[0]=='-' || p[0]=='+') ){ neg = p[0]=='-'; i = 1; }
  if( i<n && (p[i]=='i' || p[i]=='I' || p[i]=='n' || p[i]=='N') ){
    uint32_t r = n-i;
    if( (r==3 && strncasecmp(p+i, "inf", 3)==0)
     || (r==8 && strncasecmp(p+i, "infinity", 8)==0) ){
      *out = neg ? -INFINITY : INFINITY;
      return 1;
    }
    if( r==3 && strncasecmp(p+i, "nan", 3)==0 ) return 2;
    return 0;
  }
  uint64_t mant = 0;
  int ndig = 0, exp10 = 0, sig = 0, any = 0;
  for(; i<n && (unsigned)(p[i]-'0')<10; i++){
    any = 1;
    if( sig<19 ){ mant = mant*10 + (uint64_t)(p[i]-'0'); if( mant ) sig++; }
    else exp10++;
    ndig++;
  }
  if( i<n && p[i]=='.' ){
    for(i++; i<n && (unsigned)(p[i]-'0')<10; i++){
      any = 1;
      if( sig<19 ){ mant = mant*10 + (uint64_t)(p[i]-'0'); if( mant ) sig++; exp10--; }
      ndig++;
    }
  }
  if( !any ) return 0;
  if( i<n && (p[i]=='e' || p[i]=='E') ){
    int eneg = 0, ev = 0, edig = 0;
    i++;
    if( i<n && (p[i]=='-' || p[i]=='+') ){ eneg = p[i]=='-'; i++; }
    for(; i<n && (unsigned)(p[i]-'0')<10; i++){
      if( ev<100000 ) ev = ev*10 + (p[i]-'0');
      edig++;
    }
    if( !edig ) return 0;
    exp10 += eneg ? -ev : ev;
  }
  if( i!=n ) return 0;
  (void)ndig;
  double v;
  if( mant < (1ull<<53) && exp10>=-22 && exp10<=22 && sig<19 ){
    /* Both operands exact: one correctly rounded operation. */
    v = (double)mant;
    v = exp10<0 ? v/pow10_exact[-exp10] : v*pow10_exact[exp10];
  }else{
    /* Rare: many digits or a big exponent. Syntax is checked above, so
    ** strtod sees only [-+0-9.eE]. */
    char small[128];
    char *z = n<sizeof(small) ? small : malloc((size_t)n+1);
    if( z==0 ) return 0;
    memcpy(z, p, n);
    z[n] = 0;
    v = strtod(z, 0);
    if( z!=small ) free(z);
    *out = v;
    return 1;
  }
  *out = neg ? -v : v;
  return 1;
}

static int digits(const char *p, int n, int *v){
  int x = 0;
  for(int i=0; i<n; i++){
    unsigned d = (unsigned)(unsigned char)p[i] - '0';
    if( d>9 ) return 0;
    x = x*10 + (int)d;
  }
  *v = x;
  return 1;
}

/* HH:MM[:SS[.f]] at p[0..n) into out (normalized); length or 0. */
static uint32_t parse_clock(const char *p, uint32_t n, char *out){
  int h, m, s = 0;
  if( n<5 || !digits(p, 2, &h) || p[2]!=':' || !digits(p+3, 2, &m) ) return 0;
  if( h>23 || m>59 ) return 0;
  uint32_t i = 5;
  char frac[9];
  int nf = 0;
  if( i<n && p[i]==':' ){
    if( n<8 || !digits(p+6, 2, &s) || s>59 ) return 0;
    i = 8;
    if( i<n && p[i]=='.' ){
      i++;
      uint32_t f0 = i;
      for(; i<n && (unsigned)(p[i]-'0')<10; i++){
        if( i-f0>=9 ) return 0;
        frac[nf++] = p[i];
      }
      if( i==f0 ) return 0;
    }
  }
  if( i!=n ) return 0;
  while( nf>0 && frac[nf-1]=='0' ) nf--;
  int w = nf==0 ? 0 : nf<=3 ? 3 : nf<=6 ? 6 : 9;
  out[0] = (char)('0'+h/10); out[1] = (char)('0'+h%10); out[2] = ':';
  out[3] = (char)('0'+m/10); out[4] = (char)('0'+m%10); out[5] = ':';
  out[6] = (char)('0'+s/10); out[7] = (char)('0'+s%10);
  uint32_t k = 8;
  if( w ){
    out[k++] = '.';
    for(int j=0; j<w; j++) out[k++] = j<nf ? frac[j] : '0';
  }
  return k;
}

int csv_parse_time(const char *p, uint32_t n, char *out, uint32_t *outn){
  uint32_t k = parse_clock(p, n, out);
  if( k==0 ) return 0;
  *outn = k;
  return 1;
}

int csv_parse_date(const char *p, uint32_t n, char *out, uint32_t *outn){
  static const int mdays[] = { 31,28,31,30,31,30,31,31,30,31,30,31 };
  int y, m, d;
  if( n!=10 || p[4]!='-' || p[7]!='-' ) return 0;
  if( !digits(p, 4, &y) || !digits(p+5, 2, &m) || !digits(p+8, 2, &d) ) return 0;
  if( m<1 || m>12 || d<1 ) return 0;
  int leap = (y%4==0 && y%100!=0) || y%400==0;
  if( d > mdays[m-1] + (m==2 && leap) ) return 0;
  memcpy(out, p, 10);
  *outn = 10;
  return 1;
}

int csv_parse_ts(const char *p, uint32_t n, char *out, uint32_t *outn){
  if( n<10 || !csv_parse_date(p, 10, out, outn) ) return 0;
  if( n>10 && p[n-1]=='Z' ) n--;
  out[10] = ' ';
  if( n==10 ){
    memcpy(out+11, "00:00:00", 8);
    *outn = 19;
    return 1;
  }
  if( p[10]!=' ' && p[10]!='T' ) return 0;
  uint32_t k = parse_clock(p+11, n-11, out+11);
  if( k==0 ) return 0;
  *outn = 11+k;
  return 1;
}

int csv_leading_zero(const char *p, uint32_t n){
  uint32_t i = n && (p[0]=='-' || p[0]=='+');
  return i+1<n && p[i]=='0' && (unsigned)(p[i+1]-'0')<10;
}

unsigned csv_type_narrow(unsigned mask, const char *p, uint32_t n){
  int64_t i;
  double f;
  char buf[CSV_TS_MAX];
  uint32_t k;
  if( (mask & (1u<<CSV_T_BOOL)) && !csv_parse_bool(p, n, &i) ) mask &= ~(1u<<CSV_T_BOOL);
  if( (mask & (1u<<CSV_T_INT)) && !csv_parse_int(p, n, &i) ) mask &= ~(1u<<CSV_T_INT);
  if( (mask & (1u<<CSV_T_REAL)) && !csv_parse_real(p, n, &f) ) mask &= ~(1u<<CSV_T_REAL);
  if( (mask & (1u<<CSV_T_TIME)) && !csv_parse_time(p, n, buf, &k) ) mask &= ~(1u<<CSV_T_TIME);
  if( (mask & (1u<<CSV_T_DATE)) && !csv_parse_date(p, n, buf, &k) ) mask &= ~(1u<<CSV_T_DATE);
  if( (mask & (1u<<CSV_T_TS)) && !csv_parse_ts(p, n, buf, &k) ) mask &= ~(1u<<CSV_T_TS);
  return mask;
}

int csv_type_pick(unsigned mask){
  for(int t=0; t<CSV_T_COUNT; t++) if( mask & (1u<<t) ) return t;
  return CSV_T_TEXT;
}

const char *csv_type_decl(int kind){
  switch( kind ){
    case CSV_T_BOOL: case CSV_T_INT: return "INTEGER";
    case CSV_T_REAL: return "REAL";
    default: return "TEXT";
  }
}

const char *csv_type_name(int kind){
  static const char *const names[] = {
    "BOOLEAN", "INTEGER", "REAL", "TIME", "DATE", "TIMESTAMP", "TEXT"
  };
  return kind>=0 && kind<CSV_T_COUNT ? names[kind] : "TEXT";
}

int csv_type_from_name(const char *p, uint32_t n){
  static const struct { const char *name; int kind; } map[] = {
    {"INTEGER", CSV_T_INT}, {"INT", CSV_T_INT}, {"BIGINT", CSV_T_INT},
    {"REAL", CSV_T_REAL}, {"DOUBLE", CSV_T_REAL}, {"FLOAT", CSV_T_REAL},
    {"TEXT", CSV_T_TEXT}, {"VARCHAR", CSV_T_TEXT}, {"BOOLEAN", CSV_T_BOOL},
    {"BOOL", CSV_T_BOOL}, {"DATE", CSV_T_DATE}, {"TIME", CSV_T_TIME},
    {"TIMESTAMP", CSV_T_TS}, {"DATETIME", CSV_T_TS},
  };
  for(size_t i=0; i<sizeof(map)/sizeof(map[0]); i++){
    if( strlen(map[i].name)==n && strncasecmp(map[i].name, p, n)==0 ) return map[i].kind;
  }
  return -1;
}
