/*
** column.c — read one column chunk: pages, levels, values (see column.h).
**
** Bounds: every page must lie inside the chunk, which must lie inside the
** file; a page's uncompressed size is capped relative to its compressed size
** (no codec we support expands beyond that) so a lying header cannot make us
** allocate more than the file justifies; level and value counts of a
** non-repeated column cannot exceed the row group's rows.
*/
#include "column.h"
#include "encoding.h"
#include <zlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_MAX_RATIO 4096           /* uncompressed/compressed bound */
#define PAGE_MAX_BYTES (1u<<30)       /* 1 GiB: no page is larger */

static int phys_width(int phys, int type_length){
  switch( phys ){
    case PQ_BOOLEAN: return 1;
    case PQ_INT32: case PQ_FLOAT: return 4;
    case PQ_INT64: case PQ_DOUBLE: return 8;
    case PQ_INT96: return 12;
    default: (void)type_length; return 0;
  }
}

void pq_chunk_free(pq_chunk *c){
  if( c==0 ) return;
  col_pool *p = c->pool;
  col_pool_put(p, c->def); col_pool_put(p, c->rep);
  col_pool_put(p, c->dict.fixed); col_pool_put(p, c->dict.str);
  if( !c->vals.borrowed ) col_pool_put(p, c->vals.fixed);
  col_pool_put(p, c->vals.str);
  col_pool_put(p, c->codes);
  for(int i=0; i<c->nbufs; i++) col_pool_put(p, c->bufs[i]);
  free(c->bufs);
  col_arena_free(&c->arena);
  memset(c, 0, sizeof(*c));
}

/* Keep a buffer (from c->pool) alive for the chunk's lifetime. */
static int chunk_keep(pq_chunk *c, void *buf){
  if( c->nbufs==c->cap_bufs ){
    int nc = c->cap_bufs ? c->cap_bufs*2 : 8;
    void **nb = realloc(c->bufs, sizeof(void*)*(size_t)nc);
    if( nb==0 ) return COL_ENOMEM;
    c->bufs = nb; c->cap_bufs = nc;
  }
  c->bufs[c->nbufs++] = buf;
  return COL_OK;
}

/* A data page's buffer (chunk_keep'd last) that nothing points into any
** more goes back to the pool now rather than with the chunk: the next page
** decompresses into the same, cache-warm block, and a chunk of many pages
** no longer holds a block per page until it goes (ClickBench's CounterID,
** EventDate and the like: 9 pages a row group). */
static void page_release(pq_chunk *c, uint8_t *buf){
  if( buf && c->nbufs>0 && c->bufs[c->nbufs-1]==buf ){
    c->nbufs--;
    col_pool_put(c->pool, buf);
  }
}

/* Make room for `more` values in v (width bytes each, or strings). */
/* The reserve functions allocate on first use even for zero values: the
** decoders are handed dst + n, and NULL + 0 is undefined behaviour (a
** fuzzed page of zero values reached it). */
static int values_reserve(col_pool *pool, pq_values *v, int width, int64_t more){
  if( v->n + more <= v->cap && v->cap>0 && !v->borrowed ) return COL_OK;
  int64_t nc = v->cap ? v->cap : 1024;
  while( nc < v->n + more ) nc *= 2;
  if( v->borrowed ){
    /* a second page after a borrowed one: the values get a buffer now */
    uint8_t *p = col_pool_get(pool, (size_t)nc*(size_t)width);
    if( p==0 ) return COL_ENOMEM;
    memcpy(p, v->fixed, (size_t)v->n*(size_t)width);
    v->fixed = p;
    v->borrowed = 0;
  }else if( width ){
    uint8_t *p = col_pool_grow(pool, v->fixed, (size_t)nc*(size_t)width);
    if( p==0 ) return COL_ENOMEM;
    v->fixed = p;
  }else{
    cv_str *p = col_pool_grow(pool, v->str, (size_t)nc*sizeof(cv_str));
    if( p==0 ) return COL_ENOMEM;
    v->str = p;
  }
  v->cap = nc;
  return COL_OK;
}

