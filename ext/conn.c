/*
** conn.c — the per-connection registry of scan tables (see conn.h).
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "conn.h"
#include "dialect_probe.h"
#include "../agg/expr.h"
#include <string.h>

int columnar_conn_add(columnar_conn *cc, const char *name, const void *owner,
                      scan_table *tab, const scan_stats *last, const int *have_last){
  columnar_table_entry *e = sqlite3_malloc64(sizeof(*e));
  if( !e ) return SQLITE_NOMEM;
  e->name = sqlite3_mprintf("%s", name);
  if( !e->name ){ sqlite3_free(e); return SQLITE_NOMEM; }
  e->owner = owner;
  e->tab = tab;
  e->last = last;
  e->have_last = have_last;
  e->next = cc->tables;
  cc->tables = e;
  return SQLITE_OK;
}

void columnar_conn_remove(columnar_conn *cc, const void *owner){
  for(columnar_table_entry **pp = &cc->tables; *pp; pp = &(*pp)->next){
    if( (*pp)->owner==owner ){
      columnar_table_entry *e = *pp;
      *pp = e->next;
      sqlite3_free(e->name);
      sqlite3_free(e);
      return;
    }
  }
}

/* The first table called name, a scan table's if scan_only. */
static columnar_table_entry *conn_lookup(columnar_conn *cc, const char *name, int scan_only){
  /* "temp.hits" and "hits" both find hits. */
  const char *dot = strchr(name, '.');
  if( dot ) name = dot+1;
  for(columnar_table_entry *e = cc->tables; e; e = e->next){
    if( (e->tab || !scan_only) && sqlite3_stricmp(e->name, name)==0 ) return e;
  }
  return 0;
}

const columnar_table_entry *columnar_conn_entry(columnar_conn *cc, const char *name){
  return conn_lookup(cc, name, 0);
}

