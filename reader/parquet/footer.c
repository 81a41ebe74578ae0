/*
** footer.c — decodes Parquet's thrift structures into the C structs of
** meta.h: FileMetaData (the footer), PageHeader, OffsetIndex, ColumnIndex
** and BloomFilterHeader.
**
** Field ids are those of parquet.thrift (apache/parquet-format). As in
** thrift's own generated code, unknown fields and known fields of an
** unexpected wire type are skipped; a list whose elements have the wrong
** type, or a missing required field we depend on, is an error.
**
** Memory: every array of one decoded structure comes from a chain of
** blocks hung off its `owner` and freed at once by the *_free function, so a
** footer of 100 columns x 100 row groups costs a handful of mallocs, not one
** per field. Strings point into the caller's buffer. Because a list's size
** is checked against the bytes left before it is allocated, the memory one
** decode takes is bounded by (input bytes) x (largest element struct).
*/
#include "thrift.h"
#include "meta.h"
#include <stdlib.h>
#include <string.h>

/* ---- the block allocator behind `owner` -------------------------------- */

typedef struct meta_block meta_block;
struct meta_block {
  meta_block *next;       /* older block */
  size_t cap;             /* usable bytes in data[] */
  size_t used;            /* bytes handed out */
  _Alignas(16) unsigned char data[];
};

#define META_BLOCK_MIN  1024
#define META_BLOCK_MAX  (1024*1024)

/* A decode in progress: the thrift reader and the blocks allocated so far. */
typedef struct meta_dec {
  pq_thrift t;            /* input position and error */
  meta_block *blocks;     /* becomes the owner of the decoded struct */
} meta_dec;

static void meta_blocks_free(meta_block *b){
  while( b ){
    meta_block *n = b->next;
    free(b);
    b = n;
  }
}

