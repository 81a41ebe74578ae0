/*
** scan.c — the serial CSV batch_source.
**
** HOW IT WORKS. Each file is read in CSV_BLOCK pieces into one buffer. A
** batch is built from the complete records in the buffer: TEXT vectors
** point straight into it, so the buffer only moves (unconsumed tail to the
** front, then refill) at the start of next(), when the previous batch is
** dead. A batch therefore ends early when the buffer runs out of complete
** records; a record longer than the buffer doubles it, up to
** CSV_MAX_RECORD. Batches never span files (the filename column is one
** constant per batch). Lines are counted as records are consumed, so every
** message names the line where the offending record starts (the line of the
** opening quote for an unterminated one).
*/
#include "csv_impl.h"
#include <stdlib.h>
#include <string.h>
#include "sniff.h"

typedef struct csv_serial {
  batch_source base;      /* must be first */
  csv_ds *ds;             /* the dataset (outlives the scan) */
  csv_plan pl;            /* read set, projection, predicates */
  csv_builder b;          /* rows of the current batch */
  csv_tok tok;            /* tokenizer state */
  col_vector *vecs;       /* emitted vectors (pl.nproj) */
  col_vector predvec;     /* a predicate column's vector */
  uint32_t *sel;          /* selection after predicates */
  col_arena scratch;      /* pred_filter's scratch */
  col_batch batch;        /* what next() hands out */
  int file;               /* index of the next file to open */
  csv_input *in;          /* current file, or NULL between files */
  char *buf;              /* block buffer */
  size_t cap;             /* its size */
  size_t len;             /* valid bytes */
  size_t pos;             /* next unconsumed byte */
  int eof;                /* the input has no more bytes */
  int started;            /* the preamble (BOM, skip, header) is done */
  int64_t line;           /* line number of the record at pos */
  cv_str fname;           /* current file name for the filename column */
  int64_t skipped_base;   /* rows_skipped before this batch */
  int done;               /* no more batches */
} csv_serial;

long csv_preamble(const csv_ds *ds, csv_tok *t, const char *buf, size_t n,
                  int eof, int64_t *lines, col_error *err){
  size_t pos = csv_bom_len(buf, n);
  *lines = 0;
  if( pos==0 && n<3 && !eof ) return -1;
  for(int i=0; i<ds->skip; i++){
    size_t k = csv_tok_line(buf+pos, n-pos, eof);
    if( k==0 ){
      if( !eof ) return -1;
      break;
    }
    pos += k;
    (*lines)++;
  }
  while( ds->header ){
    size_t used;
    int rc = csv_tok_record(t, buf+pos, n-pos, eof, &used, err);
    if( rc==CSV_TOK_BLANK ){ pos += used; (*lines)++; continue; }
    if( rc==CSV_TOK_MORE ) return -1;
    if( rc==CSV_TOK_ERR ) return -2;
    if( rc==CSV_TOK_ROW ){ pos += used; *lines += t->nlines; }
    break;
  }
  return (long)pos;
}

/* Move the unconsumed tail to the front and read more; grows the buffer
** when it is full of one incomplete record. */
static int serial_refill(csv_serial *s){
  if( s->pos>0 ){
    memmove(s->buf, s->buf+s->pos, s->len-s->pos);
    s->len -= s->pos;
    s->pos = 0;
  }
  if( s->len==s->cap ){
    if( s->cap>=CSV_MAX_RECORD ){
      return col_error_set(&s->base.err, COL_ERROR, "%s: line %lld: record larger than %u bytes",
                           s->fname.p, (long long)s->line, CSV_MAX_RECORD);
    }
    size_t cap = s->cap*2;
    char *nb = realloc(s->buf, cap);
    if( nb==0 ) return col_error_set(&s->base.err, COL_ENOMEM, "out of memory");
    s->buf = nb;
    s->cap = cap;
  }
  int64_t before = csv_input_bytes_read(s->in);
  long n = csv_input_read(s->in, s->buf+s->len, s->cap-s->len, &s->base.err);
  if( n<0 ) return s->base.err.code;
  s->base.stats.bytes_read += csv_input_bytes_read(s->in) - before;
  if( n==0 ) s->eof = 1;
  s->len += (size_t)n;
  return COL_OK;
}

static int serial_open_file(csv_serial *s){
  csv_ds *ds = s->ds;
  const char *path = ds->nfiles ? ds->files[s->file] : 0;
  int rc = csv_input_open(path, ds->data, ds->data_len, &s->in, &s->base.err);
  if( rc ) return rc;
  s->fname.p = path ? path : "data";
  s->fname.n = (uint32_t)strlen(s->fname.p);
  s->b.fname = s->fname.p;
  s->file++;
  s->len = s->pos = 0;
  s->eof = 0;
  s->started = 0;
  s->line = 1;
  s->base.stats.files++;
  /* Small inputs get a small buffer (the fuzzer and tiny tables). */
  int64_t sz = csv_input_size(s->in);
  size_t want = csv_input_codec(s->in)==CSV_RAW && sz+64 < CSV_BLOCK ? (size_t)sz+64 : CSV_BLOCK;
  if( s->buf==0 || s->cap!=want ){
    char *nb = realloc(s->buf, want);
    if( nb==0 ) return col_error_set(&s->base.err, COL_ENOMEM, "out of memory");
    s->buf = nb;
    s->cap = want;
  }
  return COL_OK;
}

