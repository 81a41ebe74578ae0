/*
** scan_vtab.c — the parquet and csv virtual tables.
**
**   CREATE VIRTUAL TABLE temp.hits USING parquet('data/hits_*.parquet',
**                                                threads=2, filename_column=true);
**   CREATE VIRTUAL TABLE temp.trips USING csv('trips.csv.zst', header=true);
**   SELECT count(*) FROM hits WHERE CounterID = 62;
**
** Both modules are this one implementation over a col_dataset: the footer
** or the CSV sniff happens once in xCreate/xConnect; every xFilter turns the
** plan (plan.c) into a scan_spec and streams batches; xNext walks the
** batch's selection; xColumn reads a vector. Options every scan table takes:
** threads=N (default: the cores; 1 is exactly serial), filename_column=BOOL;
** parquet also binary_as_string=BOOL, decimal=text|real, verify_crc=BOOL.
**
** The tables read files named in SQL, so they are SQLITE_VTAB_DIRECTONLY:
** a view or trigger in a database file cannot use them.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "scan_vtab.h"
#include "plan.h"
#include "../reader/parquet/parquet.h"
#include "../reader/csv/csv.h"
#include "../reader/warm.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Columns read from which a batch is swept into the cache first. */
#define SCAN_WARM_COLS 8

typedef struct scan_cursor {
  sqlite3_vtab_cursor base;
  scan_plan plan;            /* spec and the memory behind it */
  batch_source *src;         /* running scan, NULL before xFilter */
  col_batch *batch;          /* current batch, NULL at EOF */
  uint32_t pos;              /* index into the batch's selection */
  sqlite3_int64 rowid;       /* rows returned so far */
  int *colmap;               /* column -> projection index, -1 if absent */
  int eof;
  scan_topk *topk;           /* ORDER BY ... LIMIT consumed: the rows in
                             ** order (scan_topk.h), else NULL */
  sqlite3_stmt *probe;       /* "SELECT 1", stepped to see interrupts
                             ** while the top-k pass runs */
} scan_cursor;

int columnar_default_threads(void){
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n>0 ? (int)n : 1;
}

char *columnar_unquote(const char *s, int n){
  while( n>0 && (*s==' ' || *s=='\t' || *s=='\n') ){ s++; n--; }
  while( n>0 && (s[n-1]==' ' || s[n-1]=='\t' || s[n-1]=='\n') ) n--;
  char q = n>=2 ? s[0] : 0;
  char close = q=='[' ? ']' : q;
  if( (q=='\'' || q=='"' || q=='`' || q=='[') && s[n-1]==close ){
    char *out = sqlite3_malloc64((sqlite3_uint64)n);
    if( !out ) return 0;
    int k = 0;
    for(int i=1; i<n-1; i++){
      out[k++] = s[i];
      if( s[i]==close && q!='[' && i+1<n-1 && s[i+1]==close ) i++;
    }
    out[k] = 0;
    return out;
  }
  return sqlite3_mprintf("%.*s", n, s);
}

int columnar_split_arg(const char *arg, const char **key, int *nkey,
                       const char **val, int *nval){
  const char *eq = 0;
  char q = 0;
  for(const char *c=arg; *c; c++){
    if( q ){ if( *c==q ) q = 0; continue; }
    if( *c=='\'' || *c=='"' ){ q = *c; continue; }
    if( *c=='=' ){ eq = c; break; }
  }
  if( !eq ) return 0;
  const char *k = arg;
  while( *k==' ' ) k++;
  int kl = (int)(eq - k);
  while( kl>0 && k[kl-1]==' ' ) kl--;
  *key = k; *nkey = kl;
  *val = eq+1; *nval = (int)strlen(eq+1);
  return 1;
}

int columnar_parse_bool(const char *v){
  if( !sqlite3_stricmp(v, "true") || !strcmp(v, "1") || !sqlite3_stricmp(v, "yes") || !sqlite3_stricmp(v, "on") ) return 1;
  if( !sqlite3_stricmp(v, "false") || !strcmp(v, "0") || !sqlite3_stricmp(v, "no") || !sqlite3_stricmp(v, "off") ) return 0;
  return -1;
}

