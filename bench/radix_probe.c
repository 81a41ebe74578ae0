/*
** radix_probe.c — how much a radix-partitioned group by would save over
** the streaming one group_by runs, measured on a real key column.
**
** group_by probes one hash table per partition in the order rows arrive.
** With millions of groups every probe is a cache miss into a table tens of
** megabytes large (Q16: 2.05M UserIDs, Q36: 3.28M ClientIPs), and so is
** every update of a group's state. The alternative DuckDB takes: first
** write each row's hash and key into one of P buffers by the top bits of
** its hash (sequential writes), then aggregate one buffer at a time into
** a table small enough for L2, then put the groups back in first-seen
** order. This program times both on the same keys, count(*) only, so the
** numbers bound what the rework could gain before it is built. THREADS
** aggregates partitions in parallel; the scatter and the ordering here
** stay on one thread (in group_by each lane would scatter its own rows,
** and an ORDER BY the table consumes needs no ordering).
**
** Session 17, 10M rows of the bench's hits, idle machine: ClientIP (3.28M
** groups) streaming 393-478 ms; radix 256 partitions 311-369 ms on one
** thread (scatter 125-196, aggregate 103-107, order 57-59), aggregate
** 67-74 ms on two. UserID (2.05M groups) 278 ms against 211-226 ms.
**
** Session 18 built it: agg/radix.c holds the rows, agg/groupby.c splits a
** lane's partitions and aggregates them (group_by's radix= option). Its
** drain is slower than this probe's aggregate phase (each partition's
** states, first rows and key columns are arrays of their own, faulted in
** a 4 KiB page at a time where one lane's table had huge pages).
**
** Input: a file of little-endian int64 keys (bench/radix_probe.tcl
** writes one from a Parquet column). Build and run (no project code is
** linked):
**   cc -O2 -march=native -o /tmp/radix_probe bench/radix_probe.c -lpthread
**   /tmp/radix_probe /tmp/clientip.bin [PARTITIONS] [THREADS]
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void){
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec*1e3 + t.tv_nsec/1e6;
}

/* A 64-bit finaliser: group_by's integer hash has the same job. */
static inline uint64_t key_hash(uint64_t x){
  x ^= x>>33; x *= 0xff51afd7ed558ccdULL;
  x ^= x>>33; x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x>>33;
  return x;
}

/* group_by's wide bucket: the whole hash and the group's slot + 1. */
typedef struct bucket { uint64_t hash; uint32_t slot1, pad; } bucket;

typedef struct table {
  bucket *b;
  uint32_t nb, shift, ng, cap;
  int64_t *keys;
  int64_t *cnt;
  uint32_t *first;     /* the row that made each group */
} table;

static void table_init(table *t, uint32_t nb){
  t->nb = nb; t->shift = 64 - __builtin_ctz(nb);
  t->b = calloc(nb, sizeof(bucket));
  t->ng = 0; t->cap = nb/2;
  t->keys = malloc(t->cap*8); t->cnt = malloc(t->cap*8); t->first = malloc(t->cap*4);
}
static void table_free(table *t){ free(t->b); free(t->keys); free(t->cnt); free(t->first); }

static void table_grow(table *t){
  uint32_t nb = t->nb*2, sh = t->shift - 1, m = nb - 1;
  bucket *b = calloc(nb, sizeof(bucket));
  for(uint32_t i=0; i<t->nb; i++){
    if( !t->b[i].slot1 ) continue;
    uint32_t a = (uint32_t)(t->b[i].hash>>sh);
    while( b[a].slot1 ) a = (a+1) & m;
    b[a] = t->b[i];
  }
  free(t->b);
  t->b = b; t->nb = nb; t->shift = sh; t->cap = nb/2;
  t->keys = realloc(t->keys, t->cap*8);
  t->cnt = realloc(t->cnt, t->cap*8);
  t->first = realloc(t->first, t->cap*4);
}

static inline uint32_t table_find(table *t, uint64_t h, int64_t key, uint32_t row){
  uint32_t m = t->nb - 1, a = (uint32_t)(h>>t->shift);
  for(;;){
    bucket *b = &t->b[a];
    if( !b->slot1 ){
      uint32_t s = t->ng++;
      b->hash = h; b->slot1 = s + 1;
      t->keys[s] = key; t->cnt[s] = 0; t->first[s] = row;
      if( t->ng*2 >= t->nb ) table_grow(t);
      return s;
    }
    if( b->hash==h ) return b->slot1 - 1;
    a = (a+1) & m;
  }
}

