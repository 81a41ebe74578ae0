/*
** ordered.c — an aggregate with ORDER BY inside its call; see ordered.h.
*/
#include "ordered.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "value.h"
#include "ts_memo.h"
#include "bigmem.h"

#define ORD_MAX_ROWS ((1u<<31) - 1u)   /* a row's index, and ORD_KEY_NULL */
#define ORD_REPLAY_CHUNK 1024u  /* rows fed to the state at once */
#define ORD_RADIX_PASSES 8      /* 8-bit digits cover 64 bits in 8 */
#define ORD_RADIX_DIGITS 2048u  /* 11-bit digits */

/* Stored values as vectors: a lane's rows looked up in another's pairs, and
** rows fed to the state. */
typedef struct ord_chunk {
  uint8_t tags[ORD_REPLAY_CHUNK];
  int64_t i64[ORD_REPLAY_CHUNK];
  double f64[ORD_REPLAY_CHUNK];
  cv_str str[ORD_REPLAY_CHUNK];
  col_vector v;
} ord_chunk;

/* A row's sort key: its first term's word and its index, ORD_KEY_NULL set
** in that when the term is NULL. 12 bytes, not 16: the layout writes one
** per row and the radix passes move them (T10: 10M rows). */
typedef struct __attribute__((packed, aligned(4))) ord_key { uint64_t k; uint32_t e; } ord_key;
_Static_assert(sizeof(ord_key)==12, "ord_key packs into 12 bytes");
#define ORD_KEY_NULL 0x80000000u

/* A chunk of stored values as a FLAT vector of m rows. */
static void ord_chunk_init(ord_chunk *c, uint32_t m){
  col_vector *v = &c->v;
  memset(v, 0, sizeof(*v));
  v->form = CV_FLAT; v->type = CV_TEXT; v->n = m;
  v->tags = c->tags; v->i64 = c->i64; v->f64 = c->f64; v->str = c->str;
}

int agg_ordbuf_init(agg_ordbuf *o, int nterm, const uint8_t *desc,
                    const uint8_t *nulls_first, const uint8_t *ts_unit,
                    int narg, int distinct){
  memset(o, 0, sizeof(*o));
  o->nterm = nterm;
  o->narg = narg;
  o->distinct = distinct;
  agg_hasher_init(&o->hs);
  o->desc = malloc((size_t)nterm + 1);
  o->nulls_first = malloc((size_t)nterm + 1);
  o->ts_unit = calloc((size_t)nterm + 1, 1);
  o->ts_text = calloc((size_t)nterm + 1, 1);
  o->cols = calloc((size_t)(nterm + narg), sizeof(agg_ordcol));
  if( !o->desc || !o->nulls_first || !o->ts_unit || !o->ts_text || !o->cols ) return -1;
  if( nterm ){
    memcpy(o->desc, desc, (size_t)nterm);
    memcpy(o->nulls_first, nulls_first, (size_t)nterm);
    if( ts_unit ) memcpy(o->ts_unit, ts_unit, (size_t)nterm);
  }
  return agg_table_init(&o->pairs, 2);
}

static void ord_scratch_free(agg_ordbuf *o){
  free(o->g64); free(o->h); free(o->slot); free(o->ival); free(o->sel); free(o->gsel);
  free(o->cseen);
  o->g64 = 0; o->h = 0; o->slot = 0; o->ival = 0; o->sel = 0; o->gsel = 0;
  o->cseen = 0; o->scap = 0; o->cseen_cap = 0;
}

static void ord_cols_free(agg_ordbuf *o){
  for(int j=0; o->cols && j<o->nterm + o->narg; j++){
    agg_mem_free(o->cols[j].w); agg_mem_free(o->cols[j].type); agg_mem_free(o->cols[j].len);
  }
  free(o->cols);
  o->cols = 0;
}

int agg_ordbuf_const_sep(agg_ordbuf *o, const pred_value *sep){
  o->has_sep = 1;
  o->sep = *sep;
  if( sep->type==CV_REAL && isnan(sep->f) ) o->sep.type = CV_NULL;   /* SQLite's NULL */
  if( sep->type==CV_TEXT || sep->type==CV_BLOB ){
    o->sep_bytes = malloc((size_t)sep->n + 1);
    if( o->sep_bytes==0 ) return -1;
    if( sep->n ) memcpy(o->sep_bytes, sep->p, sep->n);
    o->sep.p = o->sep_bytes;
  }
  return 0;
}

void agg_ordbuf_free(agg_ordbuf *o){
  ord_cols_free(o);
  free(o->sep_bytes);
  o->sep_bytes = 0; o->has_sep = 0;
  agg_mem_free(o->gid); agg_mem_free(o->heap); agg_mem_free(o->pfx);
  o->gid = 0; o->heap = 0; o->pfx = 0;
  free(o->desc); free(o->nulls_first); free(o->ts_unit); free(o->ts_text);
  o->desc = 0; o->nulls_first = 0; o->ts_unit = 0; o->ts_text = 0;
  o->n = o->cap = 0;
  o->heap_len = o->heap_cap = 0;
  agg_iset_free(&o->iset);
  agg_table_free(&o->pairs);
  agg_hasher_free(&o->hs);
  ord_scratch_free(o);
}

uint64_t agg_ordbuf_footprint(const agg_ordbuf *o){
  uint64_t row = 4;
  for(int j=0; o->cols && j<o->nterm + o->narg; j++){
    row += 8 + (o->cols[j].type ? 1 : 0) + (o->cols[j].len ? 4 : 0);
  }
  return (uint64_t)o->cap * row + o->heap_cap
       + agg_iset_footprint(&o->iset)
       + agg_table_footprint(&o->pairs) + agg_table_owned(&o->pairs)
       + (uint64_t)o->scap * (8 + 8 + 4 + 8 + 4 + 4);
}

uint64_t agg_ordbuf_sort_bytes(const agg_ordbuf *o){
  /* idx, tmp and the words, 4 + 4 + 8 a row; the keys, 12 a row and as
  ** many again for the longest group's radix passes, and their counts;
  ** then the chunks the rows are fed through (ord_chunk, two of them:
  ** under 128 KiB) */
  return o->n ? (uint64_t)o->n*(16 + 2*sizeof(ord_key)) + 2*sizeof(ord_chunk)
                + (uint64_t)ORD_RADIX_PASSES*ORD_RADIX_DIGITS*4 : 0;
}

static int ord_grow(agg_ordbuf *o, uint32_t need, col_error *err){
  if( need <= o->cap ) return COL_OK;
  if( need > ORD_MAX_ROWS ){
    return col_error_set(err, COL_ERROR, "group_by: more than %u rows for one ORDER BY aggregate", ORD_MAX_ROWS);
  }
  uint64_t cap = o->cap ? (uint64_t)o->cap*2 : 1024;
  while( cap < need ) cap *= 2;
  if( cap > ORD_MAX_ROWS ) cap = ORD_MAX_ROWS;
  /* bigmem blocks: a buffer of millions of rows grows by moving pages, in
  ** huge ones, where realloc copied it into fresh 4 KiB pages (a counter's
  ** phrases, newest first: copies and their faults were half the time) */
  uint32_t *g = agg_mem_realloc(o->gid, (size_t)cap*4);
  if( g==0 ) goto oom;
  o->gid = g;
  for(int j=0; j<o->nterm + o->narg; j++){
    agg_ordcol *c = &o->cols[j];
    int64_t *w = agg_mem_realloc(c->w, (size_t)cap*8);
    if( w==0 ) goto oom;
    c->w = w;
    if( c->type ){
      uint8_t *t = agg_mem_realloc(c->type, (size_t)cap);
      if( t==0 ) goto oom;
      c->type = t;
    }
    if( c->len ){
      uint32_t *l = agg_mem_realloc(c->len, (size_t)cap*4);
      if( l==0 ) goto oom;
      c->len = l;
    }
  }
  o->cap = (uint32_t)cap;
  return COL_OK;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory buffering an ORDER BY aggregate");
}

