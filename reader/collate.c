/*
** collate.c — how SQLite orders two values: pred_value_compare.
**
**   SELECT 1 < 1.5, 2 < 'a', 'a' < x'00', 'ABC' = 'abc' COLLATE NOCASE;
**   -- 1, 1, 1, 1: numbers < TEXT < BLOB, collations apply to TEXT only
**
** Follows sqlite3MemCompare: NULL first (two NULLs equal), then INTEGER and
** REAL compared by numeric value, exactly, then TEXT under the collation,
** then BLOB by memcmp and length. The collations are SQLite's three
** built-ins, with their quirks kept:
**   BINARY  memcmp over the shorter length, then the shorter is less.
**   NOCASE  ASCII-only case folding; the folding loop stops at a NUL byte
**           both strings share there, after which only the lengths decide
**           ("a\0x" = "a\0y" under NOCASE). That is sqlite3StrNICmp.
**   RTRIM   trailing ' ' (0x20 only) ignored, then BINARY.
** And COLL_ANY (scan.h), no collation of SQLite's: equal where one of the
** three says equal.
*/
#include "predicate.h"
#include <string.h>

static int sign_of(long long d){ return (d>0) - (d<0); }

static int bytes_compare(const char *a, uint32_t na, const char *b, uint32_t nb){
  uint32_t n = na<nb ? na : nb;
  int rc = n ? memcmp(a, b, n) : 0;
  if( rc ) return rc<0 ? -1 : 1;
  return sign_of((long long)na - (long long)nb);
}

static unsigned char fold(unsigned char c){
  return c>='A' && c<='Z' ? (unsigned char)(c+32) : c;
}

static int nocase_compare(const char *a, uint32_t na, const char *b, uint32_t nb){
  const unsigned char *x = (const unsigned char*)a, *y = (const unsigned char*)b;
  long long left = na<nb ? na : nb;
  int r;
  while( left-- > 0 && *x!=0 && fold(*x)==fold(*y) ){ x++; y++; }
  r = left<0 ? 0 : (int)fold(*x) - (int)fold(*y);
  if( r ) return sign_of(r);
  return sign_of((long long)na - (long long)nb);
}

static int rtrim_compare(const char *a, uint32_t na, const char *b, uint32_t nb){
  while( na && a[na-1]==' ' ) na--;
  while( nb && b[nb-1]==' ' ) nb--;
  return bytes_compare(a, na, b, nb);
}

int pred_text_compare(const char *a, uint32_t na, const char *b, uint32_t nb,
                      pred_coll coll){
  switch( coll ){
    case COLL_NOCASE: return nocase_compare(a, na, b, nb);
    case COLL_RTRIM:  return rtrim_compare(a, na, b, nb);
    case COLL_ANY: {
      int c = bytes_compare(a, na, b, nb);
      if( c==0 || nocase_compare(a, na, b, nb)==0 || rtrim_compare(a, na, b, nb)==0 ) return 0;
      return c;
    }
    default:          return bytes_compare(a, na, b, nb);
  }
}

int pred_value_compare(const pred_value *a, const pred_value *b,
                       pred_coll coll){
  int ta = a->type, tb = b->type;
  if( ta==CV_NULL || tb==CV_NULL ) return (tb==CV_NULL) - (ta==CV_NULL);
  if( ta==CV_INT || ta==CV_REAL || tb==CV_INT || tb==CV_REAL ){
    if( ta==CV_INT ){
      if( tb==CV_INT ) return (a->i > b->i) - (a->i < b->i);
      if( tb==CV_REAL ) return pred_int_real_compare(a->i, b->f);
      return -1;
    }
    if( ta==CV_REAL ){
      if( tb==CV_REAL ) return (a->f > b->f) - (a->f < b->f);
      if( tb==CV_INT ) return -pred_int_real_compare(b->i, a->f);
      return -1;
    }
    return +1;
  }
  if( ta==CV_TEXT || tb==CV_TEXT ){
    if( ta!=CV_TEXT ) return +1;
    if( tb!=CV_TEXT ) return -1;
    return pred_text_compare(a->p, a->n, b->p, b->n, coll);
  }
  return bytes_compare(a->p, a->n, b->p, b->n);
}
