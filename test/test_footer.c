/*
** test_footer.c — unit tests for the thrift compact-protocol reader
** (reader/parquet/thrift.c) and the Parquet structure decoders
** (reader/parquet/footer.c).
**
** Hand-built byte strings cover the protocol corners (varints, zigzag,
** field-id deltas and the long form, booleans in the type nibble, list
** sizes, skipping unknown nested fields, depth and size limits). Then every
** *.parquet file of the parquet-testing corpus (if present) has its footer
** decoded and checked against MANIFEST.tsv, and every column chunk's page
** headers walked; bad_data/ files must fail cleanly or decode.
**
**   gcc ... -o /tmp/t test/test_footer.c reader/parquet/footer.c \
**       reader/parquet/thrift.c reader/error.c && /tmp/t
*/
#include "unit.h"
#include "../reader/parquet/thrift.h"
#include "../reader/parquet/meta.h"
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CORPUS "/work/shared/testdata/parquet-testing"

/* ---- a compact-protocol writer for building inputs -------------------- */

typedef struct wbuf {
  uint8_t *p;       /* bytes written */
  size_t n;         /* bytes used */
  size_t cap;       /* bytes allocated */
} wbuf;

static void w_u8(wbuf *w, uint8_t b){
  if( w->n==w->cap ){
    w->cap = w->cap ? w->cap*2 : 256;
    w->p = realloc(w->p, w->cap);
  }
  w->p[w->n++] = b;
}
static void w_varint(wbuf *w, uint64_t v){
  while( v>=0x80 ){ w_u8(w, (uint8_t)(v|0x80)); v >>= 7; }
  w_u8(w, (uint8_t)v);
}
static void w_zz(wbuf *w, int64_t v){
  w_varint(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
static void w_raw(wbuf *w, const void *p, size_t n){
  for(size_t i=0; i<n; i++) w_u8(w, ((const uint8_t*)p)[i]);
}
/* Field header: short form when the id delta is 1..15, else long form. */
static void w_field(wbuf *w, int16_t *last, int id, int type){
  int delta = id - *last;
  if( delta>0 && delta<=15 ){
    w_u8(w, (uint8_t)(delta<<4 | type));
  }else{
    w_u8(w, (uint8_t)type);
    w_zz(w, id);
  }
  *last = (int16_t)id;
}
static void w_int(wbuf *w, int16_t *last, int id, int type, int64_t v){
  w_field(w, last, id, type);
  w_zz(w, v);
}
static void w_i32(wbuf *w, int16_t *last, int id, int64_t v){
  w_int(w, last, id, PQ_T_I32, v);
}
static void w_i64(wbuf *w, int16_t *last, int id, int64_t v){
  w_int(w, last, id, PQ_T_I64, v);
}
static void w_str(wbuf *w, const char *s){
  w_varint(w, strlen(s));
  w_raw(w, s, strlen(s));
}
static void w_bin(wbuf *w, int16_t *last, int id, const char *s){
  w_field(w, last, id, PQ_T_BINARY);
  w_str(w, s);
}
static void w_bool(wbuf *w, int16_t *last, int id, int v){
  w_field(w, last, id, v ? PQ_T_TRUE : PQ_T_FALSE);
}
static void w_list(wbuf *w, int etype, uint64_t n){
  if( n<15 ){
    w_u8(w, (uint8_t)(n<<4 | etype));
  }else{
    w_u8(w, (uint8_t)(0xf0 | etype));
    w_varint(w, n);
  }
}
static void w_stop(wbuf *w){ w_u8(w, 0); }

/* ---- protocol primitives ---------------------------------------------- */

static void test_varint(void){
  col_error e; pq_thrift t; uint64_t v;
  static const uint8_t a[] = { 0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0x03 };
  col_error_clear(&e);
  pq_thrift_init(&t, a, sizeof(a), &e);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_OK); CHECK_EQ_INT(v, 0);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_OK); CHECK_EQ_INT(v, 127);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_OK); CHECK_EQ_INT(v, 128);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_OK); CHECK_EQ_INT(v, 0xffff);
  CHECK_EQ_INT(t.pos, sizeof(a));
  /* truncated: a continuation bit on the last byte */
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_ERROR);
  CHECK(strstr(e.msg, "truncated varint")!=0);

  /* 2^64-1 takes ten bytes, the last being 0x01 */
  static const uint8_t mx[] = { 0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0x01 };
  col_error_clear(&e);
  pq_thrift_init(&t, mx, sizeof(mx), &e);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_OK);
  CHECK(v==UINT64_MAX);

  /* a tenth byte of 2 would overflow 64 bits */
  uint8_t ov[10];
  memcpy(ov, mx, 10); ov[9] = 0x02;
  col_error_clear(&e);
  pq_thrift_init(&t, ov, sizeof(ov), &e);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_ERROR);
  CHECK(strstr(e.msg, "overflows")!=0);

  /* eleven bytes */
  static const uint8_t lg[] = { 0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x80,0x00 };
  col_error_clear(&e);
  pq_thrift_init(&t, lg, sizeof(lg), &e);
  CHECK(pq_thrift_varint(&t, &v, "x")==COL_ERROR);
  CHECK(strstr(e.msg, "offset 0")!=0);
}

static void test_zigzag(void){
  static const int64_t vals[] = { 0, -1, 1, -2, 63, -64, 64, INT32_MAX,
                                  INT32_MIN, INT64_MAX, INT64_MIN };
  wbuf w = {0};
  for(size_t i=0; i<sizeof(vals)/sizeof(vals[0]); i++) w_zz(&w, vals[i]);
  col_error e; pq_thrift t;
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  for(size_t i=0; i<sizeof(vals)/sizeof(vals[0]); i++){
    int64_t v = 0;
    CHECK(pq_thrift_i64(&t, PQ_T_I64, &v, "x")==COL_OK);
    CHECK(v==vals[i]);
  }
  /* i32 range check: INT32_MAX fits, INT32_MAX+1 does not */
  w.n = 0;
  w_zz(&w, INT32_MAX); w_zz(&w, INT32_MIN); w_zz(&w, (int64_t)INT32_MAX+1);
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  int32_t x;
  CHECK(pq_thrift_i32(&t, PQ_T_I32, &x, "x")==COL_OK); CHECK_EQ_INT(x, INT32_MAX);
  CHECK(pq_thrift_i32(&t, PQ_T_I32, &x, "x")==COL_OK); CHECK_EQ_INT(x, INT32_MIN);
  CHECK(pq_thrift_i32(&t, PQ_T_I32, &x, "x")==COL_ERROR);
  CHECK(strstr(e.msg, "does not fit in i32")!=0);
  /* i8 is one raw byte, signed */
  static const uint8_t b[] = { 0xfe };
  col_error_clear(&e);
  pq_thrift_init(&t, b, 1, &e);
  CHECK(pq_thrift_i32(&t, PQ_T_I8, &x, "x")==COL_OK); CHECK_EQ_INT(x, -2);
  free(w.p);
}

static void test_field_headers(void){
  wbuf w = {0};
  int16_t last = 0;
  w_i32(&w, &last, 1, 5);          /* short delta 1 */
  w_i32(&w, &last, 16, 6);         /* short delta 15 */
  w_i32(&w, &last, 40, 7);         /* long form */
  w_bool(&w, &last, 41, 1);        /* bool in the type nibble */
  w_bool(&w, &last, 3, 0);         /* going back needs the long form */
  w_i32(&w, &last, -5, 8);         /* negative ids exist in the wild */
  w_stop(&w);
  col_error e; pq_thrift t;
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  int16_t rl = 0, id; int ty; int32_t v;
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK);
  CHECK_EQ_INT(id, 1); CHECK_EQ_INT(ty, PQ_T_I32);
  CHECK(pq_thrift_i32(&t, ty, &v, "x")==COL_OK); CHECK_EQ_INT(v, 5);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK); CHECK_EQ_INT(id, 16);
  CHECK(pq_thrift_i32(&t, ty, &v, "x")==COL_OK); CHECK_EQ_INT(v, 6);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK); CHECK_EQ_INT(id, 40);
  CHECK(pq_thrift_i32(&t, ty, &v, "x")==COL_OK); CHECK_EQ_INT(v, 7);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK);
  CHECK_EQ_INT(id, 41); CHECK_EQ_INT(ty, PQ_T_TRUE);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK);
  CHECK_EQ_INT(id, 3); CHECK_EQ_INT(ty, PQ_T_FALSE);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK); CHECK_EQ_INT(id, -5);
  CHECK(pq_thrift_i32(&t, ty, &v, "x")==COL_OK); CHECK_EQ_INT(v, 8);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_OK);
  CHECK_EQ_INT(ty, PQ_T_STOP);
  CHECK_EQ_INT(t.pos, w.n);

  /* invalid type nibbles 13..15 */
  static const uint8_t bad[] = { 0x1d };
  col_error_clear(&e);
  pq_thrift_init(&t, bad, 1, &e);
  rl = 0;
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "Foo")==COL_ERROR);
  CHECK_EQ_STR(e.msg, "thrift: invalid field type 13 at offset 0 (Foo)");
  /* a delta pushing the id past i16 */
  static const uint8_t big[] = { 0xf5, 0x00 };
  col_error_clear(&e);
  pq_thrift_init(&t, big, 2, &e);
  rl = 32760;
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_ERROR);
  /* no bytes at all */
  col_error_clear(&e);
  pq_thrift_init(&t, big, 0, &e);
  CHECK(pq_thrift_field(&t, &rl, &ty, &id, "x")==COL_ERROR);
  free(w.p);
}

