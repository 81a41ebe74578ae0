/*
** datetime.c — strftime() and friends as SQLite 3.40's date.c computes them;
** see datetime.h. Times are held as milliseconds of Julian day (iJD).
*/
#include "datetime.h"
#include "value.h"
#include "../reader/parquet/value.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* A parsed date and time (SQLite's DateTime, without the modifier state). */
typedef struct agg_dt {
  int64_t jd;             /* Julian day * 86400000 */
  int Y, M, D;            /* year, month, day */
  int h, m;               /* hour, minute */
  int tz;                 /* time zone offset in minutes */
  double s;               /* seconds with fraction */
  uint8_t valid_jd;       /* jd is set */
  uint8_t valid_ymd;      /* Y, M, D are set */
  uint8_t valid_hms;      /* h, m, s are set */
  uint8_t valid_tz;       /* tz must be applied */
  uint8_t raw_s;          /* s holds a raw number */
  uint8_t error;          /* the value is not a date */
  uint16_t rules;         /* DT_*: the SQLite version's reading */
  uint8_t tz_set;         /* 3.40's tzSet: a zone suffix was read, or 'utc'
                          ** ran (a later 'utc' does nothing) */
  uint8_t is_utc;         /* 3.42's isUtc and isLocal: the time is known to */
  uint8_t is_local;       /* be UTC / local ('utc' / 'localtime' do nothing) */
  uint8_t use_subsec;     /* 'subsec' ran: milliseconds shown */
  int8_t n_floor;         /* date.c's nFloor: days past the month's end the
                          ** last month or year step made, for 'floor' */
} agg_dt;

/* agg_dt.rules: what later SQLite versions do differently (col_dialect) */
#define DT_MS_CUT   1     /* date_ms_cut */
#define DT_JD_EXACT 2     /* date_jd_exact */
#define DT_HOUR24   4     /* date_hour24 */
#define DT_LOCAL_340 8    /* date_local AGG_LOCAL_340 */
#define DT_LOCAL_342 16   /* date_local AGG_LOCAL_342 */
#define DT_SUBSEC   32    /* date_subsec */
#define DT_YMD      64    /* date_ymd_mod */
#define DT_FLOOR   128    /* date_floor */
#define DT_TZ0_UTC 256    /* date_local AGG_LOCAL_353 (with DT_LOCAL_342) */
#define DT_ATOF_SHIFT 9   /* atof_mode, in 3 bits from here (dt_read's rules
                          ** alone: agg_dt.rules keeps the bits below) */

static int dt_rules(const col_dialect *d){
  if( d==0 ) return DT_LOCAL_340;
  return (d->date_ms_cut ? DT_MS_CUT : 0) | (d->date_jd_exact ? DT_JD_EXACT : 0)
       | (d->date_hour24 ? DT_HOUR24 : 0)
       | (d->date_local==AGG_LOCAL_340 ? DT_LOCAL_340 : 0)
       | (d->date_local==AGG_LOCAL_342 || d->date_local==AGG_LOCAL_353 ? DT_LOCAL_342 : 0)
       | (d->date_local==AGG_LOCAL_353 ? DT_TZ0_UTC : 0)
       | (d->date_subsec ? DT_SUBSEC : 0)
       | (d->date_ymd_mod ? DT_YMD : 0) | (d->date_floor ? DT_FLOOR : 0)
       | (d->atof_mode & 7) << DT_ATOF_SHIFT;
}

static int dt_days_of_month(int Y, int M){
  if( (1<<M) & 0x15aa ) return 31;
  if( M!=2 ) return 30;
  return Y%4==0 && (Y%100!=0 || Y%400==0) ? 29 : 28;
}

/* date.c's computeFloor: how many days the day of the month is past the
** month's end, as a date was read or a step of months or years left it
** ('floor' takes them back). */
static void dt_floor_days(agg_dt *p){
  if( p->D<=28 || ((1<<p->M) & 0x15aa) ) p->n_floor = 0;
  else if( p->M!=2 ) p->n_floor = (int8_t)(p->D==31);
  else p->n_floor = (int8_t)(p->D - dt_days_of_month(p->Y, 2));
}

static int dt_isspace(char c){ return c==' '||c=='\t'||c=='\n'||c=='\v'||c=='\f'||c=='\r'; }
static int dt_isdigit(char c){ return c>='0' && c<='9'; }

/* Read fixed-width digit fields: spec is groups of (width, min, max-code,
** separator) as in date.c's getDigits. Returns the number of fields read. */
static int dt_digits(const char *z, const char *spec, int *out[], int nfield){
  static const int mx[] = { 12, 14, 24, 31, 59, 9999 };
  int cnt = 0;
  for(int f=0; f<nfield; f++){
    int n = spec[0]-'0', lo = spec[1]-'0', hi = mx[spec[2]-'a'];
    char next = spec[3];
    int v = 0;
    while( n-- ){
      if( !dt_isdigit(*z) ) return cnt;
      v = v*10 + (*z - '0');
      z++;
    }
    if( v<lo || v>hi || (next && next!=*z) ) return cnt;
    *out[f] = v;
    cnt++;
    if( next ) z++;
    spec += 4;
  }
  return cnt;
}

