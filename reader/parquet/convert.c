/*
** convert.c — physical Parquet values to SQLite storage classes (DESIGN.md).
*/
#include "convert.h"
#include "value.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pq_colvec_free(pq_colvec *cv){
  if( cv==0 ) return;
  for(int i=0; i<cv->nmem; i++) col_pool_put(cv->pool, cv->mem[i]);
  col_arena_free(&cv->arena);
  memset(cv, 0, sizeof(*cv));
}

void *pq_colvec_alloc(pq_colvec *o, size_t n){
  if( o->nmem >= (int)(sizeof(o->mem)/sizeof(o->mem[0])) ) return 0;
  void *p = col_pool_get(o->pool, n ? n : 1);
  if( p ) o->mem[o->nmem++] = p;
  return p;
}

/* Text made by a formatter, copied into the owner's arena. */
static int put_text(pq_colvec *o, cv_str *dst, const char *s, int n){
  char *p = col_arena_dup(&o->arena, s, (size_t)n);
  if( p==0 && n>0 ) return COL_ENOMEM;
  dst->p = p; dst->n = (uint32_t)n;
  return COL_OK;
}

/* Does pq_convert_values skip the values `want` leaves out for kind? The
** kinds it rebuilds a value at a time do (DECIMAL, and those it formats
** as text: its switch's default); numbers and strings are taken as they
** lie, every value alike. */
static int conv_skips(int kind){
  switch( kind ){
    case PQC_INT64: case PQC_BOOL: case PQC_INT32: case PQC_UINT32: case PQC_UINT64:
    case PQC_FLOAT: case PQC_DOUBLE: case PQC_FLOAT16: case PQC_TEXT: case PQC_BLOB:
      return 0;
    default:
      return 1;
  }
}