/* Parquet options from arguments. */
static int parquet_open(int nargs, const char *const *args, col_dataset **ds,
                        int *threads, char **errmsg){
  pq_options opt;
  char *path = 0;
  int rc = SQLITE_ERROR;
  memset(&opt, 0, sizeof(opt));
  *threads = columnar_default_threads();
  for(int i=0; i<nargs; i++){
    const char *k, *v; int nk, nv;
    if( !columnar_split_arg(args[i], &k, &nk, &v, &nv) ){
      if( path ){ *errmsg = sqlite3_mprintf("parquet: more than one file argument: %s", args[i]); goto parquet_done; }
      path = columnar_unquote(args[i], (int)strlen(args[i]));
      if( !path ) goto parquet_nomem;
      continue;
    }
    char *val = columnar_unquote(v, nv);
    if( !val ) goto parquet_nomem;
    int b = columnar_parse_bool(val);
    int bad = 0;
    if( nk==8 && !sqlite3_strnicmp(k, "filename", 8) ){
      sqlite3_free(path); path = val; val = 0;
    }else if( nk==7 && !sqlite3_strnicmp(k, "threads", 7) ){
      int t = atoi(val);
      if( t<1 || t>256 ) bad = 1; else *threads = t;
    }else if( nk==15 && !sqlite3_strnicmp(k, "filename_column", 15) ){
      if( b<0 ) bad = 1; else opt.filename_column = b;
    }else if( nk==16 && !sqlite3_strnicmp(k, "binary_as_string", 16) ){
      if( b<0 ) bad = 1; else opt.binary_as_string = b;
    }else if( nk==10 && !sqlite3_strnicmp(k, "verify_crc", 10) ){
      if( b<0 ) bad = 1; else opt.verify_crc = b;
    }else if( nk==7 && !sqlite3_strnicmp(k, "decimal", 7) ){
      if( !sqlite3_stricmp(val, "text") ) opt.decimal_text = 1;
      else if( !sqlite3_stricmp(val, "real") ) opt.decimal_text = 0;
      else bad = 1;
    }else{
      *errmsg = sqlite3_mprintf("parquet: unknown option %.*s", nk, k);
      sqlite3_free(val);
      goto parquet_done;
    }
    if( bad ){
      *errmsg = sqlite3_mprintf("parquet: bad value for %.*s: %s", nk, k, val);
      sqlite3_free(val);
      goto parquet_done;
    }
    sqlite3_free(val);
  }
  if( !path ){ *errmsg = sqlite3_mprintf("parquet: no file named (use parquet('path.parquet'))"); goto parquet_done; }
  opt.threads = *threads;
  col_error err; col_error_clear(&err);
  if( pq_dataset_open(path, &opt, ds, &err) ){
    *errmsg = sqlite3_mprintf("%s", err.msg);
    rc = err.code==COL_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
    goto parquet_done;
  }
  rc = SQLITE_OK;
  goto parquet_done;
parquet_nomem:
  rc = SQLITE_NOMEM;
parquet_done:
  sqlite3_free(path);
  return rc;
}

/* csv.c's schema= gives names: take them from a CREATE TABLE text. Very
** small parser: the identifiers before each top-level comma. */
static int csv_schema_names(const char *schema, csv_options *o){
  const char *p = strchr(schema, '(');
  if( !p ) return SQLITE_OK;
  p++;
  int depth = 0, n = 0;
  char **names = malloc(sizeof(char*)*1024);
  if( !names ) return SQLITE_NOMEM;
  const char *start = p;
  for(; *p && n<1024; p++){
    if( *p=='(' ) depth++;
    else if( *p==')' && depth>0 ) depth--;
    else if( (*p==',' || *p==')') && depth==0 ){
      const char *s = start;
      while( *s==' ' || *s=='\n' || *s=='\t' ) s++;
      const char *e = s;
      if( *s=='"' || *s=='\'' || *s=='`' || *s=='[' ){
        char q = *s=='[' ? ']' : *s;
        e = s+1;
        while( e<p && *e!=q ) e++;
        names[n++] = strndup(s+1, (size_t)(e-s-1));
      }else{
        while( e<p && *e!=' ' && *e!='\t' && *e!='\n' && *e!=',' && *e!=')' ) e++;
        names[n++] = strndup(s, (size_t)(e-s));
      }
      start = p+1;
      if( *p==')' ) break;
    }
  }
  o->column_names = names;
  o->ncolumn_names = n;
  return SQLITE_OK;
}

