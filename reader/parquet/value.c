/*
** value.c — text forms of dates, times, timestamps, decimals, UUIDs; FLOAT16.
*/
#include "value.h"
#include "meta.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void pq_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d){
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  uint64_t doe = (uint64_t)(z - era * 146097);
  uint64_t yoe = (doe - doe/1460 + doe/36524 - doe/146096) / 365;
  int64_t yy = (int64_t)yoe + era * 400;
  uint64_t doy = doe - (365*yoe + yoe/4 - yoe/100);
  uint64_t mp = (5*doy + 2)/153;
  *d = (unsigned)(doy - (153*mp+2)/5 + 1);
  *m = (unsigned)(mp < 10 ? mp+3 : mp-9);
  *y = yy + (*m <= 2);
}

/* Digits by hand: these formatters run once per value of plain-encoded
** temporal columns, and printf was most of a SELECT * profile. */
static inline void put2(char *p, unsigned v){ p[0] = (char)('0'+v/10); p[1] = (char)('0'+v%10); }
static inline void putn(char *p, uint64_t v, int n){
  while( n-- > 0 ){ p[n] = (char)('0'+v%10); v /= 10; }
}

static int format_year(int64_t y, char *buf){
  if( y>=0 && y<=9999 ){ putn(buf, (uint64_t)y, 4); return 4; }
  return sprintf(buf, "%+05lld", (long long)y);
}

int pq_format_date(int64_t days, char *buf){
  int64_t y; unsigned m, d;
  pq_civil_from_days(days, &y, &m, &d);
  int n = format_year(y, buf);
  buf[n] = '-'; put2(buf+n+1, m);
  buf[n+3] = '-'; put2(buf+n+4, d);
  buf[n+6] = 0;
  return n+6;
}

/* ".fff", ".ffffff" or ".fffffffff" for frac nanoseconds, "" when zero. */
static int format_fraction(int64_t nanos, char *buf){
  int n;
  if( nanos==0 ){ buf[0] = 0; return 0; }
  if( nanos % 1000000 == 0 ){ nanos /= 1000000; n = 3; }
  else if( nanos % 1000 == 0 ){ nanos /= 1000; n = 6; }
  else n = 9;
  buf[0] = '.';
  putn(buf+1, (uint64_t)nanos, n);
  buf[n+1] = 0;
  return n+1;
}

static int64_t unit_per_second(int unit){
  return unit==PQ_UNIT_MILLIS ? 1000 : unit==PQ_UNIT_NANOS ? 1000000000 : 1000000;
}

/* Floor division and the matching non-negative remainder. */
static int64_t floor_div(int64_t a, int64_t b, int64_t *rem){
  int64_t q = a / b, r = a % b;
  if( r<0 ){ q--; r += b; }
  *rem = r;
  return q;
}

/* days since epoch + nanoseconds into that day (0 <= nod < 86400e9). */
/* The date of days into buf through memo (may be NULL). */
static int format_date_memo(int64_t days, char *buf, pq_date_memo *memo){
  if( memo==0 ) return pq_format_date(days, buf);
  unsigned k = (unsigned)((uint64_t)days & 63);
  if( memo->used[k] && memo->days[k]==days ){
    memcpy(buf, memo->text[k], 10);
    buf[10] = 0;
    return 10;
  }
  int n = pq_format_date(days, buf);
  if( n==10 ){
    memcpy(memo->text[k], buf, 10);
    memo->days[k] = days;
    memo->used[k] = 1;
  }
  return n;
}

static int format_ts_parts(int64_t days, int64_t nod, char *buf, pq_date_memo *memo){
  int n = format_date_memo(days, buf, memo);
  int64_t secs = nod / 1000000000, frac = nod % 1000000000;
  buf[n] = ' ';
  put2(buf+n+1, (unsigned)(secs/3600)); buf[n+3] = ':';
  put2(buf+n+4, (unsigned)(secs/60%60)); buf[n+6] = ':';
  put2(buf+n+7, (unsigned)(secs%60));
  n += 9;
  return n + format_fraction(frac, buf+n);
}

int pq_format_timestamp_memo(int64_t v, int unit, char *buf, pq_date_memo *memo){
  int64_t per = unit_per_second(unit), rem;
  int64_t days = floor_div(v, per*86400, &rem);
  return format_ts_parts(days, rem * (1000000000/per), buf, memo);
}

int pq_format_timestamp(int64_t v, int unit, char *buf){
  return pq_format_timestamp_memo(v, unit, buf, 0);
}

