/*
** dataset.c — csv_dataset_open: expand the glob, sniff the first file,
** build the schema; scans are serial or parallel (parallel.c) per spec.
**
** All files of a glob are one table: the dialect, header policy and types
** come from the first file (sorted by name) and every other file is read
** with them (a file that disagrees gets the usual type errors).
*/
#include "csv_impl.h"
#include "sniff.h"
#include "types.h"
#include <glob.h>
#include <stdlib.h>
#include <string.h>

/* Sample read from the first file for sniffing. */
#define CSV_SAMPLE_BYTES (4u<<20)

static void ds_close(col_dataset *base){
  csv_ds *ds = (csv_ds*)base;
  if( ds==0 ) return;
  for(int i=0; i<ds->nfiles; i++) free(ds->files[i]);
  free(ds->files);
  free(ds->sizes);
  free(ds->data);
  for(int i=0; i<ds->nnulls; i++) free(ds->nulls[i]);
  free(ds->nulls);
  free(ds->nulllen);
  free(ds->kinds);
  col_schema_free(&ds->base.schema);
  free(ds);
}

/* Fewer bytes to parse than this: no workers. Threads made for a small file
** cost more than they share out: counting the 55 KB demo file took 0.16 ms
** serially against 0.33 ms at threads=2, the first 2 MB of the hits CSV
** 1.44-1.47 ms against 1.48-1.62 ms; from 8 MB the workers win (7.3-7.4
** against 5.6-7.0 ms). The sanitizer build sets 0, so the suite's small
** files test the workers. */
#ifndef CSV_SERIAL_BYTES
# define CSV_SERIAL_BYTES (4 << 20)
#endif

static int ds_scan(col_dataset *base, const scan_spec *spec, batch_source **out,
                   col_error *err){
  csv_ds *ds = (csv_ds*)base;
  int threads = spec->threads>0 ? spec->threads : ds->threads;
  if( threads>1 && ds->all_raw && ds->base.total_bytes >= CSV_SERIAL_BYTES ){
    return csv_scan_parallel(ds, spec, threads, out, err);
  }
  return csv_scan_serial(ds, spec, out, err);
}

static double ds_estimate(col_dataset *base, const scan_spec *spec){
  csv_ds *ds = (csv_ds*)base;
  double rows = (double)ds->base.total_bytes / (ds->avg_record>1 ? ds->avg_record : 1);
  for(int i=0; i<spec->npred; i++){
    const scan_pred *p = &spec->preds[i];
    rows *= p->op==PRED_EQ || p->op==PRED_IS || p->op==PRED_IN ? 0.1 : 0.5;
  }
  if( spec->max_rows>0 && rows>(double)spec->max_rows ) rows = (double)spec->max_rows;
  return rows<1 ? 1 : rows;
}

static const int *ds_sorted_by(col_dataset *base, int *n, const int **desc){
  *n = 0;
  if( desc ) *desc = 0;
  return 0;
}

static const col_dataset_methods csv_ds_methods = {
  ds_scan, ds_estimate, ds_sorted_by, ds_close, 0, 0
};

/* Expand o->filename into ds->files. */
static int ds_glob(csv_ds *ds, const char *pattern, col_error *err){
  glob_t g;
  memset(&g, 0, sizeof(g));
  int rc = glob(pattern, 0, 0, &g);
  if( rc==GLOB_NOMATCH || (rc==0 && g.gl_pathc==0) ){
    globfree(&g);
    if( strpbrk(pattern, "*?[")==0 ){
      /* Not a pattern: let open() name the real problem. */
      ds->files = malloc(sizeof(char*));
      ds->sizes = calloc(1, sizeof(int64_t));
      if( !ds->files || !ds->sizes || !(ds->files[0] = strdup(pattern)) ){
        return col_error_set(err, COL_ENOMEM, "out of memory");
      }
      ds->nfiles = 1;
      return COL_OK;
    }
    return col_error_set(err, COL_EIO, "%s: no file matches", pattern);
  }
  if( rc!=0 ){
    globfree(&g);
    return col_error_set(err, COL_EIO, "%s: cannot expand the pattern", pattern);
  }
  ds->files = calloc(g.gl_pathc, sizeof(char*));
  ds->sizes = calloc(g.gl_pathc, sizeof(int64_t));
  if( !ds->files || !ds->sizes ){
    globfree(&g);
    return col_error_set(err, COL_ENOMEM, "out of memory");
  }
  for(size_t i=0; i<g.gl_pathc; i++){
    ds->files[i] = strdup(g.gl_pathv[i]);
    if( ds->files[i]==0 ){
      globfree(&g);
      return col_error_set(err, COL_ENOMEM, "out of memory");
    }
    ds->nfiles++;
  }
  globfree(&g);
  return COL_OK;
}

/* Size every file (total_bytes; all_raw). */
static int ds_sizes(csv_ds *ds, col_error *err){
  csv_input *in = 0;
  ds->all_raw = ds->nfiles>0;
  for(int i=0; i<ds->nfiles; i++){
    if( csv_input_open(ds->files[i], 0, 0, &in, err) ) return err->code;
    ds->sizes[i] = csv_input_size(in);
    if( csv_input_codec(in)!=CSV_RAW ) ds->all_raw = 0;
    ds->base.total_bytes += ds->sizes[i];
    csv_input_close(in);
    in = 0;
  }
  if( ds->nfiles==0 ) ds->base.total_bytes = (int64_t)ds->data_len;
  return COL_OK;
}

