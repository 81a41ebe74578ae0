/*
** fuzz_parquet.c — whole Parquet files through the reader.
**
** The input is a Parquet file (seeds: small fixtures, mutated by the driver).
** It is opened through a memfd, every column is scanned (first with
** timestamps as their stored integers, scan_spec.raw) with and without a
** predicate, and every value is touched so ASan sees a bad pointer. Errors
** are fine; crashes, leaks, hangs and huge allocations are not.
*/
#include "../reader/parquet/parquet.h"
#include "../reader/predicate.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void touch_batch(const col_batch *b){
  volatile unsigned sink = 0;
  for(int c=0; c<b->ncols; c++){
    for(uint32_t k=0; k<b->nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      switch( cv_tag(&b->cols[c], r) ){
        case CV_INT: sink ^= (unsigned)cv_int(&b->cols[c], r); break;
        case CV_REAL: sink ^= (unsigned)(cv_real(&b->cols[c], r)!=0); break;
        case CV_TEXT: case CV_BLOB: {
          cv_str s = cv_bytes(&b->cols[c], r);
          for(uint32_t i=0; i<s.n; i++) sink ^= (unsigned char)s.p[i];
          break;
        }
      }
    }
  }
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  int fd = memfd_create("fuzz.parquet", 0);
  if( fd<0 ) return 0;
  if( size && write(fd, data, size)!=(ssize_t)size ){ close(fd); return 0; }
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  pq_options opt;
  memset(&opt, 0, sizeof(opt));
  col_dataset *ds = 0;
  col_error err;
  col_error_clear(&err);
  if( pq_dataset_open(path, &opt, &ds, &err)==COL_OK ){
    int n = ds->schema.n;
    int *proj = malloc(sizeof(int)*(size_t)(n ? n : 1));
    uint8_t *raw = malloc((size_t)(n ? n : 1));
    for(int i=0; i<n; i++){ proj[i] = i; raw[i] = 1; }
    for(int pass=0; pass<3; pass++){
      scan_spec spec;
      scan_pred pred;
      memset(&spec, 0, sizeof(spec));
      memset(&pred, 0, sizeof(pred));
      spec.nproj = pass==1 ? 0 : n;
      spec.proj = proj;
      spec.batch_size = 100;
      spec.threads = pass==2 ? 2 : 1;
      spec.raw = pass==0 ? raw : 0;   /* timestamps as their integers */
      if( pass==2 && n>0 ){
        pred.col = 0; pred.op = PRED_NOTNULL; pred.exact = 1;
        spec.npred = 1; spec.preds = &pred;
      }
      batch_source *src = 0;
      col_error_clear(&err);
      if( ds->m->scan(ds, &spec, &src, &err)==COL_OK ){
        col_batch *b;
        while( src->m->next(src, &b)==COL_OK && b ) touch_batch(b);
        src->m->close(src);
      }
    }
    free(proj); free(raw);
    ds->m->close(ds);
  }
  close(fd);
  return 0;
}
