/*
** test_codec.c — unit tests for reader/parquet/codec.c.
**
** Every codec round-trips data made by the libraries' own compressors
** (random and repetitive, 0 B to 3 MiB); a wrong declared size is an error
** and never an overrun (buffers are malloc'd to the exact size so ASan sees
** a write one past the end); truncated and corrupted input at many offsets
** is an error or a correct-size decode, never a crash.
*/
#include "../reader/parquet/codec.h"
#include "../reader/parquet/meta.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#define TESTDATA "/work/shared/testdata/parquet-testing/data/"

typedef struct buf {
  uint8_t *p;     /* malloc'd bytes, owned */
  size_t n;       /* bytes used */
} buf;

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void){
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return rng;
}

/* kind 0: random bytes; 1: repetitive text with a little noise. */
static buf make_data(size_t n, int kind){
  buf b = { malloc(n ? n : 1), n };
  static const char text[] = "the quick brown fox jumps over the lazy dog ";
  for(size_t i=0; i<n; i++){
    if( kind==0 ) b.p[i] = (uint8_t)next_rand();
    else b.p[i] = (i%997==0) ? (uint8_t)next_rand() : (uint8_t)text[i%(sizeof(text)-1)];
  }
  return b;
}

static void put_be32(uint8_t *p, uint32_t v){
  p[0] = (uint8_t)(v>>24); p[1] = (uint8_t)(v>>16); p[2] = (uint8_t)(v>>8); p[3] = (uint8_t)v;
}

static buf comp_snappy(const buf *in){
  size_t cap = snappy_max_compressed_length(in->n);
  buf b = { malloc(cap), cap };
  if( snappy_compress((const char*)in->p, in->n, (char*)b.p, &b.n)!=SNAPPY_OK ) b.n = 0;
  return b;
}

/* One deflate stream over in[off..off+len), gzip (wbits 31) or zlib (15). */
static size_t deflate_into(const uint8_t *in, size_t len, uint8_t *out,
                           size_t cap, int wbits){
  z_stream zs;
  memset(&zs, 0, sizeof(zs));
  if( deflateInit2(&zs, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY)!=Z_OK ) return 0;
  zs.next_in = (Bytef*)in; zs.avail_in = (uInt)len;
  zs.next_out = out; zs.avail_out = (uInt)cap;
  int rc = deflate(&zs, Z_FINISH);
  size_t n = cap - zs.avail_out;
  deflateEnd(&zs);
  return rc==Z_STREAM_END ? n : 0;
}

/* members>1 splits the input into that many gzip members, back to back. */
static buf comp_gzip(const buf *in, int wbits, int members){
  size_t cap = (size_t)members*(compressBound((uLong)in->n) + 64);
  buf b = { malloc(cap), 0 };
  size_t off = 0;
  for(int m=0; m<members; m++){
    size_t len = (m==members-1) ? in->n-off : in->n/(size_t)members;
    b.n += deflate_into(in->p+off, len, b.p+b.n, cap-b.n, wbits);
    off += len;
  }
  return b;
}

static buf comp_zstd(const buf *in, int frames){
  size_t cap = (size_t)frames*ZSTD_compressBound(in->n);
  buf b = { malloc(cap ? cap : 1), 0 };
  size_t off = 0;
  for(int f=0; f<frames; f++){
    size_t len = (f==frames-1) ? in->n-off : in->n/(size_t)frames;
    size_t r = ZSTD_compress(b.p+b.n, cap-b.n, in->p+off, len, 3);
    if( ZSTD_isError(r) ) return b;
    b.n += r; off += len;
  }
  return b;
}

static buf comp_lz4_block(const buf *in){
  int cap = LZ4_compressBound((int)in->n);
  buf b = { malloc((size_t)cap), 0 };
  int r = LZ4_compress_default((const char*)in->p, (char*)b.p, (int)in->n, cap);
  b.n = r>0 ? (size_t)r : 0;
  return b;
}

