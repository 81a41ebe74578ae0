/*
** groupby.h — GROUP BY over column batches: expressions, hash table and
** aggregate states tied together.
**
**   groupby *gb;
**   groupby_options o = { .threads = 4, .memory_limit = 1<<30 };
**   groupby_new("RegionID", "count(*) AS n, avg(Width)", &schema, &o, &gb, &err);
**   groupby_projection(gb, &nproj, &proj, &raw);  // the scan must emit these
**   while( next(src, &batch)==0 && batch ) groupby_consume(gb, batch, &err);
**   groupby_finish(gb, &err);
**   for(row < groupby_ngroups(gb)) for(col < groupby_ncols(gb))
**     groupby_value(gb, row, col, &value, buf, &err);
**   groupby_free(gb);
**
** Output columns are the keys then the aggregates. With zero keys there is
** exactly one group, even over no rows (as SELECT count(*) FROM t).
**
** Threads: with threads>1, every batch is hashed once by the caller's thread
** and then each of `threads` workers (the caller's thread is one) takes the
** rows whose hash falls in its partition, into a table of its own. A group
** therefore lives in exactly one partition and sees its rows in row order,
** so sums are added in the same order as serially and the results are
** identical bit for bit; groups come out in first-seen order either way
** (each group remembers the first row that made it). threads<=1 is exactly
** serial and starts no thread; so is a group by with zero keys (one group).
** A lane (groupby_options.lane) keeps the partitions but consumes them on
** the caller's thread: several lanes then read disjoint runs of rows side
** by side and are folded together (groupby_merge, groupby_run.h).
*/
#ifndef COLUMNAR_AGG_GROUPBY_H
#define COLUMNAR_AGG_GROUPBY_H

#include <stdint.h>
#include "../reader/scan.h"
#include "../reader/dialect.h"
#include "../reader/error.h"
#include "expr.h"

typedef struct groupby_options {
  int threads;            /* workers; 0 or 1: serial */
  uint64_t memory_limit;  /* bytes; 0: none */
  const char *where;      /* an expression (expr.h) rows must make true to
                          ** be aggregated (agg_filter.where), or NULL */
  int lane;               /* one lane of several (groupby_merge): the
                          ** `threads` partitions are consumed on the
                          ** caller's thread, no worker is started, and
                          ** groups remember col_batch.first_row + row */
  uint32_t max_groups;    /* 0, or: keep only the first max_groups groups
                          ** seen, each over all its rows; rows of later
                          ** keys are dropped (LIMIT without ORDER BY needs
                          ** no more). Serial only: ignored when threads>1
                          ** or lane. */
  const col_dialect *dialect; /* the SQLite whose answers to give (sums,
                          ** text of a REAL, ...); NULL: 3.40's */
  uint32_t radix_after;   /* a lane whose group by groupby_radix_ok: once
                          ** its partitions hold this many groups, rows are
                          ** held back by partition (agg/radix.h) instead
                          ** of looked up, for groupby_radix_part; 0 never;
                          ** past 1 (radix=auto) text keys only where that
                          ** pays (groupby.c, gb_radix_suits) */
  int radix_repeats;      /* ... rows of several values: at radix_after
                          ** groups only if many more groups and few bytes
                          ** to hold are foreseen (lane_rows), else at
                          ** GB_RADIX_WAIT times that only if the rows so
                          ** far repeat keys (groupby.c): held back, rows of
                          ** keys nearly all new (WatchID) only cost a copy,
                          ** and their column sums turn into full states */
  struct agg_slab_pool *slab_pool; /* where rows held back are written
                          ** (agg/slab_pool.h), or NULL: fresh memory */
  uint64_t lane_rows;     /* rows a lane is to scan, about; 0 unknown
                          ** (then radix_repeats lanes never hold early) */
} groupby_options;

typedef struct groupby groupby;

/* The dialect gb was made with (groupby_options.dialect, copied). */
const col_dialect *groupby_dialect(const groupby *gb);

/* Do gb's keys, aggregates or where use one of what (AGG_USES_*)? */
int groupby_uses(const groupby *gb, int what);

