/*
** ordered.c — an aggregate with ORDER BY inside its call; see ordered.h.
*/
#include "ordered.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "value.h"

#define ORD_MAX_ROWS (UINT32_MAX - 1u)
#define ORD_REPLAY_CHUNK 1024u  /* rows fed to the state at once */

int agg_ordbuf_init(agg_ordbuf *o, int nterm, const uint8_t *desc,
                    const uint8_t *nulls_first, int narg, int distinct){
  memset(o, 0, sizeof(*o));
  o->nterm = nterm;
  o->desc = desc;
  o->nulls_first = nulls_first;
  o->narg = narg;
  o->distinct = distinct;
  agg_hasher_init(&o->hs);
  return agg_table_init(&o->pairs, 2);
}

void agg_ordbuf_free(agg_ordbuf *o){
  free(o->gid); free(o->seq); free(o->vals); free(o->heap);
  o->gid = 0; o->seq = 0; o->vals = 0; o->heap = 0;
  o->n = o->cap = 0;
  o->heap_len = o->heap_cap = 0;
  agg_table_free(&o->pairs);
  agg_hasher_free(&o->hs);
  free(o->g64); free(o->h); free(o->slot); free(o->sel); free(o->gsel);
  o->g64 = 0; o->h = 0; o->slot = 0; o->sel = 0; o->gsel = 0;
  o->scap = 0;
}

uint64_t agg_ordbuf_footprint(const agg_ordbuf *o){
  uint64_t w = (uint64_t)(o->nterm + o->narg);
  return (uint64_t)o->cap * (4 + 8 + w*sizeof(agg_ordval)) + o->heap_cap
       + agg_table_footprint(&o->pairs) + agg_table_owned(&o->pairs)
       + (uint64_t)o->scap * (8 + 8 + 4 + 4 + 4);
}

