/*
** scan.c — the Parquet dataset and its batch source.
**
** A dataset is the files of a path/glob with their footers and schemas,
** opened once. A scan walks their row groups in file order. Each row group
** is decoded whole for the columns the scan needs (rowgroup.c), then handed
** out in batches that are views into it, so memory is bounded by a row group
** of the read set (times the workers in flight), not by the file.
**
** Parallelism: with threads > 1, workers decode the next row groups ahead of
** the consumer (a window of 2 per worker, and 2 for the consumer's own:
** prefetch_take) and the consumer takes them in order, so rows come out
** exactly as with threads=1.
*/
#include "parquet.h"
#include "rowgroup.h"
#include "summary.h"
#include "ts_pred.h"
#include "../split.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decoding contexts a dataset keeps between scans: one per thread that
** decodes, for a few scans side by side. */
#define PQ_CTX_KEEP 16

/* Fewer rows to decode than this: no workers (scan_open). The sanitizer
** build sets 0, so the suite's small files test the workers. */
#ifndef PQ_SERIAL_ROWS
# define PQ_SERIAL_ROWS 400000
#endif

typedef struct pq_dataset {
  col_dataset base;
  pq_options opt;
  int nfile;
  pq_file **files;
  pq_schema *schemas;        /* one per file (they agree; nodes differ) */
  int nsorted;               /* sorting columns shared by every row group */
  int *sorted;               /* field indexes */
  int *sorted_desc;
  col_pool *pool;            /* page and value buffers kept from one scan
                             ** to the next (up to PQ_POOL_KEEP bytes), so
                             ** a repeated query does not fault its buffers
                             ** in again; scans draw on them (their pools'
                             ** parent) and give theirs back at close */
  pthread_mutex_t ctx_mu;    /* guards ctx_kept */
  pq_codec_ctx *ctx_kept[PQ_CTX_KEEP]; /* decoding contexts scans gave back
                             ** (their scratch already faulted in) */
  int nctx_kept;
} pq_dataset;

/* The buffers a dataset keeps between scans. First touches of fresh pages
** cost about 11 us each on the VM measured, 7% of a URL scan. */
#define PQ_POOL_KEEP ((size_t)64 << 20)

typedef struct pq_job { int file, rg; int64_t row0; } pq_job;

typedef struct pq_scan pq_scan;

/* Workers decoding row groups ahead of the consumer. */
typedef struct pq_prefetch {
  pq_scan *scan;
  int nthread;
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int window;                /* row groups in flight at most */
  pq_rg_data *slots;         /* window of them */
  uint8_t *ready;            /* slot j%window holds job j */
  int next_job;              /* next job a worker takes */
  int limit_job;             /* jobs past this are not started (max_rows) */
  int consumed;              /* jobs the consumer has taken */
  int stop;                  /* close() was called */
} pq_prefetch;

struct pq_scan {
  batch_source base;
  pq_dataset *ds;
  scan_spec spec;            /* the caller's (arrays must outlive the scan) */
  uint8_t *need;             /* per field: 1 emit, 2 filter */
  int nfield;
  pq_job *jobs;              /* every row group of every file, in order */
  int njob;
  int next;                  /* next job (serial) */
  int cur_job;               /* the job cur holds */
  pq_rg_data cur;            /* row group being emitted */
  int have_cur;
  int64_t off;               /* next row of cur to emit */
  int64_t selpos;            /* next index into cur.sel */
  int64_t emitted;           /* rows handed out */
  col_batch batch;
  col_vector *cols;          /* batch vectors */
  uint8_t *pending;          /* batch.pending: lazy columns not decoded */
  uint8_t *eager;            /* per field: a lazy column the consumer has
                             ** read (scan_fill), decoded with the rest
                             ** from then on; written by the consumer,
                             ** read by workers (atomics) */
  int neager;                /* fields eager marks (atomic) */
  int64_t batch_off;         /* the batch's first row in cur */
  uint32_t *sel;             /* batch selection */
  cv_str fname;              /* filename column value */
  pq_codec_ctx *codec;       /* serial decoding */
  col_pool *pool;            /* page and value buffers, reused from row
                             ** group to row group by every decoder */
  pq_prefetch *pf;           /* NULL when serial or not yet started */
  int want_threads;          /* workers to start after the first row group */
};

/* ---- dataset ----------------------------------------------------------- */

static void ds_close(col_dataset *d){
  pq_dataset *ds = (pq_dataset*)d;
  if( !ds ) return;
  for(int i=0; i<ds->nfile; i++){
    pq_schema_free(&ds->schemas[i]);
    pq_file_close(ds->files[i]);
  }
  free(ds->files);
  free(ds->schemas);
  free(ds->sorted);
  free(ds->sorted_desc);
  col_pool_free(ds->pool);   /* every scan is closed, its blocks back */
  for(int i=0; i<ds->nctx_kept; i++) pq_codec_ctx_free(ds->ctx_kept[i]);
  pthread_mutex_destroy(&ds->ctx_mu);
  col_schema_free(&ds->base.schema);
  free(ds);
}

