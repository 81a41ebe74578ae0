/*
** test_variant.c — unit tests of the Variant binary decoder
** (reader/parquet/variant.c).
**
** Values are built by hand, byte by byte, from VariantEncoding.md, so the
** test does not share a line of logic with the decoder it checks: every
** primitive type, short and long strings, objects and arrays with every
** offset/id width and the is_large count, nesting, and key order. Hostile
** inputs: every strict prefix of a valid encoding must fail (never read
** past it: the bytes are copied into an exact-size allocation for ASan),
** offsets and field ids out of range, nesting past the cap, and offsets
** that alias one child many times (must stop, not print exponentially).
**
** If the parquet-testing corpus is present, every shredded_variant
** *.variant.bin (upstream's expected value: metadata then value) is decoded
** and compared with the matching golden line.
*/
#include "unit.h"
#include "../reader/parquet/variant.h"
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny byte builder ---------------------------------------------- */
typedef struct bytes { uint8_t p[70000]; size_t n; } bytes;

static void b_u8(bytes *b, unsigned v){ b->p[b->n++] = (uint8_t)v; }
static void b_le(bytes *b, uint64_t v, int w){ for(int i=0; i<w; i++) b_u8(b, (unsigned)(v>>(8*i)) & 0xff); }
static void b_raw(bytes *b, const void *p, size_t n){ if( n ) memcpy(b->p+b->n, p, n); b->n += n; }

/* Metadata with the given keys, offset width w, sorted flag. */
static void b_meta(bytes *b, int w, int sorted, int nkeys, const char *const *keys){
  b_u8(b, 1 | (sorted<<4) | ((w-1)<<6));
  b_le(b, (uint64_t)nkeys, w);
  uint64_t off = 0;
  b_le(b, 0, w);
  for(int i=0; i<nkeys; i++){ off += strlen(keys[i]); b_le(b, off, w); }
  for(int i=0; i<nkeys; i++) b_raw(b, keys[i], strlen(keys[i]));
}
static void b_empty_meta(bytes *b){ b_u8(b, 1); b_u8(b, 0); b_u8(b, 0); }

static uint8_t prim(int t){ return (uint8_t)(t<<2); }

/* Container header byte: object (ids width iw) or array. */
static uint8_t obj_hdr(int ow, int iw, int large){ return (uint8_t)(2 | (((ow-1) | (iw-1)<<2 | large<<4) << 2)); }
static uint8_t arr_hdr(int ow, int large){ return (uint8_t)(3 | (((ow-1) | large<<2) << 2)); }

/* An array/object from already encoded children laid out in order. */
static void b_array(bytes *b, int ow, int large, int n, const bytes *kids){
  b_u8(b, arr_hdr(ow, large));
  b_le(b, (uint64_t)n, large ? 4 : 1);
  uint64_t off = 0;
  for(int i=0; i<n; i++){ b_le(b, off, ow); off += kids[i].n; }
  b_le(b, off, ow);
  for(int i=0; i<n; i++) b_raw(b, kids[i].p, kids[i].n);
}
static void b_object(bytes *b, int ow, int iw, int large, int n, const unsigned *ids, const bytes *kids){
  b_u8(b, obj_hdr(ow, iw, large));
  b_le(b, (uint64_t)n, large ? 4 : 1);
  for(int i=0; i<n; i++) b_le(b, ids[i], iw);
  uint64_t off = 0;
  for(int i=0; i<n; i++){ b_le(b, off, ow); off += kids[i].n; }
  b_le(b, off, ow);
  for(int i=0; i<n; i++) b_raw(b, kids[i].p, kids[i].n);
}
static void b_short(bytes *b, const char *s){ b_u8(b, (uint8_t)(1 | strlen(s)<<2)); b_raw(b, s, strlen(s)); }

/* ---- decoding helpers ------------------------------------------------- */
static char json_out[200000];

