/*
** test_agg.c — unit tests of agg/ (seed 003's tests in C) and a randomized
** differential test of group_by's core against SQLite itself.
**
**   gcc ... test/test_agg.c agg/[a-z]*.c reader/arena.c reader/error.c
**       reader/schema.c -lsqlite3 -lxxhash -lpthread -lm
**   ./test_agg            unit + differential tests
**   ./test_agg bench      also 10M-row GROUP BY timings (printed, not asserted)
**
** The differential test builds random tables (int/real/text keys with NULLs,
** -0.0, integral reals, mixed storage classes, high cardinality), loads the
** same rows into SQLite and into col_vectors in all three forms (FLAT with
** and without tags, DICT, CONST, with and without a selection vector), runs
** `SELECT keys, aggs FROM t GROUP BY keys` in both and compares the answers
** as multisets (threads=0: serial, count(DISTINCT) split onto a helper
** thread from the first pair). REAL results compare exactly: with threads=1 rows reach each
** group in row order, as SQLite's stable sorter feeds them, so the doubles
** are added in the same order; threads>1 partitions by key, which keeps that
** order too, so it is compared exactly as well.
*/
#include "unit.h"
#include "../agg/hash.h"
#include "../agg/table.h"
#include "../agg/aggregate.h"
#include "../agg/expr.h"
#include "../agg/groupby.h"
#include "../agg/bigmem.h"
#include "../agg/zone.h"
#include "../agg/value.h"
#include "../agg/datetime.h"
#include "../agg/filter.h"
#include "../agg/expr_strfn.h"
#include "../agg/json.h"
#include "../agg/radix.h"
#include "../agg/slab_pool.h"
#include "../agg/iset.h"
#include "../reader/predicate.h"
#include <sqlite3.h>
#include "dialect_probe.h"
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <sys/mman.h>

/* ---- vector building ---------------------------------------------------- */

/* Everything a test vector allocates, freed at once. */
typedef struct tv_pool { void **p; int n, cap; } tv_pool;
static void *tv_alloc(tv_pool *pl, size_t n){
  if( pl->n==pl->cap ){ pl->cap = pl->cap ? pl->cap*2 : 64; pl->p = realloc(pl->p, (size_t)pl->cap*sizeof(void*)); }
  void *x = calloc(1, n ? n : 1);
  pl->p[pl->n++] = x;
  return x;
}
static void tv_free(tv_pool *pl){ for(int i=0; i<pl->n; i++) free(pl->p[i]); free(pl->p); memset(pl, 0, sizeof(*pl)); }

/* A flat vector of values (tags only when needed, unless force_tags). */
static col_vector *tv_flat(tv_pool *pl, const pred_value *v, uint32_t n, int force_tags){
  col_vector *c = tv_alloc(pl, sizeof(*c));
  uint8_t *tags = tv_alloc(pl, n);
  int64_t *i64 = tv_alloc(pl, n*8);
  double *f64 = tv_alloc(pl, n*8);
  cv_str *str = tv_alloc(pl, n*sizeof(cv_str));
  int uniform = 1;
  for(uint32_t i=0; i<n; i++){
    tags[i] = v[i].type;
    if( v[i].type!=v[0].type ) uniform = 0;
    i64[i] = v[i].i; f64[i] = v[i].f; str[i].p = v[i].p; str[i].n = v[i].n;
  }
  c->form = CV_FLAT; c->n = n;
  c->type = n ? v[0].type : CV_INT;
  if( uniform && n && v[0].type!=CV_NULL && !force_tags ) c->tags = 0; else c->tags = tags;
  c->i64 = i64; c->f64 = f64; c->str = str;
  return c;
}

/* A dictionary vector: distinct values (by bytes) in a flat dictionary. */
static col_vector *tv_dict(tv_pool *pl, const pred_value *v, uint32_t n){
  pred_value *d = tv_alloc(pl, (n+1)*sizeof(pred_value));
  uint32_t nd = 0;
  uint32_t *codes = tv_alloc(pl, (n+1)*4);
  uint8_t *tags = tv_alloc(pl, n+1);
  int anynull = 0;
  for(uint32_t i=0; i<n; i++){
    tags[i] = v[i].type;
    if( v[i].type==CV_NULL ){ anynull = 1; codes[i] = 0; continue; }
    uint32_t j;
    for(j=0; j<nd; j++){
      if( d[j].type==v[i].type && d[j].i==v[i].i && memcmp(&d[j].f, &v[i].f, 8)==0
       && d[j].n==v[i].n && (v[i].n==0 || memcmp(d[j].p, v[i].p, v[i].n)==0) ) break;
    }
    if( j==nd ) d[nd++] = v[i];
    codes[i] = j;
  }
  if( nd==0 ){ d[0].type = CV_INT; nd = 1; }
  col_vector *dv = tv_flat(pl, d, nd, 0);
  col_vector *c = tv_alloc(pl, sizeof(*c));
  c->form = CV_DICT; c->n = n; c->type = dv->type;
  c->codes = codes; c->dict = dv;
  c->tags = anynull ? tags : 0;
  return c;
}

static col_vector *tv_const(tv_pool *pl, pred_value v, uint32_t n){
  col_vector *c = tv_flat(pl, &v, 1, 1);
  c->form = CV_CONST; c->n = n;
  return c;
}

static pred_value tv_int(int64_t i){ pred_value v; memset(&v, 0, sizeof(v)); v.type = CV_INT; v.i = i; return v; }
static pred_value tv_real(double f){ pred_value v; memset(&v, 0, sizeof(v)); v.type = CV_REAL; v.f = f; return v; }
static pred_value tv_text(const char *s){ pred_value v; memset(&v, 0, sizeof(v)); v.type = CV_TEXT; v.p = s; v.n = (uint32_t)strlen(s); return v; }
static pred_value tv_null(void){ pred_value v; memset(&v, 0, sizeof(v)); return v; }

static void tv_hash(const col_vector *v, uint32_t n, uint64_t *h){
  agg_hasher hs; agg_hasher_init(&hs);
  const col_vector *k[1] = { v };
  agg_hash_keys(&hs, k, 1, 0, n, h);
  agg_hasher_free(&hs);
}

/* ---- unit tests (seed 003) ---------------------------------------------- */

static void test_dict_hashes_like_flat(void){
  const char *lg = "lovelace, and a string past the sixteen bytes a view holds inline";
  pred_value v[5] = { tv_text("ada"), tv_text(""), tv_null(), tv_text(lg), tv_text("ada") };
  tv_pool pl = {0};
  uint64_t a[5], b[5];
  tv_hash(tv_flat(&pl, v, 5, 0), 5, a);
  tv_hash(tv_dict(&pl, v, 5), 5, b);
  for(int i=0; i<5; i++) CHECK(a[i]==b[i]);
  CHECK(a[0]==a[4]);
  tv_free(&pl);
}

/* Batches of 8 rows and more hash 8 at a time where the CPU allows
** (agg/hash.c agg_put_words): INTEGER keys flat and through a dictionary,
** one key and two, hash as the row-at-a-time loops do (tagged vectors and
** selected rows take those). */
static void test_wide_batches_hash_alike(void){
  enum { N = 37 };
  tv_pool pl = {0};
  pred_value v[N], u[N];
  for(int i=0; i<N; i++){ v[i] = tv_int((int64_t)((uint64_t)i * 0x9e3779b97f4a7c15ull)); u[i] = tv_int(i % 3); }
  uint32_t sel[N];
  for(uint32_t i=0; i<N; i++) sel[i] = i;
  uint64_t a[N], b[N], c[N], d[N];
  tv_hash(tv_flat(&pl, v, N, 0), N, a);
  tv_hash(tv_flat(&pl, v, N, 1), N, b);
  tv_hash(tv_dict(&pl, u, N), N, c);
  tv_hash(tv_flat(&pl, u, N, 1), N, d);
  int bad = 0;
  for(int i=0; i<N; i++) bad += a[i]!=b[i] || c[i]!=d[i];
  CHECK_EQ_INT(bad, 0);
  const col_vector *k2[2] = { tv_flat(&pl, v, N, 0), tv_dict(&pl, u, N) };
  const col_vector *k2t[2] = { tv_flat(&pl, v, N, 1), tv_flat(&pl, u, N, 1) };
  agg_hasher hs; agg_hasher_init(&hs);
  CHECK(agg_hash_keys(&hs, k2, 2, 0, N, a)==0);
  CHECK(agg_hash_keys(&hs, k2t, 2, 0, N, b)==0);
  CHECK(agg_hash_keys(&hs, k2, 2, sel, N, c)==0);
  agg_hasher_free(&hs);
  for(int i=0; i<N; i++) bad += a[i]!=b[i] || a[i]!=c[i];
  CHECK_EQ_INT(bad, 0);
  tv_free(&pl);
}

static void test_const_hashes_like_flat(void){
  tv_pool pl = {0};
  pred_value v[3] = { tv_int(7), tv_int(7), tv_int(7) };
  uint64_t a[3], b[3];
  tv_hash(tv_const(&pl, tv_int(7), 3), 3, a);
  tv_hash(tv_flat(&pl, v, 3, 0), 3, b);
  for(int i=0; i<3; i++) CHECK(a[i]==b[i]);
  /* a tagged flat vector hashes like an untagged one */
  tv_hash(tv_flat(&pl, v, 3, 1), 3, a);
  for(int i=0; i<3; i++) CHECK(a[i]==b[i]);
  tv_free(&pl);
}

static void test_numbers_that_group_hash_together(void){
  tv_pool pl = {0};
  pred_value l[4] = { tv_real(0.0), tv_int(1), tv_real(-3.0), tv_real(1e18) };
  pred_value r[4] = { tv_real(-0.0), tv_real(1.0), tv_int(-3), tv_int(1000000000000000000LL) };
  uint64_t a[4], b[4];
  tv_hash(tv_flat(&pl, l, 4, 0), 4, a);
  tv_hash(tv_flat(&pl, r, 4, 0), 4, b);
  for(int i=0; i<4; i++) CHECK(a[i]==b[i]);
  tv_free(&pl);
}

static void test_null_is_not_zero(void){
  tv_pool pl = {0};
  pred_value v[3] = { tv_null(), tv_int(0), tv_text("") };
  uint64_t a[3];
  tv_hash(tv_flat(&pl, v, 3, 0), 3, a);
  CHECK(a[0]!=a[1]);
  CHECK(a[0]!=a[2]);
  tv_free(&pl);
}

static void test_column_order_matters(void){
  tv_pool pl = {0};
  pred_value one = tv_int(1), two = tv_int(2);
  col_vector *o = tv_flat(&pl, &one, 1, 0), *t = tv_flat(&pl, &two, 1, 0);
  const col_vector *fw[2] = { o, t }, *bw[2] = { t, o };
  uint64_t a, b;
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, fw, 2, 0, 1, &a);
  agg_hash_keys(&hs, bw, 2, 0, 1, &b);
  agg_hasher_free(&hs);
  CHECK(a!=b);
  tv_free(&pl);
}

static void test_seen_key_found(void){
  tv_pool pl = {0};
  pred_value names[3] = { tv_text("ada"), tv_text("ada"), tv_null() };
  pred_value nums[3] = { tv_int(1), tv_real(1.0), tv_int(1) };
  const col_vector *keys[2] = { tv_flat(&pl, names, 3, 0), tv_flat(&pl, nums, 3, 0) };
  uint64_t h[3];
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 2, 0, 3, h);
  agg_hasher_free(&hs);
  agg_table t; agg_table_init(&t, 2);
  col_error err; col_error_clear(&err);
  uint32_t bucket, slot;
  CHECK(agg_table_probe(&t, h[0], keys, 0, &bucket)==AGG_EMPTY);
  CHECK(agg_table_insert(&t, bucket, h[0], keys, 0, &slot, &err)==COL_OK);
  CHECK(agg_table_probe(&t, h[1], keys, 1, &bucket)==slot);
  CHECK(agg_table_probe(&t, h[2], keys, 2, &bucket)==AGG_EMPTY);
  CHECK_EQ_INT(t.ngroup, 1);
  /* the first value seen is the key shown: INTEGER 1, not 1.0 */
  CHECK_EQ_INT(agg_table_key(&t, 1, 0).type, CV_INT);
  agg_table_free(&t);
  tv_free(&pl);
}

/* Short TEXT/BLOB keys live in the value word (AGG_INLINE_BYTES), longer
** ones in the heap: lengths 0..9 with NULs inside and at the end, the same
** bytes as TEXT and as BLOB, are distinct groups, found again, and read
** back byte for byte. */
static void test_inline_short_keys(void){
  static const struct { const char *p; uint32_t n; int blob; } k[] = {
    {"", 0, 0}, {"a", 1, 0}, {"a\0", 2, 0}, {"\0", 1, 0}, {"\0\0", 2, 0},
    {"abcdefg", 7, 0}, {"abcdefg\0", 8, 0}, {"abcdefgh", 8, 0}, {"abcdefghi", 9, 0},
    {"a", 1, 1}, {"", 0, 1}, {"abcdefgh", 8, 1}, {"\xff\xff\xff\xff\xff\xff\xff", 7, 0},
  };
  enum { NK = sizeof(k)/sizeof(k[0]) };
  tv_pool pl = {0};
  pred_value v[2*NK];
  for(int i=0; i<2*NK; i++){
    int j = i % NK;
    memset(&v[i], 0, sizeof(v[i]));
    v[i].type = k[j].blob ? CV_BLOB : CV_TEXT; v[i].p = k[j].p; v[i].n = k[j].n;
  }
  const col_vector *keys[1] = { tv_flat(&pl, v, 2*NK, 1) };
  uint64_t h[2*NK];
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 1, 0, 2*NK, h);
  agg_hasher_free(&hs);
  agg_table t; agg_table_init(&t, 1);
  col_error err; col_error_clear(&err);
  uint32_t gid[2*NK], nnew;
  CHECK(agg_table_lookup(&t, keys, 0, 2*NK, h, gid, &nnew, &err)==COL_OK);
  CHECK_EQ_INT(t.ngroup, NK);
  for(int i=0; i<2*NK; i++) CHECK_EQ_INT(gid[i], i % NK);
  for(int j=0; j<NK; j++){
    pred_value x = agg_table_key(&t, 0, (uint32_t)j);
    CHECK_EQ_INT(x.type, k[j].blob ? CV_BLOB : CV_TEXT);
    CHECK_EQ_INT(x.n, k[j].n);
    CHECK(x.n==0 || memcmp(x.p, k[j].p, x.n)==0);
  }
  CHECK_EQ_INT(agg_table_owned(&t) > 0, 1);   /* the 8- and 9-byte keys */
  agg_table_free(&t);
  /* every key under one hash: each probe compares the keys themselves */
  for(int i=0; i<2*NK; i++) h[i] = 0x9e3779b97f4a7c15ull;
  agg_table_init(&t, 1);
  CHECK(agg_table_lookup(&t, keys, 0, 2*NK, h, gid, &nnew, &err)==COL_OK);
  CHECK_EQ_INT(t.ngroup, NK);
  for(int i=0; i<2*NK; i++) CHECK_EQ_INT(gid[i], i % NK);
  agg_table_free(&t);
  tv_free(&pl);
  /* an inline word holds the bytes where they lie in memory (the key is
  ** read in place), each length of 0-7 from any offset, nothing past them */
  {
    const char src[] = "\x01\x82\x03\xf4\x05\x06\x87\x08\x09\x0a";
    int bad = 0;
    for(uint32_t n=0; n<=AGG_INLINE_BYTES; n++){
      for(uint32_t off=0; off + n <= 10; off++){
        uint64_t w = agg_inline_word(src + off, n);
        unsigned char want[8] = {0};
        memcpy(want, src + off, n);
        if( memcmp(&w, want, 7)!=0 || (w >> 56)!=(0x80u | n) ) bad++;
      }
    }
    CHECK_EQ_INT(bad, 0);
  }
}

/* A table of several key columns keeps each group's words side by side
** (recs) and a heap string's length in its word, up to AGG_HEAP_LEN (past
** it, lens): keys of lengths on both sides of that bound, two that differ
** only in their last byte, under one hash so every probe compares bytes,
** across several growths of the groups, are found again, read back
** (agg_table_key_vector copies the interleaved words out) and survive a
** merge into a second table. */
static void test_interleaved_keys(void){
  enum { N = 3000, NL = 6, NBIG = 2*NL };
  const uint32_t lens[NL] = { 8, 9, AGG_HEAP_LEN - 1, AGG_HEAP_LEN, AGG_HEAP_LEN + 1, AGG_HEAP_LEN + 1 };
  /* group g's key length: lens[g % NL] for the first NBIG, 8 + g % 50 after */
#define TI_LEN(g) ((uint32_t)(g) < NBIG ? lens[(g) % NL] : 8u + (uint32_t)(g) % 50)
  char *big = malloc((size_t)AGG_HEAP_LEN + 2);
  CHECK(big!=0);
  if( big==0 ) return;
  memset(big, 'x', (size_t)AGG_HEAP_LEN + 2);
  char *big2 = malloc((size_t)AGG_HEAP_LEN + 2);
  CHECK(big2!=0);
  if( big2==0 ){ free(big); return; }
  memcpy(big2, big, (size_t)AGG_HEAP_LEN + 2);
  big2[AGG_HEAP_LEN] = 'y';                  /* the last byte of length +1 */
  tv_pool pl = {0};
  pred_value *a = tv_alloc(&pl, 2*N*sizeof(pred_value));
  pred_value *b = tv_alloc(&pl, 2*N*sizeof(pred_value));
  pred_value *c = tv_alloc(&pl, 2*N*sizeof(pred_value));
  for(int i=0; i<2*N; i++){
    int j = i % N;
    a[i] = tv_int(j / NL);
    memset(&b[i], 0, sizeof(b[i]));
    b[i].type = CV_TEXT; b[i].n = TI_LEN(j);
    b[i].p = j % NL == NL-1 ? big2 : big;
    c[i] = j % 3 ? tv_text("0123456789ab") : tv_null();
  }
  const col_vector *keys[3] = { tv_flat(&pl, a, 2*N, 0), tv_flat(&pl, b, 2*N, 0), tv_flat(&pl, c, 2*N, 0) };
  uint64_t *h = tv_alloc(&pl, 2*N*8);
  uint32_t *gid = tv_alloc(&pl, 2*N*4);
  /* hashes that agree only on the first key: a probe compares keys */
  for(int i=0; i<2*N; i++) h[i] = 0x9e3779b97f4a7c15ull * (uint64_t)(i % N / NL);
  agg_table t; CHECK(agg_table_init(&t, 3)==0);
  col_error err; col_error_clear(&err);
  uint32_t nnew;
  CHECK(agg_table_lookup(&t, keys, 0, N, h, gid, &nnew, &err)==COL_OK);
  CHECK(agg_table_lookup(&t, keys, 0, 2*N, h, gid, &nnew, &err)==COL_OK);
  CHECK_EQ_INT(nnew, 0);
  CHECK_EQ_INT(t.ngroup, N);
  CHECK(t.recs!=0 && t.cols[1].stride==3);
  for(int i=0; i<2*N; i++) CHECK_EQ_INT(gid[i], i % N);
  for(uint32_t g=0; g<N; g++){
    pred_value x = agg_table_key(&t, 1, g);
    CHECK_EQ_INT(x.n, TI_LEN(g));
    CHECK(memcmp(x.p, g % NL == NL-1 ? big2 : big, x.n)==0);
    CHECK_EQ_INT(agg_table_key(&t, 0, g).i, g / NL);
    CHECK_EQ_INT(agg_table_key(&t, 2, g).type, g % 3 ? CV_TEXT : CV_NULL);
  }
  col_vector kv; cv_str strs[N]; uint64_t words[N];
  agg_table_key_vector(&t, 0, 10, 100, &kv, strs, words);
  for(uint32_t k=0; k<100; k++) CHECK_EQ_INT(kv.i64[k], (10 + k) / NL);
  /* merged: dst already holds the odd groups, in its own order. A merge
  ** takes t's groups' hashes to be agg_hash_keys() of their keys (read off
  ** its buckets): t is built again with those, and u's lookups use them */
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 3, 0, N, h);
  agg_hasher_free(&hs);
  agg_table_free(&t);
  CHECK(agg_table_init(&t, 3)==0);
  CHECK(agg_table_lookup(&t, keys, 0, N, h, gid, &nnew, &err)==COL_OK);
  CHECK_EQ_INT(t.ngroup, N);
  agg_table u; CHECK(agg_table_init(&u, 3)==0);
  uint32_t *odd = tv_alloc(&pl, N*4), *map = tv_alloc(&pl, N*4), m = 0;
  for(uint32_t r=N; r-- > 0; ) if( r & 1 ) odd[m++] = r;
  CHECK(agg_table_lookup(&u, keys, odd, m, h, gid, &nnew, &err)==COL_OK);
  CHECK(agg_table_merge(&u, &t, map, &err)==COL_OK);
  CHECK_EQ_INT(u.ngroup, N);
  for(uint32_t g=0; g<N; g++){
    uint32_t s = map[g];
    CHECK_EQ_INT(s, g & 1 ? (N - 1 - g) / 2 : m + g / 2);
    pred_value x = agg_table_key(&u, 1, s);
    CHECK_EQ_INT(x.n, TI_LEN(g));
    CHECK(x.n==0 || x.p[x.n-1]==(g < NBIG && g % NL == NL-1 ? 'y' : 'x'));
  }
  agg_table_free(&u);
  agg_table_free(&t);
  tv_free(&pl);
  free(big); free(big2);
