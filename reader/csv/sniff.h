/*
** sniff.h — guess a CSV file's dialect, header and column types from a
** sample of its first bytes.
*/
#ifndef COLUMNAR_CSV_SNIFF_H
#define COLUMNAR_CSV_SNIFF_H

#include <stddef.h>
#include "csv.h"
#include "tokenize.h"

typedef struct csv_sniff {
  csv_dialect d;          /* delimiter, quote, escape, comment */
  int header;             /* 1 when the first record names the columns */
  int ncols;              /* columns */
  char **names;           /* ncols unique names (malloc'd) */
  int *kinds;             /* ncols CSV_T_* */
  double avg_record;      /* bytes per record in the sample */
  int records;            /* data records seen in the sample */
  int complete;           /* whole records read from the sample, a header
                          ** included (reading stops at sample_rows) */
} csv_sniff;

/* Sniff from buf[0..n) (the start of the first file, decompressed). eof: the
** sample is the whole file. Options fixed by the user are taken as given. */
int csv_sniff_sample(const char *buf, size_t n, int eof, const csv_options *o,
                     csv_sniff *out, col_error *err);
void csv_sniff_free(csv_sniff *s);

/* Bytes of a UTF-8 byte order mark at p (3 or 0). */
size_t csv_bom_len(const char *p, size_t n);

#endif
