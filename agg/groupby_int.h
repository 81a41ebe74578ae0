/*
** groupby_int.h — the group by's state, shared by the driver (groupby.c),
** the folding of lanes (groupby_fold.c) and the results (groupby_result.c);
** private to those files. The interface is groupby.h.
*/
#ifndef COLUMNAR_AGG_GROUPBY_INT_H
#define COLUMNAR_AGG_GROUPBY_INT_H
#include "groupby.h"
#include "ts_memo.h"
#include "hash.h"
#include "table.h"
#include "aggregate.h"
#include "value.h"
#include "bigmem.h"
#include "zone.h"
#include "ordered.h"
#include "radix.h"
#include "order.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* Keys, and combinations of their dictionaries' entries, up to which
** gb_part_lookup_codes remembers each combination's group. */
#define GB_MEMO_KEYS 4
#define GB_MEMO_MAX (1u<<16)
/* gb_part_lookup_codes: a slot looked up in this batch, not yet answered
** (a group's slot is below AGG_MAX_GROUPS, 2^30) */
#define GB_PENDING (1u<<31)

/* SQLite's GROUP BY shows a group's keys as they were in one of its rows.
** Without min() or max() that is the group's first row; with them, every
** row whose last min/max step (in the order SQLite numbers aggregate
** calls) took the row's value, or had none yet, copies its columns
** (select.c updateAccumulator, func.c minmaxStep), and a row no min/max
** step saw (a DISTINCT duplicate) keeps the previous row's verdict. Keys
** holding 1 in one row and 1.0 in another, or -0.0 and 0.0, are one group,
** shown as that row holds them. Per group and key: REAL, negative.
** The bits live in the last min/max's state (agg_state_keyrep), whose
** merges keep them right across lanes, except where that min/max is
** DISTINCT: its duplicates' verdicts come from rows another lane saw. */
#define GB_KEYREP_MAX 10
#define GB_KEYREP_REAL(bits, j) (((bits) >> (2*(j))) & 1u)
#define GB_KEYREP_NEG(bits, j) (((bits) >> (2*(j)+1)) & 1u)
#define GB_KEYREP_LAST (1u<<20)   /* the group's latest row copied */
#define GB_KEYREP_SET (1u<<21)    /* some row did (the bits are its) */
_Static_assert(GB_KEYREP_SET < (1u<<AGG_KEYREP_BITS), "keyrep bits");

/* One partition's table and states. */
typedef struct gb_part {
  agg_table table;        /* groups of this partition */
  agg_state *states;      /* one per aggregate */
  uint64_t *first_row;    /* threads>1: the row that created each group */
  uint32_t first_cap;     /* capacity of first_row */
  uint32_t *rows;         /* scratch: this partition's rows of the batch */
  uint32_t *gid;          /* scratch: their groups */
  uint32_t *rows2;        /* scratch: rows as one aggregate rewrites them */
  uint32_t *gid2;         /* scratch: groups likewise */
  uint32_t cap;           /* rows the scratch arrays hold */
  uint32_t iota;          /* rows[0..iota) hold 0..iota-1 (gb_rows_iota) */
  uint32_t gzero;         /* no keys: gid[0..gzero) hold 0 */
  uint32_t nfill;         /* lanes: rows the batch scatter put in rows */
  int64_t **lsum;         /* per gb_base: each group's sum of the column */
  int64_t **lcnt;         /* per gb_base: each group's non-NULL count */
  uint32_t lcap;          /* groups lsum/lcnt hold */
  col_error err;          /* this partition's error for the batch */
  agg_keycol *dkeys;      /* per key: a derived key's value per group,
                          ** filled by groupby_finish; a lazy one's for
                          ** the slots of chunk dfrom alone */
  uint32_t dfrom;         /* first slot of the lazy keys' chunk */
  int dhave;              /* the lazy keys hold chunk dfrom */
  uint32_t *dc_slot;      /* gb_part_lookup_codes: per combination of
                          ** entries of the dictionaries mc_id, its
                          ** group's slot, or AGG_EMPTY while not yet
                          ** looked up */
  uint32_t dc_cap;        /* entries dc_slot holds */
  uint32_t dc_n;          /* combinations it describes */
  int mc_nk;              /* keys it is for, 0 none yet */
  uint64_t mc_id[GB_MEMO_KEYS];  /* their dictionaries (col_vector.dict_id) */
  uint32_t mc_n[GB_MEMO_KEYS];   /* and the sizes they had */
  uint64_t *dd_slot;      /* gb_part_dedup: its table (hash, representative) */
  uint32_t dd_cap;        /* its slots, a power of two */
  agg_ordbuf *ord;        /* per aggregate: its rows, when it has ORDER BY
                          ** terms (replayed into states at finish) */
  uint8_t *hit;           /* per batch row: agg_state.hit's marks */
  uint32_t hit_cap;       /* rows hit holds */
} gb_part;