static void test_lists(void){
  wbuf w = {0};
  w_list(&w, PQ_T_I32, 3); w_zz(&w, 1); w_zz(&w, -1); w_zz(&w, 300);
  w_list(&w, PQ_T_BINARY, 20);                 /* long form size */
  for(int i=0; i<20; i++) w_str(&w, "ab");
  w_list(&w, PQ_T_TRUE, 3); w_u8(&w, 1); w_u8(&w, 2); w_u8(&w, 0);
  col_error e; pq_thrift t;
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  int et; uint32_t n; int32_t v;
  CHECK(pq_thrift_list_begin(&t, &et, &n, "x")==COL_OK);
  CHECK_EQ_INT(n, 3); CHECK_EQ_INT(et, PQ_T_I32);
  CHECK(pq_thrift_i32(&t, et, &v, "x")==0); CHECK_EQ_INT(v, 1);
  CHECK(pq_thrift_i32(&t, et, &v, "x")==0); CHECK_EQ_INT(v, -1);
  CHECK(pq_thrift_i32(&t, et, &v, "x")==0); CHECK_EQ_INT(v, 300);
  pq_thrift_list_end(&t);
  CHECK(pq_thrift_list_begin(&t, &et, &n, "x")==COL_OK);
  CHECK_EQ_INT(n, 20); CHECK_EQ_INT(et, PQ_T_BINARY);
  for(uint32_t i=0; i<n; i++){
    pq_bytes b;
    CHECK(pq_thrift_binary(&t, &b, "x")==COL_OK);
    CHECK(b.n==2 && memcmp(b.p, "ab", 2)==0);
  }
  pq_thrift_list_end(&t);
  CHECK(pq_thrift_list_begin(&t, &et, &n, "x")==COL_OK);
  CHECK_EQ_INT(n, 3);
  int bv;
  CHECK(pq_thrift_list_bool(&t, &bv, "x")==0); CHECK_EQ_INT(bv, 1);
  CHECK(pq_thrift_list_bool(&t, &bv, "x")==0); CHECK_EQ_INT(bv, 0);
  CHECK(pq_thrift_list_bool(&t, &bv, "x")==0); CHECK_EQ_INT(bv, 0);
  pq_thrift_list_end(&t);
  CHECK_EQ_INT(t.pos, w.n);
  CHECK_EQ_INT(t.depth, 0);

  /* A lying list size is refused before anything is allocated. */
  w.n = 0;
  w_u8(&w, 0);                     /* padding so the offset is not 0 */
  w_list(&w, PQ_T_STRUCT, 4000000);
  for(int i=0; i<10; i++) w_u8(&w, 0);
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  t.pos = 1;
  CHECK(pq_thrift_list_begin(&t, &et, &n, "RowGroup.columns")==COL_ERROR);
  CHECK_EQ_STR(e.msg, "thrift: list size 4000000 exceeds the 10 bytes left "
                      "at offset 1 (RowGroup.columns)");
  /* doubles take 8 bytes each: 2 doubles in 15 bytes is a lie */
  w.n = 0;
  w_list(&w, PQ_T_DOUBLE, 2);
  for(int i=0; i<15; i++) w_u8(&w, 0);
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  CHECK(pq_thrift_list_begin(&t, &et, &n, "x")==COL_ERROR);
  /* a binary longer than the input */
  w.n = 0;
  w_varint(&w, 100); w_u8(&w, 'a');
  col_error_clear(&e);
  pq_thrift_init(&t, w.p, w.n, &e);
  pq_bytes b;
  CHECK(pq_thrift_binary(&t, &b, "KeyValue")==COL_ERROR);
  CHECK(strstr(e.msg, "binary length 100 exceeds the 1 bytes left at offset 0")!=0);
  free(w.p);
}

/* A value of every wire type, nested: what an unknown field may hold. */
static void w_junk(wbuf *w, int16_t *last, int id){
  w_field(w, last, id, PQ_T_STRUCT);
  int16_t l2 = 0;
  w_bool(w, &l2, 1, 1);
  w_field(w, &l2, 2, PQ_T_I8); w_u8(w, 0x80);
  w_int(w, &l2, 3, PQ_T_I16, -300);
  w_field(w, &l2, 4, PQ_T_DOUBLE); w_raw(w, "\0\0\0\0\0\0\xf0\x3f", 8);
  w_bin(w, &l2, 5, "junk");
  w_field(w, &l2, 6, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 2);
  for(int i=0; i<2; i++){
    int16_t l3 = 0;
    w_field(w, &l3, 1, PQ_T_SET); w_list(w, PQ_T_TRUE, 2); w_u8(w, 1); w_u8(w, 2);
    w_field(w, &l3, 2, PQ_T_MAP); w_varint(w, 2); w_u8(w, PQ_T_BINARY<<4 | PQ_T_LIST);
    for(int k=0; k<2; k++){ w_str(w, "k"); w_list(w, PQ_T_I64, 1); w_zz(w, 7); }
    w_field(w, &l3, 3, PQ_T_MAP); w_varint(w, 0);   /* empty map: no type byte */
    w_stop(w);
  }
  w_field(w, &l2, 300, PQ_T_LIST); w_list(w, PQ_T_DOUBLE, 1);
  w_raw(w, "\0\0\0\0\0\0\0\0", 8);
  w_stop(w);
}

/* The smallest FileMetaData the decoder accepts, with extra bytes. */
static void w_min_footer(wbuf *w, int with_junk){
  int16_t l = 0;
  if( with_junk ) w_junk(w, &l, 1000);
  w_field(w, &l, 2, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
  { int16_t l2 = 0; w_bin(w, &l2, 4, "root"); w_stop(w); }
  w_i64(w, &l, 3, 0);
  w_field(w, &l, 4, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 0);
  w_stop(w);
}

static void test_skip_unknown(void){
  wbuf w = {0};
  w_min_footer(&w, 1);
  col_error e; pq_file_meta m;
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_OK);
  CHECK_EQ_INT(m.n_schema, 1);
  CHECK(m.schema[0].name.n==4 && memcmp(m.schema[0].name.p, "root", 4)==0);
  CHECK_EQ_INT(m.schema[0].converted_type, PQ_CT_NONE);
  CHECK_EQ_INT(m.n_row_groups, 0);
  pq_file_meta_free(&m);

  /* An unknown field nested deeper than the limit is refused. */
  w.n = 0;
  int16_t l = 0;
  w_field(&w, &l, 9, PQ_T_STRUCT);
  for(int i=0; i<100; i++){ int16_t l2 = 0; w_field(&w, &l2, 1, PQ_T_STRUCT); }
  for(int i=0; i<101; i++) w_stop(&w);
  w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "nesting deeper than 64")!=0);
  CHECK(m.owner==0 && m.schema==0);
  /* ... and so are lists nested as deep. */
  w.n = 0; l = 0;
  w_field(&w, &l, 9, PQ_T_LIST);
  for(int i=0; i<100; i++) w_list(&w, PQ_T_LIST, 1);
  w_list(&w, PQ_T_I32, 0);
  w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "nesting deeper than 64")!=0);

  /* A known field with an unexpected wire type is skipped, as thrift's
  ** generated code does; the required field it was is then missing. */
  w.n = 0; l = 0;
  w_bin(&w, &l, 3, "not an integer");
  w_field(&w, &l, 2, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 0);
  w_field(&w, &l, 4, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 0);
  w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "FileMetaData.num_rows")!=0);
  free(w.p);
}

