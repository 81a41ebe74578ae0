/*
** expr_strfn.c — length(), substr(), instr() and strftime() templates; see
** expr_strfn.h. The general paths walk UTF-8 the way SQLite's func.c does
** (SQLITE_SKIP_UTF8, text ending at a NUL); the shortcuts apply only when
** they provably reach the same bytes.
*/
#include "expr_strfn.h"
#include "../reader/simd.h"
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifdef COL_SIMD_AVX512
/* 64 bytes a step, the last step a masked load (no byte past z+n is read):
** a URL of 50-100 bytes in one or two steps, not four to seven of SSE2's
** (length(URL) over 10M rows, ClickBench Q28: agg_ascii_run 10.6% of its
** CPU at threads=1). */
__attribute__((target("avx512f,avx512bw")))
static uint32_t ascii_run_avx512(const char *z, uint32_t n){
  const __m512i zero = _mm512_setzero_si512();
  for(uint32_t i=0; ; i+=64){
    uint32_t left = n - i;
    __mmask64 lm = left>=64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
    __m512i v = _mm512_maskz_loadu_epi8(lm, (const void*)(z + i));
    __mmask64 bad = (_mm512_movepi8_mask(v) | _mm512_cmpeq_epi8_mask(v, zero)) & lm;
    if( bad ) return i + (uint32_t)__builtin_ctzll(bad);
    if( left<=64 ) return n;
  }
}
#endif

uint32_t agg_ascii_run(const char *z, uint32_t n){
  uint32_t i = 0;
#ifdef COL_SIMD_AVX512
  if( n>=16 && __builtin_cpu_supports("avx512bw") ) return ascii_run_avx512(z, n);
#endif
#ifdef __SSE2__
  /* a byte >= 0x80 has its top bit; a NUL compares equal to zero */
  if( n>=16 ){
    for(; i+16<=n; i+=16){
      __m128i v = _mm_loadu_si128((const __m128i*)(z+i));
      int bad = _mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, _mm_setzero_si128())));
      if( bad ) return i + (uint32_t)__builtin_ctz((unsigned)bad);
    }
    if( i==n ) return n;
    /* the last 16 bytes, overlapping ones already found clean: any byte
    ** flagged lies at or past i */
    __m128i v = _mm_loadu_si128((const __m128i*)(z+n-16));
    int bad = _mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, _mm_setzero_si128())));
    return bad ? n - 16 + (uint32_t)__builtin_ctz((unsigned)bad) : n;
  }
#endif
  /* a byte that is 0 borrows (0x00-1 = 0xff) and one >= 0x80 keeps its top
  ** bit: either sets a top bit of the word. Only a 0 borrows, so bytes
  ** above the first flagged one may be flagged falsely but none below it:
  ** the lowest flag is the first bad byte. Short strings (a substr()
  ** skipping "https://", a prefix of 4) are read as overlapping words, not
  ** a byte at a time. */
  uint64_t v, bad;
  for(; i+8<=n; i+=8){
    memcpy(&v, z+i, 8);
    bad = ((v - 0x0101010101010101ull) | v) & 0x8080808080808080ull;
    if( bad ) return i + (uint32_t)__builtin_ctzll(bad)/8;
  }
  if( i==n ) return n;
  if( n>=8 ){
    /* the last 8 bytes; those before i were clean, so flag nothing */
    memcpy(&v, z+n-8, 8);
    bad = ((v - 0x0101010101010101ull) | v) & 0x8080808080808080ull;
    return bad ? n - 8 + (uint32_t)__builtin_ctzll(bad)/8 : n;
  }
  if( n>=4 ){
    uint32_t w, b4;
    memcpy(&w, z, 4);
    b4 = ((w - 0x01010101u) | w) & 0x80808080u;
    if( b4 ) return (uint32_t)__builtin_ctz(b4)/8;
    memcpy(&w, z+n-4, 4);
    b4 = ((w - 0x01010101u) | w) & 0x80808080u;
    return b4 ? n - 4 + (uint32_t)__builtin_ctz(b4)/8 : n;
  }
  while( i<n && (signed char)z[i]>0 ) i++;
  return i;
}

