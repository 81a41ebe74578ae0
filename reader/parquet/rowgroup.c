/*
** rowgroup.c — decode what a scan needs of one row group (see rowgroup.h).
*/
#if defined(__linux__) && !defined(_POSIX_C_SOURCE)
# define _POSIX_C_SOURCE 200809L   /* posix_fadvise */
#endif
#include "rowgroup.h"
#include "../bound.h"
#include "ts_pred.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pq_rg_free(pq_rg_data *d){
  if( d==0 || d->fields==0 ) return;
  /* nfield is not stored: fields were allocated for the plan's nfield and
  ** unused entries are zeroed, so walk until the sentinel. */
  for(pq_rg_field *f = d->fields; f->nchunks>=0; f++){
    pq_colvec_free(&f->col);
    for(int i=0; i<f->nchunks; i++) pq_chunk_free(&f->chunks[i]);
    free(f->chunks);
  }
  free(d->fields);
  col_pool_put(d->sel_pool, d->sel);
  d->fields = 0; d->sel = 0;
}

void pq_rg_willneed(pq_file *f, int rg, const pq_rg_plan *plan){
#ifdef POSIX_FADV_WILLNEED
  if( rg<0 || rg>=f->meta.n_row_groups ) return;
  const pq_row_group *R = &f->meta.row_groups[rg];
  const pq_schema *s = plan->schema;
  for(int fi=0; fi<plan->nfield; fi++){
    /* a lazy column may never be read */
    if( !plan->need[fi] || (plan->need[fi] & 11)==9 ) continue;
    const pq_node *N = &s->nodes[s->fields[fi].node];
    for(int i=0; i<N->leaf_count; i++){
      int leaf = N->leaf_first + i;
      if( leaf<0 || leaf>=R->n_columns || !R->columns[leaf].has_meta_data ) continue;
      /* the hint looks every page up in the page cache: a tenth of
      ** avg(UserID) when the chunk was read through the mapping before */
      if( pq_file_faulted(f, &R->columns[leaf].faulted) ) continue;
      const pq_column_meta *md = &R->columns[leaf].meta_data;
      int64_t start = pq_chunk_start(md);
      int64_t len = md->total_compressed_size;
      if( start<0 || len<=0 || start>f->size || len>f->size-start ) continue;
      (void)posix_fadvise(f->fd, (off_t)start, (off_t)len, POSIX_FADV_WILLNEED);
    }
  }
#else
  (void)f; (void)rg; (void)plan;
#endif
}

/* A dictionary vector's name: file, row group, field and form (raw) name
** the chunk's dictionary; the top bit keeps it nonzero. 0: unnamed. */
static uint64_t rg_dict_id(int fileno, int rg, int raw, int field){
  if( fileno<0 || fileno >= (1<<20) || rg >= (1<<27) || field >= (1<<15) ) return 0;
  return (1ull<<63) | ((uint64_t)fileno<<43) | ((uint64_t)rg<<16)
       | ((uint64_t)(raw!=0)<<15) | (uint64_t)field;
}

