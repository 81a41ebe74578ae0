/*
** error.h — how readers report failure.
**
** Every fallible reader function returns an int: COL_OK (0) or a COL_E*
** code, with the message written into a col_error the caller passed in.
** The message names where in the input the problem is (file, row group,
** column, page, line); SQLite-facing code copies it into zErrMsg as is.
*/
#ifndef COLUMNAR_ERROR_H
#define COLUMNAR_ERROR_H

enum {
  COL_OK = 0,
  COL_ERROR = 1,      /* malformed input, unsupported feature */
  COL_ENOMEM = 2,     /* out of memory, or a size beyond what we allow */
  COL_EIO = 3,        /* open/read failure */
  COL_EINTERRUPT = 4, /* the caller asked us to stop */
  COL_ECONSTRAINT = 5,/* a limit the user set (memory limit, group limit) */
};

typedef struct col_error {
  int code;           /* COL_OK or the first error recorded */
  char msg[512];      /* NUL-terminated message */
} col_error;

/* Record an error (printf-style). The first error wins: later calls while
** code!=COL_OK keep the original message. Returns code. */
int col_error_set(col_error *e, int code, const char *fmt, ...)
#ifdef __GNUC__
  __attribute__((format(printf, 3, 4)))
#endif
  ;
/* Prepend context ("file.parquet: row group 3, column x: ") to a recorded
** message. Returns e->code. */
int col_error_prefix(col_error *e, const char *fmt, ...)
#ifdef __GNUC__
  __attribute__((format(printf, 2, 3)))
#endif
  ;
static inline void col_error_clear(col_error *e){ e->code = 0; e->msg[0] = 0; }

#endif
