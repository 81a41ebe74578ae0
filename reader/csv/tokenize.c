/*
** tokenize.c — the CSV record splitter.
**
** The hot loop keeps a 64-bit mask of the bytes that can end an unquoted
** field (delimiter, LF, CR) in the next 64 bytes, built with SSE2 (baseline
** on x86_64) or a plain loop elsewhere (define CSV_NO_SIMD to force that
** path; the tests run both); each field end is then the mask's lowest bit,
** so a record of many short fields costs one mask per 64 bytes rather than
** one vector search per field. A quoted
** field is scanned with memchr for its quote (and escape) byte. Nothing is
** copied: fields are offset ranges into the caller's buffer.
**
** Line ends are LF, CRLF or a lone CR (old Mac files), in any mix. A quote
** byte opens a quoted field only at the start of a field; inside, the
** escape byte (by default the quote itself, doubled) protects a quote.
*/
#include "tokenize.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && !defined(CSV_NO_SIMD)
#include <emmintrin.h>
#define CSV_SSE2 1
#endif

int csv_tok_init(csv_tok *t, const csv_dialect *d){
  memset(t, 0, sizeof(*t));
  t->d = *d;
  t->capf = 64;
  t->fs = malloc(sizeof(uint32_t)*(size_t)t->capf);
  t->fe = malloc(sizeof(uint32_t)*(size_t)t->capf);
  t->ff = malloc((size_t)t->capf);
  if( !t->fs || !t->fe || !t->ff ){ csv_tok_free(t); return COL_ENOMEM; }
  return COL_OK;
}

void csv_tok_free(csv_tok *t){
  free(t->fs); free(t->fe); free(t->ff);
  t->fs = t->fe = 0; t->ff = 0; t->capf = 0;
}

static int tok_grow(csv_tok *t, col_error *err){
  if( t->capf>=CSV_MAX_FIELDS ){
    col_error_set(err, COL_ERROR, "more than %d fields in a record", CSV_MAX_FIELDS);
    return CSV_TOK_ERR;
  }
  int cap = t->capf*2;
  uint32_t *fs = realloc(t->fs, sizeof(uint32_t)*(size_t)cap);
  if( fs ) t->fs = fs;
  uint32_t *fe = realloc(t->fe, sizeof(uint32_t)*(size_t)cap);
  if( fe ) t->fe = fe;
  uint8_t *ff = realloc(t->ff, (size_t)cap);
  if( ff ) t->ff = ff;
  if( !fs || !fe || !ff ){
    col_error_set(err, COL_ENOMEM, "out of memory");
    return CSV_TOK_ERR;
  }
  t->capf = cap;
  return CSV_TOK_ROW;
}

/* Index of the first of a, b, c in p[i..n), or n. */
static inline size_t find3(const char *p, size_t i, size_t n,
                           char a, char b, char c){
#ifdef CSV_SSE2
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
  while( i+16<=n ){
    __m128i x = _mm_loadu_si128((const __m128i*)(p+i));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va),
                             _mm_cmpeq_epi8(x, vb)), _mm_cmpeq_epi8(x, vc));
    int bits = _mm_movemask_epi8(m);
    if( bits ) return i + (size_t)__builtin_ctz((unsigned)bits);
    i += 16;
  }
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__==__ORDER_LITTLE_ENDIAN__
  /* SWAR: a byte of x^A is zero where x has byte a. False positives occur
  ** only above the first true zero, so the lowest flagged byte is exact. */
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const uint64_t A = ones*(uint8_t)a, B = ones*(uint8_t)b, C = ones*(uint8_t)c;
  while( i+8<=n ){
    uint64_t x;
    memcpy(&x, p+i, 8);
    uint64_t xa = x^A, xb = x^B, xc = x^C;
    uint64_t z = ((xa-ones) & ~xa) | ((xb-ones) & ~xb) | ((xc-ones) & ~xc);
    z &= highs;
    if( z ) return i + (size_t)(__builtin_ctzll(z)>>3);
    i += 8;
  }