/* Parse keys and aggregates over schema. Errors name the bad text. */
int groupby_new(const char *keys, const char *aggs, const col_schema *schema,
                const groupby_options *opt, groupby **out, col_error *err);
void groupby_free(groupby *gb);

/* Before the first batch: a count(DISTINCT) over INTEGER values inserts
** half or three quarters of its pairs on a thread of its own once its set
** holds `pairs` (agg/distinct_split.h). Only for a serial group by (threads<=1, not a
** lane); then with one more thread than threads=1 promises. */
void groupby_split_distinct(groupby *gb, uint32_t pairs);

/* Source columns the batches must carry, in order (the scan projection),
** and the scan_spec.raw flags group_by asks for with them. */
void groupby_projection(const groupby *gb, int *nproj, const int **proj,
                        const uint8_t **raw);

/* The parsed keys and aggregates (names, plain-column keys). */
const agg_item_list *groupby_keys(const groupby *gb);
const agg_item_list *groupby_aggs(const groupby *gb);

/* Add a batch (its columns in groupby_projection order). */
int groupby_consume(groupby *gb, const col_batch *b, col_error *err);

/* Done consuming: fixes the output order. */
/* SQLite computes the filter's terms that read no column (or only
** columns constant propagation fixed) once, before it opens the table
** (agg_expr_where_never): *never = 1 when one is not true, and no row is
** to be read. The first batch asks otherwise; groupby_run asks first. */
int groupby_where_never(groupby *gb, int *never, col_error *err);

int groupby_finish(groupby *gb, col_error *err);
/* Before groupby_finish: an aggregate with ORDER BY in its call is computed
** only for the groups groupby_replay_groups names, where that cannot fail
** (group_concat and json_group_array whose texts cannot grow too long);
** its rows stay stored until every group has been named. Reading such a
** column of a group not named yet is an error. Otherwise finish computes
** them all, as without this call. */
void groupby_defer_ordered(groupby *gb);
/* Compute the deferred ORDER BY aggregates of groups[0..n) (GROUPBY_GROUP
** values; those done already are skipped), or of every group left when
** groups is NULL. poll as groupby_finish_polled's. A no-op when nothing
** was deferred. */
int groupby_replay_groups(groupby *gb, const uint64_t *groups, uint32_t n,
                          int (*poll)(void *ctx), void *ctx, col_error *err);
/* Bytes groupby_finish takes beyond groupby_memory while it sorts ORDER BY
** aggregates' rows (0 without them). */
uint64_t groupby_finish_memory(const groupby *gb);
/* groupby_finish, calling poll(ctx) on this thread now and then while it
** sorts ORDER BY aggregates' rows: nonzero stops it with COL_EINTERRUPT. */
int groupby_finish_polled(groupby *gb, int (*poll)(void *ctx), void *ctx, col_error *err);

/* Number of output rows (groups) and columns. */
uint32_t groupby_ngroups(const groupby *gb);
int groupby_ncols(const groupby *gb);

/* Output row `row`, column `col`. TEXT/BLOB point into gb or buf (>= 40
** bytes), valid until the next call. Error: sum's "integer overflow". */
int groupby_value(const groupby *gb, uint32_t row, int col, pred_value *out,
                  char *buf, col_error *err);

/* Groups where they are: partitions 0..groupby_parts()-1, each holding
** groupby_part_groups() groups in slots. Output rows are the groups ordered
** by groupby_group_seen (the row that first made each; distinct); a
** group's output row is groupby_group_row. groupby_value_at reads a group
** as groupby_value reads its output row. */
uint32_t groupby_part_groups(const groupby *gb, int part);
uint64_t groupby_group_seen(const groupby *gb, int part, uint32_t slot);
uint32_t groupby_group_row(const groupby *gb, int part, uint32_t slot);
int groupby_value_at(const groupby *gb, int part, uint32_t slot, int col,
                     pred_value *out, char *buf, col_error *err);
/* Column col of partition part as an array of its groups' values, when
** every one is a non-NULL INTEGER kept in such an array (a count, or a
** key column of integers alone); else NULL. Lets a scan over millions of
** groups skip groupby_value_at. */
const int64_t *groupby_int_column(const groupby *gb, int part, int col);
/* May groupby_value_at put column col's values in its buf (a timestamp
** key kept as its stored integer, shown as text)? Otherwise its values
** stay valid while gb is unchanged. */
int groupby_value_in_buf(const groupby *gb, int col);

