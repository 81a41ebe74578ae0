/*
** byte_stream_split.c — the BYTE_STREAM_SPLIT encoding; see encoding.h.
**
** A page of n values of w bytes is w streams of n bytes: stream k holds byte
** k of every value. Decoding interleaves them back. Widths 2, 4 and 8
** (FLOAT16, FLOAT/INT32, DOUBLE/INT64) get loops with the width fixed so
** the compiler keeps the stream pointers in registers; other FLBA widths
** go through a generic loop.
*/
#include "encoding.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sqlite-columnar decoders assume a little-endian host"
#endif

/* Interleave W streams; with W a constant the inner loop unrolls. */
static inline __attribute__((always_inline))
void bss_interleave(const uint8_t *buf, uint8_t *out, size_t n, const size_t W){
  for(size_t i=0; i<n; i++){
    for(size_t k=0; k<W; k++) out[i*W + k] = buf[k*n + i];
  }
}

static void bss_decode_2(const uint8_t *buf, uint8_t *out, size_t n){
  bss_interleave(buf, out, n, 2);
}
static void bss_decode_4(const uint8_t *buf, uint8_t *out, size_t n){
  bss_interleave(buf, out, n, 4);
}
static void bss_decode_8(const uint8_t *buf, uint8_t *out, size_t n){
  bss_interleave(buf, out, n, 8);
}

/* Any width: one stream at a time, which keeps both sides sequential-ish
** and avoids a division per byte. */
static void bss_decode_any(const uint8_t *buf, uint8_t *out, size_t n,
                           size_t w){
  for(size_t k=0; k<w; k++){
    const uint8_t *s = buf + k*n;
    uint8_t *o = out + k;
    for(size_t i=0; i<n; i++) o[i*w] = s[i];
  }
}

int pq_byte_stream_split_decode(const uint8_t *buf, size_t len, size_t w,
                                uint8_t *out, size_t n, col_error *err){
  if( w==0 ){
    return col_error_set(err, COL_ERROR, "BYTE_STREAM_SPLIT: value width 0");
  }
  if( n > len / w ){
    return col_error_set(err, COL_ERROR,
        "BYTE_STREAM_SPLIT: %zu values of %zu bytes need more than the %zu "
        "bytes present", n, w, len);
  }
  if( n==0 ) return COL_OK;
  switch( w ){
    case 2: bss_decode_2(buf, out, n); break;
    case 4: bss_decode_4(buf, out, n); break;
    case 8: bss_decode_8(buf, out, n); break;
    default: bss_decode_any(buf, out, n, w); break;
  }
  return COL_OK;
}
