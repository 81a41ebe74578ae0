/*
** expr_parse.c — group_by's expressions from their SQL text; see expr.h.
**
** The parser is recursive descent over a tiny tokenizer, in SQLite's
** precedence, and builds the trees of expr_node.h. Identical subtrees of
** one root are then merged (ex_share), and a WHERE clause is split into its
** AND-terms with SQLite's constant propagation applied (agg_where_split).
*/
#include "expr_node.h"
#include "value.h"
#include "expr_scalar.h"
#include "ordered.h"
#include "json.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- tokenizer ---------------------------------------------------------- */

enum { TK_END, TK_INT, TK_REAL, TK_STR, TK_BLOB, TK_ID, TK_QID, TK_PUNCT, TK_BAD };

typedef struct ex_parser {
  const char *z;          /* the whole text */
  size_t pos;             /* current position */
  int tk;                 /* current token kind */
  size_t ts, tn;          /* current token start and length */
  int punct;              /* TK_PUNCT: the character ('|' for ||) */
  const col_schema *schema; /* columns names resolve against */
  col_error *err;         /* where errors go */
  int depth;              /* nesting of parentheses and calls */
  int internal;           /* $(column, constant) is read (agg_where_split) */
  size_t prev_end;        /* where the token before the current one ended */
} ex_parser;

static int ex_isid(char c){
  return (c>='a'&&c<='z')||(c>='A'&&c<='Z')||(c>='0'&&c<='9')||c=='_'||(c&0x80);
}

static void ex_next(ex_parser *p){
  const char *z = p->z;
  size_t i = p->pos;
  p->prev_end = p->ts + p->tn;
  while( z[i]==' '||z[i]=='\t'||z[i]=='\n'||z[i]=='\r'||z[i]=='\f'||z[i]=='\v' ) i++;
  p->ts = i;
  char c = z[i];
  if( c==0 ){ p->tk = TK_END; p->tn = 0; p->pos = i; return; }
  if( (c>='0'&&c<='9') || (c=='.' && z[i+1]>='0' && z[i+1]<='9') ){
    size_t j = i;
    int real = 0;
    if( c=='0' && (z[i+1]=='x'||z[i+1]=='X') && ex_isid(z[i+2]) ){
      j = i+2;
      while( (z[j]>='0'&&z[j]<='9')||(z[j]>='a'&&z[j]<='f')||(z[j]>='A'&&z[j]<='F') ) j++;
      p->tk = ex_isid(z[j]) ? TK_BAD : TK_INT;
      p->tn = j - i; p->pos = j; return;
    }
    while( z[j]>='0'&&z[j]<='9' ) j++;
    if( z[j]=='.' ){ real = 1; j++; while( z[j]>='0'&&z[j]<='9' ) j++; }
    if( (z[j]=='e'||z[j]=='E') ){
      size_t k = j+1;
      if( z[k]=='+'||z[k]=='-' ) k++;
      if( z[k]>='0'&&z[k]<='9' ){ real = 1; j = k; while( z[j]>='0'&&z[j]<='9' ) j++; }
    }
    p->tk = ex_isid(z[j]) ? TK_BAD : real ? TK_REAL : TK_INT;
    p->tn = j - i; p->pos = j; return;
  }
  if( (c=='x'||c=='X') && z[i+1]=='\'' ){
    size_t j = i+2;
    while( z[j] && z[j]!='\'' ) j++;
    p->tk = z[j] ? TK_BLOB : TK_BAD;
    p->tn = (z[j] ? j+1 : j) - i; p->pos = i + p->tn; return;
  }
  if( c=='\'' || c=='"' || c=='`' || c=='[' ){
    char close = c=='[' ? ']' : c;
    size_t j = i+1;
    for(;;){
      if( z[j]==0 ){ p->tk = TK_BAD; p->tn = j-i; p->pos = j; return; }
      if( z[j]==close ){
        if( close!=']' && z[j+1]==close ){ j += 2; continue; }
        break;
      }
      j++;
    }
    p->tk = c=='\'' ? TK_STR : TK_QID;
    p->tn = j+1-i; p->pos = j+1; return;
  }
  if( ex_isid(c) ){
    size_t j = i;
    while( ex_isid(z[j]) ) j++;
    p->tk = TK_ID; p->tn = j-i; p->pos = j; return;
  }
  if( c=='|' && z[i+1]=='|' ){ p->tk = TK_PUNCT; p->punct = '|'; p->tn = 2; p->pos = i+2; return; }
  if( c=='=' ){ p->tk = TK_PUNCT; p->punct = '='; p->tn = z[i+1]=='=' ? 2 : 1; p->pos = i+p->tn; return; }
  if( (c=='!' && z[i+1]=='=') || (c=='<' && z[i+1]=='>') ){ p->tk = TK_PUNCT; p->punct = 'N'; p->tn = 2; p->pos = i+2; return; }
  if( (c=='<' || c=='>') && z[i+1]=='=' ){ p->tk = TK_PUNCT; p->punct = c=='<' ? 'L' : 'G'; p->tn = 2; p->pos = i+2; return; }
  /* -> 'A', ->> 'D' */
  if( c=='-' && z[i+1]=='>' ){ p->tk = TK_PUNCT; p->tn = z[i+2]=='>' ? 3 : 2; p->punct = p->tn==3 ? 'D' : 'A'; p->pos = i+p->tn; return; }
  /* bitwise: << 'S', >> 'R', a lone | 'B' (|| is concatenation, '|') */
  if( (c=='<' || c=='>') && z[i+1]==c ){ p->tk = TK_PUNCT; p->punct = c=='<' ? 'S' : 'R'; p->tn = 2; p->pos = i+2; return; }
  if( c=='|' ){ p->tk = TK_PUNCT; p->punct = 'B'; p->tn = 1; p->pos = i+1; return; }
  if( strchr("(),*+-/%<>$&~", c) ){ p->tk = TK_PUNCT; p->punct = c; p->tn = 1; p->pos = i+1; return; }
  p->tk = TK_BAD; p->tn = 1; p->pos = i+1;
}

static int ex_is(ex_parser *p, int punct){ return p->tk==TK_PUNCT && p->punct==punct; }
static int ex_kw(ex_parser *p, const char *kw){
  return p->tk==TK_ID && strlen(kw)==p->tn && strncasecmp(p->z+p->ts, kw, p->tn)==0;
}

static int ex_syntax(ex_parser *p){
  if( p->tk==TK_END ) return col_error_set(p->err, COL_ERROR, "incomplete expression: \"%s\"", p->z);
  return col_error_set(p->err, COL_ERROR, "syntax error near \"%.*s\" in \"%s\"",
                       (int)(p->tn ? p->tn : 1), p->z+p->ts, p->z);
}

/* The text of a quoted token, quotes removed and doubled quotes undone. */
static char *ex_unquote(const char *s, size_t n, uint32_t *len){
  char *o = malloc(n+1);
  if( o==0 ) return 0;
  char q = s[0], close = q=='[' ? ']' : q;
  size_t k = 0;
  for(size_t i=1; i+1<n; i++){
    o[k++] = s[i];
    if( s[i]==close && close!=']' ) i++;
  }
  o[k] = 0;
  *len = (uint32_t)k;
  return o;
}

/* ---- nodes -------------------------------------------------------------- */

static agg_expr *ex_node(int op){
  agg_expr *e = calloc(1, sizeof(*e));
  if( e ){ e->op = op; e->src = -1; e->bcol = -1; e->dcol = -1; }
  return e;
}

static void ex_free(agg_expr *e){
  if( e==0 ) return;
  if( e->refs>0 ){ e->refs--; return; }
  for(int i=0; i<e->nargs; i++) ex_free(e->args[i]);
  ex_free(e->unfolded);
  free(e->lit_mem); free(e->tags); free(e->i64); free(e->f64); free(e->str);
  free(e->dcols); free(e->dtags);
  for(int i=0; i<e->nmods; i++) agg_tz_cache_free(e->mods[i].tz);
  agg_ts_memo_free(e->ts); free(e->tcodes); free(e->mods);
  free(e->tshift); free(e->tshift_tags); agg_tpl_free(&e->stpl);
  free(e->ec_done); free(e->ec_tags); free(e->ec_i64); free(e->ec_f64); free(e->ec_str);
  free(e->ec_need); free(e->ec_bits); col_arena_free(&e->ec_bytes);
  agg_tpl_free(&e->tpl);
  if( e->jpath ){ agg_json_path_free(e->jpath); free(e->jpath); }
  free(e);
}

static agg_expr *ex_oom(ex_parser *p){
  col_error_set(p->err, COL_ENOMEM, "out of memory parsing \"%s\"", p->z);
  return 0;
}

static agg_expr *ex_parse_expr(ex_parser *p);
static agg_expr *ex_case(ex_parser *p);
static int ex_coll(const agg_expr *e);
static int ex_cmp_coll(const agg_expr *l, const agg_expr *r);
static agg_expr *ex_json_path(ex_parser *p, agg_expr *e);

static agg_expr *ex_node1(ex_parser *p, int op, int sub, agg_expr *a){
  if( a==0 ) return 0;
  agg_expr *e = ex_node(op);
  if( e==0 ){ ex_free(a); return ex_oom(p); }
  e->sub = sub; e->nargs = 1; e->args[0] = a;
  return e;
}

/* A number literal; neg when a unary minus was folded into it. */
static agg_expr *ex_number(ex_parser *p, int neg){
  agg_expr *e = ex_node(EX_LIT);
  if( e==0 ) return ex_oom(p);
  char buf[400];
  size_t n = p->tn < sizeof(buf)-2 ? p->tn : sizeof(buf)-2;
  buf[0] = '-';
  memcpy(buf+1, p->z+p->ts, n);
  buf[n+1] = 0;
  char *s = neg ? buf : buf+1;
  if( p->tk==TK_INT && n>2 && s[neg]=='0' && (s[neg+1]=='x'||s[neg+1]=='X') ){
    uint64_t u = strtoull(s+neg+2, 0, 16);
    if( n-2>16 ){ ex_free(e); col_error_set(p->err, COL_ERROR, "hex literal too big: %s", s); return 0; }
    e->lit.type = CV_INT; e->lit.i = neg ? -(int64_t)u : (int64_t)u;
  }else if( p->tk==TK_INT && agg_atoi64(s, (uint32_t)strlen(s), &e->lit.i)==0 ){
    e->lit.type = CV_INT;
    /* an INTEGER token that fits 32 bits carries its truth (sqlite3ExprAlloc) */
    if( !neg && e->lit.i<=2147483647 ) e->known = e->lit.i ? EX_KNOWN_TRUE : EX_KNOWN_FALSE;
  }else{
    e->lit.type = CV_REAL;
    /* parsed before a dialect is known: 3.40's arithmetic (agg_atof), and
    ** the text kept for agg_expr_set_dialect to parse again */
    uint32_t len = (uint32_t)strlen(s);
    agg_atof(0, s, len, &e->lit.f);
    if( (e->lit_mem = malloc(len + 1))==0 ){ ex_free(e); return ex_oom(p); }
    memcpy(e->lit_mem, s, len + 1);
    e->lit.p = e->lit_mem; e->lit.n = len;
  }
  ex_next(p);
  return e;
}

