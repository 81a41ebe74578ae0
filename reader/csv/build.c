/*
** build.c — tokenized CSV records into typed column vectors.
**
** Only the read set is converted. Each value is checked against its
** column's sniffed kind; a value that does not fit, invalid UTF-8 in a
** TEXT value, or a record with the wrong number of fields follows
** on_error: error (message "f.csv: line 12, column 'price': 'abc' is not a
** REAL"), null, skip (the row is dropped and counted), or text (the field
** is kept as TEXT, or as a BLOB when it is not UTF-8; a short row is
** padded with NULLs). TEXT values point into the caller's buffer unless
** they had escapes to remove; normalized dates and times that differ from
** the input go to the arena.
*/
#include "csv_impl.h"
#include "types.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int csv_utf8_valid(const char *z, uint32_t n){
  const unsigned char *p = (const unsigned char*)z;
  uint32_t i = 0;
  while( i<n ){
    if( i+8<=n ){
      uint64_t w;
      memcpy(&w, p+i, 8);
      if( (w & 0x8080808080808080ull)==0 ){ i += 8; continue; }
    }
    unsigned c = p[i];
    if( c<0x80 ){ i++; continue; }
    if( c>=0xC2 && c<=0xDF ){
      /* Two bytes (Latin, Cyrillic, Greek...): no overlong or surrogate
      ** case to check. */
      if( i+1>=n || (p[i+1] & 0xC0)!=0x80 ) return 0;
      i += 2;
      continue;
    }
    uint32_t len;
    unsigned cp;
    if( c>=0xC2 && c<=0xDF ){ len = 2; cp = c & 0x1F; }
    else if( c>=0xE0 && c<=0xEF ){ len = 3; cp = c & 0x0F; }
    else if( c>=0xF0 && c<=0xF4 ){ len = 4; cp = c & 0x07; }
    else return 0;
    if( i+len>n ) return 0;
    for(uint32_t k=1; k<len; k++){
      if( (p[i+k] & 0xC0)!=0x80 ) return 0;
      cp = (cp<<6) | (p[i+k] & 0x3F);
    }
    if( (len==3 && (cp<0x800 || (cp>=0xD800 && cp<=0xDFFF)))
     || (len==4 && (cp<0x10000 || cp>0x10FFFF)) ) return 0;
    i += len;
  }
  return 1;
}

static int colbuf_grow(csv_builder *b, csv_colbuf *c, uint32_t cap){
  uint8_t *t = realloc(c->tags, cap);
  if( t==0 ) return COL_ENOMEM;
  c->tags = t;
  if( c->i64 || c->vtype==CV_INT ){
    int64_t *v = realloc(c->i64, sizeof(int64_t)*cap);
    if( v==0 ) return COL_ENOMEM;
    c->i64 = v;
  }
  if( c->f64 || c->vtype==CV_REAL ){
    double *v = realloc(c->f64, sizeof(double)*cap);
    if( v==0 ) return COL_ENOMEM;
    c->f64 = v;
  }
  if( c->str || c->vtype==CV_TEXT || b->ds->on_error==CSV_ON_ERROR_TEXT ){
    cv_str *v = realloc(c->str, sizeof(cv_str)*cap);
    if( v==0 ) return COL_ENOMEM;
    c->str = v;
  }
  return COL_OK;
}

static int builder_grow(csv_builder *b, uint32_t cap){
  for(int k=0; k<b->ncol; k++){
    if( colbuf_grow(b, &b->c[k], cap) ) return COL_ENOMEM;
  }
  b->cap = cap;
  return COL_OK;
}

int csv_builder_init(csv_builder *b, const csv_ds *ds, int nread,
                     const int *readcols, uint32_t cap, uint32_t maxcap){
  memset(b, 0, sizeof(*b));
  b->ds = ds;
  b->maxcap = maxcap;
  col_arena_init(&b->arena);
  b->c = calloc((size_t)(nread ? nread : 1), sizeof(csv_colbuf));
  if( b->c==0 ) return COL_ENOMEM;
  b->ncol = nread;
  for(int k=0; k<nread; k++){
    csv_colbuf *c = &b->c[k];
    c->col = readcols[k];
    c->kind = ds->kinds[c->col];
    c->vtype = c->kind==CSV_T_INT || c->kind==CSV_T_BOOL ? CV_INT
             : c->kind==CSV_T_REAL ? CV_REAL : CV_TEXT;
  }
  if( builder_grow(b, cap ? cap : 1) ){ csv_builder_free(b); return COL_ENOMEM; }
  return COL_OK;
}

