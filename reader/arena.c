/*
** arena.c — bump allocator; see arena.h.
*/
#include "arena.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct col_arena_block {
  col_arena_block *next;  /* older block */
  size_t cap;             /* usable bytes in data[] */
  size_t used;            /* bytes handed out */
  _Alignas(8) unsigned char data[];
};

#define ARENA_MIN_BLOCK (64*1024)

void col_arena_init(col_arena *a){ memset(a, 0, sizeof(*a)); }

void col_arena_init_pool(col_arena *a, col_pool *pool){
  memset(a, 0, sizeof(*a));
  a->pool = pool;
}

void *col_arena_alloc(col_arena *a, size_t n){
  col_arena_block *b = a->head;
  n = (n + 7) & ~(size_t)7;
  if( n==0 ) n = 8;
  if( b==0 || b->cap - b->used < n ){
    col_arena_block **pp = &a->spare;
    /* Reuse the first spare block that is large enough. */
    while( *pp && (*pp)->cap < n ) pp = &(*pp)->next;
    if( *pp ){
      b = *pp;
      *pp = b->next;
    }else{
      size_t cap = n > ARENA_MIN_BLOCK ? n : ARENA_MIN_BLOCK;
      if( a->head && a->head->cap*2 > cap && a->head->cap < 16*1024*1024 && cap < a->head->cap*2 ){
        cap = a->head->cap*2;
      }
      if( cap > SIZE_MAX/2 ) return 0;
      /* the whole of the block the pool rounds the request up to */
      size_t total = col_pool_block_size(sizeof(*b) + cap);
      b = col_pool_get(a->pool, total);
      if( b==0 ) return 0;
      cap = total - sizeof(*b);
      b->cap = cap;
      a->cap_total += cap;
    }
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  a->used_total += n;
  return p;
}

char *col_arena_dup(col_arena *a, const void *p, size_t n){
  char *q = col_arena_alloc(a, n);
  if( q && n ) memcpy(q, p, n);
  return q;
}

void col_arena_reset(col_arena *a){
  while( a->head ){
    col_arena_block *b = a->head;
    a->head = b->next;
    b->next = a->spare;
    a->spare = b;
  }
  a->used_total = 0;
}

static void arena_free_list(col_pool *pool, col_arena_block *b){
  while( b ){ col_arena_block *n = b->next; col_pool_put(pool, b); b = n; }
}

void col_arena_free(col_arena *a){
  col_pool *pool = a->pool;
  arena_free_list(pool, a->head);
  arena_free_list(pool, a->spare);
  memset(a, 0, sizeof(*a));
  a->pool = pool;
}
