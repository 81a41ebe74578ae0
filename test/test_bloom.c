/*
** test_bloom.c — unit tests for reader/parquet/bloom.c.
**
** Filters are built here with a test-only insert written from the spec
** (BloomFilter.md), so check and insert are two independent readings of it.
** If parquet-testing is present, the filter in data/bloom_filter.xxhash.bin
** (written by parquet-mr) must contain the four strings it was built from.
*/
#include "../reader/parquet/bloom.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>

#define TESTDATA "/work/shared/testdata/parquet-testing/data/"

/* Spec: block = ((h>>32)*nblocks)>>32; word i |= 1 << ((uint32)h*SALT[i] >> 27). */
static void bloom_insert(uint8_t *bitset, size_t nbytes, uint64_t h){
  static const uint32_t salt[8] = { 0x47b6137b, 0x44974d91, 0x8824ad5b,
    0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31 };
  uint64_t nblocks = nbytes/32;
  uint8_t *blk = bitset + 32*(((h>>32)*nblocks)>>32);
  for(int i=0; i<8; i++){
    uint32_t bit = ((uint32_t)h * salt[i]) >> 27;
    blk[4*i + bit/8] |= (uint8_t)(1u << (bit%8));   /* little-endian words */
  }
}

static void test_hashes(void){
  /* XXH64 of nothing, seed 0, is the published constant. */
  CHECK(pq_bloom_hash_bytes("", 0)==0xEF46DB3751D8E999ull);
  CHECK(pq_bloom_hash_bytes(0, 0)==0xEF46DB3751D8E999ull);
  uint8_t le4[4] = { 0x78, 0x56, 0x34, 0x12 };
  CHECK(pq_bloom_hash_i32(0x12345678)==XXH64(le4, 4, 0));
  uint8_t m1[8]; memset(m1, 0xff, 8);
  CHECK(pq_bloom_hash_i64(-1)==XXH64(m1, 8, 0));
  CHECK(pq_bloom_hash_i32(-1)==XXH64(m1, 4, 0));
  uint8_t f1[4] = { 0x00, 0x00, 0x80, 0x3f };            /* 1.0f */
  CHECK(pq_bloom_hash_f32(1.0f)==XXH64(f1, 4, 0));
  uint8_t d1[8] = { 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };      /* 1.0 */
  CHECK(pq_bloom_hash_f64(1.0)==XXH64(d1, 8, 0));
  CHECK(pq_bloom_hash_f64(0.0)!=pq_bloom_hash_f64(-0.0));
  CHECK(pq_bloom_hash_bytes("abc", 3)==XXH64("abc", 3, 0));
  CHECK(pq_bloom_hash_i32(7)!=pq_bloom_hash_i64(7));
}

static void test_membership_and_fpr(void){
  size_t nbytes = 16*1024;      /* 128 Kibit for 10000 values: ~1% FPR */
  uint8_t *bits = calloc(1, nbytes);
  for(int64_t v=0; v<10000; v++) bloom_insert(bits, nbytes, pq_bloom_hash_i64(v*7919));
  int missing = 0;
  for(int64_t v=0; v<10000; v++) missing += !pq_bloom_check(bits, nbytes, pq_bloom_hash_i64(v*7919));
  CHECK_EQ_INT(missing, 0);
  int fp = 0;
  for(int64_t v=0; v<100000; v++) fp += pq_bloom_check(bits, nbytes, pq_bloom_hash_i64(-1-v*7919));
  /* Theory says about 1%; 3% would mean the block or bit choice is off. */
  if( fp>=3000 ) fprintf(stderr, "false positives: %d of 100000\n", fp);
  CHECK(fp<3000);
  CHECK(fp>0);
  free(bits);
}

