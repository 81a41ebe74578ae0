/*
** predicate.h — SQLite's comparison rules, applied to vectors.
**
** A predicate pushed as exact is applied here and nowhere else, so this file
** must agree with SQLite to the bit: storage-class order (NULL < INTEGER and
** REAL compared numerically < TEXT < BLOB), INTEGER vs REAL compared exactly
** (not by converting the integer to a double: 2^53+1 > 2^53 as REAL), the
** BINARY / NOCASE (ASCII only) / RTRIM collations on TEXT, memcmp on BLOB,
** LIKE (ASCII case folding unless case_sensitive_like, ESCAPE, '%' and '_'
** over UTF-8 characters) and GLOB ('*', '?', '[...]', '[^...]'), and NULL
** semantics: any comparison with NULL is not true except IS / IS NOT.
** The right-hand side already had the column's affinity applied by the
** caller. Nothing here includes sqlite3.h.
*/
#ifndef COLUMNAR_PREDICATE_H
#define COLUMNAR_PREDICATE_H

#include <stddef.h>
#include <stdint.h>
#include "scan.h"
#include "arena.h"

/* Compare value a with b under collation coll the way SQLite's
** sqlite3MemCompare does: <0, 0, >0. NULL equals NULL here (as for IS). */
int pred_value_compare(const pred_value *a, const pred_value *b,
                       pred_coll coll);

/* INTEGER i against REAL r exactly, as SQLite's sqlite3IntFloatCompare: <0,
** 0, >0. Converting i to double would call 2^53+1 equal to 2^53; instead r
** is truncated to an integer (when in range) and the fraction decides ties.
** -0.0 equals 0. Inline because pred_filter calls it once per row. */
static inline int pred_int_real_compare(int64_t i, double r){
  int64_t y;
  double s;
  if( r!=r ) return 0;  /* NaN: unordered, as SQLite's long-double path */
  if( r < -9223372036854775808.0 ) return +1;
  if( r >= 9223372036854775808.0 ) return -1;
  y = (int64_t)r;
  if( i<y ) return -1;
  if( i>y ) return +1;
  s = (double)i;  /* exact: i == trunc(r) */
  return (s<r) ? -1 : (s>r);
}

/* Does comparison op hold where its sides compare as c (<0, 0, >0)? */
static inline int pred_op_holds(pred_op op, int c){
  switch( op ){
    case PRED_EQ: return c==0;
    case PRED_NE: return c!=0;
    case PRED_LT: return c<0;
    case PRED_LE: return c<=0;
    case PRED_GT: return c>0;
    case PRED_GE: return c>=0;
    default:      return 0;
  }
}

/* TEXT a against TEXT b under one of SQLite's collations: <0, 0, >0. */
int pred_text_compare(const char *a, uint32_t na, const char *b, uint32_t nb,
                      pred_coll coll);

/* Row i of v as a pred_value (no copy: p points into the vector). */
pred_value pred_value_of(const col_vector *v, uint32_t i);

/* Does value x satisfy predicate p? (x is the column value; p->v the RHS) */
int pred_match_value(const scan_pred *p, const pred_value *x);

/* Apply predicate p to vector v for the rows listed in sel[0..nsel) (sel
** must not be NULL: pass 0..n-1 for all rows). Surviving row indexes are
** written back into sel, in order; returns how many survived. For CV_DICT
** vectors the predicate is evaluated once per dictionary entry (scratch holds
** that work), not once per row. */
uint32_t pred_filter(const scan_pred *p, const col_vector *v, uint32_t *sel,
                     uint32_t nsel, col_arena *scratch);

/* pred_filter over every row 0..v->n-1, sel holding nothing yet (room for
** v->n). *written is 0 when every row passed and sel was left unwritten
** (a constant that matches, a dictionary whose every entry does): the
** caller's rows are still all of them. Else sel holds the survivors as
** pred_filter leaves them. A row group's first filter starts here, with
** no list of its 122880 rows written only to be read back. */
uint32_t pred_filter_all(const scan_pred *p, const col_vector *v, uint32_t *sel,
                         col_arena *scratch, int *written);

/* Could any row match p, given what statistics say about a chunk: min and max
** over its non-null values (NULL pointer when unknown), whether it may hold
** nulls (has_nulls: 0 none, 1 some or unknown) and non-null values
** (has_values: 0 none, 1 some or unknown)? Returns 0 only when no row can
** match. min/max are of the column's own storage class. */
int pred_may_match_range(const scan_pred *p, const pred_value *min,
                         const pred_value *max, int has_nulls, int has_values);
/* (min and max must bound every non-null value of the chunk in SQLite's
** order, TEXT compared byte-wise as file statistics are; under NOCASE or
** RTRIM a TEXT bound is not trusted and only storage classes prune.) */

/* SQLite's LIKE and GLOB on UTF-8 (patternCompare in SQLite's func.c), as
** the SQLite d describes reads characters (NULL: 3.40). */
int pred_like(const char *pat, uint32_t npat, const char *s, uint32_t ns,
              int case_sensitive, uint32_t esc, const col_dialect *d);
int pred_glob(const char *pat, uint32_t npat, const char *s, uint32_t ns,
              const col_dialect *d);

/* The first character of z[0..n) as sqlite3Utf8Read decodes it (the
** SQLite d describes; NULL: 3.40), 0 when n is 0. */
uint32_t pred_utf8_first(const char *z, uint32_t n, const col_dialect *d);

/* The common LIKE shapes '%lit%' and 'lit%', with lit m > 0 bytes, all
** ASCII, no NUL, '%' or '_', and no ESCAPE: lit as a substring, or a
** prefix, of s up to its first NUL, ASCII letters in either case unless
** case_sensitive. Equal to pred_like on such patterns: SQLite's UTF-8
** reader never takes an ASCII byte into another character, so byte-wise
** matches are exactly the character-wise ones. */
enum { PRED_LIKE_GENERAL = 0, PRED_LIKE_CONTAINS, PRED_LIKE_PREFIX };
/* The shape of pat (npat bytes) with escape esc; sets *lit, *m unless
** PRED_LIKE_GENERAL. */
int pred_like_shape(const char *pat, uint32_t npat, uint32_t esc,
                    const char **lit, uint32_t *m);
int pred_like_simple(int shape, const char *lit, uint32_t m, const char *s,
                     uint32_t ns, int case_sensitive);

/* The text SQLite gives a number where it needs text (LIKE, GLOB, CAST):
** an INTEGER in decimal, a REAL as SQLite 3.40's "%!.15g" (1.0 -> "1.0",
** 1e100 -> "1.0e+100", 0.1 -> "0.1", infinity -> "Inf"). Writes at most n
** bytes including a NUL (truncating like snprintf) and returns the full
** length without the NUL. PRED_NUM_TEXT_MAX bytes always suffice. */
#define PRED_NUM_TEXT_MAX 40
int pred_int_to_text(int64_t i, char *buf, size_t n);
int pred_real_to_text(double r, char *buf, size_t n);
/* A REAL's text as the SQLite d describes renders it: its own printf with
** its digits when d has one (d->real_text), else pred_real_to_text. */
int pred_real_text(const col_dialect *d, double r, char *buf, size_t n);

#endif
