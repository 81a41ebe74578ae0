/*
** filter.c — filter= text to scan_preds; see filter.h.
*/
#include "filter.h"
#include "value.h"
#include "expr.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The parser's state: a cursor over the text. */
typedef struct fl_parser {
  const char *z;          /* the text */
  size_t pos;             /* next byte */
  const col_schema *schema; /* columns */
  agg_filter *f;          /* output */
  col_error *err;         /* errors */
  int cap;                /* allocated preds */
  const col_dialect *dialect; /* how numbers become text */
} fl_parser;

static void fl_space(fl_parser *p){
  while( p->z[p->pos]==' '||p->z[p->pos]=='\t'||p->z[p->pos]=='\n'||p->z[p->pos]=='\r' ) p->pos++;
}
static int fl_isid(char c){
  return (c>='a'&&c<='z')||(c>='A'&&c<='Z')||(c>='0'&&c<='9')||c=='_'||(c&0x80);
}
/* Consume keyword kw if it is next. Else nothing is consumed, not even the
** space before: a term is pushed only when its parse ends where the term
** does (agg_filter_parse), and `x LIKE 'p'` probes for an ESCAPE after it. */
static int fl_kw(fl_parser *p, const char *kw){
  size_t at = p->pos;
  fl_space(p);
  size_t n = strlen(kw);
  if( strncasecmp(p->z+p->pos, kw, n)==0 && !fl_isid(p->z[p->pos+n]) ){ p->pos += n; return 1; }
  p->pos = at;
  return 0;
}
static int fl_punct(fl_parser *p, const char *s){
  size_t at = p->pos;
  fl_space(p);
  size_t n = strlen(s);
  if( strncmp(p->z+p->pos, s, n)==0 ){ p->pos += n; return 1; }
  p->pos = at;
  return 0;
}

static int fl_error(fl_parser *p, const char *what){
  fl_space(p);
  return col_error_set(p->err, COL_ERROR, "group_by: filter: %s near \"%.30s\"",
                       what, p->z[p->pos] ? p->z+p->pos : "end of text");
}

static void *fl_keep(fl_parser *p, void *m){
  if( m==0 ) return 0;
  void **nm = realloc(p->f->mem, (size_t)(p->f->nmem+1)*sizeof(void*));
  if( nm==0 ){ free(m); return 0; }
  p->f->mem = nm;
  nm[p->f->nmem++] = m;
  return m;
}

/* A column name, or -1 when the next token is not one. */
static int fl_column(fl_parser *p){
  fl_space(p);
  const char *s = p->z + p->pos;
  char name[256];
  size_t n = 0, used;
  if( *s=='"' || *s=='[' || *s=='`' ){
    char close = *s=='[' ? ']' : *s;
    size_t i = 1;
    while( s[i] && n<sizeof(name)-1 ){
      if( s[i]==close ){ if( close!=']' && s[i+1]==close ){ name[n++] = close; i += 2; continue; } break; }
      name[n++] = s[i++];
    }
    if( s[i]!=close ) return -1;
    used = i+1;
  }else{
    if( !fl_isid(*s) || (*s>='0'&&*s<='9') ) return -1;
    while( fl_isid(s[n]) && n<sizeof(name)-1 ){ name[n] = s[n]; n++; }
    used = n;
    if( n==4 && strncasecmp(s, "NULL", 4)==0 ) return -1;
  }
  name[n] = 0;
  for(int c=0; c<p->schema->n; c++){
    if( strcasecmp(p->schema->cols[c].name, name)==0 ){ p->pos += used; return c; }
  }
  col_error_set(p->err, COL_ERROR, "group_by: filter: no such column: %s", name);
  return -2;
}

