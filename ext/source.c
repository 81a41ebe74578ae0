/*
** source.c — open the data behind a name or a path (see source.h).
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "scan_vtab.h"
#include <string.h>

/* Does path end with suffix (case-insensitive)? */
static int ends_with(const char *path, const char *suffix){
  size_t n = strlen(path), m = strlen(suffix);
  return n>=m && sqlite3_stricmp(path+n-m, suffix)==0;
}

/* A scan table SQLite has disconnected (it does so to every virtual table
** of a schema it resets, e.g. after a failed CREATE) registers again when a
** statement names it: prepare one that does. */
static scan_table *find_or_reconnect(columnar_conn *cc, const char *name){
  scan_table *t = columnar_conn_find(cc, name);
  if( t || strpbrk(name, "/'\"*?")!=0 ) return t;
  const char *dot = strchr(name, '.');
  char *schema = dot ? sqlite3_mprintf("%.*s", (int)(dot-name), name) : 0;
  char *sql = dot ? (schema ? sqlite3_mprintf("SELECT 0 FROM \"%w\".\"%w\" LIMIT 0", schema, dot+1) : 0)
                  : sqlite3_mprintf("SELECT 0 FROM \"%w\" LIMIT 0", name);
  sqlite3_free(schema);
  if( !sql ) return 0;
  sqlite3_stmt *st = 0;
  if( sqlite3_prepare_v2(cc->db, sql, -1, &st, 0)==SQLITE_OK ) sqlite3_finalize(st);
  sqlite3_free(sql);
  return columnar_conn_find(cc, name);
}

int columnar_source_open(columnar_conn *cc, const char *source,
                         int nopt, const char *const *opts,
                         col_dataset **out, char **errmsg){
  *out = 0;
  char *name = columnar_unquote(source, (int)strlen(source));
  if( !name ) return SQLITE_NOMEM;
  scan_table *t = find_or_reconnect(cc, name);
  sqlite3_free(name);
  int threads;
  if( t && nopt==0 && t->kind==SCAN_KIND_PARQUET ){
    /* No overrides: the table's own dataset, its footers already decoded
    ** (a 100-column, 80-row-group footer is milliseconds of work) */
    *out = col_dataset_retain(t->ds);
    return SQLITE_OK;
  }
  if( t ){
    /* The table's own arguments, then the caller's overrides. */
    const char **args = sqlite3_malloc64(sizeof(char*)*(sqlite3_uint64)(t->nargs+nopt+1));
    if( !args ) return SQLITE_NOMEM;
    for(int i=0; i<t->nargs; i++) args[i] = t->args[i];
    for(int i=0; i<nopt; i++) args[t->nargs+i] = opts[i];
    int rc = scan_dataset_open(t->kind, t->nargs+nopt, args, out, &threads, errmsg);
    sqlite3_free((void*)args);
    return rc;
  }
  char *path = columnar_unquote(source, (int)strlen(source));
  if( !path ) return SQLITE_NOMEM;
  int kind;
  if( ends_with(path, ".parquet") || ends_with(path, ".parq") || ends_with(path, ".pq") ){
    kind = SCAN_KIND_PARQUET;
  }else if( ends_with(path, ".csv") || ends_with(path, ".tsv") || ends_with(path, ".txt")
         || ends_with(path, ".csv.gz") || ends_with(path, ".csv.zst") || ends_with(path, ".tsv.gz")
         || ends_with(path, ".tsv.zst") ){
    kind = SCAN_KIND_CSV;
  }else{
    *errmsg = sqlite3_mprintf("%s: no such table, and not a .parquet or .csv file name", path);
    sqlite3_free(path);
    return SQLITE_ERROR;
  }
  char *quoted = sqlite3_mprintf("'%q'", path);
  sqlite3_free(path);
  if( !quoted ) return SQLITE_NOMEM;
  const char **args = sqlite3_malloc64(sizeof(char*)*(sqlite3_uint64)(nopt+1));
  if( !args ){ sqlite3_free(quoted); return SQLITE_NOMEM; }
  args[0] = quoted;
  for(int i=0; i<nopt; i++) args[1+i] = opts[i];
  int rc = scan_dataset_open(kind, nopt+1, args, out, &threads, errmsg);
  sqlite3_free((void*)args);
  sqlite3_free(quoted);
  return rc;
}
