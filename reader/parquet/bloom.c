/*
** bloom.c — probing Parquet split-block bloom filters; see bloom.h.
**
** Only the read side lives here: we never write Parquet. Byte order is made
** explicit (values and bitset words are little endian in the file) so the
** code gives the same answers on any host.
*/
#include "bloom.h"

#include <string.h>
#include <xxhash.h>

/* The eight odd constants of BloomFilter.md: word i of a block gets bit
** ((uint32)hash * salt[i]) >> 27. */
static const uint32_t pq_bloom_salt[8] = {
  0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
  0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U
};

static uint32_t bloom_le32(const uint8_t *p){
  return (uint32_t)p[0] | ((uint32_t)p[1]<<8) | ((uint32_t)p[2]<<16)
       | ((uint32_t)p[3]<<24);
}

int pq_bloom_check(const uint8_t *bitset, size_t nbytes, uint64_t hash){
  if( bitset==0 || nbytes==0 || nbytes%PQ_BLOOM_BLOCK_BYTES!=0 ) return 1;
  uint64_t nblocks = nbytes/PQ_BLOOM_BLOCK_BYTES;
  /* The block formula multiplies two 32-bit quantities; a bitset of 2^32
  ** blocks or more (128 GiB) cannot be real, so it prunes nothing. */
  if( nblocks>UINT32_MAX ) return 1;
  uint64_t block = ((hash>>32) * nblocks) >> 32;
  const uint8_t *b = bitset + block*PQ_BLOOM_BLOCK_BYTES;
  uint32_t key = (uint32_t)hash;
  for(int i=0; i<8; i++){
    uint32_t bit = (uint32_t)(key * pq_bloom_salt[i]) >> 27;
    if( (bloom_le32(b + 4*i) & ((uint32_t)1<<bit))==0 ) return 0;
  }
  return 1;
}

uint64_t pq_bloom_hash_bytes(const void *p, size_t n){
  static const uint8_t none[1] = {0};
  return (uint64_t)XXH64(n ? p : none, n, 0);
}

uint64_t pq_bloom_hash_i32(int32_t v){
  uint32_t u = (uint32_t)v;
  uint8_t b[4] = { (uint8_t)u, (uint8_t)(u>>8), (uint8_t)(u>>16), (uint8_t)(u>>24) };
  return pq_bloom_hash_bytes(b, sizeof(b));
}

uint64_t pq_bloom_hash_i64(int64_t v){
  uint64_t u = (uint64_t)v;
  uint8_t b[8];
  for(int i=0; i<8; i++) b[i] = (uint8_t)(u >> (8*i));
  return pq_bloom_hash_bytes(b, sizeof(b));
}

uint64_t pq_bloom_hash_f32(float v){
  int32_t bits;
  memcpy(&bits, &v, sizeof(bits));
  return pq_bloom_hash_i32(bits);
}

uint64_t pq_bloom_hash_f64(double v){
  int64_t bits;
  memcpy(&bits, &v, sizeof(bits));
  return pq_bloom_hash_i64(bits);
}
