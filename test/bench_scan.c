/*
** bench_scan.c — time the Parquet reader alone (no SQLite) decoding some
** columns, for bench/run.sh's "reader vs DuckDB" comparison.
**
**   build/bench_scan FILE THREADS COLS [TRIES]
**     COLS    comma-separated column names, e.g. UserID,ResolutionWidth,URL
**     TRIES   full scans (default 3); the best time is reported
**
** Every live value is consumed: INTEGER/REAL values are summed, TEXT/BLOB
** values contribute their byte length (so string columns cost what
** sum(length(col)) needs). Output, one line:
**   best=<s> runs=<s,s,s> rows=<n> sums=<a,b,...> maxrss_kb=<n>
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "../reader/parquet/parquet.h"

static double now(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec/1e9;
}

int main(int argc, char **argv){
  if( argc<4 ){
    fprintf(stderr, "usage: %s FILE THREADS COLS [TRIES]\n", argv[0]);
    return 2;
  }
  const char *file = argv[1];
  int threads = atoi(argv[2]);
  int tries = argc>4 ? atoi(argv[4]) : 3;
  col_error err;
  col_error_clear(&err);
  pq_options opt;
  memset(&opt, 0, sizeof(opt));
  opt.threads = threads;
  col_dataset *ds = 0;
  if( pq_dataset_open(file, &opt, &ds, &err)!=COL_OK ){
    fprintf(stderr, "open: %s\n", err.msg);
    return 1;
  }
  int proj[64], nproj = 0;
  char *cols = strdup(argv[3]);
  for(char *tok = strtok(cols, ","); tok; tok = strtok(0, ",")){
    int found = -1;
    for(int c=0; c<ds->schema.n; c++){
      if( strcmp(ds->schema.cols[c].name, tok)==0 ){ found = c; break; }
    }
    if( found<0 || nproj>=64 ){ fprintf(stderr, "no column %s\n", tok); return 1; }
    proj[nproj++] = found;
  }
  double best = 1e99;
  char runs[512]; runs[0] = 0;
  int64_t rows = 0;
  double sums[64];
  for(int t=0; t<tries; t++){
    scan_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.nproj = nproj;
    spec.proj = proj;
    spec.threads = threads;
    batch_source *src = 0;
    double t0 = now();
    if( ds->m->scan(ds, &spec, &src, &err)!=COL_OK ){
      fprintf(stderr, "scan: %s\n", err.msg);
      return 1;
    }
    uint64_t isum[64]; double fsum[64];
    memset(isum, 0, sizeof(isum)); memset(fsum, 0, sizeof(fsum));
    rows = 0;
    for(;;){
      col_batch *b = 0;
      if( src->m->next(src, &b)!=COL_OK ){
        fprintf(stderr, "next: %s\n", src->err.msg);
        return 1;
      }
      if( b==0 ) break;
      rows += b->nsel;
      for(int c=0; c<b->ncols; c++){
        const col_vector *v = &b->cols[c];
        const col_vector *vals = cv_values(v);
        int simple = v->form==CV_FLAT && v->tags==0 && b->sel==0;
        if( simple && v->type==CV_INT ){
          uint64_t s = 0;
          for(uint32_t i=0; i<b->n; i++) s += (uint64_t)v->i64[i];
          isum[c] += s;
          continue;
        }
        for(uint32_t k=0; k<b->nsel; k++){
          uint32_t i = b->sel ? b->sel[k] : k;
          switch( cv_tag(v, i) ){
            case CV_INT:  isum[c] += (uint64_t)vals->i64[cv_slot(v, i)]; break;
            case CV_REAL: fsum[c] += vals->f64[cv_slot(v, i)]; break;
            case CV_TEXT: case CV_BLOB: isum[c] += vals->str[cv_slot(v, i)].n; break;
            default: break;
          }
        }
      }
    }
    double dt = now() - t0;
    src->m->close(src);
    for(int c=0; c<nproj; c++) sums[c] = (double)(int64_t)isum[c] + fsum[c];
    if( dt<best ) best = dt;
    size_t len = strlen(runs);
    snprintf(runs+len, sizeof(runs)-len, "%s%.4f", t ? "," : "", dt);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("best=%.4f runs=%s rows=%lld sums=", best, runs, (long long)rows);
  for(int c=0; c<nproj; c++) printf("%s%.17g", c ? "," : "", sums[c]);
  printf(" maxrss_kb=%ld\n", ru.ru_maxrss);
  ds->m->close(ds);
  free(cols);
  return 0;
}