#undef TI_LEN
}

static void test_found_after_rehash(void){
  tv_pool pl = {0};
  enum { N = 1000 };
  pred_value *v = tv_alloc(&pl, N*sizeof(pred_value));
  for(int i=0; i<N; i++) v[i] = tv_int(i);
  const col_vector *keys[1] = { tv_flat(&pl, v, N, 0) };
  uint64_t h[N];
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 1, 0, N, h);
  agg_hasher_free(&hs);
  agg_table t; agg_table_init(&t, 1);
  col_error err; col_error_clear(&err);
  for(uint32_t r=0; r<N; r++){
    uint32_t bucket, slot;
    CHECK(agg_table_probe(&t, h[r], keys, r, &bucket)==AGG_EMPTY);
    agg_table_insert(&t, bucket, h[r], keys, r, &slot, &err);
    CHECK_EQ_INT(slot, r);
  }
  CHECK(t.nbucket >= 2*N);
  for(uint32_t r=0; r<N; r++){
    uint32_t bucket;
    CHECK_EQ_INT(agg_table_probe(&t, h[r], keys, r, &bucket), r);
  }
  CHECK_EQ_INT(agg_table_key(&t, 0, 7).i, 7);
  agg_table_free(&t);
  tv_free(&pl);
}

/* Doubling in place (agg_regrow) keeps every group findable whatever the
** hashes look like: random ones, ones sharing few top bits (long runs
** between empty buckets), and ones whose homes sit at the very top (runs
** that wrap around to bucket 0). 300000 groups take the buckets past the
** size where they are a mapping grown by mremap. */
static void test_found_after_inplace_doubling(void){
  enum { N = 300000, B = 1024 };
  tv_pool pl = {0};
  pred_value *v = tv_alloc(&pl, N*sizeof(pred_value));
  for(int i=0; i<N; i++) v[i] = tv_int(i);
  const col_vector *keys[1] = { tv_flat(&pl, v, N, 0) };
  uint64_t *h = tv_alloc(&pl, N*sizeof(uint64_t));
  uint32_t *gid = tv_alloc(&pl, B*sizeof(uint32_t));
  uint32_t *sel = tv_alloc(&pl, B*sizeof(uint32_t));
  for(int pattern=0; pattern<3; pattern++){
    uint64_t x = 88172645463325252ull;
    for(int i=0; i<N; i++){
      x ^= x<<13; x ^= x>>7; x ^= x<<17;
      uint32_t fp = (uint32_t)(x>>32);
      if( pattern==1 ) fp = (fp & 0xfff00000u) | (uint32_t)(i % 3);        /* 4096 homes */
      if( pattern==2 && i%64==0 ) fp = 0xfffff000u | (uint32_t)(i & 0xfff); /* the top */
      h[i] = ((uint64_t)fp<<32) | (uint32_t)x;
    }
    agg_table t; CHECK(agg_table_init(&t, 1)==0);
    col_error err; col_error_clear(&err);
    for(uint32_t from=0; from<N; from+=B){
      uint32_t n = N - from < B ? N - from : B, nnew;
      for(uint32_t k=0; k<n; k++) sel[k] = from + k;
      CHECK(agg_table_lookup(&t, keys, sel, n, h, gid, &nnew, &err)==COL_OK);
      CHECK_EQ_INT(nnew, n);
    }
    CHECK_EQ_INT(t.ngroup, N);
    uint32_t used = 0, bad = 0;
    for(uint32_t i=0; i<t.nbucket; i++) used += (uint32_t)t.buckets[i]!=0;
    for(uint32_t r=0; r<N; r++){
      uint32_t bucket;
      bad += agg_table_probe(&t, h[r], keys, r, &bucket)!=r;
    }
    CHECK_EQ_INT(used, N);
    CHECK_EQ_INT(bad, 0);
    agg_table_free(&t);
  }
  tv_free(&pl);
}

/* A table grown into buckets another gave up (agg_table_release_buckets,
** agg_table_reserve_spare) keeps every group it had and finds new ones,
** with 8-byte and with 16-byte (hashes exact) buckets; a spare too small
** is left to the caller, and the table grows as agg_table_reserve would. */
static void test_spare_buckets(void){
  enum { N = 5000, M = 2000 };
  tv_pool pl = {0};
  pred_value *v = tv_alloc(&pl, N*sizeof(pred_value));
  for(int i=0; i<N; i++) v[i] = tv_int(i*7919);
  const col_vector *keys[1] = { tv_flat(&pl, v, N, 0) };
  uint64_t *h = tv_alloc(&pl, N*sizeof(uint64_t));
  uint32_t *gid = tv_alloc(&pl, N*sizeof(uint32_t));
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 1, 0, N, h);
  agg_hasher_free(&hs);
  for(int wide=0; wide<2; wide++){
    col_error err; col_error_clear(&err);
    agg_table a, b;
    CHECK(agg_table_init(&a, 1)==0 && agg_table_init(&b, 1)==0);
    if( wide ){ CHECK(agg_table_hashes_exact(&a)==0 && agg_table_hashes_exact(&b)==0); }
    uint32_t nnew;
    /* a: every key, then its buckets are given up */
    CHECK(agg_table_lookup(&a, keys, 0, N, h, gid, &nnew, &err)==COL_OK);
    void *spare = agg_table_release_buckets(&a);
    CHECK(spare!=0 && a.nbucket==0);
    CHECK_EQ_INT(a.ngroup, N);
    CHECK_EQ_INT(agg_table_key(&a, 0, 3).i, 3*7919);
    /* b: the first M keys, then reserved for N from the spare */
    CHECK(agg_table_lookup(&b, keys, 0, M, h, gid, &nnew, &err)==COL_OK);
    uint32_t before = b.nbucket;
    void *tiny = agg_mem_zalloc(16);
    void *s2 = tiny;
    CHECK(agg_table_reserve_spare(&b, N, &s2)==0);   /* too small: grows anyway */
    CHECK(s2==tiny && b.nbucket>before);
    agg_mem_free(tiny);
    agg_table c;
    CHECK(agg_table_init(&c, 1)==0);
    if( wide ){ CHECK(agg_table_hashes_exact(&c)==0); }
    CHECK(agg_table_lookup(&c, keys, 0, M, h, gid, &nnew, &err)==COL_OK);
    CHECK(agg_table_reserve_spare(&c, N, &spare)==0);
    CHECK(spare==0);
    CHECK_EQ_INT(c.cap, N);   /* the key columns: N groups, not 8192 */
    uint32_t bad = 0;
    for(uint32_t r=0; r<M; r++){
      uint32_t bucket;
      bad += agg_table_probe(&c, h[r], keys, r, &bucket)!=r;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(agg_table_lookup(&c, keys, 0, N, h, gid, &nnew, &err)==COL_OK);
    CHECK_EQ_INT(nnew, N - M);
    for(uint32_t r=0; r<N; r++) bad += gid[r]!=r;
    CHECK_EQ_INT(bad, 0);
    agg_table_free(&a); agg_table_free(&b); agg_table_free(&c);
  }
  tv_free(&pl);
}

/* agg_state_reserve_exact takes the count given, where agg_state_reserve
** rounds up to a power of two; either way new groups start empty, and
** growing past an exact reservation doubles from it. */
static void test_state_reserve_exact(void){
  agg_state s;
  col_error err; col_error_clear(&err);
  CHECK(agg_state_init(&s, AGG_SUM, 0, 0)==0);
  CHECK(agg_state_reserve_exact(&s, 1000, &err)==COL_OK);
  CHECK_EQ_INT(s.cap, 1000);
  agg_state_set_sum(&s, 999, 42, 2);
  CHECK(agg_state_reserve(&s, 1001, &err)==COL_OK);
  CHECK_EQ_INT(s.cap, 2000);
  pred_value out;
  CHECK(agg_state_result(&s, 999, &out, 0, &err)==COL_OK);
  CHECK(out.type==CV_INT && out.i==42);
  CHECK(agg_state_result(&s, 1500, &out, 0, &err)==COL_OK);
  CHECK(out.type==CV_NULL);   /* sum over no rows */
  CHECK(agg_state_reserve_exact(&s, 10, &err)==COL_OK);   /* never shrinks */
  CHECK_EQ_INT(s.cap, 2000);
  agg_state_free(&s);
  agg_state t;
  CHECK(agg_state_init(&t, AGG_COUNT_STAR, 0, 0)==0);
  CHECK(agg_state_reserve(&t, 1000, &err)==COL_OK);
  CHECK_EQ_INT(t.cap, 1024);
  agg_state_free(&t);
}

/* A one-key table given agg_table_hashes_exact (16-byte buckets holding
** the whole hash and the class) groups every row as a plain table does:
** INTEGERs across doublings, NULL beside the INTEGER whose hash word is
** NULL's, REALs equal to INTEGER groups and one whose bits are an
** INTEGER's hash word, and a TEXT key midway that narrows the buckets
** (later rows then probe 8-byte ones). Merging and agg_table_find_first too. */
static void test_wide_buckets(void){
  enum { N = 200000, B = 2048 };
  tv_pool pl = {0};
  pred_value *v = tv_alloc(&pl, N*sizeof(pred_value));
  uint64_t *h = tv_alloc(&pl, N*sizeof(uint64_t));
  uint32_t *ga = tv_alloc(&pl, N*sizeof(uint32_t));
  uint32_t *gb = tv_alloc(&pl, N*sizeof(uint32_t));
  uint32_t *sel = tv_alloc(&pl, B*sizeof(uint32_t));
  const int64_t null_word = (int64_t)0x9e3779b97f4a7c15ull;   /* hash.c */
  const int64_t half_bits = 0x3fe0000000000000ll;              /* 0.5 */
  for(int trial=0; trial<6; trial++){
    uint64_t x = 0x2545f4914f6cdd1dull + (uint64_t)trial;
    /* trials 0-1: INTEGER and NULL keys only, so the table stays wide;
    ** 2: REALs too (0.5, integral ones, -0.0); 3-5: TEXT as well, from
    ** row 10, midway, near the end */
    uint32_t text_at = trial<3 ? N : trial==3 ? 10 : trial==4 ? N/2 : N - 7;
    for(uint32_t i=0; i<N; i++){
      x ^= x<<13; x ^= x>>7; x ^= x<<17;
      uint32_t r = (uint32_t)(x % 1000);
      int64_t k = (int64_t)((x>>20) % (trial%3==0 ? 150000 : trial%3==1 ? 3000 : 40));
      if( i==text_at || (i>text_at && r<5) ) v[i] = tv_text(r&1 ? "a" : "some longer text key");
      else if( r<10 ) v[i] = tv_null();
      else if( r<15 ) v[i] = tv_int(null_word);
      else if( r<20 ) v[i] = tv_int(half_bits);
      else if( trial<2 ) v[i] = tv_int(trial%3==0 ? k*2654435761ll - 77 : k);
      else if( r<25 ) v[i] = tv_real(0.5);
      else if( r<40 ) v[i] = tv_real((double)k);
      else if( r<42 ) v[i] = tv_real(-0.0);
      else v[i] = tv_int(trial%3==0 ? k*2654435761ll - 77 : k);
    }
    const col_vector *kf[1] = { tv_flat(&pl, v, N, 0) };
    tv_hash(kf[0], N, h);
    agg_table ta, tb;
    CHECK(agg_table_init(&ta, 1)==0);
    CHECK(agg_table_init(&tb, 1)==0);
    CHECK(agg_table_hashes_exact(&tb)==0);
    CHECK(tb.wide==1);
    col_error err; col_error_clear(&err);
    uint32_t na = 0, nb = 0;
    /* batches of B rows, every other one through a selection */
    for(uint32_t from=0; from<N; from+=B){
      uint32_t n = N - from < B ? N - from : B, nnew;
      for(uint32_t k=0; k<n; k++) sel[k] = from + k;
      const uint32_t *s = (from/B)%2 ? sel : 0;
      const col_vector *kv[1] = { kf[0] };
      col_vector shifted;
      if( !s ){
        /* rows 0..n-1 of a vector that starts at row from */
        shifted = *kf[0];
        shifted.i64 += from; shifted.f64 += from; shifted.str += from;
        shifted.tags = kf[0]->tags ? kf[0]->tags + from : 0;
        kv[0] = &shifted;
      }
      CHECK(agg_table_lookup(&ta, kv, s, n, s ? h : h + from, ga + from, &nnew, &err)==COL_OK);
      na += nnew;
      CHECK(agg_table_lookup(&tb, kv, s, n, s ? h : h + from, gb + from, &nnew, &err)==COL_OK);
      nb += nnew;
    }
    /* wide while no group is REAL or TEXT (a REAL seen first is kept) */
    int narrowed = 0;
    for(uint32_t g=0; g<ta.ngroup; g++){
      int c = agg_table_key(&ta, 0, g).type;
      narrowed |= c!=CV_INT && c!=CV_NULL;
    }
    CHECK_EQ_INT(narrowed, trial>=2);
    CHECK_EQ_INT(tb.wide, !narrowed);
    CHECK_EQ_INT(ta.ngroup, tb.ngroup);
    CHECK_EQ_INT(na, nb);
    uint32_t bad = 0;
    for(uint32_t i=0; i<N; i++) bad += ga[i]!=gb[i];
    CHECK_EQ_INT(bad, 0);
    for(uint32_t g=0; g<ta.ngroup; g++){
      pred_value a = agg_table_key(&ta, 0, g), b = agg_table_key(&tb, 0, g);
      if( a.type!=b.type || a.i!=b.i || memcmp(&a.f, &b.f, 8) || a.n!=b.n ){ bad++; }
    }
    CHECK_EQ_INT(bad, 0);
    /* every row probes to its group one at a time as well */
    for(uint32_t i=0; i<N; i+=7){
      uint32_t bucket;
      bad += agg_table_probe(&tb, h[i], kf, i, &bucket)!=gb[i];
    }
    CHECK_EQ_INT(bad, 0);
    /* a fresh exact table merges tb's groups and finds them all */
    agg_table tc; CHECK(agg_table_init(&tc, 1)==0);
    CHECK(agg_table_hashes_exact(&tc)==0);
    uint32_t *map = tv_alloc(&pl, (tb.ngroup+1)*sizeof(uint32_t));
    uint32_t *found = tv_alloc(&pl, (tb.ngroup+1)*sizeof(uint32_t));
    CHECK(agg_table_merge(&tc, &tb, map, &err)==COL_OK);
    CHECK_EQ_INT(tc.ngroup, tb.ngroup);
    for(uint32_t g=0; g<tb.ngroup; g++) bad += map[g]!=g;
    uint8_t *which = tv_alloc(&pl, tb.ngroup+1);
    const agg_table *one[1] = { &tc };
    CHECK(agg_table_find_first(one, 1, &ta, found, which, &err)==COL_OK);
    for(uint32_t g=0; g<ta.ngroup; g++) bad += found[g]!=g || which[g]!=0;
    CHECK_EQ_INT(bad, 0);
    /* several tables: each group is named in the first that has it (an
    ** empty one skipped, the narrow tb before the exact tc) */
    agg_table te; CHECK(agg_table_init(&te, 1)==0);
    const agg_table *three[3] = { &te, &tb, &tc };
    CHECK(agg_table_find_first(three, 3, &ta, found, which, &err)==COL_OK);
    for(uint32_t g=0; g<ta.ngroup; g++) bad += found[g]!=g || which[g]!=1;
    const agg_table *none[2] = { &te, &te };
    CHECK(agg_table_find_first(none, 2, &ta, found, which, &err)==COL_OK);
    for(uint32_t g=0; g<ta.ngroup; g++) bad += found[g]!=AGG_EMPTY;
    CHECK_EQ_INT(bad, 0);
    agg_table_free(&te);
    CHECK(agg_table_footprint(&tb) >= (uint64_t)tb.nbucket*(tb.wide ? 16 : 8));
    agg_table_free(&ta); agg_table_free(&tb); agg_table_free(&tc);
  }
  tv_free(&pl);
}

