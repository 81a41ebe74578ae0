/*
** fuzz_footer.c — fuzz target for pq_file_meta_decode (reader/parquet/
** footer.c over thrift.c): arbitrary bytes must decode or give COL_ERROR
** with a message, never crash, hang or allocate beyond what the input can
** justify. On success every array is walked so ASan sees a bad pointer or
** length, and every string must lie inside the input.
**
** Seeds: test/corpus/fuzz_footer/ (real footers of small parquet-testing
** files, written by test_footer with FOOTER_SEEDS=dir).
*/
#include "../reader/parquet/meta.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A string must point into [buf, buf+len). */
static void fuzz_check_bytes(pq_bytes b, const uint8_t *buf, size_t len){
  if( b.n==0 ) return;
  if( b.p < buf || b.p + b.n > buf + len ) abort();
}

static void fuzz_check_stats(const pq_statistics *s, const uint8_t *buf,
                             size_t len){
  fuzz_check_bytes(s->max, buf, len);
  fuzz_check_bytes(s->min, buf, len);
  fuzz_check_bytes(s->max_value, buf, len);
  fuzz_check_bytes(s->min_value, buf, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  pq_file_meta m;
  col_error e;
  col_error_clear(&e);
  if( pq_file_meta_decode(data, size, &m, &e)!=COL_OK ){
    if( e.msg[0]==0 || m.owner!=0 ) abort();
    return 0;
  }
  for(int32_t i=0; i<m.n_schema; i++){
    fuzz_check_bytes(m.schema[i].name, data, size);
  }
  for(int32_t g=0; g<m.n_row_groups; g++){
    const pq_row_group *rg = &m.row_groups[g];
    for(int32_t c=0; c<rg->n_columns; c++){
      const pq_column_chunk *cc = &rg->columns[c];
      const pq_column_meta *cm = &cc->meta_data;
      fuzz_check_bytes(cc->file_path, data, size);
      for(int32_t k=0; k<cm->n_path; k++){
        fuzz_check_bytes(cm->path_in_schema[k], data, size);
      }
      volatile int32_t sink = 0;
      for(int32_t k=0; k<cm->n_encodings; k++) sink += cm->encodings[k];
      for(int32_t k=0; k<cm->n_encoding_stats; k++){
        sink += cm->encoding_stats[k].count;
      }
      (void)sink;
      if( cm->has_statistics ) fuzz_check_stats(&cm->statistics, data, size);
    }
    volatile int32_t sink = 0;
    for(int32_t k=0; k<rg->n_sorting_columns; k++){
      sink += rg->sorting_columns[k].column_idx;
    }
    (void)sink;
  }
  for(int32_t i=0; i<m.n_key_value; i++){
    fuzz_check_bytes(m.key_value[i].key, data, size);
    fuzz_check_bytes(m.key_value[i].value, data, size);
  }
  volatile int32_t sink = 0;
  for(int32_t i=0; i<m.n_column_orders; i++) sink += m.column_orders[i];
  (void)sink;
  fuzz_check_bytes(m.created_by, data, size);
  pq_file_meta_free(&m);
  return 0;
}
