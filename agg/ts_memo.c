/*
** ts_memo.c — date functions over raw timestamps, once per distinct value
** the template tells apart; see ts_memo.h.
*/
#include "ts_memo.h"
#include "../reader/scan.h"
#include "../reader/parquet/value.h"
#include <stdlib.h>
#include <string.h>

/* Entries past this many are not kept: a format down to the second over
** millions of distinct seconds would copy every key once more, and the
** dictionary's codes then save little over the text path. */
#define AGG_TS_MAX_ENTRIES (1u << 16)

/* Steps a memo's window covers (see `near`): 45 days of minutes, 7 years
** of hours; 256 KB, of which only the pages of steps met are touched (and
** counted: agg_ts_memo_bytes). */
#define AGG_TS_NEAR (1u << 16)

/* Seconds since the epoch of 0000-01-01 00:00:00 and 9999-12-31 23:59:59:
** the instants whose text is canonical (agg_ts_canonical). */
#define AGG_TS_MIN_SECS (-62167219200LL)
#define AGG_TS_MAX_SECS 253402300799LL

struct agg_ts_memo {
  const agg_tpl *tpl;
  int unit, normalize;
  int64_t per;            /* ticks per second */
  int64_t step;           /* seconds the template cannot tell apart */
  int64_t wrap;           /* steps in a day when the template shows the
                          ** time of day alone ('%H:%M'): instants a whole
                          ** number of days apart share an entry; else 0 */
  /* open addressing: truncated instant -> entry + 1 (0 empty) */
  int64_t *key;
  uint32_t *val;
  uint32_t nslot, nused;
  /* the same, entry + 1 (AGG_TS_OTHER + 1 too) for steps near0 ..
  ** near0 + AGG_TS_NEAR - 1, by index: rows out of time order (a file
  ** sorted by a key, then the time) probed the table above at every row,
  ** two loads in L2 past 2048 steps: 38% of a 10M-row GROUP BY minute at
  ** threads=1. Made at the first row, around its step. */
  uint32_t *near;
  int64_t near0;
  uint32_t near_lo, near_hi;  /* the span of it written: what memory_limit
                              ** counts (the rest was never touched) */
  /* the entries: tpl->n bytes each, str[i] pointing at the i-th */
  char *bytes;
  cv_str *str;
  uint32_t n, cap;
  col_vector dict;
  /* agg_ts_memo_new_daily: entries made by fn, up to width bytes each */
  agg_ts_entry_fn fn;
  void *ctx;
  uint32_t width;
};

static int64_t ts_per_second(int unit){
  return unit==COL_TS_MILLIS ? 1000 : unit==COL_TS_NANOS ? 1000000000 : 1000000;
}

/* The coarsest step of seconds whose instants the template's fields never
** tell apart: the finest field it copies (fixed separators are the same
** in every canonical text). *dated: it copies a field of the date. */
static int64_t ts_step(const agg_tpl *t, int *dated){
  int finest = 0;   /* 0 day, 1 hour, 2 minute, 3 second */
  *dated = 0;
  for(uint32_t i=0; i<t->n; i++){
    int at = t->run>=0 ? t->run + (int)i : t->code[i];
    if( at<0 ) continue;   /* a literal byte */
    int f = at>=17 ? 3 : at==14 || at==15 ? 2 : at==11 || at==12 ? 1 : 0;
    if( at<=9 && at!=4 && at!=7 ) *dated = 1;
    if( f>finest ) finest = f;
  }
  static const int64_t steps[4] = { 86400, 3600, 60, 1 };
  return steps[finest];
}

/* An empty memo stepping step seconds (wrap: steps in a day, or 0). */
static agg_ts_memo *ts_memo_alloc(int unit, int normalize, int64_t step, int64_t wrap){
  agg_ts_memo *m = calloc(1, sizeof(*m));
  if( m==0 ) return 0;
  m->unit = unit;
  m->normalize = normalize;
  m->per = ts_per_second(unit);
  m->step = step;
  m->wrap = wrap;
  m->nslot = 256;
  m->key = malloc(m->nslot * sizeof(int64_t));
  m->val = calloc(m->nslot, sizeof(uint32_t));
  if( m->key==0 || m->val==0 ){ agg_ts_memo_free(m); return 0; }
  m->dict.type = CV_TEXT;
  m->dict.form = CV_FLAT;
  return m;
}

agg_ts_memo *agg_ts_memo_new(const agg_tpl *t, int unit, int normalize){
  int dated;
  int64_t step = ts_step(t, &dated);
  agg_ts_memo *m = ts_memo_alloc(unit, normalize, step, dated ? 0 : 86400 / step);
  if( m ) m->tpl = t;
  return m;
}

