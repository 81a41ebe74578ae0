/*
** hugemap.h — fresh memory in mappings laid out for huge pages.
**
** A huge page covers only an aligned 2 MiB wholly inside a mapping: one
** placed wherever mmap put it loses one at each end, and one moved by
** mremap to an address of another alignment loses them all. Where THP is
** "madvise" (Debian's default) the advice is what turns them on. The
** reader's buffer pool (reader/pool.c) and group_by's large blocks
** (agg/bigmem.c) map through here.
*/
#ifndef COLUMNAR_HUGEMAP_H
#define COLUMNAR_HUGEMAP_H

#include <stddef.h>

/* A huge page, and the unit hugemap lengths and addresses come in. */
#define COL_HUGE_UNIT ((size_t)2 << 20)

/* len bytes (a multiple of COL_HUGE_UNIT) of fresh zero pages at a
** COL_HUGE_UNIT boundary, advised into huge pages; NULL when the mapping
** fails, and always elsewhere than Linux. Freed with munmap. */
void *col_map_huge(size_t len);

#endif