static int ex_hexval(char c){
  return c>='0'&&c<='9' ? c-'0' : c>='a'&&c<='f' ? c-'a'+10 : c>='A'&&c<='F' ? c-'A'+10 : -1;
}

/* The affinity comparisons see for an AGG_CAST_* type affinity: INTEGER
** and REAL compare as NUMERIC. */
int ex_cmp_affinity(int cast_aff){
  return cast_aff==AGG_CAST_TEXT ? AFF_TEXT : cast_aff==AGG_CAST_BLOB ? AFF_BLOB : AFF_NUM;
}

/* A column's declared type as sqlite3AffinityType reads it; no type is
** BLOB. */
static int ex_decl_aff(const char *d){
  if( d==0 || d[0]==0 ) return AFF_BLOB;
  return ex_cmp_affinity(agg_cast_affinity(d, strlen(d)));
}

static agg_expr *ex_column(ex_parser *p, const char *name, size_t n){
  for(int c=0; c<p->schema->n; c++){
    const char *cn = p->schema->cols[c].name;
    if( strlen(cn)==n && strncasecmp(cn, name, n)==0 ){
      agg_expr *e = ex_node(EX_COL);
      if( e==0 ) return ex_oom(p);
      e->src = c;
      e->aff = ex_decl_aff(p->schema->cols[c].decl);
      return e;
    }
  }
  col_error_set(p->err, COL_ERROR, "no such column: %.*s", (int)n, name);
  return 0;
}

static const struct { const char *name; int fn, lo, hi; } ex_funcs[] = {
  {"length", FN_LENGTH, 1, 1}, {"substr", FN_SUBSTR, 2, 3},
  {"substring", FN_SUBSTR, 2, 3}, {"lower", FN_LOWER, 1, 1},
  {"upper", FN_UPPER, 1, 1}, {"strftime", FN_STRFTIME, 2, EX_MAXARG},
  {"date", FN_DATE, 1, EX_MAXARG}, {"time", FN_TIME, 1, EX_MAXARG},
  {"datetime", FN_DATETIME, 1, EX_MAXARG}, {"instr", FN_INSTR, 2, 2},
  {"iif", FN_IIF, 2, EX_MAXARG}, {"if", FN_IIF, 2, EX_MAXARG}, {"abs", FN_ABS, 1, 1},
  {"coalesce", FN_COALESCE, 2, EX_MAXARG}, {"ifnull", FN_COALESCE, 2, 2},
  {"nullif", FN_NULLIF, 2, 2}, {"typeof", FN_TYPEOF, 1, 1},
  {"trim", FN_TRIM, 1, 2}, {"ltrim", FN_LTRIM, 1, 2}, {"rtrim", FN_RTRIM, 1, 2},
  {"replace", FN_REPLACE, 3, 3}, {"round", FN_ROUND, 1, 2}, {"min", FN_MIN, 1, EX_MAXARG},
  {"max", FN_MAX, 1, EX_MAXARG}, {"julianday", FN_JULIANDAY, 1, EX_MAXARG},
  {"unixepoch", FN_UNIXEPOCH, 1, EX_MAXARG}, {"json_extract", FN_JSON_EXTRACT, 1, EX_MAXARG},
  {"sign", FN_SIGN, 1, 1}, {"floor", FN_FLOOR, 1, 1}, {"ceil", FN_CEIL, 1, 1},
  {"ceiling", FN_CEIL, 1, 1}, {"trunc", FN_TRUNC, 1, 1}, {"mod", FN_MOD, 2, 2},
  {"pow", FN_POW, 2, 2}, {"power", FN_POW, 2, 2}, {"sqrt", FN_SQRT, 1, 1},
  {"exp", FN_EXP, 1, 1}, {"ln", FN_LN, 1, 1}, {"log", FN_LOG, 1, 2},
  {"log10", FN_LOG10, 1, 1}, {"log2", FN_LOG2, 1, 1},
  {"likely", FN_LIKELY, 1, 1}, {"unlikely", FN_LIKELY, 1, 1}, {"likelihood", FN_LIKELY, 2, 2},
  {"hex", FN_HEX, 1, 1}, {"unicode", FN_UNICODE, 1, 1}, {"char", FN_CHAR, 0, EX_MAXARG},
  {"concat", FN_CONCAT, 1, EX_MAXARG}, {"concat_ws", FN_CONCAT_WS, 2, EX_MAXARG},
  {"octet_length", FN_OCTET_LENGTH, 1, 1},
};

/* A date function with a known format gets its template in *t (none for
** formats a template cannot serve). -1 when out of memory. */
static int ex_tpl(agg_expr *e, agg_tpl *t){
  if( e->op!=EX_FUNC ) return 0;
  switch( e->sub ){
    case FN_DATE: return agg_tpl_compile("%Y-%m-%d", 8, t)<0 ? -1 : 0;
    case FN_TIME: return agg_tpl_compile("%H:%M:%S", 8, t)<0 ? -1 : 0;
    case FN_DATETIME: return agg_tpl_compile("%Y-%m-%d %H:%M:%S", 17, t)<0 ? -1 : 0;
    case FN_STRFTIME:
      if( e->args[0]->op!=EX_LIT || e->args[0]->lit.type!=CV_TEXT ) return 0;
      return agg_tpl_compile(e->args[0]->lit.p, e->args[0]->lit.n, t)<0 ? -1 : 0;
    default: return 0;
  }
}

/* How the memo over raw timestamps can serve e's modifiers: the first ones
** that only add a fixed time become a shift of the integers (their sum
** kept within +-1e15 ms, past any date SQLite shows); then a date-only
** result whose other modifiers move whole days, or any text result whose
** next modifier is 'start of day|month|year', takes a memo per day
** (ts_daily), and one with no other modifiers its format's template. Else
** (a time-level modifier after the shift and not after a 'start of',
** '+3 hours' then 'weekday 0' with the time shown) every row goes through
** its text. -1 when out of memory. */
static int ex_date_memo_plan(agg_expr *e){
  int ns = 0;
  int64_t total = 0, ms;
  while( ns<e->nmods && agg_date_mod_shift(&e->mods[ns], &ms)
         && ms>=-1000000000000000ll && ms<=1000000000000000ll
         && total+ms>=-1000000000000000ll && total+ms<=1000000000000000ll ){
    total += ms;
    ns++;
  }
  if( e->nmods==0 ) return ex_tpl(e, &e->tpl);
  int lit_fmt = e->sub==FN_STRFTIME && e->args[0]->op==EX_LIT && e->args[0]->lit.type==CV_TEXT;
  if( agg_date_mods_daily(e->mods + ns, e->nmods - ns) ){
    e->ts_daily = e->sub==FN_DATE
               || (lit_fmt && agg_fmt_date_only(e->args[0]->lit.p, e->args[0]->lit.n));
  }
  /* 'start of day|month|year' first: the time of day is gone, and what
  ** follows, whatever it is and prints, sees the day alone
  ** (datetime(t, 'start of day'), strftime('%H', t, 'start of month', '+6 hours')) */
  int k = e->nmods>ns ? e->mods[ns].kind : -1;
  if( (k==AGG_DM_START_DAY || k==AGG_DM_START_MONTH || k==AGG_DM_START_YEAR)
   && (e->sub==FN_DATE || e->sub==FN_TIME || e->sub==FN_DATETIME || lit_fmt) ){
    e->ts_daily = 1;
  }
  if( ns==0 ) return 0;
  if( e->ts_daily || ns==e->nmods ){
    e->ts_nshift = ns;
    e->ts_shift_ms = total;
  }
  if( !e->ts_daily && ns==e->nmods ) return ex_tpl(e, &e->stpl);
  return 0;
}

static agg_expr *ex_parse_expr(ex_parser *p);

/* The modifiers after a date function's time value: literals group_by
** reads (agg_date_mod_parse), else an error saying it leaves them to
** SQLite. A NULL modifier makes every result NULL, as in SQLite. */
static int ex_date_mods(ex_parser *p, agg_expr *e){
  int first;
  switch( e->sub ){
    case FN_STRFTIME: first = 2; break;
    case FN_DATE: case FN_TIME: case FN_DATETIME: case FN_JULIANDAY: case FN_UNIXEPOCH:
      first = 1; break;
    default: return 0;
  }
  if( e->op!=EX_FUNC || e->nargs<=first ) return 0;
  e->mods = calloc((size_t)(e->nargs - first), sizeof(agg_date_mod));
  if( e->mods==0 ){ ex_oom(p); return 1; }
  for(int i=first; i<e->nargs; i++){
    const agg_expr *a = e->args[i];
    agg_date_mod *m = &e->mods[e->nmods++];
    if( a->op==EX_LIT && a->lit.type==CV_NULL ){ m->kind = AGG_DM_NULL; continue; }
    if( a->op!=EX_LIT || a->lit.type!=CV_TEXT ){
      col_error_set(p->err, COL_ERROR, "group_by evaluates date modifiers given as text literals only (use SQLite's own GROUP BY)");
      return 1;
    }
    if( agg_date_mod_parse(a->lit.p, a->lit.n, m) ){
      col_error_set(p->err, COL_ERROR, "group_by does not evaluate the date modifier '%.*s' "
                    "(it reads 'start of day|month|year', 'weekday N', '+N days|hours|minutes|seconds|months|years', "
                    "'+HH:MM[:SS]', '+YYYY-MM-DD[ HH:MM[:SS]]', 'floor', 'ceiling', 'unixepoch', 'julianday', 'auto', "
                    "'localtime', 'utc' and 'subsec'; use SQLite's own GROUP BY)", (int)a->lit.n, a->lit.p);
      return 1;
    }
    if( m->kind==AGG_DM_LOCALTIME || m->kind==AGG_DM_UTC ) m->tz = agg_tz_cache_new();
  }
  return 0;
}

