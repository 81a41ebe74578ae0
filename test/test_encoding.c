/*
** test_encoding.c — unit tests for the Parquet encodings in
** reader/parquet/{rle,plain,delta,byte_stream_split}.c.
**
** Hand-built byte sequences from the spec's examples, round trips through
** the small test-only encoders below (random values, every bit width,
** lengths 0..5000, runs mixing RLE and bit-packing), truncation at every
** byte offset (an error or a correct decode, never a crash), and hostile
** headers. Ends by printing decode speeds (not asserted).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../reader/parquet/encoding.h"
#include "../reader/parquet/value.h"
#include "../reader/parquet/meta.h"
#include "unit.h"

/* ---- test-only helpers -------------------------------------------------- */

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rnd(void){
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static uint64_t mask_bits(int bw){ return bw==0 ? 0 : (~0ull) >> (64 - bw); }

/* A growable byte buffer. */
typedef struct bytes { uint8_t *p; size_t n, cap; } bytes;
static void b_put(bytes *b, uint8_t v){
  if( b->n==b->cap ){ b->cap = b->cap ? b->cap*2 : 256; b->p = realloc(b->p, b->cap); }
  b->p[b->n++] = v;
}
static void b_varint(bytes *b, uint64_t v){
  while( v>=0x80 ){ b_put(b, (uint8_t)(v | 0x80)); v >>= 7; }
  b_put(b, (uint8_t)v);
}
static void b_raw(bytes *b, const void *p, size_t n){
  for(size_t i=0; i<n; i++) b_put(b, ((const uint8_t *)p)[i]);
}
/* LSB-first bit packing of n values at bw bits (n*bw a multiple of 8). */
static void b_pack(bytes *b, const uint64_t *v, size_t n, int bw){
  uint64_t acc = 0; int nacc = 0;
  for(size_t i=0; i<n; i++){
    uint64_t x = v[i] & mask_bits(bw);
    for(int k=0; k<bw; k++){
      acc |= ((x >> k) & 1) << nacc;
      if( ++nacc==8 ){ b_put(b, (uint8_t)acc); acc = 0; nacc = 0; }
    }
  }
  if( nacc ) b_put(b, (uint8_t)acc);
}

/* Hybrid encoder mixing RLE runs (for repeats, and sometimes of length 1)
** and bit-packed runs of 1..4 groups, or 8..40 (the last group zero-padded). */
static void enc_hybrid(bytes *b, const uint32_t *v, size_t n, int bw){
  size_t i = 0;
  while( i<n ){
    size_t r = 1;
    while( i+r<n && v[i+r]==v[i] ) r++;
    if( r>=4 || (rnd()%8)==0 ){
      b_varint(b, (uint64_t)r << 1);
      for(int k=0; k<(bw+7)/8; k++) b_put(b, (uint8_t)(v[i] >> (8*k)));
      i += r;
    }else{
      /* now and then a run long enough for the 8-group SIMD steps */
      size_t groups = rnd()%6==0 ? 8 + rnd()%33 : 1 + rnd()%4;
      uint64_t tmp[40*8] = {0};
      for(size_t k=0; k<groups*8 && i+k<n; k++) tmp[k] = v[i+k];
      b_varint(b, (groups << 1) | 1);
      b_pack(b, tmp, groups*8, bw);
      i += groups*8;
    }
  }
}

/* DELTA_BINARY_PACKED encoder; garbage widths for unused miniblocks. */
static void enc_delta(bytes *b, const int64_t *v, size_t n, uint64_t block,
                      uint64_t nmb){
  uint64_t mbv = block / nmb;
  b_varint(b, block); b_varint(b, nmb); b_varint(b, n);
  uint64_t first = n ? (uint64_t)v[0] : 0;
  b_varint(b, (first << 1) ^ (uint64_t)((n ? v[0] : 0) >> 63));
  uint64_t *d = malloc((block + 1) * sizeof(uint64_t));
  for(size_t i=1; i<n; i+=block){
    size_t cnt = n - i < block ? n - i : block;
    int64_t mn = INT64_MAX;
    for(size_t k=0; k<cnt; k++){
      int64_t dd = (int64_t)((uint64_t)v[i+k] - (uint64_t)v[i+k-1]);
      d[k] = (uint64_t)dd;
      if( dd<mn ) mn = dd;
    }
    b_varint(b, ((uint64_t)mn << 1) ^ (uint64_t)(mn >> 63));
    size_t used = (cnt + mbv - 1) / mbv;
    int widths[4096];
    for(size_t m=0; m<nmb; m++){
      int w = 0;
      if( m<used ){
        for(size_t k=m*mbv; k<(m+1)*mbv && k<cnt; k++){
          uint64_t rel = d[k] - (uint64_t)mn;
          while( w<64 && (rel >> w)!=0 ) w++;
        }
        widths[m] = w;
        b_put(b, (uint8_t)w);
      }else{
        b_put(b, (uint8_t)rnd()); /* unused: readers must ignore it */
      }
    }
    for(size_t m=0; m<used; m++){
      uint64_t *tmp = calloc(mbv, sizeof(uint64_t));
      for(size_t k=0; k<mbv && m*mbv+k<cnt; k++) tmp[k] = d[m*mbv+k] - (uint64_t)mn;
      b_pack(b, tmp, mbv, widths[m]);
      free(tmp);
    }
  }
  free(d);
}

static void enc_delta_length(bytes *b, const cv_str *v, size_t n){
  int64_t *l = calloc(n ? n : 1, sizeof(int64_t));
  for(size_t i=0; i<n; i++) l[i] = v[i].n;
  enc_delta(b, l, n, 128, 4);
  for(size_t i=0; i<n; i++) b_raw(b, v[i].p, v[i].n);
  free(l);
}

static void enc_delta_byte_array(bytes *b, const cv_str *v, size_t n){
  int64_t *pre = malloc((n ? n : 1) * sizeof(int64_t));
  cv_str *suf = malloc((n ? n : 1) * sizeof(cv_str));
  for(size_t i=0; i<n; i++){
    uint32_t p = 0;
    if( i ) while( p<v[i].n && p<v[i-1].n && v[i].p[p]==v[i-1].p[p] ) p++;
    pre[i] = p;
    suf[i].p = v[i].p + p;
    suf[i].n = v[i].n - p;
  }
  enc_delta(b, pre, n, 128, 4);
  enc_delta_length(b, suf, n);
  free(pre); free(suf);
}

static uint8_t *dup_exact(const uint8_t *p, size_t n){
  uint8_t *q = malloc(n ? n : 1);
  if( n ) memcpy(q, p, n);
  return q;
}

/* ---- RLE / bit-packed hybrid ------------------------------------------- */

/* Encodings.md: levels 0..7 at bit width 3, bit-packed. */
static void test_rle_spec_example(void){
  const uint8_t in[] = { 0x03, 0x88, 0xC6, 0xFA };
  uint32_t out[8]; uint8_t o8[8]; size_t used = 0;
  col_error e; col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(in, sizeof(in), 3, out, 8, &used, &e), COL_OK);
  for(int i=0; i<8; i++) CHECK_EQ_INT(out[i], i);
  CHECK_EQ_INT(used, 4);
  CHECK_EQ_INT(pq_rle_decode_u8(in, sizeof(in), 3, o8, 8, &used, &e), COL_OK);
  for(int i=0; i<8; i++) CHECK_EQ_INT(o8[i], i);
  /* An RLE run: 5 repeats of 0x0102 at bit width 10. */
  const uint8_t r[] = { 0x0A, 0x02, 0x01 };
  CHECK_EQ_INT(pq_rle_decode(r, sizeof(r), 10, out, 5, &used, &e), COL_OK);
  for(int i=0; i<5; i++) CHECK_EQ_INT(out[i], 0x102);
  CHECK_EQ_INT(used, 3);
}

