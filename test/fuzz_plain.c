/*
** fuzz_plain.c — fuzz target for the PLAIN decoders (reader/parquet/plain.c).
**
** Input: byte 0 picks the decoder, byte 1 the width (fixed-width values and
** FIXED_LEN_BYTE_ARRAY), bytes 2..4 the value count (capped at 100000);
** the rest is the encoded data. Outputs are malloc'd at exactly n entries
** so ASan sees any overrun, and every decoded string is read back.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/parquet/encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<5 ) return 0;
  int mode = data[0] % 4;
  size_t w = data[1] % 20;
  size_t n = ((size_t)data[2] | (size_t)data[3] << 8 | (size_t)data[4] << 16) % 100001;
  const uint8_t *buf = data + 5;
  size_t len = size - 5;
  col_error e;
  size_t used = 0;
  col_error_clear(&e);
  if( mode==0 ){
    uint8_t *o = malloc(n*w!=0 ? n*w : 1);
    if( o && pq_plain_fixed_decode(buf, len, w, o, n, &used, &e)==COL_OK ){
      if( used!=n*w || used>len || (n*w!=0 && memcmp(o, buf, n*w)) ) abort();
    }
    free(o);
  }else if( mode==1 ){
    uint8_t *o = malloc(n ? n : 1);
    if( o && pq_plain_bool_decode(buf, len, o, n, &used, &e)==COL_OK ){
      if( used>len ) abort();
      for(size_t i=0; i<n; i++) if( o[i]>1 ) abort();
    }
    free(o);
  }else{
    cv_str *s = malloc((n ? n : 1) * sizeof(cv_str));
    int rc = COL_ERROR;
    if( s ){
      rc = mode==2 ? pq_plain_byte_array_decode(buf, len, s, n, &used, &e)
                   : pq_plain_flba_decode(buf, len, (uint32_t)w, s, n, &used, &e);
    }
    if( rc==COL_OK ){
      if( used>len ) abort();
      for(size_t i=0; i<n; i++){
        if( s[i].n && ((const uint8_t *)s[i].p < buf
                       || (const uint8_t *)s[i].p + s[i].n > buf + len) ) abort();
      }
    }
    free(s);
  }
  return 0;
}