/* JSON fragments: escapes, and a value whose fragment would pass SQLite's
** length limit is "too big" before anything is allocated for it (NUL
** bytes take six each: 170 MB of them would be 1.02 GB). */
static void test_json_fragments(void){
  col_arena a; col_arena_init(&a);
  pred_value out, x = tv_text("a\"b\\\x01\t");
  x.n = 6;
  CHECK(agg_json_value(&x, 0, &a, &out)==0);
  CHECK(out.type==CV_TEXT && out.n==16 && memcmp(out.p, "\"a\\\"b\\\\\\u0001\\t\"", 16)==0);
  pred_value nul = tv_null();
  CHECK(agg_json_value(&nul, 0, &a, &out)==0 && out.n==4 && memcmp(out.p, "null", 4)==0);
  pred_value r = tv_real(1e20);
  CHECK(agg_json_value(&r, 0, &a, &out)==0 && out.n==7 && memcmp(out.p, "1.0e+20", 7)==0);
  CHECK(agg_json_member(0, 0, &r, 0, &a, &out)==0 && out.n==8 && memcmp(out.p, ":1.0e+20", 8)==0);
  col_dialect d; memset(&d, 0, sizeof(d));
  d.json_null_label_skip = d.json_label_cstr = 1;
  CHECK(agg_json_member(0, 0, &r, &d, &a, &out)==0 && out.type==CV_NULL);
  CHECK(agg_json_member("k\0z", 3, &nul, &d, &a, &out)==0 && out.n==8 && memcmp(out.p, "\"k\":null", 8)==0);
  CHECK(agg_json_member("k\0z", 3, &nul, 0, &a, &out)==0 && out.n==15 && memcmp(out.p, "\"k\\u0000z\":null", 15)==0);
  size_t big = 170000000;
  void *zeros = mmap(0, big, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  CHECK(zeros!=MAP_FAILED);
  if( zeros!=MAP_FAILED ){
    pred_value z; memset(&z, 0, sizeof(z));
    z.type = CV_TEXT; z.p = zeros; z.n = (uint32_t)big;
    size_t held = a.cap_total;
    CHECK(agg_json_value(&z, 0, &a, &out)==AGG_JSON_TOOBIG);
    CHECK(agg_json_member(zeros, (uint32_t)big, &nul, 0, &a, &out)==AGG_JSON_TOOBIG);
    CHECK(a.cap_total==held);
    munmap(zeros, big);
  }
  col_arena_free(&a);
}

/* A group's group_concat or json text stops at the state's text_max
** (SQLite's length limit) with SQLite's error, not an allocation past it;
** other groups and a merge are held to it too. */
static void test_text_limit(void){
  tv_pool pl = {0};
  pred_value v[8];
  for(int i=0; i<8; i++) v[i] = tv_text("0123456789");
  const col_vector *x = tv_flat(&pl, v, 8, 0);
  uint32_t rows[8] = {0,1,2,3,4,5,6,7}, gid[8] = {0,0,0,0,0,1,1,1};
  for(int kind=0; kind<2; kind++){
    agg_state s;
    CHECK(agg_state_init(&s, kind ? AGG_JSON_ARRAY : AGG_GROUP_CONCAT, 0, 0)==0);
    s.text_max = kind ? 40 : 50;
    col_error err; col_error_clear(&err);
    CHECK(agg_state_reserve(&s, 2, &err)==COL_OK);
    /* 4 values: 43 bytes with commas, 45 with brackets too */
    uint32_t n4 = 4;
    int rc = agg_state_update(&s, x, 0, 8, rows, gid, n4, &err);
    if( kind==0 ){
      CHECK(rc==COL_OK);
      CHECK(agg_state_update(&s, x, 0, 8, rows+4, gid, 1, &err)!=COL_OK);
    }else{
      CHECK(rc!=COL_OK);
    }
    CHECK(strstr(err.msg, "string or blob too big")!=0);
    agg_state_free(&s);
  }
  /* INTEGERs, whose digits go straight into the text: a limit of exactly
  ** the text's length holds it (the room asked for the longest digits
  ** past it is no error), one byte less does not */
  {
    pred_value iv[3] = { tv_int(-9223372036854775807LL - 1), tv_int(7), tv_int(1234) };
    const col_vector *xi = tv_flat(&pl, iv, 3, 0);
    uint32_t r3[3] = {0,1,2}, g3[3] = {0,0,0};
    const char *want = "-9223372036854775808,7,1234";
    for(int less=0; less<2; less++){
      agg_state s;
      CHECK(agg_state_init(&s, AGG_GROUP_CONCAT, 0, 0)==0);
      s.text_max = strlen(want) - (size_t)less;
      col_error err; col_error_clear(&err);
      CHECK(agg_state_reserve(&s, 1, &err)==COL_OK);
      int rc = agg_state_update(&s, xi, 0, 3, r3, g3, 3, &err);
      if( less ){
        CHECK(rc!=COL_OK && strstr(err.msg, "string or blob too big")!=0);
      }else{
        pred_value got;
        char buf[64];
        CHECK(rc==COL_OK && agg_state_result(&s, 0, &got, buf, &err)==COL_OK);
        CHECK(got.type==CV_TEXT && got.n==strlen(want) && memcmp(got.p, want, got.n)==0);
      }
      agg_state_free(&s);
    }
  }
  tv_free(&pl);
}

/* count(DISTINCT) split onto a helper thread (agg/distinct_split.h): the
** counts, settled, equal a plain set's; a batch holding TEXT midway moves
** both halves into the general set; a split state merged into another
** gives its pairs whole; the helper's half starts at split_at pairs
** (the pairs before it move over, uncounted again). */
static uint32_t split_rnd(uint64_t *r, uint32_t n){
  *r = *r*6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*r >> 33) % n;
}
static void test_distinct_split(void){
  enum { G = 7, V = 3000, B = 1500, NB = 40 };
  tv_pool pl = {0};
  uint64_t r = 0x2545f4914f6cdd1dull;
  col_error err; col_error_clear(&err);
  uint8_t *seen = tv_alloc(&pl, G*V);
  pred_value *v = tv_alloc(&pl, B*sizeof(pred_value));
  uint32_t *rows = tv_alloc(&pl, B*4), *gid = tv_alloc(&pl, B*4);
  for(int mode=0; mode<3; mode++){
    /* 0: split from the first pair; 1: at 5000 pairs; 2: 1, with TEXT midway */
    agg_state s, d;
    CHECK(agg_state_init(&s, AGG_COUNT, 1, 0)==0);
    CHECK(agg_state_init(&d, AGG_COUNT, 1, 0)==0);
    agg_state_split_at(&s, mode==1 ? 5000 : 1, 1 + (uint32_t)mode);
    CHECK(agg_state_reserve(&s, G, &err)==COL_OK);
    CHECK(agg_state_reserve(&d, G, &err)==COL_OK);
    memset(seen, 0, G*V);
    int64_t want[G] = {0};
    uint8_t wseen[G] = {0};
    for(int b=0; b<NB; b++){
      for(uint32_t k=0; k<B; k++){
        uint32_t g = (uint32_t)split_rnd(&r, G), x = (uint32_t)split_rnd(&r, V);
        int text = mode==2 && b==NB/2 && k==7;
        v[k] = text ? tv_text("word") : split_rnd(&r, 20)==0 ? tv_null() : tv_int(x);
        rows[k] = k; gid[k] = g;
        if( v[k].type==CV_INT && !seen[g*V + x] ){ seen[g*V + x] = 1; want[g]++; }
        if( v[k].type==CV_TEXT && !wseen[g] ){ wseen[g] = 1; want[g]++; }
      }
      col_vector *vec = tv_flat(&pl, v, B, mode==2);
      CHECK(agg_state_update(&s, vec, 0, B, rows, gid, B, &err)==COL_OK);
    }
    CHECK(agg_state_settle(&s, &err)==COL_OK);
    uint32_t map[G];
    for(uint32_t g=0; g<G; g++) map[g] = g;
    CHECK(agg_state_merge(&d, &s, map, G, 0, &err)==COL_OK);
    for(uint32_t g=0; g<G; g++){
      pred_value a, c; char buf[64];
      CHECK(agg_state_result(&s, g, &a, buf, &err)==COL_OK);
      CHECK(agg_state_result(&d, g, &c, buf, &err)==COL_OK);
      CHECK_EQ_INT(a.i, want[g]);
      CHECK_EQ_INT(c.i, want[g]);
    }
    agg_state_free(&s);
    agg_state_free(&d);
  }
  tv_free(&pl);
}

/* sum, total and avg the way SQLite 3.43 and later add (agg_state.kbn),
** whatever SQLite this test links: the expected values are what SQLite
** 3.54.1 returned for these inputs, in this order, as quote() printed them
** (17 significant digits: each is the exact double). Inputs that tell the
** ways apart: a compensated sum keeps 3 between 1e308 and -1e308; an exact
** integer sum is what avg divides; a REAL after an overflow clears it. */
#define KR(x) {.type = CV_REAL, .f = (x)}
#define KI(x) {.type = CV_INT, .i = (x)}
static void test_kbn_sums(void){
  static const struct {
    int n; pred_value v[10];
    double total, avg;
    int sum_kind;   /* CV_INT, CV_REAL, or 0: "integer overflow" */
    double sum_real; int64_t sum_int;
  } cases[] = {
    { 3, {KR(1e308),KI(3),KR(-1e308)}, 3.0, 1.0, CV_REAL, 3.0, 0 },
    { 10, {KR(0.1),KR(0.1),KR(0.1),KR(0.1),KR(0.1),
           KR(0.1),KR(0.1),KR(0.1),KR(0.1),KR(0.1)},
      1.0, 0.1, CV_REAL, 1.0, 0 },
    { 2, {KI(9007199254740993LL),KI(1)}, 9007199254740994.0, 4503599627370497.0, CV_INT, 0, 9007199254740994LL },
    { 3, {KI(INT64_MAX),KI(1),KR(0.5)},
      9.2233720368547758e+18, 3.0744573456182584e+18, CV_REAL, 9.2233720368547758e+18, 0 },
    { 2, {KI(INT64_MAX),KI(1)}, 9.2233720368547758e+18, 4.6116860184273879e+18, 0, 0, 0 },
    { 4, {KR(0.5),KI(INT64_MAX),KI(INT64_MAX),KI(-3)},
      1.8446744073709552e+19, 4.6116860184273879e+18, CV_REAL, 1.8446744073709552e+19, 0 },
    { 6, {KR(1e16),KI(1),KI(1),KI(1),KI(1),KR(-1e16)},
      4.0, 0.66666666666666663, CV_REAL, 4.0, 0 },
    { 4, {KI(-INT64_MAX),KI(-100),KR(2.5),KI(9007199254740995LL)},
      -9.2143648376000348e+18, -2.3035912094000087e+18, CV_REAL, -9.2143648376000348e+18, 0 },
  };
  col_error err; col_error_clear(&err);
  for(size_t c=0; c<sizeof(cases)/sizeof(cases[0]); c++){
    /* all rows in one batch, then one row a batch (the flat and the
    ** general update paths), then split in two and merged */
    for(int how=0; how<3; how++){
      agg_state st[3], part[3];
      static const agg_kind kinds[3] = { AGG_SUM, AGG_TOTAL, AGG_AVG };
      for(int a=0; a<3; a++){
        CHECK(agg_state_init(&st[a], kinds[a], 0, 1)==0);
        CHECK(agg_state_init(&part[a], kinds[a], 0, 1)==0);
        st[a].kbn = part[a].kbn = 1;
        CHECK(agg_state_reserve(&st[a], 1, &err)==COL_OK);
        CHECK(agg_state_reserve(&part[a], 1, &err)==COL_OK);
      }
      int n = cases[c].n, half = how==2 ? n/2 : n;
      tv_pool pl = {0};
      for(int i=0; i<n; ){
        int m = how==1 ? 1 : i<half ? half : n - half;
        col_vector *vec = tv_flat(&pl, &cases[c].v[i], (uint32_t)m, 0);
        uint32_t rows[10], gid[10] = {0};
        for(int k=0; k<m; k++) rows[k] = (uint32_t)k;
        for(int a=0; a<3; a++){
          agg_state *dst = how==2 && i>=half ? &part[a] : &st[a];
          CHECK(agg_state_update(dst, vec, 0, (uint32_t)m, rows, gid, (uint32_t)m, &err)==COL_OK);
        }
        i += m;
      }
      uint32_t map[1] = {0};
      if( how==2 ) for(int a=0; a<3; a++) CHECK(agg_state_merge(&st[a], &part[a], map, 1, 0, &err)==COL_OK);
      pred_value out; char buf[64];
      int rc = agg_state_result(&st[0], 0, &out, buf, &err);
      if( cases[c].sum_kind==0 ){
        CHECK(rc!=COL_OK);
      }else{
        CHECK(rc==COL_OK);
        CHECK_EQ_INT(out.type, cases[c].sum_kind);
        if( cases[c].sum_kind==CV_INT ) CHECK_EQ_INT(out.i, cases[c].sum_int);
        else CHECK(out.f==cases[c].sum_real || how==2);
      }
      col_error_clear(&err);
      CHECK(agg_state_result(&st[1], 0, &out, buf, &err)==COL_OK);
      CHECK(out.type==CV_REAL && (out.f==cases[c].total || how==2));
      if( how==2 ) CHECK(fabs(out.f - cases[c].total) <= 1e-12*fabs(cases[c].total) + 1e-300);
      CHECK(agg_state_result(&st[2], 0, &out, buf, &err)==COL_OK);
      CHECK(out.type==CV_REAL && (out.f==cases[c].avg || how==2));
      if( out.f!=cases[c].avg && how!=2 ) fprintf(stderr, "  case %zu how %d: avg %.17g want %.17g\n", c, how, out.f, cases[c].avg);
      for(int a=0; a<3; a++){ agg_state_free(&st[a]); agg_state_free(&part[a]); }
      tv_free(&pl);
    }
  }
}

/* total and avg of a lane's one group (agg_state.batch_sums): a batch's
** INTEGERs summed exactly and added at once give, with 3.40's plain sums
** and 3.43's compensated ones, what adding them one by one gives, to
** within 2^-50 of the sum of the inputs' magnitudes (README: lanes add in
** an order of their own), and with compensated sums the exact sum
** rounded. Magnitudes up to 2^62, so that partial sums overflow 64 bits;
** batches of 1 to 700 rows. */
static void test_batch_sums(void){
#ifdef __SIZEOF_INT128__
  enum { N = 5000 };
  tv_pool pl = {0};
  col_error err; col_error_clear(&err);
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  pred_value *v = tv_alloc(&pl, N*sizeof(pred_value));
  uint32_t *rows = tv_alloc(&pl, N*4), *gid = tv_alloc(&pl, N*4);
  for(int round=0; round<40; round++){
    int shift = 2 + round % 61;     /* magnitudes below 2^shift */
    __int128 exact = 0;
    double mag = 0;
    for(int i=0; i<N; i++){
      seed = seed*6364136223846793005ULL + 1442695040888963407ULL;
      int64_t x = (int64_t)(seed >> (64 - shift));
      if( (seed >> 7) & 1 ) x = -x;
      if( round%5==0 ) x = x<0 ? -x : x;        /* all one sign: overflows */
      v[i] = tv_int(x);
      exact += x; mag += fabs((double)x);
    }
    col_vector *vec = tv_flat(&pl, v, N, 0);
    for(int kbn=0; kbn<2; kbn++){
      for(int a=0; a<2; a++){
        agg_kind kind = a ? AGG_AVG : AGG_TOTAL;
        agg_state one, bat;
        CHECK(agg_state_init(&one, kind, 0, 1)==0);
        CHECK(agg_state_init(&bat, kind, 0, 1)==0);
        one.kbn = bat.kbn = kbn;
        bat.batch_sums = 1;
        CHECK(agg_state_reserve(&one, 1, &err)==COL_OK);
        CHECK(agg_state_reserve(&bat, 1, &err)==COL_OK);
        for(uint32_t from=0; from<N; ){
          uint32_t m = 1 + (uint32_t)((seed >> 20) % 700);
          seed = seed*6364136223846793005ULL + 1442695040888963407ULL;
          if( m > N - from ) m = N - from;
          for(uint32_t k=0; k<m; k++){ rows[k] = from + k; gid[k] = 0; }
          CHECK(agg_state_update(&one, vec, 0, N, rows, gid, m, &err)==COL_OK);
          CHECK(agg_state_update(&bat, vec, 0, N, rows, gid, m, &err)==COL_OK);
          from += m;
        }
        pred_value x1, x2; char b1[64], b2[64];
        CHECK(agg_state_result(&one, 0, &x1, b1, &err)==COL_OK);
        CHECK(agg_state_result(&bat, 0, &x2, b2, &err)==COL_OK);
        CHECK(x1.type==CV_REAL && x2.type==CV_REAL);
        double scale = a ? (double)N : 1.0;
        CHECK(fabs(x1.f - x2.f) <= ldexp(mag, -50)/scale);
        if( kbn ) CHECK(fabs(x2.f*scale - (double)exact) <= ldexp(fabs((double)exact), -51) + 1e-300);
        agg_state_free(&one); agg_state_free(&bat);
      }
    }
  }
  tv_free(&pl);
#endif
}

/* count(DISTINCT x) over 300000 distinct integers in 3 groups, every value
** fed twice in batches: the pair set doubles in place past the size where
** it is a mapping, and every pair is counted once. */
static void test_distinct_int_set_doubling(void){
  enum { N = 300000, B = 2048 };
  tv_pool pl = {0};
  agg_state s;
  col_error err; col_error_clear(&err);
  CHECK(agg_state_init(&s, AGG_COUNT, 1, 0)==0);
  CHECK(agg_state_reserve(&s, 3, &err)==COL_OK);
  pred_value *v = tv_alloc(&pl, B*sizeof(pred_value));
  uint32_t *rows = tv_alloc(&pl, B*4), *gid = tv_alloc(&pl, B*4);
  for(int pass=0; pass<2; pass++){
    for(uint32_t from=0; from<N; from+=B){
      uint32_t n = N - from < B ? N - from : B;
      for(uint32_t k=0; k<n; k++){
        uint32_t i = from + k;
        v[k] = tv_int((int64_t)(i * 2654435761u) - 7);
        rows[k] = k; gid[k] = i % 3;
      }
      col_vector *vec = tv_flat(&pl, v, n, 0);
      CHECK(agg_state_update(&s, vec, 0, n, rows, gid, n, &err)==COL_OK);
    }
  }
  for(uint32_t g=0; g<3; g++){
    pred_value out; char buf[64];
    CHECK(agg_state_result(&s, g, &out, buf, &err)==COL_OK);
    CHECK_EQ_INT(out.i, N/3);
  }
  agg_state_free(&s);
  tv_free(&pl);
}