static void test_rle_roundtrip(void){
  col_error e;
  for(int bw=0; bw<=32; bw++){
    for(int rep=0; rep<6; rep++){
      size_t n = rep==0 ? 0 : rep==1 ? 1 + rnd()%20 : rnd()%5001;
      uint32_t *v = malloc((n+1) * 4), *out = malloc((n+1) * 4);
      uint32_t cur = 0;
      for(size_t i=0; i<n; i++){
        if( rnd()%3==0 || i==0 ) cur = (uint32_t)(rnd() & mask_bits(bw));
        v[i] = (rep%2) ? (uint32_t)(rnd() & mask_bits(bw)) : cur;
      }
      bytes b = {0};
      enc_hybrid(&b, v, n, bw);
      uint8_t *in = dup_exact(b.p, b.n);
      size_t used = 0;
      col_error_clear(&e);
      int rc = pq_rle_decode(in, b.n, bw, out, n, &used, &e);
      CHECK_EQ_INT(rc, COL_OK);
      if( rc ) fprintf(stderr, "bw=%d n=%zu: %s\n", bw, n, e.msg);
      CHECK(n==0 || memcmp(v, out, n*4)==0);
      CHECK(used<=b.n);
      if( bw<=8 ){
        uint8_t *o8 = malloc(n+1);
        col_error_clear(&e);
        CHECK_EQ_INT(pq_rle_decode_u8(in, b.n, bw, o8, n, &used, &e), COL_OK);
        for(size_t i=0; i<n; i++) if( o8[i]!=v[i] ){ CHECK(o8[i]==v[i]); break; }
        free(o8);
      }
      free(in); free(b.p); free(v); free(out);
    }
  }
}

/* Cut the stream at every byte: an error or the right values, never a
** crash (ASan watches the exact-size copies). */
static void test_rle_truncation(void){
  col_error e;
  for(int bw=0; bw<=32; bw+=(bw<9 ? 1 : 5)){
    size_t n = 300;
    uint32_t v[300], out[300];
    for(size_t i=0; i<n; i++) v[i] = (i/37)%2 ? (uint32_t)(rnd() & mask_bits(bw)) : (uint32_t)(7 & mask_bits(bw));
    bytes b = {0};
    enc_hybrid(&b, v, n, bw);
    for(size_t cut=0; cut<=b.n; cut++){
      uint8_t *in = dup_exact(b.p, cut);
      col_error_clear(&e);
      int rc = pq_rle_decode(in, cut, bw, out, n, 0, &e);
      if( rc==COL_OK ) CHECK(memcmp(out, v, sizeof(v))==0);
      else CHECK(e.msg[0]!=0);
      uint8_t o8[300];
      if( bw<=8 ){
        col_error_clear(&e);
        rc = pq_rle_decode_u8(in, cut, bw, o8, n, 0, &e);
        if( rc==COL_OK ) for(size_t i=0; i<n; i++) CHECK(o8[i]==v[i]);
      }
      free(in);
    }
    free(b.p);
  }
}

