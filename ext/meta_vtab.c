/*
** meta_vtab.c — table-valued functions that show what the readers see.
**
**   SELECT * FROM parquet_schema('hits.parquet');    -- one row per schema element
**   SELECT * FROM parquet_metadata('hits.parquet');  -- one row per column chunk
**   SELECT * FROM scan_stats('hits');                -- the last scan of table hits
**
** The first two take a path or glob (every file matched, in order); the
** third the name of a parquet or csv table of this connection, and reports
** what its last finished scan did: row groups and pages seen and pruned (and
** by what), bytes read, rows decoded and returned. That is how a user sees
** that pushdown worked.
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "meta_vtab.h"
#include "scan_vtab.h"
#include "../reader/parquet/parquet.h"
#include "../reader/parquet/schema_tree.h"
#include "../reader/parquet/value.h"
#include "../reader/parquet/codec.h"
#include <stdio.h>
#include <string.h>

enum { META_SCHEMA, META_METADATA, META_STATS };

typedef struct meta_table {
  sqlite3_vtab base;
  int kind;                  /* META_* */
  columnar_conn *cc;
  int ncol;                  /* visible columns; the argument is ncol */
} meta_table;

typedef struct meta_cursor {
  sqlite3_vtab_cursor base;
  pq_file **files;           /* META_SCHEMA / META_METADATA */
  pq_schema *schemas;
  int nfile;
  int file;                  /* current file */
  int64_t row;               /* row within file: element or chunk index */
  sqlite3_int64 rowid;
  scan_stats stats;          /* META_STATS */
  char *tabname;
  int eof;
} meta_cursor;

static const char *schema_cols =
  "file_name TEXT, name TEXT, type TEXT, type_length INTEGER, repetition_type TEXT, "
  "num_children INTEGER, converted_type TEXT, scale INTEGER, precision INTEGER, "
  "field_id INTEGER, logical_type TEXT, sql_type TEXT";
static const char *metadata_cols =
  "file_name TEXT, row_group_id INTEGER, row_group_num_rows INTEGER, "
  "row_group_num_columns INTEGER, row_group_bytes INTEGER, column_id INTEGER, "
  "file_offset INTEGER, num_values INTEGER, path_in_schema TEXT, type TEXT, "
  "stats_min, stats_max, stats_null_count INTEGER, stats_distinct_count INTEGER, "
  "stats_min_value, stats_max_value, compression TEXT, encodings TEXT, "
  "index_page_offset INTEGER, dictionary_page_offset INTEGER, data_page_offset INTEGER, "
  "total_compressed_size INTEGER, total_uncompressed_size INTEGER, "
  "bloom_filter_offset INTEGER, bloom_filter_length INTEGER, "
  "column_index_offset INTEGER, offset_index_offset INTEGER";
static const char *stats_cols =
  "files INTEGER, row_groups INTEGER, row_groups_pruned_stats INTEGER, "
  "row_groups_pruned_dict INTEGER, row_groups_pruned_bloom INTEGER, pages INTEGER, "
  "pages_pruned INTEGER, bytes_read INTEGER, rows_decoded INTEGER, "
  "rows_returned INTEGER, rows_skipped INTEGER";

static int count_cols(const char *s){
  int n = 1;
  for(; *s; s++) n += *s==',';
  return n;
}

static int meta_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **errmsg, int kind){
  (void)argc; (void)argv; (void)errmsg;
  const char *cols = kind==META_SCHEMA ? schema_cols : kind==META_METADATA ? metadata_cols : stats_cols;
  char *sql = sqlite3_mprintf("CREATE TABLE x(%s, %s HIDDEN)", cols, kind==META_STATS ? "tab" : "path");
  if( !sql ) return SQLITE_NOMEM;
  int rc = sqlite3_declare_vtab(db, sql);
  sqlite3_free(sql);
  if( rc ) return rc;
  meta_table *t = sqlite3_malloc64(sizeof(*t));
  if( !t ) return SQLITE_NOMEM;
  memset(t, 0, sizeof(*t));
  t->kind = kind;
  t->cc = aux;
  t->ncol = count_cols(cols);
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  *out = &t->base;
  return SQLITE_OK;
}
static int schema_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **e){
  return meta_connect(db, aux, argc, argv, out, e, META_SCHEMA);
}
static int metadata_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **e){
  return meta_connect(db, aux, argc, argv, out, e, META_METADATA);
}
static int stats_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **e){
  return meta_connect(db, aux, argc, argv, out, e, META_STATS);
}

