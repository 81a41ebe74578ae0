/*
** arena.h — a bump allocator for the bytes a batch points at.
**
** Decoders that must build strings (DELTA_BYTE_ARRAY prefixes, JSON for
** nested values, formatted dates) write them into an arena owned by the
** scan; reset() between batches gives every byte back at once without
** walking anything. Blocks are kept across resets so a steady-state scan
** does not call malloc at all. An arena given a pool takes its blocks
** from it and gives them back when freed: a row group's formatted dates
** are megabytes, and through malloc every row group faulted them in anew.
*/
#ifndef COLUMNAR_ARENA_H
#define COLUMNAR_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include "pool.h"

typedef struct col_arena_block col_arena_block;
typedef struct col_arena {
  col_arena_block *head;  /* block being filled; older blocks follow */
  col_arena_block *spare; /* blocks given back by reset, reused first */
  size_t used_total;      /* bytes handed out since the last reset */
  size_t cap_total;       /* bytes held, all blocks */
  col_pool *pool;         /* where blocks come from; NULL: malloc */
} col_arena;

void col_arena_init(col_arena *a);
/* An empty arena whose blocks come from pool (which must outlive it). */
void col_arena_init_pool(col_arena *a, col_pool *pool);
/* n bytes aligned to 8, or NULL when out of memory. */
void *col_arena_alloc(col_arena *a, size_t n);
/* Copy n bytes into the arena; NULL when out of memory. */
char *col_arena_dup(col_arena *a, const void *p, size_t n);
/* Forget every allocation, keep the memory for reuse. */
void col_arena_reset(col_arena *a);
/* Free everything. */
void col_arena_free(col_arena *a);

#endif