#endif
  for(; i<n; i++){
    char ch = p[i];
    if( ch==a || ch==b || ch==c ) return i;
  }
  return n;
}

/* Bit i set where p[i] (i < min(n, 64)) is the delimiter, LF or CR: the
** bytes that can end an unquoted field, for 64 bytes at a time. */
static inline uint64_t specials64(const char *p, size_t n, char delim){
#ifdef CSV_SSE2
  if( n>=64 ){
    const __m128i vd = _mm_set1_epi8(delim), vl = _mm_set1_epi8('\n');
    const __m128i vr = _mm_set1_epi8('\r');
    uint64_t m = 0;
    for(int k=0; k<4; k++){
      __m128i x = _mm_loadu_si128((const __m128i*)(p+16*k));
      __m128i e = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, vd),
                               _mm_cmpeq_epi8(x, vl)), _mm_cmpeq_epi8(x, vr));
      m |= (uint64_t)(uint32_t)_mm_movemask_epi8(e) << (16*k);
    }
    return m;
  }
#endif
  uint64_t m = 0;
  size_t e = n<64 ? n : 64;
  for(size_t i=0; i<e; i++){
    char c = p[i];
    if( c==delim || c=='\n' || c=='\r' ) m |= 1ull<<i;
  }
  return m;
}

int csv_count_lines(const char *p, size_t n){
  int k = 0;
  for(size_t i=0; i<n; i++){
    if( p[i]=='\n' ) k++;
    else if( p[i]=='\r' && (i+1>=n || p[i+1]!='\n') ) k++;
  }
  return k;
}

size_t csv_tok_line(const char *p, size_t n, int eof){
  size_t k = find3(p, 0, n, '\n', '\r', '\n');
  if( k==n ) return eof ? n : 0;
  if( p[k]=='\n' ) return k+1;
  if( k+1<n ) return k+1 + (p[k+1]=='\n');
  return eof ? n : 0;
}

/* The record ends at the line end p[k]; returns the status. */
static int tok_end(csv_tok *t, const char *p, size_t k, size_t n, int eof,
                   size_t *used){
  t->nlines++;
  if( k>=n ){ *used = n; return CSV_TOK_ROW; }
  if( p[k]=='\r' ){
    if( k+1<n ){ *used = k+1 + (p[k+1]=='\n'); return CSV_TOK_ROW; }
    if( !eof ) return CSV_TOK_MORE;
  }
  *used = k+1;
  return CSV_TOK_ROW;
}

static int tok_more(size_t n, int *status, col_error *err){
  if( n>=CSV_MAX_RECORD ){
    col_error_set(err, COL_ERROR, "record larger than %u bytes", CSV_MAX_RECORD);
    *status = CSV_TOK_ERR;
  }else{
    *status = CSV_TOK_MORE;
  }
  return *status;
}

/* Index of the first c in p[i..n), or n. Inline: most quoted fields are
** short (often ""), where a call to memchr costs more than the search. */
static inline size_t find1(const char *p, size_t i, size_t n, char c){
#ifdef CSV_SSE2
  const __m128i v = _mm_set1_epi8(c);
  while( i+16<=n ){
    __m128i x = _mm_loadu_si128((const __m128i*)(p+i));
    int bits = _mm_movemask_epi8(_mm_cmpeq_epi8(x, v));
    if( bits ) return i + (size_t)__builtin_ctz((unsigned)bits);
    i += 16;
  }
  for(; i<n; i++) if( p[i]==c ) return i;
  return n;
#else
  const char *h = i<n ? memchr(p+i, c, n-i) : 0;
  return h ? (size_t)(h-p) : n;
#endif
}