agg_ts_memo *agg_ts_memo_new_daily(agg_ts_entry_fn fn, void *ctx, uint32_t width,
                                   int unit, int normalize){
  agg_ts_memo *m = ts_memo_alloc(unit, normalize, 86400, 0);
  if( m ){ m->fn = fn; m->ctx = ctx; m->width = width; }
  return m;
}

void agg_ts_memo_free(agg_ts_memo *m){
  if( m==0 ) return;
  free(m->key); free(m->val); free(m->bytes); free(m->str); free(m->near);
  free(m);
}

uint64_t agg_ts_memo_bytes(const agg_ts_memo *m){
  if( m==0 ) return 0;
  return sizeof(*m) + (uint64_t)m->nslot*(sizeof(int64_t) + sizeof(uint32_t))
       + (m->near && m->near_hi>=m->near_lo ? (uint64_t)(m->near_hi - m->near_lo + 1)*sizeof(uint32_t) : 0)
       + (uint64_t)m->cap*((m->fn ? m->width : m->tpl->n) + sizeof(cv_str));
}

const col_vector *agg_ts_memo_dict(const agg_ts_memo *m){ return &m->dict; }

/* Distinct from the Parquet reader's names, whose top bit is set. */
uint64_t agg_ts_memo_id(const agg_ts_memo *m){
  return ((uint64_t)1 << 62) | (uint64_t)(uintptr_t)m;
}

int agg_ts_text(int64_t x, int unit, char *buf){
  return pq_format_timestamp(x, unit, buf);
}

