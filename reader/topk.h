/*
** topk.h — the first k rows of a scan under an ORDER BY, in SQLite's order.
**
**   topk *t;
**   topk_term terms[] = { { 0, 0 } };            // batch column 0, ASC
**   topk_new(terms, 1, 10, &t);
**   while( next(src, &b)==0 && b ) topk_add(t, b);
**   const int64_t *rows = topk_rows(t, &n);      // row numbers, in order
**
** Rows are ordered by the terms, then by row number (col_batch.first_row
** numbering), so the order is total: a larger k gives a longer prefix of the
** same order, and ties keep file order as SQLite's sorter keeps the order
** rows arrive in. Values compare as SQLite's ORDER BY compares them under
** BINARY: NULL first, INTEGER and REAL by value, then TEXT by bytes, then
** BLOB; a REAL NaN is NULL (SQLite receives it as NULL); DESC reverses a
** term, NULLs included. Batches must come in row order, as scans give them.
**
** The k kept rows live in a binary heap with the row that sorts last on
** top, so a row that cannot enter costs one comparison with the top.
*/
#ifndef COLUMNAR_TOPK_H
#define COLUMNAR_TOPK_H

#include <stdint.h>
#include "vector.h"
#include "scan.h"
#include "error.h"

typedef struct topk_term {
  int bcol;               /* the term's column in the batches */
  int desc;               /* 1: DESC */
} topk_term;

typedef struct topk topk;

/* k >= 1 rows over nterm >= 1 terms. COL_OK or COL_ENOMEM. */
int topk_new(const topk_term *terms, int nterm, uint32_t k, topk **out);
void topk_free(topk *t);

/* Offer b's live rows. COL_OK or COL_ENOMEM. */
int topk_add(topk *t, const col_batch *b);

/* The kept rows' numbers, first in order first; *n of them (at most k,
** fewer when fewer rows were offered). Valid until topk_free. */
const int64_t *topk_rows(topk *t, uint32_t *n);

/* Rows offered so far. */
uint64_t topk_offered(const topk *t);

/* Once k rows are kept: the first term's value of the row that sorts
** last (no row whose first term sorts after it can enter), into *v, its
** bytes valid until the next topk_add; returns 1. Else 0. */
int topk_last_first(const topk *t, pred_value *v);

#endif