/* A final bit-packed run declared as 4 groups with only the bytes for the
** first 10 values present is fine when only 10 values are wanted. */
static void test_rle_padded_tail(void){
  col_error e; col_error_clear(&e);
  uint8_t in[1 + 4] = { (4 << 1) | 1, 0xff, 0xff, 0xff, 0x3f }; /* bw=3 */
  uint32_t out[32];
  size_t used = 0;
  /* 10 values * 3 bits = 30 bits = 4 bytes. */
  CHECK_EQ_INT(pq_rle_decode(in, 5, 3, out, 10, &used, &e), COL_OK);
  for(int i=0; i<10; i++) CHECK_EQ_INT(out[i], 7);
  CHECK_EQ_INT(used, 5);
  /* 11 values need 5 bytes: one short. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(in, 4, 3, out, 11, 0, &e), COL_ERROR);
  CHECK(strstr(e.msg, "bit-packed run at byte 0")!=0);
}

static void test_rle_errors(void){
  col_error e; uint32_t out[16]; uint8_t o8[16];
  /* RLE value 8 does not fit in 3 bits. */
  const uint8_t wide[] = { 0x10, 0x08 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(wide, 2, 3, out, 8, 0, &e), COL_ERROR);
  CHECK(strstr(e.msg, "wider than the bit width 3")!=0);
  /* Bad bit widths. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(wide, 2, 33, out, 1, 0, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode_u8(wide, 2, 9, o8, 1, 0, &e), COL_ERROR);
  /* Stream ends early. */
  const uint8_t shortrun[] = { 0x08, 0x01 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(shortrun, 2, 1, out, 8, 0, &e), COL_ERROR);
  CHECK(strstr(e.msg, "byte 2")!=0);
  /* Unterminated varint header. */
  const uint8_t bad[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(bad, sizeof(bad), 1, out, 8, 0, &e), COL_ERROR);
  /* A huge bit-packed run header must not overflow or over-allocate. */
  const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(huge, sizeof(huge), 32, out, 16, 0, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(huge, sizeof(huge), 0, out, 16, 0, &e), COL_OK);
  /* bw==0 with nothing left: zeros. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_rle_decode(huge, 0, 0, out, 16, 0, &e), COL_OK);
  CHECK_EQ_INT(out[15], 0);
}

static void test_dict_indexes(void){
  col_error e; uint32_t out[64];
  /* bw=2, 8 values 0..3 bit-packed, then RLE 4 x 3. */
  const uint8_t ok[] = { 2, 0x03, 0xE4, 0xE4, 0x08, 0x03 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_dict_indexes_decode(ok, sizeof(ok), out, 12, 4, &e), COL_OK);
  for(int i=0; i<8; i++) CHECK_EQ_INT(out[i], i%4);
  for(int i=8; i<12; i++) CHECK_EQ_INT(out[i], 3);
  /* Same with a 3-entry dictionary: index 3 at value 3 is out of range. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_dict_indexes_decode(ok, sizeof(ok), out, 12, 3, &e), COL_ERROR);
  CHECK(strstr(e.msg, "value 3 is index 3")!=0);
  CHECK(strstr(e.msg, "3 entries")!=0);
  /* Bit width byte over 32. */
  const uint8_t bw33[] = { 33, 0x02, 0 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_dict_indexes_decode(bw33, sizeof(bw33), out, 1, 5, &e), COL_ERROR);
  CHECK(strstr(e.msg, "bit width 33")!=0);
  /* Empty pages. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_dict_indexes_decode(ok, 0, out, 0, 0, &e), COL_OK);
  const uint8_t bw0[] = { 0 };
  CHECK_EQ_INT(pq_dict_indexes_decode(bw0, 1, out, 0, 1, &e), COL_OK);
  /* bw 0 with a one-entry dictionary: all zeros. */
  const uint8_t bw0run[] = { 0, 0x14 };
  CHECK_EQ_INT(pq_dict_indexes_decode(bw0run, 2, out, 10, 1, &e), COL_OK);
  CHECK_EQ_INT(out[9], 0);
  /* ... and with an empty dictionary, index 0 is out of range. */
  CHECK_EQ_INT(pq_dict_indexes_decode(bw0run, 2, out, 10, 0, &e), COL_ERROR);
  /* No bit width byte for values. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_dict_indexes_decode(ok, 0, out, 3, 4, &e), COL_ERROR);
  /* Random round trips with dict sizes around the bit width. */
  for(int bw=1; bw<=20; bw++){
    uint32_t v[500], o[500];
    uint32_t ds = (uint32_t)(1u << (bw-1)) + 1;
    for(int i=0; i<500; i++) v[i] = (uint32_t)(rnd() % ds);
    v[rnd() % 500] = ds - 1; /* so a dictionary one smaller must fail */
    bytes b = {0};
    b_put(&b, (uint8_t)bw);
    enc_hybrid(&b, v, 500, bw);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_dict_indexes_decode(b.p, b.n, o, 500, ds, &e), COL_OK);
    CHECK(memcmp(v, o, sizeof(v))==0);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_dict_indexes_decode(b.p, b.n, o, 500, ds-1, &e)!=COL_OK, 1);
    free(b.p);
  }
  /* At 32 bits, indexes with the top bit set are past any small dictionary
  ** (the SSE2 range check compares signed, moved by 2^31; the AVX-512 one
  ** unsigned), in the vector part (4 or 16 at a time) or the tail. */
  for(int at=0; at<37; at++){
    uint32_t v[37], o[37];
    for(int i=0; i<37; i++) v[i] = (uint32_t)(i % 5);
    v[at] = 0x80000000u + (uint32_t)at;
    bytes b = {0};
    b_put(&b, 32);
    enc_hybrid(&b, v, 37, 32);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_dict_indexes_decode(b.p, b.n, o, 37, 5, &e)!=COL_OK, 1);
    v[at] = 5;                       /* just past, unsigned either way */
    b.n = 0;
    b_put(&b, 32);
    enc_hybrid(&b, v, 37, 32);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_dict_indexes_decode(b.p, b.n, o, 37, 5, &e)!=COL_OK, 1);
    v[at] = 4;
    b.n = 0;
    b_put(&b, 32);
    enc_hybrid(&b, v, 37, 32);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_dict_indexes_decode(b.p, b.n, o, 37, 5, &e), COL_OK);
    free(b.p);
  }
}