static int meta_disconnect(sqlite3_vtab *vt){ sqlite3_free(vt); return SQLITE_OK; }

static int meta_best_index(sqlite3_vtab *vt, sqlite3_index_info *info){
  meta_table *t = (meta_table*)vt;
  for(int i=0; i<info->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if( c->iColumn==t->ncol && c->op==SQLITE_INDEX_CONSTRAINT_EQ ){
      if( !c->usable ) return SQLITE_CONSTRAINT;
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 10;
      info->estimatedRows = 100;
      return SQLITE_OK;
    }
  }
  info->estimatedCost = 1e99;
  return SQLITE_CONSTRAINT;
}

static void cursor_reset(meta_cursor *c){
  for(int i=0; i<c->nfile; i++){
    pq_schema_free(&c->schemas[i]);
    pq_file_close(c->files[i]);
  }
  sqlite3_free(c->files);
  sqlite3_free(c->schemas);
  sqlite3_free(c->tabname);
  c->files = 0; c->schemas = 0; c->nfile = 0; c->tabname = 0;
}

static int meta_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out){
  meta_cursor *c = sqlite3_malloc64(sizeof(*c));
  if( !c ) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *out = &c->base;
  return SQLITE_OK;
}
static int meta_close(sqlite3_vtab_cursor *cur){
  cursor_reset((meta_cursor*)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int64_t file_rows(meta_cursor *c, int f, int kind){
  if( kind==META_SCHEMA ) return c->files[f]->meta.n_schema;
  int64_t n = 0;
  for(int r=0; r<c->files[f]->meta.n_row_groups; r++) n += c->files[f]->meta.row_groups[r].n_columns;
  return n;
}

/* Skip to a file with rows left. */
static void settle(meta_cursor *c, int kind){
  while( c->file < c->nfile && c->row >= file_rows(c, c->file, kind) ){ c->file++; c->row = 0; }
  c->eof = c->file >= c->nfile;
}

static int meta_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                       int argc, sqlite3_value **argv){
  meta_cursor *c = (meta_cursor*)cur;
  meta_table *t = (meta_table*)cur->pVtab;
  (void)idxNum; (void)idxStr;
  cursor_reset(c);
  c->file = 0; c->row = 0; c->rowid = 0; c->eof = 1;
  if( argc<1 ) return SQLITE_OK;
  const char *arg = (const char*)sqlite3_value_text(argv[0]);
  if( !arg ) return SQLITE_OK;
  if( t->kind==META_STATS ){
    const columnar_table_entry *e = columnar_conn_entry(t->cc, arg);
    if( !e ){
      sqlite3_free(t->base.zErrMsg);
      t->base.zErrMsg = sqlite3_mprintf("scan_stats: no parquet, csv or group_by table named %s", arg);
      return SQLITE_ERROR;
    }
    c->eof = !*e->have_last;
    c->stats = *e->last;
    return SQLITE_OK;
  }
  char **paths; int n;
  col_error err; col_error_clear(&err);
  if( pq_expand_paths(arg, &paths, &n, &err) ) goto filter_error;
  c->files = sqlite3_malloc64(sizeof(pq_file*)*(sqlite3_uint64)n);
  c->schemas = sqlite3_malloc64(sizeof(pq_schema)*(sqlite3_uint64)n);
  if( !c->files || !c->schemas ){ pq_free_paths(paths, n); return SQLITE_NOMEM; }
  pq_options opt; memset(&opt, 0, sizeof(opt));
  for(int i=0; i<n; i++){
    if( pq_file_open(paths[i], &c->files[i], &err) ){ pq_free_paths(paths, n); goto filter_error; }
    if( pq_schema_build(&c->files[i]->meta, &opt, &c->schemas[i], &err) ){
      pq_file_close(c->files[i]);
      col_error_prefix(&err, "%s: ", paths[i]);
      pq_free_paths(paths, n);
      goto filter_error;
    }
    c->nfile = i+1;
  }
  pq_free_paths(paths, n);
  settle(c, t->kind);
  return SQLITE_OK;
filter_error:
  sqlite3_free(t->base.zErrMsg);
  t->base.zErrMsg = sqlite3_mprintf("%s", err.msg);
  return SQLITE_ERROR;
}

static int meta_next(sqlite3_vtab_cursor *cur){
  meta_cursor *c = (meta_cursor*)cur;
  meta_table *t = (meta_table*)cur->pVtab;
  c->rowid++;
  if( t->kind==META_STATS ){ c->eof = 1; return SQLITE_OK; }
  c->row++;
  settle(c, t->kind);
  return SQLITE_OK;
}
static int meta_eof(sqlite3_vtab_cursor *cur){ return ((meta_cursor*)cur)->eof; }
static int meta_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *r){ *r = ((meta_cursor*)cur)->rowid; return SQLITE_OK; }

