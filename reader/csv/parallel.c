/*
** parallel.c — a CSV scan split into byte ranges parsed by worker threads.
**
** HOW IT WORKS. An uncompressed file's data (after BOM, skip= lines and
** header) is cut into chunks at nominal offsets b_0 < b_1 < ... . Chunk i
** owns the records that START in [b_i, b_i+1). A worker guesses where its
** first record starts: the first line start at or after b_i (chunk 0 knows
** it exactly). It then parses records until one starts at or past b_i+1 and
** reports that offset as its stop. The guess is wrong only when b_i falls
** inside a quoted field that holds a line end; so the consumer, taking
** chunks in file order, checks each chunk's start against the previous
** chunk's stop. Chunk 0 is right, so by induction a matching start means a
** right parse; a mismatch (or any error, or a speculative record running
** far past the chunk) makes the consumer reparse that chunk itself from the
** right offset, which also gives error messages their true line numbers.
** Output is therefore exactly the serial scan's, in file order, whatever
** the quoting. At most 4*threads chunks are in memory at once.
*/
#include "csv_impl.h"
#include "sniff.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>

/* Bytes read past a chunk's end up front (most last records end there). */
#define PAR_SLACK (16u<<10)
/* Nominal chunk size: small enough that a chunk's column arrays (rows x
** read columns) stay in the L2 cache of the core that writes them, and are
** still there, or in L3, when the consumer hands them to SQLite. 8 MiB
** chunks of a 105-column table made 34 MB of column arrays per chunk and
** cost 25% more CPU than the serial scan; 1 MiB costs the same. */
#define PAR_CHUNK_MAX (1u<<20)
#define PAR_CHUNK_MIN (128u<<10)
/* ... and a wide read set gets chunks whose column arrays are about this
** big (a 105-column read: ~600 rows, 400 KB of text per chunk). */
#define PAR_CHUNK_COLBYTES (1u<<20)
/* A speculative parse gives up when a record runs this far past its end. */
#define PAR_SPEC_LIMIT (8u<<20)

enum { SLOT_FREE = 0, SLOT_RUNNING = 1, SLOT_DONE = 2 };

typedef struct csv_chunk {
  int state;              /* SLOT_* (under the mutex) */
  int index;              /* chunk number in the file */
  int64_t start;          /* file offset parsing began at */
  int64_t stop;           /* offset of the first record at/after the end */
  int64_t lines;          /* line ends in [start, stop) */
  int rc;                 /* COL_OK, an error, or -1 (speculation gave up) */
  char *buf;              /* file bytes from start */
  size_t cap;             /* buf size */
  csv_builder b;          /* the chunk's rows */
  csv_tok tok;            /* tokenizer */
  col_error err;          /* the worker's error (discarded: reparsed) */
} csv_chunk;

typedef struct csv_par {
  batch_source base;      /* must be first */
  csv_ds *ds;             /* the dataset */
  csv_plan pl;            /* read set etc. */
  pthread_mutex_t mu;     /* guards slot states and the dispatch counters */
  pthread_cond_t work;    /* a chunk can be dispatched, or stop */
  pthread_cond_t finished; /* a chunk finished */
  pthread_t *th;          /* workers */
  int nth;                /* workers started */
  int stop;               /* workers must exit */
  csv_chunk *slots;       /* ring of nslots chunks */
  int nslots;             /* 4*threads: room for the workers to run ahead */
  int file;               /* index of the current file, -1 before the first */
  int fd;                 /* its descriptor, -1 between files */
  int64_t size;           /* its size */
  int64_t data_off;       /* where its records start */
  int64_t chunk_bytes;    /* nominal chunk size */
  int nchunks;            /* chunks in the file */
  int next_dispatch;      /* next chunk a worker takes */
  int next_consume;       /* chunk being emitted */
  int have_cur;           /* the chunk next_consume was validated */
  uint32_t cur_row;       /* next row of it to emit */
  int64_t expect;         /* validated start of chunk next_consume */
  int64_t line;           /* line number at expect */
  cv_str fname;           /* current file name */
  col_vector *vecs;       /* emitted vectors */
  col_vector predvec;     /* predicate column vector */
  uint32_t *sel;          /* selection */
  col_arena scratch;      /* pred_filter scratch */
  col_batch batch;        /* handed out */
  int done;               /* no more batches */
} csv_par;

