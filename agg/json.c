/*
** json.c — JSON fragments of json_group_array and json_group_object; see
** json.h.
*/
#include "json.h"
#include "value.h"
#include <string.h>

/* jsonAppendString's escapes for the bytes below 0x20 that have a short
** one; the others are \u00XX. */
static const char json_short[32] = {
  0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r', 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

/* Bytes z[0..n) take in double quotes. */
static size_t json_quoted_len(const char *z, uint32_t n){
  size_t m = 2;
  for(uint32_t i=0; i<n; i++){
    unsigned char c = (unsigned char)z[i];
    if( c=='"' || c=='\\' ) m += 2;
    else if( c<0x20 ) m += json_short[c] ? 2 : 6;
    else m++;
  }
  return m;
}

/* z[0..n) in double quotes at q; returns the end. */
static char *json_quote(const char *z, uint32_t n, char *q){
  static const char hex[] = "0123456789abcdef";
  *q++ = '"';
  for(uint32_t i=0; i<n; i++){
    unsigned char c = (unsigned char)z[i];
    if( c=='"' || c=='\\' ){ *q++ = '\\'; *q++ = (char)c; }
    else if( c>=0x20 ) *q++ = (char)c;
    else if( json_short[c] ){ *q++ = '\\'; *q++ = json_short[c]; }
    else{
      *q++ = '\\'; *q++ = 'u'; *q++ = '0'; *q++ = '0';
      *q++ = hex[c>>4]; *q++ = hex[c&0xf];
    }
  }
  *q++ = '"';
  return q;
}

/* A non-TEXT, non-BLOB value's JSON into buf (PRED_NUM_TEXT_MAX bytes). */
static int json_scalar(const pred_value *x, const col_dialect *d, char *buf){
  switch( x->type ){
    case CV_INT: return agg_int_to_text(x->i, buf);
    case CV_REAL:
      return d && d->json_real_text ? d->json_real_text(x->f, buf, PRED_NUM_TEXT_MAX)
                                    : pred_real_to_text(x->f, buf, PRED_NUM_TEXT_MAX);
    default: memcpy(buf, "null", 5); return 4;
  }
}

/* x's JSON into the arena as *out, after "label": when member (label
** NULL: nothing before the colon), in one allocation. */
static int json_build(int member, const char *label, uint32_t ln, const pred_value *x,
                      const col_dialect *d, col_arena *a, pred_value *out){
  char buf[PRED_NUM_TEXT_MAX];
  size_t np = member ? (label ? json_quoted_len(label, ln) : 0) + 1 : 0, m;
  int n = 0;
  if( x->type==CV_TEXT ) m = json_quoted_len(x->p, x->n);
  else{ n = json_scalar(x, d, buf); m = (size_t)n; }
  if( np + m > AGG_JSON_MAX ) return AGG_JSON_TOOBIG;
  char *q = col_arena_alloc(a, np + m ? np + m : 1);
  if( q==0 ) return -1;
  char *e = q;
  if( member ){
    if( label ) e = json_quote(label, ln, e);
    *e++ = ':';
  }
  if( x->type==CV_TEXT ) e = json_quote(x->p, x->n, e);
  else{ memcpy(e, buf, (size_t)n); e += n; }
  memset(out, 0, sizeof(*out));
  out->type = CV_TEXT; out->p = q; out->n = (uint32_t)(e - q);
  return 0;
}

int agg_json_value(const pred_value *x, const col_dialect *d, col_arena *a,
                   pred_value *out){
  if( x->type==CV_BLOB ){ *out = *x; return 0; }
  return json_build(0, 0, 0, x, d, a, out);
}

int agg_json_member(const char *label, uint32_t ln, const pred_value *x,
                    const col_dialect *d, col_arena *a, pred_value *out){
  memset(out, 0, sizeof(*out));
  if( label==0 && d && d->json_null_label_skip ) return 0;
  if( x->type==CV_BLOB ){ *out = *x; return 0; }
  if( label && d && d->json_label_cstr ){
    const char *nul = memchr(label, 0, ln);
    if( nul ) ln = (uint32_t)(nul - label);
  }
  return json_build(1, label, ln, x, d, a, out);
}

const char *agg_json_blob_error(const col_dialect *d){
  return d && d->json_jsonb
       ? "JSON cannot hold BLOB values (group_by does not read a BLOB as JSONB; "
         "SQLite's own GROUP BY does)"
       : "JSON cannot hold BLOB values";
}
