/*
** codec.h — page decompression for every Parquet codec.
**
** UNCOMPRESSED, SNAPPY (libsnappy), GZIP (zlib; concatenated members are
** read in sequence), ZSTD (libzstd), LZ4_RAW (liblz4 block), LZ4 (the
** deprecated codec: Hadoop's framing of 4-byte big-endian uncompressed and
** compressed lengths per block, falling back to a raw LZ4 block and then to
** the LZ4 frame format, as other readers do), BROTLI (libbrotlidec). LZO is
** refused with a clear message.
**
** A decompressor context is per thread (one per scan worker) so that zstd's
** and brotli's state is reused and no global state exists.
*/
#ifndef COLUMNAR_PARQUET_CODEC_H
#define COLUMNAR_PARQUET_CODEC_H

#include "../pool.h"

#include <stddef.h>
#include <stdint.h>
#include "../error.h"

typedef struct pq_codec_ctx pq_codec_ctx;

pq_codec_ctx *pq_codec_ctx_new(void);
void pq_codec_ctx_free(pq_codec_ctx *c);

/* The per-thread decoding context also carries the pool the scan's page
** and value buffers come from (reader/pool.h); NULL means malloc. */
void pq_codec_set_pool(pq_codec_ctx *c, col_pool *pool);
col_pool *pq_codec_pool(const pq_codec_ctx *c);

/* Where a row group's selection (pq_rg_data.sel) is allocated: NULL
** (malloc, the default) on the consumer's thread, whose heap takes it back
** for the next row group; the scan's pool in a decoding worker, whose
** freed blocks malloc gave back to the kernel, to be faulted in again.
** (All from the pool, the consumer's heap shrank instead and its own
** arrays faulted in: Q43 at threads=2, 4.2 -> 6-9 ms.) */
void pq_codec_set_sel_pool(pq_codec_ctx *c, col_pool *pool);
col_pool *pq_codec_sel_pool(const pq_codec_ctx *c);

/* Scratch buffer slot (0 or 1) of the context, at least n bytes, contents
** undefined; NULL on OOM: a row group's row masks, which never outlive its
** decoding, where they were a malloc per row group. A dataset keeps its
** scans' contexts for the next scan (scan.c), so a repeated query finds
** them faulted in already. With the selections above, at threads=2,
** count(DISTINCT UserID) by MobilePhoneModel (a decoding worker beside the
** consumer): page faults 12-14K -> 5.5K in 20 queries, CPU 5% less. */
void *pq_codec_scratch(pq_codec_ctx *c, int slot, size_t n);

/* Name of a PQ_CODEC_* value ("ZSTD"), "UNKNOWN(n)" style for others is the
** caller's business: returns NULL for unknown codes. */
const char *pq_codec_name(int codec);

/* Decompress in[0..in_len) into out[0..out_len), where out_len is the page's
** declared uncompressed size. The output must be exactly out_len bytes; a
** stream that produces more or fewer is an error ("snappy: page decompresses
** to 100 bytes, header says 120"). Never writes past out_len. */
int pq_decompress(pq_codec_ctx *c, int codec, const uint8_t *in,
                  size_t in_len, uint8_t *out, size_t out_len,
                  col_error *err);

#endif