/* Decode (meta, value) copied into exact-size buffers; returns the rc and
** leaves the JSON (or the error message) in json_out. */
static int decode(const bytes *meta, const bytes *val){
  uint8_t *mp = malloc(meta->n ? meta->n : 1), *vp = malloc(val->n ? val->n : 1);
  memcpy(mp, meta->p, meta->n); memcpy(vp, val->p, val->n);
  col_error e; col_error_clear(&e);
  pq_variant_meta m;
  strbuf out = {0};
  int rc = pq_variant_meta_parse(mp, meta->n, &m, &e);
  if( rc==COL_OK ) rc = pq_variant_to_json(&m, vp, val->n, 0, NULL, &out, &e);
  if( rc==COL_OK ){
    size_t k = out.n < sizeof(json_out)-1 ? out.n : sizeof(json_out)-1;
    memcpy(json_out, out.p ? out.p : "", k); json_out[k] = 0;
  }else{
    snprintf(json_out, sizeof(json_out), "ERROR: %s", e.msg);
    if( e.msg[0]==0 ) rc = -99;       /* an error must say what is wrong */
  }
  strbuf_free(&out);
  free(mp); free(vp);
  return rc;
}

static const char *dec(const bytes *meta, const bytes *val){
  decode(meta, val);
  return json_out;
}

static bytes M0;   /* empty metadata, built in main */

static const char *prim_json(int t, const void *payload, size_t n){
  static bytes v;
  v.n = 0; b_u8(&v, prim(t)); b_raw(&v, payload, n);
  return dec(&M0, &v);
}