/* Every field of every footer struct, built by hand. */
static void w_full_footer(wbuf *w){
  int16_t l = 0, l2, l3, l4, l5;
  w_i32(w, &l, 1, 2);
  w_field(w, &l, 2, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 3);
  l2 = 0; w_bin(w, &l2, 4, "schema"); w_i32(w, &l2, 5, 2); w_stop(w);
  l2 = 0;
  w_i32(w, &l2, 1, PQ_INT64); w_i32(w, &l2, 3, PQ_OPTIONAL);
  w_bin(w, &l2, 4, "ts"); w_i32(w, &l2, 6, PQ_CT_TIMESTAMP_MICROS);
  w_i32(w, &l2, 9, 42);
  w_field(w, &l2, 10, PQ_T_STRUCT);
  { l3 = 0; w_field(w, &l3, 8, PQ_T_STRUCT);
    { l4 = 0; w_bool(w, &l4, 1, 1); w_field(w, &l4, 2, PQ_T_STRUCT);
      { l5 = 0; w_field(w, &l5, 2, PQ_T_STRUCT); w_stop(w); w_stop(w); }
      w_stop(w); }
    w_stop(w); }
  w_stop(w);
  l2 = 0;
  w_i32(w, &l2, 1, PQ_FIXED_LEN_BYTE_ARRAY); w_i32(w, &l2, 2, 16);
  w_i32(w, &l2, 3, PQ_REQUIRED); w_bin(w, &l2, 4, "d");
  w_i32(w, &l2, 6, PQ_CT_DECIMAL); w_i32(w, &l2, 7, 2); w_i32(w, &l2, 8, 30);
  w_field(w, &l2, 10, PQ_T_STRUCT);
  { l3 = 0; w_field(w, &l3, 5, PQ_T_STRUCT);
    { l4 = 0; w_i32(w, &l4, 1, 2); w_i32(w, &l4, 2, 30); w_stop(w); }
    w_stop(w); }
  w_stop(w);
  w_i64(w, &l, 3, 3);
  w_field(w, &l, 4, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
  { l2 = 0;
    w_field(w, &l2, 1, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
    { l3 = 0;
      w_i64(w, &l3, 2, 4);
      w_field(w, &l3, 3, PQ_T_STRUCT);
      { l4 = 0;
        w_i32(w, &l4, 1, PQ_INT64);
        w_field(w, &l4, 2, PQ_T_LIST); w_list(w, PQ_T_I32, 2);
        w_zz(w, PQ_ENC_PLAIN); w_zz(w, PQ_ENC_RLE);
        w_field(w, &l4, 3, PQ_T_LIST); w_list(w, PQ_T_BINARY, 1); w_str(w, "ts");
        w_i32(w, &l4, 4, PQ_CODEC_ZSTD);
        w_i64(w, &l4, 5, 3); w_i64(w, &l4, 6, 100); w_i64(w, &l4, 7, 80);
        w_field(w, &l4, 8, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
        { l5 = 0; w_bin(w, &l5, 1, "ck"); w_stop(w); }
        w_i64(w, &l4, 9, 4);
        w_i64(w, &l4, 11, 50000000000LL);
        w_field(w, &l4, 12, PQ_T_STRUCT);
        { l5 = 0; w_i64(w, &l5, 3, 1); w_bin(w, &l5, 5, "MAX"); w_bin(w, &l5, 6, "MIN");
          w_bool(w, &l5, 7, 1); w_bool(w, &l5, 8, 0); w_stop(w); }
        w_field(w, &l4, 13, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
        { l5 = 0; w_i32(w, &l5, 1, PQ_PAGE_DATA); w_i32(w, &l5, 2, PQ_ENC_PLAIN);
          w_i32(w, &l5, 3, 1); w_stop(w); }
        w_i64(w, &l4, 14, 1234); w_i32(w, &l4, 15, 64);
        w_field(w, &l4, 16, PQ_T_STRUCT); { l5 = 0; w_i64(w, &l5, 1, 9); w_stop(w); }
        w_stop(w); }
      w_i64(w, &l3, 4, 1000); w_i32(w, &l3, 5, 20);
      w_i64(w, &l3, 6, 1020); w_i32(w, &l3, 7, 30);
      w_field(w, &l3, 8, PQ_T_STRUCT); { l4 = 0; w_stop(w); }
      w_stop(w); }
    w_i64(w, &l2, 2, 100); w_i64(w, &l2, 3, 3);
    w_field(w, &l2, 4, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 1);
    { l3 = 0; w_i32(w, &l3, 1, 0); w_bool(w, &l3, 2, 1); w_bool(w, &l3, 3, 0); w_stop(w); }
    w_i64(w, &l2, 5, 4); w_i64(w, &l2, 6, 80);
    w_int(w, &l2, 7, PQ_T_I16, 0);
    w_stop(w); }
  w_field(w, &l, 5, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 2);
  { l2 = 0; w_bin(w, &l2, 1, "k"); w_bin(w, &l2, 2, "v"); w_stop(w); }
  { l2 = 0; w_bin(w, &l2, 1, "only_key"); w_stop(w); }
  w_bin(w, &l, 6, "hand");
  w_field(w, &l, 7, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 2);
  { l2 = 0; w_field(w, &l2, 1, PQ_T_STRUCT); w_stop(w); w_stop(w); }
  { l2 = 0; w_field(w, &l2, 5, PQ_T_STRUCT); w_stop(w); w_stop(w); }
  w_junk(w, &l, 100);
  w_field(w, &l, 8, PQ_T_STRUCT);
  { l2 = 0; w_field(w, &l2, 1, PQ_T_STRUCT); { l3 = 0; w_bin(w, &l3, 1, "aad"); w_stop(w); }
    w_stop(w); }
  w_stop(w);
}

static int bytes_eq(pq_bytes b, const char *s){
  return b.n==strlen(s) && memcmp(b.p, s, b.n)==0;
}

static void test_full_footer(void){
  wbuf w = {0};
  w_full_footer(&w);
  col_error e; pq_file_meta m;
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_OK);
  if( e.code ){ fprintf(stderr, "%s\n", e.msg); free(w.p); return; }
  CHECK_EQ_INT(m.version, 2);
  CHECK_EQ_INT(m.n_schema, 3);
  CHECK(bytes_eq(m.schema[0].name, "schema"));
  CHECK_EQ_INT(m.schema[0].num_children, 2);
  CHECK_EQ_INT(m.schema[0].has_type, 0);
  CHECK_EQ_INT(m.schema[0].has_repetition, 0);
  const pq_schema_element *ts = &m.schema[1];
  CHECK(bytes_eq(ts->name, "ts"));
  CHECK_EQ_INT(ts->has_type, 1); CHECK_EQ_INT(ts->type, PQ_INT64);
  CHECK_EQ_INT(ts->repetition_type, PQ_OPTIONAL);
  CHECK_EQ_INT(ts->converted_type, PQ_CT_TIMESTAMP_MICROS);
  CHECK_EQ_INT(ts->has_field_id, 1); CHECK_EQ_INT(ts->field_id, 42);
  CHECK_EQ_INT(ts->logical.kind, PQ_LT_TIMESTAMP);
  CHECK_EQ_INT(ts->logical.is_adjusted_to_utc, 1);
  CHECK_EQ_INT(ts->logical.unit, PQ_UNIT_MICROS);
  const pq_schema_element *d = &m.schema[2];
  CHECK_EQ_INT(d->type, PQ_FIXED_LEN_BYTE_ARRAY); CHECK_EQ_INT(d->type_length, 16);
  CHECK_EQ_INT(d->has_repetition, 1); CHECK_EQ_INT(d->repetition_type, PQ_REQUIRED);
  CHECK_EQ_INT(d->scale, 2); CHECK_EQ_INT(d->precision, 30);
  CHECK_EQ_INT(d->logical.kind, PQ_LT_DECIMAL);
  CHECK_EQ_INT(d->logical.scale, 2); CHECK_EQ_INT(d->logical.precision, 30);
  CHECK_EQ_INT(m.num_rows, 3);
  CHECK_EQ_INT(m.n_row_groups, 1);
  const pq_row_group *g = &m.row_groups[0];
  CHECK_EQ_INT(g->total_byte_size, 100); CHECK_EQ_INT(g->num_rows, 3);
  CHECK_EQ_INT(g->n_sorting_columns, 1);
  CHECK_EQ_INT(g->sorting_columns[0].descending, 1);
  CHECK_EQ_INT(g->sorting_columns[0].nulls_first, 0);
  CHECK_EQ_INT(g->has_file_offset, 1); CHECK_EQ_INT(g->file_offset, 4);
  CHECK_EQ_INT(g->has_total_compressed_size, 1);
  CHECK_EQ_INT(g->has_ordinal, 1); CHECK_EQ_INT(g->ordinal, 0);
  CHECK_EQ_INT(g->n_columns, 1);
  const pq_column_chunk *c = &g->columns[0];
  CHECK_EQ_INT(c->file_path.n, 0); CHECK_EQ_INT(c->file_offset, 4);
  CHECK_EQ_INT(c->has_offset_index, 1); CHECK_EQ_INT(c->offset_index_offset, 1000);
  CHECK_EQ_INT(c->offset_index_length, 20);
  CHECK_EQ_INT(c->has_column_index, 1); CHECK_EQ_INT(c->column_index_offset, 1020);
  CHECK_EQ_INT(c->column_index_length, 30);
  CHECK_EQ_INT(c->has_crypto_metadata, 1);
  CHECK_EQ_INT(c->has_meta_data, 1);
  const pq_column_meta *cm = &c->meta_data;
  CHECK_EQ_INT(cm->type, PQ_INT64);
  CHECK_EQ_INT(cm->n_encodings, 2); CHECK_EQ_INT(cm->encodings[1], PQ_ENC_RLE);
  CHECK_EQ_INT(cm->n_path, 1); CHECK(bytes_eq(cm->path_in_schema[0], "ts"));
  CHECK_EQ_INT(cm->codec, PQ_CODEC_ZSTD);
  CHECK_EQ_INT(cm->num_values, 3);
  CHECK_EQ_INT(cm->total_uncompressed_size, 100);
  CHECK_EQ_INT(cm->total_compressed_size, 80);
  CHECK_EQ_INT(cm->data_page_offset, 4);
  CHECK_EQ_INT(cm->has_index_page_offset, 0);
  CHECK_EQ_INT(cm->has_dictionary_page_offset, 1);
  CHECK(cm->dictionary_page_offset==50000000000LL);
  CHECK_EQ_INT(cm->has_statistics, 1);
  CHECK_EQ_INT(cm->statistics.has_null_count, 1);
  CHECK_EQ_INT(cm->statistics.null_count, 1);
  CHECK_EQ_INT(cm->statistics.has_max, 0);
  CHECK(bytes_eq(cm->statistics.max_value, "MAX"));
  CHECK(bytes_eq(cm->statistics.min_value, "MIN"));
  CHECK_EQ_INT(cm->statistics.has_is_max_value_exact, 1);
  CHECK_EQ_INT(cm->statistics.is_max_value_exact, 1);
  CHECK_EQ_INT(cm->statistics.has_is_min_value_exact, 1);
  CHECK_EQ_INT(cm->statistics.is_min_value_exact, 0);
  CHECK_EQ_INT(cm->n_encoding_stats, 1);
  CHECK_EQ_INT(cm->encoding_stats[0].count, 1);
  CHECK_EQ_INT(cm->has_bloom_filter, 1); CHECK_EQ_INT(cm->bloom_filter_offset, 1234);
  CHECK_EQ_INT(cm->has_bloom_filter_length, 1); CHECK_EQ_INT(cm->bloom_filter_length, 64);
  CHECK_EQ_INT(m.n_key_value, 2);
  CHECK(bytes_eq(m.key_value[0].key, "k"));
  CHECK(m.key_value[0].has_value && bytes_eq(m.key_value[0].value, "v"));
  CHECK(!m.key_value[1].has_value);
  CHECK(bytes_eq(m.created_by, "hand"));
  CHECK_EQ_INT(m.n_column_orders, 2);
  CHECK_EQ_INT(m.column_orders[0], 1);
  CHECK_EQ_INT(m.column_orders[1], 0);
  CHECK_EQ_INT(m.has_encryption_algorithm, 1);
  pq_file_meta_free(&m);
  pq_file_meta_free(&m);    /* freeing twice is harmless */
  free(w.p);
}

/* Every strict prefix of a valid footer is an error, never a crash. Each
** prefix is copied to a buffer of exactly its size so ASan sees overreads. */
static int truncation_errors(const uint8_t *p, size_t n){
  int bad = 0;
  for(size_t k=0; k<n; k++){
    uint8_t *q = malloc(k ? k : 1);
    memcpy(q, p, k);
    col_error e; pq_file_meta m;
    col_error_clear(&e);
    int rc = pq_file_meta_decode(q, k, &m, &e);
    if( rc!=COL_ERROR || e.msg[0]==0 || m.owner!=0 ) bad++;
    if( rc==COL_OK ) pq_file_meta_free(&m);
    free(q);
  }
  return bad;
}

static void test_truncation(void){
  wbuf w = {0};
  w_full_footer(&w);
  CHECK_EQ_INT(truncation_errors(w.p, w.n), 0);
  free(w.p);
}

static void test_lying_sizes(void){
  wbuf w = {0};
  int16_t l = 0;
  w_field(&w, &l, 2, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 1);
  { int16_t l2 = 0; w_bin(&w, &l2, 4, "root"); w_stop(&w); }
  w_i64(&w, &l, 3, 0);
  w_field(&w, &l, 4, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 1);
  int16_t l2 = 0;
  w_field(&w, &l2, 1, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 4000000);
  size_t at = w.n - 5;    /* the list header: 1 byte + 4-byte varint */
  for(int i=0; i<30; i++) w_stop(&w);
  col_error e; pq_file_meta m;
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  char want[200];
  snprintf(want, sizeof(want), "thrift: list size 4000000 exceeds the 30 "
           "bytes left at offset %zu (RowGroup.columns)", at);
  CHECK_EQ_STR(e.msg, want);
  /* A string length beyond the buffer. */
  w.n = 0; l = 0;
  w_field(&w, &l, 6, PQ_T_BINARY); w_varint(&w, 1u<<30); w_raw(&w, "abc", 3);
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "binary length 1073741824 exceeds the 3 bytes left at "
                      "offset 1 (FileMetaData)")!=0);
  /* A list of the wrong element type. */
  w.n = 0; l = 0;
  w_field(&w, &l, 2, PQ_T_LIST); w_list(&w, PQ_T_I32, 1); w_zz(&w, 1);
  col_error_clear(&e);
  CHECK(pq_file_meta_decode(w.p, w.n, &m, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "FileMetaData.schema")!=0);
  free(w.p);
}

/* A footer of `cols` columns x `groups` row groups, as writers make them. */
static void w_wide_footer(wbuf *w, int cols, int groups){
  int16_t l = 0, l2, l3, l4, l5;
  char name[32];
  w_i32(w, &l, 1, 1);
  w_field(w, &l, 2, PQ_T_LIST); w_list(w, PQ_T_STRUCT, (uint64_t)cols+1);
  l2 = 0; w_bin(w, &l2, 4, "schema"); w_i32(w, &l2, 5, cols); w_stop(w);
  for(int c=0; c<cols; c++){
    snprintf(name, sizeof(name), "column_%d", c);
    l2 = 0; w_i32(w, &l2, 1, PQ_INT64); w_i32(w, &l2, 3, PQ_OPTIONAL);
    w_bin(w, &l2, 4, name); w_stop(w);
  }
  w_i64(w, &l, 3, (int64_t)groups*1000);
  w_field(w, &l, 4, PQ_T_LIST); w_list(w, PQ_T_STRUCT, (uint64_t)groups);
  for(int g=0; g<groups; g++){
    l2 = 0;
    w_field(w, &l2, 1, PQ_T_LIST); w_list(w, PQ_T_STRUCT, (uint64_t)cols);
    for(int c=0; c<cols; c++){
      snprintf(name, sizeof(name), "column_%d", c);
      l3 = 0; w_i64(w, &l3, 2, 1000000+c);
      w_field(w, &l3, 3, PQ_T_STRUCT);
      l4 = 0; w_i32(w, &l4, 1, PQ_INT64);
      w_field(w, &l4, 2, PQ_T_LIST); w_list(w, PQ_T_I32, 3);
      w_zz(w, 0); w_zz(w, 3); w_zz(w, 8);
      w_field(w, &l4, 3, PQ_T_LIST); w_list(w, PQ_T_BINARY, 1); w_str(w, name);
      w_i32(w, &l4, 4, PQ_CODEC_SNAPPY); w_i64(w, &l4, 5, 1000);
      w_i64(w, &l4, 6, 8000); w_i64(w, &l4, 7, 4000); w_i64(w, &l4, 9, 1000000+c);
      w_i64(w, &l4, 11, 999000+c);
      w_field(w, &l4, 12, PQ_T_STRUCT);
      l5 = 0; w_bin(w, &l5, 1, "12345678"); w_bin(w, &l5, 2, "00000000");
      w_i64(w, &l5, 3, 0); w_bin(w, &l5, 5, "12345678"); w_bin(w, &l5, 6, "00000000");
      w_stop(w);
      w_field(w, &l4, 13, PQ_T_LIST); w_list(w, PQ_T_STRUCT, 2);
      for(int k=0; k<2; k++){ l5 = 0; w_i32(w, &l5, 1, k?0:2); w_i32(w, &l5, 2, k?8:0);
        w_i32(w, &l5, 3, 1); w_stop(w); }
      w_stop(w);
      w_i64(w, &l3, 4, 5000000+c); w_i32(w, &l3, 5, 30);
      w_i64(w, &l3, 6, 6000000+c); w_i32(w, &l3, 7, 40);
      w_stop(w);
    }
    w_i64(w, &l2, 2, 8000*cols); w_i64(w, &l2, 3, 1000);
    w_i64(w, &l2, 5, 4); w_i64(w, &l2, 6, 4000*cols); w_int(w, &l2, 7, PQ_T_I16, g);
    w_stop(w);
  }
  w_bin(w, &l, 6, "test_footer wide");
  w_stop(w);
}

static void test_wide_footer_speed(void){
  wbuf w = {0};
  w_wide_footer(&w, 100, 100);
  col_error e; pq_file_meta m;
  struct timespec t0, t1;
  double best = 1e9;
  for(int rep=0; rep<5; rep++){
    col_error_clear(&e);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = pq_file_meta_decode(w.p, w.n, &m, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK(rc==COL_OK);
    if( rc ) break;
    CHECK_EQ_INT(m.n_row_groups, 100);
    CHECK_EQ_INT(m.row_groups[99].n_columns, 100);
    CHECK_EQ_INT(m.row_groups[99].columns[99].meta_data.dictionary_page_offset,
                 999099);
    CHECK_EQ_INT(m.row_groups[99].ordinal, 99);
    pq_file_meta_free(&m);
    double ms = (double)(t1.tv_sec-t0.tv_sec)*1e3 + (double)(t1.tv_nsec-t0.tv_nsec)/1e6;
    if( ms<best ) best = ms;
  }
  /* Generous: the sanitized test build is several times slower than -O2. */
  printf("  wide footer: %zu bytes, 100 columns x 100 row groups, %.2f ms\n",
         w.n, best);
  CHECK(best < 100.0);
  free(w.p);
}

/* ---- page headers, page indexes, bloom filter header ------------------- */

static void test_page_headers(void){
  wbuf w = {0};
  int16_t l = 0, l2, l3;
  w_i32(&w, &l, 1, PQ_PAGE_DATA); w_i32(&w, &l, 2, 200); w_i32(&w, &l, 3, 100);
  w_i32(&w, &l, 4, -12345);
  w_field(&w, &l, 5, PQ_T_STRUCT);
  l2 = 0; w_i32(&w, &l2, 1, 10); w_i32(&w, &l2, 2, PQ_ENC_RLE_DICTIONARY);
  w_i32(&w, &l2, 3, PQ_ENC_RLE); w_i32(&w, &l2, 4, PQ_ENC_BIT_PACKED);
  w_field(&w, &l2, 5, PQ_T_STRUCT);
  l3 = 0; w_bin(&w, &l3, 1, "zz"); w_bin(&w, &l3, 2, "aa"); w_i64(&w, &l3, 3, 2);
  w_i64(&w, &l3, 4, 5); w_stop(&w);
  w_stop(&w);
  w_junk(&w, &l, 20);
  w_stop(&w);
  size_t hdr = w.n;
  for(int i=0; i<100; i++) w_u8(&w, 0xee);   /* page data follows */
  col_error e; pq_page_header h; size_t hl;
  col_error_clear(&e);
  CHECK(pq_page_header_decode(w.p, w.n, &h, &hl, &e)==COL_OK);
  CHECK_EQ_INT(hl, hdr);
  CHECK_EQ_INT(h.type, PQ_PAGE_DATA);
  CHECK_EQ_INT(h.uncompressed_page_size, 200);
  CHECK_EQ_INT(h.compressed_page_size, 100);
  CHECK_EQ_INT(h.has_crc, 1); CHECK_EQ_INT(h.crc, -12345);
  CHECK_EQ_INT(h.has_data_page_header, 1);
  CHECK_EQ_INT(h.data_page_header.num_values, 10);
  CHECK_EQ_INT(h.data_page_header.encoding, PQ_ENC_RLE_DICTIONARY);
  CHECK_EQ_INT(h.data_page_header.definition_level_encoding, PQ_ENC_RLE);
  CHECK_EQ_INT(h.data_page_header.repetition_level_encoding, PQ_ENC_BIT_PACKED);
  CHECK_EQ_INT(h.data_page_header.has_statistics, 1);
  CHECK(bytes_eq(h.data_page_header.statistics.max, "zz"));
  CHECK(bytes_eq(h.data_page_header.statistics.min, "aa"));
  CHECK_EQ_INT(h.data_page_header.statistics.distinct_count, 5);
  /* Truncated anywhere: COL_ERROR and header_len 0, so a caller can retry
  ** with more bytes. */
  int bad = 0;
  for(size_t k=0; k<hdr; k++){
    uint8_t *q = malloc(k ? k : 1);
    memcpy(q, w.p, k);
    col_error_clear(&e);
    hl = 99;
    if( pq_page_header_decode(q, k, &h, &hl, &e)!=COL_ERROR || hl!=0 ) bad++;
    free(q);
  }
  CHECK_EQ_INT(bad, 0);

  /* Dictionary page. */
  w.n = 0; l = 0;
  w_i32(&w, &l, 1, PQ_PAGE_DICTIONARY); w_i32(&w, &l, 2, 8); w_i32(&w, &l, 3, 8);
  w_field(&w, &l, 7, PQ_T_STRUCT);
  l2 = 0; w_i32(&w, &l2, 1, 2); w_i32(&w, &l2, 2, PQ_ENC_PLAIN); w_bool(&w, &l2, 3, 1);
  w_stop(&w); w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_page_header_decode(w.p, w.n, &h, &hl, &e)==COL_OK);
  CHECK_EQ_INT(hl, w.n);
  CHECK_EQ_INT(h.has_dictionary_page_header, 1);
  CHECK_EQ_INT(h.has_data_page_header, 0);
  CHECK_EQ_INT(h.dictionary_page_header.num_values, 2);
  CHECK_EQ_INT(h.dictionary_page_header.is_sorted, 1);

  /* Data page v2: is_compressed defaults to true; then set false. */
  for(int explicit_false=0; explicit_false<2; explicit_false++){
    w.n = 0; l = 0;
    w_i32(&w, &l, 1, PQ_PAGE_DATA_V2); w_i32(&w, &l, 2, 50); w_i32(&w, &l, 3, 40);
    w_field(&w, &l, 8, PQ_T_STRUCT);
    l2 = 0; w_i32(&w, &l2, 1, 7); w_i32(&w, &l2, 2, 2); w_i32(&w, &l2, 3, 5);
    w_i32(&w, &l2, 4, PQ_ENC_DELTA_BINARY_PACKED); w_i32(&w, &l2, 5, 3);
    w_i32(&w, &l2, 6, 1);
    if( explicit_false ) w_bool(&w, &l2, 7, 0);
    w_field(&w, &l2, 8, PQ_T_STRUCT); l3 = 0; w_i64(&w, &l3, 3, 2); w_stop(&w);
    w_stop(&w); w_stop(&w);
    col_error_clear(&e);
    CHECK(pq_page_header_decode(w.p, w.n, &h, &hl, &e)==COL_OK);
    CHECK_EQ_INT(h.has_data_page_header_v2, 1);
    const pq_data_page_header_v2 *v2 = &h.data_page_header_v2;
    CHECK_EQ_INT(v2->num_values, 7); CHECK_EQ_INT(v2->num_nulls, 2);
    CHECK_EQ_INT(v2->num_rows, 5);
    CHECK_EQ_INT(v2->encoding, PQ_ENC_DELTA_BINARY_PACKED);
    CHECK_EQ_INT(v2->definition_levels_byte_length, 3);
    CHECK_EQ_INT(v2->repetition_levels_byte_length, 1);
    CHECK_EQ_INT(v2->is_compressed, !explicit_false);
    CHECK_EQ_INT(v2->has_statistics, 1);
    CHECK_EQ_INT(v2->statistics.null_count, 2);
  }

  /* A negative page size is refused: page walkers add it to offsets. */
  w.n = 0; l = 0;
  w_i32(&w, &l, 1, PQ_PAGE_DATA); w_i32(&w, &l, 2, 8); w_i32(&w, &l, 3, -8);
  w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_page_header_decode(w.p, w.n, &h, &hl, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "negative page size")!=0);
  free(w.p);
}