/* Skip one UTF-8 character the way SQLITE_SKIP_UTF8 does. */
static inline uint32_t sf_skip_utf8(const unsigned char *z, uint32_t i, uint32_t n){
  if( z[i++]>=0xc0 ){ while( i<n && (z[i]&0xc0)==0x80 ) i++; }
  return i;
}

/* Skip one character as length() and substr() step (no NUL at i): with
** lead_any (3.54) any byte >= 0x80 takes the continuation bytes after it,
** so a stray one joins the one before; else as sf_skip_utf8. */
static inline uint32_t sf_skip_char(const unsigned char *z, uint32_t i, uint32_t n,
                                    int lead_any){
  if( z[i++]>=(lead_any ? 0x80 : 0xc0) ){ while( i<n && (z[i]&0xc0)==0x80 ) i++; }
  return i;
}

/* How many of v's bytes are continuation bytes: each byte's flag moved to
** its low bit, then summed into the top byte by the multiply (a portable
** build has no popcnt instruction; __builtin_popcountll was a call). */
static inline uint32_t sf_cont_bits(uint64_t v){
  uint64_t m = (v & ~(v<<1) & 0x8080808080808080ull) >> 7;
  return (uint32_t)((m * 0x0101010101010101ull) >> 56);
}
/* Continuation bytes (10xxxxxx) in z[0..n), a word at a time: a byte is
** one when its top bit is set and the bit below it clear. instr() numbers
** a match by the bytes before it that are not (every URL a key cuts at
** its '/' paid a loop over the bytes before). */
static uint32_t sf_count_cont(const unsigned char *z, uint32_t n){
  uint64_t v = 0;
  if( n<8 ){
    memcpy(&v, z, n);
    return sf_cont_bits(v);
  }
  uint32_t i = 0, c = 0;
  for(; i+8<=n; i+=8){
    memcpy(&v, z+i, 8);
    c += sf_cont_bits(v);
  }
  if( i<n ){
    /* the last 8 bytes, less those counted (little-endian: the later bytes
    ** are the word's high ones) */
    memcpy(&v, z+n-8, 8);
    c += sf_cont_bits(v >> (8*(8 - (n - i))));
  }
  return c;
}

static uint32_t sf_cstrlen(const char *p, uint32_t n){
  const char *z = memchr(p, 0, n);
  return z ? (uint32_t)(z - p) : n;
}

/* Bits set in a 16-bit mask, without the library call __builtin_popcount
** is where the build has no popcnt instruction. */
static inline uint32_t sf_popcount16(uint32_t x){
  x = x - ((x >> 1) & 0x5555);
  x = (x & 0x3333) + ((x >> 2) & 0x3333);
  x = (x + (x >> 4)) & 0x0f0f;
  return (x + (x >> 8)) & 0x1f;
}

/* Characters in z[0..n) (no NUL, the byte before z below 0x80) when no
** continuation byte follows a byte below 0x80: every continuation byte
** then belongs to the character before it, under either rule of
** sf_skip_char, and the count is the bytes that are not continuations.
** -1 when a stray continuation byte means walking instead. */
static int64_t sf_count_chars(const unsigned char *z, uint32_t n){
  uint32_t i = 0, high = 0;    /* high: the byte before i is >= 0x80 */
  int64_t cont = 0;
#ifdef __SSE2__
  const __m128i lim = _mm_set1_epi8((char)0xc0);
  for(; i+16<=n; i+=16){
    __m128i v = _mm_loadu_si128((const __m128i*)(z+i));
    /* signed: continuation bytes 0x80-0xbf are the ones below 0xc0 (-64) */
    uint32_t c = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(v, lim));
    uint32_t h = (uint32_t)_mm_movemask_epi8(v);
    if( c & ~((h<<1) | high) ) return -1;
    cont += sf_popcount16(c);
    high = h>>15;
  }
#endif
  for(; i<n; i++){
    int c = (z[i]&0xc0)==0x80;
    if( c && !high ) return -1;
    cont += c;
    high = z[i]>=0x80;
  }
  return (int64_t)n - cont;
}

