/*
** like.c — SQLite's LIKE and GLOB matching on UTF-8 bytes.
**
**   pred_like("a%c", 3, "abbc", 4, 0, 0, 0)   -> 1   ('abbc' LIKE 'a%c')
**   pred_glob("[a-c]*", 6, "bx", 2, 0)        -> 1   ('bx' GLOB '[a-c]*')
**
** The result must equal what SQLite's like()/glob() functions return, so the
** quirks are SQLite's, on purpose:
**   - both strings end at their first NUL byte (SQLite matches C strings);
**   - characters are decoded the way SQLite's UTF-8 reader does, so invalid
**     sequences become U+FFFD and compare equal to each other (and, in 3.40,
**     U+FFFE and U+FFFF too: col_dialect.utf8_keep_nonchar says whether);
**   - case folding (LIKE without case_sensitive_like) is ASCII only;
**   - an ESCAPE character equal to '%' or '_' disables that wildcard;
**   - '[' starts a character class in GLOB only, and a class left open
**     never matches.
**
** HOW IT WORKS. SQLite's matcher recurses at every '%' and stops the whole
** search as soon as the part after a '%' fails to match at every position
** ("no wildcard match"). So after a '%' only the most recent '%' can ever be
** retried: the match is the classic greedy wildcard algorithm with one
** backtrack point. We run it as a loop with that single backtrack point,
** which gives the same answers without recursion depth proportional to the
** number of '%' in the pattern, and bounds the work by O(pattern x string)
** character steps (no exponential blow-up on '%a%a%a%a%b').
*/
#include "predicate.h"
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Which wildcard characters are live. A zero member never matches, because
** the decoded pattern character 0 means "end of pattern". */
typedef struct match_rules {
  uint32_t all;           /* '%' or '*': any sequence */
  uint32_t one;           /* '_' or '?': one character */
  uint32_t other;         /* LIKE: the escape character; GLOB: '[' */
  int glob;               /* 1: `other` opens a class; 0: it escapes */
  int nocase;             /* 1: ASCII letters match either case */
  uint32_t nonchar;       /* ~1: U+FFFE/U+FFFF read as U+FFFD (3.40);
                          ** 0: as themselves (col_dialect.utf8_keep_nonchar) */
} match_rules;

/* The payload bits of a UTF-8 lead byte >= 0xC0, as SQLite's decoder takes
** them (0xFE and 0xFF carry none). */
static uint32_t lead_bits(uint32_t b){
  if( b<0xE0 ) return b & 0x1F;
  if( b<0xF0 ) return b & 0x0F;
  if( b<0xF8 ) return b & 0x07;
  if( b<0xFC ) return b & 0x03;
  if( b<0xFE ) return b & 0x01;
  return 0;
}

/* Decode one character at *pz (0 at end) the way SQLite does: a lead byte
** swallows every continuation byte after it, and anything overlong, a
** surrogate, or (when nonchar is ~1) U+FFFE/U+FFFF reads as U+FFFD. */
static uint32_t utf8_next(const uint8_t **pz, const uint8_t *end, uint32_t nonchar){
  const uint8_t *z = *pz;
  uint32_t c;
  if( z>=end ) return 0;
  c = *z++;
  if( c>=0xC0 ){
    c = lead_bits(c);
    while( z<end && (*z & 0xC0)==0x80 ) c = (c<<6) + (uint32_t)(*z++ & 0x3F);
    if( c<0x80 || (c & 0xFFFFF800u)==0xD800 || (c & nonchar)==0xFFFE ){
      c = 0xFFFD;
    }
  }
  *pz = z;
  return c;
}

/* Step over one character without decoding it. */
static const uint8_t *utf8_skip(const uint8_t *z, const uint8_t *end){
  if( z<end && *z++>=0xC0 ){
    while( z<end && (*z & 0xC0)==0x80 ) z++;
  }
  return z;
}

static uint32_t ascii_lower(uint32_t c){ return c>='A' && c<='Z' ? c+32 : c; }
static uint32_t ascii_upper(uint32_t c){ return c>='a' && c<='z' ? c-32 : c; }

/* Does character c of the string fall in the GLOB class that starts at *pp
** (just after '[')? Returns 1 in, 0 out, -1 when the class never closes.
** *pp is left after the closing ']'. */
static int glob_class(const uint8_t **pp, const uint8_t *pend, uint32_t c,
                      uint32_t nonchar){
  const uint8_t *p = *pp;
  uint32_t prior = 0, c2;
  int seen = 0, invert = 0;
  c2 = utf8_next(&p, pend, nonchar);
  if( c2=='^' ){ invert = 1; c2 = utf8_next(&p, pend, nonchar); }
  if( c2==']' ){ if( c==']' ) seen = 1; c2 = utf8_next(&p, pend, nonchar); }
  while( c2 && c2!=']' ){
    uint8_t peek = p<pend ? *p : 0;
    if( c2=='-' && peek!=']' && peek!=0 && prior>0 ){
      c2 = utf8_next(&p, pend, nonchar);
      if( c>=prior && c<=c2 ) seen = 1;
      prior = 0;
    }else{
      if( c==c2 ) seen = 1;
      prior = c2;
    }
    c2 = utf8_next(&p, pend, nonchar);
  }
  *pp = p;
  if( c2==0 ) return -1;
  return seen ^ invert;
}

