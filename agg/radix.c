/*
** radix.c — rows held back in hash partitions; see radix.h.
*/
#include "radix.h"
#include "bigmem.h"
#include "slab_pool.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define RADIX_CHUNK_MIN 256   /* a partition's first chunk: most of 256
                              ** partitions of a small lane stay small */
int agg_radix_init(agg_radix *r, int nparts, int nvec, agg_slab_pool *pool){
  memset(r, 0, sizeof(*r));
  r->parts = calloc((size_t)(nparts>0 ? nparts : 1), sizeof(agg_radix_part));
  if( r->parts==0 ) return -1;
  r->nparts = nparts;
  r->nvec = nvec;
  r->pool = pool && agg_slab_bytes(pool)==AGG_RADIX_SLAB ? pool : 0;
  return 0;
}

void agg_radix_free_part(agg_radix *r, int part){
  agg_radix_part *p = &r->parts[part];
  p->head = p->tail = 0;
}

void agg_radix_free(agg_radix *r){
  for(unsigned char *s = r->slab; s; ){
    unsigned char *prev;
    memcpy(&prev, s, sizeof(prev));
    agg_slab_give(r->pool, s);
    s = prev;
  }
  free(r->parts);
  free(r->vtext);
  memset(r, 0, sizeof(*r));
}

/* n bytes, 16-aligned, from the current slab or a new one. */
static void *radix_alloc(agg_radix *r, size_t n){
  n = (n + 15) & ~(size_t)15;
  if( r->slab==0 || r->slab_used + n > r->slab_len ){
    size_t len = n + 16 > AGG_RADIX_SLAB ? n + 16 : AGG_RADIX_SLAB;
    unsigned char *s = r->pool && len==AGG_RADIX_SLAB ? agg_slab_take(r->pool, 0) : agg_mem_realloc(0, len);
    if( s==0 ) return 0;
    memcpy(s, &r->slab, sizeof(r->slab));
    r->slab = s; r->slab_used = 16; r->slab_len = len;
    r->slab_bytes += len;
  }
  void *m = r->slab + r->slab_used;
  r->slab_used += n;
  return m;
}

uint64_t agg_radix_memory(const agg_radix *r){
  return (uint64_t)r->nparts * sizeof(agg_radix_part) + r->slab_bytes;
}

/* A vector every one of whose rows is INTEGER, REAL or NULL needs no look
** at the rows; one that may hold TEXT or BLOB rows has its bytes counted. */
uint64_t agg_radix_text(const col_vector *const *v, int nvec, const uint32_t *rows, uint32_t n,
                        int *any){
  uint64_t bytes = 0;
  int seen = 0;
  for(int j=0; j<nvec; j++){
    const col_vector *x = v[j];
    const col_vector *d = x->form==CV_DICT ? x->dict : 0;
    if( x->tags==0 && (d==0 || d->tags==0) && (d ? d->type : x->type) <= CV_REAL ) continue;
    for(uint32_t k=0; k<n; k++){
      uint32_t r = rows ? rows[k] : k;
      int t = cv_tag(x, r);
      if( t==CV_TEXT || t==CV_BLOB ){ seen = 1; bytes += cv_bytes(x, r).n; }
    }
  }
  if( any ) *any = seen;
  return bytes;
}

/* Value x's form (a 2-bit field of a chunk's fmt). */
static inline int radix_fmt_of(uint64_t fmt, int x){
  return x<AGG_RADIX_FMT_VALS ? (int)(fmt >> (2*x)) & 3 : AGG_RADIX_FULL;
}

static uint32_t radix_width(uint64_t fmt, int nvec, uint32_t step_bytes){
  uint32_t w = step_bytes;
  for(int x=0; x<nvec; x++){
    int f = radix_fmt_of(fmt, x);
    w += f==AGG_RADIX_FULL ? 9 : f==AGG_RADIX_I32 ? 4 : 8;
  }
  return w;
}

/* The narrowest form that holds row r of x. */
static inline int radix_need(const col_vector *x, uint32_t r){
  switch( cv_tag(x, r) ){
    case CV_INT: { int64_t i = cv_int(x, r); return i==(int32_t)i ? AGG_RADIX_I32 : AGG_RADIX_I64; }
    case CV_REAL: return AGG_RADIX_F64;
    default: return AGG_RADIX_FULL;
  }
}

