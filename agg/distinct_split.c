/*
** distinct_split.c — part of a count(DISTINCT) set on a helper thread; see
** distinct_split.h.
**
** A few buffers circulate between the aggregating thread, which appends
** batch after batch to one and queues it once full, and the helper, which
** inserts a queued one's pairs and frees it. Four let the filler run
** ahead of a helper that is briefly descheduled (two cores, three
** threads) without waiting.
*/
#include "distinct_split.h"
#include "bigmem.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define DSPLIT_NBUF 4
/* Pairs a buffer gathers before it is queued: batches of a pipeline are a
** few thousand rows, and waking the helper for each cost more than it
** saved (futex calls, and the helper scheduled away from the filler). */
#define DSPLIT_FILL 65536

enum { DSPLIT_FREE, DSPLIT_FILLING, DSPLIT_QUEUED, DSPLIT_BUSY };

struct agg_dsplit {
  pthread_t tid;
  pthread_mutex_t mu;     /* guards state, seq, stop, failed */
  pthread_cond_t work;    /* a buffer was queued, or stop */
  pthread_cond_t freed;   /* a buffer went back to FREE, or failed */
  agg_dsplit_buf buf[DSPLIT_NBUF];
  int state[DSPLIT_NBUF];
  uint64_t seq[DSPLIT_NBUF];  /* order queued: the helper takes the oldest */
  uint64_t next_seq;
  int stop;               /* agg_dsplit_free: drop the queue and end */
  int failed;             /* the helper ran out of memory: set unusable */
  int cur;                /* the buffer being filled, or -1 */
  /* the helper's own, read by others only while it is idle */
  agg_iset set;
  int64_t *cnt;           /* new pairs per group */
  uint32_t ncnt;          /* groups cnt covers (zeroed past the used ones) */
  uint32_t *fresh;        /* scratch: positions of new pairs in a buffer */
  uint32_t fresh_cap;
  _Atomic uint64_t mem;   /* bytes the helper's own hold */
  _Atomic uint64_t bufmem;/* bytes the buffers hold (the filler grows them) */
};

static void dsplit_account(agg_dsplit *d){
  uint64_t m = agg_iset_footprint(&d->set) + (uint64_t)d->ncnt*8 + (uint64_t)d->fresh_cap*4;
  atomic_store_explicit(&d->mem, m, memory_order_relaxed);
}

/* Insert b's pairs and count the new ones. 0, or -1 when out of memory. */
static int dsplit_insert(agg_dsplit *d, const agg_dsplit_buf *b){
  uint32_t n = b->n, gmax = 0;
  for(uint32_t k=0; k<n; k++) if( b->g1[k] > gmax ) gmax = b->g1[k];
  if( gmax > d->ncnt ){
    uint32_t c = d->ncnt ? d->ncnt : 64;
    while( c < gmax ) c = c > UINT32_MAX/2 ? UINT32_MAX : c*2;
    int64_t *x = agg_mem_grow_zeroed(d->cnt, (size_t)d->ncnt*8, (size_t)c*8);
    if( x==0 ) return -1;
    d->cnt = x; d->ncnt = c;
  }
  if( n > d->fresh_cap ){
    uint32_t *f = realloc(d->fresh, (size_t)n*4);
    if( f==0 ) return -1;
    d->fresh = f; d->fresh_cap = n;
  }
  if( agg_iset_grow(&d->set, (uint64_t)d->set.n + n) ) return -1;
  uint32_t m = agg_iset_insert(&d->set, b->h, b->g1, b->v, n, d->fresh);
  int64_t *cnt = d->cnt;
  for(uint32_t j=0; j<m; j++) cnt[b->g1[d->fresh[j]] - 1]++;
  return 0;
}

static void *dsplit_main(void *arg){
  agg_dsplit *d = arg;
  pthread_mutex_lock(&d->mu);
  for(;;){
    int pick = -1;
    for(int i=0; i<DSPLIT_NBUF; i++){
      if( d->state[i]==DSPLIT_QUEUED && (pick<0 || d->seq[i] < d->seq[pick]) ) pick = i;
    }
    if( d->stop ) break;
    if( pick<0 ){ pthread_cond_wait(&d->work, &d->mu); continue; }
    d->state[pick] = DSPLIT_BUSY;
    int failed = d->failed;
    pthread_mutex_unlock(&d->mu);
    int rc = failed ? 0 : dsplit_insert(d, &d->buf[pick]);
    dsplit_account(d);
    pthread_mutex_lock(&d->mu);
    if( rc ) d->failed = 1;
    d->state[pick] = DSPLIT_FREE;
    pthread_cond_broadcast(&d->freed);
  }
  pthread_mutex_unlock(&d->mu);
  return 0;
}

agg_dsplit *agg_dsplit_new(col_error *err){
  agg_dsplit *d = calloc(1, sizeof(*d));
  if( d==0 ){ col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)"); return 0; }
  d->cur = -1;
  atomic_init(&d->mem, 0);
  atomic_init(&d->bufmem, 0);
  pthread_mutex_init(&d->mu, 0);
  pthread_cond_init(&d->work, 0);
  pthread_cond_init(&d->freed, 0);
  if( pthread_create(&d->tid, 0, dsplit_main, d) ){
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->work);
    pthread_cond_destroy(&d->freed);
    free(d);
    col_error_set(err, COL_ERROR, "group_by: cannot start a DISTINCT thread");
    return 0;
  }
  return d;
}