/* Hadoop framing: blocks of block_size raw bytes, each split into chunks of
** chunk_size raw bytes that are compressed separately. */
static buf comp_lz4_hadoop(const buf *in, size_t block_size, size_t chunk_size){
  size_t nblocks = in->n/block_size + 1;
  size_t nchunks = in->n/chunk_size + nblocks + 1;
  size_t cap = (size_t)LZ4_compressBound((int)in->n) + 8*nchunks + 8*nblocks + 64;
  buf b = { malloc(cap), 0 };
  size_t off = 0;
  do{
    size_t blen = in->n-off < block_size ? in->n-off : block_size;
    put_be32(b.p+b.n, (uint32_t)blen); b.n += 4;
    size_t done = 0;
    do{
      size_t clen = blen-done < chunk_size ? blen-done : chunk_size;
      int r = LZ4_compress_default((const char*)in->p+off+done, (char*)b.p+b.n+4,
                                   (int)clen, (int)(cap-b.n-4));
      put_be32(b.p+b.n, (uint32_t)r); b.n += 4 + (size_t)r;
      done += clen;
    }while( done<blen );
    off += blen;
  }while( off<in->n );
  return b;
}

static buf comp_lz4_frame(const buf *in){
  size_t cap = LZ4F_compressFrameBound(in->n, 0);
  buf b = { malloc(cap), 0 };
  size_t r = LZ4F_compressFrame(b.p, cap, in->p, in->n, 0);
  b.n = LZ4F_isError(r) ? 0 : r;
  return b;
}

static buf comp_brotli(const buf *in){
  size_t cap = BrotliEncoderMaxCompressedSize(in->n);
  if( cap==0 ) cap = in->n + 1024;
  buf b = { malloc(cap), cap };
  if( !BrotliEncoderCompress(5, 22, BROTLI_MODE_GENERIC, in->n, in->p, &b.n, b.p) ) b.n = 0;
  return b;
}

/* Decompress into a buffer of exactly out_len bytes; 1 if it equals want. */
static int decode_matches(pq_codec_ctx *c, int codec, const buf *z,
                          const buf *want, col_error *err){
  uint8_t *out = malloc(want->n ? want->n : 1);
  col_error_clear(err);
  int rc = pq_decompress(c, codec, z->p, z->n, out, want->n, err);
  int ok = rc==COL_OK && (want->n==0 || memcmp(out, want->p, want->n)==0);
  if( rc!=COL_OK ) fprintf(stderr, "  %s: %s\n", pq_codec_name(codec), err->msg);
  free(out);
  return ok;
}

/* A declared size one short and one long must both be errors. */
static int wrong_size_fails(pq_codec_ctx *c, int codec, const buf *z, size_t n){
  col_error err;
  int fails = 1;
  for(int d=-1; d<=1; d+=2){
    if( d<0 && n==0 ) continue;
    size_t m = n + (size_t)d;
    uint8_t *out = malloc(m ? m : 1);
    col_error_clear(&err);
    if( pq_decompress(c, codec, z->p, z->n, out, m, &err)==COL_OK ) fails = 0;
    else if( err.msg[0]==0 ) fails = 0;
    free(out);
  }
  return fails;
}

typedef struct codec_case {
  const char *name;   /* for failure messages */
  int codec;          /* PQ_CODEC_* */
  buf (*make)(const buf*);  /* compressor */
} codec_case;

static buf mk_uncompressed(const buf *in){
  buf b = { malloc(in->n ? in->n : 1), in->n };
  if( in->n ) memcpy(b.p, in->p, in->n);
  return b;
}
static buf mk_gzip(const buf *in){ return comp_gzip(in, 31, 1); }
static buf mk_gzip2(const buf *in){ return comp_gzip(in, 31, 3); }
static buf mk_zlib(const buf *in){ return comp_gzip(in, 15, 1); }
static buf mk_zstd(const buf *in){ return comp_zstd(in, 1); }
static buf mk_zstd3(const buf *in){ return comp_zstd(in, 3); }
static buf mk_hadoop(const buf *in){ return comp_lz4_hadoop(in, 1<<30, 1<<30); }
static buf mk_hadoop_blocks(const buf *in){ return comp_lz4_hadoop(in, 256*1024, 256*1024); }
static buf mk_hadoop_chunks(const buf *in){ return comp_lz4_hadoop(in, 100*1000, 7000); }

