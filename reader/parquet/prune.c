/*
** prune.c — proving a column chunk holds no matching row, beyond min/max:
** its dictionary and its split-block bloom filter.
**
** Dictionary: when every data page of a chunk is dictionary-encoded, the
** dictionary is the set of values the chunk holds. If no entry satisfies a
** predicate that NULL never satisfies, no row does, and the chunk (so the row
** group) is skipped after reading one small page. Works for any operator,
** LIKE included.
**
** Bloom filter: for = and IN, the literal is hashed the way the writer
** hashed the column's physical values (XXH64 of the PLAIN encoding); a
** "definitely absent" answer for every literal skips the row group. The
** literal must be put back into the physical type first: an INTEGER for an
** INT32 column, days for a DATE given as 'YYYY-MM-DD', and both zeros for a
** REAL 0 (SQLite says 0.0 = -0.0; their bits differ).
*/
#include "rowgroup.h"
#include "bloom.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Are all data pages of the chunk dictionary-encoded? */
static int all_dictionary(const pq_column_meta *m){
  if( m->n_encoding_stats>0 ){
    int any = 0;
    for(int i=0; i<m->n_encoding_stats; i++){
      const pq_page_encoding_stats *e = &m->encoding_stats[i];
      if( e->page_type!=PQ_PAGE_DATA && e->page_type!=PQ_PAGE_DATA_V2 ) continue;
      if( e->count<=0 ) continue;
      if( e->encoding!=PQ_ENC_PLAIN_DICTIONARY && e->encoding!=PQ_ENC_RLE_DICTIONARY ) return 0;
      any = 1;
    }
    return any;
  }
  int dict = 0;
  for(int i=0; i<m->n_encodings; i++){
    int e = m->encodings[i];
    if( e==PQ_ENC_PLAIN_DICTIONARY || e==PQ_ENC_RLE_DICTIONARY ) dict = 1;
    else if( e!=PQ_ENC_RLE && e!=PQ_ENC_BIT_PACKED ) return 0;  /* PLAIN may be a fallback */
  }
  return dict;
}

/* Operators no NULL satisfies. */
static int null_never_matches(const scan_pred *p){
  switch( p->op ){
    case PRED_ISNULL: case PRED_ISNOT: case PRED_NOTNULL: return 0;
    case PRED_IS: return p->v.type!=CV_NULL;
    default: return 1;
  }
}

int pq_chunk_dict_excludes(pq_file *f, const pq_column_chunk *cc,
                           const pq_leaf_desc *leaf, const scan_pred *p,
                           pq_codec_ctx *codec, scan_stats *stats){
  if( !cc->has_meta_data || !null_never_matches(p) ) return 0;
  if( !all_dictionary(&cc->meta_data) ) return 0;
  pq_chunk c;
  col_error err;
  col_error_clear(&err);
  if( pq_chunk_read_dictionary(f, cc, leaf, codec, &c, &err) ) return 0;
  stats->bytes_read += c.bytes_read;
  int excluded = 0;
  if( c.dict.n>0 ){
    pq_colvec o;
    col_vector v;
    memset(&o, 0, sizeof(o));
    col_arena_init(&o.arena);
    if( pq_convert_values(&c, &c.dict, c.dict.n, &leaf->conv, 0, &o, &v, &err)==COL_OK ){
      excluded = 1;
      for(int64_t i=0; i<c.dict.n && excluded; i++){
        pred_value x = pred_value_of(&v, (uint32_t)i);
        if( x.type==CV_NULL || pred_match_value(p, &x) ) excluded = 0;
      }
    }
    pq_colvec_free(&o);
  }
  pq_chunk_free(&c);
  return excluded;
}

/* Days since 1970-01-01 of 'YYYY-MM-DD' (exactly), or 0 if not one. */
static int parse_date(const char *s, uint32_t n, int64_t *days){
  if( n!=10 || s[4]!='-' || s[7]!='-' ) return 0;
  for(int i=0; i<10; i++) if( i!=4 && i!=7 && (s[i]<'0' || s[i]>'9') ) return 0;
  int64_t y = (s[0]-'0')*1000 + (s[1]-'0')*100 + (s[2]-'0')*10 + (s[3]-'0');
  unsigned m = (unsigned)((s[5]-'0')*10 + (s[6]-'0')), d = (unsigned)((s[8]-'0')*10 + (s[9]-'0'));
  static const unsigned mdays[] = {31,29,31,30,31,30,31,31,30,31,30,31};
  if( m<1 || m>12 || d<1 || d>mdays[m-1] ) return 0;
  int leap = (y%4==0 && y%100!=0) || y%400==0;
  if( m==2 && d==29 && !leap ) return 0;
  /* days-from-civil (inverse of value.c's civil-from-days) */
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y-399) / 400;
  uint64_t yoe = (uint64_t)(y - era*400);
  uint64_t doy = (153*(m > 2 ? m-3 : m+9) + 2)/5 + d-1;
  uint64_t doe = yoe*365 + yoe/4 - yoe/100 + doy;
  *days = era*146097 + (int64_t)doe - 719468;
  return 1;
}