/* raw: a flat TIMESTAMP (or DATE) as its stored integers (pq_rg_plan.need
** & 4, or a comparison made on them: ts_pred.h) */
static int decode_field(pq_file *f, int fileno, int rg, const pq_schema *s, int field,
                        int raw, pq_codec_ctx *codec, const uint8_t *rowmask,
                        pq_rg_field *out, scan_stats *stats, col_error *err){
  const pq_field *F = &s->fields[field];
  const pq_node *N = &s->nodes[F->node];
  pq_row_group *R = &f->meta.row_groups[rg];   /* its chunks' fault records change */
  char where[512];
  int nleaf = N->leaf_count;
  if( nleaf==0 ){
    /* A group without leaves: every row is an empty object. */
    return col_error_set(err, COL_ERROR, "%s: column %.*s has no leaf columns",
                         f->path, (int)N->el->name.n, (const char*)N->el->name.p);
  }
  out->chunks = calloc((size_t)nleaf, sizeof(pq_chunk));
  if( !out->chunks ) return col_error_set(err, COL_ENOMEM, "out of memory");
  for(int i=0; i<nleaf; i++){
    int leaf = N->leaf_first + i;
    const pq_node *LN = &s->nodes[s->leaves[leaf].node];
    snprintf(where, sizeof(where), "%s: row group %d, column %.*s", f->path, rg,
             (int)LN->el->name.n, (const char*)LN->el->name.p);
    if( leaf >= R->n_columns ){
      return col_error_set(err, COL_ERROR, "%s: row group has only %d column chunks", where, R->n_columns);
    }
    if( pq_chunk_read(f, &R->columns[leaf], &s->leaves[leaf], R->num_rows, codec,
                      where, F->nested ? 0 : rowmask, &out->chunks[i], err) ){
      return err->code;
    }
    out->nchunks = i+1;
    stats->bytes_read += out->chunks[i].bytes_read;
    stats->pages += out->chunks[i].pages + out->chunks[i].pages_skipped;
    stats->pages_pruned += out->chunks[i].pages_skipped;
  }
  int rc;
  if( F->nested ){
    rc = pq_assemble_json(s, field, out->chunks, R->num_rows, &out->col, err);
  }else{
    pq_conv conv = s->leaves[N->leaf_first].conv;
    if( raw ){ conv.kind = conv.kind==PQC_DATE ? PQC_INT32 : PQC_INT64; conv.out = CV_INT; }
    rc = pq_convert_flat(&out->chunks[0], &conv, R->num_rows, rowmask, &out->col, err);
  }
  if( rc ){
    snprintf(where, sizeof(where), "%s: row group %d, column %.*s: ", f->path, rg,
             (int)N->el->name.n, (const char*)N->el->name.p);
    if( strstr(err->msg, f->path)==0 ) col_error_prefix(err, "%s", where);
    return rc;
  }
  if( out->col.v.form==CV_DICT ) out->col.v.dict_id = rg_dict_id(fileno, rg, raw, field);
  out->decoded = 1;
  out->raw = raw;
  return COL_OK;
}

/* Field `field`, decoded as its integers for a comparison (ts_pred.h),
** becomes its text for the rows mask names (NULL: all), from the chunk
** already decoded; or (raw) back from text to its integers. */
static int field_reconvert(const pq_file *f, int fileno, int rg, const pq_schema *s, int field,
                           int raw, const uint8_t *mask, pq_rg_field *fd, col_error *err){
  const pq_node *N = &s->nodes[s->fields[field].node];
  pq_colvec_free(&fd->col);
  fd->decoded = 0;
  pq_conv conv = *pq_field_conv(s, field);
  if( raw ){ conv.kind = conv.kind==PQC_DATE ? PQC_INT32 : PQC_INT64; conv.out = CV_INT; }
  int rc = pq_convert_flat(&fd->chunks[0], &conv, f->meta.row_groups[rg].num_rows, mask, &fd->col, err);
  if( rc ){
    col_error_prefix(err, "%s: row group %d, column %.*s: ", f->path, rg,
                     (int)N->el->name.n, (const char*)N->el->name.p);
    return rc;
  }
  if( fd->col.v.form==CV_DICT ) fd->col.v.dict_id = rg_dict_id(fileno, rg, raw, field);
  fd->decoded = 1;
  fd->raw = raw;
  return COL_OK;
}

/* Is field fi compared on its integers (ts_pred.h)? */
static int rg_ts_field(const pq_rg_plan *plan, int fi){
  return !plan->schema->fields[fi].nested && pq_ts_preds_ok(plan->spec, fi, pq_field_conv(plan->schema, fi));
}

/* The scan's bound now, read once as the row group starts (it is
** tightest then): 0 when none is published. Row groups whose statistics
** put every value outside it are skipped; in the others it filters rows
** as an exact predicate (*filter set) where NULLs fail it (they sort last,
** the statement drops them, or the row group has none) and its column is
** a flat field. Its bytes are copied into buf (cap of them): a longer
** value filters no row. */
static int rg_bound_pred(pq_file *f, int rg, const pq_rg_plan *plan, scan_pred *p,
                         char *buf, size_t cap, int *skip, int *filter){
  *skip = *filter = 0;
  if( plan->spec->bound==0 ) return 0;
  char *owned;
  int nulls_first;
  if( !col_bound_pred(plan->spec->bound, p, &owned, &nulls_first) ) return 0;
  const pq_row_group *R = &f->meta.row_groups[rg];
  *skip = !pq_rg_bound_may_match(f, rg, plan, p, nulls_first);
  int leaf = pq_pred_leaf(plan->schema, R, p);
  *filter = leaf>=0 && (!nulls_first || !pq_chunk_may_hold_null(R, plan->schema, leaf))
         && (owned==0 || p->v.n<=cap);
  if( *filter && owned ){
    memcpy(buf, owned, p->v.n);
    p->v.p = buf;
  }
  free(owned);
  p->exact = 1;
  return 1;
}