/* The matcher. See HOW IT WORKS above. */
static int pattern_match(const uint8_t *pat, const uint8_t *pend,
                         const uint8_t *str, const uint8_t *send,
                         const match_rules *r){
  const uint8_t *p = pat, *s = str;
  const uint8_t *escaped = 0;   /* pattern position just after an escape */
  /* The backtrack point left by the last '%': where the pattern resumes,
  ** where the next search in the string starts, and what it searches for
  ** (a character, or any position when a GLOB class follows the '%'). */
  int have_star = 0, star_class = 0;
  const uint8_t *star_pat = 0, *star_str = 0;
  uint32_t star_c = 0;
  uint32_t c, c2;

  for(;;){
    c = utf8_next(&p, pend, r->nonchar);
    if( c==0 ){
      if( s>=send ) return 1;
      goto no_match;
    }
    if( c==r->all ){
      /* Runs of '%' and '_' after a '%': each '_' eats one character. */
      while( (c = utf8_next(&p, pend, r->nonchar))==r->all || (c==r->one && r->one!=0) ){
        if( c==r->one && utf8_next(&s, send, r->nonchar)==0 ) return 0;
      }
      if( c==0 ) return 1;
      star_class = 0;
      if( c==r->other ){
        if( !r->glob ){
          c = utf8_next(&p, pend, r->nonchar);
          if( c==0 ) return 0;
        }else{
          star_class = 1;
          star_pat = p-1;       /* back on the '[' ('[' is one byte) */
        }
      }
      if( !star_class ) star_pat = p;
      star_c = c;
      star_str = s;
      have_star = 1;
      goto retry;
    }
    if( c==r->other ){
      if( !r->glob ){
        c = utf8_next(&p, pend, r->nonchar);
        if( c==0 ) goto no_match;
        escaped = p;
      }else{
        int in;
        c = utf8_next(&s, send, r->nonchar);
        if( c==0 ) goto no_match;
        in = glob_class(&p, pend, c, r->nonchar);
        if( in!=1 ) goto no_match;
        continue;
      }
    }
    c2 = utf8_next(&s, send, r->nonchar);
    if( c==c2 ) continue;
    if( r->nocase && c<0x80 && c2<0x80 && ascii_lower(c)==ascii_lower(c2) ){
      continue;
    }
    if( c==r->one && p!=escaped && c2!=0 ) continue;
    goto no_match;

  no_match:
    if( !have_star ) return 0;
  retry:
    /* Resume after the last '%' at the next place the string could fit. */
    escaped = 0;
    if( star_class ){
      if( star_str>=send ) return 0;
      s = star_str;
      star_str = utf8_skip(star_str, send);
      p = star_pat;
      continue;
    }
    if( star_c<0x80 ){
      uint8_t lo = (uint8_t)star_c, hi = (uint8_t)star_c;
      const uint8_t *z = star_str;
      if( r->nocase ){ lo = (uint8_t)ascii_lower(star_c); hi = (uint8_t)ascii_upper(star_c); }
      while( z<send && *z!=lo && *z!=hi ) z++;
      if( z>=send ) return 0;
      s = z+1;
    }else{
      const uint8_t *z = star_str;
      for(;;){
        c2 = utf8_next(&z, send, r->nonchar);
        if( c2==0 ) return 0;
        if( c2==star_c ) break;
      }
      s = z;
    }
    star_str = s;
    p = star_pat;
  }
}

/* Bytes up to the first NUL: SQLite sees TEXT as a C string here. */
static uint32_t c_length(const char *z, uint32_t n){
  const char *nul = n ? memchr(z, 0, n) : 0;
  return nul ? (uint32_t)(nul - z) : n;
}

/* Both operators: NULL pointers read as empty, and SQLite's strings end at
** the first NUL. */
static int match_text(const char *pat, uint32_t npat, const char *s, uint32_t ns,
                      const match_rules *r){
  if( pat==0 ){ pat = ""; npat = 0; }
  if( s==0 ){ s = ""; ns = 0; }
  npat = c_length(pat, npat);
  ns = c_length(s, ns);
  const uint8_t *up = (const uint8_t*)pat, *us = (const uint8_t*)s;
  return pattern_match(up, up+npat, us, us+ns, r);
}

