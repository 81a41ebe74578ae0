/*
** fuzz_like.c — libFuzzer target for pred_like / pred_glob (and the number
** text forms LIKE uses).
**
**   make build/san/fuzz/fuzz_like && build/san/fuzz/fuzz_like test/corpus
**
** Input layout: byte 0 picks the mode (LIKE or GLOB, case sensitivity, one
** of a few ESCAPE characters), byte 1 where the rest splits into pattern and
** string. Any bytes go: invalid UTF-8, NULs, unterminated '[' classes.
** Checked: no crash, no hang (the matcher's work is bounded by pattern x
** string steps; lengths are capped so one input stays well under a second
** even at that bound), and two properties that hold for SQLite's matcher:
** a case-sensitive LIKE match is also a case-insensitive one, and a pattern
** matches itself when it holds no wildcard or escape bytes; and the simple
** shapes' search ('%lit%', 'lit%') agrees with the matcher. Eight bytes
** also go through pred_real_to_text / pred_int_to_text, whose output must
** fit PRED_NUM_TEXT_MAX.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../reader/predicate.h"

static const uint32_t fuzz_escapes[] = { 0, '\\', '%', '_', 'a', 0xE9, '[', 0xFFFD };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size<2 ) return 0;
  uint8_t mode = data[0];
  size_t rest = size-2;
  size_t cut = rest ? (size_t)data[1] * rest / 255 : 0;
  const char *pat = (const char*)data+2;
  const char *s = pat+cut;
  uint32_t npat = (uint32_t)(cut < 1024 ? cut : 1024);
  uint32_t ns = (uint32_t)(rest-cut < 8192 ? rest-cut : 8192);
  uint32_t esc = fuzz_escapes[(mode>>2) & 7];
  /* bit 5: U+FFFE/U+FFFF read as themselves (SQLite after 3.40) */
  col_dialect dialect;
  memset(&dialect, 0, sizeof(dialect));
  dialect.utf8_keep_nonchar = (mode>>5) & 1;
  const col_dialect *d = &dialect;

  if( mode & 1 ){
    (void)pred_glob(pat, npat, s, ns, d);
  }else{
    int cs = pred_like(pat, npat, s, ns, 1, esc, d);
    int ci = pred_like(pat, npat, s, ns, 0, esc, d);
    if( cs && !ci ) abort();
    /* '%lit%' and 'lit%' take a search of their own: it must agree */
    const char *lit;
    uint32_t m;
    int shape = pred_like_shape(pat, npat, esc, &lit, &m);
    if( shape!=PRED_LIKE_GENERAL ){
      if( pred_like_simple(shape, lit, m, s, ns, 1)!=cs ) abort();
      if( pred_like_simple(shape, lit, m, s, ns, 0)!=ci ) abort();
    }
  }

  /* A pattern without special bytes is a plain string: it matches itself. */
  {
    int plain = 1;
    for(uint32_t k=0; k<npat && plain; k++){
      unsigned char c = (unsigned char)pat[k];
      if( c=='%' || c=='_' || c=='*' || c=='?' || c=='[' || c>=0x80 ) plain = 0;
      if( esc && c==esc ) plain = 0;
    }
    if( plain ){
      if( !pred_like(pat, npat, pat, npat, 1, esc, d) ) abort();
      if( !pred_glob(pat, npat, pat, npat, d) ) abort();
    }
  }

  if( size>=10 ){
    double d;
    int64_t i;
    char buf[PRED_NUM_TEXT_MAX];
    memcpy(&d, data+2, 8);
    memcpy(&i, data+2, 8);
    if( pred_real_to_text(d, buf, sizeof(buf)) >= PRED_NUM_TEXT_MAX ) abort();
    if( pred_int_to_text(i, buf, sizeof(buf)) >= PRED_NUM_TEXT_MAX ) abort();
  }
  return 0;
}