/* Zones (agg/bigmem.h): carved blocks are zero, start on cache lines, never
** overlap (across chunks too), keep their bytes when they grow (into the
** zone or out of it, or when a malloc'd block moves in); freeing one does
** nothing; a block past AGG_ZONE_CARVE_MAX gets a mapping of its own; a
** zone frees the zones it absorbed. */
static void test_mem_zone(void){
  agg_zone *z = agg_zone_new(0), *z2 = agg_zone_new(0);
  CHECK( z!=0 && z2!=0 );
  if( z==0 || z2==0 ){ agg_zone_free(z); agg_zone_free(z2); return; }
  enum { NB = 48 };
  unsigned char *b[NB]; size_t len[NB];
  for(int i=0; i<NB; i++){
    /* 1 MiB blocks from i=16 on: 40 MiB in all, past one chunk */
    len[i] = i<16 ? (size_t)(i*977 + 1) : ((size_t)1 << 20) - (size_t)i;
    b[i] = agg_zone_realloc(z, 0, len[i]);
    CHECK( b[i]!=0 );
    if( b[i]==0 ){ agg_zone_free(z); agg_zone_free(z2); return; }
    CHECK_EQ_INT((uintptr_t)b[i] % 64, 0);
    CHECK( agg_mem_size(b[i]) >= len[i] );
    int zero = 1;
    for(size_t k=0; k<len[i]; k++) if( b[i][k] ){ zero = 0; break; }
    CHECK( zero );
    memset(b[i], i + 1, len[i]);
  }
  int kept = 1;
  for(int i=0; i<NB; i++){
    for(size_t k=0; k<len[i]; k++) if( b[i][k]!=(unsigned char)(i + 1) ){ kept = 0; break; }
  }
  CHECK( kept );
  /* a malloc'd block moves in with its bytes */
  unsigned char *m = agg_mem_realloc(0, 100);
  CHECK( m!=0 );
  if( m ){
    memset(m, 0x5a, 100);
    unsigned char *c = agg_zone_grow_zeroed(z, m, 100, 5000);
    CHECK( c!=0 );
    if( c ){
      int ok = 1;
      for(int k=0; k<100; k++) if( c[k]!=0x5a ) ok = 0;
      for(int k=100; k<5000; k++) if( c[k] ) ok = 0;
      CHECK( ok );
      /* grown in the zone, then out of it (no zone given) */
      memset(c + 100, 0x33, 4900);
      unsigned char *d = agg_zone_grow_zeroed(z, c, 5000, 20000);
      CHECK( d!=0 && d!=c );
      unsigned char *e = d ? agg_mem_grow_zeroed(d, 20000, 300000) : 0;
      CHECK( e!=0 );
      if( e ){
        ok = 1;
        for(int k=0; k<100; k++) if( e[k]!=0x5a ) ok = 0;
        for(int k=100; k<5000; k++) if( e[k]!=0x33 ) ok = 0;
        for(int k=5000; k<300000; k++) if( e[k] ) ok = 0;
        CHECK( ok );
        agg_mem_free(e);
      }
      agg_mem_free(c);        /* carved: a no-op (the zone still owns it) */
    }
  }
  /* too large to carve: a mapping of its own (zero, from _zalloc) */
  void *big = agg_zone_realloc(z2, 0, AGG_ZONE_CARVE_MAX + 1);
  CHECK( big!=0 && ((uintptr_t)big - AGG_MEM_HEADER) % AGG_MEM_ALIGN==0 );
  agg_mem_free(big);
  unsigned char *bigz = agg_zone_zalloc(z2, AGG_ZONE_CARVE_MAX + 1);
  CHECK( bigz!=0 && ((uintptr_t)bigz - AGG_MEM_HEADER) % AGG_MEM_ALIGN==0 );
  if( bigz ) CHECK( bigz[0]==0 && bigz[AGG_ZONE_CARVE_MAX]==0 );
  agg_mem_free(bigz);
  void *in2 = agg_zone_realloc(z2, 0, 4096);
  CHECK( in2!=0 );
  for(int i=0; i<NB; i+=5) agg_mem_free(b[i]);
  CHECK( agg_zone_absorb(0, z2)==z2 && agg_zone_absorb(z2, 0)==z2 );
  CHECK( agg_zone_absorb(z, z2)==z );
  agg_zone_free(z);

  /* chunks from a slab pool go back to it, and the next zone's blocks
  ** from them are zero again; blocks of up to AGG_ZONE_CARVE_MAX fit */
  agg_slab_pool *pool = agg_slab_pool_new(AGG_RADIX_SLAB);
  CHECK( pool!=0 );
  if( pool==0 ) return;
  for(int round=0; round<2; round++){
    agg_zone *pz = agg_zone_new(pool);
    CHECK( pz!=0 );
    if( pz==0 ) break;
    size_t sizes[] = { 1000, AGG_ZONE_CARVE_MAX, 3000, AGG_ZONE_CARVE_MAX, 70000, 5 };
    unsigned char *pb[6];
    int zero = 1, ok = 1;
    for(int i=0; i<6; i++){
      pb[i] = i%2 ? agg_zone_zalloc(pz, sizes[i]) : agg_zone_realloc(pz, 0, sizes[i]);
      CHECK( pb[i]!=0 );
      if( pb[i]==0 ){ ok = 0; break; }
      for(size_t k=0; k<sizes[i]; k++) if( pb[i][k] ){ zero = 0; break; }
      memset(pb[i], 0xC3 + i, sizes[i]);
    }
    CHECK( zero );
    for(int i=0; i<6 && ok; i++){
      for(size_t k=0; k<sizes[i]; k++) if( pb[i][k]!=(unsigned char)(0xC3 + i) ){ ok = 0; break; }
    }
    CHECK( ok );
    agg_zone_free(pz);
    CHECK( agg_slab_pool_held(pool) > 0 );
  }
  /* a chunk back from the pool holds the last query's bytes: a block
  ** carved from it is zero to its whole length, past the bytes asked for
  ** too, so growing it in place or copying it out shows zero past old */
  for(int round=0; round<2; round++){
    agg_zone *pz = agg_zone_new(pool);
    CHECK( pz!=0 );
    if( pz==0 ) break;
    if( round==0 ){
      for(int i=0; i<2; i++){
        unsigned char *f = agg_zone_realloc(pz, 0, AGG_ZONE_CARVE_MAX - 4096);
        CHECK( f!=0 );
        if( f ) memset(f, 0xFF, agg_mem_size(f));
      }
    }else{
      size_t sizes[] = { 1000, 3001, 77, AGG_ZONE_CARVE_MAX - 5 };
      int zero = 1;
      unsigned char *pb[4];
      for(int i=0; i<4; i++){
        pb[i] = agg_zone_realloc(pz, 0, sizes[i]);
        CHECK( pb[i]!=0 && agg_mem_size(pb[i])>sizes[i] );
        if( pb[i]==0 ){ zero = 0; break; }
        for(size_t k=0; k<agg_mem_size(pb[i]); k++) if( pb[i][k] ){ zero = 0; break; }
        memset(pb[i], 0x5A, sizes[i]);
      }
      CHECK( zero );
      if( zero ){
        size_t in = agg_mem_size(pb[1]);
        unsigned char *g = agg_zone_grow_zeroed(pz, pb[1], sizes[1], in);
        CHECK( g==pb[1] );
        for(size_t k=sizes[1]; g && k<in; k++) if( g[k] ){ zero = 0; break; }
        size_t out = AGG_ZONE_CARVE_MAX + 1000;
        unsigned char *h = agg_zone_grow_zeroed(pz, pb[3], sizes[3], out);
        CHECK( h!=0 && h!=pb[3] );
        for(size_t k=0; h && k<sizes[3]; k++) if( h[k]!=0x5A ){ zero = 0; break; }
        for(size_t k=sizes[3]; h && k<out; k++) if( h[k] ){ zero = 0; break; }
        CHECK( zero );
        agg_mem_free(h);
      }
    }
    agg_zone_free(pz);
  }
  agg_slab_pool_free(pool);
}

/* Mapped blocks (agg/bigmem.c): their mapping starts on a 2 MiB boundary,
** header included, and stays on one as it grows, in place or moved (a
** block mapped right after it takes the addresses it would grow into),
** keeping its bytes; a grown zeroed block is zero past what it held. */
static void test_mem_aligned(void){
  const size_t unit = AGG_MEM_ALIGN;
  size_t n = (size_t)3 << 20;
  unsigned char *a = agg_mem_zalloc(n);
  CHECK( a!=0 );
  if( a==0 ) return;
  CHECK_EQ_INT(((uintptr_t)a - AGG_MEM_HEADER) % unit, 0);
  CHECK( agg_mem_size(a) >= n && (agg_mem_size(a) + AGG_MEM_HEADER) % unit==0 );
  for(size_t i = 0; i < n; i++) a[i] = (unsigned char)(i*7 + 1);
  void *blocks[8]; int nb = 0, same = 1;
  for(int round = 0; round < 6; round++){
    /* often lands right after a's mapping, so a must move to grow */
    blocks[nb++] = agg_mem_realloc(0, (size_t)1 << 20);
    size_t n2 = n * 2;
    unsigned char *b = agg_mem_grow_zeroed(a, n, n2);
    CHECK( b!=0 );
    if( b==0 ) break;
    if( b!=a ) same = 0;
    a = b;
    CHECK_EQ_INT(((uintptr_t)a - AGG_MEM_HEADER) % unit, 0);
    int ok = 1;
    for(size_t i = 0; i < n; i++) if( a[i]!=(unsigned char)(i*7 + 1) ){ ok = 0; break; }
    for(size_t i = n; i < n2 && ok; i += 4093) if( a[i]!=0 ) ok = 0;
    CHECK( ok );
    for(size_t i = n; i < n2; i++) a[i] = (unsigned char)(i*7 + 1);
    n = n2;
  }
  /* not a test of the kernel's placement, but the move path ran */
  if( same ) fprintf(stderr, "test_mem_aligned: every growth was in place\n");
  agg_mem_free(a);
  for(int i = 0; i < nb; i++){
    if( blocks[i] ) CHECK_EQ_INT(((uintptr_t)blocks[i] - AGG_MEM_HEADER) % unit, 0);
    agg_mem_free(blocks[i]);
  }
  /* a block of a whole unit less the header fills its mapping exactly */
  void *e = agg_mem_realloc(0, unit*2 - AGG_MEM_HEADER);
  CHECK( e!=0 && agg_mem_size(e)==unit*2 - AGG_MEM_HEADER );
  agg_mem_free(e);
}

static void test_owned_bytes_counted(void){
  tv_pool pl = {0};
  const char *lg = "a string well past the sixteen bytes a view holds inline";
  pred_value v = tv_text(lg);
  const col_vector *keys[1] = { tv_flat(&pl, &v, 1, 0) };
  uint64_t h;
  agg_hasher hs; agg_hasher_init(&hs);
  agg_hash_keys(&hs, keys, 1, 0, 1, &h);
  agg_hasher_free(&hs);
  agg_table t; agg_table_init(&t, 1);
  col_error err; col_error_clear(&err);
  CHECK_EQ_INT(agg_table_owned(&t), 0);
  uint64_t fp0 = agg_table_footprint(&t);
  uint32_t bucket, slot;
  agg_table_probe(&t, h, keys, 0, &bucket);
  agg_table_insert(&t, bucket, h, keys, 0, &slot, &err);
  CHECK(agg_table_owned(&t) >= strlen(lg));
  CHECK(agg_table_footprint(&t) > fp0);
  agg_table_free(&t);
  tv_free(&pl);
}

/* A key column's heap in segments (table.h, AGG_HEAP_SEG_BITS): a string
** longer than a slab as the first one stored (a segment of its own, segment
** 0 left to double), then enough strings to fill segment 0 and several
** slabs, one more long one among them; every slot reads back its bytes.
** The slabs go back to the pool with the column, and a second column
** takes them again; a column without a pool makes its own. */
static void test_heap_segments(void){
  enum { N = 30000 };
  const size_t slab = ((size_t)4 << 20) - AGG_MEM_HEADER;
  agg_slab_pool *pool = agg_slab_pool_new(slab);
  CHECK(pool!=0);
  if( pool==0 ) return;
  char *big = malloc(slab + 1000);
  CHECK(big!=0);
  if( big==0 ){ agg_slab_pool_free(pool); return; }
  for(size_t i=0; i<slab + 1000; i++) big[i] = (char)('a' + i % 23);
  char buf[400];
  for(int round=0; round<3; round++){
    agg_keycol k;
    agg_keycol_init(&k);
    k.pool = round<2 ? pool : 0;
    CHECK(agg_keycol_reserve(&k, N)==0);
    size_t held0 = agg_slab_pool_held(pool);
    uint64_t total = 0;
    for(uint32_t g=0; g<N; g++){
      pred_value x;
      memset(&x, 0, sizeof(x));
      x.type = CV_TEXT;
      if( g==0 || g==N/2 ){
        x.p = big + g % 7; x.n = (uint32_t)(slab + 1000 - g % 7);
      }else{
        x.n = 8 + g % 383;
        for(uint32_t i=0; i<x.n; i++) buf[i] = (char)(g*31 + i);
        x.p = buf;
      }
      total += x.n;
      CHECK(agg_keycol_set(&k, g, &x)==0);
    }
    CHECK(k.nseg >= 4);
    CHECK(agg_table_owned(&(agg_table){ .nkey = 1, .cols = &k }) >= total);
    int bad = 0;
    for(uint32_t g=0; g<N; g++){
      pred_value v = agg_keycol_value(&k, g);
      if( g==0 || g==N/2 ){
        bad += v.n!=slab + 1000 - g % 7 || memcmp(v.p, big + g % 7, v.n)!=0;
      }else{
        uint32_t n = 8 + g % 383;
        for(uint32_t i=0; i<n; i++) buf[i] = (char)(g*31 + i);
        bad += v.type!=CV_TEXT || v.n!=n || memcmp(v.p, buf, n)!=0;
      }
    }
    CHECK_EQ_INT(bad, 0);
    /* round 1 takes the slabs round 0 gave back */
    if( round==1 ) CHECK(agg_slab_pool_held(pool) < held0);
    agg_keycol_free(&k);
    if( round<2 ) CHECK(agg_slab_pool_held(pool) > 0);
  }
  free(big);
  agg_slab_pool_free(pool);
}

static void test_real_text(void){
  char b[40];
  agg_real_to_text(0, 1.0, b); CHECK_EQ_STR(b, "1.0");
  agg_real_to_text(0, -0.0, b); CHECK_EQ_STR(b, "0.0");
  agg_real_to_text(0, 1e20, b); CHECK_EQ_STR(b, "1.0e+20");
  agg_real_to_text(0, 0.00001, b); CHECK_EQ_STR(b, "1.0e-05");
  agg_real_to_text(0, 1.0/3, b); CHECK_EQ_STR(b, "0.333333333333333");
  agg_real_to_text(0, 123456789012345.6, b); CHECK_EQ_STR(b, "123456789012346.0");
  agg_real_to_text(0, INFINITY, b); CHECK_EQ_STR(b, "Inf");
  agg_real_to_text(0, -INFINITY, b); CHECK_EQ_STR(b, "-Inf");
}

/* agg_int_to_text against printf: the edges, every power of ten and its
** neighbours, and a run of pseudo-random values of every magnitude. */
static void test_int_text(void){
  char got[32], want[32];
  int64_t edge[] = { 0, 1, -1, 9, 10, 11, 99, 100, 101, -9, -10, -100, INT64_MAX, INT64_MIN,
                     INT64_MAX - 1, INT64_MIN + 1 };
  int bad = 0;
  for(size_t i=0; i<sizeof(edge)/sizeof(edge[0]); i++){
    int n = agg_int_to_text(edge[i], got);
    snprintf(want, sizeof(want), "%lld", (long long)edge[i]);
    bad += strcmp(got, want)!=0 || n!=(int)strlen(want);
  }
  int64_t p = 1;
  for(int d=0; d<19; d++, p = d<19 ? p*10 : p){
    for(int64_t x = p-1; x<=p+1; x++){
      for(int sg=-1; sg<=1; sg+=2){
        int n = agg_int_to_text(sg*x, got);
        snprintf(want, sizeof(want), "%lld", (long long)(sg*x));
        bad += strcmp(got, want)!=0 || n!=(int)strlen(want);
      }
    }
  }
  uint64_t r = 0x9e3779b97f4a7c15ull;
  for(int i=0; i<100000; i++){
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    int64_t v = (int64_t)(r >> (r & 63));
    int n = agg_int_to_text(v, got);
    snprintf(want, sizeof(want), "%lld", (long long)v);
    bad += strcmp(got, want)!=0 || n!=(int)strlen(want);
  }
  CHECK_EQ_INT(bad, 0);
}

/* agg_ascii_run against a byte loop: every length to 140 (two 64-byte
** steps and a tail), a stopping byte (>= 0x80 or NUL) at every position,
** or none; the bytes past n stop, and must not count. */
static void test_ascii_run(void){
  static const unsigned char stops[] = { 0x80, 0xff, 0xc3, 0x00 };
  char buf[160];
  for(uint32_t n=0; n<=140; n++){
    for(int at=-1; at<(int)n; at++){
      for(size_t k=0; k<sizeof(stops); k++){
        memset(buf, 0x80, sizeof(buf));
        for(uint32_t i=0; i<n; i++) buf[i] = (char)('a' + i%26);
        if( at>=0 ) buf[at] = (char)stops[k];
        uint32_t want = 0;
        while( want<n && (signed char)buf[want]>0 ) want++;
        CHECK_EQ_INT(agg_ascii_run(buf, n), want);
        if( at<0 ) break;
      }
    }
  }
}

/* count(DISTINCT x) without keys over dictionary batches: a dictionary
** named by dict_id is remembered across batches (entries already passed
** skip the set), a new id starts afresh; the answer is the same as with
** no id at all. */
static void test_distinct_dict_batches(void){
  static const char *rg1[] = { "a", "b", "a", "c", "a", "b", "d", "c" };
  static const char *rg2[] = { "d", "e", "a", "e", "f", "d" };
  for(int named=0; named<2; named++){
    tv_pool pl = {0};
    agg_state s;
    col_error err; col_error_clear(&err);
    CHECK(agg_state_init(&s, AGG_COUNT, 1, 1)==0);
    CHECK(agg_state_reserve(&s, 1, &err)==COL_OK);
    const char **groups[2] = { rg1, rg2 };
    uint32_t sizes[2] = { 8, 6 };
    for(int g=0; g<2; g++){
      pred_value v[8];
      for(uint32_t i=0; i<sizes[g]; i++) v[i] = tv_text(groups[g][i]);
      col_vector *whole = tv_dict(&pl, v, sizes[g]);
      /* the row group's batches: 3 rows each, one dictionary */
      for(uint32_t off=0; off<sizes[g]; off+=3){
        col_vector b = *whole;
        b.n = sizes[g]-off < 3 ? sizes[g]-off : 3;
        b.codes = whole->codes + off;
        b.dict_id = named ? 100 + (uint64_t)g : 0;
        uint32_t rows[3], gid[3] = {0, 0, 0};
        for(uint32_t k=0; k<b.n; k++) rows[k] = k;
        CHECK(agg_state_update(&s, &b, 0, b.n, rows, gid, b.n, &err)==COL_OK);
      }
    }
    pred_value out; char buf[64];
    CHECK(agg_state_result(&s, 0, &out, buf, &err)==COL_OK);
    CHECK_EQ_INT(out.i, 6);
    agg_state_free(&s);
    tv_free(&pl);
  }
}

