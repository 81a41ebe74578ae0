/*
** conn.h — per-connection state: the registry of scan tables.
**
** One columnar_conn is created by sqlite3_columnar_init for each connection
** and handed to every module as pAux; it is freed by the destructor of the
** first module registered, when the connection closes. Scan tables add
** themselves in xCreate/xConnect and remove themselves in xDisconnect, so
** that group_by and scan_stats can find a table by name.
*/
#ifndef COLUMNAR_CONN_H
#define COLUMNAR_CONN_H

#include "sqlite3ext.h"
#include "source.h"

typedef struct scan_table scan_table;

typedef struct columnar_table_entry columnar_table_entry;
struct columnar_table_entry {
  char *name;                /* table name (sqlite3_malloc'd) */
  scan_table *tab;           /* the live table */
  columnar_table_entry *next;
};

struct columnar_conn {
  sqlite3 *db;               /* the connection */
  columnar_table_entry *tables; /* live scan tables */
};

int columnar_conn_add(columnar_conn *cc, const char *name, scan_table *tab);
void columnar_conn_remove(columnar_conn *cc, scan_table *tab);
scan_table *columnar_conn_find(columnar_conn *cc, const char *name);

#endif
