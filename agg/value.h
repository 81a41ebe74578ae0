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

/* How a SQLite version turns text into a REAL (col_dialect.atof_mode).
** Each is one unit of the last place off the correctly rounded value for
** some texts: 3.40 for about one in 10000 of 7 or more digits, one in 1000
** of 20 or more (round(x, 15) prints those); 3.46 for others; 3.53 for
** some of more than 19 digits. */
#define AGG_ATOF_340 0      /* up to 19 significant digits in an int64, times
                            ** or divided by a power of ten squared up in
                            ** long double */
#define AGG_ATOF_EXACT 1    /* correctly rounded (what stands in for a
                            ** conversion none of these is) */
#define AGG_ATOF_LD_STEPS 2 /* 3.43 to 3.46 at least, where long double is
                            ** wider than double (bUseLongDouble): up to 20
                            ** digits in a u64, times 1e100L, 1e10L and 1e1L
                            ** (or their inverses) one at a time */
#define AGG_ATOF_DEKKER 3   /* the same versions without a wider long double,
                            ** and 3.47 to 3.51 everywhere (long double gone):
                            ** those steps in double-double arithmetic */
#define AGG_ATOF_352 5      /* 3.52.0: up to 19 digits (as 3.40) times a
                            ** 64-bit power of ten, rounded from the high
                            ** word of the product (agg_atof_352) */
#define AGG_ATOF_U64 4      /* 3.53 at least: up to 20 digits in a u64 (as
                            ** 3.46), that integer times 10^e correctly
                            ** rounded; digits past the u64's are dropped */

/* sqlite3AtoF: parse z[0..n). Returns 1 for a pure integer, 2 for a real,
** 0 when no prefix is a number, -1 when a prefix is a number followed by
** other text; *r gets the value of the longest numeric prefix (0.0 if
** none), computed as mode (AGG_ATOF_*) says. */
int agg_atof(int mode, const char *z, uint32_t n, double *r);
/* d's SQLite's conversion (col_dialect.atof_mode). NULL: 3.40's. */
static inline int agg_atof_mode(const col_dialect *d){ return d ? d->atof_mode : AGG_ATOF_340; }

/* sqlite3Atoi64: 0 ok, 1 extra text after the integer (or none at all),
** 2 too large (saturated), 3 exactly 9223372036854775808. *v gets the
** (saturated) integer prefix. */
int agg_atoi64(const char *z, uint32_t n, int64_t *v);

/* sqlite3_value_numeric_type's conversion of TEXT (applyNumericAffinity):
** the value itself when it is not TEXT, else INTEGER/REAL when the text is a
** well-formed number, else the TEXT unchanged. atof: agg_atof's mode (so
** for the one below). */
pred_value agg_numeric_affinity(int atof, const pred_value *v);

/* TEXT affinity: an INTEGER or REAL as the text the SQLite d describes
** writes for it, into buf (PRED_NUM_TEXT_MAX bytes); other values as they
** are. */
pred_value agg_text_affinity(const col_dialect *d, pred_value v, char *buf);

/* sqlite3VdbeRealValue: any value as a double (NULL is 0.0). */
double agg_real_value(int atof, const pred_value *v);

/* sqlite3VdbeIntValue: any value as an int64 (REAL saturates). */
int64_t agg_int_value(const pred_value *v);

/* The arithmetic operand class of a value (numericType in vdbe.c):
** CV_INT (with *i set) or CV_REAL (with *r set). v must not be NULL. */
int agg_numeric_type(int atof, const pred_value *v, int64_t *i, double *r);



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