/* Does form f hold a value that needs form need? */
static inline int radix_holds(int f, int need){
  return f==need || f==AGG_RADIX_FULL || (f==AGG_RADIX_I64 && need==AGG_RADIX_I32);
}

/* The narrowest form holding what forms a and b both hold. */
static int radix_join(int a, int b){
  if( radix_holds(a, b) ) return a;
  if( radix_holds(b, a) ) return b;
  return AGG_RADIX_FULL;
}

/* A new chunk for partition p, its first row dataset row `row` bringing
** `text` bytes of text. Only values of the full form can be TEXT: a chunk
** with none has no text area. */
static agg_radix_chunk *radix_chunk_new(agg_radix *r, agg_radix_part *p, int64_t row,
                                        uint64_t fmt, uint32_t step_bytes, uint32_t text){
  uint32_t cap = p->tail ? p->tail->cap*2 : RADIX_CHUNK_MIN;
  if( cap>AGG_RADIX_CHUNK_MAX ) cap = AGG_RADIX_CHUNK_MAX;
  uint32_t width = radix_width(fmt, r->nvec, step_bytes);
  int full = r->nvec > AGG_RADIX_FMT_VALS;
  for(int x=0; x<r->nvec && !full; x++) full = radix_fmt_of(fmt, x)==AGG_RADIX_FULL;
  uint32_t text_cap = full ? cap*AGG_RADIX_TEXT_ROW : 0;
  if( text_cap<text ) text_cap = text;
  size_t bytes = sizeof(agg_radix_chunk) + (size_t)cap*width + text_cap;
  agg_radix_chunk *c = radix_alloc(r, bytes);
  if( c==0 ) return 0;
  c->next = 0; c->base = c->last = row; c->fmt = fmt;
  c->n = 0; c->cap = cap; c->width = width; c->step_bytes = step_bytes;
  c->text_used = 0; c->text_cap = text_cap;
  if( p->tail ) p->tail->next = c; else p->head = c;
  p->tail = c;
  return c;
}

/* Where value x of a row comes from: a flat vector of one class without
** tags is read straight from its array (the usual key or argument), any
** other through cv_tag and its slot. */
typedef struct radix_src {
  const col_vector *v;
  const int64_t *i;       /* flat INTEGER column, or NULL */
  const double *f;        /* flat REAL column, or NULL */
  int text;               /* may hold TEXT or BLOB rows */
} radix_src;

/* Bytes of text row rr brings, added to vt[x] for each value x. */
static inline uint32_t radix_src_text(const radix_src *src, int nvec, uint32_t rr,
                                      uint64_t *vt){
  uint32_t n = 0;
  for(int x=0; x<nvec; x++){
    if( !src[x].text ) continue;
    int t = cv_tag(src[x].v, rr);
    if( t==CV_TEXT || t==CV_BLOB ){
      uint32_t b = cv_bytes(src[x].v, rr).n;
      vt[x] += b;
      n += b;
    }
  }
  return n;
}

static inline int radix_src_need(const radix_src *s, uint32_t r){
  if( s->i ){ int64_t x = s->i[r]; return x==(int32_t)x ? AGG_RADIX_I32 : AGG_RADIX_I64; }
  if( s->f ) return AGG_RADIX_F64;
  return radix_need(s->v, r);
}

/* Row rr, in chunk c's forms, at o; its text to c's text area. */
static inline __attribute__((always_inline)) void radix_put(unsigned char *o, agg_radix_chunk *c,
                             const radix_src *src, int nvec, uint32_t rr){
  for(int x=0; x<nvec; x++){
    const radix_src *s = &src[x];
    int f = radix_fmt_of(c->fmt, x);
    if( f==AGG_RADIX_I32 ){
      int32_t i = (int32_t)(s->i ? s->i[rr] : cv_int(s->v, rr));
      memcpy(o, &i, 4); o += 4;
    }else if( f==AGG_RADIX_I64 ){
      int64_t i = s->i ? s->i[rr] : cv_int(s->v, rr);
      memcpy(o, &i, 8); o += 8;
    }else if( f==AGG_RADIX_F64 ){
      double d = s->f ? s->f[rr] : cv_real(s->v, rr);
      memcpy(o, &d, 8); o += 8;
    }else{
      int t = s->i ? CV_INT : s->f ? CV_REAL : cv_tag(s->v, rr);
      *o = (unsigned char)t;
      if( t==CV_INT ){ int64_t i = s->i ? s->i[rr] : cv_int(s->v, rr); memcpy(o + 1, &i, 8); }
      else if( t==CV_REAL ){ double d = s->f ? s->f[rr] : cv_real(s->v, rr); memcpy(o + 1, &d, 8); }
      else if( t==CV_TEXT || t==CV_BLOB ){
        /* room checked by radix_fits or made by radix_chunk_new */
        cv_str b = cv_bytes(s->v, rr);
        uint32_t at[2] = { c->text_used, b.n };
        agg_copy_bytes(c->data + (size_t)c->cap*c->width + c->text_used, b.p, b.n);
        c->text_used += b.n;
        memcpy(o + 1, at, 8);
      }
      else memset(o + 1, 0, 8);
      o += 9;
    }
  }
}

