/*
** test_topk.c — reader/topk.c: the first k rows of a scan under an ORDER BY.
**
** Random batches (FLAT vectors with mixed storage classes, NaN, NULL,
** strings of every length, DICT and CONST forms, selections) go through a
** topk with random k and terms; the answer must be the first k of all the
** rows sorted by the terms (pred_value_compare, SQLite's ORDER BY order,
** which tcl/topk.test checks against SQLite itself) and then the row
** number. Run under ASan: replaced entries free their strings.
**
**   ./test_topk
*/
#include "unit.h"
#include "../reader/topk.h"
#include "../reader/predicate.h"
#include "../reader/bound.h"
#include <stdlib.h>
#include <string.h>

#define NCOL 3
#define MAXROWS 6000

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void){ rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17; return rng; }

typedef struct all_row { pred_value v[NCOL]; int64_t row; } all_row;
static topk_term g_terms[NCOL];
static int g_nterm;

static pred_value as_sqlite(pred_value x){
  if( x.type==CV_REAL && x.f!=x.f ) x.type = CV_NULL;
  return x;
}
static int cmp_rows(const void *a, const void *b){
  const all_row *x = a, *y = b;
  for(int i=0; i<g_nterm; i++){
    int c = g_terms[i].bcol;
    pred_value p = as_sqlite(x->v[c]), q = as_sqlite(y->v[c]);
    int r = pred_value_compare(&p, &q, COLL_BINARY);
    if( r ) return g_terms[i].desc ? -r : r;
  }
  return x->row<y->row ? -1 : x->row>y->row;
}

/* a NUL inside text compares as a byte (memcmp), as SQLite's BINARY */
static const cv_str words[] = { { "", 0 }, { "a", 1 }, { "ab", 2 }, { "abc", 3 }, { "b", 1 },
  { "zz", 2 }, { "A", 1 }, { "\xc3\xa9", 2 }, { "a\0b", 3 }, { "abcdefghijklmnop", 16 } };

static void test_topk_random(void){
  static all_row all[MAXROWS];
  static uint8_t tags[NCOL][MAXROWS];
  static int64_t ints[NCOL][MAXROWS];
  static double reals[NCOL][MAXROWS];
  static cv_str strs[NCOL][MAXROWS];
  static uint32_t sel[MAXROWS];
  for(int round=0; round<300; round++){
    g_nterm = 1 + (int)(next_rand()%NCOL);
    for(int i=0; i<g_nterm; i++){ g_terms[i].bcol = (int)(next_rand()%NCOL); g_terms[i].desc = (int)(next_rand()&1); }
    uint32_t k = 1 + (uint32_t)(next_rand() % (round%3==0 ? 4000 : 40));
    int mix = (int)(next_rand()%4);   /* 0: INT only, 1: REAL only, 2: TEXT only, 3: mixed */
    topk *t = 0;
    CHECK(topk_new(g_terms, g_nterm, k, &t)==COL_OK);
    if( !t ) return;
    int64_t row = 0;
    uint32_t nall = 0;
    int nbatch = 1 + (int)(next_rand()%6);
    for(int b=0; b<nbatch; b++){
      uint32_t n = 1 + (uint32_t)(next_rand() % (MAXROWS/6));
      col_vector cols[NCOL];
      for(int c=0; c<NCOL; c++){
        memset(&cols[c], 0, sizeof(cols[c]));
        cols[c].form = CV_FLAT; cols[c].n = n;
        cols[c].i64 = ints[c]; cols[c].f64 = reals[c]; cols[c].str = strs[c];
        int any_tag = 0;
        for(uint32_t r=0; r<n; r++){
          int ty = mix==0 ? CV_INT : mix==1 ? CV_REAL : mix==2 ? CV_TEXT : (int)(next_rand()%5);
          if( mix<3 && next_rand()%10==0 ) ty = CV_NULL;
          tags[c][r] = (uint8_t)ty;
          ints[c][r] = (int64_t)(next_rand()%7) - 3;
          if( next_rand()%50==0 ) ints[c][r] = INT64_MIN + (int64_t)(next_rand()%2);
          reals[c][r] = (double)((int)(next_rand()%13) - 6) / 2.0;
          if( next_rand()%40==0 ) reals[c][r] = 0.0/0.0;
          strs[c][r] = words[next_rand()%10];
          if( ty==CV_INT && mix==1 ) ty = CV_REAL;
          if( ty!=(mix==0 ? CV_INT : mix==1 ? CV_REAL : CV_TEXT) ) any_tag = 1;
        }
        cols[c].type = (uint8_t)(mix==0 ? CV_INT : mix==1 ? CV_REAL : CV_TEXT);
        if( mix==3 ){ cols[c].type = CV_INT; any_tag = 1; }
        cols[c].tags = any_tag ? tags[c] : 0;
      }
      uint32_t nsel = 0;
      int use_sel = (int)(next_rand()&1);
      for(uint32_t r=0; r<n; r++) if( !use_sel || next_rand()%3 ) sel[nsel++] = r;
      col_batch batch = { n, nsel, use_sel ? sel : 0, NCOL, cols, row, 0 };
      if( !use_sel ) batch.nsel = n;
      CHECK(topk_add(t, &batch)==COL_OK);
      for(uint32_t i=0; i<batch.nsel; i++){
        uint32_t r = use_sel ? sel[i] : i;
        all_row *a = &all[nall++];
        a->row = row + r;
        for(int c=0; c<NCOL; c++){
          pred_value x; memset(&x, 0, sizeof(x));
          x.type = (uint8_t)cv_tag(&cols[c], r);
          if( x.type==CV_INT ) x.i = ints[c][r];
          else if( x.type==CV_REAL ) x.f = reals[c][r];
          else if( x.type==CV_TEXT || x.type==CV_BLOB ){ x.p = strs[c][r].p; x.n = strs[c][r].n; }
          a->v[c] = x;
        }
      }
      row += n + (int64_t)(next_rand()%100);
    }
    qsort(all, nall, sizeof(all_row), cmp_rows);
    uint32_t n = 0;
    const int64_t *got = topk_rows(t, &n);
    CHECK(got!=0);
    CHECK_EQ_INT(n, nall < k ? nall : k);
    CHECK_EQ_INT(topk_offered(t), nall);
    uint32_t bad = 0;
    for(uint32_t i=0; got && i<n; i++) bad += got[i]!=all[i].row;
    CHECK_EQ_INT(bad, 0);
    /* the bound a full topk publishes: the k-th row's first term */
    pred_value last;
    int full = topk_last_first(t, &last);
    CHECK_EQ_INT(full, nall >= k);
    if( full && nall >= k ){
      pred_value want = as_sqlite(all[k-1].v[g_terms[0].bcol]);
      pred_value have = as_sqlite(last);
      CHECK_EQ_INT(pred_value_compare(&have, &want, COLL_BINARY), 0);
    }
    /* asking again gives the same rows */
    uint32_t n2 = 0;
    const int64_t *again = topk_rows(t, &n2);
    CHECK_EQ_INT(n2, n);
    for(uint32_t i=0; again && i<n2; i++) bad += again[i]!=all[i].row;
    CHECK_EQ_INT(bad, 0);
    topk_free(t);
  }
}