/* Read exactly n bytes at off (less only at end of file). */
static long par_pread(int fd, char *buf, size_t n, int64_t off){
  size_t got = 0;
  while( got<n ){
    ssize_t k = pread(fd, buf+got, n-got, (off_t)(off+(int64_t)got));
    if( k<0 && errno==EINTR ) continue;
    if( k<0 ) return -1;
    if( k==0 ) break;
    got += (size_t)k;
  }
  return (long)got;
}

/* Grow c->buf to cap keeping its bytes, rebasing TEXT pointers already
** stored into it. */
static int chunk_regrow(csv_chunk *c, size_t cap){
  char *nb = malloc(cap);
  if( nb==0 ) return COL_ENOMEM;
  if( c->buf ){
    memcpy(nb, c->buf, c->cap);
    uintptr_t lo = (uintptr_t)c->buf, hi = lo + c->cap;
    for(int k=0; k<c->b.ncol; k++){
      cv_str *s = c->b.c[k].str;
      if( s==0 ) continue;
      for(uint32_t r=0; r<c->b.n; r++){
        uintptr_t p = (uintptr_t)s[r].p;
        if( p>=lo && p<hi ) s[r].p = nb + (p-lo);
      }
    }
    free(c->buf);
  }
  c->buf = nb;
  c->cap = cap;
  return COL_OK;
}

/* Parse chunk i from file offset start. speculative: give up (rc -1) on a
** runaway record instead of reading on. line: line number at start (for
** messages). Fills c->rc, c->stop, c->lines. */
static void chunk_parse(csv_par *P, csv_chunk *c, int i, int64_t start,
                        int speculative, int64_t line, int fd, int64_t size,
                        int64_t data_off, int64_t chunk_bytes, int nchunks){
  int64_t end = i+1>=nchunks ? size : data_off + (int64_t)(i+1)*chunk_bytes;
  col_error_clear(&c->err);
  csv_builder_reset(&c->b);
  c->b.skipped = 0;
  c->b.fname = P->fname.p;
  c->index = i;
  c->start = start;
  c->stop = start;
  c->lines = 0;
  c->rc = COL_OK;
  size_t want = (size_t)(end>start ? end-start : 0) + PAR_SLACK;
  if( c->cap<want ){
    free(c->buf);
    c->buf = 0;
    c->cap = 0;
    c->b.n = 0;
    if( chunk_regrow(c, want) ){ c->rc = col_error_set(&c->err, COL_ENOMEM, "out of memory"); return; }
  }
  long len = par_pread(fd, c->buf, c->cap, start);
  if( len<0 ){ c->rc = col_error_set(&c->err, COL_EIO, "%s: read failed", P->fname.p); return; }
  size_t pos = 0;
  for(;;){
    if( start+(int64_t)pos >= end ) break;
    int eof = start+len >= size;
    size_t used;
    col_error te;
    col_error_clear(&te);
    int rc = csv_tok_record(&c->tok, c->buf+pos, (size_t)len-pos, eof, &used, &te);
    if( rc==CSV_TOK_ROW ){
      if( csv_builder_add(&c->b, &c->tok, c->buf+pos, line+c->lines, &c->err) ){
        c->rc = c->err.code;
        return;
      }
      pos += used;
      c->lines += c->tok.nlines;
    }else if( rc==CSV_TOK_BLANK ){
      pos += used;
      c->lines += c->tok.nlines;
    }else if( rc==CSV_TOK_MORE ){
      if( speculative && start+len > end + (int64_t)PAR_SPEC_LIMIT ){ c->rc = -1; return; }
      if( c->cap>=CSV_MAX_RECORD*(size_t)2 ){
        c->rc = col_error_set(&c->err, COL_ERROR, "%s: line %lld: record larger than %u bytes",
                              P->fname.p, (long long)(line+c->lines), CSV_MAX_RECORD);
        return;
      }
      if( te.code ){ c->rc = col_error_set(&c->err, te.code, "%s: line %lld: %s", P->fname.p, (long long)(line+c->lines), te.msg); return; }
      if( (size_t)len==c->cap && chunk_regrow(c, c->cap*2) ){
        c->rc = col_error_set(&c->err, COL_ENOMEM, "out of memory");
        return;
      }
      long k = par_pread(fd, c->buf+len, c->cap-(size_t)len, start+len);
      if( k<0 ){ c->rc = col_error_set(&c->err, COL_EIO, "%s: read failed", P->fname.p); return; }
      len += k;
    }else if( rc==CSV_TOK_END ){
      break;
    }else{
      c->rc = col_error_set(&c->err, COL_ERROR, "%s: line %lld: %s", P->fname.p,
                            (long long)(line+c->lines+c->tok.err_line), te.msg);
      return;
    }
  }
  c->stop = start+(int64_t)pos;
}

