/*
** stats.c — row-group pruning from column chunk min/max statistics.
**
** A statistic is only trusted where its sort order is the order SQLite
** compares the converted value in. The deprecated min/max fields (1, 2) were
** written with signed byte comparison by old writers, so they are used only
** for types where that is the right order (signed integers, floats,
** booleans); strings, unsigned integers and decimals stored in bytes need
** min_value/max_value. Dates and timestamps compare as their ISO text, which
** orders like the numbers for years 0000-9999 only; outside that range we do
** not prune.
*/
#include "rowgroup.h"
#include "value.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A pred_value for a statistic's bytes, or 0 when it cannot be used. buf
** holds formatted text (PQ_TEXT_MAX + decimal room). */
int pq_stat_value(const pq_conv *cv, const pq_bytes *b, pred_value *out,
                  char *buf, size_t cap){
  memset(out, 0, sizeof(*out));
  int32_t i32; int64_t i64; float f; double d;
  switch( cv->kind ){
    case PQC_BOOL:
      if( b->n<1 ) return 0;
      out->type = CV_INT; out->i = b->p[0]!=0; return 1;
    case PQC_INT32:
      if( b->n!=4 ) return 0;
      memcpy(&i32, b->p, 4); out->type = CV_INT; out->i = i32; return 1;
    case PQC_UINT32:
      if( b->n!=4 ) return 0;
      { uint32_t u; memcpy(&u, b->p, 4); out->type = CV_INT; out->i = u; } return 1;
    case PQC_INT64:
      if( b->n!=8 ) return 0;
      memcpy(&i64, b->p, 8); out->type = CV_INT; out->i = i64; return 1;
    case PQC_UINT64:
      if( b->n!=8 ) return 0;
      memcpy(&i64, b->p, 8);
      if( i64<0 ) return 0;   /* above INT64_MAX: mixed classes, skip */
      out->type = CV_INT; out->i = i64; return 1;
    case PQC_FLOAT:
      if( b->n!=4 ) return 0;
      memcpy(&f, b->p, 4); if( isnan(f) ) return 0;
      out->type = CV_REAL; out->f = f; return 1;
    case PQC_DOUBLE:
      if( b->n!=8 ) return 0;
      memcpy(&d, b->p, 8); if( isnan(d) ) return 0;
      out->type = CV_REAL; out->f = d; return 1;
    case PQC_DATE:
      if( b->n!=4 ) return 0;
      memcpy(&i32, b->p, 4);
      if( i32 < -719528 || i32 > 2932896 ) return 0;   /* 0000-01-01..9999-12-31 */
      out->type = CV_TEXT; out->p = buf; out->n = (uint32_t)pq_format_date(i32, buf); return 1;
    case PQC_TIMESTAMP: {
      if( b->n!=8 ) return 0;
      memcpy(&i64, b->p, 8);
      int64_t per = cv->unit==PQ_UNIT_MILLIS ? 1000 : cv->unit==PQ_UNIT_NANOS ? 1000000000 : 1000000;
      int64_t secs = i64 / per;
      if( secs < -62167219200LL || secs > 253402300799LL ) return 0;
      out->type = CV_TEXT; out->p = buf; out->n = (uint32_t)pq_format_timestamp(i64, cv->unit, buf); return 1;
    }
    case PQC_DECIMAL: {
      if( cv->out==CV_TEXT ) return 0;   /* text order is not numeric order */
      int len;
      if( cv->phys==PQ_INT32 ){ if( b->n!=4 ) return 0; memcpy(&i32, b->p, 4); len = pq_decimal_text_i64(i32, cv->scale, buf, cap); }
      else if( cv->phys==PQ_INT64 ){ if( b->n!=8 ) return 0; memcpy(&i64, b->p, 8); len = pq_decimal_text_i64(i64, cv->scale, buf, cap); }
      else len = pq_decimal_text_be(b->p, b->n, cv->scale, buf, cap);
      if( len<0 ) return 0;
      out->type = CV_REAL; out->f = strtod(buf, 0);
      return 1;
    }
    case PQC_TEXT:
      out->type = CV_TEXT; out->p = (const char*)b->p; out->n = b->n; return 1;
    case PQC_BLOB:
      out->type = CV_BLOB; out->p = (const char*)b->p; out->n = b->n; return 1;
    default:
      return 0;
  }
}

/* Is the legacy (signed-order) min/max usable for this conversion? */
static int legacy_order_ok(const pq_conv *cv){
  switch( cv->kind ){
    case PQC_BOOL: case PQC_INT32: case PQC_INT64: case PQC_FLOAT: case PQC_DOUBLE:
    case PQC_DATE: case PQC_TIMESTAMP:
      return 1;
    case PQC_DECIMAL:
      return cv->phys==PQ_INT32 || cv->phys==PQ_INT64;
    default:
      return 0;
  }
}