static void test_bitpacked_msb(void){
  /* Encodings.md: 0..7 at bit width 3, MSB first. */
  const uint8_t in[] = { 0x05, 0x39, 0x77 };
  uint8_t out[8];
  col_error e; col_error_clear(&e);
  CHECK_EQ_INT(pq_bitpacked_msb_decode(in, 3, 3, out, 8, &e), COL_OK);
  for(int i=0; i<8; i++) CHECK_EQ_INT(out[i], i);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_bitpacked_msb_decode(in, 2, 3, out, 8, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_bitpacked_msb_decode(in, 3, 9, out, 1, &e), COL_ERROR);
  CHECK_EQ_INT(pq_bitpacked_msb_decode(in, 0, 0, out, 8, &e), COL_OK);
  /* Round trip every width. */
  for(int bw=1; bw<=8; bw++){
    uint8_t v[333], o[333], pk[400] = {0};
    size_t bit = 0;
    for(int i=0; i<333; i++){
      v[i] = (uint8_t)(rnd() & mask_bits(bw));
      for(int k=bw-1; k>=0; k--, bit++) if( (v[i] >> k) & 1 ) pk[bit/8] |= (uint8_t)(0x80 >> (bit%8));
    }
    col_error_clear(&e);
    CHECK_EQ_INT(pq_bitpacked_msb_decode(pk, (bit+7)/8, bw, o, 333, &e), COL_OK);
    CHECK(memcmp(v, o, 333)==0);
  }
}

/* ---- PLAIN -------------------------------------------------------------- */

static void test_plain(void){
  col_error e; size_t used;
  int32_t i32[4] = { 1, -2, 3, INT32_MIN }, o32[4];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_fixed_decode((const uint8_t *)i32, 16, 4, o32, 4, &used, &e), COL_OK);
  CHECK(memcmp(i32, o32, 16)==0);
  CHECK_EQ_INT(used, 16);
  CHECK_EQ_INT(pq_plain_fixed_decode((const uint8_t *)i32, 15, 4, o32, 4, &used, &e), COL_ERROR);
  uint8_t i96[24], o96[24];
  for(int i=0; i<24; i++) i96[i] = (uint8_t)i;
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_fixed_decode(i96, 24, 12, o96, 2, &used, &e), COL_OK);
  CHECK(memcmp(i96, o96, 24)==0);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_fixed_decode(i96, 24, 12, o96, SIZE_MAX / 4, &used, &e), COL_ERROR);

  /* Booleans: 0b01001101, 0b1 -> 1 0 1 1 0 0 1 0 1 */
  const uint8_t bits[] = { 0x4D, 0x01 };
  uint8_t ob[9];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_bool_decode(bits, 2, ob, 9, &used, &e), COL_OK);
  const uint8_t want[9] = { 1, 0, 1, 1, 0, 0, 1, 0, 1 };
  CHECK(memcmp(ob, want, 9)==0);
  CHECK_EQ_INT(used, 2);
  CHECK_EQ_INT(pq_plain_bool_decode(bits, 1, ob, 9, &used, &e), COL_ERROR);

  /* BYTE_ARRAY: "ab", "", "xyz" */
  const uint8_t ba[] = { 2,0,0,0,'a','b', 0,0,0,0, 3,0,0,0,'x','y','z' };
  cv_str s[3];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_byte_array_decode(ba, sizeof(ba), s, 3, &used, &e), COL_OK);
  CHECK(s[0].n==2 && memcmp(s[0].p, "ab", 2)==0);
  CHECK(s[1].n==0);
  CHECK(s[2].n==3 && memcmp(s[2].p, "xyz", 3)==0);
  CHECK_EQ_INT(used, sizeof(ba));
  for(size_t cut=0; cut<sizeof(ba); cut++){
    uint8_t *in = dup_exact(ba, cut);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_plain_byte_array_decode(in, cut, s, 3, &used, &e), COL_ERROR);
    CHECK(e.msg[0]!=0);
    free(in);
  }
  /* A length of 2^32-1. */
  const uint8_t huge[] = { 0xff,0xff,0xff,0xff, 'a' };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_byte_array_decode(huge, 5, s, 1, &used, &e), COL_ERROR);
  CHECK(strstr(e.msg, "length 4294967295 at byte 0")!=0);

  /* FIXED_LEN_BYTE_ARRAY */
  const uint8_t fl[] = "abcdefgh";
  col_error_clear(&e);
  CHECK_EQ_INT(pq_plain_flba_decode(fl, 8, 3, s, 2, &used, &e), COL_OK);
  CHECK(s[1].n==3 && memcmp(s[1].p, "def", 3)==0);
  CHECK_EQ_INT(used, 6);
  CHECK_EQ_INT(pq_plain_flba_decode(fl, 8, 3, s, 3, &used, &e), COL_ERROR);
}

