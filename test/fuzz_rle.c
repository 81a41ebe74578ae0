/*
** fuzz_rle.c — fuzz target for the RLE/bit-packed hybrid, dictionary
** indexes and deprecated BIT_PACKED decoders (reader/parquet/rle.c).
**
** Input: byte 0 picks the decoder, byte 1 the bit width, bytes 2..4 the
** value count (capped at 100000); the rest is the encoded stream. Outputs
** are malloc'd at exactly n entries so ASan sees any overrun, and the u32
** and u8 hybrid decoders must agree whenever both succeed.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/parquet/encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<5 ) return 0;
  int mode = data[0] % 4;
  int bw = data[1] % 40;          /* a few out-of-range widths too */
  size_t n = ((size_t)data[2] | (size_t)data[3] << 8 | (size_t)data[4] << 16) % 100001;
  const uint8_t *buf = data + 5;
  size_t len = size - 5;
  uint32_t *o32 = malloc((n ? n : 1) * sizeof(uint32_t));
  uint8_t *o8 = malloc(n ? n : 1);
  col_error e;
  size_t used = 0;
  if( o32==0 || o8==0 ) goto done;
  switch( mode ){
    case 0: {
      col_error_clear(&e);
      int rc = pq_rle_decode(buf, len, bw, o32, n, &used, &e);
      if( rc==COL_OK && used>len ) abort();
      if( rc!=COL_OK && e.msg[0]==0 ) abort();
      if( rc==COL_OK && bw<=8 ){
        col_error_clear(&e);
        if( pq_rle_decode_u8(buf, len, bw, o8, n, 0, &e)!=COL_OK ) abort();
        for(size_t i=0; i<n; i++) if( o8[i]!=o32[i] ) abort();
      }
      break;
    }
    case 1:
      col_error_clear(&e);
      if( pq_rle_decode_u8(buf, len, bw, o8, n, &used, &e)==COL_OK && used>len ) abort();
      break;
    case 2:
      col_error_clear(&e);
      pq_bitpacked_msb_decode(buf, len, bw, o8, n, &e);
      break;
    default: {
      uint32_t dict = (uint32_t)data[1] * 7;
      col_error_clear(&e);
      if( pq_dict_indexes_decode(buf, len, o32, n, dict, &e)==COL_OK ){
        for(size_t i=0; i<n; i++) if( o32[i]>=dict ) abort();
      }
      break;
    }
  }
done:
  free(o32);
  free(o8);
  return 0;
}