/* A decoding context for a scan's thread, drawing buffers from pool:
** one a scan before gave back, else a new one; NULL on OOM. */
static pq_codec_ctx *ds_codec_take(pq_dataset *ds, col_pool *pool){
  pq_codec_ctx *c = 0;
  pthread_mutex_lock(&ds->ctx_mu);
  if( ds->nctx_kept>0 ) c = ds->ctx_kept[--ds->nctx_kept];
  pthread_mutex_unlock(&ds->ctx_mu);
  if( c==0 ) c = pq_codec_ctx_new();
  if( c ) pq_codec_set_pool(c, pool);
  return c;
}

/* Give c back for the next scan (freed when the dataset keeps enough). */
static void ds_codec_give(pq_dataset *ds, pq_codec_ctx *c){
  if( c==0 ) return;
  pq_codec_set_pool(c, 0);   /* the scan's pool goes with the scan */
  pq_codec_set_sel_pool(c, 0);
  pthread_mutex_lock(&ds->ctx_mu);
  if( ds->nctx_kept < PQ_CTX_KEEP ){ ds->ctx_kept[ds->nctx_kept++] = c; c = 0; }
  pthread_mutex_unlock(&ds->ctx_mu);
  pq_codec_ctx_free(c);
}

/* What a scan (or an estimate, need==NULL) asks of file i's row groups. */
static pq_rg_plan file_plan(const pq_dataset *ds, int i, const scan_spec *spec,
                            const uint8_t *need){
  pq_rg_plan plan;
  plan.schema = &ds->schemas[i];
  plan.nfield = ds->schemas[i].nfield;
  plan.need = need;
  plan.spec = spec;
  plan.filename = ds->files[i]->path;
  plan.row0 = 0;
  return plan;
}

/* Rows of the row groups that statistics cannot exclude. Costs no I/O. */
static int64_t ds_rows_unpruned(col_dataset *d, const scan_spec *spec){
  pq_dataset *ds = (pq_dataset*)d;
  if( spec==0 || spec->npred==0 ) return d->total_rows;
  int64_t rows = 0;
  for(int i=0; i<ds->nfile; i++){
    pq_rg_plan plan = file_plan(ds, i, spec, 0);
    for(int r=0; r<ds->files[i]->meta.n_row_groups; r++){
      if( pq_rg_stats_may_match(ds->files[i], r, &plan) ){
        rows += ds->files[i]->meta.row_groups[r].num_rows;
      }
    }
  }
  return rows;
}

/* Those rows times a guess of each predicate's selectivity inside them. */
static double ds_estimate(col_dataset *d, const scan_spec *spec){
  if( spec==0 || spec->npred==0 ) return (double)d->total_rows;
  double rows = (double)ds_rows_unpruned(d, spec);
  for(int p=0; p<spec->npred; p++){
    switch( spec->preds[p].op ){
      case PRED_EQ: case PRED_IS: case PRED_ISNULL: rows *= 0.05; break;
      case PRED_IN: rows *= 0.1; break;
      case PRED_NE: case PRED_ISNOT: case PRED_NOTNULL: rows *= 0.9; break;
      case PRED_LIKE: case PRED_GLOB: rows *= 0.25; break;
      default: rows *= 0.5; break;
    }
  }
  return rows < 1 ? 1 : rows;
}

static const int *ds_sorted_by(col_dataset *d, int *n, const int **desc){
  pq_dataset *ds = (pq_dataset*)d;
  *n = ds->nsorted;
  *desc = ds->sorted_desc;
  return ds->sorted;
}

static void ds_summary(col_dataset *d, int col, col_summary *out){
  pq_dataset *ds = (pq_dataset*)d;
  pq_summarize(ds->files, ds->schemas, ds->nfile, col, out);
}

static int scan_open(col_dataset *d, const scan_spec *spec, batch_source **out, col_error *err);

static const col_dataset_methods pq_dataset_methods = {
  scan_open, ds_estimate, ds_sorted_by, ds_close, ds_summary, ds_rows_unpruned
};

/* The min and max a row group's statistics give for leaf column `leaf`,
** as SQLite values; 0 when unknown. */
static int rg_min_max(pq_file *f, const pq_schema *s, int r, int leaf,
                      pred_value *mn, pred_value *mx, char *b1, char *b2){
  const pq_row_group *R = &f->meta.row_groups[r];
  if( leaf>=R->n_columns ) return 0;
  const pq_column_chunk *cc = &R->columns[leaf];
  if( !cc->has_meta_data || !cc->meta_data.has_statistics ) return 0;
  const pq_statistics *st = &cc->meta_data.statistics;
  if( !st->has_min_value || !st->has_max_value ) return 0;
  if( !st->has_null_count || st->null_count>0 ) return 0;   /* nulls: keep it simple */
  return pq_stat_value(&s->leaves[leaf].conv, &st->min_value, mn, b1, 128)
      && pq_stat_value(&s->leaves[leaf].conv, &st->max_value, mx, b2, 128);
}

