/*
** groupby_run.h — drive a group by over a dataset: one scan, or parallel
** lanes each scanning a contiguous part of the rows into a table of its own,
** folded together at the end.
**
**   groupby_run_opts o = { keys, aggs, schema, where, lanes, limit, poll, ctx };
**   groupby_new(keys, aggs, schema, &(groupby_options){ T, ... }, &gb, &err);
**   groupby_run(&gb, ds, &spec, &o, &err);   // gb then holds the answer
**
** Lanes (o.lanes > 1, a dataset that can shard, a mergeable gb without
** DISTINCT): lane i scans part i of o.lanes (scan_spec.shard) on a thread
** of its own, the caller's thread running lane 0, into a group by of its
** own (groupby_options.lane: its groups in o.lanes hash partitions); every
** lane decodes and aggregates its own rows, so both halves of the work
** scale with the threads. Where the dataset can split its jobs while they
** run (col_dataset.splittable, reader/split.h), a thread whose lane ran
** out of row groups takes the upper half of those another lane has not
** started, as a new lane of its own: the threads finish together however
** the cost of the rows is spread. Then the lanes are folded into lane 0
** in file order, a partition at a time on each of o.lanes threads
** (groupby_fold_part), which keeps groups in first-seen order, and lane 0
** replaces *gb. With o.radix_after, lanes of a gb whose rows radix.h can
** hold (o.lanes a power of two) split their partitions into 256 once they
** have that many groups, and then hold their rows back by partition
** instead of probing tables ever larger than the caches; each partition
** is then aggregated from every lane's rows of it by one thread
** (groupby_radix_part), and no fold probes a lane's groups again.
** Otherwise *gb consumes one scan with spec.threads decoding threads (its
** own partition workers, if any, aggregate). When a sum() of large
** integers makes its overflow error depend on row order
** (groupby_merge_exact), the lanes are dropped and *gb is made again and
** run serially, so the answer is always SQLite's.
**
** poll (may be NULL) is called on the caller's thread every few batches,
** and while it waits for other lanes; nonzero stops every lane with
** COL_EINTERRUPT. memory_limit (0: none) bounds the bytes all lanes hold
** together.
*/
#ifndef COLUMNAR_AGG_GROUPBY_RUN_H
#define COLUMNAR_AGG_GROUPBY_RUN_H

#include "groupby.h"
#include "../reader/dataset.h"


typedef struct groupby_run_opts {
  const char *keys;        /* the texts gb was made from (for the lanes) */
  const char *aggs;
  const col_schema *schema;
  const char *where;
  int lanes;               /* parallel lanes wanted; <=1: one scan */
  uint64_t memory_limit;   /* bytes over all lanes; 0: none */
  int (*poll)(void *ctx);  /* nonzero: interrupted */
  void *poll_ctx;
  uint32_t radix_after;    /* lanes of a gb that groupby_radix_ok: hold rows
                           ** back once a lane has this many groups
                           ** (groupby_options.radix_after); 0 never */
  int radix_repeats;       /* groupby_options.radix_repeats */
  struct agg_slab_pool *slab_pool; /* groupby_options.slab_pool */
  int steal_min;           /* a lane out of jobs splits another's that has at
                           ** least this many not started (0: the default) */
  int *lanes_used;         /* NULL, or set to the lanes the last pass made */
  int defer_ordered;       /* finish as groupby_defer_ordered says */
  int merge_distinct;      /* DISTINCT aggregates run in lanes too, merged
                           ** at the end (groupby_merge_part) */
  scan_stats *stats;       /* NULL, or set to what the last pass's scans
                           ** did, summed over its lanes */
} groupby_run_opts;

/* Will groupby_run use lanes for gb over ds? */
int groupby_run_uses_lanes(const groupby *gb, const col_dataset *ds,
                           const groupby_run_opts *o);

/* Scan ds with spec (its projection is *gb's) into *gb, then finish it.
** On error *gb may have been replaced (or be NULL); the caller frees it. */
int groupby_run(groupby **gb, col_dataset *ds, const scan_spec *spec,
                const groupby_run_opts *o, col_error *err);

#endif