/* ---- tests ------------------------------------------------------------ */
static void test_primitives(void){
  uint8_t p[32];
  CHECK_EQ_STR(prim_json(0, 0, 0), "null");
  CHECK_EQ_STR(prim_json(1, 0, 0), "true");
  CHECK_EQ_STR(prim_json(2, 0, 0), "false");
  p[0] = 0xDE; CHECK_EQ_STR(prim_json(3, p, 1), "-34");
  p[0] = 0xD2; p[1] = 0x04; CHECK_EQ_STR(prim_json(4, p, 2), "1234");
  p[0] = 0x2E; p[1] = 0xFB; CHECK_EQ_STR(prim_json(4, p, 2), "-1234");
  { int32_t x = -12345; memcpy(p, &x, 4); CHECK_EQ_STR(prim_json(5, p, 4), "-12345"); }
  { int64_t x = 9876543210LL; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(6, p, 8), "9876543210"); }
  { int64_t x = INT64_MIN; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(6, p, 8), "-9223372036854775808"); }
  { double d = 14.3; memcpy(p, &d, 8); CHECK_EQ_STR(prim_json(7, p, 8), "14.300000000000001"); }
  { double d = -0.0; memcpy(p, &d, 8); CHECK_EQ_STR(prim_json(7, p, 8), "-0"); }
  { double d = 1.0/0.0; memcpy(p, &d, 8); CHECK_EQ_STR(prim_json(7, p, 8), "\"Infinity\""); }
  { double d = -1.0/0.0; memcpy(p, &d, 8); CHECK_EQ_STR(prim_json(7, p, 8), "\"-Infinity\""); }
  { double d = 0.0/0.0; memcpy(p, &d, 8); CHECK_EQ_STR(prim_json(7, p, 8), "\"NaN\""); }
  { float f = 10.11f; memcpy(p, &f, 4); CHECK_EQ_STR(prim_json(14, p, 4), "10.109999656677246"); }
  /* decimals: scale byte, then the little-endian unscaled value */
  { int32_t x = 123456789; p[0] = 4; memcpy(p+1, &x, 4); CHECK_EQ_STR(prim_json(8, p, 5), "\"12345.6789\""); }
  { int32_t x = -123456789; p[0] = 4; memcpy(p+1, &x, 4); CHECK_EQ_STR(prim_json(8, p, 5), "\"-12345.6789\""); }
  { int32_t x = 5; p[0] = 0; memcpy(p+1, &x, 4); CHECK_EQ_STR(prim_json(8, p, 5), "\"5\""); }
  { int32_t x = 5; p[0] = 3; memcpy(p+1, &x, 4); CHECK_EQ_STR(prim_json(8, p, 5), "\"0.005\""); }
  { int64_t x = 123456789987654321LL; p[0] = 9; memcpy(p+1, &x, 8); CHECK_EQ_STR(prim_json(9, p, 9), "\"123456789.987654321\""); }
  {
    /* 9876543210123456789 does not fit int64: 16 bytes LE, sign-extended */
    unsigned __int128 u = (unsigned __int128)9876543210123456789ULL;
    p[0] = 9; for(int i=0; i<16; i++) p[1+i] = (uint8_t)(u >> (8*i));
    CHECK_EQ_STR(prim_json(10, p, 17), "\"9876543210.123456789\"");
    u = (unsigned __int128)0 - u;
    for(int i=0; i<16; i++) p[1+i] = (uint8_t)(u >> (8*i));
    CHECK_EQ_STR(prim_json(10, p, 17), "\"-9876543210.123456789\"");
  }
  { p[0] = 39; memset(p+1, 0, 4); CHECK(strncmp(prim_json(8, p, 5), "ERROR", 5)==0); }
  { int32_t x = 20034; memcpy(p, &x, 4); CHECK_EQ_STR(prim_json(11, p, 4), "\"2024-11-07\""); }
  { int32_t x = -4438; memcpy(p, &x, 4); CHECK_EQ_STR(prim_json(11, p, 4), "\"1957-11-07\""); }
  { int64_t x = 1730982834123456LL; memcpy(p, &x, 8);
    CHECK_EQ_STR(prim_json(12, p, 8), "\"2024-11-07 12:33:54.123456\"");
    CHECK_EQ_STR(prim_json(13, p, 8), "\"2024-11-07 12:33:54.123456\""); }
  { int64_t x = -383397965876544LL; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(12, p, 8), "\"1957-11-07 12:33:54.123456\""); }
  { int64_t x = 1730982834000000LL; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(12, p, 8), "\"2024-11-07 12:33:54\""); }
  { int64_t x = 1730982834120000LL; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(13, p, 8), "\"2024-11-07 12:33:54.120\""); }
  { int64_t x = 1730982834123456789LL; memcpy(p, &x, 8);
    CHECK_EQ_STR(prim_json(18, p, 8), "\"2024-11-07 12:33:54.123456789\"");
    CHECK_EQ_STR(prim_json(19, p, 8), "\"2024-11-07 12:33:54.123456789\""); }
  { int64_t x = 45234123456LL; memcpy(p, &x, 8); CHECK_EQ_STR(prim_json(17, p, 8), "\"12:33:54.123456\""); }
  { int64_t x = -1; memcpy(p, &x, 8); CHECK(strncmp(prim_json(17, p, 8), "ERROR", 5)==0); }
  { static const uint8_t u[16] = {0xf2,0x4f,0x9b,0x64,0x81,0xfa,0x49,0xd1,0xb7,0x4e,0x8c,0x09,0xa6,0xe3,0x1c,0x56};
    CHECK_EQ_STR(prim_json(20, u, 16), "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\""); }
  { static const uint8_t bin[] = {4,0,0,0, 0x0A,0x0B,0x0C,0x0D}; CHECK_EQ_STR(prim_json(15, bin, 8), "\"X'0A0B0C0D'\""); }
  { static const uint8_t bin[] = {0,0,0,0}; CHECK_EQ_STR(prim_json(15, bin, 4), "\"X''\""); }
  { static const uint8_t str[] = {7,0,0,0, 'i','c','e','b','e','r','g'}; CHECK_EQ_STR(prim_json(16, str, 11), "\"iceberg\""); }
  { static const uint8_t str[] = {4,0,0,0, 'a','"','\\','\n'}; CHECK_EQ_STR(prim_json(16, str, 8), "\"a\\\"\\\\\\n\""); }
  /* unknown types are errors, not guesses */
  CHECK(strncmp(prim_json(21, p, 16), "ERROR", 5)==0);
  CHECK(strncmp(prim_json(63, p, 16), "ERROR", 5)==0);
  /* trailing bytes after a complete value are ignored */
  { p[0] = 7; p[1] = 99; CHECK_EQ_STR(prim_json(3, p, 2), "7"); }
}