/* Sorting columns every row group of every file declares (a prefix), kept
** only when SQLite's order is the file's: integer columns (no collation can
** reorder them), NULLs where SQLite puts them, and row groups that follow
** each other in order by their statistics (a writer's sorting_columns speak
** of the rows inside one row group only). With more than one column, the
** first must not tie across a boundary. */
static int find_sorted(pq_dataset *ds){
  int best = -1;
  for(int fi=0; fi<ds->nfile; fi++){
    pq_file_meta *m = &ds->files[fi]->meta;
    for(int r=0; r<m->n_row_groups; r++){
      int n = m->row_groups[r].n_sorting_columns;
      if( best<0 || n<best ) best = n;
    }
  }
  if( best<=0 ) return COL_OK;
  pq_row_group *R0 = &ds->files[0]->meta.row_groups[0];
  ds->sorted = calloc((size_t)best, sizeof(int));
  ds->sorted_desc = calloc((size_t)best, sizeof(int));
  if( !ds->sorted || !ds->sorted_desc ) return COL_ENOMEM;
  int n = 0;
  for(int k=0; k<best; k++){
    pq_sorting_column sc = R0->sorting_columns[k];
    int ok = 1;
    for(int fi=0; fi<ds->nfile && ok; fi++){
      pq_file_meta *m = &ds->files[fi]->meta;
      for(int r=0; r<m->n_row_groups && ok; r++){
        pq_sorting_column o = m->row_groups[r].sorting_columns[k];
        ok = o.column_idx==sc.column_idx && o.descending==sc.descending && o.nulls_first==sc.nulls_first;
      }
    }
    const pq_schema *s = &ds->schemas[0];
    if( !ok || sc.column_idx<0 || sc.column_idx>=s->nleaf ) break;
    const pq_leaf_desc *L = &s->leaves[sc.column_idx];
    if( s->fields[L->field].nested ) break;
    if( sc.descending ? sc.nulls_first : !sc.nulls_first ) break;  /* SQLite: NULLs first ascending */
    pq_conv_kind k2 = L->conv.kind;
    if( !(k2==PQC_INT32 || k2==PQC_INT64 || k2==PQC_BOOL || k2==PQC_UINT32) ) break;
    ds->sorted[n] = L->field;
    ds->sorted_desc[n] = sc.descending;
    n++;
  }
  if( n>0 ){
    /* Row groups in order by the first column's statistics. */
    int leaf = ds->schemas[0].nodes[ds->schemas[0].fields[ds->sorted[0]].node].leaf;
    pred_value pmax; char pb[128];
    int have_prev = 0, ties = 0;
    for(int fi=0; fi<ds->nfile && n>0; fi++){
      for(int r=0; r<ds->files[fi]->meta.n_row_groups; r++){
        pred_value mn, mx; char b1[128], b2[128];
        if( !rg_min_max(ds->files[fi], &ds->schemas[fi], r, leaf, &mn, &mx, b1, b2) ){ n = 0; break; }
        pred_value lo = ds->sorted_desc[0] ? mx : mn;   /* first value of this row group */
        if( have_prev ){
          int c = pred_value_compare(&pmax, &lo, COLL_BINARY);
          if( ds->sorted_desc[0] ) c = -c;
          if( c>0 ){ n = 0; break; }
          if( c==0 ) ties = 1;
        }
        pmax = ds->sorted_desc[0] ? mn : mx;             /* last value of this row group */
        memcpy(pb, ds->sorted_desc[0] ? b1 : b2, sizeof(pb));
        if( pmax.type==CV_TEXT || pmax.type==CV_BLOB ) pmax.p = pb;
        have_prev = 1;
      }
    }
    if( ties && n>1 ) n = 1;
  }
  ds->nsorted = n;
  return COL_OK;
}

/* col_def.ts_unit of field i: a flat TIMESTAMP column whose unit every
** file shares (the text hides a unit that differs between files; the
** integers would not). */
static uint8_t field_ts_unit(const pq_dataset *ds, int i){
  int unit = 0;
  for(int f=0; f<ds->nfile; f++){
    const pq_schema *s = &ds->schemas[f];
    if( i>=s->nfield || s->fields[i].nested ) return 0;
    const pq_conv *cv = pq_field_conv(s, i);
    if( cv->kind!=PQC_TIMESTAMP || cv->phys!=PQ_INT64 ) return 0;
    if( f>0 && cv->unit!=unit ) return 0;
    unit = cv->unit;
  }
  _Static_assert((int)PQ_UNIT_MILLIS==(int)COL_TS_MILLIS && (int)PQ_UNIT_MICROS==(int)COL_TS_MICROS
                 && (int)PQ_UNIT_NANOS==(int)COL_TS_NANOS, "units are the reader's");
  return (uint8_t)unit;
}