static int dt_timezone(const char *z, agg_dt *p){
  int sgn = 0, hr, mn;
  while( dt_isspace(*z) ) z++;
  p->tz = 0;
  char c = *z;
  if( c=='-' ) sgn = -1;
  else if( c=='+' ) sgn = 1;
  else if( c=='Z' || c=='z' ){ z++; p->is_utc = 1; p->is_local = 0; goto zulu; }
  else return c!=0;
  z++;
  int *o[2] = { &hr, &mn };
  if( dt_digits(z, "20b:20e\0", o, 2)!=2 ) return 1;
  z += 5;
  p->tz = sgn*(mn + hr*60);
  if( p->tz==0 && (p->rules & DT_TZ0_UTC) ){ p->is_utc = 1; p->is_local = 0; }
zulu:
  while( dt_isspace(*z) ) z++;
  p->tz_set = 1;
  return *z!=0;
}

static int dt_hms(const char *z, agg_dt *p){
  int h, m, s;
  double ms = 0.0;
  int *o[2] = { &h, &m };
  if( dt_digits(z, "20c:20e\0", o, 2)!=2 ) return 1;
  z += 5;
  if( *z==':' ){
    z++;
    int *o1[1] = { &s };
    if( dt_digits(z, "20e\0", o1, 1)!=1 ) return 1;
    z += 2;
    if( *z=='.' && dt_isdigit(z[1]) ){
      double scale = 1.0;
      z++;
      while( dt_isdigit(*z) ){ ms = ms*10.0 + (*z - '0'); scale *= 10.0; z++; }
      ms /= scale;
      if( (p->rules & DT_MS_CUT) && ms>0.999 ) ms = 0.999;
    }
  }else{
    s = 0;
  }
  if( (p->rules & DT_HOUR24) && h==24 && (m!=0 || s!=0 || ms!=0.0) ) return 1;
  p->valid_jd = 0; p->raw_s = 0; p->valid_hms = 1;
  p->h = h; p->m = m; p->s = s + ms;
  if( dt_timezone(z, p) ) return 1;
  p->valid_tz = p->tz!=0;
  return 0;
}

static void dt_clear(agg_dt *p, int rules);

/* datetimeError(): every field zero, and the error, which only 'localtime'
** and 'utc' clear again (a later modifier computes from the zeros). */
static void dt_error(agg_dt *p){
  dt_clear(p, p->rules);
  p->error = 1;
}

static void dt_compute_jd(agg_dt *p){
  int Y, M, D;
  if( p->valid_jd ) return;
  if( p->valid_ymd ){ Y = p->Y; M = p->M; D = p->D; }
  else{
    Y = 2000; M = 1; D = 1;
    if( (p->rules & DT_HOUR24) && p->valid_hms && p->h==24 ){ p->h = 0; D = 2; }
  }
  if( Y<-4713 || Y>9999 || p->raw_s ){ dt_error(p); return; }
  if( M<=2 ){ Y--; M += 12; }
  int exact = (p->rules & DT_JD_EXACT)!=0;
  int A = exact ? (Y+4800)/100 : Y/100;
  int B = exact ? 38 - A + (A/4) : 2 - A + (A/4);
  int X1 = 36525*(Y+4716)/100;
  int X2 = 306001*(M+1)/10000;
  p->jd = (int64_t)((X1 + X2 + D + B - 1524.5) * 86400000);
  p->valid_jd = 1;
  if( p->valid_hms ){
    p->jd += p->h*3600000 + p->m*60000 + (int64_t)(p->s*1000 + 0.5);
    if( p->valid_tz ){
      p->jd -= p->tz*60000;
      p->valid_ymd = 0; p->valid_hms = 0; p->valid_tz = 0;
      p->is_utc = 1; p->is_local = 0;
    }
  }
}

static int dt_ymd(const char *z, agg_dt *p){
  int Y, M, D, neg = 0;
  if( z[0]=='-' ){ z++; neg = 1; }
  int *o[3] = { &Y, &M, &D };
  if( dt_digits(z, "40f-21a-21d\0", o, 3)!=3 ) return 1;
  z += 10;
  while( dt_isspace(*z) || *z=='T' ) z++;
  if( dt_hms(z, p)==0 ){
    if( (p->rules & DT_HOUR24) && p->h==24 ){
      /* 24:00:00 is the next day's midnight */
      int mx = dt_days_of_month(Y, M);
      p->h = 0;
      if( ++D>mx ){ D -= mx; if( ++M>12 ){ M = 1; Y++; } }
    }
  }else if( *z==0 ){
    p->valid_hms = 0;
  }else{
    return 1;
  }
  p->valid_jd = 0; p->valid_ymd = 1;
  p->Y = neg ? -Y : Y; p->M = M; p->D = D;
  dt_floor_days(p);
  if( p->valid_tz ) dt_compute_jd(p);
  return 0;
}

static void dt_raw_number(agg_dt *p, double r){
  p->s = r;
  p->raw_s = 1;
  if( r>=0.0 && r<5373484.5 ){
    p->jd = (int64_t)(r*86400000.0 + 0.5);
    p->valid_jd = 1;
  }
}

static int dt_valid_jd(int64_t jd){ return jd>=0 && jd<=464269060799999LL; }

/* isDate() without modifiers: 0 when x is a date, else 1. normalize: a
** YYYY-MM-DD past its month's end is re-read from the Julian day. */
static void dt_clear(agg_dt *p, int rules){
  memset(p, 0, sizeof(*p));
  p->rules = (uint16_t)rules;
}

