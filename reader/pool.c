/*
** pool.c — a scan's reusable large blocks; see pool.h.
**
** Blocks of POOL_MIN bytes and up are sized to a power of two (so a block
** freed by one row group fits the next one's slightly different sizes) and,
** when put back, kept on the free list of their size class, linked through
** their headers. A request takes the smallest class that holds it, so a
** wide scan's hundreds of blocks cost no search. The count of kept blocks is
** bounded; a block past it is freed.
*/
#include "pool.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer a kept block is poisoned until handed out again,
** so a read of a buffer after its row group was freed is still caught. */
#if defined(__SANITIZE_ADDRESS__)
# include <sanitizer/asan_interface.h>
# define POOL_POISON(h) ASAN_POISON_MEMORY_REGION((h) + 1, (h)->cap)
# define POOL_UNPOISON(h) ASAN_UNPOISON_MEMORY_REGION((h) + 1, (h)->cap)
#else
# define POOL_POISON(h) ((void)(h))
# define POOL_UNPOISON(h) ((void)(h))
#endif

#define POOL_MIN_LOG 16
#define POOL_MIN ((size_t)1<<POOL_MIN_LOG)  /* smaller blocks are plain malloc */
/* Free blocks kept. A scan of 105 columns frees some 500 blocks per row
** group: at 64, most went back to malloc and the next row group faulted
** them in again (720K page faults for one SELECT * on 10M rows). */
#define POOL_KEEP 4096
#define POOL_CLASSES (64 - POOL_MIN_LOG)

/* 16 bytes: the block after it keeps malloc's alignment. */
typedef struct pool_hdr {
  size_t cap;
  struct pool_hdr *next;  /* on a free list: the next block of its class */
} pool_hdr;

struct col_pool {
  pthread_mutex_t mu;
  int nfree;              /* blocks on the lists */
  pool_hdr *free[POOL_CLASSES]; /* class c: blocks of 2^(c+POOL_MIN_LOG)
                          ** bytes and up, below twice that */
  size_t kept;            /* bytes of the blocks on the lists */
  size_t keep_max;        /* most bytes kept, 0: no cap */
  col_pool *parent;       /* asked for a block when this one has none */
};

col_pool *col_pool_new(void){
  col_pool *p = calloc(1, sizeof(*p));
  if( p && pthread_mutex_init(&p->mu, 0) ){ free(p); return 0; }
  return p;
}

void col_pool_set_keep(col_pool *p, size_t bytes){
  if( p ) p->keep_max = bytes;
}

void col_pool_set_parent(col_pool *p, col_pool *parent){
  if( p ) p->parent = parent;
}

size_t col_pool_kept(col_pool *p){
  pthread_mutex_lock(&p->mu);
  size_t n = p->kept;
  pthread_mutex_unlock(&p->mu);
  return n;
}

void col_pool_move(col_pool *dst, col_pool *src){
  if( src==0 || dst==0 ) return;
  for(;;){
    /* one block at a time, one lock at a time: two pools moving into each
    ** other cannot deadlock */
    pthread_mutex_lock(&src->mu);
    pool_hdr *h = 0;
    for(int c=0; c<POOL_CLASSES && h==0; c++){
      if( (h = src->free[c])!=0 ){
        src->free[c] = h->next;
        src->nfree--;
        src->kept -= h->cap;
      }
    }
    pthread_mutex_unlock(&src->mu);
    if( h==0 ) return;
    POOL_UNPOISON(h);
    col_pool_put(dst, h + 1);
  }
}

void col_pool_free(col_pool *p){
  if( p==0 ) return;
  for(int c=0; c<POOL_CLASSES; c++){
    for(pool_hdr *h = p->free[c], *n; h; h = n){ n = h->next; POOL_UNPOISON(h); free(h); }
  }
  pthread_mutex_destroy(&p->mu);
  free(p);
}

static size_t pool_round(size_t n){
  if( n < POOL_MIN ) return n;
  size_t c = POOL_MIN;
  while( c < n && c <= SIZE_MAX/2 ) c *= 2;
  return c < n ? n : c;
}

size_t col_pool_block_size(size_t n){
  return pool_round(n ? n : 1);
}

/* The size class of a block of cap >= POOL_MIN bytes: floor(log2(cap)). */
static int pool_class(size_t cap){
  int c = 63 - __builtin_clzll((unsigned long long)cap) - POOL_MIN_LOG;
  return c < POOL_CLASSES ? c : POOL_CLASSES - 1;
}

/* A free block of p that holds cap bytes (a power of two, or an odd size
** past the largest), from the smallest class that has one, taken off its
** list; NULL when none does. */
static pool_hdr *pool_take(col_pool *p, size_t cap){
  pool_hdr *h = 0;
  pthread_mutex_lock(&p->mu);
  for(int c = pool_class(cap); c<POOL_CLASSES && h==0; c++){
    /* every block of a class above cap's holds it; in cap's own class an
    ** odd-sized request may need a look down the list */
    for(pool_hdr **pp = &p->free[c]; *pp; pp = &(*pp)->next){
      if( (*pp)->cap >= cap ){
        h = *pp;
        *pp = h->next;
        p->nfree--;
        p->kept -= h->cap;
        break;
      }
    }
  }
  pthread_mutex_unlock(&p->mu);
  return h;
}

void *col_pool_get(col_pool *p, size_t n){
  if( n > SIZE_MAX - sizeof(pool_hdr) - 1 ) return 0;
  size_t cap = pool_round(n ? n : 1);
  if( p && cap >= POOL_MIN ){
    pool_hdr *h = pool_take(p, cap);
    if( h==0 && p->parent ) h = pool_take(p->parent, cap);
    if( h ){ POOL_UNPOISON(h); return h + 1; }
  }
  pool_hdr *h = malloc(sizeof(pool_hdr) + cap);
  if( h==0 ) return 0;
  h->cap = cap;
  return h + 1;
}

void col_pool_put(col_pool *p, void *b){
  if( b==0 ) return;
  pool_hdr *h = (pool_hdr*)b - 1;
  if( p && h->cap >= POOL_MIN ){
    pthread_mutex_lock(&p->mu);
    if( p->nfree < POOL_KEEP && (p->keep_max==0 || p->kept + h->cap <= p->keep_max) ){
      int c = pool_class(h->cap);
      h->next = p->free[c];
      p->free[c] = h;
      POOL_POISON(h);
      p->nfree++;
      p->kept += h->cap;
      h = 0;
    }
    pthread_mutex_unlock(&p->mu);
  }
  free(h);
}

void *col_pool_grow(col_pool *p, void *b, size_t n){
  if( b==0 ) return col_pool_get(p, n);
  pool_hdr *h = (pool_hdr*)b - 1;
  if( n <= h->cap ) return b;
  void *nb = col_pool_get(p, n);
  if( nb==0 ) return 0;
  memcpy(nb, b, h->cap);
  col_pool_put(p, b);
  return nb;
}