static int levels_reserve(pq_chunk *c, int64_t more){
  if( c->nlevels + more <= c->cap_levels && c->cap_levels>0 ) return COL_OK;
  int64_t nc = c->cap_levels ? c->cap_levels : 1024;
  while( nc < c->nlevels + more ) nc *= 2;
  if( c->max_def ){
    uint8_t *p = col_pool_grow(c->pool, c->def, (size_t)nc);
    if( p==0 ) return COL_ENOMEM;
    c->def = p;
  }
  if( c->max_rep ){
    uint8_t *p = col_pool_grow(c->pool, c->rep, (size_t)nc);
    if( p==0 ) return COL_ENOMEM;
    c->rep = p;
  }
  c->cap_levels = nc;
  return COL_OK;
}

static int codes_reserve(pq_chunk *c, int64_t more){
  if( c->nvals + more <= c->cap_codes && c->cap_codes>0 ) return COL_OK;
  int64_t nc = c->cap_codes ? c->cap_codes : 1024;
  while( nc < c->nvals + more ) nc *= 2;
  uint32_t *p = col_pool_grow(c->pool, c->codes, (size_t)nc*sizeof(uint32_t));
  if( p==0 ) return COL_ENOMEM;
  c->codes = p; c->cap_codes = nc;
  return COL_OK;
}