static const char *type_name(int t){
  static const char *n[] = {"BOOLEAN","INT32","INT64","INT96","FLOAT","DOUBLE","BYTE_ARRAY","FIXED_LEN_BYTE_ARRAY"};
  return t>=0 && t<8 ? n[t] : "UNKNOWN";
}
static const char *converted_name(int t){
  static const char *n[] = {"UTF8","MAP","MAP_KEY_VALUE","LIST","ENUM","DECIMAL","DATE","TIME_MILLIS",
    "TIME_MICROS","TIMESTAMP_MILLIS","TIMESTAMP_MICROS","UINT_8","UINT_16","UINT_32","UINT_64",
    "INT_8","INT_16","INT_32","INT_64","JSON","BSON","INTERVAL"};
  return t>=0 && t<22 ? n[t] : 0;
}
static const char *encoding_name(int e){
  static const char *n[] = {"PLAIN","GROUP_VAR_INT","PLAIN_DICTIONARY","RLE","BIT_PACKED",
    "DELTA_BINARY_PACKED","DELTA_LENGTH_BYTE_ARRAY","DELTA_BYTE_ARRAY","RLE_DICTIONARY","BYTE_STREAM_SPLIT"};
  return e>=0 && e<10 ? n[e] : "UNKNOWN";
}

static void logical_text(const pq_logical_type *lt, char *buf, size_t n){
  static const char *unit[] = {"", "MILLIS", "MICROS", "NANOS"};
  const char *u = lt->unit>=1 && lt->unit<=3 ? unit[lt->unit] : "";
  switch( lt->kind ){
    case PQ_LT_STRING: snprintf(buf, n, "STRING"); break;
    case PQ_LT_MAP: snprintf(buf, n, "MAP"); break;
    case PQ_LT_LIST: snprintf(buf, n, "LIST"); break;
    case PQ_LT_ENUM: snprintf(buf, n, "ENUM"); break;
    case PQ_LT_DECIMAL: snprintf(buf, n, "DECIMAL(%d,%d)", lt->precision, lt->scale); break;
    case PQ_LT_DATE: snprintf(buf, n, "DATE"); break;
    case PQ_LT_TIME: snprintf(buf, n, "TIME(%s,%s)", u, lt->is_adjusted_to_utc ? "UTC" : "local"); break;
    case PQ_LT_TIMESTAMP: snprintf(buf, n, "TIMESTAMP(%s,%s)", u, lt->is_adjusted_to_utc ? "UTC" : "local"); break;
    case PQ_LT_INTEGER: snprintf(buf, n, "INT(%d,%s)", lt->bit_width, lt->is_signed ? "signed" : "unsigned"); break;
    case PQ_LT_UNKNOWN: snprintf(buf, n, "UNKNOWN"); break;
    case PQ_LT_JSON: snprintf(buf, n, "JSON"); break;
    case PQ_LT_BSON: snprintf(buf, n, "BSON"); break;
    case PQ_LT_UUID: snprintf(buf, n, "UUID"); break;
    case PQ_LT_FLOAT16: snprintf(buf, n, "FLOAT16"); break;
    case PQ_LT_VARIANT: snprintf(buf, n, "VARIANT"); break;
    case PQ_LT_GEOMETRY: snprintf(buf, n, "GEOMETRY"); break;
    case PQ_LT_GEOGRAPHY: snprintf(buf, n, "GEOGRAPHY"); break;
    default: buf[0] = 0; break;
  }
}

