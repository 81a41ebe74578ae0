/*
** codec.c — page decompression for every Parquet codec; see codec.h.
**
** One function per codec, each of which checks that the stream yields
** exactly the page header's uncompressed size and never writes beyond it.
** The per-thread pq_codec_ctx keeps the contexts worth reusing (zstd's DCtx,
** zlib's inflate state, an LZ4 frame context); brotli's decoder has no reset
** call, so it is made per page.
**
** The deprecated LZ4 codec (5) was written three ways by different writers:
** Hadoop's block framing (parquet-mr), a bare LZ4 block (old parquet-cpp) and
** the LZ4 frame format. We try them in that order and accept the first that
** decodes to exactly the declared size.
*/
#include "codec.h"
#include "meta.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <brotli/decode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

struct pq_codec_ctx {
  ZSTD_DCtx *zstd;          /* reused across pages; made on first ZSTD page */
  z_stream zs;              /* inflate state, valid when zs_ready */
  int zs_ready;             /* 1 once inflateInit2 succeeded */
  LZ4F_dctx *lz4f;          /* LZ4 frame context; made on first use */
  col_pool *pool;           /* the scan's buffer pool (not owned), or NULL */
  col_pool *sel_pool;       /* pq_codec_set_sel_pool's */
  void *scratch[2];         /* pq_codec_scratch's buffers */
  size_t scratch_cap[2];
};

void pq_codec_set_pool(pq_codec_ctx *c, col_pool *pool){ c->pool = pool; }
col_pool *pq_codec_pool(const pq_codec_ctx *c){ return c ? c->pool : 0; }

void pq_codec_set_sel_pool(pq_codec_ctx *c, col_pool *pool){ c->sel_pool = pool; }
col_pool *pq_codec_sel_pool(const pq_codec_ctx *c){ return c ? c->sel_pool : 0; }

void *pq_codec_scratch(pq_codec_ctx *c, int slot, size_t n){
  if( c==0 || slot<0 || slot>1 ) return 0;
  if( n > c->scratch_cap[slot] ){
    free(c->scratch[slot]);
    c->scratch_cap[slot] = 0;
    if( (c->scratch[slot] = malloc(n ? n : 1))==0 ) return 0;
    c->scratch_cap[slot] = n;
  }
  return c->scratch[slot];
}

pq_codec_ctx *pq_codec_ctx_new(void){
  pq_codec_ctx *c = calloc(1, sizeof(*c));
  return c;
}

void pq_codec_ctx_free(pq_codec_ctx *c){
  if( c==0 ) return;
  if( c->zstd ) ZSTD_freeDCtx(c->zstd);
  if( c->zs_ready ) inflateEnd(&c->zs);
  if( c->lz4f ) LZ4F_freeDecompressionContext(c->lz4f);
  free(c->scratch[0]); free(c->scratch[1]);
  free(c);
}

const char *pq_codec_name(int codec){
  static const char *const names[] = {
    "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"
  };
  if( codec<0 || codec>=(int)(sizeof(names)/sizeof(names[0])) ) return 0;
  return names[codec];
}

static int codec_size_error(col_error *err, const char *name, size_t got,
                            size_t want){
  return col_error_set(err, COL_ERROR,
      "%s: page decompresses to %zu bytes, header says %zu", name, got, want);
}

static int codec_too_long(col_error *err, const char *name, size_t want){
  return col_error_set(err, COL_ERROR,
      "%s: page decompresses to more than the %zu bytes the header says",
      name, want);
}

static int codec_snappy(const uint8_t *in, size_t in_len, uint8_t *out,
                        size_t out_len, col_error *err){
  size_t n = 0;
  /* The length preamble is checked first so a lying page never makes
  ** snappy decode into a buffer of the wrong size. */
  if( snappy_uncompressed_length((const char*)in, in_len, &n)!=SNAPPY_OK ){
    return col_error_set(err, COL_ERROR,
        "snappy: corrupt page (bad length preamble, %zu bytes)", in_len);
  }
  if( n!=out_len ) return codec_size_error(err, "snappy", n, out_len);
  n = out_len;
  if( snappy_uncompress((const char*)in, in_len, (char*)out, &n)!=SNAPPY_OK ){
    return col_error_set(err, COL_ERROR, "snappy: corrupt page (%zu bytes)",
                         in_len);
  }
  if( n!=out_len ) return codec_size_error(err, "snappy", n, out_len);
  return COL_OK;
}