/* CAST ( expr AS type-name ) (the CAST keyword is current): the type name
** is every token up to the closing parenthesis, as SQLite reads it. */
static agg_expr *ex_cast(ex_parser *p){
  ex_next(p);
  if( !ex_is(p, '(') ){ ex_syntax(p); return 0; }
  ex_next(p);
  agg_expr *x = ex_parse_expr(p);
  if( x==0 ) return 0;
  if( !ex_kw(p, "AS") ){ ex_free(x); ex_syntax(p); return 0; }
  ex_next(p);
  size_t start = p->ts, end = p->ts;
  int depth = 0;
  while( p->tk!=TK_END && p->tk!=TK_BAD && !(depth==0 && ex_is(p, ')')) ){
    if( ex_is(p, '(') ) depth++;
    if( ex_is(p, ')') ) depth--;
    end = p->ts + p->tn;
    ex_next(p);
  }
  char c0 = p->z[start];
  int name = (c0>='a'&&c0<='z') || (c0>='A'&&c0<='Z') || c0=='_' || c0=='"' || c0=='[' || c0=='`' || (c0&0x80);
  if( end==start || !ex_is(p, ')') || !name ){
    ex_free(x); ex_syntax(p); return 0;
  }
  ex_next(p);
  agg_expr *e = ex_node1(p, EX_FUNC, FN_CAST, x);
  if( e ) e->aff = agg_cast_affinity(p->z + start, end - start);
  return e;
}

/* $(column index, constant): the column SQLite's constant propagation
** replaced by the constant of a `column = constant` term (agg_where_split
** writes these; users cannot: only the internal parse reads them). It
** compares with the column's affinity, and its value is the constant with
** that affinity applied (expr.c's EP_FixedCol, an OP_Affinity). */
static agg_expr *ex_fixed(ex_parser *p){
  ex_next(p);
  if( !ex_is(p, '(') ){ ex_syntax(p); return 0; }
  ex_next(p);
  int64_t col;
  if( p->tk!=TK_INT || agg_atoi64(p->z+p->ts, (uint32_t)p->tn, &col) || col<0 || col>=p->schema->n ){
    ex_syntax(p); return 0;
  }
  ex_next(p);
  if( !ex_is(p, ',') ){ ex_syntax(p); return 0; }
  ex_next(p);
  agg_expr *v = ex_parse_expr(p);
  if( v==0 ) return 0;
  if( !ex_is(p, ')') ){ ex_free(v); ex_syntax(p); return 0; }
  ex_next(p);
  agg_expr *e = ex_node1(p, EX_FUNC, FN_FIXED, v);
  if( e==0 ) return 0;
  const char *d = p->schema->cols[col].decl;
  e->aff = ex_decl_aff(d);
  e->fix_class = d && d[0] ? agg_cast_affinity(d, strlen(d)) : AGG_CAST_BLOB;
  return e;
}

static agg_expr *ex_primary(ex_parser *p){
  agg_expr *e = 0;
  switch( p->tk ){
    case TK_INT: case TK_REAL: return ex_number(p, 0);
    case TK_STR: case TK_BLOB: {
      e = ex_node(EX_LIT);
      if( e==0 ) return ex_oom(p);
      if( p->tk==TK_STR ){
        e->lit_mem = ex_unquote(p->z+p->ts, p->tn, &e->lit.n);
        if( e->lit_mem==0 ){ ex_free(e); return ex_oom(p); }
        e->lit.type = CV_TEXT;
      }else{
        size_t nh = p->tn - 3;
        const char *h = p->z + p->ts + 2;
        if( nh%2 ){ ex_free(e); col_error_set(p->err, COL_ERROR, "malformed blob literal: %.*s", (int)p->tn, p->z+p->ts); return 0; }
        e->lit_mem = malloc(nh/2 + 1);
        if( e->lit_mem==0 ){ ex_free(e); return ex_oom(p); }
        for(size_t i=0; i<nh; i+=2){
          int a = ex_hexval(h[i]), b = ex_hexval(h[i+1]);
          if( a<0 || b<0 ){ ex_free(e); col_error_set(p->err, COL_ERROR, "malformed blob literal: %.*s", (int)p->tn, p->z+p->ts); return 0; }
          e->lit_mem[i/2] = (char)(a*16+b);
        }
        e->lit.type = CV_BLOB; e->lit.n = (uint32_t)(nh/2);
      }
      e->lit.p = e->lit_mem;
      ex_next(p);
      return e;
    }
    case TK_QID: {
      uint32_t n;
      char *name = ex_unquote(p->z+p->ts, p->tn, &n);
      if( name==0 ) return ex_oom(p);
      e = ex_column(p, name, n);
      free(name);
      if( e ){ e->t0 = p->ts; e->t1 = p->ts + p->tn; ex_next(p); }
      return e;
    }
    case TK_ID: {
      size_t ts = p->ts, tn = p->tn;
      if( ex_kw(p, "NULL") ){
        e = ex_node(EX_LIT);
        if( e==0 ) return ex_oom(p);
        ex_next(p);
        return e;
      }
      if( ex_kw(p, "CASE") ) return ex_case(p);
      if( ex_kw(p, "CAST") ) return ex_cast(p);
      ex_next(p);
      if( !ex_is(p, '(') ){
        e = ex_column(p, p->z+ts, tn);
        if( e ){ e->t0 = ts; e->t1 = ts + tn; }
        return e;
      }
      int fn = -1, lo = 0, hi = 0;
      for(size_t i=0; i<sizeof(ex_funcs)/sizeof(ex_funcs[0]); i++){
        if( strlen(ex_funcs[i].name)==tn && strncasecmp(ex_funcs[i].name, p->z+ts, tn)==0 ){
          fn = ex_funcs[i].fn; lo = ex_funcs[i].lo; hi = ex_funcs[i].hi;
        }
      }
      if( fn<0 ){
        if( agg_kind_from_name(p->z+ts, (int)tn)>=0 ){
          col_error_set(p->err, COL_ERROR, "misuse of aggregate function %.*s()", (int)tn, p->z+ts);
        }else{
          col_error_set(p->err, COL_ERROR, "no such function: %.*s", (int)tn, p->z+ts);
        }
        return 0;
      }
      e = ex_node(EX_FUNC);
      if( e==0 ) return ex_oom(p);
      e->sub = fn;
      ex_next(p);
      if( !ex_is(p, ')') ){
        for(;;){
          if( e->nargs>=EX_MAXARG ) break;
          agg_expr *a = ex_parse_expr(p);
          if( a==0 ){ ex_free(e); return 0; }
          e->args[e->nargs++] = a;
          if( !ex_is(p, ',') ) break;
          ex_next(p);
        }
      }
      if( !ex_is(p, ')') ){ ex_free(e); ex_syntax(p); return 0; }
      ex_next(p);
      if( e->nargs<lo || e->nargs>hi ){
        col_error_set(p->err, COL_ERROR, "wrong number of arguments to function %.*s()", (int)tn, p->z+ts);
        ex_free(e);
        return 0;
      }
      if( (fn==FN_MIN || fn==FN_MAX) && e->nargs==1 ){
        /* min(x) and max(x) are the aggregates */
        col_error_set(p->err, COL_ERROR, "misuse of aggregate function %.*s()", (int)tn, p->z+ts);
        ex_free(e);
        return 0;
      }
      if( fn==FN_IIF ){
        /* iif(c1, v1, [c2, v2, ...] [else]): a CASE. Other than three
        ** arguments, and if(), are 3.48's (iif_new, col_dialect.iif_multi) */
        e->iif_new = e->nargs!=3 || tn==2;
        e->op = EX_CASE; e->sub = 0; e->has_else = e->nargs & 1;
      }
      if( fn==FN_LIKELY && e->nargs==2 ){
        /* exprProbability: a REAL literal from 0.0 to 1.0 */
        const agg_expr *pr = e->args[1];
        if( pr->op!=EX_LIT || pr->lit.type!=CV_REAL || !(pr->lit.f>=0.0 && pr->lit.f<=1.0) ){
          col_error_set(p->err, COL_ERROR, "second argument to likelihood() must be a constant between 0.0 and 1.0");
          ex_free(e);
          return 0;
        }
      }
      if( fn==FN_JSON_EXTRACT ){
        if( e->nargs!=2 ){
          col_error_set(p->err, COL_ERROR, "json_extract() with %s is not evaluated here (use SQLite's own GROUP BY)", e->nargs<2 ? "no path" : "several paths");
          ex_free(e);
          return 0;
        }
        return ex_json_path(p, e);
      }
      if( fn==FN_NULLIF || fn==FN_MIN || fn==FN_MAX ){
        /* SQLITE_FUNC_NEEDCOLL: the first argument with a collation */
        int c = -1;
        for(int i=0; i<e->nargs && c<0; i++) c = ex_coll(e->args[i]);
        e->coll = (uint8_t)(c<0 ? COLL_BINARY : c);
      }
      if( ex_date_mods(p, e) ){ ex_free(e); return 0; }
      if( ex_date_memo_plan(e) ){ ex_free(e); return ex_oom(p); }
      return e;
    }
    case TK_PUNCT:
      if( p->punct=='$' && p->internal ) return ex_fixed(p);
      if( p->punct=='(' ){
        ex_next(p);
        e = ex_parse_expr(p);
        if( e==0 ) return 0;
        if( !ex_is(p, ')') ){ ex_free(e); ex_syntax(p); return 0; }
        ex_next(p);
        return e;
      }
      /* fall through */
    default:
      ex_syntax(p);
      return 0;
  }
}

static agg_expr *ex_binary(ex_parser *p, int op, agg_expr *l, agg_expr *r){
  if( l==0 || r==0 ){ ex_free(l); ex_free(r); return 0; }
  agg_expr *e = ex_node(EX_BIN);
  if( e==0 ){ ex_free(l); ex_free(r); return ex_oom(p); }
  e->sub = op; e->nargs = 2; e->args[0] = l; e->args[1] = r;
  return e;
}

static agg_expr *ex_unary(ex_parser *p, int depth){
  if( depth>200 ){ col_error_set(p->err, COL_ERROR, "expression nested too deeply"); return 0; }
  if( ex_is(p, '-') ){
    ex_next(p);
    if( p->tk==TK_INT || p->tk==TK_REAL ) return ex_number(p, 1);
    agg_expr *zero = ex_node(EX_LIT);
    if( zero==0 ) return ex_oom(p);
    zero->lit.type = CV_INT;
    agg_expr *e = ex_binary(p, '-', zero, ex_unary(p, depth+1));
    if( e ) e->neg = 1;
    return e;
  }
  if( ex_is(p, '~') ){
    ex_next(p);
    agg_expr *zero = ex_node(EX_LIT);
    if( zero==0 ) return ex_oom(p);
    zero->lit.type = CV_INT;
    return ex_binary(p, '~', zero, ex_unary(p, depth+1));
  }
  if( ex_is(p, '+') ){
    ex_next(p);
    agg_expr *e = ex_unary(p, depth+1);
    /* TK_UPLUS has no affinity */
    if( e && (e->op==EX_COL || (e->op==EX_FUNC && e->sub==FN_FIXED)) ) e->aff = AFF_NONE;
    return e;
  }
  return ex_primary(p);
}

/* ---- COLLATE ---- */

