/*
** csv_scan.c — time the CSV reader alone (no SQLite): for profiling the
** reader with perf/callgrind apart from the virtual table.
**
**   cc -O2 -g -D_GNU_SOURCE -Ireader bench/csv/csv_scan.c build/libcolumnar.a \
**      -lzstd -lsnappy -lz -llz4 -lbrotlidec -lxxhash -lpthread -lm -o /tmp/csv_scan
**   /tmp/csv_scan FILE THREADS COLS [TRIES]
**     COLS  comma-separated column names, '' for none (count(*)), '*' for all
**
** Every value is consumed (numbers summed, strings' lengths added). Prints
** per try: wall seconds, CPU seconds (user+sys), MB/s; then max RSS.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "../../reader/csv/csv.h"

static double now(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec/1e9;
}
static double cpu(void){
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec/1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec/1e6;
}

int main(int argc, char **argv){
  if( argc<4 ){ fprintf(stderr, "usage: %s FILE THREADS COLS [TRIES]\n", argv[0]); return 2; }
  int threads = atoi(argv[2]);
  int tries = argc>4 ? atoi(argv[4]) : 3;
  col_error err; col_error_clear(&err);
  csv_options o; csv_options_init(&o);
  char a0[4096]; snprintf(a0, sizeof(a0), "'%s'", argv[1]);
  const char *args[] = { a0, "header=true" };
  if( csv_options_parse(2, args, &o, &err) ){ fprintf(stderr, "%s\n", err.msg); return 1; }
  col_dataset *ds;
  if( csv_dataset_open(&o, &ds, &err) ){ fprintf(stderr, "%s\n", err.msg); return 1; }
  csv_options_free(&o);
  int proj[4096], np = 0;
  if( strcmp(argv[3], "*")==0 ){
    for(int i=0; i<ds->schema.n; i++) proj[np++] = i;
  }else if( argv[3][0] ){
    char *s = strdup(argv[3]);
    for(char *t = strtok(s, ","); t; t = strtok(0, ",")){
      int k = -1;
      for(int i=0; i<ds->schema.n; i++) if( strcmp(ds->schema.cols[i].name, t)==0 ) k = i;
      if( k<0 ){ fprintf(stderr, "no column %s\n", t); return 1; }
      proj[np++] = k;
    }
    free(s);
  }
  struct stat st; stat(argv[1], &st);
  double mb = st.st_size/1e6;
  for(int t=0; t<tries; t++){
    scan_spec spec; memset(&spec, 0, sizeof(spec));
    spec.nproj = np; spec.proj = proj; spec.threads = threads;
    batch_source *src;
    double t0 = now(), c0 = cpu();
    if( ds->m->scan(ds, &spec, &src, &err) ){ fprintf(stderr, "%s\n", err.msg); return 1; }
    int64_t rows = 0; double sum = 0;
    col_batch *b;
    int rc;
    while( (rc = src->m->next(src, &b))==0 && b ){
      rows += b->nsel;
      for(int c=0; c<b->ncols; c++){
        col_vector *v = &b->cols[c];
        for(uint32_t r=0; r<b->n; r++){
          if( v->tags && v->tags[r]==CV_NULL ) continue;
          if( v->form==CV_CONST ) break;
          if( v->type==CV_INT ) sum += (double)v->i64[r];
          else if( v->type==CV_REAL ) sum += v->f64[r];
          else if( v->str ) sum += v->str[r].n;
        }
      }
    }
    if( rc ){ fprintf(stderr, "%s\n", src->err.msg); return 1; }
    src->m->close(src);
    double w = now()-t0, c = cpu()-c0;
    printf("wall=%.3f cpu=%.3f MB/s(wall)=%.0f rows=%lld sum=%.6g\n", w, c, mb/w, (long long)rows, sum);
  }
  struct rusage ru; getrusage(RUSAGE_SELF, &ru);
  printf("maxrss_kb=%ld\n", ru.ru_maxrss);
  ds->m->close(ds);
  return 0;
}