/* Where chunk i's first record probably starts. -1: no line end nearby. */
static int64_t chunk_guess(int fd, int64_t begin, int64_t size){
  char win[4096];
  int64_t off = begin-1;
  while( off<size ){
    long n = par_pread(fd, win, sizeof(win), off);
    if( n<=0 ) return size;
    int eof = off+n>=size;
    size_t k = csv_tok_line(win, (size_t)n, eof);
    if( k>0 && (k<(size_t)n || eof) ) return off+(int64_t)k;
    if( off+n-begin > (int64_t)PAR_SPEC_LIMIT ) return -1;
    off += n - 1;   /* keep a CR that may pair with the next block's LF */
  }
  return size;
}

static void *par_worker(void *arg){
  csv_par *P = arg;
  pthread_mutex_lock(&P->mu);
  for(;;){
    while( !P->stop && !(P->fd>=0 && P->next_dispatch<P->nchunks
                         && P->next_dispatch < P->next_consume+P->nslots) ){
      pthread_cond_wait(&P->work, &P->mu);
    }
    if( P->stop ) break;
    int i = P->next_dispatch++;
    csv_chunk *c = &P->slots[i % P->nslots];
    c->state = SLOT_RUNNING;
    int fd = P->fd;
    int64_t size = P->size, data_off = P->data_off, cb = P->chunk_bytes;
    int nchunks = P->nchunks;
    pthread_mutex_unlock(&P->mu);
    int64_t begin = data_off + (int64_t)i*cb;
    int64_t start = i==0 ? data_off : chunk_guess(fd, begin, size);
    if( start<0 ){
      c->rc = -1;
    }else{
      chunk_parse(P, c, i, start, 1, 0, fd, size, data_off, cb, nchunks);
    }
    pthread_mutex_lock(&P->mu);
    c->state = SLOT_DONE;
    pthread_cond_broadcast(&P->finished);
  }
  pthread_mutex_unlock(&P->mu);
  return 0;
}

