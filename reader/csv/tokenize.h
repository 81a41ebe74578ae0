/*
** tokenize.h — split CSV bytes into records and fields.
**
** csv_tok_record() delimits one record in a buffer without copying: each
** field is an offset range relative to the record start (quotes excluded)
** and flags saying whether it was quoted and whether it holds escapes that
** csv_tok_unescape() must remove. Callers convert only the fields they need;
** the rest are just delimited.
*/
#ifndef COLUMNAR_CSV_TOKENIZE_H
#define COLUMNAR_CSV_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"

/* Records larger than this are an error, not an allocation. */
#define CSV_MAX_RECORD (1u<<30)
/* Fields per record beyond this are an error. */
#define CSV_MAX_FIELDS 100000

typedef struct csv_dialect {
  uint8_t delim;          /* field separator */
  uint8_t quote;          /* quote byte, 0 for none */
  uint8_t escape;         /* == quote: doubled quotes; else e.g. '\\' */
  uint8_t comment;        /* comment line prefix, 0 for none */
} csv_dialect;

enum { CSV_FQUOTED = 1, CSV_FESCAPED = 2 };

/* Results of csv_tok_record. */
enum {
  CSV_TOK_ROW = 0,        /* a record: fields filled, *used bytes consumed */
  CSV_TOK_BLANK = 1,      /* a blank or comment line consumed, no record */
  CSV_TOK_MORE = 2,       /* record incomplete: give more bytes */
  CSV_TOK_END = 3,        /* no bytes left and eof */
  CSV_TOK_ERR = 4         /* malformed: err set (without file/line prefix) */
};

typedef struct csv_tok {
  csv_dialect d;          /* the dialect being read */
  int nf;                 /* fields in the last record */
  int capf;               /* capacity of the arrays below */
  uint32_t *fs;           /* field start offsets (after an opening quote) */
  uint32_t *fe;           /* field end offsets (before a closing quote) */
  uint8_t *ff;            /* CSV_FQUOTED | CSV_FESCAPED per field */
  int nlines;             /* line ends inside the last record, its own included */
  int err_line;           /* on CSV_TOK_ERR: lines before the bad spot */
} csv_tok;

int csv_tok_init(csv_tok *t, const csv_dialect *d);
void csv_tok_free(csv_tok *t);

/* Delimit the record at p[0..n). eof says no bytes follow p+n. */
int csv_tok_record(csv_tok *t, const char *p, size_t n, int eof,
                   size_t *used, col_error *err);

/* Copy field bytes p[0..n) to out without the escapes; returns the new
** length (<= n). */
uint32_t csv_tok_unescape(const csv_dialect *d, const char *p, uint32_t n,
                          char *out);

/* Consume one physical line (for skip=N): bytes used, 0 when p[0..n) holds
** no complete line and !eof. */
size_t csv_tok_line(const char *p, size_t n, int eof);

/* Count line ends (LF, CRLF, lone CR) in p[0..n). */
int csv_count_lines(const char *p, size_t n);

#endif