static void test_page_index(void){
  wbuf w = {0};
  int16_t l = 0, l2;
  w_field(&w, &l, 1, PQ_T_LIST); w_list(&w, PQ_T_STRUCT, 3);
  for(int i=0; i<3; i++){
    l2 = 0; w_i64(&w, &l2, 1, 4+100*i); w_i32(&w, &l2, 2, 100);
    w_i64(&w, &l2, 3, 10*i); w_stop(&w);
  }
  w_field(&w, &l, 2, PQ_T_LIST); w_list(&w, PQ_T_I64, 3);
  w_zz(&w, 1); w_zz(&w, 2); w_zz(&w, 3);
  w_stop(&w);
  col_error e; pq_offset_index oi;
  col_error_clear(&e);
  CHECK(pq_offset_index_decode(w.p, w.n, &oi, &e)==COL_OK);
  CHECK_EQ_INT(oi.n_page_locations, 3);
  if( oi.n_page_locations==3 ){
    CHECK_EQ_INT(oi.page_locations[2].offset, 204);
    CHECK_EQ_INT(oi.page_locations[2].compressed_page_size, 100);
    CHECK_EQ_INT(oi.page_locations[2].first_row_index, 20);
  }
  pq_offset_index_free(&oi);
  /* truncated offset indexes */
  int bad = 0;
  for(size_t k=0; k<w.n; k++){
    col_error_clear(&e);
    if( pq_offset_index_decode(w.p, k, &oi, &e)!=COL_ERROR || oi.owner ) bad++;
  }
  CHECK_EQ_INT(bad, 0);

  w.n = 0; l = 0;
  w_field(&w, &l, 1, PQ_T_LIST); w_list(&w, PQ_T_TRUE, 2); w_u8(&w, 2); w_u8(&w, 1);
  w_field(&w, &l, 2, PQ_T_LIST); w_list(&w, PQ_T_BINARY, 2); w_str(&w, "a"); w_str(&w, "");
  w_field(&w, &l, 3, PQ_T_LIST); w_list(&w, PQ_T_BINARY, 2); w_str(&w, "m"); w_str(&w, "");
  w_i32(&w, &l, 4, PQ_ASCENDING);
  w_field(&w, &l, 5, PQ_T_LIST); w_list(&w, PQ_T_I64, 2); w_zz(&w, 0); w_zz(&w, 9);
  size_t good = w.n;
  w_stop(&w);
  pq_column_index ci;
  col_error_clear(&e);
  CHECK(pq_column_index_decode(w.p, w.n, &ci, &e)==COL_OK);
  CHECK_EQ_INT(ci.n_pages, 2);
  if( ci.n_pages==2 ){
    CHECK_EQ_INT(ci.null_pages[0], 0); CHECK_EQ_INT(ci.null_pages[1], 1);
    CHECK(bytes_eq(ci.min_values[0], "a")); CHECK(bytes_eq(ci.max_values[0], "m"));
    CHECK_EQ_INT(ci.max_values[1].n, 0);
    CHECK_EQ_INT(ci.boundary_order, PQ_ASCENDING);
    CHECK_EQ_INT(ci.has_null_counts, 1); CHECK_EQ_INT(ci.null_counts[1], 9);
  }
  pq_column_index_free(&ci);
  /* lists of different lengths are refused */
  w.n = good;
  w_field(&w, &l, 3, PQ_T_LIST); w_list(&w, PQ_T_BINARY, 1); w_str(&w, "m");
  w_stop(&w);
  col_error_clear(&e);
  CHECK(pq_column_index_decode(w.p, w.n, &ci, &e)==COL_ERROR);
  CHECK(strstr(e.msg, "disagree")!=0);
  CHECK(ci.owner==0);

  /* bloom filter header: numBytes, BLOCK, XXHASH, UNCOMPRESSED */
  w.n = 0; l = 0;
  w_i32(&w, &l, 1, 1024);
  for(int id=2; id<=4; id++){
    w_field(&w, &l, id, PQ_T_STRUCT);
    l2 = 0; w_field(&w, &l2, 1, PQ_T_STRUCT); w_stop(&w); w_stop(&w);
  }
  w_stop(&w);
  size_t bl = w.n;
  w_u8(&w, 0xaa);
  pq_bloom_filter_header bh; size_t hl;
  col_error_clear(&e);
  CHECK(pq_bloom_filter_header_decode(w.p, w.n, &bh, &hl, &e)==COL_OK);
  CHECK_EQ_INT(hl, bl);
  CHECK_EQ_INT(bh.num_bytes, 1024);
  CHECK(bh.algorithm_block && bh.hash_xxhash && bh.compression_uncompressed);
  col_error_clear(&e);
  CHECK(pq_bloom_filter_header_decode(w.p, bl-1, &bh, &hl, &e)==COL_ERROR);
  CHECK_EQ_INT(hl, 0);
  free(w.p);
}