/* scan_spec.rows: keep in *allowed (all rows when NULL; made here then)
** only the named rows of the n rows from row0. -1 on OOM. */
static int rg_rows_wanted(const scan_spec *spec, int64_t row0, int64_t n, uint8_t **allowed){
  int64_t lo = 0, hi = spec->nrows;
  while( lo<hi ){
    int64_t mid = lo + (hi-lo)/2;
    if( spec->rows[mid] < row0 ) lo = mid + 1; else hi = mid;
  }
  uint8_t *want = calloc((size_t)(n>0 ? n : 1), 1);
  if( want==0 ) return -1;
  for(int64_t i=lo; i<spec->nrows && spec->rows[i] < row0 + n; i++){
    int64_t r = spec->rows[i] - row0;
    want[r] = *allowed ? (*allowed)[r] : 1;
  }
  free(*allowed);
  *allowed = want;
  return 0;
}

/* Rows sel[0..nsel) of n as a byte mask in codec's scratch (the one
** mask a decoder holds at a time); NULL on OOM. */
static uint8_t *rg_rows_mask(pq_codec_ctx *codec, const uint32_t *sel, int64_t nsel, int64_t n){
  uint8_t *m = pq_codec_scratch(codec, 1, (size_t)n);
  if( !m ) return 0;
  memset(m, 0, (size_t)n);
  for(int64_t i=0; i<nsel; i++) m[sel[i]] = 1;
  return m;
}

/* The rows of d its selection keeps, as a mask (*mask NULL when it keeps
** every row). -1 on OOM. */
static int rg_sel_mask(pq_codec_ctx *codec, const pq_rg_data *d, uint8_t **mask){
  *mask = 0;
  if( d->nsel<0 || d->nsel >= d->rows ) return 0;
  return (*mask = rg_rows_mask(codec, d->sel, d->nsel, d->rows))==0 ? -1 : 0;
}

/* Projected field fi of d, not ready (pq_rg_field_ready), decoded where
** mask (NULL: everywhere) keeps a row, or reconverted. */
static int rg_emit(pq_file *f, const pq_rg_plan *plan, int fi, pq_codec_ctx *codec,
                   const uint8_t *mask, pq_rg_data *d, col_error *err){
  int raw = (plan->need[fi] & 4)!=0;
  if( !d->fields[fi].decoded ){
    return decode_field(f, d->file, d->rg, plan->schema, fi, raw, codec, mask, &d->fields[fi], &d->stats, err);
  }
  /* compared on its integers, emitted as its text: formatted for the rows
  ** that passed alone; or a dictionary filtered on its entries' text,
  ** emitted as the integers the scan asked for, as every other row group
  ** gives them (a top-k pass orders INTEGER before TEXT) */
  return field_reconvert(f, d->file, d->rg, plan->schema, fi, raw, mask, &d->fields[fi], err);
}

