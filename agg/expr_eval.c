/*
** expr_eval.c — binding and batch evaluation of group_by's expressions;
** see expr.h.
**
** Each node of the tree evaluates a whole batch at once: its children first
** (a column is the batch's vector as is, a literal a CONST vector), then one
** loop over the live rows that writes a FLAT vector the node owns. Strings a
** node builds go into the caller's arena, reset between batches.
*/
#include "expr_node.h"
#include "value.h"
#include "expr_strfn.h"
#include "expr_scalar.h"
#include "json.h"
#include "../reader/predicate.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- binding ------------------------------------------------------------ */

void agg_expr_columns(const agg_expr *e, void (*fn)(void *, int), void *ctx){
  if( e==0 ) return;
  if( e->op==EX_COL ) fn(ctx, e->src);
  for(int i=0; i<e->nargs; i++) agg_expr_columns(e->args[i], fn, ctx);
}

/* Is e a template date function whose time value is column src? */
static int ex_is_ts_of(const agg_expr *e, int src){
  if( e->op!=EX_FUNC || (e->tpl.code==0 && !e->ts_daily && e->stpl.code==0) ) return 0;
  const agg_expr *t = e->args[e->sub==FN_STRFTIME ? 1 : 0];
  return t->op==EX_COL && t->src==src;
}

int agg_expr_ts_only(const agg_expr *e, int src){
  if( e==0 || ex_is_ts_of(e, src) ) return 1;
  if( e->op==EX_COL ) return e->src!=src;
  for(int i=0; i<e->nargs; i++) if( !agg_expr_ts_only(e->args[i], src) ) return 0;
  return 1;
}

int agg_expr_source_column(const agg_expr *e){
  return e && e->op==EX_COL ? e->src : -1;
}

void agg_expr_set_ts(agg_expr *e, int src, int unit){
  if( e==0 ) return;
  if( ex_is_ts_of(e, src) ){ e->ts_unit = (uint8_t)unit; return; }
  for(int i=0; i<e->nargs; i++) agg_expr_set_ts(e->args[i], src, unit);
}

/* Set dcol/dstrict over the subtree: the one batch column it reads (-1:
** none or several), and whether a NULL there makes the result NULL (no
** CASE/iif, IS, AND/OR/NOT, ISNULL, IN on the way up). Returns dcol, or
** -2 for a subtree reading several columns. */
static int ex_mark_dict(agg_expr *e){
  if( e->op==EX_COL ){ e->dcol = e->bcol; e->dstrict = 1; return e->bcol; }
  if( e->op==EX_LIT ){ e->dcol = -1; e->dstrict = 1; return -1; }
  int col = -1, strict = 1;
  for(int i=0; i<e->nargs; i++){
    int c = ex_mark_dict(e->args[i]);
    if( c==-2 || (c>=0 && col>=0 && c!=col) ) col = -2;
    else if( c>=0 && col!=-2 ) col = c;
    strict &= e->args[i]->dstrict;
  }
  switch( e->op ){
    case EX_FUNC:
      /* coalesce(NULL, 1), typeof(NULL), nullif(1, NULL), replace(x, '', NULL) */
      if( e->sub==FN_COALESCE || e->sub==FN_TYPEOF || e->sub==FN_NULLIF
       || e->sub==FN_REPLACE || e->sub==FN_JSON_VALUE || e->sub==FN_JSON_MEMBER
       /* hex(NULL) is '', char(NULL) a NUL, concat(NULL) '' */
       || e->sub==FN_HEX || e->sub==FN_CHAR || e->sub==FN_CONCAT || e->sub==FN_CONCAT_WS ) strict = 0;
      break;
    case EX_BIN: case EX_LIKE: break;
    case EX_CMP: if( e->sub==CMP_IS || e->sub==CMP_ISNOT ) strict = 0; break;
    default: strict = 0; break;
  }
  e->dcol = col>=0 ? col : -1;
  e->dstrict = strict;
  e->konst = col==-1;
  return col;
}

void agg_expr_bind(agg_expr *e, const int *map){
  if( e==0 ) return;
  if( e->op==EX_COL ) e->bcol = map[e->src];
  for(int i=0; i<e->nargs; i++) agg_expr_bind(e->args[i], map);
  ex_mark_dict(e);
}

int agg_expr_type(const agg_expr *e, const col_schema *schema){
  switch( e->op ){
    case EX_COL: return schema->cols[e->src].type;
    case EX_LIT: return e->lit.type;
    case EX_FUNC:
      if( e->sub==FN_LENGTH ) return CV_INT;
      return CV_NULL;
    default: return CV_NULL;
  }
}

/* The storage classes e may yield, NULL aside: a bit per class. */
#define EX_CLS_INT 1u
#define EX_CLS_REAL 2u
#define EX_CLS_STR 4u           /* TEXT or BLOB */
#define EX_CLS_ALL 7u
static unsigned ex_classes(const agg_expr *e, const col_schema *schema){
  unsigned u = 0;
  switch( e->op ){
    case EX_COL:
      switch( schema->cols[e->src].type ){
        case CV_INT: return EX_CLS_INT;
        case CV_REAL: return EX_CLS_REAL;
        case CV_TEXT: case CV_BLOB: return EX_CLS_STR;
        default: return EX_CLS_ALL;
      }
    case EX_LIT:
      switch( e->lit.type ){
        case CV_INT: return EX_CLS_INT;
        case CV_REAL: return EX_CLS_REAL;
        case CV_NULL: return 0;
        default: return EX_CLS_STR;
      }
    case EX_BIN:
      if( e->sub=='|' ) return EX_CLS_STR;
      if( e->sub=='&' || e->sub=='B' || e->sub=='S' || e->sub=='R' || e->sub=='~' ) return EX_CLS_INT;
      return EX_CLS_INT | EX_CLS_REAL;
    case EX_CMP: case EX_LOGIC: case EX_LIKE: case EX_IN:
      return EX_CLS_INT;
    case EX_CASE: {
      /* the THEN values and the ELSE: not the base or the WHENs */
      int b = e->has_base ? 1 : 0;
      int npair = (e->nargs - b - (e->has_else ? 1 : 0)) / 2;
      for(int i=0; i<npair; i++) u |= ex_classes(e->args[b + 2*i + 1], schema);
      if( e->has_else ) u |= ex_classes(e->args[e->nargs-1], schema);
      return u;
    }
    case EX_FUNC:
      switch( e->sub ){
        case FN_LENGTH: case FN_INSTR: case FN_UNICODE: case FN_OCTET_LENGTH:
          return EX_CLS_INT;
        case FN_ROUND: case FN_JULIANDAY: case FN_MOD: case FN_POW: case FN_SQRT:
        case FN_EXP: case FN_LN: case FN_LOG: case FN_LOG10: case FN_LOG2:
          return EX_CLS_REAL;
        case FN_ABS: case FN_SIGN: case FN_FLOOR: case FN_CEIL: case FN_TRUNC: case FN_UNIXEPOCH:
          return EX_CLS_INT | EX_CLS_REAL;
        case FN_SUBSTR: case FN_LOWER: case FN_UPPER: case FN_STRFTIME: case FN_DATE:
        case FN_TIME: case FN_DATETIME: case FN_TYPEOF: case FN_TRIM: case FN_LTRIM:
        case FN_RTRIM: case FN_REPLACE: case FN_HEX: case FN_CHAR: case FN_CONCAT:
        case FN_CONCAT_WS:
          return EX_CLS_STR;
        case FN_COALESCE: case FN_MIN: case FN_MAX:
          for(int i=0; i<e->nargs; i++) u |= ex_classes(e->args[i], schema);
          return u;
        case FN_NULLIF: case FN_LIKELY:
          return ex_classes(e->args[0], schema);
        case FN_CAST:
          switch( e->aff ){
            case AGG_CAST_INTEGER: return EX_CLS_INT;
            case AGG_CAST_REAL: return EX_CLS_REAL;
            case AGG_CAST_NUMERIC: return EX_CLS_INT | EX_CLS_REAL;
            default: return EX_CLS_STR;
          }
        default: return EX_CLS_ALL;
      }
    default: return EX_CLS_ALL;
  }
}

int agg_expr_bare_column(const agg_expr *e){
  while( e->op==EX_FUNC && e->sub==FN_LIKELY ) e = e->args[0];
  return e->op==EX_COL && e->aff!=AFF_NONE;
}

int agg_expr_may_real(const agg_expr *e, const col_schema *schema){
  return (ex_classes(e, schema) & EX_CLS_REAL)!=0;
}

int agg_expr_never_text(const agg_expr *e){
  switch( e->op ){
    case EX_LIT: return e->lit.type!=CV_TEXT && e->lit.type!=CV_BLOB;
    case EX_BIN: return e->sub!='|';
    case EX_CMP: case EX_LOGIC: case EX_LIKE: case EX_IN: return 1;
    case EX_FUNC:
      return e->sub==FN_LENGTH || e->sub==FN_INSTR || e->sub==FN_ABS || e->sub==FN_ROUND
          || (e->sub>=FN_SIGN && e->sub<=FN_LOG2) || e->sub==FN_UNICODE || e->sub==FN_OCTET_LENGTH
          || e->sub==FN_JULIANDAY || e->sub==FN_UNIXEPOCH
          || (e->sub==FN_CAST && e->aff!=AGG_CAST_TEXT && e->aff!=AGG_CAST_BLOB);
    default: return 0;
  }
}

/* ---- evaluation --------------------------------------------------------- */

static int ex_reserve(agg_expr *e, uint32_t n){
  if( n<=e->cap ) return 0;
  uint32_t cap = n;
  uint8_t *t = realloc(e->tags, cap); if( t ) e->tags = t;
  int64_t *i = realloc(e->i64, (size_t)cap*8); if( i ) e->i64 = i;
  double *f = realloc(e->f64, (size_t)cap*8); if( f ) e->f64 = f;
  cv_str *s = realloc(e->str, (size_t)cap*sizeof(cv_str)); if( s ) e->str = s;
  if( !t || !i || !f || !s ) return -1;
  e->cap = cap;
  return 0;
}

static inline __attribute__((always_inline)) void ex_set(agg_expr *e, uint32_t r, const pred_value *v){
  e->tags[r] = v->type;
  switch( v->type ){
    case CV_INT: e->i64[r] = v->i; break;
    case CV_REAL: e->f64[r] = v->f; break;
    case CV_TEXT: case CV_BLOB: e->str[r].p = v->p; e->str[r].n = v->n; break;
    default: break;
  }
}

/* The text of v (sqlite3_value_text): numbers are formatted into the arena. */
static int ex_text(const agg_expr *e, const pred_value *v, col_arena *a,
                   const char **p, uint32_t *n){
  char buf[PRED_NUM_TEXT_MAX];
  int len;
  if( v->type==CV_INT ) len = agg_int_to_text(v->i, buf);
  else if( v->type==CV_REAL ) len = agg_real_to_text(e->dialect, v->f, buf);
  else{ *p = v->p ? v->p : ""; *n = v->n; return 0; }
  char *q = col_arena_dup(a, buf, (size_t)len);
  if( q==0 ) return -1;
  *p = q; *n = (uint32_t)len;
  return 0;
}

static pred_value ex_null(void){ pred_value v; memset(&v, 0, sizeof(v)); return v; }

/* l op r, as vdbe.c's OP_Add..OP_Remainder and OP_Concat. */
/* SQLite's OP_BitAnd, OP_BitOr, OP_ShiftLeft, OP_ShiftRight and OP_BitNot
** on operands already made integers (sqlite3VdbeIntValue): a negative
** shift goes the other way, one of 64 or more leaves 0 or (right, of a
** negative) -1, and a right shift keeps the sign. */
static int64_t ex_bits(int op, int64_t a, int64_t b){
  if( op=='&' ) return a & b;
  if( op=='B' ) return a | b;
  if( op=='~' ) return ~b;
  if( b==0 ) return a;
  if( b<0 ){ op = op=='S' ? 'R' : 'S'; b = b > -64 ? -b : 64; }
  if( b>=64 ) return (a>=0 || op=='S') ? 0 : -1;
  uint64_t u = (uint64_t)a;
  if( op=='S' ) u <<= b;
  else{
    u >>= b;
    if( a<0 ) u |= UINT64_MAX << (64-b);
  }
  return (int64_t)u;
}

