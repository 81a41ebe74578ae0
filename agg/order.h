/*
** order.h — the first rows of a group by's output under an ORDER BY.
**
** When SQLite hands group_by an ORDER BY over its output columns together
** with a LIMIT, the table returns just the rows the LIMIT keeps, already in
** order, instead of every group for SQLite's sorter to copy and sort (at
** millions of groups that copy costs as much as the aggregation). Values
** compare as SQLite's ORDER BY compares them under BINARY collation
** (sqlite3MemCompare: NULL first ascending, INTEGER and REAL numerically,
** TEXT by bytes, BLOB last); a REAL NaN is NULL, as SQLite shows it. Rows
** that tie on every term keep their output order, so the answer is the
** first k rows of a stable sort.
*/
#ifndef COLUMNAR_AGG_ORDER_H
#define COLUMNAR_AGG_ORDER_H

#include <stdint.h>
#include "groupby.h"

typedef struct groupby_sort_term {
  int col;                /* output column */
  int desc;               /* descending */
} groupby_sort_term;

/* A group where it lies (groupby_value_at): partition and slot. */
#define GROUPBY_GROUP(part, slot) (((uint64_t)(uint32_t)(part)<<32) | (uint32_t)(slot))
#define GROUPBY_GROUP_PART(g) ((int)((g)>>32))
#define GROUPBY_GROUP_SLOT(g) ((uint32_t)(g))

/* The first min(k, groups) output rows of finished gb under terms[0..nterm),
** as groups (GROUPBY_GROUP) into *groups (malloc'd; the caller frees) and
** *n. The groups are read where they lie, so the output's row order is
** never built. Errors: out of memory, or a value's own error (sum's
** "integer overflow"). */
int groupby_order(const groupby *gb, const groupby_sort_term *terms, int nterm,
                  uint64_t k, uint64_t **groups, uint32_t *n, col_error *err);

#endif
