/*
** csv.h — CSV (and TSV, PSV, ...) files as a col_dataset.
**
**   CREATE VIRTUAL TABLE temp.t USING csv('trips_*.csv.zst', header=true);
**   CREATE VIRTUAL TABLE temp.t USING csv(filename='x.csv', delim=';',
**                                          null='NA', on_error=skip);
**   CREATE VIRTUAL TABLE temp.t USING csv(data='a,b
**   1,2', all_text=true);
**
** The SQL layer hands the arguments to csv_options_parse() as SQLite passes
** them, then csv_dataset_open() sniffs the dialect and the column types from
** a sample of the first file and returns a dataset whose scans stream the
** files (gzip and zstd decompressed on the fly) in large blocks.
**
** Decisions worth knowing (see sniff.c and types.c for the details):
**   - Types are sniffed from the sample and checked on every row the scan
**     decodes. Only the read set (projection plus predicate columns) is
**     decoded, so a bad value in a column the query never reads is not an
**     error: this is what makes count(*) and narrow projections fast.
**   - A column whose sample has numbers with leading zeros ("007") is TEXT,
**     as DuckDB's sniffer decides.
**   - A quoted empty field "" is '' in a TEXT column, NULL in a typed one
**     (DuckDB 1.5 reads it as NULL: its allow_quoted_nulls default).
**   - Blank lines are skipped; a quote char only opens a quoted field at the
**     start of a field; after a closing quote only a delimiter or line end
**     may follow (else an error naming the line).
*/
#ifndef COLUMNAR_CSV_H
#define COLUMNAR_CSV_H

#include <stddef.h>
#include "../dataset.h"
#include "../error.h"

/* on_error policies for a value that breaks its column's type, a row with
** the wrong number of fields, or invalid UTF-8. */
enum { CSV_ON_ERROR_FAIL = 0, CSV_ON_ERROR_NULL = 1, CSV_ON_ERROR_SKIP = 2,
       CSV_ON_ERROR_TEXT = 3 };

typedef struct csv_options {
  char *filename;         /* path or glob (malloc'd), or NULL with data */
  char *data;             /* inline CSV text (malloc'd), or NULL */
  size_t data_len;        /* bytes in data */
  int header;             /* -1 detect, 0 no, 1 yes */
  int delim;              /* -1 detect, else the byte */
  int quote;              /* quote byte; 0 none (default '"') */
  int escape;             /* byte that escapes a quote inside quotes: the
                          ** quote itself (doubled quotes, default) or '\\' */
  int skip;               /* leading lines dropped before anything else */
  int comment;            /* lines starting with this byte are dropped; 0 none */
  int nnulls;             /* entries in nulls */
  char **nulls;           /* strings read as NULL (malloc'd); none: only an
                          ** empty unquoted field is NULL */
  char *types;            /* type overrides "INTEGER,TEXT" or "a=REAL" */
  int all_text;           /* csv.c behaviour: all TEXT, empty field '' */
  int on_error;           /* CSV_ON_ERROR_* */
  int filename_column;    /* add a trailing TEXT column `filename` */
  int ncolumns;           /* csv.c columns=N; 0 from the file */
  int ncolumn_names;      /* entries in column_names */
  char **column_names;    /* names from schema= (the SQL layer fills these) */
  char *schema;           /* schema= text as given (for the SQL layer) */
  int sample_rows;        /* lines sniffed (default 20480) */
  int threads;            /* default scan threads (0: scan_spec decides) */
} csv_options;

/* Defaults: detect header and delimiter, '"' quote, doubled-quote escape. */
void csv_options_init(csv_options *o);

/* Parse virtual table arguments (argv[3..] as SQLite passes them: `'x.csv'`,
** `header=true`, `delim='\t'`, ...). o must be csv_options_init'ed; on error
** the message names the argument and o still needs csv_options_free. */
int csv_options_parse(int nargs, const char *const *args, csv_options *o,
                      col_error *err);

/* Free what o holds (not o itself). */
void csv_options_free(csv_options *o);

/* Open the file(s) or data described by o, sniff, and return a dataset.
** o may be freed afterwards (the dataset copies what it keeps). */
int csv_dataset_open(const csv_options *o, col_dataset **out, col_error *err);

#endif