static inline int ord_type(const agg_ordcol *c, uint32_t e){
  return c->type ? c->type[e] : CV_INT;
}

static inline uint32_t ord_len(const agg_ordcol *c, uint32_t e){
  return c->len ? c->len[e] : 0;
}

/* Row e of column c as a value. */
static pred_value ord_value(const agg_ordbuf *o, const agg_ordcol *c, uint32_t e){
  pred_value x;
  x.type = ord_type(c, e); x.i = 0; x.f = 0; x.p = 0; x.n = 0;
  switch( x.type ){
    case CV_INT: x.i = c->w[e]; break;
    case CV_REAL: memcpy(&x.f, &c->w[e], 8); break;
    case CV_TEXT: case CV_BLOB:
      /* no heap yet when every text so far was empty */
      x.p = o->heap ? o->heap + c->w[e] : ""; x.n = ord_len(c, e);
      break;
    default: break;
  }
  return x;
}

/* Row e of column c as row k of chunk ch. */
static void ord_chunk_set(const agg_ordbuf *o, ord_chunk *ch, uint32_t k, const agg_ordcol *c,
                          uint32_t e){
  pred_value p = ord_value(o, c, e);
  ch->tags[k] = p.type;
  ch->i64[k] = p.i; ch->f64[k] = p.f;
  ch->str[k].p = p.p; ch->str[k].n = p.n;
}

/* Row e of column c (e < cap) becomes a value of type t, word w and len n:
** the column's type or len array made on the first value that needs it. */
/* Column c's type array (need_type) and len array (need_len) made, if
** they are not yet: every row so far an INTEGER, of no bytes. */
static int ord_col_arrays(agg_ordbuf *o, agg_ordcol *c, int need_type, int need_len,
                          col_error *err){
  if( need_type && c->type==0 ){
    c->type = agg_mem_realloc(0, o->cap);
    if( c->type==0 ) goto oom;
    memset(c->type, CV_INT, o->cap);
  }
  if( need_len && c->len==0 ){
    c->len = agg_mem_realloc(0, (size_t)o->cap*4);
    if( c->len==0 ) goto oom;
    memset(c->len, 0, (size_t)o->cap*4);
  }
  return COL_OK;
oom:
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory buffering an ORDER BY aggregate");
}

static int ord_set(agg_ordbuf *o, agg_ordcol *c, uint32_t e, int t, int64_t w, uint32_t n,
                   col_error *err){
  if( ((t!=CV_INT && c->type==0) || (n && c->len==0)) && ord_col_arrays(o, c, t!=CV_INT, n!=0, err) ){
    return err->code;
  }
  c->w[e] = w;
  if( c->type ) c->type[e] = (uint8_t)t;
  if( c->len ) c->len[e] = n;
  return COL_OK;
}

