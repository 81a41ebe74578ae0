/*
** scan_vtab.h — the parquet and csv virtual tables (one implementation).
*/
#ifndef COLUMNAR_SCAN_VTAB_H
#define COLUMNAR_SCAN_VTAB_H

#include "sqlite3ext.h"
#include "conn.h"
#include "../reader/dataset.h"

enum { SCAN_KIND_PARQUET = 0, SCAN_KIND_CSV = 1 };

struct scan_table {
  sqlite3_vtab base;
  sqlite3 *db;
  columnar_conn *cc;         /* connection state (registry) */
  int kind;                  /* SCAN_KIND_* */
  col_dataset *ds;           /* files, opened once */
  int threads;               /* default threads for scans */
  int nargs;                 /* creation arguments, for group_by */
  char **args;               /* sqlite3_malloc'd copies */
  scan_stats last;           /* what the last finished scan did */
  int have_last;             /* last is valid */
  char *name;                /* table name */
};

/* Open a dataset from virtual-table style arguments ("'x.parquet'",
** "threads=2", ...). *threads gets the threads= option (or the cores). */
int scan_dataset_open(int kind, int nargs, const char *const *args,
                      col_dataset **ds, int *threads, char **errmsg);

int columnar_register_scan(sqlite3 *db, columnar_conn *cc,
                           void (*destroy)(void*));

/* Strip SQL quotes from an argument value: 'x' "x" [x] `x`, doubled quote
** characters inside undone. Returns a sqlite3_malloc'd string. */
char *columnar_unquote(const char *s, int n);

/* Split "key = value" (value may be quoted). *key and *val point into
** arg/are lengths; returns 0 when there is no '='. */
int columnar_split_arg(const char *arg, const char **key, int *nkey,
                       const char **val, int *nval);

/* Parse a boolean option value: true/false/1/0/yes/no/on/off. -1 if bad. */
int columnar_parse_bool(const char *v);

#endif