int pq_chunk_bounds(const pq_column_chunk *cc, const pq_conv *cv, int exact,
                    pred_value *mn, char *bmn, pred_value *mx, char *bmx){
  if( !cc->has_meta_data || !cc->meta_data.has_statistics ) return 0;
  const pq_statistics *st = &cc->meta_data.statistics;
  const pq_bytes *lo, *hi;
  if( st->has_min_value && st->has_max_value ){
    if( exact && st->has_is_min_value_exact && !st->is_min_value_exact ) return 0;
    if( exact && st->has_is_max_value_exact && !st->is_max_value_exact ) return 0;
    lo = &st->min_value; hi = &st->max_value;
  }else if( st->has_min && st->has_max && legacy_order_ok(cv) ){
    lo = &st->min; hi = &st->max;
  }else{
    return 0;
  }
  return (pq_stat_value(cv, lo, mn, bmn, 128) ? 1 : 0) | (pq_stat_value(cv, hi, mx, bmx, 128) ? 2 : 0);
}

int pq_chunk_may_hold_null(const pq_row_group *R, const pq_schema *s, int leaf){
  if( leaf<0 || leaf>=R->n_columns ) return 1;
  if( s->leaves[leaf].max_def==0 ) return 0;
  const pq_column_chunk *cc = &R->columns[leaf];
  return !(cc->has_meta_data && cc->meta_data.has_statistics
           && cc->meta_data.statistics.has_null_count && cc->meta_data.statistics.null_count==0);
}

/* May a row of row group R hold a value of pr's column that satisfies pr,
** as the chunk's min/max statistics tell? nulls_match: a NULL counts as
** satisfying it (a bound whose NULLs sort first). No statistics: 1. */
static int chunk_stats_may_match(const pq_row_group *R, const pq_schema *s,
                                 const scan_pred *pr, int nulls_match){
  int leaf = pq_pred_leaf(s, R, pr);
  if( leaf<0 ) return 1;
  const pq_column_chunk *cc = &R->columns[leaf];
  if( !cc->has_meta_data || !cc->meta_data.has_statistics ) return 1;
  const pq_statistics *st = &cc->meta_data.statistics;
  pred_value mn, mx;
  char bmn[128], bmx[128];
  int got = pq_chunk_bounds(cc, &s->leaves[leaf].conv, 0, &mn, bmn, &mx, bmx);
  pred_value *pmn = (got & 1) ? &mn : 0, *pmx = (got & 2) ? &mx : 0;
  int has_nulls = pq_chunk_may_hold_null(R, s, leaf);
  int has_values = !st->has_null_count || st->null_count < R->num_rows;
  if( nulls_match && has_nulls ) return 1;
  return pred_may_match_range(pr, pmn, pmx, has_nulls, has_values);
}

/* Row-group min/max statistics against every predicate. */
static int stats_may_match(pq_file *f, int rg, const pq_rg_plan *plan, scan_stats *stats){
  const scan_spec *spec = plan->spec;
  const pq_row_group *R = &f->meta.row_groups[rg];
  for(int p=0; p<spec->npred; p++){
    if( !chunk_stats_may_match(R, plan->schema, &spec->preds[p], 0) ){
      stats->row_groups_pruned_stats++;
      return 0;
    }
  }
  return 1;
}

int pq_rg_stats_may_match(pq_file *f, int rg, const pq_rg_plan *plan){
  scan_stats st;
  memset(&st, 0, sizeof(st));
  return stats_may_match(f, rg, plan, &st);
}

/* Does the chunk's exact min or max satisfy the predicate? Then a value in
** it does, and its dictionary cannot exclude the row group: reading that
** page to find out cost Q13 (`SearchPhrase <> ''`) a tenth of its time,
** a decompression the decode repeats. */
static int bound_matches(const pq_column_chunk *cc, const pq_conv *cv, const scan_pred *p){
  pred_value mn, mx;
  char bmn[128], bmx[128];
  int got = pq_chunk_bounds(cc, cv, 1, &mn, bmn, &mx, bmx);
  return ((got & 1) && pred_match_value(p, &mn)) || ((got & 2) && pred_match_value(p, &mx));
}

int pq_rg_bound_may_match(pq_file *f, int rg, const pq_rg_plan *plan,
                          const scan_pred *bound, int nulls_first){
  return chunk_stats_may_match(&f->meta.row_groups[rg], plan->schema, bound, nulls_first);
}

int pq_rg_may_match(pq_file *f, int rg, const pq_rg_plan *plan,
                    pq_codec_ctx *codec, scan_stats *stats){
  if( !stats_may_match(f, rg, plan, stats) ) return 0;
  const scan_spec *spec = plan->spec;
  const pq_schema *s = plan->schema;
  const pq_row_group *R = &f->meta.row_groups[rg];
  /* Bloom filters (one small read each), then dictionaries (one page). */
  for(int pass=0; pass<2; pass++){
    for(int p=0; p<spec->npred; p++){
      const scan_pred *pr = &spec->preds[p];
      int leaf = pq_pred_leaf(s, R, pr);
      if( leaf<0 ) continue;
      const pq_column_chunk *cc = &R->columns[leaf];
      if( pass==0 && pq_chunk_bloom_excludes(f, cc, &s->leaves[leaf], pr, stats) ){
        stats->row_groups_pruned_bloom++;
        return 0;
      }
      if( pass==1 && !bound_matches(cc, &s->leaves[leaf].conv, pr)
       && pq_chunk_dict_excludes(f, cc, &s->leaves[leaf], pr, codec, stats) ){
        stats->row_groups_pruned_dict++;
        return 0;
      }
    }
  }
  return 1;
}
