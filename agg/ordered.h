/*
** ordered.h — an aggregate with ORDER BY inside its call
** (group_concat(x, ', ' ORDER BY y DESC)), computed as SQLite 3.44 and
** later compute it.
**
** SQLite does not step such an aggregate as rows arrive. It stores each
** row's ORDER BY values and arguments in a sorter of the aggregate's own,
** with a sequence number, and when the group ends steps the aggregate over
** the stored rows in ORDER BY order, ties in the order the rows arrived
** (select.c: updateAccumulator, finalizeAggFunctions). agg_ordbuf does the
** same for every group of a partition at once: rows are appended in row
** order with their group; when the scan ends they are put in group order
** (a counting sort) and each group's run is sorted by the terms, stably, so
** ties keep row order, which their positions already are (a radix sort on
** a word per row that orders as the first term does, then the comparison
** for equal words: ord_prefixes), then fed in that order to the
** aggregate's ordinary state (agg_state_update), which then gives its
** usual answer.
**
** Terms compare as SQLite's sorter compares them under BINARY collation
** (NULL < numbers < TEXT < BLOB; ASC puts NULLs first and DESC last unless
** NULLS FIRST/LAST says otherwise). DISTINCT: SQLite keeps the first row
** (in row order) of each distinct argument and sorts those, except when
** the single ORDER BY term is the argument itself: then the sorter's unique
** key does the work, and of equal values (1 and 1.0) the row stored last
** stays. Either way only one row per (group, value) pair is held: a set of
** the pairs finds a row's pair already stored, and the row is dropped, or
** overwrites it. While every value is an INTEGER the set is an agg_iset
** (equal INTEGERs are identical, so there is nothing to overwrite); the
** first other value moves it into an agg_table, whose slots are the stored
** rows' positions. Rows whose first argument is NULL are never stored:
** every aggregate here skips them, and count(*) takes no ORDER BY.
*/
#ifndef COLUMNAR_AGG_ORDERED_H
#define COLUMNAR_AGG_ORDERED_H

#include <stdint.h>
#include "../reader/vector.h"
#include "../reader/error.h"
#include "aggregate.h"
#include "hash.h"
#include "iset.h"
#include "table.h"

#define AGG_ORD_ALL 0           /* every row */
#define AGG_ORD_FIRST 1         /* DISTINCT: each value's first row */
#define AGG_ORD_LAST 2          /* DISTINCT ORDER BY the argument: last row */

/* One stored column: a term's or an argument's value for every stored
** row. An INTEGER is its value in w, a REAL its bits, a TEXT/BLOB the
** offset in the heap of its len bytes. type stays NULL while every value
** is an INTEGER, len until the first TEXT/BLOB: a timestamp's or an
** integer column's row takes 8 bytes, where a tagged value took 16. */
typedef struct agg_ordcol {
  int64_t *w;
  uint8_t *type;          /* CV_NULL .. CV_BLOB */
  uint32_t *len;
} agg_ordcol;

typedef struct agg_ordbuf {
  int nterm;              /* ORDER BY terms */
  uint8_t *desc;          /* per term: DESC (malloc'd: a lane's buffer
                          ** outlives the lane's parsed terms) */
  uint8_t *nulls_first;   /* per term: NULLs sort first */
  uint8_t *ts_unit;       /* per term: a timestamp column read as its
                          ** integers (COL_TS_*), else 0 */
  uint8_t *ts_text;       /* per such term: a value outside years
                          ** 0000-9999 came, so every value is its text */
  int narg;               /* arguments stored (1, or 2 with a separator) */
  int has_sep;            /* a constant separator, held once (narg 1) */
  pred_value sep;         /* its value; TEXT/BLOB bytes in sep_bytes */
  char *sep_bytes;
  int distinct;           /* AGG_ORD_* */
  uint32_t n;             /* rows stored */
  uint32_t cap;           /* rows gid and cols have room for */
  uint32_t *gid;          /* each row's group */
  agg_ordcol *cols;       /* nterm terms, then narg arguments */
  char *heap;             /* TEXT/BLOB bytes */
  uint64_t heap_len, heap_cap;
  /* DISTINCT: the (group, argument) pairs stored */
  agg_iset iset;          /* while every argument was an INTEGER */
  int iset_off;           /* pairs has taken over */
  agg_table pairs;        /* then: pair slot s is stored row s */
  agg_hasher hs;
  int64_t *g64;           /* scratch per batch row: its group (pairs) */
  uint64_t *h;            /* per candidate: its pair's hash */
  uint32_t *slot;         /* its pair's slot (pairs), or group + 1 (iset) */
  int64_t *ival;          /* its INTEGER (iset) */
  uint32_t *sel;          /* the candidates (rows with a non-NULL argument) */
  uint32_t *gsel;         /* their groups */
  uint32_t scap;          /* batch rows the scratch holds */
  uint64_t *cseen;        /* agg_codes_first's table (iset.h) */
  uint32_t cseen_cap;
  /* while sorting: when every non-NULL first term has one class (pfx_cls,
  ** else CV_NULL), each row's first term as a word that orders as the
  ** value does: numbers map to ordered bits (computed when needed), TEXT
  ** and BLOB to the 8 bytes where values differ (kept in pfx) */
  int pfx_cls;
  uint64_t *pfx;
  uint32_t pfx_from;      /* TEXT/BLOB: equal words, bytes before this agree */
} agg_ordbuf;