enum { BATCH = 2048 };

/* What group_by does today: rows in arrival order, buckets prefetched. */
static uint32_t run_stream(const int64_t *v, size_t n, int64_t *total){
  table t;
  uint64_t h[BATCH];
  uint32_t gid[BATCH];
  table_init(&t, 1024);
  for(size_t o=0; o<n; o+=BATCH){
    size_t m = n-o < BATCH ? n-o : BATCH;
    for(size_t i=0; i<m; i++) h[i] = key_hash((uint64_t)v[o+i]);
    for(size_t i=0; i<m; i++){
      if( i+16<m ) __builtin_prefetch(&t.b[h[i+16]>>t.shift]);
      gid[i] = table_find(&t, h[i], v[o+i], (uint32_t)(o+i));
    }
    for(size_t i=0; i<m; i++) t.cnt[gid[i]]++;
  }
  uint32_t ng = t.ng;
  for(uint32_t i=0; i<ng; i++) *total += t.cnt[i];
  table_free(&t);
  return ng;
}

/* A partition's rows in chunks that never move: hash (rotated so the
** table's home bits are not the partition's), key and row. */
enum { CHUNK_ROWS = 4096 };
typedef struct row_rec { uint64_t h; int64_t k; uint32_t r, pad; } row_rec;
typedef struct part { row_rec **chunk; uint32_t nchunk, capchunk, n; } part;

static inline void part_push(part *p, uint64_t h, int64_t k, uint32_t r){
  uint32_t at = p->n % CHUNK_ROWS;
  if( at==0 ){
    if( p->nchunk==p->capchunk ){
      p->capchunk = p->capchunk ? p->capchunk*2 : 16;
      p->chunk = realloc(p->chunk, p->capchunk*sizeof(row_rec*));
    }
    p->chunk[p->nchunk++] = malloc(CHUNK_ROWS*sizeof(row_rec));
  }
  row_rec *x = &p->chunk[p->nchunk-1][at];
  x->h = h; x->k = k; x->r = r;
  p->n++;
}

/* The groups of one radix run, every partition's, with their first rows. */
typedef struct group_ref { uint32_t first, cnt; } group_ref;

typedef struct radix_job {
  part *parts; int from, to, bits;
  group_ref *out; uint32_t nout;
} radix_job;

static void *radix_aggregate(void *arg){
  radix_job *j = arg;
  uint32_t m = 0;
  table t;
  table_init(&t, 1024);
  for(int p=j->from; p<j->to; p++){
    part *pp = &j->parts[p];
    /* one table for every partition: they are alike in size, so it stops
    ** growing after the first, and its pages are faulted in once */
    memset(t.b, 0, (size_t)t.nb*sizeof(bucket));
    t.ng = 0;
    for(uint32_t i=0; i<pp->n; i++){
      const row_rec *x = &pp->chunk[i/CHUNK_ROWS][i%CHUNK_ROWS];
      uint32_t g = table_find(&t, x->h, x->k, x->r);
      t.cnt[g]++;
    }
    for(uint32_t g=0; g<t.ng; g++){
      j->out[m].first = t.first[g]; j->out[m].cnt = (uint32_t)t.cnt[g]; m++;
    }
  }
  table_free(&t);
  j->nout = m;
  return 0;
}