/* DICT and CONST vectors read their values through codes and slot 0. */
static void test_topk_forms(void){
  static const cv_str dvals[3] = { { "m", 1 }, { "a", 1 }, { "z", 1 } };
  col_vector dict = { CV_TEXT, CV_FLAT, 3, 0, 0, 0, dvals, 0, 0, 0 };
  uint32_t codes[6] = { 0, 2, 1, 1, 0, 2 };
  int64_t cval = 7;
  col_vector cols[2];
  memset(cols, 0, sizeof(cols));
  cols[0].type = CV_TEXT; cols[0].form = CV_DICT; cols[0].n = 6; cols[0].codes = codes; cols[0].dict = &dict;
  cols[1].type = CV_INT; cols[1].form = CV_CONST; cols[1].n = 6; cols[1].i64 = &cval;
  topk_term terms[2] = { { 1, 0 }, { 0, 1 } };   /* the constant, then text DESC */
  topk *t = 0;
  CHECK(topk_new(terms, 2, 4, &t)==COL_OK);
  if( !t ) return;
  col_batch b = { 6, 6, 0, 2, cols, 100, 0 };
  CHECK(topk_add(t, &b)==COL_OK);
  uint32_t n = 0;
  const int64_t *rows = topk_rows(t, &n);
  CHECK_EQ_INT(n, 4);
  if( rows && n==4 ){
    CHECK_EQ_INT(rows[0], 101); CHECK_EQ_INT(rows[1], 105);   /* z, z */
    CHECK_EQ_INT(rows[2], 100); CHECK_EQ_INT(rows[3], 104);   /* m, m */
  }
  topk_free(t);
}

/* reader/bound.h: what is published is what a reader's predicate gets,
** its bytes a copy that outlives the next publication. */
static void test_bound(void){
  col_bound *b = col_bound_new(3, 1, 0);
  CHECK(b!=0);
  if( !b ) return;
  scan_pred p;
  char *owned = 0;
  int nf = -1;
  CHECK_EQ_INT(col_bound_pred(b, &p, &owned, &nf), 0);
  CHECK(owned==0);
  char text[] = "2013-07-01 00:00:37";
  pred_value v = { CV_TEXT, 0, 0, text, (uint32_t)strlen(text) };
  CHECK_EQ_INT(col_bound_set(b, &v), COL_OK);
  text[0] = 'x';
  CHECK_EQ_INT(col_bound_pred(b, &p, &owned, &nf), 1);
  CHECK_EQ_INT(p.col, 3); CHECK_EQ_INT(p.op, PRED_GE); CHECK_EQ_INT(p.exact, 0);
  CHECK_EQ_INT(nf, 0);
  CHECK(owned!=0 && p.v.p==owned && p.v.n==19 && memcmp(owned, "2013-07-01 00:00:37", 19)==0);
  pred_value i = { CV_INT, 42, 0, 0, 0 };
  CHECK_EQ_INT(col_bound_set(b, &i), COL_OK);
  CHECK(memcmp(owned, "2013-07-01 00:00:37", 19)==0);   /* the copy stays */
  free(owned);
  CHECK_EQ_INT(col_bound_pred(b, &p, &owned, &nf), 1);
  CHECK(owned==0 && p.v.type==CV_INT && p.v.i==42);
  col_bound_free(b);
  b = col_bound_new(0, 0, 1);
  CHECK_EQ_INT(col_bound_set(b, &v), COL_OK);
  CHECK_EQ_INT(col_bound_pred(b, &p, &owned, &nf), 1);
  CHECK_EQ_INT(p.op, PRED_LE); CHECK_EQ_INT(nf, 1);
  free(owned);
  col_bound_free(b);
}

int main(void){
  RUN(test_topk_random);
  RUN(test_topk_forms);
  RUN(test_bound);
  return unit_report("topk");
}
