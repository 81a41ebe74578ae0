/*
** delta.c — DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and
** DELTA_BYTE_ARRAY; see encoding.h.
**
** DELTA_BINARY_PACKED, as the spec lays it out:
**   header  <block size> <miniblocks per block> <total value count>
**           <first value>            (ULEB128; the first value zigzag)
**   block   <min delta> <one bit width byte per miniblock> <miniblocks>
** Miniblocks hold (block size / miniblocks) deltas minus min delta, packed
** LSB first at their bit width (0..64), padded to a whole miniblock. The
** stream ends after the last miniblock holding a value: the last block
** still has all its bit width bytes (those of unused miniblocks may be
** garbage, so they are never looked at) but no bytes for unused
** miniblocks. With a total count of 0 or 1 there are no blocks at all.
** Arithmetic is on uint64_t so overflow wraps as the spec requires.
**
** Each block is checked against the buffer once (its bit widths) and each
** miniblock once (its bytes); the unpacking loop below is specialised per
** bit width and carries no bounds checks.
**
** n may be less than the header's total count. Then *consumed still walks
** (without decoding) to the end of the whole stream, since that is where
** the next part of the page starts, and a truncated tail is an error; with
** consumed==NULL the tail is not looked at. A final miniblock cut short is
** accepted when the values wanted from it are all present. For
** DELTA_LENGTH_BYTE_ARRAY, *consumed ends after the bytes of the n values.
** DELTA_BYTE_ARRAY output can be much larger than its input (that is the
** point of it), but a value repeating the previous one, or a prefix of it,
** points at it instead of being copied, and every byte is copied at most
** once: the work is O(output bytes).
*/
#include "encoding.h"
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sqlite-columnar decoders assume a little-endian host"
#endif

/* Largest block size we accept; far above what writers use (128..2048) and
** small enough that no size computed from it can overflow. */
#define DELTA_MAX_BLOCK ((uint64_t)1 << 31)

/* A parsed DELTA_BINARY_PACKED header. */
typedef struct delta_hdr {
  uint64_t block_size;   /* values per block, a multiple of 128 */
  uint64_t mb_count;     /* miniblocks per block */
  uint64_t mb_values;    /* values per miniblock */
  uint64_t total;        /* values in the stream, the first one included */
  uint64_t first;        /* the first value, zigzag-decoded */
  size_t pos;            /* byte where the first block starts */
} delta_hdr;

static inline uint64_t delta_load64(const uint8_t *p){
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* ULEB128 at *pos; `what` names the field for the message. */
static int delta_varint(const uint8_t *buf, size_t len, size_t *pos,
                        uint64_t *v, const char *what, col_error *err){
  uint64_t r = 0;
  size_t p = *pos;
  for(int shift=0; shift<64; shift+=7){
    if( p>=len ){
      return col_error_set(err, COL_ERROR,
          "DELTA_BINARY_PACKED: %s at byte %zu runs past the end (%zu bytes)",
          what, *pos, len);
    }
    uint8_t b = buf[p++];
    r |= (uint64_t)(b & 0x7f) << shift;
    if( (b & 0x80)==0 ){ *pos = p; *v = r; return COL_OK; }
  }
  return col_error_set(err, COL_ERROR,
      "DELTA_BINARY_PACKED: %s at byte %zu is longer than 10 bytes",
      what, *pos);
}

static inline uint64_t delta_unzigzag(uint64_t v){
  return (v >> 1) ^ (0 - (v & 1));
}

static int delta_header(const uint8_t *buf, size_t len, delta_hdr *h,
                        col_error *err){
  size_t pos = 0;
  uint64_t zz = 0;
  memset(h, 0, sizeof(*h));
  if( delta_varint(buf, len, &pos, &h->block_size, "block size", err)
   || delta_varint(buf, len, &pos, &h->mb_count, "miniblock count", err)
   || delta_varint(buf, len, &pos, &h->total, "total value count", err)
   || delta_varint(buf, len, &pos, &zz, "first value", err) ){
    return err->code;
  }
  if( h->block_size==0 || h->block_size % 128 || h->block_size > DELTA_MAX_BLOCK ){
    return col_error_set(err, COL_ERROR,
        "DELTA_BINARY_PACKED: block size %llu is not a multiple of 128 in "
        "128..%llu", (unsigned long long)h->block_size,
        (unsigned long long)DELTA_MAX_BLOCK);
  }
  /* The spec asks for miniblocks of a multiple of 32 values; we need only
  ** a multiple of 8 (whole bytes at any bit width), so accept that. */
  if( h->mb_count==0 || h->block_size % h->mb_count
   || (h->block_size / h->mb_count) % 8 ){
    return col_error_set(err, COL_ERROR,
        "DELTA_BINARY_PACKED: %llu miniblocks do not split a block of %llu "
        "values into multiples of 8", (unsigned long long)h->mb_count,
        (unsigned long long)h->block_size);
  }
  h->mb_values = h->block_size / h->mb_count;
  h->first = delta_unzigzag(zz);
  h->pos = pos;
  return COL_OK;
}

/* 8 values of BW bits from in, which must have BW+8 readable bytes. Widths
** over 56 can straddle 9 bytes; with BW a constant that branch folds. */
static inline __attribute__((always_inline))
void delta_unpack8(const uint8_t *in, uint64_t *out, const int bw){
  const uint64_t mask = bw==0 ? 0 : (~(uint64_t)0) >> (64 - bw);
  for(int k=0; k<8; k++){
    const unsigned bit = (unsigned)(k*bw), s = bit & 7;
    const uint8_t *p = in + (bit >> 3);
    uint64_t w = delta_load64(p) >> s;
    if( bw + s > 64 ) w |= (uint64_t)p[8] << (64 - s);
    out[k] = w & mask;
  }
}

/* Unpack one group and turn its deltas into values: the running sum is
** the only serial dependency, so keep it in a register. */
static inline __attribute__((always_inline))
void delta_group(const uint8_t *in, uint64_t *out, const int bw,
                 uint64_t min_delta, uint64_t *last){
  uint64_t d[8], v = *last;
  delta_unpack8(in, d, bw);
  for(int k=0; k<8; k++){ v += min_delta + d[k]; out[k] = v; }
  *last = v;
}

#define DELTA_CASE(K) case K: { \
  for(size_t g=0; g<ng; g++){ \
    delta_group(in + g*(K), out + 8*g, K, min_delta, &v); } \
  break; }

