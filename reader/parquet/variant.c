/*
** variant.c — decoding the Variant binary encoding into JSON text.
**
** Written from parquet-format's VariantEncoding.md. The decoder trusts no
** size or offset: each is checked against the bytes of the container it
** lives in before use. Two things keep hostile input bounded:
**
**  - depth: containers nest at most PQ_VARIANT_MAX_DEPTH levels (the
**    recursion is on the C stack, so this is also the stack bound);
**  - work: offsets may legally point anywhere in a container's values
**    region, so N members can all name the same large child, and that
**    child can do the same, giving output exponential in the input. Every
**    value decoded is charged its own encoded bytes against a budget of a
**    few times the input size; a well-formed value (whose members occupy
**    disjoint bytes) spends at most its size, so only overlapping offsets
**    can run out;
**  - output: keys are not charged (they live in the metadata), so the JSON
**    of one value is also capped at PQ_VARIANT_MAX_JSON bytes.
*/
#include "variant.h"
#include "value.h"
#include "meta.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Unsigned little-endian integer of w (1..4) bytes. */
static uint32_t le_uint(const uint8_t *p, int w){
  uint32_t v = 0;
  for(int i=w-1; i>=0; i--) v = (v<<8) | p[i];
  return v;
}
static uint64_t le_u64(const uint8_t *p, int w){
  uint64_t v = 0;
  for(int i=w-1; i>=0; i--) v = (v<<8) | p[i];
  return v;
}

int pq_variant_key_cmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb){
  size_t k = na<nb ? na : nb;
  int c = k ? memcmp(a, b, k) : 0;
  if( c ) return c;
  return na<nb ? -1 : na>nb ? 1 : 0;
}

int pq_variant_meta_parse(const uint8_t *p, size_t n, pq_variant_meta *m,
                          col_error *err){
  memset(m, 0, sizeof(*m));
  if( n<1 ) return col_error_set(err, COL_ERROR, "Variant metadata is empty");
  int version = p[0] & 0x0f;
  if( version!=1 ){
    return col_error_set(err, COL_ERROR, "Variant metadata version %d (only 1 is known)", version);
  }
  m->sorted = (p[0]>>4) & 1;
  m->osize = ((p[0]>>6) & 3) + 1;
  if( n < 1 + (size_t)m->osize ){
    return col_error_set(err, COL_ERROR, "Variant metadata truncated in its dictionary size");
  }
  m->dict_size = le_uint(p+1, m->osize);
  /* dict_size+1 offsets must fit: compare in 64 bits so a 4-byte size
  ** cannot wrap. */
  uint64_t need = 1 + (uint64_t)m->osize + ((uint64_t)m->dict_size + 1) * (uint64_t)m->osize;
  if( need > n ){
    return col_error_set(err, COL_ERROR,
        "Variant metadata dictionary of %u strings needs %llu bytes of offsets, has %zu bytes",
        m->dict_size, (unsigned long long)need, n);
  }
  m->offsets = p + 1 + m->osize;
  m->nbytes = le_uint(m->offsets + (size_t)m->dict_size * (size_t)m->osize, m->osize);
  if( need + m->nbytes > n ){
    return col_error_set(err, COL_ERROR,
        "Variant metadata strings run past its end (%u bytes at offset %llu of %zu)",
        m->nbytes, (unsigned long long)need, n);
  }
  m->bytes = p + need;
  m->size = (size_t)(need + m->nbytes);
  return COL_OK;
}

int pq_variant_meta_key(const pq_variant_meta *m, uint32_t id,
                        const uint8_t **key, size_t *len, col_error *err){
  if( id >= m->dict_size ){
    return col_error_set(err, COL_ERROR,
        "Variant field id %u is outside the metadata dictionary (%u strings)", id, m->dict_size);
  }
  uint32_t a = le_uint(m->offsets + (size_t)id * (size_t)m->osize, m->osize);
  uint32_t b = le_uint(m->offsets + ((size_t)id+1) * (size_t)m->osize, m->osize);
  if( a > b || b > m->nbytes ){
    return col_error_set(err, COL_ERROR,
        "Variant metadata string %u has offsets %u..%u outside its %u bytes", id, a, b, m->nbytes);
  }
  *key = m->bytes + a;
  *len = b - a;
  return COL_OK;
}