static int ex_arith(const agg_expr *e, int op, const pred_value *l, const pred_value *r,
                    col_arena *a, pred_value *out){
  *out = ex_null();
  if( l->type==CV_NULL || r->type==CV_NULL ) return 0;
  if( op=='&' || op=='B' || op=='S' || op=='R' || op=='~' ){
    out->type = CV_INT; out->i = ex_bits(op, agg_int_value(l), agg_int_value(r));
    return 0;
  }
  if( op=='|' ){
    const char *lp, *rp; uint32_t ln, rn;
    if( ex_text(e, l, a, &lp, &ln) || ex_text(e, r, a, &rp, &rn) ) return -1;
    char *q = col_arena_alloc(a, (size_t)ln + rn);
    if( q==0 ) return -1;
    if( ln ) memcpy(q, lp, ln);
    if( rn ) memcpy(q+ln, rp, rn);
    out->type = CV_TEXT; out->p = q; out->n = ln + rn;
    return 0;
  }
  int64_t il = l->i, ir = r->i;
  double fl, fr;
  int atof = agg_atof_mode(e->dialect);
  int tl = l->type==CV_INT ? CV_INT : agg_numeric_type(atof, l, &il, &fl);
  int tr = r->type==CV_INT ? CV_INT : agg_numeric_type(atof, r, &ir, &fr);
  if( tl==CV_INT && tr==CV_INT ){
    int64_t v;
    switch( op ){
      case '+': if( __builtin_add_overflow(il, ir, &v) ) goto fp; break;
      case '-': if( __builtin_sub_overflow(il, ir, &v) ) goto fp; break;
      case '*': if( __builtin_mul_overflow(il, ir, &v) ) goto fp; break;
      case '/':
        if( ir==0 ) return 0;
        if( ir==-1 && il==INT64_MIN ) goto fp;
        v = il / ir;
        break;
      default:
        if( ir==0 ) return 0;
        if( ir==-1 ) ir = 1;
        v = il % ir;
        break;
    }
    out->type = CV_INT; out->i = v;
    return 0;
  }
fp:;
  double a1 = agg_real_value(atof, l), b1 = agg_real_value(atof, r), v;
  switch( op ){
    case '+': v = a1 + b1; break;
    case '-': v = a1 - b1; break;
    case '*': v = a1 * b1; break;
    case '/': if( b1==0.0 ) return 0; v = a1 / b1; break;
    default: {
      int64_t x = agg_int_value(l), y = agg_int_value(r);
      if( y==0 ) return 0;
      if( y==-1 ) y = 1;
      v = (double)(x % y);
      break;
    }
  }
  if( v!=v ) return 0;
  out->type = CV_REAL; out->f = v;
  return 0;
}

/* The format date(), time() and datetime() stand for: 0 with it set, 1
** for strftime (its format is an argument). */
static int ex_date_format(int fn, const char **f, uint32_t *nf){
  switch( fn ){
    case FN_DATE: *f = "%Y-%m-%d"; *nf = 8; return 0;
    case FN_TIME: *f = "%H:%M:%S"; *nf = 8; return 0;
    case FN_DATETIME: *f = "%Y-%m-%d %H:%M:%S"; *nf = 17; return 0;
    default: return 1;
  }
}

/* A date function's format when it is a literal (strftime's first
** argument, or date/time/datetime's own). */
static void ex_lit_format(const agg_expr *e, const char **f, uint32_t *nf){
  if( ex_date_format(e->sub, f, nf) ){ *f = e->args[0]->lit.p; *nf = e->args[0]->lit.n; }
}

/* e's function of d with modifiers mods[0..nmods) and format f into out
** (AGG_STRFTIME_CAP(nf) bytes): its length, or -1 for NULL. date() and
** datetime() print a year before 1 as dateFunc does (agg_date_text). */
static int ex_date_compute(const agg_expr *e, const char *f, uint32_t nf, const pred_value *d,
                           const agg_date_mod *mods, int nmods, char *out){
  if( e->sub==FN_DATE || e->sub==FN_DATETIME ) return agg_date_text(e->sub==FN_DATETIME, d, mods, nmods, e->dialect, out);
  if( e->sub==FN_TIME ) return agg_time_text(d, mods, nmods, e->dialect, out);
  return agg_strftime(f, nf, d, mods, nmods, e->dialect, out);
}

/* strftime(f, d) into *out (left NULL for a NULL result), through e's
** template when d is canonical timestamp text. -1 when out of memory. */
static int ex_date_value(const agg_expr *e, const char *f, uint32_t nf,
                         const pred_value *d, col_arena *a, pred_value *out){
  if( d->type==CV_NULL ) return 0;
  if( e->tpl.code && d->type==CV_TEXT && agg_ts_canonical(d->p, d->n, EX_DATE_NORMALIZE(e)) ){
    /* the fields are bytes of the text: a slice of it, or a copy */
    if( e->tpl.run>=0 ){
      out->type = CV_TEXT; out->p = d->p + e->tpl.run; out->n = e->tpl.n;
      return 0;
    }
    char *q = col_arena_alloc(a, e->tpl.n);
    if( q==0 ) return -1;
    agg_tpl_apply(&e->tpl, d->p, q);
    out->type = CV_TEXT; out->p = q; out->n = e->tpl.n;
    return 0;
  }
  char *q = col_arena_alloc(a, AGG_STRFTIME_CAP(nf) + 1);
  if( q==0 ) return -1;
  int len = ex_date_compute(e, f, nf, d, e->mods, e->nmods, q);
  if( len<0 ) return 0;
  out->type = CV_TEXT; out->p = q; out->n = (uint32_t)len;
  return 0;
}

/* hex, unicode, char, concat, concat_ws and octet_length as func.c has
** them: a number's bytes are its text; NULL to hex() is ''; a char()
** argument is read as an integer, outside 0..0x10ffff as U+FFFD; concat
** skips NULL and empty arguments (no separator for them) and concat_ws
** with a NULL separator is NULL. -1 out of memory, EX_TOOBIG past
** SQLite's length limit. */
static int ex_strfn2(const agg_expr *e, const pred_value *x, int nx, col_arena *a, pred_value *out){
  const char *z; uint32_t n;
  switch( e->sub ){
    case FN_HEX: {
      if( x[0].type==CV_NULL ){ out->type = CV_TEXT; out->p = ""; out->n = 0; return 0; }
      if( ex_text(e, &x[0], a, &z, &n) ) return -1;
      char *o = col_arena_alloc(a, (size_t)n*2 + 1);
      if( o==0 ) return -1;
      static const char digits[] = "0123456789ABCDEF";
      for(uint32_t i=0; i<n; i++){
        o[2*i] = digits[(unsigned char)z[i]>>4]; o[2*i+1] = digits[(unsigned char)z[i]&15];
      }
      out->type = CV_TEXT; out->p = o; out->n = n*2;
      return 0;
    }
    case FN_UNICODE:
      if( x[0].type==CV_NULL ) return 0;
      if( ex_text(e, &x[0], a, &z, &n) ) return -1;
      if( n==0 || z[0]==0 ) return 0;
      out->type = CV_INT; out->i = pred_utf8_first(z, n, e->dialect);
      return 0;
    case FN_OCTET_LENGTH:
      if( x[0].type==CV_NULL ) return 0;
      if( ex_text(e, &x[0], a, &z, &n) ) return -1;
      out->type = CV_INT; out->i = n;
      return 0;
    case FN_CHAR: {
      char *o = col_arena_alloc(a, (size_t)nx*4 + 1);
      if( o==0 ) return -1;
      uint32_t m = 0;
      for(int i=0; i<nx; i++){
        int64_t v = x[i].type==CV_NULL ? 0 : agg_int_value(&x[i]);
        m += agg_utf8_put(o+m, v<0 || v>0x10ffff ? 0xfffd : (uint32_t)v);
      }
      out->type = CV_TEXT; out->p = o; out->n = m;
      return 0;
    }
    default: {   /* FN_CONCAT, FN_CONCAT_WS */
      const char *sep = ""; uint32_t nsep = 0;
      int first = 0;
      if( e->sub==FN_CONCAT_WS ){
        if( x[0].type==CV_NULL ) return 0;
        if( ex_text(e, &x[0], a, &sep, &nsep) ) return -1;
        first = 1;
      }
      /* an empty argument: skipped (3.44), joined after the first text
      ** written (3.50) or joined as any (3.53): col_dialect.concat_ws_empty */
      int mode = e->sub==FN_CONCAT_WS && e->dialect ? e->dialect->concat_ws_empty : 0;
      const char *part[EX_MAXARG]; uint32_t np[EX_MAXARG];
      uint8_t sp[EX_MAXARG];
      uint64_t total = 0;      /* bytes written so far, and in the end */
      int k = 0;
      for(int i=first; i<nx; i++){
        if( x[i].type==CV_NULL ) continue;
        if( ex_text(e, &x[i], a, &part[k], &np[k]) ) return -1;
        if( np[k]==0 && mode==0 ) continue;
        sp[k] = mode==2 ? k>0 : total>0;
        total += np[k] + (sp[k] ? nsep : 0);
        k++;
      }
      if( total > 1000000000 ) return EX_TOOBIG;   /* SQLITE_MAX_LENGTH */
      char *o = col_arena_alloc(a, (size_t)total + 1);
      if( o==0 ) return -1;
      uint64_t m = 0;
      for(int i=0; i<k; i++){
        if( sp[i] && nsep ){ memcpy(o+m, sep, nsep); m += nsep; }
        if( np[i] ){ memcpy(o+m, part[i], np[i]); m += np[i]; }
      }
      out->type = CV_TEXT; out->p = o; out->n = (uint32_t)m;
      return 0;
    }
  }
}

/* log10(x) (two: log2) as the SQLite at hand computes it (log_direct) */
static double ex_log_base(const agg_expr *e, double x, int two){
  if( e->dialect && e->dialect->log_direct ) return two ? log2(x) : log10(x);
  return log(x) / (two ? M_LN2 : M_LN10);
}

/* sign() and the math functions, as func.c computes them: each argument
** through sqlite3_value_numeric_type (a TEXT that is a whole number
** becomes one, any other TEXT, and a BLOB, answer NULL), then libm on its
** double; a NaN result is NULL. floor, ceil and trunc keep an INTEGER;
** log(x) is log10, log(b, x) is ln(x)/ln(b) for b > 1 (3.40's logFunc). */
static int ex_math(const agg_expr *e, const pred_value *x, int nx, pred_value *out){
  double v[2] = { 0, 0 };
  int64_t iv = 0;
  int t0 = CV_NULL;
  for(int i=0; i<nx; i++){
    if( e->sub==FN_LOG && i==1 ){
      /* logFunc checks the type of its first argument twice, never the
      ** second's: sqlite3_value_double of '8abc' is 8 */
      if( x[1].type==CV_NULL ) return 0;
      v[1] = agg_real_value(agg_atof_mode(e->dialect), &x[1]);
      break;
    }
    pred_value n = agg_numeric_affinity(agg_atof_mode(e->dialect), &x[i]);
    if( n.type!=CV_INT && n.type!=CV_REAL ) return 0;
    v[i] = n.type==CV_INT ? (double)n.i : n.f;
    if( i==0 ){ t0 = n.type; iv = n.i; }
  }
  double r;
  switch( e->sub ){
    case FN_SIGN:
      out->type = CV_INT; out->i = v[0]<0.0 ? -1 : v[0]>0.0 ? 1 : 0;
      return 0;
    case FN_FLOOR: case FN_CEIL: case FN_TRUNC:
      if( t0==CV_INT ){ out->type = CV_INT; out->i = iv; return 0; }
      r = e->sub==FN_FLOOR ? floor(v[0]) : e->sub==FN_CEIL ? ceil(v[0]) : trunc(v[0]);
      break;
    case FN_MOD: r = fmod(v[0], v[1]); break;
    case FN_POW: r = pow(v[0], v[1]); break;
    case FN_SQRT: r = sqrt(v[0]); break;
    case FN_EXP: r = exp(v[0]); break;
    case FN_LN: case FN_LOG10: case FN_LOG2:
      if( v[0]<=0.0 ) return 0;
      r = e->sub==FN_LN ? log(v[0]) : ex_log_base(e, v[0], e->sub==FN_LOG2);
      break;
    default: {   /* FN_LOG */
      if( v[0]<=0.0 ) return 0;
      if( nx==1 ){ r = ex_log_base(e, v[0], 0); break; }
      double b = log(v[0]);
      if( b<=0.0 || v[1]<=0.0 ) return 0;
      r = log(v[1])/b;
      break;
    }
  }
  if( r!=r ) return 0;
  out->type = CV_REAL; out->f = r;
  return 0;
}

