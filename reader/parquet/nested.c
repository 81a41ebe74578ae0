/*
** nested.c — Dremel record assembly of one top-level field into JSON.
**
** Each leaf under the field has a cursor over its level entries and its
** values. Rendering a node looks at the node's first leaf to decide presence
** (definition level) and, for repeated nodes, whether another element
** follows (repetition level of the next entry). A node that is null or an
** empty list consumes exactly one entry in every leaf beneath it, since
** nothing below a missing node can repeat.
*/
#include "nested.h"
#include "value.h"
#include "../strbuf.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct leaf_cursor {
  pq_chunk *c;               /* decoded chunk */
  int64_t e;                 /* next level entry */
  int64_t v;                 /* next non-null value */
} leaf_cursor;

typedef struct assembler {
  const pq_schema *s;
  leaf_cursor *cur;          /* indexed by leaf - base */
  int base;                  /* field's first leaf */
  strbuf out;
  col_error *err;
  int depth;
} assembler;

static int entry_def(assembler *a, int leaf){
  leaf_cursor *lc = &a->cur[leaf - a->base];
  if( lc->e >= lc->c->nlevels ) return -1;
  return lc->c->def ? lc->c->def[lc->e] : 0;
}
static int entry_rep(assembler *a, int leaf){
  leaf_cursor *lc = &a->cur[leaf - a->base];
  if( lc->e >= lc->c->nlevels ) return -1;
  return lc->c->rep ? lc->c->rep[lc->e] : 0;
}

static int levels_error(assembler *a, int leaf){
  const pq_node *nd = &a->s->nodes[a->s->leaves[leaf].node];
  return col_error_set(a->err, COL_ERROR,
      "levels of leaf column %.*s disagree with its siblings (at level entry %lld)",
      (int)nd->el->name.n, (const char*)nd->el->name.p,
      (long long)a->cur[leaf-a->base].e);
}

/* Consume one entry in every leaf under node n (a null or empty node). */
static int skip_one(assembler *a, const pq_node *n){
  for(int l=n->leaf_first; l<n->leaf_first+n->leaf_count; l++){
    leaf_cursor *lc = &a->cur[l - a->base];
    if( lc->e >= lc->c->nlevels ) return levels_error(a, l);
    int d = lc->c->def ? lc->c->def[lc->e] : 0;
    if( d==lc->c->max_def ) lc->v++;
    lc->e++;
  }
  return COL_OK;
}