/* n bytes, 16-aligned; NULL with an error recorded when out of memory. */
static void *meta_alloc(meta_dec *d, size_t n, const char *what){
  meta_block *b = d->blocks;
  n = (n + 15) & ~(size_t)15;
  if( b==0 || b->cap - b->used < n ){
    size_t cap = b ? b->cap*2 : META_BLOCK_MIN;
    if( cap > META_BLOCK_MAX ) cap = META_BLOCK_MAX;
    if( cap < n ) cap = n;
    b = malloc(sizeof(*b) + cap);
    if( b==0 ){
      col_error_set(d->t.err, COL_ENOMEM,
                    "out of memory: %zu bytes for %s", n, what);
      return 0;
    }
    b->cap = cap;
    b->used = 0;
    b->next = d->blocks;
    d->blocks = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

/* ---- field readers: read a value of the expected type or skip --------- */

static int is_int_type(int type){
  return type>=PQ_T_I8 && type<=PQ_T_I64;
}

static int fld_i32(pq_thrift *t, int type, int32_t *v, int *has,
                   const char *what){
  if( !is_int_type(type) ) return pq_thrift_skip(t, type, what);
  if( pq_thrift_i32(t, type, v, what) ) return t->err->code;
  if( has ) *has = 1;
  return COL_OK;
}

static int fld_i64(pq_thrift *t, int type, int64_t *v, int *has,
                   const char *what){
  if( !is_int_type(type) ) return pq_thrift_skip(t, type, what);
  if( pq_thrift_i64(t, type, v, what) ) return t->err->code;
  if( has ) *has = 1;
  return COL_OK;
}

static int fld_bool(pq_thrift *t, int type, int *v, int *has,
                    const char *what){
  if( type!=PQ_T_TRUE && type!=PQ_T_FALSE ){
    return pq_thrift_skip(t, type, what);
  }
  *v = type==PQ_T_TRUE;
  if( has ) *has = 1;
  return COL_OK;
}

static int fld_bin(pq_thrift *t, int type, pq_bytes *v, int *has,
                   const char *what){
  if( type!=PQ_T_BINARY ) return pq_thrift_skip(t, type, what);
  if( pq_thrift_binary(t, v, what) ) return t->err->code;
  if( has ) *has = 1;
  return COL_OK;
}

/* A struct we only note the presence of (union members, encryption). */
static int fld_present(pq_thrift *t, int type, int *has, const char *what){
  if( type==PQ_T_STRUCT && has ) *has = 1;
  return pq_thrift_skip(t, type, what);
}

__attribute__((noinline, cold))
static int missing(pq_thrift *t, const char *what){
  return pq_thrift_fail(t, what, "required field missing");
}

typedef int (*struct_fn)(meta_dec *d, void *out);

/* How one list element is checked and decoded. */
typedef struct list_elem {
  size_t size;            /* bytes per decoded element */
  const char *expect;     /* element type named in errors */
  int (*type_ok)(int et); /* is the wire element type acceptable? */
  /* decode one element into slot; fn is fld_list's struct_fn (structs) */
  int (*decode)(meta_dec *d, int et, void *slot, struct_fn fn, const char *what);
} list_elem;

static int ok_struct(int et){ return et==PQ_T_STRUCT; }
static int ok_binary(int et){ return et==PQ_T_BINARY; }
static int ok_bool(int et){ return et==PQ_T_TRUE || et==PQ_T_FALSE; }

static int el_struct(meta_dec *d, int et, void *slot, struct_fn fn, const char *what){
  (void)et; (void)what;
  return fn(d, slot);
}
static int el_i32(meta_dec *d, int et, void *slot, struct_fn fn, const char *what){
  (void)fn;
  return pq_thrift_i32(&d->t, et, slot, what);
}
static int el_i64(meta_dec *d, int et, void *slot, struct_fn fn, const char *what){
  (void)fn;
  return pq_thrift_i64(&d->t, et, slot, what);
}
static int el_binary(meta_dec *d, int et, void *slot, struct_fn fn, const char *what){
  (void)et; (void)fn;
  return pq_thrift_binary(&d->t, slot, what);
}
static int el_bool(meta_dec *d, int et, void *slot, struct_fn fn, const char *what){
  int v;
  (void)et; (void)fn;
  if( pq_thrift_list_bool(&d->t, &v, what) ) return d->t.err->code;
  *(uint8_t*)slot = (uint8_t)v;
  return COL_OK;
}

static const list_elem LIST_STRUCT = { 0, "a struct", ok_struct, el_struct };
static const list_elem LIST_I32 = { sizeof(int32_t), "i32", is_int_type, el_i32 };
static const list_elem LIST_I64 = { sizeof(int64_t), "i64", is_int_type, el_i64 };
static const list_elem LIST_BINARY = { sizeof(pq_bytes), "binary", ok_binary, el_binary };
static const list_elem LIST_BOOL = { 1, "bool", ok_bool, el_bool };

/* A list (or set) field: checks the element type, allocates *count elements
** (the count was checked against the bytes left by list_begin) and decodes
** each. A field that is not a list is skipped and leaves *arr alone. */
static int fld_list(meta_dec *d, int type, const list_elem *el, size_t size,
                    struct_fn fn, void **arr, int32_t *count, const char *what){
  pq_thrift *t = &d->t;
  int et;
  uint32_t n;
  if( type!=PQ_T_LIST && type!=PQ_T_SET ) return pq_thrift_skip(t, type, what);
  if( pq_thrift_list_begin(t, &et, &n, what) ) return t->err->code;
  if( n>0 && !el->type_ok(et) ){
    return pq_thrift_fail(t, what, "list element type %d, expected %s", et, el->expect);
  }
  unsigned char *a = 0;
  if( n>0 ){
    a = meta_alloc(d, (size_t)n*size, what);
    if( a==0 ) return t->err->code;
  }
  for(uint32_t i=0; i<n; i++){
    if( el->decode(d, et, a + (size_t)i*size, fn, what) ) return t->err->code;
  }
  pq_thrift_list_end(t);
  *arr = a;
  *count = (int32_t)n;
  return COL_OK;
}

/* list<struct> of `size`-byte structs decoded by fn. */
static int fld_struct_list(meta_dec *d, int type, size_t size, struct_fn fn,
                           void **arr, int32_t *count, const char *what){
  return fld_list(d, type, &LIST_STRUCT, size, fn, arr, count, what);
}
/* list<i32> (enums): any integer element type is accepted. */
static int fld_i32_list(meta_dec *d, int type, int32_t **arr, int32_t *count,
                        const char *what){
  return fld_list(d, type, &LIST_I32, LIST_I32.size, 0, (void**)arr, count, what);
}
static int fld_i64_list(meta_dec *d, int type, int64_t **arr, int32_t *count,
                        const char *what){
  return fld_list(d, type, &LIST_I64, LIST_I64.size, 0, (void**)arr, count, what);
}
static int fld_bin_list(meta_dec *d, int type, pq_bytes **arr, int32_t *count,
                        const char *what){
  return fld_list(d, type, &LIST_BINARY, LIST_BINARY.size, 0, (void**)arr, count, what);
}
/* list<bool>, one byte per element. */
static int fld_bool_list(meta_dec *d, int type, uint8_t **arr, int32_t *count,
                         const char *what){
  return fld_list(d, type, &LIST_BOOL, LIST_BOOL.size, 0, (void**)arr, count, what);
}

/* ---- structs shared by the footer and page headers -------------------- */

/* Statistics: all fields optional. */
static int dec_statistics(pq_thrift *t, pq_statistics *s){
  static const char W[] = "Statistics";
  int16_t last = 0, id;
  int type;
  memset(s, 0, sizeof(*s));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_bin(t, type, &s->max, &s->has_max, W); break;
      case 2: rc = fld_bin(t, type, &s->min, &s->has_min, W); break;
      case 3: rc = fld_i64(t, type, &s->null_count, &s->has_null_count, W);
              break;
      case 4: rc = fld_i64(t, type, &s->distinct_count,
                           &s->has_distinct_count, W); break;
      case 5: rc = fld_bin(t, type, &s->max_value, &s->has_max_value, W);
              break;
      case 6: rc = fld_bin(t, type, &s->min_value, &s->has_min_value, W);
              break;
      case 7: rc = fld_bool(t, type, &s->is_max_value_exact,
                            &s->has_is_max_value_exact, W); break;
      case 8: rc = fld_bool(t, type, &s->is_min_value_exact,
                            &s->has_is_min_value_exact, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int fld_statistics(pq_thrift *t, int type, pq_statistics *s, int *has,
                          const char *what){
  if( type!=PQ_T_STRUCT ) return pq_thrift_skip(t, type, what);
  if( dec_statistics(t, s) ) return t->err->code;
  *has = 1;
  return COL_OK;
}

/* ---- FileMetaData and what it contains -------------------------------- */

/* TimeUnit union: MILLIS=1, MICROS=2, NANOS=3, each an empty struct. */
static int dec_time_unit(pq_thrift *t, int *unit){
  static const char W[] = "TimeUnit";
  int16_t last = 0, id;
  int type;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( id>=1 && id<=3 && type==PQ_T_STRUCT ) *unit = id;
    if( pq_thrift_skip(t, type, W) ) return t->err->code;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

/* TimeType and TimestampType share their layout. */
static int dec_time_type(pq_thrift *t, pq_logical_type *lt){
  static const char W[] = "TimestampType";
  int16_t last = 0, id;
  int type;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( id==1 ){
      rc = fld_bool(t, type, &lt->is_adjusted_to_utc, 0, W);
    }else if( id==2 && type==PQ_T_STRUCT ){
      rc = dec_time_unit(t, &lt->unit);
    }else{
      rc = pq_thrift_skip(t, type, W);
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

/* DecimalType {1: scale, 2: precision} and IntType {1: bitWidth,
** 2: isSigned}. */
static int dec_decimal_or_int(pq_thrift *t, pq_logical_type *lt, int is_int){
  const char *W = is_int ? "IntType" : "DecimalType";
  int16_t last = 0, id;
  int type;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( is_int ){
      int32_t bw = 0;
      int has_bw = 0;
      if( id==1 ){
        rc = fld_i32(t, type, &bw, &has_bw, W);
        if( has_bw ) lt->bit_width = bw;
      }else if( id==2 ){
        rc = fld_bool(t, type, &lt->is_signed, 0, W);
      }else{
        rc = pq_thrift_skip(t, type, W);
      }
    }else{
      if( id==1 )      rc = fld_i32(t, type, &lt->scale, 0, W);
      else if( id==2 ) rc = fld_i32(t, type, &lt->precision, 0, W);
      else             rc = pq_thrift_skip(t, type, W);
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

/* LogicalType union: the field id is the kind (PQ_LT_*). */
static int dec_logical_type(pq_thrift *t, pq_logical_type *lt){
  static const char W[] = "LogicalType";
  int16_t last = 0, id;
  int type;
  memset(lt, 0, sizeof(*lt));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( type!=PQ_T_STRUCT ){
      rc = pq_thrift_skip(t, type, W);
    }else switch( id ){
      case PQ_LT_DECIMAL:
        lt->kind = id;
        rc = dec_decimal_or_int(t, lt, 0);
        break;
      case PQ_LT_INTEGER:
        lt->kind = id;
        rc = dec_decimal_or_int(t, lt, 1);
        break;
      case PQ_LT_TIME:
      case PQ_LT_TIMESTAMP:
        lt->kind = id;
        rc = dec_time_type(t, lt);
        break;
      case PQ_LT_STRING: case PQ_LT_MAP: case PQ_LT_LIST: case PQ_LT_ENUM:
      case PQ_LT_DATE: case PQ_LT_UNKNOWN: case PQ_LT_JSON: case PQ_LT_BSON:
      case PQ_LT_UUID: case PQ_LT_FLOAT16: case PQ_LT_VARIANT:
      case PQ_LT_GEOMETRY: case PQ_LT_GEOGRAPHY:
        lt->kind = id;
        rc = pq_thrift_skip(t, type, W);
        break;
      default:
        /* A logical type newer than us: the physical type still applies. */
        rc = pq_thrift_skip(t, type, W);
        break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int dec_schema_element(meta_dec *d, void *out){
  static const char W[] = "SchemaElement";
  pq_thrift *t = &d->t;
  pq_schema_element *e = out;
  int16_t last = 0, id;
  int type, has_name = 0;
  memset(e, 0, sizeof(*e));
  e->converted_type = PQ_CT_NONE;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &e->type, &e->has_type, W); break;
      case 2: rc = fld_i32(t, type, &e->type_length, 0, W); break;
      case 3: rc = fld_i32(t, type, &e->repetition_type,
                           &e->has_repetition, W); break;
      case 4: rc = fld_bin(t, type, &e->name, &has_name, W); break;
      case 5: rc = fld_i32(t, type, &e->num_children, 0, W); break;
      case 6: rc = fld_i32(t, type, &e->converted_type, 0, W); break;
      case 7: rc = fld_i32(t, type, &e->scale, 0, W); break;
      case 8: rc = fld_i32(t, type, &e->precision, 0, W); break;
      case 9: rc = fld_i32(t, type, &e->field_id, &e->has_field_id, W); break;
      case 10:
        rc = type==PQ_T_STRUCT ? dec_logical_type(t, &e->logical)
                               : pq_thrift_skip(t, type, W);
        break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_name ) return missing(t, "SchemaElement.name");
  return COL_OK;
}

static int dec_page_encoding_stats(meta_dec *d, void *out){
  static const char W[] = "PageEncodingStats";
  pq_thrift *t = &d->t;
  pq_page_encoding_stats *s = out;
  int16_t last = 0, id;
  int type;
  memset(s, 0, sizeof(*s));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &s->page_type, 0, W); break;
      case 2: rc = fld_i32(t, type, &s->encoding, 0, W); break;
      case 3: rc = fld_i32(t, type, &s->count, 0, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int dec_column_meta(meta_dec *d, pq_column_meta *m){
  static const char W[] = "ColumnMetaData";
  pq_thrift *t = &d->t;
  int16_t last = 0, id;
  int type, has_type = 0, has_codec = 0, has_nv = 0, has_dpo = 0;
  memset(m, 0, sizeof(*m));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    void *arr;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &m->type, &has_type, W); break;
      case 2: rc = fld_i32_list(d, type, &m->encodings, &m->n_encodings,
                                "ColumnMetaData.encodings"); break;
      case 3: rc = fld_bin_list(d, type, &m->path_in_schema, &m->n_path,
                                "ColumnMetaData.path_in_schema"); break;
      case 4: rc = fld_i32(t, type, &m->codec, &has_codec, W); break;
      case 5: rc = fld_i64(t, type, &m->num_values, &has_nv, W); break;
      case 6: rc = fld_i64(t, type, &m->total_uncompressed_size, 0, W); break;
      case 7: rc = fld_i64(t, type, &m->total_compressed_size, 0, W); break;
      case 9: rc = fld_i64(t, type, &m->data_page_offset, &has_dpo, W); break;
      case 10: rc = fld_i64(t, type, &m->index_page_offset,
                            &m->has_index_page_offset, W); break;
      case 11: rc = fld_i64(t, type, &m->dictionary_page_offset,
                            &m->has_dictionary_page_offset, W); break;
      case 12: rc = fld_statistics(t, type, &m->statistics,
                                   &m->has_statistics,
                                   "ColumnMetaData.statistics"); break;
      case 13:
        arr = m->encoding_stats;
        rc = fld_struct_list(d, type, sizeof(pq_page_encoding_stats),
                             dec_page_encoding_stats, &arr,
                             &m->n_encoding_stats,
                             "ColumnMetaData.encoding_stats");
        m->encoding_stats = arr;
        break;
      case 14: rc = fld_i64(t, type, &m->bloom_filter_offset,
                            &m->has_bloom_filter, W); break;
      case 15: rc = fld_i32(t, type, &m->bloom_filter_length,
                            &m->has_bloom_filter_length, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_type ) return missing(t, "ColumnMetaData.type");
  if( !has_codec ) return missing(t, "ColumnMetaData.codec");
  if( !has_nv ) return missing(t, "ColumnMetaData.num_values");
  if( !has_dpo ) return missing(t, "ColumnMetaData.data_page_offset");
  return COL_OK;
}

static int dec_column_chunk(meta_dec *d, void *out){
  static const char W[] = "ColumnChunk";
  pq_thrift *t = &d->t;
  pq_column_chunk *c = out;
  int16_t last = 0, id;
  int type;
  memset(c, 0, sizeof(*c));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_bin(t, type, &c->file_path, 0, W); break;
      case 2: rc = fld_i64(t, type, &c->file_offset, 0, W); break;
      case 3:
        if( type==PQ_T_STRUCT ){
          rc = dec_column_meta(d, &c->meta_data);
          c->has_meta_data = 1;
        }else{
          rc = pq_thrift_skip(t, type, W);
        }
        break;
      case 4: rc = fld_i64(t, type, &c->offset_index_offset,
                           &c->has_offset_index, W); break;
      case 5: rc = fld_i32(t, type, &c->offset_index_length, 0, W); break;
      case 6: rc = fld_i64(t, type, &c->column_index_offset,
                           &c->has_column_index, W); break;
      case 7: rc = fld_i32(t, type, &c->column_index_length, 0, W); break;
      case 8: rc = fld_present(t, type, &c->has_crypto_metadata,
                               "ColumnChunk.crypto_metadata"); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int dec_sorting_column(meta_dec *d, void *out){
  static const char W[] = "SortingColumn";
  pq_thrift *t = &d->t;
  pq_sorting_column *s = out;
  int16_t last = 0, id;
  int type;
  memset(s, 0, sizeof(*s));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &s->column_idx, 0, W); break;
      case 2: rc = fld_bool(t, type, &s->descending, 0, W); break;
      case 3: rc = fld_bool(t, type, &s->nulls_first, 0, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int dec_row_group(meta_dec *d, void *out){
  static const char W[] = "RowGroup";
  pq_thrift *t = &d->t;
  pq_row_group *g = out;
  int16_t last = 0, id;
  int type, has_columns = 0, has_rows = 0;
  memset(g, 0, sizeof(*g));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    void *arr;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1:
        arr = g->columns;
        rc = fld_struct_list(d, type, sizeof(pq_column_chunk),
                             dec_column_chunk, &arr, &g->n_columns,
                             "RowGroup.columns");
        g->columns = arr;
        has_columns = type==PQ_T_LIST || type==PQ_T_SET;
        break;
      case 2: rc = fld_i64(t, type, &g->total_byte_size, 0, W); break;
      case 3: rc = fld_i64(t, type, &g->num_rows, &has_rows, W); break;
      case 4:
        arr = g->sorting_columns;
        rc = fld_struct_list(d, type, sizeof(pq_sorting_column),
                             dec_sorting_column, &arr, &g->n_sorting_columns,
                             "RowGroup.sorting_columns");
        g->sorting_columns = arr;
        break;
      case 5: rc = fld_i64(t, type, &g->file_offset, &g->has_file_offset, W);
              break;
      case 6: rc = fld_i64(t, type, &g->total_compressed_size,
                           &g->has_total_compressed_size, W); break;
      case 7: rc = fld_i32(t, type, &g->ordinal, &g->has_ordinal, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_columns ) return missing(t, "RowGroup.columns");
  if( !has_rows ) return missing(t, "RowGroup.num_rows");
  return COL_OK;
}

static int dec_key_value(meta_dec *d, void *out){
  static const char W[] = "KeyValue";
  pq_thrift *t = &d->t;
  pq_key_value *kv = out;
  int16_t last = 0, id;
  int type;
  memset(kv, 0, sizeof(*kv));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_bin(t, type, &kv->key, 0, W); break;
      case 2: rc = fld_bin(t, type, &kv->value, &kv->has_value, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

/* ColumnOrder union: TYPE_ORDER (1) is the only member defined so far. */
static int dec_column_order(meta_dec *d, void *out){
  static const char W[] = "ColumnOrder";
  pq_thrift *t = &d->t;
  int32_t *order = out;
  int16_t last = 0, id;
  int type;
  *order = 0;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( id==1 && type==PQ_T_STRUCT ) *order = 1;
    if( pq_thrift_skip(t, type, W) ) return t->err->code;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

static int dec_file_meta(meta_dec *d, pq_file_meta *m){
  static const char W[] = "FileMetaData";
  pq_thrift *t = &d->t;
  int16_t last = 0, id;
  int type, has_schema = 0, has_rows = 0, has_groups = 0;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    void *arr;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &m->version, 0, W); break;
      case 2:
        arr = m->schema;
        rc = fld_struct_list(d, type, sizeof(pq_schema_element),
                             dec_schema_element, &arr, &m->n_schema,
                             "FileMetaData.schema");
        m->schema = arr;
        has_schema = type==PQ_T_LIST || type==PQ_T_SET;
        break;
      case 3: rc = fld_i64(t, type, &m->num_rows, &has_rows, W); break;
      case 4:
        arr = m->row_groups;
        rc = fld_struct_list(d, type, sizeof(pq_row_group), dec_row_group,
                             &arr, &m->n_row_groups,
                             "FileMetaData.row_groups");
        m->row_groups = arr;
        has_groups = type==PQ_T_LIST || type==PQ_T_SET;
        break;
      case 5:
        arr = m->key_value;
        rc = fld_struct_list(d, type, sizeof(pq_key_value), dec_key_value,
                             &arr, &m->n_key_value,
                             "FileMetaData.key_value_metadata");
        m->key_value = arr;
        break;
      case 6: rc = fld_bin(t, type, &m->created_by, 0, W); break;
      case 7:
        arr = m->column_orders;
        rc = fld_struct_list(d, type, sizeof(int32_t), dec_column_order,
                             &arr, &m->n_column_orders,
                             "FileMetaData.column_orders");
        m->column_orders = arr;
        break;
      case 8: rc = fld_present(t, type, &m->has_encryption_algorithm,
                               "FileMetaData.encryption_algorithm"); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_schema ) return missing(t, "FileMetaData.schema");
  if( !has_rows ) return missing(t, "FileMetaData.num_rows");
  if( !has_groups ) return missing(t, "FileMetaData.row_groups");
  return COL_OK;
}

int pq_file_meta_decode(const uint8_t *buf, size_t len, pq_file_meta *out,
                        col_error *err){
  meta_dec d;
  memset(out, 0, sizeof(*out));
  pq_thrift_init(&d.t, buf, len, err);
  d.blocks = 0;
  if( dec_file_meta(&d, out) ) goto decode_error;
  out->owner = d.blocks;
  return COL_OK;

decode_error:
  meta_blocks_free(d.blocks);
  memset(out, 0, sizeof(*out));
  return err->code;
}

void pq_file_meta_free(pq_file_meta *m){
  if( m==0 ) return;
  meta_blocks_free(m->owner);
  memset(m, 0, sizeof(*m));
}

/* ---- PageHeader --------------------------------------------------------- */

static int dec_data_page_header(pq_thrift *t, pq_data_page_header *h){
  static const char W[] = "DataPageHeader";
  int16_t last = 0, id;
  int type, has_nv = 0, has_enc = 0;
  memset(h, 0, sizeof(*h));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &h->num_values, &has_nv, W); break;
      case 2: rc = fld_i32(t, type, &h->encoding, &has_enc, W); break;
      case 3: rc = fld_i32(t, type, &h->definition_level_encoding, 0, W);
              break;
      case 4: rc = fld_i32(t, type, &h->repetition_level_encoding, 0, W);
              break;
      case 5: rc = fld_statistics(t, type, &h->statistics,
                                  &h->has_statistics,
                                  "DataPageHeader.statistics"); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_nv ) return missing(t, "DataPageHeader.num_values");
  if( !has_enc ) return missing(t, "DataPageHeader.encoding");
  if( h->num_values<0 ){
    return pq_thrift_fail(t, W, "negative num_values %d", (int)h->num_values);
  }
  return COL_OK;
}

static int dec_dictionary_page_header(pq_thrift *t,
                                      pq_dictionary_page_header *h){
  static const char W[] = "DictionaryPageHeader";
  int16_t last = 0, id;
  int type, has_nv = 0;
  memset(h, 0, sizeof(*h));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &h->num_values, &has_nv, W); break;
      case 2: rc = fld_i32(t, type, &h->encoding, 0, W); break;
      case 3: rc = fld_bool(t, type, &h->is_sorted, 0, W); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_nv ) return missing(t, "DictionaryPageHeader.num_values");
  if( h->num_values<0 ){
    return pq_thrift_fail(t, W, "negative num_values %d", (int)h->num_values);
  }
  return COL_OK;
}

static int dec_data_page_header_v2(pq_thrift *t, pq_data_page_header_v2 *h){
  static const char W[] = "DataPageHeaderV2";
  int16_t last = 0, id;
  int type, has_nv = 0, has_rows = 0;
  memset(h, 0, sizeof(*h));
  h->is_compressed = 1;
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(t, type, &h->num_values, &has_nv, W); break;
      case 2: rc = fld_i32(t, type, &h->num_nulls, 0, W); break;
      case 3: rc = fld_i32(t, type, &h->num_rows, &has_rows, W); break;
      case 4: rc = fld_i32(t, type, &h->encoding, 0, W); break;
      case 5: rc = fld_i32(t, type, &h->definition_levels_byte_length, 0, W);
              break;
      case 6: rc = fld_i32(t, type, &h->repetition_levels_byte_length, 0, W);
              break;
      case 7: rc = fld_bool(t, type, &h->is_compressed, 0, W); break;
      case 8: rc = fld_statistics(t, type, &h->statistics,
                                  &h->has_statistics,
                                  "DataPageHeaderV2.statistics"); break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_nv ) return missing(t, "DataPageHeaderV2.num_values");
  if( h->num_values<0 || h->num_nulls<0 || h->num_rows<0
   || h->definition_levels_byte_length<0
   || h->repetition_levels_byte_length<0 ){
    return pq_thrift_fail(t, W, "negative count or length");
  }
  return COL_OK;
}

int pq_page_header_decode(const uint8_t *buf, size_t len, pq_page_header *out,
                          size_t *header_len, col_error *err){
  static const char W[] = "PageHeader";
  pq_thrift t;
  int16_t last = 0, id;
  int type, has_type = 0, has_usize = 0, has_csize = 0;
  memset(out, 0, sizeof(*out));
  *header_len = 0;
  pq_thrift_init(&t, buf, len, err);
  if( pq_thrift_struct_begin(&t, W) ) return err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(&t, &last, &type, &id, W) ) return err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i32(&t, type, &out->type, &has_type, W); break;
      case 2: rc = fld_i32(&t, type, &out->uncompressed_page_size,
                           &has_usize, W); break;
      case 3: rc = fld_i32(&t, type, &out->compressed_page_size,
                           &has_csize, W); break;
      case 4: rc = fld_i32(&t, type, &out->crc, &out->has_crc, W); break;
      case 5:
        if( type!=PQ_T_STRUCT ){ rc = pq_thrift_skip(&t, type, W); break; }
        rc = dec_data_page_header(&t, &out->data_page_header);
        out->has_data_page_header = 1;
        break;
      case 7:
        if( type!=PQ_T_STRUCT ){ rc = pq_thrift_skip(&t, type, W); break; }
        rc = dec_dictionary_page_header(&t, &out->dictionary_page_header);
        out->has_dictionary_page_header = 1;
        break;
      case 8:
        if( type!=PQ_T_STRUCT ){ rc = pq_thrift_skip(&t, type, W); break; }
        rc = dec_data_page_header_v2(&t, &out->data_page_header_v2);
        out->has_data_page_header_v2 = 1;
        break;
      default: rc = pq_thrift_skip(&t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(&t);
  if( !has_type ) return missing(&t, "PageHeader.type");
  if( !has_usize ) return missing(&t, "PageHeader.uncompressed_page_size");
  if( !has_csize ) return missing(&t, "PageHeader.compressed_page_size");
  if( out->uncompressed_page_size<0 || out->compressed_page_size<0 ){
    return pq_thrift_fail(&t, W, "negative page size (%d compressed, "
                          "%d uncompressed)", (int)out->compressed_page_size,
                          (int)out->uncompressed_page_size);
  }
  *header_len = t.pos;
  return COL_OK;
}

/* ---- OffsetIndex -------------------------------------------------------- */

static int dec_page_location(meta_dec *d, void *out){
  static const char W[] = "PageLocation";
  pq_thrift *t = &d->t;
  pq_page_location *l = out;
  int16_t last = 0, id;
  int type, has_off = 0, has_size = 0, has_first = 0;
  memset(l, 0, sizeof(*l));
  if( pq_thrift_struct_begin(t, W) ) return t->err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    switch( id ){
      case 1: rc = fld_i64(t, type, &l->offset, &has_off, W); break;
      case 2: rc = fld_i32(t, type, &l->compressed_page_size, &has_size, W);
              break;
      case 3: rc = fld_i64(t, type, &l->first_row_index, &has_first, W);
              break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(t);
  if( !has_off || !has_size || !has_first ){
    return missing(t, "PageLocation");
  }
  return COL_OK;
}

int pq_offset_index_decode(const uint8_t *buf, size_t len,
                           pq_offset_index *out, col_error *err){
  static const char W[] = "OffsetIndex";
  meta_dec d;
  int16_t last = 0, id;
  int type, has_locs = 0;
  memset(out, 0, sizeof(*out));
  pq_thrift_init(&d.t, buf, len, err);
  d.blocks = 0;
  if( pq_thrift_struct_begin(&d.t, W) ) goto offset_index_error;
  for(;;){
    int rc;
    void *arr;
    if( pq_thrift_field(&d.t, &last, &type, &id, W) ) goto offset_index_error;
    if( type==PQ_T_STOP ) break;
    if( id==1 ){
      arr = out->page_locations;
      rc = fld_struct_list(&d, type, sizeof(pq_page_location),
                           dec_page_location, &arr, &out->n_page_locations,
                           "OffsetIndex.page_locations");
      out->page_locations = arr;
      has_locs = type==PQ_T_LIST || type==PQ_T_SET;
    }else{
      rc = pq_thrift_skip(&d.t, type, W);
    }
    if( rc ) goto offset_index_error;
  }
  pq_thrift_struct_end(&d.t);
  if( !has_locs ){
    missing(&d.t, "OffsetIndex.page_locations");
    goto offset_index_error;
  }
  out->owner = d.blocks;
  return COL_OK;

offset_index_error:
  meta_blocks_free(d.blocks);
  memset(out, 0, sizeof(*out));
  return err->code;
}

void pq_offset_index_free(pq_offset_index *o){
  if( o==0 ) return;
  meta_blocks_free(o->owner);
  memset(o, 0, sizeof(*o));
}

/* ---- ColumnIndex -------------------------------------------------------- */

int pq_column_index_decode(const uint8_t *buf, size_t len,
                           pq_column_index *out, col_error *err){
  static const char W[] = "ColumnIndex";
  meta_dec d;
  pq_thrift *t = &d.t;
  int16_t last = 0, id;
  int type, has_nulls = 0, has_min = 0, has_max = 0, has_order = 0;
  int32_t n_min = 0, n_max = 0, n_counts = 0;
  memset(out, 0, sizeof(*out));
  pq_thrift_init(t, buf, len, err);
  d.blocks = 0;
  if( pq_thrift_struct_begin(t, W) ) goto column_index_error;
  for(;;){
    int rc;
    if( pq_thrift_field(t, &last, &type, &id, W) ) goto column_index_error;
    if( type==PQ_T_STOP ) break;
    int is_list = type==PQ_T_LIST || type==PQ_T_SET;
    switch( id ){
      case 1:
        rc = fld_bool_list(&d, type, &out->null_pages, &out->n_pages,
                           "ColumnIndex.null_pages");
        has_nulls |= is_list;
        break;
      case 2:
        rc = fld_bin_list(&d, type, &out->min_values, &n_min,
                          "ColumnIndex.min_values");
        has_min |= is_list;
        break;
      case 3:
        rc = fld_bin_list(&d, type, &out->max_values, &n_max,
                          "ColumnIndex.max_values");
        has_max |= is_list;
        break;
      case 4: rc = fld_i32(t, type, &out->boundary_order, &has_order, W);
              break;
      case 5:
        rc = fld_i64_list(&d, type, &out->null_counts, &n_counts,
                          "ColumnIndex.null_counts");
        out->has_null_counts |= is_list;
        break;
      default: rc = pq_thrift_skip(t, type, W); break;
    }
    if( rc ) goto column_index_error;
  }
  pq_thrift_struct_end(t);
  if( !has_nulls || !has_min || !has_max || !has_order ){
    missing(t, "ColumnIndex");
    goto column_index_error;
  }
  /* Consumers index every list by page: their lengths must agree. */
  if( n_min!=out->n_pages || n_max!=out->n_pages
   || (out->has_null_counts && n_counts!=out->n_pages) ){
    pq_thrift_fail(t, W, "list lengths disagree: %d null_pages, %d min_values,"
                   " %d max_values, %d null_counts", (int)out->n_pages,
                   (int)n_min, (int)n_max, (int)n_counts);
    goto column_index_error;
  }
  out->owner = d.blocks;
  return COL_OK;

column_index_error:
  meta_blocks_free(d.blocks);
  memset(out, 0, sizeof(*out));
  return err->code;
}

void pq_column_index_free(pq_column_index *c){
  if( c==0 ) return;
  meta_blocks_free(c->owner);
  memset(c, 0, sizeof(*c));
}

/* ---- BloomFilterHeader -------------------------------------------------- */

/* The algorithm, hash and compression unions each have one member so far,
** field 1; *is_first says whether that member was the one present. */
static int dec_union_first(pq_thrift *t, int *is_first, const char *what){
  int16_t last = 0, id;
  int type;
  *is_first = 0;
  if( pq_thrift_struct_begin(t, what) ) return t->err->code;
  for(;;){
    if( pq_thrift_field(t, &last, &type, &id, what) ) return t->err->code;
    if( type==PQ_T_STOP ) break;
    if( id==1 && type==PQ_T_STRUCT ) *is_first = 1;
    if( pq_thrift_skip(t, type, what) ) return t->err->code;
  }
  pq_thrift_struct_end(t);
  return COL_OK;
}

int pq_bloom_filter_header_decode(const uint8_t *buf, size_t len,
                                  pq_bloom_filter_header *out,
                                  size_t *header_len, col_error *err){
  static const char W[] = "BloomFilterHeader";
  pq_thrift t;
  int16_t last = 0, id;
  int type, has_bytes = 0;
  memset(out, 0, sizeof(*out));
  *header_len = 0;
  pq_thrift_init(&t, buf, len, err);
  if( pq_thrift_struct_begin(&t, W) ) return err->code;
  for(;;){
    int rc;
    if( pq_thrift_field(&t, &last, &type, &id, W) ) return err->code;
    if( type==PQ_T_STOP ) break;
    if( id>=2 && id<=4 && type==PQ_T_STRUCT ){
      int *dst = id==2 ? &out->algorithm_block
               : id==3 ? &out->hash_xxhash : &out->compression_uncompressed;
      rc = dec_union_first(&t, dst, W);
    }else if( id==1 ){
      rc = fld_i32(&t, type, &out->num_bytes, &has_bytes, W);
    }else{
      rc = pq_thrift_skip(&t, type, W);
    }
    if( rc ) return rc;
  }
  pq_thrift_struct_end(&t);
  if( !has_bytes ) return missing(&t, "BloomFilterHeader.numBytes");
  if( out->num_bytes<0 ){
    return pq_thrift_fail(&t, W, "negative numBytes %d", (int)out->num_bytes);
  }
  *header_len = t.pos;
  return COL_OK;
}
