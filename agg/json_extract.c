/*
** json_extract.c — json_extract, -> and ->> over strict JSON text; see
** json_extract.h.
**
** The text is validated whole first (SQLite parses the whole document
** before it looks anything up, so a malformed tail is an error even when
** the path's value comes before it); the lookup then walks the validated
** text, skipping values it does not enter without checking them again.
*/
#include "json_extract.h"
#include "value.h"
#include "expr_strfn.h"
#include <stdlib.h>
#include <string.h>

/* ---- the path ------------------------------------------------------------ */

static int jp_digit(char c){ return c>='0' && c<='9'; }

/* Digits z[*i..) as a number (at most 18 of them: SQLite's index is an
** int that larger ones overflow). 0 when there are none or too many. */
static int jp_number(const char *z, uint32_t n, uint32_t *i, uint64_t *v){
  uint32_t s = *i;
  *v = 0;
  while( *i<n && jp_digit(z[*i]) ){
    if( *i - s >= 9 ) return 0;
    *v = *v*10 + (uint64_t)(z[*i] - '0');
    (*i)++;
  }
  return *i > s;
}

/* Is z[0..n) a name -> and ->> take as `.name` in every version (3.45
** quotes other texts as one label where 3.40 read them as a path)? */
static int jp_plain_label(const char *z, uint32_t n){
  if( n==0 || jp_digit(z[0]) ) return 0;
  for(uint32_t i=0; i<n; i++){
    char c = z[i];
    if( !(jp_digit(c) || (c>='a' && c<='z') || (c>='A' && c<='Z') || c=='_') ) return 0;
  }
  return 1;
}

int agg_json_path_compile(const char *z, uint32_t n, int arrow, agg_json_path *out,
                          const char **why){
  memset(out, 0, sizeof(*out));
  *why = "a malformed JSON path";
  /* the -> and ->> abbreviations (json.c's JSON_ABPATH) */
  const char *pre = "", *post = "";
  if( arrow==AGG_JSON_ARROW_INT ){
    if( n==0 || z[0]=='-' ){ *why = "a negative index after -> or ->> (versions read it apart)"; return 1; }
    pre = "$["; post = "]";
  }else if( arrow==AGG_JSON_ARROW_TEXT && (n==0 || z[0]!='$') ){
    if( n>=3 && z[0]=='[' && z[n-1]==']' ) pre = "$";
    else if( jp_plain_label(z, n) ) pre = "$.";
    else{ *why = "a text after -> or ->> that SQLite versions read apart (write the whole path, '$...')"; return 1; }
  }
  size_t np = strlen(pre), nq = strlen(post);
  char *t = malloc(np + n + nq + 1);
  if( t==0 ) return -1;
  memcpy(t, pre, np);
  if( n ) memcpy(t+np, z, n);
  memcpy(t+np+n, post, nq);
  uint32_t len = (uint32_t)(np + n + nq);
  t[len] = 0;
  out->text = t;
  if( memchr(t, 0, len) || memchr(t, '\\', len) ){ *why = "a JSON path with a NUL or a backslash"; return 1; }
  if( len==0 || t[0]!='$' ) return 1;
  int cap = 0;
  for(uint32_t i=1; i<len; ){
    if( out->nstep==cap ){
      cap = cap ? cap*2 : 4;
      agg_json_step *ns = realloc(out->steps, (size_t)cap*sizeof(*ns));
      if( ns==0 ) return -1;
      out->steps = ns;
    }
    agg_json_step *s = &out->steps[out->nstep];
    memset(s, 0, sizeof(*s));
    if( t[i]=='.' ){
      i++;
      s->kind = AGG_JSTEP_LABEL;
      if( i<len && t[i]=='"' ){
        uint32_t e = i+1;
        while( e<len && t[e]!='"' ) e++;
        if( e>=len ) return 1;
        s->label = t+i+1; s->n = e-i-1;
        i = e+1;
      }else{
        uint32_t e = i;
        while( e<len && t[e]!='.' && t[e]!='[' ) e++;
        if( e==i ) return 1;
        s->label = t+i; s->n = e-i;
        i = e;
      }
    }else if( t[i]=='[' ){
      i++;
      if( i<len && t[i]=='#' ){
        i++;
        s->kind = AGG_JSTEP_FROM_END;
        if( i<len && t[i]=='-' ){
          i++;
          if( !jp_number(t, len, &i, &s->index) ) return 1;
        }
      }else{
        s->kind = AGG_JSTEP_INDEX;
        if( !jp_number(t, len, &i, &s->index) ) return 1;
      }
      if( i>=len || t[i]!=']' ) return 1;
      i++;
    }else{
      return 1;
    }
    out->nstep++;
  }
  return 0;
}