/* ---- the parquet-testing corpus --------------------------------------- */

typedef struct manifest_row {
  char *path;          /* relative to the corpus root, e.g. data/x.parquet */
  char *rows;          /* "" when unknown */
  char *row_groups;    /* "" when unknown */
  char *page_types;    /* DATA_PAGE=11,DICTIONARY_PAGE=10 */
  char *types;         /* leaf:PHYS/LOGICAL; ... */
} manifest_row;

typedef struct manifest {
  char *text;          /* the whole file, fields split in place */
  manifest_row *rows;
  int n;
} manifest;

static char *read_file(const char *path, size_t *n){
  FILE *f = fopen(path, "rb");
  if( !f ) return 0;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)sz + 1);
  *n = fread(p, 1, (size_t)sz, f);
  p[*n] = 0;
  fclose(f);
  return p;
}

static void manifest_load(manifest *mf){
  size_t n;
  memset(mf, 0, sizeof(*mf));
  mf->text = read_file(CORPUS "/MANIFEST.tsv", &n);
  if( !mf->text ) return;
  int col_rows = -1, col_rg = -1, col_pt = -1, col_ty = -1, cap = 0;
  char *line = mf->text;
  for(int lineno=0; line && *line; lineno++){
    char *next = strchr(line, '\n');
    if( next ) *next++ = 0;
    char *f[64]; int nf = 0;
    for(char *p = line; nf<64; ){
      f[nf++] = p;
      char *tab = strchr(p, '\t');
      if( !tab ) break;
      *tab = 0; p = tab+1;
    }
    if( lineno==0 ){
      for(int i=0; i<nf; i++){
        if( !strcmp(f[i], "rows") ) col_rows = i;
        if( !strcmp(f[i], "row_groups") ) col_rg = i;
        if( !strcmp(f[i], "page_types") ) col_pt = i;
        if( !strcmp(f[i], "types") ) col_ty = i;
      }
    }else if( col_rows>0 && col_rg>0 && col_pt>0 && col_ty>0 && nf>col_pt
           && nf>col_ty ){
      if( mf->n==cap ){
        cap = cap ? cap*2 : 256;
        mf->rows = realloc(mf->rows, (size_t)cap*sizeof(*mf->rows));
      }
      manifest_row *r = &mf->rows[mf->n++];
      r->path = f[0]; r->rows = f[col_rows]; r->row_groups = f[col_rg];
      r->page_types = f[col_pt];
      r->types = f[col_ty];
    }
    line = next;
  }
}

