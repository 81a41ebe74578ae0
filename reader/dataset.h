/*
** dataset.h — a file or set of files opened once, scanned many times.
**
** The virtual table holds one col_dataset for its lifetime (opened in
** xCreate/xConnect, so the footer or the CSV sniff happens once); each xFilter
** asks it for a batch_source with a scan_spec. The Parquet and CSV readers
** both implement this, and SQLite-facing code only ever talks to this.
*/
#ifndef COLUMNAR_DATASET_H
#define COLUMNAR_DATASET_H

#include "scan.h"

typedef struct col_dataset col_dataset;

/* What a format's metadata alone says of one column over every row of the
** dataset (no data read): enough to answer count(*), count(col), min(col)
** and max(col) exactly as SQLite would over the scanned values. */
typedef struct col_summary {
  int64_t rows;             /* rows in the dataset */
  int has_nulls;            /* nulls is exact */
  int64_t nulls;            /* values SQLite sees as NULL */
  int has_range;            /* min/max are exactly what SQLite's min() and
                            ** max() give (CV_NULL when no value is
                            ** non-NULL) */
  pred_value min, max;      /* TEXT/BLOB point into buf or into the
                            ** dataset: valid while both are unchanged */
  char buf[2][128];         /* formatted min, max */
} col_summary;

typedef struct col_dataset_methods {
  /* Start a scan. On success *out is a new source the caller must close. */
  int (*scan)(col_dataset *ds, const scan_spec *spec, batch_source **out,
              col_error *err);
  /* Rows the spec is expected to return (statistics-based, may be rough). */
  double (*estimate_rows)(col_dataset *ds, const scan_spec *spec);
  /* Source column indexes the data is known to be sorted by (ascending on
  ** all), e.g. from Parquet sorting_columns; *n set to 0 when unknown. The
  ** array is owned by the dataset. */
  const int *(*sorted_by)(col_dataset *ds, int *n, const int **descending);
  void (*close)(col_dataset *ds);
  /* Optional (NULL when the format keeps no usable metadata, as CSV):
  ** fill *out for source column col; what is unknown is left unset. */
  void (*summary)(col_dataset *ds, int col, col_summary *out);
  /* Optional: rows of the parts that statistics cannot exclude under the
  ** spec's predicates (no guessed selectivity: an upper bound on the rows
  ** a scan decodes), at no I/O. */
  int64_t (*rows_unpruned)(col_dataset *ds, const scan_spec *spec);
} col_dataset_methods;

struct col_dataset {
  const col_dataset_methods *m;
  col_schema schema;        /* columns SQL sees, filename column included */
  int64_t total_rows;       /* rows in all files, -1 if unknown (CSV) */
  int64_t total_bytes;      /* size of all files */
  int shardable;            /* scans accept scan_spec.nshard>1 */
  int splittable;           /* ... and scan_spec.split */
  int64_t nparts;           /* units a shard is made of (Parquet: row
                          ** groups of all files), 0 when unknown */
  int row_select;           /* scans accept scan_spec.rows */
  int refs;                 /* owners besides the one that opened it
                          ** (col_dataset_retain); 0 when opened */
};

/* Another owner of ds: a group_by over a scan table reads the table's
** dataset rather than opening the files (and decoding a footer) again.
** Metadata is immutable once open and scans keep their own state, so
** owners may scan side by side. Owners are added and released on one
** thread (the connection's). */
static inline col_dataset *col_dataset_retain(col_dataset *ds){ ds->refs++; return ds; }
/* Drop one owner; the last closes ds. */
static inline void col_dataset_release(col_dataset *ds){
  if( ds==0 ) return;
  if( ds->refs>0 ){ ds->refs--; return; }
  ds->m->close(ds);
}

#endif