/* An empty buffer over terms with desc, nulls_first and ts_unit (nterm
** each, copied; ts_unit NULL: none is a timestamp). A term with a ts_unit
** comes as the column's integers, and is stored as them while they are in
** years 0000-9999, where they order as the reader's text does: from the
** first other value on, as that text. 0, or -1 on OOM. */
int agg_ordbuf_init(agg_ordbuf *o, int nterm, const uint8_t *desc,
                    const uint8_t *nulls_first, const uint8_t *ts_unit,
                    int narg, int distinct);
void agg_ordbuf_free(agg_ordbuf *o);

/* The separator is sep for every row (a constant expression): it is fed
** with each row at replay rather than stored with it. The buffer was made
** with narg 1; sep's bytes are copied. 0, or -1 on OOM. */
int agg_ordbuf_const_sep(agg_ordbuf *o, const pred_value *sep);

/* Store rows rows[0..n) (ascending) of a batch of nrow rows for groups
** gid[0..n): the terms' vectors term[0..nterm), the argument arg and the
** separator sep (NULL when narg is 1, ignored under a constant one).
** Batches come in row order. Errors:
** out of memory, more than 2^31-1 rows. */
int agg_ordbuf_add(agg_ordbuf *o, const col_vector *const *term,
                   const col_vector *arg, const col_vector *sep, uint32_t nrow,
                   const uint32_t *rows, const uint32_t *gid, uint32_t n,
                   col_error *err);

/* Sort what is stored and feed it to s (reserved for every group stored),
** then empty the buffer. check (may be NULL) is called between groups
** while sorting and between chunks of rows fed: nonzero stops with
** COL_EINTERRUPT (a sort of millions of rows takes seconds). */
typedef int (*agg_ordbuf_check)(void *ctx);
int agg_ordbuf_replay(agg_ordbuf *o, agg_state *s, agg_ordbuf_check check, void *ctx,
                      col_error *err);

/* agg_ordbuf_replay for the groups g with want[g] set alone (want NULL:
** all), leaving the buffer as it is: the rest may be replayed later, by
** another call whose want sets only those. */
int agg_ordbuf_replay_groups(agg_ordbuf *o, const uint8_t *want, agg_state *s,
                             agg_ordbuf_check check, void *ctx, col_error *err);

/* agg_ordbuf_replay in parts, for threads to share one buffer's groups:
** a plan lays the stored rows out by group (o must stay as it is while the
** plan lives), those of groups g with want[g] set (want NULL: all; want
** covers every group stored); agg_ordplan_run then sorts and feeds the runs of groups
** [g0, g1) into s, and runs over disjoint groups may go at once (each with
** a state of its own whose per-group array is s's: agg_state_update
** touches only the groups' own states then, save for counters the caller
** adds up). agg_ordplan_free frees the plan (not the buffer). */
typedef struct agg_ordplan agg_ordplan;
int agg_ordbuf_plan(agg_ordbuf *o, const uint8_t *want, agg_ordplan **out, col_error *err);
uint32_t agg_ordplan_groups(const agg_ordplan *p);
/* Rows of groups [g0, g1). */
uint32_t agg_ordplan_rows(const agg_ordplan *p, uint32_t g0, uint32_t g1);
int agg_ordplan_run(agg_ordplan *p, uint32_t g0, uint32_t g1, agg_state *s,
                    agg_ordbuf_check check, void *ctx, col_error *err);
void agg_ordplan_free(agg_ordplan *p);

/* Parallel lanes (no DISTINCT): src holds rows that all come after dst's.
** Each row of src whose group g has map[g] != AGG_EMPTY moves to the end
** of dst as a row of group map[g] (its bytes copied); the others stay. */
int agg_ordbuf_move(agg_ordbuf *dst, agg_ordbuf *src, const uint32_t *map,
                    uint32_t ng, col_error *err);

/* Drop the rows moved away and rename the groups of the others: group g
** becomes slot[g] (g < ng; every remaining row's group has one). */
void agg_ordbuf_compact(agg_ordbuf *o, const uint32_t *slot, uint32_t ng);

/* Bytes agg_ordbuf_replay takes while it sorts (at most). */
uint64_t agg_ordbuf_sort_bytes(const agg_ordbuf *o);

/* Bytes the buffer holds. */
uint64_t agg_ordbuf_footprint(const agg_ordbuf *o);

#endif