int pq_variant_basic_type(const uint8_t *v, size_t n){
  return n ? (v[0] & 3) : -1;
}

/* The shape shared by objects and arrays: element count, (ids,) offsets,
** values region. */
typedef struct container {
  const uint8_t *ids, *offs, *fields;
  size_t fields_len;
  size_t header;             /* bytes before the values region */
  uint32_t count;
  int id_size, off_size;
} container;

static int open_container(const uint8_t *v, size_t n, int is_object,
                          container *c, col_error *err){
  const char *what = is_object ? "object" : "array";
  int hdr = v[0] >> 2;
  int large = is_object ? (hdr>>4) & 1 : (hdr>>2) & 1;
  c->off_size = (hdr & 3) + 1;
  c->id_size = is_object ? ((hdr>>2) & 3) + 1 : 0;
  int nsize = large ? 4 : 1;
  if( n < 1 + (size_t)nsize ){
    return col_error_set(err, COL_ERROR, "Variant %s truncated in its element count", what);
  }
  c->count = le_uint(v+1, nsize);
  uint64_t head = 1 + (uint64_t)nsize + (uint64_t)c->count * (uint64_t)c->id_size
                + ((uint64_t)c->count + 1) * (uint64_t)c->off_size;
  if( head > n ){
    return col_error_set(err, COL_ERROR,
        "Variant %s of %u elements needs %llu header bytes, has %zu",
        what, c->count, (unsigned long long)head, n);
  }
  c->ids = v + 1 + nsize;
  c->offs = c->ids + (size_t)c->count * (size_t)c->id_size;
  c->header = (size_t)head;
  c->fields = v + head;
  uint32_t last = le_uint(c->offs + (size_t)c->count * (size_t)c->off_size, c->off_size);
  if( head + last > n ){
    return col_error_set(err, COL_ERROR,
        "Variant %s values run past its end (%u bytes after a %llu-byte header, %zu available)",
        what, last, (unsigned long long)head, n);
  }
  c->fields_len = last;
  return COL_OK;
}

/* Element i's value bytes within the values region. */
static int container_elem(const container *c, uint32_t i, int is_object,
                          const uint8_t **val, size_t *vlen, col_error *err){
  uint32_t off = le_uint(c->offs + (size_t)i * (size_t)c->off_size, c->off_size);
  if( off >= c->fields_len ){
    return col_error_set(err, COL_ERROR,
        "Variant %s element %u at offset %u lies outside its %zu value bytes",
        is_object ? "object" : "array", i, off, c->fields_len);
  }
  *val = c->fields + off;
  *vlen = c->fields_len - off;
  return COL_OK;
}

int pq_variant_object_open(const uint8_t *v, size_t n, pq_variant_object *o,
                           col_error *err){
  container c;
  memset(o, 0, sizeof(*o));
  if( n<1 ) return col_error_set(err, COL_ERROR, "Variant value is empty");
  if( (v[0]&3)!=2 ) return col_error_set(err, COL_ERROR, "Variant value is not an object");
  int rc = open_container(v, n, 1, &c, err);
  if( rc ) return rc;
  o->ids = c.ids; o->offs = c.offs; o->fields = c.fields; o->fields_len = c.fields_len;
  o->count = c.count; o->id_size = c.id_size; o->off_size = c.off_size;
  return COL_OK;
}

int pq_variant_object_field(const pq_variant_object *o,
                            const pq_variant_meta *m, uint32_t i,
                            const uint8_t **key, size_t *klen,
                            const uint8_t **val, size_t *vlen,
                            col_error *err){
  if( i >= o->count ) return col_error_set(err, COL_ERROR, "Variant object has no member %u", i);
  container c;
  memset(&c, 0, sizeof(c));
  c.ids = o->ids; c.offs = o->offs; c.fields = o->fields; c.fields_len = o->fields_len;
  c.count = o->count; c.id_size = o->id_size; c.off_size = o->off_size;
  int rc = pq_variant_meta_key(m, le_uint(o->ids + (size_t)i*(size_t)o->id_size, o->id_size), key, klen, err);
  if( rc ) return rc;
  return container_elem(&c, i, 1, val, vlen, err);
}