int pq_dataset_open(const char *spec, const pq_options *opt, col_dataset **out, col_error *err){
  char **paths = 0;
  int npath = 0;
  pq_dataset *ds = 0;
  *out = 0;
  if( pq_expand_paths(spec, &paths, &npath, err) ) return err->code;
  ds = calloc(1, sizeof(*ds));
  if( !ds ) goto open_nomem;
  pthread_mutex_init(&ds->ctx_mu, 0);
  ds->base.m = &pq_dataset_methods;
  ds->opt = *opt;
  ds->files = calloc((size_t)npath, sizeof(pq_file*));
  ds->schemas = calloc((size_t)npath, sizeof(pq_schema));
  ds->pool = col_pool_new();
  if( !ds->files || !ds->schemas || !ds->pool ) goto open_nomem;
  col_pool_set_keep(ds->pool, PQ_POOL_KEEP);
  for(int i=0; i<npath; i++){
    if( pq_file_open(paths[i], &ds->files[i], err) ) goto open_error;
    ds->nfile = i+1;
    ds->files[i]->verify_crc = opt->verify_crc;
    if( pq_schema_build(&ds->files[i]->meta, opt, &ds->schemas[i], err) ){
      col_error_prefix(err, "%s: ", paths[i]);
      goto open_error;
    }
    if( ds->files[i]->meta.has_encryption_algorithm ){
      col_error_set(err, COL_ERROR, "%s: encrypted Parquet file (plaintext footer): "
                    "Parquet modular encryption is not supported", paths[i]);
      goto open_error;
    }
    char why[300];
    if( i>0 && !pq_schema_same(&ds->schemas[0], &ds->schemas[i], why, sizeof(why)) ){
      col_error_set(err, COL_ERROR, "schema mismatch between %s and %s: %s", paths[0], paths[i], why);
      goto open_error;
    }
    pq_file_meta *m = &ds->files[i]->meta;
    ds->base.nparts += m->n_row_groups;
    for(int r=0; r<m->n_row_groups; r++){
      ds->base.total_rows += m->row_groups[r].num_rows;
      if( m->row_groups[r].n_columns < ds->schemas[i].nleaf ){
        col_error_set(err, COL_ERROR, "%s: row group %d has %d column chunks, the schema has %d leaf columns",
                      paths[i], r, m->row_groups[r].n_columns, ds->schemas[i].nleaf);
        goto open_error;
      }
    }
    ds->base.total_bytes += ds->files[i]->size;
  }
  ds->base.shardable = 1;
  ds->base.splittable = 1;
  ds->base.row_select = 1;
  const pq_schema *s = &ds->schemas[0];
  int ncol = s->nfield + (opt->filename_column ? 1 : 0);
  ds->base.schema.cols = calloc((size_t)(ncol ? ncol : 1), sizeof(col_def));
  if( !ds->base.schema.cols ) goto open_nomem;
  for(int i=0; i<s->nfield; i++){
    col_def *cd = &ds->base.schema.cols[i];
    cd->name = pq_node_name(&s->nodes[s->fields[i].node]);
    if( !cd->name ) goto open_nomem;
    cd->type = s->fields[i].type;
    cd->decl = s->fields[i].decl;
    cd->ts_unit = field_ts_unit(ds, i);
    ds->base.schema.n = i+1;
  }
  if( opt->filename_column ){
    col_def *cd = &ds->base.schema.cols[s->nfield];
    cd->name = strdup("filename");
    if( !cd->name ) goto open_nomem;
    cd->type = CV_TEXT;
    cd->decl = "TEXT";
    ds->base.schema.n = ncol;
  }
  if( find_sorted(ds) ) goto open_nomem;
  pq_free_paths(paths, npath);
  *out = &ds->base;
  return COL_OK;
open_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
open_error:
  pq_free_paths(paths, npath);
  ds_close(ds ? &ds->base : 0);
  return err->code;
}

/* ---- decoding one job ---------------------------------------------------- */

static void decode_job(pq_scan *sc, int j, pq_codec_ctx *codec, pq_rg_data *out){
  pq_job jb = sc->jobs[j];
  /* a lazy column read in an earlier row group is likely read in this one:
  ** decoded here, on a worker when there are, not later on the consumer
  ** (SELECT * of 105 columns read 42 of them at xColumn, one at a time) */
  uint8_t *need = sc->need;
  if( __atomic_load_n(&sc->neager, __ATOMIC_ACQUIRE)>0 && (need = malloc((size_t)sc->nfield+1))!=0 ){
    memcpy(need, sc->need, (size_t)sc->nfield+1);
    for(int f=0; f<sc->nfield; f++){
      if( __atomic_load_n(&sc->eager[f], __ATOMIC_RELAXED) ) need[f] &= (uint8_t)~8;
    }
  }
  if( need==0 ) need = sc->need;   /* OOM: lazily, as before */
  pq_rg_plan plan = file_plan(sc->ds, jb.file, &sc->spec, need);
  plan.row0 = jb.row0;
  /* The next two row groups' chunks, so a cold file's reads run ahead of
  ** the decoding (the kernel's own readahead follows sequential reads, and
  ** a projection's chunks are not): at threads=1 from a dropped page
  ** cache, GROUP BY UserID 0.87 -> 0.65 s, GROUP BY UserID, SearchPhrase
  ** LIMIT 10 0.29 -> 0.21 s; a cached file costs nothing measurable. */
  for(int a=1; a<=2 && j+a<sc->njob; a++){
    pq_job nx = sc->jobs[j+a];
    pq_rg_plan np = file_plan(sc->ds, nx.file, &sc->spec, need);
    pq_rg_willneed(sc->ds->files[nx.file], nx.rg, &np);
  }
  pq_rg_decode(sc->ds->files[jb.file], jb.file, jb.rg, &plan, codec, out);
  if( need!=sc->need ) free(need);
}

