/*
** test_ordered.c — agg/ordered.c against a plain reference: random rows
** stored batch by batch, then sorted and fed to group_concat, must give
** what the same rows give when sorted by a stable insertion sort that
** compares with agg_value_compare (SQLite's order) and fed one at a time.
** The values are built to reach the sort's shortcuts: first terms of one
** class (the word per row), TEXT sharing long prefixes, ending inside the
** word or holding NUL bytes, -0.0 beside 0.0, NULLs first and last, DESC;
** and DISTINCT's two rules (first row, or last when the term is the
** argument) with 1 beside 1.0 across the INTEGER set's retirement.
*/
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../agg/ordered.h"
#include "../agg/value.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(uint32_t n){
  rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17;
  return (uint32_t)(rng % n);
}

#define MAXROW 6000
#define MAXT 3
#define NB 8192

/* Every row of a case, as values the vectors point into. */
typedef struct ref_row {
  uint32_t g;
  pred_value t[MAXT];
  pred_value arg;
} ref_row;

static char textpool[MAXROW*(MAXT+1)][24];
static ref_row R[MAXROW];
static int g_nterm, g_desc[MAXT], g_nf[MAXT];
static int g_style;     /* TEXT/BLOB: 0 prefix and NULs, 1 timestamps, 2 long,
                        ** 3 varying everywhere; INTEGER: 4 multiples of an
                        ** odd step (ord_radix_narrow) */
static int64_t g_step, g_base;

/* A value of kind k (0 mixed, 1 INT, 2 REAL, 3 TEXT with a shared prefix,
** 4 BLOB) into slot. */
static pred_value rand_value(int k, char *slot){
  pred_value x;
  memset(&x, 0, sizeof(x));
  if( rnd(9)==0 ){ x.type = CV_NULL; return x; }
  int kind = k ? k : 1 + (int)rnd(4);
  switch( kind ){
    case 1:
      x.type = CV_INT;
      x.i = g_style==0 ? (int64_t)rnd(7) - 3 : (int64_t)rnd(1u<<20) - (1<<19);
      if( g_style==4 ){
        /* whole seconds in microseconds and the like, one in 8000 off */
        x.i = g_base + g_step*((int64_t)rnd(1u<<12) - (1<<11));
        if( rnd(8000)==0 ) x.i += 1 + rnd(3);
        break;
      }
      if( rnd(20)==0 ) x.i = INT64_MIN + rnd(2);
      break;
    case 2: {
      static const double r[] = { -0.0, 0.0, 1.0, -1.5, 2.25, 1e300, -1e-300 };
      x.type = CV_REAL; x.f = r[rnd(7)];
      break;
    }
    default: {
      uint32_t n = 0;
      if( g_style==1 ){
        /* one month's timestamps: 8 varying bytes, ties within a minute */
        n = (uint32_t)snprintf(slot, 24, "2013-07-%02u %02u:%02u:%02u", 1 + rnd(3), rnd(3), rnd(4), rnd(3));
        if( rnd(30)==0 ) n = (uint32_t)snprintf(slot, 24, "2013-07-0%u", rnd(4));  /* shorter */
      }else if( g_style==3 ){
        /* every byte varies: the word holds the first 8, ties go on */
        n = 8 + rnd(5);
        for(uint32_t i=0; i<n; i++) slot[i] = (char)('a' + rnd(2));
      }else if( g_style==2 ){
        /* past the window: 20 alike, then 3 varying, then more */
        memset(slot, 'q', 20); n = 20;
        for(uint32_t i=0; i<3; i++) slot[n++] = (char)('a' + rnd(3));
        if( rnd(2) ) slot[n++] = (char)rnd(2);
      }else{
        /* 'common prefix!' then 0..9 bytes from a small alphabet with NUL */
        static const char al[] = { 'a', 'b', 0, 'z' };
        if( rnd(4) ) { memcpy(slot, "common prefix!", 14); n = 14; }
        uint32_t m = rnd(10);
        for(uint32_t i=0; i<m; i++) slot[n++] = al[rnd(4)];
      }
      x.type = kind==4 ? CV_BLOB : CV_TEXT; x.p = slot; x.n = n;
      break;
    }
  }
  return x;
}

static int ref_cmp(const ref_row *a, const ref_row *b){
  if( a->g!=b->g ) return a->g < b->g ? -1 : 1;
  for(int t=0; t<g_nterm; t++){
    int na = a->t[t].type==CV_NULL, nb = b->t[t].type==CV_NULL;
    if( na || nb ){
      if( na && nb ) continue;
      return (na ? -1 : 1) * (g_nf[t] ? 1 : -1);
    }
    int c = agg_value_compare(&a->t[t], &b->t[t]);
    if( c ) return g_desc[t] ? -c : c;
  }
  return 0;
}

