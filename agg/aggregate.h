/*
** aggregate.h — aggregate states for every group, updated a column at a time.
**
** One agg_state holds one aggregate's state for every group of one hash
** table: an array indexed by group slot. A batch updates it with parallel
** arrays rows[k] (row in the batch) and gid[k] (that row's group), so the
** loop over a column runs once per aggregate with the type dispatch outside.
**
** Semantics are SQLite's func.c, to the bit: 3.40's, or with kbn set the
** sums of 3.43 and later:
**   count(*), count(x)   INTEGER
**   sum(x)               NULL for no non-NULL input; INTEGER while every input
**                        is an INTEGER (TEXT that looks like one counts);
**                        "integer overflow" error when that sum overflows
**                        (kbn: unless a REAL came after the overflow);
**                        else REAL, the inputs added as doubles in row order
**                        (kbn: from the exact integer sum so far, with
**                        Kahan-Babuska-Neumaier compensation)
**   total(x)             REAL, 0.0 for no input
**   avg(x)               REAL: the double sum / count (kbn: the exact integer
**                        sum as a double while there is one); NULL for no
**                        input
**   min(x), max(x)       SQLite ordering (NULL ignored, numbers < TEXT < BLOB,
**                        TEXT under BINARY); the first of equal values wins
**   group_concat(x[,s])  TEXT; s taken from each row after the first
**                        (NULL s: no separator), default ','; NULL x skipped
**   any_value(x)         the first non-NULL value
**   json_group_array(f)  TEXT: '[' the fragments f, a JSON value each
**   json_group_object(f) (agg/json.h), joined by ',' ']' ('{' '}'); NULL
**                        f skipped (a FILTER), '[]' ('{}') for none; a
**                        BLOB f is the error agg_json_blob_error
** DISTINCT (any aggregate but count(*)) passes only the first row of each
** (group, value) pair, with values compared as SQLite compares them.
*/
#ifndef COLUMNAR_AGG_AGGREGATE_H
#define COLUMNAR_AGG_AGGREGATE_H

#include <stdint.h>
#include "../reader/vector.h"
#include "../reader/error.h"
#include "table.h"
#include "hash.h"
#include "iset.h"

typedef enum agg_kind {
  AGG_COUNT_STAR, AGG_COUNT, AGG_SUM, AGG_TOTAL, AGG_AVG,
  AGG_MIN, AGG_MAX, AGG_GROUP_CONCAT, AGG_ANY_VALUE,
  AGG_JSON_ARRAY, AGG_JSON_OBJECT
} agg_kind;
/* Kinds whose state is a text (agg_text) each group builds. */
#define AGG_KIND_TEXT(k) ((k)==AGG_GROUP_CONCAT || (k)==AGG_JSON_ARRAY || (k)==AGG_JSON_OBJECT)