static int dsplit_failed(col_error *err){
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
}

/* Queue buffer i (the filler's) when it holds pairs, else free it. */
static void dsplit_post(agg_dsplit *d, int i){
  pthread_mutex_lock(&d->mu);
  if( d->buf[i].n ){
    d->state[i] = DSPLIT_QUEUED;
    d->seq[i] = d->next_seq++;
    pthread_cond_signal(&d->work);
  }else{
    d->state[i] = DSPLIT_FREE;
    pthread_cond_broadcast(&d->freed);
  }
  pthread_mutex_unlock(&d->mu);
}

agg_dsplit_buf *agg_dsplit_room(agg_dsplit *d, uint32_t n, col_error *err){
  if( d->cur>=0 ){
    agg_dsplit_buf *b = &d->buf[d->cur];
    if( n <= b->cap - b->n ) return b;
    dsplit_post(d, d->cur);
    d->cur = -1;
  }
  pthread_mutex_lock(&d->mu);
  int pick = -1;
  for(;;){
    for(int i=0; i<DSPLIT_NBUF && pick<0; i++) if( d->state[i]==DSPLIT_FREE ) pick = i;
    if( pick>=0 || d->failed ) break;
    pthread_cond_wait(&d->freed, &d->mu);
  }
  if( d->failed ){
    pthread_mutex_unlock(&d->mu);
    dsplit_failed(err);
    return 0;
  }
  d->state[pick] = DSPLIT_FILLING;
  pthread_mutex_unlock(&d->mu);
  agg_dsplit_buf *b = &d->buf[pick];
  b->n = 0;
  uint32_t want = n > DSPLIT_FILL ? n : DSPLIT_FILL;
  if( want > b->cap ){
    /* the filler owns the buffer until it is queued; it is empty. One
    ** block holds the three arrays, the 8-byte ones first (aligned): a
    ** bigmem block, in huge pages (1.3 MiB each; malloc'd, a process's
    ** first count(DISTINCT) faulted the four in 4 KiB at a time) */
    char *m = agg_mem_realloc(0, (size_t)want*(8+8+4));
    if( m==0 ){
      dsplit_post(d, pick);
      dsplit_failed(err);
      return 0;
    }
    agg_mem_free(b->mem);
    b->mem = m;
    b->v = (int64_t*)m;
    b->h = (uint64_t*)(m + (size_t)want*8);
    b->g1 = (uint32_t*)(m + (size_t)want*16);
    atomic_fetch_add_explicit(&d->bufmem, (uint64_t)(want - b->cap)*(4+8+8), memory_order_relaxed);
    b->cap = want;
  }
  d->cur = pick;
  return b;
}

int agg_dsplit_wait(agg_dsplit *d, col_error *err){
  if( d->cur>=0 ){
    dsplit_post(d, d->cur);
    d->cur = -1;
  }
  pthread_mutex_lock(&d->mu);
  for(;;){
    int pending = 0;
    for(int i=0; i<DSPLIT_NBUF; i++) pending |= d->state[i]==DSPLIT_QUEUED || d->state[i]==DSPLIT_BUSY;
    if( !pending ) break;
    pthread_cond_wait(&d->freed, &d->mu);
  }
  int failed = d->failed;
  pthread_mutex_unlock(&d->mu);
  return failed ? dsplit_failed(err) : COL_OK;
}

void agg_dsplit_take_counts(agg_dsplit *d, int64_t *dst, uint32_t ndst){
  uint32_t n = d->ncnt < ndst || dst==0 ? d->ncnt : ndst;
  if( dst ) for(uint32_t g=0; g<n; g++) dst[g] += d->cnt[g];
  if( n ) memset(d->cnt, 0, (size_t)n*8);
}

const agg_iset *agg_dsplit_set(const agg_dsplit *d){ return &d->set; }

int agg_dsplit_reserve(agg_dsplit *d, uint64_t pairs, col_error *err){
  /* no buffer queued yet: the helper has not touched its set */
  if( agg_iset_grow(&d->set, pairs) ) return dsplit_failed(err);
  dsplit_account(d);
  return COL_OK;
}

uint64_t agg_dsplit_footprint(const agg_dsplit *d){
  agg_dsplit *w = (agg_dsplit*)d;   /* atomic loads take a non-const pointer */
  return atomic_load_explicit(&w->mem, memory_order_relaxed)
       + atomic_load_explicit(&w->bufmem, memory_order_relaxed);
}

void agg_dsplit_free(agg_dsplit *d){
  if( d==0 ) return;
  pthread_mutex_lock(&d->mu);
  d->stop = 1;
  pthread_cond_broadcast(&d->work);
  pthread_mutex_unlock(&d->mu);
  pthread_join(d->tid, 0);
  pthread_mutex_destroy(&d->mu);
  pthread_cond_destroy(&d->work);
  pthread_cond_destroy(&d->freed);
  for(int i=0; i<DSPLIT_NBUF; i++){
    agg_mem_free(d->buf[i].mem);
  }
  agg_iset_free(&d->set);
  agg_mem_free(d->cnt);
  free(d->fresh);
  free(d);
}
