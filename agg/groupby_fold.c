/*
** groupby_fold.c — lanes' tables made one: merged (groupby_merge: one
** lane's groups looked up in another's, their states combined) or folded
** in place (groupby_fold_*: a partition at a time on every thread, the
** lanes' groups moved, not copied); see groupby.h.
*/
#include "groupby_int.h"

int groupby_can_merge(const groupby *gb){
  /* a DISTINCT duplicate's verdict is the row before's, maybe a lane's
  ** before */
  if( gb->nrep && gb->aggs.items[gb->rep_agg].distinct ) return 0;
  for(int a=0; a<gb->aggs.n; a++){
    const agg_item *it = &gb->aggs.items[a];
    if( it->kind!=AGG_GROUP_CONCAT || it->sep==0 ) continue;
    int ncol = 0;
    agg_expr_columns(it->sep, gb_count_col, &ncol);
    if( ncol ) return 0;
  }
  return 1;
}

int groupby_merge_begin(groupby *dst, groupby *src, col_error *err){
  int rc;
  if( dst->nthread!=src->nthread ){
    return col_error_set(err, COL_ERROR, "group_by: lanes with different partitions");
  }
  /* partition p of one must hold the groups partition p of the other may */
  if( dst->single!=src->single ){
    if( (rc = gb_single_split(dst, err))!=0 || (rc = gb_single_split(src, err))!=0 ) return rc;
  }
  /* Column sums stay exact only while the bound holds over both lanes. */
  for(int b=0; b<dst->nbase; b++){
    gb_base *x = &dst->bases[b], *y = &src->bases[b];
    if( x->active && y->active ){
      double mx = x->maxabs > y->maxabs ? x->maxabs : y->maxabs;
      if( (x->rows + y->rows) * (mx + (double)x->maxk) < 4503599627370496.0 ){
        x->rows += y->rows; x->maxabs = mx;
        continue;
      }
    }
    if( x->active && (rc = gb_lin_stop(dst, b, err))!=0 ) return rc;
    if( y->active && (rc = gb_lin_stop(src, b, err))!=0 ) return rc;
  }
  /* group_concat's separators, fixed once here: parts merge in parallel */
  if( dst->msep==0 ){
    dst->msep = calloc((size_t)dst->aggs.n + 1, sizeof(char*));
    dst->msepn = calloc((size_t)dst->aggs.n + 1, sizeof(uint32_t));
    if( !dst->msep || !dst->msepn ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
    for(int a=0; a<dst->aggs.n; a++){
      const agg_item *it = &dst->aggs.items[a];
      if( it->kind!=AGG_GROUP_CONCAT ) continue;
      pred_value sep;
      memset(&sep, 0, sizeof(sep));
      sep.type = CV_TEXT; sep.p = ","; sep.n = 1;
      if( it->sep && !gb_const_value(it->sep, &dst->arena, &sep) ){
        return col_error_set(err, COL_ERROR, "group_by: cannot merge a group_concat whose separator varies");
      }
      if( sep.type==CV_NULL ) continue;
      char buf[40];
      uint32_t n = sep.n;
      const char *p = sep.p;
      if( sep.type==CV_INT ){ n = (uint32_t)agg_int_to_text(sep.i, buf); p = buf; }
      else if( sep.type==CV_REAL ){ n = (uint32_t)agg_real_to_text(&dst->dialect, sep.f, buf); p = buf; }
      dst->msep[a] = malloc((size_t)n + 1);
      if( dst->msep[a]==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
      if( n ) memcpy(dst->msep[a], p, n);
      dst->msepn[a] = n;
    }
  }
  return COL_OK;
}

/* Fold the sums and states of partition s's groups into partition d's,
** group g into map[g] (unless AGG_EMPTY; d holds every mapped group). dg
** is the group by d belongs to, or lane 0 when folding lanes: its bases
** agree with every lane's (fold_begin), and it holds the group_concat
** separators. */
static int gb_fold_into(const groupby *dg, gb_part *d, gb_part *s,
                        const uint32_t *map, col_error *err){
  uint32_t ns = s->table.ngroup;
  int rc;
  for(int b=0; b<dg->nbase; b++){
    if( !dg->bases[b].active ) continue;
    uint32_t n = ns < s->lcap ? ns : s->lcap;
    for(uint32_t g=0; g<n; g++){
      if( map[g]==AGG_EMPTY ) continue;
      d->lsum[b][map[g]] += s->lsum[b][g];
      d->lcnt[b][map[g]] += s->lcnt[b][g];
    }
  }
  for(int a=0; a<dg->aggs.n; a++){
    if( dg->lin_base[a]>=0 && dg->bases[dg->lin_base[a]].active ) continue;
    if( dg->aggs.items[a].nob ){
      /* rows wait to be sorted: s's come after d's */
      if( (rc = agg_ordbuf_move(&d->ord[a], &s->ord[a], map, ns, err))!=0 ) return rc;
      continue;
    }
    if( (rc = agg_state_reserve(&d->states[a], d->table.ngroup, err))!=0 ) return rc;
    pred_value sep, *psep = 0;
    if( dg->aggs.items[a].kind==AGG_GROUP_CONCAT ){
      memset(&sep, 0, sizeof(sep));
      if( dg->msep && dg->msep[a] ){ sep.type = CV_TEXT; sep.p = dg->msep[a]; sep.n = dg->msepn[a]; }
      psep = &sep;
    }
    if( (rc = agg_state_merge(&d->states[a], &s->states[a], map, ns, psep, err))!=0 ) return rc;
  }
  return COL_OK;
}

int groupby_merge_part(groupby *dst, groupby *src, int part, col_error *err){
  gb_part *d = &dst->parts[part], *s = &src->parts[part];
  uint32_t ns = s->table.ngroup, before = d->table.ngroup;
  int rc;
  if( ns==0 ) return COL_OK;
  uint32_t *map = malloc(((size_t)ns + 1) * 4);
  if( map==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
  if( (rc = agg_table_merge(&d->table, &s->table, map, err))!=0 ) goto done;
  uint32_t ng = d->table.ngroup;
  if( dst->nthread>1 && ng>before ){
    /* new groups take the dataset row that made them in src */
    if( ng>d->first_cap ){
      uint32_t cap = d->first_cap ? d->first_cap : 64;
      while( cap<ng ) cap *= 2;
      uint64_t *f = agg_zone_realloc(d->table.zone, d->first_row, (size_t)cap*8);
      if( f==0 ){ rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes"); goto done; }
      d->first_row = f; d->first_cap = cap;
    }
    for(uint32_t g=0; g<ns; g++) if( map[g]>=before ) d->first_row[map[g]] = s->first_row[g];
  }
  if( dst->nbase && gb_lin_reserve(dst, d, ng) ){
    rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
    goto done;
  }
  rc = gb_fold_into(dst, d, s, map, err);
done:
  free(map);
  return rc;
}

int groupby_merge(groupby *dst, groupby *src, col_error *err){
  int rc = groupby_merge_begin(dst, src, err);
  for(int p=0; p<dst->nthread && rc==COL_OK; p++) rc = groupby_merge_part(dst, src, p, err);
  return rc;
}

/* ---- folding lanes without copying -------------------------------------- */

int groupby_can_fold(const groupby *gb){
  /* an ORDER BY aggregate's pairs are the rows it keeps, few when DISTINCT
  ** matters (agg_ordbuf_move); a DISTINCT set proper is not folded */
  for(int a=0; a<gb->aggs.n; a++) if( gb->aggs.items[a].distinct && !gb->aggs.items[a].nob ) return 0;
  return groupby_can_merge(gb);
}

int groupby_fold_begin(groupby **lanes, int nlane, col_error *err){
  int rc;
  if( !groupby_can_fold(lanes[0]) ){
    return col_error_set(err, COL_ERROR, "group_by: these aggregates fold only by copying");
  }
  for(int i=0; i<nlane; i++){
    if( lanes[i]->nparts!=lanes[i]->nthread ){
      return col_error_set(err, COL_ERROR, "group_by: a lane folded twice");
    }
  }
  /* Lanes that all stayed single fold partition 0, which holds every
  ** group of each; else every lane's groups spread by hash first. */
  int all_single = 1;
  for(int i=0; i<nlane; i++) all_single &= lanes[i]->single;
  for(int i=0; i<nlane && !all_single; i++){
    if( (rc = gb_single_split(lanes[i], err))!=0 ) return rc;
  }
  for(int i=1; i<nlane; i++){
    if( (rc = groupby_merge_begin(lanes[0], lanes[i], err))!=0 ) return rc;
  }
  /* a base lane 0 stopped summing (against any lane) stops in every lane:
  ** the partitions lane 0 adopts are read through its own bases */
  for(int b=0; b<lanes[0]->nbase; b++){
    if( lanes[0]->bases[b].active ) continue;
    for(int i=1; i<nlane; i++){
      if( lanes[i]->bases[b].active && (rc = gb_lin_stop(lanes[i], b, err))!=0 ) return rc;
    }
  }
  return COL_OK;
}

/* Keep p's groups with keep[g] set, moved down in order; the table keeps
** no index (nothing probes a folded lane). -1 when out of memory. */
static int gb_part_compact(groupby *gb, gb_part *p, const uint8_t *keep){
  uint32_t ng = p->table.ngroup, m = 0;
  if( p->ord ){
    /* the rows an ORDER BY aggregate keeps name their groups' new slots */
    uint32_t *slot = malloc(((size_t)ng + 1)*4);
    if( slot==0 ) return -1;
    for(uint32_t g=0; g<ng; g++) slot[g] = keep[g] ? m++ : AGG_EMPTY;
    for(int a=0; a<gb->aggs.n; a++) if( gb->aggs.items[a].nob ) agg_ordbuf_compact(&p->ord[a], slot, ng);
    free(slot);
    m = 0;
  }
  for(uint32_t g=0; g<ng; g++){
    if( !keep[g] ) continue;
    if( m!=g ){
      for(int c=0; c<p->table.nkey; c++){
        agg_keycol *k = &p->table.cols[c];
        AGG_KEY_WORD(k, m) = AGG_KEY_WORD(k, g);
        if( k->tags ) k->tags[m] = k->tags[g];
        if( k->lens ) k->lens[m] = k->lens[g];
      }
      p->first_row[m] = p->first_row[g];
      for(int b=0; b<gb->nbase; b++){
        if( !gb->bases[b].active || m>=p->lcap ) continue;
        /* a group past lcap has summed nothing */
        p->lsum[b][m] = g<p->lcap ? p->lsum[b][g] : 0;
        p->lcnt[b][m] = g<p->lcap ? p->lcnt[b][g] : 0;
      }
    }
    m++;
  }
  for(int a=0; a<gb->aggs.n; a++){
    if( gb->lin_base[a]>=0 && gb->bases[gb->lin_base[a]].active ) continue;
    if( gb->aggs.items[a].nob ) continue;    /* its rows, above */
    agg_state_compact(&p->states[a], keep, ng);
  }
  /* the lin sums past the kept groups start from zero again, as fresh ones */
  for(int b=0; b<gb->nbase; b++){
    if( !gb->bases[b].active || m>=p->lcap ) continue;
    uint32_t top = ng < p->lcap ? ng : p->lcap;
    if( top>m ){
      memset(p->lsum[b] + m, 0, (size_t)(top - m)*8);
      memset(p->lcnt[b] + m, 0, (size_t)(top - m)*8);
    }
  }
  p->table.ngroup = m;
  agg_mem_free(p->table.buckets);
  p->table.buckets = 0;
  p->table.nbucket = 0;
  return 0;
}

int groupby_fold_part(groupby **lanes, int nlane, int part, col_error *err){
  int rc = COL_OK;
  uint8_t **keeps = calloc((size_t)nlane, sizeof(uint8_t*));
  const agg_table **ts = calloc((size_t)nlane, sizeof(agg_table*));
  if( keeps==0 || ts==0 ){
    free(keeps); free(ts);
    return col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
  }
  for(int i=0; i<nlane; i++) ts[i] = &lanes[i]->parts[part].table;
  for(int i=1; i<nlane && rc==COL_OK; i++){
    gb_part *s = &lanes[i]->parts[part];
    uint32_t ns = s->table.ngroup;
    if( ns==0 ) continue;
    uint32_t *found = malloc((size_t)ns*4);
    uint32_t *map = malloc((size_t)ns*4);
    uint8_t *which = malloc(ns);
    uint8_t *keep = keeps[i] = malloc(ns);
    if( !found || !map || !which || !keep ){
      rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
    }else{
      /* each group goes to the first earlier lane that has it: lanes scan
      ** runs of rows in order, so that lane saw the group's first row. A
      ** group an earlier lane k already gave away to a lane before k is
      ** found in that lane first. */
      rc = agg_table_find_first(ts, i, &s->table, found, which, err);
      for(uint32_t g=0; g<ns && rc==COL_OK; g++) keep[g] = found[g]==AGG_EMPTY;
      for(int k=0; k<i && rc==COL_OK; k++){
        if( ts[k]->ngroup==0 ) continue;   /* named no group */
        uint32_t hits = 0;
        for(uint32_t g=0; g<ns; g++){
          int here = found[g]!=AGG_EMPTY && which[g]==k;
          map[g] = here ? found[g] : AGG_EMPTY;
          hits += here;
        }
        if( hits ) rc = gb_fold_into(lanes[0], &lanes[k]->parts[part], s, map, err);
      }
    }
    free(found); free(map); free(which);
  }
  /* only now, with no lane left to probe them: the groups no earlier lane
  ** had stay, moved down; the others go */
  for(int i=1; i<nlane && rc==COL_OK; i++){
    if( keeps[i] && gb_part_compact(lanes[i], &lanes[i]->parts[part], keeps[i]) ){
      rc = col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
    }
  }
  for(int i=0; i<nlane; i++) free(keeps[i]);
  free(keeps); free(ts);
  return rc;
}

int groupby_fold_adopt(groupby **lanes, int nlane, col_error *err){
  groupby *dst = lanes[0];
  int np = 0;
  for(int i=0; i<nlane; i++) np += lanes[i]->nparts;
  gb_part *parts = calloc((size_t)np, sizeof(gb_part));
  if( parts==0 ) return col_error_set(err, COL_ENOMEM, "group_by: out of memory merging lanes");
  int n = 0;
  for(int i=0; i<nlane; i++){
    for(int q=0; q<lanes[i]->nparts; q++){
      if( i>0 && lanes[i]->parts[q].table.ngroup==0 ) continue;
      parts[n] = lanes[i]->parts[q];
      memset(&lanes[i]->parts[q], 0, sizeof(gb_part));
      /* the lane goes: its states read dst's dialect from now on (an
      ** ORDER BY aggregate's rows are yet to be stepped) */
      for(int a=0; a<dst->aggs.n && parts[n].states; a++) parts[n].states[a].dialect = &dst->dialect;
      n++;
    }
    if( i>0 ){
      /* the partitions taken may hold blocks of the lane's zone */
      dst->zone = agg_zone_absorb(dst->zone, lanes[i]->zone);
      lanes[i]->zone = 0;
      /* what is left of the lane: its empty partitions */
      for(int q=0; q<lanes[i]->nparts; q++) gb_part_free(lanes[i], &lanes[i]->parts[q]);
      lanes[i]->nparts = 0;
    }
  }
  free(dst->parts);
  dst->parts = parts;
  dst->nparts = n;
  return COL_OK;
}

int groupby_parts(const groupby *gb){ return gb->nparts; }

int groupby_merge_exact(const groupby *gb){
  for(int i=0; i<gb->nparts; i++){
    for(int a=0; a<gb->aggs.n; a++){
      if( !agg_state_sum_order_free(&gb->parts[i].states[a]) ) return 0;
    }
  }
  return 1;
}
