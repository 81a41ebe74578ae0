/*
** scan.h — the scan contract between SQLite-facing code and the readers.
**
** This is seed 002 (ScanSpec / BatchSource) in C. A *dataset* is a file or a
** set of files opened once (when the virtual table is created): it knows its
** schema and can estimate. A *scan* is one pass over a dataset with a
** scan_spec, producing col_batches through a batch_source.
**
**   scan_spec.proj   the exact columns to EMIT, in order (source column
**                    indexes). The batch has one vector per entry.
**   scan_spec.preds  conjuncts on source columns. The read set is proj PLUS
**                    the columns of preds: a pred marked exact may be on a
**                    column that is not projected, and the reader must still
**                    decode it, filter on it, and not emit it.
**                    exact=1: the reader is the only one applying it and must
**                    drop every row it rejects, by SQLite's rules to the bit.
**                    exact=0: a hint; skip only what provably cannot match.
**   scan_spec.max_rows  an upper bound on rows that will be consumed (0: no
**                    bound). Overshooting is fine.
**   scan_spec.threads   workers the reader may use; 0 or 1 is exactly serial.
**   scan_spec.whole  nonzero: the consumer takes every row (a group by), so
**                    workers may decode ahead from the first row group on,
**                    not only once a second is asked for.
**   scan_spec.batch_size rows per batch requested (a reader may return fewer).
**   scan_spec.rows/nrows  rows!=NULL: emit only these rows (col_batch.first_row
**                    numbering, ascending, no repeats) that also pass the
**                    predicates; only a dataset with col_dataset.row_select
**                    set accepts it. Fetches a few rows picked by an
**                    earlier scan (a top-k) without decoding the others.
**   scan_spec.raw    NULL, or one flag per proj entry: raw[k] asks for the
**                    stored integer of a column with col_def.ts_unit instead
**                    of its text (group_by computes strftime() from it). A
**                    reader may give the text anyway (a CSV reader always
**                    does; a column a predicate reads stays text), and the
**                    vector's type says which came: CV_INT is the integer.
**   scan_spec.shard/nshard  nshard>1: read only part `shard` (0-based) of
**                    nshard contiguous parts of the rows, so nshard scans
**                    run side by side cover every row once, the parts in
**                    shard order being file order. Only a dataset with
**                    col_dataset.shardable set accepts nshard>1.
**   scan_spec.split  non-NULL (a shardable dataset): the rows of lane
**                    `shard` of a split (split.h), whose run of row groups
**                    is claimed one at a time and may shrink while the
**                    scan runs; nshard is not read.
**   scan_spec.bound  NULL, or a limit on one column that the consumer
**                    tightens as the scan runs (bound.h), wanting no row
**                    outside it: a reader may skip a row group whose
**                    statistics put every row outside it, and drop such
**                    rows; some may still come out.
**   scan_spec.lazy   NULL, or one flag per proj entry: lazy[k] says the
**                    consumer may never read column k (SQLite's colUsed
**                    has one bit for every column past the 63rd), so a
**                    reader may leave it undecoded, mark it in
**                    col_batch.pending and decode it when the consumer
**                    asks (batch_source_methods.fill). A reader without
**                    fill decodes it as any other.
**
** Rows come out in file order, whatever the thread count.
*/
#ifndef COLUMNAR_SCAN_H
#define COLUMNAR_SCAN_H

#include <stdint.h>
#include "vector.h"
#include "error.h"
#include "dialect.h"

/* ---- schema ----------------------------------------------------------- */

typedef struct col_def {
  char *name;             /* column name as in the file (malloc'd) */
  uint8_t type;           /* usual storage class: CV_INT/REAL/TEXT/BLOB, or
                          ** CV_NULL when it varies */
  const char *decl;       /* declared type for CREATE TABLE: "INTEGER",
                          ** "REAL", "TEXT", "BLOB" or "" (static string) */
  uint8_t ts_unit;        /* a timestamp the reader stores as an integer
                          ** count of COL_TS_* since 1970-01-01 00:00:00 and
                          ** shows as its text: scan_spec.raw can ask for
                          ** the integer; 0 for every other column */
  uint8_t may_text;       /* declared INTEGER or REAL, yet a value may be
                          ** TEXT (CSV on_error=text keeps a bad one so) */
} col_def;

enum { COL_TS_MILLIS = 1, COL_TS_MICROS = 2, COL_TS_NANOS = 3 };

/* The timestamps, counts of unit since 1970, in years 0000-9999: [*lo,
** *hi). Their text 'YYYY-MM-DD HH:MM:SS[.fff...]' orders as they do;
** years past those are signed, and a '-' or '+' sorts before the digits. */
static inline void col_ts_plain_range(int unit, int64_t *lo, int64_t *hi){
  int64_t per = unit==COL_TS_NANOS ? 1000000000 : unit==COL_TS_MICROS ? 1000000 : 1000;
  if( __builtin_mul_overflow(-62167219200LL, per, lo) ) *lo = INT64_MIN;   /* 0000-01-01 */
  if( __builtin_mul_overflow(253402300800LL, per, hi) ) *hi = INT64_MAX;   /* 10000-01-01 */
}

/* Is timestamp x in years 0000-9999 (col_ts_plain_range)? */
static inline int col_ts_plain(int64_t x, int unit){
  int64_t lo, hi;
  col_ts_plain_range(unit, &lo, &hi);
  return x>=lo && x<hi;
}

/* May a value of column c be TEXT (where collations apply)? */
static inline int col_def_may_text(const col_def *c){
  return !(c->type==CV_INT || c->type==CV_REAL) || c->may_text;
}