/* A statistic as the SQLite value the column would give. */
static void result_stat(sqlite3_context *ctx, const pq_conv *cv, const pq_bytes *b){
  char buf[700];
  int32_t i32; int64_t i64; float f; double d;
  switch( cv->kind ){
    case PQC_BOOL: if( b->n>=1 ){ sqlite3_result_int(ctx, b->p[0]!=0); return; } break;
    case PQC_INT32: if( b->n==4 ){ memcpy(&i32, b->p, 4); sqlite3_result_int64(ctx, i32); return; } break;
    case PQC_UINT32: if( b->n==4 ){ uint32_t u; memcpy(&u, b->p, 4); sqlite3_result_int64(ctx, u); return; } break;
    case PQC_INT64: if( b->n==8 ){ memcpy(&i64, b->p, 8); sqlite3_result_int64(ctx, i64); return; } break;
    case PQC_UINT64: if( b->n==8 ){ uint64_t u; memcpy(&u, b->p, 8);
      if( u<=(uint64_t)INT64_MAX ) sqlite3_result_int64(ctx, (int64_t)u); else sqlite3_result_double(ctx, (double)u); return; } break;
    case PQC_FLOAT: if( b->n==4 ){ memcpy(&f, b->p, 4); sqlite3_result_double(ctx, f); return; } break;
    case PQC_DOUBLE: if( b->n==8 ){ memcpy(&d, b->p, 8); sqlite3_result_double(ctx, d); return; } break;
    case PQC_DATE: if( b->n==4 ){ memcpy(&i32, b->p, 4); sqlite3_result_text(ctx, buf, pq_format_date(i32, buf), SQLITE_TRANSIENT); return; } break;
    case PQC_TIMESTAMP: if( b->n==8 ){ memcpy(&i64, b->p, 8); sqlite3_result_text(ctx, buf, pq_format_timestamp(i64, cv->unit, buf), SQLITE_TRANSIENT); return; } break;
    case PQC_TIME:
      if( b->n==4 ){ memcpy(&i32, b->p, 4); sqlite3_result_text(ctx, buf, pq_format_time(i32, cv->unit, buf), SQLITE_TRANSIENT); return; }
      if( b->n==8 ){ memcpy(&i64, b->p, 8); sqlite3_result_text(ctx, buf, pq_format_time(i64, cv->unit, buf), SQLITE_TRANSIENT); return; }
      break;
    case PQC_DECIMAL: {
      int n = -1;
      if( cv->phys==PQ_INT32 && b->n==4 ){ memcpy(&i32, b->p, 4); n = pq_decimal_text_i64(i32, cv->scale, buf, sizeof(buf)); }
      else if( cv->phys==PQ_INT64 && b->n==8 ){ memcpy(&i64, b->p, 8); n = pq_decimal_text_i64(i64, cv->scale, buf, sizeof(buf)); }
      else if( cv->phys==PQ_BYTE_ARRAY || cv->phys==PQ_FIXED_LEN_BYTE_ARRAY ) n = pq_decimal_text_be(b->p, b->n, cv->scale, buf, sizeof(buf));
      if( n>=0 ){ sqlite3_result_text(ctx, buf, n, SQLITE_TRANSIENT); return; }
      break;
    }
    case PQC_TEXT: sqlite3_result_text(ctx, (const char*)b->p, (int)b->n, SQLITE_TRANSIENT); return;
    default: break;
  }
  sqlite3_result_blob(ctx, b->p, (int)b->n, SQLITE_TRANSIENT);
}