void agg_radix_sketch(agg_radix *r, const uint64_t *hashes, const uint32_t *sel,
                      const uint8_t *part, uint32_t n){
  agg_radix_part *parts = r->parts;
  for(uint32_t k=0; k<n; k++){
    /* the sketch takes the low word of the hash: the partition and a
    ** table's home bucket are the high word's */
    uint32_t lo = (uint32_t)hashes[sel ? sel[k] : k];
    uint32_t j = lo & (AGG_RADIX_HLL - 1), w = lo >> 6;
    uint8_t rank = (uint8_t)(w ? __builtin_clz(w) - 5 : 27);
    uint8_t *reg = &parts[part ? part[k] : 0].hll[j];
    if( rank>*reg ) *reg = rank;
  }
}

/* Can a chunk of sb-byte steps whose last row is last take dataset row
** row next? */
static inline int radix_step_fits(int64_t row, int64_t last, uint32_t sb){
  return row>=last && (uint64_t)(row - last) <= (sb==2 ? UINT16_MAX : UINT32_MAX);
}

/* Do chunk forms fmt hold row rr's values? */
static inline int radix_forms_hold(uint64_t fmt, const radix_src *src, int nf, uint32_t rr){
  for(int x=0; x<nf; x++){
    if( !radix_holds(radix_fmt_of(fmt, x), radix_src_need(&src[x], rr)) ) return 0;
  }
  return 1;
}

/* Rows rows[0..n) of src into partition p: *held of them held (all but on
** OOM), bringing *text_held bytes of text. any_text is a constant at each
** call, so the loop over numbers alone has no text to look at. */
static inline __attribute__((always_inline))
int radix_append_rows(agg_radix *r, agg_radix_part *p, const radix_src *src,
                      const uint32_t *rows, uint32_t n, int64_t first_row,
                      const int any_text, uint64_t *vt,
                      uint64_t *held, uint64_t *text_held, const int one){
  /* one: a constant 1 where the rows are one value (a key alone, GROUP BY
  ** UserID), so the loops over a row's values fold away */
  int nvec = one ? 1 : r->nvec;
  int nf = nvec < AGG_RADIX_FMT_VALS ? nvec : AGG_RADIX_FMT_VALS;
  uint32_t k = 0, text = 0;
  int text_known = 0;     /* text is row k's, counted into vt already */
  while( k<n ){
    uint32_t rr = rows[k];
    int64_t row = first_row + rr;
    agg_radix_chunk *c = p->tail;
    if( any_text && !text_known ) text = radix_src_text(src, nvec, rr, vt);
    text_known = 0;
    if( c==0 || c->n==c->cap || !radix_step_fits(row, c->last, c->step_bytes)
     || !radix_forms_hold(c->fmt, src, nf, rr)
     || (any_text && text > c->text_cap - c->text_used) ){
      /* forms only widen along a partition: rows that alternate between
      ** classes settle in a form that takes both, not a chunk each; and
      ** a partition whose rows lie far apart (a selective filter) takes
      ** 4-byte steps, not a chunk per row */
      uint64_t fmt = 0;
      for(int x=0; x<nf; x++){
        int f = radix_src_need(&src[x], rr);
        if( c ) f = radix_join(radix_fmt_of(c->fmt, x), f);
        fmt |= (uint64_t)f << (2*x);
      }
      uint64_t gap = c && row>=c->last ? (uint64_t)(row - c->last) : 0;
      uint32_t sb = c && (c->step_bytes==4 || gap > UINT16_MAX) ? 4 : 2;
      if( (c = radix_chunk_new(r, p, row, fmt, sb, text))==0 ) return -1;
    }
    /* c takes row k, and the rows after it while they fit: its counters
    ** in locals, as stores of row bytes may alias them */
    const uint64_t fmt = c->fmt;
    const uint32_t cap = c->cap, width = c->width, sb = c->step_bytes;
    /* forms that take any row of their source need no look at the rows */
    int any_row = 1;
    for(int x=0; x<nf && any_row; x++){
      int f = radix_fmt_of(fmt, x);
      any_row = f==AGG_RADIX_FULL || (f==AGG_RADIX_I64 && src[x].i) || (f==AGG_RADIX_F64 && src[x].f);
    }
    uint32_t cn = c->n;
    int64_t last = c->last;
    unsigned char *o = c->data + (size_t)cn*width;
    uint64_t h = 0, th = 0;
    for(;;){
      if( sb==2 ){ uint16_t st = (uint16_t)(row - last); memcpy(o, &st, 2); }
      else{ uint32_t st = (uint32_t)(row - last); memcpy(o, &st, 4); }
      radix_put(o + sb, c, src, nvec, rr);
      o += width;
      last = row;
      cn++;
      h++;
      th += text;
      if( ++k==n || cn==cap ) break;
      rr = rows[k];
      row = first_row + rr;
      if( !radix_step_fits(row, last, sb) || (!any_row && !radix_forms_hold(fmt, src, nf, rr)) ) break;
      if( any_text ){
        text = radix_src_text(src, nvec, rr, vt);
        text_known = 1;
        if( text > c->text_cap - c->text_used ) break;
        text_known = 0;
      }
    }
    c->n = cn;
    c->last = last;
    *held += h;
    *text_held += th;
  }
  return 0;
}