/* GZIP pages may hold several gzip members back to back (some writers
** flush per chunk); they are inflated in sequence into the one buffer. */
static int codec_gzip(pq_codec_ctx *c, const uint8_t *in, size_t in_len,
                      uint8_t *out, size_t out_len, col_error *err){
  z_stream *zs = &c->zs;
  if( in_len>UINT_MAX || out_len>UINT_MAX ){
    return col_error_set(err, COL_ERROR, "gzip: page of %zu bytes is too large",
                         in_len>out_len ? in_len : out_len);
  }
  if( !c->zs_ready ){
    memset(zs, 0, sizeof(*zs));
    if( inflateInit2(zs, 15+32)!=Z_OK ){
      return col_error_set(err, COL_ENOMEM, "gzip: cannot initialise zlib");
    }
    c->zs_ready = 1;
  }else if( inflateReset(zs)!=Z_OK ){
    return col_error_set(err, COL_ERROR, "gzip: cannot reset zlib");
  }
  zs->next_in = (Bytef*)in;
  zs->avail_in = (uInt)in_len;
  zs->next_out = out;
  zs->avail_out = (uInt)out_len;
  int members = 0;       /* members finished so far */
  int in_member = 0;     /* 1 while a member is open */
  while( zs->avail_in>0 ){
    uInt ain = zs->avail_in, aout = zs->avail_out;
    in_member = 1;
    int rc = inflate(zs, Z_NO_FLUSH);
    if( rc==Z_STREAM_END ){
      members++;
      in_member = 0;
      if( inflateReset(zs)!=Z_OK ){
        return col_error_set(err, COL_ERROR, "gzip: cannot reset zlib");
      }
      continue;
    }
    if( rc==Z_OK || rc==Z_BUF_ERROR ){
      if( zs->avail_in!=ain || zs->avail_out!=aout ) continue;
      if( zs->avail_out==0 ) return codec_too_long(err, "gzip", out_len);
      break;  /* no progress with input left: cannot happen, but never spin */
    }
    return col_error_set(err, COL_ERROR, "gzip: corrupt page in member %d: %s",
                         members+1, zs->msg ? zs->msg : "inflate failed");
  }
  if( in_member || members==0 ){
    return col_error_set(err, COL_ERROR,
        "gzip: page is truncated (stream ends inside member %d)", members+1);
  }
  size_t got = out_len - zs->avail_out;
  if( got!=out_len ) return codec_size_error(err, "gzip", got, out_len);
  return COL_OK;
}

static int codec_zstd(pq_codec_ctx *c, const uint8_t *in, size_t in_len,
                      uint8_t *out, size_t out_len, col_error *err){
  if( c->zstd==0 ){
    c->zstd = ZSTD_createDCtx();
    if( c->zstd==0 ) return col_error_set(err, COL_ENOMEM, "zstd: out of memory");
  }
  /* ZSTD_decompressDCtx walks every frame (and skips skippable ones) and
  ** fails rather than write past out_len. */
  size_t n = ZSTD_decompressDCtx(c->zstd, out, out_len, in, in_len);
  if( ZSTD_isError(n) ){
    if( ZSTD_getErrorCode(n)==ZSTD_error_dstSize_tooSmall ){
      return codec_too_long(err, "zstd", out_len);
    }
    return col_error_set(err, COL_ERROR, "zstd: corrupt page: %s",
                         ZSTD_getErrorName(n));
  }
  if( n!=out_len ) return codec_size_error(err, "zstd", n, out_len);
  return COL_OK;
}