static int column_schema(meta_cursor *c, sqlite3_context *ctx, int col){
  pq_file *f = c->files[c->file];
  const pq_schema_element *e = &f->meta.schema[c->row];
  char buf[128];
  switch( col ){
    case 0: sqlite3_result_text(ctx, f->path, -1, SQLITE_TRANSIENT); break;
    case 1: sqlite3_result_text(ctx, (const char*)e->name.p, (int)e->name.n, SQLITE_TRANSIENT); break;
    case 2: if( e->has_type ) sqlite3_result_text(ctx, type_name(e->type), -1, SQLITE_STATIC); break;
    case 3: if( e->has_type && e->type==PQ_FIXED_LEN_BYTE_ARRAY ) sqlite3_result_int(ctx, e->type_length); break;
    case 4: if( e->has_repetition ) sqlite3_result_text(ctx, e->repetition_type==0 ? "REQUIRED" : e->repetition_type==1 ? "OPTIONAL" : "REPEATED", -1, SQLITE_STATIC); break;
    case 5: sqlite3_result_int(ctx, e->num_children); break;
    case 6: { const char *n = converted_name(e->converted_type); if( n ) sqlite3_result_text(ctx, n, -1, SQLITE_STATIC); break; }
    case 7: if( e->converted_type==PQ_CT_DECIMAL ) sqlite3_result_int(ctx, e->scale); break;
    case 8: if( e->converted_type==PQ_CT_DECIMAL ) sqlite3_result_int(ctx, e->precision); break;
    case 9: if( e->has_field_id ) sqlite3_result_int(ctx, e->field_id); break;
    case 10: logical_text(&e->logical, buf, sizeof(buf)); if( buf[0] ) sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT); break;
    case 11: {
      const pq_schema *s = &c->schemas[c->file];
      const pq_node *nd = &s->nodes[c->row];
      if( nd->leaf>=0 ) sqlite3_result_text(ctx, s->leaves[nd->leaf].conv.decl, -1, SQLITE_STATIC);
      else if( c->row>0 ) sqlite3_result_text(ctx, "TEXT", -1, SQLITE_STATIC);
      break;
    }
  }
  return SQLITE_OK;
}

