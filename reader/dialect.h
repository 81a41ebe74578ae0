/*
** dialect.h — what the SQLite a query runs inside does differently from
** other SQLite versions and builds.
**
** Pushdown and group_by must give what SQLite itself gives over the same
** rows, and SQLite has changed its answers over the years: how a REAL
** becomes text, whether LIKE looks inside a BLOB (a build option), how
** sum() adds, how malformed UTF-8 splits into characters. The extension
** layer (ext/conn.c) finds out which answers the loaded SQLite gives by
** asking it (probe queries, sqlite3_db_config): once per connection what
** only its version and build decide, again per statement what a PRAGMA,
** a setting or an extension loaded later can change. It hands the result
** down to the reader and to group_by in this struct.
**
** Every field's zero is what SQLite 3.40.1 as Debian 12 builds it does,
** the version this project was first checked against, so a zeroed struct
** (or a NULL pointer to one) means that.
*/
#ifndef COLUMNAR_DIALECT_H
#define COLUMNAR_DIALECT_H

#include <stddef.h>
#include <stdint.h>

typedef struct col_dialect {
  uint8_t like_blobs;     /* LIKE and GLOB match a BLOB's bytes as text
                          ** (upstream's default); 0 under
                          ** SQLITE_LIKE_DOESNT_MATCH_BLOBS (NULL, no match) */
  uint8_t utf8_keep_nonchar; /* LIKE and GLOB read U+FFFE and U+FFFF as
                          ** themselves (3.54); 0: as U+FFFD (3.40 to
                          ** 3.46 at least) */
  uint8_t utf8_lead_any;  /* length() and substr() start a character at any
                          ** byte >= 0x80 and give it the continuation
                          ** bytes after it (3.54); 0: only a byte >= 0xc0
                          ** takes continuation bytes, a stray one is a
                          ** character of its own */
  uint8_t sum_kbn;        /* sum/total/avg keep an exact integer sum until
                          ** a REAL or an overflow, then add with
                          ** Kahan-Babuska-Neumaier (3.43); 0: every input
                          ** is also added to a plain double sum, which
                          ** total and avg return */
  uint8_t date_normalize; /* a date with no modifier and a day past its
                          ** month's end is the day that many days on
                          ** (date('2013-02-30') is '2013-03-02', as in
                          ** 3.46; 3.42 does not); 0: printed as given */
  uint8_t strftime_344;   /* strftime knows %e %F %I %k %l %p %P %R %T %u
                          ** (3.44); 0: they make the result NULL */
  uint8_t strftime_346;   /* strftime knows %G %g %U %V (3.46) */
  uint8_t date_ms_cut;    /* a fraction of a second past .999 is cut to
                          ** .999 (by 3.50); 0: rounded into the next
                          ** second ('...:45.9996' has %f 46.000, %s +1) */
  uint8_t date_jd_exact;  /* Julian days of years before 1 without the
                          ** truncating divisions (by 3.50):
                          ** date('-1900-10-31') is itself; 0: '-1900-11-01' */
  uint8_t date_local;     /* 'localtime' and 'utc' as 3.40 or 3.42 compute
                          ** them (agg/datetime.h AGG_LOCAL_*), 0 not known */
  uint8_t date_subsec;    /* the modifier 'subsec' (3.42): datetime() and
                          ** time() show milliseconds, unixepoch() is REAL,
                          ** %s has three decimals; 0: it makes NULL */
  uint8_t date_ymd_mod;   /* the modifier (+|-)YYYY-MM-DD[ HH:MM[:SS]]
                          ** (3.43); 0: it makes NULL */
  uint8_t date_floor;     /* the modifiers 'floor' and 'ceiling' (3.46); 0:
                          ** they make NULL */
  uint8_t date_hour24;    /* hour 24 only as 24:00:00, read as the next
                          ** day's 00:00:00 (3.54); 0: 24:MM:SS as given */
  uint8_t like_case_sensitive; /* LIKE tells case apart (PRAGMA
                          ** case_sensitive_like, or a build with
                          ** SQLITE_CASE_SENSITIVE_LIKE); per statement */
  uint8_t like_foreign;   /* like() is not SQLite's built-in one: an
                          ** extension replaced it ('ä' LIKE 'Ä' holds, as
                          ** under ICU's); nothing can stand in for it */
  uint8_t case_foreign;   /* lower() or upper() is not SQLite's (ICU's
                          ** fold beyond ASCII); per statement too */
  uint8_t glob_foreign;   /* glob() is not SQLite's; per statement too */
  uint8_t real_digits;    /* significant digits of a REAL rendered as text:
                          ** 0 means 15 (before 3.52, where it became 17
                          ** and SQLITE_DBCONFIG_FP_DIGITS) */
  /* Render r as SQLite does ("%!.*g" with real_digits digits) into buf[n],
  ** NUL-terminated, returning the length; NULL: reader/like.c's own
  ** rendering of 3.40's "%!.15g" (the extension points this at SQLite's
  ** printf, which is then right for any version by construction). */
  int (*real_text)(double r, int digits, char *buf, size_t n);
  /* strftime's %f: seconds as SQLite's printf gives "%06.3f" (3.40 rounds
  ** 41.9995 up to 42.000, later versions to 41.999) into buf[n]; NULL: the
  ** C library's printf, the later versions' answer. */
  int (*seconds_text)(double s, char *buf, size_t n);
  /* strftime's %J: a Julian day as SQLite's printf renders "%.16g" into
  ** buf[n] (its rounding of the 16th digit is its own); NULL: the C
  ** library's */
  int (*jd_text)(double jd, char *buf, size_t n);
  /* round(x, n): x as SQLite's printf renders "%.*f" (round_alt: "%!.*f",
  ** up to 26 significant digits, not 16) into buf[sz]; NULL: the C
  ** library's "%.*f" */
  int (*fixed_text)(double r, int n, char *buf, size_t sz);
  uint8_t round_alt;      /* roundFunc prints with "%!.*f" (see fixed_text) */
  uint8_t atof_mode;      /* text to REAL as the version computes it
                          ** (agg/value.h AGG_ATOF_*, 0 is 3.40's); where
                          ** it is none of those, AGG_ATOF_EXACT: the
                          ** correctly rounded value stands in for it */
  /* json_group_array and json_group_object (agg/json.h) */
  uint8_t json_refused;   /* the SQLite has no JSON functions
                          ** (SQLITE_OMIT_JSON), or renders a REAL in JSON
                          ** otherwise than json_real_text: not evaluated */
  uint8_t json_null_label_skip; /* json_group_object leaves out a row whose
                          ** label is NULL (3.50); 0: writes its value with
                          ** nothing before the colon, {:1} (3.40) */
  uint8_t json_label_cstr; /* a label ends at its first NUL byte (3.50,
                          ** strlen); 0: all its bytes, NUL escaped */
  uint8_t json_jsonb;     /* a BLOB argument is read as JSONB (3.45); 0: it
                          ** is the error "JSON cannot hold BLOB values" */
  /* A REAL as the JSON functions render it, SQLite's "%!0.15g" (3.40:
  ** "Inf", 3.50: "9.0e+999") or "%!0.17g" (3.53), into buf[n],
  ** NUL-terminated, returning the length; NULL: pred_real_to_text, 3.40's. */
  int (*json_real_text)(double r, char *buf, size_t n);
  uint8_t round_n64;      /* roundFunc reads its places as a 64-bit integer;
                          ** 0: as an int (round(x, 4294967297) rounds to 1) */
  uint8_t andor_value_simplify; /* AND and OR computed for a value skip
                          ** their sides whose truth is known, as in a
                          ** condition (exprCodeTargetAndOr, 3.51):
                          ** abs(x) > 0 OR 1 is 1; 0: both sides are
                          ** computed (3.40, 3.46) */
  uint8_t null_test_where_only; /* x IS NULL, x IS NOT NULL and the like
                          ** over a literal that is not NULL are known
                          ** false or true only in the WHERE clause
                          ** (resolve.c's NC_Where, 3.46 at least): in a
                          ** CASE's WHEN or an aggregate's FILTER they are
                          ** computed, and the other side of an AND or OR
                          ** with them is too; 0: known everywhere (3.40) */
  uint8_t concat_ws_empty; /* concat_ws() and an empty argument: 0 skipped
                          ** like a NULL (3.44-3.46: concat_ws('-', 'a', '',
                          ** 'b') is 'a-b'); 1 joined, but not before the
                          ** first text written ('a--b', concat_ws('-', '',
                          ** 'a') 'a': 3.50); 2 joined as any (3.53: '-a') */
  uint8_t gb_term_first;  /* a GROUP BY result column that is the same
                          ** expression as a GROUP BY term, and not a bare
                          ** column, is read from the term's value at the
                          ** group's first row (3.50, 3.53; of identical
                          ** result columns the last); 0: computed again
                          ** from the columns as the row the last min() or
                          ** max() chose holds them (3.40), as a bare
                          ** column always is. Tells 1 from 1.0 in a group
                          ** holding both (agg/groupby_int.h, GB_KEYREP) */
  uint8_t iif_multi;      /* iif() takes two or more arguments (pairs and an
                          ** ELSE), and if() is its name too (3.48) */
  uint8_t log_direct;     /* log(x), log10(x) and log2(x) call libm's log10()
                          ** and log2() (3.46, 3.53); 0: the natural log
                          ** divided by M_LN10 or M_LN2 (3.40), a unit of
                          ** the last place apart for some x */
  uint8_t and_false_func_kept; /* an AND with an INTEGER literal false side
                          ** is kept where a side calls a function, and a
                          ** value computes both sides (3.50: sqlite3ExprAnd
                          ** checks EP_HasFunc; 3.51 skips known sides,
                          ** andor_value_simplify); 0: the parser makes it
                          ** the literal 0, nothing computed (3.40-3.49) */
  uint8_t or_in_keeps_collation; /* an OR of = on one column whose
                          ** branches' collations differ is not made an IN
                          ** (3.53); 0: it is, with one branch's collation
                          ** for all (3.40-3.52: c COLLATE RTRIM = 'a' OR
                          ** c = 'b' misses 'a ' on an index), which is
                          ** what a virtual table is offered as that IN */
} col_dialect;

#endif /* COLUMNAR_DIALECT_H */