static int csv_open(int nargs, const char *const *args, col_dataset **ds,
                    int *threads, char **errmsg){
  csv_options o;
  col_error err; col_error_clear(&err);
  csv_options_init(&o);
  int rc = SQLITE_OK;
  if( csv_options_parse(nargs, args, &o, &err) ){
    *errmsg = sqlite3_mprintf("%s", err.msg);
    rc = SQLITE_ERROR;
    goto csv_done;
  }
  *threads = o.threads>0 ? o.threads : columnar_default_threads();
  if( o.schema && csv_schema_names(o.schema, &o) ){ rc = SQLITE_NOMEM; goto csv_done; }
  if( csv_dataset_open(&o, ds, &err) ){
    *errmsg = sqlite3_mprintf("%s", err.msg);
    rc = err.code==COL_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
  }
csv_done:
  csv_options_free(&o);
  return rc;
}

int scan_dataset_open(int kind, int nargs, const char *const *args,
                      col_dataset **ds, int *threads, char **errmsg){
  *ds = 0;
  if( kind==SCAN_KIND_PARQUET ) return parquet_open(nargs, args, ds, threads, errmsg);
  return csv_open(nargs, args, ds, threads, errmsg);
}

/* ---- the module ------------------------------------------------------- */

static int scan_connect_impl(sqlite3 *db, void *aux, int argc, const char *const *argv,
                             sqlite3_vtab **out, char **errmsg, int kind){
  columnar_conn *cc = aux;
  scan_table *t = sqlite3_malloc64(sizeof(*t));
  sqlite3_str *s = 0;
  int rc;
  if( !t ) return SQLITE_NOMEM;
  memset(t, 0, sizeof(*t));
  t->db = db;
  t->cc = cc;
  t->kind = kind;
  rc = scan_dataset_open(kind, argc-3, argv+3, &t->ds, &t->threads, errmsg);
  if( rc ) goto connect_error;
  t->nargs = argc-3;
  t->args = sqlite3_malloc64(sizeof(char*)*(sqlite3_uint64)(t->nargs+1));
  if( !t->args ){ rc = SQLITE_NOMEM; goto connect_error; }
  memset(t->args, 0, sizeof(char*)*(size_t)(t->nargs+1));
  for(int i=0; i<t->nargs; i++){
    if( !(t->args[i] = sqlite3_mprintf("%s", argv[3+i])) ){ rc = SQLITE_NOMEM; goto connect_error; }
  }
  t->name = sqlite3_mprintf("%s", argv[2]);
  if( !t->name ){ rc = SQLITE_NOMEM; goto connect_error; }
  s = sqlite3_str_new(db);
  sqlite3_str_appendall(s, "CREATE TABLE x(");
  for(int i=0; i<t->ds->schema.n; i++){
    const col_def *cd = &t->ds->schema.cols[i];
    sqlite3_str_appendf(s, "%s\"%w\" %s", i ? ", " : "", cd->name, cd->decl ? cd->decl : "");
  }
  sqlite3_str_appendall(s, ")");
  char *sql = sqlite3_str_finish(s);
  s = 0;
  if( !sql ){ rc = SQLITE_NOMEM; goto connect_error; }
  rc = sqlite3_declare_vtab(db, sql);
  sqlite3_free(sql);
  if( rc ){ *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db)); goto connect_error; }
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  rc = columnar_conn_add(cc, argv[2], t, t, &t->last, &t->have_last);
  if( rc ) goto connect_error;
  *out = &t->base;
  return SQLITE_OK;
connect_error:
  col_dataset_release(t->ds);
  if( t->args ) for(int i=0; i<t->nargs; i++) sqlite3_free(t->args[i]);
  sqlite3_free(t->args);
  sqlite3_free(t->name);
  sqlite3_free(t);
  return rc;
}

static int parquet_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                           sqlite3_vtab **out, char **errmsg){
  return scan_connect_impl(db, aux, argc, argv, out, errmsg, SCAN_KIND_PARQUET);
}
static int csv_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                       sqlite3_vtab **out, char **errmsg){
  return scan_connect_impl(db, aux, argc, argv, out, errmsg, SCAN_KIND_CSV);
}

static int scan_disconnect(sqlite3_vtab *vt){
  scan_table *t = (scan_table*)vt;
  columnar_conn_remove(t->cc, t);
  col_dataset_release(t->ds);
  for(int i=0; i<t->nargs; i++) sqlite3_free(t->args[i]);
  sqlite3_free(t->args);
  sqlite3_free(t->name);
  sqlite3_free(t);
  return SQLITE_OK;
}