/* The JSON text of one scalar, as README.golden.md writes values inside
** JSON. */
static void json_scalar(assembler *a, const pq_leaf_desc *L, const pq_chunk *c, int64_t vi){
  const pq_conv *cv = &L->conv;
  const pq_values *src = c->dict_mode ? &c->dict : &c->vals;
  int64_t i = c->dict_mode ? c->codes[vi] : vi;
  const uint8_t *fx = src->fixed;
  const cv_str *st = src->str;
  char buf[800];
  int n = 0;
  strbuf *b = &a->out;
  switch( cv->kind ){
    case PQC_BOOL: strbuf_puts(b, fx[i] ? "true" : "false"); return;
    case PQC_INT32: { int32_t x; memcpy(&x, fx+4*i, 4); n = sprintf(buf, "%d", x); break; }
    case PQC_UINT32: { uint32_t x; memcpy(&x, fx+4*i, 4); n = sprintf(buf, "%u", x); break; }
    case PQC_INT64: { int64_t x; memcpy(&x, fx+8*i, 8); n = sprintf(buf, "%lld", (long long)x); break; }
    case PQC_UINT64: { uint64_t x; memcpy(&x, fx+8*i, 8); n = sprintf(buf, "%llu", (unsigned long long)x); break; }
    case PQC_FLOAT: case PQC_DOUBLE: case PQC_FLOAT16: {
      double d;
      if( cv->kind==PQC_FLOAT ){ float f; memcpy(&f, fx+4*i, 4); d = f; }
      else if( cv->kind==PQC_DOUBLE ) memcpy(&d, fx+8*i, 8);
      else { uint16_t h; memcpy(&h, st[i].p, 2); d = pq_float16_to_double(h); }
      if( isnan(d) ){ strbuf_puts(b, "\"NaN\""); return; }
      if( isinf(d) ){ strbuf_puts(b, d>0 ? "\"Infinity\"" : "\"-Infinity\""); return; }
      n = sprintf(buf, "%.17g", d);
      break;
    }
    case PQC_DECIMAL: {
      if( c->phys==PQ_INT32 ){ int32_t x; memcpy(&x, fx+4*i, 4); n = pq_decimal_text_i64(x, cv->scale, buf, sizeof(buf)); }
      else if( c->phys==PQ_INT64 ){ int64_t x; memcpy(&x, fx+8*i, 8); n = pq_decimal_text_i64(x, cv->scale, buf, sizeof(buf)); }
      else n = pq_decimal_text_be((const uint8_t*)st[i].p, st[i].n, cv->scale, buf, sizeof(buf));
      if( n<0 ){ strbuf_puts(b, "null"); return; }
      if( cv->decimal_text ){ strbuf_json_string(b, buf, (size_t)n); return; }
      break;
    }
    case PQC_TEXT: strbuf_json_string(b, st[i].p, st[i].n); return;
    case PQC_BLOB: {
      static const char hex[] = "0123456789ABCDEF";
      strbuf_puts(b, "\"X'");
      for(uint32_t k=0; k<st[i].n; k++){
        unsigned char ch = (unsigned char)st[i].p[k];
        strbuf_putc(b, hex[ch>>4]); strbuf_putc(b, hex[ch&15]);
      }
      strbuf_puts(b, "'\"");
      return;
    }
    case PQC_DATE: { int32_t d; memcpy(&d, fx+4*i, 4); n = pq_format_date(d, buf); strbuf_json_string(b, buf, (size_t)n); return; }
    case PQC_TIME: {
      int64_t x = 0;
      if( c->phys==PQ_INT32 ){ int32_t t; memcpy(&t, fx+4*i, 4); x = t; } else memcpy(&x, fx+8*i, 8);
      n = pq_format_time(x, cv->unit, buf); strbuf_json_string(b, buf, (size_t)n); return;
    }
    case PQC_TIMESTAMP: { int64_t x; memcpy(&x, fx+8*i, 8); n = pq_format_timestamp(x, cv->unit, buf); strbuf_json_string(b, buf, (size_t)n); return; }
    case PQC_INT96: n = pq_format_int96(fx+12*i, buf); strbuf_json_string(b, buf, (size_t)n); return;
    case PQC_UUID: n = pq_format_uuid((const uint8_t*)st[i].p, buf); strbuf_json_string(b, buf, (size_t)n); return;
    default: strbuf_puts(b, "null"); return;
  }
  strbuf_append(b, buf, (size_t)n);
}

static int render_field(assembler *a, int node);
static int render_value(assembler *a, int node);

/* Is group g annotated LIST / MAP? */
static int is_list(const pq_schema_element *e){
  return e->logical.kind==PQ_LT_LIST || (e->logical.kind==PQ_LT_NONE && e->converted_type==PQ_CT_LIST);
}
static int is_map(const pq_schema_element *e){
  return e->logical.kind==PQ_LT_MAP
      || (e->logical.kind==PQ_LT_NONE && (e->converted_type==PQ_CT_MAP || e->converted_type==PQ_CT_MAP_KEY_VALUE));
}