/* The value x as isDate() reads it before any modifier: 1 when it is not
** a date at all. */
static int dt_read(const pred_value *x, int rules, agg_dt *p){
  dt_clear(p, rules);
  if( x->type==CV_NULL ) return 1;
  if( x->type==CV_INT || x->type==CV_REAL ){
    dt_raw_number(p, x->type==CV_INT ? (double)x->i : x->f);
  }else{
    char buf[128];
    uint32_t n = x->n < sizeof(buf)-1 ? x->n : (uint32_t)sizeof(buf)-1;
    if( x->n >= sizeof(buf) ) return 1;   /* no date is this long */
    memcpy(buf, x->p, n);
    buf[n] = 0;                           /* text stops at a NUL, as in C */
    uint32_t len = (uint32_t)strlen(buf);
    double r;
    if( dt_ymd(buf, p)==0 ){
    }else if( (dt_clear(p, rules), dt_hms(buf, p)==0) ){
    }else if( dt_clear(p, rules), agg_atof((rules >> DT_ATOF_SHIFT) & 7, buf, len, &r)>0 ){
      dt_raw_number(p, r);
    }else{
      return 1;
    }
  }
  return 0;
}

static int dt_parse(const pred_value *x, int normalize, int rules, agg_dt *p){
  if( dt_read(x, rules, p) ) return 1;
  dt_compute_jd(p);
  if( p->error || !dt_valid_jd(p->jd) ) return 1;
  if( normalize && p->valid_ymd && p->D>28 ) p->valid_ymd = 0;
  return 0;
}

static void dt_compute_ymd(agg_dt *p){
  if( p->valid_ymd ) return;
  if( !p->valid_jd ){ p->Y = 2000; p->M = 1; p->D = 1; }
  else if( !dt_valid_jd(p->jd) ){ dt_error(p); return; }
  else{
    int Z = (int)((p->jd + 43200000)/86400000), A;
    if( p->rules & DT_JD_EXACT ){
      int alpha = (int)((Z + 32044.75)/36524.25) - 52;
      A = Z + 1 + alpha - ((alpha+100)/4) + 25;
    }else{
      A = (int)((Z - 1867216.25)/36524.25);
      A = Z + 1 + A - (A/4);
    }
    int B = A + 1524;
    int C = (int)((B - 122.1)/365.25);
    int D = (36525*(C&32767))/100;
    int E = (int)((B-D)/30.6001);
    int X1 = (int)(30.6001*E);
    p->D = B - D - X1;
    p->M = E<14 ? E-1 : E-13;
    p->Y = p->M>2 ? C - 4716 : C - 4715;
  }
  p->valid_ymd = 1;
}

static void dt_compute_hms(agg_dt *p){
  if( p->valid_hms ) return;
  dt_compute_jd(p);
  int s = (int)((p->jd + 43200000) % 86400000);
  p->s = s/1000.0;
  s = (int)p->s;
  p->s -= s;
  p->h = s/3600;
  s -= p->h*3600;
  p->m = s/60;
  p->s += s - p->m*60;
  p->raw_s = 0;
  p->valid_hms = 1;
}

/* ---- modifiers ----------------------------------------------------------- */

static int dt_prefix(const char *z, uint32_t n, const char *w){
  size_t k = strlen(w);
  return n>=k && strncasecmp(z, w, k)==0;
}
static int dt_same(const char *z, uint32_t n, const char *w){
  return n==strlen(w) && dt_prefix(z, n, w);
}

/* date.c's aXformType: unit name, limit of the amount, seconds per unit */
static const struct { const char *name; double limit, secs; } dt_units[] = {
  { "second", 4.6427e+14, 1.0 }, { "minute", 7.7379e+12, 60.0 },
  { "hour", 1.2897e+11, 3600.0 }, { "day", 5373485.0, 86400.0 },
  { "month", 176546.0, 2592000.0 }, { "year", 14713.0, 31536000.0 },
};

/* HH:MM[:SS[.FFF]] at t as a modifier adds it: its milliseconds past
** midnight (a zone suffix applied), and its hour. 1 when t is not such a
** time. */
static int dt_time_offset(const char *t, int64_t *ms, int *hour){
  agg_dt tx;
  dt_clear(&tx, 0);
  if( dt_hms(t, &tx) ) return 1;
  *hour = tx.h;
  dt_compute_jd(&tx);
  tx.jd -= 43200000;
  *ms = tx.jd - (tx.jd/86400000)*86400000;
  return 0;
}

/* Months past 12 or below 1 carried into the year (date.c's step of
** months and its YMD modifier). */
static void dt_carry_months(agg_dt *p){
  int x = p->M>0 ? (p->M-1)/12 : (p->M-12)/12;
  p->Y += x;
  p->M -= x*12;
}

/* (+|-)YYYY-MM-DD[ HH:MM[:SS[.FFF]]] as parseModifier reads it since 3.43:
** a sign, 4 digits (or 5 up to 14712) and '-' commit to this form; a
** month past 11, a day past 30 or anything else after them makes the
** result NULL (as every version's reading does). 0 when buf[0..n) is of
** the form (m set), 1 when not. */
static int dt_ymd_mod_parse(const char *buf, uint32_t n, agg_date_mod *m){
  if( buf[0]!='+' && buf[0]!='-' ) return 1;
  uint32_t w = 0;
  while( w<5 && 1+w<n && dt_isdigit(buf[1+w]) ) w++;
  if( w<4 || 1+w>=n || buf[1+w]!='-' ) return 1;
  int y = 0;
  for(uint32_t i=0; i<w; i++) y = y*10 + (buf[1+i] - '0');
  if( w==5 && y>14712 ) return 1;
  /* committed: from here what is not a valid modifier is NULL */
  m->kind = AGG_DM_NULL;
  const char *z = buf + 2 + w;            /* after the '-' */
  int mo, d;
  int *o[2] = { &mo, &d };
  if( dt_digits(z, "20a-20d\0", o, 2)!=2 || mo>=12 || d>=31 ) return 0;
  z += 5;
  int64_t ms = 0;
  int has_time = 0;
  if( *z ){
    int hh, mm;
    int *t[2] = { &hh, &mm };
    if( !dt_isspace(*z) || dt_digits(z+1, "20c:20e\0", t, 2)!=2 ) return 0;
    /* the time as '+HH:MM[:SS[.FFF]]' reads it; an hour of 24, or more
    ** digits of a second than the versions agree on, go to SQLite */
    const char *f = strchr(z+1, '.');
    if( hh>=24 || (f && strspn(f+1, "0123456789")>3) ) return 1;
    if( dt_time_offset(z+1, &ms, &hh) ) return 0;
    has_time = 1;
  }
  m->kind = AGG_DM_ADD_YMD;
  m->n = buf[0]=='-' ? -1 : 1;
  m->y = y; m->mo = mo; m->d = d;
  m->ms = buf[0]=='-' ? -ms : ms;
  m->has_time = has_time;
  return 0;
}