static int ex_func(agg_expr *e, const pred_value *x, int nx, col_arena *a, pred_value *out){
  *out = ex_null();
  switch( e->sub ){
    case FN_LENGTH: {
      if( x[0].type==CV_NULL ) return 0;
      out->type = CV_INT;
      if( x[0].type==CV_BLOB ){ out->i = x[0].n; return 0; }
      const char *p; uint32_t n;
      if( ex_text(e, &x[0], a, &p, &n) ) return -1;
      out->i = agg_str_length(p, n, EX_LEAD_ANY(e));
      return 0;
    }
    case FN_SUBSTR: {
      if( x[1].type==CV_NULL || (nx==3 && x[2].type==CV_NULL) ) return 0;
      if( x[0].type==CV_NULL ) return 0;
      int64_t p1 = (int)(x[1].type==CV_INT ? x[1].i : agg_int_value(&x[1]));
      int64_t p2 = nx==3 ? (int)(x[2].type==CV_INT ? x[2].i : agg_int_value(&x[2])) : 0;
      if( x[0].type!=CV_BLOB ){
        const char *p; uint32_t n, off, len;
        if( ex_text(e, &x[0], a, &p, &n) ) return -1;
        agg_str_substr(p, n, p1, nx==3, p2, EX_LEAD_ANY(e), &off, &len);
        out->type = CV_TEXT; out->p = p + off; out->n = len;
        return 0;
      }
      /* BLOB: bytes, no character walk and no NUL */
      if( x[0].n==0 ) return 0;   /* sqlite3_value_blob gives NULL for x'' */
      int64_t len = x[0].n, s0, c0;
      agg_substr_span(p1, nx==3, p2, len, &s0, &c0);
      if( s0+c0>len ){ c0 = len-s0; if( c0<0 ) c0 = 0; }
      out->type = CV_BLOB;
      out->p = s0<len ? x[0].p + s0 : x[0].p;
      out->n = (uint32_t)c0;
      return 0;
    }
    case FN_LOWER: case FN_UPPER: {
      if( x[0].type==CV_NULL ) return 0;
      const char *p; uint32_t n;
      if( ex_text(e, &x[0], a, &p, &n) ) return -1;
      char *q = col_arena_alloc(a, n);
      if( q==0 ) return -1;
      for(uint32_t i=0; i<n; i++){
        char c = p[i];
        if( e->sub==FN_LOWER ){ if( c>='A' && c<='Z' ) c += 32; }
        else if( c>='a' && c<='z' ) c -= 32;
        q[i] = c;
      }
      out->type = CV_TEXT; out->p = q; out->n = n;
      return 0;
    }
    case FN_ABS: {
      if( x[0].type==CV_NULL ) return 0;
      if( x[0].type==CV_INT ){
        if( x[0].i==INT64_MIN ) return EX_OVERFLOW;
        out->type = CV_INT; out->i = x[0].i<0 ? -x[0].i : x[0].i;
        return 0;
      }
      double r = agg_real_value(agg_atof_mode(e->dialect), &x[0]);
      out->type = CV_REAL; out->f = r<0 ? -r : r;
      return 0;
    }
    case FN_COALESCE:
      for(int i=0; i<nx; i++) if( x[i].type!=CV_NULL ){ *out = x[i]; break; }
      return 0;
    case FN_LIKELY: *out = x[0]; return 0;
    case FN_HEX: case FN_UNICODE: case FN_CHAR: case FN_CONCAT: case FN_CONCAT_WS: case FN_OCTET_LENGTH:
      return ex_strfn2(e, x, nx, a, out);
    case FN_SIGN: case FN_FLOOR: case FN_CEIL: case FN_TRUNC: case FN_MOD: case FN_POW:
    case FN_SQRT: case FN_EXP: case FN_LN: case FN_LOG: case FN_LOG10: case FN_LOG2:
      return ex_math(e, x, nx, out);
    case FN_JSON_EXTRACT: case FN_JSON_ARROW: case FN_JSON_ARROW2: {
      if( x[0].type==CV_NULL ) return 0;
      if( x[0].type==CV_BLOB ) return EX_JSON_REFUSED;
      const char *z; uint32_t zn;
      if( ex_text(e, &x[0], a, &z, &zn) ) return -1;
      int rc = agg_json_extract(z, zn, e->jpath, e->sub==FN_JSON_ARROW ? AGG_JSON_AS_JSON : AGG_JSON_AS_SQL,
                                e->dialect, a, out);
      return rc==AGG_JSON_MALFORMED ? EX_JSON_MALFORMED : rc==AGG_JSON_REFUSED ? EX_JSON_REFUSED : rc;
    }
    case FN_NULLIF:
      if( (e->coll==COLL_BINARY ? agg_value_compare(&x[0], &x[1])
                                : pred_value_compare(&x[0], &x[1], (pred_coll)e->coll))!=0 ) *out = x[0];
      return 0;
    case FN_TYPEOF: {
      static const char *const names[] = { "null", "integer", "real", "text", "blob" };
      int t = x[0].type<=CV_BLOB ? x[0].type : CV_NULL;
      out->type = CV_TEXT; out->p = names[t]; out->n = (uint32_t)strlen(out->p);
      return 0;
    }
    case FN_MIN: case FN_MAX: {
      int i = agg_minmax_pick(x, nx, e->sub==FN_MAX, e->coll);
      if( i>=0 ) *out = x[i];
      return 0;
    }
    case FN_TRIM: case FN_LTRIM: case FN_RTRIM: {
      if( x[0].type==CV_NULL || (nx==2 && x[1].type==CV_NULL) ) return 0;
      const char *z, *set = " "; uint32_t n, nset = 1, off, len;
      if( ex_text(e, &x[0], a, &z, &n) ) return -1;
      if( nx==2 && ex_text(e, &x[1], a, &set, &nset) ) return -1;
      int sides = e->sub==FN_LTRIM ? 1 : e->sub==FN_RTRIM ? 2 : 3;
      agg_str_trim(z, n, set, nset, sides, &off, &len);
      out->type = CV_TEXT; out->p = z + off; out->n = len;
      return 0;
    }
    case FN_REPLACE: {
      if( x[0].type==CV_NULL || x[1].type==CV_NULL ) return 0;
      const char *z, *pat, *rp; uint32_t n, np, nr;
      if( ex_text(e, &x[0], a, &z, &n) || ex_text(e, &x[1], a, &pat, &np) ) return -1;
      /* replaceFunc reads the pattern as C text: one starting with NUL is empty */
      if( np==0 || pat[0]==0 ){ *out = x[0]; return 0; }
      if( x[2].type==CV_NULL ) return 0;
      if( ex_text(e, &x[2], a, &rp, &nr) ) return -1;
      size_t m = agg_str_replace(z, n, pat, np, rp, nr, 0);
      if( m > 1000000000 ) return EX_TOOBIG;   /* SQLITE_MAX_LENGTH, the default limit */
      char *q = col_arena_alloc(a, m ? m : 1);
      if( q==0 ) return -1;
      agg_str_replace(z, n, pat, np, rp, nr, q);
      out->type = CV_TEXT; out->p = q; out->n = (uint32_t)m;
      return 0;
    }
    case FN_ROUND: {
      /* roundFunc: the places as sqlite3_value_int (3.40) or _int64 read them */
      int64_t places = 0;
      if( nx==2 ){
        if( x[1].type==CV_NULL ) return 0;
        places = agg_int_value(&x[1]);
        if( !(e->dialect && e->dialect->round_n64) ) places = (int32_t)(uint32_t)(uint64_t)places;
        if( places>30 ) places = 30;
        if( places<0 ) places = 0;
      }
      if( x[0].type==CV_NULL ) return 0;
      double r = agg_real_value(agg_atof_mode(e->dialect), &x[0]);
      if( r<-4503599627370496.0 || r>4503599627370496.0 ){
        /* no fraction to round */
      }else if( places==0 ){
        r = (double)(int64_t)(r + (r<0 ? -0.5 : +0.5));
      }else{
        char buf[128];
        int len = e->dialect && e->dialect->fixed_text
                ? e->dialect->fixed_text(r, (int)places, buf, sizeof(buf))
                : snprintf(buf, sizeof(buf), "%.*f", (int)places, r);
        agg_atof(agg_atof_mode(e->dialect), buf, (uint32_t)len, &r);
      }
      out->type = CV_REAL; out->f = r;
      return 0;
    }
    case FN_JULIANDAY: case FN_UNIXEPOCH: {
      int64_t jd;
      int k = agg_date_jd(&x[0], e->mods, e->nmods, e->dialect, &jd);
      if( k==0 ) return 0;
      if( e->sub==FN_JULIANDAY ){ out->type = CV_REAL; out->f = jd/86400000.0; }
      else if( k==2 ){ out->type = CV_REAL; out->f = (jd - 21086676*(int64_t)10000000)/1000.0; }
      else{ out->type = CV_INT; out->i = jd/1000 - 21086676*(int64_t)10000; }
      return 0;
    }
    case FN_JSON_VALUE: case FN_JSON_MEMBER: {
      int rc;
      if( e->sub==FN_JSON_VALUE ){
        rc = agg_json_value(&x[0], e->dialect, a, out);
      }else{
        const char *z = 0; uint32_t n = 0;
        if( x[0].type!=CV_NULL && ex_text(e, &x[0], a, &z, &n) ) return -1;
        if( z==0 && x[0].type!=CV_NULL ) z = "";
        rc = agg_json_member(z, n, &x[1], e->dialect, a, out);
      }
      return rc==AGG_JSON_TOOBIG ? EX_TOOBIG : rc;
    }
    case FN_FIXED: {
      *out = x[0];
      if( e->fix_class==AGG_CAST_TEXT ){
        if( x[0].type==CV_INT || x[0].type==CV_REAL ){
          const char *z; uint32_t n;
          if( ex_text(e, &x[0], a, &z, &n) ) return -1;
          out->type = CV_TEXT; out->p = z; out->n = n;
        }
      }else if( e->fix_class!=AGG_CAST_BLOB ){
        /* applyAffinity: TEXT that reads as a number becomes one, a REAL
        ** that is an integer becomes INTEGER (sqlite3VdbeIntegerAffinity);
        ** OP_Affinity then makes REAL's numbers REAL */
        if( out->type==CV_TEXT ) *out = agg_numeric_affinity(agg_atof_mode(e->dialect), out);
        if( out->type==CV_REAL && out->f > -9223372036854775808.0 && out->f < 9223372036854775807.0
         && out->f==(double)(int64_t)out->f
         && (int64_t)out->f > INT64_MIN && (int64_t)out->f < INT64_MAX ){
          out->type = CV_INT; out->i = (int64_t)out->f;
        }
        if( e->fix_class==AGG_CAST_REAL && out->type==CV_INT ){
          out->type = CV_REAL; out->f = (double)out->i;
        }
      }
      return 0;
    }
    case FN_CAST: {
      if( x[0].type==CV_NULL ) return 0;
      if( e->aff==AGG_CAST_TEXT || e->aff==AGG_CAST_BLOB ){
        const char *z; uint32_t n;
        if( ex_text(e, &x[0], a, &z, &n) ) return -1;
        out->type = e->aff==AGG_CAST_TEXT ? CV_TEXT : CV_BLOB; out->p = z; out->n = n;
        return 0;
      }
      *out = agg_cast_number(agg_atof_mode(e->dialect), &x[0], e->aff);
      return 0;
    }
    default: {
      const char *f; uint32_t nf;
      const pred_value *d = &x[0];
      if( ex_date_format(e->sub, &f, &nf) ){
        if( x[0].type==CV_NULL ) return 0;
        if( ex_text(e, &x[0], a, &f, &nf) ) return -1;
        d = &x[1];
      }
      return ex_date_value(e, f, nf, d, a, out);
    }
  }
}

/* ---- predicates ---------------------------------------------------------- */

/* sqlite3ExprAffinity: a column's declared one, a CAST's target (INTEGER
** and REAL compare as NUMERIC), none for anything else. */
int ex_aff(const agg_expr *e){
  if( e->op==EX_COL || (e->op==EX_FUNC && e->sub==FN_FIXED) ) return e->aff;
  if( e->op==EX_FUNC && e->sub==FN_CAST ) return ex_cmp_affinity(e->aff);
  return AFF_NONE;
}

/* sqlite3CompareAffinity of two operands. */
static int ex_cmp_aff(const agg_expr *l, const agg_expr *r){
  int a = ex_aff(l), b = ex_aff(r);
  if( a && b ) return (a==AFF_NUM || b==AFF_NUM) ? AFF_NUM : AFF_BLOB;
  return a ? a : b;
}

