/*
** plain.c — the PLAIN encoding for every physical type; see encoding.h.
**
**   INT32/INT64/INT96/FLOAT/DOUBLE  n values of `width` little-endian bytes
**   BOOLEAN                         n bits, LSB first
**   BYTE_ARRAY                      n times (u32 LE length, bytes)
**   FIXED_LEN_BYTE_ARRAY            n values of w bytes
**
** Fixed-width values are copied as they lie: we only build for
** little-endian hosts, so the on-disk bytes are already the host values.
*/
#include "encoding.h"
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sqlite-columnar decoders assume a little-endian host"
#endif

int pq_plain_fixed_decode(const uint8_t *buf, size_t len, size_t width,
                          void *out, size_t n, size_t *consumed,
                          col_error *err){
  if( width==0 ){
    return col_error_set(err, COL_ERROR, "PLAIN: value width 0");
  }
  if( n > len / width ){
    return col_error_set(err, COL_ERROR,
        "PLAIN: %zu values of %zu bytes need more than the %zu bytes present",
        n, width, len);
  }
  if( n ) memcpy(out, buf, n * width);
  if( consumed ) *consumed = n * width;
  return COL_OK;
}

int pq_plain_bool_decode(const uint8_t *buf, size_t len, uint8_t *out,
                         size_t n, size_t *consumed, col_error *err){
  size_t nbytes = n / 8 + (n % 8 != 0);
  if( nbytes > len ){
    return col_error_set(err, COL_ERROR,
        "PLAIN BOOLEAN: %zu values need %zu bytes, only %zu present",
        n, nbytes, len);
  }
  size_t full = n / 8;
  for(size_t g=0; g<full; g++){
    unsigned b = buf[g];
    uint8_t *o = out + 8*g;
    for(int k=0; k<8; k++) o[k] = (uint8_t)((b >> k) & 1u);
  }
  for(size_t i=full*8; i<n; i++) out[i] = (uint8_t)((buf[i >> 3] >> (i & 7)) & 1u);
  if( consumed ) *consumed = nbytes;
  return COL_OK;
}

int pq_plain_byte_array_decode(const uint8_t *buf, size_t len, cv_str *out,
                               size_t n, size_t *consumed, col_error *err){
  /* Every value needs its 4-byte length: reject an impossible n up front. */
  if( n > len / 4 ){
    return col_error_set(err, COL_ERROR,
        "PLAIN BYTE_ARRAY: %zu values need at least %zu bytes, only %zu "
        "present", n, n > SIZE_MAX / 4 ? SIZE_MAX : n * 4, len);
  }
  size_t pos = 0;
  for(size_t i=0; i<n; i++){
    uint32_t l;
    if( len - pos < 4 ){
      return col_error_set(err, COL_ERROR,
          "PLAIN BYTE_ARRAY: value %zu: length at byte %zu runs past the end "
          "(%zu bytes)", i, pos, len);
    }
    memcpy(&l, buf + pos, 4);
    pos += 4;
    if( l > len - pos ){
      return col_error_set(err, COL_ERROR,
          "PLAIN BYTE_ARRAY: value %zu: length %u at byte %zu exceeds the "
          "%zu bytes left", i, l, pos - 4, len - pos);
    }
    out[i].p = (const char *)buf + pos;
    out[i].n = l;
    pos += l;
  }
  if( consumed ) *consumed = pos;
  return COL_OK;
}

int pq_plain_flba_decode(const uint8_t *buf, size_t len, uint32_t w,
                         cv_str *out, size_t n, size_t *consumed,
                         col_error *err){
  if( w!=0 && n > len / w ){
    return col_error_set(err, COL_ERROR,
        "PLAIN FIXED_LEN_BYTE_ARRAY: %zu values of %u bytes need more than "
        "the %zu bytes present", n, w, len);
  }
  const char *p = (const char *)buf;
  for(size_t i=0; i<n; i++){
    out[i].p = w ? p + i * (size_t)w : p; /* p may be NULL when w==0 */
    out[i].n = w;
  }
  if( consumed ) *consumed = n * (size_t)w;
  return COL_OK;
}