/* Room in the heap for n more bytes. */
static int ord_heap_room(agg_ordbuf *o, uint64_t n, col_error *err){
  if( o->heap_len + n > o->heap_cap ){
    uint64_t cap = o->heap_cap ? o->heap_cap*2 : 65536;
    while( cap < o->heap_len + n ) cap *= 2;
    char *h = agg_mem_realloc(o->heap, (size_t)cap);
    if( h==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory buffering an ORDER BY aggregate");
    o->heap = h; o->heap_cap = cap;
  }
  return COL_OK;
}

/* n bytes into the heap; their offset in *at. */
static int ord_heap_add(agg_ordbuf *o, const char *p, uint32_t n, int64_t *at, col_error *err){
  if( ord_heap_room(o, n, err) ) return err->code;
  if( n ) memcpy(o->heap + o->heap_len, p, n);
  *at = (int64_t)o->heap_len;
  o->heap_len += n;
  return COL_OK;
}

/* n bytes at p as the TEXT/BLOB (type t) of row e of column c. */
static int ord_set_bytes(agg_ordbuf *o, agg_ordcol *c, uint32_t e, int t, const char *p,
                         uint32_t n, col_error *err){
  int64_t at = 0;
  if( ord_heap_add(o, p, n, &at, err) ) return err->code;
  return ord_set(o, c, e, t, at, n, err);
}

/* Timestamp term t has a value outside years 0000-9999: every value of it
** stored so far becomes its text, as values from now on. */
static int ord_ts_to_text(agg_ordbuf *o, int t, col_error *err){
  agg_ordcol *c = &o->cols[t];
  for(uint32_t e=0; e<o->n; e++){
    if( ord_type(c, e)!=CV_INT ) continue;
    char buf[64];
    int n = agg_ts_text(c->w[e], o->ts_unit[t], buf);
    if( ord_set_bytes(o, c, e, CV_TEXT, buf, (uint32_t)n, err) ) return err->code;
  }
  o->ts_text[t] = 1;
  return COL_OK;
}

/* Row r of v into row e of column c, its bytes appended to the heap. */
static int ord_store(agg_ordbuf *o, const col_vector *v, uint32_t r, agg_ordcol *c,
                     uint32_t e, col_error *err){
  pred_value x = agg_value_at(v, r);
  int64_t w = 0;
  switch( x.type ){
    case CV_INT: return ord_set(o, c, e, CV_INT, x.i, 0, err);
    case CV_REAL:
      if( isnan(x.f) ) break;   /* SQLite's NULL */
      memcpy(&w, &x.f, 8);
      return ord_set(o, c, e, CV_REAL, w, 0, err);
    case CV_TEXT: case CV_BLOB:
      return ord_set_bytes(o, c, e, x.type, x.p, x.n, err);
    default: break;
  }
  return ord_set(o, c, e, CV_NULL, 0, 0, err);
}

/* Row r of timestamp term t into stored row e. */
static int ord_store_ts(agg_ordbuf *o, int t, const col_vector *v, uint32_t r, uint32_t e,
                        col_error *err){
  agg_ordcol *c = &o->cols[t];
  int tag = cv_tag(v, r);
  if( tag==CV_NULL ) return ord_set(o, c, e, CV_NULL, 0, 0, err);
  if( tag!=CV_INT ){
    /* the reader gave the text after all (a pushed predicate reads the
    ** column): that is the value, and every other one's form */
    if( !o->ts_text[t] ){
      int rc = ord_ts_to_text(o, t, err);
      if( rc ) return rc;
    }
    return ord_store(o, v, r, c, e, err);
  }
  int64_t x = cv_int(v, r);
  if( !o->ts_text[t] && !col_ts_plain(x, o->ts_unit[t]) ){
    int rc = ord_ts_to_text(o, t, err);
    if( rc ) return rc;
  }
  if( !o->ts_text[t] ) return ord_set(o, c, e, CV_INT, x, 0, err);
  char buf[64];
  int n = agg_ts_text(x, o->ts_unit[t], buf);
  return ord_set_bytes(o, c, e, CV_TEXT, buf, (uint32_t)n, err);
}

/* Row r's terms and arguments into stored row e. */
static int ord_put(agg_ordbuf *o, uint32_t e, const col_vector *const *term,
                   const col_vector *arg, const col_vector *sep, uint32_t r,
                   col_error *err){
  int rc = COL_OK;
  for(int t=0; t<o->nterm && rc==COL_OK; t++){
    rc = o->ts_unit[t] ? ord_store_ts(o, t, term[t], r, e, err)
                       : ord_store(o, term[t], r, &o->cols[t], e, err);
  }
  if( rc==COL_OK ) rc = ord_store(o, arg, r, &o->cols[o->nterm], e, err);
  if( rc==COL_OK && o->narg>1 ) rc = ord_store(o, sep, r, &o->cols[o->nterm+1], e, err);
  return rc;
}

/* Append row r for group g. */
static int ord_append(agg_ordbuf *o, const col_vector *const *term,
                      const col_vector *arg, const col_vector *sep, uint32_t r,
                      uint32_t g, col_error *err){
  if( o->n==o->cap && ord_grow(o, o->n + 1, err) ) return err->code;
  int rc = ord_put(o, o->n, term, arg, sep, r, err);
  if( rc ) return rc;
  o->gid[o->n++] = g;
  return COL_OK;
}

static int ord_scratch(agg_ordbuf *o, uint32_t nrow, col_error *err){
  /* ord_iset_retire hashes a chunk of stored rows with it */
  if( nrow < ORD_REPLAY_CHUNK ) nrow = ORD_REPLAY_CHUNK;
  if( nrow <= o->scap ) return COL_OK;
  ord_scratch_free(o);
  o->g64 = malloc((size_t)nrow*8); o->h = malloc((size_t)nrow*8);
  o->slot = malloc((size_t)nrow*4); o->ival = malloc((size_t)nrow*8);
  o->sel = malloc((size_t)nrow*4); o->gsel = malloc((size_t)nrow*4);
  if( !o->g64 || !o->h || !o->slot || !o->ival || !o->sel || !o->gsel ){
    ord_scratch_free(o);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  o->scap = nrow;
  return COL_OK;
}

/* Rows [at, at + m) of column c, their words written, are INTEGERs. */
static void ord_mark_ints(agg_ordcol *c, uint32_t at, uint32_t m){
  if( c->type ) memset(c->type + at, CV_INT, m);
  if( c->len ) memset(c->len + at, 0, (size_t)m*4);
}

/* Rows rows[0..m) of v into rows [o->n, o->n + m) of column j (room made).
** A column of INTEGERs goes a column at a time; a timestamp that needs
** its text has the rows stored before made text first, so that the rows
** go in one form. */
static int ord_store_rows(agg_ordbuf *o, int j, const col_vector *v, const uint32_t *rows,
                          uint32_t m, col_error *err){
  agg_ordcol *c = &o->cols[j];
  uint32_t at = o->n;
  int unit = j<o->nterm ? o->ts_unit[j] : 0;
  int cls = cv_class(v);
  if( cls==CV_INT && !(unit && o->ts_text[j]) ){
    int64_t *w = c->w + at;
    int plain = 1;
    if( v->form==CV_FLAT ){
      for(uint32_t k=0; k<m; k++) w[k] = v->i64[rows[k]];
    }else if( v->form==CV_DICT ){
      const int64_t *d = v->dict->i64;
      for(uint32_t k=0; k<m; k++) w[k] = d[v->codes[rows[k]]];
    }else{
      for(uint32_t k=0; k<m; k++) w[k] = v->i64[0];
    }
    if( unit ){
      int64_t lo, hi;
      col_ts_plain_range(unit, &lo, &hi);
      for(uint32_t k=0; k<m; k++) plain &= w[k]>=lo && w[k]<hi;
    }
    if( plain ){
      ord_mark_ints(c, at, m);
      return COL_OK;
    }
  }
  if( (cls==CV_TEXT || cls==CV_BLOB) && !unit ){
    /* TEXT or BLOB without NULLs: the bytes appended in one go */
    const cv_str *str = cv_values(v)->str;
    uint64_t total = 0;
    for(uint32_t k=0; k<m; k++) total += str[cv_slot(v, rows[k])].n;
    if( ord_heap_room(o, total, err) || ord_col_arrays(o, c, 1, 1, err) ) return err->code;
    for(uint32_t k=0; k<m; k++){
      cv_str x = str[cv_slot(v, rows[k])];
      agg_copy_bytes(o->heap + o->heap_len, x.p, x.n);
      c->w[at+k] = (int64_t)o->heap_len;
      c->len[at+k] = x.n;
      o->heap_len += x.n;
    }
    memset(c->type + at, cls, m);
    return COL_OK;
  }
  if( unit && !o->ts_text[j] ){
    for(uint32_t k=0; k<m; k++){
      int tag = cv_tag(v, rows[k]);
      if( tag==CV_NULL || (tag==CV_INT && col_ts_plain(cv_int(v, rows[k]), unit)) ) continue;
      int rc = ord_ts_to_text(o, j, err);
      if( rc ) return rc;
      break;
    }
  }
  for(uint32_t k=0; k<m; k++){
    int rc = unit ? ord_store_ts(o, j, v, rows[k], at + k, err)
                  : ord_store(o, v, rows[k], c, at + k, err);
    if( rc ) return rc;
  }
  return COL_OK;
}

/* Every row of rows[0..n) (groups gid) whose argument is not NULL
** appended, a column at a time. */
static int ord_append_all(agg_ordbuf *o, const col_vector *const *term,
                          const col_vector *arg, const col_vector *sep, uint32_t nrow,
                          const uint32_t *rows, const uint32_t *gid, uint32_t n,
                          col_error *err){
  const uint32_t *sel = rows, *gsel = gid;
  uint32_t m = n;
  int rc;
  int cls = cv_class(arg);
  if( cls<0 || cls==CV_NULL ){
    if( (rc = ord_scratch(o, nrow, err))!=0 ) return rc;
    m = 0;
    for(uint32_t k=0; k<n; k++){
      if( cv_tag(arg, rows[k])==CV_NULL ) continue;
      o->sel[m] = rows[k]; o->gsel[m] = gid[k]; m++;
    }
    sel = o->sel; gsel = o->gsel;
  }
  if( m==0 ) return COL_OK;
  if( (uint64_t)o->n + m > ORD_MAX_ROWS ) return ord_grow(o, ORD_MAX_ROWS + 1u, err);
  if( (rc = ord_grow(o, o->n + m, err))!=0 ) return rc;
  for(int t=0; t<o->nterm; t++){
    if( (rc = ord_store_rows(o, t, term[t], sel, m, err))!=0 ) return rc;
  }
  if( (rc = ord_store_rows(o, o->nterm, arg, sel, m, err))!=0 ) return rc;
  if( o->narg>1 && (rc = ord_store_rows(o, o->nterm + 1, sep, sel, m, err))!=0 ) return rc;
  memcpy(o->gid + o->n, gsel, (size_t)m*4);
  o->n += m;
  return COL_OK;
}

/* DISTINCT: the pair slots of candidates sel[0..n) into o->slot. g64 is
** indexed by batch row, nrow of them. */
static int ord_pairs(agg_ordbuf *o, const col_vector *arg, const int64_t *g64,
                     uint32_t nrow, const uint32_t *sel, uint32_t n, col_error *err){
  col_vector gv;
  memset(&gv, 0, sizeof(gv));
  gv.type = CV_INT; gv.form = CV_FLAT; gv.n = nrow; gv.i64 = g64;
  const col_vector *pair[2] = { &gv, arg };
  if( agg_hash_keys(&o->hs, pair, 2, sel, n, o->h) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  uint32_t nnew;
  return agg_table_lookup(&o->pairs, pair, sel, n, o->h, o->slot, &nnew, err);
}

/* The first value that is not an INTEGER: the stored rows' pairs, all
** INTEGER, go from the iset into pairs, stored row e as slot e. */
static int ord_iset_retire(agg_ordbuf *o, col_error *err){
  const int64_t *arg = o->cols[o->nterm].w;
  int64_t g[ORD_REPLAY_CHUNK], v[ORD_REPLAY_CHUNK];
  uint32_t sel[ORD_REPLAY_CHUNK];
  col_vector av;
  memset(&av, 0, sizeof(av));
  av.type = CV_INT; av.form = CV_FLAT; av.i64 = v;
  int rc = COL_OK;
  for(uint32_t at=0; at<o->n && rc==COL_OK; at+=ORD_REPLAY_CHUNK){
    uint32_t m = o->n - at < ORD_REPLAY_CHUNK ? o->n - at : ORD_REPLAY_CHUNK;
    for(uint32_t k=0; k<m; k++){
      g[k] = o->gid[at+k];
      v[k] = arg[at+k];
      sel[k] = k;
    }
    av.n = m;
    rc = ord_pairs(o, &av, g, m, sel, m, err);
  }
  agg_iset_free(&o->iset);
  o->iset_off = 1;
  return rc;
}

/* The INTEGER pairs (slot[k] - 1, ival[k]), k < m, into the iset: the
** positions k of the new ones into *fresh (the g64 scratch, unused while
** the iset serves), how many into *nf. */
static int ord_iset_add(agg_ordbuf *o, uint32_t m, uint32_t **fresh, uint32_t *nf,
                        col_error *err){
  for(uint32_t k=0; k<m; k++) o->h[k] = agg_ipair_hash(o->slot[k], o->ival[k]);
  if( agg_iset_grow(&o->iset, (uint64_t)o->iset.n + m) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  *fresh = (uint32_t*)o->g64;
  *nf = agg_iset_insert(&o->iset, o->h, o->slot, o->ival, m, *fresh);
  return COL_OK;
}

/* DISTINCT while every value is an INTEGER: rows of new pairs appended. */
static int ord_add_ints(agg_ordbuf *o, const col_vector *const *term,
                        const col_vector *arg, const col_vector *sep, uint32_t m,
                        col_error *err){
  for(uint32_t k=0; k<m; k++){
    o->ival[k] = cv_int(arg, o->sel[k]);
    o->slot[k] = o->gsel[k] + 1;
  }
  uint32_t *fresh, nf;
  if( ord_iset_add(o, m, &fresh, &nf, err) ) return err->code;
  for(uint32_t j=0; j<nf; j++){
    uint32_t k = fresh[j];
    int rc = ord_append(o, term, arg, sep, o->sel[k], o->gsel[k], err);
    if( rc ) return rc;
  }
  return COL_OK;
}

int agg_ordbuf_add(agg_ordbuf *o, const col_vector *const *term,
                   const col_vector *arg, const col_vector *sep, uint32_t nrow,
                   const uint32_t *rows, const uint32_t *gid, uint32_t n,
                   col_error *err){
  int rc;
  if( o->distinct==AGG_ORD_ALL ) return ord_append_all(o, term, arg, sep, nrow, rows, gid, n, err);
  if( (rc = ord_scratch(o, nrow, err))!=0 ) return rc;
  uint32_t m = 0, gmax = 0;
  int ints = 1;
  for(uint32_t k=0; k<n; k++){
    int tag = cv_tag(arg, rows[k]);
    if( tag==CV_NULL ) continue;
    ints &= tag==CV_INT;
    o->sel[m] = rows[k]; o->gsel[m] = gid[k]; m++;
    gmax = gid[k]>gmax ? gid[k] : gmax;
  }
  /* a later row of a pair is never stored, whatever its terms or
  ** separator; nor under AGG_ORD_LAST, its entry being the same value in
  ** the same form: so from a dictionary, one row per pair goes on */
  if( arg->form==CV_DICT && m>1
   && agg_codes_first(&o->cseen, &o->cseen_cap, arg->codes, arg->dict->n, gmax + 1, o->sel, o->gsel, &m) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  if( m==0 ) return COL_OK;
  if( !o->iset_off ){
    if( ints ) return ord_add_ints(o, term, arg, sep, m, err);
    if( (rc = ord_iset_retire(o, err))!=0 ) return rc;
  }
  for(uint32_t k=0; k<m; k++) o->g64[o->sel[k]] = o->gsel[k];
  if( (rc = ord_pairs(o, arg, o->g64, nrow, o->sel, m, err))!=0 ) return rc;
  /* a new pair's slot is the next row: pairs are made in row order */
  const agg_ordcol *ac = &o->cols[o->nterm];
  for(uint32_t k=0; k<m; k++){
    uint32_t s = o->slot[k], r = o->sel[k];
    if( s==o->n ){
      if( (rc = ord_append(o, term, arg, sep, r, o->gsel[k], err))!=0 ) return rc;
    }else if( o->distinct==AGG_ORD_LAST ){
      /* the one term is the argument: equal values, and TEXT/BLOB equal
      ** only byte for byte, so only a number in another form (1 then
      ** 1.0, -0.0 then 0.0) replaces what is stored */
      int vt = ord_type(ac, s);
      pred_value x = agg_value_at(arg, r);
      if( (vt==CV_INT || vt==CV_REAL)
       && (x.type!=vt || (x.type==CV_REAL && memcmp(&x.f, &ac->w[s], 8)!=0)) ){
        if( (rc = ord_put(o, s, term, arg, sep, r, err))!=0 ) return rc;
      }
    }
  }
  return COL_OK;
}

/* ---- lanes -------------------------------------------------------------- */

#define ORD_MOVED UINT32_MAX    /* gid of a row moved to another buffer */

/* src's stored row e into dst's row d (d < dst->cap), its bytes copied. */
/* src's value at row e of column j into dst's row d of it (d < dst->cap). */
static int ord_copy_value(agg_ordbuf *dst, uint32_t d, const agg_ordbuf *src, uint32_t e,
                          int j, col_error *err){
  const agg_ordcol *f = &src->cols[j];
  agg_ordcol *t = &dst->cols[j];
  int type = ord_type(f, e);
  if( type==CV_TEXT || type==CV_BLOB ){
    return ord_set_bytes(dst, t, d, type, src->heap + f->w[e], ord_len(f, e), err);
  }
  return ord_set(dst, t, d, type, f->w[e], 0, err);
}

static int ord_copy_values(agg_ordbuf *dst, uint32_t d, const agg_ordbuf *src, uint32_t e,
                           col_error *err){
  for(int j=0; j<src->nterm + src->narg; j++){
    int rc = ord_copy_value(dst, d, src, e, j, err);
    if( rc ) return rc;
  }
  return COL_OK;
}

/* Lanes without DISTINCT: src's rows ents[0..m) appended to dst as rows of
** groups map names, a column at a time (a column of INTEGERs in a loop). */
static int ord_move_rows(agg_ordbuf *dst, const agg_ordbuf *src, const uint32_t *map,
                         const uint32_t *ents, uint32_t m, col_error *err){
  if( (uint64_t)dst->n + m > ORD_MAX_ROWS ) return ord_grow(dst, ORD_MAX_ROWS + 1u, err);
  if( ord_grow(dst, dst->n + m, err) ) return err->code;
  uint32_t at = dst->n;
  for(int j=0; j<src->nterm + src->narg; j++){
    const agg_ordcol *f = &src->cols[j];
    agg_ordcol *t = &dst->cols[j];
    if( f->type==0 ){
      for(uint32_t k=0; k<m; k++) t->w[at+k] = f->w[ents[k]];
      ord_mark_ints(t, at, m);
      continue;
    }
    for(uint32_t k=0; k<m; k++){
      int rc = ord_copy_value(dst, at + k, src, ents[k], j, err);
      if( rc ) return rc;
    }
  }
  for(uint32_t k=0; k<m; k++) dst->gid[at+k] = map[src->gid[ents[k]]];
  dst->n += m;
  return COL_OK;
}

/* DISTINCT: src's rows of groups map names, ents[0..m), into dst, whose
** pairs decide: a pair dst holds keeps dst's row (it came first), except
** that under AGG_ORD_LAST a number in another form takes over. */
static int ord_move_pairs(agg_ordbuf *dst, const agg_ordbuf *src, const uint32_t *map,
                          const uint32_t *ents, uint32_t m, col_error *err){
  const agg_ordcol *sa = &src->cols[src->nterm], *da = &dst->cols[dst->nterm];
  int ints = 1;
  for(uint32_t k=0; k<m; k++) ints &= ord_type(sa, ents[k])==CV_INT;
  int rc;
  if( !dst->iset_off && ints ){
    for(uint32_t k=0; k<m; k++){
      dst->ival[k] = sa->w[ents[k]];
      dst->slot[k] = map[src->gid[ents[k]]] + 1;
    }
    uint32_t *fresh, nf;
    if( ord_iset_add(dst, m, &fresh, &nf, err) ) return err->code;
    for(uint32_t j=0; j<nf; j++){
      uint32_t e = ents[fresh[j]];
      if( (rc = ord_move_rows(dst, src, map, &e, 1, err))!=0 ) return rc;
    }
    return COL_OK;
  }
  if( !dst->iset_off && (rc = ord_iset_retire(dst, err))!=0 ) return rc;
  /* the chunk as vectors: groups, and the values */
  int64_t g[ORD_REPLAY_CHUNK] = {0};
  uint32_t sel[ORD_REPLAY_CHUNK] = {0};
  ord_chunk av;
  for(uint32_t k=0; k<m; k++){
    ord_chunk_set(src, &av, k, sa, ents[k]);
    g[k] = map[src->gid[ents[k]]];
    sel[k] = k;
  }
  ord_chunk_init(&av, m);
  if( (rc = ord_pairs(dst, &av.v, g, m, sel, m, err))!=0 ) return rc;
  for(uint32_t k=0; k<m; k++){
    uint32_t s = dst->slot[k], e = ents[k];
    if( s==dst->n ){
      if( (rc = ord_move_rows(dst, src, map, &e, 1, err))!=0 ) return rc;
    }else if( dst->distinct==AGG_ORD_LAST ){
      /* the one term is the argument: a number's form is the news */
      int dt = ord_type(da, s);
      if( (dt==CV_INT || dt==CV_REAL) && (dt!=ord_type(sa, e) || da->w[s]!=sa->w[e]) ){
        if( (rc = ord_copy_values(dst, s, src, e, err))!=0 ) return rc;
      }
    }
  }
  return COL_OK;
}

/* src's rows ents[0..m) into dst, by ord_move_rows or, under DISTINCT,
** ord_move_pairs. */
static int ord_move_chunk(agg_ordbuf *dst, const agg_ordbuf *src, const uint32_t *map,
                          const uint32_t *ents, uint32_t m, col_error *err){
  return src->distinct==AGG_ORD_ALL ? ord_move_rows(dst, src, map, ents, m, err)
                                    : ord_move_pairs(dst, src, map, ents, m, err);
}

int agg_ordbuf_move(agg_ordbuf *dst, agg_ordbuf *src, const uint32_t *map,
                    uint32_t ng, col_error *err){
  int rc;
  /* a timestamp term one side already holds as text: both do */
  for(int t=0; t<src->nterm; t++){
    if( !src->ts_unit[t] || src->ts_text[t]==dst->ts_text[t] ) continue;
    rc = src->ts_text[t] ? ord_ts_to_text(dst, t, err) : ord_ts_to_text(src, t, err);
    if( rc ) return rc;
  }
  if( src->distinct!=AGG_ORD_ALL && (rc = ord_scratch(dst, ORD_REPLAY_CHUNK, err))!=0 ) return rc;
  uint32_t ents[ORD_REPLAY_CHUNK], m = 0;
  for(uint32_t e=0; e<src->n; e++){
    uint32_t g = src->gid[e];
    if( g==ORD_MOVED || g>=ng || map[g]==AGG_EMPTY ) continue;
    ents[m++] = e;
    if( m<ORD_REPLAY_CHUNK ) continue;
    if( (rc = ord_move_chunk(dst, src, map, ents, m, err))!=0 ) return rc;
    m = 0;
  }
  if( m && (rc = ord_move_chunk(dst, src, map, ents, m, err))!=0 ) return rc;
  for(uint32_t e=0; e<src->n; e++){
    uint32_t g = src->gid[e];
    if( g!=ORD_MOVED && g<ng && map[g]!=AGG_EMPTY ) src->gid[e] = ORD_MOVED;
  }
  return COL_OK;
}

void agg_ordbuf_compact(agg_ordbuf *o, const uint32_t *slot, uint32_t ng){
  uint32_t m = 0;
  for(uint32_t e=0; e<o->n; e++){
    uint32_t g = o->gid[e];
    if( g==ORD_MOVED || g>=ng || slot[g]==AGG_EMPTY ) continue;
    if( m!=e ){
      for(int j=0; j<o->nterm + o->narg; j++){
        agg_ordcol *c = &o->cols[j];
        c->w[m] = c->w[e];
        if( c->type ) c->type[m] = c->type[e];
        if( c->len ) c->len[m] = c->len[e];
      }
    }
    o->gid[m++] = slot[g];
  }
  o->n = m;     /* the heap keeps the bytes of rows gone: freed at replay */
}

/* ---- sorting ------------------------------------------------------------ */

/* Rows a and b of column c, neither NULL, as SQLite's sorter compares
** them (BINARY). */
static inline int ord_cmp_value(const agg_ordbuf *o, const agg_ordcol *c, uint32_t a,
                                uint32_t b){
  int ta = ord_type(c, a);
  if( ta==ord_type(c, b) ){
    switch( ta ){
      case CV_INT: return c->w[a] < c->w[b] ? -1 : c->w[a] > c->w[b];
      case CV_REAL: {
        double x, y;
        memcpy(&x, &c->w[a], 8); memcpy(&y, &c->w[b], 8);
        return x < y ? -1 : x > y;
      }
      default: {
        uint32_t na = ord_len(c, a), nb = ord_len(c, b), n = na < nb ? na : nb;
        int r = n ? memcmp(o->heap + c->w[a], o->heap + c->w[b], n) : 0;
        if( r ) return r;
        return na < nb ? -1 : na > nb;
      }
    }
  }
  pred_value x = ord_value(o, c, a), y = ord_value(o, c, b);
  return agg_value_compare(&x, &y);
}

/* Stored rows a and b by the terms from t0 on (those before it are known
** to be equal). */
static int ord_cmp(const agg_ordbuf *o, uint32_t a, uint32_t b, int t0){
  for(int t=t0; t<o->nterm; t++){
    const agg_ordcol *c = &o->cols[t];
    int na = ord_type(c, a)==CV_NULL, nb = ord_type(c, b)==CV_NULL;
    if( na || nb ){
      if( na && nb ) continue;
      return (na ? -1 : 1) * (o->nulls_first[t] ? 1 : -1);
    }
    int r;
    if( t==0 && o->pfx ){
      uint64_t x = o->pfx[a], y = o->pfx[b];
      r = x<y ? -1 : x>y;
      if( r==0 ){
        /* equal words: bytes [0, pfx_from) agree (ord_prefixes); the
        ** rest decides, then the lengths */
        uint32_t la = ord_len(c, a), lb = ord_len(c, b), from = o->pfx_from;
        uint32_t n = la < lb ? la : lb;
        if( n>from ) r = memcmp(o->heap + c->w[a] + from, o->heap + c->w[b] + from, n - from);
        if( r==0 ) r = la < lb ? -1 : la > lb;
      }
    }else{
      r = ord_cmp_value(o, c, a, b);
    }
    if( r ) return o->desc[t] ? -r : r;
  }
  return 0;
}

#define ORD_KEY_WINDOW 32u      /* bytes of TEXT/BLOB searched for varying ones */

/* Stored row e's first term as a word that orders as the values do, when
** they have one class (o->pfx_cls): numbers map to ordered bits (exact:
** equal words, equal values), TEXT and BLOB take the words ord_prefixes
** made. */
static inline uint64_t ord_word(const agg_ordbuf *o, uint32_t e){
  uint64_t u = 0;
  switch( o->pfx_cls ){
    case CV_INT: u = (uint64_t)o->cols[0].w[e] ^ (1ull<<63); break;
    case CV_REAL: {
      double r;
      memcpy(&r, &o->cols[0].w[e], 8);
      if( r==0.0 ) r = 0.0;          /* -0.0 equals 0.0 */
      memcpy(&u, &r, 8);
      u = (u>>63) ? ~u : u | (1ull<<63);
      break;
    }
    default: u = o->pfx[e]; break;
  }
  return u;
}

/* o->pfx_cls: the class of every non-NULL first term when they have one,
** else CV_NULL. For TEXT and BLOB, o->pfx: each row's word, the first 8
** byte positions where the values differ, among the first ORD_KEY_WINDOW
** (bytes at the other positions there are the same in every value), then
** the positions after the window; a value too short for a position gives
** 0. Equal words then mean bytes [0, pfx_from) agree: 'YYYY-MM-DD
** HH:MM:SS' of one month is whole in its 8 varying bytes. -1 when out of
** memory. */
static int ord_prefixes(agg_ordbuf *o){
  const agg_ordcol *c = &o->cols[0];
  /* a buffer replayed a second time (agg_ordbuf_replay_groups) */
  agg_mem_free(o->pfx);
  o->pfx = 0;
  int cls = CV_NULL;
  uint32_t first = 0, minlen = UINT32_MAX;
  o->pfx_cls = CV_NULL;
  for(uint32_t e=0; e<o->n; e++){
    int t = ord_type(c, e);
    if( t==CV_NULL ) continue;
    if( cls==CV_NULL ){ cls = t; first = e; }
    else if( t!=cls ) return 0;
    if( ord_len(c, e) < minlen ) minlen = ord_len(c, e);
  }
  if( cls!=CV_TEXT && cls!=CV_BLOB ){
    o->pfx_cls = cls;
    return 0;
  }
  uint64_t *p = agg_mem_realloc(0, (size_t)o->n*8);
  if( p==0 ) return -1;
  uint32_t pos[8], npos = 0, from = 0;
  uint32_t win = minlen < ORD_KEY_WINDOW ? minlen : ORD_KEY_WINDOW;
  uint8_t vary[ORD_KEY_WINDOW];
  memset(vary, 0, sizeof(vary));
  const uint8_t *f = (const uint8_t*)o->heap + c->w[first];
  for(uint32_t e=0; e<o->n; e++){
    if( ord_type(c, e)==CV_NULL ) continue;
    const uint8_t *x = (const uint8_t*)o->heap + c->w[e];
    for(uint32_t k=0; k<win; k++) vary[k] |= x[k]!=f[k];
  }
  for(uint32_t k=0; k<win && npos<8; k++) if( vary[k] ) pos[npos++] = k;
  if( npos==8 ){
    from = pos[7] + 1;
  }else{
    uint32_t k = win;
    while( npos<8 ) pos[npos++] = k++;
    from = k < minlen ? k : minlen;
  }
  for(uint32_t e=0; e<o->n; e++){
    uint64_t u = 0;
    if( ord_type(c, e)!=CV_NULL ){
      const uint8_t *x = (const uint8_t*)o->heap + c->w[e];
      uint32_t n = ord_len(c, e);
      for(uint32_t k=0; k<8; k++) u = u<<8 | (pos[k] < n ? x[pos[k]] : 0);
    }
    p[e] = u;
  }
  o->pfx = p;
  o->pfx_cls = cls;
  o->pfx_from = from;
  return 0;
}

/* Sort idx[0..n) by the terms from t0 on (those before it equal in all
** of them), stably (merge sort; tmp holds n). */
static void ord_sort(const agg_ordbuf *o, uint32_t *idx, uint32_t *tmp, uint32_t n, int t0){
  if( n<=16 ){
    for(uint32_t i=1; i<n; i++){
      uint32_t x = idx[i], j = i;
      while( j>0 && ord_cmp(o, idx[j-1], x, t0)>0 ){ idx[j] = idx[j-1]; j--; }
      idx[j] = x;
    }
    return;
  }
  uint32_t h = n/2;
  ord_sort(o, idx, tmp, h, t0);
  ord_sort(o, idx+h, tmp, n-h, t0);
  if( ord_cmp(o, idx[h-1], idx[h], t0)<=0 ) return;   /* already in order */
  uint32_t i = 0, j = h, k = 0;
  while( i<h && j<n ) tmp[k++] = ord_cmp(o, idx[j], idx[i], t0)<0 ? idx[j++] : idx[i++];
  while( i<h ) tmp[k++] = idx[i++];
  while( j<n ) tmp[k++] = idx[j++];
  memcpy(idx, tmp, (size_t)n*4);
}

/* When every key lies a multiple of one odd d > 1 away from the least
** (timestamps of whole seconds in microseconds: d = 15625, the 2^6 of a
** second's 10^6 being bits the passes skip anyway), replace each key by
** its distance divided by d: the order and the ties are the same, and the
** bits to pass over fewer (T10's month of seconds: 36 varying bits, 4
** passes, against 22 bits, 2 passes). d is guessed from the first keys'
** distances from the first key and proved on all of them (a key is the
** first's plus or minus a multiple of odd d exactly when that distance x
** times d's inverse mod 2^64 is at most (2^64-1)/d, and that product is
** then x/d). *diff becomes the new keys' varying bits. */
static void ord_radix_narrow(ord_key *a, uint32_t n, uint64_t *diff){
  /* the odd part of the gcd of the first keys' distances from a[0]
  ** (binary: no divisions), given up as soon as it is 1, as it is at once
  ** for keys of every value */
  uint64_t d = 0, k0 = a[0].k;
  for(uint32_t i=1; i<n && i<32; i++){
    uint64_t x = a[i].k >= k0 ? a[i].k - k0 : k0 - a[i].k;
    if( x==0 ) continue;
    x >>= __builtin_ctzll(x);
    if( d==0 ){ d = x; continue; }
    while( x!=d ){
      if( x < d ){ uint64_t t = x; x = d; d = t; }
      x -= d;
      x >>= __builtin_ctzll(x);
    }
    if( d==1 ) return;
  }
  if( d<3 ) return;
  uint64_t inv = d;                  /* Newton: each step doubles the bits */
  for(int k=0; k<5; k++) inv *= 2 - d*inv;
  uint64_t lim = UINT64_MAX / d, least = k0;
  for(uint32_t i=0; i<n; i++){
    uint64_t x = a[i].k >= k0 ? a[i].k - k0 : k0 - a[i].k;
    if( x*inv > lim ) return;
    if( a[i].k < least ) least = a[i].k;
  }
  uint64_t all = ~0ull, any = 0;
  for(uint32_t i=0; i<n; i++){
    uint64_t q = (a[i].k - least)*inv;
    a[i].k = q;
    all &= q; any |= q;
  }
  *diff = all ^ any;
}

/* Sort keys a[0..n) by k, stably: LSD radix over the span of bits where
** the keys differ (b holds n). The result is in a. Digits of up to 11 bits
** for long runs (a timestamp's 42 varying bits in 4 passes, not 6 byte
** passes), 8 for short ones, whose counts would cost more than the rows
** (long runs first narrowed where they can be: ord_radix_narrow);
** every pass's counts come from one read of the keys, into cnt
** (ORD_RADIX_PASSES x ORD_RADIX_DIGITS). */
static void ord_radix(ord_key *a, ord_key *b, uint32_t n, uint32_t (*cnt)[ORD_RADIX_DIGITS]){
  uint64_t all = ~0ull, any = 0;
  for(uint32_t i=0; i<n; i++){ all &= a[i].k; any |= a[i].k; }
  uint64_t diff = all ^ any;
  if( diff==0 ) return;
  if( n >= 4096 ) ord_radix_narrow(a, n, &diff);
  int lo = __builtin_ctzll(diff), bits = 64 - __builtin_clzll(diff) - lo;
  int most = n >= 4096 ? 11 : 8;
  int npass = (bits + most - 1) / most;
  int width = (bits + npass - 1) / npass;
  uint32_t mask = (1u << width) - 1;
  memset(cnt, 0, sizeof(cnt[0])*(size_t)npass);
  for(uint32_t i=0; i<n; i++){
    uint64_t k = a[i].k >> lo;
    for(int p=0; p<npass; p++) cnt[p][(k >> (p*width)) & mask]++;
  }
  int flips = 0;
  for(int p=0; p<npass; p++){
    uint32_t *c = cnt[p], sum = 0;
    int sh = lo + p*width, one = 0;
    for(uint32_t d=0; d<=mask; d++){
      uint32_t t = c[d];
      one |= t==n;
      c[d] = sum; sum += t;
    }
    if( one ) continue;       /* every key has this digit: nothing moves */
    for(uint32_t i=0; i<n; i++) b[c[(a[i].k >> sh) & mask]++] = a[i];
    ord_key *t = a; a = b; b = t;
    flips++;
  }
  /* an odd number of passes left the result in the other array */
  if( flips & 1 ) memcpy(b, a, (size_t)n*sizeof(ord_key));
}

/* One group's run by the terms: its keys k[0..n) (in row order,
** ORD_KEY_NULL set for a NULL first term) into idx[0..n). NULL first terms go to their
** end, the others are radix sorted by word (DESC: its complement), runs of
** equal words by ord_cmp. kb holds n keys, tmp n indexes; cnt is
** ord_radix's. */
static void ord_sort_run(const agg_ordbuf *o, ord_key *k, ord_key *kb, uint32_t *idx,
                         uint32_t *tmp, uint32_t n, uint32_t (*cnt)[ORD_RADIX_DIGITS]){
  uint32_t nn = 0, nl = 0;
  for(uint32_t i=0; i<n; i++){
    if( k[i].e & ORD_KEY_NULL ) tmp[nl++] = k[i].e & ~ORD_KEY_NULL;
    else k[nn++] = k[i];
  }
  ord_radix(k, kb, nn, cnt);
  uint32_t *vals = o->nulls_first[0] ? idx + nl : idx;
  uint32_t *nulls = o->nulls_first[0] ? idx : idx + nn;
  for(uint32_t i=0; i<nn; i++) vals[i] = k[i].e;
  memcpy(nulls, tmp, (size_t)nl*4);
  /* the first term's NULLs are all equal in it; so are numbers of equal
  ** words (a TEXT word is only a prefix) */
  if( o->nterm>1 ) ord_sort(o, nulls, tmp, nl, 1);
  if( o->pfx==0 && o->nterm==1 ) return;
  int t0 = o->pfx ? 0 : 1;
  for(uint32_t i=0; i<nn; ){
    uint32_t j = i + 1;
    while( j<nn && k[j].k==k[i].k ) j++;
    if( j - i > 1 ) ord_sort(o, vals + i, tmp, j - i, t0);
    i = j;
  }
}

/* A replay's plan (agg_ordbuf_plan): the stored rows laid out by group,
** each group's run then sorted and fed on its own, so that threads can
** take different groups of one buffer. */
struct agg_ordplan {
  agg_ordbuf *o;
  uint32_t *idx;          /* rows, by group; each run in order once sorted */
  ord_key *keys;          /* with words: each row's key, by group; or NULL */
  uint32_t *end;          /* where each group's run ends in idx */
  uint32_t ng;            /* groups: every one below the last stored */
};

/* Lay the stored rows out by group (counting sort, rows of a group in row
** order) into p: only the rows of groups g with want[g] set, unless want
** is NULL. With words, each row's key (word, row, NULL) is laid out
** in group order in the same pass, so a run is sorted from its own keys
** without touching the rows again. 0, or -1 on OOM. */
static int ord_plan_layout(agg_ordbuf *o, const uint8_t *want, agg_ordplan *p){
  if( o->nterm>0 && ord_prefixes(o) ) return -1;
  /* the groups' counts and their number in one pass over gid (40 MB of
  ** it in T10: a pass for each was an eighth of the layout) */
  uint32_t ng = 0, acap = 1024;
  uint32_t *at = calloc((size_t)acap + 1, 4);
  if( at==0 ) return -1;
  for(uint32_t e=0; e<o->n; e++){
    uint32_t g = o->gid[e];
    if( want && !want[g] ) continue;
    if( g>=acap ){
      uint32_t c = acap;
      while( c<=g ) c *= 2;
      uint32_t *a = realloc(at, ((size_t)c + 1)*4);
      if( a==0 ){ free(at); return -1; }
      memset(a + acap + 1, 0, (size_t)(c - acap)*4);
      at = a; acap = c;
    }
    at[g+1]++;
    if( g>=ng ) ng = g + 1;
  }
  uint32_t longest = 0;
  for(uint32_t g=0; g<ng; g++){
    if( at[g+1] > longest ) longest = at[g+1];
    at[g+1] += at[g];
  }
  int radix = o->nterm>0 && o->pfx_cls!=CV_NULL && longest>64;
  p->end = at;
  p->ng = ng;
  /* bigmem blocks, for huge pages: 10M rows' were 80 MB of fresh 4 KiB
  ** pages, their faults a fifth of the replay */
  uint32_t nrow = ng ? at[ng] : 0;
  if( nrow && (p->idx = agg_mem_realloc(0, (size_t)nrow*4))==0 ) return -1;
  if( radix ){
    if( (p->keys = agg_mem_realloc(0, (size_t)nrow*sizeof(ord_key)))==0 ) return -1;
    uint64_t flip = o->desc[0] ? ~0ull : 0;
    const uint8_t *type = o->cols[0].type;
    for(uint32_t e=0; e<o->n; e++){
      if( want && !want[o->gid[e]] ) continue;
      ord_key *q = &p->keys[at[o->gid[e]]++];
      q->k = ord_word(o, e) ^ flip;
      q->e = e | (type && type[e]==CV_NULL ? ORD_KEY_NULL : 0);
    }
  }else{
    for(uint32_t e=0; e<o->n; e++){
      if( want && !want[o->gid[e]] ) continue;
      p->idx[at[o->gid[e]]++] = e;
    }
  }
  /* at[g] is now where group g+1 starts, that is where group g ends */
  return 0;
}

static uint32_t ord_plan_start(const agg_ordplan *p, uint32_t g){
  return g ? p->end[g-1] : 0;
}

/* Sort the runs of groups [g0, g1) by the terms, into idx. 0, 1 when
** check stopped it, -1 on OOM. */
static int ord_plan_sort(agg_ordplan *p, uint32_t g0, uint32_t g1,
                         agg_ordbuf_check check, void *ctx){
  const agg_ordbuf *o = p->o;
  uint32_t longest = 0;
  for(uint32_t g=g0; g<g1; g++){
    uint32_t len = p->end[g] - ord_plan_start(p, g);
    if( len > longest ) longest = len;
  }
  int radix = p->keys && longest>64;
  uint32_t *tmp = agg_mem_realloc(0, (size_t)longest*4 + 4);
  ord_key *kb = radix ? agg_mem_realloc(0, (size_t)longest*sizeof(ord_key)) : 0;
  uint32_t (*cnt)[ORD_RADIX_DIGITS] = radix ? malloc(sizeof(*cnt)*ORD_RADIX_PASSES) : 0;
  int rc = 0;
  if( tmp==0 || (radix && (kb==0 || cnt==0)) ){
    rc = -1;
    goto done;
  }
  for(uint32_t g=g0; g<g1; g++){
    uint32_t from = ord_plan_start(p, g), len = p->end[g] - from;
    if( check && check(ctx) ){ rc = 1; break; }
    if( p->keys ){
      if( len>64 ){
        ord_sort_run(o, p->keys + from, kb, p->idx + from, tmp, len, cnt);
      }else{
        for(uint32_t i=0; i<len; i++) p->idx[from+i] = p->keys[from+i].e & ~ORD_KEY_NULL;
        ord_sort(o, p->idx + from, tmp, len, 0);
      }
    }else{
      ord_sort(o, p->idx + from, tmp, len, 0);
    }
  }
done:
  agg_mem_free(kb);
  agg_mem_free(tmp);
  free(cnt);
  return rc;
}

/* ---- feeding the state -------------------------------------------------- */

int agg_ordbuf_plan(agg_ordbuf *o, const uint8_t *want, agg_ordplan **out, col_error *err){
  *out = 0;
  agg_ordplan *p = calloc(1, sizeof(*p));
  if( p==0 ) goto oom;
  p->o = o;
  if( o->n && ord_plan_layout(o, want, p) ) goto oom;
  *out = p;
  return COL_OK;
oom:
  agg_ordplan_free(p);
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory sorting an ORDER BY aggregate");
}

uint32_t agg_ordplan_groups(const agg_ordplan *p){ return p->ng; }

uint32_t agg_ordplan_rows(const agg_ordplan *p, uint32_t g0, uint32_t g1){
  return g1>g0 ? p->end[g1-1] - ord_plan_start(p, g0) : 0;
}

void agg_ordplan_free(agg_ordplan *p){
  if( p==0 ) return;
  agg_mem_free(p->idx); agg_mem_free(p->keys); free(p->end);
  free(p);
}

int agg_ordplan_run(agg_ordplan *p, uint32_t g0, uint32_t g1, agg_state *s,
                    agg_ordbuf_check check, void *ctx, col_error *err){
  const agg_ordbuf *o = p->o;
  if( g1<=g0 ) return COL_OK;
  int sorted = ord_plan_sort(p, g0, g1, check, ctx);
  if( sorted ){
    return sorted>0 ? col_error_set(err, COL_EINTERRUPT, "interrupted")
                    : col_error_set(err, COL_ENOMEM, "group_by: out of memory sorting an ORDER BY aggregate");
  }
  int rc = COL_OK;
  const uint32_t *idx = p->idx, *end = p->end;
  uint32_t n = end[g1-1];
  ord_chunk *ch = malloc(2*sizeof(ord_chunk));
  uint32_t *rows = malloc(ORD_REPLAY_CHUNK*4), *gid = malloc(ORD_REPLAY_CHUNK*4);
  if( !ch || !rows || !gid ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory sorting an ORDER BY aggregate");
    goto done;
  }
  const agg_ordcol *arg = &o->cols[o->nterm];
  const agg_ordcol *sep = o->narg>1 ? &o->cols[o->nterm+1] : 0;
  /* a constant separator: one value for every row */
  col_vector csep;
  cv_str cstr = { o->sep.p, o->sep.n };
  memset(&csep, 0, sizeof(csep));
  csep.form = CV_CONST; csep.type = o->sep.type;
  csep.i64 = &o->sep.i; csep.f64 = &o->sep.f; csep.str = &cstr;
  uint32_t g = g0;
  for(uint32_t at=ord_plan_start(p, g0); at<n && rc==COL_OK; at+=ORD_REPLAY_CHUNK){
    uint32_t m = n - at < ORD_REPLAY_CHUNK ? n - at : ORD_REPLAY_CHUNK;
    if( check && check(ctx) ){ rc = col_error_set(err, COL_EINTERRUPT, "interrupted"); break; }
    for(uint32_t k=0; k<m; k++){
      uint32_t e = idx[at+k];
      /* the rows are in sorted order, scattered over the columns: ask ahead
      ** for the word, and once it is in, for the bytes a TEXT or BLOB word
      ** places in the heap (the state copies them a chunk later: T8's
      ** phrases, a cache miss each) */
      if( at + k + 32 < n ) __builtin_prefetch(arg->w + idx[at+k+32]);
      if( arg->len && arg->type && at + k + 16 < n ){
        uint32_t e2 = idx[at+k+16];
        if( arg->type[e2]==CV_TEXT || arg->type[e2]==CV_BLOB ) __builtin_prefetch(o->heap + arg->w[e2]);
      }
      while( end[g]<=at+k ) g++;
      if( arg->type ) ord_chunk_set(o, &ch[0], k, arg, e);
      else ch[0].i64[k] = arg->w[e];
      if( sep ) ord_chunk_set(o, &ch[1], k, sep, e);
      rows[k] = k; gid[k] = g;
    }
    ord_chunk_init(&ch[0], m);
    ord_chunk_init(&ch[1], m);
    if( arg->type==0 ){ ch[0].v.type = CV_INT; ch[0].v.tags = 0; }   /* INTEGERs all */
    csep.n = m;
    rc = agg_state_update(s, &ch[0].v, sep ? &ch[1].v : o->has_sep ? &csep : 0, m, rows, gid,
                          m, err);
  }
done:
  free(ch); free(rows); free(gid);
  return rc;
}

int agg_ordbuf_replay_groups(agg_ordbuf *o, const uint8_t *want, agg_state *s,
                             agg_ordbuf_check check, void *ctx, col_error *err){
  agg_ordplan *p;
  int rc = agg_ordbuf_plan(o, want, &p, err);
  if( rc==COL_OK ) rc = agg_ordplan_run(p, 0, p->ng, s, check, ctx, err);
  agg_ordplan_free(p);
  return rc;
}

int agg_ordbuf_replay(agg_ordbuf *o, agg_state *s, agg_ordbuf_check check, void *ctx,
                      col_error *err){
  int rc = agg_ordbuf_replay_groups(o, 0, s, check, ctx, err);
  agg_ordbuf_free(o);
  return rc;
}
