/*
** file.c — opening Parquet files: paths and globs, the footer.
**
** A Parquet file ends with the FileMetaData, its 4-byte little-endian length
** and the magic "PAR1" ("PARE" when the footer is encrypted, which we refuse
** with a clear message). The footer length is checked against the file size
** before anything is allocated, so a lying length cannot make us allocate
** more than the file holds.
**
** On Linux the whole file is also mapped read-only: a column chunk is then
** decoded where the page cache holds it instead of first being copied into
** a buffer (the copy took a quarter of the time of a scan of a column that
** does not compress). Each range is faulted in with MADV_POPULATE_READ
** before it is first used, which fails cleanly where touching a page past
** the end of a file that shrank since it was opened would raise SIGBUS; the
** range is then read with pread, whose short read is reported as an error.
** A range is faulted in again only after a scan start found the file
** changed (pq_file_check). What remains is a file truncated in place while
** a scan runs, or a page the kernel dropped that the disk then fails to
** read again, the hazards SQLite's own mmap carries.
*/
#include "parquet.h"
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int pq_file_read(pq_file *f, int64_t off, void *buf, size_t n, col_error *err){
  uint8_t *p = buf;
  if( off<0 || (int64_t)n > f->size || off > f->size - (int64_t)n ){
    return col_error_set(err, COL_ERROR,
        "%s: read of %zu bytes at offset %lld is past the end of the file (%lld bytes)",
        f->path, n, (long long)off, (long long)f->size);
  }
  while( n>0 ){
    ssize_t got = pread(f->fd, p, n, (off_t)off);
    if( got<0 ){
      if( errno==EINTR ) continue;
      return col_error_set(err, COL_EIO, "%s: read failed at offset %lld: %s",
                           f->path, (long long)off, strerror(errno));
    }
    if( got==0 ){
      return col_error_set(err, COL_EIO, "%s: unexpected end of file at offset %lld",
                           f->path, (long long)off);
    }
    p += got; n -= (size_t)got; off += got;
  }
  return COL_OK;
}

#if defined(__linux__)
# ifndef MADV_POPULATE_READ
#  define MADV_POPULATE_READ 22   /* Linux 5.14; older kernels say EINVAL */
# endif
# define PQ_FILE_MAP 1
#else
# define PQ_FILE_MAP 0
#endif

int pq_file_view(const pq_file *f, int64_t off, size_t n, uint32_t *faulted,
                 const uint8_t **p){
#if PQ_FILE_MAP
  if( f->map==0 || n==0 || off<0 || (int64_t)n > f->size || off > f->size - (int64_t)n ) return 0;
  if( !pq_file_faulted(f, faulted) ){
    uint32_t gen = __atomic_load_n(&f->gen, __ATOMIC_RELAXED);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)(f->map + off), lo = a & ~(page - 1);
    if( madvise((void*)lo, (size_t)(a - lo) + n, MADV_POPULATE_READ)!=0 ) return 0;
    __atomic_store_n(faulted, gen, __ATOMIC_RELAXED);
  }
  *p = f->map + off;
  return 1;
#else
  (void)f; (void)off; (void)n; (void)faulted; (void)p;
  return 0;
#endif
}

/* Record what identifies the file's contents now; 1 when that differs
** from the last record. Atomic: the lanes of a group by open their scans,
** each checking the file, side by side (a change seen by any one of them
** moves gen on). */
static int file_seen(pq_file *f, const struct stat *st){
  int changed = 0;
  changed |= __atomic_exchange_n(&f->seen_size, (int64_t)st->st_size, __ATOMIC_RELAXED)!=(int64_t)st->st_size;
  changed |= __atomic_exchange_n(&f->seen_ino, (uint64_t)st->st_ino, __ATOMIC_RELAXED)!=(uint64_t)st->st_ino;
  changed |= __atomic_exchange_n(&f->seen_ctime_s, (int64_t)st->st_ctim.tv_sec, __ATOMIC_RELAXED)
             !=(int64_t)st->st_ctim.tv_sec;
  changed |= __atomic_exchange_n(&f->seen_ctime_ns, (int64_t)st->st_ctim.tv_nsec, __ATOMIC_RELAXED)
             !=(int64_t)st->st_ctim.tv_nsec;
  return changed;
}

void pq_file_check(pq_file *f){
  struct stat st;
  /* a failed fstat proves nothing unchanged */
  if( fstat(f->fd, &st)!=0 || file_seen(f, &st) ){
    /* 0 is a range never faulted in: the count skips it */
    if( __atomic_add_fetch(&f->gen, 1, __ATOMIC_RELAXED)==0 ) __atomic_store_n(&f->gen, 1, __ATOMIC_RELAXED);
  }
}

void pq_file_close(pq_file *f){
  if( f==0 ) return;
  pq_file_meta_free(&f->meta);
  free(f->footer);
  if( f->map ) munmap((void*)f->map, (size_t)f->size);
  if( f->fd>=0 ) close(f->fd);
  free(f->path);
  free(f);
}