/* Does a COLLATE stand anywhere in e (SQLite's EP_Collate, which every
** operator and function passes up from its operands)? Not below a column
** constant propagation fixed: SQLite keeps its constant without one. */
static int ex_has_collate(const agg_expr *e){
  if( e->ecoll ) return 1;
  if( e->op==EX_FUNC && e->sub==FN_FIXED ) return 0;
  for(int i=0; i<e->nargs; i++) if( ex_has_collate(e->args[i]) ) return 1;
  return 0;
}

/* e's collation as sqlite3ExprCollSeq finds it: the COLLATE on the node,
** a column's own (BINARY: the sources declare none), through CAST, else
** down the first operand that holds a COLLATE; -1 for none. */
static int ex_coll(const agg_expr *e){
  while( e ){
    if( e->ecoll ) return e->ecoll - 1;
    if( e->op==EX_COL || (e->op==EX_FUNC && e->sub==FN_FIXED) ) return COLL_BINARY;
    if( e->op==EX_FUNC && e->sub==FN_CAST ){ e = e->args[0]; continue; }
    const agg_expr *next = 0;
    for(int i=0; i<e->nargs && next==0; i++) if( ex_has_collate(e->args[i]) ) next = e->args[i];
    e = next;
  }
  return -1;
}

/* sqlite3BinaryCompareCollSeq: the left side's COLLATE, else the right's,
** else the left's collation, else the right's, else BINARY. */
static int ex_cmp_coll(const agg_expr *l, const agg_expr *r){
  int c = ex_has_collate(l) ? ex_coll(l) : ex_has_collate(r) ? ex_coll(r) : -1;
  if( c<0 ) c = ex_coll(l);
  if( c<0 ) c = ex_coll(r);
  return c<0 ? COLL_BINARY : c;
}

/* x COLLATE name, below || and above the prefix operators (SQLite's
** grammar); the built-in collations alone: group_by has no other. */
static agg_expr *ex_collated(ex_parser *p){
  agg_expr *e = ex_unary(p, 0);
  while( e && ex_kw(p, "COLLATE") ){
    ex_next(p);
    char name[16];
    uint32_t n = 0;
    if( p->tk==TK_ID ){
      n = (uint32_t)p->tn;
      if( n<sizeof(name) ) memcpy(name, p->z+p->ts, n);
    }else if( p->tk==TK_QID || p->tk==TK_STR ){
      char *u = ex_unquote(p->z+p->ts, p->tn, &n);
      if( u==0 ){ ex_free(e); return ex_oom(p); }
      if( n<sizeof(name) ) memcpy(name, u, n);
      free(u);
    }else{
      ex_free(e); ex_syntax(p); return 0;
    }
    int c = -1;
    if( n<sizeof(name) ){
      name[n] = 0;
      c = strcasecmp(name, "BINARY")==0 ? COLL_BINARY : strcasecmp(name, "NOCASE")==0 ? COLL_NOCASE
        : strcasecmp(name, "RTRIM")==0 ? COLL_RTRIM : -1;
    }
    if( c<0 ){
      col_error_set(p->err, COL_ERROR, "no such collation sequence: %.*s", (int)p->tn, p->z+p->ts);
      ex_free(e);
      return 0;
    }
    e->ecoll = (uint8_t)(c + 1);
    ex_next(p);
  }
  return e;
}

/* The JSON path of a json_extract/->/->> node e, args[1]: a literal,
** compiled into e->jpath. NULL and an error set when it cannot be. */
static agg_expr *ex_json_path(ex_parser *p, agg_expr *e){
  const agg_expr *a = e->args[1];
  agg_json_path *jp = calloc(1, sizeof(*jp));
  if( jp==0 ){ ex_free(e); return ex_oom(p); }
  e->jpath = jp;
  const char *why = e->sub==FN_JSON_EXTRACT ? "a JSON path that is not a TEXT literal"
                  : "a JSON path that is not a TEXT or INTEGER literal";
  int rc = 1;
  if( a->op==EX_LIT && a->lit.type==CV_NULL ){
    jp->null_path = 1; rc = 0;
  }else if( a->op==EX_LIT && (a->lit.type==CV_TEXT || (a->lit.type==CV_INT && e->sub!=FN_JSON_EXTRACT)) ){
    char buf[24];
    const char *z = a->lit.p;
    uint32_t n = a->lit.n;
    if( a->lit.type==CV_INT ){ n = (uint32_t)agg_int_to_text(a->lit.i, buf); z = buf; }
    int kind = e->sub==FN_JSON_EXTRACT ? AGG_JSON_EXTRACT : a->lit.type==CV_INT ? AGG_JSON_ARROW_INT : AGG_JSON_ARROW_TEXT;
    rc = agg_json_path_compile(z ? z : "", n, kind, jp, &why);
    if( rc<0 ){ ex_free(e); return ex_oom(p); }
  }
  if( rc ){
    col_error_set(p->err, COL_ERROR, "%s is not evaluated here (use SQLite's own GROUP BY)", why);
    ex_free(e);
    return 0;
  }
  return e;
}

/* || -> ->>, one level, left to right */
static agg_expr *ex_concat(ex_parser *p){
  agg_expr *e = ex_collated(p);
  while( e && (ex_is(p, '|') || ex_is(p, 'A') || ex_is(p, 'D')) ){
    int op = p->punct;
    ex_next(p);
    if( op=='|' ){ e = ex_binary(p, '|', e, ex_collated(p)); continue; }
    agg_expr *r = ex_collated(p);
    if( r==0 ){ ex_free(e); return 0; }
    agg_expr *f = ex_node(EX_FUNC);
    if( f==0 ){ ex_free(e); ex_free(r); return ex_oom(p); }
    f->sub = op=='A' ? FN_JSON_ARROW : FN_JSON_ARROW2;
    f->nargs = 2; f->args[0] = e; f->args[1] = r;
    e = ex_json_path(p, f);
  }
  return e;
}

static agg_expr *ex_term(ex_parser *p){
  agg_expr *e = ex_concat(p);
  while( e && (ex_is(p, '*') || ex_is(p, '/') || ex_is(p, '%')) ){
    int op = p->punct; ex_next(p);
    e = ex_binary(p, op, e, ex_concat(p));
  }
  return e;
}

static agg_expr *ex_additive(ex_parser *p){
  agg_expr *e = ex_term(p);
  while( e && (ex_is(p, '+') || ex_is(p, '-')) ){
    int op = p->punct; ex_next(p);
    e = ex_binary(p, op, e, ex_term(p));
  }
  return e;
}

static agg_expr *ex_node2(ex_parser *p, int op, int sub, agg_expr *l, agg_expr *r){
  agg_expr *e = ex_binary(p, '+', l, r);
  if( e ){ e->op = op; e->sub = sub; }
  if( e && op==EX_CMP ) e->coll = (uint8_t)ex_cmp_coll(l, r);
  return e;
}

/* & | << >>, one level between + - and the comparisons, as SQLite's */
static agg_expr *ex_bitwise(ex_parser *p){
  agg_expr *e = ex_additive(p);
  while( e && (ex_is(p, '&') || ex_is(p, 'B') || ex_is(p, 'S') || ex_is(p, 'R')) ){
    int op = p->punct; ex_next(p);
    e = ex_binary(p, op, e, ex_additive(p));
  }
  return e;
}

/* < <= > >= */
static agg_expr *ex_relational(ex_parser *p){
  agg_expr *e = ex_bitwise(p);
  while( e && (ex_is(p, '<') || ex_is(p, '>') || ex_is(p, 'L') || ex_is(p, 'G')) ){
    int c = p->punct; ex_next(p);
    int op = c=='<' ? CMP_LT : c=='>' ? CMP_GT : c=='L' ? CMP_LE : CMP_GE;
    e = ex_node2(p, EX_CMP, op, e, ex_bitwise(p));
  }
  return e;
}

/* a copy of a column reference, literal or fixed column (BETWEEN's left
** side appears in two comparisons) */
static agg_expr *ex_dup_simple(ex_parser *p, const agg_expr *a){
  agg_expr *e = ex_node(a->op);
  if( e==0 ) return ex_oom(p);
  if( a->op==EX_FUNC ){
    /* a fixed column: its constant shared (refs) */
    e->sub = a->sub; e->aff = a->aff; e->fix_class = a->fix_class;
    e->nargs = 1; e->args[0] = a->args[0]; a->args[0]->refs++;
    return e;
  }
  e->src = a->src; e->bcol = a->bcol; e->aff = a->aff; e->lit = a->lit;
  e->ecoll = a->ecoll;
  if( a->op==EX_LIT && a->lit_mem ){
    e->lit_mem = malloc(a->lit.n + 1);
    if( e->lit_mem==0 ){ ex_free(e); return ex_oom(p); }
    memcpy(e->lit_mem, a->lit_mem, a->lit.n);
    e->lit.p = e->lit_mem;
  }
  return e;
}

/* x IS NULL, x ISNULL, x IS NOT NULL or x NOTNULL? */
static int ex_is_null_test(const agg_expr *e){
  if( e->op==EX_LOGIC ) return e->sub==LG_ISNULL || e->sub==LG_NOTNULL;
  return e->op==EX_CMP && (e->sub==CMP_IS || e->sub==CMP_ISNOT)
      && e->args[1]->op==EX_LIT && e->args[1]->lit.type==CV_NULL;
}

/* resolve.c's NOT NULL strength reduction: those tests over a literal
** that is not NULL are known false or true (later versions only in a
** WHERE clause: agg_expr_set_dialect). */
static agg_expr *ex_null_test(agg_expr *e){
  if( e==0 ) return 0;
  int is = e->op==EX_LOGIC ? e->sub==LG_ISNULL : e->sub==CMP_IS;
  const agg_expr *x = e->args[0];
  if( !ex_is_null_test(e) ) return e;
  /* through unary minus (sqlite3ExprCanBeNull; 3.53's parser too) */
  while( x->op==EX_BIN && x->sub=='-' && x->neg ) x = x->args[1];
  if( x->op==EX_LIT && x->lit.type!=CV_NULL ) e->known = is ? EX_KNOWN_FALSE : EX_KNOWN_TRUE;
  return e;
}

/* Does e call a function (EP_HasFunc, which a parent inherits)? LIKE and
** GLOB are calls; CAST is not. */
static int ex_calls_function(const agg_expr *e){
  if( e->op==EX_LIKE || (e->op==EX_FUNC && e->sub!=FN_CAST && e->sub!=FN_FIXED) ) return 1;
  if( e->unfolded && ex_calls_function(e->unfolded) ) return 1;
  for(int i=0; i<e->nargs; i++) if( ex_calls_function(e->args[i]) ) return 1;
  return 0;
}