static const codec_case cases[] = {
  { "uncompressed", PQ_CODEC_UNCOMPRESSED, mk_uncompressed },
  { "snappy", PQ_CODEC_SNAPPY, comp_snappy },
  { "gzip", PQ_CODEC_GZIP, mk_gzip },
  { "gzip 3 members", PQ_CODEC_GZIP, mk_gzip2 },
  { "zlib-wrapped gzip", PQ_CODEC_GZIP, mk_zlib },
  { "zstd", PQ_CODEC_ZSTD, mk_zstd },
  { "zstd 3 frames", PQ_CODEC_ZSTD, mk_zstd3 },
  { "lz4_raw", PQ_CODEC_LZ4_RAW, comp_lz4_block },
  { "lz4 hadoop", PQ_CODEC_LZ4, mk_hadoop },
  { "lz4 hadoop blocks", PQ_CODEC_LZ4, mk_hadoop_blocks },
  { "lz4 hadoop chunks", PQ_CODEC_LZ4, mk_hadoop_chunks },
  { "lz4 raw block", PQ_CODEC_LZ4, comp_lz4_block },
  { "lz4 frame", PQ_CODEC_LZ4, comp_lz4_frame },
  { "brotli", PQ_CODEC_BROTLI, comp_brotli },
};
#define NCASES (sizeof(cases)/sizeof(cases[0]))

static void test_round_trips(void){
  static const size_t sizes[] = { 0, 1, 65536, 3*1024*1024 };
  pq_codec_ctx *c = pq_codec_ctx_new();
  col_error err;
  CHECK(c!=0);
  for(size_t s=0; s<sizeof(sizes)/sizeof(sizes[0]); s++){
    for(int kind=0; kind<2; kind++){
      buf data = make_data(sizes[s], kind);
      for(size_t k=0; k<NCASES; k++){
        buf z = cases[k].make(&data);
        int ok = (z.n>0 || data.n==0) && decode_matches(c, cases[k].codec, &z, &data, &err);
        if( !ok ) fprintf(stderr, "round trip %s size %zu kind %d failed\n",
                          cases[k].name, sizes[s], kind);
        CHECK(ok);
        /* The raw LZ4 block is accepted under LZ4 only because the
        ** declared size matches; a wrong size must fail for every codec. */
        int wf = wrong_size_fails(c, cases[k].codec, &z, data.n);
        if( !wf ) fprintf(stderr, "wrong size accepted: %s size %zu kind %d\n",
                          cases[k].name, sizes[s], kind);
        CHECK(wf);
        free(z.p);
      }
      free(data.p);
    }
  }
  pq_codec_ctx_free(c);
}

/* Cut each stream at many offsets: every strict prefix must be an error. */
static void test_truncated(void){
  pq_codec_ctx *c = pq_codec_ctx_new();
  col_error err;
  buf data = make_data(20000, 1);
  for(size_t k=1; k<NCASES; k++){
    buf z = cases[k].make(&data);
    size_t step = z.n/300 + 1;
    for(size_t cut=0; cut<z.n; cut += (cut<64 ? 1 : step)){
      uint8_t *in = malloc(cut ? cut : 1);
      memcpy(in, z.p, cut);
      uint8_t *out = malloc(data.n);
      col_error_clear(&err);
      int rc = pq_decompress(c, cases[k].codec, in, cut, out, data.n, &err);
      if( rc==COL_OK ) fprintf(stderr, "truncated %s at %zu of %zu accepted\n",
                               cases[k].name, cut, z.n);
      CHECK(rc!=COL_OK);
      CHECK(err.msg[0]!=0);
      free(out);
      free(in);
    }
    free(z.p);
  }
  free(data.p);
  pq_codec_ctx_free(c);
}

/* Corrupt bytes at many offsets: an error with a message or a decode of the
** declared size (snappy has no checksum), never a crash or overrun. */
static void test_corrupted(void){
  pq_codec_ctx *c = pq_codec_ctx_new();
  col_error err;
  buf data = make_data(20000, 1);
  for(size_t k=1; k<NCASES; k++){
    buf z = cases[k].make(&data);
    size_t step = z.n/200 + 1;
    for(size_t at=0; at<z.n; at += (at<64 ? 1 : step)){
      for(int how=0; how<3; how++){
        uint8_t *in = malloc(z.n);
        memcpy(in, z.p, z.n);
        in[at] = how==0 ? (uint8_t)(in[at]^0x5a) : how==1 ? 0xff : 0x00;
        uint8_t *out = malloc(data.n);
        col_error_clear(&err);
        int rc = pq_decompress(c, cases[k].codec, in, z.n, out, data.n, &err);
        CHECK(rc==COL_OK || (rc==COL_ERROR && err.msg[0]!=0));
        free(out);
        free(in);
      }
    }
    free(z.p);
  }
  free(data.p);
  pq_codec_ctx_free(c);
}

