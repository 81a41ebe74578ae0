/*
** vtab_groupby.h — the group_by table-valued virtual table.
*/
#ifndef COLUMNAR_VTAB_GROUPBY_H
#define COLUMNAR_VTAB_GROUPBY_H

#include "sqlite3ext.h"
#include "source.h"

/* Register the group_by module on db with cc as its client data. */
int columnar_register_groupby(sqlite3 *db, columnar_conn *cc);

#endif