static void test_strftime(void){
  char out[256];
  pred_value x = tv_text("2024-02-29 13:45:59.999");
  const char *f = "%Y %m %d %H %M %S %j %w";
  CHECK(agg_strftime(f, (uint32_t)strlen(f), &x, 0, 0, 0, out)>0);
  CHECK_EQ_STR(out, "2024 02 29 13 45 59 060 4");
  x = tv_text("2024-02-30");
  agg_strftime("%Y-%m-%d", 8, &x, 0, 0, 0, out); CHECK_EQ_STR(out, "2024-02-30");
  x = tv_text("2024-13-01");
  CHECK(agg_strftime("%Y-%m-%d", 8, &x, 0, 0, 0, out)<0);
  x = tv_text("2023-12-31");
  agg_strftime("%j", 2, &x, 0, 0, 0, out); CHECK_EQ_STR(out, "365");
  x = tv_int(2460000);
  agg_strftime("%Y-%m-%d %H", 11, &x, 0, 0, 0, out); CHECK_EQ_STR(out, "2023-02-24 12");
}

/* ---- differential test against SQLite ----------------------------------- */

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void){ rng_state ^= rng_state<<13; rng_state ^= rng_state>>7; rng_state ^= rng_state<<17; return rng_state; }
static int rndn(int n){ return (int)(rnd() % (uint64_t)n); }

static const char *words[] = { "a", "b", "ab", "A", "abc", "zz", "", "hello world", "héllo", "x y", "Ab", "12", "1.5", "2024-01-05 10:11:12", "2023-12-31",
  "http://www.ex.com/a/b", "https://h\xc3\xa9llo.org/x/y", "ftp://w", "www.a/", "://", "\xe2\x82\xac/\xe2\x82\xac\xe2\x82\xac://x", "\x80\x80" "ab\xc3" };
/* values of d: canonical timestamps and the shapes around them */
static const char *dates[] = { "2024-01-05 10:11:12", "2023-12-31", "2022-06-15 23:59:59", "2013-07-01 00:00:01",
  "2013-07-01T10:20:30", "2013-02-30 10:00:00", "9999-12-31 24:00:00", "0000-01-01 00:00:00", "2013-07-01 10:20:30.5",
  "2013-13-01 00:00:00", "2013-07-01 10:20:60", "12:34:56", "2013-07-01 10:20:30Z", "2013-07-01 9:20:30" };
#define NDATES ((int)(sizeof(dates)/sizeof(dates[0])))
#define NWORDS ((int)(sizeof(words)/sizeof(words[0])))

enum { NCOL = 7 };
static const char *colnames[NCOL] = { "k1", "k2", "k3", "v1", "v2", "v3", "d" };

/* A random value for column c; card controls key cardinality. */
static pred_value gen_value(int c, int card, int bigints){
  if( rndn(10)==0 ) return tv_null();
  switch( c ){
    case 0: return tv_int(rndn(card) - card/3);
    case 1: {
      int r = rndn(6);
      if( r==0 ) return tv_real(-0.0);
      if( r==1 ) return tv_real(0.0);
      if( r==2 ) return tv_int(rndn(card));
      if( r==3 ) return tv_real((double)rndn(card));
      return tv_real(rndn(card) + 0.5);
    }
    case 2: return tv_text(words[rndn(NWORDS)]);
    case 3:
      if( bigints && rndn(50)==0 ) return tv_int(INT64_MAX - rndn(3));
      return tv_int(rndn(2000) - 1000);
    case 4: return tv_real((rndn(200000) - 100000) / 7.0);
    case 5: {
      int r = rndn(5);
      if( r==0 ) return tv_int(rndn(20));
      if( r==1 ) return tv_real(rndn(20) / 4.0);
      if( r==2 ) return tv_text(words[rndn(NWORDS)]);
      if( r==3 ){ pred_value v = tv_text(words[rndn(NWORDS)]); v.type = CV_BLOB; return v; }
      return tv_int(rndn(5));
    }
    default: return tv_text(dates[rndn(NDATES)]);
  }
}

static const char *key_choices[] = {
  "k1", "k2", "k3", "v3", "k1 % 3", "substr(k3, 1, 1)", "length(k3)", "lower(k3)",
  "upper(k3)", "k1 + k2", "k1 * 2 - 1", "k1 / 2", "strftime('%Y-%m', d)", "date(d)",
  "substr(k3, -2)", "k3 || 'x'", "\"K1\"", "[k2]", "k2 / 0", "length(v3)", "substr(v3, 2, 2)",
  /* strftime templates over canonical text, and what falls back */
  "strftime('%M', d)", "strftime('%Y-%m-%d %H:%M:00', d)", "strftime('%H%%%S', d)", "datetime(d)",
  "time(d)", "strftime('%Y-%m-%d', k3)", "strftime('%d/%m %j', d)", "strftime('-%Y', d)",
  /* letters of later versions (NULL in 3.40) */
  "strftime('%F %T', d)", "strftime('%e %k %V %u', d)",
  /* substr/instr by characters: ASCII shortcuts against the UTF-8 walk */
  "substr(k3, 0, 3)", "substr(k3, 2, -1)", "substr(k3, -3, 2)", "substr(v3, 3)", "substr(k3, 4, 0)",
  "instr(k3, '\xc3\xa9')", "instr(k3, '\xa9')", "instr(k3, '://')", "length(substr(k3, 2))",
  /* one subtree spelled many times (ClickBench Q29's shape) */
  "iif(instr(iif(instr(k3, '://') > 0, substr(k3, instr(k3, '://') + 3), k3), '/') > 0, "
  "substr(iif(instr(k3, '://') > 0, substr(k3, instr(k3, '://') + 3), k3), 1, "
  "instr(iif(instr(k3, '://') > 0, substr(k3, instr(k3, '://') + 3), k3), '/') - 1), "
  "iif(instr(k3, '://') > 0, substr(k3, instr(k3, '://') + 3), k3))",
  "iif(substr(iif(instr(k3, 'l') > 0, substr(k3, instr(k3, 'l') + 1), v3), 1, 1) = 'l', "
  "substr(iif(instr(k3, 'l') > 0, substr(k3, instr(k3, 'l') + 1), v3), 2), "
  "iif(instr(k3, 'l') > 0, substr(k3, instr(k3, 'l') + 1), v3))",
  /* bitwise, on every storage class (text and REAL made integers) */
  "k1 & 3", "k2 | 1", "~k1", "k3 << 1", "v3 >> 1", "k1 << k1", "v1 >> 70", "v1 << 3",
  "-k1 >> 1", "k1 + 1 & 6 | 1", "~v3", "v2 & 255", "k1 >> -2",
  /* sign() and the math functions, over every class (TEXT through numeric
  ** affinity or NULL; log's second argument read as a double) */
  "floor(k2)", "ceil(v3)", "trunc(k2 / 3)", "sign(v3)", "mod(k1, 3)", "pow(k2, 2)",
  "sqrt(k1)", "exp(k1 / 4)", "ln(v3)", "log(k2)", "log(2, v3)", "log(v3, 8)", "log10(k1)",
  "log2(v2)", "ceiling(k3)", "floor(v2 / 100)",
  "likely(k2)", "likelihood(v3, 0.25)", "hex(v3)", "hex(k2)", "unicode(k3)", "unicode(v3)",
  "char(k1 + 100, 233)", "char(v3)",
};
static const char *agg_choices[] = {
  "count(*)", "count(v1)", "count(DISTINCT v3)", "sum(v1)", "sum(v2)", "total(v1)",
  "avg(v1)", "avg(v2)", "min(v3)", "max(v3)", "group_concat(v3)", "group_concat(k3, '-')",
  "min(DISTINCT v3)", "max(DISTINCT k2)",
  "sum(DISTINCT v1)", "min(v2)", "max(k3)", "sum(v3)", "total(v3)", "count(DISTINCT k2)",
  "sum(v1 * 2)", "avg(DISTINCT v3)", "min(k2)", "max(k2)", "group_concat(v2, v3)",
  "count(k3)", "sum(k1 + v1)", "group_concat(DISTINCT k2)",
  "sum(v1 + 3)", "avg(v1 - 7)", "total(5 + v1)", "sum(k1)", "avg(k1 + 1000000000000)",
  "sum(v1 - 1099511627776)", "sum(floor(v2))", "total(log(v2))", "max(sqrt(v2))", "sum(sign(v3))",
  "group_concat(k3 COLLATE NOCASE)", "count(k3 COLLATE RTRIM)", "sum(v1 & 255)", "total(v1 >> 2)", "count(DISTINCT v1)", "count(DISTINCT k1)", "sum(DISTINCT k1)",
};
/* keys with comparisons, logic, LIKE/GLOB, CASE, iif and instr */
static const char *pred_key_choices[] = {
  "k1 = 1", "k1 <> 2", "k2 < 3", "k2 >= 2.5", "k3 = 'a'", "k3 < 'b'", "k3 > 12", "k3 = 12",
  "k1 = '1'", "k2 <= '3'", "v3 = 12", "v3 = '12'", "v3 > 5", "v3 IS NULL", "v3 IS NOT NULL",
  "k1 IS 2", "k1 IS NOT NULL", "k3 ISNULL", "k2 NOTNULL", "k3 NOT NULL", "k1 == k2", "k1 < k2",
  "k3 LIKE 'a%'", "k3 NOT LIKE '%b%'", "k3 GLOB 'a*'", "k3 NOT GLOB '*[lz]*'", "v3 LIKE '1%'",
  "k3 LIKE 'A_'", "k1 LIKE '1%'", "k3 LIKE 'a\\%' ESCAPE '\\'", "k3 LIKE '%!_%' ESCAPE '!'",
  "k1 > 0 AND k2 > 1", "k1 > 0 OR k3 = 'a'", "NOT k1 > 2", "NOT (k3 = 'a' OR k3 IS NULL)",
  "k1 BETWEEN 0 AND 3", "k3 NOT BETWEEN 'a' AND 'b'", "k2 BETWEEN '1' AND 4",
  "CASE WHEN k1 > 2 THEN 'big' WHEN k1 > 0 THEN 'small' ELSE k3 END",
  "CASE k1 WHEN 1 THEN 'one' WHEN '2' THEN 'two' END", "CASE k3 WHEN 12 THEN 1 WHEN 'a' THEN 2 ELSE 0 END",
  "CASE WHEN (k1 = 0 AND k2 = 0) THEN k3 ELSE '' END", "iif(k1 > 1, k3, v3)", "iif(v3, 1, 0)",
  "instr(k3, 'l')", "instr(k3, '')", "instr(v3, 'b')", "instr(k1, '1')", "instr(k3, NULL)",
  "iif(instr(k3, ' ') > 0, substr(k3, 1, instr(k3, ' ') - 1), k3)",
  "iif(substr(k3, 1, 1) = 'h', substr(k3, 2), k3)", "(k1 > 1) + (k2 > 1)", "k1 > 1 = k2 > 1",
  "k3 || 'x' = 'ax'", "-k1 < 0", "+k1 = '1'",
  /* collations: where a comparison takes its COLLATE from, IN's left side */
  "k3 = 'A' COLLATE NOCASE", "k3 COLLATE NOCASE < 'b'", "k3 || '  ' = k3 COLLATE RTRIM",
  "k3 COLLATE NOCASE IN ('a', 'AB', 12)", "k3 IN ('A' COLLATE NOCASE)", "k3 IN ('A' COLLATE NOCASE, 'b')",
  "k3 BETWEEN 'A' COLLATE NOCASE AND 'b'", "CASE k3 COLLATE NOCASE WHEN 'a' THEN 1 WHEN 'AB' THEN 2 ELSE 0 END",
  "length(nullif(k3, 'A' COLLATE NOCASE))", "instr(max(k3 COLLATE NOCASE, 'B'), 'B')", "typeof(min(v3, k3 COLLATE NOCASE)) = 'text'",
  "(k3 COLLATE NOCASE = 'a') = (k3 = 'A')", "upper(k3 COLLATE NOCASE) > 'a'", "k3 COLLATE BINARY = 'A' COLLATE NOCASE",
  "CAST(k3 COLLATE NOCASE AS TEXT) >= 'AB'", "v3 COLLATE NOCASE = k3", "k3 = v3 COLLATE RTRIM", "(k1 & 1) = 0", "k1 & 2 > 0", "k1 | 1 = k1", "k2 IS k1", "v3 <> k3", "v3 = k1",
  "d > '2023'", "d LIKE '2024%'", "k3 LIKE v3", "v3 LIKE k3 || '%'", "k3 LIKE '%' || k3 || '%'", "k1 = 1 IS NULL", "k1 IN (1, '2', NULL)", "k3 NOT IN ('a', 12)", "k2 IN (k1, 2.5)", "v3 IN (1, 'a')",
};
/* WHERE terms: pushable ones and expressions */
static const char *filter_choices[] = {
  "k1 > 0", "k1 <> 2", "k3 <> ''", "k3 LIKE '%a%'", "k3 NOT LIKE '%b%'", "k3 GLOB '*l*'",
  "k3 NOT GLOB 'a*'", "k2 IS NOT NULL", "v3 IS NULL", "k1 = 1 OR k3 = 'a'", "NOT k1 = 1",
  "k1 < k2", "k1 + 1 > 2", "k2 BETWEEN 1 AND 4", "k1 NOT BETWEEN 1 AND 3", "k1 IN (1, 2, 5)",
  "v3", "iif(k1 > 0, 1, 0)", "instr(k3, 'l') > 0", "CASE WHEN k1 > 1 THEN 1 END",
  "k3 = 12", "k1 = '1'", "v3 > 5", "d >= '2024'", "1 < k1", "NOT (k3 LIKE 'a%')",
  "k3 IS 'a'", "(k1 > 0 AND k2 > 0)", "length(k3) > 2", "v3 NOT LIKE '1%'",
  "k1 NOT IN (1, 3)", "k1 IN (1, 2) OR k3 IN ('a', 'b')", "k3 IN ('a', 'b') AND k1 > 0",
  /* column = constant: SQLite's constant propagation fixes the column's
  ** other references (agg_where_split), under its affinity */
  "k1 = 2", "k3 = 'a'", "2 = k1", "k2 = 1.5", "k2 = 2", "k1 IN (3)", "v3 = 1", "k1 = 2.0",
  "k3 = 1", "+k1 = 2", "k1 = 1 + 1", "k1 = CAST(2 AS TEXT)", "v3 = 'a'", "d = '2024-01-02'",
  "typeof(k1) = 'integer'", "typeof(k2) <> 'real'", "typeof(v3) = 'text'", "k2 / 2 > 0.5",
  "k1 / 2 = 1", "k3 || k1 = 'a2'", "k3 = 'A' COLLATE NOCASE", "k3 COLLATE NOCASE <> 'ab'",
  "k3 COLLATE BINARY = 'a' AND k3 < 'b'", "k3 = 'AB' COLLATE NOCASE AND upper(k3) = 'AB'", "k1 = 1 COLLATE NOCASE", "k1 & 1", "(k1 | 2) = 3", "v1 >> 4 > 10", "(k1 = 2 AND (k2 > 1 AND k3 = 'a'))", "v3 < 'b'", "k3 > 1",
};
#define NPKEYC ((int)(sizeof(pred_key_choices)/sizeof(pred_key_choices[0])))
#define NFILC ((int)(sizeof(filter_choices)/sizeof(filter_choices[0])))
#define NKEYC ((int)(sizeof(key_choices)/sizeof(key_choices[0])))
#define NAGGC ((int)(sizeof(agg_choices)/sizeof(agg_choices[0])))

/* Two rows of fmt_value fields alike: equal text, or both 'r' fields
** within 1e-12 of each other, relatively, or within what the README allows
** lanes: 8 units of 2^-53 times the sum of the inputs' magnitudes, here
** at most 3000 rows of |v2| < 14286, 3.8e-8 (values that cancel to near 0:
** -3.99999999993815 summed in two orders as ...9763531). (12 printed
** digits had compared -601.4285714285 summed in two orders as ...428
** against ...429.) */
static int rows_same(const char *x, const char *y){
  if( strcmp(x, y)==0 ) return 1;
  while( *x && *y ){
    const char *ex = strchr(x, '|'), *ey = strchr(y, '|');
    if( !ex || !ey ) return 0;
    if( ex-x!=ey-y || memcmp(x, y, (size_t)(ex-x)) ){
      if( x[0]!='r' || y[0]!='r' ) return 0;
      double a = strtod(x+1, 0), b = strtod(y+1, 0);
      double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
      if( !(fabs(a-b) <= 1e-12*m) && !(fabs(a-b) <= 3.8e-8) ) return 0;
    }
    x = ex + 1; y = ey + 1;
  }
  return *x==0 && *y==0;
}

/* One value as comparable text: a type letter then an exact rendering. */
static void fmt_value(char **o, size_t *on, size_t *ocap, int loose, int type, int64_t i, double f, const char *p, uint32_t n){
  char buf[64];
  const char *s = buf;
  size_t len;
  if( loose==1 && type==CV_REAL && f==floor(f) && fabs(f)<9007199254740992.0 ){ type = CV_INT; i = (int64_t)f; }
  switch( type ){
    case CV_INT: len = (size_t)snprintf(buf, sizeof(buf), "I%lld", (long long)i); break;
    /* loose==2 (sums over lanes): 'r', compared within 1e-12 (rows_same) */
    case CV_REAL: len = (size_t)snprintf(buf, sizeof(buf), loose==2 ? "r%.17g" : "R%.17g", f); break;
    case CV_NULL: len = (size_t)snprintf(buf, sizeof(buf), "N"); break;
    default: len = 0; break;
  }
  size_t need = *on + len + (size_t)n*2 + 8;
  if( need > *ocap ){ *ocap = need*2; *o = realloc(*o, *ocap); }
  if( type==CV_TEXT || type==CV_BLOB ){
    (*o)[(*on)++] = type==CV_TEXT ? 'T' : 'B';
    for(uint32_t k=0; k<n; k++) (*on) += (size_t)sprintf(*o + *on, "%02x", (unsigned char)p[k]);
  }else{
    memcpy(*o + *on, s, len); *on += len;
  }
  (*o)[(*on)++] = '|';
  (*o)[*on] = 0;
}

static int cmp_str(const void *a, const void *b){ return strcmp(*(char*const*)a, *(char*const*)b); }

