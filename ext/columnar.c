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
#include "vtab_groupby.h"
#include "../agg/radix.h"
#include "../agg/slab_pool.h"
#include <string.h>

#define COLUMNAR_MIN_SQLITE 3038000

static void conn_destroy(void *p){
  columnar_conn *cc = p;
  /* Tables are disconnected before modules are destroyed; nothing left. */
  agg_slab_pool_free(cc->slab_pool);
  sqlite3_free(cc);
}

/* The one exported symbol: everything else is built hidden (Makefile), so
** calls between our own functions are direct and can be inlined rather
** than going through the PLT. */
#ifdef _WIN32
__declspec(dllexport)
#elif defined(__GNUC__)
__attribute__((visibility("default")))
#endif
int sqlite3_columnar_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api){
  SQLITE_EXTENSION_INIT2(api);
  /* sqlite3_vtab_in() and sqlite3_vtab_rhs_value() arrived in 3.38.0; an
  ** older SQLite's routine table ends before them, and calling past its
  ** end would jump to nothing */
  if( sqlite3_libversion_number()<COLUMNAR_MIN_SQLITE ){
    *errmsg = sqlite3_mprintf("columnar: needs SQLite 3.38.0 or later, this is %s", sqlite3_libversion());
    return SQLITE_ERROR;
  }
  columnar_conn *cc = sqlite3_malloc64(sizeof(*cc));
  if( !cc ) return SQLITE_NOMEM;
  memset(cc, 0, sizeof(*cc));
  cc->db = db;
  /* none when out of memory: every slab is then fresh memory */
  cc->slab_pool = agg_slab_pool_new(AGG_RADIX_SLAB);
  columnar_dialect_probe(cc);
  int rc = columnar_register_scan(db, cc, conn_destroy);
  if( rc ){
    *errmsg = sqlite3_mprintf("columnar: cannot register modules: %s", sqlite3_errstr(rc));
    return rc;
  }
  rc = columnar_register_meta(db, cc);
  if( rc==SQLITE_OK ) rc = columnar_register_groupby(db, cc);
  if( rc ) *errmsg = sqlite3_mprintf("columnar: cannot register modules: %s", sqlite3_errstr(rc));
  return rc;
}
