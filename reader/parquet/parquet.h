/*
** parquet.h — the Parquet reader as seen from outside reader/parquet/.
**
**   pq_options       what CREATE VIRTUAL TABLE ... USING parquet(...) said
**   pq_dataset_open  open a path, glob or comma-free list of files as one
**                    col_dataset (footers read once, schemas checked equal)
**   pq_file_open     one file and its decoded footer, for parquet_schema()
**                    and parquet_metadata()
*/
#ifndef COLUMNAR_PARQUET_H
#define COLUMNAR_PARQUET_H

#include <stdint.h>
#include "../dataset.h"
#include "meta.h"

typedef struct pq_options {
  int threads;            /* default workers for scans (0/1 serial) */
  int filename_column;    /* add a column `filename` */
  int binary_as_string;   /* unannotated BYTE_ARRAY as TEXT */
  int decimal_text;       /* DECIMAL as exact TEXT instead of REAL */
  int verify_crc;         /* check page CRCs when present */
} pq_options;

/* One open Parquet file: descriptor, size and decoded footer. */
typedef struct pq_file {
  char *path;             /* as given (malloc'd) */
  int fd;                 /* open descriptor */
  int64_t size;           /* file size in bytes */
  uint8_t *footer;        /* raw FileMetaData bytes (meta points into it) */
  pq_file_meta meta;      /* decoded footer */
  int verify_crc;         /* check page CRCs where the writer stored them */
  const uint8_t *map;     /* the whole file mapped read-only, or 0 */
  uint32_t gen;           /* changes when the file is seen to have changed
                          ** (pq_file_check); read and written atomically */
  int64_t seen_size;      /* size, inode and change time at the last check */
  uint64_t seen_ino;
  int64_t seen_ctime_s, seen_ctime_ns;
} pq_file;

/* Open `path`, read and decode its footer. Errors name the file. */
int pq_file_open(const char *path, pq_file **out, col_error *err);
void pq_file_close(pq_file *f);
/* Read exactly n bytes at off (pread, retrying short reads). */
int pq_file_read(pq_file *f, int64_t off, void *buf, size_t n, col_error *err);
/* Point *p at the n bytes at off in the file's mapping, faulted in, and
** return 1; or return 0 and leave the reading to pq_file_read: no mapping,
** nothing to read, a range past the end, or pages that could not be faulted
** in (a file that shrank since it was opened, a kernel without
** MADV_POPULATE_READ). Faulting the range in first is what makes a shrunken
** file an error rather than a SIGBUS. *faulted is the caller's record of
** the range (0 at first): while it holds f's gen, the range was faulted in
** since the file last changed and is not walked again (walking a range
** already mapped was a tenth of a query that sums one column). */
int pq_file_view(const pq_file *f, int64_t off, size_t n, uint32_t *faulted,
                 const uint8_t **p);

/* Was the range whose record *faulted is faulted in since the file last
** changed? Its pages are then most likely still in the page cache. */
static inline int pq_file_faulted(const pq_file *f, const uint32_t *faulted){
  return __atomic_load_n(faulted, __ATOMIC_RELAXED)==__atomic_load_n(&f->gen, __ATOMIC_RELAXED);
}

/* Compare the file's size, inode and change time with what the last check
** saw, and move f's gen on when they differ: ranges pq_file_view faulted in
** before are faulted in (and so checked) again. Call it as a scan starts. */
void pq_file_check(pq_file *f);

/* Expand a path, glob pattern, or a comma-separated list of either into a
** sorted list of paths (malloc'd array of malloc'd strings). A pattern
** matching nothing is an error. */
int pq_expand_paths(const char *spec, char ***paths, int *n, col_error *err);
void pq_free_paths(char **paths, int n);

/* Open a dataset over the files `spec` names. */
int pq_dataset_open(const char *spec, const pq_options *opt,
                    col_dataset **out, col_error *err);

#endif
