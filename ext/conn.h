/*
** conn.h — per-connection state: the registry of scan tables.
**
** One columnar_conn is created by sqlite3_columnar_init for each connection
** and handed to every module as pAux; it is freed by the destructor of the
** first module registered, when the connection closes. Scan tables add
** themselves in xCreate/xConnect and remove themselves in xDisconnect, so
** that group_by and scan_stats can find a table by name; group_by tables
** register too, for scan_stats alone.
*/
#ifndef COLUMNAR_CONN_H
#define COLUMNAR_CONN_H

#include "sqlite3ext.h"
#include "source.h"
#include "../reader/dialect.h"

typedef struct scan_table scan_table;

typedef struct columnar_table_entry columnar_table_entry;
struct columnar_table_entry {
  char *name;                /* table name (sqlite3_malloc'd) */
  const void *owner;         /* the live table that registered */
  scan_table *tab;           /* it, a scan table; NULL: a group_by */
  const scan_stats *last;    /* what its last finished scan did, valid */
  const int *have_last;      /* once *have_last is set */
  columnar_table_entry *next;
};

struct columnar_conn {
  sqlite3 *db;               /* the connection */
  columnar_table_entry *tables; /* live scan tables */
  col_dialect dialect;       /* how this SQLite answers where versions and
                             ** builds differ (columnar_dialect_probe) */
  struct agg_slab_pool *slab_pool; /* its group-bys' radix slabs, kept for
                             ** the next (agg/slab_pool.h); NULL: none kept */
};

int columnar_conn_add(columnar_conn *cc, const char *name, const void *owner,
                      scan_table *tab, const scan_stats *last, const int *have_last);
void columnar_conn_remove(columnar_conn *cc, const void *owner);
/* The scan table called name, or NULL */
scan_table *columnar_conn_find(columnar_conn *cc, const char *name);
/* The scan or group_by table called name, or NULL */
const columnar_table_entry *columnar_conn_entry(columnar_conn *cc, const char *name);

/* Interrupts during a long pass that returns nothing to SQLite (a group_by,
** a top-k): SQLite 3.40 has no sqlite3_is_interrupted(), but a statement
** stepped on the same connection returns SQLITE_INTERRUPT after
** sqlite3_interrupt(), and its VM steps count toward the progress handler.
** columnar_probe_open prepares that statement on db (NULL when it cannot:
** then nothing is seen); columnar_probe_interrupted(stmt) steps it, as a
** poll callback. sqlite3_finalize frees it. */
sqlite3_stmt *columnar_probe_open(sqlite3 *db);
int columnar_probe_interrupted(void *stmt);

/* The collation named coll (from sqlite3_vtab_collation; NULL: BINARY) as
** the reader applies it: COLL_BINARY, COLL_NOCASE or COLL_RTRIM, or -1 for
** one it cannot, which SQLite must then apply itself: any other name, and
** NOCASE or RTRIM when an application has replaced SQLite's (a NOCASE that
** folds case beyond ASCII is a common one), which a probe query shows. */
int columnar_collation(sqlite3 *db, const char *coll);

/* Is db's glob() SQLite's own (an extension can replace it)? The probe of
** columnar_dialect_now's with_functions, for xBestIndex, which takes GLOB
** exactly. */
int columnar_glob_is_sqlites(sqlite3 *db);

/* Which of the functions group_by evaluates itself, besides LIKE, GLOB,
** lower() and upper() (probed by what they answer), the application or an
** extension has defined over SQLite's own: AGG_USES_STRFN for length(),
** substr()/substring() or instr(), AGG_USES_DATE for strftime(), date(),
** time() or datetime() (agg/expr.h), ...; and AGG_USES_MATH also when
** this SQLite was built without the math functions. 0 when
** pragma_function_list is not there to ask. */
int columnar_functions_replaced(sqlite3 *db);

/* Ask the connection's SQLite, once, how it answers where versions and
** builds differ (reader/dialect.h), with the probe query of
** ext/dialect_probe.h. A failed probe leaves 3.40's answers. */
void columnar_dialect_probe(columnar_conn *cc);

/* cc->dialect as of now, into out: the digits of a REAL's text
** (SQLITE_DBCONFIG_FP_DIGITS) may change between statements, and with
** with_functions so may LIKE, lower() and upper() (PRAGMA
** case_sensitive_like, an extension's registered later): one more probe
** query. */
void columnar_dialect_now(columnar_conn *cc, int with_functions, col_dialect *out);

#endif