int pq_file_open(const char *path, pq_file **out, col_error *err){
  pq_file *f = calloc(1, sizeof(*f));
  uint8_t tail[8];
  struct stat st;
  *out = 0;
  if( f==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  f->fd = -1;
  f->path = strdup(path);
  if( f->path==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto open_error; }
  f->fd = open(path, O_RDONLY | O_CLOEXEC);
  if( f->fd<0 ){
    col_error_set(err, COL_EIO, "%s: cannot open: %s", path, strerror(errno));
    goto open_error;
  }
  if( fstat(f->fd, &st)!=0 || !S_ISREG(st.st_mode) ){
    col_error_set(err, COL_EIO, "%s: not a regular file", path);
    goto open_error;
  }
  f->size = (int64_t)st.st_size;
  f->gen = 1;               /* a range's record starts at 0: not faulted */
  file_seen(f, &st);
  if( f->size < 12 ){
    col_error_set(err, COL_ERROR, "%s: not a Parquet file (%lld bytes is too small)",
                  path, (long long)f->size);
    goto open_error;
  }
#if PQ_FILE_MAP
  if( (uint64_t)f->size <= SIZE_MAX ){
    void *m = mmap(0, (size_t)f->size, PROT_READ, MAP_SHARED, f->fd, 0);
    if( m!=MAP_FAILED ) f->map = m;
  }
#endif
  if( pq_file_read(f, f->size-8, tail, 8, err) ) goto open_error;
  if( memcmp(tail+4, "PARE", 4)==0 ){
    col_error_set(err, COL_ERROR, "%s: encrypted Parquet footer (PARE): "
                  "Parquet modular encryption is not supported", path);
    goto open_error;
  }
  if( memcmp(tail+4, "PAR1", 4)!=0 ){
    col_error_set(err, COL_ERROR, "%s: not a Parquet file (no PAR1 magic at the end)", path);
    goto open_error;
  }
  uint32_t flen = (uint32_t)tail[0] | (uint32_t)tail[1]<<8
                | (uint32_t)tail[2]<<16 | (uint32_t)tail[3]<<24;
  if( (int64_t)flen > f->size - 12 || flen==0 ){
    col_error_set(err, COL_ERROR, "%s: footer length %u does not fit in a file of %lld bytes",
                  path, flen, (long long)f->size);
    goto open_error;
  }
  f->footer = malloc(flen);
  if( f->footer==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto open_error; }
  if( pq_file_read(f, f->size-8-flen, f->footer, flen, err) ) goto open_error;
  if( pq_file_meta_decode(f->footer, flen, &f->meta, err) ){
    col_error_prefix(err, "%s: corrupt footer: ", path);
    goto open_error;
  }
  *out = f;
  return COL_OK;

open_error:
  pq_file_close(f);
  return err->code ? err->code : COL_ERROR;
}

static int path_cmp(const void *a, const void *b){
  return strcmp(*(char *const*)a, *(char *const*)b);
}

void pq_free_paths(char **paths, int n){
  for(int i=0; i<n; i++) free(paths[i]);
  free(paths);
}

/* Append one path to a growing list. */
static int paths_push(char ***paths, int *n, int *cap, const char *p){
  if( *n==*cap ){
    int nc = *cap ? *cap*2 : 8;
    char **np = realloc(*paths, sizeof(char*)*(size_t)nc);
    if( np==0 ) return COL_ENOMEM;
    *paths = np; *cap = nc;
  }
  if( ((*paths)[*n] = strdup(p))==0 ) return COL_ENOMEM;
  (*n)++;
  return COL_OK;
}

int pq_expand_paths(const char *spec, char ***out, int *nout, col_error *err){
  char **paths = 0;
  int n = 0, cap = 0;
  char *copy = strdup(spec);
  char *save = 0;
  *out = 0; *nout = 0;
  if( copy==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  /* A comma separates files only when the whole spec does not name an
  ** existing file (paths may legitimately contain commas). */
  struct stat st;
  int split = stat(spec, &st)!=0 && strchr(spec, ',')!=0;
  for(char *tok = split ? strtok_r(copy, ",", &save) : copy; tok;
      tok = split ? strtok_r(0, ",", &save) : 0){
    while( *tok==' ' ) tok++;
    if( strpbrk(tok, "*?[")==0 ){
      if( paths_push(&paths, &n, &cap, tok) ) goto expand_nomem;
      continue;
    }
    glob_t g;
    int rc = glob(tok, 0, 0, &g);
    if( rc==GLOB_NOMATCH || (rc==0 && g.gl_pathc==0) ){
      if( rc==0 ) globfree(&g);
      col_error_set(err, COL_EIO, "%s: no file matches this pattern", tok);
      goto expand_error;
    }
    if( rc!=0 ){
      col_error_set(err, COL_EIO, "%s: cannot expand pattern", tok);
      goto expand_error;
    }
    int start = n;
    for(size_t i=0; i<g.gl_pathc; i++){
      if( paths_push(&paths, &n, &cap, g.gl_pathv[i]) ){ globfree(&g); goto expand_nomem; }
    }
    globfree(&g);
    qsort(paths+start, (size_t)(n-start), sizeof(char*), path_cmp);
  }
  free(copy);
  if( n==0 ){
    col_error_set(err, COL_ERROR, "no file named");
    goto expand_error2;
  }
  *out = paths; *nout = n;
  return COL_OK;
expand_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
expand_error:
  free(copy);
expand_error2:
  pq_free_paths(paths, n);
  return err->code;
}