static int scan_best_index(sqlite3_vtab *vt, sqlite3_index_info *info){
  scan_table *t = (scan_table*)vt;
  return scan_plan_best_index(t->cc->db, t->ds, t->cc->dialect.or_in_keeps_collation, info);
}

static int scan_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out){
  scan_table *t = (scan_table*)vt;
  scan_cursor *c = sqlite3_malloc64(sizeof(*c));
  if( !c ) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  c->colmap = sqlite3_malloc64(sizeof(int)*(sqlite3_uint64)(t->ds->schema.n+1));
  if( !c->colmap ){ sqlite3_free(c); return SQLITE_NOMEM; }
  c->eof = 1;
  *out = &c->base;
  return SQLITE_OK;
}

/* Remember what a finished (or abandoned) scan did, for scan_stats(). */
static void cursor_end_scan(scan_cursor *c){
  if( c->topk ){
    scan_table *t = (scan_table*)c->base.pVtab;
    t->last = *scan_topk_stats(c->topk);
    t->have_last = 1;
  }
  if( c->src ){
    scan_table *t = (scan_table*)c->base.pVtab;
    t->last = c->src->stats;
    t->have_last = 1;
    c->src->m->close(c->src);
    c->src = 0;
  }
  scan_topk_free(c->topk);
  c->topk = 0;
  sqlite3_finalize(c->probe);
  c->probe = 0;
  scan_plan_free(&c->plan);
  c->batch = 0;
}

static int cursor_error(scan_cursor *c, const col_error *err){
  scan_table *t = (scan_table*)c->base.pVtab;
  sqlite3_free(t->base.zErrMsg);
  t->base.zErrMsg = sqlite3_mprintf("%s", err->msg);
  return err->code==COL_ENOMEM ? SQLITE_NOMEM : err->code==COL_EINTERRUPT ? SQLITE_INTERRUPT : SQLITE_ERROR;
}

static int scan_close(sqlite3_vtab_cursor *cur){
  scan_cursor *c = (scan_cursor*)cur;
  cursor_end_scan(c);
  sqlite3_free(c->colmap);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* Move to the next batch with a live row. */
static int cursor_fetch(scan_cursor *c){
  for(;;){
    col_batch *b = 0;
    int rc = c->src->m->next(c->src, &b);
    if( rc ){
      scan_table *t = (scan_table*)c->base.pVtab;
      sqlite3_free(t->base.zErrMsg);
      t->base.zErrMsg = sqlite3_mprintf("%s", c->src->err.msg);
      return rc==COL_ENOMEM ? SQLITE_NOMEM : rc==COL_EINTERRUPT ? SQLITE_INTERRUPT : SQLITE_ERROR;
    }
    if( !b ){ c->eof = 1; c->batch = 0; return SQLITE_OK; }
    if( b->nsel>0 ){
      /* SQLite reads a row at a time: with many columns, more streams than
      ** the prefetchers follow (reader/warm.h) */
      if( b->ncols>=SCAN_WARM_COLS && (uint64_t)b->nsel*2 >= b->n ) col_batch_warm(b);
      c->batch = b; c->pos = 0;
      return SQLITE_OK;
    }
  }
}

static int scan_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                       int argc, sqlite3_value **argv){
  scan_cursor *c = (scan_cursor*)cur;
  scan_table *t = (scan_table*)cur->pVtab;
  char *errmsg = 0;
  (void)idxNum;
  cursor_end_scan(c);
  c->eof = 0;
  c->rowid = 0;
  col_dialect dialect;
  columnar_dialect_now(t->cc, idxStr && strstr(idxStr, ";k"), &dialect);
  int rc = scan_plan_build(t->ds, idxStr, argc, argv, t->threads, &dialect, &c->plan, &errmsg);
  if( rc ){
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = errmsg;
    return rc;
  }
  for(int i=0; i<=t->ds->schema.n; i++) c->colmap[i] = -1;
  for(int k=0; k<c->plan.spec.nproj; k++) c->colmap[c->plan.spec.proj[k]] = k;
  col_error err; col_error_clear(&err);
  if( c->plan.nsort ){
    c->probe = columnar_probe_open(t->db);
    if( scan_topk_open(t->ds, &c->plan.spec, c->plan.sort, c->plan.nsort, c->plan.sort_k,
                       c->plan.sort_first,
                       columnar_probe_interrupted, c->probe, &c->topk, &err) ){
      return cursor_error(c, &err);
    }
    c->eof = scan_topk_eof(c->topk);
    return SQLITE_OK;
  }
  if( t->ds->m->scan(t->ds, &c->plan.spec, &c->src, &err) ){
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = sqlite3_mprintf("%s", err.msg);
    return err.code==COL_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
  }
  return cursor_fetch(c);
}