void agg_json_path_free(agg_json_path *p){
  free(p->steps); free(p->text);
  memset(p, 0, sizeof(*p));
}

/* ---- validation ---------------------------------------------------------- */

static int js_space(char c){ return c==' ' || c=='\t' || c=='\n' || c=='\r'; }
static int js_hex(char c){ return jp_digit(c) || (c>='a' && c<='f') || (c>='A' && c<='F'); }
static int js_alnum(char c){ return jp_digit(c) || (c>='a' && c<='z') || (c>='A' && c<='Z'); }

/* Past the string token at z[i] (a '"'): the offset after its closing
** quote, or 0 when it is not a strict JSON string. */
static uint32_t js_string(const char *z, uint32_t n, uint32_t i){
  for(i++; i<n; i++){
    unsigned char c = (unsigned char)z[i];
    if( c<0x20 ) return 0;
    if( c=='"' ) return i+1;
    if( c=='\\' ){
      if( ++i>=n ) return 0;
      c = (unsigned char)z[i];
      if( c=='u' ){
        if( i+4>=n || !js_hex(z[i+1]) || !js_hex(z[i+2]) || !js_hex(z[i+3]) || !js_hex(z[i+4]) ) return 0;
        i += 4;
      }else if( !strchr("\"\\/bfnrt", c) ){
        return 0;
      }
    }
  }
  return 0;
}

/* Past the number token at z[i], or 0 (json.c 3.40's rules: no leading
** zero, digits on both sides of a point, an exponent's digits). */
static uint32_t js_number(const char *z, uint32_t n, uint32_t i){
  if( z[i]=='-' ) i++;
  if( i>=n || !jp_digit(z[i]) ) return 0;
  if( z[i]=='0' && i+1<n && jp_digit(z[i+1]) ) return 0;
  while( i<n && jp_digit(z[i]) ) i++;
  if( i<n && z[i]=='.' ){
    i++;
    if( i>=n || !jp_digit(z[i]) ) return 0;
    while( i<n && jp_digit(z[i]) ) i++;
  }
  if( i<n && (z[i]=='e' || z[i]=='E') ){
    i++;
    if( i<n && (z[i]=='+' || z[i]=='-') ) i++;
    if( i>=n || !jp_digit(z[i]) ) return 0;
    while( i<n && jp_digit(z[i]) ) i++;
  }
  return i;
}

static uint32_t js_skip_space(const char *z, uint32_t n, uint32_t i){
  while( i<n && js_space(z[i]) ) i++;
  return i;
}