/* ng groups of 8 into values; in must have ng*bw + 8 readable bytes. */
static void delta_unpack_groups(const uint8_t *in, uint64_t *out, size_t ng,
                                int bw, uint64_t min_delta, uint64_t *last){
  uint64_t v = *last;
  switch( bw ){
    DELTA_CASE(0)  DELTA_CASE(1)  DELTA_CASE(2)  DELTA_CASE(3)
    DELTA_CASE(4)  DELTA_CASE(5)  DELTA_CASE(6)  DELTA_CASE(7)
    DELTA_CASE(8)  DELTA_CASE(9)  DELTA_CASE(10) DELTA_CASE(11)
    DELTA_CASE(12) DELTA_CASE(13) DELTA_CASE(14) DELTA_CASE(15)
    DELTA_CASE(16) DELTA_CASE(17) DELTA_CASE(18) DELTA_CASE(19)
    DELTA_CASE(20) DELTA_CASE(21) DELTA_CASE(22) DELTA_CASE(23)
    DELTA_CASE(24) DELTA_CASE(25) DELTA_CASE(26) DELTA_CASE(27)
    DELTA_CASE(28) DELTA_CASE(29) DELTA_CASE(30) DELTA_CASE(31)
    DELTA_CASE(32) DELTA_CASE(33) DELTA_CASE(34) DELTA_CASE(35)
    DELTA_CASE(36) DELTA_CASE(37) DELTA_CASE(38) DELTA_CASE(39)
    DELTA_CASE(40) DELTA_CASE(41) DELTA_CASE(42) DELTA_CASE(43)
    DELTA_CASE(44) DELTA_CASE(45) DELTA_CASE(46) DELTA_CASE(47)
    DELTA_CASE(48) DELTA_CASE(49) DELTA_CASE(50) DELTA_CASE(51)
    DELTA_CASE(52) DELTA_CASE(53) DELTA_CASE(54) DELTA_CASE(55)
    DELTA_CASE(56) DELTA_CASE(57) DELTA_CASE(58) DELTA_CASE(59)
    DELTA_CASE(60) DELTA_CASE(61) DELTA_CASE(62) DELTA_CASE(63)
    DELTA_CASE(64)
    default: break;
  }
  *last = v;
}