typedef struct rowset { char **rows; int n, cap; int error; char errmsg[600]; } rowset;
static void rowset_add(rowset *rs, char *row){
  if( rs->n==rs->cap ){ rs->cap = rs->cap ? rs->cap*2 : 64; rs->rows = realloc(rs->rows, (size_t)rs->cap*sizeof(char*)); }
  rs->rows[rs->n++] = row;
}
static void rowset_free(rowset *rs){ for(int i=0; i<rs->n; i++) free(rs->rows[i]); free(rs->rows); memset(rs, 0, sizeof(*rs)); }

static int diff_cases, diff_fail;

static void run_sqlite(sqlite3 *db, const char *sql, const uint8_t *loose, rowset *rs){
  sqlite3_stmt *st;
  if( sqlite3_prepare_v2(db, sql, -1, &st, 0) ){
    rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", sqlite3_errmsg(db)); return;
  }
  int rc;
  while( (rc = sqlite3_step(st))==SQLITE_ROW ){
    char *o = 0; size_t on = 0, ocap = 0;
    for(int c=0; c<sqlite3_column_count(st); c++){
      int t = sqlite3_column_type(st, c);
      int ty = t==SQLITE_INTEGER ? CV_INT : t==SQLITE_FLOAT ? CV_REAL : t==SQLITE_TEXT ? CV_TEXT : t==SQLITE_BLOB ? CV_BLOB : CV_NULL;
      const char *p = ty==CV_TEXT ? (const char*)sqlite3_column_text(st, c) : ty==CV_BLOB ? sqlite3_column_blob(st, c) : 0;
      fmt_value(&o, &on, &ocap, loose[c], ty, sqlite3_column_int64(st, c), sqlite3_column_double(st, c), p, (uint32_t)sqlite3_column_bytes(st, c));
    }
    rowset_add(rs, o);
  }
  if( rc!=SQLITE_DONE ){ rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", sqlite3_errmsg(db)); }
  sqlite3_finalize(st);
}

static col_schema test_schema(void){
  col_schema s;
  s.n = NCOL;
  s.cols = calloc(NCOL, sizeof(col_def));
  for(int i=0; i<NCOL; i++){ s.cols[i].name = strdup(colnames[i]); s.cols[i].decl = ""; s.cols[i].type = CV_NULL; }
  return s;
}

/* Rows of one generated table, plus which rows are "dead" (filtered by sel). */
typedef struct gen_table { pred_value *v[NCOL]; uint8_t *live; int n; } gen_table;

static int diff_reruns;   /* lanes that had to be run again serially */

static uint64_t feed_dict_ids;   /* dict_ids handed out so far */

/* Feed rows [from, to) of gt to gb in batches of random size and form.
** Some runs of batches play a Parquet row group: a column may come as one
** dictionary over the whole run, each batch a slice of its codes, named by
** a dict_id, so what a consumer remembers per entry carries across them. */
static int feed_rows(groupby *gb, const gen_table *gt, int from, int to, col_error *err){
  int nproj; const int *proj; const uint8_t *raw;
  groupby_projection(gb, &nproj, &proj, &raw);
  int at = from;
  tv_pool pl = {0};
  int span_end = from, span_at = from;
  col_vector *span[NCOL+1] = {0};
  while( at<to ){
    if( at>=span_end ){
      memset(span, 0, sizeof(span));
      if( pl.n > 5000 ) tv_free(&pl);
      span_at = at;
      span_end = rndn(2) ? at + 1 + rndn(2000) : at;
      if( span_end > to ) span_end = to;
      for(int c=0; c<nproj && span_end>at; c++){
        if( rndn(3) ) continue;
        span[c] = tv_dict(&pl, gt->v[proj[c]] + at, (uint32_t)(span_end - at));
        span[c]->dict_id = ((uint64_t)1<<62) | ++feed_dict_ids;
      }
    }
    uint32_t bn = 1 + (uint32_t)rndn(rndn(4)==0 ? 8 : 700);
    if( at + (int)bn > to ) bn = (uint32_t)(to - at);
    if( span_end>at && at + (int)bn > span_end ) bn = (uint32_t)(span_end - at);
    col_batch b; memset(&b, 0, sizeof(b));
    b.n = bn; b.ncols = nproj;
    b.first_row = at;
    b.cols = tv_alloc(&pl, (size_t)(nproj+1)*sizeof(col_vector));
    uint32_t *sel = tv_alloc(&pl, bn*4);
    uint32_t ns = 0;
    int anydead = 0;
    for(uint32_t r=0; r<bn; r++){ if( gt->live[at+r] ) sel[ns++] = r; else anydead = 1; }
    if( anydead || rndn(4)==0 ){ b.sel = sel; b.nsel = ns; } else { b.nsel = bn; }
    for(int c=0; c<nproj; c++){
      const pred_value *vals = gt->v[proj[c]] + at;
      int same = 1;
      for(uint32_t r=1; r<bn; r++){
        if( vals[r].type!=vals[0].type || vals[r].i!=vals[0].i || memcmp(&vals[r].f, &vals[0].f, 8)
         || vals[r].n!=vals[0].n || (vals[r].n && memcmp(vals[r].p, vals[0].p, vals[r].n)) ){ same = 0; break; }
      }
      int form = rndn(3);
      col_vector *cv;
      if( span[c] && at<span_end ){
        col_vector *sv = tv_alloc(&pl, sizeof(*sv));
        *sv = *span[c];
        uint32_t off = (uint32_t)(at - span_at);
        sv->n = bn;
        sv->codes = span[c]->codes + off;
        if( sv->tags ) sv->tags = span[c]->tags + off;
        cv = sv;
      }else if( same && form==2 ) cv = tv_const(&pl, vals[0], bn);
      else if( form==1 ) cv = tv_dict(&pl, vals, bn);
      else cv = tv_flat(&pl, vals, bn, rndn(2));
      b.cols[c] = *cv;
    }
    if( groupby_consume(gb, &b, err) ){ tv_free(&pl); return err->code; }
    at += (int)bn;
    if( pl.n > 5000 && at>=span_end ) tv_free(&pl);
  }
  tv_free(&pl);
  return COL_OK;
}

/* What the SQLite this test links does where versions differ, as
** ext/conn.c would find it (test_differential asks). */
static col_dialect diff_dialect;
static int radix_runs;   /* lane runs that held rows back (agg/radix.h) */
/* diff_one picks numeric keys and aggregates (radix_keys, radix_aggs), and
** lane runs are radix lanes */
static int radix_mode;
static const char *radix_keys[] = {
  "k1", "k1 % 7", "k1 + 1", "k1 * 2 - 1", "k1 / 2", "k1 = 3", "v1 % 5", "length(k3)",
  "k1 + k2", "k1 > 2", "k1 % 3",
};
static const char *radix_aggs[] = {
  "count(*)", "count(v1)", "sum(v1)", "total(v2)", "avg(v1)", "min(v2)", "max(v1)",
  "sum(v1 + 3)", "avg(v2)", "min(k1 * 2)", "max(v2)", "sum(v2)", "count(v2)", "total(v1 - 7)",
  "sum(k1)", "avg(k1 + 1000000000000)", "max(k1 % 5)",
};
#define NRADK ((int)(sizeof(radix_keys)/sizeof(radix_keys[0])))
#define NRADA ((int)(sizeof(radix_aggs)/sizeof(radix_aggs[0])))

/* threads>0: one group by with that many partitions; threads<0: -threads
** lanes over consecutive runs of rows, folded together (groupby_merge, or
** groupby_fold_* without copying). */
static void run_ours(const gen_table *gt, const char *keys, const char *aggs, int threads,
                     const col_schema *schema, const uint8_t *loose, rowset *rs,
                     const char *where){
  groupby *lanes[8] = {0};
  int nlane = threads<0 ? -threads : 1;
  col_error err; col_error_clear(&err);
  /* threads==0: serial, with a count(DISTINCT) split from its first pair */
  groupby_options o = { threads<0 ? -threads : threads ? threads : 1, 0, where, threads<0, 0, &diff_dialect, 0, 0, 0, 0 };
  /* a third of the lane runs as radix lanes (agg/radix.h): 256 partitions,
  ** rows held back once a lane has radix_after groups */
  int radix = threads<0 && (radix_mode || rndn(3)==0);
  if( radix ){
    o.threads = rndn(2) ? 2 : 4; o.radix_after = 1 + (uint32_t)rndn(40); o.radix_repeats = rndn(2);
    /* known: a lane of repeats may hold from its first radix_after groups */
    o.lane_rows = rndn(2) ? (uint64_t)gt->n / (uint64_t)nlane : 0;
  }
  for(int l=0; l<nlane; l++){
    if( groupby_new(keys, aggs, schema, &o, &lanes[l], &err) ){
      rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
      goto done;
    }
    if( threads==0 ) groupby_split_distinct(lanes[l], 1);
  }
  groupby *gb = lanes[0];
  if( nlane>1 && !groupby_can_merge(gb) ){
    /* not mergeable: the lanes are not used (group_concat with a varying separator) */
    nlane = 1;
  }
  for(int l=0; l<nlane; l++){
    int from = (int)((int64_t)gt->n * l / nlane), to = (int)((int64_t)gt->n * (l+1) / nlane);
    if( nlane==1 ){ from = 0; to = gt->n; }
    if( feed_rows(lanes[l], gt, from, to, &err) ){
      rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
      goto done;
    }
  }
  /* half the cases fold by copying groups (groupby_merge), half without
  ** (groupby_fold_*, as groupby_run does) */
  int held = 0;
  for(int l=0; l<nlane; l++) held |= groupby_radix_holds(lanes[l]);
  int wide = 0;
  for(int l=0; l<nlane && radix; l++) wide |= groupby_parts(lanes[l]) > o.threads;
  if( wide ){
    radix_runs += held;
    int rc = COL_OK;
    for(int l=0; l<nlane && rc==COL_OK; l++) rc = groupby_radix_widen(lanes[l], &err);
    if( rc==COL_OK ) rc = groupby_radix_begin(lanes, nlane, &err);
    /* one thread takes every partition: each reuses the buckets of the
    ** one before (agg_table_reserve_spare) */
    void *spare = 0;
    for(int p=0; p<groupby_parts(gb) && rc==COL_OK; p++) rc = groupby_radix_part(lanes, nlane, p, &spare, &err);
    agg_mem_free(spare);
    if( rc ){
      rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
      goto done;
    }
  }else if( nlane>1 && (strlen(keys) + strlen(aggs)) % 2 && groupby_can_fold(gb) ){
    int rc = groupby_fold_begin(lanes, nlane, &err);
    for(int p=0; p<groupby_parts(gb) && rc==COL_OK; p++) rc = groupby_fold_part(lanes, nlane, p, &err);
    if( rc==COL_OK ) rc = groupby_fold_adopt(lanes, nlane, &err);
    if( rc ){
      rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
      goto done;
    }
  }else{
    for(int l=1; l<nlane; l++){
      if( groupby_merge(gb, lanes[l], &err) ){
        rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
        goto done;
      }
    }
  }
  if( nlane>1 && !groupby_merge_exact(gb) ){
    /* as groupby_run does: overflow depends on the order, so run serially */
    diff_reruns++;
    groupby_free(gb);
    gb = lanes[0] = 0;
    /* serial, as groupby_run's second pass: a lane's options would hold
    ** rows back for a radix fold that never comes */
    groupby_options so = o;
    so.threads = 1; so.lane = 0; so.radix_after = 0; so.radix_repeats = 0; so.lane_rows = 0;
    if( groupby_new(keys, aggs, schema, &so, &lanes[0], &err) || feed_rows(lanes[0], gt, 0, gt->n, &err) ){
      rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
      goto done;
    }
    gb = lanes[0];
  }
  groupby_finish(gb, &err);
  char buf[64];
  for(uint32_t g=0; g<groupby_ngroups(gb); g++){
    char *o = 0; size_t on = 0, ocap = 0;
    for(int c=0; c<groupby_ncols(gb); c++){
      pred_value v;
      if( groupby_value(gb, g, c, &v, buf, &err) ){
        rs->error = 1; snprintf(rs->errmsg, sizeof(rs->errmsg), "%s", err.msg);
        break;
      }
      fmt_value(&o, &on, &ocap, loose[c], v.type, v.i, v.f, v.p, v.n);
    }
    rowset_add(rs, o);
  }
done:
  for(int l=0; l<8; l++) groupby_free(lanes[l]);
}

static void diff_one(sqlite3 *db, const gen_table *gt, const col_schema *schema, int threads){
  char keys[2048] = "", aggs[1024] = "", filter[512] = "";
  uint8_t loose[16] = {0};
  int nk = radix_mode ? 1 + rndn(2) : rndn(4);   /* 0..3 keys */
  for(int i=0; i<nk; i++){
    if( i ) strcat(keys, ", ");
    strcat(keys, radix_mode ? radix_keys[rndn(NRADK)] : rndn(2) ? pred_key_choices[rndn(NPKEYC)] : key_choices[rndn(NKEYC)]);
    /* keys to the storage class and the sign of a zero: a group whose
    ** rows hold 1 and 1.0 (or -0.0 and 0.0) is shown as the row SQLite
    ** copies its keys from (groupby_int.h, GB_KEYREP); AGG_LOOSE_KEYS=1
    ** compares them as numbers */
    loose[i] = getenv("AGG_LOOSE_KEYS") ? 1 : 0;
  }
  int nf = rndn(2) ? 0 : 1 + rndn(3);
  for(int i=0; i<nf; i++){
    if( i ) strcat(filter, " AND ");
    strcat(filter, filter_choices[rndn(NFILC)]);
  }
  int na = 1 + rndn(4);
  for(int i=0; i<na; i++){
    if( i ) strcat(aggs, ", ");
    const char *ac = radix_mode ? radix_aggs[rndn(NRADA)] : agg_choices[rndn(NAGGC)];
    strcat(aggs, ac);
    loose[nk+i] = 0;
    /* lanes add partial REAL sums: equal to 1e-12 relative, not to the bit */
    if( threads<0 && (strncmp(ac, "sum(", 4)==0 || strncmp(ac, "total(", 6)==0 || strncmp(ac, "avg(", 4)==0) ) loose[nk+i] = 2;
  }
  char sql[8192];
  snprintf(sql, sizeof(sql), "SELECT %s%s%s FROM t%s%s%s%s", keys, nk ? ", " : "", aggs,
           nf ? " WHERE " : "", filter, nk ? " GROUP BY " : "", keys);
  rowset a = {0}, b = {0};
  if( getenv("AGG_TRACE") ) fprintf(stderr, "SQL: %s\n", sql);
  run_sqlite(db, sql, loose, &a);
  /* the filter: pushed predicates applied here as the reader would, the
  ** rest (agg_filter.where) by the group by */
  agg_filter fl;
  col_error ferr; col_error_clear(&ferr);
  gen_table g2 = *gt;
  uint8_t *live2 = malloc((size_t)gt->n + 1);
  memcpy(live2, gt->live, (size_t)gt->n);
  g2.live = live2;
  if( agg_filter_parse(filter, schema, &diff_dialect, &fl, &ferr) ){
    b.error = 1; snprintf(b.errmsg, sizeof(b.errmsg), "%s", ferr.msg);
  }else{
    for(int r=0; r<gt->n; r++){
      for(int k=0; k<fl.npred && live2[r]; k++){
        if( !pred_match_value(&fl.preds[k], &gt->v[fl.preds[k].col][r]) ) live2[r] = 0;
      }
    }
    run_ours(&g2, keys, aggs, threads, schema, loose, &b, fl.where);
    if( threads!=1 && !b.error ){
      /* groups come out in first-seen order whatever the threads */
      rowset c = {0};
      run_ours(&g2, keys, aggs, 1, schema, loose, &c, fl.where);
      int same = !c.error && c.n==b.n;
      for(int i=0; same && i<b.n; i++){
        /* compare the keys only: REAL sums may differ in the last bits */
        const char *x = b.rows[i], *y = c.rows[i];
        for(int k=0; k<nk && same; k++){
          const char *px = strchr(x, '|'), *py = strchr(y, '|');
          same = px && py && px-x==py-y && memcmp(x, y, (size_t)(px-x))==0;
          x = px ? px+1 : x; y = py ? py+1 : y;
        }
      }
      if( !same ){
        diff_fail++; unit_cur_failed = 1;
        fprintf(stderr, "ORDER threads=%d: %s: groups not in first-seen order\n", threads, sql);
      }
      rowset_free(&c);
    }
    agg_filter_free(&fl);
  }
  free(live2);
  diff_cases++;
  int bad = 0, first_bad = -1;
  if( a.error || b.error ){
    bad = a.error!=b.error;
  }else if( a.n!=b.n ){
    bad = 1;
  }else{
    if( a.n ) qsort(a.rows, (size_t)a.n, sizeof(char*), cmp_str);
    if( b.n ) qsort(b.rows, (size_t)b.n, sizeof(char*), cmp_str);
    for(int i=0; i<a.n; i++) if( !rows_same(a.rows[i], b.rows[i]) ){ bad = 1; first_bad = i; break; }
  }
  if( bad ){
    diff_fail++;
    unit_cur_failed = 1;
    if( diff_fail<=5 ){
      if( getenv("AGG_DUMP") ){
        char fn[64]; snprintf(fn, sizeof(fn), "/tmp/agg_diff_%d.sql", diff_fail);
        FILE *f = fopen(fn, "w");
        sqlite3_stmt *st; sqlite3_prepare_v2(db, "SELECT quote(k1),quote(k2),quote(k3),quote(v1),quote(v2),quote(v3),quote(d), typeof(k2)='real' AND k2=0 AND atan2(k2,-1)<0 FROM t", -1, &st, 0);
        fprintf(f, "CREATE TABLE t(k1,k2,k3,v1,v2,v3,d);\n");
        while( sqlite3_step(st)==SQLITE_ROW ){
          fprintf(f, "INSERT INTO t VALUES(");
          for(int c=0; c<7; c++) fprintf(f, "%s%s", c ? "," : "", c==1 && sqlite3_column_int(st,7) ? "-0.0" : (const char*)sqlite3_column_text(st, c));
          fprintf(f, ");\n");
        }
        sqlite3_finalize(st);
        /* the rows the batches carried but their selections left out */
        for(int r=0; r<gt->n; r++){
          if( gt->live[r] ) continue;
          fprintf(f, "-- dead row %d:", r);
          for(int c=0; c<NCOL; c++){
            const pred_value *v = &gt->v[c][r];
            if( v->type==CV_INT ) fprintf(f, " %lld", (long long)v->i);
            else if( v->type==CV_REAL ) fprintf(f, " %.17g", v->f);
            else if( v->type==CV_TEXT || v->type==CV_BLOB ) fprintf(f, " '%.*s'", (int)v->n, v->p);
            else fprintf(f, " NULL");
          }
          fprintf(f, "\n");
        }
        fprintf(f, "%s;\n", sql);
        fclose(f);
      }
      fprintf(stderr, "DIFF threads=%d: %s\n  sqlite: %s%s (%d rows)  ours: %s%s (%d rows)\n", threads, sql,
              a.error ? "error " : "", a.errmsg, a.n, b.error ? "error " : "", b.errmsg, b.n);
      if( first_bad>=0 ){
        fprintf(stderr, "   first unlike: sqlite %s\n                 ours   %s\n", a.rows[first_bad], b.rows[first_bad]);
      }
      if( !a.error && !b.error ){
        int i = 0, j = 0, sh = 0;
        while( (i<a.n || j<b.n) && sh<6 ){
          int c = i>=a.n ? 1 : j>=b.n ? -1 : strcmp(a.rows[i], b.rows[j]);
          if( c==0 ){ i++; j++; continue; }
          if( c<0 ) fprintf(stderr, "   only sqlite %s\n", a.rows[i++]);
          else fprintf(stderr, "   only ours   %s\n", b.rows[j++]);
          sh++;
        }
      }
    }
  }
  rowset_free(&a); rowset_free(&b);
}

static void test_differential(void){
  col_schema schema = test_schema();
  static const char *typed_decl[NCOL] = { "INTEGER", "REAL", "TEXT", "INTEGER", "REAL", "", "TEXT" };
  for(int tab=0; tab<120; tab++){
    int typed = tab>=60;   /* declared types: comparison affinity */
    for(int c=0; c<NCOL; c++) schema.cols[c].decl = typed ? typed_decl[c] : "";
    /* typed: the columns whose every value has one storage class say so,
    ** as a Parquet column's type does (derived keys and radix lanes need
    ** it) */
    schema.cols[0].type = schema.cols[3].type = typed ? CV_INT : CV_NULL;
    schema.cols[4].type = typed ? CV_REAL : CV_NULL;
    sqlite3 *db;
    sqlite3_open(":memory:", &db);
    if( tab==0 ) test_dialect_probe(db, &diff_dialect);
    sqlite3_exec(db, typed ? "CREATE TABLE t(k1 INTEGER, k2 REAL, k3 TEXT, v1 INTEGER, v2 REAL, v3, d TEXT)"
                           : "CREATE TABLE t(k1, k2, k3, v1, v2, v3, d)", 0, 0, 0);
    gen_table gt;
    gt.n = rndn(5)==0 ? rndn(5) : rndn(3000);
    int card = rndn(3)==0 ? 1000 : 3 + rndn(20);
    int bigints = rndn(4)==0;
    gt.live = malloc((size_t)gt.n + 1);
    for(int c=0; c<NCOL; c++) gt.v[c] = malloc(((size_t)gt.n+1)*sizeof(pred_value));
    sqlite3_stmt *ins;
    sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?,?,?,?,?,?,?)", -1, &ins, 0);
    sqlite3_exec(db, "BEGIN", 0, 0, 0);
    for(int r=0; r<gt.n; r++){
      gt.live[r] = rndn(8)!=0;
      for(int c=0; c<NCOL; c++){
        pred_value v = gen_value(c, card, bigints);
        if( typed && c==1 && v.type==CV_INT ){ v.type = CV_REAL; v.f = (double)v.i; v.i = 0; }
        if( typed && v.type==CV_REAL && v.f==0.0 ) v.f = 0.0;   /* REAL columns keep no -0.0 */
        gt.v[c][r] = v;
        if( !gt.live[r] ) continue;
        switch( v.type ){
          case CV_INT: sqlite3_bind_int64(ins, c+1, v.i); break;
          case CV_REAL: sqlite3_bind_double(ins, c+1, v.f); break;
          case CV_TEXT: sqlite3_bind_text(ins, c+1, v.p, (int)v.n, SQLITE_STATIC); break;
          case CV_BLOB: sqlite3_bind_blob(ins, c+1, v.p, (int)v.n, SQLITE_STATIC); break;
          default: sqlite3_bind_null(ins, c+1); break;
        }
      }
      if( gt.live[r] ){ sqlite3_step(ins); sqlite3_reset(ins); }
    }
    sqlite3_exec(db, "COMMIT", 0, 0, 0);
    sqlite3_finalize(ins);
    for(int q=0; q<12; q++) diff_one(db, &gt, &schema, q%4==3 ? 2 + rndn(3) : q%4==1 ? -(2 + rndn(3)) : q%8==4 ? 0 : 1);
    /* radix lanes, over keys and arguments of the columns typed INTEGER
    ** or REAL (k2 mixes both; length() and arithmetic are never TEXT) */
    radix_mode = typed;
    for(int q=0; q<4 && typed; q++) diff_one(db, &gt, &schema, -(2 + rndn(3)));
    radix_mode = 0;
    for(int c=0; c<NCOL; c++) free(gt.v[c]);
    free(gt.live);
    sqlite3_close(db);
  }
  col_schema_free(&schema);
  printf("differential: %d group-bys against SQLite %s (%s sums), %d differ (%d lane runs redone serially, %d held rows back)\n", diff_cases, sqlite3_libversion(), diff_dialect.sum_kbn ? "compensated" : "plain", diff_fail, diff_reruns, radix_runs);
}