/* Render the list of instances of repeated node r, each rendered as elem
** (r itself, or r's only child under the three-level LIST form). mapmode:
** r's children are key and value, rendered as object members. */
static int render_repeated(assembler *a, int r, int elem, int mapmode){
  const pq_node *R = &a->s->nodes[r];
  int rep_leaf = R->leaf_first;
  if( R->leaf_count==0 ) return col_error_set(a->err, COL_ERROR, "repeated group without leaves");
  int d = entry_def(a, rep_leaf);
  if( d<0 ) return levels_error(a, rep_leaf);
  if( d < R->max_def ){
    strbuf_puts(&a->out, mapmode ? "{}" : "[]");
    return skip_one(a, R);
  }
  strbuf_putc(&a->out, mapmode ? '{' : '[');
  for(int first=1;; first=0){
    if( !first ) strbuf_putc(&a->out, ',');
    int rc;
    if( mapmode ){
      if( R->nchild<1 ) return col_error_set(a->err, COL_ERROR, "map without a key column");
      int key = R->child[0];
      const pq_node *K = &a->s->nodes[key];
      /* Render the key to the side, then as a string member name. */
      size_t mark = a->out.n;
      rc = render_field(a, key);
      if( rc ) return rc;
      if( K->leaf>=0 && a->s->leaves[K->leaf].conv.kind!=PQC_TEXT ){
        size_t len = a->out.n - mark;
        char *tmp = malloc(len ? len : 1);
        if( !tmp ) return col_error_set(a->err, COL_ENOMEM, "out of memory");
        memcpy(tmp, a->out.p + mark, len);
        a->out.n = mark;
        strbuf_json_string(&a->out, tmp, len);
        free(tmp);
      }
      strbuf_putc(&a->out, ':');
      if( R->nchild>=2 ){
        rc = render_field(a, R->child[1]);
      }else{
        strbuf_puts(&a->out, "null");
        rc = COL_OK;
      }
    }else if( elem==r ){
      rc = render_value(a, r);
    }else{
      rc = render_field(a, elem);
    }
    if( rc ) return rc;
    int nr = entry_rep(a, rep_leaf);
    if( nr!=R->max_rep ) break;   /* next entry starts another parent (or ends) */
  }
  strbuf_putc(&a->out, mapmode ? '}' : ']');
  return COL_OK;
}

/* Render one present instance of node n (its own repetition handled by the
** caller). */
static int render_value(assembler *a, int n){
  const pq_node *N = &a->s->nodes[n];
  if( ++a->depth > 300 ) return col_error_set(a->err, COL_ERROR, "nesting too deep");
  int rc = COL_OK;
  if( N->leaf>=0 ){
    leaf_cursor *lc = &a->cur[N->leaf - a->base];
    if( lc->e >= lc->c->nlevels || lc->v >= lc->c->nvals ){ rc = levels_error(a, N->leaf); goto done; }
    json_scalar(a, &a->s->leaves[N->leaf], lc->c, lc->v);
    lc->v++; lc->e++;
    goto done;
  }
  if( is_list(N->el) && N->nchild==1 && a->s->nodes[N->child[0]].repetition==PQ_REPEATED ){
    int r = N->child[0];
    const pq_node *R = &a->s->nodes[r];
    int elem = r;
    /* Parquet's backward-compatibility rules for the element type. */
    if( R->leaf<0 && R->nchild==1 ){
      const pq_schema_element *re = R->el;
      char tuple[300];
      snprintf(tuple, sizeof(tuple), "%.*s_tuple", (int)N->el->name.n, (const char*)N->el->name.p);
      int legacy = (re->name.n==5 && memcmp(re->name.p, "array", 5)==0)
                || (re->name.n==strlen(tuple) && memcmp(re->name.p, tuple, re->name.n)==0);
      if( !legacy ) elem = R->child[0];
    }
    rc = render_repeated(a, r, elem, 0);
    goto done;
  }
  if( is_map(N->el) && N->nchild==1 && a->s->nodes[N->child[0]].repetition==PQ_REPEATED
   && a->s->nodes[N->child[0]].leaf<0 ){
    rc = render_repeated(a, N->child[0], N->child[0], 1);
    goto done;
  }
  /* A struct: members in schema order. */
  strbuf_putc(&a->out, '{');
  for(int i=0; i<N->nchild; i++){
    const pq_node *C = &a->s->nodes[N->child[i]];
    if( i ) strbuf_putc(&a->out, ',');
    strbuf_json_string(&a->out, (const char*)C->el->name.p, C->el->name.n);
    strbuf_putc(&a->out, ':');
    rc = render_field(a, N->child[i]);
    if( rc ) goto done;
  }
  strbuf_putc(&a->out, '}');
done:
  a->depth--;
  return rc;
}