int agg_date_mod_parse(const char *z, uint32_t n, agg_date_mod *m){
  memset(m, 0, sizeof(*m));
  /* 3.40 reads at most 29 bytes of a modifier, later versions all of it */
  if( n==0 || n>29 || memchr(z, 0, n) ) return 1;
  char buf[32];
  memcpy(buf, z, n); buf[n] = 0;
  if( dt_prefix(buf, n, "start of ") ){
    const char *u = buf + 9;
    uint32_t k = n - 9;
    if( dt_same(u, k, "day") ) m->kind = AGG_DM_START_DAY;
    else if( dt_same(u, k, "month") ) m->kind = AGG_DM_START_MONTH;
    else if( dt_same(u, k, "year") ) m->kind = AGG_DM_START_YEAR;
    else return 1;
    return 0;
  }
  if( dt_same(buf, n, "unixepoch") ){ m->kind = AGG_DM_UNIXEPOCH; return 0; }
  if( dt_same(buf, n, "julianday") ){ m->kind = AGG_DM_JULIANDAY; return 0; }
  if( dt_same(buf, n, "auto") ){ m->kind = AGG_DM_AUTO; return 0; }
  if( dt_same(buf, n, "localtime") ){ m->kind = AGG_DM_LOCALTIME; return 0; }
  if( dt_same(buf, n, "utc") ){ m->kind = AGG_DM_UTC; return 0; }
  if( dt_same(buf, n, "subsec") || dt_same(buf, n, "subsecond") ){ m->kind = AGG_DM_SUBSEC; return 0; }
  if( dt_prefix(buf, n, "weekday ") ){
    double r;
    if( agg_atof(0, buf+8, n-8, &r)<=0 || !(r>=0.0 && r<7.0) || (int)r!=r ) return 1;
    m->kind = AGG_DM_WEEKDAY; m->n = (int)r;
    return 0;
  }
  if( dt_same(buf, n, "floor") ){ m->kind = AGG_DM_FLOOR; return 0; }
  if( dt_same(buf, n, "ceiling") ){ m->kind = AGG_DM_CEILING; return 0; }
  if( dt_ymd_mod_parse(buf, n, m)==0 ) return 0;
  if( !(buf[0]=='+' || buf[0]=='-' || dt_isdigit(buf[0])) ) return 1;
  uint32_t k = 1;
  while( k<n && buf[k]!=':' && !dt_isspace(buf[k]) ) k++;
  double r;
  /* parsed before a dialect is known: 3.40's arithmetic (agg_atof) */
  if( agg_atof(0, buf, k, &r)<=0 ) return 1;
  if( k<n && buf[k]==':' ){
    /* (+|-)HH:MM[:SS[.FFF]]: a time of day as an offset, hour below 24 */
    const char *t = dt_isdigit(buf[0]) ? buf : buf + 1;
    int64_t ms;
    int h;
    if( dt_time_offset(t, &ms, &h) || h>=24 ) return 1;
    m->kind = AGG_DM_ADD_MS;
    m->ms = buf[0]=='-' ? -ms : ms;
    return 0;
  }
  const char *u = buf + k;
  while( dt_isspace(*u) ) u++;
  uint32_t ul = (uint32_t)strlen(u);
  if( ul<3 || ul>10 ) return 1;
  if( u[ul-1]=='s' || u[ul-1]=='S' ) ul--;
  for(int i=0; i<6; i++){
    if( dt_same(u, ul, dt_units[i].name) ){
      m->kind = AGG_DM_ADD; m->n = i; m->r = r;
      /* an amount past the unit's limit makes the result NULL */
      if( !(r>-dt_units[i].limit && r<dt_units[i].limit) ) m->kind = AGG_DM_NULL;
      return 0;
    }
  }
  return 1;
}

int agg_date_mods_daily(const agg_date_mod *mods, int nmods){
  for(int i=0; i<nmods; i++){
    const agg_date_mod *m = &mods[i];
    switch( m->kind ){
      case AGG_DM_START_DAY: case AGG_DM_START_MONTH: case AGG_DM_START_YEAR:
      case AGG_DM_WEEKDAY:
        break;
      case AGG_DM_ADD:
        /* whole days, months or years move the date, never the time */
        if( m->n<3 || m->r!=(double)(int64_t)m->r ) return 0;
        break;
      default:
        return 0;
    }
  }
  return 1;
}

