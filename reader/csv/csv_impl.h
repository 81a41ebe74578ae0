/*
** csv_impl.h — what the CSV dataset, its row builder and its scans share.
**
**   dataset.c   csv_dataset_open: files, sniffing, schema
**   build.c     tokenized records -> column vectors (type checks, on_error)
**   scan.c      the serial batch_source (and the per-file preamble)
**   parallel.c  byte-range chunks parsed by worker threads, in file order
*/
#ifndef COLUMNAR_CSV_IMPL_H
#define COLUMNAR_CSV_IMPL_H

#include "csv.h"
#include "tokenize.h"
#include "input.h"
#include "../arena.h"
#include "../predicate.h"

/* Bytes read per block by the serial scan. */
#define CSV_BLOCK (4u<<20)
/* Column bytes a batch should span (rows x read columns x CSV_VALUE_BYTES,
** a value's tag and slot): small enough to stay in L2 between the builder
** writing it and SQLite reading it. Batches keep at least CSV_BATCH_MIN
** rows. */
#define CSV_BATCH_BYTES (256u<<10)
#define CSV_VALUE_BYTES 16u
#define CSV_BATCH_MIN 64u

typedef struct csv_ds {
  col_dataset base;       /* schema, totals; must be first */
  int nfiles;             /* files in glob order */
  char **files;           /* paths (malloc'd) */
  int64_t *sizes;         /* bytes per file */
  char *data;             /* inline data copy (malloc'd), or NULL */
  size_t data_len;        /* bytes in data */
  csv_dialect d;          /* sniffed or given dialect */
  int header;             /* every file starts with a header record */
  int skip;               /* lines skipped at the start of every file */
  int on_error;           /* CSV_ON_ERROR_* */
  int all_text;           /* csv.c mode: '' for empty fields */
  int ragged_ok;          /* columns=N given: pad/truncate rows silently */
  int nnulls;             /* null strings */
  char **nulls;           /* (malloc'd) */
  uint32_t *nulllen;      /* their lengths */
  int ncols;              /* CSV columns (the filename column excluded) */
  int *kinds;             /* CSV_T_* per column */
  int filename_col;       /* schema index of `filename`, or -1 */
  int threads;            /* default threads from the options */
  double avg_record;      /* bytes per record in the sample */
  int all_raw;            /* every file is uncompressed (parallel scans) */
} csv_ds;

/* One column being filled. */
typedef struct csv_colbuf {
  int col;                /* source column index */
  int kind;               /* CSV_T_* */
  uint8_t vtype;          /* CV_INT / CV_REAL / CV_TEXT */
  uint8_t mixed;          /* some row's tag differs from vtype */
  uint8_t *tags;          /* per-row storage class */
  int64_t *i64;           /* INT and BOOL values */
  double *f64;            /* REAL values */
  cv_str *str;            /* TEXT values, and on_error=text exceptions */
} csv_colbuf;

/* Rows of one file being converted into columns. */
typedef struct csv_builder {
  const csv_ds *ds;       /* options and kinds */
  int ncol;               /* columns in the read set */
  csv_colbuf *c;          /* one per read column */
  uint32_t n;             /* rows built */
  uint32_t cap;           /* rows the arrays hold */
  uint32_t maxcap;        /* growth limit (batch or chunk rows) */
  col_arena arena;        /* unescaped and normalized strings */
  int64_t skipped;        /* rows dropped by on_error=skip */
  const char *fname;      /* file name for messages */
} csv_builder;

/* readcols[0..nread) source columns (< ds->ncols). */
int csv_builder_init(csv_builder *b, const csv_ds *ds, int nread,
                     const int *readcols, uint32_t cap, uint32_t maxcap);
void csv_builder_free(csv_builder *b);
/* Forget the rows (and the arena) but keep the arrays. */
void csv_builder_reset(csv_builder *b);
/* Convert the record tokenized in t at rec, starting at line `line`.
** Returns COL_OK (the row added or, with on_error=skip, dropped) or an
** error with a message naming the file, line and column. */
int csv_builder_add(csv_builder *b, const csv_tok *t, const char *rec,
                    int64_t line, col_error *err);
/* Vector k of rows [from, from+n) of the builder. */
void csv_builder_vector(const csv_builder *b, int k, uint32_t from, uint32_t n,
                        col_vector *v);

/* Is p[0..n) valid UTF-8? */
int csv_utf8_valid(const char *p, uint32_t n);

/* The serial scan and the parallel one. */
int csv_scan_serial(csv_ds *ds, const scan_spec *spec, batch_source **out,
                    col_error *err);
int csv_scan_parallel(csv_ds *ds, const scan_spec *spec, int threads,
                      batch_source **out, col_error *err);

/* Shared by both scans: read-set bookkeeping and predicate filtering. */
typedef struct csv_plan {
  int nread;              /* CSV columns decoded */
  int *readcols;          /* their source indexes */
  int *slot;              /* per schema column: builder column, -1 none,
                          ** -2 the filename column */
  int nproj;              /* emitted columns */
  int *proj;              /* copy of spec->proj */
  int npred;              /* exact predicates */
  const scan_pred *preds; /* spec->preds (caller keeps the spec alive) */
  int64_t max_rows;       /* 0: unbounded */
  uint32_t batch;         /* rows per batch */
} csv_plan;

int csv_plan_init(csv_plan *pl, const csv_ds *ds, const scan_spec *spec,
                  col_error *err);
void csv_plan_free(csv_plan *pl);

/* Build the output batch for rows [from, from+n) of b, apply the exact
** predicates (sel/scratch hold the result); fname fills the filename
** column. out->cols must have room for pl->nproj vectors plus scratch
** vectors for predicate columns (pl->nread + 1 extra). */
void csv_plan_batch(const csv_plan *pl, const csv_builder *b, uint32_t from,
                    uint32_t n, const cv_str *fname, col_vector *vecs,
                    col_vector *predvecs, uint32_t *sel, col_arena *scratch,
                    col_batch *out);

/* Skip the BOM, the skip= lines and the header at the start of a file's
** bytes buf[0..n): returns bytes to drop (and lines in *lines), or -1 when
** more bytes are needed (and !eof), -2 on error (err set). */
long csv_preamble(const csv_ds *ds, csv_tok *t, const char *buf, size_t n,
                  int eof, int64_t *lines, col_error *err);

#endif