/* sqlite3ExprAnd: an AND one of whose sides is an INTEGER literal known
** false is the literal 0 as it is parsed (neither side is computed, not
** even for a value). 3.50 folds it only where neither side calls a
** function: the AND is kept beside the 0 for agg_expr_set_dialect. */
static agg_expr *ex_and_fold(ex_parser *p, agg_expr *e){
  if( e==0 ) return 0;
  const agg_expr *l = e->args[0], *r = e->args[1];
  if( !((l->op==EX_LIT && l->known==EX_KNOWN_FALSE) || (r->op==EX_LIT && r->known==EX_KNOWN_FALSE)) ) return e;
  agg_expr *z = ex_node(EX_LIT);
  if( z==0 ){ ex_free(e); return ex_oom(p); }
  z->lit.type = CV_INT;
  z->known = EX_KNOWN_FALSE;
  if( ex_calls_function(l) || ex_calls_function(r) ) z->unfolded = e;
  else ex_free(e);
  return z;
}

/* The text a node was read from (agg_where_split): the innermost, set
** first (`(x = 1)` is the term `x = 1`); a column keeps its token's. */
static void ex_set_span(agg_expr *e, size_t t0, size_t t1){
  if( e && e->op!=EX_COL && e->t1==0 ){ e->t0 = t0; e->t1 = t1; }
}

/* = == != <> IS [NOT] ISNULL NOTNULL [NOT] NULL [NOT] LIKE/GLOB [NOT] BETWEEN */
static agg_expr *ex_equality(ex_parser *p){
  size_t s0 = p->ts;
  agg_expr *e = ex_relational(p);
  while( e ){
    if( ex_is(p, '=') || ex_is(p, 'N') ){
      int op = ex_is(p, '=') ? CMP_EQ : CMP_NE;
      ex_set_span(e, s0, p->prev_end);
      ex_next(p);
      size_t s = p->ts;
      agg_expr *r = ex_relational(p);
      ex_set_span(r, s, p->prev_end);
      e = ex_node2(p, EX_CMP, op, e, r);
      continue;
    }
    if( ex_kw(p, "IS") ){
      ex_next(p);
      int op = CMP_IS;
      if( ex_kw(p, "NOT") ){ op = CMP_ISNOT; ex_next(p); }
      e = ex_null_test(ex_node2(p, EX_CMP, op, e, ex_relational(p)));
      continue;
    }
    if( ex_kw(p, "ISNULL") ){ ex_next(p); e = ex_null_test(ex_node1(p, EX_LOGIC, LG_ISNULL, e)); continue; }
    if( ex_kw(p, "NOTNULL") ){ ex_next(p); e = ex_null_test(ex_node1(p, EX_LOGIC, LG_NOTNULL, e)); continue; }
    int neg = 0;
    if( ex_kw(p, "NOT") ){
      ex_next(p);
      if( ex_kw(p, "NULL") ){ ex_next(p); e = ex_null_test(ex_node1(p, EX_LOGIC, LG_NOTNULL, e)); continue; }
      neg = 1;
      if( !ex_kw(p, "LIKE") && !ex_kw(p, "GLOB") && !ex_kw(p, "BETWEEN") && !ex_kw(p, "IN") ){ ex_free(e); ex_syntax(p); return 0; }
    }
    if( ex_kw(p, "IN") ){
      ex_next(p);
      if( !ex_is(p, '(') ){ ex_free(e); ex_syntax(p); return 0; }
      ex_next(p);
      agg_expr *in = ex_node1(p, EX_IN, 0, e);
      if( in==0 ) return 0;
      /* sqlite3ExprCodeIN: the left side's collation, never an item's */
      int lc = ex_coll(e);
      in->coll = (uint8_t)(lc<0 ? COLL_BINARY : lc);
      for(;;){
        if( in->nargs>=EX_MAXARG ){
          ex_free(in);
          col_error_set(p->err, COL_ERROR, "IN list too long (at most %d values)", EX_MAXARG-1);
          return 0;
        }
        size_t s = p->ts;
        agg_expr *v = ex_parse_expr(p);
        if( v==0 ){ ex_free(in); return 0; }
        ex_set_span(v, s, p->prev_end);
        in->args[in->nargs++] = v;
        if( ex_is(p, ',') ){ ex_next(p); continue; }
        if( ex_is(p, ')') ){ ex_next(p); break; }
        ex_free(in); ex_syntax(p); return 0;
      }
      /* x IN (constant) is the comparison x = +constant (parse.y) */
      if( in->nargs==2 && ex_constant(in->args[1]) ) in->coll = (uint8_t)ex_cmp_coll(e, in->args[1]);
      e = neg ? ex_node1(p, EX_LOGIC, LG_NOT, in) : in;
      continue;
    }
    if( ex_kw(p, "LIKE") || ex_kw(p, "GLOB") ){
      int glob = ex_kw(p, "GLOB");
      ex_next(p);
      e = ex_node2(p, EX_LIKE, glob, e, ex_relational(p));
      if( e==0 ) return 0;
      e->neg = neg;
      if( !glob && ex_kw(p, "ESCAPE") ){
        ex_next(p);
        agg_expr *x = ex_relational(p);
        if( x==0 ){ ex_free(e); return 0; }
        const unsigned char *z = (const unsigned char*)x->lit.p;
        uint32_t n = x->lit.n, c = 0, len = 0;
        if( x->op==EX_LIT && x->lit.type==CV_TEXT && n>0 ){
          c = z[0]; len = 1;
          if( c>=0xc0 ){
            int more = c>=0xf0 ? 3 : c>=0xe0 ? 2 : 1;
            c &= more==3 ? 0x07 : more==2 ? 0x0f : 0x1f;
            while( more-- && len<n && (z[len]&0xc0)==0x80 ) c = (c<<6) | (z[len++]&0x3f);
          }
        }
        ex_free(x);
        if( len==0 || len!=n ){
          ex_free(e);
          col_error_set(p->err, COL_ERROR, "ESCAPE expression must be a single character");
          return 0;
        }
        e->esc = c;
      }
      continue;
    }
    if( ex_kw(p, "BETWEEN") ){
      ex_next(p);
      agg_expr *lo = ex_relational(p);
      if( lo==0 ){ ex_free(e); return 0; }
      if( !ex_kw(p, "AND") ){ ex_free(e); ex_free(lo); ex_syntax(p); return 0; }
      ex_next(p);
      agg_expr *hi = ex_relational(p);
      if( hi==0 ){ ex_free(e); ex_free(lo); return 0; }
      if( e->op!=EX_COL && e->op!=EX_LIT && !(e->op==EX_FUNC && e->sub==FN_FIXED) ){
        ex_free(e); ex_free(lo); ex_free(hi);
        col_error_set(p->err, COL_ERROR, "BETWEEN is supported on a column or literal only (write a >= lo AND a <= hi)");
        return 0;
      }
      agg_expr *e2 = ex_dup_simple(p, e);
      if( e2==0 ){ ex_free(e); ex_free(lo); ex_free(hi); return 0; }
      agg_expr *ge = ex_node2(p, EX_CMP, CMP_GE, e, lo);
      agg_expr *le = ex_node2(p, EX_CMP, CMP_LE, e2, hi);
      if( ge==0 || le==0 ){ ex_free(ge); ex_free(le); return 0; }
      ge->between = le->between = 1;
      e = ex_node2(p, EX_LOGIC, LG_AND, ge, le);
      if( e ) e->between = 1;
      if( neg ) e = ex_node1(p, EX_LOGIC, LG_NOT, e);
      continue;
    }
    break;
  }
  return e;
}

static agg_expr *ex_not(ex_parser *p){
  if( ex_kw(p, "NOT") ){
    if( p->depth>=100 ){
      col_error_set(p->err, COL_ERROR, "expression nested too deeply: \"%.40s\"", p->z);
      return 0;
    }
    ex_next(p);
    p->depth++;
    agg_expr *a = ex_not(p);
    p->depth--;
    return ex_node1(p, EX_LOGIC, LG_NOT, a);
  }
  return ex_equality(p);
}

static agg_expr *ex_and(ex_parser *p){
  size_t s0 = p->ts;
  agg_expr *e = ex_not(p);
  ex_set_span(e, s0, p->prev_end);
  while( e && ex_kw(p, "AND") ){
    ex_next(p);
    size_t s = p->ts;
    agg_expr *r = ex_not(p);
    ex_set_span(r, s, p->prev_end);
    e = ex_and_fold(p, ex_node2(p, EX_LOGIC, LG_AND, e, r));
    ex_set_span(e, s0, p->prev_end);
  }
  return e;
}

static agg_expr *ex_parse_expr_depth(ex_parser *p){
  agg_expr *e = ex_and(p);
  while( e && ex_kw(p, "OR") ){ ex_next(p); e = ex_node2(p, EX_LOGIC, LG_OR, e, ex_and(p)); }
  return e;
}

/* CASE [base] WHEN a THEN b ... [ELSE c] END (the CASE keyword is current) */
static agg_expr *ex_case(ex_parser *p){
  ex_next(p);
  agg_expr *e = ex_node(EX_CASE);
  if( e==0 ) return ex_oom(p);
  if( !ex_kw(p, "WHEN") ){
    agg_expr *b = ex_parse_expr(p);
    if( b==0 ){ ex_free(e); return 0; }
    e->args[e->nargs++] = b;
    e->has_base = 1;
  }
  while( ex_kw(p, "WHEN") ){
    if( e->nargs+3>EX_MAXARG ){
      ex_free(e);
      col_error_set(p->err, COL_ERROR, "CASE has too many WHEN terms (at most %d)", (EX_MAXARG-2)/2);
      return 0;
    }
    ex_next(p);
    agg_expr *w = ex_parse_expr(p);
    if( w==0 ){ ex_free(e); return 0; }
    e->args[e->nargs++] = w;
    if( !ex_kw(p, "THEN") ){ ex_free(e); ex_syntax(p); return 0; }
    ex_next(p);
    agg_expr *t = ex_parse_expr(p);
    if( t==0 ){ ex_free(e); return 0; }
    e->args[e->nargs++] = t;
  }
  if( e->nargs < e->has_base + 2 ){ ex_free(e); ex_syntax(p); return 0; }
  if( ex_kw(p, "ELSE") ){
    ex_next(p);
    agg_expr *x = ex_parse_expr(p);
    if( x==0 ){ ex_free(e); return 0; }
    e->args[e->nargs++] = x;
    e->has_else = 1;
  }
  if( !ex_kw(p, "END") ){ ex_free(e); ex_syntax(p); return 0; }
  ex_next(p);
  if( e->has_base ){
    /* base = WHEN value, compared as that comparison would be */
    int npair = (e->nargs - 1 - e->has_else)/2;
    e->coll = (uint8_t)ex_cmp_coll(e->args[0], e->args[1]);
    for(int i=1; i<npair; i++){
      if( ex_cmp_coll(e->args[0], e->args[1+2*i])!=e->coll ){
        ex_free(e);
        col_error_set(p->err, COL_ERROR, "CASE whose WHEN values have different collations is not evaluated here (use SQLite's own GROUP BY)");
        return 0;
      }
    }
  }
  return e;
}