static void test_short_strings(void){
  bytes v = {{0}, 0};
  b_short(&v, ""); CHECK_EQ_STR(dec(&M0, &v), "\"\"");
  v.n = 0; b_short(&v, "comedy"); CHECK_EQ_STR(dec(&M0, &v), "\"comedy\"");
  char s63[64]; memset(s63, 'x', 63); s63[63] = 0;
  v.n = 0; b_short(&v, s63);
  char want[70]; snprintf(want, sizeof(want), "\"%s\"", s63);
  CHECK_EQ_STR(dec(&M0, &v), want);
  v.n = 0; b_short(&v, "\x01\x1f"); CHECK_EQ_STR(dec(&M0, &v), "\"\\u0001\\u001f\"");
}

static void test_arrays(void){
  bytes kids[3] = {{{0},0},{{0},0},{{0},0}};
  b_short(&kids[0], "comedy"); b_short(&kids[1], "drama"); b_u8(&kids[2], prim(0));
  bytes v = {{0}, 0};
  b_array(&v, 1, 0, 0, kids); CHECK_EQ_STR(dec(&M0, &v), "[]");
  for(int ow=1; ow<=4; ow++){
    for(int large=0; large<=1; large++){
      v.n = 0; b_array(&v, ow, large, 3, kids);
      CHECK_EQ_STR(dec(&M0, &v), "[\"comedy\",\"drama\",null]");
    }
  }
  /* nested: [["comedy","drama"],[]] */
  bytes inner[2] = {{{0},0},{{0},0}};
  b_array(&inner[0], 1, 0, 2, kids);
  b_array(&inner[1], 1, 0, 0, kids);
  v.n = 0; b_array(&v, 2, 0, 2, inner);
  CHECK_EQ_STR(dec(&M0, &v), "[[\"comedy\",\"drama\"],[]]");
  /* 300 elements need is_large */
  static bytes many[300];
  for(int i=0; i<300; i++){ many[i].n = 0; b_u8(&many[i], prim(3)); b_u8(&many[i], (unsigned)(i%100)); }
  v.n = 0; b_array(&v, 2, 1, 300, many);
  CHECK(strncmp(dec(&M0, &v), "[0,1,2,", 7)==0);
  CHECK(strstr(json_out, ",99,0,1,")!=0);
}

static const char *const KEYS[] = {"a", "b", "c", "d", "e"};