/* ---- DELTA_BINARY_PACKED ------------------------------------------------ */

/* The spec's examples, with the spec-mandated block size 128 and 4
** miniblocks (the spec illustrates with a block of 8). */
static void test_delta_spec_examples(void){
  col_error e; int64_t out[8]; size_t used;
  /* 1 2 3 4 5: min delta 1, bit width 0, no miniblock bytes. */
  const uint8_t ex1[] = { 0x80,0x01, 0x04, 0x05, 0x02,  0x02, 0,0,0,0, 0xEE };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(ex1, sizeof(ex1), out, 5, &used, &e), COL_OK);
  for(int i=0; i<5; i++) CHECK_EQ_INT(out[i], i+1);
  CHECK_EQ_INT(used, 10);
  /* 7 5 3 1 2 3 4 5: min delta -2, relative 0 0 0 3 3 3 3 at 2 bits;
  ** garbage widths for the three unused miniblocks. */
  const uint8_t ex2[] = { 0x80,0x01, 0x04, 0x08, 0x0E,  0x03, 0x02,0xFF,0xAA,0x41,
                          0xC0,0x3F,0,0,0,0,0,0, 0x99 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(ex2, sizeof(ex2), out, 8, &used, &e), COL_OK);
  const int64_t w2[8] = { 7, 5, 3, 1, 2, 3, 4, 5 };
  CHECK(memcmp(out, w2, sizeof(w2))==0);
  CHECK_EQ_INT(used, 18);
  /* Fewer values than the header declares. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(ex2, 18, out, 3, &used, &e), COL_OK);
  CHECK_EQ_INT(out[2], 3);
  CHECK_EQ_INT(used, 18);
  /* More than it declares. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(ex2, 18, out, 9, &used, &e), COL_ERROR);
  /* A single value: header only. */
  const uint8_t one[] = { 0x80,0x01, 0x04, 0x01, 0x03 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(one, 5, out, 1, &used, &e), COL_OK);
  CHECK_EQ_INT(out[0], -2);
  CHECK_EQ_INT(used, 5);
}

static void delta_roundtrip_one(const int64_t *v, size_t n, uint64_t block,
                                uint64_t nmb){
  col_error e;
  bytes b = {0};
  enc_delta(&b, v, n, block, nmb);
  size_t enc_len = b.n;
  b_put(&b, 0x5A); b_put(&b, 0xA5); /* what follows the stream in a page */
  uint8_t *in = dup_exact(b.p, b.n);
  int64_t *out = malloc((n+1) * sizeof(int64_t));
  size_t used = 0;
  col_error_clear(&e);
  int rc = pq_delta_binary_decode(in, b.n, out, n, &used, &e);
  CHECK_EQ_INT(rc, COL_OK);
  if( rc ) fprintf(stderr, "n=%zu block=%llu: %s\n", n, (unsigned long long)block, e.msg);
  CHECK(n==0 || memcmp(out, v, n*8)==0);
  CHECK_EQ_INT(used, enc_len);
  /* Fewer values: same prefix, and consumed still the whole stream. */
  if( n>2 ){
    size_t m = 1 + rnd()%(n-1);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_delta_binary_decode(in, b.n, out, m, &used, &e), COL_OK);
    CHECK(memcmp(out, v, m*8)==0);
    CHECK_EQ_INT(used, enc_len);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_delta_binary_decode(in, b.n, out, m, 0, &e), COL_OK);
  }
  free(in); free(out); free(b.p);
}

static void test_delta_roundtrip(void){
  static const uint64_t cfg[][2] = { {128,4}, {128,1}, {256,8}, {2048,64}, {128,16} };
  /* Every bit width 0..64: deltas spanning exactly bw bits. */
  for(int bw=0; bw<=64; bw++){
    size_t n = 200 + rnd()%600;
    int64_t *v = malloc(n * sizeof(int64_t));
    uint64_t x = rnd();
    for(size_t i=0; i<n; i++){
      v[i] = (int64_t)x;
      x += rnd() & mask_bits(bw);
    }
    delta_roundtrip_one(v, n, 128, 4);
    free(v);
  }
  /* Random lengths and block layouts, random and extreme values. */
  for(int rep=0; rep<60; rep++){
    size_t n = rep<5 ? (size_t)rep : rnd()%5001;
    int64_t *v = malloc((n+1) * sizeof(int64_t));
    int kind = rep % 4;
    for(size_t i=0; i<n; i++){
      switch( kind ){
        case 0: v[i] = (int64_t)rnd(); break;
        case 1: v[i] = (int64_t)(rnd()%100) - 50; break;
        case 2: v[i] = (i%2) ? INT64_MAX : INT64_MIN; break;
        default: v[i] = (int64_t)(i*3 + 7); break;
      }
    }
    const uint64_t *c = cfg[rep % 5];
    delta_roundtrip_one(v, n, c[0], c[1]);
    free(v);
  }
}