typedef struct col_schema {
  int n;                  /* columns */
  col_def *cols;          /* malloc'd array of n */
} col_schema;

void col_schema_free(col_schema *s);

/* ---- predicates -------------------------------------------------------- */

typedef enum pred_op {
  PRED_EQ, PRED_NE, PRED_LT, PRED_LE, PRED_GT, PRED_GE,
  PRED_IS, PRED_ISNOT, PRED_ISNULL, PRED_NOTNULL,
  PRED_LIKE, PRED_GLOB, PRED_IN
} pred_op;

/* COLL_ANY: equal when equal under any of the three, else BINARY's order;
** for = and IN alone, as a superset SQLite re-checks (an IN SQLite made of
** an OR whose branches' collations differ, ext/plan.c). Not an order. */
typedef enum pred_coll { COLL_BINARY = 0, COLL_NOCASE, COLL_RTRIM, COLL_ANY } pred_coll;

/* A literal, already converted by the column's affinity (SQLite-facing code
** does that). For TEXT/BLOB, p points at memory owned by the scan_spec. */
typedef struct pred_value {
  uint8_t type;           /* CV_NULL, CV_INT, CV_REAL, CV_TEXT, CV_BLOB */
  int64_t i;
  double f;
  const char *p;
  uint32_t n;
} pred_value;

typedef struct scan_pred {
  int col;                /* source column index */
  pred_op op;
  pred_coll coll;         /* collation for comparisons of TEXT */
  uint8_t exact;          /* see the header comment */
  uint8_t like_case_sensitive; /* PRAGMA case_sensitive_like */
  uint32_t like_escape;   /* LIKE ... ESCAPE character (code point), 0 none */
  pred_value v;           /* right-hand side (unused for ISNULL/NOTNULL/IN) */
  int nin;                /* PRED_IN: number of values */
  pred_value *in;         /* PRED_IN: the values, sorted by SQLite order,
                          ** NULLs removed (x IN (..., NULL) never true for a
                          ** row that matches none of the others) */
  const col_dialect *dialect; /* the SQLite whose LIKE/GLOB to give (a
                          ** BLOB's match, a REAL's text, U+FFFF), or
                          ** NULL: 3.40's; it outlives the scan */
} scan_pred;

/* ---- the spec ----------------------------------------------------------- */

typedef struct scan_spec {
  int nproj;              /* columns to emit */
  const int *proj;        /* source column indexes, in emission order */
  int npred;              /* conjuncts */
  const scan_pred *preds;
  int64_t max_rows;       /* 0: unbounded */
  int threads;            /* 0/1: serial */
  int whole;              /* every row will be consumed */
  int batch_size;         /* 0: reader's default (2048) */
  int shard, nshard;      /* nshard<=1: every row */
  struct col_split *split;  /* NULL, or the split shard is a lane of */
  const int64_t *rows;    /* NULL: every row; else nrows rows, ascending */
  int64_t nrows;
  const uint8_t *raw;     /* NULL, or nproj flags: see the header comment */
  struct col_bound *bound;  /* NULL, or see the header comment */
  const uint8_t *lazy;    /* NULL, or nproj flags: see the header comment */
} scan_spec;

/* ---- what a scan did, for scan_stats() ---------------------------------- */

typedef struct scan_stats {
  int64_t files;              /* files opened */
  int64_t row_groups;         /* row groups (Parquet) or chunks (CSV) seen */
  int64_t row_groups_pruned_stats;  /* skipped by min/max statistics */
  int64_t row_groups_pruned_dict;   /* skipped: value not in dictionary */
  int64_t row_groups_pruned_bloom;  /* skipped by a bloom filter */
  int64_t pages;              /* data pages seen */
  int64_t pages_pruned;       /* skipped through the page index */
  int64_t bytes_read;         /* bytes read from files */
  int64_t rows_decoded;       /* rows whose filter columns were decoded */
  int64_t rows_returned;      /* rows emitted after exact predicates */
  int64_t rows_skipped;       /* CSV rows dropped by on_error=skip */
} scan_stats;

/* a += b, every counter. */
static inline void scan_stats_add(scan_stats *a, const scan_stats *b){
  a->files += b->files;
  a->row_groups += b->row_groups;
  a->row_groups_pruned_stats += b->row_groups_pruned_stats;
  a->row_groups_pruned_dict += b->row_groups_pruned_dict;
  a->row_groups_pruned_bloom += b->row_groups_pruned_bloom;
  a->pages += b->pages;
  a->pages_pruned += b->pages_pruned;
  a->bytes_read += b->bytes_read;
  a->rows_decoded += b->rows_decoded;
  a->rows_returned += b->rows_returned;
  a->rows_skipped += b->rows_skipped;
}

/* ---- a running scan ----------------------------------------------------- */

typedef struct batch_source batch_source;
typedef struct batch_source_methods {
  /* Next batch into *out, or *out=NULL at end. A batch may have nsel==0.
  ** Returns COL_OK or an error (message in src->err). */
  int (*next)(batch_source *src, col_batch **out);
  /* Free everything; src is gone afterwards. */
  void (*close)(batch_source *src);
  /* NULL, or: decode column k of the batch next() gave last, which its
  ** pending flags mark; the vector and flag are updated in place. Returns
  ** COL_OK or an error (message in src->err). */
  int (*fill)(batch_source *src, int k);
} batch_source_methods;

struct batch_source {
  const batch_source_methods *m;
  scan_stats stats;       /* updated as the scan runs */
  col_error err;          /* the error next() returned */
  _Atomic int *interrupt; /* when set and *interrupt!=0, stop with
                          ** COL_EINTERRUPT at the next batch boundary */
};

#define DEFAULT_BATCH_SIZE 2048

#endif