static int codec_lz4_raw(const uint8_t *in, size_t in_len, uint8_t *out,
                         size_t out_len, col_error *err){
  if( in_len>INT_MAX || out_len>INT_MAX ){
    return col_error_set(err, COL_ERROR, "lz4: page of %zu bytes is too large",
                         in_len>out_len ? in_len : out_len);
  }
  int n = LZ4_decompress_safe((const char*)in, (char*)out, (int)in_len,
                              (int)out_len);
  if( n<0 ){
    return col_error_set(err, COL_ERROR,
        "lz4_raw: corrupt page (%zu bytes, or it decompresses to more than "
        "the %zu the header says)", in_len, out_len);
  }
  if( (size_t)n!=out_len ) return codec_size_error(err, "lz4_raw", (size_t)n, out_len);
  return COL_OK;
}

static uint32_t codec_be32(const uint8_t *p){
  return ((uint32_t)p[0]<<24) | ((uint32_t)p[1]<<16) | ((uint32_t)p[2]<<8) | p[3];
}

/* Hadoop's BlockCompressorStream framing: blocks of [BE32 raw length]
** followed by one or more [BE32 compressed length][LZ4 block] chunks that
** together decompress to the raw length. Returns 1 when the whole input is
** such a framing and yields exactly out_len bytes. */
static int codec_lz4_hadoop(const uint8_t *in, size_t in_len, uint8_t *out,
                            size_t out_len){
  size_t ip = 0, op = 0;
  if( in_len<8 ) return 0;
  while( ip<in_len ){
    if( in_len-ip<4 ) return 0;
    size_t raw = codec_be32(in+ip);
    ip += 4;
    if( raw>out_len-op ) return 0;
    size_t block_end = op + raw;
    /* do/while: a zero-length block still carries one (empty) chunk, as
    ** Arrow writes it. */
    do{
      if( in_len-ip<4 ) return 0;
      size_t clen = codec_be32(in+ip);
      ip += 4;
      if( clen>in_len-ip || clen>INT_MAX ) return 0;
      size_t cap = block_end-op;
      if( cap>INT_MAX ) return 0;
      int n = LZ4_decompress_safe((const char*)in+ip, (char*)out+op, (int)clen,
                                  (int)cap);
      if( n<0 ) return 0;
      if( n==0 && raw!=0 ) return 0;  /* a chunk must make progress */
      ip += clen;
      op += (size_t)n;
    }while( op<block_end );
  }
  return op==out_len;
}

/* The LZ4 frame format, frames back to back. Returns 1 when the input is
** whole frames that yield exactly out_len bytes. */
static int codec_lz4_frame(pq_codec_ctx *c, const uint8_t *in, size_t in_len,
                           uint8_t *out, size_t out_len){
  if( c->lz4f==0 ){
    if( LZ4F_isError(LZ4F_createDecompressionContext(&c->lz4f, LZ4F_VERSION)) ){
      c->lz4f = 0;
      return 0;
    }
  }
  LZ4F_resetDecompressionContext(c->lz4f);
  size_t ip = 0, op = 0;
  size_t hint = 1;       /* 0 once a frame has just ended */
  uint8_t dummy;         /* a valid dst for a zero-length page */
  while( ip<in_len ){
    size_t src = in_len-ip, dst = out_len-op;
    hint = LZ4F_decompress(c->lz4f, out_len ? out+op : &dummy, &dst, in+ip,
                           &src, 0);
    if( LZ4F_isError(hint) ){
      LZ4F_resetDecompressionContext(c->lz4f);
      return 0;
    }
    if( src==0 && dst==0 && hint!=0 ){
      LZ4F_resetDecompressionContext(c->lz4f);
      return 0;  /* output full with more to come: longer than declared */
    }
    ip += src;
    op += dst;
  }
  if( hint!=0 ){
    LZ4F_resetDecompressionContext(c->lz4f);
    return 0;    /* input ends inside a frame */
  }
  return op==out_len;
}