static void set_vec(col_vector *v, uint8_t *tags, int64_t *i64, double *f64, cv_str *str,
                    const pred_value *x, uint32_t r){
  tags[r] = x->type; i64[r] = x->i; f64[r] = x->f;
  str[r].p = x->p; str[r].n = x->n;
  v->tags = tags; v->i64 = i64; v->f64 = f64; v->str = str;
}

/* One case: n rows of kind k terms, distinct mode dm; returns failures. */
static int one_case(uint32_t n, int k, int nterm, int dm, uint32_t ngroup){
  static uint8_t tags[MAXT+1][NB];
  static int64_t i64[MAXT+1][NB];
  static double f64[MAXT+1][NB];
  static cv_str str[MAXT+1][NB];
  static uint32_t rows[NB], gid[NB], order[MAXROW];
  uint8_t desc[MAXT], nf[MAXT];
  g_nterm = nterm;
  g_style = (int)rnd(k==1 ? 5 : 4);
  if( g_style==4 ){
    static const int64_t steps[] = { 1000000, 15625, 3, 224, 1000, 999999999 };
    g_step = steps[rnd(6)];
    g_base = (int64_t)rnd(1u<<30) * (rnd(2) ? 1 : -1) * 1000;
  }
  for(int t=0; t<nterm; t++){
    g_desc[t] = desc[t] = (uint8_t)rnd(2);
    g_nf[t] = nf[t] = (uint8_t)(rnd(3)==0 ? !desc[t] : rnd(2));
  }
  for(uint32_t e=0; e<n; e++){
    R[e].g = rnd(ngroup);
    for(int t=0; t<nterm; t++) R[e].t[t] = rand_value(t==0 ? k : 0, textpool[e*(MAXT+1)+t]);
    if( dm ){
      /* few distinct arguments, INTEGER only in the first half, then
      ** 1.0 beside 1 */
      R[e].arg.type = CV_INT; R[e].arg.i = rnd(4); R[e].arg.p = 0; R[e].arg.n = 0;
      if( e>n/2 && rnd(2) ){ R[e].arg.type = CV_REAL; R[e].arg.f = (double)R[e].arg.i; }
      if( dm==AGG_ORD_LAST ) R[e].t[0] = R[e].arg;
    }else{
      char *s = textpool[e*(MAXT+1)+MAXT];
      R[e].arg.type = CV_TEXT; R[e].arg.n = (uint32_t)snprintf(s, 24, "r%u", e); R[e].arg.p = s;
    }
  }
  agg_ordbuf o;
  col_error err; col_error_clear(&err);
  if( agg_ordbuf_init(&o, nterm, desc, nf, 0, 1, dm) ) return 1;
  /* batches of up to NB rows, a random part of each live */
  for(uint32_t at=0; at<n; ){
    uint32_t nb = 1 + rnd(n - at < 700 ? n - at : 700);
    col_vector tv[MAXT], av;
    const col_vector *tp[MAXT];
    for(int t=0; t<=nterm; t++){
      col_vector *v = t<nterm ? &tv[t] : &av;
      memset(v, 0, sizeof(*v));
      v->form = CV_FLAT; v->type = CV_NULL; v->n = nb;
      for(uint32_t r=0; r<nb; r++){
        set_vec(v, tags[t], i64[t], f64[t], str[t], t<nterm ? &R[at+r].t[t] : &R[at+r].arg, r);
      }
      if( t<nterm ) tp[t] = v;
    }
    uint32_t m = 0;
    for(uint32_t r=0; r<nb; r++){ rows[m] = r; gid[m] = R[at+r].g; m++; }
    if( agg_ordbuf_add(&o, tp, &av, 0, nb, rows, gid, m, &err) ){ agg_ordbuf_free(&o); return 1; }
    at += nb;
  }
  agg_state got, want;
  agg_state_init(&got, AGG_GROUP_CONCAT, 0, 0);
  agg_state_init(&want, AGG_GROUP_CONCAT, 0, 0);
  agg_state_reserve(&got, ngroup, &err);
  agg_state_reserve(&want, ngroup, &err);
  int fail = agg_ordbuf_replay(&o, &got, 0, 0, &err)!=COL_OK;
  /* the reference: keep the rows DISTINCT keeps, then a stable sort */
  uint32_t m = 0;
  for(uint32_t e=0; e<n; e++){
    if( R[e].arg.type==CV_NULL ) continue;
    int keep = 1;
    if( dm ){
      for(uint32_t j=0; j<m; j++){
        ref_row *q = &R[order[j]];
        if( q->g==R[e].g && agg_value_compare(&q->arg, &R[e].arg)==0 ){
          if( dm==AGG_ORD_LAST ) order[j] = e;    /* the last row stays */
          keep = 0;
          break;
        }
      }
    }
    if( keep ) order[m++] = e;
  }
  for(uint32_t i=1; i<m; i++){
    uint32_t x = order[i], j = i;
    while( j>0 && ref_cmp(&R[order[j-1]], &R[x])>0 ){ order[j] = order[j-1]; j--; }
    order[j] = x;
  }
  for(uint32_t j=0; j<m; j++){
    ref_row *q = &R[order[j]];
    col_vector av;
    memset(&av, 0, sizeof(av));
    av.form = CV_FLAT; av.n = 1;
    set_vec(&av, tags[MAXT], i64[MAXT], f64[MAXT], str[MAXT], &q->arg, 0);
    uint32_t r0 = 0, g0 = q->g;
    agg_state_update(&want, &av, 0, 1, &r0, &g0, 1, &err);
  }
  for(uint32_t g=0; g<ngroup && !fail; g++){
    char b1[64], b2[64];
    pred_value x, y;
    agg_state_result(&got, g, &x, b1, &err);
    agg_state_result(&want, g, &y, b2, &err);
    if( x.type!=y.type || x.n!=y.n || (x.n && memcmp(x.p, y.p, x.n)) ){
      fprintf(stderr, "ordered: kind %d, %d terms, distinct %d, group %u: %.*s\n  expected %.*s\n",
              k, nterm, dm, g, (int)x.n, x.p ? x.p : "", (int)y.n, y.p ? y.p : "");
      fail = 1;
    }
  }
  agg_state_free(&got);
  agg_state_free(&want);
  return fail;
}