/* ---- prefetching workers ---------------------------------------------- */

static void *prefetch_main(void *arg){
  pq_prefetch *pf = arg;
  pq_codec_ctx *codec = ds_codec_take(pf->scan->ds, pf->scan->pool);
  if( codec ) pq_codec_set_sel_pool(codec, pf->scan->pool);
  pthread_mutex_lock(&pf->mu);
  for(;;){
    while( !pf->stop && pf->next_job < pf->limit_job
        && pf->next_job >= pf->consumed + pf->window ){
      pthread_cond_wait(&pf->cv, &pf->mu);
    }
    if( pf->stop || pf->next_job >= pf->limit_job ) break;
    int j = pf->next_job++;
    pthread_mutex_unlock(&pf->mu);
    pq_rg_data d;
    if( codec ){
      decode_job(pf->scan, j, codec, &d);
    }else{
      memset(&d, 0, sizeof(d));
      col_error_set(&d.err, COL_ENOMEM, "out of memory");
    }
    pthread_mutex_lock(&pf->mu);
    pf->slots[j % pf->window] = d;
    pf->ready[j % pf->window] = 1;
    pthread_cond_broadcast(&pf->cv);
  }
  pthread_mutex_unlock(&pf->mu);
  ds_codec_give(pf->scan->ds, codec);
  return 0;
}

static void prefetch_stop(pq_prefetch *pf){
  if( !pf ) return;
  pthread_mutex_lock(&pf->mu);
  pf->stop = 1;
  pthread_cond_broadcast(&pf->cv);
  pthread_mutex_unlock(&pf->mu);
  for(int i=0; i<pf->nthread; i++) pthread_join(pf->threads[i], 0);
  for(int i=0; i<pf->window; i++) if( pf->ready[i] ) pq_rg_free(&pf->slots[i]);
  pthread_mutex_destroy(&pf->mu);
  pthread_cond_destroy(&pf->cv);
  free(pf->threads); free(pf->slots); free(pf->ready);
  free(pf);
}

static pq_prefetch *prefetch_start(pq_scan *sc, int nthread, int first_job){
  pq_prefetch *pf = calloc(1, sizeof(*pf));
  if( !pf ) return 0;
  pf->scan = sc;
  /* 2 per worker, and 2 more for the job a consumer that would wait
  ** decodes itself (prefetch_take): in a window of 2 per worker alone,
  ** the worker that had filled it waited while the consumer decoded, and
  ** the two took turns. count(DISTINCT UserID) by MobilePhoneModel
  ** (ClickBench Q11, aggregated on the consumer's thread) at threads=2:
  ** 37 -> 30 ms; Q23 376-420 -> 344-375 ms. */
  pf->window = nthread*2 + 2;
  pf->limit_job = sc->njob;
  pf->next_job = first_job;
  pf->consumed = first_job;
  pf->threads = calloc((size_t)nthread, sizeof(pthread_t));
  pf->slots = calloc((size_t)pf->window, sizeof(pq_rg_data));
  pf->ready = calloc((size_t)pf->window, 1);
  pthread_mutex_init(&pf->mu, 0);
  pthread_cond_init(&pf->cv, 0);
  if( !pf->threads || !pf->slots || !pf->ready ){ prefetch_stop(pf); return 0; }
  for(int i=0; i<nthread; i++){
    if( pthread_create(&pf->threads[i], 0, prefetch_main, pf)!=0 ) break;
    pf->nthread = i+1;
  }
  if( pf->nthread==0 ){ prefetch_stop(pf); return 0; }
  return pf;
}

/* Take job j's result from the workers. A consumer that would wait helps
** instead: it decodes the next job nobody has started (with its own codec
** context), so threads=2 keeps two cores decoding when the consumer has
** little else to do, and costs nothing when it is busy elsewhere. */
static void prefetch_take(pq_prefetch *pf, int j, pq_codec_ctx *codec, pq_rg_data *out){
  pthread_mutex_lock(&pf->mu);
  while( !pf->ready[j % pf->window] ){
    if( codec && !pf->stop && pf->next_job < pf->limit_job
     && pf->next_job < pf->consumed + pf->window ){
      int k = pf->next_job++;
      pthread_mutex_unlock(&pf->mu);
      pq_rg_data d;
      decode_job(pf->scan, k, codec, &d);
      pthread_mutex_lock(&pf->mu);
      pf->slots[k % pf->window] = d;
      pf->ready[k % pf->window] = 1;
      pthread_cond_broadcast(&pf->cv);
      continue;
    }
    pthread_cond_wait(&pf->cv, &pf->mu);
  }
  *out = pf->slots[j % pf->window];
  pf->ready[j % pf->window] = 0;
  pf->consumed = j+1;
  pthread_cond_broadcast(&pf->cv);
  pthread_mutex_unlock(&pf->mu);
}

/* ---- the batch source ------------------------------------------------- */

static col_vector slice(const col_vector *v, int64_t off){
  col_vector s = *v;
  if( v->form==CV_CONST ) return s;
  if( s.tags ) s.tags += off;
  if( v->form==CV_DICT ){
    s.codes += off;
  }else{
    if( s.i64 ) s.i64 += off;
    if( s.f64 ) s.f64 += off;
    if( s.str ) s.str += off;
  }
  return s;
}