static void test_objects(void){
  bytes meta = {{0}, 0};
  b_meta(&meta, 1, 1, 5, KEYS);
  bytes kids[3] = {{{0},0},{{0},0},{{0},0}};
  b_u8(&kids[0], prim(0));                   /* a: null */
  b_short(&kids[1], "iceberg");              /* b */
  b_u8(&kids[2], prim(3)); b_u8(&kids[2], 34); /* d: 34 */
  unsigned ids[3] = {0, 1, 3};
  bytes v = {{0}, 0};
  for(int ow=1; ow<=4; ow++){
    for(int iw=1; iw<=4; iw++){
      for(int large=0; large<=1; large++){
        v.n = 0; b_object(&v, ow, iw, large, 3, ids, kids);
        CHECK_EQ_STR(dec(&meta, &v), "{\"a\":null,\"b\":\"iceberg\",\"d\":34}");
      }
    }
  }
  v.n = 0; b_object(&v, 1, 1, 0, 0, ids, kids); CHECK_EQ_STR(dec(&meta, &v), "{}");
  /* ids out of key order: rendered in key order anyway */
  unsigned rev[3] = {3, 1, 0};
  bytes rkids[3] = {kids[2], kids[1], kids[0]};
  v.n = 0; b_object(&v, 1, 1, 0, 3, rev, rkids);
  CHECK_EQ_STR(dec(&meta, &v), "{\"a\":null,\"b\":\"iceberg\",\"d\":34}");
  /* values laid out in another order than the ids (offsets not increasing) */
  v.n = 0;
  b_u8(&v, obj_hdr(1, 1, 0)); b_u8(&v, 2); b_u8(&v, 0); b_u8(&v, 1);
  b_u8(&v, 2); b_u8(&v, 0); b_u8(&v, 4);                    /* a at 2, b at 0, end 4 */
  b_short(&v, "x"); b_u8(&v, prim(3)); b_u8(&v, 7);
  CHECK_EQ_STR(dec(&meta, &v), "{\"a\":7,\"b\":\"x\"}");
  /* duplicate key (two ids naming the same string, or the same id) */
  unsigned dup[2] = {1, 1};
  v.n = 0; b_object(&v, 1, 1, 0, 2, dup, kids);
  CHECK(strncmp(dec(&meta, &v), "ERROR", 5)==0);
  /* UTF-8 byte order, not locale order: "Z" < "a" < "é" */
  static const char *const k2[] = {"\xc3\xa9", "a", "Z"};
  bytes meta2 = {{0}, 0};
  b_meta(&meta2, 2, 0, 3, k2);
  unsigned ids2[3] = {0, 1, 2};
  bytes k3[3] = {{{0},0},{{0},0},{{0},0}};
  b_u8(&k3[0], prim(1)); b_u8(&k3[1], prim(2)); b_u8(&k3[2], prim(0));
  v.n = 0; b_object(&v, 1, 1, 0, 3, ids2, k3);
  CHECK_EQ_STR(dec(&meta2, &v), "{\"Z\":null,\"a\":false,\"\xc3\xa9\":true}");
  /* nested object in array in object: {"c":[{"e":1}]} */
  bytes leaf = {{0},0}; b_u8(&leaf, prim(3)); b_u8(&leaf, 1);
  unsigned ide = 4, idc = 2;
  bytes o1 = {{0},0}; b_object(&o1, 1, 1, 0, 1, &ide, &leaf);
  bytes a1 = {{0},0}; b_array(&a1, 1, 0, 1, &o1);
  v.n = 0; b_object(&v, 1, 1, 0, 1, &idc, &a1);
  CHECK_EQ_STR(dec(&meta, &v), "{\"c\":[{\"e\":1}]}");
  /* metadata with 2-, 3- and 4-byte offsets */
  for(int w=2; w<=4; w++){
    bytes mw = {{0}, 0};
    b_meta(&mw, w, 1, 5, KEYS);
    v.n = 0; b_object(&v, 1, 1, 0, 3, ids, kids);
    CHECK_EQ_STR(dec(&mw, &v), "{\"a\":null,\"b\":\"iceberg\",\"d\":34}");
  }
}

static void test_object_api(void){
  bytes meta = {{0}, 0};
  b_meta(&meta, 1, 1, 5, KEYS);
  bytes kids[2] = {{{0},0},{{0},0}};
  b_short(&kids[0], "x"); b_u8(&kids[1], prim(1));
  unsigned ids[2] = {2, 4};
  bytes v = {{0}, 0};
  b_object(&v, 1, 1, 0, 2, ids, kids);
  col_error e; col_error_clear(&e);
  pq_variant_meta m;
  pq_variant_object o;
  CHECK_EQ_INT(pq_variant_meta_parse(meta.p, meta.n, &m, &e), COL_OK);
  CHECK_EQ_INT(m.size, meta.n);
  CHECK_EQ_INT(pq_variant_basic_type(v.p, v.n), 2);
  CHECK_EQ_INT(pq_variant_basic_type(v.p, 0), -1);
  CHECK_EQ_INT(pq_variant_object_open(v.p, v.n, &o, &e), COL_OK);
  CHECK_EQ_INT(o.count, 2);
  const uint8_t *key, *val; size_t klen, vlen;
  CHECK_EQ_INT(pq_variant_object_field(&o, &m, 1, &key, &klen, &val, &vlen, &e), COL_OK);
  CHECK(klen==1 && key[0]=='e' && val[0]==prim(1));
  CHECK(pq_variant_object_field(&o, &m, 2, &key, &klen, &val, &vlen, &e)!=COL_OK);
  col_error_clear(&e);
  CHECK(pq_variant_object_open(kids[0].p, kids[0].n, &o, &e)!=COL_OK);
  CHECK(pq_variant_key_cmp((const uint8_t*)"a", 1, (const uint8_t*)"ab", 2) < 0);
  CHECK(pq_variant_key_cmp((const uint8_t*)"b", 1, (const uint8_t*)"ab", 2) > 0);
  CHECK(pq_variant_key_cmp((const uint8_t*)"", 0, (const uint8_t*)"", 0) == 0);
}