int agg_date_mod_shift(const agg_date_mod *m, int64_t *ms){
  if( m->kind==AGG_DM_ADD_MS ){ *ms = m->ms; return 1; }
  if( m->kind!=AGG_DM_ADD || m->n>3 ) return 0;
  /* parseModifier's reading (the amount is within the unit's limit) */
  double rounder = m->r<0 ? -0.5 : +0.5;
  *ms = (int64_t)(m->r*1000.0*dt_units[m->n].secs + rounder);
  return 1;
}

int agg_fmt_date_only(const char *fmt, uint32_t n){
  for(uint32_t i=0; i<n; i++){
    if( fmt[i]==0 ) return 0;
    if( fmt[i]!='%' ) continue;
    if( ++i>=n || strchr("dmYjwWUuGgVFe%", fmt[i])==0 || fmt[i]==0 ) return 0;
  }
  return 1;
}

static void dt_clear_ymd_hms_tz(agg_dt *p){
  p->valid_ymd = 0; p->valid_hms = 0; p->valid_tz = 0; p->tz = 0;
}

/* The raw number, read as seconds since 1970, in ms of the Julian day. */
static double dt_unix_ms(const agg_dt *p){ return p->s*1000.0 + 210866760000000.0; }

/* The raw number as seconds since 1970, r = dt_unix_ms (date.c's unixepoch
** modifier and autoAdjustDate). */
static void dt_unix_seconds(agg_dt *p, double r){
  dt_clear_ymd_hms_tz(p);
  p->jd = (int64_t)(r + 0.5);
  p->valid_jd = 1;
  p->raw_s = 0;
}

/* ---- 'localtime' and 'utc' ------------------------------------------------ */

#define DT_TZ_SLOTS 2048
struct agg_tz_cache {
  int64_t hour[DT_TZ_SLOTS];  /* t/3600 + 1 of the hour a slot holds, 0 none */
  int32_t off[DT_TZ_SLOTS];   /* its offset from UTC in seconds */
  int off_only;               /* -1 unknown, 0 the zone has leap seconds
                              ** (local fields are not UTC plus the offset) */
};

agg_tz_cache *agg_tz_cache_new(void){
  agg_tz_cache *c = calloc(1, sizeof(*c));
  if( c ) c->off_only = -1;
  return c;
}
void agg_tz_cache_free(agg_tz_cache *c){ free(c); }
uint64_t agg_tz_cache_bytes(const agg_tz_cache *c){ return c ? sizeof(*c) : 0; }

/* The UTC fields of t seconds since 1970. */
static void dt_utc_fields(int64_t t, struct tm *tm){
  int64_t days = t>=0 ? t/86400 : -((-t+86399)/86400), y;
  int64_t sec = t - days*86400;
  unsigned m, d;
  pq_civil_from_days(days, &y, &m, &d);
  memset(tm, 0, sizeof(*tm));
  tm->tm_year = (int)(y - 1900); tm->tm_mon = (int)m - 1; tm->tm_mday = (int)d;
  tm->tm_hour = (int)(sec/3600); tm->tm_min = (int)(sec/60%60); tm->tm_sec = (int)(sec%60);
}

static int dt_tm_same(const struct tm *a, const struct tm *b){
  return a->tm_year==b->tm_year && a->tm_mon==b->tm_mon && a->tm_mday==b->tm_mday
      && a->tm_hour==b->tm_hour && a->tm_min==b->tm_min && a->tm_sec==b->tm_sec;
}

/* The machine's local time of t seconds since 1970 (osLocaltime): 0, or 1
** when there is none, which SQLite reports as an error and group_by as
** NULL (t stays within 1970-2038 here, where localtime_r() answers). */
static int dt_os_localtime(int64_t t, struct tm *tm, agg_tz_cache *c){
  time_t tt = (time_t)t;
  int64_t h = t>=0 ? t/3600 : -((-t+3599)/3600);
  uint32_t slot = (uint32_t)h & (DT_TZ_SLOTS-1);
  if( c && c->off_only!=0 && c->hour[slot]==h+1 ){
    dt_utc_fields(t + c->off[slot], tm);
    return 0;
  }
  memset(tm, 0, sizeof(*tm));
  if( localtime_r(&tt, tm)==0 ) return 1;
  if( c && c->off_only!=0 ){
    time_t t0 = (time_t)(h*3600), t1 = (time_t)(h*3600 + 3599);
    struct tm a, b, u;
    if( localtime_r(&t0, &a) && localtime_r(&t1, &b) && a.tm_gmtoff==b.tm_gmtoff
     && tm->tm_gmtoff==a.tm_gmtoff ){
      dt_utc_fields(t + tm->tm_gmtoff, &u);
      if( !dt_tm_same(&u, tm) ){
        c->off_only = 0;
      }else{
        c->off_only = 1;
        c->hour[slot] = h + 1;
        c->off[slot] = (int32_t)tm->tm_gmtoff;
      }
    }
  }
  return 0;
}