/* What OP_Eq..OP_Ge do to an operand under affinity aff. */
static void ex_apply_aff(const agg_expr *e, int aff, pred_value *v, char *buf){
  if( aff==AFF_NUM ){
    if( v->type==CV_TEXT ) *v = agg_numeric_affinity(agg_atof_mode(e->dialect), v);
  }else if( aff==AFF_TEXT ){
    if( v->type==CV_INT || v->type==CV_REAL ){
      int n = v->type==CV_INT ? agg_int_to_text(v->i, buf) : agg_real_to_text(e->dialect, v->f, buf);
      v->type = CV_TEXT; v->p = buf; v->n = (uint32_t)n;
    }
  }
}

/* l op r: 1, 0, or -1 for NULL. */
static int ex_compare(const agg_expr *e, int op, int aff, pred_value l, pred_value r){
  char b1[PRED_NUM_TEXT_MAX], b2[PRED_NUM_TEXT_MAX];
  if( l.type==CV_NULL || r.type==CV_NULL ){
    if( op==CMP_IS ) return l.type==r.type;
    if( op==CMP_ISNOT ) return l.type!=r.type;
    return -1;
  }
  ex_apply_aff(e, aff, &l, b1);
  ex_apply_aff(e, aff, &r, b2);
  int c = e->coll==COLL_BINARY ? agg_value_compare(&l, &r) : pred_value_compare(&l, &r, (pred_coll)e->coll);
  switch( op ){
    case CMP_EQ: case CMP_IS: return c==0;
    case CMP_NE: case CMP_ISNOT: return c!=0;
    case CMP_LT: return c<0;
    case CMP_LE: return c<=0;
    case CMP_GT: return c>0;
    default: return c>=0;
  }
}

/* sqlite3VdbeBooleanValue: 1 true, 0 false, -1 NULL. */
static int ex_truth(const agg_expr *e, const pred_value *v){
  switch( v->type ){
    case CV_NULL: return -1;
    case CV_INT: return v->i!=0;
    default: return agg_real_value(agg_atof_mode(e->dialect), v)!=0.0;
  }
}

static void ex_bool(pred_value *out, int t){
  *out = ex_null();
  if( t>=0 ){ out->type = CV_INT; out->i = t; }
}

/* instrFunc of SQLite 3.40. */
static int ex_instr(const agg_expr *e, const pred_value *h, const pred_value *nd,
                    col_arena *a, pred_value *out){
  *out = ex_null();
  if( h->type==CV_NULL || nd->type==CV_NULL ) return 0;
  const char *zh, *zn;
  uint32_t nh, nn;
  int is_text = !(h->type==CV_BLOB && nd->type==CV_BLOB);
  if( ex_text(e, h, a, &zh, &nh) || ex_text(e, nd, a, &zn, &nn) ) return -1;
  out->type = CV_INT; out->i = agg_str_instr(zh, nh, zn, nn, is_text);
  return 0;
}

/* One row of a predicate or instr node. */
/* l op r for two INTEGERs (IS and IS NOT are = and <> when neither is NULL). */
static inline int ex_int_cmp(int sub, int64_t l, int64_t r){
  switch( sub ){
    case CMP_EQ: case CMP_IS: return l==r;
    case CMP_NE: case CMP_ISNOT: return l!=r;
    case CMP_LT: return l<r;
    case CMP_LE: return l<=r;
    case CMP_GT: return l>r;
    default: return l>=r;
  }
}

/* x IN (..., item, ...) at one item: 1 when they are equal, with the left
** side's affinity (exprINAffinity); else 0, *null set for a NULL item. */
static int ex_in_item(const agg_expr *e, const pred_value *x, const pred_value *item, int *null){
  if( item->type==CV_NULL ){ *null = 1; return 0; }
  int aff = ex_aff(e->args[0]);
  return ex_compare(e, CMP_EQ, aff==AFF_BLOB ? AFF_NONE : aff, *x, *item)==1;
}

static int ex_row(agg_expr *e, const pred_value *x, col_arena *a, pred_value *out){
  switch( e->op ){
    case EX_CMP: {
      int aff = ex_cmp_aff(e->args[0], e->args[1]);
      if( x[0].type==CV_INT && x[1].type==CV_INT && aff!=AFF_TEXT ){
        ex_bool(out, ex_int_cmp(e->sub, x[0].i, x[1].i));
        return 0;
      }
      ex_bool(out, ex_compare(e, e->sub, aff, x[0], x[1]));
      return 0;
    }
    case EX_LOGIC: {
      int t0 = ex_truth(e, &x[0]);
      switch( e->sub ){
        case LG_NOT: ex_bool(out, t0<0 ? -1 : !t0); return 0;
        case LG_ISNULL: ex_bool(out, x[0].type==CV_NULL); return 0;
        case LG_NOTNULL: ex_bool(out, x[0].type!=CV_NULL); return 0;
        default: break;
      }
      int t1 = ex_truth(e, &x[1]);
      if( e->sub==LG_AND ) ex_bool(out, (t0==0 || t1==0) ? 0 : (t0<0 || t1<0) ? -1 : 1);
      else ex_bool(out, (t0==1 || t1==1) ? 1 : (t0<0 || t1<0) ? -1 : 0);
      return 0;
    }
    case EX_LIKE: {
      /* SQLITE_LIKE_DOESNT_MATCH_BLOBS (as Debian builds SQLite; see
      ** reader/predicate.c): a BLOB on either side is 0, even against
      ** NULL. Upstream's default matches its bytes as text. */
      if( (x[0].type==CV_BLOB || x[1].type==CV_BLOB) && !(e->dialect && e->dialect->like_blobs) ){
        ex_bool(out, e->neg);
        return 0;
      }
      if( x[0].type==CV_NULL || x[1].type==CV_NULL ){ ex_bool(out, -1); return 0; }
      const char *zs, *zp;
      uint32_t ns, np;
      if( ex_text(e, &x[0], a, &zs, &ns) || ex_text(e, &x[1], a, &zp, &np) ) return -1;
      int shape = PRED_LIKE_GENERAL;
      const char *lit = 0;
      uint32_t nlit = 0;
      if( e->sub ){
        /* GLOB */
      }else if( e->like_known ){
        shape = e->like_shape; lit = e->like_lit; nlit = e->like_m;
      }else{
        shape = pred_like_shape(zp, np, e->esc, &lit, &nlit);
        if( e->args[1]->op==EX_LIT && e->args[1]->lit.type==CV_TEXT ){
          e->like_known = 1;
          e->like_shape = shape; e->like_lit = lit; e->like_m = nlit;
        }
      }
      int cs = e->dialect && e->dialect->like_case_sensitive;
      int m = e->sub ? pred_glob(zp, np, zs, ns, e->dialect)
            : shape!=PRED_LIKE_GENERAL ? pred_like_simple(shape, lit, nlit, zs, ns, cs)
            : pred_like(zp, np, zs, ns, cs, e->esc, e->dialect);
      ex_bool(out, e->neg ? !m : !!m);
      return 0;
    }
    case EX_IN: {
      if( x[0].type==CV_NULL ){ ex_bool(out, -1); return 0; }
      int null = 0;
      for(int i=1; i<e->nargs; i++){
        if( ex_in_item(e, &x[0], &x[i], &null) ){ ex_bool(out, 1); return 0; }
      }
      ex_bool(out, null ? -1 : 0);
      return 0;
    }
    default:
      return ex_instr(e, &x[0], &x[1], a, out);
  }
}

/* CASE and iif row by row, reading only the WHEN values up to the first
** true one and the one result taken. Kept out of ex_eval so that the
** compiler still inlines the value accessors into both loops. */
/* Row r of a CASE node the general way. */
static inline void ex_case_row(agg_expr *e, const col_vector **arg, uint32_t r){
  int npair = (e->nargs - e->has_base - e->has_else)/2;
  pred_value base = e->has_base ? agg_value_at(arg[0], r) : ex_null(), res;
  int pick = e->has_else ? e->nargs-1 : -1;
  for(int p=0, i=e->has_base; p<npair; p++, i+=2){
    pred_value w = agg_value_at(arg[i], r);
    int t = e->has_base ? ex_compare(e, CMP_EQ, ex_cmp_aff(e->args[0], e->args[i]), base, w)
                        : ex_truth(e, &w);
    if( t==1 ){ pick = i+1; break; }
  }
  res = pick<0 ? ex_null() : agg_value_at(arg[pick], r);
  ex_set(e, r, &res);
}

static __attribute__((noinline)) void ex_case_rows(agg_expr *e, const col_vector **arg,
                                                  const col_batch *b){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(uint32_t k=0; k<nsel; k++) ex_case_row(e, arg, b->sel ? b->sel[k] : k);
}

/* One row the general way: values, the node's function, the result set.
** 0, -1 out of memory, or the error a row raises (EX_OVERFLOW, EX_TOOBIG). */
static inline int ex_apply(agg_expr *e, const pred_value *x, col_arena *a, pred_value *out){
  int rc = e->op==EX_BIN ? ex_arith(e, e->sub, &x[0], &x[1], a, out)
         : e->op==EX_FUNC && e->sub!=FN_INSTR ? ex_func(e, x, e->nargs, a, out)
         : ex_row(e, x, a, out);
  return rc<0 ? rc : rc ? -1 : 0;
}

static inline int ex_one_row(agg_expr *e, const col_vector **arg, uint32_t r, col_arena *arena){
  pred_value x[EX_MAXARG], res;
  for(int i=0; i<e->nargs; i++) x[i] = agg_value_at(arg[i], r);
  int rc = ex_apply(e, x, arena, &res);
  if( rc ) return rc;
  ex_set(e, r, &res);
  return 0;
}

/* A row's failure in the batch evaluator as ex_eval returns it: an error
** the row raised goes back as EX_RC_ROW_ERROR, for agg_expr_eval to ask
** whether SQLite would have computed that row of that node at all. */
static int ex_rows_failed(int rc, col_error *err){
  if( rc==EX_OVERFLOW ){ col_error_set(err, COL_ERROR, "integer overflow"); return EX_RC_ROW_ERROR; }
  if( rc==EX_TOOBIG ){ col_error_set(err, COL_ERROR, "string or blob too big"); return EX_RC_ROW_ERROR; }
  if( rc==EX_JSON_MALFORMED ){
    col_error_set(err, COL_ERROR, "malformed JSON (group_by reads strict JSON only; SQLite 3.42 and later also read JSON5: use SQLite's own GROUP BY)");
    return EX_RC_ROW_ERROR;
  }
  if( rc==EX_JSON_REFUSED ){
    col_error_set(err, COL_ERROR, "group_by: a JSON value SQLite versions answer apart (a BLOB, a NUL, \\u0000, an escaped key, nesting past 1000) is not evaluated here (use SQLite's own GROUP BY)");
    return EX_RC_ROW_ERROR;
  }
  return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
}

/* Any other node, row by row; 0 or a row's failure (ex_one_row). */
static __attribute__((noinline)) int ex_rows(agg_expr *e, const col_vector **arg,
                                            const col_batch *b, col_arena *arena){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(uint32_t k=0; k<nsel; k++){
    int rc = ex_one_row(e, arg, b->sel ? b->sel[k] : k, arena);
    if( rc ) return rc;
  }
  return 0;
}

/* A FLAT or CONST vector read without a value conversion: the storage
** class and the slot of row r. */
#define EX_TAG(v, r) ((v)->tags ? (v)->tags[(v)->form==CV_CONST ? 0 : (r)] : (v)->type)
#define EX_AT(v, r) ((v)->form==CV_CONST ? 0 : (r))
/* Can v hold class t in some row? (With tags, `type` may say nothing.) */
#define EX_MAY(v, t) ((v)->tags || (v)->type==(t))

/* Row r of v (any form) when it is TEXT or BLOB: its class, and its bytes
** in *s; other classes are returned with *s untouched. */
static inline int ex_str_at(const col_vector *v, uint32_t r, const cv_str **s){
  int t = cv_tag(v, r);
  if( t==CV_TEXT || t==CV_BLOB ){
    *s = v->form==CV_DICT ? &v->dict->str[v->codes[r]] : &v->str[EX_AT(v, r)];
  }
  return t;
}
/* Can v, of any form, hold TEXT in some row? */
#define EX_MAY_TEXT(v) ((v)->form==CV_DICT ? EX_MAY((v)->dict, CV_TEXT) : EX_MAY(v, CV_TEXT))

