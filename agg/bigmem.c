/*
** bigmem.c — malloc'd or mapped blocks with a size header; see bigmem.h.
*/
#if defined(__linux__) && !defined(_GNU_SOURCE)
# define _GNU_SOURCE   /* mremap */
#endif
#include "bigmem.h"
#include "../reader/hugemap.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
# include <sys/mman.h>
# include <unistd.h>
# define AGG_MEM_CAN_MAP 1
#else
# define AGG_MEM_CAN_MAP 0
#endif

/* Every mapped block asks for huge pages, whatever its size. Blocks past
** 64 MiB once used small pages: on the VM of that measurement fresh huge
** pages cost more than their TLB reach saved (GROUP BY WatchID, ClientIP
** over 10M groups, in a new process, 3.5 s against 2.5 s), though blocks
** were not aligned then (AGG_MEM_ALIGN) and so lost huge pages anyway as
** they moved. Aligned, on a VM whose fresh 4 KiB pages fault in at 0.37
** GB/s against 0.7-12 GB/s for huge ones, the cap cost 25-40% at threads=1,
** in-process: WatchID, ClientIP 2.58 -> 1.61 s, UserID, minute,
** SearchPhrase 4.3 -> 2.2 s, URL 1.30 -> 0.87 s, UserID 0.47 -> 0.35 s. */

/* 16 bytes, so the block after it keeps malloc's alignment. */
typedef struct agg_mem_hdr {
  size_t len;             /* bytes of the whole block, header included;
                          ** for a mapping, the mapped length */
  size_t mapped;          /* AGG_MEM_OWN_MAP: a mapping of its own;
                          ** AGG_MEM_CARVED: carved from a zone; 0 malloc'd */
} agg_mem_hdr;
#define AGG_MEM_OWN_MAP 1
#define AGG_MEM_CARVED 2
_Static_assert(sizeof(agg_mem_hdr)==AGG_MEM_HEADER, "AGG_MEM_HEADER");
_Static_assert(AGG_MEM_ALIGN==COL_HUGE_UNIT, "mappings come from col_map_huge");

/* Mappings start on a 2 MiB boundary and span whole 2 MiB units. A huge
** page covers only an aligned 2 MiB wholly inside a mapping, so a mapping
** placed wherever mmap put it lost one at each end, and one moved by
** mremap to an address of another alignment lost them all: the kernel
** split every huge page it held into 4 KiB ones, and the part grown after
** was faulted in 4 KiB at a time. On the VM measured a fresh 4 KiB page
** costs 0.37 GB/s against 1-12 GB/s in huge pages: GROUP BY WatchID,
** ClientIP at threads=2 (10M groups), in-process, 1.9-2.1 s -> 0.8-0.9 s
** (page faults 88K -> 17K a query). Virtual space past the bytes asked for
** is never touched, so it costs no memory. (AGG_MEM_ALIGN, bigmem.h) */

#if AGG_MEM_CAN_MAP
static size_t agg_mem_round(size_t n){
  return (n + AGG_MEM_ALIGN - 1) / AGG_MEM_ALIGN * AGG_MEM_ALIGN;
}
#endif

/* populate: fault every page in now. A zeroed block is read before it is
** written (a hash table's buckets): reading an untouched page maps the
** shared zero page, and the write after it is then a copy-on-write fault
** that flushes the TLB of every thread of the process, far dearer than
** allocating the pages up front in one call. */
static agg_mem_hdr *agg_mem_map(size_t total, int populate){
#if AGG_MEM_CAN_MAP
  size_t len = agg_mem_round(total);
  /* Tables are probed at random: with 4 KiB pages nearly every probe of a
  ** table of millions of groups also missed the TLB, and filling it took
  ** a fault per 4 KiB. In huge pages (col_map_huge advises them), GROUP BY
  ** UserID on 10M rows took 17% less CPU. */
  char *m = col_map_huge(len);
  if( m==0 ) return 0;
  agg_mem_hdr *h = (agg_mem_hdr*)m;
  h->len = len; h->mapped = AGG_MEM_OWN_MAP;
  /* after the advice, so the pages faulted in are huge ones */
  if( populate ) agg_mem_prefault(h + 1, 0, len - sizeof(*h));
  return h;
#else
  (void)total; (void)populate;
  return 0;
#endif
}