/* agg/radix.h: rows come back as they went in (class, value, dataset row),
** whatever their vector's form, and the distinct-key sketch is near. */
static void test_radix_rows(void){
  enum { N = 5000 };
  static int64_t iv[N]; static double fv[N]; static uint8_t tags[N]; static uint32_t rows[N];
  for(uint32_t i=0; i<N; i++){
    iv[i] = (int64_t)i * 7919 - 100000; fv[i] = i * 0.25; rows[i] = i;
    tags[i] = i % 5==0 ? CV_NULL : i % 3==0 ? CV_REAL : CV_INT;
  }
  col_vector mixed = { CV_INT, CV_FLAT, N, tags, iv, fv, 0, 0, 0, 0 };
  static const int64_t one = 42;
  col_vector cst = { CV_INT, CV_CONST, N, 0, &one, 0, 0, 0, 0, 0 };
  const col_vector *v[2] = { &mixed, &cst };
  /* slabs come from a pool holding slabs another query wrote: what they
  ** held must not show through */
  agg_slab_pool *pool = agg_slab_pool_new(AGG_RADIX_SLAB);
  CHECK( pool!=0 );
  {
    void *s[3];
    for(int i=0; i<3; i++){
      int reused = -1;
      s[i] = agg_slab_take(pool, &reused);
      CHECK( s[i]!=0 && agg_mem_size(s[i])>=AGG_RADIX_SLAB && reused==0 );
      memset(s[i], 0xA5, agg_mem_size(s[i]));
    }
    for(int i=0; i<3; i++) agg_slab_give(pool, s[i]);
    CHECK( agg_slab_pool_held(pool)==3*agg_mem_size(s[0]) );
    /* a block of another size is freed, not kept */
    void *other = agg_mem_realloc(0, 2*AGG_RADIX_SLAB);
    CHECK( other!=0 );
    agg_slab_give(pool, other);
    CHECK( agg_slab_pool_held(pool)==3*agg_mem_size(s[0]) );
    /* what it takes, it no longer holds; the newest given first */
    int reused = 0;
    void *t = agg_slab_take(pool, &reused);
    CHECK( t==s[2] && reused==1 && agg_slab_pool_held(pool)==2*agg_mem_size(s[0]) );
    agg_slab_give(pool, t);
  }
  agg_radix r;
  CHECK( agg_radix_init(&r, 4, 2, pool)==0 );
  CHECK( agg_radix_text(v, 2, rows, N, 0)==0 && agg_radix_fits(&r, N, 0) );
  /* two batches, the second's rows far on: a new chunk base */
  CHECK( agg_radix_append(&r, 1, v, rows, N/2, 1000)==0 );
  CHECK( agg_radix_append(&r, 1, v, rows + N/2, N - N/2, ((int64_t)1 << 33))==0 );
  CHECK( !agg_radix_has(&r, 0) && agg_radix_has(&r, 1) );
  agg_radix_cols c;
  CHECK( agg_radix_cols_init(&c, 2)==0 );
  uint32_t k = 0;
  int bad = 0;
  for(const agg_radix_chunk *ch = r.parts[1].head; ch; ch = ch->next){
    agg_radix_unpack(&r, ch, &c);
    for(uint32_t j=0; j<c.n; j++, k++){
      int64_t want_row = k < N/2 ? 1000 + k : ((int64_t)1 << 33) + k;
      if( c.row[j]!=(uint64_t)want_row ) bad++;
      int t = cv_tag(&c.v[0], j);
      if( t!=tags[k] ) bad++;
      else if( t==CV_INT && c.v[0].i64[j]!=iv[k] ) bad++;
      else if( t==CV_REAL && c.v[0].f64[j]!=fv[k] ) bad++;
      if( cv_tag(&c.v[1], j)!=CV_INT || c.v[1].i64[j]!=42 ) bad++;
    }
  }
  CHECK( k==N && bad==0 );
  /* forms: INTEGERs within 32 bits take 4 bytes, wider ones 8, and a
  ** column of one class no class byte; rows far apart take 4-byte steps
  ** in a chunk or two, not a chunk each */
  {
    static int64_t big[N]; static double re[N]; static uint32_t far[N];
    for(uint32_t i=0; i<N; i++){
      big[i] = i < N/2 ? (int64_t)i - 7 : ((int64_t)i << 35) | 5;
      re[i] = i * -1.5;
      far[i] = i;
    }
    col_vector vbig = { CV_INT, CV_FLAT, N, 0, big, 0, 0, 0, 0, 0 };
    col_vector vre = { CV_REAL, CV_FLAT, N, 0, 0, re, 0, 0, 0, 0 };
    const col_vector *v2[2] = { &vbig, &vre };
    agg_radix q;
    CHECK( agg_radix_init(&q, 1, 2, pool)==0 );
    /* one row per call, each 70000 rows after the one before */
    for(uint32_t i=0; i<N; i++){
      CHECK( agg_radix_append(&q, 0, v2, &far[i], 1, (int64_t)i*70000 - i)==0 );
    }
    agg_radix_cols c2;
    CHECK( agg_radix_cols_init(&c2, 2)==0 );
    uint32_t nchunk = 0, got = 0, bad2 = 0;
    for(const agg_radix_chunk *ch = q.parts[0].head; ch; ch = ch->next){
      nchunk++;
      if( got >= N/2 + 1 && ch->width != 4 + 8 + 8 ) bad2++;
      if( got == 0 && ch->width > 2 + 4 + 8 ) bad2++;    /* first: 2-byte steps */
      agg_radix_unpack(&q, ch, &c2);
      for(uint32_t j=0; j<c2.n; j++, got++){
        if( c2.row[j] != (uint64_t)got*70000 ) bad2++;
        if( cv_tag(&c2.v[0], j)!=CV_INT || c2.v[0].i64[j]!=big[got] ) bad2++;
        if( cv_tag(&c2.v[1], j)!=CV_REAL || c2.v[1].f64[j]!=re[got] ) bad2++;
      }
    }
    CHECK( got==N && bad2==0 );
    CHECK( nchunk < 12 );
    agg_radix_free(&q);
    /* rows far apart in one call: a row past a 2-byte step from the one
    ** before ends the run a chunk takes within the call (the values are
    ** read at rows[k], so they are laid out there) */
    enum { M = 40, GAP = 65540 };
    static uint32_t spread[M];
    int64_t *bigw = calloc((size_t)M*GAP, sizeof(int64_t));
    double *rew = calloc((size_t)M*GAP, sizeof(double));
    CHECK( bigw!=0 && rew!=0 );
    for(uint32_t i=0; bigw && rew && i<M; i++){
      spread[i] = i*GAP;
      bigw[spread[i]] = big[i]; rew[spread[i]] = re[i];
    }
    col_vector wbig = vbig, wre = vre;
    wbig.n = wre.n = M*GAP;
    wbig.i64 = bigw; wre.f64 = rew;
    const col_vector *v3[2] = { &wbig, &wre };
    CHECK( agg_radix_init(&q, 1, 2, pool)==0 );
    CHECK( bigw && rew && agg_radix_append(&q, 0, v3, spread, M, 7)==0 );
    got = 0; bad2 = 0;
    for(const agg_radix_chunk *ch = q.parts[0].head; ch; ch = ch->next){
      agg_radix_unpack(&q, ch, &c2);
      for(uint32_t j=0; j<c2.n; j++, got++){
        if( c2.row[j] != (uint64_t)got*GAP + 7 ) bad2++;
        if( cv_tag(&c2.v[0], j)!=CV_INT || c2.v[0].i64[j]!=big[got] ) bad2++;
        if( cv_tag(&c2.v[1], j)!=CV_REAL || c2.v[1].f64[j]!=re[got] ) bad2++;
      }
    }
    CHECK( got==M && bad2==0 );
    free(bigw); free(rew);
    agg_radix_cols_free(&c2);
    agg_radix_free(&q);
  }
  /* TEXT and BLOB rows are held, their bytes copied to each chunk's text
  ** area: flat rows mixing classes and lengths (some past a chunk's room
  ** per row, one past a whole chunk's), and dictionary codes */
  {
    static char bytes[N*40];
    static cv_str sv[N];
    static uint8_t st[N];
    static uint32_t codes[N];
    uint32_t at = 0;
    for(uint32_t i=0; i<N; i++){
      uint32_t len = i==777 ? 30000 : i % 11==0 ? 33 : i % 4;
      if( i==777 ) len = 200;
      st[i] = i % 13==0 ? CV_NULL : i % 17==0 ? CV_INT : i % 19==0 ? CV_BLOB : CV_TEXT;
      for(uint32_t b=0; b<len; b++) bytes[at + b] = (char)('a' + (i + b) % 26);
      sv[i].p = bytes + at; sv[i].n = len;
      at += len;
      codes[i] = (i * 7) % 50;
    }
    static char huge[40000];
    memset(huge, 'h', sizeof(huge));
    sv[999].p = huge; sv[999].n = sizeof(huge);   /* past a chunk's room */
    col_vector flat = { CV_TEXT, CV_FLAT, N, st, iv, 0, sv, 0, 0, 0 };
    col_vector dict_vals = { CV_TEXT, CV_FLAT, 50, 0, 0, 0, sv, 0, 0, 0 };
    col_vector dict = { CV_TEXT, CV_DICT, N, 0, 0, 0, 0, codes, &dict_vals, 0 };
    const col_vector *vt[2] = { &flat, &dict };
    uint64_t text = agg_radix_text(vt, 2, rows, N, 0);
    agg_radix q;
    CHECK( agg_radix_init(&q, 2, 2, pool)==0 );
    CHECK( !agg_radix_fits(&q, 1, 20) && agg_radix_fits(&q, N, (uint64_t)N*AGG_RADIX_TEXT_ROW) );
    CHECK( agg_radix_append(&q, 1, vt, rows, N, 0)==0 );
    CHECK( q.rows==N && q.text==text && agg_radix_rows(&q, 1)==N && agg_radix_rows(&q, 0)==0 );
    CHECK( agg_radix_vtext(&q, 1, 0) + agg_radix_vtext(&q, 1, 1)==text );
    agg_radix_cols c3;
    CHECK( agg_radix_cols_init(&c3, 2)==0 );
    uint32_t got = 0, bad3 = 0;
    for(const agg_radix_chunk *ch = q.parts[1].head; ch; ch = ch->next){
      agg_radix_unpack(&q, ch, &c3);
      for(uint32_t j=0; j<c3.n; j++, got++){
        if( c3.row[j]!=got ) bad3++;
        int t = cv_tag(&c3.v[0], j);
        if( t!=st[got] ) bad3++;
        else if( t==CV_INT && c3.v[0].i64[j]!=iv[got] ) bad3++;
        else if( t==CV_TEXT || t==CV_BLOB ){
          cv_str x = cv_bytes(&c3.v[0], j);
          if( x.n!=sv[got].n || (x.n && memcmp(x.p, sv[got].p, x.n)) ) bad3++;
        }
        cv_str y = cv_bytes(&c3.v[1], j);
        const cv_str *w = &sv[codes[got]];
        if( cv_tag(&c3.v[1], j)!=CV_TEXT || y.n!=w->n || (y.n && memcmp(y.p, w->p, y.n)) ) bad3++;
      }
    }
    CHECK( got==N && bad3==0 );
    agg_radix_cols_free(&c3);
    agg_radix_free(&q);
  }
  agg_radix_cols_free(&c);
  agg_radix_free(&r);
  /* every slab went back, up to the pool's cap */
  {
    size_t held = agg_slab_pool_held(pool);
    CHECK( held>=3*AGG_RADIX_SLAB && held<=AGG_SLAB_POOL_MAX );
    void *s[200];
    int n = 0;
    while( n<200 ) s[n++] = agg_slab_take(pool, 0);
    CHECK( agg_slab_pool_held(pool)==0 );
    for(int i=0; i<n; i++) agg_slab_give(pool, s[i]);
    CHECK( agg_slab_pool_held(pool)<=AGG_SLAB_POOL_MAX
           && agg_slab_pool_held(pool)>AGG_SLAB_POOL_MAX - agg_mem_size(s[0]) );
  }
  agg_slab_pool_free(pool);
  /* the sketch: within 30% from a handful of keys to a hundred thousand */
  static const uint32_t counts[] = { 3, 40, 1000, 100000 };
  for(int t=0; t<4; t++){
    agg_radix s;
    CHECK( agg_radix_init(&s, 1, 1, 0)==0 );
    col_vector flat = { CV_INT, CV_FLAT, 1, 0, iv, 0, 0, 0, 0, 0 };
    const col_vector *vf[1] = { &flat };
    uint32_t r0 = 0;
    for(uint32_t i=0; i<counts[t]; i++){
      uint64_t h = agg_ipair_hash(7, (int64_t)(i % counts[t]) * 31);
      uint64_t h2 = h;
      /* every key twice: repeats must not count */
      CHECK( agg_radix_append(&s, 0, vf, &r0, 1, i)==0 );
      agg_radix_sketch(&s, &h, 0, 0, 1);
      CHECK( agg_radix_append(&s, 0, vf, &r0, 1, i)==0 );
      agg_radix_sketch(&s, &h2, 0, 0, 1);
    }
    const agg_radix *sp = &s;
    double e = agg_radix_distinct(&sp, 1, 0);
    CHECK( e > counts[t]*0.7 && e < counts[t]*1.3 );
    agg_radix_free(&s);
  }
}