typedef struct decoder {
  const pq_variant_meta *m;
  strbuf *out;
  col_error *err;
  pq_variant_limits *lim;
} decoder;

static int charge(decoder *d, size_t bytes){
  d->lim->budget -= (int64_t)bytes;
  if( d->lim->budget < 0 ){
    return col_error_set(d->err, COL_ERROR,
        "Variant value offsets overlap so much that decoding would not end (more values than bytes)");
  }
  return COL_OK;
}

static void put_hex_blob(strbuf *b, const uint8_t *p, size_t n){
  static const char hex[] = "0123456789ABCDEF";
  strbuf_puts(b, "\"X'");
  if( !strbuf_grow(b, 2*n + 2) ) return;
  for(size_t k=0; k<n; k++){
    b->p[b->n++] = hex[p[k]>>4];
    b->p[b->n++] = hex[p[k]&15];
  }
  strbuf_puts(b, "'\"");
}

static void put_double(strbuf *b, double x){
  char buf[40];
  if( isnan(x) ){ strbuf_puts(b, "\"NaN\""); return; }
  if( isinf(x) ){ strbuf_puts(b, x>0 ? "\"Infinity\"" : "\"-Infinity\""); return; }
  int k = snprintf(buf, sizeof(buf), "%.17g", x);
  strbuf_append(b, buf, (size_t)k);
}

/* Bytes of primitive type t's payload after the header, or -1 when the
** size is in the payload (binary, string) or t is unknown (-2). */
static int prim_width(int t){
  static const signed char w[] = {
    0, 0, 0, 1, 2, 4, 8, 8,      /* null true false int8 int16 int32 int64 double */
    5, 9, 17, 4, 8, 8, 4,        /* decimal4 decimal8 decimal16 date ts tsntz float */
    -1, -1, 8, 8, 8, 16          /* binary string time tsnanos tsntznanos uuid */
  };
  return t < (int)sizeof(w) ? w[t] : -2;
}

static int decode_value(decoder *d, const uint8_t *v, size_t n, int depth);