static int field_ready(const pq_scan *sc, int f, const pq_rg_data *d){
  pq_rg_plan plan = file_plan(sc->ds, d->file, &sc->spec, sc->need);
  return pq_rg_field_ready(&plan, f, d);
}

static int scan_next(batch_source *bs, col_batch **out){
  pq_scan *sc = (pq_scan*)bs;
  int bsz = sc->spec.batch_size>0 ? sc->spec.batch_size : DEFAULT_BATCH_SIZE;
  *out = 0;
  for(;;){
    if( sc->base.interrupt && *sc->base.interrupt ){
      return col_error_set(&sc->base.err, COL_EINTERRUPT, "interrupted");
    }
    if( sc->have_cur && sc->off < sc->cur.rows && !sc->cur.skipped ){
      pq_rg_data *d = &sc->cur;
      int64_t off = sc->off;
      int64_t len = d->rows - off < bsz ? d->rows - off : bsz;
      uint32_t nsel = (uint32_t)len;
      const uint32_t *sel = 0;
      if( d->nsel>=0 ){
        nsel = 0;
        while( sc->selpos < d->nsel && d->sel[sc->selpos] < off + len ){
          sc->sel[nsel++] = d->sel[sc->selpos++] - (uint32_t)off;
        }
        sel = sc->sel;
      }
      sc->off += len;
      if( nsel==0 ) continue;
      for(int k=0; k<sc->spec.nproj; k++){
        int f = sc->spec.proj[k];
        if( f==sc->nfield ){
          col_vector *c = &sc->cols[k];
          memset(c, 0, sizeof(*c));
          sc->fname.p = sc->ds->files[d->file]->path;
          sc->fname.n = (uint32_t)strlen(sc->fname.p);
          c->type = CV_TEXT; c->form = CV_CONST; c->n = (uint32_t)len; c->str = &sc->fname;
        }else if( (sc->need[f] & 8) && !field_ready(sc, f, d) ){
          /* not decoded until the consumer reads it (scan_fill) */
          col_vector *c = &sc->cols[k];
          memset(c, 0, sizeof(*c));
          c->type = CV_NULL; c->form = CV_CONST; c->n = (uint32_t)len;
          sc->pending[k] = 1;
        }else{
          sc->cols[k] = slice(&d->fields[f].col.v, off);
          sc->cols[k].n = (uint32_t)len;
          sc->pending[k] = 0;
        }
      }
      sc->batch_off = off;
      /* NULL without lazy columns: xColumn then tests one pointer */
      sc->batch.pending = sc->spec.lazy ? sc->pending : 0;
      sc->batch.n = (uint32_t)len;
      sc->batch.nsel = nsel;
      sc->batch.sel = sel;
      sc->batch.ncols = sc->spec.nproj;
      sc->batch.cols = sc->cols;
      sc->batch.first_row = sc->jobs[sc->cur_job].row0 + off;
      sc->emitted += nsel;
      sc->base.stats.rows_returned += nsel;
      *out = &sc->batch;
      return COL_OK;
    }
    /* Next row group. */
    if( sc->have_cur ){ pq_rg_free(&sc->cur); sc->have_cur = 0; }
    if( sc->spec.max_rows>0 && sc->emitted >= sc->spec.max_rows ) return COL_OK;
    int j;
    if( sc->spec.split ){
      /* a lane's jobs: claimed one at a time, as others may take the rest */
      if( (j = col_split_claim(sc->spec.split, sc->spec.shard))<0 ) return COL_OK;
    }else{
      if( sc->next >= sc->njob ) return COL_OK;
      j = sc->next++;
    }
    sc->cur_job = j;
    /* Workers start with the second row group, so a query that stops early
    ** (LIMIT, EXISTS) never pays for row groups read ahead; one that takes
    ** every row starts them with the first, which then decodes beside the
    ** second (GROUP BY over three row groups, one of them the work: the
    ** first decoded alone was a tenth of ClickBench Q43). */
    if( sc->want_threads>0 && !sc->pf && j==(sc->spec.whole ? 0 : 1) ){
      sc->pf = prefetch_start(sc, sc->want_threads, j);
    }
    if( sc->pf ) prefetch_take(sc->pf, j, sc->codec, &sc->cur);
    else decode_job(sc, j, sc->codec, &sc->cur);
    sc->have_cur = 1;
    sc->off = 0;
    sc->selpos = 0;
    /* a row group's counts (it sets no files or rows returned) */
    scan_stats_add(&sc->base.stats, &sc->cur.stats);
    if( sc->cur.err.code ){
      sc->base.err = sc->cur.err;
      return sc->cur.err.code;
    }
  }
}

static void scan_close(batch_source *bs){
  pq_scan *sc = (pq_scan*)bs;
  if( !sc ) return;
  prefetch_stop(sc->pf);
  if( sc->have_cur ) pq_rg_free(&sc->cur);
  ds_codec_give(sc->ds, sc->codec);
  /* every row group's buffers are back by now: the next scan may use them */
  col_pool_move(sc->ds->pool, sc->pool);
  col_pool_free(sc->pool);
  free(sc->need); free(sc->jobs); free(sc->cols); free(sc->pending); free(sc->eager); free(sc->sel);
  free(sc);
}