int agg_radix_append(agg_radix *r, int part, const col_vector *const *v,
                     const uint32_t *rows, uint32_t n, int64_t first_row){
  agg_radix_part *p = &r->parts[part];
  int nvec = r->nvec;
  radix_src stack[8], *src = stack;
  if( nvec>8 && (src = malloc((size_t)nvec * sizeof(*src)))==0 ) return -1;
  int any_text = 0;
  for(int x=0; x<nvec; x++){
    const col_vector *vx = v[x];
    int flat = vx->form==CV_FLAT && vx->tags==0;
    src[x].v = vx;
    src[x].i = flat && vx->type==CV_INT ? vx->i64 : 0;
    src[x].f = flat && vx->type==CV_REAL ? vx->f64 : 0;
    const col_vector *d = vx->form==CV_DICT ? vx->dict : vx;
    src[x].text = vx->tags!=0 || d->tags!=0 || d->type==CV_TEXT || d->type==CV_BLOB;
    any_text |= src[x].text;
  }
  if( any_text && r->vtext==0 ){
    r->vtext = calloc((size_t)r->nparts * (size_t)nvec, sizeof(uint64_t));
    if( r->vtext==0 ){ if( src!=stack ) free(src); return -1; }
  }
  uint64_t held = 0, text_held = 0;
  int rc = any_text
    ? radix_append_rows(r, p, src, rows, n, first_row, 1,
                        r->vtext + (size_t)part*(size_t)nvec, &held, &text_held, 0)
    : nvec==1
    ? radix_append_rows(r, p, src, rows, n, first_row, 0, 0, &held, &text_held, 1)
    : radix_append_rows(r, p, src, rows, n, first_row, 0, 0, &held, &text_held, 0);
  p->rows += held;
  r->rows += held;
  r->text += text_held;
  if( src!=stack ) free(src);
  return rc;
}

int agg_radix_cols_init(agg_radix_cols *c, int nvec){
  memset(c, 0, sizeof(*c));
  size_t m = (size_t)(nvec>0 ? nvec : 1) * AGG_RADIX_CHUNK_MAX;
  c->row = malloc(AGG_RADIX_CHUNK_MAX * sizeof(uint64_t));
  c->v = calloc((size_t)(nvec>0 ? nvec : 1), sizeof(col_vector));
  c->tags = malloc(m);
  c->i64 = malloc(m * sizeof(int64_t));
  c->f64 = malloc(m * sizeof(double));
  c->str = malloc(m * sizeof(cv_str));
  if( !c->row || !c->v || !c->tags || !c->i64 || !c->f64 || !c->str ){
    agg_radix_cols_free(c);
    return -1;
  }
  return 0;
}

void agg_radix_cols_free(agg_radix_cols *c){
  free(c->row); free(c->v); free(c->tags); free(c->i64); free(c->f64); free(c->str);
  memset(c, 0, sizeof(*c));
}