/* The same context serves many pages and codecs in any order, and keeps
** working after an error. */
static void test_context_reuse(void){
  pq_codec_ctx *c = pq_codec_ctx_new();
  col_error err;
  buf data = make_data(5000, 1);
  for(int round=0; round<3; round++){
    for(size_t k=0; k<NCASES; k++){
      buf z = cases[k].make(&data);
      CHECK(decode_matches(c, cases[k].codec, &z, &data, &err));
      if( z.n>4 ){
        uint8_t *out = malloc(data.n);
        col_error_clear(&err);
        CHECK(pq_decompress(c, cases[k].codec, z.p, z.n/2, out, data.n, &err)!=COL_OK);
        free(out);
      }
      free(z.p);
    }
  }
  free(data.p);
  pq_codec_ctx_free(c);
  pq_codec_ctx_free(0);
}

static void test_names_and_unsupported(void){
  col_error err;
  uint8_t in[4] = {1,2,3,4}, out[4];
  pq_codec_ctx *c = pq_codec_ctx_new();
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_UNCOMPRESSED), "UNCOMPRESSED");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_SNAPPY), "SNAPPY");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_GZIP), "GZIP");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_LZO), "LZO");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_BROTLI), "BROTLI");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_LZ4), "LZ4");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_ZSTD), "ZSTD");
  CHECK_EQ_STR(pq_codec_name(PQ_CODEC_LZ4_RAW), "LZ4_RAW");
  CHECK(pq_codec_name(8)==0);
  CHECK(pq_codec_name(-1)==0);
  col_error_clear(&err);
  CHECK_EQ_INT(pq_decompress(c, PQ_CODEC_LZO, in, 4, out, 4, &err), COL_ERROR);
  CHECK_EQ_STR(err.msg, "unsupported compression codec LZO");
  col_error_clear(&err);
  CHECK_EQ_INT(pq_decompress(c, 42, in, 4, out, 4, &err), COL_ERROR);
  CHECK(strstr(err.msg, "42")!=0);
  col_error_clear(&err);
  CHECK_EQ_INT(pq_decompress(c, PQ_CODEC_UNCOMPRESSED, in, 4, out, 4, &err), COL_OK);
  CHECK(memcmp(in, out, 4)==0);
  col_error_clear(&err);
  CHECK_EQ_INT(pq_decompress(c, PQ_CODEC_UNCOMPRESSED, in, 4, out, 3, &err), COL_ERROR);
  CHECK(strstr(err.msg, "header says 3")!=0);
  /* Zero-byte pages decode to zero bytes under any codec, and NULL
  ** pointers with zero lengths are fine. */
  for(int k=0; k<=7; k++){
    if( k==PQ_CODEC_LZO ) continue;
    col_error_clear(&err);
    CHECK_EQ_INT(pq_decompress(c, k, 0, 0, 0, 0, &err), COL_OK);
  }
  pq_codec_ctx_free(c);
}

/* Hadoop framing edge cases: lengths that lie or overrun must not be
** trusted, and must fall through to a clean error. */
static void test_hadoop_lies(void){
  pq_codec_ctx *c = pq_codec_ctx_new();
  col_error err;
  buf data = make_data(3000, 1);
  buf z = comp_lz4_hadoop(&data, 1<<30, 1<<30);
  uint8_t *out = malloc(data.n);
  static const uint32_t lies[] = { 0, 1, 2999, 3001, 0x7fffffff, 0x80000000u, 0xffffffffu };
  for(int field=0; field<2; field++){
    for(size_t i=0; i<sizeof(lies)/sizeof(lies[0]); i++){
      uint8_t *in = malloc(z.n);
      memcpy(in, z.p, z.n);
      put_be32(in + 4*field, lies[i]);
      col_error_clear(&err);
      int rc = pq_decompress(c, PQ_CODEC_LZ4, in, z.n, out, data.n, &err);
      CHECK(rc==COL_ERROR || (rc==COL_OK && memcmp(out, data.p, data.n)==0));
      free(in);
    }
  }
  /* Trailing bytes after the last Hadoop block are not Hadoop framing. */
  uint8_t *in = malloc(z.n + 3);
  memcpy(in, z.p, z.n);
  memset(in + z.n, 0, 3);
  col_error_clear(&err);
  CHECK_EQ_INT(pq_decompress(c, PQ_CODEC_LZ4, in, z.n+3, out, data.n, &err), COL_ERROR);
  CHECK(strstr(err.msg, "lz4")!=0);
  free(in);
  free(out);
  free(z.p);
  free(data.p);
  pq_codec_ctx_free(c);
}