typedef struct agg_state {
  agg_kind kind;          /* which aggregate */
  int distinct;           /* DISTINCT: filter through dset first */
  int single;             /* a group by without keys: every row's group
                          ** is 0 (a DISTINCT set then holds values alone,
                          ** not (group, value) pairs) */
  uint32_t cap;           /* groups the state array holds */
  void *a;                /* per-group states (malloc'd, kind-specific) */
  uint64_t owned;         /* bytes of strings the states own */
  struct agg_zone *zone;  /* NULL, or the zone `a` is carved from
                          ** (agg/zone.h), which outlives the state */
  uint64_t text_max;      /* most bytes a group's text holds: SQLite's
                          ** default SQLITE_MAX_LENGTH, past which
                          ** group_concat and the json aggregates end with
                          ** "string or blob too big" (not growing without
                          ** bound); lower in tests */
  int toobig;             /* a group's text went past text_max */
  agg_table dset;         /* DISTINCT: set of (group, value) pairs */
  agg_hasher hs;          /* DISTINCT: hashing scratch */
  int64_t *g64;           /* DISTINCT: group of each batch row, as a key */
  uint64_t *h;            /* DISTINCT: hash of each batch row */
  uint32_t *tmp;          /* DISTINCT: slots / surviving positions */
  uint32_t scratch_cap;   /* rows the DISTINCT scratch arrays hold */
  uint64_t *cseen;        /* DISTINCT over a dictionary: (group, code)
                          ** pairs a batch has passed (open addressing) */
  uint32_t cseen_cap;     /* its slots, a power of two */
  /* DISTINCT without keys over a dictionary that outlives the batch
  ** (col_vector.dict_id): entries already passed to the set, so each
  ** reaches it once per row group rather than once per batch */
  uint8_t *dpassed;       /* per entry of dictionary dpassed_id */
  uint64_t dpassed_id;    /* the dictionary dpassed describes, 0 none */
  uint32_t dpassed_cap;   /* entries dpassed holds */
  uint32_t dpassed_n;     /* entries of dpassed_id it describes */
  /* DISTINCT over INTEGER values: (group, value) pairs in agg/iset.h's
  ** set, one cache line per probe. Used while every argument seen is
  ** INTEGER or NULL; the first batch with another storage class moves its
  ** pairs into dset (iset_off). */
  agg_iset iset;
  int iset_off;           /* dset holds the pairs from now on */
  uint32_t *g1;           /* DISTINCT: group + 1 of each pair (scratch) */
  uint32_t *fresh;        /* DISTINCT: positions of new pairs (scratch) */
  /* count(DISTINCT) over INTEGER values may hand part of its pairs to a
  ** helper thread (agg/distinct_split.h) once its set holds split_at */
  uint32_t split_at;      /* 0: never */
  uint32_t split_share;   /* quarters of the pairs the helper takes */
  struct agg_dsplit *split;   /* the helper, once started */
  /* min/max over a dictionary: the best entry of each group in a batch,
  ** found by ranks of the entries, then compared once with the state */
  int32_t *bcode;         /* per group: best code this batch, or -1 */
  uint32_t bcode_cap;     /* groups bcode holds */
  uint32_t *rank;         /* per dictionary entry: its rank (scratch) */
  uint32_t *order;        /* scratch for sorting entries, then touched groups */
  uint32_t rank_cap;      /* entries rank holds; order holds 2x */
  uint32_t *touch;        /* groups a batch touched (scratch) */
  uint32_t touch_cap;     /* entries touch holds */
  /* sum/total/avg: the sum of |INTEGER input| over every group, a bound
  ** on each group's partial integer sums in any order of its inputs; kept
  ** only for a lane (track_abs), where the order is not the rows' */
  double absum;
  int track_abs;
  /* sum/total/avg add as SQLite 3.43 and later do (col_dialect.sum_kbn):
  ** an exact integer sum until a REAL or an overflow, then a compensated
  ** double sum; 0: as 3.40, every input also added to a plain double sum */
  int kbn;
  /* total/avg of a lane, whose rows' sums are added in no order SQLite
  ** would use (README, Limitations): with one group, a batch's INTEGERs
  ** are summed exactly and the sum added once, not every input to a chain
  ** of double adds */
  int batch_sums;
  const col_dialect *dialect; /* text of a REAL for group_concat; NULL: 3.40 */
  /* min/max: per batch row, set during an update to AGG_HIT_TOOK where
  ** the row's value became the best, or SQLite's step had none yet (then
  ** select.c's updateAccumulator copies the row's columns: the keys a group
  ** is shown with), AGG_HIT_SKIPPED where it did not; rows the update does
  ** not see (DISTINCT duplicates) are left as they are. NULL: not kept. */
  uint8_t *hit;
} agg_state;
#define AGG_HIT_TOOK 1
#define AGG_HIT_SKIPPED 2

/* min/max: AGG_KEYREP_BITS bits per group for the caller (groupby.c keeps
** there the storage classes of the keys of the row SQLite shows a group
** from), zero at first. A merge takes src's where src's group ends with
** the better value, or where neither has one (src's rows come later):
** where the group's last min/max chose that row, so would one state fed
** both runs of rows. */
#define AGG_KEYREP_BITS 22
uint32_t agg_state_keyrep(const agg_state *s, uint32_t g);
void agg_state_set_keyrep(agg_state *s, uint32_t g, uint32_t bits);

/* A new state; 0 or -1 on OOM. */
int agg_state_init(agg_state *s, agg_kind kind, int distinct, int single);
void agg_state_free(agg_state *s);

/* Make room for groups 0..ngroup-1 (new ones start empty). */
int agg_state_reserve(agg_state *s, uint32_t ngroup, col_error *err);
/* The same, for ngroup groups and no more (agg_state_reserve doubles its
** way up to them): for a count foreseen before the groups come, where the
** rounding up was bytes to clear and carry for nothing. Past them the
** state grows by doubling again. */
int agg_state_reserve_exact(agg_state *s, uint32_t ngroup, col_error *err);