int csv_tok_record(csv_tok *t, const char *p, size_t n, int eof,
                   size_t *used, col_error *err){
  const char delim = (char)t->d.delim, quote = (char)t->d.quote;
  const char esc = (char)t->d.escape;
  int st;
  t->nf = 0;
  t->nlines = 0;
  if( n==0 ) return eof ? CSV_TOK_END : CSV_TOK_MORE;
  if( p[0]=='\n' || p[0]=='\r' || (t->d.comment && p[0]==(char)t->d.comment) ){
    size_t k = csv_tok_line(p, n, eof);
    if( k==0 ) return tok_more(n, &st, err);
    *used = k;
    t->nlines = 1;
    return CSV_TOK_BLANK;
  }
  /* The field arrays in locals: stores through them cannot then alias t. */
  uint32_t *fs = t->fs, *fe = t->fe;
  uint8_t *ff = t->ff;
  int nf = 0, capf = t->capf;
  /* Unquoted fields end at the lowest set bit of mask, which flags the
  ** delimiters and line ends of p[base..base+64) at or after pos. */
  size_t pos = 0, base = 0;
  uint64_t mask = specials64(p, n, delim);
  for(;;){
    if( nf==capf ){
      t->nf = nf;
      if( tok_grow(t, err) ) return CSV_TOK_ERR;
      fs = t->fs; fe = t->fe; ff = t->ff; capf = t->capf;
    }
    int f = nf++;
    if( quote && pos<n && p[pos]==quote ){
      size_t s = pos+1, q = s;
      uint8_t flags = CSV_FQUOTED;
      size_t k;
      t->nf = nf;
      for(;;){
        size_t hit = find1(p, q, n, quote);
        if( esc!=quote && q<n ){
          size_t he = find1(p, q, hit, esc);
          if( he<hit ){
            k = he;
            if( k+1>=n ) goto quoted_eof;
            flags |= CSV_FESCAPED;
            q = k+2;
            continue;
          }
        }
        if( hit>=n ) goto quoted_eof;
        k = hit;
        if( k+1>=n && !eof ) return tok_more(n, &st, err);
        if( esc==quote && k+1<n && p[k+1]==quote ){
          flags |= CSV_FESCAPED;
          q = k+2;
          continue;
        }
        break;
      }
      fs[f] = (uint32_t)s;
      fe[f] = (uint32_t)k;
      ff[f] = flags;
      if( k>s && find3(p, s, k, '\n', '\r', '\n')<k ){
        t->nlines += csv_count_lines(p+s, k-s);
      }
      pos = k+1;
      if( pos>=n ){
        if( !eof ) return tok_more(n, &st, err);
        return tok_end(t, p, n, n, eof, used);
      }
      if( p[pos]==delim ){
        pos++;
        /* Drop the mask's bits inside the quotes; a new mask past it. */
        if( pos-base<64 ){
          mask &= ~0ull << (pos-base);
        }else{
          base = pos;
          mask = specials64(p+pos, n-pos, delim);
        }
        continue;
      }
      if( p[pos]=='\n' || p[pos]=='\r' ) return tok_end(t, p, pos, n, eof, used);
      t->err_line = csv_count_lines(p, pos);
      col_error_set(err, COL_ERROR, "unexpected character after a closing quote");
      return CSV_TOK_ERR;
    quoted_eof:
      if( !eof ) return tok_more(n, &st, err);
      t->err_line = csv_count_lines(p, pos);
      col_error_set(err, COL_ERROR, "unterminated quoted field");
      return CSV_TOK_ERR;
    }else{
      while( mask==0 ){
        base += 64;
        if( base>=n ) break;
        mask = specials64(p+base, n-base, delim);
      }
      size_t k = mask ? base + (size_t)__builtin_ctzll(mask) : n;
      fs[f] = (uint32_t)pos;
      fe[f] = (uint32_t)k;
      ff[f] = 0;
      if( k<n && p[k]==delim ){ pos = k+1; mask &= mask-1; continue; }
      t->nf = nf;
      if( k==n && !eof ) return tok_more(n, &st, err);
      return tok_end(t, p, k, n, eof, used);
    }
  }
}

uint32_t csv_tok_unescape(const csv_dialect *d, const char *p, uint32_t n,
                          char *out){
  uint32_t k = 0;
  for(uint32_t i=0; i<n; i++){
    char c = p[i];
    if( c==(char)d->escape && i+1<n
     && (d->escape!=d->quote || p[i+1]==(char)d->quote) ){
      c = p[++i];
    }
    out[k++] = c;
  }
  return k;
}
