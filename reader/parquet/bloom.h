/*
** bloom.h — Parquet split-block bloom filters (parquet-format BloomFilter.md).
**
** A column chunk may carry a bloom filter: a BloomFilterHeader (decoded by
** footer.c) followed by numBytes of bitset. The bitset is an array of
** 256-bit blocks, each eight little-endian 32-bit words. A value is hashed
** with XXH64 (seed 0) over its PLAIN encoding; the top 32 bits of the hash
** pick the block, the low 32 bits set one bit in each word.
**
**   uint64_t h = pq_bloom_hash_bytes("Moscow", 6);
**   if( !pq_bloom_check(bitset, header.numBytes, h) ) skip_row_group();
**
** The scan uses this only to prune (an Inexact test): a filter that is
** malformed answers "might contain", never "definitely not".
*/
#ifndef COLUMNAR_PARQUET_BLOOM_H
#define COLUMNAR_PARQUET_BLOOM_H

#include <stddef.h>
#include <stdint.h>

/* Bytes in one block: eight 32-bit words. */
#define PQ_BLOOM_BLOCK_BYTES 32

/* 1 if the value with this hash might be in the set, 0 if it definitely is
** not. A bitset whose size is 0 or not a multiple of 32 answers 1. Reads
** only bitset[0..nbytes). */
int pq_bloom_check(const uint8_t *bitset, size_t nbytes, uint64_t hash);

/* XXH64, seed 0, of the value's PLAIN encoding (little-endian bytes). */
uint64_t pq_bloom_hash_i32(int32_t v);
uint64_t pq_bloom_hash_i64(int64_t v);
/* Floats hash their IEEE 754 bits as stored: -0.0 and 0.0 differ, as do NaN
** payloads; the caller decides whether such a probe is worth making. */
uint64_t pq_bloom_hash_f32(float v);
uint64_t pq_bloom_hash_f64(double v);
/* BYTE_ARRAY (without the 4-byte length PLAIN puts before it),
** FIXED_LEN_BYTE_ARRAY and INT96: the value's bytes. */
uint64_t pq_bloom_hash_bytes(const void *p, size_t n);

#endif