/* Open the next file: preamble, chunk layout. 1: no more files. */
static int par_open_file(csv_par *P){
  csv_ds *ds = P->ds;
  if( P->file+1 >= ds->nfiles ) return 1;
  P->file++;
  const char *path = ds->files[P->file];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if( fd<0 ){
    return col_error_set(&P->base.err, COL_EIO, "%s: cannot open: %s", path, strerror(errno));
  }
  P->fname.p = path;
  P->fname.n = (uint32_t)strlen(path);
  P->base.stats.files++;
  off_t size = lseek(fd, 0, SEEK_END);
  /* The preamble, on a growing prefix. */
  size_t n = 65536;
  char *buf = 0;
  long off;
  int64_t lines = 0;
  csv_tok t;
  if( csv_tok_init(&t, &ds->d) ){ close(fd); return col_error_set(&P->base.err, COL_ENOMEM, "out of memory"); }
  for(;;){
    char *nb = realloc(buf, n);
    if( nb==0 ){ off = -3; break; }
    buf = nb;
    long k = par_pread(fd, buf, n, 0);
    if( k<0 ){ off = -4; break; }
    col_error e;
    col_error_clear(&e);
    off = csv_preamble(ds, &t, buf, (size_t)k, k<(long)n, &lines, &e);
    if( off==-2 ){
      col_error_set(&P->base.err, COL_ERROR, "%s: line %lld: %s", path,
                    (long long)(1+lines+t.err_line), e.msg);
      break;
    }
    if( off!=-1 || n>=CSV_MAX_RECORD ) break;
    n *= 2;
  }
  free(buf);
  csv_tok_free(&t);
  if( off<0 ){
    close(fd);
    if( off==-1 ) return col_error_set(&P->base.err, COL_ERROR, "%s: header larger than %u bytes", path, CSV_MAX_RECORD);
    if( off==-4 ) return col_error_set(&P->base.err, COL_EIO, "%s: read failed", path);
    return col_error_set(&P->base.err, off==-3 ? COL_ENOMEM : COL_ERROR, "out of memory");
  }
  int64_t data = size - off;
  int64_t cb = data / (P->nth*4);
  /* About CSV_CHUNK_COLBYTES of column arrays per chunk for wide reads. */
  if( P->pl.nread>0 && ds->avg_record>0 ){
    double rows = (double)PAR_CHUNK_COLBYTES / ((double)P->pl.nread*CSV_VALUE_BYTES);
    int64_t want = (int64_t)(rows*ds->avg_record);
    if( want<cb ) cb = want;
  }
  if( cb < PAR_CHUNK_MIN ) cb = PAR_CHUNK_MIN;
  if( cb > PAR_CHUNK_MAX ) cb = PAR_CHUNK_MAX;
  pthread_mutex_lock(&P->mu);
  P->fd = fd;
  P->size = size;
  P->data_off = off;
  P->chunk_bytes = cb;
  P->nchunks = data>0 ? (int)((data + cb - 1)/cb) : 0;
  P->next_dispatch = 0;
  P->next_consume = 0;
  P->have_cur = 0;
  P->expect = off;
  P->line = 1+lines;
  pthread_cond_broadcast(&P->work);
  pthread_mutex_unlock(&P->mu);
  P->base.stats.bytes_read += size;
  return COL_OK;
}

/* Done with a file: every chunk was consumed, so no worker holds it. */
static void par_close_file(csv_par *P){
  pthread_mutex_lock(&P->mu);
  if( P->fd>=0 ) close(P->fd);
  P->fd = -1;
  P->nchunks = 0;
  pthread_mutex_unlock(&P->mu);
}

static int par_next(batch_source *src, col_batch **out){
  csv_par *P = (csv_par*)src;
  *out = 0;
  if( P->done ) return COL_OK;
  if( src->interrupt && *src->interrupt ){
    return col_error_set(&src->err, COL_EINTERRUPT, "interrupted");
  }
  for(;;){
    if( P->fd<0 ){
      int rc = par_open_file(P);
      if( rc==1 ){ P->done = 1; return COL_OK; }
      if( rc ) return rc;
    }
    csv_chunk *c = P->nchunks ? &P->slots[P->next_consume % P->nslots] : 0;
    if( c && P->have_cur && P->cur_row>=c->b.n ){
      /* The chunk was emitted in full: free its slot. */
      pthread_mutex_lock(&P->mu);
      c->state = SLOT_FREE;
      P->next_consume++;
      P->have_cur = 0;
      pthread_cond_broadcast(&P->work);
      pthread_mutex_unlock(&P->mu);
      c = &P->slots[P->next_consume % P->nslots];
    }
    if( P->next_consume>=P->nchunks ){
      par_close_file(P);
      continue;
    }
    if( !P->have_cur ){
      pthread_mutex_lock(&P->mu);
      while( c->state!=SLOT_DONE ) pthread_cond_wait(&P->finished, &P->mu);
      pthread_mutex_unlock(&P->mu);
      if( c->rc!=COL_OK || c->start!=P->expect ){
        /* Wrong guess or an error: parse it here, from the right place. */
        chunk_parse(P, c, P->next_consume, P->expect, 0, P->line, P->fd,
                    P->size, P->data_off, P->chunk_bytes, P->nchunks);
        if( c->rc ) return col_error_set(&src->err, c->rc, "%s", c->err.msg);
      }
      P->have_cur = 1;
      P->cur_row = 0;
      P->expect = c->stop;
      P->line += c->lines;
      src->stats.rows_skipped += c->b.skipped;
      src->stats.row_groups++;
      if( c->b.n==0 ) continue;
    }
    uint32_t n = c->b.n - P->cur_row;
    if( n>P->pl.batch ) n = P->pl.batch;
    if( P->pl.max_rows>0 && P->pl.npred==0 && src->stats.rows_returned+n > P->pl.max_rows ){
      n = (uint32_t)(P->pl.max_rows - src->stats.rows_returned);
    }
    csv_plan_batch(&P->pl, &c->b, P->cur_row, n, &P->fname, P->vecs, &P->predvec,
                   P->sel, &P->scratch, &P->batch);
    P->batch.first_row = src->stats.rows_decoded;
    P->cur_row += n;
    src->stats.rows_decoded += n;
    src->stats.rows_returned += P->batch.nsel;
    if( P->pl.max_rows>0 && src->stats.rows_returned>=P->pl.max_rows ) P->done = 1;
    *out = &P->batch;
    return COL_OK;
  }
}

