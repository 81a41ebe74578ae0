/*
** fuzz_parquet.c — whole Parquet files through the reader.
**
** The input is a Parquet file (seeds: small fixtures, mutated by the driver).
** It is opened through a memfd, every column is scanned (first with
** timestamps as their stored integers, scan_spec.raw) with and without a
** predicate, and every value is touched so ASan sees a bad pointer. Two
** more passes scan as a top-k does (ext/scan_topk.c): a bound on one column
** (reader/bound.h), republished from each batch's last row, so the
** statistics the row groups are skipped by and the rows filtered by the
** bound are the input's, the second pass beside a LIKE on that column. Errors
** are fine; crashes, leaks, hangs and huge allocations are not.
*/
#include "../reader/parquet/parquet.h"
#include "../reader/predicate.h"
#include "../reader/bound.h"
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
    uint8_t *lazy = malloc((size_t)(n ? n : 1));
    for(int i=0; i<n; i++){ proj[i] = i; raw[i] = 1; lazy[i] = i & 1; }
    for(int pass=0; pass<5; pass++){
      if( pass>=3 && n==0 ) break;
      scan_spec spec;
      scan_pred pred;
      col_bound *bound = 0;
      int bcol = (int)(size % (size_t)(n ? n : 1));
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
        spec.lazy = lazy;   /* odd columns decoded in every other batch */
      }
      if( pass>=3 ){
        /* descending or not, NULLs first or not, by the input's size */
        bound = col_bound_new(bcol, (int)(size & 1), (int)((size >> 1) & 1));
        if( bound==0 ) break;
        spec.bound = bound;
        spec.threads = pass==4 ? 2 : 1;
        if( pass==4 ){
          pred.col = bcol; pred.op = PRED_LIKE;
          pred.v.type = CV_TEXT; pred.v.p = "%a%"; pred.v.n = 3;
          spec.npred = 1; spec.preds = &pred;
        }
      }
      batch_source *src = 0;
      col_error_clear(&err);
      if( ds->m->scan(ds, &spec, &src, &err)==COL_OK ){
        col_batch *b;
        int nb = 0;
        while( src->m->next(src, &b)==COL_OK && b ){
          int failed = 0;
          for(int k=0; k<b->ncols && src->m->fill && b->pending && (nb & 1) && !failed; k++){
            if( b->pending[k] ) failed = src->m->fill(src, k)!=COL_OK;
          }
          nb++;
          if( failed ) break;
          touch_batch(b);
          if( bound && b->nsel ){
            /* the column's value in the batch's last row (every column
            ** is emitted in order), as a top-k holding its k rows
            ** publishes the k-th */
            uint32_t r = b->sel ? b->sel[b->nsel-1] : b->nsel-1;
            pred_value pv = pred_value_of(&b->cols[bcol], r);
            if( pv.type!=CV_NULL ) col_bound_set(bound, &pv);
          }
        }
        src->m->close(src);
      }
      col_bound_free(bound);
    }
    free(proj); free(raw); free(lazy);
    ds->m->close(ds);
  }
  close(fd);
  return 0;
}