/* Decode `take` values from deltas of bw bits at in, which has `avail`
** readable bytes (at least ceil(take*bw/8), checked by the caller). Groups
** near the end of the buffer go through a zero-padded copy so no load runs
** past it. */
static void delta_unpack(const uint8_t *in, size_t avail, uint64_t *out,
                         size_t take, int bw, uint64_t min_delta,
                         uint64_t *last){
  size_t ng = take / 8;
  size_t fast = ng;
  if( bw>0 ){
    fast = avail >= (size_t)bw + 8 ? (avail - bw - 8) / (size_t)bw + 1 : 0;
    if( fast > ng ) fast = ng;
  }
  delta_unpack_groups(in, out, fast, bw, min_delta, last);
  for(size_t g=fast; g*8<take; g++){
    uint8_t tmp[64 + 8] = {0};
    uint64_t d[8], v = *last;
    size_t off = g * (size_t)bw;
    size_t nb = avail - off < (size_t)bw ? avail - off : (size_t)bw;
    size_t m = take - g*8 < 8 ? take - g*8 : 8;
    memcpy(tmp, in + off, nb);
    delta_unpack8(tmp, d, bw);  /* rare: the generic, unspecialised form */
    /* Only the first m deltas are real: sum those, not the padding. */
    for(size_t k=0; k<m; k++){ v += min_delta + d[k]; out[g*8 + k] = v; }
    *last = v;
  }
}

/* Decode the first n values of the stream described by h into out. With
** to_end, keep walking (without decoding) to the end of the whole stream so
** *end is where the next thing in the page starts; otherwise *end is just
** past the last miniblock touched. */
static int delta_run(const uint8_t *buf, size_t len, const delta_hdr *h,
                     int64_t *out, size_t n, int to_end, size_t *end,
                     col_error *err){
  uint64_t last = h->first;
  uint64_t deltas_total = h->total ? h->total - 1 : 0;
  uint64_t deltas_need = n ? (uint64_t)n - 1 : 0;
  uint64_t target = to_end ? deltas_total : deltas_need;
  uint64_t done = 0;        /* deltas decoded or walked past */
  size_t pos = h->pos;
  if( n ) out[0] = (int64_t)last;
  while( done < target ){
    size_t blk = pos;
    uint64_t zz;
    if( delta_varint(buf, len, &pos, &zz, "block min delta", err) ){
      return err->code;
    }
    uint64_t min_delta = delta_unzigzag(zz);
    if( len - pos < h->mb_count ){
      return col_error_set(err, COL_ERROR,
          "DELTA_BINARY_PACKED: block at byte %zu: %llu bit widths run past "
          "the end (%zu bytes)", blk, (unsigned long long)h->mb_count, len);
    }
    const uint8_t *widths = buf + pos;
    pos += h->mb_count;
    for(uint64_t m=0; m<h->mb_count && done<target; m++){
      int bw = widths[m];
      uint64_t in_mb = deltas_total - done < h->mb_values
                     ? deltas_total - done : h->mb_values;
      size_t left = len - pos;
      if( bw>64 ){
        return col_error_set(err, COL_ERROR,
            "DELTA_BINARY_PACKED: block at byte %zu: miniblock %llu has bit "
            "width %d, over 64", blk, (unsigned long long)m, bw);
      }
      if( done < deltas_need ){
        size_t take = (size_t)(deltas_need - done < in_mb ? deltas_need - done : in_mb);
        size_t need = (take * (size_t)bw + 7) / 8;
        if( need > left ){
          return col_error_set(err, COL_ERROR,
              "DELTA_BINARY_PACKED: miniblock at byte %zu needs %zu bytes for "
              "%zu values of %d bits, only %zu left", pos, need, take, bw,
              left);
        }
        /* uint64_t is an allowed alias of int64_t: wrapping sums. */
        uint64_t *o = (uint64_t *)(out + 1 + done);
        delta_unpack(buf + pos, left, o, take, bw, min_delta, &last);
      }
      /* A padded final miniblock may be cut short: clamp, and let the next
      ** block header (if any) report the truncation. */
      uint64_t mb_bytes = h->mb_values * (uint64_t)bw / 8;
      pos += mb_bytes < left ? (size_t)mb_bytes : left;
      done += in_mb;
    }
  }
  *end = pos;
  return COL_OK;
}

int pq_delta_binary_decode(const uint8_t *buf, size_t len, int64_t *out,
                           size_t n, size_t *consumed, col_error *err){
  delta_hdr h;
  size_t end;
  if( n==0 && len==0 ){ if( consumed ) *consumed = 0; return COL_OK; }
  if( delta_header(buf, len, &h, err) ) return err->code;
  if( h.total < n ){
    return col_error_set(err, COL_ERROR,
        "DELTA_BINARY_PACKED: header declares %llu values, %zu expected",
        (unsigned long long)h.total, n);
  }
  if( delta_run(buf, len, &h, out, n, consumed!=0, &end, err) ) return err->code;
  if( consumed ) *consumed = end;
  return COL_OK;
}