static void test_delta_truncation(void){
  col_error e;
  size_t n = 400;
  int64_t v[400], out[400];
  for(size_t i=0; i<n; i++) v[i] = (int64_t)(rnd() % 100000);
  bytes b = {0};
  enc_delta(&b, v, n, 128, 4);
  for(size_t cut=0; cut<=b.n; cut++){
    uint8_t *in = dup_exact(b.p, cut);
    size_t used;
    col_error_clear(&e);
    int rc = pq_delta_binary_decode(in, cut, out, n, &used, &e);
    if( rc==COL_OK ) CHECK(memcmp(out, v, sizeof(v))==0);
    else CHECK(e.msg[0]!=0);
    col_error_clear(&e);
    rc = pq_delta_binary_decode(in, cut, out, 100, 0, &e);
    if( rc==COL_OK ) CHECK(memcmp(out, v, 100*8)==0);
    free(in);
  }
  free(b.p);
}

static void test_delta_hostile(void){
  col_error e; int64_t out[16]; size_t used;
  /* Block size 0, 100, not multiple of 128; miniblocks not dividing. */
  const uint8_t b0[] = { 0x00, 0x04, 0x05, 0x02 };
  const uint8_t b100[] = { 100, 0x04, 0x05, 0x02 };
  const uint8_t mb3[] = { 0x80,0x01, 0x03, 0x05, 0x02 };
  const uint8_t mb0[] = { 0x80,0x01, 0x00, 0x05, 0x02 };
  const uint8_t mb32[] = { 0x80,0x01, 0x20, 0x05, 0x02 }; /* 4 values per miniblock */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(b0, 4, out, 5, &used, &e), COL_ERROR);
  CHECK(strstr(e.msg, "block size 0")!=0);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(b100, 4, out, 5, &used, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(mb3, 5, out, 5, &used, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(mb0, 5, out, 5, &used, &e), COL_ERROR);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(mb32, 5, out, 5, &used, &e), COL_ERROR);
  /* Bit width 65 in a used miniblock. */
  const uint8_t w65[] = { 0x80,0x01, 0x04, 0x05, 0x02, 0x02, 65,0,0,0 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(w65, sizeof(w65), out, 5, &used, &e), COL_ERROR);
  CHECK(strstr(e.msg, "bit width 65")!=0);
  /* Total count 2^63 with 5 values wanted: fine without consumed, an error
  ** (truncated stream) with it; never a hang. */
  const uint8_t big[] = { 0x80,0x01, 0x04, 0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x01,
                          0x02, 0x02, 0,0,0,0 };
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(big, sizeof(big), out, 5, 0, &e), COL_OK);
  CHECK_EQ_INT(out[4], 5);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(big, sizeof(big), out, 5, &used, &e), COL_ERROR);
  /* Empty input with no values wanted. */
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_binary_decode(big, 0, out, 0, &used, &e), COL_OK);
  CHECK_EQ_INT(used, 0);
  CHECK_EQ_INT(pq_delta_binary_decode(big, 0, out, 1, &used, &e), COL_ERROR);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY ----------------------- */

/* n random strings drawn so that neighbours share prefixes. */
static cv_str *make_strings(size_t n, char **pool){
  cv_str *s = malloc((n+1) * sizeof(cv_str));
  size_t cap = n * 40 + 1, off = 0;
  char *p = malloc(cap);
  for(size_t i=0; i<n; i++){
    uint32_t len = (uint32_t)(rnd() % 30);
    uint32_t keep = (i && rnd()%2) ? (uint32_t)(rnd() % (s[i-1].n + 1)) : 0;
    if( keep > len ) len = keep;
    if( keep ) memcpy(p + off, s[i-1].p, keep);
    for(uint32_t k=keep; k<len; k++) p[off+k] = (char)('a' + rnd()%3);
    s[i].p = p + off; s[i].n = len;
    off += len;
  }
  *pool = p;
  return s;
}

static void test_delta_length(void){
  col_error e;
  for(int rep=0; rep<20; rep++){
    size_t n = rep<3 ? (size_t)rep : rnd()%3000;
    char *pool;
    cv_str *s = make_strings(n, &pool), *o = malloc((n+1) * sizeof(cv_str));
    bytes b = {0};
    enc_delta_length(&b, s, n);
    uint8_t *in = dup_exact(b.p, b.n);
    size_t used = 0;
    col_error_clear(&e);
    CHECK_EQ_INT(pq_delta_length_decode(in, b.n, o, n, &used, &e), COL_OK);
    CHECK_EQ_INT(used, b.n);
    for(size_t i=0; i<n; i++){
      if( o[i].n!=s[i].n || (s[i].n && memcmp(o[i].p, s[i].p, s[i].n)) ){ CHECK(0); break; }
    }
    if( rep==5 ){
      for(size_t cut=0; cut<b.n; cut++){
        uint8_t *t = dup_exact(b.p, cut);
        col_error_clear(&e);
        int rc = pq_delta_length_decode(t, cut, o, n, &used, &e);
        CHECK(rc!=COL_OK || n==0);
        free(t);
      }
    }
    free(in); free(b.p); free(s); free(o); free(pool);
  }
  /* A negative length. */
  int64_t l[2] = { 1, -1 };
  bytes b = {0};
  enc_delta(&b, l, 2, 128, 4);
  b_put(&b, 'x');
  cv_str o[2];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_length_decode(b.p, b.n, o, 2, 0, &e), COL_ERROR);
  CHECK(strstr(e.msg, "value 1 has length -1")!=0);
  free(b.p);
}

