/*
** dialect_probe.h — the col_dialect of the SQLite a test links, found the
** way ext/conn.c finds it for a connection, so that tests compared against
** that SQLite expect its answers whatever its version.
*/
#ifndef COLUMNAR_TEST_DIALECT_PROBE_H
#define COLUMNAR_TEST_DIALECT_PROBE_H

#include <sqlite3.h>
#include "../ext/dialect_probe.h"

static void test_dialect_probe(sqlite3 *db, col_dialect *d){
  columnar_dialect_ask(db, d);
  columnar_dialect_digits(db, d);
  columnar_dialect_functions(db, d);
}

#endif
