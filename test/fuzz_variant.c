/*
** fuzz_variant.c — fuzz target for the Variant binary decoder
** (reader/parquet/variant.c).
**
** Input: metadata followed by value, the layout of upstream's
** *.variant.bin files (so they serve as seeds as they are). Metadata is
** self-delimiting: what pq_variant_meta_parse says it occupies is split
** off and the rest is the value. When the front does not parse as
** metadata, the whole input is decoded as a value against a fixed
** dictionary, so value bytes get fuzzed even when metadata bytes break.
**
** Properties beyond "no crash, no sanitizer report": a failure carries a
** message; a success is valid JSON (checked by a small validator here, not
** by the decoder's own code), decodes the same twice, and for an object
** every member opened through the object API decodes on its own to text
** that appears in the whole.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/parquet/variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- a strict-enough JSON validator ---------------------------------- */
typedef struct jp { const char *p, *end; int depth; } jp;

static int j_value(jp *j);
static int j_string(jp *j){
  if( j->p>=j->end || *j->p!='"' ) return 0;
  for(j->p++; j->p<j->end; j->p++){
    unsigned char c = (unsigned char)*j->p;
    if( c=='"' ){ j->p++; return 1; }
    if( c<0x20 ) return 0;
    if( c=='\\' ){
      j->p++;
      if( j->p>=j->end ) return 0;
      if( *j->p=='u' ){
        if( j->end - j->p < 5 ) return 0;
        for(int k=1; k<=4; k++){
          char h = j->p[k];
          if( !((h>='0'&&h<='9')||(h>='a'&&h<='f')||(h>='A'&&h<='F')) ) return 0;
        }
        j->p += 4;
      }else if( !strchr("\"\\/bfnrt", *j->p) ){
        return 0;
      }
    }
  }
  return 0;
}
static int j_number(jp *j){
  const char *s = j->p;
  if( j->p<j->end && *j->p=='-' ) j->p++;
  if( j->p>=j->end || *j->p<'0' || *j->p>'9' ) return 0;
  if( *j->p=='0' ) j->p++; else while( j->p<j->end && *j->p>='0' && *j->p<='9' ) j->p++;
  if( j->p<j->end && *j->p=='.' ){
    j->p++;
    if( j->p>=j->end || *j->p<'0' || *j->p>'9' ) return 0;
    while( j->p<j->end && *j->p>='0' && *j->p<='9' ) j->p++;
  }
  if( j->p<j->end && (*j->p=='e' || *j->p=='E') ){
    j->p++;
    if( j->p<j->end && (*j->p=='+' || *j->p=='-') ) j->p++;
    if( j->p>=j->end || *j->p<'0' || *j->p>'9' ) return 0;
    while( j->p<j->end && *j->p>='0' && *j->p<='9' ) j->p++;
  }
  return j->p > s;
}
static int j_lit(jp *j, const char *w){
  size_t k = strlen(w);
  if( (size_t)(j->end - j->p) < k || memcmp(j->p, w, k) ) return 0;
  j->p += k;
  return 1;
}
static int j_value(jp *j){
  if( j->p>=j->end ) return 0;
  if( ++j->depth > 1000 ) return 0;
  int ok;
  switch( *j->p ){
    case '"': ok = j_string(j); break;
    case 'n': ok = j_lit(j, "null"); break;
    case 't': ok = j_lit(j, "true"); break;
    case 'f': ok = j_lit(j, "false"); break;
    case '[':
      j->p++;
      ok = 1;
      if( j->p<j->end && *j->p==']' ){ j->p++; break; }
      for(;;){
        if( !j_value(j) ){ ok = 0; break; }
        if( j->p<j->end && *j->p==',' ){ j->p++; continue; }
        if( j->p<j->end && *j->p==']' ){ j->p++; break; }
        ok = 0; break;
      }
      break;
    case '{':
      j->p++;
      ok = 1;
      if( j->p<j->end && *j->p=='}' ){ j->p++; break; }
      for(;;){
        if( !j_string(j) || j->p>=j->end || *j->p!=':' ){ ok = 0; break; }
        j->p++;
        if( !j_value(j) ){ ok = 0; break; }
        if( j->p<j->end && *j->p==',' ){ j->p++; continue; }
        if( j->p<j->end && *j->p=='}' ){ j->p++; break; }
        ok = 0; break;
      }
      break;
    default: ok = j_number(j); break;
  }
  j->depth--;
  return ok;
}
static int json_ok(const char *p, size_t n){
  jp j = { p, p+n, 0 };
  return j_value(&j) && j.p==j.end;
}

/* The dictionary used when the input's front is not metadata. */
static const uint8_t FIXED_META[] = { 0x11, 5, 0, 1, 2, 3, 4, 5, 'a','b','c','d','e' };

static int contains(const char *h, size_t hn, const char *n, size_t nn){
  if( nn==0 ) return 1;
  for(size_t i=0; i+nn<=hn; i++) if( memcmp(h+i, n, nn)==0 ) return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  pq_variant_meta m;
  col_error e;
  col_error_clear(&e);
  const uint8_t *v;
  size_t n;
  uint8_t *own = 0;
  if( pq_variant_meta_parse(data, size, &m, &e)==COL_OK ){
    v = data + m.size; n = size - m.size;
  }else{
    if( e.msg[0]==0 ) abort();
    col_error_clear(&e);
    if( pq_variant_meta_parse(FIXED_META, sizeof(FIXED_META), &m, &e) ) abort();
    v = data; n = size;
  }
  /* Exact-size copy so a read past the value is an ASan report. */
  own = malloc(n ? n : 1);
  if( !own ) return 0;
  if( n ) memcpy(own, v, n);
  v = own;
  strbuf a = {0}, b = {0};
  col_error_clear(&e);
  int rc = pq_variant_to_json(&m, v, n, 0, NULL, &a, &e);
  if( rc!=COL_OK ){
    if( e.msg[0]==0 ) abort();
    goto done;
  }
  if( a.oom ) goto done;
  if( pq_variant_basic_type(v, n)!=(v[0]&3) ) abort();
  if( !json_ok(a.p, a.n) ) abort();
  col_error_clear(&e);
  if( pq_variant_to_json(&m, v, n, 0, NULL, &b, &e)!=COL_OK ) abort();
  if( b.n!=a.n || (a.n && memcmp(a.p, b.p, a.n)) ) abort();
  if( pq_variant_basic_type(v, n)==2 ){
    pq_variant_object o;
    if( pq_variant_object_open(v, n, &o, &e)!=COL_OK ) abort();
    for(uint32_t i=0; i<o.count; i++){
      const uint8_t *key, *val; size_t klen, vlen;
      if( pq_variant_object_field(&o, &m, i, &key, &klen, &val, &vlen, &e)!=COL_OK ) abort();
      strbuf c = {0};
      /* the whole value's allowance: a member may alias more than its own
      ** bytes would allow while the whole stays within bounds */
      pq_variant_limits lim;
      pq_variant_limits_init(&lim, n, 0);
      if( pq_variant_to_json(&m, val, vlen, 1, &lim, &c, &e)!=COL_OK ) abort();
      if( !c.oom && !contains(a.p, a.n, c.p, c.n) ) abort();
      strbuf_free(&c);
    }
  }
done:
  strbuf_free(&a);
  strbuf_free(&b);
  free(own);
  return 0;
}