void agg_radix_unpack(const agg_radix *r, const agg_radix_chunk *ch, agg_radix_cols *c){
  int nvec = r->nvec;
  uint32_t w = ch->width, n = ch->n;
  const unsigned char *in = ch->data;
  c->n = n;
  uint64_t row = (uint64_t)ch->base;
  if( ch->step_bytes==2 ){
    for(uint32_t k=0; k<n; k++){
      uint16_t st;
      memcpy(&st, in + (size_t)k*w, 2);
      c->row[k] = row += st;
    }
  }else{
    for(uint32_t k=0; k<n; k++){
      uint32_t st;
      memcpy(&st, in + (size_t)k*w, 4);
      c->row[k] = row += st;
    }
  }
  const unsigned char *o = in + ch->step_bytes;   /* value x of row 0 */
  for(int x=0; x<nvec; x++){
    uint8_t *tags = c->tags + (size_t)x*AGG_RADIX_CHUNK_MAX;
    int64_t *i64 = c->i64 + (size_t)x*AGG_RADIX_CHUNK_MAX;
    double *f64 = c->f64 + (size_t)x*AGG_RADIX_CHUNK_MAX;
    cv_str *str = c->str + (size_t)x*AGG_RADIX_CHUNK_MAX;
    col_vector *v = &c->v[x];
    memset(v, 0, sizeof(*v));
    v->form = CV_FLAT;
    v->n = n;
    v->i64 = i64;
    v->f64 = f64;
    v->str = str;
    int f = radix_fmt_of(ch->fmt, x);
    if( f==AGG_RADIX_I32 ){
      for(uint32_t k=0; k<n; k++){ int32_t i; memcpy(&i, o + (size_t)k*w, 4); i64[k] = i; }
      v->type = CV_INT;
      o += 4;
      continue;
    }
    if( f==AGG_RADIX_I64 || f==AGG_RADIX_F64 ){
      if( f==AGG_RADIX_I64 ) for(uint32_t k=0; k<n; k++) memcpy(&i64[k], o + (size_t)k*w, 8);
      else for(uint32_t k=0; k<n; k++) memcpy(&f64[k], o + (size_t)k*w, 8);
      v->type = f==AGG_RADIX_I64 ? CV_INT : CV_REAL;
      o += 8;
      continue;
    }
    const unsigned char *text = ch->data + (size_t)ch->cap*w;
    unsigned seen = 0;
    for(uint32_t k=0; k<n; k++){
      const unsigned char *e = o + (size_t)k*w;
      uint8_t t = e[0];
      tags[k] = t;
      seen |= 1u<<t;
      if( t==CV_REAL ) memcpy(&f64[k], e + 1, 8);
      else if( t==CV_TEXT || t==CV_BLOB ){
        uint32_t at[2];
        memcpy(at, e + 1, 8);
        str[k].p = (const char*)text + at[0];
        str[k].n = at[1];
      }
      else memcpy(&i64[k], e + 1, 8);
    }
    o += 9;
    /* tags only where rows differ from the one class */
    int one = -1;
    for(int t=CV_NULL; t<=CV_BLOB; t++) if( seen==(1u<<t) ) one = t;
    if( one>CV_NULL ){ v->type = (uint8_t)one; }
    else{
      v->type = seen & (1u<<CV_INT) ? CV_INT : seen & (1u<<CV_REAL) ? CV_REAL
              : seen & (1u<<CV_TEXT) ? CV_TEXT : seen & (1u<<CV_BLOB) ? CV_BLOB : CV_INT;
      v->tags = tags;
    }
  }
}

double agg_radix_distinct(const agg_radix *const *rs, int n, int part){
  uint8_t m[AGG_RADIX_HLL];
  memset(m, 0, sizeof(m));
  for(int i=0; i<n; i++){
    if( rs[i]->parts==0 ) continue;
    const uint8_t *h = rs[i]->parts[part].hll;
    for(int j=0; j<AGG_RADIX_HLL; j++) if( h[j]>m[j] ) m[j] = h[j];
  }
  double sum = 0;
  int zeros = 0;
  for(int j=0; j<AGG_RADIX_HLL; j++){
    sum += ldexp(1.0, -m[j]);
    zeros += m[j]==0;
  }
  double M = AGG_RADIX_HLL;
  double e = 0.709 * M * M / sum;
  /* few keys: count the empty registers instead (linear counting) */
  if( e <= 2.5*M && zeros ) e = M * log(M / zeros);
  return e;
}
