/*
** fuzz_json_extract.c — libFuzzer target for group_by's json_extract, ->
** and ->> (agg/json_extract.c): a path compiled, then looked up in a
** document, both any bytes.
**
**   make build/san/fuzz/fuzz_json_extract && build/san/fuzz/fuzz_json_extract test/corpus
**
** Input layout: byte 0 picks the path's kind (json_extract's, the text or
** the integer after ->) and the result's form (SQL value or JSON text);
** the path follows up to a NUL byte, the document after it. Checked: no crash,
** no read outside the document, nesting bounded (a document of 100000 '['
** is refused, not a stack overflow), and properties of the answer: a text
** result lies in the document or the arena, a document is found whole by
** '$', and the JSON form of '$' is the document without its whitespace,
** which is a fixed point (found again whole).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../agg/json_extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<1 ) return 0;
  uint8_t mode = data[0];
  /* the path runs to the first NUL (or the end), the document after it */
  const char *path = (const char*)data+1;
  const char *nul = memchr(path, 0, size-1);
  uint32_t npath = (uint32_t)(nul ? (size_t)(nul-path) : size-1);
  const char *doc = nul ? nul+1 : path+npath;
  uint32_t ndoc = (uint32_t)((const char*)data+size - doc);
  int kind = (mode & 3)==3 ? AGG_JSON_EXTRACT : (mode & 3);
  int as = (mode>>2) & 1 ? AGG_JSON_AS_JSON : AGG_JSON_AS_SQL;
  col_dialect d;
  memset(&d, 0, sizeof(d));
  col_arena a;
  col_arena_init(&a);

  agg_json_path p;
  const char *why = 0;
  int rc = agg_json_path_compile(path, npath, kind, &p, &why);
  if( rc==0 ){
    pred_value out;
    rc = agg_json_extract(doc, ndoc, &p, as, &d, &a, &out);
    if( rc!=0 && rc!=-1 && rc!=AGG_JSON_MALFORMED && rc!=AGG_JSON_REFUSED ) abort();
    if( rc==0 && out.type==CV_TEXT && out.n>ndoc + 4u ) abort();
  }else if( rc==1 && why==0 ){
    abort();
  }
  agg_json_path_free(&p);

  /* '$' finds a valid document whole; its JSON form is the minified text,
  ** which is valid and minifies to itself */
  agg_json_path whole;
  if( agg_json_path_compile("$", 1, AGG_JSON_EXTRACT, &whole, &why)==0 ){
    pred_value j;
    if( agg_json_extract(doc, ndoc, &whole, AGG_JSON_AS_JSON, &d, &a, &j)==0 ){
      if( j.type!=CV_TEXT ) abort();
      pred_value j2;
      char *copy = malloc(j.n ? j.n : 1);
      if( copy ){
        memcpy(copy, j.p, j.n);
        if( agg_json_extract(copy, j.n, &whole, AGG_JSON_AS_JSON, &d, &a, &j2)!=0 ) abort();
        if( j2.n!=j.n || memcmp(j2.p, copy, j.n)!=0 ) abort();
        free(copy);
      }
    }
    agg_json_path_free(&whole);
  }
  col_arena_free(&a);
  return 0;
}
