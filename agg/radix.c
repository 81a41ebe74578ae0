/*
** radix.c — rows held back in hash partitions; see radix.h.
*/
#include "radix.h"
#include "bigmem.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define RADIX_CHUNK_MIN 256   /* a partition's first chunk: most of 256
                              ** partitions of a small lane stay small */
/* Chunks are cut from slabs this large: one mapping, in huge pages where
** the kernel gives them, instead of a page fault per 4 KiB of rows (GROUP
** BY UserID held 130 MB, and its faults were an eighth of the time). */
#define RADIX_SLAB ((size_t)4 << 20)

int agg_radix_init(agg_radix *r, int nparts, int nvec){
  memset(r, 0, sizeof(*r));
  r->parts = calloc((size_t)(nparts>0 ? nparts : 1), sizeof(agg_radix_part));
  if( r->parts==0 ) return -1;
  r->nparts = nparts;
  r->nvec = nvec;
  r->width = 4 + 9*(uint32_t)nvec;
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
    agg_mem_free(s);
    s = prev;
  }
  free(r->parts);
  memset(r, 0, sizeof(*r));
}

/* n bytes, 16-aligned, from the current slab or a new one. */
static void *radix_alloc(agg_radix *r, size_t n){
  n = (n + 15) & ~(size_t)15;
  if( r->slab==0 || r->slab_used + n > r->slab_len ){
    size_t len = n + 16 > RADIX_SLAB ? n + 16 : RADIX_SLAB;
    unsigned char *s = agg_mem_realloc(0, len);
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
** at the rows; one that mixes in TEXT or BLOB rows does. */
int agg_radix_fits(const col_vector *const *v, int nvec, const uint32_t *rows, uint32_t n){
  for(int j=0; j<nvec; j++){
    const col_vector *x = v[j];
    const col_vector *d = x->form==CV_DICT ? x->dict : 0;
    if( x->tags==0 && (d==0 || d->tags==0) ){
      if( (d ? d->type : x->type) > CV_REAL ) return 0;
      continue;
    }
    for(uint32_t k=0; k<n; k++){
      if( cv_tag(x, rows[k])>CV_REAL ) return 0;
    }
  }
  return 1;
}

static agg_radix_chunk *radix_chunk_new(agg_radix *r, agg_radix_part *p, int64_t base){
  uint32_t cap = p->tail ? p->tail->cap*2 : RADIX_CHUNK_MIN;
  if( cap>AGG_RADIX_CHUNK_MAX ) cap = AGG_RADIX_CHUNK_MAX;
  size_t bytes = sizeof(agg_radix_chunk) + (size_t)cap*r->width;
  agg_radix_chunk *c = radix_alloc(r, bytes);
  if( c==0 ) return 0;
  c->next = 0; c->base = base; c->n = 0; c->cap = cap;
  if( p->tail ) p->tail->next = c; else p->head = c;
  p->tail = c;
  return c;
}

/* One row's value j: its class byte and 8 value bytes. */
static inline void radix_put(unsigned char *cls, unsigned char *val, const col_vector *x, uint32_t r){
  int t = cv_tag(x, r);
  *cls = (unsigned char)t;
  if( t==CV_INT ){
    int64_t i = cv_int(x, r);
    memcpy(val, &i, 8);
  }else if( t==CV_REAL ){
    double f = cv_real(x, r);
    memcpy(val, &f, 8);
  }else{
    memset(val, 0, 8);
  }
}

int agg_radix_append(agg_radix *r, int part, const col_vector *const *v,
                     const uint32_t *rows, uint32_t n, int64_t first_row,
                     const uint64_t *hashes){
  agg_radix_part *p = &r->parts[part];
  /* the low word of the hash: the partition and a table's home bucket
  ** are the high word's */
  for(uint32_t k=0; k<n; k++){
    uint32_t lo = (uint32_t)hashes[rows[k]];
    uint32_t j = lo & (AGG_RADIX_HLL - 1), w = lo >> 6;
    uint8_t rank = (uint8_t)(w ? __builtin_clz(w) - 5 : 27);
    if( rank>p->hll[j] ) p->hll[j] = rank;
  }
  int nvec = r->nvec;
  uint32_t w = r->width;
  /* one INTEGER column, flat, never NULL: GROUP BY UserID's count(*) */
  const int64_t *flat = nvec==1 && v[0]->form==CV_FLAT && v[0]->tags==0 && v[0]->type==CV_INT
                      ? v[0]->i64 : 0;
  uint32_t k = 0;
  while( k<n ){
    agg_radix_chunk *c = p->tail;
    int64_t row0 = first_row + rows[k];
    if( c==0 || c->n==c->cap || row0 < c->base || (uint64_t)(row0 - c->base) > UINT32_MAX ){
      c = radix_chunk_new(r, p, row0);
      if( c==0 ) return -1;
    }
    uint32_t room = c->cap - c->n;
    uint32_t take = n - k < room ? n - k : room;
    /* rows of a batch ascend: the last one decides whether the steps fit */
    int64_t last = first_row + rows[k + take - 1];
    if( (uint64_t)(last - c->base) > UINT32_MAX ) take = 1;
    unsigned char *o = c->data + (size_t)c->n*w;
    if( flat ){
      for(uint32_t j=0; j<take; j++, o+=w){
        uint32_t rr = rows[k + j];
        uint32_t step = (uint32_t)(first_row + rr - c->base);
        memcpy(o, &step, 4);
        o[4] = CV_INT;
        memcpy(o + 5, &flat[rr], 8);
      }
    }else{
      for(uint32_t j=0; j<take; j++, o+=w){
        uint32_t rr = rows[k + j];
        uint32_t step = (uint32_t)(first_row + rr - c->base);
        memcpy(o, &step, 4);
        for(int x=0; x<nvec; x++) radix_put(o + 4 + x, o + 4 + nvec + 8*x, v[x], rr);
      }
    }
    c->n += take;
    k += take;
  }
  return 0;
}

int agg_radix_cols_init(agg_radix_cols *c, int nvec){
  memset(c, 0, sizeof(*c));
  size_t m = (size_t)(nvec>0 ? nvec : 1) * AGG_RADIX_CHUNK_MAX;
  c->row = malloc(AGG_RADIX_CHUNK_MAX * sizeof(uint64_t));
  c->v = calloc((size_t)(nvec>0 ? nvec : 1), sizeof(col_vector));
  c->tags = malloc(m);
  c->i64 = malloc(m * sizeof(int64_t));
  c->f64 = malloc(m * sizeof(double));
  if( !c->row || !c->v || !c->tags || !c->i64 || !c->f64 ){
    agg_radix_cols_free(c);
    return -1;
  }
  return 0;
}

void agg_radix_cols_free(agg_radix_cols *c){
  free(c->row); free(c->v); free(c->tags); free(c->i64); free(c->f64);
  memset(c, 0, sizeof(*c));
}

void agg_radix_unpack(const agg_radix *r, const agg_radix_chunk *ch, agg_radix_cols *c){
  int nvec = r->nvec;
  uint32_t w = r->width, n = ch->n;
  const unsigned char *in = ch->data;
  c->n = n;
  for(uint32_t k=0; k<n; k++){
    uint32_t step;
    memcpy(&step, in + (size_t)k*w, 4);
    c->row[k] = (uint64_t)(ch->base + step);
  }
  for(int x=0; x<nvec; x++){
    uint8_t *tags = c->tags + (size_t)x*AGG_RADIX_CHUNK_MAX;
    int64_t *i64 = c->i64 + (size_t)x*AGG_RADIX_CHUNK_MAX;
    double *f64 = c->f64 + (size_t)x*AGG_RADIX_CHUNK_MAX;
    const unsigned char *o = in + 4 + x;
    const unsigned char *val = in + 4 + nvec + 8*x;
    unsigned seen = 0;
    for(uint32_t k=0; k<n; k++){
      uint8_t t = o[(size_t)k*w];
      tags[k] = t;
      seen |= 1u<<t;
      if( t==CV_REAL ) memcpy(&f64[k], val + (size_t)k*w, 8);
      else memcpy(&i64[k], val + (size_t)k*w, 8);
    }
    col_vector *v = &c->v[x];
    memset(v, 0, sizeof(*v));
    v->form = CV_FLAT;
    v->n = n;
    v->i64 = i64;
    v->f64 = f64;
    /* tags only where rows differ from the one class */
    if( seen==(1u<<CV_INT) ){ v->type = CV_INT; }
    else if( seen==(1u<<CV_REAL) ){ v->type = CV_REAL; }
    else{
      v->type = (seen & (1u<<CV_REAL)) && !(seen & (1u<<CV_INT)) ? CV_REAL : CV_INT;
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