/* ---- Pages of real files from parquet-testing, found without footer.c ----
** The column chunks of these files run back to back from offset 4 to the
** footer; each page is a compact-thrift PageHeader followed by its bytes.
** A small thrift skipper here reads just type and the two page sizes, so
** this check does not depend on the footer reader. */

typedef struct tcur {
  const uint8_t *p;   /* bytes */
  size_t n;           /* their length */
  size_t at;          /* read position */
  int bad;            /* set once anything is malformed */
} tcur;

static uint64_t t_varint(tcur *t){
  uint64_t v = 0;
  for(int shift=0; shift<64; shift+=7){
    if( t->at>=t->n ){ t->bad = 1; return 0; }
    uint8_t b = t->p[t->at++];
    v |= (uint64_t)(b&0x7f) << shift;
    if( (b&0x80)==0 ) return v;
  }
  t->bad = 1;
  return 0;
}

static int64_t t_zigzag(tcur *t){
  uint64_t v = t_varint(t);
  return (int64_t)(v>>1) ^ -(int64_t)(v&1);
}

static void t_skip(tcur *t, int type, int depth);

static void t_skip_struct(tcur *t, int depth){
  if( depth>32 ){ t->bad = 1; return; }
  while( !t->bad ){
    if( t->at>=t->n ){ t->bad = 1; return; }
    uint8_t h = t->p[t->at++];
    if( h==0 ) return;
    if( (h>>4)==0 ) t_zigzag(t);
    t_skip(t, h&15, depth+1);
  }
}

static void t_skip(tcur *t, int type, int depth){
  if( depth>32 ){ t->bad = 1; return; }
  switch( type ){
    case 1: case 2: return;                         /* bool in field header */
    case 3: if( t->at<t->n ) t->at++; else t->bad = 1; return;
    case 4: case 5: case 6: t_varint(t); return;
    case 7: if( t->n-t->at>=8 ) t->at += 8; else t->bad = 1; return;
    case 8: {
      uint64_t len = t_varint(t);
      if( len>t->n-t->at ) t->bad = 1; else t->at += len;
      return;
    }
    case 9: case 10: {
      if( t->at>=t->n ){ t->bad = 1; return; }
      uint8_t h = t->p[t->at++];
      uint64_t cnt = h>>4;
      if( cnt==15 ) cnt = t_varint(t);
      for(uint64_t i=0; i<cnt && !t->bad; i++){
        if( (h&15)==1 || (h&15)==2 ) t_skip(t, 3, depth+1);  /* list bools are bytes */
        else t_skip(t, h&15, depth+1);
      }
      return;
    }
    case 11: {
      uint64_t cnt = t_varint(t);
      if( cnt==0 ) return;
      if( t->at>=t->n ){ t->bad = 1; return; }
      uint8_t kv = t->p[t->at++];
      for(uint64_t i=0; i<cnt && !t->bad; i++){
        t_skip(t, kv>>4, depth+1);
        t_skip(t, kv&15, depth+1);
      }
      return;
    }
    case 12: t_skip_struct(t, depth+1); return;
    default: t->bad = 1; return;
  }
}

/* DataPageHeaderV2 (PageHeader field 8): fields 5 and 6 are the level
** byte lengths that precede the compressed values, 7 is_compressed. */
static void t_page_header_v2(tcur *t, int64_t *levels, int *compressed){
  int fid = 0;
  *levels = 0; *compressed = 1;
  while( !t->bad ){
    if( t->at>=t->n ){ t->bad = 1; return; }
    uint8_t h = t->p[t->at++];
    if( h==0 ) return;
    fid = (h>>4) ? fid + (h>>4) : (int)t_zigzag(t);
    if( (h&15)==5 && (fid==5 || fid==6) ) *levels += t_zigzag(t);
    else if( fid==7 && ((h&15)==1 || (h&15)==2) ) *compressed = (h&15)==1;
    else t_skip(t, h&15, 0);
  }
}

