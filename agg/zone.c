/*
** zone.c — blocks carved from chunks, freed together; see zone.h.
*/
#include "zone.h"
#include "bigmem.h"
#include "slab_pool.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Chunks a zone maps itself (no pool): untouched chunk space costs no
** memory, only the 2 MiB units blocks are written in are faulted in. */
#define AGG_ZONE_CHUNK ((size_t)32 << 20)
/* Each block's bytes start on a cache line of their own. */
#define AGG_ZONE_LINE 64

struct agg_zone {
  pthread_mutex_t mu;
  struct agg_slab_pool *pool; /* chunks come from it and go back; or NULL */
  char *chunks;           /* every chunk (agg_mem blocks), the newest first,
                          ** each linked to the one before by its first
                          ** bytes */
  char *chunk;            /* the one blocks are carved from, or NULL before
                          ** the first */
  size_t used, cap;       /* bytes of it carved, and its size */
  int reused;             /* it held another query's bytes: carved ones are
                          ** cleared */
  agg_zone *absorbed;     /* zones freed along with this one */
};

agg_zone *agg_zone_new(struct agg_slab_pool *pool){
  agg_zone *z = calloc(1, sizeof(*z));
  if( z==0 ) return 0;
  if( pthread_mutex_init(&z->mu, 0) ){ free(z); return 0; }
  z->pool = pool;
  return z;
}

void agg_zone_free(agg_zone *z){
  while( z ){
    agg_zone *next = z->absorbed;
    for(char *c = z->chunks; c; ){
      char *prev;
      memcpy(&prev, c, sizeof(prev));
      agg_slab_give(z->pool, c);      /* with no pool: freed */
      c = prev;
    }
    pthread_mutex_destroy(&z->mu);
    free(z);
    z = next;
  }
}

agg_zone *agg_zone_absorb(agg_zone *z, agg_zone *src){
  if( z==0 ) return src;
  if( src==0 ) return z;
  agg_zone *last = src;
  while( last->absorbed ) last = last->absorbed;
  last->absorbed = z->absorbed;
  z->absorbed = src;
  return z;
}

/* Where in chunk c the next block's header goes, the first `used` bytes
** taken: so that the header ends where a cache line starts. */
static size_t agg_zone_place(const char *c, size_t used){
  uintptr_t end = (uintptr_t)c + used + AGG_MEM_HEADER;
  end = (end + AGG_ZONE_LINE - 1) / AGG_ZONE_LINE * AGG_ZONE_LINE;
  return (size_t)(end - (uintptr_t)c) - AGG_MEM_HEADER;
}

/* A chunk of at least `need` bytes (its link included); *reused set when
** it held bytes before. NULL when out of memory. */
static char *agg_zone_chunk(agg_zone *z, size_t need, int *reused){
  *reused = 0;
  if( z->pool && need <= agg_slab_bytes(z->pool) ) return agg_slab_take(z->pool, reused);
  /* agg_mem_realloc, not _zalloc: fresh pages are zero, and faulting in
  ** all of a chunk up front is what a zone is to avoid */
  return agg_mem_realloc(0, need > AGG_ZONE_CHUNK ? need : AGG_ZONE_CHUNK);
}

/* n zero bytes carved from z, as a block; NULL when out of memory. */
static void *agg_zone_carve(agg_zone *z, size_t n){
  size_t len = (n + AGG_MEM_HEADER + AGG_ZONE_LINE - 1) / AGG_ZONE_LINE * AGG_ZONE_LINE;
  pthread_mutex_lock(&z->mu);
  char *c = z->chunk;
  size_t at = c ? agg_zone_place(c, z->used) : 0;
  int reused = z->reused;
  if( c==0 || at + len > z->cap ){
    c = agg_zone_chunk(z, 2*AGG_ZONE_LINE + len, &reused);
    if( c==0 ){ pthread_mutex_unlock(&z->mu); return 0; }
    memcpy(c, &z->chunks, sizeof(z->chunks));
    z->chunks = c;
    at = agg_zone_place(c, sizeof(char*));
    /* carve on from whichever chunk has more room left */
    size_t cap = agg_mem_size(c);
    if( !(z->chunk && z->cap - z->used > cap - (at + len)) ){
      z->chunk = c; z->cap = cap; z->used = at + len; z->reused = reused;
    }
  }else{
    z->used = at + len;
  }
  pthread_mutex_unlock(&z->mu);
  char *b = agg_mem_carved(c + at, len);
  /* all of it, past n too: a block grown in place within its length, or
  ** copied out whole, shows those bytes as zero (agg_mem_grow_zeroed) */
  if( reused ) memset(b, 0, len - AGG_MEM_HEADER);
  return b;
}

void *agg_zone_zalloc(agg_zone *z, size_t n){
  if( z==0 || n > AGG_ZONE_CARVE_MAX || n==0 ) return agg_mem_zalloc(n);
  void *b = agg_zone_carve(z, n);
  agg_mem_prefault(b, 0, n);
  return b;
}

void *agg_zone_realloc(agg_zone *z, void *p, size_t n){
  if( z==0 || n > AGG_ZONE_CARVE_MAX || n==0 ) return agg_mem_realloc(p, n);
  size_t have = agg_mem_size(p);
  if( p && n <= have ) return agg_mem_realloc(p, n);
  char *q = agg_zone_carve(z, n);
  if( q==0 ) return 0;
  if( p ){ memcpy(q, p, have); agg_mem_free(p); }
  return q;
}

void *agg_zone_grow_zeroed(agg_zone *z, void *p, size_t old, size_t n){
  if( z==0 || n > AGG_ZONE_CARVE_MAX || n==0 || (p && n <= agg_mem_size(p)) ){
    return agg_mem_grow_zeroed(p, old, n);
  }
  char *q = agg_zone_carve(z, n);
  if( q==0 ) return 0;
  if( p ){ memcpy(q, p, old); agg_mem_free(p); }
  return q;
}