/* The first cap bytes of the first file (decompressed), or all of it. */
static int ds_sample(csv_ds *ds, size_t cap, char **buf, size_t *n, int *eof, int *codec,
                     col_error *err){
  csv_input *in = 0;
  *buf = 0;
  if( csv_input_open(ds->nfiles ? ds->files[0] : 0, ds->data, ds->data_len, &in, err) ){
    return err->code;
  }
  *codec = csv_input_codec(in);
  if( csv_input_codec(in)==CSV_RAW && csv_input_size(in)+1 < (int64_t)cap ){
    cap = (size_t)csv_input_size(in)+1;
  }
  char *b = malloc(cap);
  if( b==0 ){
    csv_input_close(in);
    return col_error_set(err, COL_ENOMEM, "out of memory");
  }
  size_t len = 0;
  *eof = 0;
  while( len<cap ){
    long k = csv_input_read(in, b+len, cap-len, err);
    if( k<0 ){ free(b); csv_input_close(in); return err->code; }
    if( k==0 ){ *eof = 1; break; }
    len += (size_t)k;
  }
  csv_input_close(in);
  *buf = b;
  *n = len;
  return COL_OK;
}

int csv_dataset_open(const csv_options *o, col_dataset **out, col_error *err){
  csv_sniff s;
  char *sample = 0;
  size_t nsample = 0;
  int eof = 0;
  memset(&s, 0, sizeof(s));
  *out = 0;
  csv_ds *ds = calloc(1, sizeof(*ds));
  if( ds==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  ds->base.m = &csv_ds_methods;
  ds->base.total_rows = -1;
  ds->filename_col = -1;
  if( o->data ){
    ds->data = malloc(o->data_len+1);
    if( ds->data==0 ) goto open_nomem;
    memcpy(ds->data, o->data, o->data_len);
    ds->data_len = o->data_len;
  }else if( o->filename ){
    if( ds_glob(ds, o->filename, err) ) goto open_error;
  }else{
    col_error_set(err, COL_ERROR, "csv: give a filename or data=");
    goto open_error;
  }
  ds->nulls = calloc((size_t)o->nnulls+1, sizeof(char*));
  ds->nulllen = calloc((size_t)o->nnulls+1, sizeof(uint32_t));
  if( !ds->nulls || !ds->nulllen ) goto open_nomem;
  for(int i=0; i<o->nnulls; i++){
    ds->nulls[i] = strdup(o->nulls[i]);
    if( ds->nulls[i]==0 ) goto open_nomem;
    ds->nulllen[i] = (uint32_t)strlen(o->nulls[i]);
    ds->nnulls++;
  }
  ds->skip = o->skip;
  ds->on_error = o->on_error;
  ds->all_text = o->all_text;
  ds->ragged_ok = o->ncolumns>0;
  ds->threads = o->threads;

  int codec = CSV_RAW;
  if( ds_sizes(ds, err) ) goto open_error;
  /* A sample that ends inside its first or second record (a quoted field
  ** of megabytes: a document, a JSON value) says nothing of the columns,
  ** and the scan would find more than it did: a larger one is read, up to
  ** the longest record the tokenizer takes. */
  for(size_t cap = CSV_SAMPLE_BYTES;; cap *= 4){
    if( ds_sample(ds, cap, &sample, &nsample, &eof, &codec, err) ) goto open_error;
    if( csv_sniff_sample(sample, nsample, eof, o, &s, err) ){
      col_error_prefix(err, "%s: ", ds->nfiles ? ds->files[0] : "data");
      goto open_error;
    }
    free(sample);
    sample = 0;
    if( eof || s.complete>=2 || cap>=CSV_MAX_RECORD ) break;
    csv_sniff_free(&s);
  }
  ds->d = s.d;
  ds->header = s.header;
  ds->ncols = s.ncols;
  ds->avg_record = s.avg_record;
  /* total_bytes counts compressed bytes: guess 4x for the estimate. */
  if( codec!=CSV_RAW ) ds->avg_record /= 4;
  ds->kinds = s.kinds;
  s.kinds = 0;
  int nschema = s.ncols + (o->filename_column ? 1 : 0);
  ds->base.schema.cols = calloc((size_t)nschema, sizeof(col_def));
  if( ds->base.schema.cols==0 ) goto open_nomem;
  ds->base.schema.n = nschema;
  for(int j=0; j<s.ncols; j++){
    col_def *c = &ds->base.schema.cols[j];
    c->name = s.names[j];
    s.names[j] = 0;
    c->decl = csv_type_decl(ds->kinds[j]);
    c->type = ds->kinds[j]==CSV_T_INT || ds->kinds[j]==CSV_T_BOOL ? CV_INT
            : ds->kinds[j]==CSV_T_REAL ? CV_REAL : CV_TEXT;
    c->may_text = c->type!=CV_TEXT && ds->on_error==CSV_ON_ERROR_TEXT;
  }
  if( o->filename_column ){
    col_def *c = &ds->base.schema.cols[s.ncols];
    c->name = strdup("filename");
    if( c->name==0 ) goto open_nomem;
    c->decl = "TEXT";
    c->type = CV_TEXT;
    ds->filename_col = s.ncols;
  }
  csv_sniff_free(&s);
  *out = &ds->base;
  return COL_OK;
open_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory");
open_error:
  free(sample);
  csv_sniff_free(&s);
  ds_close(&ds->base);
  return err->code;
}
