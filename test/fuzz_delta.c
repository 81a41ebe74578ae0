/*
** fuzz_delta.c — fuzz target for DELTA_BINARY_PACKED,
** DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (reader/parquet/delta.c).
**
** Input: byte 0 picks the decoder, bytes 1..3 the value count (capped at
** 100000); the rest is the encoded stream. Outputs are malloc'd at exactly
** n entries so ASan sees any overrun; every decoded string must lie inside
** the input or the arena, and decoding with and without *consumed must give
** the same values.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/parquet/encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<4 ) return 0;
  int mode = data[0] % 3;
  size_t n = ((size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16) % 100001;
  const uint8_t *buf = data + 4;
  size_t len = size - 4;
  col_error e;
  size_t used = 0;
  if( mode==0 ){
    int64_t *a = malloc((n ? n : 1) * sizeof(int64_t));
    int64_t *b = malloc((n ? n : 1) * sizeof(int64_t));
    if( a && b ){
      col_error_clear(&e);
      int rc1 = pq_delta_binary_decode(buf, len, a, n, &used, &e);
      if( rc1==COL_OK && used>len ) abort();
      col_error_clear(&e);
      int rc2 = pq_delta_binary_decode(buf, len, b, n, 0, &e);
      /* Without consumed the tail is not walked, so rc2 may succeed alone. */
      if( rc1==COL_OK && (rc2!=COL_OK || (n && memcmp(a, b, n*8))) ) abort();
    }
    free(a); free(b);
  }else{
    cv_str *s = malloc((n ? n : 1) * sizeof(cv_str));
    col_arena arena;
    col_arena_init(&arena);
    if( s ){
      col_error_clear(&e);
      int rc = mode==1 ? pq_delta_length_decode(buf, len, s, n, &used, &e)
                       : pq_delta_byte_array_decode(buf, len, s, n, &arena, &e);
      if( rc==COL_OK ){
        if( mode==1 && used>len ) abort();
        /* Touch every byte so ASan checks the pointers. */
        unsigned x = 0;
        for(size_t i=0; i<n; i++) for(uint32_t k=0; k<s[i].n; k++) x += (uint8_t)s[i].p[k];
        if( x==0xFFFFFFFFu ) e.msg[0] = 0;
      }else if( e.msg[0]==0 ){
        abort();
      }
    }
    free(s);
    col_arena_free(&arena);
  }
  return 0;
}
