/*
** scan_topk.c — ORDER BY ... LIMIT consumed by a scan table; see scan_topk.h.
*/
#include "scan_topk.h"
#include "../reader/arena.h"
#include "../reader/bound.h"
#include "../reader/parquet/value.h"
#include "../reader/predicate.h"
#include <stdlib.h>
#include <string.h>

#define TOPK_CHUNK_MIN 256

struct scan_topk {
  col_dataset *ds;
  scan_spec spec;           /* the statement's: projection and predicates */
  topk_term terms[SCAN_TOPK_MAX_TERMS];  /* bcol: source column */
  int nterm;
  uint32_t k;               /* rows the last first pass kept at most */
  uint32_t k_full;          /* rows asked for (scan_topk_open's k): a short
                            ** first fetch's first pass keeps fewer, the
                            ** next one these */
  uint32_t chunk;           /* rows fetched per second pass */
  int widen;                /* the first fetch was short (scan_topk_open's
                            ** first): the next takes all it can */
  int64_t *rows;            /* the rows in order (row numbers), nrows */
  uint32_t nrows;
  int more;                 /* rows past the nrows kept may exist */
  uint32_t rank;            /* the current row's place in rows */
  uint32_t from, nfetched;  /* rows[from .. from+nfetched) are in vals */
  pred_value *vals;         /* nfetched * spec.nproj values */
  col_arena arena;          /* their TEXT/BLOB bytes */
  int (*poll)(void*);
  void *poll_ctx;
  scan_stats stats;         /* every pass's, summed */
  int ts_text;              /* a timestamp term read as its integers held
                            ** one outside years 0000-9999: read as text */
};

/* The most rows fetched at once: about two million values of the
** projection (SELECT * of 105 columns, LIMIT 65536, goes in chunks). */
static uint32_t topk_chunk_max(const scan_topk *t){
  uint32_t np = t->spec.nproj > 0 ? (uint32_t)t->spec.nproj : 1;
  return SCAN_TOPK_CHUNK_VALUES/np;
}

/* Rows fetched at once for a first pass that kept k: all of them, within
** topk_chunk_max and at least TOPK_CHUNK_MIN. */
static uint32_t topk_chunk_for(const scan_topk *t, uint32_t k){
  uint32_t c = k < topk_chunk_max(t) ? k : topk_chunk_max(t);
  return c < TOPK_CHUNK_MIN ? TOPK_CHUNK_MIN : c;
}

/* Every pass reads the same files: they are counted once. */
static void topk_count(scan_topk *t, const scan_stats *s){
  scan_stats_add(&t->stats, s);
  t->stats.files = s->files;
}

/* Read src to its end, offering every batch to fn. */
static int topk_drain(scan_topk *t, batch_source *src,
                      int (*fn)(scan_topk*, void*, const col_batch*, col_error*),
                      void *ctx, col_error *err){
  for(;;){
    col_batch *b = 0;
    /* a step of a tiny statement per batch of thousands of rows */
    if( t->poll && t->poll(t->poll_ctx) ){
      return col_error_set(err, COL_EINTERRUPT, "interrupted");
    }
    if( src->m->next(src, &b) ){ *err = src->err; return err->code; }
    if( b==0 ) return COL_OK;
    int rc = fn(t, ctx, b, err);
    if( rc ) return rc;
  }
}

/* The first pass's state: the heap, and which of its batch columns are
** timestamps asked for as their stored integers (scan_spec.raw). */
typedef struct topk_pass {
  topk *tk;
  int ncol;
  uint8_t unit[SCAN_TOPK_MAX_TERMS];   /* per batch column: col_def.ts_unit
                                       ** when asked raw, else 0 (column 0:
                                       ** the first term's, the bound's) */
  int out_of_range;                    /* set: rerun with text */
  col_bound *bound;                    /* the first term's, or NULL */
  int bounded;                         /* a bound was published */
} topk_pass;

/* A timestamp's integers order as its text does within years 0000-9999
** (col_ts_plain): a batch with one outside them ends the pass, which runs
** again reading the text. */
static int topk_ts_plain(const topk_pass *tp, const col_batch *b){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(int c=0; c<tp->ncol; c++){
    const col_vector *v = &b->cols[c];
    if( !tp->unit[c] ) continue;
    int64_t lo, hi;
    col_ts_plain_range(tp->unit[c], &lo, &hi);
    /* any form: a dictionary's entries, or one constant, are integers too */
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      if( cv_tag(v, r)!=CV_INT ) continue;
      int64_t x = cv_int(v, r);
      if( x<lo || x>=hi ) return 0;
    }
  }
  return 1;
}