/* A lazy column of the batch last handed out, decoded now for the rest of
** its row group (the other batches of cur find it ready). */
static int scan_fill(batch_source *bs, int k){
  pq_scan *sc = (pq_scan*)bs;
  if( k<0 || k>=sc->spec.nproj || !sc->pending[k] || !sc->have_cur ) return COL_OK;
  pq_rg_data *d = &sc->cur;
  int f = sc->spec.proj[k];
  pq_rg_plan plan = file_plan(sc->ds, d->file, &sc->spec, sc->need);
  scan_stats before = d->stats;
  col_error_clear(&sc->base.err);
  if( pq_rg_emit_field(sc->ds->files[d->file], &plan, f, sc->codec, d, &sc->base.err) ){
    return sc->base.err.code;
  }
  /* what the column cost, counted as pq_rg_decode counts its own */
  sc->base.stats.pages += d->stats.pages - before.pages;
  sc->base.stats.pages_pruned += d->stats.pages_pruned - before.pages_pruned;
  sc->base.stats.bytes_read += d->stats.bytes_read - before.bytes_read;
  sc->cols[k] = slice(&d->fields[f].col.v, sc->batch_off);
  sc->cols[k].n = sc->batch.n;
  sc->pending[k] = 0;
  if( !sc->eager[f] ){
    __atomic_store_n(&sc->eager[f], 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&sc->neager, 1, __ATOMIC_RELEASE);
  }
  return COL_OK;
}

static const batch_source_methods pq_scan_methods = { scan_next, scan_close, scan_fill };

/* Rows of job j's row group. */
static int64_t pq_job_nrows(const pq_scan *sc, int j){
  return sc->ds->files[sc->jobs[j].file]->meta.row_groups[sc->jobs[j].rg].num_rows;
}

/* The rows of each job, malloc'd; NULL when out of memory. */
static int64_t *pq_job_rows(const pq_scan *sc){
  int64_t *rows = malloc(((size_t)sc->njob + 1) * sizeof(int64_t));
  for(int j=0; rows && j<sc->njob; j++) rows[j] = pq_job_nrows(sc, j);
  return rows;
}

/* Keep the jobs of part `shard` of nshard: contiguous runs of row groups
** holding about equal numbers of rows (col_split_divide), so the parts in
** order are file order. 0, or -1 when out of memory. */
static int keep_shard(pq_scan *sc, int shard, int nshard){
  int64_t *rows = pq_job_rows(sc);
  int *start = malloc(((size_t)nshard + 1) * sizeof(int));
  if( rows==0 || start==0 ){ free(rows); free(start); return -1; }
  col_split_divide(rows, sc->njob, nshard, start);
  int from = start[shard], n = start[shard+1] - from;
  memmove(sc->jobs, sc->jobs + from, (size_t)n * sizeof(pq_job));
  sc->njob = n;
  free(rows); free(start);
  return 0;
}