static int scan_next(sqlite3_vtab_cursor *cur){
  scan_cursor *c = (scan_cursor*)cur;
  c->rowid++;
  if( c->topk ){
    col_error err; col_error_clear(&err);
    if( scan_topk_next(c->topk, &err) ) return cursor_error(c, &err);
    c->eof = scan_topk_eof(c->topk);
    return SQLITE_OK;
  }
  if( ++c->pos < c->batch->nsel ) return SQLITE_OK;
  return cursor_fetch(c);
}

static int scan_eof(sqlite3_vtab_cursor *cur){
  return ((scan_cursor*)cur)->eof;
}

static int scan_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col){
  scan_cursor *c = (scan_cursor*)cur;
  int k = c->colmap[col];
  if( k>=0 && c->topk ){
    const pred_value *v = scan_topk_value(c->topk, k);
    switch( v->type ){
      case CV_INT: sqlite3_result_int64(ctx, v->i); break;
      case CV_REAL: sqlite3_result_double(ctx, v->f); break;
      case CV_TEXT: sqlite3_result_text(ctx, v->p, (int)v->n, SQLITE_TRANSIENT); break;
      case CV_BLOB: sqlite3_result_blob(ctx, v->p, (int)v->n, SQLITE_TRANSIENT); break;
      default: break;
    }
    return SQLITE_OK;
  }
  if( k<0 || !c->batch ) return SQLITE_OK;   /* NULL */
  if( c->src->m->fill && c->batch->pending && c->batch->pending[k] ){
    int rc = c->src->m->fill(c->src, k);
    if( rc ){
      scan_table *t = (scan_table*)cur->pVtab;
      sqlite3_free(t->base.zErrMsg);
      t->base.zErrMsg = sqlite3_mprintf("%s", c->src->err.msg);
      return rc==COL_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
    }
  }
  const col_vector *v = &c->batch->cols[k];
  uint32_t row = c->batch->sel ? c->batch->sel[c->pos] : c->pos;
  switch( cv_tag(v, row) ){
    case CV_INT: sqlite3_result_int64(ctx, cv_int(v, row)); break;
    case CV_REAL: sqlite3_result_double(ctx, cv_real(v, row)); break;
    case CV_TEXT: { cv_str s = cv_bytes(v, row); sqlite3_result_text(ctx, s.p ? s.p : "", (int)s.n, SQLITE_TRANSIENT); break; }
    case CV_BLOB: { cv_str s = cv_bytes(v, row); sqlite3_result_blob(ctx, s.p ? s.p : "", (int)s.n, SQLITE_TRANSIENT); break; }
    default: break;
  }
  return SQLITE_OK;
}

/* The row's position in the dataset, the same in every scan: SQLite's
** multi-index OR runs one scan per OR branch and merges them by rowid. */
static int scan_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid){
  scan_cursor *c = (scan_cursor*)cur;
  const col_batch *b = c->batch;
  if( c->topk ){ *rowid = scan_topk_rowid(c->topk); return SQLITE_OK; }
  if( !b ){ *rowid = c->rowid; return SQLITE_OK; }
  *rowid = b->first_row + (b->sel ? b->sel[c->pos] : c->pos);
  return SQLITE_OK;
}

static const sqlite3_module parquet_module = {
  0, parquet_connect, parquet_connect, scan_best_index, scan_disconnect,
  scan_disconnect, scan_open, scan_close, scan_filter, scan_next, scan_eof,
  scan_column, scan_rowid, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};
static const sqlite3_module csv_module = {
  0, csv_connect, csv_connect, scan_best_index, scan_disconnect,
  scan_disconnect, scan_open, scan_close, scan_filter, scan_next, scan_eof,
  scan_column, scan_rowid, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

int columnar_register_scan(sqlite3 *db, columnar_conn *cc, void (*destroy)(void*)){
  int rc = sqlite3_create_module_v2(db, "parquet", &parquet_module, cc, destroy);
  if( rc==SQLITE_OK ) rc = sqlite3_create_module_v2(db, "csv", &csv_module, cc, 0);
  return rc;
}