int pred_like(const char *pat, uint32_t npat, const char *s, uint32_t ns,
              int case_sensitive, uint32_t esc, const col_dialect *d){
  match_rules r;
  r.nonchar = d && d->utf8_keep_nonchar ? 0 : 0xFFFFFFFEu;
  r.all = esc=='%' ? 0 : '%';
  r.one = esc=='_' ? 0 : '_';
  r.other = esc;
  r.glob = 0;
  r.nocase = !case_sensitive;
  return match_text(pat, npat, s, ns, &r);
}

uint32_t pred_utf8_first(const char *z, uint32_t n, const col_dialect *d){
  const uint8_t *p = (const uint8_t*)z;
  return utf8_next(&p, p+n, d && d->utf8_keep_nonchar ? 0 : 0xFFFFFFFEu);
}

int pred_glob(const char *pat, uint32_t npat, const char *s, uint32_t ns,
              const col_dialect *d){
  match_rules r;
  r.nonchar = d && d->utf8_keep_nonchar ? 0 : 0xFFFFFFFEu;
  r.all = '*';
  r.one = '?';
  r.other = '[';
  r.glob = 1;
  r.nocase = 0;
  return match_text(pat, npat, s, ns, &r);
}

/* ---- LIKE '%lit%' and 'lit%' ---------------------------------------------
** The substring search compares 16 positions at a time with the first and
** the last byte of lit (ASCII letters folded by setting bit 0x20, which
** also maps a few other bytes together: a filter only), then checks the
** candidates. */

int pred_like_shape(const char *pat, uint32_t npat, uint32_t esc,
                    const char **lit, uint32_t *m){
  if( esc!=0 || npat<2 || pat[npat-1]!='%' ) return PRED_LIKE_GENERAL;
  uint32_t from = pat[0]=='%' ? 1 : 0;
  if( npat - 1 <= from ) return PRED_LIKE_GENERAL;
  for(uint32_t i=from; i+1<npat; i++){
    uint8_t c = (uint8_t)pat[i];
    if( c=='%' || c=='_' || c==0 || c>=0x80 ) return PRED_LIKE_GENERAL;
  }
  *lit = pat + from;
  *m = npat - 1 - from;
  return from ? PRED_LIKE_CONTAINS : PRED_LIKE_PREFIX;
}

static int ascii_letter(uint8_t c){ return (uint8_t)((c|0x20) - 'a') < 26; }

/* Does lit (ASCII) equal the m bytes at p, letters folded when nocase? */
static int lit_at(const uint8_t *lit, uint32_t m, const uint8_t *p, int nocase){
  for(uint32_t j=0; j<m; j++){
    uint8_t a = p[j], b = lit[j];
    if( a==b ) continue;
    if( nocase && ascii_letter(b) && (a|0x20)==(b|0x20) ) continue;
    return 0;
  }
  return 1;
}

/* The leftmost match cannot contain a NUL (lit has none); it counts only
** when no NUL comes before it. */
static int before_nul(const uint8_t *s, uint32_t at){
  return at==0 || memchr(s, 0, at)==0;
}

static int like_contains(const char *lit0, uint32_t m, const char *s0, uint32_t ns,
                         int case_sensitive){
  const uint8_t *lit = (const uint8_t*)lit0, *s = (const uint8_t*)s0;
  int nocase = !case_sensitive;
  if( m==0 || ns<m ) return 0;
  uint8_t f = lit[0], l = lit[m-1];
  uint8_t fm = nocase && ascii_letter(f) ? 0x20 : 0;
  uint8_t lm = nocase && ascii_letter(l) ? 0x20 : 0;
  uint32_t i = 0;
#ifdef __SSE2__
  const __m128i F = _mm_set1_epi8((char)(f|fm)), L = _mm_set1_epi8((char)(l|lm));
  const __m128i FM = _mm_set1_epi8((char)fm), LM = _mm_set1_epi8((char)lm);
  for(; i + 16 + m - 1 <= ns; i += 16){
    __m128i a = _mm_loadu_si128((const __m128i*)(s + i));
    __m128i b = _mm_loadu_si128((const __m128i*)(s + i + m - 1));
    __m128i hit = _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(a, FM), F),
                                _mm_cmpeq_epi8(_mm_or_si128(b, LM), L));
    unsigned mask = (unsigned)_mm_movemask_epi8(hit);
    while( mask ){
      uint32_t at = i + (uint32_t)__builtin_ctz(mask);
      if( lit_at(lit, m, s + at, nocase) ) return before_nul(s, at);
      mask &= mask - 1;
    }
  }
#endif
  for(; i + m <= ns; i++){
    if( (s[i]|fm)==(f|fm) && lit_at(lit, m, s + i, nocase) ) return before_nul(s, i);
  }
  return 0;
}