/* Decode n lengths (a DELTA_BINARY_PACKED stream) into a malloc'd array
** and find where the stream ends. The array is n*8 bytes, half of what the
** caller already holds for n cv_str. */
static int delta_lengths(const uint8_t *buf, size_t len, size_t n,
                         int64_t **lens, size_t *end, const char *what,
                         col_error *err){
  delta_hdr h;
  *lens = 0;
  if( delta_header(buf, len, &h, err) ) goto lengths_error;
  if( h.total < n ){
    col_error_set(err, COL_ERROR,
        "header declares %llu values, %zu expected",
        (unsigned long long)h.total, n);
    goto lengths_error;
  }
  if( n > SIZE_MAX / sizeof(int64_t) ){
    col_error_set(err, COL_ENOMEM, "%zu values are too many", n);
    goto lengths_error;
  }
  *lens = malloc(n ? n * sizeof(int64_t) : 1);
  if( *lens==0 ){
    col_error_set(err, COL_ENOMEM, "out of memory for %zu lengths", n);
    goto lengths_error;
  }
  if( delta_run(buf, len, &h, *lens, n, 1, end, err) ) goto lengths_error;
  return COL_OK;

lengths_error:
  free(*lens);
  *lens = 0;
  return col_error_prefix(err, "%s: ", what);
}

int pq_delta_length_decode(const uint8_t *buf, size_t len, cv_str *out,
                           size_t n, size_t *consumed, col_error *err){
  int64_t *lens;
  size_t pos;
  if( n==0 && len==0 ){ if( consumed ) *consumed = 0; return COL_OK; }
  if( delta_lengths(buf, len, n, &lens, &pos, "DELTA_LENGTH_BYTE_ARRAY lengths", err) ){
    return err->code;
  }
  for(size_t i=0; i<n; i++){
    int64_t l = lens[i];
    if( l<0 || (uint64_t)l > len - pos || (uint64_t)l > UINT32_MAX ){
      col_error_set(err, COL_ERROR,
          "DELTA_LENGTH_BYTE_ARRAY: value %zu has length %lld, but only %zu "
          "bytes are left at byte %zu", i, (long long)l, len - pos, pos);
      free(lens);
      return err->code;
    }
    out[i].p = (const char *)buf + pos;
    out[i].n = (uint32_t)l;
    pos += (size_t)l;
  }
  free(lens);
  if( consumed ) *consumed = pos;
  return COL_OK;
}

int pq_delta_byte_array_decode(const uint8_t *buf, size_t len, cv_str *out,
                               size_t n, col_arena *arena, col_error *err){
  int64_t *pre;
  size_t pos;
  if( n==0 && len==0 ) return COL_OK;
  if( delta_lengths(buf, len, n, &pre, &pos, "DELTA_BYTE_ARRAY prefix lengths", err) ){
    return err->code;
  }
  if( pq_delta_length_decode(buf + pos, len - pos, out, n, 0, err) ){
    col_error_prefix(err, "DELTA_BYTE_ARRAY suffixes at byte %zu: ", pos);
    goto dba_error;
  }
  /* Value i is the first pre[i] bytes of value i-1 and then suffix i. Only a
  ** value with both a prefix and a suffix needs new bytes; the others point
  ** at the previous value or at the suffix, so repeats cost nothing. */
  cv_str prev = {0, 0};
  for(size_t i=0; i<n; i++){
    int64_t p = pre[i];
    cv_str s = out[i], v;
    if( p<0 || (uint64_t)p > prev.n ){
      col_error_set(err, COL_ERROR,
          "DELTA_BYTE_ARRAY: value %zu has prefix length %lld, but the "
          "previous value is %u bytes", i, (long long)p, prev.n);
      goto dba_error;
    }
    if( p==0 ){
      v = s;
    }else if( s.n==0 ){
      v.p = prev.p;
      v.n = (uint32_t)p;
    }else{
      uint64_t tot = (uint64_t)p + s.n;
      if( tot > UINT32_MAX ){
        col_error_set(err, COL_ERROR,
            "DELTA_BYTE_ARRAY: value %zu is %llu bytes, over 4 GiB", i,
            (unsigned long long)tot);
        goto dba_error;
      }
      char *d = col_arena_alloc(arena, (size_t)tot);
      if( d==0 ){
        col_error_set(err, COL_ENOMEM,
            "DELTA_BYTE_ARRAY: out of memory for value %zu (%llu bytes)", i,
            (unsigned long long)tot);
        goto dba_error;
      }
      memcpy(d, prev.p, (size_t)p);
      memcpy(d + p, s.p, s.n);
      v.p = d;
      v.n = (uint32_t)tot;
    }
    out[i] = v;
    prev = v;
  }
  free(pre);
  return COL_OK;

dba_error:
  free(pre);
  return err->code;
}