static int decode_primitive(decoder *d, const uint8_t *v, size_t n){
  int t = v[0] >> 2;
  int w = prim_width(t);
  strbuf *b = d->out;
  char buf[160];
  int k;
  if( w==-2 ) return col_error_set(d->err, COL_ERROR, "Variant primitive type %d is unknown", t);
  if( w==-1 ){
    if( n < 5 ) return col_error_set(d->err, COL_ERROR, "Variant %s truncated in its length", t==15 ? "binary" : "string");
    uint32_t len = le_uint(v+1, 4);
    if( (uint64_t)len > n - 5 ){
      return col_error_set(d->err, COL_ERROR,
          "Variant %s of %u bytes runs past its end (%zu bytes available)",
          t==15 ? "binary" : "string", len, n - 5);
    }
    int rc = charge(d, 5 + (size_t)len);
    if( rc ) return rc;
    if( t==15 ) put_hex_blob(b, v+5, len);
    else strbuf_json_string(b, (const char*)v+5, len);
    return COL_OK;
  }
  if( (size_t)w > n-1 ){
    return col_error_set(d->err, COL_ERROR,
        "Variant primitive type %d needs %d bytes, has %zu", t, w, n-1);
  }
  int rc = charge(d, 1 + (size_t)w);
  if( rc ) return rc;
  const uint8_t *p = v+1;
  switch( t ){
    case 0: strbuf_puts(b, "null"); return COL_OK;
    case 1: strbuf_puts(b, "true"); return COL_OK;
    case 2: strbuf_puts(b, "false"); return COL_OK;
    case 3: k = snprintf(buf, sizeof(buf), "%d", (int)(int8_t)p[0]); break;
    case 4: k = snprintf(buf, sizeof(buf), "%d", (int)(int16_t)le_uint(p, 2)); break;
    case 5: k = snprintf(buf, sizeof(buf), "%d", (int)(int32_t)le_uint(p, 4)); break;
    case 6: k = snprintf(buf, sizeof(buf), "%lld", (long long)(int64_t)le_u64(p, 8)); break;
    case 7: { double x; uint64_t u = le_u64(p, 8); memcpy(&x, &u, 8); put_double(b, x); return COL_OK; }
    case 14: { float f; uint32_t u = le_uint(p, 4); memcpy(&f, &u, 4); put_double(b, (double)f); return COL_OK; }
    case 8: case 9: case 10: {
      int scale = p[0];
      if( scale > 38 ){
        return col_error_set(d->err, COL_ERROR, "Variant decimal scale %d is above 38", scale);
      }
      if( t==10 ){
        uint8_t be[16];
        for(int i=0; i<16; i++) be[i] = p[16-i];
        k = pq_decimal_text_be(be, 16, scale, buf, sizeof(buf));
      }else{
        int64_t x = t==8 ? (int64_t)(int32_t)le_uint(p+1, 4) : (int64_t)le_u64(p+1, 8);
        k = pq_decimal_text_i64(x, scale, buf, sizeof(buf));
      }
      if( k<0 ) return col_error_set(d->err, COL_ERROR, "Variant decimal does not format");
      strbuf_json_string(b, buf, (size_t)k);
      return COL_OK;
    }
    case 11: k = pq_format_date((int32_t)le_uint(p, 4), buf); strbuf_json_string(b, buf, (size_t)k); return COL_OK;
    case 12: case 13: case 18: case 19:
      k = pq_format_timestamp((int64_t)le_u64(p, 8), t<18 ? PQ_UNIT_MICROS : PQ_UNIT_NANOS, buf);
      strbuf_json_string(b, buf, (size_t)k);
      return COL_OK;
    case 17: {
      int64_t x = (int64_t)le_u64(p, 8);
      /* A time of day: anything outside one day is a lie, and keeps the
      ** formatter's hour field small. */
      if( x < 0 || x >= INT64_C(86400000000) ){
        return col_error_set(d->err, COL_ERROR, "Variant time %lld is outside a day", (long long)x);
      }
      k = pq_format_time(x, PQ_UNIT_MICROS, buf);
      strbuf_json_string(b, buf, (size_t)k);
      return COL_OK;
    }
    case 20: k = pq_format_uuid(p, buf); strbuf_json_string(b, buf, (size_t)k); return COL_OK;
    default: return col_error_set(d->err, COL_ERROR, "Variant primitive type %d is unknown", t);
  }
  strbuf_append(b, buf, (size_t)k);
  return COL_OK;
}

typedef struct member {
  const uint8_t *key;
  size_t klen;
  uint32_t idx;
} member;