/* Past the value at z[i] (no leading space), or 0 when it is not strict
** JSON; *deep set when it nests past AGG_JSON_MAX_DEPTH. */
static uint32_t js_value(const char *z, uint32_t n, uint32_t i, int depth, int *deep){
  if( i>=n ) return 0;
  char c = z[i];
  if( c=='"' ) return js_string(z, n, i);
  if( c=='-' || jp_digit(c) ) return js_number(z, n, i);
  if( c=='{' || c=='[' ){
    if( depth>=AGG_JSON_MAX_DEPTH ){ *deep = 1; return 0; }
    char close = c=='{' ? '}' : ']';
    i = js_skip_space(z, n, i+1);
    if( i<n && z[i]==close ) return i+1;
    for(;;){
      if( c=='{' ){
        if( i>=n || z[i]!='"' ) return 0;
        if( (i = js_string(z, n, i))==0 ) return 0;
        i = js_skip_space(z, n, i);
        if( i>=n || z[i]!=':' ) return 0;
        i = js_skip_space(z, n, i+1);
      }
      if( (i = js_value(z, n, i, depth+1, deep))==0 ) return 0;
      i = js_skip_space(z, n, i);
      if( i<n && z[i]==',' ){ i = js_skip_space(z, n, i+1); continue; }
      if( i<n && z[i]==close ) return i+1;
      return 0;
    }
  }
  static const char *const lits[] = { "true", "false", "null" };
  for(int k=0; k<3; k++){
    uint32_t m = (uint32_t)strlen(lits[k]);
    if( n-i>=m && memcmp(z+i, lits[k], m)==0 && (i+m>=n || !js_alnum(z[i+m])) ) return i+m;
  }
  return 0;
}

/* ---- lookup over validated text ------------------------------------------ */

/* Past the (valid) value at z[i]. */
static uint32_t js_skip(const char *z, uint32_t n, uint32_t i){
  int deep = 0;
  return js_value(z, n, i, 0, &deep);
}

/* The value path leads to: its offset in *at, 1 found, 0 not found,
** AGG_JSON_REFUSED at a key with an escape the lookup compared. */
static int js_lookup(const char *z, uint32_t n, const agg_json_path *p, uint32_t *at){
  uint32_t i = js_skip_space(z, n, 0);
  for(int s=0; s<p->nstep; s++){
    const agg_json_step *st = &p->steps[s];
    if( st->kind==AGG_JSTEP_LABEL ){
      if( z[i]!='{' ) return 0;
      i = js_skip_space(z, n, i+1);
      int found = 0;
      while( z[i]!='}' ){
        uint32_t ke = js_string(z, n, i);
        const char *k = z+i+1;
        uint32_t kn = ke-i-2;
        if( memchr(k, '\\', kn) ) return AGG_JSON_REFUSED;
        i = js_skip_space(z, n, js_skip_space(z, n, ke)+1);   /* past ':' */
        if( kn==st->n && memcmp(k, st->label, kn)==0 ){ found = 1; break; }
        i = js_skip_space(z, n, js_skip(z, n, i));
        if( z[i]==',' ) i = js_skip_space(z, n, i+1);
      }
      if( !found ) return 0;
    }else{
      if( z[i]!='[' ) return 0;
      uint32_t first = js_skip_space(z, n, i+1);
      uint64_t want = st->index;
      if( st->kind==AGG_JSTEP_FROM_END ){
        uint64_t count = 0;
        for(uint32_t j=first; z[j]!=']'; count++){
          j = js_skip_space(z, n, js_skip(z, n, j));
          if( z[j]==',' ) j = js_skip_space(z, n, j+1);
        }
        if( want>count ) return 0;
        want = count - want;     /* [#] is past the end: not found */
      }
      i = first;
      for(uint64_t k=0; ; k++){
        if( z[i]==']' ) return 0;
        if( k==want ) break;
        i = js_skip_space(z, n, js_skip(z, n, i));
        if( z[i]==',' ) i = js_skip_space(z, n, i+1);
      }
    }
  }
  *at = i;
  return 1;
}

/* ---- results ------------------------------------------------------------- */

/* The value z[i..e) without the whitespace outside its strings. */
static int js_minify(const char *z, uint32_t i, uint32_t e, col_arena *a, pred_value *out){
  char *o = col_arena_alloc(a, e - i);
  if( o==0 ) return -1;
  uint32_t m = 0;
  for(uint32_t k=i; k<e; k++){
    char c = z[k];
    if( c=='"' ){
      uint32_t se = js_string(z, e, k);
      memcpy(o+m, z+k, se-k); m += se-k;
      k = se-1;
    }else if( !js_space(c) ){
      o[m++] = c;
    }
  }
  out->type = CV_TEXT; out->p = o; out->n = m;
  return 0;
}

