/*
** expr_scalar.h — CAST, trim(), replace() and the multi-argument min()
** and max() of group_by expressions, one value at a time, as SQLite's
** func.c and vdbemem.c compute them. The caller (agg/expr_eval.c) turns numbers
** into text first where SQLite reads an argument with sqlite3_value_text.
*/
#ifndef COLUMNAR_AGG_EXPR_SCALAR_H
#define COLUMNAR_AGG_EXPR_SCALAR_H

#include <stddef.h>
#include <stdint.h>
#include "../reader/scan.h"

/* What CAST(x AS type) converts to, and a declared column type's affinity:
** sqlite3AffinityType of the type's text ("VARCHAR(10)" is TEXT, "BIGINT"
** INTEGER, "DOUBLE PRECISION" REAL, "BLOB" BLOB, anything else NUMERIC). A
** column declared without a type is BLOB: the caller's case. */
enum { AGG_CAST_BLOB = 'B', AGG_CAST_TEXT = 'T', AGG_CAST_NUMERIC = 'N',
       AGG_CAST_INTEGER = 'I', AGG_CAST_REAL = 'R' };
int agg_cast_affinity(const char *z, size_t n);

/* CAST of a non-NULL value to AGG_CAST_NUMERIC, _INTEGER or _REAL
** (sqlite3VdbeMemNumerify, sqlite3VdbeIntValue, sqlite3VdbeRealValue: the
** longest numeric prefix of a TEXT or BLOB). atof: agg_atof's mode. */
pred_value agg_cast_number(int atof, const pred_value *v, int aff);

/* trim(z, set) of z[0..n): the result is z[*off .. *off + *len). set[0..nset)
** is split into UTF-8 characters (a byte >= 0xc0 and the continuation bytes
** after it); sides: 1 from the left, 2 from the right, 3 both. */
void agg_str_trim(const char *z, uint32_t n, const char *set, uint32_t nset,
                  int sides, uint32_t *off, uint32_t *len);

/* replace(z, pat, rep) over bytes, pat non-empty: the result's length, and
** with out!=NULL its bytes written there. */
size_t agg_str_replace(const char *z, uint32_t n, const char *pat, uint32_t np,
                       const char *rep, uint32_t nr, char *out);

/* The argument min(x[0], ..., x[n-1]) (is_max==0) or max() returns, by
** sqlite3MemCompare under the collation coll (COLL_*): ties go to the later
** one for min and the earlier one for max. -1 when one is NULL (the result
** is NULL). */
int agg_minmax_pick(const pred_value *x, int n, int is_max, int coll);

#endif