/* The error groupby_value would give for some row of output column col,
** if any (sum's "integer overflow"): SQLite sorting every row meets it. */
int groupby_column_check(const groupby *gb, int col, col_error *err);

/* Parallel lanes: each of T group bys (threads=1, the same keys,
** aggregates and filter) consumes one contiguous run of the rows, the runs
** in row order; folding lanes 1..T-1 into lane 0, in order, then gives
** lane 0 the answer one group by over all rows gives: groups in first-seen
** order, group_concat in row order, DISTINCT exact. Two differences, both
** documented in agg_state_merge: REAL sums add per-lane partial sums, and
** integer sum overflow is judged on the partial and total sums.
** groupby_can_merge says whether gb's aggregates allow this (group_concat
** needs a constant separator). */
int groupby_can_merge(const groupby *gb);
int groupby_merge(groupby *dst, groupby *src, col_error *err);
/* The same in steps: begin (serial), then each partition 0..parts-1,
** which touch only that partition of dst and src and so may run on
** threads of their own. Lanes made with .lane=1 and .threads=P keep their
** groups in P partitions by hash, so lane after lane folds in parallel. */
int groupby_merge_begin(groupby *dst, groupby *src, col_error *err);
int groupby_merge_part(groupby *dst, groupby *src, int part, col_error *err);
int groupby_parts(const groupby *gb);

/* Lanes folded without copying their groups, for lanes made as above with
** P partitions each: begin (serial), then partitions 0..P-1 (each may run
** on a thread of its own), then adopt. A group of lane i that an earlier
** lane also has is folded into that lane's and dropped; the others stay
** where they are, and lane 0 adopts every lane's partitions as partitions
** of its own (groupby_parts grows), the other lanes left empty. At ten
** million groups, copying lane 1's groups into lane 0's table had cost
** the time of a quarter of the scan. Results are groupby_merge's. */
int groupby_can_fold(const groupby *gb);   /* not DISTINCT (its set names groups) */
int groupby_fold_begin(groupby **lanes, int nlane, col_error *err);
int groupby_fold_part(groupby **lanes, int nlane, int part, col_error *err);
int groupby_fold_adopt(groupby **lanes, int nlane, col_error *err);
/* Radix lanes (groupby_options.radix_after): may gb hold rows back (keys
** of any class, arguments INTEGER or REAL, no DISTINCT, group_concat or
** ORDER BY in an aggregate)? Does it hold any now? Lanes whose rows are held are
** finished by begin (serial), then partitions 0..parts-1 (each may run on
** a thread of its own): partition part of lane 0 takes, lane after lane,
** the lane's groups of that partition (as groupby_merge_part) and then its
** held rows. Lanes 1.. are then spent. Results are groupby_merge's. */
int groupby_radix_ok(const groupby *gb);
/* groupby_radix_ok, and a held row is one value: one key the table holds,
** aggregates without arguments (count(*)). The rows radix lanes hold most
** cheaply, and the one shape that gained in every case measured. */
int groupby_radix_narrow(const groupby *gb);
int groupby_radix_holds(const groupby *gb);
/* A radix lane that never held rows keeps the few partitions it began
** with; this gives it the many of one that did (before begin). */
int groupby_radix_widen(groupby *gb, col_error *err);
int groupby_radix_begin(groupby **lanes, int nlane, col_error *err);
/* *spare: buckets one partition gave up, for the next one the same thread
** takes (agg_table_release_buckets); NULL at first, agg_mem_free'd after. */
int groupby_radix_part(groupby **lanes, int nlane, int part, void **spare, col_error *err);

/* After merging: 0 when some sum() saw integers large enough that whether
** its running sum overflowed depends on the order of the rows; then only a
** serial run answers as SQLite does. */
int groupby_merge_exact(const groupby *gb);

/* Bytes gb holds now, by capacity. */
uint64_t groupby_memory(const groupby *gb);

#endif