static int column_metadata(meta_cursor *c, sqlite3_context *ctx, int col){
  pq_file *f = c->files[c->file];
  const pq_schema *s = &c->schemas[c->file];
  int64_t k = c->row;
  int rg = 0;
  while( k >= f->meta.row_groups[rg].n_columns ){ k -= f->meta.row_groups[rg].n_columns; rg++; }
  const pq_row_group *R = &f->meta.row_groups[rg];
  const pq_column_chunk *cc = &R->columns[k];
  const pq_column_meta *m = &cc->meta_data;
  const pq_statistics *st = &m->statistics;
  const pq_conv *cv = k < s->nleaf ? &s->leaves[k].conv : 0;
  int hm = cc->has_meta_data, hs = hm && m->has_statistics;
  switch( col ){
    case 0: sqlite3_result_text(ctx, f->path, -1, SQLITE_TRANSIENT); break;
    case 1: sqlite3_result_int(ctx, rg); break;
    case 2: sqlite3_result_int64(ctx, R->num_rows); break;
    case 3: sqlite3_result_int(ctx, R->n_columns); break;
    case 4: sqlite3_result_int64(ctx, R->total_byte_size); break;
    case 5: sqlite3_result_int64(ctx, k); break;
    case 6: sqlite3_result_int64(ctx, cc->file_offset); break;
    case 7: if( hm ) sqlite3_result_int64(ctx, m->num_values); break;
    case 8: if( hm ){
      sqlite3_str *p = sqlite3_str_new(0);
      for(int i=0; i<m->n_path; i++) sqlite3_str_appendf(p, "%s%.*s", i ? "." : "", (int)m->path_in_schema[i].n, (const char*)m->path_in_schema[i].p);
      char *z = sqlite3_str_finish(p);
      if( z ) sqlite3_result_text(ctx, z, -1, sqlite3_free);
    } break;
    case 9: if( hm ) sqlite3_result_text(ctx, type_name(m->type), -1, SQLITE_STATIC); break;
    case 10: if( hs && st->has_min && cv ) result_stat(ctx, cv, &st->min); break;
    case 11: if( hs && st->has_max && cv ) result_stat(ctx, cv, &st->max); break;
    case 12: if( hs && st->has_null_count ) sqlite3_result_int64(ctx, st->null_count); break;
    case 13: if( hs && st->has_distinct_count ) sqlite3_result_int64(ctx, st->distinct_count); break;
    case 14: if( hs && st->has_min_value && cv ) result_stat(ctx, cv, &st->min_value); break;
    case 15: if( hs && st->has_max_value && cv ) result_stat(ctx, cv, &st->max_value); break;
    case 16: if( hm ){ const char *n = pq_codec_name(m->codec); sqlite3_result_text(ctx, n ? n : "UNKNOWN", -1, SQLITE_STATIC); } break;
    case 17: if( hm ){
      sqlite3_str *p = sqlite3_str_new(0);
      for(int i=0; i<m->n_encodings; i++) sqlite3_str_appendf(p, "%s%s", i ? "," : "", encoding_name(m->encodings[i]));
      char *z = sqlite3_str_finish(p);
      if( z ) sqlite3_result_text(ctx, z, -1, sqlite3_free);
    } break;
    case 18: if( hm && m->has_index_page_offset ) sqlite3_result_int64(ctx, m->index_page_offset); break;
    case 19: if( hm && m->has_dictionary_page_offset ) sqlite3_result_int64(ctx, m->dictionary_page_offset); break;
    case 20: if( hm ) sqlite3_result_int64(ctx, m->data_page_offset); break;
    case 21: if( hm ) sqlite3_result_int64(ctx, m->total_compressed_size); break;
    case 22: if( hm ) sqlite3_result_int64(ctx, m->total_uncompressed_size); break;
    case 23: if( hm && m->has_bloom_filter ) sqlite3_result_int64(ctx, m->bloom_filter_offset); break;
    case 24: if( hm && m->has_bloom_filter_length ) sqlite3_result_int64(ctx, m->bloom_filter_length); break;
    case 25: if( cc->has_column_index ) sqlite3_result_int64(ctx, cc->column_index_offset); break;
    case 26: if( cc->has_offset_index ) sqlite3_result_int64(ctx, cc->offset_index_offset); break;
  }
  return SQLITE_OK;
}

static int column_stats(meta_cursor *c, sqlite3_context *ctx, int col){
  const scan_stats *s = &c->stats;
  int64_t v[] = { s->files, s->row_groups, s->row_groups_pruned_stats, s->row_groups_pruned_dict,
    s->row_groups_pruned_bloom, s->pages, s->pages_pruned, s->bytes_read, s->rows_decoded,
    s->rows_returned, s->rows_skipped };
  if( col>=0 && col<(int)(sizeof(v)/sizeof(v[0])) ) sqlite3_result_int64(ctx, v[col]);
  return SQLITE_OK;
}

static int meta_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col){
  meta_table *t = (meta_table*)cur->pVtab;
  meta_cursor *c = (meta_cursor*)cur;
  if( t->kind==META_SCHEMA ) return column_schema(c, ctx, col);
  if( t->kind==META_METADATA ) return column_metadata(c, ctx, col);
  return column_stats(c, ctx, col);
}

#define META_MODULE(connect) { 0, 0, connect, meta_best_index, meta_disconnect, 0, \
  meta_open, meta_close, meta_filter, meta_next, meta_eof, meta_column, meta_rowid, \
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
static const sqlite3_module schema_module = META_MODULE(schema_connect);
static const sqlite3_module metadata_module = META_MODULE(metadata_connect);
static const sqlite3_module stats_module = META_MODULE(stats_connect);

int columnar_register_meta(sqlite3 *db, columnar_conn *cc){
  int rc = sqlite3_create_module(db, "parquet_schema", &schema_module, cc);
  if( rc==SQLITE_OK ) rc = sqlite3_create_module(db, "parquet_metadata", &metadata_module, cc);
  if( rc==SQLITE_OK ) rc = sqlite3_create_module(db, "scan_stats", &stats_module, cc);
  return rc;
}