/* Threads updating disjoint groups of s at once (the groups of an ORDER BY
** aggregate's replay): each through a fork of s, which shares s's
** per-group states and counts on its own what the updates share (the
** bytes of text owned, a text grown too big); agg_state_join adds a
** fork's counts into s after. Only the text aggregates (group_concat,
** json_group_array, json_group_object) without DISTINCT touch nothing
** else shared: agg_state_forkable says which. s must have been reserved
** for every group the forks update, and is not updated itself meanwhile. */
int agg_state_forkable(const agg_state *s);
void agg_state_fork(const agg_state *s, agg_state *fork);
void agg_state_join(agg_state *s, const agg_state *fork);

/* count(DISTINCT x): once the set holds `pairs` INTEGER pairs, insert
** `quarters`/4 of them (1..3) on a thread of its own (agg/distinct_split.h).
** Call before the first update; a no-op for other aggregates. */
void agg_state_split_at(agg_state *s, uint32_t pairs, uint32_t quarters);

/* Bring a split count(DISTINCT)'s counts up to date (waits for the
** helper). Call after the last update, before results, and before s is
** merged into another state. */
int agg_state_settle(agg_state *s, col_error *err);

/* Add rows rows[0..n) (batch row indexes) of arg (NULL for count(*)) to
** groups gid[0..n). sep is group_concat's separator vector or NULL.
** nrow is the batch's row count (for DISTINCT scratch). rows/gid may be
** rewritten (DISTINCT compacts them). */
int agg_state_update(agg_state *s, const col_vector *arg, const col_vector *sep,
                     uint32_t nrow, uint32_t *rows, uint32_t *gid, uint32_t n,
                     col_error *err);

/* Fold src, the same aggregate over rows that all come after the rows s
** has seen, into s: src's group g is s's group map[g] (g < ng; s reserved
** for every map[g]; a group mapped to AGG_EMPTY is left out, except under
** DISTINCT). sep is group_concat's separator (a constant: NULL for
** none). DISTINCT feeds src's distinct values through s's own set. The
** result is what one state fed both runs of rows gives, except that REAL
** sums add two partial sums (within rounding of the serial sum) and an
** integer sum overflows when a partial or the total does. */
int agg_state_merge(agg_state *s, const agg_state *src, const uint32_t *map,
                    uint32_t ng, const pred_value *sep, col_error *err);

/* agg_state_merge into several states at once: src's group g goes to
** ds[part[g]] (part[g] < nds) at map[g]. One pass over src where a merge
** per destination read every group of src once per destination (a radix
** lane splitting its table into 256). Not for DISTINCT. */
int agg_state_merge_split(agg_state *const *ds, int nds, const uint8_t *part,
                          const agg_state *src, const uint32_t *map, uint32_t ng,
                          const pred_value *sep, col_error *err);

/* Keep groups g < ng with keep[g] set, moved down in order to 0, 1, ...;
** the others' states are dropped (what they own freed). Not for DISTINCT,
** whose set names groups. */
void agg_state_compact(agg_state *s, const uint8_t *keep, uint32_t ng);

/* After merges: can no integer sum of s have overflowed, in any order of
** its inputs? (Then sum()'s "integer overflow" error, which depends on the
** order, is decided the same way as serially: never.) */
int agg_state_sum_order_free(const agg_state *s);

/* The result of group g. TEXT may point into the state or into buf (>= 32
** bytes). Errors: sum's "integer overflow". */
int agg_state_result(const agg_state *s, uint32_t g, pred_value *out,
                     char *buf, col_error *err);

/* The error agg_state_result would give for some group < ngroup, if any:
** what a reader of every group's result meets. */
int agg_state_check(const agg_state *s, uint32_t ngroup, col_error *err);

/* Bytes held, by capacity, owned strings and the DISTINCT set included. */
uint64_t agg_state_footprint(const agg_state *s);

/* sum/total/avg (kind) of inputs that were all INTEGER and whose every
** partial sum stayed within +-2^53 (so the double sum SQLite keeps equals
** the integer one): isum their sum, cnt how many. */
void agg_sum_exact_result(agg_kind kind, int64_t isum, int64_t cnt, pred_value *out);

/* Set group g of a sum/total/avg state (reserved) to such inputs. */
void agg_state_set_sum(agg_state *s, uint32_t g, int64_t isum, int64_t cnt);
/* ... whose partial sums, in every group, were at most bound in magnitude. */
void agg_state_sum_bound(agg_state *s, double bound);

/* Parse an aggregate's name (case-insensitive): kind, or -1 if unknown. */
int agg_kind_from_name(const char *name, int n);

#endif