static void test_delta_byte_array(void){
  col_error e;
  col_arena a;
  col_arena_init(&a);
  /* The spec's example: axis, axle, babble, babyhood. */
  const char *words[] = { "axis", "axle", "babble", "babyhood" };
  cv_str ws[4];
  for(int i=0; i<4; i++){ ws[i].p = words[i]; ws[i].n = (uint32_t)strlen(words[i]); }
  bytes b = {0};
  enc_delta_byte_array(&b, ws, 4);
  cv_str o[4];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_byte_array_decode(b.p, b.n, o, 4, &a, &e), COL_OK);
  for(int i=0; i<4; i++) CHECK(o[i].n==ws[i].n && memcmp(o[i].p, words[i], ws[i].n)==0);
  free(b.p);
  for(int rep=0; rep<20; rep++){
    size_t n = rep<3 ? (size_t)rep : rnd()%3000;
    char *pool;
    cv_str *s = make_strings(n, &pool), *out = malloc((n+1) * sizeof(cv_str));
    bytes bb = {0};
    enc_delta_byte_array(&bb, s, n);
    uint8_t *in = dup_exact(bb.p, bb.n);
    col_error_clear(&e);
    CHECK_EQ_INT(pq_delta_byte_array_decode(in, bb.n, out, n, &a, &e), COL_OK);
    for(size_t i=0; i<n; i++){
      if( out[i].n!=s[i].n || (s[i].n && memcmp(out[i].p, s[i].p, s[i].n)) ){ CHECK(0); break; }
    }
    if( rep==4 ){
      for(size_t cut=0; cut<bb.n; cut++){
        uint8_t *t = dup_exact(bb.p, cut);
        col_error_clear(&e);
        int rc = pq_delta_byte_array_decode(t, cut, out, n, &a, &e);
        if( rc==COL_OK ){
          for(size_t i=0; i<n; i++) CHECK(out[i].n==s[i].n && (s[i].n==0 || memcmp(out[i].p, s[i].p, s[i].n)==0));
        }
        free(t);
      }
    }
    col_arena_reset(&a);
    free(in); free(bb.p); free(s); free(out); free(pool);
  }
  /* A prefix longer than the previous value. */
  int64_t pre[2] = { 0, 5 }, sl[2] = { 2, 1 };
  bytes bad = {0};
  enc_delta(&bad, pre, 2, 128, 4);
  enc_delta(&bad, sl, 2, 128, 4);
  b_raw(&bad, "abc", 3);
  col_error_clear(&e);
  CHECK_EQ_INT(pq_delta_byte_array_decode(bad.p, bad.n, o, 2, &a, &e), COL_ERROR);
  CHECK(strstr(e.msg, "value 1 has prefix length 5")!=0);
  free(bad.p);
  col_arena_free(&a);
}

/* ---- BYTE_STREAM_SPLIT -------------------------------------------------- */

static void test_byte_stream_split(void){
  col_error e;
  for(size_t w=1; w<=17; w++){
    size_t n = rnd()%700;
    uint8_t *v = malloc(n*w + 1), *enc = malloc(n*w + 1), *o = malloc(n*w + 1);
    for(size_t i=0; i<n*w; i++) v[i] = (uint8_t)rnd();
    for(size_t i=0; i<n; i++) for(size_t k=0; k<w; k++) enc[k*n + i] = v[i*w + k];
    col_error_clear(&e);
    CHECK_EQ_INT(pq_byte_stream_split_decode(enc, n*w, w, o, n, &e), COL_OK);
    CHECK(n==0 || memcmp(o, v, n*w)==0);
    if( n ){
      col_error_clear(&e);
      CHECK_EQ_INT(pq_byte_stream_split_decode(enc, n*w - 1, w, o, n, &e), COL_ERROR);
    }
    free(v); free(enc); free(o);
  }
  /* Spec-style example: two floats 1.0f (0x3f800000) and 2.0f (0x40000000). */
  const uint8_t in[] = { 0x00,0x00, 0x00,0x00, 0x80,0x00, 0x3f,0x40 };
  float f[2];
  col_error_clear(&e);
  CHECK_EQ_INT(pq_byte_stream_split_decode(in, 8, 4, (uint8_t *)f, 2, &e), COL_OK);
  CHECK(f[0]==1.0f && f[1]==2.0f);
  CHECK_EQ_INT(pq_byte_stream_split_decode(in, 8, 0, (uint8_t *)f, 2, &e), COL_ERROR);
}

/* ---- speed (printed, not asserted) ------------------------------------- */

