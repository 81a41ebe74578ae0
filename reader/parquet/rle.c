/*
** rle.c — the RLE / bit-packed hybrid (levels, dictionary indexes,
** booleans) and the deprecated BIT_PACKED level encoding; see encoding.h.
**
** The hybrid is a sequence of runs, each led by a ULEB128 header:
**   header & 1 == 1   bit-packed: (header>>1) groups of 8 values, each group
**                     bw bytes, values packed LSB first
**   header & 1 == 0   RLE: (header>>1) repeats of one value stored in
**                     ceil(bw/8) little-endian bytes
** Each run is checked against the bytes left once; then bit-packed groups
** are unpacked by a loop specialised per bit width (one unaligned 64-bit load
** per value, no bounds checks) and RLE runs by a fill loop. Groups close to
** the end of the buffer, where a 64-bit load could run past it, go through
** a zero-padded copy instead.
**
** Leniencies, each because writers do it and the result is unambiguous:
** a final bit-packed run may declare more groups than the bytes left (only
** the bytes of the values wanted must be there; *consumed then stops at the
** end of the buffer), and at bit width 0 a stream that ends early means
** zeros. An RLE value that does not fit in bw bits is an error.
*/
#include "encoding.h"
#include "../simd.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sqlite-columnar decoders assume a little-endian host"
#endif

#define RLE_ALWAYS_INLINE static inline __attribute__((always_inline))

static inline uint64_t rle_load64(const uint8_t *p){
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* Read a ULEB128 varint at *pos; 0 on success. Shared shape with delta.c,
** kept private to each so every file stays self-contained. */
static int rle_varint(const uint8_t *buf, size_t len, size_t *pos,
                      uint64_t *v, col_error *err){
  uint64_t r = 0;
  size_t p = *pos;
  for(int shift=0; shift<64; shift+=7){
    if( p>=len ){
      return col_error_set(err, COL_ERROR,
          "RLE/bit-packed hybrid: run header at byte %zu runs past the end "
          "(%zu bytes)", *pos, len);
    }
    uint8_t b = buf[p++];
    r |= (uint64_t)(b & 0x7f) << shift;
    if( (b & 0x80)==0 ){ *pos = p; *v = r; return COL_OK; }
  }
  return col_error_set(err, COL_ERROR,
      "RLE/bit-packed hybrid: run header at byte %zu is longer than 10 bytes",
      *pos);
}

/* Unpack 8 values of BW bits from in (which must have BW+8 readable bytes
** so the 64-bit loads stay inside). With BW a constant the shifts and
** offsets fold away. */
RLE_ALWAYS_INLINE void rle_unpack8_u32(const uint8_t *in, uint32_t *out,
                                       const int bw){
  const uint64_t mask = bw==0 ? 0 : (~(uint64_t)0) >> (64 - bw);
  if( bw<=8 ){
    /* The whole group is one word: load once. */
    const uint64_t w = rle_load64(in);
    for(int k=0; k<8; k++) out[k] = (uint32_t)((w >> (k*bw)) & mask);
    return;
  }
  for(int k=0; k<8; k++){
    const unsigned bit = (unsigned)(k*bw);
    out[k] = (uint32_t)((rle_load64(in + (bit>>3)) >> (bit & 7)) & mask);
  }
}

/* Same into bytes for bw<=8: a group is at most 8 bytes, one load. */
RLE_ALWAYS_INLINE void rle_unpack8_u8(const uint8_t *in, uint8_t *out,
                                      const int bw){
  const uint64_t mask = bw==0 ? 0 : (~(uint64_t)0) >> (64 - bw);
  const uint64_t w = rle_load64(in);
  for(int k=0; k<8; k++) out[k] = (uint8_t)((w >> (k*bw)) & mask);
}

#define RLE_CASE_U32(K) case K: { \
  for(size_t g=0; g<ng; g++){ rle_unpack8_u32(in + g*(K), out + 8*g, K); } \
  break; }
#define RLE_CASE_U8(K) case K: { \
  for(size_t g=0; g<ng; g++){ rle_unpack8_u8(in + g*(K), out + 8*g, K); } \
  break; }