/* Every strict prefix of a valid (meta, value) must fail cleanly. */
static void check_prefixes(const bytes *meta, const bytes *val){
  bytes cut;
  CHECK_EQ_INT(decode(meta, val), COL_OK);
  for(size_t k=0; k<val->n; k++){
    memcpy(cut.p, val->p, k); cut.n = k;
    int rc = decode(meta, &cut);
    if( rc==COL_OK ) fprintf(stderr, "  value prefix %zu of %zu decoded: %s\n", k, val->n, json_out);
    CHECK(rc==COL_ERROR);
  }
  for(size_t k=0; k<meta->n; k++){
    memcpy(cut.p, meta->p, k); cut.n = k;
    int rc = decode(&cut, val);
    if( rc==COL_OK ) fprintf(stderr, "  metadata prefix %zu of %zu decoded\n", k, meta->n);
    CHECK(rc==COL_ERROR);
  }
}

static void test_truncation(void){
  bytes meta = {{0}, 0};
  b_meta(&meta, 2, 1, 5, KEYS);
  bytes leaf[4] = {{{0},0},{{0},0},{{0},0},{{0},0}};
  static const uint8_t str[] = {16<<2, 3,0,0,0, 'a','b','c'};
  b_raw(&leaf[0], str, sizeof(str));
  b_u8(&leaf[1], prim(10)); b_u8(&leaf[1], 2); for(int i=0; i<16; i++) b_u8(&leaf[1], (unsigned)i);
  b_short(&leaf[2], "hey");
  b_u8(&leaf[3], prim(6)); b_le(&leaf[3], 42, 8);
  bytes arr = {{0},0}; b_array(&arr, 2, 1, 4, leaf);
  bytes kids[2] = {arr, leaf[3]};
  unsigned ids[2] = {0, 4};
  bytes v = {{0},0}; b_object(&v, 3, 2, 1, 2, ids, kids);
  check_prefixes(&meta, &v);
  for(int i=0; i<4; i++) check_prefixes(&meta, &leaf[i]);
}

static void test_hostile(void){
  bytes meta = {{0}, 0};
  b_meta(&meta, 1, 1, 5, KEYS);
  bytes v = {{0}, 0};
  /* field id past the dictionary */
  bytes kid = {{0},0}; b_u8(&kid, prim(0));
  unsigned bad = 5;
  b_object(&v, 1, 1, 0, 1, &bad, &kid);
  CHECK(decode(&meta, &v)==COL_ERROR && strstr(json_out, "dictionary"));
  /* element offset beyond the values region */
  v.n = 0; b_u8(&v, arr_hdr(1, 0)); b_u8(&v, 2); b_u8(&v, 0); b_u8(&v, 5); b_u8(&v, 2);
  b_u8(&v, prim(0)); b_u8(&v, prim(0));
  CHECK(decode(&M0, &v)==COL_ERROR);
  /* last offset past the end */
  v.n = 0; b_u8(&v, arr_hdr(1, 0)); b_u8(&v, 1); b_u8(&v, 0); b_u8(&v, 200); b_u8(&v, prim(0));
  CHECK(decode(&M0, &v)==COL_ERROR);
  /* a huge is_large count with 4-byte offsets must fail before allocating */
  v.n = 0; b_u8(&v, obj_hdr(4, 4, 1)); b_le(&v, 0xFFFFFFFFu, 4); b_le(&v, 0, 8);
  CHECK(decode(&meta, &v)==COL_ERROR);
  /* a string whose 4-byte length lies */
  v.n = 0; b_u8(&v, prim(16)); b_le(&v, 0xFFFFFFFFu, 4); b_raw(&v, "abc", 3);
  CHECK(decode(&M0, &v)==COL_ERROR);
  /* metadata: wrong version, lying dictionary size, offsets out of order */
  bytes m = {{0},0};
  b_u8(&m, 2); b_u8(&m, 0); b_u8(&m, 0);
  v.n = 0; b_u8(&v, prim(0));
  CHECK(decode(&m, &v)==COL_ERROR && strstr(json_out, "version"));
  m.n = 0; b_u8(&m, 1 | 3<<6); b_le(&m, 0xFFFFFFFFu, 4); b_le(&m, 0, 4);
  CHECK(decode(&m, &v)==COL_ERROR);
  m.n = 0; b_u8(&m, 1); b_u8(&m, 2); b_u8(&m, 0); b_u8(&m, 3); b_u8(&m, 2); b_raw(&m, "ab", 2);
  v.n = 0; b_object(&v, 1, 1, 0, 1, (unsigned[]){0}, &kid);
  CHECK(decode(&m, &v)==COL_ERROR);     /* key 0 runs 0..3 of 2 bytes */
  /* key 1 runs 3..2: reversed */
  v.n = 0; b_object(&v, 1, 1, 0, 1, (unsigned[]){1}, &kid);
  CHECK(decode(&m, &v)==COL_ERROR);
  /* an empty value */
  v.n = 0;
  CHECK(decode(&M0, &v)==COL_ERROR);
}