/* PageHeader fields 1 type, 2 uncompressed_page_size, 3
** compressed_page_size, 8 data_page_header_v2. */
static int t_page_header(tcur *t, int *type, int64_t *usize, int64_t *csize,
                         int64_t *levels, int *compressed){
  int fid = 0;
  *type = -1; *usize = -1; *csize = -1; *levels = 0; *compressed = 1;
  while( !t->bad ){
    if( t->at>=t->n ) return 0;
    uint8_t h = t->p[t->at++];
    if( h==0 ) break;
    fid = (h>>4) ? fid + (h>>4) : (int)t_zigzag(t);
    if( (h&15)==5 && fid>=1 && fid<=3 ){
      int64_t v = t_zigzag(t);
      if( fid==1 ) *type = (int)v; else if( fid==2 ) *usize = v; else *csize = v;
    }else if( (h&15)==12 && fid==8 ){
      t_page_header_v2(t, levels, compressed);
    }else{
      t_skip(t, h&15, 0);
    }
  }
  return !t->bad && *type>=0 && *usize>=0 && *csize>=0
      && *levels>=0 && *levels<=*usize && *levels<=*csize;
}

static uint8_t *read_file(const char *path, size_t *n){
  FILE *f = fopen(path, "rb");
  if( f==0 ) return 0;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = sz>0 ? malloc((size_t)sz) : 0;
  *n = p ? fread(p, 1, (size_t)sz, f) : 0;
  fclose(f);
  return p;
}

/* Decompress every data page (v1, and the values of v2) and dictionary
** page of the file; returns how many pages decoded to their declared size,
** or -1 on a failure. */
static int decode_file_pages(pq_codec_ctx *c, const char *path, int codec){
  size_t n;
  uint8_t *file = read_file(path, &n);
  if( file==0 ) return -2;
  int pages = 0;
  if( n<12 || memcmp(file, "PAR1", 4)!=0 ){ free(file); return -1; }
  size_t flen = (size_t)file[n-8] | ((size_t)file[n-7]<<8)
              | ((size_t)file[n-6]<<16) | ((size_t)file[n-5]<<24);
  size_t end = flen<=n-12 ? n-8-flen : 4;
  size_t pos = 4;
  while( pos<end ){
    tcur t = { file, end, pos, 0 };
    int type, compressed; int64_t us, cs, lv;
    if( !t_page_header(&t, &type, &us, &cs, &lv, &compressed) ){
      /* Old parquet-cpp writes each chunk's ColumnMetaData after it: a
      ** well-formed struct that is not a page header is stepped over. */
      if( t.bad ) break;
      pos = t.at;
      continue;
    }
    if( (uint64_t)cs>end-t.at ) break;
    if( type==0 || type==2 || (type==3 && compressed) ){
      /* v2 pages keep their levels uncompressed ahead of the values. */
      size_t body = (size_t)(us-lv);
      uint8_t *out = malloc(body ? body : 1);
      col_error err;
      col_error_clear(&err);
      int rc = pq_decompress(c, codec, file+t.at+lv, (size_t)(cs-lv), out, body, &err);
      free(out);
      if( rc!=COL_OK ){
        fprintf(stderr, "%s: page at %zu: %s\n", path, pos, err.msg);
        free(file);
        return -1;
      }
      pages++;
    }
    pos = t.at + (size_t)cs;
  }
  free(file);
  return pages;
}

static void test_parquet_testing_pages(void){
  static const struct { const char *name; int codec; } files[] = {
    { "hadoop_lz4_compressed.parquet", PQ_CODEC_LZ4 },
    { "hadoop_lz4_compressed_larger.parquet", PQ_CODEC_LZ4 },
    { "non_hadoop_lz4_compressed.parquet", PQ_CODEC_LZ4 },
    { "lz4_raw_compressed.parquet", PQ_CODEC_LZ4_RAW },
    { "lz4_raw_compressed_larger.parquet", PQ_CODEC_LZ4_RAW },
    { "concatenated_gzip_members.parquet", PQ_CODEC_GZIP },
    { "alltypes_plain.snappy.parquet", PQ_CODEC_SNAPPY },
  };
  pq_codec_ctx *c = pq_codec_ctx_new();
  for(size_t i=0; i<sizeof(files)/sizeof(files[0]); i++){
    char path[512];
    snprintf(path, sizeof(path), "%s%s", TESTDATA, files[i].name);
    int pages = decode_file_pages(c, path, files[i].codec);
    if( pages==-2 ){ printf("codec: %s not found, skipping\n", files[i].name); continue; }
    printf("codec: %s: %d pages decoded\n", files[i].name, pages);
    CHECK(pages>0);
  }
  pq_codec_ctx_free(c);
}

int main(void){
  RUN(test_names_and_unsupported);
  RUN(test_round_trips);
  RUN(test_truncated);
  RUN(test_corrupted);
  RUN(test_context_reuse);
  RUN(test_hadoop_lies);
  RUN(test_parquet_testing_pages);
  return unit_report("codec");
}