int pred_like_simple(int shape, const char *lit, uint32_t m, const char *s,
                     uint32_t ns, int case_sensitive){
  if( shape==PRED_LIKE_CONTAINS ) return like_contains(lit, m, s, ns, case_sensitive);
  /* a prefix holds no NUL, so matching it is matching before the first */
  return ns>=m && lit_at((const uint8_t*)lit, m, (const uint8_t*)s, !case_sensitive);
}

/* ---- what LIKE sees of a number ------------------------------------------
** LIKE and GLOB on an INTEGER or REAL match its text form. For a REAL that
** is SQLite 3.40's "%!.15g": 15 significant digits produced by its own
** long-double digit loop (not the C library's printf, whose last digit can
** differ), trailing zeros removed but at least one digit after the point,
** exponent form outside 1e-4 .. 1e15. The steps below are those of SQLite's
** printf.c (etGENERIC with the '!' flag) so the digits agree to the bit on
** the same platform. */

/* Copy len bytes of t into buf[0..n) NUL-terminated, truncating like
** snprintf, and return len. */
static int put_text(const char *t, int len, char *buf, size_t n){
  if( n>0 ){
    size_t k = (size_t)len < n-1 ? (size_t)len : n-1;
    memcpy(buf, t, k);
    buf[k] = 0;
  }
  return len;
}

int pred_int_to_text(int64_t v, char *buf, size_t n){
  char tmp[24];
  int k = (int)sizeof(tmp);
  /* Negate in unsigned arithmetic so INT64_MIN is fine. */
  uint64_t u = v<0 ? 0-(uint64_t)v : (uint64_t)v;
  do{ tmp[--k] = (char)('0' + u%10); u /= 10; }while( u );
  if( v<0 ) tmp[--k] = '-';
  return put_text(tmp+k, (int)sizeof(tmp)-k, buf, n);
}

/* The next decimal digit of *v (1 <= *v < 10), leaving the rest scaled up. */
static char real_digit(long double *v){
  int digit = (int)*v;
  long double d = digit;
  *v = (*v - d)*10.0;
  return (char)('0' + digit);
}

int pred_real_to_text(double r, char *buf, size_t n){
  char out[48];
  char *b = out;
  long double v = r;
  int exp = 0, e2, prec = 14, use_exp;
  /* SQLite's rounding term for 15 significant digits: 0.5 at the 15th,
  ** computed in double as it does (5e-5 scaled by 1e-10). */
  double rounder = 5.0e-05;
  rounder *= 1.0e-10;
  if( r!=r ) return put_text("NaN", 3, buf, n);
  if( v<0.0 ){ v = -v; *b++ = '-'; }
  if( v>0.0 ){
    long double scale = 1.0;
    while( v>=1e100*scale && exp<=350 ){ scale *= 1e100; exp += 100; }
    while( v>=1e10*scale && exp<=350 ){ scale *= 1e10; exp += 10; }
    while( v>=10.0*scale && exp<=350 ){ scale *= 10.0; exp++; }
    v /= scale;
    while( v<1e-8 ){ v *= 1e8; exp -= 8; }
    while( v<1.0 ){ v *= 10.0; exp--; }
    if( exp>350 ){
      memcpy(b, "Inf", 3);
      b += 3;
      return put_text(out, (int)(b-out), buf, n);
    }
  }
  v += rounder;
  if( v>=10.0 ){ v *= 0.1; exp++; }
  use_exp = exp<-4 || exp>prec;
  if( use_exp ){
    e2 = 0;
  }else{
    prec -= exp;
    e2 = exp;
  }
  if( e2<0 ){
    *b++ = '0';
  }else{
    for(; e2>=0; e2--) *b++ = real_digit(&v);
  }
  *b++ = '.';
  for(e2++; e2<0; prec--, e2++) *b++ = '0';
  while( (prec--)>0 ) *b++ = real_digit(&v);
  /* Trailing zeros go, but "1." keeps one: "1.0". */
  while( b[-1]=='0' ) b--;
  if( b[-1]=='.' ) *b++ = '0';
  if( use_exp ){
    *b++ = 'e';
    if( exp<0 ){ *b++ = '-'; exp = -exp; }else{ *b++ = '+'; }
    if( exp>=100 ){ *b++ = (char)('0' + exp/100); exp %= 100; }
    *b++ = (char)('0' + exp/10);
    *b++ = (char)('0' + exp%10);
  }
  return put_text(out, (int)(b-out), buf, n);
}

int pred_real_text(const col_dialect *d, double r, char *buf, size_t n){
  if( d==0 || d->real_text==0 ) return pred_real_to_text(r, buf, n);
  return d->real_text(r, d->real_digits ? d->real_digits : 15, buf, n);
}