int pq_format_time(int64_t v, int unit, char *buf){
  int64_t per = unit_per_second(unit), frac;
  int64_t secs = floor_div(v, per, &frac);
  int n = sprintf(buf, "%02lld:%02d:%02d", (long long)(secs/3600), (int)(secs/60%60), (int)(secs%60));
  return n + format_fraction(frac * (1000000000/per), buf+n);
}

int pq_format_int96(const uint8_t *p, char *buf){
  int64_t nanos; int32_t jd;
  memcpy(&nanos, p, 8);
  memcpy(&jd, p+8, 4);
  /* Microseconds since the epoch in wrapping 64-bit arithmetic, as Spark
  ** computes them; the sub-microsecond part is kept on top. For every value
  ** a writer produces from a real timestamp this is exact. */
  uint64_t micros = (uint64_t)((int64_t)jd - 2440588) * UINT64_C(86400000000)
                  + (uint64_t)(nanos / 1000);
  int64_t sub = nanos % 1000, rem;
  if( sub<0 ){ sub += 1000; micros -= 1; }
  int64_t days = floor_div((int64_t)micros, INT64_C(86400000000), &rem);
  return format_ts_parts(days, rem*1000 + sub, buf, 0);
}

int pq_format_uuid(const uint8_t *p, char *buf){
  static const char hex[] = "0123456789abcdef";
  int n = 0;
  for(int i=0; i<16; i++){
    if( i==4 || i==6 || i==8 || i==10 ) buf[n++] = '-';
    buf[n++] = hex[p[i]>>4];
    buf[n++] = hex[p[i]&15];
  }
  buf[n] = 0;
  return n;
}

double pq_float16_to_double(uint16_t h){
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if( e==0 ) v = ldexp((double)m, -24);
  else if( e==31 ) v = m ? NAN : INFINITY;
  else v = ldexp((double)(m | 1024), e - 25);
  return s ? -v : v;
}

/* Place the point: digits[0..nd) is the magnitude in decimal. */
static int place_point(int neg, const char *digits, int nd, int scale,
                       char *buf, size_t cap){
  if( scale<0 ) scale = 0;
  int intdigits = nd > scale ? nd - scale : 1;
  size_t need = (size_t)neg + (size_t)intdigits + (scale ? 1 + (size_t)scale : 0) + 1;
  if( need > cap ) return -1;
  int n = 0;
  if( neg ) buf[n++] = '-';
  if( nd > scale ){
    memcpy(buf+n, digits, (size_t)(nd-scale)); n += nd-scale;
  }else{
    buf[n++] = '0';
  }
  if( scale ){
    buf[n++] = '.';
    for(int i=0; i<scale-nd; i++) buf[n++] = '0';
    int from = nd > scale ? nd - scale : 0;
    memcpy(buf+n, digits+from, (size_t)(nd-from)); n += nd-from;
  }
  buf[n] = 0;
  return n;
}

int pq_decimal_text_i64(int64_t v, int scale, char *buf, size_t cap){
  char digits[24];
  uint64_t mag = v<0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int nd = sprintf(digits, "%llu", (unsigned long long)mag);
  return place_point(v<0, digits, nd, scale, buf, cap);
}

int pq_decimal_text_be(const uint8_t *p, size_t n, int scale, char *buf, size_t cap){
  /* Magnitude as base-1e9 limbs by repeated multiply-add over the bytes. */
  uint32_t limbs[64];
  int nl = 0;
  int neg = n>0 && (p[0] & 0x80);
  char digits[600];
  if( n > 200 ) return -1;
  /* two's complement negate on the fly: magnitude = ~x + 1 */
  uint8_t tmp[200];
  for(size_t i=0; i<n; i++) tmp[i] = neg ? (uint8_t)~p[i] : p[i];
  if( neg ){
    for(size_t i=n; i-- > 0; ){ if( ++tmp[i]!=0 ) break; }
  }
  for(size_t i=0; i<n; i++){
    uint64_t carry = tmp[i];
    for(int k=0; k<nl; k++){
      uint64_t x = (uint64_t)limbs[k]*256 + carry;
      limbs[k] = (uint32_t)(x % 1000000000);
      carry = x / 1000000000;
    }
    while( carry ){
      if( nl>=64 ) return -1;
      limbs[nl++] = (uint32_t)(carry % 1000000000);
      carry /= 1000000000;
    }
  }
  int nd;
  if( nl==0 ){ digits[0] = '0'; nd = 1; neg = 0; }
  else{
    nd = sprintf(digits, "%u", limbs[nl-1]);
    for(int k=nl-2; k>=0; k--) nd += sprintf(digits+nd, "%09u", limbs[k]);
  }
  return place_point(neg, digits, nd, scale, buf, cap);
}