/* Render node n where it appears in its parent: null/absent, a bare
** repeated field (a list), or its value. */
static int render_field(assembler *a, int n){
  const pq_node *N = &a->s->nodes[n];
  if( N->leaf_count==0 ){
    strbuf_puts(&a->out, "null");
    return COL_OK;
  }
  if( N->repetition==PQ_REPEATED ) return render_repeated(a, n, n, 0);
  int d = entry_def(a, N->leaf_first);
  if( d<0 ) return levels_error(a, N->leaf_first);
  if( d < N->max_def ){
    strbuf_puts(&a->out, "null");
    return skip_one(a, N);
  }
  return render_value(a, n);
}

int pq_assemble_json(const pq_schema *s, int field, pq_chunk *chunks,
                     int64_t rows, pq_colvec *o, col_error *err){
  const pq_field *F = &s->fields[field];
  const pq_node *N = &s->nodes[F->node];
  assembler a;
  size_t *offs = 0;
  memset(&a, 0, sizeof(a));
  memset(o, 0, sizeof(*o));
  col_arena_init(&o->arena);
  a.s = s; a.base = N->leaf_first; a.err = err;
  a.cur = calloc((size_t)(N->leaf_count ? N->leaf_count : 1), sizeof(leaf_cursor));
  offs = malloc(sizeof(size_t)*((size_t)rows+1));
  uint8_t *tags = malloc((size_t)(rows ? rows : 1));
  cv_str *sv = malloc(sizeof(cv_str)*(size_t)(rows ? rows : 1));
  if( !a.cur || !offs || !tags || !sv ){
    free(tags); free(sv);
    col_error_set(err, COL_ENOMEM, "out of memory");
    goto json_error;
  }
  o->mem[o->nmem++] = tags;
  o->mem[o->nmem++] = sv;
  for(int i=0; i<N->leaf_count; i++) a.cur[i].c = &chunks[i];
  for(int64_t r=0; r<rows; r++){
    offs[r] = a.out.n;
    /* Every leaf must be at the start of a record. */
    int rr = entry_rep(&a, N->leaf_first);
    if( rr!=0 ){ levels_error(&a, N->leaf_first); goto json_error; }
    int d = N->repetition==PQ_REPEATED ? N->max_def : entry_def(&a, N->leaf_first);
    if( N->repetition!=PQ_REPEATED && d < N->max_def ){
      tags[r] = CV_NULL;
      if( skip_one(&a, N) ) goto json_error;
    }else{
      tags[r] = CV_TEXT;
      if( render_field(&a, F->node) ) goto json_error;
    }
    if( a.out.oom ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto json_error; }
  }
  offs[rows] = a.out.n;
  for(int i=0; i<N->leaf_count; i++){
    if( a.cur[i].e != chunks[i].nlevels ){
      levels_error(&a, a.base+i);
      goto json_error;
    }
  }
  char *text = col_arena_dup(&o->arena, a.out.p ? a.out.p : "", a.out.n);
  if( !text && a.out.n ){ col_error_set(err, COL_ENOMEM, "out of memory"); goto json_error; }
  for(int64_t r=0; r<rows; r++){
    sv[r].p = tags[r]==CV_NULL ? 0 : text + offs[r];
    sv[r].n = tags[r]==CV_NULL ? 0 : (uint32_t)(offs[r+1]-offs[r]);
  }
  o->v.form = CV_FLAT;
  o->v.type = CV_TEXT;
  o->v.n = (uint32_t)rows;
  o->v.tags = tags;
  o->v.str = sv;
  strbuf_free(&a.out);
  free(a.cur);
  free(offs);
  return COL_OK;
json_error:
  strbuf_free(&a.out);
  free(a.cur);
  free(offs);
  pq_colvec_free(o);
  return err->code;
}
