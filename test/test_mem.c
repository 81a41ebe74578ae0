/*
** test_mem.c — the two block allocators under the hot paths: agg/bigmem.c
** (per-group arrays grown by mremap, zeroed or growing zeroed, buckets
** prefaulted) and reader/pool.c (a scan's buffers reused from row group to
** row group). Contents must survive
** every growth, across the malloc/mapping boundary and the pool's reuse;
** zeroed blocks must read zero; a pool shared by threads must hand a block
** to one taker at a time. reader/warm.c's sweep of a batch reads only
** bytes the batch owns (each value its own exact allocation here, so
** AddressSanitizer sees any byte past one).
**
**   ./test_mem
*/
#include "unit.h"
#include "../agg/bigmem.h"
#include "../reader/pool.h"
#include "../reader/arena.h"
#include "../reader/warm.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Grow a block from 1 KiB to 64 MiB, doubling, checking the bytes written
** before each growth: it crosses AGG_MEM_MAPPED (malloc'd to mapped) and
** then grows by mremap. Shrinking keeps the block. */
static void test_bigmem_grow(void){
  size_t n = 1024;
  uint32_t *a = agg_mem_realloc(0, n);
  CHECK(a!=0);
  if( !a ) return;
  for(size_t i=0; i<n/4; i++) a[i] = (uint32_t)(i*2654435761u);
  while( n < ((size_t)64<<20) ){
    size_t m = n*2;
    uint32_t *b = agg_mem_realloc(a, m);
    CHECK(b!=0);
    if( !b ){ agg_mem_free(a); return; }
    a = b;
    size_t bad = 0;
    for(size_t i=0; i<n/4; i++) bad += a[i]!=(uint32_t)(i*2654435761u);
    CHECK_EQ_INT(bad, 0);
    for(size_t i=n/4; i<m/4; i++) a[i] = (uint32_t)(i*2654435761u);
    n = m;
  }
  uint32_t *s = agg_mem_realloc(a, 100);
  CHECK(s==a);
  CHECK_EQ_INT(s[24], (uint32_t)(24*2654435761u));
  agg_mem_free(s);
  agg_mem_free(0);
}

/* Zeroed blocks, small (calloc) and mapped (prefaulted), read zero, and a
** zeroed block grows like any other. */
/* agg_copy_bytes: every length up to past the inline bound, from and to
** every alignment, copies exactly [0, n): the bytes around stay. */
static void test_copy_bytes(void){
  unsigned char src[96], dst[112];
  for(int i=0; i<96; i++) src[i] = (unsigned char)(i*37 + 11);
  int bad = 0;
  for(size_t n=0; n<=70; n++){
    for(size_t so=0; so<8; so++){
      for(size_t d0=0; d0<8; d0++){
        memset(dst, 0xEE, sizeof(dst));
        agg_copy_bytes(dst + 8 + d0, src + so, n);
        for(size_t i=0; i<sizeof(dst); i++){
          int in = i >= 8 + d0 && i < 8 + d0 + n;
          if( dst[i] != (in ? src[so + i - 8 - d0] : 0xEE) ) bad++;
        }
      }
    }
  }
  CHECK( bad==0 );
}

static void test_bigmem_zero(void){
  size_t sizes[] = { 1, 4096, AGG_MEM_MAPPED - 100, AGG_MEM_MAPPED, (size_t)8<<20 };
  for(size_t k=0; k<sizeof(sizes)/sizeof(sizes[0]); k++){
    unsigned char *z = agg_mem_zalloc(sizes[k]);
    CHECK(z!=0);
    if( !z ) continue;
    size_t nz = 0;
    for(size_t i=0; i<sizes[k]; i++) nz += z[i]!=0;
    CHECK_EQ_INT(nz, 0);
    memset(z, 7, sizes[k]);
    unsigned char *g = agg_mem_realloc(z, sizes[k]*3);
    CHECK(g!=0);
    if( g ){ CHECK_EQ_INT(g[sizes[k]-1], 7); z = g; }
    agg_mem_free(z);
  }
}

/* Pool: a block comes back with at least the size asked, a block put back
** is handed out again for a size it fits, growth keeps contents, and the
** NULL pool is plain malloc with the same calls. */
/* agg_mem_grow_zeroed from 1 KiB to 32 MiB: the old bytes kept, the new
** ones zero, whether they were malloc'd (memset), newly mapped (the copy
** across the boundary) or added by mremap; prefaulting keeps the bytes. */
static void test_bigmem_grow_zeroed(void){
  size_t n = 1024;
  uint8_t *a = agg_mem_grow_zeroed(0, 0, n);
  CHECK(a!=0);
  if( !a ) return;
  for(size_t i=0; i<n; i++) CHECK_EQ_INT(a[i], 0);
  memset(a, 0xab, n);
  while( n < ((size_t)32<<20) ){
    size_t m = n*2;
    uint8_t *b = agg_mem_grow_zeroed(a, n, m);
    CHECK(b!=0);
    if( !b ){ agg_mem_free(a); return; }
    a = b;
    agg_mem_prefault(a, n, m - n);
    size_t bad = 0;
    for(size_t i=0; i<n; i++) bad += a[i]!=0xab;
    for(size_t i=n; i<m; i++) bad += a[i]!=0;
    CHECK_EQ_INT(bad, 0);
    memset(a + n, 0xab, m - n);
    n = m;
  }
  agg_mem_free(a);
}

static void test_pool_reuse(void){
  col_pool *p = col_pool_new();
  CHECK(p!=0);
  if( !p ) return;
  char *a = col_pool_get(p, 300000);
  CHECK(a!=0);
  memset(a, 1, 300000);
  col_pool_put(p, a);
  char *b = col_pool_get(p, 290000);
  CHECK(b==a);                      /* the same block, reused */
  char *c = col_pool_get(p, 300000);
  CHECK(c!=0 && c!=b);              /* b is taken: a new one */
  memset(b, 2, 290000);
  char *g = col_pool_grow(p, b, 5000000);
  CHECK(g!=0);
  if( g ){ CHECK_EQ_INT(g[289999], 2); CHECK_EQ_INT(g[0], 2); }
  col_pool_put(p, g); col_pool_put(p, c); col_pool_put(p, 0);
  char *small = col_pool_get(p, 10);
  CHECK(small!=0);
  if( small ){ memcpy(small, "0123456789", 10); }
  small = col_pool_grow(p, small, 100000);
  CHECK(small!=0 && memcmp(small, "0123456789", 10)==0);
  col_pool_put(p, small);
  col_pool_free(p);
  char *q = col_pool_get(0, 1<<20);
  CHECK(q!=0);
  q = col_pool_grow(0, q, 2<<20);
  CHECK(q!=0);
  col_pool_put(0, q);
}

/* A capped pool (a dataset's) keeps blocks up to its byte cap; moving a
** scan's pool into it keeps what fits, and moving back hands the blocks
** out again. */
static void test_pool_keep_move(void){
  col_pool *ds = col_pool_new(), *scan = col_pool_new();
  CHECK(ds && scan);
  if( !ds || !scan ){ col_pool_free(ds); col_pool_free(scan); return; }
  col_pool_set_keep(ds, 3u<<20);              /* three 1 MiB blocks */
  char *b[5];
  for(int i=0; i<5; i++){ b[i] = col_pool_get(scan, 1u<<20); CHECK(b[i]!=0); }
  for(int i=0; i<5; i++) col_pool_put(scan, b[i]);   /* uncapped: all kept */
  CHECK_EQ_INT(col_pool_kept(scan), 5u<<20);
  col_pool_move(ds, scan);                     /* three fit, two are freed */
  CHECK_EQ_INT(col_pool_kept(scan), 0);
  CHECK_EQ_INT(col_pool_kept(ds), 3u<<20);
  col_pool *next = col_pool_new();
  CHECK(next!=0);
  if( !next ){ col_pool_free(scan); col_pool_free(ds); return; }
  col_pool_move(next, ds);
  CHECK_EQ_INT(col_pool_kept(ds), 0);
  CHECK_EQ_INT(col_pool_kept(next), 3u<<20);
  char *x = col_pool_get(next, 1u<<20);
  CHECK(x!=0);
  if( x ) memset(x, 7, 1u<<20);                /* ASan: handed out whole */
  CHECK_EQ_INT(col_pool_kept(next), 2u<<20);
  col_pool_put(next, x);
  col_pool_free(next); col_pool_free(scan); col_pool_free(ds);
}

/* Two scans of one dataset draw on its kept blocks as they need them, not
** the first one opened alone; what they free goes back at close. */
static void test_pool_parent(void){
  col_pool *ds = col_pool_new(), *s1 = col_pool_new(), *s2 = col_pool_new();
  CHECK(ds && s1 && s2);
  if( !ds || !s1 || !s2 ){ col_pool_free(s1); col_pool_free(s2); col_pool_free(ds); return; }
  col_pool_set_keep(ds, 4u<<20);
  char *b[2];
  for(int i=0; i<2; i++){ b[i] = col_pool_get(0, 1u<<20); CHECK(b[i]!=0); }
  for(int i=0; i<2; i++) col_pool_put(ds, b[i]);
  CHECK_EQ_INT(col_pool_kept(ds), 2u<<20);
  col_pool_set_parent(s1, ds); col_pool_set_parent(s2, ds);
  char *x = col_pool_get(s1, 1u<<20), *y = col_pool_get(s2, 1u<<20);
  CHECK(x!=0 && y!=0);
  CHECK(x==b[0] || x==b[1]);                   /* both from the dataset */
  CHECK(y==b[0] || y==b[1]);
  CHECK(x!=y);
  CHECK_EQ_INT(col_pool_kept(ds), 0);
  if( x ) memset(x, 1, 1u<<20);                /* ASan: unpoisoned whole */
  if( y ) memset(y, 2, 1u<<20);
  char *z = col_pool_get(s1, 1u<<20);          /* neither has one: malloc */
  CHECK(z!=0 && z!=b[0] && z!=b[1]);
  col_pool_put(s1, x); col_pool_put(s1, z); col_pool_put(s2, y);
  CHECK_EQ_INT(col_pool_kept(s1), 2u<<20);
  CHECK_EQ_INT(col_pool_kept(ds), 0);          /* a put stays with the scan */
  col_pool_move(ds, s1); col_pool_move(ds, s2);
  CHECK_EQ_INT(col_pool_kept(ds), 3u<<20);
  col_pool_free(s1); col_pool_free(s2); col_pool_free(ds);
}

/* A request takes the smallest kept block that holds it, whatever order
** the blocks came back in; blocks of one size class are reused LIFO. */
static void test_pool_classes(void){
  col_pool *p = col_pool_new();
  CHECK(p!=0);
  if( !p ) return;
  size_t sz[5] = { 1u<<20, 64u<<10, 4u<<20, 256u<<10, 256u<<10 };
  char *b[5];
  for(int i=0; i<5; i++){ b[i] = col_pool_get(p, sz[i]); CHECK(b[i]!=0); }
  for(int i=0; i<5; i++) col_pool_put(p, b[i]);
  CHECK_EQ_INT(col_pool_kept(p), (1u<<20) + (64u<<10) + (4u<<20) + (512u<<10));
  char *x = col_pool_get(p, 200u<<10);        /* rounds to 256K: b[4], the last back */
  CHECK(x==b[4]);
  char *y = col_pool_get(p, 200u<<10);
  CHECK(y==b[3]);
  char *z = col_pool_get(p, 300u<<10);        /* 512K: none, so the 1M block */
  CHECK(z==b[0]);
  char *w = col_pool_get(p, 64u<<10);
  CHECK(w==b[1]);
  char *v = col_pool_get(p, 5u<<20);          /* 8M: none kept fits */
  CHECK(v!=0 && v!=b[2]);
  CHECK_EQ_INT(col_pool_kept(p), 4u<<20);
  if( z ) memset(z, 3, 1u<<20);               /* ASan: the whole block is out */
  col_pool_put(p, x); col_pool_put(p, y); col_pool_put(p, z);
  col_pool_put(p, w); col_pool_put(p, v);
  col_pool_free(p);
}

/* Blocks carved out of slabs (Linux): many of each class, from two pools,
** written whole, never overlap; they move between pools and are freed from
** either, in any order (ASan: a write past a block lands in a poisoned
** redzone; a slab unmapped too early would fault). */
static void test_pool_slabs(void){
  col_pool *p = col_pool_new(), *q = col_pool_new();
  CHECK(p && q);
  if( !p || !q ){ col_pool_free(p); col_pool_free(q); return; }
  enum { N = 48 };
  size_t sz[4] = { 64u<<10, 256u<<10, 1u<<20, 20u<<20 };
  char *b[N];
  size_t n[N];
  for(int i=0; i<N; i++){
    n[i] = sz[i % 4] - (size_t)(i % 3) * 100;
    b[i] = col_pool_get(i & 1 ? q : p, n[i]);
    CHECK(b[i]!=0);
    if( b[i] ) memset(b[i], i + 1, n[i]);
  }
  size_t bad = 0;
  for(int i=0; i<N; i++){
    if( b[i]==0 ) continue;
    bad += b[i][0]!=(char)(i + 1) || b[i][n[i]-1]!=(char)(i + 1) || b[i][n[i]/2]!=(char)(i + 1);
  }
  CHECK_EQ_INT(bad, 0);
  /* back to the other pool, every third one freed outright (no pool) */
  for(int i=0; i<N; i++) col_pool_put(i % 3==0 ? 0 : (i & 1 ? p : q), b[i]);
  col_pool_move(p, q);
  col_pool_free(q);
  /* reused: the kept blocks are handed out again, whole */
  for(int i=0; i<N; i++){
    b[i] = col_pool_get(p, n[i]);
    CHECK(b[i]!=0);
    if( b[i] ) memset(b[i], 0x5a, n[i]);
  }
  for(int i=N-1; i>=0; i--) col_pool_put(i % 2 ? p : 0, b[i]);
  col_pool_free(p);
}

/* An arena over a pool takes whole pool blocks and gives them back when
** freed; reset keeps them for itself. */
static void test_arena_pool(void){
  col_pool *p = col_pool_new();
  CHECK(p!=0);
  if( !p ) return;
  col_arena a;
  col_arena_init_pool(&a, p);
  char *s = col_arena_alloc(&a, 100);
  CHECK(s!=0);
  /* the first block is the whole pool block its request rounds up to
  ** (past 64 KiB); the rest of it, to the last byte, is usable (ASan) */
  CHECK(a.cap_total > 65536);
  size_t rest = a.cap_total - 104;
  char *r = col_arena_alloc(&a, rest);
  CHECK(r==s + 104);
  if( r ) memset(r, 4, rest);
  CHECK_EQ_INT(a.cap_total, rest + 104);      /* no second block */
  size_t big = 3u<<20;
  char *t = col_arena_alloc(&a, big);
  CHECK(t!=0);
  if( t ) memset(t, 5, big);                   /* ASan: all of it usable */
  size_t held = a.cap_total;
  col_arena_reset(&a);
  CHECK_EQ_INT(col_pool_kept(p), 0);           /* reset keeps the blocks */
  CHECK(col_arena_alloc(&a, big)!=0);
  CHECK_EQ_INT(a.cap_total, held);             /* ... and reuses them */
  col_arena_free(&a);
  CHECK(col_pool_kept(p) >= held);             /* free gives them to p */
  CHECK(a.pool==p);
  char *u = col_pool_get(p, big);              /* handed on whole */
  CHECK(u!=0);
  if( u ) memset(u, 6, big);
  col_pool_put(p, u);
  col_pool_free(p);
}

typedef struct pool_arg { col_pool *p; int id; int bad; } pool_arg;

static void *pool_worker(void *v){
  pool_arg *a = v;
  for(int i=0; i<2000; i++){
    size_t n = (size_t)(65536 + (i*7919 + a->id*104729) % 400000);
    unsigned char *b = col_pool_get(a->p, n);
    if( !b ){ a->bad++; continue; }
    memset(b, a->id, n);
    for(size_t j=0; j<n; j+=4096) if( b[j]!=(unsigned char)a->id ) a->bad++;
    if( b[n-1]!=(unsigned char)a->id ) a->bad++;
    col_pool_put(a->p, b);
  }
  return 0;
}

/* Four threads take and give back blocks of one pool: no block is held by
** two at once (each fills its block with its own byte and reads it back). */
static void test_pool_threads(void){
  col_pool *p = col_pool_new();
  CHECK(p!=0);
  if( !p ) return;
  pthread_t t[4];
  pool_arg a[4];
  for(int i=0; i<4; i++){
    a[i].p = p; a[i].id = i + 1; a[i].bad = 0;
    CHECK(pthread_create(&t[i], 0, pool_worker, &a[i])==0);
  }
  int bad = 0;
  for(int i=0; i<4; i++){ pthread_join(t[i], 0); bad += a[i].bad; }
  CHECK_EQ_INT(bad, 0);
  col_pool_free(p);
}

static void test_batch_warm(void){
  enum { N = 300 };
  int64_t *iv = malloc(N*8);
  double *fv = malloc(N*8);
  uint8_t *tags = malloc(N);
  uint32_t *codes = malloc(N*4);
  cv_str *sv = malloc(N*sizeof(cv_str));
  char *bytes[N];
  for(int i=0; i<N; i++){
    iv[i] = i; fv[i] = i*0.5; tags[i] = i%5 ? CV_TEXT : CV_NULL; codes[i] = (uint32_t)i%3;
    uint32_t len = (uint32_t)(i*7 % 203);   /* 0 .. 202: within one line, across several */
    bytes[i] = len ? malloc(len) : 0;
    if( len ) memset(bytes[i], 'a' + i%26, len);
    sv[i].p = i%11==0 ? 0 : bytes[i];
    sv[i].n = sv[i].p ? len : 0;
  }
  col_vector dict; memset(&dict, 0, sizeof(dict));
  dict.type = CV_INT; dict.form = CV_FLAT; dict.n = 3; dict.i64 = iv;
  col_vector cols[5];
  memset(cols, 0, sizeof(cols));
  cols[0].type = CV_INT; cols[0].form = CV_FLAT; cols[0].n = N; cols[0].i64 = iv;
  cols[1].type = CV_REAL; cols[1].form = CV_FLAT; cols[1].n = N; cols[1].f64 = fv;
  cols[2].type = CV_TEXT; cols[2].form = CV_FLAT; cols[2].n = N; cols[2].str = sv; cols[2].tags = tags;
  cols[3].type = CV_INT; cols[3].form = CV_DICT; cols[3].n = N; cols[3].codes = codes; cols[3].dict = &dict;
  cols[4].type = CV_INT; cols[4].form = CV_CONST; cols[4].n = N; cols[4].i64 = iv;
  col_batch b; memset(&b, 0, sizeof(b));
  b.n = N; b.nsel = N; b.ncols = 5; b.cols = cols;
  col_batch_warm(&b);
  b.n = 1;   /* a batch of one row */
  col_batch_warm(&b);
  CHECK(1);
  for(int i=0; i<N; i++) free(bytes[i]);
  free(iv); free(fv); free(tags); free(codes); free(sv);
}

int main(void){
  RUN(test_batch_warm);
  RUN(test_bigmem_grow);
  RUN(test_copy_bytes);
  RUN(test_bigmem_zero);
  RUN(test_bigmem_grow_zeroed);
  RUN(test_pool_reuse);
  RUN(test_pool_threads);
  RUN(test_pool_keep_move);
  RUN(test_pool_parent);
  RUN(test_pool_classes);
  RUN(test_pool_slabs);
  RUN(test_arena_pool);
  return unit_report("test_mem");
}