static const manifest_row *manifest_find(const manifest *mf, const char *rel){
  for(int i=0; i<mf->n; i++) if( !strcmp(mf->rows[i].path, rel) ) return &mf->rows[i];
  return 0;
}

/* The count after "NAME=" in a page_types cell, 0 when absent. */
static long page_type_count(const char *cell, const char *name){
  size_t nl = strlen(name);
  for(const char *p = cell; p && *p; ){
    if( strncmp(p, name, nl)==0 && p[nl]=='=' ) return atol(p+nl+1);
    p = strchr(p, ',');
    if( p ) p++;
  }
  return 0;
}

typedef struct corpus_stats {
  int files;            /* footers decoded */
  int encrypted;        /* PARE files skipped */
  int plaintext_encrypted; /* encrypted files with a plaintext footer */
  int bad_errors;       /* bad_data files refused cleanly */
  int bad_decoded;      /* bad_data files that decoded */
  long pages;           /* page headers decoded */
  int manifest_checked; /* files compared against MANIFEST.tsv */
  int failures;         /* data/ files that did not check out */
  long indexes[3];      /* offset indexes, column indexes, bloom headers */
} corpus_stats;

/* Where a chunk's first page is: the dictionary page when there is one.
** Writers put 0 in data_page_offset when there are no data pages
** (column_chunk_key_value_metadata.parquet) and 0 in dictionary_page_offset
** when there is no dictionary (dict-page-offset-zero.parquet). */
static int64_t chunk_start(const pq_column_meta *cm){
  int64_t dict = cm->dictionary_page_offset, data = cm->data_page_offset;
  if( cm->has_dictionary_page_offset && dict>=4 && (data<4 || dict<data) ){
    return dict;
  }
  return data;
}