/* Scatter, aggregate partitions (threads of them at once), then sort the
** groups back into first-seen order by their first rows (two 16-bit LSD
** passes). Prints each phase's time. */
static uint32_t run_radix(const int64_t *v, size_t n, int P, int threads, int64_t *total){
  int bits = __builtin_ctz((unsigned)P);
  part *parts = calloc((size_t)P, sizeof(part));
  double t0 = now_ms();
  uint64_t h[BATCH];
  for(size_t o=0; o<n; o+=BATCH){
    size_t m = n-o < BATCH ? n-o : BATCH;
    for(size_t i=0; i<m; i++) h[i] = key_hash((uint64_t)v[o+i]);
    for(size_t i=0; i<m; i++){
      uint32_t p = (uint32_t)(h[i]>>(64-bits));
      part_push(&parts[p], (h[i]<<bits) | (h[i]>>(64-bits)), v[o+i], (uint32_t)(o+i));
    }
  }
  double t1 = now_ms();
  radix_job *jobs = calloc((size_t)threads, sizeof(radix_job));
  pthread_t *tid = calloc((size_t)threads, sizeof(pthread_t));
  for(int w=0; w<threads; w++){
    uint32_t rows = 0;
    jobs[w].parts = parts; jobs[w].bits = bits;
    jobs[w].from = P*w/threads; jobs[w].to = P*(w+1)/threads;
    for(int p=jobs[w].from; p<jobs[w].to; p++) rows += parts[p].n;
    jobs[w].out = malloc(((size_t)rows + 1)*sizeof(group_ref));
    if( w ) pthread_create(&tid[w], 0, radix_aggregate, &jobs[w]);
  }
  radix_aggregate(&jobs[0]);
  for(int w=1; w<threads; w++) pthread_join(tid[w], 0);
  double t2 = now_ms();
  uint32_t ng = 0;
  for(int w=0; w<threads; w++) ng += jobs[w].nout;
  group_ref *a = malloc((size_t)ng*sizeof(group_ref)), *b = malloc((size_t)ng*sizeof(group_ref));
  uint32_t at = 0;
  for(int w=0; w<threads; w++){ memcpy(a+at, jobs[w].out, jobs[w].nout*sizeof(group_ref)); at += jobs[w].nout; }
  for(int pass=0; pass<2; pass++){
    static uint32_t cnt[65537];
    memset(cnt, 0, sizeof(cnt));
    int sh = pass*16;
    for(uint32_t i=0; i<ng; i++) cnt[((a[i].first>>sh) & 0xffff) + 1]++;
    for(int d=0; d<65536; d++) cnt[d+1] += cnt[d];
    for(uint32_t i=0; i<ng; i++) b[cnt[(a[i].first>>sh) & 0xffff]++] = a[i];
    group_ref *x = a; a = b; b = x;
  }
  double t3 = now_ms();
  for(uint32_t i=0; i<ng; i++) *total += a[i].cnt;
  fprintf(stderr, "  scatter %.1f ms, aggregate %.1f ms, first-seen order %.1f ms\n", t1-t0, t2-t1, t3-t2);
  for(int p=0; p<P; p++){
    for(uint32_t c=0; c<parts[p].nchunk; c++) free(parts[p].chunk[c]);
    free(parts[p].chunk);
  }
  for(int w=0; w<threads; w++) free(jobs[w].out);
  free(parts); free(jobs); free(tid); free(a); free(b);
  return ng;
}

int main(int argc, char **argv){
  if( argc<2 ){ fprintf(stderr, "usage: %s KEYS.bin [PARTITIONS] [THREADS]\n", argv[0]); return 1; }
  int P = argc>2 ? atoi(argv[2]) : 256, threads = argc>3 ? atoi(argv[3]) : 1;
  if( P<2 || (P & (P-1)) || threads<1 ){ fprintf(stderr, "PARTITIONS: a power of two; THREADS >= 1\n"); return 1; }
  FILE *f = fopen(argv[1], "rb");
  if( f==0 ){ perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  size_t n = (size_t)ftell(f)/8;
  fseek(f, 0, SEEK_SET);
  int64_t *v = malloc(n*8 + 8);
  if( v==0 || fread(v, 8, n, f)!=n ){ fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
  fclose(f);
  for(int round=0; round<3; round++){
    int64_t tot = 0;
    double t0 = now_ms();
    uint32_t ng = run_stream(v, n, &tot);
    double t1 = now_ms();
    printf("stream (1 thread):      %7.1f ms  %u groups  %lld rows\n", t1-t0, ng, (long long)tot);
    tot = 0;
    ng = run_radix(v, n, P, threads, &tot);
    printf("radix %4d parts, %d thr: %7.1f ms  %u groups  %lld rows\n", P, threads, now_ms()-t1, ng, (long long)tot);
  }
  free(v);
  return 0;
}