static uint32_t js_hex4(const char *z){
  uint32_t v = 0;
  for(int k=0; k<4; k++){
    char c = z[k];
    v = v*16 + (uint32_t)(jp_digit(c) ? c-'0' : (c|0x20)-'a'+10);
  }
  return v;
}

/* A string token's text, unescaped as jsonReturn (3.40) writes it. */
static int js_unescape(const char *z, uint32_t i, uint32_t e, col_arena *a, pred_value *out){
  const char *s = z+i+1;
  uint32_t n = e-i-2;
  if( memchr(s, '\\', n)==0 ){
    out->type = CV_TEXT; out->p = s; out->n = n;
    return 0;
  }
  char *o = col_arena_alloc(a, n);    /* never longer than the escaped form */
  if( o==0 ) return -1;
  uint32_t m = 0;
  for(uint32_t k=0; k<n; k++){
    char c = s[k];
    if( c!='\\' ){ o[m++] = c; continue; }
    c = s[++k];
    if( c=='u' ){
      uint32_t v = js_hex4(s+k+1);
      k += 4;
      if( v==0 ) return AGG_JSON_REFUSED;
      if( (v&0xfc00)==0xd800 && k+6<n && s[k+1]=='\\' && s[k+2]=='u'
       && (js_hex4(s+k+3)&0xfc00)==0xdc00 ){
        /* a surrogate pair; a lone surrogate is written as it is */
        v = ((v&0x3ff)<<10) + (js_hex4(s+k+3)&0x3ff) + 0x10000;
        k += 6;
      }
      m += agg_utf8_put(o+m, v);
    }else{
      o[m++] = c=='b' ? '\b' : c=='f' ? '\f' : c=='n' ? '\n' : c=='r' ? '\r' : c=='t' ? '\t' : c;
    }
  }
  out->type = CV_TEXT; out->p = o; out->n = m;
  return 0;
}

/* A number token as an SQL value: an INTEGER when it is one that fits
** (the most negative too), else the SQLite's text-to-double. */
static void js_number_value(const char *z, uint32_t i, uint32_t e, const col_dialect *d,
                            pred_value *out){
  int integer = 1;
  for(uint32_t j=i + (z[i]=='-'); j<e; j++) if( !jp_digit(z[j]) ) integer = 0;
  if( integer && agg_atoi64(z+i, e-i, &out->i)==0 ){
    out->type = CV_INT;
    return;
  }
  out->type = CV_REAL;
  agg_atof(agg_atof_mode(d), z+i, e-i, &out->f);
}

int agg_json_extract(const char *z, uint32_t n, const agg_json_path *path, int as,
                     const col_dialect *d, col_arena *a, pred_value *out){
  memset(out, 0, sizeof(*out));
  if( memchr(z, 0, n) ) return AGG_JSON_REFUSED;
  int deep = 0;
  uint32_t s = js_skip_space(z, n, 0);
  uint32_t e = js_value(z, n, s, 0, &deep);
  if( e==0 ) return deep ? AGG_JSON_REFUSED : AGG_JSON_MALFORMED;
  if( js_skip_space(z, n, e)!=n ) return AGG_JSON_MALFORMED;
  /* a NULL path answers NULL, but only after the document parsed */
  if( path->null_path ) return 0;
  uint32_t at = 0;
  int rc = js_lookup(z, n, path, &at);
  if( rc<=0 ) return rc;
  uint32_t end = js_skip(z, n, at);
  char c = z[at];
  if( as==AGG_JSON_AS_JSON ){
    if( c=='{' || c=='[' ) return js_minify(z, at, end, a, out);
    out->type = CV_TEXT; out->p = z+at; out->n = end-at;
    return 0;
  }
  switch( c ){
    case '{': case '[': return js_minify(z, at, end, a, out);
    case '"': return js_unescape(z, at, end, a, out);
    case 't': out->type = CV_INT; out->i = 1; return 0;
    case 'f': out->type = CV_INT; out->i = 0; return 0;
    case 'n': return 0;
    default: js_number_value(z, at, end, d, out); return 0;
  }
}
