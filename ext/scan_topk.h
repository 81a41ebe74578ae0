/*
** scan_topk.h — ORDER BY ... LIMIT over a scan table, consumed by the table.
**
**   SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 10
**
** SQLite's plan reads every matching row whole and keeps ten in its sorter:
** with matches in every row group, that decodes all 105 columns of the
** file. Here the scan runs twice instead. The first pass reads the
** predicates' and the ORDER BY's columns alone and keeps the LIMIT+OFFSET
** rows that sort first (reader/topk.h); the second fetches just those rows
** (scan_spec.rows), which decodes only the row groups, and pages, that
** hold them. Rows come out in order, ties in file order.
**
** SQLite 3.40 offers the LIMIT even when it still filters rows by a WHERE
** term it never showed the table (x = y on two columns), so it may read
** past the rows kept. The cursor then runs the first pass again for four
** times as many and goes on; the order is total (ties broken by row
** number), so the rows already returned are the new pass's first ones.
*/
#ifndef COLUMNAR_SCAN_TOPK_H
#define COLUMNAR_SCAN_TOPK_H

#include "sqlite3ext.h"
#include "../reader/dataset.h"
#include "../reader/topk.h"

#define SCAN_TOPK_MAX_TERMS 8
#define SCAN_TOPK_MAX_ROWS 65536   /* LIMIT + OFFSET the table consumes */
#define SCAN_TOPK_CHUNK_VALUES (1u<<21)  /* values fetched at once, at most */
#define SCAN_TOPK_BLIND_FIRST 10   /* rows first fetched when the LIMIT is
                                   ** unknown (plan.c: plan_blind_topk_ok) */

typedef struct scan_topk scan_topk;

/* The first pass over ds for spec (its projection is what the cursor
** returns; its predicates select the rows), keeping k rows by terms (bcol
** = source column). first (0: all k) is how many of them the first fetch
** reads; should SQLite read past those, the next fetch reads all the rest
** it can hold. That is for a LIMIT the table was not told of: a fetch of
** a few rows reads only the row groups that hold them, so LIMIT 10 is
** cheap, while a statement that reads on pays for one small fetch more.
** (A middle fetch of 40 rows, tried, made LIMIT 25 twice as fast and
** every larger LIMIT 1.4 times slower: 40 rows touch most row groups.)
** poll (may be NULL) is called between batches; nonzero stops with
** COL_EINTERRUPT. */
int scan_topk_open(col_dataset *ds, const scan_spec *spec, const topk_term *terms,
                   int nterm, uint32_t k, uint32_t first, int (*poll)(void*),
                   void *poll_ctx, scan_topk **out, col_error *err);
void scan_topk_free(scan_topk *t);

/* Move to the next row (fetching it, and the next passes, as needed). */
int scan_topk_next(scan_topk *t, col_error *err);
int scan_topk_eof(const scan_topk *t);
/* Projection entry k of the current row (TEXT/BLOB owned by t). */
const pred_value *scan_topk_value(const scan_topk *t, int k);
int64_t scan_topk_rowid(const scan_topk *t);
/* What the passes so far read, summed (for scan_stats()). */
const scan_stats *scan_topk_stats(const scan_topk *t);

#endif
