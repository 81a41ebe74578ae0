/*
** double.h — doubling an open-addressing array in place.
**
** Both of agg's hash sets (agg_table's buckets, the DISTINCT pair set in
** iset.c) probe linearly from a home that is the top bits of a hash,
** so doubling sends the entry homed at h to 2h or 2h+1. With the array
** already grown to 2n (agg/bigmem.h: a mapping grows by mremap, the new
** half prefaulted and zero), the entries are moved there in place: walked
** from the top down, each moves up, past its old place, into slots that are
** new or already walked. Allocating a second array per doubling faulted in
** 1.5x the memory, a quarter of the time of a 10M-group query.
**   - the bottom run [0, z) (up to the first empty slot; it holds every
**     entry that wrapped around) is set aside first;
**   - an entry whose new home is not above its old place, or whose search
**     for a free slot reaches the end, is set aside too (a handful);
**   - the set-aside entries are placed last, into the finished array.
**
** AGG_DOUBLE_INPLACE(name, T, EMPTY, HOME) defines
**   static int name(T *b, uint32_t n, uint32_t shift)
** for b holding n entries followed by n zero ones, where EMPTY(x) says
** whether entry x is free and HOME(x, shift) is its home in the doubled
** array. Returns 0, or -1 when out of memory setting entries aside; then
** some entries are lost, and the caller must treat its set as unusable.
** The bottom run is set aside into memory taken before anything moves.
*/
#ifndef COLUMNAR_AGG_DOUBLE_H
#define COLUMNAR_AGG_DOUBLE_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define AGG_DOUBLE_INPLACE(NAME, T, EMPTY, HOME)                             \
static int NAME##_aside(T **a, uint32_t *na, uint32_t *cap, T x){            \
  if( *na==*cap ){                                                           \
    uint32_t c = *cap ? *cap*2 : 64;                                         \
    T *y = realloc(*a, (size_t)c*sizeof(T));                                 \
    if( y==0 ) return -1;                                                    \
    *a = y; *cap = c;                                                        \
  }                                                                          \
  (*a)[(*na)++] = x;                                                         \
  return 0;                                                                  \
}                                                                            \
static int NAME(T *b, uint32_t n, uint32_t shift){                           \
  uint32_t n2 = n*2, mask = n2 - 1, z = 0;                                   \
  while( z<n && !EMPTY(b[z]) ) z++;                                          \
  uint32_t na = 0, cap = z + 64;                                             \
  T *a = malloc((size_t)cap*sizeof(T));                                      \
  if( a==0 ) return -1;                                                      \
  for(uint32_t o=0; o<z; o++){ a[na++] = b[o]; memset(&b[o], 0, sizeof(T)); } \
  int rc = 0;                                                                \
  for(uint32_t o=n; o-- > z; ){                                              \
    T x = b[o];                                                              \
    if( EMPTY(x) ) continue;                                                 \
    memset(&b[o], 0, sizeof(T));                                             \
    uint32_t at = HOME(x, shift);                                            \
    if( at<=o ){ rc |= NAME##_aside(&a, &na, &cap, x); continue; }           \
    while( at<n2 && !EMPTY(b[at]) ) at++;                                    \
    if( at==n2 ){ rc |= NAME##_aside(&a, &na, &cap, x); continue; }          \
    b[at] = x;                                                               \
  }                                                                          \
  for(uint32_t i=0; i<na; i++){                                              \
    uint32_t at = HOME(a[i], shift);                                         \
    while( !EMPTY(b[at]) ) at = (at + 1) & mask;                             \
    b[at] = a[i];                                                            \
  }                                                                          \
  free(a);                                                                   \
  return rc ? -1 : 0;                                                        \
}

#endif