static void test_depth(void){
  /* [[[...null...]]] nested 1000 deep: refused at the cap, no stack blowup */
  static bytes v;
  v.n = 0;
  int depth = 1000;
  for(int i=0; i<depth; i++){ b_u8(&v, arr_hdr(2, 0)); b_u8(&v, 1); b_le(&v, 0, 2); b_le(&v, 0, 2); }
  b_u8(&v, prim(0));
  /* fix the last offsets: each array's single child spans the rest */
  size_t pos = 0;
  for(int i=0; i<depth; i++){
    size_t rest = v.n - (pos + 6);
    v.p[pos+4] = (uint8_t)(rest & 0xff); v.p[pos+5] = (uint8_t)(rest >> 8);
    pos += 6;
  }
  CHECK(decode(&M0, &v)==COL_ERROR && strstr(json_out, "deeper"));
  /* just under the cap decodes */
  v.n = 0;
  depth = PQ_VARIANT_MAX_DEPTH;
  for(int i=0; i<depth; i++){ b_u8(&v, arr_hdr(2, 0)); b_u8(&v, 1); b_le(&v, 0, 2); b_le(&v, 0, 2); }
  b_u8(&v, prim(0));
  pos = 0;
  for(int i=0; i<depth; i++){
    size_t rest = v.n - (pos + 6);
    v.p[pos+4] = (uint8_t)(rest & 0xff); v.p[pos+5] = (uint8_t)(rest >> 8);
    pos += 6;
  }
  CHECK_EQ_INT(decode(&M0, &v), COL_OK);
}

static void test_aliasing(void){
  /* Arrays whose 255 offsets all point at the same child, nested 8 deep:
  ** 255^8 values if followed. Must stop with an error. */
  static bytes v;
  v.n = 0;
  int levels = 8;
  for(int i=0; i<levels; i++){
    b_u8(&v, arr_hdr(4, 0)); b_u8(&v, 255);
    size_t rest_at = v.n;
    for(int k=0; k<256; k++) b_le(&v, 0, 4);
    (void)rest_at;
  }
  b_u8(&v, prim(0));
  /* each level's last offset = bytes after its header */
  size_t pos = 0;
  for(int i=0; i<levels; i++){
    size_t hdr = 2 + 256*4;
    size_t rest = v.n - (pos + hdr);
    memcpy(v.p + pos + 2 + 255*4, &(uint32_t){(uint32_t)rest}, 4);
    pos += hdr;
  }
  CHECK(decode(&M0, &v)==COL_ERROR && strstr(json_out, "overlap"));
  /* a single level of aliasing to a small child is fine */
  v.n = 0;
  b_u8(&v, arr_hdr(1, 0)); b_u8(&v, 3); b_u8(&v, 0); b_u8(&v, 0); b_u8(&v, 0); b_u8(&v, 1);
  b_u8(&v, prim(1));
  CHECK_EQ_STR(dec(&M0, &v), "[true,true,true]");
}

