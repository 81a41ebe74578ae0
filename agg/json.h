/*
** json.h — the JSON text json_group_array and json_group_object build,
** one value or member at a time, as SQLite's json.c writes it.
**
** group_by evaluates json_group_array(x) as a group_concat, with ',' and
** brackets, of each row's fragment agg_json_value(x), and
** json_group_object(k, v) of agg_json_member(k, v): a FILTER makes the
** fragment NULL, and a NULL fragment is skipped, as group_concat skips
** NULLs, while a NULL x is the fragment `null`. Both follow
** jsonAppendSqlValue and jsonAppendString (3.40 and 3.50 agree but where
** reader/dialect.h says):
**   NULL     null
**   INTEGER  its decimal digits
**   REAL     "%!0.15g" (dialect json_real_text): 1.0, 1.0e+20, Inf or
**            9.0e+999
**   TEXT     in double quotes; " and \ escaped with a backslash, the
**            control bytes below 0x20 as \b \t \n \f \r or \u00XX, every
**            other byte (invalid UTF-8, 0x7f, U+2028) as it is
**   BLOB     not JSON: the fragment is the BLOB itself, and the aggregate
**            that meets it raises SQLite's error (agg_json_blob_error)
** A member is the quoted label, ':', the value. The label is the text
** sqlite3_value_text gives (numbers rendered); a NULL label is left out
** (3.40: nothing is written before the colon) or drops the member (3.50).
*/
#ifndef COLUMNAR_AGG_JSON_H
#define COLUMNAR_AGG_JSON_H

#include <stdint.h>
#include "../reader/arena.h"
#include "../reader/dialect.h"
#include "../reader/predicate.h"

/* Fragments past SQLite's default length limit (SQLITE_MAX_LENGTH) are
** its error "string or blob too big", not an allocation. */
#define AGG_JSON_MAX 1000000000u
#define AGG_JSON_TOOBIG (-2)

/* x's fragment into *out (TEXT in arena a, or x itself when a BLOB). -1
** when out of memory, AGG_JSON_TOOBIG past AGG_JSON_MAX bytes. */
int agg_json_value(const pred_value *x, const col_dialect *d, col_arena *a,
                   pred_value *out);

/* The member "label":x into *out. label (ln bytes) is the label's text, or
** NULL for a NULL label (then *out is NULL where the dialect drops such
** members). -1 when out of memory, AGG_JSON_TOOBIG as above. */
int agg_json_member(const char *label, uint32_t ln, const pred_value *x,
                    const col_dialect *d, col_arena *a, pred_value *out);

/* The error a BLOB argument raises (json_jsonb: SQLite may read it as
** JSONB, which group_by does not). */
const char *agg_json_blob_error(const col_dialect *d);

#endif