/* toLocaltime(): p becomes the fields of its local time, those of a year
** with the same leap cycle outside 1970-01-01 .. 2038-01-18 (so that
** '1900-02-28 20:00' can become '1900-02-29 07:00', as in SQLite). */
static int dt_to_local(agg_dt *p, agg_tz_cache *c){
  struct tm tm;
  int64_t t;
  int ydiff = 0;
  dt_compute_jd(p);       /* an error leaves zeros, local time goes on */
  if( p->jd<2108667600*(int64_t)100000 || p->jd>2130141456*(int64_t)100000 ){
    /* outside 1970-01-01 .. 2038-01-18: a year with the same leap cycle */
    agg_dt x = *p;
    dt_compute_ymd(&x);
    dt_compute_hms(&x);
    ydiff = (2000 + x.Y%4) - x.Y;
    x.Y += ydiff;
    x.valid_jd = 0;
    dt_compute_jd(&x);
    t = x.jd/1000 - 21086676*(int64_t)10000;
  }else{
    t = p->jd/1000 - 21086676*(int64_t)10000;
  }
  if( dt_os_localtime(t, &tm, c) ) return 1;
  p->Y = tm.tm_year + 1900 - ydiff;
  p->M = tm.tm_mon + 1;
  p->D = tm.tm_mday;
  p->h = tm.tm_hour;
  p->m = tm.tm_min;
  p->s = tm.tm_sec + (p->jd%1000)*0.001;
  p->valid_ymd = 1; p->valid_hms = 1;
  p->valid_jd = 0; p->raw_s = 0;
  p->tz = 0; p->valid_tz = 0;
  p->error = 0;
  return 0;
}

static int dt_localtime(agg_dt *p, agg_tz_cache *c){
  if( p->rules & DT_LOCAL_342 ){
    int rc = p->is_local ? 0 : dt_to_local(p, c);
    p->is_utc = 0; p->is_local = 1;
    return rc;
  }
  if( !(p->rules & DT_LOCAL_340) ) return 1;
  return dt_to_local(p, c);
}

/* 'utc': the instant whose local time p is, found as SQLite finds it (a
** guess corrected by the error of its local time, at most four times);
** nothing for a time already UTC: in 3.40 one that carried a zone suffix
** or went through 'utc'; in 3.42 one read with 'Z' or a nonzero offset, or
** through 'utc', and not through 'localtime' since. */
static int dt_utc(agg_dt *p, agg_tz_cache *c){
  int v342 = (p->rules & DT_LOCAL_342)!=0;
  if( !v342 && !(p->rules & DT_LOCAL_340) ) return 1;
  if( v342 ? p->is_utc : p->tz_set ) return 0;
  dt_compute_jd(p);
  int64_t orig = p->jd, guess = orig, err = 0;
  int cnt = 0;
  do{
    agg_dt t;
    dt_clear(&t, p->rules);
    guess -= err;
    t.jd = guess; t.valid_jd = 1;
    if( dt_to_local(&t, c) ) return 1;
    dt_compute_jd(&t);
    err = t.jd - orig;
  }while( err && cnt++<3 );
  dt_clear(p, p->rules);
  p->jd = guess; p->valid_jd = 1;
  p->is_utc = 1; p->tz_set = 1;
  return 0;
}

/* parseModifier for the modifiers agg_date_mod_parse takes, the idx'th
** (from 0): 1 when the result is NULL. */
static int dt_modify(agg_dt *p, const agg_date_mod *m, int idx){
  switch( m->kind ){
    case AGG_DM_FLOOR: case AGG_DM_CEILING:
      if( !(p->rules & DT_FLOOR) ) return 1;
      dt_compute_jd(p);
      if( m->kind==AGG_DM_FLOOR ) p->jd -= (int64_t)p->n_floor*86400000;
      else p->n_floor = 0;
      dt_clear_ymd_hms_tz(p);
      return 0;
    case AGG_DM_ADD_YMD: {
      if( !(p->rules & DT_YMD) ) return 1;
      dt_compute_ymd(p);
      dt_compute_hms(p);
      p->valid_jd = 0;
      p->Y += m->n*m->y;
      p->M += m->n*m->mo;
      dt_carry_months(p);
      dt_floor_days(p);
      dt_compute_jd(p);
      p->valid_hms = 0; p->valid_ymd = 0;
      p->jd += (int64_t)(m->n*m->d)*86400000;
      if( m->has_time ){
        dt_compute_jd(p);
        dt_clear_ymd_hms_tz(p);
        p->jd += m->ms;
      }
      return 0;
    }
    case AGG_DM_LOCALTIME: return dt_localtime(p, m->tz);
    case AGG_DM_UTC: return dt_utc(p, m->tz);
    case AGG_DM_SUBSEC:
      if( !(p->rules & DT_SUBSEC) ) return 1;
      p->use_subsec = 1;
      return 0;
    case AGG_DM_UNIXEPOCH: {
      if( !p->raw_s || idx>0 ) return 1;
      double r = dt_unix_ms(p);
      if( !(r>=0.0 && r<464269060800000.0) ) return 1;
      dt_unix_seconds(p, r);
      return 0;
    }
    case AGG_DM_JULIANDAY:
      if( idx>0 || !(p->valid_jd && p->raw_s) ) return 1;
      p->raw_s = 0;
      return 0;
    case AGG_DM_AUTO:
      if( idx>0 ) return 1;
      if( !p->raw_s || p->valid_jd ){
        p->raw_s = 0;
      }else if( p->s>=-210866760000.0 && p->s<=253402300799.0 ){
        /* -4713-11-24 12:00:00 .. 9999-12-31 23:59:59 */
        dt_unix_seconds(p, dt_unix_ms(p));
      }
      return 0;
    case AGG_DM_START_DAY: case AGG_DM_START_MONTH: case AGG_DM_START_YEAR:
      if( !p->valid_jd && !p->valid_ymd && !p->valid_hms ) return 1;
      dt_compute_ymd(p);
      p->valid_hms = 1;
      p->h = p->m = 0; p->s = 0.0;
      p->raw_s = 0; p->valid_tz = 0; p->tz = 0; p->valid_jd = 0;
      if( m->kind==AGG_DM_START_MONTH ) p->D = 1;
      if( m->kind==AGG_DM_START_YEAR ){ p->M = 1; p->D = 1; }
      return 0;
    case AGG_DM_WEEKDAY: {
      dt_compute_ymd(p);
      dt_compute_hms(p);
      p->valid_tz = 0; p->tz = 0; p->valid_jd = 0;
      dt_compute_jd(p);
      int64_t Z = ((p->jd + 129600000)/86400000) % 7;
      if( Z>m->n ) Z -= 7;
      p->jd += (m->n - Z)*86400000;
      dt_clear_ymd_hms_tz(p);
      return 0;
    }
    case AGG_DM_ADD_MS:
      /* date.c computes the Julian day once here: after an error the
      ** amount goes to a day that is not valid and is lost */
      dt_compute_jd(p);
      dt_clear_ymd_hms_tz(p);
      p->jd += m->ms;
      return 0;
    case AGG_DM_ADD: {
      double r = m->r, rounder = r<0 ? -0.5 : +0.5;
      int64_t ms;
      /* twice, as date.c does: after an error the second starts over from
      ** 2000-01-01 and the amount counts */
      dt_compute_jd(p);
      dt_compute_jd(p);
      p->n_floor = 0;
      if( agg_date_mod_shift(m, &ms) ){
        /* a fixed time: the one reading of it, which the memo over raw
        ** timestamps shares (agg/expr_parse.c ex_date_memo_plan) */
        p->jd += ms;
        dt_clear_ymd_hms_tz(p);
        return 0;
      }
      if( m->n==4 || m->n==5 ){
        /* whole months or years move the calendar date; the rest is time */
        dt_compute_ymd(p);
        dt_compute_hms(p);
        if( m->n==4 ){
          p->M += (int)r;
          dt_carry_months(p);
        }else{
          p->Y += (int)r;
        }
        dt_floor_days(p);
        p->valid_jd = 0;
        r -= (int)r;
      }
      dt_compute_jd(p);
      p->jd += (int64_t)(r*1000.0*dt_units[m->n].secs + rounder);
      dt_clear_ymd_hms_tz(p);
      return 0;
    }
    default:
      return 1;
  }
}