static void par_close(batch_source *src){
  csv_par *P = (csv_par*)src;
  pthread_mutex_lock(&P->mu);
  P->stop = 1;
  pthread_cond_broadcast(&P->work);
  pthread_mutex_unlock(&P->mu);
  for(int i=0; i<P->nth; i++) pthread_join(P->th[i], 0);
  if( P->fd>=0 ) close(P->fd);
  if( P->slots ){
    for(int i=0; i<P->nslots; i++){
      free(P->slots[i].buf);
      csv_builder_free(&P->slots[i].b);
      csv_tok_free(&P->slots[i].tok);
    }
  }
  free(P->slots);
  free(P->th);
  csv_plan_free(&P->pl);
  col_arena_free(&P->scratch);
  free(P->vecs);
  free(P->sel);
  pthread_mutex_destroy(&P->mu);
  pthread_cond_destroy(&P->work);
  pthread_cond_destroy(&P->finished);
  free(P);
}

static const batch_source_methods csv_par_methods = { par_next, par_close, 0 };

int csv_scan_parallel(csv_ds *ds, const scan_spec *spec, int threads,
                      batch_source **out, col_error *err){
  csv_par *P = calloc(1, sizeof(*P));
  *out = 0;
  if( P==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  if( threads>64 ) threads = 64;
  P->base.m = &csv_par_methods;
  P->ds = ds;
  P->fd = -1;
  P->file = -1;
  pthread_mutex_init(&P->mu, 0);
  pthread_cond_init(&P->work, 0);
  pthread_cond_init(&P->finished, 0);
  col_arena_init(&P->scratch);
  P->nslots = threads*4;
  if( csv_plan_init(&P->pl, ds, spec, err) ) goto par_error;
  P->vecs = calloc((size_t)P->pl.nproj+1, sizeof(col_vector));
  P->sel = malloc(sizeof(uint32_t)*P->pl.batch);
  P->slots = calloc((size_t)P->nslots, sizeof(csv_chunk));
  P->th = calloc((size_t)threads, sizeof(pthread_t));
  if( !P->vecs || !P->sel || !P->slots || !P->th ) goto par_nomem;
  for(int i=0; i<P->nslots; i++){
    if( csv_tok_init(&P->slots[i].tok, &ds->d)
     || csv_builder_init(&P->slots[i].b, ds, P->pl.nread, P->pl.readcols, 4096, UINT32_MAX/2) ){
      goto par_nomem;
    }
  }
  for(int i=0; i<threads; i++){
    if( pthread_create(&P->th[i], 0, par_worker, P)!=0 ) break;
    P->nth++;
  }
  if( P->nth==0 ){
    col_error_set(err, COL_ERROR, "csv: cannot start threads");
    goto par_error;
  }
  *out = &P->base;
  return COL_OK;
par_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
par_error:
  par_close(&P->base);
  return err->code;
}
