/*
** dialect_probe.h — asking a connection's SQLite how it answers where
** versions and builds differ (reader/dialect.h).
**
** Included after sqlite3ext.h by ext/conn.c (the calls go through the
** extension's routine table) and after sqlite3.h by the C tests, which
** compare against the SQLite they link and must expect its answers.
*/
#ifndef COLUMNAR_DIALECT_PROBE_H
#define COLUMNAR_DIALECT_PROBE_H

#include <math.h>
#include <string.h>
#include "../reader/dialect.h"
#include "../agg/datetime.h"
#include "../agg/value.h"

#ifndef SQLITE_DBCONFIG_FP_DIGITS
# define SQLITE_DBCONFIG_FP_DIGITS 1023   /* 3.52 */
#endif

/* SQLite's own printf renders a REAL as CAST(r AS TEXT) does, in every
** version: the cast is "%!.*g" with its digits (15 before 3.52). */
static int columnar_real_text(double r, int digits, char *buf, size_t n){
  sqlite3_snprintf((int)n, buf, "%!.*g", digits, r);
  return (int)strlen(buf);
}

/* What str holds, finished, into buf[n] (cut to fit); returns its length.
** Fields go through an sqlite3_str as strftime renders its own. */
static int columnar_str_into(sqlite3_str *str, char *buf, size_t n){
  char *z = sqlite3_str_finish(str);
  int len = z ? (int)strlen(z) : 0;
  if( (size_t)len >= n ) len = n ? (int)n - 1 : 0;
  if( n ){ memcpy(buf, z ? z : "", (size_t)len); buf[len] = 0; }
  sqlite3_free(z);
  return len;
}

/* 3.54's sqlite3_snprintf gives "00.00" for this format and 0.0, its
** sqlite3_str "00.000". */
static int columnar_seconds_text(double s, char *buf, size_t n){
  sqlite3_str *str = sqlite3_str_new(0);
  sqlite3_str_appendf(str, "%06.3f", s);
  return columnar_str_into(str, buf, n);
}

/* %J: SQLite's printf rounds some 16th digits apart from the C library's */
static int columnar_jd_text(double jd, char *buf, size_t n){
  sqlite3_str *str = sqlite3_str_new(0);
  sqlite3_str_appendf(str, "%.16g", jd);
  return columnar_str_into(str, buf, n);
}

/* round()'s printing: "%.*f", or "%!.*f" where the probe found it */
static int columnar_fixed_text(double r, int places, char *buf, size_t n){
  sqlite3_str *str = sqlite3_str_new(0);
  sqlite3_str_appendf(str, "%.*f", places, r);
  return columnar_str_into(str, buf, n);
}
static int columnar_fixed_text_alt(double r, int places, char *buf, size_t n){
  sqlite3_str *str = sqlite3_str_new(0);
  sqlite3_str_appendf(str, "%!.*f", places, r);
  return columnar_str_into(str, buf, n);
}

/* The JSON functions' REAL: jsonAppendSqlValue's "%!0.15g", whose zero
** flag makes 3.50 write infinity as 9.0e+999 */
static int columnar_json_real_text(double r, char *buf, size_t n){
  sqlite3_snprintf((int)n, buf, "%!0.15g", r);
  return (int)strlen(buf);
}
/* ... and 3.53's "%!0.17g" (0.30000000000000004 whole, 0.1 still 0.1) */
static int columnar_json_real_text17(double r, char *buf, size_t n){
  sqlite3_snprintf((int)n, buf, "%!0.17g", r);
  return (int)strlen(buf);
}