/* isDate(): x, then every modifier, then the result's validity. Without
** modifiers a day past its month's end may be re-read (normalize). */
static int dt_eval(const pred_value *x, const agg_date_mod *mods, int nmods,
                   const col_dialect *dia, agg_dt *p){
  int rules = dt_rules(dia);
  if( nmods==0 ) return dt_parse(x, dia && dia->date_normalize, rules, p);
  if( dt_read(x, rules, p) ) return 1;
  /* an error stays to the end unless 'localtime' or 'utc' clears it */
  for(int i=0; i<nmods; i++) if( dt_modify(p, &mods[i], i) ) return 1;
  dt_compute_jd(p);
  return p->error || !dt_valid_jd(p->jd);
}

/* "%02d" / "%04d" without printf for the values that fit (the common case). */
static inline int dt_put2(char *o, int v){
  if( v<0 || v>99 ) return sprintf(o, "%02d", v);
  o[0] = (char)('0' + v/10); o[1] = (char)('0' + v%10);
  return 2;
}
static inline int dt_put4(char *o, int v){
  if( v<0 || v>9999 ) return sprintf(o, "%04d", v);
  o[0] = (char)('0' + v/1000); o[1] = (char)('0' + v/100%10);
  o[2] = (char)('0' + v/10%10); o[3] = (char)('0' + v%10);
  return 4;
}

/* Days from January 1st of d's year to d. */
static int dt_days_after_jan01(const agg_dt *d){
  agg_dt y = *d;
  y.valid_jd = 0; y.M = 1; y.D = 1;
  dt_compute_jd(&y);
  return (int)((d->jd - y.jd + 43200000)/86400000);
}
static int dt_days_after_monday(const agg_dt *d){ return (int)(((d->jd+43200000)/86400000)%7); }
static int dt_days_after_sunday(const agg_dt *d){ return (int)(((d->jd+129600000)/86400000)%7); }

/* The Thursday of d's ISO week (its year is the ISO year). */
static agg_dt dt_iso_thursday(const agg_dt *d){
  agg_dt y = *d;
  y.jd += (int64_t)(3 - dt_days_after_monday(d))*86400000;
  y.valid_ymd = 0;
  dt_compute_ymd(&y);
  return y;
}

/* strftime(fmt, x) into out; date_year: %Y as date() and datetime() print
** it, four digits after the sign of a year before 1 ('-0007', where
** strftime's %04d gives '-007'). */
/* dt_format's `as`: how date(), datetime() and time() print, apart from
** strftime's fields */
#define DT_AS_DATE_YEAR 1   /* a year before 1 keeps four digits after '-' */
#define DT_AS_SUBSEC_S  2   /* %S shows milliseconds after 'subsec' */