/* The tokenizer failed at the record starting at s->line. */
static int serial_tok_error(csv_serial *s, col_error *e){
  return col_error_set(&s->base.err, e->code, "%s: line %lld: %s", s->fname.p,
                       (long long)(s->line + s->tok.err_line), e->msg);
}

static int serial_next(batch_source *src, col_batch **out){
  csv_serial *s = (csv_serial*)src;
  col_error e;
  *out = 0;
  if( s->done ) return COL_OK;
  if( src->interrupt && *src->interrupt ){
    return col_error_set(&src->err, COL_EINTERRUPT, "interrupted");
  }
  for(;;){
    if( s->in==0 ){
      if( s->file >= (s->ds->nfiles ? s->ds->nfiles : 1) ){ s->done = 1; return COL_OK; }
      if( serial_open_file(s) ) return src->err.code;
    }
    if( !s->eof && (s->len-s->pos < s->cap/8 || s->pos==s->len) && serial_refill(s) ){
      return src->err.code;
    }
    if( !s->started ){
      int64_t lines;
      col_error_clear(&e);
      long k = csv_preamble(s->ds, &s->tok, s->buf+s->pos, s->len-s->pos, s->eof, &lines, &e);
      if( k==-2 ) return serial_tok_error(s, &e);
      if( k==-1 ){
        if( serial_refill(s) ) return src->err.code;
        continue;
      }
      s->pos += (size_t)k;
      s->line += lines;
      s->started = 1;
    }
    csv_builder_reset(&s->b);
    int file_end = 0;
    while( s->b.n < s->pl.batch ){
      size_t used;
      col_error_clear(&e);
      int rc = csv_tok_record(&s->tok, s->buf+s->pos, s->len-s->pos, s->eof, &used, &e);
      if( rc==CSV_TOK_ROW ){
        if( csv_builder_add(&s->b, &s->tok, s->buf+s->pos, s->line, &src->err) ){
          return src->err.code;
        }
        s->pos += used;
        s->line += s->tok.nlines;
      }else if( rc==CSV_TOK_BLANK ){
        s->pos += used;
        s->line += s->tok.nlines;
      }else if( rc==CSV_TOK_MORE ){
        if( s->b.n>0 || s->b.skipped>s->skipped_base ) break;
        if( serial_refill(s) ) return src->err.code;
      }else if( rc==CSV_TOK_END ){
        csv_input_close(s->in);
        s->in = 0;
        file_end = 1;
        break;
      }else{
        return serial_tok_error(s, &e);
      }
    }
    src->stats.rows_skipped = s->b.skipped;
    s->skipped_base = s->b.skipped;
    if( s->b.n==0 ){
      if( file_end ) continue;
      if( s->b.skipped>s->skipped_base ) continue;
      continue;
    }
    uint32_t n = s->b.n;
    if( s->pl.max_rows>0 && src->stats.rows_returned + n > s->pl.max_rows
     && s->pl.npred==0 ){
      n = (uint32_t)(s->pl.max_rows - src->stats.rows_returned);
    }
    csv_plan_batch(&s->pl, &s->b, 0, n, &s->fname, s->vecs, &s->predvec,
                   s->sel, &s->scratch, &s->batch);
    s->batch.first_row = src->stats.rows_decoded;
    src->stats.rows_decoded += n;
    src->stats.rows_returned += s->batch.nsel;
    src->stats.row_groups++;
    if( s->pl.max_rows>0 && src->stats.rows_returned>=s->pl.max_rows ) s->done = 1;
    *out = &s->batch;
    return COL_OK;
  }
}

static void serial_close(batch_source *src){
  csv_serial *s = (csv_serial*)src;
  if( s==0 ) return;
  csv_input_close(s->in);
  free(s->buf);
  csv_tok_free(&s->tok);
  csv_builder_free(&s->b);
  csv_plan_free(&s->pl);
  col_arena_free(&s->scratch);
  free(s->vecs);
  free(s->sel);
  free(s);
}

static const batch_source_methods csv_serial_methods = { serial_next, serial_close, 0 };

int csv_scan_serial(csv_ds *ds, const scan_spec *spec, batch_source **out,
                    col_error *err){
  csv_serial *s = calloc(1, sizeof(*s));
  *out = 0;
  if( s==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  s->base.m = &csv_serial_methods;
  s->ds = ds;
  col_arena_init(&s->scratch);
  if( csv_plan_init(&s->pl, ds, spec, err) ) goto serial_error;
  s->vecs = calloc((size_t)(s->pl.nproj+1), sizeof(col_vector));
  s->sel = malloc(sizeof(uint32_t)*s->pl.batch);
  if( !s->vecs || !s->sel || csv_tok_init(&s->tok, &ds->d)
   || csv_builder_init(&s->b, ds, s->pl.nread, s->pl.readcols, s->pl.batch, s->pl.batch) ){
    col_error_set(err, COL_ENOMEM, "out of memory");
    goto serial_error;
  }
  *out = &s->base;
  return COL_OK;
serial_error:
  serial_close(&s->base);
  return err->code;
}