/* The json_* fields of d: how json_group_object treats a NULL label and
** one with a NUL byte, whether a BLOB may be JSONB, and that REALs render
** as columnar_json_real_text says (0.30000000000000004, infinity). With
** no JSON functions, or other REALs, json aggregates are refused. */
static void columnar_dialect_json(sqlite3 *db, col_dialect *d){
  sqlite3_stmt *st = 0;
  d->json_refused = 1;
  if( sqlite3_prepare_v2(db, "SELECT json_group_object(NULL, 1),"
        " json_group_object('a' || char(0) || 'b', 2),"
        " json_group_array(0.30000000000000004), json_group_array(9e999)", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    const char *o = (const char*)sqlite3_column_text(st, 0);
    const char *l = (const char*)sqlite3_column_text(st, 1);
    d->json_null_label_skip = o && strcmp(o, "{}")==0;
    d->json_label_cstr = l && strcmp(l, "{\"a\":2}")==0;
    const char *a = (const char*)sqlite3_column_text(st, 2);
    const char *b = (const char*)sqlite3_column_text(st, 3);
    int (*const texts[])(double, char*, size_t) = { columnar_json_real_text,
                                                     columnar_json_real_text17 };
    for(size_t k=0; k<sizeof(texts)/sizeof(texts[0]) && d->json_refused && a && b; k++){
      char want[2][48], buf[40];
      texts[k](0.30000000000000004, buf, sizeof(buf));
      sqlite3_snprintf(sizeof(want[0]), want[0], "[%s]", buf);
      texts[k](HUGE_VAL, buf, sizeof(buf));
      sqlite3_snprintf(sizeof(want[1]), want[1], "[%s]", buf);
      if( strcmp(a, want[0])==0 && strcmp(b, want[1])==0 ){
        d->json_refused = 0;
        d->json_real_text = texts[k];
      }
    }
  }
  sqlite3_finalize(st);
  st = 0;
  /* x'00' is JSONB's null */
  if( !d->json_refused && sqlite3_prepare_v2(db, "SELECT json_group_array(x'00')", -1, &st, 0)==SQLITE_OK ){
    d->json_jsonb = sqlite3_step(st)==SQLITE_ROW;
  }
  sqlite3_finalize(st);
}

/* Fill d from two probe queries on db: LIKE on a BLOB, U+FFFF in a GLOB
** class, length() of a stray continuation byte and a compensated sum; then
** a day past the month's end and two strftime letters, apart, since a
** build may leave the date functions out (SQLITE_OMIT_DATETIME_FUNCS);
** then the JSON aggregates (columnar_dialect_json). A failed probe leaves
** 3.40's answers. real_digits is not set
** (columnar_dialect_digits). */
/* d->date_local: which of 3.40's and 3.42's 'localtime' and 'utc' give
** this SQLite's answers in this process's time zone, asked of times
** around the years localtime_r() is trusted with, around DST changes, and
** of the modifiers twice (3.42 does 'localtime' once) and after a zone
** suffix (3.40 leaves such a time alone under 'utc'). With no offset in
** sight (UTC) both agree, and the version decides. Neither: 0, refused. */
static void columnar_dialect_local(sqlite3 *db, col_dialect *d){
  static const char *at[] = {
    "1900-07-01 12:00:00", "1969-07-01 12:00:00", "1970-07-01 12:00:00",
    "1985-01-15 06:30:15.250", "2000-01-01 12:00:00", "2000-07-01 12:00:00",
    "2013-03-10 07:30:00", "2013-11-03 06:30:00", "2037-12-31 23:00:00",
    "2038-07-01 12:00:00", "2100-01-15 12:00:00", "2000-07-01 12:00+00:00",
  };
  static const char *mods[][2] = {
    {"localtime", "+0 seconds"}, {"utc", "+0 seconds"}, {"localtime", "localtime"},
    {"localtime", "utc"}, {"utc", "localtime"}, {"utc", "utc"},
  };
  sqlite3_stmt *st = 0;
  int ok[4] = { 0, 1, 1, 1 };
  d->date_local = AGG_LOCAL_UNKNOWN;
  if( sqlite3_prepare_v2(db, "SELECT datetime(?1, ?2, ?3)", -1, &st, 0)!=SQLITE_OK ) return;
  for(size_t i=0; i<sizeof(at)/sizeof(at[0]); i++){
    for(size_t j=0; j<sizeof(mods)/sizeof(mods[0]); j++){
      sqlite3_bind_text(st, 1, at[i], -1, SQLITE_STATIC);
      agg_date_mod m[2];
      for(int k=0; k<2; k++){
        sqlite3_bind_text(st, 2+k, mods[j][k], -1, SQLITE_STATIC);
        agg_date_mod_parse(mods[j][k], (uint32_t)strlen(mods[j][k]), &m[k]);
      }
      if( sqlite3_step(st)!=SQLITE_ROW ){ sqlite3_finalize(st); return; }
      const char *want = (const char*)sqlite3_column_text(st, 0);
      pred_value x;
      memset(&x, 0, sizeof(x));
      x.type = CV_TEXT; x.p = at[i]; x.n = (uint32_t)strlen(at[i]);
      for(int a=AGG_LOCAL_340; a<=AGG_LOCAL_353; a++){
        col_dialect t = *d;
        char out[64];
        t.date_local = (uint8_t)a;
        int n = agg_date_text(1, &x, m, 2, &t, out);
        if( n<0 ? want!=0 : (want==0 || (int)strlen(want)!=n || memcmp(want, out, (size_t)n)!=0) ) ok[a] = 0;
      }
      sqlite3_reset(st);
    }
  }
  sqlite3_finalize(st);
  if( ok[AGG_LOCAL_340] && ok[AGG_LOCAL_342] ){
    /* no offset in sight: the version decides (3.53's +00:00 rule among
    ** them, which the probe cannot tell in a zone without an offset) */
    d->date_local = sqlite3_libversion_number()>=3042000 ? AGG_LOCAL_342 : AGG_LOCAL_340;
    if( d->date_local==AGG_LOCAL_342 && ok[AGG_LOCAL_353]
     && sqlite3_libversion_number()>=3053000 ) d->date_local = AGG_LOCAL_353;
  }else if( ok[AGG_LOCAL_342] ){
    d->date_local = AGG_LOCAL_342;
  }else if( ok[AGG_LOCAL_353] ){
    d->date_local = AGG_LOCAL_353;
  }else if( ok[AGG_LOCAL_340] ){
    d->date_local = AGG_LOCAL_340;
  }
}

/* d->or_in_keeps_collation, by the version: showing it takes an index,
** so a table, so a connection of its own, and opening one would run the
** application's automatic extensions (this one among them, probing again).
** 3.52.0 makes the IN, 3.53.4 does not (whereexpr.c skips an OR with a
** COLLATE in it); the releases between count as 3.52's, which costs a
** TEXT IN a superset filter SQLite re-checks, never an answer. */
static void columnar_dialect_or_in(col_dialect *d){
  d->or_in_keeps_collation = sqlite3_libversion_number() >= 3053004;
}

static void columnar_dialect_ask(sqlite3 *db, col_dialect *d){
  sqlite3_stmt *st = 0;
  memset(d, 0, sizeof(*d));
  d->real_text = columnar_real_text;
  d->seconds_text = columnar_seconds_text;
  d->jd_text = columnar_jd_text;
  d->fixed_text = columnar_fixed_text;
  d->json_real_text = columnar_json_real_text;
  if( sqlite3_prepare_v2(db, "SELECT x'41' LIKE 'A',"
        " CAST(x'efbfbd' AS TEXT) GLOB '[' || CAST(x'efbfbf' AS TEXT) || ']',"
        " length(CAST(x'808061' AS TEXT)),"
        " (SELECT sum(column1) FROM (VALUES(1e308),(3),(-1e308))),"
        " round(1.23456, 4294967297), round(0.1 + 0.2, 20) <> 0.3", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    d->like_blobs = sqlite3_column_int(st, 0)==1;
    d->utf8_keep_nonchar = sqlite3_column_int(st, 1)==0;
    d->utf8_lead_any = sqlite3_column_int(st, 2)==2;
    /* 1e308 + 3 - 1e308: 0.0 added plainly, 3.0 compensated */
    d->sum_kbn = sqlite3_column_double(st, 3)==3.0;
    /* 4294967297 places: 1 as an int, 30 as an int64 */
    d->round_n64 = sqlite3_column_double(st, 4)!=1.2;
    /* 20 places of 0.30000000000000004: 16 digits print 0.3 */
    d->round_alt = sqlite3_column_int(st, 5)!=0;
    if( d->round_alt ) d->fixed_text = columnar_fixed_text_alt;
  }
  sqlite3_finalize(st);
  st = 0;
  /* Texts on which the conversions agg_atof knows (AGG_ATOF_*) differ,
  ** each from every other on one at least: the first that gives this
  ** SQLite's value for all of them is its conversion; where none does,
  ** the correctly rounded value stands in (agg/value.h). */
  static const char *const atof_texts[] = { "-8.9753444", "510678.502794", "6.154779",
      "-67200329381233571.7667035197e-197", "172987.2166196951e-307",
      "62.788957820029107630", "-14024752.86546" };
  enum { NTEXT = sizeof(atof_texts)/sizeof(atof_texts[0]) };
  static const int modes[] = { AGG_ATOF_340, AGG_ATOF_LD_STEPS, AGG_ATOF_DEKKER, AGG_ATOF_U64,
                               AGG_ATOF_352 };
  double want[NTEXT];
  int nwant = 0;
  if( sqlite3_prepare_v2(db, "SELECT CAST(?1 AS REAL)", -1, &st, 0)==SQLITE_OK ){
    for(; nwant<NTEXT; nwant++){
      sqlite3_bind_text(st, 1, atof_texts[nwant], -1, SQLITE_STATIC);
      if( sqlite3_step(st)!=SQLITE_ROW ) break;
      want[nwant] = sqlite3_column_double(st, 0);
      sqlite3_reset(st);
    }
  }
  if( nwant==NTEXT ) d->atof_mode = AGG_ATOF_EXACT;
  for(size_t m=0; nwant==NTEXT && m<sizeof(modes)/sizeof(modes[0]); m++){
    int all = 1;
    for(int i=0; i<NTEXT && all; i++){
      double got;
      agg_atof(modes[m], atof_texts[i], (uint32_t)strlen(atof_texts[i]), &got);
      all = memcmp(&want[i], &got, sizeof(got))==0;
    }
    if( all ){ d->atof_mode = (uint8_t)modes[m]; break; }
  }
  sqlite3_finalize(st);
  st = 0;
  if( sqlite3_prepare_v2(db, "SELECT date('2013-02-30'), strftime('%F', '2013-07-15'),"
        " strftime('%V', '2013-07-15'), strftime('%f', '2000-01-01 00:00:45.9996'),"
        " strftime('%J', '-1900-10-31'), time('2000-01-01 24:00:00'),"
        " datetime('2000-01-01 00:00:00.5', 'subsec'),"
        " date('2000-01-31', '+0000-01-00') || datetime('2000-01-31 10:00', '-0001-01-01 01:30:15.5'),"
        " date('2000-01-31', '+1 month', 'floor') || date('2000-03-31', '-0000-01-00', 'ceiling')", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    const char *f = (const char*)sqlite3_column_text(st, 3);
    const char *neg = (const char*)sqlite3_column_text(st, 4);
    const char *h24 = (const char*)sqlite3_column_text(st, 5);
    d->date_ms_cut = f && strcmp(f, "45.999")==0;
    d->date_jd_exact = neg && strcmp(neg, "1027402.5")==0;   /* not 1027403.5 */
    d->date_hour24 = h24 && strcmp(h24, "00:00:00")==0;
    d->date_subsec = sqlite3_column_type(st, 6)==SQLITE_TEXT
                  && strcmp((const char*)sqlite3_column_text(st, 6), "2000-01-01 00:00:00.500")==0;
    d->date_normalize = sqlite3_column_type(st, 0)==SQLITE_TEXT
                     && strcmp((const char*)sqlite3_column_text(st, 0), "2013-03-02")==0;
    d->strftime_344 = sqlite3_column_type(st, 1)!=SQLITE_NULL;
    d->strftime_346 = sqlite3_column_type(st, 2)!=SQLITE_NULL;
    const char *ymd = (const char*)sqlite3_column_text(st, 7);
    const char *fl = (const char*)sqlite3_column_text(st, 8);
    d->date_ymd_mod = ymd && strcmp(ymd, "2000-03-021998-12-30 08:29:44")==0;
    d->date_floor = d->date_ymd_mod && fl && strcmp(fl, "2000-02-292000-03-02")==0;
  }
  sqlite3_finalize(st);
  st = 0;
  /* 'x' IS NULL is false without a row: where SQLite knows that here, the
  ** WHEN never computes abs(), which overflows; where it knows it only in
  ** a WHERE clause, the row raises the error */
  if( sqlite3_prepare_v2(db, "SELECT CASE WHEN abs(column1) > 0 AND 'x' IS NULL THEN 1 ELSE 2 END"
        " FROM (VALUES(-9223372036854775808))", -1, &st, 0)==SQLITE_OK ){
    d->null_test_where_only = sqlite3_step(st)!=SQLITE_ROW;
  }
  sqlite3_finalize(st);
  st = 0;
  /* the same overflow in a value: an OR with a side known true */
  if( sqlite3_prepare_v2(db, "SELECT abs(column1) > 0 OR 1 FROM (VALUES(-9223372036854775808))",
        -1, &st, 0)==SQLITE_OK ){
    d->andor_value_simplify = sqlite3_step(st)==SQLITE_ROW;
  }
  sqlite3_finalize(st);
  st = 0;
  /* and an AND with a literal false side, which the parser folds to 0 or
  ** not: where it keeps it, the value computes abs() */
  if( sqlite3_prepare_v2(db, "SELECT abs(column1) > 0 AND 0 FROM (VALUES(-9223372036854775808))",
        -1, &st, 0)==SQLITE_OK ){
    d->and_false_func_kept = sqlite3_step(st)!=SQLITE_ROW;
  }
  sqlite3_finalize(st);
  st = 0;
  /* concat_ws and empty arguments (where this SQLite has it: 3.44) */
  if( sqlite3_prepare_v2(db, "SELECT concat_ws('-', 'a', '', 'b'), concat_ws('-', '', 'a')", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    const char *j1 = (const char*)sqlite3_column_text(st, 0), *j2 = (const char*)sqlite3_column_text(st, 1);
    d->concat_ws_empty = j1 && strcmp(j1, "a--b")==0 ? (j2 && strcmp(j2, "-a")==0 ? 2 : 1) : 0;
  }
  sqlite3_finalize(st);
  st = 0;
  /* a group holding 1 then 1.0, the second row max()'s: its key x + 0
  ** read from the term (the first row's 1) or computed from the second */
  if( sqlite3_prepare_v2(db, "SELECT typeof(a) FROM (SELECT x + 0 AS a, max(y) FROM"
        " (SELECT 1 AS x, 1 AS y UNION ALL SELECT 1.0, 2) GROUP BY x + 0)", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    const char *t = (const char*)sqlite3_column_text(st, 0);
    d->gb_term_first = t && strcmp(t, "integer")==0;
  }
  sqlite3_finalize(st);
  st = 0;
  /* iif() of two arguments and if() (3.48) */
  d->iif_multi = sqlite3_prepare_v2(db, "SELECT iif(0, 1), if(0, 1, 2, 3, 4)", -1, &st, 0)==SQLITE_OK;
  sqlite3_finalize(st);
  st = 0;
  /* log10(2) as libm's log10 against ln(2)/ln(10) (one unit apart) */
  if( sqlite3_prepare_v2(db, "SELECT log10(2) <> ln(2) / ln(10)", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    d->log_direct = sqlite3_column_int(st, 0)!=0;
  }
  sqlite3_finalize(st);
  columnar_dialect_or_in(d);
  columnar_dialect_json(db, d);
  columnar_dialect_local(db, d);
}

/* d->like_case_sensitive and the *_foreign fields as db's LIKE, GLOB,
** lower() and upper() are now: PRAGMA case_sensitive_like and an
** extension loaded later (ICU's replaces LIKE, lower and upper) change
** them. SQLite's own fold ASCII alone, and its GLOB tells case apart and
** knows classes. */
static void columnar_dialect_functions(sqlite3 *db, col_dialect *d){
  sqlite3_stmt *st = 0;
  d->like_case_sensitive = d->like_foreign = d->case_foreign = d->glob_foreign = 0;
  if( sqlite3_prepare_v2(db, "SELECT 'a' LIKE 'A', '\xc3\xa4' LIKE '\xc3\x84',"
        " lower('\xc3\x84') <> '\xc3\x84' OR upper('\xc3\xa4') <> '\xc3\xa4',"
        " 'a' GLOB 'A' OR '\xc3\xa4' GLOB '\xc3\x84' OR NOT 'b' GLOB '[a-c]'", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW ){
    d->like_case_sensitive = sqlite3_column_int(st, 0)==0;
    d->like_foreign = sqlite3_column_int(st, 1)!=0;
    d->case_foreign = sqlite3_column_int(st, 2)!=0;
    d->glob_foreign = sqlite3_column_int(st, 3)!=0;
  }
  sqlite3_finalize(st);
}

/* d->real_digits as db's setting is now (SQLITE_DBCONFIG_FP_DIGITS, 3.52). */
static void columnar_dialect_digits(sqlite3 *db, col_dialect *d){
  int digits = 0;
  if( sqlite3_libversion_number()>=3052000
   && sqlite3_db_config(db, SQLITE_DBCONFIG_FP_DIGITS, 0, &digits)==SQLITE_OK
   && digits>0 && digits<=23 ){
    d->real_digits = (uint8_t)digits;
  }
}

#endif