/* A chunk's offset index must list its data pages, its column index have
** one entry per data page, and its bloom filter header decode. extra[]
** counts offset indexes, column indexes and bloom headers decoded. */
static int check_indexes(const uint8_t *file, size_t size,
                         const pq_column_chunk *cc, int64_t data_pages,
                         int g, int c, long extra[3], char *why, size_t whyn){
  col_error e;
  if( cc->has_offset_index && cc->offset_index_offset>=4
   && cc->offset_index_length>0
   && (uint64_t)cc->offset_index_offset + (uint64_t)cc->offset_index_length <= size ){
    size_t n = (size_t)cc->offset_index_length;
    uint8_t *q = malloc(n);
    memcpy(q, file+cc->offset_index_offset, n);
    pq_offset_index oi;
    col_error_clear(&e);
    int rc = pq_offset_index_decode(q, n, &oi, &e);
    free(q);
    if( rc ){
      snprintf(why, whyn, "rg %d col %d: offset index: %s", g, c, e.msg);
      return -1;
    }
    int bad = oi.n_page_locations!=data_pages;
    for(int i=0; !bad && i<oi.n_page_locations; i++){
      const pq_page_location *pl = &oi.page_locations[i];
      pq_page_header h; size_t hl;
      col_error_clear(&e);
      /* every location must be a data page header of the size stated */
      bad = pl->offset<4 || (uint64_t)pl->offset>=size
         || pq_page_header_decode(file+pl->offset, size-(size_t)pl->offset,
                                  &h, &hl, &e)
         || (int64_t)hl + h.compressed_page_size != pl->compressed_page_size;
    }
    pq_offset_index_free(&oi);
    if( bad ){
      snprintf(why, whyn, "rg %d col %d: offset index disagrees with the "
               "%lld data pages walked", g, c, (long long)data_pages);
      return -1;
    }
    extra[0]++;
  }
  if( cc->has_column_index && cc->column_index_offset>=4
   && cc->column_index_length>0
   && (uint64_t)cc->column_index_offset + (uint64_t)cc->column_index_length <= size ){
    size_t n = (size_t)cc->column_index_length;
    uint8_t *q = malloc(n);
    memcpy(q, file+cc->column_index_offset, n);
    pq_column_index ci;
    col_error_clear(&e);
    int rc = pq_column_index_decode(q, n, &ci, &e);
    free(q);
    if( rc ){
      snprintf(why, whyn, "rg %d col %d: column index: %s", g, c, e.msg);
      return -1;
    }
    int32_t n_pages = ci.n_pages;
    pq_column_index_free(&ci);
    if( n_pages!=data_pages ){
      snprintf(why, whyn, "rg %d col %d: column index has %d pages, walked "
               "%lld", g, c, (int)n_pages, (long long)data_pages);
      return -1;
    }
    extra[1]++;
  }
  const pq_column_meta *cm = &cc->meta_data;
  if( cm->has_bloom_filter && cm->bloom_filter_offset>=4
   && (uint64_t)cm->bloom_filter_offset < size ){
    pq_bloom_filter_header bh; size_t hl;
    col_error_clear(&e);
    if( pq_bloom_filter_header_decode(file+cm->bloom_filter_offset,
                                      size-(size_t)cm->bloom_filter_offset,
                                      &bh, &hl, &e) ){
      snprintf(why, whyn, "rg %d col %d: bloom filter: %s", g, c, e.msg);
      return -1;
    }
    if( !bh.algorithm_block || !bh.hash_xxhash || !bh.compression_uncompressed
     || (cm->has_bloom_filter_length
         && (int64_t)hl + bh.num_bytes != cm->bloom_filter_length) ){
      snprintf(why, whyn, "rg %d col %d: unexpected bloom filter header", g, c);
      return -1;
    }
    extra[2]++;
  }
  return 0;
}

/* Walk every column chunk's pages. Returns 0 or -1 with a message. */
static int walk_pages(const uint8_t *file, size_t size, const pq_file_meta *m,
                      long counts[4], long extra[3], char *why, size_t whyn){
  for(int g=0; g<m->n_row_groups; g++){
    const pq_row_group *rg = &m->row_groups[g];
    for(int c=0; c<rg->n_columns; c++){
      const pq_column_chunk *cc = &rg->columns[c];
      /* encrypted columns' pages are ciphertext */
      if( !cc->has_meta_data || cc->file_path.n || cc->has_crypto_metadata ){
        continue;
      }
      const pq_column_meta *cm = &cc->meta_data;
      int64_t start = chunk_start(cm);
      int64_t end = start + cm->total_compressed_size;
      if( start<4 || end<start || (uint64_t)end > size ){
        snprintf(why, whyn, "rg %d col %d: chunk [%lld,%lld) outside the file",
                 g, c, (long long)start, (long long)end);
        return -1;
      }
      int64_t pos = start, values = 0, data_pages = 0;
      while( pos<end ){
        pq_page_header h; size_t hl; col_error e;
        col_error_clear(&e);
        if( pq_page_header_decode(file+pos, (size_t)(end-pos), &h, &hl, &e) ){
          snprintf(why, whyn, "rg %d col %d: page at %lld: %s", g, c,
                   (long long)pos, e.msg);
          return -1;
        }
        if( h.type>=0 && h.type<4 ) counts[h.type]++;
        data_pages += h.type==PQ_PAGE_DATA || h.type==PQ_PAGE_DATA_V2;
        if( h.has_data_page_header ) values += h.data_page_header.num_values;
        if( h.has_data_page_header_v2 ) values += h.data_page_header_v2.num_values;
        pos += (int64_t)hl + h.compressed_page_size;
      }
      if( values!=cm->num_values ){
        snprintf(why, whyn, "rg %d col %d: pages hold %lld values, "
                 "ColumnMetaData.num_values is %lld", g, c,
                 (long long)values, (long long)cm->num_values);
        return -1;
      }
      if( check_indexes(file, size, cc, data_pages, g, c, extra, why, whyn) ){
        return -1;
      }
    }
  }
  return 0;
}

/* A leaf's type as MANIFEST.tsv writes it: INT32/INT(8,signed),
** FIXED_LEN_BYTE_ARRAY(4)/DECIMAL(7,3), BYTE_ARRAY/UTF8(converted). */
static void leaf_type_text(const pq_schema_element *s, char *out, size_t n){
  static const char *phys[] = { "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT",
                                "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY" };
  static const char *ct[] = { "UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM",
    "DECIMAL", "DATE", "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS",
    "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8",
    "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL" };
  static const char *unit[] = { "?", "MILLIS", "MICROS", "NANOS" };
  const pq_logical_type *lt = &s->logical;
  size_t k = 0;
  if( s->type>=0 && s->type<8 ) k += (size_t)snprintf(out, n, "%s", phys[s->type]);
  if( s->type==PQ_FIXED_LEN_BYTE_ARRAY ){
    k += (size_t)snprintf(out+k, n-k, "(%d)", (int)s->type_length);
  }
  const char *tf[2] = { "false", "true" };
  switch( lt->kind ){
    case PQ_LT_NONE:
      if( s->converted_type==PQ_CT_DECIMAL ){
        snprintf(out+k, n-k, "/DECIMAL(%d,%d)(converted)", (int)s->precision,
                 (int)s->scale);
      }else if( s->converted_type>=0 && s->converted_type<22 ){
        snprintf(out+k, n-k, "/%s(converted)", ct[s->converted_type]);
      }
      break;
    case PQ_LT_INTEGER:
      snprintf(out+k, n-k, "/INT(%d,%s)", lt->bit_width,
               lt->is_signed ? "signed" : "unsigned");
      break;
    case PQ_LT_TIME: case PQ_LT_TIMESTAMP:
      snprintf(out+k, n-k, "/%s(%s,utc=%s)",
               lt->kind==PQ_LT_TIME ? "TIME" : "TIMESTAMP",
               unit[lt->unit & 3], tf[lt->is_adjusted_to_utc!=0]);
      break;
    case PQ_LT_DECIMAL:
      snprintf(out+k, n-k, "/DECIMAL(%d,%d)", (int)lt->precision,
               (int)lt->scale);
      break;
    default: {
      static const char *names[] = { "", "STRING", "MAP", "LIST", "ENUM", "",
        "DATE", "", "", "", "", "NULL", "JSON", "BSON", "UUID", "FLOAT16",
        "VARIANT", "GEOMETRY", "GEOGRAPHY" };
      snprintf(out+k, n-k, "/%s", lt->kind<19 ? names[lt->kind] : "?");
    }
  }
}

/* Compare the leaves' types with MANIFEST.tsv's `types` cell. The parts the
** manifest spells out in detail we do not keep (a geometry's CRS, an
** unrecognized logical type's id) are compared up to that detail. */
static int check_types(const pq_file_meta *m, const char *cell, char *why,
                       size_t whyn){
  const char *p = cell;
  for(int i=0; i<m->n_schema; i++){
    const pq_schema_element *s = &m->schema[i];
    if( s->num_children>0 || !s->has_type ) continue;
    const char *end = strstr(p, "; ");
    if( end==0 ) end = p + strlen(p);
    if( p==end ){
      snprintf(why, whyn, "leaf %.*s: MANIFEST lists fewer leaves",
               (int)s->name.n, (const char*)s->name.p);
      return -1;
    }
    /* the type starts after the first ':' followed by a physical type (a
    ** name may hold ':', and so may a geometry's CRS) */
    static const char *phys[] = { "BOOLEAN", "INT32", "INT64", "INT96",
      "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY" };
    const char *ty = p;
    for(const char *q = p; q<end && ty==p; q++){
      if( *q!=':' ) continue;
      for(int k=0; k<8; k++){
        if( strncmp(q+1, phys[k], strlen(phys[k]))==0 ){ ty = q+1; break; }
      }
    }
    char mine[200];
    leaf_type_text(s, mine, sizeof(mine));
    size_t tn = (size_t)(end-ty), mn = strlen(mine);
    int ok = tn==mn && memcmp(ty, mine, mn)==0;
    if( !ok && (s->logical.kind==PQ_LT_GEOMETRY
                || s->logical.kind==PQ_LT_GEOGRAPHY) ){
      ok = tn>=mn && memcmp(ty, mine, mn)==0;
    }
    if( !ok && s->logical.kind==PQ_LT_NONE ){
      /* a logical type we do not know: the manifest names it, we do not */
      const char *slash = memchr(ty, '/', tn);
      ok = slash && strncmp(slash+1, "UNRECOGNIZED", 12)==0
        && (size_t)(slash-ty)<=mn && memcmp(ty, mine, (size_t)(slash-ty))==0;
    }
    if( !ok ){
      snprintf(why, whyn, "leaf %.*s: type %s; MANIFEST says %.*s",
               (int)s->name.n, (const char*)s->name.p, mine, (int)tn, ty);
      return -1;
    }
    p = *end ? end+2 : end;
  }
  if( *p ){
    snprintf(why, whyn, "MANIFEST lists more leaves: %.60s", p);
    return -1;
  }
  return 0;
}

