/*
** columnar.c — the extension's entry point.
**
**   .load build/columnar          (sqlite3 shell; entry sqlite3_columnar_init)
**   sqlite3_auto_extension((void(*)(void))sqlite3_columnar_init);  (linked in)
**
** Registers, per connection: the parquet and csv scan tables, group_by,
** parquet_schema(), parquet_metadata() and scan_stats(). The one
** columnar_conn of the connection is their shared client data.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include "scan_vtab.h"
#include "meta_vtab.h"
#if __has_include("vtab_groupby.h")
#include "vtab_groupby.h"
#define HAVE_GROUPBY 1
#endif
#include <string.h>

static void conn_destroy(void *p){
  columnar_conn *cc = p;
  /* Tables are disconnected before modules are destroyed; nothing left. */
  sqlite3_free(cc);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_columnar_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api){
  SQLITE_EXTENSION_INIT2(api);
  columnar_conn *cc = sqlite3_malloc64(sizeof(*cc));
  if( !cc ) return SQLITE_NOMEM;
  memset(cc, 0, sizeof(*cc));
  cc->db = db;
  int rc = columnar_register_scan(db, cc, conn_destroy);
  if( rc ){
    *errmsg = sqlite3_mprintf("columnar: cannot register modules: %s", sqlite3_errstr(rc));
    return rc;
  }
  rc = columnar_register_meta(db, cc);
#ifdef HAVE_GROUPBY
  if( rc==SQLITE_OK ) rc = columnar_register_groupby(db, cc);
#endif
  if( rc ) *errmsg = sqlite3_mprintf("columnar: cannot register modules: %s", sqlite3_errstr(rc));
  return rc;
}
