/*
** fuzz_byte_stream_split.c — fuzz target for BYTE_STREAM_SPLIT
** (reader/parquet/byte_stream_split.c).
**
** Input: byte 0 the element width (0..31; 2, 4 and 8 take the fast paths),
** bytes 1..3 the value count (capped at 100000); the rest is the encoded
** data. The output is malloc'd at exactly n*w bytes and checked against a
** naive interleave.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/parquet/encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<4 ) return 0;
  size_t w = data[0] % 32;
  size_t n = ((size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16) % 100001;
  /* Half the time, make n fit the data so the decode path runs. */
  if( (data[3] & 0x80) && w ) n = (size - 4) / w;
  const uint8_t *buf = data + 4;
  size_t len = size - 4;
  uint8_t *o = malloc(n*w!=0 ? n*w : 1);
  col_error e;
  col_error_clear(&e);
  if( o && pq_byte_stream_split_decode(buf, len, w, o, n, &e)==COL_OK ){
    for(size_t i=0; i<n; i++){
      for(size_t k=0; k<w; k++) if( o[i*w + k]!=buf[k*n + i] ) abort();
    }
  }
  free(o);
  return 0;
}
