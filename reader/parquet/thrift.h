/*
** thrift.h — a reader for Thrift's compact protocol over a bounded buffer.
**
** Parquet writes its footer, page headers, page indexes and bloom filter
** headers in this protocol. The reader never reads past buf[len), checks
** every length against the bytes left before trusting it, and limits the
** nesting depth so hostile input cannot exhaust the stack. Errors are
** written into the col_error with what was being read and the byte offset:
**
**   thrift: list size 4000000 exceeds the 120 bytes left at offset 88
**   (RowGroup.columns)
**
** Usage, the shape of every struct decoder in footer.c:
**
**   int16_t last = 0; int type; int16_t id;
**   if( pq_thrift_struct_begin(t, "Foo") ) return t->err->code;
**   while( pq_thrift_field(t, &last, &type, &id, "Foo")==COL_OK
**          && type!=PQ_T_STOP ){
**     switch( id ){ case 1: ...read by type...; continue; }
**     if( pq_thrift_skip(t, type, "Foo") ) break;
**   }
**   pq_thrift_struct_end(t);
*/
#ifndef COLUMNAR_PARQUET_THRIFT_H
#define COLUMNAR_PARQUET_THRIFT_H

#include <stddef.h>
#include <stdint.h>
#include "../error.h"
#include "meta.h"

/* Compact protocol wire types (the low nibble of a field header). */
enum {
  PQ_T_STOP = 0, PQ_T_TRUE = 1, PQ_T_FALSE = 2, PQ_T_I8 = 3, PQ_T_I16 = 4,
  PQ_T_I32 = 5, PQ_T_I64 = 6, PQ_T_DOUBLE = 7, PQ_T_BINARY = 8,
  PQ_T_LIST = 9, PQ_T_SET = 10, PQ_T_MAP = 11, PQ_T_STRUCT = 12
};

/* Nesting beyond this (structs, lists, maps) is refused as hostile. */
#define PQ_THRIFT_MAX_DEPTH 64

typedef struct pq_thrift {
  const uint8_t *buf;   /* start of the input; offsets in messages are from here */
  size_t len;           /* bytes in buf */
  size_t pos;           /* next byte to read */
  int depth;            /* structs/lists/maps currently open */
  col_error *err;       /* where the first error goes */
} pq_thrift;

/* Start reading buf[0..len). */
void pq_thrift_init(pq_thrift *t, const uint8_t *buf, size_t len,
                    col_error *err);

/* Unsigned LEB128 varint of at most 10 bytes that fits in 64 bits. The
** common case is inline below; pq_thrift_varint_slow handles the rest
** (and every error). */
int pq_thrift_varint_slow(pq_thrift *t, uint64_t *v, const char *what);
static inline int pq_thrift_varint(pq_thrift *t, uint64_t *v,
                                   const char *what){
  /* Fast path: the whole varint (up to 9 bytes) is in the buffer. */
  if( t->len - t->pos >= 10 ){
    const uint8_t *p = t->buf + t->pos;
    uint64_t r = 0;
    for(int i=0; i<9; i++){
      r |= (uint64_t)(p[i] & 0x7f) << (7*i);
      if( (p[i] & 0x80)==0 ){
        t->pos += (size_t)i + 1;
        *v = r;
        return COL_OK;
      }
    }
  }
  return pq_thrift_varint_slow(t, v, what);
}

/* An integer of wire type `type` (PQ_T_I8 single byte, PQ_T_I16/I32/I64
** zigzag varints), range-checked into the destination width. Any integer
** wire type is accepted for any destination, as long as the value fits. */
int pq_thrift_int_slow(pq_thrift *t, int type, int64_t *v, const char *what);
int pq_thrift_i32_range_fail(pq_thrift *t, size_t start, int64_t x,
                             const char *what);
static inline int pq_thrift_i64(pq_thrift *t, int type, int64_t *v,
                                const char *what){
  if( type>=PQ_T_I16 && type<=PQ_T_I64 ){
    uint64_t u;
    if( pq_thrift_varint(t, &u, what) ) return t->err->code;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);   /* zigzag */
    return COL_OK;
  }
  return pq_thrift_int_slow(t, type, v, what);
}
static inline int pq_thrift_i32(pq_thrift *t, int type, int32_t *v,
                                const char *what){
  size_t start = t->pos;
  int64_t x;
  if( pq_thrift_i64(t, type, &x, what) ) return t->err->code;
  if( x<INT32_MIN || x>INT32_MAX ){
    return pq_thrift_i32_range_fail(t, start, x, what);
  }
  *v = (int32_t)x;
  return COL_OK;
}

/* An 8-byte little-endian IEEE double. */
int pq_thrift_double(pq_thrift *t, double *v, const char *what);

/* A length-prefixed binary/string; v points into the input buffer. */
int pq_thrift_binary(pq_thrift *t, pq_bytes *v, const char *what);

/* The next field header of the struct being read. *last_id is the previous
** field id of that struct (0 at its start) and is updated. At the end of the
** struct *type is PQ_T_STOP. For boolean fields *type is PQ_T_TRUE or
** PQ_T_FALSE and carries the value; there are no further bytes to read. */
int pq_thrift_field_slow(pq_thrift *t, int16_t *last_id, int *type,
                         int16_t *id, const char *what);
static inline int pq_thrift_field(pq_thrift *t, int16_t *last_id, int *type,
                                  int16_t *id, const char *what){
  /* Fast path: a short-form header of a valid type, or the stop byte. */
  if( t->pos < t->len ){
    uint8_t b = t->buf[t->pos];
    int ty = b & 0x0f;
    if( b==0 ){
      t->pos++;
      *type = PQ_T_STOP;
      *id = 0;
      return COL_OK;
    }
    if( (b>>4)!=0 && ty!=PQ_T_STOP && ty<=PQ_T_STRUCT
     && *last_id < INT16_MAX-15 ){
      t->pos++;
      *type = ty;
      *id = (int16_t)(*last_id + (b>>4));
      *last_id = *id;
      return COL_OK;
    }
  }
  return pq_thrift_field_slow(t, last_id, type, id, what);
}

/* A list or set header. *n is checked against the bytes left (every
** element takes at least one byte, a double eight) so the caller may
** allocate n elements. Opens a nesting level: call pq_thrift_list_end
** after the elements. */
int pq_thrift_list_begin(pq_thrift *t, int *elem_type, uint32_t *n,
                         const char *what);
void pq_thrift_list_end(pq_thrift *t);

/* A boolean list element: one byte, 1 is true (2 or 0 false). */
int pq_thrift_list_bool(pq_thrift *t, int *v, const char *what);

/* A map header; *n checked against the bytes left (two per entry). Opens a
** nesting level like a list. */
int pq_thrift_map_begin(pq_thrift *t, int *key_type, int *val_type,
                        uint32_t *n, const char *what);

/* Enter/leave a nested struct; fails beyond PQ_THRIFT_MAX_DEPTH. */
int pq_thrift_struct_begin(pq_thrift *t, const char *what);
void pq_thrift_struct_end(pq_thrift *t);

/* Skip a value of wire type `type` (a field we do not know, or a known
** field of an unexpected type), including nested structs, lists and maps. */
int pq_thrift_skip(pq_thrift *t, int type, const char *what);

/* Record a malformed-input error at the current offset (printf-style, the
** "thrift: " prefix and " at offset N (what)" are added). */
int pq_thrift_fail(pq_thrift *t, const char *what, const char *fmt, ...)
#ifdef __GNUC__
  __attribute__((format(printf, 3, 4)))
#endif
  ;

#endif