/* CASE without a base (IIF) over FLAT and CONST vectors: a row whose
** conditions are INTEGER or NULL copies the picked value's tag and payload
** as they are, no pred_value between (Q29's key is three IIFs deep); any
** other row goes through ex_case_row. 0 done, 1 not this shape. */
static __attribute__((noinline)) int ex_case_fast(agg_expr *e, const col_vector **arg,
                                                 const col_batch *b){
  if( e->has_base ) return 1;
  for(int i=0; i<e->nargs; i++) if( arg[i]->form==CV_DICT ) return 1;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  int npair = (e->nargs - e->has_else)/2;
  int uni = -2;                /* the one tag set so far, -1 several */
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    int pick = e->has_else ? e->nargs-1 : -1, plain = 1;
    for(int p=0, i=0; p<npair; p++, i+=2){
      const col_vector *c = arg[i];
      int t = EX_TAG(c, r);
      if( t==CV_INT ){
        if( c->i64[EX_AT(c, r)]!=0 ){ pick = i+1; break; }
      }else if( t!=CV_NULL ){
        plain = 0;
        break;
      }
    }
    if( !plain ){
      /* a REAL or TEXT condition: its truth the general way */
      ex_case_row(e, arg, r);
      uni = -1;
      continue;
    }
    int t = CV_NULL;
    if( pick>=0 ){
      const col_vector *v = arg[pick];
      uint32_t at = EX_AT(v, r);
      t = EX_TAG(v, r);
      if( t==CV_INT ) e->i64[r] = v->i64[at];
      else if( t==CV_REAL ) e->f64[r] = v->f64[at];
      else if( t==CV_TEXT || t==CV_BLOB ) e->str[r] = v->str[at];
    }
    e->tags[r] = (uint8_t)t;
    uni = uni==-2 || uni==t ? t : -1;
  }
  e->out_tag = uni>0 ? uni : 0;
  return 0;
}

/* The shapes expressions over text columns are made of (ClickBench's
** Referer parsing: instr, substr, `+ 3`, `> 0`, `= 'www.'`), column at a
** time: a row whose values have the expected storage classes is computed
** in place, any other row the general way. When none went the general
** way, out_tag says the one class of the result. 0 done, 1 not this
** shape, or a row's failure (ex_one_row). */
static int ex_fast_rows(agg_expr *e, const col_vector **arg, const col_batch *b,
                        col_arena *arena){
  int rc1;
  uint32_t nslow = 0;          /* rows ex_one_row computed */
  /* a text argument may come as a dictionary (a row group's URLs, too
  ** many to evaluate per entry); the others are read flat */
  for(int i=0; i<e->nargs; i++){
    if( arg[i]->form==CV_DICT && (e->op!=EX_FUNC || i>0) ) return 1;
  }
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( ((e->op==EX_BIN && (e->sub=='+' || e->sub=='-' || e->sub=='*'))
       || (e->op==EX_CMP && ex_cmp_aff(e->args[0], e->args[1])!=AFF_TEXT))
   && EX_MAY(arg[0], CV_INT) && EX_MAY(arg[1], CV_INT) ){
    const col_vector *l = arg[0], *rv = arg[1];
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      if( EX_TAG(l, r)==CV_INT && EX_TAG(rv, r)==CV_INT ){
        int64_t x = l->i64[EX_AT(l, r)], y = rv->i64[EX_AT(rv, r)], v;
        if( e->op==EX_CMP ){
          v = ex_int_cmp(e->sub, x, y);
        }else{
          int of = e->sub=='+' ? __builtin_add_overflow(x, y, &v)
                 : e->sub=='-' ? __builtin_sub_overflow(x, y, &v)
                 : __builtin_mul_overflow(x, y, &v);
          /* overflow: SQLite goes to REAL, the general way */
          if( of ){ nslow++; if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1; continue; }
        }
        e->i64[r] = v; e->tags[r] = CV_INT;
        continue;
      }
      nslow++;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = nslow ? 0 : CV_INT;
    return 0;
  }
  if( e->op==EX_CMP && ex_cmp_aff(e->args[0], e->args[1])!=AFF_NUM ){
    /* TEXT against TEXT: no affinity but NUMERIC changes either side, and
    ** the order is agg_value_compare's, bytes then length (a prefix of a
    ** URL against 'www.') */
    const col_vector *l = arg[0], *rv = arg[1];
    if( !EX_MAY(l, CV_TEXT) || !EX_MAY(rv, CV_TEXT) ) return 1;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      const cv_str *x, *y;
      if( ex_str_at(l, r, &x)==CV_TEXT && ex_str_at(rv, r, &y)==CV_TEXT ){
        int c = pred_text_compare(x->p, x->n, y->p, y->n, (pred_coll)e->coll);
        e->i64[r] = ex_int_cmp(e->sub, c, 0); e->tags[r] = CV_INT;
        continue;
      }
      nslow++;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = nslow ? 0 : CV_INT;
    return 0;
  }
  if( e->op==EX_LOGIC ){
    /* AND/OR of INTEGER and NULL operands (comparisons, a filter's terms),
    ** three-valued as ex_row has it; a REAL or TEXT operand the general
    ** way */
    const col_vector *l = arg[0], *rv = arg[1];
    if( !EX_MAY(l, CV_INT) || !EX_MAY(rv, CV_INT) ) return 1;
    int uni = -2, and = e->sub==LG_AND;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      int c0 = EX_TAG(l, r), c1 = EX_TAG(rv, r);
      if( (c0==CV_INT || c0==CV_NULL) && (c1==CV_INT || c1==CV_NULL) ){
        int t0 = c0==CV_NULL ? -1 : l->i64[EX_AT(l, r)]!=0;
        int t1 = c1==CV_NULL ? -1 : rv->i64[EX_AT(rv, r)]!=0;
        int t = and ? ((t0==0 || t1==0) ? 0 : (t0<0 || t1<0) ? -1 : 1)
                    : ((t0==1 || t1==1) ? 1 : (t0<0 || t1<0) ? -1 : 0);
        int tag = t<0 ? CV_NULL : CV_INT;
        if( t>=0 ) e->i64[r] = t;
        e->tags[r] = (uint8_t)tag;
        uni = uni==-2 || uni==tag ? tag : -1;
        continue;
      }
      uni = -1;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = uni>0 ? uni : 0;
    return 0;
  }
  if( e->op==EX_FUNC && e->sub==FN_INSTR ){
    const col_vector *h = arg[0], *nd = arg[1];
    if( !EX_MAY_TEXT(h) || nd->form!=CV_CONST || EX_TAG(nd, 0)!=CV_TEXT ) return 1;
    const char *zn = nd->str[0].p ? nd->str[0].p : "";
    uint32_t nn = nd->str[0].n;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      const cv_str *x;
      if( ex_str_at(h, r, &x)==CV_TEXT ){
        e->i64[r] = agg_str_instr(x->p ? x->p : "", x->n, zn, nn, 1);
        e->tags[r] = CV_INT;
        continue;
      }
      nslow++;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = nslow ? 0 : CV_INT;
    return 0;
  }
  if( e->op==EX_FUNC && e->sub==FN_LENGTH ){
    const col_vector *x = arg[0];
    if( !EX_MAY_TEXT(x) ) return 1;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      const cv_str *z;
      int t = ex_str_at(x, r, &z);
      if( t==CV_TEXT || t==CV_BLOB ){
        e->i64[r] = t==CV_BLOB ? (int64_t)z->n : agg_str_length(z->p ? z->p : "", z->n, EX_LEAD_ANY(e));
        e->tags[r] = CV_INT;
        continue;
      }
      nslow++;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = nslow ? 0 : CV_INT;
    return 0;
  }
  if( e->op==EX_FUNC && e->sub==FN_SUBSTR ){
    const col_vector *x = arg[0], *a1 = arg[1], *a2 = e->nargs==3 ? arg[2] : 0;
    if( !EX_MAY_TEXT(x) || !EX_MAY(a1, CV_INT) || (a2 && !EX_MAY(a2, CV_INT)) ) return 1;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      const cv_str *z;
      if( ex_str_at(x, r, &z)==CV_TEXT && EX_TAG(a1, r)==CV_INT && (!a2 || EX_TAG(a2, r)==CV_INT) ){
        /* substrFunc reads its arguments with sqlite3_value_int */
        int64_t p1 = (int)a1->i64[EX_AT(a1, r)];
        int64_t p2 = a2 ? (int)a2->i64[EX_AT(a2, r)] : 0;
        uint32_t off, len;
        const char *zp = z->p ? z->p : "";
        agg_str_substr(zp, z->n, p1, a2!=0, p2, EX_LEAD_ANY(e), &off, &len);
        e->str[r].p = zp + off; e->str[r].n = len;
        e->tags[r] = CV_TEXT;
        continue;
      }
      nslow++;
      if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
    }
    e->out_tag = nslow ? 0 : CV_TEXT;
    return 0;
  }
  if( e->op==EX_FUNC && (e->sub==FN_COALESCE || e->sub==FN_NULLIF) ){
    /* a pick among the arguments: the picked row's tag and payload copied
    ** as they are (T6's length(coalesce(nullif(SearchPhrase, ''), '-'))
    ** spent a tenth of its time in ex_one_row); nullif compares two TEXT
    ** or two INTEGER values here, any other pair the general way */
    int uni = -2;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      int pick = -1;
      if( e->sub==FN_COALESCE ){
        for(int i=0; i<e->nargs && pick<0; i++) if( cv_tag(arg[i], r)!=CV_NULL ) pick = i;
      }else{
        int t0 = cv_tag(arg[0], r), t1 = cv_tag(arg[1], r), same;
        if( t0==CV_TEXT && t1==CV_TEXT ){
          cv_str x = cv_bytes(arg[0], r), y = cv_bytes(arg[1], r);
          same = e->coll==COLL_BINARY ? x.n==y.n && (x.n==0 || memcmp(x.p, y.p, x.n)==0)
                                      : pred_text_compare(x.p, x.n, y.p, y.n, (pred_coll)e->coll)==0;
        }else if( t0==CV_INT && t1==CV_INT ){
          same = cv_int(arg[0], r)==cv_int(arg[1], r);
        }else if( t0==CV_NULL ){
          same = 1;             /* NULL: the answer is NULL either way */
        }else{
          uni = -1;
          if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
          continue;
        }
        pick = same ? -1 : 0;
      }
      int t = CV_NULL;
      if( pick>=0 ){
        const col_vector *v = arg[pick], *d = cv_values(v);
        uint32_t at = cv_slot(v, r);
        t = cv_tag(v, r);
        if( t==CV_INT ) e->i64[r] = d->i64[at];
        else if( t==CV_REAL ) e->f64[r] = d->f64[at];
        else e->str[r] = d->str[at];
      }
      e->tags[r] = (uint8_t)t;
      uni = uni==-2 || uni==t ? t : -1;
    }
    e->out_tag = uni>0 ? uni : 0;
    return 0;
  }
  return 1;
}

/* Does v, a column a date function may get as raw timestamps, hold them?
** It holds the integers or the text, never both: a key column stored
** with NULLs among them comes typed CV_NULL with tags, so the first live
** non-NULL row tells. */
static int ex_raw_ints(const col_vector *v, const col_batch *b){
  if( v->type==CV_INT ) return 1;
  if( v->type!=CV_NULL || v->tags==0 ) return 0;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(uint32_t k=0; k<nsel; k++){
    int t = cv_tag(v, b->sel ? b->sel[k] : k);
    if( t!=CV_NULL ) return t==CV_INT;
  }
  return 0;
}

/* A ts_daily function's text for one day (agg_ts_entry_fn): its
** modifiers and format over the day's canonical text; -1 for NULL. */
static int ex_daily_entry(void *ctx, const char *text, uint32_t n, char *out){
  const agg_expr *e = ctx;
  pred_value x;
  memset(&x, 0, sizeof(x));
  x.type = CV_TEXT; x.p = text; x.n = n;
  const char *f; uint32_t nf;
  ex_lit_format(e, &f, &nf);
  return ex_date_compute(e, f, nf, &x, e->mods + e->ts_nshift, e->nmods - e->ts_nshift, out);
}
static uint32_t ex_daily_width(const agg_expr *e){
  const char *f; uint32_t nf;
  ex_lit_format(e, &f, &nf);
  return (uint32_t)AGG_STRFTIME_CAP(nf) + 1;
}