static agg_expr *ex_parse_expr(ex_parser *p){
  /* parentheses and calls recurse through here: bound the stack */
  if( p->depth>=100 ){
    col_error_set(p->err, COL_ERROR, "expression nested too deeply: \"%.40s\"", p->z);
    return 0;
  }
  p->depth++;
  agg_expr *e = ex_parse_expr_depth(p);
  p->depth--;
  return e;
}

/* ---- common subexpressions ----------------------------------------------- */

/* ClickBench-style keys repeat whole subtrees (Q29 spells one IIF over
** Referer a dozen times); merging identical subtrees into one node makes
** the batch evaluator compute each once per evaluation of the root. Nodes
** are compared after their children have been merged, so equal children
** are the same pointer. */
typedef struct ex_cons {
  agg_expr **slot;        /* open addressing, NULL = empty */
  uint32_t mask;          /* capacity - 1 (a power of two) */
  uint32_t n;             /* nodes held */
} ex_cons;

static uint64_t ex_node_hash(const agg_expr *e){
  uint64_t h = (uint64_t)e->op*0x9E3779B97F4A7C15ull ^ (uint64_t)(e->sub+1)*0xC2B2AE3D27D4EB4Full;
  h ^= (uint64_t)(e->src+2)*0x165667B19E3779F9ull ^ (uint64_t)e->aff*31 ^ (uint64_t)e->neg*131;
  h ^= (uint64_t)e->esc*7919 ^ (uint64_t)(e->has_base*2 + e->has_else)*104729;
  h ^= (uint64_t)(e->ecoll*4 + e->coll)*1299709;
  for(int i=0; i<e->nargs; i++) h = (h ^ (uint64_t)(uintptr_t)e->args[i]) * 0x100000001B3ull;
  if( e->op==EX_LIT ){
    h ^= (uint64_t)e->lit.type*977;
    if( e->lit.type==CV_INT ) h ^= (uint64_t)e->lit.i * 0x9E3779B97F4A7C15ull;
    else if( e->lit.type==CV_REAL ){ uint64_t u; memcpy(&u, &e->lit.f, 8); h ^= u * 0x9E3779B97F4A7C15ull; }
    else for(uint32_t i=0; i<e->lit.n; i++) h = (h ^ (uint8_t)e->lit.p[i]) * 0x100000001B3ull;
  }
  return h ^ (h>>29);
}

/* a and b alike but for their arguments */
static int ex_fields_same(const agg_expr *a, const agg_expr *b){
  if( a->op!=b->op || a->sub!=b->sub || a->src!=b->src || a->aff!=b->aff || a->neg!=b->neg
   || a->fix_class!=b->fix_class
   || a->esc!=b->esc || a->has_base!=b->has_base || a->has_else!=b->has_else
   || a->ecoll!=b->ecoll || a->coll!=b->coll || a->iif_new!=b->iif_new
   || a->nargs!=b->nargs || a->known!=b->known || a->unfolded || b->unfolded ) return 0;
  if( a->op!=EX_LIT ) return 1;
  if( a->lit.type!=b->lit.type ) return 0;
  switch( a->lit.type ){
    case CV_INT: return a->lit.i==b->lit.i;
    case CV_REAL:   /* -0.0 apart; and texts another version may read apart */
      return memcmp(&a->lit.f, &b->lit.f, 8)==0 && a->lit.n==b->lit.n
          && (a->lit.n==0 || memcmp(a->lit.p, b->lit.p, a->lit.n)==0);
    case CV_TEXT: case CV_BLOB:
      return a->lit.n==b->lit.n && (a->lit.n==0 || memcmp(a->lit.p, b->lit.p, a->lit.n)==0);
    default: return 1;
  }
}

static int ex_node_same(const agg_expr *a, const agg_expr *b){
  if( !ex_fields_same(a, b) ) return 0;
  for(int i=0; i<a->nargs; i++) if( a->args[i]!=b->args[i] ) return 0;
  return 1;
}

/* Two trees that compute the same thing the same way (sqlite3ExprCompare's
** question, asked of parsed trees). */
static int ex_tree_same(const agg_expr *a, const agg_expr *b){
  if( a==b ) return 1;
  if( a==0 || b==0 || !ex_fields_same(a, b) ) return 0;
  for(int i=0; i<a->nargs; i++) if( !ex_tree_same(a->args[i], b->args[i]) ) return 0;
  return 1;
}

int agg_expr_same(const agg_expr *a, const agg_expr *b){ return ex_tree_same(a, b); }

/* e, or the node identical to it seen before (then e is freed). Out of
** memory only stops merging: every tree stays correct. */
static agg_expr *ex_cons_node(ex_cons *t, agg_expr *e){
  for(int i=0; i<e->nargs; i++) e->args[i] = ex_cons_node(t, e->args[i]);
  if( t->slot==0 ) return e;
  if( (t->n+1)*2 > t->mask+1 ){
    uint32_t cap = (t->mask+1)*2;
    agg_expr **ns = calloc(cap, sizeof(*ns));
    if( ns==0 ) return e;
    for(uint32_t i=0; i<=t->mask; i++){
      if( t->slot[i]==0 ) continue;
      uint32_t j = (uint32_t)ex_node_hash(t->slot[i]) & (cap-1);
      while( ns[j] ) j = (j+1) & (cap-1);
      ns[j] = t->slot[i];
    }
    free(t->slot);
    t->slot = ns; t->mask = cap-1;
  }
  uint32_t j = (uint32_t)ex_node_hash(e) & t->mask;
  for(; t->slot[j]; j = (j+1) & t->mask){
    agg_expr *f = t->slot[j];
    if( f!=e && ex_node_same(f, e) ){
      f->refs++;
      ex_free(e);
      return f;
    }
  }
  t->slot[j] = e;
  t->n++;
  return e;
}

static agg_expr *ex_share(agg_expr *e){
  if( e==0 ) return 0;
  ex_cons t = { calloc(64, sizeof(agg_expr*)), 63, 0 };
  e = ex_cons_node(&t, e);
  free(t.slot);
  return e;
}

/* ---- lists -------------------------------------------------------------- */

/* Free it's ORDER BY terms; it has none after. */
static void ex_order_by_drop(agg_item *it){
  for(int t=0; t<it->nob; t++) ex_free(it->ob[t]);
  free(it->ob); free(it->ob_desc); free(it->ob_nulls_first);
  it->ob = 0; it->ob_desc = 0; it->ob_nulls_first = 0;
  it->nob = 0;
}

void agg_item_list_free(agg_item_list *l){
  for(int i=0; i<l->n; i++){
    free(l->items[i].name);
    ex_free(l->items[i].expr);
    ex_free(l->items[i].sep);
    ex_order_by_drop(&l->items[i]);
  }
  free(l->items);
  l->n = 0; l->items = 0;
}

static char *ex_span(const char *z, size_t a, size_t b){
  while( a<b && (z[a]==' '||z[a]=='\t'||z[a]=='\n'||z[a]=='\r') ) a++;
  while( b>a && (z[b-1]==' '||z[b-1]=='\t'||z[b-1]=='\n'||z[b-1]=='\r') ) b--;
  char *s = malloc(b-a+1);
  if( s ){ memcpy(s, z+a, b-a); s[b-a] = 0; }
  return s;
}

/* Can e's value be TEXT (the one class a collation orders)? */
static int ex_may_be_text(const agg_expr *e){
  if( e->op==EX_CASE ){
    for(int i=e->has_base+1; i<e->nargs; i+=2) if( ex_may_be_text(e->args[i]) ) return 1;
    return e->has_else && ex_may_be_text(e->args[e->nargs-1]);
  }
  return !agg_expr_never_text(e);
}

/* A collation other than BINARY where group_by compares values it does
** not evaluate as expressions (keys, DISTINCT sets, min/max, sorts): an
** error rather than BINARY's answer. */
static int ex_coll_refused(ex_parser *p, const agg_expr *e, const char *where){
  static const char *const names[] = { "BINARY", "NOCASE", "RTRIM" };
  int c = ex_coll(e);
  if( c<=COLL_BINARY || c>COLL_RTRIM || !ex_may_be_text(e) ) return 0;
  return col_error_set(p->err, COL_ERROR, "COLLATE %s on %s is not evaluated here (use SQLite's own GROUP BY)", names[c], where);
}