static int codec_lz4(pq_codec_ctx *c, const uint8_t *in, size_t in_len,
                     uint8_t *out, size_t out_len, col_error *err){
  if( codec_lz4_hadoop(in, in_len, out, out_len) ) return COL_OK;
  if( in_len<=INT_MAX && out_len<=INT_MAX ){
    int n = LZ4_decompress_safe((const char*)in, (char*)out, (int)in_len,
                                (int)out_len);
    if( n>=0 && (size_t)n==out_len ) return COL_OK;
  }
  /* Only a stream that opens with the frame magic (0x184D2204, little
  ** endian) is tried as a frame, so no frame context is made for nothing. */
  if( in_len>=4 && in[0]==0x04 && in[1]==0x22 && in[2]==0x4D && in[3]==0x18
   && codec_lz4_frame(c, in, in_len, out, out_len) ){
    return COL_OK;
  }
  return col_error_set(err, COL_ERROR,
      "lz4: page (%zu bytes) is not Hadoop-framed LZ4, a raw LZ4 block or "
      "an LZ4 frame that decompresses to the %zu bytes the header says",
      in_len, out_len);
}

static int codec_brotli(const uint8_t *in, size_t in_len, uint8_t *out,
                        size_t out_len, col_error *err){
  BrotliDecoderState *s = BrotliDecoderCreateInstance(0, 0, 0);
  if( s==0 ) return col_error_set(err, COL_ENOMEM, "brotli: out of memory");
  const uint8_t *next_in = in;
  size_t avail_in = in_len;
  uint8_t *next_out = out;
  size_t avail_out = out_len;
  BrotliDecoderResult r = BrotliDecoderDecompressStream(s, &avail_in, &next_in,
                                                        &avail_out, &next_out, 0);
  int rc = COL_OK;
  if( r==BROTLI_DECODER_RESULT_SUCCESS ){
    if( avail_in!=0 ){
      rc = col_error_set(err, COL_ERROR,
          "brotli: %zu bytes of garbage after the stream", avail_in);
    }else if( avail_out!=0 ){
      rc = codec_size_error(err, "brotli", out_len-avail_out, out_len);
    }
  }else if( r==BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT ){
    rc = codec_too_long(err, "brotli", out_len);
  }else if( r==BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT ){
    rc = col_error_set(err, COL_ERROR, "brotli: page is truncated");
  }else{
    rc = col_error_set(err, COL_ERROR, "brotli: corrupt page: %s",
        BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)));
  }
  BrotliDecoderDestroyInstance(s);
  return rc;
}

int pq_decompress(pq_codec_ctx *c, int codec, const uint8_t *in,
                  size_t in_len, uint8_t *out, size_t out_len,
                  col_error *err){
  /* Libraries may dereference their pointers even for zero lengths. */
  static const uint8_t empty_in[1] = {0};
  uint8_t empty_out[1];
  if( in==0 ){
    if( in_len ) return col_error_set(err, COL_ERROR, "decompress: no input buffer");
    in = empty_in;
  }
  if( out_len==0 ) out = empty_out;
  if( out==0 ) return col_error_set(err, COL_ERROR, "decompress: no output buffer");
  /* An empty page stored as zero bytes under any codec (some writers do so
  ** for a v2 data page whose values section is empty) is still empty. */
  if( in_len==0 && out_len==0 && codec!=PQ_CODEC_LZO && pq_codec_name(codec) ){
    return COL_OK;
  }
  switch( codec ){
    case PQ_CODEC_UNCOMPRESSED:
      if( in_len!=out_len ) return codec_size_error(err, "uncompressed", in_len, out_len);
      if( out_len ) memcpy(out, in, out_len);
      return COL_OK;
    case PQ_CODEC_SNAPPY:  return codec_snappy(in, in_len, out, out_len, err);
    case PQ_CODEC_GZIP:    return codec_gzip(c, in, in_len, out, out_len, err);
    case PQ_CODEC_BROTLI:  return codec_brotli(in, in_len, out, out_len, err);
    case PQ_CODEC_LZ4:     return codec_lz4(c, in, in_len, out, out_len, err);
    case PQ_CODEC_ZSTD:    return codec_zstd(c, in, in_len, out, out_len, err);
    case PQ_CODEC_LZ4_RAW: return codec_lz4_raw(in, in_len, out, out_len, err);
    case PQ_CODEC_LZO:
      return col_error_set(err, COL_ERROR, "unsupported compression codec LZO");
    default:
      return col_error_set(err, COL_ERROR,
                           "unsupported compression codec %d", codec);
  }
}