void csv_builder_free(csv_builder *b){
  if( b->c ){
    for(int k=0; k<b->ncol; k++){
      free(b->c[k].tags); free(b->c[k].i64); free(b->c[k].f64); free(b->c[k].str);
    }
  }
  free(b->c);
  col_arena_free(&b->arena);
  memset(b, 0, sizeof(*b));
}

void csv_builder_reset(csv_builder *b){
  b->n = 0;
  for(int k=0; k<b->ncol; k++) b->c[k].mixed = 0;
  col_arena_reset(&b->arena);
}

/* Bad-value message: the value quoted, cut at 40 bytes, unprintables as '?'. */
static int builder_value_error(csv_builder *b, const csv_colbuf *c, int64_t line,
                               const char *p, uint32_t n, const char *what,
                               col_error *err){
  char v[48];
  uint32_t k = 0;
  for(; k<n && k<40; k++){
    unsigned char ch = (unsigned char)p[k];
    v[k] = ch<0x20 || ch>=0x7f ? '?' : (char)ch;
  }
  v[k] = 0;
  return col_error_set(err, COL_ERROR, "%s: line %lld, column '%s': '%s%s' %s",
                       b->fname, (long long)line, b->ds->base.schema.cols[c->col].name,
                       v, n>40 ? "..." : "", what);
}

/* 0: stored; 1: not of the kind; 2: invalid UTF-8; -1: out of memory. */
static int builder_put(csv_builder *b, csv_colbuf *c, uint32_t r,
                       const char *p, uint32_t n){
  char tmp[CSV_TS_MAX];
  uint32_t tn;
  int rc;
  switch( c->kind ){
    case CSV_T_INT:
      if( n<=18 ){
        /* Inline: most integers are short and unsigned (the general
        ** parser handles signs and overflow). */
        uint64_t v = 0;
        uint32_t i = 0;
        for(; i<n; i++){
          unsigned d = (unsigned)(unsigned char)p[i] - '0';
          if( d>9 ) break;
          v = v*10 + d;
        }
        if( i==n ){ c->i64[r] = (int64_t)v; break; }
      }
      if( !csv_parse_int(p, n, &c->i64[r]) ) return 1;
      break;
    case CSV_T_BOOL:
      if( !csv_parse_bool(p, n, &c->i64[r]) ) return 1;
      break;
    case CSV_T_REAL:
      rc = csv_parse_real(p, n, &c->f64[r]);
      if( rc==0 ) return 1;
      if( rc==2 ){ c->tags[r] = CV_NULL; c->mixed = 1; c->f64[r] = 0; return 0; }
      break;
    case CSV_T_TIME: case CSV_T_DATE: case CSV_T_TS:
      rc = c->kind==CSV_T_TIME ? csv_parse_time(p, n, tmp, &tn)
         : c->kind==CSV_T_DATE ? csv_parse_date(p, n, tmp, &tn)
         : csv_parse_ts(p, n, tmp, &tn);
      if( !rc ) return 1;
      if( tn!=n || memcmp(tmp, p, n)!=0 ){
        p = col_arena_dup(&b->arena, tmp, tn);
        if( p==0 ) return -1;
        n = tn;
      }
      c->str[r].p = p;
      c->str[r].n = n;
      break;
    default:
      if( !csv_utf8_valid(p, n) ) return 2;
      c->str[r].p = p;
      c->str[r].n = n;
      break;
  }
  c->tags[r] = c->vtype;
  return 0;
}

static void builder_null(csv_colbuf *c, uint32_t r){
  c->tags[r] = CV_NULL;
  c->mixed = 1;
  if( c->vtype==CV_INT ) c->i64[r] = 0;
  else if( c->vtype==CV_REAL ) c->f64[r] = 0;
  else{ c->str[r].p = 0; c->str[r].n = 0; }
}

