/*
** conn.c — the per-connection registry of scan tables (see conn.h).
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "conn.h"
#include <string.h>

int columnar_conn_add(columnar_conn *cc, const char *name, scan_table *tab){
  columnar_table_entry *e = sqlite3_malloc64(sizeof(*e));
  if( !e ) return SQLITE_NOMEM;
  e->name = sqlite3_mprintf("%s", name);
  if( !e->name ){ sqlite3_free(e); return SQLITE_NOMEM; }
  e->tab = tab;
  e->next = cc->tables;
  cc->tables = e;
  return SQLITE_OK;
}

void columnar_conn_remove(columnar_conn *cc, scan_table *tab){
  for(columnar_table_entry **pp = &cc->tables; *pp; pp = &(*pp)->next){
    if( (*pp)->tab==tab ){
      columnar_table_entry *e = *pp;
      *pp = e->next;
      sqlite3_free(e->name);
      sqlite3_free(e);
      return;
    }
  }
}

scan_table *columnar_conn_find(columnar_conn *cc, const char *name){
  /* "temp.hits" and "hits" both find hits. */
  const char *dot = strchr(name, '.');
  if( dot ) name = dot+1;
  for(columnar_table_entry *e = cc->tables; e; e = e->next){
    if( sqlite3_stricmp(e->name, name)==0 ) return e->tab;
  }
  return 0;
}

sqlite3_stmt *columnar_probe_open(sqlite3 *db){
  sqlite3_stmt *stmt = 0;
  if( sqlite3_prepare_v2(db, "SELECT 1", -1, &stmt, 0)!=SQLITE_OK ){
    sqlite3_finalize(stmt);
    return 0;
  }
  return stmt;
}

int columnar_probe_interrupted(void *stmt){
  if( stmt==0 ) return 0;
  int rc = sqlite3_step((sqlite3_stmt*)stmt);
  sqlite3_reset((sqlite3_stmt*)stmt);
  return rc==SQLITE_INTERRUPT;
}

/* ---- the SQLite we run in ------------------------------------------------ */

#ifndef SQLITE_DBCONFIG_FP_DIGITS
# define SQLITE_DBCONFIG_FP_DIGITS 1023   /* 3.52 */
#endif

/* SQLite's own printf renders a REAL as CAST(r AS TEXT) does, in every
** version: the cast is "%!.*g" with its digits (15 before 3.52). */
static int dialect_real_text(double r, int digits, char *buf, size_t n){
  sqlite3_snprintf((int)n, buf, "%!.*g", digits, r);
  return (int)strlen(buf);
}

void columnar_dialect_probe(columnar_conn *cc){
  static const char probe[] =
    "SELECT x'41' LIKE 'A',"
    " CAST(x'efbfbd' AS TEXT) GLOB '[' || CAST(x'efbfbf' AS TEXT) || ']',"
    " length(CAST(x'808061' AS TEXT)),"
    " (SELECT sum(column1) FROM (VALUES(1e308),(3),(-1e308)))";
  col_dialect *d = &cc->dialect;
  sqlite3_stmt *st = 0;
  memset(d, 0, sizeof(*d));
  d->real_text = dialect_real_text;
  if( sqlite3_prepare_v2(cc->db, probe, -1, &st, 0)==SQLITE_OK && sqlite3_step(st)==SQLITE_ROW ){
    d->like_blobs = sqlite3_column_int(st, 0)==1;
    d->utf8_keep_nonchar = sqlite3_column_int(st, 1)==0;
    d->utf8_lead_any = sqlite3_column_int(st, 2)==2;
    /* 1e308 + 3 - 1e308: 0.0 added plainly, 3.0 compensated */
    d->sum_kbn = sqlite3_column_double(st, 3)==3.0;
  }
  sqlite3_finalize(st);
}

void columnar_dialect_now(columnar_conn *cc, col_dialect *out){
  *out = cc->dialect;
  int digits = 0;
  if( sqlite3_libversion_number()>=3052000
   && sqlite3_db_config(cc->db, SQLITE_DBCONFIG_FP_DIGITS, 0, &digits)==SQLITE_OK
   && digits>0 && digits<=23 ){
    out->real_digits = (uint8_t)digits;
  }
}