/* Hashes of literal v as the column stores it: up to 2 (for +-0.0).
** Returns how many, 0 when the literal cannot be hashed (no pruning). */
static int literal_hashes(const pq_conv *cv, const pred_value *v, pred_coll coll, uint64_t h[2]){
  int64_t i; double d;
  switch( cv->kind ){
    case PQC_INT32: case PQC_UINT32: case PQC_INT64: case PQC_UINT64:
      if( v->type==CV_INT ) i = v->i;
      else if( v->type==CV_REAL && v->f==floor(v->f) && fabs(v->f) < 9.2e18 ) i = (int64_t)v->f;
      else return 0;
      if( cv->kind==PQC_INT32 ){ if( i<INT32_MIN || i>INT32_MAX ) return 0; h[0] = pq_bloom_hash_i32((int32_t)i); }
      else if( cv->kind==PQC_UINT32 ){ if( i<0 || i>UINT32_MAX ) return 0; h[0] = pq_bloom_hash_i32((int32_t)(uint32_t)i); }
      else { if( cv->kind==PQC_UINT64 && i<0 ) return 0; h[0] = pq_bloom_hash_i64(i); }
      return 1;
    case PQC_DOUBLE: case PQC_FLOAT:
      if( v->type==CV_REAL ) d = v->f;
      else if( v->type==CV_INT && (double)v->i==(double)(int64_t)(double)v->i && fabs((double)v->i) < 9e15 ) d = (double)v->i;
      else return 0;
      if( cv->kind==PQC_FLOAT ){
        float fl = (float)d;
        if( (double)fl!=d ) return 0;
        h[0] = pq_bloom_hash_f32(fl);
        if( fl==0 ){ h[1] = pq_bloom_hash_f32(-fl); return 2; }
        return 1;
      }
      h[0] = pq_bloom_hash_f64(d);
      if( d==0 ){ h[1] = pq_bloom_hash_f64(-d); return 2; }
      return 1;
    case PQC_DATE:
      if( v->type!=CV_TEXT || !parse_date(v->p, v->n, &i) ) return 0;
      if( i<INT32_MIN || i>INT32_MAX ) return 0;
      h[0] = pq_bloom_hash_i32((int32_t)i);
      return 1;
    case PQC_TEXT:
      if( cv->phys!=PQ_BYTE_ARRAY || v->type!=CV_TEXT || coll!=COLL_BINARY ) return 0;
      h[0] = pq_bloom_hash_bytes(v->p, v->n);
      return 1;
    case PQC_BLOB:
      if( cv->phys!=PQ_BYTE_ARRAY || v->type!=CV_BLOB ) return 0;
      h[0] = pq_bloom_hash_bytes(v->p, v->n);
      return 1;
    default:
      return 0;
  }
}

/* Might literal v be in the filter? (1 when unsure) */
static int bloom_may_hold(const pq_conv *cv, const pred_value *v, pred_coll coll,
                          const uint8_t *bits, size_t nbits){
  uint64_t h[2];
  int nh = literal_hashes(cv, v, coll, h);
  if( nh==0 ) return 1;
  for(int k=0; k<nh; k++) if( pq_bloom_check(bits, nbits, h[k]) ) return 1;
  return 0;
}

int pq_chunk_bloom_excludes(pq_file *f, const pq_column_chunk *cc,
                            const pq_leaf_desc *leaf, const scan_pred *p,
                            scan_stats *stats){
  const pq_column_meta *m = &cc->meta_data;
  if( !cc->has_meta_data || !m->has_bloom_filter ) return 0;
  if( p->op!=PRED_EQ && p->op!=PRED_IN && !(p->op==PRED_IS && p->v.type!=CV_NULL) ) return 0;
  int64_t off = m->bloom_filter_offset;
  int64_t len = m->has_bloom_filter_length ? m->bloom_filter_length : 0;
  if( off<4 || off>=f->size ) return 0;
  uint8_t head[64];
  size_t hn = f->size - off < (int64_t)sizeof(head) ? (size_t)(f->size - off) : sizeof(head);
  col_error err;
  col_error_clear(&err);
  if( pq_file_read(f, off, head, hn, &err) ) return 0;
  pq_bloom_filter_header bh;
  size_t hlen = 0;
  if( pq_bloom_filter_header_decode(head, hn, &bh, &hlen, &err) ) return 0;
  if( !bh.algorithm_block || !bh.hash_xxhash || !bh.compression_uncompressed ) return 0;
  if( bh.num_bytes<=0 || bh.num_bytes % 32 || bh.num_bytes > (1<<27)
   || (int64_t)bh.num_bytes > f->size - off - (int64_t)hlen
   || (len && (int64_t)hlen + bh.num_bytes > len) ) return 0;
  uint8_t *bits = malloc((size_t)bh.num_bytes);
  if( !bits ) return 0;
  int excluded = 0;
  if( pq_file_read(f, off+(int64_t)hlen, bits, (size_t)bh.num_bytes, &err)==COL_OK ){
    stats->bytes_read += (int64_t)hlen + bh.num_bytes;
    if( p->op==PRED_IN ){
      excluded = 1;
      for(int i=0; i<p->nin && excluded; i++){
        if( bloom_may_hold(&leaf->conv, &p->in[i], p->coll, bits, (size_t)bh.num_bytes) ) excluded = 0;
      }
    }else{
      excluded = !bloom_may_hold(&leaf->conv, &p->v, p->coll, bits, (size_t)bh.num_bytes);
    }
  }
  free(bits);
  return excluded;
}
