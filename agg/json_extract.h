/*
** json_extract.h — json_extract(X, P), X -> P and X ->> P over JSON text,
** as SQLite's json.c answers them (3.40 to 3.53 alike, where this file
** answers at all).
**
** Nested Parquet columns reach SQL as JSON text (a STRUCT a JSON object, a
** LIST an array), so grouping by one of their fields is grouping by
** `col ->> 'field'`. The path is a literal, compiled once:
**   $                 the whole document
**   .name  ."name"    an object's member (the first of that name)
**   [N]  [#]  [#-N]   an array's element N, or N from the end
** -> and ->> also take SQLite's abbreviations where 3.40 and 3.45 read
** them alike: a non-negative integer is [N], a text of letters, digits and
** _ not starting with a digit is .name, and a text [...] is $[...].
**
** The document is parsed whole, strictly (RFC 8259, as 3.40 reads it): a
** text that is not strict JSON is an error here. SQLite 3.40 says
** "malformed JSON" too, but 3.42 and later read JSON5 as well, so the
** error here says which. Also refused, where versions answer apart: a
** path that is not well formed (3.40 reports some only when the lookup
** reaches them), an object key holding a backslash escape at a step the
** lookup compares (3.45 decodes escapes there, 3.40 compares raw text), a
** string result holding \u0000 (3.40 cuts the text there), nesting deeper
** than 1000 (3.40's limit is 2000), a NUL byte in the text and a BLOB
** argument (JSONB from 3.45).
**
** Results: a string its unescaped text; an integer that fits 64 bits an
** INTEGER, other numbers a REAL (the SQLite's own text-to-double); true
** and false 1 and 0; null NULL; an object or array its text without the
** whitespace. -> gives every value as JSON text instead (a string with its
** quotes and escapes, a number as written).
*/
#ifndef COLUMNAR_AGG_JSON_EXTRACT_H
#define COLUMNAR_AGG_JSON_EXTRACT_H

#include <stdint.h>
#include "../reader/arena.h"
#include "../reader/dialect.h"
#include "../reader/predicate.h"

#define AGG_JSON_MAX_DEPTH 1000

/* One step of a path. */
typedef struct agg_json_step {
  uint8_t kind;           /* AGG_JSTEP_* */
  uint32_t n;             /* LABEL: bytes of label */
  const char *label;      /* LABEL: the name (in the path's own copy) */
  uint64_t index;         /* INDEX: N; FROM_END: the N of [#-N] */
} agg_json_step;
#define AGG_JSTEP_LABEL 0
#define AGG_JSTEP_INDEX 1
#define AGG_JSTEP_FROM_END 2

typedef struct agg_json_path {
  int null_path;          /* the path is NULL: every answer is NULL */
  int nstep;
  agg_json_step *steps;   /* malloc'd */
  char *text;             /* the path as compiled (malloc'd), labels in it */
} agg_json_path;

/* Compile path text z[0..n): arrow says whose (json_extract's, or the
** TEXT or INTEGER literal after -> or ->>, which take the abbreviations).
** 0, or -1 out of memory, or 1 when the path is not one this file answers
** (*why says how, a static string). */
#define AGG_JSON_EXTRACT 0
#define AGG_JSON_ARROW_TEXT 1
#define AGG_JSON_ARROW_INT 2
int agg_json_path_compile(const char *z, uint32_t n, int arrow, agg_json_path *out,
                          const char **why);
void agg_json_path_free(agg_json_path *p);

/* How the value found is returned. */
#define AGG_JSON_AS_SQL 0       /* json_extract, ->> */
#define AGG_JSON_AS_JSON 1      /* -> */

/* Errors agg_json_extract returns besides -1 (out of memory). */
#define AGG_JSON_MALFORMED (-4)   /* not strict JSON */
#define AGG_JSON_REFUSED (-5)     /* an input versions answer apart */

/* The value at path in the JSON text z[0..n) into *out (a NULL when the
** path finds nothing); text results are allocated in a. 0 on success. */
int agg_json_extract(const char *z, uint32_t n, const agg_json_path *path, int as,
                     const col_dialect *d, col_arena *a, pred_value *out);

#endif