int pq_convert_values(const pq_chunk *c, const pq_values *src, int64_t n,
                      const pq_conv *conv, const uint8_t *want,
                      pq_colvec *o, col_vector *out, col_error *err){
  const uint8_t *fx = src->fixed;
  const cv_str *st = src->str;
  memset(out, 0, sizeof(*out));
  out->form = CV_FLAT;
  out->n = (uint32_t)n;
  out->type = conv->out;
  size_t nn = (size_t)n;
  char buf[PQ_TEXT_MAX];
  switch( conv->kind ){
    case PQC_INT64:
      out->i64 = (const int64_t*)fx;     /* no conversion: alias */
      return COL_OK;
    case PQC_BOOL: case PQC_INT32: case PQC_UINT32: {
      int64_t *v = pq_colvec_alloc(o, nn*8);
      if( !v ) goto convert_nomem;
      if( conv->kind==PQC_BOOL ) for(size_t i=0; i<nn; i++) v[i] = fx[i]!=0;
      else if( conv->kind==PQC_INT32 ) for(size_t i=0; i<nn; i++){ int32_t x; memcpy(&x, fx+4*i, 4); v[i] = x; }
      else for(size_t i=0; i<nn; i++){ uint32_t x; memcpy(&x, fx+4*i, 4); v[i] = x; }
      out->i64 = v;
      return COL_OK;
    }
    case PQC_UINT64: {
      const uint64_t *u = (const uint64_t*)fx;
      size_t big = 0;
      for(size_t i=0; i<nn; i++) big += u[i] > (uint64_t)INT64_MAX;
      out->i64 = (const int64_t*)fx;
      if( big ){
        uint8_t *tags = pq_colvec_alloc(o, nn);
        double *f = pq_colvec_alloc(o, nn*8);
        if( !tags || !f ) goto convert_nomem;
        for(size_t i=0; i<nn; i++){
          tags[i] = u[i] > (uint64_t)INT64_MAX ? CV_REAL : CV_INT;
          f[i] = (double)u[i];
        }
        out->tags = tags; out->f64 = f;
      }
      return COL_OK;
    }
    case PQC_FLOAT: case PQC_DOUBLE: case PQC_FLOAT16: {
      double *v;
      if( conv->kind==PQC_DOUBLE ){
        v = (double*)fx;
      }else{
        v = pq_colvec_alloc(o, nn*8);
        if( !v ) goto convert_nomem;
        if( conv->kind==PQC_FLOAT ) for(size_t i=0; i<nn; i++){ float x; memcpy(&x, fx+4*i, 4); v[i] = x; }
        else for(size_t i=0; i<nn; i++){ uint16_t h; memcpy(&h, st[i].p, 2); v[i] = pq_float16_to_double(h); }
      }
      out->f64 = v;
      size_t nans = 0;
      for(size_t i=0; i<nn; i++) nans += isnan(v[i]);
      if( nans ){
        uint8_t *tags = pq_colvec_alloc(o, nn);
        if( !tags ) goto convert_nomem;
        for(size_t i=0; i<nn; i++) tags[i] = isnan(v[i]) ? CV_NULL : CV_REAL;
        out->tags = tags;
      }
      return COL_OK;
    }
    case PQC_TEXT: case PQC_BLOB:
      out->str = st;                    /* the bytes as they are */
      return COL_OK;
    case PQC_DECIMAL: {
      int scale = conv->scale;
      cv_str *s = 0; int64_t *iv = 0; double *dv = 0; uint8_t *tags = 0;
      if( conv->out==CV_TEXT ) s = pq_colvec_alloc(o, nn*sizeof(cv_str));
      else if( conv->out==CV_INT ){ iv = pq_colvec_alloc(o, nn*8); dv = pq_colvec_alloc(o, nn*8); tags = pq_colvec_alloc(o, nn); }
      else dv = pq_colvec_alloc(o, nn*8);
      if( (conv->out==CV_TEXT && !s) || (conv->out==CV_INT && (!iv || !dv || !tags)) || (conv->out==CV_REAL && !dv) ) goto convert_nomem;
      char dbuf[700];
      int anyreal = 0;
      for(size_t i=0; i<nn; i++){
        int len;
        if( want && !want[i] ){
          if( s ){ s[i].p = 0; s[i].n = 0; }
          if( iv ){ iv[i] = 0; tags[i] = CV_INT; }
          if( dv ) dv[i] = 0;
          continue;
        }
        if( c->phys==PQ_INT32 ){ int32_t x; memcpy(&x, fx+4*i, 4); len = pq_decimal_text_i64(x, scale, dbuf, sizeof(dbuf)); }
        else if( c->phys==PQ_INT64 ){ int64_t x; memcpy(&x, fx+8*i, 8); len = pq_decimal_text_i64(x, scale, dbuf, sizeof(dbuf)); }
        else len = pq_decimal_text_be((const uint8_t*)st[i].p, st[i].n, scale, dbuf, sizeof(dbuf));
        if( len<0 ) return col_error_set(err, COL_ERROR, "decimal of %u bytes is too wide", st ? st[i].n : 0);
        if( s ){
          if( put_text(o, &s[i], dbuf, len) ) goto convert_nomem;
        }else if( iv ){
          char *end;
          errno = 0;
          long long x = strtoll(dbuf, &end, 10);
          if( errno==0 && *end==0 ){ iv[i] = x; tags[i] = CV_INT; }
          else { dv[i] = strtod(dbuf, 0); tags[i] = CV_REAL; anyreal = 1; }
        }else{
          dv[i] = strtod(dbuf, 0);
        }
      }
      out->str = s; out->i64 = iv; out->f64 = dv;
      if( anyreal ) out->tags = tags;
      return COL_OK;
    }
    default: {
      cv_str *s = pq_colvec_alloc(o, nn*sizeof(cv_str));
      if( !s ) goto convert_nomem;
      pq_date_memo memo;
      memset(memo.used, 0, sizeof(memo.used));
      for(size_t i=0; i<nn; i++){
        int len = 0;
        int64_t x = 0;
        if( want && !want[i] ){ s[i].p = 0; s[i].n = 0; continue; }
        switch( conv->kind ){
          case PQC_DATE: { int32_t d; memcpy(&d, fx+4*i, 4); len = pq_format_date(d, buf); break; }
          case PQC_TIME:
            if( c->phys==PQ_INT32 ){ int32_t t; memcpy(&t, fx+4*i, 4); x = t; } else memcpy(&x, fx+8*i, 8);
            len = pq_format_time(x, conv->unit, buf);
            break;
          case PQC_TIMESTAMP: memcpy(&x, fx+8*i, 8); len = pq_format_timestamp_memo(x, conv->unit, buf, &memo); break;
          case PQC_INT96: len = pq_format_int96(fx+12*i, buf); break;
          case PQC_UUID: len = pq_format_uuid((const uint8_t*)st[i].p, buf); break;
          case PQC_INTERVAL: {
            uint32_t m, d, ms;
            memcpy(&m, st[i].p, 4); memcpy(&d, st[i].p+4, 4); memcpy(&ms, st[i].p+8, 4);
            len = snprintf(buf, sizeof(buf), "{\"months\":%u,\"days\":%u,\"micros\":%llu}",
                           m, d, (unsigned long long)ms*1000);
            break;
          }
          default: len = 0; break;
        }
        if( put_text(o, &s[i], buf, len) ) goto convert_nomem;
      }
      out->str = s;
      return COL_OK;
    }
  }
convert_nomem:
  return col_error_set(err, COL_ENOMEM, "out of memory converting values");
}