void pq_rg_decode(pq_file *f, int fileno, int rg, const pq_rg_plan *plan,
                  pq_codec_ctx *codec, pq_rg_data *out){
  const pq_row_group *R = &f->meta.row_groups[rg];
  const scan_spec *spec = plan->spec;
  memset(out, 0, sizeof(*out));
  out->file = fileno;
  out->rg = rg;
  out->rows = R->num_rows;
  out->nsel = -1;
  out->stats.row_groups = 1;
  col_error *err = &out->err;
  if( R->num_rows<0 || R->num_rows > INT32_MAX ){
    col_error_set(err, COL_ERROR, "%s: row group %d claims %lld rows", f->path, rg, (long long)R->num_rows);
    return;
  }
  /* Decoding allocates per row; a row count its bytes cannot plausibly
  ** hold (more than 4096 rows per stored byte) is a lie, not a file. */
  int64_t stored = 0;
  for(int c=0; c<R->n_columns; c++){
    if( R->columns[c].has_meta_data && R->columns[c].meta_data.total_compressed_size>0 ){
      stored += R->columns[c].meta_data.total_compressed_size;
    }
  }
  if( R->num_rows > (1<<20) && R->num_rows/4096 > stored ){
    col_error_set(err, COL_ERROR, "%s: row group %d claims %lld rows in %lld stored bytes",
                  f->path, rg, (long long)R->num_rows, (long long)stored);
    return;
  }
  out->fields = calloc((size_t)plan->nfield+1, sizeof(pq_rg_field));
  if( !out->fields ){ col_error_set(err, COL_ENOMEM, "out of memory"); return; }
  out->fields[plan->nfield].nchunks = -1;  /* sentinel for pq_rg_free */
  if( R->num_rows==0 ){ out->skipped = 1; return; }
  if( !pq_rg_may_match(f, rg, plan, codec, &out->stats) ){
    out->skipped = 1;
    return;
  }
  /* The bound: a row past it cannot enter the top-k. As a row filter it
  ** comes after the comparisons, whose columns it would otherwise have
  ** decoded whole however few rows they keep (CounterID = 62 ORDER BY
  ** EventTime), and before LIKE and GLOB, whose columns are then decoded
  ** only in pages that still hold a row. */
  scan_pred bound;
  char bbuf[256];
  int skip, have_bound;
  if( rg_bound_pred(f, rg, plan, &bound, bbuf, sizeof(bbuf), &skip, &have_bound) && skip ){
    out->stats.row_groups_pruned_stats++;
    out->skipped = 1;
    return;
  }
  /* Filter columns first: if nothing survives, nothing else is read. */
  int any_exact = 0;
  for(int p=0; p<spec->npred; p++) any_exact |= spec->preds[p].exact;
  if( have_bound ){
    /* only where it spares a column something: a LIKE's, or one emitted
    ** alone; filtering the rows a top-k compares anyway cost ORDER BY
    ** EventTime LIMIT 10 at threads=1 a quarter (29 -> 36 ms) */
    int spares = 0;
    for(int p=0; p<spec->npred && !spares; p++){
      spares = spec->preds[p].exact && (spec->preds[p].op==PRED_LIKE || spec->preds[p].op==PRED_GLOB);
    }
    for(int fi=0; fi<plan->nfield && !spares; fi++){
      spares = fi!=bound.col && (plan->need[fi] & 3)==1;
    }
    have_bound = spares;
  }
  any_exact |= have_bound;
  /* The page index may exclude whole pages before anything is decoded. */
  uint8_t *allowed = 0;
  if( spec->npred>0 && pq_page_index_mask(f, rg, plan, &allowed, &out->stats, err) ) return;
  if( spec->rows && rg_rows_wanted(spec, plan->row0, R->num_rows, &allowed) ){
    col_error_set(err, COL_ENOMEM, "out of memory");
    return;
  }
  if( any_exact || allowed ){
    uint32_t n = (uint32_t)R->num_rows;
    out->sel_pool = pq_codec_sel_pool(codec);
    out->sel = col_pool_get(out->sel_pool, sizeof(uint32_t)*(size_t)n);
    if( !out->sel ){ free(allowed); col_error_set(err, COL_ENOMEM, "out of memory"); return; }
    uint32_t nsel = 0;
    /* every row, their list not written yet: the first filter writes it
    ** (pred_filter_all), and while every row passes none is needed */
    int all = allowed==0;
    if( allowed ){
      for(uint32_t i=0; i<n; i++) if( allowed[i] ) out->sel[nsel++] = i;
    }else{
      nsel = n;
    }
    col_arena scratch;
    col_arena_init(&scratch);
    /* Comparisons before LIKE/GLOB (conjuncts commute, and a pattern costs
    ** most per row), and a filter column decoded after another filter has
    ** dropped rows is decoded only in pages that still hold a survivor:
    ** URL LIKE '%google%' AND SearchPhrase <> '' matches URL only where
    ** SearchPhrase is not empty. */
    for(int pass=0; pass<2 && nsel>0; pass++)
    for(int p=0; p<spec->npred + have_bound && nsel>0; p++){
      const scan_pred *pr = p==spec->npred ? &bound : &spec->preds[p];
      if( !pr->exact ) continue;
      if( (pr->op==PRED_LIKE || pr->op==PRED_GLOB) != (pass==1) ) continue;
      col_vector cv;
      int64_t slen = plan->filename ? (int64_t)strlen(plan->filename) : 0;
      cv_str fname = { plan->filename, (uint32_t)slen };
      if( pr->col==plan->nfield ){
        memset(&cv, 0, sizeof(cv));
        cv.type = CV_TEXT; cv.form = CV_CONST; cv.n = n; cv.str = &fname;
      }else{
        pq_rg_field *fd = &out->fields[pr->col];
        const uint8_t *mask = allowed;
        if( !fd->decoded && nsel < n && (mask = rg_rows_mask(codec, out->sel, nsel, n))==0 ){
          col_arena_free(&scratch);
          free(allowed);
          col_error_set(err, COL_ENOMEM, "out of memory");
          return;
        }
        /* the bound is not among the spec's predicates rg_ts_field asks */
        int raw = rg_ts_field(plan, pr->col)
               && (pr!=&bound || pq_ts_pred_ok(pr, pq_field_conv(plan->schema, pr->col)));
        if( !fd->decoded && decode_field(f, fileno, rg, plan->schema, pr->col, raw,
                                         codec, mask, fd, &out->stats, err) ){
          col_arena_free(&scratch);
          free(allowed);
          return;
        }
        if( fd->raw && fd->col.v.form==CV_DICT
         && field_reconvert(f, fileno, rg, plan->schema, pr->col, 0, 0, fd, err) ){
          /* a dictionary's text is its entries' alone, which the text
          ** filter compares once each (predicate.c) */
          col_arena_free(&scratch);
          free(allowed);
          return;
        }
        if( fd->raw ){
          /* every predicate on it takes the integers (rg_ts_field) */
          pq_ts_pred tp;
          pq_ts_pred_init(&tp, pr, pq_field_conv(plan->schema, pr->col));
          nsel = pq_ts_pred_filter(&tp, &fd->col.v, out->sel, all ? n : nsel, all);
          all = 0;
          continue;
        }
        cv = fd->col.v;
      }
      if( all ){
        int written;
        cv.n = n;
        nsel = pred_filter_all(pr, &cv, out->sel, &scratch, &written);
        all = !written;
      }else{
        nsel = pred_filter(pr, &cv, out->sel, nsel, &scratch);
      }
      col_arena_reset(&scratch);
    }
    col_arena_free(&scratch);
    free(allowed);
    out->stats.rows_decoded += n;
    /* every row passed every filter: no selection, as without filters */
    out->nsel = all ? -1 : (int64_t)nsel;
    if( nsel==0 ){ out->skipped = 1; return; }
  }else{
    out->stats.rows_decoded += R->num_rows;
  }
  /* Columns only emitted are decoded only where a row survived: pages
  ** without a selected row are skipped. */
  uint8_t *mask = 0;
  for(int fi=0; fi<plan->nfield; fi++){
    if( (plan->need[fi] & 9)!=1 || pq_rg_field_ready(plan, fi, out) ) continue;
    if( mask==0 && rg_sel_mask(codec, out, &mask) ){ col_error_set(err, COL_ENOMEM, "out of memory"); return; }
    if( rg_emit(f, plan, fi, codec, mask, out, err) ) break;
  }
}

int pq_rg_field_ready(const pq_rg_plan *plan, int fi, const pq_rg_data *d){
  const pq_rg_field *fd = &d->fields[fi];
  return fd->decoded && fd->raw==((plan->need[fi] & 4)!=0);
}

int pq_rg_emit_field(pq_file *f, const pq_rg_plan *plan, int fi, pq_codec_ctx *codec,
                     pq_rg_data *d, col_error *err){
  if( pq_rg_field_ready(plan, fi, d) ) return COL_OK;
  uint8_t *mask = 0;
  if( rg_sel_mask(codec, d, &mask) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  return rg_emit(f, plan, fi, codec, mask, d, err);
}