static void test_shared_limits(void){
  /* One allowance spent over several calls (the parts of one shredded
  ** value): it runs out, where fresh limits per call would not. */
  static const uint8_t v[] = {3<<2 | 1, 'a','b','c'};
  pq_variant_meta m;
  col_error e; col_error_clear(&e);
  CHECK_EQ_INT(pq_variant_meta_parse(M0.p, M0.n, &m, &e), COL_OK);
  strbuf out = {0};
  pq_variant_limits lim;
  pq_variant_limits_init(&lim, sizeof(v), 0);
  int rc = COL_OK, calls = 0;
  while( rc==COL_OK && calls < 10000 ){
    rc = pq_variant_to_json(&m, v, sizeof(v), 0, &lim, &out, &e);
    calls++;
  }
  CHECK(rc==COL_ERROR && calls > 1 && calls < 1000);
  CHECK(e.msg[0]!=0);
  for(int i=0; i<100; i++){
    col_error_clear(&e);
    CHECK_EQ_INT(pq_variant_to_json(&m, v, sizeof(v), 0, NULL, &out, &e), COL_OK);
  }
  strbuf_free(&out);
}

/* ---- upstream's expected values --------------------------------------- */
static const char *corpus_dir(void){
  static char buf[1024];
  const char *s = getenv("COLUMNAR_SHARED");
  snprintf(buf, sizeof(buf), "%s/testdata/parquet-testing/shredded_variant", s && *s ? s : "../shared");
  DIR *d = opendir(buf);
  if( d ){ closedir(d); return buf; }
  snprintf(buf, sizeof(buf), "/work/shared/testdata/parquet-testing/shredded_variant");
  d = opendir(buf);
  if( d ){ closedir(d); return buf; }
  return 0;
}

static int read_file(const char *path, bytes *b){
  FILE *f = fopen(path, "rb");
  if( !f ) return 0;
  b->n = fread(b->p, 1, sizeof(b->p), f);
  fclose(f);
  return 1;
}

static void test_corpus(void){
  const char *dir = corpus_dir();
  if( !dir ){ printf("  shredded_variant corpus: skipped\n"); return; }
  DIR *d = opendir(dir);
  struct dirent *e;
  int checked = 0, bad = 0;
  while( (e = readdir(d))!=0 ){
    const char *suffix = ".parquet.golden.jsonl";
    size_t n = strlen(e->d_name), sn = strlen(suffix);
    if( n<=sn || strcmp(e->d_name+n-sn, suffix) ) continue;
    char path[2048], base[300];
    if( n-sn >= sizeof(base) ) continue;
    memcpy(base, e->d_name, n-sn); base[n-sn] = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    FILE *g = fopen(path, "r");
    if( !g ) continue;
    static char line[100000];
    for(int row=0; fgets(line, sizeof(line), g); row++){
      static bytes bin, meta, val;
      snprintf(path, sizeof(path), "%s/%s_row-%d.variant.bin", dir, base, row);
      if( !read_file(path, &bin) ) continue;
      char *want = strstr(line, ",\"var\":");
      if( !want ) continue;
      want += 7;
      size_t wl = strlen(want);
      if( wl && want[wl-1]=='\n' ) wl--;
      if( wl && want[wl-1]=='}' ) wl--;     /* the line's own closing brace */
      want[wl] = 0;
      col_error er; col_error_clear(&er);
      pq_variant_meta m;
      if( pq_variant_meta_parse(bin.p, bin.n, &m, &er) ){ bad++; fprintf(stderr, "  %s: %s\n", path, er.msg); continue; }
      meta.n = m.size; memcpy(meta.p, bin.p, m.size);
      val.n = bin.n - m.size; memcpy(val.p, bin.p + m.size, val.n);
      int rc = decode(&meta, &val);
      checked++;
      if( rc!=COL_OK || strcmp(json_out, want) ){
        bad++;
        fprintf(stderr, "  %s: got %s, golden %s\n", path, json_out, want);
      }
    }
    fclose(g);
  }
  closedir(d);
  printf("  shredded_variant corpus: %d variant.bin values checked, %d differ\n", checked, bad);
  CHECK(checked > 100);
  CHECK_EQ_INT(bad, 0);
}

int main(void){
  b_empty_meta(&M0);
  RUN(test_primitives);
  RUN(test_short_strings);
  RUN(test_arrays);
  RUN(test_objects);
  RUN(test_object_api);
  RUN(test_truncation);
  RUN(test_hostile);
  RUN(test_depth);
  RUN(test_aliasing);
  RUN(test_shared_limits);
  RUN(test_corpus);
  return unit_report("variant");
}