static inline uint32_t ts_home(int64_t q, uint32_t mask){
  return (uint32_t)(((uint64_t)q * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/* The entry + 1 (AGG_TS_OTHER + 1 never stored) for q, 0 when not there. */
static inline uint32_t ts_find(const agg_ts_memo *m, int64_t q){
  uint32_t mask = m->nslot - 1;
  for(uint32_t at = ts_home(q, mask);; at = (at + 1) & mask){
    uint32_t v = m->val[at];
    if( v==0 || m->key[at]==q ) return v;
  }
}

static int ts_put(agg_ts_memo *m, int64_t q, uint32_t v){
  if( 2*(m->nused + 1) > m->nslot ){
    uint32_t ns = m->nslot*2, mask = ns - 1;
    int64_t *k = malloc(ns * sizeof(int64_t));
    uint32_t *w = calloc(ns, sizeof(uint32_t));
    if( k==0 || w==0 ){ free(k); free(w); return -1; }
    for(uint32_t i=0; i<m->nslot; i++){
      if( m->val[i]==0 ) continue;
      uint32_t at = ts_home(m->key[i], mask);
      while( w[at] ) at = (at + 1) & mask;
      k[at] = m->key[i]; w[at] = m->val[i];
    }
    free(m->key); free(m->val);
    m->key = k; m->val = w; m->nslot = ns;
  }
  uint32_t mask = m->nslot - 1, at = ts_home(q, mask);
  while( m->val[at] ) at = (at + 1) & mask;
  m->key[at] = q; m->val[at] = v;
  m->nused++;
  return 0;
}

/* q's entry + 1 made now (or AGG_TS_OTHER + 1 when it takes none); 0 when
** out of memory. */
static __attribute__((noinline)) uint32_t ts_miss(agg_ts_memo *m, int64_t q){
  int64_t secs = q * m->step;   /* wrap: a time of 1970-01-01 */
  if( secs < AGG_TS_MIN_SECS || secs > AGG_TS_MAX_SECS || m->n>=AGG_TS_MAX_ENTRIES ){
    return AGG_TS_OTHER + 1;
  }
  char text[PQ_TEXT_MAX];
  int len = pq_format_timestamp(secs*1000, COL_TS_MILLIS, text);
  if( !agg_ts_canonical(text, (uint32_t)len, m->normalize) ) return AGG_TS_OTHER + 1;
  uint32_t w = m->fn ? m->width : m->tpl->n;
  if( m->n==m->cap ){
    uint32_t cap = m->cap ? m->cap*2 : 64;
    char *b = realloc(m->bytes, (size_t)cap*w + 1);
    if( b==0 ) return 0;
    m->bytes = b;
    /* the bytes may have moved (before the next step can fail) */
    for(uint32_t i=0; i<m->n; i++) m->str[i].p = b + (size_t)i*w;
    cv_str *s = realloc(m->str, (size_t)cap*sizeof(cv_str));
    if( s==0 ) return 0;
    m->str = s;
    m->dict.str = s;
    m->cap = cap;
  }
  char *p = m->bytes + (size_t)m->n*w;
  if( m->fn ){
    /* a day the function gives NULL for takes no entry (its slot stays
    ** free) and its rows the text path */
    int mlen = m->fn(m->ctx, text, (uint32_t)len, p);
    if( mlen<0 ) return AGG_TS_OTHER + 1;
    m->str[m->n].n = (uint32_t)mlen;
  }else{
    agg_tpl_apply(m->tpl, text, p);
    m->str[m->n].n = w;
  }
  m->str[m->n].p = p;
  if( ts_put(m, q, m->n + 1) ) return 0;
  m->dict.n = ++m->n;
  return m->n;
}

/* The window for step q, the first one met (it sits a quarter in, for
** rows before it). 0, or -1 when out of memory. */
static __attribute__((noinline)) int ts_near_make(agg_ts_memo *m, int64_t q){
  m->near = calloc(AGG_TS_NEAR, sizeof(uint32_t));
  if( m->near==0 ) return -1;
  /* steps of a time of day run from 0 to wrap - 1 */
  m->near0 = m->wrap ? 0 : q - (int64_t)(AGG_TS_NEAR/4);
  m->near_lo = UINT32_MAX;
  m->near_hi = 0;
  return 0;
}

/* q's entry + 1 (or AGG_TS_OTHER + 1) through the window (made at the
** first step), else the table; 0 when out of memory. */
static inline uint32_t ts_code(agg_ts_memo *m, int64_t q){
  if( m->near==0 && ts_near_make(m, q) ) return 0;
  uint64_t d = (uint64_t)q - (uint64_t)m->near0;
  if( d < AGG_TS_NEAR && m->near[d] ) return m->near[d];
  uint32_t c = ts_find(m, q);
  if( c==0 && (c = ts_miss(m, q))==0 ) return 0;
  if( d < AGG_TS_NEAR ){
    m->near[d] = c;
    if( d < m->near_lo ) m->near_lo = (uint32_t)d;
    if( d > m->near_hi ) m->near_hi = (uint32_t)d;
  }
  return c;
}

/* The row loop, inlined with per and step constant so both divisions
** become multiplications. */
static inline __attribute__((always_inline))
int64_t ts_codes_flat(agg_ts_memo *m, const int64_t *xs, const uint8_t *tags,
                      const uint32_t *sel, uint32_t nsel, uint32_t *codes,
                      const int64_t per, const int64_t step){
  int64_t other = 0;
  /* the last row's quotient and entry: rows in time order (a file sorted
  ** by a key and the time) repeat them for a minute's or an hour's worth
  ** of rows, and skip the probe (ClickBench Q43's minutes) */
  int64_t lq = 0;
  uint32_t lc = 0;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = sel ? sel[k] : k;
    if( tags && tags[r]==CV_NULL ){ codes[r] = AGG_TS_NULL; continue; }
    int64_t x = xs[r];
    int64_t s = x / per;
    if( s*per!=x || s<AGG_TS_MIN_SECS || s>AGG_TS_MAX_SECS ){ codes[r] = AGG_TS_OTHER; other++; continue; }
    int64_t q = s / step;
    q -= q*step > s;      /* floor */
    if( m->wrap ){ q %= m->wrap; q += q<0 ? m->wrap : 0; }
    uint32_t c = lc;
    if( q!=lq || c==0 ){
      if( (c = ts_code(m, q))==0 ) return -1;
      lq = q; lc = c;
    }
    codes[r] = c - 1;
    other += c - 1==AGG_TS_OTHER;
  }
  return other;
}

#define TS_STEPS(P) \
  switch( m->step ){ \
    case 1: return ts_codes_flat(m, xs, tags, sel, nsel, codes, P, 1); \
    case 60: return ts_codes_flat(m, xs, tags, sel, nsel, codes, P, 60); \
    case 3600: return ts_codes_flat(m, xs, tags, sel, nsel, codes, P, 3600); \
    default: return ts_codes_flat(m, xs, tags, sel, nsel, codes, P, 86400); \
  }

int64_t agg_ts_memo_codes(agg_ts_memo *m, const col_vector *v, const uint32_t *sel,
                          uint32_t nsel, uint32_t *codes){
  if( v->form==CV_FLAT ){
    const int64_t *xs = v->i64;
    const uint8_t *tags = v->tags;
    switch( m->unit ){
      case COL_TS_MILLIS: TS_STEPS(1000)
      case COL_TS_NANOS: TS_STEPS(1000000000)
      default: TS_STEPS(1000000)
    }
  }
  /* a dictionary larger than the batch, or a constant: value by value */
  int64_t other = 0;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = sel ? sel[k] : k;
    int64_t x = cv_int(v, r);
    int64_t got = cv_tag(v, r)==CV_NULL ? (codes[r] = AGG_TS_NULL, 0)
                : ts_codes_flat(m, &x, 0, 0, 1, &codes[r], m->per, m->step);
    if( got<0 ) return -1;
    other += got;
  }
  return other;
}