/* The live rows of raw timestamps tv moved by e's shift, as a FLAT vector
** *out; a sum past int64 is INT64_MIN, which the memo sends to the text
** path (as any instant outside years 0000-9999). -1 when out of memory. */
static int ex_shift_raw(agg_expr *e, const col_vector *tv, const col_batch *b, col_vector *out){
  if( b->n > e->tshift_cap ){
    int64_t *x = realloc(e->tshift, (size_t)b->n*8);
    if( x ) e->tshift = x;
    uint8_t *t = realloc(e->tshift_tags, b->n);
    if( t ) e->tshift_tags = t;
    if( !x || !t ) return -1;
    e->tshift_cap = b->n;
  }
  int64_t per = e->ts_unit==COL_TS_NANOS ? 1000000 : e->ts_unit==COL_TS_MICROS ? 1000 : 1;
  int64_t d;
  int big = __builtin_mul_overflow(e->ts_shift_ms, per, &d);
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    int tag = cv_tag(tv, r);
    e->tshift_tags[r] = (uint8_t)tag;
    if( tag!=CV_INT ) continue;
    if( big || __builtin_add_overflow(cv_int(tv, r), d, &e->tshift[r]) ) e->tshift[r] = INT64_MIN;
  }
  memset(out, 0, sizeof(*out));
  out->form = CV_FLAT; out->type = CV_INT; out->n = b->n;
  out->i64 = e->tshift; out->tags = e->tshift_tags;
  return 0;
}

/* The same over a column the reader gave as raw timestamps: each row's
** entry of the memo's dictionary, returned as a DICT vector in e->tout
** (2), or FLAT (0) when a row must go through its text or the caller
** needs FLAT (flat_only: evaluating a dictionary's entries). -1 when out
** of memory. */
/* The text the reader gives for raw timestamp v of e's column, in the
** arena, as *x. -1 when out of memory. */
static int ex_ts_text(const agg_expr *e, int64_t v, col_arena *a, pred_value *x){
  char buf[64];
  int n = agg_ts_text(v, e->ts_unit, buf);
  char *q = col_arena_dup(a, buf, (size_t)n);
  if( q==0 ) return -1;
  memset(x, 0, sizeof(*x));
  x->type = CV_TEXT; x->p = q; x->n = (uint32_t)n;
  return 0;
}

static int ex_tpl_raw(agg_expr *e, const col_vector *tv, const col_batch *b,
                      col_arena *arena, int flat_only){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( e->ts==0 ){
    e->ts = e->ts_daily
          ? agg_ts_memo_new_daily(ex_daily_entry, e, ex_daily_width(e), e->ts_unit, EX_DATE_NORMALIZE(e))
          : agg_ts_memo_new(e->stpl.code ? &e->stpl : &e->tpl, e->ts_unit, EX_DATE_NORMALIZE(e));
    if( e->ts==0 ) return -1;
  }
  if( b->n > e->tcap ){
    uint32_t *c = realloc(e->tcodes, (size_t)b->n*4);
    if( c==0 ) return -1;
    e->tcodes = c; e->tcap = b->n;
  }
  const col_vector *mv = tv;
  col_vector sv;
  if( e->ts_shift_ms ){
    if( ex_shift_raw(e, tv, b, &sv) ) return -1;
    mv = &sv;
  }
  int64_t other = agg_ts_memo_codes(e->ts, mv, b->sel, nsel, e->tcodes);
  if( other<0 ) return -1;
  const col_vector *d = agg_ts_memo_dict(e->ts);
  uint32_t *code = e->tcodes;
  if( other==0 && !flat_only ){
    uint8_t anynull = 0;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      uint8_t isnull = code[r]==AGG_TS_NULL;
      e->tags[r] = isnull ? CV_NULL : CV_TEXT;
      if( isnull ) code[r] = 0;    /* a NULL row's code, as readers give it */
      anynull |= isnull;
    }
    col_vector *o = &e->tout;
    memset(o, 0, sizeof(*o));
    o->form = CV_DICT; o->n = b->n; o->type = CV_TEXT;
    o->codes = code; o->dict = d; o->dict_id = agg_ts_memo_id(e->ts);
    o->tags = anynull ? e->tags : 0;
    return 2;
  }
  const char *f = 0; uint32_t nf = 0;
  ex_lit_format(e, &f, &nf);
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    uint32_t c = code[r];
    if( c==AGG_TS_NULL ){ e->tags[r] = CV_NULL; continue; }
    if( c!=AGG_TS_OTHER ){ e->tags[r] = CV_TEXT; e->str[r] = d->str[c]; continue; }
    /* a fraction of a second, a year past 0000-9999, a full dictionary:
    ** the text the reader would have given, the SQLite way */
    pred_value x, out;
    memset(&out, 0, sizeof(out));
    if( ex_ts_text(e, cv_int(tv, r), arena, &x) ) return -1;
    if( ex_date_value(e, f, nf, &x, arena, &out) ) return -1;
    ex_set(e, r, &out);
  }
  return 0;
}

/* strftime/date/time/datetime with a template (a literal format) over a
** FLAT TEXT column: canonical timestamps take their bytes straight from the
** text, without a per-row call; other values go the general way. 0 done,
** 1 not this shape, or a row's failure (ex_one_row). */
static int ex_tpl_rows(agg_expr *e, const col_vector **arg, const col_batch *b,
                       col_arena *arena, int flat_only){
  int rc1;
  const col_vector *tv = arg[e->sub==FN_STRFTIME ? 1 : 0];
  if( e->ts_unit && ex_raw_ints(tv, b) ) return ex_tpl_raw(e, tv, b, arena, flat_only);
  if( e->tpl.code==0 || tv->form!=CV_FLAT || tv->type!=CV_TEXT ) return 1;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  const agg_tpl *t = &e->tpl;
  char *q = 0;
  if( t->run<0 ){
    q = col_arena_alloc(arena, (size_t)nsel * t->n + 1);
    if( q==0 ) return -1;
  }
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    int tag = tv->tags ? tv->tags[r] : CV_TEXT;
    const cv_str *x = &tv->str[r];
    if( tag==CV_TEXT && agg_ts_canonical(x->p, x->n, EX_DATE_NORMALIZE(e)) ){
      e->tags[r] = CV_TEXT;
      if( t->run>=0 ){
        e->str[r].p = x->p + t->run;
      }else{
        agg_tpl_apply(t, x->p, q);
        e->str[r].p = q;
        q += t->n;
      }
      e->str[r].n = t->n;
      continue;
    }
    if( (rc1 = ex_one_row(e, arg, r, arena))!=0 ) return rc1;
  }
  return 0;
}

/* A result whose live rows are all one non-NULL class drops its tags:
** consumers (sum, avg, hashing) take their untagged loops over it. */
static void ex_untag(col_vector *v, const col_batch *b){
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( nsel==0 ) return;
  const uint8_t *t = v->tags;
  uint8_t first = t[b->sel ? b->sel[0] : 0];
  if( first==CV_NULL ) return;
  uint8_t diff = 0;
  if( b->sel ){
    for(uint32_t k=0; k<nsel; k++) diff |= (uint8_t)(t[b->sel[k]] ^ first);
  }else{
    for(uint32_t k=0; k<nsel; k++) diff |= (uint8_t)(t[k] ^ first);
  }
  if( diff ) return;
  v->tags = 0;
  v->type = first;
}

/* e's own arrays, filled for b's live rows, as its FLAT result vector. */
static const col_vector *ex_flat_out(agg_expr *e, const col_batch *b){
  col_vector *v = &e->out;
  memset(v, 0, sizeof(*v));
  v->form = CV_FLAT; v->n = b->n; v->type = CV_NULL;
  v->tags = e->tags; v->i64 = e->i64; v->f64 = e->f64; v->str = e->str;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( e->out_tag>CV_NULL && nsel ){ v->tags = 0; v->type = (uint8_t)e->out_tag; }
  else ex_untag(v, b);
  e->out_tag = 0;
  return v;
}

/* e over b, as part of the root evaluation numbered tick: a node merged
** into several parents (refs>0) is computed for the first and its vector
** handed to the rest. */
/* Evaluations over a dictionary's entries carry this bit in their tick, so
** a node shared with the batch's own rows never mistakes one for the other. */
#define EX_DICT_TICK ((uint64_t)1 << 63)

static int ex_eval(agg_expr *e, const col_batch *b, col_arena *arena,
                   const col_vector **out, col_error *err, uint64_t tick);

/* The name (col_vector.dict_id) of e's entries over the dictionary named
** src, or 0 when src is 0. The entries are a function of src's, so they
** keep src's promise (fixed, appended to at most) and a consumer may keep
** per-entry results under the name. Names are bit 61, the node's address
** and a serial bumped per dictionary met: distinct from the reader's (bit
** 63) and the date memos' (bit 62, ts_memo.c), from other nodes', and from
** this node's previous dictionary, which is all a consumer remembers. */
static uint64_t ex_dict_name(agg_expr *e, uint64_t src){
  if( src==0 ) return 0;
  if( src!=e->dsrc_id ){ e->dsrc_id = src; e->dserial++; }
  return (1ull<<61) | ((((uint64_t)(uintptr_t)e >> 3) & ((1ull<<44) - 1)) << 17)
       | (e->dserial & 0x1ffff);
}

static int ex_eval(agg_expr *e, const col_batch *b, col_arena *arena,
                   const col_vector **out, col_error *err, uint64_t tick);

/* Sort m distinct codes below nd ascending: a few by insertion, more
** through a bitmap of nd bits (bits, zero on entry and on return). qsort
** with its comparator called back was 3% of avg(length(URL)) over the
** row groups that hold URL as a dictionary. */
static void ex_sort_codes(uint32_t *a, uint32_t m, uint32_t nd, uint64_t *bits){
  if( m<=24 ){
    for(uint32_t i=1; i<m; i++){
      uint32_t x = a[i], j = i;
      for(; j>0 && a[j-1]>x; j--) a[j] = a[j-1];
      a[j] = x;
    }
    return;
  }
  for(uint32_t i=0; i<m; i++) bits[a[i]>>6] |= (uint64_t)1 << (a[i] & 63);
  uint32_t k = 0;
  for(uint32_t w=0; w<=(nd-1)/64 && k<m; w++){
    uint64_t x = bits[w];
    bits[w] = 0;
    while( x ){
      a[k++] = w*64 + (uint32_t)__builtin_ctzll(x);
      x &= x - 1;
    }
  }
}

