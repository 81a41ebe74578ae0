/*
** thrift.c — Thrift compact protocol reader over a bounded buffer; see
** thrift.h. Written from the protocol description (Apache Thrift's
** doc/specs/thrift-compact-protocol.md): field headers carry a 4-bit id
** delta and a 4-bit type, booleans live in the type nibble, integers are
** zigzag varints (i8 a raw byte), lists have a 4-bit or varint size.
*/
#include "thrift.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pq_thrift_init(pq_thrift *t, const uint8_t *buf, size_t len,
                    col_error *err){
  t->buf = buf;
  t->len = len;
  t->pos = 0;
  t->depth = 0;
  t->err = err;
}

/* Errors are cold: keep them out of the decoding loops. */
__attribute__((noinline, cold))
static int thrift_fail_at(pq_thrift *t, size_t off, const char *what,
                          const char *fmt, va_list ap){
  char msg[300];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  return col_error_set(t->err, COL_ERROR, "thrift: %s at offset %zu (%s)",
                       msg, off, what ? what : "?");
}

int pq_thrift_fail(pq_thrift *t, const char *what, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt);
  int rc = thrift_fail_at(t, t->pos, what, fmt, ap);
  va_end(ap);
  return rc;
}

__attribute__((noinline, cold))
static int thrift_fail_off(pq_thrift *t, size_t off, const char *what,
                           const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt);
  int rc = thrift_fail_at(t, off, what, fmt, ap);
  va_end(ap);
  return rc;
}

int pq_thrift_varint_slow(pq_thrift *t, uint64_t *v, const char *what){
  const uint8_t *p = t->buf + t->pos;
  size_t left = t->len - t->pos;
  size_t max = left < 10 ? left : 10;
  uint64_t r = 0;
  for(size_t i=0; i<max; i++){
    uint8_t b = p[i];
    /* The tenth byte may only contribute bit 63. */
    if( i==9 && b>1 ){
      return thrift_fail_off(t, t->pos, what, "varint overflows 64 bits");
    }
    r |= (uint64_t)(b & 0x7f) << (7*i);
    if( (b & 0x80)==0 ){
      t->pos += i+1;
      *v = r;
      return COL_OK;
    }
  }
  if( max==10 ){
    return thrift_fail_off(t, t->pos, what, "varint longer than 10 bytes");
  }
  return thrift_fail_off(t, t->pos, what, "truncated varint (%zu bytes left)",
                         left);
}