int pq_convert_flat(pq_chunk *c, const pq_conv *conv, int64_t rows,
                    const uint8_t *rowmask, pq_colvec *o, col_error *err){
  memset(o, 0, sizeof(*o));
  o->pool = c->pool;
  col_arena_init_pool(&o->arena, o->pool);
  size_t nr = (size_t)rows;
  int hasnull = c->max_def>0 && c->nvals < rows;
  if( c->dict_mode ){
    if( pq_convert_values(c, &c->dict, c->dict.n, conv, 0, o, &o->dict, err) ) goto flat_error;
    uint32_t *codes = c->codes;
    uint8_t *tags = 0;
    if( hasnull || o->dict.tags ){
      codes = pq_colvec_alloc(o, nr*4);
      tags = pq_colvec_alloc(o, nr);
      if( !codes || !tags ) goto flat_nomem;
      int64_t k = 0;
      for(size_t r=0; r<nr; r++){
        if( c->def && c->def[r]!=c->max_def ){ codes[r] = 0; tags[r] = CV_NULL; continue; }
        uint32_t code = c->codes[k++];
        codes[r] = code;
        tags[r] = o->dict.tags ? o->dict.tags[code] : o->dict.type;
      }
    }
    o->v.form = CV_DICT;
    o->v.type = conv->out;
    o->v.n = (uint32_t)rows;
    o->v.codes = codes;
    o->v.tags = tags;
    o->v.dict = &o->dict;
    return COL_OK;
  }
  col_vector dense;
  uint8_t *want = 0;
  const uint8_t *use = 0;
  /* the list of values to skip only where they are skipped: building it
  ** for the others was a twentieth of a filtered count(DISTINCT UserID) */
  if( conv_skips(conv->kind) && rowmask && c->nvals>0 ){
    if( c->nvals==(int64_t)nr ){
      use = rowmask;          /* no NULLs: values are rows */
    }else{
      /* The mask is per row; conversion is per non-null value. */
      want = malloc((size_t)c->nvals);
      if( !want ) goto flat_nomem;
      int64_t k = 0;
      for(size_t r=0; r<nr && k<c->nvals; r++){
        if( c->def && c->def[r]!=c->max_def ) continue;
        want[k++] = rowmask[r];
      }
      use = want;
    }
  }
  int crc = pq_convert_values(c, &c->vals, c->nvals, conv, use, o, &dense, err);
  free(want);
  if( crc ) goto flat_error;
  if( !hasnull ){
    o->v = dense;
    o->v.n = (uint32_t)rows;
    return COL_OK;
  }
  /* Scatter the dense non-null values to their rows. */
  uint8_t *tags = pq_colvec_alloc(o, nr);
  if( !tags ) goto flat_nomem;
  o->v = dense;
  o->v.n = (uint32_t)rows;
  o->v.tags = tags;
  int64_t *iv = 0; double *dv = 0; cv_str *sv = 0;
  if( dense.i64 && !(iv = pq_colvec_alloc(o, nr*8)) ) goto flat_nomem;
  if( dense.f64 && !(dv = pq_colvec_alloc(o, nr*8)) ) goto flat_nomem;
  if( dense.str && !(sv = pq_colvec_alloc(o, nr*sizeof(cv_str))) ) goto flat_nomem;
  int64_t k = 0;
  for(size_t r=0; r<nr; r++){
    if( c->def[r]!=c->max_def ){
      tags[r] = CV_NULL;
      if( iv ) iv[r] = 0;
      if( dv ) dv[r] = 0;
      if( sv ){ sv[r].p = 0; sv[r].n = 0; }
      continue;
    }
    tags[r] = dense.tags ? dense.tags[k] : dense.type;
    if( iv ) iv[r] = dense.i64[k];
    if( dv ) dv[r] = dense.f64[k];
    if( sv ) sv[r] = dense.str[k];
    k++;
  }
  o->v.i64 = iv; o->v.f64 = dv; o->v.str = sv;
  return COL_OK;
flat_nomem:
  col_error_set(err, COL_ENOMEM, "out of memory converting values");
flat_error:
  pq_colvec_free(o);
  return err->code;
}