/* A batch of b's columns with column dcol replaced by its dictionary d
** (FLAT), for evaluating e over the entries; rows sel[0..nsel) of it, or
** all of them when sel is NULL. */
static int ex_dict_batch(agg_expr *e, const col_batch *b, const col_vector *d,
                         const uint32_t *sel, uint32_t nsel, col_batch *db, col_error *err){
  if( b->ncols > e->dcols_cap ){
    col_vector *c = realloc(e->dcols, (size_t)b->ncols * sizeof(col_vector));
    if( c==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
    e->dcols = c; e->dcols_cap = b->ncols;
  }
  memcpy(e->dcols, b->cols, (size_t)b->ncols * sizeof(col_vector));
  e->dcols[e->dcol] = *d;
  memset(db, 0, sizeof(*db));
  db->n = d->n; db->nsel = sel ? nsel : d->n; db->sel = sel;
  db->ncols = b->ncols; db->cols = e->dcols;
  return COL_OK;
}

/* e's result for b: the DICT vector of b's codes into entries (e's values
** of the dictionary's entries), named after them; a NULL row stays NULL,
** the others take their entry's class. */
static int ex_dict_out(agg_expr *e, const col_batch *b, const col_vector *entries,
                       const col_vector **out, col_error *err, uint64_t tick){
  const col_vector *cv = &b->cols[e->dcol];
  uint32_t nsel = b->sel ? b->nsel : b->n;
  col_vector *o = &e->dout;
  memset(o, 0, sizeof(*o));
  o->form = CV_DICT; o->n = b->n; o->type = entries->type;
  o->codes = cv->codes; o->dict = entries;
  o->dict_id = ex_dict_name(e, cv->dict_id);
  if( cv->tags ){
    if( b->n > e->dtags_cap ){
      uint8_t *t = realloc(e->dtags, b->n);
      if( t==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
      e->dtags = t; e->dtags_cap = b->n;
    }
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      uint32_t c = cv->codes[r];
      e->dtags[r] = cv->tags[r]==CV_NULL ? CV_NULL
                  : (uint8_t)(entries->tags ? entries->tags[c] : entries->type);
    }
    o->tags = e->dtags;
  }
  e->seen = tick;
  e->last = o;
  *out = o;
  return COL_OK;
}

/* The tag of a cached entry not computed yet. A NULL row still names an
** entry by its code, and a consumer that remembers groups per entry
** (agg/groupby.c, gb_row_is_entry) takes the row for that entry's when
** their tags agree: an entry left with the tag of another dictionary's
** (a NULL date) had a NULL row give its group to every later row of the
** entry, whose value is a date. No row carries this tag. */
#define EX_TAG_UNSET 0xff

/* The cache of e's entries made ready for dictionary d (nd entries) of
** column vector cv: room for every entry, and none done (each tagged
** EX_TAG_UNSET) when cv names another dictionary than the one cached. */
static int ex_cache_for(agg_expr *e, const col_vector *cv, uint32_t nd, col_error *err){
  if( nd > e->ec_cap ){
    uint32_t cap = nd;
    uint8_t *dn = realloc(e->ec_done, cap); if( dn ) e->ec_done = dn;
    uint8_t *tg = realloc(e->ec_tags, cap); if( tg ) e->ec_tags = tg;
    int64_t *iv = realloc(e->ec_i64, (size_t)cap*8); if( iv ) e->ec_i64 = iv;
    double *fv = realloc(e->ec_f64, (size_t)cap*8); if( fv ) e->ec_f64 = fv;
    cv_str *sv = realloc(e->ec_str, (size_t)cap*sizeof(cv_str)); if( sv ) e->ec_str = sv;
    /* one past: the branchless scan writes a slot before it knows it needs one */
    uint32_t *nv = realloc(e->ec_need, ((size_t)cap+1)*4); if( nv ) e->ec_need = nv;
    uint64_t *bv = realloc(e->ec_bits, ((size_t)cap/64 + 1)*8); if( bv ) e->ec_bits = bv;
    if( !dn || !tg || !iv || !fv || !sv || !nv || !bv ){
      return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
    }
    memset(e->ec_bits, 0, ((size_t)cap/64 + 1)*8);   /* ex_sort_codes keeps it so */
    /* entries of the current dictionary past the old capacity: not done */
    if( e->ec_id ){
      memset(e->ec_done + e->ec_cap, 0, cap - e->ec_cap);
      memset(e->ec_tags + e->ec_cap, EX_TAG_UNSET, cap - e->ec_cap);
    }
    e->ec_cap = cap;
  }
  if( cv->dict_id!=e->ec_id ){
    e->ec_id = cv->dict_id;
    memset(e->ec_done, 0, e->ec_cap);   /* all: this one may grow */
    memset(e->ec_tags, EX_TAG_UNSET, e->ec_cap);
    e->ec_ndone = 0;
    col_arena_reset(&e->ec_bytes);
    e->ec_class = -2;
  }
  return COL_OK;
}

/* Keep entries codes[0..m) (0..m-1 when codes is NULL) of fv, e over a
** dictionary's entries, in e's cache (bytes copied: the batch's arena is
** reset), and mark them done. */
static int ex_cache_store(agg_expr *e, const col_vector *fv, const uint32_t *codes,
                          uint32_t m, col_error *err){
  for(uint32_t j=0; j<m; j++){
    uint32_t c = codes ? codes[j] : j;
    int t = cv_tag(fv, c);
    uint32_t sl = cv_slot(fv, c);
    e->ec_tags[c] = (uint8_t)t;
    e->ec_class = e->ec_class==-2 || e->ec_class==t ? t : -1;
    if( t==CV_INT ) e->ec_i64[c] = fv->i64[sl];
    else if( t==CV_REAL ) e->ec_f64[c] = fv->f64[sl];
    else if( t==CV_TEXT || t==CV_BLOB ){
      const cv_str *z = &fv->str[sl];
      char *q = z->n ? col_arena_dup(&e->ec_bytes, z->p, z->n) : (char*)"";
      if( q==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
      e->ec_str[c].p = q; e->ec_str[c].n = z->n;
    }
    e->ec_done[c] = 1;
  }
  e->ec_ndone += m;       /* every code stored was pending, not done */
  return COL_OK;
}

/* ex_eval_dict over a named dictionary larger than the batch, or one an
** earlier batch computed whole: compute the entries this batch's rows use
** that no batch of the dictionary computed before, keep them, and return
** the rows as codes into the kept entries. A row group's dictionary of
** 16000 phrases seen through 2048-row batches is computed once per entry,
** not once per row. Returns COL_OK, an error, or -1 to go row by row. */
static int ex_eval_dict_cached(agg_expr *e, const col_batch *b, col_arena *arena,
                               const col_vector **out, col_error *err, uint64_t tick,
                               int whole){
  const col_vector *cv = &b->cols[e->dcol];
  const col_vector *d = cv->dict;
  uint32_t nd = d->n, nsel = b->sel ? b->nsel : b->n;
  if( ex_cache_for(e, cv, nd, err) ) return err->code;
  /* the codes to compute, each once, ascending (a batch's sel); whole:
  ** every entry not done (a dictionary no larger than the batch is hashed
  ** entry by entry, agg/hash.c, so every entry must hold its value) */
  uint32_t m = 0;
  uint8_t *done = e->ec_done;
  if( e->ec_ndone>=nd ){
    /* every entry done (a row group's later batches): nothing to find */
  }else if( whole ){
    for(uint32_t c=0; c<nd; c++){
      if( done[c] ) continue;
      done[c] = 2;
      e->ec_need[m++] = c;
    }
  }else if( cv->tags ){
    for(uint32_t k=0; k<nsel; k++){
      uint32_t r = b->sel ? b->sel[k] : k;
      if( cv->tags[r]==CV_NULL ) continue;
      uint32_t c = cv->codes[r];
      if( done[c] ) continue;
      done[c] = 2;              /* pending */
      e->ec_need[m++] = c;
    }
  }else{
    /* without a branch on whether the entry is done, which mispredicted
    ** once a row group's entries were half done: pending marks 2, done
    ** entries gain the bit too (any nonzero mark is done or pending) */
    const uint32_t *codes = cv->codes;
    for(uint32_t k=0; k<nsel; k++){
      uint32_t c = codes[b->sel ? b->sel[k] : k];
      uint8_t was = done[c];
      e->ec_need[m] = c;
      m += was==0;
      done[c] = (uint8_t)(was | 2);
    }
  }
  if( m ){
    ex_sort_codes(e->ec_need, m, nd, e->ec_bits);
    col_batch db;
    if( ex_dict_batch(e, b, d, e->ec_need, m, &db, err) ) return err->code;
    const col_vector *fv;
    int rc = ex_eval(e, &db, arena, &fv, err, tick | EX_DICT_TICK);
    if( rc ){
      /* not computed: a batch after a row's error goes on (agg_expr_eval) */
      for(uint32_t j=0; j<m; j++) e->ec_done[e->ec_need[j]] = 0;
      return rc;
    }
    if( fv->form==CV_DICT ){
      /* (a date memo's codes): leave this batch to the row-by-row path */
      for(uint32_t j=0; j<m; j++) e->ec_done[e->ec_need[j]] = 0;
      return -1;
    }
    if( ex_cache_store(e, fv, e->ec_need, m, err) ) return err->code;
  }
  col_vector *ec = &e->ec;
  memset(ec, 0, sizeof(*ec));
  ec->form = CV_FLAT; ec->type = CV_NULL; ec->n = nd;
  ec->tags = e->ec_tags; ec->i64 = e->ec_i64; ec->f64 = e->ec_f64; ec->str = e->ec_str;
  if( e->ec_class>CV_NULL ){ ec->tags = 0; ec->type = (uint8_t)e->ec_class; }
  return ex_dict_out(e, b, ec, out, err, tick);
}

/* e reads only column dcol, which arrives as a dictionary: evaluate e once
** per dictionary entry and return a dictionary vector sharing the codes
** (strftime('%Y-%m', d) over a date column: once per distinct day, not per
** row). A dictionary larger than the live rows is computed entry by entry
** as rows use it when it is named (ex_eval_dict_cached), else row by row;
** and a NULL row must be given NULL (dstrict) if the column has NULLs.
** Returns COL_OK, an error, or -1 to go row by row. */
static int ex_eval_dict(agg_expr *e, const col_batch *b, col_arena *arena,
                        const col_vector **out, col_error *err, uint64_t tick){
  const col_vector *cv = &b->cols[e->dcol];
  const col_vector *d = cv->dict;
  uint32_t nsel = b->sel ? b->nsel : b->n;
  if( d==0 || d->n==0 || (cv->tags && !e->dstrict) ) return -1;
  /* A row group's dictionary reaches a lane through 16384-row batches: the
  ** first computes it whole and keeps it, the later ones take it from the
  ** cache (at threads=2 T6's key, length(coalesce(nullif(SearchPhrase,
  ** ''), '-')), was computed 7 times per row group: 330 -> 265 ms). */
  if( d->n > nsel ){
    if( cv->dict_id==0 ) return -1;
    /* a batch of a row group read whole (no filter took most of its
    ** rows), the dictionary at most 16 batches: the row group's other
    ** batches will use the rest (a Parquet dictionary holds its row
    ** group's values), so all of it now, and they need not look for new
    ** entries row by row (ec_ndone: T6 at threads=1, 2048-row batches) */
    int whole = 2*(uint64_t)nsel >= b->n && d->n <= 16*(uint64_t)nsel;
    return ex_eval_dict_cached(e, b, arena, out, err, tick, whole);
  }
  if( cv->dict_id && cv->dict_id==e->ec_id && d->n > EX_DICT_KEEP_MIN ){
    return ex_eval_dict_cached(e, b, arena, out, err, tick, 1);
  }
  col_batch db;
  if( ex_dict_batch(e, b, d, 0, 0, &db, err) ) return err->code;
  const col_vector *fv;
  int rc = ex_eval(e, &db, arena, &fv, err, tick | EX_DICT_TICK);
  if( rc ) return rc;
  if( cv->dict_id && fv->form!=CV_DICT && d->n > EX_DICT_KEEP_MIN ){
    if( ex_cache_for(e, cv, d->n, err) || ex_cache_store(e, fv, 0, d->n, err) ) return err->code;
  }
  return ex_dict_out(e, b, fv, out, err, tick);
}

static int ex_eval_node(agg_expr *e, const col_batch *b, col_arena *arena,
                        const col_vector **out, col_error *err, uint64_t tick);

/* e->lit as a CONST vector of n rows, in e->out */
static const col_vector *ex_lit_out(agg_expr *e, uint32_t n){
  col_vector *v = &e->out;
  memset(v, 0, sizeof(*v));
  v->form = CV_CONST; v->n = n; v->type = e->lit.type;
  e->lit_tag = e->lit.type;
  v->tags = &e->lit_tag;
  v->i64 = &e->lit.i; v->f64 = &e->lit.f;
  e->lit_str.p = e->lit.p; e->lit_str.n = e->lit.n;
  v->str = &e->lit_str;
  return v;
}

static int ex_eval(agg_expr *e, const col_batch *b, col_arena *arena,
                   const col_vector **out, col_error *err, uint64_t tick){
  if( !e->konst ) return ex_eval_node(e, b, arena, out, err, tick);
  if( e->seen==tick ){ *out = e->last; return COL_OK; }
  /* over one row of no column: the value, then as a constant */
  col_batch one;
  memset(&one, 0, sizeof(one));
  one.n = 1;
  const col_vector *fv;
  int rc = ex_eval_node(e, &one, arena, &fv, err, tick);
  if( rc ) return rc;
  e->lit = agg_value_at(fv, 0);
  e->seen = tick;
  *out = e->last = ex_lit_out(e, b->n);
  return COL_OK;
}

static int ex_eval_node(agg_expr *e, const col_batch *b, col_arena *arena,
                        const col_vector **out, col_error *err, uint64_t tick){
  if( e->op==EX_COL ){ *out = &b->cols[e->bcol]; return COL_OK; }
  col_vector *v = &e->out;
  if( e->seen==tick ){ *out = e->last; return COL_OK; }
  if( e->dcol>=0 && !(tick & EX_DICT_TICK) && b->cols[e->dcol].form==CV_DICT ){
    int rc = ex_eval_dict(e, b, arena, out, err, tick);
    if( rc>=0 ) return rc;            /* -1: evaluate row by row */
  }
  e->seen = tick;
  e->last = v;
  if( e->op==EX_LIT ){
    *out = ex_lit_out(e, b->n);
    return COL_OK;
  }
  const col_vector *arg[EX_MAXARG];
  for(int i=0; i<e->nargs; i++){
    int rc = ex_eval(e->args[i], b, arena, &arg[i], err, tick);
    if( rc ) return rc;
  }
  if( ex_reserve(e, b->n ? b->n : 1) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
  }
  if( e->op==EX_CASE ){
    if( ex_case_fast(e, arg, b) ) ex_case_rows(e, arg, b);
    goto done;
  }
  if( e->op==EX_FUNC && (e->tpl.code || e->ts_daily || e->stpl.code) ){
    int rc = ex_tpl_rows(e, arg, b, arena, (tick & EX_DICT_TICK)!=0);
    if( rc<0 ) return ex_rows_failed(rc, err);
    if( rc==2 ){ e->last = &e->tout; *out = &e->tout; return COL_OK; }
    if( rc==0 ) goto done;
  }
  if( e->op==EX_BIN || e->op==EX_CMP || e->op==EX_FUNC
   || (e->op==EX_LOGIC && (e->sub==LG_AND || e->sub==LG_OR)) ){
    int rc = ex_fast_rows(e, arg, b, arena);
    if( rc<0 ) return ex_rows_failed(rc, err);
    if( rc==0 ) goto done;
  }
  int rc = ex_rows(e, arg, b, arena);
  if( rc ) return ex_rows_failed(rc, err);
done:
  *out = ex_flat_out(e, b);
  return COL_OK;
}

/* ---- errors only the rows that reach them raise -------------------------- */

/* The batch evaluator computes every operand over every live row, and a
** dictionary's function over each entry; SQLite computes a CASE result, a
** later WHEN, a coalesce argument after a non-NULL one, or the right side
** of AND/OR in a condition only for the rows that reach it. So
** abs(-9223372036854775808) in a branch no row takes raises nothing there.
** When a batch fails with an error a row raised, the root is evaluated
** again a row at a time, reading only what SQLite reads, and the error
** stands only if a row reaches it. Nothing below the root is written, so
** the vectors the batch pass handed out stay as they were. */

/* How SQLite codes a condition: as a value, or as a jump
** (sqlite3ExprIfFalse / sqlite3ExprIfTrue with their jumpIfNull), which
** decides when the right side of AND/OR is skipped. WHERE terms, WHEN
** tests and FILTER clauses are IfFalse with jumpIfNull. */
enum { EXC_VALUE, EXC_IFFALSE, EXC_IFTRUE };

static int ex_scalar(agg_expr *e, const col_batch *b, uint32_t r, col_arena *a,
                     int ctx, int jn, pred_value *out);

/* sqlite3ExprSimplifiedAndOr: the AND or OR e as SQLite codes it for a
** condition, without its sides whose truth is known (x AND false is
** false, x OR true is true, x AND true is x): those are never computed. */
static agg_expr *ex_and_or_simplified(agg_expr *e){
  if( e->op!=EX_LOGIC || (e->sub!=LG_AND && e->sub!=LG_OR) ) return e;
  agg_expr *r = ex_and_or_simplified(e->args[1]);
  agg_expr *l = ex_and_or_simplified(e->args[0]);
  int is_and = e->sub==LG_AND;
  if( l->known==EX_KNOWN_TRUE || r->known==EX_KNOWN_FALSE ) return is_and ? r : l;
  if( r->known==EX_KNOWN_TRUE || l->known==EX_KNOWN_FALSE ) return is_and ? l : r;
  return e;
}

/* AND/OR in a condition: the left side, then the right unless the left
** decides the jump (exprIfFalse's and exprIfTrue's own recursion). */
static int ex_scalar_andor(agg_expr *e, const col_batch *b, uint32_t r, col_arena *a,
                           int ctx, int jn, pred_value *out){
  agg_expr *s = ex_and_or_simplified(e);
  if( s!=e ) return ex_scalar(s, b, r, a, ctx, jn, out);
  int is_and = e->sub==LG_AND, skip;
  pred_value x[2];
  /* AND's left side jumps on false, OR's on true; its jumpIfNull flips
  ** where the whole's jump is the other way (IfTrue(AND), IfFalse(OR)) */
  int lctx = is_and ? EXC_IFFALSE : EXC_IFTRUE;
  int ljn = (lctx==ctx) ? jn : !jn;
  int rc = ex_scalar(e->args[0], b, r, a, lctx, ljn, &x[0]);
  if( rc ) return rc;
  int t = ex_truth(e, &x[0]);
  /* the left side jumps (away from the right side) when it is what its
  ** context jumps on: false for IfFalse, true for IfTrue, NULL with ljn */
  skip = (lctx==EXC_IFFALSE ? t==0 : t==1) || (t<0 && ljn);
  if( skip ){
    /* what the whole is in three-valued logic as far as the jump goes:
    ** AND(false, _) = 0, OR(true, _) = 1, a NULL left side jumps as NULL */
    ex_bool(out, t);
    return 0;
  }
  if( (rc = ex_scalar(e->args[1], b, r, a, ctx, jn, &x[1]))!=0 ) return rc;
  return ex_row(e, x, a, out);
}

static int ex_scalar(agg_expr *e, const col_batch *b, uint32_t r, col_arena *a,
                     int ctx, int jn, pred_value *out){
  pred_value x[EX_MAXARG];
  int rc;
  *out = ex_null();
  switch( e->op ){
    case EX_COL: *out = agg_value_at(&b->cols[e->bcol], r); return 0;
    case EX_LIT: *out = e->lit; return 0;
    case EX_CASE: {
      int npair = (e->nargs - e->has_base - e->has_else)/2;
      if( e->has_base && (rc = ex_scalar(e->args[0], b, r, a, EXC_VALUE, 0, &x[0]))!=0 ) return rc;
      for(int p=0, i=e->has_base; p<npair; p++, i+=2){
        pred_value w;
        rc = ex_scalar(e->args[i], b, r, a, e->has_base ? EXC_VALUE : EXC_IFFALSE, 1, &w);
        if( rc ) return rc;
        int t = e->has_base ? ex_compare(e, CMP_EQ, ex_cmp_aff(e->args[0], e->args[i]), x[0], w)
                            : ex_truth(e, &w);
        if( t==1 ) return ex_scalar(e->args[i+1], b, r, a, EXC_VALUE, 0, out);
      }
      return e->has_else ? ex_scalar(e->args[e->nargs-1], b, r, a, EXC_VALUE, 0, out) : 0;
    }
    case EX_LOGIC:
      if( e->sub==LG_NOT && ctx!=EXC_VALUE ){
        /* IfFalse(NOT x) is IfTrue(x), and the other way round */
        rc = ex_scalar(e->args[0], b, r, a, ctx==EXC_IFFALSE ? EXC_IFTRUE : EXC_IFFALSE, jn, &x[0]);
        return rc ? rc : ex_row(e, x, a, out);
      }
      if( (e->sub==LG_AND || e->sub==LG_OR) && ctx!=EXC_VALUE ){
        return ex_scalar_andor(e, b, r, a, ctx, jn, out);
      }
      if( (e->sub==LG_AND || e->sub==LG_OR) && e->dialect && e->dialect->andor_value_simplify ){
        /* exprCodeTargetAndOr: the simplified side alone, as a truth */
        agg_expr *s = ex_and_or_simplified(e);
        if( s!=e ){
          if( (rc = ex_scalar(s, b, r, a, EXC_VALUE, 0, &x[0]))!=0 ) return rc;
          ex_bool(out, ex_truth(e, &x[0]));
          return 0;
        }
      }
      break;
    case EX_FUNC:
      if( e->sub==FN_COALESCE ){
        for(int i=0; i<e->nargs; i++){
          if( (rc = ex_scalar(e->args[i], b, r, a, EXC_VALUE, 0, out))!=0 ) return rc;
          if( out->type!=CV_NULL ) return 0;
        }
        return 0;
      }
      break;
    case EX_IN: {
      /* the list is compared in order up to the first match (sqlite3ExprCodeIN
      ** over a list that is not all constants) */
      if( (rc = ex_scalar(e->args[0], b, r, a, EXC_VALUE, 0, &x[0]))!=0 ) return rc;
      int null = x[0].type==CV_NULL;
      for(int i=1; i<e->nargs; i++){
        if( (rc = ex_scalar(e->args[i], b, r, a, EXC_VALUE, 0, &x[1]))!=0 ) return rc;
        if( x[0].type!=CV_NULL && ex_in_item(e, &x[0], &x[1], &null) ){ ex_bool(out, 1); return 0; }
      }
      ex_bool(out, null ? -1 : 0);
      return 0;
    }
    default: break;
  }
  for(int i=0; i<e->nargs; i++){
    if( (rc = ex_scalar(e->args[i], b, r, a, EXC_VALUE, 0, &x[i]))!=0 ) return rc;
  }
  if( e->op==EX_FUNC && e->ts_unit ){
    /* a raw timestamp column (agg_expr_set_ts): the text the reader gives */
    pred_value *t = &x[e->sub==FN_STRFTIME ? 1 : 0];
    if( t->type==CV_INT && ex_ts_text(e, t->i, a, t) ) return -1;
  }
  return ex_apply(e, x, a, out);
}

/* e over b a row at a time (see above); ctx is how the root is read. */
static int ex_eval_rowwise(agg_expr *e, const col_batch *b, col_arena *arena, int ctx,
                           const col_vector **out, col_error *err, uint64_t tick){
  if( ex_reserve(e, b->n ? b->n : 1) ){
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory evaluating an expression");
  }
  uint32_t nsel = b->sel ? b->nsel : b->n;
  for(uint32_t k=0; k<nsel; k++){
    uint32_t r = b->sel ? b->sel[k] : k;
    pred_value res;
    int rc = ex_scalar(e, b, r, arena, ctx, 1, &res);
    if( rc ){
      rc = ex_rows_failed(rc, err);
      return rc==EX_RC_ROW_ERROR ? COL_ERROR : rc;
    }
    ex_set(e, r, &res);
  }
  e->seen = tick;
  e->last = *out = ex_flat_out(e, b);
  return COL_OK;
}

static int ex_eval_root(agg_expr *e, const col_batch *b, col_arena *arena, int ctx,
                        const col_vector **out, col_error *err){
  uint64_t tick = ++e->evals;
  int rc = ex_eval(e, b, arena, out, err, tick);
  if( rc!=EX_RC_ROW_ERROR ) return rc;
  col_error_clear(err);
  return ex_eval_rowwise(e, b, arena, ctx, out, err, tick);
}

int agg_expr_eval(agg_expr *e, const col_batch *b, col_arena *arena,
                  const col_vector **out, col_error *err){
  return ex_eval_root(e, b, arena, EXC_VALUE, out, err);
}

int agg_expr_eval_where(agg_expr *e, const col_batch *b, col_arena *arena,
                        const col_vector **out, col_error *err){
  return ex_eval_root(e, b, arena, EXC_IFFALSE, out, err);
}

/* Does e read no column? */
int ex_constant(const agg_expr *e){
  if( e->op==EX_COL ) return 0;
  for(int i=0; i<e->nargs; i++) if( !ex_constant(e->args[i]) ) return 0;
  return 1;
}

/* Forget what e's nodes computed last: a later root's evaluation must not
** take it for its own (ex_eval's seen) */
static void ex_forget(agg_expr *e){
  e->seen = 0;
  e->last = 0;
  for(int i=0; i<e->nargs; i++) ex_forget(e->args[i]);
}

int agg_expr_where_never(agg_expr *e, col_arena *arena, int *never, col_error *err){
  *never = 0;
  if( e==0 ) return COL_OK;
  if( e->op==EX_LOGIC && e->sub==LG_AND ){
    for(int i=0; i<e->nargs && !*never; i++){
      int rc = agg_expr_where_never(e->args[i], arena, never, err);
      if( rc ) return rc;
    }
    return COL_OK;
  }
  if( !ex_constant(e) ) return COL_OK;
  col_batch one;
  memset(&one, 0, sizeof(one));
  one.n = one.nsel = 1;
  const col_vector *v;
  int rc = agg_expr_eval_where(e, &one, arena, &v, err);
  if( rc==COL_OK ){
    pred_value x = agg_value_at(v, 0);
    *never = ex_truth(e, &x)!=1;
  }
  ex_forget(e);
  return rc;
}

/* ---- shapes the driver specializes --------------------------------------- */

int agg_expr_linear(const agg_expr *e, int *bcol, int64_t *k){
  const int64_t lim = (int64_t)1 << 40;
  if( e==0 ) return 0;
  if( e->op==EX_COL ){ *bcol = e->bcol; *k = 0; return 1; }
  if( e->op!=EX_BIN || (e->sub!='+' && e->sub!='-') ) return 0;
  const agg_expr *c = e->args[0], *l = e->args[1];
  if( e->sub=='+' && c->op==EX_LIT ){ const agg_expr *t = c; c = l; l = t; }
  if( c->op!=EX_COL || l->op!=EX_LIT || l->lit.type!=CV_INT ) return 0;
  if( l->lit.i > lim || l->lit.i < -lim ) return 0;
  *bcol = c->bcol;
  *k = e->sub=='+' ? l->lit.i : -l->lit.i;
  return 1;
}
