/*
** pool.h — large buffers a scan frees and needs again, kept for reuse.
**
** Decoding a row group allocates a handful of large arrays per column
** (the chunk's bytes, decompressed pages, values, converted vectors) and
** frees them all when the consumer moves on; the next row group wants the
** same sizes again. Through malloc, blocks that size come from fresh
** mappings or trimmed heap, so every row group paid page faults and the
** kernel's zeroing of the pages (a third of some scans' time). A col_pool,
** one per scan, keeps the freed blocks and hands them out again; a Parquet
** dataset keeps a capped one that a scan's blocks move to when it ends and
** that the next scans draw on (col_pool_set_parent).
**
** Every block has a small header with its capacity, so col_pool_put and
** col_pool_grow take any block col_pool_get gave, from any pool or none (a
** NULL pool is plain malloc/free). Small blocks bypass the pool. A pool is
** safe to share between a scan's decoding workers and its consumer.
*/
#ifndef COLUMNAR_POOL_H
#define COLUMNAR_POOL_H

#include <stddef.h>

typedef struct col_pool col_pool;

col_pool *col_pool_new(void);           /* NULL on OOM */
/* Keep at most `bytes` of free blocks (0: no cap beyond the block count).
** A pool that outlives its scans, as a dataset's does, holds that much
** between queries. */
void col_pool_set_keep(col_pool *p, size_t bytes);
/* When p has no free block that fits, col_pool_get takes one from parent
** (which must outlive p) before it mallocs. Several scans of one dataset
** draw on its kept blocks as they need them; handing every block to the
** first scan opened left a second one running beside it (a group_by
** lane) to fault in fresh memory for every row group. */
void col_pool_set_parent(col_pool *p, col_pool *parent);
/* Move src's free blocks to dst, as many as dst keeps; the rest are freed. */
void col_pool_move(col_pool *dst, col_pool *src);
/* Bytes of free blocks p keeps now. */
size_t col_pool_kept(col_pool *p);
/* Free the pool and the blocks it keeps. Blocks still out must not be
** put back afterwards. */
void col_pool_free(col_pool *p);

/* A block of at least n bytes (contents undefined); NULL on OOM. */
void *col_pool_get(col_pool *p, size_t n);
/* The bytes col_pool_get(p, n) actually gives (any p): callers that can
** use the whole block ask for this much. */
size_t col_pool_block_size(size_t n);
/* As realloc: the first min(old, n) bytes kept; NULL on OOM (b unchanged). */
void *col_pool_grow(col_pool *p, void *b, size_t n);
/* Give b back (NULL is ignored). */
void col_pool_put(col_pool *p, void *b);

#endif