static int scan_open(col_dataset *d, const scan_spec *spec, batch_source **out, col_error *err){
  pq_dataset *ds = (pq_dataset*)d;
  pq_scan *sc = calloc(1, sizeof(*sc));
  *out = 0;
  if( !sc ) return col_error_set(err, COL_ENOMEM, "out of memory");
  sc->base.m = &pq_scan_methods;
  sc->ds = ds;
  sc->spec = *spec;
  sc->nfield = ds->schemas[0].nfield;
  int bsz = spec->batch_size>0 ? spec->batch_size : DEFAULT_BATCH_SIZE;
  sc->need = calloc((size_t)sc->nfield+1, 1);
  sc->cols = calloc((size_t)(spec->nproj ? spec->nproj : 1), sizeof(col_vector));
  sc->pending = calloc((size_t)(spec->nproj ? spec->nproj : 1), 1);
  sc->eager = calloc((size_t)sc->nfield+1, 1);
  sc->sel = calloc((size_t)bsz, sizeof(uint32_t));
  int njob = 0;
  for(int i=0; i<ds->nfile; i++){
    njob += ds->files[i]->meta.n_row_groups;
    pq_file_check(ds->files[i]);
  }
  sc->jobs = calloc((size_t)(njob ? njob : 1), sizeof(pq_job));
  sc->pool = col_pool_new();
  col_pool_set_parent(sc->pool, ds->pool);
  sc->codec = sc->pool ? ds_codec_take(ds, sc->pool) : 0;
  if( !sc->need || !sc->cols || !sc->pending || !sc->eager || !sc->sel || !sc->jobs || !sc->codec || !sc->pool ){
    scan_close(&sc->base);
    return col_error_set(err, COL_ENOMEM, "out of memory");
  }
  for(int k=0; k<spec->nproj; k++){
    if( spec->proj[k]<0 || spec->proj[k]>sc->nfield ){ scan_close(&sc->base); return col_error_set(err, COL_ERROR, "bad projection"); }
    sc->need[spec->proj[k]] |= 1;
  }
  /* lazy: only where every entry naming the field is (and never the
  ** filename column, which costs nothing) */
  for(int k=0; k<spec->nproj && spec->lazy; k++){
    int f = spec->proj[k];
    if( spec->lazy[k] && f<sc->nfield ) sc->need[f] |= 8;
  }
  for(int k=0; k<spec->nproj && spec->lazy; k++){
    if( !spec->lazy[k] ) sc->need[spec->proj[k]] &= (uint8_t)~8;
  }
  for(int p=0; p<spec->npred; p++){
    if( spec->preds[p].col<0 || spec->preds[p].col>sc->nfield ){ scan_close(&sc->base); return col_error_set(err, COL_ERROR, "bad predicate column"); }
    if( spec->preds[p].exact ) sc->need[spec->preds[p].col] |= 2;
  }
  /* raw integers for the timestamps asked for, unless a predicate reads
  ** the column's text: those ts_pred.h makes on the integers do not
  ** (every file's conversion is the first's: col_def.ts_unit).
  ** group_by's strftime('%H:%M', EventTime) over 10M rows with a filter
  ** on EventTime's range (5 days) at threads=1: 0.22 -> 0.11 s (0.43 s
  ** before the predicates took the integers too) */
  for(int k=0; k<spec->nproj && spec->raw; k++){
    int f = spec->proj[k];
    if( spec->raw[k] && f<sc->nfield && ds->base.schema.cols[f].ts_unit
     && (!(sc->need[f] & 2) || pq_ts_preds_ok(spec, f, pq_field_conv(&ds->schemas[0], f))) ){
      sc->need[f] |= 4;
    }
  }
  /* Row groups that min/max statistics exclude never become jobs: the
  ** check costs no I/O, and a lookup that keeps one row group of a
  ** thousand then hands one job, not a thousand, to the workers. */
  int64_t row0 = 0, rowpos = 0;
  for(int i=0; i<ds->nfile; i++){
    pq_rg_plan plan = file_plan(ds, i, spec, sc->need);
    for(int r=0; r<ds->files[i]->meta.n_row_groups; r++){
      int64_t nr = ds->files[i]->meta.row_groups[r].num_rows;
      if( spec->rows ){
        /* rows named: skip to the first at or after this row group */
        while( rowpos < spec->nrows && spec->rows[rowpos] < row0 ) rowpos++;
        if( rowpos>=spec->nrows || nr<=0 || spec->rows[rowpos] >= row0 + nr ){
          row0 += nr > 0 ? nr : 0;
          continue;
        }
      }
      if( spec->npred>0 && !pq_rg_stats_may_match(ds->files[i], r, &plan) ){
        /* every lane of a sharded scan prunes them all; the first counts */
        if( spec->shard==0 ){
          sc->base.stats.row_groups++;
          sc->base.stats.row_groups_pruned_stats++;
        }
        row0 += ds->files[i]->meta.row_groups[r].num_rows;
        continue;
      }
      sc->jobs[sc->njob].file = i;
      sc->jobs[sc->njob].rg = r;
      sc->jobs[sc->njob].row0 = row0;
      row0 += ds->files[i]->meta.row_groups[r].num_rows;
      sc->njob++;
    }
  }
  if( spec->split ){
    int64_t *rows = pq_job_rows(sc);
    if( rows==0 ){ scan_close(&sc->base); return col_error_set(err, COL_ENOMEM, "out of memory"); }
    int bad = col_split_jobs(spec->split, sc->njob, rows);
    free(rows);
    if( bad ){
      scan_close(&sc->base);
      return col_error_set(err, COL_ERROR, "parallel scan: lanes disagree on the row groups to read, or out of memory");
    }
  }else if( spec->nshard>1 && keep_shard(sc, spec->shard, spec->nshard) ){
    scan_close(&sc->base);
    return col_error_set(err, COL_ENOMEM, "out of memory");
  }
  sc->base.stats.files = spec->shard==0 ? ds->nfile : 0;
  int threads = spec->threads;
  if( threads > sc->njob ) threads = sc->njob;
  if( threads > 1 ){
    /* A few milliseconds of work are done before a worker would help: a
    ** thread made on an idle core here first ran up to 2.5 ms after
    ** pthread_create, and decoded a row group up to twice as slowly as
    ** the consumer's warm core. ClickBench Q43 (3 row groups, 368640 rows
    ** left by statistics) over 10M rows, 100 runs: 3.4-3.6 ms serial
    ** against 4.3-5.0 ms at threads=2; with 4 row groups the two are
    ** even (5.9-8.7 against 6.2-6.9 ms), with 5 the workers win (10.5-12.0
    ** against 12.8-15.2 ms). */
    int64_t rows = 0;
    for(int j=0; j<sc->njob; j++) rows += pq_job_nrows(sc, j);
    if( rows < PQ_SERIAL_ROWS ) threads = 1;
  }
  /* threads=T means T busy threads: the consumer (SQLite, or group_by) is
  ** one of them, so T-1 workers decode ahead. */
  if( threads > 1 ) sc->want_threads = threads - 1;
  *out = &sc->base;
  return COL_OK;
}