/* Decode n values in `enc` from buf into dst (appending). */
static int decode_values(pq_chunk *c, pq_values *dst, int enc, int v2,
                         const uint8_t *buf, size_t len, int64_t n,
                         col_error *err){
  int w = c->width;
  size_t used;
  if( values_reserve(c->pool, dst, w, n) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  uint8_t *fx = w ? dst->fixed + (size_t)dst->n*(size_t)w : 0;
  cv_str *st = w ? 0 : dst->str + dst->n;
  int rc = COL_OK;
  (void)v2;
  switch( enc ){
    case PQ_ENC_PLAIN:
      if( c->phys==PQ_BOOLEAN ) rc = pq_plain_bool_decode(buf, len, fx, (size_t)n, &used, err);
      else if( c->phys==PQ_BYTE_ARRAY ) rc = pq_plain_byte_array_decode(buf, len, st, (size_t)n, &used, err);
      else if( c->phys==PQ_FIXED_LEN_BYTE_ARRAY ) rc = pq_plain_flba_decode(buf, len, (uint32_t)c->type_length, st, (size_t)n, &used, err);
      else rc = pq_plain_fixed_decode(buf, len, (size_t)w, fx, (size_t)n, &used, err);
      break;
    case PQ_ENC_RLE:
      if( c->phys!=PQ_BOOLEAN ) goto unsupported;
      if( len<4 ) return col_error_set(err, COL_ERROR, "RLE boolean page shorter than its length prefix");
      {
        uint32_t l = (uint32_t)buf[0] | (uint32_t)buf[1]<<8 | (uint32_t)buf[2]<<16 | (uint32_t)buf[3]<<24;
        if( l > len-4 ) return col_error_set(err, COL_ERROR, "RLE boolean length %u exceeds the %zu bytes of the page", l, len-4);
        rc = pq_rle_decode_u8(buf+4, l, 1, fx, (size_t)n, 0, err);
      }
      break;
    case PQ_ENC_DELTA_BINARY_PACKED:
      if( c->phys==PQ_INT64 ){
        rc = pq_delta_binary_decode(buf, len, (int64_t*)fx, (size_t)n, &used, err);
      }else if( c->phys==PQ_INT32 ){
        int64_t *tmp = malloc((size_t)(n ? n : 1)*sizeof(int64_t));
        if( tmp==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
        rc = pq_delta_binary_decode(buf, len, tmp, (size_t)n, &used, err);
        for(int64_t i=0; rc==COL_OK && i<n; i++){
          int32_t x = (int32_t)(uint32_t)(uint64_t)tmp[i];
          memcpy(fx + i*4, &x, 4);
        }
        free(tmp);
      }else goto unsupported;
      break;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
      if( c->phys!=PQ_BYTE_ARRAY ) goto unsupported;
      rc = pq_delta_length_decode(buf, len, st, (size_t)n, &used, err);
      break;
    case PQ_ENC_DELTA_BYTE_ARRAY:
      if( c->phys!=PQ_BYTE_ARRAY && c->phys!=PQ_FIXED_LEN_BYTE_ARRAY ) goto unsupported;
      rc = pq_delta_byte_array_decode(buf, len, st, (size_t)n, &c->arena, err);
      break;
    case PQ_ENC_BYTE_STREAM_SPLIT:
      if( w && c->phys!=PQ_BOOLEAN ){
        rc = pq_byte_stream_split_decode(buf, len, (size_t)w, fx, (size_t)n, err);
      }else if( c->phys==PQ_FIXED_LEN_BYTE_ARRAY ){
        size_t tl = (size_t)c->type_length;
        uint8_t *out = col_arena_alloc(&c->arena, tl*(size_t)n + 1);
        if( out==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
        rc = pq_byte_stream_split_decode(buf, len, tl, out, (size_t)n, err);
        for(int64_t i=0; rc==COL_OK && i<n; i++){
          st[i].p = (const char*)out + (size_t)i*tl;
          st[i].n = (uint32_t)tl;
        }
      }else goto unsupported;
      break;
    default:
      goto unsupported;
  }
  if( rc ) return rc;
  dst->n += n;
  return COL_OK;
unsupported:
  return col_error_set(err, COL_ERROR, "unsupported encoding %d for physical type %d", enc, c->phys);
}

/* Can the chunk's first page of values, n PLAIN numbers of 4 or 8 bytes at
** vbuf (vlen bytes), be its values as they lie, not copied? The page is
** kept as long as the chunk (a decompressed page is, and so is the chunk's
** raw view), and the values are only read: INT64 and DOUBLE batches point
** at them (pq_convert_values). Aligned for their width only: a page's
** levels before them can leave them anywhere. A second page then copies
** them (values_reserve). DuckDB writes a row group's column of 122880
** numbers as one page: avg(UserID) over 10M rows spent 18% of its time
** copying each page's values. */
static int values_borrowable(const pq_chunk *c, int enc, const uint8_t *vbuf, size_t vlen,
                             int64_t n){
  int w = c->width;
  if( enc!=PQ_ENC_PLAIN || n<=0 ) return 0;
  if( c->phys!=PQ_INT64 && c->phys!=PQ_DOUBLE && c->phys!=PQ_INT32 && c->phys!=PQ_FLOAT ) return 0;
  return (uintptr_t)vbuf % (uintptr_t)w==0 && (uint64_t)n <= vlen / (uint64_t)w;
}

/* Levels of a v1 page: RLE with a 4-byte length prefix, or BIT_PACKED. */
static int decode_levels_v1(int enc, int maxlvl, const uint8_t *buf, size_t len,
                            uint8_t *out, int64_t n, size_t *used, col_error *err){
  int bw = 0;
  while( (1<<bw) <= maxlvl ) bw++;
  if( enc==PQ_ENC_RLE ){
    if( len<4 ) return col_error_set(err, COL_ERROR, "level data shorter than its length prefix");
    uint32_t l = (uint32_t)buf[0] | (uint32_t)buf[1]<<8 | (uint32_t)buf[2]<<16 | (uint32_t)buf[3]<<24;
    if( l > len-4 ) return col_error_set(err, COL_ERROR, "level length %u exceeds the %zu bytes left in the page", l, len-4);
    *used = 4 + l;
    return pq_rle_decode_u8(buf+4, l, bw, out, (size_t)n, 0, err);
  }
  if( enc==PQ_ENC_BIT_PACKED ){
    size_t need = ((size_t)n*(size_t)bw + 7)/8;
    if( need > len ) return col_error_set(err, COL_ERROR, "BIT_PACKED levels need %zu bytes, page has %zu", need, len);
    *used = need;
    return pq_bitpacked_msb_decode(buf, need, bw, out, (size_t)n, err);
  }
  return col_error_set(err, COL_ERROR, "unsupported level encoding %d", enc);
}

/* Check every level is <= maxlvl and count those equal to it, in one
** branch-free pass the compiler can vectorize (this loop runs over every
** level of every page). */
static int check_levels(const uint8_t *lv, int64_t n, int maxlvl, const char *what,
                        int64_t *at_max, col_error *err){
  int64_t eq;
  uint8_t hi = pq_levels_scan(lv, n, (uint8_t)maxlvl, &eq);
  if( hi > maxlvl ){
    return col_error_set(err, COL_ERROR, "%s level %d exceeds the maximum %d", what, hi, maxlvl);
  }
  if( at_max ) *at_max = eq;
  return COL_OK;
}

/* Switch from dictionary codes to plain values: look every code up. */
static int materialize_codes(pq_chunk *c, col_error *err){
  int w = c->width;
  if( values_reserve(c->pool, &c->vals, w, c->nvals) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  for(int64_t i=0; i<c->nvals; i++){
    uint32_t k = c->codes[i];
    if( w ) memcpy(c->vals.fixed + (size_t)(c->vals.n+i)*(size_t)w, c->dict.fixed + (size_t)k*(size_t)w, (size_t)w);
    else c->vals.str[c->vals.n+i] = c->dict.str[k];
  }
  c->vals.n += c->nvals;
  c->dict_mode = 0;
  return COL_OK;
}

/* Decompress a page body, or point at it when uncompressed. *owned is set
** to the buffer the caller must keep or free. */
static int page_body(pq_chunk *c, pq_codec_ctx *codec, int codecid,
                     const uint8_t *in, size_t in_len, size_t out_len,
                     const uint8_t **out, uint8_t **owned, col_error *err){
  *owned = 0;
  if( codecid==PQ_CODEC_UNCOMPRESSED ){
    if( in_len!=out_len ){
      return col_error_set(err, COL_ERROR, "uncompressed page of %zu bytes declares %zu bytes", in_len, out_len);
    }
    *out = in;
    return COL_OK;
  }
  if( out_len > PAGE_MAX_BYTES || out_len > in_len*(size_t)PAGE_MAX_RATIO + (1u<<20) ){
    return col_error_set(err, COL_ERROR, "page declares %zu uncompressed bytes from %zu compressed bytes",
                         out_len, in_len);
  }
  uint8_t *buf = col_pool_get(c->pool, out_len ? out_len : 1);
  if( buf==0 ) return col_error_set(err, COL_ENOMEM, "out of memory");
  int rc = pq_decompress(codec, codecid, in, in_len, buf, out_len, err);
  if( rc ){ col_pool_put(c->pool, buf); return rc; }
  *out = buf;
  *owned = buf;
  return COL_OK;
}

/* Placeholders for a skipped page of n rows: non-null levels and zero
** values (or dictionary code 0), never read by anyone. */
static int skip_page(pq_chunk *c, int dict_enc, int *mode, int64_t n, col_error *err){
  if( levels_reserve(c, n) ) return col_error_set(err, COL_ENOMEM, "out of memory");
  if( c->def ) memset(c->def + c->nlevels, c->max_def, (size_t)n);
  c->nlevels += n;
  if( (*mode==1 || (*mode==0 && dict_enc)) && c->dict.n>0 ){
    *mode = 1;
    c->dict_mode = 1;
    if( codes_reserve(c, n) ) return col_error_set(err, COL_ENOMEM, "out of memory");
    memset(c->codes + c->nvals, 0, (size_t)n*sizeof(uint32_t));
  }else{
    if( *mode==1 && materialize_codes(c, err) ) return err->code;
    *mode = 2;
    if( values_reserve(c->pool, &c->vals, c->width, n) ) return col_error_set(err, COL_ENOMEM, "out of memory");
    if( c->width ){
      memset(c->vals.fixed + (size_t)c->vals.n*(size_t)c->width, 0, (size_t)n*(size_t)c->width);
    }else{
      /* FIXED_LEN values are read at their width (UUID, FLOAT16): point at
      ** zeros of that width. */
      size_t w = c->phys==PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)c->type_length : 0;
      char *zero = col_arena_alloc(&c->arena, w ? w : 1);
      if( !zero ) return col_error_set(err, COL_ENOMEM, "out of memory");
      memset(zero, 0, w ? w : 1);
      for(int64_t i=0; i<n; i++){ c->vals.str[c->vals.n+i].p = zero; c->vals.str[c->vals.n+i].n = (uint32_t)w; }
    }
    c->vals.n += n;
  }
  c->nvals += n;
  c->pages_skipped++;
  return COL_OK;
}

/* Does the mask mark any of rows [from, from+n)? */
static int mask_any(const uint8_t *m, int64_t from, int64_t n){
  for(int64_t i=0; i<n; i++) if( m[from+i] ) return 1;
  return 0;
}

int pq_chunk_read(pq_file *f, pq_column_chunk *cc, const pq_leaf_desc *leaf,
                  int64_t rg_rows, pq_codec_ctx *codec, const char *where,
                  const uint8_t *rowmask, pq_chunk *c, col_error *err){
  const pq_column_meta *md = &cc->meta_data;
  const uint8_t *raw = 0;
  memset(c, 0, sizeof(*c));
  c->pool = pq_codec_pool(codec);
  col_arena_init_pool(&c->arena, c->pool);
  if( !cc->has_meta_data ){
    col_error_set(err, COL_ERROR, "column chunk has no metadata (encrypted column?)");
    goto chunk_error;
  }
  if( cc->file_path.n ){
    col_error_set(err, COL_ERROR, "column chunk data in another file (%.*s) is not supported",
                  (int)cc->file_path.n, (const char*)cc->file_path.p);
    goto chunk_error;
  }
  const pq_conv *cv = &leaf->conv;
  c->phys = cv->phys;
  c->type_length = cv->type_length;
  c->width = phys_width(c->phys, c->type_length);
  c->max_def = leaf->max_def;
  c->max_rep = leaf->max_rep;
  if( md->type!=cv->phys ){
    col_error_set(err, COL_ERROR, "chunk type %d differs from the schema's %d", md->type, cv->phys);
    goto chunk_error;
  }
  int64_t start = pq_chunk_start(md);
  int64_t len = md->total_compressed_size;
  if( start<4 || len<0 || start > f->size || len > f->size - start ){
    col_error_set(err, COL_ERROR, "chunk at offset %lld of %lld bytes lies outside the file (%lld bytes)",
                  (long long)start, (long long)len, (long long)f->size);
    goto chunk_error;
  }
  if( md->num_values<0 || (leaf->max_rep==0 && md->num_values > rg_rows)
   || (md->num_values > (1<<20) && md->num_values/4096 > len) ){
    col_error_set(err, COL_ERROR, "chunk claims %lld values for %lld rows",
                  (long long)md->num_values, (long long)rg_rows);
    goto chunk_error;
  }
  if( !pq_file_view(f, start, (size_t)len, &cc->faulted, &raw) ){
    uint8_t *buf = col_pool_get(c->pool, (size_t)(len ? len : 1));
    if( buf==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
    if( chunk_keep(c, buf) ){ col_pool_put(c->pool, buf); col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
    if( pq_file_read(f, start, buf, (size_t)len, err) ) goto chunk_error;
    raw = buf;
  }
  c->bytes_read = len;
  int64_t pos = 0, seen = 0;
  int have_dict = 0, mode = 0; /* mode: 0 unset, 1 dictionary codes, 2 plain */
  while( seen < md->num_values ){
    pq_page_header ph;
    size_t hlen = 0;
    if( pos >= len ){
      col_error_set(err, COL_ERROR, "chunk ends after %lld of %lld values",
                    (long long)seen, (long long)md->num_values);
      goto chunk_error;
    }
    if( pq_page_header_decode(raw+pos, (size_t)(len-pos), &ph, &hlen, err) ){
      col_error_prefix(err, "page header at offset %lld: ", (long long)(start+pos));
      goto chunk_error;
    }
    pos += (int64_t)hlen;
    if( ph.compressed_page_size<0 || ph.uncompressed_page_size<0 || ph.compressed_page_size > len-pos ){
      col_error_set(err, COL_ERROR, "page at offset %lld: compressed size %d exceeds the %lld bytes left in the chunk",
                    (long long)(start+pos), ph.compressed_page_size, (long long)(len-pos));
      goto chunk_error;
    }
    const uint8_t *pbody = raw + pos;
    size_t plen = (size_t)ph.compressed_page_size;
    pos += ph.compressed_page_size;
    /* The CRC covers the page as stored: compressed bytes, levels included. */
    if( f->verify_crc && ph.has_crc ){
      uint32_t crc = (uint32_t)crc32(0L, pbody, (uInt)plen);
      if( crc!=(uint32_t)ph.crc ){
        col_error_set(err, COL_ERROR, "page at offset %lld: CRC mismatch (stored %08x, computed %08x)",
                      (long long)(start+pos-(int64_t)plen), (uint32_t)ph.crc, crc);
        goto chunk_error;
      }
    }
    if( ph.type==PQ_PAGE_DICTIONARY ){
      const uint8_t *body; uint8_t *owned;
      if( have_dict ){ col_error_set(err, COL_ERROR, "second dictionary page in one chunk"); goto chunk_error; }
      if( !ph.has_dictionary_page_header ){ col_error_set(err, COL_ERROR, "dictionary page without its header"); goto chunk_error; }
      int32_t nd = ph.dictionary_page_header.num_values;
      if( nd<0 ){ col_error_set(err, COL_ERROR, "dictionary with %d values", nd); goto chunk_error; }
      if( page_body(c, codec, md->codec, pbody, plen, (size_t)ph.uncompressed_page_size, &body, &owned, err) ) goto chunk_error;
      if( owned && chunk_keep(c, owned) ){ col_pool_put(c->pool, owned); col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
      int enc = ph.dictionary_page_header.encoding;
      if( enc==PQ_ENC_PLAIN_DICTIONARY ) enc = PQ_ENC_PLAIN;
      if( decode_values(c, &c->dict, enc, 0, body, (size_t)ph.uncompressed_page_size, nd, err) ){
        col_error_prefix(err, "dictionary page: ");
        goto chunk_error;
      }
      have_dict = 1;
      continue;
    }
    if( ph.type!=PQ_PAGE_DATA && ph.type!=PQ_PAGE_DATA_V2 ) continue; /* index pages, unknown */
    int v2 = ph.type==PQ_PAGE_DATA_V2;
    if( (v2 && !ph.has_data_page_header_v2) || (!v2 && !ph.has_data_page_header) ){
      col_error_set(err, COL_ERROR, "data page without its header");
      goto chunk_error;
    }
    int32_t nv = v2 ? ph.data_page_header_v2.num_values : ph.data_page_header.num_values;
    int enc = v2 ? ph.data_page_header_v2.encoding : ph.data_page_header.encoding;
    if( nv<0 || nv > md->num_values - seen ){
      col_error_set(err, COL_ERROR, "data page holds %d values, chunk has %lld left",
                    nv, (long long)(md->num_values - seen));
      goto chunk_error;
    }
    if( rowmask && leaf->max_rep==0 && !mask_any(rowmask, c->nlevels, nv) ){
      int dict_enc = enc==PQ_ENC_PLAIN_DICTIONARY || enc==PQ_ENC_RLE_DICTIONARY;
      if( skip_page(c, dict_enc && have_dict, &mode, nv, err) ) goto chunk_error;
      seen += nv;
      continue;
    }
    c->pages++;
    if( levels_reserve(c, nv) ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
    uint8_t *rep = c->rep ? c->rep + c->nlevels : 0;
    uint8_t *def = c->def ? c->def + c->nlevels : 0;
    const uint8_t *vbuf; size_t vlen;
    uint8_t *page_buf = 0;   /* the page's decompressed bytes, when owned */
    if( v2 ){
      int32_t rl = ph.data_page_header_v2.repetition_levels_byte_length;
      int32_t dl = ph.data_page_header_v2.definition_levels_byte_length;
      if( rl<0 || dl<0 || (int64_t)rl + dl > (int64_t)plen ){
        col_error_set(err, COL_ERROR, "v2 page level lengths %d+%d exceed the page's %zu bytes", rl, dl, plen);
        goto chunk_error;
      }
      int bw = 0;
      if( c->max_rep ){
        while( (1<<bw) <= c->max_rep ) bw++;
        if( pq_rle_decode_u8(pbody, (size_t)rl, bw, rep, (size_t)nv, 0, err) ){ col_error_prefix(err, "repetition levels: "); goto chunk_error; }
      }
      if( c->max_def ){
        bw = 0;
        while( (1<<bw) <= c->max_def ) bw++;
        if( pq_rle_decode_u8(pbody+rl, (size_t)dl, bw, def, (size_t)nv, 0, err) ){ col_error_prefix(err, "definition levels: "); goto chunk_error; }
      }
      const uint8_t *body; uint8_t *owned;
      size_t clen = plen - (size_t)rl - (size_t)dl;
      int64_t ulen = (int64_t)ph.uncompressed_page_size - rl - dl;
      if( ulen<0 ){ col_error_set(err, COL_ERROR, "v2 page: uncompressed size smaller than its levels"); goto chunk_error; }
      int codecid = ph.data_page_header_v2.is_compressed ? md->codec : PQ_CODEC_UNCOMPRESSED;
      if( codecid!=PQ_CODEC_UNCOMPRESSED && clen==0 && ulen==0 ){
        body = pbody; owned = 0; /* an empty page: nothing to decompress */
      }else if( page_body(c, codec, codecid, pbody+rl+dl, clen, (size_t)ulen, &body, &owned, err) ){
        goto chunk_error;
      }
      if( owned && chunk_keep(c, owned) ){ col_pool_put(c->pool, owned); col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
      page_buf = owned;
      vbuf = body; vlen = (size_t)ulen;
    }else{
      const uint8_t *body; uint8_t *owned;
      if( page_body(c, codec, md->codec, pbody, plen, (size_t)ph.uncompressed_page_size, &body, &owned, err) ) goto chunk_error;
      if( owned && chunk_keep(c, owned) ){ col_pool_put(c->pool, owned); col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
      page_buf = owned;
      size_t off = 0, used = 0, blen = (size_t)ph.uncompressed_page_size;
      if( c->max_rep ){
        if( decode_levels_v1(ph.data_page_header.repetition_level_encoding, c->max_rep, body, blen, rep, nv, &used, err) ){
          col_error_prefix(err, "repetition levels: "); goto chunk_error;
        }
        off += used;
      }
      if( c->max_def ){
        if( decode_levels_v1(ph.data_page_header.definition_level_encoding, c->max_def, body+off, blen-off, def, nv, &used, err) ){
          col_error_prefix(err, "definition levels: "); goto chunk_error;
        }
        off += used;
      }
      vbuf = body + off; vlen = blen - off;
    }
    if( rep && check_levels(rep, nv, c->max_rep, "repetition", 0, err) ) goto chunk_error;
    if( rep && nv>0 && c->nlevels==0 && rep[0]!=0 ){
      col_error_set(err, COL_ERROR, "chunk starts with repetition level %d, not 0", rep[0]);
      goto chunk_error;
    }
    int64_t nonnull = nv;
    if( def && check_levels(def, nv, c->max_def, "definition", &nonnull, err) ) goto chunk_error;
    c->nlevels += nv;
    seen += nv;
    if( enc==PQ_ENC_PLAIN_DICTIONARY || enc==PQ_ENC_RLE_DICTIONARY ){
      if( !have_dict ){ col_error_set(err, COL_ERROR, "dictionary-encoded page without a dictionary page"); goto chunk_error; }
      if( mode==2 ){
        /* plain pages came first: look the codes up as we go */
        uint32_t *tmp = malloc((size_t)(nonnull ? nonnull : 1)*sizeof(uint32_t));
        if( tmp==0 ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
        if( pq_dict_indexes_decode(vbuf, vlen, tmp, (size_t)nonnull, (uint32_t)c->dict.n, err)
         || values_reserve(c->pool, &c->vals, c->width, nonnull) ){
          free(tmp);
          if( !err->code ) col_error_set(err, COL_ENOMEM, "out of memory");
          goto chunk_error;
        }
        for(int64_t i=0; i<nonnull; i++){
          if( c->width ) memcpy(c->vals.fixed + (size_t)(c->vals.n+i)*(size_t)c->width, c->dict.fixed + (size_t)tmp[i]*(size_t)c->width, (size_t)c->width);
          else c->vals.str[c->vals.n+i] = c->dict.str[tmp[i]];
        }
        c->vals.n += nonnull;
        c->nvals += nonnull;
        free(tmp);
        page_release(c, page_buf);
        continue;
      }
      mode = 1;
      c->dict_mode = 1;
      if( codes_reserve(c, nonnull) ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto chunk_error; }
      if( pq_dict_indexes_decode(vbuf, vlen, c->codes + c->nvals, (size_t)nonnull, (uint32_t)c->dict.n, err) ){
        col_error_prefix(err, "dictionary indexes: "); goto chunk_error;
      }
      c->nvals += nonnull;
      page_release(c, page_buf);
    }else{
      if( mode==1 && materialize_codes(c, err) ) goto chunk_error;
      mode = 2;
      if( c->vals.n==0 && c->vals.fixed==0 && values_borrowable(c, enc, vbuf, vlen, nonnull) ){
        c->vals.fixed = (uint8_t*)vbuf;
        c->vals.n = c->vals.cap = nonnull;
        c->vals.borrowed = 1;
      }else if( decode_values(c, &c->vals, enc, v2, vbuf, vlen, nonnull, err) ){
        goto chunk_error;
      }else if( c->width ){
        /* numbers are copied out; TEXT, BLOB and FIXED_LEN values point
        ** into the page, which stays */
        page_release(c, page_buf);
      }
      c->nvals += nonnull;
    }
  }
  if( leaf->max_rep==0 && c->nlevels!=rg_rows ){
    col_error_set(err, COL_ERROR, "chunk holds %lld values, row group has %lld rows",
                  (long long)c->nlevels, (long long)rg_rows);
    goto chunk_error;
  }
  return COL_OK;

chunk_error:
  col_error_prefix(err, "%s: ", where);
  pq_chunk_free(c);
  return err->code;
}

int pq_chunk_read_dictionary(pq_file *f, const pq_column_chunk *cc,
                             const pq_leaf_desc *leaf, pq_codec_ctx *codec,
                             pq_chunk *c, col_error *err){
  const pq_column_meta *md = &cc->meta_data;
  memset(c, 0, sizeof(*c));
  c->pool = pq_codec_pool(codec);
  col_arena_init_pool(&c->arena, c->pool);
  if( !cc->has_meta_data || cc->file_path.n ) return COL_OK;
  c->phys = leaf->conv.phys;
  c->type_length = leaf->conv.type_length;
  c->width = phys_width(c->phys, c->type_length);
  int64_t start = pq_chunk_start(md);
  int64_t len = md->total_compressed_size;
  if( start<4 || len<=0 || start > f->size || len > f->size - start ) return COL_OK;
  /* The header first (thrift headers of a dictionary page are small). */
  size_t hcap = len < 4096 ? (size_t)len : 4096;
  uint8_t *hbuf = malloc(hcap);
  if( !hbuf ) return col_error_set(err, COL_ENOMEM, "out of memory");
  pq_page_header ph;
  size_t hlen = 0;
  if( pq_file_read(f, start, hbuf, hcap, err) || pq_page_header_decode(hbuf, hcap, &ph, &hlen, err) ){
    free(hbuf);
    col_error_clear(err);     /* not fatal: the chunk read will say it */
    return COL_OK;
  }
  free(hbuf);
  if( ph.type!=PQ_PAGE_DICTIONARY || !ph.has_dictionary_page_header
   || ph.compressed_page_size<0 || ph.compressed_page_size > len - (int64_t)hlen
   || ph.dictionary_page_header.num_values<0 ){
    return COL_OK;
  }
  uint8_t *raw = col_pool_get(c->pool, (size_t)ph.compressed_page_size + 1);
  if( !raw ) return col_error_set(err, COL_ENOMEM, "out of memory");
  if( chunk_keep(c, raw) ){ col_pool_put(c->pool, raw); return col_error_set(err, COL_ENOMEM, "out of memory"); }
  if( pq_file_read(f, start+(int64_t)hlen, raw, (size_t)ph.compressed_page_size, err) ) goto dict_error;
  const uint8_t *body; uint8_t *owned;
  if( page_body(c, codec, md->codec, raw, (size_t)ph.compressed_page_size,
                (size_t)ph.uncompressed_page_size, &body, &owned, err) ) goto dict_error;
  if( owned && chunk_keep(c, owned) ){ col_pool_put(c->pool, owned); col_error_set(err, COL_ENOMEM, "out of memory"); goto dict_error; }
  int enc = ph.dictionary_page_header.encoding;
  if( enc==PQ_ENC_PLAIN_DICTIONARY ) enc = PQ_ENC_PLAIN;
  if( decode_values(c, &c->dict, enc, 0, body, (size_t)ph.uncompressed_page_size,
                    ph.dictionary_page_header.num_values, err) ) goto dict_error;
  c->bytes_read = (int64_t)hcap + ph.compressed_page_size;
  return COL_OK;
dict_error:
  pq_chunk_free(c);
  return err->code;
}