static int topk_offer(scan_topk *t, void *ctx, const col_batch *b, col_error *err){
  (void)t;
  topk_pass *tp = ctx;
  if( !topk_ts_plain(tp, b) ){
    tp->out_of_range = 1;
    return col_error_set(err, COL_EINTERRUPT, "timestamp outside years 0000-9999");
  }
  if( topk_add(tp->tk, b) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  pred_value v;
  if( tp->bound && topk_last_first(tp->tk, &v) && v.type!=CV_NULL ){
    /* a timestamp read as its integer: its text, as statistics give it */
    char buf[PQ_TEXT_MAX];
    if( tp->unit[0] && v.type==CV_INT ){
      v.type = CV_TEXT;
      v.n = (uint32_t)pq_format_timestamp(v.i, tp->unit[0], buf);
      v.p = buf;
    }
    /* out of memory: the bound stays as it was, looser */
    if( col_bound_set(tp->bound, &v)==COL_OK ) tp->bounded = 1;
  }
  return COL_OK;
}

/* Does a predicate of the statement on column c reject every NULL? (A
** NULL it does not reject is one SQLite would, should the predicate be
** left to it: either way no NULL of c is in the answer.) */
static int topk_nulls_out(const scan_topk *t, int c){
  for(int i=0; i<t->spec.npred; i++){
    const scan_pred *p = &t->spec.preds[i];
    if( p->col!=c ) continue;
    switch( p->op ){
      case PRED_IS: if( p->v.type==CV_NULL ) break; return 1;
      case PRED_ISNOT: case PRED_ISNULL: break;
      default: return 1;
    }
  }
  return 0;
}

/* A bound on the first ORDER BY term's column for the first pass to
** publish (reader/bound.h), or NULL: none where a row the statistics
** leave out could still sort first. NULLs sort first ascending: row
** groups that may hold one stay, unless the statement drops them. A
** REAL's NaN is NULL to SQLite, but statistics count no NaN as a null. */
static col_bound *topk_bound_new(const scan_topk *t){
  int c = t->terms[0].bcol, desc = t->terms[0].desc;
  const col_schema *sc = &t->ds->schema;
  if( c<0 || c>=sc->n ) return 0;
  const col_def *d = &sc->cols[c];
  if( d->may_text || d->type==CV_NULL || (d->type==CV_REAL && !desc) ) return 0;
  return col_bound_new(c, desc, !desc && !topk_nulls_out(t, c));
}

/* First pass: the k rows that sort first, into t->rows. */
static int topk_select(scan_topk *t, uint32_t k, col_error *err){
  int cols[SCAN_TOPK_MAX_TERMS];
  topk_term bterms[SCAN_TOPK_MAX_TERMS];
  int ncol = 0;
  for(int i=0; i<t->nterm; i++){
    int j = 0;
    while( j<ncol && cols[j]!=t->terms[i].bcol ) j++;
    if( j==ncol ) cols[ncol++] = t->terms[i].bcol;
    bterms[i].bcol = j;
    bterms[i].desc = t->terms[i].desc;
  }
  scan_spec s = t->spec;
  s.proj = cols; s.nproj = ncol;
  s.rows = 0; s.nrows = 0; s.max_rows = 0;
  /* Timestamps compare as their stored integers, not as text formatted
  ** for every matching row. 10M rows at threads=1, in-process:
  ** ... WHERE CounterID = 62 ORDER BY EventTime DESC LIMIT 3, 0.21-0.29
  ** -> 0.11-0.12 s; SearchPhrase > '' (1.6M rows) ORDER BY EventTime
  ** LIMIT 10, 0.26-0.40 -> 0.20-0.28 s. */
  topk_pass tp;
  memset(&tp, 0, sizeof(tp));
  tp.ncol = ncol;
  uint8_t raw[SCAN_TOPK_MAX_TERMS];
  int any_raw = 0;
  for(int j=0; j<ncol; j++){
    tp.unit[j] = t->ts_text ? 0 : t->ds->schema.cols[cols[j]].ts_unit;
    raw[j] = tp.unit[j]!=0;
    any_raw |= raw[j];
  }
  s.raw = any_raw ? raw : 0;
  if( topk_new(bterms, t->nterm, k, &tp.tk) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  /* Rows the bound keeps out are rows this pass never offers: with it
  ** set, rows past the kept ones may exist whatever was offered.
  ** ClickBench Q25 (SearchPhrase <> '' ORDER BY EventTime LIMIT 10) over
  ** 10M rows at threads=1, in SQLite 3.53.4's shell: 0.15-0.21 -> 0.10-0.14
  ** s, 34 of 82 row groups skipped. */
  tp.bound = topk_bound_new(t);
  s.bound = tp.bound;
  batch_source *src = 0;
  int rc = t->ds->m->scan(t->ds, &s, &src, err);
  if( rc==COL_OK ){
    rc = topk_drain(t, src, topk_offer, &tp, err);
    topk_count(t, &src->stats);
    src->m->close(src);
  }
  topk *tk = tp.tk;
  col_bound_free(tp.bound);
  if( rc && tp.out_of_range ){
    topk_free(tk);
    col_error_clear(err);
    t->ts_text = 1;
    return topk_select(t, k, err);
  }
  if( rc==COL_OK ){
    uint32_t n;
    const int64_t *rows = topk_rows(tk, &n);
    int64_t *copy = rows ? malloc(sizeof(int64_t)*(n ? n : 1)) : 0;
    if( copy==0 ){
      rc = col_error_set(err, COL_ENOMEM, "out of memory");
    }else{
      memcpy(copy, rows, sizeof(int64_t)*n);
      free(t->rows);
      t->rows = copy; t->nrows = n;
      t->more = topk_offered(tk) > n || tp.bounded;
      t->k = k;
    }
  }
  topk_free(tk);
  return rc;
}

typedef struct topk_want { int64_t row; uint32_t rank; } topk_want;
typedef struct topk_fetch { const topk_want *want; uint32_t n, at, got; } topk_fetch;

static int cmp_want(const void *a, const void *b){
  int64_t x = ((const topk_want*)a)->row, y = ((const topk_want*)b)->row;
  return x<y ? -1 : x>y;
}

/* Copy the live rows of b that fetch wants into their ranks' values. */
static int topk_keep(scan_topk *t, void *ctx, const col_batch *b, col_error *err){
  topk_fetch *f = ctx;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  int np = t->spec.nproj;
  for(uint32_t i=0; i<nsel; i++){
    uint32_t r = b->sel ? b->sel[i] : i;
    int64_t row = b->first_row + r;
    while( f->at < f->n && f->want[f->at].row < row ) f->at++;
    if( f->at>=f->n || f->want[f->at].row!=row ) continue;
    pred_value *dst = &t->vals[(size_t)(f->want[f->at].rank - t->from)*(size_t)np];
    for(int c=0; c<np; c++){
      pred_value x = pred_value_of(&b->cols[c], r);
      if( x.type==CV_TEXT || x.type==CV_BLOB ){
        /* the batch's bytes go with the batch */
        x.p = x.n ? col_arena_dup(&t->arena, x.p, x.n) : "";
        if( x.p==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
      }
      dst[c] = x;
    }
    f->got++;
    f->at++;
  }
  return COL_OK;
}

/* Second pass: the values of rows[from .. from+chunk). */
static int topk_fetch_rows(scan_topk *t, uint32_t from, col_error *err){
  uint32_t n = t->nrows - from < t->chunk ? t->nrows - from : t->chunk;
  size_t np = (size_t)(t->spec.nproj > 0 ? t->spec.nproj : 1);
  topk_want *want = malloc(sizeof(topk_want)*(n ? n : 1));
  int64_t *rows = malloc(sizeof(int64_t)*(n ? n : 1));
  pred_value *vals = realloc(t->vals, sizeof(pred_value)*np*(n ? n : 1));
  if( vals ) t->vals = vals;
  if( !want || !rows || !vals ){
    free(want); free(rows);
    return col_error_set(err, COL_ENOMEM, "out of memory");
  }
  for(uint32_t i=0; i<n; i++){ want[i].row = t->rows[from+i]; want[i].rank = from+i; }
  qsort(want, n, sizeof(topk_want), cmp_want);
  for(uint32_t i=0; i<n; i++) rows[i] = want[i].row;
  col_arena_reset(&t->arena);
  t->from = from; t->nfetched = 0;
  int rc = COL_OK;
  if( t->spec.nproj>0 ){
    /* the rows matched the predicates in the first pass */
    scan_spec s = t->spec;
    s.npred = 0; s.preds = 0;
    s.rows = rows; s.nrows = n; s.max_rows = 0;
    batch_source *src = 0;
    topk_fetch f = { want, n, 0, 0 };
    rc = t->ds->m->scan(t->ds, &s, &src, err);
    if( rc==COL_OK ){
      rc = topk_drain(t, src, topk_keep, &f, err);
      topk_count(t, &src->stats);
      src->m->close(src);
    }
    if( rc==COL_OK && f.got!=n ){
      rc = col_error_set(err, COL_ERROR, "%u of %u rows picked by ORDER BY ... LIMIT could not be read again (did the file change?)",
                         n - f.got, n);
    }
  }
  free(want); free(rows);
  if( rc==COL_OK ) t->nfetched = n;
  return rc;
}

int scan_topk_open(col_dataset *ds, const scan_spec *spec, const topk_term *terms,
                   int nterm, uint32_t k, uint32_t first, int (*poll)(void*),
                   void *poll_ctx, scan_topk **out, col_error *err){
  *out = 0;
  if( nterm<1 || nterm>SCAN_TOPK_MAX_TERMS || k<1 ) return col_error_set(err, COL_ERROR, "bad ORDER BY plan");
  scan_topk *t = calloc(1, sizeof(*t));
  if( t==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  t->ds = ds;
  t->spec = *spec;
  memcpy(t->terms, terms, sizeof(topk_term)*(size_t)nterm);
  t->nterm = nterm;
  /* rows fetched at once: all k, unless past topk_chunk_max; then in
  ** chunks, each its own second pass */
  t->chunk = topk_chunk_for(t, k);
  if( first>0 && first<t->chunk ){ t->chunk = first; t->widen = 1; }
  t->poll = poll; t->poll_ctx = poll_ctx;
  col_arena_init(&t->arena);
  /* A short first fetch (SQLite's LIMIT unknown: ext/plan.c's blind
  ** top-k): the first pass keeps four fetches' worth, and its bound
  ** (reader/bound.h) then skips what those cannot use; should SQLite read
  ** past them, the next pass keeps all k at once. ClickBench Q24 under
  ** SQLite 3.40 (URL LIKE '%google%' ORDER BY EventTime LIMIT 10, which
  ** 3.40 sorts blind) at threads=1: 1.04-1.10 -> 0.54-0.65 s; read to
  ** its end (LIMIT 100, or none) it costs that pass more, 3.3 -> 4.1 s. */
  t->k_full = k;
  uint32_t k0 = first>0 && first<k/4 ? first*4 : k;
  int rc = topk_select(t, k0, err);
  if( rc==COL_OK && t->nrows>0 ) rc = topk_fetch_rows(t, 0, err);
  if( rc ){ scan_topk_free(t); return rc; }
  *out = t;
  return COL_OK;
}

void scan_topk_free(scan_topk *t){
  if( t==0 ) return;
  free(t->rows);
  free(t->vals);
  col_arena_free(&t->arena);
  free(t);
}

int scan_topk_next(scan_topk *t, col_error *err){
  t->rank++;
  if( t->rank>=t->nrows && t->more ){
    /* SQLite read past the rows kept (it filters some itself, or its
    ** LIMIT was unknown) */
    uint64_t k = t->k < t->k_full ? t->k_full : (uint64_t)t->k * 4;
    if( k > UINT32_MAX/2 ) k = UINT32_MAX/2;
    if( k <= t->rank ) k = (uint64_t)t->rank + 1;
    int rc = topk_select(t, (uint32_t)k, err);
    if( rc ) return rc;
    if( t->chunk < t->k/4 && t->k/4 <= topk_chunk_max(t) ) t->chunk = t->k/4;
  }
  if( t->rank < t->nrows && t->rank >= t->from + t->nfetched ){
    if( t->widen ){
      t->widen = 0;
      t->chunk = topk_chunk_for(t, UINT32_MAX);
    }
    return topk_fetch_rows(t, t->rank, err);
  }
  return COL_OK;
}

int scan_topk_eof(const scan_topk *t){ return t->rank >= t->nrows; }

const pred_value *scan_topk_value(const scan_topk *t, int k){
  return &t->vals[(size_t)(t->rank - t->from)*(size_t)t->spec.nproj + (size_t)k];
}

int64_t scan_topk_rowid(const scan_topk *t){ return t->rows[t->rank]; }

const scan_stats *scan_topk_stats(const scan_topk *t){ return &t->stats; }