#ifdef COL_SIMD_AVX512
/* Groups of bw <= 8 bits (dictionaries of up to 256 entries, most of a
** narrow column's), 8 groups (64 values) a step: their 8*bw bytes loaded
** at once (a masked load reads no byte past them), each group's bytes
** moved into a 64-bit lane of its own (vpermb), the 8 values cut from
** the lane at bit offsets k*bw (vpmultishiftqb) and masked, then widened
** to 32 bits. About 12 instructions for 64 values, against three a value
** in the scalar loop. Returns the groups done (a multiple of 8). */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static size_t rle_unpack_groups_u32_vbmi(const uint8_t *in, uint32_t *out,
                                         size_t ng, int bw){
  /* lane g's bytes: g*bw + 0..7 (at most 63); its shifts: 0, bw, .. 7*bw
  ** (no byte carries into the next). Made from words, not byte loops: a
  ** call per bit-packed run, and runs can be short. */
  const uint64_t up = 0x0706050403020100ull, ones = 0x0101010101010101ull;
  const uint64_t b = (uint64_t)bw;
  const __m512i vperm = _mm512_set_epi64((long long)(up + 7*b*ones), (long long)(up + 6*b*ones),
      (long long)(up + 5*b*ones), (long long)(up + 4*b*ones), (long long)(up + 3*b*ones),
      (long long)(up + 2*b*ones), (long long)(up + b*ones), (long long)up);
  const __m512i vshift = _mm512_set1_epi64((long long)(up * b));
  const __m512i vmask = _mm512_set1_epi8((char)((1u << bw) - 1));
  const __mmask64 lm = bw==8 ? ~(__mmask64)0 : (((__mmask64)1 << (8*bw)) - 1);
  size_t g = 0;
  for(; g+8<=ng; g+=8){
    __m512i raw = _mm512_maskz_loadu_epi8(lm, (const void*)(in + g*(size_t)bw));
    __m512i lanes = _mm512_permutexvar_epi8(vperm, raw);
    __m512i v = _mm512_and_si512(_mm512_multishift_epi64_epi8(vshift, lanes), vmask);
    uint32_t *o = out + 8*g;
    _mm512_storeu_si512((void*)o,      _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
    _mm512_storeu_si512((void*)(o+16), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
    _mm512_storeu_si512((void*)(o+32), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
    _mm512_storeu_si512((void*)(o+48), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
  }
  return g;
}

/* Groups of 9 to 25 bits (the dictionaries of phrases, URLs, regions, a
** row group's user ids), 2 groups (16 values) a step: value i's bytes,
** from byte i*bw/8 on, moved into 32-bit lane i (vpermb: 4 bytes hold
** any value of up to 25 bits at any bit offset), shifted right by its
** offset i*bw%8 and masked. The 2*bw bytes of a step are one masked
** load. Returns the groups done (a multiple of 2). */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static size_t rle_unpack_groups_u32_vbmi_wide(const uint8_t *in, uint32_t *out,
                                              size_t ng, int bw){
  /* lane i: bytes (i*bw)/8 + 0..3 (at most 15*25/8 + 3), shift (i*bw)%8 */
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i bits = _mm512_mullo_epi32(iota, _mm512_set1_epi32(bw));
  const __m512i vperm = _mm512_add_epi32(
      _mm512_mullo_epi32(_mm512_srli_epi32(bits, 3), _mm512_set1_epi32(0x01010101)),
      _mm512_set1_epi32(0x03020100));
  const __m512i vshift = _mm512_and_si512(bits, _mm512_set1_epi32(7));
  const __m512i vmask = _mm512_set1_epi32((int)((1u << bw) - 1));
  const __mmask64 lm = ((__mmask64)1 << (2*bw)) - 1;
  size_t g = 0;
  for(; g+2<=ng; g+=2){
    __m512i raw = _mm512_maskz_loadu_epi8(lm, (const void*)(in + g*(size_t)bw));
    __m512i lanes = _mm512_permutexvar_epi8(vperm, raw);
    __m512i v = _mm512_and_si512(_mm512_srlv_epi32(lanes, vshift), vmask);
    _mm512_storeu_si512((void*)(out + 8*g), v);
  }
  return g;
}
#endif

/* ng whole groups; in must have ng*bw + 8 readable bytes. */
static void rle_unpack_groups_u32(const uint8_t *in, uint32_t *out,
                                  size_t ng, int bw){
#ifdef COL_SIMD_AVX512
  if( bw>=1 && bw<=25 && ng>=2 && __builtin_cpu_supports("avx512vbmi") ){
    size_t done = bw<=8 ? rle_unpack_groups_u32_vbmi(in, out, ng, bw)
                        : rle_unpack_groups_u32_vbmi_wide(in, out, ng, bw);
    in += done * (size_t)bw; out += 8*done; ng -= done;
  }
#endif
  switch( bw ){
    RLE_CASE_U32(0)  RLE_CASE_U32(1)  RLE_CASE_U32(2)  RLE_CASE_U32(3)
    RLE_CASE_U32(4)  RLE_CASE_U32(5)  RLE_CASE_U32(6)  RLE_CASE_U32(7)
    RLE_CASE_U32(8)  RLE_CASE_U32(9)  RLE_CASE_U32(10) RLE_CASE_U32(11)
    RLE_CASE_U32(12) RLE_CASE_U32(13) RLE_CASE_U32(14) RLE_CASE_U32(15)
    RLE_CASE_U32(16) RLE_CASE_U32(17) RLE_CASE_U32(18) RLE_CASE_U32(19)
    RLE_CASE_U32(20) RLE_CASE_U32(21) RLE_CASE_U32(22) RLE_CASE_U32(23)
    RLE_CASE_U32(24) RLE_CASE_U32(25) RLE_CASE_U32(26) RLE_CASE_U32(27)
    RLE_CASE_U32(28) RLE_CASE_U32(29) RLE_CASE_U32(30) RLE_CASE_U32(31)
    RLE_CASE_U32(32)
    default: break;
  }
}

static void rle_unpack_groups_u8(const uint8_t *in, uint8_t *out,
                                 size_t ng, int bw){
  switch( bw ){
    RLE_CASE_U8(0) RLE_CASE_U8(1) RLE_CASE_U8(2) RLE_CASE_U8(3)
    RLE_CASE_U8(4) RLE_CASE_U8(5) RLE_CASE_U8(6) RLE_CASE_U8(7)
    RLE_CASE_U8(8)
    default: break;
  }
}

/* Unpack `take` values from a bit-packed run at in, with `avail` readable
** bytes from in to the end of the buffer (>= ceil(take*bw/8), checked by the
** caller). Groups with room
** for the 64-bit loads go straight from the buffer; the rest through a
** zero-padded copy. */
static void rle_unpack_u32(const uint8_t *in, size_t avail, uint32_t *out,
                           size_t take, int bw){
  size_t ng = take / 8;
  size_t fast = avail >= (size_t)bw + 8 ? (avail - bw - 8) / (bw ? bw : 1) + 1 : 0;
  if( bw==0 ) fast = ng;
  if( fast > ng ) fast = ng;
  rle_unpack_groups_u32(in, out, fast, bw);
  for(size_t g=fast; g*8<take; g++){
    uint8_t tmp[32 + 8] = {0};
    uint32_t vals[8];
    size_t off = g * (size_t)bw;
    size_t nb = avail - off < (size_t)bw ? avail - off : (size_t)bw;
    memcpy(tmp, in + off, nb);
    rle_unpack_groups_u32(tmp, vals, 1, bw);
    size_t m = take - g*8 < 8 ? take - g*8 : 8;
    memcpy(out + g*8, vals, m * sizeof(uint32_t));
  }
}

static void rle_unpack_u8(const uint8_t *in, size_t avail, uint8_t *out,
                          size_t take, int bw){
  size_t ng = take / 8;
  size_t fast = avail >= (size_t)bw + 8 ? (avail - bw - 8) / (bw ? bw : 1) + 1 : 0;
  if( bw==0 ) fast = ng;
  if( fast > ng ) fast = ng;
  rle_unpack_groups_u8(in, out, fast, bw);
  for(size_t g=fast; g*8<take; g++){
    uint8_t tmp[8 + 8] = {0};
    uint8_t vals[8];
    size_t off = g * (size_t)bw;
    size_t nb = avail - off < (size_t)bw ? avail - off : (size_t)bw;
    memcpy(tmp, in + off, nb);
    rle_unpack_groups_u8(tmp, vals, 1, bw);
    size_t m = take - g*8 < 8 ? take - g*8 : 8;
    memcpy(out + g*8, vals, m);
  }
}

/* One run, as read from its header and checked against the buffer. */
typedef struct rle_run {
  int packed;          /* 1: bit-packed, 0: RLE */
  size_t take;         /* values of this run we will produce */
  const uint8_t *data; /* packed bytes (packed) */
  size_t avail;        /* bytes from data to the end of the buffer */
  uint32_t value;      /* repeated value (RLE) */
} rle_run;

/* Parse and validate the run at *pos, producing at most `want` values, and
** advance *pos past it (clamped to len for a padded final run). */
static int rle_next_run(const uint8_t *buf, size_t len, size_t *pos, int bw,
                        size_t want, rle_run *r, col_error *err){
  size_t start = *pos;
  uint64_t h = 0;
  if( rle_varint(buf, len, pos, &h, err) ) return err->code;
  uint64_t count = h >> 1;
  size_t left = len - *pos;
  if( h & 1 ){
    /* count groups of 8; only the bytes holding the wanted values must be
    ** present, since writers may pad the declared length of the last run. */
    r->packed = 1;
    r->take = count >= (want + 7) / 8 ? want : (size_t)count * 8;
    size_t need = (r->take * (size_t)bw + 7) / 8;
    if( need > left ){
      return col_error_set(err, COL_ERROR,
          "RLE/bit-packed hybrid: bit-packed run at byte %zu needs %zu bytes "
          "for %zu values of %d bits, only %zu left", start, need, r->take,
          bw, left);
    }
    /* count*bw may overflow for a hostile header: compare by division. */
    size_t run_bytes = (bw==0) ? 0
        : (count > left / (size_t)bw ? left : (size_t)count * (size_t)bw);
    r->data = buf + *pos;
    r->avail = left;
    *pos += run_bytes;
  }else{
    size_t vb = ((size_t)bw + 7) / 8;
    if( vb > left ){
      return col_error_set(err, COL_ERROR,
          "RLE/bit-packed hybrid: RLE run at byte %zu needs a %zu-byte value, "
          "only %zu left", start, vb, left);
    }
    uint32_t v = 0;
    for(size_t i=0; i<vb; i++) v |= (uint32_t)buf[*pos + i] << (8*i);
    if( bw<32 && (v >> bw)!=0 ){
      return col_error_set(err, COL_ERROR,
          "RLE/bit-packed hybrid: RLE run at byte %zu repeats %u, wider than "
          "the bit width %d", start, v, bw);
    }
    r->packed = 0;
    r->value = v;
    r->take = count < want ? (size_t)count : want;
    *pos += vb;
  }
  return COL_OK;
}

int pq_rle_decode(const uint8_t *buf, size_t len, int bw, uint32_t *out,
                  size_t n, size_t *consumed, col_error *err){
  size_t pos = 0, i = 0;
  if( bw<0 || bw>32 ){
    return col_error_set(err, COL_ERROR,
        "RLE/bit-packed hybrid: bit width %d is outside 0..32", bw);
  }
  while( i<n ){
    rle_run r;
    if( bw==0 && pos>=len ){
      /* Nothing to say with zero bits: a missing tail is all zeros. */
      memset(out + i, 0, (n - i) * sizeof(uint32_t));
      break;
    }
    if( rle_next_run(buf, len, &pos, bw, n - i, &r, err) ) return err->code;
    if( r.packed ){
      rle_unpack_u32(r.data, r.avail, out + i, r.take, bw);
    }else{
      uint32_t v = r.value, *o = out + i;
      for(size_t k=0; k<r.take; k++) o[k] = v;
    }
    i += r.take;
  }
  if( consumed ) *consumed = pos;
  return COL_OK;
}

int pq_rle_decode_u8(const uint8_t *buf, size_t len, int bw, uint8_t *out,
                     size_t n, size_t *consumed, col_error *err){
  size_t pos = 0, i = 0;
  if( bw<0 || bw>8 ){
    return col_error_set(err, COL_ERROR,
        "RLE/bit-packed hybrid: bit width %d is outside 0..8 for levels or "
        "booleans", bw);
  }
  while( i<n ){
    rle_run r;
    if( bw==0 && pos>=len ){
      memset(out + i, 0, n - i);
      break;
    }
    if( rle_next_run(buf, len, &pos, bw, n - i, &r, err) ) return err->code;
    if( r.packed ){
      rle_unpack_u8(r.data, r.avail, out + i, r.take, bw);
    }else{
      memset(out + i, (int)r.value, r.take);
    }
    i += r.take;
  }
  if( consumed ) *consumed = pos;
  return COL_OK;
}

int pq_bitpacked_msb_decode(const uint8_t *buf, size_t len, int bw,
                            uint8_t *out, size_t n, col_error *err){
  if( bw<0 || bw>8 ){
    return col_error_set(err, COL_ERROR,
        "BIT_PACKED: bit width %d is outside 0..8 for levels", bw);
  }
  if( bw==0 ){ memset(out, 0, n); return COL_OK; }
  if( n > (SIZE_MAX - 7) / (size_t)bw || (n * (size_t)bw + 7) / 8 > len ){
    return col_error_set(err, COL_ERROR,
        "BIT_PACKED: %zu values of %d bits need more than the %zu bytes "
        "present", n, bw, len);
  }
  /* Deprecated and rare: a plain bit cursor is fast enough. */
  size_t bit = 0;
  for(size_t i=0; i<n; i++){
    unsigned v = 0;
    for(int k=0; k<bw; k++, bit++){
      v = (v << 1) | ((buf[bit >> 3] >> (7 - (bit & 7))) & 1u);
    }
    out[i] = (uint8_t)v;
  }
  return COL_OK;
}

#ifdef COL_SIMD_AVX512
/* Does any index of the whole 16s of v[0..n) reach dict_size (> 0)?
** Unsigned compares; *done gets how many were looked at. */
__attribute__((target("avx512f")))
static int rle_past_avx512(const uint32_t *v, size_t n, uint32_t dict_size, size_t *done){
  const __m512i top = _mm512_set1_epi32((int)(dict_size - 1));
  __mmask16 over = 0;
  size_t i = 0;
  for(; i+16<=n; i+=16){
    over |= _mm512_cmpgt_epu32_mask(_mm512_loadu_si512((const void*)(v + i)), top);
  }
  *done = i;
  return over!=0;
}
#endif

int pq_dict_indexes_decode(const uint8_t *buf, size_t len, uint32_t *out,
                           size_t n, uint32_t dict_size, col_error *err){
  if( len==0 ){
    if( n==0 ) return COL_OK;
    return col_error_set(err, COL_ERROR,
        "dictionary indexes: empty buffer for %zu values (no bit width byte)",
        n);
  }
  int bw = buf[0];
  if( bw>32 ){
    return col_error_set(err, COL_ERROR,
        "dictionary indexes: bit width %d at byte 0 is over 32", bw);
  }
  if( pq_rle_decode(buf + 1, len - 1, bw, out, n, 0, err) ){
    return col_error_prefix(err, "dictionary indexes: ");
  }
  /* Indexes that bw bits cannot push past the dictionary need no check. */
  if( bw<32 && ((uint64_t)1 << bw) <= dict_size ) return COL_OK;
  int past = 0;
  size_t i = 0;
  if( dict_size==0 ){
    past = n>0;
  }else{
#ifdef COL_SIMD_AVX512
    /* 16 at a time where the CPU has AVX-512 */
    if( __builtin_cpu_supports("avx512f") ) past = rle_past_avx512(out, n, dict_size, &i);
#endif
#ifdef __SSE2__
    /* 4 at a time (a scalar max was a fifth of a two-column sum); SSE2
    ** compares signed, so both sides are moved by 2^31 */
    __m128i bias = _mm_set1_epi32((int)0x80000000u);
    __m128i top = _mm_set1_epi32((int)((dict_size - 1) ^ 0x80000000u));
    __m128i over = _mm_setzero_si128();
    for(; i+4<=n; i+=4){
      __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i*)(out + i)), bias);
      over = _mm_or_si128(over, _mm_cmpgt_epi32(v, top));
    }
    past |= _mm_movemask_epi8(over)!=0;
#endif
    for(; i<n; i++) past |= out[i] >= dict_size;
  }
  if( past ){
    i = 0;
    while( out[i] < dict_size ) i++;
    return col_error_set(err, COL_ERROR,
        "dictionary indexes: value %zu is index %u, past the dictionary of "
        "%u entries", i, out[i], dict_size);
  }
  return COL_OK;
}

uint8_t pq_levels_scan(const uint8_t *lv, int64_t n, uint8_t m, int64_t *at_max){
  uint8_t hi = 0;
  int64_t eq = 0, i = 0;
#ifdef __SSE2__
  /* 16 levels at a time (a scalar loop here was a sixth of a two-column
  ** sum): the byte counters are summed every 255 steps, before they wrap */
  __m128i vm = _mm_set1_epi8((char)m), vhi = _mm_setzero_si128();
  while( i + 16 <= n ){
    __m128i acc = _mm_setzero_si128();
    int64_t end = n - i > 16*255 ? i + 16*255 : n;
    for(; i + 16 <= end; i += 16){
      __m128i v = _mm_loadu_si128((const __m128i*)(lv + i));
      vhi = _mm_max_epu8(vhi, v);
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, vm));
    }
    __m128i sad = _mm_sad_epu8(acc, _mm_setzero_si128());
    eq += _mm_cvtsi128_si32(sad) + _mm_extract_epi16(sad, 4);
  }
  uint8_t lanes[16];
  _mm_storeu_si128((__m128i*)lanes, vhi);
  for(int k=0; k<16; k++) hi = lanes[k] > hi ? lanes[k] : hi;
#endif
  for(; i<n; i++){
    hi = lv[i] > hi ? lv[i] : hi;
    eq += lv[i]==m;
  }
  *at_max = eq;
  return hi;
}
