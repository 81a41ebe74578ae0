/*
** plan.h — xBestIndex to ScanSpec: the plan protocol of the scan tables.
*/
#ifndef COLUMNAR_PLAN_H
#define COLUMNAR_PLAN_H

#include "sqlite3ext.h"
#include "../reader/dataset.h"
#include "scan_topk.h"

/* A scan_spec built in xFilter, with the memory its arrays use. */
typedef struct scan_plan {
  scan_spec spec;            /* what the reader gets */
  int *proj;                 /* projection (sqlite3_malloc'd) */
  uint8_t *lazy;             /* spec.lazy (sqlite3_malloc'd), or NULL */
  scan_pred *preds;          /* predicates (sqlite3_malloc'd) */
  int npred_alloc;
  void **mem;                /* literal copies and IN lists to free */
  int nmem, cap_mem;
  int nsort;                 /* ORDER BY terms consumed with a LIMIT
                             ** (scan_topk.h), 0: none */
  topk_term sort[SCAN_TOPK_MAX_TERMS];   /* bcol: source column */
  uint32_t sort_k;           /* rows to keep: LIMIT + OFFSET */
  uint32_t sort_first;       /* rows the first fetch reads (0: sort_k): a
                             ** LIMIT SQLite did not show the table */
  col_dialect dialect;       /* the connection's, as of xFilter: every
                             ** predicate points here */
} scan_plan;

/* xBestIndex for a scan table over ds; or_in_exact: the connection's
** SQLite keeps an OR whose branches carry a COLLATE from becoming an IN
** (col_dialect.or_in_keeps_collation). */
int scan_plan_best_index(sqlite3 *db, const col_dataset *ds, int or_in_exact,
                         sqlite3_index_info *info);

/* Could constraint i be an IN SQLite made of an OR of = on one column
** (x COLLATE NOCASE = 'a' OR x = 'b') whose branches' collations differ,
** which SQLite before 3.53 offers under one branch's collation for all?
** Being an IN is the only sign. The callers ask for columns whose values
** may be TEXT:
**   PLAN_IN_PLAIN     no;
**   PLAN_IN_SUPERSET  maybe, an IN the table takes whole: applied under
**                     COLL_ANY, a superset, and SQLite checks its OR;
**   PLAN_IN_REFUSE    maybe, past constraint 31, where an IN comes as an =
**                     with no sign at all and SQLite loops over its values:
**                     a loop's rows are never checked against the OR, so
**                     no superset will do; the term is left to SQLite. */
enum { PLAN_IN_PLAIN, PLAN_IN_SUPERSET, PLAN_IN_REFUSE };
int scan_plan_in_suspect(sqlite3_index_info *info, int i, int or_in_exact);

/* Build the spec for idxStr/argv (xFilter). On error sets *errmsg. */
int scan_plan_build(const col_dataset *ds, const char *idxStr, int argc,
                    sqlite3_value **argv, int threads, const col_dialect *dialect,
                    scan_plan *plan, char **errmsg);
void scan_plan_free(scan_plan *plan);

/* v as a pred_value, no affinity applied; TEXT and BLOB bytes are v's own
** (valid while v is). */
pred_value scan_plan_value_of(sqlite3_value *v);

/* Whether a comparison (not LIKE or GLOB) on a column may be applied by the
** table, from what xBestIndex sees of it: the column is TEXT, the operator
** is = or IS, its right side if known (sqlite3_vtab_rhs_value, else NULL),
** and the column has a LIKE or GLOB beside it. The scan tables and
** group_by's keys both ask (ext/plan.c says why). */
#define PLAN_RHS_SQLITE 0     /* leave it to SQLite */
#define PLAN_RHS_EXACT 1      /* apply it exactly (SQLite omits it) */
#define PLAN_RHS_TEXT_ONLY 2  /* apply it when the value is not a number;
                              ** SQLite checks it too */
int scan_plan_rhs_use(int text_col, int eq, sqlite3_value *rhs, int beside_like);
/* The columns (below 64) with a usable LIKE or GLOB constraint, a bit each:
** beside_like for scan_plan_rhs_use. */
uint64_t scan_plan_like_cols(const sqlite3_index_info *info);

#endif