static int ord_grow(agg_ordbuf *o, uint32_t need, col_error *err){
  if( need <= o->cap ) return COL_OK;
  if( need > ORD_MAX_ROWS ){
    return col_error_set(err, COL_ERROR, "group_by: more than %u rows for one ORDER BY aggregate", ORD_MAX_ROWS);
  }
  uint64_t cap = o->cap ? (uint64_t)o->cap*2 : 1024;
  while( cap < need ) cap *= 2;
  if( cap > ORD_MAX_ROWS ) cap = ORD_MAX_ROWS;
  size_t w = (size_t)(o->nterm + o->narg);
  uint32_t *g = realloc(o->gid, (size_t)cap*4);
  if( g ) o->gid = g;
  uint64_t *s = realloc(o->seq, (size_t)cap*8);
  if( s ) o->seq = s;
  agg_ordval *v = realloc(o->vals, (size_t)cap*w*sizeof(agg_ordval));
  if( v ) o->vals = v;
  if( !g || !s || !v ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory buffering an ORDER BY aggregate");
  o->cap = (uint32_t)cap;
  return COL_OK;
}

/* Row r of v into *out, its bytes appended to the heap. */
static int ord_store(agg_ordbuf *o, const col_vector *v, uint32_t r, agg_ordval *out,
                     col_error *err){
  pred_value x = agg_value_at(v, r);
  out->type = x.type; out->n = 0; out->w = 0;
  switch( x.type ){
    case CV_INT: out->w = x.i; break;
    case CV_REAL:
      if( isnan(x.f) ){ out->type = CV_NULL; break; }   /* SQLite's NULL */
      memcpy(&out->w, &x.f, 8);
      break;
    case CV_TEXT: case CV_BLOB:
      if( o->heap_len + x.n > o->heap_cap ){
        uint64_t cap = o->heap_cap ? o->heap_cap*2 : 65536;
        while( cap < o->heap_len + x.n ) cap *= 2;
        char *h = realloc(o->heap, (size_t)cap);
        if( h==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory buffering an ORDER BY aggregate");
        o->heap = h; o->heap_cap = cap;
      }
      if( x.n ) memcpy(o->heap + o->heap_len, x.p, x.n);
      out->w = (int64_t)o->heap_len; out->n = x.n;
      o->heap_len += x.n;
      break;
    default: break;
  }
  return COL_OK;
}

/* Row r's terms and arguments into stored row e, numbered seq. */
static int ord_put(agg_ordbuf *o, uint32_t e, const col_vector *const *term,
                   const col_vector *arg, const col_vector *sep, uint32_t r,
                   uint64_t seq, col_error *err){
  agg_ordval *v = o->vals + (size_t)e*(size_t)(o->nterm + o->narg);
  int rc = COL_OK;
  for(int t=0; t<o->nterm && rc==COL_OK; t++) rc = ord_store(o, term[t], r, &v[t], err);
  if( rc==COL_OK ) rc = ord_store(o, arg, r, &v[o->nterm], err);
  if( rc==COL_OK && o->narg>1 ) rc = ord_store(o, sep, r, &v[o->nterm+1], err);
  o->seq[e] = seq;
  return rc;
}

/* DISTINCT: the pair slot of each candidate sel[0..n) into o->slot. */
static int ord_pairs(agg_ordbuf *o, const col_vector *arg, uint32_t nrow,
                     uint32_t n, col_error *err){
  for(uint32_t k=0; k<n; k++) o->g64[o->sel[k]] = o->gsel[k];
  col_vector gv;
  memset(&gv, 0, sizeof(gv));
  gv.type = CV_INT; gv.form = CV_FLAT; gv.n = nrow; gv.i64 = o->g64;
  const col_vector *pair[2] = { &gv, arg };
  if( agg_hash_keys(&o->hs, pair, 2, o->sel, n, o->h) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
  }
  uint32_t nnew;
  return agg_table_lookup(&o->pairs, pair, o->sel, n, o->h, o->slot, &nnew, err);
}

int agg_ordbuf_add(agg_ordbuf *o, const col_vector *const *term,
                   const col_vector *arg, const col_vector *sep, uint32_t nrow,
                   const uint32_t *rows, const uint32_t *gid, uint32_t n,
                   uint64_t seq0, col_error *err){
  int rc;
  if( o->distinct==AGG_ORD_ALL ){
    for(uint32_t k=0; k<n; k++){
      uint32_t r = rows[k];
      if( cv_tag(arg, r)==CV_NULL ) continue;
      if( o->n==o->cap && ord_grow(o, o->n + 1, err) ) return err->code;
      if( (rc = ord_put(o, o->n, term, arg, sep, r, seq0 + r, err))!=0 ) return rc;
      o->gid[o->n] = gid[k];
      o->n++;
    }
    return COL_OK;
  }
  if( nrow > o->scap ){
    free(o->g64); free(o->h); free(o->slot); free(o->sel); free(o->gsel);
    o->g64 = malloc((size_t)nrow*8); o->h = malloc((size_t)nrow*8);
    o->slot = malloc((size_t)nrow*4); o->sel = malloc((size_t)nrow*4);
    o->gsel = malloc((size_t)nrow*4);
    o->scap = nrow;
    if( !o->g64 || !o->h || !o->slot || !o->sel || !o->gsel ){
      free(o->g64); free(o->h); free(o->slot); free(o->sel); free(o->gsel);
      o->g64 = 0; o->h = 0; o->slot = 0; o->sel = 0; o->gsel = 0;
      o->scap = 0;
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory (DISTINCT)");
    }
  }
  uint32_t m = 0;
  for(uint32_t k=0; k<n; k++){
    if( cv_tag(arg, rows[k])==CV_NULL ) continue;
    o->sel[m] = rows[k]; o->gsel[m] = gid[k]; m++;
  }
  if( m==0 ) return COL_OK;
  if( (rc = ord_pairs(o, arg, nrow, m, err))!=0 ) return rc;
  /* a new pair's slot is the next row: pairs are made in row order */
  for(uint32_t k=0; k<m; k++){
    uint32_t s = o->slot[k], r = o->sel[k];
    if( s==o->n ){
      if( o->n==o->cap && ord_grow(o, o->n + 1, err) ) return err->code;
      if( (rc = ord_put(o, s, term, arg, sep, r, seq0 + r, err))!=0 ) return rc;
      o->gid[s] = o->gsel[k];
      o->n++;
    }else if( o->distinct==AGG_ORD_LAST ){
      /* the one term is the argument: equal values, and TEXT/BLOB equal
      ** only byte for byte, so only a number (1 then 1.0) has news */
      const agg_ordval *v = o->vals + (size_t)s*(size_t)(o->nterm + o->narg);
      o->seq[s] = seq0 + r;
      if( v[o->nterm].type==CV_INT || v[o->nterm].type==CV_REAL ){
        if( (rc = ord_put(o, s, term, arg, sep, r, seq0 + r, err))!=0 ) return rc;
      }
    }
  }
  return COL_OK;
}

/* ---- sorting ------------------------------------------------------------ */

static pred_value ord_value(const agg_ordbuf *o, const agg_ordval *v){
  pred_value x;
  memset(&x, 0, sizeof(x));
  x.type = v->type;
  switch( v->type ){
    case CV_INT: x.i = v->w; break;
    case CV_REAL: memcpy(&x.f, &v->w, 8); break;
    case CV_TEXT: case CV_BLOB: x.p = o->heap + v->w; x.n = v->n; break;
    default: break;
  }
  return x;
}

static int ord_cmp_terms(const agg_ordbuf *o, uint32_t a, uint32_t b){
  size_t w = (size_t)(o->nterm + o->narg);
  const agg_ordval *va = o->vals + a*w, *vb = o->vals + b*w;
  for(int t=0; t<o->nterm; t++){
    int na = va[t].type==CV_NULL, nb = vb[t].type==CV_NULL;
    if( na || nb ){
      if( na && nb ) continue;
      return (na ? -1 : 1) * (o->nulls_first[t] ? 1 : -1);
    }
    pred_value x = ord_value(o, &va[t]), y = ord_value(o, &vb[t]);
    int c = agg_value_compare(&x, &y);
    if( c ) return o->desc[t] ? -c : c;
  }
  return 0;
}

/* group, terms, row number */
static int ord_cmp(const agg_ordbuf *o, uint32_t a, uint32_t b){
  if( o->gid[a]!=o->gid[b] ) return o->gid[a] < o->gid[b] ? -1 : 1;
  int c = ord_cmp_terms(o, a, b);
  if( c ) return c;
  return o->seq[a] < o->seq[b] ? -1 : o->seq[a] > o->seq[b];
}

/* Sort idx[0..n) (merge sort; tmp holds n). */
static void ord_sort(const agg_ordbuf *o, uint32_t *idx, uint32_t *tmp, uint32_t n){
  if( n<=16 ){
    for(uint32_t i=1; i<n; i++){
      uint32_t x = idx[i], j = i;
      while( j>0 && ord_cmp(o, idx[j-1], x)>0 ){ idx[j] = idx[j-1]; j--; }
      idx[j] = x;
    }
    return;
  }
  uint32_t h = n/2;
  ord_sort(o, idx, tmp, h);
  ord_sort(o, idx+h, tmp, n-h);
  if( ord_cmp(o, idx[h-1], idx[h])<=0 ) return;   /* already in order */
  uint32_t i = 0, j = h, k = 0;
  while( i<h && j<n ) tmp[k++] = ord_cmp(o, idx[j], idx[i])<0 ? idx[j++] : idx[i++];
  while( i<h ) tmp[k++] = idx[i++];
  while( j<n ) tmp[k++] = idx[j++];
  memcpy(idx, tmp, (size_t)n*4);
}

/* The rows to feed, in order, into idx (n of them). */
static void ord_order(const agg_ordbuf *o, uint32_t *idx, uint32_t *tmp){
  for(uint32_t i=0; i<o->n; i++) idx[i] = i;
  ord_sort(o, idx, tmp, o->n);
}

/* ---- feeding the state -------------------------------------------------- */

typedef struct ord_chunk {
  uint8_t tags[ORD_REPLAY_CHUNK];
  int64_t i64[ORD_REPLAY_CHUNK];
  double f64[ORD_REPLAY_CHUNK];
  cv_str str[ORD_REPLAY_CHUNK];
  col_vector v;
} ord_chunk;

static void ord_chunk_set(const agg_ordbuf *o, ord_chunk *c, uint32_t k, const agg_ordval *x){
  pred_value p = ord_value(o, x);
  c->tags[k] = p.type;
  c->i64[k] = p.i; c->f64[k] = p.f;
  c->str[k].p = p.p; c->str[k].n = p.n;
}

int agg_ordbuf_replay(agg_ordbuf *o, agg_state *s, col_error *err){
  int rc = COL_OK;
  uint32_t n = o->n;
  if( n==0 ){ agg_ordbuf_free(o); return COL_OK; }
  uint32_t *idx = malloc((size_t)n*4), *tmp = malloc((size_t)n*4);
  ord_chunk *ch = malloc(2*sizeof(ord_chunk));
  uint32_t *rows = malloc(ORD_REPLAY_CHUNK*4), *gid = malloc(ORD_REPLAY_CHUNK*4);
  if( !idx || !tmp || !ch || !rows || !gid ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory sorting an ORDER BY aggregate");
    goto done;
  }
  ord_order(o, idx, tmp);
  size_t w = (size_t)(o->nterm + o->narg);
  for(int a=0; a<2; a++){
    col_vector *v = &ch[a].v;
    memset(v, 0, sizeof(*v));
    v->form = CV_FLAT; v->type = CV_TEXT;
    v->tags = ch[a].tags; v->i64 = ch[a].i64; v->f64 = ch[a].f64; v->str = ch[a].str;
  }
  for(uint32_t at=0; at<n && rc==COL_OK; at+=ORD_REPLAY_CHUNK){
    uint32_t m = n - at < ORD_REPLAY_CHUNK ? n - at : ORD_REPLAY_CHUNK;
    for(uint32_t k=0; k<m; k++){
      uint32_t e = idx[at+k];
      const agg_ordval *x = o->vals + e*w + (size_t)o->nterm;
      ord_chunk_set(o, &ch[0], k, &x[0]);
      if( o->narg>1 ) ord_chunk_set(o, &ch[1], k, &x[1]);
      rows[k] = k; gid[k] = o->gid[e];
    }
    ch[0].v.n = ch[1].v.n = m;
    rc = agg_state_update(s, &ch[0].v, o->narg>1 ? &ch[1].v : 0, m, rows, gid, m, err);
  }
done:
  free(idx); free(tmp); free(ch); free(rows); free(gid);
  agg_ordbuf_free(o);
  return rc;
}