static inline int64_t thrift_unzigzag(uint64_t u){
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* i8 (a raw byte) and every error; the zigzag varint types are inline. */
int pq_thrift_int_slow(pq_thrift *t, int type, int64_t *v, const char *what){
  if( type==PQ_T_I8 ){
    if( t->pos >= t->len ){
      return pq_thrift_fail(t, what, "truncated i8");
    }
    *v = (int8_t)t->buf[t->pos++];
    return COL_OK;
  }
  if( type!=PQ_T_I16 && type!=PQ_T_I32 && type!=PQ_T_I64 ){
    return pq_thrift_fail(t, what, "expected an integer, found type %d", type);
  }
  uint64_t u;
  if( pq_thrift_varint(t, &u, what) ) return t->err->code;
  *v = thrift_unzigzag(u);
  return COL_OK;
}

int pq_thrift_i32_range_fail(pq_thrift *t, size_t start, int64_t x,
                             const char *what){
  return thrift_fail_off(t, start, what, "integer %lld does not fit in i32",
                         (long long)x);
}

int pq_thrift_double(pq_thrift *t, double *v, const char *what){
  if( t->len - t->pos < 8 ){
    return pq_thrift_fail(t, what, "truncated double (%zu bytes left)",
                          t->len - t->pos);
  }
  uint64_t u = 0;
  for(int i=7; i>=0; i--) u = (u<<8) | t->buf[t->pos+i];
  memcpy(v, &u, 8);
  t->pos += 8;
  return COL_OK;
}

int pq_thrift_binary(pq_thrift *t, pq_bytes *v, const char *what){
  size_t start = t->pos;
  uint64_t n;
  if( pq_thrift_varint(t, &n, what) ) return t->err->code;
  if( n > t->len - t->pos ){
    return thrift_fail_off(t, start, what,
                           "binary length %llu exceeds the %zu bytes left",
                           (unsigned long long)n, t->len - t->pos);
  }
  if( n > UINT32_MAX ){
    return thrift_fail_off(t, start, what, "binary length %llu too large",
                           (unsigned long long)n);
  }
  v->p = t->buf + t->pos;
  v->n = (uint32_t)n;
  t->pos += (size_t)n;
  return COL_OK;
}

int pq_thrift_field_slow(pq_thrift *t, int16_t *last_id, int *type,
                         int16_t *id, const char *what){
  if( t->pos >= t->len ){
    return pq_thrift_fail(t, what, "truncated struct: field header expected");
  }
  size_t start = t->pos;
  uint8_t b = t->buf[t->pos++];
  if( b==0 ){
    *type = PQ_T_STOP;
    *id = 0;
    return COL_OK;
  }
  int ty = b & 0x0f;
  int delta = b >> 4;
  int32_t fid;
  if( delta ){
    fid = (int32_t)*last_id + delta;
  }else{
    uint64_t u;
    if( pq_thrift_varint(t, &u, what) ) return t->err->code;
    int64_t x = thrift_unzigzag(u);
    if( x<INT16_MIN || x>INT16_MAX ){
      return thrift_fail_off(t, start, what, "field id %lld out of i16 range",
                             (long long)x);
    }
    fid = (int32_t)x;
  }
  if( fid>INT16_MAX ){
    return thrift_fail_off(t, start, what, "field id %d out of i16 range",
                           (int)fid);
  }
  if( ty==PQ_T_STOP || ty>PQ_T_STRUCT ){
    return thrift_fail_off(t, start, what, "invalid field type %d", ty);
  }
  *type = ty;
  *id = (int16_t)fid;
  *last_id = (int16_t)fid;
  return COL_OK;
}

static int thrift_enter(pq_thrift *t, const char *what){
  if( t->depth >= PQ_THRIFT_MAX_DEPTH ){
    return pq_thrift_fail(t, what, "nesting deeper than %d",
                          PQ_THRIFT_MAX_DEPTH);
  }
  t->depth++;
  return COL_OK;
}

int pq_thrift_struct_begin(pq_thrift *t, const char *what){
  return thrift_enter(t, what);
}
void pq_thrift_struct_end(pq_thrift *t){ t->depth--; }
void pq_thrift_list_end(pq_thrift *t){ t->depth--; }

/* The fewest bytes one element of wire type `type` can take in a list. */
static size_t thrift_min_size(int type){
  return type==PQ_T_DOUBLE ? 8 : 1;
}

int pq_thrift_list_begin(pq_thrift *t, int *elem_type, uint32_t *n,
                         const char *what){
  if( t->pos >= t->len ){
    return pq_thrift_fail(t, what, "truncated list header");
  }
  size_t start = t->pos;
  uint8_t b = t->buf[t->pos++];
  uint64_t size = b >> 4;
  int ty = b & 0x0f;
  if( size==15 ){
    if( pq_thrift_varint(t, &size, what) ) return t->err->code;
  }
  if( size>0 && (ty==PQ_T_STOP || ty>PQ_T_STRUCT) ){
    return thrift_fail_off(t, start, what, "invalid list element type %d", ty);
  }
  size_t left = t->len - t->pos;
  if( size > left / thrift_min_size(ty) || size > INT32_MAX ){
    return thrift_fail_off(t, start, what,
                           "list size %llu exceeds the %zu bytes left",
                           (unsigned long long)size, left);
  }
  if( thrift_enter(t, what) ) return t->err->code;
  *elem_type = ty;
  *n = (uint32_t)size;
  return COL_OK;
}

int pq_thrift_list_bool(pq_thrift *t, int *v, const char *what){
  if( t->pos >= t->len ){
    return pq_thrift_fail(t, what, "truncated bool");
  }
  *v = t->buf[t->pos++]==1;
  return COL_OK;
}

int pq_thrift_map_begin(pq_thrift *t, int *key_type, int *val_type,
                        uint32_t *n, const char *what){
  size_t start = t->pos;
  uint64_t size;
  int kt = 0, vt = 0;
  if( pq_thrift_varint(t, &size, what) ) return t->err->code;
  if( size>0 ){
    if( t->pos >= t->len ){
      return pq_thrift_fail(t, what, "truncated map header");
    }
    uint8_t b = t->buf[t->pos++];
    kt = b >> 4;
    vt = b & 0x0f;
    if( kt==PQ_T_STOP || kt>PQ_T_STRUCT || vt==PQ_T_STOP || vt>PQ_T_STRUCT ){
      return thrift_fail_off(t, start, what, "invalid map types %d, %d",
                             kt, vt);
    }
  }
  size_t left = t->len - t->pos;
  size_t per = thrift_min_size(kt) + thrift_min_size(vt);
  if( size > left / per || size > INT32_MAX ){
    return thrift_fail_off(t, start, what,
                           "map size %llu exceeds the %zu bytes left",
                           (unsigned long long)size, left);
  }
  if( thrift_enter(t, what) ) return t->err->code;
  *key_type = kt;
  *val_type = vt;
  *n = (uint32_t)size;
  return COL_OK;
}

/* Skip one value. Inside a list or map a boolean is a byte of its own; as a
** struct field it was carried by the field header. */
static int thrift_skip_value(pq_thrift *t, int type, int in_collection,
                             const char *what){
  switch( type ){
    case PQ_T_TRUE:
    case PQ_T_FALSE:
      if( in_collection ){
        int v;
        return pq_thrift_list_bool(t, &v, what);
      }
      return COL_OK;
    case PQ_T_I8:
    case PQ_T_I16:
    case PQ_T_I32:
    case PQ_T_I64: {
      int64_t v;
      return pq_thrift_i64(t, type, &v, what);
    }
    case PQ_T_DOUBLE: {
      double d;
      return pq_thrift_double(t, &d, what);
    }
    case PQ_T_BINARY: {
      pq_bytes b;
      return pq_thrift_binary(t, &b, what);
    }
    case PQ_T_LIST:
    case PQ_T_SET: {
      int et;
      uint32_t n;
      if( pq_thrift_list_begin(t, &et, &n, what) ) return t->err->code;
      for(uint32_t i=0; i<n; i++){
        if( thrift_skip_value(t, et, 1, what) ) return t->err->code;
      }
      pq_thrift_list_end(t);
      return COL_OK;
    }
    case PQ_T_MAP: {
      int kt, vt;
      uint32_t n;
      if( pq_thrift_map_begin(t, &kt, &vt, &n, what) ) return t->err->code;
      for(uint32_t i=0; i<n; i++){
        if( thrift_skip_value(t, kt, 1, what) ) return t->err->code;
        if( thrift_skip_value(t, vt, 1, what) ) return t->err->code;
      }
      pq_thrift_list_end(t);
      return COL_OK;
    }
    case PQ_T_STRUCT: {
      int16_t last = 0;
      int ty;
      int16_t id;
      if( pq_thrift_struct_begin(t, what) ) return t->err->code;
      for(;;){
        if( pq_thrift_field(t, &last, &ty, &id, what) ) return t->err->code;
        if( ty==PQ_T_STOP ) break;
        if( thrift_skip_value(t, ty, 0, what) ) return t->err->code;
      }
      pq_thrift_struct_end(t);
      return COL_OK;
    }
    default:
      return pq_thrift_fail(t, what, "cannot skip invalid type %d", type);
  }
}

int pq_thrift_skip(pq_thrift *t, int type, const char *what){
  return thrift_skip_value(t, type, 0, what);
}
