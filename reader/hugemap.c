/*
** hugemap.c — col_map_huge; see hugemap.h.
*/
#include "hugemap.h"
#include <stdint.h>
#if defined(__linux__)
# include <sys/mman.h>
#endif

void *col_map_huge(size_t len){
#if defined(__linux__)
  if( len==0 || len > SIZE_MAX - COL_HUGE_UNIT ) return 0;
  /* one unit longer, trimmed at both ends to a unit boundary */
  char *m = mmap(0, len + COL_HUGE_UNIT, PROT_READ|PROT_WRITE,
                 MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  if( m==MAP_FAILED ) return 0;
  size_t lead = (COL_HUGE_UNIT - ((uintptr_t)m & (COL_HUGE_UNIT - 1))) & (COL_HUGE_UNIT - 1);
  if( lead ) munmap(m, lead);
  munmap(m + lead + len, COL_HUGE_UNIT - lead);
# ifdef MADV_HUGEPAGE
  /* advice only: a kernel without THP ignores it */
  (void)madvise(m + lead, len, MADV_HUGEPAGE);
# endif
  return m + lead;
#else
  (void)len;
  return 0;
#endif
}
