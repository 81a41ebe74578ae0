/*
** ts_memo.h — strftime(), date(), time() and datetime() with a template
** format over a timestamp column read as its stored integers.
**
**   keys = 'strftime(''%Y-%m-%d %H:%M:00'', EventTime) AS M'
**
** A Parquet TIMESTAMP reaches SQLite as text; group_by asks the reader for
** the integers instead (scan_spec.raw, when nothing else reads the column)
** and computes the function's text once per distinct value the template can
** tell apart: a format that stops at minutes sees one value per minute.
** Each such text is an entry of a dictionary that only grows, so a key's
** rows come as dictionary codes and group_by looks each entry up once
** (col_vector.dict_id). The entries are what the text path gives: the
** instant's text (reader/parquet/value.h) through the template.
**
** Only whole seconds in years 0000-9999 take the memo; a row with a
** fraction of a second, outside those years, or past the dictionary's size
** limit is AGG_TS_OTHER, for the caller to render (agg_ts_text) and
** compute the SQLite way.
*/
#ifndef COLUMNAR_AGG_TS_MEMO_H
#define COLUMNAR_AGG_TS_MEMO_H

#include <stdint.h>
#include "../reader/vector.h"
#include "expr_strfn.h"

#define AGG_TS_NULL  0xffffffffu   /* the value is NULL: so is the result */
#define AGG_TS_OTHER 0xfffffffeu   /* compute this row through its text */

typedef struct agg_ts_memo agg_ts_memo;

/* A memo for template t (which must outlive it) over timestamps counted
** in unit (COL_TS_*); normalize as agg_ts_canonical's. NULL when out of
** memory. */
agg_ts_memo *agg_ts_memo_new(const agg_tpl *t, int unit, int normalize);
void agg_ts_memo_free(agg_ts_memo *m);

/* A memo whose entries are one per day: fn(ctx, text, n, out) writes the
** result for canonical timestamp text[0..n) (the day's midnight) into out
** (width bytes) and returns its length, or -1 for NULL (those days then
** take the text path). For a date function whose modifiers and format
** see only the day (agg_date_mods_daily). */
typedef int (*agg_ts_entry_fn)(void *ctx, const char *text, uint32_t n, char *out);
agg_ts_memo *agg_ts_memo_new_daily(agg_ts_entry_fn fn, void *ctx, uint32_t width,
                                   int unit, int normalize);

/* For the live rows of v (CV_INT timestamps; sel/nsel as in col_batch):
** codes[r] = the row's dictionary entry, AGG_TS_NULL or AGG_TS_OTHER.
** Returns the number of AGG_TS_OTHER rows, or -1 when out of memory. The
** dictionary may grow: read it after this call. */
int64_t agg_ts_memo_codes(agg_ts_memo *m, const col_vector *v, const uint32_t *sel,
                          uint32_t nsel, uint32_t *codes);

/* The dictionary (a FLAT TEXT vector) and the name it keeps as it grows. */
const col_vector *agg_ts_memo_dict(const agg_ts_memo *m);
uint64_t agg_ts_memo_id(const agg_ts_memo *m);

/* Bytes m holds (0 for NULL). */
uint64_t agg_ts_memo_bytes(const agg_ts_memo *m);

/* The text the reader shows for x counted in unit, into buf (64 bytes). */
int agg_ts_text(int64_t x, int unit, char *buf);

#endif