void *agg_mem_realloc(void *p, size_t n){
  if( n > SIZE_MAX - 2*sizeof(agg_mem_hdr) - 65536 ) return 0;
  size_t total = n + sizeof(agg_mem_hdr);
  agg_mem_hdr *h = p ? (agg_mem_hdr*)p - 1 : 0;
  if( h && h->mapped==AGG_MEM_CARVED ){
    if( total <= h->len ) return p;
    /* out of the zone; the carved bytes stay there until it goes */
    char *q = agg_mem_realloc(0, n);
    if( q ) memcpy(q, p, h->len - sizeof(*h));
    return q;
  }
  if( !AGG_MEM_CAN_MAP || total < AGG_MEM_MAPPED ){
    if( h && h->mapped ){
      /* shrinking below the mapped size: keep the mapping */
      return p;
    }
    agg_mem_hdr *q = realloc(h, total);
    if( q==0 ) return 0;
    q->len = total; q->mapped = 0;
    return q + 1;
  }
#if AGG_MEM_CAN_MAP
  if( h && h->mapped ){
    if( total <= h->len ) return p;
    size_t len = agg_mem_round(total), old = h->len;
    /* In place if the addresses after it are free; else its pages move (no
    ** copy) to the start of a fresh aligned mapping (see AGG_MEM_ALIGN). */
    void *m = mremap(h, old, len, 0);
    if( m==MAP_FAILED ){
      char *a = col_map_huge(len);
      if( a==0 ) return 0;
      m = mremap(h, old, old, MREMAP_MAYMOVE|MREMAP_FIXED, a);
      if( m==MAP_FAILED ){ munmap(a, len); return 0; }
    }
    h = m;
    h->len = len;
    return h + 1;
  }
  agg_mem_hdr *q = agg_mem_map(total, 0);
  if( q==0 ) return 0;
  if( h ){
    memcpy(q + 1, h + 1, h->len - sizeof(agg_mem_hdr));
    free(h);
  }
  return q + 1;
#else
  return 0;
#endif
}

/* A mapped result is zero past old whichever way it came: grown in place
** or moved by mremap (the kernel's fresh pages), or a malloc'd block
** copied into a fresh mapping; so is a carved one, whose zone clears all
** of it when its chunk held another query's bytes. Only a malloc'd result
** is cleared, and in a carved block copied out, what it held past old:
** the whole carved length is copied, and a chunk from the slab pool once
** left a past query's bytes there (GROUP BY WatchID with total() gave a
** wrong answer on the connection's third query). Clearing the fresh
** mapping a malloc'd block had grown into faulted in all of it at once,
** reserve included: GROUP BY UserID's aggregate states, reserved per radix
** partition, took 38% of that query's page faults. */
void *agg_mem_grow_zeroed(void *p, size_t old, size_t n){
  size_t had = p && ((agg_mem_hdr*)p - 1)->mapped==AGG_MEM_CARVED ? agg_mem_size(p) : 0;
  char *q = agg_mem_realloc(p, n);
  if( q==0 ) return 0;
  if( n>old && !((agg_mem_hdr*)q - 1)->mapped ){
    memset(q + old, 0, n - old);
  }else if( q!=p && had>old ){
    memset(q + old, 0, (had < n ? had : n) - old);
  }
  return q;
}

void agg_mem_prefault(void *p, size_t off, size_t n){
#if AGG_MEM_CAN_MAP
  if( p==0 || n==0 || !((agg_mem_hdr*)p - 1)->mapped ) return;   /* malloc'd bytes were memset */
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  char *a = (char*)p + off, *e = a + n;
  char *pa = (char*)((uintptr_t)a / pg * pg);
# ifdef MADV_POPULATE_WRITE
  if( madvise(pa, (size_t)(e - pa), MADV_POPULATE_WRITE)==0 ) return;
# endif
  /* older kernels: a write per page (of the zero already there) */
  for(char *q = a; q < e; q = (char*)((uintptr_t)q / pg * pg) + pg){
    *(volatile char*)q = 0;
  }
#else
  (void)p; (void)off; (void)n;
#endif
}

void *agg_mem_zalloc(size_t n){
  if( n > SIZE_MAX - 2*sizeof(agg_mem_hdr) - 65536 ) return 0;
  size_t total = n + sizeof(agg_mem_hdr);
  if( AGG_MEM_CAN_MAP && total >= AGG_MEM_MAPPED ){
    agg_mem_hdr *q = agg_mem_map(total, 1);   /* fresh mappings are zero */
    return q ? q + 1 : 0;
  }
  agg_mem_hdr *q = calloc(1, total);
  if( q==0 ) return 0;
  q->len = total; q->mapped = 0;
  return q + 1;
}

size_t agg_mem_size(const void *p){
  return p ? ((const agg_mem_hdr*)p - 1)->len - sizeof(agg_mem_hdr) : 0;
}

void agg_mem_free(void *p){
  if( p==0 ) return;
  agg_mem_hdr *h = (agg_mem_hdr*)p - 1;
#if AGG_MEM_CAN_MAP
  if( h->mapped==AGG_MEM_CARVED ) return;     /* its zone unmaps it */
  if( h->mapped ){ munmap(h, h->len); return; }
#endif
  free(h);
}

void agg_mem_free_chain(void *head){
  while( head ){
    void *next;
    memcpy(&next, head, sizeof(next));
    agg_mem_free(head);
    head = next;
  }
}

void *agg_mem_carved(void *at, size_t len){
  agg_mem_hdr *h = at;
  h->len = len; h->mapped = AGG_MEM_CARVED;
  return h + 1;
}