/* ORDER BY term [ASC|DESC] [NULLS FIRST|LAST], ... inside an aggregate's
** parentheses, into it->ob (at ORDER). */
static int ex_order_by(ex_parser *p, agg_item *it){
  ex_next(p);
  if( !ex_kw(p, "BY") ) return ex_syntax(p);
  do{
    ex_next(p);
    if( it->nob % 8==0 ){
      size_t cap = (size_t)it->nob + 8;
      agg_expr **ob = realloc(it->ob, cap*sizeof(*ob));
      if( ob ) it->ob = ob;
      uint8_t *d = realloc(it->ob_desc, cap);
      if( d ) it->ob_desc = d;
      uint8_t *nf = realloc(it->ob_nulls_first, cap);
      if( nf ) it->ob_nulls_first = nf;
      if( !ob || !d || !nf ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
    }
    agg_expr *e = ex_share(ex_parse_expr(p));
    if( e==0 ) return p->err->code;
    if( ex_coll_refused(p, e, "an aggregate's ORDER BY term") ){ ex_free(e); return p->err->code; }
    int desc = 0;
    if( ex_kw(p, "DESC") ){ desc = 1; ex_next(p); }
    else if( ex_kw(p, "ASC") ) ex_next(p);
    int nulls_first = !desc;
    if( ex_kw(p, "NULLS") ){
      ex_next(p);
      if( ex_kw(p, "FIRST") ) nulls_first = 1;
      else if( ex_kw(p, "LAST") ) nulls_first = 0;
      else{ ex_free(e); return ex_syntax(p); }
      ex_next(p);
    }
    it->ob[it->nob] = e;
    it->ob_desc[it->nob] = (uint8_t)desc;
    it->ob_nulls_first[it->nob] = (uint8_t)nulls_first;
    it->nob++;
  }while( ex_is(p, ',') );
  return COL_OK;
}

/* it->expr (and v) become the argument(s) of the fragment function fn:
** what a json aggregate joins (agg/json.h). v is taken even on error. */
static int ex_json_wrap(ex_parser *p, agg_item *it, int fn, agg_expr *v){
  if( fn==FN_JSON_MEMBER && v==0 ) return p->err->code;
  agg_expr *e = ex_node(EX_FUNC);
  if( e==0 ){ ex_free(v); return col_error_set(p->err, COL_ENOMEM, "out of memory"); }
  e->sub = fn;
  e->args[e->nargs++] = it->expr;
  if( v ) e->args[e->nargs++] = v;
  it->expr = e;
  return COL_OK;
}

/* One item: an expression or aggregate call, then an optional alias. */
static int ex_item(ex_parser *p, int aggs, agg_item *it){
  size_t start = p->ts;
  it->kind = -1; it->src_col = -1;
  if( aggs ){
    if( p->tk!=TK_ID ) return ex_syntax(p);
    int kind = agg_kind_from_name(p->z+p->ts, (int)p->tn);
    if( kind<0 ){
      return col_error_set(p->err, COL_ERROR, "not an aggregate function: %.*s (expected count, sum, total, avg, min, max, group_concat, string_agg, any_value, json_group_array or json_group_object)", (int)p->tn, p->z+p->ts);
    }
    size_t fs = p->ts, fn = p->tn;
    ex_next(p);
    if( !ex_is(p, '(') ) return ex_syntax(p);
    ex_next(p);
    if( kind==AGG_COUNT && ex_is(p, '*') ){
      kind = AGG_COUNT_STAR;
      ex_next(p);
    }else{
      if( ex_kw(p, "DISTINCT") ){ it->distinct = 1; ex_next(p); }
      else if( ex_kw(p, "ALL") ) ex_next(p);
      it->expr = ex_parse_expr(p);    /* shared below, after any FILTER */
      if( it->expr==0 ) return p->err->code;
      if( (it->distinct || kind==AGG_MIN || kind==AGG_MAX)
       && ex_coll_refused(p, it->expr, it->distinct ? "a DISTINCT aggregate's argument" : "min() or max()'s argument") ){
        return p->err->code;
      }
      if( ex_is(p, ',') ){
        if( kind!=AGG_GROUP_CONCAT && kind!=AGG_JSON_OBJECT ){
          return col_error_set(p->err, COL_ERROR, "wrong number of arguments to function %.*s()", (int)fn, p->z+fs);
        }
        if( it->distinct ){
          return col_error_set(p->err, COL_ERROR, "DISTINCT aggregates must have exactly one argument");
        }
        ex_next(p);
        if( kind==AGG_JSON_OBJECT ){
          int rc = ex_json_wrap(p, it, FN_JSON_MEMBER, ex_parse_expr(p));
          if( rc ) return rc;
        }else{
          it->sep = ex_share(ex_parse_expr(p));
          if( it->sep==0 ) return p->err->code;
        }
      }else if( kind==AGG_JSON_OBJECT ){
        return col_error_set(p->err, COL_ERROR, "wrong number of arguments to function %.*s()", (int)fn, p->z+fs);
      }
      if( kind==AGG_JSON_ARRAY ){
        /* DISTINCT compares the values (1 and 1.0 are one), not their JSON */
        if( it->distinct ){
          return col_error_set(p->err, COL_ERROR, "group_by: json_group_array(DISTINCT ...) is not evaluated here; use SQLite's own GROUP BY");
        }
        int rc = ex_json_wrap(p, it, FN_JSON_VALUE, 0);
        if( rc ) return rc;
      }
    }
    if( kind!=AGG_COUNT_STAR && ex_kw(p, "ORDER") ){
      int rc = ex_order_by(p, it);
      if( rc ) return rc;
      if( kind==AGG_MIN || kind==AGG_MAX ){
        ex_order_by_drop(it);     /* SQLite ignores it there (NEEDCOLL) */
      }else if( it->distinct ){
        it->ob_distinct = it->nob==1 && ex_tree_same(it->ob[0], it->expr) ? AGG_ORD_LAST : AGG_ORD_FIRST;
      }
    }
    if( !ex_is(p, ')') ) return ex_syntax(p);
    if( it->sep==0 && fn==10 && strncasecmp(p->z+fs, "string_agg", 10)==0 ){
      return col_error_set(p->err, COL_ERROR, "wrong number of arguments to function %.*s()", (int)fn, p->z+fs);
    }
    ex_next(p);
    if( ex_kw(p, "FILTER") ){
      /* agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END): every
      ** aggregate here skips NULLs, and count(*) counts a 1 */
      ex_next(p);
      if( !ex_is(p, '(') ) return ex_syntax(p);
      ex_next(p);
      if( !ex_kw(p, "WHERE") ) return ex_syntax(p);
      ex_next(p);
      agg_expr *cond = ex_parse_expr(p);
      if( cond==0 ) return p->err->code;
      if( !ex_is(p, ')') ){ ex_free(cond); return ex_syntax(p); }
      ex_next(p);
      agg_expr *val = it->expr;
      if( kind==AGG_COUNT_STAR ){
        if( (val = ex_node(EX_LIT))==0 ){ ex_free(cond); return col_error_set(p->err, COL_ENOMEM, "out of memory"); }
        val->lit.type = CV_INT; val->lit.i = 1;
        kind = AGG_COUNT;
      }
      agg_expr *c = ex_node(EX_CASE);
      if( c==0 ){ ex_free(cond); if( val!=it->expr ) ex_free(val); return col_error_set(p->err, COL_ENOMEM, "out of memory"); }
      c->nargs = 2; c->args[0] = cond; c->args[1] = val;
      it->expr = c;
    }
    if( it->expr && (it->expr = ex_share(it->expr))==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
    it->kind = kind;
  }else{
    it->expr = ex_share(ex_parse_expr(p));
    if( it->expr==0 ) return p->err->code;
    if( ex_coll_refused(p, it->expr, "a key") ) return p->err->code;
  }
  if( it->expr && it->expr->op==EX_COL ) it->src_col = it->expr->src;
  size_t end = p->ts;
  /* SQLite's alias: AS then a name, or the name alone (`count(*) c`);
  ** nothing else may follow an item but ',' or the end */
  int as = ex_kw(p, "AS");
  if( as || p->tk==TK_ID || p->tk==TK_QID || p->tk==TK_STR ){
    if( as ) ex_next(p);
    if( p->tk==TK_ID ){
      it->name = ex_span(p->z, p->ts, p->ts+p->tn);
    }else if( p->tk==TK_QID || p->tk==TK_STR ){
      uint32_t n;
      it->name = ex_unquote(p->z+p->ts, p->tn, &n);
    }else{
      return ex_syntax(p);
    }
    if( it->name==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
    ex_next(p);
  }else{
    it->name = ex_span(p->z, start, end);
    if( it->name==0 ) return col_error_set(p->err, COL_ENOMEM, "out of memory");
  }
  return COL_OK;
}

int agg_parse_list(const char *text, int aggs, const col_schema *schema,
                   agg_item_list *out, col_error *err){
  ex_parser p;
  memset(&p, 0, sizeof(p));
  memset(out, 0, sizeof(*out));
  p.z = text ? text : "";
  p.schema = schema;
  p.err = err;
  ex_next(&p);
  if( p.tk==TK_END ) return COL_OK;
  int cap = 0;
  for(;;){
    if( out->n>=cap ){
      cap = cap ? cap*2 : 8;
      agg_item *ni = realloc(out->items, (size_t)cap*sizeof(agg_item));
      if( ni==0 ){ agg_item_list_free(out); return col_error_set(err, COL_ENOMEM, "out of memory"); }
      out->items = ni;
    }
    agg_item *it = &out->items[out->n++];
    memset(it, 0, sizeof(*it));
    if( ex_item(&p, aggs, it) ) goto parse_error;
    if( p.tk==TK_END ) break;
    if( !ex_is(&p, ',') ){ ex_syntax(&p); goto parse_error; }
    ex_next(&p);
  }
  return COL_OK;
parse_error:
  agg_item_list_free(out);
  return err->code ? err->code : COL_ERROR;
}

int agg_expr_parse(const char *text, const col_schema *schema, int term,
                   agg_expr **out, size_t *used, col_error *err){
  ex_parser p;
  memset(&p, 0, sizeof(p));
  p.z = text ? text : "";
  p.schema = schema;
  p.err = err;
  *out = 0;
  p.internal = term==2;
  if( term==2 ) term = 0;
  ex_next(&p);
  agg_expr *e = term ? ex_not(&p) : ex_parse_expr(&p);
  if( e==0 ) return err->code ? err->code : COL_ERROR;
  if( !term && p.tk!=TK_END ){ ex_free(e); return ex_syntax(&p); }
  if( used ) *used = p.ts;
  *out = ex_share(e);
  return COL_OK;
}

void agg_expr_free(agg_expr *e){ ex_free(e); }

/* ---- a WHERE clause's terms, and SQLite's constant propagation ----------- */


typedef struct ws_ctx {
  const col_schema *schema;
  agg_where_terms *out;
  int cap;                /* sites out->site holds */
  struct ws_fixed { const agg_expr *col, *val; } *fix; /* column = constant terms */
  int nfix, fixcap;
  int blob;               /* one of their columns has BLOB affinity */
  const agg_expr **done;  /* the column references rewritten */
  int ndone;
} ws_ctx;

/* An AND that whereSplit splits (not a BETWEEN's) */
static int ws_split_and(const agg_expr *e){
  return e->op==EX_LOGIC && e->sub==LG_AND && !e->between;
}

/* A TK_COLUMN: a column reference without a unary + */
static int ws_column(const agg_expr *e){ return e->op==EX_COL && e->aff!=AFF_NONE; }

static int ws_decl_aff(const ws_ctx *c, int src){
  return ex_decl_aff(c->schema->cols[src].decl);
}

/* constInsert: the first `column = constant` of a column holds */
static int ws_fix(ws_ctx *c, const agg_expr *col, const agg_expr *val){
  for(int i=0; i<c->nfix; i++) if( c->fix[i].col->src==col->src ) return 0;
  if( c->nfix==c->fixcap ){
    int cap = c->fixcap ? c->fixcap*2 : 8;
    void *nf = realloc(c->fix, (size_t)cap*sizeof(*c->fix));
    if( nf==0 ) return -1;
    c->fix = nf; c->fixcap = cap;
  }
  c->fix[c->nfix].col = col; c->fix[c->nfix++].val = val;
  c->blob |= ws_decl_aff(c, col->src)==AFF_BLOB;
  return 0;
}

/* findConstInWhere: the AND-terms right to left, `column = constant` (a
** constant of no affinity) either way round. The parser makes `x IN (c)`
** the comparison `x = +c`. */
static int ws_find(ws_ctx *c, const agg_expr *e){
  if( ws_split_and(e) ) return ws_find(c, e->args[1]) || ws_find(c, e->args[0]);
  if( e->op==EX_CMP && e->sub==CMP_EQ && !e->between && e->coll==COLL_BINARY ){
    const agg_expr *l = e->args[0], *r = e->args[1];
    if( ws_column(r) && ex_constant(l) && ex_aff(l)==AFF_NONE && ws_fix(c, r, l) ) return -1;
    if( ws_column(l) && ex_constant(r) && ex_aff(r)==AFF_NONE && ws_fix(c, l, r) ) return -1;
  }else if( e->op==EX_IN && e->nargs==2 && ws_column(e->args[0]) && ex_constant(e->args[1])
          && e->coll==COLL_BINARY ){
    if( ws_fix(c, e->args[0], e->args[1]) ) return -1;
  }
  return 0;
}

/* propagateConstantExprRewriteOne: x, a reference to a fixed column other
** than its own term's, becomes the constant (ignore_blob: not for a column
** of BLOB affinity). */
static int ws_rewrite(ws_ctx *c, const agg_expr *x, int ignore_blob, int term){
  if( x->op!=EX_COL || x->t1==0 ) return 0;   /* BETWEEN's copy goes with its original */
  for(int i=0; i<c->nfix; i++) if( c->fix[i].col==x ) return 0;
  for(int i=0; i<c->ndone; i++) if( c->done[i]==x ) return 0;
  int k = -1;
  for(int i=0; i<c->nfix && k<0; i++) if( c->fix[i].col->src==x->src ) k = i;
  if( k<0 || (ignore_blob && ws_decl_aff(c, x->src)==AFF_BLOB) ) return 0;
  agg_where_terms *o = c->out;
  if( o->nsite==c->cap ){
    int cap = c->cap ? c->cap*2 : 8;
    agg_where_site *ns = realloc(o->site, (size_t)cap*sizeof(*ns));
    const agg_expr **nd = realloc(c->done, (size_t)cap*sizeof(*nd));
    if( ns ) o->site = ns;
    if( nd ) c->done = nd;
    if( ns==0 || nd==0 ) return -1;
    c->cap = cap;
  }
  agg_where_site *s = &o->site[o->nsite++];
  s->t0 = x->t0; s->t1 = x->t1;
  s->v0 = c->fix[k].val->t0; s->v1 = c->fix[k].val->t1;
  s->src = x->src; s->term = term;
  c->done[c->ndone++] = x;
  return 0;
}

/* propagateConstantExprRewrite over the tree, parents first. Where a
** fixed column has BLOB affinity, its references are rewritten only as
** operands of = < <= > >= IS (the right one unless the left has TEXT
** affinity); others' everywhere. */
static int ws_walk(ws_ctx *c, const agg_expr *e, int term){
  int cmp = (e->op==EX_CMP && !e->between && e->sub!=CMP_NE && e->sub!=CMP_ISNOT
             && !(e->sub==CMP_IS && e->args[1]->op==EX_LIT && e->args[1]->lit.type==CV_NULL))
         || (e->op==EX_IN && e->nargs==2);
  if( c->blob && cmp ){
    if( ws_column(e->args[0]) && ws_rewrite(c, e->args[0], 0, term) ) return -1;
    if( e->op==EX_CMP && ex_aff(e->args[0])!=AFF_TEXT && ws_column(e->args[1])
     && ws_rewrite(c, e->args[1], 0, term) ) return -1;
  }
  if( ws_rewrite(c, e, c->blob, term) ) return -1;
  for(int i=0; i<e->nargs; i++) if( ws_walk(c, e->args[i], term) ) return -1;
  return 0;
}

static int ws_terms(ws_ctx *c, const agg_expr *e){
  if( ws_split_and(e) ) return ws_terms(c, e->args[0]) || ws_terms(c, e->args[1]);
  agg_where_terms *o = c->out;
  agg_where_term *t = realloc(o->term, ((size_t)o->nterm + 1)*sizeof(*t));
  if( t==0 ) return -1;
  o->term = t;
  t[o->nterm].t0 = e->t0; t[o->nterm].t1 = e->t1; t[o->nterm].nsite = 0;
  int term = o->nterm++;
  if( c->nfix && ws_walk(c, e, term) ) return -1;
  return 0;
}

static int ws_site_cmp(const void *a, const void *b){
  size_t x = ((const agg_where_site*)a)->t0, y = ((const agg_where_site*)b)->t0;
  return x<y ? -1 : x>y;
}

int agg_where_split(const char *text, const col_schema *schema, agg_where_terms *out,
                    col_error *err){
  memset(out, 0, sizeof(*out));
  ex_parser p;
  memset(&p, 0, sizeof(p));
  p.z = text ? text : ""; p.schema = schema; p.err = err;
  ex_next(&p);
  agg_expr *root = ex_parse_expr(&p);
  if( root==0 ) return err->code ? err->code : COL_ERROR;
  if( p.tk!=TK_END ){ ex_free(root); return ex_syntax(&p); }
  ws_ctx c;
  memset(&c, 0, sizeof(c));
  c.schema = schema; c.out = out;
  int rc = 0;
  if( ws_split_and(root) ){
    /* propagateConstants runs on a WHERE whose top is an AND */
    rc = ws_find(&c, root) || ws_terms(&c, root);
  }else{
    out->term = malloc(sizeof(*out->term));
    if( out->term==0 ) rc = -1;
    else{
      size_t n = strlen(p.z);
      out->nterm = 1;
      out->term[0].t0 = 0; out->term[0].t1 = n; out->term[0].nsite = 0;
    }
  }
  for(int i=0; rc==0 && i<out->nsite; i++) out->term[out->site[i].term].nsite++;
  if( rc==0 && out->nsite>1 ) qsort(out->site, (size_t)out->nsite, sizeof(*out->site), ws_site_cmp);
  free(c.done); free(c.fix);
  ex_free(root);
  if( rc ){
    agg_where_split_free(out);
    return col_error_set(err, COL_ENOMEM, "out of memory parsing \"%s\"", p.z);
  }
  return COL_OK;
}

void agg_where_split_free(agg_where_terms *w){
  free(w->term); free(w->site);
  memset(w, 0, sizeof(*w));
}

uint64_t agg_expr_memory(const agg_expr *e){
  if( e==0 ) return 0;
  uint64_t m = sizeof(*e) + (uint64_t)e->cap*(1 + 8 + 8 + sizeof(cv_str))
             + (uint64_t)e->tcap*4 + (uint64_t)e->dtags_cap + (uint64_t)e->tshift_cap*9
             + (uint64_t)e->dcols_cap*sizeof(col_vector) + agg_ts_memo_bytes(e->ts)
             + (uint64_t)e->ec_cap*(1 + 1 + 8 + 8 + sizeof(cv_str) + 4) + (uint64_t)(e->ec_cap/64 + 1)*8
             + e->ec_bytes.cap_total;
  for(int i=0; i<e->nmods; i++) m += agg_tz_cache_bytes(e->mods[i].tz);
  for(int i=0; i<e->nargs && i<EX_MAXARG; i++) m += agg_expr_memory(e->args[i]);
  return m;
}

int agg_expr_uses(const agg_expr *e, int what){
  if( e==0 ) return 0;
  if( (what & AGG_USES_LIKE) && e->op==EX_LIKE && e->sub==0 ) return 1;
  if( (what & AGG_USES_GLOB) && e->op==EX_LIKE && e->sub!=0 ) return 1;
  if( (what & AGG_USES_CASE) && e->op==EX_FUNC && (e->sub==FN_LOWER || e->sub==FN_UPPER) ) return 1;
  if( (what & AGG_USES_STRFN) && e->op==EX_FUNC
   && (e->sub==FN_LENGTH || e->sub==FN_SUBSTR || e->sub==FN_INSTR) ) return 1;
  if( (what & AGG_USES_SCALAR) && e->op==EX_FUNC && e->sub>=FN_ABS && e->sub<=FN_MAX ) return 1;
  if( (what & AGG_USES_JSON) && e->op==EX_FUNC && (e->sub==FN_JSON_VALUE || e->sub==FN_JSON_MEMBER
       || e->sub==FN_JSON_EXTRACT || e->sub==FN_JSON_ARROW || e->sub==FN_JSON_ARROW2) ) return 1;
  if( (what & AGG_USES_NOCASE) && e->ecoll==COLL_NOCASE+1 ) return 1;
  if( (what & AGG_USES_MATH) && e->op==EX_FUNC && e->sub>=FN_FLOOR && e->sub<=FN_LOG2 ) return 1;
  if( (what & AGG_USES_SCALAR) && e->op==EX_FUNC
   && (e->sub==FN_SIGN || (e->sub>=FN_LIKELY && e->sub<=FN_CHAR)) ) return 1;
  if( (what & AGG_USES_NEWFN) && e->op==EX_FUNC && e->sub>=FN_CONCAT && e->sub<=FN_OCTET_LENGTH ) return 1;
  if( (what & AGG_USES_IIF_NEW) && e->op==EX_CASE && e->iif_new ) return 1;
  if( (what & AGG_USES_RTRIM) && e->ecoll==COLL_RTRIM+1 ) return 1;
  if( (what & AGG_USES_LOCALTIME) && e->op==EX_FUNC ){
    for(int i=0; i<e->nmods; i++){
      if( e->mods[i].kind==AGG_DM_LOCALTIME || e->mods[i].kind==AGG_DM_UTC ) return 1;
    }
  }
  if( (what & AGG_USES_DATE) && e->op==EX_FUNC && (e->sub==FN_JULIANDAY || e->sub==FN_UNIXEPOCH) ) return 1;
  if( (what & AGG_USES_DATE) && e->op==EX_FUNC && (e->sub==FN_STRFTIME || e->sub==FN_DATE
       || e->sub==FN_TIME || e->sub==FN_DATETIME) ) return 1;
  for(int i=0; i<e->nargs && i<EX_MAXARG; i++) if( agg_expr_uses(e->args[i], what) ) return 1;
  return 0;
}

void agg_expr_set_dialect(agg_expr *e, const col_dialect *d, int in_where){
  if( e==0 ) return;
  /* 3.50's AND with a function and a literal false side (ex_and_fold):
  ** the AND in place of the 0, its sides computed for a value */
  if( e->unfolded && d && d->and_false_func_kept ){
    agg_expr *u = e->unfolded, zero = *e;
    int refs = e->refs;
    *e = *u;
    e->refs = refs;
    zero.unfolded = 0; zero.refs = 0;
    *u = zero;
    ex_free(u);
  }
  e->dialect = d;
  /* a REAL literal is the SQLite's own conversion of its text */
  if( e->op==EX_LIT && e->lit.type==CV_REAL && e->lit_mem ){
    agg_atof(agg_atof_mode(d), e->lit_mem, e->lit.n, &e->lit.f);
  }
  /* the NOT NULL strength reduction (ex_null_test) outside a WHERE */
  if( !in_where && d && d->null_test_where_only && ex_is_null_test(e) ) e->known = 0;
  for(int i=0; i<e->nargs && i<EX_MAXARG; i++) agg_expr_set_dialect(e->args[i], d, in_where);
}


