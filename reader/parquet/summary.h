/*
** summary.h — a column's rows, NULLs, min and max from the footers alone
** (col_dataset_methods.summary of the Parquet dataset).
*/
#ifndef COLUMNAR_PARQUET_SUMMARY_H
#define COLUMNAR_PARQUET_SUMMARY_H

#include "parquet.h"
#include "schema_tree.h"

/* Summarize top-level field col over files[0..nfile) (schemas[i] is file
** i's). A col past the fields (the filename column) gets rows only. */
void pq_summarize(pq_file *const *files, const pq_schema *schemas, int nfile,
                  int col, col_summary *out);

#endif
