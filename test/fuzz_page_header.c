/*
** fuzz_page_header.c — fuzz target for the small thrift structures read
** from inside a Parquet file: PageHeader, OffsetIndex, ColumnIndex and
** BloomFilterHeader (reader/parquet/footer.c). The same bytes go through
** all four decoders; each must succeed with results that stay inside the
** input, or fail with a message.
**
** Seeds: test/corpus/fuzz_page_header/ (page headers of small
** parquet-testing files, written by test_footer with FOOTER_SEEDS=dir).
*/
#include "../reader/parquet/meta.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fuzz_check_bytes(pq_bytes b, const uint8_t *buf, size_t len){
  if( b.n==0 ) return;
  if( b.p < buf || b.p + b.n > buf + len ) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  col_error e;
  size_t hl;

  pq_page_header h;
  col_error_clear(&e);
  if( pq_page_header_decode(data, size, &h, &hl, &e)==COL_OK ){
    if( hl==0 || hl>size ) abort();
    if( h.compressed_page_size<0 || h.uncompressed_page_size<0 ) abort();
    if( h.has_data_page_header ){
      fuzz_check_bytes(h.data_page_header.statistics.max_value, data, size);
      fuzz_check_bytes(h.data_page_header.statistics.min, data, size);
    }
    if( h.has_data_page_header_v2 ){
      fuzz_check_bytes(h.data_page_header_v2.statistics.min_value, data, size);
    }
  }else if( hl!=0 || e.msg[0]==0 ){
    abort();
  }

  pq_offset_index oi;
  col_error_clear(&e);
  if( pq_offset_index_decode(data, size, &oi, &e)==COL_OK ){
    volatile int64_t sink = 0;
    for(int32_t i=0; i<oi.n_page_locations; i++){
      sink += oi.page_locations[i].offset;
    }
    (void)sink;
    pq_offset_index_free(&oi);
  }else if( oi.owner!=0 || e.msg[0]==0 ){
    abort();
  }

  pq_column_index ci;
  col_error_clear(&e);
  if( pq_column_index_decode(data, size, &ci, &e)==COL_OK ){
    volatile int64_t sink = 0;
    for(int32_t i=0; i<ci.n_pages; i++){
      sink += ci.null_pages[i];
      fuzz_check_bytes(ci.min_values[i], data, size);
      fuzz_check_bytes(ci.max_values[i], data, size);
      if( ci.has_null_counts ) sink += ci.null_counts[i];
    }
    (void)sink;
    pq_column_index_free(&ci);
  }else if( ci.owner!=0 || e.msg[0]==0 ){
    abort();
  }

  pq_bloom_filter_header bh;
  col_error_clear(&e);
  if( pq_bloom_filter_header_decode(data, size, &bh, &hl, &e)==COL_OK ){
    if( hl==0 || hl>size || bh.num_bytes<0 ) abort();
  }else if( hl!=0 || e.msg[0]==0 ){
    abort();
  }
  return 0;
}