static int dt_format(const char *fmt, uint32_t nfmt, const pred_value *x,
                     const agg_date_mod *mods, int nmods,
                     const col_dialect *dia, int as, char *out){
  agg_dt d;
  int v344 = dia && dia->strftime_344, v346 = dia && dia->strftime_346;
  if( dt_eval(x, mods, nmods, dia, &d) ) return -1;
  dt_compute_jd(&d);
  dt_compute_ymd(&d);
  dt_compute_hms(&d);
  int o = 0;
  for(uint32_t i=0; i<nfmt; i++){
    if( fmt[i]==0 ) break;     /* the format is C text too */
    if( fmt[i]!='%' ){ out[o++] = fmt[i]; continue; }
    i++;
    char c = i<nfmt ? fmt[i] : 0;
    switch( c ){
      case 'd': o += dt_put2(out+o, d.D); break;
      case 'f': {
        double s = d.s;
        if( s>59.999 ) s = 59.999;
        o += dia && dia->seconds_text ? dia->seconds_text(s, out+o, 16) : sprintf(out+o, "%06.3f", s);
        break;
      }
      case 'H': o += dt_put2(out+o, d.h); break;
      case 'W': o += sprintf(out+o, "%02d", (dt_days_after_jan01(&d) + 7 - dt_days_after_monday(&d))/7); break;
      case 'j': o += sprintf(out+o, "%03d", dt_days_after_jan01(&d) + 1); break;
      case 'J':
        /* SQLite's printf rounds some 16-digit values apart from the C library's */
        o += dia && dia->jd_text ? dia->jd_text(d.jd/86400000.0, out+o, 32)
                                 : sprintf(out+o, "%.16g", d.jd/86400000.0);
        break;
      case 'm': o += dt_put2(out+o, d.M); break;
      case 'M': o += dt_put2(out+o, d.m); break;
      case 's':
        if( d.use_subsec ) o += sprintf(out+o, "%.3f", (d.jd - 21086676*(int64_t)10000000)/1000.0);
        else o += sprintf(out+o, "%lld", (long long)(d.jd/1000 - 21086676*(int64_t)10000));
        break;
      case 'S':
        if( (as & DT_AS_SUBSEC_S) && d.use_subsec ){
          int ms = (int)(1000.0*d.s + 0.5);
          o += dt_put2(out+o, ms/1000%100); out[o++] = '.';
          out[o++] = (char)('0' + ms/100%10); out[o++] = (char)('0' + ms/10%10); out[o++] = (char)('0' + ms%10);
        }else{
          o += dt_put2(out+o, (int)d.s);
        }
        break;
      case 'w': out[o++] = (char)('0' + dt_days_after_sunday(&d)); break;
      case 'Y':
        if( (as & DT_AS_DATE_YEAR) && d.Y<0 ){ out[o++] = '-'; o += dt_put4(out+o, -d.Y); }
        else o += dt_put4(out+o, d.Y);
        break;
      case '%': out[o++] = '%'; break;
      case 'e': if( !v344 ) return -1; o += sprintf(out+o, "%2d", d.D); break;
      case 'F':
        if( !v344 ) return -1;
        o += dt_put4(out+o, d.Y); out[o++] = '-'; o += dt_put2(out+o, d.M);
        out[o++] = '-'; o += dt_put2(out+o, d.D);
        break;
      case 'k': if( !v344 ) return -1; o += sprintf(out+o, "%2d", d.h); break;
      case 'I': case 'l': {
        if( !v344 ) return -1;
        int h = d.h>12 ? d.h - 12 : d.h==0 ? 12 : d.h;
        o += sprintf(out+o, c=='I' ? "%02d" : "%2d", h);
        break;
      }
      case 'p': case 'P':
        if( !v344 ) return -1;
        memcpy(out+o, d.h>=12 ? (c=='p' ? "PM" : "pm") : (c=='p' ? "AM" : "am"), 2);
        o += 2;
        break;
      case 'R': case 'T':
        if( !v344 ) return -1;
        o += dt_put2(out+o, d.h); out[o++] = ':'; o += dt_put2(out+o, d.m);
        if( c=='T' ){ out[o++] = ':'; o += dt_put2(out+o, (int)d.s); }
        break;
      case 'u': {
        if( !v344 ) return -1;
        int w = dt_days_after_sunday(&d);
        out[o++] = (char)('0' + (w==0 ? 7 : w));
        break;
      }
      case 'G': case 'g': {
        if( !v346 ) return -1;
        agg_dt y = dt_iso_thursday(&d);
        if( c=='g' ) o += sprintf(out+o, "%02d", y.Y%100);
        else o += dt_put4(out+o, y.Y);
        break;
      }
      case 'U':
        if( !v346 ) return -1;
        o += sprintf(out+o, "%02d", (dt_days_after_jan01(&d) - dt_days_after_sunday(&d) + 7)/7);
        break;
      case 'V': {
        if( !v346 ) return -1;
        agg_dt y = dt_iso_thursday(&d);
        o += sprintf(out+o, "%02d", dt_days_after_jan01(&y)/7 + 1);
        break;
      }
      default: return -1;
    }
  }
  out[o] = 0;
  return o;
}

int agg_strftime(const char *fmt, uint32_t nfmt, const pred_value *x,
                 const agg_date_mod *mods, int nmods, const col_dialect *dia, char *out){
  return dt_format(fmt, nfmt, x, mods, nmods, dia, 0, out);
}

int agg_date_jd(const pred_value *x, const agg_date_mod *mods, int nmods,
                const col_dialect *dia, int64_t *jd){
  agg_dt d;
  if( dt_eval(x, mods, nmods, dia, &d) ) return 0;
  *jd = d.jd;
  return d.use_subsec ? 2 : 1;
}

int agg_date_text(int with_time, const pred_value *x, const agg_date_mod *mods,
                  int nmods, const col_dialect *d, char *out){
  const char *f = with_time ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d";
  return dt_format(f, (uint32_t)strlen(f), x, mods, nmods, d, DT_AS_DATE_YEAR|DT_AS_SUBSEC_S, out);
}

int agg_time_text(const pred_value *x, const agg_date_mod *mods, int nmods,
                  const col_dialect *d, char *out){
  return dt_format("%H:%M:%S", 8, x, mods, nmods, d, DT_AS_SUBSEC_S, out);
}