static int member_cmp(const void *x, const void *y){
  const member *a = x, *b = y;
  int c = pq_variant_key_cmp(a->key, a->klen, b->key, b->klen);
  if( c ) return c;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int decode_object(decoder *d, const uint8_t *v, size_t n, int depth){
  container c;
  int rc = open_container(v, n, 1, &c, d->err);
  if( rc ) return rc;
  rc = charge(d, c.header);
  if( rc ) return rc;
  /* Keys must come sorted and unique; check, and sort a copy of the order
  ** only when a writer got it wrong. */
  member *order = 0;
  int unsorted = 0;
  const uint8_t *pk = 0; size_t pklen = 0;
  for(uint32_t i=0; i<c.count; i++){
    const uint8_t *key; size_t klen;
    rc = pq_variant_meta_key(d->m, le_uint(c.ids + (size_t)i*(size_t)c.id_size, c.id_size), &key, &klen, d->err);
    if( rc ) return rc;
    if( i>0 && pq_variant_key_cmp(pk, pklen, key, klen) >= 0 ){ unsorted = 1; break; }
    pk = key; pklen = klen;
  }
  if( unsorted ){
    order = malloc(sizeof(member) * (size_t)c.count);
    if( !order ) return col_error_set(d->err, COL_ENOMEM, "out of memory");
    for(uint32_t i=0; i<c.count; i++){
      order[i].idx = i;
      rc = pq_variant_meta_key(d->m, le_uint(c.ids + (size_t)i*(size_t)c.id_size, c.id_size),
                               &order[i].key, &order[i].klen, d->err);
      if( rc ){ free(order); return rc; }
    }
    qsort(order, c.count, sizeof(member), member_cmp);
    for(uint32_t i=1; i<c.count; i++){
      if( pq_variant_key_cmp(order[i-1].key, order[i-1].klen, order[i].key, order[i].klen)==0 ){
        rc = col_error_set(d->err, COL_ERROR, "Variant object has the key \"%.*s\" twice",
                           (int)(order[i].klen > 100 ? 100 : order[i].klen), (const char*)order[i].key);
        free(order);
        return rc;
      }
    }
  }
  strbuf_putc(d->out, '{');
  for(uint32_t j=0; j<c.count; j++){
    uint32_t i = order ? order[j].idx : j;
    const uint8_t *key, *val; size_t klen, vlen;
    rc = pq_variant_meta_key(d->m, le_uint(c.ids + (size_t)i*(size_t)c.id_size, c.id_size), &key, &klen, d->err);
    if( !rc ) rc = container_elem(&c, i, 1, &val, &vlen, d->err);
    if( rc ) break;
    if( j ) strbuf_putc(d->out, ',');
    strbuf_json_string(d->out, (const char*)key, klen);
    strbuf_putc(d->out, ':');
    rc = decode_value(d, val, vlen, depth+1);
    if( rc ) break;
  }
  free(order);
  if( rc ) return rc;
  strbuf_putc(d->out, '}');
  return COL_OK;
}

static int decode_array(decoder *d, const uint8_t *v, size_t n, int depth){
  container c;
  int rc = open_container(v, n, 0, &c, d->err);
  if( rc ) return rc;
  rc = charge(d, c.header);
  if( rc ) return rc;
  strbuf_putc(d->out, '[');
  for(uint32_t i=0; i<c.count; i++){
    const uint8_t *val; size_t vlen;
    rc = container_elem(&c, i, 0, &val, &vlen, d->err);
    if( rc ) return rc;
    if( i ) strbuf_putc(d->out, ',');
    rc = decode_value(d, val, vlen, depth+1);
    if( rc ) return rc;
  }
  strbuf_putc(d->out, ']');
  return COL_OK;
}

static int decode_value(decoder *d, const uint8_t *v, size_t n, int depth){
  if( n<1 ) return col_error_set(d->err, COL_ERROR, "Variant value is empty");
  if( depth > PQ_VARIANT_MAX_DEPTH ){
    return col_error_set(d->err, COL_ERROR, "Variant value nests deeper than %d levels", PQ_VARIANT_MAX_DEPTH);
  }
  /* A stuck allocation makes every append a no-op; stop walking early. */
  if( d->out->oom ) return col_error_set(d->err, COL_ENOMEM, "out of memory");
  if( d->out->n > d->lim->out_start && d->out->n - d->lim->out_start > PQ_VARIANT_MAX_JSON ){
    return col_error_set(d->err, COL_ENOMEM, "Variant value renders to more than %zu bytes of JSON",
                         PQ_VARIANT_MAX_JSON);
  }
  switch( v[0] & 3 ){
    case 0: return decode_primitive(d, v, n);
    case 1: {
      size_t len = v[0] >> 2;
      if( len > n-1 ){
        return col_error_set(d->err, COL_ERROR,
            "Variant short string of %zu bytes runs past its end (%zu bytes available)", len, n-1);
      }
      int rc = charge(d, 1 + len);
      if( rc ) return rc;
      strbuf_json_string(d->out, (const char*)v+1, len);
      return COL_OK;
    }
    case 2: return decode_object(d, v, n, depth);
    default: return decode_array(d, v, n, depth);
  }
}

void pq_variant_limits_init(pq_variant_limits *lim, size_t n, size_t out_start){
  lim->budget = 0;
  lim->out_start = out_start;
  pq_variant_limits_add(lim, n);
}

void pq_variant_limits_add(pq_variant_limits *lim, size_t n){
  /* Well-formed values spend at most n; the slack admits writers that
  ** share a child between a few offsets. */
  lim->budget += 4 * (int64_t)n + 256;
}

int pq_variant_to_json(const pq_variant_meta *m, const uint8_t *v, size_t n,
                       int depth, pq_variant_limits *lim, strbuf *out,
                       col_error *err){
  decoder d;
  pq_variant_limits own;
  if( !lim ){ pq_variant_limits_init(&own, n, out->n); lim = &own; }
  d.m = m; d.out = out; d.err = err; d.lim = lim;
  return decode_value(&d, v, n, depth);
}