int64_t agg_str_length(const char *p, uint32_t n, int lead_any){
  uint32_t k = agg_ascii_run(p, n);
  if( k==n ) return n;
  /* bytes before k are whole characters; count or walk the rest */
  n = k + sf_cstrlen(p+k, n-k);
  int64_t m = sf_count_chars((const unsigned char*)p+k, n-k);
  if( m>=0 ) return k + m;
  int64_t len = k;
  for(uint32_t i=k; i<n; len++) i = sf_skip_char((const unsigned char*)p, i, n, lead_any);
  return len;
}

void agg_substr_span(int64_t p1, int has_p2, int64_t p2, int64_t len,
                     int64_t *start, int64_t *count){
  int neg2 = 0;
  if( has_p2 ){
    if( p2<0 ){ p2 = -p2; neg2 = 1; }
  }else{
    p2 = 1000000000;
  }
  if( p1<0 ){
    p1 += len;
    if( p1<0 ){ p2 += p1; if( p2<0 ) p2 = 0; p1 = 0; }
  }else if( p1>0 ){
    p1--;
  }else if( p2>0 ){
    p2--;
  }
  if( neg2 ){
    p1 -= p2;
    if( p1<0 ){ p2 += p1; p1 = 0; }
  }
  *start = p1; *count = p2;
}

void agg_str_substr(const char *p, uint32_t n, int64_t p1, int has_p2, int64_t p2,
                    int lead_any, uint32_t *off, uint32_t *olen){
  const unsigned char *z = (const unsigned char*)p;
  int64_t a, c;
  if( p1>=0 ){
    /* No character count is needed: the result lies within the first
    ** a+c characters, and where those bytes are ASCII without a NUL the
    ** characters are the bytes. */
    agg_substr_span(p1, has_p2, p2, 0, &a, &c);
    if( a + c >= (int64_t)n ){
      /* to the end: only the skipped bytes must be characters, the rest
      ** only free of NUL */
      uint32_t i = a < (int64_t)n ? (uint32_t)a : n;
      if( agg_ascii_run(p, i)==i && memchr(p+i, 0, n-i)==0 ){
        *off = i; *olen = n - i;
        return;
      }
    }
    uint32_t m = a + c < (int64_t)n ? (uint32_t)(a + c) : n;
    if( agg_ascii_run(p, m)==m ){
      uint32_t i = a < m ? (uint32_t)a : m;
      uint32_t j = a + c < m ? (uint32_t)(a + c) : m;
      *off = i; *olen = j - i;
      return;
    }
  }
  int64_t len = 0;
  n = sf_cstrlen(p, n);
  if( p1<0 ){ for(uint32_t i=0; i<n; len++) i = sf_skip_utf8(z, i, n); }
  agg_substr_span(p1, has_p2, p2, len, &a, &c);
  uint32_t i = 0;
  while( i<n && a ){ i = sf_skip_char(z, i, n, lead_any); a--; }
  uint32_t j = i;
  while( j<n && c ){ j = sf_skip_char(z, j, n, lead_any); c--; }
  *off = i; *olen = j - i;
}

int64_t agg_str_instr(const char *zh, uint32_t nh, const char *zn, uint32_t nn, int is_text){
  if( nn==0 ) return 1;
  if( nn>nh ) return 0;
  if( is_text && ((unsigned char)zn[0]&0xc0)==0x80 ){
    /* instrFunc steps over continuation bytes, so a needle starting with
    ** one is tried only where the haystack starts: its own loop */
    int64_t N = 1;
    while( nn<=nh && (zh[0]!=zn[0] || memcmp(zh, zn, nn)!=0) ){
      N++;
      do{ nh--; zh++; }while( nh>0 && (zh[0]&0xc0)==0x80 );
    }
    return nn>nh ? 0 : N;
  }
  /* Every byte equal to the needle's first is a position instrFunc tries,
  ** so the first match is memmem's; its number is the characters before it
  ** (in TEXT, the bytes that are not continuation bytes) plus one. */
  const char *f = nn==1 ? memchr(zh, zn[0], nh) : memmem(zh, nh, zn, nn);
  if( f==0 ) return 0;
  uint32_t pos = (uint32_t)(f - zh);
  if( !is_text ) return (int64_t)pos + 1;
  return 1 + (int64_t)pos - sf_count_cont((const unsigned char*)zh + 1, pos);
}

