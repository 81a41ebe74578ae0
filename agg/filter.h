/*
** filter.h — group_by's filter= option: a WHERE clause made into scan_preds.
**
**   filter = 'AdvEngineID <> 0 AND URL LIKE ''%google%'' AND d BETWEEN 1 AND 9'
**
** Accepted: conjunctions (AND) of `column op literal` (op: = == != <> < <=
** > >=, IS, IS NOT; the literal may also come first), `column IS [NOT]
** NULL` / ISNULL / NOTNULL, `column LIKE literal [ESCAPE 'c']`, `column
** GLOB literal`, `column IN (literal, ...)`, `column BETWEEN a AND b` (two
** predicates). The literal gets the column's affinity as SQLite would give
** it (declared INTEGER/REAL: numeric text becomes a number; TEXT: a number
** becomes its text). Every predicate is exact: the reader applies it and no
** one checks again. Any other AND-term (OR, NOT LIKE, NOT, expressions,
** functions, comparisons between columns) is parsed as an expression (see
** expr.h) and kept in `where`: the group by evaluates it on each batch after
** the scan and keeps the rows where it is true (non-NULL, non-zero).
** The AND-terms are those SQLite's planner sees (agg_where_split): split
** at any depth of parentheses, and with the column references SQLite's
** constant propagation fixes written as constants; a term holding one stays
** in `where`, where it may read no column and be computed once, before the
** scan, as SQLite computes it.
*/
#ifndef COLUMNAR_AGG_FILTER_H
#define COLUMNAR_AGG_FILTER_H

#include "../reader/scan.h"
#include "../reader/error.h"

typedef struct agg_filter {
  int npred;              /* predicates */
  scan_pred *preds;       /* malloc'd array of npred */
  int nmem;               /* owned blocks */
  void **mem;             /* literal bytes and IN lists (malloc'd) */
  char *where;            /* the terms not pushed, "(t1) AND (t2)", or NULL
                          ** (malloc'd): pass as groupby_options.where */
} agg_filter;

/* Parse text (NULL or blank: no predicate) over schema; numbers that
** become text take the form the SQLite d describes gives them (NULL:
** 3.40's). */
int agg_filter_parse(const char *text, const col_schema *schema,
                     const col_dialect *d, agg_filter *out, col_error *err);
void agg_filter_free(agg_filter *f);

/* Apply the affinity of a column declared `decl` to a literal v, as SQLite
** does to the constant side of a comparison. TEXT results are written to
** buf (>= 40 bytes) when converted from numbers, as the SQLite d
** describes writes them. */
pred_value agg_apply_affinity(const char *decl, pred_value v, const col_dialect *d,
                              char *buf);

#endif
