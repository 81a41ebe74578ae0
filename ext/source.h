/*
** source.h — finding the data a virtual table reads, by path or by name.
**
** Every module of this extension is registered with one columnar_conn as its
** client data (pAux); it is per connection, freed with the connection, and is
** the only place per-connection state lives. Scan tables (parquet, csv)
** record their creation arguments there under their name, so that
** group_by('hits', ...) can open the same files with the same options as the
** table called hits.
*/
#ifndef COLUMNAR_SOURCE_H
#define COLUMNAR_SOURCE_H

#include "sqlite3ext.h"
#include "../reader/dataset.h"

typedef struct columnar_conn columnar_conn;

/* Open a dataset for `source`: the name of a parquet/csv table created in
** this connection (its recorded arguments are reused), else a file path or
** glob whose extension picks the reader (.parquet/.parq/.pq: Parquet;
** .csv/.tsv/.txt, optionally .gz/.zst: CSV). opts are extra `key=value`
** arguments (threads=, header=, ...) given to the reader, nopt of them.
** On error returns an SQLite code and sets *errmsg (sqlite3_malloc'd). */
int columnar_source_open(columnar_conn *cc, const char *source,
                         int nopt, const char *const *opts,
                         col_dataset **out, char **errmsg);

/* Number of cores, the default for threads=. */
int columnar_default_threads(void);

#endif