int csv_builder_add(csv_builder *b, const csv_tok *t, const char *rec,
                    int64_t line, col_error *err){
  const csv_ds *ds = b->ds;
  if( t->nf!=ds->ncols && !ds->ragged_ok ){
    switch( ds->on_error ){
      case CSV_ON_ERROR_FAIL:
        return col_error_set(err, COL_ERROR, "%s: line %lld: expected %d fields, found %d",
                             b->fname, (long long)line, ds->ncols, t->nf);
      case CSV_ON_ERROR_SKIP:
        b->skipped++;
        return COL_OK;
      default: break;
    }
  }
  if( b->n==b->cap ){
    uint32_t cap = b->cap*2 < b->maxcap ? b->cap*2 : b->maxcap;
    if( cap<=b->cap || builder_grow(b, cap) ){
      return col_error_set(err, COL_ENOMEM, "out of memory");
    }
  }
  uint32_t r = b->n;
  /* Locals: the stores into the column arrays cannot alias them. */
  const uint32_t *fs = t->fs, *fe = t->fe;
  const uint8_t *ff = t->ff;
  const int nf = t->nf, ncol = b->ncol, nnulls = ds->nnulls;
  csv_colbuf *cols = b->c;
  for(int k=0; k<ncol; k++){
    csv_colbuf *c = &cols[k];
    int f = c->col;
    if( f>=nf ){ builder_null(c, r); continue; }
    const char *p = rec + fs[f];
    uint32_t n = fe[f] - fs[f];
    uint8_t fl = ff[f];
    if( n==0 ){
      if( ds->all_text || ((fl & CSV_FQUOTED) && c->kind==CSV_T_TEXT) ){
        c->str[r].p = p; c->str[r].n = 0;
        c->tags[r] = CV_TEXT;
      }else{
        builder_null(c, r);
      }
      continue;
    }
    if( fl & CSV_FESCAPED ){
      char *q = col_arena_alloc(&b->arena, n);
      if( q==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
      n = csv_tok_unescape(&ds->d, p, n, q);
      p = q;
    }
    int isnull = 0;
    for(int i=0; i<nnulls && !isnull; i++){
      isnull = ds->nulllen[i]==n && memcmp(ds->nulls[i], p, n)==0;
    }
    if( isnull ){ builder_null(c, r); continue; }
    int rc = builder_put(b, c, r, p, n);
    if( rc==0 ) continue;
    if( rc<0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
    switch( ds->on_error ){
      case CSV_ON_ERROR_FAIL:
        if( rc==2 ) return builder_value_error(b, c, line, p, n, "is not valid UTF-8", err);
        return builder_value_error(b, c, line, p, n,
                                   c->kind==CSV_T_INT ? "is not an INTEGER"
                                   : c->kind==CSV_T_REAL ? "is not a REAL"
                                   : c->kind==CSV_T_BOOL ? "is not a BOOLEAN"
                                   : c->kind==CSV_T_TIME ? "is not a TIME"
                                   : c->kind==CSV_T_DATE ? "is not a DATE"
                                   : "is not a TIMESTAMP", err);
      case CSV_ON_ERROR_SKIP:
        b->skipped++;
        return COL_OK;
      case CSV_ON_ERROR_TEXT:
        c->str[r].p = p;
        c->str[r].n = n;
        c->tags[r] = rc==2 || !csv_utf8_valid(p, n) ? CV_BLOB : CV_TEXT;
        c->mixed |= c->tags[r]!=c->vtype;
        break;
      default:
        builder_null(c, r);
        break;
    }
  }
  b->n++;
  return COL_OK;
}

void csv_builder_vector(const csv_builder *b, int k, uint32_t from, uint32_t n,
                        col_vector *v){
  const csv_colbuf *c = &b->c[k];
  memset(v, 0, sizeof(*v));
  v->type = c->vtype;
  v->form = CV_FLAT;
  v->n = n;
  v->tags = c->mixed ? c->tags+from : 0;
  v->i64 = c->i64 ? c->i64+from : 0;
  v->f64 = c->f64 ? c->f64+from : 0;
  v->str = c->str ? c->str+from : 0;
}
