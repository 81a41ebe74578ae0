/*
** pool.c — a scan's reusable large blocks; see pool.h.
**
** Blocks of POOL_MIN bytes and up are sized to a power of two (so a block
** freed by one row group fits the next one's slightly different sizes) and,
** when put back, kept on the free list of their size class, linked through
** their headers. A request takes the smallest class that holds it, so a
** wide scan's hundreds of blocks cost no search. The count of kept blocks is
** bounded; a block past it is freed.
**
** On Linux blocks are carved out of slabs: mappings of whole 2 MiB units
** at a 2 MiB boundary, advised into huge pages, each holding a few blocks
** of one class and unmapped when its last block is freed. malloc gave each
** block fresh 4 KiB pages: a process's first scan faulted in every buffer
** a page at a time, at some 12 us a fault on the VM measured (0.33 GB/s
** against 0.5-11 GB/s in huge pages), which was most of what a first
** query in a process paid over the next one (GROUP BY MobilePhoneModel
** with count(DISTINCT UserID): 4400 faults against 570). A pool keeps a
** slab per class to carve from; blocks carry their slab, so they move
** between pools and are freed from any of them as before.
*/
#include "pool.h"
#include "hugemap.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
# include <sys/mman.h>
# define POOL_SLABS 1
#else
# define POOL_SLABS 0
#endif

/* Under AddressSanitizer a kept block is poisoned until handed out again,
** so a read of a buffer after its row group was freed is still caught. */
#if defined(__SANITIZE_ADDRESS__)
# include <sanitizer/asan_interface.h>
# define POOL_POISON(h) ASAN_POISON_MEMORY_REGION((h) + 1, (h)->cap)
# define POOL_UNPOISON(h) ASAN_UNPOISON_MEMORY_REGION((h) + 1, (h)->cap)
/* Bytes left poisoned after each block carved out of a slab, where malloc
** would have had its redzone: a write past a block is caught there, not
** in the next block. */
# define POOL_REDZONE 64
#else
# define POOL_POISON(h) ((void)(h))
# define POOL_UNPOISON(h) ((void)(h))
# define POOL_REDZONE 0
#endif

#define POOL_MIN_LOG 16
#define POOL_MIN ((size_t)1<<POOL_MIN_LOG)  /* smaller blocks are plain malloc */
/* Free blocks kept. A scan of 105 columns frees some 500 blocks per row
** group: at 64, most went back to malloc and the next row group faulted
** them in again (720K page faults for one SELECT * on 10M rows). */
#define POOL_KEEP 4096
#define POOL_CLASSES (64 - POOL_MIN_LOG)

typedef struct pool_slab pool_slab;

/* 32 bytes: the block after it keeps malloc's alignment. */
typedef struct pool_hdr {
  size_t cap;
  struct pool_hdr *next;  /* on a free list: the next block of its class */
  pool_slab *slab;        /* the slab it was carved from, NULL: malloc'd */
  size_t unused;
} pool_hdr;

/* A mapping carved into blocks of one size. */
struct pool_slab {
  char *base;
  size_t len;
  int refs;               /* blocks carved and not freed, +1 while a pool
                          ** carves from it */
};

/* Where a pool carves its next block of a class. */
static void pool_block_free(pool_hdr *h);
static void pool_slab_unref(pool_slab *s);

typedef struct pool_carve {
  pool_slab *slab;
  size_t off;             /* of the next block's header in the slab */
} pool_carve;

struct col_pool {
  pthread_mutex_t mu;
  int nfree;              /* blocks on the lists */
  pool_hdr *free[POOL_CLASSES]; /* class c: blocks of 2^(c+POOL_MIN_LOG)
                          ** bytes and up, below twice that */
  size_t kept;            /* bytes of the blocks on the lists */
  size_t keep_max;        /* most bytes kept, 0: no cap */
  col_pool *parent;       /* asked for a block when this one has none */
  pool_carve carve[POOL_CLASSES];
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
    for(pool_hdr *h = p->free[c], *n; h; h = n){ n = h->next; POOL_UNPOISON(h); pool_block_free(h); }
    if( p->carve[c].slab ) pool_slab_unref(p->carve[c].slab);
  }
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* ---- slabs ---------------------------------------------------------------- */

/* A slab's length and alignment: one huge page. */
#define POOL_SLAB_UNIT COL_HUGE_UNIT
/* Blocks a slab is sized for, at least: the larger the share of its last
** huge page a block leaves unused, the more zeroed bytes nobody reads. */
#define POOL_SLAB_BLOCKS 4
/* A block larger than this has a slab of its own. */
#define POOL_SLAB_MAX ((size_t)16<<20)

static void pool_slab_unref(pool_slab *s){
#if POOL_SLABS
  if( __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL)==0 ){
# if POOL_REDZONE
    /* the shadow outlives the mapping: a later one at this address must
    ** not find the redzones poisoned */
    ASAN_UNPOISON_MEMORY_REGION(s->base, s->len);
# endif
    munmap(s->base, s->len);
    free(s);
  }
#else
  (void)s;
#endif
}

static void pool_block_free(pool_hdr *h){
  if( h->slab ) pool_slab_unref(h->slab);
  else free(h);
}

#if POOL_SLABS
/* A new slab for blocks of `total` bytes, header included; NULL when the
** mapping fails (the block is then malloc'd). */
static pool_slab *pool_slab_new(size_t total){
  if( total > (SIZE_MAX - 2*POOL_SLAB_UNIT)/POOL_SLAB_BLOCKS ) return 0;
  size_t want = total <= POOL_SLAB_MAX ? total*POOL_SLAB_BLOCKS : total;
  size_t len = (want + POOL_SLAB_UNIT - 1) / POOL_SLAB_UNIT * POOL_SLAB_UNIT;
  pool_slab *s = malloc(sizeof(*s));
  if( s==0 ) return 0;
  if( (s->base = col_map_huge(len))==0 ){ free(s); return 0; }
  s->len = len;
  s->refs = 1;
  return s;
}
#endif

/* A new block of cap bytes (a power of two) carved out of p's slab for
** class c, a new slab when that one is used up; NULL when no slab can be
** had. */
static pool_hdr *pool_carve_block(col_pool *p, int c, size_t cap){
#if POOL_SLABS
  size_t total = sizeof(pool_hdr) + cap + POOL_REDZONE;
  pool_carve *k = &p->carve[c];
  pool_hdr *h = 0;
  pthread_mutex_lock(&p->mu);
  if( k->slab==0 ){
    k->slab = pool_slab_new(total);
    k->off = 0;
  }
  if( k->slab ){
    pool_slab *s = k->slab;
    h = (pool_hdr*)(s->base + k->off);
    h->cap = cap;
    h->next = 0;
    h->slab = s;
    __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
#if POOL_REDZONE
    ASAN_POISON_MEMORY_REGION((char*)(h + 1) + cap, POOL_REDZONE);
#endif
    k->off += total;
    /* used up: the slab goes when its blocks do */
    if( s->len - k->off < total ){ k->slab = 0; pool_slab_unref(s); }
  }
  pthread_mutex_unlock(&p->mu);
  return h;
#else
  (void)p; (void)c; (void)cap;
  return 0;
#endif
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
    if( (cap & (cap - 1))==0 && (h = pool_carve_block(p, pool_class(cap), cap))!=0 ) return h + 1;
  }
  pool_hdr *h = malloc(sizeof(pool_hdr) + cap);
  if( h==0 ) return 0;
  h->cap = cap;
  h->slab = 0;
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
  if( h ) pool_block_free(h);
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
