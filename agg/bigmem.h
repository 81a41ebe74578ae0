/*
** bigmem.h — growable per-group arrays that grow without copying.
**
** A group by's columns (keys, hashes, states) double as groups arrive; at
** millions of groups they are hundreds of MB. glibc's realloc copies any
** block below its mmap threshold (which rises to 32 MiB), and a copy costs
** twice: the bytes moved, and fresh pages the kernel must fault in and zero
** for the new block while the old one's are thrown away. Here blocks of
** AGG_MEM_MAPPED bytes and up live in mappings of their own that mremap()
** grows by moving pages, not bytes, and that arrive zeroed (so a zeroed
** block costs nothing until touched). Smaller blocks are malloc'd. Every
** block carries its size in a header, so agg_mem_realloc and agg_mem_free
** take any pointer these functions returned (and only those).
**
** Elsewhere than Linux every block is malloc'd.
*/
#ifndef COLUMNAR_AGG_BIGMEM_H
#define COLUMNAR_AGG_BIGMEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define AGG_MEM_MAPPED (1u<<20)

/* Bytes of a block's header. A mapping spans whole 2 MiB units (its start
** aligned, for huge pages), header included: a block of 2^k bytes takes
** a unit more than one of 2^k - AGG_MEM_HEADER, and the header's 16 bytes
** alone would fault in a huge page there. */
#define AGG_MEM_HEADER 16

/* Where a mapping starts and how its length rounds up: one huge page
** (agg/bigmem.c says why). Advice over part of a unit (MADV_FREE) splits
** the huge page there into small ones. */
#define AGG_MEM_ALIGN ((size_t)2 << 20)

/* realloc(p, n): the first min(old, n) bytes kept; NULL on failure (p is
** then unchanged). p may be NULL. Bytes past the old size are undefined. */
void *agg_mem_realloc(void *p, size_t n);
/* agg_mem_realloc(p, n) with bytes [old, n) zero, where old is the size
** p was last given and no byte at or past old has been written since.
** A mapped result is zero past old already; only malloc'd bytes are
** cleared. Zeroing a doubled array up front faulted in every page of
** the half not yet used: at ten million groups, hundreds of MB. */
void *agg_mem_grow_zeroed(void *p, size_t old, size_t n);
/* Fault in bytes [off, off+n) of block p for writing now, in one call
** where the kernel allows it. For zero bytes about to be read before they
** are written (hash buckets): see agg_mem_zalloc. */
void agg_mem_prefault(void *p, size_t off, size_t n);
/* n zero bytes; NULL on failure. */
void *agg_mem_zalloc(size_t n);
void agg_mem_free(void *p);
/* Bytes block p can hold (at least what it was last given). */
size_t agg_mem_size(const void *p);
/* Free a chain of blocks, each holding the next one's pointer in its
** first bytes (NULL ends it), from head on. */
void agg_mem_free_chain(void *head);

/* Make the len bytes at `at` (len > AGG_MEM_HEADER, `at` 16-byte aligned)
** a carved block: a block to agg_mem_realloc, _size and _free like any
** other, but that freeing leaves where it is (its bytes belong to whoever
** carved it: agg/zone.h), and that growing past its size copies out.
** Returns the block. */
void *agg_mem_carved(void *at, size_t len);

/* Copy n bytes, inline for up to 64: overlapping 16-, 8- or 4-byte moves
** (none reads or writes outside [0, n)), where a call to memcpy for a
** value's few dozen bytes, a row at a time, cost its call and its length
** dispatch (held text rows, ORDER BY text columns, group_concat's
** separators and values). */
static inline void agg_copy_bytes(void *dst, const void *src, size_t n){
  unsigned char *d = dst;
  const unsigned char *s = src;
  if( n>64 ){ memcpy(d, s, n); return; }
  if( n>=16 ){
    for(size_t i=0; i+16<n; i+=16) memcpy(d + i, s + i, 16);
    memcpy(d + n - 16, s + n - 16, 16);
  }else if( n>=8 ){
    uint64_t a, b;
    memcpy(&a, s, 8); memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8); memcpy(d + n - 8, &b, 8);
  }else if( n>=4 ){
    uint32_t a, b;
    memcpy(&a, s, 4); memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4); memcpy(d + n - 4, &b, 4);
  }else if( n ){
    d[0] = s[0]; d[n>>1] = s[n>>1]; d[n-1] = s[n-1];
  }
}

#endif