/* sum, total and avg over `column + k` (k an INTEGER literal, 0 for the
** column itself) are computed from one sum and count of the column per
** group: sum(x + k) = sum(x) + k*count(x). That is exact, and what SQLite
** computes to the bit, while every input is an INTEGER and every partial
** sum of every such aggregate stays within 2^53 in magnitude (then SQLite's
** double sum is the integer sum, and no integer sum overflows). The driver
** checks a bound that implies this before each batch: (rows so far) *
** (largest |x| + largest |k|) < 2^52. The first batch that breaks it (a
** REAL or TEXT input, or values too large) turns each aggregate into its
** ordinary state, filled from the sums so far, and from then on the
** aggregates evaluate their argument row by row as any other. */
typedef struct gb_base {
  int bcol;               /* the column's index in the batch */
  int active;             /* the aggregates still read the sums */
  uint64_t maxk;          /* largest |k| among its aggregates */
  double rows;            /* live rows consumed (bounds any group's count) */
  double maxabs;          /* largest |value| seen */
} gb_base;

struct groupby {
  agg_item_list keys;     /* parsed keys */
  int nindep;             /* keys the table holds (not derived) */
  int *kcol;              /* per key: its column in the table, or when
                          ** derived (see gb_derive_keys) GB_DERIVED, or
                          ** GB_DERIVED_LAZY */
  agg_item_list aggs;     /* parsed aggregates */
  agg_expr *where;        /* rows must make this true, or NULL */
  int where_never;        /* 0 where's constant terms not evaluated yet, 1
                          ** all true, 2 one is not: no row passes */
  uint32_t *wsel;         /* the rows of a batch that pass where */
  uint32_t wcap;          /* capacity of wsel */
  int cut_state;          /* gb_cut_prefilter: 0 set not made yet, 1 made,
                          ** -1 does not apply */
  int64_t *cut_keys;      /* its set: the groups' first key, INTEGER, open
                          ** addressing over cut_mask+1 slots */
  uint8_t *cut_used;      /* which slots hold one */
  uint32_t cut_mask;
  uint32_t *cut_sel;      /* the rows of a batch it keeps */
  uint32_t cut_cap;       /* capacity of cut_sel */
  int nproj;              /* source columns the batches carry */
  int *proj;              /* their source indexes (malloc'd) */
  uint8_t *raw;           /* per proj entry: ask for raw timestamps
                          ** (scan_spec.raw; malloc'd) */
  uint8_t *key_ts;        /* per key: a plain timestamp column the table
                          ** may hold as its integers, its COL_TS_* unit
                          ** (shown as the reader's text); 0 others */
  int nthread;            /* partitions rows are routed to (1: serial) */
  int nparts;             /* partitions held: nthread, more once folded
                          ** lanes' partitions are adopted (groupby_fold) */
  int lane;               /* a lane (groupby_options.lane): partitions are
                          ** consumed by the caller's thread, and groups
                          ** remember their row in the dataset */
  char **msep;            /* lanes, per group_concat: its constant separator
                          ** for merging (malloc'd; NULL: none) */
  uint32_t *msepn;        /* their lengths */
  int single;             /* a lane whose rows all go to partition 0 while
                          ** its groups are few (gb_single_ok): no scatter */
  uint8_t *spart;         /* lanes: each batch row's partition (scratch) */
  uint32_t spcap;         /* capacity of spart */
  uint64_t memory_limit;  /* bytes; 0: none */
  col_dialect dialect;    /* the SQLite whose answers to give */
  gb_part *parts;         /* nparts partitions */
  agg_hasher hasher;      /* key hashing scratch */
  col_arena arena;        /* strings built by expressions, per batch */
  uint64_t *hashes;       /* hash of each batch row */
  uint32_t hcap;          /* capacity of hashes */
  int hash_lazy;          /* this batch's hashes are made only where a
                          ** lookup needs them (gb_hash_lazy) */
  const col_vector **kv;  /* table key vectors of the current batch */
  const col_vector **av;  /* argument vectors (NULL for count(*)) */
  const col_vector **sv;  /* separator vectors (NULL when none) */
  const col_vector **ov;  /* ORDER BY term vectors of every aggregate */
  int *ov_at;             /* per aggregate: where its terms start in ov */
  uint8_t *ob_ts;         /* per term (as ov): a timestamp column read as
                          ** its integers, its COL_TS_* unit; else 0 */
  const col_batch *batch; /* the batch being consumed */
  uint64_t row_base;      /* rows consumed before this batch (partitions
                          ** order groups by it; a lane uses first_row) */
  uint32_t *order_part;   /* threads>1: output row -> partition */
  uint32_t *order_slot;   /* threads>1: output row -> slot */
  uint32_t norder;        /* output rows order_part/slot hold so far */
  uint32_t *order_at;     /* per partition: its groups placed so far */
  uint32_t radix_after;   /* groupby_options.radix_after, or 0 once rows
                          ** must not be held back */
  int radix_repeats;      /* groupby_options.radix_repeats */
  int radix_waited;       /* ... and radix_after was raised to look again */
  uint64_t lane_rows;     /* groupby_options.lane_rows */
  struct agg_slab_pool *slab_pool; /* groupby_options.slab_pool */
  agg_zone *zone;         /* a radix lane's partitions' arrays are carved
                          ** from it (made with the lane, or at the latest
                          ** with the 256 partitions, gb_radix_split);
                          ** freed after them, or absorbed by lane 0's
                          ** along with the partitions it adopts */
  uint64_t live_rows;     /* lanes: rows consumed that every filter passed */
  int radix_ok;           /* groupby_radix_ok */
  int radix_on;           /* rows are being held back, in held */
  agg_radix held;         /* a radix lane's rows held back, by partition:
                          ** the table's keys, then the arguments of the
                          ** aggregates that have one */
  uint32_t *order_heap;   /* gb_order_upto over many partitions: a min-heap
                          ** of partitions by their next group's first row */
  uint32_t order_nheap;
  int nbase;              /* columns summed for sum/total/avg (gb_base) */
  gb_base *bases;         /* nbase of them */
  int *lin_base;          /* per aggregate: its gb_base, or -1 */
  int64_t *lin_k;         /* per aggregate: its k */
  /* The row SQLite shows a group's keys from (gb_keyrep_plan) */
  int nrep;               /* keys that need it, up to GB_KEYREP_MAX; 0 none */
  int rep_key[GB_KEYREP_MAX]; /* their key indexes */
  int8_t *key_rep;        /* per key: its bit pair in the record, or -1 */
  uint8_t *rep_hit;       /* per aggregate: its updates mark rows (agg_state.hit) */
  int rep_agg;            /* the min/max whose state keeps the record */
  uint32_t ngroups;       /* output rows, after finish */
  int finished;           /* groupby_finish ran */
  int ord_defer;          /* groupby_defer_ordered */
  uint8_t **ord_done;     /* finish deferred the ORDER BY aggregates: per
                          ** partition, per group, computed yet (the rows
                          ** stay stored while any is not); else NULL */
  uint8_t **ord_want;     /* during a replay: per partition, the groups to
                          ** compute; NULL: all */
  uint64_t ord_left;      /* groups ord_done does not mark yet */
  /* workers (threads>1) */
  pthread_t *tids;        /* nthread-1 threads */
  int nstarted;           /* threads started */
  pthread_mutex_t mu;     /* guards gen, ndone, quit */
  pthread_cond_t go;      /* a batch is ready */
  pthread_cond_t done;    /* a worker finished its partition */
  uint64_t gen;           /* batches handed out */
  int ndone;              /* workers done with the current batch */
  int quit;               /* workers must exit */
  int sync_init;          /* mu/go/done are initialised */
};

typedef struct gb_worker_arg { groupby *gb; int part; } gb_worker_arg;

#define GB_DERIVED (-1)        /* kcol: computed for every group at finish */
#define GB_DERIVED_LAZY (-2)   /* kcol: computed per chunk when read */

/* defined in groupby.c */
void gb_count_col(void *ctx, int c);
int gb_const_value(agg_expr *e, col_arena *arena, pred_value *out);
void gb_part_free(groupby *gb, gb_part *p);
int gb_lin_reserve(groupby *gb, gb_part *p, uint32_t ngroup);
int gb_lin_stop(groupby *gb, int b, col_error *err);
int gb_derive(groupby *gb, gb_part *p, int which, uint32_t from, col_error *err);
int gb_derive_lazy(const groupby *gb, int part, uint32_t slot, col_error *err);
int gb_single_split(groupby *gb, col_error *err);
/* defined in groupby_result.c */
void gb_ord_marks_free(groupby *gb);

#endif
