/*
** nested.c — Dremel record assembly of one top-level field into JSON.
**
** Each leaf under the field has a cursor over its level entries and its
** values. Rendering a node looks at the node's first leaf to decide presence
** (definition level) and, for repeated nodes, whether another element
** follows (repetition level of the next entry). A node that is null or an
** empty list consumes exactly one entry in every leaf beneath it, since
** nothing below a missing node can repeat.
**
** A group annotated VARIANT is not rendered as its Parquet shape but as the
** value it encodes (VariantShredding.md): the row's metadata, then the
** `value` binary and the shredded `typed_value` columns merged into one
** JSON value. Its leaves still advance exactly one entry per instance of
** the group they belong to, whatever parts the rendering used.
*/
#include "nested.h"
#include "value.h"
#include "variant.h"
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
  int64_t row;               /* row being assembled, for messages */
  pq_variant_limits vlim;    /* the Variant being rendered: its allowance */
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
static void json_scalar(assembler *a, const pq_leaf_desc *L, const pq_chunk *c, int64_t vi,
                        int decimal_as_text){
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
      if( cv->decimal_text || decimal_as_text ){ strbuf_json_string(b, buf, (size_t)n); return; }
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
static int render_variant(assembler *a, int node);

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
    json_scalar(a, &a->s->leaves[N->leaf], lc->c, lc->v, 0);
    lc->v++; lc->e++;
    goto done;
  }
  if( N->el->logical.kind==PQ_LT_VARIANT ){
    rc = render_variant(a, n);
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

/* ------------------------------------------------------------------ VARIANT
** A Variant group holds `metadata` (top level only), `value` (Variant
** binary) and `typed_value` (the shredded form: a primitive, a LIST of
** {value, typed_value} elements, or a group of {value, typed_value}
** fields). Parts are found by name, as the spec asks. */

static int name_is(const pq_node *N, const char *name){
  size_t k = strlen(name);
  return N->el->name.n==k && memcmp(N->el->name.p, name, k)==0;
}

static int child_named(assembler *a, const pq_node *N, const char *name){
  for(int i=0; i<N->nchild; i++){
    if( name_is(&a->s->nodes[N->child[i]], name) ) return N->child[i];
  }
  return -1;
}

static int variant_error(assembler *a, const char *what){
  return col_error_set(a->err, COL_ERROR, "Invalid variant in row %lld: %s",
                       (long long)a->row, what);
}

/* Consume one level entry of binary leaf node n; *present says whether it
** held a value, then (*p, *len) are its bytes. */
static int take_bytes(assembler *a, int n, const uint8_t **p, size_t *len, int *present){
  const pq_node *N = &a->s->nodes[n];
  *present = 0; *p = 0; *len = 0;
  if( N->leaf<0 ){
    return col_error_set(a->err, COL_ERROR, "Variant part %.*s is a group, not binary",
                         (int)N->el->name.n, (const char*)N->el->name.p);
  }
  leaf_cursor *lc = &a->cur[N->leaf - a->base];
  pq_chunk *c = lc->c;
  if( c->phys!=PQ_BYTE_ARRAY && c->phys!=PQ_FIXED_LEN_BYTE_ARRAY ){
    return col_error_set(a->err, COL_ERROR, "Variant part %.*s is not binary",
                         (int)N->el->name.n, (const char*)N->el->name.p);
  }
  if( lc->e >= c->nlevels ) return levels_error(a, N->leaf);
  int d = c->def ? c->def[lc->e] : 0;
  if( d==c->max_def ){
    if( lc->v >= c->nvals ) return levels_error(a, N->leaf);
    const pq_values *src = c->dict_mode ? &c->dict : &c->vals;
    int64_t i = c->dict_mode ? c->codes[lc->v] : lc->v;
    *p = (const uint8_t*)src->str[i].p;
    *len = src->str[i].n;
    *present = 1;
    lc->v++;
  }
  lc->e++;
  return COL_OK;
}

/* Render node n and throw the text away: a part the Variant rendering does
** not use must still advance its leaves as its levels say. */
static int discard_field(assembler *a, int n){
  size_t mark = a->out.n;
  int rc = render_field(a, n);
  a->out.n = mark;
  return rc;
}

/* Is typed_value leaf n of a type the shredding spec allows? Checked
** whether or not the row has a value, so a file with a forbidden type is
** refused as upstream expects, not only the rows that use it. */
static int variant_leaf_check(assembler *a, int n){
  const pq_node *N = &a->s->nodes[n];
  const pq_leaf_desc *L = &a->s->leaves[N->leaf];
  const pq_schema_element *e = N->el;
  int ok;
  switch( L->conv.kind ){
    case PQC_BOOL: case PQC_INT32: case PQC_INT64: case PQC_FLOAT: case PQC_DOUBLE:
    case PQC_DECIMAL: case PQC_DATE: case PQC_TIME: case PQC_TIMESTAMP: case PQC_UUID:
      ok = 1; break;
    case PQC_TEXT: case PQC_BLOB:
      ok = e->type==PQ_BYTE_ARRAY; break;
    default:
      ok = 0; break;
  }
  if( ok ) return COL_OK;
  return col_error_set(a->err, COL_ERROR,
      "unsupported shredded Variant type for %.*s (physical type %d%s%s)",
      (int)e->name.n, (const char*)e->name.p, (int)e->type,
      e->type==PQ_FIXED_LEN_BYTE_ARRAY ? ", fixed length without UUID or DECIMAL" : "",
      L->conv.kind==PQC_UINT32 || L->conv.kind==PQC_UINT64 ? ", unsigned integer" : "");
}

/* A shredded primitive: a leaf rendered with the Variant scalar rules
** (decimals as strings, binaries as X'..'). */
static int variant_scalar(assembler *a, int n){
  const pq_node *N = &a->s->nodes[n];
  const pq_leaf_desc *L = &a->s->leaves[N->leaf];
  const pq_schema_element *e = N->el;
  leaf_cursor *lc = &a->cur[N->leaf - a->base];
  pq_leaf_desc tmp;
  if( lc->e >= lc->c->nlevels || lc->v >= lc->c->nvals ) return levels_error(a, N->leaf);
  /* binary_as_string must not turn a Variant binary into a string: only the
  ** STRING annotation does. */
  if( L->conv.kind==PQC_TEXT ){
    int is_str = e->logical.kind==PQ_LT_STRING
              || (e->logical.kind==PQ_LT_NONE && e->converted_type==PQ_CT_UTF8);
    if( !is_str ){ tmp = *L; tmp.conv.kind = PQC_BLOB; L = &tmp; }
  }
  json_scalar(a, L, lc->c, lc->v, 1);
  lc->v++; lc->e++;
  return COL_OK;
}

static int render_shredded(assembler *a, int vnode, const pq_variant_meta *m,
                           int depth, int ignore, int *absent);

/* A shredded array: typed_value is a LIST whose elements are
** {value, typed_value} groups. */
static int variant_list(assembler *a, int t, const pq_variant_meta *m, int depth){
  const pq_node *T = &a->s->nodes[t];
  if( T->nchild!=1 || a->s->nodes[T->child[0]].repetition!=PQ_REPEATED ){
    return variant_error(a, "shredded array typed_value is not a LIST with one repeated child");
  }
  int r = T->child[0];
  const pq_node *R = &a->s->nodes[r];
  if( R->leaf_count==0 || R->leaf>=0 ){
    return variant_error(a, "shredded array elements are not {value, typed_value} groups");
  }
  /* Three-level form: list.element; else the repeated group is the
  ** element itself. */
  int elem = r;
  if( R->nchild==1 && a->s->nodes[R->child[0]].leaf<0
   && child_named(a, R, "value")<0 && child_named(a, R, "typed_value")<0 ){
    elem = R->child[0];
  }
  int d = entry_def(a, R->leaf_first);
  if( d<0 ) return levels_error(a, R->leaf_first);
  if( d < R->max_def ){
    strbuf_puts(&a->out, "[]");
    return skip_one(a, R);
  }
  strbuf_putc(&a->out, '[');
  for(int first=1;; first=0){
    if( !first ) strbuf_putc(&a->out, ',');
    int rc, absent = 0;
    const pq_node *E = &a->s->nodes[elem];
    if( elem!=r ){
      int de = entry_def(a, E->leaf_first);
      if( de<0 ) return levels_error(a, E->leaf_first);
      if( de < E->max_def ){
        /* A missing element: the array encoding has no holes, so it is
        ** Variant null. */
        strbuf_puts(&a->out, "null");
        rc = skip_one(a, E);
        if( rc ) return rc;
        goto next;
      }
    }
    rc = render_shredded(a, elem, m, depth+1, -1, &absent);
    if( rc ) return rc;
    if( absent ) strbuf_puts(&a->out, "null");
  next:;
    int nr = entry_rep(a, R->leaf_first);
    if( nr!=R->max_rep ) break;
  }
  strbuf_putc(&a->out, ']');
  return COL_OK;
}

/* One member of an object being merged: its key and where its JSON value
** was rendered (offsets into a->out). */
typedef struct vmember {
  const uint8_t *key;
  size_t klen;
  size_t start, len;
  int from_value;            /* 1: from the `value` binary, 0: shredded */
  int absent;                /* a shredded field missing in this row */
} vmember;

static int vmember_cmp(const void *x, const void *y){
  const vmember *a = x, *b = y;
  int c = pq_variant_key_cmp(a->key, a->klen, b->key, b->klen);
  if( c ) return c;
  return a->from_value - b->from_value;
}

/* A shredded object: the fields of typed_value group t, merged with the
** members of the `value` binary (vp, vn) when it is present (a partially
** shredded object). Members come out in key order. */
static int variant_object(assembler *a, int t, const pq_variant_meta *m, int depth,
                          const uint8_t *vp, size_t vn){
  const pq_node *T = &a->s->nodes[t];
  pq_variant_object obj;
  int rc = COL_OK;
  memset(&obj, 0, sizeof(obj));
  if( vp ){
    if( pq_variant_basic_type(vp, vn)!=2 ){
      return variant_error(a, "non-object value with shredded fields");
    }
    rc = pq_variant_object_open(vp, vn, &obj, a->err);
    if( rc ) return rc;
  }
  size_t cap = (size_t)T->nchild + obj.count;
  vmember *mem = malloc(sizeof(vmember) * (cap ? cap : 1));
  if( !mem ) return col_error_set(a->err, COL_ENOMEM, "out of memory");
  size_t nm = 0, mark = a->out.n;
  char *tmp = 0;
  for(int i=0; i<T->nchild; i++){
    int f = T->child[i];
    const pq_node *F = &a->s->nodes[f];
    if( F->leaf>=0 || F->repetition==PQ_REPEATED ){
      rc = variant_error(a, "a shredded object field is not a {value, typed_value} group");
      goto done;
    }
    int absent = 0;
    size_t start = a->out.n;
    int d = F->leaf_count ? entry_def(a, F->leaf_first) : 0;
    if( d<0 ){ rc = levels_error(a, F->leaf_first); goto done; }
    if( F->leaf_count==0 ){
      absent = 1;
    }else if( d < F->max_def ){
      /* An optional field group that is null (spec: they are required):
      ** read as missing. */
      absent = 1;
      rc = skip_one(a, F);
    }else{
      rc = render_shredded(a, f, m, depth+1, -1, &absent);
    }
    if( rc ) goto done;
    /* Kept even when absent: `value` must not hold a shredded field, and
    ** if it does anyway the shredded column decides (it is missing). */
    mem[nm].key = F->el->name.p; mem[nm].klen = F->el->name.n;
    mem[nm].start = start; mem[nm].len = a->out.n - start;
    mem[nm].from_value = 0;
    mem[nm].absent = absent;
    nm++;
  }
  for(uint32_t j=0; j<obj.count; j++){
    const uint8_t *key, *val; size_t klen, vlen;
    rc = pq_variant_object_field(&obj, m, j, &key, &klen, &val, &vlen, a->err);
    if( rc ) goto done;
    size_t start = a->out.n;
    rc = pq_variant_to_json(m, val, vlen, depth+1, &a->vlim, &a->out, a->err);
    if( rc ) goto done;
    mem[nm].key = key; mem[nm].klen = klen;
    mem[nm].start = start; mem[nm].len = a->out.n - start;
    mem[nm].from_value = 1;
    mem[nm].absent = 0;
    nm++;
  }
  if( a->out.oom ){ rc = col_error_set(a->err, COL_ENOMEM, "out of memory"); goto done; }
  qsort(mem, nm, sizeof(vmember), vmember_cmp);
  /* Re-emit the rendered values in key order around their keys. */
  size_t len = a->out.n - mark;
  tmp = malloc(len ? len : 1);
  if( !tmp ){ rc = col_error_set(a->err, COL_ENOMEM, "out of memory"); goto done; }
  if( len ) memcpy(tmp, a->out.p + mark, len);
  a->out.n = mark;
  strbuf_putc(&a->out, '{');
  for(size_t k=0; k<nm; k++){
    /* A key both shredded and in `value` is invalid data; the spec says
    ** typed_value wins, and it sorts first. */
    if( k>0 && pq_variant_key_cmp(mem[k-1].key, mem[k-1].klen, mem[k].key, mem[k].klen)==0 ){
      if( mem[k].from_value==mem[k-1].from_value ){
        rc = variant_error(a, "an object has the same key twice");
        goto done;
      }
      continue;
    }
    if( mem[k].absent ) continue;
    if( a->out.n > mark+1 ) strbuf_putc(&a->out, ',');
    strbuf_json_string(&a->out, (const char*)mem[k].key, mem[k].klen);
    strbuf_putc(&a->out, ':');
    strbuf_append(&a->out, tmp + (mem[k].start - mark), mem[k].len);
  }
  strbuf_putc(&a->out, '}');
done:
  free(tmp);
  free(mem);
  return rc;
}

/* Render the present {value, typed_value} group vnode (the Variant group
** itself, an object field or an array element). *absent: neither part was
** set, so nothing was written (a missing object field). ignore: a child
** the caller consumed already (the top-level metadata). */
static int render_shredded(assembler *a, int vnode, const pq_variant_meta *m,
                           int depth, int ignore, int *absent){
  const pq_node *V = &a->s->nodes[vnode];
  int val = -1, typ = -1, rc;
  *absent = 0;
  if( depth > PQ_VARIANT_MAX_DEPTH ){
    return col_error_set(a->err, COL_ERROR, "Variant nests deeper than %d levels", PQ_VARIANT_MAX_DEPTH);
  }
  for(int i=0; i<V->nchild; i++){
    int c = V->child[i];
    if( c==ignore ) continue;
    if( val<0 && name_is(&a->s->nodes[c], "value") ) val = c;
    else if( typ<0 && name_is(&a->s->nodes[c], "typed_value") ) typ = c;
    else if( (rc = discard_field(a, c))!=COL_OK ) return rc;
  }
  const uint8_t *vp = 0; size_t vn = 0; int vpresent = 0;
  if( val>=0 && (rc = take_bytes(a, val, &vp, &vn, &vpresent))!=COL_OK ) return rc;
  if( vpresent ) pq_variant_limits_add(&a->vlim, vn);
  int tpresent = 0;
  const pq_node *T = typ>=0 ? &a->s->nodes[typ] : 0;
  if( T && T->leaf_count ){
    int d = entry_def(a, T->leaf_first);
    if( d<0 ) return levels_error(a, T->leaf_first);
    tpresent = d >= T->max_def;
  }
  if( T && T->leaf>=0 && (rc = variant_leaf_check(a, typ))!=COL_OK ) return rc;
  if( tpresent ){
    if( T->repetition==PQ_REPEATED ) return variant_error(a, "typed_value is repeated");
    if( T->leaf>=0 ){
      if( vpresent ) return variant_error(a, "conflicting value and typed_value");
      return variant_scalar(a, typ);
    }
    if( is_list(T->el) ){
      if( vpresent ) return variant_error(a, "conflicting value and typed_value");
      return variant_list(a, typ, m, depth);
    }
    return variant_object(a, typ, m, depth, vpresent ? vp : 0, vn);
  }
  if( T && T->leaf_count && (rc = skip_one(a, T))!=COL_OK ) return rc;
  if( vpresent ) return pq_variant_to_json(m, vp, vn, depth, &a->vlim, &a->out, a->err);
  *absent = 1;
  return COL_OK;
}

/* A present VARIANT group: read the row's metadata, then render. */
static int render_variant(assembler *a, int n){
  const pq_node *N = &a->s->nodes[n];
  int md = child_named(a, N, "metadata");
  if( md<0 ) return variant_error(a, "the Variant group has no metadata field");
  const uint8_t *mp; size_t mn; int present;
  int rc = take_bytes(a, md, &mp, &mn, &present);
  if( rc ) return rc;
  if( !present ) return variant_error(a, "metadata is null");
  pq_variant_meta m;
  rc = pq_variant_meta_parse(mp, mn, &m, a->err);
  if( rc ) return rc;
  /* One allowance per instance; saved and restored because a hostile
  ** schema can hide a VARIANT group among the parts we skip. */
  pq_variant_limits saved = a->vlim;
  pq_variant_limits_init(&a->vlim, 0, a->out.n);
  int absent = 0;
  rc = render_shredded(a, n, &m, 0, md, &absent);
  a->vlim = saved;
  if( rc ) return rc;
  /* Both parts null where a value is required: Variant null. */
  if( absent ) strbuf_puts(&a->out, "null");
  return COL_OK;
}


/* The pool a field's leaves were read with (all from one context). */
static col_pool *nchunks_pool(const pq_chunk *chunks, int n){
  return n>0 ? chunks[0].pool : 0;
}

int pq_assemble_json(const pq_schema *s, int field, pq_chunk *chunks,
                     int64_t rows, pq_colvec *o, col_error *err){
  const pq_field *F = &s->fields[field];
  const pq_node *N = &s->nodes[F->node];
  assembler a;
  size_t *offs = 0;
  memset(&a, 0, sizeof(a));
  memset(o, 0, sizeof(*o));
  o->pool = nchunks_pool(chunks, N->leaf_count);
  col_arena_init_pool(&o->arena, o->pool);
  a.s = s; a.base = N->leaf_first; a.err = err;
  a.cur = calloc((size_t)(N->leaf_count ? N->leaf_count : 1), sizeof(leaf_cursor));
  offs = malloc(sizeof(size_t)*((size_t)rows+1));
  uint8_t *tags = pq_colvec_alloc(o, (size_t)(rows ? rows : 1));
  cv_str *sv = pq_colvec_alloc(o, sizeof(cv_str)*(size_t)(rows ? rows : 1));
  if( !a.cur || !offs || !tags || !sv ){
    col_error_set(err, COL_ENOMEM, "out of memory");
    goto json_error;
  }
  for(int i=0; i<N->leaf_count; i++) a.cur[i].c = &chunks[i];
  for(int64_t r=0; r<rows; r++){
    a.row = r;
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