static void check_file(const char *root, const char *rel, const manifest *mf,
                       corpus_stats *st){
  char path[2048];
  size_t size;
  snprintf(path, sizeof(path), "%.1000s/%.1000s", root, rel);
  uint8_t *file = (uint8_t*)read_file(path, &size);
  int is_bad = strncmp(rel, "bad_data/", 9)==0;
  if( !file ){ st->failures++; fprintf(stderr, "%s: cannot read\n", rel); return; }
  if( size<12 || memcmp(file+size-4, "PAR", 3)!=0 ){
    if( !is_bad ){ st->failures++; fprintf(stderr, "%s: no magic\n", rel); }
    else st->bad_errors++;
    free(file);
    return;
  }
  if( file[size-1]=='E' ){ st->encrypted++; free(file); return; }
  uint32_t flen = (uint32_t)file[size-8] | (uint32_t)file[size-7]<<8
                | (uint32_t)file[size-6]<<16 | (uint32_t)file[size-5]<<24;
  if( memcmp(file+size-4, "PAR1", 4)!=0 || flen > size-12 ){
    if( is_bad ) st->bad_errors++;
    else { st->failures++; fprintf(stderr, "%s: bad footer length\n", rel); }
    free(file);
    return;
  }
  /* The footer alone, in a buffer of its exact size, so ASan catches any
  ** read past its end. */
  uint8_t *foot = malloc(flen ? flen : 1);
  memcpy(foot, file+size-8-flen, flen);
  pq_file_meta m; col_error e;
  col_error_clear(&e);
  if( pq_file_meta_decode(foot, flen, &m, &e) ){
    if( is_bad ) st->bad_errors++;
    else { st->failures++; fprintf(stderr, "%s: %s\n", rel, e.msg); }
    free(foot); free(file);
    return;
  }
  st->files++;
  /* A plaintext footer of an encrypted file says so. */
  if( strstr(rel, ".encrypted") ){
    st->plaintext_encrypted++;
    if( !m.has_encryption_algorithm ){
      st->failures++;
      fprintf(stderr, "%s: no encryption_algorithm in the footer\n", rel);
    }
  }
  int64_t sum = 0;
  for(int g=0; g<m.n_row_groups; g++) sum += m.row_groups[g].num_rows;
  char why[700] = "";
  /* Known to disagree: FileMetaData.num_rows is 0 in this file. */
  int rows_lie = !strcmp(rel, "data/repeated_no_annotation.parquet");
  if( sum!=m.num_rows && !is_bad && !rows_lie ){
    snprintf(why, sizeof(why), "num_rows %lld but row groups hold %lld",
             (long long)m.num_rows, (long long)sum);
  }
  const manifest_row *r = manifest_find(mf, rel);
  if( !why[0] && r && !is_bad && r->rows[0] && r->row_groups[0] ){
    st->manifest_checked++;
    if( atoll(r->rows)!=sum || atol(r->row_groups)!=m.n_row_groups ){
      snprintf(why, sizeof(why), "rows %lld, row groups %d; MANIFEST says %s, %s",
               (long long)m.num_rows, (int)m.n_row_groups, r->rows, r->row_groups);
    }
  }
  if( !why[0] && r && !is_bad && r->types[0] ){
    check_types(&m, r->types, why, sizeof(why));
  }
  long counts[4] = {0,0,0,0};
  char pwhy[600] = "";
  int prc = walk_pages(file, size, &m, counts, st->indexes, pwhy, sizeof(pwhy));
  st->pages += counts[0]+counts[1]+counts[2]+counts[3];
  if( !why[0] && prc && !is_bad ) snprintf(why, sizeof(why), "%s", pwhy);
  if( !why[0] && prc==0 && r && !is_bad && r->page_types[0] ){
    static const char *names[4] = { "DATA_PAGE", "INDEX_PAGE",
                                    "DICTIONARY_PAGE", "DATA_PAGE_V2" };
    for(int k=0; k<4; k++){
      long want = page_type_count(r->page_types, names[k]);
      if( want!=counts[k] ){
        snprintf(why, sizeof(why), "%ld %s pages; MANIFEST says %s",
                 counts[k], names[k], r->page_types);
        break;
      }
    }
  }
  if( why[0] ){ st->failures++; fprintf(stderr, "%s: %s\n", rel, why); }
  if( is_bad ){
    if( prc ) st->bad_errors++; else st->bad_decoded++;
  }
  /* Every prefix of a real footer is an error; small footers only, since
  ** this is quadratic. */
  /* (A plaintext footer of an encrypted file ends in a 28-byte signature,
  ** so its prefixes that hold the whole FileMetaData do decode.) */
  if( !is_bad && !strstr(rel, ".encrypted") && flen < 3000
   && truncation_errors(foot, flen) ){
    st->failures++;
    fprintf(stderr, "%s: a truncated footer decoded\n", rel);
  }
  pq_file_meta_free(&m);
  free(foot);
  free(file);
}

static int cmp_str(const void *a, const void *b){
  return strcmp(*(char*const*)a, *(char*const*)b);
}

static void walk_dir(const char *root, const char *rel, const manifest *mf,
                     corpus_stats *st){
  char path[2048];
  snprintf(path, sizeof(path), "%.1000s/%.1000s", root, rel);
  DIR *d = opendir(path);
  if( !d ) return;
  struct dirent *ent;
  /* sorted for a stable order of messages */
  char **names = 0; int n = 0, cap = 0;
  while( (ent = readdir(d))!=0 ){
    if( ent->d_name[0]=='.' ) continue;
    if( n==cap ){ cap = cap ? cap*2 : 64; names = realloc(names, (size_t)cap*sizeof(*names)); }
    names[n++] = strdup(ent->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(*names), cmp_str);
  for(int i=0; i<n; i++){
    char sub[2048];
    struct stat sb;
    snprintf(sub, sizeof(sub), "%.1000s/%.1000s", rel, names[i]);
    snprintf(path, sizeof(path), "%.1000s/%.1000s", root, sub);
    if( stat(path, &sb)==0 && S_ISDIR(sb.st_mode) ){
      walk_dir(root, sub, mf, st);
    }else{
      size_t ln = strlen(names[i]);
      if( (ln>8 && !strcmp(names[i]+ln-8, ".parquet"))
       || (ln>18 && !strcmp(names[i]+ln-18, ".parquet.encrypted")) ){
        check_file(root, sub, mf, st);
      }
    }
    free(names[i]);
  }
  free(names);
}

static void test_corpus(void){
  struct stat sb;
  if( stat(CORPUS "/data", &sb)!=0 ){
    printf("  parquet-testing corpus: skipped (no %s)\n", CORPUS);
    return;
  }
  manifest mf;
  manifest_load(&mf);
  corpus_stats st;
  memset(&st, 0, sizeof(st));
  walk_dir(CORPUS, "data", &mf, &st);
  walk_dir(CORPUS, "bad_data", &mf, &st);
  walk_dir(CORPUS, "shredded_variant", &mf, &st);
  printf("  parquet-testing corpus: %d footers decoded (%d checked against "
         "MANIFEST.tsv: rows, row groups, leaf types, page counts), %ld "
         "page headers, %d encrypted skipped (%d with a "
         "plaintext footer decoded); bad_data: "
         "%d refused, %d decoded; %d failures\n", st.files, st.manifest_checked,
         st.pages, st.encrypted, st.plaintext_encrypted, st.bad_errors, st.bad_decoded, st.failures);
  printf("  page indexes: %ld offset indexes, %ld column indexes, %ld bloom "
         "filter headers decoded\n", st.indexes[0], st.indexes[1], st.indexes[2]);
  CHECK(st.files > 100);
  CHECK_EQ_INT(st.failures, 0);
  free(mf.rows);
  free(mf.text);
}

int main(void){
  RUN(test_varint);
  RUN(test_zigzag);
  RUN(test_field_headers);
  RUN(test_lists);
  RUN(test_skip_unknown);
  RUN(test_full_footer);
  RUN(test_truncation);
  RUN(test_lying_sizes);
  RUN(test_wide_footer_speed);
  RUN(test_page_headers);
  RUN(test_page_index);
  RUN(test_corpus);
  return unit_report("footer");
}
