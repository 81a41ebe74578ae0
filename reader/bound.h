/*
** bound.h — a limit on one column's values that a scan's consumer
** tightens while the scan runs.
**
** A top-k (ORDER BY ... LIMIT, ext/scan_topk.h) that holds its k rows
** knows that no row whose first ORDER BY term sorts after the k-th row's
** value can enter: for ClickBench's `SearchPhrase <> '' ORDER BY EventTime
** LIMIT 10`, after the first row group nothing later than the first
** minute of the month. It publishes that value here, and a reader that
** honours the bound skips every row group whose statistics show no value
** at or before it (at or after it, for DESC), without decoding a column.
** The value only ever tightens, so a row group skipped is skipped rightly
** whenever the check ran; a reader that ignores the bound (CSV) is right
** too, only slower.
**
** The consumer sets it between batches; workers decoding ahead read it
** when they start a row group, under its lock.
*/
#ifndef COLUMNAR_BOUND_H
#define COLUMNAR_BOUND_H

#include "scan.h"

typedef struct col_bound col_bound;

/* A bound on source column col, none published yet. desc: the consumer
** wants the largest values (rows at or above the bound); else the
** smallest (at or below it). nulls_first: NULL sorts before every value
** in the consumer's order, so a row group that may hold a NULL is never
** skipped. NULL when out of memory. */
col_bound *col_bound_new(int col, int desc, int nulls_first);
void col_bound_free(col_bound *b);

/* Publish v (INTEGER, REAL, TEXT or BLOB; its bytes are copied). Returns
** COL_OK, or COL_ENOMEM with the bound as it was (looser, so still right). */
int col_bound_set(col_bound *b, const pred_value *v);

/* The bound now, as a predicate on its column: `col <= v` (`>=` for
** desc), BINARY, not exact; v's bytes in a malloc'd copy at *owned that
** the caller frees. *nulls_first as given to col_bound_new. Returns 0
** when nothing is published (or on out of memory: nothing to skip by),
** else 1. */
int col_bound_pred(col_bound *b, scan_pred *p, char **owned, int *nulls_first);

#endif
