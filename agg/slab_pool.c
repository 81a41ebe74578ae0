/*
** slab_pool.c — radix slabs kept for a connection's next group by; see
** slab_pool.h.
*/
#if defined(__linux__) && !defined(_GNU_SOURCE)
# define _GNU_SOURCE
#endif
#include "slab_pool.h"
#include "bigmem.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
# include <sys/mman.h>
#endif

struct agg_slab_pool {
  pthread_mutex_t mu;
  size_t slab_bytes;      /* what a new slab is asked for */
  size_t block_size;      /* agg_mem_size of a slab it made; 0 before one */
  void *head;             /* kept slabs, each's first bytes the next's address */
  size_t held;            /* bytes kept, by agg_mem_size */
};

agg_slab_pool *agg_slab_pool_new(size_t slab_bytes){
  agg_slab_pool *p = calloc(1, sizeof(*p));
  if( p==0 ) return 0;
  if( pthread_mutex_init(&p->mu, 0) ){ free(p); return 0; }
  p->slab_bytes = slab_bytes;
  return p;
}

void agg_slab_pool_free(agg_slab_pool *p){
  if( p==0 ) return;
  agg_mem_free_chain(p->head);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

size_t agg_slab_bytes(const agg_slab_pool *p){ return p->slab_bytes; }

size_t agg_slab_pool_held(agg_slab_pool *p){
  pthread_mutex_lock(&p->mu);
  size_t n = p->held;
  pthread_mutex_unlock(&p->mu);
  return n;
}

void *agg_slab_take(agg_slab_pool *p, int *reused){
  pthread_mutex_lock(&p->mu);
  void *s = p->head;
  if( s ){
    memcpy(&p->head, s, sizeof(p->head));
    p->held -= p->block_size;
  }
  pthread_mutex_unlock(&p->mu);
  if( reused ) *reused = s!=0;
  if( s ) return s;
  s = agg_mem_realloc(0, p->slab_bytes);
  if( s ){
    pthread_mutex_lock(&p->mu);
    if( p->block_size==0 ) p->block_size = agg_mem_size(s);
    pthread_mutex_unlock(&p->mu);
  }
  return s;
}

/* Let the kernel take back the whole units of slab s (n bytes) past the
** one holding its link and its block's header. Whole 2 MiB units, not
** pages: advice on part of one split its huge page into 4 KiB ones, and
** the query writing into the slab next paid for it (GROUP BY UserID at
** threads=2, min of 6 in-process: 340-346 -> 300-303 ms); the slab's first
** unit stays pinned. */
static void slab_lazy_free(void *s, size_t n){
#if defined(MADV_FREE)
  size_t pg = AGG_MEM_ALIGN;
  char *a = (char*)(((uintptr_t)s + sizeof(void*) + pg - 1) / pg * pg);
  char *e = (char*)(((uintptr_t)s + n) / pg * pg);
  if( e > a ) (void)madvise(a, (size_t)(e - a), MADV_FREE);
#else
  (void)s; (void)n;
#endif
}

void agg_slab_give(agg_slab_pool *p, void *s){
  if( s==0 ) return;
  if( p==0 ){ agg_mem_free(s); return; }
  size_t n = agg_mem_size(s);
  pthread_mutex_lock(&p->mu);
  int keep = n==p->block_size && p->held + n <= AGG_SLAB_POOL_MAX;
  if( keep ){
    /* before the slab is on the list: a lane of the same query may take
    ** it at once and write rows into it, which the kernel could drop if
    ** MADV_FREE came after those writes */
    slab_lazy_free(s, n);
    memcpy(s, &p->head, sizeof(p->head));
    p->head = s;
    p->held += n;
  }
  pthread_mutex_unlock(&p->mu);
  if( !keep ) agg_mem_free(s);
}