/* ---- strftime templates --------------------------------------------------- */

/* The separator canonical text has at byte pos, else 0. */
static int sf_fixed(int pos){
  switch( pos ){
    case 4: case 7: return '-';
    case 10: return ' ';
    case 13: case 16: return ':';
    default: return 0;
  }
}

int agg_tpl_compile(const char *fmt, uint32_t nfmt, agg_tpl *t){
  memset(t, 0, sizeof(*t));
  t->run = -1;
  if( nfmt==0 ) return 1;
  int16_t *code = malloc((size_t)nfmt*2*sizeof(int16_t));
  if( code==0 ) return -1;
  uint32_t n = 0;
  for(uint32_t i=0; i<nfmt; i++){
    if( fmt[i]==0 ) break;     /* the format is C text */
    if( fmt[i]!='%' ){
      /* a separator the canonical text has right after the previous field
      ** byte is copied from it, so "%Y-%m-%d" is one slice of the input */
      int p = n ? code[n-1] + 1 : -1;
      if( n && code[n-1]>=0 && sf_fixed(p)==(unsigned char)fmt[i] ) code[n++] = (int16_t)p;
      else code[n++] = (int16_t)(-(int)(unsigned char)fmt[i] - 1);
      continue;
    }
    i++;
    int at;
    switch( i<nfmt ? fmt[i] : 0 ){
      case 'Y': at = 0; break;
      case 'm': at = 5; break;
      case 'd': at = 8; break;
      case 'H': at = 11; break;
      case 'M': at = 14; break;
      case 'S': at = 17; break;
      case '%': code[n++] = (int16_t)(-'%' - 1); continue;
      default: free(code); return 1;
    }
    int w = at==0 ? 4 : 2;
    for(int k=0; k<w; k++) code[n++] = (int16_t)(at + k);
  }
  if( n==0 ){ free(code); return 1; }
  t->code = code; t->n = n;
  t->run = code[0];
  for(uint32_t k=1; k<n && t->run>=0; k++) if( code[k]!=code[0]+(int)k ) t->run = -1;
  return 0;
}

void agg_tpl_free(agg_tpl *t){ free(t->code); memset(t, 0, sizeof(*t)); t->run = -1; }

static inline int sf_d2(const char *z){
  unsigned a = (unsigned char)z[0] - '0', b = (unsigned char)z[1] - '0';
  return a<10 && b<10 ? (int)(a*10 + b) : -1;
}

int agg_ts_canonical(const char *z, uint32_t n, int normalize){
  if( n!=19 || z[4]!='-' || z[7]!='-' || z[10]!=' ' || z[13]!=':' || z[16]!=':' ) return 0;
  int y1 = sf_d2(z), y2 = sf_d2(z+2), M = sf_d2(z+5), D = sf_d2(z+8);
  int h = sf_d2(z+11), m = sf_d2(z+14), s = sf_d2(z+17);
  /* date.c reads these fields and prints them back unchanged: month 1-12,
  ** day 1-31 (not checked against the month), hour 0-23 (24 parses but
  ** can overflow the last valid day), minute and second 0-59; any year
  ** 0000-9999 gives a valid Julian day */
  if( !(y1>=0 && y2>=0 && M>=1 && M<=12 && D>=1 && D<=31
        && h>=0 && h<=23 && m>=0 && m<=59 && s>=0 && s<=59) ) return 0;
  /* normalizing SQLite re-reads a day past the month's end (29, 30 or 31
  ** where the month is shorter) from the Julian day */
  if( normalize && D>28 ){
    int Y = y1*100 + y2;
    int leap = Y%4==0 && (Y%100!=0 || Y%400==0);
    int mx = M==2 ? 28 + leap : (M==4 || M==6 || M==9 || M==11) ? 30 : 31;
    if( D>mx ) return 0;
  }
  return 1;
}

void agg_tpl_apply(const agg_tpl *t, const char *z, char *out){
  for(uint32_t k=0; k<t->n; k++){
    int c = t->code[k];
    out[k] = c>=0 ? z[c] : (char)(-c - 1);
  }
}