static void test_strings_and_empty(void){
  size_t nbytes = 1024;
  uint8_t *bits = calloc(1, nbytes);
  static const char *words[] = { "Moscow", "Paris", "", "a longer string value" };
  for(int i=0; i<4; i++) CHECK(!pq_bloom_check(bits, nbytes, pq_bloom_hash_bytes(words[i], strlen(words[i]))));
  for(int i=0; i<4; i++) bloom_insert(bits, nbytes, pq_bloom_hash_bytes(words[i], strlen(words[i])));
  for(int i=0; i<4; i++) CHECK(pq_bloom_check(bits, nbytes, pq_bloom_hash_bytes(words[i], strlen(words[i]))));
  free(bits);
}

/* Malformed sizes prune nothing, and reads stay inside the bitset: the
** buffers are malloc'd to the exact size so ASan sees any overread. */
static void test_bounds(void){
  uint8_t *zero = calloc(1, 64);
  CHECK_EQ_INT(pq_bloom_check(zero, 0, 123), 1);
  CHECK_EQ_INT(pq_bloom_check(zero, 31, 123), 1);
  CHECK_EQ_INT(pq_bloom_check(zero, 33, 123), 1);
  CHECK_EQ_INT(pq_bloom_check(0, 64, 123), 1);
  CHECK_EQ_INT(pq_bloom_check(zero, 64, 123), 0);
  free(zero);
  for(size_t nblocks=1; nblocks<=9; nblocks++){
    uint8_t *b = malloc(nblocks*32);
    memset(b, 0, nblocks*32);
    /* Extreme hashes pick the first and the last block. */
    static const uint64_t hs[] = { 0, ~0ull, 0xffffffff00000000ull, 0x00000000ffffffffull, 0x8000000080000000ull };
    for(size_t i=0; i<sizeof(hs)/sizeof(hs[0]); i++){
      memset(b, 0, nblocks*32);
      CHECK_EQ_INT(pq_bloom_check(b, nblocks*32, hs[i]), 0);
      bloom_insert(b, nblocks*32, hs[i]);
      CHECK_EQ_INT(pq_bloom_check(b, nblocks*32, hs[i]), 1);
    }
    memset(b, 0xff, nblocks*32);
    CHECK_EQ_INT(pq_bloom_check(b, nblocks*32, 42), 1);
    free(b);
  }
}

/* data/bloom_filter.xxhash.bin: a 16-byte thrift BloomFilterHeader
** (numBytes 1024, SPLIT_BLOCK, XXHASH, UNCOMPRESSED) then the bitset. */
static void test_parquet_testing_file(void){
  FILE *f = fopen(TESTDATA "bloom_filter.xxhash.bin", "rb");
  if( f==0 ){ printf("bloom: parquet-testing not found, skipping file check\n"); return; }
  uint8_t data[2048];
  size_t n = fread(data, 1, sizeof(data), f);
  fclose(f);
  CHECK_EQ_INT(n, 1040);
  /* Field 1 (i32, compact type 5) numBytes as a zigzag varint: 0x80 0x10. */
  CHECK(data[0]==0x15 && data[1]==0x80 && data[2]==0x10);
  const uint8_t *bits = data + 16;
  static const char *in[] = { "hello", "parquet", "bloom", "filter" };
  for(int i=0; i<4; i++){
    int hit = pq_bloom_check(bits, 1024, pq_bloom_hash_bytes(in[i], strlen(in[i])));
    if( !hit ) fprintf(stderr, "bloom_filter.xxhash.bin lacks \"%s\"\n", in[i]);
    CHECK(hit);
  }
  /* 1024 bytes, 4 values: almost nothing else may hit. */
  int fp = 0;
  char s[32];
  for(int i=0; i<1000; i++){
    snprintf(s, sizeof(s), "absent-%d", i);
    fp += pq_bloom_check(bits, 1024, pq_bloom_hash_bytes(s, strlen(s)));
  }
  CHECK(fp<10);
}

int main(void){
  RUN(test_hashes);
  RUN(test_membership_and_fpr);
  RUN(test_strings_and_empty);
  RUN(test_bounds);
  RUN(test_parquet_testing_file);
  return unit_report("bloom");
}
