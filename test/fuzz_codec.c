/*
** fuzz_codec.c — fuzz target for pq_decompress (reader/parquet/codec.c).
**
** Input layout: byte 0 picks the codec (mod 9, so 8 is an unknown code),
** bytes 1..4 are the declared uncompressed size (little endian, reduced to
** at most 1 MiB), the rest is the compressed page. The output buffer is
** malloc'd to exactly the declared size so ASan catches any write past it.
** Seeds in test/corpus/fuzz_codec/ hold one valid page per codec.
*/
#include "../reader/parquet/codec.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<5 ) return 0;
  int codec = data[0] % 9;
  uint32_t claimed = (uint32_t)data[1] | ((uint32_t)data[2]<<8)
                   | ((uint32_t)data[3]<<16) | ((uint32_t)data[4]<<24);
  size_t out_len = claimed % ((1u<<20) + 1);
  uint8_t *out = malloc(out_len ? out_len : 1);
  pq_codec_ctx *c = pq_codec_ctx_new();
  if( out==0 || c==0 ) goto fuzz_done;
  col_error err;
  col_error_clear(&err);
  int rc = pq_decompress(c, codec, data+5, size-5, out, out_len, &err);
  /* An error always comes with a message. */
  if( rc!=COL_OK && err.msg[0]==0 ) abort();
  if( rc==COL_OK && err.code!=COL_OK ) abort();
  /* A second page through the same context must not see the first. */
  col_error_clear(&err);
  rc = pq_decompress(c, codec, data+5, (size-5)/2, out, out_len, &err);
  if( rc!=COL_OK && err.msg[0]==0 ) abort();
fuzz_done:
  pq_codec_ctx_free(c);
  free(out);
  return 0;
}
