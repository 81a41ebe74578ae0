/*
** ts_pred.h — a comparison of a timestamp's or a date's text with a TEXT
** value, made on the column's stored integers.
**
**   WHERE EventTime >= '2013-07-15 12:00:00' AND EventTime < '2013-07-15 13:00:00'
**
** SQLite compares the text the reader shows ('YYYY-MM-DD HH:MM:SS[.fff]',
** 'YYYY-MM-DD'); formatting it for every row of a row group, to compare
** it, cost twice the decoding. In years 0000-9999 that text orders as the
** stored integer does and no two integers share a text, so the rows whose
** text is at least L are the integers from some x0 on. x0 is found once
** per row group by a binary search over the integers, formatting some
** sixty values; every row then costs an integer compare. A value outside
** those years (its text is signed, or has five digits, and orders
** otherwise) is formatted and compared as text.
**
** For the operators =, <>, <, <=, >, >= under BINARY, with a TEXT value,
** over a flat TIMESTAMP (INT64) or DATE (INT32) column: pq_ts_pred_ok.
** NULLs fail every one of them, as in SQLite.
*/
#ifndef COLUMNAR_PARQUET_TS_PRED_H
#define COLUMNAR_PARQUET_TS_PRED_H

#include "schema_tree.h"
#include "../predicate.h"

typedef struct pq_ts_pred {
  const scan_pred *p;        /* the predicate (its value, the text L) */
  int kind;                  /* PQC_TIMESTAMP or PQC_DATE */
  int unit;                  /* PQC_TIMESTAMP: PQ_UNIT_* */
  int64_t lo, hi;            /* integers in years 0000-9999: [lo, hi) */
  int64_t x0;                /* the first in [lo, hi) whose text passes
                             ** >= L (GE, LT, EQ, NE) or > L (GT, LE);
                             ** hi when none does */
  int eq;                    /* EQ, NE: the text of x0 is L */
} pq_ts_pred;

/* Can p over a column of conversion conv be made on its integers? */
int pq_ts_pred_ok(const scan_pred *p, const pq_conv *conv);

/* Can every exact predicate of spec on field (of conversion conv) be
** made on its integers? One that needs the text would format it all the
** same, so the column is then read as text. */
int pq_ts_preds_ok(const scan_spec *spec, int field, const pq_conv *conv);

/* Set t up for p over conv (pq_ts_pred_ok). */
void pq_ts_pred_init(pq_ts_pred *t, const scan_pred *p, const pq_conv *conv);

/* The rows of sel[0..nsel) whose value in v (the column's integers, any
** form) passes, compacted in place; returns how many. all: sel is not
** written yet and every row 0..v->n is a candidate (nsel is then v->n). */
uint32_t pq_ts_pred_filter(const pq_ts_pred *t, const col_vector *v, uint32_t *sel,
                           uint32_t nsel, int all);

#endif