/* A literal: number (optionally signed), 'string', X'blob', NULL. 1 ok,
** 0 not a literal, -1 error. */
static int fl_literal(fl_parser *p, pred_value *v){
  fl_space(p);
  memset(v, 0, sizeof(*v));
  const char *s = p->z + p->pos;
  if( fl_kw(p, "NULL") ) return 1;
  if( *s=='\'' ){
    size_t i = 1, n = 0;
    char *o = fl_keep(p, malloc(strlen(s)+1));
    if( o==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory"), -1;
    for(;;){
      if( s[i]==0 ){ fl_error(p, "unterminated string"); return -1; }
      if( s[i]=='\'' ){ if( s[i+1]=='\'' ){ o[n++] = '\''; i += 2; continue; } break; }
      o[n++] = s[i++];
    }
    v->type = CV_TEXT; v->p = o; v->n = (uint32_t)n;
    p->pos += i+1;
    return 1;
  }
  if( (*s=='x'||*s=='X') && s[1]=='\'' ){
    size_t i = 2;
    while( s[i] && s[i]!='\'' ) i++;
    if( s[i]!='\'' || (i-2)%2 ){ fl_error(p, "malformed blob literal"); return -1; }
    char *o = fl_keep(p, malloc((i-2)/2+1));
    if( o==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory"), -1;
    for(size_t k=2; k<i; k+=2){
      int a = 0, b = 0;
      char c1 = s[k], c2 = s[k+1];
      a = c1>='0'&&c1<='9' ? c1-'0' : (c1|32)>='a'&&(c1|32)<='f' ? (c1|32)-'a'+10 : -1;
      b = c2>='0'&&c2<='9' ? c2-'0' : (c2|32)>='a'&&(c2|32)<='f' ? (c2|32)-'a'+10 : -1;
      if( a<0 || b<0 ){ fl_error(p, "malformed blob literal"); return -1; }
      o[(k-2)/2] = (char)(a*16+b);
    }
    v->type = CV_BLOB; v->p = o; v->n = (uint32_t)((i-2)/2);
    p->pos += i+1;
    return 1;
  }
  size_t i = 0;
  if( s[i]=='-' || s[i]=='+' ) i++;
  size_t d0 = i;
  while( (s[i]>='0'&&s[i]<='9') ) i++;
  int real = 0;
  if( s[i]=='.' ){ real = 1; i++; while( s[i]>='0'&&s[i]<='9' ) i++; }
  if( i==d0 || (i==d0+1 && s[d0]=='.') ) return 0;
  if( s[i]=='e' || s[i]=='E' ){
    size_t k = i+1;
    if( s[k]=='+'||s[k]=='-' ) k++;
    if( s[k]>='0'&&s[k]<='9' ){ real = 1; i = k; while( s[i]>='0'&&s[i]<='9' ) i++; }
  }
  if( fl_isid(s[i]) ) return 0;
  if( !real && agg_atoi64(s, (uint32_t)i, &v->i)==0 ){ v->type = CV_INT; }
  else{ v->type = CV_REAL; agg_atof(agg_atof_mode(p->dialect), s, (uint32_t)i, &v->f); }
  p->pos += i;
  return 1;
}

pred_value agg_apply_affinity(const char *decl, pred_value v, const col_dialect *d,
                              char *buf){
  if( decl==0 ) return v;
  if( (strcasecmp(decl, "INTEGER")==0 || strcasecmp(decl, "REAL")==0) && v.type==CV_TEXT ){
    return agg_numeric_affinity(agg_atof_mode(d), &v);
  }
  if( strcasecmp(decl, "TEXT")==0 ) return agg_text_affinity(d, v, buf);
  return v;
}

/* Make v owned by the filter after affinity for column col. */
static int fl_affinity(fl_parser *p, int col, pred_value *v){
  char buf[48];
  pred_value w = agg_apply_affinity(p->schema->cols[col].decl, *v, p->dialect, buf);
  if( w.type==CV_TEXT && w.p==buf ){
    char *o = fl_keep(p, malloc(w.n+1));
    if( o==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
    memcpy(o, buf, w.n);
    w.p = o;
  }
  *v = w;
  return COL_OK;
}

static scan_pred *fl_add(fl_parser *p, int col, pred_op op){
  if( p->f->npred>=p->cap ){
    int cap = p->cap ? p->cap*2 : 8;
    scan_pred *np = realloc(p->f->preds, (size_t)cap*sizeof(scan_pred));
    if( np==0 ){ col_error_set(p->err, COL_ENOMEM, "out of memory"); return 0; }
    p->f->preds = np; p->cap = cap;
  }
  scan_pred *sp = &p->f->preds[p->f->npred++];
  memset(sp, 0, sizeof(*sp));
  sp->col = col; sp->op = op; sp->exact = 1; sp->coll = COLL_BINARY;
  return sp;
}

static int fl_cmp_value(const void *a, const void *b){
  return agg_value_compare(a, b);
}

static int fl_compare_op(fl_parser *p, pred_op *op){
  if( fl_punct(p, "==") || fl_punct(p, "=") ){ *op = PRED_EQ; return 1; }
  if( fl_punct(p, "!=") || fl_punct(p, "<>") ){ *op = PRED_NE; return 1; }
  if( fl_punct(p, "<=") ){ *op = PRED_LE; return 1; }
  if( fl_punct(p, ">=") ){ *op = PRED_GE; return 1; }
  if( fl_punct(p, "<") ){ *op = PRED_LT; return 1; }
  if( fl_punct(p, ">") ){ *op = PRED_GT; return 1; }
  return 0;
}

static int fl_term(fl_parser *p){
  pred_value v;
  pred_op op;
  int col = fl_column(p);
  if( col==-2 ) return COL_ERROR;
  if( col<0 ){
    /* literal op column */
    int r = fl_literal(p, &v);
    if( r<0 ) return p->err->code;
    if( r==0 ) return fl_error(p, "expected a column");
    if( !fl_compare_op(p, &op) ) return fl_error(p, "expected a comparison");
    col = fl_column(p);
    if( col==-2 ) return COL_ERROR;
    if( col<0 ) return fl_error(p, "expected a column");
    static const pred_op flip[] = { PRED_EQ, PRED_NE, PRED_GT, PRED_GE, PRED_LT, PRED_LE };
    op = flip[op];
    if( fl_affinity(p, col, &v) ) return p->err->code;
    scan_pred *sp = fl_add(p, col, op);
    if( sp==0 ) return p->err->code;
    sp->v = v;
    return COL_OK;
  }
  if( fl_compare_op(p, &op) ){
    int r = fl_literal(p, &v);
    if( r<0 ) return p->err->code;
    if( r==0 ) return fl_error(p, "expected a literal");
    if( fl_affinity(p, col, &v) ) return p->err->code;
    scan_pred *sp = fl_add(p, col, op);
    if( sp==0 ) return p->err->code;
    sp->v = v;
    return COL_OK;
  }
  if( fl_kw(p, "ISNULL") ) return fl_add(p, col, PRED_ISNULL) ? COL_OK : p->err->code;
  if( fl_kw(p, "NOTNULL") ) return fl_add(p, col, PRED_NOTNULL) ? COL_OK : p->err->code;
  if( fl_kw(p, "NOT") ){
    if( fl_kw(p, "NULL") ) return fl_add(p, col, PRED_NOTNULL) ? COL_OK : p->err->code;
    return fl_error(p, "NOT LIKE / NOT IN / NOT BETWEEN cannot be pushed");
  }
  if( fl_kw(p, "IS") ){
    int neg = fl_kw(p, "NOT");
    int r = fl_literal(p, &v);
    if( r<0 ) return p->err->code;
    if( r==0 ) return fl_error(p, "expected a literal after IS");
    if( v.type==CV_NULL ) return fl_add(p, col, neg ? PRED_NOTNULL : PRED_ISNULL) ? COL_OK : p->err->code;
    if( fl_affinity(p, col, &v) ) return p->err->code;
    scan_pred *sp = fl_add(p, col, neg ? PRED_ISNOT : PRED_IS);
    if( sp==0 ) return p->err->code;
    sp->v = v;
    return COL_OK;
  }
  int like = fl_kw(p, "LIKE");
  if( like || fl_kw(p, "GLOB") ){
    int r = fl_literal(p, &v);
    if( r<0 ) return p->err->code;
    if( r==0 || v.type==CV_NULL || v.type==CV_BLOB ) return fl_error(p, "expected a pattern");
    if( v.type!=CV_TEXT ){ if( fl_affinity(p, col, &v) ) return p->err->code; }
    if( v.type!=CV_TEXT ){
      char buf[48];
      int n = v.type==CV_INT ? agg_int_to_text(v.i, buf) : agg_real_to_text(p->dialect, v.f, buf);
      char *o = fl_keep(p, malloc((size_t)n+1));
      if( o==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
      memcpy(o, buf, (size_t)n);
      v.type = CV_TEXT; v.p = o; v.n = (uint32_t)n;
    }
    uint32_t esc = 0;
    if( like && fl_kw(p, "ESCAPE") ){
      pred_value e;
      if( fl_literal(p, &e)!=1 || e.type!=CV_TEXT || e.n!=1 ) return fl_error(p, "ESCAPE expression must be a single character");
      esc = (unsigned char)e.p[0];
    }
    scan_pred *sp = fl_add(p, col, like ? PRED_LIKE : PRED_GLOB);
    if( sp==0 ) return p->err->code;
    sp->v = v; sp->like_escape = esc;
    return COL_OK;
  }
  if( fl_kw(p, "IN") ){
    if( !fl_punct(p, "(") ) return fl_error(p, "expected ( after IN");
    int n = 0, cap = 8;
    pred_value *vals = fl_keep(p, malloc((size_t)cap*sizeof(pred_value)));
    if( vals==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
    for(;;){
      int r = fl_literal(p, &v);
      if( r<0 ) return p->err->code;
      if( r==0 ) return fl_error(p, "expected a literal in the IN list");
      if( fl_affinity(p, col, &v) ) return p->err->code;
      if( v.type!=CV_NULL ){
        if( n==cap ){
          cap *= 2;
          pred_value *nv = malloc((size_t)cap*sizeof(pred_value));
          if( nv==0 || fl_keep(p, nv)==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
          memcpy(nv, vals, (size_t)n*sizeof(pred_value));
          vals = nv;
        }
        vals[n++] = v;
      }
      if( fl_punct(p, ",") ) continue;
      if( fl_punct(p, ")") ) break;
      return fl_error(p, "expected , or ) in the IN list");
    }
    qsort(vals, (size_t)n, sizeof(pred_value), fl_cmp_value);
    scan_pred *sp = fl_add(p, col, PRED_IN);
    if( sp==0 ) return p->err->code;
    sp->nin = n; sp->in = vals;
    return COL_OK;
  }
  if( fl_kw(p, "BETWEEN") ){
    pred_value lo, hi;
    if( fl_literal(p, &lo)!=1 ) return p->err->code ? p->err->code : fl_error(p, "expected a literal");
    if( !fl_kw(p, "AND") ) return fl_error(p, "expected AND in BETWEEN");
    if( fl_literal(p, &hi)!=1 ) return p->err->code ? p->err->code : fl_error(p, "expected a literal");
    if( fl_affinity(p, col, &lo) || fl_affinity(p, col, &hi) ) return p->err->code;
    scan_pred *a = fl_add(p, col, PRED_GE);
    if( a==0 ) return p->err->code;
    a->v = lo;
    scan_pred *b = fl_add(p, col, PRED_LE);
    if( b==0 ) return p->err->code;
    b->v = hi;
    return COL_OK;
  }
  return fl_error(p, "cannot push this condition");
}

/* Append "(text)" to the where text, joined by AND; the column references
** of sites (sorted, inside text) written as $(column, constant). */
static int fl_where_add(agg_filter *f, size_t *wn, size_t *wcap, const char *z,
                        size_t t0, size_t t1, const agg_where_site *site, int nsite){
  size_t need = *wn + (t1 - t0) + 8;
  for(int i=0; i<nsite; i++) need += (site[i].v1 - site[i].v0) + 24;
  if( need>*wcap ){
    size_t cap = need*2;
    char *w = realloc(f->where, cap);
    if( w==0 ) return COL_ENOMEM;
    f->where = w; *wcap = cap;
  }
  char *o = f->where;
  size_t n = *wn;
  if( n ){ memcpy(o+n, " AND ", 5); n += 5; }
  o[n++] = '(';
  size_t at = t0;
  for(int i=0; i<nsite; i++){
    memcpy(o+n, z+at, site[i].t0 - at); n += site[i].t0 - at;
    n += (size_t)sprintf(o+n, "$(%d, ", site[i].src);
    memcpy(o+n, z+site[i].v0, site[i].v1 - site[i].v0); n += site[i].v1 - site[i].v0;
    o[n++] = ')';
    at = site[i].t1;
  }
  memcpy(o+n, z+at, t1 - at); n += t1 - at;
  o[n++] = ')';
  o[n] = 0;
  *wn = n;
  return COL_OK;
}

int agg_filter_parse(const char *text, const col_schema *schema,
                     const col_dialect *d, agg_filter *out, col_error *err){
  memset(out, 0, sizeof(*out));
  fl_parser p;
  memset(&p, 0, sizeof(p));
  p.z = text ? text : ""; p.schema = schema; p.f = out; p.err = err;
  p.dialect = d;
  fl_space(&p);
  if( p.z[p.pos]==0 ) return COL_OK;
  /* The terms SQLite's planner sees, each pushed into the scan when it is
  ** a predicate the reader applies exactly, else kept in `where` (with the
  ** references constant propagation fixed). */
  agg_where_terms ws;
  if( agg_where_split(p.z, schema, &ws, err) ){
    col_error_prefix(err, "group_by: filter: ");
    return err->code;
  }
  size_t wn = 0, wcap = 0;
  const agg_where_site *site = ws.site;
  for(int i=0; i<ws.nterm; i++){
    const agg_where_term *t = &ws.term[i];
    if( t->nsite==0 ){
      p.pos = t->t0;
      int np0 = out->npred;
      if( fl_term(&p)==COL_OK ){
        size_t e = p.pos;
        while( e<t->t1 && (p.z[e]==' '||p.z[e]=='\t'||p.z[e]=='\n'||p.z[e]=='\r'||p.z[e]=='\f'||p.z[e]=='\v') ) e++;
        if( e==t->t1 ) continue;
      }else if( err->code==COL_ENOMEM ){
        goto fail;
      }
      out->npred = np0;
      col_error_clear(err);
    }
    if( fl_where_add(out, &wn, &wcap, p.z, t->t0, t->t1, site, t->nsite) ){
      col_error_set(err, COL_ENOMEM, "out of memory");
      goto fail;
    }
    if( t->nsite ) site += t->nsite;   /* site is NULL when there are none */
  }
  agg_where_split_free(&ws);
  return COL_OK;
fail:
  agg_where_split_free(&ws);
  agg_filter_free(out);
  return err->code ? err->code : COL_ERROR;
}

void agg_filter_free(agg_filter *f){
  for(int i=0; i<f->nmem; i++) free(f->mem[i]);
  free(f->mem); free(f->preds); free(f->where);
  memset(f, 0, sizeof(*f));
}
