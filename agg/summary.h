/*
** summary.h — a zero-key group by answered from metadata alone.
**
** count(*), count(col), min(col) and max(col) over every row are often
** written down in a file's footer (Parquet statistics). When each aggregate
** of a group by with no keys is one of these over a plain column, and the
** dataset's summary (col_dataset_methods.summary) states it exactly, the
** one output row needs no data read at all.
*/
#ifndef COLUMNAR_AGG_SUMMARY_H
#define COLUMNAR_AGG_SUMMARY_H

#include "groupby.h"
#include "../reader/dataset.h"

/* The group by's one row from ds's metadata: 1 with *row a malloc'd array
** of groupby_ncols(gb) values (TEXT/BLOB in malloc'd copies; free with
** groupby_summary_free), or 0 when some aggregate cannot be answered so
** (keys, DISTINCT, an expression, another aggregate, a fact the metadata
** lacks, or out of memory): then the caller scans. The caller checks that
** no filter applies. */
int groupby_from_summary(const groupby *gb, col_dataset *ds, pred_value **row);
void groupby_summary_free(pred_value *row, int n);

#endif
