/*
** value.h — SQLite's value rules for agg/, without sqlite3.h.
**
** group_by must answer what SQLite answers, so the conversions SQLite applies
** inside aggregates and arithmetic are written out here once: the ordering of
** sqlite3MemCompare (NULL < numbers < TEXT < BLOB, INTEGER vs REAL compared
** exactly, TEXT under BINARY), the text form of a REAL ("%!.15g", as 3.40
** renders it), and the string-to-number rules of sqlite3AtoF/sqlite3Atoi64
** as numeric affinity and arithmetic use them.
**
** A value is a pred_value (scan.h): the same shape the predicate code uses.
*/
#ifndef COLUMNAR_AGG_VALUE_H
#define COLUMNAR_AGG_VALUE_H

#include <stdint.h>
#include "../reader/scan.h"

/* Compare a and b as sqlite3MemCompare with BINARY collation: <0, 0, >0.
** NULL equals NULL. */
int agg_value_compare(const pred_value *a, const pred_value *b);

/* Exact comparison of an INTEGER with a REAL (sqlite3IntFloatCompare). */
int agg_int_real_compare(int64_t i, double r);

/* Text of a REAL as the SQLite d describes renders it (NULL: 3.40's
** "%!.15g": "1.0", "1.0e+20", "Inf"). Writes a NUL-terminated string into
** buf (at least PRED_NUM_TEXT_MAX bytes) and returns its length. */
int agg_real_to_text(const col_dialect *d, double r, char *buf);

/* Text of an INTEGER; buf at least 24 bytes. Returns the length. */
int agg_int_to_text(int64_t i, char *buf);

/* sqlite3AtoF: parse z[0..n). Returns 1 for a pure integer, 2 for a real,
** 0 when no prefix is a number, -1 when a prefix is a number followed by
** other text; *r gets the value of the longest numeric prefix (0.0 if none).
** exact (agg_atof_exact): the correctly rounded value; else SQLite 3.40's:
** up to 19 significant digits in an integer, times or divided by a power
** of ten squared up in long double, which is one unit of the last place
** off the correctly rounded value for about one text in 10000 of 7 or
** more digits, one in 1000 of 20 or more (round(x, 15) prints those). */
int agg_atof(int exact, const char *z, uint32_t n, double *r);
/* Does d's SQLite convert text to REAL correctly rounded (col_dialect.
** atof_exact)? NULL: 3.40, which does not. */
static inline int agg_atof_exact(const col_dialect *d){ return d && d->atof_exact; }

/* sqlite3Atoi64: 0 ok, 1 extra text after the integer (or none at all),
** 2 too large (saturated), 3 exactly 9223372036854775808. *v gets the
** (saturated) integer prefix. */
int agg_atoi64(const char *z, uint32_t n, int64_t *v);

/* sqlite3_value_numeric_type's conversion of TEXT (applyNumericAffinity):
** the value itself when it is not TEXT, else INTEGER/REAL when the text is a
** well-formed number, else the TEXT unchanged. exact: as agg_atof's (so
** for the two below). */
pred_value agg_numeric_affinity(int exact, const pred_value *v);

/* sqlite3VdbeRealValue: any value as a double (NULL is 0.0). */
double agg_real_value(int exact, const pred_value *v);

/* sqlite3VdbeIntValue: any value as an int64 (REAL saturates). */
int64_t agg_int_value(const pred_value *v);

/* The arithmetic operand class of a value (numericType in vdbe.c):
** CV_INT (with *i set) or CV_REAL (with *r set). v must not be NULL. */
int agg_numeric_type(int exact, const pred_value *v, int64_t *i, double *r);



/* Row i of vector v as a value (no copy: p points into the vector). */
static inline pred_value agg_value_at(const col_vector *v, uint32_t i){
  pred_value x;
  x.type = (uint8_t)cv_tag(v, i);
  x.i = 0; x.f = 0; x.p = 0; x.n = 0;
  switch( x.type ){
    case CV_INT: x.i = cv_int(v, i); break;
    case CV_REAL: x.f = cv_real(v, i); break;
    case CV_TEXT: case CV_BLOB: { cv_str s = cv_bytes(v, i); x.p = s.p; x.n = s.n; break; }
    default: break;
  }
  return x;
}
#endif