static double now_sec(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void speed_report(void){
  const size_t n = 10*1000*1000;
  uint32_t *v = malloc(n * 4), *o = malloc(n * 4);
  col_error e;
  memset(o, 0, n * 4); /* fault the pages in before timing */
  static const int widths[] = { 1, 8, 17 };
  for(int wi=0; wi<3; wi++){
    int bw = widths[wi];
    for(size_t i=0; i<n; i++) v[i] = (uint32_t)(rnd() & mask_bits(bw));
    /* One bit-packed run per 8000 values: the shape writers produce for
    ** high-cardinality data. */
    bytes b = {0};
    uint64_t tmp[8000];
    for(size_t i=0; i<n; i+=8000){
      for(int k=0; k<8000; k++) tmp[k] = v[i+k];
      b_varint(&b, (1000 << 1) | 1);
      b_pack(&b, tmp, 8000, bw);
    }
    /* Best of three, so page faults and cold caches do not count. */
    double t = 1e9;
    int rc = COL_OK;
    for(int r=0; r<3; r++){
      col_error_clear(&e);
      double t0 = now_sec();
      rc |= pq_rle_decode(b.p, b.n, bw, o, n, 0, &e);
      double dt = now_sec() - t0;
      if( dt<t ) t = dt;
    }
    CHECK_EQ_INT(rc, COL_OK);
    CHECK(memcmp(v, o, n*4)==0);
    printf("speed: rle bw=%-2d  %7.0f M values/s\n", bw, n / t / 1e6);
    free(b.p);
  }
  free(v); free(o);
  int64_t *dv = malloc(n * 8), *dout = malloc(n * 8);
  memset(dout, 0, n * 8);
  uint64_t x = 0;
  for(size_t i=0; i<n; i++){ dv[i] = (int64_t)x; x += rnd() % 4096; }
  bytes b = {0};
  enc_delta(&b, dv, n, 128, 4);
  size_t used;
  double t = 1e9;
  int rc = COL_OK;
  for(int r=0; r<3; r++){
    col_error_clear(&e);
    double t0 = now_sec();
    rc |= pq_delta_binary_decode(b.p, b.n, dout, n, &used, &e);
    double dt = now_sec() - t0;
    if( dt<t ) t = dt;
  }
  CHECK_EQ_INT(rc, COL_OK);
  CHECK(memcmp(dv, dout, n*8)==0);
  printf("speed: delta int64 %7.0f M values/s\n", n / t / 1e6);
  free(b.p); free(dv); free(dout);
}

/* pq_levels_scan against a byte loop: every length to 5000 in steps that
** cross the 16-byte and 255-block boundaries, levels 0..max with one level
** above it planted at varying places or none. */
static void test_levels_scan(void){
  enum { N = 5000 };
  uint8_t *lv = malloc(N);
  uint32_t x = 12345;
  int bad = 0;
  for(int n=0; n<=N; n += (n<70 ? 1 : 97)){
    for(int maxl=0; maxl<=3; maxl++){
      for(int plant=-1; plant<n && plant<40; plant += (plant<0 ? 1 : 13)){
        for(int i=0; i<n; i++){ x = x*1103515245u + 12345u; lv[i] = (uint8_t)((x>>16) % (unsigned)(maxl+1)); }
        int at = plant<0 ? -1 : (int)((unsigned)plant * 7919u % (unsigned)n);
        if( at>=0 ) lv[at] = (uint8_t)(maxl + 1 + (at & 1)*200);
        uint8_t hi = 0; int64_t eq = 0;
        for(int i=0; i<n; i++){ if( lv[i]>hi ) hi = lv[i]; eq += lv[i]==maxl; }
        int64_t got_eq = -1;
        uint8_t got_hi = pq_levels_scan(lv, n, (uint8_t)maxl, &got_eq);
        bad += got_hi!=hi || got_eq!=eq;
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  free(lv);
}

/* Timestamps through the date memo read as without it: days that share a
** memo slot (64 apart), negative days, years past 9999 (never memoized),
** every unit, and fractions. */
static void test_timestamp_memo(void){
  pq_date_memo memo;
  memset(memo.used, 0, sizeof(memo.used));
  static const int units[] = { PQ_UNIT_MILLIS, PQ_UNIT_MICROS, PQ_UNIT_NANOS };
  uint64_t x = 99;
  int bad = 0;
  for(int k=0; k<20000; k++){
    x ^= x<<13; x ^= x>>7; x ^= x<<17;
    int unit = units[k % 3];
    int64_t per = unit==PQ_UNIT_MILLIS ? 1000 : unit==PQ_UNIT_NANOS ? 1000000000 : 1000000;
    int64_t days;
    switch( k % 4 ){
      case 0: days = 15887 + (int64_t)(x % 40); break;          /* a few weeks */
      case 1: days = 15887 + 64*(int64_t)(x % 5); break;        /* one memo slot */
      case 2:                                                   /* far off, both sides */
        days = unit==PQ_UNIT_NANOS ? -100000 + (int64_t)(x % 200000) : -800000 + (int64_t)(x % 1600000);
        break;
      default: days = (unit==PQ_UNIT_NANOS ? 100000 : 3000000) - (int64_t)(x % 5); break;
    }
    int64_t v = days*86400*per + (int64_t)((x>>20) % (uint64_t)(86400*per));
    char a[PQ_TEXT_MAX], b[PQ_TEXT_MAX];
    int na = pq_format_timestamp(v, unit, a);
    int nb = pq_format_timestamp_memo(v, unit, b, &memo);
    bad += na!=nb || memcmp(a, b, (size_t)na)!=0;
  }
  CHECK_EQ_INT(bad, 0);
}

int main(void){
  RUN(test_rle_spec_example);
  RUN(test_rle_roundtrip);
  RUN(test_rle_truncation);
  RUN(test_rle_padded_tail);
  RUN(test_rle_errors);
  RUN(test_dict_indexes);
  RUN(test_bitpacked_msb);
  RUN(test_plain);
  RUN(test_delta_spec_examples);
  RUN(test_delta_roundtrip);
  RUN(test_delta_truncation);
  RUN(test_delta_hostile);
  RUN(test_delta_length);
  RUN(test_delta_byte_array);
  RUN(test_byte_stream_split);
  RUN(speed_report);
  RUN(test_levels_scan);
  RUN(test_timestamp_memo);
  return unit_report("encoding");
}
