/*
** fuzz_expr.c — fuzz target for group_by's expression, aggregate-list and
** filter parsers (agg/expr_parse.c, agg/filter.c), evaluating what parses over a
** small batch (a filter's unpushed terms as the group by's where), serially
** and as two lanes folded together (groupby_merge). Input: the bytes as text; the first byte picks keys,
** aggregates or filter, whether a count(DISTINCT) splits onto a helper thread (bit 2), and whether the
** answers are those of a later SQLite (bit 3: reader/dialect.h, every field set), whether column a holds
** raw timestamps (bit 4), whether the lanes are radix lanes (bit 5). Must never crash, leak
** or read out of bounds.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../agg/groupby.h"
#include "../agg/bigmem.h"
#include "../agg/datetime.h"
#include "../agg/filter.h"

/* A REAL's text with the later default's 17 digits (the extension asks
** SQLite's printf; any renderer within PRED_NUM_TEXT_MAX will do here). */
static int fuzz_real_text(double r, int digits, char *buf, size_t n){
  return snprintf(buf, n, "%.*g", digits, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  if( size==0 || size>4096 ) return 0;
  col_dialect dia;
  memset(&dia, 0, sizeof(dia));
  if( data[0] & 8 ){
    dia.like_blobs = dia.utf8_keep_nonchar = dia.utf8_lead_any = dia.sum_kbn = 1;
    dia.date_normalize = dia.strftime_344 = dia.strftime_346 = 1;
    dia.date_ms_cut = dia.date_jd_exact = dia.date_hour24 = 1;
    dia.date_subsec = dia.date_ymd_mod = dia.date_floor = 1;
    dia.real_digits = 17;
    dia.real_text = fuzz_real_text;
    dia.json_null_label_skip = dia.json_label_cstr = dia.json_jsonb = 1;
    dia.date_local = AGG_LOCAL_342;
  }
  char *text = malloc(size);
  memcpy(text, data+1, size-1);
  text[size-1] = 0;
  static const char *names[] = { "a", "b", "c" };
  /* bit 4: column a is a raw timestamp (col_def.ts_unit), so date
  ** functions of it take its integers through agg/ts_memo.c */
  col_def defs[3] = { {(char*)names[0], CV_INT, "INTEGER", (data[0] & 16) ? COL_TS_NANOS : 0, 0},
                      {(char*)names[1], CV_TEXT, "TEXT", 0, 0}, {(char*)names[2], CV_NULL, "", 0, 0} };
  col_schema schema = { 3, defs };
  col_error err; col_error_clear(&err);
  groupby *gb = 0;
  int rc;
  agg_filter f;
  memset(&f, 0, sizeof(f));
  const char *keys = "a", *aggs = "count(*)", *where = 0;
  if( data[0]%3==2 ){
    /* the filter: its unpushed terms run as the group by's where */
    if( agg_filter_parse(text, &schema, &dia, &f, &err)!=COL_OK ){ free(text); return 0; }
    where = f.where;
  }else if( data[0]%3==0 ){
    keys = text;
  }else{
    aggs = text;
  }
  groupby_options o = { 1, 0, where, 0, 0, &dia, 0, 0, 0, 0 };
  rc = groupby_new(keys, aggs, &schema, &o, &gb, &err);
  if( rc==COL_OK ){
    int64_t iv[4] = { 1, -5, INT64_MAX, INT64_MIN };
    double fv[4] = { 1.5, -0.0, 1e300, 2 };
    cv_str sv[4] = { {"2024-01-02 03:04:05", 19}, {"", 0}, {"x\0y", 3}, {"héllo", 6} };
    uint8_t tags[4] = { CV_INT, CV_REAL, CV_TEXT, CV_NULL };
    col_vector cols[3];
    memset(cols, 0, sizeof(cols));
    int nproj; const int *proj; const uint8_t *raw;
    groupby_projection(gb, &nproj, &proj, &raw);
    for(int c=0; c<nproj; c++){
      col_vector *v = &cols[c];
      v->form = CV_FLAT; v->n = 4; v->i64 = iv; v->f64 = fv; v->str = sv;
      if( proj[c]==0 ) v->type = CV_INT;
      else if( proj[c]==1 ) v->type = CV_TEXT;
      else { v->type = CV_INT; v->tags = tags; }
    }
    col_batch b = { 4, 4, 0, nproj, cols, 0, 0 };
    /* and as two lanes of two partitions, the second folded into the
    ** first; bit 5: radix lanes, split into 256 partitions after their
    ** first batch, whose second is held back (or, with a TEXT value of c,
    ** streamed after all); bit 6 with it: only if the first batch repeated
    ** a key (radix_repeats) */
    int radix = (data[0] & 32)!=0;
    groupby_options lo = { 2, 0, where, 1, 0, &dia, radix ? 1 : 0, radix && (data[0] & 64), 0, 0 };
    groupby *l0 = 0, *l1 = 0;
    if( groupby_new(keys, aggs, &schema, &lo, &l0, &err)==COL_OK
     && groupby_new(keys, aggs, &schema, &lo, &l1, &err)==COL_OK ){
      col_batch b1 = b, b2 = b, b3 = b;
      b1.first_row = 4; b2.first_row = 8; b3.first_row = 12;
      int ok = groupby_consume(l0, &b, &err)==COL_OK && groupby_consume(l0, &b1, &err)==COL_OK
            && groupby_consume(l1, &b2, &err)==COL_OK && groupby_consume(l1, &b3, &err)==COL_OK
            && groupby_can_merge(l0);
      if( ok && (groupby_parts(l0) > 2 || groupby_parts(l1) > 2) ){
        groupby *ls[2] = { l0, l1 };
        ok = groupby_radix_widen(l0, &err)==COL_OK && groupby_radix_widen(l1, &err)==COL_OK
          && groupby_radix_begin(ls, 2, &err)==COL_OK;
        void *spare = 0;
        for(int p=0; ok && p<groupby_parts(l0); p++) ok = groupby_radix_part(ls, 2, p, &spare, &err)==COL_OK;
        agg_mem_free(spare);
      }else if( ok ){
        ok = groupby_merge(l0, l1, &err)==COL_OK;
      }
      if( ok && groupby_merge_exact(l0) && groupby_finish(l0, &err)==COL_OK ){
        char buf[64];
        for(uint32_t r=0; r<groupby_ngroups(l0); r++){
          for(int c=0; c<groupby_ncols(l0); c++){ pred_value v; groupby_value(l0, r, c, &v, buf, &err); }
        }
      }
    }
    groupby_free(l0); groupby_free(l1);
    col_error_clear(&err);
    /* bit 2 of the first byte: a count(DISTINCT) hands pairs to a helper
    ** thread from the second batch on */
    int split = (data[0] & 4)!=0;
    if( split ) groupby_split_distinct(gb, 1);
    col_batch b2 = b;
    b2.first_row = 4;
    if( groupby_consume(gb, &b, &err)==COL_OK
     && (!split || groupby_consume(gb, &b2, &err)==COL_OK)
     && groupby_finish(gb, &err)==COL_OK ){
      char buf[64];
      for(uint32_t r=0; r<groupby_ngroups(gb); r++){
        for(int c=0; c<groupby_ncols(gb); c++){ pred_value v; groupby_value(gb, r, c, &v, buf, &err); }
      }
    }
    groupby_free(gb);
  }
  agg_filter_free(&f);
  free(text);
  return 0;
}
