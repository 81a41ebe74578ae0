/*
** meta_vtab.h — parquet_schema(), parquet_metadata(), scan_stats().
*/
#ifndef COLUMNAR_META_VTAB_H
#define COLUMNAR_META_VTAB_H
#include "sqlite3ext.h"
#include "conn.h"
int columnar_register_meta(sqlite3 *db, columnar_conn *cc);
#endif
