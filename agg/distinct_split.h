/*
** distinct_split.h — part of a count(DISTINCT x) set, on a thread of its own.
**
** With the rows aggregated on one thread while another decodes (group_by
** at threads=2 when lanes cannot be used: DISTINCT's set names groups, so
** lanes would each need a set as large as the whole), inserting the
** (group, value) pairs into the set is most of the aggregating thread's
** time: at millions of pairs nearly every insert misses the cache. A
** share of the pairs, chosen by their hash, go to a helper thread instead,
** which keeps them in a set of its own and counts, per group, the pairs
** that were new there. The two sets hold disjoint pairs, so a group's
** count is the sum of the two; no order is kept, which is why only count()
** splits (sum, avg, min/max ties and group_concat depend on it).
**
**   agg_dsplit *d = agg_dsplit_new(&err);
**   agg_dsplit_buf *b = agg_dsplit_room(d, n, &err);      // room for n more
**   ... b->g1[b->n] = group + 1; b->v[b->n] = value;
**       b->h[b->n] = agg_ipair_hash(...); b->n++ ...
**   agg_dsplit_wait(d, &err);      // all pairs are in; helper idle
**   agg_dsplit_take_counts(d, counts, ngroup)   // add the new pairs per group
**   agg_dsplit_free(d);
*/
#ifndef COLUMNAR_AGG_DISTINCT_SPLIT_H
#define COLUMNAR_AGG_DISTINCT_SPLIT_H

#include <stdint.h>
#include "../reader/error.h"
#include "iset.h"

/* Does the pair hashed h go to the helper, which takes `quarters`/4 of
** the pairs (1..3)? The low two bits of agg_ipair_hash decide (the home
** bucket uses the top bits, so each part still spreads over its set); a
** pair always goes the same way for one split. Branch-free. */
static inline uint32_t agg_dsplit_away(uint64_t h, uint32_t quarters){
  return (uint32_t)(((h & 3) + quarters) >> 2);
}

typedef struct agg_dsplit agg_dsplit;

/* A buffer of pairs being filled for the helper. */
typedef struct agg_dsplit_buf {
  uint32_t *g1;           /* group + 1 */
  int64_t *v;
  uint64_t *h;            /* agg_ipair_hash(g1, v) */
  uint32_t n;             /* pairs in it */
  uint32_t cap;           /* room in each array */
  void *mem;              /* the block holding the arrays (agg/bigmem.h) */
} agg_dsplit_buf;

/* Starts the thread. NULL (err set) when out of memory or no thread. */
agg_dsplit *agg_dsplit_new(col_error *err);

/* The buffer being filled, with room for n more pairs after its first
** b->n: the caller writes them there and adds to b->n. A full buffer is
** queued and a free one taken, waiting while all are queued. NULL with
** err set when the helper failed (out of memory) or no memory. */
agg_dsplit_buf *agg_dsplit_room(agg_dsplit *d, uint32_t n, col_error *err);

/* Before the first pair is handed over: size the helper's set for
** `pairs`. A set first filled from another set's buckets gets its pairs
** in the order of their homes; grown buffer by buffer, each buffer's
** pairs would all home to one stretch of a set still a fraction of its
** final size, one run that every insert walks (a split at 1M pairs of
** count(DISTINCT UserID) by SearchPhrase: 0.3 -> 4.5 s). COL_OK, or out
** of memory. */
int agg_dsplit_reserve(agg_dsplit *d, uint64_t pairs, col_error *err);

/* Queue the buffer being filled and wait until every pair is in the
** helper's set. COL_OK, or the
** helper's error. The set and counts may then be read until the next post. */
int agg_dsplit_wait(agg_dsplit *d, col_error *err);

/* After agg_dsplit_wait: add to dst[g], g < ndst, the pairs of group g
** new to the helper's set since the last call (dst NULL: drop them), and
** start those counts again from zero. */
void agg_dsplit_take_counts(agg_dsplit *d, int64_t *dst, uint32_t ndst);
/* After agg_dsplit_wait: the helper's set. */
const agg_iset *agg_dsplit_set(const agg_dsplit *d);

/* Bytes held (set, counts, buffers); may be read while the helper runs. */
uint64_t agg_dsplit_footprint(const agg_dsplit *d);

/* Stop the thread (dropping whatever is queued) and free everything. */
void agg_dsplit_free(agg_dsplit *d);

#endif