scan_table *columnar_conn_find(columnar_conn *cc, const char *name){
  const columnar_table_entry *e = conn_lookup(cc, name, 1);
  return e ? e->tab : 0;
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

void columnar_dialect_probe(columnar_conn *cc){
  columnar_dialect_ask(cc->db, &cc->dialect);
}

void columnar_dialect_now(columnar_conn *cc, int with_functions, col_dialect *out){
  *out = cc->dialect;
  columnar_dialect_digits(cc->db, out);
  if( with_functions ) columnar_dialect_functions(cc->db, out);
}

int columnar_collation(sqlite3 *db, const char *coll){
  static const char *probe[2] = {
    /* SQLite's NOCASE folds ASCII alone, to lower case ('[' sorts before
    ** 'a' but after 'A'); its RTRIM drops spaces alone */
    "SELECT 'a' = 'A' COLLATE NOCASE AND '\xc3\xa4' <> '\xc3\x84' COLLATE NOCASE"
    " AND '[' < 'a' COLLATE NOCASE",
    "SELECT 'a ' = 'a' COLLATE RTRIM AND 'a\t' <> 'a' COLLATE RTRIM AND 'A' <> 'a' COLLATE RTRIM",
  };
  int which;
  if( coll==0 || sqlite3_stricmp(coll, "BINARY")==0 ) return COLL_BINARY;
  if( sqlite3_stricmp(coll, "NOCASE")==0 ) which = 0;
  else if( sqlite3_stricmp(coll, "RTRIM")==0 ) which = 1;
  else return -1;
  sqlite3_stmt *st = 0;
  int ours = sqlite3_prepare_v2(db, probe[which], -1, &st, 0)==SQLITE_OK
          && sqlite3_step(st)==SQLITE_ROW && sqlite3_column_int(st, 0)==1;
  sqlite3_finalize(st);
  return ours ? (which==0 ? COLL_NOCASE : COLL_RTRIM) : -1;
}

int columnar_glob_is_sqlites(sqlite3 *db){
  col_dialect d;
  columnar_dialect_functions(db, &d);
  return !d.glob_foreign;
}

/* pragma_function_list shows a definition over SQLite's own with
** builtin=0, and SQLite calls it rather than its own. */
int columnar_functions_replaced(sqlite3 *db){
  static const struct { const char *name; int what; } fns[] = {
    { "length", AGG_USES_STRFN }, { "substr", AGG_USES_STRFN }, { "substring", AGG_USES_STRFN },
    { "instr", AGG_USES_STRFN }, { "strftime", AGG_USES_DATE }, { "date", AGG_USES_DATE },
    { "time", AGG_USES_DATE }, { "datetime", AGG_USES_DATE },
    { "julianday", AGG_USES_DATE }, { "unixepoch", AGG_USES_DATE },
    { "abs", AGG_USES_SCALAR }, { "coalesce", AGG_USES_SCALAR }, { "ifnull", AGG_USES_SCALAR },
    { "nullif", AGG_USES_SCALAR }, { "typeof", AGG_USES_SCALAR }, { "trim", AGG_USES_SCALAR },
    { "ltrim", AGG_USES_SCALAR }, { "rtrim", AGG_USES_SCALAR }, { "replace", AGG_USES_SCALAR },
    { "min", AGG_USES_SCALAR }, { "max", AGG_USES_SCALAR }, { "round", AGG_USES_SCALAR },
    { "json_group_array", AGG_USES_JSON }, { "json_group_object", AGG_USES_JSON },
    { "json_extract", AGG_USES_JSON }, { "->", AGG_USES_JSON }, { "->>", AGG_USES_JSON },
    { "sign", AGG_USES_SCALAR }, { "floor", AGG_USES_MATH }, { "ceil", AGG_USES_MATH },
    { "ceiling", AGG_USES_MATH }, { "trunc", AGG_USES_MATH }, { "mod", AGG_USES_MATH },
    { "pow", AGG_USES_MATH }, { "power", AGG_USES_MATH }, { "sqrt", AGG_USES_MATH },
    { "exp", AGG_USES_MATH }, { "ln", AGG_USES_MATH }, { "log", AGG_USES_MATH },
    { "log10", AGG_USES_MATH }, { "log2", AGG_USES_MATH },
    { "likely", AGG_USES_SCALAR }, { "unlikely", AGG_USES_SCALAR }, { "likelihood", AGG_USES_SCALAR },
    { "hex", AGG_USES_SCALAR }, { "unicode", AGG_USES_SCALAR }, { "char", AGG_USES_SCALAR },
    { "concat", AGG_USES_NEWFN }, { "concat_ws", AGG_USES_NEWFN }, { "octet_length", AGG_USES_NEWFN },
  };
  sqlite3_stmt *st = 0;
  int out = 0;
  if( sqlite3_prepare_v2(db, "SELECT name FROM pragma_function_list WHERE builtin=0", -1, &st, 0)==SQLITE_OK ){
    while( sqlite3_step(st)==SQLITE_ROW ){
      const char *name = (const char*)sqlite3_column_text(st, 0);
      for(size_t i=0; name && i<sizeof(fns)/sizeof(fns[0]); i++){
        if( sqlite3_stricmp(name, fns[i].name)==0 ) out |= fns[i].what;
      }
    }
  }
  sqlite3_finalize(st);
  /* the math functions are there only in a build with
  ** SQLITE_ENABLE_MATH_FUNCTIONS: without them SQLite says "no such
  ** function", and so must group_by */
  st = 0;
  if( sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_function_list WHERE name='floor' AND builtin=1", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW && sqlite3_column_int(st, 0)==0 ) out |= AGG_USES_MATH;
  sqlite3_finalize(st);
  /* concat() and concat_ws() came in 3.44, octet_length() in 3.43 */
  st = 0;
  if( sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_function_list WHERE builtin=1"
        " AND name IN ('concat', 'concat_ws', 'octet_length')", -1, &st, 0)==SQLITE_OK
   && sqlite3_step(st)==SQLITE_ROW && sqlite3_column_int(st, 0)<3 ) out |= AGG_USES_NEWFN;
  sqlite3_finalize(st);
  return out;
}