/* Errors the parser must give, not crash on. */
/* Text to REAL as the SQLite this test links converts it (CAST, affinity,
** arithmetic on text): agg_atof with the probed dialect's atof_mode, over
** random texts of 1 to 28 digits, some with exponents. strtod had been one
** unit of the last place off 3.40's answer for about one in 10000 texts of
** 7 digits or more (COLUMNAR_SEED=3 found round(x, 15) off: "%!.15f"
** prints 22 digits), and 3.40's off 3.46's for one in 600. */
static int atof_differences(sqlite3 *db, int mode){
  sqlite3_stmt *st;
  CHECK(sqlite3_prepare_v2(db, "SELECT CAST(?1 AS REAL)", -1, &st, 0)==SQLITE_OK);
  int differ = 0;
  for(int it=0; it<200000; it++){
    char b[96];
    int k = 0, nd = 1 + rndn(28), dot = rndn(nd + 1);
    if( rndn(2) ) b[k++] = '-';
    for(int i=0; i<nd; i++){
      if( i==dot && i>0 ) b[k++] = '.';
      b[k++] = (char)('0' + rndn(10));
    }
    if( rndn(4)==0 ) k += snprintf(b + k, sizeof(b) - (size_t)k, "e%d", rndn(700) - 350);
    b[k] = 0;
    double got, want;
    agg_atof(mode, b, (uint32_t)k, &got);
    sqlite3_bind_text(st, 1, b, k, SQLITE_STATIC);
    sqlite3_step(st);
    want = sqlite3_column_double(st, 0);
    sqlite3_reset(st);
    if( memcmp(&got, &want, 8) && differ++ < 3 ){
      fprintf(stderr, "atof %s (mode %d): ours %.17g, SQLite %.17g\n", b, mode, got, want);
    }
  }
  sqlite3_finalize(st);
  return differ;
}

static void test_atof_like_sqlite(void){
  sqlite3 *db;
  sqlite3_open(":memory:", &db);
  col_dialect d;
  test_dialect_probe(db, &d);
  CHECK_EQ_INT(atof_differences(db, d.atof_mode), 0);
  /* 3.43 to 3.46 without a long double wider than double: their
  ** double-double steps (SQLITE_TESTCTRL_USELONGDOUBLE, 34, turns the
  ** wider one off; 2 puts the default back). Only where the long double
  ** steps were found: 3.53's test control 34 is another one. */
  if( d.atof_mode==AGG_ATOF_LD_STEPS && sqlite3_test_control(34, 0)==0 ){
    test_dialect_probe(db, &d);
    if( d.atof_mode!=AGG_ATOF_EXACT ){
      CHECK_EQ_INT(d.atof_mode, AGG_ATOF_DEKKER);
      CHECK_EQ_INT(atof_differences(db, d.atof_mode), 0);
    }
    sqlite3_test_control(34, 2);
  }
  sqlite3_close(db);
}

/* SQLite 3.52.0's conversion (AGG_ATOF_352) on texts where it differs from
** the correctly rounded value, and at the edges (subnormal, overflow):
** the bits 3.52.0 itself gives, so the mode is checked whichever SQLite
** this test links. */
static void test_atof_352(void){
  static const struct { const char *z; uint64_t bits; } t[] = {
    { "9e-265", 0x091d05244fe50669ull },
    { "-050621234727679156", 0xc3667af7d5411e97ull },
    { "-95465776711261277664.0971e-37", 0xbc66034e0789e0e5ull },
    { "-7882911763204695.50", 0xc33c01776b710a57ull },
    { "-928758.9130314433133", 0xc12c57edd378db7aull },
    { "510678.502794", 0x411f2b5a02dc6e2aull },
    { "1e-330", 0x0000000000000000ull },
    { "-2.5e-320", 0x80000000000013c4ull },
    { "17976931348623157e292", 0x7fefffffffffffffull },
    { "1e400", 0x7ff0000000000000ull },
    { "4.9406564584124654e-324", 0x0000000000000001ull },
    { "0.000", 0x0000000000000000ull },
  };
  for(size_t i=0; i<sizeof(t)/sizeof(t[0]); i++){
    double r;
    uint64_t u;
    agg_atof(AGG_ATOF_352, t[i].z, (uint32_t)strlen(t[i].z), &r);
    memcpy(&u, &r, 8);
    CHECK( u==t[i].bits );
  }
}

/* A key computed over a named dictionary's entries (date(d)) where the
** rows of a batch use few of them: only those are computed, and the rest
** must not pass for values. Dictionary X's entry 0 is a text date() makes
** NULL; Y's entry 0 is a date, named first by a NULL row (code 0) in a
** batch no live row of the entry reaches. That row must not hand the NULL
** group to entry 0, whose next row is '0000-01-01' (AGG_SEED=229 found
** it: one row of 3000 in another group). */
static void test_dict_entries_unset(void){
  col_schema schema = test_schema();
  groupby_options o = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  groupby *gb = 0;
  col_error err; col_error_clear(&err);
  CHECK(groupby_new("date(d)", "count(*)", &schema, &o, &gb, &err)==COL_OK);
  int nproj; const int *proj; const uint8_t *raw;
  groupby_projection(gb, &nproj, &proj, &raw);
  CHECK(nproj==1 && proj[0]==6);
  tv_pool pl = {0};
  pred_value xs[5] = { tv_text("9999-12-31 24:00:00"), tv_text("2013-07-01"), tv_text("2013-07-02"),
                       tv_text("2013-07-03"), tv_text("2013-07-04") };
  pred_value ys[5] = { tv_text("0000-01-01 00:00:00"), tv_text("2014-07-01"), tv_text("2013-13-01 00:00:00"),
                       tv_text("2014-07-03"), tv_text("2014-07-04") };
  col_vector *xd = tv_flat(&pl, xs, 5, 0), *yd = tv_flat(&pl, ys, 5, 0);
  /* batches of 10 rows, the first few live (a filter took the rest): too
  ** few for the dictionary to be computed whole. Y's second batch also
  ** meets a NULL entry, so its entries keep their tags. {dictionary, rows'
  ** codes, their tags, live rows} */
  static const uint32_t c1[10] = { 0, 3, 3, 3, 3, 3, 3, 3, 3, 3 }, c2[10] = { 0, 1, 2, 3, 3, 3, 3, 3, 3, 3 };
  static const uint8_t t2[10] = { CV_NULL, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT, CV_TEXT };
  static const uint32_t sel[3] = { 0, 1, 2 };
  struct { col_vector *d; uint64_t id; const uint32_t *codes; const uint8_t *tags; uint32_t nsel; } bs[] = {
    { xd, 0x4000000000000001ull, c1, 0, 1 }, { yd, 0x4000000000000002ull, c2, t2, 3 },
    { yd, 0x4000000000000002ull, c1, 0, 1 },
  };
  for(size_t i=0; i<sizeof(bs)/sizeof(bs[0]); i++){
    col_vector v; memset(&v, 0, sizeof(v));
    v.form = CV_DICT; v.n = 10; v.type = CV_TEXT;
    v.codes = (uint32_t*)bs[i].codes; v.dict = bs[i].d; v.dict_id = bs[i].id;
    v.tags = bs[i].tags;
    col_batch b; memset(&b, 0, sizeof(b));
    b.n = 10; b.sel = sel; b.nsel = bs[i].nsel; b.ncols = 1; b.cols = &v; b.first_row = i*10;
    CHECK(groupby_consume(gb, &b, &err)==COL_OK);
  }
  CHECK(groupby_finish(gb, &err)==COL_OK);
  int nnull = 0, nzero = 0, n2014 = 0;
  char buf[64];
  for(uint32_t g=0; g<groupby_ngroups(gb); g++){
    pred_value k, c;
    CHECK(groupby_value(gb, g, 0, &k, buf, &err)==COL_OK);
    CHECK(groupby_value(gb, g, 1, &c, buf, &err)==COL_OK);
    if( k.type==CV_NULL ) nnull = (int)c.i;
    else if( k.n==10 && memcmp(k.p, "0000-01-01", 10)==0 ) nzero = (int)c.i;
    else if( k.n==10 && memcmp(k.p, "2014-07-01", 10)==0 ) n2014 = (int)c.i;
  }
  CHECK_EQ_INT(nnull, 3);
  CHECK_EQ_INT(nzero, 1);
  CHECK_EQ_INT(n2014, 1);
  CHECK_EQ_INT((int)groupby_ngroups(gb), 3);
  groupby_free(gb);
  tv_free(&pl);
  col_schema_free(&schema);
}

/* One key column coming as dictionary slices of row groups (dict_id set):
** the per-entry slots gb_part_lookup remembers must give exactly the
** groups, in the order and with the counts, that flat batches give. The
** dictionary mixes TEXT and INTEGER entries; NULL rows carry a row tag
** over code 0, which names an entry, and must neither take nor leave that
** entry's slot. Serial, two partitions, and a lane. */
static void test_dict_slots(void){
  enum { N = 6000 };
  static pred_value vals[N];
  /* fixed rows here; the differential's sequence (AGG_SEED) goes on after */
  uint64_t saved = rng_state;
  for(int mode=0; mode<3; mode++){
    rng_state = 0x1234567ull + (uint64_t)mode;
    for(int i=0; i<N; i++){
      int r = rndn(20);
      vals[i] = r==0 ? tv_null() : tv_text(words[rndn(NWORDS)]);
      if( r==1 ) vals[i] = tv_int(rndn(2)+7);
    }
    col_schema schema = test_schema();
    groupby_options o = { mode==0 ? 1 : 2, 0, 0, mode==2, 0, 0, 0, 0, 0, 0 };
    char *out[2] = {0, 0};
    for(int dict=0; dict<2; dict++){
      groupby *gb = 0;
      col_error err; col_error_clear(&err);
      CHECK(groupby_new("k3", "count(*), count(k3)", &schema, &o, &gb, &err)==COL_OK);
      if( gb==0 ) break;
      tv_pool pl = {0};
      int at = 0;
      uint64_t id = 0;
      while( at<N ){
        int span = 1 + rndn(3000);
        if( at + span > N ) span = N - at;
        /* a NULL row's code names entry 0, whatever that holds */
        col_vector *whole = tv_dict(&pl, vals + at, (uint32_t)span);
        whole->dict_id = ++id;
        for(int off=0; off<span; ){
          uint32_t bn = 1 + (uint32_t)rndn(700);
          if( off + (int)bn > span ) bn = (uint32_t)(span - off);
          col_vector cv;
          if( dict ){
            cv = *whole;
            cv.n = bn; cv.codes = whole->codes + off;
            if( cv.tags ) cv.tags = whole->tags + off;
          }else{
            cv = *tv_flat(&pl, vals + at + off, bn, 0);
          }
          col_batch b; memset(&b, 0, sizeof(b));
          b.n = bn; b.nsel = bn; b.ncols = 1; b.cols = &cv; b.first_row = at + off;
          CHECK(groupby_consume(gb, &b, &err)==COL_OK);
          off += (int)bn;
        }
        at += span;
      }
      CHECK(groupby_finish(gb, &err)==COL_OK);
      size_t on = 0, ocap = 0;
      char buf[64];
      for(uint32_t g=0; g<groupby_ngroups(gb); g++){
        for(int c=0; c<3; c++){
          pred_value v;
          CHECK(groupby_value(gb, g, c, &v, buf, &err)==COL_OK);
          fmt_value(&out[dict], &on, &ocap, 0, v.type, v.i, v.f, v.p, v.n);
        }
      }
      tv_free(&pl);
      groupby_free(gb);
    }
    CHECK(out[0] && out[1] && strcmp(out[0], out[1])==0);
    free(out[0]); free(out[1]);
    col_schema_free(&schema);
  }
  rng_state = saved;
}

static void test_parse_errors(void){
  col_schema schema = test_schema();
  const char *bad_keys[] = { "nosuch", "k1 +", "(k1", "k1,,k2", "count(k1)", "substr(k1)", "'abc", "k1 k2 k3", "k1 AS", "k1 & ", "~", "foo(k1)", "x'4'" };
  const char *bad_aggs[] = { "k1", "sum(k1", "count(DISTINCT)", "sum(k1, k2)", "nosuch(k1)", "group_concat(DISTINCT k1, ',')", "sum(nosuch)" };
  for(size_t i=0; i<sizeof(bad_keys)/sizeof(bad_keys[0]); i++){
    groupby *gb = 0; col_error err; col_error_clear(&err);
    CHECK(groupby_new(bad_keys[i], "count(*)", &schema, 0, &gb, &err)!=COL_OK);
    CHECK(gb==0 && err.msg[0]);
  }
  for(size_t i=0; i<sizeof(bad_aggs)/sizeof(bad_aggs[0]); i++){
    groupby *gb = 0; col_error err; col_error_clear(&err);
    CHECK(groupby_new("k1", bad_aggs[i], &schema, 0, &gb, &err)!=COL_OK);
    CHECK(gb==0 && err.msg[0]);
  }
  groupby *gb = 0; col_error err; col_error_clear(&err);
  CHECK(groupby_new("k1 AS \"my key\", k2", "count(*) AS n, sum(v1)", &schema, 0, &gb, &err)==COL_OK);
  if( gb ){
    CHECK_EQ_STR(groupby_keys(gb)->items[0].name, "my key");
    CHECK_EQ_STR(groupby_keys(gb)->items[1].name, "k2");
    CHECK_EQ_STR(groupby_aggs(gb)->items[1].name, "sum(v1)");
    CHECK_EQ_INT(groupby_keys(gb)->items[0].src_col, 0);
    groupby_free(gb);
  }
  col_schema_free(&schema);
}

static void test_memory_limit(void){
  col_schema schema = test_schema();
  groupby *gb = 0; col_error err; col_error_clear(&err);
  groupby_options o = { 1, 100000, 0, 0, 0, 0, 0, 0, 0, 0 };
  CHECK(groupby_new("k1", "count(*)", &schema, &o, &gb, &err)==COL_OK);
  tv_pool pl = {0};
  int rc = COL_OK;
  for(int batch=0; batch<100 && rc==COL_OK; batch++){
    pred_value *v = tv_alloc(&pl, 1000*sizeof(pred_value));
    for(int i=0; i<1000; i++) v[i] = tv_int(batch*1000 + i);
    col_batch b; memset(&b, 0, sizeof(b));
    b.n = b.nsel = 1000; b.ncols = 1; b.cols = tv_flat(&pl, v, 1000, 0);
    rc = groupby_consume(gb, &b, &err);
  }
  CHECK_EQ_INT(rc, COL_ECONSTRAINT);
  CHECK(strstr(err.msg, "memory limit of 100000 bytes exceeded")!=0);
  groupby_free(gb);
  tv_free(&pl);
  col_schema_free(&schema);
}

/* ---- benchmark ---------------------------------------------------------- */

static double now_s(void){ struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec*1e-9; }

static void bench_one(const char *label, int str_key, int threads, uint32_t card){
  enum { ROWS = 10000000, BATCH = 8192 };
  col_schema schema = test_schema();
  groupby *gb; col_error err; col_error_clear(&err);
  groupby_options o = { threads, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  if( groupby_new(str_key ? "k3" : "k1", "count(*), sum(v1), avg(v2)", &schema, &o, &gb, &err) ){
    printf("bench: %s\n", err.msg); col_schema_free(&schema); return;
  }
  int nproj; const int *proj; const uint8_t *raw;
  groupby_projection(gb, &nproj, &proj, &raw);
  int64_t *ik = malloc(BATCH*8), *iv = malloc(BATCH*8);
  double *fv = malloc(BATCH*8);
  cv_str *sk = malloc(BATCH*sizeof(cv_str));
  char (*names)[24] = malloc((size_t)card*24);
  for(uint32_t i=0; i<card; i++) snprintf(names[i], 24, "key-%u", i*2654435761u);
  col_vector cols[3];
  double t0 = now_s();
  uint64_t x = 1;
  for(int at=0; at<ROWS; at+=BATCH){
    for(int i=0; i<BATCH; i++){
      x = x*6364136223846793005ull + 1442695040888963407ull;
      uint32_t k = (uint32_t)(x>>33) % card;
      ik[i] = k; iv[i] = (int64_t)(x>>40); fv[i] = (double)(x>>45)*0.5;
      sk[i].p = names[k]; sk[i].n = (uint32_t)strlen(names[k]);
    }
    memset(cols, 0, sizeof(cols));
    for(int c=0; c<nproj; c++){
      col_vector *v = &cols[c];
      v->form = CV_FLAT; v->n = BATCH;
      switch( proj[c] ){
        case 0: v->type = CV_INT; v->i64 = ik; break;
        case 2: v->type = CV_TEXT; v->str = sk; break;
        case 3: v->type = CV_INT; v->i64 = iv; break;
        default: v->type = CV_REAL; v->f64 = fv; break;
      }
    }
    col_batch b = { BATCH, BATCH, 0, nproj, cols, 0, 0 };
    if( groupby_consume(gb, &b, &err) ){ printf("bench: %s\n", err.msg); break; }
  }
  groupby_finish(gb, &err);
  double t = now_s() - t0;
  printf("bench %-28s threads=%d groups=%-8u %.1f M rows/s (%.2f s, incl. generating the rows)\n",
         label, threads, groupby_ngroups(gb), ROWS/t/1e6, t);
  groupby_free(gb);
  free(ik); free(iv); free(fv); free(sk); free(names);
  col_schema_free(&schema);
}

int main(int argc, char **argv){
  if( getenv("AGG_SEED") ) rng_state ^= strtoull(getenv("AGG_SEED"), 0, 10) * 0x9E3779B97F4A7C15ull;
  RUN(test_dict_hashes_like_flat);
  RUN(test_radix_rows);
  RUN(test_const_hashes_like_flat);
  RUN(test_wide_batches_hash_alike);
  RUN(test_numbers_that_group_hash_together);
  RUN(test_null_is_not_zero);
  RUN(test_column_order_matters);
  RUN(test_seen_key_found);
  RUN(test_found_after_rehash);
  RUN(test_spare_buckets);
  RUN(test_found_after_inplace_doubling);
  RUN(test_wide_buckets);
  RUN(test_json_fragments);
  RUN(test_text_limit);
  RUN(test_distinct_int_set_doubling);
  RUN(test_distinct_split);
  RUN(test_kbn_sums);
  RUN(test_state_reserve_exact);
  RUN(test_batch_sums);
  RUN(test_inline_short_keys);
  RUN(test_interleaved_keys);
  RUN(test_owned_bytes_counted);
  RUN(test_heap_segments);
  RUN(test_mem_aligned);
  RUN(test_mem_zone);
  RUN(test_real_text);
  RUN(test_atof_like_sqlite);
  RUN(test_atof_352);
  RUN(test_int_text);
  RUN(test_ascii_run);
  RUN(test_distinct_dict_batches);
  RUN(test_strftime);
  RUN(test_dict_slots);
  RUN(test_dict_entries_unset);
  RUN(test_parse_errors);
  RUN(test_memory_limit);
  RUN(test_differential);
  if( argc>1 && strcmp(argv[1], "bench")==0 ){
    bench_one("int key, 1000 groups", 0, 1, 1000);
    bench_one("int key, 1M groups", 0, 1, 1000000);
    bench_one("string key, 1000 groups", 1, 1, 1000);
    bench_one("string key, 1M groups", 1, 1, 1000000);
    bench_one("int key, 1M groups", 0, 2, 1000000);
    bench_one("string key, 1M groups", 1, 2, 1000000);
  }
  return unit_report("test_agg");
}