static void test_ordered_random(void){
  int bad = 0;
  for(int c=0; c<500 && bad<3; c++){
    int k = (int)rnd(5);
    int nterm = 1 + (int)rnd(MAXT);
    uint32_t n = 1 + rnd(c % 10==0 ? MAXROW : 400);
    bad += one_case(n, k, nterm, AGG_ORD_ALL, 1 + rnd(5));
  }
  /* runs long enough for the 11-bit passes and their narrowing: one or two
  ** groups of INTEGER first terms */
  for(int c=0; c<60 && bad<3; c++){
    bad += one_case(MAXROW - rnd(1000), 1, 1 + (int)rnd(MAXT), AGG_ORD_ALL, 1 + rnd(2));
  }
  CHECK(bad==0);
}

static void test_ordered_distinct(void){
  int bad = 0;
  for(int c=0; c<800 && bad<3; c++){
    uint32_t n = 1 + rnd(c % 10==0 ? 3000 : 300);
    int dm = c % 2 ? AGG_ORD_LAST : AGG_ORD_FIRST;
    bad += one_case(n, dm==AGG_ORD_LAST ? 0 : (int)rnd(5), dm==AGG_ORD_LAST ? 1 : 1 + (int)rnd(2), dm, 1 + rnd(4));
  }
  CHECK(bad==0);
}

/* A check that says stop on its k-th call. */
static int stop_after(void *ctx){ int *k = ctx; return --*k <= 0; }

/* Stopped while sorting or feeding: COL_EINTERRUPT, the buffer emptied. */
static void test_ordered_interrupt(void){
  for(int k=1; k<6; k++){
    uint8_t desc = 0, nf = 1;
    agg_ordbuf o;
    col_error err; col_error_clear(&err);
    CHECK(agg_ordbuf_init(&o, 1, &desc, &nf, 0, 1, AGG_ORD_ALL)==0);
    static int64_t v[4000];
    static uint32_t rows[4000], gid[4000];
    for(uint32_t i=0; i<4000; i++){ v[i] = (int64_t)rnd(100); rows[i] = i; gid[i] = i % 3; }
    col_vector tv;
    memset(&tv, 0, sizeof(tv));
    tv.form = CV_FLAT; tv.type = CV_INT; tv.n = 4000; tv.i64 = v;
    const col_vector *tp = &tv;
    CHECK(agg_ordbuf_add(&o, &tp, &tv, 0, 4000, rows, gid, 4000, &err)==COL_OK);
    agg_state s;
    agg_state_init(&s, AGG_SUM, 0, 0);
    agg_state_reserve(&s, 3, &err);
    int left = k;
    CHECK_EQ_INT(agg_ordbuf_replay(&o, &s, stop_after, &left, &err), COL_EINTERRUPT);
    CHECK(o.n==0 && o.cols==0 && o.gid==0);
    agg_state_free(&s);
    agg_ordbuf_free(&o);
  }
}

int main(void){
  if( getenv("ORDERED_SEED") ) rng ^= strtoull(getenv("ORDERED_SEED"), 0, 10) * 0x9E3779B97F4A7C15ull;
  RUN(test_ordered_random);
  RUN(test_ordered_distinct);
  RUN(test_ordered_interrupt);
  return unit_report("ordered");
}
